//! The compiler: lowers a parsed definition to a flat [`Program`] of ops over precomputed link
//! tables. Names (pieces, stones, classes, regions, directions) are resolved here against the
//! variant's declarations; nothing about a particular game is known to this module.

// Sizes: offsets lie within ±16, a definition has at most MAX_OPS ops and legs, vector ids
// number at most 33 × 33, kinds and regions are bounded by their id types; the casts between
// these small integers cannot truncate or wrap.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

pub mod bits;
pub mod ranges;
pub mod walk;
pub mod wide;
pub mod zobrist;

use std::fmt::Write as _;

use crate::board::{Cell, LinkTable, Side, Topology};
pub use crate::core::Filter;
use crate::core::filter::{EMPTY_BIT, ENEMY0, HOLE_BIT, OWN0, STONE0};
use crate::core::names::{edit_distance, suggest};
use crate::core::{BySide, Code, Diagnostic, PieceKindId, RegionId};
use crate::dsl::{self, Direction, FilterAtom, LegKind, Modifier, Node, Span};

/// Most piece kinds a variant may declare.
pub const MAX_PIECE_KINDS: usize = crate::core::PieceKindId::MAX;
/// Most stone kinds a variant may declare.
pub const MAX_STONE_KINDS: usize = crate::core::StoneKindId::MAX;
/// Most repetitions a bounded quantifier may ask for.
pub const MAX_BOUND: u32 = 32;

/// Most ops one compiled definition may have. Repetitions multiply (`(x{32}){32}` is 1024
/// copies of `x`), so the size is computed before anything is emitted and a definition over
/// the limit is a diagnostic at its largest repetition, never an allocation that aborts.
pub const MAX_OPS: usize = 20_000;

/// The number of ops `n` compiles to (at least; saturating).
fn op_count(n: &Node) -> usize {
    match n {
        Node::Leg(_) | Node::At(_) | Node::Fragment(_) => 1,
        Node::Seq(v, _) => v.iter().map(op_count).fold(0, usize::saturating_add),
        Node::Alt(v, _) => v
            .iter()
            .map(|x| op_count(x).saturating_add(2))
            .fold(0, usize::saturating_add),
        Node::Repeat {
            node,
            min,
            max,
            maximal,
            ..
        } => {
            let body = op_count(node);
            let min = (*min).min(MAX_BOUND) as usize;
            let mark = usize::from(*maximal);
            let extra = match max {
                None => body.saturating_add(2 + mark),
                Some(m) => ((*m).min(MAX_BOUND) as usize)
                    .saturating_sub(min)
                    .saturating_mul(body.saturating_add(1 + mark)),
            };
            body.saturating_mul(min).saturating_add(extra)
        }
    }
}

/// The outermost repetition whose body alone stays under [`MAX_OPS`] while it does not: where
/// a definition that is too large should be pointed at.
fn largest_repeat(n: &Node) -> Span {
    match n {
        Node::Seq(v, _) | Node::Alt(v, _) => v
            .iter()
            .max_by_key(|x| op_count(x))
            .map_or(n.span(), largest_repeat),
        Node::Repeat { node, span, .. } if op_count(node) <= MAX_OPS => *span,
        Node::Repeat { node, .. } => largest_repeat(node),
        _ => n.span(),
    }
}

/// How a leg treats an enemy piece on its landing cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureMode {
    /// Never lands on a piece.
    MoveOnly,
    /// May land on an enemy piece and capture it.
    May,
    /// Must land on an enemy piece and capture it.
    Only,
}

/// One alternative path of a leap: cells (as vector ids from the origin) and what they may
/// hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathCode {
    /// Vector ids of the path's cells, relative to the leap's origin.
    pub cells: Vec<u16>,
    /// What each cell may hold.
    pub filter: Filter,
}

/// A compiled leg.
#[derive(Debug, Clone)]
pub struct LegCode {
    /// The primitive.
    pub kind: LegKind,
    /// Vector ids of its directions or offsets, per side (White, Black).
    pub vecs: BySide<Vec<u16>>,
    /// Per side, per vector: the alternative paths (empty: a free leap).
    pub paths: BySide<Vec<Vec<PathCode>>>,
    /// Fewest cells of a ride.
    pub min: u32,
    /// Most cells of a ride.
    pub max: u32,
    /// What the cells a ride or hop runs through, or a jump's jumped cell, may hold.
    pub pass: Filter,
    /// What a hop may use as its screen.
    pub screen: Filter,
    /// Capture on landing.
    pub capture: CaptureMode,
    /// Which enemy pieces a landing may capture.
    pub victims: Filter,
    /// Captures the enemy piece jumped over or hopped over.
    pub take: bool,
    /// Stones it may land on and destroy.
    pub destroy: Filter,
    /// Its source text, for listings.
    pub text: String,
}

impl LegCode {
    /// Whether the two legs walk, land and capture alike (their source text aside).
    pub fn same_walk(&self, other: &LegCode) -> bool {
        self.kind == other.kind
            && self.vecs == other.vecs
            && self.paths == other.paths
            && (self.min, self.max) == (other.min, other.max)
            && (self.pass, self.screen) == (other.pass, other.screen)
            && (self.capture, self.victims) == (other.capture, other.victims)
            && (self.take, self.destroy) == (other.take, other.destroy)
    }

    /// Whether the leg can capture (landing, or taking the jumped piece).
    pub fn can_capture(&self) -> bool {
        self.capture != CaptureMode::MoveOnly || self.take
    }
}

/// One instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Fast path: run the leg from the origin and emit every landing as an option; continue.
    Emit(u16),
    /// [`Op::Emit`] when the origin is in the mover's region (else nothing); continue.
    EmitFrom(u16, RegionId),
    /// Run the leg; each landing continues at the next op (backtracking).
    Leg(u16),
    /// Explore the first target, then continue at the second.
    Split(u32, u32),
    /// Continue at the target.
    Goto(u32),
    /// Continue only while the current cell is in the mover's region.
    At(RegionId),
    /// The path so far is a complete option.
    Accept,
    /// Stop this path.
    End,
    /// A maximal repetition's choice point: explore the first target (one more repetition);
    /// continue at the second (stop repeating) only if no path from the first reached the
    /// mark, that is, only if no further repetition was possible.
    Greedy(u32, u32, u16),
    /// One repetition of a maximal repetition is complete: counts an arrival at the mark.
    Mark(u16),
}

/// The compiled form of one definition.
#[derive(Debug, Clone)]
pub struct Program {
    /// The instructions; execution starts at 0.
    pub ops: Vec<Op>,
    /// The legs the ops refer to.
    pub legs: Vec<LegCode>,
    /// Whether any path has more than one leg (so chains and dedup are possible).
    pub chains: bool,
    /// Whether every path has at most one leg (region conditions aside).
    pub single_leg: bool,
    /// The most legs a path can have (`u32::MAX`: no bound).
    pub max_legs: u32,
    /// Where a path of a program of one leg can capture, relative to its cell (read through
    /// [`AttackReach`]); `None` when that cannot be bounded. Set by the loader.
    pub reach: Option<BySide<ReachMap>>,
    /// A plain program: only `emit` ops (perhaps behind a region test at the piece's cell,
    /// `emit … from`) over steps, free leaps and rides along fixed vectors (no paths, no hops
    /// or jumps, nothing taken in passing). The VM lists its options without copying the
    /// board (see [`Program::is_plain`]); set by the loader.
    pub plain: bool,
    /// A plain program none of whose (leg, vector) pairs can land where another can, from any
    /// cell (see [`Program::is_disjoint`]): its landings need no check for repeats. Set by the
    /// loader.
    pub disjoint: bool,
    /// How many maximal repetitions (`+!`, `*!`, …) the program has: their marks are
    /// numbered from 0.
    pub marks: u16,
    /// The legs a path can begin with after the leading `emit` ops, where every path from
    /// there begins with a leg (through `split` and `goto` only): a piece none of whose legs
    /// here can land has no option beyond its emits (see [`Program::entry_legs`]). Set by the
    /// loader.
    pub entry: Option<Vec<u16>>,
    /// The ops from which every path goes on with any number of one leg that reads the board
    /// the same whatever cells the path has been on, then ends (a chain of jumps that may stop
    /// after any jump): where the order of the options does not matter, the interpreter finds
    /// their landings cell by cell instead of path by path (see [`Program::closure_heads`]).
    /// Set by the loader.
    pub closures: Vec<Closure>,
}

/// An op from which a program's paths repeat one leg and then end (see
/// [`Program::closures`]): every cell the leg can reach from the path's cell, leg after leg,
/// without landing twice on a cell, is a landing of some path, and no other cell is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closure {
    /// The op: a `leg` (`once`) or the `split` of the repetition.
    pub pc: u32,
    /// The leg repeated.
    pub leg: u16,
    /// The path takes the leg at least once (the op is a `leg`); else it may end where it
    /// stands.
    pub once: bool,
}

/// The offsets (files, ranks) from its cell at which a piece can capture, as a bitmap over
/// every offset a board of `files` × `ranks` has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReachMap {
    files: i32,
    ranks: i32,
    bits: Vec<u64>,
}

impl ReachMap {
    fn new(files: i32, ranks: i32) -> ReachMap {
        let n = ((2 * files - 1) * (2 * ranks - 1)).max(0) as usize;
        ReachMap {
            files,
            ranks,
            bits: vec![0; n.div_ceil(64)],
        }
    }

    fn index(&self, df: i32, dr: i32) -> Option<usize> {
        (df.abs() < self.files && dr.abs() < self.ranks)
            .then(|| ((dr + self.ranks - 1) * (2 * self.files - 1) + df + self.files - 1) as usize)
    }

    /// Adds the multiples `k * v` for `k` in `min..=max` that fit the board.
    fn add(&mut self, v: (i8, i8), min: u32, max: u32) {
        let (vf, vr) = (i32::from(v.0), i32::from(v.1));
        if vf == 0 && vr == 0 {
            return;
        }
        let mut k = min.max(1);
        while k <= max {
            let Ok(m) = i32::try_from(k) else { break };
            let Some(i) = self.index(m * vf, m * vr) else {
                break;
            };
            self.bits[i / 64] |= 1 << (i % 64);
            k += 1;
        }
    }
}

/// The reach maps ([`Program::reach`]) of the attack programs of every piece kind, per side,
/// in one table: the first test of an attack query, read with one load.
#[derive(Debug, Clone, Default)]
pub struct AttackReach {
    words: Vec<u64>,
    /// Per kind and side (`2 * kind + side`): where its map starts in `words`, or `u32::MAX`
    /// when it has none (every cell could be reached).
    base: Vec<u32>,
    /// Added to the target's offset key less the origin's: the bit index in a map.
    center: u32,
    /// On boards of at most 128 cells, per target cell and then per kind and side
    /// (`target * 2 * kinds + 2 * kind + side`): the cells from which such a piece could
    /// capture on the target, as a cell set (every cell where the kind has no map). Empty on
    /// larger boards.
    from_sets: Vec<u128>,
    /// `2 * kinds`: the length of a target's row in `from_sets`.
    row: usize,
}

impl AttackReach {
    /// The table of these attack programs (in kind order) on a board of `files` × `ranks`.
    pub fn new<'a>(attacks: impl Iterator<Item = &'a Program>, files: i32, ranks: i32) -> Self {
        let mut t = AttackReach {
            center: u32::try_from((ranks - 1) * (2 * files - 1) + files - 1).unwrap_or(0),
            ..AttackReach::default()
        };
        for prog in attacks {
            for side in [Side::White, Side::Black] {
                match &prog.reach {
                    Some(r) if r[side].files == files && r[side].ranks == ranks => {
                        t.base
                            .push(u32::try_from(t.words.len()).unwrap_or(u32::MAX));
                        t.words.extend_from_slice(&r[side].bits);
                    }
                    _ => t.base.push(u32::MAX),
                }
            }
        }
        t
    }

    /// The table with its cell sets ([`AttackReach::from_set_row`]) on `topo`, when the board
    /// has at most 128 cells: each bit is [`AttackReach::could_capture`]'s answer, found from
    /// the offsets each map holds.
    #[must_use]
    pub fn with_cell_sets(mut self, topo: &Topology) -> Self {
        let n = topo.len();
        if n > 128 {
            return self;
        }
        let (files, ranks) = (
            i32::try_from(topo.files()).unwrap_or(0),
            i32::try_from(topo.ranks()).unwrap_or(0),
        );
        let width = 2 * files - 1;
        let bits = usize::try_from(width * (2 * ranks - 1)).unwrap_or(0);
        self.row = self.base.len();
        let mut sets = vec![0u128; n * self.row];
        for (i, &base) in self.base.iter().enumerate() {
            // The offsets from a target back to the cells that could capture on it; `None`:
            // every cell could.
            let back: Option<Vec<(i8, i8)>> = (base != u32::MAX)
                .then(|| {
                    (0..bits)
                        .filter(|&b| {
                            let w = self.words[base as usize + b / 64];
                            w & (1 << (b % 64)) != 0
                        })
                        .map(|b| {
                            let b = i32::try_from(b).ok()?;
                            let (dr, df) = (b / width - (ranks - 1), b % width - (files - 1));
                            Some((i8::try_from(-df).ok()?, i8::try_from(-dr).ok()?))
                        })
                        .collect()
                })
                .flatten();
            for to in topo.cells() {
                let set = &mut sets[to.index() * self.row + i];
                *set = match &back {
                    None => u128::MAX,
                    Some(back) => back
                        .iter()
                        .filter_map(|&v| topo.offset(to, v))
                        .fold(0, |m, from| m | 1u128 << from.index()),
                };
            }
        }
        self.from_sets = sets;
        self
    }

    /// For the target cell `to`, per kind and side (`2 * kind + side`), the cells from which
    /// such a piece could capture on it; `None` on boards above 128 cells.
    #[inline]
    pub fn from_set_row(&self, to: Cell) -> Option<&[u128]> {
        if self.from_sets.is_empty() {
            return None;
        }
        self.from_sets
            .get(to.index() * self.row..(to.index() + 1) * self.row)
    }

    /// Whether a piece of `kind` and `side` could capture from one cell on another at all, by
    /// the geometry of its attack program's legs alone (true where the program has no
    /// [`Program::reach`]), given the cells' [`Topology::offset_key`]s.
    #[inline]
    pub fn could_capture(&self, kind: PieceKindId, side: Side, from: u32, to: u32) -> bool {
        let Some(&base) = self.base.get(2 * kind.index() + side.index()) else {
            return true;
        };
        if base == u32::MAX {
            return true;
        }
        // Every offset between two cells of the board is in the map's range.
        let i = (to + self.center - from) as usize;
        self.words
            .get(base as usize + i / 64)
            .is_none_or(|w| w & (1 << (i % 64)) != 0)
    }
}

impl Program {
    /// [`Program::reach`] with these link tables and board: per side, where the program's
    /// legs can capture (landing, or taking the cell they pass); `None` for a program with
    /// paths of several legs or vectors that depend on the cell's class.
    pub fn reach_table(&self, links: &LinkTable, topo: &Topology) -> Option<BySide<ReachMap>> {
        if !self.single_leg || self.marks != 0 {
            return None;
        }
        let (files, ranks) = (
            i32::try_from(topo.files()).ok()?,
            i32::try_from(topo.ranks()).ok()?,
        );
        let mut out = BySide::both(ReachMap::new(files, ranks));
        for l in self.legs.iter().filter(|l| l.can_capture()) {
            for (side, vecs) in l.vecs.iter() {
                for &v in vecs {
                    if links.is_virtual(v) {
                        return None;
                    }
                    let (min, max) = walk::reach(l);
                    out[side].add(links.vector(v), min, max);
                }
            }
        }
        Some(out)
    }

    /// Whether no two of the program's (leg, vector) pairs land on the same offset from the
    /// piece's cell, on a board of `files` × `ranks`, for either side (a ride lands on every
    /// multiple of its vector in its distance bounds). Meant for plain programs, whose vectors
    /// are the same from every cell.
    pub fn is_disjoint(&self, links: &LinkTable, files: i32, ranks: i32) -> bool {
        for side in [Side::White, Side::Black] {
            let mut seen = std::collections::HashSet::new();
            // Every leg as often as an op emits it; a program with other ops is not plain.
            for op in &self.ops {
                let l = match *op {
                    Op::Emit(l) | Op::EmitFrom(l, _) => &self.legs[l as usize],
                    Op::End => continue,
                    _ => return false,
                };
                let (min, max) = walk::reach(l);
                for &v in &l.vecs[side] {
                    let (vf, vr) = links.vector(v);
                    let (vf, vr) = (i32::from(vf), i32::from(vr));
                    let mut k = min;
                    while k <= max {
                        let Ok(m) = i32::try_from(k) else { break };
                        let (df, dr) = (m * vf, m * vr);
                        if df.abs() >= files || dr.abs() >= ranks || (vf == 0 && vr == 0 && k > 1) {
                            break;
                        }
                        if !seen.insert((df, dr)) {
                            return false;
                        }
                        k += 1;
                    }
                }
            }
        }
        true
    }

    /// The legs every path after the leading `emit` ops begins with (see [`Program::entry`]):
    /// `None` when there are no ops after the emits, or a path from there can meet another op
    /// (a region test, an accept, a maximal repetition) before its first leg.
    pub fn entry_legs(&self) -> Option<Vec<u16>> {
        let start = self
            .ops
            .iter()
            .position(|op| !matches!(op, Op::Emit(_) | Op::EmitFrom(..)))?;
        let mut legs = Vec::new();
        let mut seen = vec![false; self.ops.len()];
        let mut todo = vec![start];
        while let Some(pc) = todo.pop() {
            if std::mem::replace(seen.get_mut(pc)?, true) {
                continue;
            }
            match self.ops[pc] {
                Op::Leg(l) => {
                    if !legs.contains(&l) {
                        legs.push(l);
                    }
                }
                Op::Split(a, b) => todo.extend([a as usize, b as usize]),
                Op::Goto(a) => todo.push(a as usize),
                _ => return None,
            }
        }
        Some(legs)
    }

    /// The ops of [`Program::closures`]: a `split` whose first branch is one leg and back to
    /// the `split`, and whose second goes (through `goto` ops only) to an accept; and a `leg`
    /// of the same walk right before such a `split`. The leg must be a step, leap or jump
    /// that takes nothing in passing: it reads no cell as visited but the one it lands on, so
    /// the cells its paths can end on are the cells reachable from where the path stands.
    pub fn closure_heads(&self) -> Vec<Closure> {
        let to_accept = |mut pc: usize| {
            for _ in 0..self.ops.len() {
                match self.ops.get(pc) {
                    Some(Op::Goto(t)) => pc = *t as usize,
                    Some(Op::Accept) => return true,
                    _ => return false,
                }
            }
            false
        };
        let repeatable = |l: u16| {
            self.legs.get(usize::from(l)).is_some_and(|leg| {
                !leg.take && matches!(leg.kind, LegKind::Step | LegKind::Leap | LegKind::Jump)
            })
        };
        let mut heads = Vec::new();
        for (pc, op) in self.ops.iter().enumerate() {
            let Op::Split(a, b) = *op else {
                continue;
            };
            let a = a as usize;
            let (Some(&Op::Leg(l)), Some(&Op::Goto(back))) = (self.ops.get(a), self.ops.get(a + 1))
            else {
                continue;
            };
            if back as usize != pc || !repeatable(l) || !to_accept(b as usize) {
                continue;
            }
            let Ok(split) = u32::try_from(pc) else {
                continue;
            };
            heads.push(Closure {
                pc: split,
                leg: l,
                once: false,
            });
            // The same leg once before the repetition: one or more.
            if let Some(before) = pc.checked_sub(1)
                && let Op::Leg(first) = self.ops[before]
                && self.legs[usize::from(first)].same_walk(&self.legs[usize::from(l)])
            {
                heads.push(Closure {
                    pc: split - 1,
                    leg: l,
                    once: true,
                });
            }
        }
        heads
    }

    /// Whether the program is plain (see [`Program::plain`]) with these link tables: every op
    /// an `emit` or `emit … from` (then the end), every leg a step, a leap without paths or a ride, that takes
    /// nothing in passing, along vectors that are the same from every cell.
    pub fn is_plain(&self, links: &crate::board::LinkTable) -> bool {
        self.is_straight()
            && self.legs.iter().all(|l| {
                l.vecs
                    .iter()
                    .all(|(_, v)| v.iter().all(|&v| !links.is_virtual(v)))
            })
    }

    /// Whether the program is plain but for its vectors, which may differ from cell to cell
    /// (directions by cell class): every op an `emit` or `emit … from` (then the end), every
    /// leg a step, a leap without paths or a ride, that takes nothing in passing. Its landings
    /// from a cell follow the links alone ([`crate::compile::bits`] reads attack programs of
    /// this shape).
    pub fn is_straight(&self) -> bool {
        let ops_plain = self
            .ops
            .iter()
            .all(|op| matches!(op, Op::Emit(_) | Op::EmitFrom(..) | Op::End));
        ops_plain
            && !self.chains
            && self.marks == 0
            && self.legs.iter().all(|l| {
                walk::traits(l.kind).reading != walk::Reading::General
                    && !l.take
                    && l.paths.iter().all(|(_, p)| p.is_empty())
            })
    }
}

/// Names the compiler resolves, in declaration order.
pub struct Names<'a> {
    /// Piece kind ids.
    pub pieces: &'a [String],
    /// Stone kind ids.
    pub stones: &'a [String],
    /// Class of each stone kind.
    pub stone_classes: &'a [String],
    /// Region ids.
    pub regions: &'a [String],
    /// Direction sets declared by the variant.
    pub directions: &'a [(String, Vec<(i8, i8)>)],
}

/// A problem in a definition, with its span in the definition text (the loader shifts it
/// into the file).
pub type CompileError = Diagnostic;

/// The built-in direction sets, for White (Black mirrors the rank).
pub const BUILTIN_DIRECTIONS: &[(&str, &[(i8, i8)])] = &[
    ("forward", &[(0, 1)]),
    ("backward", &[(0, -1)]),
    ("left", &[(-1, 0)]),
    ("right", &[(1, 0)]),
    ("sideways", &[(-1, 0), (1, 0)]),
    ("vertical", &[(0, 1), (0, -1)]),
    ("orthogonal", &[(0, 1), (1, 0), (0, -1), (-1, 0)]),
    ("diagonal", &[(1, 1), (1, -1), (-1, -1), (-1, 1)]),
    ("forward-diagonal", &[(-1, 1), (1, 1)]),
    ("backward-diagonal", &[(-1, -1), (1, -1)]),
    ("all", &crate::board::NEIGHBOURS),
    (
        "knight",
        &[
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ],
    ),
];

/// The path shapes `via` knows.
pub const PATH_SHAPES: &[(&str, &str)] = &[
    (
        "straight",
        "the cells on the straight line between origin and destination",
    ),
    (
        "lshape",
        "two L-shaped paths: all along the long side then across, or across first then along",
    ),
    (
        "flank",
        "for a two-cell orthogonal leap: either cell beside the middle cell (two paths)",
    ),
    (
        "orthogonal-first",
        "one orthogonal step towards the long side of the offset (a lame leaper's leg)",
    ),
    (
        "orthogonal-then-diagonal",
        "one orthogonal step towards the long side, then diagonal steps outwards to the destination (janggi's elephant, [3,2]: two cells), for offsets whose long side is one longer than the short",
    ),
];

/// A vector as a listing shows it: its offset, or for a virtual vector (whose offset depends
/// on the cell's class) `classed#ID`.
fn vector_text(links: &LinkTable, v: u16) -> String {
    let (a, b) = links.vector(v);
    if links.is_virtual(v) {
        format!(
            "classed#{}{}",
            a - crate::board::VIRTUAL0,
            if b < 0 { "'" } else { "" }
        )
    } else {
        format!("({a}, {b})")
    }
}

fn mirror(v: (i8, i8), side: Side) -> (i8, i8) {
    match side {
        Side::White => v,
        Side::Black => (v.0, -v.1),
    }
}

fn sign(x: i32) -> i32 {
    x.signum()
}

/// Cells of one path shape for an offset, as offsets from the origin. `None`: the shape has no
/// path for that offset.
fn shape_paths(shape: &str, (a, b): (i32, i32)) -> Vec<Vec<(i32, i32)>> {
    let (sa, sb) = (sign(a), sign(b));
    match shape {
        "straight" => {
            if a == 0 || b == 0 || a.abs() == b.abs() {
                let n = a.abs().max(b.abs());
                vec![(1..n).map(|k| (sa * k, sb * k)).collect()]
            } else {
                vec![]
            }
        }
        "lshape" => {
            if a == 0 || b == 0 || a.abs() == b.abs() {
                return vec![];
            }
            let mut p1: Vec<(i32, i32)> = (1..=a.abs()).map(|k| (sa * k, 0)).collect();
            p1.extend((1..b.abs()).map(|k| (a, sb * k)));
            let mut p2: Vec<(i32, i32)> = (1..=b.abs()).map(|k| (0, sb * k)).collect();
            p2.extend((1..a.abs()).map(|k| (sa * k, b)));
            vec![p1, p2]
        }
        "flank" => {
            if b == 0 && a.abs() == 2 {
                vec![vec![(sa, 1)], vec![(sa, -1)]]
            } else if a == 0 && b.abs() == 2 {
                vec![vec![(1, sb)], vec![(-1, sb)]]
            } else {
                vec![]
            }
        }
        "orthogonal-then-diagonal" => {
            // The cells before the destination: one step along the long side, then diagonal.
            if a.abs() == b.abs() + 1 && b != 0 {
                vec![(0..a.abs() - 1).map(|k| (sa * (k + 1), sb * k)).collect()]
            } else if b.abs() == a.abs() + 1 && a != 0 {
                vec![(0..b.abs() - 1).map(|k| (sa * k, sb * (k + 1))).collect()]
            } else {
                vec![]
            }
        }
        "orthogonal-first" => {
            if a.abs() > b.abs() && b != 0 {
                vec![vec![(sa, 0)]]
            } else if b.abs() > a.abs() && a != 0 {
                vec![vec![(0, sb)]]
            } else {
                vec![]
            }
        }
        _ => vec![],
    }
}

/// Compiles definitions of one variant, sharing one link table.
pub struct Compiler<'a> {
    topo: &'a Topology,
    names: Names<'a>,
    /// The shared link table, grown as programs need vectors.
    pub links: LinkTable,
}

struct Emitter<'c, 'a> {
    c: &'c mut Compiler<'a>,
    src: &'c str,
    ops: Vec<Op>,
    legs: Vec<LegCode>,
    errors: Vec<CompileError>,
    chains: bool,
    marks: u16,
}

fn err(span: Span, code: Code, message: String, label: &str, help: String) -> CompileError {
    Diagnostic::error(code, (span.start, span.end), message, label, help)
}

/// The most legs a path of the definition can have (`u32::MAX`: no bound).
fn most_legs(n: &Node) -> u32 {
    fn most(n: &Node) -> u32 {
        match n {
            Node::Leg(_) | Node::Fragment(_) => 1,
            Node::At(_) => 0,
            Node::Seq(v, _) => v.iter().map(most).fold(0u32, u32::saturating_add),
            Node::Alt(v, _) => v.iter().map(most).max().unwrap_or(0),
            Node::Repeat { node, max, .. } => match (most(node), max) {
                (0, _) => 0,
                (k, Some(m)) => k.saturating_mul(*m),
                (_, None) => u32::MAX,
            },
        }
    }
    most(n)
}

fn nullable(n: &Node) -> bool {
    match n {
        Node::Leg(_) | Node::Fragment(_) => false,
        Node::At(_) => true,
        Node::Seq(v, _) => v.iter().all(nullable),
        Node::Alt(v, _) => v.iter().any(nullable),
        Node::Repeat { node, min, .. } => *min == 0 || nullable(node),
    }
}

impl<'a> Compiler<'a> {
    /// A compiler for a board and the variant's names.
    pub fn new(topo: &'a Topology, names: Names<'a>) -> Self {
        Compiler {
            topo,
            names,
            links: LinkTable::new(topo.len()),
        }
    }

    /// Compiles the part of a definition that can capture: the top-level alternatives with a
    /// leg that captures on landing or takes what it jumps. Attack tests run this program.
    pub fn compile_attacks(
        &mut self,
        src: &str,
        node: &Node,
    ) -> Result<Program, Vec<CompileError>> {
        fn captures(n: &Node) -> bool {
            match n {
                Node::Leg(l) => l.mods.iter().any(|m| {
                    matches!(
                        m,
                        Modifier::Capture(..) | Modifier::CaptureOnly(..) | Modifier::Take(_)
                    )
                }),
                Node::At(_) | Node::Fragment(_) => false,
                Node::Seq(v, _) | Node::Alt(v, _) => v.iter().any(captures),
                Node::Repeat { node, .. } => captures(node),
            }
        }
        let alts: Vec<Node> = match node {
            Node::Alt(v, _) => v.iter().filter(|n| captures(n)).cloned().collect(),
            n if captures(n) => vec![n.clone()],
            _ => Vec::new(),
        };
        if alts.is_empty() {
            return Ok(Program {
                ops: vec![Op::End],
                legs: Vec::new(),
                chains: false,
                single_leg: true,
                max_legs: 1,
                reach: None,
                plain: false,
                disjoint: false,
                marks: 0,
                entry: None,
                closures: Vec::new(),
            });
        }
        let node = if alts.len() == 1 {
            alts.into_iter().next().expect("one")
        } else {
            Node::Alt(alts, node.span())
        };
        self.compile(src, &node)
    }

    /// Compiles one definition (its text, for listings, and its parsed AST).
    pub fn compile(&mut self, src: &str, node: &Node) -> Result<Program, Vec<CompileError>> {
        let mut e = Emitter {
            c: self,
            src,
            ops: Vec::new(),
            legs: Vec::new(),
            errors: Vec::new(),
            chains: false,
            marks: 0,
        };
        e.check_loops(node);
        let size = op_count(node);
        if size > MAX_OPS {
            e.errors.push(err(
                largest_repeat(node),
                Code::TooLarge,
                format!("this definition compiles to {size} ops or more; the limit is {MAX_OPS}"),
                "repetitions multiply here",
                "nested repetitions multiply their counts: use fewer or smaller bounds, or `*` and `+`".into(),
            ));
            return Err(e.errors);
        }
        // Top-level alternatives of a single leg (behind a region test or not) become `Emit`
        // ops: the leg is run from the origin and every landing is an option.
        let alts: Vec<&Node> = match node {
            Node::Alt(v, _) => v.iter().collect(),
            n => vec![n],
        };
        let mut rest = Vec::new();
        for a in alts {
            match a {
                Node::Leg(l) => {
                    if let Some(id) = e.leg(l) {
                        e.ops.push(Op::Emit(id));
                    }
                }
                // `at(region) leg`: the same, from a cell of the region only.
                Node::Seq(v, _)
                    if v.len() == 2
                        && matches!(&v[1], Node::Leg(_))
                        && let Node::At(name) = &v[0]
                        && let Some(r) = e.c.names.regions.iter().position(|r| *r == name.text) =>
                {
                    if let Node::Leg(l) = &v[1]
                        && let Some(id) = e.leg(l)
                    {
                        e.ops.push(Op::EmitFrom(id, RegionId::new(r)));
                    }
                }
                n => rest.push(n.clone()),
            }
        }
        if rest.is_empty() {
            e.ops.push(Op::End);
        } else {
            let rest = if rest.len() == 1 {
                rest.pop().expect("one")
            } else {
                Node::Alt(rest, node.span())
            };
            e.chains = !matches!(rest, Node::Leg(_));
            e.node(&rest);
            e.ops.push(Op::Accept);
        }
        if e.errors.is_empty() {
            Ok(Program {
                ops: e.ops,
                legs: e.legs,
                chains: e.chains,
                single_leg: most_legs(node) <= 1,
                max_legs: most_legs(node),
                reach: None,
                plain: false,
                disjoint: false,
                marks: e.marks,
                entry: None,
                closures: Vec::new(),
            })
        } else {
            Err(e.errors)
        }
    }
}

impl Emitter<'_, '_> {
    fn check_loops(&mut self, n: &Node) {
        match n {
            Node::Leg(_) | Node::At(_) => {}
            Node::Fragment(name) => {
                const MODIFIERS: [&str; 9] = [
                    "capture",
                    "capture-only",
                    "take",
                    "over",
                    "screen",
                    "via",
                    "destroy",
                    "dist",
                    "at",
                ];
                let close = MODIFIERS.iter().find(|m| edit_distance(m, &name.text) <= 2);
                let help = match close {
                    Some(m) => format!(
                        "a bare name is a fragment from [fragments]; did you mean the modifier `{m}`?"
                    ),
                    None => "declare it in [fragments] above its first use, or write a leg such as `step(all)`".into(),
                };
                self.errors.push(err(
                    name.span,
                    Code::UnknownFragment,
                    format!("`{}` is not a fragment of this variant", name.text),
                    "not a fragment",
                    help,
                ));
            }
            Node::Seq(v, _) | Node::Alt(v, _) => v.iter().for_each(|x| self.check_loops(x)),
            Node::Repeat {
                node,
                min,
                max,
                maximal,
                span,
            } => {
                self.check_loops(node);
                if *maximal && *max == Some(*min) {
                    self.errors.push(err(
                        *span,
                        Code::BadBounds,
                        format!("a repetition of exactly {min} never stops early, so `!` changes nothing"),
                        "`!` on a fixed count",
                        format!("remove the `!`, or allow fewer repetitions: `{{0,{min}}}!`"),
                    ));
                }
                if let Some(m) = max {
                    if m < min {
                        self.errors.push(err(
                            *span,
                            Code::BadBounds,
                            format!("repetition bounds {{{min},{m}}} are reversed"),
                            "the most is less than the fewest",
                            "write {fewest,most} with fewest <= most".into(),
                        ));
                    } else if *m > MAX_BOUND {
                        self.errors.push(err(*span, Code::BadBounds, format!("repetition bound {m} is too large"), "too many repetitions", format!("bounded repetition allows at most {MAX_BOUND}; use `*` or `+` for an unbounded chain")));
                    }
                } else if *min > MAX_BOUND {
                    self.errors.push(err(
                        *span,
                        Code::BadBounds,
                        format!("repetition bound {min} is too large"),
                        "too many repetitions",
                        format!("bounded repetition allows at most {MAX_BOUND}"),
                    ));
                }
                if max.is_none() && nullable(node) {
                    self.errors.push(err(
                        node.span(),
                        Code::EmptyLoop,
                        "this part can match without moving, so repeating it never ends".into(),
                        "may match without a leg",
                        "make every alternative inside the repetition move at least one leg".into(),
                    ));
                }
            }
        }
    }

    fn node(&mut self, n: &Node) {
        match n {
            // Reported by `check_loops`: the loader replaces every fragment it knows.
            Node::Fragment(_) => {}
            Node::Leg(l) => {
                if let Some(id) = self.leg(l) {
                    self.ops.push(Op::Leg(id));
                }
            }
            Node::At(name) => match self.c.names.regions.iter().position(|r| *r == name.text) {
                Some(i) => self.ops.push(Op::At(RegionId::new(i))),
                None => {
                    let help = suggest(&name.text, self.c.names.regions.iter().map(String::as_str));
                    self.errors.push(err(
                        name.span,
                        Code::UnknownRegion,
                        format!("unknown region `{}`", name.text),
                        "not a region of this variant",
                        help,
                    ));
                }
            },
            Node::Seq(v, _) => v.iter().for_each(|x| self.node(x)),
            Node::Alt(v, _) => {
                let mut ends = Vec::new();
                for (i, a) in v.iter().enumerate() {
                    if i + 1 < v.len() {
                        let split = self.ops.len();
                        self.ops.push(Op::Split(0, 0));
                        self.node(a);
                        ends.push(self.ops.len());
                        self.ops.push(Op::Goto(0));
                        let next = self.ops.len() as u32;
                        self.ops[split] = Op::Split(split as u32 + 1, next);
                    } else {
                        self.node(a);
                    }
                }
                let end = self.ops.len() as u32;
                for g in ends {
                    self.ops[g] = Op::Goto(end);
                }
            }
            Node::Repeat {
                node,
                min,
                max,
                maximal,
                ..
            } => {
                let min = (*min).min(MAX_BOUND);
                for _ in 0..min {
                    self.node(node);
                }
                // A maximal repetition numbers a mark that each completed repetition passes.
                let mark = if *maximal {
                    let m = self.marks;
                    self.marks = self.marks.saturating_add(1);
                    Some(m)
                } else {
                    None
                };
                let choice = |a: u32, b: u32| match mark {
                    Some(m) => Op::Greedy(a, b, m),
                    None => Op::Split(a, b),
                };
                match max {
                    None => {
                        let top = self.ops.len();
                        self.ops.push(Op::Split(0, 0));
                        self.node(node);
                        if let Some(m) = mark {
                            self.ops.push(Op::Mark(m));
                        }
                        self.ops.push(Op::Goto(top as u32));
                        let end = self.ops.len() as u32;
                        self.ops[top] = choice(top as u32 + 1, end);
                    }
                    Some(m) => {
                        let m = (*m).clamp(min, MAX_BOUND);
                        let mut splits = Vec::new();
                        for _ in min..m {
                            splits.push(self.ops.len());
                            self.ops.push(Op::Split(0, 0));
                            self.node(node);
                            if let Some(k) = mark {
                                self.ops.push(Op::Mark(k));
                            }
                        }
                        let end = self.ops.len() as u32;
                        for s in splits {
                            self.ops[s] = choice(s as u32 + 1, end);
                        }
                    }
                }
            }
        }
    }

    fn filter(&mut self, f: &dsl::Filter) -> Filter {
        let mut out = Filter::NONE;
        for t in &f.terms {
            let mut bits = match &t.atom {
                FilterAtom::Group(g) => self.filter(g),
                FilterAtom::Owned { own, kind } => {
                    let base = if *own { OWN0 } else { ENEMY0 };
                    match kind {
                        None => Filter(
                            (0..self.c.names.pieces.len() as u32)
                                .fold(0, |acc, k| acc | 1u128 << (base + k)),
                        ),
                        Some(k) => match self.piece(k) {
                            Some(i) => Filter(1u128 << (base + i)),
                            None => Filter::NONE,
                        },
                    }
                }
                FilterAtom::Name(n) => self.named_filter(n),
                FilterAtom::All(terms) => {
                    let mut all = self.universe();
                    for t in terms {
                        let one = self.filter(&dsl::Filter {
                            terms: vec![t.clone()],
                            span: t.span,
                        });
                        all = Filter(all.0 & one.0);
                    }
                    all
                }
            };
            if t.negated {
                bits = Filter(!bits.0 & self.universe().0);
            }
            out = Filter(out.0 | bits.0);
        }
        out
    }

    fn universe(&self) -> Filter {
        let n = &self.c.names;
        let mut u = Filter::NONE.with(EMPTY_BIT).with(HOLE_BIT);
        for k in 0..n.pieces.len() as u32 {
            u = u.with(OWN0 + k).with(ENEMY0 + k);
        }
        for k in 0..n.stones.len() as u32 {
            u = u.with(STONE0 + k);
        }
        u
    }

    fn enemies(&self) -> Filter {
        Filter((0..self.c.names.pieces.len() as u32).fold(0, |a, k| a | 1u128 << (ENEMY0 + k)))
    }

    fn piece(&mut self, n: &dsl::Name) -> Option<u32> {
        let p = self.c.names.pieces.iter().position(|p| *p == n.text);
        if p.is_none() {
            let help = suggest(&n.text, self.c.names.pieces.iter().map(String::as_str));
            self.errors.push(err(
                n.span,
                Code::UnknownPiece,
                format!("unknown piece kind `{}`", n.text),
                "not a piece of this variant",
                help,
            ));
        }
        p.map(|p| p as u32)
    }

    fn named_filter(&mut self, n: &dsl::Name) -> Filter {
        let names = &self.c.names;
        let pieces = names.pieces.len() as u32;
        match n.text.as_str() {
            "empty" => return Filter::EMPTY,
            "piece" => {
                return Filter(
                    (0..pieces).fold(0, |a, k| a | 1u128 << (OWN0 + k) | 1u128 << (ENEMY0 + k)),
                );
            }
            "stone" => {
                return Filter(
                    (0..names.stones.len() as u32).fold(0, |a, k| a | 1u128 << (STONE0 + k)),
                );
            }
            _ => {}
        }
        if let Some(k) = names.stones.iter().position(|s| *s == n.text) {
            return Filter(1u128 << (STONE0 + k as u32));
        }
        if names.stone_classes.contains(&n.text) {
            return Filter(
                names
                    .stone_classes
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c == n.text)
                    .fold(0, |a, (k, _)| a | 1u128 << (STONE0 + k as u32)),
            );
        }
        if let Some(k) = names.pieces.iter().position(|p| *p == n.text) {
            return Filter(1u128 << (OWN0 + k as u32) | 1u128 << (ENEMY0 + k as u32));
        }
        let mut known: Vec<&str> = vec!["empty", "piece", "stone", "own", "enemy"];
        let mut classes: Vec<&str> = names.stone_classes.iter().map(String::as_str).collect();
        classes.dedup();
        known.extend(classes);
        known.extend(names.stones.iter().map(String::as_str));
        known.extend(names.pieces.iter().map(String::as_str));
        let help = suggest(&n.text, known);
        self.errors.push(err(
            n.span,
            Code::UnknownOccupant,
            format!("unknown occupant `{}`", n.text),
            "not an occupant name of this variant",
            help,
        ));
        Filter::NONE
    }

    fn directions(&mut self, dirs: &[Direction]) -> Vec<(i8, i8)> {
        let mut out: Vec<(i8, i8)> = Vec::new();
        for d in dirs {
            let vs: Vec<(i8, i8)> = match d {
                Direction::Offset(a, b, span) => {
                    if a.unsigned_abs() > 16 || b.unsigned_abs() > 16 || (*a == 0 && *b == 0) {
                        self.errors.push(err(
                            *span,
                            Code::BadOffset,
                            format!("offset [{a},{b}] is not usable"),
                            "out of range",
                            "an offset needs two numbers between -16 and 16, not both zero".into(),
                        ));
                        continue;
                    }
                    let (a, b) = (*a as i8, *b as i8);
                    [
                        (a, b),
                        (b, a),
                        (-a, b),
                        (-b, a),
                        (a, -b),
                        (b, -a),
                        (-a, -b),
                        (-b, -a),
                    ]
                    .to_vec()
                }
                Direction::Named(n) => {
                    if let Some((_, v)) = self.c.names.directions.iter().find(|(k, _)| *k == n.text)
                    {
                        v.clone()
                    } else if let Some((set, first)) =
                        self.c.topo.classed().find(|(c, _)| c.name == n.text)
                    {
                        (0..set.offsets.len())
                            .map(|j| {
                                (
                                    crate::board::VIRTUAL0
                                        + i8::try_from(first + j).unwrap_or(i8::MAX - 64),
                                    1,
                                )
                            })
                            .collect()
                    } else if let Some((_, v)) =
                        BUILTIN_DIRECTIONS.iter().find(|(k, _)| *k == n.text)
                    {
                        v.to_vec()
                    } else {
                        let known = BUILTIN_DIRECTIONS
                            .iter()
                            .map(|(k, _)| *k)
                            .chain(self.c.names.directions.iter().map(|(k, _)| k.as_str()))
                            .chain(self.c.topo.classed().map(|(c, _)| c.name.as_str()));
                        let help = suggest(&n.text, known);
                        self.errors.push(err(
                            n.span,
                            Code::UnknownDirection,
                            format!("unknown direction `{}`", n.text),
                            "not a direction",
                            help,
                        ));
                        continue;
                    }
                }
            };
            for v in vs {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        out
    }

    fn leg(&mut self, l: &dsl::Leg) -> Option<u16> {
        let before = self.errors.len();
        let vectors = self.directions(&l.dirs);
        let mut code = LegCode {
            kind: l.kind,
            vecs: BySide::default(),
            paths: BySide::default(),
            min: 1,
            max: u32::MAX,
            pass: match walk::traits(l.kind).passing {
                walk::Passing::Jumped => {
                    Filter(self.universe().0 & !(Filter::EMPTY.0 | 1u128 << HOLE_BIT))
                }
                walk::Passing::Line | walk::Passing::Nothing => Filter::EMPTY,
            },
            screen: Filter(self.universe().0 & !(Filter::EMPTY.0 | 1u128 << HOLE_BIT)),
            capture: CaptureMode::MoveOnly,
            victims: self.enemies(),
            take: false,
            destroy: Filter::NONE,
            text: l
                .text
                .as_deref()
                .or_else(|| self.src.get(l.span.start..l.span.end))
                .unwrap_or("")
                .lines()
                .map(|line| line.split('#').next().unwrap_or(""))
                .flat_map(str::split_whitespace)
                .collect::<Vec<_>>()
                .join(" "),
        };
        let vias = self.modifiers(l, &mut code);
        self.check_directions(l, &vectors, &vias);
        if self.errors.len() > before {
            return None;
        }
        self.lower_vectors(&mut code, &vectors, &vias);
        self.legs.push(code);
        Some((self.legs.len() - 1) as u16)
    }

    /// `capture` or `capture-only` (`m`), with its filter of victims.
    fn capture_modifier(
        &mut self,
        m: &Modifier,
        f: Option<&dsl::Filter>,
        s: Span,
        code: &mut LegCode,
    ) {
        if code.capture != CaptureMode::MoveOnly {
            self.errors.push(err(
                s,
                Code::DuplicateModifier,
                "`capture` and `capture-only` exclude each other".into(),
                "conflicts with the other",
                "keep one of them".into(),
            ));
        }
        code.capture = if matches!(m, Modifier::Capture(..)) {
            CaptureMode::May
        } else {
            CaptureMode::Only
        };
        if let Some(f) = f {
            let enemies = self.enemies();
            let v = self.filter(f);
            if v.0 & !enemies.0 != 0 || v.0 == 0 {
                self.errors.push(err(
                    f.span,
                    Code::BadCapture,
                    "a capture filter may name enemy pieces only".into(),
                    "names something that is not an enemy piece",
                    "write e.g. capture(enemy guard), capture(enemy guard | enemy knight) or capture(enemy !blockade) (every enemy piece but the Blockade)"
                        .into(),
                ));
            }
            code.victims = Filter(v.0 & enemies.0);
        }
    }

    /// `destroy(f)`: the stones it names.
    fn destroy_filter(&mut self, f: &dsl::Filter, s: Span) -> Filter {
        let f = self.filter(f);
        let stones =
            (0..self.c.names.stones.len() as u32).fold(0u128, |a, k| a | 1u128 << (STONE0 + k));
        if f.0 & !stones != 0 {
            self.errors.push(err(
                s,
                Code::BadDestroy,
                "`destroy` may name stones only".into(),
                "names something that is not a stone",
                "name stone kinds or stone classes, e.g. destroy(arrow)".into(),
            ));
        }
        Filter(f.0 & stones)
    }

    /// Reads a leg's modifiers into its code (filters, capture mode, distance, take,
    /// destroy), reporting misused and repeated ones; returns its `via` paths.
    fn modifiers(&mut self, l: &dsl::Leg, code: &mut LegCode) -> Vec<(String, Filter, Span)> {
        let mut vias: Vec<(String, Filter, Span)> = Vec::new();
        let mut seen: Vec<&'static str> = Vec::new();
        for m in &l.mods {
            let word = m.word();
            if !m.applies_to(l.kind) {
                let kinds: Vec<&str> = LegKind::ALL
                    .into_iter()
                    .filter(|&k| m.applies_to(k))
                    .map(LegKind::keyword)
                    .collect();
                self.errors.push(err(
                    m.span(),
                    Code::BadModifier,
                    format!("`{word}` does not apply to a {} leg", l.kind.keyword()),
                    "not for this leg",
                    format!("`{word}` applies to: {}", kinds.join(", ")),
                ));
                continue;
            }
            if word != "via" && seen.contains(&word) {
                self.errors.push(err(
                    m.span(),
                    Code::DuplicateModifier,
                    format!("`{word}` is given twice"),
                    "given again here",
                    "give each modifier once (only `via` may repeat)".into(),
                ));
                continue;
            }
            seen.push(word);
            match m {
                Modifier::Capture(f, s) | Modifier::CaptureOnly(f, s) => {
                    self.capture_modifier(m, f.as_ref(), *s, code);
                }
                Modifier::Take(_) => code.take = true,
                Modifier::Over(f, _) => {
                    let f = self.filter(f);
                    // A jump's jumped cell must match; a line always passes empty cells too.
                    code.pass = match walk::traits(l.kind).passing {
                        walk::Passing::Jumped => f,
                        walk::Passing::Line | walk::Passing::Nothing => {
                            Filter(f.0 | Filter::EMPTY.0)
                        }
                    };
                }
                Modifier::Screen(f, _) => code.screen = self.filter(f),
                Modifier::Via(shape, f, s) => {
                    if !PATH_SHAPES.iter().any(|(k, _)| *k == shape.text) {
                        let help = suggest(&shape.text, PATH_SHAPES.iter().map(|(k, _)| *k));
                        self.errors.push(err(
                            shape.span,
                            Code::UnknownPath,
                            format!("unknown path shape `{}`", shape.text),
                            "not a path shape",
                            help,
                        ));
                    }
                    let f = self.filter(f);
                    vias.push((shape.text.clone(), f, *s));
                }
                Modifier::Destroy(f, s) => code.destroy = self.destroy_filter(f, *s),
                Modifier::Dist(lo, hi, s) => {
                    code.min = lo.unwrap_or(1);
                    code.max = hi.unwrap_or(u32::MAX);
                    if code.min == 0 || code.min > code.max {
                        self.errors.push(err(
                            *s,
                            Code::BadDistance,
                            "a distance must be at least 1 and the range not reversed".into(),
                            "not a usable distance",
                            "write dist(n), dist(n..m) with 1 <= n <= m, dist(..m) or dist(n..); on a hop it counts the cells beyond the screen"
                                .into(),
                        ));
                    }
                }
            }
        }
        vias
    }

    /// Checks the leg's directions against its kind (steps and jumps go one cell) and its
    /// `via` shapes against its offsets.
    fn check_directions(
        &mut self,
        l: &dsl::Leg,
        vectors: &[(i8, i8)],
        vias: &[(String, Filter, Span)],
    ) {
        // Point at the directions, not at the whole leg (which runs on over comments).
        let dir_span = |l: &dsl::Leg| {
            let spans: Vec<Span> = l
                .dirs
                .iter()
                .map(|d| match d {
                    Direction::Named(n) => n.span,
                    Direction::Offset(_, _, s) => *s,
                })
                .collect();
            match (spans.first(), spans.last()) {
                (Some(a), Some(b)) => Span {
                    start: a.start,
                    end: b.end,
                },
                _ => l.span,
            }
        };
        // Virtual vectors (classed directions) are one link whatever their offsets.
        let plain: Vec<(i8, i8)> = vectors
            .iter()
            .copied()
            .filter(|&(a, _)| a < crate::board::VIRTUAL0)
            .collect();
        if plain.len() < vectors.len() && !vias.is_empty() {
            self.errors.push(err(
                dir_span(l),
                Code::UnknownPath,
                "`via` needs plain offsets, not a direction set that depends on the cell".into(),
                "a classed direction",
                "give the leap's offsets (e.g. leap([2,0])) to use `via`".into(),
            ));
            return;
        }
        let vectors = &plain[..];
        if let Some(limit) = walk::traits(l.kind).adjacent
            && vectors.iter().any(|&(a, b)| a.abs() > 1 || b.abs() > 1)
        {
            self.errors.push(err(
                dir_span(l),
                limit.code,
                limit.message.into(),
                "offset longer than one cell",
                limit.help.into(),
            ));
        }
        for (shape, _, s) in vias {
            if vectors
                .iter()
                .all(|&(a, b)| shape_paths(shape, (i32::from(a), i32::from(b))).is_empty())
                && PATH_SHAPES.iter().any(|(k, _)| *k == shape.as_str())
            {
                self.errors.push(err(
                    *s,
                    Code::NoPath,
                    format!("path shape `{shape}` has no path for any offset of this leap"),
                    "never applies",
                    "shapes: straight (along a line: [2,0], [2,2]), lshape and orthogonal-first (knight-like [2,1]), flank (beside the middle cell of [2,0] or [2,2]), orthogonal-then-diagonal (long side one longer than the short: [2,1], [3,2])".into(),
                ));
            }
        }
    }

    /// The leg's vectors and paths for each side (Black's mirrored), interned in the link
    /// tables.
    fn lower_vectors(
        &mut self,
        code: &mut LegCode,
        vectors: &[(i8, i8)],
        vias: &[(String, Filter, Span)],
    ) {
        for side in Side::BOTH {
            for &v in vectors {
                let mv = mirror(v, side);
                let id = self.c.links.intern(self.c.topo, mv);
                code.vecs[side].push(id);
                if !vias.is_empty() {
                    let mut alts = Vec::new();
                    for (shape, f, _) in vias {
                        for path in shape_paths(shape, (i32::from(v.0), i32::from(v.1))) {
                            let cells = path
                                .into_iter()
                                .map(|(x, y)| {
                                    self.c
                                        .links
                                        .intern(self.c.topo, mirror((x as i8, y as i8), side))
                                })
                                .collect();
                            alts.push(PathCode { cells, filter: *f });
                        }
                    }
                    code.paths[side].push(alts);
                }
            }
        }
    }
}

impl Program {
    /// A readable listing of the program.
    pub fn listing(&self, links: &LinkTable, names: &Names<'_>) -> String {
        let mut out = String::new();
        for (pc, op) in self.ops.iter().enumerate() {
            let _ = match *op {
                Op::Emit(l) => writeln!(out, "{pc:4}  emit   L{l}"),
                Op::EmitFrom(l, r) => writeln!(
                    out,
                    "{pc:4}  emit   L{l} from {}",
                    names.regions.get(r.index()).map_or("?", String::as_str)
                ),
                Op::Leg(l) => writeln!(out, "{pc:4}  leg    L{l}"),
                Op::Split(a, b) => writeln!(out, "{pc:4}  split  {a}, {b}"),
                Op::Greedy(a, b, m) => writeln!(out, "{pc:4}  greedy {a}, {b} (M{m})"),
                Op::Mark(m) => writeln!(out, "{pc:4}  mark   M{m}"),
                Op::Goto(t) => writeln!(out, "{pc:4}  goto   {t}"),
                Op::At(r) => writeln!(
                    out,
                    "{pc:4}  at     {}",
                    names.regions.get(r.index()).map_or("?", String::as_str)
                ),
                Op::Accept => writeln!(out, "{pc:4}  accept"),
                Op::End => writeln!(out, "{pc:4}  end"),
            };
        }
        for (i, l) in self.legs.iter().enumerate() {
            leg_listing(&mut out, i, l, links, names);
        }
        out
    }
}

/// The listing of leg `i` of a program (see [`Program::listing`]).
fn leg_listing(out: &mut String, i: usize, l: &LegCode, links: &LinkTable, names: &Names<'_>) {
    let _ = writeln!(out, "  L{i}: {}", l.text);
    let vecs: Vec<String> = l.vecs[Side::White]
        .iter()
        .map(|&v| vector_text(links, v))
        .collect();
    let _ = write!(out, "      {} {}", l.kind.keyword(), vecs.join(" "));
    let traits = walk::traits(l.kind);
    if traits.reading == walk::Reading::Ride && (l.min != 1 || l.max != u32::MAX) {
        let max = if l.max == u32::MAX {
            String::new()
        } else {
            l.max.to_string()
        };
        let _ = write!(out, " dist {}..{}", l.min, max);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "      capture: {}",
        match (l.capture, l.take) {
            (CaptureMode::MoveOnly, false) => "none (move only)",
            (CaptureMode::MoveOnly, true) => "takes the jumped piece",
            (CaptureMode::May, false) => "may capture on landing",
            (CaptureMode::May, true) => "may capture on landing; takes the jumped piece",
            (CaptureMode::Only, false) => "must capture on landing",
            (CaptureMode::Only, true) => "must capture on landing; takes the jumped piece",
        }
    );
    let all_enemies = (0..names.pieces.len() as u32).fold(0u128, |a, k| a | 1u128 << (ENEMY0 + k));
    if l.capture != CaptureMode::MoveOnly && l.victims.0 != all_enemies {
        let _ = writeln!(out, "      victims: {}", describe(l.victims, names));
    }
    let word = match traits.passing {
        walk::Passing::Nothing => None,
        walk::Passing::Line => Some("passes"),
        walk::Passing::Jumped => Some("over"),
    };
    if let Some(word) = word {
        let _ = writeln!(out, "      {word}: {}", describe(l.pass, names));
    }
    if traits.screen {
        let _ = writeln!(out, "      screen: {}", describe(l.screen, names));
    }
    if l.destroy != Filter::NONE {
        let _ = writeln!(out, "      destroys: {}", describe(l.destroy, names));
    }
    if let Some(first) = l.paths[Side::White].first() {
        let _ = writeln!(out, "      paths per offset: {}", first.len());
        for (k, p) in l.paths[Side::White].iter().enumerate() {
            let cells: Vec<String> = p
                .iter()
                .map(|pc| {
                    let cs: Vec<String> = pc
                        .cells
                        .iter()
                        .map(|&c| format!("{:?}", links.vector(c)))
                        .collect();
                    format!("[{}] {}", cs.join(" "), describe(pc.filter, names))
                })
                .collect();
            let _ = writeln!(
                out,
                "        {:?}: {}",
                links.vector(l.vecs[Side::White][k]),
                cells.join(" | ")
            );
        }
    }
}

/// Describes a filter in words, for listings.
pub fn describe(f: Filter, names: &Names<'_>) -> String {
    let mut parts = Vec::new();
    let np = names.pieces.len() as u32;
    let own_all = (0..np).all(|k| f.has(OWN0 + k));
    let enemy_all = (0..np).all(|k| f.has(ENEMY0 + k));
    if f.has(EMPTY_BIT) {
        parts.push("empty".to_string());
    }
    if own_all && np > 0 {
        parts.push("own".to_string());
    } else {
        parts.extend(
            (0..np)
                .filter(|&k| f.has(OWN0 + k))
                .map(|k| format!("own {}", names.pieces[k as usize])),
        );
    }
    if enemy_all && np > 0 {
        parts.push("enemy".to_string());
    } else {
        parts.extend(
            (0..np)
                .filter(|&k| f.has(ENEMY0 + k))
                .map(|k| format!("enemy {}", names.pieces[k as usize])),
        );
    }
    parts.extend(
        (0..names.stones.len() as u32)
            .filter(|&k| f.has(STONE0 + k))
            .map(|k| names.stones[k as usize].clone()),
    );
    if f.has(HOLE_BIT) {
        parts.push("no cell".to_string());
    }
    if parts.is_empty() {
        "nothing".to_string()
    } else {
        parts.join(" | ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lshape_paths_follow_b13() {
        // B-13: for (2,1) the paths go via (1,0),(2,0) or via (0,1),(1,1).
        assert_eq!(
            shape_paths("lshape", (2, 1)),
            vec![vec![(1, 0), (2, 0)], vec![(0, 1), (1, 1)]]
        );
        assert_eq!(
            shape_paths("lshape", (-1, 2)),
            vec![vec![(-1, 0), (-1, 1)], vec![(0, 1), (0, 2)]]
        );
        assert!(shape_paths("lshape", (2, 2)).is_empty());
    }

    #[test]
    fn flank_paths_follow_b14() {
        assert_eq!(
            shape_paths("flank", (2, 0)),
            vec![vec![(1, 1)], vec![(1, -1)]]
        );
        assert_eq!(
            shape_paths("flank", (0, -2)),
            vec![vec![(1, -1)], vec![(-1, -1)]]
        );
        assert!(shape_paths("flank", (2, 2)).is_empty());
        assert_eq!(shape_paths("straight", (2, -2)), vec![vec![(1, -1)]]);
    }

    #[test]
    fn orthogonal_then_diagonal_paths_bend_outwards() {
        // Janggi's elephant: one step along the long side, then one diagonal step.
        assert_eq!(
            shape_paths("orthogonal-then-diagonal", (3, 2)),
            vec![vec![(1, 0), (2, 1)]]
        );
        assert_eq!(
            shape_paths("orthogonal-then-diagonal", (-2, -3)),
            vec![vec![(0, -1), (-1, -2)]]
        );
        // The horse's leg, as orthogonal-first.
        assert_eq!(
            shape_paths("orthogonal-then-diagonal", (2, -1)),
            shape_paths("orthogonal-first", (2, -1))
        );
        assert!(shape_paths("orthogonal-then-diagonal", (3, 1)).is_empty());
        assert!(shape_paths("orthogonal-then-diagonal", (2, 2)).is_empty());
    }
}
