//! Variant files: TOML text → [`VariantDef`] (as read) → [`Ruleset`] (checked and compiled).
//! Every problem found is reported, each as a miette diagnostic with a span into the file.
//!
//! The loader is the top of the engine: it reads the file with the help of every layer below
//! it (the DSL, the compiler, position text, the position checks of play) and is the only
//! code that knows TOML.

mod diagnostics;
pub mod extends;
pub mod format;
mod schema;

pub use schema::reference as format_reference;

use indexmap::IndexMap;
use miette::NamedSource;
use toml::Spanned;

pub use self::diagnostics::{LoadError, Problem, VariantErrors};
pub use self::format::*;
use crate::board::{Cell, CellSet, ClassedSet, Topology};
use crate::compile::{self, CompileError, Compiler, Filter, Names, Program};
use crate::core::{BySide, Code, Diagnostic, Severity, Side};
use crate::core::{PieceKindId, RegionId, StoneKindId};
use crate::dsl;
use crate::position::Position;
use crate::rules::*;
use crate::text;

/// Largest variant file read, in bytes (the bundled ones are under 16 KiB).
pub const MAX_VARIANT_BYTES: usize = 1 << 20;

/// Most problems one diagnostic report shows; the count of the rest is given.
pub const MAX_PROBLEMS_SHOWN: usize = 50;

/// Most castlings a variant may declare: their rights are the bits of a `u32`.
pub const MAX_CASTLINGS: usize = 32;

/// Whether a bundled name reads `variants/NAME.toml` of the current directory instead of the
/// built-in copy when that file exists and differs (the command line sets it, so that editing a
/// checkout's variant file takes effect without a rebuild).
static PREFER_CHECKOUT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

thread_local! {
    /// Notes about which file was read for a bundled name, taken by [`take_notes`].
    static NOTES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Makes bundled names prefer an edited `variants/NAME.toml` in the current directory.
pub fn prefer_checkout(yes: bool) {
    PREFER_CHECKOUT.store(yes, std::sync::atomic::Ordering::Relaxed);
}

/// The notes collected since the last call (which file a bundled name read).
pub fn take_notes() -> Vec<String> {
    NOTES.with_borrow_mut(std::mem::take)
}

/// The bundled variant files, by name.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "bollwerk178",
        include_str!("../../variants/bollwerk178.toml"),
    ),
    ("chess", include_str!("../../variants/chess.toml")),
    ("chess960", include_str!("../../variants/chess960.toml")),
    ("xiangqi", include_str!("../../variants/xiangqi.toml")),
    ("waterloo", include_str!("../../variants/waterloo.toml")),
    (
        "border-wars",
        include_str!("../../variants/border-wars.toml"),
    ),
    (
        "border-wars-chess",
        include_str!("../../variants/border-wars-chess.toml"),
    ),
    (
        "border-wars-shogi",
        include_str!("../../variants/border-wars-shogi.toml"),
    ),
    (
        "border-wars-xiangqi",
        include_str!("../../variants/border-wars-xiangqi.toml"),
    ),
];

/// The text of a bundled variant, by name (`chess`), as built into the binary.
pub fn bundled_text(name: &str) -> Option<&'static str> {
    BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

impl Ruleset {
    /// Loads a bundled variant by name, or a file by path.
    pub fn load_named(arg: &str) -> Result<Ruleset, LoadError> {
        Ruleset::load_checked(arg).map(|(r, _)| r)
    }

    /// Loads a bundled variant by name, or a file by path, with the report of its warnings
    /// (problems that do not stop it from loading), if it has any.
    pub fn load_checked(arg: &str) -> Result<(Ruleset, Option<VariantErrors>), LoadError> {
        let (name, text) = read_variant(arg)?;
        Ruleset::from_source_checked(&name, &text).map_err(LoadError::Invalid)
    }

    /// The bundled Bollwerk 178.
    pub fn bollwerk178() -> Ruleset {
        Ruleset::from_source("bollwerk178.toml", BUNDLED[0].1)
            .expect("the bundled variant is valid")
    }

    /// Checks and compiles variant text; `name` labels diagnostics. Warnings are kept in
    /// [`Ruleset::warnings`].
    pub fn from_source(name: &str, text: &str) -> Result<Ruleset, VariantErrors> {
        Ruleset::from_source_checked(name, text).map(|(r, _)| r)
    }

    /// Checks and compiles variant text, with the report of its warnings if it has any.
    pub fn from_source_checked(
        name: &str,
        text: &str,
    ) -> Result<(Ruleset, Option<VariantErrors>), VariantErrors> {
        Ruleset::from_source_within(name, text, &Parents::Anywhere)
    }

    /// Checks and compiles variant text whose `extends` may name only what `parents` allows
    /// (text sent by someone else: see [`Parents::Within`]), with the report of its warnings.
    pub fn from_source_within(
        name: &str,
        text: &str,
        parents: &Parents,
    ) -> Result<(Ruleset, Option<VariantErrors>), VariantErrors> {
        if text.len() > MAX_VARIANT_BYTES {
            return Err(VariantErrors {
                src: NamedSource::new(name, String::new()),
                problems: vec![Diagnostic::error(
                    Code::TooLarge,
                    (0, 0),
                    format!(
                        "the variant text is {} bytes; the most is {MAX_VARIANT_BYTES}",
                        text.len()
                    ),
                    "here",
                    "a variant file describes one game: keep it under 1 MiB",
                )],
            });
        }
        let report = |problems| VariantErrors {
            src: NamedSource::new(name, text.to_string()),
            problems,
        };
        let read = |from: &str, parent: &str| parents.read(name, from, parent);
        let chain = match extends::resolve(name, text, &read).map_err(|e| *e) {
            Ok(c) => c,
            Err((0, d)) => return Err(report(vec![d])),
            Err((_, d)) => {
                // A problem in an ancestor: shown in the file that has it.
                return Err(report(vec![Diagnostic {
                    message: format!("{} (in a file this one extends)", d.message),
                    ..d
                }]));
            }
        };
        let mut l = Loader {
            src: &chain.text,
            chain: &chain,
            problems: Vec::new(),
        };
        let r = l.load();
        let mut problems: Vec<Diagnostic> =
            l.problems.into_iter().map(|p| locate(&chain, p)).collect();
        problems.sort_by_key(|p| (p.source.is_some(), p.span));
        match r {
            Some(mut r) if problems.iter().all(|p| p.severity == Severity::Warning) => {
                r.warnings.clone_from(&problems);
                r.extends = chain.parent().map(str::to_string);
                let warnings = (!problems.is_empty()).then(|| report(problems));
                Ok((r, warnings))
            }
            _ => Err(report(problems)),
        }
    }
}

/// A problem's spans moved from the virtual text of a chain into the file they lie in; a
/// problem in an ancestor carries that file as its source.
fn locate(chain: &extends::Chain, mut d: Diagnostic) -> Diagnostic {
    let (i, start) = chain.locate(d.span.0);
    let part = &chain.parts[i];
    let end = d
        .span
        .1
        .saturating_sub(part.offset)
        .min(part.text.len())
        .max(start);
    d.span = (start, end);
    d.related.retain_mut(|l| {
        let (j, s) = chain.locate(l.span.0);
        l.span = (s, l.span.1.saturating_sub(chain.parts[j].offset).max(s));
        j == i
    });
    if i + 1 != chain.parts.len() {
        d.source = Some(crate::core::diagnostic::SourceRef(std::sync::Arc::new(
            NamedSource::new(&part.name, part.text.clone()),
        )));
    }
    d
}

/// Which files the `extends` of a variant text may name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Parents {
    /// A bundled name, or any file, by a path relative to the file that names it: the user's
    /// own files on the command line.
    #[default]
    Anywhere,
    /// A bundled name, or a file inside this folder (a relative path without `..`, with no
    /// link leading out of the folder); `None`: bundled names only. For text sent by someone
    /// else, such as a page of the web board: a refusal says why without showing the file.
    Within(Option<std::path::PathBuf>),
}

impl Parents {
    /// The parent that `parent` (the value of an `extends` in the file named `from`) names,
    /// when the chain started from the file named `top`.
    fn read(&self, top: &str, from: &str, parent: &str) -> Result<extends::Found, String> {
        use std::path::{Component, Path, PathBuf};
        let bundled = |name: &str| {
            read_variant(name)
                .map(|(n, text)| extends::Found {
                    name: n,
                    text,
                    arg: name.to_string(),
                })
                .map_err(|e| e.to_string())
        };
        let is_bundled = BUNDLED
            .iter()
            .any(|(n, _)| *n == parent.strip_prefix(BUILTIN_PREFIX).unwrap_or(parent));
        match self {
            Parents::Anywhere => {
                if is_bundled {
                    return bundled(parent);
                }
                // A path is relative to the file that names it.
                let target = Path::new(from)
                    .parent()
                    .map_or_else(|| PathBuf::from(parent), |d| d.join(parent));
                if !parent.ends_with(".toml") && std::fs::symlink_metadata(&target).is_err() {
                    return Err("no bundled variant has that name".to_string());
                }
                let arg = target.display().to_string();
                match read_variant_file(&arg) {
                    Ok(text) => Ok(extends::Found {
                        name: arg.clone(),
                        text,
                        arg,
                    }),
                    Err(LoadError::Io { message, .. }) => Err(message),
                    Err(e) => Err(e.to_string()),
                }
            }
            Parents::Within(root) => {
                if is_bundled {
                    return bundled(parent);
                }
                let names = bundled_names_for(parent);
                let Some(root) = root else {
                    return Err(format!(
                        "here a variant may extend only a bundled one ({names})"
                    ));
                };
                let refused = || {
                    format!(
                        "here a variant may extend only a bundled one ({names}) or a `.toml` file \
                         in the folder of the served variant, by a relative path without `..`"
                    )
                };
                let plain = Path::new(parent)
                    .components()
                    .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
                if !parent.ends_with(".toml") || !plain {
                    return Err(refused());
                }
                // Names in the chain are relative to the folder; the first file is in it.
                let base = if from == top {
                    PathBuf::new()
                } else {
                    Path::new(from)
                        .parent()
                        .map(Path::to_path_buf)
                        .unwrap_or_default()
                };
                let rel = base.join(parent);
                let full = root.join(&rel);
                let inside = match (root.canonicalize(), full.canonicalize()) {
                    (Ok(r), Ok(f)) => f.starts_with(r),
                    (Ok(_), Err(_)) => {
                        return Err("there is no such file in the served variant's folder".into());
                    }
                    (Err(_), _) => false,
                };
                if !inside {
                    return Err(format!("{}: a link leads out of the folder", refused()));
                }
                let text = read_variant_file(&full.display().to_string()).map_err(|e| match e {
                    LoadError::Io { message, .. } => message,
                    e => e.to_string(),
                })?;
                Ok(extends::Found {
                    name: rel.display().to_string(),
                    text,
                    arg: full.display().to_string(),
                })
            }
        }
    }
}

/// The bundled names, joined by commas.
/// The bundled names for a help line, with a suggestion when `arg` is close to one:
/// `did you mean `chess`? known: bollwerk178, chess, …; builtin:NAME for the built-in copy`.
pub fn bundled_names_for(arg: &str) -> String {
    let word = arg.strip_prefix(BUILTIN_PREFIX).unwrap_or(arg);
    let word = std::path::Path::new(word)
        .file_stem()
        .map_or(word.to_string(), |s| s.to_string_lossy().into_owned());
    format!(
        "{}; {BUILTIN_PREFIX}NAME for the built-in copy",
        crate::core::names::suggest(&word, BUNDLED.iter().map(|(n, _)| *n))
    )
}

/// The name and text of a bundled variant, or of a file read with the size limit.
pub fn read_variant(arg: &str) -> Result<(String, String), LoadError> {
    // `builtin:NAME` is always the copy built into bulwark, even in an edited checkout.
    if let Some(name) = arg.strip_prefix(BUILTIN_PREFIX) {
        return match BUNDLED.iter().find(|(n, _)| *n == name) {
            Some((name, text)) => Ok((format!("{BUILTIN_PREFIX}{name}.toml"), (*text).to_string())),
            None => Err(LoadError::Io {
                path: arg.to_string(),
                message: "no variant of that name is built into bulwark".into(),
                known: bundled_names_for(arg),
            }),
        };
    }
    if let Some((name, text)) = BUNDLED.iter().find(|(n, _)| *n == arg) {
        // In a checkout, an edited `variants/NAME.toml` wins over the built-in copy.
        if PREFER_CHECKOUT.load(std::sync::atomic::Ordering::Relaxed) {
            let path = format!("variants/{name}.toml");
            if let Ok(disk) =
                crate::core::file::read_text(std::path::Path::new(&path), MAX_VARIANT_BYTES as u64)
                && disk != *text
            {
                NOTES.with_borrow_mut(|n| {
                    n.push(format!(
                        "read {path}: it differs from the copy of `{name}` built into bulwark"
                    ));
                });
                return Ok((path, disk));
            }
        }
        return Ok((format!("{name}.toml"), (*text).to_string()));
    }
    read_variant_file(arg).map(|text| (arg.to_string(), text))
}

/// The prefix that names the built-in copy of a bundled variant (`builtin:bollwerk178`).
pub const BUILTIN_PREFIX: &str = "builtin:";

/// The text of a variant file on disk: a regular file (never a FIFO or a device) of at most
/// [`MAX_VARIANT_BYTES`].
fn read_variant_file(arg: &str) -> Result<String, LoadError> {
    crate::core::file::read_text(std::path::Path::new(arg), MAX_VARIANT_BYTES as u64).map_err(|e| {
        LoadError::Io {
            path: arg.to_string(),
            message: e.to_string(),
            known: bundled_names_for(arg),
        }
    })
}

/// Definition text without surrounding blank lines and common indentation.
fn dedent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().skip_while(|l| l.trim().is_empty()).collect();
    let end = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let lines = &lines[..end];
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------------------------------------
// The loader.

struct Loader<'s> {
    /// The virtual text of the chain (one file, or a tweak and its ancestors).
    src: &'s str,
    chain: &'s extends::Chain,
    problems: Vec<Problem>,
}

/// A fragment: its name, its definition if it parsed, the fragments it uses.
type Fragment = (String, Option<dsl::Node>, Vec<String>);

/// A piece's parsed `moves` and `range` and the fragments they use.
type Parsed = (Option<dsl::Node>, Option<Option<dsl::Node>>, Vec<String>);

/// `node` with the fragments declared so far spliced in; the names it used are added to
/// `used`. An unknown name stays in place for the compiler to report.
fn splice(mut node: dsl::Node, fragments: &[Fragment], used: &mut Vec<String>) -> dsl::Node {
    for f in node.fragments() {
        if fragments.iter().any(|(k, _, _)| *k == f.text) {
            used.push(f.text.clone());
        }
    }
    node.splice(&|name: &str| {
        fragments
            .iter()
            .find(|(k, _, _)| k == name)
            .and_then(|(_, n, _)| n.clone())
    });
    node
}

fn span_of<T>(s: &Spanned<T>) -> (usize, usize) {
    let r = s.span();
    (r.start, r.end)
}

impl<'s> Loader<'s> {
    /// Whether a problem so far stops the variant from loading (warnings do not).
    fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| p.severity == Severity::Error)
    }

    fn problem(
        &mut self,
        code: Code,
        span: (usize, usize),
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.problems
            .push(Diagnostic::error(code, span, message, label, help));
    }

    /// Byte offset in the file of the first content character of a string value.
    fn content_start(&self, span: (usize, usize)) -> usize {
        let text = &self.src[span.0..span.1.min(self.src.len())];
        let skip = if text.starts_with("'''") || text.starts_with("\"\"\"") {
            let rest = &text[3..];
            3 + if rest.starts_with("\r\n") {
                2
            } else if rest.starts_with('\n') {
                1
            } else {
                0
            }
        } else if text.starts_with('\'') || text.starts_with('"') {
            1
        } else {
            0
        };
        span.0 + skip
    }

    fn load(&mut self) -> Option<Ruleset> {
        let def = self.read_def()?;
        let mut topo = self.board(&def.board);
        if let Some(t) = topo.as_mut() {
            let sets = self.classed_directions(&def, t);
            t.set_classed(sets);
        }
        let colouring = self.colouring(&def.board);
        let drawing = self.drawing(&def.board);
        let stones = self.stones(&def);
        let pieces_meta = self.pieces_meta(&def, &stones);
        let directions = self.directions(&def);
        let regions = topo.as_ref().map(|t| self.regions(&def, t));

        // Names for the compiler.
        let piece_ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let stone_ids: Vec<String> = stones.iter().map(|s| s.id.clone()).collect();
        let classes: Vec<String> = stones.iter().map(|s| s.class.clone()).collect();
        let region_ids: Vec<String> = def
            .regions
            .keys()
            .take(RegionId::MAX)
            .map(|k| k.get_ref().clone())
            .collect();
        let lines = self.board_lines(
            &def.board,
            drawing,
            topo.as_ref().map_or(0, |t| t.ranks()),
            &region_ids,
        );

        let (fragments, parsed) = self.parse_definitions(&def);

        let topo = topo?;
        let regions = regions?;
        let names = Names {
            pieces: &piece_ids,
            stones: &stone_ids,
            stone_classes: &classes,
            regions: &region_ids,
            directions: &directions,
        };
        let mut compiler = Compiler::new(&topo, names);
        let mut pieces =
            self.compile_definitions(&def, &mut compiler, &fragments, parsed, &pieces_meta);
        let mut links = compiler.links;
        let placement = self.placement(&def, &region_ids, &stone_ids);
        let collectable = Filter(
            stones
                .iter()
                .enumerate()
                .filter(|(_, s)| s.collectable)
                .fold(0, |a, (k, _)| {
                    a | 1u128 << Filter::stone_bit(StoneKindId::new(k))
                }),
        );
        if self.has_errors()
            || pieces.len() != def.pieces.len()
            || pieces_meta.len() != def.pieces.len()
        {
            return None;
        }
        let mut stones = stones;
        self.actions(&def, &mut stones, &mut pieces, &region_ids);
        let end = self.end(&def, &region_ids);
        let turn = self.turn(&def);
        self.changes(&def, &mut pieces, &region_ids);
        let (replaced, clock, repetition) = self.history_rules(&def);
        let fields = self.fields(&def, !stones.is_empty());
        let castlings = self.castlings(&def, &topo);
        let drops = self.drops(&def, &pieces, &region_ids);
        let neutral = self.neutral(&def, &topo, &directions, &mut links, &stones);
        if self.has_errors() {
            return None;
        }
        let has_royals = pieces.iter().any(|p| p.royal);
        let royal_kinds = pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .fold(0u64, |m, (k, _)| m | 1 << k);
        let has_reserve = pieces.iter().any(|p| p.reserve.is_some());
        for p in &mut pieces {
            for prog in [&mut p.moves, &mut p.range, &mut p.attacks] {
                prog.plain = prog.is_plain(&links);
                prog.disjoint = prog.plain
                    && prog.is_disjoint(
                        &links,
                        i32::try_from(topo.files()).unwrap_or(i32::MAX),
                        i32::try_from(topo.ranks()).unwrap_or(i32::MAX),
                    );
                prog.reach = prog.reach_table(&links, &topo);
            }
        }
        let mut piece_class = vec![0u8; 256];
        for (k, p) in pieces.iter().enumerate() {
            for (side, bit) in [
                (Side::White, crate::rules::PIECE_WHITE),
                (Side::Black, crate::rules::PIECE_BLACK),
            ] {
                let code = crate::core::Occupant::piece(side, crate::core::PieceKindId::new(k));
                piece_class[usize::from(code.code())] = bit
                    | if p.royal {
                        crate::rules::PIECE_ROYAL
                    } else {
                        0
                    };
            }
        }
        let attack_reach = crate::compile::AttackReach::new(
            pieces.iter().map(|p| &p.attacks),
            i32::try_from(topo.files()).unwrap_or(0),
            i32::try_from(topo.ranks()).unwrap_or(0),
        );
        let bit_moves = if stones.is_empty() && neutral.is_none() {
            crate::compile::bits::BitMoves::new(
                &links,
                topo.len(),
                pieces.len(),
                pieces.iter().map(|p| &p.moves),
            )
        } else {
            None
        };
        let zobrist = crate::compile::zobrist::Zobrist::new(
            topo.len(),
            stones.len() + pieces.len(),
            castlings
                .iter()
                .map(|c| usize::from(c.right) + 1)
                .max()
                .unwrap_or(0),
        );
        let piece_shapes = def
            .pieces
            .values()
            .map(|p| match &p.turns {
                Some(list) => self.shapes(list),
                None => turn.shapes,
            })
            .collect();
        let mut rules = Ruleset {
            identity: Identity::new(),
            piece_shapes,
            extends: None,
            warnings: Vec::new(),
            side_names: self.side_names(&def),
            name: def.game.name.get_ref().clone(),
            description: def.game.description.trim().to_string(),
            topo,
            colouring,
            drawing,
            lines,
            regions,
            stones,
            pieces,
            directions,
            links,
            collectable,
            setup: Position::empty(0, Vec::new()),
            placement,
            end,
            turn,
            zobrist,
            fields,
            castlings,
            has_royals,
            royal_kinds,
            piece_class,
            attack_reach,
            bit_moves,
            replaced,
            clock,
            repetition,
            has_reserve,
            drops,
            neutral,
            allowed: Vec::new(),
            allowed_kinds: Vec::new(),
        };
        rules.allowed = rules.placement_table();
        rules.allowed_kinds = rules.allowed_masks();
        rules.setup = self.setup(&def, &rules)?;
        Some(rules)
    }

    /// The file as read: every TOML syntax error, then every schema mismatch, then serde.
    fn read_def(&mut self) -> Option<VariantDef> {
        // Every TOML syntax error (of every file of the chain), then every schema mismatch,
        // before reading anything.
        let chain = self.chain;
        let mut doc: Option<toml::de::DeTable<'_>> = None;
        let mut new_entries: Vec<extends::NewEntry> = Vec::new();
        let mut syntax = false;
        for part in &chain.parts {
            let (d, errors) = toml::de::DeTable::parse_recoverable(&part.text);
            for e in &errors {
                let span = e
                    .span()
                    .map(|r| {
                        (
                            r.start,
                            r.end.max(r.start + 1).min(part.text.len().max(r.start)),
                        )
                    })
                    .unwrap_or((0, 0));
                self.problem(
                    Code::Toml,
                    (span.0 + part.offset, span.1 + part.offset),
                    format!("TOML syntax: {}", e.message().trim()),
                    "here",
                    "fix the TOML syntax here",
                );
            }
            syntax |= !errors.is_empty();
            let d = extends::shift_table(d.into_inner(), part.offset);
            match &mut doc {
                None => doc = Some(d),
                Some(base) => {
                    new_entries.extend(extends::new_entries(base, &d));
                    extends::overlay(base, d);
                }
            }
        }
        if syntax {
            return None;
        }
        let doc = toml::Spanned::new(0..self.src.len(), doc.unwrap_or_default());
        let mismatches = schema::check(&doc);
        if !mismatches.is_empty() {
            for mut m in mismatches {
                // A table a tweak adds that misses a required key is most often a misspelt
                // name of one it meant to change: say so, with the closest name.
                if let Some(n) = new_entries.iter().find(|n| n.span == m.span) {
                    m.help = match crate::core::names::closest(
                        &n.name,
                        n.known.iter().map(String::as_str),
                    ) {
                        Some(c) => format!(
                            "the variant it extends has no `{}` in [{}], so this is a new one; did you mean `{c}`, to change it? Or {}",
                            n.name, n.section, m.help
                        ),
                        None => format!(
                            "the variant it extends has no `{}` in [{}], so this is a new one: {}",
                            n.name, n.section, m.help
                        ),
                    };
                }
                self.problem(Code::Schema, m.span, m.message, m.label, m.help);
            }
            return None;
        }
        let whole = toml::Spanned::new(
            0..self.src.len(),
            toml::de::DeValue::Table(doc.into_inner()),
        );
        match <VariantDef as serde::Deserialize>::deserialize(toml::de::ValueDeserializer::from(
            whole,
        )) {
            Ok(d) => Some(d),
            Err(e) => {
                let span = e
                    .span()
                    .map(|r| {
                        (
                            r.start,
                            r.end.max(r.start + 1).min(self.src.len().max(r.start)),
                        )
                    })
                    .unwrap_or((0, 0));
                let message = e.message().trim().to_string();
                let (code, help) = if message.contains("unknown field")
                    || message.contains("missing field")
                    || message.contains("invalid type")
                {
                    (
                        Code::Schema,
                        "see variants/bollwerk178.toml for every section and key a variant file may have",
                    )
                } else {
                    (
                        Code::Toml,
                        "fix the TOML syntax here; nothing else can be checked until the file parses",
                    )
                };
                self.problem(
                    code,
                    span,
                    format!("the file is not a valid variant: {message}"),
                    "here",
                    help,
                );
                None
            }
        }
    }

    /// Parses every fragment and definition (fragments first, spliced into what uses them).
    fn parse_definitions(&mut self, def: &VariantDef) -> (Vec<Fragment>, Vec<Parsed>) {
        // Parse every definition even without a board, so syntax errors all show. Fragments
        // first, each able to use those above it; then the pieces, with fragments spliced in.
        // Each remembers the fragment names it used, so that a fragment with a mistake is
        // reported once, where it is written, and not again in everything that uses it.
        let mut fragments: Vec<Fragment> = Vec::new();
        for (name, text) in &def.fragments {
            let mut used = Vec::new();
            let node = self.parse_dsl(text).map(|mut n| {
                n.keep_text(text.get_ref());
                splice(n, &fragments, &mut used)
            });
            fragments.push((name.get_ref().clone(), node, used));
        }
        let mut parsed = Vec::new();
        for (_, p) in &def.pieces {
            let mut used = Vec::new();
            let moves = self
                .parse_dsl(&p.moves)
                .map(|n| splice(n, &fragments, &mut used));
            let range = p
                .range
                .as_ref()
                .map(|r| self.parse_dsl(r).map(|n| splice(n, &fragments, &mut used)));
            parsed.push((moves, range, used));
        }

        // A fragment nothing uses is probably a definition that forgot it.
        for (name, _) in &def.fragments {
            let used = parsed.iter().any(|(_, _, u)| u.contains(name.get_ref()))
                || fragments.iter().any(|(_, _, u)| u.contains(name.get_ref()));
            if !used {
                self.problems.push(
                    Diagnostic::error(
                        Code::UnusedFragment,
                        span_of(name),
                        format!("fragment `{}` is used by no definition", name.get_ref()),
                        "never used",
                        "use it by its name in a `moves` or `range` (or a later fragment), or remove it",
                    )
                    .warning(),
                );
            }
        }
        (fragments, parsed)
    }

    /// Compiles every fragment on its own (for its diagnostics) and every piece.
    fn compile_definitions(
        &mut self,
        def: &VariantDef,
        compiler: &mut Compiler<'_>,
        fragments: &[Fragment],
        parsed: Vec<Parsed>,
        pieces_meta: &IndexMap<String, (String, char)>,
    ) -> Vec<PieceKind> {
        // Each fragment compiled on its own, so that a mistake in it is reported once, where it
        // is written; the pieces using a fragment with a mistake are not compiled.
        let mut bad_fragments: Vec<&str> = Vec::new();
        for ((name, text), (_, node, used)) in def.fragments.iter().zip(fragments) {
            let ok = match node {
                None => false,
                Some(_) if used.iter().any(|u| bad_fragments.contains(&u.as_str())) => false,
                Some(n) => self.compile_dsl(compiler, text, n).is_some(),
            };
            if !ok {
                bad_fragments.push(name.get_ref());
            }
        }
        let mut pieces = Vec::new();
        for ((key, p), (moves, range, used)) in def.pieces.iter().zip(parsed) {
            if used.iter().any(|u| bad_fragments.contains(&u.as_str())) {
                continue;
            }
            let moves_prog = moves
                .as_ref()
                .and_then(|n| self.compile_dsl(compiler, &p.moves, n));
            let range_prog = match (&p.range, range) {
                (Some(r), Some(n)) => n.and_then(|n| self.compile_dsl(compiler, r, &n)),
                _ => moves_prog.clone(),
            };
            let attacks = moves
                .as_ref()
                .and_then(|n| compiler.compile_attacks(p.moves.get_ref(), n).ok());
            if let (Some(m), Some(r), Some(attacks)) = (moves_prog, range_prog, attacks) {
                let (name, letter) = pieces_meta.get(key.get_ref()).cloned().unwrap_or_default();
                pieces.push(PieceKind {
                    id: key.get_ref().clone(),
                    name,
                    letter,
                    rulings: p.rulings.clone(),
                    moves_text: dedent(p.moves.get_ref()),
                    range_text: p.range.as_ref().map(|r| dedent(r.get_ref())),
                    moves: m,
                    range: r,
                    attacks,
                    stones_per_turn: 1,
                    removes: Vec::new(),
                    royal: p.royal,
                    en_passant: p.en_passant,
                    en_passant_any_line: self.en_passant_lines(p),
                    changes: Vec::new(),
                    reserve: None,
                    value: None,
                    captures_to_reserve: false,
                    takes_reserve_in: None,
                    picture: None,
                });
            }
        }
        pieces
    }

    /// Whether a piece's two-cell moves along any straight line leave an en-passant cell
    /// (`en-passant-lines = "any"`) rather than only those along its file.
    fn en_passant_lines(&mut self, p: &PieceDef) -> bool {
        let Some(lines) = &p.en_passant_lines else {
            return false;
        };
        let any = match lines.get_ref().as_str() {
            "file" => false,
            "any" => true,
            other => {
                self.problem(
                    Code::EnPassant,
                    span_of(lines),
                    format!("`{other}` is not a setting of `en-passant-lines`"),
                    "not file or any",
                    "write \"file\" (the default: two-cell moves along the file) or \"any\" (any straight line, diagonals included)",
                );
                return false;
            }
        };
        if !p.en_passant {
            self.problem(
                Code::EnPassant,
                span_of(lines),
                "`en-passant-lines` on a piece that does not take part in en passant",
                "no `en-passant = true` on this piece",
                "add `en-passant = true` to the piece, or remove this line",
            );
        }
        any
    }

    /// The starting position, read and checked against the rules.
    fn setup(&mut self, def: &VariantDef, rules: &Ruleset) -> Option<Position> {
        let text = def.setup.position.get_ref();
        match text::parse_position(rules, text) {
            Ok(p) => Some(p),
            Err(e) => {
                let start = self.content_start(span_of(&def.setup.position));
                let (a, b) = e.range.unwrap_or((0, text.len()));
                let (message, help) = if e.field == text::Field::Legality {
                    (
                        format!("the starting position cannot be played: {}", e.message),
                        "give a start that the rules allow: one royal piece a side, the side to move's opponent not in check",
                    )
                } else {
                    (
                        format!("the starting position does not fit the board: {e}"),
                        "write the starting array as position text: ranks from the highest, only the cells each rank has",
                    )
                };
                self.problem(
                    Code::Setup,
                    (start + a, start + b.max(a + 1).min(text.len().max(a))),
                    message,
                    "here",
                    help,
                );
                None
            }
        }
    }

    fn board(&mut self, b: &BoardDef) -> Option<Topology> {
        let (files, files_ok) = self.file_labels(b);
        let ranks = *b.ranks.get_ref();
        if !(1..=64).contains(&ranks) {
            self.problem(
                Code::Board,
                span_of(&b.ranks),
                format!("{ranks} ranks: a board needs between 1 and 64"),
                "rank count",
                "give the number of ranks",
            );
            return None;
        }
        let ranks = usize::try_from(ranks).unwrap_or(1);
        let start = self.content_start(span_of(&b.mask));
        let text = b.mask.get_ref();
        let mut lines: Vec<(usize, &str)> = Vec::new();
        let mut off = 0;
        for line in text.split('\n') {
            let trimmed = line.trim_end_matches('\r');
            let lead = trimmed.len() - trimmed.trim_start().len();
            if !trimmed.trim().is_empty() {
                lines.push((start + off + lead, trimmed.trim()));
            }
            off += line.len() + 1;
        }
        if lines.len() != ranks {
            self.problem(
                Code::Mask,
                span_of(&b.mask),
                format!(
                    "the mask has {} lines but the board has {ranks} ranks",
                    lines.len()
                ),
                "mask",
                "write one line per rank, from the highest rank down: `#` for a cell, `.` for none",
            );
            return None;
        }
        let grid = self.mask_grid(&lines, ranks, files.len());
        let (Some(grid), true) = (grid, files_ok) else {
            return None;
        };
        let topo = Topology::new(files, ranks, |f, r| grid[r][f]);
        if let Some(c) = &b.cells
            && i64::try_from(topo.len()).ok() != Some(*c.get_ref())
        {
            self.problem(
                Code::Mask,
                span_of(&b.mask),
                format!(
                    "the mask has {} cells but `cells` says {}",
                    topo.len(),
                    c.get_ref()
                ),
                "mask",
                "correct the mask or the declared count",
            );
        }
        if topo.is_empty() {
            self.problem(
                Code::Mask,
                span_of(&b.mask),
                "the mask has no cell",
                "mask",
                "mark cells with `#`",
            );
            return None;
        }
        Some(topo)
    }

    /// How the board's cells are coloured (`colours`, default chequered).
    fn colouring(&mut self, b: &BoardDef) -> Colouring {
        match b.colours.as_ref().map(|c| c.get_ref().as_str()) {
            None | Some("chequered") => Colouring::Chequered,
            Some("plain") => Colouring::Plain,
            Some(other) => {
                let span = b.colours.as_ref().map(span_of).unwrap_or_default();
                self.problem(
                    Code::Board,
                    span,
                    format!("unknown colouring `{other}`"),
                    "not a colouring",
                    "write \"chequered\" (cells coloured by file + rank parity) or \"plain\"",
                );
                Colouring::Chequered
            }
        }
    }

    /// `[game] sides`: two distinct names of lower-case letters, first player first.
    fn side_names(&mut self, def: &VariantDef) -> [String; 2] {
        let default = ["white".to_string(), "black".to_string()];
        let Some(s) = &def.game.sides else {
            return default;
        };
        let names: Vec<&String> = s.get_ref().iter().map(|n| n.get_ref()).collect();
        let ok = names.len() == 2
            && names[0] != names[1]
            && names.iter().all(|n| {
                !n.is_empty() && n.len() <= 20 && n.chars().all(|c| c.is_ascii_lowercase())
            });
        if !ok {
            self.problem(
                Code::Board,
                span_of(s),
                "`sides` needs two different names in lower-case letters",
                "not two side names",
                "write e.g. sides = [\"blue\", \"red\"] (the first player first)",
            );
            return default;
        }
        [names[0].clone(), names[1].clone()]
    }

    /// How pictures draw the board (`drawing`, default squares).
    fn drawing(&mut self, b: &BoardDef) -> Drawing {
        match b.drawing.as_ref().map(|c| (c.get_ref().as_str(), c)) {
            None | Some(("squares", _)) => Drawing::Squares,
            Some(("segments", _)) => Drawing::Segments,
            Some(("points", _)) => Drawing::Points,
            Some((other, s)) => {
                self.problem(
                    Code::Board,
                    span_of(s),
                    format!("unknown drawing `{other}`"),
                    "not a drawing",
                    "write \"squares\" (each cell a square), \"segments\" (each cell a segment between lattice points) or \"points\" (each cell a point where lines cross)",
                );
                Drawing::Squares
            }
        }
    }

    /// A `points` drawing's river and diagonals (`[board] river`, `diagonals`).
    fn board_lines(
        &mut self,
        b: &BoardDef,
        drawing: Drawing,
        ranks: usize,
        regions: &[String],
    ) -> BoardLines {
        let mut lines = BoardLines::default();
        let only_points = |key: &str| {
            (
                format!("`{key}` is drawn only on a board of points"),
                "not drawn".to_string(),
                format!("add drawing = \"points\" to [board], or remove `{key}`"),
            )
        };
        if let Some(r) = &b.river {
            let v = *r.get_ref();
            if drawing != Drawing::Points {
                let (m, l, h) = only_points("river");
                self.problem(Code::Board, span_of(r), m, l, h);
            } else if v < 1 || v >= ranks as i64 {
                self.problem(
                    Code::Board,
                    span_of(r),
                    format!("a river after rank {v}: the board's ranks are 1 to {ranks}"),
                    "not between two ranks",
                    format!(
                        "give the rank after which the river runs, 1 to {}",
                        ranks.saturating_sub(1)
                    ),
                );
            } else {
                lines.river = Some(v as u32);
            }
        }
        if let Some(list) = &b.diagonals {
            if drawing != Drawing::Points {
                let (m, l, h) = only_points("diagonals");
                self.problem(Code::Board, span_of(list), m, l, h);
                return lines;
            }
            for name in list.get_ref() {
                if let Some(r) = self.region_named(name.get_ref(), span_of(name), regions) {
                    lines.diagonals.push(r);
                }
            }
        }
        lines
    }

    /// The file labels, and whether they are all usable (1 to 64, letters, distinct).
    fn file_labels(&mut self, b: &BoardDef) -> (Vec<String>, bool) {
        let mut ok = true;
        let files: Vec<String> = b
            .files
            .get_ref()
            .iter()
            .map(|f| f.get_ref().clone())
            .collect();
        if files.is_empty() || files.len() > 64 {
            self.problem(
                Code::Board,
                span_of(&b.files),
                "a board needs between 1 and 64 files",
                "file labels",
                "list the file labels from the lowest file, e.g. [\"a\", \"b\", \"c\"]",
            );
            ok = false;
        }
        for (i, f) in b.files.get_ref().iter().enumerate() {
            let t = f.get_ref();
            if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphabetic()) {
                self.problem(
                    Code::Board,
                    span_of(f),
                    format!("file label `{t}` is not made of letters"),
                    "not a file label",
                    "file labels are letters, so that cell names read as label + rank number",
                );
                ok = false;
            } else if b.files.get_ref()[..i]
                .iter()
                .any(|g| g.get_ref().eq_ignore_ascii_case(t))
            {
                self.problem(
                    Code::Board,
                    span_of(f),
                    format!("file label `{t}` is used twice"),
                    "used again here",
                    "every file needs its own label",
                );
                ok = false;
            }
        }
        (files, ok)
    }

    /// The mask lines (each with its offset in the file) as a grid of cells, rank by rank
    /// from the lowest; `None` after reporting a line of the wrong length or a stray
    /// character.
    fn mask_grid(
        &mut self,
        lines: &[(usize, &str)],
        ranks: usize,
        files: usize,
    ) -> Option<Vec<Vec<bool>>> {
        let mut ok = true;
        let mut grid = vec![vec![false; files]; ranks];
        for (i, (at, line)) in lines.iter().enumerate() {
            let r = ranks - 1 - i;
            if line.chars().count() != files {
                self.problem(
                    Code::Mask,
                    (*at, at + line.len()),
                    format!(
                        "mask line for rank {} has {} characters but the board has {} files",
                        r + 1,
                        line.chars().count(),
                        files
                    ),
                    "wrong length",
                    "write one character per file: `#` for a cell, `.` for none",
                );
                ok = false;
                continue;
            }
            for (f, (bi, ch)) in line.char_indices().enumerate() {
                match ch {
                    '#' => grid[r][f] = true,
                    '.' => {}
                    _ => {
                        self.problem(
                            Code::Mask,
                            (at + bi, at + bi + ch.len_utf8()),
                            format!("`{ch}` is not a mask character"),
                            "not `#` or `.`",
                            "use `#` for a cell and `.` for no cell",
                        );
                        ok = false;
                    }
                }
            }
        }
        ok.then_some(grid)
    }

    fn stones(&mut self, def: &VariantDef) -> Vec<StoneKind> {
        let mut out: Vec<StoneKind> = Vec::new();
        if def.stones.len() > compile::MAX_STONE_KINDS {
            self.problem(
                Code::Stones,
                def.stones
                    .keys()
                    .nth(compile::MAX_STONE_KINDS)
                    .map_or((0, 0), span_of),
                format!(
                    "{} stone kinds: at most {} are supported",
                    def.stones.len(),
                    compile::MAX_STONE_KINDS
                ),
                "the first one too many",
                "occupant filters hold every stone kind in one word: merge kinds that behave alike",
            );
        }
        for (key, s) in &def.stones {
            let sym = s.symbol.get_ref();
            let mut chars = sym.chars();
            let symbol = match (chars.next(), chars.next()) {
                (Some(c), None)
                    if !c.is_alphanumeric()
                        && !c.is_whitespace()
                        && c != '/'
                        && !matches!(c, '-' | '!' | '\'' | '"') =>
                {
                    c
                }
                _ => {
                    self.problem(Code::StoneSymbol, span_of(&s.symbol), format!("stone symbol `{sym}` must be one character that is not a letter, digit, space or one of `/ - ! ' \"`"), "not a usable symbol", "pick a punctuation mark such as ^ ~ # % @");
                    '?'
                }
            };
            if symbol != '?'
                && let Some(other) = out.iter().find(|o| o.symbol == symbol)
            {
                let other = other.id.clone();
                let first = def
                    .stones
                    .get(other.as_str())
                    .map_or((0, 0), |o| span_of(&o.symbol));
                self.problems.push(
                    Diagnostic::error(
                        Code::DuplicateSymbol,
                        span_of(&s.symbol),
                        format!("stone symbol `{symbol}` is already used by `{other}`"),
                        "used twice",
                        "every stone kind needs its own symbol",
                    )
                    .with_label(first, format!("first used here, by `{other}`")),
                );
            }
            let supply = *s.supply.get_ref();
            if !(0..=9999).contains(&supply) {
                self.problem(
                    Code::StoneSupply,
                    span_of(&s.supply),
                    format!("supply {supply} is out of range"),
                    "not 0..=9999",
                    "give how many stones of this kind each side starts with",
                );
            }
            if s.class.get_ref().trim().is_empty() {
                self.problem(
                    Code::StoneClass,
                    span_of(&s.class),
                    "a stone needs an occupant class",
                    "empty",
                    "name its class, e.g. \"arrow-like\"",
                );
            }
            out.push(StoneKind {
                id: key.get_ref().clone(),
                name: s.name.clone().unwrap_or_else(|| key.get_ref().clone()),
                symbol,
                supply: u32::try_from(supply.clamp(0, 9999)).unwrap_or(0),
                class: s.class.get_ref().trim().to_string(),
                collectable: s.collectable,
                explodes: Vec::new(),
                captures: Vec::new(),
                captures_not_by: Vec::new(),
                wins_on: None,
            });
        }
        out
    }

    fn pieces_meta(
        &mut self,
        def: &VariantDef,
        stones: &[StoneKind],
    ) -> IndexMap<String, (String, char)> {
        let mut out: IndexMap<String, (String, char)> = IndexMap::new();
        if def.pieces.len() > compile::MAX_PIECE_KINDS {
            self.problem(
                Code::Pieces,
                def.pieces
                    .keys()
                    .nth(compile::MAX_PIECE_KINDS)
                    .map_or((0, 0), span_of),
                format!(
                    "{} piece kinds: at most {} are supported",
                    def.pieces.len(),
                    compile::MAX_PIECE_KINDS
                ),
                "the first one too many",
                "occupant filters hold every piece kind of each side in one word: merge kinds that move alike",
            );
        }
        let reserved = ["empty", "piece", "stone", "own", "enemy"];
        for (key, p) in &def.pieces {
            let id = key.get_ref();
            if reserved.contains(&id.as_str())
                || stones.iter().any(|s| s.id == *id || s.class == *id)
            {
                self.problem(
                    Code::PieceName,
                    span_of(key),
                    format!("piece name `{id}` is already a stone, class or DSL word"),
                    "ambiguous name",
                    "rename the piece so that filters can tell it apart",
                );
            }
            if !id.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                || !id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                self.problem(
                    Code::PieceName,
                    span_of(key),
                    format!("piece name `{id}` cannot be written in the DSL"),
                    "not a DSL name",
                    "use letters, digits, `-` and `_`, starting with a letter",
                );
            }
            let l = p.letter.get_ref();
            let mut chars = l.chars();
            let letter = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
                _ => {
                    self.problem(Code::PieceLetter, span_of(&p.letter), format!("piece letter `{l}` must be a single letter A–Z"), "not one letter", "position text writes White's pieces in upper case and Black's in lower case");
                    continue;
                }
            };
            if let Some((other, _)) = out.iter().find(|(_, (_, c))| *c == letter) {
                let other = other.clone();
                let first = def
                    .pieces
                    .get(other.as_str())
                    .map_or((0, 0), |o| span_of(&o.letter));
                self.problems.push(
                    Diagnostic::error(
                        Code::DuplicateLetter,
                        span_of(&p.letter),
                        format!("letter `{letter}` is already used by `{other}`"),
                        "used twice",
                        "every piece kind needs its own letter",
                    )
                    .with_label(first, format!("first used here, by `{other}`")),
                );
            }
            out.insert(
                id.clone(),
                (p.name.clone().unwrap_or_else(|| id.clone()), letter),
            );
        }
        out
    }

    fn directions(&mut self, def: &VariantDef) -> Vec<(String, Vec<(i8, i8)>)> {
        let mut out = Vec::new();
        for (key, vs) in &def.directions {
            let mut v = Vec::new();
            for pair in vs.get_ref() {
                match pair.get_ref().as_slice() {
                    [a, b] if (-16..=16).contains(a) && (-16..=16).contains(b) && (*a, *b) != (0, 0) => v.push((i8::try_from(*a).unwrap_or(0), i8::try_from(*b).unwrap_or(0))),
                    _ => self.problem(Code::Direction, span_of(pair), "a direction is [file step, rank step], each between -16 and 16, not both 0", "not a direction", "write e.g. [1, 1] (towards higher files and ranks, for White)"),
                }
            }
            if compile::BUILTIN_DIRECTIONS
                .iter()
                .any(|(n, _)| n == key.get_ref())
            {
                self.problem(
                    Code::Direction,
                    span_of(key),
                    format!("`{}` is a built-in direction", key.get_ref()),
                    "already defined",
                    "pick another name",
                );
            }
            out.push((key.get_ref().clone(), v));
        }
        out
    }

    /// `[classes]` and `[directions-by-class]`: direction sets whose offsets depend on the
    /// class of the cell they start from; vector `j` of a set is each class's `j`-th offset.
    fn classed_directions(&mut self, def: &VariantDef, t: &Topology) -> Vec<ClassedSet> {
        let mut classes: Vec<(String, CellSet)> = Vec::new();
        for (name, cells) in &def.classes {
            let set = self.cell_list(t, cells);
            for (other, o) in &classes {
                if let Some(c) = set.iter().find(|&c| o.contains(c)) {
                    self.problem(
                        Code::Direction,
                        span_of(cells),
                        format!("{} is in class `{other}` too", t.name(c)),
                        "in two classes",
                        "a cell belongs to one class: its direction sets take their offsets from it",
                    );
                }
            }
            classes.push((name.get_ref().clone(), set));
        }
        let mut out = Vec::new();
        for (key, by_class) in &def.directions_by_class {
            if compile::BUILTIN_DIRECTIONS
                .iter()
                .any(|(n, _)| n == key.get_ref())
                || def.directions.keys().any(|k| k.get_ref() == key.get_ref())
            {
                self.problem(
                    Code::Direction,
                    span_of(key),
                    format!("`{}` is already a direction", key.get_ref()),
                    "already defined",
                    "pick another name",
                );
            }
            let mut count: Option<usize> = None;
            let mut offsets: Vec<Vec<Option<(i8, i8)>>> = Vec::new();
            for (class, vs) in by_class {
                let Some((_, cells)) = classes.iter().find(|(n, _)| n == class.get_ref()) else {
                    let known: Vec<&str> = classes.iter().map(|(n, _)| n.as_str()).collect();
                    self.problem(
                        Code::Direction,
                        span_of(class),
                        format!("unknown class `{}`", class.get_ref()),
                        "not a class",
                        format!("declare it in [classes]; known: {}", known.join(", ")),
                    );
                    continue;
                };
                let mut list = Vec::new();
                for pair in vs.get_ref() {
                    match pair.get_ref().as_slice() {
                        [a, b] if (-16..=16).contains(a) && (-16..=16).contains(b) && (*a, *b) != (0, 0) => {
                            list.push((i8::try_from(*a).unwrap_or(0), i8::try_from(*b).unwrap_or(0)));
                        }
                        _ => self.problem(Code::Direction, span_of(pair), "a direction is [file step, rank step], each between -16 and 16, not both 0", "not a direction", "write e.g. [2, 0]"),
                    }
                }
                match count {
                    None => count = Some(list.len()),
                    Some(n) if n != list.len() => self.problem(
                        Code::Direction,
                        span_of(vs),
                        format!("{} offsets here, {n} for the classes before", list.len()),
                        "a different count",
                        "give every class of a set as many offsets: the j-th of each class make the set's j-th direction",
                    ),
                    _ => {}
                }
                for (j, &v) in list.iter().enumerate() {
                    if offsets.len() <= j {
                        offsets.push(vec![None; t.len()]);
                    }
                    for c in cells.iter() {
                        offsets[j][c.index()] = Some(v);
                    }
                }
            }
            out.push(ClassedSet {
                name: key.get_ref().clone(),
                offsets,
            });
        }
        let total: usize = out.iter().map(|s| s.offsets.len()).sum();
        if total > 60 {
            self.problem(
                Code::Direction,
                (0, 0),
                format!("{total} classed directions: at most 60"),
                "too many",
                "merge direction sets",
            );
        }
        out
    }

    fn cell_list(&mut self, t: &Topology, s: &Spanned<String>) -> CellSet {
        let mut set = CellSet::new(t.len());
        let start = self.content_start(span_of(s));
        let text = s.get_ref();
        let mut i = 0;
        for token in text.split(|c: char| c.is_whitespace() || c == ',') {
            let at = start + i;
            i += token.len() + 1;
            if token.is_empty() {
                continue;
            }
            let span = (at, at + token.len());
            let (a, b) = token.split_once('-').unwrap_or((token, token));
            match t.rectangle(a, b) {
                Some(cells) => {
                    let any = !cells.is_empty();
                    for c in cells {
                        set.insert(c);
                    }
                    if !any {
                        self.problem(
                            Code::Region,
                            span,
                            format!("`{token}` holds no cell of the board"),
                            "no cell",
                            "the mask leaves these cells out",
                        );
                    } else if a == b && t.parse_cell(a).is_err() {
                        self.problem(
                            Code::Region,
                            span,
                            format!("`{token}` is not on the board"),
                            "no such cell",
                            "the mask leaves this cell out",
                        );
                    }
                }
                _ => self.problem(
                    Code::Region,
                    span,
                    format!("`{token}` is not a cell or a rectangle of cells"),
                    "not a cell",
                    "write cells like B1 and rectangles like B2-D4, separated by spaces",
                ),
            }
        }
        set
    }

    fn regions(&mut self, def: &VariantDef, t: &Topology) -> Vec<Region> {
        if let Some((k, _)) = def.regions.iter().nth(RegionId::MAX) {
            self.problem(
                Code::Region,
                span_of(k),
                format!(
                    "{} regions: at most {} are supported",
                    def.regions.len(),
                    RegionId::MAX
                ),
                "the first one too many",
                "merge regions, or name rectangles of cells instead",
            );
        }
        def.regions
            .iter()
            .take(RegionId::MAX)
            .map(|(k, r)| Region {
                id: k.get_ref().clone(),
                cells: BySide::new(self.cell_list(t, &r.white), self.cell_list(t, &r.black)),
            })
            .collect()
    }

    fn parse_dsl(&mut self, s: &Spanned<String>) -> Option<dsl::Node> {
        match dsl::parse(s.get_ref()) {
            Ok(n) => Some(n),
            Err(e) => {
                let base = self.content_start(span_of(s));
                self.problem(
                    Code::DslSyntax,
                    (base + e.span.start, base + e.span.end),
                    format!("piece definition syntax: {}", e.message),
                    e.message.clone(),
                    e.help.unwrap_or_else(|| "a definition is legs such as `step(forward) capture`, combined with `|`, sequences, `( )` and `? * + {n,m}`".into()),
                );
                None
            }
        }
    }

    fn compile_dsl(
        &mut self,
        c: &mut Compiler<'_>,
        s: &Spanned<String>,
        n: &dsl::Node,
    ) -> Option<Program> {
        match c.compile(s.get_ref(), n) {
            Ok(p) => Some(p),
            Err(errs) => {
                let base = self.content_start(span_of(s));
                self.problems
                    .extend(errs.into_iter().map(|d: CompileError| d.shifted(base)));
                None
            }
        }
    }

    fn region_ref(&mut self, s: &Spanned<String>, regions: &[String]) -> Option<(Whose, RegionId)> {
        let text = s.get_ref().trim();
        let (whose, name) = match text.split_once(char::is_whitespace) {
            Some(("own", n)) => (Whose::Own, n.trim()),
            Some(("enemy", n)) => (Whose::Enemy, n.trim()),
            _ => {
                self.problem(
                    Code::Placement,
                    span_of(s),
                    format!("`{text}` should be `own REGION` or `enemy REGION`"),
                    "not a region reference",
                    "say whose region: e.g. \"own end-zone\"",
                );
                return None;
            }
        };
        self.region_named(name, span_of(s), regions)
            .map(|r| (whose, r))
    }

    /// The region called `name`, or an `unknown_region` problem at `span` with the closest
    /// name: the one resolver of region names in the file's rules.
    fn region_named(
        &mut self,
        name: &str,
        span: (usize, usize),
        regions: &[String],
    ) -> Option<RegionId> {
        match regions.iter().position(|r| r == name) {
            Some(i) => Some(RegionId::new(i)),
            None => {
                self.problem(
                    Code::UnknownRegion,
                    span,
                    format!("unknown region `{name}`"),
                    "not a region",
                    crate::core::names::suggest(name, regions.iter().map(String::as_str)),
                );
                None
            }
        }
    }

    fn kind_list(&mut self, list: &[Spanned<String>], known: &[String], what: &str) -> Vec<usize> {
        let mut out = Vec::new();
        for s in list {
            match known.iter().position(|k| k == s.get_ref()) {
                Some(i) => out.push(i),
                None => {
                    let code = if what == "stone" {
                        Code::UnknownStone
                    } else {
                        Code::UnknownPiece
                    };
                    self.problem(
                        code,
                        span_of(s),
                        format!("unknown {what} kind `{}`", s.get_ref()),
                        format!("not a {what}"),
                        format!("known: {}", known.join(", ")),
                    );
                }
            }
        }
        out
    }

    fn actions(
        &mut self,
        def: &VariantDef,
        stones: &mut [StoneKind],
        pieces: &mut [PieceKind],
        regions: &[String],
    ) {
        let stone_ids: Vec<String> = stones.iter().map(|s| s.id.clone()).collect();
        let piece_ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        for (k, (_, sd)) in def.stones.iter().enumerate() {
            let explodes = self.kind_list(&sd.explodes, &stone_ids, "stone");
            let captures = self.kind_list(&sd.captures, &piece_ids, "piece");
            let not_by = self.kind_list(&sd.captures_not_by, &piece_ids, "piece");
            let wins_on = sd
                .wins_on
                .as_ref()
                .and_then(|w| self.region_ref(w, regions));
            if let Some(st) = stones.get_mut(k) {
                st.explodes = explodes.into_iter().map(StoneKindId::new).collect();
                st.captures = captures.into_iter().map(PieceKindId::new).collect();
                st.captures_not_by = not_by.into_iter().map(PieceKindId::new).collect();
                st.wins_on = wins_on;
            }
        }
        for (p, (_, pd)) in def.pieces.iter().enumerate() {
            let removes = self.kind_list(&pd.removes, &stone_ids, "stone");
            let per_turn = match &pd.stones_per_turn {
                None => 1,
                Some(n) if (0..=2).contains(n.get_ref()) => u8::try_from(*n.get_ref()).unwrap_or(1),
                Some(n) => {
                    self.problem(
                        Code::StonesPerTurn,
                        span_of(n),
                        format!("{} stones per turn is not supported", n.get_ref()),
                        "not 0, 1 or 2",
                        "a piece may place 0, 1 or 2 stones per turn",
                    );
                    1
                }
            };
            if let Some(pk) = pieces.get_mut(p) {
                pk.removes = removes.into_iter().map(StoneKindId::new).collect();
                pk.stones_per_turn = per_turn;
            }
        }
    }

    fn turn(&mut self, def: &VariantDef) -> TurnRules {
        let mut t = TurnRules::default();
        if let Some(e) = &def.turn.explosions {
            match u32::try_from(*e.get_ref()) {
                Ok(n) if n <= 2 => t.explosions = n,
                _ => self.problem(
                    Code::Turn,
                    span_of(e),
                    format!("`explosions = {}` is out of range", e.get_ref()),
                    "not 0, 1 or 2",
                    "a turn places at most two stones, so it blows up 0, 1 or 2",
                ),
            }
        }
        if let Some(b) = &def.turn.taboo_after_explosion {
            t.taboo_after_explosion = *b.get_ref();
        }
        if let Some(list) = &def.turn.shapes {
            t.shapes = self.shapes(list);
        }
        if let Some(c) = &def.turn.stone_after_move {
            match c.get_ref().as_str() {
                "optional" => {}
                "compulsory" => t.stone_after_move_compulsory = true,
                other => self.problem(
                    Code::Turn,
                    span_of(c),
                    format!("`{other}` is not a setting of `stone-after-move`"),
                    "not optional or compulsory",
                    "write \"optional\" (the default) or \"compulsory\"",
                ),
            }
        }
        for c in &def.turn.compulsory {
            match c.get_ref().as_str() {
                "capture" => t.capture_compulsory = true,
                other => self.problem(
                    Code::Turn,
                    span_of(c),
                    format!("`{other}` is not a kind of turn that can be compulsory"),
                    "not a kind of turn",
                    "write \"capture\": when a turn can capture, a turn must",
                ),
            }
        }
        if let Some(b) = &def.turn.most_captures {
            t.most_captures = *b.get_ref();
        }
        if let Some(c) = &def.turn.captured_leave {
            match c.get_ref().as_str() {
                "at-once" => {}
                "end-of-turn" => t.captured_leave_at_end = true,
                other => self.problem(
                    Code::Turn,
                    span_of(c),
                    format!("`{other}` is not a setting of `captured-leave`"),
                    "not at-once or end-of-turn",
                    "write \"at-once\" (the default, B-16) or \"end-of-turn\"",
                ),
            }
        }
        if let Some(c) = &def.turn.chain_revisits {
            match c.get_ref().as_str() {
                "never" => {}
                "after-capture" => t.revisit_after_capture = true,
                other => self.problem(
                    Code::Turn,
                    span_of(c),
                    format!("`{other}` is not a setting of `chain-revisits`"),
                    "not never or after-capture",
                    "write \"never\" (the default, B-16) or \"after-capture\"",
                ),
            }
        }
        if t.taboo_after_explosion
            && t.explosions > 1
            && let Some(e) = &def.turn.explosions
        {
            self.problem(
                Code::Turn,
                span_of(e),
                "more than one explosion a turn, each leaving a taboo cell",
                "two taboo cells",
                "position text holds one taboo cell: allow one explosion, or set `taboo-after-explosion = false`",
            );
        }
        t
    }

    /// A list of turn shapes (`move`, `move-then-stone`, `stone`).
    fn shapes(&mut self, list: &Spanned<Vec<Spanned<String>>>) -> Shapes {
        let mut sh = Shapes {
            moves: false,
            move_then_stone: false,
            stone_only: false,
        };
        for item in list.get_ref() {
            match item.get_ref().as_str() {
                "move" => sh.moves = true,
                "move-then-stone" => sh.move_then_stone = true,
                "stone" => sh.stone_only = true,
                other => self.problem(
                    Code::Turn,
                    span_of(item),
                    format!("`{other}` is not a kind of turn"),
                    "not a turn shape",
                    "the kinds of turn are \"move\", \"move-then-stone\" and \"stone\"",
                ),
            }
        }
        if !(sh.moves || sh.move_then_stone || sh.stone_only) {
            self.problem(
                Code::Turn,
                span_of(list),
                "no kind of turn is left",
                "empty",
                "name at least one of \"move\", \"move-then-stone\", \"stone\"",
            );
        }
        sh
    }

    fn end(&mut self, def: &VariantDef, regions: &[String]) -> EndRules {
        let mut setting = |v: &Option<Spanned<String>>, what: &str| match v
            .as_ref()
            .map(|s| (s.get_ref().as_str(), span_of(s)))
        {
            None | Some(("loses", _)) => true,
            Some(("ignored", _)) => false,
            Some((other, span)) => {
                self.problem(
                    Code::End,
                    span,
                    format!("`{other}` is not a setting of `{what}`"),
                    "not loses or ignored",
                    "write \"loses\" or \"ignored\"",
                );
                true
            }
        };
        let no_pieces_loses = setting(&def.end.no_pieces, "no-pieces");
        let immobilized_loses = setting(&def.end.immobilized, "immobilized");
        let occupy = def
            .end
            .occupy
            .as_ref()
            .and_then(|o| self.region_ref(o, regions));
        let verdict = |this: &mut Self, v: &Option<Spanned<String>>, default: Verdict| match v
            .as_ref()
            .map(|s| (s.get_ref().as_str(), span_of(s)))
        {
            None => Some(default),
            Some(("loses", _)) => Some(Verdict::Loses),
            Some(("wins", _)) => Some(Verdict::Wins),
            Some(("draw", _)) => Some(Verdict::Draw),
            Some((other, span)) => {
                this.problem(
                    Code::End,
                    span,
                    format!("`{other}` is not a verdict"),
                    "not loses, wins or draw",
                    "write \"loses\", \"wins\" or \"draw\"",
                );
                None
            }
        };
        let checkmate = verdict(self, &def.end.checkmate, Verdict::Loses);
        let stalemate = verdict(self, &def.end.stalemate, Verdict::Draw);
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let kinds = |this: &mut Self, list: &[Spanned<String>]| -> Vec<PieceKindId> {
            this.kind_list(list, &ids, "piece")
                .into_iter()
                .map(PieceKindId::new)
                .collect()
        };
        let mut goals = Vec::new();
        let occupy_by = kinds(self, &def.end.occupy_by);
        if let Some(region) = occupy {
            goals.push(Goal {
                region,
                by: occupy_by,
                verdict: Verdict::Wins,
            });
        }
        for g in &def.goal {
            let region = self.region_ref(&g.region, regions);
            let by = kinds(self, &g.by);
            let v = verdict(self, &g.verdict, Verdict::Wins);
            if let (Some(region), Some(verdict)) = (region, v) {
                goals.push(Goal {
                    region,
                    by,
                    verdict,
                });
            }
        }
        let vanquished = def.end.vanquished.as_ref().map(|v| {
            let none_of = kinds(self, &v.none_of);
            let points_below = v.points_below.as_ref().and_then(|p| {
                let n = *p.get_ref();
                if (1..=1_000_000).contains(&n) {
                    u32::try_from(n).ok()
                } else {
                    self.problem(
                        Code::End,
                        span_of(p),
                        format!("points-below {n}"),
                        "out of range",
                        "write a number of points from 1",
                    );
                    None
                }
            });
            let both = match v.both.as_ref().map(|b| (b.get_ref().as_str(), b)) {
                None | Some(("mover-wins", _)) => BothVanquished::MoverWins,
                Some(("mover-loses", _)) => BothVanquished::MoverLoses,
                Some(("draw", _)) => BothVanquished::Draw,
                Some((other, b)) => {
                    self.problem(
                        Code::End,
                        span_of(b),
                        format!("`{other}` is not a setting of `both`"),
                        "not a verdict",
                        "write \"mover-wins\" (the default), \"mover-loses\" or \"draw\"",
                    );
                    BothVanquished::MoverWins
                }
            };
            Vanquished {
                no_reserve: v.no_reserve,
                none_of,
                points_below,
                no_neutrals: v.no_neutrals,
                both,
            }
        });
        EndRules {
            vanquished,
            goals,
            no_pieces_loses,
            immobilized_loses,
            checkmate,
            stalemate,
        }
    }

    /// Changes of kind: `promotes-in`/`promotes-to` (a compulsory change on reaching a
    /// region) and the `changes` list; and each kind's `reserve`.
    fn changes(&mut self, def: &VariantDef, pieces: &mut [PieceKind], regions: &[String]) {
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let region = |this: &mut Self, r: &Spanned<String>| {
            this.region_named(r.get_ref(), span_of(r), regions)
        };
        for (p, (_, pd)) in def.pieces.iter().enumerate() {
            let mut changes = Vec::new();
            if let Some(n) = &pd.reserve {
                let v = *n.get_ref();
                if !(0..=i64::from(MAX_RESERVE)).contains(&v) {
                    self.problem(
                        Code::Reserve,
                        span_of(n),
                        format!("a reserve of {v} pieces"),
                        "out of range",
                        format!("write a count from 0 to {MAX_RESERVE}"),
                    );
                }
            }
            match &pd.promotes_in {
                None => {
                    if let Some(first) = pd.promotes_to.first() {
                        self.problem(Code::Promotion, span_of(first), "`promotes-to` needs `promotes-in`", "no promotion region", "name the own region where the piece promotes, e.g. promotes-in = \"last-rank\"");
                    }
                }
                Some(r) => {
                    let reg = region(self, r);
                    let to = self.kind_list(&pd.promotes_to, &ids, "piece");
                    if to.is_empty() {
                        self.problem(
                            Code::Promotion,
                            span_of(r),
                            "a promotion needs `promotes-to`",
                            "no choices",
                            "list the piece kinds it may become",
                        );
                    }
                    if let Some(reg) = reg {
                        changes.push(Change {
                            on: Trigger::Reach {
                                region: reg,
                                enter: false,
                            },
                            to: to.into_iter().map(PieceKindId::new).collect(),
                            optional: false,
                        });
                    }
                }
            }
            for c in &pd.changes {
                let on = match c.on.get_ref().as_str() {
                    e @ ("reach" | "enter") => match &c.region {
                        Some(r) => region(self, r).map(|region| Trigger::Reach {
                            region,
                            enter: e == "enter",
                        }),
                        None => {
                            self.problem(
                                Code::Change,
                                span_of(&c.on),
                                format!("a change on `{e}` needs a `region`"),
                                "which region?",
                                "name the own region, e.g. region = \"last-rank\"",
                            );
                            None
                        }
                    },
                    "capture" => Some(Trigger::Capture(
                        self.kind_list(&c.kinds, &ids, "piece")
                            .into_iter()
                            .map(PieceKindId::new)
                            .collect(),
                    )),
                    "check" => Some(Trigger::Check),
                    other => {
                        self.problem(
                            Code::Change,
                            span_of(&c.on),
                            format!("`{other}` is not an event of a change of kind"),
                            "unknown event",
                            "write \"reach\" or \"enter\" (with a region), \"capture\" (with kinds) or \"check\"",
                        );
                        None
                    }
                };
                if matches!(c.on.get_ref().as_str(), "capture" | "check")
                    && let Some(r) = &c.region
                {
                    {
                        self.problem(
                            Code::Change,
                            span_of(r),
                            format!("a change on `{}` has no region", c.on.get_ref()),
                            "not used",
                            "only \"reach\" and \"enter\" take a region; remove it",
                        );
                    }
                }
                if !c.kinds.is_empty()
                    && matches!(c.on.get_ref().as_str(), "reach" | "enter" | "check")
                {
                    self.problem(
                        Code::Change,
                        span_of(&c.kinds[0]),
                        format!("a change on `{}` has no `kinds`", c.on.get_ref()),
                        "not used",
                        "only \"capture\" takes the kinds whose capture counts; remove it",
                    );
                }
                let to = self.kind_list(c.to.get_ref(), &ids, "piece");
                if c.to.get_ref().is_empty() {
                    self.problem(
                        Code::Change,
                        span_of(&c.to),
                        "a change of kind needs the kinds it may become",
                        "empty",
                        "list them, e.g. to = [\"queen\"]",
                    );
                }
                if let Some(on) = on {
                    changes.push(Change {
                        on,
                        to: to.into_iter().map(PieceKindId::new).collect(),
                        optional: c.optional,
                    });
                }
            }
            if let Some(n) = &pd.value {
                let v = *n.get_ref();
                if !(0..=1_000_000).contains(&v) {
                    self.problem(
                        Code::Value,
                        span_of(n),
                        format!("a value of {v}"),
                        "out of range",
                        "write a worth from 0 to 1000000",
                    );
                }
            }
            let to_reserve = match pd.captures_to.as_ref().map(|s| (s.get_ref().as_str(), s)) {
                None | Some(("out", _)) => false,
                Some(("reserve", _)) => true,
                Some((other, s)) => {
                    self.problem(
                        Code::Reserve,
                        span_of(s),
                        format!("`{other}` is not a setting of `captures-to`"),
                        "not out or reserve",
                        "write \"out\" (captured pieces leave the game) or \"reserve\" (passive capture: they go, turned over, into the capturer's reserve)",
                    );
                    false
                }
            };
            let takes = pd
                .takes_reserve_in
                .as_ref()
                .and_then(|r| self.region_ref(r, regions));
            let picture = pd.picture.as_ref().and_then(|s| {
                let found = Picture::named(s.get_ref());
                if found.is_none() {
                    self.problem(
                        Code::Picture,
                        span_of(s),
                        format!("no built-in picture is called `{}`", s.get_ref()),
                        "not a picture",
                        crate::core::names::suggest(
                            s.get_ref(),
                            Picture::ALL.iter().map(|(_, n)| *n),
                        ),
                    );
                }
                found
            });
            if let Some(pk) = pieces.get_mut(p) {
                pk.picture = picture;
                pk.captures_to_reserve = to_reserve;
                pk.takes_reserve_in = takes;
                pk.value = pd
                    .value
                    .as_ref()
                    .and_then(|n| u32::try_from(*n.get_ref()).ok())
                    .filter(|&v| v <= 1_000_000);
                pk.changes = changes;
                pk.reserve = pd
                    .reserve
                    .as_ref()
                    .map(|n| u32::try_from(*n.get_ref()).unwrap_or(0).min(MAX_RESERVE));
            }
        }
    }

    /// `[neutral]`: the neutral kind, its symbol and the directions of influence.
    fn neutral(
        &mut self,
        def: &VariantDef,
        topo: &Topology,
        directions: &[(String, Vec<(i8, i8)>)],
        links: &mut crate::board::LinkTable,
        stones: &[StoneKind],
    ) -> Option<Neutral> {
        let n = def.neutral.as_ref()?;
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let kind = self
            .kind_list(std::slice::from_ref(&n.kind), &ids, "piece")
            .first()
            .map(|&k| PieceKindId::new(k));
        let sym = n.symbol.get_ref();
        let mut chars = sym.chars();
        let symbol = match (chars.next(), chars.next()) {
            (Some(c), None)
                if !c.is_ascii_alphanumeric()
                    && !matches!(c, '/' | '[' | ']' | '-' | ' ')
                    && !stones.iter().any(|s| s.symbol == c) =>
            {
                Some(c)
            }
            _ => {
                self.problem(
                    Code::StoneSymbol,
                    span_of(&n.symbol),
                    format!("`{sym}` cannot mark a neutral piece in position text"),
                    "not usable",
                    "give one character that is no letter, digit, stone symbol, `/`, `[`, `]` or `-`, e.g. \"*\"",
                );
                None
            }
        };
        let mut influence = Vec::new();
        for d in n.influence.get_ref() {
            let name = d.get_ref();
            let vs: Option<Vec<(i8, i8)>> = directions
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .or_else(|| {
                    compile::BUILTIN_DIRECTIONS
                        .iter()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.to_vec())
                })
                .or_else(|| {
                    topo.classed()
                        .find(|(c, _)| &c.name == name)
                        .map(|(c, first)| {
                            (0..c.offsets.len())
                                .map(|j| {
                                    (
                                        crate::board::VIRTUAL0
                                            + i8::try_from(first + j).unwrap_or(i8::MAX - 64),
                                        1,
                                    )
                                })
                                .collect()
                        })
                });
            match vs {
                Some(vs) => {
                    for v in vs {
                        let id = links.intern(topo, v);
                        if !influence.contains(&id) {
                            influence.push(id);
                        }
                    }
                }
                None => self.problem(
                    Code::UnknownDirection,
                    span_of(d),
                    format!("unknown direction `{name}`"),
                    "not a direction",
                    "name a built-in, declared or classed direction set",
                ),
            }
        }
        Some(Neutral {
            kind: kind?,
            symbol: symbol?,
            influence,
            captures_neutral: n.captures_neutral.as_ref().is_none_or(|b| *b.get_ref()),
            gives_check: n.gives_check.as_ref().is_some_and(|b| *b.get_ref()),
        })
    }

    /// `[drops]`: where and which kinds (counted in the reserve) may be dropped.
    fn drops(
        &mut self,
        def: &VariantDef,
        pieces: &[PieceKind],
        regions: &[String],
    ) -> Option<Drops> {
        let d = def.drops.as_ref()?;
        let region = self.region_ref(&d.region, regions);
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let mut kinds: Vec<PieceKindId> = self
            .kind_list(&d.kinds, &ids, "piece")
            .into_iter()
            .map(PieceKindId::new)
            .collect();
        for s in &d.kinds {
            let k = ids.iter().position(|i| i == s.get_ref());
            if k.and_then(|k| pieces.get(k))
                .is_some_and(|p| p.reserve.is_none())
            {
                self.problem(
                    Code::Reserve,
                    span_of(s),
                    format!("`{}` is not kept in the reserve", s.get_ref()),
                    "never in hand",
                    "give the piece a `reserve` (0 for none at the start) so that it can be held and dropped",
                );
            }
        }
        if kinds.is_empty() {
            kinds = pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.reserve.is_some())
                .map(|(k, _)| PieceKindId::new(k))
                .collect();
        }
        region.map(|region| Drops { region, kinds })
    }

    /// `[reserve]`, `[clock]` and `[repetition]`.
    fn history_rules(&mut self, def: &VariantDef) -> (Replaced, Clock, Option<Repetition>) {
        let replaced = match def
            .reserve
            .replaced
            .as_ref()
            .map(|s| (s.get_ref().as_str(), s))
        {
            None | Some(("out", _)) => Replaced::Out,
            Some(("reserve", _)) => Replaced::Reserve,
            Some((other, s)) => {
                self.problem(
                    Code::Reserve,
                    span_of(s),
                    format!("`{other}` is not a setting of `replaced`"),
                    "not out or reserve",
                    "write \"out\" (the replaced piece leaves the game) or \"reserve\" (it goes back to its side's reserve)",
                );
                Replaced::Out
            }
        };
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let c = &def.clock;
        let mut clock = Clock {
            reset_on_capture: c.reset_on.is_none(),
            ..Clock::default()
        };
        for e in c.reset_on.iter().flatten() {
            match e.get_ref().as_str() {
                "capture" => clock.reset_on_capture = true,
                "change" => clock.reset_on_change = true,
                other => self.problem(
                    Code::Clock,
                    span_of(e),
                    format!("`{other}` is not an event that resets the clock"),
                    "unknown event",
                    "write \"capture\" or \"change\"; list piece kinds whose moves reset it in `reset-by`",
                ),
            }
        }
        clock.reset_by = self
            .kind_list(&c.reset_by, &ids, "piece")
            .into_iter()
            .map(PieceKindId::new)
            .collect();
        let verdict = |this: &mut Self, s: &Spanned<String>, illegal_ok: bool, code: Code| match s
            .get_ref()
            .as_str()
        {
            "draw" => Some(EndVerdict::Draw),
            "mover-loses" => Some(EndVerdict::MoverLoses),
            "illegal" if illegal_ok => Some(EndVerdict::Illegal),
            other => {
                this.problem(
                    code,
                    span_of(s),
                    format!("`{other}` is not a verdict here"),
                    "unknown verdict",
                    if illegal_ok {
                        "write \"illegal\", \"draw\" or \"mover-loses\""
                    } else {
                        "write \"draw\" or \"mover-loses\""
                    },
                );
                None
            }
        };
        match (&c.limit, &c.at_limit) {
            (None, None) => {}
            (Some(l), v) => {
                let n = *l.get_ref();
                if !(1..=i64::from(u32::MAX)).contains(&n) {
                    self.problem(
                        Code::Clock,
                        span_of(l),
                        format!("a clock limit of {n}"),
                        "out of range",
                        "write a number of turns from 1",
                    );
                }
                let v = match v {
                    Some(v) => verdict(self, v, false, Code::Clock),
                    None => Some(EndVerdict::Draw),
                };
                if let Some(v) = v {
                    clock.limit = Some((u32::try_from(n).unwrap_or(u32::MAX).max(1), v));
                }
            }
            (None, Some(v)) => self.problem(
                Code::Clock,
                span_of(v),
                "`at-limit` without a `limit`",
                "no limit",
                "add `limit = N` (turns without a reset) or remove this line",
            ),
        }
        let repetition = def.repetition.as_ref().and_then(|r| {
            let n = *r.occurrence.get_ref();
            let v = verdict(self, &r.verdict, true, Code::Repetition);
            if !(2..=1000).contains(&n) {
                self.problem(
                    Code::Repetition,
                    span_of(&r.occurrence),
                    format!("occurrence {n}"),
                    "out of range",
                    "a position repeats from its 2nd occurrence: write 2 (any repetition) up to 1000",
                );
                return None;
            }
            v.map(|verdict| Repetition {
                occurrence: u32::try_from(n).unwrap_or(2),
                verdict,
            })
        });
        (replaced, clock, repetition)
    }

    fn fields(&mut self, def: &VariantDef, stones: bool) -> Vec<PositionField> {
        let Some(f) = &def.notation.fields else {
            return if stones {
                vec![PositionField::Supplies, PositionField::Taboo]
            } else {
                Vec::new()
            };
        };
        let mut out = Vec::new();
        for name in f.get_ref() {
            out.push(match name.as_str() {
                "supplies" => PositionField::Supplies,
                "taboo" => PositionField::Taboo,
                "castling" => PositionField::Castling,
                "en-passant" => PositionField::EnPassant,
                "halfmove" => PositionField::Halfmove,
                "fullmove" => PositionField::Fullmove,
                other => {
                    self.problem(
                        Code::Notation,
                        span_of(f),
                        format!("unknown position field `{other}`"),
                        "unknown field",
                        "fields: supplies, taboo, castling, en-passant, halfmove, fullmove",
                    );
                    continue;
                }
            });
        }
        out
    }

    fn castlings(&mut self, def: &VariantDef, t: &Topology) -> Vec<Castling> {
        let mut out: Vec<Castling> = Vec::new();
        let mut next_right = 0usize;
        let free_any = def.castling.iter().any(|c| c.rights.is_some());
        for c in &def.castling {
            if next_right >= MAX_CASTLINGS {
                self.problem(
                    Code::Castling,
                    span_of(&c.side),
                    format!("more than {MAX_CASTLINGS} castling rights"),
                    "one too many",
                    "a variant may declare at most 32 castling rights (they are bits of one word)",
                );
                break;
            }
            let side = match c.side.get_ref().as_str() {
                "white" => Side::White,
                "black" => Side::Black,
                other => {
                    self.problem(
                        Code::Castling,
                        span_of(&c.side),
                        format!("`{other}` is not a side"),
                        "not white or black",
                        "write \"white\" or \"black\"",
                    );
                    continue;
                }
            };
            if free_any && c.rights.is_none() {
                self.problem(
                    Code::Castling,
                    span_of(&c.side),
                    "a castling with fixed cells beside castlings whose rights name files",
                    "fixed cells",
                    "a variant's castlings are either all declared cell by cell or all free (`rights = \"files\"`)",
                );
                continue;
            }
            if let Some(r) = &c.rights {
                self.free_castling(def, c, r, side, t, &mut next_right, &mut out);
            } else {
                self.fixed_castling(c, side, t, &mut next_right, &mut out);
            }
        }
        out
    }

    /// Names a cell of a castling, or reports it.
    fn castling_cell(&mut self, t: &Topology, s: &Spanned<String>, text: &str) -> Option<Cell> {
        match t.parse_cell(text.trim()) {
            Ok(x) => Some(x),
            Err(e) => {
                self.problem(
                    Code::Castling,
                    span_of(s),
                    e.to_string(),
                    "not a cell",
                    "name a cell of the board",
                );
                None
            }
        }
    }

    /// A castling declared cell by cell.
    fn fixed_castling(
        &mut self,
        c: &CastlingDef,
        side: Side,
        t: &Topology,
        next_right: &mut usize,
        out: &mut Vec<Castling>,
    ) {
        let mut missing = Vec::new();
        for (name, v) in [
            ("letter", &c.letter),
            ("king", &c.king),
            ("king-to", &c.king_to),
            ("empty", &c.empty),
            ("safe", &c.safe),
        ] {
            if v.is_none() {
                missing.push(name);
            }
        }
        for (name, v) in [
            ("partners-on", &c.partners_on),
            ("partner-kind", &c.partner_kind),
            ("high-side-to", &c.high_side_to),
            ("low-side-to", &c.low_side_to),
        ] {
            if let Some(v) = v {
                self.problem(
                    Code::Castling,
                    span_of(v),
                    format!("`{name}` belongs to a free castling"),
                    "without `rights = \"files\"`",
                    "add `rights = \"files\"` for a Chess960-like castling, or remove this key",
                );
            }
        }
        if !missing.is_empty() {
            self.problem(
                Code::Castling,
                span_of(&c.side),
                format!("a castling without {}", missing.join(", ")),
                "incomplete",
                "a castling declared cell by cell needs letter, king, king-to, empty and safe (or `rights = \"files\"` for a free castling)",
            );
            return;
        }
        let (Some(letter), Some(king), Some(king_to), Some(empty), Some(safe)) =
            (&c.letter, &c.king, &c.king_to, &c.empty, &c.safe)
        else {
            return;
        };
        let k = (
            self.castling_cell(t, king, king.get_ref()),
            self.castling_cell(t, king_to, king_to.get_ref()),
        );
        let mut partners = Vec::new();
        let mut bad = false;
        match (&c.rook, &c.rook_to) {
            (Some(r), Some(rt)) => match (
                self.castling_cell(t, r, r.get_ref()),
                self.castling_cell(t, rt, rt.get_ref()),
            ) {
                (Some(a), Some(b)) => partners.push((a, b)),
                _ => bad = true,
            },
            (None, None) => {}
            (Some(s), None) | (None, Some(s)) => {
                self.problem(
                    Code::Castling,
                    span_of(s),
                    "`rook` and `rook-to` go together",
                    "half a partner",
                    "give both the partner's cell and its destination, or list it in `partners` as \"FROM-TO\"",
                );
                bad = true;
            }
        }
        for p in &c.partners {
            match p.get_ref().split_once('-') {
                Some((a, b)) => match (self.castling_cell(t, p, a), self.castling_cell(t, p, b)) {
                    (Some(a), Some(b)) => partners.push((a, b)),
                    _ => bad = true,
                },
                None => {
                    self.problem(
                        Code::Castling,
                        span_of(p),
                        format!("`{}` is not a partner's move", p.get_ref()),
                        "not FROM-TO",
                        "write the partner's cell and destination, e.g. \"a1-c1\"",
                    );
                    bad = true;
                }
            }
        }
        if partners.is_empty() && !bad {
            self.problem(
                Code::Castling,
                span_of(king),
                "a castling without a partner",
                "the royal piece alone",
                "give `rook` and `rook-to`, or `partners = [\"FROM-TO\", …]`",
            );
        }
        let (Some(k0), Some(k1)) = k else {
            return;
        };
        if bad || partners.is_empty() {
            return;
        }
        let empty = self.cell_list(t, empty).iter().collect();
        let safe = self.cell_list(t, safe).iter().collect();
        out.push(Castling {
            side,
            letter: letter.get_ref().chars().next().unwrap_or('?'),
            king: (k0, k1),
            partners,
            empty,
            safe,
            right: u8::try_from(*next_right).unwrap_or(u8::MAX),
            free: None,
            partner_kind: None,
        });
        *next_right += 1;
    }

    /// A free castling (`rights = "files"`): one right per cell a partner may start from,
    /// named by its file; a castling for each flank of the king it may stand on.
    #[allow(clippy::too_many_arguments)]
    fn free_castling(
        &mut self,
        def: &VariantDef,
        c: &CastlingDef,
        rights: &Spanned<String>,
        side: Side,
        t: &Topology,
        next_right: &mut usize,
        out: &mut Vec<Castling>,
    ) {
        if rights.get_ref() != "files" {
            self.problem(
                Code::Castling,
                span_of(rights),
                format!("`{}` is not a kind of castling rights", rights.get_ref()),
                "not files",
                "write \"files\": the castling field names each partner by its file (Shredder-FEN)",
            );
            return;
        }
        for (name, v) in [
            ("letter", &c.letter),
            ("king", &c.king),
            ("king-to", &c.king_to),
            ("rook", &c.rook),
            ("rook-to", &c.rook_to),
            ("empty", &c.empty),
            ("safe", &c.safe),
        ] {
            if let Some(v) = v {
                self.problem(
                    Code::Castling,
                    span_of(v),
                    format!("`{name}` does not go with `rights = \"files\"`"),
                    "fixed cell",
                    "a free castling finds its king and partner in the position: give `partners-on`, `high-side-to` and `low-side-to`",
                );
            }
        }
        if let Some(p) = c.partners.first() {
            self.problem(
                Code::Castling,
                span_of(p),
                "`partners` does not go with `rights = \"files\"`",
                "fixed partner",
                "a free castling has one partner, found on one of the `partners-on` cells",
            );
        }
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let partner_kind = c.partner_kind.as_ref().and_then(|k| {
            self.kind_list(std::slice::from_ref(k), &ids, "piece")
                .first()
                .map(|&i| PieceKindId::new(i))
        });
        let Some(on) = &c.partners_on else {
            self.problem(
                Code::Castling,
                span_of(rights),
                "a free castling without `partners-on`",
                "where may partners stand?",
                "name the cells a partner may start from, e.g. partners-on = \"a1-h1\"",
            );
            return;
        };
        let cells: Vec<Cell> = self.cell_list(t, on).iter().collect();
        let dest =
            |this: &mut Self, v: &Option<Spanned<String>>, name: &str| -> Option<(Cell, Cell)> {
                let Some(v) = v else {
                    this.problem(
                    Code::Castling,
                    span_of(rights),
                    format!("a free castling without `{name}`"),
                    "missing",
                    format!(
                        "give the king's and the partner's destinations, e.g. {name} = \"g1 f1\""
                    ),
                );
                    return None;
                };
                let parts: Vec<&str> = v.get_ref().split_whitespace().collect();
                if parts.len() != 2 {
                    this.problem(
                        Code::Castling,
                        span_of(v),
                        format!("`{}` is not two cells", v.get_ref()),
                        "KING-TO PARTNER-TO",
                        "write the king's destination, then the partner's, e.g. \"g1 f1\"",
                    );
                    return None;
                }
                Some((
                    this.castling_cell(t, v, parts[0])?,
                    this.castling_cell(t, v, parts[1])?,
                ))
            };
        let high = dest(self, &c.high_side_to, "high-side-to");
        let low = dest(self, &c.low_side_to, "low-side-to");
        let (Some(high), Some(low)) = (high, low) else {
            return;
        };
        for cell in cells {
            if *next_right >= MAX_CASTLINGS {
                self.problem(
                    Code::Castling,
                    span_of(on),
                    format!("more than {MAX_CASTLINGS} castling rights"),
                    "too many cells",
                    "a variant may declare at most 32 castling rights (they are bits of one word)",
                );
                return;
            }
            let label = t.file_label(t.layout(cell).0);
            let letter = label.chars().next().unwrap_or('?');
            let letter = if side == Side::White {
                letter.to_ascii_uppercase()
            } else {
                letter.to_ascii_lowercase()
            };
            for (flank, (king_to, partner_to)) in [(Flank::High, high), (Flank::Low, low)] {
                out.push(Castling {
                    side,
                    letter,
                    king: (cell, king_to),
                    partners: vec![(cell, partner_to)],
                    empty: Vec::new(),
                    safe: Vec::new(),
                    right: u8::try_from(*next_right).unwrap_or(u8::MAX),
                    free: Some(flank),
                    partner_kind,
                });
            }
            *next_right += 1;
        }
    }

    fn placement(&mut self, def: &VariantDef, regions: &[String], stones: &[String]) -> Placement {
        let mut p = Placement::default();
        for f in &def.placement.forbidden {
            if let Some(r) = self.region_ref(f, regions) {
                p.forbidden.push(r);
            }
        }
        for o in &def.placement.only {
            let r = self.region_ref(&o.region, regions);
            let mut kinds = Vec::new();
            for s in &o.stones {
                match stones.iter().position(|k| k == s.get_ref()) {
                    Some(i) => kinds.push(StoneKindId::new(i)),
                    None => self.problem(
                        Code::UnknownStone,
                        span_of(s),
                        format!("unknown stone kind `{}`", s.get_ref()),
                        "not a stone",
                        format!("known: {}", stones.join(", ")),
                    ),
                }
            }
            if let Some((w, r)) = r {
                p.only.push((w, r, kinds));
            }
        }
        p
    }
}
