//! The interpreter: runs a compiled [`Program`] for the piece on one cell of a position and
//! collects its movement options (one per effect, RULINGS B-17) or its placement range.
//!
//! Legs walk the link tables; chains backtrack with an explicit visited set (no cell twice,
//! origin included) and remove captured pieces at once. A landing on an occupied cell ends the
//! path: only an `accept` may follow it.

use crate::board::{Cell, LinkTable, NO_CELL, Side};
use crate::compile::{CaptureMode, Filter, LegCode, Op, Program};
use crate::dsl::LegKind;
use crate::position::{Occupant, Position};
use crate::variant::{Region, Ruleset};

/// What a move does to a stone on its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StoneEffect {
    /// No stone there.
    None,
    /// The stone (of this kind) goes into the mover's supply.
    Collect(u8),
    /// The stone (of this kind) is destroyed.
    Destroy(u8),
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
    /// A capture landing on a cell holding this occupant.
    Occupant(Occupant),
}

struct Ctx<'a> {
    prog: &'a Program,
    links: &'a LinkTable,
    regions: &'a [Region],
    collectable: Filter,
    side: Side,
    mode: Mode,
    origin: Cell,
}

/// Reusable scratch space for running programs without allocating per call.
#[derive(Debug, Clone, Default)]
pub struct Machine {
    cells: Vec<Occupant>,
    visited: Vec<bool>,
    caps: Vec<Cell>,
    stamp: Vec<u32>,
    slot: Vec<u32>,
    epoch: u32,
    range: Vec<Cell>,
    sorted: Vec<Cell>,
    goal: Goal,
    found: bool,
}

impl Machine {
    /// A machine for boards of any size (buffers grow on first use).
    pub fn new() -> Machine {
        Machine::default()
    }

    fn prepare(&mut self, pos: &Position, from: Cell) {
        let n = pos.cells.len();
        self.cells.clear();
        self.cells.extend_from_slice(&pos.cells);
        self.cells[from as usize] = Occupant::EMPTY;
        self.visited.clear();
        self.visited.resize(n, false);
        self.visited[from as usize] = true;
        self.caps.clear();
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
        self.attack_query(rules, pos, from, side, kind, Goal::Cell(target))
    }

    /// Whether a piece of `kind` playing for `side` on `from` could capture, by landing, a
    /// piece `victim` (stops at the first way; used to test attacks backwards).
    pub fn captures_occupant(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        kind: u8,
        victim: Occupant,
    ) -> bool {
        self.attack_query(rules, pos, from, side, kind, Goal::Occupant(victim))
    }

    #[allow(clippy::too_many_arguments)]
    fn attack_query(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        kind: u8,
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
    /// whatever stands there (used to test attacks backwards from the attacked cell).
    pub fn moves_as(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        kind: u8,
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
        kind: u8,
        mode: Mode,
        out: &mut Options,
    ) {
        self.prepare(pos, from);
        let piece = &rules.pieces[kind as usize];
        let cx = Ctx {
            prog: match mode {
                Mode::Moves => &piece.moves,
                Mode::Range => &piece.range,
                Mode::Attack => &piece.attacks,
            },
            links: &rules.links,
            regions: &rules.regions,
            collectable: rules.collectable,
            side,
            mode,
            origin: from,
        };
        self.run(&cx, out, 0, from, false, StoneEffect::None, false);
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
        loop {
            match cx.prog.ops[pc] {
                Op::Emit(l) => {
                    debug_assert!(!term && cur == cx.origin);
                    self.leg(cx, out, &cx.prog.legs[l as usize], cur, None);
                    pc += 1;
                }
                Op::Leg(l) => {
                    if !term {
                        self.leg(cx, out, &cx.prog.legs[l as usize], cur, Some(pc + 1));
                    }
                    return;
                }
                Op::Split(a, b) => {
                    self.run(cx, out, a as usize, cur, term, fx, capleg);
                    if self.found {
                        return;
                    }
                    pc = b as usize;
                }
                Op::Goto(t) => pc = t as usize,
                Op::At(r) => {
                    if !cx.regions[r as usize].cells[cx.side.index()].contains(cur) {
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

    #[inline]
    fn bit(&self, c: Cell, side: Side) -> u32 {
        if c == NO_CELL {
            Filter::HOLE_BIT
        } else {
            self.cells[c as usize].bit_for(side)
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
        let side = cx.side;
        let vecs = &l.vecs[side.index()];
        for (i, &v) in vecs.iter().enumerate() {
            if self.found {
                return;
            }
            match l.kind {
                LegKind::Step | LegKind::Leap => {
                    let t = cx.links.link(v, cur);
                    if t == NO_CELL {
                        continue;
                    }
                    if let Some(alts) = l.paths[side.index()].get(i) {
                        let free = alts.iter().any(|p| {
                            p.cells
                                .iter()
                                .all(|&pv| p.filter.has(self.bit(cx.links.link(pv, cur), side)))
                        });
                        if !free {
                            continue;
                        }
                    }
                    self.land(cx, out, l, t, next);
                }
                LegKind::Ride => {
                    let mut c = cur;
                    let mut dist = 0u32;
                    loop {
                        c = cx.links.link(v, c);
                        if c == NO_CELL {
                            break;
                        }
                        dist += 1;
                        if dist > l.max {
                            break;
                        }
                        if dist >= l.min {
                            self.land(cx, out, l, c, next);
                        }
                        if !l.pass.has(self.bit(c, side)) || self.visited[c as usize] {
                            break;
                        }
                    }
                }
                LegKind::Jump => {
                    let over = cx.links.link(v, cur);
                    if over == NO_CELL || !l.pass.has(self.bit(over, side)) {
                        continue;
                    }
                    let t = cx.links.link(v, over);
                    if t == NO_CELL {
                        continue;
                    }
                    self.land_over(cx, out, l, over, t, next);
                }
                LegKind::Hop => {
                    let mut c = cur;
                    let screen = loop {
                        c = cx.links.link(v, c);
                        if c == NO_CELL {
                            break NO_CELL;
                        }
                        let b = self.bit(c, side);
                        if self.cells[c as usize].is_empty() {
                            if l.pass.has(b) {
                                continue;
                            }
                            break NO_CELL;
                        }
                        if l.screen.has(b) {
                            break c;
                        }
                        if !l.pass.has(b) {
                            break NO_CELL;
                        }
                    };
                    if screen == NO_CELL {
                        continue;
                    }
                    let mut c = screen;
                    loop {
                        c = cx.links.link(v, c);
                        if c == NO_CELL || self.visited[c as usize] {
                            break;
                        }
                        self.land_over(cx, out, l, screen, c, next);
                        if !self.cells[c as usize].is_empty() {
                            break;
                        }
                    }
                }
            }
        }
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
            && matches!(self.cells[over as usize].as_piece(), Some((s, _)) if s != cx.side);
        if taken {
            let saved = self.cells[over as usize];
            self.cells[over as usize] = Occupant::EMPTY;
            self.caps.push(over);
            self.land(cx, out, l, t, next);
            self.caps.pop();
            self.cells[over as usize] = saved;
        } else {
            self.land(cx, out, l, t, next);
        }
    }

    fn land(&mut self, cx: &Ctx<'_>, out: &mut Options, l: &LegCode, t: Cell, next: Option<usize>) {
        if self.visited[t as usize] {
            return;
        }
        let occ = self.cells[t as usize];
        let mut fx = StoneEffect::None;
        let mut captured = false;
        let term = !occ.is_empty();
        if cx.mode != Mode::Range {
            if occ.is_empty() {
                if l.capture == CaptureMode::Only {
                    return;
                }
            } else if let Some((s, _)) = occ.as_piece() {
                if s == cx.side
                    || l.capture == CaptureMode::MoveOnly
                    || !l.victims.has(occ.bit_for(cx.side))
                {
                    return;
                }
                captured = true;
            } else if let Some(k) = occ.as_stone() {
                let b = Filter::stone_bit(k);
                if l.capture == CaptureMode::Only {
                    return;
                }
                fx = if cx.collectable.has(b) {
                    StoneEffect::Collect(k)
                } else if l.destroy.has(b) {
                    StoneEffect::Destroy(k)
                } else {
                    return;
                };
            }
        }
        if captured {
            self.caps.push(t);
        }
        let capleg = l.can_capture();
        match next {
            None => self.accept(cx, out, t, fx, capleg),
            Some(pc) => {
                self.visited[t as usize] = true;
                self.run(cx, out, pc, t, term, fx, capleg);
                self.visited[t as usize] = false;
            }
        }
        if captured {
            self.caps.pop();
        }
    }

    fn accept(&mut self, cx: &Ctx<'_>, out: &mut Options, to: Cell, fx: StoneEffect, capleg: bool) {
        if to == cx.origin {
            return;
        }
        if cx.mode == Mode::Attack {
            self.found |= match self.goal {
                Goal::Cell(c) => self.caps.contains(&c),
                Goal::Occupant(o) => self.caps.contains(&to) && self.cells[to as usize] == o,
                Goal::None => false,
            };
            return;
        }
        if cx.mode == Mode::Range {
            if self.stamp[to as usize] != self.epoch {
                self.stamp[to as usize] = self.epoch;
                self.range.push(to);
            }
            return;
        }
        if self.caps.is_empty() {
            if self.stamp[to as usize] == self.epoch {
                let m = &mut out.moves[self.slot[to as usize] as usize];
                m.capturing_leg |= capleg;
                return;
            }
            self.stamp[to as usize] = self.epoch;
            self.slot[to as usize] = out.moves.len() as u32;
            out.moves.push(MoveOption {
                to,
                cap_start: out.captures.len() as u32,
                cap_len: 0,
                stone: fx,
                capturing_leg: capleg,
            });
            return;
        }
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.caps);
        self.sorted.sort_unstable();
        for m in out.moves.iter_mut() {
            if m.to == to
                && m.cap_len as usize == self.sorted.len()
                && out.captures[m.cap_start as usize..(m.cap_start + m.cap_len) as usize]
                    == self.sorted[..]
            {
                m.capturing_leg |= capleg;
                return;
            }
        }
        let start = out.captures.len() as u32;
        out.captures.extend_from_slice(&self.sorted);
        out.moves.push(MoveOption {
            to,
            cap_start: start,
            cap_len: self.sorted.len() as u32,
            stone: fx,
            capturing_leg: capleg,
        });
    }
}
