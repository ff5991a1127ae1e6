//! Alpha-beta search for any variant: iterative deepening over a principal variation search,
//! a transposition table on the game's Zobrist hash, a quiescence search on captures and
//! changes of kind, check extensions where the game has royal pieces, late move reductions,
//! and move ordering (the table's move, captures by the worth of what they take, killer
//! turns, a history of turns that refuted others).
//!
//! A node generates its turns in stages, each only when the one before did not cut it off:
//! the table's turn (only its piece's turns are generated, to find it legal), then the
//! captures and changes of kind (generated alone), then the quiet turns. Most nodes that are
//! cut off are cut off by a capture, and never generate their quiet turns.
//!
//! Every end rule of the variant is respected because every node asks the game for its legal
//! turns, which ends the game by the variant's rules (repetition, the clock, checkmate,
//! stalemate, goals…): a stage says when the game is over before any turn, and a node where
//! neither captures nor quiet turns are found asks for the whole list, which tells how it
//! ended. A position that repeats one on the path of the search is scored as the draw it
//! heads for when the variant draws repetitions.
//!
//! In variants whose positions have thousands of turns (stones placed after moves), quiescence
//! would generate them all at every leaf: there the horizon is the static evaluation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::Cell;
use crate::play::{Game, Outcome, Turn};
use crate::rules::EndVerdict;

use super::Budget;
use super::eval::{Evaluator, MATE_BAND, WIN};
use super::rng::Rng;

/// The default size of the transposition table: 2^18 entries (about 6 MB).
const TT_BITS: u32 = 18;
/// Above this many turns in the start position, no quiescence search (see the module).
const QUIESCENCE_MAX_TURNS: usize = 400;
/// Deepest ply of the search (extensions included).
const MAX_PLY: u32 = 96;
/// Quiescence looks at most this many captures deep.
const MAX_QDEPTH: u32 = 8;
const INF: i32 = WIN + 1;

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    depth: u8,
    /// 0 exact, 1 lower bound, 2 upper bound.
    bound: u8,
    score: i32,
    /// The best turn's fingerprint ([`fingerprint`]); 0: none.
    best: u64,
    /// The cell the best turn starts from ([`Turn::from`]), when there is one.
    from: Cell,
}

/// What limits a search; the first iteration (every turn one ply deep) always completes.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Nodes (every position visited, quiescence included).
    pub nodes: Option<u64>,
    /// Iterations.
    pub depth: Option<u32>,
    /// No new iteration starts after this long.
    pub soft: Option<Duration>,
    /// The search stops after this long, within an iteration.
    pub hard: Option<Duration>,
    /// Set from outside (another thread) to stop at once.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// The limits of an agent's budget.
    pub fn of(budget: Budget) -> Limits {
        match budget {
            Budget::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            Budget::Millis(ms) => Limits {
                soft: Some(Duration::from_millis(ms) / 2),
                hard: Some(Duration::from_millis(ms)),
                ..Limits::default()
            },
            Budget::Playouts(n) => Limits {
                nodes: Some(n.saturating_mul(50)),
                ..Limits::default()
            },
        }
    }
}

/// A score as an engine reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Hundredths of the file's value unit (centipawns in chess), for the side to move.
    Centi(i32),
    /// A forced win in so many of the side to move's turns (negative: a forced loss).
    Mate(i32),
}

impl Score {
    /// From a search score.
    pub fn of(s: i32) -> Score {
        if s >= WIN - MATE_BAND {
            Score::Mate((WIN - s + 1) / 2)
        } else if s <= -(WIN - MATE_BAND) {
            Score::Mate(-i32::midpoint(WIN, s))
        } else {
            Score::Centi(s)
        }
    }
}

/// Where an iteration got to.
#[derive(Debug, Clone)]
pub struct Progress {
    /// Plies searched (before extensions and quiescence).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The best turn's score.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation, from the table.
    pub pv: Vec<Turn>,
}

/// An alpha-beta searcher with its table, reused from turn to turn.
#[derive(Debug, Clone)]
pub struct Searcher {
    eval: Evaluator,
    table: Vec<Entry>,
    mask: usize,
    killers: Vec<[u64; 2]>,
    /// Per ply: the turn list and the ordering of the node searched there, kept so that their
    /// allocations serve every node of that ply.
    lists: Vec<(Vec<Turn>, SearchOrder)>,
    /// Per (from, to) cell pair: how often a quiet turn refuted the others.
    history: Vec<i32>,
    cells: usize,
    nodes: u64,
    seldepth: u32,
    started: Instant,
    limits: Limits,
    stopped: bool,
    /// While set, the limits are not checked (the first iteration always completes).
    unlimited: bool,
    quiesce: Option<bool>,
    /// Depth reached by the last completed iteration.
    pub depth: u32,
}

/// What a node of the principal variation search passes to each of its turns' searches
/// ([`Searcher::child`]).
#[derive(Debug, Clone, Copy)]
struct Window {
    depth: u32,
    beta: i32,
    ply: u32,
    /// Whether the side to move at the node is in check.
    in_check: bool,
}

/// A node of the principal variation search while its turns are searched: its alpha as
/// raised so far, the best score so far, the best turn's fingerprint and cell, and how many
/// turns were searched.
#[derive(Debug, Clone, Copy)]
struct Node {
    alpha: i32,
    best_score: i32,
    best: (u64, Cell),
    searched: usize,
}

/// Which turns of a generated list a node searches ([`Searcher::order`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Every turn (quiescence in check).
    All,
    /// The captures and changes of kind (the list holds only those).
    Loud,
    /// The quiet turns (the list holds those, or every turn where the node had to ask how
    /// the game ended; the others were searched).
    Quiet,
}

/// A node's turns in the order they are searched: (ordering key, index in the turn list).
type SearchOrder = Vec<(i64, usize)>;

/// A turn's identity across positions: cells, promotion, castling and stones.
fn fingerprint(t: &Turn) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |v: u64| {
        h ^= v.wrapping_add(1);
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    mix(t.from().index() as u64);
    mix(t.to().map_or(u64::MAX, |c| c.index() as u64));
    for c in t.captures() {
        mix(c.index() as u64);
    }
    mix(t.promote().map_or(u64::MAX, |k| k.index() as u64));
    mix(t.castle().map_or(u64::MAX, u64::from));
    match (t, t.removed(), t.placed()) {
        (Turn::Pass { .. }, _, _) => mix(5),
        (Turn::Drop { kind, .. }, _, _) => mix(3 + ((kind.index() as u64) << 8)),
        (_, Some(c), _) => mix(2 + ((c.index() as u64) << 8)),
        (_, None, []) => mix(1),
        (_, None, list) => {
            for (k, c) in list {
                mix(4 + ((k.index() as u64) << 8) + ((c.index() as u64) << 24));
            }
        }
    }
    h | 1
}

fn is_quiet(t: &Turn) -> bool {
    t.captures().is_empty() && t.promote().is_none()
}

impl Searcher {
    /// A searcher with this evaluation and a table of the default size.
    pub fn new(eval: Evaluator) -> Searcher {
        Searcher::with_table(eval, TT_BITS)
    }

    /// A searcher with a table of 2^`bits` entries.
    pub fn with_table(eval: Evaluator, bits: u32) -> Searcher {
        let bits = bits.clamp(8, 28);
        Searcher {
            eval,
            table: vec![Entry::default(); 1 << bits],
            mask: (1 << bits) - 1,
            killers: vec![[0; 2]; MAX_PLY as usize + MAX_QDEPTH as usize + 2],
            lists: vec![(Vec::new(), Vec::new()); MAX_PLY as usize + MAX_QDEPTH as usize + 2],
            history: Vec::new(),
            cells: 0,
            nodes: 0,
            seldepth: 0,
            started: Instant::now(),
            limits: Limits::default(),
            stopped: false,
            unlimited: false,
            quiesce: None,
            depth: 0,
        }
    }

    /// The table size in entries that fits in `mb` megabytes.
    pub fn table_bits_for(mb: usize) -> u32 {
        let entries = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        (usize::BITS - 1).saturating_sub(entries.leading_zeros())
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.history.fill(0);
        for k in &mut self.killers {
            *k = [0; 2];
        }
    }

    /// The evaluation it uses.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.unlimited || self.nodes & 1023 != 0 {
            return false;
        }
        let l = &self.limits;
        self.stopped = l.nodes.is_some_and(|n| self.nodes >= n)
            || l.hard.is_some_and(|h| self.started.elapsed() >= h)
            || l.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        self.stopped
    }

    /// The turn to play, by iterative deepening within the budget; ties are broken by `rng`.
    /// `None` when the game is over.
    pub fn choose(&mut self, game: &mut Game<'_>, budget: Budget, rng: &mut Rng) -> Option<Turn> {
        self.search(game, &Limits::of(budget), Some(rng), &mut |_| {})
            .map(|(t, _)| t)
    }

    /// Readies a search of `game` within `limits`: counters cleared, the history table sized
    /// to the board (and aged), quiescence decided once per game.
    fn begin(&mut self, game: &Game<'_>, limits: &Limits) {
        self.started = Instant::now();
        self.limits = limits.clone();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.eval.set_stop(game.stop().cloned());
        let cells = game.rules.topo.len();
        if self.cells == cells {
            for h in &mut self.history {
                *h /= 8;
            }
        } else {
            self.cells = cells;
            self.history = vec![0; cells * cells];
        }
        if self.quiesce.is_none() {
            let mut start = Game::start(game.rules);
            self.quiesce = Some(start.count_turns() <= QUIESCENCE_MAX_TURNS);
        }
    }

    /// Searches the position within `limits`, calling `report` after every completed
    /// iteration. The root turns are shuffled by `shuffle` when given (so that equal turns are
    /// chosen among at random, from its seed). Returns the best turn and the last iteration's
    /// progress; `None` when the game is over.
    pub fn search(
        &mut self,
        game: &mut Game<'_>,
        limits: &Limits,
        shuffle: Option<&mut Rng>,
        report: &mut dyn FnMut(&Progress),
    ) -> Option<(Turn, Progress)> {
        self.begin(game, limits);
        let mut turns = game.legal_turns().ok()?;
        if let Some(rng) = shuffle {
            for i in (1..turns.len()).rev() {
                turns.swap(i, rng.below(i + 1));
            }
        }
        let mut progress = Progress {
            depth: 0,
            seldepth: 0,
            score: Score::Centi(0),
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![turns[0].clone()],
        };
        if turns.len() == 1 {
            self.depth = 0;
            return Some((turns.remove(0), progress));
        }
        let mut scores: Vec<i32> = vec![0; turns.len()];
        let mut best = 0usize;
        let max_depth = limits.depth.unwrap_or(MAX_PLY).clamp(1, MAX_PLY);
        for depth in 1..=max_depth {
            self.unlimited = depth == 1;
            let mut order: Vec<usize> = (0..turns.len()).collect();
            // The previous best first, then by the previous iteration's scores.
            order.sort_by_key(|&i| (i != best, std::cmp::Reverse(scores[i])));
            let mut iteration = scores.clone();
            let mut alpha = -INF;
            let mut complete = true;
            let mut iter_best = best;
            for (n, &i) in order.iter().enumerate() {
                game.play(&turns[i]);
                let check = Some(Self::gives_check(game));
                let ext = u32::from(check == Some(true));
                let s = if n == 0 {
                    -self.pvs(game, depth - 1 + ext, -INF, -alpha, 1, check)
                } else {
                    let s = -self.pvs(game, depth - 1 + ext, -alpha - 1, -alpha, 1, check);
                    if s > alpha && !self.stopped {
                        -self.pvs(game, depth - 1 + ext, -INF, -alpha, 1, check)
                    } else {
                        s
                    }
                };
                game.undo();
                if self.stopped {
                    complete = false;
                    break;
                }
                // Below alpha a score is only a bound: keep it under the best.
                iteration[i] = if n == 0 || s > alpha {
                    s
                } else {
                    s.min(alpha - 1)
                };
                if s > alpha {
                    alpha = s;
                    iter_best = i;
                }
            }
            self.unlimited = false;
            // A partial iteration still counts when its first (best-so-far) turn was searched
            // and a better one found.
            if !complete && iter_best == best {
                break;
            }
            scores = iteration;
            best = iter_best;
            self.depth = depth;
            self.store_root(game, &turns[best], depth, alpha);
            progress = Progress {
                depth,
                seldepth: self.seldepth.max(depth),
                score: Score::of(alpha),
                nodes: self.nodes,
                elapsed: self.started.elapsed(),
                pv: self.principal_variation(game, &turns[best], depth),
            };
            report(&progress);
            if !complete || alpha >= WIN - MATE_BAND || alpha <= -(WIN - MATE_BAND) {
                break;
            }
            let l = &self.limits;
            if l.nodes.is_some_and(|n| self.nodes >= n)
                || l.soft.is_some_and(|s| self.started.elapsed() >= s)
                || l.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            {
                break;
            }
        }
        progress.nodes = self.nodes;
        progress.elapsed = self.started.elapsed();
        Some((turns.swap_remove(best), progress))
    }

    fn store_root(&mut self, game: &Game<'_>, best: &Turn, depth: u32, score: i32) {
        let key = game.hash();
        self.table[(key as usize) & self.mask] = Entry {
            key,
            depth: u8::try_from(depth).unwrap_or(u8::MAX),
            bound: 0,
            score,
            best: fingerprint(best),
            from: best.from(),
        };
    }

    /// The best turn, then the table's best turns while they are legal.
    fn principal_variation(&mut self, game: &mut Game<'_>, first: &Turn, depth: u32) -> Vec<Turn> {
        let mut pv = vec![first.clone()];
        game.play(first);
        let mut played = 1;
        while pv.len() < depth as usize {
            let key = game.hash();
            let e = self.table[(key as usize) & self.mask];
            if e.key != key || e.best == 0 {
                break;
            }
            let Ok(turns) = game.legal_turns() else { break };
            let Some(t) = turns.into_iter().find(|t| fingerprint(t) == e.best) else {
                break;
            };
            game.play(&t);
            played += 1;
            pv.push(t);
        }
        for _ in 0..played {
            game.undo();
        }
        pv
    }

    /// Whether the side to move (just moved against) has a royal piece attacked.
    fn gives_check(game: &mut Game<'_>) -> bool {
        game.rules.has_royals() && game.in_check()
    }

    fn outcome_score(o: &Outcome, game: &Game<'_>, ply: u32) -> i32 {
        let ply = i32::try_from(ply).unwrap_or(0);
        match o.winner {
            None => 0,
            Some(w) if w == game.pos().side => WIN - ply,
            Some(_) => -(WIN - ply),
        }
    }

    /// A repetition of a position on the path (or earlier in the game) in a variant that
    /// draws repetitions: scored as the draw it leads to.
    fn repeats(game: &Game<'_>) -> bool {
        game.rules
            .repetition
            .is_some_and(|r| r.verdict == EndVerdict::Draw)
            && game.repetitions() > 0
    }

    fn to_table(s: i32, ply: u32) -> i32 {
        let ply = i32::try_from(ply).unwrap_or(0);
        if s >= WIN - MATE_BAND {
            s + ply
        } else if s <= -(WIN - MATE_BAND) {
            s - ply
        } else {
            s
        }
    }

    fn from_table(s: i32, ply: u32) -> i32 {
        let ply = i32::try_from(ply).unwrap_or(0);
        if s >= WIN - MATE_BAND {
            s - ply
        } else if s <= -(WIN - MATE_BAND) {
            s + ply
        } else {
            s
        }
    }

    /// The principal variation search; `check` says whether the side to move is in check,
    /// when the caller knows (it asked, to extend the search).
    fn pvs(
        &mut self,
        game: &mut Game<'_>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
        check: Option<bool>,
    ) -> i32 {
        if depth == 0 || ply >= MAX_PLY {
            return self.quiescence(game, alpha, beta, ply, 0, check);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_budget() {
            return 0;
        }
        if Self::repeats(game) {
            return 0;
        }
        let key = game.hash();
        let slot = (key as usize) & self.mask;
        let entry = self.table[slot];
        let mut tt_best = 0;
        if entry.key == key {
            tt_best = entry.best;
            let s = Self::from_table(entry.score, ply);
            if u32::from(entry.depth) >= depth && beta - alpha == 1 {
                match entry.bound {
                    0 => return s,
                    1 if s >= beta => return s,
                    2 if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let tt_from = entry.from;
        // An upper bound's turn failed low there: not worth trying before the others.
        let try_first = tt_best != 0 && entry.bound != 2;
        let in_check = check.unwrap_or_else(|| Self::gives_check(game));
        let window = Window {
            depth,
            beta,
            ply,
            in_check,
        };
        let mut node = Node {
            alpha,
            best_score: -INF,
            best: (0, Cell::default()),
            searched: 0,
        };
        // The ply's lists, taken out of the searcher while its node is searched.
        let (mut turns, mut order) = std::mem::take(&mut self.lists[ply as usize]);
        // In stages, each generated only when the one before did not cut the node off: the
        // table's turn (only its piece's turns generated, to find it legal); the captures and
        // changes of kind (generated alone); the quiet turns.
        let s = 'node: {
            let mut first = false;
            if try_first
                && game.legal_turns_of_into(tt_from, &mut turns)
                && let Some(i) = turns.iter().position(|t| fingerprint(t) == tt_best)
            {
                order.clear();
                order.push((i64::MAX, i));
                if self.search_turns(game, &turns, &mut order, &window, &mut node) {
                    break 'node 0;
                }
                first = true;
            }
            // Whether the game goes on, once known (the loud turns may not tell).
            let mut goes_on = false;
            for loud in [true, false] {
                if node.alpha >= beta {
                    break;
                }
                let generated = if loud {
                    game.loud_turns_seen_into(&mut turns).map(|g| goes_on = g)
                } else {
                    game.quiet_turns_into(&mut turns)
                };
                if let Err(o) = generated {
                    break 'node Self::outcome_score(&o, game, ply);
                }
                // No turn of either kind: the game is over, and the full list says how.
                if !loud
                    && !goes_on
                    && turns.is_empty()
                    && let Err(o) = game.legal_turns_into(&mut turns)
                {
                    break 'node Self::outcome_score(&o, game, ply);
                }
                let stage = if loud { Stage::Loud } else { Stage::Quiet };
                self.order(game, &turns, (tt_best, first), stage, ply, &mut order);
                if self.search_turns(game, &turns, &mut order, &window, &mut node) {
                    break 'node 0;
                }
            }
            let bound = if node.best_score <= alpha {
                2
            } else {
                u8::from(node.best_score >= beta)
            };
            self.table[slot] = Entry {
                key,
                depth: u8::try_from(depth).unwrap_or(u8::MAX),
                bound,
                score: Self::to_table(node.best_score, ply),
                best: node.best.0,
                from: node.best.1,
            };
            node.best_score
        };
        self.lists[ply as usize] = (turns, order);
        s
    }

    /// Searches the turns of `order` (indices into `turns`) at a node of `window`, in order,
    /// until one cuts the node off; true when the search was stopped.
    fn search_turns(
        &mut self,
        game: &mut Game<'_>,
        turns: &[Turn],
        order: &mut SearchOrder,
        window: &Window,
        node: &mut Node,
    ) -> bool {
        for n in 0..order.len() {
            settle(order, n);
            let t = &turns[order[n].1];
            let s = self.child(game, t, node.searched, node.alpha, window);
            if self.stopped {
                return true;
            }
            node.searched += 1;
            if s > node.best_score {
                node.best_score = s;
                node.best = (fingerprint(t), t.from());
            }
            node.alpha = node.alpha.max(s);
            if node.alpha >= window.beta {
                if is_quiet(t) {
                    self.remember_cutoff(t, window.depth, window.ply);
                }
                break;
            }
        }
        false
    }

    /// Plays `t`, the `n`th turn searched at a node of `window` whose best score so far is
    /// `alpha`, and returns its score: the first with the whole window, the others with a null
    /// window (late quiet ones less deep first) and again with the whole window when they
    /// beat `alpha`. A check is extended.
    fn child(&mut self, game: &mut Game<'_>, t: &Turn, n: usize, alpha: i32, w: &Window) -> i32 {
        let Window {
            depth,
            beta,
            ply,
            in_check,
        } = *w;
        let quiet = is_quiet(t);
        game.play(t);
        let check = Self::gives_check(game);
        let ext = u32::from(check && ply < MAX_PLY / 2);
        let known = Some(check);
        let mut s;
        if n == 0 {
            s = -self.pvs(game, depth - 1 + ext, -beta, -alpha, ply + 1, known);
        } else {
            // Late quiet turns are searched less deep first.
            let reduce = if depth >= 3 && n >= 3 && quiet && !in_check && !check {
                if n >= 10 { 2 } else { 1 }
            } else {
                0
            };
            let d = (depth - 1 + ext).saturating_sub(reduce);
            s = -self.pvs(game, d, -alpha - 1, -alpha, ply + 1, known);
            if s > alpha && reduce > 0 && !self.stopped {
                s = -self.pvs(game, depth - 1 + ext, -alpha - 1, -alpha, ply + 1, known);
            }
            if s > alpha && s < beta && !self.stopped {
                s = -self.pvs(game, depth - 1 + ext, -beta, -alpha, ply + 1, known);
            }
        }
        game.undo();
        s
    }

    fn remember_cutoff(&mut self, t: &Turn, depth: u32, ply: u32) {
        let f = fingerprint(t);
        let k = &mut self.killers[ply as usize];
        if k[0] != f {
            k[1] = k[0];
            k[0] = f;
        }
        if let Some(to) = t.to() {
            let i = t.from().index() * self.cells + to.index();
            if let Some(h) = self.history.get_mut(i) {
                let d = i32::try_from(depth).unwrap_or(30).min(30);
                *h = (*h + d * d).min(1 << 20);
            }
        }
    }

    /// Captures and changes of kind until the position is quiet; in check, every turn.
    fn quiescence(
        &mut self,
        game: &mut Game<'_>,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        qdepth: u32,
        check: Option<bool>,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_budget() {
            return 0;
        }
        if let Some(o) = crate::play::static_outcome(game.rules, game.pos()) {
            return Self::outcome_score(&o, game, ply);
        }
        let stand = self.eval.eval(game.rules, game.pos());
        if self.quiesce != Some(true) || qdepth >= MAX_QDEPTH || ply >= MAX_PLY {
            return stand;
        }
        let in_check = check.unwrap_or_else(|| Self::gives_check(game));
        if !in_check && stand >= beta {
            return stand;
        }
        // The ply's lists, taken out of the searcher while its node is searched.
        let (mut turns, mut order) = std::mem::take(&mut self.lists[ply as usize]);
        let s = 'node: {
            let generated = if in_check {
                game.legal_turns_into(&mut turns)
            } else {
                game.loud_turns_into(&mut turns)
            };
            if let Err(o) = generated {
                break 'node Self::outcome_score(&o, game, ply);
            }
            let mut best = if in_check { -INF } else { stand };
            alpha = alpha.max(best);
            self.order(game, &turns, (0, false), Stage::All, ply, &mut order);
            for n in 0..order.len() {
                settle(&mut order, n);
                let t = &turns[order[n].1];
                if !in_check && stand + self.gain(game, t) + 200 < alpha {
                    continue;
                }
                game.play(t);
                let s = -self.quiescence(game, -beta, -alpha, ply + 1, qdepth + 1, None);
                game.undo();
                if self.stopped {
                    break 'node 0;
                }
                if s > best {
                    best = s;
                }
                if s > alpha {
                    alpha = s;
                }
                if alpha >= beta {
                    break;
                }
            }
            best
        };
        self.lists[ply as usize] = (turns, order);
        s
    }

    /// The material a turn wins: what it captures and what its change of kind adds.
    fn gain(&self, game: &Game<'_>, t: &Turn) -> i32 {
        let pos = game.pos();
        let captured: i32 = t
            .captures()
            .iter()
            .filter_map(|&c| pos.at(c).as_piece())
            .map(|(_, k)| self.eval.value(k))
            .sum();
        let promoted = match (t.promote(), pos.at(t.from()).as_piece()) {
            (Some(to), Some((_, from))) => self.eval.value(to) - self.eval.value(from),
            (Some(to), None) => self.eval.value(to),
            _ => 0,
        };
        captured + promoted
    }

    /// The turns of `stage` in search order: the table's turn `tt.0` first (left out when it
    /// was searched already, `tt.1`); then captures and changes of kind by what they win, the
    /// most valuable victim by the least valuable attacker first; then killer turns; then
    /// quiet turns by their history. Leaves the keys in turn order: [`settle`] puts each in
    /// its place as the loop reaches it.
    fn order(
        &self,
        game: &Game<'_>,
        turns: &[Turn],
        (tt, searched): (u64, bool),
        stage: Stage,
        ply: u32,
        keyed: &mut SearchOrder,
    ) {
        let pos = game.pos();
        let killers = self.killers[ply as usize];
        keyed.clear();
        keyed.extend(turns.iter().enumerate().filter_map(|(i, t)| {
            let quiet = is_quiet(t);
            if stage == Stage::Quiet && !quiet {
                return None;
            }
            // Only a quiet turn is compared with the killers: a loud one needs its
            // fingerprint only when there is a table's turn (fingerprints are never 0).
            let f = if tt != 0 || quiet { fingerprint(t) } else { 0 };
            let key: i64 = if tt != 0 && f == tt {
                if searched {
                    return None;
                }
                i64::MAX
            } else if !quiet {
                let attacker = pos
                    .at(t.from())
                    .as_piece()
                    .map_or(0, |(_, k)| self.eval.value(k));
                (1 << 40) + i64::from(self.gain(game, t)) * 64 - i64::from(attacker) / 16
            } else if f == killers[0] {
                1 << 35
            } else if f == killers[1] {
                (1 << 35) - 1
            } else {
                t.to().map_or(0, |to| {
                    let h = self.history.get(t.from().index() * self.cells + to.index());
                    i64::from(h.copied().unwrap_or(0))
                })
            };
            Some((key, i))
        }));
    }
}

/// How many turns of a node's order [`settle`] picks one by one before it sorts the rest.
const PICKED: usize = 3;

/// Puts the `n`th turn of a search order in its place, `order[..n]` being in place: highest
/// key first, lower index first among equal keys. Most nodes are cut off after one or two
/// turns, so the first [`PICKED`] are picked out one by one; on reaching the next, the rest
/// is sorted at once. The indices are distinct, so the order is the one a full sort gives.
fn settle(order: &mut [(i64, usize)], n: usize) {
    let rank = |&(k, i): &(i64, usize)| (std::cmp::Reverse(k), i);
    if n < PICKED {
        if let Some(best) = (n..order.len()).min_by_key(|&j| rank(&order[j])) {
            order.swap(n, best);
        }
    } else if n == PICKED && n < order.len() {
        order[n..].sort_unstable_by_key(rank);
    }
}

#[cfg(test)]
mod tests {
    use super::settle;
    use proptest::prelude::*;

    proptest! {
        /// Settled turn by turn (the first few picked out, the rest sorted when reached), a
        /// node's order is the full sort's: highest key first, lower index first among equal
        /// keys. Keys drawn from few values, so that ties are common.
        #[test]
        fn settling_turn_by_turn_gives_the_sorted_order(
            keys in proptest::collection::vec(-3i64..4, 0..40)
        ) {
            let mut order: Vec<(i64, usize)> =
                keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
            let mut sorted = order.clone();
            sorted.sort_by_key(|&(k, i)| (std::cmp::Reverse(k), i));
            for n in 0..order.len() {
                settle(&mut order, n);
                prop_assert_eq!(order[n], sorted[n], "turn {} of {:?}", n, keys);
            }
        }
    }
}
