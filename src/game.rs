//! Playing: whole turns (RULINGS B-40 … B-50), generated, applied and undone with an
//! incrementally updated hash; the end of the game (B-60 … B-62); royal pieces, castling, en
//! passant and promotion as declared by the variant file; perft.
//!
//! A turn is one of: move a piece; move it and then place stones from its new cell; place
//! stones without moving; a piece that `removes` stones may remove one instead of placing.
//! Which stones exist, what they blow up or capture and where they win is read from the
//! variant file.

use crate::board::{Cell, Side};
use crate::position::{Occupant, Position};
use crate::variant::{PositionField, Ruleset, Verdict, Whose};
use crate::vm::{Machine, Options, StoneEffect};

/// Keys of the position hash. The hash is the wrapping sum of one key per (cell, occupant),
/// one per stone in each supply, one for Black to move and one for the taboo cell, so that a
/// turn updates it by adding and subtracting the keys of what it changed.
#[derive(Debug, Clone, Default)]
pub struct Zobrist {
    cells: Vec<u64>,
    supply: Vec<u64>,
    black: u64,
    taboo: Vec<u64>,
    castle: Vec<u64>,
    stones: usize,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Keys for a board of `cells` cells and `stones` stone kinds (fixed seed: hashes are
    /// the same in every run).
    pub fn new(cells: usize, stones: usize, castlings: usize) -> Zobrist {
        let mut s = 0x00B0_11E4_B178_u64;
        Zobrist {
            cells: (0..cells * 256).map(|_| splitmix(&mut s)).collect(),
            supply: (0..2 * stones).map(|_| splitmix(&mut s)).collect(),
            black: splitmix(&mut s),
            taboo: (0..2 * cells).map(|_| splitmix(&mut s)).collect(),
            castle: (0..castlings).map(|_| splitmix(&mut s)).collect(),
            stones,
        }
    }

    #[inline]
    fn cell(&self, c: Cell, o: Occupant) -> u64 {
        self.cells[c as usize * 256 + o.code() as usize]
    }

    #[inline]
    fn supply(&self, side: Side, kind: usize) -> u64 {
        self.supply[side.index() * self.stones + kind]
    }

    fn taboo(&self, t: Option<Cell>) -> u64 {
        t.map_or(0, |c| self.taboo[c as usize])
    }

    fn ep(&self, t: Option<Cell>) -> u64 {
        t.map_or(0, |c| self.taboo[self.taboo.len() / 2 + c as usize])
    }

    fn castling(&self, rights: u32) -> u64 {
        self.castle
            .iter()
            .enumerate()
            .filter(|(i, _)| rights & (1 << i) != 0)
            .fold(0u64, |a, (_, k)| a.wrapping_add(*k))
    }

    /// The hash of a whole position, computed from scratch.
    pub fn hash(&self, pos: &Position) -> u64 {
        let mut h = 0u64;
        for (c, &o) in pos.cells.iter().enumerate() {
            h = h.wrapping_add(self.cell(c as Cell, o));
        }
        for side in Side::BOTH {
            for (k, &n) in pos.supplies[side.index()].iter().enumerate() {
                h = h.wrapping_add(self.supply(side, k).wrapping_mul(n as u64));
            }
        }
        if pos.side == Side::Black {
            h = h.wrapping_add(self.black);
        }
        h.wrapping_add(self.taboo(pos.taboo))
            .wrapping_add(self.ep(pos.ep))
            .wrapping_add(self.castling(pos.castling))
    }
}

/// What a turn does with stones after any movement.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Nothing.
    None,
    /// Place stones: (stone kind, cell), sorted by cell.
    Place(Vec<(u8, Cell)>),
    /// Remove the stone on a cell (B-46).
    Remove(Cell),
}

/// One legal turn.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    /// The acting piece's cell.
    pub from: Cell,
    /// Its destination, if it moves.
    pub to: Option<Cell>,
    /// Cells whose pieces the movement captures, sorted.
    pub captures: Vec<Cell>,
    /// What the movement does to a stone on the destination.
    pub dest: StoneEffect,
    /// Stones placed or removed.
    pub action: Action,
    /// The piece kind it promotes to on arrival.
    pub promote: Option<u8>,
    /// The castling (index into the variant's list) this move is.
    pub castle: Option<u8>,
}

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A piece stands in the opponent's region (B-60).
    Occupied,
    /// A winning stone was placed in the opponent's region (B-60).
    Bombed,
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
}

/// The end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Who won (`None`: a draw).
    pub winner: Option<Side>,
    /// Why.
    pub reason: Reason,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.reason {
            Reason::Occupied => "occupied the opponent's end field",
            Reason::Bombed => "placed a bomb on the opponent's end field",
            Reason::NoPieces => "no pieces left",
            Reason::Immobilized => "cannot move a piece",
            Reason::NoTurn => "no legal turn",
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
        };
        match self.winner {
            Some(w) => write!(f, "{w} wins ({why})"),
            None => write!(f, "draw ({why})"),
        }
    }
}

/// Everything needed to take a turn back.
#[derive(Debug, Clone)]
pub struct Undo {
    cells: Vec<(Cell, Occupant)>,
    supplies: [Vec<u32>; 2],
    taboo: Option<Cell>,
    ep: Option<Cell>,
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
    /// The current position.
    pub pos: Position,
    hash: u64,
    history: Vec<(Turn, Undo)>,
    generator: Generator,
}

/// Reusable buffers for turn generation: one core generates, the other checks legality.
#[derive(Debug, Clone, Default)]
pub struct Generator {
    core: Core,
    check: Core,
    after: Position,
}

#[derive(Debug, Clone, Default)]
struct Core {
    vm: Machine,
    opts: Options,
    attack: Options,
    scratch: Position,
    range: Vec<Cell>,
    singles: Vec<(u8, Cell, bool)>,
    removals: Vec<Cell>,
}

/// A borrowed view of a turn handed to generation callbacks.
#[derive(Debug, Clone, Copy)]
pub struct TurnView<'a> {
    /// The acting piece's cell.
    pub from: Cell,
    /// Its destination, if it moves.
    pub to: Option<Cell>,
    /// Cells it captures, sorted.
    pub captures: &'a [Cell],
    /// What the movement does to a stone on the destination.
    pub dest: StoneEffect,
    /// Stones placed.
    pub place: &'a [(u8, Cell)],
    /// Stone removed.
    pub remove: Option<Cell>,
    /// Promotion.
    pub promote: Option<u8>,
    /// Castling.
    pub castle: Option<u8>,
}

impl TurnView<'_> {
    /// An owned turn.
    pub fn to_turn(&self) -> Turn {
        let mut place = self.place.to_vec();
        place.sort_by_key(|&(k, c)| (c, k));
        Turn {
            from: self.from,
            to: self.to,
            captures: self.captures.to_vec(),
            dest: self.dest,
            action: match (self.remove, place.is_empty()) {
                (Some(c), _) => Action::Remove(c),
                (None, true) => Action::None,
                (None, false) => Action::Place(place),
            },
            promote: self.promote,
            castle: self.castle,
        }
    }

    fn of(t: &Turn) -> TurnView<'_> {
        let (place, remove): (&[(u8, Cell)], Option<Cell>) = match &t.action {
            Action::None => (&[], None),
            Action::Place(l) => (l, None),
            Action::Remove(c) => (&[], Some(*c)),
        };
        TurnView {
            from: t.from,
            to: t.to,
            captures: &t.captures,
            dest: t.dest,
            place,
            remove,
            promote: t.promote,
            castle: t.castle,
        }
    }
}

/// A movement found for a piece: destination, captures, stone effect.
struct Step<'a> {
    to: Cell,
    captures: &'a [Cell],
    dest: StoneEffect,
}

/// What placing a stone on a cell does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceEffect {
    /// The stone stays on the empty cell.
    Stone,
    /// The stone blows up the stone there; both leave the game (B-47).
    Explode,
    /// The stone captures the enemy piece there and stays (B-49).
    Capture,
}

/// Whether `side` may place a stone of kind `stone` on `cell` with a piece of kind `placer`
/// (the cell being in the piece's range), and what it does: B-44, B-47, B-48, B-49, B-50.
pub fn placement(
    rules: &Ruleset,
    pos: &Position,
    side: Side,
    placer: u8,
    stone: u8,
    cell: Cell,
) -> Option<PlaceEffect> {
    if pos.supplies[side.index()][stone as usize] == 0 {
        return None;
    }
    let st = &rules.stones[stone as usize];
    let taboo = if pos.side == side { pos.taboo } else { None };
    let allowed = || Some(cell) != taboo && rules.stone_allowed(side, stone, cell);
    let occ = pos.at(cell);
    if occ.is_empty() {
        allowed().then_some(PlaceEffect::Stone)
    } else if let Some(s2) = occ.as_stone() {
        st.explodes.contains(&s2).then_some(PlaceEffect::Explode)
    } else if let Some((ps, pk)) = occ.as_piece() {
        (ps != side
            && st.captures.contains(&pk)
            && !st.captures_not_by.contains(&placer)
            && allowed())
        .then_some(PlaceEffect::Capture)
    } else {
        None
    }
}

fn region_side(side: Side, w: Whose) -> Side {
    match w {
        Whose::Own => side,
        Whose::Enemy => side.opponent(),
    }
}

/// Applies the movement part of a turn to `pos` (no side change).
pub(crate) fn apply_movement(
    pos: &mut Position,
    from: Cell,
    to: Cell,
    captures: &[Cell],
    dest: StoneEffect,
) {
    let side = pos.side;
    let piece = pos.cells[from as usize];
    pos.cells[from as usize] = Occupant::EMPTY;
    for &c in captures {
        pos.cells[c as usize] = Occupant::EMPTY;
    }
    if let StoneEffect::Collect(k) = dest {
        let n = &mut pos.supplies[side.index()][k as usize];
        *n = n.saturating_add(1);
    }
    pos.cells[to as usize] = piece;
}

/// Applies a whole turn to `pos`, reporting every cell change (cell, old, new).
pub fn apply_turn(
    rules: &Ruleset,
    pos: &mut Position,
    t: &TurnView<'_>,
    mut on_cell: impl FnMut(Cell, Occupant, Occupant),
) {
    let side = pos.side;
    let mut set = |pos: &mut Position, c: Cell, o: Occupant| {
        let old = pos.cells[c as usize];
        if old != o {
            on_cell(c, old, o);
            pos.cells[c as usize] = o;
        }
    };
    let mut ep = None;
    let mut reset_clock = false;
    if let Some(to) = t.to {
        let piece = pos.at(t.from);
        // A castling lifts both pieces before either lands: the king's destination may be its
        // partner's start cell, and the partner's destination the king's start cell.
        let partner = t.castle.map(|i| {
            let c = &rules.castlings[i as usize];
            (c.rook, pos.at(c.rook.0))
        });
        set(pos, t.from, Occupant::EMPTY);
        if let Some(((start, _), _)) = partner {
            set(pos, start, Occupant::EMPTY);
        }
        for &c in t.captures {
            set(pos, c, Occupant::EMPTY);
        }
        if let StoneEffect::Collect(k) = t.dest {
            let n = &mut pos.supplies[side.index()][k as usize];
            *n = n.saturating_add(1);
        }
        let arriving = t.promote.map_or(piece, |k| Occupant::piece(side, k));
        set(pos, to, arriving);
        if let Some(((_, dest), p)) = partner {
            set(pos, dest, p);
        }
        if let Some((_, k)) = piece.as_piece() {
            let kind = &rules.pieces[k as usize];
            reset_clock = kind.en_passant || kind.promotion.is_some();
            if kind.en_passant {
                let (f0, r0) = rules.topo.coord(t.from);
                let (f1, r1) = rules.topo.coord(to);
                if f0 == f1 && (r1 - r0).abs() == 2 {
                    ep = rules.topo.cell_at(f0, (r0 + r1) / 2);
                }
            }
        }
    }
    let mut taboo = None;
    if let Some(c) = t.remove {
        set(pos, c, Occupant::EMPTY);
    }
    for &(k, c) in t.place {
        let n = &mut pos.supplies[side.index()][k as usize];
        *n = n.saturating_sub(1);
        if pos.at(c).as_stone().is_some() {
            set(pos, c, Occupant::EMPTY);
            taboo = Some(c);
        } else {
            set(pos, c, Occupant::stone(k));
        }
    }
    if pos.castling != 0 {
        let touched =
            |cell: Cell| t.from == cell || t.to == Some(cell) || t.captures.contains(&cell);
        for (i, c) in rules.castlings.iter().enumerate() {
            if touched(c.king.0) || touched(c.rook.0) {
                pos.castling &= !(1 << i);
            }
        }
    }
    // Counters are kept only by variants whose position text carries them.
    if rules.fields.contains(&PositionField::Halfmove) {
        pos.halfmove = if reset_clock || !t.captures.is_empty() {
            0
        } else {
            pos.halfmove.saturating_add(1)
        };
    }
    if side == Side::Black && rules.fields.contains(&PositionField::Fullmove) {
        pos.fullmove = pos.fullmove.saturating_add(1);
    }
    pos.ep = ep;
    pos.taboo = taboo;
    pos.side = side.opponent();
}

impl Core {
    /// Whether `cell` is attacked by `by` in `pos`: some piece of `by` has a movement option
    /// that captures on it. An empty cell is tested with a stand-in enemy piece on it.
    fn attacked(&mut self, rules: &Ruleset, pos: &Position, cell: Cell, by: Side) -> bool {
        let stand_in = pos
            .at(cell)
            .is_empty()
            .then(|| Occupant::piece(by.opponent(), 0));
        let mut probe = std::mem::take(&mut self.scratch);
        let board: &Position = if let Some(o) = stand_in {
            probe.clone_from(pos);
            probe.cells[cell as usize] = o;
            &probe
        } else {
            pos
        };
        let mut hit = false;
        // Kinds whose attacks reverse: one run of their program from the attacked cell.
        for (k, &rev) in rules.reversible.iter().enumerate() {
            if hit {
                break;
            }
            if !rev {
                continue;
            }
            let attacker = Occupant::piece(by, k as u8);
            hit = self
                .vm
                .captures_occupant(rules, board, cell, by.opponent(), k as u8, attacker);
        }
        // The others: every such piece, forwards.
        if !hit {
            for c in rules.topo.cells() {
                if matches!(board.at(c).as_piece(), Some((s, k)) if s == by && !rules.reversible[k as usize])
                    && self.vm.captures_cell(rules, board, c, cell)
                {
                    hit = true;
                    break;
                }
            }
        }
        self.scratch = probe;
        hit
    }

    /// Whether no royal piece of `side` is attacked in `pos`.
    fn royals_safe(&mut self, rules: &Ruleset, pos: &Position, side: Side) -> bool {
        for c in rules.topo.cells() {
            if matches!(pos.at(c).as_piece(), Some((s, k)) if s == side && rules.pieces[k as usize].royal)
                && self.attacked(rules, pos, c, side.opponent())
            {
                return false;
            }
        }
        true
    }

    /// Every turn by the rules of movement and stones, without the royal-safety filter.
    /// Returns the count and whether any piece had a movement option.
    fn pseudo(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> (usize, bool) {
        let side = pos.side;
        let mut count = 0usize;
        let mut any_move = false;
        for c in rules.topo.cells() {
            let Some((s, kind)) = pos.at(c).as_piece() else {
                continue;
            };
            if s != side {
                continue;
            }
            let piece = &rules.pieces[kind as usize];
            self.vm.moves(rules, pos, c, &mut self.opts);
            any_move |= !self.opts.is_empty();
            // Place without moving.
            if !rules.stones.is_empty() && (piece.stones_per_turn > 0 || !piece.removes.is_empty())
            {
                self.range.clear();
                self.range.extend_from_slice(self.vm.range(rules, pos, c));
                count += self.actions(rules, pos, c, kind, None, f);
            }
            let opts = std::mem::take(&mut self.opts);
            for m in &opts.moves {
                let step = Step {
                    to: m.to,
                    captures: opts.captures(m),
                    dest: m.stone,
                };
                count += self.after_move(rules, pos, c, kind, &step, f);
            }
            self.opts = opts;
            // En passant: the piece's captures may land on the en-passant cell, taking the
            // piece that passed over it.
            if piece.en_passant
                && let Some(target) = pos.ep
            {
                let (tf, tr) = rules.topo.coord(target);
                let back = if side == Side::White { -1 } else { 1 };
                if let Some(victim) = rules.topo.cell_at(tf, tr + back)
                    && pos.at(target).is_empty()
                    && matches!(pos.at(victim).as_piece(), Some((vs, vk)) if vs != side && rules.pieces[vk as usize].en_passant)
                {
                    let mut probe = pos.clone();
                    probe.cells[target as usize] = Occupant::piece(side.opponent(), kind);
                    self.vm.moves(rules, &probe, c, &mut self.attack);
                    let hits = self
                        .attack
                        .moves
                        .iter()
                        .any(|m| m.to == target && self.attack.captures(m) == [target]);
                    if hits {
                        any_move = true;
                        let step = Step {
                            to: target,
                            captures: &[victim],
                            dest: StoneEffect::None,
                        };
                        count += self.after_move(rules, pos, c, kind, &step, f);
                    }
                }
            }
        }
        // Castling.
        for (i, cst) in rules.castlings.iter().enumerate() {
            if cst.side != side || pos.castling & (1 << i) == 0 {
                continue;
            }
            let king_ok = matches!(pos.at(cst.king.0).as_piece(), Some((s, k)) if s == side && rules.pieces[k as usize].royal);
            let rook_ok = matches!(pos.at(cst.rook.0).as_piece(), Some((s, _)) if s == side);
            if !king_ok || !rook_ok || !cst.empty.iter().all(|&e| pos.at(e).is_empty()) {
                continue;
            }
            if cst
                .safe
                .iter()
                .any(|&s| self.attacked(rules, pos, s, side.opponent()))
            {
                continue;
            }
            f(&TurnView {
                from: cst.king.0,
                to: Some(cst.king.1),
                captures: &[],
                dest: StoneEffect::None,
                place: &[],
                remove: None,
                promote: None,
                castle: Some(i as u8),
            });
            count += 1;
        }
        (count, any_move)
    }

    /// The turns that make one movement: with each promotion choice, then with each stone
    /// action from the new cell.
    fn after_move(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        from: Cell,
        kind: u8,
        step: &Step<'_>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let side = pos.side;
        let piece = &rules.pieces[kind as usize];
        let promotions: &[u8] = match &piece.promotion {
            Some((r, to)) if rules.regions[*r as usize].cells[side.index()].contains(step.to) => to,
            _ => &[],
        };
        let mut count = 0;
        for i in 0..promotions.len().max(1) {
            let promote = promotions.get(i).copied();
            let view = TurnView {
                from,
                to: Some(step.to),
                captures: step.captures,
                dest: step.dest,
                place: &[],
                remove: None,
                promote,
                castle: None,
            };
            f(&view);
            count += 1;
            let now = promote.unwrap_or(kind);
            let arrived = &rules.pieces[now as usize];
            if rules.stones.is_empty()
                || (arrived.stones_per_turn == 0 && arrived.removes.is_empty())
            {
                continue;
            }
            let mut scratch = std::mem::take(&mut self.scratch);
            scratch.clone_from(pos);
            apply_movement(&mut scratch, from, step.to, step.captures, step.dest);
            if let Some(p) = promote {
                scratch.cells[step.to as usize] = Occupant::piece(side, p);
            }
            self.range.clear();
            self.range
                .extend_from_slice(self.vm.range(rules, &scratch, step.to));
            count += self.actions(rules, &scratch, step.to, now, Some((&view, from)), f);
            self.scratch = scratch;
        }
        count
    }

    /// Stone actions of the piece (kind `kind`) standing on `at` in `pos`, over `self.range`.
    fn actions(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        at: Cell,
        kind: u8,
        movement: Option<(&TurnView<'_>, Cell)>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let side = pos.side;
        let piece = &rules.pieces[kind as usize];
        let base = match movement {
            Some((v, _)) => *v,
            None => TurnView {
                from: at,
                to: None,
                captures: &[],
                dest: StoneEffect::None,
                place: &[],
                remove: None,
                promote: None,
                castle: None,
            },
        };
        self.singles.clear();
        self.removals.clear();
        if piece.stones_per_turn > 0 {
            for &cell in &self.range {
                for k in 0..rules.stones.len() as u8 {
                    if let Some(e) = placement(rules, pos, side, kind, k, cell) {
                        self.singles.push((k, cell, e == PlaceEffect::Explode));
                    }
                }
            }
        }
        if !piece.removes.is_empty() {
            for &cell in &self.range {
                if pos
                    .at(cell)
                    .as_stone()
                    .is_some_and(|s| piece.removes.contains(&s))
                {
                    self.removals.push(cell);
                }
            }
        }
        let mut n = 0;
        for &(k, c, _) in &self.singles {
            f(&TurnView {
                place: &[(k, c)],
                ..base
            });
            n += 1;
        }
        if piece.stones_per_turn >= 2 {
            let singles = &self.singles;
            for i in 0..singles.len() {
                for j in i + 1..singles.len() {
                    let (a, b) = (singles[i], singles[j]);
                    // Two different cells (B-45); a kind twice needs two in supply; at most one
                    // explosion, so that the taboo stays one cell (our reading, see README).
                    if a.1 == b.1
                        || (a.0 == b.0 && pos.supplies[side.index()][a.0 as usize] < 2)
                        || (a.2 && b.2)
                    {
                        continue;
                    }
                    f(&TurnView {
                        place: &[(a.0, a.1), (b.0, b.1)],
                        ..base
                    });
                    n += 1;
                }
            }
        }
        for &c in &self.removals {
            f(&TurnView {
                remove: Some(c),
                ..base
            });
            n += 1;
        }
        n
    }
}

impl Generator {
    /// The runaway a generation ran into, if any: every generation after it is incomplete
    /// (see [`crate::vm::Runaway`]).
    pub fn runaway(&self) -> Option<crate::vm::Runaway> {
        self.core.vm.runaway().or(self.check.vm.runaway())
    }

    /// Whether `cell` is attacked by `by` in `pos`: some piece of `by` has a movement option
    /// that captures on it (an empty cell is tested with a stand-in enemy piece on it).
    pub fn attacked(&mut self, rules: &Ruleset, pos: &Position, cell: Cell, by: Side) -> bool {
        self.check.attacked(rules, pos, cell, by)
    }

    /// Whether no royal piece of `side` is attacked in `pos`.
    pub fn royals_safe(&mut self, rules: &Ruleset, pos: &Position, side: Side) -> bool {
        self.check.royals_safe(rules, pos, side)
    }

    /// Calls `f` for every legal turn of the side to move, unless the game is over. Returns
    /// the number of turns, or the outcome when the side to move has no turn.
    pub fn turns(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        mut f: impl FnMut(&TurnView<'_>),
    ) -> Result<usize, Outcome> {
        if let Some(o) = static_outcome(rules, pos) {
            return Err(o);
        }
        let side = pos.side;
        if rules.has_royals {
            let in_check = !self.check.royals_safe(rules, pos, side);
            let sensitive = if in_check {
                None
            } else {
                sensitive_cells(rules, pos, side)
            };
            let Generator { core, check, after } = self;
            let mut n = 0;
            core.pseudo(rules, pos, &mut |t| {
                // Out of check, a turn that leaves every line and leg towards the royal pieces
                // alone (and moves no royal piece) cannot expose them: no test needed.
                let quiet = sensitive.as_ref().is_some_and(|s| {
                    t.castle.is_none()
                        && t.place.is_empty()
                        && t.remove.is_none()
                        && !s.contains(t.from)
                        && t.to.is_none_or(|c| !s.contains(c))
                        && t.captures.iter().all(|&c| !s.contains(c))
                        && !matches!(pos.at(t.from).as_piece(), Some((_, k)) if rules.pieces[k as usize].royal)
                });
                let legal = quiet || {
                    after.clone_from(pos);
                    apply_turn(rules, after, t, |_, _, _| {});
                    check.royals_safe(rules, after, side)
                };
                if legal {
                    f(t);
                    n += 1;
                }
            });
            if n == 0 {
                let in_check = !self.check.royals_safe(rules, pos, side);
                let (verdict, reason) = if in_check {
                    (rules.end.checkmate, Reason::Checkmate)
                } else {
                    (rules.end.stalemate, Reason::Stalemate)
                };
                let winner = match verdict.unwrap_or(Verdict::Loses) {
                    Verdict::Loses => Some(side.opponent()),
                    Verdict::Wins => Some(side),
                    Verdict::Draw => None,
                };
                return Err(Outcome { winner, reason });
            }
            return Ok(n);
        }
        // Immobility (B-62) is decided before any turn is reported.
        if rules.end.immobilized_loses {
            let core = &mut self.core;
            let any_move = rules.topo.cells().any(|c| {
                matches!(pos.at(c).as_piece(), Some((s, _)) if s == side) && {
                    core.vm.moves(rules, pos, c, &mut core.opts);
                    !core.opts.is_empty()
                }
            });
            if !any_move {
                return Err(Outcome {
                    winner: Some(side.opponent()),
                    reason: Reason::Immobilized,
                });
            }
        }
        let (count, any_move) = self.core.pseudo(rules, pos, &mut f);
        if count == 0 {
            return Err(Outcome {
                winner: Some(side.opponent()),
                reason: if any_move {
                    Reason::NoTurn
                } else {
                    Reason::Immobilized
                },
            });
        }
        Ok(count)
    }
}

/// The cells whose change could expose a royal piece of `side` to an attack: every cell on a
/// line an enemy rider or hopper could attack along, and the path cells of enemy lame leaps
/// towards it. `None` when some enemy piece attacks in ways this cannot bound (chains).
fn sensitive_cells(rules: &Ruleset, pos: &Position, side: Side) -> Option<crate::board::CellSet> {
    let topo = &rules.topo;
    let enemy = side.opponent();
    let mut set = crate::board::CellSet::new(topo.len());
    let mut present = vec![false; rules.pieces.len()];
    let mut royals = Vec::new();
    for c in topo.cells() {
        match pos.at(c).as_piece() {
            Some((s, k)) if s == enemy => present[k as usize] = true,
            Some((s, k)) if s == side && rules.pieces[k as usize].royal => royals.push(c),
            _ => {}
        }
    }
    for (k, piece) in rules.pieces.iter().enumerate() {
        if !present[k] {
            continue;
        }
        let prog = &piece.attacks;
        if !prog.single_leg {
            return None;
        }
        for l in prog.legs.iter().filter(|l| l.can_capture()) {
            for (i, &v) in l.vecs[enemy.index()].iter().enumerate() {
                let (vx, vy) = rules.links.vector(v);
                for &r in &royals {
                    let (kf, kr) = topo.coord(r);
                    match l.kind {
                        crate::dsl::LegKind::Ride | crate::dsl::LegKind::Hop => {
                            let mut d = 1;
                            while let Some(c) = topo.cell_at(kf - d * vx as i32, kr - d * vy as i32)
                            {
                                set.insert(c);
                                d += 1;
                            }
                        }
                        crate::dsl::LegKind::Step | crate::dsl::LegKind::Leap => {
                            for path in l.paths[enemy.index()].get(i).into_iter().flatten() {
                                for &p in &path.cells {
                                    let (px, py) = rules.links.vector(p);
                                    if let Some(c) = topo.cell_at(
                                        kf - vx as i32 + px as i32,
                                        kr - vy as i32 + py as i32,
                                    ) {
                                        set.insert(c);
                                    }
                                }
                            }
                        }
                        crate::dsl::LegKind::Jump => return None,
                    }
                }
            }
        }
    }
    Some(set)
}

/// Whether a position can be played: for a variant with royal pieces, each side has exactly
/// one and the side that just moved has not left it attacked; an en-passant cell is empty with
/// an enemy piece that may be taken en passant just beyond it and an empty cell behind it.
/// The message says what is wrong.
pub fn check_position(rules: &Ruleset, pos: &Position) -> Result<(), String> {
    let topo = &rules.topo;
    if pos.cells.len() != topo.len() || pos.supplies.iter().any(|s| s.len() != rules.stones.len()) {
        return Err(format!(
            "the position has {} cells and {} stone kinds; {} has {} and {}",
            pos.cells.len(),
            pos.supplies[0].len(),
            rules.name,
            topo.len(),
            rules.stones.len()
        ));
    }
    if rules.has_royals {
        for side in Side::BOTH {
            let royals: Vec<String> = topo
                .cells()
                .filter(|&c| matches!(pos.at(c).as_piece(), Some((s, k)) if s == side && rules.pieces[k as usize].royal))
                .map(|c| topo.name(c))
                .collect();
            if royals.len() != 1 {
                return Err(format!(
                    "{side} has {} royal pieces{}; a position needs exactly one",
                    royals.len(),
                    if royals.is_empty() {
                        String::new()
                    } else {
                        format!(" (on {})", royals.join(", "))
                    }
                ));
            }
        }
        let mut g = Generator::default();
        if !g.royals_safe(rules, pos, pos.side.opponent()) {
            return Err(format!(
                "{} is to move while {}'s royal piece is attacked: the side that just moved may not be in check",
                pos.side,
                pos.side.opponent()
            ));
        }
    }
    if let Some(target) = pos.ep {
        let (f, r) = topo.coord(target);
        let back = if pos.side == Side::White { -1 } else { 1 };
        let victim = topo.cell_at(f, r + back);
        let origin = topo.cell_at(f, r - back);
        let victim_ok = victim.is_some_and(|v| {
            matches!(pos.at(v).as_piece(), Some((s, k)) if s != pos.side && rules.pieces[k as usize].en_passant)
        });
        if !pos.at(target).is_empty() || !victim_ok || !origin.is_some_and(|o| pos.at(o).is_empty())
        {
            return Err(format!(
                "the en-passant cell {} is not one {} just passed over with a two-cell step: it must be empty, with that side's en-passant piece just beyond it and an empty cell behind it",
                topo.name(target),
                pos.side.opponent()
            ));
        }
    }
    Ok(())
}

/// The outcome decided by the position alone (B-60, B-61), without move generation.
pub fn static_outcome(rules: &Ruleset, pos: &Position) -> Option<Outcome> {
    let mover = pos.side.opponent();
    for side in [mover, pos.side] {
        if let Some((w, r)) = rules.end.occupy {
            let region = &rules.regions[r as usize].cells[region_side(side, w).index()];
            if region
                .iter()
                .any(|c| matches!(pos.at(c).as_piece(), Some((s, _)) if s == side))
            {
                return Some(Outcome {
                    winner: Some(side),
                    reason: Reason::Occupied,
                });
            }
        }
        for (kind, st) in rules.stones.iter().enumerate() {
            if let Some((w, r)) = st.wins_on {
                let region = &rules.regions[r as usize].cells[region_side(side, w).index()];
                if region
                    .iter()
                    .any(|c| pos.at(c).as_stone() == Some(kind as u8))
                {
                    return Some(Outcome {
                        winner: Some(side),
                        reason: Reason::Bombed,
                    });
                }
            }
        }
    }
    if rules.end.no_pieces_loses {
        for side in [pos.side, mover] {
            if !pos
                .cells
                .iter()
                .any(|o| matches!(o.as_piece(), Some((s, _)) if s == side))
            {
                return Some(Outcome {
                    winner: Some(side.opponent()),
                    reason: Reason::NoPieces,
                });
            }
        }
    }
    None
}

impl<'r> Game<'r> {
    /// A game from a position.
    pub fn new(rules: &'r Ruleset, pos: Position) -> Game<'r> {
        let hash = rules.zobrist.hash(&pos);
        Game {
            rules,
            pos,
            hash,
            history: Vec::new(),
            generator: Generator::default(),
        }
    }

    /// A game from the variant's start position.
    pub fn start(rules: &'r Ruleset) -> Game<'r> {
        Game::new(rules, rules.setup.clone())
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
    /// [`crate::notation::parse_turn`]).
    pub fn play(&mut self, t: &Turn) {
        let z = &self.rules.zobrist;
        let before = Undo {
            cells: Vec::new(),
            supplies: self.pos.supplies.clone(),
            taboo: self.pos.taboo,
            ep: self.pos.ep,
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
            for (k, (&a, &b)) in before.supplies[side.index()]
                .iter()
                .zip(&self.pos.supplies[side.index()])
                .enumerate()
            {
                if a != b {
                    hash = hash.wrapping_add(
                        z.supply(side, k)
                            .wrapping_mul((b as u64).wrapping_sub(a as u64)),
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
            self.pos.cells[c as usize] = o;
        }
        self.pos.supplies = u.supplies;
        self.pos.taboo = u.taboo;
        self.pos.ep = u.ep;
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
