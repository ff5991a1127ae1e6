//! Plain programs (see [`Program::plain`]): every leg lands on its own, so their options and
//! attack answers are read from the position with no interpreter at all.

use super::{Machine, MoveOption, Options, StoneEffect, landing};
use crate::board::{Cell, NO_CELL, Side};
use crate::compile::walk::{Cells, Line, Reading, ride, traits};
use crate::compile::{LegCode, Op, Program};
use crate::core::PieceKindId;
use crate::position::{Occupant, Position};
use crate::rules::Ruleset;

/// Whether the plain program of a piece of `side` on `from` captures on `target`: what
/// [`plain_landings`] would find, with each ride walked only along the vector that points at
/// the target (plain vectors are the same offset from every cell).
#[inline]
pub(super) fn plain_attack_cell(
    rules: &Ruleset,
    pos: &Position,
    from: Cell,
    side: Side,
    prog: &Program,
    target: Cell,
) -> bool {
    let links = &rules.links;
    let board = Cells(pos.cells());
    let ((ff, fr), (tf, tr)) = (rules.topo.coord(from), rules.topo.coord(target));
    let (df, dr) = (tf - ff, tr - fr);
    let captures = |l: &LegCode| {
        matches!(
            landing(l, side, pos.at(target), rules.collectable()),
            Some((true, _))
        )
    };
    for l in emitted_legs(rules, prog, side, from).filter(|l| l.can_capture()) {
        for &v in &l.vecs[side] {
            if traits(l.kind).reading != Reading::Ride {
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
            let mut hit = false;
            ride(links, &board, side, Line::of(l, v, from), |c, dist| {
                hit = c == target;
                !hit && dist < k
            });
            if hit && captures(l) {
                return true;
            }
        }
    }
    false
}

/// The legs of the leading `emit` ops of a program that run for a piece of `side` on `from`
/// (those behind a region test only when `from` is in the region), in program order.
#[inline]
pub(super) fn emitted_legs<'p>(
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
#[inline]
pub(super) fn plain_landings(
    rules: &Ruleset,
    pos: &Position,
    from: Cell,
    side: Side,
    prog: &Program,
    mut f: impl FnMut(&LegCode, Cell, Occupant),
) {
    let (links, board) = (&rules.links, Cells(pos.cells()));
    for l in emitted_legs(rules, prog, side, from) {
        // The legs of a plain program are free steps and leaps, and rides (see
        // `Program::is_plain`): `walk_leg` without its other kinds, so that `f` is called from
        // two places and inlined in both.
        if traits(l.kind).reading == Reading::Ride {
            for &v in &l.vecs[side] {
                ride(links, &board, side, Line::of(l, v, from), |t, _| {
                    f(l, t, pos.at(t));
                    true
                });
            }
        } else {
            debug_assert!(traits(l.kind).reading == Reading::Once && l.paths[side].is_empty());
            for &v in &l.vecs[side] {
                let t = links.link(v, from);
                if t != NO_CELL {
                    f(l, t, pos.at(t));
                }
            }
        }
    }
}

impl Machine {
    /// The options of a plain program (see [`Program::plain`]): the same as running it, in the
    /// same order, read straight from the position. Every way to a cell of such a program
    /// captures the same (the piece there, or nothing) with the same effect on a stone, so
    /// options to one cell merge into the first, as `accept` merges them.
    #[inline]
    pub(super) fn plain_moves(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        prog: &Program,
        out: &mut Options,
    ) {
        self.next_epoch(pos.cells().len());
        plain_landings(rules, pos, from, side, prog, |l, t, occ| {
            self.plain_land(rules, out, l, side, t, occ);
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
            self.next_epoch(pos.cells().len());
        }
        plain_landings(rules, pos, from, side, prog, |l, t, occ| {
            if let Some((captured, fx)) = landing(l, side, occ, rules.collectable())
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
    #[inline]
    pub(super) fn plain_land(
        &mut self,
        rules: &Ruleset,
        out: &mut Options,
        l: &LegCode,
        side: Side,
        t: Cell,
        occ: Occupant,
    ) {
        let capleg = l.can_capture();
        let Some((captured, fx)) = landing(l, side, occ, rules.collectable()) else {
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
}
