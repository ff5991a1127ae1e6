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
        /// Its hand's kinds (stone kinds, then piece kinds).
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
                "the position has {cells} cells and a hand of {stones} kinds; {} has {} and {}",
                rules.name,
                rules.topo.len(),
                rules.stones.len() + rules.pieces.len()
            ),
            Unplayable::RoyalCount { side, at } => format!(
                "{side} has {} royal pieces{}; a position needs exactly {}",
                at.len(),
                if at.is_empty() {
                    String::new()
                } else {
                    let names: Vec<String> = at.iter().map(|&c| rules.topo.name(c)).collect();
                    format!(" (on {})", names.join(", "))
                },
                if rules.without_royal[*side] {
                    "none (it plays without one)"
                } else {
                    "one"
                }
            ),
            Unplayable::OpponentInCheck { to_move } => format!(
                "{to_move} is to move while {}'s royal piece is attacked: the side that just moved may not be in check",
                to_move.opponent()
            ),
            Unplayable::EnPassant(c) => format!(
                "the en-passant cell {} is not one the side that just moved passed over with a two-cell step: it must be empty, with exactly one of that side's en-passant pieces just beyond it and an empty cell behind it",
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
    if pos.cells().len() != topo.len()
        || pos
            .supplies
            .iter()
            .any(|(_, s)| s.len() != rules.stones.len() + rules.pieces.len())
    {
        return Err(Unplayable::WrongSize {
            cells: pos.cells().len(),
            stones: pos.supplies[Side::White].len(),
        });
    }
    if rules.has_royals() {
        for side in Side::BOTH {
            let at: Vec<Cell> = topo
                .cells()
                .filter(|&c| matches!(pos.at(c).as_piece(), Some((s, k)) if s == side && rules.is_royal(k)))
                .collect();
            // One a side, none for a side that plays without (`without-royal`).
            let wanted = usize::from(!rules.without_royal[side]);
            if at.len() != wanted {
                return Err(Unplayable::RoyalCount { side, at });
            }
        }
        let mut g = Generator::default();
        if !g.royals_safe(rules, pos, pos.side.opponent()) {
            return Err(Unplayable::OpponentInCheck { to_move: pos.side });
        }
    }
    if let Some(target) = pos.ep
        && (!pos.at(target).is_empty() || ep_victim(rules, pos).is_none())
    {
        return Err(Unplayable::EnPassant(target));
    }
    Ok(())
}

/// The piece that passed over the en-passant cell: the one recorded in play, or else the
/// only enemy en-passant piece next to the cell that can have come over it (for a piece
/// with `en-passant-lines = "file"` only along its file, as the side to move sees it: just
/// behind the cell; the cell it came from, beyond, empty). `None` when there is no such
/// piece, or more than one.
pub fn ep_victim(rules: &Ruleset, pos: &Position) -> Option<Cell> {
    let target = pos.ep?;
    if pos.ep_victim.is_some() {
        return pos.ep_victim;
    }
    let topo = &rules.topo;
    if !rules.pieces.iter().any(|p| p.en_passant_any_line) {
        // Along the file only: the one cell just behind, the one just beyond.
        let v = topo.ahead(target, pos.side, -1)?;
        let o = topo.ahead(target, pos.side, 1)?;
        return match pos.at(v).as_piece() {
            Some((s, k))
                if s != pos.side && rules.pieces[k.index()].en_passant && pos.at(o).is_empty() =>
            {
                Some(v)
            }
            _ => None,
        };
    }
    let mut found = None;
    for d in crate::board::NEIGHBOURS {
        let (Some(v), Some(o)) = (topo.offset(target, d), topo.offset(target, (-d.0, -d.1))) else {
            continue;
        };
        let Some((s, k)) = pos.at(v).as_piece() else {
            continue;
        };
        let kind = &rules.pieces[k.index()];
        let along_file = topo.ahead(target, pos.side, -1) == Some(v);
        if s == pos.side
            || !kind.en_passant
            || !(along_file || kind.en_passant_any_line)
            || !pos.at(o).is_empty()
        {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(v);
    }
    found
}
