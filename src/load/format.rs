//! The variant file as read (serde), before any check. Every value the loader checks keeps its
//! span in the file.

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

/// A variant file as read, before any check.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VariantDef {
    /// `[game]`.
    pub game: GameDef,
    /// `[board]`.
    pub board: BoardDef,
    /// `[regions.NAME]`: side-relative cell sets.
    #[serde(default)]
    pub regions: IndexMap<Spanned<String>, RegionDef>,
    /// `[directions]`: extra named direction sets.
    #[serde(default)]
    pub directions: IndexMap<Spanned<String>, DirectionList>,
    /// Classes of cells (name → cells), for direction sets that depend on the cell.
    #[serde(default)]
    pub classes: IndexMap<Spanned<String>, Spanned<String>>,
    /// Direction sets by class of cell: set name → class name → offsets.
    #[serde(default)]
    pub directions_by_class: IndexMap<Spanned<String>, IndexMap<Spanned<String>, DirectionList>>,
    /// `[fragments]`: named parts of definitions, usable by name in later fragments and in
    /// every piece's `moves` and `range`.
    #[serde(default)]
    pub fragments: IndexMap<Spanned<String>, Spanned<String>>,
    /// `[stones.NAME]`.
    #[serde(default)]
    pub stones: IndexMap<Spanned<String>, StoneDef>,
    /// `[pieces.NAME]`.
    pub pieces: IndexMap<Spanned<String>, PieceDef>,
    /// `[setup]`.
    pub setup: SetupDef,
    /// `[placement]`.
    #[serde(default)]
    pub placement: PlacementDef,
    /// `[end]`.
    #[serde(default)]
    pub end: EndDef,
    /// `[turn]`.
    #[serde(default)]
    pub turn: TurnDef,
    /// `[notation]`.
    #[serde(default)]
    pub notation: NotationDef,
    /// `[[castling]]`.
    #[serde(default)]
    pub castling: Vec<CastlingDef>,
    #[serde(default)]
    pub reserve: ReserveDef,
    #[serde(default)]
    pub clock: ClockDef,
    pub repetition: Option<RepetitionDef>,
    #[serde(default)]
    pub goal: Vec<GoalDef>,
    pub drops: Option<DropsDef>,
    pub neutral: Option<NeutralDef>,
    pub blast: Option<BlastDef>,
}

/// `[blast]`: captures that explode.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BlastDef {
    /// Direction names: the cells one such step from the destination blow up.
    pub around: Spanned<Vec<Spanned<String>>>,
    /// Kinds that a blast around them spares.
    #[serde(default)]
    pub immune: Vec<Spanned<String>>,
}

/// `[neutral]`: neutral pieces and what makes influence over them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct NeutralDef {
    /// The piece kind they are.
    pub kind: Spanned<String>,
    /// Their symbol in position text.
    pub symbol: Spanned<String>,
    /// Direction names: the cells one such step away count towards influence.
    pub influence: Spanned<Vec<Spanned<String>>>,
    /// Whether a neutral piece may capture another neutral piece (default true).
    pub captures_neutral: Option<Spanned<bool>>,
    /// Whether a neutral piece a side could capture with attacks for it (default false).
    pub gives_check: Option<Spanned<bool>>,
}

/// `[end.vanquished]`: conditions that together lose the game.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VanquishedDef {
    #[serde(default)]
    pub no_reserve: bool,
    #[serde(default)]
    pub none_of: Vec<Spanned<String>>,
    pub points_below: Option<Spanned<i64>>,
    #[serde(default)]
    pub no_neutrals: bool,
    pub both: Option<Spanned<String>>,
}

/// `[drops]`: placing a piece from the hand as a turn.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DropsDef {
    /// `own REGION` or `enemy REGION`.
    pub region: Spanned<String>,
    /// The kinds that may be dropped (all counted kinds when empty).
    #[serde(default)]
    pub kinds: Vec<Spanned<String>>,
}

/// `[[goal]]`: a region that ends the game when some kinds reach it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GoalDef {
    /// `own REGION` or `enemy REGION`, seen from the piece's side.
    pub region: Spanned<String>,
    /// The kinds that count (empty: any).
    #[serde(default)]
    pub by: Vec<Spanned<String>>,
    /// "wins" (default), "draw" or "loses" for the piece's side.
    pub verdict: Option<Spanned<String>>,
}

/// `[reserve]`: what happens to pieces that leave the board.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ReserveDef {
    /// Where a piece replaced by a change of kind goes: "out" or "reserve".
    pub replaced: Option<Spanned<String>>,
}

/// `[clock]`: the turn counter's resets and limit.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ClockDef {
    /// Events that reset it: "capture", "change".
    pub reset_on: Option<Vec<Spanned<String>>>,
    /// Piece kinds whose every move resets it.
    #[serde(default)]
    pub reset_by: Vec<Spanned<String>>,
    /// The count that ends the game.
    pub limit: Option<Spanned<i64>>,
    /// What reaching the limit means: "draw" or "mover-loses".
    pub at_limit: Option<Spanned<String>>,
}

/// `[repetition]`: the n-th occurrence of a position.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RepetitionDef {
    /// Which occurrence counts (2: any repetition).
    pub occurrence: Spanned<i64>,
    /// "illegal", "draw" or "mover-loses".
    pub verdict: Spanned<String>,
}

/// One change of kind of a piece.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ChangeDef {
    /// "reach", "enter", "zone", "capture" or "check".
    pub on: Spanned<String>,
    /// For "reach" and "enter": the own region.
    pub region: Option<Spanned<String>>,
    /// For "capture": the kinds whose capture counts (empty: any).
    #[serde(default)]
    pub kinds: Vec<Spanned<String>>,
    /// The kinds it may become.
    pub to: Spanned<Vec<Spanned<String>>>,
    /// Whether the player may decline.
    #[serde(default)]
    pub optional: bool,
    /// `stays` (default) or `no-move`: a compulsory change with no kind available.
    pub unavailable: Option<Spanned<String>>,
}

/// `[end]`: how the game ends (RULINGS B-60 … B-62).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct EndDef {
    /// `[end.vanquished]`: conditions that together lose the game.
    pub vanquished: Option<VanquishedDef>,
    /// A side wins when, after its turn, one of its pieces stands in this region
    /// (`enemy NAME`).
    pub occupy: Option<Spanned<String>>,
    /// The piece kinds whose arrival in the `occupy` region wins (default: any).
    #[serde(default)]
    pub occupy_by: Vec<Spanned<String>>,
    /// `loses` (default) or `ignored`: a side left without pieces.
    pub no_pieces: Option<Spanned<String>>,
    /// `loses` (default) or `ignored`: a side that starts its turn without a piece move.
    pub immobilized: Option<Spanned<String>>,
    /// With royal pieces: `loses` (default) for the side checkmated.
    pub checkmate: Option<Spanned<String>>,
    /// With royal pieces: `draw` (default), `loses` or `wins` for the side stalemated.
    pub stalemate: Option<Spanned<String>>,
    /// A side left without any piece of one of these kinds loses.
    #[serde(default)]
    pub extinction: Vec<Spanned<String>>,
    /// A side that has given check this many times wins.
    pub checks: Option<Spanned<i64>>,
    /// `none` (default) or `draw`: the first side's arrival in a goal answered by the other's.
    pub goal_answer: Option<Spanned<String>>,
    /// `ignored` (default) or `loses`: a side left with only its royal pieces.
    pub bare: Option<Spanned<String>>,
    /// `none` (default) or `draw`: the bared side's answer.
    pub bare_answer: Option<Spanned<String>>,
    /// `none` (default) or `draw`: a pass answered by a pass.
    pub two_passes: Option<Spanned<String>>,
    /// `none` (default) or `draw`: royal pieces facing each other.
    pub royals_facing: Option<Spanned<String>>,
    /// The direction set along which royal pieces face (default `orthogonal`).
    pub facing_lines: Option<Spanned<String>>,
}

/// `[turn]`: judgement calls about the whole turn.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TurnDef {
    /// Most stones one turn may blow up (default 1).
    pub explosions: Option<Spanned<i64>>,
    /// Whether a cell emptied by an explosion may not take a stone in the opponent's next
    /// turn (default true).
    pub taboo_after_explosion: Option<Spanned<bool>>,
    /// The kinds of turn: `move`, `move-then-stone`, `stone` (default: all three).
    #[serde(default)]
    pub shapes: Option<Spanned<Vec<Spanned<String>>>>,
    /// `optional` (default) or `compulsory`: whether a piece that moves must then place a
    /// stone when it can.
    pub stone_after_move: Option<Spanned<String>>,
    /// Kinds of turn that exclude the others when there is one: `capture`.
    #[serde(default)]
    pub compulsory: Vec<Spanned<String>>,
    /// Whether only the turns capturing the most pieces count.
    pub most_captures: Option<Spanned<bool>>,
    /// `at-once` (default) or `end-of-turn`: when pieces taken in a chain leave the board.
    pub captured_leave: Option<Spanned<String>>,
    /// `never` (default) or `after-capture`: whether a chain may come back to a cell.
    pub chain_revisits: Option<Spanned<String>>,
    /// `never` (default) or `after-capture`: whether a chain may end on its start cell.
    pub chain_ends_home: Option<Spanned<String>>,
    /// `allowed` (default) or `forbidden`: whether a turn may give check.
    pub giving_check: Option<Spanned<String>>,
    /// `never` (default) or `allowed`: whether a side may pass.
    pub pass: Option<Spanned<String>>,
}

/// `[notation]`: the position text's fields after BOARD SIDE.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct NotationDef {
    /// Field names in order: `supplies`, `taboo`, `castling`, `en-passant`, `checks`,
    /// `halfmove`, `fullmove`.
    pub fields: Option<Spanned<Vec<Spanned<String>>>>,
}

/// `[[castling]]`: one castling move, declared cell by cell.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CastlingDef {
    /// `white` or `black`.
    pub side: Spanned<String>,
    /// Its letter in the castling field of position text (upper case for White).
    pub letter: Option<Spanned<String>>,
    /// The royal piece's cell.
    pub king: Option<Spanned<String>>,
    /// Destination of the royal piece.
    pub king_to: Option<Spanned<String>>,
    /// The partner's cell.
    pub rook: Option<Spanned<String>>,
    /// Destination of the partner.
    pub rook_to: Option<Spanned<String>>,
    /// Further partners (or all of them), each "FROM-TO" (W-12 moves two).
    #[serde(default)]
    pub partners: Vec<Spanned<String>>,
    /// Cells that must be empty.
    pub empty: Option<Spanned<String>>,
    /// Cells that must not be attacked.
    pub safe: Option<Spanned<String>>,
    /// `"files"`: a free castling (Chess960) whose rights name the partner's file.
    pub rights: Option<Spanned<String>>,
    /// The kind a free castling's partner must be.
    pub partner_kind: Option<Spanned<String>>,
    /// The kind that castles as the king (default: the royal piece).
    pub king_kind: Option<Spanned<String>>,
    /// The cells a free castling's partner may start from.
    pub partners_on: Option<Spanned<String>>,
    /// A free castling with the partner on the king's higher files: "KING-TO PARTNER-TO".
    pub high_side_to: Option<Spanned<String>>,
    /// … with the partner on the king's lower files.
    pub low_side_to: Option<Spanned<String>>,
}

/// A declared direction set: `[[file step, rank step], …]`.
pub type DirectionList = Spanned<Vec<Spanned<Vec<i64>>>>;

/// `[game]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GameDef {
    /// Display name.
    pub name: Spanned<String>,
    /// One paragraph about the game.
    #[serde(default)]
    pub description: String,
    /// The sides' names in text output (first player first), e.g. `["blue", "red"]`.
    pub sides: Option<Spanned<Vec<Spanned<String>>>>,
    /// The sides (`white`, `black`) that play without a royal piece.
    #[serde(default)]
    pub without_royal: Vec<Spanned<String>>,
}

/// `[board]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BoardDef {
    /// File labels from the lowest file.
    pub files: Spanned<Vec<Spanned<String>>>,
    /// Number of ranks.
    pub ranks: Spanned<i64>,
    /// One line per rank from the highest: `#` a cell, `.` no cell.
    pub mask: Spanned<String>,
    /// Optional check of the number of cells.
    pub cells: Option<Spanned<i64>>,
    /// How cells are coloured: `chequered` (the default) or `plain`.
    pub colours: Option<Spanned<String>>,
    /// How pictures draw the board: `squares` (the default), `segments` or `points`.
    pub drawing: Option<Spanned<String>>,
    /// With `points`: the rank after which a river runs.
    pub river: Option<Spanned<i64>>,
    /// With `points`: regions drawn with their diagonals.
    pub diagonals: Option<Spanned<Vec<Spanned<String>>>>,
}

/// `[regions.NAME]`: cells per side, as names and rectangles (`B2-D4`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RegionDef {
    /// White's cells.
    pub white: Spanned<String>,
    /// Black's cells.
    pub black: Spanned<String>,
}

/// `[stones.NAME]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct StoneDef {
    /// Display name.
    pub name: Option<String>,
    /// One character in position text.
    pub symbol: Spanned<String>,
    /// Stones of this kind each side starts with.
    pub supply: Spanned<i64>,
    /// Occupant class (`arrow-like`, `block-like`, …), usable in filters.
    pub class: Spanned<String>,
    /// Every piece may land on it and collects it into its supply.
    #[serde(default)]
    pub collectable: bool,
    /// Stone kinds that this stone, placed on them, blows up: both leave the game.
    #[serde(default)]
    pub explodes: Vec<Spanned<String>>,
    /// Enemy piece kinds that this stone, placed on them, captures; the stone stays.
    #[serde(default)]
    pub captures: Vec<Spanned<String>>,
    /// Piece kinds that cannot capture by placing this stone.
    #[serde(default)]
    pub captures_not_by: Vec<Spanned<String>>,
    /// Placing this stone in the region (`enemy NAME`) wins at once.
    pub wins_on: Option<Spanned<String>>,
}

/// `[pieces.NAME]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PieceDef {
    /// Display name.
    pub name: Option<String>,
    /// One letter in position text (upper case; Black uses lower case).
    pub letter: Spanned<String>,
    /// The rulings this definition implements, for documentation.
    #[serde(default)]
    pub rulings: Vec<String>,
    /// Movement, in the piece DSL.
    pub moves: Spanned<String>,
    /// Placement range, in the piece DSL; the movement when absent.
    pub range: Option<Spanned<String>>,
    /// Most stones it may place in one turn (default 1).
    pub stones_per_turn: Option<Spanned<i64>>,
    /// Stone kinds it may remove from its range instead of placing.
    #[serde(default)]
    pub removes: Vec<Spanned<String>>,
    /// No turn may leave a royal piece of the mover attacked.
    #[serde(default)]
    pub royal: bool,
    /// A two-cell straight move leaves an en-passant cell behind; its captures may take there.
    #[serde(default)]
    pub en_passant: bool,
    /// `file` (default) or `any`: which two-cell straight moves leave an en-passant cell.
    pub en_passant_lines: Option<Spanned<String>>,
    /// The own region the cell passed by a two-cell move must lie in for en passant.
    pub en_passant_in: Option<Spanned<String>>,
    /// Where this kind may be dropped, instead of `[drops] region`.
    pub drops_in: Option<Spanned<String>>,
    /// No drop of this kind on a file holding this many own pieces of this kind.
    pub drop_file_limit: Option<Spanned<i64>>,
    /// `allowed` (default) or `forbidden`: whether a drop of this kind may checkmate.
    pub drop_mate: Option<Spanned<String>>,
    /// The own region where it must promote.
    pub promotes_in: Option<Spanned<String>>,
    /// Piece kinds it may promote to.
    #[serde(default)]
    pub promotes_to: Vec<Spanned<String>>,
    /// The kinds of turn this piece has, overriding `[turn] shapes`.
    #[serde(default)]
    pub turns: Option<Spanned<Vec<Spanned<String>>>>,
    /// Pieces of this kind each side starts with off the board (the kind is then counted).
    pub reserve: Option<Spanned<i64>>,
    /// The most pieces of this kind a side may have on the board by a change of kind.
    pub at_most: Option<Spanned<i64>>,
    /// The piece's worth, for evaluation (and rules that count points).
    pub value: Option<Spanned<i64>>,
    /// The built-in picture it is drawn with.
    pub picture: Option<Spanned<String>>,
    /// Where captured pieces go: "out" or "reserve" (passive capture).
    pub captures_to: Option<Spanned<String>>,
    /// The kind a captured piece of this kind enters the capturer's reserve as.
    pub captured_as: Option<Spanned<String>>,
    /// Ending a move in this region takes the opponent's whole reserve.
    pub takes_reserve_in: Option<Spanned<String>>,
    /// Changes of kind on events.
    #[serde(default)]
    pub changes: Vec<ChangeDef>,
}

/// `[setup]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SetupDef {
    /// The starting position as position text.
    pub position: Spanned<String>,
}

/// `[placement]`: where stones may go (RULINGS B-44).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PlacementDef {
    /// Regions (`own NAME` / `enemy NAME`) where no stone may be placed.
    #[serde(default)]
    pub forbidden: Vec<Spanned<String>>,
    /// Regions where only the listed stone kinds may be placed.
    #[serde(default)]
    pub only: Vec<OnlyDef>,
}

/// One `only` rule.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct OnlyDef {
    /// `own NAME` or `enemy NAME`.
    pub region: Spanned<String>,
    /// Stone kinds allowed there.
    pub stones: Vec<Spanned<String>>,
}
