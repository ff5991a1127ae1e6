//! Self-play: many games between two agents, in parallel, reproducible from a seed whatever
//! the number of threads; their statistics (results with 95% intervals, game length,
//! branching, how often each kind moved and captured, how games ended), as JSON that shards
//! of one study add up to; and the comparison of two rule sets.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::core::Side;
use crate::play::Game;
use crate::rules::Ruleset;

use super::{Agent, AgentSpec, Evaluator, derive};

/// What to play.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// Games in the whole study.
    pub games: usize,
    /// White's agent.
    pub white: AgentSpec,
    /// Black's agent.
    pub black: AgentSpec,
    /// The study's seed.
    pub seed: u64,
    /// Turns after which a game counts as unfinished.
    pub max_turns: u32,
    /// Threads.
    pub jobs: usize,
    /// This shard (1-based) of how many: the games whose number is `shard - 1` modulo
    /// `shards`.
    pub shard: (usize, usize),
}

/// One game played.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Its number in the study.
    pub index: usize,
    /// Its turns in move text.
    pub moves: Vec<String>,
    /// `Some(winner)` (a draw is `Some(None)`), or `None` when stopped at the turn limit.
    pub result: Option<Option<Side>>,
    /// Why it ended ("turn limit" when it did not).
    pub reason: String,
    /// Sum over its positions of the number of legal turns.
    pub branching: u64,
    /// Per piece kind: turns that moved it, and pieces it captured.
    pub moved: Vec<u64>,
    /// Per piece kind: pieces captured by it.
    pub captured: Vec<u64>,
}

/// Plays one game of the study from `start`.
pub fn play_game(
    rules: &Ruleset,
    start: &Game<'_>,
    eval: &Evaluator,
    cfg: &MatchConfig,
    index: usize,
) -> Record {
    let mut game = start.clone();
    let mut agents = [
        Agent::with_eval(cfg.white, eval, derive(cfg.seed, 2 * index as u64)),
        Agent::with_eval(cfg.black, eval, derive(cfg.seed, 2 * index as u64 + 1)),
    ];
    let kinds = rules.pieces.len();
    let mut rec = Record {
        index,
        moves: Vec::new(),
        result: None,
        reason: "turn limit".into(),
        branching: 0,
        moved: vec![0; kinds],
        captured: vec![0; kinds],
    };
    for _ in 0..cfg.max_turns {
        if let Some(o) = game.outcome() {
            rec.result = Some(o.winner);
            rec.reason = o.reason.text(rules);
            return rec;
        }
        rec.branching += game.count_turns() as u64;
        let side = game.pos().side;
        let Some(turn) = agents[side.index()].choose(&mut game) else {
            break;
        };
        if let Some((_, k)) = game.pos().at(turn.from).as_piece() {
            rec.moved[k.index()] += 1;
            rec.captured[k.index()] += turn.captures.len() as u64;
        }
        rec.moves.push(crate::text::turn_text(rules, &turn));
        game.play(&turn);
    }
    if let Some(o) = game.outcome() {
        rec.result = Some(o.winner);
        rec.reason = o.reason.text(rules);
    }
    rec
}

/// Plays the games of this shard, `cfg.jobs` at a time; `progress` is called after each
/// game. The records are in game order, the same whatever the number of jobs.
pub fn play_games(
    rules: &Ruleset,
    start: &Game<'_>,
    cfg: &MatchConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Record> {
    let eval = Evaluator::new(rules);
    let (shard, shards) = cfg.shard;
    let indices: Vec<usize> = (0..cfg.games)
        .filter(|i| i % shards.max(1) == shard.saturating_sub(1))
        .collect();
    let done = AtomicUsize::new(0);
    let mut records = play_indices(&indices, cfg.jobs, &|i| {
        let r = play_game(rules, start, &eval, cfg, i);
        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        r
    });
    records.sort_by_key(|r| r.index);
    records
}

/// Plays the games of these indices, `jobs` at a time.
#[cfg(feature = "parallel")]
fn play_indices(
    indices: &[usize],
    jobs: usize,
    play: &(dyn Fn(usize) -> Record + Sync),
) -> Vec<Record> {
    use rayon::prelude::*;
    let run = || -> Vec<Record> { indices.par_iter().map(|&i| play(i)).collect() };
    // The workers work under the command's stop and budget.
    let stop = crate::vm::current_stop();
    match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .start_handler(move |_| crate::vm::install_stop(stop.clone()))
        .build()
    {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// Plays the games of these indices one after the other (built without threads).
#[cfg(not(feature = "parallel"))]
fn play_indices(
    indices: &[usize],
    _jobs: usize,
    play: &(dyn Fn(usize) -> Record + Sync),
) -> Vec<Record> {
    indices.iter().map(|&i| play(i)).collect()
}

/// How many games of the shard `cfg` plays.
pub fn shard_games(cfg: &MatchConfig) -> usize {
    let (shard, shards) = cfg.shard;
    (0..cfg.games)
        .filter(|i| i % shards.max(1) == shard.saturating_sub(1))
        .count()
}

/// The sums that statistics are made of; shards add up.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// The variant's name.
    pub variant: String,
    /// The agents, as text.
    pub agents: (String, String),
    /// Games.
    pub games: u64,
    /// White's wins.
    pub white: u64,
    /// Black's wins.
    pub black: u64,
    /// Draws.
    pub draws: u64,
    /// Games stopped at the turn limit.
    pub unfinished: u64,
    /// Sum of game lengths (turns) and of their squares.
    pub length: (u64, u64),
    /// Shortest and longest game.
    pub length_range: (u64, u64),
    /// Positions seen and the sum of their legal turns.
    pub branching: (u64, u64),
    /// Per piece kind (by name): turns that moved it, pieces it captured.
    pub pieces: BTreeMap<String, (u64, u64)>,
    /// How games ended, by reason.
    pub reasons: BTreeMap<String, u64>,
}

impl Summary {
    /// The sums of a set of games.
    pub fn of(rules: &Ruleset, cfg: &MatchConfig, records: &[Record]) -> Summary {
        let mut s = Summary {
            variant: rules.name.clone(),
            agents: (cfg.white.text(), cfg.black.text()),
            length_range: (u64::MAX, 0),
            ..Summary::default()
        };
        for p in &rules.pieces {
            s.pieces.insert(p.name.clone(), (0, 0));
        }
        for r in records {
            s.games += 1;
            match r.result {
                None => s.unfinished += 1,
                Some(None) => s.draws += 1,
                Some(Some(Side::White)) => s.white += 1,
                Some(Some(Side::Black)) => s.black += 1,
            }
            let n = r.moves.len() as u64;
            s.length.0 += n;
            s.length.1 += n * n;
            s.length_range = (s.length_range.0.min(n), s.length_range.1.max(n));
            s.branching.0 += n;
            s.branching.1 += r.branching;
            for (k, p) in rules.pieces.iter().enumerate() {
                let e = s.pieces.entry(p.name.clone()).or_default();
                e.0 += r.moved[k];
                e.1 += r.captured[k];
            }
            *s.reasons.entry(r.reason.clone()).or_default() += 1;
        }
        if s.games == 0 {
            s.length_range = (0, 0);
        }
        s
    }

    /// Adds another shard's sums (same variant and agents).
    pub fn add(&mut self, o: &Summary) -> Result<(), String> {
        if self.games == 0 && self.variant.is_empty() {
            *self = o.clone();
            return Ok(());
        }
        if o.variant != self.variant || o.agents != self.agents {
            return Err(format!(
                "results of different studies: {} ({} vs {}) and {} ({} vs {})",
                self.variant, self.agents.0, self.agents.1, o.variant, o.agents.0, o.agents.1
            ));
        }
        // Checked: a count that would pass 2^64 is a broken or forged input, not a result.
        let over = || {
            "the sums pass the largest count (2^64 - 1): these results cannot be added".to_string()
        };
        let add = |a: u64, b: u64| a.checked_add(b).ok_or_else(over);
        let mut t = self.clone();
        t.games = add(t.games, o.games)?;
        t.white = add(t.white, o.white)?;
        t.black = add(t.black, o.black)?;
        t.draws = add(t.draws, o.draws)?;
        t.unfinished = add(t.unfinished, o.unfinished)?;
        t.length.0 = add(t.length.0, o.length.0)?;
        t.length.1 = add(t.length.1, o.length.1)?;
        if o.games > 0 {
            t.length_range = (
                t.length_range.0.min(o.length_range.0),
                t.length_range.1.max(o.length_range.1),
            );
        }
        t.branching.0 = add(t.branching.0, o.branching.0)?;
        t.branching.1 = add(t.branching.1, o.branching.1)?;
        for (k, v) in &o.pieces {
            let e = t.pieces.entry(k.clone()).or_default();
            e.0 = add(e.0, v.0)?;
            e.1 = add(e.1, v.1)?;
        }
        for (k, v) in &o.reasons {
            let e = t.reasons.entry(k.clone()).or_default();
            *e = add(*e, *v)?;
        }
        *self = t;
        Ok(())
    }

    /// Whether the counts of one result agree with each other: the outcomes add up to the
    /// games, the ending reasons too, the shortest game is no longer than the longest, and the
    /// lengths fit between them.
    ///
    /// # Errors
    /// The first disagreement, in words.
    pub fn consistent(&self) -> Result<(), String> {
        let outcomes = [self.white, self.black, self.draws, self.unfinished]
            .iter()
            .try_fold(0u64, |a, b| a.checked_add(*b));
        if outcomes != Some(self.games) {
            return Err(format!(
                "white {} + black {} + draws {} + unfinished {} is not the {} games",
                self.white, self.black, self.draws, self.unfinished, self.games
            ));
        }
        let reasons = self
            .reasons
            .values()
            .try_fold(0u64, |a, b| a.checked_add(*b));
        if !self.reasons.is_empty() && reasons != Some(self.games) {
            return Err(format!(
                "the ending reasons count {} games, not {}",
                reasons.map_or_else(|| "more than 2^64".to_string(), |r| r.to_string()),
                self.games
            ));
        }
        if self.games > 0 {
            let (lo, hi) = self.length_range;
            let fits = lo <= hi
                && u128::from(self.length.0) >= u128::from(lo) * u128::from(self.games)
                && u128::from(self.length.0) <= u128::from(hi) * u128::from(self.games);
            if !fits {
                return Err(format!(
                    "game lengths summing to {} do not fit {} games of {lo} to {hi} turns",
                    self.length.0, self.games
                ));
            }
        }
        Ok(())
    }

    /// Mean game length.
    pub fn mean_length(&self) -> f64 {
        self.length.0 as f64 / self.games.max(1) as f64
    }

    /// Mean legal turns per position.
    pub fn mean_branching(&self) -> f64 {
        self.branching.1 as f64 / self.branching.0.max(1) as f64
    }

    /// The JSON form: the counts SPEC.md names first, then rates with 95% intervals, length,
    /// branching, pieces, reasons, and the raw sums that `merge` reads back.
    pub fn to_json(&self) -> Value {
        let rate = |k: u64| {
            let (lo, hi) = wilson(k, self.games);
            json!({"rate": k as f64 / self.games.max(1) as f64, "low": lo, "high": hi})
        };
        let total_moves: u64 = self.pieces.values().map(|v| v.0).sum();
        let pieces: serde_json::Map<String, Value> = self
            .pieces
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    json!({"moved": v.0, "captured": v.1,
                           "share": v.0 as f64 / total_moves.max(1) as f64}),
                )
            })
            .collect();
        json!({
            "games": self.games,
            "white": self.white,
            "black": self.black,
            "draws": self.draws,
            "unfinished": self.unfinished,
            "variant": self.variant,
            "agents": {"white": self.agents.0, "black": self.agents.1},
            "rates": {
                "white": rate(self.white),
                "black": rate(self.black),
                "draws": rate(self.draws),
                "unfinished": rate(self.unfinished),
            },
            "length": {"mean": self.mean_length(), "min": self.length_range.0,
                       "max": self.length_range.1, "sum": self.length.0, "sum_sq": self.length.1},
            "branching": {"mean": self.mean_branching(), "positions": self.branching.0,
                          "sum": self.branching.1},
            "pieces": pieces,
            "reasons": self.reasons,
        })
    }

    /// Reads back what [`Summary::to_json`] wrote.
    pub fn from_json(v: &Value) -> Result<Summary, String> {
        let n = |path: &[&str]| -> Result<u64, String> {
            let mut x = v;
            for p in path {
                x = x.get(p).ok_or_else(|| format!("no `{}`", path.join(".")))?;
            }
            x.as_u64()
                .ok_or_else(|| format!("`{}` is not a count", path.join(".")))
        };
        let text = |path: &[&str]| -> String {
            let mut x = v;
            for p in path {
                match x.get(p) {
                    Some(y) => x = y,
                    None => return String::new(),
                }
            }
            x.as_str().unwrap_or("").to_string()
        };
        let mut s = Summary {
            variant: text(&["variant"]),
            agents: (text(&["agents", "white"]), text(&["agents", "black"])),
            games: n(&["games"])?,
            white: n(&["white"])?,
            black: n(&["black"])?,
            draws: n(&["draws"])?,
            unfinished: n(&["unfinished"])?,
            length: (n(&["length", "sum"])?, n(&["length", "sum_sq"])?),
            length_range: (n(&["length", "min"])?, n(&["length", "max"])?),
            branching: (n(&["branching", "positions"])?, n(&["branching", "sum"])?),
            ..Summary::default()
        };
        if let Some(p) = v.get("pieces").and_then(Value::as_object) {
            for (k, e) in p {
                let moved = e.get("moved").and_then(Value::as_u64).unwrap_or(0);
                let cap = e.get("captured").and_then(Value::as_u64).unwrap_or(0);
                s.pieces.insert(k.clone(), (moved, cap));
            }
        }
        if let Some(r) = v.get("reasons").and_then(Value::as_object) {
            for (k, e) in r {
                s.reasons.insert(k.clone(), e.as_u64().unwrap_or(0));
            }
        }
        Ok(s)
    }

    /// The report for a terminal.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let pct = |k: u64| {
            let (lo, hi) = wilson(k, self.games);
            format!(
                "{k:>6}  {:5.1}%  (95%: {:.1}–{:.1}%)",
                100.0 * k as f64 / self.games.max(1) as f64,
                100.0 * lo,
                100.0 * hi
            )
        };
        out.push_str(&format!(
            "{}: {} games, white {} against black {}\n",
            self.variant, self.games, self.agents.0, self.agents.1
        ));
        out.push_str(&format!("  white wins  {}\n", pct(self.white)));
        out.push_str(&format!("  black wins  {}\n", pct(self.black)));
        out.push_str(&format!("  draws       {}\n", pct(self.draws)));
        out.push_str(&format!("  unfinished  {}\n", pct(self.unfinished)));
        out.push_str(&format!(
            "  length: mean {:.1} turns (shortest {}, longest {})\n",
            self.mean_length(),
            self.length_range.0,
            self.length_range.1
        ));
        out.push_str(&format!(
            "  branching: {:.1} legal turns per position on average\n",
            self.mean_branching()
        ));
        let total: u64 = self.pieces.values().map(|v| v.0).sum();
        out.push_str("  pieces (turns moved, share, pieces captured):\n");
        for (k, v) in &self.pieces {
            out.push_str(&format!(
                "    {k:<14} {:>7} {:5.1}% {:>6}\n",
                v.0,
                100.0 * v.0 as f64 / total.max(1) as f64,
                v.1
            ));
        }
        out.push_str("  how games ended:\n");
        for (k, v) in &self.reasons {
            out.push_str(&format!("    {v:>6}  {k}\n"));
        }
        out
    }
}

/// The Wilson score interval (95%) of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let n = n as f64;
    let p = k as f64 / n;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / d;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Whether two proportions differ at the 5% level (two-proportion z-test).
pub fn proportions_differ(k1: u64, n1: u64, k2: u64, n2: u64) -> bool {
    if n1 == 0 || n2 == 0 {
        return false;
    }
    let (p1, p2) = (k1 as f64 / n1 as f64, k2 as f64 / n2 as f64);
    let p = (k1 + k2) as f64 / (n1 + n2) as f64;
    let se = (p * (1.0 - p) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    se > 0.0 && ((p1 - p2) / se).abs() > 1.96
}

/// Whether two means differ at the 5% level (Welch's test, normal approximation), from
/// counts, sums and sums of squares.
pub fn means_differ(a: (u64, u64, u64), b: (u64, u64, u64)) -> bool {
    let stat = |(n, s, sq): (u64, u64, u64)| {
        let n = n as f64;
        let mean = s as f64 / n.max(1.0);
        let var = if n > 1.0 {
            ((sq as f64) - n * mean * mean) / (n - 1.0)
        } else {
            0.0
        };
        (n, mean, var.max(0.0))
    };
    let (n1, m1, v1) = stat(a);
    let (n2, m2, v2) = stat(b);
    if n1 < 2.0 || n2 < 2.0 {
        return false;
    }
    let se = (v1 / n1 + v2 / n2).sqrt();
    se > 0.0 && ((m1 - m2) / se).abs() > 1.96
}

/// Two studies side by side, with `*` on the differences significant at the 5% level.
pub fn compare_text(a: &Summary, b: &Summary) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<28} {:>22} {:>22}\n",
        "",
        truncate(&a.variant, 22),
        truncate(&b.variant, 22)
    ));
    let mark = |d: bool| if d { " *" } else { "" };
    let row = |out: &mut String, name: &str, ka: u64, kb: u64| {
        let d = proportions_differ(ka, a.games, kb, b.games);
        out.push_str(&format!(
            "{:<28} {:>21.1}% {:>21.1}%{}\n",
            name,
            100.0 * ka as f64 / a.games.max(1) as f64,
            100.0 * kb as f64 / b.games.max(1) as f64,
            mark(d)
        ));
    };
    row(&mut out, "white wins", a.white, b.white);
    row(&mut out, "black wins", a.black, b.black);
    row(&mut out, "draws", a.draws, b.draws);
    row(&mut out, "unfinished", a.unfinished, b.unfinished);
    let d = means_differ(
        (a.games, a.length.0, a.length.1),
        (b.games, b.length.0, b.length.1),
    );
    out.push_str(&format!(
        "{:<28} {:>22.1} {:>22.1}{}\n",
        "mean length (turns)",
        a.mean_length(),
        b.mean_length(),
        mark(d)
    ));
    out.push_str(&format!(
        "{:<28} {:>22.1} {:>22.1}\n",
        "legal turns per position",
        a.mean_branching(),
        b.mean_branching()
    ));
    let ta: u64 = a.pieces.values().map(|v| v.0).sum();
    let tb: u64 = b.pieces.values().map(|v| v.0).sum();
    let names: std::collections::BTreeSet<&String> =
        a.pieces.keys().chain(b.pieces.keys()).collect();
    for k in names {
        let va = a.pieces.get(k).copied().unwrap_or((0, 0));
        let vb = b.pieces.get(k).copied().unwrap_or((0, 0));
        let d = proportions_differ(va.0, ta, vb.0, tb);
        out.push_str(&format!(
            "{:<28} {:>21.1}% {:>21.1}%{}\n",
            format!("share of turns: {}", truncate(k, 12)),
            100.0 * va.0 as f64 / ta.max(1) as f64,
            100.0 * vb.0 as f64 / tb.max(1) as f64,
            mark(d)
        ));
    }
    let reasons: std::collections::BTreeSet<&String> =
        a.reasons.keys().chain(b.reasons.keys()).collect();
    for k in reasons {
        let ka = a.reasons.get(k).copied().unwrap_or(0);
        let kb = b.reasons.get(k).copied().unwrap_or(0);
        row(&mut out, &format!("ended: {}", truncate(k, 20)), ka, kb);
    }
    out.push_str("* the difference is significant at the 5% level\n");
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Both studies as one JSON value: `{"a": …, "b": …, "significant": [names]}`.
pub fn compare_json(a: &Summary, b: &Summary) -> Value {
    let mut sig = Vec::new();
    for (name, ka, kb) in [
        ("white", a.white, b.white),
        ("black", a.black, b.black),
        ("draws", a.draws, b.draws),
        ("unfinished", a.unfinished, b.unfinished),
    ] {
        if proportions_differ(ka, a.games, kb, b.games) {
            sig.push(name.to_string());
        }
    }
    if means_differ(
        (a.games, a.length.0, a.length.1),
        (b.games, b.length.0, b.length.1),
    ) {
        sig.push("length".into());
    }
    json!({"a": a.to_json(), "b": b.to_json(), "significant": sig})
}
