//! The end of a game: its outcome and reason, and what the position alone decides (B-60,
//! B-61).

use crate::core::Side;
use crate::position::Position;
use crate::rules::Ruleset;

use super::placement::region_side;

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A piece stands in the opponent's region (B-60).
    Occupied,
    /// A winning stone was placed in the opponent's region (B-60).
    Bombed,
    /// The loser has no pieces (B-61).
    NoPieces,
    /// The loser started its turn without a piece move (B-62).
    Immobilized,
    /// The side to move has no legal turn.
    NoTurn,
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move is stalemated.
    Stalemate,
}

/// The end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Who won (`None`: a draw).
    pub winner: Option<Side>,
    /// Why.
    pub reason: Reason,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.reason {
            Reason::Occupied => "occupied the opponent's end field",
            Reason::Bombed => "placed a bomb on the opponent's end field",
            Reason::NoPieces => "no pieces left",
            Reason::Immobilized => "cannot move a piece",
            Reason::NoTurn => "no legal turn",
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
        };
        match self.winner {
            Some(w) => write!(f, "{w} wins ({why})"),
            None => write!(f, "draw ({why})"),
        }
    }
}

/// The outcome decided by the position alone (B-60, B-61), without move generation.
pub fn static_outcome(rules: &Ruleset, pos: &Position) -> Option<Outcome> {
    let mover = pos.side.opponent();
    for side in [mover, pos.side] {
        if let Some((w, r)) = rules.end.occupy {
            let region = &rules.regions[r as usize].cells[region_side(side, w).index()];
            if region
                .iter()
                .any(|c| matches!(pos.at(c).as_piece(), Some((s, _)) if s == side))
            {
                return Some(Outcome {
                    winner: Some(side),
                    reason: Reason::Occupied,
                });
            }
        }
        for (kind, st) in rules.stones.iter().enumerate() {
            if let Some((w, r)) = st.wins_on {
                let region = &rules.regions[r as usize].cells[region_side(side, w).index()];
                if region
                    .iter()
                    .any(|c| pos.at(c).as_stone() == Some(kind as u8))
                {
                    return Some(Outcome {
                        winner: Some(side),
                        reason: Reason::Bombed,
                    });
                }
            }
        }
    }
    if rules.end.no_pieces_loses {
        for side in [pos.side, mover] {
            if !pos
                .cells
                .iter()
                .any(|o| matches!(o.as_piece(), Some((s, _)) if s == side))
            {
                return Some(Outcome {
                    winner: Some(side.opponent()),
                    reason: Reason::NoPieces,
                });
            }
        }
    }
    None
}
