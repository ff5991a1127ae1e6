//! One client's game in the web board: its rule set (the variant text it was loaded from, which
//! the client may edit), its start position and the turns played. Every request rebuilds the
//! game from these (a [`Game`] borrows its rules, so it is not kept between requests), which
//! also makes undo and a change of rules exact: the turns are replayed.
//!
//! Synchronous and free of HTTP: the handlers in [`super`] call these and turn an [`ApiError`]
//! into a status code.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::board::{Cell, Side};
use crate::core::Diagnostic;
use crate::load::LoadOptions;
use crate::play::{Game, Outcome};
use crate::position::Position;
use crate::rules::Ruleset;
use crate::search::{Agent, AgentSpec, Budget};
use crate::text::{parse_position, parse_turn, turn_text, write_position};
use crate::view::{self, Mark};
use crate::vm::Stop;
use crate::{Turn, VariantErrors};

/// The most time, nodes and playouts the computer may be given for one turn.
const MAX_MILLIS: u64 = 10_000;
const MAX_NODES: u64 = 2_000_000;
const MAX_PLAYOUTS: u64 = 20_000;
/// The agent that plays when a request names none.
pub const DEFAULT_AGENT: &str = "search:300";

/// A request that cannot be served, with the HTTP status it gets and a message in words.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// 400 bad input, 404 unknown game or cell, 409 not possible now, 422 a variant or
    /// position that does not load.
    pub status: u16,
    /// What is wrong.
    pub message: String,
    /// More, as JSON (the loader's diagnostics).
    pub details: Option<Value>,
}

impl ApiError {
    pub(crate) fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            details: None,
        }
    }

    /// A definition that ran away (409), or work stopped at its time limit or because its
    /// client left (503).
    pub(crate) fn runaway(rules: &Ruleset, r: crate::vm::Runaway) -> ApiError {
        let status = match r.halt {
            crate::vm::Halt::Budget | crate::vm::Halt::CommandBudget => 409,
            crate::vm::Halt::Stopped => 503,
        };
        ApiError::new(status, r.message(rules))
    }

    /// The error as the JSON body of the response.
    pub fn body(&self) -> Value {
        let mut v = json!({ "error": self.message });
        if let Some(d) = &self.details {
            v["diagnostics"] = d.clone();
        }
        v
    }
}

/// A variant text that loaded: its name, its text and the compiled rules.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The name it is known by (a bundled name or a file's path).
    pub name: String,
    /// The variant file's text.
    pub source: String,
    /// The rules it compiled to.
    pub rules: Arc<Ruleset>,
}

impl Variant {
    /// Loads variant text (its `extends` may name any file: the server's own variant, given
    /// on the command line), or the loader's report as a 422 with every diagnostic.
    /// A bundled name it extends reads the built-in copy.
    pub fn load(name: &str, source: &str) -> Result<Variant, ApiError> {
        Variant::load_within(name, source, &LoadOptions::default())
    }

    /// Loads variant text read as `options` say (for text sent by a client, its `extends` may
    /// name only what `options.parents` allows); or the loader's report as a 422 with every
    /// diagnostic.
    pub fn load_within(
        name: &str,
        source: &str,
        options: &LoadOptions,
    ) -> Result<Variant, ApiError> {
        let loaded = Ruleset::from_source_with(name, source, options, &mut Vec::new());
        match loaded.map(|(r, _)| r) {
            Ok(rules) => Ok(Variant {
                name: name.to_string(),
                source: source.to_string(),
                rules: Arc::new(rules),
            }),
            Err(e) => Err(ApiError {
                status: 422,
                message: e.to_string(),
                details: Some(diagnostics_json(source, &e)),
            }),
        }
    }
}

/// Line and column (both from 1, the column in characters) of a byte offset in a text.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// One diagnostic as JSON: code, severity, message, label, help, its span in bytes and as
/// line and column, the file it points into when that is not the edited text (a parent named by
/// `extends`), and the other places it names.
fn diagnostic_json(source: &str, d: &Diagnostic) -> Value {
    let text = d.source.as_ref().map_or(source, |s| s.0.inner().as_str());
    let place = |span: (usize, usize)| {
        let (line, column) = line_column(text, span.0);
        json!({ "start": span.0, "end": span.1, "line": line, "column": column })
    };
    json!({
        "code": d.code.id(),
        "severity": match d.severity {
            crate::core::Severity::Error => "error",
            crate::core::Severity::Warning => "warning",
        },
        "message": d.message,
        "label": d.label,
        "help": d.help,
        "span": place(d.span),
        "file": d.source.as_ref().map(|s| s.0.name().to_string()),
        "related": d.related.iter().map(|l| {
            let mut v = place(l.span);
            v["text"] = json!(l.text);
            v
        }).collect::<Vec<_>>(),
        "rendered": view::diagnostic_text(d),
    })
}

/// Every problem of a report as a JSON array.
pub fn diagnostics_json(source: &str, e: &VariantErrors) -> Value {
    Value::Array(
        e.problems
            .iter()
            .map(|d| diagnostic_json(source, d))
            .collect(),
    )
}

/// One client's game.
#[derive(Debug, Clone)]
pub struct Session {
    variant: Variant,
    /// The start position's text when it is not the variant's own start.
    start_text: Option<String>,
    start: Position,
    turns: Vec<Turn>,
    /// Turns taken back, newest last, for redo.
    undone: Vec<Turn>,
    /// Seeds the computer's choices, advanced at every computer turn.
    seed: u64,
    /// The stop of the request working on the session, if any: every game it plays runs
    /// under it.
    stop: Option<Arc<Stop>>,
}

/// The side as a word of the JSON (`white`, `black`), whatever the variant calls it.
fn side_word(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

impl Session {
    /// A game at the variant's start.
    pub fn new(variant: Variant, seed: u64) -> Session {
        let start = variant.rules.setup.clone();
        Session {
            variant,
            start_text: None,
            start,
            turns: Vec::new(),
            undone: Vec::new(),
            seed,
            stop: None,
        }
    }

    /// The variant being played.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    fn rules(&self) -> &Ruleset {
        &self.variant.rules
    }

    /// Puts the session's work under `stop` (a request's), or under none.
    pub fn set_stop(&mut self, stop: Option<Arc<Stop>>) {
        self.stop = stop;
    }

    /// The game: the start position with the turns played, under the session's stop.
    fn game(&self) -> Game<'_> {
        let mut g = Game::new(self.rules(), self.start.clone())
            .expect("a session's start position was checked when it was set");
        g.set_stop(self.stop.clone());
        for t in &self.turns {
            g.play(t);
        }
        g
    }

    /// The outcome of the game, or an error when a definition ran away while deciding it.
    fn outcome(game: &mut Game<'_>) -> Result<Option<Outcome>, ApiError> {
        let o = game.outcome();
        Self::no_runaway(game)?;
        Ok(o)
    }

    fn no_runaway(game: &Game<'_>) -> Result<(), ApiError> {
        match game.runaway() {
            Some(r) => Err(ApiError::runaway(game.rules, r)),
            None => Ok(()),
        }
    }

    /// Reads a cell name of this variant (404 when the board has no such cell).
    pub fn cell(&self, name: &str) -> Result<Cell, ApiError> {
        self.rules()
            .topo
            .parse_cell(name)
            .map_err(|e| ApiError::new(404, format!("no cell `{name}` on this board: {e}")))
    }

    /// Everything the page shows: the board picture, whose turn, the hands, the position
    /// text, the turns played, the result.
    pub fn state(&self) -> Result<Value, ApiError> {
        let rules = self.rules();
        let mut game = self.game();
        let outcome = Self::outcome(&mut game)?;
        let count = if outcome.is_some() {
            0
        } else {
            game.count_turns()
        };
        Self::no_runaway(&game)?;
        let in_check = outcome.is_none() && game.in_check();
        let pos = game.pos();
        let last = self.turns.last().map(Turn::touched).unwrap_or_default();
        let title = match &outcome {
            Some(o) => o.text(rules),
            None => format!("{} to move", rules.side_name(pos.side)),
        };
        let svg =
            view::with_cell_targets(rules, &view::position_svg(rules, pos, &title, &last), None);
        let history: Vec<String> = self.turns.iter().map(|t| turn_text(rules, t)).collect();
        Ok(json!({
            "variant": self.variant.name,
            "sides": { "white": rules.side_name(Side::White), "black": rules.side_name(Side::Black) },
            "side": side_word(pos.side),
            "side_name": rules.side_name(pos.side),
            "position": write_position(rules, pos),
            "start": write_position(rules, &self.start),
            "history": history,
            "can_redo": !self.undone.is_empty(),
            "turns": count,
            "in_check": in_check,
            "result": outcome.map(|o| json!({
                "winner": o.winner.map(side_word),
                "reason": o.reason.text(rules),
                "text": o.text(rules),
            })),
            "hands": hands(rules, pos),
            "last": last.iter().map(|&c| rules.topo.name(c)).collect::<Vec<_>>(),
            "svg": svg,
            "warnings": rules.warnings.iter().map(|d| diagnostic_json(&self.variant.source, d)).collect::<Vec<_>>(),
        }))
    }

    /// The rulebook diagram of the piece on a cell in the current position: the picture (with
    /// the legend and click targets), and its marks by cell.
    pub fn diagram(&self, at: &str) -> Result<Value, ApiError> {
        let rules = self.rules();
        let cell = self.cell(at)?;
        let game = self.game();
        let pos = game.pos();
        let d = view::diagram_under(rules, pos, cell, self.stop.as_ref()).map_err(|e| match e {
            view::DiagramError::NoPiece => {
                ApiError::new(409, view::no_piece_text(rules, pos, cell))
            }
            view::DiagramError::Runaway(r) => ApiError::runaway(rules, r),
        })?;
        let svg = view::with_cell_targets(rules, &view::diagram_svg(rules, pos, &d), Some(&d));
        let marks: serde_json::Map<String, Value> =
            serde_json::from_str::<Value>(&view::diagram_json(rules, &d))
                .ok()
                .and_then(|v| v.get("marks").and_then(Value::as_object).cloned())
                .unwrap_or_default();
        let counts: serde_json::Map<String, Value> = Mark::ALL
            .iter()
            .map(|&m| (m.name().to_string(), json!(d.cells_with(m).len())))
            .collect();
        Ok(json!({
            "piece": rules.pieces[d.kind].name,
            "letter": d.letter.to_string(),
            "side": side_word(d.side),
            "origin": rules.topo.name(cell),
            "marks": marks,
            "counts": counts,
            "legend": view::text_legend(rules),
            "svg": svg,
        }))
    }

    /// The legal turns, all of them or those of the piece on (or dropped onto) a cell, each with
    /// its move text and the cells a player clicks to make it, in order: the piece, where it
    /// goes, then each stone's cell or the removed stone's.
    pub fn turns(
        &self,
        from: Option<&str>,
        clicks: Option<&str>,
        limit: usize,
    ) -> Result<Value, ApiError> {
        let rules = self.rules();
        let from = from.map(|f| self.cell(f)).transpose()?;
        // The clicks as the turns' JSON names them (a cell's own spelling).
        let clicks: Vec<Value> = match clicks {
            Some(c) => c
                .split(',')
                .filter(|c| !c.trim().is_empty())
                .take(64)
                .map(|c| self.cell(c.trim()).map(|c| json!(rules.topo.name(c))))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        let mut game = self.game();
        let mut list = Vec::new();
        let mut total = 0usize;
        let result = game.each_turn(|t| {
            if from.is_some_and(|f| f != t.from()) {
                return;
            }
            let j = turn_json(rules, t);
            if !clicks.is_empty()
                && !j["clicks"]
                    .as_array()
                    .is_some_and(|have| have.starts_with(&clicks))
            {
                return;
            }
            total += 1;
            if list.len() < limit {
                list.push(j);
            }
        });
        Self::no_runaway(&game)?;
        Ok(json!({
            "over": result.is_err(),
            "total": total,
            "turns": list,
        }))
    }

    /// Plays a turn given in move text (400 with the engine's reason when it is not legal).
    pub fn play(&mut self, text: &str) -> Result<String, ApiError> {
        let mut game = self.game();
        if let Some(o) = Self::outcome(&mut game)? {
            return Err(ApiError::new(
                409,
                format!("the game is over: {}", o.text(game.rules)),
            ));
        }
        let turn = parse_turn(&mut game, text);
        Self::no_runaway(&game)?;
        let turn = turn.map_err(|e| {
            ApiError::new(
                400,
                format!("`{}` is not a legal turn: {}", e.text, e.reason),
            )
        })?;
        let text = turn_text(game.rules, &turn);
        self.turns.push(turn);
        self.undone.clear();
        Ok(text)
    }

    /// The computer plays the side to move; returns the turn's text.
    pub fn computer(&mut self, agent: Option<&str>) -> Result<String, ApiError> {
        let spec = AgentSpec::parse(agent.unwrap_or(DEFAULT_AGENT))
            .map_err(|e| ApiError::new(400, e.to_string()))?;
        let spec = AgentSpec {
            budget: match spec.budget {
                Budget::Millis(n) => Budget::Millis(n.min(MAX_MILLIS)),
                Budget::Nodes(n) => Budget::Nodes(n.min(MAX_NODES)),
                Budget::Playouts(n) => Budget::Playouts(n.min(MAX_PLAYOUTS)),
            },
            ..spec
        };
        self.seed = crate::search::derive(self.seed, self.turns.len() as u64);
        let mut game = self.game();
        if let Some(o) = Self::outcome(&mut game)? {
            return Err(ApiError::new(
                409,
                format!("the game is over: {}", o.text(game.rules)),
            ));
        }
        let mut agent = Agent::new(spec, game.rules, self.seed);
        let turn = agent.choose(&mut game);
        Self::no_runaway(&game)?;
        let turn = turn.ok_or_else(|| ApiError::new(409, "the computer found no turn"))?;
        let text = turn_text(game.rules, &turn);
        self.turns.push(turn);
        self.undone.clear();
        Ok(text)
    }

    /// Takes back the last turn (409 when none was played).
    pub fn undo(&mut self) -> Result<(), ApiError> {
        let t = self
            .turns
            .pop()
            .ok_or_else(|| ApiError::new(409, "no turn to take back"))?;
        self.undone.push(t);
        Ok(())
    }

    /// Plays again the last turn taken back (409 when there is none).
    pub fn redo(&mut self) -> Result<(), ApiError> {
        let t = self
            .undone
            .pop()
            .ok_or_else(|| ApiError::new(409, "no turn to play again"))?;
        self.turns.push(t);
        Ok(())
    }

    /// Starts again from a position text (the variant's start when `None`), then plays the
    /// history (move text separated by spaces). Nothing changes when either is bad.
    pub fn set_position(
        &mut self,
        position: Option<&str>,
        history: Option<&str>,
    ) -> Result<(), ApiError> {
        let rules = Arc::clone(&self.variant.rules);
        let start = match position.map(str::trim).filter(|p| !p.is_empty()) {
            None => rules.setup.clone(),
            Some(p) => {
                let pos = parse_position(&rules, p).map_err(|e| ApiError {
                    status: 400,
                    message: format!("bad position text: {e}"),
                    details: e.range.map(|(a, b)| json!({ "start": a, "end": b })),
                })?;
                Game::new(&rules, pos.clone()).map_err(|u| {
                    ApiError::new(
                        400,
                        format!("the position cannot be played: {}", u.text(&rules)),
                    )
                })?;
                pos
            }
        };
        let turns = replay(&rules, &start, history.unwrap_or(""), self.stop.as_ref())?;
        self.start_text = position
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(String::from);
        self.start = start;
        self.turns = turns;
        self.undone.clear();
        Ok(())
    }

    /// Replaces the rules with a variant loaded from edited text (see
    /// [`Variant::load_within`]). The game restarts from the same start position text (the new
    /// variant's start when the old start does not read under the new rules) and keeps as many
    /// of its turns as are still legal, in order. Returns how many turns were kept and dropped.
    pub fn set_variant(&mut self, variant: Variant) -> Result<(usize, usize), ApiError> {
        let rules = Arc::clone(&variant.rules);
        let start = self
            .start_text
            .as_deref()
            .and_then(|t| parse_position(&rules, t).ok())
            .filter(|p| Game::new(&rules, p.clone()).is_ok());
        let kept_start = start.is_some();
        let start = start.unwrap_or_else(|| rules.setup.clone());
        let history: Vec<String> = self
            .turns
            .iter()
            .map(|t| turn_text(self.rules(), t))
            .collect();
        let mut game = Game::new(&rules, start.clone()).map_err(|u| {
            ApiError::new(
                422,
                format!("the start cannot be played: {}", u.text(&rules)),
            )
        })?;
        game.set_stop(self.stop.clone());
        let mut turns = Vec::new();
        for text in &history {
            match parse_turn(&mut game, text) {
                Ok(t) => {
                    game.play(&t);
                    turns.push(t);
                }
                Err(_) => break,
            }
            if game.runaway().is_some() {
                break;
            }
        }
        let kept = turns.len();
        self.variant = variant;
        self.start_text = if kept_start {
            self.start_text.take()
        } else {
            None
        };
        self.start = start;
        self.turns = turns;
        self.undone.clear();
        Ok((kept, history.len() - kept))
    }

    /// The game as a text record that `bulwark` replays: variant, start, turns, result.
    pub fn export(&self) -> Result<String, ApiError> {
        let mut game = self.game();
        // The game must still be playable (a definition that runs away is an error here).
        Self::outcome(&mut game)?;
        Ok(crate::text::write_record(
            &self.variant.name,
            &mut game,
            "# A game exported from bulwark serve. Replay it with `load FILE` in `bulwark play`,\n\
             # or: bulwark status VARIANT --position \"$start\" --history \"$turns\"\n",
        ))
    }
}

/// Reads and plays a history from a start, under `stop`; 400 naming the first turn that is not
/// legal.
fn replay(
    rules: &Ruleset,
    start: &Position,
    history: &str,
    stop: Option<&Arc<Stop>>,
) -> Result<Vec<Turn>, ApiError> {
    let mut game = Game::new(rules, start.clone()).map_err(|u| {
        ApiError::new(
            400,
            format!("the position cannot be played: {}", u.text(rules)),
        )
    })?;
    game.set_stop(stop.cloned());
    let count = history.split_whitespace().count();
    if count > crate::play::MAX_HISTORY_TURNS {
        return Err(ApiError::new(
            400,
            format!(
                "the history has {count} turns; the most is {}: start from a position nearer to the turns that matter",
                crate::play::MAX_HISTORY_TURNS
            ),
        ));
    }
    let mut turns = Vec::new();
    for (i, part) in history.split_whitespace().enumerate() {
        let t = parse_turn(&mut game, part);
        if let Some(r) = game.runaway() {
            return Err(ApiError::runaway(rules, r));
        }
        let t = t.map_err(|e| {
            ApiError::new(
                400,
                format!(
                    "bad history: turn {} `{part}` is not legal: {}",
                    i + 1,
                    e.reason
                ),
            )
        })?;
        game.play(&t);
        turns.push(t);
    }
    Ok(turns)
}

/// A turn as JSON: its text, its cells, and the clicks that make it.
fn turn_json(rules: &Ruleset, t: &Turn) -> Value {
    let name = |c: Cell| rules.topo.name(c);
    let mut clicks = vec![name(t.from())];
    if let Some(to) = t.to().filter(|&to| to != t.from()) {
        clicks.push(name(to));
    }
    let mut stones = Vec::new();
    for &(k, c) in t.placed() {
        let st = &rules.stones[k.index()];
        stones.push(json!({ "cell": name(c), "symbol": st.symbol.to_string(), "name": st.name }));
        clicks.push(name(c));
    }
    clicks.extend(t.removed().map(name));
    json!({
        "text": turn_text(rules, t),
        "from": name(t.from()),
        "to": t.to().map(name),
        "captures": t.captures().iter().map(|&c| name(c)).collect::<Vec<_>>(),
        "stones": stones,
        "remove": t.removed().map(name),
        "drop": t.dropped().map(|k| rules.pieces[k.index()].name.clone()),
        "promote": t.promote().map(|k| rules.pieces[k.index()].name.clone()),
        "castle": t.castle().is_some(),
        "pass": t.is_pass(),
        "clicks": clicks,
    })
}

/// Each side's stones in supply and pieces in reserve.
fn hands(rules: &Ruleset, pos: &Position) -> Value {
    let mut out = serde_json::Map::new();
    for (side, supply) in pos.supplies.iter() {
        let mut items = Vec::new();
        for (k, n) in rules.stones.iter().zip(supply) {
            items.push(json!({ "kind": "stone", "name": k.name, "symbol": k.symbol.to_string(), "count": n }));
        }
        for (p, n) in rules
            .pieces
            .iter()
            .zip(&supply[rules.stones.len().min(supply.len())..])
        {
            if p.reserve.is_some() || *n > 0 {
                items.push(json!({ "kind": "piece", "name": p.name, "symbol": p.letter.to_string(), "count": n }));
            }
        }
        out.insert(side_word(side).to_string(), Value::Array(items));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_characters_from_one() {
        let t = "ab\nçd\n";
        assert_eq!(line_column(t, 0), (1, 1));
        assert_eq!(line_column(t, 3), (2, 1));
        // `ç` is two bytes: `d` is the second character.
        assert_eq!(line_column(t, 5), (2, 2));
        assert_eq!(line_column(t, 100), (3, 1));
    }
}
