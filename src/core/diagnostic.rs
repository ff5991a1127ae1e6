//! The one diagnostic type: a stable code, a severity, a message, a span with its label, any
//! secondary labels ("first used here"), and a help text. Loading a variant reports a list of
//! them; they render through miette.

use std::fmt;

use miette::{LabeledSpan, SourceSpan};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The variant cannot be loaded.
    Error,
    /// The variant loads, but something in it is probably not what was meant.
    Warning,
}

macro_rules! codes {
    ($($variant:ident => $name:literal: $what:literal,)*) => {
        /// Every kind of problem a variant file can have. Each is a stable code
        /// (`bulwark::variant::NAME`), and each has a fixture in `tests/broken/`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(#[doc = $what] $variant,)*
        }

        impl Code {
            /// Every code.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The short name (`unknown_direction`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }
        }
    };
}

codes! {
    Toml => "toml": "The file is not valid TOML.",
    Schema => "schema": "An unknown key, a value of the wrong type or a missing key.",
    TooLarge => "too_large": "A file or a definition over its size limit.",
    DslSyntax => "dsl_syntax": "A definition that does not parse, or nests too deep.",
    Board => "board": "A board that cannot be built (files, ranks, cell count, colouring).",
    Mask => "mask": "A board mask of the wrong shape.",
    Region => "region": "A region cell or rectangle that is not on the board.",
    Direction => "direction": "A declared direction set that cannot be used.",
    Stones => "stones": "Too many stone kinds.",
    StoneSymbol => "stone_symbol": "A stone symbol that position or move text cannot use.",
    DuplicateSymbol => "duplicate_symbol": "Two stone kinds with one symbol.",
    StoneClass => "stone_class": "A stone kind without an occupant class.",
    StoneSupply => "stone_supply": "A stone supply out of range.",
    UnknownStone => "unknown_stone": "A stone kind named but not declared.",
    Pieces => "pieces": "Too many piece kinds.",
    PieceLetter => "piece_letter": "A piece letter that is not one letter A-Z.",
    PieceName => "piece_name": "A piece name that cannot be used.",
    Picture => "picture": "A piece picture that is not built in.",
    DuplicateLetter => "duplicate_letter": "Two piece kinds with one letter.",
    StonesPerTurn => "stones_per_turn": "A number of stones per turn out of range.",
    Promotion => "promotion": "A promotion that names no region or no piece.",
    Change => "change": "A change of kind with an unknown event, a missing region or no kinds to become.",
    Value => "value": "A piece value out of range.",
    Reserve => "reserve": "A reserve count out of range, or an unknown `[reserve]` setting.",
    Clock => "clock": "A `[clock]` reset, limit or verdict that is not known or out of range.",
    Repetition => "repetition": "A `[repetition]` occurrence or verdict that is not known or out of range.",
    EnPassant => "en_passant": "An `en-passant-lines` that is not known, or it or `en-passant-in` on a piece without `en-passant`.",
    UnknownPiece => "unknown_piece": "A piece kind named but not declared.",
    UnknownOccupant => "unknown_occupant": "A filter name that is no piece, stone or class.",
    UnknownDirection => "unknown_direction": "A direction that is not built in or declared.",
    UnknownRegion => "unknown_region": "A region named but not declared.",
    UnknownPath => "unknown_path": "A `via` path shape that does not exist.",
    UnknownFragment => "unknown_fragment": "A fragment named but not declared above its use.",
    BadOffset => "bad_offset": "An offset out of range.",
    BadBounds => "bad_bounds": "Repetition bounds that are reversed or too large, or `!` on a fixed count.",
    BadModifier => "bad_modifier": "A modifier the leg kind does not take.",
    DuplicateModifier => "duplicate_modifier": "A modifier given twice.",
    BadCapture => "bad_capture": "A capture filter that names no enemy piece.",
    BadDestroy => "bad_destroy": "A destroy filter that names no stone.",
    BadDistance => "bad_distance": "A distance that is reversed or out of range.",
    BadStep => "bad_step": "A step in a direction that is more than one cell.",
    BadJump => "bad_jump": "A jump in a direction that is more than one cell.",
    NoPath => "no_path": "A `via` path that does not fit the leap.",
    EmptyLoop => "empty_loop": "A repetition that can match without moving.",
    Placement => "placement": "A placement region that does not say whose (`own` or `enemy`).",
    End => "end": "An end-of-game setting that is not known.",
    Turn => "turn": "A `[turn]` setting out of range or at odds with position text.",
    Notation => "notation": "A position-text field that is not known.",
    Castling => "castling": "A castling that cannot be played.",
    Setup => "setup": "A starting position that does not fit the board or cannot be played.",
    UnusedFragment => "unused_fragment": "A fragment that no definition uses (a warning).",
    Extends => "extends": "An `extends` that names no variant, or a chain that loops or runs too long.",
}

impl Code {
    /// The stable code as shown: `bulwark::variant::NAME`.
    pub fn id(self) -> String {
        format!("bulwark::variant::{}", self.name())
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bulwark::variant::{}", self.name())
    }
}

/// The text a diagnostic points into, when it is not the report's own (a problem in the
/// parent of a tweak file).
#[derive(Debug, Clone)]
pub struct SourceRef(pub std::sync::Arc<miette::NamedSource<String>>);

impl PartialEq for SourceRef {
    fn eq(&self, other: &SourceRef) -> bool {
        self.0.name() == other.0.name()
    }
}

impl Eq for SourceRef {}

/// A secondary label: another place the message is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Where, in bytes of the text.
    pub span: (usize, usize),
    /// What it says.
    pub text: String,
}

/// One problem in a text, with everything needed to show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of problem.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// Where, in bytes of the text.
    pub span: (usize, usize),
    /// The label at the span.
    pub label: String,
    /// Other places the problem is about.
    pub related: Vec<Label>,
    /// How to fix it.
    pub help: String,
    /// The text the spans point into, when not the report's own.
    pub source: Option<SourceRef>,
}

impl Diagnostic {
    /// An error.
    pub fn error(
        code: Code,
        span: (usize, usize),
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
            label: label.into(),
            related: Vec::new(),
            help: help.into(),
            source: None,
        }
    }

    /// The same as a warning.
    pub fn warning(mut self) -> Diagnostic {
        self.severity = Severity::Warning;
        self
    }

    /// With a secondary label.
    pub fn with_label(mut self, span: (usize, usize), text: impl Into<String>) -> Diagnostic {
        self.related.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Every span moved by `offset` bytes (from a definition's text into the file's).
    pub fn shifted(mut self, offset: usize) -> Diagnostic {
        self.span = (self.span.0 + offset, self.span.1 + offset);
        for l in &mut self.related {
            l.span = (l.span.0 + offset, l.span.1 + offset);
        }
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

fn labeled(span: (usize, usize), text: &str) -> LabeledSpan {
    LabeledSpan::new_with_span(
        Some(text.to_string()),
        SourceSpan::new(span.0.into(), span.1.saturating_sub(span.0)),
    )
}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.help.is_empty()).then(|| Box::new(&self.help) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source
            .as_ref()
            .map(|s| s.0.as_ref() as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(
            std::iter::once(labeled(self.span, &self.label))
                .chain(self.related.iter().map(|l| labeled(l.span, &l.text))),
        ))
    }
}
