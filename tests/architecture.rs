//! The layers of the crate and the one direction of their dependencies (ARCHITECTURE.md): a
//! module may name its own layer and the layers below it, never one above. Read from the
//! source: every `crate::LAYER` path outside comments and unit tests.

use std::collections::BTreeSet;
use std::path::Path;

/// The layers, lowest first. Each is a top-level module of `src/` (a file or a folder).
const LAYERS: &[&str] = &[
    "core",
    "board",
    "position",
    "dsl",
    "compile",
    "rules",
    "vm",
    "play",
    "text",
    "load",
    "view",
    "search",
    "uci",
    "serve",
    "selfcheck",
];

fn layer_of(path: &Path, src: &Path) -> Option<&'static str> {
    let rel = path.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    LAYERS.iter().copied().find(|l| *l == name)
}

/// The source without comments and without `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The layers a module's code names: `crate::X` and `crate::{X, Y}`.
fn references(code: &str) -> BTreeSet<String> {
    let mut refs = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    refs.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            refs.insert(name);
        }
    }
    refs
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_module_belongs_to_a_layer_and_imports_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap().display().to_string();
        // The crate root and the command line (a separate crate) sit above every layer.
        if ["lib.rs", "main.rs", "terminal.rs"].contains(&rel.as_str()) {
            continue;
        }
        let Some(layer) = layer_of(f, &src) else {
            wrong.push(format!("{rel}: not in any layer of {LAYERS:?}"));
            continue;
        };
        let own = LAYERS.iter().position(|l| *l == layer).unwrap();
        let text = std::fs::read_to_string(f).unwrap();
        for r in references(&code(&text)) {
            match LAYERS.iter().position(|l| *l == r) {
                Some(i) if i > own => {
                    wrong.push(format!("{rel} ({layer}) uses crate::{r}, a higher layer"));
                }
                // Its own layer or one below; a crate-root re-export (`crate::Ruleset`, no
                // layer) names the facade.
                Some(_) | None => {}
            }
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

#[test]
fn the_checker_sees_an_upward_import() {
    let refs = references(&code(
        "use crate::{board, play::Game};\n// crate::view in a comment\nfn f() { crate::vm::x(); }\n#[cfg(test)]\nmod tests { use crate::load; }\n",
    ));
    assert_eq!(
        refs.into_iter().collect::<Vec<_>>(),
        ["board", "play", "vm"]
    );
}
