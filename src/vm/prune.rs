//! The pruning walk: a chain state whose every reachable result is already known is not
//! explored (see [`Machine`]).

use super::general::At;
use super::sink::Sink;
use super::{Ctx, Machine};
use crate::board::Cell;

/// How deep a pruning walk may recurse before it gives up (and the state is explored as usual).
pub(super) const WALK_DEPTH: u32 = 2_000;

/// A state of a pruning walk: where the run stands ([`At`]) and the sorted captured cells.
pub(super) type WalkState = (At, Vec<Cell>);

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
        if self.dead.contains(&key) {
            return true;
        }
        let results = sink.results(self);
        if self.open.get(&key) != Some(&results) {
            self.free = true;
            let dead = self.saturated(cx, sink, at);
            self.free = false;
            if dead {
                self.dead.insert(key);
                return true;
            }
            self.open.insert(key, results);
        }
        self.saturated(cx, sink, at)
    }

    /// Whether exploring the state (`at`, with the current board and visited cells) can
    /// add nothing: a walk from it that ignores its own revisits (so it reaches every result a
    /// real path could, and maybe more) finds only results already known. Found by running the
    /// program in walking mode, which stops at the first unknown result.
    pub(super) fn saturated<S: Sink>(&mut self, cx: &Ctx<'_>, sink: &mut S, at: At) -> bool {
        self.walking = true;
        self.walk_depth = 0;
        self.walk_id = self.walk_id.wrapping_add(1);
        if self.walk_id == 0 {
            self.seen.clear();
            self.walk_id = 1;
        }
        self.run(cx, sink, at);
        self.walking = false;
        let budget_spent = self.work > self.limit || self.stopped.is_some();
        let open = self.halt;
        self.halt = budget_spent;
        !open
    }
}
