//! The checked game description as plain data: the board, regions, stones, pieces with their
//! compiled programs, placement, castlings and end rules, as the loader ([`crate::load`])
//! produced them from a variant file.

use crate::board::{Cell, CellSet, LinkTable, Topology};
use crate::compile::{Filter, Names, Program};
use crate::core::{BySide, PieceKindId, RegionId, Side, StoneKindId};
use crate::position::Position;

/// A named region: its cells for each side.
#[derive(Debug, Clone)]
pub struct Region {
    /// Its name.
    pub id: String,
    /// Cells per side (White, Black).
    pub cells: BySide<CellSet>,
}

/// A stone kind.
#[derive(Debug, Clone)]
pub struct StoneKind {
    /// Its key in the file.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Position-text symbol.
    pub symbol: char,
    /// Starting supply per side.
    pub supply: u32,
    /// Occupant class.
    pub class: String,
    /// Collected by a piece that lands on it.
    pub collectable: bool,
    /// Stone kinds it blows up when placed on them.
    pub explodes: Vec<StoneKindId>,
    /// Enemy piece kinds it captures when placed on them.
    pub captures: Vec<PieceKindId>,
    /// Piece kinds that cannot capture by placing it.
    pub captures_not_by: Vec<PieceKindId>,
    /// Placing it in this region wins.
    pub wins_on: Option<(Whose, RegionId)>,
}

/// A piece kind and its compiled programs.
#[derive(Debug, Clone)]
pub struct PieceKind {
    /// Its key in the file (used in the DSL).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Upper-case letter.
    pub letter: char,
    /// A mark written with the letter in position text, for kinds that share a letter with
    /// another (`letter = "Q~"`, `"+P"`: a promoted piece as Fairy-Stockfish writes it).
    pub mark: LetterMark,
    /// The kind a captured piece of this kind becomes in the capturer's reserve
    /// (`captured-as`; a promoted piece goes back to its base kind); `None`: its own kind.
    pub captured_as: Option<PieceKindId>,
    /// The rulings its definition implements.
    pub rulings: Vec<String>,
    /// Movement definition text.
    pub moves_text: String,
    /// Placement range definition text, if its own.
    pub range_text: Option<String>,
    /// Compiled movement.
    pub moves: Program,
    /// Compiled placement range.
    pub range: Program,
    /// Compiled capturing part of the movement (for attack tests).
    pub attacks: Program,
    /// Most stones per turn.
    pub stones_per_turn: u8,
    /// Stone kinds it may remove.
    pub removes: Vec<StoneKindId>,
    /// Royal: never left attacked.
    pub royal: bool,
    /// Takes part in en passant.
    pub en_passant: bool,
    /// Its two-cell moves along any straight line (diagonals included) leave an en-passant
    /// cell, not only those along its file.
    pub en_passant_any_line: bool,
    /// Its two-cell moves leave an en-passant cell only when the cell passed lies in this
    /// region (`en-passant-in`); `None`: wherever it lies.
    pub en_passant_in: Option<(Whose, RegionId)>,
    /// Its changes of kind on events (promotion is one: reaching a region).
    pub changes: Vec<Change>,
    /// How many pieces of this kind each side starts with off the board, when the kind is
    /// counted in the reserve: a change into a reserve kind draws one from the side's reserve
    /// and cannot happen when it has none. `None`: the kind is not counted (as many as wanted,
    /// like chess's promotion pieces).
    pub reserve: Option<u32>,
    /// The most pieces of this kind a side may have on the board by a change of kind (`at-most`;
    /// grand chess: promotion only to a kind the side has lost).
    pub at_most: Option<u32>,
    /// Its worth as declared (`value`), for evaluation and rules that count points; `None`
    /// when the file gives none (agents then estimate one).
    pub value: Option<u32>,
    /// Passive capture (`captures-to = "reserve"`): the pieces it captures go, turned over,
    /// into its side's reserve (when their kind is counted there), instead of out of the game.
    pub captures_to_reserve: bool,
    /// Ending its move in this region (seen from its side) turns the opponent's whole reserve
    /// over to its side (`takes-reserve-in`).
    pub takes_reserve_in: Option<(Whose, RegionId)>,
    /// The built-in picture it is drawn with (`picture`), or its letter in a disc.
    pub picture: Option<Picture>,
}

/// A mark written with a piece's letter in position text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LetterMark {
    /// The letter alone.
    #[default]
    None,
    /// `~` after the letter (`Q~`: crazyhouse's promoted pieces).
    Tilde,
    /// `+` before the letter (`+P`: shogi's promoted pieces).
    Plus,
}

impl LetterMark {
    /// The mark of a letter as written in the file (`"Q~"`, `"+P"`, `"Q"`) and its letter, or
    /// `None` when the text is no letter with at most one mark.
    pub fn split(text: &str) -> Option<(char, Self)> {
        let mut chars = text.chars();
        let (first, second, third) = (chars.next(), chars.next(), chars.next());
        let (letter, mark) = match (first, second, third) {
            (Some(c), None, None) => (c, Self::None),
            (Some(c), Some('~'), None) => (c, Self::Tilde),
            (Some('+'), Some(c), None) => (c, Self::Plus),
            _ => return None,
        };
        letter.is_ascii_alphabetic().then_some((letter, mark))
    }

    /// The letter `l` with this mark, as position text writes it.
    pub fn write(self, l: char, out: &mut String) {
        match self {
            Self::None => out.push(l),
            Self::Tilde => {
                out.push(l);
                out.push('~');
            }
            Self::Plus => {
                out.push('+');
                out.push(l);
            }
        }
    }
}

/// The built-in piece pictures (`[pieces.ID] picture = "knight"`): chess's six kinds and
/// xiangqi's seven; a piece without one is drawn as its letter in a disc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picture {
    /// Chess's king: a crown under a cross.
    King,
    /// Chess's queen: a crown of five points.
    Queen,
    /// Chess's rook: a tower.
    Rook,
    /// Chess's bishop: a mitre.
    Bishop,
    /// Chess's knight: a horse's head.
    Knight,
    /// Chess's pawn.
    Pawn,
    /// Xiangqi's general (帥, 將).
    General,
    /// Xiangqi's advisor (仕, 士).
    Advisor,
    /// Xiangqi's elephant (相, 象).
    Elephant,
    /// Xiangqi's horse (傌, 馬).
    Horse,
    /// Xiangqi's chariot (俥, 車).
    Chariot,
    /// Xiangqi's cannon (炮, 砲).
    Cannon,
    /// Xiangqi's soldier (兵, 卒).
    Soldier,
}

impl Picture {
    /// Every picture with its name in the file.
    pub const ALL: [(Picture, &'static str); 13] = [
        (Picture::King, "king"),
        (Picture::Queen, "queen"),
        (Picture::Rook, "rook"),
        (Picture::Bishop, "bishop"),
        (Picture::Knight, "knight"),
        (Picture::Pawn, "pawn"),
        (Picture::General, "general"),
        (Picture::Advisor, "advisor"),
        (Picture::Elephant, "elephant"),
        (Picture::Horse, "horse"),
        (Picture::Chariot, "chariot"),
        (Picture::Cannon, "cannon"),
        (Picture::Soldier, "soldier"),
    ];

    /// The picture of that name.
    pub fn named(name: &str) -> Option<Picture> {
        Picture::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|&(p, _)| p)
    }
}

/// Neutral pieces (`[neutral]`): a third owner's pieces that the side with more influence over
/// one may move as its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Neutral {
    /// Their kind (they move as that kind moves).
    pub kind: PieceKindId,
    /// Their symbol in position text.
    pub symbol: char,
    /// The vectors (link ids) that make a cell's neighbours: a side's influence on a neutral
    /// piece is the sum of the values of its pieces one such step away.
    pub influence: Vec<u16>,
    /// Whether a neutral piece, moved by a side, may capture another neutral piece
    /// (`captures-neutral`, default true).
    pub captures_neutral: bool,
    /// Whether a neutral piece that a side could capture with attacks for that side, so that
    /// it gives check to the other side's royal pieces (`gives-check`, default false: a royal
    /// piece may stand where a neutral piece could take it, and its capture then ends the
    /// game).
    pub gives_check: bool,
}

/// Captures that explode (`[blast]`, atomic chess): a capture removes the capturing piece and
/// every piece one step around the destination, of either side, except the immune kinds
/// (which leave only when they capture or are captured).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blast {
    /// The vectors (link ids) of the cells around the destination that the blast reaches.
    pub around: Vec<u16>,
    /// Kinds that a blast around them spares.
    pub immune: Vec<PieceKindId>,
}

/// Drops: a turn that places a piece from the hand (`[drops]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drops {
    /// Where, seen from the dropping side; only on empty cells.
    pub region: (Whose, RegionId),
    /// The kinds that may be dropped (every counted kind when the file lists none).
    pub kinds: Vec<PieceKindId>,
    /// Where each kind of `kinds` may be dropped: its `drops-in`, else `region`.
    pub regions: Vec<(Whose, RegionId)>,
    /// For each kind of `kinds`: no drop on a file that holds this many of the side's own
    /// pieces of the kind (`drop-file-limit`; shogi's pawns: 1).
    pub file_limits: Vec<Option<u32>>,
    /// The kinds whose drop may not checkmate (`drop-mate = "forbidden"`; shogi's pawn).
    pub no_mate: Vec<PieceKindId>,
}

/// Most pieces of one kind a side's reserve may hold in a variant file or position text.
pub const MAX_RESERVE: u32 = 1000;

/// What sets off a change of kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// The piece ends its move in this region of its own side (`on = "reach"`), or only when
    /// it comes into it from outside (`on = "enter"`).
    Reach {
        /// The region.
        region: RegionId,
        /// Only a move from outside the region counts.
        enter: bool,
    },
    /// The piece's move starts or ends in this region of its own side (`on = "zone"`:
    /// shogi's promotion zone, which a move into, within or out of may use).
    Zone(RegionId),
    /// The piece captures a piece of one of these kinds (`on = "capture"`).
    Capture(Vec<PieceKindId>),
    /// After its move the piece itself attacks an enemy royal piece (`on = "check"`).
    Check,
}

/// A change of kind: when `on` happens, the piece becomes one of `to` (a choice when there
/// are several), drawing it from the reserve when that kind is counted there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The event.
    pub on: Trigger,
    /// The kinds it may become.
    pub to: Vec<PieceKindId>,
    /// Whether the player may decline it (a compulsory change still cannot happen when the
    /// reserve has none of the kinds).
    pub optional: bool,
    /// A compulsory change that cannot happen (no kind available) forbids the move, rather
    /// than leaving the piece as it is (`unavailable = "no-move"`; grand chess).
    pub no_move_when_unavailable: bool,
}

/// Where a piece replaced by a change of kind goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Replaced {
    /// Out of the game (W-5).
    #[default]
    Out,
    /// Back into its side's reserve, when its kind is counted there.
    Reserve,
}

/// The turn counter and what resets it (`[clock]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Clock {
    /// A capture resets it.
    pub reset_on_capture: bool,
    /// A change of kind resets it.
    pub reset_on_change: bool,
    /// Any move of a piece of these kinds resets it.
    pub reset_by: Vec<PieceKindId>,
    /// When the counter reaches this many turns, the game ends with `at_limit`.
    pub limit: Option<(u32, EndVerdict)>,
}

/// How the repetition of a position is treated (`[repetition]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repetition {
    /// The turn that makes a position occur for this many times (with the same side to move,
    /// the same hands, castling rights and en-passant cell)…
    pub occurrence: u32,
    /// … is illegal, or ends the game.
    pub verdict: EndVerdict,
}

/// What a rule of the game's history does to the turn that sets it off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndVerdict {
    /// The turn may not be played.
    Illegal,
    /// The game is drawn.
    Draw,
    /// The side that played it loses.
    MoverLoses,
}

/// A position-text field after BOARD SIDE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionField {
    /// Stone supplies of both sides.
    Supplies,
    /// The taboo cell.
    Taboo,
    /// Castling rights.
    Castling,
    /// The en-passant cell.
    EnPassant,
    /// The checks each side may still give before it wins, as `W+B` (`[end] checks`).
    Checks,
    /// Turns since the last capture or pawn move.
    Halfmove,
    /// The move number.
    Fullmove,
}

/// One castling move.
#[derive(Debug, Clone)]
pub struct Castling {
    /// Whose.
    pub side: Side,
    /// Its letter in position text.
    pub letter: char,
    /// Royal piece from, to.
    pub king: (Cell, Cell),
    /// Its partners (one in chess; W-12 has two), each from, to. All pieces are lifted before
    /// any lands, so a destination may be another's start.
    pub partners: Vec<(Cell, Cell)>,
    /// Must be empty.
    pub empty: Vec<Cell>,
    /// Must not be attacked.
    pub safe: Vec<Cell>,
    /// Its bit in the castling rights (`Position::castling`); the two flanks of one free
    /// partner share a bit.
    pub right: u8,
    /// A free castling (Chess960): the king is wherever the side's royal piece stands on the
    /// partner's rank, the partner must stand on this side of it, and the cells that must be
    /// empty or safe follow from where they stand. `None`: every cell is as declared.
    pub free: Option<Flank>,
    /// The kind the partner must be, when declared.
    pub partner_kind: Option<PieceKindId>,
    /// The kind that castles as the king (`king-kind`), when declared; else a royal piece.
    pub king_kind: Option<PieceKindId>,
    /// A free castling's cells of the partner's row in cell order, each with what the castling
    /// needs when the royal piece stands there (derived once, at loading, by
    /// [`Castling::with_stands`]); empty for a castling declared cell by cell.
    pub stands: Vec<FreeStand>,
    /// The cells of `stands` as a cell set (cell `i` at bit `i`), where the board has at most
    /// 128 cells; else 0. The royal piece is then found on the row from the position's piece
    /// sets, its stand by how many of the row's cells come before it.
    pub stand_set: u128,
}

/// A cell of a free castling's partner's row where the royal piece may stand, and what the
/// castling needs from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FreeStand {
    /// The royal piece's cell.
    pub king: Cell,
    /// Whether the partner stands on the castling's flank of it: where not, the castling is
    /// not open.
    pub flank_ok: bool,
    /// Cells that must be empty (other than the royal piece's and the partner's): every cell
    /// of the row from the leftmost to the rightmost of the two pieces' cells and
    /// destinations.
    pub empty: Vec<Cell>,
    /// Cells that must not be attacked: the royal piece's path, its cell and destination
    /// included.
    pub safe: Vec<Cell>,
}

impl Castling {
    /// The castling with its [`Castling::stands`] derived on `topo` (for a free castling;
    /// a declared one is returned as it is).
    pub fn with_stands(mut self, topo: &Topology) -> Castling {
        let (Some(flank), Some(&(partner, partner_to))) = (self.free, self.partners.first()) else {
            return self;
        };
        let (pcol, prow) = topo.layout(partner);
        let to = topo.layout(self.king.1).0;
        let mut row: Vec<Cell> = (0..topo.files())
            .filter_map(|col| topo.at_layout(col, prow))
            .collect();
        row.sort_by_key(|x| x.index());
        self.stand_set = if topo.len() <= 128 {
            row.iter().fold(0, |m, x| m | 1u128 << x.index())
        } else {
            0
        };
        self.stands = row
            .into_iter()
            .map(|king| {
                let kcol = topo.layout(king).0;
                let flank_ok = match flank {
                    Flank::High => pcol > kcol,
                    Flank::Low => pcol < kcol,
                };
                let cols = [kcol, pcol, to, topo.layout(partner_to).0];
                let lo = cols.iter().copied().min().unwrap_or(kcol);
                let hi = cols.iter().copied().max().unwrap_or(kcol);
                let empty = (lo..=hi)
                    .filter_map(|col| topo.at_layout(col, prow))
                    .filter(|&x| x != king && x != partner)
                    .collect();
                let safe = (kcol.min(to)..=kcol.max(to))
                    .filter_map(|col| topo.at_layout(col, prow))
                    .collect();
                FreeStand {
                    king,
                    flank_ok,
                    empty,
                    safe,
                }
            })
            .collect();
        self
    }
}

/// Which side of the king a free castling's partner stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flank {
    /// On higher files (chess's king side).
    High,
    /// On lower files (chess's queen side).
    Low,
}

/// Where the pieces of one castling stand in a position, and what it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CastlingCells<'a> {
    /// The king's cell.
    pub king: Cell,
    /// Cells that must be empty (other than the king and its partners).
    pub empty: &'a [Cell],
    /// Cells that must not be attacked.
    pub safe: &'a [Cell],
}

/// What ending without a legal turn means for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It loses.
    Loses,
    /// It wins.
    Wins,
    /// Nobody wins.
    Draw,
}

/// End-of-game rules.
#[derive(Debug, Clone)]
pub struct EndRules {
    /// Goal regions: a piece of the listed kinds standing in one after its side's turn ends
    /// the game (`[end] occupy` is the first, a win; `[[goal]]` adds more).
    pub goals: Vec<Goal>,
    /// A side without pieces loses.
    pub no_pieces_loses: bool,
    /// A side that starts its turn without a piece move loses.
    pub immobilized_loses: bool,
    /// Vanquished (`[end.vanquished]`): a side for which every listed condition holds loses.
    pub vanquished: Option<Vanquished>,
    /// Checkmate, for the side checkmated.
    pub checkmate: Verdict,
    /// Stalemate, for the side stalemated.
    pub stalemate: Verdict,
    /// A side that has given check this many times wins (`[end] checks`; three-check).
    pub checks: Option<u32>,
    /// When the side that moves first reaches a goal, the other side plays one more turn, and
    /// the game is drawn if that turn reaches a goal too (`[end] goal-answer = "draw"`; racing
    /// kings). Goals of such a variant are all wins.
    pub goal_answer: bool,
    /// A side left without any piece of one of these kinds loses (`[end] extinction`;
    /// extinction chess).
    pub extinction: Vec<PieceKindId>,
    /// A side left with nothing but its royal pieces (`[end] bare`, `bare-answer`; shatranj).
    pub bare: Bare,
    /// A pass answered by a pass ends the game in a draw (`[end] two-passes = "draw"`).
    pub two_passes_draw: bool,
    /// Royal pieces facing each other (`[end] royals-facing = "draw"`; janggi's bikjang).
    pub facing: Option<Facing>,
}

/// Royal pieces that face each other (`[end] royals-facing`, `facing-lines`): a royal piece
/// of the side to move and an enemy royal piece on one line of `lines` with only empty cells
/// between. The side to move must then end the facing with its turn, or pass (even in check),
/// and passing while they face ends the game in a draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facing {
    /// The lines' directions, for White (Black's mirror the rank).
    pub lines: Vec<(i8, i8)>,
}

/// The bare royal piece rule (`[end] bare`, `bare-answer`): a side with no piece left but its
/// royal pieces, on the board or in its reserve, is bare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bare {
    /// Being bare decides nothing (`bare = "ignored"`, the default).
    #[default]
    Ignored,
    /// A bare side loses at once (`bare = "loses"`); both sides bare draw.
    Loses,
    /// A bare side loses, but when the opponent has a single piece besides its royal pieces,
    /// the bared side first plays one more turn, and baring the opponent with it draws
    /// (`bare-answer = "draw"`; shatranj, courier).
    Answered,
}

/// The conditions under which a side is vanquished (all must hold).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Vanquished {
    /// Its reserve is empty.
    pub no_reserve: bool,
    /// It has none of these kinds on the board.
    pub none_of: Vec<PieceKindId>,
    /// Its pieces on the board are worth less than this (values as declared; 1 when none).
    pub points_below: Option<u32>,
    /// No neutral piece is left on the board.
    pub no_neutrals: bool,
    /// Who wins when one turn leaves both sides vanquished (`both`).
    pub both: BothVanquished,
}

/// The verdict when one turn leaves both sides vanquished (`[end.vanquished] both`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BothVanquished {
    /// The side that made the turn wins (`"mover-wins"`, the default).
    #[default]
    MoverWins,
    /// The side that made the turn loses (`"mover-loses"`).
    MoverLoses,
    /// A draw (`"draw"`).
    Draw,
}

/// A goal region: a piece of the listed kinds standing in it after its side's turn ends the
/// game with `verdict` for that piece's side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Goal {
    /// Whose region, seen from the piece's side, and which.
    pub region: (Whose, RegionId),
    /// The kinds that count (empty: every kind).
    pub by: Vec<PieceKindId>,
    /// What it means for the piece's side.
    pub verdict: Verdict,
}

/// Judgement calls about the whole turn, declared in `[turn]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnRules {
    /// Most stones one turn may blow up.
    pub explosions: u32,
    /// Whether the cell an explosion empties may not take a stone in the opponent's next turn.
    pub taboo_after_explosion: bool,
    /// The kinds of turn pieces have (a piece's own `turns` overrides it).
    pub shapes: Shapes,
    /// Whether a piece that moves must then place a stone when it can.
    pub stone_after_move_compulsory: bool,
    /// Whether a turn that captures excludes every turn that does not, when there is one.
    pub capture_compulsory: bool,
    /// Whether, of the turns that capture, only those capturing the most pieces count.
    pub most_captures: bool,
    /// Whether pieces taken in a chain leave the board at the end of the turn (they stay in
    /// the way until then and cannot be taken twice) instead of at once (B-16).
    pub captured_leave_at_end: bool,
    /// Whether a chain may come back to a cell it passed once it has taken a piece since
    /// (instead of never, B-16). Never to its origin, which only `home_after_capture` opens.
    pub revisit_after_capture: bool,
    /// Whether a chain that has taken a piece may come back to its start cell and end there
    /// (`chain-ends-home = "after-capture"`: a draughts king's ring capture).
    pub home_after_capture: bool,
    /// Whether a turn that leaves an enemy royal piece attacked is illegal (`[turn]
    /// giving-check = "forbidden"`; racing kings).
    pub no_giving_check: bool,
    /// Whether a side may pass: a turn that changes nothing on the board (`[turn] pass =
    /// "allowed"`; janggi). It is not a turn when it leaves a royal piece attacked.
    pub pass: bool,
}

/// Which kinds of turn a piece has: a plain move, a move then stones, stones without moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shapes {
    /// Moving, and nothing else.
    pub moves: bool,
    /// Moving, then placing (or removing) stones from the new cell.
    pub move_then_stone: bool,
    /// Placing (or removing) stones without moving.
    pub stone_only: bool,
}

impl Default for Shapes {
    fn default() -> Shapes {
        Shapes {
            moves: true,
            move_then_stone: true,
            stone_only: true,
        }
    }
}

impl Default for TurnRules {
    fn default() -> TurnRules {
        TurnRules {
            explosions: 1,
            taboo_after_explosion: true,
            shapes: Shapes::default(),
            stone_after_move_compulsory: false,
            capture_compulsory: false,
            most_captures: false,
            captured_leave_at_end: false,
            revisit_after_capture: false,
            home_after_capture: false,
            no_giving_check: false,
            pass: false,
        }
    }
}

/// Whose region a placement rule means, seen from the placing side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// The placing side's.
    Own,
    /// The opponent's.
    Enemy,
}

/// Placement rules (RULINGS B-44).
#[derive(Debug, Clone, Default)]
pub struct Placement {
    /// No stone in these regions.
    pub forbidden: Vec<(Whose, RegionId)>,
    /// Only these stone kinds in these regions.
    pub only: Vec<(Whose, RegionId, Vec<StoneKindId>)>,
}

/// How the cells of a board are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colouring {
    /// By the parity of file index + rank index, as on a chessboard (B-3).
    Chequered,
    /// All cells alike.
    Plain,
}

/// How pictures draw the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Drawing {
    /// Each cell a square of the grid.
    #[default]
    Squares,
    /// Each cell a segment between two lattice points (the grid positions with an even file
    /// index and an odd rank index that hold no cell): a cell on an odd file joins its left and
    /// right neighbours, one on an even file those above and below; an end off the board is a
    /// capital, drawn as a larger point.
    Segments,
    /// Each cell a point where lines of a grid cross: lines join orthogonal neighbours, and
    /// [`BoardLines`] adds a river and diagonals.
    Points,
}

/// What a `points` drawing draws beyond the grid of lines (`[board] river`, `diagonals`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardLines {
    /// The river runs between this rank (counted from 1) and the next: only the outer files'
    /// lines cross it.
    pub river: Option<u32>,
    /// Regions whose cells of each side form a rectangle with both diagonals drawn.
    pub diagonals: Vec<RegionId>,
}

/// The identity of one rule set value, for tables derived from it and kept elsewhere (a
/// generator's attack lines): unique in the process, and a clone gets a new one, since a clone
/// may be changed. An address is no identity: a rule set freed and another made in its place
/// would share it.
#[derive(Debug, PartialEq, Eq)]
pub struct Identity(u64);

impl Identity {
    /// A new identity, never given before in this process.
    pub fn new() -> Identity {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Identity(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }

    /// The number.
    pub fn get(&self) -> u64 {
        self.0
    }
}

impl Default for Identity {
    fn default() -> Identity {
        Identity::new()
    }
}

impl Clone for Identity {
    fn clone(&self) -> Identity {
        Identity::new()
    }
}

/// A checked and compiled variant.
#[derive(Debug, Clone)]
pub struct Ruleset {
    /// Its identity (see [`Identity`]).
    pub identity: Identity,
    /// Display name.
    pub name: String,
    /// Description.
    pub description: String,
    /// The sides' names in text output (`[game] sides`; default white, black).
    pub side_names: [String; 2],
    /// The sides that play without a royal piece in a game that has royal pieces (`[game]
    /// without-royal`; horde): never in check, and ended by the other rules.
    pub without_royal: BySide<bool>,
    /// The board.
    pub topo: Topology,
    /// How its cells are coloured.
    pub colouring: Colouring,
    /// How pictures draw the board.
    pub drawing: Drawing,
    /// A `points` drawing's river and diagonals.
    pub lines: BoardLines,
    /// Named regions.
    pub regions: Vec<Region>,
    /// Stone kinds in declaration order.
    pub stones: Vec<StoneKind>,
    /// Piece kinds in declaration order.
    pub pieces: Vec<PieceKind>,
    /// Declared direction sets.
    pub directions: Vec<(String, Vec<(i8, i8)>)>,
    /// Link tables of every vector the programs use.
    pub links: LinkTable,
    /// The starting position.
    pub setup: Position,
    /// Placement rules.
    pub placement: Placement,
    /// End-of-game rules.
    pub end: EndRules,
    /// Judgement calls about the whole turn.
    pub turn: TurnRules,
    /// Per piece kind: the kinds of turn it has, where its `turns` key overrides `[turn]`.
    pub piece_shapes: Vec<Shapes>,
    /// The variant this one extends (as its `extends` resolved: a bundled name's file name or
    /// a path), if any.
    pub extends: Option<String>,
    /// Warnings the loader found (problems that did not stop it), spans into the file.
    pub warnings: Vec<crate::core::Diagnostic>,
    /// Position-text fields after BOARD SIDE.
    pub fields: Vec<PositionField>,
    /// Castling moves.
    pub castlings: Vec<Castling>,
    /// Where a piece replaced by a change of kind goes.
    pub replaced: Replaced,
    /// The turn counter's resets and limit.
    pub clock: Clock,
    /// Repetition of positions, when the variant has a rule about it.
    pub repetition: Option<Repetition>,
    /// Drops from the hand, when the variant has them.
    pub drops: Option<Drops>,
    /// Neutral pieces, when the variant has them.
    pub neutral: Option<Neutral>,
    /// Exploding captures, when the variant has them.
    pub blast: Option<Blast>,
    /// The engine tables derived from the rest ([`Ruleset::derive_tables`]), read through
    /// its methods ([`Ruleset::zobrist`], [`Ruleset::piece_class`], …).
    pub derived: Derived,
}

/// The engine tables derived from a declared game: hash keys, piece classes, attack reach,
/// cell-set programs, placement tables. Built only by [`Ruleset::derive_tables`] (the loader
/// calls it), so that they always agree with the declared rules; read through the
/// [`Ruleset`] methods of the same names.
#[derive(Debug, Clone, Default)]
pub struct Derived {
    /// Hash keys.
    zobrist: crate::compile::zobrist::Zobrist,
    /// Whether any piece kind is royal.
    has_royals: bool,
    /// The royal piece kinds, bit `k` for kind `k` (kinds are fewer than 32): read where a
    /// piece's kind is looked at on every cell.
    royal_kinds: u64,
    /// Per occupant code ([`crate::core::Occupant::code`]): [`PIECE_WHITE`] or
    /// [`PIECE_BLACK`] for a piece of that side, with [`PIECE_ROYAL`] when its kind is royal;
    /// 0 for anything else. Read where every cell of the board is looked at.
    piece_class: Vec<u8>,
    /// The reach maps of the attack programs in one table (set by the loader).
    attack_reach: crate::compile::AttackReach,
    /// The movement programs as cell sets, where the board has at most 128 cells and holds
    /// only pieces (no stones, no neutral pieces); set by the loader.
    bit_moves: Option<crate::compile::bits::BitMoves>,
    /// The kinds (bit per kind) whose pieces counting may take a kind at a time
    /// ([`Ruleset::together_kinds`]).
    together_kinds: u64,
    /// The placement range programs as cell sets, where the game has stones and the board at
    /// most 256 cells; set by the loader.
    bit_ranges: Option<crate::compile::ranges::BitRanges>,
    /// Cells where each side (outer) may place each stone kind (inner) by the placement
    /// rules, filled by the loader from `placement`.
    allowed: Vec<CellSet>,
    /// The same per side and cell as a mask of stone kinds (bit `k` for kind `k`), where there
    /// are at most 64 kinds (else empty): `side * cells + cell`.
    allowed_kinds: Vec<u64>,
    /// Whether the position text carries the reserve in brackets after the board (some piece
    /// kind is counted in the reserve).
    has_reserve: bool,
    /// Whether no turn can change the supplies: no stones, no drops, no piece kind counted in
    /// the reserve (see [`Ruleset::supplies_fixed`]).
    supplies_fixed: bool,
    /// Stone kinds any piece collects by landing.
    collectable: Filter,
    /// Per cell: the castling rights (bit per right) a turn ends by moving from, landing on,
    /// capturing on or blasting this cell: the declared king cells of castlings that are not
    /// free, and every castling's partner cells.
    castling_touch: Vec<u32>,
    /// Per side and piece kind (`side * kinds + kind`): the rights of the side's free
    /// castlings that a move of a piece of the kind ends (it castles as their king).
    castling_movers: Vec<u32>,
    /// With `[blast]`: per cell, the cells a capture landing there blows up besides itself,
    /// cell `i`'s at `blast_cells[blast_start[i]..blast_start[i + 1]]` (empty without).
    blast_cells: Vec<Cell>,
    blast_start: Vec<u32>,
    /// With `[blast]` on a board of at most 128 cells: per cell, the same cells as a bit set
    /// (empty otherwise).
    blast_sets: Vec<u128>,
    /// The reverse of `blast_sets`: per cell, the cells whose capture would blow it up.
    blast_reach: Vec<u128>,
}

/// [`Ruleset::piece_class`]: a White piece.
pub const PIECE_WHITE: u8 = 1;
/// [`Ruleset::piece_class`]: a Black piece.
pub const PIECE_BLACK: u8 = 2;
/// [`Ruleset::piece_class`]: a piece of a royal kind.
pub const PIECE_ROYAL: u8 = 4;

impl Ruleset {
    /// Hash keys.
    #[inline]
    pub fn zobrist(&self) -> &crate::compile::zobrist::Zobrist {
        &self.derived.zobrist
    }

    /// Whether any piece kind is royal.
    #[inline]
    pub fn has_royals(&self) -> bool {
        self.derived.has_royals
    }

    /// The royal piece kinds, bit `k` for kind `k` (kinds are fewer than 32): read where a
    /// piece's kind is looked at on every cell.
    #[inline]
    pub fn royal_kinds(&self) -> u64 {
        self.derived.royal_kinds
    }

    /// Per occupant code ([`crate::core::Occupant::code`]): [`PIECE_WHITE`] or
    /// [`PIECE_BLACK`] for a piece of that side, with [`PIECE_ROYAL`] when its kind is royal;
    /// 0 for anything else. Read where every cell of the board is looked at.
    #[inline]
    pub fn piece_class(&self) -> &[u8] {
        &self.derived.piece_class
    }

    /// The reach maps of the attack programs in one table (set by the loader).
    #[inline]
    pub fn attack_reach(&self) -> &crate::compile::AttackReach {
        &self.derived.attack_reach
    }

    /// The movement programs as cell sets, where the board has at most 128 cells and holds
    /// only pieces (no stones, no neutral pieces); set by the loader.
    #[inline]
    pub fn bit_moves(&self) -> Option<&crate::compile::bits::BitMoves> {
        self.derived
            .bit_moves
            .as_ref()
            .filter(|_| self.neutral.is_none())
    }

    /// The same table for its attack programs alone ([`BitMoves::attacks_cell`]), which a
    /// game with neutral pieces has too: asked whether a side's piece captures a given piece
    /// of the other side, they read a neutral piece as a cell that is not empty, as the
    /// interpreter does. (Neutral pieces that give check are asked by the general test.)
    ///
    /// [`BitMoves::attacks_cell`]: crate::compile::bits::BitMoves::attacks_cell
    #[inline]
    pub fn bit_attacks(&self) -> Option<&crate::compile::bits::BitMoves> {
        self.derived.bit_moves.as_ref()
    }

    /// The placement range programs as cell sets, where the game has stones and the board at
    /// most 256 cells; set by the loader.
    #[inline]
    pub fn bit_ranges(&self) -> Option<&crate::compile::ranges::BitRanges> {
        self.derived.bit_ranges.as_ref()
    }

    /// Cells where each side (outer) may place each stone kind (inner) by the placement
    /// rules, filled by the loader from `placement`.
    #[inline]
    pub fn allowed(&self) -> &[CellSet] {
        &self.derived.allowed
    }

    /// The same per side and cell as a mask of stone kinds (bit `k` for kind `k`), where there
    /// are at most 64 kinds (else empty): `side * cells + cell`.
    #[inline]
    pub fn allowed_kinds(&self) -> &[u64] {
        &self.derived.allowed_kinds
    }

    /// Whether the position text carries the reserve in brackets after the board (some piece
    /// kind is counted in the reserve).
    #[inline]
    pub fn has_reserve(&self) -> bool {
        self.derived.has_reserve
    }

    /// Whether no turn can change the supplies (no stones, no `[drops]`, no kind counted in
    /// the reserve): playing a turn then neither keeps them for taking it back nor rehashes
    /// them.
    #[inline]
    pub fn supplies_fixed(&self) -> bool {
        self.derived.supplies_fixed
    }

    /// Stone kinds any piece collects by landing.
    #[inline]
    pub fn collectable(&self) -> Filter {
        self.derived.collectable
    }

    /// The kinds (bit per kind) whose pieces may be counted a kind at a time in cell sets
    /// (where moves are only counted): not royal, with a movement program in cell sets, and
    /// no change of kind but one on reaching a region or on a move in a zone.
    #[inline]
    pub fn together_kinds(&self) -> u64 {
        self.derived.together_kinds
    }

    /// Whether pieces of kind `k` are royal (see [`Ruleset::royal_kinds`]).
    #[inline]
    pub fn is_royal(&self, k: crate::core::PieceKindId) -> bool {
        self.derived.royal_kinds >> k.index() & 1 != 0
    }

    /// A side's name in text output: `white`/`black`, or as the file names them.
    pub fn side_name(&self, side: Side) -> &str {
        &self.side_names[side.index()]
    }

    /// The index of a piece kind's reserve count in a side's hand (`Position::supplies`):
    /// the hand holds the stone kinds first, then the piece kinds.
    pub fn hand_slot(&self, k: PieceKindId) -> usize {
        self.stones.len() + k.index()
    }

    /// Each side's hand at the start: the stone supplies, then the piece reserves (0 for a
    /// kind not counted).
    pub fn initial_hand(&self) -> Vec<u32> {
        self.stones
            .iter()
            .map(|s| s.supply)
            .chain(self.pieces.iter().map(|p| p.reserve.unwrap_or(0)))
            .collect()
    }

    /// The kind with this letter (either case) and mark.
    pub fn kind_by_letter(&self, ch: char, mark: LetterMark) -> Option<PieceKindId> {
        self.pieces
            .iter()
            .position(|p| p.mark == mark && p.letter.eq_ignore_ascii_case(&ch))
            .map(PieceKindId::new)
    }

    /// The letter of kind `k` with its mark, in `side`'s case.
    pub fn letter_text(&self, side: Side, k: PieceKindId) -> String {
        let p = &self.pieces[k.index()];
        let l = if side == Side::White {
            p.letter
        } else {
            p.letter.to_ascii_lowercase()
        };
        let mut s = String::with_capacity(2);
        p.mark.write(l, &mut s);
        s
    }

    /// Whether `side` may have a piece of kind `k` by a change of kind in `pos`: the kind is
    /// not counted in the reserve, or the reserve has one; and the side has fewer on the board
    /// than its `at-most`.
    pub fn can_draw(&self, pos: &Position, side: Side, k: PieceKindId) -> bool {
        let kind = &self.pieces[k.index()];
        (kind.reserve.is_none()
            || pos.supplies[side]
                .get(self.hand_slot(k))
                .is_some_and(|&n| n > 0))
            && kind.at_most.is_none_or(|most| {
                let on_board = pos
                    .cells()
                    .iter()
                    .filter(|o| o.as_piece() == Some((side, k)))
                    .count();
                on_board < most as usize
            })
    }

    /// [`Ruleset::blast_around`] as a bit set (cell `i` at bit `i`): `None` without
    /// `[blast]` or on a board of more than 128 cells.
    #[inline]
    pub fn blast_set(&self, to: Cell) -> Option<u128> {
        self.derived.blast_sets.get(to.index()).copied()
    }

    /// The cells whose capture would blow up `c` (it among the cells [`Ruleset::blast_set`]
    /// gives for them): `None` without `[blast]` or on a board of more than 128 cells.
    #[inline]
    pub fn blast_reach(&self, c: Cell) -> Option<u128> {
        self.derived.blast_reach.get(c.index()).copied()
    }

    /// The cells a capture landing on `to` blows up besides `to` itself (`[blast]`; none
    /// without it), each once.
    #[inline]
    pub fn blast_around(&self, to: Cell) -> impl Iterator<Item = Cell> + '_ {
        let d = &self.derived;
        let (a, b) = (
            d.blast_start.get(to.index()),
            d.blast_start.get(to.index() + 1),
        );
        let cells = match (a, b) {
            (Some(&a), Some(&b)) => &d.blast_cells[a as usize..b as usize],
            _ => &[],
        };
        cells.iter().copied()
    }

    /// Whether a piece of kind `k` is the one castling `c` moves as its king: the declared
    /// `king-kind`, else any royal piece.
    pub fn castles_as_king(&self, c: &Castling, k: PieceKindId) -> bool {
        c.king_kind.map_or_else(|| self.is_royal(k), |kk| kk == k)
    }

    /// Where castling `c`'s royal piece stands in `pos` and which cells the castling needs
    /// empty and safe: as declared, or for a free castling as its royal piece's cell on the
    /// partner's row gives them. `None` where a free castling's royal piece is not on that row,
    /// or its partner's cell is not on the castling's flank of it.
    pub fn castling_cells<'a>(&self, c: &'a Castling, pos: &Position) -> Option<CastlingCells<'a>> {
        if c.free.is_none() {
            return Some(CastlingCells {
                king: c.king.0,
                empty: &c.empty,
                safe: &c.safe,
            });
        }
        self.free_castling_cells(c, pos)
    }

    /// [`Ruleset::castling_cells`] of a free castling. Out of line: the declared castlings'
    /// answer stays a few instructions where it is inlined.
    #[inline(never)]
    fn free_castling_cells<'a>(
        &self,
        c: &'a Castling,
        pos: &Position,
    ) -> Option<CastlingCells<'a>> {
        // The first such piece in cell order on the partner's row: from the position's piece
        // sets where it has them (at most 64 kinds: the royal kinds are a word), else read
        // along the row.
        let stand = if c.stand_set != 0 && pos.has_piece_sets() && self.pieces.len() <= 64 {
            self.free_stand_in_sets(c, pos)?
        } else {
            self.free_stand_walked(c, pos)?
        };
        stand.flank_ok.then_some(CastlingCells {
            king: stand.king,
            empty: &stand.empty,
            safe: &stand.safe,
        })
    }

    /// The stand of free castling `c` where its royal piece stands: the first cell of the
    /// partner's row, in cell order, holding a piece that castles as its king, found from the
    /// position's piece sets (boards of at most 128 cells, at most 64 kinds).
    fn free_stand_in_sets<'a>(&self, c: &'a Castling, pos: &Position) -> Option<&'a FreeStand> {
        let mut kinds = c
            .king_kind
            .map_or(self.royal_kinds(), |k| 1u64 << k.index());
        let mut kings = 0u128;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            kings |= pos.piece_set(2 * k + c.side.index());
        }
        kings &= c.stand_set;
        if kings == 0 {
            return None;
        }
        // The stands are the row's cells in cell order: the royal piece's is the one with as
        // many row cells before it.
        let before = c.stand_set & ((kings & kings.wrapping_neg()) - 1);
        c.stands.get(before.count_ones() as usize)
    }

    /// [`Ruleset::free_stand_in_sets`] on any board: the row read cell by cell.
    fn free_stand_walked<'a>(&self, c: &'a Castling, pos: &Position) -> Option<&'a FreeStand> {
        c.stands.iter().find(|s| {
            matches!(pos.at(s.king).as_piece(), Some((side, k)) if side == c.side && self.castles_as_king(c, k))
        })
    }

    /// How many castling rights bits the variant uses.
    pub fn castling_rights(&self) -> usize {
        self.castlings
            .iter()
            .map(|c| usize::from(c.right) + 1)
            .max()
            .unwrap_or(0)
    }

    /// The names the compiler resolved, for listings.
    pub fn names_owned(&self) -> OwnedNames {
        OwnedNames {
            pieces: self.pieces.iter().map(|p| p.id.clone()).collect(),
            stones: self.stones.iter().map(|s| s.id.clone()).collect(),
            classes: self.stones.iter().map(|s| s.class.clone()).collect(),
            regions: self.regions.iter().map(|r| r.id.clone()).collect(),
            directions: self.directions.clone(),
        }
    }

    /// The piece kind with this id, display name or letter (any case).
    pub fn find_piece(&self, key: &str) -> Option<usize> {
        self.pieces.iter().position(|p| {
            p.id.eq_ignore_ascii_case(key)
                || p.name.eq_ignore_ascii_case(key)
                || (key.chars().count() == 1
                    && key
                        .chars()
                        .next()
                        .is_some_and(|c| c.eq_ignore_ascii_case(&p.letter)))
        })
    }

    /// The region with this id.
    pub fn region(&self, id: &str) -> Option<&Region> {
        self.regions.iter().find(|r| r.id == id)
    }

    /// The colour of a cell: 0 or 1 under chequered colouring (B-3), always 0 when plain.
    pub fn colour(&self, c: Cell) -> u8 {
        match self.colouring {
            Colouring::Chequered => self.topo.colour(c),
            Colouring::Plain => 0,
        }
    }

    /// Whether `side` may place a stone of `kind` on `cell` by the placement rules (B-44),
    /// ignoring what stands there and the taboo cell: a lookup in the table the loader fills
    /// (see [`Ruleset::placement_table`]).
    #[inline]
    pub fn stone_allowed(&self, side: Side, kind: StoneKindId, cell: Cell) -> bool {
        match self
            .derived
            .allowed
            .get(side.index() * self.stones.len() + kind.index())
        {
            Some(set) => set.contains(cell),
            None => self.stone_allowed_by_rules(side, kind, cell),
        }
    }

    /// Fills the tables derived from the declared game (the loader calls it once, after the
    /// declared fields): which kinds are royal, the programs' fast-path facts and reach maps,
    /// the per-occupant classes, the attack reach, the cell-set programs, the hash keys and the
    /// placement tables.
    pub fn derive_tables(&mut self) {
        let (topo, links) = (&self.topo, &self.links);
        let files = i32::try_from(topo.files()).unwrap_or(i32::MAX);
        let ranks = i32::try_from(topo.ranks()).unwrap_or(i32::MAX);
        for p in &mut self.pieces {
            for prog in [&mut p.moves, &mut p.range, &mut p.attacks] {
                prog.plain = prog.is_plain(links);
                prog.disjoint = prog.plain && prog.is_disjoint(links, files, ranks);
                prog.reach = prog.reach_table(links, topo);
                prog.entry = prog.entry_legs();
                prog.closures = prog.closure_heads();
            }
        }
        let pieces = &self.pieces;
        self.derived.has_royals = pieces.iter().any(|p| p.royal);
        self.derived.royal_kinds = pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .fold(0u64, |m, (k, _)| m | 1 << k);
        self.derived.has_reserve = pieces.iter().any(|p| p.reserve.is_some());
        // Every change of a supply is a stone placed or collected, a drop, or a piece of a
        // kind counted in the reserve taken, drawn, given back or handed over.
        self.derived.supplies_fixed =
            self.stones.is_empty() && self.drops.is_none() && !self.derived.has_reserve;
        let mut piece_class = vec![0u8; 256];
        for (k, p) in pieces.iter().enumerate() {
            for (side, bit) in [(Side::White, PIECE_WHITE), (Side::Black, PIECE_BLACK)] {
                let code = crate::core::Occupant::piece(side, PieceKindId::new(k));
                piece_class[usize::from(code.code())] = bit | if p.royal { PIECE_ROYAL } else { 0 };
            }
        }
        self.derived.piece_class = piece_class;
        self.derived.attack_reach = crate::compile::AttackReach::new(
            pieces.iter().map(|p| &p.attacks),
            i32::try_from(topo.files()).unwrap_or(0),
            i32::try_from(topo.ranks()).unwrap_or(0),
        )
        .with_cell_sets(topo);
        // Built with neutral pieces too, for the attack programs (`bit_attacks`).
        self.derived.bit_moves = if self.stones.is_empty() {
            crate::compile::bits::BitMoves::new(
                links,
                topo.len(),
                pieces.len(),
                pieces.iter().map(|p| &p.moves),
                pieces.iter().map(|p| &p.attacks),
            )
        } else {
            None
        };
        self.derived.together_kinds = together_kinds(pieces, self.derived.bit_moves.as_ref());
        // The stones a piece collects by landing on them (read by the movement programs in
        // cell sets below, and by the interpreter through `collectable`).
        let collectable = Filter(
            self.stones
                .iter()
                .enumerate()
                .filter(|(_, s)| s.collectable)
                .fold(0, |a, (k, _)| {
                    a | 1u128 << Filter::stone_bit(StoneKindId::new(k))
                }),
        );
        self.derived.bit_ranges = if self.stones.is_empty() {
            None
        } else {
            crate::compile::ranges::BitRanges::new(
                links,
                topo.len(),
                pieces.iter().map(|p| &p.range),
                pieces.iter().map(|p| &p.moves),
                collectable,
            )
        };
        self.derived.zobrist = crate::compile::zobrist::Zobrist::new(
            topo.len(),
            self.stones.len() + pieces.len(),
            self.castlings
                .iter()
                .map(|c| usize::from(c.right) + 1)
                .max()
                .unwrap_or(0),
        );
        self.derived.collectable = collectable;
        self.derived.allowed = self.placement_table();
        self.derived.allowed_kinds = self.allowed_masks();
        let (touch, movers) = self.castling_tables();
        self.derived.castling_touch = touch;
        self.derived.castling_movers = movers;
        self.derive_blast();
    }

    /// The cells each capture's blast reaches (`[blast]`), as lists and, on boards of at most
    /// 128 cells, as bit sets.
    fn derive_blast(&mut self) {
        let (mut cells, mut start) = (Vec::new(), vec![0u32]);
        if let Some(b) = &self.blast {
            for to in self.topo.cells() {
                for &v in &b.around {
                    let c = self.links.link(v, to);
                    if c != crate::board::NO_CELL
                        && !cells[start[start.len() - 1] as usize..].contains(&c)
                    {
                        cells.push(c);
                    }
                }
                start.push(u32::try_from(cells.len()).unwrap_or(u32::MAX));
            }
        }
        self.derived.blast_sets = if self.topo.len() <= 128 {
            start
                .windows(2)
                .map(|w| {
                    cells[w[0] as usize..w[1] as usize]
                        .iter()
                        .fold(0u128, |m, &c| m | 1u128 << c.index())
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut reach = vec![0u128; self.derived.blast_sets.len()];
        for (to, &set) in self.derived.blast_sets.iter().enumerate() {
            let mut rest = set;
            while rest != 0 {
                reach[rest.trailing_zeros() as usize] |= 1u128 << to;
                rest &= rest - 1;
            }
        }
        self.derived.blast_reach = reach;
        self.derived.blast_cells = cells;
        self.derived.blast_start = start;
    }

    /// The tables behind [`Ruleset::castling_touch`] (per cell) and
    /// [`Ruleset::castling_mover`] (per side and kind).
    fn castling_tables(&self) -> (Vec<u32>, Vec<u32>) {
        let mut touch = vec![0u32; self.topo.len()];
        for c in &self.castlings {
            let cells = c.partners.iter().map(|&(a, _)| a);
            for cell in cells.chain(c.free.is_none().then_some(c.king.0)) {
                // The loader refuses more than 32 castling rights.
                touch[cell.index()] |= 1 << c.right;
            }
        }
        let kinds = self.pieces.len();
        let mut movers = vec![0u32; 2 * kinds];
        for c in self.castlings.iter().filter(|c| c.free.is_some()) {
            for k in 0..kinds {
                if self.castles_as_king(c, PieceKindId::new(k)) {
                    movers[c.side.index() * kinds + k] |= 1 << c.right;
                }
            }
        }
        (touch, movers)
    }

    /// The castling rights a turn ends by touching `cell` (moving from or to it, capturing or
    /// blasting its piece); free castlings' kings are not counted (they end their rights by
    /// whichever cell they move from).
    #[inline]
    pub fn castling_touch(&self, cell: Cell) -> u32 {
        self.derived
            .castling_touch
            .get(cell.index())
            .copied()
            .unwrap_or(0)
    }

    /// The rights of `side`'s free castlings that a move of its piece of `kind` ends: those
    /// whose king the piece is (a free castling's king ends them from whichever cell it
    /// leaves).
    #[inline]
    pub fn castling_mover(&self, side: Side, kind: PieceKindId) -> u32 {
        self.derived
            .castling_movers
            .get(side.index() * self.pieces.len() + kind.index())
            .copied()
            .unwrap_or(0)
    }

    /// For each side and stone kind, the cells the placement rules allow (what
    /// [`Ruleset::stone_allowed`] looks up), computed from `placement` and the regions.
    pub fn placement_table(&self) -> Vec<CellSet> {
        let mut out = Vec::new();
        for side in Side::BOTH {
            for k in StoneKindId::all(self.stones.len()) {
                let mut set = CellSet::new(self.topo.len());
                for c in self.topo.cells() {
                    if self.stone_allowed_by_rules(side, k, c) {
                        set.insert(c);
                    }
                }
                out.push(set);
            }
        }
        out
    }

    /// The stone kinds `side` may place on `cell` by the placement rules, as a mask (see
    /// [`Ruleset::allowed_kinds`]); `None` with more than 64 kinds.
    #[inline]
    pub fn allowed_mask(&self, side: Side, cell: Cell) -> Option<u64> {
        self.derived
            .allowed_kinds
            .get(side.index() * self.topo.len() + cell.index())
            .copied()
    }

    /// [`Ruleset::allowed_kinds`] from [`Ruleset::allowed`].
    pub fn allowed_masks(&self) -> Vec<u64> {
        if self.stones.len() > 64 || self.derived.allowed.len() != 2 * self.stones.len() {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(2 * self.topo.len());
        for side in Side::BOTH {
            for c in 0..self.topo.len() {
                let cell = Cell::new(c);
                let mut m = 0u64;
                for k in 0..self.stones.len() {
                    if self.derived.allowed[side.index() * self.stones.len() + k].contains(cell) {
                        m |= 1 << k;
                    }
                }
                out.push(m);
            }
        }
        out
    }

    /// The placement rules themselves (B-44), asked cell by cell.
    fn stone_allowed_by_rules(&self, side: Side, kind: StoneKindId, cell: Cell) -> bool {
        let region_side = |w: Whose| match w {
            Whose::Own => side,
            Whose::Enemy => side.opponent(),
        };
        if self
            .placement
            .forbidden
            .iter()
            .any(|&(w, r)| self.regions[r.index()].cells[region_side(w)].contains(cell))
        {
            return false;
        }
        self.placement
            .only
            .iter()
            .filter(|(w, r, _)| self.regions[(*r).index()].cells[region_side(*w)].contains(cell))
            .all(|(_, _, kinds)| kinds.contains(&kind))
    }
}

/// Names in owned form, from which [`Names`] borrows.
#[derive(Debug, Clone)]
pub struct OwnedNames {
    pieces: Vec<String>,
    stones: Vec<String>,
    classes: Vec<String>,
    regions: Vec<String>,
    directions: Vec<(String, Vec<(i8, i8)>)>,
}

impl OwnedNames {
    /// Borrowed view.
    pub fn names(&self) -> Names<'_> {
        Names {
            pieces: &self.pieces,
            stones: &self.stones,
            stone_classes: &self.classes,
            regions: &self.regions,
            directions: &self.directions,
        }
    }
}

/// The kinds (bit per kind) that counting may take a kind at a time
/// ([`Ruleset::together_kinds`]): not royal, with a movement program in cell sets, and no
/// change of kind but one on reaching a region or on a move into, within or out of a zone
/// (whose cells are known before any move).
fn together_kinds(pieces: &[PieceKind], bit_moves: Option<&crate::compile::bits::BitMoves>) -> u64 {
    let sets = bit_moves.map_or(0, crate::compile::bits::BitMoves::program_kinds);
    pieces
        .iter()
        .enumerate()
        .filter(|(k, p)| {
            sets >> k & 1 != 0
                && !p.royal
                && match p.changes.as_slice() {
                    [] => true,
                    [ch] => matches!(ch.on, Trigger::Reach { .. } | Trigger::Zone(_)),
                    _ => false,
                }
        })
        .fold(0u64, |m, (k, _)| m | 1 << k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::random_playout;
    use crate::search::Rng;

    /// A free castling's stand found from the piece sets is the one the walk along the row
    /// finds (the walk is what boards above 128 cells use): in every position of random games
    /// of every bundled game with free castlings, for each of them whatever its rights, and
    /// with the royal pieces moved onto random cells of the board.
    #[test]
    fn free_castling_stands_from_sets_are_the_stands_walked() {
        let mut rng = Rng::new(960);
        let mut checked = 0;
        for (name, text) in crate::BUNDLED {
            let Ok(rules) = Ruleset::from_source(name, text) else {
                continue;
            };
            let free: Vec<&Castling> = rules
                .castlings
                .iter()
                .filter(|c| c.free.is_some())
                .collect();
            if free.is_empty() || rules.topo.len() > 128 {
                continue;
            }
            let mut same = |pos: &Position| {
                for &c in &free {
                    let (sets, walked) = (
                        rules.free_stand_in_sets(c, pos).map(|s| s.king),
                        rules.free_stand_walked(c, pos).map(|s| s.king),
                    );
                    assert_eq!(
                        sets,
                        walked,
                        "{name}: {}",
                        crate::text::write_position(&rules, pos)
                    );
                    checked += 1;
                }
            };
            for _ in 0..20 {
                let game = random_playout(&rules, |n| rng.below(n), 80, Some(7), &mut same);
                // A second royal piece of the side on the row, or none: the first in cell
                // order counts.
                let mut pos = game.pos().clone();
                for _ in 0..4 {
                    let cell = Cell::new(rng.below(rules.topo.len()));
                    let royal = (0..rules.pieces.len()).find(|&k| rules.pieces[k].royal);
                    if let Some(k) = royal {
                        let side = if rng.below(2) == 0 {
                            Side::White
                        } else {
                            Side::Black
                        };
                        pos.put(
                            cell,
                            crate::core::Occupant::piece(side, PieceKindId::new(k)),
                        );
                    }
                    same(&pos);
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
