//! How pictures draw a board: `[board] drawing = "points"` with a river and diagonals, on a
//! small variant of its own (tests/variants/points.toml).

use bulwark::view::{self, board_svg, diagram_svg};
use bulwark::{Ruleset, Side};

fn points() -> Ruleset {
    Ruleset::load_named(&format!(
        "{}/tests/variants/points.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap_or_else(|e| panic!("{}", view::diagnostic_text(&e)))
}

#[test]
fn a_board_of_points_draws_its_lines_river_and_diagonals() {
    let rules = points();
    assert_eq!(rules.lines.river, Some(3));
    assert_eq!(rules.lines.diagonals.len(), 1);
    let svg = board_svg(&rules, &rules.setup, "Points");
    // 5 × 6 points: 4 × 6 lines along the ranks, 5 × 5 along the files less the three inner
    // files' lines across the river, and the two diagonals of each side's castle.
    assert_eq!(
        svg.matches("<line ").count(),
        24 + (25 - 3) + 2 * 2,
        "{svg}"
    );
    // The river: one band between ranks 3 and 4.
    assert_eq!(svg.matches(r##"fill="#a9cfe0""##).count(), 1);
    // No squares: the cells are not filled in a board of points.
    assert!(!svg.contains(r##"fill="#c9b38f""##) && !svg.contains(r##"fill="#efe4cf""##));
    // The sides' colours from their names.
    assert!(svg.contains(r##"fill="#c8102e""##), "red pieces");
}

#[test]
fn a_diagram_on_points_marks_the_origin_on_its_point() {
    let rules = points();
    let at = rules.topo.parse_cell("e1").unwrap();
    let d = bulwark::view::diagram(&rules, &rules.setup, at).unwrap();
    assert_eq!(d.side, Side::White);
    let svg = diagram_svg(&rules, &rules.setup, &d);
    assert!(
        svg.contains(r##"rx="6" fill="#e5383b""##),
        "the origin, a rounded mark"
    );
    assert!(svg.contains("rook (R) on e1, red</text>"), "{svg}");
}

/// Without `drawing = "points"`, `river` and `diagonals` are refused, and so are a river off
/// the board and a region that does not exist (with the closest name).
#[test]
fn river_and_diagonals_misused_are_reported() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/variants/points.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let squares = text.replace("drawing = \"points\"", "drawing = \"squares\"");
    let e = Ruleset::from_source("squares.toml", &squares).unwrap_err();
    let messages: Vec<&str> = e.problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`river` is drawn only on a board of points",
            "`diagonals` is drawn only on a board of points"
        ]
    );
    let wrong = text
        .replace("river = 3", "river = 6")
        .replace("diagonals = [\"castle\"]", "diagonals = [\"casle\"]");
    let e = Ruleset::from_source("wrong.toml", &wrong).unwrap_err();
    let messages: Vec<&str> = e.problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "a river after rank 6: the board's ranks are 1 to 6",
            "unknown region `casle`"
        ]
    );
    assert!(e.problems[1].help.starts_with("did you mean `castle`?"));
}

/// `picture` draws a piece with a built-in picture: the small variant's rook as a chariot
/// (the first side's character 俥, the second's 車); a piece without one keeps its letter.
#[test]
fn a_piece_with_a_picture_is_drawn_with_it_and_others_with_their_letter() {
    let rules = points();
    let svg = board_svg(&rules, &rules.setup, "Points");
    assert_eq!(
        svg.matches(r#"<g class="picture">"#).count(),
        2,
        "the two rooks"
    );
    assert!(svg.contains(">俥</text>") && svg.contains(">車</text>"));
    // The kings have no picture: their letter in a disc.
    assert!(svg.contains(">K</text>"));
    // Chess: all 32 pieces as pictures, none as a letter.
    let chess = Ruleset::load_named("chess").unwrap();
    let svg = board_svg(&chess, &chess.setup, "Chess");
    assert_eq!(svg.matches(r#"class="picture""#).count(), 32);
    // Bollwerk 178's invented pieces keep their letters.
    let b = Ruleset::load_named("bollwerk178").unwrap();
    assert!(!board_svg(&b, &b.setup, "B").contains(r#"class="picture""#));
}

/// A picture that is not built in is refused, with the closest name.
#[test]
fn an_unknown_picture_is_reported_with_the_closest_name() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/variants/points.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace("picture = \"chariot\"", "picture = \"chariott\"");
    let e = Ruleset::from_source("p.toml", &text).unwrap_err();
    assert_eq!(e.problems.len(), 1);
    assert_eq!(e.problems[0].code.name(), "picture");
    assert!(e.problems[0].help.starts_with("did you mean `chariot`?"));
}
