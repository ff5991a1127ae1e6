//! Programs whose every path has one leg (for a range, two), read straight from the position:
//! no copy of the board, no visited set.

use super::sink::Sink;
use super::{Machine, StoneEffect, landing, takes};
use crate::board::{Cell, LinkTable, NO_CELL, Side};
use crate::compile::walk::{Board, walk_leg};
use crate::compile::{Filter, LegCode, Op, Program};
use crate::position::{Occupant, Position};
use crate::rules::{Region, Ruleset};

/// The board as a path of a short program read straight from the position sees it, from
/// `cur` (see [`Direct::occ`] and [`Direct::visited`]).
pub(super) struct DirectFrom<'a> {
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
pub(super) struct Direct<'a> {
    prog: &'a Program,
    links: &'a LinkTable,
    regions: &'a [Region],
    cells: &'a [Occupant],
    collectable: Filter,
    side: Side,
    origin: Cell,
    /// A cell read as empty (a piece has just left it), or the origin.
    vacated: Cell,
}

impl<'a> Direct<'a> {
    pub(super) fn new(
        rules: &'a Ruleset,
        pos: &'a Position,
        prog: &'a Program,
        side: Side,
        origin: Cell,
        vacated: Cell,
    ) -> Direct<'a> {
        Direct {
            prog,
            links: &rules.links,
            regions: &rules.regions,
            cells: pos.cells(),
            collectable: rules.collectable(),
            side,
            origin,
            vacated,
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

impl Machine {
    /// A program whose every path has at most one leg (for a range, two), run straight on the
    /// position (no copy of the board, no visited set): the same options, range or attack
    /// answer as the general interpreter, in the same order. Only the cells the path has been
    /// on are closed to it, and the origin counts as empty.
    #[inline]
    pub(super) fn single_leg<S: Sink>(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        prog: &Program,
        sink: &mut S,
    ) {
        self.fresh_options(pos.cells().len());
        let cx = Direct::new(rules, pos, prog, side, from, from);
        self.direct_ops(&cx, sink, 0, from, 0, false, StoneEffect::None, false);
    }

    /// Runs the ops of a program from `pc` on `cur`, after `legs` legs (the last landed on an
    /// occupant if `term`; `fx` and `capleg` are its landing's). For a placement range
    /// (`S::RANGE`) a path may have two legs; else one. (The state is passed as loose values:
    /// packed into `general::At` it cost Bollwerk 178's perft 2 1.0% more instructions.)
    #[allow(clippy::too_many_arguments)]
    pub(super) fn direct_ops<S: Sink>(
        &mut self,
        cx: &Direct<'_>,
        sink: &mut S,
        mut pc: usize,
        cur: Cell,
        legs: u8,
        term: bool,
        fx: StoneEffect,
        capleg: bool,
    ) {
        loop {
            if sink.done() {
                return;
            }
            match cx.prog.ops[pc] {
                Op::Emit(l) => {
                    self.direct_emit(cx, sink, l, cur);
                    pc += 1;
                }
                Op::EmitFrom(l, r) => {
                    if cx.regions[r.index()].cells[cx.side].contains(cur) {
                        self.direct_emit(cx, sink, l, cur);
                    }
                    pc += 1;
                }
                Op::Leg(l) => {
                    let l = &cx.prog.legs[l as usize];
                    if S::RANGE && legs < 2 && !term {
                        cx.leg_landings(l, cur, &mut |t, _| {
                            let term = !cx.occ(t).is_empty();
                            self.direct_ops(
                                cx,
                                sink,
                                pc + 1,
                                t,
                                legs + 1,
                                term,
                                StoneEffect::None,
                                false,
                            );
                        });
                    } else if !S::RANGE && legs == 0 {
                        // One leg per path: after it only region tests and the accept remain.
                        cx.leg_landings(l, cur, &mut |t, over| {
                            self.direct_land(cx, sink, l, t, over, Some(pc + 1));
                        });
                    }
                    return;
                }
                Op::Split(a, b) | Op::Greedy(a, b, _) => {
                    self.direct_ops(cx, sink, a as usize, cur, legs, term, fx, capleg);
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
                        sink.accept(self, cur, fx, capleg);
                    }
                    return;
                }
                Op::End => return,
            }
        }
    }

    /// An `emit` of leg `l` from `cur` (the origin): every landing is an option (in a range,
    /// every landing is in it).
    #[inline]
    fn direct_emit<S: Sink>(&mut self, cx: &Direct<'_>, sink: &mut S, l: u16, cur: Cell) {
        let l = &cx.prog.legs[l as usize];
        if S::RANGE {
            cx.leg_landings(l, cur, &mut |t, _| {
                sink.accept(self, t, StoneEffect::None, false);
            });
        } else {
            cx.leg_landings(l, cur, &mut |t, over| {
                self.direct_land(cx, sink, l, t, over, None);
            });
        }
    }

    /// Runs the `emit` ops a program of chains starts with (its top-level alternatives of one
    /// leg) straight on the position, as [`Machine::single_leg`] would, and returns the op the
    /// general interpreter goes on from. Called on a fresh round of options, before
    /// [`Machine::prepare`] (which keeps them): the options found here stay known to the
    /// interpreter, so a chain that ends on one of them with the same captures is merged into
    /// it as before.
    pub(super) fn direct_emits<S: Sink>(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        prog: &Program,
        sink: &mut S,
    ) -> usize {
        let cx = Direct::new(rules, pos, prog, side, from, from);
        let mut n = 0;
        for op in &prog.ops {
            match *op {
                Op::Emit(l) => self.direct_emit(&cx, sink, l, from),
                Op::EmitFrom(l, r) => {
                    if cx.regions[r.index()].cells[side].contains(from) {
                        self.direct_emit(&cx, sink, l, from);
                    }
                }
                _ => break,
            }
            n += 1;
            if sink.done() {
                break;
            }
        }
        n
    }

    /// A landing of a single-leg program on `t` (after passing `over`, a hop's screen or a
    /// jumped cell, or `NO_CELL`): what `land_over` and `land` decide for it (not in a range,
    /// where nothing is captured and every landing counts).
    pub(super) fn direct_land<S: Sink>(
        &mut self,
        cx: &Direct<'_>,
        sink: &mut S,
        l: &LegCode,
        t: Cell,
        over: Cell,
        next: Option<usize>,
    ) {
        if sink.done() {
            return;
        }
        let Some((captured, fx)) = landing(l, cx.side, cx.occ(t), cx.collectable) else {
            return;
        };
        let taken = over != NO_CELL && takes(l, cx.side, cx.occ(over));
        let before = self.caps.len();
        if taken {
            self.caps.push(over);
        }
        if captured {
            self.caps.push(t);
        }
        let capleg = l.can_capture();
        match next {
            None => sink.accept(self, t, fx, capleg),
            Some(pc) => self.direct_ops(cx, sink, pc, t, 1, false, fx, capleg),
        }
        self.caps.truncate(before);
    }

    /// Adds `t` to the placement range, once.
    #[inline]
    pub(super) fn range_add(&mut self, t: Cell) {
        let i = t.index();
        if self.stamp[i] != self.epoch {
            self.stamp[i] = self.epoch;
            self.range.push(t);
        }
    }
}

/// Whether a path after the leading `emit` ops of `prog` may begin from `from`: false only
/// where the program says which legs every such path begins with ([`Program::entry`]) and
/// none of them can land, read straight from the position (the general interpreter's first
/// leg lands on no more cells: its board is the position, with only the origin visited).
/// For a placement range (`range`) every cell a leg reaches is a landing.
pub(super) fn may_enter(
    range: bool,
    rules: &Ruleset,
    pos: &Position,
    from: Cell,
    side: Side,
    prog: &Program,
) -> bool {
    let Some(entry) = &prog.entry else {
        return true;
    };
    let cx = Direct::new(rules, pos, prog, side, from, from);
    entry.iter().any(|&l| {
        let leg = &prog.legs[usize::from(l)];
        let mut lands = false;
        cx.leg_landings(leg, from, &mut |t, _| {
            lands |= range || landing(leg, side, cx.occ(t), cx.collectable).is_some();
        });
        lands
    })
}
