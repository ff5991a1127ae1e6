//! A static evaluation that needs no code for any game, built from the rule set alone:
//!
//! - material, from the pieces' values as declared in the variant file (`value`), or estimated
//!   where none is declared from how many cells the piece reaches on an empty board;
//! - placement: each kind's reach from a cell on an empty board against its average (a
//!   centralised leaper is worth more than one in a corner), and for a kind that changes into a
//!   more valuable one on reaching a region, or wins by occupying one, how few of its own moves
//!   it needs to get there;
//! - royal pieces: kept sheltered by their own pieces and away from open cells while the
//!   opponent has material to attack with, centralised and free in the ending;
//! - pieces in reserve, at half their value.
//!
//! The weights of the middle game and the ending are blended by how much material is left.

use crate::board::Cell;
use crate::core::{Occupant, PieceKindId, Side};
use crate::position::Position;
use crate::rules::{Ruleset, Trigger, Verdict, Whose};
use crate::vm::{Machine, Options};

/// What a win is worth; scores within `MATE_BAND` of it are wins in so many turns.
pub const WIN: i32 = 1_000_000;
/// Scores this close to `WIN` are decided games.
pub const MATE_BAND: i32 = 10_000;

/// What each step a royal piece could take is worth in the ending: a boxed-in enemy royal
/// piece is on its way to being mated (so search drives towards a mate it cannot yet see).
const ROYAL_FREEDOM: i32 = 8;
/// Each own piece next to a royal piece, in the middle game.
const ROYAL_SHELTER: i32 = 12;
/// Per cell of reach above or below the kind's average, for non-royal pieces.
const CENTRAL: i32 = 3;
/// The most a placement bonus from centrality may be, either way.
const CENTRAL_CAP: i32 = 30;
/// Per cell of reach of a royal piece: a penalty in the middle game, a bonus in the ending.
const ROYAL_CENTRAL: i32 = 5;
/// What being next to the goal region is worth to a piece that wins by occupying it.
const GOAL_NEAR: i32 = 300;
/// The side to move's advantage of having the move.
const TEMPO: i32 = 10;
/// Cells further than this many moves from a region are treated as this far.
const FAR: usize = 16;
/// [`Evaluator`]'s slot of an occupant that is no piece.
const NO_SLOT: u8 = u8::MAX;

/// Piece values (in hundredths of the file's unit) and the evaluation built on them.
#[derive(Debug, Clone)]
pub struct Evaluator {
    /// Per piece kind.
    pub values: Vec<i32>,
    /// Whether each value was declared (not estimated).
    pub declared: Vec<bool>,
    /// Per slot (kind and side: `2 * kind + side`, white 0, black 1) and cell, at
    /// `slot * cells + cell`: the placement bonus in the middle game and in the ending.
    placement: Vec<(i16, i16)>,
    /// Per occupant code: the piece's slot, or [`NO_SLOT`] for anything but a piece.
    slot_of: Vec<u8>,
    /// Per slot: the kind's value, and whether it is royal.
    slot_value: Vec<i32>,
    slot_royal: Vec<bool>,
    /// Per cell: the cells a king-like step away (for shelter).
    neighbours: Vec<Vec<Cell>>,
    /// Both sides' non-royal material in the start position (the middle game's measure).
    start_material: i32,
    /// The royal pieces found by the last evaluation (a buffer kept between calls).
    royals_at: Vec<(usize, Cell)>,
    vm: Machine,
    opts: Options,
}

/// How each kind moves on an empty board: for every side and cell, the cells it reaches.
fn empty_board_moves(
    rules: &Ruleset,
    vm: &mut Machine,
    opts: &mut Options,
) -> Vec<[Vec<Vec<Cell>>; 2]> {
    let n = rules.topo.len();
    let mut out = Vec::with_capacity(rules.pieces.len());
    for k in 0..rules.pieces.len() {
        // Each kind's probe has a budget of its own: a definition that explodes is estimated
        // from the options found within it, and leaves the other kinds' probes alone.
        vm.set_stop(Some(std::sync::Arc::new(crate::vm::Stop::with_budget(
            None,
            crate::vm::PROBE_BUDGET,
        ))));
        let mut per_side: [Vec<Vec<Cell>>; 2] = [vec![Vec::new(); n], vec![Vec::new(); n]];
        for (si, side) in Side::BOTH.into_iter().enumerate() {
            let mut pos = Position::empty(n, rules.initial_hand());
            pos.side = side;
            for c in rules.topo.cells() {
                pos.put(c, Occupant::piece(side, PieceKindId::new(k)));
                vm.moves(rules, &pos, c, opts);
                vm.take_runaway();
                let mut to: Vec<Cell> = opts.moves.iter().map(|m| m.to).collect();
                to.sort_unstable_by_key(|c| c.index());
                to.dedup();
                per_side[si][c.index()] = to;
                pos.put(c, Occupant::EMPTY);
            }
        }
        out.push(per_side);
    }
    vm.set_stop(None);
    out
}

/// For every cell, how many moves (on the empty-board graph `graph`) it takes to get into
/// `target` (0 inside it; `FAR` when it cannot or it is further).
fn distances(graph: &[Vec<Cell>], target: &[bool]) -> Vec<usize> {
    let n = graph.len();
    let mut dist = vec![FAR; n];
    // Reverse search from the target: repeat relaxation (boards are small).
    for (c, &t) in target.iter().enumerate() {
        if t {
            dist[c] = 0;
        }
    }
    for d in 0..FAR - 1 {
        let mut changed = false;
        for c in 0..n {
            if dist[c] == FAR && graph[c].iter().any(|to| dist[to.index()] == d) {
                dist[c] = d + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    dist
}

/// The placement table (middle game, end game) of kind `k` for `side`: how many cells it
/// reaches from each cell against its average, and its progress towards the regions where it
/// becomes something better or where its arrival wins.
fn placement_table(
    rules: &Ruleset,
    k: usize,
    p: &crate::rules::PieceKind,
    side: Side,
    moves: &[[Vec<Vec<Cell>>; 2]],
    averages: &[f64],
    values: &[i32],
) -> Vec<(i16, i16)> {
    let n = rules.topo.len();
    let graph = &moves[k][side.index()];
    let mut mg = vec![0i32; n];
    let mut eg = vec![0i32; n];
    for c in 0..n {
        let reach = graph[c].len() as f64 - averages[k];
        if p.royal {
            mg[c] -= (reach * f64::from(ROYAL_CENTRAL)).round() as i32;
            eg[c] += (reach * f64::from(ROYAL_CENTRAL)).round() as i32;
        } else {
            let b = ((reach * f64::from(CENTRAL)).round() as i32).clamp(-CENTRAL_CAP, CENTRAL_CAP);
            mg[c] += b;
            eg[c] += b;
        }
    }
    // Progress towards a region where the piece becomes something better.
    for ch in &p.changes {
        let Trigger::Reach { region, .. } = ch.on else {
            continue;
        };
        let gain = ch.to.iter().map(|&t| values[t.index()]).max().unwrap_or(0) - values[k];
        if gain > 0 {
            toward(graph, &rules.regions[region.index()].cells[side], |c, d| {
                mg[c] += gain / (3 * (d + 1));
                eg[c] += gain / (2 * (d + 1));
            });
        }
    }
    // Progress towards a region whose occupation wins.
    for goal in &rules.end.goals {
        if !(goal.by.is_empty() || goal.by.contains(&PieceKindId::new(k)))
            || goal.verdict != Verdict::Wins
        {
            continue;
        }
        let (w, r) = goal.region;
        let whose = match w {
            Whose::Own => side,
            Whose::Enemy => side.opponent(),
        };
        toward(graph, &rules.regions[r.index()].cells[whose], |c, d| {
            mg[c] += GOAL_NEAR / (d + 1);
            eg[c] += GOAL_NEAR / (d + 1);
        });
    }
    mg.iter()
        .zip(&eg)
        .map(|(&a, &b)| (clamp16(a), clamp16(b)))
        .collect()
}

/// Calls `add(cell, moves)` for each cell from which `cells` can be reached in the move graph,
/// with the number of moves it takes.
fn toward(graph: &[Vec<Cell>], cells: &crate::board::CellSet, mut add: impl FnMut(usize, i32)) {
    let target: Vec<bool> = (0..graph.len())
        .map(|c| cells.contains(Cell::new(c)))
        .collect();
    let dist = distances(graph, &target);
    for (c, &d) in dist.iter().enumerate() {
        if d < FAR {
            add(c, i32::try_from(d).unwrap_or(0));
        }
    }
}

impl Evaluator {
    /// Puts the evaluator's machine under `stop`, or under none (see [`crate::vm::Stop`]): a
    /// search gives it its game's.
    pub fn set_stop(&mut self, stop: Option<std::sync::Arc<crate::vm::Stop>>) {
        self.vm.set_stop(stop);
    }

    /// Values for every kind: declared ones ×100; the others estimated as 25 per cell the
    /// piece reaches on average on an otherwise empty board, plus 10 (a chess knight: about
    /// 140, a rook about 360). Royal pieces count 0: losing one ends the game, which search
    /// sees. Placement tables from the same empty-board moves.
    pub fn new(rules: &Ruleset) -> Evaluator {
        let mut vm = Machine::default();
        let mut opts = Options::default();
        let moves = empty_board_moves(rules, &mut vm, &mut opts);
        let n = rules.topo.len();
        let mut values = Vec::new();
        let mut declared = Vec::new();
        let mut averages = Vec::new();
        for (k, p) in rules.pieces.iter().enumerate() {
            declared.push(p.value.is_some());
            let total: usize = moves[k][0].iter().map(Vec::len).sum();
            let avg = total as f64 / n.max(1) as f64;
            averages.push(avg);
            values.push(if p.royal {
                0
            } else if let Some(v) = p.value {
                i32::try_from(v.saturating_mul(100)).unwrap_or(i32::MAX / 4)
            } else {
                (25.0 * avg).round() as i32 + 10
            });
        }
        // Slots in the order of `2 * kind + side`, each with its table of `n` cells.
        let mut placement = Vec::with_capacity(2 * rules.pieces.len() * n);
        let mut slot_of = vec![NO_SLOT; 256];
        let (mut slot_value, mut slot_royal) = (Vec::new(), Vec::new());
        for (k, p) in rules.pieces.iter().enumerate() {
            for side in Side::BOTH {
                let slot = slot_value.len();
                placement.extend(placement_table(
                    rules, k, p, side, &moves, &averages, &values,
                ));
                if let Ok(s) = u8::try_from(slot)
                    && s != NO_SLOT
                {
                    slot_of[usize::from(Occupant::piece(side, PieceKindId::new(k)).code())] = s;
                }
                slot_value.push(values[k]);
                slot_royal.push(p.royal);
            }
        }
        let steps: [(i8, i8); 8] = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ];
        let neighbours = rules
            .topo
            .cells()
            .map(|c| {
                steps
                    .iter()
                    .filter_map(|&v| rules.topo.offset(c, v))
                    .collect()
            })
            .collect();
        let start_material = rules
            .setup
            .cells()
            .iter()
            .filter_map(|o| o.as_piece())
            .map(|(_, k)| values[k.index()])
            .sum::<i32>()
            .max(1);
        Evaluator {
            values,
            declared,
            placement,
            slot_of,
            slot_value,
            slot_royal,
            neighbours,
            start_material,
            royals_at: Vec::new(),
            vm,
            opts,
        }
    }

    /// Both sides' non-royal material in the start position.
    pub fn start_material(&self) -> i32 {
        self.start_material
    }

    /// The value of a piece kind.
    pub fn value(&self, k: PieceKindId) -> i32 {
        self.values.get(k.index()).copied().unwrap_or(0)
    }

    /// The evaluation of the position for the side to move: material (pieces in reserve at
    /// half their value), placement blended between middle game and ending by the material
    /// left, the shelter of royal pieces in the middle game and their freedom in the ending,
    /// and a small bonus for having the move.
    pub fn eval(&mut self, rules: &Ruleset, pos: &Position) -> i32 {
        let me = pos.side;
        let mut material = [0i32; 2];
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut royals = std::mem::take(&mut self.royals_at);
        royals.clear();
        let n = pos.cells().len();
        crate::core::each_filled(pos.cells(), |i, o| {
            let slot = self.slot_of[usize::from(o.code())];
            if slot == NO_SLOT {
                return;
            }
            let slot = usize::from(slot);
            let si = slot & 1;
            material[si] += self.slot_value[slot];
            let (a, b) = self.placement[slot * n + i];
            mg[si] += i32::from(a);
            eg[si] += i32::from(b);
            if self.slot_royal[slot] {
                royals.push((si, Cell::new(i)));
            }
        });
        let total = material[0] + material[1];
        // 256: all the start's material left (or more); 0: none.
        let phase = (total * 256 / self.start_material).clamp(0, 256);
        let mut score = [0i32; 2];
        for si in 0..2 {
            score[si] = material[si] + (mg[si] * phase + eg[si] * (256 - phase)) / 256;
        }
        for &(si, c) in &royals {
            let side = if si == 0 { Side::White } else { Side::Black };
            let shelter = self.neighbours[c.index()]
                .iter()
                .filter(|n| matches!(pos.at(**n).as_piece(), Some((s, _)) if s == side))
                .count();
            let shelter = i32::try_from(shelter).unwrap_or(0) * ROYAL_SHELTER;
            // Freedom matters once the attacker's material is low: a mate is near.
            let freedom = if phase < 128 {
                self.vm.moves(rules, pos, c, &mut self.opts);
                i32::try_from(self.opts.moves.len()).unwrap_or(0) * ROYAL_FREEDOM
            } else {
                0
            };
            score[si] += (shelter * phase + freedom * (256 - phase)) / 256;
        }
        self.royals_at = royals;
        if rules.has_reserve() {
            for (si, side) in Side::BOTH.into_iter().enumerate() {
                for k in 0..rules.pieces.len() {
                    let n = pos.supplies[side]
                        .get(rules.hand_slot(PieceKindId::new(k)))
                        .copied()
                        .unwrap_or(0);
                    score[si] += self.values[k] / 2 * i32::try_from(n).unwrap_or(0);
                }
            }
        }
        let mine = usize::from(me == Side::Black);
        score[mine] - score[1 - mine] + TEMPO
    }
}

fn clamp16(v: i32) -> i16 {
    i16::try_from(v.clamp(i32::from(i16::MIN), i32::from(i16::MAX))).unwrap_or(0)
}
