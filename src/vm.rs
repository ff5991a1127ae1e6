//! The interpreter: runs a compiled [`Program`] for the piece on one cell of a position and
//! collects its movement options (one per effect, RULINGS B-17) or its placement range.
//!
//! Legs walk the link tables; chains backtrack with an explicit visited set (no cell twice,
//! origin included) and remove captured pieces at once. A landing on an occupied cell ends the
//! path: only an `accept` may follow it.

use crate::board::{Cell, LinkTable, NO_CELL, Side};
use crate::compile::walk::{Board, Cells, Ride, walk_leg};
use crate::compile::{CaptureMode, Filter, LegCode, Op, Program};
use crate::core::{PieceKindId, StoneKindId};
use crate::dsl::LegKind;
use crate::position::{Occupant, Position};
use crate::rules::{Region, Ruleset};

/// What a move does to a stone on its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StoneEffect {
    /// No stone there.
    None,
    /// The stone (of this kind) goes into the mover's supply.
    Collect(StoneKindId),
    /// The stone (of this kind) is destroyed.
    Destroy(StoneKindId),
}

/// One movement option: where the piece ends and what it captures on the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveOption {
    /// The destination.
    pub to: Cell,
    cap_start: u32,
    cap_len: u32,
    /// What happens to a stone on the destination.
    pub stone: StoneEffect,
    /// Whether some path to this effect ends with a leg that can capture.
    pub capturing_leg: bool,
}

/// The movement options of one piece.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The piece's cell.
    pub from: Cell,
    /// The options, in the order they were found.
    pub moves: Vec<MoveOption>,
    captures: Vec<Cell>,
}

impl Options {
    /// The cells whose pieces this option captures, sorted.
    pub fn captures(&self, m: &MoveOption) -> &[Cell] {
        &self.captures[m.cap_start as usize..(m.cap_start + m.cap_len) as usize]
    }

    /// An option as text: the destination, then `x` and each captured cell (`H6xE6xG6`).
    pub fn text(&self, topo: &crate::board::Topology, m: &MoveOption) -> String {
        let mut s = topo.name(m.to);
        for &c in self.captures(m) {
            s.push('x');
            s.push_str(&topo.name(c));
        }
        s
    }

    /// Removes every option.
    pub fn clear(&mut self) {
        self.moves.clear();
        self.captures.clear();
    }

    /// Number of options.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there is no option.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Moves,
    Range,
    /// Stop at the first option that captures the goal.
    Attack,
}

/// What an attack query looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Goal {
    #[default]
    None,
    /// A capture of the piece on this cell.
    Cell(Cell),
}

struct Ctx<'a> {
    prog: &'a Program,
    links: &'a LinkTable,
    regions: &'a [Region],
    collectable: Filter,
    side: Side,
    mode: Mode,
    origin: Cell,
    /// Whether a piece taken in a chain leaves the board at once (else at the end of the turn:
    /// it stays in the way and cannot be taken again).
    leave_at_once: bool,
    /// Whether a path may come back to a cell once it has taken a piece since it was there.
    revisit: bool,
    /// Whether a path that has taken a piece may come back to the origin and end there.
    home: bool,
}

/// Landings one run may make before the search starts pruning states whose every possible
/// result is already known (see [`Machine::saturated`]). Ordinary positions never get there.
const PRUNE_AFTER: u64 = 2_000;

/// Landings one run may make in all (pruning walks included) before it gives up and reports
/// the definition as a runaway instead of hanging (the default of [`set_work_budget`]).
pub const WORK_BUDGET: u64 = 3_000_000;

static BUDGET: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(WORK_BUDGET);

/// Sets the work budget of every run in this process (landings, see [`WORK_BUDGET`]). The
/// command line reads it from `BULWARK_WORK_BUDGET`.
pub fn set_work_budget(landings: u64) {
    BUDGET.store(landings.max(1), std::sync::atomic::Ordering::Relaxed);
}

/// The work budget in force.
pub fn work_budget() -> u64 {
    BUDGET.load(std::sync::atomic::Ordering::Relaxed)
}

/// When chain exploration prunes hopeless states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pruning {
    /// After the first `PRUNE_AFTER` (2,000) landings of a run (the default).
    #[default]
    Auto,
    /// From the first landing (for cross-checks).
    Always,
    /// Never: every path is walked (for cross-checks; may take exponential time).
    Never,
}

/// How deep a pruning walk may recurse before it gives up (and the state is explored as usual).
const WALK_DEPTH: u32 = 2_000;

/// Landings between two looks at the [`Stop`] in force, within one long run.
const STOP_POLL: u64 = 1 << 16;

/// Runs of the general interpreter between two looks at the [`Stop`] in force.
const STOP_POLL_RUNS: u64 = 64;

/// A request to stop work from outside, and the budget of a whole command: a flag that
/// another thread (or a guard dropped when a client leaves) sets, a deadline, and a count of
/// the unusual work done so far (landings of runs beyond their first [`ORDINARY_RUN`]) with
/// its limit. A run that has made more than `STOP_POLL` (65,536) landings looks at it every
/// `STOP_POLL` (65,536) landings, and a machine at the start of every `STOP_POLL_RUNS` (64)-th run;
/// when it says stop, the run ends as a [`Runaway`] ([`Halt::Stopped`] or
/// [`Halt::CommandBudget`]), and, like any runaway, every later run of that machine returns at
/// once, so the whole generation ends quickly. Short runs never look, so ordinary work pays
/// nothing for it.
#[derive(Debug, Default)]
pub struct Stop {
    flag: std::sync::atomic::AtomicBool,
    deadline: Option<std::time::Instant>,
    /// Landings beyond the ordinary, in all runs under this stop.
    excess: std::sync::atomic::AtomicU64,
    /// The most of them allowed (0: no limit).
    excess_limit: u64,
    /// Whether the limit was passed.
    spent: std::sync::atomic::AtomicBool,
}

/// Landings of one run that count as ordinary work; beyond them a run's landings count
/// towards its command's budget ([`Stop::with_budget`]).
pub const ORDINARY_RUN: u64 = PRUNE_AFTER;

/// The default budget of a whole command, in landings beyond the ordinary
/// ([`ORDINARY_RUN`] per run): about ten seconds of one core of the slowest walks (chains
/// that need the pruning walk), far more than any ordinary game needs in a whole perft.
pub const COMMAND_BUDGET: u64 = 60_000_000;

impl Stop {
    /// A stop that fires when [`Stop::stop`] is called or, if given, at the deadline.
    pub fn new(deadline: Option<std::time::Instant>) -> Stop {
        Stop {
            deadline,
            ..Stop::default()
        }
    }

    /// The same, with a budget of `landings` beyond the ordinary for all the work under it.
    pub fn with_budget(deadline: Option<std::time::Instant>, landings: u64) -> Stop {
        Stop {
            deadline,
            excess_limit: landings.max(1),
            ..Stop::default()
        }
    }

    /// Asks the work to stop.
    pub fn stop(&self) {
        self.flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the work should stop now.
    pub fn stopped(&self) -> bool {
        self.halt().is_some()
    }

    /// Why the work should stop now, if it should.
    fn halt(&self) -> Option<Halt> {
        use std::sync::atomic::Ordering::Relaxed;
        if self.spent.load(Relaxed) {
            Some(Halt::CommandBudget)
        } else if self.flag.load(Relaxed)
            || self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
        {
            Some(Halt::Stopped)
        } else {
            None
        }
    }

    /// Counts `landings` of unusual work; whether the budget is now spent.
    fn charge(&self, landings: u64) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let total = self
            .excess
            .fetch_add(landings, Relaxed)
            .saturating_add(landings);
        if self.excess_limit != 0 && total > self.excess_limit {
            self.spent.store(true, Relaxed);
        }
        self.spent.load(Relaxed)
    }

    /// The unusual work counted so far, in landings.
    pub fn excess(&self) -> u64 {
        self.excess.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The budget of unusual work (0: none).
    pub fn budget(&self) -> u64 {
        self.excess_limit
    }
}

thread_local! {
    /// The stop in force on this thread (see [`with_stop`]).
    static STOP: std::cell::RefCell<Option<std::sync::Arc<Stop>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `stop` in force on this thread: long runs of every machine used inside look
/// at it (see [`Stop`]). The previous stop is restored afterwards.
pub fn with_stop<T>(stop: &std::sync::Arc<Stop>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<std::sync::Arc<Stop>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let prev = self.0.take();
            STOP.with_borrow_mut(|s| *s = prev);
        }
    }
    let prev = STOP.with_borrow_mut(|s| s.replace(std::sync::Arc::clone(stop)));
    let _restore = Restore(prev);
    f()
}

/// The stop in force on this thread, if any: to carry it to the threads a command starts
/// ([`install_stop`] on each).
pub fn current_stop() -> Option<std::sync::Arc<Stop>> {
    STOP.with_borrow(Clone::clone)
}

/// Puts `stop` in force on this thread for the rest of its life (a worker thread of a pool
/// that a command started, see [`current_stop`]).
pub fn install_stop(stop: Option<std::sync::Arc<Stop>>) {
    STOP.with_borrow_mut(|s| *s = stop);
}

/// Why the stop in force on this thread, if any, says stop.
fn stop_requested() -> Option<Halt> {
    STOP.with_borrow(|s| s.as_ref().and_then(|s| s.halt()))
}

/// Charges unusual work to the stop in force on this thread; why to stop, if the budget is
/// now spent (or the stop says so for another reason).
fn charge_stop(landings: u64) -> Option<Halt> {
    STOP.with_borrow(|s| {
        let s = s.as_ref()?;
        s.charge(landings);
        s.halt()
    })
}

/// Why a run gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// It needed more landings than the work budget of one run allows.
    Budget,
    /// The [`Stop`] in force asked it to (a time limit, or the client left).
    Stopped,
    /// The whole command's budget of unusual work was spent ([`Stop::with_budget`]): this run
    /// was going when it ran out.
    CommandBudget,
}

/// A piece whose chains needed more work in one run than [`WORK_BUDGET`] allows (or whose run
/// was stopped from outside, see [`Stop`]): its options from that cell are unknown, and
/// whatever was generated with it is incomplete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the program of piece kind {} on cell {} ran out of its work budget", kind.index(), cell.index())]
pub struct Runaway {
    /// The piece kind whose program ran away.
    pub kind: PieceKindId,
    /// The side it played for.
    pub side: Side,
    /// The cell it ran from.
    pub cell: Cell,
    /// Why it gave up.
    pub halt: Halt,
}

impl Runaway {
    /// What ran away, in the variant's own names.
    pub fn message(&self, rules: &Ruleset) -> String {
        let piece = &rules.pieces[self.kind.index()];
        match self.halt {
            Halt::Budget => format!(
                "the {} ({}) on {} needs more than {} landings to list its options: its \
                 definition runs away (a chain with too many ways through this position)",
                piece.name,
                self.side.name(),
                rules.topo.name(self.cell),
                work_budget(),
            ),
            Halt::CommandBudget => format!(
                "the definitions of {} needed more unusual work in this command than its budget \
                 allows ({} landings beyond the first {ORDINARY_RUN} of each run; BULWARK_COMMAND_BUDGET sets it): \
                 the {} ({}) on {} was listing its options when it ran out",
                rules.name,
                current_stop().map_or(COMMAND_BUDGET, |s| s.budget()),
                piece.name,
                self.side.name(),
                rules.topo.name(self.cell),
            ),
            Halt::Stopped => format!(
                "the work was stopped (it ran past its time limit, or whoever asked for it \
                 left) while the {} ({}) on {} was listing its options",
                piece.name,
                self.side.name(),
                rules.topo.name(self.cell),
            ),
        }
    }
}

impl Runaway {
    /// What to do about it, in the variant's own words: the repeated part of the piece's
    /// definition to bound, when it has one.
    pub fn help(&self, rules: &Ruleset) -> String {
        if self.halt == Halt::Stopped {
            return "ask for less at once (a shallower depth, a smaller position), or allow more time".to_string();
        }
        let piece = &rules.pieces[self.kind.index()];
        match repeated_parts(&piece.moves_text).first() {
            Some(part) => format!(
                "bound the repetition `{part}` in the {}'s definition (a count such as {{1,4}} instead of `+`, `*` or `{{n,}}`), or give this position with fewer cells to walk through",
                piece.name
            ),
            None => format!(
                "the {}'s definition repeats nothing without bound: this position has too many ways through it; give a position with fewer cells to walk through, or raise BULWARK_WORK_BUDGET",
                piece.name
            ),
        }
    }
}

/// The parts of a definition repeated without an upper bound (`(…)+`, `(…)*`, `(…){n,}`), as
/// written.
pub fn repeated_parts(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        let unbounded = match c {
            b'+' | b'*' => true,
            b'{' => text[i..]
                .find('}')
                .is_some_and(|j| text[i + 1..i + j].trim_end().ends_with(',')),
            _ => false,
        };
        if !unbounded || i == 0 {
            continue;
        }
        // The operand: a parenthesised group, or a name or leg just before.
        let end = text[..i].trim_end().len();
        if end == 0 {
            continue;
        }
        let start = if b[end - 1] == b')' {
            let mut depth = 0i32;
            let mut at = None;
            for j in (0..end).rev() {
                match b[j] {
                    b')' => depth += 1,
                    b'(' => {
                        depth -= 1;
                        if depth == 0 {
                            // A leg's own parentheses (`step(all)`): take its keyword too.
                            let kw = text[..j]
                                .trim_end_matches(|ch: char| {
                                    ch.is_ascii_alphanumeric() || ch == '-'
                                })
                                .len();
                            at = Some(kw);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            at.unwrap_or(0)
        } else {
            text[..end]
                .trim_end_matches(|ch: char| ch.is_ascii_alphanumeric() || ch == '-')
                .len()
        };
        let part = text[start..=i.min(text.len() - 1)].trim();
        let part = if c == b'{' {
            let close = text[i..].find('}').map_or(i, |j| i + j);
            text[start..=close].trim()
        } else {
            part
        };
        if !part.is_empty() {
            out.push(part.to_string());
        }
    }
    out
}

/// A state of a pruning walk: program counter, cell, whether the path ended on an occupant,
/// the stone effect, whether a capturing leg led here, and the sorted captured cells.
type WalkState = (usize, Cell, bool, StoneEffect, bool, Vec<Cell>);

/// Reusable scratch space for running programs without allocating per call.
///
/// Chains are explored path by path (a path never visits a cell twice, RULINGS B-16). After
/// `PRUNE_AFTER` landings in one run, each state a chain reaches is first checked by a walk
/// that may revisit cells (a superset of the real paths, explored once per state): when every
/// result that walk can reach is already known, the state is not explored. The options stay
/// exactly the same; only hopeless work is skipped. A run that still exceeds [`WORK_BUDGET`]
/// stops and is reported by [`Machine::take_runaway`].
#[derive(Debug, Clone, Default)]
pub struct Machine {
    /// Run every program through the general interpreter, plain ones too (to check the plain
    /// fast path against it).
    general_only: bool,
    work: u64,
    /// The landing count at which the run next stops to look: the work budget, or before it
    /// the next look at the [`Stop`] in force.
    budget: u64,
    /// The work budget of the run.
    limit: u64,
    /// Why the run was stopped from outside, if it was.
    stopped: Option<Halt>,
    /// Landings of this run already charged to the command's budget.
    charged: u64,
    /// Runs of the general interpreter so far (see `STOP_POLL_RUNS` (64)).
    runs: u64,
    pruning: Pruning,
    walking: bool,
    walk_depth: u32,
    halt: bool,
    free: bool,
    /// States a walk reached, with the number of the walk (so nothing needs clearing).
    seen: rustc_hash::FxHashMap<WalkState, u32>,
    walk_id: u32,
    /// States whose free walk found only known results: nothing to explore there, ever again
    /// in this run (results only grow).
    dead: rustc_hash::FxHashSet<WalkState>,
    /// States whose free walk found an unknown result, with the number of results then.
    open: rustc_hash::FxHashMap<WalkState, usize>,
    runaway: Option<Runaway>,
    cells: Vec<Occupant>,
    /// Per cell: 0 if the path has not passed it, else one more than the number of pieces the
    /// path had taken when it last got there.
    visited: Vec<u32>,
    caps: Vec<Cell>,
    stamp: Vec<u32>,
    slot: Vec<u32>,
    /// Per option: the previous option with the same destination (`u32::MAX`: none).
    prev: Vec<u32>,
    /// Per option: the fingerprint of its captured cells.
    fps: Vec<u64>,
    fp: u64,
    epoch: u32,
    range: Vec<Cell>,
    sorted: Vec<Cell>,
    goal: Goal,
    found: bool,
    /// Per mark of a maximal repetition: how many times a path passed it in this run.
    marks: Vec<u32>,
    /// The landings of the legs being explored, one buffer per depth of recursion.
    landings: Vec<Vec<(Cell, Cell)>>,
    walk_depth_buffers: usize,
}

impl Machine {
    /// A machine for boards of any size (buffers grow on first use).
    pub fn new() -> Machine {
        Machine::default()
    }

    /// A machine that runs plain programs through the general interpreter as well: the
    /// reference the fast path ([`crate::compile::Program::plain`]) is checked against.
    pub fn general_only() -> Machine {
        Machine {
            general_only: true,
            ..Machine::default()
        }
    }

    /// A machine with the given pruning policy.
    pub fn with_pruning(pruning: Pruning) -> Machine {
        Machine {
            pruning,
            ..Machine::default()
        }
    }

    /// The pending runaway, if a run exceeded the budget (see [`Machine::take_runaway`]).
    pub fn runaway(&self) -> Option<Runaway> {
        self.runaway
    }

    /// The runaway found since the last call, if any. While one is pending every run returns
    /// at once without options, so a caller that generates many runs stops quickly.
    pub fn take_runaway(&mut self) -> Option<Runaway> {
        self.runaway.take()
    }

    fn prepare(&mut self, pos: &Position, from: Cell) {
        let n = pos.cells.len();
        self.work = 0;
        self.limit = work_budget();
        self.budget = self.limit.min(STOP_POLL);
        self.stopped = None;
        self.charged = 0;
        self.halt = false;
        // Many short runs make long work too: every so many runs, a look at the stop.
        self.runs = self.runs.wrapping_add(1);
        if self.runs.is_multiple_of(STOP_POLL_RUNS) {
            self.stopped = stop_requested();
            self.halt = self.stopped.is_some();
        }
        if !self.dead.is_empty() || !self.open.is_empty() || !self.seen.is_empty() {
            self.dead.clear();
            self.open.clear();
            self.seen.clear();
        }
        self.cells.clear();
        self.cells.extend_from_slice(&pos.cells);
        self.cells[from.index()] = Occupant::EMPTY;
        self.visited.clear();
        self.visited.resize(n, 0);
        self.visited[from.index()] = 1;
        self.caps.clear();
        self.prev.clear();
        self.fps.clear();
        if self.stamp.len() != n {
            self.stamp = vec![0; n];
            self.slot = vec![0; n];
            self.epoch = 0;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        self.range.clear();
    }

    /// The movement options of the piece on `from`, for its own side. Empty if no piece.
    pub fn moves(&mut self, rules: &Ruleset, pos: &Position, from: Cell, out: &mut Options) {
        out.clear();
        out.from = from;
        self.start(rules, pos, from, Mode::Moves, out);
    }

    /// The placement range of the piece on `from` (RULINGS B-41): every cell one of its range
    /// paths could end on if that cell were empty. Cells in index order.
    pub fn range(&mut self, rules: &Ruleset, pos: &Position, from: Cell) -> &[Cell] {
        self.range.clear();
        let mut unused = Options::default();
        self.start(rules, pos, from, Mode::Range, &mut unused);
        self.range.sort_unstable();
        &self.range
    }

    /// The placement range a piece of `kind` playing for `side` would have on `at` after
    /// moving there from `vacated`, read from `pos` as it stands (the move not played: `vacated`
    /// counts as empty, `at` as the piece's). Unsorted. `None` when the range program needs
    /// the general interpreter (paths of more than two legs): play the move and ask
    /// [`Machine::range`].
    pub fn range_after_move(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        vacated: Cell,
        at: Cell,
        side: Side,
        kind: PieceKindId,
    ) -> Option<&[Cell]> {
        let prog = &rules.pieces[kind.index()].range;
        if self.general_only || self.runaway.is_some() || prog.marks != 0 || prog.max_legs > 2 {
            return None;
        }
        self.range.clear();
        self.next_epoch(pos.cells.len());
        let cx = Direct::new(rules, pos, prog, side, at, vacated, Mode::Range);
        let mut unused = Options::default();
        self.direct_ops::<true>(&cx, &mut unused, 0, at, 0, false, StoneEffect::None, false);
        Some(&self.range)
    }

    fn start(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        mode: Mode,
        out: &mut Options,
    ) {
        let Some((side, kind)) = pos.at(from).as_piece() else {
            return;
        };
        self.run_as(rules, pos, from, side, kind, mode, out);
    }

    /// Whether the piece on `from` can capture the piece on `target` (stops at the first way).
    pub fn captures_cell(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        target: Cell,
    ) -> bool {
        let Some((side, kind)) = pos.at(from).as_piece() else {
            return false;
        };
        // Out of the legs' geometric reach: no run needed.
        if !self.general_only
            && !rules.attack_reach.could_capture(
                kind,
                side,
                rules.topo.offset_key(from),
                rules.topo.offset_key(target),
            )
        {
            return false;
        }
        self.attack_query(rules, pos, from, side, kind, Goal::Cell(target))
    }

    #[allow(clippy::too_many_arguments)]
    fn attack_query(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        kind: PieceKindId,
        goal: Goal,
    ) -> bool {
        self.goal = goal;
        self.found = false;
        let mut unused = Options::default();
        self.run_as(rules, pos, from, side, kind, Mode::Attack, &mut unused);
        self.goal = Goal::None;
        std::mem::take(&mut self.found)
    }

    /// The movement options a piece of `kind` playing for `side` would have on `from`,
    /// whatever stands there.
    pub fn moves_as(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        kind: PieceKindId,
        out: &mut Options,
    ) {
        out.clear();
        out.from = from;
        self.run_as(rules, pos, from, side, kind, Mode::Moves, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn run_as(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        kind: PieceKindId,
        mode: Mode,
        out: &mut Options,
    ) {
        if self.runaway.is_some() {
            return;
        }
        let piece = &rules.pieces[kind.index()];
        let prog = match mode {
            Mode::Moves => &piece.moves,
            Mode::Range => &piece.range,
            Mode::Attack => &piece.attacks,
        };
        if prog.plain && !self.general_only {
            match mode {
                Mode::Moves => {
                    self.plain_moves(rules, pos, from, side, prog, out);
                    return;
                }
                Mode::Attack => {
                    self.found = plain_attack(rules, pos, from, side, prog, self.goal);
                    return;
                }
                Mode::Range => {}
            }
        }
        // Straight on the position: one leg per path; for a range (nothing is taken on the
        // way), two.
        let direct = prog.single_leg || (mode == Mode::Range && prog.max_legs <= 2);
        if direct && prog.marks == 0 && !self.general_only {
            self.single_leg(rules, pos, from, side, prog, mode, out);
            return;
        }
        self.prepare(pos, from);
        self.marks.clear();
        self.marks.resize(usize::from(prog.marks), 0);
        let cx = Ctx {
            prog,
            links: &rules.links,
            regions: &rules.regions,
            collectable: rules.collectable,
            side,
            mode,
            origin: from,
            leave_at_once: !rules.turn.captured_leave_at_end,
            revisit: rules.turn.revisit_after_capture,
            home: rules.turn.home_after_capture,
        };
        self.run(&cx, out, 0, from, false, StoneEffect::None, false);
        if self.work > ORDINARY_RUN {
            self.charge_excess();
        }
        if self.halt && self.runaway.is_none() {
            // Only the budget or a stop leaves `halt` set after a run.
            self.runaway = Some(Runaway {
                kind,
                side,
                cell: from,
                halt: self.stopped.unwrap_or(Halt::Budget),
            });
        }
        self.halt = false;
    }

    /// The options of a plain program (see [`Program::plain`]): the same as running it, in the
    /// same order, read straight from the position. Every way to a cell of such a program
    /// captures the same (the piece there, or nothing) with the same effect on a stone, so
    /// options to one cell merge into the first, as `accept` merges them.
    fn plain_moves(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        prog: &Program,
        out: &mut Options,
    ) {
        self.next_epoch(pos.cells.len());
        plain_landings(rules, pos, from, side, prog, |l, t, occ| {
            self.plain_land(rules, out, l, side, t, occ, l.can_capture());
        });
    }

    /// Whether the fast paths for plain programs may run: the general interpreter is not
    /// asked for and no runaway was met.
    pub fn plain_allowed(&self) -> bool {
        !self.general_only && self.runaway.is_none()
    }

    /// The movement options of the piece of `kind` and `side` on `from` whose program is plain
    /// (see [`Program::plain`]), each destination once, with whether it captures there and what
    /// it does to a stone there: what [`Machine::moves`] lists, without the list. False (and
    /// nothing called) when the program is not plain or the general interpreter is asked for.
    pub fn plain_each(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        kind: PieceKindId,
        mut f: impl FnMut(Cell, bool, StoneEffect),
    ) -> bool {
        let prog = &rules.pieces[kind.index()].moves;
        if !prog.plain || self.general_only || self.runaway.is_some() {
            return false;
        }
        // A disjoint program lands on no cell twice: no stamps.
        let repeats = !prog.disjoint;
        if repeats {
            self.next_epoch(pos.cells.len());
        }
        plain_landings(rules, pos, from, side, prog, |l, t, occ| {
            if let Some((captured, fx)) = landing(l, side, occ, rules.collectable)
                && (!repeats || self.stamp[t.index()] != self.epoch)
            {
                if repeats {
                    self.stamp[t.index()] = self.epoch;
                }
                f(t, captured, fx);
            }
        });
        true
    }

    /// One landing of a plain program: what `land` and `accept` decide for it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn plain_land(
        &mut self,
        rules: &Ruleset,
        out: &mut Options,
        l: &LegCode,
        side: Side,
        t: Cell,
        occ: Occupant,
        capleg: bool,
    ) {
        let Some((captured, fx)) = landing(l, side, occ, rules.collectable) else {
            return;
        };
        if self.stamp[t.index()] == self.epoch {
            let i = self.slot[t.index()] as usize;
            out.moves[i].capturing_leg |= capleg;
            return;
        }
        // Option and capture counts stay far below `u32::MAX` (a few per cell).
        #[allow(clippy::cast_possible_truncation)]
        let i = out.moves.len() as u32;
        self.stamp[t.index()] = self.epoch;
        self.slot[t.index()] = i;
        #[allow(clippy::cast_possible_truncation)]
        let start = out.captures.len() as u32;
        if captured {
            out.captures.push(t);
        }
        out.moves.push(MoveOption {
            to: t,
            cap_start: start,
            cap_len: u32::from(captured),
            stone: fx,
            capturing_leg: capleg,
        });
    }

    /// A program whose every path has at most one leg (for a range, two), run straight on the
    /// position (no copy of the board, no visited set): the same options, range or attack
    /// answer as the general interpreter, in the same order. Only the cells the path has been
    /// on are closed to it, and the origin counts as empty.
    #[allow(clippy::too_many_arguments)]
    fn single_leg(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        prog: &Program,
        mode: Mode,
        out: &mut Options,
    ) {
        self.next_epoch(pos.cells.len());
        self.caps.clear();
        self.prev.clear();
        self.fps.clear();
        let cx = Direct::new(rules, pos, prog, side, from, from, mode);
        if mode == Mode::Range {
            self.direct_ops::<true>(&cx, out, 0, from, 0, false, StoneEffect::None, false);
        } else {
            self.direct_ops::<false>(&cx, out, 0, from, 0, false, StoneEffect::None, false);
        }
    }

    /// Starts a new round of `stamp` marks (sized for `n` cells).
    fn next_epoch(&mut self, n: usize) {
        if self.stamp.len() != n {
            self.stamp = vec![0; n];
            self.slot = vec![0; n];
            self.epoch = 0;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
    }

    /// Runs the ops of a program from `pc` on `cur`, after `legs` legs (the last landed on an
    /// occupant if `term`; `fx` and `capleg` are its landing's). `RANGE`: the run is for a
    /// placement range, where a path may have two legs (one copy of the loop each way, the
    /// range's kept lean); else one.
    #[allow(clippy::too_many_arguments)]
    fn direct_ops<const RANGE: bool>(
        &mut self,
        cx: &Direct<'_>,
        out: &mut Options,
        mut pc: usize,
        cur: Cell,
        legs: u8,
        term: bool,
        fx: StoneEffect,
        capleg: bool,
    ) {
        loop {
            if self.found {
                return;
            }
            match cx.prog.ops[pc] {
                Op::Emit(l) | Op::EmitFrom(l, _) => {
                    if let Op::EmitFrom(_, r) = cx.prog.ops[pc]
                        && !cx.regions[r.index()].cells[cx.side].contains(cur)
                    {
                        pc += 1;
                        continue;
                    }
                    let l = &cx.prog.legs[l as usize];
                    if RANGE {
                        cx.leg_landings(l, cur, &mut |t, _| self.range_add(t));
                    } else {
                        cx.leg_landings(l, cur, &mut |t, over| {
                            self.direct_land(cx, out, l, t, over, None);
                        });
                    }
                    pc += 1;
                }
                Op::Leg(l) => {
                    let l = &cx.prog.legs[l as usize];
                    if RANGE && legs < 2 && !term {
                        cx.leg_landings(l, cur, &mut |t, _| {
                            let term = !cx.occ(t).is_empty();
                            self.direct_ops::<true>(
                                cx,
                                out,
                                pc + 1,
                                t,
                                legs + 1,
                                term,
                                StoneEffect::None,
                                false,
                            );
                        });
                    } else if !RANGE && legs == 0 {
                        // One leg per path: after it only region tests and the accept remain.
                        cx.leg_landings(l, cur, &mut |t, over| {
                            self.direct_land(cx, out, l, t, over, Some(pc + 1));
                        });
                    }
                    return;
                }
                Op::Split(a, b) | Op::Greedy(a, b, _) => {
                    self.direct_ops::<RANGE>(cx, out, a as usize, cur, legs, term, fx, capleg);
                    pc = b as usize;
                }
                Op::Mark(_) => pc += 1,
                Op::Goto(t) => pc = t as usize,
                Op::At(r) => {
                    if !cx.regions[r.index()].cells[cx.side].contains(cur) {
                        return;
                    }
                    pc += 1;
                }
                Op::Accept => {
                    if legs > 0 {
                        if RANGE {
                            self.range_add(cur);
                        } else {
                            self.direct_accept(cx, out, cur, fx, capleg);
                        }
                    }
                    return;
                }
                Op::End => return,
            }
        }
    }

    /// A landing of a single-leg program on `t` (after passing `over`, a hop's screen or a
    /// jumped cell, or `NO_CELL`): what `land_over` and `land` decide for it (not in a range,
    /// where nothing is captured and every landing counts).
    fn direct_land(
        &mut self,
        cx: &Direct<'_>,
        out: &mut Options,
        l: &LegCode,
        t: Cell,
        over: Cell,
        next: Option<usize>,
    ) {
        if self.found {
            return;
        }
        let Some((captured, fx)) = landing(l, cx.side, cx.occ(t), cx.collectable) else {
            return;
        };
        let taken = l.take
            && over != NO_CELL
            && (matches!(cx.occ(over).as_piece(), Some((s, _)) if s != cx.side)
                || cx.occ(over).as_neutral().is_some());
        let before = self.caps.len();
        if taken {
            self.caps.push(over);
        }
        if captured {
            self.caps.push(t);
        }
        let capleg = l.can_capture();
        match next {
            None => self.direct_accept(cx, out, t, fx, capleg),
            Some(pc) => self.direct_ops::<false>(cx, out, pc, t, 1, false, fx, capleg),
        }
        self.caps.truncate(before);
    }

    /// What `accept` does with a complete path of a single-leg program.
    fn direct_accept(
        &mut self,
        cx: &Direct<'_>,
        out: &mut Options,
        to: Cell,
        fx: StoneEffect,
        capleg: bool,
    ) {
        match cx.mode {
            Mode::Range => self.range_add(to),
            Mode::Attack => {
                self.found |= match self.goal {
                    Goal::Cell(c) => self.caps.contains(&c),
                    Goal::None => false,
                };
            }
            Mode::Moves => self.add_option(out, to, fx, capleg),
        }
    }

    #[inline]
    fn range_add(&mut self, t: Cell) {
        let i = t.index();
        if self.stamp[i] != self.epoch {
            self.stamp[i] = self.epoch;
            self.range.push(t);
        }
    }

    /// Whether a path may not enter `c`: a cell visited before, or for a free walk only the
    /// origin.
    #[inline]
    fn is_visited(&self, cx: &Ctx<'_>, c: Cell) -> bool {
        if c == cx.origin {
            // The origin is open only to a chain that may end there (`chain-ends-home`):
            // revisits never reopen it, so that a maximal chain is not held to a return it
            // could not end with.
            if self.home_open(cx) {
                return false;
            }
            if !self.free {
                return true;
            }
        }
        if self.free {
            !cx.revisit && c == cx.origin
        } else {
            let v = self.visited[c.index()];
            // With revisits, a cell is closed only until the path takes another piece.
            v != 0 && (!cx.revisit || v as usize == self.caps.len() + 1)
        }
    }

    #[inline]
    fn stopping(&self) -> bool {
        self.found || self.halt
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        cx: &Ctx<'_>,
        out: &mut Options,
        mut pc: usize,
        cur: Cell,
        term: bool,
        fx: StoneEffect,
        capleg: bool,
    ) {
        if self.walking {
            let id = self.walk_id;
            let key = self.walk_state(pc, cur, term, fx, capleg);
            if self.seen.insert(key, id) == Some(id) {
                return;
            }
        }
        loop {
            match cx.prog.ops[pc] {
                Op::Emit(l) => {
                    debug_assert!(!term && cur == cx.origin);
                    self.leg(cx, out, &cx.prog.legs[l as usize], cur, None);
                    pc += 1;
                }
                Op::EmitFrom(l, r) => {
                    debug_assert!(!term && cur == cx.origin);
                    if cx.regions[r.index()].cells[cx.side].contains(cur) {
                        self.leg(cx, out, &cx.prog.legs[l as usize], cur, None);
                    }
                    pc += 1;
                }
                Op::Leg(l) => {
                    if !term {
                        self.leg(cx, out, &cx.prog.legs[l as usize], cur, Some(pc + 1));
                    }
                    return;
                }
                Op::Greedy(a, b, m) if !self.walking => {
                    let before = self.marks[m as usize];
                    self.run(cx, out, a as usize, cur, term, fx, capleg);
                    if self.stopping() || self.marks[m as usize] != before {
                        return;
                    }
                    pc = b as usize;
                }
                // A walk explores a superset of the paths, so a maximal repetition both ways.
                Op::Split(a, b) | Op::Greedy(a, b, _) => {
                    self.run(cx, out, a as usize, cur, term, fx, capleg);
                    if self.stopping() {
                        return;
                    }
                    pc = b as usize;
                }
                Op::Mark(m) => {
                    let k = &mut self.marks[m as usize];
                    *k = k.wrapping_add(1);
                    pc += 1;
                }
                Op::Goto(t) => pc = t as usize,
                Op::At(r) => {
                    if !cx.regions[r.index()].cells[cx.side].contains(cur) {
                        return;
                    }
                    pc += 1;
                }
                Op::Accept => {
                    self.accept(cx, out, cur, fx, capleg);
                    return;
                }
                Op::End => return,
            }
        }
    }

    fn leg(
        &mut self,
        cx: &Ctx<'_>,
        out: &mut Options,
        l: &LegCode,
        cur: Cell,
        next: Option<usize>,
    ) {
        // The walk reads the board as it stands; each landing is then explored (which changes
        // the board and the visited cells only until it returns). Buffers per depth of
        // recursion: a landing's exploration may walk further legs.
        let depth = self.walk_depth_buffers;
        self.walk_depth_buffers += 1;
        if self.landings.len() <= depth {
            self.landings.push(Vec::new());
        }
        let mut landings = std::mem::take(&mut self.landings[depth]);
        landings.clear();
        walk_leg(
            l,
            cx.side,
            cx.links,
            cur,
            &Path { m: self, cx },
            &mut |t, over| landings.push((t, over)),
        );
        for &(t, over) in &landings {
            if self.stopping() {
                break;
            }
            if over == NO_CELL {
                self.land(cx, out, l, t, next);
            } else {
                self.land_over(cx, out, l, over, t, next);
            }
        }
        self.landings[depth] = landings;
        self.walk_depth_buffers -= 1;
    }

    /// Lands after passing `over`, which the leg captures when it takes and holds an enemy.
    fn land_over(
        &mut self,
        cx: &Ctx<'_>,
        out: &mut Options,
        l: &LegCode,
        over: Cell,
        t: Cell,
        next: Option<usize>,
    ) {
        let taken = l.take
            && cx.mode != Mode::Range
            && (matches!(self.cells[over.index()].as_piece(), Some((s, _)) if s != cx.side)
                || self.cells[over.index()].as_neutral().is_some());
        if taken && !cx.leave_at_once {
            // It stays where it is until the end of the turn: in the way, not to be taken again.
            if self.caps.contains(&over) {
                return;
            }
            self.caps.push(over);
            self.land(cx, out, l, t, next);
            self.caps.pop();
        } else if taken {
            let saved = self.cells[over.index()];
            self.cells[over.index()] = Occupant::EMPTY;
            self.caps.push(over);
            self.land(cx, out, l, t, next);
            self.caps.pop();
            self.cells[over.index()] = saved;
        } else {
            self.land(cx, out, l, t, next);
        }
    }

    /// Called when the landings pass [`Machine::budget`]: whether the run must end (its work
    /// budget spent, or the [`Stop`] in force says stop); else the next look is set.
    #[cold]
    #[inline(never)]
    fn out_of_work(&mut self) -> bool {
        if self.work > self.limit || self.stopped.is_some() {
            return true;
        }
        self.charge_excess();
        if self.stopped.is_some() {
            return true;
        }
        self.budget = self.work.saturating_add(STOP_POLL).min(self.limit);
        false
    }

    /// Charges this run's landings beyond the ordinary that are not charged yet to the stop in
    /// force, and notes whether it says stop.
    #[cold]
    #[inline(never)]
    fn charge_excess(&mut self) {
        let from = self.charged.max(ORDINARY_RUN);
        if self.work > from {
            self.stopped = self.stopped.or(charge_stop(self.work - from));
            self.charged = self.work;
            if self.stopped.is_some() {
                self.halt = true;
            }
        } else if self.stopped.is_none() {
            self.stopped = stop_requested();
        }
    }

    fn land(&mut self, cx: &Ctx<'_>, out: &mut Options, l: &LegCode, t: Cell, next: Option<usize>) {
        if self.is_visited(cx, t) || self.halt || (!cx.leave_at_once && self.caps.contains(&t)) {
            return;
        }
        self.work += 1;
        if self.work > self.budget && self.out_of_work() {
            self.halt = true;
            return;
        }
        let occ = self.cells[t.index()];
        let term = !occ.is_empty();
        let (captured, fx) = if cx.mode == Mode::Range {
            (false, StoneEffect::None)
        } else {
            match landing(l, cx.side, occ, cx.collectable) {
                Some(x) => x,
                None => return,
            }
        };
        if captured {
            self.caps.push(t);
        }
        let capleg = l.can_capture();
        match next {
            None => self.accept(cx, out, t, fx, capleg),
            Some(pc) if self.walking => {
                // A walk may come back to its own cells; `seen` keeps it finite.
                if self.walk_depth >= WALK_DEPTH {
                    self.halt = true;
                } else {
                    self.walk_depth += 1;
                    self.run(cx, out, pc, t, term, fx, capleg);
                    self.walk_depth -= 1;
                }
            }
            Some(pc) => {
                let was = self.visited[t.index()];
                // Captured pieces stay far below `u32::MAX` (see `accept`).
                #[allow(clippy::cast_possible_truncation)]
                {
                    self.visited[t.index()] = self.caps.len() as u32 + 1;
                }
                // A skipped state would not pass the marks of maximal repetitions, so their
                // programs are never pruned (the work budget still bounds them).
                let prune = cx.prog.marks == 0
                    && match self.pruning {
                        Pruning::Auto => self.work > PRUNE_AFTER,
                        Pruning::Always => true,
                        Pruning::Never => false,
                    };
                if !prune || !self.hopeless(cx, out, pc, t, term, fx, capleg) {
                    self.run(cx, out, pc, t, term, fx, capleg);
                }
                self.visited[t.index()] = was;
            }
        }
        if captured {
            self.caps.pop();
        }
    }

    /// The state a walk is keyed by: the op, the cell, the flags and the captured cells
    /// (sorted, so the order they were taken in does not matter).
    fn walk_state(
        &self,
        pc: usize,
        cur: Cell,
        term: bool,
        fx: StoneEffect,
        capleg: bool,
    ) -> WalkState {
        let mut caps = self.caps.clone();
        caps.sort_unstable();
        (pc, cur, term, fx, capleg, caps)
    }

    /// Whether exploring the state can add nothing (see [`Machine::saturated`]): first asked
    /// of a walk that ignores the visited cells (its answer holds for every later arrival at
    /// the same state, so it is remembered), then of one that respects them.
    #[allow(clippy::too_many_arguments)]
    fn hopeless(
        &mut self,
        cx: &Ctx<'_>,
        out: &mut Options,
        pc: usize,
        cur: Cell,
        term: bool,
        fx: StoneEffect,
        capleg: bool,
    ) -> bool {
        let key = self.walk_state(pc, cur, term, fx, capleg);
        if self.dead.contains(&key) {
            return true;
        }
        let results = match cx.mode {
            Mode::Moves => out.moves.len(),
            Mode::Range => self.range.len(),
            Mode::Attack => 0,
        };
        if self.open.get(&key) != Some(&results) {
            self.free = true;
            let dead = self.saturated(cx, out, pc, cur, term, fx, capleg);
            self.free = false;
            if dead {
                self.dead.insert(key);
                return true;
            }
            self.open.insert(key, results);
        }
        self.saturated(cx, out, pc, cur, term, fx, capleg)
    }

    /// Whether exploring the state (`pc` on `cur`, the current board and visited cells) can
    /// add nothing: a walk from it that ignores its own revisits (so it reaches every result a
    /// real path could, and maybe more) finds only results already known. Found by running the
    /// program in walking mode, which stops at the first unknown result.
    #[allow(clippy::too_many_arguments)]
    fn saturated(
        &mut self,
        cx: &Ctx<'_>,
        out: &mut Options,
        pc: usize,
        cur: Cell,
        term: bool,
        fx: StoneEffect,
        capleg: bool,
    ) -> bool {
        self.walking = true;
        self.walk_depth = 0;
        self.walk_id = self.walk_id.wrapping_add(1);
        if self.walk_id == 0 {
            self.seen.clear();
            self.walk_id = 1;
        }
        self.run(cx, out, pc, cur, term, fx, capleg);
        self.walking = false;
        let budget_spent = self.work > self.limit || self.stopped.is_some();
        let open = self.halt;
        self.halt = budget_spent;
        !open
    }

    /// Whether a walk's result is already among the options (for a capturing leg, with its
    /// mark); in attack mode, whether it misses the goal.
    fn known(&mut self, cx: &Ctx<'_>, out: &Options, to: Cell, capleg: bool) -> bool {
        match cx.mode {
            Mode::Attack => !self.hits_goal(),
            Mode::Range => self.stamp[to.index()] == self.epoch,
            Mode::Moves => {
                self.sort_caps();
                self.find(out, to)
                    .is_some_and(|i| out.moves[i].capturing_leg || !capleg)
            }
        }
    }

    /// Whether the path ending on `to` captures what the attack query looks for.
    fn hits_goal(&self) -> bool {
        match self.goal {
            Goal::Cell(c) => self.caps.contains(&c),
            Goal::None => false,
        }
    }

    /// Copies the captured cells, sorted, into `sorted`, and their fingerprint into `fp`.
    fn sort_caps(&mut self) {
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.caps);
        self.sorted.sort_unstable();
        self.fp = self.sorted.iter().fold(self.sorted.len() as u64, |h, &c| {
            (h ^ c.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
    }

    /// The option that lands on `to` capturing exactly `sorted`, if found already.
    fn find(&self, out: &Options, to: Cell) -> Option<usize> {
        if self.stamp[to.index()] != self.epoch {
            return None;
        }
        let mut i = self.slot[to.index()];
        while i != u32::MAX {
            let m = &out.moves[i as usize];
            if self.fps[i as usize] == self.fp && out.captures(m) == &self.sorted[..] {
                return Some(i as usize);
            }
            i = self.prev[i as usize];
        }
        None
    }

    /// Whether the origin is open to the path (`chain-ends-home`: it has taken a piece).
    #[inline]
    fn home_open(&self, cx: &Ctx<'_>) -> bool {
        cx.home && !self.caps.is_empty()
    }

    fn accept(&mut self, cx: &Ctx<'_>, out: &mut Options, to: Cell, fx: StoneEffect, capleg: bool) {
        if to == cx.origin && !self.home_open(cx) {
            return;
        }
        if self.walking {
            if !self.known(cx, out, to, capleg) {
                self.halt = true;
            }
            return;
        }
        if cx.mode == Mode::Attack {
            self.found |= self.hits_goal();
            return;
        }
        if cx.mode == Mode::Range {
            if self.stamp[to.index()] != self.epoch {
                self.stamp[to.index()] = self.epoch;
                self.range.push(to);
            }
            return;
        }
        self.add_option(out, to, fx, capleg);
    }

    /// Adds the option of a path ending on `to` with the captures in `caps`, or merges it into
    /// the option with the same destination and captures.
    fn add_option(&mut self, out: &mut Options, to: Cell, fx: StoneEffect, capleg: bool) {
        self.sort_caps();
        if let Some(i) = self.find(out, to) {
            out.moves[i].capturing_leg |= capleg;
            return;
        }
        // Options with the same destination are chained, newest first.
        // Counts of options and captured cells stay below the work budget (3,000,000 landings
        // by default), far inside `u32`.
        #[allow(clippy::cast_possible_truncation)]
        let i = out.moves.len() as u32;
        self.prev.push(if self.stamp[to.index()] == self.epoch {
            self.slot[to.index()]
        } else {
            u32::MAX
        });
        self.fps.push(self.fp);
        self.stamp[to.index()] = self.epoch;
        self.slot[to.index()] = i;
        #[allow(clippy::cast_possible_truncation)] // as above
        let start = out.captures.len() as u32;
        out.captures.extend_from_slice(&self.sorted);
        out.moves.push(MoveOption {
            to,
            cap_start: start,
            cap_len: u32::try_from(self.sorted.len()).unwrap_or(u32::MAX),
            stone: fx,
            capturing_leg: capleg,
        });
    }
}

/// The board as a path of the general interpreter sees it: the machine's copy of the cells
/// (pieces taken at once removed), its visited cells, and the pieces taken that stay until the
/// end of the turn.
struct Path<'a> {
    m: &'a Machine,
    cx: &'a Ctx<'a>,
}

impl Board for Path<'_> {
    #[inline]
    fn occ(&self, c: Cell) -> Occupant {
        self.m.cells[c.index()]
    }

    #[inline]
    fn closed(&self, c: Cell) -> bool {
        self.m.is_visited(self.cx, c)
    }

    #[inline]
    fn jump_closed(&self, c: Cell) -> bool {
        !self.cx.leave_at_once && self.m.caps.contains(&c)
    }
}

/// The board as a path of a short program read straight from the position sees it, from
/// `cur` (see [`Direct::occ`] and [`Direct::visited`]).
struct DirectFrom<'a> {
    cx: &'a Direct<'a>,
    cur: Cell,
}

impl Board for DirectFrom<'_> {
    #[inline]
    fn occ(&self, c: Cell) -> Occupant {
        self.cx.occ(c)
    }

    #[inline]
    fn closed(&self, c: Cell) -> bool {
        self.cx.visited(self.cur, c)
    }
}

/// A single-leg program run straight on the position (see [`Machine::single_leg`]).
struct Direct<'a> {
    prog: &'a Program,
    links: &'a LinkTable,
    regions: &'a [Region],
    cells: &'a [Occupant],
    collectable: Filter,
    side: Side,
    origin: Cell,
    /// A cell read as empty (a piece has just left it), or the origin.
    vacated: Cell,
    mode: Mode,
}

impl<'a> Direct<'a> {
    fn new(
        rules: &'a Ruleset,
        pos: &'a Position,
        prog: &'a Program,
        side: Side,
        origin: Cell,
        vacated: Cell,
        mode: Mode,
    ) -> Direct<'a> {
        Direct {
            prog,
            links: &rules.links,
            regions: &rules.regions,
            cells: &pos.cells,
            collectable: rules.collectable,
            side,
            origin,
            vacated,
            mode,
        }
    }

    /// What stands on `c` for the path: the origin and the vacated cell are empty (the piece
    /// has left them).
    #[inline]
    fn occ(&self, c: Cell) -> Occupant {
        if c == self.origin || c == self.vacated {
            Occupant::EMPTY
        } else {
            self.cells[c.index()]
        }
    }

    /// Whether a path from `cur` may not enter `c`: it has been there (a path of at most two
    /// legs has been on the origin and on `cur` only).
    #[inline]
    fn visited(&self, cur: Cell, c: Cell) -> bool {
        c == cur || c == self.origin
    }

    /// Every cell the leg may land on from `cur` (the origin, or the first leg's landing),
    /// with the cell passed over (see [`walk_leg`]); no cell of the path is landed on again.
    #[inline]
    fn leg_landings(&self, l: &LegCode, cur: Cell, land: &mut impl FnMut(Cell, Cell)) {
        walk_leg(
            l,
            self.side,
            self.links,
            cur,
            &DirectFrom { cx: self, cur },
            land,
        );
    }
}

/// An attack query of a plain program (see [`Program::plain`]): whether some landing captures
/// the goal, the same answer as running it in attack mode.
fn plain_attack(
    rules: &Ruleset,
    pos: &Position,
    from: Cell,
    side: Side,
    prog: &Program,
    goal: Goal,
) -> bool {
    match goal {
        Goal::Cell(target) => plain_attack_cell(rules, pos, from, side, prog, target),
        Goal::None => false,
    }
}

/// Whether the plain program of a piece of `side` on `from` captures on `target`: what
/// [`plain_landings`] would find, with each ride walked only along the vector that points at
/// the target (plain vectors are the same offset from every cell).
fn plain_attack_cell(
    rules: &Ruleset,
    pos: &Position,
    from: Cell,
    side: Side,
    prog: &Program,
    target: Cell,
) -> bool {
    let links = &rules.links;
    let board = Cells(&pos.cells);
    let ((ff, fr), (tf, tr)) = (rules.topo.coord(from), rules.topo.coord(target));
    let (df, dr) = (tf - ff, tr - fr);
    let captures = |l: &LegCode| {
        matches!(
            landing(l, side, pos.cells[target.index()], rules.collectable),
            Some((true, _))
        )
    };
    for l in emitted_legs(rules, prog, side, from).filter(|l| l.can_capture()) {
        for &v in &l.vecs[side] {
            if l.kind != LegKind::Ride {
                if links.link(v, from) == target && captures(l) {
                    return true;
                }
                continue;
            }
            // The target `k` times the vector away, the cells before it passable.
            let (vf, vr) = links.vector(v);
            let (vf, vr) = (i32::from(vf), i32::from(vr));
            let k = if vf != 0 {
                df / vf
            } else if vr != 0 {
                dr / vr
            } else {
                0
            };
            if k < 1 || k * vf != df || k * vr != dr {
                continue;
            }
            let k = k.unsigned_abs();
            if k < l.min || k > l.max {
                continue;
            }
            // The ride stops at the first cell it may not pass: it reaches the target only
            // when the cells before it are passable.
            let mut ride = Ride::of(l, links, &board, side, v, from);
            while let Some(c) = ride.next() {
                if c == target {
                    if captures(l) {
                        return true;
                    }
                    break;
                }
                if ride.distance() >= k {
                    break;
                }
            }
        }
    }
    false
}

/// The legs of the leading `emit` ops of a program that run for a piece of `side` on `from`
/// (those behind a region test only when `from` is in the region), in program order.
fn emitted_legs<'p>(
    rules: &'p Ruleset,
    prog: &'p Program,
    side: Side,
    from: Cell,
) -> impl Iterator<Item = &'p LegCode> {
    prog.ops
        .iter()
        .map_while(|op| match *op {
            Op::Emit(l) => Some((l, None)),
            Op::EmitFrom(l, r) => Some((l, Some(r))),
            _ => None,
        })
        .filter(move |&(_, r)| {
            r.is_none_or(|r| rules.regions[r.index()].cells[side].contains(from))
        })
        .map(|(l, _)| &prog.legs[l as usize])
}

/// Every landing of a plain program from `from`, in program order: `f` gets the leg, the cell
/// and what stands there.
fn plain_landings(
    rules: &Ruleset,
    pos: &Position,
    from: Cell,
    side: Side,
    prog: &Program,
    mut f: impl FnMut(&LegCode, Cell, Occupant),
) {
    let board = Cells(&pos.cells);
    for l in emitted_legs(rules, prog, side, from) {
        walk_leg(l, side, &rules.links, from, &board, &mut |t, _| {
            f(l, t, pos.cells[t.index()]);
        });
    }
}

/// What a leg landing on a cell holding `occ` does, for a piece of `side`: `None` when it may
/// not land there; else whether it captures the piece there and what it does to a stone there
/// (collect it, when `collectable` says so, or destroy it, when the leg may).
#[inline]
fn landing(
    l: &LegCode,
    side: Side,
    occ: Occupant,
    collectable: Filter,
) -> Option<(bool, StoneEffect)> {
    if occ.is_empty() {
        return (l.capture != CaptureMode::Only).then_some((false, StoneEffect::None));
    }
    if let Some((s, _)) = occ.as_piece() {
        let may =
            s != side && l.capture != CaptureMode::MoveOnly && l.victims.has(occ.bit_for(side));
        return may.then_some((true, StoneEffect::None));
    }
    if occ.as_neutral().is_some() {
        // A neutral piece: every side's enemy.
        let may = l.capture != CaptureMode::MoveOnly && l.victims.has(occ.bit_for(side));
        return may.then_some((true, StoneEffect::None));
    }
    if let Some(k) = occ.as_stone() {
        let b = Filter::stone_bit(k);
        if l.capture == CaptureMode::Only {
            return None;
        }
        return if collectable.has(b) {
            Some((false, StoneEffect::Collect(k)))
        } else if l.destroy.has(b) {
            Some((false, StoneEffect::Destroy(k)))
        } else {
            None
        };
    }
    Some((false, StoneEffect::None))
}

#[cfg(test)]
mod tests {
    use super::repeated_parts;

    #[test]
    fn the_repeated_part_of_a_definition_is_named() {
        assert_eq!(
            repeated_parts("(leap(knight) | step(all))+"),
            ["(leap(knight) | step(all))+"]
        );
        assert_eq!(
            repeated_parts("step(all) (jump(all) over(enemy) take)*"),
            ["(jump(all) over(enemy) take)*"]
        );
        assert_eq!(
            repeated_parts("(leap(knight) capture){1,}"),
            ["(leap(knight) capture){1,}"]
        );
        assert_eq!(repeated_parts("( spy-jump )+"), ["( spy-jump )+"]);
        assert_eq!(repeated_parts("step(all)+"), ["step(all)+"]);
        assert!(repeated_parts("ride(all) capture").is_empty());
        assert!(repeated_parts("(step(all)){1,4}").is_empty());
    }
}
