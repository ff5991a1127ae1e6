//! `[end] checks` (three-check and the like) on a small variant of its own
//! (`tests/variants/checks.toml`: a King and a Rook each, and a side's second check wins). The
//! bundled three-check and five-check are checked against Fairy-Stockfish's perft in
//! `tests/perft/3check.perft` and `tests/perft/5check.perft`.

use bulwark::play::{Game, Outcome, Reason};
use bulwark::{Ruleset, Side, text};

fn rules() -> Ruleset {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/checks.toml");
    let text = std::fs::read_to_string(path).unwrap();
    Ruleset::from_source("checks.toml", &text).unwrap()
}

fn game<'r>(rules: &'r Ruleset, pos: &str) -> Game<'r> {
    Game::new(rules, text::parse_position(rules, pos).unwrap()).unwrap()
}

fn play(g: &mut Game<'_>, mv: &str) {
    let t = text::parse_turn(g, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    g.play(&t);
}

fn position(g: &Game<'_>) -> String {
    text::write_position(g.rules, g.pos())
}

#[test]
fn a_check_counts_for_the_side_that_gives_it_and_the_second_wins() {
    let rules = rules();
    let mut g = game(&rules, "2k2/5/5/5/R3K w 2+2");
    play(&mut g, "a1-a5");
    assert_eq!(position(&g), "R1k2/5/5/5/4K b 1+2");
    assert_eq!(g.outcome(), None, "one check of two: the game goes on");
    play(&mut g, "c5-c4");
    assert_eq!(position(&g), "R4/2k2/5/5/4K w 1+2");
    play(&mut g, "a5-a4");
    assert_eq!(position(&g), "5/R1k2/5/5/4K b 0+2");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Side::White),
            reason: Reason::Checks(2),
        })
    );
    assert_eq!(g.legal_turns().unwrap_err().reason, Reason::Checks(2));
}

#[test]
fn a_move_that_gives_no_check_counts_nothing() {
    let rules = rules();
    let mut g = game(&rules, "2k2/5/5/5/R3K w 2+2");
    play(&mut g, "a1-b1");
    assert_eq!(position(&g), "2k2/5/5/5/1R2K b 2+2");
}

#[test]
fn a_discovered_check_counts_too() {
    // The white King steps off the a-file and opens the Rook's line to the black King.
    let rules = rules();
    let mut g = game(&rules, "k4/5/5/K4/R4 w 2+2");
    play(&mut g, "a2-b2");
    assert_eq!(position(&g), "k4/5/5/1K3/R4 b 1+2");
}

#[test]
fn each_side_counts_its_own_checks() {
    let rules = rules();
    let mut g = game(&rules, "r3k/5/5/5/2K2 b 2+1");
    play(&mut g, "a5-c5");
    assert_eq!(position(&g), "2r1k/5/5/5/2K2 w 2+0");
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Side::Black)));
}

#[test]
fn undo_restores_the_counts_and_the_hash_follows_them() {
    let rules = rules();
    let mut g = game(&rules, "2k2/5/5/5/R3K w 2+2");
    let (before, hash) = (position(&g), g.hash());
    play(&mut g, "a1-a5");
    assert_eq!(
        g.hash(),
        rules.zobrist().hash(g.pos()),
        "the incremental hash"
    );
    // The same board and side with another count is another position.
    let mut other = g.pos().clone();
    other.checks[Side::White] = 0;
    assert_ne!(rules.zobrist().hash(&other), g.hash());
    assert!(g.undo());
    assert_eq!((position(&g), g.hash()), (before, hash));
}

#[test]
fn a_position_whose_count_is_reached_is_over() {
    let rules = rules();
    let mut g = game(&rules, "2k2/5/5/5/R3K b 0+2");
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Side::White)));
    assert_eq!(g.count_turns(), 0);
}

#[test]
fn bad_counts_in_position_text_are_refused_with_the_reason() {
    let rules = rules();
    for bad in ["3+2", "2-2", "2+", "+2", "a+b", "-1+2"] {
        let text = format!("2k2/5/5/5/R3K w {bad}");
        let e = text::parse_position(&rules, &text).expect_err(bad);
        assert!(
            e.to_string().contains("checks each side may still give"),
            "{bad}: {e}"
        );
    }
}
