//! `[end] bare` and `bare-answer` (shatranj, courier) on a small variant of their own
//! (`tests/variants/bare.toml`: a royal King, Rooks and Ferzes). The bundled shatranj and
//! courier are checked against Fairy-Stockfish's perft in `tests/perft/`.

mod games;

use bulwark::play::{Outcome, Reason};
use bulwark::{Ruleset, Side};
use games::{game, moves, play};

const BARE: &str = include_str!("variants/bare.toml");

fn rules_from(source: &str) -> Ruleset {
    games::rules_named("bare.toml", source)
}

fn lost_by(side: Side) -> Outcome {
    Outcome {
        winner: Some(side.opponent()),
        reason: Reason::Bare,
    }
}

/// Black's King on b5 and Rook on c5; White's Rook on c1 takes the Rook and lands beside the
/// King, White's King on e1.
const BARING: &str = "1kr2/5/5/5/2R1K w";

#[test]
fn without_an_answer_the_bared_side_loses_at_once() {
    let rules = rules_from(&BARE.replace("bare-answer = \"draw\"\n", ""));
    let mut g = game(&rules, BARING);
    play(&mut g, "c1xc5");
    assert_eq!(g.outcome(), Some(lost_by(Side::Black)));
}

#[test]
fn the_bared_side_answers_and_baring_back_draws() {
    let rules = rules_from(BARE);
    let mut g = game(&rules, BARING);
    play(&mut g, "c1xc5");
    assert_eq!(g.outcome(), None, "Black answers first");
    let mut m = moves(&mut g);
    m.sort();
    // In check from the Rook: take it, or step out of its lines.
    assert_eq!(m, ["b5-a4", "b5-b4", "b5xc5"]);
    play(&mut g, "b5xc5");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::BothBare
        })
    );
}

#[test]
fn an_answer_that_does_not_bare_back_loses() {
    let rules = rules_from(BARE);
    let mut g = game(&rules, BARING);
    play(&mut g, "c1xc5");
    play(&mut g, "b5-b4");
    assert_eq!(g.outcome(), Some(lost_by(Side::Black)));
}

#[test]
fn no_answer_when_the_opponent_keeps_two_other_pieces() {
    let rules = rules_from(BARE);
    // A White Ferz on d1 too: one capture cannot bare White, so Black loses at once.
    let mut g = game(&rules, "1kr2/5/5/5/2RFK w");
    play(&mut g, "c1xc5");
    assert_eq!(g.outcome(), Some(lost_by(Side::Black)));
}

#[test]
fn being_bare_decides_nothing_by_default() {
    let rules = rules_from(
        &BARE
            .replace("bare = \"loses\"\n", "")
            .replace("bare-answer = \"draw\"\n", ""),
    );
    let mut g = game(&rules, BARING);
    play(&mut g, "c1xc5");
    assert_eq!(g.outcome(), None);
    play(&mut g, "b5xc5");
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_piece_in_the_reserve_keeps_a_side_from_being_bare() {
    // The Ferz is kept in the reserve: Black holds one in hand, so taking its Rook does not
    // bare it.
    let rules = rules_from(
        &BARE
            .replace("bare-answer = \"draw\"\n", "")
            .replace(
                "moves = \"step(diagonal) capture\"",
                "moves = \"step(diagonal) capture\"\nreserve = 0",
            )
            .replace(
                "position = \"1rk2/2f2/5/2F2/1RK2 w\"",
                "position = \"1rk2/2f2/5/2F2/1RK2[] w\"",
            ),
    );
    let mut g = game(&rules, "1kr2/5/5/5/2R1K[f] w");
    play(&mut g, "c1xc5");
    assert_eq!(g.outcome(), None);
    let mut g = game(&rules, "1kr2/5/5/5/2R1K[] w");
    play(&mut g, "c1xc5");
    assert_eq!(g.outcome(), Some(lost_by(Side::Black)));
}

#[test]
fn the_rules_in_words_state_the_bare_rule() {
    let rules = Ruleset::load_named("shatranj").unwrap();
    let words: String = bulwark::view::words::rules_in_words(&rules)
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert!(
        words.contains(
            "nothing but its royal piece loses, but when the opponent has a single other piece"
        ),
        "{words}"
    );
}
