//! What stands on a cell: nothing, a piece of a side and kind, or a stone of a kind.

use super::{Filter, Side};

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

    /// The filter bit of this occupant as seen by `mover` (see [`Filter`]).
    #[inline]
    pub fn bit_for(self, mover: Side) -> u32 {
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
            Filter::own_bit(2)
        );
        assert_eq!(
            Occupant::piece(Side::Black, 2).bit_for(Side::White),
            Filter::enemy_bit(2)
        );
    }
}
