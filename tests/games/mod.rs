//! Helpers shared by the tests of one rule on a small variant of its own: a game from position
//! text, a turn played from move text, the legal turns and the position as text.
#![allow(dead_code)]

use bulwark::play::Game;
use bulwark::{Ruleset, text};

/// A variant from its source (`name` is the file name diagnostics would show).
pub fn rules_named(name: &str, source: &str) -> Ruleset {
    Ruleset::from_source(name, source).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// A game from position text.
pub fn game<'r>(rules: &'r Ruleset, pos: &str) -> Game<'r> {
    Game::new(rules, text::parse_position(rules, pos).unwrap()).unwrap()
}

/// Plays a turn given in move text; panics with the error when it is refused.
pub fn play(g: &mut Game<'_>, mv: &str) {
    let t = text::parse_turn(g, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    g.play(&t);
}

/// The legal turns in move text (none when the game is over).
pub fn moves(g: &mut Game<'_>) -> Vec<String> {
    let turns = g.legal_turns().unwrap_or_default();
    turns.iter().map(|t| text::turn_text(g.rules, t)).collect()
}

/// The position as text.
pub fn board(g: &Game<'_>) -> String {
    text::write_position(g.rules, g.pos())
}

/// The rules in words, every paragraph joined.
pub fn words(rules: &Ruleset) -> String {
    bulwark::view::words::rules_in_words(rules)
        .into_iter()
        .map(|(_, p)| p)
        .collect::<Vec<_>>()
        .join("\n")
}
