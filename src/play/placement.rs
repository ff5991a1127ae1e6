//! Where a stone may be placed and what it does there (B-44, B-47 … B-50): the one rule that
//! turn generation, diagrams and move text all ask.

use crate::board::Cell;
use crate::core::Side;
use crate::core::{PieceKindId, StoneKindId};
use crate::position::Position;
use crate::rules::Ruleset;
use crate::rules::Whose;

/// What placing a stone on a cell does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceEffect {
    /// The stone stays on the empty cell.
    Stone,
    /// The stone blows up the stone there; both leave the game (B-47).
    Explode,
    /// The stone captures the enemy piece there and stays (B-49).
    Capture,
}

/// Whether `side` may place a stone of kind `stone` on `cell` with a piece of kind `placer`
/// (the cell being in the piece's range), and what it does: B-44, B-47, B-48, B-49, B-50.
pub fn placement(
    rules: &Ruleset,
    pos: &Position,
    side: Side,
    placer: PieceKindId,
    stone: StoneKindId,
    cell: Cell,
) -> Option<PlaceEffect> {
    if pos.supplies[side][stone.index()] == 0 {
        return None;
    }
    let st = &rules.stones[stone.index()];
    let taboo = if pos.side == side { pos.taboo } else { None };
    let allowed = || Some(cell) != taboo && rules.stone_allowed(side, stone, cell);
    let occ = pos.at(cell);
    if occ.is_empty() {
        allowed().then_some(PlaceEffect::Stone)
    } else if let Some(s2) = occ.as_stone() {
        (st.explodes.contains(&s2) && rules.turn.explosions > 0).then_some(PlaceEffect::Explode)
    } else if let Some((ps, pk)) = occ.as_piece() {
        (ps != side
            && st.captures.contains(&pk)
            && !st.captures_not_by.contains(&placer)
            && allowed())
        .then_some(PlaceEffect::Capture)
    } else {
        None
    }
}

pub(crate) fn region_side(side: Side, w: Whose) -> Side {
    match w {
        Whose::Own => side,
        Whose::Enemy => side.opponent(),
    }
}
