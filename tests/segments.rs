//! Direction sets that depend on the class of cell (`[classes]`, `[directions-by-class]`),
//! compiled into link tables: Border Wars's segment board (`tests/variants/segments.toml`),
//! each count worked out by hand on the segment picture.

use bulwark::play::Game;
use bulwark::vm::{Machine, Options};
use bulwark::{Ruleset, Side, text, view};

fn rules() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        Ruleset::from_source("segments.toml", include_str!("variants/segments.toml"))
            .unwrap_or_else(|e| panic!("{}", view::diagnostic_text(&e)))
    })
}

/// The destinations of the piece on `at` (its own side's view), sorted.
fn reach(position: &str, at: &str) -> Vec<String> {
    let r = rules();
    let pos = text::parse_position(r, position).unwrap();
    let mut vm = Machine::new();
    let mut o = Options::default();
    vm.moves(r, &pos, r.topo.parse_cell(at).unwrap(), &mut o);
    let mut v: Vec<String> = o.moves.iter().map(|m| r.topo.name(m.to)).collect();
    v.sort();
    v.dedup();
    v
}

/// A position with one extra White piece (letter) on `cell` besides both generals.
fn with(letter: char, cell: &str) -> String {
    let r = rules();
    let mut pos = text::parse_position(r, &r.setup_text()).unwrap();
    let c = r.topo.parse_cell(cell).unwrap();
    let k = r.pieces.iter().position(|p| p.letter == letter).unwrap();
    pos.put(
        c,
        bulwark::Occupant::piece(bulwark::Side::White, bulwark::core::PieceKindId::new(k)),
    );
    text::write_position(r, &pos)
}

#[test]
fn the_board_has_42_segments() {
    assert_eq!(rules().topo.len(), 42);
}

#[test]
fn crosspoint_follows_the_segments_own_axis() {
    // A pawn on the horizontal segment d2: crosspoint to b2 and f2 (two files along its line),
    // crosscorner to c3 and e3 (c1 is no segment, e1 holds its own general).
    assert_eq!(reach(&with('P', "d2"), "d2"), ["b2", "c3", "e3", "f2"]);
    // On the vertical segment c5: crosspoint c3 and c7 (two ranks), crosscorner b4 d4 b6 d6.
    assert_eq!(
        reach(&with('P', "c5"), "c5"),
        ["b4", "b6", "c3", "c7", "d4", "d6"]
    );
}

#[test]
fn a_crosspoint_ride_runs_along_its_line() {
    // A guard on b2 rides rank 2 (d2, f2, h2) and steps crosscorner to a3 and c3.
    assert_eq!(
        reach(&with('U', "b2"), "b2"),
        ["a3", "c3", "d2", "f2", "h2"]
    );
    // On c5 it rides the c-file (c3, c7, c9: there is no c1 or c11) and steps crosscorner.
    assert_eq!(
        reach(&with('U', "c5"), "c5"),
        ["b4", "b6", "c3", "c7", "c9", "d4", "d6"]
    );
}

#[test]
fn a_crosscorner_ride_runs_a_diagonal_of_the_grid() {
    // A diplomat on b2: diagonals up-right c3 d4 e5 f6 g7 h8 i9; up-left a3; crosspoint d2.
    assert_eq!(
        reach(&with('D', "b2"), "b2"),
        ["a3", "c3", "d2", "d4", "e5", "f6", "g7", "h8", "i9"]
    );
}

#[test]
fn classed_directions_work_for_both_sides_and_in_play() {
    // Black's crosspoint is the mirror image: from e11 the road leads down to e9.
    let r = rules();
    let mut g = Game::new(r, text::parse_position(r, &r.setup_text()).unwrap()).unwrap();
    let mut l: Vec<String> = g
        .legal_turns()
        .unwrap()
        .iter()
        .map(|t| text::turn_text(r, t))
        .collect();
    l.sort();
    assert_eq!(l, ["e1-d2", "e1-e3", "e1-f2"]);
    let t = text::parse_turn(&mut g, "e1-e3").unwrap();
    g.play(&t);
    let mut l: Vec<String> = g
        .legal_turns()
        .unwrap()
        .iter()
        .map(|t| text::turn_text(r, t))
        .collect();
    l.sort();
    assert_eq!(l, ["e11-d10", "e11-e9", "e11-f10"]);
    // The listing names the classed vectors.
    let listing = r.pieces[0]
        .moves
        .listing(&r.links, &r.names_owned().names());
    assert!(listing.contains("classed#0"), "{listing}");
}

fn turns(position: &str) -> Vec<String> {
    let r = rules();
    let mut g = Game::new(r, text::parse_position(r, position).unwrap()).unwrap();
    let mut l: Vec<String> = g
        .legal_turns()
        .unwrap_or_default()
        .iter()
        .map(|t| text::turn_text(r, t))
        .collect();
    l.sort();
    l
}

// Ranks from 11 down: e11; b d f h 10; a c e g i 9; … Here a neutral pawn on b6, and pieces
// around it; its neighbours are d6 (crosspoint) and a5, c5, a7, c7 (crosscorner).

#[test]
fn the_side_with_more_influence_moves_a_neutral_piece_and_may_capture_with_it() {
    // White's pawns on a5 and a7 (worth 2) against Black's pawn on d6 (worth 1): White moves
    // the neutral pawn and may take the black pawn with it.
    let fen = "g/4/5/4/P4/*p2/P4/4/5/4/G w";
    let l: Vec<String> = turns(fen)
        .into_iter()
        .filter(|m| m.starts_with("b6"))
        .collect();
    assert_eq!(l, ["b6-c5", "b6-c7", "b6xd6"]);
    // The neutral pawn stays neutral after its move, written `*`.
    let r = rules();
    let mut g = Game::new(r, text::parse_position(r, fen).unwrap()).unwrap();
    let t = text::parse_turn(&mut g, "b6-c7").unwrap();
    g.play(&t);
    assert_eq!(
        text::write_position(r, g.pos()),
        "g/4/5/4/P*3/1p2/P4/4/5/4/G b"
    );
    // Black, with less influence there, may not move it.
    let black = fen.replace(" w", " b");
    assert!(!turns(&black).iter().any(|m| m.starts_with("b6")));
}

#[test]
fn equal_influence_lets_either_side_move_it_without_capturing() {
    // White's pawn on a5 and Black's pawn on c7: 1 against 1.
    let fen = "g/4/5/4/1p3/*3/P4/4/5/4/G w";
    let l = turns(fen);
    assert!(
        l.contains(&"b6-a7".to_string()) && l.contains(&"b6-d6".to_string()),
        "{l:?}"
    );
    assert!(
        !l.contains(&"b6xc7".to_string()),
        "no capture at equal influence: {l:?}"
    );
    let l = turns(&fen.replace(" w", " b"));
    assert!(l.contains(&"b6-a7".to_string()), "{l:?}");
    assert!(!l.contains(&"b6xa5".to_string()), "{l:?}");
    // No influence at all: nobody moves it.
    assert!(
        !turns("g/4/5/4/5/*3/5/4/5/4/G w")
            .iter()
            .any(|m| m.starts_with("b6"))
    );
}

#[test]
fn capturing_a_neutral_piece_is_destructive_and_it_never_gives_check() {
    let r = rules();
    // Black's guard on d6 takes the neutral pawn on b6.
    let mut g = Game::new(
        r,
        text::parse_position(r, "g/4/5/4/5/*u2/5/4/5/4/G b").unwrap(),
    )
    .unwrap();
    let t = text::parse_turn(&mut g, "d6xb6").unwrap();
    g.play(&t);
    assert_eq!(text::write_position(r, g.pos()), "g/4/5/4/5/u3/5/4/5/4/G w");
    // A neutral pawn next to a general does not check it: White's general may stand there.
    let p = text::parse_position(r, "g/4/5/4/5/4/5/4/5/*3/G w");
    assert!(p.is_ok());
}

/// The segments variant with extra lines appended (a subtable, or keys of `[neutral]`).
fn rules_with(extra: &str, neutral_key: &str) -> Ruleset {
    let text = std::fs::read_to_string(format!(
        "{}/tests/variants/segments.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace(
        "influence = [\"crosspoint\", \"crosscorner\"]",
        &format!("influence = [\"crosspoint\", \"crosscorner\"]\n{neutral_key}"),
    );
    Ruleset::from_source("segments.toml", &format!("{text}\n{extra}\n"))
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)))
}

fn turns_under(r: &Ruleset, position: &str) -> Vec<String> {
    let mut g = Game::new(r, text::parse_position(r, position).unwrap()).unwrap();
    g.legal_turns()
        .unwrap_or_default()
        .iter()
        .map(|t| text::turn_text(r, t))
        .collect()
}

/// `[neutral] captures-neutral`: by default a neutral pawn moved by a side may take the other
/// neutral pawn (it is in every side's way and open to every side's captures); with `false`
/// it may not, and its other moves stay.
#[test]
fn x21_a_neutral_piece_takes_the_other_only_where_the_file_allows() {
    // Neutral pawns on b6 and d6; White's pawns on a5 and a7 give White the influence on b6.
    let fen = "g/4/5/4/P4/**2/P4/4/5/4/G w";
    let allowed = turns_under(&rules_with("", ""), fen);
    assert!(allowed.contains(&"b6xd6".to_string()), "{allowed:?}");
    let r = rules_with("", "captures-neutral = false");
    let refused = turns_under(&r, fen);
    assert!(!refused.contains(&"b6xd6".to_string()), "{refused:?}");
    assert!(refused.contains(&"b6-c5".to_string()), "{refused:?}");
    // The same turn is refused as move text too.
    let mut g = Game::new(&r, text::parse_position(&r, fen).unwrap()).unwrap();
    assert!(text::parse_turn(&mut g, "b6xd6").is_err());
}

/// `[end.vanquished] both`: one turn that leaves both sides vanquished (here: the last
/// neutral pawn taken, when having none vanquishes) ends as the file says.
#[test]
fn x24_both_sides_vanquished_at_once_end_as_the_file_says() {
    // White's pawn on a7 takes the only neutral pawn, on b6.
    let fen = "g/4/5/4/P4/*3/5/4/5/4/G w";
    for (both, winner) in [
        ("", Some(Side::White)),
        ("both = \"mover-wins\"", Some(Side::White)),
        ("both = \"mover-loses\"", Some(Side::Black)),
        ("both = \"draw\"", None),
    ] {
        let r = rules_with(&format!("[end.vanquished]\nno-neutrals = true\n{both}"), "");
        let mut g = Game::new(&r, text::parse_position(&r, fen).unwrap()).unwrap();
        assert!(
            g.legal_turns().is_ok(),
            "not over while a neutral pawn stands"
        );
        let t = text::parse_turn(&mut g, "a7xb6").unwrap();
        g.play(&t);
        let outcome = g.legal_turns().unwrap_err();
        assert_eq!(outcome.winner, winner, "{both}");
        assert!(outcome.text(&r).contains("vanquished"), "{both}");
    }
    let e = Ruleset::from_source(
        "s.toml",
        &format!(
            "{}\n[end.vanquished]\nno-neutrals = true\nboth = \"nobody\"\n",
            std::fs::read_to_string(format!(
                "{}/tests/variants/segments.toml",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
        ),
    )
    .unwrap_err();
    assert_eq!(e.problems[0].message, "`nobody` is not a setting of `both`");
}

/// `[neutral] gives-check`: off (the default, X-21's reading), a royal piece may stand where
/// a neutral piece that the opponent controls could take it; on, that neutral piece gives
/// check, and only turns that leave the royal piece out of its reach are legal.
#[test]
fn x21_a_neutral_piece_gives_check_only_where_the_file_says() {
    // Black's General on e9; a neutral pawn on d8, which White controls (Diplomat c7, Guard
    // c9 and Pawn b8: 6 against the General's 5) and which reaches e9, e7 and f8.
    let fen = "1/4/1Ug2/P*2/1D3/4/5/4/5/4/G b";
    let off = rules_with("", "");
    let on = rules_with("", "gives-check = true");
    let mut g = Game::new(&off, text::parse_position(&off, fen).unwrap()).unwrap();
    assert!(!g.in_check());
    let mut free = turns_under(&off, fen);
    free.sort();
    let mut g2 = Game::new(&on, text::parse_position(&on, fen).unwrap()).unwrap();
    assert!(g2.in_check(), "the neutral pawn gives check");
    let mut bound = turns_under(&on, fen);
    bound.sort();
    // Worked out by hand. The General's steps: e11, e7 (crosspoint), d10, f10, d8, f8
    // (crosscorner). d10 is the Guard's (crosscorner from c9), d8 the Diplomat's (c7's
    // diagonal); e7 and f8 are the neutral pawn's reach, which counts only with the setting.
    assert_eq!(free, ["e9-e11", "e9-e7", "e9-f10", "e9-f8"]);
    assert_eq!(bound, ["e9-e11", "e9-f10"]);
}
