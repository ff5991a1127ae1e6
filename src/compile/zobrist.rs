//! Position hash keys: an engine fact derived from the board and the variant's stones and
//! castlings, computed once when a variant is loaded.

use crate::board::Cell;
use crate::core::{Occupant, Side};
use crate::position::Position;

/// Keys of the position hash. The hash is the wrapping sum of one key per (cell, occupant),
/// one per stone in each supply, one for Black to move and one for the taboo cell, so that a
/// turn updates it by adding and subtracting the keys of what it changed.
#[derive(Debug, Clone, Default)]
pub struct Zobrist {
    cells: Vec<u64>,
    supply: Vec<u64>,
    /// The key of Black to move.
    pub(crate) black: u64,
    taboo: Vec<u64>,
    castle: Vec<u64>,
    stones: usize,
    /// Per side, the key of one check given (`[end] checks`), times the count.
    checks: [u64; 2],
    /// The key of one pass in a row (`[turn] pass`), times the count.
    passes: u64,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Keys for a board of `cells` cells and `stones` stone kinds (fixed seed: hashes are
    /// the same in every run).
    pub fn new(cells: usize, stones: usize, castlings: usize) -> Zobrist {
        let mut s = 0x00B0_11E4_B178_u64;
        Zobrist {
            cells: (0..cells * 256).map(|_| splitmix(&mut s)).collect(),
            supply: (0..2 * stones).map(|_| splitmix(&mut s)).collect(),
            black: splitmix(&mut s),
            taboo: (0..2 * cells).map(|_| splitmix(&mut s)).collect(),
            castle: (0..castlings).map(|_| splitmix(&mut s)).collect(),
            stones,
            checks: [splitmix(&mut s), splitmix(&mut s)],
            passes: splitmix(&mut s),
        }
    }

    /// The key of an occupant on a cell.
    #[inline]
    pub(crate) fn cell(&self, c: Cell, o: Occupant) -> u64 {
        self.cells[c.index() * 256 + o.code() as usize]
    }

    /// The key of one stone in a side's supply.
    #[inline]
    pub(crate) fn supply(&self, side: Side, kind: usize) -> u64 {
        self.supply[side.index() * self.stones + kind]
    }

    /// The key of a taboo cell.
    pub(crate) fn taboo(&self, t: Option<Cell>) -> u64 {
        t.map_or(0, |c| self.taboo[c.index()])
    }

    /// The key of an en-passant cell.
    pub(crate) fn ep(&self, t: Option<Cell>) -> u64 {
        t.map_or(0, |c| self.taboo[self.taboo.len() / 2 + c.index()])
    }

    /// The key of a set of castling rights.
    pub(crate) fn castling(&self, rights: u32) -> u64 {
        self.castle
            .iter()
            .enumerate()
            .filter(|(i, _)| rights & (1 << i) != 0)
            .fold(0u64, |a, (_, k)| a.wrapping_add(*k))
    }

    /// The key of `n` checks given by `side`.
    #[inline]
    pub(crate) fn checks(&self, side: Side, n: u32) -> u64 {
        self.checks[side.index()].wrapping_mul(u64::from(n))
    }

    /// The key of `n` passes in a row.
    #[inline]
    pub(crate) fn passes(&self, n: u8) -> u64 {
        self.passes.wrapping_mul(u64::from(n))
    }

    /// The hash of a whole position, computed from scratch.
    pub fn hash(&self, pos: &Position) -> u64 {
        let mut h = 0u64;
        for (c, &o) in pos.cells().iter().enumerate() {
            h = h.wrapping_add(self.cell(Cell::new(c), o));
        }
        for side in Side::BOTH {
            for (k, &n) in pos.supplies[side].iter().enumerate() {
                h = h.wrapping_add(self.supply(side, k).wrapping_mul(u64::from(n)));
            }
            h = h.wrapping_add(self.checks(side, pos.checks[side]));
        }
        if pos.side == Side::Black {
            h = h.wrapping_add(self.black);
        }
        h.wrapping_add(self.taboo(pos.taboo))
            .wrapping_add(self.ep(pos.ep))
            .wrapping_add(self.castling(pos.castling))
            .wrapping_add(self.passes(pos.passes))
    }
}
