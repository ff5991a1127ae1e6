//! `[game] without-royal` and `en-passant-in` (horde) on a small variant of their own
//! (`tests/variants/horde-small.toml`). The bundled horde is checked against Fairy-Stockfish's
//! perft in `tests/perft/horde.perft`.

mod games;

use bulwark::play::Reason;
use bulwark::{Ruleset, Side, text};
use games::{game, moves, play};

fn rules() -> Ruleset {
    Ruleset::from_source(
        "horde-small.toml",
        include_str!("variants/horde-small.toml"),
    )
    .unwrap()
}

#[test]
fn a_side_without_a_royal_piece_plays_and_a_position_giving_it_one_is_refused() {
    let rules = rules();
    let mut g = game(&rules, "k4/5/5/PP3/PP3 w -");
    assert_eq!(g.outcome(), None);
    assert!(!g.in_check());
    let e = text::parse_position(&rules, "k4/5/5/5/K4 w -").expect_err("White may not have one");
    assert!(e.to_string().contains("plays without one"), "{e}");
}

#[test]
fn the_side_without_a_royal_piece_loses_with_its_last_piece() {
    let rules = rules();
    let mut g = game(&rules, "k4/5/5/1p3/P4 b -");
    play(&mut g, "b2xa1");
    let o = g.outcome().expect("White has no piece left");
    assert_eq!((o.winner, o.reason), (Some(Side::Black), Reason::NoPieces));
}

#[test]
fn a_double_step_leaves_an_en_passant_cell_only_in_the_declared_region() {
    let rules = rules();
    // a1-a3 passes a2, outside the region: the pawn on b3 may not take it.
    let mut g = game(&rules, "k4/5/1p3/5/P4 w -");
    play(&mut g, "a1-a3");
    assert_eq!(text::write_position(&rules, g.pos()), "k4/5/Pp3/5/5 b -");
    // a2-a4 passes a3, inside it: the pawn on b4 may.
    let mut g = game(&rules, "k4/1p3/5/P4/5 w -");
    play(&mut g, "a2-a4");
    assert_eq!(text::write_position(&rules, g.pos()), "k4/Pp3/5/5/5 b a3");
    assert!(
        moves(&mut g).contains(&"b4-a3xa4".to_string()),
        "{:?}",
        moves(&mut g)
    );
}
