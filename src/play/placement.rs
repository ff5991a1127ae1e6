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
    let mut found = None;
    placements_of(rules, pos, side, placer, cell, Some(stone), |_, e| {
        found = Some(e);
    });
    found
}

/// Every stone kind `side` may place on `cell` with a piece of kind `placer`, in kind order,
/// with what it does there: [`placement`] for all kinds at once (the cell is read once).
pub fn placements(
    rules: &Ruleset,
    pos: &Position,
    side: Side,
    placer: PieceKindId,
    cell: Cell,
    f: impl FnMut(StoneKindId, PlaceEffect),
) {
    placements_of(rules, pos, side, placer, cell, None, f);
}

/// The rule itself, for one stone kind or for all.
#[inline]
fn placements_of(
    rules: &Ruleset,
    pos: &Position,
    side: Side,
    placer: PieceKindId,
    cell: Cell,
    only: Option<StoneKindId>,
    mut f: impl FnMut(StoneKindId, PlaceEffect),
) {
    let taboo = if pos.side == side { pos.taboo } else { None };
    let occ = pos.at(cell);
    let supply = &pos.supplies[side];
    let kinds = match only {
        Some(k) => k.index()..k.index() + 1,
        None => 0..rules.stones.len(),
    };
    if occ.is_empty() {
        if Some(cell) == taboo {
            return;
        }
        for k in kinds {
            let stone = StoneKindId::new(k);
            if supply[k] > 0 && rules.stone_allowed(side, stone, cell) {
                f(stone, PlaceEffect::Stone);
            }
        }
    } else if let Some(s2) = occ.as_stone() {
        if rules.turn.explosions == 0 {
            return;
        }
        for k in kinds {
            if supply[k] > 0 && rules.stones[k].explodes.contains(&s2) {
                f(StoneKindId::new(k), PlaceEffect::Explode);
            }
        }
    } else if let Some((ps, pk)) = occ.as_piece() {
        if ps == side || Some(cell) == taboo {
            return;
        }
        for k in kinds {
            let (stone, st) = (StoneKindId::new(k), &rules.stones[k]);
            if supply[k] > 0
                && st.captures.contains(&pk)
                && !st.captures_not_by.contains(&placer)
                && rules.stone_allowed(side, stone, cell)
            {
                f(stone, PlaceEffect::Capture);
            }
        }
    }
}

pub(crate) fn region_side(side: Side, w: Whose) -> Side {
    match w {
        Whose::Own => side,
        Whose::Enemy => side.opponent(),
    }
}
