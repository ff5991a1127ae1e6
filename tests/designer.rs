//! The designer's snapshot suite: every diagram of a variant chosen with `BULWARK_VARIANT` (a
//! bundled name or a path; `bollwerk178` when unset), as text, against the snapshots of the
//! variant it extends. Run it on a tweak to review exactly which diagrams the tweak changes:
//!
//! ```sh
//! BULWARK_VARIANT=examples/spy-three-captures.toml cargo insta test --test designer --review
//! ```
//!
//! Each piece gets its diagram alone on an empty board and from each of its start cells;
//! every scenario (of the variant, or of the variant it extends) gets its own. Nothing here
//! pins a rule: the tests that do are in the other files and do not read `BULWARK_VARIANT`.

use bulwark::view::{self, rulebook};
use bulwark::{Occupant, Position, Ruleset, Side};

/// The variant under review, and the name of the variant whose snapshots it is compared
/// with (its root ancestor).
fn variant() -> (Ruleset, String) {
    let arg = std::env::var("BULWARK_VARIANT").unwrap_or_else(|_| "bollwerk178".into());
    let path = format!("{}/{arg}", env!("CARGO_MANIFEST_DIR"));
    let arg = if std::path::Path::new(&path).exists() {
        path
    } else {
        arg
    };
    let rules =
        Ruleset::load_named(&arg).unwrap_or_else(|e| panic!("{}", view::diagnostic_text(&e)));
    // Walk up the chain of `extends` to the root: its snapshots are the reference.
    let mut root = arg.clone();
    let mut r = rules.clone();
    while let Some(parent) = r.extends.clone() {
        r = Ruleset::load_named(&parent).unwrap();
        root = parent;
    }
    let root = std::path::Path::new(&root)
        .file_stem()
        .map_or(root.clone(), |s| s.to_string_lossy().into_owned());
    (rules, root)
}

fn scenarios(root: &str) -> Vec<rulebook::Scenario> {
    rulebook::bundled_scenarios(root)
}

/// Every diagram of a variant as (snapshot name, text): each piece alone on an empty board
/// and from its start cells, then every scenario of the root variant.
fn diagrams(rules: &Ruleset, root: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let centre = rulebook::central_cell(rules);
    for (k, p) in rules.pieces.iter().enumerate() {
        let kind = bulwark::core::PieceKindId::new(k);
        let mut pos = Position::empty(rules.topo.len(), rules.initial_hand());
        pos.cells[centre.index()] = Occupant::piece(Side::White, kind);
        let d = view::diagram(rules, &pos, centre).unwrap();
        out.push((
            format!("{}-empty-board", p.id),
            view::diagram_text(rules, &pos, &d),
        ));
        for c in rules.topo.cells() {
            if rules.setup.at(c) == Occupant::piece(Side::White, kind) {
                let d = view::diagram(rules, &rules.setup, c).unwrap();
                out.push((
                    format!("{}-start-{}", p.id, rules.topo.name(c)),
                    view::diagram_text(rules, &rules.setup, &d),
                ));
            }
        }
    }
    for s in scenarios(root) {
        let text = match rulebook::prepare(rules, &s) {
            Ok(p) => {
                let mut t = format!(
                    "{}\n\n{}",
                    s.caption.trim(),
                    view::diagram_text(rules, &p.pos, &p.diagram)
                );
                for w in rulebook::contradictions(rules, &s, &p) {
                    t.push_str(&format!("\nCONTRADICTED: {w}"));
                }
                t
            }
            Err(e) => format!("not drawn: {e}"),
        };
        out.push((format!("scenario-{}", s.name), text));
    }
    out
}

#[test]
fn every_diagram_of_the_chosen_variant() {
    let (rules, root) = variant();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(format!("snapshots/designer/{root}"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for (name, text) in diagrams(&rules, &root) {
            insta::assert_snapshot!(name, text);
        }
    });
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
            .filter(|(name, text)| stored(name) != text.trim_end())
            .map(|(name, _)| name)
            .collect();
        assert_eq!(differ, changed, "{file}");
    }
}
