//! The end of a game: its outcome and reason, and what the position alone decides (B-60,
//! B-61).

use crate::board::Cell;
use crate::core::{BySide, Side};
use crate::core::{PieceKindId, RegionId, StoneKindId};
use crate::position::Position;
use crate::rules::{Bare, BothVanquished, Facing, Goal, Ruleset, Verdict};

use super::placement::region_side;

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A piece stands in a goal region (`[end] occupy`, `[[goal]]`, B-60): the goal's index
    /// in [`crate::rules::EndRules::goals`] and the piece's kind.
    Occupied(usize, PieceKindId),
    /// A stone that wins there was placed in its region (`wins-on`, B-60): the stone kind and
    /// the region's index.
    StonePlaced(StoneKindId, RegionId),
    /// The loser has no pieces (B-61).
    NoPieces,
    /// The loser started its turn without a piece move (B-62).
    Immobilized,
    /// The side to move has no legal turn.
    NoTurn,
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move is stalemated.
    Stalemate,
    /// A position occurred for the n-th time (`[repetition]`).
    Repetition(u32),
    /// The clock reached its limit (`[clock]`).
    Clock(u32),
    /// The loser's royal piece was captured (by a piece that does not give check: a neutral
    /// one).
    RoyalCaptured,
    /// The loser met every condition of `[end.vanquished]`.
    Vanquished,
    /// The winner gave check this many times (`[end] checks`).
    Checks(u32),
    /// Both sides reached a goal, the second with its answer (`[end] goal-answer`).
    BothReached,
    /// The loser has no piece of this kind left (`[end] extinction`).
    Extinct(PieceKindId),
    /// The loser has nothing left but its royal pieces (`[end] bare`).
    Bare,
    /// Both sides have nothing left but their royal pieces (`[end] bare`).
    BothBare,
    /// A pass was answered by a pass (`[end] two-passes`).
    TwoPasses,
    /// The side to move passed while the royal pieces faced each other (`[end]
    /// royals-facing`).
    Facing,
}

/// The end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Who won (`None`: a draw).
    pub winner: Option<Side>,
    /// Why.
    pub reason: Reason,
}

impl Reason {
    /// The reason in the variant's own names: "a piece on the enemy end-field", "a bomb
    /// placed on the enemy end-field", "checkmate".
    pub fn text(self, rules: &Ruleset) -> String {
        let region = |r: RegionId| {
            rules
                .regions
                .get(r.index())
                .map_or("goal region", |r| r.id.as_str())
                .to_string()
        };
        match self {
            Reason::Occupied(i, k) => {
                let Some(goal) = rules.end.goals.get(i) else {
                    return "a piece in a goal region".into();
                };
                let who = if goal.by.is_empty() {
                    "a piece".to_string()
                } else {
                    format!(
                        "a {}",
                        rules
                            .pieces
                            .get(k.index())
                            .map_or("piece", |p| p.name.as_str())
                    )
                };
                let whose = match goal.region.0 {
                    crate::rules::Whose::Own => "its own",
                    crate::rules::Whose::Enemy => "the enemy",
                };
                format!("{who} on {whose} {}", region(goal.region.1))
            }
            Reason::StonePlaced(k, r) => format!(
                "a {} placed on the enemy {}",
                rules
                    .stones
                    .get(k.index())
                    .map_or("stone", |s| s.name.as_str()),
                region(r)
            ),
            Reason::NoPieces => "no pieces left".into(),
            Reason::Immobilized => "cannot move a piece".into(),
            Reason::NoTurn => "no legal turn".into(),
            Reason::Checkmate => "checkmate".into(),
            Reason::Stalemate => "stalemate".into(),
            Reason::Repetition(n) => match n {
                2 => "a position repeated".into(),
                3 => "a position occurred for the third time".into(),
                n => format!("a position occurred {n} times"),
            },
            Reason::Clock(n) => format!("{n} turns without a capture or other reset of the clock"),
            Reason::RoyalCaptured => "the royal piece was captured".into(),
            Reason::Vanquished => "vanquished".into(),
            Reason::Checks(1) => "gave check".into(),
            Reason::Checks(n) => format!("gave check {n} times"),
            Reason::BothReached => "both sides reached a goal".into(),
            Reason::Bare => "nothing left but the royal piece".into(),
            Reason::BothBare => "both sides have nothing left but the royal piece".into(),
            Reason::TwoPasses => "both sides passed".into(),
            Reason::Facing => "a pass while the royal pieces faced each other".into(),
            Reason::Extinct(k) => format!(
                "no {} left",
                rules
                    .pieces
                    .get(k.index())
                    .map_or("piece", |p| p.name.as_str())
            ),
        }
    }
}

impl Outcome {
    /// The outcome in the variant's own names: `white wins (a piece on the enemy end-field)`.
    pub fn text(&self, rules: &Ruleset) -> String {
        let why = self.reason.text(rules);
        match self.winner {
            Some(w) => format!("{} wins ({why})", rules.side_name(w)),
            None => format!("draw ({why})"),
        }
    }
}

/// The outcome when the side to move has no legal turn: checkmate when it is in check,
/// stalemate otherwise, with the verdicts of `[end]`.
pub(crate) fn no_turn(rules: &Ruleset, side: Side, in_check: bool) -> Outcome {
    let (verdict, reason) = if in_check {
        (rules.end.checkmate, Reason::Checkmate)
    } else {
        (rules.end.stalemate, Reason::Stalemate)
    };
    let winner = match verdict {
        Verdict::Loses => Some(side.opponent()),
        Verdict::Wins => Some(side),
        Verdict::Draw => None,
    };
    Outcome { winner, reason }
}

/// Whether `side` has a piece of kind `k` on the board or in its reserve.
fn has_kind(rules: &Ruleset, pos: &Position, side: Side, k: PieceKindId) -> bool {
    pos.cells().iter().any(|o| o.as_piece() == Some((side, k)))
        || (rules.pieces[k.index()].reserve.is_some()
            && pos.supplies[side]
                .get(rules.hand_slot(k))
                .is_some_and(|&n| n > 0))
}

/// The kind of a piece of `side` standing in `goal`'s region, if one the goal counts does.
fn arrival(rules: &Ruleset, pos: &Position, side: Side, goal: &Goal) -> Option<PieceKindId> {
    let (w, r) = goal.region;
    let region = &rules.regions[r.index()].cells[region_side(side, w)];
    // From the position's cell sets where it keeps them (every kind has a slot below 64):
    // the lowest cell of the region holding an arriving piece, as the walk below finds it.
    if pos.has_piece_sets() && rules.pieces.len() <= 32 {
        let slot = |k: usize| pos.piece_set(2 * k + side.index());
        let arrived = if goal.by.is_empty() {
            (0..rules.pieces.len()).fold(0u128, |m, k| m | slot(k))
        } else {
            goal.by.iter().fold(0u128, |m, k| m | slot(k.index()))
        } & region.low128();
        return (arrived != 0)
            .then(|| {
                pos.at(Cell::new(arrived.trailing_zeros() as usize))
                    .as_piece()
            })
            .flatten()
            .map(|(_, k)| k);
    }
    region.iter().find_map(|c| match pos.at(c).as_piece() {
        Some((s, k)) if s == side && (goal.by.is_empty() || goal.by.contains(&k)) => Some(k),
        _ => None,
    })
}

/// The first goal `side` has reached (its index and the arriving kind), if any.
pub(crate) fn reached_goal(
    rules: &Ruleset,
    pos: &Position,
    side: Side,
) -> Option<(usize, PieceKindId)> {
    rules
        .end
        .goals
        .iter()
        .enumerate()
        .find_map(|(i, g)| arrival(rules, pos, side, g).map(|k| (i, k)))
}

/// With `[end] goal-answer`: the first side's arrival (its goal and kind) when the second
/// side is to answer it.
pub(crate) fn answer_pending(rules: &Ruleset, pos: &Position) -> Option<(usize, PieceKindId)> {
    if !rules.end.goal_answer || pos.side != Side::Black {
        return None;
    }
    reached_goal(rules, pos, Side::White)
}

/// The outcome decided by the position alone (B-60, B-61), without move generation.
pub fn static_outcome(rules: &Ruleset, pos: &Position) -> Option<Outcome> {
    let pieces = BySide::new(
        pos.cells()
            .iter()
            .any(|o| matches!(o.as_piece(), Some((Side::White, _)))),
        pos.cells()
            .iter()
            .any(|o| matches!(o.as_piece(), Some((Side::Black, _)))),
    );
    static_outcome_given(rules, pos, royal_sides(rules, pos), pieces)
}

/// Which sides have a royal piece on the board (both, when the rules have none).
fn royal_sides(rules: &Ruleset, pos: &Position) -> BySide<bool> {
    let mut has = BySide::new(!rules.has_royals(), !rules.has_royals());
    if rules.has_royals() {
        for o in pos.cells() {
            if let Some((s, k)) = o.as_piece()
                && rules.is_royal(k)
            {
                has[s] = true;
                if has[s.opponent()] {
                    break;
                }
            }
        }
    }
    has
}

/// The outcome by what is counted: checks given (`[end] checks`) and kinds died out
/// (`[end] extinction`).
fn counted_outcome(rules: &Ruleset, pos: &Position) -> Option<Outcome> {
    let mover = pos.side.opponent();
    if let Some(n) = rules.end.checks {
        // Only the side that just moved can have given its last check.
        for side in [mover, pos.side] {
            if pos.checks[side] >= n {
                return Some(Outcome {
                    winner: Some(side),
                    reason: Reason::Checks(n),
                });
            }
        }
    }
    if let Some(o) = bare_outcome(rules, pos) {
        return Some(o);
    }
    if rules.end.extinction.is_empty() {
        return None;
    }
    // The kinds each side has on the board, found in one pass (where kinds fit a mask).
    let mut on_board = BySide::new(0u64, 0u64);
    let masked = rules.pieces.len() <= 64;
    if masked && pos.has_piece_sets() {
        // From the piece sets: four words a kind (see `Position::kind_words`).
        for (k, w) in pos.kind_words().chunks_exact(4).enumerate().take(64) {
            on_board[Side::White] |= u64::from(w[0] | w[1] != 0) << k;
            on_board[Side::Black] |= u64::from(w[2] | w[3] != 0) << k;
        }
    } else if masked {
        for o in pos.cells() {
            if let Some((s, k)) = o.as_piece() {
                on_board[s] |= 1 << k.index();
            }
        }
    }
    // Extinction: the side that just moved first (its own last piece of a kind may have
    // changed kind).
    for side in [mover, pos.side] {
        let has = |k: PieceKindId| {
            if masked && on_board[side] & 1 << k.index() != 0 {
                return true;
            }
            if masked && rules.pieces[k.index()].reserve.is_none() {
                return false;
            }
            has_kind(rules, pos, side, k)
        };
        if let Some(&k) = rules.end.extinction.iter().find(|&&k| !has(k)) {
            return Some(Outcome {
                winner: Some(side.opponent()),
                reason: Reason::Extinct(k),
            });
        }
    }
    None
}

/// How many pieces `side` has besides its royal pieces, on the board and in its reserve.
fn others(rules: &Ruleset, pos: &Position, side: Side) -> usize {
    let hand: u32 = rules
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.reserve.is_some() && !p.royal)
        .map(|(k, _)| {
            pos.supplies[side]
                .get(rules.hand_slot(PieceKindId::new(k)))
                .copied()
                .unwrap_or(0)
        })
        .sum();
    others_on_board(rules, pos, side) + hand as usize
}

/// How many pieces of `side` other than royal ones stand on the board: on a board with piece
/// sets a population count per kind, else a pass over the cells.
fn others_on_board(rules: &Ruleset, pos: &Position, side: Side) -> usize {
    if !pos.has_piece_sets() {
        return others_on_board_by_scan(rules, pos, side);
    }
    let royals = rules.royal_kinds();
    pos.kind_sets()
        .enumerate()
        .filter(|&(k, _)| royals >> k & 1 == 0)
        .map(|(_, of)| of[side.index()].count_ones() as usize)
        .sum()
}

/// [`others_on_board`] by a pass over the cells.
fn others_on_board_by_scan(rules: &Ruleset, pos: &Position, side: Side) -> usize {
    pos.cells()
        .iter()
        .filter(|o| matches!(o.as_piece(), Some((s, k)) if s == side && !rules.is_royal(k)))
        .count()
}

/// `[end] bare`: the outcome when a side has nothing left but its royal pieces. The side that
/// just moved, bare while the other is not, loses (with `bare-answer`, it was bared and did
/// not bare back); the side to move, bare, loses at once unless `bare-answer` lets it answer
/// an opponent with a single other piece; both bare draw.
fn bare_outcome(rules: &Ruleset, pos: &Position) -> Option<Outcome> {
    if rules.end.bare == Bare::Ignored {
        return None;
    }
    let mover = pos.side.opponent();
    let (moved, to_move) = (others(rules, pos, mover), others(rules, pos, pos.side));
    let (winner, reason) = match (moved, to_move) {
        (0, 0) => (None, Reason::BothBare),
        (0, _) => (Some(pos.side), Reason::Bare),
        (1, 0) if rules.end.bare == Bare::Answered => return None,
        (_, 0) => (Some(mover), Reason::Bare),
        _ => return None,
    };
    Some(Outcome { winner, reason })
}

/// With `[end] goal-answer`: the outcome once the second side has answered the first side's
/// arrival in a goal (the generator plays the answer out, see [`answer_pending`]).
fn answered_outcome(rules: &Ruleset, pos: &Position) -> Option<Outcome> {
    if !rules.end.goal_answer {
        return None;
    }
    let first = reached_goal(rules, pos, Side::White);
    let second = reached_goal(rules, pos, Side::Black);
    match (pos.side, first, second) {
        (Side::White, Some(_), Some(_)) => Some(Outcome {
            winner: None,
            reason: Reason::BothReached,
        }),
        (Side::White, Some((i, k)), None) => Some(Outcome {
            winner: Some(Side::White),
            reason: Reason::Occupied(i, k),
        }),
        _ => None,
    }
}

/// The endings a pass brings about: a pass answered by a pass (`[end] two-passes`), a pass
/// while the royal pieces face each other (`[end] royals-facing`: the board is as it was, so
/// they face still).
fn pass_outcome(rules: &Ruleset, pos: &Position) -> Option<Outcome> {
    if pos.passes == 0 {
        return None;
    }
    let reason = if rules.end.two_passes_draw && pos.passes >= 2 {
        Reason::TwoPasses
    } else if rules
        .end
        .facing
        .as_ref()
        .is_some_and(|f| royals_face(rules, pos, pos.side, f))
    {
        Reason::Facing
    } else {
        return None;
    };
    Some(Outcome {
        winner: None,
        reason,
    })
}

/// Whether a royal piece of `side` faces an enemy royal piece (`[end] royals-facing`): on
/// one line of the facing directions, with only empty cells between.
pub(crate) fn royals_face(rules: &Ruleset, pos: &Position, side: Side, facing: &Facing) -> bool {
    let royal_of = |c: Cell, s: Side| matches!(pos.at(c).as_piece(), Some((x, k)) if x == s && rules.is_royal(k));
    rules.topo.cells().filter(|&c| royal_of(c, side)).any(|c| {
        facing.lines.iter().any(|&(a, b)| {
            let v = match side {
                Side::White => (a, b),
                Side::Black => (a, -b),
            };
            let mut at = c;
            while let Some(next) = rules.topo.offset(at, v) {
                if !pos.at(next).is_empty() {
                    return royal_of(next, side.opponent());
                }
                at = next;
            }
            false
        })
    })
}

/// [`static_outcome`], told which sides have a royal piece on the board (`royal_sides`, read
/// only when the rules have royal pieces) and which sides have a piece at all (`pieces`).
pub(crate) fn static_outcome_given(
    rules: &Ruleset,
    pos: &Position,
    royal_sides: BySide<bool>,
    pieces: BySide<bool>,
) -> Option<Outcome> {
    let mover = pos.side.opponent();
    if let Some(o) = pass_outcome(rules, pos) {
        return Some(o);
    }
    if let Some(o) = counted_outcome(rules, pos).or_else(|| answered_outcome(rules, pos)) {
        return Some(o);
    }
    for side in [mover, pos.side] {
        // An arrival of the first side waiting for the answer decides nothing yet.
        if rules.end.goal_answer && side == Side::White {
            continue;
        }
        for (i, goal) in rules.end.goals.iter().enumerate() {
            let arrived = arrival(rules, pos, side, goal);
            if let Some(k) = arrived {
                return Some(Outcome {
                    winner: match goal.verdict {
                        Verdict::Wins => Some(side),
                        Verdict::Loses => Some(side.opponent()),
                        Verdict::Draw => None,
                    },
                    reason: Reason::Occupied(i, k),
                });
            }
        }
        for (kind, st) in rules.stones.iter().enumerate() {
            if let Some((w, r)) = st.wins_on {
                let region = &rules.regions[r.index()].cells[region_side(side, w)];
                if region
                    .iter()
                    .any(|c| pos.at(c).as_stone() == Some(StoneKindId::new(kind)))
                {
                    return Some(Outcome {
                        winner: Some(side),
                        reason: Reason::StonePlaced(StoneKindId::new(kind), r),
                    });
                }
            }
        }
    }
    if rules.has_royals() {
        for side in [pos.side, mover] {
            // A side that plays without a royal piece never loses one.
            if !royal_sides[side] && !rules.without_royal[side] {
                return Some(Outcome {
                    winner: Some(side.opponent()),
                    reason: Reason::RoyalCaptured,
                });
            }
        }
    }
    if let Some(v) = &rules.end.vanquished {
        let (them, me) = (
            vanquished(rules, v, pos, pos.side),
            vanquished(rules, v, pos, mover),
        );
        // Both at once (a turn can take the last neutral piece from both): as the file says.
        let winner = match (them, me, v.both) {
            (false, false, _) => None,
            (true, false, _) | (true, true, BothVanquished::MoverWins) => Some(Some(mover)),
            (false, true, _) | (true, true, BothVanquished::MoverLoses) => {
                Some(Some(mover.opponent()))
            }
            (true, true, BothVanquished::Draw) => Some(None),
        };
        if let Some(winner) = winner {
            return Some(Outcome {
                winner,
                reason: Reason::Vanquished,
            });
        }
    }
    if rules.end.no_pieces_loses {
        for side in [pos.side, mover] {
            if !pieces[side] {
                return Some(Outcome {
                    winner: Some(side.opponent()),
                    reason: Reason::NoPieces,
                });
            }
        }
    }
    None
}

/// Whether `side` meets every condition of `v` in `pos`.
fn vanquished(rules: &Ruleset, v: &crate::rules::Vanquished, pos: &Position, side: Side) -> bool {
    if v.no_reserve
        && rules.pieces.iter().enumerate().any(|(k, p)| {
            p.reserve.is_some()
                && pos.supplies[side]
                    .get(rules.hand_slot(PieceKindId::new(k)))
                    .is_some_and(|&n| n > 0)
        })
    {
        return false;
    }
    let mut points = 0u32;
    for o in pos.cells() {
        if let Some((s, k)) = o.as_piece()
            && s == side
        {
            if v.none_of.contains(&k) {
                return false;
            }
            points = points.saturating_add(rules.pieces[k.index()].value.unwrap_or(1));
        }
    }
    if v.points_below.is_some_and(|limit| points >= limit) {
        return false;
    }
    !(v.no_neutrals && pos.cells().iter().any(|o| o.as_neutral().is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Occupant;
    use crate::play::game::random_playout;
    use crate::search::Rng;

    /// The pieces other than royal ones, counted from the piece sets and by the pass over the
    /// cells, agree for both sides in the positions of random games of every bundled game with
    /// royal pieces and piece sets, and with random pieces put on random cells (a count that
    /// took in the royal pieces, or missed a kind, fails here).
    #[test]
    fn others_from_piece_sets_are_the_others_by_scan() {
        let mut rng = Rng::new(61);
        let mut games = 0;
        for (name, text) in crate::BUNDLED {
            let Ok(rules) = Ruleset::from_source(name, text) else {
                continue;
            };
            if rules.topo.len() > 128 || !rules.has_royals() {
                continue;
            }
            games += 1;
            let same = |pos: &Position| {
                assert!(pos.has_piece_sets());
                for side in [Side::White, Side::Black] {
                    assert_eq!(
                        others_on_board(&rules, pos, side),
                        others_on_board_by_scan(&rules, pos, side),
                        "{name}, {side:?}: {pos:?}"
                    );
                }
            };
            let game = random_playout(&rules, |n| rng.below(n), 40, None, same);
            let mut pos = game.pos().clone();
            for _ in 0..100 {
                let c = crate::board::Cell::new(rng.below(rules.topo.len()));
                let k = PieceKindId::new(rng.below(rules.pieces.len()));
                let side = if rng.below(2) == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                let o = match rng.below(3) {
                    0 => Occupant::EMPTY,
                    _ => Occupant::piece(side, k),
                };
                pos.put(c, o);
                same(&pos);
            }
        }
        assert!(games >= 8, "only {games} bundled games with royal pieces");
    }
}
