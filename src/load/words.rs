//! Keys whose value is one of a few words (or a list of them): each is a typed enum declared
//! once here with its key, its words (the default first), its error code and what to write
//! instead. The loader reads every such key through [`Loader::word`](super::Loader) (a list:
//! `Loader::words`), which reports a word that is none of them in one way, with the closest
//! word when there is one; the engine sees the enum, never the string.

use crate::core::Code;
use crate::core::Side;
use crate::rules::{
    BothVanquished, Colouring, Drawing, EndVerdict, PositionField, Replaced, Verdict,
};

/// A key whose value is one of a few words.
pub(super) trait Word: Copy + Sized + 'static {
    /// The key, as written in the file.
    const KEY: &'static str;
    /// The error code of a word that is none of them.
    const CODE: Code;
    /// Each word with its value, the default first.
    const WORDS: &'static [(&'static str, Self)];
    /// The words alone, in the same order (the key table's shape, see `schema`).
    const NAMES: &'static [&'static str];
    /// The label under a word that is none of them.
    const LABEL: &'static str;
    /// What to write instead.
    const HELP: &'static str;
    /// The message's words before the misread word, when they are not "is not a setting of"
    /// the key (`unknown colouring`).
    const UNKNOWN: Option<&'static str> = None;
    /// What the misread word is not, when that is not "a setting of" the key (`a verdict`).
    const NOT: Option<&'static str> = None;

    /// The message for `word`, which is none of the words.
    fn misread(word: &str) -> String {
        match (Self::UNKNOWN, Self::NOT) {
            (Some(unknown), _) => format!("{unknown} `{word}`"),
            (None, Some(not)) => format!("`{word}` is not {not}"),
            (None, None) => format!("`{word}` is not a setting of `{}`", Self::KEY),
        }
    }

    /// The value of `word`, if it is one of the words.
    fn read(word: &str) -> Option<Self> {
        Self::WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|&(_, v)| v)
    }

    /// The default (the first word).
    fn default_word() -> Self {
        Self::WORDS[0].1
    }
}

/// Declares word-valued keys: a new enum (`enum Name`) or an existing one (`impl Path`), each
/// with its key, code, words, label and help; optionally `as Target` (a `From` into an
/// engine enum with the same variant names), and `unknown` or `not` for the message's wording.
macro_rules! words {
    () => {};
    (
        $(#[$doc:meta])*
        enum $name:ident = $key:literal, $code:ident
            $(as $target:ident)? {
            $($(#[$vdoc:meta])* $variant:ident = $word:literal,)+
        } $(unknown $unknown:literal)? $(not $not:literal)? label $label:literal help $help:literal;
        $($rest:tt)*
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(super) enum $name {
            $($(#[$vdoc])* $variant,)+
        }
        words!(@from $name [$($target)?] { $($variant)+ });
        words!(@impl $name = $key, $code { $($variant = $word,)+ }
            [$($unknown)?] [$($not)?] label $label help $help);
        words!($($rest)*);
    };
    (
        impl $name:ident = $key:literal, $code:ident {
            $($variant:ident = $word:literal,)+
        } $(unknown $unknown:literal)? label $label:literal help $help:literal;
        $($rest:tt)*
    ) => {
        words!(@impl $name = $key, $code { $($variant = $word,)+ } [$($unknown)?] []
            label $label help $help);
        words!($($rest)*);
    };
    (@from $name:ident [] { $($variant:ident)+ }) => {};
    (@from $name:ident [$target:ident] { $($variant:ident)+ }) => {
        impl From<$name> for $target {
            fn from(w: $name) -> $target {
                match w {
                    $($name::$variant => $target::$variant,)+
                }
            }
        }
    };
    (@impl $name:ident = $key:literal, $code:ident {
        $($variant:ident = $word:literal,)+
    } [$($unknown:literal)?] [$($not:literal)?] label $label:literal help $help:literal) => {
        impl Word for $name {
            const KEY: &'static str = $key;
            const CODE: Code = Code::$code;
            const WORDS: &'static [(&'static str, Self)] = &[$(($word, $name::$variant),)+];
            const NAMES: &'static [&'static str] = &[$($word,)+];
            const LABEL: &'static str = $label;
            const HELP: &'static str = $help;
            $(const UNKNOWN: Option<&'static str> = Some($unknown);)?
            $(const NOT: Option<&'static str> = Some($not);)?
        }
    };
}

words! {
    /// `[turn] chain-revisits` (B-16).
    enum ChainRevisits = "chain-revisits", Turn {
        /// A chain never enters a cell it has been on.
        Never = "never",
        /// After it has taken a piece, it may.
        AfterCapture = "after-capture",
    } label "not never or after-capture"
      help "write \"never\" (the default, B-16) or \"after-capture\"";

    /// `[turn] chain-ends-home`.
    enum ChainEndsHome = "chain-ends-home", Turn {
        /// A chain never ends where it started.
        Never = "never",
        /// A chain that has taken a piece may.
        AfterCapture = "after-capture",
    } label "not never or after-capture"
      help "write \"never\" (the default, B-16) or \"after-capture\" (a chain that has taken a piece may end where it started)";

    /// `[turn] stone-after-move`.
    enum StoneAfterMove = "stone-after-move", Turn {
        /// A move may be followed by a stone.
        Optional = "optional",
        /// A move must be followed by a stone when one can be placed.
        Compulsory = "compulsory",
    } label "not optional or compulsory"
      help "write \"optional\" (the default) or \"compulsory\"";

    /// `[turn] captured-leave` (B-16).
    enum CapturedLeave = "captured-leave", Turn {
        /// A piece taken in a chain leaves the board at once.
        AtOnce = "at-once",
        /// It stays until the turn ends.
        EndOfTurn = "end-of-turn",
    } label "not at-once or end-of-turn"
      help "write \"at-once\" (the default, B-16) or \"end-of-turn\"";

    /// `[turn] giving-check`.
    enum GivingCheck = "giving-check", Turn {
        /// A turn may attack an enemy royal piece.
        Allowed = "allowed",
        /// It may not.
        Forbidden = "forbidden",
    } label "not allowed or forbidden"
      help "write \"allowed\" (the default) or \"forbidden\" (a turn may not leave an enemy royal piece attacked)";

    /// `[turn] pass`.
    enum Pass = "pass", Turn {
        /// A side always moves.
        Never = "never",
        /// A side may pass.
        Allowed = "allowed",
    } label "not never or allowed"
      help "write \"never\" (the default) or \"allowed\" (a side may pass instead of moving)";

    /// A piece's `en-passant-lines`.
    enum EnPassantLines = "en-passant-lines", EnPassant {
        /// Two-cell moves along the file.
        File = "file",
        /// Any straight line.
        Any = "any",
    } label "not file or any"
      help "write \"file\" (the default: two-cell moves along the file) or \"any\" (any straight line, diagonals included)";

    /// A change of kind's `unavailable`.
    enum Unavailable = "unavailable", Change {
        /// The piece stays as it is.
        Stays = "stays",
        /// The move is not allowed.
        NoMove = "no-move",
    } label "not stays or no-move"
      help "write \"stays\" (the default: the piece stays as it is) or \"no-move\" (the move is not allowed)";

    /// A piece's `drop-mate`.
    enum DropMate = "drop-mate", Reserve {
        /// A drop of this kind may checkmate.
        Allowed = "allowed",
        /// It may not.
        Forbidden = "forbidden",
    } label "not allowed or forbidden"
      help "write \"forbidden\" (a drop of this kind may not checkmate) or \"allowed\"";

    /// `[end] bare`.
    enum Bare = "bare", End {
        /// Being left with only royal pieces loses nothing.
        Ignored = "ignored",
        /// It loses.
        Loses = "loses",
    } label "not ignored or loses"
      help "write \"ignored\" (the default) or \"loses\" (a side left with only its royal pieces loses)";

    /// `[end] bare-answer`.
    enum BareAnswer = "bare-answer", End {
        /// No answer.
        None = "none",
        /// The bared side answers; baring the opponent with it draws.
        Draw = "draw",
    } label "not none or draw"
      help "write \"none\" (the default) or \"draw\" (the bared side answers, and baring the opponent with it draws)";

    /// `[end] goal-answer`.
    enum GoalAnswer = "goal-answer", End {
        /// No answer.
        None = "none",
        /// The other side answers; reaching a goal with its answer draws.
        Draw = "draw",
    } label "not none or draw"
      help "write \"none\" (the default) or \"draw\" (the other side answers, and reaching a goal with its answer draws)";

    /// `[end] no-pieces`.
    enum NoPieces = "no-pieces", End {
        /// A side left without pieces loses.
        Loses = "loses",
        /// It plays on.
        Ignored = "ignored",
    } label "not loses or ignored"
      help "write \"loses\" or \"ignored\"";

    /// `[end] immobilized`.
    enum Immobilized = "immobilized", End {
        /// A side without a piece move at the start of its turn loses.
        Loses = "loses",
        /// It plays on.
        Ignored = "ignored",
    } label "not loses or ignored"
      help "write \"loses\" or \"ignored\"";

    /// `[end] two-passes`.
    enum TwoPasses = "two-passes", End {
        /// Two passes end nothing.
        None = "none",
        /// A pass answered by a pass draws.
        Draw = "draw",
    } label "not none or draw"
      help "write \"none\" (the default) or \"draw\"";

    /// `[end] royals-facing`.
    enum RoyalsFacing = "royals-facing", End {
        /// Facing royal pieces end nothing.
        None = "none",
        /// A facing ended by a pass draws.
        Draw = "draw",
    } label "not none or draw"
      help "write \"none\" (the default) or \"draw\"";

    /// `[end] checkmate`, for the side checkmated.
    enum Checkmate = "checkmate", End as Verdict {
        Loses = "loses",
        Wins = "wins",
        Draw = "draw",
    } not "a verdict" label "not loses, wins or draw"
      help "write \"loses\" (the default), \"wins\" or \"draw\" for the side checkmated";

    /// `[end] stalemate`, for the side stalemated.
    enum Stalemate = "stalemate", End as Verdict {
        Draw = "draw",
        Loses = "loses",
        Wins = "wins",
    } not "a verdict" label "not draw, loses or wins"
      help "write \"draw\" (the default), \"loses\" or \"wins\" for the side stalemated";

    /// A `[[goal]]`'s `verdict`, for the side that reaches it.
    enum GoalVerdict = "verdict", End as Verdict {
        Wins = "wins",
        Draw = "draw",
        Loses = "loses",
    } not "a verdict" label "not wins, draw or loses"
      help "write \"wins\" (the default), \"draw\" or \"loses\" for the side that reaches the goal";

    /// `[clock] at-limit`: what reaching the limit means.
    enum AtLimit = "at-limit", Clock as EndVerdict {
        Draw = "draw",
        MoverLoses = "mover-loses",
    } not "a verdict here" label "unknown verdict"
      help "write \"draw\" (the default) or \"mover-loses\"; the clock cannot make a turn illegal";

    /// `[repetition] verdict`: what the repeating turn means.
    enum RepetitionVerdict = "verdict", Repetition as EndVerdict {
        Illegal = "illegal",
        Draw = "draw",
        MoverLoses = "mover-loses",
    } not "a verdict here" label "unknown verdict"
      help "write \"illegal\", \"draw\" or \"mover-loses\"";

    /// `[turn] shapes` and a piece's `turns`: a kind of turn.
    enum TurnShape = "shapes", Turn {
        Move = "move",
        MoveThenStone = "move-then-stone",
        Stone = "stone",
    } not "a kind of turn" label "not a turn shape"
      help "the kinds of turn are \"move\", \"move-then-stone\" and \"stone\"";

    /// `[turn] compulsory`: a kind of turn that excludes the others when there is one.
    enum Compulsory = "compulsory", Turn {
        Capture = "capture",
    } not "a kind of turn that can be compulsory" label "not a kind of turn"
      help "write \"capture\": when a turn can capture, a turn must";

    /// `[clock] reset-on`: an event that resets the clock.
    enum ResetOn = "reset-on", Clock {
        Capture = "capture",
        Change = "change",
    } not "an event that resets the clock" label "unknown event"
      help "write \"capture\" or \"change\"; list piece kinds whose moves reset it in `reset-by`";

    /// `[notation] fields`: a position-text field after BOARD SIDE.
    enum Field = "fields", Notation as PositionField {
        Supplies = "supplies",
        Taboo = "taboo",
        Castling = "castling",
        EnPassant = "en-passant",
        Checks = "checks",
        Halfmove = "halfmove",
        Fullmove = "fullmove",
    } not "a position field" label "unknown field"
      help "fields: \"supplies\", \"taboo\", \"castling\", \"en-passant\", \"checks\", \"halfmove\", \"fullmove\"";

    /// `[game] without-royal`: a side that plays without a royal piece.
    enum WithoutRoyal = "without-royal", Board as Side {
        White = "white",
        Black = "black",
    } not "a side" label "not white or black"
      help "write \"white\" (the first player) or \"black\"";

    /// A `[[castling]]`'s `side`.
    enum CastlingSide = "side", Castling as Side {
        White = "white",
        Black = "black",
    } not "a side" label "not white or black"
      help "write \"white\" or \"black\"";

    /// A `[[castling]]`'s `rights`: a free castling.
    enum Rights = "rights", Castling {
        Files = "files",
    } not "a kind of castling rights" label "not files"
      help "write \"files\": the castling field names each partner by its file (Shredder-FEN)";

    /// A change of kind's `on`: the event that brings it about.
    enum ChangeOn = "on", Change {
        /// The move ends in the region.
        Reach = "reach",
        /// The move comes into the region from outside.
        Enter = "enter",
        /// The move starts or ends in the region.
        Zone = "zone",
        /// The piece captures one of some kinds.
        Capture = "capture",
        /// The move gives check.
        Check = "check",
    } not "an event of a change of kind" label "unknown event"
      help "write \"reach\", \"enter\" or \"zone\" (with a region), \"capture\" (with kinds) or \"check\"";

    impl BothVanquished = "both", End {
        MoverWins = "mover-wins",
        MoverLoses = "mover-loses",
        Draw = "draw",
    } label "not a verdict"
      help "write \"mover-wins\" (the default), \"mover-loses\" or \"draw\"";

    /// A piece's `captures-to`.
    enum CapturesTo = "captures-to", Reserve {
        /// Captured pieces leave the game.
        Out = "out",
        /// They go, turned over, into the capturer's reserve (passive capture).
        Reserve = "reserve",
    } label "not out or reserve"
      help "write \"out\" (captured pieces leave the game) or \"reserve\" (passive capture: they go, turned over, into the capturer's reserve)";

    impl Colouring = "colours", Board {
        Chequered = "chequered",
        Plain = "plain",
    } unknown "unknown colouring" label "not a colouring"
      help "write \"chequered\" (cells coloured by file + rank parity) or \"plain\"";

    impl Drawing = "drawing", Board {
        Squares = "squares",
        Segments = "segments",
        Points = "points",
    } unknown "unknown drawing" label "not a drawing"
      help "write \"squares\" (each cell a square), \"segments\" (each cell a segment between lattice points) or \"points\" (each cell a point where lines cross)";

    impl Replaced = "replaced", Reserve {
        Out = "out",
        Reserve = "reserve",
    } label "not out or reserve"
      help "write \"out\" (the replaced piece leaves the game) or \"reserve\" (it goes back to its side's reserve)";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that read the words of another key: (this key, that key).
    const ALSO: &[(&str, &str)] = &[("turns", "shapes")];

    fn check<W: Word + std::fmt::Debug + PartialEq>(
        checked: &mut Vec<(&'static str, &'static [&'static str])>,
    ) {
        checked.push((W::KEY, W::NAMES));
        checked.extend(
            ALSO.iter()
                .filter(|(_, k)| *k == W::KEY)
                .map(|&(also, _)| (also, W::NAMES)),
        );
        // Every word reads back as its own value, and no two words share one.
        for (i, &(w, v)) in W::WORDS.iter().enumerate() {
            assert_eq!(W::read(w), Some(v), "{}", W::KEY);
            assert!(
                W::WORDS[..i].iter().all(|&(x, u)| x != w && u != v),
                "{}: `{w}` twice",
                W::KEY
            );
            // The help names every word.
            assert!(W::HELP.contains(&format!("\"{w}\"")), "{}: `{w}`", W::KEY);
        }
        assert_eq!(W::read("no-such-word"), None);
        assert_eq!(W::default_word(), W::WORDS[0].1);
        // The key table has the key with these words once (the format reference lists them;
        // keys of the same name in two tables, like `verdict`, have words of their own).
        let also = ALSO.iter().filter(|(_, k)| *k == W::KEY).map(|(a, _)| a);
        for &key in std::iter::once(&W::KEY).chain(also) {
            let in_schema = super::super::schema::word_keys()
                .into_iter()
                .filter(|&entry| entry == (key, W::NAMES))
                .count();
            assert_eq!(in_schema, 1, "{key}");
        }
    }

    #[test]
    fn every_word_key_reads_its_words() {
        let mut checked = Vec::new();
        check::<ChainRevisits>(&mut checked);
        check::<ChainEndsHome>(&mut checked);
        check::<StoneAfterMove>(&mut checked);
        check::<CapturedLeave>(&mut checked);
        check::<GivingCheck>(&mut checked);
        check::<Pass>(&mut checked);
        check::<EnPassantLines>(&mut checked);
        check::<Unavailable>(&mut checked);
        check::<DropMate>(&mut checked);
        check::<Bare>(&mut checked);
        check::<BareAnswer>(&mut checked);
        check::<GoalAnswer>(&mut checked);
        check::<BothVanquished>(&mut checked);
        check::<Replaced>(&mut checked);
        check::<NoPieces>(&mut checked);
        check::<Immobilized>(&mut checked);
        check::<TwoPasses>(&mut checked);
        check::<RoyalsFacing>(&mut checked);
        check::<CapturesTo>(&mut checked);
        check::<Colouring>(&mut checked);
        check::<Drawing>(&mut checked);
        check::<Checkmate>(&mut checked);
        check::<Stalemate>(&mut checked);
        check::<GoalVerdict>(&mut checked);
        check::<AtLimit>(&mut checked);
        check::<RepetitionVerdict>(&mut checked);
        check::<TurnShape>(&mut checked);
        check::<Compulsory>(&mut checked);
        check::<ResetOn>(&mut checked);
        check::<Field>(&mut checked);
        check::<WithoutRoyal>(&mut checked);
        check::<CastlingSide>(&mut checked);
        check::<Rights>(&mut checked);
        check::<ChangeOn>(&mut checked);
        // And every word-valued key of the table is one of them.
        let mut in_schema = super::super::schema::word_keys();
        in_schema.sort_unstable();
        checked.sort_unstable();
        assert_eq!(in_schema, checked);
    }
}
