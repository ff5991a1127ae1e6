//! What stands on a cell: nothing, a piece of a side and kind, or a stone of a kind.

use super::{PieceKindId, Side, StoneKindId};

/// What stands on a cell, packed in a byte: empty, a piece (side and kind) or a stone kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Occupant(u8);

/// The first code of a neutral piece (after both sides' 64 piece codes).
const NEUTRAL0: u8 = 65;

impl Occupant {
    /// An empty cell.
    pub const EMPTY: Occupant = Occupant(0);

    /// A piece of a side and kind.
    pub fn piece(side: Side, kind: PieceKindId) -> Occupant {
        #[allow(clippy::cast_possible_truncation)] // kinds are below 32: 1 + 2k + side < 128
        Occupant(1 + kind.index() as u8 * 2 + side as u8)
    }

    /// A stone of a kind.
    /// A neutral piece of a kind: a third owner's, moved by whichever side has the
    /// influence (Border Wars's neutral pawns).
    pub fn neutral(kind: PieceKindId) -> Occupant {
        #[allow(clippy::cast_possible_truncation)] // kinds are below 32: 65 + k < 128
        Occupant(NEUTRAL0 + kind.index() as u8)
    }

    /// The kind of a neutral piece.
    #[inline]
    pub fn as_neutral(self) -> Option<PieceKindId> {
        (self.0 >= NEUTRAL0 && self.0 & 0x80 == 0)
            .then(|| PieceKindId::new(usize::from(self.0 - NEUTRAL0)))
    }

    pub fn stone(kind: StoneKindId) -> Occupant {
        #[allow(clippy::cast_possible_truncation)] // stone kinds are below 60
        Occupant(0x80 | kind.index() as u8)
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
    pub fn as_piece(self) -> Option<(Side, PieceKindId)> {
        if self.0 == 0 || self.0 & 0x80 != 0 || self.0 >= NEUTRAL0 {
            return None;
        }
        let v = self.0 - 1;
        Some((
            if v & 1 == 0 { Side::White } else { Side::Black },
            PieceKindId::new(usize::from(v >> 1)),
        ))
    }

    /// A piece's slot, `2 * kind + side` (White 0, Black 1), below 64; `None` for anything
    /// but a piece of a side.
    #[inline]
    pub fn piece_slot(self) -> Option<usize> {
        let j = self.0.wrapping_sub(1);
        (j < NEUTRAL0 - 1).then_some(usize::from(j))
    }

    /// The stone kind, if a stone.
    #[inline]
    pub fn as_stone(self) -> Option<StoneKindId> {
        (self.0 & 0x80 != 0).then(|| StoneKindId::new(usize::from(self.0 & 0x7f)))
    }

    /// The filter bit of this occupant as seen by `mover` (see [`crate::core::Filter`]): a table lookup
    /// (the interpreter asks at every cell it passes).
    #[inline]
    pub fn bit_for(self, mover: Side) -> u32 {
        u32::from(BITS[mover.index()][usize::from(self.0)])
    }
}

/// [`Occupant::bit_for`] for every code, per mover (White, Black).
static BITS: [[u8; 256]; 2] = [bit_table(0), bit_table(1)];

/// The filter bit of every occupant code as seen by the mover of index `mover`.
const fn bit_table(mover: u8) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        // `i` < 256: a byte.
        #[allow(clippy::cast_possible_truncation)]
        let c = i as u8;
        // Every bit below fits a byte: stone codes are 0x80 + kind (< 0x80), piece and
        // neutral codes below 0x80.
        #[allow(clippy::cast_possible_truncation)]
        let bit = if c == 0 {
            super::filter::EMPTY_BIT as u8
        } else if c & 0x80 != 0 {
            super::filter::STONE0 as u8 + (c & 0x7f)
        } else if c >= NEUTRAL0 {
            // A neutral piece is in every side's way and open to every side's captures.
            super::filter::ENEMY0 as u8 + (c - NEUTRAL0)
        } else {
            let v = c - 1;
            if v & 1 == mover {
                super::filter::OWN0 as u8 + (v >> 1)
            } else {
                super::filter::ENEMY0 as u8 + (v >> 1)
            }
        };
        t[i] = bit;
        i += 1;
    }
    t
}

/// Calls `f` with the index and occupant of every cell of `cells` that is not empty, in cell
/// order. Eight cells are looked at at a time, so that the empty ones cost next to nothing.
#[inline]
pub fn each_filled(cells: &[Occupant], mut f: impl FnMut(usize, Occupant)) {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let chunks = cells.chunks_exact(8);
    let rest = chunks.remainder();
    for (j, chunk) in chunks.enumerate() {
        let x = u64::from_le_bytes(std::array::from_fn(|b| chunk[b].code()));
        // The high bit of each byte that is not zero.
        let mut full = ((x & LOW7).wrapping_add(LOW7) | x) & !LOW7;
        while full != 0 {
            let b = full.trailing_zeros() as usize / 8;
            full &= full - 1;
            f(8 * j + b, chunk[b]);
        }
    }
    let base = cells.len() - rest.len();
    for (b, &o) in rest.iter().enumerate() {
        if !o.is_empty() {
            f(base + b, o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Filter;
    use super::*;

    #[test]
    fn each_filled_visits_every_cell_not_empty_once_in_order() {
        // Lengths around a multiple of eight, codes at both ends of the byte.
        for len in [0, 1, 7, 8, 9, 16, 23, 90] {
            let cells: Vec<Occupant> = (0..len)
                .map(|i: usize| match i % 5 {
                    0 | 3 => Occupant::EMPTY,
                    1 => Occupant(0xff),
                    _ => Occupant(u8::try_from(i % 251 + 1).unwrap_or(1)),
                })
                .collect();
            let mut seen = Vec::new();
            each_filled(&cells, |i, o| seen.push((i, o)));
            let want: Vec<(usize, Occupant)> = cells
                .iter()
                .enumerate()
                .filter(|(_, o)| !o.is_empty())
                .map(|(i, &o)| (i, o))
                .collect();
            assert_eq!(seen, want, "{len} cells");
        }
    }

    #[test]
    fn filter_bits_by_the_table_are_the_occupants_classes() {
        for side in Side::BOTH {
            assert_eq!(Occupant::EMPTY.bit_for(side), Filter::EMPTY_BIT);
            for k in (0..32).map(PieceKindId::new) {
                assert_eq!(Occupant::piece(side, k).bit_for(side), Filter::own_bit(k));
                assert_eq!(
                    Occupant::piece(side.opponent(), k).bit_for(side),
                    Filter::enemy_bit(k)
                );
                assert_eq!(Occupant::neutral(k).bit_for(side), Filter::enemy_bit(k));
            }
            for k in (0..60).map(StoneKindId::new) {
                assert_eq!(Occupant::stone(k).bit_for(side), Filter::stone_bit(k));
            }
        }
    }

    #[test]
    fn occupant_round_trips() {
        for side in Side::BOTH {
            for k in [0, 5, 31].map(PieceKindId::new) {
                assert_eq!(Occupant::piece(side, k).as_piece(), Some((side, k)));
                assert_eq!(Occupant::piece(side, k).as_stone(), None);
            }
        }
        for k in [0, 31].map(PieceKindId::new) {
            assert_eq!(Occupant::neutral(k).as_neutral(), Some(k));
            assert_eq!(Occupant::neutral(k).as_piece(), None);
            assert_eq!(Occupant::neutral(k).as_stone(), None);
            assert_eq!(
                Occupant::neutral(k).bit_for(Side::White),
                Filter::enemy_bit(k)
            );
            assert_eq!(
                Occupant::neutral(k).bit_for(Side::Black),
                Filter::enemy_bit(k)
            );
        }
        assert_eq!(
            Occupant::piece(Side::Black, PieceKindId::new(31)).as_neutral(),
            None
        );
        let four = StoneKindId::new(4);
        assert_eq!(Occupant::stone(four).as_stone(), Some(four));
        assert_eq!(Occupant::stone(four).as_piece(), None);
        assert!(Occupant::EMPTY.is_empty());
        let two = PieceKindId::new(2);
        assert_eq!(
            Occupant::piece(Side::Black, two).bit_for(Side::Black),
            Filter::own_bit(two)
        );
        assert_eq!(
            Occupant::piece(Side::Black, two).bit_for(Side::White),
            Filter::enemy_bit(two)
        );
    }
}
