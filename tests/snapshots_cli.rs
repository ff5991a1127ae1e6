//! `bulwark snapshots FILE [--accept] [--dir DIR]`: a tweak's diagrams kept as text snapshots
//! beside it, with the real binary in a folder of its own.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh folder holding a copy of an example tweak.
fn workspace(name: &str, example: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(example),
        dir.join("tweak.toml"),
    )
    .unwrap();
    dir
}

/// Every file under `dir`, relative to it, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn new_then_accepted_then_unchanged_then_every_change_printed() {
    let dir = workspace("snapshots-cycle", "examples/guard-captures-sideways.toml");
    // First run: nothing stored, every diagram new; the changed one shown against the parent.
    let first = run(&dir, &["snapshots", "tweak.toml"]);
    assert_eq!(first.status.code(), Some(1), "{}", stdout(&first));
    let text = stdout(&first);
    assert!(
        text.contains("new: guard-empty-board (against bollwerk178):"),
        "{text}"
    );
    assert!(
        text.contains("new: knight-empty-board (the same as in bollwerk178)"),
        "{text}"
    );
    assert!(
        text.contains("0 unchanged, 0 changed, 45 new, 0 gone"),
        "{text}"
    );
    assert_eq!(
        files(&dir),
        ["tweak.toml"],
        "a run without --accept writes nothing"
    );

    // --accept stores one insta .snap file per diagram beside the tweak, and nothing else.
    let accepted = run(&dir, &["snapshots", "tweak.toml", "--accept"]);
    assert_eq!(accepted.status.code(), Some(0), "{}", stdout(&accepted));
    let stored = files(&dir);
    assert_eq!(stored.len(), 46);
    assert!(
        stored
            .iter()
            .all(|f| f == "tweak.toml" || f.starts_with("tweak.snapshots/") && f.ends_with(".snap")),
        "{stored:?}"
    );
    let snap = std::fs::read_to_string(dir.join("tweak.snapshots/guard-empty-board.snap")).unwrap();
    assert!(
        snap.starts_with(
            "---\nsource: bulwark snapshots\nexpression: guard-empty-board\n---\nGuard (G) on F9"
        ),
        "{snap}"
    );

    let again = run(&dir, &["snapshots", "tweak.toml"]);
    assert_eq!(again.status.code(), Some(0), "{}", stdout(&again));
    assert!(stdout(&again).contains("45 unchanged, 0 changed, 0 new, 0 gone"));

    // Edit the tweak: the Guard may also step backwards. Every diagram that changes is
    // printed, not only the first, each as a line diff.
    let path = dir.join("tweak.toml");
    let t = std::fs::read_to_string(&path).unwrap();
    assert!(t.contains("| step(sideways) capture "));
    let t = t.replace(
        "| step(sideways) capture ",
        "| step(sideways) capture | step(backward) ",
    );
    std::fs::write(&path, &t).unwrap();
    let changed = run(&dir, &["snapshots", "tweak.toml"]);
    assert_eq!(changed.status.code(), Some(1), "{}", stdout(&changed));
    let text = stdout(&changed);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("changed: "))
        .collect();
    // The Guard on an empty board, from the one start cell with an empty cell behind it, and
    // in its scenario: three diagrams, all printed.
    assert_eq!(
        names,
        ["guard-empty-board", "guard-start-K4", "scenario-guard"],
        "{text}"
    );
    assert!(
        text.contains("42 unchanged, 3 changed, 0 new, 0 gone"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with('-')) && text.lines().any(|l| l.starts_with('+')),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("tweak.snapshots/guard-empty-board.snap")).unwrap(),
        snap,
        "a run without --accept leaves the stored snapshots alone"
    );
}

#[test]
fn a_folder_of_ones_choosing_and_snapshots_no_longer_drawn_are_gone() {
    let dir = workspace("snapshots-dir", "examples/spy-three-captures.toml");
    let accepted = run(
        &dir,
        &["snapshots", "tweak.toml", "--dir", "kept", "--accept"],
    );
    assert_eq!(accepted.status.code(), Some(0), "{}", stdout(&accepted));
    assert!(dir.join("kept/spy-empty-board.snap").is_file());
    assert!(!dir.join("tweak.snapshots").exists());
    // A stored diagram the rule set no longer draws is reported as gone, and removed on accept.
    std::fs::write(
        dir.join("kept/old-piece-empty-board.snap"),
        "---\n---\nold\n",
    )
    .unwrap();
    // A file that is no snapshot is left alone.
    std::fs::write(dir.join("kept/notes.txt"), "mine").unwrap();
    let gone = run(&dir, &["snapshots", "tweak.toml", "--dir", "kept"]);
    assert_eq!(gone.status.code(), Some(1));
    assert!(
        stdout(&gone).contains("gone: old-piece-empty-board (stored, no longer drawn)"),
        "{}",
        stdout(&gone)
    );
    let accepted = run(
        &dir,
        &["snapshots", "tweak.toml", "--dir", "kept", "--accept"],
    );
    assert_eq!(accepted.status.code(), Some(0));
    assert!(!dir.join("kept/old-piece-empty-board.snap").exists());
    assert!(dir.join("kept/notes.txt").is_file());
    assert_eq!(
        run(&dir, &["snapshots", "tweak.toml", "--dir", "kept"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn a_variant_that_does_not_load_is_bad_input() {
    let dir = workspace("snapshots-bad", "examples/spy-three-captures.toml");
    std::fs::write(dir.join("broken.toml"), "[game\nname = 1\n").unwrap();
    let out = run(&dir, &["snapshots", "broken.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.toml"));
    let out = run(&dir, &["snapshots", "missing.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        files(&dir),
        ["broken.toml", "tweak.toml"],
        "nothing written"
    );
}
