//! Game state: what stands on every cell, whose turn it is, the stone supplies and the taboo
//! cell. Position text (reading and writing) lives in [`crate::text`].

use crate::board::Cell;
pub use crate::core::Occupant;
use crate::core::{BySide, Side};

/// A position of a game.
///
/// Its cells are changed only through [`Position::put`], which keeps the pieces' cell sets
/// ([`Position::piece_set`]) with them.
#[derive(Debug)]
pub struct Position {
    /// The occupant of every cell, by cell index.
    cells: Vec<Occupant>,
    /// Per piece slot ([`Occupant::piece_slot`]: side and kind), the cells among the first 128
    /// that hold such a piece, in two words: slot `j`'s cells 0-63 at `2j`, 64-127 at `2j + 1`
    /// (missing slots hold none). Derived from `cells`: equality and hashing ignore it.
    placed: Vec<u64>,
    /// The side to move.
    pub side: Side,
    /// Stones in hand per side, by stone kind.
    pub supplies: BySide<Vec<u32>>,
    /// The cell emptied by an explosion in the previous turn, closed to stones for the side to
    /// move.
    pub taboo: Option<Cell>,
    /// Castling rights, one bit per declared castling.
    pub castling: u32,
    /// The cell a two-step pawn passed over in the previous turn.
    pub ep: Option<Cell>,
    /// The piece that passed over `ep`, when it moved along a line other than its file
    /// (set in play; read from text it is derived from the board, see
    /// [`crate::play::ep_victim`]).
    pub ep_victim: Option<Cell>,
    /// Turns since the last capture or pawn move.
    pub halfmove: u32,
    /// The move number (starts at 1, grows after Black's turn).
    pub fullmove: u32,
    /// How many times each side has given check (kept where `[end] checks` counts them).
    pub checks: BySide<u32>,
    /// How many passes in a row led to this position (`[turn] pass`; position text does not
    /// carry it: a position read from text starts at 0).
    pub passes: u8,
}

impl Clone for Position {
    fn clone(&self) -> Self {
        let mut p = Position::empty(0, Vec::new());
        p.clone_from(self);
        p
    }

    /// Field by field, reusing the buffers of `self`: positions are copied at every node of
    /// a search, and the derived `clone_from` would allocate each time.
    fn clone_from(&mut self, source: &Self) {
        let Position {
            cells,
            placed,
            side,
            supplies,
            taboo,
            castling,
            ep,
            ep_victim,
            halfmove,
            fullmove,
            checks,
            passes,
        } = source;
        self.cells.clone_from(cells);
        self.placed.clone_from(placed);
        self.side = *side;
        self.supplies.clone_from(supplies);
        self.taboo = *taboo;
        self.castling = *castling;
        self.ep = *ep;
        self.ep_victim = *ep_victim;
        self.halfmove = *halfmove;
        self.fullmove = *fullmove;
        self.checks = *checks;
        self.passes = *passes;
    }
}

/// Equal when every cell and every other part of the state is (the cell sets follow the
/// cells).
impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells
            && self.side == other.side
            && self.supplies == other.supplies
            && self.taboo == other.taboo
            && self.castling == other.castling
            && self.ep == other.ep
            && self.ep_victim == other.ep_victim
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.checks == other.checks
            && self.passes == other.passes
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells.hash(state);
        self.side.hash(state);
        self.supplies.hash(state);
        self.taboo.hash(state);
        self.castling.hash(state);
        self.ep.hash(state);
        self.ep_victim.hash(state);
        self.halfmove.hash(state);
        self.fullmove.hash(state);
        self.checks.hash(state);
        self.passes.hash(state);
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::empty(0, Vec::new())
    }
}

impl Position {
    /// An empty board of `cells` cells, White to move, with the given supplies.
    pub fn empty(cells: usize, supplies: Vec<u32>) -> Position {
        Position {
            cells: vec![Occupant::EMPTY; cells],
            placed: Vec::new(),
            side: Side::White,
            supplies: BySide::both(supplies),
            taboo: None,
            castling: 0,
            ep: None,
            ep_victim: None,
            halfmove: 0,
            fullmove: 1,
            checks: BySide::both(0),
            passes: 0,
        }
    }

    /// The occupant of a cell.
    #[inline]
    pub fn at(&self, c: Cell) -> Occupant {
        self.cells[c.index()]
    }

    /// The occupant of every cell, by cell index.
    #[inline]
    pub fn cells(&self) -> &[Occupant] {
        &self.cells
    }

    /// Puts `o` on `c` (whatever stood there is gone), keeping the cell sets.
    #[inline]
    pub fn put(&mut self, c: Cell, o: Occupant) {
        let i = c.index();
        let old = std::mem::replace(&mut self.cells[i], o);
        if i < 128 {
            let (w, bit) = (i >> 6, 1u64 << (i & 63));
            if let Some(j) = old.piece_slot()
                && let Some(x) = self.placed.get_mut(2 * j + w)
            {
                *x &= !bit;
            }
            if let Some(j) = o.piece_slot() {
                match self.placed.get_mut(2 * j + w) {
                    Some(x) => *x |= bit,
                    None => self.grow(2 * j + w, bit),
                }
            }
        }
    }

    /// [`Position::put`] of the first piece of a slot past the end of `placed`.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, word: usize, bit: u64) {
        // Whole kinds (four words: two slots) at a time, for `kind_sets`.
        self.placed.resize((word / 4 + 1) * 4, 0);
        self.placed[word] |= bit;
    }

    /// Whether the board has at most 128 cells: [`Position::piece_set`] is known.
    #[inline]
    pub fn has_piece_sets(&self) -> bool {
        self.cells.len() <= 128
    }

    /// On a board of at most 128 cells ([`Position::has_piece_sets`]): the cells holding a
    /// piece of `slot` ([`Occupant::piece_slot`]: side and kind), bit per cell.
    #[inline]
    pub fn piece_set(&self, slot: usize) -> u128 {
        let word = |w: usize| u128::from(self.placed.get(w).copied().unwrap_or(0));
        word(2 * slot) | word(2 * slot + 1) << 64
    }

    /// On a board of at most 128 cells ([`Position::has_piece_sets`]): [`Position::kind_sets`]
    /// as words, four per kind (White's cells 0-63 and 64-127, then Black's).
    #[inline]
    pub fn kind_words(&self) -> &[u64] {
        &self.placed
    }

    /// On a board of at most 128 cells ([`Position::has_piece_sets`]): per piece kind from
    /// the first, the cells holding a White and a Black piece of it, bit per cell. Kinds
    /// after the last one yielded have no piece on the board.
    #[inline]
    pub fn kind_sets(&self) -> impl Iterator<Item = [u128; 2]> + '_ {
        let set = |lo: u64, hi: u64| u128::from(lo) | u128::from(hi) << 64;
        self.placed
            .chunks_exact(4)
            .map(move |w| [set(w[0], w[1]), set(w[2], w[3])])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{PieceKindId, StoneKindId};
    use proptest::prelude::*;

    /// Every occupant a cell can hold on a board of three piece kinds and two stone kinds.
    fn occupant(code: usize) -> Occupant {
        match code {
            0 => Occupant::EMPTY,
            1..=6 => {
                let side = if code % 2 == 1 {
                    Side::White
                } else {
                    Side::Black
                };
                Occupant::piece(side, PieceKindId::new((code - 1) / 2))
            }
            7..=9 => Occupant::neutral(PieceKindId::new(code - 7)),
            _ => Occupant::stone(StoneKindId::new(code - 10)),
        }
    }

    proptest! {
        /// After any sequence of puts, each piece slot's set is the cells (of the first 128)
        /// holding that piece, `kind_sets` agrees, a clone keeps them, and equality reads
        /// only the cells.
        #[test]
        fn puts_keep_the_piece_sets(
            cells in 1usize..200,
            puts in proptest::collection::vec((0usize..200, 0usize..12), 0..120),
        ) {
            let mut pos = Position::empty(cells, vec![0]);
            for &(c, code) in &puts {
                pos.put(Cell::new(c % cells), occupant(code));
            }
            let copy = pos.clone();
            for p in [&pos, &copy] {
                prop_assert_eq!(p.has_piece_sets(), cells <= 128);
                for slot in 0..6 {
                    let want = p.cells().iter().enumerate().take(128)
                        .filter(|(_, o)| o.piece_slot() == Some(slot))
                        .fold(0u128, |m, (i, _)| m | 1 << i);
                    prop_assert_eq!(p.piece_set(slot), want, "slot {}", slot);
                }
                for (k, sets) in p.kind_sets().enumerate() {
                    prop_assert_eq!(sets, [p.piece_set(2 * k), p.piece_set(2 * k + 1)]);
                }
                prop_assert!(p.kind_sets().count() <= 3);
            }
            // The same cells put in one step on a fresh board: equal, though the sets'
            // storage may differ.
            let mut fresh = Position::empty(cells, vec![0]);
            for (i, &o) in pos.cells().iter().enumerate() {
                fresh.put(Cell::new(i), o);
            }
            prop_assert_eq!(&fresh, &pos);
        }
    }

    #[test]
    fn a_piece_slot_is_side_and_kind() {
        assert_eq!(
            Occupant::piece(Side::White, PieceKindId::new(0)).piece_slot(),
            Some(0)
        );
        assert_eq!(
            Occupant::piece(Side::Black, PieceKindId::new(0)).piece_slot(),
            Some(1)
        );
        assert_eq!(
            Occupant::piece(Side::Black, PieceKindId::new(31)).piece_slot(),
            Some(63)
        );
        assert_eq!(Occupant::EMPTY.piece_slot(), None);
        assert_eq!(Occupant::neutral(PieceKindId::new(0)).piece_slot(), None);
        assert_eq!(Occupant::stone(StoneKindId::new(0)).piece_slot(), None);
    }
}
