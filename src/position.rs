//! Game state: what stands on every cell, whose turn it is, the stone supplies and the taboo
//! cell. Position text (reading and writing) lives in [`crate::text`].

use crate::board::Cell;
pub use crate::core::Occupant;
use crate::core::{BySide, Side};

/// A position of a game.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The occupant of every cell, by cell index.
    pub cells: Vec<Occupant>,
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
}
