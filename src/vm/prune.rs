//! The pruning walk: a chain state whose every reachable result is already known is not
//! explored (see [`Machine`]).

use super::general::At;
use super::sink::Sink;
use super::{Ctx, Machine, Pruning};
use crate::board::Cell;

/// How deep a pruning walk may recurse before it gives up (and the state is explored as usual).
pub(super) const WALK_DEPTH: u32 = 2_000;

/// A state of a pruning walk: where the run stands ([`At`]) and the sorted captured cells.
pub(super) type WalkState = (At, Vec<Cell>);

/// The pruning walk's part of a [`Machine`]: when it prunes, whether a walk is going on and
/// how deep, and what the walks of this run found per state.
#[derive(Debug, Clone, Default)]
pub(super) struct Walk {
    pub(super) pruning: Pruning,
    /// A walk is going on (the run explores a superset of the paths, stopping at the first
    /// unknown result).
    pub(super) on: bool,
    pub(super) depth: u32,
    /// The walk ignores the visited cells (see [`Machine::hopeless`]).
    pub(super) free: bool,
    /// States a walk reached, with the number of the walk (so nothing needs clearing).
    pub(super) seen: rustc_hash::FxHashMap<WalkState, u32>,
    /// The number of the current walk.
    pub(super) id: u32,
    /// States whose free walk found only known results: nothing to explore there, ever again
    /// in this run (results only grow).
    pub(super) dead: rustc_hash::FxHashSet<WalkState>,
    /// States whose free walk found an unknown result, with the number of results then.
    pub(super) open: rustc_hash::FxHashMap<WalkState, usize>,
}

impl Machine {
    /// The state a walk is keyed by: the op, the cell, the flags and the captured cells
    /// (sorted, so the order they were taken in does not matter).
    pub(super) fn walk_state(&self, at: At) -> WalkState {
        let mut caps = self.caps.clone();
        caps.sort_unstable();
        (at, caps)
    }

    /// Whether exploring the state can add nothing (see [`Machine::saturated`]): first asked
    /// of a walk that ignores the visited cells (its answer holds for every later arrival at
    /// the same state, so it is remembered), then of one that respects them.
    pub(super) fn hopeless<S: Sink>(&mut self, cx: &Ctx<'_>, sink: &mut S, at: At) -> bool {
        let key = self.walk_state(at);
        if self.walk.dead.contains(&key) {
            return true;
        }
        let results = sink.results(self);
        if self.walk.open.get(&key) != Some(&results) {
            self.walk.free = true;
            let dead = self.saturated(cx, sink, at);
            self.walk.free = false;
            if dead {
                self.walk.dead.insert(key);
                return true;
            }
            self.walk.open.insert(key, results);
        }
        self.saturated(cx, sink, at)
    }

    /// Whether exploring the state (`at`, with the current board and visited cells) can
    /// add nothing: a walk from it that ignores its own revisits (so it reaches every result a
    /// real path could, and maybe more) finds only results already known. Found by running the
    /// program in walking mode, which stops at the first unknown result.
    pub(super) fn saturated<S: Sink>(&mut self, cx: &Ctx<'_>, sink: &mut S, at: At) -> bool {
        self.walk.on = true;
        self.walk.depth = 0;
        self.walk.id = self.walk.id.wrapping_add(1);
        if self.walk.id == 0 {
            self.walk.seen.clear();
            self.walk.id = 1;
        }
        self.run(cx, sink, at);
        self.walk.on = false;
        let budget_spent = self.work.landings > self.work.limit || self.work.stopped.is_some();
        let open = self.halt;
        self.halt = budget_spent;
        !open
    }
}
