//! The piece DSL: parses definition text into an AST whose every node keeps its span. The
//! grammar is `grammar/piece.pest`. This module knows no game: names are checked later.

use pest::Parser;
use pest::iterators::Pair;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/piece.pest"]
struct PieceParser;

/// A byte range in the definition text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    fn of(pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span {
            start: s.start(),
            end: s.end(),
        }
    }
}

/// A name as written, with its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// The text.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// A node of a definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Any one of the alternatives.
    Alt(Vec<Node>, Span),
    /// The parts one after another.
    Seq(Vec<Node>, Span),
    /// The part repeated between `min` and `max` (unbounded when `None`) times.
    Repeat {
        /// What repeats.
        node: Box<Node>,
        /// Fewest repetitions.
        min: u32,
        /// Most repetitions.
        max: Option<u32>,
        /// Written with `!`: stopping before `max` is allowed only where no further
        /// repetition is possible.
        maximal: bool,
        /// The quantifier's span.
        span: Span,
    },
    /// `at(region)`.
    At(Name),
    /// A movement primitive.
    Leg(Leg),
    /// A named fragment (`[fragments]`), replaced by its definition when the variant loads.
    Fragment(Name),
}

impl Node {
    /// Sets every span in the node to `span`: a fragment spliced into a definition points, in
    /// any message about it, at the name that used it.
    pub fn respan(&mut self, span: Span) {
        match self {
            Node::Alt(v, s) | Node::Seq(v, s) => {
                *s = span;
                for n in v.iter_mut() {
                    n.respan(span);
                }
            }
            Node::Repeat { node, span: s, .. } => {
                *s = span;
                node.respan(span);
            }
            Node::At(n) | Node::Fragment(n) => n.span = span,
            Node::Leg(l) => {
                l.span = span;
                for d in &mut l.dirs {
                    match d {
                        Direction::Named(n) => n.span = span,
                        Direction::Offset(_, _, s) => *s = span,
                    }
                }
                for m in &mut l.mods {
                    match m {
                        Modifier::Capture(f, s) | Modifier::CaptureOnly(f, s) => {
                            *s = span;
                            if let Some(f) = f {
                                f.respan(span);
                            }
                        }
                        Modifier::Take(s) | Modifier::Dist(_, _, s) => *s = span,
                        Modifier::Over(f, s) | Modifier::Screen(f, s) | Modifier::Destroy(f, s) => {
                            *s = span;
                            f.respan(span);
                        }
                        Modifier::Via(n, f, s) => {
                            *s = span;
                            n.span = span;
                            f.respan(span);
                        }
                    }
                }
            }
        }
    }

    /// Replaces every fragment named in `known` by a copy of its definition (spans set to the
    /// name that used it). Names not in `known` stay as they are, for the compiler to report.
    pub fn splice(&mut self, known: &dyn Fn(&str) -> Option<Node>) {
        match self {
            Node::Alt(v, _) | Node::Seq(v, _) => v.iter_mut().for_each(|n| n.splice(known)),
            Node::Repeat { node, .. } => node.splice(known),
            Node::Fragment(name) => {
                if let Some(mut n) = known(&name.text) {
                    n.respan(name.span);
                    *self = n;
                }
            }
            Node::At(_) | Node::Leg(_) => {}
        }
    }

    /// Records in every leg its own source text, read from `src` (the text the spans point
    /// into), so that it keeps it when spliced elsewhere.
    pub fn keep_text(&mut self, src: &str) {
        match self {
            Node::Alt(v, _) | Node::Seq(v, _) => v.iter_mut().for_each(|n| n.keep_text(src)),
            Node::Repeat { node, .. } => node.keep_text(src),
            Node::Leg(l) => {
                if l.text.is_none() {
                    l.text = src.get(l.span.start..l.span.end).map(str::to_string);
                }
            }
            Node::At(_) | Node::Fragment(_) => {}
        }
    }

    /// The fragment names used in the node.
    pub fn fragments(&self) -> Vec<&Name> {
        match self {
            Node::Alt(v, _) | Node::Seq(v, _) => v.iter().flat_map(Node::fragments).collect(),
            Node::Repeat { node, .. } => node.fragments(),
            Node::Fragment(n) => vec![n],
            Node::At(_) | Node::Leg(_) => Vec::new(),
        }
    }

    /// The node's span.
    pub fn span(&self) -> Span {
        match self {
            Node::Alt(_, s) | Node::Seq(_, s) => *s,
            Node::Repeat { node, span, .. } => Span {
                start: node.span().start,
                end: span.end,
            },
            Node::At(n) | Node::Fragment(n) => n.span,
            Node::Leg(l) => l.span,
        }
    }
}

/// The movement primitives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegKind {
    /// One cell in a direction.
    Step,
    /// Straight to an offset, optionally along checked paths.
    Leap,
    /// Along a line.
    Ride,
    /// Along a line over exactly one screen.
    Hop,
    /// Over the adjacent occupant to the cell beyond (halma-style).
    Jump,
}

impl LegKind {
    /// Every kind, in the grammar's order (`leg_kind` in `grammar/piece.pest`).
    pub const ALL: [LegKind; 5] = [
        LegKind::Step,
        LegKind::Leap,
        LegKind::Ride,
        LegKind::Hop,
        LegKind::Jump,
    ];

    /// The kind a keyword names (the grammar's `leg_kind`), if any.
    pub fn from_keyword(word: &str) -> Option<LegKind> {
        LegKind::ALL.into_iter().find(|k| k.keyword() == word)
    }

    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            LegKind::Step => "step",
            LegKind::Leap => "leap",
            LegKind::Ride => "ride",
            LegKind::Hop => "hop",
            LegKind::Jump => "jump",
        }
    }
}

/// One leg.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    /// The primitive.
    pub kind: LegKind,
    /// Its directions or offsets.
    pub dirs: Vec<Direction>,
    /// Its modifiers in written order.
    pub mods: Vec<Modifier>,
    /// The whole leg.
    pub span: Span,
    /// Its source text when it was written elsewhere (in a fragment spliced into this
    /// definition); `None` when `span` points at it.
    pub text: Option<String>,
}

/// A direction as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Direction {
    /// A named set (`forward`, `diagonal`, or one declared in the variant file).
    Named(Name),
    /// `[a,b]` with all its mirror images.
    Offset(i32, i32, Span),
}

/// A modifier of a leg.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Modifier {
    /// `capture`, optionally limited to the enemy pieces a filter names.
    Capture(Option<Filter>, Span),
    /// `capture-only`, optionally limited likewise.
    CaptureOnly(Option<Filter>, Span),
    /// `take`.
    Take(Span),
    /// `over(filter)`.
    Over(Filter, Span),
    /// `screen(filter)`.
    Screen(Filter, Span),
    /// `via(shape, filter)`.
    Via(Name, Filter, Span),
    /// `destroy(filter)`.
    Destroy(Filter, Span),
    /// `dist(…)`: fewest and most cells.
    Dist(Option<u32>, Option<u32>, Span),
}

impl Modifier {
    /// The modifier's word in the DSL.
    pub fn word(&self) -> &'static str {
        match self {
            Modifier::Capture(..) => "capture",
            Modifier::CaptureOnly(..) => "capture-only",
            Modifier::Take(_) => "take",
            Modifier::Over(..) => "over",
            Modifier::Screen(..) => "screen",
            Modifier::Via(..) => "via",
            Modifier::Destroy(..) => "destroy",
            Modifier::Dist(..) => "dist",
        }
    }

    /// Whether the modifier means something on a leg of `kind`. Every kind answers for
    /// itself: a new kind of leg must say which modifiers it takes.
    pub fn applies_to(&self, kind: LegKind) -> bool {
        let any = matches!(
            self,
            Modifier::Capture(..) | Modifier::CaptureOnly(..) | Modifier::Destroy(..)
        );
        match kind {
            LegKind::Step => any,
            LegKind::Leap => any || matches!(self, Modifier::Via(..)),
            LegKind::Ride => any || matches!(self, Modifier::Over(..) | Modifier::Dist(..)),
            LegKind::Hop => !matches!(self, Modifier::Via(..)),
            LegKind::Jump => any || matches!(self, Modifier::Take(_) | Modifier::Over(..)),
        }
    }

    /// The modifier's span.
    pub fn span(&self) -> Span {
        match self {
            Modifier::Capture(_, s)
            | Modifier::CaptureOnly(_, s)
            | Modifier::Take(s)
            | Modifier::Over(_, s)
            | Modifier::Screen(_, s)
            | Modifier::Via(_, _, s)
            | Modifier::Destroy(_, s)
            | Modifier::Dist(_, _, s) => *s,
        }
    }
}

impl Filter {
    fn respan(&mut self, span: Span) {
        self.span = span;
        for t in &mut self.terms {
            t.span = span;
            match &mut t.atom {
                FilterAtom::Group(g) => g.respan(span),
                FilterAtom::Owned { kind, .. } => {
                    if let Some(k) = kind {
                        k.span = span;
                    }
                }
                FilterAtom::Name(n) => n.span = span,
                FilterAtom::All(terms) => {
                    let mut inner = Filter {
                        terms: std::mem::take(terms),
                        span,
                    };
                    inner.respan(span);
                    *terms = inner.terms;
                }
            }
        }
    }
}

/// An occupant filter: the union of its terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// The terms.
    pub terms: Vec<FilterTerm>,
    /// The whole filter.
    pub span: Span,
}

/// One term of a filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterTerm {
    /// Written with `!`.
    pub negated: bool,
    /// What it names.
    pub atom: FilterAtom,
    /// The term.
    pub span: Span,
}

/// What a filter term names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterAtom {
    /// A parenthesised filter.
    Group(Filter),
    /// `own`/`enemy` with an optional piece kind.
    Owned {
        /// `own` (true) or `enemy` (false).
        own: bool,
        /// The piece kind, if any.
        kind: Option<Name>,
    },
    /// A bare name: `empty`, `piece`, `stone`, a stone kind or class, a piece kind.
    Name(Name),
    /// Terms side by side, all of which must hold (`enemy !blockade`).
    All(Vec<FilterTerm>),
}

/// A syntax error in definition text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where it is.
    pub span: Span,
    /// What was expected.
    pub message: String,
    /// A hint fitted to this mistake (a close name), when there is one.
    pub help: Option<String>,
}

/// How deep brackets may nest in one definition (groups, filter groups, `via(...)`): deeper
/// text is refused before parsing, so that neither the parser nor the compiler can exhaust the
/// stack.
pub const MAX_NESTING: usize = 64;

/// The first bracket that opens deeper than [`MAX_NESTING`], outside comments.
fn too_deep(text: &str) -> Option<SyntaxError> {
    let mut depth = 0usize;
    let mut comment = false;
    for (i, ch) in text.char_indices() {
        match ch {
            '\n' => comment = false,
            _ if comment => {}
            '#' => comment = true,
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(SyntaxError {
                        span: Span {
                            start: i,
                            end: i + 1,
                        },
                        message: format!(
                            "brackets nest more than {MAX_NESTING} deep here; write the definition flatter"
                        ),
                        help: None,
                    });
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The words besides the leg kinds ([`LegKind::ALL`]) that a `(` may follow directly: the
/// condition `at` and the modifiers that take arguments.
const CALLABLE_BESIDES_LEGS: [&str; 7] =
    ["at", "over", "screen", "via", "destroy", "dist", "capture"];

/// The error for `word` (at `start`) written directly before `(`, when it is no leg kind,
/// `at` or modifier that takes brackets: one error naming the closest of those.
fn not_callable(start: usize, word: &str) -> Option<SyntaxError> {
    if !word.starts_with(|c: char| c.is_ascii_alphabetic())
        || LegKind::from_keyword(word).is_some()
        || CALLABLE_BESIDES_LEGS.contains(&word)
        || word.eq_ignore_ascii_case("at")
        || word == "capture-only"
    {
        return None;
    }
    let legs: Vec<&str> = LegKind::ALL.iter().map(|k| k.keyword()).collect();
    let known = format!(
        "legs: {}; conditions: at; modifiers with `( )`: {}",
        legs.join(", "),
        CALLABLE_BESIDES_LEGS[1..].join(", ")
    );
    let help = match crate::core::names::closest(
        word,
        legs.iter().copied().chain(CALLABLE_BESIDES_LEGS),
    ) {
        Some(c) => format!("did you mean `{c}`? {known}"),
        None => format!("{known}; a fragment's name stands alone, without `( )`"),
    };
    Some(SyntaxError {
        span: Span {
            start,
            end: start + word.len(),
        },
        message: format!("`{word}` is no leg kind or modifier"),
        help: Some(help),
    })
}

/// For a definition that does not parse, mistakes that pest would report far from where they
/// are: a bracket that is never closed (reported at the bracket, not at the end of the text),
/// a closing bracket of the wrong kind, and a word followed directly by `(` that is no leg
/// kind or modifier.
fn prescan(text: &str) -> Option<SyntaxError> {
    let at = |start: usize, len: usize, message: String| SyntaxError {
        span: Span {
            start,
            end: start + len,
        },
        message,
        help: None,
    };
    let mut open: Vec<(usize, char)> = Vec::new();
    let mut comment = false;
    let mut word_start: Option<usize> = None;
    for (i, ch) in text.char_indices() {
        if comment {
            comment = ch != '\n';
            continue;
        }
        if ch.is_ascii_alphanumeric() || ch == '-' || ch == '_' {
            if word_start.is_none() {
                word_start = Some(i);
            }
            continue;
        }
        let word = word_start.take().map(|s| (s, &text[s..i]));
        match ch {
            '#' => comment = true,
            '(' | '[' | '{' => {
                if ch == '('
                    && let Some((s, w)) = word
                    && let Some(e) = not_callable(s, w)
                {
                    return Some(e);
                }
                open.push((i, ch));
            }
            ')' | ']' | '}' => {
                let want = match ch {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                match open.pop() {
                    Some((_, o)) if o == want => {}
                    Some((j, o)) => {
                        return Some(at(
                            i,
                            1,
                            format!("`{ch}` does not close the `{o}` opened at offset {j}"),
                        ));
                    }
                    None => return Some(at(i, 1, format!("`{ch}` closes nothing"))),
                }
            }
            _ => {}
        }
    }
    open.pop()
        .map(|(j, o)| at(j, 1, format!("this `{o}` is never closed")))
}

/// pest keeps whether its errors track literal tokens as one switch for the whole process
/// (it has no option per parse): it is turned on once, at the first definition parsed, and
/// never off.
static ERROR_DETAIL: std::sync::Once = std::sync::Once::new();

/// Parses definition text.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    if let Some(e) = too_deep(text) {
        return Err(e);
    }
    // Track literal tokens too, so that errors can name the `,` or `)` that was expected.
    ERROR_DETAIL.call_once(|| pest::set_error_detail(true));
    let mut pairs = PieceParser::parse(Rule::definition, text).map_err(|e| {
        let mut span = match e.location {
            pest::error::InputLocation::Pos(p) => Span {
                start: p,
                end: (p + 1).min(text.len()).max(p),
            },
            pest::error::InputLocation::Span((a, b)) => Span { start: a, end: b },
        };
        let attempts = e.parse_attempts();
        let e = e.renamed_rules(rule_name);
        let mut message = match &e.variant {
            pest::error::ErrorVariant::ParsingError {
                positives,
                negatives,
            } => describe_expected(positives, negatives),
            pest::error::ErrorVariant::CustomError { message } => message.clone(),
        };
        if let Some(att) = attempts {
            let tokens: Vec<String> = att
                .expected_tokens()
                .iter()
                .map(std::string::ToString::to_string)
                .filter(|t| !t.trim().is_empty() && t != "#")
                .map(|t| format!("`{t}`"))
                .collect();
            if att.max_position > span.start && !tokens.is_empty() {
                let p = att.max_position;
                span = Span {
                    start: p,
                    end: (p + 1).min(text.len()).max(p),
                };
                message = if tokens.len() == 1 {
                    format!("expected {}", tokens[0])
                } else {
                    let (last, rest) = tokens.split_last().expect("two or more");
                    format!("expected {} or {last}", rest.join(", "))
                };
            }
        }
        prescan(text).unwrap_or(SyntaxError {
            span,
            message,
            help: None,
        })
    })?;
    // `laep(knight)` parses (a fragment, then a group) but is a misspelt leg: a fragment's
    // name written directly before `(` is refused, with the closest leg kind or modifier.
    for p in pairs.clone().flatten() {
        if p.as_rule() == Rule::fragment
            && text[p.as_span().end()..].starts_with('(')
            && let Some(e) = not_callable(p.as_span().start(), p.as_str())
        {
            return Err(e);
        }
    }
    let def = pairs.next().expect("definition rule");
    let alt = def.into_inner().next().expect("alternation");
    Ok(alternation(alt))
}

fn describe_expected(positives: &[Rule], _negatives: &[Rule]) -> String {
    let mut names: Vec<String> = positives.iter().map(rule_name).collect();
    names.sort();
    names.dedup();
    match names.len() {
        0 => "unexpected text".to_string(),
        1 => format!("expected {}", names[0]),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("expected {} or {}", names.join(", "), last)
        }
    }
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "pest's `renamed_rules` passes the rule by reference"
)]
fn rule_name(r: &Rule) -> String {
    match r {
        Rule::EOI => "end of definition",
        Rule::alternation | Rule::sequence | Rule::repeated | Rule::definition | Rule::atom => {
            "a leg"
        }
        Rule::quantifier
        | Rule::optional
        | Rule::star
        | Rule::plus
        | Rule::bounds
        | Rule::maximal => "a quantifier",
        Rule::group => "`(`",
        Rule::condition => "`at(region)`",
        Rule::fragment => "a fragment name",
        Rule::leg => "a leg (step, leap, ride, hop, jump)",
        Rule::leg_kind => "a leg kind (step, leap, ride, hop, jump)",
        Rule::direction_list | Rule::direction => "a direction",
        Rule::offset => "an offset `[a,b]`",
        Rule::modifier => {
            "a modifier (capture, capture-only, take, over, screen, via, destroy, dist)"
        }
        Rule::capture | Rule::capture_mod => "`capture`",
        Rule::capture_only => "`capture-only`",
        Rule::take => "`take`",
        Rule::over => "`over(…)`",
        Rule::screen => "`screen(…)`",
        Rule::via => "`via(shape, filter)`",
        Rule::destroy => "`destroy(…)`",
        Rule::dist => "`dist(…)`",
        Rule::range_dots => "`..`",
        Rule::bounds_comma => "`,`",
        Rule::filter | Rule::filter_and | Rule::filter_term | Rule::filter_atom => {
            "an occupant filter"
        }
        Rule::negation => "`!`",
        Rule::owned | Rule::owner => "`own` or `enemy`",
        Rule::name => "a name",
        Rule::int | Rule::signed => "a number",
        Rule::WHITESPACE | Rule::COMMENT => "whitespace",
    }
    .to_string()
}

fn alternation(pair: Pair<'_, Rule>) -> Node {
    let span = Span::of(&pair);
    let mut alts: Vec<Node> = pair.into_inner().map(sequence).collect();
    if alts.len() == 1 {
        alts.pop().expect("one")
    } else {
        Node::Alt(alts, span)
    }
}

fn sequence(pair: Pair<'_, Rule>) -> Node {
    let span = Span::of(&pair);
    let mut parts: Vec<Node> = pair.into_inner().map(repeated).collect();
    if parts.len() == 1 {
        parts.pop().expect("one")
    } else {
        Node::Seq(parts, span)
    }
}

fn repeated(pair: Pair<'_, Rule>) -> Node {
    let mut inner = pair.into_inner();
    let node = atom(inner.next().expect("atom"));
    match inner.next() {
        None => node,
        Some(q) => {
            let mut span = Span::of(&q);
            let q = q.into_inner().next().expect("quantifier kind");
            let (min, max) = match q.as_rule() {
                Rule::optional => (0, Some(1)),
                Rule::star => (0, None),
                Rule::plus => (1, None),
                _ => {
                    let mut parts = q.into_inner();
                    let n = int(parts.next().expect("n"));
                    match parts.next() {
                        None => (n, Some(n)),
                        Some(_comma) => (n, parts.next().map(int)),
                    }
                }
            };
            // The span of a maximal repetition's quantifier takes in its `!`.
            let maximal = match inner.next() {
                Some(m) if m.as_rule() == Rule::maximal => {
                    span.end = Span::of(&m).end;
                    true
                }
                _ => false,
            };
            Node::Repeat {
                node: Box::new(node),
                min,
                max,
                maximal,
                span,
            }
        }
    }
}

fn int(pair: Pair<'_, Rule>) -> u32 {
    pair.as_str().parse().unwrap_or(u32::MAX)
}

fn atom(pair: Pair<'_, Rule>) -> Node {
    match pair.as_rule() {
        Rule::group => alternation(pair.into_inner().next().expect("alternation")),
        Rule::condition => Node::At(name(pair.into_inner().next().expect("name"))),
        Rule::leg => Node::Leg(leg(pair)),
        Rule::fragment => Node::Fragment(name(pair.into_inner().next().expect("name"))),
        r => unreachable!("atom {r:?}"),
    }
}

fn name(pair: Pair<'_, Rule>) -> Name {
    Name {
        text: pair.as_str().to_string(),
        span: Span::of(&pair),
    }
}

fn leg(pair: Pair<'_, Rule>) -> Leg {
    let span = Span::of(&pair);
    let mut inner = pair.into_inner();
    // The grammar admits only the keywords of `LegKind::ALL` (a test holds the two lists
    // equal), so a keyword without a kind is a broken build, never a guess.
    let word = inner.next().expect("kind");
    let kind = LegKind::from_keyword(word.as_str()).unwrap_or_else(|| {
        unreachable!("the grammar's leg kind `{}` has no LegKind", word.as_str())
    });
    let dirs = inner
        .next()
        .expect("directions")
        .into_inner()
        .map(|d| {
            let d = d.into_inner().next().expect("direction");
            match d.as_rule() {
                Rule::offset => {
                    let s = Span::of(&d);
                    let mut xy = d
                        .into_inner()
                        .map(|p| p.as_str().parse::<i32>().unwrap_or(i32::MAX));
                    Direction::Offset(xy.next().unwrap_or(0), xy.next().unwrap_or(0), s)
                }
                _ => Direction::Named(name(d)),
            }
        })
        .collect();
    let mods = inner.map(modifier).collect();
    Leg {
        kind,
        dirs,
        mods,
        span,
        text: None,
    }
}

fn modifier(pair: Pair<'_, Rule>) -> Modifier {
    let m = pair.into_inner().next().expect("modifier");
    let span = Span::of(&m);
    match m.as_rule() {
        Rule::capture_mod => {
            let mut i = m.into_inner();
            let only = i.next().expect("capture word").as_rule() == Rule::capture_only;
            let f = i.next().map(filter);
            if only {
                Modifier::CaptureOnly(f, span)
            } else {
                Modifier::Capture(f, span)
            }
        }
        Rule::take => Modifier::Take(span),
        Rule::over => Modifier::Over(filter(m.into_inner().next().expect("filter")), span),
        Rule::screen => Modifier::Screen(filter(m.into_inner().next().expect("filter")), span),
        Rule::destroy => Modifier::Destroy(filter(m.into_inner().next().expect("filter")), span),
        Rule::via => {
            let mut i = m.into_inner();
            let shape = name(i.next().expect("shape"));
            Modifier::Via(shape, filter(i.next().expect("filter")), span)
        }
        Rule::dist => {
            let mut lo = None;
            let mut hi = None;
            let mut dots = false;
            for p in m.into_inner() {
                match p.as_rule() {
                    Rule::range_dots => dots = true,
                    _ if dots => hi = Some(int(p)),
                    _ => lo = Some(int(p)),
                }
            }
            if !dots {
                hi = lo;
            }
            Modifier::Dist(lo, hi, span)
        }
        r => unreachable!("modifier {r:?}"),
    }
}

fn filter(pair: Pair<'_, Rule>) -> Filter {
    let span = Span::of(&pair);
    let terms = pair
        .into_inner()
        .map(|and| {
            let aspan = Span::of(&and);
            let mut all: Vec<FilterTerm> = and.into_inner().map(filter_term).collect();
            if all.len() == 1 {
                all.pop().expect("one term")
            } else {
                FilterTerm {
                    negated: false,
                    atom: FilterAtom::All(all),
                    span: aspan,
                }
            }
        })
        .collect();
    Filter { terms, span }
}

fn filter_term(t: Pair<'_, Rule>) -> FilterTerm {
    let tspan = Span::of(&t);
    let mut negated = false;
    let mut atom = None;
    for p in t.into_inner() {
        match p.as_rule() {
            Rule::negation => negated = true,
            _ => atom = Some(filter_atom(p)),
        }
    }
    FilterTerm {
        negated,
        atom: atom.expect("filter atom"),
        span: tspan,
    }
}

fn filter_atom(pair: Pair<'_, Rule>) -> FilterAtom {
    let p = pair.into_inner().next().expect("atom");
    match p.as_rule() {
        Rule::filter => FilterAtom::Group(filter(p)),
        Rule::owned => {
            let mut i = p.into_inner();
            let own = i.next().expect("owner").as_str() == "own";
            FilterAtom::Owned {
                own,
                kind: i.next().map(name),
            }
        }
        _ => FilterAtom::Name(name(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grammar's leg keywords and `LegKind::ALL` are the same list: a keyword added to one
    /// and not the other fails here, not silently at a user's definition.
    #[test]
    fn the_grammars_leg_kinds_are_the_dsls() {
        let grammar = include_str!("../grammar/piece.pest");
        let line = grammar
            .lines()
            .find(|l| l.trim_start().starts_with("leg_kind"))
            .expect("leg_kind in the grammar");
        let words: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        let kinds: Vec<&str> = LegKind::ALL.iter().map(|k| k.keyword()).collect();
        assert_eq!(words, kinds);
        for k in LegKind::ALL {
            assert_eq!(LegKind::from_keyword(k.keyword()), Some(k));
        }
        assert_eq!(LegKind::from_keyword("slide"), None);
    }

    fn shape(n: &Node) -> String {
        match n {
            Node::Alt(v, _) => {
                format!("alt({})", v.iter().map(shape).collect::<Vec<_>>().join(" "))
            }
            Node::Seq(v, _) => {
                format!("seq({})", v.iter().map(shape).collect::<Vec<_>>().join(" "))
            }
            Node::Repeat {
                node,
                min,
                max,
                maximal,
                ..
            } => format!(
                "{}{{{min},{max:?}}}{}",
                shape(node),
                if *maximal { "!" } else { "" }
            ),
            Node::At(r) => format!("at:{}", r.text),
            Node::Fragment(f) => format!("use:{}", f.text),
            Node::Leg(l) => format!("{}/{}d/{}m", l.kind.keyword(), l.dirs.len(), l.mods.len()),
        }
    }

    #[test]
    fn a_bare_name_is_a_fragment_and_a_leg_keyword_with_brackets_is_a_leg() {
        let n = parse("( spy-jump )+ step(all) | at(home) guard-jumps").unwrap();
        assert_eq!(
            shape(&n),
            "alt(seq(use:spy-jump{1,None} step/1d/0m) seq(at:home use:guard-jumps))"
        );
    }

    #[test]
    fn alternation_sequence_and_quantifiers() {
        let n = parse("step(all) | at(start) ride(forward) dist(2) | (jump(all) over(own guard))+")
            .unwrap();
        assert_eq!(
            shape(&n),
            "alt(step/1d/0m seq(at:start ride/1d/1m) jump/1d/1m{1,None})"
        );
    }

    #[test]
    fn bounds_forms() {
        assert_eq!(
            shape(&parse("step(all){2}").unwrap()),
            "step/1d/0m{2,Some(2)}"
        );
        assert_eq!(
            shape(&parse("step(all){2,}").unwrap()),
            "step/1d/0m{2,None}"
        );
        assert_eq!(
            shape(&parse("step(all){0,3}").unwrap()),
            "step/1d/0m{0,Some(3)}"
        );
        assert_eq!(
            shape(&parse("step(all)?").unwrap()),
            "step/1d/0m{0,Some(1)}"
        );
    }

    #[test]
    fn offsets_filters_and_paths() {
        let n = parse(
            "leap([2,1], [2,0]) via(lshape, !block-like) via(flank, empty) capture destroy(arrow)",
        )
        .unwrap();
        let Node::Leg(l) = n else { panic!("leg") };
        assert_eq!(
            l.dirs[0],
            Direction::Offset(2, 1, Span { start: 5, end: 10 })
        );
        assert_eq!(l.mods.len(), 4);
        let Modifier::Via(shape, f, _) = &l.mods[0] else {
            panic!("via")
        };
        assert_eq!(shape.text, "lshape");
        assert!(f.terms[0].negated);
    }

    #[test]
    fn dist_forms() {
        let d = |t: &str| {
            let Node::Leg(l) = parse(t).unwrap() else {
                panic!()
            };
            match l.mods[0] {
                Modifier::Dist(a, b, _) => (a, b),
                _ => panic!(),
            }
        };
        assert_eq!(d("ride(all) dist(2)"), (Some(2), Some(2)));
        assert_eq!(d("ride(all) dist(1..3)"), (Some(1), Some(3)));
        assert_eq!(d("ride(all) dist(..3)"), (None, Some(3)));
        assert_eq!(d("ride(all) dist(2..)"), (Some(2), None));
    }

    #[test]
    fn comments_and_owned_filters() {
        let n = parse("jump(all) over(own | enemy guard) # chain\n take").unwrap();
        let Node::Leg(l) = n else { panic!() };
        let Modifier::Over(f, _) = &l.mods[0] else {
            panic!()
        };
        assert_eq!(f.terms.len(), 2);
        assert!(
            matches!(&f.terms[1].atom, FilterAtom::Owned { own: false, kind: Some(k) } if k.text == "guard")
        );
        assert!(matches!(l.mods[1], Modifier::Take(_)));
    }

    #[test]
    fn syntax_errors_point_at_the_problem() {
        let e = parse("step(all) capture | ride(").unwrap_err();
        assert_eq!(e.span.start, 24);
        assert!(e.message.contains("never closed"), "{}", e.message);
        let e = parse("step(all) ride(orthogonal) | step(forward").unwrap_err();
        assert_eq!(e.span.start, 33, "at the bracket, not at the end");
        let e = parse("step(all) captur(").unwrap_err();
        assert_eq!(e.span.start, 10);
        assert!(e.help.unwrap().starts_with("did you mean `capture`?"));
        // A misspelt leg kind that parses as a fragment and a group is one error.
        let e = parse("laep([2,1]) capture | via(lshape, empty)").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (0, 4));
        assert!(e.help.unwrap().starts_with("did you mean `leap`?"));
        // A name before a bracketed filter group is still a filter.
        assert!(parse("jump(all) over(enemy(guard))").is_ok());
        // A bare name after a leg is a fragment; the compiler reports an unknown one (and
        // suggests the modifier it resembles).
        assert_eq!(
            shape(&parse("step(all) captur").unwrap()),
            "seq(step/1d/0m use:captur)"
        );
    }
}
