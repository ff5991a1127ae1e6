//! `[turn] chain-ends-home` on a small variant of its own (`tests/variants/ring.toml`): a
//! king's capture chain around four men comes back to its start cell and ends there.

mod games;

use games::{board, game, moves, play};

const RING: &str = include_str!("variants/ring.toml");

#[test]
fn a_chain_that_has_captured_may_end_on_its_start_cell_with_chain_ends_home() {
    let rules = games::rules_named("ring.toml", RING);
    let mut g = game(&rules, "5/1m1m1/5/1m1m1/2K2 w");
    let m = moves(&mut g);
    // Around the ring either way: the same four men, the same landing: one turn.
    assert_eq!(m, ["c1-c1xb2xd2xb4xd4"], "{m:?}");
    play(&mut g, "c1-c1xb2xd2xb4xd4");
    assert_eq!(board(&g), "5/5/5/5/2K2 b");
}

#[test]
fn without_chain_ends_home_the_ring_stops_one_cell_short() {
    let rules = games::rules_named(
        "ring.toml",
        &RING.replace("chain-ends-home = \"after-capture\"\n", ""),
    );
    let mut g = game(&rules, "5/1m1m1/5/1m1m1/2K2 w");
    let mut m = moves(&mut g);
    m.sort();
    // The chain goes on while it can and may not land on c1 again: three men, ending on a3
    // or e3.
    assert_eq!(m, ["c1-a3xd2xb4xd4", "c1-e3xb2xb4xd4"], "{m:?}");
}

#[test]
fn the_rules_in_words_say_a_chain_may_end_where_it_started() {
    let words = games::words;
    let home = words(&games::rules_named("ring.toml", RING));
    assert!(
        home.contains("come back to where it started and end there"),
        "{home}"
    );
    let draughts = words(&bulwark::Ruleset::load_named("draughts").unwrap());
    assert!(
        draughts.contains("and may end where it started"),
        "{draughts}"
    );
    let never = words(&games::rules_named(
        "ring.toml",
        &RING.replace("chain-ends-home = \"after-capture\"\n", ""),
    ));
    assert!(!never.contains("where it started"), "{never}");
}

#[test]
fn chain_revisits_without_chain_ends_home_never_reopen_the_start_cell() {
    // Revisits let a chain cross a cell again, but not its start cell: the maximal chain
    // stops a cell short as without revisits (before, the possible return to c1, where it
    // could not end, held it to going on, and the king had no capture at all).
    let rules = games::rules_named(
        "ring.toml",
        &RING.replace(
            "chain-ends-home = \"after-capture\"\n",
            "chain-revisits = \"after-capture\"\n",
        ),
    );
    let mut g = game(&rules, "5/1m1m1/5/1m1m1/2K2 w");
    let mut m = moves(&mut g);
    m.sort();
    assert_eq!(m, ["c1-a3xd2xb4xd4", "c1-e3xb2xb4xd4"], "{m:?}");
}
