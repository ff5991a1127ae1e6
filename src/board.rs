//! Board topology: which cells exist, their names, colours, named regions, and the link tables
//! that the move interpreter walks. The board knows no pieces.

// Coordinates: a board has at most 64 files and 64 ranks (the loader's limits), so file and
// rank indexes, their sums and differences and the cell count (at most 4096) fit every integer
// type used below; the casts between them cannot truncate, wrap or lose a sign that matters.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

pub use crate::core::Side;

/// The eight vectors to a cell's neighbours (orthogonal and diagonal), clockwise from
/// forward as White sees it.
pub const NEIGHBOURS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// An existing cell of a board: a dense index, numbered rank by rank from the lowest rank and,
/// within a rank, from the lowest file. Boards have at most [`MAX_CELLS`] cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell(u16);

/// Most cells a board may have (64 files × 64 ranks, the loader's limits).
pub const MAX_CELLS: usize = 64 * 64;

impl Cell {
    /// The cell with this index (below [`MAX_CELLS`]).
    #[inline]
    pub const fn new(index: usize) -> Cell {
        debug_assert!(index < MAX_CELLS);
        #[allow(clippy::cast_possible_truncation)] // below MAX_CELLS, which fits 16 bits
        Cell(index as u16)
    }

    /// Its index, for tables with one entry per cell.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Marks "no cell" in link tables.
pub const NO_CELL: Cell = Cell(u16::MAX);

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

    /// Empties the set and makes it able to hold `n` cells, keeping its allocation.
    pub fn reset(&mut self, n: usize) {
        self.words.clear();
        self.words.resize(n.div_ceil(64), 0);
    }

    /// Adds a cell.
    pub fn insert(&mut self, c: Cell) {
        self.words[c.index() / 64] |= 1 << (c.index() % 64);
    }

    /// Adds the cells of `bits` (cell `i` at bit `i`, the first 128 cells of the board).
    #[inline]
    pub fn insert_low128(&mut self, bits: u128) {
        #[allow(clippy::cast_possible_truncation)] // the low and the high 64 bits
        for (i, w) in [bits as u64, (bits >> 64) as u64].into_iter().enumerate() {
            if let Some(x) = self.words.get_mut(i) {
                *x |= w;
            }
        }
    }

    /// Makes the set the union of `a` and `b` (sets of one board), keeping its allocation.
    pub fn union_of(&mut self, a: &CellSet, b: &CellSet) {
        self.words.clear();
        self.words
            .extend(a.words.iter().zip(&b.words).map(|(x, y)| x | y));
    }

    /// The set's first 128 cells as one bit set (cell `i` at bit `i`).
    #[inline]
    pub fn low128(&self) -> u128 {
        let w = |i: usize| u128::from(self.words.get(i).copied().unwrap_or(0));
        w(0) | (w(1) << 64)
    }

    /// The set's 64-bit words, cell `i` at bit `i % 64` of word `i / 64`.
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Whether the cell is in the set.
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        self.words
            .get(c.index() / 64)
            .is_some_and(|w| w & (1 << (c.index() % 64)) != 0)
    }

    /// The cells of the set in index order.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w & (1u64 << b) != 0)
                .map(move |b| Cell::new(i * 64 + b))
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

/// The first component of a virtual vector: a direction whose offset depends on the class of
/// the cell it starts from (see [`ClassedSet`]). Plain offsets stay within ±16.
pub const VIRTUAL0: i8 = 64;

/// A direction set whose offsets depend on the class of cell they start from (Border Wars's
/// crosspoint: two cells along the segment's own axis). Its vectors are numbered; vector `j`
/// goes from each cell by that cell's class's `j`-th offset.
#[derive(Debug, Clone)]
pub struct ClassedSet {
    /// Its name in the variant file.
    pub name: String,
    /// For each of its vectors, the offset from each cell (by cell index); `None` where the
    /// cell is in no class of the set.
    pub offsets: Vec<Vec<Option<(i8, i8)>>>,
}

/// The shape of the board: a grid of files and ranks with a mask of existing cells.
#[derive(Debug, Clone)]
pub struct Topology {
    file_labels: Vec<String>,
    ranks: usize,
    grid: Vec<Cell>,
    coords: Vec<(u8, u8)>,
    /// Per cell, `rank * (2 * files - 1) + file`: the difference of two cells' keys
    /// identifies their offset (see [`Topology::offset_key`]).
    keys: Vec<u32>,
    classed: Vec<ClassedSet>,
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
                    grid[r * files + f] = Cell::new(coords.len());
                    coords.push((f as u8, r as u8));
                }
            }
        }
        Topology {
            file_labels,
            ranks,
            grid,
            keys: coords
                .iter()
                .map(|&(f, r)| u32::from(r) * (2 * files as u32 - 1) + u32::from(f))
                .collect(),
            coords,
            classed: Vec::new(),
        }
    }

    /// Declares the direction sets whose offsets depend on the class of cell.
    pub fn set_classed(&mut self, sets: Vec<ClassedSet>) {
        self.classed = sets;
    }

    /// The classed direction sets, with the id of each one's first virtual vector.
    pub fn classed(&self) -> impl Iterator<Item = (&ClassedSet, usize)> + '_ {
        let mut first = 0;
        self.classed.iter().map(move |c| {
            let id = first;
            first += c.offsets.len();
            (c, id)
        })
    }

    /// The offset of virtual vector `id` (numbered over all classed sets) from a cell.
    fn virtual_offset(&self, id: usize, c: Cell) -> Option<(i8, i8)> {
        let mut id = id;
        for set in &self.classed {
            if id < set.offsets.len() {
                return set.offsets[id].get(c.index()).copied().flatten();
            }
            id -= set.offsets.len();
        }
        None
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

    /// The cell at a file and rank index (from 0), if it exists. Board-internal: everything
    /// outside asks in terms of cells, vectors and sides.
    #[inline]
    fn cell_at(&self, f: i32, r: i32) -> Option<Cell> {
        if f < 0 || r < 0 || f as usize >= self.files() || r as usize >= self.ranks {
            return None;
        }
        let c = self.grid[r as usize * self.files() + f as usize];
        (c != NO_CELL).then_some(c)
    }

    /// A number per cell such that `offset_key(b) - offset_key(a)` (as `i64`) depends only
    /// on the offset from `a` to `b`: `rank offset * (2 * files - 1) + file offset`.
    #[inline]
    pub fn offset_key(&self, c: Cell) -> u32 {
        self.keys[c.index()]
    }

    /// File and rank index (from 0) of a cell (board-internal).
    #[inline]
    pub fn coord(&self, c: Cell) -> (i32, i32) {
        let (f, r) = self.coords[c.index()];
        (i32::from(f), i32::from(r))
    }

    /// All cells in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.len()).map(Cell::new)
    }

    /// The cell's name: file label followed by rank number (`B1`).
    pub fn name(&self, c: Cell) -> String {
        let (f, r) = self.coord(c);
        format!("{}{}", self.file_labels[f as usize], r + 1)
    }

    /// Parses a cell name, case-insensitively, into file and rank indexes, also for a cell the
    /// mask leaves out.
    fn parse_coord(&self, text: &str) -> Option<(usize, usize)> {
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

    /// The cell one vector `v` (files, ranks; White's orientation) away from `c`.
    pub fn offset(&self, c: Cell, v: (i8, i8)) -> Option<Cell> {
        let (f, r) = self.coord(c);
        self.cell_at(f + i32::from(v.0), r + i32::from(v.1))
    }

    /// The cells along vector `v` from `c` (not including `c`), up to the edge of the board or
    /// the first hole in the mask.
    pub fn line(&self, c: Cell, v: (i8, i8)) -> impl Iterator<Item = Cell> + '_ {
        let (mut f, mut r) = self.coord(c);
        std::iter::from_fn(move || {
            f += i32::from(v.0);
            r += i32::from(v.1);
            self.cell_at(f, r)
        })
    }

    /// The cell `n` ranks ahead of `c` for `side` (White's ahead is up; negative `n` is
    /// behind), on the same file.
    pub fn ahead(&self, c: Cell, side: Side, n: i8) -> Option<Cell> {
        let n = if side == Side::White { n } else { -n };
        self.offset(c, (0, n))
    }

    /// The cell halfway along a two-cell straight line (orthogonal or diagonal) from `a` to
    /// `b`; `None` when they are not two cells apart on such a line.
    pub fn between(&self, a: Cell, b: Cell) -> Option<Cell> {
        let (fa, ra) = self.coord(a);
        let (fb, rb) = self.coord(b);
        let (df, dr) = (fb - fa, rb - ra);
        let straight = (df == 0 || df.abs() == 2) && (dr == 0 || dr.abs() == 2);
        if !straight || (df == 0 && dr == 0) {
            return None;
        }
        self.cell_at(fa + df / 2, ra + dr / 2)
    }

    /// Where a cell is drawn: (column from the left, row from the top) of the board picture,
    /// whose size is [`Topology::files`] × [`Topology::ranks`].
    pub fn layout(&self, c: Cell) -> (usize, usize) {
        let (f, r) = self.coords[c.index()];
        (f as usize, self.ranks - 1 - r as usize)
    }

    /// The cell drawn at a column and row of the board picture, if any.
    pub fn at_layout(&self, col: usize, row: usize) -> Option<Cell> {
        if row >= self.ranks {
            return None;
        }
        self.cell_at(col as i32, (self.ranks - 1 - row) as i32)
    }

    /// The image of a cell under a half turn of the board, if that cell exists.
    pub fn half_turn(&self, c: Cell) -> Option<Cell> {
        let (f, r) = self.coord(c);
        self.cell_at(self.files() as i32 - 1 - f, self.ranks as i32 - 1 - r)
    }

    /// All cells, file by file (each from the lowest rank up).
    pub fn cells_by_file(&self) -> Vec<Cell> {
        let mut v: Vec<Cell> = self.cells().collect();
        v.sort_by_key(|&c| self.coord(c));
        v
    }

    /// The cells of a rectangle given by two corner names (`B2`, `D4`, any order); `None`
    /// when a name is not a cell name of this board. Cells the mask leaves out are skipped.
    pub fn rectangle(&self, a: &str, b: &str) -> Option<Vec<Cell>> {
        let (f1, r1) = self.parse_coord(a)?;
        let (f2, r2) = self.parse_coord(b)?;
        let mut out = Vec::new();
        for f in f1.min(f2)..=f1.max(f2) {
            for r in r1.min(r2)..=r1.max(r2) {
                out.extend(self.cell_at(f as i32, r as i32));
            }
        }
        Some(out)
    }

    /// The number of files as an `i32` (at most 64).
    fn coord_extent(&self) -> i32 {
        self.files() as i32
    }

    /// The number of ranks as an `i32` (at most 64).
    fn ranks_i32(&self) -> i32 {
        self.ranks as i32
    }

    /// The squared distance of a cell from the middle of the board picture (for picking a
    /// central cell).
    pub fn distance_from_centre(&self, c: Cell) -> f64 {
        let (f, r) = self.coord(c);
        let (files, ranks) = (self.coord_extent(), self.ranks_i32());
        let cf = (f64::from(files) - 1.0) / 2.0;
        let cr = (f64::from(ranks) - 1.0) / 2.0;
        (f64::from(f) - cf).powi(2) + (f64::from(r) - cr).powi(2)
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
            // A virtual vector: the offset of the cell's class, mirrored for Black (v.1 < 0).
            let off = if v.0 >= VIRTUAL0 {
                topo.virtual_offset((v.0 - VIRTUAL0) as usize, c)
                    .map(|(a, b)| if v.1 < 0 { (a, -b) } else { (a, b) })
            } else {
                Some(v)
            };
            self.links.push(
                off.and_then(|(a, b)| topo.cell_at(f + i32::from(a), r + i32::from(b)))
                    .unwrap_or(NO_CELL),
            );
        }
        (self.vectors.len() - 1) as u16
    }

    /// Whether a vector id is a virtual one (its offset depends on the cell's class).
    pub fn is_virtual(&self, v: u16) -> bool {
        self.vectors[v as usize].0 >= VIRTUAL0
    }

    /// The cell one vector away, or [`NO_CELL`].
    #[inline]
    pub fn link(&self, v: u16, c: Cell) -> Cell {
        self.links[v as usize * self.cells + c.index()]
    }

    /// How many vector ids there are.
    pub fn vector_count(&self) -> usize {
        self.vectors.len()
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
        assert_eq!(t.name(Cell::new(0)), "b1");
        assert_eq!(t.name(Cell::new(1)), "a2");
        assert_eq!(t.name(Cell::new(4)), "b3");
    }

    #[test]
    fn names_parse_case_insensitively_and_report_holes() {
        let t = plus();
        assert_eq!(t.parse_cell("B2"), Ok(Cell::new(2)));
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
        assert_eq!(l.link(up, Cell::new(0)), Cell::new(2));
        assert_eq!(l.link(right, Cell::new(0)), NO_CELL);
    }

    #[test]
    fn geometry_is_asked_in_cells_vectors_and_sides() {
        // A full 5x5 board.
        let t = Topology::new(
            ["a", "b", "c", "d", "e"].map(String::from).to_vec(),
            5,
            |_, _| true,
        );
        let c = |n: &str| t.parse_cell(n).unwrap();
        assert_eq!(t.between(c("c1"), c("c3")), Some(c("c2")));
        assert_eq!(t.between(c("a1"), c("c3")), Some(c("b2")));
        assert_eq!(t.between(c("a1"), c("b3")), None);
        assert_eq!(t.between(c("a1"), c("a4")), None);
        assert_eq!(t.ahead(c("c2"), Side::White, 1), Some(c("c3")));
        assert_eq!(t.ahead(c("c2"), Side::Black, 1), Some(c("c1")));
        assert_eq!(t.ahead(c("c1"), Side::Black, 1), None);
        let line: Vec<String> = t.line(c("b2"), (1, 1)).map(|x| t.name(x)).collect();
        assert_eq!(line, ["c3", "d4", "e5"]);
        assert_eq!(t.layout(c("a5")), (0, 0));
        assert_eq!(t.layout(c("e1")), (4, 4));
        assert_eq!(t.at_layout(4, 4), Some(c("e1")));
        assert_eq!(t.half_turn(c("a1")), Some(c("e5")));
        let r: Vec<String> = t
            .rectangle("d2", "b1")
            .unwrap()
            .iter()
            .map(|&x| t.name(x))
            .collect();
        assert_eq!(r, ["b1", "b2", "c1", "c2", "d1", "d2"]);
        assert!(t.rectangle("b1", "z9").is_none());
        assert!(t.distance_from_centre(c("c3")) < t.distance_from_centre(c("c2")));
    }
}
