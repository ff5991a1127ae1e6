//! DSL features beyond what Bollwerk 178 uses, on a small 8x8 test variant: capture filters,
//! hops that may stop beyond the screen, lame leapers, declared direction sets, bounded rides,
//! rides that pass over some occupants, and assertions on regions.

use bulwark::vm::{Machine, Options};
use bulwark::{Ruleset, text, view};

fn variant(pieces: &str, extra: &str) -> Ruleset {
    let text = format!(
        r##"
[game]
name = "Test"

[board]
files = ["a", "b", "c", "d", "e", "f", "g", "h"]
ranks = 8
mask = """
########
########
########
########
########
########
########
########
"""

[regions.home]
white = "a1-h2"
black = "a7-h8"

{extra}

[stones.wall]
symbol = "#"
supply = 1
class = "block-like"

[stones.mark]
symbol = "^"
supply = 1
class = "arrow-like"

[pieces.guard]
letter = "G"
moves = "step(forward) capture"

{pieces}

[setup]
position = "8/8/8/8/8/8/8/8 w"
"##
    );
    Ruleset::from_source("test.toml", &text)
        .unwrap_or_else(|e| panic!("{}", view::diagnostic_text(&e)))
}

fn options(rules: &Ruleset, position: &str, at: &str) -> Vec<String> {
    let pos = text::parse_position(rules, position).unwrap();
    let mut vm = Machine::new();
    let mut o = Options::default();
    vm.moves(rules, &pos, rules.topo.parse_cell(at).unwrap(), &mut o);
    let mut v: Vec<String> = o.moves.iter().map(|m| o.text(&rules.topo, m)).collect();
    v.sort();
    v
}

#[test]
fn filter_terms_side_by_side_must_all_hold() {
    // `enemy !guard`: every enemy piece but the guard.
    let r = variant(
        "[pieces.hunter]\nletter = \"H\"\nmoves = \"step(all) capture(enemy !guard)\"",
        "",
    );
    // Hunter d4; enemy guard e5, enemy hunter c5.
    let o = options(&r, "8/8/8/2h1g3/3H4/8/8/8 w", "d4");
    assert!(o.contains(&"c5xc5".to_string()), "{o:?}");
    assert!(!o.iter().any(|x| x.starts_with("e5")), "{o:?}");
    // Intersection inside a union and a group: `(enemy !guard) | empty` as an `over`.
    let r = variant(
        "[pieces.hunter]\nletter = \"H\"\nmoves = \"ride(orthogonal) over(enemy !guard) capture(enemy guard)\"",
        "",
    );
    // Hunter a1: rides over the enemy hunter on a3, takes the guard on a5.
    let o = options(&r, "8/8/8/g7/8/h7/8/H7 w", "a1");
    assert!(o.contains(&"a5xa5".to_string()), "{o:?}");
}

#[test]
fn capture_filter_limits_the_victims() {
    let r = variant(
        "[pieces.hunter]\nletter = \"H\"\nmoves = \"step(all) capture(enemy guard)\"",
        "",
    );
    // Hunter d4; enemy guard e5, enemy hunter c5.
    let o = options(&r, "8/8/8/2h1g3/3H4/8/8/8 w", "d4");
    assert!(o.contains(&"e5xe5".to_string()));
    assert!(!o.iter().any(|x| x.starts_with("c5")));
}

#[test]
fn hop_without_capture_only_stops_beyond_the_screen() {
    // A Wiseman-like piece (W-15): over exactly one piece, to any empty cell beyond or onto the
    // first piece beyond.
    let r = variant(
        "[pieces.wise]\nletter = \"W\"\nmoves = \"hop(orthogonal) screen(piece) capture\"",
        "",
    );
    let o = options(&r, "8/8/3g4/8/3G4/8/8/3W4 w", "d1");
    // d2, d3 empty before the screen d4: not reachable; beyond: d5 empty, d6 enemy.
    assert_eq!(o, ["d5", "d6xd6"]);
}

#[test]
fn lame_leaper_is_blocked_next_to_it() {
    // The xiangqi horse: one orthogonal step, which must be empty, then one diagonal.
    let r = variant(
        "[pieces.horse]\nletter = \"H\"\nmoves = \"leap(knight) via(orthogonal-first, empty) capture\"",
        "",
    );
    let o = options(&r, "8/8/8/8/3G4/3H4/8/8 w", "d3");
    // The Guard on d4 blocks d3-c5 and d3-e5 only.
    assert!(!o.contains(&"c5".to_string()) && !o.contains(&"e5".to_string()));
    assert_eq!(o.len(), 6);
}

#[test]
fn declared_direction_sets_and_bounded_rides() {
    let r = variant(
        "[pieces.slider]\nletter = \"S\"\nmoves = \"ride(up-right) dist(2..3) capture\"",
        "[directions]\nup-right = [[1, 1], [1, 0]]",
    );
    let o = options(&r, "8/8/8/8/8/8/8/S7 w", "a1");
    assert_eq!(o, ["c1", "c3", "d1", "d4"]);
}

#[test]
fn ride_over_lets_a_line_pass_some_occupants() {
    let r = variant(
        "[pieces.ghost]\nletter = \"P\"\nmoves = \"ride(forward) over(mark) capture\"",
        "",
    );
    let o = options(&r, "8/8/3g4/8/3^4/8/8/3P4 w", "d1");
    assert_eq!(o, ["d2", "d3", "d5", "d6xd6"]);
}

#[test]
fn black_directions_mirror_the_rank() {
    let r = variant("", "");
    let o = options(&r, "8/3g4/8/8/8/8/8/8 w", "d7");
    assert_eq!(o, ["d6"]);
}

#[test]
fn region_assertion_after_a_leg() {
    // May step twice, but only if the first step ends inside the home rows.
    let r = variant(
        "[pieces.walker]\nletter = \"K\"\nmoves = \"step(forward) at(home) step(forward)\"",
        "",
    );
    assert_eq!(options(&r, "8/8/8/8/8/8/8/3K4 w", "d1"), ["d3"]);
    assert_eq!(
        options(&r, "8/8/8/8/8/8/3K4/8 w", "d2"),
        Vec::<String>::new()
    );
}

#[test]
fn dist_on_a_hop_counts_the_cells_beyond_the_screen() {
    // A grasshopper-like hop: over one piece, landing exactly the `dist`th cell beyond.
    let hop = |dist: &str| {
        variant(
            &format!("[pieces.hopper]\nletter = \"H\"\nmoves = \"hop(vertical) {dist} capture\""),
            "",
        )
    };
    // Hopper d1, screen d3 (own guard), d4 d5 empty, d6 enemy guard.
    let pos = "8/8/3g4/8/8/3G4/8/3H4 w";
    assert_eq!(options(&hop(""), pos, "d1"), ["d4", "d5", "d6xd6"]);
    assert_eq!(options(&hop("dist(1)"), pos, "d1"), ["d4"]);
    assert_eq!(options(&hop("dist(2..3)"), pos, "d1"), ["d5", "d6xd6"]);
    assert_eq!(options(&hop("dist(..2)"), pos, "d1"), ["d4", "d5"]);
    // dist(0) is a mistake, reported like a ride's.
    let text = r#"
[game]
name = "Bad hop"

[board]
files = ["a", "b"]
ranks = 2
mask = """
##
##
"""

[pieces.hopper]
letter = "H"
moves = "hop(all) dist(0)"

[setup]
position = "2/H1 w"
"#;
    let e = Ruleset::from_source("bad.toml", text).unwrap_err();
    assert_eq!(e.problems[0].code.name(), "bad_distance");
}
