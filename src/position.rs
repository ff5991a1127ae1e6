//! Game state: what stands on every cell, whose turn it is, the stone supplies and the taboo
//! cell. Position text (reading and writing) lives in [`crate::notation`].

use crate::board::{Cell, Side};

/// What stands on a cell, packed in a byte: empty, a piece (side and kind) or a stone kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Occupant(u8);

impl Occupant {
    /// An empty cell.
    pub const EMPTY: Occupant = Occupant(0);

    /// A piece of a side and kind (kind below 63).
    pub fn piece(side: Side, kind: u8) -> Occupant {
        debug_assert!(kind < 63);
        Occupant(1 + kind * 2 + side as u8)
    }

    /// A stone of a kind (below 127).
    pub fn stone(kind: u8) -> Occupant {
        debug_assert!(kind < 127);
        Occupant(0x80 | kind)
    }

    /// The packed byte (distinct for every occupant).
    #[inline]
    pub fn code(self) -> u8 {
        self.0
    }

    /// Whether the cell is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The piece's side and kind, if a piece.
    #[inline]
    pub fn as_piece(self) -> Option<(Side, u8)> {
        if self.0 == 0 || self.0 & 0x80 != 0 {
            return None;
        }
        let v = self.0 - 1;
        Some((if v & 1 == 0 { Side::White } else { Side::Black }, v >> 1))
    }

    /// The stone kind, if a stone.
    #[inline]
    pub fn as_stone(self) -> Option<u8> {
        (self.0 & 0x80 != 0).then_some(self.0 & 0x7f)
    }

    /// The filter bit of this occupant as seen by `mover` (see [`crate::compile::Filter`]).
    #[inline]
    pub fn bit_for(self, mover: Side) -> u32 {
        use crate::compile::Filter;
        if self.0 == 0 {
            Filter::EMPTY_BIT
        } else if self.0 & 0x80 != 0 {
            Filter::stone_bit(self.0 & 0x7f)
        } else {
            let v = self.0 - 1;
            if (v & 1) as usize == mover.index() {
                Filter::own_bit(v >> 1)
            } else {
                Filter::enemy_bit(v >> 1)
            }
        }
    }
}

/// A position of a game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// The occupant of every cell, by cell index.
    pub cells: Vec<Occupant>,
    /// The side to move.
    pub side: Side,
    /// Stones in hand per side, by stone kind.
    pub supplies: [Vec<u32>; 2],
    /// The cell emptied by an explosion in the previous turn, closed to stones for the side to
    /// move.
    pub taboo: Option<Cell>,
    /// Castling rights, one bit per declared castling.
    pub castling: u32,
    /// The cell a two-step pawn passed over in the previous turn.
    pub ep: Option<Cell>,
    /// Turns since the last capture or pawn move.
    pub halfmove: u32,
    /// The move number (starts at 1, grows after Black's turn).
    pub fullmove: u32,
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
            side: Side::White,
            supplies: [supplies.clone(), supplies],
            taboo: None,
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The occupant of a cell.
    #[inline]
    pub fn at(&self, c: Cell) -> Occupant {
        self.cells[c as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupant_round_trips() {
        for side in Side::BOTH {
            for k in [0u8, 5, 31] {
                assert_eq!(Occupant::piece(side, k).as_piece(), Some((side, k)));
                assert_eq!(Occupant::piece(side, k).as_stone(), None);
            }
        }
        assert_eq!(Occupant::stone(4).as_stone(), Some(4));
        assert_eq!(Occupant::stone(4).as_piece(), None);
        assert!(Occupant::EMPTY.is_empty());
        assert_eq!(
            Occupant::piece(Side::Black, 2).bit_for(Side::Black),
            crate::compile::Filter::own_bit(2)
        );
        assert_eq!(
            Occupant::piece(Side::Black, 2).bit_for(Side::White),
            crate::compile::Filter::enemy_bit(2)
        );
    }
}
