//! Turns: the owned value (an enum whose variants carry only what their kind of turn needs),
//! the borrowed view that generation hands out (built only by the constructors below), and
//! what a movement does with stones after it.

use std::cmp::Ordering;

use crate::board::Cell;
use crate::core::{PieceKindId, StoneKindId};
use crate::vm::StoneEffect;

/// What a piece does with stones after its movement (B-40: move, then stones).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Then {
    /// Nothing: the movement is the whole turn.
    Nothing,
    /// It places stones: (stone kind, cell), sorted by cell.
    Place(Vec<(StoneKindId, Cell)>),
    /// It removes the stone on a cell (B-46).
    Remove(Cell),
}

/// The cells whose pieces a turn captures: up to eight held inline (a turn captures one or
/// none nearly always), more on the heap.
pub type Captures = smallvec::SmallVec<[Cell; 8]>;

/// One legal turn. Each kind of turn carries what it needs and nothing else, so a turn that
/// cannot happen (a drop that captures, a pass that moves, a castling that places stones)
/// cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A piece (the side's own or a neutral one it controls) moves, capturing `captures`
    /// (sorted), doing `dest` to a stone on its destination, changing kind to `promote` on
    /// arrival, then doing `then` with stones.
    Move {
        /// The piece's cell.
        from: Cell,
        /// Its destination.
        to: Cell,
        /// Cells whose pieces it captures, sorted.
        captures: Captures,
        /// What it does to a stone on the destination.
        dest: StoneEffect,
        /// The kind it becomes on arrival.
        promote: Option<PieceKindId>,
        /// Stones placed or removed after it.
        then: Then,
    },
    /// A castling: the royal piece moves from `from` to `to` and the partners of the
    /// variant's castling number `index` move with it.
    Castle {
        /// The royal piece's cell.
        from: Cell,
        /// Its destination.
        to: Cell,
        /// Which of the variant's castlings (index into its list).
        index: u8,
    },
    /// The piece on `from` stays and places stones (sorted by cell) in its range.
    Place {
        /// The placing piece's cell.
        from: Cell,
        /// (stone kind, cell), sorted by cell.
        stones: Vec<(StoneKindId, Cell)>,
    },
    /// The piece on `from` stays and removes the stone on `cell` (B-46).
    Remove {
        /// The removing piece's cell.
        from: Cell,
        /// The stone's cell.
        cell: Cell,
    },
    /// A piece of `kind` from the hand is dropped on `cell`.
    Drop {
        /// Where it lands.
        cell: Cell,
        /// Its kind.
        kind: PieceKindId,
    },
    /// A pass (`[turn] pass`): nothing changes on the board; `from` is the cell of the piece
    /// that stands for the side (its royal piece's, or its first piece's).
    Pass {
        /// The cell standing for the side.
        from: Cell,
    },
}

impl Turn {
    /// The acting piece's cell (the drop's cell for a drop).
    pub fn from(&self) -> Cell {
        match *self {
            Turn::Move { from, .. }
            | Turn::Castle { from, .. }
            | Turn::Place { from, .. }
            | Turn::Remove { from, .. }
            | Turn::Pass { from } => from,
            Turn::Drop { cell, .. } => cell,
        }
    }

    /// Its destination, for a turn that moves a piece.
    pub fn to(&self) -> Option<Cell> {
        match *self {
            Turn::Move { to, .. } | Turn::Castle { to, .. } => Some(to),
            _ => None,
        }
    }

    /// The cells whose pieces it captures, sorted.
    pub fn captures(&self) -> &[Cell] {
        match self {
            Turn::Move { captures, .. } => captures,
            _ => &[],
        }
    }

    /// What its movement does to a stone on the destination.
    pub fn dest(&self) -> StoneEffect {
        match *self {
            Turn::Move { dest, .. } => dest,
            _ => StoneEffect::None,
        }
    }

    /// The kind the moving piece becomes on arrival.
    pub fn promote(&self) -> Option<PieceKindId> {
        match *self {
            Turn::Move { promote, .. } => promote,
            _ => None,
        }
    }

    /// The castling it is, if any.
    pub fn castle(&self) -> Option<u8> {
        match *self {
            Turn::Castle { index, .. } => Some(index),
            _ => None,
        }
    }

    /// The stones it places, sorted by cell.
    pub fn placed(&self) -> &[(StoneKindId, Cell)] {
        match self {
            Turn::Move {
                then: Then::Place(stones),
                ..
            }
            | Turn::Place { stones, .. } => stones,
            _ => &[],
        }
    }

    /// The cell of the stone it removes.
    pub fn removed(&self) -> Option<Cell> {
        match *self {
            Turn::Move {
                then: Then::Remove(cell),
                ..
            }
            | Turn::Remove { cell, .. } => Some(cell),
            _ => None,
        }
    }

    /// The kind it drops from the hand.
    pub fn dropped(&self) -> Option<PieceKindId> {
        match *self {
            Turn::Drop { kind, .. } => Some(kind),
            _ => None,
        }
    }

    /// Whether it is a pass.
    pub fn is_pass(&self) -> bool {
        matches!(self, Turn::Pass { .. })
    }

    /// The same turn without what it does with stones after a movement.
    pub fn without_stones(&self) -> Turn {
        match self {
            Turn::Move {
                from,
                to,
                captures,
                dest,
                promote,
                ..
            } => Turn::Move {
                from: *from,
                to: *to,
                captures: captures.clone(),
                dest: *dest,
                promote: *promote,
                then: Then::Nothing,
            },
            other => other.clone(),
        }
    }

    /// The cells the turn changes, to mark on a board: where the piece came from and went,
    /// what it captured, where stones went or which stone it removed.
    pub fn touched(&self) -> Vec<Cell> {
        let mut v = vec![self.from()];
        v.extend(self.to().filter(|&to| to != self.from()));
        v.extend(
            self.captures()
                .iter()
                .copied()
                .filter(|&c| Some(c) != self.to()),
        );
        v.extend(self.placed().iter().map(|&(_, c)| c));
        v.extend(self.removed());
        v
    }

    /// The borrowed view of this turn: the accessors' answers, from one match on the kind of
    /// turn (perft and the search take a view of every turn they play).
    pub fn view(&self) -> TurnView<'_> {
        let bare = |from: Cell| TurnView {
            from,
            to: None,
            captures: &[],
            dest: StoneEffect::None,
            place: &[],
            remove: None,
            promote: None,
            castle: None,
            drop: None,
            pass: false,
        };
        match self {
            Turn::Move {
                from,
                to,
                captures,
                dest,
                promote,
                then,
            } => {
                let (place, remove): (&[(StoneKindId, Cell)], Option<Cell>) = match then {
                    Then::Nothing => (&[], None),
                    Then::Place(stones) => (stones, None),
                    Then::Remove(cell) => (&[], Some(*cell)),
                };
                TurnView {
                    to: Some(*to),
                    captures,
                    dest: *dest,
                    place,
                    remove,
                    promote: *promote,
                    ..bare(*from)
                }
            }
            Turn::Castle { from, to, index } => TurnView {
                to: Some(*to),
                castle: Some(*index),
                ..bare(*from)
            },
            Turn::Place { from, stones } => TurnView {
                place: stones,
                ..bare(*from)
            },
            Turn::Remove { from, cell } => TurnView {
                remove: Some(*cell),
                ..bare(*from)
            },
            Turn::Drop { cell, kind } => TurnView {
                drop: Some(*kind),
                ..bare(*cell)
            },
            Turn::Pass { from } => TurnView {
                pass: true,
                ..bare(*from)
            },
        }
    }

    /// The order turns are listed in: by cell, destination, captures, stone effect, then
    /// nothing / stones placed / a stone removed / a drop / a pass, promotion, castling.
    fn order_key(&self) -> OrderKey<'_> {
        let extra = match self {
            Turn::Pass { .. } => Extra::Pass,
            Turn::Drop { kind, .. } => Extra::Drop(*kind),
            _ => match (self.removed(), self.placed()) {
                (Some(c), _) => Extra::Remove(c),
                (None, []) => Extra::Nothing,
                (None, stones) => Extra::Place(stones),
            },
        };
        OrderKey {
            from: self.from(),
            to: self.to(),
            captures: self.captures(),
            dest: self.dest(),
            extra,
            promote: self.promote(),
            castle: self.castle(),
        }
    }
}

/// What turns are ordered by, field after field.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct OrderKey<'a> {
    from: Cell,
    to: Option<Cell>,
    captures: &'a [Cell],
    dest: StoneEffect,
    extra: Extra<'a>,
    promote: Option<PieceKindId>,
    castle: Option<u8>,
}

/// What a turn does besides its movement, in listing order.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Extra<'a> {
    Nothing,
    Place(&'a [(StoneKindId, Cell)]),
    Remove(Cell),
    Drop(PieceKindId),
    Pass,
}

impl PartialOrd for Turn {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Turn {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

/// A borrowed view of a turn handed to generation callbacks. It is built only by the
/// constructors below, which keep to the same kinds of turn as [`Turn`].
#[derive(Debug, Clone, Copy)]
pub struct TurnView<'a> {
    from: Cell,
    to: Option<Cell>,
    captures: &'a [Cell],
    dest: StoneEffect,
    place: &'a [(StoneKindId, Cell)],
    remove: Option<Cell>,
    promote: Option<PieceKindId>,
    castle: Option<u8>,
    drop: Option<PieceKindId>,
    pass: bool,
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

    /// A castling (`index` into the variant's list) whose royal piece goes from `from` to
    /// `to`.
    pub fn castling(from: Cell, to: Cell, index: u8) -> TurnView<'a> {
        TurnView {
            castle: Some(index),
            ..TurnView::movement(from, to, &[], StoneEffect::None)
        }
    }

    /// A piece of `kind` dropped from the hand on `cell`.
    pub fn dropping(cell: Cell, kind: PieceKindId) -> TurnView<'a> {
        TurnView {
            drop: Some(kind),
            ..TurnView::staying(cell)
        }
    }

    /// The piece on `from` staying, as the base of its stone actions: only ever handed out
    /// with [`TurnView::then_placing`] or [`TurnView::then_removing`] applied.
    pub(super) fn staying(from: Cell) -> TurnView<'a> {
        TurnView {
            to: None,
            ..TurnView::movement(from, from, &[], StoneEffect::None)
        }
    }

    /// This movement, with the moving piece becoming `kind` on arrival.
    #[must_use]
    pub fn promoting(self, kind: Option<PieceKindId>) -> TurnView<'a> {
        debug_assert!(self.to.is_some() && self.castle.is_none());
        TurnView {
            promote: kind,
            ..self
        }
    }

    /// This movement (or a staying piece), then placing these stones.
    #[must_use]
    pub fn then_placing(self, place: &'a [(StoneKindId, Cell)]) -> TurnView<'a> {
        debug_assert!(self.castle.is_none() && self.drop.is_none() && !self.pass);
        TurnView { place, ..self }
    }

    /// This movement (or a staying piece), then removing the stone on `cell`.
    #[must_use]
    pub fn then_removing(self, cell: Cell) -> TurnView<'a> {
        debug_assert!(self.castle.is_none() && self.drop.is_none() && !self.pass);
        TurnView {
            remove: Some(cell),
            ..self
        }
    }

    /// The acting piece's cell (the drop's cell for a drop).
    #[inline]
    pub fn from(&self) -> Cell {
        self.from
    }

    /// Its destination, if it moves.
    #[inline]
    pub fn to(&self) -> Option<Cell> {
        self.to
    }

    /// Cells it captures, sorted.
    #[inline]
    pub fn captures(&self) -> &'a [Cell] {
        self.captures
    }

    /// Whether it captures or changes its piece's kind: the turns a quiescence search
    /// looks at.
    #[inline]
    pub fn is_loud(&self) -> bool {
        !self.captures.is_empty() || self.promote.is_some()
    }

    /// What its movement does to a stone on the destination.
    #[inline]
    pub fn dest(&self) -> StoneEffect {
        self.dest
    }

    /// Stones placed.
    #[inline]
    pub fn placed(&self) -> &'a [(StoneKindId, Cell)] {
        self.place
    }

    /// The cell of a stone removed.
    #[inline]
    pub fn removed(&self) -> Option<Cell> {
        self.remove
    }

    /// The kind the mover becomes on arrival.
    #[inline]
    pub fn promote(&self) -> Option<PieceKindId> {
        self.promote
    }

    /// The castling it is.
    #[inline]
    pub fn castle(&self) -> Option<u8> {
        self.castle
    }

    /// The kind it drops from the hand.
    #[inline]
    pub fn dropped(&self) -> Option<PieceKindId> {
        self.drop
    }

    /// Whether it is a pass.
    #[inline]
    pub fn is_pass(&self) -> bool {
        self.pass
    }

    /// An owned turn.
    pub fn to_turn(&self) -> Turn {
        if self.pass {
            return Turn::Pass { from: self.from };
        }
        if let Some(kind) = self.drop {
            return Turn::Drop {
                cell: self.from,
                kind,
            };
        }
        let mut place = self.place.to_vec();
        place.sort_by_key(|&(k, c)| (c, k));
        match (self.to, self.castle) {
            (Some(to), Some(index)) => Turn::Castle {
                from: self.from,
                to,
                index,
            },
            (Some(to), None) => Turn::Move {
                from: self.from,
                to,
                captures: Captures::from_slice(self.captures),
                dest: self.dest,
                promote: self.promote,
                then: match self.remove {
                    Some(c) => Then::Remove(c),
                    None if place.is_empty() => Then::Nothing,
                    None => Then::Place(place),
                },
            },
            (None, _) => match self.remove {
                Some(cell) => Turn::Remove {
                    from: self.from,
                    cell,
                },
                None => Turn::Place {
                    from: self.from,
                    stones: place,
                },
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    fn c(i: usize) -> Cell {
        Cell::new(i)
    }

    /// A move from cell 1 to `to` that captures nothing, then `then`.
    fn quiet(to: usize, then: Then) -> Turn {
        Turn::Move {
            from: c(1),
            to: c(to),
            captures: Captures::new(),
            dest: StoneEffect::None,
            promote: None,
            then,
        }
    }

    #[test]
    fn touched_lists_each_changed_cell_once() {
        let capture = Turn::Move {
            from: c(1),
            to: c(2),
            captures: Captures::from_slice(&[c(2), c(5)]),
            dest: StoneEffect::None,
            promote: None,
            then: Then::Place(vec![(StoneKindId::new(0), c(7))]),
        };
        assert_eq!(capture.touched(), vec![c(1), c(2), c(5), c(7)]);
        let removal = Turn::Remove {
            from: c(1),
            cell: c(3),
        };
        assert_eq!(removal.touched(), vec![c(1), c(3)]);
    }

    /// Every kind of turn comes back unchanged through its view, and each view built by the
    /// constructors becomes the kind it was built as.
    #[test]
    fn each_kind_of_turn_survives_its_view() {
        let k = PieceKindId::new(1);
        let s = StoneKindId::new(0);
        let turns = [
            Turn::Move {
                from: c(1),
                to: c(9),
                captures: Captures::from_slice(&[c(4), c(9)]),
                dest: StoneEffect::None,
                promote: Some(k),
                then: Then::Nothing,
            },
            quiet(9, Then::Place(vec![(s, c(3)), (s, c(6))])),
            quiet(9, Then::Remove(c(8))),
            Turn::Castle {
                from: c(4),
                to: c(6),
                index: 1,
            },
            Turn::Place {
                from: c(2),
                stones: vec![(s, c(5))],
            },
            Turn::Remove {
                from: c(2),
                cell: c(5),
            },
            Turn::Drop {
                cell: c(7),
                kind: k,
            },
            Turn::Pass { from: c(4) },
        ];
        for t in &turns {
            assert_eq!(&t.view().to_turn(), t);
            // The view answers as the turn does, field by field (`view` is one match).
            let v = t.view();
            assert_eq!(
                (v.from(), v.to(), v.captures()),
                (t.from(), t.to(), t.captures())
            );
            assert_eq!(
                (v.dest(), v.placed(), v.removed()),
                (t.dest(), t.placed(), t.removed())
            );
            assert_eq!((v.promote(), v.castle()), (t.promote(), t.castle()));
            assert_eq!((v.dropped(), v.is_pass()), (t.dropped(), t.is_pass()));
        }
        let place = [(s, c(6)), (s, c(3))];
        let built = [
            TurnView::movement(c(1), c(9), &[], StoneEffect::None).then_placing(&place),
            TurnView::castling(c(4), c(6), 1),
            TurnView::staying(c(2)).then_removing(c(5)),
            TurnView::dropping(c(7), k),
            TurnView::passing(c(4)),
        ];
        let kinds: Vec<&str> = built
            .iter()
            .map(|v| match v.to_turn() {
                Turn::Move {
                    then: Then::Place(p),
                    ..
                } => {
                    assert_eq!(p, vec![(s, c(3)), (s, c(6))], "sorted by cell");
                    "move then place"
                }
                Turn::Move { .. } => "move",
                Turn::Castle { .. } => "castle",
                Turn::Place { .. } => "place",
                Turn::Remove { .. } => "remove",
                Turn::Drop { .. } => "drop",
                Turn::Pass { .. } => "pass",
            })
            .collect();
        assert_eq!(
            kinds,
            ["move then place", "castle", "remove", "drop", "pass"]
        );
    }

    /// Turns are listed by cell, then destination, captures, and what they do besides
    /// moving: nothing, stones placed, a stone removed.
    #[test]
    fn turns_are_ordered_by_cell_then_destination() {
        let s = StoneKindId::new(0);
        let mut turns = vec![
            quiet(5, Then::Remove(c(2))),
            Turn::Pass { from: c(0) },
            quiet(5, Then::Place(vec![(s, c(3))])),
            quiet(3, Then::Nothing),
            quiet(5, Then::Nothing),
        ];
        turns.sort();
        assert_eq!(
            turns,
            vec![
                Turn::Pass { from: c(0) },
                quiet(3, Then::Nothing),
                quiet(5, Then::Nothing),
                quiet(5, Then::Place(vec![(s, c(3))])),
                quiet(5, Then::Remove(c(2))),
            ]
        );
    }
}
