//! Applying a turn to a position: the one place where pieces move, stones are placed and
//! the side, counters and rights change.

use crate::board::Cell;
use crate::core::{Occupant, Side};
use crate::position::Position;
use crate::rules::PositionField;
use crate::rules::Ruleset;
use crate::vm::StoneEffect;

use super::turn::TurnView;

/// Moves the pieces of a turn's movement, reporting every cell change (cell, old, new): lifts
/// the mover and a castling partner (both before either lands: the king's destination may be
/// its partner's start cell), removes the captured pieces, collects a stone on the
/// destination, lands the mover (promoted, if it promotes) and the partner. Returns the mover
/// as it stood before, or `None` for a turn without movement. Nothing else changes: stones,
/// side, counters and rights are [`apply_turn`]'s.
pub(crate) fn move_pieces(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    on_cell: &mut impl FnMut(Cell, Occupant, Occupant),
) -> Option<Occupant> {
    let to = t.to?;
    let side = pos.side;
    let mut set = |pos: &mut Position, c: Cell, o: Occupant| {
        let old = pos.cells[c.index()];
        if old != o {
            on_cell(c, old, o);
            pos.cells[c.index()] = o;
        }
    };
    let piece = pos.at(t.from);
    let partner = t.castle.map(|i| {
        let c = &rules.castlings[i as usize];
        (c.rook, pos.at(c.rook.0))
    });
    set(pos, t.from, Occupant::EMPTY);
    if let Some(((start, _), _)) = partner {
        set(pos, start, Occupant::EMPTY);
    }
    for &c in t.captures {
        set(pos, c, Occupant::EMPTY);
    }
    if let StoneEffect::Collect(k) = t.dest {
        let n = &mut pos.supplies[side][k.index()];
        *n = n.saturating_add(1);
    }
    let arriving = t.promote.map_or(piece, |k| Occupant::piece(side, k));
    set(pos, to, arriving);
    if let Some(((_, dest), p)) = partner {
        set(pos, dest, p);
    }
    Some(piece)
}

/// Applies a whole turn to `pos`, reporting every cell change (cell, old, new).
pub fn apply_turn(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    mut on_cell: impl FnMut(Cell, Occupant, Occupant),
) {
    let side = pos.side;
    let mut ep = None;
    let mut ep_victim = None;
    let mut reset_clock = false;
    if let (Some(to), Some(piece)) = (t.to, move_pieces(rules, pos, t, &mut on_cell))
        && let Some((_, k)) = piece.as_piece()
    {
        let kind = &rules.pieces[k.index()];
        reset_clock = kind.en_passant || kind.promotion.is_some();
        if kind.en_passant {
            // A two-cell move along its file (or any straight line) leaves the passed cell
            // open to en passant.
            let topo = &rules.topo;
            ep = topo.between(t.from, to).filter(|&m| {
                kind.en_passant_any_line
                    || topo.ahead(t.from, side, 1) == Some(m)
                    || topo.ahead(t.from, side, -1) == Some(m)
            });
            if kind.en_passant_any_line && ep.is_some() {
                ep_victim = Some(to);
            }
        }
    }
    let mut set = |pos: &mut Position, c: Cell, o: Occupant| {
        let old = pos.cells[c.index()];
        if old != o {
            on_cell(c, old, o);
            pos.cells[c.index()] = o;
        }
    };
    let mut taboo = None;
    if let Some(c) = t.remove {
        set(pos, c, Occupant::EMPTY);
    }
    for &(k, c) in t.place {
        let n = &mut pos.supplies[side][k.index()];
        *n = n.saturating_sub(1);
        if pos.at(c).as_stone().is_some() {
            set(pos, c, Occupant::EMPTY);
            if rules.turn.taboo_after_explosion {
                taboo = Some(c);
            }
        } else {
            set(pos, c, Occupant::stone(k));
        }
    }
    if pos.castling != 0 {
        let touched =
            |cell: Cell| t.from == cell || t.to == Some(cell) || t.captures.contains(&cell);
        for (i, c) in rules.castlings.iter().enumerate() {
            if touched(c.king.0) || touched(c.rook.0) {
                pos.castling &= !(1 << i);
            }
        }
    }
    // Counters are kept only by variants whose position text carries them.
    if rules.fields.contains(&PositionField::Halfmove) {
        pos.halfmove = if reset_clock || !t.captures.is_empty() {
            0
        } else {
            pos.halfmove.saturating_add(1)
        };
    }
    if side == Side::Black && rules.fields.contains(&PositionField::Fullmove) {
        pos.fullmove = pos.fullmove.saturating_add(1);
    }
    pos.ep = ep;
    pos.ep_victim = ep_victim;
    pos.taboo = taboo;
    pos.side = side.opponent();
}
