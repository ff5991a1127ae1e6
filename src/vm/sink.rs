//! What a run does with the end of each path, one type per question: the movement options
//! ([`Moves`]), the placement range ([`Range`]) or an attack's answer ([`Attack`]). Every way of
//! running a program (`general`, `prune`, `direct`) is generic over its sink, so each is
//! compiled once per question and no landing asks which question it answers.

use super::plain::plain_attack_cell;
use super::{Machine, Options, StoneEffect};
use crate::board::{Cell, Side};
use crate::compile::Program;
use crate::position::Position;
use crate::rules::{PieceKind, Ruleset};

/// The receiver of a run's results (see the module's documentation).
pub(super) trait Sink {
    /// A placement range: nothing is taken or collected on the way, and every cell a leg
    /// reaches counts, whatever stands there (RULINGS B-41).
    const RANGE: bool;

    /// The program of `piece` that answers the question.
    fn program(piece: &PieceKind) -> &Program;

    /// Answers the question for a plain program (see [`Program::plain`]) straight from the
    /// position; false when the question has no such shortcut (it is then run as usual).
    #[inline]
    fn plain(
        &mut self,
        _m: &mut Machine,
        _rules: &Ruleset,
        _pos: &Position,
        _from: Cell,
        _side: Side,
        _prog: &Program,
    ) -> bool {
        false
    }

    /// Takes the end of a path on `to` (the machine's `caps` are the pieces it took), with
    /// what it does to a stone there and whether its last leg can capture.
    fn accept(&mut self, m: &mut Machine, to: Cell, fx: StoneEffect, capleg: bool);

    /// Whether the answer is complete, so the run stops at once (an attack found).
    #[inline]
    fn done(&self) -> bool {
        false
    }

    /// How many results the sink holds (the pruning walk remembers it per state).
    fn results(&self, m: &Machine) -> usize;

    /// Whether the end of a path on `to` would add nothing to what the sink holds (asked by
    /// the pruning walk, which may not stop while it finds only such ends).
    fn known(&self, m: &mut Machine, to: Cell, capleg: bool) -> bool;
}

/// The movement options, one per effect (RULINGS B-17), into the caller's [`Options`].
pub(super) struct Moves<'o>(pub(super) &'o mut Options);

impl Sink for Moves<'_> {
    const RANGE: bool = false;

    #[inline]
    fn program(piece: &PieceKind) -> &Program {
        &piece.moves
    }

    #[inline]
    fn plain(
        &mut self,
        m: &mut Machine,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        prog: &Program,
    ) -> bool {
        m.plain_moves(rules, pos, from, side, prog, self.0);
        true
    }

    #[inline]
    fn accept(&mut self, m: &mut Machine, to: Cell, fx: StoneEffect, capleg: bool) {
        m.add_option(self.0, to, fx, capleg);
    }

    #[inline]
    fn results(&self, _: &Machine) -> usize {
        self.0.moves.len()
    }

    fn known(&self, m: &mut Machine, to: Cell, capleg: bool) -> bool {
        m.sort_caps();
        m.find(self.0, to)
            .is_some_and(|i| self.0.moves[i].capturing_leg || !capleg)
    }
}

/// The placement range, into the machine's `range` (each cell once).
pub(super) struct Range;

impl Sink for Range {
    const RANGE: bool = true;

    #[inline]
    fn program(piece: &PieceKind) -> &Program {
        &piece.range
    }

    #[inline]
    fn accept(&mut self, m: &mut Machine, to: Cell, _: StoneEffect, _: bool) {
        m.range_add(to);
    }

    #[inline]
    fn results(&self, m: &Machine) -> usize {
        m.range.len()
    }

    fn known(&self, m: &mut Machine, to: Cell, _: bool) -> bool {
        m.stamp[to.index()] == m.epoch
    }
}

/// Whether some path captures the piece on `target`; the run stops at the first.
pub(super) struct Attack {
    pub(super) target: Cell,
    pub(super) found: bool,
}

impl Sink for Attack {
    const RANGE: bool = false;

    #[inline]
    fn program(piece: &PieceKind) -> &Program {
        &piece.attacks
    }

    #[inline]
    fn plain(
        &mut self,
        _: &mut Machine,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        side: Side,
        prog: &Program,
    ) -> bool {
        self.found = plain_attack_cell(rules, pos, from, side, prog, self.target);
        true
    }

    #[inline]
    fn accept(&mut self, m: &mut Machine, _: Cell, _: StoneEffect, _: bool) {
        self.found |= m.caps.contains(&self.target);
    }

    #[inline]
    fn done(&self) -> bool {
        self.found
    }

    #[inline]
    fn results(&self, _: &Machine) -> usize {
        0
    }

    fn known(&self, m: &mut Machine, _: Cell, _: bool) -> bool {
        !m.caps.contains(&self.target)
    }
}
