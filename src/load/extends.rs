//! Tweak files: `extends = "NAME"` (a bundled name, or a path relative to the file) makes a
//! variant file the parent with this file's tables and keys laid over it. Every file of the
//! chain keeps its own text; the loader reads them as one *virtual text* (the files joined,
//! ancestors first), so that every span stays unique, and the spans of a problem are mapped
//! back to the file they lie in.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::core::{Code, Diagnostic};

/// Most files in a chain of `extends`.
pub const MAX_CHAIN: usize = 8;

/// One file of a chain: its name as shown in diagnostics, its text, and where it starts in
/// the virtual text.
#[derive(Debug, Clone)]
pub struct Part {
    /// The name (a path or `NAME.toml` for a bundled variant).
    pub name: String,
    /// How to load it again: the bundled name or the path.
    pub arg: String,
    /// The text.
    pub text: String,
    /// Its offset in the virtual text.
    pub offset: usize,
}

/// A chain of files, ancestors first, the one asked for last.
#[derive(Debug, Clone)]
pub struct Chain {
    /// The files.
    pub parts: Vec<Part>,
    /// The files' texts joined by newlines.
    pub text: String,
}

impl Chain {
    /// The part a virtual offset lies in, and the offset within it.
    pub fn locate(&self, at: usize) -> (usize, usize) {
        let i = self.parts.iter().rposition(|p| p.offset <= at).unwrap_or(0);
        (i, at - self.parts[i].offset)
    }

    /// How to load the immediate parent (a bundled name or a path), if the file extends one.
    pub fn parent(&self) -> Option<&str> {
        (self.parts.len() > 1).then(|| self.parts[self.parts.len() - 2].arg.as_str())
    }
}

/// A parent found by a [`Reader`]: its name as shown in diagnostics, its text, and how to load
/// it again (a bundled name or a path).
#[derive(Debug, Clone)]
pub struct Found {
    /// The name shown in diagnostics.
    pub name: String,
    /// The text.
    pub text: String,
    /// A bundled name or a path.
    pub arg: String,
}

/// Reads a parent: given the name of the file whose `extends` names it and the value of that
/// `extends`, the parent, or why not (in words that never quote a file that was not read).
pub type Reader<'a> = dyn Fn(&str, &str) -> Result<Found, String> + 'a;

/// The `extends` value of a text, with its span, if it has one at the top level.
fn extends_of(text: &str) -> Option<(String, (usize, usize))> {
    let (doc, _) = DeTable::parse_recoverable(text);
    let v = doc.get_ref().get("extends")?;
    let span = v.span();
    v.get_ref()
        .as_str()
        .map(|s| (s.to_string(), (span.start, span.end)))
}

/// Resolves the chain of `extends` from a file (name and text), reading each parent with
/// `read` (which decides what a value names: see [`crate::load::Parents`]). Problems (unknown
/// parent, a cycle, a chain too long) are reported at the `extends` value, in that file's
/// coordinates, with the index of the file in the chain from the child (0) up.
pub fn resolve(
    name: &str,
    text: &str,
    read: &Reader<'_>,
) -> Result<Chain, Box<(usize, Diagnostic)>> {
    let mut files = vec![(name.to_string(), text.to_string(), name.to_string())];
    let mut seen = vec![name.to_string()];
    loop {
        let (cur_name, cur_text, _) = files.last().expect("at least the file itself").clone();
        let Some((parent, span)) = extends_of(&cur_text) else {
            break;
        };
        let depth = files.len() - 1;
        if files.len() > MAX_CHAIN {
            return Err(Box::new((
                depth,
                Diagnostic::error(
                    Code::Extends,
                    span,
                    format!("more than {MAX_CHAIN} files extend each other"),
                    "one too many",
                    "extend the reference directly instead of a tweak of a tweak of …",
                ),
            )));
        }
        let found = read(&cur_name, &parent).map_err(|e| {
            Box::new((
                depth,
                Diagnostic::error(
                    Code::Extends,
                    span,
                    format!("cannot extend `{parent}`: {e}"),
                    "not a variant",
                    format!(
                        "give a bundled name or a path relative to this file; {}",
                        crate::load::bundled_names_for(&parent)
                    ),
                ),
            ))
        })?;
        let (pname, ptext, target) = (found.name, found.text, found.arg);
        if seen.contains(&pname) {
            return Err(Box::new((
                depth,
                Diagnostic::error(
                    Code::Extends,
                    span,
                    format!("`{parent}` extends this file again: the chain is a cycle"),
                    "a cycle",
                    "a variant may not extend itself, directly or through others",
                ),
            )));
        }
        seen.push(pname.clone());
        files.push((pname, ptext, target));
    }
    files.reverse();
    let mut parts = Vec::new();
    let mut joined = String::new();
    for (n, t, arg) in files {
        let offset = joined.len();
        joined.push_str(&t);
        joined.push('\n');
        parts.push(Part {
            name: n,
            arg,
            text: t,
            offset,
        });
    }
    Ok(Chain {
        parts,
        text: joined,
    })
}

/// Moves every span of a value by `by` bytes.
fn shift_value(v: Spanned<DeValue<'_>>, by: usize) -> Spanned<DeValue<'_>> {
    let span = v.span();
    let inner = match v.into_inner() {
        DeValue::Table(t) => DeValue::Table(shift_table(t, by)),
        DeValue::Array(mut a) => {
            for item in a.iter_mut() {
                let taken = std::mem::replace(item, Spanned::new(0..0, DeValue::Boolean(false)));
                *item = shift_value(taken, by);
            }
            DeValue::Array(a)
        }
        other => other,
    };
    Spanned::new(span.start + by..span.end + by, inner)
}

/// Moves every span of a table (keys and values) by `by` bytes.
pub fn shift_table(t: DeTable<'_>, by: usize) -> DeTable<'_> {
    let mut out = DeTable::default();
    for (k, v) in t {
        let ks = k.span();
        out.insert(
            Spanned::new(ks.start + by..ks.end + by, k.into_inner()),
            shift_value(v, by),
        );
    }
    out
}

/// An entry of a named table (`[pieces.ID]`, `[stones.ID]`, …) that a tweak adds rather than
/// changes: the variant it extends has none of that name.
#[derive(Debug, Clone)]
pub struct NewEntry {
    /// The table: `pieces`, `stones`, `regions`, `fragments`.
    pub section: &'static str,
    /// The new name.
    pub name: String,
    /// Where the name is written.
    pub span: (usize, usize),
    /// The names the variant it extends has in that table.
    pub known: Vec<String>,
}

/// The entries of `child`'s named tables that `base` does not have.
pub fn new_entries(base: &DeTable<'_>, child: &DeTable<'_>) -> Vec<NewEntry> {
    let mut out = Vec::new();
    for section in ["pieces", "stones", "regions", "fragments"] {
        let (Some(DeValue::Table(b)), Some(DeValue::Table(c))) = (
            base.get(section).map(Spanned::get_ref),
            child.get(section).map(Spanned::get_ref),
        ) else {
            continue;
        };
        for k in c.keys() {
            if !b.contains_key(k.get_ref().as_ref()) {
                out.push(NewEntry {
                    section,
                    name: k.get_ref().to_string(),
                    span: (k.span().start, k.span().end),
                    known: b.keys().map(|k| k.get_ref().to_string()).collect(),
                });
            }
        }
    }
    out
}

/// Lays `child` over `base`: a table merges key by key (so `[pieces.ID]` keys replace the
/// parent's keys of that piece and a new ID adds a piece); any other value replaces the
/// parent's. The top-level `extends` key is dropped.
pub fn overlay<'i>(base: &mut DeTable<'i>, mut child: DeTable<'i>) {
    child.remove("extends");
    overlay_tables(base, child);
}

fn overlay_tables<'i>(base: &mut DeTable<'i>, child: DeTable<'i>) {
    for (k, v) in child {
        let merged = match (base.get_mut(k.get_ref().as_ref()), v) {
            (Some(b), v) if b.get_ref().is_table() && v.get_ref().is_table() => {
                let DeValue::Table(ct) = v.into_inner() else {
                    unreachable!("checked: a table")
                };
                let bv = std::mem::replace(b, Spanned::new(0..0, DeValue::Boolean(false)));
                let bspan = bv.span();
                let DeValue::Table(mut bt) = bv.into_inner() else {
                    unreachable!("checked: a table")
                };
                overlay_tables(&mut bt, ct);
                Spanned::new(bspan, DeValue::Table(bt))
            }
            (_, v) => v,
        };
        base.insert(k, merged);
    }
}
