//! A game being played: the position with its incrementally maintained hash, the history of
//! turns with what is needed to take each back, and perft.

use crate::board::Cell;
use crate::core::{BySide, Side};
use crate::position::Position;
use crate::rules::Ruleset;

use super::apply::{Undo, apply_turn, make_turn, unmake};
use super::check::{Unplayable, check_position};
use super::generate::Generator;
use super::outcome::{Outcome, Reason, no_turn};
use super::turn::{Turn, TurnView};
use crate::compile::zobrist::Zobrist;
use crate::rules::EndVerdict;

/// A turn of the game's history: the turn and the hash before it (how to take it back is in
/// [`Game`]'s `undos`, at the same index).
#[derive(Debug, Clone)]
struct Played {
    turn: Turn,
    hash: u64,
}

/// The most turns a history given as text may hold (`--history`, a game sent to the web
/// board): replaying is linear, but a history is for the turns that matter, not a whole
/// tournament.
pub const MAX_HISTORY_TURNS: usize = 10_000;

/// A position being played: the position, its hash and its history.
#[derive(Debug, Clone)]
pub struct Game<'r> {
    /// The rules.
    pub rules: &'r Ruleset,
    /// The current position (read it with [`Game::pos`]).
    pub(crate) pos: Position,
    hash: u64,
    history: Vec<Played>,
    /// How to take back each turn of `history` (at the same index), then the records of turns
    /// taken back, kept for the next turns played: each is written in place, its buffers
    /// reused (playing and taking back moves no record and allocates nothing once the game
    /// has been this deep).
    undos: Vec<Undo>,
    /// Perft's lists of turns not in use, their room kept for the next position listed.
    lists: Vec<Vec<Turn>>,
    pub(crate) generator: Generator,
    scratch: Position,
}

impl<'r> Game<'r> {
    /// A game from a position, if the position can be played (see [`check_position`]).
    pub fn new(rules: &'r Ruleset, pos: Position) -> Result<Game<'r>, Unplayable> {
        check_position(rules, &pos)?;
        let hash = rules.zobrist().hash(&pos);
        Ok(Game {
            rules,
            pos,
            hash,
            history: Vec::new(),
            undos: Vec::new(),
            lists: Vec::new(),
            generator: Generator::default(),
            scratch: Position::default(),
        })
    }

    /// A game from the variant's start position.
    pub fn start(rules: &'r Ruleset) -> Game<'r> {
        Game::new(rules, rules.setup.clone()).expect("the loader checked the start position")
    }

    /// The game under `stop`: every program it runs, in it and in its clones, looks at the
    /// stop and works within its budgets (see [`crate::vm::Stop`]).
    #[must_use]
    pub fn under(mut self, stop: &std::sync::Arc<crate::vm::Stop>) -> Game<'r> {
        self.set_stop(Some(std::sync::Arc::clone(stop)));
        self
    }

    /// Puts the game under `stop`, or under none (see [`Game::under`]).
    pub fn set_stop(&mut self, stop: Option<std::sync::Arc<crate::vm::Stop>>) {
        self.generator.set_stop(stop);
    }

    /// The stop the game works under, if any.
    pub fn stop(&self) -> Option<&std::sync::Arc<crate::vm::Stop>> {
        self.generator.stop()
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

    /// The position before the first turn of the history.
    pub fn first_position(&self) -> Position {
        let mut g = self.clone();
        while g.undo() {}
        g.pos
    }

    /// Turns played so far, oldest first.
    pub fn history(&self) -> impl Iterator<Item = &Turn> {
        self.history.iter().map(|p| &p.turn)
    }

    /// All legal turns, or the outcome if the game is over.
    pub fn legal_turns(&mut self) -> Result<Vec<Turn>, Outcome> {
        let mut out = Vec::new();
        self.legal_turns_into(&mut out)?;
        Ok(out)
    }

    /// [`Game::legal_turns`] in an order of the generator's choosing, for a caller that only
    /// counts or plays them all (perft): plain pieces' moves come from their cell-set landings
    /// where the board allows it, not from the interpreter in their programs' order.
    pub fn legal_turns_any_order(&mut self) -> Result<Vec<Turn>, Outcome> {
        self.generator.set_any_order(true);
        let turns = self.legal_turns();
        self.generator.set_any_order(false);
        turns
    }

    /// [`Game::legal_turns`] written into `out` (cleared first), whose allocation a caller
    /// generating at every node (a search) keeps from one call to the next.
    pub fn legal_turns_into(&mut self, out: &mut Vec<Turn>) -> Result<(), Outcome> {
        out.clear();
        self.turns(|t| out.push(t.to_turn()))?;
        Ok(())
    }

    /// The legal turns of the side to move's piece on `cell` written into `out` (cleared
    /// first): its moves and captures, its changes of kind, its stones placed after moving or
    /// without moving; no castling, drop, neutral piece's turn or pass. Each is a turn of
    /// [`Game::legal_turns`]. False (and `out` empty) where the game is over or may be, or
    /// where which turns are legal depends on the others (priorities between turns, a
    /// repetition that makes turns illegal): ask [`Game::legal_turns`] then.
    pub fn legal_turns_of_into(&mut self, cell: Cell, out: &mut Vec<Turn>) -> bool {
        out.clear();
        let rules = self.rules;
        if rules
            .repetition
            .is_some_and(|r| r.verdict == EndVerdict::Illegal)
            || self.repetition_end().is_some()
        {
            return false;
        }
        let listed = self
            .generator
            .turns_of(rules, &self.pos, cell, |t| out.push(t.to_turn()));
        if listed.is_none() {
            out.clear();
        }
        listed.is_some()
    }

    /// The legal turns that `keep` accepts (the others are never built: a search's quiescence
    /// asks for captures among thousands of turns), or the outcome if the game is over.
    pub fn legal_turns_where(
        &mut self,
        keep: impl Fn(&TurnView<'_>) -> bool,
    ) -> Result<Vec<Turn>, Outcome> {
        let mut out = Vec::new();
        self.turns(|t| {
            if keep(t) {
                out.push(t.to_turn());
            }
        })?;
        Ok(out)
    }

    /// The legal turns that capture or change a piece's kind (see [`TurnView::is_loud`]):
    /// [`Game::legal_turns`] filtered (perhaps in another order), the others neither generated
    /// where the rules allow it nor tested. The outcome when the game is over.
    pub fn loud_turns(&mut self) -> Result<Vec<Turn>, Outcome> {
        let mut out = Vec::new();
        self.loud_turns_into(&mut out)?;
        Ok(out)
    }

    /// [`Game::loud_turns`] written into `out` (cleared first; see
    /// [`Game::legal_turns_into`]).
    pub fn loud_turns_into(&mut self, out: &mut Vec<Turn>) -> Result<(), Outcome> {
        let goes_on = self.loud_turns_seen_into(out)?;
        // No loud turn and no other turn seen: the game may be over (no turn at all).
        if !goes_on
            && self.count_turns() == 0
            && let Some(o) = self.outcome()
        {
            return Err(o);
        }
        Ok(())
    }

    /// [`Game::loud_turns_into`] without deciding whether a position with none is over: true
    /// when the game goes on (a loud turn listed, or another turn found legal), false when
    /// that is not known (no loud turn; see [`Game::quiet_turns_into`]). The outcome when the
    /// game is over before any turn.
    pub fn loud_turns_seen_into(&mut self, out: &mut Vec<Turn>) -> Result<bool, Outcome> {
        out.clear();
        let rules = self.rules;
        if let Some(every) = self.one_kind_from_every_turn(out, true) {
            // Every turn generated: the end is told.
            return every.map(|_| true);
        }
        if let Some(o) = self.repetition_end() {
            return Err(o);
        }
        let (n, more) = self
            .generator
            .loud_turns(rules, &self.pos, |t| out.push(t.to_turn()))?;
        Ok(n > 0 || more)
    }

    /// The legal turns that neither capture nor change a piece's kind written into `out`
    /// (cleared first): [`Game::legal_turns`] filtered (perhaps in another order), the others
    /// not tested where the rules allow it. The outcome when the game is over before any turn
    /// (a static end, the clock, a repetition); with no quiet turn, whether the game is over
    /// is not told: [`Game::loud_turns_into`] tells it.
    pub fn quiet_turns_into(&mut self, out: &mut Vec<Turn>) -> Result<(), Outcome> {
        out.clear();
        let rules = self.rules;
        if let Some(every) = self.one_kind_from_every_turn(out, false) {
            return every.map(drop);
        }
        if let Some(o) = self.repetition_end() {
            return Err(o);
        }
        self.generator
            .quiet_turns(rules, &self.pos, |t| out.push(t.to_turn()))
            .map(drop)
    }

    /// Where a repetition makes turns illegal, it filters every turn: the loud turns (`loud`)
    /// or the quiet ones are then pushed to `out` from every turn, and the number of all
    /// turns (or the end) returned. `None` (nothing done) otherwise.
    fn one_kind_from_every_turn(
        &mut self,
        out: &mut Vec<Turn>,
        loud: bool,
    ) -> Option<Result<usize, Outcome>> {
        let illegal = self.rules.repetition?.verdict == EndVerdict::Illegal;
        illegal.then(|| {
            self.turns(|t| {
                if t.is_loud() == loud {
                    out.push(t.to_turn());
                }
            })
        })
    }

    /// All legal turns found the slow, general way: every turn by the rules of movement is
    /// played and the royal pieces' safety tested, with none of the shortcuts that spare most
    /// of those tests. The same list as [`Game::legal_turns`]: the tests check that it is.
    pub fn legal_turns_by_testing(&mut self) -> Result<Vec<Turn>, Outcome> {
        self.generator.exhaustive = true;
        let r = self.legal_turns();
        self.generator.exhaustive = false;
        r
    }

    /// Calls `f` with every legal turn as it is generated (nothing is collected). Returns the
    /// number of turns, or the outcome if the game is over.
    pub fn each_turn(&mut self, mut f: impl FnMut(&Turn)) -> Result<usize, Outcome> {
        self.turns(|t| f(&t.to_turn()))
    }

    /// The number of legal turns (0 when the game is over).
    pub fn count_turns(&mut self) -> usize {
        match self.rules.repetition {
            // A rule that looks at the past filters turn by turn: count them one by one.
            Some(rep) if rep.verdict == EndVerdict::Illegal => self.turns(|_| {}).unwrap_or(0),
            _ if self.repetition_end().is_some() => 0,
            _ => self.generator.count(self.rules, &self.pos).unwrap_or(0),
        }
    }

    /// The outcome, if the game is over.
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.turns(|_| {}).err()
    }

    /// How many earlier positions of this game (since its start position) equal the current
    /// one: same board, hands, side to move, castling rights and en-passant cell (compared by
    /// their hash).
    pub fn repetitions(&self) -> u32 {
        earlier_equal(&self.history, self.hash, 0)
    }

    /// The legal turns by the rules of the position and of the game's history: a
    /// `[repetition]` that ends the game is decided before any turn; one that makes turns
    /// illegal filters them.
    fn turns(&mut self, mut f: impl FnMut(&TurnView<'_>)) -> Result<usize, Outcome> {
        let rules = self.rules;
        let Some(rep) = rules.repetition else {
            return self.generator.turns(rules, &self.pos, f);
        };
        if rep.verdict != EndVerdict::Illegal {
            if let Some(o) = self.repetition_end() {
                return Err(o);
            }
            return self.generator.turns(rules, &self.pos, f);
        }
        // Illegal repetition: each turn's resulting hash against the earlier positions with
        // the side to move it leaves (there are some once a turn has been played).
        let Game {
            pos,
            hash,
            history,
            generator,
            scratch,
            ..
        } = self;
        let mut n = 0;
        let total = generator.turns(rules, pos, |t| {
            let repeats = !history.is_empty() && {
                let h = hash_after(rules, pos, *hash, t, scratch);
                earlier_equal(history, h, 1) + 1 >= rep.occurrence
            };
            if !repeats {
                f(t);
                n += 1;
            }
        })?;
        if n == 0 && total > 0 {
            // Every turn would repeat: no legal turn, judged as checkmate or stalemate.
            let in_check = self.in_check();
            return Err(no_turn(rules, self.pos.side, in_check));
        }
        Ok(n)
    }

    /// The end of the game by a `[repetition]` that ends it (not one that makes turns
    /// illegal), if the current position is its repetition.
    fn repetition_end(&self) -> Option<Outcome> {
        let rep = self.rules.repetition?;
        if rep.verdict == EndVerdict::Illegal {
            return None;
        }
        // A position can come back no sooner than four turns later.
        let possible = self.history.len() >= 4 * (rep.occurrence as usize - 1);
        (possible && self.repetitions() + 1 >= rep.occurrence).then_some(Outcome {
            winner: match rep.verdict {
                EndVerdict::MoverLoses => Some(self.pos.side),
                _ => None,
            },
            reason: Reason::Repetition(rep.occurrence),
        })
    }

    /// Whether the side to move has a royal piece under attack.
    pub fn in_check(&mut self) -> bool {
        self.rules.has_royals()
            && !self
                .generator
                .royals_safe(self.rules, &self.pos, self.pos.side)
    }

    /// Plays a turn (assumed legal: take it from [`Game::legal_turns`] or
    /// [`crate::text::parse_turn`]).
    pub fn play(&mut self, t: &Turn) {
        self.play_owned(t.clone());
    }

    /// [`Game::play`] of a turn the caller gives up: it goes into the history as it is (perft
    /// plays every turn it lists, with no copy).
    fn play_owned(&mut self, t: Turn) {
        let ply = self.history.len();
        if self.undos.len() == ply {
            self.undos.push(Undo::default());
        }
        let undo = &mut self.undos[ply];
        let z = &self.rules.zobrist();
        let mut hash = self.hash;
        make_turn(self.rules, &mut self.pos, &t.view(), undo, |c, old, new| {
            hash = hash
                .wrapping_sub(z.cell(c, old))
                .wrapping_add(z.cell(c, new));
        });
        let mut hash = rehash_rest(
            z,
            undo.supplies_before(),
            undo.rest_before().expect("a whole turn was made"),
            &self.pos,
            hash,
        );
        // `[end] checks`: a turn that leaves the opponent in check counts for the mover.
        if self.rules.end.checks.is_some() && self.in_check() {
            let mover = self.pos.side.opponent();
            hash = hash
                .wrapping_sub(z.checks(mover, self.pos.checks[mover]))
                .wrapping_add(z.checks(mover, self.pos.checks[mover] + 1));
            self.pos.checks[mover] += 1;
        }
        self.history.push(Played {
            turn: t,
            hash: self.hash,
        });
        self.hash = hash;
    }

    /// Takes the last turn back; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(last) = self.history.len().checked_sub(1) else {
            return false;
        };
        unmake(&mut self.pos, &self.undos[last]);
        self.hash = self.history[last].hash;
        // Dropped in place (the turn is not moved out).
        self.history.truncate(last);
        true
    }

    /// Counts the leaves `depth` turns deep on `jobs` threads: the subtrees under the root's
    /// turns (or, when there are few, under the second ply's) are counted in parallel, each on
    /// its own copy of the game. The count is the same whatever `jobs`. A runaway in any
    /// subtree is returned with the (then incomplete) count.
    pub fn perft_jobs(&mut self, depth: u32, jobs: usize) -> (u64, Option<crate::vm::Runaway>) {
        if depth < 2 || jobs <= 1 || !cfg!(feature = "parallel") {
            let n = self.perft(depth);
            return (n, self.runaway());
        }
        // The work items: turn paths of one or two plies.
        let Ok(first) = self.legal_turns() else {
            return (0, self.runaway());
        };
        let mut paths: Vec<Vec<Turn>> = first.into_iter().map(|t| vec![t]).collect();
        if paths.len() < 4 * jobs && depth >= 3 {
            let mut deeper = Vec::new();
            for p in &paths {
                self.play(&p[0]);
                if let Ok(second) = self.legal_turns() {
                    for t in second {
                        deeper.push(vec![p[0].clone(), t]);
                    }
                }
                self.undo();
            }
            paths = deeper;
        }
        self.perft_paths(&paths, depth, jobs)
    }

    /// The sum of the counts under each path, on `jobs` threads (see [`Game::perft_jobs`]).
    #[cfg(feature = "parallel")]
    fn perft_paths(
        &mut self,
        paths: &[Vec<Turn>],
        depth: u32,
        jobs: usize,
    ) -> (u64, Option<crate::vm::Runaway>) {
        use rayon::prelude::*;
        let run = || {
            paths
                .par_iter()
                .map(|path| {
                    let mut g = self.clone();
                    for t in path {
                        g.play(t);
                    }
                    let n = g.perft(depth - u32::try_from(path.len()).unwrap_or(depth));
                    (n, g.runaway())
                })
                .reduce(|| (0, None), |a, b| (a.0 + b.0, a.1.or(b.1)))
        };
        // Each worker's clone of the game carries its stop and budgets.
        let (n, r) = match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        };
        (n, r.or(self.runaway()))
    }

    /// The sum of the counts under each path, one after the other (built without threads).
    #[cfg(not(feature = "parallel"))]
    fn perft_paths(
        &mut self,
        paths: &[Vec<Turn>],
        depth: u32,
        _jobs: usize,
    ) -> (u64, Option<crate::vm::Runaway>) {
        let mut n = 0;
        for path in paths {
            let mut g = self.clone();
            for t in path {
                g.play(t);
            }
            n += g.perft(depth - u32::try_from(path.len()).unwrap_or(depth));
            if let Some(r) = g.runaway() {
                return (n, Some(r));
            }
        }
        (n, self.runaway())
    }

    /// Counts the leaves of the legal turn tree `depth` turns deep.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_turns() as u64;
        }
        // A list kept from an earlier position (no allocation once perft has been this deep).
        let mut turns = self.lists.pop().unwrap_or_default();
        self.generator.set_any_order(true);
        let listed = self.legal_turns_into(&mut turns);
        self.generator.set_any_order(false);
        let mut n = 0;
        if listed.is_ok() {
            for t in turns.drain(..) {
                self.play_owned(t);
                n += self.perft(depth - 1);
                self.undo();
            }
        }
        self.lists.push(turns);
        n
    }
}

/// Earlier positions in `history` with hash `h` whose side to move is that of the current
/// position (`shift` 0) or of the next one (`shift` 1).
fn earlier_equal(history: &[Played], h: u64, shift: usize) -> u32 {
    let len = history.len() + shift;
    let n = history
        .iter()
        .enumerate()
        .filter(|(i, p)| (len - i).is_multiple_of(2) && p.hash == h)
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The hash after a turn's cell changes were added to `hash`: the rest of what a turn
/// changes (hands, taboo, en passant, castling rights, side), given what they were before
/// (the supplies `None` where the rules keep them fixed).
fn rehash_rest(
    z: &Zobrist,
    supplies: Option<&BySide<Vec<u32>>>,
    (taboo, ep, castling, passes): (Option<Cell>, Option<Cell>, u32, u8),
    after: &Position,
    mut hash: u64,
) -> u64 {
    // `None`: the rules keep the supplies fixed.
    for side in Side::BOTH {
        let Some(before) = supplies else { break };
        for (k, (&a, &b)) in before[side].iter().zip(&after.supplies[side]).enumerate() {
            if a != b {
                hash = hash.wrapping_add(
                    z.supply(side, k)
                        .wrapping_mul(u64::from(b).wrapping_sub(u64::from(a))),
                );
            }
        }
    }
    // Each part only where it changed (most turns keep the rights and the counters).
    if taboo != after.taboo {
        hash = hash
            .wrapping_sub(z.taboo(taboo))
            .wrapping_add(z.taboo(after.taboo));
    }
    if ep != after.ep {
        hash = hash.wrapping_sub(z.ep(ep)).wrapping_add(z.ep(after.ep));
    }
    if castling != after.castling {
        hash = hash
            .wrapping_sub(z.castling(castling))
            .wrapping_add(z.castling(after.castling));
    }
    if passes != after.passes {
        hash = hash
            .wrapping_sub(z.passes(passes))
            .wrapping_add(z.passes(after.passes));
    }
    if after.side == Side::Black {
        hash.wrapping_add(z.black)
    } else {
        hash.wrapping_sub(z.black)
    }
}

/// The hash of the position a turn leads to, played on `scratch` (a copy of `pos`).
fn hash_after(
    rules: &Ruleset,
    pos: &Position,
    hash: u64,
    t: &TurnView<'_>,
    scratch: &mut Position,
) -> u64 {
    let z = &rules.zobrist();
    scratch.clone_from(pos);
    let mut h = hash;
    apply_turn(rules, scratch, t, |c, old, new| {
        h = h.wrapping_sub(z.cell(c, old)).wrapping_add(z.cell(c, new));
    });
    rehash_rest(
        z,
        (!rules.supplies_fixed()).then_some(&pos.supplies),
        (pos.taboo, pos.ep, pos.castling, pos.passes),
        scratch,
        h,
    )
}

/// A random game for tests: `visit` sees each position before a random legal turn is played,
/// for at most `plies` turns (fewer when the game ends); with `undo_one_in = Some(n)`, about
/// one turn in `n` is taken back right after it is played. `below(n)` draws a number below
/// `n` (the caller's random source: this module does not depend on the search's). The game as
/// it stands at the end.
#[cfg(test)]
pub(crate) fn random_playout(
    rules: &Ruleset,
    mut below: impl FnMut(usize) -> usize,
    plies: usize,
    undo_one_in: Option<usize>,
    mut visit: impl FnMut(&Position),
) -> Game<'_> {
    let mut game = Game::start(rules);
    for _ in 0..plies {
        visit(game.pos());
        let Ok(turns) = game.legal_turns() else {
            break;
        };
        if turns.is_empty() {
            break;
        }
        game.play(&turns[below(turns.len())]);
        if undo_one_in.is_some_and(|n| below(n) == 0) {
            game.undo();
        }
    }
    game
}
