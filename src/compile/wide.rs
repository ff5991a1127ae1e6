//! A set of up to 256 cells in four 64-bit words: the cell sets of boards larger than 128
//! cells (see [`super::ranges`]). Cell `i` is bit `i % 64` of word `i / 64`, so the order of
//! the bits is the order of the cells' indices.

use crate::board::Cell;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// The most cells a [`Wide`] holds.
pub const WIDE_CELLS: usize = 256;

/// A set of cells of a board of at most [`WIDE_CELLS`] cells.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wide(pub [u64; 4]);

/// Each cell's one-cell set ([`Wide::of`]).
static ONE: [Wide; WIDE_CELLS] = {
    let mut t = [Wide::EMPTY; WIDE_CELLS];
    let mut i = 0;
    while i < WIDE_CELLS {
        t[i].0[i / 64] = 1 << (i % 64);
        i += 1;
    }
    t
};

impl Wide {
    /// No cell.
    pub const EMPTY: Wide = Wide([0; 4]);

    /// The set of one cell (of index below [`WIDE_CELLS`]).
    #[inline]
    pub fn of(c: Cell) -> Wide {
        // Read from a table: no store at a computed index, which a following load of the
        // whole set waited for (about a third of the time of reading a placement range was
        // spent there), and fewer instructions than building each word from a mask.
        ONE[c.index()]
    }

    /// The set of the cells of `words` (cell `i` at bit `i % 64` of word `i / 64`, as in
    /// [`crate::board::CellSet`]); words past the fourth are dropped.
    #[inline]
    pub fn from_words(words: &[u64]) -> Wide {
        let mut w = [0u64; 4];
        for (to, &from) in w.iter_mut().zip(words) {
            *to = from;
        }
        Wide(w)
    }

    /// The set of cells `0..n` (`n` at most [`WIDE_CELLS`]).
    pub fn first(n: usize) -> Wide {
        let mut w = [0u64; 4];
        for (k, word) in w.iter_mut().enumerate() {
            let lo = 64 * k;
            *word = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            };
        }
        Wide(w)
    }

    /// Whether `c` is in the set.
    #[inline]
    pub fn has(self, c: Cell) -> bool {
        let i = c.index();
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// The 64 cells from index `base` on (below [`WIDE_CELLS`]) as one word: cell `base + j`
    /// at bit `j`; cells past the last word read as absent.
    #[inline]
    pub fn word_at(self, base: usize) -> u64 {
        let (k, shift) = (base >> 6, base & 63);
        let low = self.0[k] >> shift;
        if shift == 0 || k == 3 {
            low
        } else {
            low | self.0[k + 1] << (64 - shift)
        }
    }

    /// Adds `c`.
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        *self |= Wide::of(c);
    }

    /// Takes `c` out.
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        *self = self.without(Wide::of(c));
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// How many cells it holds.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The cells of the set without those of `other`.
    #[inline]
    #[must_use]
    pub fn without(self, other: Wide) -> Wide {
        Wide([
            self.0[0] & !other.0[0],
            self.0[1] & !other.0[1],
            self.0[2] & !other.0[2],
            self.0[3] & !other.0[3],
        ])
    }

    /// The index of the lowest cell (the set is not empty).
    #[inline]
    pub fn lowest(self) -> usize {
        for (k, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return 64 * k + w.trailing_zeros() as usize;
            }
        }
        WIDE_CELLS
    }

    /// The index of the highest cell (the set is not empty).
    #[inline]
    pub fn highest(self) -> usize {
        for k in (0..4).rev() {
            let w = self.0[k];
            if w != 0 {
                return 64 * k + 63 - w.leading_zeros() as usize;
            }
        }
        WIDE_CELLS
    }

    /// The cells of the set, lowest first.
    #[inline]
    pub fn cells(self) -> Cells {
        Cells {
            words: self.0,
            k: 0,
        }
    }
}

/// The cells of a [`Wide`], lowest first ([`Wide::cells`]).
#[derive(Debug, Clone)]
pub struct Cells {
    /// The cells not yet given, in the words from `k` on.
    words: [u64; 4],
    k: usize,
}

impl Iterator for Cells {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while let Some(w) = self.words.get_mut(self.k) {
            if *w != 0 {
                let i = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(Cell::new(64 * self.k + i));
            }
            self.k += 1;
        }
        None
    }
}

impl BitAnd for Wide {
    type Output = Wide;
    #[inline]
    fn bitand(self, o: Wide) -> Wide {
        Wide([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
}

impl BitOr for Wide {
    type Output = Wide;
    #[inline]
    fn bitor(self, o: Wide) -> Wide {
        Wide([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
}

impl BitAndAssign for Wide {
    #[inline]
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}

impl BitOrAssign for Wide {
    #[inline]
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_set_keeps_cells_in_every_word_and_finds_its_ends() {
        let cells = [0usize, 63, 64, 127, 128, 177, 255];
        let mut s = Wide::EMPTY;
        for &c in &cells {
            s.insert(Cell::new(c));
        }
        assert_eq!(s.len(), 7);
        assert_eq!(s.cells().map(Cell::index).collect::<Vec<_>>(), cells);
        assert_eq!(s.lowest(), 0);
        assert_eq!(s.highest(), 255);
        s.remove(Cell::new(0));
        s.remove(Cell::new(255));
        assert_eq!((s.lowest(), s.highest()), (63, 177));
        assert!(s.has(Cell::new(128)) && !s.has(Cell::new(129)));
        assert_eq!(Wide::first(178).len(), 178);
        assert_eq!(Wide::first(178).highest(), 177);
        assert_eq!((Wide::first(70) & !Wide::first(64)).len(), 6);
        assert!(Wide::first(0).is_empty());
        assert_eq!(Wide::first(256).without(Wide::first(255)).lowest(), 255);
    }

    #[test]
    fn a_word_at_any_cell_reads_the_64_cells_from_it_across_words() {
        let cells = [0usize, 5, 63, 64, 100, 127, 128, 190, 200, 255];
        let mut s = Wide::EMPTY;
        for &c in &cells {
            s.insert(Cell::new(c));
        }
        for base in 0..WIDE_CELLS {
            let want = cells
                .iter()
                .filter(|&&c| c >= base && c < base + 64)
                .fold(0u64, |w, &c| w | 1 << (c - base));
            assert_eq!(s.word_at(base), want, "from cell {base}");
        }
    }
}
