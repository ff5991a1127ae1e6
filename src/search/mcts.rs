//! Monte Carlo tree search (UCT): for games where material says little. Each playout walks
//! the tree by the UCB1 rule, adds one node, then plays random turns to the end of the game or
//! a playout length and scores the result (a decided game 1 or 0; else the sign of the
//! material balance, squashed).

use std::time::Instant;

use crate::play::{Game, Turn};

use super::Budget;
use super::eval::Evaluator;
use super::rng::Rng;

const PLAYOUT_TURNS: usize = 40;
const EXPLORATION: f64 = 1.4;

#[derive(Debug, Clone)]
struct Node {
    /// The turns from this position (filled on first visit).
    turns: Option<Vec<Turn>>,
    /// Children by turn index.
    children: Vec<Option<usize>>,
    visits: u32,
    /// Total reward for the side that moved into this node.
    reward: f64,
}

impl Node {
    fn new() -> Node {
        Node {
            turns: None,
            children: Vec::new(),
            visits: 0,
            reward: 0.0,
        }
    }
}

/// An MCTS player.
#[derive(Debug, Clone)]
pub struct Mcts {
    eval: Evaluator,
}

impl Mcts {
    /// An MCTS player scoring cut-off playouts with this evaluation.
    pub fn new(eval: Evaluator) -> Mcts {
        Mcts { eval }
    }

    /// The most visited turn after the budget's playouts (or time). `None` when the game is
    /// over.
    pub fn choose(&mut self, game: &mut Game<'_>, budget: Budget, rng: &mut Rng) -> Option<Turn> {
        self.eval.set_stop(game.stop().cloned());
        let root_turns = game.legal_turns().ok()?;
        if root_turns.len() == 1 {
            return root_turns.into_iter().next();
        }
        let (playouts, until) = match budget {
            Budget::Playouts(n) | Budget::Nodes(n) => (n.max(1), None),
            Budget::Millis(ms) => (
                u64::MAX,
                Some(Instant::now() + std::time::Duration::from_millis(ms)),
            ),
        };
        let mut nodes = vec![Node::new()];
        nodes[0].children = vec![None; root_turns.len()];
        nodes[0].turns = Some(root_turns);
        let mut done = 0u64;
        while done < playouts && until.is_none_or(|t| Instant::now() < t) {
            self.playout(game, &mut nodes, rng);
            done += 1;
        }
        let root = &nodes[0];
        let best = root
            .children
            .iter()
            .enumerate()
            .max_by_key(|(_, c)| c.map_or(0, |i| nodes[i].visits))
            .map_or(0, |(i, _)| i);
        root.turns.as_ref().and_then(|t| t.get(best).cloned())
    }

    fn playout(&mut self, game: &mut Game<'_>, nodes: &mut Vec<Node>, rng: &mut Rng) {
        let mut path = vec![0usize];
        let mut played = 0usize;
        // Selection and expansion.
        loop {
            let n = *path.last().unwrap_or(&0);
            if nodes[n].turns.is_none() {
                match game.legal_turns() {
                    Ok(t) => {
                        nodes[n].children = vec![None; t.len()];
                        nodes[n].turns = Some(t);
                    }
                    Err(_) => break,
                }
            }
            let count = nodes[n].children.len();
            if count == 0 {
                break;
            }
            let unvisited: Vec<usize> = (0..count)
                .filter(|&i| nodes[n].children[i].is_none())
                .collect();
            let (i, new) = if unvisited.is_empty() {
                let ln = f64::from(nodes[n].visits.max(1)).ln();
                let pick = (0..count)
                    .max_by(|&a, &b| {
                        let ucb = |i: usize| {
                            let c = &nodes[nodes[n].children[i].unwrap_or(0)];
                            c.reward / f64::from(c.visits.max(1))
                                + EXPLORATION * (ln / f64::from(c.visits.max(1))).sqrt()
                        };
                        ucb(a).total_cmp(&ucb(b))
                    })
                    .unwrap_or(0);
                (pick, false)
            } else {
                (unvisited[rng.below(unvisited.len())], true)
            };
            let turn = nodes[n].turns.as_ref().map(|t| t[i].clone());
            let Some(turn) = turn else { break };
            game.play(&turn);
            played += 1;
            let child = if new {
                nodes.push(Node::new());
                let c = nodes.len() - 1;
                nodes[n].children[i] = Some(c);
                c
            } else {
                nodes[n].children[i].unwrap_or(0)
            };
            path.push(child);
            if new {
                break;
            }
        }
        // Random playout from the new node; reward for the side to move at its end.
        let mut extra = 0usize;
        let reward_to_move;
        loop {
            match game.legal_turns() {
                Err(o) => {
                    reward_to_move = match o.winner {
                        None => 0.5,
                        Some(w) if w == game.pos().side => 1.0,
                        Some(_) => 0.0,
                    };
                    break;
                }
                Ok(t) => {
                    if extra >= PLAYOUT_TURNS {
                        let e = f64::from(self.eval.eval(game.rules, game.pos()));
                        reward_to_move = 1.0 / (1.0 + (-e / 300.0).exp());
                        break;
                    }
                    let pick = &t[rng.below(t.len())];
                    game.play(pick);
                    extra += 1;
                }
            }
        }
        for _ in 0..extra {
            game.undo();
        }
        // Back up: a node's reward is for the side that moved into it, the opponent of the
        // side to move there.
        let at_node = if extra % 2 == 1 {
            1.0 - reward_to_move
        } else {
            reward_to_move
        };
        let mut r = 1.0 - at_node;
        for &n in path.iter().rev() {
            nodes[n].visits += 1;
            nodes[n].reward += r;
            r = 1.0 - r;
        }
        for _ in 0..played {
            game.undo();
        }
    }
}
