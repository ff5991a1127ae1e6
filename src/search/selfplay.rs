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

use super::{Agent, AgentSpec, Evaluator, derive, stats};

/// What to play.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// Games in the whole study.
    pub games: usize,
    /// White's agent (Black's in the second game of each pair when `paired`).
    pub white: AgentSpec,
    /// Black's agent (White's in the second game of each pair when `paired`).
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
    /// Random legal plies that open each game (0: none), chosen from the seed per opening.
    pub openings: u32,
    /// Games come in pairs (2k, 2k+1) from the same opening, the agents swapping colours in
    /// the second.
    pub paired: bool,
    /// When a game is decided before the rules decide it (`None`: never).
    pub adjudication: Option<Adjudication>,
}

impl MatchConfig {
    /// A study of 100 games between two agents: seed 1, at most 300 turns, one thread, the
    /// whole study, no openings, unpaired, no adjudication.
    pub fn new(white: AgentSpec, black: AgentSpec) -> MatchConfig {
        MatchConfig {
            games: 100,
            white,
            black,
            seed: 1,
            max_turns: 300,
            jobs: 1,
            shard: (1, 1),
            openings: 0,
            paired: false,
            adjudication: None,
        }
    }

    /// The agents of game `index`: (White's, Black's), and whether they are swapped.
    pub fn agents_of(&self, index: usize) -> (AgentSpec, AgentSpec, bool) {
        if self.paired && index % 2 == 1 {
            (self.black, self.white, true)
        } else {
            (self.white, self.black, false)
        }
    }

    /// The opening game `index` plays (games of a pair share theirs).
    pub fn opening_of(&self, index: usize) -> usize {
        if self.paired { index / 2 } else { index }
    }
}

/// When a game is decided by adjudication (reported apart from the rules' endings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjudication {
    /// A side whose static evaluation is at least this far ahead …
    pub margin: i32,
    /// … for this many turns in a row is declared the winner.
    pub turns: u32,
    /// A game with no capture and no change of kind for this many turns is drawn.
    pub no_progress: u32,
}

impl Adjudication {
    /// The defaults for a variant: ahead by the value of its most valuable non-royal kind
    /// (chess: a queen) for 8 turns in a row; 100 turns without a capture or change of kind.
    /// (A quarter of a side's starting material as the margin, where that is more, was tried
    /// and dropped: a quarter of Border Wars' material left 5 of 20 games unfinished.)
    pub fn for_variant(eval: &Evaluator) -> Adjudication {
        let top = eval.values.iter().copied().max().unwrap_or(0);
        Adjudication {
            margin: top.max(100),
            turns: 8,
            no_progress: 100,
        }
    }
}

/// Why a game was adjudicated, as its ending reason begins.
pub const ADJUDICATED: &str = "adjudicated";

/// One game played.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Its number in the study.
    pub index: usize,
    /// Its turns in move text, the opening's included.
    pub moves: Vec<String>,
    /// How many of them are the opening's random plies.
    pub opening: usize,
    /// Whether the agents played swapped colours (the second game of a pair).
    pub swapped: bool,
    /// `Some(winner)` (a draw is `Some(None)`), or `None` when stopped at the turn limit.
    pub result: Option<Option<Side>>,
    /// Why it ended ("turn limit" when it did not).
    pub reason: String,
    /// Whether the result is an adjudication's, not the rules'.
    pub adjudicated: bool,
    /// Sum over its positions of the number of legal turns.
    pub branching: u64,
    /// Per piece kind: turns that moved it, and pieces it captured.
    pub moved: Vec<u64>,
    /// Per piece kind: pieces captured by it.
    pub captured: Vec<u64>,
}

impl Record {
    /// White's score: 1 for a win, ½ for a draw or an unfinished game, 0 for a loss.
    pub fn white_score(&self) -> f64 {
        match self.result {
            Some(Some(Side::White)) => 1.0,
            Some(Some(Side::Black)) => 0.0,
            _ => 0.5,
        }
    }
}

/// The openings of a study from its start, one per opening number: `cfg.openings` random
/// legal plies each, in move text (shorter where the game ends first). A comparison plays
/// rule set A's openings in both rule sets.
pub fn openings(rules: &Ruleset, start: &Game<'_>, cfg: &MatchConfig) -> Vec<Vec<String>> {
    let count = if cfg.paired {
        cfg.games.div_ceil(2)
    } else {
        cfg.games
    };
    (0..count)
        .map(|n| {
            let mut game = start.clone();
            let mut rng = super::Rng::new(derive(cfg.seed ^ OPENING_SALT, n as u64));
            let mut moves = Vec::new();
            for _ in 0..cfg.openings {
                let Ok(turns) = game.legal_turns() else { break };
                if turns.is_empty() {
                    break;
                }
                let t = &turns[rng.below(turns.len())];
                moves.push(crate::text::turn_text(rules, t));
                game.play(t);
            }
            moves
        })
        .collect()
}

/// Mixed into the seed of the openings, so that they do not follow the agents' numbers.
const OPENING_SALT: u64 = 0x6f70_656e_696e_6773;

/// Plays one game of the study from `start`, opening with `opening` (move text; a ply that is
/// not legal here, in a rule set other than the one the opening came from, and every ply after
/// it, is chosen at random from the same seed instead).
pub fn play_game(
    rules: &Ruleset,
    start: &Game<'_>,
    eval: &Evaluator,
    cfg: &MatchConfig,
    index: usize,
    opening: &[String],
) -> Record {
    let mut game = start.clone();
    let (white, black, swapped) = cfg.agents_of(index);
    let mut agents = [
        Agent::with_eval(white, eval, derive(cfg.seed, 2 * index as u64)),
        Agent::with_eval(black, eval, derive(cfg.seed, 2 * index as u64 + 1)),
    ];
    let kinds = rules.pieces.len();
    let mut rec = Record {
        index,
        moves: Vec::new(),
        opening: 0,
        swapped,
        result: None,
        reason: "turn limit".into(),
        adjudicated: false,
        branching: 0,
        moved: vec![0; kinds],
        captured: vec![0; kinds],
    };
    let mut rng = super::Rng::new(derive(
        cfg.seed ^ OPENING_SALT,
        cfg.opening_of(index) as u64,
    ));
    play_opening(rules, &mut game, opening, &mut rng, &mut rec);
    let mut judged = eval.clone();
    judged.set_stop(game.stop().cloned());
    let mut judge = Judge {
        eval: judged,
        ahead: 0,
        ahead_side: None,
        quiet: 0,
    };
    for _ in rec.opening..cfg.max_turns as usize {
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
        if let Some((_, k)) = game.pos().at(turn.from()).as_piece() {
            rec.moved[k.index()] += 1;
            rec.captured[k.index()] += turn.captures().len() as u64;
        }
        let progress = !turn.captures().is_empty() || turn.promote().is_some();
        rec.moves.push(crate::text::turn_text(rules, &turn));
        game.play(&turn);
        let Some(adj) = cfg.adjudication else {
            continue;
        };
        if game.outcome().is_some() {
            continue;
        }
        if let Some((result, reason)) = judge.after(rules, &game, progress, adj) {
            rec.result = Some(result);
            rec.reason = reason;
            rec.adjudicated = true;
            return rec;
        }
    }
    if let Some(o) = game.outcome() {
        rec.result = Some(o.winner);
        rec.reason = o.reason.text(rules);
    }
    rec
}

/// Plays the opening's turns (see [`play_game`]) and counts them in `rec`.
fn play_opening(
    rules: &Ruleset,
    game: &mut Game<'_>,
    opening: &[String],
    rng: &mut super::Rng,
    rec: &mut Record,
) {
    let mut own_opening = false;
    for text in opening {
        if game.outcome().is_some() {
            break;
        }
        let turn = match crate::text::parse_turn(game, text) {
            Ok(t) if !own_opening => t,
            _ => {
                own_opening = true;
                match game.legal_turns() {
                    Ok(turns) if !turns.is_empty() => turns[rng.below(turns.len())].clone(),
                    _ => break,
                }
            }
        };
        rec.branching += game.count_turns() as u64;
        rec.moves.push(crate::text::turn_text(rules, &turn));
        game.play(&turn);
        rec.opening += 1;
    }
}

/// Adjudication's view of a game in progress: who has been ahead, and for how long; how long
/// since the last capture or change of kind.
struct Judge {
    eval: Evaluator,
    ahead: u32,
    ahead_side: Option<Side>,
    quiet: u32,
}

impl Judge {
    /// After a turn (`progress`: it captured or changed a kind): the adjudicated result (the
    /// winner, or none for a draw) and its reason, if the game is decided.
    fn after(
        &mut self,
        rules: &Ruleset,
        game: &Game<'_>,
        progress: bool,
        adj: Adjudication,
    ) -> Option<(Option<Side>, String)> {
        // The evaluation from White's side: who is ahead, and for how long.
        let e = self.eval.eval(rules, game.pos());
        let white_view = if game.pos().side == Side::White {
            e
        } else {
            -e
        };
        let leader = if white_view >= adj.margin {
            Some(Side::White)
        } else if white_view <= -adj.margin {
            Some(Side::Black)
        } else {
            None
        };
        self.ahead = if leader.is_some() && leader == self.ahead_side {
            self.ahead + 1
        } else {
            u32::from(leader.is_some())
        };
        self.ahead_side = leader;
        self.quiet = if progress { 0 } else { self.quiet + 1 };
        if let Some(w) = self.ahead_side
            && self.ahead >= adj.turns
        {
            return Some((
                Some(w),
                format!(
                    "{ADJUDICATED}: ahead by at least {:.2} for {} turns",
                    f64::from(adj.margin) / 100.0,
                    adj.turns
                ),
            ));
        }
        (self.quiet >= adj.no_progress).then(|| {
            (
                None,
                format!(
                    "{ADJUDICATED}: drawn, no capture or change of kind for {} turns",
                    adj.no_progress
                ),
            )
        })
    }
}

/// Plays the games of this shard, `cfg.jobs` at a time, each from its opening (see
/// [`openings`]); `progress` is called after each game. The records are in game order, the
/// same whatever the number of jobs.
pub fn play_games(
    rules: &Ruleset,
    start: &Game<'_>,
    cfg: &MatchConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Record> {
    let (shard, shards) = cfg.shard;
    let indices: Vec<usize> = (0..cfg.games)
        .filter(|i| i % shards.max(1) == shard.saturating_sub(1))
        .collect();
    let openings = openings(rules, start, cfg);
    play_these(rules, start, cfg, &openings, &indices, progress)
}

/// Plays the games of these numbers from the given openings (indexed by opening number).
pub fn play_these(
    rules: &Ruleset,
    start: &Game<'_>,
    cfg: &MatchConfig,
    openings: &[Vec<String>],
    indices: &[usize],
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Record> {
    let eval = Evaluator::new(rules);
    let done = AtomicUsize::new(0);
    let none = Vec::new();
    let mut records = play_indices(indices, cfg.jobs, &|i| {
        let opening = openings.get(cfg.opening_of(i)).unwrap_or(&none);
        let r = play_game(rules, start, &eval, cfg, i, opening);
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
    // Each game is a clone of the start, which carries the command's stop and budgets.
    match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
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

/// Why results (a `match --json` line, or several to merge) cannot be read or added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResultsError {
    /// A count is missing (its path, `length.sum`).
    #[error("no `{0}`")]
    Missing(String),
    /// A value is not a count (its path).
    #[error("`{0}` is not a count")]
    NotACount(String),
    /// The results are of two studies: (variant, (white's agent, black's agent)) each.
    #[error(
        "results of different studies: {} ({} vs {}) and {} ({} vs {})",
        first.0, first.1.0, first.1.1, second.0, second.1.0, second.1.1
    )]
    DifferentStudies {
        /// The first.
        first: Box<(String, (String, String))>,
        /// The second.
        second: Box<(String, (String, String))>,
    },
    /// A sum passes the largest count.
    #[error("the sums pass the largest count (2^64 - 1): these results cannot be added")]
    Overflow,
    /// White's wins, Black's, draws and unfinished games do not add up to the games.
    #[error(
        "white {} + black {} + draws {} + unfinished {} is not the {games} games",
        outcomes[0], outcomes[1], outcomes[2], outcomes[3]
    )]
    Outcomes {
        /// White's wins, Black's wins, draws, unfinished games.
        outcomes: [u64; 4],
        /// The games.
        games: u64,
    },
    /// More games adjudicated than finished.
    #[error("{adjudicated} adjudicated games, but only {finished} finished")]
    Adjudicated {
        /// The games adjudicated.
        adjudicated: u64,
        /// The games finished.
        finished: u64,
    },
    /// The ending reasons count another number of games (`None`: more than 2^64).
    #[error(
        "the ending reasons count {} games, not {games}",
        counted.map_or_else(|| "more than 2^64".to_string(), |r| r.to_string())
    )]
    Reasons {
        /// The games the reasons count.
        counted: Option<u64>,
        /// The games.
        games: u64,
    },
    /// The lengths' sum does not fit the games between the shortest and the longest.
    #[error(
        "game lengths summing to {sum} do not fit {games} games of {} to {} turns",
        range.0, range.1
    )]
    Lengths {
        /// The sum of the lengths.
        sum: u64,
        /// The games.
        games: u64,
        /// The shortest and the longest game.
        range: (u64, u64),
    },
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
    /// Games decided by adjudication (counted in `white`, `black` or `draws` too).
    pub adjudicated: u64,
    /// Sum of game lengths (turns) and of their squares.
    pub length: (u64, u64),
    /// Shortest and longest game.
    pub length_range: (u64, u64),
    /// Positions seen and the sum of their legal turns.
    pub branching: (u64, u64),
    /// Per piece kind (by name): turns that moved it, pieces it captured.
    pub pieces: BTreeMap<String, (u64, u64)>,
    /// Per piece kind (by name): its share of each game's turns in millionths, summed over
    /// games, and the sum of their squares (for tests with the game as the unit).
    pub shares: BTreeMap<String, (u64, u64)>,
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
            s.shares.insert(p.name.clone(), (0, 0));
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
            s.adjudicated += u64::from(r.adjudicated);
            let moved: u64 = r.moved.iter().sum();
            for (k, p) in rules.pieces.iter().enumerate() {
                let e = s.pieces.entry(p.name.clone()).or_default();
                e.0 += r.moved[k];
                e.1 += r.captured[k];
                let ppm = r.moved[k] * 1_000_000 / moved.max(1);
                let e = s.shares.entry(p.name.clone()).or_default();
                e.0 += ppm;
                e.1 += ppm * ppm;
            }
            *s.reasons.entry(r.reason.clone()).or_default() += 1;
        }
        if s.games == 0 {
            s.length_range = (0, 0);
        }
        s
    }

    /// Adds another shard's sums (same variant and agents).
    ///
    /// # Errors
    /// Results of another study, or sums past the largest count; `self` is then unchanged.
    pub fn add(&mut self, o: &Summary) -> Result<(), ResultsError> {
        if self.games == 0 && self.variant.is_empty() {
            *self = o.clone();
            return Ok(());
        }
        if o.variant != self.variant || o.agents != self.agents {
            return Err(ResultsError::DifferentStudies {
                first: Box::new((self.variant.clone(), self.agents.clone())),
                second: Box::new((o.variant.clone(), o.agents.clone())),
            });
        }
        // Checked: a count that would pass 2^64 is a broken or forged input, not a result.
        let add = |a: u64, b: u64| a.checked_add(b).ok_or(ResultsError::Overflow);
        let mut t = self.clone();
        t.games = add(t.games, o.games)?;
        t.white = add(t.white, o.white)?;
        t.black = add(t.black, o.black)?;
        t.draws = add(t.draws, o.draws)?;
        t.unfinished = add(t.unfinished, o.unfinished)?;
        t.adjudicated = add(t.adjudicated, o.adjudicated)?;
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
        for (k, v) in &o.shares {
            let e = t.shares.entry(k.clone()).or_default();
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
    /// The first disagreement.
    pub fn consistent(&self) -> Result<(), ResultsError> {
        let outcomes = [self.white, self.black, self.draws, self.unfinished]
            .iter()
            .try_fold(0u64, |a, b| a.checked_add(*b));
        if outcomes != Some(self.games) {
            return Err(ResultsError::Outcomes {
                outcomes: [self.white, self.black, self.draws, self.unfinished],
                games: self.games,
            });
        }
        let reasons = self
            .reasons
            .values()
            .try_fold(0u64, |a, b| a.checked_add(*b));
        if self.adjudicated > self.games - self.unfinished {
            return Err(ResultsError::Adjudicated {
                adjudicated: self.adjudicated,
                finished: self.games - self.unfinished,
            });
        }
        if !self.reasons.is_empty() && reasons != Some(self.games) {
            return Err(ResultsError::Reasons {
                counted: reasons,
                games: self.games,
            });
        }
        if self.games > 0 {
            let (lo, hi) = self.length_range;
            let fits = lo <= hi
                && u128::from(self.length.0) >= u128::from(lo) * u128::from(self.games)
                && u128::from(self.length.0) <= u128::from(hi) * u128::from(self.games);
            if !fits {
                return Err(ResultsError::Lengths {
                    sum: self.length.0,
                    games: self.games,
                    range: (lo, hi),
                });
            }
        }
        Ok(())
    }

    /// White's score per game (a win 1, a draw or an unfinished game ½) with its 95%
    /// interval, the game as the unit.
    pub fn white_score(&self) -> (f64, f64, f64) {
        let n = self.games as f64;
        if self.games == 0 {
            return (0.5, 0.0, 1.0);
        }
        let halves = self.draws + self.unfinished;
        let mean = (self.white as f64 + 0.5 * halves as f64) / n;
        let sq = (self.white as f64 + 0.25 * halves as f64) / n;
        let var = if self.games > 1 {
            (sq - mean * mean).max(0.0) * n / (n - 1.0)
        } else {
            0.25
        };
        let half = super::stats::t975(self.games.saturating_sub(1)) * (var / n).sqrt();
        (mean, (mean - half).max(0.0), (mean + half).min(1.0))
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
                let sh = self.shares.get(k).copied().unwrap_or((0, 0));
                (
                    k.clone(),
                    json!({"moved": v.0, "captured": v.1,
                           "share": v.0 as f64 / total_moves.max(1) as f64,
                           "game_share_ppm": {"sum": sh.0, "sum_sq": sh.1}}),
                )
            })
            .collect();
        let (score, low, high) = self.white_score();
        json!({
            "games": self.games,
            "white": self.white,
            "black": self.black,
            "draws": self.draws,
            "unfinished": self.unfinished,
            "adjudicated": self.adjudicated,
            "white_score": {"score": score, "low": low, "high": high},
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
    ///
    /// # Errors
    /// A count that is missing or is not a count.
    pub fn from_json(v: &Value) -> Result<Summary, ResultsError> {
        let n = |path: &[&str]| -> Result<u64, ResultsError> {
            let mut x = v;
            for p in path {
                x = x
                    .get(p)
                    .ok_or_else(|| ResultsError::Missing(path.join(".")))?;
            }
            x.as_u64()
                .ok_or_else(|| ResultsError::NotACount(path.join(".")))
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
            // Results written before adjudication existed have none.
            adjudicated: n(&["adjudicated"]).unwrap_or(0),
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
                let sh = e.get("game_share_ppm");
                let get = |f: &str| {
                    sh.and_then(|x| x.get(f))
                        .and_then(Value::as_u64)
                        .unwrap_or(0)
                };
                s.shares.insert(k.clone(), (get("sum"), get("sum_sq")));
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
        if self.adjudicated > 0 {
            out.push_str(&format!(
                "  adjudicated {}   (counted among the wins and draws above)\n",
                pct(self.adjudicated)
            ));
        }
        let (score, lo, hi) = self.white_score();
        out.push_str(&format!(
            "  white's score {score:.3} (95%: {lo:.3}–{hi:.3}; a draw or an unfinished game counts ½)\n"
        ));
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
                "    {k:<16} {:>7} {:5.1}% {:>6}\n",
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
    stats::proportions_p(k1, n1, k2, n2) < 0.05
}

/// Whether two means differ at the 5% level (Welch's test, normal approximation), from
/// counts, sums and sums of squares.
pub fn means_differ(a: (u64, u64, u64), b: (u64, u64, u64)) -> bool {
    let f = |(n, s, q): (u64, u64, u64)| (n, s as f64, q as f64);
    stats::means_p(f(a), f(b)) < 0.05
}

/// One secondary comparison: a figure of each rule set and the p-value of their difference,
/// the game as the unit; `significant` after Holm's correction over all of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Secondary {
    /// What is compared.
    pub name: String,
    /// Rule set A's figure.
    pub a: f64,
    /// Rule set B's figure.
    pub b: f64,
    /// The uncorrected p-value.
    pub p: f64,
    /// Significant at 5% after the correction for the number of comparisons.
    pub significant: bool,
}

/// Two rule sets' studies compared: White's score and its difference over paired openings,
/// then the secondary figures.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Rule set A's sums.
    pub a: Summary,
    /// Rule set B's sums.
    pub b: Summary,
    /// How A and B were named on the command line.
    pub names: (String, String),
    /// B's White score minus A's, per opening (or per game when unpaired).
    pub score: stats::Difference,
    /// Results, lengths, piece use and endings.
    pub secondary: Vec<Secondary>,
    /// The sequential test's verdict and its two log likelihood ratios, when it was run.
    pub sprt: Option<(stats::Sprt, f64, f64, f64)>,
}

/// The per-opening differences of White's score, B minus A, over the openings both played.
pub fn paired_differences(cfg: &MatchConfig, a: &[Record], b: &[Record]) -> Vec<f64> {
    let by_unit = |recs: &[Record]| {
        let mut m: BTreeMap<usize, (f64, u32)> = BTreeMap::new();
        for r in recs {
            let e = m.entry(cfg.opening_of(r.index)).or_default();
            e.0 += r.white_score();
            e.1 += 1;
        }
        m
    };
    let (ua, ub) = (by_unit(a), by_unit(b));
    ua.iter()
        .filter_map(|(k, &(sa, na))| {
            ub.get(k)
                .map(|&(sb, nb)| sb / f64::from(nb) - sa / f64::from(na))
        })
        .collect()
}

impl Comparison {
    /// Compares two studies played with the same configuration and openings.
    pub fn new(names: (String, String), a: Summary, b: Summary, differences: &[f64]) -> Comparison {
        let mut secondary = Vec::new();
        let mut prop = |name: String, ka: u64, kb: u64| {
            secondary.push(Secondary {
                name,
                a: ka as f64 / a.games.max(1) as f64,
                b: kb as f64 / b.games.max(1) as f64,
                p: stats::proportions_p(ka, a.games, kb, b.games),
                significant: false,
            });
        };
        prop("white wins".into(), a.white, b.white);
        prop("black wins".into(), a.black, b.black);
        prop("draws".into(), a.draws, b.draws);
        prop("unfinished".into(), a.unfinished, b.unfinished);
        prop("adjudicated".into(), a.adjudicated, b.adjudicated);
        let reasons: std::collections::BTreeSet<&String> =
            a.reasons.keys().chain(b.reasons.keys()).collect();
        for k in reasons {
            let ka = a.reasons.get(k).copied().unwrap_or(0);
            let kb = b.reasons.get(k).copied().unwrap_or(0);
            prop(format!("ended: {k}"), ka, kb);
        }
        let f = |(n, s, q): (u64, u64, u64)| (n, s as f64, q as f64);
        secondary.push(Secondary {
            name: "mean length (turns)".into(),
            a: a.mean_length(),
            b: b.mean_length(),
            p: stats::means_p(
                f((a.games, a.length.0, a.length.1)),
                f((b.games, b.length.0, b.length.1)),
            ),
            significant: false,
        });
        let names_of: std::collections::BTreeSet<&String> =
            a.shares.keys().chain(b.shares.keys()).collect();
        for k in names_of {
            let sa = a.shares.get(k).copied().unwrap_or((0, 0));
            let sb = b.shares.get(k).copied().unwrap_or((0, 0));
            secondary.push(Secondary {
                name: format!("share of turns: {k}"),
                a: sa.0 as f64 / 1e6 / a.games.max(1) as f64,
                b: sb.0 as f64 / 1e6 / b.games.max(1) as f64,
                p: stats::means_p(f((a.games, sa.0, sa.1)), f((b.games, sb.0, sb.1))),
                significant: false,
            });
        }
        let ps: Vec<f64> = secondary.iter().map(|s| s.p).collect();
        for (s, sig) in secondary.iter_mut().zip(stats::holm(&ps, 0.05)) {
            s.significant = sig;
        }
        Comparison {
            a,
            b,
            names,
            score: stats::Difference::of(differences),
            secondary,
            sprt: None,
        }
    }

    /// The JSON form (`white_score` as the specification writes it, then the rest).
    pub fn to_json(&self) -> Value {
        let (sa, sb) = (self.a.white_score().0, self.b.white_score().0);
        let secondary: Vec<Value> = self
            .secondary
            .iter()
            .map(|s| json!({"name": s.name, "a": s.a, "b": s.b, "p": s.p, "significant": s.significant}))
            .collect();
        let mut significant: Vec<String> = Vec::new();
        if self.score.significant() {
            significant.push("white_score".into());
        }
        significant.extend(
            self.secondary
                .iter()
                .filter(|s| s.significant)
                .map(|s| s.name.clone()),
        );
        json!({
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "names": {"a": self.names.0, "b": self.names.1},
            "white_score": {
                "a": sa,
                "b": sb,
                "difference": self.score.mean,
                "low": self.score.low,
                "high": self.score.high,
                "significant": self.score.significant(),
                "units": self.score.n,
            },
            "secondary": secondary,
            "significant": significant,
            "sprt": self.sprt.map(|(v, delta, up, down)| json!({
                "verdict": match v {
                    stats::Sprt::Continue => "undecided",
                    stats::Sprt::Different => "different",
                    stats::Sprt::Same => "same",
                },
                "delta": delta,
                "llr_up": up,
                "llr_down": down,
            })),
        })
    }

    /// The report for a terminal: names in full, `*` on what is significant.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let (sa, la, ha) = self.a.white_score();
        let (sb, lb, hb) = self.b.white_score();
        out.push_str(&format!("A: {} ({})\n", self.names.0, self.a.variant));
        out.push_str(&format!("B: {} ({})\n", self.names.1, self.b.variant));
        out.push_str(&format!(
            "White's score: A {sa:.3} (95%: {la:.3}–{ha:.3}), B {sb:.3} (95%: {lb:.3}–{hb:.3})\n"
        ));
        out.push_str(&format!(
            "difference B − A: {:+.3} (95%: {:+.3} to {:+.3}) over {} paired units{}\n",
            self.score.mean,
            self.score.low,
            self.score.high,
            self.score.n,
            if self.score.significant() {
                ": significant *"
            } else {
                ": not significant"
            }
        ));
        if let Some((v, delta, _, _)) = self.sprt {
            out.push_str(&match v {
                stats::Sprt::Different => {
                    format!("sequential test: stopped, the scores differ by {delta} or more\n")
                }
                stats::Sprt::Same => {
                    format!("sequential test: stopped, the scores differ by less than {delta}\n")
                }
                stats::Sprt::Continue => {
                    "sequential test: undecided when the games ran out\n".to_string()
                }
            });
        }
        let width = self
            .secondary
            .iter()
            .map(|s| s.name.chars().count())
            .max()
            .unwrap_or(10)
            .max(10);
        out.push_str(&format!(
            "{:<width$} {:>10} {:>10} {:>8}\n",
            "", "A", "B", "p"
        ));
        for s in &self.secondary {
            let (fa, fb) = if s.name.starts_with("mean length") {
                (format!("{:.1}", s.a), format!("{:.1}", s.b))
            } else {
                (
                    format!("{:.1}%", 100.0 * s.a),
                    format!("{:.1}%", 100.0 * s.b),
                )
            };
            out.push_str(&format!(
                "{:<width$} {fa:>10} {fb:>10} {:>8.4}{}\n",
                s.name,
                s.p,
                if s.significant { " *" } else { "" }
            ));
        }
        out.push_str("* significant at 5%: White's score by its interval over paired openings; the rest with the game as the unit, Holm-corrected for the number of comparisons\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn study(variant: &str, games: u64) -> Summary {
        Summary {
            variant: variant.into(),
            agents: ("search".into(), "random".into()),
            games,
            white: games,
            length: (games.saturating_mul(10), games.saturating_mul(100)),
            length_range: (10, 10),
            ..Summary::default()
        }
    }

    /// Results are read back, checked and added with typed errors, and a refused addition
    /// leaves the sums as they were.
    #[test]
    fn results_errors_are_typed() {
        assert_eq!(
            Summary::from_json(&json!({})),
            Err(ResultsError::Missing("games".into()))
        );
        assert_eq!(
            Summary::from_json(&json!({"games": "many"})),
            Err(ResultsError::NotACount("games".into()))
        );
        let mut total = study("chess", 3);
        assert_eq!(total.consistent(), Ok(()));
        let mut bad = study("chess", 3);
        bad.white = 2;
        assert_eq!(
            bad.consistent(),
            Err(ResultsError::Outcomes {
                outcomes: [2, 0, 0, 0],
                games: 3
            })
        );
        assert!(matches!(
            total.add(&study("xiangqi", 1)),
            Err(ResultsError::DifferentStudies { .. })
        ));
        let huge = study("chess", u64::MAX);
        let before = total.clone();
        assert_eq!(total.add(&huge), Err(ResultsError::Overflow));
        assert_eq!(total, before);
        total.add(&study("chess", 2)).unwrap();
        assert_eq!((total.games, total.white), (5, 5));
    }
}
