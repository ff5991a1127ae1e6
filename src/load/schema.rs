//! The shape of a variant file, checked on the parsed TOML tree before anything is read from
//! it, so that one run reports every unknown key, wrong type and missing key, each with its
//! span (serde alone would stop at the first).

use toml::Spanned;

use super::words::{
    AtLimit, Bare, BareAnswer, CapturedLeave, CapturesTo, CastlingSide, ChainEndsHome,
    ChainRevisits, ChangeOn, Checkmate, Compulsory, DropMate, EnPassantLines, Field, GivingCheck,
    GoalAnswer, GoalVerdict, Immobilized, NoPieces, Pass, RepetitionVerdict, ResetOn, Rights,
    RoyalsFacing, Stalemate, StoneAfterMove, TurnShape, TwoPasses, Unavailable, WithoutRoyal, Word,
};
use crate::rules::{BothVanquished, Colouring, Drawing, Replaced};
use toml::de::{DeTable, DeValue};

/// The expected shape of a value.
#[derive(Clone, Copy)]
enum Shape {
    Str,
    /// A string that is one of these words (a typed key of `words.rs`, which reads it).
    Word(&'static [&'static str]),
    Int,
    Bool,
    /// An array of strings.
    Strs,
    /// An array of strings, each one of these words (a typed key of `words.rs`).
    Words(&'static [&'static str]),
    /// An array of integer pairs (direction vectors).
    Pairs,
    /// A table with these keys.
    Table(&'static [Key]),
    /// A table whose keys are names, each holding this shape.
    Named(&'static Shape),
    /// An array of tables of this shape.
    Tables(&'static [Key]),
}

/// A key of a table: its name, its shape, whether it must be there, and what it means (the
/// format reference, `docs/format-reference.md`, is generated from these).
type Key = (&'static str, Shape, bool, &'static str);

const GAME: &[Key] = &[
    ("name", Shape::Str, true, "Display name."),
    (
        "description",
        Shape::Str,
        false,
        "One paragraph about the game.",
    ),
    (
        "sides",
        Shape::Strs,
        false,
        "The sides' names in text output (first player first), e.g. [\"blue\", \"red\"].",
    ),
    (
        "without-royal",
        Shape::Words(<WithoutRoyal as Word>::NAMES),
        false,
        "Sides that play without a royal piece in a game with royal pieces: never in check, ended by the other rules (horde: [\"white\"]).",
    ),
];
const BOARD: &[Key] = &[
    (
        "files",
        Shape::Strs,
        true,
        "File labels from the lowest file.",
    ),
    ("ranks", Shape::Int, true, "Number of ranks."),
    (
        "mask",
        Shape::Str,
        true,
        "One line per rank from the highest: `#` a cell, `.` no cell.",
    ),
    (
        "cells",
        Shape::Int,
        false,
        "Optional check of the number of cells.",
    ),
    (
        "colours",
        Shape::Word(<Colouring as Word>::NAMES),
        false,
        "How cells are coloured: `chequered` (the default) or `plain`.",
    ),
    (
        "drawing",
        Shape::Word(<Drawing as Word>::NAMES),
        false,
        "How pictures draw the board: `squares` (the default), `segments` or `points`.",
    ),
    (
        "river",
        Shape::Int,
        false,
        "With `points`: the rank after which a river runs.",
    ),
    (
        "diagonals",
        Shape::Strs,
        false,
        "With `points`: regions drawn with their diagonals.",
    ),
];
const REGION: &[Key] = &[
    ("white", Shape::Str, true, "White's cells."),
    ("black", Shape::Str, true, "Black's cells."),
];
const STONE: &[Key] = &[
    ("name", Shape::Str, false, "Display name."),
    (
        "symbol",
        Shape::Str,
        true,
        "One character in position text.",
    ),
    (
        "supply",
        Shape::Int,
        true,
        "Stones of this kind each side starts with.",
    ),
    (
        "class",
        Shape::Str,
        true,
        "Occupant class (`arrow-like`, `block-like`, …), usable in filters.",
    ),
    (
        "collectable",
        Shape::Bool,
        false,
        "Every piece may land on it and collects it into its supply.",
    ),
    (
        "explodes",
        Shape::Strs,
        false,
        "Stone kinds that this stone, placed on them, blows up: both leave the game.",
    ),
    (
        "captures",
        Shape::Strs,
        false,
        "Enemy piece kinds that this stone, placed on them, captures; the stone stays.",
    ),
    (
        "captures-not-by",
        Shape::Strs,
        false,
        "Piece kinds that cannot capture by placing this stone.",
    ),
    (
        "wins-on",
        Shape::Str,
        false,
        "Placing this stone in the region (`enemy NAME`) wins at once.",
    ),
];
const PIECE: &[Key] = &[
    ("name", Shape::Str, false, "Display name."),
    (
        "letter",
        Shape::Str,
        true,
        "One letter in position text (upper case; Black uses lower case), alone or with a mark that sets it apart from the kind with the same letter: `Q~` (crazyhouse's promoted pieces) or `+P` (shogi's).",
    ),
    (
        "rulings",
        Shape::Strs,
        false,
        "The rulings this definition implements, for documentation.",
    ),
    ("moves", Shape::Str, true, "Movement, in the piece DSL."),
    (
        "range",
        Shape::Str,
        false,
        "Placement range, in the piece DSL; the movement when absent.",
    ),
    (
        "stones-per-turn",
        Shape::Int,
        false,
        "Most stones it may place in one turn (default 1).",
    ),
    (
        "removes",
        Shape::Strs,
        false,
        "Stone kinds it may remove from its range instead of placing.",
    ),
    (
        "royal",
        Shape::Bool,
        false,
        "No turn may leave a royal piece of the mover attacked.",
    ),
    (
        "en-passant",
        Shape::Bool,
        false,
        "A two-cell straight move leaves an en-passant cell behind; its captures may take there.",
    ),
    (
        "en-passant-lines",
        Shape::Word(<EnPassantLines as Word>::NAMES),
        false,
        "`file` (default) or `any`: which two-cell straight moves leave an en-passant cell.",
    ),
    (
        "en-passant-in",
        Shape::Str,
        false,
        "An own region: a two-cell move leaves an en-passant cell only when the cell it passes lies in it (horde: the third rank, so that a double step from the first rank cannot be taken).",
    ),
    (
        "drops-in",
        Shape::Str,
        false,
        "`own REGION` or `enemy REGION`: where this kind may be dropped from the hand, instead of `[drops] region` (crazyhouse: pawns not on the first and last ranks).",
    ),
    (
        "drop-file-limit",
        Shape::Int,
        false,
        "A drop of this kind is refused on a file that already holds this many of the side's own pieces of this kind (shogi: 1, no two unpromoted pawns on a file).",
    ),
    (
        "drop-mate",
        Shape::Word(<DropMate as Word>::NAMES),
        false,
        "`allowed` (default) or `forbidden`: whether a drop of this kind may checkmate (shogi's pawn).",
    ),
    (
        "promotes-in",
        Shape::Str,
        false,
        "The own region where it must promote.",
    ),
    (
        "promotes-to",
        Shape::Strs,
        false,
        "Piece kinds it may promote to.",
    ),
    (
        "turns",
        Shape::Words(<TurnShape as Word>::NAMES),
        false,
        "The kinds of turn this piece has, overriding `[turn] shapes`.",
    ),
    (
        "reserve",
        Shape::Int,
        false,
        "Pieces of this kind each side starts with off the board (the kind is then counted).",
    ),
    (
        "at-most",
        Shape::Int,
        false,
        "A change of kind may make a piece of this kind only while its side has fewer than this on the board (grand chess: 1 queen, 2 rooks; promotion only to a kind the side has lost).",
    ),
    (
        "value",
        Shape::Int,
        false,
        "The piece's worth, for evaluation (and rules that count points).",
    ),
    (
        "picture",
        Shape::Str,
        false,
        "The built-in picture it is drawn with.",
    ),
    (
        "captures-to",
        Shape::Word(<CapturesTo as Word>::NAMES),
        false,
        "Where captured pieces go: \"out\" or \"reserve\" (passive capture).",
    ),
    (
        "captured-as",
        Shape::Str,
        false,
        "The kind a captured piece of this kind enters the capturer's reserve as, under passive capture (crazyhouse: a promoted queen goes back as a pawn); that kind needs a `reserve`.",
    ),
    (
        "takes-reserve-in",
        Shape::Str,
        false,
        "Ending a move in this region takes the opponent's whole reserve.",
    ),
    (
        "changes",
        Shape::Tables(CHANGE),
        false,
        "Changes of kind on events.",
    ),
];
const CHANGE: &[Key] = &[
    (
        "on",
        Shape::Word(<ChangeOn as Word>::NAMES),
        true,
        "The event: `reach` (the move ends in `region`), `enter` (it comes into `region` from outside), `zone` (it starts or ends in `region`: shogi's promotion zone), `capture` (of one of `kinds`) or `check`.",
    ),
    (
        "region",
        Shape::Str,
        false,
        "For \"reach\", \"enter\" and \"zone\": the own region.",
    ),
    (
        "kinds",
        Shape::Strs,
        false,
        "For \"capture\": the kinds whose capture counts (empty: any).",
    ),
    ("to", Shape::Strs, true, "The kinds it may become."),
    (
        "optional",
        Shape::Bool,
        false,
        "Whether the player may decline.",
    ),
    (
        "unavailable",
        Shape::Word(<Unavailable as Word>::NAMES),
        false,
        "`stays` (default) or `no-move`: when a compulsory change has no kind available, the piece stays as it is, or the move is not allowed (grand chess: a pawn may not reach the last rank unless it can promote).",
    ),
];
const GOAL: &[Key] = &[
    (
        "region",
        Shape::Str,
        true,
        "`own REGION` or `enemy REGION`, seen from the piece's side.",
    ),
    (
        "by",
        Shape::Strs,
        false,
        "The kinds that count (empty: any).",
    ),
    (
        "verdict",
        Shape::Word(<GoalVerdict as Word>::NAMES),
        false,
        "The verdict for the side that reaches the goal (default `wins`).",
    ),
];
const DROPS: &[Key] = &[
    (
        "region",
        Shape::Str,
        true,
        "`own REGION` or `enemy REGION`.",
    ),
    (
        "kinds",
        Shape::Strs,
        false,
        "The kinds that may be dropped (all counted kinds when empty).",
    ),
];
const NEUTRAL: &[Key] = &[
    ("kind", Shape::Str, true, "The piece kind they are."),
    ("symbol", Shape::Str, true, "Their symbol in position text."),
    (
        "influence",
        Shape::Strs,
        true,
        "Direction names: the cells one such step away count towards influence.",
    ),
    (
        "captures-neutral",
        Shape::Bool,
        false,
        "Whether a neutral piece, moved by a side, may capture another neutral piece (default true).",
    ),
    (
        "gives-check",
        Shape::Bool,
        false,
        "Whether a neutral piece that a side could capture with attacks for that side, so that it gives check (default false).",
    ),
];
const BLAST: &[Key] = &[
    (
        "around",
        Shape::Strs,
        true,
        "Direction names: a capture also removes the capturing piece and every piece one such step from where it lands, of either side (atomic: [\"orthogonal\", \"diagonal\"]).",
    ),
    (
        "immune",
        Shape::Strs,
        false,
        "Piece kinds that a blast around them spares; they still leave when they capture or are captured (atomic: [\"pawn\"]).",
    ),
];
const RESERVE: &[Key] = &[(
    "replaced",
    Shape::Word(<Replaced as Word>::NAMES),
    false,
    "Where a piece replaced by a change of kind goes: \"out\" or \"reserve\".",
)];
const CLOCK: &[Key] = &[
    (
        "reset-on",
        Shape::Words(<ResetOn as Word>::NAMES),
        false,
        "Events that reset it (default: a capture).",
    ),
    (
        "reset-by",
        Shape::Strs,
        false,
        "Piece kinds whose every move resets it.",
    ),
    ("limit", Shape::Int, false, "The count that ends the game."),
    (
        "at-limit",
        Shape::Word(<AtLimit as Word>::NAMES),
        false,
        "What reaching the limit means (default `draw`).",
    ),
];
const REPETITION: &[Key] = &[
    (
        "occurrence",
        Shape::Int,
        true,
        "Which occurrence counts (2: any repetition).",
    ),
    (
        "verdict",
        Shape::Word(<RepetitionVerdict as Word>::NAMES),
        true,
        "What the repeating turn means.",
    ),
];
const SETUP: &[Key] = &[(
    "position",
    Shape::Str,
    true,
    "The starting position as position text.",
)];
const ONLY: &[Key] = &[
    ("region", Shape::Str, true, "`own NAME` or `enemy NAME`."),
    ("stones", Shape::Strs, true, "Stone kinds allowed there."),
];
const PLACEMENT: &[Key] = &[
    (
        "forbidden",
        Shape::Strs,
        false,
        "Regions (`own NAME` / `enemy NAME`) where no stone may be placed.",
    ),
    (
        "only",
        Shape::Tables(ONLY),
        false,
        "Regions where only the listed stone kinds may be placed.",
    ),
];
const VANQUISHED: &[Key] = &[
    (
        "no-reserve",
        Shape::Bool,
        false,
        "Part of the test: the side has no piece left in its reserve.",
    ),
    (
        "none-of",
        Shape::Strs,
        false,
        "Part of the test: the side has no piece of any of these kinds on the board.",
    ),
    (
        "points-below",
        Shape::Int,
        false,
        "Part of the test: the values of the side's pieces on the board add up to less than this.",
    ),
    (
        "no-neutrals",
        Shape::Bool,
        false,
        "Part of the test: no neutral piece is on the board.",
    ),
    (
        "both",
        Shape::Word(<BothVanquished as Word>::NAMES),
        false,
        "When one turn leaves both sides vanquished: \"mover-wins\" (the default), \"mover-loses\" or \"draw\".",
    ),
];
const END: &[Key] = &[
    (
        "vanquished",
        Shape::Table(VANQUISHED),
        false,
        "`[end.vanquished]`: conditions that together lose the game.",
    ),
    (
        "occupy",
        Shape::Str,
        false,
        "A side wins when, after its turn, one of its pieces stands in this region (`enemy NAME`).",
    ),
    (
        "occupy-by",
        Shape::Strs,
        false,
        "The piece kinds whose arrival in the `occupy` region wins (default: any).",
    ),
    (
        "no-pieces",
        Shape::Word(<NoPieces as Word>::NAMES),
        false,
        "`loses` (default) or `ignored`: a side left without pieces.",
    ),
    (
        "immobilized",
        Shape::Word(<Immobilized as Word>::NAMES),
        false,
        "`loses` (default) or `ignored`: a side that starts its turn without a piece move.",
    ),
    (
        "checkmate",
        Shape::Word(<Checkmate as Word>::NAMES),
        false,
        "With royal pieces: the verdict for the side checkmated (default `loses`).",
    ),
    (
        "stalemate",
        Shape::Word(<Stalemate as Word>::NAMES),
        false,
        "With royal pieces: the verdict for the side stalemated (default `draw`).",
    ),
    (
        "checks",
        Shape::Int,
        false,
        "A side that has given check this many times wins (three-check: 3). Position text must carry the count: add `checks` to `[notation] fields`.",
    ),
    (
        "extinction",
        Shape::Strs,
        false,
        "Piece kinds: a side left without any piece of one of them (on the board or in its reserve) loses (extinction chess: all six).",
    ),
    (
        "goal-answer",
        Shape::Word(<GoalAnswer as Word>::NAMES),
        false,
        "`none` (default) or `draw`: with `draw`, when the side that moves first reaches a goal the other side plays one more turn, and reaching a goal with it draws (racing kings). The goals must all be wins.",
    ),
    (
        "bare",
        Shape::Word(<Bare as Word>::NAMES),
        false,
        "`ignored` (default) or `loses`: a side left with nothing but its royal pieces, on the board and in its reserve, loses; both bare draw (shatranj).",
    ),
    (
        "bare-answer",
        Shape::Word(<BareAnswer as Word>::NAMES),
        false,
        "`none` (default) or `draw`: with `draw`, a side bared while the opponent has a single other piece plays one more turn first, and baring the opponent with it draws (shatranj, courier).",
    ),
    (
        "two-passes",
        Shape::Word(<TwoPasses as Word>::NAMES),
        false,
        "`none` (default) or `draw`: with `draw`, a pass answered by a pass ends the game in a draw (needs `[turn] pass`).",
    ),
    (
        "royals-facing",
        Shape::Word(<RoyalsFacing as Word>::NAMES),
        false,
        "`none` (default) or `draw`: with `draw`, a side whose royal piece faces an enemy royal piece (on one line of `facing-lines`, only empty cells between) must end the facing with its turn or pass, and that pass, allowed even in check, ends the game in a draw (janggi's bikjang; needs `[turn] pass`).",
    ),
    (
        "facing-lines",
        Shape::Str,
        false,
        "The direction set along which royal pieces face, for `royals-facing` (default `orthogonal`).",
    ),
];
const TURN: &[Key] = &[
    (
        "explosions",
        Shape::Int,
        false,
        "Most stones one turn may blow up (default 1).",
    ),
    (
        "taboo-after-explosion",
        Shape::Bool,
        false,
        "Whether a cell emptied by an explosion may not take a stone in the opponent's next turn (default true).",
    ),
    (
        "shapes",
        Shape::Words(<TurnShape as Word>::NAMES),
        false,
        "The kinds of turn (default: all three).",
    ),
    (
        "stone-after-move",
        Shape::Word(<StoneAfterMove as Word>::NAMES),
        false,
        "`optional` (default) or `compulsory`: whether a piece that moves must then place a stone when it can.",
    ),
    (
        "compulsory",
        Shape::Words(<Compulsory as Word>::NAMES),
        false,
        "Kinds of turn that exclude the others when there is one.",
    ),
    (
        "most-captures",
        Shape::Bool,
        false,
        "Whether only the turns capturing the most pieces count.",
    ),
    (
        "captured-leave",
        Shape::Word(<CapturedLeave as Word>::NAMES),
        false,
        "`at-once` (default) or `end-of-turn`: when pieces taken in a chain leave the board.",
    ),
    (
        "chain-revisits",
        Shape::Word(<ChainRevisits as Word>::NAMES),
        false,
        "`never` (default) or `after-capture`: whether a chain may come back to a cell (never to its start cell, which only `chain-ends-home` opens).",
    ),
    (
        "chain-ends-home",
        Shape::Word(<ChainEndsHome as Word>::NAMES),
        false,
        "`never` (default) or `after-capture`: whether a chain that has taken a piece may come back to its start cell and end there (a draughts king's ring capture).",
    ),
    (
        "giving-check",
        Shape::Word(<GivingCheck as Word>::NAMES),
        false,
        "`allowed` (default) or `forbidden`: `forbidden` makes every turn that leaves an enemy royal piece attacked illegal (racing kings).",
    ),
    (
        "pass",
        Shape::Word(<Pass as Word>::NAMES),
        false,
        "`never` (default) or `allowed`: whether a side may pass, a turn that changes nothing on the board; it is not a turn when it leaves a royal piece attacked (janggi). Written `pass` in move text.",
    ),
];
const NOTATION: &[Key] = &[(
    "fields",
    Shape::Words(<Field as Word>::NAMES),
    false,
    "Field names in order (`checks`: the checks each side may still give before it wins, `3+3`, with `[end] checks`).",
)];
const CASTLING: &[Key] = &[
    (
        "side",
        Shape::Word(<CastlingSide as Word>::NAMES),
        true,
        "Whose castling it is.",
    ),
    (
        "letter",
        Shape::Str,
        false,
        "Its letter in the castling field of position text (upper case for White).",
    ),
    ("king", Shape::Str, false, "The royal piece's cell."),
    (
        "king-to",
        Shape::Str,
        false,
        "Destination of the royal piece.",
    ),
    ("rook", Shape::Str, false, "The partner's cell."),
    ("rook-to", Shape::Str, false, "Destination of the partner."),
    (
        "partners",
        Shape::Strs,
        false,
        "Further partners (or all of them), each \"FROM-TO\" (W-12 moves two).",
    ),
    ("empty", Shape::Str, false, "Cells that must be empty."),
    (
        "safe",
        Shape::Str,
        false,
        "Cells that must not be attacked.",
    ),
    (
        "rights",
        Shape::Word(<Rights as Word>::NAMES),
        false,
        "`files`: a free castling (Chess960) whose rights name the partner's file.",
    ),
    (
        "partner-kind",
        Shape::Str,
        false,
        "The kind a free castling's partner must be.",
    ),
    (
        "king-kind",
        Shape::Str,
        false,
        "The kind that castles as the king, when it is not royal (extinction chess: `king`); by default the side's royal piece.",
    ),
    (
        "partners-on",
        Shape::Str,
        false,
        "The cells a free castling's partner may start from.",
    ),
    (
        "high-side-to",
        Shape::Str,
        false,
        "A free castling with the partner on the king's higher files: \"KING-TO PARTNER-TO\".",
    ),
    (
        "low-side-to",
        Shape::Str,
        false,
        "… with the partner on the king's lower files.",
    ),
];
const REGION_SHAPE: Shape = Shape::Table(REGION);
const STONE_SHAPE: Shape = Shape::Table(STONE);
const PIECE_SHAPE: Shape = Shape::Table(PIECE);
const DIRECTION_SHAPE: Shape = Shape::Pairs;
const FRAGMENT_SHAPE: Shape = Shape::Str;
const CLASSED_SHAPE: Shape = Shape::Named(&DIRECTION_SHAPE);
const TOP: &[Key] = &[
    (
        "game",
        Shape::Table(GAME),
        true,
        "The game's name, description and the names of its sides.",
    ),
    (
        "extends",
        Shape::Str,
        false,
        "The variant this file changes: a bundled name, `builtin:NAME`, or a path relative to this file; the file then states only what differs.",
    ),
    (
        "board",
        Shape::Table(BOARD),
        true,
        "The board: its files, ranks and mask, how its cells are coloured and how pictures draw it.",
    ),
    (
        "regions",
        Shape::Named(&REGION_SHAPE),
        false,
        "Named regions, each with White's cells and Black's (names and rectangles such as `B2-D4`); definitions and rules name them as `own NAME` or `enemy NAME`.",
    ),
    (
        "directions",
        Shape::Named(&DIRECTION_SHAPE),
        false,
        "Extra named direction sets: each name holds an array of [file step, rank step] pairs.",
    ),
    (
        "classes",
        Shape::Named(&FRAGMENT_SHAPE),
        false,
        "Classes of cells (name = cells), for direction sets that depend on the cell.",
    ),
    (
        "directions-by-class",
        Shape::Named(&CLASSED_SHAPE),
        false,
        "Direction sets by class of cell: set name, then class name = [file step, rank step] pairs.",
    ),
    (
        "fragments",
        Shape::Named(&FRAGMENT_SHAPE),
        false,
        "Named parts of definitions (name = definition), usable by name in later fragments and in every piece's `moves` and `range`.",
    ),
    (
        "stones",
        Shape::Named(&STONE_SHAPE),
        false,
        "Stone kinds (arrows, blocks, bombs, …): their symbol, supply, class and effects.",
    ),
    (
        "pieces",
        Shape::Named(&PIECE_SHAPE),
        true,
        "Piece kinds: letter, movement (`moves`, in the piece DSL), placement range, royalty, changes of kind, value and picture.",
    ),
    (
        "setup",
        Shape::Table(SETUP),
        true,
        "The start position, in position text.",
    ),
    (
        "placement",
        Shape::Table(PLACEMENT),
        false,
        "Where stones may be placed (ruling B-44 in Bollwerk 178).",
    ),
    (
        "end",
        Shape::Table(END),
        false,
        "How the game ends: checkmate, stalemate, no pieces, royal capture, vanquishing (rulings B-60 to B-62 in Bollwerk 178).",
    ),
    (
        "turn",
        Shape::Table(TURN),
        false,
        "Judgement calls about the whole turn: how many stones, what a turn may not do.",
    ),
    (
        "notation",
        Shape::Table(NOTATION),
        false,
        "The fields of position text after BOARD SIDE (castling, en passant, counters).",
    ),
    (
        "castling",
        Shape::Tables(CASTLING),
        false,
        "One castling move each, declared cell by cell.",
    ),
    (
        "reserve",
        Shape::Table(RESERVE),
        false,
        "What happens to pieces that leave the board (a reserve to draw from).",
    ),
    (
        "clock",
        Shape::Table(CLOCK),
        false,
        "The turn counter: what resets it, its limit and what reaching it means.",
    ),
    (
        "repetition",
        Shape::Table(REPETITION),
        false,
        "A position occurring for the n-th time: how many times and what it means.",
    ),
    (
        "goal",
        Shape::Tables(GOAL),
        false,
        "A region that ends the game when some kinds reach it (each goal an entry).",
    ),
    (
        "drops",
        Shape::Table(DROPS),
        false,
        "Placing a piece from the hand as a turn: where, and which kinds.",
    ),
    (
        "neutral",
        Shape::Table(NEUTRAL),
        false,
        "Neutral pieces: their kind, symbol and the directions that make a side's influence over one.",
    ),
    (
        "blast",
        Shape::Table(BLAST),
        false,
        "Captures that explode (atomic chess): which cells around the capture, and which kinds survive.",
    ),
];

/// A schema problem: span, message, label, help.
pub struct Mismatch {
    /// Bytes of the file.
    pub span: (usize, usize),
    /// What is wrong.
    pub message: String,
    /// Text at the span.
    pub label: String,
    /// How to fix it.
    pub help: String,
}

fn range<T>(s: &Spanned<T>) -> (usize, usize) {
    let r = s.span();
    (r.start, r.end)
}

fn kind(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

fn expected(shape: Shape) -> &'static str {
    match shape {
        Shape::Str | Shape::Word(_) => "a string",
        Shape::Int => "an integer",
        Shape::Bool => "true or false",
        Shape::Strs | Shape::Words(_) => "an array of strings",
        Shape::Pairs => "an array of [file step, rank step] pairs",
        Shape::Table(_) | Shape::Named(_) => "a table",
        Shape::Tables(_) => "an array of tables",
    }
}

/// Checks the parsed file against the schema; returns every mismatch.
pub fn check(doc: &Spanned<DeTable<'_>>) -> Vec<Mismatch> {
    let mut out = Vec::new();
    table(doc.get_ref(), TOP, "the file", (0, 0), &mut out);
    out
}

fn table(
    t: &DeTable<'_>,
    keys: &'static [Key],
    what: &str,
    at: (usize, usize),
    out: &mut Vec<Mismatch>,
) {
    for (k, v) in t {
        let name: &str = k.get_ref();
        match keys.iter().find(|(n, _, _, _)| *n == name) {
            // A table inside a table is named by its path (`[end.vanquished]`).
            Some((_, shape @ Shape::Table(_), _, _)) if what.starts_with('[') => value(
                v,
                *shape,
                &format!("`{}.{name}`", what.trim_matches(|c| c == '[' || c == ']')),
                out,
            ),
            Some((_, shape, _, _)) => value(v, *shape, &format!("`{name}`"), out),
            None => {
                let known: Vec<&str> = keys.iter().map(|(n, _, _, _)| *n).collect();
                let close = known.iter().find(|n| close_to(n, name));
                let help = match close {
                    Some(c) => format!("did you mean `{c}`? {what} may have: {}", known.join(", ")),
                    None => format!("{what} may have: {}", known.join(", ")),
                };
                out.push(Mismatch {
                    span: range(k),
                    message: format!("unknown key `{name}` in {what}"),
                    label: "unknown key".into(),
                    help,
                });
            }
        }
    }
    for (name, _, required, _) in keys {
        if *required
            && !t
                .iter()
                .any(|(k, _)| AsRef::<str>::as_ref(k.get_ref()) == *name)
        {
            out.push(Mismatch {
                span: at,
                message: format!("{what} has no `{name}`"),
                label: format!("`{name}` missing"),
                help: format!("add `{name}`; see variants/bollwerk178.toml for an example"),
            });
        }
    }
}

fn value(v: &Spanned<DeValue<'_>>, shape: Shape, what: &str, out: &mut Vec<Mismatch>) {
    let wrong = |out: &mut Vec<Mismatch>| {
        out.push(Mismatch {
            span: range(v),
            message: format!(
                "{what} should be {}, not {}",
                expected(shape),
                kind(v.get_ref())
            ),
            label: format!("{} here", kind(v.get_ref())),
            help: format!("write {} here", expected(shape)),
        });
    };
    match (shape, v.get_ref()) {
        (Shape::Str | Shape::Word(_), DeValue::String(_))
        | (Shape::Int, DeValue::Integer(_))
        | (Shape::Bool, DeValue::Boolean(_)) => {}
        (Shape::Strs | Shape::Words(_), DeValue::Array(a)) => {
            for e in a {
                if !matches!(e.get_ref(), DeValue::String(_)) {
                    value(e, Shape::Str, &format!("an item of {what}"), out);
                }
            }
        }
        (Shape::Pairs, DeValue::Array(a)) => {
            for e in a {
                let ok = matches!(e.get_ref(), DeValue::Array(p) if p.len() == 2 && p.iter().all(|x| matches!(x.get_ref(), DeValue::Integer(_))));
                if !ok {
                    out.push(Mismatch {
                        span: range(e),
                        message: format!(
                            "an item of {what} should be a [file step, rank step] pair of integers"
                        ),
                        label: "not a pair".into(),
                        help: "write e.g. [1, 1]".into(),
                    });
                }
            }
        }
        (Shape::Table(keys), DeValue::Table(t)) => table(
            &t.clone(),
            keys,
            &format!("[{}]", what.trim_matches('`')),
            range(v),
            out,
        ),
        (Shape::Named(inner), DeValue::Table(t)) => {
            for (k, e) in t {
                let name: &str = k.get_ref();
                let section = format!("`{}.{name}`", what.trim_matches('`'));
                match inner {
                    Shape::Table(keys) => match e.get_ref() {
                        DeValue::Table(tt) => table(
                            tt,
                            keys,
                            &format!("[{}]", section.trim_matches('`')),
                            range(k),
                            out,
                        ),
                        _ => value(e, *inner, &section, out),
                    },
                    _ => value(e, *inner, &section, out),
                }
            }
        }
        (Shape::Tables(keys), DeValue::Array(a)) => {
            for e in a {
                match e.get_ref() {
                    DeValue::Table(t) => {
                        table(t, keys, &format!("an entry of {what}"), range(e), out);
                    }
                    _ => value(e, Shape::Table(keys), &format!("an entry of {what}"), out),
                }
            }
        }
        _ => wrong(out),
    }
}

fn close_to(a: &str, b: &str) -> bool {
    crate::core::names::edit_distance(a, b) <= 2
}

/// The format reference in Markdown, generated from the key tables above: every section and
/// key of a variant file with its type, whether it is required and what it means. The
/// committed `docs/format-reference.md` is this text (a test holds the two equal).
pub fn reference() -> String {
    let mut out = String::from(
        "# Variant file reference\n\n\
         Generated from the loader's key tables (`src/load/schema.rs`); a test fails when this \
         page is out of date (`BULWARK_UPDATE_REFERENCE=1 cargo test --test format_reference` \
         rewrites it). How to write a piece's `moves` is in `01-writing-a-piece.md`; the bundled \
         variants in `variants/` use most keys.\n\n\
         ## The top level\n\n",
    );
    key_table(&mut out, TOP);
    for (name, shape, _, what) in TOP {
        match shape {
            Shape::Table(keys) => section(&mut out, &format!("[{name}]"), what, keys, 2),
            Shape::Tables(keys) => section(&mut out, &format!("[[{name}]]"), what, keys, 2),
            Shape::Named(inner) => match inner {
                Shape::Table(keys) => section(&mut out, &format!("[{name}.NAME]"), what, keys, 2),
                other => {
                    out.push_str(&format!(
                        "\n## `[{name}]`\n\n{what} Each key is a name; its value is {}.\n",
                        type_name(**other)
                    ));
                }
            },
            _ => {}
        }
    }
    out
}

/// Every word-valued key of the tables, with its words (for the test that holds them to
/// `words.rs`).
#[cfg(test)]
pub(super) fn word_keys() -> Vec<(&'static str, &'static [&'static str])> {
    fn walk(keys: &[Key], out: &mut Vec<(&'static str, &'static [&'static str])>) {
        for (name, shape, _, _) in keys {
            match shape {
                Shape::Word(words) | Shape::Words(words) => out.push((name, words)),
                Shape::Table(inner) | Shape::Tables(inner) | Shape::Named(Shape::Table(inner)) => {
                    walk(inner, out);
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(TOP, &mut out);
    out
}

fn section(out: &mut String, title: &str, what: &str, keys: &[Key], level: usize) {
    out.push_str(&format!("\n{} `{title}`\n\n{what}\n\n", "#".repeat(level)));
    key_table(out, keys);
    let path = title.trim_matches(|c| c == '[' || c == ']');
    for (name, shape, _, what) in keys {
        match shape {
            Shape::Table(inner) => {
                section(out, &format!("[{path}.{name}]"), what, inner, level + 1);
            }
            Shape::Tables(inner) => {
                section(out, &format!("[[{path}.{name}]]"), what, inner, level + 1);
            }
            _ => {}
        }
    }
}

fn key_table(out: &mut String, keys: &[Key]) {
    out.push_str("| key | value | required | meaning |\n|---|---|---|---|\n");
    for (name, shape, required, what) in keys {
        out.push_str(&format!(
            "| `{name}` | {} | {} | {} |\n",
            type_name(*shape),
            if *required { "yes" } else { "" },
            what.replace('|', "\\|")
        ));
    }
}

fn type_name(shape: Shape) -> String {
    match shape {
        Shape::Str => "string".into(),
        Shape::Word(words) => {
            let w: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
            format!("one of {}", w.join(", "))
        }
        Shape::Int => "integer".into(),
        Shape::Bool => "true or false".into(),
        Shape::Strs => "array of strings".into(),
        Shape::Words(words) => {
            let w: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
            format!("array, each one of {}", w.join(", "))
        }
        Shape::Pairs => "array of [file step, rank step] pairs".into(),
        Shape::Table(_) => "table".into(),
        Shape::Named(inner) => format!("table of names, each {}", type_name(*inner)),
        Shape::Tables(_) => "array of tables".into(),
    }
}
