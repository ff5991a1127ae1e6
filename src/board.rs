//! Board topology: which cells exist, their names, colours, named regions, and the link tables
//! that the move interpreter walks. The board knows no pieces.

pub use crate::core::Side;

/// A dense index of an existing cell, numbered rank by rank from the lowest rank and, within a
/// rank, from the lowest file.
pub type Cell = u16;

/// Marks "no cell" in link tables.
pub const NO_CELL: Cell = Cell::MAX;

/// A set of cells as a bit set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CellSet {
    words: Vec<u64>,
}

impl CellSet {
    /// An empty set able to hold `n` cells.
    pub fn new(n: usize) -> Self {
        CellSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// Adds a cell.
    pub fn insert(&mut self, c: Cell) {
        self.words[c as usize / 64] |= 1 << (c % 64);
    }

    /// Whether the cell is in the set.
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        self.words
            .get(c as usize / 64)
            .is_some_and(|w| w & (1 << (c % 64)) != 0)
    }

    /// The cells of the set in index order.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w & (1u64 << b) != 0)
                .map(move |b| (i * 64 + b) as Cell)
        })
    }

    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
}

/// The shape of the board: a grid of files and ranks with a mask of existing cells.
#[derive(Debug, Clone)]
pub struct Topology {
    file_labels: Vec<String>,
    ranks: usize,
    grid: Vec<Cell>,
    coords: Vec<(u8, u8)>,
}

impl Topology {
    /// Builds a topology from file labels, the rank count and a predicate that tells which
    /// (file index, rank index) exist (both from 0).
    pub fn new(
        file_labels: Vec<String>,
        ranks: usize,
        exists: impl Fn(usize, usize) -> bool,
    ) -> Self {
        let files = file_labels.len();
        let mut grid = vec![NO_CELL; files * ranks];
        let mut coords = Vec::new();
        for r in 0..ranks {
            for f in 0..files {
                if exists(f, r) {
                    grid[r * files + f] = coords.len() as Cell;
                    coords.push((f as u8, r as u8));
                }
            }
        }
        Topology {
            file_labels,
            ranks,
            grid,
            coords,
        }
    }

    /// Number of existing cells.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether the board has no cells.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// Number of files.
    pub fn files(&self) -> usize {
        self.file_labels.len()
    }

    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// The label of a file index.
    pub fn file_label(&self, f: usize) -> &str {
        &self.file_labels[f]
    }

    /// The cell at a file and rank index (from 0), if it exists.
    #[inline]
    pub fn cell_at(&self, f: i32, r: i32) -> Option<Cell> {
        if f < 0 || r < 0 || f as usize >= self.files() || r as usize >= self.ranks {
            return None;
        }
        let c = self.grid[r as usize * self.files() + f as usize];
        (c != NO_CELL).then_some(c)
    }

    /// File and rank index (from 0) of a cell.
    #[inline]
    pub fn coord(&self, c: Cell) -> (i32, i32) {
        let (f, r) = self.coords[c as usize];
        (f as i32, r as i32)
    }

    /// All cells in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        0..self.len() as Cell
    }

    /// The cell's name: file label followed by rank number (`B1`).
    pub fn name(&self, c: Cell) -> String {
        let (f, r) = self.coord(c);
        format!("{}{}", self.file_labels[f as usize], r + 1)
    }

    /// Parses a cell name, case-insensitively. Returns the file and rank indexes even when the
    /// cell is missing from the mask (`Err(Some(..))`), so that errors can say so.
    pub fn parse_coord(&self, text: &str) -> Option<(usize, usize)> {
        let text = text.trim();
        let split = text.find(|ch: char| ch.is_ascii_digit())?;
        let (file, rank) = text.split_at(split);
        let f = self
            .file_labels
            .iter()
            .position(|l| l.eq_ignore_ascii_case(file))?;
        if !rank.bytes().all(|b| b.is_ascii_digit()) || rank.starts_with('0') {
            return None;
        }
        let r: usize = rank.parse().ok()?;
        (r >= 1 && r <= self.ranks).then_some((f, r - 1))
    }

    /// Parses a cell name into an existing cell.
    pub fn parse_cell(&self, text: &str) -> Result<Cell, CellNameError> {
        match self.parse_coord(text) {
            None => Err(CellNameError::Malformed(text.to_string())),
            Some((f, r)) => self
                .cell_at(f as i32, r as i32)
                .ok_or_else(|| CellNameError::Missing(text.to_string())),
        }
    }

    /// The cell's colour under the chequered colouring: 0 when file + rank index is even.
    pub fn colour(&self, c: Cell) -> u8 {
        let (f, r) = self.coord(c);
        ((f + r) & 1) as u8
    }

    /// The cells of a rank (index from 0), from the lowest file up.
    pub fn rank_cells(&self, r: usize) -> impl Iterator<Item = Cell> + '_ {
        (0..self.files()).filter_map(move |f| self.cell_at(f as i32, r as i32))
    }
}

/// A cell name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CellNameError {
    /// Not a file label followed by a rank number of this board.
    #[error("`{0}` is not a cell name (a file label followed by a rank number)")]
    Malformed(String),
    /// A well-formed name of a cell that the board's mask leaves out.
    #[error("`{0}` is not on the board (the mask leaves that cell out)")]
    Missing(String),
}

/// Precomputed links: for a vector id and a cell, the cell reached by that offset.
#[derive(Debug, Clone, Default)]
pub struct LinkTable {
    vectors: Vec<(i8, i8)>,
    links: Vec<Cell>,
    cells: usize,
}

impl LinkTable {
    /// An empty table for a board of `cells` cells.
    pub fn new(cells: usize) -> Self {
        LinkTable {
            vectors: Vec::new(),
            links: Vec::new(),
            cells,
        }
    }

    /// The id of a vector, adding it (and its links) if it is new.
    pub fn intern(&mut self, topo: &Topology, v: (i8, i8)) -> u16 {
        if let Some(i) = self.vectors.iter().position(|&w| w == v) {
            return i as u16;
        }
        self.vectors.push(v);
        for c in topo.cells() {
            let (f, r) = topo.coord(c);
            self.links.push(
                topo.cell_at(f + v.0 as i32, r + v.1 as i32)
                    .unwrap_or(NO_CELL),
            );
        }
        (self.vectors.len() - 1) as u16
    }

    /// The cell one vector away, or [`NO_CELL`].
    #[inline]
    pub fn link(&self, v: u16, c: Cell) -> Cell {
        self.links[v as usize * self.cells + c as usize]
    }

    /// The offset of a vector id.
    pub fn vector(&self, v: u16) -> (i8, i8) {
        self.vectors[v as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plus() -> Topology {
        // a 3x3 grid without corners
        Topology::new(vec!["a".into(), "b".into(), "c".into()], 3, |f, r| {
            f == 1 || r == 1
        })
    }

    #[test]
    fn cells_are_numbered_rank_by_rank() {
        let t = plus();
        assert_eq!(t.len(), 5);
        assert_eq!(t.name(0), "b1");
        assert_eq!(t.name(1), "a2");
        assert_eq!(t.name(4), "b3");
    }

    #[test]
    fn names_parse_case_insensitively_and_report_holes() {
        let t = plus();
        assert_eq!(t.parse_cell("B2"), Ok(2));
        assert_eq!(t.parse_cell("a1"), Err(CellNameError::Missing("a1".into())));
        assert!(matches!(
            t.parse_cell("z9"),
            Err(CellNameError::Malformed(_))
        ));
        assert!(matches!(
            t.parse_cell("b0"),
            Err(CellNameError::Malformed(_))
        ));
        assert!(matches!(
            t.parse_cell("b4"),
            Err(CellNameError::Malformed(_))
        ));
    }

    #[test]
    fn links_stop_at_holes() {
        let t = plus();
        let mut l = LinkTable::new(t.len());
        let up = l.intern(&t, (0, 1));
        let right = l.intern(&t, (1, 0));
        assert_eq!(l.intern(&t, (0, 1)), up);
        assert_eq!(l.link(up, 0), 2);
        assert_eq!(l.link(right, 0), NO_CELL);
    }
}
