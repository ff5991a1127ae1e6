//! Occupant filters: sets of occupants as seen by the side that moves (own and enemy piece
//! kinds, stone kinds, empty, and "no cell").

use super::{PieceKindId, StoneKindId};

pub(crate) const OWN0: u32 = 0;
pub(crate) const ENEMY0: u32 = 32;
pub(crate) const STONE0: u32 = 64;
pub(crate) const EMPTY_BIT: u32 = 126;
pub(crate) const HOLE_BIT: u32 = 127;

/// An occupant filter as a bit set over occupant codes relative to the mover: own piece kinds,
/// enemy piece kinds, stone kinds, "empty" and "no cell" (a hole in the mask or off the board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Filter(pub u128);

impl Filter {
    /// Matches nothing.
    pub const NONE: Filter = Filter(0);
    /// Matches an empty cell only.
    pub const EMPTY: Filter = Filter(1 << EMPTY_BIT);

    /// Bit of an own piece kind.
    #[inline]
    pub fn own_bit(kind: PieceKindId) -> u32 {
        OWN0 + kind.as_u32()
    }
    /// Bit of an enemy piece kind.
    #[inline]
    pub fn enemy_bit(kind: PieceKindId) -> u32 {
        ENEMY0 + kind.as_u32()
    }
    /// Bit of a stone kind.
    #[inline]
    pub fn stone_bit(kind: StoneKindId) -> u32 {
        STONE0 + kind.as_u32()
    }
    /// Bit of an empty cell.
    pub const EMPTY_BIT: u32 = EMPTY_BIT;
    /// Bit of a missing cell.
    pub const HOLE_BIT: u32 = HOLE_BIT;

    /// Whether the filter holds the bit.
    #[inline]
    pub fn has(self, bit: u32) -> bool {
        self.0 & (1u128 << bit) != 0
    }

    /// This filter with one more bit.
    pub(crate) fn with(self, bit: u32) -> Filter {
        Filter(self.0 | (1u128 << bit))
    }
}
