//! The Universal Chess Interface: `bulwark uci` speaks it on a reader and a writer, so the
//! engine sits in a GUI or plays another engine through a match runner.
//!
//! Moves are written as Fairy-Stockfish writes them where a turn is only a movement, a
//! change of kind or a drop (`e2e4`, `e7e8q`, `P@e4`, castling as the king's move, or with
//! `UCI_Chess960` the king's move onto its partner); a turn that places or removes stones, or
//! that two turns of the position would share, is written in bulwark's own move text.
//! Positions are bulwark's position text, which is FEN for the games that use it.
//!
//! The search runs on its own thread, so `stop`, `isready` and `quit` are answered while it
//! thinks. Nothing the other side sends can make it panic: an unknown command, option, move
//! or position is named in an `info string` and ignored.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::load::{BUNDLED, BundledCopy, LoadOptions};
use crate::play::{Game, Then, Turn};
use crate::position::Position;
use crate::rules::{LetterMark, Ruleset};
use crate::search::{Evaluator, Limits, Progress, Score, Searcher};
use crate::text::{parse_position, parse_turn, turn_text, words};
use crate::vm::Stop;

/// A shared, line-buffered output.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// The default size of the transposition table, in megabytes (the `Hash` option).
pub const DEFAULT_HASH_MB: usize = 16;
/// What is kept back from the clock for the answer to travel.
const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        // A closed output (the GUI went away) is not this side's problem.
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The text of a turn in UCI form, given every legal turn of its position (to fall back on
/// bulwark's move text where the UCI form would be ambiguous).
pub fn uci_move(rules: &Ruleset, t: &Turn, all: &[Turn], chess960: bool) -> String {
    let plain = uci_form(rules, t, chess960);
    match plain {
        Some(text)
            if all
                .iter()
                .filter(|o| uci_form(rules, o, chess960).as_deref() == Some(&text))
                .count()
                <= 1 =>
        {
            text
        }
        _ => turn_text(rules, t),
    }
}

/// The UCI form of a turn, if it has one (a movement, a change of kind or a drop).
fn uci_form(rules: &Ruleset, t: &Turn, chess960: bool) -> Option<String> {
    let name = |c| rules.topo.name(c);
    match t {
        Turn::Drop { cell, kind } => {
            return Some(format!(
                "{}@{}",
                rules.pieces[kind.index()].letter,
                name(*cell)
            ));
        }
        // A pass is the passing piece's cell twice, as Fairy-Stockfish writes it.
        Turn::Pass { from } => return Some(format!("{}{}", name(*from), name(*from))),
        Turn::Move {
            then: Then::Nothing,
            ..
        }
        | Turn::Castle { .. } => {}
        Turn::Move { .. } | Turn::Place { .. } | Turn::Remove { .. } => return None,
    }
    let to = t.to()?;
    let mut s = name(t.from());
    if let Some(i) = t.castle()
        && chess960
        && let Some(&(partner, _)) = rules
            .castlings
            .get(i as usize)
            .and_then(|c| c.partners.first())
    {
        s.push_str(&name(partner));
        return Some(s);
    }
    s.push_str(&name(to));
    if let Some(k) = t.promote() {
        // Shogi's promotions are written `+`, as Fairy-Stockfish writes them.
        let p = &rules.pieces[k.index()];
        s.push(if p.mark == LetterMark::Plus {
            '+'
        } else {
            p.letter.to_ascii_lowercase()
        });
    }
    Some(s)
}

/// The loaded game: its rules, its start and the turns played from it.
struct Loaded {
    rules: Arc<Ruleset>,
    label: String,
    start: Position,
    turns: Vec<Turn>,
}

/// A search running on its thread.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Searcher>,
}

/// The engine's state between commands.
pub struct Engine {
    out: Out,
    variant: String,
    file: Option<String>,
    chess960: bool,
    hash_mb: usize,
    loaded: Option<Loaded>,
    searcher: Option<Searcher>,
    running: Option<Running>,
    /// Which text a bundled name reads.
    bundled: BundledCopy,
    /// Landings one run of a piece's program may make in a search (see
    /// [`crate::vm::WORK_BUDGET`]).
    work_budget: u64,
}

/// What `go` asked for.
#[derive(Debug, Default)]
struct Go {
    limits: Limits,
    infinite: bool,
    perft: Option<u32>,
}

impl Engine {
    /// An engine writing to `out`, with the default variant (the first bundled one).
    pub fn new(out: Box<dyn Write + Send>) -> Engine {
        Engine {
            out: Arc::new(Mutex::new(out)),
            variant: BUNDLED[0].0.to_string(),
            file: None,
            chess960: false,
            hash_mb: DEFAULT_HASH_MB,
            loaded: None,
            searcher: None,
            running: None,
            bundled: BundledCopy::BuiltIn,
            work_budget: crate::vm::WORK_BUDGET,
        }
    }

    /// The same engine, reading bundled names as `bundled` says (the command line's
    /// `bulwark uci` reads an edited checkout copy, as every command does).
    pub fn reading(mut self, bundled: BundledCopy) -> Engine {
        self.bundled = bundled;
        self
    }

    /// The same engine, its searches giving each run of a piece's program `landings` (the
    /// command line reads `BULWARK_WORK_BUDGET`).
    #[must_use]
    pub fn work_budget(mut self, landings: u64) -> Engine {
        self.work_budget = landings.max(1);
        self
    }

    /// Reads commands until `quit` or the end of the input; a search still running then is
    /// stopped and its `bestmove` written.
    pub fn run(mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if !self.command(&line) {
                break;
            }
        }
        self.finish_search();
    }

    fn info(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    /// Handles one line; false after `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let parts: Vec<&str> = words(line).into_iter().map(|(_, w)| w).collect();
        let Some(&head) = parts.first() else {
            return true;
        };
        let rest = &parts[1..];
        match head {
            "uci" => self.identify(),
            "isready" => say(&self.out, "readyok"),
            "quit" => return false,
            "stop" => self.finish_search(),
            "ucinewgame" => {
                self.finish_search();
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
            "setoption" => {
                self.finish_search();
                self.set_option(rest);
            }
            "position" => {
                self.finish_search();
                self.set_position(rest);
            }
            "go" => {
                self.finish_search();
                self.go(rest);
            }
            "debug" | "ponderhit" | "register" => {}
            other => self.info(&format!("unknown command `{}`: ignored", Clip(other))),
        }
        true
    }

    fn identify(&self) {
        let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
        let vars: String = names.iter().flat_map(|n| [" var ", n]).collect();
        let lines = [
            format!("id name bulwark {}", env!("CARGO_PKG_VERSION")),
            "id author the bulwark developers".to_string(),
            format!(
                "option name UCI_Variant type combo default {}{vars}",
                names[0]
            ),
            "option name VariantFile type string default <empty>".to_string(),
            "option name UCI_Chess960 type check default false".to_string(),
            format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096"),
            "option name Clear Hash type button".to_string(),
            "uciok".to_string(),
        ];
        for l in lines {
            say(&self.out, &l);
        }
    }

    fn set_option(&mut self, rest: &[&str]) {
        // setoption name NAME… [value VALUE…]
        let text = rest.join(" ");
        let Some(body) = text.strip_prefix("name ") else {
            self.info("setoption needs `name`: setoption name NAME value VALUE");
            return;
        };
        let (name, value) = match body.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (body.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                if BUNDLED.iter().any(|(n, _)| *n == value) {
                    self.variant = value.to_string();
                    self.file = None;
                    self.loaded = None;
                } else {
                    let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
                    self.info(&format!(
                        "UCI_Variant `{}` is not a bundled variant ({}); for a file, set VariantFile",
                        Clip(value),
                        names.join(", ")
                    ));
                }
            }
            "variantfile" => {
                self.file = (!value.is_empty() && value != "<empty>").then(|| value.to_string());
                self.loaded = None;
            }
            "uci_chess960" => match value {
                "true" | "false" => {
                    self.chess960 = value == "true";
                    self.loaded = None;
                }
                _ => self.info("UCI_Chess960 is true or false"),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    self.hash_mb = mb;
                    self.searcher = None;
                }
                _ => self.info("Hash is a number of megabytes from 1 to 4096"),
            },
            "clear hash" => {
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
            _ => self.info(&format!("unknown option `{}`: ignored", Clip(name))),
        }
    }

    /// The variant to load: the file when one is set, else the bundled name (with
    /// `UCI_Chess960`, its `…960` sibling when one is bundled).
    fn source(&self) -> String {
        if let Some(f) = &self.file {
            return f.clone();
        }
        let sibling = format!("{}960", self.variant);
        if self.chess960 && BUNDLED.iter().any(|(n, _)| *n == sibling) {
            return sibling;
        }
        self.variant.clone()
    }

    /// Loads the variant if it is not loaded; false (said) when it cannot be.
    fn ensure_loaded(&mut self) -> bool {
        if self.loaded.is_some() {
            return true;
        }
        let source = self.source();
        let options = LoadOptions {
            bundled: self.bundled,
            ..LoadOptions::default()
        };
        match Ruleset::load_with(&source, &options, &mut Vec::new()).map(|(r, _)| r) {
            Ok(rules) => {
                let start = rules.setup.clone();
                self.searcher = None;
                self.loaded = Some(Loaded {
                    rules: Arc::new(rules),
                    label: source,
                    start,
                    turns: Vec::new(),
                });
                true
            }
            Err(e) => {
                let first = e.to_string();
                let first = first.lines().next().unwrap_or("");
                self.info(&format!("cannot load `{source}`: {first}"));
                false
            }
        }
    }

    fn set_position(&mut self, rest: &[&str]) {
        if !self.ensure_loaded() {
            return;
        }
        let Some(loaded) = &self.loaded else { return };
        let rules = Arc::clone(&loaded.rules);
        let moves_at = rest.iter().position(|w| *w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let start = match head.first() {
            Some(&"startpos") if head.len() == 1 => rules.setup.clone(),
            Some(&"fen") if head.len() > 1 => match parse_position(&rules, &head[1..].join(" ")) {
                Ok(p) => p,
                Err(e) => {
                    self.info(&format!("position not set: {e}"));
                    return;
                }
            },
            _ => {
                self.info("position startpos [moves …] or position fen TEXT [moves …]");
                return;
            }
        };
        let mut game = match Game::new(&rules, start.clone()) {
            Ok(g) => g.under(&self.work()),
            Err(u) => {
                self.info(&format!("position not set: {}", u.text(&rules)));
                return;
            }
        };
        let mut turns = Vec::new();
        for (n, m) in moves.iter().enumerate() {
            match find_turn(&mut game, m, self.chess960) {
                Ok(t) => {
                    game.play(&t);
                    turns.push(t);
                }
                Err(why) => {
                    self.info(&format!(
                        "move {} `{}` is not legal: {why}; the position stops before it",
                        n + 1,
                        Clip(m)
                    ));
                    break;
                }
            }
        }
        if let Some(l) = &mut self.loaded {
            l.start = start;
            l.turns = turns;
        }
    }

    fn parse_go(rest: &[&str], side_is_white: bool) -> Result<Go, String> {
        let mut go = Go::default();
        let (mut wtime, mut btime, mut winc, mut binc, mut togo) = (None, None, 0u64, 0u64, None);
        let mut i = 0;
        let number = |i: usize| -> Result<u64, String> {
            let w = rest
                .get(i + 1)
                .ok_or(format!("`{}` needs a number", rest[i]))?;
            // Some GUIs send negative times when the clock ran out: treat as 0.
            if w.starts_with('-') && w[1..].parse::<u64>().is_ok() {
                return Ok(0);
            }
            w.parse::<u64>()
                .map_err(|_| format!("`{}` needs a number, not `{}`", rest[i], Clip(w)))
        };
        while i < rest.len() {
            match rest[i] {
                "infinite" => go.infinite = true,
                "ponder" => {}
                "movetime" => {
                    let ms = number(i)?;
                    let t = Duration::from_millis(ms)
                        .saturating_sub(MOVE_OVERHEAD)
                        .max(Duration::from_millis(1));
                    go.limits.hard = Some(t);
                    go.limits.soft = Some(t.mul_f64(0.6));
                    i += 1;
                }
                "wtime" => {
                    wtime = Some(number(i)?);
                    i += 1;
                }
                "btime" => {
                    btime = Some(number(i)?);
                    i += 1;
                }
                "winc" => {
                    winc = number(i)?;
                    i += 1;
                }
                "binc" => {
                    binc = number(i)?;
                    i += 1;
                }
                "movestogo" => {
                    togo = Some(number(i)?.max(1));
                    i += 1;
                }
                "depth" => {
                    go.limits.depth = Some(u32::try_from(number(i)?.clamp(1, 96)).unwrap_or(96));
                    i += 1;
                }
                "nodes" => {
                    go.limits.nodes = Some(number(i)?.max(1));
                    i += 1;
                }
                "perft" => {
                    go.perft = Some(u32::try_from(number(i)?.min(32)).unwrap_or(1));
                    i += 1;
                }
                "mate" | "searchmoves" => {
                    return Err(format!("`go {}` is not supported", rest[i]));
                }
                other => return Err(format!("unknown `go` parameter `{}`", Clip(other))),
            }
            i += 1;
        }
        let (time, inc) = if side_is_white {
            (wtime, winc)
        } else {
            (btime, binc)
        };
        if let Some(time) = time {
            let togo = togo.unwrap_or(30);
            let left = time.saturating_sub(MOVE_OVERHEAD.as_millis() as u64);
            let share = left / togo + inc * 3 / 4;
            let hard = (share * 3).min(left / 2).max(1);
            go.limits.soft = Some(Duration::from_millis((share * 6 / 10).max(1)));
            go.limits.hard = Some(Duration::from_millis(hard));
        }
        Ok(go)
    }

    /// The stop the engine's games work under: the engine's work budget for each run.
    fn work(&self) -> Arc<Stop> {
        Arc::new(Stop::default().with_work_budget(self.work_budget))
    }

    fn go(&mut self, rest: &[&str]) {
        if !self.ensure_loaded() {
            // A GUI waits for an answer to `go`, even when there is no game to search.
            say(&self.out, "bestmove (none)");
            return;
        }
        let Some(loaded) = &self.loaded else { return };
        let rules = Arc::clone(&loaded.rules);
        let (start, turns) = (loaded.start.clone(), loaded.turns.clone());
        let white = {
            let mut game = replay(&rules, &start, &turns, &self.work());
            game.as_mut()
                .is_some_and(|g| g.pos().side == crate::core::Side::White)
        };
        let mut go = match Self::parse_go(rest, white) {
            Ok(g) => g,
            Err(e) => {
                self.info(&format!("{e}; the search does not start"));
                say(&self.out, "bestmove (none)");
                return;
            }
        };
        if let Some(depth) = go.perft {
            self.perft(&rules, &start, &turns, depth);
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        go.limits.stop = Some(Arc::clone(&stop));
        let hash_mb = self.hash_mb;
        let mut searcher = self.searcher.take().unwrap_or_else(|| {
            Searcher::with_table(Evaluator::new(&rules), Searcher::table_bits_for(hash_mb))
        });
        let out = Arc::clone(&self.out);
        let chess960 = self.chess960;
        let label = loaded.label.clone();
        let flag = Arc::clone(&stop);
        // The search's game runs every program under the engine's work budget.
        let work = self.work();
        let handle = std::thread::spawn(move || {
            {
                let Some(mut game) = replay(&rules, &start, &turns, &work) else {
                    say(
                        &out,
                        &format!("info string cannot replay the position of {label}"),
                    );
                    say(&out, "bestmove (none)");
                    return searcher;
                };
                let all = game.legal_turns().unwrap_or_default();
                let mut shown = game.clone();
                let mut report = |p: &Progress| {
                    say(&out, &info_line(&rules, &mut shown, p, chess960));
                };
                let found = searcher.search(&mut game, &go.limits, None, &mut report);
                // With `infinite`, the answer waits for `stop`.
                while go.infinite && !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                match found {
                    Some((t, _)) => say(
                        &out,
                        &format!("bestmove {}", uci_move(&rules, &t, &all, chess960)),
                    ),
                    None => say(&out, "bestmove (none)"),
                }
                searcher
            }
        });
        self.running = Some(Running { stop, handle });
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            match r.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => self.info("the search failed; its table is dropped"),
            }
        }
    }

    fn perft(&self, rules: &Ruleset, start: &Position, turns: &[Turn], depth: u32) {
        let Some(mut game) = replay(rules, start, turns, &self.work()) else {
            return;
        };
        let all = game.legal_turns().unwrap_or_default();
        let mut total = 0u64;
        for t in &all {
            game.play(t);
            let n = game.perft(depth.saturating_sub(1));
            game.undo();
            total += n;
            say(
                &self.out,
                &format!("{}: {n}", uci_move(rules, t, &all, self.chess960)),
            );
        }
        say(&self.out, "");
        say(&self.out, &format!("Nodes searched: {total}"));
    }
}

struct Clip<'a>(&'a str);

/// Text from the other side, cut to a readable length in messages.
impl std::fmt::Display for Clip<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const MAX: usize = 60;
        if self.0.chars().count() <= MAX {
            f.write_str(self.0)
        } else {
            let cut: String = self.0.chars().take(MAX).collect();
            write!(f, "{cut}…")
        }
    }
}

/// The game at `start` after `turns`, under `work`.
fn replay<'r>(
    rules: &'r Ruleset,
    start: &Position,
    turns: &[Turn],
    work: &Arc<Stop>,
) -> Option<Game<'r>> {
    let mut game = Game::new(rules, start.clone()).ok()?.under(work);
    for t in turns {
        game.play(t);
    }
    Some(game)
}

/// The legal turn a move text names: its UCI form, or bulwark's move text.
fn find_turn(game: &mut Game<'_>, text: &str, chess960: bool) -> Result<Turn, String> {
    let rules = game.rules;
    let all = match game.legal_turns() {
        Ok(t) => t,
        Err(o) => return Err(format!("the game is over ({})", o.text(rules))),
    };
    if let Some(t) = all
        .iter()
        .find(|t| uci_move(rules, t, &all, chess960) == text)
    {
        return Ok(t.clone());
    }
    // Castling also as the king's move when UCI_Chess960 is off, and onto its partner when
    // on: GUIs differ.
    if let Some(t) = all
        .iter()
        .find(|t| t.castle().is_some() && uci_form(rules, t, !chess960).as_deref() == Some(text))
    {
        return Ok(t.clone());
    }
    parse_turn(game, text).map_err(|e| e.reason)
}

fn info_line(rules: &Ruleset, game: &mut Game<'_>, p: &Progress, chess960: bool) -> String {
    let score = match p.score {
        Score::Centi(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let ms = p.elapsed.as_millis().max(1);
    let nps = u128::from(p.nodes) * 1000 / ms;
    let mut pv = String::new();
    let mut played = 0;
    for t in &p.pv {
        let Ok(all) = game.legal_turns() else { break };
        if !all.contains(t) {
            break;
        }
        pv.push(' ');
        pv.push_str(&uci_move(rules, t, &all, chess960));
        game.play(t);
        played += 1;
    }
    for _ in 0..played {
        game.undo();
    }
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {ms} pv{pv}",
        p.depth, p.seldepth, p.nodes
    )
}
