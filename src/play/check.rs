//! Whether a position can be played at all: its size, the royal pieces, check of the side
//! not to move, en passant.

use crate::board::Cell;
use crate::core::Side;
use crate::position::Position;
use crate::rules::Ruleset;

use super::generate::Generator;

/// Why a position cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unplayable {
    /// The position has another number of cells or stone kinds than the variant.
    WrongSize {
        /// Its cells.
        cells: usize,
        /// Its stone kinds.
        stones: usize,
    },
    /// A variant with royal pieces needs exactly one a side.
    RoyalCount {
        /// The side.
        side: Side,
        /// Where its royal pieces stand.
        at: Vec<Cell>,
    },
    /// The side that just moved left its royal piece attacked.
    OpponentInCheck {
        /// The side to move.
        to_move: Side,
    },
    /// The en-passant cell is not one the opponent just passed with a two-cell step.
    EnPassant(Cell),
}

impl Unplayable {
    /// What is wrong, in the variant's names.
    pub fn text(&self, rules: &Ruleset) -> String {
        match self {
            Unplayable::WrongSize { cells, stones } => format!(
                "the position has {cells} cells and {stones} stone kinds; {} has {} and {}",
                rules.name,
                rules.topo.len(),
                rules.stones.len()
            ),
            Unplayable::RoyalCount { side, at } => format!(
                "{side} has {} royal pieces{}; a position needs exactly one",
                at.len(),
                if at.is_empty() {
                    String::new()
                } else {
                    let names: Vec<String> = at.iter().map(|&c| rules.topo.name(c)).collect();
                    format!(" (on {})", names.join(", "))
                }
            ),
            Unplayable::OpponentInCheck { to_move } => format!(
                "{to_move} is to move while {}'s royal piece is attacked: the side that just moved may not be in check",
                to_move.opponent()
            ),
            Unplayable::EnPassant(c) => format!(
                "the en-passant cell {} is not one the side that just moved passed over with a two-cell step: it must be empty, with that side's en-passant piece just beyond it and an empty cell behind it",
                rules.topo.name(*c)
            ),
        }
    }
}

/// Whether a position can be played: it has the variant's size; for a variant with royal
/// pieces, each side has exactly one and the side that just moved has not left it attacked;
/// an en-passant cell is empty with an enemy piece that may be taken en passant just beyond
/// it and an empty cell behind it.
pub fn check_position(rules: &Ruleset, pos: &Position) -> Result<(), Unplayable> {
    let topo = &rules.topo;
    if pos.cells.len() != topo.len()
        || pos
            .supplies
            .iter()
            .any(|(_, s)| s.len() != rules.stones.len())
    {
        return Err(Unplayable::WrongSize {
            cells: pos.cells.len(),
            stones: pos.supplies[Side::White].len(),
        });
    }
    if rules.has_royals {
        for side in Side::BOTH {
            let at: Vec<Cell> = topo
                .cells()
                .filter(|&c| matches!(pos.at(c).as_piece(), Some((s, k)) if s == side && rules.pieces[k.index()].royal))
                .collect();
            if at.len() != 1 {
                return Err(Unplayable::RoyalCount { side, at });
            }
        }
        let mut g = Generator::default();
        if !g.royals_safe(rules, pos, pos.side.opponent()) {
            return Err(Unplayable::OpponentInCheck { to_move: pos.side });
        }
    }
    if let Some(target) = pos.ep {
        // The opponent passed over `target` towards the side to move: its piece stands just
        // behind the target as the side to move sees it, and the cell it came from beyond.
        let victim = topo.ahead(target, pos.side, -1);
        let origin = topo.ahead(target, pos.side, 1);
        let victim_ok = victim.is_some_and(|v| {
            matches!(pos.at(v).as_piece(), Some((s, k)) if s != pos.side && rules.pieces[k.index()].en_passant)
        });
        if !pos.at(target).is_empty() || !victim_ok || !origin.is_some_and(|o| pos.at(o).is_empty())
        {
            return Err(Unplayable::EnPassant(target));
        }
    }
    Ok(())
}
