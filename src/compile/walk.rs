//! What each leg kind does on a board: the one walk of a step, a leap, a ride, a jump and a
//! hop ([`walk_leg`]), the one ride loop ([`ride`]) and each kind's reach ([`reach`]). The
//! general interpreter and the straight reading of short programs walk every leg here; plain
//! pieces, their attack questions and the cell sets call [`ride`] for their rides (their steps
//! and leaps are free: one link away). Each reader sees the board through a small trait
//! ([`Passage`], [`Board`]) implemented by a type of its own, so that each is compiled
//! specialised (a generic parameter, never a trait object).

use crate::board::{Cell, LinkTable, NO_CELL, Side};
use crate::core::Filter;
use crate::dsl::LegKind;
use crate::position::Occupant;

use super::LegCode;

/// What a ride reads of the board: whether it may run on through a cell, and whether the
/// path may enter it at all.
pub trait Passage {
    /// Whether a ride (or a hop before its screen) of a piece of `side` whose leg passes
    /// `pass` may go on past `c`, a cell of the board.
    fn passes(&self, pass: Filter, side: Side, c: Cell) -> bool;

    /// Whether the path may not enter `c` at all (it has been there): a ride stops before it.
    #[inline]
    fn closed(&self, _c: Cell) -> bool {
        false
    }
}

/// What the walk of every leg kind reads of the board.
pub trait Board {
    /// What stands on `c`, a cell of the board, as the path sees it.
    fn occ(&self, c: Cell) -> Occupant;

    /// Whether the path may not enter `c` (see [`Passage::closed`]).
    #[inline]
    fn closed(&self, _c: Cell) -> bool {
        false
    }

    /// Whether a jump may not pass over `c`: a piece taken earlier in the path that stays
    /// where it is until the end of the turn.
    #[inline]
    fn jump_closed(&self, _c: Cell) -> bool {
        false
    }
}

impl<B: Board> Passage for B {
    #[inline]
    fn passes(&self, pass: Filter, side: Side, c: Cell) -> bool {
        pass.has(self.occ(c).bit_for(side))
    }

    #[inline]
    fn closed(&self, c: Cell) -> bool {
        Board::closed(self, c)
    }
}

/// The position's cells as they stand (a plain piece's view: nothing is closed).
pub struct Cells<'a>(pub &'a [Occupant]);

impl Board for Cells<'_> {
    #[inline]
    fn occ(&self, c: Cell) -> Occupant {
        self.0[c.index()]
    }
}

/// The cells that hold anything, as a cell set: a ride runs through the others only (the
/// cell-set form of a ride that passes empty cells and nothing else, see `bits`).
pub struct Occupied(pub u128);

impl Passage for Occupied {
    #[inline]
    fn passes(&self, _pass: Filter, _side: Side, c: Cell) -> bool {
        self.0 & super::bits::bit(c) == 0
    }
}

/// One line a ride runs along: its vector, its start (not itself a landing), the fewest and
/// most cells it goes, and what the cells it runs through may hold.
#[derive(Debug, Clone, Copy)]
pub struct Line {
    /// The vector id.
    pub v: u16,
    /// Where it starts.
    pub from: Cell,
    /// Fewest cells.
    pub min: u32,
    /// Most cells.
    pub max: u32,
    /// What it may run through.
    pub pass: Filter,
}

impl Line {
    /// The line of ride leg `l` along vector `v` from `from`.
    #[inline]
    pub fn of(l: &LegCode, v: u16, from: Cell) -> Line {
        Line {
            v,
            from,
            min: l.min,
            max: l.max,
            pass: l.pass,
        }
    }
}

/// A ride along `line` for a piece of `side`: each cell `min` to `max` away given to `land`
/// with its distance, nearest first, stopping before a closed cell, after a cell it may not
/// pass, or when `land` says `false`.
#[inline]
pub fn ride<P: Passage>(
    links: &LinkTable,
    board: &P,
    side: Side,
    line: Line,
    mut land: impl FnMut(Cell, u32) -> bool,
) {
    let mut c = line.from;
    let mut dist = 0u32;
    loop {
        c = links.link(line.v, c);
        if c == NO_CELL || board.closed(c) {
            return;
        }
        dist += 1;
        if dist > line.max {
            return;
        }
        if dist >= line.min && !land(c, dist) {
            return;
        }
        if !board.passes(line.pass, side, c) {
            return;
        }
    }
}

/// Every cell leg `l` of a piece of `side` may land on from `cur`, with the cell it passed
/// over (a jump's jumped cell or a hop's screen, else `NO_CELL`), in the order of its vectors.
/// What may stand on the landing cell is for the caller. Every leg kind is matched here.
#[inline]
pub fn walk_leg<B: Board>(
    l: &LegCode,
    side: Side,
    links: &LinkTable,
    cur: Cell,
    board: &B,
    land: &mut impl FnMut(Cell, Cell),
) {
    let bit = |c: Cell| {
        if c == NO_CELL {
            Filter::HOLE_BIT
        } else {
            board.occ(c).bit_for(side)
        }
    };
    let vecs = &l.vecs[side];
    match l.kind {
        LegKind::Step | LegKind::Leap if l.paths[side].is_empty() => {
            for &v in vecs {
                let t = links.link(v, cur);
                if t != NO_CELL && !Board::closed(board, t) {
                    land(t, NO_CELL);
                }
            }
        }
        LegKind::Step | LegKind::Leap => {
            let paths = &l.paths[side];
            for (i, &v) in vecs.iter().enumerate() {
                let t = links.link(v, cur);
                if t == NO_CELL || Board::closed(board, t) {
                    continue;
                }
                // A lame leap: some path of cells between must hold what it may pass.
                if let Some(alts) = paths.get(i) {
                    let free = alts.iter().any(|p| {
                        p.cells
                            .iter()
                            .all(|&pv| p.filter.has(bit(links.link(pv, cur))))
                    });
                    if !free {
                        continue;
                    }
                }
                land(t, NO_CELL);
            }
        }
        LegKind::Ride => {
            for &v in vecs {
                ride(links, board, side, Line::of(l, v, cur), |c, _| {
                    land(c, NO_CELL);
                    true
                });
            }
        }
        LegKind::Jump => {
            for &v in vecs {
                let over = links.link(v, cur);
                if over == NO_CELL || !l.pass.has(bit(over)) || board.jump_closed(over) {
                    continue;
                }
                let t = links.link(v, over);
                if t != NO_CELL && !Board::closed(board, t) {
                    land(t, over);
                }
            }
        }
        LegKind::Hop => {
            for &v in vecs {
                let screen = hop_screen(l, side, links, cur, v, board);
                if screen == NO_CELL {
                    continue;
                }
                // Beyond it: the empty run and the first occupant, the `min`th to `max`th
                // cells of them (all by default).
                let beyond = Line {
                    pass: Filter::EMPTY,
                    ..Line::of(l, v, screen)
                };
                ride(links, board, side, beyond, |c, _| {
                    land(c, screen);
                    true
                });
            }
        }
    }
}

/// A hop's screen along `v` from `cur`: the first occupant it may use, past the cells it may
/// pass (`NO_CELL` when there is none).
#[inline]
fn hop_screen<B: Board>(
    l: &LegCode,
    side: Side,
    links: &LinkTable,
    cur: Cell,
    v: u16,
    board: &B,
) -> Cell {
    let mut c = cur;
    loop {
        c = links.link(v, c);
        if c == NO_CELL {
            return NO_CELL;
        }
        let occ = board.occ(c);
        let b = occ.bit_for(side);
        if occ.is_empty() {
            if !l.pass.has(b) {
                return NO_CELL;
            }
        } else if l.screen.has(b) {
            return c;
        } else if !l.pass.has(b) {
            return NO_CELL;
        }
    }
}

/// How many times its vector away from its start a leg may land or take a piece, nearest and
/// farthest (`u32::MAX`: as far as the board goes): a step or leap once; a ride within its
/// distance bounds; a jump takes on the jumped cell and lands on the one beyond; a hop takes
/// its screen and lands beyond it.
pub fn reach(l: &LegCode) -> (u32, u32) {
    match l.kind {
        LegKind::Step | LegKind::Leap => (1, 1),
        LegKind::Ride => (l.min.max(1), l.max),
        LegKind::Jump => (if l.take { 1 } else { 2 }, 2),
        LegKind::Hop => (if l.take { 1 } else { 1 + l.min.max(1) }, u32::MAX),
    }
}
