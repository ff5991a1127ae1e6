//! Direction sets that depend on the class of cell (`[classes]`, `[directions-by-class]`),
//! compiled into link tables: Border Wars's segment board (`tests/variants/segments.toml`),
//! each count worked out by hand on the segment picture.

use bulwark::play::Game;
use bulwark::vm::{Machine, Options};
use bulwark::{Ruleset, text, view};

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
    pos.cells[c.index()] =
        bulwark::Occupant::piece(bulwark::Side::White, bulwark::core::PieceKindId::new(k));
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
