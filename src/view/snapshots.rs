//! Text snapshots of every diagram of a rule set, stored as insta's `.snap` files so that the
//! same folder can be reviewed with `bulwark snapshots` or with `cargo insta`.
//!
//! A rule set's diagrams are: each piece alone on an empty board (on the central cell), each
//! piece from each of its start cells, and every scenario. The names are stable, so a tweak's
//! diagrams line up with the diagrams of the variant it extends.

use std::path::Path;
use std::sync::Arc;

use crate::core::{PieceKindId, Side};
use crate::position::{Occupant, Position};
use crate::rules::Ruleset;

use super::rulebook::{self, Scenario};
use super::{diagram_text, diagram_under};
use crate::vm::Stop;

/// A snapshot folder or file that could not be read or written, with its path.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct SnapshotError {
    /// The folder or file.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

fn failed(path: &Path, e: impl std::fmt::Display) -> SnapshotError {
    SnapshotError {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// One diagram: its snapshot name and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// `PIECE-empty-board`, `PIECE-start-CELL` or `scenario-NAME`.
    pub name: String,
    /// The diagram as text (what `bulwark diagram` prints).
    pub text: String,
}

/// Every diagram of `rules`: each piece on an empty board and from its start cells, then every
/// scenario (with the scenario's caption, and a line for each claim the diagram contradicts).
/// Their programs run under `stop`, if given.
pub fn diagrams(
    rules: &Ruleset,
    scenarios: &[Scenario],
    stop: Option<&Arc<Stop>>,
) -> Vec<Snapshot> {
    let mut out = Vec::new();
    let centre = rulebook::central_cell(rules);
    for (k, p) in rules.pieces.iter().enumerate() {
        let kind = PieceKindId::new(k);
        let mut pos = Position::empty(rules.topo.len(), rules.initial_hand());
        pos.put(centre, Occupant::piece(Side::White, kind));
        let text = match diagram_under(rules, &pos, centre, stop) {
            Ok(d) => diagram_text(rules, &pos, &d),
            Err(e) => format!("not drawn: {e}"),
        };
        out.push(Snapshot {
            name: file_safe(&format!("{}-empty-board", p.id)),
            text,
        });
        for c in rules.topo.cells() {
            if rules.setup.at(c) == Occupant::piece(Side::White, kind) {
                let text = match diagram_under(rules, &rules.setup, c, stop) {
                    Ok(d) => diagram_text(rules, &rules.setup, &d),
                    Err(e) => format!("not drawn: {e}"),
                };
                out.push(Snapshot {
                    name: file_safe(&format!("{}-start-{}", p.id, rules.topo.name(c))),
                    text,
                });
            }
        }
    }
    for s in scenarios {
        let text = match rulebook::prepare(rules, s, stop) {
            Ok(p) => {
                let mut t = format!(
                    "{}\n\n{}",
                    s.caption.trim(),
                    diagram_text(rules, &p.pos, &p.diagram)
                );
                for w in rulebook::contradictions(rules, s, &p) {
                    t.push_str(&format!("\nCONTRADICTED: {w}"));
                }
                t
            }
            Err(e) => format!("not drawn: {e}"),
        };
        out.push(Snapshot {
            name: file_safe(&format!("scenario-{}", s.name)),
            text,
        });
    }
    out
}

/// A snapshot name fit to be a file name in any folder: letters, digits, `-` and `_` kept,
/// anything else (a `/`, a `.`, a space) written as `-`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// The contents of a `.snap` file in insta's format: a short header, then the text.
pub fn snap_file(s: &Snapshot) -> String {
    format!(
        "---\nsource: bulwark snapshots\nexpression: {}\n---\n{}\n",
        s.name,
        s.text.trim_end()
    )
}

/// The text stored in a `.snap` file (what follows its header), without trailing blank space.
/// A file without insta's header is taken whole.
pub fn snap_body(file: &str) -> String {
    let file = file.replace("\r\n", "\n");
    let body = match file.strip_prefix("---\n") {
        Some(rest) => rest.split_once("\n---\n").map_or(rest, |(_, b)| b),
        None => &file,
    };
    body.trim_end().to_string()
}

/// How one diagram stands against the stored snapshots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// As stored.
    Same,
    /// Stored, and the diagram now differs: the stored text.
    Changed(String),
    /// Not stored yet.
    New,
    /// Stored, but the rule set no longer draws it: the stored text.
    Gone(String),
}

/// Each diagram with its status, in the order drawn, then the stored snapshots no longer drawn
/// (by name). Only `*.snap` files directly in `dir` are read; a missing folder holds none.
pub fn compare(dir: &Path, drawn: &[Snapshot]) -> Result<Vec<(Snapshot, Status)>, SnapshotError> {
    let mut stored = std::collections::BTreeMap::new();
    match std::fs::read_dir(dir) {
        Ok(entries) => {
            for e in entries {
                let path = e.map_err(|e| failed(dir, e))?.path();
                if path.extension().is_some_and(|x| x == "snap")
                    && let Some(stem) = path.file_stem()
                {
                    let text = crate::core::file::read_text(&path, MAX_SNAPSHOT_BYTES)
                        .map_err(|e| failed(&path, e))?;
                    stored.insert(stem.to_string_lossy().into_owned(), snap_body(&text));
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(failed(dir, e)),
    }
    let mut out = Vec::new();
    for s in drawn {
        let status = match stored.remove(&s.name) {
            None => Status::New,
            Some(old) if old == s.text.trim_end() => Status::Same,
            Some(old) => Status::Changed(old),
        };
        out.push((s.clone(), status));
    }
    for (name, old) in stored {
        out.push((
            Snapshot {
                name,
                text: String::new(),
            },
            Status::Gone(old),
        ));
    }
    Ok(out)
}

/// The largest `.snap` file read (a diagram of a large board is a few kilobytes).
pub const MAX_SNAPSHOT_BYTES: u64 = 1 << 20;

/// Stores `compared` in `dir`: every drawn diagram written (the folder made if need be), every
/// snapshot no longer drawn removed. Nothing outside `dir` is touched.
pub fn accept(dir: &Path, compared: &[(Snapshot, Status)]) -> Result<(), SnapshotError> {
    std::fs::create_dir_all(dir).map_err(|e| failed(dir, e))?;
    for (s, status) in compared {
        let path = dir.join(format!("{}.snap", s.name));
        match status {
            Status::Same => {}
            Status::Changed(_) | Status::New => {
                std::fs::write(&path, snap_file(s)).map_err(|e| failed(&path, e))?;
            }
            Status::Gone(_) => std::fs::remove_file(&path).map_err(|e| failed(&path, e))?,
        }
    }
    Ok(())
}

/// A line diff of `old` against `new`, `-` for removed lines and `+` for added ones, with up
/// to two lines of context around each change.
pub fn line_diff(old: &str, new: &str) -> String {
    // Both end with a line break, so that a last line that only gained one is no change.
    let (old, new) = (
        format!("{}\n", old.trim_end()),
        format!("{}\n", new.trim_end()),
    );
    let diff = similar::TextDiff::from_lines(&old, &new);
    let mut out = String::new();
    for group in diff.grouped_ops(2) {
        for op in group {
            for change in diff.iter_changes(&op) {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                    similar::ChangeTag::Equal => ' ',
                };
                out.push(sign);
                out.push_str(change.value().trim_end_matches('\n'));
                out.push('\n');
            }
        }
        out.push_str("  ...\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snap_file_reads_back_as_its_text() {
        let s = Snapshot {
            name: "rook-empty-board".into(),
            text: "Rook (R) on D4\n  . x .\n".into(),
        };
        assert_eq!(snap_body(&snap_file(&s)), s.text.trim_end());
        // insta's own header, with a quoted expression, reads the same way.
        let insta = "---\nsource: tests/designer.rs\nexpression: \"view::diagram_text(&rules, &pos, &d)\"\n---\nRook (R) on D4\n  . x .\n";
        assert_eq!(snap_body(insta), s.text.trim_end());
    }

    #[test]
    fn snapshot_names_never_leave_their_folder() {
        assert_eq!(
            file_safe("scenario-../../etc/passwd"),
            "scenario-------etc-passwd"
        );
        assert_eq!(file_safe("rook-start-A1"), "rook-start-A1");
    }

    #[test]
    fn the_line_diff_marks_removed_and_added_lines() {
        let d = line_diff("a\nb\nc\n", "a\nB\nc\n");
        assert!(d.contains("-b\n"), "{d}");
        assert!(d.contains("+B\n"), "{d}");
        assert!(d.contains(" a\n"), "{d}");
    }
}
