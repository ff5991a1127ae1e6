//! The rulebook's diagrams: every scenario of `variants/*.scenarios.toml` (a position, a cell, the
//! rulings it shows and a caption) as a text and an SVG snapshot; and the generated rulebook.

use bulwark::view::rulebook::{self, Scenario};
use bulwark::view::{self, Mark};
use bulwark::{Ruleset, load};

fn scenarios() -> Vec<Scenario> {
    rulebook::bundled_scenarios("bollwerk178")
}

#[test]
fn every_scenario_as_text_and_svg() {
    let rules = Ruleset::bollwerk178();
    let list = scenarios();
    assert!(list.len() >= 15);
    for s in &list {
        assert!(
            !s.rulings.is_empty() && s.rulings.iter().all(|r| r.starts_with("B-")),
            "{}: cite rulings",
            s.name
        );
        let p = rulebook::prepare(&rules, s).unwrap_or_else(|e| panic!("{e}"));
        let text = format!(
            "{}\n\n{}",
            s.caption.trim(),
            view::diagram_text(&rules, &p.pos, &p.diagram)
        );
        insta::assert_snapshot!(format!("{}-text", s.name), text);
        insta::assert_snapshot!(
            format!("{}-svg", s.name),
            view::diagram_svg(&rules, &p.pos, &p.diagram)
        );
    }
}

/// The claims the captions make, checked against the diagrams: (scenario, mark, cells).
#[test]
fn captions_match_the_diagrams() {
    let rules = Ruleset::bollwerk178();
    let claims: &[(&str, Mark, &[&str])] = &[
        ("guard", Mark::Capture, &["F5"]),
        ("guard", Mark::Bomb, &["D5"]),
        ("cannon", Mark::Capture, &["F10", "J5"]),
        ("knight", Mark::Remove, &["D7", "G8"]),
        ("kings-knight", Mark::Destroy, &["G7"]),
        ("kings-knight", Mark::Collect, &["E8"]),
        ("kings-knight", Mark::Capture, &["D5"]),
        ("elephant", Mark::Capture, &["D10"]),
        ("gold-runner", Mark::Capture, &["H8"]),
        ("queen", Mark::Capture, &["I6"]),
        ("marshal", Mark::Capture, &["E7"]),
        ("chancellor", Mark::Capture, &["D6"]),
        ("chancellor", Mark::Collect, &["G8"]),
        ("spy-two-guards", Mark::Capture, &["G10", "G8"]),
        ("spy-not-the-queen", Mark::Capture, &["E8", "F9", "G9"]),
        ("arrow", Mark::ArrowCapture, &["F9"]),
        ("block", Mark::Capture, &["E7"]),
        ("block", Mark::Collect, &["F7"]),
        ("red-border", Mark::Collect, &["D4", "F9", "I6"]),
        ("bomb", Mark::Bomb, &["I17", "J17"]),
        ("bomb", Mark::Capture, &["K15"]),
    ];
    let list = scenarios();
    for (name, mark, cells) in claims {
        let s = list
            .iter()
            .find(|s| s.name == *name)
            .unwrap_or_else(|| panic!("no scenario {name}"));
        let p = rulebook::prepare(&rules, s).unwrap();
        let mut got: Vec<String> = p
            .diagram
            .cells_with(*mark)
            .into_iter()
            .map(|c| rules.topo.name(c))
            .collect();
        got.sort();
        assert_eq!(got, *cells, "{name}: {mark:?}");
    }
    // The Elephant's evasive step reaches F10; the diagonal to H10 is closed.
    let s = list.iter().find(|s| s.name == "elephant").unwrap();
    let p = rulebook::prepare(&rules, s).unwrap();
    let at = |c: &str| rules.topo.parse_cell(c).unwrap();
    assert!(
        p.diagram.has(at("F10"), Mark::MoveCapture) && !p.diagram.has(at("H10"), Mark::MoveCapture)
    );
    // The bomb scenario: only a bomb may go on K18, and it is marked as a place.
    let s = list.iter().find(|s| s.name == "bomb").unwrap();
    let p = rulebook::prepare(&rules, s).unwrap();
    assert!(p.diagram.has(at("K18"), Mark::Place));
}

#[test]
fn the_rulebook_of_every_bundled_variant_links_every_file() {
    for (name, _) in load::BUNDLED {
        let rules = Ruleset::load_named(name).unwrap();
        let files = rulebook::rulebook(&rules, &rulebook::bundled_scenarios(name)).unwrap();
        let html = &files.iter().find(|(f, _)| f == "index.html").unwrap().1;
        for (file, _) in &files {
            if file != "index.html" {
                assert!(
                    html.contains(&format!("src=\"{file}\"")),
                    "{name}: {file} is not linked"
                );
            }
        }
        // Every linked file is there, and every piece has its section and definition.
        for part in html.split("src=\"").skip(1) {
            let file = &part[..part.find('"').unwrap()];
            assert!(
                files.iter().any(|(f, _)| f == file),
                "{name}: {file} is linked but missing"
            );
        }
        for p in &rules.pieces {
            assert!(
                html.contains(&format!("id=\"{}\"", p.id)),
                "{name}: {}",
                p.id
            );
        }
    }
}

#[test]
fn the_cli_writes_the_rulebook_files() {
    let dir = std::env::temp_dir().join(format!("bulwark-rulebook-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["rulebook", "chess", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rules = Ruleset::load_named("chess").unwrap();
    let files = rulebook::rulebook(&rules, &[]).unwrap();
    for (name, text) in &files {
        assert_eq!(
            &std::fs::read_to_string(dir.join(name)).unwrap(),
            text,
            "{name}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
