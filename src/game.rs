//! Playing: whole turns (RULINGS B-40 … B-50), generated, applied and undone with an
//! incrementally updated hash; the end of the game (B-60 … B-62); perft.
//!
//! A turn is one of: move a piece; move it and then place stones from its new cell; place
//! stones without moving; a piece that `removes` stones may remove one instead of placing.
//! Which stones exist, what they blow up or capture and where they win is read from the
//! variant file.

use crate::board::{Cell, Side};
use crate::position::{Occupant, Position};
use crate::variant::{Ruleset, Whose};
use crate::vm::{Machine, MoveOption, Options, StoneEffect};

/// Keys of the position hash. The hash is the wrapping sum of one key per (cell, occupant),
/// one per stone in each supply, one for Black to move and one for the taboo cell, so that a
/// turn updates it by adding and subtracting the keys of what it changed.
#[derive(Debug, Clone, Default)]
pub struct Zobrist {
    cells: Vec<u64>,
    supply: Vec<u64>,
    black: u64,
    taboo: Vec<u64>,
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
    pub fn new(cells: usize, stones: usize) -> Zobrist {
        let mut s = 0x0B01_1E4B_178u64;
        Zobrist {
            cells: (0..cells * 256).map(|_| splitmix(&mut s)).collect(),
            supply: (0..2 * stones).map(|_| splitmix(&mut s)).collect(),
            black: splitmix(&mut s),
            taboo: (0..cells).map(|_| splitmix(&mut s)).collect(),
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
    /// The loser has no legal turn at all.
    NoTurn,
}

/// The end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Who won.
    pub winner: Side,
    /// Why.
    pub reason: Reason,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.reason {
            Reason::Occupied => "occupied the opponent's end field",
            Reason::Bombed => "placed a bomb on the opponent's end field",
            Reason::NoPieces => "the opponent has no pieces left",
            Reason::Immobilized => "the opponent cannot move a piece",
            Reason::NoTurn => "the opponent has no legal turn",
        };
        write!(f, "{} wins: {why}", self.winner)
    }
}

/// Everything needed to take a turn back.
#[derive(Debug, Clone)]
pub struct Undo {
    cells: Vec<(Cell, Occupant)>,
    supplies: [Vec<u32>; 2],
    taboo: Option<Cell>,
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

/// Reusable buffers for turn generation.
#[derive(Debug, Clone, Default)]
pub struct Generator {
    vm: Machine,
    opts: Options,
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
    /// The movement, with its captured cells.
    pub movement: Option<(&'a MoveOption, &'a [Cell])>,
    /// Stones placed.
    pub place: &'a [(u8, Cell)],
    /// Stone removed.
    pub remove: Option<Cell>,
}

impl TurnView<'_> {
    /// An owned turn.
    pub fn to_turn(&self) -> Turn {
        let mut place = self.place.to_vec();
        place.sort_by_key(|&(k, c)| (c, k));
        Turn {
            from: self.from,
            to: self.movement.map(|(m, _)| m.to),
            captures: self.movement.map(|(_, c)| c.to_vec()).unwrap_or_default(),
            dest: self.movement.map_or(StoneEffect::None, |(m, _)| m.stone),
            action: match (self.remove, place.is_empty()) {
                (Some(c), _) => Action::Remove(c),
                (None, true) => Action::None,
                (None, false) => Action::Place(place),
            },
        }
    }
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
        pos.supplies[side.index()][k as usize] += 1;
    }
    pos.cells[to as usize] = piece;
}

impl Generator {
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
        let mut count = 0usize;
        let mut any_move = false;
        // Immobility (B-62) is decided before any turn is reported.
        if rules.end.immobilized_loses {
            any_move = rules.topo.cells().any(|c| {
                matches!(pos.at(c).as_piece(), Some((s, _)) if s == side) && {
                    self.vm.moves(rules, pos, c, &mut self.opts);
                    !self.opts.is_empty()
                }
            });
            if !any_move {
                return Err(Outcome {
                    winner: side.opponent(),
                    reason: Reason::Immobilized,
                });
            }
        }
        for c in rules.topo.cells() {
            let Some((s, kind)) = pos.at(c).as_piece() else {
                continue;
            };
            if s != side {
                continue;
            }
            self.vm.moves(rules, pos, c, &mut self.opts);
            any_move |= !self.opts.is_empty();
            // Place without moving.
            self.range.clear();
            self.range.extend_from_slice(self.vm.range(rules, pos, c));
            count += self.actions(rules, pos, c, kind, None, &mut f);
            let opts = std::mem::take(&mut self.opts);
            for m in &opts.moves {
                let caps = opts.captures(m);
                f(&TurnView {
                    from: c,
                    movement: Some((m, caps)),
                    place: &[],
                    remove: None,
                });
                count += 1;
                let mut scratch = std::mem::take(&mut self.scratch);
                scratch.clone_from(pos);
                apply_movement(&mut scratch, c, m.to, caps, m.stone);
                self.range.clear();
                self.range
                    .extend_from_slice(self.vm.range(rules, &scratch, m.to));
                count += self.actions(rules, &scratch, m.to, kind, Some((m, caps, c)), &mut f);
                self.scratch = scratch;
            }
            self.opts = opts;
        }
        if count == 0 {
            return Err(Outcome {
                winner: side.opponent(),
                reason: if any_move {
                    Reason::NoTurn
                } else {
                    Reason::Immobilized
                },
            });
        }
        Ok(count)
    }

    /// Stone actions of the piece (kind `kind`) standing on `at` in `pos`, over `self.range`.
    fn actions(
        &mut self,
        rules: &Ruleset,
        pos: &Position,
        at: Cell,
        kind: u8,
        movement: Option<(&MoveOption, &[Cell], Cell)>,
        f: &mut impl FnMut(&TurnView<'_>),
    ) -> usize {
        let side = pos.side;
        let piece = &rules.pieces[kind as usize];
        let from = movement.map_or(at, |(_, _, from)| from);
        let mv = movement.map(|(m, caps, _)| (m, caps));
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
                from,
                movement: mv,
                place: &[(k, c)],
                remove: None,
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
                        from,
                        movement: mv,
                        place: &[(a.0, a.1), (b.0, b.1)],
                        remove: None,
                    });
                    n += 1;
                }
            }
        }
        for &c in &self.removals {
            f(&TurnView {
                from,
                movement: mv,
                place: &[],
                remove: Some(c),
            });
            n += 1;
        }
        n
    }
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
                    winner: side,
                    reason: Reason::Occupied,
                });
            }
        }
        for (kind, st) in rules.stones.iter().enumerate() {
            if let Some((w, r)) = st.wins_on {
                let kind = kind as u8;
                let region = &rules.regions[r as usize].cells[region_side(side, w).index()];
                if region.iter().any(|c| pos.at(c).as_stone() == Some(kind)) {
                    return Some(Outcome {
                        winner: side,
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
                    winner: side.opponent(),
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

    fn set(&mut self, undo: &mut Undo, c: Cell, o: Occupant) {
        let old = self.pos.cells[c as usize];
        if old == o {
            return;
        }
        undo.cells.push((c, old));
        let z = &self.rules.zobrist;
        self.hash = self
            .hash
            .wrapping_sub(z.cell(c, old))
            .wrapping_add(z.cell(c, o));
        self.pos.cells[c as usize] = o;
    }

    fn add_supply(&mut self, side: Side, kind: usize, delta: i64) {
        let n = &mut self.pos.supplies[side.index()][kind];
        *n = (*n as i64 + delta).max(0) as u32;
        let key = self.rules.zobrist.supply(side, kind);
        self.hash = self.hash.wrapping_add(key.wrapping_mul(delta as u64));
    }

    /// Plays a turn (assumed legal: take it from [`Game::legal_turns`] or
    /// [`crate::notation::parse_turn`]).
    pub fn play(&mut self, t: &Turn) {
        let side = self.pos.side;
        let mut undo = Undo {
            cells: Vec::new(),
            supplies: self.pos.supplies.clone(),
            taboo: self.pos.taboo,
            hash: self.hash,
        };
        if let Some(to) = t.to {
            let piece = self.pos.at(t.from);
            self.set(&mut undo, t.from, Occupant::EMPTY);
            for &c in &t.captures {
                self.set(&mut undo, c, Occupant::EMPTY);
            }
            if let StoneEffect::Collect(k) = t.dest {
                self.add_supply(side, k as usize, 1);
            }
            self.set(&mut undo, to, piece);
        }
        let mut taboo = None;
        match &t.action {
            Action::None => {}
            Action::Remove(c) => self.set(&mut undo, *c, Occupant::EMPTY),
            Action::Place(list) => {
                for &(k, c) in list {
                    self.add_supply(side, k as usize, -1);
                    if self.pos.at(c).as_stone().is_some() {
                        self.set(&mut undo, c, Occupant::EMPTY);
                        taboo = Some(c);
                    } else {
                        self.set(&mut undo, c, Occupant::stone(k));
                    }
                }
            }
        }
        let z = &self.rules.zobrist;
        self.hash = self
            .hash
            .wrapping_sub(z.taboo(self.pos.taboo))
            .wrapping_add(z.taboo(taboo));
        self.pos.taboo = taboo;
        self.pos.side = side.opponent();
        self.hash = if self.pos.side == Side::Black {
            self.hash.wrapping_add(z.black)
        } else {
            self.hash.wrapping_sub(z.black)
        };
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
