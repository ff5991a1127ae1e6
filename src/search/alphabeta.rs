//! Alpha-beta search: negamax with iterative deepening, a transposition table on the game's
//! Zobrist hash, and move ordering (the table's move, then captures of the most valuable
//! piece). The horizon is the static evaluation, without a quiescence search: in variants
//! with thousands of turns a position, generating them at the leaves costs more than a ply.

use std::time::Instant;

use crate::play::{Game, Outcome, Turn, static_outcome};

use super::Budget;
use super::eval::{Evaluator, MATE_BAND, WIN};
use super::rng::Rng;

const TT_BITS: u32 = 16;

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    depth: u8,
    score: i32,
    /// 0 exact, 1 lower bound, 2 upper bound.
    bound: u8,
    /// Index of the best turn in the generation order, plus one (0: none).
    best: u32,
}

/// An alpha-beta searcher with its table, reused from turn to turn.
#[derive(Debug, Clone)]
pub struct Searcher {
    eval: Evaluator,
    table: Vec<Entry>,
    nodes: u64,
    limit: Limit,
    stopped: bool,
    /// While set, the budget is not checked (the first iteration always completes).
    unlimited: bool,
    /// Depth reached by the last completed iteration.
    pub depth: u32,
}

#[derive(Debug, Clone, Copy)]
enum Limit {
    Nodes(u64),
    Until(Instant),
}

impl Searcher {
    /// A searcher with this evaluation.
    pub fn new(eval: Evaluator) -> Searcher {
        Searcher {
            eval,
            table: vec![Entry::default(); 1 << TT_BITS],
            nodes: 0,
            limit: Limit::Nodes(0),
            stopped: false,
            unlimited: false,
            depth: 0,
        }
    }

    /// Nodes searched by the last call of [`Searcher::choose`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn out_of_budget(&mut self) -> bool {
        if self.unlimited {
            return false;
        }
        if self.stopped {
            return true;
        }
        if self.nodes & 255 == 0 {
            self.stopped = match self.limit {
                Limit::Nodes(n) => self.nodes >= n,
                Limit::Until(t) => Instant::now() >= t,
            };
        }
        self.stopped
    }

    /// The turn to play, by iterative deepening within the budget. The first iteration (every
    /// turn one ply deep) always completes; ties are broken by `rng`. `None` when the game is
    /// over.
    pub fn choose(&mut self, game: &mut Game<'_>, budget: Budget, rng: &mut Rng) -> Option<Turn> {
        let mut turns = game.legal_turns().ok()?;
        if turns.len() == 1 {
            return turns.pop();
        }
        // Shuffle, so that equal turns are chosen among at random (from the seed).
        for i in (1..turns.len()).rev() {
            turns.swap(i, rng.below(i + 1));
        }
        self.nodes = 0;
        self.stopped = false;
        self.limit = match budget {
            Budget::Nodes(n) => Limit::Nodes(n),
            Budget::Millis(ms) => {
                Limit::Until(Instant::now() + std::time::Duration::from_millis(ms))
            }
            Budget::Playouts(n) => Limit::Nodes(n * 50),
        };
        let mut scores: Vec<i32> = vec![0; turns.len()];
        let mut best = 0usize;
        for depth in 1..=64u32 {
            self.unlimited = depth == 1;
            let mut iteration = vec![-WIN; turns.len()];
            let mut alpha = -WIN - 1;
            let mut complete = true;
            // Best first, from the previous iteration.
            let mut order: Vec<usize> = (0..turns.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
            for &i in &order {
                game.play(&turns[i]);
                let s = -self.negamax(game, depth - 1, -WIN - 1, -alpha, 1);
                game.undo();
                if depth > 1 && self.stopped {
                    complete = false;
                    break;
                }
                iteration[i] = s;
                if s > alpha {
                    alpha = s;
                }
            }
            self.unlimited = false;
            if !complete {
                break;
            }
            scores = iteration;
            best = (0..turns.len()).max_by_key(|&i| scores[i]).unwrap_or(0);
            self.depth = depth;
            // A forced win needs no deeper look; a lone good turn neither.
            if scores[best] >= WIN - MATE_BAND || self.stopped {
                break;
            }
            self.stopped = false;
            if matches!(self.limit, Limit::Nodes(n) if self.nodes >= n)
                || matches!(self.limit, Limit::Until(t) if Instant::now() >= t)
            {
                break;
            }
        }
        turns.into_iter().nth(best)
    }

    fn outcome_score(o: &Outcome, game: &Game<'_>, ply: u32) -> i32 {
        let ply = i32::try_from(ply).unwrap_or(0);
        match o.winner {
            None => 0,
            Some(w) if w == game.pos().side => WIN - ply,
            Some(_) => -(WIN - ply),
        }
    }

    fn negamax(
        &mut self,
        game: &mut Game<'_>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        // At the horizon: what the position alone decides, else the static evaluation (no
        // turn generation: in Bollwerk 178 a position has some 15,000 turns).
        if depth == 0 {
            if let Some(o) = static_outcome(game.rules, game.pos()) {
                return Self::outcome_score(&o, game, ply);
            }
            return self.eval.eval(game.rules, game.pos());
        }
        let turns = match game.legal_turns() {
            Ok(t) => t,
            Err(o) => return Self::outcome_score(&o, game, ply),
        };
        let key = game.hash();
        let slot = (key as usize) & ((1 << TT_BITS) - 1);
        let entry = self.table[slot];
        let mut tt_best = None;
        if entry.key == key && entry.best > 0 {
            tt_best = Some(entry.best as usize - 1);
            if u32::from(entry.depth) >= depth {
                match entry.bound {
                    0 => return entry.score,
                    1 if entry.score >= beta => return entry.score,
                    2 if entry.score <= alpha => return entry.score,
                    _ => {}
                }
            }
        }
        let order = self.order(game, &turns, tt_best);
        let start_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_index = 0;
        for i in order {
            game.play(&turns[i]);
            let s = -self.negamax(game, depth - 1, -beta, -alpha, ply + 1);
            game.undo();
            if self.stopped {
                return 0;
            }
            if s > best_score {
                best_score = s;
                best_index = i;
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best_score <= start_alpha {
            2
        } else if best_score >= beta {
            1
        } else {
            0
        };
        self.table[slot] = Entry {
            key,
            depth: u8::try_from(depth).unwrap_or(u8::MAX),
            score: best_score,
            bound,
            best: u32::try_from(best_index + 1).unwrap_or(0),
        };
        best_score
    }

    /// The table's turn first, then captures by the worth of what they take (most first),
    /// then the rest in generation order.
    fn order(&self, game: &Game<'_>, turns: &[Turn], first: Option<usize>) -> Vec<usize> {
        let pos = game.pos();
        let gain = |t: &Turn| -> i32 {
            t.captures
                .iter()
                .filter_map(|&c| pos.at(c).as_piece())
                .map(|(_, k)| self.eval.value(k) + 1)
                .sum::<i32>()
                + t.promote.map_or(0, |k| self.eval.value(k))
        };
        let mut idx: Vec<(i32, usize)> = turns
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let key = if Some(i) == first { i32::MAX } else { gain(t) };
                (key, i)
            })
            .collect();
        idx.sort_by_key(|&(k, i)| (std::cmp::Reverse(k), i));
        idx.into_iter().map(|(_, i)| i).collect()
    }
}
