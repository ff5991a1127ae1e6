//! The work budget of one run (landings before a definition is reported as a runaway) and
//! the [`Stop`] of a whole command: a flag, a deadline and a budget of unusual work.

use super::{Machine, PRUNE_AFTER};
use crate::board::{Cell, Side};
use crate::core::PieceKindId;
use crate::rules::Ruleset;

/// Landings one run may make in all (pruning walks included) before it gives up and reports
/// the definition as a runaway instead of hanging: the default of [`Stop::work_budget`].
pub const WORK_BUDGET: u64 = 3_000_000;

/// Landings between two looks at the machine's [`Stop`], within one long run.
pub(super) const STOP_POLL: u64 = 1 << 16;

/// Runs of the general interpreter between two looks at the machine's [`Stop`].
pub(super) const STOP_POLL_RUNS: u64 = 64;

/// A request to stop work from outside, and the budgets of a whole command: the work budget
/// of each run ([`Stop::work_budget`]), and a flag that
/// another thread (or a guard dropped when a client leaves) sets, a deadline, and a count of
/// the unusual work done so far (landings of runs beyond their first [`ORDINARY_RUN`]) with
/// its limit. A run that has made more than `STOP_POLL` (65,536) landings looks at it every
/// `STOP_POLL` (65,536) landings, and a machine at the start of every `STOP_POLL_RUNS` (64)-th run;
/// when it says stop, the run ends as a [`Runaway`] ([`Halt::Stopped`] or
/// [`Halt::CommandBudget`]), and, like any runaway, every later run of that machine returns at
/// once, so the whole generation ends quickly. Short runs never look, so ordinary work pays
/// nothing for it.
///
/// A stop is given explicitly, shared behind an `Arc`: to a machine ([`Machine::set_stop`]), a
/// generator or a game (`under`), whose clones carry it to the threads they run on. Work given
/// no stop has the default work budget and nothing else.
#[derive(Debug)]
pub struct Stop {
    flag: std::sync::atomic::AtomicBool,
    /// Landings one run may make (see [`WORK_BUDGET`]).
    work_budget: u64,
    deadline: Option<std::time::Instant>,
    /// Landings beyond the ordinary, in all runs under this stop.
    excess: std::sync::atomic::AtomicU64,
    /// The most of them allowed (0: no limit).
    excess_limit: u64,
    /// Whether the limit was passed.
    spent: std::sync::atomic::AtomicBool,
}

impl Default for Stop {
    fn default() -> Stop {
        Stop {
            flag: std::sync::atomic::AtomicBool::new(false),
            work_budget: WORK_BUDGET,
            deadline: None,
            excess: std::sync::atomic::AtomicU64::new(0),
            excess_limit: 0,
            spent: std::sync::atomic::AtomicBool::new(false),
        }
    }
}

/// Landings of one run that count as ordinary work; beyond them a run's landings count
/// towards its command's budget ([`Stop::with_budget`]).
pub const ORDINARY_RUN: u64 = PRUNE_AFTER;

/// The budget of unusual work, in landings, of the probes that run each piece kind alone on
/// an empty board (the evaluation's estimates, `check`'s warning about explosive branching):
/// about a second of the slowest walks per kind, so that a definition that explodes costs a
/// probe no more than that.
pub const PROBE_BUDGET: u64 = 5_000_000;

/// The default budget of a whole command, in landings beyond the ordinary
/// ([`ORDINARY_RUN`] per run): about ten seconds of one core of the slowest walks (chains
/// that need the pruning walk), far more than any ordinary game needs in a whole perft.
pub const COMMAND_BUDGET: u64 = 60_000_000;

impl Stop {
    /// A stop that fires when [`Stop::stop`] is called or, if given, at the deadline.
    pub fn new(deadline: Option<std::time::Instant>) -> Stop {
        Stop {
            deadline,
            ..Stop::default()
        }
    }

    /// The same, with a budget of `landings` beyond the ordinary for all the work under it.
    pub fn with_budget(deadline: Option<std::time::Instant>, landings: u64) -> Stop {
        Stop {
            deadline,
            excess_limit: landings.max(1),
            ..Stop::default()
        }
    }

    /// The same, with a work budget of `landings` for each run under it instead of
    /// [`WORK_BUDGET`] (the command line reads it from `BULWARK_WORK_BUDGET`).
    #[must_use]
    pub fn with_work_budget(self, landings: u64) -> Stop {
        Stop {
            work_budget: landings.max(1),
            ..self
        }
    }

    /// Landings each run under this stop may make before it is reported as a runaway.
    pub fn work_budget(&self) -> u64 {
        self.work_budget
    }

    /// Asks the work to stop.
    pub fn stop(&self) {
        self.flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the work should stop now.
    pub fn stopped(&self) -> bool {
        self.halt().is_some()
    }

    /// Why the work should stop now, if it should.
    fn halt(&self) -> Option<Halt> {
        use std::sync::atomic::Ordering::Relaxed;
        if self.spent.load(Relaxed) {
            Some(Halt::CommandBudget)
        } else if self.flag.load(Relaxed)
            || self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
        {
            Some(Halt::Stopped)
        } else {
            None
        }
    }

    /// Counts `landings` of unusual work; whether the budget is now spent.
    fn charge(&self, landings: u64) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let total = self
            .excess
            .fetch_add(landings, Relaxed)
            .saturating_add(landings);
        if self.excess_limit != 0 && total > self.excess_limit {
            self.spent.store(true, Relaxed);
        }
        self.spent.load(Relaxed)
    }

    /// The unusual work counted so far, in landings.
    pub fn excess(&self) -> u64 {
        self.excess.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The budget of unusual work (0: none).
    pub fn budget(&self) -> u64 {
        self.excess_limit
    }
}

/// The budget part of a [`Machine`]: the landings of the run, when it next looks at its stop,
/// its work budget, and the stop it works under.
#[derive(Debug, Clone, Default)]
pub(super) struct Work {
    /// Landings of the run so far.
    pub(super) landings: u64,
    /// The landing count at which the run next stops to look: the work budget, or before it
    /// the next look at its [`Stop`].
    pub(super) next_look: u64,
    /// The work budget of the run.
    pub(super) limit: u64,
    /// Why the run was stopped from outside, if it was.
    pub(super) stopped: Option<Halt>,
    /// The stop and budgets the machine works under (see [`Machine::set_stop`]).
    pub(super) stop: Option<std::sync::Arc<Stop>>,
    /// Landings of this run already charged to the command's budget.
    pub(super) charged: u64,
    /// Runs of the general interpreter so far (see `STOP_POLL_RUNS` (64)).
    pub(super) runs: u64,
}

/// What a machine reads of its stop, if it has one, at a look: why to stop, if it says so,
/// and the work budget of a run ([`WORK_BUDGET`] without a stop).
pub(super) fn look_at_stop(stop: Option<&Stop>) -> (Option<Halt>, u64) {
    match stop {
        Some(s) => (s.halt(), s.work_budget),
        None => (None, WORK_BUDGET),
    }
}

/// The budget behind a halt: the run's work budget `limit`, the command's budget of
/// unusual work, or nothing for a stop.
pub(super) fn limit_of(halt: Halt, limit: u64, stop: Option<&Stop>) -> u64 {
    match halt {
        Halt::Budget => limit,
        Halt::CommandBudget => stop.map_or(COMMAND_BUDGET, Stop::budget),
        Halt::Stopped => 0,
    }
}

/// Why a run gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// It needed more landings than the work budget of one run allows.
    Budget,
    /// The machine's [`Stop`] asked it to (a time limit, or the client left).
    Stopped,
    /// The whole command's budget of unusual work was spent ([`Stop::with_budget`]): this run
    /// was going when it ran out.
    CommandBudget,
}

/// A piece whose chains needed more work in one run than [`WORK_BUDGET`] allows (or whose run
/// was stopped from outside, see [`Stop`]): its options from that cell are unknown, and
/// whatever was generated with it is incomplete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the program of piece kind {} on cell {} ran out of its work budget", kind.index(), cell.index())]
pub struct Runaway {
    /// The piece kind whose program ran away.
    pub kind: PieceKindId,
    /// The side it played for.
    pub side: Side,
    /// The cell it ran from.
    pub cell: Cell,
    /// Why it gave up.
    pub halt: Halt,
    /// The budget it ran out of, in landings: the run's work budget ([`Halt::Budget`]) or the
    /// command's budget of unusual work ([`Halt::CommandBudget`]); 0 when it was stopped.
    pub limit: u64,
}

impl Runaway {
    /// What ran away, in the variant's own names.
    pub fn message(&self, rules: &Ruleset) -> String {
        let piece = &rules.pieces[self.kind.index()];
        match self.halt {
            Halt::Budget => format!(
                "the {} ({}) on {} needs more than {} landings to list its options: its \
                 definition runs away (a chain with too many ways through this position)",
                piece.name,
                self.side.name(),
                rules.topo.name(self.cell),
                self.limit,
            ),
            Halt::CommandBudget => format!(
                "the definitions of {} needed more unusual work in this command than its budget \
                 allows ({} landings beyond the first {ORDINARY_RUN} of each run; BULWARK_COMMAND_BUDGET sets it): \
                 the {} ({}) on {} was listing its options when it ran out",
                rules.name,
                self.limit,
                piece.name,
                self.side.name(),
                rules.topo.name(self.cell),
            ),
            Halt::Stopped => format!(
                "the work was stopped (it ran past its time limit, or whoever asked for it \
                 left) while the {} ({}) on {} was listing its options",
                piece.name,
                self.side.name(),
                rules.topo.name(self.cell),
            ),
        }
    }
}

impl Runaway {
    /// What to do about it, in the variant's own words: the repeated part of the piece's
    /// definition to bound, when it has one.
    pub fn help(&self, rules: &Ruleset) -> String {
        if self.halt == Halt::Stopped {
            return "ask for less at once (a shallower depth, a smaller position), or allow more time".to_string();
        }
        let piece = &rules.pieces[self.kind.index()];
        match repeated_parts(&piece.moves_text).first() {
            Some(part) => format!(
                "bound the repetition `{part}` in the {}'s definition (a count such as {{1,4}} instead of `+`, `*` or `{{n,}}`), or give this position with fewer cells to walk through",
                piece.name
            ),
            None => format!(
                "the {}'s definition repeats nothing without bound: this position has too many ways through it; give a position with fewer cells to walk through, or raise BULWARK_WORK_BUDGET",
                piece.name
            ),
        }
    }
}

/// The parts of a definition repeated without an upper bound (`(…)+`, `(…)*`, `(…){n,}`), as
/// written.
pub fn repeated_parts(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        let unbounded = match c {
            b'+' | b'*' => true,
            b'{' => text[i..]
                .find('}')
                .is_some_and(|j| text[i + 1..i + j].trim_end().ends_with(',')),
            _ => false,
        };
        if !unbounded || i == 0 {
            continue;
        }
        // The operand: a parenthesised group, or a name or leg just before.
        let end = text[..i].trim_end().len();
        if end == 0 {
            continue;
        }
        let start = if b[end - 1] == b')' {
            let mut depth = 0i32;
            let mut at = None;
            for j in (0..end).rev() {
                match b[j] {
                    b')' => depth += 1,
                    b'(' => {
                        depth -= 1;
                        if depth == 0 {
                            // A leg's own parentheses (`step(all)`): take its keyword too.
                            let kw = text[..j]
                                .trim_end_matches(|ch: char| {
                                    ch.is_ascii_alphanumeric() || ch == '-'
                                })
                                .len();
                            at = Some(kw);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            at.unwrap_or(0)
        } else {
            text[..end]
                .trim_end_matches(|ch: char| ch.is_ascii_alphanumeric() || ch == '-')
                .len()
        };
        let part = text[start..=i.min(text.len() - 1)].trim();
        let part = if c == b'{' {
            let close = text[i..].find('}').map_or(i, |j| i + j);
            text[start..=close].trim()
        } else {
            part
        };
        if !part.is_empty() {
            out.push(part.to_string());
        }
    }
    out
}

impl Machine {
    /// Called when the landings pass the next look (`Work::next_look`): whether the run must end (its work
    /// budget spent, or the machine's [`Stop`] says stop); else the next look is set.
    #[cold]
    #[inline(never)]
    pub(super) fn out_of_work(&mut self) -> bool {
        if self.work.landings > self.work.limit || self.work.stopped.is_some() {
            return true;
        }
        self.charge_excess();
        if self.work.stopped.is_some() {
            return true;
        }
        self.work.next_look = self
            .work
            .landings
            .saturating_add(STOP_POLL)
            .min(self.work.limit);
        false
    }

    /// Charges this run's landings beyond the ordinary that are not charged yet to the stop in
    /// force, and notes whether it says stop.
    #[cold]
    #[inline(never)]
    pub(super) fn charge_excess(&mut self) {
        let from = self.work.charged.max(ORDINARY_RUN);
        if self.work.landings > from {
            if let Some(stop) = &self.work.stop {
                stop.charge(self.work.landings - from);
                self.work.stopped = self.work.stopped.or(stop.halt());
            }
            self.work.charged = self.work.landings;
            if self.work.stopped.is_some() {
                self.halt = true;
            }
        } else if self.work.stopped.is_none() {
            self.work.stopped = self.work.stop.as_ref().and_then(|s| s.halt());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::repeated_parts;

    #[test]
    fn the_repeated_part_of_a_definition_is_named() {
        assert_eq!(
            repeated_parts("(leap(knight) | step(all))+"),
            ["(leap(knight) | step(all))+"]
        );
        assert_eq!(
            repeated_parts("step(all) (jump(all) over(enemy) take)*"),
            ["(jump(all) over(enemy) take)*"]
        );
        assert_eq!(
            repeated_parts("(leap(knight) capture){1,}"),
            ["(leap(knight) capture){1,}"]
        );
        assert_eq!(repeated_parts("( spy-jump )+"), ["( spy-jump )+"]);
        assert_eq!(repeated_parts("step(all)+"), ["step(all)+"]);
        assert!(repeated_parts("ride(all) capture").is_empty());
        assert!(repeated_parts("(step(all)){1,4}").is_empty());
    }
}
