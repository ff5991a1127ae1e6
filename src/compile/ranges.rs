//! Placement ranges as cell sets ([`Wide`], up to 256 cells: Bollwerk 178's board fits), on
//! boards with stones and neutral pieces: a range program whose paths have one or two legs
//! (an `emit`, or legs up to an `accept`, see [`Program`]) has a form here, read with a few
//! mask operations per leg instead of a walk per vector. The generator counts a movement's stone actions from it (a
//! popcount per weight instead of a loop over the range's cells).
//! [`crate::vm::Machine::range`] stays the reference.
//!
//! What stands on a cell enters as masks of the cells each filter the legs read admits
//! ([`RangeBoard`], filled once per position and side to move); the cell a piece has just
//! left and the cell it stands on read as empty, as in the straight reading.

use super::walk::{Passing, Reading, traits};
use super::wide::{WIDE_CELLS, Wide};
use super::{CaptureMode, Filter, LegCode, Op, Program};
use crate::board::{Cell, LinkTable, NO_CELL, Side};
use crate::core::each_filled;
use crate::core::filter::{EMPTY_BIT, ENEMY0, HOLE_BIT, STONE0};
use crate::core::{BySide, RegionId};
use crate::position::Occupant;

/// Index of a filter in [`BitRanges`]'s list (the empty cells are filter 0).
type FilterId = u8;

/// A lame leap's target from one cell, with its alternative paths.
#[derive(Debug, Clone)]
struct LameTarget {
    to: Cell,
    /// Its paths in `paths` (`first..first + count`); none at all: a free leap.
    first: u32,
    count: u32,
    /// The leap has a list of alternatives (possibly empty: never possible).
    checked: bool,
}

/// One path of cells between, as a set of the board's cells and the filter they must pass.
#[derive(Debug, Clone)]
struct LamePath {
    cells: Wide,
    filter: FilterId,
    /// A cell of the path is off the board and the filter does not admit the edge.
    never: bool,
}

/// How a leg's range cells are found.
#[derive(Debug, Clone)]
enum Form {
    /// Steps and free leaps (or a ride of one cell): its cells from each cell.
    Leaps(Vec<Wide>),
    /// Leaps along paths that must hold what they may pass.
    Lame {
        /// Per cell: its targets in `targets` (`start[c]..start[c + 1]`).
        start: Vec<u32>,
        targets: Vec<LameTarget>,
        paths: Vec<LamePath>,
        /// When every path has one filter: per cell, the cells of all its paths and the
        /// targets of its possible leaps (when none of those cells is closed, all of them).
        one: Option<(FilterId, Vec<Wide>, Vec<Wide>)>,
    },
    /// A ride as far as the board goes along vectors whose cell indices grow (or fall) along
    /// them: to the first cell it may not pass, that one included.
    Rays {
        vs: Vec<(u16, bool)>,
        pass: FilterId,
    },
    /// Any other ride, cell by cell.
    Walk {
        vs: Vec<u16>,
        min: u32,
        max: u32,
        pass: FilterId,
    },
    /// Jumps over a cell of `pass`.
    Jump { jumps: Jumps, pass: FilterId },
    /// Hops: along each vector to the first screen, then the run beyond it.
    Hop {
        vs: Vec<u16>,
        min: u32,
        max: u32,
        pass: FilterId,
        screen: FilterId,
        /// The cells before the screen may be empty.
        pass_empty: bool,
    },
}

/// The jumps of a leg from every cell: per cell its (jumped, landing) pairs in `pairs`
/// (`start[c]..start[c + 1]`, in the order of the jumped cells) and the set of its jumped
/// cells (`over`). Where a cell's jumped cells are all distinct and lie within 64 cells of the
/// lowest, `window` holds that cell's index and the jumped cells as bits above it, so the
/// pass test is one word and a landing is found by the rank of its jumped cell's bit;
/// elsewhere (`NO_WINDOW`) the pairs are read one by one.
#[derive(Debug, Clone)]
struct Jumps {
    start: Vec<u32>,
    pairs: Vec<(Cell, Cell)>,
    over: Vec<Wide>,
    window: Vec<(u16, u64)>,
}

/// A cell's jumps have no one-word window ([`Jumps`]).
const NO_WINDOW: u16 = u16::MAX;

impl Jumps {
    /// The jumps from every cell: for each cell in order, its (jumped, landing) pairs.
    fn new(per_cell: Vec<Vec<(Cell, Cell)>>) -> Jumps {
        let (mut start, mut pairs, mut over, mut window) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for mut cell_pairs in per_cell {
            cell_pairs.sort_by_key(|&(o, _)| o.index());
            start.push(u32::try_from(pairs.len()).unwrap_or(u32::MAX));
            let mut jumped = Wide::EMPTY;
            let (mut mask, mut base) = (0u64, NO_WINDOW);
            if let (Some(&(lo, _)), Some(&(hi, _))) = (cell_pairs.first(), cell_pairs.last()) {
                let distinct = cell_pairs.windows(2).all(|w| w[0].0 != w[1].0);
                if distinct && hi.index() - lo.index() < 64 {
                    base = u16::try_from(lo.index()).unwrap_or(NO_WINDOW);
                    for &(o, _) in &cell_pairs {
                        mask |= 1 << (o.index() - lo.index());
                    }
                }
            } else {
                // No jump from here: an empty window, which admits nothing.
                base = 0;
            }
            for &(o, _) in &cell_pairs {
                jumped.insert(o);
            }
            over.push(jumped);
            window.push((base, mask));
            pairs.extend(cell_pairs);
        }
        start.push(u32::try_from(pairs.len()).unwrap_or(u32::MAX));
        Jumps {
            start,
            pairs,
            over,
            window,
        }
    }

    /// The landings of the jumps from `from` whose jumped cell is in `pass`: none without a
    /// look at the pairs when no jumped cell is. Always inlined: as a call it cost more than
    /// it saved.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn cells(&self, pass: Wide, from: Cell) -> Wide {
        let mut out = Wide::EMPTY;
        let first = self.start[from.index()] as usize;
        let (base, mask) = self.window[from.index()];
        if base != NO_WINDOW {
            // The jumped cells in `pass`, as bits above `base`; the landing of the one at bit
            // `j` is the pair of rank `j` among the window's bits.
            let mut hit = pass.word_at(usize::from(base)) & mask;
            while hit != 0 {
                let j = hit.trailing_zeros();
                hit &= hit - 1;
                let rank = (mask & ((1u64 << j) - 1)).count_ones() as usize;
                out |= Wide::of(self.pairs[first + rank].1);
            }
            return out;
        }
        let hit = self.over[from.index()] & pass;
        if hit.is_empty() {
            return out;
        }
        let range = first..self.start[from.index() + 1] as usize;
        for &(over, to) in &self.pairs[range] {
            if hit.has(over) {
                out.insert(to);
            }
        }
        out
    }
}

/// What a leg's form depends on, for one side.
#[derive(Debug, PartialEq)]
struct LegKey {
    kind: crate::dsl::LegKind,
    vecs: Vec<u16>,
    paths: Vec<Vec<super::PathCode>>,
    min: u32,
    max: u32,
    pass: Filter,
    screen: Filter,
}

impl LegKey {
    fn of(l: &LegCode, side: Side) -> LegKey {
        LegKey {
            kind: l.kind,
            vecs: l.vecs[side].clone(),
            paths: l.paths[side].clone(),
            min: l.min,
            max: l.max,
            pass: l.pass,
            screen: l.screen,
        }
    }
}

/// One top-level alternative of a range program.
#[derive(Debug, Clone)]
struct RangeLeg {
    /// Only from the piece's cells of this region.
    from: Option<RegionId>,
    form: Form,
}

/// A range program in cell sets, for one side.
#[derive(Debug, Clone)]
pub struct RangeProgram {
    /// The paths of one leg.
    legs: Vec<RangeLeg>,
    /// The paths of two legs: the second leg goes on from each empty cell the first lands on.
    pairs: Vec<(RangeLeg, Form)>,
}

impl RangeProgram {
    /// How each path's legs are found, in program order (`"leaps"`, `"lame"`, `"rays"`,
    /// `"walk"`, `"jump"`, `"hop"`; two legs joined by `+`), the paths of one leg first. For
    /// tests and listings.
    pub fn forms(&self) -> Vec<String> {
        let name = form_name;
        self.legs
            .iter()
            .map(|l| name(&l.form).to_string())
            .chain(
                self.pairs
                    .iter()
                    .map(|(a, b)| format!("{}+{}", name(&a.form), name(b))),
            )
            .collect()
    }
}

/// One path of one leg of a movement program, for one side: it lands on the cells it
/// reaches (as a range path of the same leg reaches them) whose occupant it may land on.
#[derive(Debug, Clone)]
struct MoveLeg {
    /// Only from the piece's cells of this region.
    from: Option<RegionId>,
    form: Form,
    /// The occupants it may land on ([`landing_filter`]).
    land: FilterId,
}

/// A movement program in cell sets, for one side: every path is one leg that takes nothing
/// in passing (an `emit`, or a leg up to an `accept`), so an option is its landing cell, and
/// what it captures and does to a stone there is read from that cell's occupant.
#[derive(Debug, Clone)]
pub struct MoveProgram {
    legs: Vec<MoveLeg>,
}

impl MoveProgram {
    /// How each path's leg is found, in program order (as [`RangeProgram::forms`]). For tests
    /// and listings.
    pub fn forms(&self) -> Vec<&'static str> {
        self.legs.iter().map(|l| form_name(&l.form)).collect()
    }
}

/// The `emit` ops a movement program of chains begins with, in cell sets, for one side: the
/// options of those single legs are its landings ([`BitRanges::landings`]); the chains go on
/// from op `pc` in the general interpreter ([`crate::vm::Machine::chain_moves`]), only where
/// one of the legs they may begin with can land ([`BitRanges::may_enter`]).
#[derive(Debug, Clone)]
pub struct LeadForm {
    /// The leading `emit` ops.
    pub emits: MoveProgram,
    /// The op the chains begin at.
    pub pc: usize,
    /// The legs every chain begins with, where the program says so and each has a form
    /// here (their landing filters as a movement leg's).
    entry: Option<MoveProgram>,
}

impl LeadForm {
    /// Whether [`BitRanges::may_enter`] answers for the chains.
    pub fn knows_entry(&self) -> bool {
        self.entry.is_some()
    }
}

/// The occupants (as the mover sees them) that leg `l` may land on, as the interpreter's
/// landing test admits them: an empty cell unless it only captures; an enemy or neutral piece
/// it may capture, unless it only moves; a stone it collects (`collectable`) or destroys,
/// unless it only captures. Never an own piece.
fn landing_filter(l: &LegCode, collectable: Filter) -> Filter {
    let enemies: u128 = ((1u128 << (STONE0 - ENEMY0)) - 1) << ENEMY0;
    let stones: u128 = ((1u128 << (EMPTY_BIT - STONE0)) - 1) << STONE0;
    let mut f = 0u128;
    if l.capture != CaptureMode::Only {
        f |= 1u128 << EMPTY_BIT;
        f |= (collectable.0 | l.destroy.0) & stones;
    }
    if l.capture != CaptureMode::MoveOnly {
        f |= l.victims.0 & enemies;
    }
    Filter(f)
}

/// The name of a form (see [`RangeProgram::forms`]).
fn form_name(f: &Form) -> &'static str {
    match f {
        Form::Leaps(_) => "leaps",
        Form::Lame { .. } => "lame",
        Form::Rays { .. } => "rays",
        Form::Walk { .. } => "walk",
        Form::Jump { .. } => "jump",
        Form::Hop { .. } => "hop",
    }
}

/// The cell-set form of every piece kind's placement range, where the board has at most 256
/// cells and the program allows one.
#[derive(Debug, Clone, Default)]
pub struct BitRanges {
    cells: usize,
    /// Per vector id and cell (`v * cells + c`): the cells along the vector from the cell, as
    /// far as the board goes (filled for the vectors of rides read as rays).
    rays: Vec<Wide>,
    /// Per vector id, once its rays are filled (`filled`): whether the cells' indices grow
    /// along it (`Some(true)`), fall (`Some(false)`), or neither (`None`: no rays).
    grows: Vec<Option<bool>>,
    filled: Vec<bool>,
    /// The filters the legs read (the first admits only empty cells), with whether each
    /// admits an empty cell.
    filters: Vec<(Filter, bool)>,
    /// Per piece kind, per side.
    progs: Vec<Option<BySide<RangeProgram>>>,
    /// Per piece kind, per side: the movement programs that have a form here.
    moves: Vec<Option<BySide<MoveProgram>>>,
    /// Per piece kind, per side: the leading `emit` ops of the other movement programs.
    leads: Vec<Option<BySide<LeadForm>>>,
}

/// The cells each filter of a [`BitRanges`] admits in one position, for one side to move.
#[derive(Debug, Clone, Default)]
pub struct RangeBoard {
    ok: Vec<Wide>,
    /// The cells of each filter bit (see [`Occupant::bit_for`]) in the position filled, and
    /// the bits that have any (`present`, bit per filter bit).
    by_bit: Vec<Wide>,
    present: u128,
}

impl RangeBoard {
    /// The empty cells (filter 0), once filled.
    #[inline]
    pub fn empty(&self) -> Wide {
        self.ok.first().copied().unwrap_or(Wide::EMPTY)
    }

    /// Reads `cells` as `side` sees them, for the filters of `ranges`: the cells of each
    /// occupant's filter bit first, then each filter's cells as the union of its bits' cells.
    pub fn fill(&mut self, ranges: &BitRanges, cells: &[Occupant], side: Side) {
        self.by_bit.resize(128, Wide::EMPTY);
        let mut old = self.present;
        while old != 0 {
            self.by_bit[old.trailing_zeros() as usize] = Wide::EMPTY;
            old &= old - 1;
        }
        // The cells that are not empty, eight at a time; the empty ones are the rest.
        let mut present = 0u128;
        let mut filled = Wide::EMPTY;
        each_filled(cells, |i, o| {
            let b = o.bit_for(side) as usize;
            present |= 1u128 << b;
            let bit = 1u64 << (i & 63);
            self.by_bit[b].0[i >> 6] |= bit;
            filled.0[i >> 6] |= bit;
        });
        let empty = Wide::first(cells.len()).without(filled);
        if !empty.is_empty() {
            present |= 1u128 << EMPTY_BIT;
            self.by_bit[EMPTY_BIT as usize] = empty;
        }
        self.ok.clear();
        for (f, _) in &ranges.filters {
            let mut bits = f.0 & present;
            let mut set = Wide::EMPTY;
            while bits != 0 {
                set |= self.by_bit[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            self.ok.push(set);
        }
        self.present = present;
    }

    /// The cells whose occupant has filter bit `bit` (as the side filled for sees it), once
    /// filled.
    #[inline]
    pub fn of_bit(&self, bit: u32) -> Wide {
        self.by_bit
            .get(bit as usize)
            .copied()
            .unwrap_or(Wide::EMPTY)
    }
}

impl BitRanges {
    /// The table for these placement range programs and movement programs (each in kind
    /// order), or `None` when the board has more than [`WIDE_CELLS`] cells. `collectable`
    /// holds the stones a piece collects by landing on them.
    pub fn new<'a>(
        links: &LinkTable,
        cells: usize,
        progs: impl Iterator<Item = &'a Program>,
        moves: impl Iterator<Item = &'a Program>,
        collectable: Filter,
    ) -> Option<BitRanges> {
        if cells > WIDE_CELLS {
            return None;
        }
        let nv = links.vector_count();
        let mut table = BitRanges {
            cells,
            rays: vec![Wide::EMPTY; nv * cells],
            grows: vec![None; nv],
            filled: vec![false; nv],
            filters: vec![(Filter::EMPTY, true)],
            progs: Vec::new(),
            moves: Vec::new(),
            leads: Vec::new(),
        };
        // Legs that several kinds share (a knight's leap in four of them) are built once.
        let mut built: Vec<(LegKey, Form)> = Vec::new();
        let progs: Vec<_> = progs
            .map(|p| {
                let paths = paths_of(p)?;
                let mut side = |s: Side, t: &mut BitRanges| -> Option<RangeProgram> {
                    let mut form_of = |l: u16, t: &mut BitRanges| -> Option<Form> {
                        let leg = &p.legs[usize::from(l)];
                        let key = LegKey::of(leg, s);
                        Some(match built.iter().find(|(k, _)| *k == key) {
                            Some((_, f)) => f.clone(),
                            None => {
                                let f = t.form(leg, s, links)?;
                                built.push((key, f.clone()));
                                f
                            }
                        })
                    };
                    let mut prog = RangeProgram {
                        legs: Vec::new(),
                        pairs: Vec::new(),
                    };
                    for (from, legs) in &paths {
                        let first = RangeLeg {
                            from: *from,
                            form: form_of(legs[0], t)?,
                        };
                        match legs.get(1) {
                            None => prog.legs.push(first),
                            Some(&l) => {
                                let second = form_of(l, t)?;
                                prog.pairs.push((first, second));
                            }
                        }
                    }
                    Some(prog)
                };
                let white = side(Side::White, &mut table)?;
                let black = side(Side::Black, &mut table)?;
                Some(BySide::new(white, black))
            })
            .collect();
        table.progs = progs;
        table.add_moves(links, moves, collectable, &mut built);
        // Filter ids are bytes.
        (table.filters.len() <= 256).then_some(table)
    }

    /// Adds the movement programs' forms (each in kind order, see [`MoveProgram`] and
    /// [`LeadForm`]), with the legs already `built` for the ranges.
    fn add_moves<'a>(
        &mut self,
        links: &LinkTable,
        moves: impl Iterator<Item = &'a Program>,
        collectable: Filter,
        built: &mut Vec<(LegKey, Form)>,
    ) {
        // Movement programs whose every path is one leg that takes nothing in passing; of
        // the others, the `emit` ops they begin with and the legs their chains begin with.
        let mut leg_of = |p: &Program, l: u16, from, s: Side, t: &mut BitRanges| {
            let leg = &p.legs[usize::from(l)];
            let key = LegKey::of(leg, s);
            let form = match built.iter().find(|(k, _)| *k == key) {
                Some((_, f)) => f.clone(),
                None => {
                    let f = t.form(leg, s, links)?;
                    built.push((key, f.clone()));
                    f
                }
            };
            let land = t.filter(landing_filter(leg, collectable));
            Some(MoveLeg { from, form, land })
        };
        for p in moves {
            let single = paths_of(p).filter(|paths| {
                paths
                    .iter()
                    .all(|(_, path)| matches!(path[..], [l] if !p.legs[usize::from(l)].take))
            });
            let mut side = |s: Side, t: &mut BitRanges| -> Option<MoveProgram> {
                let legs = single
                    .as_ref()?
                    .iter()
                    .map(|(from, path)| leg_of(p, path[0], *from, s, t))
                    .collect::<Option<Vec<_>>>()?;
                Some(MoveProgram { legs })
            };
            let form = side(Side::White, &mut *self)
                .and_then(|w| Some(BySide::new(w, side(Side::Black, &mut *self)?)));
            // The leading emits, where the paths are not all single legs.
            let lead = if single.is_some() || p.marks != 0 {
                None
            } else {
                let emits: Vec<(u16, Option<RegionId>)> = p
                    .ops
                    .iter()
                    .map_while(|op| match *op {
                        Op::Emit(l) => Some((l, None)),
                        Op::EmitFrom(l, r) => Some((l, Some(r))),
                        _ => None,
                    })
                    .collect();
                let mut side = |s: Side, t: &mut BitRanges| -> Option<LeadForm> {
                    let legs = emits
                        .iter()
                        .map(|&(l, from)| {
                            if p.legs[usize::from(l)].take {
                                return None;
                            }
                            leg_of(p, l, from, s, t)
                        })
                        .collect::<Option<Vec<_>>>()?;
                    let entry = p.entry.as_ref().and_then(|e| {
                        let legs = e
                            .iter()
                            .map(|&l| leg_of(p, l, None, s, t))
                            .collect::<Option<Vec<_>>>()?;
                        Some(MoveProgram { legs })
                    });
                    Some(LeadForm {
                        emits: MoveProgram { legs },
                        pc: emits.len(),
                        entry,
                    })
                };
                side(Side::White, &mut *self)
                    .and_then(|w| Some(BySide::new(w, side(Side::Black, &mut *self)?)))
            };
            self.moves.push(form);
            self.leads.push(lead);
        }
    }

    /// Whether cell indices grow (`Some(true)`) or fall along vector `v` from every cell;
    /// `None` when neither (or the vector is virtual). Fills its rays the first time.
    fn ray_direction(&mut self, links: &LinkTable, v: u16) -> Option<bool> {
        if self.filled[usize::from(v)] {
            return self.grows[usize::from(v)];
        }
        let cells = self.cells;
        let (mut up, mut down) = (true, true);
        if links.is_virtual(v) {
            (up, down) = (false, false);
        } else {
            for c in 0..cells {
                let start = Cell::new(c);
                let (mut at, mut set) = (start, Wide::EMPTY);
                loop {
                    let next = links.link(v, at);
                    if next == NO_CELL || next == start || set.has(next) {
                        break;
                    }
                    if next.index() > at.index() {
                        down = false;
                    } else {
                        up = false;
                    }
                    set.insert(next);
                    at = next;
                }
                self.rays[usize::from(v) * cells + c] = set;
            }
        }
        let g = match (up, down) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        };
        self.grows[usize::from(v)] = g;
        self.filled[usize::from(v)] = true;
        g
    }

    /// The id of a filter the legs read, added if new.
    fn filter(&mut self, f: Filter) -> FilterId {
        let i = match self.filters.iter().position(|&(g, _)| g == f) {
            Some(i) => i,
            None => {
                self.filters.push((f, f.has(EMPTY_BIT)));
                self.filters.len() - 1
            }
        };
        // More than 256 filters: the table is dropped by `new`.
        FilterId::try_from(i).unwrap_or(FilterId::MAX)
    }

    /// The form of one leg for `side`, or `None` when it has none here.
    fn form(&mut self, l: &LegCode, side: Side, links: &LinkTable) -> Option<Form> {
        let cells = self.cells;
        let vecs = &l.vecs[side];
        let leaps = || -> Vec<Wide> {
            (0..cells)
                .map(|c| {
                    let from = Cell::new(c);
                    vecs.iter()
                        .map(|&v| links.link(v, from))
                        .filter(|&t| t != NO_CELL && t != from)
                        .fold(Wide::EMPTY, |m, t| m | Wide::of(t))
                })
                .collect()
        };
        let per_cell = |pairs: &mut dyn FnMut(Cell)| {
            for c in 0..cells {
                pairs(Cell::new(c));
            }
        };
        // The leg kind's row says how it reads the board (see `walk::traits`).
        let t = traits(l.kind);
        Some(match (t.reading, t.passing, t.screen) {
            (Reading::Once, _, _) if l.paths[side].is_empty() => Form::Leaps(leaps()),
            (Reading::Once, _, _) => self.lame(l, side, links),
            (Reading::Ride, _, _) => {
                let pass = self.filter(l.pass);
                let dirs: Option<Vec<(u16, bool)>> = if l.min <= 1 && l.max as usize >= cells {
                    vecs.iter()
                        .map(|&v| Some((v, self.ray_direction(links, v)?)))
                        .collect()
                } else {
                    None
                };
                if l.min <= 1 && l.max == 1 {
                    Form::Leaps(leaps())
                } else if let Some(vs) = dirs {
                    Form::Rays { vs, pass }
                } else {
                    Form::Walk {
                        vs: vecs.clone(),
                        min: l.min,
                        max: l.max,
                        pass,
                    }
                }
            }
            (Reading::General, Passing::Jumped, false) => {
                let pass = self.filter(l.pass);
                let mut per = Vec::new();
                per_cell(&mut |from| {
                    let mut cell_pairs = Vec::new();
                    for &v in vecs {
                        let o = links.link(v, from);
                        if o == NO_CELL {
                            continue;
                        }
                        let to = links.link(v, o);
                        if to != NO_CELL && to != from {
                            cell_pairs.push((o, to));
                        }
                    }
                    per.push(cell_pairs);
                });
                Form::Jump {
                    jumps: Jumps::new(per),
                    pass,
                }
            }
            (Reading::General, Passing::Line, true) => Form::Hop {
                vs: vecs.clone(),
                min: l.min,
                max: l.max,
                pass: self.filter(l.pass),
                screen: self.filter(l.screen),
                pass_empty: l.pass.has(EMPTY_BIT),
            },
            (Reading::General, _, _) => return None,
        })
    }

    /// The form of a lame leap (a step or leap with paths) for `side`.
    fn lame(&mut self, l: &LegCode, side: Side, links: &LinkTable) -> Form {
        let cells = self.cells;
        let vecs = &l.vecs[side];
        let per_cell = |pairs: &mut dyn FnMut(Cell)| {
            for c in 0..cells {
                pairs(Cell::new(c));
            }
        };
        let alts_of = &l.paths[side];
        let alts = alts_of.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let mut start = Vec::with_capacity(cells + 1);
        let mut targets = Vec::with_capacity(cells * vecs.len());
        let mut paths = Vec::with_capacity(cells * vecs.len() * alts);
        let mut filters = Vec::new();
        let mut ids = Vec::new();
        for alts in alts_of {
            for p in alts {
                filters.push(p.filter);
            }
        }
        for f in filters {
            ids.push((f, self.filter(f)));
        }
        let id_of = |f: Filter| ids.iter().find(|(g, _)| *g == f).map(|&(_, i)| i);
        let mut near = Vec::with_capacity(cells);
        let mut all = Vec::with_capacity(cells);
        per_cell(&mut |from| {
            start.push(u32::try_from(targets.len()).unwrap_or(u32::MAX));
            let (mut n, mut a) = (Wide::EMPTY, Wide::EMPTY);
            for (i, &v) in vecs.iter().enumerate() {
                let to = links.link(v, from);
                if to == NO_CELL || to == from {
                    continue;
                }
                let first = u32::try_from(paths.len()).unwrap_or(u32::MAX);
                let checked = i < alts_of.len();
                let mut possible = !checked;
                if let Some(alts) = alts_of.get(i) {
                    for p in alts {
                        let mut set = Wide::EMPTY;
                        let mut never = false;
                        for &pv in &p.cells {
                            let c = links.link(pv, from);
                            if c == NO_CELL {
                                never |= !p.filter.has(HOLE_BIT);
                            } else {
                                set.insert(c);
                            }
                        }
                        n |= set;
                        possible |= !never;
                        paths.push(LamePath {
                            cells: set,
                            filter: id_of(p.filter).unwrap_or(0),
                            never,
                        });
                    }
                }
                if possible {
                    a.insert(to);
                }
                let count = u32::try_from(paths.len()).unwrap_or(u32::MAX) - first;
                targets.push(LameTarget {
                    to,
                    first,
                    count,
                    checked,
                });
            }
            near.push(n);
            all.push(a);
        });
        start.push(u32::try_from(targets.len()).unwrap_or(u32::MAX));
        let first = paths.first().map(|p: &LamePath| p.filter);
        let one = first
            .filter(|&f| paths.iter().all(|p| p.filter == f))
            .map(|f| (f, near, all));
        Form::Lame {
            start,
            targets,
            paths,
            one,
        }
    }

    /// The cells filter `f` admits on `board`, those of `vac` read as empty (a piece has left
    /// them, or stands there).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn admitted(&self, board: &RangeBoard, f: FilterId, vac: Wide) -> Wide {
        let base = board.ok[usize::from(f)].without(vac);
        if self.filters[usize::from(f)].1 {
            base | vac
        } else {
            base
        }
    }

    /// The cell-set form of a kind's movement program for `side`, if it has one.
    #[inline]
    pub fn move_program(&self, kind: usize, side: Side) -> Option<&MoveProgram> {
        self.moves.get(kind)?.as_ref().map(|p| &p[side])
    }

    /// The leading `emit` ops of a kind's movement program of chains for `side`, in cell
    /// sets, if they have a form here.
    #[inline]
    pub fn lead(&self, kind: usize, side: Side) -> Option<&LeadForm> {
        self.leads.get(kind)?.as_ref().map(|p| &p[side])
    }

    /// Whether one of the legs the chains of `lead` may begin with can land, for the piece on
    /// `from` (as [`BitRanges::landings`] reads the board): where none can, the chains have
    /// no option. True where the form does not know ([`LeadForm::knows_entry`]).
    #[inline]
    pub fn may_enter(
        &self,
        lead: &LeadForm,
        links: &LinkTable,
        board: &RangeBoard,
        from: Cell,
    ) -> bool {
        lead.entry
            .as_ref()
            .is_none_or(|e| !self.landings(e, links, board, from, |_| true).is_empty())
    }

    /// Every cell the piece of `side` with movement program `prog` on `from` may land on,
    /// `board` being the position as it stands (the piece's cell read as empty, as the
    /// interpreter reads it); `in_region` tells whether `from` is in the piece's region (for
    /// `emit … from`). The destinations of [`crate::vm::Machine::moves`], each once: an
    /// option captures the piece on its cell, if any, and collects or destroys the stone
    /// there, if any (see [`crate::vm::landed_on`]).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn landings(
        &self,
        prog: &MoveProgram,
        links: &LinkTable,
        board: &RangeBoard,
        from: Cell,
        in_region: impl Fn(RegionId) -> bool,
    ) -> Wide {
        let home = Wide::of(from);
        // As `range` reads the board, the piece's cell (the only one the path has been on)
        // read as empty.
        let ok = move |f: FilterId| self.admitted(board, f, home);
        let mut out = Wide::EMPTY;
        for l in &prog.legs {
            if l.from.is_none_or(&in_region) {
                let reach = match &l.form {
                    Form::Leaps(sets) => sets[from.index()],
                    Form::Jump { jumps, pass } => jumps.cells(ok(*pass), from),
                    form => self.leg_cells(form, links, &ok, from, home),
                };
                out |= reach & board.ok[usize::from(l.land)];
            }
        }
        out.without(home)
    }

    /// The cell-set form of a kind's placement range for `side`, if it has one.
    #[inline]
    pub fn program(&self, kind: usize, side: Side) -> Option<&RangeProgram> {
        self.progs.get(kind)?.as_ref().map(|p| &p[side])
    }

    /// The placement range of a piece of `side` with program `prog` standing on `at`, having
    /// come from `vacated` (`vacated == at`: it has not moved): `board` is the position as it
    /// stands, read with both cells empty; `in_region` tells whether `at` is in the piece's
    /// region (for `emit … from`). The same cells as [`crate::vm::Machine::range`] gives on
    /// the position with the move played.
    ///
    /// Always inlined, as `leg_cells` is: a set of four words returned from a
    /// call is stored a word or two at a time and read back two words at a time, a load that
    /// must wait for the stores to retire (Bollwerk 178 perft 2: -6% time for this one, -3%
    /// more for `leg_cells`).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn range(
        &self,
        prog: &RangeProgram,
        links: &LinkTable,
        board: &RangeBoard,
        at: Cell,
        vacated: Cell,
        in_region: impl Fn(RegionId) -> bool,
    ) -> Wide {
        let home = Wide::of(at);
        let vac = home | Wide::of(vacated);
        // The cells filter `f` admits, with the two cells read as empty. (`move`: a set the
        // closure refers to is kept in memory, and each read of it waited for its stores.)
        let ok = move |f: FilterId| self.admitted(board, f, vac);
        let mut out = Wide::EMPTY;
        for l in &prog.legs {
            if l.from.is_none_or(&in_region) {
                // Steps, free leaps and jumps (the common legs) read without a call.
                out |= match &l.form {
                    Form::Leaps(sets) => sets[at.index()].without(home),
                    Form::Jump { jumps, pass } => jumps.cells(ok(*pass), at).without(home),
                    form => self.leg_cells(form, links, &ok, at, home),
                };
            }
        }
        if !prog.pairs.is_empty() {
            // A path goes on only from a cell that is empty (as the path reads it); it enters
            // neither the piece's cell nor the one it goes on from.
            let empty = ok(0);
            for (first, second) in &prog.pairs {
                if first.from.is_some_and(|r| !in_region(r)) {
                    continue;
                }
                let on = self.leg_cells(&first.form, links, &ok, at, home) & empty;
                out |= self.legs_from_each(second, links, &ok, on, home);
            }
        }
        out
    }

    /// The union of [`BitRanges::leg_cells`] from each cell `t` of `on`, closed to `home` and
    /// `t`: the form is matched once, and steps, leaps and jumps are read without a call per
    /// cell (the second leg of a two-leg path goes on from every cell the first one reaches).
    #[inline]
    fn legs_from_each(
        &self,
        form: &Form,
        links: &LinkTable,
        ok: &impl Fn(FilterId) -> Wide,
        on: Wide,
        home: Wide,
    ) -> Wide {
        let mut out = Wide::EMPTY;
        match form {
            Form::Leaps(sets) => {
                for t in on.cells() {
                    let mut cells = sets[t.index()];
                    cells.remove(t);
                    out |= cells;
                }
            }
            Form::Jump { jumps, pass } => {
                let pass = ok(*pass);
                for t in on.cells() {
                    let mut cells = jumps.cells(pass, t);
                    cells.remove(t);
                    out |= cells;
                }
            }
            _ => {
                for t in on.cells() {
                    out |= self.leg_cells(form, links, ok, t, home | Wide::of(t));
                }
            }
        }
        out.without(home)
    }

    /// The cells one leg of form `form` reaches from `from`, never entering a cell of
    /// `closed` (which holds `from`): a ride stops before one. `ok` gives each filter's cells.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn leg_cells(
        &self,
        form: &Form,
        links: &LinkTable,
        ok: &impl Fn(FilterId) -> Wide,
        from: Cell,
        closed: Wide,
    ) -> Wide {
        let mut out = Wide::EMPTY;
        match form {
            Form::Leaps(sets) => out = sets[from.index()],
            Form::Lame {
                start,
                targets,
                paths,
                one,
            } => {
                if let Some((f, near, all)) = one
                    && near[from.index()].without(ok(*f)).is_empty()
                {
                    out = all[from.index()];
                } else {
                    let range = start[from.index()] as usize..start[from.index() + 1] as usize;
                    for t in &targets[range] {
                        let ps = &paths[t.first as usize..(t.first + t.count) as usize];
                        if !t.checked
                            || ps
                                .iter()
                                .any(|p| !p.never && p.cells.without(ok(p.filter)).is_empty())
                        {
                            out.insert(t.to);
                        }
                    }
                }
            }
            Form::Rays { vs, pass } => {
                // A closed cell stops the ray too: it is cut there and taken out below.
                let stops = !ok(*pass) | closed;
                for &(v, grows) in vs {
                    let base = usize::from(v) * self.cells;
                    let mut ray = self.rays[base + from.index()];
                    let block = ray & stops;
                    if !block.is_empty() {
                        let first = if grows {
                            block.lowest()
                        } else {
                            block.highest()
                        };
                        ray = ray.without(self.rays[base + first]);
                    }
                    out |= ray;
                }
            }
            Form::Walk { vs, min, max, pass } => {
                let pass = ok(*pass);
                for &v in vs {
                    walk(links, v, from, closed, (*min, *max), pass, &mut out);
                }
            }
            Form::Jump { jumps, pass } => out = jumps.cells(ok(*pass), from),
            Form::Hop {
                vs,
                min,
                max,
                pass,
                screen,
                pass_empty,
            } => {
                let (pass, screen, empty) = (ok(*pass), ok(*screen), ok(0));
                for &v in vs {
                    if let Some(s) = hop_screen(links, v, from, pass, screen, empty, *pass_empty) {
                        walk(links, v, s, closed, (*min, *max), empty, &mut out);
                    }
                }
            }
        }
        out.without(closed)
    }
}

/// A hop's screen along `v` from `at`: the first cell of `screen` past the cells of `pass`
/// (and empty cells, if `pass_empty`), or `None`.
#[inline]
fn hop_screen(
    links: &LinkTable,
    v: u16,
    at: Cell,
    pass: Wide,
    screen: Wide,
    empty: Wide,
    pass_empty: bool,
) -> Option<Cell> {
    let mut c = at;
    loop {
        c = links.link(v, c);
        if c == NO_CELL {
            return None;
        }
        if empty.has(c) {
            if !pass_empty {
                return None;
            }
        } else if screen.has(c) {
            return Some(c);
        } else if !pass.has(c) {
            return None;
        }
    }
}

/// A ride along `v` from `from` (not itself a landing) through the cells of `pass`: the cells
/// `min` to `max` away into `out`, stopping before a cell of `closed` and after a cell not in
/// `pass`.
#[inline]
fn walk(
    links: &LinkTable,
    v: u16,
    from: Cell,
    closed: Wide,
    (min, max): (u32, u32),
    pass: Wide,
    out: &mut Wide,
) {
    let (mut c, mut dist) = (from, 0u32);
    loop {
        c = links.link(v, c);
        if c == NO_CELL || closed.has(c) {
            return;
        }
        dist += 1;
        if dist > max {
            return;
        }
        if dist >= min {
            out.insert(c);
        }
        if !pass.has(c) {
            return;
        }
    }
}

/// The paths of a range program as lists of at most two legs, each with the region its start
/// must be in, read from its ops as the straight reading runs them (an `emit`, or legs up to an
/// `accept`); `None` for anything else (a region test after a leg, maximal repetitions, more
/// ops than a short program has).
fn paths_of(p: &Program) -> Option<Vec<(Option<RegionId>, Vec<u16>)>> {
    struct Walker<'a> {
        ops: &'a [Op],
        out: Vec<(Option<RegionId>, Vec<u16>)>,
        steps: u32,
    }
    impl Walker<'_> {
        fn go(
            &mut self,
            mut pc: usize,
            mut region: Option<RegionId>,
            legs: &mut Vec<u16>,
        ) -> Option<()> {
            loop {
                self.steps += 1;
                if self.steps > 4096 {
                    return None;
                }
                match *self.ops.get(pc)? {
                    Op::Emit(l) if legs.is_empty() => {
                        self.out.push((region, vec![l]));
                        pc += 1;
                    }
                    Op::EmitFrom(l, r) if legs.is_empty() && region.is_none() => {
                        self.out.push((Some(r), vec![l]));
                        pc += 1;
                    }
                    Op::Leg(l) => {
                        // A third leg: only the general interpreter reads such a path.
                        if legs.len() == 2 {
                            return None;
                        }
                        legs.push(l);
                        let r = self.go(pc + 1, region, legs);
                        legs.pop();
                        return r;
                    }
                    Op::Split(a, b) => {
                        self.go(a as usize, region, legs)?;
                        pc = b as usize;
                    }
                    Op::Goto(t) => pc = t as usize,
                    Op::At(r) if legs.is_empty() && region.is_none() => {
                        region = Some(r);
                        pc += 1;
                    }
                    Op::Accept => {
                        if !legs.is_empty() {
                            self.out.push((region, legs.clone()));
                        }
                        return Some(());
                    }
                    Op::End => return Some(()),
                    _ => return None,
                }
            }
        }
    }
    if p.marks != 0 {
        return None;
    }
    let mut w = Walker {
        ops: &p.ops,
        out: Vec::new(),
        steps: 0,
    };
    w.go(0, None, &mut Vec::new())?;
    Some(w.out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The landings of the jumps from `from` over a cell of `pass`, read pair by pair.
    fn by_pairs(pairs: &[(Cell, Cell)], pass: Wide) -> Wide {
        let mut out = Wide::EMPTY;
        for &(over, to) in pairs {
            if pass.has(over) {
                out.insert(to);
            }
        }
        out
    }

    proptest! {
        /// A cell's jumps answer alike with a one-word window (jumped cells within 64 of the
        /// lowest, all distinct) and without one (wider apart, or a cell jumped twice).
        #[test]
        fn jumps_land_where_the_pairs_say_with_a_window_or_without(
            per in prop::collection::vec(
                prop::collection::vec((0usize..256, 0usize..256), 0..9), 1..12),
            spread in prop::collection::vec(0usize..4, 12),
            pass in prop::array::uniform4(any::<u64>()),
        ) {
            // Some cells' jumped cells squeezed near one another, so most have a window.
            let per: Vec<Vec<(Cell, Cell)>> = per
                .iter()
                .zip(&spread)
                .map(|(pairs, &s)| {
                    pairs
                        .iter()
                        .map(|&(o, t)| {
                            let o = if s == 0 { o } else { 100 + o % (20 * s) };
                            (Cell::new(o), Cell::new(t))
                        })
                        .collect()
                })
                .collect();
            let jumps = Jumps::new(per.clone());
            let pass = Wide(pass);
            for (c, pairs) in per.iter().enumerate() {
                prop_assert_eq!(jumps.cells(pass, Cell::new(c)), by_pairs(pairs, pass));
            }
        }
    }

    #[test]
    fn jumps_take_the_window_only_where_it_holds_every_jumped_cell_once() {
        let cell = Cell::new;
        let jumps = Jumps::new(vec![
            vec![
                (cell(70), cell(1)),
                (cell(10), cell(2)),
                (cell(73), cell(3)),
            ],
            vec![(cell(10), cell(1)), (cell(74), cell(2))],
            vec![(cell(5), cell(1)), (cell(5), cell(2))],
            vec![],
        ]);
        assert_eq!(jumps.window[0], (10, 1 | 1 << 60 | 1 << 63));
        assert_eq!(jumps.window[1].0, NO_WINDOW);
        assert_eq!(jumps.window[2].0, NO_WINDOW);
        assert_eq!(jumps.window[3], (0, 0));
        let pass = Wide::of(cell(73)) | Wide::of(cell(5)) | Wide::of(cell(74));
        assert_eq!(jumps.cells(pass, cell(0)), Wide::of(cell(3)));
        assert_eq!(jumps.cells(pass, cell(1)), Wide::of(cell(2)));
        assert_eq!(
            jumps.cells(pass, cell(2)),
            Wide::of(cell(1)) | Wide::of(cell(2))
        );
        assert!(jumps.cells(Wide::first(256), cell(3)).is_empty());
    }
}
