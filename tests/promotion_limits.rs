//! `at-most` and a change's `unavailable = "no-move"` (grand chess) on a small variant of their
//! own (`tests/variants/promotion-limits.toml`: a Rook at most, Pawns promoting to one). The
//! bundled grand chess is checked against Fairy-Stockfish's perft in `tests/perft/grand.perft`.

mod games;

use bulwark::Ruleset;
use games::{game, moves, play};

const LIMITS: &str = include_str!("variants/promotion-limits.toml");

fn rules_from(source: &str) -> Ruleset {
    games::rules_named("promotion-limits.toml", source)
}

fn pawn_moves(rules: &Ruleset, pos: &str, from: &str) -> Vec<String> {
    let mut g = game(rules, pos);
    let mut m: Vec<String> = moves(&mut g)
        .into_iter()
        .filter(|t| t.starts_with(from))
        .collect();
    m.sort();
    m
}

#[test]
fn a_change_may_not_make_more_than_at_most_pieces_of_a_kind() {
    let rules = rules_from(LIMITS);
    // White has its Rook: the Pawn entering the zone stays a Pawn.
    assert_eq!(pawn_moves(&rules, "4k/5/1P3/5/R1K2 w", "b3"), ["b3-b4"]);
    // Without the Rook it may become one, or not.
    assert_eq!(
        pawn_moves(&rules, "4k/5/1P3/5/2K2 w", "b3"),
        ["b3-b4", "b3-b4=R"]
    );
    // Without `at-most` the Rook on the board does not matter.
    let unlimited = rules_from(&LIMITS.replace("at-most = 1\n", ""));
    assert_eq!(
        pawn_moves(&unlimited, "4k/5/1P3/5/R1K2 w", "b3"),
        ["b3-b4", "b3-b4=R"]
    );
}

#[test]
fn a_compulsory_change_that_cannot_happen_forbids_the_move_with_no_move() {
    let rules = rules_from(LIMITS);
    // On the fifth rank the Pawn must promote; with the Rook on the board it cannot, so it
    // may not go there.
    assert!(pawn_moves(&rules, "4k/1P3/5/5/R1K2 w", "b4").is_empty());
    // Once the Rook is taken, it may, and must promote.
    let mut g = game(&rules, "4k/1P1R1/5/5/2K2 b");
    play(&mut g, "e5xd4");
    assert_eq!(
        moves(&mut g)
            .into_iter()
            .filter(|t| t.starts_with("b4"))
            .collect::<Vec<_>>(),
        ["b4-b5=R"]
    );
    // With the default (`stays`), the Pawn steps onto the fifth rank as a Pawn.
    let stays = rules_from(&LIMITS.replace("unavailable = \"no-move\"\n", ""));
    assert_eq!(pawn_moves(&stays, "4k/1P3/5/5/R1K2 w", "b4"), ["b4-b5"]);
}
