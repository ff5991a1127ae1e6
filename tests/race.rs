//! `[turn] giving-check = "forbidden"` and `[end] goal-answer = "draw"` (racing kings) on a
//! small variant of their own (`tests/variants/race.toml`: a King and a Rook each race to the
//! fifth rank). The bundled racing kings is checked against Fairy-Stockfish's perft in
//! `tests/perft/racingkings.perft`.

use bulwark::play::{Game, Outcome, Reason};
use bulwark::{Ruleset, Side, text};

const RACE: &str = include_str!("variants/race.toml");

fn rules_from(source: &str) -> Ruleset {
    Ruleset::from_source("race.toml", source).unwrap()
}

fn moves(rules: &Ruleset, pos: &str) -> Vec<String> {
    let mut g = Game::new(rules, text::parse_position(rules, pos).unwrap()).unwrap();
    // No turns when the game is over.
    let turns = g.legal_turns().unwrap_or_default();
    turns.iter().map(|t| text::turn_text(rules, t)).collect()
}

fn after(rules: &Ruleset, pos: &str, history: &[&str]) -> Option<Outcome> {
    let mut g = Game::new(rules, text::parse_position(rules, pos).unwrap()).unwrap();
    for mv in history {
        let t = text::parse_turn(&mut g, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        g.play(&t);
    }
    g.outcome()
}

#[test]
fn a_turn_that_gives_check_is_illegal_when_giving_check_is_forbidden() {
    let rules = rules_from(RACE);
    let listed = moves(&rules, "5/4k/5/5/K1R2 w");
    // c1-c4 and c1-e1 would attack the King on e4.
    for checking in ["c1-c4", "c1-e1"] {
        assert!(
            !listed.contains(&checking.to_string()),
            "{checking}: {listed:?}"
        );
    }
    assert!(listed.contains(&"c1-c3".to_string()), "{listed:?}");
    // The same board with checks allowed has both.
    let allowed =
        rules_from(&RACE.replace("giving-check = \"forbidden\"", "giving-check = \"allowed\""));
    let listed = moves(&allowed, "5/4k/5/5/K1R2 w");
    for checking in ["c1-c4", "c1-e1"] {
        assert!(
            listed.contains(&checking.to_string()),
            "{checking}: {listed:?}"
        );
    }
}

#[test]
fn a_promotion_that_gives_check_through_the_cell_it_left_is_illegal() {
    // A Pawn that becomes a Queen or a Knight on the fifth rank. The Black King stands on the
    // Pawn's file: a Queen on b5 would attack it down the file, through b4, the cell the
    // Pawn leaves (so the check is there only once the Pawn has gone).
    let source = RACE.replace(
        "[pieces.king]",
        "[regions.last-rank]\nwhite = \"a5-e5\"\nblack = \"a1-e1\"\n\n\
         [pieces.queen]\nletter = \"Q\"\nmoves = \"ride(all) capture\"\n\n\
         [pieces.knight]\nletter = \"N\"\nmoves = \"leap(knight) capture\"\n\n\
         [pieces.pawn]\nletter = \"P\"\npromotes-in = \"last-rank\"\n\
         promotes-to = [\"queen\", \"knight\"]\nmoves = \"step(forward)\"\n\n\
         [pieces.king]",
    );
    let rules = rules_from(&source);
    let listed = moves(&rules, "5/1P3/5/1k3/4K w");
    assert!(!listed.contains(&"b4-b5=Q".to_string()), "{listed:?}");
    assert!(listed.contains(&"b4-b5=N".to_string()), "{listed:?}");
}

#[test]
fn the_first_arrival_is_answered_and_arriving_too_draws() {
    let rules = rules_from(RACE);
    let start = "5/k1K2/5/5/5 w";
    // White arrives; Black may answer with every turn it has (the game is not over yet).
    assert_eq!(after(&rules, start, &["c4-c5"]), None);
    // (b4 and b5 stand next to the White King.)
    let mut answers = moves(&rules, "2K2/k4/5/5/5 b");
    answers.sort();
    assert_eq!(answers, ["a4-a3", "a4-a5", "a4-b3"]);
    assert_eq!(
        after(&rules, start, &["c4-c5", "a4-a5"]),
        Some(Outcome {
            winner: None,
            reason: Reason::BothReached,
        })
    );
    // An answer that does not arrive leaves White the winner.
    assert_eq!(
        after(&rules, start, &["c4-c5", "a4-a3"]).map(|o| o.winner),
        Some(Some(Side::White))
    );
}

#[test]
fn an_arrival_that_cannot_be_answered_wins_at_once() {
    let rules = rules_from(RACE);
    let o = after(&rules, "5/2K2/5/k4/5 w", &["c4-c5"]).expect("over");
    assert_eq!(o.winner, Some(Side::White));
    assert!(matches!(o.reason, Reason::Occupied(..)), "{o:?}");
    assert!(moves(&rules, "2K2/5/5/k4/5 b").is_empty());
}

#[test]
fn the_second_side_arriving_first_wins_at_once() {
    let rules = rules_from(RACE);
    let o = after(&rules, "5/k4/5/2K2/5 b", &["a4-a5"]).expect("over");
    assert_eq!(o.winner, Some(Side::Black));
}

#[test]
fn without_the_answer_the_first_arrival_wins_at_once() {
    let rules = rules_from(&RACE.replace("goal-answer = \"draw\"", "goal-answer = \"none\""));
    let o = after(&rules, "5/k1K2/5/5/5 w", &["c4-c5"]).expect("over");
    assert_eq!(o.winner, Some(Side::White));
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn count(rules: &Ruleset, pos: &str) -> usize {
    let mut g = Game::new(rules, text::parse_position(rules, pos).unwrap()).unwrap();
    g.count_turns()
}

/// Perft counts the only royal piece's moves from its cell-set landings; where giving check is
/// forbidden, those that give check must be refused there as the listing refuses them: by the
/// royal piece's own attack from its destination and by a line it uncovers when it leaves.
#[test]
fn a_royal_piece_counted_unlisted_gives_no_check_either() {
    let rules = rules_from(RACE);
    // The King on c2 stands between the Rook on c1 and the Black King on c4: stepping aside
    // uncovers the Rook's check, stepping up meets the King. Only the Rook's four moves.
    let pos = "5/2k2/5/2K2/2R2 w";
    assert_eq!(
        sorted(moves(&rules, pos)),
        ["c1-a1", "c1-b1", "c1-d1", "c1-e1"]
    );
    assert_eq!(count(&rules, pos), 4);
    // The King takes the Black Rook that stood between the White Rook and the Black King:
    // it stands in the line itself then, so no check (b2 and c2 are attacked by the Rook).
    let pos = "5/k4/5/r4/RK3 w";
    assert_eq!(sorted(moves(&rules, pos)), ["b1-c1", "b1xa2"]);
    assert_eq!(count(&rules, pos), 2);
    // A royal Prince that leaps like a knight is not attacked back by a King beside it: the
    // King's step to c3 would attack it (c2 and d3 are attacked by it).
    let source = RACE.replace(
        "[pieces.rook]",
        "[pieces.prince]\nletter = \"P\"\nroyal = true\nmoves = \"leap(knight) capture\"\n\n\
         [pieces.rook]",
    );
    let rules = rules_from(&source);
    let pos = "5/1p3/5/3K1/5 w";
    assert_eq!(
        sorted(moves(&rules, pos)),
        ["d2-c1", "d2-d1", "d2-e1", "d2-e2", "d2-e3"]
    );
    assert_eq!(count(&rules, pos), 5);
}
