//! Plain programs as 128-bit cell sets: on a board of at most 128 cells with no stones and no
//! neutral pieces, the landings of a plain program ([`Program::plain`]) from a cell are found
//! with a few mask operations per leg instead of a walk per vector. Used where moves are only
//! counted; [`crate::vm::Machine::plain_each`] stays the reference.
//!
//! Attack programs are asked one question, whether a piece captures a given enemy piece
//! ([`BitMoves::attacks_cell`]), so they take the form more widely: with neutral pieces on the
//! board (a cell that is not empty, as the interpreter reads it), with legs that capture some
//! enemy kinds only, and with directions by cell class (their rides walked link by link).

use super::walk::{Line, Occupied, Reading, ride};
use super::{CaptureMode, Filter, LegCode, Program};
use crate::board::{Cell, LinkTable, NO_CELL, Side};
use crate::core::filter::{EMPTY_BIT, ENEMY0, OWN0};
use crate::core::{BySide, PieceKindId, RegionId};

/// The cell set of one cell.
#[inline]
pub fn bit(c: Cell) -> u128 {
    1u128 << c.index()
}

/// How a leg's landing cells are found.
#[derive(Debug, Clone)]
enum Reach {
    /// A step or leap (or a ride of one cell): its landings from each cell, one set per cell.
    Leaps(Vec<u128>),
    /// A ride through empty cells only, as far as the board goes: its vector ids and whether
    /// cell indices grow along them (the first piece in the way is the nearest bit).
    Rays(Vec<(u16, bool)>),
    /// Any other ride: walked cell by cell (its vector ids).
    Walk(Vec<u16>),
}

/// One emitted leg of a plain program, for one side.
#[derive(Debug, Clone)]
struct BitLeg {
    /// Emitted only from the mover's cells of this region.
    from: Option<RegionId>,
    reach: Reach,
    /// Fewest and most cells of a walked ride.
    min: u32,
    max: u32,
    /// May land on an empty cell.
    empty: bool,
    /// May land on (and capture) any enemy piece.
    enemy: bool,
    /// The enemy kinds it may capture, bit per kind (all of them where `enemy`). Only attack
    /// programs keep a leg that captures some enemy kinds and not others: [`BitMoves::landings`]
    /// reads `enemy` alone.
    victims: u64,
}

/// A plain program in cell sets, for one side.
#[derive(Debug, Clone)]
pub struct BitProgram {
    legs: Vec<BitLeg>,
}

impl BitProgram {
    /// How each emitted leg's landings are found, in program order: `"leaps"` (one set per
    /// cell), `"rays"` (to the first piece in the way) or `"walk"` (cell by cell). For tests
    /// and listings.
    pub fn forms(&self) -> Vec<&'static str> {
        self.legs
            .iter()
            .map(|l| match l.reach {
                Reach::Leaps(_) => "leaps",
                Reach::Rays(_) => "rays",
                Reach::Walk(_) => "walk",
            })
            .collect()
    }
}

/// Pieces of one kind that land the same number of cells on in cell order: every piece on a
/// cell of `src` (and of the mover's region `from`, if any) whose cells `mids` on (each an
/// offset in cell order) are all empty may land on the cell its group's offset on, where
/// that cell is empty (`empty`) or holds an enemy piece (`enemy`).
#[derive(Debug, Clone)]
struct ShiftUnit {
    src: u128,
    from: Option<RegionId>,
    mids: Vec<i16>,
    empty: bool,
    enemy: bool,
}

/// A movement program in cell sets for all the pieces of a kind at once: its landings grouped
/// by how far on in cell order they lie from the piece (one group per offset, so that a move
/// found by two legs is one move). Every step and leap has this form, and a walked ride of a
/// few cells; a ride as far as the board goes (rays) has not.
#[derive(Debug, Clone)]
pub struct ShiftProgram {
    groups: Vec<(i16, Vec<ShiftUnit>)>,
    /// The board has at most 64 cells: the sets are read in one word.
    narrow: bool,
}

/// Most offsets a [`ShiftProgram`] has: with more, its pieces are walked one by one.
const MAX_SHIFTS: usize = 12;

/// `x` moved `d` cells on in cell order (back where `d` is negative).
#[inline]
fn shifted(x: u128, d: i16) -> u128 {
    if d >= 0 {
        x << d.unsigned_abs()
    } else {
        x >> d.unsigned_abs()
    }
}

impl ShiftProgram {
    /// The shift form of a side's program, if every leg has one and the offsets are few.
    fn of(prog: &BitProgram, links: &LinkTable, cells: usize) -> Option<ShiftProgram> {
        let mut groups: Vec<(i16, Vec<ShiftUnit>)> = Vec::new();
        for l in &prog.legs {
            // Per leg: the source cells of each (offset, cells passed) found.
            let mut units: Vec<(i16, Vec<i16>, u128)> = Vec::new();
            let mut add = |from: Cell, to: Cell, mids: &[i16]| -> Option<()> {
                let d = i16::try_from(to.index()).ok()? - i16::try_from(from.index()).ok()?;
                match units.iter_mut().find(|u| u.0 == d && u.1 == mids) {
                    Some(u) => u.2 |= bit(from),
                    None => units.push((d, mids.to_vec(), bit(from))),
                }
                Some(())
            };
            match &l.reach {
                Reach::Leaps(t) => {
                    for (c, &set) in t.iter().enumerate() {
                        let mut rest = set;
                        while rest != 0 {
                            let to = Cell::new(rest.trailing_zeros() as usize);
                            rest &= rest - 1;
                            add(Cell::new(c), to, &[])?;
                        }
                    }
                }
                Reach::Walk(vs) if l.max <= 4 => {
                    // As `BitMoves::landings` walks it: a landing at each distance from
                    // `min`, every cell before it empty.
                    for &v in vs {
                        for c in 0..cells {
                            let from = Cell::new(c);
                            let (mut at, mut mids) = (from, Vec::new());
                            for dist in 1..=l.max {
                                at = links.link(v, at);
                                if at == NO_CELL {
                                    break;
                                }
                                if dist >= l.min {
                                    add(from, at, &mids)?;
                                }
                                mids.push(i16::try_from(at.index()).ok()? - i16::try_from(c).ok()?);
                            }
                        }
                    }
                }
                _ => return None,
            }
            for (d, mids, src) in units {
                let unit = ShiftUnit {
                    src,
                    from: l.from,
                    mids,
                    empty: l.empty,
                    enemy: l.enemy,
                };
                match groups.iter_mut().find(|g| g.0 == d) {
                    Some(g) => g.1.push(unit),
                    None => groups.push((d, vec![unit])),
                }
            }
            if groups.len() > MAX_SHIFTS {
                return None;
            }
        }
        Some(ShiftProgram {
            groups,
            narrow: cells <= 64,
        })
    }

    /// For each offset `d` of the program: the cells the pieces of `pieces` land on by it
    /// (the piece that lands on `t` stands on `t - d`), given `occupied` and `enemy` as in
    /// [`BitMoves::landings`]; `region` gives the mover's cells of a region (for
    /// `emit … from`). Empty sets are passed over.
    #[inline]
    pub fn each_landing(
        &self,
        pieces: u128,
        occupied: u128,
        enemy: u128,
        region: impl Fn(RegionId) -> u128,
        mut f: impl FnMut(i16, u128),
    ) {
        // On a board of at most 64 cells every set fits one word: shifts of one word by any
        // amount are one instruction, of two words several and a choice.
        if self.narrow {
            let region = |r: RegionId| region(r) as u64;
            let sets = (pieces as u64, occupied as u64, enemy as u64);
            self.each_landing_in(sets, region, |d, landed| f(d, u128::from(landed)));
        } else {
            self.each_landing_in((pieces, occupied, enemy), region, f);
        }
    }

    /// [`ShiftProgram::each_landing`] on sets of `W` (the board's cells fit it).
    #[inline]
    fn each_landing_in<W: Word>(
        &self,
        (pieces, occupied, enemy): (W, W, W),
        region: impl Fn(RegionId) -> W,
        mut f: impl FnMut(i16, W),
    ) {
        let empty = !occupied;
        for (d, units) in &self.groups {
            let mut landed = W::ZERO;
            for u in units {
                let mut from = pieces & W::low(u.src);
                if let Some(r) = u.from {
                    from &= region(r);
                }
                for &m in &u.mids {
                    from &= empty.shifted(-m);
                }
                let mut may = W::ZERO;
                if u.empty {
                    may |= empty;
                }
                if u.enemy {
                    may |= enemy;
                }
                landed |= from.shifted(*d) & may;
            }
            if landed != W::ZERO {
                f(*d, landed);
            }
        }
    }
}

/// A cell set of one or two words, as [`ShiftProgram::each_landing`] reads it.
trait Word:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
    + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    /// The cells of `x` that the word holds.
    fn low(x: u128) -> Self;
    /// The set moved `d` cells on in cell order (back where `d` is negative).
    fn shifted(self, d: i16) -> Self;
}

impl Word for u128 {
    const ZERO: u128 = 0;
    #[inline]
    fn low(x: u128) -> u128 {
        x
    }
    #[inline]
    fn shifted(self, d: i16) -> u128 {
        shifted(self, d)
    }
}

impl Word for u64 {
    const ZERO: u64 = 0;
    #[inline]
    fn low(x: u128) -> u64 {
        x as u64
    }
    #[inline]
    fn shifted(self, d: i16) -> u64 {
        // The offsets of a board of at most 64 cells are below 64.
        if d >= 0 {
            self << d.unsigned_abs()
        } else {
            self >> d.unsigned_abs()
        }
    }
}

/// The cell-set form of every piece kind's movement program, where the board and the program
/// allow one.
#[derive(Debug, Clone, Default)]
pub struct BitMoves {
    cells: usize,
    /// Per vector id and cell (`v * cells + c`): the cells a ride along the vector from the
    /// cell passes over, as far as the board goes (the cell itself not included).
    rays: Vec<u128>,
    /// [`BitMoves::rays`] in one word each, on boards of at most 64 cells (else empty): a
    /// falling ray is cut there by a shift, which on two words cost more than a second look-up.
    narrow: Vec<u64>,
    /// Per piece kind, per side: the movement programs.
    progs: Vec<Option<BySide<BitProgram>>>,
    /// Per piece kind, per side: the movement programs for all the kind's pieces at once.
    shifts: Vec<Option<BySide<ShiftProgram>>>,
    /// The kinds (bit per kind) whose movement programs have a cell-set form.
    prog_kinds: u64,
    /// Per piece kind, per side: the attack programs (what a piece threatens to capture).
    attacks: Vec<Option<BySide<BitProgram>>>,
    /// Per side, bit per kind: the kinds whose attack program [`BitMoves::attacks_cell`]
    /// answers for (those with a cell-set form).
    attack_kinds: BySide<u64>,
}

impl BitMoves {
    /// The table for these movement and attack programs (each in kind order) of `kinds` piece
    /// kinds, or `None` when the board has more than 128 cells. The caller decides whether the
    /// game allows it at all (no stones; the movement programs only without neutral pieces,
    /// see [`crate::rules::Ruleset::bit_moves`]).
    pub fn new<'a>(
        links: &LinkTable,
        cells: usize,
        kinds: usize,
        progs: impl Iterator<Item = &'a Program>,
        attacks: impl Iterator<Item = &'a Program>,
    ) -> Option<BitMoves> {
        if cells > 128 || kinds > 32 {
            return None;
        }
        let nv = links.vector_count();
        let mut rays = vec![0u128; nv * cells];
        // Direction of each vector in cell order: Some(true) when every link grows.
        let mut grows = vec![None; nv];
        for (v, g) in grows.iter_mut().enumerate() {
            let v16 = u16::try_from(v).ok()?;
            if links.is_virtual(v16) {
                continue;
            }
            let (mut up, mut down) = (true, true);
            for c in 0..cells {
                let mut at = Cell::new(c);
                let mut set = 0u128;
                for _ in 0..cells {
                    let next = links.link(v16, at);
                    if next == NO_CELL || set & bit(next) != 0 {
                        break;
                    }
                    if next.index() > at.index() {
                        down = false;
                    } else {
                        up = false;
                    }
                    set |= bit(next);
                    at = next;
                }
                rays[v * cells + c] = set;
            }
            *g = match (up, down) {
                (true, false) => Some(true),
                (false, true) => Some(false),
                _ => None,
            };
        }
        // `attack`: the program is asked only whether it captures a given piece
        // ([`BitMoves::attacks_cell`]), so a leg may capture some enemy kinds only.
        // An attack program may have vectors by cell class: its leaps and rides follow the
        // links cell by cell (such a ride is walked, never read as rays).
        let in_sets = |p: &Program, attack: bool| -> Option<BySide<BitProgram>> {
            if !(p.plain || attack && p.is_straight()) {
                return None;
            }
            let side = |s: Side| -> Option<BitProgram> {
                let mut legs = Vec::new();
                for op in &p.ops {
                    let (l, from) = match *op {
                        super::Op::Emit(l) => (l, None),
                        super::Op::EmitFrom(l, r) => (l, Some(r)),
                        super::Op::End => break,
                        _ => return None,
                    };
                    let leg = &p.legs[usize::from(l)];
                    let leg = bit_leg(leg, s, from, links, cells, &grows, kinds)?;
                    if !attack && leg.victims != 0 && !leg.enemy {
                        return None;
                    }
                    legs.push(leg);
                }
                Some(BitProgram { legs })
            };
            Some(BySide::new(side(Side::White)?, side(Side::Black)?))
        };
        let progs: Vec<_> = progs.map(|p| in_sets(p, false)).collect();
        let shifts = progs
            .iter()
            .map(|p| {
                let p = p.as_ref()?;
                let of = |s: Side| ShiftProgram::of(&p[s], links, cells);
                Some(BySide::new(of(Side::White)?, of(Side::Black)?))
            })
            .collect::<Vec<_>>();
        let prog_kinds = progs
            .iter()
            .enumerate()
            .fold(0u64, |m, (k, p)| m | u64::from(p.is_some()) << k);
        let attacks: Vec<_> = attacks.map(|p| in_sets(p, true)).collect();
        let answered = attacks
            .iter()
            .enumerate()
            .fold(0u64, |m, (k, p)| m | u64::from(p.is_some()) << k);
        let attack_kinds = BySide::new(answered, answered);
        // Boards of at most 64 cells: every ray fits the low word.
        let narrow = if cells <= 64 {
            rays.iter().map(|&r| r as u64).collect()
        } else {
            Vec::new()
        };
        Some(BitMoves {
            cells,
            rays,
            narrow,
            progs,
            shifts,
            prog_kinds,
            attacks,
            attack_kinds,
        })
    }

    /// The cell-set form of a kind's movement program for `side`, if it has one.
    #[inline]
    pub fn program(&self, kind: usize, side: Side) -> Option<&BitProgram> {
        self.progs.get(kind)?.as_ref().map(|p| &p[side])
    }

    /// The form of a kind's movement program for `side` that moves all its pieces at once,
    /// if it has one.
    #[inline]
    pub fn shifts(&self, kind: usize, side: Side) -> Option<&ShiftProgram> {
        self.shifts.get(kind)?.as_ref().map(|p| &p[side])
    }

    /// The kinds (bit per kind) whose movement programs have [`BitMoves::program`].
    #[inline]
    pub fn program_kinds(&self) -> u64 {
        self.prog_kinds
    }

    /// Whether [`BitMoves::attacks_cell`] answers for the attack program of `kind` for `side`.
    #[inline]
    pub fn answers_attacks(&self, kind: usize, side: Side) -> bool {
        self.attack_kinds[side] >> kind & 1 != 0
    }

    /// The kinds (bit per kind) whose attack programs for `side` [`BitMoves::attacks_cell`]
    /// answers.
    #[inline]
    pub fn attack_kinds(&self, side: Side) -> u64 {
        self.attack_kinds[side]
    }

    /// Whether the piece of `kind` playing for `side` on `from` attacks `target`, which holds
    /// a piece of the other side of kind `victim`, by its attack program in cell sets: a leg that
    /// may capture that kind leaps there, or rides to it over cells that are all empty (`empty`;
    /// a neutral piece is in the way like any other). `in_region` tells whether
    /// `from` is in the mover's region (for `emit … from`); `links` walks the rides not in
    /// rays. `None` when the attack program has no cell-set form (the interpreter answers then).
    #[inline]
    pub fn attacks_cell(
        &self,
        links: &LinkTable,
        (kind, side): (usize, Side),
        from: Cell,
        (target, victim): (Cell, PieceKindId),
        empty: &impl Empties,
        in_region: impl Fn(RegionId) -> bool,
    ) -> Option<bool> {
        if !self.answers_attacks(kind, side) {
            return None;
        }
        let prog = &self.attacks.get(kind)?.as_ref()?[side];
        let t = bit(target);
        for l in &prog.legs {
            if l.victims >> victim.index() & 1 == 0 || l.from.is_some_and(|r| !in_region(r)) {
                continue;
            }
            match &l.reach {
                Reach::Leaps(m) => {
                    if m[from.index()] & t != 0 {
                        return Some(true);
                    }
                }
                Reach::Rays(vs) => {
                    for &(v, _) in vs {
                        let base = usize::from(v) * self.cells;
                        let ray = self.rays[base + from.index()];
                        if ray & t == 0 {
                            continue;
                        }
                        // The cells strictly between: the ray from `from` less the one from
                        // `target` on (rays of a growing or shrinking vector do not wrap).
                        let between = ray & !self.rays[base + target.index()] & !t;
                        if empty.all_empty(between) {
                            return Some(true);
                        }
                    }
                }
                Reach::Walk(vs) => {
                    if walk_reaches(links, vs, (from, target), (l.min, l.max), empty) {
                        return Some(true);
                    }
                }
            }
        }
        Some(false)
    }

    /// Every cell the program's piece of `side` on `from` may land on: `occupied` holds every
    /// piece, `enemy` the enemy ones; `in_region` tells whether `from` is in the mover's
    /// region (for `emit … from`). `links` walks the rides not in rays.
    #[inline]
    pub fn landings(
        &self,
        prog: &BitProgram,
        links: &LinkTable,
        from: Cell,
        occupied: u128,
        enemy: u128,
        in_region: impl Fn(RegionId) -> bool,
    ) -> u128 {
        let mut out = 0u128;
        let empty = !occupied;
        for l in &prog.legs {
            if l.from.is_some_and(|r| !in_region(r)) {
                continue;
            }
            let reach = match &l.reach {
                Reach::Leaps(t) => t[from.index()],
                Reach::Rays(vs) if !self.narrow.is_empty() => {
                    narrow_rays(&self.narrow, self.cells, vs, from, occupied as u64)
                }
                Reach::Rays(vs) => {
                    let mut r = 0u128;
                    for &(v, grows) in vs {
                        let base = usize::from(v) * self.cells;
                        let ray = self.rays[base + from.index()];
                        let block = ray & occupied;
                        // Cut after the first piece, without a branch on whether there is
                        // one: growing, the cells up to the lowest piece (all of them when
                        // there is none); falling, the ray less the ray beyond the highest
                        // piece (beyond cell 0, where none is: the falling ray from cell 0
                        // is empty).
                        r |= if grows {
                            ray & (block ^ block.wrapping_sub(1))
                        } else {
                            ray & !self.rays[base + (block | 1).ilog2() as usize]
                        };
                    }
                    r
                }
                Reach::Walk(vs) => {
                    // The ride of every other reader, stopped by the occupancy mask.
                    let board = Occupied(occupied);
                    let mut r = 0u128;
                    for &v in vs {
                        let line = Line {
                            v,
                            from,
                            min: l.min,
                            max: l.max,
                            pass: Filter::EMPTY,
                        };
                        ride(links, &board, Side::White, line, |c, _| {
                            r |= bit(c);
                            true
                        });
                    }
                    r
                }
            };
            let mut may = 0u128;
            if l.empty {
                may |= empty;
            }
            if l.enemy {
                may |= enemy;
            }
            out |= reach & may;
        }
        out
    }
}

/// The cells the rays `vs` (vector, whether it grows in cell order) from `from` reach on a
/// board of at most 64 cells (`rays` one word per vector and cell), each to its first piece
/// of `occupied`, that one included. Growing, the ray keeps its cells up to the lowest piece
/// (all of them where there is none); falling, its cells from the highest piece on, by a
/// shift (from cell 0, the whole ray, where there is none).
#[inline]
fn narrow_rays(rays: &[u64], cells: usize, vs: &[(u16, bool)], from: Cell, occupied: u64) -> u128 {
    let mut r = 0u64;
    for &(v, grows) in vs {
        let ray = rays[usize::from(v) * cells + from.index()];
        let block = ray & occupied;
        r |= if grows {
            ray & (block ^ block.wrapping_sub(1))
        } else {
            ray & (u64::MAX << (block | 1).ilog2())
        };
    }
    u128::from(r)
}

/// Whether a ride along one of `vs` from `from` reaches `target` over empty cells, within
/// `min` to `max` cells: cell by cell, as the movement's walked rides (kept out of
/// [`BitMoves::attacks_cell`], whose other forms are a few mask operations).
#[inline(never)]
fn walk_reaches(
    links: &LinkTable,
    vs: &[u16],
    (from, target): (Cell, Cell),
    (min, max): (u32, u32),
    empty: &impl Empties,
) -> bool {
    let board = EmptyBy(empty);
    vs.iter().any(|&v| {
        let line = Line {
            v,
            from,
            min,
            max,
            pass: Filter::EMPTY,
        };
        let mut hit = false;
        ride(links, &board, Side::White, line, |c, _| {
            hit = c == target;
            !hit
        });
        hit
    })
}

/// A board read through a test of which cells are empty (for [`ride`]).
struct EmptyBy<'a, E>(&'a E);

impl<E: Empties> super::walk::Passage for EmptyBy<'_, E> {
    #[inline]
    fn passes(&self, _pass: Filter, _side: Side, c: Cell) -> bool {
        self.0.empty(c)
    }
}

/// Which cells are empty, as [`BitMoves::attacks_cell`] reads them: a test of one cell (any
/// `Fn(Cell) -> bool`), or a cell set ([`EmptyCells`]) that answers for all the cells between
/// a rider and its target at once.
pub trait Empties {
    /// Whether `c` is empty.
    fn empty(&self, c: Cell) -> bool;

    /// Whether every cell of `set` is empty.
    #[inline]
    fn all_empty(&self, mut set: u128) -> bool {
        while set != 0 {
            if !self.empty(Cell::new(set.trailing_zeros() as usize)) {
                return false;
            }
            set &= set - 1;
        }
        true
    }
}

impl<F: Fn(Cell) -> bool> Empties for F {
    #[inline]
    fn empty(&self, c: Cell) -> bool {
        self(c)
    }
}

/// The empty cells as a cell set (bit per cell index).
#[derive(Debug, Clone, Copy)]
pub struct EmptyCells(pub u128);

impl Empties for EmptyCells {
    #[inline]
    fn empty(&self, c: Cell) -> bool {
        self.0 & bit(c) != 0
    }

    #[inline]
    fn all_empty(&self, set: u128) -> bool {
        set & !self.0 == 0
    }
}

/// The cell-set form of one leg for `side`, or `None` when its landings depend on more than
/// which cells hold pieces and which of those are the enemy's.
fn bit_leg(
    l: &LegCode,
    side: Side,
    from: Option<RegionId>,
    links: &LinkTable,
    cells: usize,
    grows: &[Option<bool>],
    kinds: usize,
) -> Option<BitLeg> {
    let enemies: u128 = ((1u128 << kinds) - 1) << ENEMY0;
    let owns: u128 = ((1u128 << kinds) - 1) << OWN0;
    // The enemy kinds it captures: every one (`enemy`), none, or some (attack programs only).
    let victims = match l.capture {
        CaptureMode::MoveOnly => 0,
        CaptureMode::May | CaptureMode::Only => (l.victims.0 & enemies) >> ENEMY0,
    };
    let enemy = victims != 0 && victims << ENEMY0 == enemies;
    // Fewer than 33 kinds (checked by `BitMoves::new`).
    let victims = u64::try_from(victims).ok()?;
    let vecs = &l.vecs[side];
    let leaps = |vecs: &[u16]| {
        (0..cells)
            .map(|c| {
                vecs.iter()
                    .map(|&v| links.link(v, Cell::new(c)))
                    .filter(|&t| t != NO_CELL)
                    .fold(0u128, |m, t| m | bit(t))
            })
            .collect()
    };
    let reach = match super::walk::traits(l.kind).reading {
        Reading::Once => Reach::Leaps(leaps(vecs)),
        Reading::Ride => {
            // A ride passes empty cells only, or (passing nothing) stops at its first cell.
            let passes_empty = l.pass.has(EMPTY_BIT);
            if l.pass.0 & (enemies | owns) != 0 {
                return None;
            }
            if l.min <= 1 && (l.max == 1 || !passes_empty) {
                Reach::Leaps(leaps(vecs))
            } else if l.min <= 1
                && l.max as usize >= cells
                && vecs.iter().all(|&v| grows[usize::from(v)].is_some())
            {
                Reach::Rays(
                    vecs.iter()
                        .map(|&v| (v, grows[usize::from(v)] == Some(true)))
                        .collect(),
                )
            } else if passes_empty {
                Reach::Walk(vecs.clone())
            } else {
                return None;
            }
        }
        Reading::General => return None,
    };
    Some(BitLeg {
        from,
        reach,
        min: l.min,
        max: l.max,
        empty: l.capture != CaptureMode::Only,
        enemy,
        victims,
    })
}
