//! `[turn]` settings on a small variant of their own: how many stones one turn may blow up,
//! and whether an explosion leaves a taboo cell (Bollwerk 178's readings of B-45 and B-48 are
//! the defaults: one explosion, a taboo cell).

use bulwark::{Game, Ruleset, parse_position, parse_turn, write_position};

/// A 4x4 board; the Chancellor-like piece `C` (White on b1, Black on b3) places up to two
/// stones within a king step; a bomb blows up a block (on a2 and c2).
fn variant(turn: &str) -> Ruleset {
    let text = format!(
        r##"
[game]
name = "Bombs"

[board]
files = ["a", "b", "c", "d"]
ranks = 4
mask = """
####
####
####
####
"""

[stones.block]
symbol = "#"
supply = 2
class = "block-like"

[stones.bomb]
symbol = "@"
supply = 2
class = "arrow-like"
explodes = ["block"]

[pieces.placer]
letter = "C"
stones-per-turn = 2
moves = "step(all)"

[end]
no-pieces = "ignored"
immobilized = "ignored"

{turn}

[setup]
position = "4/1c2/#1#1/1C2 w"
"##
    );
    Ruleset::from_source("bombs.toml", &text)
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)))
}

fn moves(rules: &Ruleset) -> Vec<String> {
    let mut g = Game::start(rules);
    g.legal_turns()
        .unwrap()
        .iter()
        .map(|t| bulwark::turn_text(rules, t))
        .collect()
}

#[test]
fn b45_b48_one_explosion_a_turn_by_default() {
    let r = variant("");
    let m = moves(&r);
    // Each block can be blown up alone, or with a block placed elsewhere; never both at once.
    assert!(m.contains(&"b1@a2".to_string()) && m.contains(&"b1@c2".to_string()));
    assert!(m.contains(&"b1@a2#b2".to_string()));
    assert!(!m.contains(&"b1@a2@c2".to_string()), "{m:?}");
}

#[test]
fn two_explosions_a_turn_when_declared() {
    let r = variant("[turn]\nexplosions = 2\ntaboo-after-explosion = false");
    let m = moves(&r);
    assert!(m.contains(&"b1@a2@c2".to_string()), "{m:?}");
    let mut g = Game::start(&r);
    let t = parse_turn(&mut g, "b1@a2@c2").unwrap();
    g.play(&t);
    // Both blocks and both bombs are gone; no taboo cell.
    assert_eq!(write_position(&r, g.pos()), "4/1c2/4/1C2 b #2@0/#2@2 -");
}

#[test]
fn no_explosion_when_declared() {
    let r = variant("[turn]\nexplosions = 0");
    let m = moves(&r);
    assert!(
        !m.iter().any(|t| t.contains("@a2") || t.contains("@c2")),
        "{m:?}"
    );
    // The diagram shows no bomb mark either: the placement rule is the one both ask.
    let pos = r.setup.clone();
    let d = bulwark::diagram(&r, &pos, r.topo.parse_cell("b1").unwrap()).unwrap();
    assert!(d.cells_with(bulwark::Mark::Bomb).is_empty());
}

#[test]
fn b48_an_explosion_leaves_a_taboo_cell_unless_declared_otherwise() {
    for (turn, taboo) in [("", true), ("[turn]\ntaboo-after-explosion = false", false)] {
        let r = variant(turn);
        let mut g = Game::start(&r);
        let t = parse_turn(&mut g, "b1@a2").unwrap();
        g.play(&t);
        assert_eq!(g.pos().taboo.is_some(), taboo, "{turn}");
        // Black's piece on b3 could place a block on the emptied a2: only without the taboo.
        let black = moves_now(&mut g);
        assert_eq!(
            !black.contains(&"b3#a2".to_string()),
            taboo,
            "{turn}: {black:?}"
        );
        // It may still move there (B-48: pieces may enter it).
        assert!(black.contains(&"b3-a2".to_string()), "{black:?}");
        let text = write_position(&r, g.pos());
        assert_eq!(&parse_position(&r, &text).unwrap(), g.pos());
    }
}

fn moves_now(g: &mut Game<'_>) -> Vec<String> {
    let rules = g.rules;
    g.legal_turns()
        .unwrap()
        .iter()
        .map(|t| bulwark::turn_text(rules, t))
        .collect()
}
