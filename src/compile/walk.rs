//! What each leg kind means, in one place: the one walk of a step, a leap, a ride, a jump and
//! a hop ([`walk_leg`]), the one ride loop ([`ride`]), each kind's reach ([`reach`]) and its
//! row of [`traits`], which the compiler, the shortcut readers and the attack bounds ask
//! instead of matching on the kind (a new kind is added here and in the DSL only). The
//! general interpreter and the straight reading of short programs walk every leg here; plain
//! pieces, their attack questions and the cell sets call [`ride`] for their rides (their steps
//! and leaps are free: one link away). Each reader sees the board through a small trait
//! ([`Passage`], [`Board`]) implemented by a type of its own, so that each is compiled
//! specialised (a generic parameter, never a trait object).

use crate::board::{Cell, LinkTable, NO_CELL, Side};
use crate::core::Code;
use crate::core::Filter;
use crate::dsl::LegKind;
use crate::position::Occupant;

use super::LegCode;

/// How the readers that do not walk every leg (plain pieces, cell sets, the attack bounds)
/// may read a leg kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// It lands one vector away (a free leg, without paths between, is one link).
    Once,
    /// It runs along its vector through the cells it may pass (see [`ride`]).
    Ride,
    /// Only the general walk ([`walk_leg`]) reads it.
    General,
}

/// What a leg's `over(...)` and its default passing mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passing {
    /// It passes nothing (its paths, if any, say what they need).
    Nothing,
    /// Along a line: empty cells always, and what `over(...)` adds (listed as `passes`).
    Line,
    /// One jumped cell that must hold what `over(...)` names, by default any piece (listed
    /// as `over`).
    Jumped,
}

/// How an attack by a leg kind on a cell may be found from that cell (the check bounds of
/// `play`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack {
    /// From one vector away (with its paths, if any).
    Near,
    /// Along the line back from the cell.
    Line,
    /// Neither: the general walk must be asked.
    Unbounded,
}

/// A limit on a leg kind's offsets, with the error the compiler gives for a longer one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjacent {
    /// The error code.
    pub code: Code,
    /// What is wrong.
    pub message: &'static str,
    /// What to do instead.
    pub help: &'static str,
}

/// Everything the code outside this module asks of a leg kind: one row per kind in
/// [`traits`], beside its walk ([`walk_leg`]) and its reach ([`reach`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Traits {
    /// How the shortcut readers read it.
    pub reading: Reading,
    /// What it passes.
    pub passing: Passing,
    /// Whether it needs a screen (listed; an arriving piece can open its line).
    pub screen: bool,
    /// How its attacks are found.
    pub attack: Attack,
    /// Whether its offsets must be single cells, and the error otherwise.
    pub adjacent: Option<Adjacent>,
}

/// What a leg kind is, for the code outside this module. Every leg kind is matched here.
pub const fn traits(kind: LegKind) -> Traits {
    match kind {
        LegKind::Step => Traits {
            reading: Reading::Once,
            passing: Passing::Nothing,
            screen: false,
            attack: Attack::Near,
            adjacent: Some(Adjacent {
                code: Code::BadStep,
                message: "a step moves to a neighbouring cell; this one has a longer offset",
                help: "use leap([a,b]) for longer offsets",
            }),
        },
        LegKind::Leap => Traits {
            reading: Reading::Once,
            passing: Passing::Nothing,
            screen: false,
            attack: Attack::Near,
            adjacent: None,
        },
        LegKind::Ride => Traits {
            reading: Reading::Ride,
            passing: Passing::Line,
            screen: false,
            attack: Attack::Line,
            adjacent: None,
        },
        LegKind::Jump => Traits {
            reading: Reading::General,
            passing: Passing::Jumped,
            screen: false,
            attack: Attack::Unbounded,
            adjacent: Some(Adjacent {
                code: Code::BadJump,
                message: "a jump goes over a neighbouring cell; this one has a longer offset",
                help: "jump directions must be single steps (orthogonal or diagonal)",
            }),
        },
        LegKind::Hop => Traits {
            reading: Reading::General,
            passing: Passing::Line,
            screen: true,
            attack: Attack::Line,
            adjacent: None,
        },
    }
}

/// What a ride reads of the board: whether it may run on through a cell, and whether the
/// path may enter it at all.
pub trait Passage {
    /// Whether a ride (or a hop before its screen) of a piece of `side` whose leg passes
    /// `pass` may go on past `c`, a cell of the board.
    fn passes(&self, pass: Filter, side: Side, c: Cell) -> bool;

    /// Whether the path may not enter `c` at all (it has been there): a ride stops before it.
    #[inline]
    fn closed(&self, _c: Cell) -> bool {
        false
    }
}

/// What the walk of every leg kind reads of the board.
pub trait Board {
    /// What stands on `c`, a cell of the board, as the path sees it.
    fn occ(&self, c: Cell) -> Occupant;

    /// Whether the path may not enter `c` (see [`Passage::closed`]).
    #[inline]
    fn closed(&self, _c: Cell) -> bool {
        false
    }

    /// Whether a jump may not pass over `c`: a piece taken earlier in the path that stays
    /// where it is until the end of the turn.
    #[inline]
    fn jump_closed(&self, _c: Cell) -> bool {
        false
    }
}

impl<B: Board> Passage for B {
    #[inline]
    fn passes(&self, pass: Filter, side: Side, c: Cell) -> bool {
        pass.has(self.occ(c).bit_for(side))
    }

    #[inline]
    fn closed(&self, c: Cell) -> bool {
        Board::closed(self, c)
    }
}

/// The position's cells as they stand (a plain piece's view: nothing is closed).
pub struct Cells<'a>(pub &'a [Occupant]);

impl Board for Cells<'_> {
    #[inline]
    fn occ(&self, c: Cell) -> Occupant {
        self.0[c.index()]
    }
}

/// The cells that hold anything, as a cell set: a ride runs through the others only (the
/// cell-set form of a ride that passes empty cells and nothing else, see `bits`).
pub struct Occupied(pub u128);

impl Passage for Occupied {
    #[inline]
    fn passes(&self, _pass: Filter, _side: Side, c: Cell) -> bool {
        self.0 & super::bits::bit(c) == 0
    }
}

/// One line a ride runs along: its vector, its start (not itself a landing), the fewest and
/// most cells it goes, and what the cells it runs through may hold.
#[derive(Debug, Clone, Copy)]
pub struct Line {
    /// The vector id.
    pub v: u16,
    /// Where it starts.
    pub from: Cell,
    /// Fewest cells.
    pub min: u32,
    /// Most cells.
    pub max: u32,
    /// What it may run through.
    pub pass: Filter,
}

impl Line {
    /// The line of ride leg `l` along vector `v` from `from`.
    #[inline]
    pub fn of(l: &LegCode, v: u16, from: Cell) -> Line {
        Line {
            v,
            from,
            min: l.min,
            max: l.max,
            pass: l.pass,
        }
    }
}

/// A ride along `line` for a piece of `side`: each cell `min` to `max` away given to `land`
/// with its distance, nearest first, stopping before a closed cell, after a cell it may not
/// pass, or when `land` says `false`.
#[inline]
pub fn ride<P: Passage>(
    links: &LinkTable,
    board: &P,
    side: Side,
    line: Line,
    mut land: impl FnMut(Cell, u32) -> bool,
) {
    let mut c = line.from;
    let mut dist = 0u32;
    loop {
        c = links.link(line.v, c);
        if c == NO_CELL || board.closed(c) {
            return;
        }
        dist += 1;
        if dist > line.max {
            return;
        }
        if dist >= line.min && !land(c, dist) {
            return;
        }
        if !board.passes(line.pass, side, c) {
            return;
        }
    }
}

/// Every cell leg `l` of a piece of `side` may land on from `cur`, with the cell it passed
/// over (a jump's jumped cell or a hop's screen, else `NO_CELL`), in the order of its vectors.
/// What may stand on the landing cell is for the caller. Every leg kind is matched here.
#[inline]
pub fn walk_leg<B: Board>(
    l: &LegCode,
    side: Side,
    links: &LinkTable,
    cur: Cell,
    board: &B,
    land: &mut impl FnMut(Cell, Cell),
) {
    let bit = |c: Cell| {
        if c == NO_CELL {
            Filter::HOLE_BIT
        } else {
            board.occ(c).bit_for(side)
        }
    };
    let vecs = &l.vecs[side];
    match l.kind {
        LegKind::Step | LegKind::Leap if l.paths[side].is_empty() => {
            for &v in vecs {
                let t = links.link(v, cur);
                if t != NO_CELL && !Board::closed(board, t) {
                    land(t, NO_CELL);
                }
            }
        }
        LegKind::Step | LegKind::Leap => {
            let paths = &l.paths[side];
            for (i, &v) in vecs.iter().enumerate() {
                let t = links.link(v, cur);
                if t == NO_CELL || Board::closed(board, t) {
                    continue;
                }
                // A lame leap: some path of cells between must hold what it may pass.
                if let Some(alts) = paths.get(i) {
                    let free = alts.iter().any(|p| {
                        p.cells
                            .iter()
                            .all(|&pv| p.filter.has(bit(links.link(pv, cur))))
                    });
                    if !free {
                        continue;
                    }
                }
                land(t, NO_CELL);
            }
        }
        LegKind::Ride => {
            for &v in vecs {
                ride(links, board, side, Line::of(l, v, cur), |c, _| {
                    land(c, NO_CELL);
                    true
                });
            }
        }
        LegKind::Jump => {
            for &v in vecs {
                let over = links.link(v, cur);
                if over == NO_CELL || !l.pass.has(bit(over)) || board.jump_closed(over) {
                    continue;
                }
                let t = links.link(v, over);
                if t != NO_CELL && !Board::closed(board, t) {
                    land(t, over);
                }
            }
        }
        LegKind::Hop => {
            for &v in vecs {
                let screen = hop_screen(l, side, links, cur, v, board);
                if screen == NO_CELL {
                    continue;
                }
                // Beyond it: the empty run and the first occupant, the `min`th to `max`th
                // cells of them (all by default).
                let beyond = Line {
                    pass: Filter::EMPTY,
                    ..Line::of(l, v, screen)
                };
                ride(links, board, side, beyond, |c, _| {
                    land(c, screen);
                    true
                });
            }
        }
    }
}

/// A hop's screen along `v` from `cur`: the first occupant it may use, past the cells it may
/// pass (`NO_CELL` when there is none).
#[inline]
fn hop_screen<B: Board>(
    l: &LegCode,
    side: Side,
    links: &LinkTable,
    cur: Cell,
    v: u16,
    board: &B,
) -> Cell {
    let mut c = cur;
    loop {
        c = links.link(v, c);
        if c == NO_CELL {
            return NO_CELL;
        }
        let occ = board.occ(c);
        let b = occ.bit_for(side);
        if occ.is_empty() {
            if !l.pass.has(b) {
                return NO_CELL;
            }
        } else if l.screen.has(b) {
            return c;
        } else if !l.pass.has(b) {
            return NO_CELL;
        }
    }
}

/// How many times its vector away from its start a leg may land or take a piece, nearest and
/// farthest (`u32::MAX`: as far as the board goes): a step or leap once; a ride within its
/// distance bounds; a jump takes on the jumped cell and lands on the one beyond; a hop takes
/// its screen and lands beyond it.
pub fn reach(l: &LegCode) -> (u32, u32) {
    match l.kind {
        LegKind::Step | LegKind::Leap => (1, 1),
        LegKind::Ride => (l.min.max(1), l.max),
        LegKind::Jump => (if l.take { 1 } else { 2 }, 2),
        LegKind::Hop => (if l.take { 1 } else { 1 + l.min.max(1) }, u32::MAX),
    }
}

#[cfg(test)]
mod tests {
    //! Each leg kind's row in [`traits`] and its [`reach`] must agree with what its walk
    //! does: the shortcut readers trust the row and never walk the leg themselves.
    use super::*;
    use crate::board::Topology;
    use crate::compile::CaptureMode;
    use crate::core::filter::{EMPTY_BIT, HOLE_BIT};
    use crate::core::{BySide, PieceKindId};

    fn board() -> (Topology, LinkTable) {
        let files = "abcdefgh".chars().map(String::from).collect();
        let topo = Topology::new(files, 8, |_, _| true);
        let links = LinkTable::new(topo.len());
        (topo, links)
    }

    /// A leg of `kind` along `vectors`, as the compiler would give it without modifiers.
    fn leg(kind: LegKind, vecs: Vec<u16>) -> LegCode {
        // Anything but an empty cell or the edge.
        let pieces = Filter(!(1u128 << EMPTY_BIT | 1u128 << HOLE_BIT));
        LegCode {
            kind,
            vecs: BySide::new(vecs.clone(), vecs),
            paths: BySide::default(),
            min: 1,
            max: u32::MAX,
            pass: match traits(kind).passing {
                Passing::Jumped => pieces,
                Passing::Line | Passing::Nothing => Filter::EMPTY,
            },
            screen: pieces,
            capture: CaptureMode::May,
            victims: pieces,
            take: false,
            destroy: Filter::NONE,
            text: kind.keyword().into(),
        }
    }

    /// Boards of scattered pieces of both sides (a fixed pseudo-random sequence).
    fn boards(cells: usize) -> Vec<Vec<Occupant>> {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let mut out = vec![vec![Occupant::EMPTY; cells]];
        for density in [3, 5, 8] {
            out.push(
                (0..cells)
                    .map(|_| match next() % density {
                        0 => Occupant::piece(Side::White, PieceKindId::new(0)),
                        1 => Occupant::piece(Side::Black, PieceKindId::new(1)),
                        _ => Occupant::EMPTY,
                    })
                    .collect(),
            );
        }
        out
    }

    #[test]
    fn every_kinds_row_agrees_with_its_walk() {
        let (topo, mut links) = board();
        let offsets: [(i8, i8); 5] = [(1, 0), (1, 1), (0, -1), (2, 1), (-1, 2)];
        for kind in LegKind::ALL {
            let t = traits(kind);
            let vecs: Vec<u16> = offsets
                .iter()
                .filter(|&&(a, b)| t.adjacent.is_none() || a.abs() <= 1 && b.abs() <= 1)
                .map(|&v| links.intern(&topo, v))
                .collect();
            let l = leg(kind, vecs.clone());
            let (near, far) = reach(&l);
            for cells in boards(topo.len()) {
                for cur in topo.cells() {
                    let board = Cells(&cells);
                    let mut got = Vec::new();
                    walk_leg(&l, Side::White, &links, cur, &board, &mut |c, over| {
                        got.push((c, over));
                    });
                    // Every landing lies along one of its vectors, within its reach.
                    let (cf, cr) = topo.coord(cur);
                    for &(c, over) in &got {
                        let (f, r) = topo.coord(c);
                        let along = vecs.iter().filter_map(|&v| {
                            let (a, b) = links.vector(v);
                            let (a, b) = (i32::from(a), i32::from(b));
                            (1..=8).find(|k| (cf + k * a, cr + k * b) == (f, r))
                        });
                        let k = along
                            .min()
                            .unwrap_or_else(|| panic!("{kind:?} off its lines"));
                        assert!(
                            near <= k as u32 && k as u32 <= far,
                            "{kind:?} lands {k} away, outside its reach {near}..{far}"
                        );
                        // A kind without a screen or a jumped cell passes nothing over.
                        assert_eq!(
                            over != NO_CELL,
                            t.screen || t.passing == Passing::Jumped,
                            "{kind:?}"
                        );
                    }
                    let landed: Vec<Cell> = got.iter().map(|&(c, _)| c).collect();
                    match t.reading {
                        // One vector away, wherever that is on the board.
                        Reading::Once => {
                            let once: Vec<Cell> = vecs
                                .iter()
                                .map(|&v| links.link(v, cur))
                                .filter(|&c| c != NO_CELL)
                                .collect();
                            assert_eq!(landed, once, "{kind:?}");
                        }
                        // The shared ride, vector by vector.
                        Reading::Ride => {
                            let mut rode = Vec::new();
                            for &v in &vecs {
                                ride(&links, &board, Side::White, Line::of(&l, v, cur), |c, _| {
                                    rode.push(c);
                                    true
                                });
                            }
                            assert_eq!(landed, rode, "{kind:?}");
                        }
                        Reading::General => {}
                    }
                    // A near attack is found one vector back; a line attack anywhere along it.
                    if t.attack == Attack::Near {
                        assert!(far == 1, "{kind:?}");
                    }
                    // A kind with a screen, or one passing only pieces, lands nowhere on an
                    // empty board.
                    if (t.screen || t.passing == Passing::Jumped)
                        && cells.iter().all(|o| o.is_empty())
                    {
                        assert!(landed.is_empty(), "{kind:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn each_kind_from_one_cell() {
        // On the first rank: White on d1, Black on f1; every kind going east from a1 and c1.
        let (topo, mut links) = board();
        let east = links.intern(&topo, (1, 0));
        let cell = |n: &str| topo.parse_cell(n).unwrap();
        let mut cells = vec![Occupant::EMPTY; topo.len()];
        cells[cell("d1").index()] = Occupant::piece(Side::White, PieceKindId::new(0));
        cells[cell("f1").index()] = Occupant::piece(Side::Black, PieceKindId::new(1));
        let names = |kind: LegKind, from: &str| {
            let mut out = Vec::new();
            walk_leg(
                &leg(kind, vec![east]),
                Side::White,
                &links,
                cell(from),
                &Cells(&cells),
                &mut |c, _| {
                    out.push(topo.name(c));
                },
            );
            out.join(" ")
        };
        let rows: Vec<String> = LegKind::ALL
            .iter()
            .map(|&k| format!("{}: {} | {}", k.keyword(), names(k, "a1"), names(k, "c1")))
            .collect();
        assert_eq!(
            rows,
            [
                "step: b1 | d1",
                "leap: b1 | d1",
                "ride: b1 c1 d1 | d1",
                "hop: e1 f1 | e1 f1",
                "jump:  | e1",
            ]
        );
    }
}
