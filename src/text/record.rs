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

use crate::play::{Game, Turn};
use crate::position::Position;
use crate::rules::Ruleset;

use super::{parse_position, parse_turn, turn_text, write_position};

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

/// The record of a game: `variant` names the rules, `start` the position the turns start from.
pub fn write_record(
    rules: &Ruleset,
    variant: &str,
    start: &Position,
    turns: &[Turn],
    header: &str,
) -> String {
    let Ok(mut game) = Game::new(rules, start.clone()) else {
        return format!(
            "{header}variant: {variant}\nstart: {}\nturns:\nresult: ongoing\n",
            write_position(rules, start)
        );
    };
    let texts: Vec<String> = turns.iter().map(|t| turn_text(rules, t)).collect();
    for t in turns {
        game.play(t);
    }
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
pub fn parse_record(text: &str) -> Result<Record, String> {
    let (mut variant, mut start, mut turns) = (None, None, None);
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err(format!(
                "line {}: expected `key: value` (variant, start, turns, position, result)",
                i + 1
            ));
        };
        let slot = match key.trim() {
            "variant" => &mut variant,
            "start" => &mut start,
            "turns" => &mut turns,
            "position" | "result" => continue,
            other => {
                return Err(format!(
                    "line {}: unknown key `{other}` (a record has variant, start, turns, position, result)",
                    i + 1
                ));
            }
        };
        if slot.is_some() {
            return Err(format!("line {}: `{}` a second time", i + 1, key.trim()));
        }
        *slot = Some(value.trim().to_string());
    }
    let missing = |what: &str| format!("the record has no `{what}:` line");
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

/// Replays a record under `rules`: the game after its turns. A start that does not read, or
/// a turn that is not legal, is named (the turn by its number, from 1).
pub fn replay_record<'r>(rules: &'r Ruleset, record: &Record) -> Result<Game<'r>, String> {
    let start = parse_position(rules, &record.start).map_err(|e| format!("start: {e}"))?;
    let mut game = Game::new(rules, start)
        .map_err(|u| format!("start: the position cannot be played: {}", u.text(rules)))?;
    if record.turns.len() > crate::play::MAX_HISTORY_TURNS {
        return Err(format!(
            "the record has {} turns; the most is {}",
            record.turns.len(),
            crate::play::MAX_HISTORY_TURNS
        ));
    }
    for (i, t) in record.turns.iter().enumerate() {
        let turn = parse_turn(&mut game, t).map_err(|e| format!("turn {}: {e}", i + 1))?;
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
        let mut turns = Vec::new();
        for m in ["e2-e4", "e7-e5", "g1-f3"] {
            let t = parse_turn(&mut game, m).unwrap();
            game.play(&t);
            turns.push(t);
        }
        let text = write_record(&rules, "chess", &rules.setup, &turns, "# saved\n");
        let r = parse_record(&text).unwrap();
        assert_eq!(r.variant, "chess");
        assert_eq!(r.turns.len(), 3);
        let replayed = replay_record(&rules, &r).unwrap();
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
            "the record has no `turns:` line"
        );
        assert!(
            parse_record("variant: chess\nnonsense\n")
                .unwrap_err()
                .starts_with("line 2:")
        );
        let r = parse_record(&format!(
            "variant: chess\nstart: {}\nturns: e2-e4 e2-e4\n",
            write_position(&rules, &rules.setup)
        ))
        .unwrap();
        assert!(
            replay_record(&rules, &r)
                .unwrap_err()
                .starts_with("turn 2:"),
            "{}",
            replay_record(&rules, &r).unwrap_err()
        );
    }
}
