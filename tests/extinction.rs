//! `[end] extinction` and `[[castling]] king-kind` (extinction chess) on a small variant of
//! their own (`tests/variants/extinct.toml`: a King that is not royal and a Rook each). The
//! bundled extinction chess is checked against Fairy-Stockfish's perft in
//! `tests/perft/extinction.perft`.

mod games;

use bulwark::play::Reason;
use bulwark::{Ruleset, Side, text};
use games::{game, moves, play};

const EXTINCT: &str = include_str!("variants/extinct.toml");

fn rules_from(source: &str) -> Ruleset {
    games::rules_named("extinct.toml", source)
}

#[test]
fn taking_the_last_piece_of_a_listed_kind_wins() {
    let rules = rules_from(EXTINCT);
    let mut g = game(&rules, "k1r2/5/K1R2 w -");
    play(&mut g, "c1xc3");
    let o = g.outcome().expect("Black has no Rook left");
    assert_eq!(o.winner, Some(Side::White));
    let rook = rules.find_piece("rook").unwrap();
    assert_eq!(
        o.reason,
        Reason::Extinct(bulwark::core::PieceKindId::new(rook))
    );
}

#[test]
fn taking_one_of_two_is_not_the_end() {
    let rules = rules_from(EXTINCT);
    let mut g = game(&rules, "k1r1r/5/K1R2 w -");
    play(&mut g, "c1xc3");
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_king_that_is_not_royal_may_be_taken_and_its_loss_ends_the_game() {
    let rules = rules_from(EXTINCT);
    let mut g = game(&rules, "k1R1r/5/K3R w -");
    assert!(moves(&mut g).contains(&"c3xa3".to_string()));
    play(&mut g, "c3xa3");
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Side::White)));
}

#[test]
fn the_king_kind_castles_though_not_royal_and_through_attacked_cells_when_none_must_be_safe() {
    let rules = rules_from(EXTINCT);
    // The black Rook on c3 attacks c1, which the King passes.
    let mut g = game(&rules, "k1r2/5/1K2R w K");
    assert!(
        moves(&mut g).contains(&"b1-d1".to_string()),
        "{:?}",
        moves(&mut g)
    );
    play(&mut g, "b1-d1");
    assert_eq!(text::write_position(&rules, g.pos()), "k1r2/5/2RK1 b -");
    // Declared safe cells are still tested.
    let guarded = rules_from(&EXTINCT.replace("safe = \"\"", "safe = \"b1 c1 d1\""));
    let mut g = game(&guarded, "k1r2/5/1K2R w K");
    assert!(!moves(&mut g).contains(&"b1-d1".to_string()));
}

#[test]
fn without_king_kind_a_castling_needs_a_royal_piece() {
    let source = EXTINCT.replace("king-kind = \"king\"\n", "");
    let e = Ruleset::from_source("extinct.toml", &source).expect_err("no royal piece castles");
    assert!(
        e.to_string().contains("royal piece") || format!("{e:?}").contains("royal piece"),
        "{e:?}"
    );
}
