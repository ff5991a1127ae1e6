//! The general interpreter: every program, chains and all, on a copy of the board, path by
//! path.

use super::budget::{STOP_POLL, STOP_POLL_RUNS, look_at_stop};
use super::prune::WALK_DEPTH;
use super::sink::Sink;
use super::{Ctx, Machine, MoveOption, Options, PRUNE_AFTER, Pruning, StoneEffect, landing, takes};
use crate::board::{Cell, NO_CELL};
use crate::compile::walk::{Board, walk_leg};
use crate::compile::{Closure, LegCode, Op};
use crate::position::{Occupant, Position};

/// The board as a path of the general interpreter sees it: the machine's copy of the cells
/// (pieces taken at once removed), its visited cells, and the pieces taken that stay until the
/// end of the turn.
pub(super) struct Path<'a> {
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

/// Where a run of the general interpreter stands: the op it runs next, the cell its path is
/// on, whether the path's last leg ended on an occupant (`term`), that landing's stone
/// effect, and whether a capturing leg led here (`capleg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct At {
    pub(super) pc: usize,
    pub(super) cur: Cell,
    pub(super) term: bool,
    pub(super) fx: StoneEffect,
    pub(super) capleg: bool,
}

impl At {
    /// The same state at op `pc`.
    #[inline]
    pub(super) fn to(self, pc: usize) -> At {
        At { pc, ..self }
    }

    /// The start of a program on `from`.
    pub(super) fn start(from: Cell) -> At {
        At {
            pc: 0,
            cur: from,
            term: false,
            fx: StoneEffect::None,
            capleg: false,
        }
    }
}

impl Machine {
    /// Sets the machine up for a run of the general interpreter from `from`: the board copied,
    /// the visited cells, the work counters; with `fresh`, a new round of options too (without
    /// it, the options the leading `emit` ops have listed stay known, for merging).
    pub(super) fn prepare(&mut self, pos: &Position, from: Cell, fresh: bool) {
        let n = pos.cells().len();
        self.work.landings = 0;
        self.work.stopped = None;
        self.work.charged = 0;
        self.halt = false;
        // Many short runs make long work too: at the first run and every so many runs after
        // it, a look at the stop (and the work budget it sets).
        self.work.runs = self.work.runs.wrapping_add(1);
        if self.work.limit == 0 || self.work.runs.is_multiple_of(STOP_POLL_RUNS) {
            let (stopped, limit) = look_at_stop(self.work.stop.as_deref());
            self.work.stopped = stopped;
            self.halt = stopped.is_some();
            self.work.limit = limit;
        }
        self.work.next_look = self.work.limit.min(STOP_POLL);
        if !self.walk.dead.is_empty() || !self.walk.open.is_empty() || !self.walk.seen.is_empty() {
            self.walk.dead.clear();
            self.walk.open.clear();
            self.walk.seen.clear();
        }
        self.cells.clear();
        self.cells.extend_from_slice(pos.cells());
        self.cells[from.index()] = Occupant::EMPTY;
        self.visited.clear();
        self.visited.resize(n, 0);
        self.visited[from.index()] = 1;
        if fresh {
            self.fresh_options(n);
        }
    }

    /// Whether a path may not enter `c`: a cell visited before, or for a free walk only the
    /// origin.
    #[inline]
    pub(super) fn is_visited(&self, cx: &Ctx<'_>, c: Cell) -> bool {
        if c == cx.origin {
            // The origin is open only to a chain that may end there (`chain-ends-home`):
            // revisits never reopen it, so that a maximal chain is not held to a return it
            // could not end with.
            if self.home_open(cx) {
                return false;
            }
            if !self.walk.free {
                return true;
            }
        }
        if self.walk.free {
            !cx.revisit && c == cx.origin
        } else {
            let v = self.visited[c.index()];
            // With revisits, a cell is closed only until the path takes another piece.
            v != 0 && (!cx.revisit || v as usize == self.caps.len() + 1)
        }
    }

    /// Whether the run ends now: its budget is spent or stopped, or the sink has its answer.
    #[inline]
    pub(super) fn stopping<S: Sink>(&self, sink: &S) -> bool {
        self.halt || sink.done()
    }

    pub(super) fn run<S: Sink>(&mut self, cx: &Ctx<'_>, sink: &mut S, at: At) {
        let At {
            mut pc,
            cur,
            term,
            fx,
            capleg,
        } = at;
        if self.walk.on {
            let id = self.walk.id;
            let key = self.walk_state(at);
            if self.walk.seen.insert(key, id) == Some(id) {
                return;
            }
        }
        loop {
            match cx.prog.ops[pc] {
                Op::Emit(l) => {
                    debug_assert!(!term && cur == cx.origin);
                    self.leg(cx, sink, &cx.prog.legs[l as usize], cur, None);
                    pc += 1;
                }
                Op::EmitFrom(l, r) => {
                    debug_assert!(!term && cur == cx.origin);
                    if cx.regions[r.index()].cells[cx.side].contains(cur) {
                        self.leg(cx, sink, &cx.prog.legs[l as usize], cur, None);
                    }
                    pc += 1;
                }
                Op::Leg(l) => {
                    if term {
                        return;
                    }
                    match self.closure_at(cx, pc) {
                        Some(c) => self.closure(cx, sink, c, at.to(pc)),
                        None => self.leg(cx, sink, &cx.prog.legs[l as usize], cur, Some(pc + 1)),
                    }
                    return;
                }
                Op::Split(..) if self.closure_at(cx, pc).is_some() => {
                    if let Some(c) = self.closure_at(cx, pc) {
                        self.closure(cx, sink, c, at.to(pc));
                    }
                    return;
                }
                Op::Greedy(a, b, m) if !self.walk.on => {
                    let before = self.marks[m as usize];
                    self.run(cx, sink, at.to(a as usize));
                    if self.stopping(sink) || self.marks[m as usize] != before {
                        return;
                    }
                    pc = b as usize;
                }
                // A walk explores a superset of the paths, so a maximal repetition both ways.
                Op::Split(a, b) | Op::Greedy(a, b, _) => {
                    self.run(cx, sink, at.to(a as usize));
                    if self.stopping(sink) {
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
                    self.accept(cx, sink, cur, fx, capleg);
                    return;
                }
                Op::End => return,
            }
        }
    }

    /// The closure of [`Program::closures`] at op `pc`, where this run may use it: the caller
    /// takes the options in any order, no pruning walk is on, and the origin is closed (a
    /// path that may end at home could come back to it again and again).
    #[inline]
    fn closure_at(&self, cx: &Ctx<'_>, pc: usize) -> Option<Closure> {
        if !self.any_order || cx.prog.closures.is_empty() || self.walk.on || self.home_open(cx) {
            return None;
        }
        cx.prog
            .closures
            .iter()
            .find(|c| c.pc as usize == pc)
            .copied()
    }

    /// The paths from `at` of closure `c`: any number of its leg (at least one where
    /// `c.once`), then the end. Every cell the leg reaches from the path's cell, leg after
    /// leg, is landed on once (breadth first) and is an option, as the paths' exploration
    /// would find it: the leg takes nothing in passing and reads no cell of the path but its
    /// landing as visited, so a cell is the end of some path exactly when it can be reached
    /// at all. A landing on an occupant ends there, as in [`Machine::land`].
    fn closure<S: Sink>(&mut self, cx: &Ctx<'_>, sink: &mut S, c: Closure, at: At) {
        if !c.once {
            self.accept(cx, sink, at.cur, at.fx, at.capleg);
        }
        if at.term || self.stopping(sink) {
            return;
        }
        let l = &cx.prog.legs[usize::from(c.leg)];
        let capleg = l.can_capture();
        let depth = self.walk_depth_buffers;
        if self.landings.len() <= depth {
            self.landings.push(Vec::new());
        }
        let mut landings = std::mem::take(&mut self.landings[depth]);
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        // Captured pieces stay far below `u32::MAX` (see `accept`).
        #[allow(clippy::cast_possible_truncation)]
        let mark = self.caps.len() as u32 + 1;
        let (mut from, mut next) = (at.cur, 0);
        'cells: loop {
            self.landings_into(cx, l, from, &mut landings);
            for &(t, _) in &landings {
                if self.stopping(sink) {
                    break 'cells;
                }
                if self.is_visited(cx, t) || (!cx.leave_at_once && self.caps.contains(&t)) {
                    continue;
                }
                self.work.landings += 1;
                if self.work.landings > self.work.next_look && self.out_of_work() {
                    self.halt = true;
                    break 'cells;
                }
                let occ = self.cells[t.index()];
                let Some((captured, fx)) = landing_on::<S>(cx, l, occ) else {
                    continue;
                };
                if captured {
                    self.caps.push(t);
                }
                self.accept(cx, sink, t, fx, capleg);
                if captured {
                    self.caps.pop();
                }
                if occ.is_empty() {
                    queue.push((t, self.visited[t.index()]));
                    self.visited[t.index()] = mark;
                }
            }
            let Some(&(c, _)) = queue.get(next) else {
                break;
            };
            from = c;
            next += 1;
        }
        for &(c, was) in queue.iter().rev() {
            self.visited[c.index()] = was;
        }
        self.queue = queue;
        self.landings[depth] = landings;
    }

    pub(super) fn leg<S: Sink>(
        &mut self,
        cx: &Ctx<'_>,
        sink: &mut S,
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
        self.landings_into(cx, l, cur, &mut landings);
        for &(t, over) in &landings {
            if self.stopping(sink) {
                break;
            }
            if over == NO_CELL {
                self.land(cx, sink, l, t, next);
            } else {
                self.land_over(cx, sink, l, over, t, next);
            }
        }
        self.landings[depth] = landings;
        self.walk_depth_buffers -= 1;
    }

    /// Every cell leg `l` may land on from `cur` as the path sees the board, with the cell it
    /// passed over (see [`walk_leg`]), in `out` (cleared first).
    #[inline]
    fn landings_into(&self, cx: &Ctx<'_>, l: &LegCode, cur: Cell, out: &mut Vec<(Cell, Cell)>) {
        out.clear();
        walk_leg(
            l,
            cx.side,
            cx.links,
            cur,
            &Path { m: self, cx },
            &mut |t, over| out.push((t, over)),
        );
    }

    /// Lands after passing `over`, which the leg captures when it takes and holds an enemy.
    pub(super) fn land_over<S: Sink>(
        &mut self,
        cx: &Ctx<'_>,
        sink: &mut S,
        l: &LegCode,
        over: Cell,
        t: Cell,
        next: Option<usize>,
    ) {
        let taken = !S::RANGE && takes(l, cx.side, self.cells[over.index()]);
        if taken && !cx.leave_at_once {
            // It stays where it is until the end of the turn: in the way, not to be taken again.
            if self.caps.contains(&over) {
                return;
            }
            self.caps.push(over);
            self.land(cx, sink, l, t, next);
            self.caps.pop();
        } else if taken {
            let saved = self.cells[over.index()];
            self.cells[over.index()] = Occupant::EMPTY;
            self.caps.push(over);
            self.land(cx, sink, l, t, next);
            self.caps.pop();
            self.cells[over.index()] = saved;
        } else {
            self.land(cx, sink, l, t, next);
        }
    }

    pub(super) fn land<S: Sink>(
        &mut self,
        cx: &Ctx<'_>,
        sink: &mut S,
        l: &LegCode,
        t: Cell,
        next: Option<usize>,
    ) {
        if self.is_visited(cx, t) || self.halt || (!cx.leave_at_once && self.caps.contains(&t)) {
            return;
        }
        self.work.landings += 1;
        if self.work.landings > self.work.next_look && self.out_of_work() {
            self.halt = true;
            return;
        }
        let occ = self.cells[t.index()];
        let term = !occ.is_empty();
        let Some((captured, fx)) = landing_on::<S>(cx, l, occ) else {
            return;
        };
        if captured {
            self.caps.push(t);
        }
        let capleg = l.can_capture();
        let next = next.map(|pc| At {
            pc,
            cur: t,
            term,
            fx,
            capleg,
        });
        match next {
            None => self.accept(cx, sink, t, fx, capleg),
            Some(at) if self.walk.on => {
                // A walk may come back to its own cells; `seen` keeps it finite.
                if self.walk.depth >= WALK_DEPTH {
                    self.halt = true;
                } else {
                    self.walk.depth += 1;
                    self.run(cx, sink, at);
                    self.walk.depth -= 1;
                }
            }
            Some(at) => {
                let was = self.visited[t.index()];
                // Captured pieces stay far below `u32::MAX` (see `accept`).
                #[allow(clippy::cast_possible_truncation)]
                {
                    self.visited[t.index()] = self.caps.len() as u32 + 1;
                }
                // A skipped state would not pass the marks of maximal repetitions, so their
                // programs are never pruned (the work budget still bounds them).
                let prune = cx.prog.marks == 0
                    && match self.walk.pruning {
                        Pruning::Auto => self.work.landings > PRUNE_AFTER,
                        Pruning::Always => true,
                        Pruning::Never => false,
                    };
                if !prune || !self.hopeless(cx, sink, at) {
                    self.run(cx, sink, at);
                }
                self.visited[t.index()] = was;
            }
        }
        if captured {
            self.caps.pop();
        }
    }

    /// Whether the origin is open to the path (`chain-ends-home`: it has taken a piece).
    #[inline]
    pub(super) fn home_open(&self, cx: &Ctx<'_>) -> bool {
        cx.home && !self.caps.is_empty()
    }

    pub(super) fn accept<S: Sink>(
        &mut self,
        cx: &Ctx<'_>,
        sink: &mut S,
        to: Cell,
        fx: StoneEffect,
        capleg: bool,
    ) {
        if to == cx.origin && !self.home_open(cx) {
            return;
        }
        if self.walk.on {
            if !sink.known(self, to, capleg) {
                self.halt = true;
            }
            return;
        }
        sink.accept(self, to, fx, capleg);
    }

    /// Adds the option of a path ending on `to` with the captures in `caps`, or merges it into
    /// the option with the same destination and captures.
    pub(super) fn add_option(
        &mut self,
        out: &mut Options,
        to: Cell,
        fx: StoneEffect,
        capleg: bool,
    ) {
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

    /// Copies the captured cells, sorted, into `sorted`, and their fingerprint into `fp`.
    #[inline]
    pub(super) fn sort_caps(&mut self) {
        self.sorted.clear();
        if self.caps.is_empty() {
            // Most options capture nothing: the fingerprint of no cells.
            self.fp = 0;
            return;
        }
        self.sorted.extend_from_slice(&self.caps);
        self.sorted.sort_unstable();
        self.fp = self.sorted.iter().fold(self.sorted.len() as u64, |h, &c| {
            (h ^ c.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
    }

    /// The option that lands on `to` capturing exactly `sorted`, if found already.
    #[inline]
    pub(super) fn find(&self, out: &Options, to: Cell) -> Option<usize> {
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
}

/// What a landing of leg `l` on a cell holding `occ` does (see [`landing`]): `None` where it
/// may not land there. In a placement range every cell reached is landed on and nothing is
/// captured.
#[inline]
fn landing_on<S: Sink>(cx: &Ctx<'_>, l: &LegCode, occ: Occupant) -> Option<(bool, StoneEffect)> {
    if S::RANGE {
        Some((false, StoneEffect::None))
    } else {
        landing(l, cx.side, occ, cx.collectable)
    }
}
