//! A static evaluation that needs no code for any game: material, from the pieces' values as
//! declared in the variant file (`value`), or estimated where none is declared from how many
//! cells the piece reaches on an empty board.

use crate::core::{PieceKindId, Side};
use crate::position::Position;
use crate::rules::Ruleset;
use crate::vm::{Machine, Options};

/// What a win is worth; scores within `MATE_BAND` of it are wins in so many turns.
pub const WIN: i32 = 1_000_000;
/// Scores this close to `WIN` are decided games.
pub const MATE_BAND: i32 = 10_000;

/// What each step a royal piece could take is worth: a boxed-in enemy royal piece is on its
/// way to being mated (so search drives towards a mate it cannot yet see).
const ROYAL_FREEDOM: i32 = 8;

/// Piece values (in hundredths of the file's unit) and the evaluation built on them.
#[derive(Debug, Clone)]
pub struct Evaluator {
    /// Per piece kind.
    pub values: Vec<i32>,
    /// Whether each value was declared (not estimated).
    pub declared: Vec<bool>,
    vm: Machine,
    opts: Options,
}

impl Evaluator {
    /// Values for every kind: declared ones ×100; the others estimated as 25 per cell the
    /// piece reaches on average on an otherwise empty board (a chess knight: about 130, a
    /// rook about 350). Royal pieces count 0: losing one ends the game, which search sees.
    pub fn new(rules: &Ruleset) -> Evaluator {
        let mut vm = Machine::default();
        let mut opts = Options::default();
        let mut values = Vec::new();
        let mut declared = Vec::new();
        for (k, p) in rules.pieces.iter().enumerate() {
            declared.push(p.value.is_some());
            if p.royal {
                values.push(0);
                continue;
            }
            if let Some(v) = p.value {
                values.push(i32::try_from(v.saturating_mul(100)).unwrap_or(i32::MAX / 4));
                continue;
            }
            let mut pos = Position::empty(rules.topo.len(), rules.initial_hand());
            let mut total = 0usize;
            let mut cells = 0usize;
            for c in rules.topo.cells() {
                pos.cells[c.index()] =
                    crate::core::Occupant::piece(Side::White, PieceKindId::new(k));
                vm.moves(rules, &pos, c, &mut opts);
                total += opts.moves.len();
                cells += 1;
                pos.cells[c.index()] = crate::core::Occupant::EMPTY;
            }
            let avg = total as f64 / cells.max(1) as f64;
            values.push((25.0 * avg).round() as i32 + 10);
        }
        Evaluator {
            values,
            declared,
            vm,
            opts,
        }
    }

    /// The value of a piece kind.
    pub fn value(&self, k: PieceKindId) -> i32 {
        self.values.get(k.index()).copied().unwrap_or(0)
    }

    /// Material of the side to move minus its opponent's: pieces on the board, and pieces in
    /// reserve at half their value; and the freedom of each side's royal pieces (the cells
    /// they could move to, ignoring attacks), a little.
    pub fn eval(&mut self, rules: &Ruleset, pos: &Position) -> i32 {
        let me = pos.side;
        let mut score = 0i32;
        for c in rules.topo.cells() {
            if let Some((s, k)) = pos.at(c).as_piece() {
                let mut v = self.value(k);
                if rules.pieces[k.index()].royal {
                    self.vm.moves(rules, pos, c, &mut self.opts);
                    v += ROYAL_FREEDOM * i32::try_from(self.opts.moves.len()).unwrap_or(0);
                }
                score += if s == me { v } else { -v };
            }
        }
        if rules.has_reserve {
            for side in Side::BOTH {
                for (k, _) in rules.pieces.iter().enumerate() {
                    let n = pos.supplies[side]
                        .get(rules.hand_slot(PieceKindId::new(k)))
                        .copied()
                        .unwrap_or(0);
                    let v = self.value(PieceKindId::new(k)) / 2 * i32::try_from(n).unwrap_or(0);
                    score += if side == me { v } else { -v };
                }
            }
        }
        score
    }
}
