//! `[turn] pass` and the endings a pass brings about (`[end] two-passes`, `royals-facing`,
//! `facing-lines`) on a small variant of their own (`tests/variants/facing.toml`), and the
//! path shape `orthogonal-then-diagonal` on another (`tests/variants/elephant.toml`). The
//! bundled janggi uses all of them and is checked against Fairy-Stockfish's perft in
//! `tests/perft/janggi.perft`.

mod games;

use bulwark::play::Reason;
use bulwark::{Outcome, text, uci};
use games::{board, game, moves, play};

const FACING: &str = include_str!("variants/facing.toml");
const ELEPHANT: &str = include_str!("variants/elephant.toml");

fn facing(edit: impl Fn(&str) -> String) -> bulwark::Ruleset {
    games::rules_named("facing.toml", &edit(FACING))
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn a_pass_is_a_turn_that_changes_nothing_but_the_side_to_move() {
    let rules = facing(str::to_string);
    let mut g = game(&rules, "k4/5/5/5/2K1R w");
    let m = moves(&mut g);
    assert_eq!(m.iter().filter(|t| *t == "pass").count(), 1, "{m:?}");
    play(&mut g, "pass");
    assert_eq!(board(&g), "k4/5/5/5/2K1R b");
    // Taken back, the hash is the one before.
    let h = g.hash();
    play(&mut g, "a5-b5");
    assert!(g.undo());
    assert_eq!(g.hash(), h);
}

#[test]
fn without_pass_there_is_no_pass() {
    let rules = facing(|s| {
        s.replace("pass = \"allowed\"\n", "")
            .replace("two-passes = \"draw\"\n", "")
            .replace("royals-facing = \"draw\"\n", "")
    });
    let mut g = game(&rules, "k4/5/5/5/2K1R w");
    assert!(!moves(&mut g).contains(&"pass".to_string()));
    let e = text::parse_turn(&mut g, "pass").unwrap_err();
    assert!(e.reason.contains("passing is not a turn"), "{e}");
}

#[test]
fn a_pass_that_leaves_the_royal_piece_attacked_is_not_a_turn() {
    let rules = facing(str::to_string);
    // Black's rook on a1 checks the king on c1 (the kings do not face: a5 and c1).
    let mut g = game(&rules, "k4/5/5/5/r1K2 w");
    assert!(!moves(&mut g).contains(&"pass".to_string()));
    let e = text::parse_turn(&mut g, "pass").unwrap_err();
    assert!(e.reason.contains("royal piece attacked"), "{e}");
}

#[test]
fn a_pass_answered_by_a_pass_draws_with_two_passes() {
    let rules = facing(str::to_string);
    let mut g = game(&rules, "k4/5/5/5/2K1R w");
    play(&mut g, "pass");
    assert_eq!(g.outcome(), None);
    play(&mut g, "pass");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::TwoPasses
        })
    );
    assert_eq!(g.count_turns(), 0);
    // A pass, a move, a pass: the passes are not in a row.
    let mut g = game(&rules, "k4/5/5/5/2K1R w");
    play(&mut g, "pass");
    play(&mut g, "a5-b5");
    play(&mut g, "pass");
    assert_eq!(g.outcome(), None);
}

#[test]
fn without_two_passes_the_game_goes_on_after_two_passes() {
    let rules = facing(|s| s.replace("two-passes = \"draw\"\n", ""));
    let mut g = game(&rules, "k4/5/5/5/2K1R w");
    play(&mut g, "pass");
    play(&mut g, "pass");
    assert_eq!(g.outcome(), None);
    assert!(moves(&mut g).contains(&"pass".to_string()));
}

#[test]
fn facing_royal_pieces_must_part_or_pass() {
    let rules = facing(str::to_string);
    // The kings face on the open c-file: every turn that leaves them facing is out (c1-c2,
    // every rook move); what is left parts them, or passes.
    let mut g = game(&rules, "2k2/5/5/5/R1K2 w");
    assert_eq!(
        sorted(moves(&mut g)),
        ["c1-b1", "c1-b2", "c1-d1", "c1-d2", "pass"]
    );
    // With the rook on e1, no rook move comes between them: only the king's.
    let mut g = game(&rules, "2k2/5/5/5/2K1R w");
    assert_eq!(
        sorted(moves(&mut g)),
        ["c1-b1", "c1-b2", "c1-d1", "c1-d2", "pass"]
    );
    // A piece that comes between them parts them too; one that crosses the file does not.
    let mut g = game(&rules, "2k2/5/5/R4/2K2 w");
    let m = moves(&mut g);
    assert!(m.contains(&"a2-c2".to_string()), "{m:?}");
    assert!(!m.contains(&"a2-b2".to_string()) && !m.contains(&"a2-d2".to_string()));
}

#[test]
fn a_pass_while_the_royal_pieces_face_ends_the_game_in_a_draw() {
    let rules = facing(str::to_string);
    let mut g = game(&rules, "2k2/5/5/5/R1K2 w");
    play(&mut g, "pass");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Facing
        })
    );
}

#[test]
fn while_the_royal_pieces_face_a_pass_is_a_turn_even_in_check() {
    let rules = facing(str::to_string);
    // Black's rook on a1 checks along the first rank and the kings face on the c-file.
    let mut g = game(&rules, "2k2/5/5/5/r1K2 w");
    assert_eq!(sorted(moves(&mut g)), ["c1-b2", "c1-d2", "pass"]);
}

#[test]
fn without_royals_facing_facing_kings_decide_nothing() {
    let rules = facing(|s| s.replace("royals-facing = \"draw\"\n", ""));
    let mut g = game(&rules, "2k2/5/5/5/R1K2 w");
    let m = moves(&mut g);
    assert!(m.contains(&"c1-c2".to_string()) && m.contains(&"a1-a5".to_string()));
    play(&mut g, "pass");
    assert_eq!(g.outcome(), None);
}

#[test]
fn facing_lines_name_the_lines_along_which_royal_pieces_face() {
    let rules = facing(|s| {
        s.replace(
            "[pieces.king]",
            "facing-lines = \"diagonal\"\n\n[pieces.king]",
        )
    });
    // a1 and e5 face along the long diagonal: b2 stays on it, a2 and b1 leave it.
    let mut g = game(&rules, "4k/5/5/5/K4 w");
    assert_eq!(sorted(moves(&mut g)), ["a1-a2", "a1-b1", "pass"]);
    // On a file they do not face along diagonals.
    let mut g = game(&rules, "k4/5/5/5/K4 w");
    assert_eq!(sorted(moves(&mut g)), ["a1-a2", "a1-b1", "a1-b2", "pass"]);
}

#[test]
fn uci_writes_a_pass_as_the_passing_pieces_cell_twice() {
    let rules = facing(str::to_string);
    let mut g = game(&rules, "k4/5/5/5/2K1R w");
    let all = g.legal_turns().unwrap();
    let pass = all
        .iter()
        .find(|t| text::turn_text(&rules, t) == "pass")
        .unwrap();
    assert_eq!(uci::uci_move(&rules, pass, &all, false), "c1c1");
}

#[test]
fn orthogonal_then_diagonal_leaps_are_blocked_at_either_point_on_the_way() {
    let rules = games::rules_named("elephant.toml", ELEPHANT);
    // From a1: d3 (via b1 and c2) and c4 (via a2 and b3).
    let mut g = game(&rules, "6/6/6/6/6/E5 w");
    assert_eq!(sorted(moves(&mut g)), ["a1-c4", "a1-d3"]);
    // A piece on b1 blocks d3; one on b3 blocks c4.
    let mut g = game(&rules, "6/6/6/6/6/EP4 w");
    assert_eq!(sorted(moves(&mut g)), ["a1-c4", "b1-b2"]);
    let mut g = game(&rules, "6/6/6/1p4/6/E5 w");
    assert_eq!(sorted(moves(&mut g)), ["a1-d3"]);
    // The cells beside the path do not block: b2 and c3.
    let mut g = game(&rules, "6/6/6/2p3/1p4/E5 w");
    assert_eq!(sorted(moves(&mut g)), ["a1-c4", "a1-d3"]);
}

#[test]
fn the_rules_in_words_state_the_pass_and_its_endings() {
    let words = games::words;
    let all = words(&facing(str::to_string));
    for part in [
        "A side may pass instead of moving",
        "A pass answered by a pass draws.",
        "the side to move must part them or pass (even in check), and that pass draws",
    ] {
        assert!(all.contains(part), "{part}: {all}");
    }
    let none = words(&facing(|s| {
        s.replace("pass = \"allowed\"\n", "")
            .replace("two-passes = \"draw\"\n", "")
            .replace("royals-facing = \"draw\"\n", "")
    }));
    assert!(none.contains("Passing is not a turn."), "{none}");
    assert!(
        !none.contains("may pass") && !none.contains("pass draws"),
        "{none}"
    );
}
