//! Agents that choose turns — random, alpha-beta search, Monte Carlo tree search — and
//! self-play statistics over many games. Uses the play layer only: every agent works for every
//! variant file, with no code for any game.

mod alphabeta;
mod eval;
mod mcts;
pub mod pgn;
pub mod report;
mod rng;
pub mod selfplay;
pub mod stats;

use crate::play::{Game, Turn};
use crate::rules::Ruleset;

pub use alphabeta::{Limits, Progress, Score, Searcher};
pub use eval::Evaluator;
pub use mcts::Mcts;
pub use rng::{Rng, derive};

/// How much an agent may think per turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock milliseconds (not reproducible from a seed: depth depends on the machine).
    Millis(u64),
    /// Search nodes (reproducible).
    Nodes(u64),
    /// MCTS playouts (reproducible).
    Playouts(u64),
}

/// Which agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentKind {
    /// A uniformly random legal turn.
    Random,
    /// Alpha-beta search.
    Search,
    /// Monte Carlo tree search.
    Mcts,
}

/// An agent and its budget, as written on the command line: `random`, `search`,
/// `search:200` (milliseconds), `search:5000n` (nodes), `mcts`, `mcts:2000` (playouts),
/// `mcts:300ms`; `computer` is `search`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent.
    pub kind: AgentKind,
    /// Its budget per turn.
    pub budget: Budget,
}

/// Agent text that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// A name that is not an agent.
    #[error(
        "`{0}` is not an agent: write random, search or mcts, with an optional budget (search:200, mcts:2000)"
    )]
    UnknownAgent(String),
    /// A budget that is not a positive number.
    #[error("`{0}` is not a budget: write a positive number")]
    BadBudget(String),
    /// A budget given to the agent that takes none.
    #[error("`random:{0}`: the random agent takes no budget")]
    NoBudget(String),
}

/// The default budget of `search`: nodes, so that games replay from their seed.
pub const DEFAULT_SEARCH_NODES: u64 = 20_000;
/// The default budget of `mcts`.
pub const DEFAULT_PLAYOUTS: u64 = 500;

impl AgentSpec {
    /// Reads an agent from its text.
    pub fn parse(text: &str) -> Result<AgentSpec, AgentError> {
        let (name, budget) = match text.split_once(':') {
            Some((n, b)) => (n, Some(b)),
            None => (text, None),
        };
        let kind = match name {
            "random" => AgentKind::Random,
            "search" | "computer" => AgentKind::Search,
            "mcts" => AgentKind::Mcts,
            other => return Err(AgentError::UnknownAgent(other.to_string())),
        };
        let number = |s: &str| -> Result<u64, AgentError> {
            s.parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| AgentError::BadBudget(s.to_string()))
        };
        let budget = match (kind, budget) {
            (_, Some(b)) if kind == AgentKind::Random => {
                return Err(AgentError::NoBudget(b.to_string()));
            }
            (AgentKind::Search | AgentKind::Random, None) => Budget::Nodes(DEFAULT_SEARCH_NODES),
            (AgentKind::Mcts, None) => Budget::Playouts(DEFAULT_PLAYOUTS),
            (_, Some(b)) => {
                if let Some(ms) = b.strip_suffix("ms") {
                    Budget::Millis(number(ms)?)
                } else if let Some(n) = b.strip_suffix('n') {
                    Budget::Nodes(number(n)?)
                } else if kind == AgentKind::Search {
                    Budget::Millis(number(b)?)
                } else {
                    Budget::Playouts(number(b)?)
                }
            }
        };
        Ok(AgentSpec { kind, budget })
    }

    /// The agent as text (what [`AgentSpec::parse`] reads).
    pub fn text(&self) -> String {
        let name = match self.kind {
            AgentKind::Random => return "random".into(),
            AgentKind::Search => "search",
            AgentKind::Mcts => "mcts",
        };
        match self.budget {
            Budget::Millis(ms) => format!("{name}:{ms}ms"),
            Budget::Nodes(n) => format!("{name}:{n}n"),
            Budget::Playouts(n) => format!("{name}:{n}"),
        }
    }

    /// Whether the same seed gives the same turns (no wall-clock budget).
    pub fn reproducible(&self) -> bool {
        !matches!(self.budget, Budget::Millis(_))
    }
}

/// A playing agent: its spec, its random numbers and its search state.
#[derive(Debug, Clone)]
pub struct Agent {
    spec: AgentSpec,
    rng: Rng,
    searcher: Option<Searcher>,
    mcts: Option<Mcts>,
}

impl Agent {
    /// An agent for a variant, seeded.
    pub fn new(spec: AgentSpec, rules: &Ruleset, seed: u64) -> Agent {
        let (searcher, mcts) = match spec.kind {
            AgentKind::Random => (None, None),
            AgentKind::Search => (Some(Searcher::new(Evaluator::new(rules))), None),
            AgentKind::Mcts => (None, Some(Mcts::new(Evaluator::new(rules)))),
        };
        Agent {
            spec,
            rng: Rng::new(seed),
            searcher,
            mcts,
        }
    }

    /// An agent sharing an evaluation already computed for the variant.
    pub fn with_eval(spec: AgentSpec, eval: &Evaluator, seed: u64) -> Agent {
        let (searcher, mcts) = match spec.kind {
            AgentKind::Random => (None, None),
            AgentKind::Search => (Some(Searcher::new(eval.clone())), None),
            AgentKind::Mcts => (None, Some(Mcts::new(eval.clone()))),
        };
        Agent {
            spec,
            rng: Rng::new(seed),
            searcher,
            mcts,
        }
    }

    /// The agent's spec.
    pub fn spec(&self) -> AgentSpec {
        self.spec
    }

    /// The turn it plays, or `None` when the game is over.
    pub fn choose(&mut self, game: &mut Game<'_>) -> Option<Turn> {
        match (self.spec.kind, &mut self.searcher, &mut self.mcts) {
            (AgentKind::Search, Some(s), _) => s.choose(game, self.spec.budget, &mut self.rng),
            (AgentKind::Mcts, _, Some(m)) => m.choose(game, self.spec.budget, &mut self.rng),
            _ => {
                let turns = game.legal_turns().ok()?;
                let i = self.rng.below(turns.len());
                turns.into_iter().nth(i)
            }
        }
    }

    /// Search nodes of its last turn (0 for the others).
    pub fn nodes(&self) -> u64 {
        self.searcher.as_ref().map_or(0, Searcher::nodes)
    }
}
