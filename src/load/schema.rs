//! The shape of a variant file, checked on the parsed TOML tree before anything is read from
//! it, so that one run reports every unknown key, wrong type and missing key, each with its
//! span (serde alone would stop at the first).

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The expected shape of a value.
#[derive(Clone, Copy)]
enum Shape {
    Str,
    Int,
    Bool,
    /// An array of strings.
    Strs,
    /// An array of integer pairs (direction vectors).
    Pairs,
    /// A table with these keys.
    Table(&'static [Key]),
    /// A table whose keys are names, each holding this shape.
    Named(&'static Shape),
    /// An array of tables of this shape.
    Tables(&'static [Key]),
}

/// A key of a table, its shape and whether it must be there.
type Key = (&'static str, Shape, bool);

const GAME: &[Key] = &[
    ("name", Shape::Str, true),
    ("description", Shape::Str, false),
    ("sides", Shape::Strs, false),
];
const BOARD: &[Key] = &[
    ("files", Shape::Strs, true),
    ("ranks", Shape::Int, true),
    ("mask", Shape::Str, true),
    ("cells", Shape::Int, false),
    ("colours", Shape::Str, false),
    ("drawing", Shape::Str, false),
    ("river", Shape::Int, false),
    ("diagonals", Shape::Strs, false),
];
const REGION: &[Key] = &[("white", Shape::Str, true), ("black", Shape::Str, true)];
const STONE: &[Key] = &[
    ("name", Shape::Str, false),
    ("symbol", Shape::Str, true),
    ("supply", Shape::Int, true),
    ("class", Shape::Str, true),
    ("collectable", Shape::Bool, false),
    ("explodes", Shape::Strs, false),
    ("captures", Shape::Strs, false),
    ("captures-not-by", Shape::Strs, false),
    ("wins-on", Shape::Str, false),
];
const PIECE: &[Key] = &[
    ("name", Shape::Str, false),
    ("letter", Shape::Str, true),
    ("rulings", Shape::Strs, false),
    ("moves", Shape::Str, true),
    ("range", Shape::Str, false),
    ("stones-per-turn", Shape::Int, false),
    ("removes", Shape::Strs, false),
    ("royal", Shape::Bool, false),
    ("en-passant", Shape::Bool, false),
    ("en-passant-lines", Shape::Str, false),
    ("promotes-in", Shape::Str, false),
    ("promotes-to", Shape::Strs, false),
    ("turns", Shape::Strs, false),
    ("reserve", Shape::Int, false),
    ("value", Shape::Int, false),
    ("picture", Shape::Str, false),
    ("captures-to", Shape::Str, false),
    ("takes-reserve-in", Shape::Str, false),
    ("changes", Shape::Tables(CHANGE), false),
];
const CHANGE: &[Key] = &[
    ("on", Shape::Str, true),
    ("region", Shape::Str, false),
    ("kinds", Shape::Strs, false),
    ("to", Shape::Strs, true),
    ("optional", Shape::Bool, false),
];
const GOAL: &[Key] = &[
    ("region", Shape::Str, true),
    ("by", Shape::Strs, false),
    ("verdict", Shape::Str, false),
];
const DROPS: &[Key] = &[("region", Shape::Str, true), ("kinds", Shape::Strs, false)];
const NEUTRAL: &[Key] = &[
    ("kind", Shape::Str, true),
    ("symbol", Shape::Str, true),
    ("influence", Shape::Strs, true),
];
const RESERVE: &[Key] = &[("replaced", Shape::Str, false)];
const CLOCK: &[Key] = &[
    ("reset-on", Shape::Strs, false),
    ("reset-by", Shape::Strs, false),
    ("limit", Shape::Int, false),
    ("at-limit", Shape::Str, false),
];
const REPETITION: &[Key] = &[
    ("occurrence", Shape::Int, true),
    ("verdict", Shape::Str, true),
];
const SETUP: &[Key] = &[("position", Shape::Str, true)];
const ONLY: &[Key] = &[("region", Shape::Str, true), ("stones", Shape::Strs, true)];
const PLACEMENT: &[Key] = &[
    ("forbidden", Shape::Strs, false),
    ("only", Shape::Tables(ONLY), false),
];
const VANQUISHED: &[Key] = &[
    ("no-reserve", Shape::Bool, false),
    ("none-of", Shape::Strs, false),
    ("points-below", Shape::Int, false),
    ("no-neutrals", Shape::Bool, false),
];
const END: &[Key] = &[
    ("vanquished", Shape::Table(VANQUISHED), false),
    ("occupy", Shape::Str, false),
    ("occupy-by", Shape::Strs, false),
    ("no-pieces", Shape::Str, false),
    ("immobilized", Shape::Str, false),
    ("checkmate", Shape::Str, false),
    ("stalemate", Shape::Str, false),
];
const TURN: &[Key] = &[
    ("explosions", Shape::Int, false),
    ("taboo-after-explosion", Shape::Bool, false),
    ("shapes", Shape::Strs, false),
    ("stone-after-move", Shape::Str, false),
    ("compulsory", Shape::Strs, false),
    ("most-captures", Shape::Bool, false),
    ("captured-leave", Shape::Str, false),
    ("chain-revisits", Shape::Str, false),
];
const NOTATION: &[Key] = &[("fields", Shape::Strs, false)];
const CASTLING: &[Key] = &[
    ("side", Shape::Str, true),
    ("letter", Shape::Str, false),
    ("king", Shape::Str, false),
    ("king-to", Shape::Str, false),
    ("rook", Shape::Str, false),
    ("rook-to", Shape::Str, false),
    ("partners", Shape::Strs, false),
    ("empty", Shape::Str, false),
    ("safe", Shape::Str, false),
    ("rights", Shape::Str, false),
    ("partner-kind", Shape::Str, false),
    ("partners-on", Shape::Str, false),
    ("high-side-to", Shape::Str, false),
    ("low-side-to", Shape::Str, false),
];
const REGION_SHAPE: Shape = Shape::Table(REGION);
const STONE_SHAPE: Shape = Shape::Table(STONE);
const PIECE_SHAPE: Shape = Shape::Table(PIECE);
const DIRECTION_SHAPE: Shape = Shape::Pairs;
const FRAGMENT_SHAPE: Shape = Shape::Str;
const CLASSED_SHAPE: Shape = Shape::Named(&DIRECTION_SHAPE);
const TOP: &[Key] = &[
    ("game", Shape::Table(GAME), true),
    ("extends", Shape::Str, false),
    ("board", Shape::Table(BOARD), true),
    ("regions", Shape::Named(&REGION_SHAPE), false),
    ("directions", Shape::Named(&DIRECTION_SHAPE), false),
    ("classes", Shape::Named(&FRAGMENT_SHAPE), false),
    ("directions-by-class", Shape::Named(&CLASSED_SHAPE), false),
    ("fragments", Shape::Named(&FRAGMENT_SHAPE), false),
    ("stones", Shape::Named(&STONE_SHAPE), false),
    ("pieces", Shape::Named(&PIECE_SHAPE), true),
    ("setup", Shape::Table(SETUP), true),
    ("placement", Shape::Table(PLACEMENT), false),
    ("end", Shape::Table(END), false),
    ("turn", Shape::Table(TURN), false),
    ("notation", Shape::Table(NOTATION), false),
    ("castling", Shape::Tables(CASTLING), false),
    ("reserve", Shape::Table(RESERVE), false),
    ("clock", Shape::Table(CLOCK), false),
    ("repetition", Shape::Table(REPETITION), false),
    ("goal", Shape::Tables(GOAL), false),
    ("drops", Shape::Table(DROPS), false),
    ("neutral", Shape::Table(NEUTRAL), false),
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
        Shape::Str => "a string",
        Shape::Int => "an integer",
        Shape::Bool => "true or false",
        Shape::Strs => "an array of strings",
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
    for (k, v) in t.iter() {
        let name: &str = k.get_ref();
        match keys.iter().find(|(n, _, _)| *n == name) {
            // A table inside a table is named by its path (`[end.vanquished]`).
            Some((_, shape @ Shape::Table(_), _)) if what.starts_with('[') => value(
                v,
                *shape,
                &format!("`{}.{name}`", what.trim_matches(|c| c == '[' || c == ']')),
                out,
            ),
            Some((_, shape, _)) => value(v, *shape, &format!("`{name}`"), out),
            None => {
                let known: Vec<&str> = keys.iter().map(|(n, _, _)| *n).collect();
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
    for (name, _, required) in keys {
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
        })
    };
    match (shape, v.get_ref()) {
        (Shape::Str, DeValue::String(_))
        | (Shape::Int, DeValue::Integer(_))
        | (Shape::Bool, DeValue::Boolean(_)) => {}
        (Shape::Strs, DeValue::Array(a)) => {
            for e in a.iter() {
                if !matches!(e.get_ref(), DeValue::String(_)) {
                    value(e, Shape::Str, &format!("an item of {what}"), out);
                }
            }
        }
        (Shape::Pairs, DeValue::Array(a)) => {
            for e in a.iter() {
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
            for (k, e) in t.iter() {
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
            for e in a.iter() {
                match e.get_ref() {
                    DeValue::Table(t) => {
                        table(t, keys, &format!("an entry of {what}"), range(e), out)
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
