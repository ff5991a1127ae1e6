//! A game being played: the position with its incrementally maintained hash, the history of
//! turns with what is needed to take each back, and perft.

use crate::board::Cell;
use crate::core::{BySide, Occupant, Side};
use crate::position::Position;
use crate::rules::Ruleset;

use super::apply::apply_turn;
use super::check::{Unplayable, check_position};
use super::generate::Generator;
use super::outcome::Outcome;
use super::turn::{Turn, TurnView};

/// Everything needed to take a turn back.
#[derive(Debug, Clone)]
pub struct Undo {
    cells: Vec<(Cell, Occupant)>,
    supplies: BySide<Vec<u32>>,
    taboo: Option<Cell>,
    ep: Option<Cell>,
    ep_victim: Option<Cell>,
    castling: u32,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

/// A position being played: the position, its hash and its history.
#[derive(Debug, Clone)]
pub struct Game<'r> {
    /// The rules.
    pub rules: &'r Ruleset,
    /// The current position (read it with [`Game::pos`]).
    pub(crate) pos: Position,
    hash: u64,
    history: Vec<(Turn, Undo)>,
    generator: Generator,
}

impl<'r> Game<'r> {
    /// A game from a position, if the position can be played (see [`check_position`]).
    pub fn new(rules: &'r Ruleset, pos: Position) -> Result<Game<'r>, Unplayable> {
        check_position(rules, &pos)?;
        let hash = rules.zobrist.hash(&pos);
        Ok(Game {
            rules,
            pos,
            hash,
            history: Vec::new(),
            generator: Generator::default(),
        })
    }

    /// A game from the variant's start position.
    pub fn start(rules: &'r Ruleset) -> Game<'r> {
        Game::new(rules, rules.setup.clone()).expect("the loader checked the start position")
    }

    /// The current position.
    pub fn pos(&self) -> &Position {
        &self.pos
    }

    /// The runaway some generation of this game ran into, if any. Once there is one, every
    /// count and list of turns from this game is incomplete: report it instead.
    pub fn runaway(&self) -> Option<crate::vm::Runaway> {
        self.generator.runaway()
    }

    /// The incrementally maintained hash of the position.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Turns played so far, oldest first.
    pub fn history(&self) -> impl Iterator<Item = &Turn> {
        self.history.iter().map(|(t, _)| t)
    }

    /// All legal turns, or the outcome if the game is over.
    pub fn legal_turns(&mut self) -> Result<Vec<Turn>, Outcome> {
        let mut out = Vec::new();
        self.generator
            .turns(self.rules, &self.pos, |t| out.push(t.to_turn()))?;
        Ok(out)
    }

    /// Calls `f` with every legal turn as it is generated (nothing is collected). Returns the
    /// number of turns, or the outcome if the game is over.
    pub fn each_turn(&mut self, mut f: impl FnMut(&Turn)) -> Result<usize, Outcome> {
        self.generator
            .turns(self.rules, &self.pos, |t| f(&t.to_turn()))
    }

    /// The number of legal turns (0 when the game is over).
    pub fn count_turns(&mut self) -> usize {
        self.generator
            .turns(self.rules, &self.pos, |_| {})
            .unwrap_or(0)
    }

    /// The outcome, if the game is over.
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.generator.turns(self.rules, &self.pos, |_| {}).err()
    }

    /// Whether the side to move has a royal piece under attack.
    pub fn in_check(&mut self) -> bool {
        self.rules.has_royals
            && !self
                .generator
                .royals_safe(self.rules, &self.pos, self.pos.side)
    }

    /// Plays a turn (assumed legal: take it from [`Game::legal_turns`] or
    /// [`crate::text::parse_turn`]).
    pub fn play(&mut self, t: &Turn) {
        let z = &self.rules.zobrist;
        let before = Undo {
            cells: Vec::new(),
            supplies: self.pos.supplies.clone(),
            taboo: self.pos.taboo,
            ep: self.pos.ep,
            ep_victim: self.pos.ep_victim,
            castling: self.pos.castling,
            halfmove: self.pos.halfmove,
            fullmove: self.pos.fullmove,
            hash: self.hash,
        };
        let mut undo = before.clone();
        let mut hash = self.hash;
        apply_turn(
            self.rules,
            &mut self.pos,
            &TurnView::of(t),
            |c, old, new| {
                undo.cells.push((c, old));
                hash = hash
                    .wrapping_sub(z.cell(c, old))
                    .wrapping_add(z.cell(c, new));
            },
        );
        for side in Side::BOTH {
            for (k, (&a, &b)) in before.supplies[side]
                .iter()
                .zip(&self.pos.supplies[side])
                .enumerate()
            {
                if a != b {
                    hash = hash.wrapping_add(
                        z.supply(side, k)
                            .wrapping_mul(u64::from(b).wrapping_sub(u64::from(a))),
                    );
                }
            }
        }
        hash = hash
            .wrapping_sub(z.taboo(before.taboo))
            .wrapping_add(z.taboo(self.pos.taboo));
        hash = hash
            .wrapping_sub(z.ep(before.ep))
            .wrapping_add(z.ep(self.pos.ep));
        hash = hash
            .wrapping_sub(z.castling(before.castling))
            .wrapping_add(z.castling(self.pos.castling));
        hash = if self.pos.side == Side::Black {
            hash.wrapping_add(z.black)
        } else {
            hash.wrapping_sub(z.black)
        };
        self.hash = hash;
        self.history.push((t.clone(), undo));
    }

    /// Takes the last turn back; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some((_, u)) = self.history.pop() else {
            return false;
        };
        for &(c, o) in u.cells.iter().rev() {
            self.pos.cells[c.index()] = o;
        }
        self.pos.supplies = u.supplies;
        self.pos.taboo = u.taboo;
        self.pos.ep = u.ep;
        self.pos.ep_victim = u.ep_victim;
        self.pos.castling = u.castling;
        self.pos.halfmove = u.halfmove;
        self.pos.fullmove = u.fullmove;
        self.pos.side = self.pos.side.opponent();
        self.hash = u.hash;
        true
    }

    /// Counts the leaves of the legal turn tree `depth` turns deep.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_turns() as u64;
        }
        let Ok(turns) = self.legal_turns() else {
            return 0;
        };
        let mut n = 0;
        for t in &turns {
            self.play(t);
            n += self.perft(depth - 1);
            self.undo();
        }
        n
    }
}
