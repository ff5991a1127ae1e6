//! The rulebook's diagrams: every scenario of `variants/*.scenarios.toml` (a position, a cell, the
//! rulings it shows and a caption) as a text and an SVG snapshot; and the generated rulebook.

use bulwark::view::rulebook::{self, Scenario};
use bulwark::view::{self};
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
        let p = rulebook::prepare(&rules, s, None).unwrap_or_else(|e| panic!("{e}"));
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

/// Waterloo: a diagram of every piece, with rulings W-…, snapshotted as text and SVG, and
/// its caption's claims borne out.
#[test]
fn every_waterloo_piece_as_text_and_svg() {
    let rules = Ruleset::load_named("waterloo").unwrap();
    let list = rulebook::bundled_scenarios("waterloo");
    for p in &rules.pieces {
        assert!(
            list.iter().any(|s| s.name == p.id),
            "no diagram of the {}",
            p.name
        );
    }
    for s in &list {
        assert!(
            !s.rulings.is_empty() && s.rulings.iter().all(|r| r.starts_with("W-")),
            "{}: cite rulings",
            s.name
        );
        let p = rulebook::prepare(&rules, s, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            rulebook::contradictions(&rules, s, &p),
            Vec::<String>::new(),
            "{}",
            s.name
        );
        let text = format!(
            "{}\n\n{}",
            s.caption.trim(),
            view::diagram_text(&rules, &p.pos, &p.diagram)
        );
        insta::assert_snapshot!(format!("waterloo-{}-text", s.name), text);
        insta::assert_snapshot!(
            format!("waterloo-{}-svg", s.name),
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
        let p = rulebook::prepare(&rules, s, None).unwrap();
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
    let book = rulebook::rulebook(&tweak, &scenarios(), None).unwrap();
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
        let book = rulebook::rulebook(&rules, &rulebook::bundled_scenarios(name), None).unwrap();
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
    let files = rulebook::rulebook(&rules, &[], None).unwrap().files;
    for (name, text) in &files {
        assert_eq!(
            &std::fs::read_to_string(dir.join(name)).unwrap(),
            text,
            "{name}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The players' rulebook: the board with its regions, the rules in words generated from the
/// file, each piece's definition folded away, one legend for every diagram.
#[test]
fn the_players_rulebook_explains_the_rules_in_words() {
    let rules = Ruleset::bollwerk178();
    let book = rulebook::rulebook(&rules, &scenarios(), None).unwrap();
    let html = &book.files.last().unwrap().1;
    assert!(
        book.files
            .iter()
            .any(|(f, svg)| f == "board.svg" && svg.contains("end-zone"))
    );
    for heading in [
        "The board",
        "The turn",
        "Stones and supplies",
        "The end of the game",
    ] {
        assert!(html.contains(&format!("<h3>{heading}</h3>")), "{heading}");
    }
    // Words from the file, not from Rust: the stones' names, the region names, the settings.
    assert!(html.contains("Chancellor (up to 2 on different cells)"));
    assert!(
        html.contains("placed on the opponent&#x27;s end-field, it wins")
            || html.contains("placed on the opponent's end-field, it wins")
    );
    assert!(html.contains("blows up at most 1 stone"));
    // Definitions folded away; diagrams without their own legend; one legend on the page.
    assert_eq!(html.matches("<details>").count(), rules.pieces.len());
    assert!(
        book.files
            .iter()
            .filter(|(f, _)| f.ends_with(".svg") && f != "board.svg")
            .all(|(_, svg)| !svg.contains("move, may capture"))
    );
    assert_eq!(html.matches("<h2>Legend</h2>").count(), 1);
    // The legend as the pictures draw the marks (not the text diagrams' signs), with the
    // stones' marks since Bollwerk 178 has stones.
    let legend = &html[html.find("<h2>Legend</h2>").unwrap()..];
    assert!(legend.contains(r#"<svg xmlns="http://www.w3.org/2000/svg" class="legend""#));
    assert!(legend.contains("move, may capture") && legend.contains("stone may be placed"));
    assert!(!legend.contains("<pre>"));
    assert!(!html.contains("()"));
    // Chess: castling, en passant, promotion and checkmate in words.
    let chess = Ruleset::load_named("chess").unwrap();
    let html = rulebook::rulebook(&chess, &[], None)
        .unwrap()
        .files
        .pop()
        .unwrap()
        .1;
    assert!(html.contains("Castling"), "{html}");
    assert!(html.contains("en passant"));
    assert!(
        html.contains("becomes a Queen, Rook, Bishop or Knight"),
        "{html}"
    );
    assert!(html.contains("a side checkmated loses, a side stalemated draws"));
}
