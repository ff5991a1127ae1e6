//! Variant files: TOML text → [`VariantDef`] (as read) → [`Ruleset`] (checked and compiled).
//! Every problem found is reported, each as a miette diagnostic with a span into the file.
//!
//! The loader is the top of the engine: it reads the file with the help of every layer below
//! it (the DSL, the compiler, position text, the position checks of play) and is the only
//! code that knows TOML.

mod board;
mod castling;
mod diagnostics;
pub mod extends;
pub mod format;
mod pieces;
mod play;
mod schema;
mod words;

pub use schema::reference as format_reference;

use indexmap::IndexMap;
use miette::NamedSource;
use toml::Spanned;

pub use self::diagnostics::{LoadError, Problem, VariantErrors};
pub use self::format::*;
use crate::board::{Cell, CellSet, ClassedSet, Topology};
use crate::compile::{self, CompileError, Compiler, Names, Program};
use crate::core::{BySide, Code, Diagnostic, Severity, Side};
use crate::core::{PieceKindId, RegionId, StoneKindId};
use crate::dsl;
use crate::position::Position;
use crate::rules::{
    Bare, Blast, BoardLines, BothVanquished, Castling, Change, Clock, Colouring, Drawing, Drops,
    EndRules, Flank, Goal, Identity, LetterMark, MAX_RESERVE, Neutral, Picture, PieceKind,
    Placement, PositionField, Region, Repetition, Replaced, Ruleset, Shapes, StoneKind, Trigger,
    TurnRules, Vanquished, Verdict, Whose,
};
use crate::text;

/// Largest variant file read, in bytes (the bundled ones are under 16 KiB).
pub const MAX_VARIANT_BYTES: usize = 1 << 20;

/// Most problems one diagnostic report shows; the count of the rest is given.
pub const MAX_PROBLEMS_SHOWN: usize = 50;

/// Most castlings a variant may declare: their rights are the bits of a `u32`.
pub const MAX_CASTLINGS: usize = 32;

/// Which text a bundled name reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BundledCopy {
    /// The copy built into bulwark.
    #[default]
    BuiltIn,
    /// `variants/NAME.toml` of the current directory when that file exists and differs from
    /// the built-in copy (the command line's choice, so that editing a checkout's variant file
    /// takes effect without a rebuild); else the built-in copy.
    Checkout,
}

/// How a load reads the files a variant names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Which files its `extends` may name.
    pub parents: Parents,
    /// Which text a bundled name reads.
    pub bundled: BundledCopy,
}

impl LoadOptions {
    /// The command line's options: any file, and an edited checkout copy of a bundled name.
    pub fn command_line() -> LoadOptions {
        LoadOptions {
            parents: Parents::Anywhere,
            bundled: BundledCopy::Checkout,
        }
    }
}

/// A variant's text as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantText {
    /// The name that labels it in diagnostics (a file's path, or `NAME.toml`).
    pub name: String,
    /// The text.
    pub text: String,
    /// Why this text and not the built-in one, when a bundled name read an edited checkout
    /// copy (see [`BundledCopy::Checkout`]).
    pub note: Option<String>,
}

/// The bundled variant files, by name.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "bollwerk178",
        include_str!("../../variants/bollwerk178.toml"),
    ),
    ("chess", include_str!("../../variants/chess.toml")),
    ("chess960", include_str!("../../variants/chess960.toml")),
    ("3check", include_str!("../../variants/3check.toml")),
    ("atomic", include_str!("../../variants/atomic.toml")),
    ("shatranj", include_str!("../../variants/shatranj.toml")),
    ("courier", include_str!("../../variants/courier.toml")),
    ("grand", include_str!("../../variants/grand.toml")),
    ("crazyhouse", include_str!("../../variants/crazyhouse.toml")),
    ("shogi", include_str!("../../variants/shogi.toml")),
    ("minishogi", include_str!("../../variants/minishogi.toml")),
    ("5check", include_str!("../../variants/5check.toml")),
    ("extinction", include_str!("../../variants/extinction.toml")),
    ("horde", include_str!("../../variants/horde.toml")),
    (
        "racingkings",
        include_str!("../../variants/racingkings.toml"),
    ),
    ("xiangqi", include_str!("../../variants/xiangqi.toml")),
    ("janggi", include_str!("../../variants/janggi.toml")),
    ("draughts", include_str!("../../variants/draughts.toml")),
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
        Ruleset::load_with(arg, &LoadOptions::default(), &mut Vec::new())
    }

    /// Loads a bundled variant by name, or a file by path, reading as `options` say, with its
    /// warnings. Which files were read for bundled names, when one was an edited checkout copy,
    /// goes to `notes`, whether or not the load succeeds.
    pub fn load_with(
        arg: &str,
        options: &LoadOptions,
        notes: &mut Vec<String>,
    ) -> Result<(Ruleset, Option<VariantErrors>), LoadError> {
        let read = read_variant(arg, options.bundled)?;
        notes.extend(read.note);
        Ruleset::from_source_with(&read.name, &read.text, options, notes)
            .map_err(LoadError::Invalid)
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
        let options = LoadOptions {
            parents: parents.clone(),
            bundled: BundledCopy::BuiltIn,
        };
        Ruleset::from_source_with(name, text, &options, &mut Vec::new())
    }

    /// Checks and compiles variant text, reading the files its `extends` names as `options`
    /// say, with its warnings; notes about the files read go to `notes` (see
    /// [`Ruleset::load_with`]).
    pub fn from_source_with(
        name: &str,
        text: &str,
        options: &LoadOptions,
        notes: &mut Vec<String>,
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
        let read_notes = std::cell::RefCell::new(Vec::new());
        let read = |from: &str, parent: &str| {
            options
                .parents
                .read(options.bundled, &read_notes, name, from, parent)
        };
        let resolved = extends::resolve(name, text, &read).map_err(|e| *e);
        notes.append(&mut read_notes.into_inner());
        let chain = match resolved {
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
    /// A bundled name reads the text `copy` says; a note about it goes to `notes`.
    fn read(
        &self,
        copy: BundledCopy,
        notes: &std::cell::RefCell<Vec<String>>,
        top: &str,
        from: &str,
        parent: &str,
    ) -> Result<extends::Found, String> {
        use std::path::{Component, Path, PathBuf};
        let bundled = |name: &str| {
            read_variant(name, copy)
                .map(|read| {
                    notes.borrow_mut().extend(read.note);
                    extends::Found {
                        name: read.name,
                        text: read.text,
                        arg: name.to_string(),
                    }
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
                    e @ LoadError::Invalid(_) => e.to_string(),
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

/// The text of a bundled variant (as `copy` says), or of a file read with the size limit.
pub fn read_variant(arg: &str, copy: BundledCopy) -> Result<VariantText, LoadError> {
    let plain = |name: String, text: String| VariantText {
        name,
        text,
        note: None,
    };
    // `builtin:NAME` is always the copy built into bulwark, even in an edited checkout.
    if let Some(name) = arg.strip_prefix(BUILTIN_PREFIX) {
        return match BUNDLED.iter().find(|(n, _)| *n == name) {
            Some((name, text)) => Ok(plain(
                format!("{BUILTIN_PREFIX}{name}.toml"),
                (*text).to_string(),
            )),
            None => Err(LoadError::Io {
                path: arg.to_string(),
                message: "no variant of that name is built into bulwark".into(),
                known: bundled_names_for(arg),
            }),
        };
    }
    if let Some((name, text)) = BUNDLED.iter().find(|(n, _)| *n == arg) {
        // In a checkout, an edited `variants/NAME.toml` wins over the built-in copy.
        if copy == BundledCopy::Checkout {
            let path = format!("variants/{name}.toml");
            if let Ok(disk) =
                crate::core::file::read_text(std::path::Path::new(&path), MAX_VARIANT_BYTES as u64)
                && disk != *text
            {
                let note =
                    format!("read {path}: it differs from the copy of `{name}` built into bulwark");
                return Ok(VariantText {
                    name: path,
                    text: disk,
                    note: Some(note),
                });
            }
        }
        return Ok(plain(format!("{name}.toml"), (*text).to_string()));
    }
    read_variant_file(arg).map(|text| plain(arg.to_string(), text))
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

impl Loader<'_> {
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

    /// The value of a word-valued key (see [`words`]): `None`, with a problem reported, for
    /// a word that is none of its words.
    fn word<W: words::Word>(&mut self, v: &Spanned<String>) -> Option<W> {
        let w = v.get_ref().as_str();
        if let Some(value) = W::read(w) {
            return Some(value);
        }
        let help = match crate::core::names::closest(w, W::WORDS.iter().map(|(k, _)| *k)) {
            Some(close) => format!("did you mean `{close}`? {}", W::HELP),
            None => W::HELP.to_string(),
        };
        self.problem(W::CODE, span_of(v), W::misread(w), W::LABEL, help);
        None
    }

    /// The values of a key whose value is a list of words, misread ones reported and left
    /// out.
    fn words<W: words::Word>(&mut self, list: &[Spanned<String>]) -> Vec<W> {
        list.iter().filter_map(|v| self.word(v)).collect()
    }

    /// The value of an optional word-valued key: its default when absent or misread.
    fn word_or_default<W: words::Word>(&mut self, v: Option<&Spanned<String>>) -> W {
        v.and_then(|v| self.word(v)).unwrap_or_else(W::default_word)
    }

    /// Byte offset in the file of the first content character of a string value.
    fn content_start(&self, span: (usize, usize)) -> usize {
        let text = &self.src[span.0..span.1.min(self.src.len())];
        let skip = if text.starts_with("'''") || text.starts_with("\"\"\"") {
            let rest = &text[3..];
            3 + if rest.starts_with("\r\n") {
                2
            } else {
                usize::from(rest.starts_with('\n'))
            }
        } else {
            usize::from(text.starts_with('\'') || text.starts_with('"'))
        };
        span.0 + skip
    }

    fn load(&mut self) -> Option<Ruleset> {
        let def = self.read_def()?;
        let topo = self.topology(&def);
        let colouring = self.colouring(&def.board);
        let drawing = self.drawing(&def.board);
        let mut stones = self.stones(&def);
        let pieces_meta = self.pieces_meta(&def, &stones);
        let directions = self.directions(&def);
        let regions = topo.as_ref().map(|t| self.regions(&def, t));

        // Names for the compiler.
        let piece_ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let stone_ids: Vec<String> = stones.iter().map(|s| s.id.clone()).collect();
        let classes: Vec<String> = stones.iter().map(|s| s.class.clone()).collect();
        let region_ids = region_ids(&def);
        let lines = self.board_lines(
            &def.board,
            drawing,
            topo.as_ref().map_or(0, super::board::Topology::ranks),
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
        if self.has_errors()
            || pieces.len() != def.pieces.len()
            || pieces_meta.len() != def.pieces.len()
        {
            return None;
        }
        self.actions(&def, &mut stones, &mut pieces, &region_ids);
        let mut end = self.end(&def, &region_ids);
        self.pass_endings(&def, &directions, &mut end);
        let turn = self.turn(&def);
        self.changes(&def, &mut pieces, &region_ids);
        let (replaced, clock, repetition) = self.history_rules(&def);
        let fields = self.fields(&def, !stones.is_empty());
        let castlings = self.castlings(&def, &topo);
        let drops = self.drops(&def, &pieces, &region_ids);
        let (neutral, blast) = (
            self.neutral(&def, &topo, &directions, &mut links, &stones),
            self.blast(&def, &topo, &directions, &mut links),
        );
        let (side_names, without_royal) = (self.side_names(&def), self.without_royal(&def));
        if self.has_errors() {
            return None;
        }
        let mut rules = Ruleset {
            identity: Identity::new(),
            piece_shapes: self.piece_shapes(&def, turn.shapes),
            extends: None,
            warnings: Vec::new(),
            side_names,
            without_royal,
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
            setup: Position::empty(0, Vec::new()),
            placement,
            end,
            turn,
            fields,
            castlings,
            replaced,
            clock,
            repetition,
            drops,
            neutral,
            blast,
            derived: crate::rules::Derived::default(),
        };
        rules.derive_tables();
        rules.setup = self.setup(&def, &rules)?;
        Some(rules)
    }

    /// The board with its classed direction sets.
    fn topology(&mut self, def: &VariantDef) -> Option<Topology> {
        let mut topo = self.board(&def.board)?;
        let sets = self.classed_directions(def, &topo);
        topo.set_classed(sets);
        Some(topo)
    }

    /// Per piece kind, the kinds of turn it has: its `turns`, else `[turn]`'s.
    fn piece_shapes(&mut self, def: &VariantDef, default: Shapes) -> Vec<Shapes> {
        def.pieces
            .values()
            .map(|p| match &p.turns {
                Some(list) => self.shapes(list),
                None => default,
            })
            .collect()
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
                let span = e.span().map_or((0, 0), |r| {
                    (
                        r.start,
                        r.end.max(r.start + 1).min(part.text.len().max(r.start)),
                    )
                });
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
        self.deserialize(doc)
    }

    /// The checked document read into the serde structs; a mismatch serde finds that the
    /// key tables did not is reported here.
    fn deserialize(&mut self, doc: toml::Spanned<toml::de::DeTable<'_>>) -> Option<VariantDef> {
        let whole = toml::Spanned::new(
            0..self.src.len(),
            toml::de::DeValue::Table(doc.into_inner()),
        );
        match <VariantDef as serde::Deserialize>::deserialize(toml::de::ValueDeserializer::from(
            whole,
        )) {
            Ok(d) => Some(d),
            Err(e) => {
                let span = e.span().map_or((0, 0), |r| {
                    (
                        r.start,
                        r.end.max(r.start + 1).min(self.src.len().max(r.start)),
                    )
                });
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
}

/// The regions' names in the file's order (as many as region ids can number).
fn region_ids(def: &VariantDef) -> Vec<String> {
    def.regions
        .keys()
        .take(RegionId::MAX)
        .map(|k| k.get_ref().clone())
        .collect()
}
