//! Applying a turn to a position: the one place where pieces move, stones are placed and
//! the side, counters and rights change; and the one way to take a turn (or a movement)
//! back: [`make_turn`] / [`make_movement`] remember in an [`Undo`] what [`unmake`] restores.

use crate::board::Cell;
use crate::core::{BySide, Occupant, Side};
use crate::position::Position;
use crate::rules::PositionField;
use crate::rules::{Replaced, Ruleset};
use crate::vm::StoneEffect;

use super::turn::TurnView;

/// What [`move_pieces`] changes, reported as it happens.
pub(crate) trait Moved {
    /// A cell's occupant changed from `old` to `new`.
    fn cell(&mut self, c: Cell, old: Occupant, new: Occupant);
    /// The count in `side`'s supply at `slot` went up by one.
    fn gained(&mut self, side: Side, slot: usize);
}

/// Nothing reported.
impl Moved for () {
    fn cell(&mut self, _: Cell, _: Occupant, _: Occupant) {}
    fn gained(&mut self, _: Side, _: usize) {}
}

/// Cell changes reported to a closure; supply gains not reported.
struct OnCell<F>(F);

impl<F: FnMut(Cell, Occupant, Occupant)> Moved for OnCell<F> {
    fn cell(&mut self, c: Cell, old: Occupant, new: Occupant) {
        (self.0)(c, old, new);
    }
    fn gained(&mut self, _: Side, _: usize) {}
}

/// Moves the pieces of a turn's movement, reporting every cell change and supply gain to
/// `moved`: lifts the mover and its castling partners (all before any lands: the king's
/// destination may be a partner's start cell), removes the captured pieces (a passive
/// capturer's hand gains them), collects a stone on the destination, lands the mover (as its
/// new kind, if it changes) and the partners. Returns the mover as it stood before, or `None`
/// for a turn without movement. Nothing else changes: stones, side, counters and rights are
/// [`apply_turn`]'s.
pub(crate) fn move_pieces(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    moved: &mut impl Moved,
) -> Option<Occupant> {
    let to = t.to()?;
    let side = pos.side;
    let piece = pos.at(t.from());
    // A castling's partners, lifted with the mover before anything lands.
    let partners: Vec<((Cell, Cell), Occupant)> = t.castle().map_or_else(Vec::new, |i| {
        rules.castlings[i as usize]
            .partners
            .iter()
            .map(|&(a, b)| ((a, b), pos.at(a)))
            .collect()
    });
    set(pos, moved, t.from(), Occupant::EMPTY);
    for &((start, _), _) in &partners {
        set(pos, moved, start, Occupant::EMPTY);
    }
    // Passive capture: a captured piece of a counted kind goes, turned over, into the
    // capturer's hand.
    let passive = piece
        .as_piece()
        .is_some_and(|(_, k)| rules.pieces[k.index()].captures_to_reserve);
    for &c in t.captures() {
        if passive
            && let Some((s, k)) = pos.at(c).as_piece()
            && s != side
            && let k = rules.pieces[k.index()].captured_as.unwrap_or(k)
            && rules.pieces[k.index()].reserve.is_some()
        {
            gain(pos, moved, rules.hand_slot(k));
        }
        set(pos, moved, c, Occupant::EMPTY);
    }
    if let StoneEffect::Collect(k) = t.dest() {
        gain(pos, moved, k.index());
    }
    let arriving = t.promote().map_or(piece, |k| Occupant::piece(side, k));
    set(pos, moved, to, arriving);
    for &((_, dest), p) in &partners {
        set(pos, moved, dest, p);
    }
    // An exploding capture (`[blast]`) takes the capturer and the pieces around it.
    if let Some(b) = &rules.blast
        && !t.captures().is_empty()
    {
        set(pos, moved, to, Occupant::EMPTY);
        for c in rules.blast_around(to) {
            if let Some((_, k)) = pos.at(c).as_piece()
                && !b.immune.contains(&k)
            {
                set(pos, moved, c, Occupant::EMPTY);
            }
        }
    }
    Some(piece)
}

/// Puts `o` on `c`, reporting the change.
#[inline]
fn set(pos: &mut Position, moved: &mut impl Moved, c: Cell, o: Occupant) {
    let old = pos.at(c);
    if old != o {
        moved.cell(c, old, o);
        pos.put(c, o);
    }
}

/// Adds one to the mover's supply at `slot`, reporting the gain.
#[inline]
fn gain(pos: &mut Position, moved: &mut impl Moved, slot: usize) {
    let side = pos.side;
    let n = &mut pos.supplies[side][slot];
    if *n < u32::MAX {
        *n += 1;
        moved.gained(side, slot);
    }
}

/// Applies a whole turn to `pos`, reporting every cell change (cell, old, new).
pub fn apply_turn(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    mut on_cell: impl FnMut(Cell, Occupant, Occupant),
) {
    let side = pos.side;
    let mover = pos.at(t.from()).as_piece().map(|(_, k)| k);
    let clock = &rules.clock;
    let mut reset_clock = (clock.reset_on_capture && !t.captures().is_empty())
        || (clock.reset_on_change && t.promote().is_some());
    let (mut ep, mut ep_victim) = (None, None);
    let reported = &mut OnCell(&mut on_cell);
    if let (Some(to), Some(piece)) = (t.to(), move_pieces(rules, pos, t, reported))
        && let Some((_, k)) = piece.as_piece()
    {
        reset_clock |= rules.clock.reset_by.contains(&k);
        (ep, ep_victim) = after_moving(rules, pos, t, to, k);
    }
    let mut set = |pos: &mut Position, c: Cell, o: Occupant| set(pos, reported, c, o);
    if let Some(k) = t.dropped() {
        let n = &mut pos.supplies[side][rules.hand_slot(k)];
        *n = n.saturating_sub(1);
        set(pos, t.from(), Occupant::piece(side, k));
    }
    let mut taboo = None;
    if let Some(c) = t.removed() {
        set(pos, c, Occupant::EMPTY);
    }
    for &(k, c) in t.placed() {
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
        end_castling_rights(rules, pos, t, mover);
    }
    // Counters are kept only by variants whose position text carries them.
    if rules.fields.contains(&PositionField::Halfmove) || rules.clock.limit.is_some() {
        pos.halfmove = if reset_clock {
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
    pos.passes = if t.is_pass() {
        pos.passes.saturating_add(1)
    } else {
        0
    };
    pos.side = side.opponent();
}

/// What a move of a piece of kind `k` to `to` does besides moving: a change of kind draws
/// from and returns to the reserve, `takes-reserve-in` takes the opponent's reserve, and a
/// piece that may be taken en passant leaves the cell it passed. Returns the en-passant cell
/// and, for a capture along any line, the piece that passed it.
fn after_moving(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    to: Cell,
    k: crate::core::PieceKindId,
) -> (Option<Cell>, Option<Cell>) {
    let side = pos.side;
    let kind = &rules.pieces[k.index()];
    if let Some(new) = t.promote() {
        // A change of kind draws the new piece from the reserve when its kind is counted
        // there, and sends the replaced one back when the variant says so.
        if rules.pieces[new.index()].reserve.is_some() {
            let n = &mut pos.supplies[side][rules.hand_slot(new)];
            *n = n.saturating_sub(1);
        }
        if rules.replaced == Replaced::Reserve && kind.reserve.is_some() {
            let n = &mut pos.supplies[side][rules.hand_slot(k)];
            *n = n.saturating_add(1);
        }
    }
    // Ending its move in the region of `takes-reserve-in` turns the opponent's whole reserve
    // over to the mover.
    if let Some((w, r)) = kind.takes_reserve_in
        && rules.regions[r.index()].cells[super::placement::region_side(side, w)].contains(to)
    {
        for (slot, p) in rules.pieces.iter().enumerate() {
            if p.reserve.is_some() {
                let i = rules.hand_slot(crate::core::PieceKindId::new(slot));
                let n = pos.supplies[side.opponent()][i];
                pos.supplies[side.opponent()][i] = 0;
                pos.supplies[side][i] = pos.supplies[side][i].saturating_add(n);
            }
        }
    }
    if !kind.en_passant {
        return (None, None);
    }
    // A two-cell move along its file (or any straight line) leaves the passed cell open to en
    // passant.
    let topo = &rules.topo;
    let ep = topo.between(t.from(), to).filter(|&m| {
        (kind.en_passant_any_line
            || topo.ahead(t.from(), side, 1) == Some(m)
            || topo.ahead(t.from(), side, -1) == Some(m))
            && kind.en_passant_in.is_none_or(|(w, r)| {
                rules.regions[r.index()].cells[super::placement::region_side(side, w)].contains(m)
            })
    });
    let victim = (kind.en_passant_any_line && ep.is_some()).then_some(to);
    (ep, victim)
}

/// Ends the castling rights whose royal piece or partner the turn moved or captured.
fn end_castling_rights(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    mover: Option<crate::core::PieceKindId>,
) {
    if pos.castling == 0 {
        return;
    }
    let side = pos.side;
    let touch = |cell: Cell| rules.castling_touch(cell);
    let mut ended = touch(t.from())
        | t.to().map_or(0, touch)
        | t.captures().iter().fold(0, |a, &c| a | touch(c));
    // An exploding capture (`[blast]`) touches the cells it empties around its destination.
    if let Some(to) = t
        .to()
        .filter(|_| rules.blast.is_some() && !t.captures().is_empty())
    {
        for cell in rules.blast_around(to) {
            if pos.at(cell).is_empty() {
                ended |= touch(cell);
            }
        }
    }
    // A free castling's king is wherever the royal piece stands: any move of it ends the
    // rights of its side.
    if let Some(k) = mover {
        ended |= rules.castling_mover(side, k);
    }
    pos.castling &= !ended;
}

/// Everything needed to take a turn (or a movement) back: the cells it changed, with what
/// stood there, and the rest of the position as it was. A value can be reused from turn
/// to turn: its buffers keep their room.
#[derive(Debug, Clone, Default)]
pub struct Undo {
    cells: Vec<(Cell, Occupant)>,
    /// A movement's supply gains (side, slot), each by one.
    gained: Vec<(Side, usize)>,
    /// The supplies before a whole turn, where the rules let turns change them.
    supplies: BySide<Vec<u32>>,
    /// Whether `supplies` holds them (not for [`Ruleset::supplies_fixed`] rules).
    supplies_kept: bool,
    /// The rest, remembered for a whole turn (a movement leaves it alone).
    rest: Option<Rest>,
}

/// What a position holds besides its cells and supplies.
#[derive(Debug, Clone, Copy)]
struct Rest {
    side: Side,
    taboo: Option<Cell>,
    ep: Option<Cell>,
    ep_victim: Option<Cell>,
    castling: u32,
    halfmove: u32,
    fullmove: u32,
    checks: BySide<u32>,
    passes: u8,
}

impl Rest {
    fn of(pos: &Position) -> Rest {
        Rest {
            side: pos.side,
            taboo: pos.taboo,
            ep: pos.ep,
            ep_victim: pos.ep_victim,
            castling: pos.castling,
            halfmove: pos.halfmove,
            fullmove: pos.fullmove,
            checks: pos.checks,
            passes: pos.passes,
        }
    }

    fn put_back(self, pos: &mut Position) {
        let Rest {
            side,
            taboo,
            ep,
            ep_victim,
            castling,
            halfmove,
            fullmove,
            checks,
            passes,
        } = self;
        (pos.side, pos.taboo, pos.ep, pos.ep_victim) = (side, taboo, ep, ep_victim);
        (pos.castling, pos.halfmove, pos.fullmove) = (castling, halfmove, fullmove);
        (pos.checks, pos.passes) = (checks, passes);
    }
}

impl Undo {
    /// Remembers everything of `pos` but its cells (its supplies only where `keep_supplies`),
    /// and forgets earlier cell changes.
    fn start(&mut self, pos: &Position, keep_supplies: bool) {
        self.cells.clear();
        self.gained.clear();
        if keep_supplies {
            self.supplies.clone_from(&pos.supplies);
        }
        self.supplies_kept = keep_supplies;
        self.rest = Some(Rest::of(pos));
    }

    /// The supplies before the turn; `None` where the rules keep them fixed (then they are
    /// those after it).
    pub(crate) fn supplies_before(&self) -> Option<&BySide<Vec<u32>>> {
        self.supplies_kept.then_some(&self.supplies)
    }

    /// The taboo cell, en-passant cell, castling rights and passes before the turn (with
    /// the supplies, what the hash reads besides the cells), if it was a whole turn.
    pub(crate) fn rest_before(&self) -> Option<(Option<Cell>, Option<Cell>, u32, u8)> {
        self.rest.map(|r| (r.taboo, r.ep, r.castling, r.passes))
    }
}

/// Plays a whole turn on `pos` ([`apply_turn`]), remembering in `undo` how to take it back,
/// and reporting every cell change (cell, old, new).
pub fn make_turn(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    undo: &mut Undo,
    mut on_cell: impl FnMut(Cell, Occupant, Occupant),
) {
    undo.start(pos, !rules.supplies_fixed());
    #[cfg(debug_assertions)]
    let supplies = pos.supplies.clone();
    let cells = &mut undo.cells;
    apply_turn(rules, pos, t, |c, old, new| {
        cells.push((c, old));
        on_cell(c, old, new);
    });
    #[cfg(debug_assertions)]
    debug_assert!(
        !rules.supplies_fixed() || pos.supplies == supplies,
        "a turn changed the supplies of rules that keep them fixed"
    );
}

/// Moves the pieces of a turn's movement only (`move_pieces`: the side, counters and
/// stones stay), remembering in `undo` how to take it back. Returns the mover as it stood.
pub fn make_movement(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    undo: &mut Undo,
) -> Option<Occupant> {
    undo.cells.clear();
    undo.gained.clear();
    undo.rest = None;
    move_pieces(rules, pos, t, undo)
}

/// A movement's changes, remembered.
impl Moved for Undo {
    fn cell(&mut self, c: Cell, old: Occupant, _: Occupant) {
        self.cells.push((c, old));
    }
    fn gained(&mut self, side: Side, slot: usize) {
        self.gained.push((side, slot));
    }
}

/// Takes back what [`make_turn`] or [`make_movement`] did, leaving `pos` as it was before.
pub fn unmake(pos: &mut Position, undo: &Undo) {
    for &(c, o) in undo.cells.iter().rev() {
        pos.put(c, o);
    }
    for &(side, slot) in &undo.gained {
        pos.supplies[side][slot] -= 1;
    }
    if let Some(rest) = undo.rest {
        if undo.supplies_kept {
            pos.supplies.clone_from(&undo.supplies);
        }
        rest.put_back(pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Game;

    /// Along a game of each bundled variant, every legal turn made and unmade (whole, and
    /// its movement alone) leaves the position exactly as it was, and the whole turn makes
    /// the same position as [`apply_turn`] on a copy.
    #[test]
    fn make_then_unmake_restores_every_position() {
        for name in [
            "chess",
            "crazyhouse",
            "atomic",
            "shogi",
            "xiangqi",
            "waterloo",
            "bollwerk178",
            "border-wars",
            "draughts",
        ] {
            let rules = Ruleset::from_source(
                name,
                crate::load::bundled_text(name).expect("a bundled variant"),
            )
            .expect("it loads");
            let mut game = Game::start(&rules);
            let mut undo = Undo::default();
            let mut tested = 0;
            for ply in 0..16 {
                let Ok(turns) = game.legal_turns() else {
                    break;
                };
                let before = game.pos().clone();
                for t in &turns {
                    let mut pos = before.clone();
                    make_turn(&rules, &mut pos, &t.view(), &mut undo, |_, _, _| {});
                    let mut applied = before.clone();
                    apply_turn(&rules, &mut applied, &t.view(), |_, _, _| {});
                    assert_eq!(pos, applied, "{name}: {t:?}");
                    unmake(&mut pos, &undo);
                    assert_eq!(pos, before, "{name}: {t:?} taken back");
                    if t.to().is_some() {
                        make_movement(&rules, &mut pos, &t.view(), &mut undo);
                        unmake(&mut pos, &undo);
                        assert_eq!(pos, before, "{name}: the movement of {t:?} taken back");
                    }
                    tested += 1;
                }
                game.play(&turns[(ply * 7 + 3) % turns.len()]);
            }
            assert!(tested > 50, "{name}: only {tested} turns tried");
        }
    }
}
