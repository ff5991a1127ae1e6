//! The rules of play of a variant file: the turn and its kinds, the ending, the history rules
//! (clock, repetition, what a replaced piece becomes), the position text's fields and the
//! placement of stones.

use super::words::{
    self, AtLimit, BareAnswer, CapturedLeave, ChainEndsHome, ChainRevisits, Checkmate, Compulsory,
    Field, GivingCheck, GoalAnswer, GoalVerdict, Immobilized, NoPieces, Pass, RepetitionVerdict,
    ResetOn, RoyalsFacing, Stalemate, StoneAfterMove, TurnShape, TwoPasses, Word,
};
use super::{
    Bare, BothVanquished, Clock, Code, EndRules, Goal, Loader, PieceKind, PieceKindId, Placement,
    PositionField, Repetition, Replaced, Shapes, Spanned, StoneKind, StoneKindId, TurnRules,
    Vanquished, VariantDef, Verdict, span_of,
};
use crate::compile;
use crate::rules::Facing;

impl Loader<'_> {
    pub(super) fn actions(
        &mut self,
        def: &VariantDef,
        stones: &mut [StoneKind],
        pieces: &mut [PieceKind],
        regions: &[String],
    ) {
        let stone_ids: Vec<String> = stones.iter().map(|s| s.id.clone()).collect();
        let piece_ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        for (k, (_, sd)) in def.stones.iter().enumerate() {
            let explodes = self.kind_list(&sd.explodes, &stone_ids, "stone");
            let captures = self.kind_list(&sd.captures, &piece_ids, "piece");
            let not_by = self.kind_list(&sd.captures_not_by, &piece_ids, "piece");
            let wins_on = sd
                .wins_on
                .as_ref()
                .and_then(|w| self.region_ref(w, regions));
            if let Some(st) = stones.get_mut(k) {
                st.explodes = explodes.into_iter().map(StoneKindId::new).collect();
                st.captures = captures.into_iter().map(PieceKindId::new).collect();
                st.captures_not_by = not_by.into_iter().map(PieceKindId::new).collect();
                st.wins_on = wins_on;
            }
        }
        for (p, (_, pd)) in def.pieces.iter().enumerate() {
            let removes = self.kind_list(&pd.removes, &stone_ids, "stone");
            let per_turn = match &pd.stones_per_turn {
                None => 1,
                Some(n) if (0..=2).contains(n.get_ref()) => u8::try_from(*n.get_ref()).unwrap_or(1),
                Some(n) => {
                    self.problem(
                        Code::StonesPerTurn,
                        span_of(n),
                        format!("{} stones per turn is not supported", n.get_ref()),
                        "not 0, 1 or 2",
                        "a piece may place 0, 1 or 2 stones per turn",
                    );
                    1
                }
            };
            if let Some(pk) = pieces.get_mut(p) {
                pk.removes = removes.into_iter().map(StoneKindId::new).collect();
                pk.stones_per_turn = per_turn;
            }
        }
    }

    /// `[turn] chain-revisits` and `chain-ends-home`.
    fn chain_settings(&mut self, def: &VariantDef, t: &mut TurnRules) {
        t.revisit_after_capture = self
            .word_or_default::<ChainRevisits>(def.turn.chain_revisits.as_ref())
            == ChainRevisits::AfterCapture;
        t.home_after_capture = self
            .word_or_default::<ChainEndsHome>(def.turn.chain_ends_home.as_ref())
            == ChainEndsHome::AfterCapture;
    }

    pub(super) fn turn(&mut self, def: &VariantDef) -> TurnRules {
        let mut t = TurnRules::default();
        if let Some(e) = &def.turn.explosions {
            match u32::try_from(*e.get_ref()) {
                Ok(n) if n <= 2 => t.explosions = n,
                _ => self.problem(
                    Code::Turn,
                    span_of(e),
                    format!("`explosions = {}` is out of range", e.get_ref()),
                    "not 0, 1 or 2",
                    "a turn places at most two stones, so it blows up 0, 1 or 2",
                ),
            }
        }
        if let Some(b) = &def.turn.taboo_after_explosion {
            t.taboo_after_explosion = *b.get_ref();
        }
        if let Some(list) = &def.turn.shapes {
            t.shapes = self.shapes(list);
        }
        t.stone_after_move_compulsory = self
            .word_or_default::<StoneAfterMove>(def.turn.stone_after_move.as_ref())
            == StoneAfterMove::Compulsory;
        for c in self.words::<Compulsory>(&def.turn.compulsory) {
            match c {
                Compulsory::Capture => t.capture_compulsory = true,
            }
        }
        if let Some(b) = &def.turn.most_captures {
            t.most_captures = *b.get_ref();
        }
        t.captured_leave_at_end = self
            .word_or_default::<CapturedLeave>(def.turn.captured_leave.as_ref())
            == CapturedLeave::EndOfTurn;
        t.no_giving_check = self.word_or_default::<GivingCheck>(def.turn.giving_check.as_ref())
            == GivingCheck::Forbidden;
        self.chain_settings(def, &mut t);
        t.pass = self.word_or_default::<Pass>(def.turn.pass.as_ref()) == Pass::Allowed;
        if t.taboo_after_explosion
            && t.explosions > 1
            && let Some(e) = &def.turn.explosions
        {
            self.problem(
                Code::Turn,
                span_of(e),
                "more than one explosion a turn, each leaving a taboo cell",
                "two taboo cells",
                "position text holds one taboo cell: allow one explosion, or set `taboo-after-explosion = false`",
            );
        }
        t
    }

    /// A list of turn shapes (`move`, `move-then-stone`, `stone`).
    pub(super) fn shapes(&mut self, list: &Spanned<Vec<Spanned<String>>>) -> Shapes {
        let mut sh = Shapes {
            moves: false,
            move_then_stone: false,
            stone_only: false,
        };
        for shape in self.words::<TurnShape>(list.get_ref()) {
            match shape {
                TurnShape::Move => sh.moves = true,
                TurnShape::MoveThenStone => sh.move_then_stone = true,
                TurnShape::Stone => sh.stone_only = true,
            }
        }
        if !(sh.moves || sh.move_then_stone || sh.stone_only) {
            self.problem(
                Code::Turn,
                span_of(list),
                "no kind of turn is left",
                "empty",
                "name at least one of \"move\", \"move-then-stone\", \"stone\"",
            );
        }
        sh
    }

    pub(super) fn end(&mut self, def: &VariantDef, regions: &[String]) -> EndRules {
        let no_pieces_loses =
            self.word_or_default::<NoPieces>(def.end.no_pieces.as_ref()) == NoPieces::Loses;
        let immobilized_loses =
            self.word_or_default::<Immobilized>(def.end.immobilized.as_ref()) == Immobilized::Loses;
        let checkmate = self
            .word_or_default::<Checkmate>(def.end.checkmate.as_ref())
            .into();
        let stalemate = self
            .word_or_default::<Stalemate>(def.end.stalemate.as_ref())
            .into();
        let checks = def
            .end
            .checks
            .as_ref()
            .and_then(|c| self.checks_limit(def, c));
        let goals = self.goals(def, regions);
        let goal_answer = def
            .end
            .goal_answer
            .as_ref()
            .is_some_and(|a| self.goal_answer(a, &goals));
        EndRules {
            bare: self.bare(def),
            extinction: self.piece_kinds(def, &def.end.extinction),
            checks,
            goal_answer,
            goals,
            vanquished: self.vanquished(def),
            no_pieces_loses,
            immobilized_loses,
            checkmate,
            stalemate,
            two_passes_draw: false,
            facing: None,
        }
    }

    /// `[end] checks`: a count from 1 to 1000, in a game with royal pieces whose position
    /// text carries the counts.
    fn checks_limit(&mut self, def: &VariantDef, c: &Spanned<i64>) -> Option<u32> {
        let n = *c.get_ref();
        let in_range = (1..=1000).contains(&n);
        if !in_range {
            self.problem(
                Code::End,
                span_of(c),
                format!("checks = {n}"),
                "out of range",
                "write how many checks win, from 1 to 1000 (three-check: 3)",
            );
        }
        if !def.pieces.values().any(|p| p.royal) {
            self.problem(
                Code::End,
                span_of(c),
                "`checks` counts checks, and no piece is royal",
                "nothing can be in check",
                "mark the piece that can be checked with `royal = true`, or remove `checks`",
            );
        }
        let carried = def.notation.fields.as_ref().is_some_and(|f| {
            f.get_ref()
                .iter()
                .any(|n| Field::read(n.get_ref()) == Some(Field::Checks))
        });
        if !carried {
            self.problem(
                Code::End,
                span_of(c),
                "the checks given are not written in position text",
                "position text would lose the count",
                "add \"checks\" to [notation] fields, e.g. fields = [\"castling\", \"en-passant\", \"checks\", \"halfmove\", \"fullmove\"]",
            );
        }
        u32::try_from(n).ok().filter(|_| in_range)
    }

    /// The span of an ending by a pass written `draw` (`v`'s value is `draw`), if the game
    /// has a pass (`passes`); without one, that is a problem of its own.
    fn draw_by_pass<W: Word + PartialEq>(
        &mut self,
        v: Option<&Spanned<String>>,
        draw: W,
        passes: bool,
    ) -> Option<(usize, usize)> {
        let v = v?;
        if self.word::<W>(v)? != draw {
            return None;
        }
        let key = W::KEY;
        if !passes {
            self.problem(
                Code::End,
                span_of(v),
                format!("`{key}` ends the game by a pass, and this game has no pass"),
                "no pass to end it",
                format!("add `pass = \"allowed\"` to [turn], or remove `{key}`"),
            );
            return None;
        }
        Some(span_of(v))
    }

    /// `[end] two-passes`, `royals-facing` and `facing-lines`: endings that a pass brings
    /// about. `directions` are the variant's declared direction sets.
    pub(super) fn pass_endings(
        &mut self,
        def: &VariantDef,
        directions: &[(String, Vec<(i8, i8)>)],
        end: &mut EndRules,
    ) {
        // A misread `pass` counts as allowing it: its own problem is reported once.
        let passes = def
            .turn
            .pass
            .as_ref()
            .is_some_and(|p| Pass::read(p.get_ref()) != Some(Pass::Never));
        end.two_passes_draw = self
            .draw_by_pass(def.end.two_passes.as_ref(), TwoPasses::Draw, passes)
            .is_some();
        let facing = self.draw_by_pass(def.end.royals_facing.as_ref(), RoyalsFacing::Draw, passes);
        if facing.is_some() && !def.pieces.values().any(|p| p.royal) {
            self.problem(
                Code::End,
                facing.unwrap_or_default(),
                "`royals-facing` looks at royal pieces, and no piece is royal",
                "nothing can face",
                "mark the pieces that face with `royal = true`, or remove `royals-facing`",
            );
        }
        let lines = match &def.end.facing_lines {
            None => Some(vec![(0, 1), (1, 0), (0, -1), (-1, 0)]),
            Some(l) => {
                let name = l.get_ref().as_str();
                if def.end.royals_facing.is_none() {
                    self.problem(
                        Code::End,
                        span_of(l),
                        "`facing-lines` without `royals-facing`",
                        "nothing faces along them",
                        "add `royals-facing = \"draw\"`, or remove `facing-lines`",
                    );
                }
                let found = compile::BUILTIN_DIRECTIONS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_vec())
                    .or_else(|| {
                        directions
                            .iter()
                            .find(|(n, _)| n == name)
                            .map(|(_, v)| v.clone())
                    });
                if found.is_none() {
                    let known = compile::BUILTIN_DIRECTIONS
                        .iter()
                        .map(|(n, _)| *n)
                        .chain(directions.iter().map(|(n, _)| n.as_str()));
                    self.problem(
                        Code::End,
                        span_of(l),
                        format!("`{name}` is not a direction set"),
                        "unknown direction set",
                        crate::core::names::suggest(name, known),
                    );
                }
                found
            }
        };
        end.facing = facing.and(lines).map(|lines| Facing { lines });
    }

    /// `[end] bare` and `bare-answer`.
    fn bare(&mut self, def: &VariantDef) -> Bare {
        let bare = def.end.bare.as_ref().map(|b| self.word(b));
        let misread = matches!(bare, Some(None));
        let loses = bare.flatten() == Some(words::Bare::Loses);
        let answer = def
            .end
            .bare_answer
            .as_ref()
            .map(|a| (self.word(a), span_of(a)));
        let answered = match answer {
            None | Some((None | Some(BareAnswer::None), _)) => false,
            Some((Some(BareAnswer::Draw), span)) => {
                if !loses && !misread {
                    self.problem(
                        Code::End,
                        span,
                        "`bare-answer` answers a bare side's loss, and being bare loses nothing here",
                        "nothing to answer",
                        "add `bare = \"loses\"` to [end], or remove `bare-answer`",
                    );
                }
                true
            }
        };
        match (loses, answered) {
            (false, _) => Bare::Ignored,
            (true, false) => Bare::Loses,
            (true, true) => Bare::Answered,
        }
    }

    /// `[end] goal-answer`: whether the first side's arrival in a goal is answered (`draw`);
    /// the goals must exist and all be wins.
    fn goal_answer(&mut self, a: &Spanned<String>, goals: &[Goal]) -> bool {
        match self.word(a) {
            None | Some(GoalAnswer::None) => false,
            Some(GoalAnswer::Draw)
                if goals.is_empty() || goals.iter().any(|g| g.verdict != Verdict::Wins) =>
            {
                self.problem(
                    Code::End,
                    span_of(a),
                    "`goal-answer` answers the arrival in a goal that wins",
                    if goals.is_empty() { "no goal" } else { "a goal that does not win" },
                    "declare the goal with `occupy` (or [[goal]] entries with verdict \"wins\"), or remove `goal-answer`",
                );
                false
            }
            Some(GoalAnswer::Draw) => true,
        }
    }

    /// The piece kinds named in `list`.
    fn piece_kinds(&mut self, def: &VariantDef, list: &[Spanned<String>]) -> Vec<PieceKindId> {
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        self.kind_list(list, &ids, "piece")
            .into_iter()
            .map(PieceKindId::new)
            .collect()
    }

    /// `[end] occupy` and every `[[goal]]`.
    fn goals(&mut self, def: &VariantDef, regions: &[String]) -> Vec<Goal> {
        let occupy = def
            .end
            .occupy
            .as_ref()
            .and_then(|o| self.region_ref(o, regions));
        let mut goals = Vec::new();
        let occupy_by = self.piece_kinds(def, &def.end.occupy_by);
        if let Some(region) = occupy {
            goals.push(Goal {
                region,
                by: occupy_by,
                verdict: Verdict::Wins,
            });
        }
        for g in &def.goal {
            let region = self.region_ref(&g.region, regions);
            let by = self.piece_kinds(def, &g.by);
            let v = match &g.verdict {
                Some(v) => self.word::<GoalVerdict>(v),
                None => Some(GoalVerdict::Wins),
            };
            if let (Some(region), Some(v)) = (region, v) {
                let verdict = v.into();
                goals.push(Goal {
                    region,
                    by,
                    verdict,
                });
            }
        }
        goals
    }

    /// `[end.vanquished]`.
    fn vanquished(&mut self, def: &VariantDef) -> Option<Vanquished> {
        let v = def.end.vanquished.as_ref()?;
        let none_of = self.piece_kinds(def, &v.none_of);
        let points_below = v.points_below.as_ref().and_then(|p| {
            let n = *p.get_ref();
            if (1..=1_000_000).contains(&n) {
                u32::try_from(n).ok()
            } else {
                self.problem(
                    Code::End,
                    span_of(p),
                    format!("points-below {n}"),
                    "out of range",
                    "write a number of points from 1",
                );
                None
            }
        });
        let both: BothVanquished = self.word_or_default(v.both.as_ref());
        Some(Vanquished {
            no_reserve: v.no_reserve,
            none_of,
            points_below,
            no_neutrals: v.no_neutrals,
            both,
        })
    }

    /// `[reserve]`, `[clock]` and `[repetition]`.
    pub(super) fn history_rules(
        &mut self,
        def: &VariantDef,
    ) -> (Replaced, Clock, Option<Repetition>) {
        let replaced: Replaced = self.word_or_default(def.reserve.replaced.as_ref());
        let clock = self.clock(def);
        let repetition = self.repetition(def);
        (replaced, clock, repetition)
    }

    /// `[clock]`: what resets it, its limit and the verdict at the limit.
    fn clock(&mut self, def: &VariantDef) -> Clock {
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let c = &def.clock;
        let mut clock = Clock {
            reset_on_capture: c.reset_on.is_none(),
            ..Clock::default()
        };
        for e in self.words::<ResetOn>(c.reset_on.as_deref().unwrap_or_default()) {
            match e {
                ResetOn::Capture => clock.reset_on_capture = true,
                ResetOn::Change => clock.reset_on_change = true,
            }
        }
        clock.reset_by = self
            .kind_list(&c.reset_by, &ids, "piece")
            .into_iter()
            .map(PieceKindId::new)
            .collect();
        match (&c.limit, &c.at_limit) {
            (None, None) => {}
            (Some(l), v) => {
                let n = *l.get_ref();
                if !(1..=i64::from(u32::MAX)).contains(&n) {
                    self.problem(
                        Code::Clock,
                        span_of(l),
                        format!("a clock limit of {n}"),
                        "out of range",
                        "write a number of turns from 1",
                    );
                }
                let v = match v {
                    Some(v) => self.word::<AtLimit>(v),
                    None => Some(AtLimit::Draw),
                };
                if let Some(v) = v {
                    clock.limit = Some((u32::try_from(n).unwrap_or(u32::MAX).max(1), v.into()));
                }
            }
            (None, Some(v)) => self.problem(
                Code::Clock,
                span_of(v),
                "`at-limit` without a `limit`",
                "no limit",
                "add `limit = N` (turns without a reset) or remove this line",
            ),
        }
        clock
    }

    /// `[repetition]`.
    fn repetition(&mut self, def: &VariantDef) -> Option<Repetition> {
        let r = def.repetition.as_ref()?;
        let n = *r.occurrence.get_ref();
        let v = self.word::<RepetitionVerdict>(&r.verdict);
        if !(2..=1000).contains(&n) {
            self.problem(
                Code::Repetition,
                span_of(&r.occurrence),
                format!("occurrence {n}"),
                "out of range",
                "a position repeats from its 2nd occurrence: write 2 (any repetition) up to 1000",
            );
            return None;
        }
        v.map(|v| Repetition {
            occurrence: u32::try_from(n).unwrap_or(2),
            verdict: v.into(),
        })
    }

    pub(super) fn fields(&mut self, def: &VariantDef, stones: bool) -> Vec<PositionField> {
        let Some(f) = &def.notation.fields else {
            return if stones {
                vec![PositionField::Supplies, PositionField::Taboo]
            } else {
                Vec::new()
            };
        };
        let fields: Vec<PositionField> = self
            .words::<Field>(f.get_ref())
            .into_iter()
            .map(Into::into)
            .collect();
        if def.end.checks.is_none()
            && let Some(checks) = f
                .get_ref()
                .iter()
                .find(|n| Field::read(n.get_ref()) == Some(Field::Checks))
        {
            self.problem(
                Code::Notation,
                span_of(checks),
                "the field `checks` without `[end] checks`",
                "no checks are counted",
                "add `checks = N` to [end] (a side that gives check N times wins), or remove the field",
            );
        }
        fields
    }

    pub(super) fn placement(
        &mut self,
        def: &VariantDef,
        regions: &[String],
        stones: &[String],
    ) -> Placement {
        let mut p = Placement::default();
        for f in &def.placement.forbidden {
            if let Some(r) = self.region_ref(f, regions) {
                p.forbidden.push(r);
            }
        }
        for o in &def.placement.only {
            let r = self.region_ref(&o.region, regions);
            let kinds: Vec<StoneKindId> = self
                .kind_list(&o.stones, stones, "stone")
                .into_iter()
                .map(StoneKindId::new)
                .collect();
            if let Some((w, r)) = r {
                p.only.push((w, r, kinds));
            }
        }
        p
    }
}
