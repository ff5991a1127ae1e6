//! A piece's `captured-as` and letters marked as promoted (`Q~`, `+P`) on a small variant of
//! their own (`tests/variants/demotion.toml`: a pawn promotes into a rook written `R~`, which
//! goes back into a hand as a pawn). The bundled crazyhouse is checked against
//! Fairy-Stockfish's perft in `tests/perft/crazyhouse.perft`.

mod games;

use bulwark::Ruleset;
use games::{board, game, moves, play};

const DEMOTION: &str = include_str!("variants/demotion.toml");

fn rules() -> Ruleset {
    games::rules_named("demotion.toml", DEMOTION)
}

#[test]
fn a_promoted_piece_is_written_with_its_mark_and_read_back() {
    let rules = rules();
    let mut g = game(&rules, "r2k/1P2/4/4/3K[] w");
    let m = moves(&mut g);
    // The canonical move text names the promoted kind with its mark.
    assert!(m.contains(&"b4-b5=R~".to_string()), "{m:?}");
    play(&mut g, "b4-b5=R~");
    assert_eq!(board(&g), "rR~1k/4/4/4/3K[] b");
    // Read back, the marked letter is the promoted kind, not the rook: taken, it is a pawn.
    let mut again = game(&rules, &board(&g));
    play(&mut again, "a5xb5");
    assert_eq!(board(&again), "1r1k/4/4/4/3K[p] w");
    // A black promoted rook is written in lower case with its mark.
    let black = game(&rules, "K3/4/4/4/r~2k[] w");
    assert_eq!(board(&black), "K3/4/4/4/r~2k[] w");
}

#[test]
fn the_unmarked_letter_names_the_promoted_kind_when_only_it_is_a_legal_change() {
    let rules = rules();
    let mut g = game(&rules, "r2k/1P2/4/4/3K[] w");
    play(&mut g, "b4-b5=R");
    assert_eq!(board(&g), "rR~1k/4/4/4/3K[] b");
}

#[test]
fn a_captured_promoted_piece_enters_the_hand_as_its_captured_as_kind() {
    let rules = rules();
    let mut g = game(&rules, "kR~2/4/4/4/3K[] b");
    play(&mut g, "a5xb5");
    // The black king took the promoted rook: a pawn, not a rook, goes into Black's hand.
    assert_eq!(board(&g), "1k2/4/4/4/3K[p] w");
    // An unpromoted rook goes into the hand as itself.
    let mut g = game(&rules, "kR2/4/4/4/3K[] b");
    play(&mut g, "a5xb5");
    assert_eq!(board(&g), "1k2/4/4/4/3K[r] w");
}

#[test]
fn a_letter_and_its_marked_twin_are_different_kinds_in_position_text() {
    let rules = rules();
    // The same cells, once with a rook and once with a promoted rook: different positions.
    let rook = game(&rules, "kR2/4/4/4/3K[] b");
    let promoted = game(&rules, "kR~2/4/4/4/3K[] b");
    assert_ne!(rook.pos(), promoted.pos());
    // A mark no kind has is an error that names the rank.
    let e = bulwark::text::parse_position(&rules, "kP~2/4/4/4/3K[] b").unwrap_err();
    assert!(e.to_string().contains("rank 5"), "{e}");
}
