//! Why a requested turn is not legal, computed by the engine from the rules (move text and
//! any other front end only print it): the piece, its moves, the stone rules, in order of
//! what a player would want to hear first.

use crate::board::Cell;
use crate::core::{PieceKindId, RegionId, Side, StoneKindId};
use crate::rules::{Ruleset, Whose};
use crate::vm::{Machine, StoneEffect};

use super::apply::move_pieces;
use super::game::Game;
use super::outcome::Outcome;
use super::placement::placement;
use super::turn::{Turn, TurnView};

/// A turn as someone asked for it (from move text, or clicks): the acting piece's cell, its
/// destination, the cells it captures (the destination included when it captures there),
/// stones placed, a stone removed, a promotion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// The acting piece's cell.
    pub from: Cell,
    /// Where it moves, if it moves.
    pub to: Option<Cell>,
    /// The cells it captures, in any order.
    pub captures: Vec<Cell>,
    /// Stones placed: kind and cell.
    pub place: Vec<(StoneKindId, Cell)>,
    /// A stone removed.
    pub remove: Option<Cell>,
    /// The kind it promotes to.
    pub promote: Option<PieceKindId>,
    /// A piece of this kind dropped from the hand onto `from`.
    pub drop: Option<PieceKindId>,
    /// A pass (`from` is then ignored).
    pub pass: bool,
}

/// Why a requested turn is not legal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver(Outcome),
    /// No piece stands on the cell.
    NoPiece(Cell),
    /// The piece belongs to the side not to move.
    NotYourPiece {
        /// Its cell.
        at: Cell,
        /// Its kind.
        kind: PieceKindId,
        /// Its side.
        owner: Side,
    },
    /// The piece has no movement to that cell.
    NotAMove {
        /// The piece's cell.
        from: Cell,
        /// The cell asked for.
        to: Cell,
        /// Its kind.
        kind: PieceKindId,
    },
    /// The piece reaches the cell, but not capturing what was asked; these turns do.
    WrongCaptures {
        /// Its kind.
        kind: PieceKindId,
        /// The destination.
        to: Cell,
        /// The movements that reach it.
        ways: Vec<Turn>,
    },
    /// Neither a movement nor a stone, in a game without passing.
    Pass,
    /// A pass, which the game allows, but not here: it would leave a royal piece attacked.
    PassNotLegal,
    /// More stones than the piece may place.
    TooManyStones {
        /// Its kind.
        kind: PieceKindId,
    },
    /// Two stones on one cell.
    SameCell,
    /// The side's supply of that stone kind is empty.
    NoSupply {
        /// The side.
        side: Side,
        /// The stone kind.
        stone: StoneKindId,
    },
    /// The cell is not in the piece's placement range.
    OutOfRange {
        /// The cell.
        cell: Cell,
        /// The piece's kind.
        kind: PieceKindId,
        /// Where the range is taken from (after the movement).
        from: Cell,
    },
    /// The cell was emptied by an explosion in the previous turn (taboo).
    Taboo(Cell),
    /// The cell lies in a region where no stone may go.
    ForbiddenRegion {
        /// The cell.
        cell: Cell,
        /// Whose region, seen from the side to move.
        whose: Whose,
        /// The region's index.
        region: RegionId,
    },
    /// The placement rules keep that stone kind off that cell.
    NotAllowedHere {
        /// The stone kind.
        stone: StoneKindId,
        /// The cell.
        cell: Cell,
    },
    /// The stone placed on that enemy piece does not capture it.
    CapturesNothing {
        /// The stone kind.
        stone: StoneKindId,
        /// The enemy piece's kind.
        victim: PieceKindId,
        /// The cell.
        cell: Cell,
    },
    /// The cell holds an own piece.
    OwnPiece(Cell),
    /// The stone placed there does not blow up the stone on it.
    CannotExplode {
        /// The stone kind.
        stone: StoneKindId,
        /// The cell.
        cell: Cell,
    },
    /// The two stones together would blow up more than the turn allows.
    TooManyExplosions,
    /// The piece removes no stones.
    CannotRemove {
        /// Its kind.
        kind: PieceKindId,
    },
    /// No stone the piece may remove stands on the cell.
    NothingToRemove {
        /// The cell.
        cell: Cell,
        /// The piece's kind.
        kind: PieceKindId,
    },
    /// The stone is out of the piece's range.
    RemoveOutOfRange {
        /// The cell.
        cell: Cell,
        /// The piece's kind.
        kind: PieceKindId,
    },
    /// None of the above, yet not legal.
    NotLegal,
    /// The turn would repeat an earlier position, which the variant forbids.
    Repeats,
    /// A drop that is not a turn here.
    CannotDrop {
        /// The kind.
        kind: PieceKindId,
        /// The cell.
        cell: Cell,
        /// Why not.
        why: DropRefusal,
    },
}

/// Why a drop is not a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropRefusal {
    /// The hand holds no piece of the kind (or the variant has no drops).
    NotInHand,
    /// The kind is not dropped in this variant.
    NotDropped,
    /// The cell is not empty.
    Occupied,
    /// The cell is outside the kind's drop region.
    OutsideRegion,
    /// The cell's file already holds this many of the side's own pieces of the kind
    /// (`drop-file-limit`).
    FileFull(u32),
    /// The drop would checkmate, and the kind's drops may not (`drop-mate = "forbidden"`).
    Mates,
    /// The drop would leave a royal piece of the side attacked.
    Unsafe,
}

impl Game<'_> {
    /// The legal turn that matches the request, or why there is none.
    pub fn request(&mut self, req: &Request) -> Result<Turn, Refusal> {
        let turns = self.legal_turns().map_err(Refusal::GameOver)?;
        if req.pass {
            return match turns.iter().find(|u| u.is_pass()) {
                Some(u) => Ok(u.clone()),
                None if self.rules.turn.pass => Err(Refusal::PassNotLegal),
                None => Err(Refusal::Pass),
            };
        }
        let mut caps = req.captures.clone();
        caps.sort_unstable();
        caps.dedup();
        let mut place = req.place.clone();
        place.sort_by_key(|&(k, c)| (c, k));
        let wanted = |u: &Turn| {
            u.from() == req.from
                && u.to() == req.to
                && u.captures() == caps
                && u.placed() == place
                && u.removed() == req.remove
                && u.dropped() == req.drop
                && u.promote() == req.promote
        };
        if let Some(u) = turns.iter().find(|u| wanted(u)) {
            return Ok(u.clone());
        }
        // A castling written as the king's move onto its partner.
        if let Some(u) = turns.iter().find(|u| {
            u.from() == req.from
                && caps.is_empty()
                && place.is_empty()
                && req.remove.is_none()
                && req.drop.is_none()
                && req.promote.is_none()
                && u.castle().is_some_and(|i| {
                    self.rules.castlings[i as usize]
                        .partners
                        .first()
                        .is_some_and(|p| Some(p.0) == req.to)
                })
        }) {
            return Ok(u.clone());
        }
        if self.rules.repetition.is_some() {
            // A turn of the position that only the game's history forbids.
            let mut forbidden = false;
            let _ = self.generator.turns(self.rules, &self.pos, |v| {
                forbidden |= wanted(&v.to_turn());
            });
            if forbidden {
                return Err(Refusal::Repeats);
            }
        }
        Err(refusal(self, &turns, req, &caps))
    }
}

fn refusal(game: &Game<'_>, turns: &[Turn], req: &Request, caps: &[Cell]) -> Refusal {
    let rules = game.rules;
    let pos = &game.pos;
    if let Some(kind) = req.drop {
        return Refusal::CannotDrop {
            kind,
            cell: req.from,
            why: drop_refusal(game, kind, req.from),
        };
    }
    let Some((side, kind)) = pos.at(req.from).as_piece() else {
        return Refusal::NoPiece(req.from);
    };
    let piece = &rules.pieces[kind.index()];
    if side != pos.side {
        return Refusal::NotYourPiece {
            at: req.from,
            kind,
            owner: side,
        };
    }
    if let Some(to) = req.to {
        let same_dest: Vec<&Turn> = turns
            .iter()
            .filter(|u| u.from() == req.from && u.to() == Some(to))
            .collect();
        if same_dest.is_empty() {
            return Refusal::NotAMove {
                from: req.from,
                to,
                kind,
            };
        }
        if !same_dest.iter().any(|u| u.captures() == caps) {
            let mut ways: Vec<Turn> = same_dest.iter().map(|u| u.without_stones()).collect();
            ways.sort();
            ways.dedup();
            return Refusal::WrongCaptures { kind, to, ways };
        }
    } else if req.place.is_empty() && req.remove.is_none() {
        return Refusal::Pass;
    }
    if !req.place.is_empty() {
        return placement_refusal(rules, game, turns, req, caps, side, kind);
    }
    if let Some(c) = req.remove {
        if piece.removes.is_empty() {
            return Refusal::CannotRemove { kind };
        }
        if !pos
            .at(c)
            .as_stone()
            .is_some_and(|s| piece.removes.contains(&s))
        {
            return Refusal::NothingToRemove { cell: c, kind };
        }
        return Refusal::RemoveOutOfRange { cell: c, kind };
    }
    Refusal::NotLegal
}

/// Why a drop of `kind` on `cell` is not a turn of the game's position.
fn drop_refusal(game: &Game<'_>, kind: PieceKindId, cell: Cell) -> DropRefusal {
    let (rules, pos) = (game.rules, &game.pos);
    let side = pos.side;
    let in_hand = pos.supplies[side]
        .get(rules.hand_slot(kind))
        .is_some_and(|&n| n > 0);
    let Some(d) = rules.drops.as_ref() else {
        return DropRefusal::NotInHand;
    };
    let Some(i) = d.kinds.iter().position(|&k| k == kind) else {
        return DropRefusal::NotDropped;
    };
    if !in_hand {
        return DropRefusal::NotInHand;
    }
    if !pos.at(cell).is_empty() {
        return DropRefusal::Occupied;
    }
    let (w, r) = d.regions[i];
    if !rules.regions[r.index()].cells[super::placement::region_side(side, w)].contains(cell) {
        return DropRefusal::OutsideRegion;
    }
    if let Some(n) = d.file_limits[i] {
        let file = rules.topo.layout(cell).0;
        let held = rules
            .topo
            .cells()
            .filter(|&c| {
                rules.topo.layout(c).0 == file
                    && pos.at(c) == crate::core::Occupant::piece(side, kind)
            })
            .count();
        if held >= n as usize {
            return DropRefusal::FileFull(n);
        }
    }
    if d.no_mate.contains(&kind) {
        // Legal but for the mate: the same drop with the mate allowed would be a turn.
        let mut after = pos.clone();
        let view = TurnView::dropping(cell, kind);
        super::apply::apply_turn(rules, &mut after, &view, |_, _, _| {});
        let mut g = super::generate::Generator::default();
        let checks = !g.royals_safe(rules, &after, after.side);
        if checks && g.turns(rules, &after, |_| {}).is_err() {
            return DropRefusal::Mates;
        }
    }
    DropRefusal::Unsafe
}

/// Why the stones of a request may not go where it says.
fn placement_refusal(
    rules: &Ruleset,
    game: &Game<'_>,
    turns: &[Turn],
    req: &Request,
    caps: &[Cell],
    side: Side,
    kind: PieceKindId,
) -> Refusal {
    let pos = &game.pos;
    let piece = &rules.pieces[kind.index()];
    if req.place.len() > piece.stones_per_turn as usize {
        return Refusal::TooManyStones { kind };
    }
    if req.place.len() == 2 && req.place[0].1 == req.place[1].1 {
        return Refusal::SameCell;
    }
    let mut need = vec![0u32; rules.stones.len()];
    for &(k, _) in &req.place {
        need[k.index()] += 1;
    }
    for (k, &n) in need.iter().enumerate() {
        if n > 0 && pos.supplies[side][k] < n {
            return Refusal::NoSupply {
                side,
                stone: StoneKindId::new(k),
            };
        }
    }
    // The range the stones are placed from: after the movement, if any.
    let mut scratch = pos.clone();
    let at = match req.to {
        Some(to) => {
            let dest = turns
                .iter()
                .find(|u| u.from() == req.from && u.to() == Some(to) && u.captures() == caps)
                .map_or(StoneEffect::None, Turn::dest);
            let movement = TurnView::movement(req.from, to, caps, dest);
            move_pieces(rules, &mut scratch, &movement, &mut ());
            to
        }
        None => req.from,
    };
    let range: Vec<Cell> = Machine::new().range(rules, &scratch, at).to_vec();
    for &(k, c) in &req.place {
        if !range.contains(&c) {
            return Refusal::OutOfRange {
                cell: c,
                kind,
                from: at,
            };
        }
        if placement(rules, &scratch, side, kind, k, c).is_some() {
            continue;
        }
        let occ = scratch.at(c);
        if Some(c) == pos.taboo && occ.is_empty() {
            return Refusal::Taboo(c);
        }
        if occ.is_empty() || occ.as_piece().is_some_and(|(s, _)| s != side) {
            for &(w, r) in &rules.placement.forbidden {
                let rs = if w == Whose::Own {
                    side
                } else {
                    side.opponent()
                };
                if rules.regions[r.index()].cells[rs].contains(c) {
                    return Refusal::ForbiddenRegion {
                        cell: c,
                        whose: w,
                        region: r,
                    };
                }
            }
            if !rules.stone_allowed(side, k, c) {
                return Refusal::NotAllowedHere { stone: k, cell: c };
            }
        }
        return match occ.as_piece() {
            Some((s, pk)) if s != side => Refusal::CapturesNothing {
                stone: k,
                victim: pk,
                cell: c,
            },
            Some(_) => Refusal::OwnPiece(c),
            None if occ.as_stone().is_some() => Refusal::CannotExplode { stone: k, cell: c },
            None => Refusal::NotAllowedHere { stone: k, cell: c },
        };
    }
    if req.place.len() == 2 {
        return Refusal::TooManyExplosions;
    }
    Refusal::NotLegal
}
