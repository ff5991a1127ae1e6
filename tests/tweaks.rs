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
