//! Turn generation and legality: every turn by the rules of movement and stones, filtered by
//! the safety of royal pieces, and the verdict when there is none.

use crate::board::{Cell, NO_CELL};
use crate::compile::bits;
use crate::compile::ranges::RangeBoard;
use crate::compile::walk::{Attack, traits};
use crate::compile::wide::Wide;
use crate::core::{BySide, Occupant, Side};
use crate::core::{PieceKindId, RegionId, StoneKindId};
use crate::position::Position;
use crate::rules::{CastlingCells, Ruleset};
use crate::rules::{EndVerdict, PIECE_BLACK, PIECE_ROYAL, PIECE_WHITE, Trigger};
use crate::vm::{Machine, Options, StoneEffect};

use super::apply::{Undo, make_movement, make_turn, move_pieces, unmake};
use super::check::ep_victim;
use super::outcome::{
    Outcome, Reason, answer_pending, no_turn, reached_goal, royals_face, static_outcome_given,
};
use super::placement::{PlaceEffect, placements};
use super::turn::{Step, TurnView};

/// Reusable buffers for turn generation: one core generates, the other checks legality.
#[derive(Debug, Clone, Default)]
pub struct Generator {
    core: Core,
    check: Core,
    /// The position the legality test plays turns on (equal to the position generated from
    /// between tests) and how to take each back.
    after: Position,
    undo: Undo,
    sensitive: Sensitive,
    /// Test every turn by playing it (the reference the fast paths are checked against).
    pub(crate) exhaustive: bool,
    /// The royal pieces' cells of the side to move, in the position generated from.
    royals: Vec<Cell>,
    /// The cells of the enemy pieces, in the position generated from (their attacks on the
    /// royal pieces are asked forwards: see [`Core::attacked_forward`]).
    foes: Vec<Cell>,
    /// The cells of the side to move's pieces, in the position generated from.
    own: Vec<Cell>,
    /// Where the census was read from the position's cell sets, `own` and `foes` are left
    /// empty: these are their cells, as sets (see [`rosters`]).
    census_sets: Option<(u128, u128)>,
    /// Where turns may not give check: the cells whose change could expose an enemy royal
    /// piece to the side to move's pieces (as [`Sensitive`] with the sides swapped, the
    /// attackers free to move) and the enemy royal pieces' cells.
    given: Sensitive,
    /// `sensitive` and `given` together, for counting turns unseen where giving check is
    /// forbidden ([`Sensitive::merge_giving`]).
    counted_giving: Sensitive,
    their_royals: Vec<Cell>,
    /// The enemy pieces' cells for [`Generator::royals_safe`].
    enemies: Vec<Cell>,
    /// On boards with cell sets: per piece kind, the cells of `foes` holding one (empty
    /// otherwise).
    foe_sets: Vec<u128>,
    /// A census kept (see [`Generator::census`]), for the rules (identity), side to move and
    /// cells it was taken of (`counted_cells`): asked again of the same position (a search
    /// asks whether the side to move is in check, then for its turns), it is not taken
    /// again. With the last census, whether a royal piece of the side to move is attacked
    /// there, once known.
    counted: Option<(u64, Side, Census)>,
    counted_cells: Vec<Occupant>,
    known_check: Option<bool>,
}

/// The pieces of one side a test asks about attacks: their cells, and (where the census found
/// them, on a board with cell sets) each kind's cells as a set, in kind order (empty for a
/// kind not present).
#[derive(Debug, Clone, Copy)]
struct Among<'a> {
    cells: Roster<'a>,
    sets: Option<&'a [u128]>,
}

impl<'a> Among<'a> {
    /// Just these cells.
    fn cells(cells: &'a [Cell]) -> Among<'a> {
        Among {
            cells: Roster::List(cells),
            sets: None,
        }
    }

    /// The pieces of a roster.
    fn roster(cells: Roster<'a>) -> Among<'a> {
        Among { cells, sets: None }
    }

    /// The census's enemy pieces (or any side's pieces), with their cell sets per kind (in
    /// kind order; none where `sets` is empty).
    fn foes(cells: Roster<'a>, sets: &'a [u128]) -> Among<'a> {
        Among {
            cells,
            sets: (!sets.is_empty()).then_some(sets),
        }
    }
}

/// The side's pieces whose turns are still to be found, in cell order: a list, or a cell set
/// (of a board of at most 128 cells).
enum Pieces<'a> {
    List(std::slice::Iter<'a, Cell>),
    Set(u128),
}

impl Iterator for Pieces<'_> {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        match self {
            Pieces::List(cells) => cells.next().copied(),
            Pieces::Set(set) => {
                if *set == 0 {
                    return None;
                }
                let c = Cell::new(set.trailing_zeros() as usize);
                *set &= *set - 1;
                Some(c)
            }
        }
    }
}

/// The cells of one side's pieces, in cell order: a list, or a cell set (the census's form
/// on a board of at most 128 cells whose position keeps its pieces' cell sets, which costs
/// no list).
#[derive(Debug, Clone, Copy)]
enum Roster<'a> {
    List(&'a [Cell]),
    Set(u128),
}

/// Whether a royal piece of the side to move (on `royals`) is attacked by the enemy pieces
/// `among`, asked forwards from them.
fn royal_attacked(
    check: &mut Core,
    rules: &Ruleset,
    pos: &Position,
    royals: &[Cell],
    among: Among<'_>,
) -> bool {
    let by = pos.side.opponent();
    royals
        .iter()
        .any(|&c| check.attacked_forward(rules, pos, c, by, among))
}

/// The census's rosters of the side to move's pieces and the enemy's: the sets where it took
/// them (`sets`), else the lists.
fn rosters<'a>(
    own: &'a [Cell],
    foes: &'a [Cell],
    sets: Option<(u128, u128)>,
) -> (Roster<'a>, Roster<'a>) {
    match sets {
        Some((own, foes)) => (Roster::Set(own), Roster::Set(foes)),
        None => (Roster::List(own), Roster::List(foes)),
    }
}

impl<'a> Roster<'a> {
    #[inline]
    fn iter(self) -> Pieces<'a> {
        match self {
            Roster::List(cells) => Pieces::List(cells.iter()),
            Roster::Set(set) => Pieces::Set(set),
        }
    }

    fn contains(self, c: Cell) -> bool {
        match self {
            Roster::List(cells) => cells.contains(&c),
            Roster::Set(set) => c.index() < 128 && set & bits::bit(c) != 0,
        }
    }

    fn first(self) -> Option<Cell> {
        self.iter().next()
    }

    /// The cells as a set (of a board of at most 128 cells).
    fn set(self) -> u128 {
        match self {
            Roster::List(cells) => cells.iter().fold(0u128, |m, &c| m | bits::bit(c)),
            Roster::Set(set) => set,
        }
    }
}

/// What [`Generator::census`] finds besides its lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Census {
    /// Which sides have a royal piece.
    royal_sides: BySide<bool>,
    /// Which sides have a piece.
    pieces: BySide<bool>,
    /// The enemy piece kinds present (of the first 64).
    enemy_kinds: u64,
}

#[derive(Debug, Clone, Default)]
struct Core {
    vm: Machine,
    opts: Options,
    attack: Options,
    /// A position to copy another into and change for a test, boxed so that taking it out
    /// and putting it back moves a pointer ([`Core::take_scratch`]).
    scratch: Option<Box<Position>>,
    /// The generator that asks whether a dropped piece mates (`drop-mate = "forbidden"`),
    /// kept with its buffers and tables from one question to the next.
    drop_probe: Option<Box<Generator>>,
    range: Vec<Cell>,
    singles: Vec<(StoneKindId, Cell, bool)>,
    removals: Vec<Cell>,
    /// The caller only counts (and every pseudo-legal turn is legal): pairs of stones are
    /// counted by formula, not listed.
    count_only: bool,
    /// The caller only counts and no priority filters turns: quiet moves of simple pieces
    /// need not be reported (see [`Core::pseudo`]).
    counting: bool,
    /// Turns [`Core::pseudo`] counted without reporting them (see its `quiet`).
    quiet_counted: usize,
    /// Only the turns that capture or change a piece's kind are asked for (the search's
    /// quiescence): the others need not be generated, nor tested, and no turn found is no end.
    loud_only: bool,
    /// With `loud_only`: whether some quiet turn was found legal (the game goes on).
    quiet_legal: bool,
    /// With `loud_only`, where a quiet move is legal untested when it leaves the sensitive
    /// cells alone (as a turn that cannot expose the royal pieces): those cells as sets (where
    /// a piece lands, where it leaves from; both empty without royal pieces). A plain piece
    /// whose cell-set landings include such a move sets `quiet_legal` (which pieces tested
    /// one by one may set too) without reporting it ([`Core::loud_in_sets`]). Set by the
    /// generation, cleared by [`Generator::loud_turns`].
    quiet_sure: Option<(u128, u128)>,
    /// With counting out of check: the kind of the side's only royal piece, whose moves are
    /// counted from its cell-set landings, each judged by [`Core::attacked_unplayed`] as
    /// [`Safety::judge`] judges a listed one ([`Core::royal_in_sets`]). Set by every generation
    /// with royal pieces (`None` unless that test answers for every enemy kind present); read
    /// only for a royal piece (a generation without royal pieces leaves it as it was).
    royal_sure: Option<PieceKindId>,
    /// With `royal_sure` where giving check is forbidden: the sets for giving check
    /// ([`Sensitive::compute_giving`]) as cell sets (where a piece lands, where it leaves
    /// from). A move of the royal piece that leaves them alone gives check only by its own
    /// attack from its destination, answered in cell sets ([`Core::royal_in_sets`]).
    royal_giving: Option<(u128, u128)>,
    /// Only the turns that neither capture nor change a piece's kind are asked for (a search
    /// that has searched the others): the others are not tested, and no turn found is no end.
    quiet_only: bool,
    /// The turns may be reported in any order (perft, which only counts them): a plain
    /// piece's moves are listed from its cell-set landings, in the cell order of their
    /// destinations, not run through the interpreter in its program's order
    /// ([`Core::listed_in_sets`]).
    any_order: bool,
    /// Only the turns of the side's piece on this cell are asked for (a search trying its
    /// stored turn before the others): no other piece's, no drop, castling, neutral turn or
    /// pass, and no turn found is no end.
    only: Option<Cell>,
    /// The position being generated from, kept equal to it during [`Core::pseudo`]: a move
    /// is played on it for its stone actions and taken back (no copy per move).
    moved: Position,
    /// How to take back the move played on `moved`.
    undo: Undo,
    /// Per cell, the single stones the side to move may place there ([`WEIGH`]: ask the
    /// placement rule, the answer depends on the placing piece); filled once per generation
    /// when first needed (`weighed`).
    weights: Vec<u8>,
    weighed: bool,
    /// The weights as cell sets, for ranges counted in cell sets (see [`Core::count_in_sets`]):
    /// bit `k` of each cell's weight in set `k`, the cells whose weight is [`WEIGH`], and the
    /// position as the range programs' filters read it. Filled with `weights`.
    planes: Vec<Wide>,
    ask: Wide,
    range_board: RangeBoard,
    /// Per piece kind and cell (`kind * cells + cell`), the single stones a piece of the
    /// kind may place on a cell of `ask`, once asked ([`WEIGH`]: not yet).
    asked: Vec<u8>,
    /// The stone kinds the side to move has in hand ([`in_supply`]).
    hand: u64,
    /// `planes`, `ask`, `range_board`, `asked` and `hand` hold this generation's position.
    planed: bool,
    /// `range_board` holds this generation's position (filled for the ranges or for the
    /// movements in cell sets, whichever asks first).
    boarded: bool,
    /// For pieces that place two stones, counted in cell sets: the empty cells whose singles
    /// are known (in `planes`: its weight is the number of kinds allowed there in hand, every
    /// pair of them valid on the cell), per stone kind in hand its group (see [`StoneCount`])
    /// and the cells of `open` where it may be placed, and the stones whose singles are known
    /// (asked cell by cell: they explode). Filled after `planes` when first needed (`grouped`).
    open: Wide,
    groups: Vec<(u8, Wide)>,
    stony: Wide,
    grouped: bool,
    /// The side to move's supply with a stone collected by the move being counted (its pairs
    /// of one kind read from it; see [`Core::count_in_sets`]).
    collected_supply: Vec<u32>,
    /// Moves of a plain piece to be played out (not counted as quiet): destination, whether
    /// it captures there, what it does to a stone there.
    loud: Vec<(Cell, bool, StoneEffect)>,
    kinds: Vec<Option<PieceKindId>>,
}

/// What an attack query finds on its target cell, and the board the interpreter reads for
/// it: the position as it stands ([`AsItStands`]), or a stand-in on an empty cell
/// ([`StandIn`]). Each is its own copy of the query's code, so the usual one pays nothing for
/// the other.
trait Target {
    /// The kind of the enemy of `side` the target holds (in `pos`, or as the stand-in), if it
    /// holds one.
    fn enemy_of(&self, pos: &Position, target: Cell, side: Side) -> Option<PieceKindId>;
    /// The board the interpreter runs on.
    fn board<'b>(&'b mut self, pos: &'b Position) -> &'b Position;
}

/// The target as it stands in the position.
struct AsItStands;

impl Target for AsItStands {
    #[inline]
    fn enemy_of(&self, pos: &Position, target: Cell, side: Side) -> Option<PieceKindId> {
        pos.at(target)
            .as_piece()
            .and_then(|(s, k)| (s != side).then_some(k))
    }

    #[inline]
    fn board<'b>(&'b mut self, pos: &'b Position) -> &'b Position {
        pos
    }
}

impl Target for StandIn<'_> {
    fn enemy_of(&self, _: &Position, _: Cell, side: Side) -> Option<PieceKindId> {
        self.piece
            .as_piece()
            .and_then(|(s, k)| (s != side).then_some(k))
    }

    fn board<'b>(&'b mut self, _: &'b Position) -> &'b Position {
        self.board()
    }
}

/// A position with a stand-in piece on one of its empty cells, for asking whether an enemy
/// piece could capture there: the copy of the position (the scratch position) is made only when
/// first asked for, that is, only when the interpreter has to run on it; answers from cell sets
/// read the position as it stands.
struct StandIn<'a> {
    pos: &'a Position,
    /// The stand-in.
    piece: Occupant,
    /// Where it stands (`NO_CELL` until [`StandIn::on`]).
    cell: Cell,
    probe: Box<Position>,
    /// Whether `probe` holds `pos` with the stand-in on `cell`.
    copied: bool,
}

impl<'a> StandIn<'a> {
    fn new(pos: &'a Position, piece: Occupant, probe: Box<Position>) -> StandIn<'a> {
        StandIn {
            pos,
            piece,
            cell: NO_CELL,
            probe,
            copied: false,
        }
    }

    /// Moves the stand-in to the empty cell `cell`.
    fn on(&mut self, cell: Cell) {
        if self.copied {
            self.probe.put(self.cell, self.pos.at(self.cell));
            self.probe.put(cell, self.piece);
        }
        self.cell = cell;
    }

    /// The position with the stand-in on its cell.
    fn board(&mut self) -> &Position {
        if !self.copied {
            (*self.probe).clone_from(self.pos);
            self.probe.put(self.cell, self.piece);
            self.copied = true;
        }
        &self.probe
    }

    /// The scratch position, to be put back.
    fn into_probe(self) -> Box<Position> {
        self.probe
    }
}

impl Core {
    /// The scratch position, taken out (put it back with `self.scratch = Some(..)`).
    #[inline]
    fn take_scratch(&mut self) -> Box<Position> {
        self.scratch.take().unwrap_or_default()
    }

    /// Whether `cell` is attacked by `by` in `pos`: some piece of `by` has a movement option
    /// that captures on it. An empty cell is tested with a stand-in enemy piece on it.
    fn attacked(&mut self, rules: &Ruleset, pos: &Position, cell: Cell, by: Side) -> bool {
        if blast_spares(rules, pos, cell, by) {
            return false;
        }
        let stand_in = pos
            .at(cell)
            .is_empty()
            .then(|| Occupant::piece(by.opponent(), PieceKindId::new(0)));
        let mut probe = self.take_scratch();
        let board: &Position = if let Some(o) = stand_in {
            (*probe).clone_from(pos);
            probe.put(cell, o);
            &probe
        } else {
            pos
        };
        // Every piece of `by`, forwards (a query out of its geometric reach costs no run).
        let hit = rules.topo.cells().any(|c| {
            matches!(board.at(c).as_piece(), Some((s, k)) if s == by && attacks_as(rules, k))
                && self.vm.captures_cell(rules, board, c, cell)
        });
        // `gives-check`: a neutral piece that `by` could capture with (more influence on it)
        // attacks for `by`, moving as its kind moves.
        let hit = hit
            || rules.neutral.as_ref().is_some_and(|n| {
                n.gives_check && {
                    let mut lent = board.clone();
                    rules.topo.cells().any(|c| {
                        board.at(c).as_neutral().is_some() && {
                            let (mine, theirs) = influence(rules, n, board, c, by);
                            mine > theirs && {
                                let was = lent.at(c);
                                lent.put(c, Occupant::piece(by, n.kind));
                                let takes = self.vm.captures_cell(rules, &lent, c, cell);
                                lent.put(c, was);
                                takes
                            }
                        }
                    })
                }
            });
        self.scratch = Some(probe);
        hit
    }

    /// [`Core::attacked`] for a cell that holds something, where the pieces of `by` stand on
    /// cells of `among` if anywhere (cells that hold something else are passed over): each
    /// asked forwards whether it can capture there.
    fn attacked_forward(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        cell: Cell,
        by: Side,
        among: Among<'_>,
    ) -> bool {
        if pos.at(cell).is_empty() {
            return self.attacked(rules, pos, cell, by);
        }
        self.captured_by_any(rules, pos, cell, by, among, &mut AsItStands)
    }

    /// Whether a piece of `by` standing on a cell of `among` can capture on `cell` in `pos`:
    /// the reach table first, a run only for a piece that could reach it. `on` says what stands
    /// on `cell` (see [`Target`]).
    fn captured_by_any(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        cell: Cell,
        by: Side,
        among: Among<'_>,
        on: &mut impl Target,
    ) -> bool {
        if blast_spares(rules, pos, cell, by) {
            return false;
        }
        // On boards of up to 128 cells: one bit per enemy piece.
        if let Some(row) = rules.attack_reach().from_set_row(cell) {
            if let Some(sets) = among.sets {
                // Per kind, its cells that could reach: a set operation per kind (a kind not
                // present has an empty set; no branch on which are). Pieces of `by` are only
                // taken off the board by the other side's turns, never changed into another
                // kind, so a cell of the set holds that kind or none.
                let mut from = 0u128;
                for (pair, &set) in row.chunks_exact(2).zip(sets) {
                    from |= pair[by.index()] & set;
                }
                while from != 0 {
                    let c = Cell::new(from.trailing_zeros() as usize);
                    from &= from - 1;
                    if let Some((s, k)) = pos.at(c).as_piece()
                        && s == by
                        && attacks_as(rules, k)
                        && row[2 * k.index() + s.index()] & bits::bit(c) != 0
                        && self.captures(rules, pos, on, (c, s, k), cell)
                    {
                        return true;
                    }
                }
                return false;
            }
            return among.cells.iter().any(|c| {
                matches!(pos.at(c).as_piece(), Some((s, k)) if s == by && attacks_as(rules, k)
                    && row[2 * k.index() + s.index()] & bits::bit(c) != 0
                    && self.captures(rules, pos, on, (c, s, k), cell))
            });
        }
        let to = rules.topo.offset_key(cell);
        among.cells.iter().any(|c| {
            matches!(pos.at(c).as_piece(), Some((s, k)) if s == by && attacks_as(rules, k)
                && rules.attack_reach().could_capture(k, s, rules.topo.offset_key(c), to))
                && self.vm.captures_cell(rules, on.board(pos), c, cell)
        })
    }

    /// Whether the piece on `from` (`side`, `kind`) can capture the piece on `target` (`on`
    /// says which, see [`Target`]): from the attack program's cell-set form where it has one
    /// and the target holds an enemy piece, else by the interpreter
    /// ([`crate::vm::Machine::captures_cell`], which the property tests compare it with). The
    /// cell-set form asks only the cells between, never the target's own occupant, so it
    /// reads `pos` as it stands; the interpreter reads `on`'s board.
    fn captures(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        on: &mut impl Target,
        (from, side, kind): (Cell, Side, PieceKindId),
        target: Cell,
    ) -> bool {
        if let Some(b) = rules.bit_attacks()
            && b.answers_attacks(kind.index(), side)
            && self.vm.plain_allowed()
            && let Some(victim) = on.enemy_of(pos, target, side)
            && let Some(hit) = b.attacks_cell(
                &rules.links,
                (kind.index(), side),
                from,
                (target, victim),
                &|c: Cell| pos.at(c).is_empty(),
                |r| rules.regions[r.index()].cells[side].contains(from),
            )
        {
            return hit;
        }
        self.vm.captures_cell(rules, on.board(pos), from, target)
    }

    /// Whether the cell `at`, holding a royal piece of the side to move after a turn, would
    /// stand attacked there by a piece of `by` on a cell of `among`, answered on `pos` without
    /// playing the turn: each piece that could reach `at` asked through its attack program's
    /// cell-set form, reading a cell as empty where `empty` says the turn leaves it empty; a
    /// piece on a cell of `taken` (captured by the turn) attacks no more. `None` where that
    /// needs the turn played: a board above 128 cells, no per-kind cell sets of the enemy, or
    /// an attacker whose attack has no cell-set form.
    fn attacked_unplayed(
        &self,
        rules: &Ruleset,
        pos: &Position,
        (at, victim, taken): (Cell, PieceKindId, u128),
        by: Side,
        among: Among<'_>,
        empty: impl bits::Empties,
    ) -> Option<bool> {
        if blast_spares(rules, pos, at, by) {
            return Some(false);
        }
        let b = rules.bit_attacks().filter(|_| self.vm.plain_allowed())?;
        let (row, sets) = (rules.attack_reach().from_set_row(at)?, among.sets?);
        let mut from = 0u128;
        for (pair, &set) in row.chunks_exact(2).zip(sets) {
            from |= pair[by.index()] & set;
        }
        from &= !taken;
        let mut unsure = false;
        while from != 0 {
            let c = Cell::new(from.trailing_zeros() as usize);
            from &= from - 1;
            let Some((s, k)) = pos.at(c).as_piece() else {
                continue;
            };
            if s != by
                || !attacks_as(rules, k)
                || row[2 * k.index() + s.index()] & bits::bit(c) == 0
            {
                continue;
            }
            match b.attacks_cell(
                &rules.links,
                (k.index(), by),
                c,
                (at, victim),
                &empty,
                |r| rules.regions[r.index()].cells[by].contains(c),
            ) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => unsure = true,
            }
        }
        (!unsure).then_some(false)
    }

    /// Whether any of `cells` but `known` (a cell known not to be attacked) is attacked by `by`
    /// in `pos`, where the pieces of `by` stand on cells of `among` (as in
    /// [`Core::attacked_forward`]). Empty cells are tested with a stand-in enemy piece on
    /// them, on one copy of the position made only if the interpreter has to run on it.
    fn any_attacked_among(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        cells: &[Cell],
        known: Option<Cell>,
        by: Side,
        among: Among<'_>,
    ) -> bool {
        let piece = Occupant::piece(by.opponent(), PieceKindId::new(0));
        let mut stand = StandIn::new(pos, piece, self.take_scratch());
        let mut hit = false;
        for &cell in cells.iter().filter(|&&c| Some(c) != known) {
            hit = if pos.at(cell).is_empty() {
                stand.on(cell);
                self.captured_by_any(rules, pos, cell, by, among, &mut stand)
            } else {
                self.captured_by_any(rules, pos, cell, by, among, &mut AsItStands)
            };
            if hit {
                break;
            }
        }
        self.scratch = Some(stand.into_probe());
        hit
    }

    /// [`Core::royals_safe`] where the enemy pieces stand on cells of `among` if anywhere.
    fn royals_safe_among(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        side: Side,
        among: Among<'_>,
    ) -> bool {
        rules.topo.cells().all(|c| {
            !matches!(pos.at(c).as_piece(), Some((s, k)) if s == side && rules.is_royal(k))
                || !self.attacked_forward(rules, pos, c, side.opponent(), among)
        })
    }

    /// Whether no royal piece of `side` is attacked in `pos`.
    fn royals_safe(&mut self, rules: &Ruleset, pos: &Position, side: Side) -> bool {
        for c in rules.topo.cells() {
            if matches!(pos.at(c).as_piece(), Some((s, k)) if s == side && rules.is_royal(k))
                && self.attacked(rules, pos, c, side.opponent())
            {
                return false;
            }
        }
        true
    }

    /// Every turn by the rules of movement and stones, without the royal-safety filter: each
    /// piece's turns, then the neutral pieces', the drops and the castlings. Returns the count
    /// and whether any piece had a movement option.
    ///
    /// `in_check`, when known, says whether some royal piece of the side to move is attacked.
    /// With `quiet` (the caller only counts, out of check), the moves of a simple piece (not
    /// royal, no stones) that leave the sensitive cells alone and set off no change of kind
    /// are counted in `quiet_counted` and not reported: they are legal without a test.
    #[allow(clippy::too_many_arguments)]
    fn pseudo(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        own: Roster<'_>,
        foes: Among<'_>,
        in_check: Option<bool>,
        quiet: Option<&Sensitive>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> (usize, bool) {
        let side = pos.side;
        self.quiet_counted = 0;
        debug_assert!(
            own.iter()
                .all(|c| matches!(pos.at(c).as_piece(), Some((s, _)) if s == side))
        );
        self.weighed = false;
        self.planed = false;
        self.boarded = false;
        self.grouped = false;
        if !rules.stones.is_empty() {
            self.moved.clone_from(pos);
        }
        let shared = Shared {
            quiet,
            // The board and the sensitive cells as cell sets, for plain pieces counted in sets.
            sets: match (quiet, rules.bit_moves()) {
                (Some(q), Some(b)) if self.vm.plain_allowed() => {
                    Some((b, board_sets(q, pos, own, foes.cells)))
                }
                _ => None,
            },
            loud: match rules.bit_moves() {
                Some(b) if self.loud_only && rules.stones.is_empty() && self.vm.plain_allowed() => {
                    Some((b, piece_sets(pos, own, foes.cells)))
                }
                _ => None,
            },
            listing: match rules.bit_moves() {
                Some(b)
                    if self.any_order
                        && quiet.is_none()
                        && !self.loud_only
                        && !self.quiet_only
                        && rules.stones.is_empty()
                        && self.vm.plain_allowed() =>
                {
                    Some((b, piece_sets(pos, own, foes.cells)))
                }
                _ => None,
            },
            // En passant: the cell passed over and the piece that passed it, found once.
            ep: pos
                .ep
                .filter(|&t| pos.at(t).is_empty())
                .and_then(|t| Some((t, ep_victim(rules, pos)?))),
            foes,
        };
        let mut tally = Tally::default();
        // One loop (one call of `piece_turns`, which is inlined) for every piece or one.
        let only = self.only.filter(|&c| own.contains(c));
        let pieces = match (self.only, &only) {
            (None, _) => own,
            (Some(_), Some(c)) => Roster::List(std::slice::from_ref(c)),
            (Some(_), None) => Roster::List(&[]),
        };
        // Plain kinds with cell-set programs: counted a kind at a time (by fixed offsets in
        // cell order where they can), their pieces passed over below.
        let together = match (shared.sets, shared.quiet) {
            (Some((b, sets)), Some(q))
                if self.only.is_none()
                    && shared.loud.is_none()
                    && q.checks.is_empty()
                    && rules.stones.is_empty() =>
            {
                self.kinds_in_sets(rules, pos, (b, sets), &shared, &mut tally, f)
            }
            _ => 0,
        };
        // The pieces not taken: as a set where some were (the own pieces are the board's
        // pieces less the enemy's), else the list.
        let rest = match shared.sets {
            Some((_, sets)) if together != 0 => {
                Pieces::Set(sets.occupied & !sets.enemy & !together)
            }
            _ => pieces.iter(),
        };
        for c in rest {
            self.piece_turns(rules, pos, c, &shared, &mut tally, f);
        }
        if self.only.is_some() {
            return (tally.count, tally.any_move);
        }
        if let Some(n) = &rules.neutral {
            self.neutral_turns(rules, pos, n, &mut tally, f);
        }
        // Drops, castlings and passes capture nothing and change no kind.
        if self.loud_only {
            return (tally.count, tally.any_move);
        }
        if let Some(d) = &rules.drops {
            let (count, untested) = drop_turns(rules, pos, d, quiet, f);
            tally.count += count;
            self.quiet_counted += untested;
        }
        tally.count += self.castling_turns(rules, pos, in_check, foes, f);
        // A pass (`[turn] pass`), written with the side's royal piece, or its first piece.
        if rules.turn.pass
            && let Some(c) = own
                .iter()
                .find(|&c| matches!(pos.at(c).as_piece(), Some((_, k)) if rules.is_royal(k)))
                .or(own.first())
        {
            f(&TurnView::passing(c));
            tally.count += 1;
        }
        (tally.count, tally.any_move)
    }

    /// The turns of the side's piece on `c` (see [`Core::pseudo`]): placing stones without
    /// moving, its moves (a plain piece's quiet ones only counted), and en passant.
    fn piece_turns(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        c: Cell,
        shared: &Shared<'_>,
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) {
        let Some((_, kind)) = pos.at(c).as_piece() else {
            return;
        };
        let piece = &rules.pieces[kind.index()];
        let shapes = rules.piece_shapes[kind.index()];
        let quiet = shared.quiet.filter(|q| {
            !piece.royal
                && piece.changes.iter().all(|ch| ch.on != Trigger::Check)
                && shapes.moves
                && (rules.stones.is_empty()
                    || !shapes.move_then_stone
                    || (piece.stones_per_turn == 0 && piece.removes.is_empty()))
                && q.leaves_alone(c)
        });
        // Place without moving.
        if !rules.stones.is_empty()
            && (piece.stones_per_turn > 0 || !piece.removes.is_empty())
            && shapes.stone_only
        {
            if let Some(n) = self
                .count_only
                .then(|| self.count_unplayed(rules, pos, c, (c, None), kind))
                .flatten()
            {
                tally.count += n;
            } else {
                self.range.clear();
                self.range.extend_from_slice(self.vm.range(rules, pos, c));
                tally.count += self.actions(rules, pos, kind, TurnView::staying(c), f);
            }
        }
        let listed = match (shared.loud, shared.listing) {
            (Some(sets), _) if piece.changes.iter().all(|ch| ch.on != Trigger::Check) => {
                self.loud_in_sets(rules, pos, c, kind, sets, tally, f)
            }
            (_, Some(sets)) => self.listed_in_sets(rules, pos, (c, kind), sets, tally, f),
            _ if piece.royal && self.royal_sure == Some(kind) => {
                self.royal_in_sets(rules, pos, c, kind, shared, tally)
            }
            _ => quiet.is_some_and(|q| {
                if q.checks.is_empty() {
                    self.plain_turns(rules, pos, c, kind, q, shared, tally, f)
                } else {
                    self.giving_in_sets(rules, pos, (c, kind), q, shared, tally, f)
                }
            }),
        };
        if !listed {
            // Where giving check is forbidden, only moves in cell sets are counted unseen.
            let quiet = quiet.filter(|q| q.checks.is_empty());
            tally.count += self.listed_moves(rules, pos, c, kind, quiet, &mut tally.any_move, f);
        }
        if piece.en_passant
            && let Some((target, victim)) = shared.ep
        {
            tally.count +=
                self.en_passant_turn(rules, pos, (c, kind), (target, victim), shared, tally, f);
        }
    }

    /// The moves of the side's plain pieces (see [`Core::plain_turns`]) of every kind of
    /// [`Ruleset::together_kinds`], a kind at a time: where the movement has a form for all
    /// its pieces at once ([`bits::ShiftProgram`]) and the kind has two pieces or more, an
    /// offset at a time, else a piece at a time from its cell-set landings, as `plain_turns`
    /// does. The moves that leave the sensitive cells alone and set off no change of kind are
    /// counted unseen, the others played out after. Only pieces out of the sensitive cells are
    /// taken, and none on a cell where its change of kind cannot fire (those are walked one by
    /// one). Returns the pieces taken.
    #[inline(never)]
    fn kinds_in_sets(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (b, sets): (&bits::BitMoves, BoardSets),
        shared: &Shared<'_>,
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> u128 {
        let side = pos.side;
        let alone = !(sets.land | sets.vacate);
        let mut taken = 0u128;
        let mut kinds = rules.together_kinds();
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let mut pieces = pos.piece_set(2 * k + side.index()) & alone;
            if pieces == 0 {
                continue;
            }
            let Some(prog) = b.program(k, side) else {
                continue;
            };
            let piece = &rules.pieces[k];
            if piece.royal || !rules.piece_shapes[k].moves {
                continue;
            }
            let Some((fire, walked)) = together_fire(rules, piece, side) else {
                continue;
            };
            pieces &= !walked;
            if pieces == 0 {
                continue;
            }
            taken |= pieces;
            let kind = PieceKindId::new(k);
            let loud_cells = sets.land | (sets.enemy & sets.vacate) | fire;
            // One piece moves no faster a kind at a time.
            match b.shifts(k, side) {
                Some(prog) if pieces & pieces.wrapping_sub(1) != 0 => {
                    let region = |r: RegionId| rules.regions[r.index()].cells[side].low128();
                    prog.each_landing(pieces, sets.occupied, sets.enemy, region, |d, landed| {
                        tally.any_move = true;
                        let loud = landed & loud_cells;
                        self.unseen(tally, (landed & !loud).count_ones() as usize);
                        let mut rest = loud;
                        while rest != 0 {
                            let t = Cell::new(rest.trailing_zeros() as usize);
                            rest &= rest - 1;
                            let from = Cell::new((t.index() as isize - isize::from(d)) as usize);
                            if spared_captures(&sets, from, bits::bit(t), fire) != 0 {
                                self.unseen(tally, 1);
                                continue;
                            }
                            let step =
                                Step::onto(&t, sets.enemy & bits::bit(t) != 0, StoneEffect::None);
                            tally.count += self.after_move(rules, pos, from, kind, &step, f);
                        }
                    });
                }
                _ => {
                    let mut rest = pieces;
                    while rest != 0 {
                        let c = Cell::new(rest.trailing_zeros() as usize);
                        rest &= rest - 1;
                        let targets =
                            b.landings(prog, &rules.links, c, sets.occupied, sets.enemy, |r| {
                                rules.regions[r.index()].cells[side].contains(c)
                            });
                        let loud = targets & loud_cells;
                        let sure = spared_captures(&sets, c, loud, fire);
                        let quiet_moves = (targets & !loud | sure).count_ones() as usize;
                        tally.any_move |= targets != 0;
                        tally.count += quiet_moves;
                        self.quiet_counted += quiet_moves;
                        let loud = loud & !sure;
                        tally.count += self.moves_onto(rules, pos, (c, kind), loud, sets.enemy, f);
                    }
                }
            }
            if piece.en_passant
                && let Some((target, victim)) = shared.ep
            {
                let mut rest = pieces;
                while rest != 0 {
                    let c = Cell::new(rest.trailing_zeros() as usize);
                    rest &= rest - 1;
                    tally.count += self.en_passant_turn(
                        rules,
                        pos,
                        (c, kind),
                        (target, victim),
                        shared,
                        tally,
                        f,
                    );
                }
            }
        }
        taken
    }

    /// Counts `n` turns that are legal untested, unseen (see [`Core::quiet_counted`]).
    #[inline]
    fn unseen(&mut self, tally: &mut Tally, n: usize) {
        tally.count += n;
        self.quiet_counted += n;
    }

    /// A plain piece out of the sensitive cells: its quiet moves that set off no change of
    /// kind counted as they are found, the others played out after (no list of options), in
    /// cell sets where the board and the program allow it. False when the piece cannot be
    /// walked plainly (its moves are then listed).
    #[allow(clippy::too_many_arguments)]
    fn plain_turns(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        c: Cell,
        kind: PieceKindId,
        q: &Sensitive,
        shared: &Shared<'_>,
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> bool {
        let side = pos.side;
        let piece = &rules.pieces[kind.index()];
        let fire_cells = fires_of(rules, piece, side, c);
        let fire_mask = match fire_cells {
            Fires::Never => Some(0),
            Fires::In(cells) => Some(cells.low128()),
            Fires::Always => Some(u128::MAX),
            Fires::Ask => None,
        };
        let in_sets = match (shared.sets, fire_mask) {
            (Some((b, sets)), Some(fire)) => {
                b.program(kind.index(), side).map(|p| (b, sets, p, fire))
            }
            _ => None,
        };
        if let Some((b, sets, prog, fire)) = in_sets {
            let targets = b.landings(prog, &rules.links, c, sets.occupied, sets.enemy, |r| {
                rules.regions[r.index()].cells[side].contains(c)
            });
            let loud =
                targets & (sets.land | (sets.enemy & sets.vacate) | fire | q.checks_from(kind));
            let sure = spared_captures(&sets, c, loud, fire);
            let quiet_moves = (targets & !loud | sure).count_ones() as usize;
            let loud = loud & !sure;
            tally.any_move |= targets != 0;
            tally.count += quiet_moves;
            self.quiet_counted += quiet_moves;
            tally.count += self.moves_onto(rules, pos, (c, kind), loud, sets.enemy, f);
            return true;
        }
        // Where giving check is forbidden, only moves in cell sets are counted unseen: the
        // moves are listed.
        if !q.checks.is_empty() {
            return false;
        }
        let mut loud = std::mem::take(&mut self.loud);
        loud.clear();
        let mut quiet_moves = 0;
        let plain = self
            .vm
            .plain_each(rules, pos, c, side, kind, |t, captured, fx| {
                let captures: &[Cell] = if captured { &[t] } else { &[] };
                let unchanged = match fire_cells {
                    Fires::Never => true,
                    Fires::In(cells) => !cells.contains(t),
                    Fires::Always => false,
                    Fires::Ask => piece.changes.iter().all(|ch| {
                        fires_unplayed(rules, pos, &ch.on, c, t, captures) == Some(false)
                    }),
                };
                if unchanged && q.untouched_by(t, captures) {
                    quiet_moves += 1;
                } else {
                    loud.push((t, captured, fx));
                }
            });
        if plain {
            tally.any_move |= quiet_moves > 0 || !loud.is_empty();
            tally.count += quiet_moves;
            self.quiet_counted += quiet_moves;
            for (t, captured, fx) in &loud {
                let step = Step::onto(t, *captured, *fx);
                tally.count += self.after_move(rules, pos, c, kind, &step, f);
            }
        }
        self.loud = loud;
        plain
    }

    /// [`Core::plain_turns`] where giving check is forbidden (`q` holds the cells from which
    /// each kind could attack an enemy royal piece): in cell sets only. A quiet move onto such
    /// a cell is answered by the moved piece's attack on the board it leaves, unplayed
    /// ([`Sensitive::moves_giving_check`]): refused where it gives check, counted where it
    /// does not, listed where the cell sets cannot tell. False, with nothing counted, where
    /// the piece has no cell-set program or a change of kind needs asking (its moves are then
    /// listed).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn giving_in_sets(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (c, kind): (Cell, PieceKindId),
        q: &Sensitive,
        shared: &Shared<'_>,
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> bool {
        let side = pos.side;
        let Some(fire) = fire_mask(rules, kind, side, c) else {
            return false;
        };
        let Some((b, sets)) = shared.sets else {
            return false;
        };
        let Some(prog) = b.program(kind.index(), side) else {
            return false;
        };
        let targets = b.landings(prog, &rules.links, c, sets.occupied, sets.enemy, |r| {
            rules.regions[r.index()].cells[side].contains(c)
        });
        let loud = targets & (sets.land | (sets.enemy & sets.vacate) | fire);
        let checking = targets & q.checks_from(kind) & !loud;
        let (quiet, unsure) = q.moves_giving_check(rules, pos, kind, c, checking);
        let quiet_moves = (targets & !loud & !checking).count_ones() as usize + quiet;
        tally.any_move |= targets != 0;
        tally.count += quiet_moves;
        self.quiet_counted += quiet_moves;
        tally.count += self.moves_onto(rules, pos, (c, kind), loud | unsure, sets.enemy, f);
        true
    }

    /// The moves of the side's only royal piece (of `kind`, on `c`; see [`Core::royal_sure`])
    /// counted from its cell-set landings: each is legal where the piece would not stand
    /// attacked on its destination, the cell it left read as empty and a piece taken there
    /// attacking no more (the test [`Safety::judge`] makes of a listed move); with exploding
    /// captures (`[blast]`), none of its captures (the piece goes up with its prey). Where
    /// giving check is forbidden ([`Core::royal_giving`]), a move must leave the sets for
    /// giving check alone and is refused where the piece would attack an enemy royal piece
    /// from its destination (as [`Sensitive::gives_check_unplayed`] answers a listed one).
    /// False, with nothing counted, where the piece has no cell-set program, its moves may
    /// change its kind, a move touches the sets for giving check, or some attacker's answer
    /// needs the move played: its moves are then listed.
    fn royal_in_sets(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        c: Cell,
        kind: PieceKindId,
        shared: &Shared<'_>,
        tally: &mut Tally,
    ) -> bool {
        let side = pos.side;
        let piece = &rules.pieces[kind.index()];
        let Some((b, sets)) = shared.sets else {
            return false;
        };
        if !piece.changes.is_empty() || !matches!(fires_of(rules, piece, side, c), Fires::Never) {
            return false;
        }
        let Some(prog) = b.program(kind.index(), side) else {
            return false;
        };
        let targets = b.landings(prog, &rules.links, c, sets.occupied, sets.enemy, |r| {
            rules.regions[r.index()].cells[side].contains(c)
        });
        // An exploding capture (`[blast]`) takes its capturer: the side's only royal piece
        // never survives one of its own captures (as [`Safety::played_is_safe`] finds).
        let survivable = if rules.blast.is_some() {
            targets & !sets.enemy
        } else {
            targets
        };
        // Where giving check is forbidden: the royal piece leaving its cell or arriving (a
        // capture empties its destination of the piece taken) opens no other piece's line
        // towards an enemy royal piece, or its moves are listed.
        let giving = match (self.royal_giving, shared.quiet) {
            (None, _) => None,
            (Some((land, vacate)), Some(q)) => {
                let touched = survivable & (land | (vacate & sets.enemy));
                if (land | vacate) & bits::bit(c) != 0 || touched != 0 {
                    return false;
                }
                Some(q.their_royals.as_slice())
            }
            (Some(_), None) => return false,
        };
        let (mut rest, mut legal) = (survivable, 0);
        while rest != 0 {
            let to = Cell::new(rest.trailing_zeros() as usize);
            rest &= rest - 1;
            if let Some(their_royals) = giving {
                match gives_check_from(rules, pos, their_royals, (kind, c, to), true) {
                    Some(true) => continue,
                    Some(false) => {}
                    None => return false,
                }
            }
            // Empty after the move: the royal piece's cell, not its destination.
            let empty = bits::EmptyCells((!sets.occupied | bits::bit(c)) & !bits::bit(to));
            let at = (to, kind, bits::bit(to));
            match self.attacked_unplayed(rules, pos, at, side.opponent(), shared.foes, empty) {
                Some(attacked) => legal += usize::from(!attacked),
                None => return false,
            }
        }
        tally.any_move |= targets != 0;
        tally.count += legal;
        self.quiet_counted += legal;
        true
    }

    /// Whether one of the quiet landings `quiet` of the piece of `kind` on `c` is legal
    /// untested (see [`Core::quiet_sure`]). Out of line: asked once a piece in the search's
    /// loud generation only (inlined, the search took 0.1% more instructions).
    #[inline(never)]
    fn sure_quiet(&self, rules: &Ruleset, c: Cell, kind: PieceKindId, quiet: u128) -> bool {
        self.quiet_sure.is_some_and(|(land, vacate)| {
            !rules.pieces[kind.index()].royal
                && (land | vacate) & bits::bit(c) == 0
                && quiet & !land != 0
        })
    }

    /// The loud turns ([`Core::loud_only`]) of the piece of `kind` on `c` from its cell-set
    /// program: its captures and its moves onto the cells where it changes kind, each played
    /// out (with every choice of kind). False when the piece has no such program or its changes
    /// of kind are not read from regions (its moves are then listed).
    #[allow(clippy::too_many_arguments)]
    fn loud_in_sets(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        c: Cell,
        kind: PieceKindId,
        (b, sets): (&bits::BitMoves, BoardSets),
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> bool {
        let side = pos.side;
        let Some(fire) = fire_mask(rules, kind, side, c) else {
            return false;
        };
        let Some(prog) = b.program(kind.index(), side) else {
            return false;
        };
        let targets = b.landings(prog, &rules.links, c, sets.occupied, sets.enemy, |r| {
            rules.regions[r.index()].cells[side].contains(c)
        });
        tally.any_move |= targets != 0;
        // A quiet move off and onto cells that no attack on a royal piece needs: legal, so the
        // game goes on (it is not reported).
        if self.quiet_sure.is_some() && !self.quiet_legal {
            self.quiet_legal = self.sure_quiet(rules, c, kind, targets & !(sets.enemy | fire));
        }
        tally.count += self.moves_onto(
            rules,
            pos,
            (c, kind),
            targets & (sets.enemy | fire),
            sets.enemy,
            f,
        );
        true
    }

    /// Every move of the piece of `kind` on `c` from its cell-set program, each played out
    /// as [`Core::listed_moves`] plays a listed option (with every choice of kind), in the cell
    /// order of the destinations ([`Core::any_order`]). False when the piece has no such
    /// program (its moves are then listed by the interpreter).
    fn listed_in_sets(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (c, kind): (Cell, PieceKindId),
        (b, sets): (&bits::BitMoves, BoardSets),
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> bool {
        let side = pos.side;
        let Some(prog) = b.program(kind.index(), side) else {
            return false;
        };
        let targets = b.landings(prog, &rules.links, c, sets.occupied, sets.enemy, |r| {
            rules.regions[r.index()].cells[side].contains(c)
        });
        tally.any_move |= targets != 0;
        tally.count += self.moves_onto(rules, pos, (c, kind), targets, sets.enemy, f);
        true
    }

    /// The turns of the piece (`from`, of `kind`) moving onto each cell of `cells`, capturing
    /// where `enemy` holds a piece (see [`Core::after_move`]).
    #[inline]
    fn moves_onto(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (from, kind): (Cell, PieceKindId),
        mut cells: u128,
        enemy: u128,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let mut count = 0;
        while cells != 0 {
            let t = Cell::new(cells.trailing_zeros() as usize);
            cells &= cells - 1;
            let step = Step::onto(&t, enemy & bits::bit(t) != 0, StoneEffect::None);
            count += self.after_move(rules, pos, from, kind, &step, f);
        }
        count
    }

    /// The en-passant capture of the piece on `c` onto `target`, taking `victim` (the piece
    /// that passed over it), if its captures may land there.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn en_passant_turn(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (c, kind): (Cell, PieceKindId),
        (target, victim): (Cell, Cell),
        shared: &Shared<'_>,
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        // Out of its legs' reach: no copy of the position, no run (asked here, inlined into
        // the loops over the pieces, since most pieces are out of reach).
        if !self.vm.may_capture(rules, pos.side, kind, c, target) {
            return 0;
        }
        self.en_passant_played(rules, pos, (c, kind), (target, victim), shared, tally, f)
    }

    /// [`Core::en_passant_turn`] for a piece whose legs may reach the cell: asked on the
    /// position with the passing piece stood in on the cell passed over.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn en_passant_played(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (c, kind): (Cell, PieceKindId),
        (target, victim): (Cell, Cell),
        shared: &Shared<'_>,
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let step = Step {
            to: target,
            captures: &[victim],
            dest: StoneEffect::None,
        };
        // A plain movement program in cell sets: a landing on an enemy piece captures it
        // alone, so the stand-in is a bit in the board's sets (no copy of the position).
        let side = pos.side;
        if let Some((b, sets)) = shared.sets.or(shared.loud)
            && let Some(prog) = b.program(kind.index(), side)
        {
            let t = bits::bit(target);
            let landings = b.landings(
                prog,
                &rules.links,
                c,
                sets.occupied | t,
                sets.enemy | t,
                |r| rules.regions[r.index()].cells[side].contains(c),
            );
            if landings & t == 0 {
                return 0;
            }
            tally.any_move = true;
            return self.after_move(rules, pos, c, kind, &step, f);
        }
        let mut probe = self.take_scratch();
        (*probe).clone_from(pos);
        probe.put(target, Occupant::piece(pos.side.opponent(), kind));
        // Only a piece that attacks the cell can capture on it alone.
        let hits = self.vm.captures_cell(rules, &probe, c, target) && {
            self.vm.moves(rules, &probe, c, &mut self.attack);
            self.attack
                .moves
                .iter()
                .any(|m| m.to == target && self.attack.captures(m) == [target])
        };
        self.scratch = Some(probe);
        if !hits {
            return 0;
        }
        tally.any_move = true;
        self.after_move(rules, pos, c, kind, &step, f)
    }

    /// The moves of the neutral pieces the side has the influence over (more than the
    /// opponent's; equal and not zero: without capturing).
    fn neutral_turns(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        n: &crate::rules::Neutral,
        tally: &mut Tally,
        f: &mut impl FnMut(&TurnView<'_>),
    ) {
        let side = pos.side;
        for c in rules.topo.cells() {
            if pos.at(c).as_neutral().is_none() {
                continue;
            }
            let (mine, theirs) = influence(rules, n, pos, c, side);
            if mine == 0 || mine < theirs {
                continue;
            }
            let may_capture = mine > theirs;
            let mut probe = self.take_scratch();
            (*probe).clone_from(pos);
            probe.put(c, Occupant::piece(side, n.kind));
            self.vm.moves(rules, &probe, c, &mut self.attack);
            self.scratch = Some(probe);
            let opts = std::mem::take(&mut self.attack);
            for m in &opts.moves {
                let captures = opts.captures(m);
                if !may_capture && !captures.is_empty() {
                    continue;
                }
                // `captures-neutral = false`: never the other neutral piece.
                if !n.captures_neutral && captures.iter().any(|&v| pos.at(v).as_neutral().is_some())
                {
                    continue;
                }
                tally.any_move = true;
                f(&TurnView::movement(c, m.to, captures, m.stone));
                tally.count += 1;
            }
            self.attack = opts;
        }
    }

    /// The castlings open to the side: rights kept, the pieces in place, the cells between
    /// empty and the cells the royal piece crosses not attacked.
    fn castling_turns(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        in_check: Option<bool>,
        foes: Among<'_>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let side = pos.side;
        let mut count = 0;
        for (i, cst) in rules.castlings.iter().enumerate() {
            if cst.side != side || pos.castling & (1 << cst.right) == 0 {
                continue;
            }
            // The partners first: a look at a cell each, where a free castling's royal piece
            // is looked for along the row.
            let rook_ok = cst.partners.iter().all(|&(a, _)| {
                matches!(pos.at(a).as_piece(), Some((s, k)) if s == side && cst.partner_kind.is_none_or(|p| p == k))
            });
            if !rook_ok {
                continue;
            }
            // Declared cells are used as they stand; a free castling's are read from its row.
            let Some(CastlingCells { king, empty, safe }) = rules.castling_cells(cst, pos) else {
                continue;
            };
            let king_ok = matches!(pos.at(king).as_piece(), Some((s, k)) if s == side && rules.castles_as_king(cst, k));
            if !king_ok || !empty.iter().all(|&e| pos.at(e).is_empty()) {
                continue;
            }
            // Out of check, the royal piece's own cell is known to be safe.
            let known = (in_check == Some(false)).then_some(king);
            if self.any_attacked_among(rules, pos, safe, known, side.opponent(), foes) {
                continue;
            }
            let Ok(index) = u8::try_from(i) else {
                continue;
            };
            f(&TurnView::castling(king, cst.king.1, index));
            count += 1;
        }
        count
    }

    /// The turns of the movement options of the piece (kind `kind`) on `from`, listed by the
    /// VM: with `quiet`, those that leave the sensitive cells alone and change no kind are only
    /// counted (see [`Core::pseudo`]). Sets `any_move` when the piece has an option.
    #[allow(clippy::too_many_arguments)]
    fn listed_moves(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        c: Cell,
        kind: PieceKindId,
        quiet: Option<&Sensitive>,
        any_move: &mut bool,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        // In any order (counted, or perft's inner plies), a program whose paths are single
        // legs (or the emits a program of chains begins with) lands on the cells of its
        // cell-set form: the same options, in cell order.
        if rules.bit_ranges().is_some()
            && (self.counting || self.any_order)
            && self.vm.plain_allowed()
            && let Some(n) = self.moves_in_sets(rules, pos, (c, kind), quiet, any_move, f)
        {
            return n;
        }
        self.vm.moves(rules, pos, c, &mut self.opts);
        *any_move |= !self.opts.is_empty();
        let opts = std::mem::take(&mut self.opts);
        let mut count = 0;
        for m in &opts.moves {
            let step = Step {
                to: m.to,
                captures: opts.captures(m),
                dest: m.stone,
            };
            count += self.listed_move(rules, pos, (c, kind), quiet, &step, f);
        }
        self.opts = opts;
        count
    }

    /// [`Core::listed_moves`] in any order from the movement's cell-set form on a board with
    /// stones ([`crate::compile::ranges::MoveProgram`]), or its leading emits' for a program
    /// of chains ([`Core::chain_moves`]); `None` where it has neither. Out of line: inlined,
    /// it grew the generation of games without such forms (Waterloo's perft 4 +2.6% instructions).
    #[inline(never)]
    fn moves_in_sets(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (c, kind): (Cell, PieceKindId),
        quiet: Option<&Sensitive>,
        any_move: &mut bool,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> Option<usize> {
        let side = pos.side;
        let table = rules.bit_ranges()?;
        if let Some(lead) = table.lead(kind.index(), side) {
            return Some(self.chain_moves(rules, pos, (c, kind), lead, quiet, any_move, f));
        }
        let prog = table.move_program(kind.index(), side)?;
        self.fill_board(pos, table);
        let landed = table.landings(prog, &rules.links, &self.range_board, c, |r| {
            rules.regions[r.index()].cells[side].contains(c)
        });
        *any_move |= !landed.is_empty();
        Some(self.landed_moves(rules, pos, (c, kind), landed, quiet, f))
    }

    /// The turns of the options of the piece (kind `kind`) on `c` that land on the cells of
    /// `landed` by single legs: each captures the piece on its cell, if any, and collects or
    /// destroys the stone there, if any ([`crate::vm::landed_on`]).
    fn landed_moves(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (c, kind): (Cell, PieceKindId),
        landed: Wide,
        quiet: Option<&Sensitive>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let mut count = 0;
        for t in landed.cells() {
            let (captured, dest) = crate::vm::landed_on(pos.at(t), rules.collectable());
            let captures: &[Cell] = if captured {
                std::slice::from_ref(&t)
            } else {
                &[]
            };
            let step = Step {
                to: t,
                captures,
                dest,
            };
            count += self.listed_move(rules, pos, (c, kind), quiet, &step, f);
        }
        count
    }

    /// [`Core::listed_moves`] in any order for a program of chains that begins with `emit`
    /// ops (`lead`): the emits' options from their cell-set landings, then, where a chain can
    /// begin, the chains' options from the interpreter, less those an emit has (the same
    /// destination and captures: one option, as the interpreter merges them).
    #[allow(clippy::too_many_arguments)]
    fn chain_moves(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (c, kind): (Cell, PieceKindId),
        lead: &crate::compile::ranges::LeadForm,
        quiet: Option<&Sensitive>,
        any_move: &mut bool,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let side = pos.side;
        let Some(table) = rules.bit_ranges() else {
            return 0;
        };
        self.fill_board(pos, table);
        let emitted = table.landings(&lead.emits, &rules.links, &self.range_board, c, |r| {
            rules.regions[r.index()].cells[side].contains(c)
        });
        *any_move |= !emitted.is_empty();
        let mut count = self.landed_moves(rules, pos, (c, kind), emitted, quiet, f);
        // What an emit's option captures on `t`: the piece there, if any.
        let emit_captures = |t: Cell| crate::vm::landed_on(pos.at(t), rules.collectable());
        let known = lead.knows_entry();
        if known && !table.may_enter(lead, &rules.links, &self.range_board, c) {
            return count;
        }
        let mut opts = std::mem::take(&mut self.opts);
        self.vm
            .chain_moves(rules, pos, (c, lead.pc), !known, &mut opts);
        for m in &opts.moves {
            let captures = opts.captures(m);
            let emit_has = emitted.has(m.to)
                && if emit_captures(m.to).0 {
                    *captures == [m.to]
                } else {
                    captures.is_empty()
                };
            if emit_has {
                continue;
            }
            *any_move = true;
            let step = Step {
                to: m.to,
                captures,
                dest: m.stone,
            };
            count += self.listed_move(rules, pos, (c, kind), quiet, &step, f);
        }
        self.opts = opts;
        count
    }

    /// The turns of one movement option of [`Core::listed_moves`]: one, counted unseen,
    /// where it leaves the sensitive cells alone (`quiet`) and changes no kind; else those
    /// [`Core::after_move`] finds. Always inlined, as the loop body it was (as a call,
    /// Waterloo's perft 4 ran 1.0% more instructions).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn listed_move(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        (c, kind): (Cell, PieceKindId),
        quiet: Option<&Sensitive>,
        step: &Step<'_>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let piece = &rules.pieces[kind.index()];
        if quiet.is_some_and(|q| q.untouched_by(step.to, step.captures))
            && piece.changes.iter().all(|ch| {
                fires_unplayed(rules, pos, &ch.on, c, step.to, step.captures) == Some(false)
            })
        {
            // Exactly one turn (no change of kind happens), legal: what `after_move`
            // and the test would find.
            self.quiet_counted += 1;
            return 1;
        }
        self.after_move(rules, pos, c, kind, step, f)
    }

    /// Fills `range_board` for `pos` (the side to move's view) once per generation.
    #[inline]
    fn fill_board(&mut self, pos: &Position, table: &crate::compile::ranges::BitRanges) {
        if !self.boarded {
            self.range_board.fill(table, pos.cells(), pos.side);
            self.boarded = true;
        }
    }

    /// The turns that make one movement: with each promotion choice, then with each stone
    /// action from the new cell.
    fn after_move(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        kind: PieceKindId,
        step: &Step<'_>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let changes = &rules.pieces[kind.index()].changes;
        // A kind without changes stays itself, and so does a piece whose changes all fire on
        // reaching a region it does not land in (a pawn's step short of the last rank).
        let stays = changes.iter().all(|ch| {
            matches!(ch.on, Trigger::Reach { region, .. }
                if !rules.regions[region.index()].cells[pos.side].contains(step.to))
        });
        if stays {
            return self.arrive_as(rules, pos, from, kind, None, step, f);
        }
        let mut kinds = std::mem::take(&mut self.kinds);
        self.kind_choices(rules, pos, from, kind, step, &mut kinds);
        let mut count = 0;
        for &promote in &kinds {
            count += self.arrive_as(rules, pos, from, kind, promote, step, f);
        }
        self.kinds = kinds;
        count
    }

    /// The turns of one movement of a piece of kind `kind` that arrives as `promote` (`None`:
    /// as itself): the plain move and each stone action from the new cell.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn arrive_as(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        kind: PieceKindId,
        promote: Option<PieceKindId>,
        step: &Step<'_>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let mut count = 0;
        let view = TurnView::movement(from, step.to, step.captures, step.dest).promoting(promote);
        let shapes = rules.piece_shapes[kind.index()];
        let compulsory = rules.turn.stone_after_move_compulsory;
        // The plain move first, unless it has to wait for whether a stone can follow.
        if shapes.moves && !compulsory {
            f(&view);
            count += 1;
        }
        let now = promote.unwrap_or(kind);
        let arrived = &rules.pieces[now.index()];
        let mut with_stones = 0;
        if !rules.stones.is_empty()
            && (arrived.stones_per_turn > 0 || !arrived.removes.is_empty())
            && shapes.move_then_stone
        {
            with_stones = self.stones_after_move(rules, pos, now, &view, step, f);
        }
        count += with_stones;
        // A compulsory stone: the plain move only when no stone can follow it.
        if shapes.moves && compulsory && with_stones == 0 {
            f(&view);
            count += 1;
        }
        count
    }

    /// The stone actions after a movement (`view`, by `step`, of a piece standing as `now`
    /// after it): counted on the position as it stands when only counting and the move
    /// leaves nothing else changed than its two cells (and a stone collected of a kind
    /// already in hand, which leaves the kinds in hand as they were); else listed on the
    /// position with the move played (and taken back).
    fn stones_after_move(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        now: PieceKindId,
        view: &TurnView<'_>,
        step: &Step<'_>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let collected = match step.dest {
            StoneEffect::Collect(k) => Some(k),
            _ => None,
        };
        let unplayed = collected.is_none_or(|k| {
            pos.supplies[pos.side]
                .get(k.index())
                .is_some_and(|&n| n > 0 && n < u32::MAX)
        }) && step.captures.iter().all(|&c| c == step.to)
            && (step.captures.is_empty() || !rules.pieces[now.index()].captures_to_reserve);
        if self.count_only
            && unplayed
            && let Some(n) = self.count_unplayed(rules, pos, view.from(), (step.to, collected), now)
        {
            return n;
        }
        // Played on `moved` (equal to `pos`), taken back after.
        let mut moved = std::mem::take(&mut self.moved);
        let mut undo = std::mem::take(&mut self.undo);
        make_movement(rules, &mut moved, view, &mut undo);
        self.range.clear();
        self.range
            .extend_from_slice(self.vm.range(rules, &moved, step.to));
        let n = self.actions(rules, &moved, now, *view, f);
        unmake(&mut moved, &undo);
        self.moved = moved;
        self.undo = undo;
        n
    }

    /// The stone actions of the piece of kind `now` standing on `at`, having come from `vacated`
    /// (`vacated == at`: it stands still), counted on `pos` with the move not played: its
    /// placement range read with `vacated` as empty; `collected`, a stone the move collected
    /// on `at`, of a kind the side has in hand. `None` when that needs the move played (a
    /// stone collected is counted in cell sets only).
    fn count_unplayed(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        vacated: Cell,
        (at, collected): (Cell, Option<StoneKindId>),
        now: PieceKindId,
    ) -> Option<usize> {
        if rules.allowed_kinds().is_empty() || 2 * rules.stones.len() > GROUPS {
            return None;
        }
        let side = pos.side;
        if let Some(n) = self.count_in_sets(rules, pos, vacated, (at, collected), now) {
            return Some(n);
        }
        if collected.is_some() {
            return None;
        }
        let range = self
            .vm
            .range_after_move(rules, pos, vacated, at, side, now)?;
        let moved = vacated != at;
        let piece = &rules.pieces[now.index()];
        if piece.stones_per_turn == 1 && piece.removes.is_empty() {
            // One stone: the count is the sum of the cells' weights over the range.
            if !self.weighed {
                weigh(rules, pos, &mut self.weights);
                self.weighed = true;
            }
            let mut n = 0usize;
            for &c in range {
                let w = if moved && c == vacated {
                    empty_weight(rules, pos, c, in_supply(pos))
                } else {
                    self.weights[c.index()]
                };
                if w == WEIGH {
                    placements(rules, pos, side, now, c, |_, _| n += 1);
                } else {
                    n += usize::from(w);
                }
            }
            return Some(n);
        }
        self.range.clear();
        self.range.extend_from_slice(range);
        Some(self.count_actions(rules, pos, now, moved.then_some(vacated)))
    }

    /// [`Core::count_unplayed`] with the placement range found in cell sets
    /// ([`crate::compile::ranges`]), where the range program has that form: a piece that
    /// places one stone counts the range's cells by weight (a popcount per bit of the
    /// weights); others count over the range's cells as listed. `None` when the program has
    /// no such form (or the machine must use the general interpreter).
    fn count_in_sets(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        vacated: Cell,
        (at, collected): (Cell, Option<StoneKindId>),
        now: PieceKindId,
    ) -> Option<usize> {
        let side = pos.side;
        let table = rules.bit_ranges()?;
        let prog = table.program(now.index(), side)?;
        if !self.vm.plain_allowed() {
            return None;
        }
        if !self.planed {
            self.plane(rules, pos, table);
        }
        let mut range = table.range(prog, &rules.links, &self.range_board, at, vacated, |g| {
            rules.regions[g.index()].cells[side].contains(at)
        });
        let moved = vacated != at;
        let piece = &rules.pieces[now.index()];
        if piece.stones_per_turn >= 2 && piece.removes.is_empty() {
            // Two stones: the group sizes and the pairs of one cell read from the sets, the
            // cell just left read as empty, the cells of `ask` asked one by one.
            if !self.grouped {
                self.group(rules, pos);
                self.grouped = true;
            }
            // A stone collected: one more of a kind in hand (more pairs of that kind may be
            // valid), the kinds in hand, and so every cell's singles, unchanged.
            let supply = match collected {
                Some(k) => {
                    self.collected_supply.clone_from(&pos.supplies[side]);
                    self.collected_supply[k.index()] += 1;
                    &self.collected_supply
                }
                None => &pos.supplies[side],
            };
            let mut count = StoneCount::new(supply, rules.turn.explosions);
            if moved && range.has(vacated) {
                range.remove(vacated);
                if pos.taboo != Some(vacated)
                    && let Some(allowed) = rules.allowed_mask(side, vacated)
                {
                    count.add_empty(allowed & self.hand);
                }
            }
            let open = range & self.open;
            for &(g, cells) in &self.groups {
                let n = (open & cells).len();
                count.size[usize::from(g)] += n;
                count.singles += n as usize;
            }
            // The pairs on one empty cell of weight w: w (w - 1) / 2, with w = sum of 2^j b_j
            // over its bits b_j (in `planes`): sum of (4^j - 2^j) / 2 b_j, plus 2^(j + k)
            // b_j b_k for each j < k.
            for (j, &pj) in self.planes.iter().enumerate() {
                let on = open & pj;
                if on.is_empty() {
                    continue;
                }
                count.same_cell += (on.len() as usize) * (((1usize << (2 * j)) - (1 << j)) / 2);
                for (k, &pk) in self.planes.iter().enumerate().skip(j + 1) {
                    count.same_cell += ((on & pk).len() as usize) << (j + k);
                }
            }
            for c in (range & (self.ask | self.stony)).cells() {
                count.ask(rules, pos, now, c);
            }
            return Some(count.singles + count.pairs());
        }
        if piece.stones_per_turn == 1 && piece.removes.is_empty() {
            // One stone: the sum of the weights over the range, the cell just left weighed as
            // empty.
            let mut n = 0usize;
            let ask = |c: Cell, n: &mut usize| {
                placements(rules, pos, side, now, c, |_, _| *n += 1);
            };
            if moved && range.has(vacated) {
                range.remove(vacated);
                match empty_weight(rules, pos, vacated, self.hand) {
                    WEIGH => ask(vacated, &mut n),
                    w => n += usize::from(w),
                }
            }
            for (k, &plane) in self.planes.iter().enumerate() {
                n += ((range & plane).len() as usize) << k;
            }
            let base = now.index() * pos.cells().len();
            for c in (range & self.ask).cells() {
                let known = &mut self.asked[base + c.index()];
                if *known == WEIGH {
                    let mut m = 0;
                    ask(c, &mut m);
                    // More than 254 single stones on one cell: asked each time.
                    match u8::try_from(m) {
                        Ok(w) if w != WEIGH => *known = w,
                        _ => {
                            n += m;
                            continue;
                        }
                    }
                }
                n += usize::from(*known);
            }
            return Some(n);
        }
        if collected.is_some() {
            return None;
        }
        self.range.clear();
        self.range.extend(range.cells());
        Some(self.count_actions(rules, pos, now, moved.then_some(vacated)))
    }

    /// Fills `planes`, `ask`, `range_board`, `asked` and `hand` for `pos` (see their fields).
    fn plane(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        table: &crate::compile::ranges::BitRanges,
    ) {
        self.fill_board(pos, table);
        self.hand = in_supply(pos);
        self.planes.clear();
        self.ask = Wide::EMPTY;
        if !self.plane_in_sets(rules, pos) {
            self.plane_by_cells(rules, pos);
        }
        self.asked.clear();
        self.asked
            .resize(rules.pieces.len() * pos.cells().len(), WEIGH);
        self.planed = true;
    }

    /// `planes` and `ask` from the weights of the cells one by one (see [`weigh`]).
    fn plane_by_cells(&mut self, rules: &Ruleset, pos: &Position) {
        if !self.weighed {
            weigh(rules, pos, &mut self.weights);
            self.weighed = true;
        }
        for (i, &w) in self.weights.iter().enumerate() {
            let c = Cell::new(i);
            if w == WEIGH {
                self.ask.insert(c);
                continue;
            }
            let bits = (u8::BITS - w.leading_zeros()) as usize;
            if self.planes.len() < bits {
                self.planes.resize(bits, Wide::EMPTY);
            }
            for (k, plane) in self.planes.iter_mut().enumerate() {
                if w >> k & 1 != 0 {
                    plane.insert(c);
                }
            }
        }
    }

    /// `planes` and `ask` as [`Core::plane_by_cells`] finds them, from the cell sets of the
    /// range board (filled) instead of a pass over the cells: an empty cell weighs the stone
    /// kinds in hand allowed there, added up set by set (a carry per bit); a stone, the kinds
    /// in hand that explode it; an enemy piece is asked. False (nothing done) where the
    /// occupants' filter bits do not tell those apart (neutral pieces, more than 32 piece or
    /// 62 stone kinds).
    fn plane_in_sets(&mut self, rules: &Ruleset, pos: &Position) -> bool {
        use crate::core::filter::{EMPTY_BIT, ENEMY0, STONE0};
        let kinds = rules.stones.len();
        if rules.neutral.is_some() || rules.pieces.len() > 32 || kinds > 62 {
            return false;
        }
        let side = pos.side;
        let board = &self.range_board;
        let empty = board.of_bit(EMPTY_BIT);
        let allowed = &rules.allowed()[side.index() * kinds..(side.index() + 1) * kinds];
        for (k, cells) in allowed.iter().enumerate() {
            if self.hand >> k & 1 == 0 {
                continue;
            }
            // Adds one to the weight of every cell of `carry`.
            let mut carry = Wide::from_words(cells.words()) & empty;
            for plane in &mut self.planes {
                let sum = Wide([
                    plane.0[0] ^ carry.0[0],
                    plane.0[1] ^ carry.0[1],
                    plane.0[2] ^ carry.0[2],
                    plane.0[3] ^ carry.0[3],
                ]);
                carry &= *plane;
                *plane = sum;
            }
            if !carry.is_empty() {
                self.planes.push(carry);
            }
        }
        if let Some(t) = pos.taboo {
            for plane in &mut self.planes {
                plane.remove(t);
            }
        }
        if rules.turn.explosions > 0 {
            for (s2, bit) in (STONE0..).take(kinds).enumerate() {
                let cells = board.of_bit(bit);
                if cells.is_empty() {
                    continue;
                }
                let w = stone_weight(rules, pos, StoneKindId::new(s2));
                let bits = (usize::BITS - w.leading_zeros()) as usize;
                if self.planes.len() < bits {
                    self.planes.resize(bits, Wide::EMPTY);
                }
                for (k, plane) in self.planes.iter_mut().enumerate() {
                    if w >> k & 1 != 0 {
                        *plane |= cells;
                    }
                }
            }
        }
        for bit in (ENEMY0..).take(rules.pieces.len()) {
            self.ask |= board.of_bit(bit);
        }
        // Planes above the heaviest cell's weight stay empty: drop them (as the cell pass).
        while self.planes.last().is_some_and(|p| p.is_empty()) {
            self.planes.pop();
        }
        true
    }

    /// Fills `groups`, `open` and `stony` for `pos` (see their fields), from `planes` and the
    /// range board (filled).
    fn group(&mut self, rules: &Ruleset, pos: &Position) {
        let side = pos.side;
        let weighed = self.planes.iter().fold(Wide::EMPTY, |m, &p| m | p);
        let empty = self.range_board.empty();
        self.open = weighed & empty;
        self.stony = weighed.without(empty);
        self.groups.clear();
        let kinds = rules.stones.len();
        let allowed = rules.allowed();
        for (k, &n) in pos.supplies[side].iter().enumerate() {
            if n > 0
                && let Some(cells) = allowed.get(side.index() * kinds + k)
            {
                let set = self.open & Wide::from_words(cells.words());
                if !set.is_empty() {
                    self.groups
                        .push((group_of(StoneKindId::new(k), PlaceEffect::Stone), set));
                }
            }
        }
    }

    /// The kinds the piece of kind `kind` moving from `from` by `step` may stand as after the
    /// move: `None` for staying itself, `Some(k)` for each change of kind an event sets off
    /// (reaching a region, capturing a kind, giving check) that the reserve can supply. A
    /// compulsory change that can happen excludes staying.
    fn kind_choices(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        kind: PieceKindId,
        step: &Step<'_>,
        out: &mut Vec<Option<PieceKindId>>,
    ) {
        out.clear();
        let side = pos.side;
        let (mut must, mut blocked) = (false, false);
        for ch in &rules.pieces[kind.index()].changes {
            let fires = match fires_unplayed(rules, pos, &ch.on, from, step.to, step.captures) {
                Some(f) => f,
                None => self.gives_check(rules, pos, from, step),
            };
            if !fires {
                continue;
            }
            let mut any = false;
            for &k in &ch.to {
                if rules.can_draw(pos, side, k) {
                    any = true;
                    if !out.contains(&Some(k)) {
                        out.push(Some(k));
                    }
                }
            }
            must |= any && !ch.optional;
            blocked |= !any && !ch.optional && ch.no_move_when_unavailable;
        }
        // A compulsory change that cannot happen and forbids the move (`unavailable =
        // "no-move"`): no choice at all, unless another change offers a kind.
        if blocked && out.is_empty() {
            return;
        }
        if !must {
            out.insert(0, None);
        }
    }

    /// Whether the piece moving from `from` by `step` attacks an enemy royal piece from its
    /// destination once it has moved (as the kind it was).
    fn gives_check(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        step: &Step<'_>,
    ) -> bool {
        let mut scratch = self.take_scratch();
        (*scratch).clone_from(pos);
        let view = TurnView::movement(from, step.to, step.captures, step.dest);
        move_pieces(rules, &mut scratch, &view, &mut ());
        let enemy = pos.side.opponent();
        let mut hit = false;
        for c in rules.topo.cells() {
            if matches!(scratch.at(c).as_piece(), Some((s, k)) if s == enemy && rules.is_royal(k))
                && self.vm.captures_cell(rules, &scratch, step.to, c)
            {
                hit = true;
                break;
            }
        }
        self.scratch = Some(scratch);
        hit
    }

    /// Stone actions of the piece (kind `kind`) in `pos`, over `self.range`, after `base`:
    /// its movement (played on `pos`), or the piece staying where it stands.
    fn actions(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        kind: PieceKindId,
        base: TurnView<'_>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let side = pos.side;
        let piece = &rules.pieces[kind.index()];
        if self.count_only && 2 * rules.stones.len() <= GROUPS {
            return self.count_actions(rules, pos, kind, None);
        }
        self.singles.clear();
        self.removals.clear();
        if piece.stones_per_turn > 0 {
            let singles = &mut self.singles;
            for &cell in &self.range {
                placements(rules, pos, side, kind, cell, |k, e| {
                    singles.push((k, cell, e == PlaceEffect::Explode));
                });
            }
        }
        if !piece.removes.is_empty() {
            for &cell in &self.range {
                if pos
                    .at(cell)
                    .as_stone()
                    .is_some_and(|s| piece.removes.contains(&s))
                {
                    self.removals.push(cell);
                }
            }
        }
        let mut n = 0;
        for &(k, c, _) in &self.singles {
            f(&base.then_placing(&[(k, c)]));
            n += 1;
        }
        if piece.stones_per_turn >= 2 && self.count_only {
            n += pair_count(
                &self.singles,
                &pos.supplies[side],
                rules.turn.explosions,
                rules.stones.len(),
            );
        } else if piece.stones_per_turn >= 2 {
            let singles = &self.singles;
            for i in 0..singles.len() {
                for j in i + 1..singles.len() {
                    let (a, b) = (singles[i], singles[j]);
                    // Two different cells (B-45); a kind twice needs two in supply; no more
                    // explosions than `[turn] explosions` allows.
                    if a.1 == b.1
                        || (a.0 == b.0 && pos.supplies[side][a.0.index()] < 2)
                        || u32::from(a.2) + u32::from(b.2) > rules.turn.explosions
                    {
                        continue;
                    }
                    f(&base.then_placing(&[(a.0, a.1), (b.0, b.1)]));
                    n += 1;
                }
            }
        }
        for &c in &self.removals {
            f(&base.then_removing(c));
            n += 1;
        }
        n
    }
}

impl Core {
    /// The number of stone actions [`Core::actions`] would report, counted without listing
    /// them: an empty cell's stones read from the placement mask, other cells asked of the
    /// placement rule, pairs by [`StoneCount`].
    ///
    /// `vacated`: a cell to read as empty (the piece has just left it; the move is not played
    /// on `pos`).
    fn count_actions(
        &self,
        rules: &Ruleset,
        pos: &Position,
        kind: PieceKindId,
        vacated: Option<Cell>,
    ) -> usize {
        let side = pos.side;
        let piece = &rules.pieces[kind.index()];
        let supply = &pos.supplies[side];
        let mut count = StoneCount::new(supply, rules.turn.explosions);
        if piece.stones_per_turn > 0 {
            let in_supply = in_supply(pos);
            let pairs = piece.stones_per_turn >= 2;
            for &cell in &self.range {
                if (vacated == Some(cell) || pos.at(cell).is_empty())
                    && pos.taboo != Some(cell)
                    && let Some(allowed) = rules.allowed_mask(side, cell)
                {
                    if pairs {
                        count.add_empty(allowed & in_supply);
                    } else {
                        count.singles += (allowed & in_supply).count_ones() as usize;
                    }
                    continue;
                }
                if vacated == Some(cell) {
                    // Empty, but closed to stones this turn.
                    continue;
                }
                count.ask(rules, pos, kind, cell);
            }
        }
        let mut n = count.singles;
        if piece.stones_per_turn >= 2 {
            n += count.pairs();
        }
        if !piece.removes.is_empty() {
            n += self
                .range
                .iter()
                .filter(|&&c| {
                    pos.at(c)
                        .as_stone()
                        .is_some_and(|s| piece.removes.contains(&s))
                })
                .count();
        }
        n
    }
}

/// A cell's weight that says: ask the placement rule (see [`Core::weights`]).
const WEIGH: u8 = u8::MAX;

/// The single stones the side to move may place on each cell of `pos` (what
/// [`placements`] finds, counted), or [`WEIGH`] where that depends on the placing piece (an
/// enemy piece, which some stones capture).
fn weigh(rules: &Ruleset, pos: &Position, out: &mut Vec<u8>) {
    let side = pos.side;
    let hand = in_supply(pos);
    out.clear();
    out.extend(rules.topo.cells().map(|c| {
        let occ = pos.at(c);
        if occ.is_empty() {
            empty_weight(rules, pos, c, hand)
        } else if let Some(s2) = occ.as_stone() {
            u8::try_from(stone_weight(rules, pos, s2)).unwrap_or(WEIGH)
        } else {
            match occ.as_piece() {
                Some((s, _)) if s != side => WEIGH,
                _ => 0,
            }
        }
    }));
}

/// The stone kinds the side to move has in hand, as a mask (the first 64).
fn in_supply(pos: &Position) -> u64 {
    pos.supplies[pos.side]
        .iter()
        .take(64)
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .fold(0u64, |m, (k, _)| m | 1 << k)
}

/// The single stones the side to move may place on a stone of kind `s2`: the kinds in hand
/// that explode it (none where no explosion is allowed).
fn stone_weight(rules: &Ruleset, pos: &Position, s2: StoneKindId) -> usize {
    if rules.turn.explosions == 0 {
        return 0;
    }
    let supply = &pos.supplies[pos.side];
    (0..rules.stones.len())
        .filter(|&k| supply[k] > 0 && rules.stones[k].explodes.contains(&s2))
        .count()
}

/// The stones the side to move may place on `c` were it empty, with `in_supply` the kinds it
/// has in hand (see [`in_supply`]).
fn empty_weight(rules: &Ruleset, pos: &Position, c: Cell, in_supply: u64) -> u8 {
    let side = pos.side;
    if pos.taboo == Some(c) {
        return 0;
    }
    let Some(allowed) = rules.allowed_mask(side, c) else {
        return WEIGH;
    };
    u8::try_from((allowed & in_supply).count_ones()).unwrap_or(WEIGH)
}

/// Groups of single placements (stone kind and whether it explodes, `2 * kind + explodes`)
/// that [`StoneCount`] counts by formula.
const GROUPS: usize = 16;

/// The group of a single placement of stone kind `k` doing `e`: `2 * kind + explodes`.
#[inline]
fn group_of(k: StoneKindId, e: PlaceEffect) -> u8 {
    // At most 8 kinds where groups are counted (`2 * kinds <= GROUPS`): it fits a byte.
    #[allow(clippy::cast_possible_truncation)]
    let g = (2 * k.index() + usize::from(e == PlaceEffect::Explode)) as u8;
    g
}

/// The one- and two-stone turns of a piece, counted cell by cell without listing them: the
/// singles of each cell are added by their group; the pairs are the products of the group
/// sizes (two different cells; a kind twice only with two in supply; no more explosions than
/// `[turn] explosions`: the rule the listing in [`Core::actions`] applies) less the pairs of
/// one cell, which the products include.
struct StoneCount<'a> {
    supply: &'a [u32],
    explosions: u32,
    size: [u32; GROUPS],
    singles: usize,
    same_cell: usize,
}

impl<'a> StoneCount<'a> {
    fn new(supply: &'a [u32], explosions: u32) -> Self {
        StoneCount {
            supply,
            explosions,
            size: [0; GROUPS],
            singles: 0,
            same_cell: 0,
        }
    }

    /// Whether a single of group `a` and one of group `b` on different cells make a turn.
    #[inline]
    fn valid(&self, a: usize, b: usize) -> bool {
        let (ka, kb) = (a / 2, b / 2);
        (ka != kb || self.supply[ka] >= 2) && (a % 2 + b % 2) as u32 <= self.explosions
    }

    /// The singles of one cell, by group.
    fn add_cell(&mut self, groups: &[u8]) {
        self.singles += groups.len();
        for (i, &a) in groups.iter().enumerate() {
            self.size[usize::from(a)] += 1;
            for &b in &groups[i + 1..] {
                if self.valid(usize::from(a), usize::from(b)) {
                    self.same_cell += 1;
                }
            }
        }
    }

    /// The singles of an empty cell: a stone of each kind in `kinds`, none exploding (any two
    /// of them are different kinds, so every pair of them counts).
    #[inline]
    fn add_empty(&mut self, mut kinds: u64) {
        if kinds == 0 {
            return;
        }
        let n = kinds.count_ones() as usize;
        self.singles += n;
        self.same_cell += n * (n - 1) / 2;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            self.size[2 * k] += 1;
            kinds &= kinds - 1;
        }
    }

    /// Adds the singles of `cell` for a piece of kind `kind` of the side to move, asked of
    /// the placement rules one by one.
    fn ask(&mut self, rules: &Ruleset, pos: &Position, kind: PieceKindId, cell: Cell) {
        let mut groups = [0u8; GROUPS];
        let mut n = 0;
        placements(rules, pos, pos.side, kind, cell, |k, e| {
            groups[n] = group_of(k, e);
            n += 1;
        });
        self.add_cell(&groups[..n]);
    }

    /// The pairs of singles on different cells that make a two-stone turn.
    fn pairs(&self) -> usize {
        // The groups with singles, as a mask: only their pairs are looked at.
        let present = (0..GROUPS).fold(0u32, |m, g| m | u32::from(self.size[g] != 0) << g);
        let mut n = 0usize;
        let mut left = present;
        while left != 0 {
            let a = left.trailing_zeros() as usize;
            left &= left - 1;
            let sa = self.size[a] as usize;
            if self.valid(a, a) {
                n += sa * (sa - 1) / 2;
            }
            let mut later = left;
            while later != 0 {
                let b = later.trailing_zeros() as usize;
                later &= later - 1;
                if self.valid(a, b) {
                    n += sa * self.size[b] as usize;
                }
            }
        }
        n - self.same_cell
    }
}

/// The number of pairs of single placements that make a two-stone turn, by [`StoneCount`].
/// The singles of one cell are adjacent (they are listed cell by cell).
fn pair_count(
    singles: &[(StoneKindId, Cell, bool)],
    supply: &[u32],
    explosions: u32,
    kinds: usize,
) -> usize {
    if 2 * kinds > GROUPS {
        return pair_count_slow(singles, supply, explosions);
    }
    let mut count = StoneCount::new(supply, explosions);
    let mut groups = [0u8; GROUPS];
    let mut i = 0;
    while i < singles.len() {
        let mut j = i;
        while j < singles.len() && singles[j].1 == singles[i].1 {
            // At most `GROUPS` (16) groups: the index fits a byte.
            #[allow(clippy::cast_possible_truncation)]
            let g = (2 * singles[j].0.index() + usize::from(singles[j].2)) as u8;
            groups[j - i] = g;
            j += 1;
        }
        count.add_cell(&groups[..j - i]);
        i = j;
    }
    count.pairs()
}

/// The same count by enumerating the pairs.
fn pair_count_slow(
    singles: &[(StoneKindId, Cell, bool)],
    supply: &[u32],
    explosions: u32,
) -> usize {
    let mut n = 0;
    for i in 0..singles.len() {
        for j in i + 1..singles.len() {
            let (a, b) = (singles[i], singles[j]);
            if a.1 != b.1
                && (a.0 != b.0 || supply[a.0.index()] >= 2)
                && u32::from(a.2) + u32::from(b.2) <= explosions
            {
                n += 1;
            }
        }
    }
    n
}

impl Generator {
    /// Puts the generator's machines under `stop` (or under none): see [`crate::vm::Stop`].
    pub fn set_stop(&mut self, stop: Option<std::sync::Arc<crate::vm::Stop>>) {
        self.core.vm.set_stop(stop.clone());
        self.check.vm.set_stop(stop);
    }

    /// The stop the generator works under, if any.
    pub fn stop(&self) -> Option<&std::sync::Arc<crate::vm::Stop>> {
        self.core.vm.stop()
    }

    /// The number of legal turns, or the outcome when there is none: the same as
    /// [`Generator::turns`] with a callback that only counts, but where every turn by the rules
    /// of movement is legal (no royal pieces) and no priority filters turns, pairs of stones
    /// are counted by formula.
    pub fn count(&mut self, rules: &Ruleset, pos: &Position) -> Result<usize, Outcome> {
        let t = &rules.turn;
        let unfiltered = !(t.capture_compulsory || t.most_captures);
        self.core.count_only = unfiltered && !rules.has_royals();
        self.core.counting = unfiltered && !self.exhaustive;
        // Counted, the options of a run may come in any order.
        self.core
            .vm
            .set_any_order(self.core.counting || self.core.any_order);
        let r = self.turns(rules, pos, |_| {});
        self.core.vm.set_any_order(self.core.any_order);
        self.core.count_only = false;
        self.core.counting = false;
        r
    }

    /// The legal turns that capture or change a piece's kind: the turns of
    /// [`Generator::turns`] filtered (perhaps in another order), the others neither generated,
    /// where the rules allow it, nor tested. Returns their number and whether some other
    /// turn was found legal: with none of either, whether the game is over is not decided
    /// (ask [`Generator::turns`]).
    pub fn loud_turns(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        mut f: impl FnMut(&TurnView<'_>),
    ) -> Result<(usize, bool), Outcome> {
        self.core.loud_only = true;
        self.core.quiet_legal = false;
        let mut n = 0;
        // Where no test filters turns (no royal pieces, a goal's answer), a quiet turn
        // reported is legal.
        let mut quiet = false;
        let r = self.turns(rules, pos, |t| {
            if t.is_loud() {
                f(t);
                n += 1;
            } else {
                quiet = true;
            }
        });
        self.core.loud_only = false;
        self.core.quiet_sure = None;
        r.map(|_| (n, quiet || self.core.quiet_legal))
    }

    /// Whether [`Generator::turns`] may report the turns in any order (perft, which only
    /// counts them): plain pieces' moves then come from their cell-set landings, in the cell
    /// order of their destinations, and chains that repeat one leg from the cells they reach
    /// ([`crate::vm::Machine::set_any_order`]). The same turns either way.
    pub fn set_any_order(&mut self, on: bool) {
        self.core.any_order = on;
        self.core.vm.set_any_order(on);
    }

    /// The legal turns that neither capture nor change a piece's kind: the turns of
    /// [`Generator::turns`] filtered, the others not tested. No turn is no end of the game
    /// (the game may go on by a capture): ask [`Generator::loud_turns`] first.
    pub fn quiet_turns(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        mut f: impl FnMut(&TurnView<'_>),
    ) -> Result<usize, Outcome> {
        if every_turn_decides(rules, pos) {
            let mut n = 0;
            self.turns(rules, pos, |v| {
                if !v.is_loud() {
                    f(v);
                    n += 1;
                }
            })?;
            return Ok(n);
        }
        self.core.quiet_only = true;
        let r = self.turns_unfiltered(rules, pos, f);
        self.core.quiet_only = false;
        r
    }

    /// The legal turns of the side to move's piece on `cell` (moves, captures, changes of kind,
    /// stones after a move, stones placed without moving; not castlings, drops, neutral pieces'
    /// turns or a pass), each a turn [`Generator::turns`] reports. `None` where that cannot be
    /// told without every turn: the game is over (or may be: the clock's limit, a goal to
    /// answer), or a priority between turns (`[turn] compulsory`, `most-captures`) decides
    /// which turns are legal.
    pub fn turns_of(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        cell: Cell,
        f: impl FnMut(&TurnView<'_>),
    ) -> Option<usize> {
        if every_turn_decides(rules, pos) {
            return None;
        }
        self.core.only = Some(cell);
        let r = self.turns_unfiltered(rules, pos, f);
        self.core.only = None;
        r.ok()
    }

    /// The runaway a generation ran into, if any: every generation after it is incomplete
    /// (see [`crate::vm::Runaway`]).
    pub fn runaway(&self) -> Option<crate::vm::Runaway> {
        self.core.vm.runaway().or(self.check.vm.runaway())
    }

    /// Whether `cell` is attacked by `by` in `pos`: some piece of `by` has a movement option
    /// that captures on it (an empty cell is tested with a stand-in enemy piece on it).
    pub fn attacked(&mut self, rules: &Ruleset, pos: &Position, cell: Cell, by: Side) -> bool {
        self.check.attacked(rules, pos, cell, by)
    }

    /// Whether no royal piece of `side` is attacked in `pos`. The enemy pieces are found
    /// once and each asked forwards through the reach table; neutral pieces that give check,
    /// and the reference, take the general route.
    pub fn royals_safe(&mut self, rules: &Ruleset, pos: &Position, side: Side) -> bool {
        if self.exhaustive || rules.neutral.as_ref().is_some_and(|n| n.gives_check) {
            return self.check.royals_safe(rules, pos, side);
        }
        if side == pos.side {
            // The side to move's: the census finds its royal pieces and the enemy's.
            self.census(rules, pos, true);
            let Generator {
                check,
                royals,
                foes,
                census_sets,
                foe_sets,
                known_check,
                ..
            } = self;
            let (_, foes) = rosters(&[], foes, *census_sets);
            let foes = Among::foes(foes, foe_sets);
            let in_check =
                *known_check.get_or_insert_with(|| royal_attacked(check, rules, pos, royals, foes));
            return !in_check;
        }
        let mut enemies = std::mem::take(&mut self.enemies);
        enemies.clear();
        enemies.extend(
            rules
                .topo
                .cells()
                .filter(|&c| matches!(pos.at(c).as_piece(), Some((s, _)) if s != side)),
        );
        let safe = self
            .check
            .royals_safe_among(rules, pos, side, Among::cells(&enemies));
        self.enemies = enemies;
        safe
    }

    /// Calls `f` for every legal turn of the side to move, unless the game is over. Returns
    /// the number of turns, or the outcome when the side to move has no turn.
    pub fn turns(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        f: impl FnMut(&TurnView<'_>),
    ) -> Result<usize, Outcome> {
        // The clock's limit ends the game, unless the turn that reached it ended it already
        // (checkmate, stalemate, a goal).
        if let Some((limit, verdict)) = rules.clock.limit
            && pos.halfmove >= limit
        {
            // Whether any turn is left decides between the clock and a checkmate.
            let loud = std::mem::take(&mut self.core.loud_only);
            let any = self.turns_prioritised(rules, pos, |_| {});
            self.core.loud_only = loud;
            any?;
            return Err(Outcome {
                winner: match verdict {
                    EndVerdict::MoverLoses => Some(pos.side),
                    EndVerdict::Draw | EndVerdict::Illegal => None,
                },
                reason: Reason::Clock(limit),
            });
        }
        if let Some((i, k)) = answer_pending(rules, pos) {
            let won = Outcome {
                winner: Some(pos.side.opponent()),
                reason: Reason::Occupied(i, k),
            };
            return self.answer(rules, pos, won, f);
        }
        self.turns_prioritised(rules, pos, f)
    }

    /// The answer to the first side's arrival in a goal (`[end] goal-answer`): every turn of
    /// the side to move when one of them reaches a goal too (the game goes on for one turn);
    /// else `won`, the first side's win.
    fn answer(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        won: Outcome,
        mut f: impl FnMut(&TurnView<'_>),
    ) -> Result<usize, Outcome> {
        // Every turn is listed (none only counted, none left out), then looked at.
        let asked = (
            self.core.count_only,
            self.core.counting,
            self.core.loud_only,
        );
        (
            self.core.count_only,
            self.core.counting,
            self.core.loud_only,
        ) = (false, false, false);
        let mut turns = Vec::new();
        let listed = self.turns_prioritised(rules, pos, |t| turns.push(t.to_turn()));
        (
            self.core.count_only,
            self.core.counting,
            self.core.loud_only,
        ) = asked;
        if listed.is_err() {
            return Err(won);
        }
        let mut after = pos.clone();
        let mut undo = Undo::default();
        let reaches = turns.iter().any(|t| {
            make_turn(rules, &mut after, &t.view(), &mut undo, |_, _, _| {});
            let reached = reached_goal(rules, &after, pos.side).is_some();
            unmake(&mut after, &undo);
            reached
        });
        if !reaches {
            return Err(won);
        }
        for t in &turns {
            f(&t.view());
        }
        Ok(turns.len())
    }

    /// Every legal turn, with the priorities between turns (`[turn] compulsory`,
    /// `most-captures`) applied.
    fn turns_prioritised(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        mut f: impl FnMut(&TurnView<'_>),
    ) -> Result<usize, Outcome> {
        let t = &rules.turn;
        if !(t.capture_compulsory || t.most_captures) {
            return self.turns_unfiltered(rules, pos, f);
        }
        // Priorities: a first pass finds the most pieces a turn captures; the second reports
        // the turns that priority allows.
        let mut best = 0usize;
        self.turns_unfiltered(rules, pos, |v| best = best.max(v.captures().len()))?;
        let allowed = |captured: usize| {
            let enough = !t.most_captures || captured == 0 || captured == best;
            let forced = !t.capture_compulsory || best == 0 || captured > 0;
            enough && forced
        };
        let mut n = 0;
        self.turns_unfiltered(rules, pos, |v| {
            if allowed(v.captures().len()) {
                f(v);
                n += 1;
            }
        })?;
        Ok(n)
    }

    /// One pass over the board: the cells of the side to move's pieces (`own`), its royal
    /// pieces (`royals`), the enemy pieces (`foes`, tested forwards for attacks on the royal
    /// pieces), the first and last as cell sets (`census_sets`) instead of lists where the
    /// position keeps its pieces' sets; which enemy kinds are present and which sides have a
    /// royal piece.
    /// With `keep`, the census is kept for the next call (which then reuses it if asked of
    /// the same position, and keeps it no further): [`Generator::royals_safe`] keeps it for
    /// the turns asked next. A census not kept costs no copy and no comparison after it.
    fn census(&mut self, rules: &Ruleset, pos: &Position, keep: bool) -> Census {
        let side = pos.side;
        if let Some(kept @ (id, s, census)) = self.counted.take()
            && id == rules.identity.get()
            && s == side
            && self.counted_cells == pos.cells()
        {
            if keep {
                self.counted = Some(kept);
            }
            return census;
        }
        let census = self.take_census(rules, pos);
        self.known_check = None;
        if keep {
            self.counted = Some((rules.identity.get(), side, census));
            self.counted_cells.clear();
            self.counted_cells.extend_from_slice(pos.cells());
        }
        census
    }

    /// [`Generator::census`] taken: read from the position's cell sets where it has them,
    /// else by a pass over the board.
    fn take_census(&mut self, rules: &Ruleset, pos: &Position) -> Census {
        if pos.has_piece_sets() {
            self.census_from_sets(rules, pos)
        } else {
            self.census_by_scan(rules, pos)
        }
    }

    /// [`Generator::take_census`] from the position's cell sets per piece slot: the lists in
    /// cell order, as the pass over the board gives them.
    fn census_from_sets(&mut self, rules: &Ruleset, pos: &Position) -> Census {
        // A word at a time: cheaper than the same on the whole 128 bits.
        #[allow(clippy::cast_possible_truncation)] // the two halves of the set
        fn list(to: &mut Vec<Cell>, set: u128) {
            to.clear();
            for (base, mut word) in [(0, set as u64), (64, (set >> 64) as u64)] {
                while word != 0 {
                    to.push(Cell::new(base + word.trailing_zeros() as usize));
                    word &= word - 1;
                }
            }
        }
        let (me, them) = (pos.side.index(), pos.side.opponent().index());
        let set = |lo: u64, hi: u64| u128::from(lo) | u128::from(hi) << 64;
        // A word at a time, four per kind: White's two, then Black's.
        let words = pos.kind_words();
        let (mut sides, mut enemy_kinds) = ([0u64; 4], 0u64);
        for (k, w) in words.chunks_exact(4).enumerate() {
            sides = [
                sides[0] | w[0],
                sides[1] | w[1],
                sides[2] | w[2],
                sides[3] | w[3],
            ];
            // Kinds are fewer than 32.
            enemy_kinds |= u64::from(w[2 * them] | w[2 * them + 1] != 0) << k;
        }
        let sides = [set(sides[0], sides[1]), set(sides[2], sides[3])];
        let mut royal = [0u128; 2];
        let mut royals = rules.royal_kinds();
        while royals != 0 {
            let k = royals.trailing_zeros() as usize;
            royals &= royals - 1;
            royal = [
                royal[0] | pos.piece_set(2 * k),
                royal[1] | pos.piece_set(2 * k + 1),
            ];
        }
        let sets = &mut self.foe_sets;
        sets.clear();
        if rules.attack_reach().from_set_row(Cell::new(0)).is_some() {
            let theirs = |w: &[u64]| set(w[2 * them], w[2 * them + 1]);
            sets.extend(words.chunks_exact(4).map(theirs));
            sets.resize(rules.pieces.len(), 0);
        }
        list(&mut self.royals, royal[me]);
        self.census_sets = Some((sides[me], sides[them]));
        Census {
            royal_sides: BySide::new(royal[0] != 0, royal[1] != 0),
            pieces: BySide::new(sides[0] != 0, sides[1] != 0),
            enemy_kinds,
        }
    }

    /// [`Generator::take_census`] by a pass over the board.
    fn census_by_scan(&mut self, rules: &Ruleset, pos: &Position) -> Census {
        let side = pos.side;
        self.census_sets = None;
        self.own.clear();
        self.royals.clear();
        self.foes.clear();
        let mut census = Census {
            royal_sides: BySide::new(false, false),
            pieces: BySide::new(false, false),
            enemy_kinds: 0,
        };
        // Without branches on what stands where: every cell is written to each list, and the
        // list grows by one where the cell belongs to it.
        let n = pos.cells().len();
        let (own, royals, foes) = (&mut self.own, &mut self.royals, &mut self.foes);
        own.resize(n, Cell::new(0));
        royals.resize(n, Cell::new(0));
        foes.resize(n, Cell::new(0));
        let (mine, theirs) = match side {
            Side::White => (PIECE_WHITE, PIECE_BLACK),
            Side::Black => (PIECE_BLACK, PIECE_WHITE),
        };
        let (mut n_own, mut n_royals, mut n_foes) = (0, 0, 0);
        let mut seen = 0u8;
        let mut royal_seen = 0u8;
        let mut add = |i: usize, o: Occupant| {
            let class = rules.piece_class()[usize::from(o.code())];
            let c = Cell::new(i);
            seen |= class;
            royal_seen |= if class & PIECE_ROYAL != 0 { class } else { 0 };
            own[n_own] = c;
            n_own += usize::from(class & mine != 0);
            royals[n_royals] = c;
            n_royals += usize::from(class & (mine | PIECE_ROYAL) == mine | PIECE_ROYAL);
            foes[n_foes] = c;
            n_foes += usize::from(class & theirs != 0);
        };
        crate::core::each_filled(pos.cells(), &mut add);
        own.truncate(n_own);
        royals.truncate(n_royals);
        foes.truncate(n_foes);
        // Each enemy kind's cells as a set, where the reach table has cell sets.
        let sets = &mut self.foe_sets;
        sets.clear();
        if rules.attack_reach().from_set_row(Cell::new(0)).is_some() {
            sets.resize(rules.pieces.len(), 0);
        }
        for &c in foes.iter() {
            if let Some((_, k)) = pos.at(c).as_piece() {
                // Kinds are fewer than 32.
                census.enemy_kinds |= 1 << k.index();
                if let Some(set) = sets.get_mut(k.index()) {
                    *set |= bits::bit(c);
                }
            }
        }
        let by = |bits: u8| BySide::new(bits & PIECE_WHITE != 0, bits & PIECE_BLACK != 0);
        census.royal_sides = by(royal_seen);
        census.pieces = by(seen);
        census
    }

    /// Every legal turn, before any priority between turns.
    fn turns_unfiltered(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        mut f: impl FnMut(&TurnView<'_>),
    ) -> Result<usize, Outcome> {
        // One piece's turns, or the loud turns, are asked before the others (a search's
        // stages): the census is kept for them.
        let census = self.census(rules, pos, self.core.only.is_some() || self.core.loud_only);
        if let Some(o) = static_outcome_given(rules, pos, census.royal_sides, census.pieces) {
            return Err(o);
        }
        if rules.has_royals() {
            self.turns_keeping_royals_safe(rules, pos, census, &mut f)
        } else {
            self.turns_without_royals(rules, pos, &mut f)
        }
    }

    /// The turns of a game with royal pieces: the pseudo-legal turns that leave the mover's
    /// royal pieces unattacked ([`Safety`]), out of check the quiet ones without a test.
    fn turns_keeping_royals_safe(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        census: Census,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> Result<usize, Outcome> {
        let side = pos.side;
        let Generator {
            core,
            check,
            after,
            undo,
            sensitive,
            exhaustive,
            royals,
            foes,
            own,
            census_sets,
            given,
            counted_giving,
            their_royals,
            foe_sets,
            known_check,
            ..
        } = self;
        let (own, foes) = rosters(own, foes, *census_sets);
        let among = Among::foes(foes, foe_sets);
        let in_check =
            *known_check.get_or_insert_with(|| royal_attacked(check, rules, pos, royals, among));
        // Neutral pieces that give check are found only by the general test: every turn is
        // played and tested (the shortcuts know only the sides' own pieces).
        let reference = *exhaustive || rules.neutral.as_ref().is_some_and(|n| n.gives_check);
        // Turns that may not give check (`giving-check = "forbidden"`): spared or counted
        // unseen by the sets towards the enemy's royal pieces too, or played and those tested.
        let no_giving_check = rules.turn.no_giving_check;
        // Royal pieces facing (`[end] royals-facing`): a pass is a turn even in check, and
        // every other turn must end the facing (tested on each).
        let facing = rules
            .end
            .facing
            .as_ref()
            .filter(|fc| royals_face(rules, pos, side, fc));
        let bounded = !in_check
            && !reference
            && facing.is_none()
            && sensitive.compute(rules, pos, side, royals, census.enemy_kinds, false);
        // In check, a turn that leaves every attack on the royal pieces standing is illegal:
        // it is not played (an exploding capture changes more than its cells; royal pieces
        // facing are tested on every turn).
        let evading = in_check
            && !reference
            && facing.is_none()
            && rules.blast.is_none()
            && sensitive.compute_evasions(rules, pos, side, royals, census.enemy_kinds);
        // Out of any check on the enemy, a movement that leaves the cells towards its royal
        // pieces alone, by a piece that cannot capture on them from its destination, gives no
        // check: that test is spared. (An exploding capture changes more than its cells.)
        let check_free = no_giving_check
            && !reference
            && rules.blast.is_none()
            && given.compute_giving(rules, pos, check, their_royals, own, foes);
        // Counting only: the turns that the sensitive cells declare legal are counted unseen;
        // where giving check is forbidden, only those that cannot give check either.
        let quiet = match (bounded && core.counting, no_giving_check) {
            (false, _) => None,
            (true, false) => Some(&*sensitive),
            (true, true) => (check_free
                && counted_giving.merge_giving(rules, side, (sensitive, given), their_royals))
            .then_some(&*counted_giving),
        };
        let mut safety = Safety::new((check, after, undo), royals, among, own, reference);
        safety.enemy_kinds = census.enemy_kinds;
        if let [r] = royals[..] {
            safety.royal_kind = pos.at(r).as_piece().map(|(_, k)| k);
        }
        let mut n = 0;
        // The reference tests every cell of a castling.
        let known_check = (!reference).then_some(in_check);
        let loud_only = core.loud_only;
        let plain = core.vm.plain_allowed();
        // Loud turns only: whether a quiet turn is legal (tested until one is, or in sets).
        let mut quiet_legal = false;
        let quiet_only = core.quiet_only;
        core.quiet_sure = (loud_only && bounded && !no_giving_check).then(|| sensitive.sets());
        core.royal_sure = royal_sure(rules, side, quiet.is_some(), &safety);
        // Where giving check is forbidden, `quiet` is there only with the sets for it.
        core.royal_giving = no_giving_check.then(|| given.sets());
        core.pseudo(rules, pos, own, among, known_check, quiet, &mut |t| {
            let quiet_one = loud_only && !t.is_loud();
            // Asking for quiet turns only, the others are passed over untested.
            if (quiet_one && quiet_legal) || (quiet_only && t.is_loud()) {
                return;
            }
            let untested = bounded && sensitive.cannot_expose(rules, pos, t);
            let legal = match facing {
                Some(_) if t.is_pass() => true,
                Some(fc) => safety
                    .keeps_royals_safe(rules, pos, t, |after| !royals_face(rules, after, side, fc)),
                None if untested && !no_giving_check => true,
                None => {
                    // `giving-check = "forbidden"`: whether the turn gives check, where that is
                    // answered without playing it. A turn that cannot expose the mover's royal
                    // pieces is then decided; any other is played for their sake only.
                    let gives = check_free
                        .then(|| given.gives_check_unplayed(rules, pos, their_royals, t, plain))
                        .flatten();
                    match gives {
                        Some(true) => false,
                        Some(false) if untested => true,
                        _ => safety.judge(rules, pos, t, gives, evading.then_some(sensitive)),
                    }
                }
            };
            if quiet_one {
                quiet_legal |= legal;
            } else if legal {
                f(t);
                n += 1;
            }
        });
        core.quiet_legal |= quiet_legal;
        n += core.quiet_counted;
        if n == 0 && !loud_only && !quiet_only && core.only.is_none() {
            let in_check = !self.check.royals_safe(rules, pos, side);
            return Err(no_turn(rules, side, in_check));
        }
        Ok(n)
    }

    /// The turns of a game without royal pieces: every pseudo-legal turn; immobility (B-62)
    /// decided before any turn is reported.
    fn turns_without_royals(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> Result<usize, Outcome> {
        let side = pos.side;
        // Immobility (B-62) is decided before any turn is reported.
        if rules.end.immobilized_loses {
            let core = &mut self.core;
            let any_move = rules.topo.cells().any(|c| {
                matches!(pos.at(c).as_piece(), Some((s, _)) if s == side) && {
                    core.vm.moves(rules, pos, c, &mut core.opts);
                    !core.opts.is_empty()
                }
            });
            if !any_move {
                return Err(Outcome {
                    winner: Some(side.opponent()),
                    reason: Reason::Immobilized,
                });
            }
        }
        let (own_list, foe_list) = (
            std::mem::take(&mut self.own),
            std::mem::take(&mut self.foes),
        );
        let (own, foes) = rosters(&own_list, &foe_list, self.census_sets);
        // Counting only: every turn is legal, so a plain piece's quiet moves are counted
        // unreported, as out of check in a game with royal pieces (no cell is sensitive),
        // where the movement programs have cell sets (elsewhere listing them costs less).
        let open = Sensitive::default();
        let quiet = (self.core.counting && rules.bit_moves().is_some()).then_some(&open);
        let quiet_only = self.core.quiet_only;
        let mut loud = 0;
        // Without royal pieces every quiet move is legal.
        self.core.quiet_sure = self.core.loud_only.then_some((0, 0));
        let (count, any_move) = self.core.pseudo(
            rules,
            pos,
            own,
            Among::roster(foes),
            None,
            quiet,
            &mut |t| {
                if quiet_only && t.is_loud() {
                    loud += 1;
                } else {
                    f(t);
                }
            },
        );
        let count = count - loud;
        (self.own, self.foes) = (own_list, foe_list);
        if count == 0 && !self.core.loud_only && !quiet_only && self.core.only.is_none() {
            return Err(Outcome {
                winner: Some(side.opponent()),
                reason: if any_move {
                    Reason::NoTurn
                } else {
                    Reason::Immobilized
                },
            });
        }
        Ok(count)
    }
}

/// The legality test of a game with royal pieces: whether a turn leaves every royal piece of
/// the mover unattacked, played on a copy of the position and taken back.
struct Safety<'a> {
    check: &'a mut Core,
    /// Equal to the position generated from between tests, once `synced`.
    after: &'a mut Position,
    /// Whether `after` was copied from the position yet (at the first test: most
    /// generations test no turn).
    synced: bool,
    undo: &'a mut Undo,
    /// The mover's royal pieces' cells before the turn.
    royals: &'a [Cell],
    /// The enemy pieces' cells before the turn.
    foes: Among<'a>,
    /// The mover's pieces' cells before the turn.
    own: Roster<'a>,
    /// Test by the general route only (no shortcut): the reference the others are checked
    /// against.
    reference: bool,
    /// Where giving check is forbidden: whether the turn being tested is known to give no
    /// check (answered unplayed), so that only the mover's royal pieces are asked.
    gives_no_check_known: bool,
    /// The enemy piece kinds present (bit per kind, of the first 64).
    enemy_kinds: u64,
    /// The kind of the mover's only royal piece, where it has one and it is known (the victim
    /// [`Safety::safe_unplayed`] asks the attacks about).
    royal_kind: Option<PieceKindId>,
}

impl<'a> Safety<'a> {
    /// The test with the scratch state `(check, after, undo)`, for the mover's royal pieces on
    /// `royals`, the enemy's pieces `foes` and the mover's `own` (see the fields).
    fn new(
        (check, after, undo): (&'a mut Core, &'a mut Position, &'a mut Undo),
        royals: &'a [Cell],
        foes: Among<'a>,
        own: Roster<'a>,
        reference: bool,
    ) -> Self {
        Safety {
            check,
            after,
            synced: false,
            undo,
            royals,
            foes,
            own,
            reference,
            gives_no_check_known: false,
            enemy_kinds: u64::MAX,
            royal_kind: None,
        }
    }

    /// Whether `t`, played from `pos`, leaves the mover's royal pieces unattacked and the
    /// position it leads to passes `also`. The turn is played on `after` and taken back.
    fn keeps_royals_safe(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        t: &TurnView<'_>,
        also: impl Fn(&Position) -> bool,
    ) -> bool {
        // A movement and nothing else (perhaps a castling whose partners are not royal, or a
        // change into a kind not royal of a piece not royal), that captures no royal piece of
        // the mover: the royal pieces stand where they stood, or where the mover went, unless
        // an exploding capture (`[blast]`) blew them up, which the test looks at first. (The
        // reference looks for them on the board.)
        let royal_at = |c: Cell| matches!(pos.at(c).as_piece(), Some((_, k)) if rules.is_royal(k));
        let moved_only = !self.reference
            && t.castle().is_none_or(|i| {
                rules.castlings[usize::from(i)]
                    .partners
                    .iter()
                    .all(|&(a, _)| !royal_at(a))
            })
            && t.promote()
                .is_none_or(|k| !rules.is_royal(k) && !royal_at(t.from()))
            && t.dropped().is_none()
            && t.placed().is_empty()
            && t.removed().is_none()
            && t.captures().iter().all(|c| !self.royals.contains(c));
        if !self.synced {
            self.after.clone_from(pos);
            self.synced = true;
        }
        if moved_only {
            // The pieces are all the test looks at.
            make_movement(rules, self.after, t, self.undo);
        } else {
            make_turn(rules, self.after, t, self.undo, |_, _, _| {});
        }
        let legal = self.played_is_safe(rules, pos, t, moved_only) && also(self.after);
        unmake(self.after, self.undo);
        legal
    }

    /// Whether `t`, a turn that may expose the mover's royal pieces, keeps them safe (and,
    /// where giving check is forbidden, gives none: `gives` says whether it does, where that
    /// was answered unplayed). In check, with the evasion sets computed (`evading`), a turn
    /// that leaves every attack standing is refused unplayed; a turn of a mover with one
    /// royal piece is answered unplayed where its check on the enemy is known (or allowed)
    /// and [`Safety::safe_unplayed`] can; any other turn is played and tested.
    fn judge(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        t: &TurnView<'_>,
        gives: Option<bool>,
        evading: Option<&Sensitive>,
    ) -> bool {
        if evading.is_some_and(|s| s.leaves_attacks(rules, pos, t)) {
            return false;
        }
        if (!rules.turn.no_giving_check || gives.is_some())
            && let Some(safe) = self.safe_unplayed(rules, pos, t)
        {
            return safe;
        }
        self.gives_no_check_known = gives.is_some();
        self.keeps_royals_safe(rules, pos, t, |_| true)
    }

    /// Whether `t` leaves the mover's only royal piece unattacked, answered without playing it
    /// ([`Core::attacked_unplayed`] on the cell the royal piece stands on after it, the cells
    /// the turn empties read as empty and those it fills as occupied): a movement (a castling
    /// too) or a drop that places no stone, removes none and makes no royal piece. Only where
    /// every enemy kind present has a cell-set attack form: those pass empty cells only, so
    /// the pieces the turn moves matter as occupants alone (a kind they change into, too).
    /// `None` for any other turn (placements, removals, exploding captures, a royal piece
    /// that changes kind or a royal piece dropped or made, a castling that moves a royal
    /// partner, a drop that `drop-mate = "forbidden"` forbids to mate when it gives check or
    /// may: the mate is asked on the played position), for the reference, and where an
    /// attacker's answer needs the turn played.
    fn safe_unplayed(&self, rules: &Ruleset, pos: &Position, t: &TurnView<'_>) -> Option<bool> {
        let (&[royal], Some(victim)) = (self.royals, self.royal_kind) else {
            return None;
        };
        let enemy = pos.side.opponent();
        let from = t.from();
        if self.reference
            || rules
                .bit_attacks()
                .is_none_or(|b| self.enemy_kinds & !b.attack_kinds(enemy) != 0)
            || !t.placed().is_empty()
            || t.removed().is_some()
            || rules.blast.is_some() && !t.captures().is_empty()
            || t.captures().contains(&royal)
            || t.promote()
                .is_some_and(|k| from == royal || rules.is_royal(k))
            || t.dropped().is_some_and(|k| rules.is_royal(k))
        {
            return None;
        }
        let (check, foes) = (&self.check, self.foes);
        let attacked = match (t.to(), t.dropped()) {
            // The common shapes first: one piece moved, taking on its destination at most.
            (Some(to), None) if t.castle().is_none() && t.captures().iter().all(|&c| c == to) => {
                let at = if from == royal { to } else { royal };
                check.attacked_unplayed(rules, pos, (at, victim, bits::bit(to)), enemy, foes, |x| {
                    x != to && (x == from || pos.at(x).is_empty())
                })
            }
            (None, Some(k)) => {
                let attacked =
                    check.attacked_unplayed(rules, pos, (royal, victim, 0), enemy, foes, |x| {
                        x != from && pos.at(x).is_empty()
                    });
                // A drop that may not mate: safe and giving no check, it mates nobody.
                if attacked == Some(false)
                    && no_drop_mate(rules, k)
                    && !Self::drop_gives_no_check(rules, pos, from, k)
                {
                    return None;
                }
                attacked
            }
            // Castlings and captures elsewhere: the cells the turn empties and fills (a cell
            // lifted and landed on is filled).
            (Some(to), None) => {
                let (mut vacated, mut filled) = (bits::bit(from), bits::bit(to));
                if let Some(i) = t.castle() {
                    for &(a, b) in &rules.castlings[usize::from(i)].partners {
                        if a == royal {
                            return None;
                        }
                        vacated |= bits::bit(a);
                        filled |= bits::bit(b);
                    }
                }
                let taken = t.captures().iter().fold(0u128, |m, &c| m | bits::bit(c));
                vacated |= taken;
                let at = if from == royal { to } else { royal };
                check.attacked_unplayed(rules, pos, (at, victim, taken), enemy, foes, |x| {
                    let b = bits::bit(x);
                    filled & b == 0 && (vacated & b != 0 || pos.at(x).is_empty())
                })
            }
            _ => None,
        };
        attacked.map(|hit| !hit)
    }

    /// Whether a piece of kind `k` dropped on `cell` by the side to move attacks no enemy
    /// royal piece and opens no attack of the mover's other pieces, answered through their
    /// attack programs' cell-set forms: those pass empty cells only, so a piece dropped in
    /// their way only blocks them (a hopper would gain a screen: then, and where the board has
    /// no piece sets, false).
    fn drop_gives_no_check(rules: &Ruleset, pos: &Position, cell: Cell, k: PieceKindId) -> bool {
        let side = pos.side;
        let Some(b) = rules.bit_attacks() else {
            return false;
        };
        if !pos.has_piece_sets() || !b.answers_attacks(k.index(), side) {
            return false;
        }
        let own = pos
            .kind_sets()
            .enumerate()
            .fold(0u64, |m, (j, of)| m | u64::from(of[side.index()] != 0) << j);
        if own & !b.attack_kinds(side) != 0 {
            return false;
        }
        let royals = rules.royal_kinds();
        pos.kind_sets()
            .enumerate()
            .filter(|&(j, _)| royals >> j & 1 != 0)
            .all(|(j, of)| {
                let mut targets = of[side.opponent().index()];
                while targets != 0 {
                    let target = Cell::new(targets.trailing_zeros() as usize);
                    targets &= targets - 1;
                    let hit = b.attacks_cell(
                        &rules.links,
                        (k.index(), side),
                        cell,
                        (target, PieceKindId::new(j)),
                        &|x: Cell| x != cell && pos.at(x).is_empty(),
                        |r| rules.regions[r.index()].cells[side].contains(cell),
                    );
                    if hit != Some(false) {
                        return false;
                    }
                }
                true
            })
    }

    /// Whether `t`, played from `pos` on `after` (its pieces moved only when `moved_only`),
    /// leaves the mover's royal pieces unattacked.
    fn played_is_safe(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        t: &TurnView<'_>,
        moved_only: bool,
    ) -> bool {
        let side = pos.side;
        if rules.blast.is_some() {
            // An exploding capture that blows up a royal piece of the mover is illegal; one
            // that blows up the enemy's wins at once, whatever else it leaves attacked.
            let after = &*self.after;
            let royal_of = |o: &Occupant, s: Side| matches!(o.as_piece(), Some((x, k)) if x == s && rules.is_royal(k));
            let count = |s: Side| after.cells().iter().filter(|o| royal_of(o, s)).count();
            // A movement that makes no royal piece: the mover's royal pieces are where they
            // stood (or where the mover went), the enemy's among its pieces, if anywhere.
            let moved = t.castle().is_none()
                && t.dropped().is_none()
                && t.placed().is_empty()
                && t.promote().is_none_or(|k| !rules.is_royal(k));
            let lost = if moved {
                self.royals.iter().any(|&r| {
                    let r = if r == t.from() {
                        t.to().unwrap_or(r)
                    } else {
                        r
                    };
                    !royal_of(&after.at(r), side)
                })
            } else {
                count(side) < self.royals.len()
            };
            if lost {
                return false;
            }
            let gone = if moved {
                !self
                    .foes
                    .cells
                    .iter()
                    .any(|c| royal_of(&after.at(c), side.opponent()))
            } else {
                count(side.opponent()) == 0
            };
            if gone && !rules.without_royal[side.opponent()] {
                return true;
            }
        }
        let safe = match t.to() {
            // A movement brings no enemy piece onto a cell: the enemies stand among `foes`
            // still, or are gone.
            Some(to) if moved_only => self.royals.iter().all(|&r| {
                let r = if r == t.from() { to } else { r };
                !self
                    .check
                    .attacked_forward(rules, self.after, r, side.opponent(), self.foes)
            }),
            // Any other turn of the mover brings no enemy piece either.
            _ if !self.reference => self
                .check
                .royals_safe_among(rules, self.after, side, self.foes),
            _ => self.check.royals_safe(rules, self.after, side),
        };
        // `giving-check = "forbidden"`: the enemy royal pieces must be safe too.
        safe && (!rules.turn.no_giving_check
            || self.gives_no_check_known
            || self.gives_no_check(rules, side, t, moved_only))
            && !self.drop_mates(rules, t)
    }

    /// Whether `t`, played by `mover` on `after` (its pieces moved only when `moved_only`, the
    /// side to move then not changed), leaves the enemy's royal pieces unattacked. After a
    /// movement that is not a castling, the mover's pieces stand on their cells before the
    /// turn or on its destination: only those are asked (through the reach table); the
    /// reference and any other turn look at every piece.
    fn gives_no_check(
        &mut self,
        rules: &Ruleset,
        mover: Side,
        t: &TurnView<'_>,
        moved_only: bool,
    ) -> bool {
        let Safety {
            check,
            after,
            own,
            foes,
            ..
        } = self;
        let enemy = mover.opponent();
        match t.to() {
            // The enemy's royal pieces stand where they stood, among its pieces.
            Some(to) if moved_only && t.castle().is_none() => foes.cells.iter().all(|c| {
                !matches!(after.at(c).as_piece(), Some((s, k)) if s == enemy && rules.is_royal(k))
                    || !(check.attacked_forward(rules, after, c, mover, Among::roster(*own))
                        || check.attacked_forward(rules, after, c, mover, Among::cells(&[to])))
            }),
            _ => check.royals_safe(rules, after, enemy),
        }
    }

    /// Whether `t`, played on `self.after`, is a drop that `drop-mate = "forbidden"` refuses:
    /// it gives check and the opponent has no turn.
    fn drop_mates(&mut self, rules: &Ruleset, t: &TurnView<'_>) -> bool {
        if !t.dropped().is_some_and(|k| no_drop_mate(rules, k)) {
            return false;
        }
        let opponent = self.after.side;
        if self.check.royals_safe(rules, self.after, opponent) {
            return false;
        }
        self.check
            .drop_probe
            .get_or_insert_with(Box::default)
            .turns(rules, self.after, |_| {})
            .is_err()
    }
}

/// Whether which turns are legal, or whether the game is over, depends on every turn in
/// `pos`: a priority among captures (`[turn] compulsory`, `most-captures`), the clock's limit
/// reached (a checkmate comes first), a goal to answer. Turns of one kind, or of one piece,
/// are then found among all of them.
fn every_turn_decides(rules: &Ruleset, pos: &Position) -> bool {
    let t = &rules.turn;
    t.capture_compulsory
        || t.most_captures
        || rules
            .clock
            .limit
            .is_some_and(|(limit, _)| pos.halfmove >= limit)
        || answer_pending(rules, pos).is_some()
}

/// The bit of the kind of the piece of `enemy` on `c` (kind `k`: bit `k`), 0 for anything else.
#[inline]
fn enemy_bit(pos: &Position, enemy: Side, c: Cell) -> u64 {
    match pos.at(c).as_piece() {
        Some((s, k)) if s == enemy => 1u64 << k.index(),
        _ => 0,
    }
}

/// The cells of the pieces of `enemy` of the kinds of `kinds` (bit per kind), from the
/// position's cell sets (which it must have).
#[inline]
fn enemy_cells(pos: &Position, enemy: Side, mut kinds: u64) -> u128 {
    let mut m = 0u128;
    while kinds != 0 {
        let k = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        m |= pos.piece_set(2 * k + enemy.index());
    }
    m
}

/// Whether a drop of kind `k` may not checkmate (`drop-mate = "forbidden"`).
fn no_drop_mate(rules: &Ruleset, k: PieceKindId) -> bool {
    rules.drops.as_ref().is_some_and(|d| d.no_mate.contains(&k))
}

/// The board and the sensitive cells of one position as cell sets (boards of at most 128
/// cells, see [`crate::compile::bits`]).
#[derive(Clone, Copy)]
struct BoardSets {
    /// Every piece.
    occupied: u128,
    /// The enemy pieces.
    enemy: u128,
    /// [`Sensitive`]'s cells, as sets.
    land: u128,
    vacate: u128,
    /// With exploding captures counted in sets ([`BurstSets`]): the enemy pieces whose
    /// capture [`Sensitive::burst_spares`] spares from a cell out of `burst`, and `burst`.
    /// Empty otherwise.
    spared: u128,
    burst: u128,
}

/// What every piece's turns share in one generation (see [`Core::pseudo`]).
#[derive(Clone, Copy)]
struct Shared<'a> {
    /// The sensitive cells, when quiet moves are only counted.
    quiet: Option<&'a Sensitive>,
    /// The cell-set programs and the board as sets, for plain pieces counted in sets.
    sets: Option<(&'a bits::BitMoves, BoardSets)>,
    /// The same for the loud turns only ([`Core::loud_only`]): the pieces' captures and
    /// changes of kind found in cell sets.
    loud: Option<(&'a bits::BitMoves, BoardSets)>,
    /// The same for listing every turn in any order ([`Core::any_order`]): the pieces' moves
    /// found in cell sets.
    listing: Option<(&'a bits::BitMoves, BoardSets)>,
    /// The en-passant cell and the piece that passed over it.
    ep: Option<(Cell, Cell)>,
    /// The enemy pieces, for the royal piece's moves judged in cell sets.
    foes: Among<'a>,
}

/// The turns counted so far and whether any piece had a movement option.
#[derive(Default)]
struct Tally {
    count: usize,
    any_move: bool,
}

/// The board and the sensitive cells as cell sets.
fn board_sets(q: &Sensitive, pos: &Position, own: Roster<'_>, foes: Roster<'_>) -> BoardSets {
    let (spared, burst) = q.burst_sets.map_or((0, 0), |b| (b.spared, b.burst));
    BoardSets {
        land: q.land.low128(),
        vacate: q.vacate.low128(),
        spared,
        burst,
        ..piece_sets(pos, own, foes)
    }
}

/// The board as cell sets (no sensitive cells): the side to move's pieces are `own`, the
/// enemy's `foes` (every piece of each side).
fn piece_sets(pos: &Position, own: Roster<'_>, foes: Roster<'_>) -> BoardSets {
    // The census's rosters are the position's sets where it has them (no fold again).
    let (mine, enemy) = (own.set(), foes.set());
    debug_assert!(
        !pos.has_piece_sets() || {
            let sides = pos
                .kind_sets()
                .fold([0u128; 2], |m, of| [m[0] | of[0], m[1] | of[1]]);
            (mine, enemy) == (sides[pos.side.index()], sides[pos.side.opponent().index()])
        }
    );
    BoardSets {
        occupied: mine | enemy,
        enemy,
        land: 0,
        vacate: 0,
        spared: 0,
        burst: 0,
    }
}

/// The cells where a change of kind of the `side`'s piece of `kind` on `c` fires, as a cell
/// set (see [`fires_of`]); `None` where that needs asking move by move.
fn fire_mask(rules: &Ruleset, kind: PieceKindId, side: Side, c: Cell) -> Option<u128> {
    match fires_of(rules, &rules.pieces[kind.index()], side, c) {
        Fires::Never => Some(0),
        Fires::In(cells) => Some(cells.low128()),
        Fires::Always => Some(u128::MAX),
        Fires::Ask => None,
    }
}

/// For a kind counted a kind at a time ([`Core::kinds_in_sets`]), as [`fires_of`] for each
/// of its pieces: the cells where its change of kind fires, and the cells whose pieces are left
/// to the walk (in the region of a change on entering, which fires nowhere for them, and in a
/// zone, where it fires on every move); `None` where the change needs asking move by move.
#[inline]
fn together_fire(
    rules: &Ruleset,
    piece: &crate::rules::PieceKind,
    side: Side,
) -> Option<(u128, u128)> {
    match piece.changes.as_slice() {
        [] => Some((0, 0)),
        [ch] => {
            let (region, leave_inside) = match ch.on {
                Trigger::Reach { region, enter } => (region, enter),
                Trigger::Zone(region) => (region, true),
                _ => return None,
            };
            let cells = rules.regions[region.index()].cells[side].low128();
            Some((cells, if leave_inside { cells } else { 0 }))
        }
        _ => None,
    }
}

/// Where the changes of kind of `piece` on `c` fire, found once for the piece when its only
/// change is on reaching a region or on a move into, within or out of a zone.
fn fires_of<'a>(
    rules: &'a Ruleset,
    piece: &crate::rules::PieceKind,
    side: Side,
    c: Cell,
) -> Fires<'a> {
    match piece.changes.as_slice() {
        [] => Fires::Never,
        [ch] => match ch.on {
            Trigger::Reach { region, enter } => {
                let cells = &rules.regions[region.index()].cells[side];
                if enter && cells.contains(c) {
                    Fires::Never
                } else {
                    Fires::In(cells)
                }
            }
            // A move that starts in the zone always may use it; one from outside, where it
            // lands in the zone.
            Trigger::Zone(region) => {
                let cells = &rules.regions[region.index()].cells[side];
                if cells.contains(c) {
                    Fires::Always
                } else {
                    Fires::In(cells)
                }
            }
            _ => Fires::Ask,
        },
        _ => Fires::Ask,
    }
}

/// The drops from the side's hand onto the empty cells of the drop region, and how many of
/// them were counted without being reported: with `quiet` (the caller only counts, out of
/// check), a drop of a kind neither royal nor forbidden to mate, onto a cell the sensitive
/// cells leave alone, is legal without a test, as for the moves of a plain piece. Never
/// inlined: inlined, it weighed on the generation of games without drops (chess perft +0.7%).
#[inline(never)]
fn drop_turns(
    rules: &Ruleset,
    pos: &Position,
    d: &crate::rules::Drops,
    quiet: Option<&Sensitive>,
    f: &mut impl FnMut(&TurnView<'_>),
) -> (usize, usize) {
    let side = pos.side;
    let (mut count, mut untested) = (0, 0);
    let mut per_file: Vec<u32> = Vec::new();
    for ((&k, &(w, r)), &limit) in d.kinds.iter().zip(&d.regions).zip(&d.file_limits) {
        let region = &rules.regions[r.index()].cells[super::placement::region_side(side, w)];
        if pos.supplies[side]
            .get(rules.hand_slot(k))
            .copied()
            .unwrap_or(0)
            == 0
        {
            continue;
        }
        // `drop-file-limit`: the side's own pieces of this kind on each file.
        if limit.is_some() {
            per_file.clear();
            per_file.resize(rules.topo.files(), 0);
            for c in rules.topo.cells() {
                if pos.at(c) == Occupant::piece(side, k) {
                    per_file[rules.topo.layout(c).0] += 1;
                }
            }
        }
        let file_full = |c: Cell| limit.is_some_and(|n| per_file[rules.topo.layout(c).0] >= n);
        let spared = quiet.filter(|_| !rules.is_royal(k) && !no_drop_mate(rules, k));
        // Where giving check is forbidden: the cells it could give check from, tested.
        let checks = spared.map_or(0, |q| q.checks_from(k));
        for cell in region
            .iter()
            .filter(|&c| pos.at(c).is_empty() && !file_full(c))
        {
            if spared.is_some_and(|q| q.leaves_alone(cell)) && !onto_check(checks, cell) {
                untested += 1;
            } else {
                f(&TurnView::dropping(cell, k));
            }
            count += 1;
        }
    }
    (count, untested)
}

/// Where a piece's changes of kind fire, as far as known before its moves are listed.
#[derive(Clone, Copy)]
enum Fires<'a> {
    /// On none of its moves.
    Never,
    /// On its moves to these cells.
    In(&'a crate::board::CellSet),
    /// On every move.
    Always,
    /// Asked move by move ([`fires_unplayed`]).
    Ask,
}

/// Whether the event `on` happens when the piece on `from` moves to `to` capturing `captures`,
/// where that can be told without playing the move (`None`: a check, which needs it played).
#[inline]
fn fires_unplayed(
    rules: &Ruleset,
    pos: &Position,
    on: &Trigger,
    from: Cell,
    to: Cell,
    captures: &[Cell],
) -> Option<bool> {
    let side = pos.side;
    match on {
        Trigger::Reach { region, enter } => {
            let cells = &rules.regions[region.index()].cells[side];
            Some(cells.contains(to) && !(*enter && cells.contains(from)))
        }
        Trigger::Zone(region) => {
            let cells = &rules.regions[region.index()].cells[side];
            Some(cells.contains(to) || cells.contains(from))
        }
        Trigger::Capture(kinds) => Some(captures.iter().any(|&c| {
            matches!(pos.at(c).as_piece(), Some((s, k)) if s != side && (kinds.is_empty() || kinds.contains(&k)))
        })),
        Trigger::Check => None,
    }
}

/// Each side's influence on the neutral piece on `c`: the sum of the values of its pieces one
/// influence step away, (the side to move's, the opponent's).
/// With exploding captures (`[blast]`): whether a capture by `by` on `cell` would blow up a
/// royal piece of `by` standing around it, so that no piece of `by` attacks there (two royal
/// pieces side by side cannot be checked by each other's pieces).
fn blast_spares(rules: &Ruleset, pos: &Position, cell: Cell, by: Side) -> bool {
    if rules.blast.is_none() {
        return false;
    }
    // From the position's piece sets where it has them: `by`'s royal pieces (a set per royal
    // kind, at most 64 kinds) against the cells the blast reaches.
    if let Some(area) = rules.blast_set(cell)
        && pos.has_piece_sets()
        && rules.pieces.len() <= 64
    {
        let mut kinds = rules.royal_kinds();
        let mut royals = 0u128;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            royals |= pos.piece_set(2 * k + by.index());
        }
        return royals & area != 0;
    }
    rules
        .blast_around(cell)
        .any(|c| matches!(pos.at(c).as_piece(), Some((s, k)) if s == by && rules.is_royal(k)))
}

/// Whether a piece of kind `k` counts as an attacker: with exploding captures (`[blast]`) a
/// royal piece does not, since capturing would blow it up with its prey.
fn attacks_as(rules: &Ruleset, k: PieceKindId) -> bool {
    rules.blast.is_none() || !rules.is_royal(k)
}

fn influence(
    rules: &Ruleset,
    n: &crate::rules::Neutral,
    pos: &Position,
    c: Cell,
    side: Side,
) -> (u32, u32) {
    let (mut mine, mut theirs) = (0u32, 0u32);
    let mut seen: Vec<Cell> = Vec::new();
    for &v in &n.influence {
        let x = rules.links.link(v, c);
        if x == crate::board::NO_CELL || seen.contains(&x) {
            continue;
        }
        seen.push(x);
        if let Some((s, k)) = pos.at(x).as_piece() {
            let worth = rules.pieces[k.index()].value.unwrap_or(1);
            if s == side {
                mine += worth;
            } else {
                theirs += worth;
            }
        }
    }
    (mine, theirs)
}

/// The cells whose change could expose a royal piece to an attack, out of check: `vacate`
/// holds the cells whose emptying could open an attack (the cells between a royal piece and an
/// enemy rider or hopper on one of its lines, the path cells of a lame leap that an enemy piece
/// standing there would make onto it), `land` the cells where a piece arriving could (a hopper's
/// screen, a ride that passes over pieces, a leap's path).
#[derive(Debug, Clone, Default)]
struct Sensitive {
    vacate: crate::board::CellSet,
    land: crate::board::CellSet,
    /// With exploding captures (`[blast]`), for the side to move: the cells whose emptying
    /// together with any others could open an attack (every cell between a royal piece and an
    /// enemy piece attacking along a line, whatever stands between; the lame leaps' paths).
    /// A capture that empties none of them, blows up no royal piece and brings no piece onto
    /// the board needs no test.
    burst: crate::board::CellSet,
    /// Whether `burst` holds the sets of the position last computed.
    bursts: bool,
    /// With `bursts`, on a board of at most 128 cells: what [`Sensitive::burst_spares`] reads,
    /// in cell sets.
    burst_sets: Option<BurstSets>,
    /// In check: the cells every attack on the royal pieces stands on or passes (see
    /// [`Sensitive::compute_evasions`]).
    evade: crate::board::CellSet,
    /// Where giving check is forbidden and turns are counted unseen (see
    /// [`Sensitive::merge_giving`]): per kind of the side to move, the cells from which a piece
    /// of that kind could capture on an enemy royal piece, by its attack program's geometry
    /// alone. Empty otherwise.
    checks: Vec<u128>,
    /// With `checks`: the enemy royal pieces' cells they were found for.
    their_royals: Vec<Cell>,
    walked: Vec<Cell>,
    /// Scratch for [`Sensitive::compute_giving`]: the mover's pieces per kind as cell sets.
    kind_cells: Vec<u128>,
    table: Option<std::sync::Arc<AttackLines>>,
}

/// [`Sensitive::burst`] and the position's pieces as cell sets (cell `i` at bit `i`), for
/// [`Sensitive::burst_spares`].
#[derive(Debug, Clone, Copy)]
struct BurstSets {
    /// The cells of `burst`.
    burst: u128,
    /// The royal pieces of both sides.
    royals: u128,
    /// The pieces a blast takes (of a kind not immune) that no exploding capture may blow
    /// up untested: royal pieces and pieces on `burst`.
    guarded: u128,
    /// The enemy pieces whose capture from a cell out of `burst` the test spares.
    spared: u128,
}

/// What the enemy's attacks look like from a royal piece, per side of the attacker, derived
/// once from the attack programs: the directions to look along (merged over kinds), and the
/// lame leaps with their path cells.
#[derive(Debug)]
struct AttackLines {
    /// The identity of the rules it was derived from.
    rules: u64,
    /// Kinds whose attacks this bounds (one leg; no jumps; vectors the same from every cell).
    bounded: u64,
    lines: crate::core::BySide<Vec<Line>>,
    lame: crate::core::BySide<Vec<Lame>>,
    /// Per side of the attacker, per group of lines ([`Line::group`]): the group's kinds and,
    /// on boards of at most 128 cells, per royal cell the union of its lines' rays (a group
    /// with no attacker of its kinds on that union holds none on any of its lines).
    groups: crate::core::BySide<Vec<(u64, Vec<u128>)>>,
    /// The free leaps onto a royal piece (no path cells): the kind and where its maker would
    /// stand, relative to the royal cell. Only the evasion sets read them (a free leap's
    /// attack cannot be opened or closed by any other cell).
    leaps: crate::core::BySide<Vec<(usize, (i8, i8))>>,
}

/// A direction from a royal piece towards where an attacker along it would stand.
#[derive(Debug)]
struct Line {
    back: (i8, i8),
    /// Kinds that attack along it (ride or hop).
    kinds: u64,
    /// Of those, kinds that an arriving piece can open the line for (hoppers' screens, rides
    /// over pieces).
    land: u64,
    /// Per royal cell, the cells of the line from it to the edge, bit per cell, on boards of
    /// at most 128 cells (empty on larger ones): a line with no attacker of its kinds on it
    /// marks nothing and is not walked.
    rays: Vec<u128>,
    /// The group of its `kinds` among the side's lines: lines of the same kinds (most games
    /// have two or three groups: the orthogonal riders, the diagonal ones) share one, whose
    /// pieces are gathered once a position rather than once a line ([`Attackers`]).
    group: usize,
}

impl Line {
    /// Whether an attacker along the line towards the royal piece on `r` may stand on it: some
    /// of its kinds are among the enemy's kinds `present` and, where the position has cell
    /// sets, a piece of one of them stands on the line (else there is nothing to walk).
    #[inline]
    fn may_hold(&self, pos: &Position, r: Cell, present: u64, attackers: &mut Attackers) -> bool {
        self.kinds & present != 0
            && !(pos.has_piece_sets()
                && self
                    .rays
                    .get(r.index())
                    .is_some_and(|&ray| ray & attackers.cells(pos, self.group, self.kinds) == 0))
    }
}

/// The enemy's pieces of each group of kinds of its lines (see [`Line::group`]), gathered
/// from the position's cell sets the first time a line of the group asks (groups past the
/// eighth every time).
struct Attackers {
    enemy: Side,
    cells: [u128; 8],
    known: u8,
}

impl Attackers {
    fn new(enemy: Side) -> Attackers {
        Attackers {
            enemy,
            cells: [0; 8],
            known: 0,
        }
    }

    /// The cells of the enemy's pieces of `kinds`, the kinds of group `group`.
    #[inline]
    fn cells(&mut self, pos: &Position, group: usize, kinds: u64) -> u128 {
        let Some(&known) = self.cells.get(group) else {
            return enemy_cells(pos, self.enemy, kinds);
        };
        if self.known >> group & 1 != 0 {
            return known;
        }
        let cells = enemy_cells(pos, self.enemy, kinds);
        self.cells[group] = cells;
        self.known |= 1 << group;
        cells
    }
}

/// A lame leap onto a royal piece: where its maker would stand, and its path cells, relative
/// to the royal cell.
#[derive(Debug)]
struct Lame {
    kind: usize,
    back: (i8, i8),
    paths: Vec<(i8, i8)>,
}

/// Puts each side's lines in groups by their kinds ([`Line::group`]) and, on boards of at most
/// 128 cells, gives each line its rays; returns each side's groups (their kinds, and the
/// union of their lines' rays per royal cell, for [`AttackLines::groups`]).
fn line_groups(
    topo: &crate::board::Topology,
    lines: &mut crate::core::BySide<Vec<Line>>,
) -> crate::core::BySide<Vec<(u64, Vec<u128>)>> {
    let mut groups = crate::core::BySide::new(Vec::new(), Vec::new());
    for side in [Side::White, Side::Black] {
        let distinct: &mut Vec<(u64, Vec<u128>)> = &mut groups[side];
        for line in &mut lines[side] {
            line.group = distinct
                .iter()
                .position(|&(k, _)| k == line.kinds)
                .unwrap_or_else(|| {
                    distinct.push((line.kinds, Vec::new()));
                    distinct.len() - 1
                });
            if topo.len() <= 128 {
                line.rays = topo
                    .cells()
                    .map(|r| topo.line(r, line.back).fold(0u128, |m, c| m | bits::bit(c)))
                    .collect();
                let union = &mut distinct[line.group].1;
                union.resize(topo.len(), 0);
                for (u, ray) in union.iter_mut().zip(&line.rays) {
                    *u |= ray;
                }
            }
        }
    }
    groups
}

impl AttackLines {
    /// The groups of `enemy`'s lines from the royal piece on `r` that may hold an attacker
    /// (bit per group, every group past the 64th set): some of the group's kinds are among
    /// `present` and, where the position has cell sets, one of their pieces stands on the
    /// union of the group's lines. A group left out holds no line that [`Line::may_hold`]
    /// would keep.
    #[inline]
    fn open_groups(
        &self,
        pos: &Position,
        enemy: Side,
        r: Cell,
        present: u64,
        attackers: &mut Attackers,
    ) -> u64 {
        let mut open = u64::MAX;
        for (g, (kinds, union)) in self.groups[enemy].iter().enumerate().take(64) {
            let closed = kinds & present == 0
                || (pos.has_piece_sets()
                    && union
                        .get(r.index())
                        .is_some_and(|&u| u & attackers.cells(pos, g, *kinds) == 0));
            if closed {
                open &= !(1 << g);
            }
        }
        open
    }

    fn new(rules: &Ruleset) -> AttackLines {
        let mut bounded = 0u64;
        let mut lines = crate::core::BySide::new(Vec::<Line>::new(), Vec::new());
        let mut lame = crate::core::BySide::new(Vec::<Lame>::new(), Vec::new());
        let mut leaps = crate::core::BySide::new(Vec::new(), Vec::new());
        for (k, piece) in rules.pieces.iter().enumerate().take(64) {
            let prog = &piece.attacks;
            let boundable = prog.single_leg
                && prog.legs.iter().all(|l| {
                    traits(l.kind).attack != Attack::Unbounded
                        && l.vecs
                            .iter()
                            .all(|(_, v)| v.iter().all(|&v| !rules.links.is_virtual(v)))
                });
            if !boundable {
                continue;
            }
            bounded |= 1 << k;
            for l in prog.legs.iter().filter(|l| l.can_capture()) {
                let opens_by_landing = traits(l.kind).screen || l.pass.0 & ((1u128 << 64) - 1) != 0;
                for side in [Side::White, Side::Black] {
                    for (i, &v) in l.vecs[side].iter().enumerate() {
                        let (vx, vy) = rules.links.vector(v);
                        let back = (-vx, -vy);
                        match traits(l.kind).attack {
                            Attack::Line => {
                                let list = &mut lines[side];
                                let at = match list.iter().position(|x| x.back == back) {
                                    Some(at) => at,
                                    None => {
                                        list.push(Line {
                                            back,
                                            kinds: 0,
                                            land: 0,
                                            rays: Vec::new(),
                                            group: 0,
                                        });
                                        list.len() - 1
                                    }
                                };
                                list[at].kinds |= 1 << k;
                                if opens_by_landing {
                                    list[at].land |= 1 << k;
                                }
                            }
                            Attack::Near => {
                                let Some(paths) = l.paths[side].get(i).filter(|p| !p.is_empty())
                                else {
                                    leaps[side].push((k, back));
                                    continue;
                                };
                                let cells = paths
                                    .iter()
                                    .flat_map(|p| p.cells.iter())
                                    .map(|&p| {
                                        let (px, py) = rules.links.vector(p);
                                        (px - vx, py - vy)
                                    })
                                    .collect();
                                lame[side].push(Lame {
                                    kind: k,
                                    back,
                                    paths: cells,
                                });
                            }
                            Attack::Unbounded => {}
                        }
                    }
                }
            }
        }
        let groups = line_groups(&rules.topo, &mut lines);
        AttackLines {
            rules: rules.identity.get(),
            bounded,
            lines,
            lame,
            groups,
            leaps,
        }
    }
}

impl Sensitive {
    /// Computes the sets for giving check (the side to move's pieces attacking the enemy's
    /// royal pieces, listed in `their_royals` from `foes`), when no enemy royal piece is
    /// attacked now. False when every turn must be tested.
    fn compute_giving(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        check: &mut Core,
        their_royals: &mut Vec<Cell>,
        own: Roster<'_>,
        foes: Roster<'_>,
    ) -> bool {
        let side = pos.side;
        their_royals.clear();
        their_royals.extend(
            foes.iter()
                .filter(|&c| matches!(pos.at(c).as_piece(), Some((_, k)) if rules.is_royal(k))),
        );
        let bit = |k: usize| 1u64.checked_shl(k as u32).unwrap_or(0);
        let own_kinds = if pos.has_piece_sets() {
            pos.kind_sets().enumerate().fold(0u64, |m, (k, of)| {
                if of[side.index()] != 0 { m | bit(k) } else { m }
            })
        } else {
            own.iter().fold(0u64, |m, c| {
                m | pos.at(c).as_piece().map_or(0, |(_, k)| bit(k.index()))
            })
        };
        // The mover's pieces per kind as cell sets, where the reach table has cell sets: each
        // enemy royal piece asked in a few set operations, not piece by piece.
        let mut sets = std::mem::take(&mut self.kind_cells);
        sets.clear();
        if pos.has_piece_sets() && rules.attack_reach().from_set_row(Cell::new(0)).is_some() {
            sets.extend(pos.kind_sets().map(|of| of[side.index()]));
        }
        let safe = their_royals
            .iter()
            .all(|&c| !check.attacked_forward(rules, pos, c, side, Among::foes(own, &sets)));
        self.kind_cells = sets;
        safe && self.compute(rules, pos, side.opponent(), their_royals, own_kinds, true)
    }

    /// With the sets for giving check: whether `t`, a movement that leaves them alone, gives
    /// check, answered without playing it. Such a turn opens no line of another piece towards
    /// the enemy royal pieces: only the moved piece (or the kind it becomes) can attack one,
    /// from its destination. No check when its reach from there misses every enemy royal
    /// piece; else its attack program's cell-set form answers, on the board as the turn leaves
    /// it (the origin emptied, the destination taken; `plain`: the cell-set forms may be
    /// used). `None` for any other turn, or an attack the cell sets cannot answer: it is
    /// played and tested.
    fn gives_check_unplayed(
        &self,
        rules: &Ruleset,
        pos: &Position,
        their_royals: &[Cell],
        t: &TurnView<'_>,
        plain: bool,
    ) -> Option<bool> {
        if t.castle().is_some()
            || !t.placed().is_empty()
            || t.removed().is_some()
            || t.dropped().is_some()
            || !self.untouched(t)
        {
            return None;
        }
        let (from, to) = (t.from(), t.to()?);
        let k = t
            .promote()
            .or_else(|| pos.at(from).as_piece().map(|(_, k)| k))?;
        gives_check_from(rules, pos, their_royals, (k, from, to), plain)
    }

    /// Counting with the sets for giving check (see [`Sensitive::merge_giving`]): the moves of
    /// the side's piece of `kind` from `from` onto the cells of `to`, each leaving the sets
    /// alone and keeping its kind, judged by whether it gives check
    /// ([`Sensitive::gives_check_unplayed`] without a turn to read). Returns how many give
    /// none (legal) and the cells where the cell sets cannot answer (to be listed); those that
    /// give check are refused.
    #[inline]
    fn moves_giving_check(
        &self,
        rules: &Ruleset,
        pos: &Position,
        kind: PieceKindId,
        from: Cell,
        mut to: u128,
    ) -> (usize, u128) {
        let (mut quiet, mut unsure) = (0, 0);
        while to != 0 {
            let t = Cell::new(to.trailing_zeros() as usize);
            to &= to - 1;
            match gives_check_from(rules, pos, &self.their_royals, (kind, from, t), true) {
                Some(true) => {}
                Some(false) => quiet += 1,
                None => unsure |= bits::bit(t),
            }
        }
        (quiet, unsure)
    }
}

/// Whether a piece of `k` of the side to move, going from `from` to `to` by a movement that
/// opens no other line towards the enemy royal pieces (at `their_royals`, none attacked now),
/// attacks one of them from `to` (see [`Sensitive::gives_check_unplayed`]; `plain`: the
/// cell-set forms may be used). `None` where some attack needs the interpreter.
fn gives_check_from(
    rules: &Ruleset,
    pos: &Position,
    their_royals: &[Cell],
    (k, from, to): (PieceKindId, Cell, Cell),
    plain: bool,
) -> Option<bool> {
    let side = pos.side;
    let (reach, at) = (rules.attack_reach(), rules.topo.offset_key(to));
    let mut unsure = false;
    for &r in their_royals {
        if !reach.could_capture(k, side, at, rules.topo.offset_key(r)) {
            continue;
        }
        // The enemy royal pieces are not attacked before the turn, so none is taken by
        // it: `r` holds an enemy piece after it, as the cell-set form asks.
        let victim = pos.at(r).as_piece().map(|(_, v)| v);
        let hit = rules
            .bit_attacks()
            .filter(|_| plain)
            .zip(victim)
            .and_then(|(b, v)| {
                b.attacks_cell(
                    &rules.links,
                    (k.index(), side),
                    to,
                    (r, v),
                    &|c: Cell| c == from || c != to && pos.at(c).is_empty(),
                    |g| rules.regions[g.index()].cells[side].contains(to),
                )
            });
        match hit {
            Some(true) => return Some(true),
            Some(false) => {}
            None => unsure = true,
        }
    }
    (!unsure).then_some(false)
}

impl Sensitive {
    /// The sets for counting turns unseen where giving check is forbidden (`[turn]
    /// giving-check`): the sensitive cells of the side to move (`own`, towards its royal
    /// pieces) and of giving check (`given`, towards the enemy's) together, and per kind the
    /// cells from which it could attack an enemy royal piece (at `their_royals`). A quiet move
    /// that leaves both sets alone, by a piece that arrives on none of its kind's cells, can
    /// neither expose the mover's royal pieces nor give check. False on boards above 128 cells.
    fn merge_giving(
        &mut self,
        rules: &Ruleset,
        side: Side,
        (own, given): (&Sensitive, &Sensitive),
        their_royals: &[Cell],
    ) -> bool {
        self.vacate.union_of(&own.vacate, &given.vacate);
        self.land.union_of(&own.land, &given.land);
        self.checks.clear();
        self.checks.resize(rules.pieces.len(), 0);
        self.their_royals.clear();
        self.their_royals.extend_from_slice(their_royals);
        for &r in their_royals {
            let Some(row) = rules.attack_reach().from_set_row(r) else {
                return false;
            };
            for (k, m) in self.checks.iter_mut().enumerate() {
                *m |= row[2 * k + side.index()];
            }
        }
        true
    }

    /// The cells from which a piece of `kind` of the side to move could attack an enemy royal
    /// piece (see `checks`): none unless giving check is forbidden.
    #[inline]
    fn checks_from(&self, kind: PieceKindId) -> u128 {
        self.checks.get(kind.index()).copied().unwrap_or(0)
    }
}

/// The kind of `side`'s only royal piece where its moves may be counted in cell sets
/// ([`Core::royal_sure`]): counting out of check (`counting`; where giving check is
/// forbidden, with the sets for it), no stones, and every enemy kind present with an attack
/// in cell sets.
fn royal_sure(
    rules: &Ruleset,
    side: Side,
    counting: bool,
    safety: &Safety<'_>,
) -> Option<PieceKindId> {
    let b = rules.bit_attacks()?;
    (counting
        && safety.royals.len() == 1
        && !safety.reference
        && rules.stones.is_empty()
        && safety.enemy_kinds & !b.attack_kinds(side.opponent()) == 0)
        .then_some(safety.royal_kind)
        .flatten()
}

/// Of the loud landings `loud` of a piece on `from` counted in sets, the exploding captures
/// that need no test ([`BoardSets::spared`]) and set off no change of kind (`fire`).
#[inline]
fn spared_captures(sets: &BoardSets, from: Cell, loud: u128, fire: u128) -> u128 {
    if sets.burst & bits::bit(from) == 0 {
        loud & sets.spared & !fire
    } else {
        0
    }
}

/// Whether `c` is among `checks` (cells from [`Sensitive::checks_from`]: none unless the board
/// has at most 128 cells).
#[inline]
fn onto_check(checks: u128, c: Cell) -> bool {
    checks != 0 && checks & bits::bit(c) != 0
}

impl Sensitive {
    /// Out of check, with the sets computed: whether `t` cannot expose a royal piece of the
    /// side to move. A turn that leaves every line and leg towards them alone (or an exploding
    /// capture that `burst` spares), moves no royal piece and brings none onto the board, needs
    /// no test. [`Core::sure_quiet`] states the same rule in cell sets for a piece's quiet
    /// landings (the search's loud generation): a change here belongs there too.
    // Asked of every turn: left out of line (as a plain `#[inline]` left it), the call cost
    // chess perft 5 0.25% instructions.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn cannot_expose(&self, rules: &Ruleset, pos: &Position, t: &TurnView<'_>) -> bool {
        t.castle().is_none()
            && t.placed().is_empty()
            && t.removed().is_none()
            && t.promote().is_none_or(|k| !rules.is_royal(k))
            && t.dropped()
                .is_none_or(|k| !rules.is_royal(k) && !no_drop_mate(rules, k))
            && (self.untouched(t) || self.burst_spares(rules, pos, t))
            && !matches!(pos.at(t.from()).as_piece(), Some((_, k)) if rules.is_royal(k))
    }

    /// The attack lines of `rules`, taken out of `self` for a computation (and put back after
    /// it: no reference counting per node), or made when missing or of other rules.
    fn take_table(&mut self, rules: &Ruleset) -> std::sync::Arc<AttackLines> {
        match self.table.take() {
            Some(t) if t.rules == rules.identity.get() => t,
            _ => std::sync::Arc::new(AttackLines::new(rules)),
        }
    }

    /// Whether the turn leaves every sensitive cell alone.
    fn untouched(&self, t: &TurnView<'_>) -> bool {
        self.leaves_alone(t.from()) && t.to().is_none_or(|c| self.untouched_by(c, t.captures()))
    }

    /// The cells where a piece lands and those it leaves from, as sets of the board's first
    /// 128 cells (see [`Core::quiet_sure`]).
    fn sets(&self) -> (u128, u128) {
        (self.land.low128(), self.vacate.low128())
    }

    /// Whether a piece leaving `from` leaves the sensitive cells alone.
    #[inline]
    fn leaves_alone(&self, from: Cell) -> bool {
        !self.vacate.contains(from) && !self.land.contains(from)
    }

    /// Whether a move to `to` capturing `captures` leaves the sensitive cells alone. Arriving
    /// on a cell can only open an attack where a piece there is needed (`land`); a piece
    /// taken there is among the captures.
    /// A capture elsewhere than on the destination (en passant, a piece jumped) is always
    /// tested: that turn empties two cells.
    #[inline]
    fn untouched_by(&self, to: Cell, captures: &[Cell]) -> bool {
        !self.land.contains(to)
            && captures
                .iter()
                .all(|&c| c == to && !self.vacate.contains(c))
    }

    /// Computes the sets for the royal pieces of `side` in `pos`, attacked by the enemy kinds
    /// `present`. False when some enemy piece attacks in ways this cannot bound (several legs,
    /// jumps, lines that depend on the cell's class): then every turn must be tested. With
    /// `attackers_move`, the turn is the enemy's (whether it attacks): its pieces may leave
    /// their cells, so none of them closes a line for good.
    fn compute(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        side: Side,
        royals: &[Cell],
        present: u64,
        attackers_move: bool,
    ) -> bool {
        if rules.pieces.len() > 64 {
            return false;
        }
        // Taken out for the computation and put back (no reference counting per node).
        let table = self.take_table(rules);
        let burst = rules.blast.is_some() && !attackers_move;
        let bounded = self.mark(
            rules,
            pos,
            side,
            &table,
            royals,
            present,
            (attackers_move, burst),
        );
        self.bursts = bounded && burst;
        self.burst_sets = None;
        self.table = Some(table);
        // An exploding capture (`[blast]`) changes the cells around it: no capture (onto an
        // enemy piece) leaves the sets alone; `burst` may spare its test.
        if bounded && let Some(b) = &rules.blast {
            if pos.has_piece_sets() {
                let (mut enemies, mut royals, mut fragile) = (0u128, 0u128, 0u128);
                for (j, of) in pos.kind_sets().enumerate() {
                    let k = PieceKindId::new(j);
                    enemies |= of[side.opponent().index()];
                    if rules.is_royal(k) {
                        royals |= of[0] | of[1];
                    }
                    if !b.immune.contains(&k) {
                        fragile |= of[0] | of[1];
                    }
                }
                self.land.insert_low128(enemies);
                if self.bursts && rules.topo.len() <= 128 {
                    let burst = self.burst.low128();
                    let guarded = fragile & (royals | burst);
                    // The enemy pieces whose capture blows up none of the guarded pieces:
                    // every cell from which a blast reaches a guarded one is left out (a loop
                    // over the few guarded pieces, not over the enemy's).
                    let mut touched = 0u128;
                    let mut rest = guarded;
                    while rest != 0 {
                        let c = Cell::new(rest.trailing_zeros() as usize);
                        rest &= rest - 1;
                        touched |= rules.blast_reach(c).unwrap_or(u128::MAX);
                    }
                    let spared = enemies & !burst & !royals & !touched;
                    self.burst_sets = Some(BurstSets {
                        burst,
                        royals,
                        guarded,
                        spared,
                    });
                }
            } else {
                for c in rules.topo.cells() {
                    if matches!(pos.at(c).as_piece(), Some((s, _)) if s != side) {
                        self.land.insert(c);
                    }
                }
            }
        }
        bounded
    }

    /// In check: computes `evade`, the cells that every attack on the royal pieces of `side`
    /// (at `royals`) by the enemy kinds `present` stands on or passes, or may: each line
    /// towards a royal piece up to its farthest enemy piece of the kinds that attack along it,
    /// the lame leapers aimed at it with their paths, the free leapers aimed at it. A turn that
    /// changes none of those cells (and moves no royal piece, and does nothing but move or
    /// drop one piece, capturing on its destination only) leaves every attack standing: it is
    /// illegal without a test. False when some enemy kind present attacks in ways this cannot
    /// bound, or there are more than four royal pieces: then every turn is tested.
    fn compute_evasions(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        side: Side,
        royals: &[Cell],
        present: u64,
    ) -> bool {
        if rules.pieces.len() > 64 || royals.len() > 4 {
            return false;
        }
        let table = self.take_table(rules);
        let bounded = present & !table.bounded == 0;
        if bounded {
            let topo = &rules.topo;
            let enemy = side.opponent();
            self.evade.reset(topo.len());
            let attacker = |c: Cell| enemy_bit(pos, enemy, c);
            let mut attackers = Attackers::new(enemy);
            for &r in royals {
                self.evade.insert(r);
                for line in &table.lines[enemy] {
                    if !line.may_hold(pos, r, present, &mut attackers) {
                        continue;
                    }
                    // Kinds that pass no piece attack from before the first piece only.
                    let passing = line.land & present != 0;
                    self.walked.clear();
                    let mut last = 0;
                    for c in topo.line(r, line.back) {
                        self.walked.push(c);
                        if attacker(c) & line.kinds != 0 {
                            last = self.walked.len();
                        }
                        let occ = pos.at(c);
                        if !passing && (occ.as_piece().is_some() || occ.as_neutral().is_some()) {
                            break;
                        }
                    }
                    for &c in &self.walked[..last] {
                        self.evade.insert(c);
                    }
                }
                for leap in &table.lame[enemy] {
                    let Some(a) = topo.offset(r, leap.back) else {
                        continue;
                    };
                    if attacker(a) & (1 << leap.kind) == 0 {
                        continue;
                    }
                    self.evade.insert(a);
                    for &p in &leap.paths {
                        if let Some(c) = topo.offset(r, p) {
                            self.evade.insert(c);
                        }
                    }
                }
                for &(kind, back) in &table.leaps[enemy] {
                    if let Some(a) = topo.offset(r, back)
                        && attacker(a) & (1 << kind) != 0
                    {
                        self.evade.insert(a);
                    }
                }
            }
        }
        self.table = Some(table);
        bounded
    }

    /// With `evade` computed (in check): whether `t` moves or drops one piece, no royal one,
    /// capturing nothing but on its destination, and touches no cell of `evade`: every attack
    /// on the royal pieces stands after it.
    fn leaves_attacks(&self, rules: &Ruleset, pos: &Position, t: &TurnView<'_>) -> bool {
        t.castle().is_none()
            && t.placed().is_empty()
            && t.removed().is_none()
            && t.promote().is_none_or(|k| !rules.is_royal(k))
            && t.dropped().is_none_or(|k| !rules.is_royal(k))
            && !self.evade.contains(t.from())
            && t.to()
                .is_none_or(|to| !self.evade.contains(to) && t.captures().iter().all(|&c| c == to))
            && (t.to().is_some() || t.dropped().is_some())
            && !matches!(pos.at(t.from()).as_piece(), Some((_, k)) if rules.is_royal(k))
    }

    /// With `burst` computed: whether `t` is an exploding capture on its destination that
    /// empties no cell of `burst` and blows up no royal piece (of either side), so that it
    /// leaves every attack on the mover's royal pieces as it was.
    fn burst_spares(&self, rules: &Ruleset, pos: &Position, t: &TurnView<'_>) -> bool {
        let (Some(b), Some(to)) = (&rules.blast, t.to()) else {
            return false;
        };
        // The same test in cell sets, where the board has them.
        if let (Some(sets), Some(around)) = (&self.burst_sets, rules.blast_set(to)) {
            return t.captures() == [to]
                && (bits::bit(t.from()) | bits::bit(to)) & sets.burst == 0
                && bits::bit(to) & sets.royals == 0
                && around & sets.guarded == 0;
        }
        let royal = |c: Cell| matches!(pos.at(c).as_piece(), Some((_, k)) if rules.is_royal(k));
        self.bursts
            && t.captures() == [to]
            && !self.burst.contains(t.from())
            && !self.burst.contains(to)
            && !royal(to)
            && rules.blast_around(to).all(|c| match pos.at(c).as_piece() {
                Some((_, k)) if !b.immune.contains(&k) => {
                    !rules.is_royal(k) && !self.burst.contains(c)
                }
                _ => true,
            })
    }

    #[allow(clippy::too_many_arguments)]
    fn mark(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        side: Side,
        table: &AttackLines,
        royals: &[Cell],
        present: u64,
        (attackers_move, burst): (bool, bool),
    ) -> bool {
        let topo = &rules.topo;
        let enemy = side.opponent();
        self.vacate.reset(topo.len());
        self.land.reset(topo.len());
        self.burst.reset(if burst { topo.len() } else { 0 });
        if royals.len() > 4 || present & !table.bounded != 0 {
            return false;
        }
        let attacker = |c: Cell| enemy_bit(pos, enemy, c);
        let mut attackers = Attackers::new(enemy);
        for &r in royals {
            // The groups with an attacker on one of their lines (bit per group; groups past
            // the 64th always): a group with none is passed over without asking each line.
            let open = table.open_groups(pos, enemy, r, present, &mut attackers);
            for line in &table.lines[enemy] {
                if line.group < 64 && open >> line.group & 1 == 0 {
                    continue;
                }
                if !line.may_hold(pos, r, present, &mut attackers) {
                    continue;
                }
                self.walked.clear();
                let mut pieces = 0u32;
                // With `burst`, the line is walked to the edge (the cells before its last
                // attacker go into `burst`), the other sets' walk ends where it would stop.
                let (mut last, mut stopped) = (0, false);
                for c in topo.line(r, line.back) {
                    let a = attacker(c) & line.kinds;
                    if a != 0 {
                        last = self.walked.len();
                    }
                    if stopped {
                        self.walked.push(c);
                        continue;
                    }
                    // A rider that passes no piece stays blocked while two pieces stand in
                    // its way: an untested turn empties at most one cell of the line (its
                    // captures are on its destination, which it fills).
                    if a != 0 && (a & line.land != 0 || pieces <= 1) {
                        let land = a & line.land != 0;
                        for &w in &self.walked {
                            self.vacate.insert(w);
                            if land {
                                self.land.insert(w);
                            }
                        }
                    }
                    let occ = pos.at(c);
                    // An enemy piece stays where it is through the mover's turn (a capture on
                    // it fills its cell): beyond it only a piece that an arrival can open the
                    // line for matters.
                    if !attackers_move
                        && line.land & present == 0
                        && matches!(occ.as_piece(), Some((s, _)) if s == enemy)
                    {
                        stopped = true;
                    } else if occ.as_piece().is_some() || occ.as_neutral().is_some() {
                        pieces += 1;
                        // Beyond two pieces only a piece that an arrival can open the line
                        // for matters.
                        stopped = pieces >= 2 && line.land & present == 0;
                    }
                    if stopped && !burst {
                        break;
                    }
                    self.walked.push(c);
                }
                if burst {
                    for &w in &self.walked[..last] {
                        self.burst.insert(w);
                    }
                }
            }
            for leap in &table.lame[enemy] {
                if present & (1 << leap.kind) == 0 {
                    continue;
                }
                let Some(a) = topo.offset(r, leap.back) else {
                    continue;
                };
                if attacker(a) & (1 << leap.kind) == 0 {
                    continue;
                }
                for &p in &leap.paths {
                    if let Some(c) = topo.offset(r, p) {
                        self.vacate.insert(c);
                        self.land.insert(c);
                        if burst {
                            self.burst.insert(c);
                        }
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::game::random_playout;
    use crate::search::Rng;

    /// The stand-in is on the copy where it was last put, and only there: the cell it left
    /// holds what the position holds again.
    #[test]
    fn a_stand_in_moves_on_the_copy_and_leaves_the_position_as_it_was() {
        let (name, text) = crate::BUNDLED.iter().find(|(n, _)| *n == "chess").unwrap();
        let rules = Ruleset::from_source(name, text).unwrap();
        let pos = rules.setup.clone();
        let cell = |n: &str| rules.topo.parse_cell(n).unwrap();
        let piece = Occupant::piece(Side::Black, PieceKindId::new(0));
        let mut stand = StandIn::new(&pos, piece, Box::default());
        stand.on(cell("e4"));
        stand.on(cell("d4"));
        let mut want = pos.clone();
        want.put(cell("d4"), piece);
        assert!(stand.board() == &want);
        // Moved after the copy: the cell it left is emptied again.
        stand.on(cell("e5"));
        let mut want = pos.clone();
        want.put(cell("e5"), piece);
        assert!(stand.board() == &want);
        assert!(*stand.into_probe() == want);
    }

    /// The census read from the position's cell sets and the census by a pass over the board
    /// agree: rosters (in cell order; sets for the one, lists for the other), the enemy kinds'
    /// sets and what the census reports.
    fn same_census(g: &mut Generator, rules: &Ruleset, pos: &Position) {
        let fast = g.census_from_sets(rules, pos);
        let lists = |g: &Generator| {
            let (own, foes) = rosters(&g.own, &g.foes, g.census_sets);
            let list = |r: Roster<'_>| r.iter().collect::<Vec<_>>();
            (list(own), g.royals.clone(), list(foes), g.foe_sets.clone())
        };
        let fast_lists = lists(g);
        let slow = g.census_by_scan(rules, pos);
        assert_eq!(fast, slow, "{}", crate::text::write_position(rules, pos));
        assert_eq!(
            fast_lists,
            lists(g),
            "{}",
            crate::text::write_position(rules, pos)
        );
    }

    /// Every bundled game of at most 128 cells: the positions of random games (turns played
    /// and some taken back, through the same make and unmake the generator uses), then the
    /// same boards with random occupants put on random cells.
    #[test]
    fn census_from_cell_sets_is_the_census_by_scan() {
        let mut rng = Rng::new(178);
        let mut g = Generator::default();
        let mut games = 0;
        for (name, text) in crate::BUNDLED {
            let Ok(rules) = Ruleset::from_source(name, text) else {
                continue;
            };
            if rules.topo.len() > 128 {
                continue;
            }
            games += 1;
            let game = random_playout(
                &rules,
                |n| rng.below(n),
                60,
                Some(5),
                |pos| {
                    same_census(&mut g, &rules, pos);
                },
            );
            let mut pos = game.pos().clone();
            let mut occupants = vec![Occupant::EMPTY];
            for k in 0..rules.pieces.len() {
                for side in [Side::White, Side::Black] {
                    occupants.push(Occupant::piece(side, PieceKindId::new(k)));
                }
                occupants.push(Occupant::neutral(PieceKindId::new(k)));
            }
            occupants.extend((0..rules.stones.len()).map(|s| Occupant::stone(StoneKindId::new(s))));
            for _ in 0..200 {
                let c = Cell::new(rng.below(rules.topo.len()));
                pos.put(c, occupants[rng.below(occupants.len())]);
                if rng.below(2) == 0 {
                    pos.side = pos.side.opponent();
                }
                same_census(&mut g, &rules, &pos);
            }
        }
        assert!(
            games >= 10,
            "only {games} bundled games of at most 128 cells"
        );
    }

    /// The weights of the cells as planes, from the range board's cell sets and by the pass
    /// over the cells: the same planes (less empty top ones) and the same cells to ask, for
    /// every bundled game with stones whose placement ranges have cell sets, in the positions
    /// of random games and with random occupants, supplies, taboo cells and sides to move.
    #[test]
    fn weight_planes_from_cell_sets_are_the_planes_by_cells() {
        let mut rng = Rng::new(45);
        let mut games = 0;
        for (name, text) in crate::BUNDLED {
            let Ok(rules) = Ruleset::from_source(name, text) else {
                continue;
            };
            let Some(table) = rules.bit_ranges() else {
                continue;
            };
            if rules.stones.is_empty() || rules.neutral.is_some() {
                continue;
            }
            games += 1;
            let mut core = Core::default();
            let mut same = |pos: &Position| {
                core.range_board.fill(table, pos.cells(), pos.side);
                core.hand = in_supply(pos);
                core.planes.clear();
                core.ask = Wide::EMPTY;
                assert!(core.plane_in_sets(&rules, pos));
                let fast = (core.planes.clone(), core.ask);
                core.planes.clear();
                core.ask = Wide::EMPTY;
                core.weighed = false;
                core.plane_by_cells(&rules, pos);
                assert_eq!(
                    fast,
                    (core.planes.clone(), core.ask),
                    "{}",
                    crate::text::write_position(&rules, pos)
                );
            };
            let game = random_playout(&rules, |n| rng.below(n), 24, None, &mut same);
            let mut pos = game.pos().clone();
            let mut occupants = vec![Occupant::EMPTY];
            for k in 0..rules.pieces.len() {
                for side in [Side::White, Side::Black] {
                    occupants.push(Occupant::piece(side, PieceKindId::new(k)));
                }
            }
            occupants.extend((0..rules.stones.len()).map(|s| Occupant::stone(StoneKindId::new(s))));
            for _ in 0..300 {
                let c = Cell::new(rng.below(rules.topo.len()));
                pos.put(c, occupants[rng.below(occupants.len())]);
                let side = if rng.below(2) == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                let k = rng.below(rules.stones.len());
                pos.supplies[side][k] = [0, 1, 2, 9][rng.below(4)];
                pos.taboo = (rng.below(3) == 0).then(|| Cell::new(rng.below(rules.topo.len())));
                if rng.below(2) == 0 {
                    pos.side = pos.side.opponent();
                }
                same(&pos);
            }
        }
        assert!(
            games >= 1,
            "no bundled game with stones and range cell sets"
        );
    }
}
