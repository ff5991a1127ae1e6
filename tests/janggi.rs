//! The bundled janggi's pieces, one rule at a time (the whole game is checked against
//! Fairy-Stockfish's perft in `tests/perft/janggi.perft`; the pass and facing generals on a
//! small variant of their own in `tests/pass.rs`).

mod games;

use bulwark::Ruleset;
use games::{game, moves};

fn janggi() -> Ruleset {
    Ruleset::load_named("janggi").unwrap()
}

/// The turns of the piece on `from`, sorted.
fn of(rules: &Ruleset, position: &str, from: &str) -> Vec<String> {
    let mut g = game(rules, position);
    let mut m: Vec<String> = moves(&mut g)
        .into_iter()
        .filter(|t| t.starts_with(from) && !t[from.len()..].starts_with(char::is_numeric))
        .collect();
    m.sort();
    m
}

#[test]
fn a_cannon_moves_and_takes_only_over_one_piece_that_is_not_a_cannon() {
    let r = janggi();
    // Over the soldier on c1: to d1, or taking the horse on e1; nothing up the empty a-file.
    assert_eq!(
        of(&r, "9/3k5/9/9/9/9/9/9/4K4/C1p1n4 w - - 0 1", "a1"),
        ["a1-d1", "a1xe1"]
    );
    // A cannon is never taken by a cannon.
    assert_eq!(
        of(&r, "9/3k5/9/9/9/9/9/9/4K4/C1p1c4 w - - 0 1", "a1"),
        ["a1-d1"]
    );
    // Nor used as the screen.
    assert!(of(&r, "9/3k5/9/9/9/9/9/9/4K4/C1c1n4 w - - 0 1", "a1").is_empty());
}

#[test]
fn a_chariot_rides_the_palace_diagonals_and_no_further() {
    let r = janggi();
    let m = of(&r, "9/4k4/9/9/9/9/9/5p3/9/3R1K3 w - - 0 1", "d1");
    assert!(
        m.contains(&"d1-e2".to_string()) && m.contains(&"d1xf3".to_string()),
        "{m:?}"
    );
    assert!(
        !m.iter().any(|t| t.ends_with("g4") || t.ends_with("c2")),
        "{m:?}"
    );
}

#[test]
fn a_soldier_steps_diagonally_forward_only_along_the_enemy_palace_lines() {
    let r = janggi();
    // d8 lies on a diagonal line of Red's palace: forward, sideways and to e9.
    assert_eq!(
        of(&r, "5k3/9/3P5/9/9/9/9/9/9/4K4 w - - 0 1", "d8"),
        ["d8-c8", "d8-d9", "d8-e8", "d8-e9"]
    );
    // e8 does not: no diagonal step.
    assert_eq!(
        of(&r, "5k3/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1", "e8"),
        ["e8-d8", "e8-e9", "e8-f8"]
    );
}

#[test]
fn the_general_stays_in_the_palace_and_steps_diagonally_only_along_its_lines() {
    let r = janggi();
    // From e1 (not on a line): three orthogonal steps inside the palace, no diagonal one.
    assert_eq!(
        of(&r, "5k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e1"),
        ["e1-d1", "e1-e2", "e1-f1"]
    );
    // From the centre, all eight.
    assert_eq!(of(&r, "5k3/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e2").len(), 8);
    // From the corner f3: two orthogonal steps and the diagonal to the centre.
    assert_eq!(
        of(&r, "3k5/9/9/9/9/9/9/5K3/9/9 w - - 0 1", "f3"),
        ["f3-e2", "f3-e3", "f3-f2"]
    );
}

#[test]
fn the_elephant_is_blocked_on_either_point_of_its_way() {
    let r = janggi();
    // From c1 with nothing in the way: a4 (via c2, b3), e4 (via c2, d3), f3 (via d1, e2).
    let free = of(&r, "3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1", "c1");
    assert_eq!(free, ["c1-a4", "c1-e4", "c1-f3"]);
    // The general on e2 stands on the way to f3.
    let m = of(&r, "3k5/9/9/9/9/9/9/9/4K4/2B6 w - - 0 1", "c1");
    assert_eq!(m, ["c1-a4", "c1-e4"]);
}
