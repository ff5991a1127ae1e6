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
    // The claims are data in the scenario file; every caption makes at least one.
    let rules = Ruleset::bollwerk178();
    let list = scenarios();
    let with_claims = list.iter().filter(|s| !s.claims.is_empty()).count();
    assert!(with_claims >= 15, "{with_claims} scenarios with claims");
    for s in &list {
        let p = rulebook::prepare(&rules, s).unwrap();
        assert_eq!(
            rulebook::contradictions(&rules, s, &p),
            Vec::<String>::new(),
            "{}",
            s.name
        );
    }
}

/// A tweak keeps the reference's scenarios, and a caption its diagram no longer bears out is
/// marked on the page and reported.
#[test]
fn a_tweaks_rulebook_flags_a_contradicted_caption() {
    let tweak = Ruleset::load_named(&format!(
        "{}/examples/spy-three-captures.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let book = rulebook::rulebook(&tweak, &scenarios()).unwrap();
    assert_eq!(
        book.contradictions,
        [
            "scenario spy-not-the-queen: capture: the caption claims E8 F9 G9, the diagram shows E8 F9 G7 G9"
        ]
    );
    let html = &book.files.last().unwrap().1;
    assert!(html.contains("This caption no longer matches its diagram"));
    // Every scenario picture is still there.
    assert!(book.files.len() > scenarios().len());
    // Through the command line: the tweak's rulebook keeps the reference's scenarios (found
    // through `extends`) and warns.
    let dir = std::env::temp_dir().join(format!("bulwark-tweak-book-{}", std::process::id()));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["rulebook", "examples/spy-three-captures.toml", "--out"])
        .arg(&dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("spy-not-the-queen"), "{err}");
    assert!(dir.join("scenario-spy-not-the-queen.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_rulebook_of_every_bundled_variant_links_every_file() {
    for (name, _) in load::BUNDLED {
        let rules = Ruleset::load_named(name).unwrap();
        let book = rulebook::rulebook(&rules, &rulebook::bundled_scenarios(name)).unwrap();
        assert!(
            book.contradictions.is_empty(),
            "{name}: {:?}",
            book.contradictions
        );
        let files = book.files;
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
    let files = rulebook::rulebook(&rules, &[]).unwrap().files;
    for (name, text) in &files {
        assert_eq!(
            &std::fs::read_to_string(dir.join(name)).unwrap(),
            text,
            "{name}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
