//! The interpreter: runs a compiled [`Program`] for the piece on one cell of a position and
//! collects its movement options (one per effect, RULINGS B-17) or its placement range.
//!
//! Legs walk the link tables (each kind's walk is `compile::walk`); chains backtrack with an
//! explicit visited set (no cell twice, origin included) and remove captured pieces at once. A
//! landing on an occupied cell ends the path: only an `accept` may follow it.
//!
//! One file per way of running a program: `general` (the interpreter, chains and all),
//! `prune` (the walk that skips hopeless chain states), `direct` (programs of one leg per
//! path read straight from the position), `plain` (pieces whose every leg lands on its own),
//! and `budget` (the work budget of a run, the stop and budget of a whole command). Each of
//! them is generic over the question it answers, a `sink` (the options, the range, an attack's
//! answer), so each is compiled once per question.

mod budget;
mod direct;
mod general;
mod plain;
mod prune;
mod sink;

pub use budget::{
    COMMAND_BUDGET, Halt, ORDINARY_RUN, PROBE_BUDGET, Runaway, Stop, WORK_BUDGET, repeated_parts,
};

use crate::board::{Cell, LinkTable, Side};
use crate::compile::{CaptureMode, Filter, LegCode, Program};
use crate::core::{PieceKindId, StoneKindId};
use crate::position::{Occupant, Position};
use crate::rules::{Region, Ruleset};
use budget::Work;
use direct::Direct;
use prune::Walk;
use sink::{Attack, Moves, Range, Sink};

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

struct Ctx<'a> {
    prog: &'a Program,
    links: &'a LinkTable,
    regions: &'a [Region],
    collectable: Filter,
    side: Side,
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
    /// The caller takes the options in any order (it counts them): the repetitions of
    /// [`Program::closures`] are explored cell by cell, not path by path.
    any_order: bool,
    /// The run's landings and budgets (see `budget`).
    work: Work,
    /// Whether the run ends now: its budget is spent, it was stopped, or a walk met an unknown
    /// result.
    halt: bool,
    /// The pruning walk's state (see `prune`).
    walk: Walk,
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
    /// Per mark of a maximal repetition: how many times a path passed it in this run.
    marks: Vec<u32>,
    /// The landings of the legs being explored, one buffer per depth of recursion.
    landings: Vec<Vec<(Cell, Cell)>>,
    walk_depth_buffers: usize,
    /// A closure's cells still to leave from, each with its `visited` mark before (see
    /// `general`).
    queue: Vec<(Cell, u32)>,
}

/// Whether leg `l` of a piece of `side` takes what it passes over when that is `occ` (a jump's
/// jumped cell or a hop's screen): it must `take`, and `occ` must be an enemy or neutral piece.
#[inline]
fn takes(l: &LegCode, side: Side, occ: Occupant) -> bool {
    l.take && (matches!(occ.as_piece(), Some((s, _)) if s != side) || occ.as_neutral().is_some())
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

/// What a landing on a cell holding `occ` does where some leg may land there (the part of the
/// interpreter's landing test that does not depend on the leg): it captures a piece
/// (an enemy or neutral one: a leg never lands on its own side's), collects a stone that
/// `collectable` names, and destroys any other stone (a leg lands on one only where it may
/// destroy it).
#[inline]
pub fn landed_on(occ: Occupant, collectable: Filter) -> (bool, StoneEffect) {
    match occ.as_stone() {
        Some(k) if collectable.has(Filter::stone_bit(k)) => (false, StoneEffect::Collect(k)),
        Some(k) => (false, StoneEffect::Destroy(k)),
        None => (!occ.is_empty(), StoneEffect::None),
    }
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
            walk: Walk {
                pruning,
                ..Walk::default()
            },
            ..Machine::default()
        }
    }

    /// Puts the machine under `stop` (or under none): its long runs look at it, and its work
    /// budget is the stop's (see [`Stop`]). It takes effect from the next run.
    pub fn set_stop(&mut self, stop: Option<std::sync::Arc<Stop>>) {
        self.work.stop = stop;
        // Read the work budget again at the next run.
        self.work.limit = 0;
    }

    /// The stop this machine works under, if any.
    pub fn stop(&self) -> Option<&std::sync::Arc<Stop>> {
        self.work.stop.as_ref()
    }

    /// Whether the caller takes the options of a run in any order (it only counts them): the
    /// repetitions of one leg that end a program ([`Program::closures`], a chain of jumps that
    /// may stop after any jump) are then explored cell by cell, each landed on once, instead of
    /// path by path. The same options, in another order. Off by default, and never for
    /// [`Machine::general_only`].
    pub fn set_any_order(&mut self, any: bool) {
        self.any_order = any && !self.general_only;
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

    /// The movement options of the piece on `from`, for its own side. Empty if no piece.
    pub fn moves(&mut self, rules: &Ruleset, pos: &Position, from: Cell, out: &mut Options) {
        out.clear();
        out.from = from;
        if let Some((side, kind)) = pos.at(from).as_piece() {
            self.run_as(rules, pos, from, side, kind, &mut Moves(out));
        }
    }

    /// The placement range of the piece on `from` (RULINGS B-41): every cell one of its range
    /// paths could end on if that cell were empty. Cells in index order.
    pub fn range(&mut self, rules: &Ruleset, pos: &Position, from: Cell) -> &[Cell] {
        self.range.clear();
        if let Some((side, kind)) = pos.at(from).as_piece() {
            self.run_as(rules, pos, from, side, kind, &mut Range);
        }
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
        self.next_epoch(pos.cells().len());
        let cx = Direct::new(rules, pos, prog, side, at, vacated);
        self.direct_ops(&cx, &mut Range, 0, at, 0, false, StoneEffect::None, false);
        Some(&self.range)
    }

    /// Whether a piece of `kind` playing for `side` on `from` could capture on `target` by the
    /// geometry of its legs alone (what stands between not asked): false means
    /// [`Machine::captures_cell`] says no without a run. Always true for the general
    /// interpreter (which asks no table).
    #[inline]
    pub fn may_capture(
        &self,
        rules: &Ruleset,
        side: Side,
        kind: PieceKindId,
        from: Cell,
        target: Cell,
    ) -> bool {
        self.general_only
            || rules.attack_reach().could_capture(
                kind,
                side,
                rules.topo.offset_key(from),
                rules.topo.offset_key(target),
            )
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
        if !self.may_capture(rules, side, kind, from, target) {
            return false;
        }
        let mut attack = Attack {
            target,
            found: false,
        };
        self.run_as(rules, pos, from, side, kind, &mut attack);
        attack.found
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
        self.run_as(rules, pos, from, side, kind, &mut Moves(out));
    }

    /// Runs the program of the piece of `kind` playing for `side` on `from` that answers
    /// `sink`'s question, by the quickest way that gives the general interpreter's answer.
    fn run_as<S: Sink>(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        kind: PieceKindId,
        sink: &mut S,
    ) {
        if self.runaway.is_some() {
            return;
        }
        let prog = S::program(&rules.pieces[kind.index()]);
        if prog.plain && !self.general_only && sink.plain(self, rules, pos, from, side, prog) {
            return;
        }
        // Straight on the position: one leg per path; for a range (nothing is taken on the
        // way), two.
        let direct = prog.single_leg || (S::RANGE && prog.max_legs <= 2);
        if direct && prog.marks == 0 && !self.general_only {
            self.single_leg(rules, pos, from, side, prog, sink);
            return;
        }
        // The single legs in front of the chains are read straight from the position; the
        // chains run only where one of their first legs can land.
        let pc = if self.general_only {
            0
        } else {
            self.fresh_options(pos.cells().len());
            let pc = self.direct_emits(rules, pos, from, side, prog, sink);
            if sink.done() || !direct::may_enter(S::RANGE, rules, pos, from, side, prog) {
                return;
            }
            pc
        };
        self.run_from(rules, pos, (from, side, kind), prog, pc, sink);
    }

    /// The movement options of the piece on `from` whose paths begin at op `pc` of its
    /// program, after the `emit` ops it begins with (`pc` their number, see
    /// [`crate::compile::ranges::LeadForm`]): the options of its chains, each once, none
    /// merged with an emit's (the caller has those). With `check_entry`, none where no leg a
    /// chain may begin with can land (the caller has not found out).
    pub fn chain_moves(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (from, pc): (Cell, usize),
        check_entry: bool,
        out: &mut Options,
    ) {
        out.clear();
        out.from = from;
        let Some((side, kind)) = pos.at(from).as_piece() else {
            return;
        };
        let prog = &rules.pieces[kind.index()].moves;
        if self.runaway.is_some()
            || check_entry && !direct::may_enter(false, rules, pos, from, side, prog)
        {
            return;
        }
        self.fresh_options(pos.cells().len());
        self.run_from(rules, pos, (from, side, kind), prog, pc, &mut Moves(out));
    }

    /// The general interpreter's run of `prog` for the piece of `kind` playing for `side` on
    /// `from`, from op `pc` (options found before it are kept: see [`Machine::prepare`]).
    fn run_from<S: Sink>(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (from, side, kind): (Cell, Side, PieceKindId),
        prog: &Program,
        pc: usize,
        sink: &mut S,
    ) {
        self.prepare(pos, from, self.general_only);
        self.marks.clear();
        self.marks.resize(usize::from(prog.marks), 0);
        let cx = Ctx {
            prog,
            links: &rules.links,
            regions: &rules.regions,
            collectable: rules.collectable(),
            side,
            origin: from,
            leave_at_once: !rules.turn.captured_leave_at_end,
            revisit: rules.turn.revisit_after_capture,
            home: rules.turn.home_after_capture,
        };
        self.run(&cx, sink, general::At::start(from).to(pc));
        if self.work.landings > ORDINARY_RUN {
            self.charge_excess();
        }
        if self.halt && self.runaway.is_none() {
            // Only the budget or a stop leaves `halt` set after a run.
            let halt = self.work.stopped.unwrap_or(Halt::Budget);
            self.runaway = Some(Runaway {
                kind,
                side,
                cell: from,
                halt,
                limit: budget::limit_of(halt, self.work.limit, self.work.stop.as_deref()),
            });
        }
        self.halt = false;
    }

    /// Starts a new round of options: no captured cells, no options or range cells known
    /// (sized for `n` cells).
    fn fresh_options(&mut self, n: usize) {
        self.range.clear();
        self.caps.clear();
        self.prev.clear();
        self.fps.clear();
        self.next_epoch(n);
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
}
