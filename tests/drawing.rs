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
