//! A rule tweak is a file edit: the tweaked copies of Bollwerk 178 under `examples/` load, and
//! their diagrams differ from the reference exactly where the tweak says.

mod common;
use bulwark::view::{self, Mark};
use bulwark::{Ruleset, text};

fn load(path: &str) -> Ruleset {
    Ruleset::load_named(&format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{}", view::diagnostic_text(&e)))
}

fn captures(rules: &Ruleset, position: &str, at: &str) -> Vec<String> {
    let pos = text::parse_position(rules, position).unwrap();
    let d = view::diagram(rules, &pos, rules.topo.parse_cell(at).unwrap()).unwrap();
    let mut v: Vec<String> = d
        .cells_with(Mark::Capture)
        .into_iter()
        .map(|c| rules.topo.name(c))
        .collect();
    v.sort();
    v
}

#[test]
fn b31_tweak_spy_takes_three() {
    // Spy D6 with enemies E6, G6, I6 in a row, each with an empty cell behind it.
    let position = "1/10/10/10/10/12/12/12/12/12/12/12/3Sg1q1r3/10/10/10/10/1 w";
    let reference = Ruleset::bollwerk178();
    let tweak = load("examples/spy-three-captures.toml");
    assert_eq!(captures(&reference, position, "D6"), ["E6", "G6"]);
    assert_eq!(captures(&tweak, position, "D6"), ["E6", "G6", "I6"]);
}

#[test]
fn b20_tweak_guard_captures_sideways() {
    let position = "1/10/10/10/10/12/12/12/12/12/12/12/4gG6/10/10/10/10/1 w";
    let reference = Ruleset::bollwerk178();
    let tweak = load("examples/guard-captures-sideways.toml");
    assert_eq!(captures(&reference, position, "F6"), Vec::<String>::new());
    assert_eq!(captures(&tweak, position, "F6"), ["E6"]);
}

/// `bulwark diff` on the two examples: each differs from the reference exactly in its piece.
#[test]
fn each_example_differs_from_the_reference_only_in_its_piece() {
    use bulwark::view::diff::{diff, diff_html, diff_json, diff_text};
    use bulwark::view::rulebook::bundled_scenarios;
    let reference = Ruleset::bollwerk178();
    let scenarios = bundled_scenarios("bollwerk178");
    for (file, piece) in [
        ("examples/spy-three-captures.toml", "spy"),
        ("examples/guard-captures-sideways.toml", "guard"),
    ] {
        let tweak = load(file);
        let d = diff(&reference, &tweak, &scenarios, false, None);
        assert_eq!(d.changed(), [piece], "{file}");
        assert!(d.removed.is_empty() && d.added.is_empty());
        // Every piece is compared: empty board, start cells and the scenarios.
        assert!(d.diagrams.len() > reference.pieces.len() + scenarios.len());
        // Neither tweak changes the first turns (no capture is possible at the start).
        assert_eq!(d.first_turns.0, d.first_turns.1);
        let text = diff_text(&d);
        assert!(
            text.contains(&format!("pieces whose diagrams changed: {piece}")),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&diff_json(&d)).unwrap();
        assert_eq!(json["changed"], serde_json::json!([piece]));
        let files = diff_html(&d);
        let html = &files.last().unwrap().1;
        assert!(html.contains("<div class=\"pair\">"));
        // The changed cells are outlined in the pictures.
        assert!(
            files
                .iter()
                .any(|(_, svg)| svg.contains("stroke=\"#00b4d8\""))
        );
    }
    // The Spy tweak: in the scenario with a queen, F6 becomes a capturing destination.
    let d = diff(
        &reference,
        &load("examples/spy-three-captures.toml"),
        &scenarios,
        false,
        None,
    );
    let c = d
        .diagrams
        .iter()
        .find(|c| c.what == "scenario spy-not-the-queen")
        .unwrap();
    assert!(c.cells.iter().any(|(n, before, after)| n == "F6"
        && before == &[Mark::Move]
        && after == &[Mark::MoveCapture]));
}

/// A rule set compared with itself changes nothing; with another game, every shared piece is
/// compared and the rest listed.
#[test]
fn diff_of_a_rule_set_with_itself_is_empty() {
    use bulwark::view::diff::diff;
    let r = Ruleset::bollwerk178();
    let d = diff(&r, &r, &[], true, None);
    assert!(d.changed().is_empty());
    assert_eq!(d.perft2, Some((234_171_922, 234_171_922)));
    let chess = Ruleset::load_named("chess").unwrap();
    let d = diff(&r, &chess, &[], false, None);
    assert!(d.removed.contains(&"spy".to_string()));
    assert!(d.added.contains(&"king".to_string()));
}
