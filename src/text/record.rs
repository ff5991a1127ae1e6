//! The game record: the text that the web board exports and the terminal's `save` writes, and
//! that `load` (and `bulwark status --position … --history …`) replays.
//!
//! ```text
//! # comments
//! variant: bollwerk178
//! start: POSITION TEXT
//! turns: MOVE MOVE …
//! position: POSITION TEXT        (after the turns; informative)
//! result: ongoing | white wins: checkmate | …
//! ```

use std::sync::Arc;

use crate::play::Game;
use crate::rules::Ruleset;
use crate::vm::Stop;

use super::{MoveError, PositionError, parse_position, parse_turn, turn_text, write_position};

/// A record that could not be read or replayed, naming its line or turn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A line that is not `key: value`.
    #[error("line {line}: expected `key: value` (variant, start, turns, position, result)")]
    NotKeyValue {
        /// Its number, from 1.
        line: usize,
    },
    /// A key a record does not have.
    #[error(
        "line {line}: unknown key `{key}` (a record has variant, start, turns, position, result)"
    )]
    UnknownKey {
        /// Its number, from 1.
        line: usize,
        /// The key.
        key: String,
    },
    /// A key given twice.
    #[error("line {line}: `{key}` a second time")]
    Twice {
        /// The line of the second, from 1.
        line: usize,
        /// The key.
        key: String,
    },
    /// A line the record must have and has not.
    #[error("the record has no `{0}:` line")]
    Missing(&'static str),
    /// The start position does not read.
    #[error("start: {0}")]
    Start(PositionError),
    /// The start position reads but cannot be played (why, in the variant's words).
    #[error("start: the position cannot be played: {0}")]
    Unplayable(String),
    /// More turns than a history may hold.
    #[error("the record has {turns} turns; the most is {max}")]
    TooLong {
        /// How many it has.
        turns: usize,
        /// The most allowed ([`crate::play::MAX_HISTORY_TURNS`]).
        max: usize,
    },
    /// A turn that is not legal where it stands.
    #[error("turn {number}: {error}")]
    Turn {
        /// Its number, from 1.
        number: usize,
        /// Why.
        error: MoveError,
    },
}

/// A record as read: the lines it must have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The variant it was played under (a bundled name or a path), as written.
    pub variant: String,
    /// The start position text.
    pub start: String,
    /// The turns in move text, in order.
    pub turns: Vec<String>,
}

/// The record of a game played so far: `variant` names the rules; the start is the position
/// its first turn was played from.
pub fn write_record(variant: &str, game: &mut Game<'_>, header: &str) -> String {
    let rules = game.rules;
    let start = &game.first_position();
    let texts: Vec<String> = game.history().map(|t| turn_text(rules, t)).collect();
    let result = match game.legal_turns() {
        Ok(_) => "ongoing".to_string(),
        Err(o) => o.text(rules),
    };
    format!(
        "{header}variant: {variant}\nstart: {}\nturns: {}\nposition: {}\nresult: {result}\n",
        write_position(rules, start),
        texts.join(" "),
        write_position(rules, game.pos()),
    )
}

/// Reads a record: `variant`, `start` and `turns` lines (in any order; comments and other
/// keys ignored). What is missing or doubled is named with its line.
pub fn parse_record(text: &str) -> Result<Record, RecordError> {
    let (mut variant, mut start, mut turns) = (None, None, None);
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err(RecordError::NotKeyValue { line: i + 1 });
        };
        let slot = match key.trim() {
            "variant" => &mut variant,
            "start" => &mut start,
            "turns" => &mut turns,
            "position" | "result" => continue,
            other => {
                return Err(RecordError::UnknownKey {
                    line: i + 1,
                    key: other.to_string(),
                });
            }
        };
        if slot.is_some() {
            return Err(RecordError::Twice {
                line: i + 1,
                key: key.trim().to_string(),
            });
        }
        *slot = Some(value.trim().to_string());
    }
    let missing = RecordError::Missing;
    Ok(Record {
        variant: variant.ok_or_else(|| missing("variant"))?,
        start: start.ok_or_else(|| missing("start"))?,
        turns: turns
            .ok_or_else(|| missing("turns"))?
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    })
}

/// Replays a record under `rules`: the game after its turns, under `stop` if given. A start
/// that does not read, or a turn that is not legal, is named (the turn by its number, from 1).
pub fn replay_record<'r>(
    rules: &'r Ruleset,
    record: &Record,
    stop: Option<&Arc<Stop>>,
) -> Result<Game<'r>, RecordError> {
    let start = parse_position(rules, &record.start).map_err(RecordError::Start)?;
    let mut game = Game::new(rules, start).map_err(|u| RecordError::Unplayable(u.text(rules)))?;
    game.set_stop(stop.cloned());
    if record.turns.len() > crate::play::MAX_HISTORY_TURNS {
        return Err(RecordError::TooLong {
            turns: record.turns.len(),
            max: crate::play::MAX_HISTORY_TURNS,
        });
    }
    for (i, t) in record.turns.iter().enumerate() {
        let turn = parse_turn(&mut game, t).map_err(|error| RecordError::Turn {
            number: i + 1,
            error,
        })?;
        game.play(&turn);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_record_reads_back_and_replays_to_the_same_position() {
        let rules = Ruleset::load_named("chess").unwrap();
        let mut game = Game::new(&rules, rules.setup.clone()).unwrap();
        for m in ["e2-e4", "e7-e5", "g1-f3"] {
            let t = parse_turn(&mut game, m).unwrap();
            game.play(&t);
        }
        let text = write_record("chess", &mut game, "# saved\n");
        let r = parse_record(&text).unwrap();
        assert_eq!(r.variant, "chess");
        assert_eq!(r.turns.len(), 3);
        let replayed = replay_record(&rules, &r, None).unwrap();
        assert_eq!(
            write_position(&rules, replayed.pos()),
            write_position(&rules, game.pos())
        );
        assert!(text.contains("result: ongoing"));
    }

    #[test]
    fn a_bad_record_names_its_line_or_turn() {
        let rules = Ruleset::load_named("chess").unwrap();
        assert_eq!(
            parse_record("variant: chess\nstart: x\n").unwrap_err(),
            RecordError::Missing("turns")
        );
        assert_eq!(
            parse_record("variant: chess\nstart: x\n")
                .unwrap_err()
                .to_string(),
            "the record has no `turns:` line"
        );
        assert_eq!(
            parse_record("variant: chess\nnonsense\n").unwrap_err(),
            RecordError::NotKeyValue { line: 2 }
        );
        assert!(matches!(
            parse_record("variant: chess\nvariant: chess\n"),
            Err(RecordError::Twice { line: 2, .. })
        ));
        let r = parse_record(&format!(
            "variant: chess\nstart: {}\nturns: e2-e4 e2-e4\n",
            write_position(&rules, &rules.setup)
        ))
        .unwrap();
        let e = replay_record(&rules, &r, None).unwrap_err();
        assert!(matches!(e, RecordError::Turn { number: 2, .. }), "{e}");
        assert!(e.to_string().starts_with("turn 2: `e2-e4`: "), "{e}");
    }
}
