//! Whether a position can be played at all (royal pieces, check of the side not to move, en
//! passant).

use crate::core::Side;
use crate::position::Position;
use crate::rules::Ruleset;

use super::generate::Generator;

/// Whether a position can be played: for a variant with royal pieces, each side has exactly
/// one and the side that just moved has not left it attacked; an en-passant cell is empty with
/// an enemy piece that may be taken en passant just beyond it and an empty cell behind it.
/// The message says what is wrong.
pub fn check_position(rules: &Ruleset, pos: &Position) -> Result<(), String> {
    let topo = &rules.topo;
    if pos.cells.len() != topo.len()
        || pos
            .supplies
            .iter()
            .any(|(_, s)| s.len() != rules.stones.len())
    {
        return Err(format!(
            "the position has {} cells and {} stone kinds; {} has {} and {}",
            pos.cells.len(),
            pos.supplies[Side::White].len(),
            rules.name,
            topo.len(),
            rules.stones.len()
        ));
    }
    if rules.has_royals {
        for side in Side::BOTH {
            let royals: Vec<String> = topo
                .cells()
                .filter(|&c| matches!(pos.at(c).as_piece(), Some((s, k)) if s == side && rules.pieces[k as usize].royal))
                .map(|c| topo.name(c))
                .collect();
            if royals.len() != 1 {
                return Err(format!(
                    "{side} has {} royal pieces{}; a position needs exactly one",
                    royals.len(),
                    if royals.is_empty() {
                        String::new()
                    } else {
                        format!(" (on {})", royals.join(", "))
                    }
                ));
            }
        }
        let mut g = Generator::default();
        if !g.royals_safe(rules, pos, pos.side.opponent()) {
            return Err(format!(
                "{} is to move while {}'s royal piece is attacked: the side that just moved may not be in check",
                pos.side,
                pos.side.opponent()
            ));
        }
    }
    if let Some(target) = pos.ep {
        // The opponent passed over `target` towards the side to move: its piece stands just
        // behind the target as the side to move sees it, and the cell it came from beyond.
        let victim = topo.ahead(target, pos.side, -1);
        let origin = topo.ahead(target, pos.side, 1);
        let victim_ok = victim.is_some_and(|v| {
            matches!(pos.at(v).as_piece(), Some((s, k)) if s != pos.side && rules.pieces[k as usize].en_passant)
        });
        if !pos.at(target).is_empty() || !victim_ok || !origin.is_some_and(|o| pos.at(o).is_empty())
        {
            return Err(format!(
                "the en-passant cell {} is not one {} just passed over with a two-cell step: it must be empty, with that side's en-passant piece just beyond it and an empty cell behind it",
                topo.name(target),
                pos.side.opponent()
            ));
        }
    }
    Ok(())
}
