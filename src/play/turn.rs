//! Turns: the owned value, the borrowed view that generation hands out, and what a turn
//! does with stones.

use crate::board::Cell;
use crate::core::{PieceKindId, StoneKindId};
use crate::vm::StoneEffect;

/// What a turn does with stones after any movement.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Nothing.
    None,
    /// Place stones: (stone kind, cell), sorted by cell.
    Place(Vec<(StoneKindId, Cell)>),
    /// Remove the stone on a cell (B-46).
    Remove(Cell),
    /// Drop a piece of this kind from the hand onto the turn's `from` cell.
    Drop(PieceKindId),
    /// Pass: nothing changes on the board (`[turn] pass`); `from` is the side's royal piece's
    /// cell, or its first piece's.
    Pass,
}

/// One legal turn.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    /// The acting piece's cell.
    pub from: Cell,
    /// Its destination, if it moves.
    pub to: Option<Cell>,
    /// Cells whose pieces the movement captures, sorted.
    pub captures: Vec<Cell>,
    /// What the movement does to a stone on the destination.
    pub dest: StoneEffect,
    /// Stones placed or removed.
    pub action: Action,
    /// The piece kind it promotes to on arrival.
    pub promote: Option<PieceKindId>,
    /// The castling (index into the variant's list) this move is.
    pub castle: Option<u8>,
}

/// A borrowed view of a turn handed to generation callbacks.
#[derive(Debug, Clone, Copy)]
pub struct TurnView<'a> {
    /// The acting piece's cell.
    pub from: Cell,
    /// Its destination, if it moves.
    pub to: Option<Cell>,
    /// Cells it captures, sorted.
    pub captures: &'a [Cell],
    /// What the movement does to a stone on the destination.
    pub dest: StoneEffect,
    /// Stones placed.
    pub place: &'a [(StoneKindId, Cell)],
    /// Stone removed.
    pub remove: Option<Cell>,
    /// Promotion.
    pub promote: Option<PieceKindId>,
    /// Castling.
    pub castle: Option<u8>,
    /// A piece of this kind dropped from the hand onto `from`.
    pub drop: Option<PieceKindId>,
    /// A pass (`[turn] pass`): nothing else is set.
    pub pass: bool,
}

impl<'a> TurnView<'a> {
    /// A movement from `from` to `to` with these captures and stone effect, and nothing else.
    pub fn movement(from: Cell, to: Cell, captures: &'a [Cell], dest: StoneEffect) -> TurnView<'a> {
        TurnView {
            from,
            to: Some(to),
            captures,
            dest,
            place: &[],
            remove: None,
            promote: None,
            castle: None,
            drop: None,
            pass: false,
        }
    }

    /// A pass, written with the cell of the piece that stands for the side.
    pub fn passing(from: Cell) -> TurnView<'a> {
        TurnView {
            pass: true,
            ..TurnView::staying(from)
        }
    }

    /// A turn on `from` that moves nothing (the base of stone actions and drops).
    pub fn staying(from: Cell) -> TurnView<'a> {
        TurnView {
            to: None,
            ..TurnView::movement(from, from, &[], StoneEffect::None)
        }
    }

    /// An owned turn.
    pub fn to_turn(&self) -> Turn {
        let mut place = self.place.to_vec();
        place.sort_by_key(|&(k, c)| (c, k));
        Turn {
            from: self.from,
            to: self.to,
            captures: self.captures.to_vec(),
            dest: self.dest,
            action: match (self.drop, self.remove, place.is_empty()) {
                _ if self.pass => Action::Pass,
                (Some(k), _, _) => Action::Drop(k),
                (None, Some(c), _) => Action::Remove(c),
                (None, None, true) => Action::None,
                (None, None, false) => Action::Place(place),
            },
            promote: self.promote,
            castle: self.castle,
        }
    }

    /// The view of an owned turn.
    pub fn of(t: &Turn) -> TurnView<'_> {
        let (place, remove, drop): (&[(StoneKindId, Cell)], Option<Cell>, Option<PieceKindId>) =
            match &t.action {
                Action::None | Action::Pass => (&[], None, None),
                Action::Place(l) => (l, None, None),
                Action::Remove(c) => (&[], Some(*c), None),
                Action::Drop(k) => (&[], None, Some(*k)),
            };
        TurnView {
            from: t.from,
            to: t.to,
            captures: &t.captures,
            dest: t.dest,
            place,
            remove,
            promote: t.promote,
            castle: t.castle,
            drop,
            pass: t.action == Action::Pass,
        }
    }
}

/// A movement found for a piece: destination, captures, stone effect.
pub(crate) struct Step<'a> {
    pub(crate) to: Cell,
    pub(crate) captures: &'a [Cell],
    pub(crate) dest: StoneEffect,
}

impl<'a> Step<'a> {
    /// A movement onto `to` that captures the piece standing there when `captured`, and
    /// nothing elsewhere.
    pub(crate) fn onto(to: &'a Cell, captured: bool, dest: StoneEffect) -> Step<'a> {
        Step {
            to: *to,
            captures: if captured {
                std::slice::from_ref(to)
            } else {
                &[]
            },
            dest,
        }
    }
}

impl Turn {
    /// The cells the turn changes, to mark on a board: where the piece came from and went,
    /// what it captured, where stones went or which stone it removed.
    pub fn touched(&self) -> Vec<Cell> {
        let mut v = vec![self.from];
        v.extend(self.to.filter(|&to| to != self.from));
        v.extend(
            self.captures
                .iter()
                .copied()
                .filter(|&c| Some(c) != self.to),
        );
        match &self.action {
            Action::Place(list) => v.extend(list.iter().map(|&(_, c)| c)),
            Action::Remove(c) => v.push(*c),
            Action::None | Action::Drop(_) | Action::Pass => {}
        }
        v
    }

    /// The borrowed view of this turn.
    pub fn view(&self) -> TurnView<'_> {
        TurnView::of(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touched_lists_each_changed_cell_once() {
        let c = Cell::new;
        let capture = Turn {
            from: c(1),
            to: Some(c(2)),
            captures: vec![c(2), c(5)],
            dest: StoneEffect::None,
            action: Action::Place(vec![(StoneKindId::new(0), c(7))]),
            promote: None,
            castle: None,
        };
        assert_eq!(capture.touched(), vec![c(1), c(2), c(5), c(7)]);
        let removal = Turn {
            to: None,
            captures: Vec::new(),
            action: Action::Remove(c(3)),
            ..capture
        };
        assert_eq!(removal.touched(), vec![c(1), c(3)]);
    }
}
