//! The designer's snapshot suite: every diagram of a variant chosen with `BULWARK_VARIANT` (a
//! path, from where you stand or from the checkout, or a bundled name; `bollwerk178` when
//! unset), as text, against the snapshots of the variant at the root of its `extends` chain.
//! Run it on a tweak to see every diagram the tweak changes:
//!
//! ```sh
//! BULWARK_VARIANT=examples/spy-three-captures.toml cargo test --test designer
//! ```
//!
//! A tweak's differences are printed and nothing is written; `bulwark snapshots FILE` keeps a
//! tweak's own snapshots. The reference itself is checked with insta (`cargo insta review`).
//!
//! Each piece gets its diagram alone on an empty board and from each of its start cells;
//! every scenario (of the variant, or of the variant it extends) gets its own. Nothing here
//! pins a rule: the tests that do are in the other files and do not read `BULWARK_VARIANT`.

use std::path::{Path, PathBuf};

use bulwark::Ruleset;
use bulwark::view::snapshots::{self, Snapshot, Status};
use bulwark::view::{self, rulebook};

/// The variant under review: `BULWARK_VARIANT` read as a path from where the user stands (cargo
/// runs tests in the checkout, but keeps the shell's `PWD`), then from the checkout, then as a
/// bundled name; and the name of the variant at the root of its `extends` chain, whose
/// snapshots are the reference.
fn variant() -> (Ruleset, String) {
    let arg = std::env::var("BULWARK_VARIANT").unwrap_or_else(|_| "bollwerk178".into());
    let candidates = [
        std::env::var_os("PWD").map(|d| PathBuf::from(d).join(&arg)),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join(&arg)),
    ];
    let arg = candidates
        .into_iter()
        .flatten()
        .find(|p| p.is_file())
        .map_or(arg, |p| p.display().to_string());
    let rules =
        Ruleset::load_named(&arg).unwrap_or_else(|e| panic!("{}", view::diagnostic_text(&e)));
    // Walk up the chain of `extends` to the root: its snapshots are the reference.
    let mut root = arg.clone();
    let mut r = rules.clone();
    while let Some(parent) = r.extends.clone() {
        r = Ruleset::load_named(&parent).unwrap();
        root = parent;
    }
    let root = Path::new(&root)
        .file_stem()
        .map_or(root.clone(), |s| s.to_string_lossy().into_owned());
    (rules, root)
}

/// Every diagram of a variant, with the scenarios of its root variant.
fn diagrams(rules: &Ruleset, root: &str) -> Vec<Snapshot> {
    snapshots::diagrams(rules, &rulebook::bundled_scenarios(root), None)
}

fn reference_dir(root: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots/designer")
        .join(root)
}

/// The reference variant itself is checked with insta (so `cargo insta review` accepts its
/// changes); a tweak is compared with the reference's snapshots read-only, every difference
/// printed, and nothing written (`bulwark snapshots FILE` stores a tweak's own).
#[test]
fn every_diagram_of_the_chosen_variant() {
    let (rules, root) = variant();
    let drawn = diagrams(&rules, &root);
    let mut differ = Vec::new();
    if rules.extends.is_none() {
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(format!("snapshots/designer/{root}"));
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| {
            for s in &drawn {
                let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    insta::assert_snapshot!(s.name.as_str(), s.text.as_str());
                }));
                if checked.is_err() {
                    differ.push(s.name.clone());
                }
            }
        });
    } else {
        for (s, status) in snapshots::compare(&reference_dir(&root), &drawn).unwrap() {
            match status {
                Status::Same => {}
                Status::Changed(old) => {
                    println!("changed against {root}: {}", s.name);
                    print!("{}", snapshots::line_diff(&old, s.text.trim_end()));
                    differ.push(s.name);
                }
                Status::New => {
                    println!("new (not in {root}): {}\n{}", s.name, s.text.trim_end());
                    differ.push(s.name);
                }
                Status::Gone(_) => {
                    println!("not drawn by the tweak: {}", s.name);
                    differ.push(s.name);
                }
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} diagrams differ from {root}'s snapshots: {}",
        differ.len(),
        drawn.len(),
        differ.join(", ")
    );
}

/// What the suite shows for a tweak: against the reference snapshots on disk, exactly the
/// diagrams the tweak changes differ.
#[test]
fn on_a_tweak_only_its_diagrams_differ() {
    let dir = format!(
        "{}/tests/snapshots/designer/bollwerk178",
        env!("CARGO_MANIFEST_DIR")
    );
    let stored = |name: &str| -> String {
        let text = std::fs::read_to_string(format!("{dir}/{name}.snap")).unwrap();
        // The snapshot body follows the second `---` line of the header.
        text.splitn(3, "---\n")
            .nth(2)
            .unwrap_or("")
            .trim_end()
            .to_string()
    };
    for (file, changed) in [
        (
            "examples/spy-three-captures.toml",
            vec!["scenario-spy-not-the-queen"],
        ),
        (
            "examples/guard-captures-sideways.toml",
            vec!["guard-empty-board"],
        ),
    ] {
        let tweak = Ruleset::load_named(&format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let differ: Vec<String> = diagrams(&tweak, "bollwerk178")
            .into_iter()
            .filter(|s| stored(&s.name) != s.text.trim_end())
            .map(|s| s.name)
            .collect();
        assert_eq!(differ, changed, "{file}");
    }
}
