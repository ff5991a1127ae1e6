//! Tweak files (`extends`): a variant that states only what changes from its parent.

use bulwark::{Ruleset, view};

fn path(p: &str) -> String {
    format!("{}/tests/variants/{p}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_tweak_lays_its_keys_over_its_parent() {
    let parent = Ruleset::load_named(&path("tiny.toml")).unwrap();
    let tweak = Ruleset::load_named(&path("tweaks/rook-steps.toml"))
        .unwrap_or_else(|e| panic!("{}", view::diagnostic_text(&e)));
    assert_eq!(tweak.name, "Tiny, rook steps");
    assert!(tweak.extends.as_deref().unwrap().ends_with("tiny.toml"));
    // Everything else comes from the parent: board, stones, the guard, the start.
    assert_eq!(tweak.topo.len(), parent.topo.len());
    assert_eq!(tweak.stones.len(), parent.stones.len());
    assert_eq!(tweak.setup, parent.setup);
    assert_eq!(tweak.pieces[0].moves_text, parent.pieces[0].moves_text);
    assert_eq!(tweak.pieces[1].moves_text, "step(orthogonal) capture");
    // Only the rook's diagrams differ.
    let d = view::diff::diff(&parent, &tweak, &[], true, None);
    assert_eq!(d.changed(), ["rook"]);
}

#[test]
fn a_mistake_is_shown_in_the_file_that_has_it() {
    // In the tweak itself: the report is the tweak's.
    let e = Ruleset::load_named(&path("tweaks/broken-child.toml")).unwrap_err();
    let text = view::diagnostic_text(&e);
    assert!(text.contains("broken-child.toml"), "{text}");
    assert!(text.contains("step(sidewise)"), "{text}");
    // In a file the tweak extends: shown with that file's source.
    let e = Ruleset::load_named(&path("tweaks/broken-parent.toml")).unwrap_err();
    let text = view::diagnostic_text(&e);
    assert!(text.contains("broken-child.toml:4"), "{text}");
    assert!(text.contains("unknown direction"), "{text}");
}

#[test]
fn extends_errors_unknown_parent_and_cycles() {
    let e = Ruleset::load_named(&path("tweaks/loop-a.toml")).unwrap_err();
    let text = view::diagnostic_text(&e);
    assert!(text.contains("cycle"), "{text}");
    assert!(text.contains("bulwark::variant::extends"), "{text}");
    let e = Ruleset::from_source("x.toml", "extends = \"no-such\"\n").unwrap_err();
    assert_eq!(e.problems[0].code.name(), "extends");
}

#[test]
fn the_examples_are_tweak_files_of_the_reference() {
    for (file, piece) in [
        ("examples/spy-three-captures.toml", "spy"),
        ("examples/guard-captures-sideways.toml", "guard"),
    ] {
        let p = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains("extends = \"bollwerk178\""), "{file}");
        assert!(text.lines().count() < 40, "{file} states only what changes");
        let r = Ruleset::load_named(&p).unwrap();
        assert_eq!(r.extends.as_deref(), Some("bollwerk178"));
        let scenarios = view::rulebook::bundled_scenarios("bollwerk178");
        let d = view::diff::diff(&Ruleset::bollwerk178(), &r, &scenarios, false, None);
        assert_eq!(d.changed(), [piece]);
    }
}

/// Editing `variants/NAME.toml` in a checkout takes effect without a rebuild, and the command
/// says which file it read.
#[test]
fn an_edited_checkout_copy_of_a_bundled_variant_is_read_and_named() {
    let dir = std::env::temp_dir().join(format!("bulwark-checkout-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    let text = include_str!("../variants/bollwerk178.toml").replace(
        "name = \"Bollwerk 178\"",
        "name = \"Bollwerk 178 (edited)\"",
    );
    std::fs::write(dir.join("variants/bollwerk178.toml"), text).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .arg("check")
        .current_dir(&dir)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(out.starts_with("Bollwerk 178 (edited): ok"), "{out}");
    assert!(
        err.contains("note: read variants/bollwerk178.toml"),
        "{err}"
    );
    // An unchanged copy is simply the bundled one: no note.
    std::fs::write(
        dir.join("variants/bollwerk178.toml"),
        include_str!("../variants/bollwerk178.toml"),
    )
    .unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .arg("check")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.stderr.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The edited checkout copy is read for a bundled name that a file extends, too, and the note
/// says so; when the load fails, the note still comes before the report. The library's own
/// loads read the built-in copy unless asked (`LoadOptions`).
#[test]
fn an_edited_checkout_parent_is_named_and_the_library_reads_the_built_in_copy() {
    let dir = std::env::temp_dir().join(format!("bulwark-checkout-parent-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    let edited = include_str!("../variants/chess.toml")
        .replace("name = \"Chess\"", "name = \"Chess (edited)\"");
    assert_ne!(edited, include_str!("../variants/chess.toml"));
    std::fs::write(dir.join("variants/chess.toml"), &edited).unwrap();
    std::fs::write(
        dir.join("mine.toml"),
        "extends = \"chess\"\n[game]\nname = \"Mine\"\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_bulwark"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, out, err) = run(&["check", "mine.toml"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("Mine: ok"), "{out}");
    assert!(err.contains("note: read variants/chess.toml"), "{err}");
    // A broken edit: the note, then the report, exit 1.
    std::fs::write(
        dir.join("variants/chess.toml"),
        format!("{edited}\n[bogus]\n"),
    )
    .unwrap();
    let (code, _, err) = run(&["check", "chess"]);
    assert_eq!(code, Some(1), "{err}");
    let note = err.find("note: read variants/chess.toml").expect(&err);
    assert!(err[note..].contains("bogus"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    // In the library, a bundled name is the built-in copy by default.
    let mut notes = Vec::new();
    let (rules, _) =
        bulwark::Ruleset::load_with("chess", &bulwark::load::LoadOptions::default(), &mut notes)
            .unwrap();
    assert_eq!(rules.name, "Chess");
    assert!(notes.is_empty());
}
