//! `[fragments]`: named parts of definitions, shared by `moves` and `range` of any piece, on a
//! small variant of their own and on Bollwerk 178 (whose Spy and Guard use them).

use bulwark::{Ruleset, load::BUNDLED};

fn variant(fragments: &str, moves: &str) -> Result<Ruleset, bulwark::VariantErrors> {
    Ruleset::from_source("fragments.toml", &text_of(fragments, moves))
}

fn text_of(fragments: &str, moves: &str) -> String {
    format!(
        r#"
[game]
name = "Fragments"

[board]
files = ["a", "b", "c", "d", "e"]
ranks = 5
mask = """
#####
#####
#####
#####
#####
"""

[fragments]
{fragments}

[pieces.hopper]
letter = "H"
moves = '''{moves}'''

[pieces.post]
letter = "P"
moves = "step(forward)"

[setup]
position = "5/5/5/2p2/1H3 w"
"#
    )
}

fn options(rules: &Ruleset) -> Vec<String> {
    let at = rules.topo.parse_cell("b1").unwrap();
    let mut vm = bulwark::vm::Machine::new();
    let mut o = bulwark::vm::Options::default();
    vm.moves(rules, &rules.setup, at, &mut o);
    let mut v: Vec<String> = o.moves.iter().map(|m| o.text(&rules.topo, m)).collect();
    v.sort();
    v
}

#[test]
fn a_fragment_compiles_exactly_like_its_text_written_out() {
    let with = variant(
        "two-steps = \"step(forward){2}\"\nhop-over = \"jump(forward) over(piece) take\"",
        "two-steps | step(orthogonal) hop-over",
    )
    .unwrap();
    let without = variant(
        "",
        "step(forward){2} | step(orthogonal) jump(forward) over(piece) take",
    )
    .unwrap();
    assert_eq!(options(&with), options(&without));
    assert_eq!(options(&with), ["b3", "c3xc2"]);
    // The listing shows the legs' own text, not the fragment's name.
    let listing = with.pieces[0]
        .moves
        .listing(&with.links, &with.names_owned().names());
    assert!(
        listing.contains("jump(forward) over(piece) take"),
        "{listing}"
    );
}

#[test]
fn fragments_may_use_fragments_declared_above_them() {
    let r = variant(
        "step-up = \"step(forward)\"\ntwo-up = \"step-up step-up\"",
        "two-up",
    )
    .unwrap();
    assert_eq!(options(&r), ["b3"]);
}

fn codes(e: &bulwark::VariantErrors) -> Vec<String> {
    e.problems.iter().map(|p| p.code.id()).collect()
}

#[test]
fn unknown_later_and_broken_fragments_are_diagnosed_once_where_they_are() {
    // Unknown name: reported at the name, with the modifier it resembles.
    let e = variant("", "step(all) captur").unwrap_err();
    assert_eq!(codes(&e), ["bulwark::variant::unknown_fragment"]);
    assert!(
        e.problems[0].help.contains("`capture`"),
        "{}",
        e.problems[0].help
    );
    // A fragment used above its declaration is unknown there.
    let e = variant(
        "two-up = \"step-up step-up\"\nstep-up = \"step(forward)\"",
        "two-up",
    )
    .unwrap_err();
    // (and `step-up`, used by nothing that could see it, is also warned about).
    assert_eq!(
        codes(&e),
        [
            "bulwark::variant::unknown_fragment",
            "bulwark::variant::unknown_fragment",
            "bulwark::variant::unused_fragment"
        ]
    );
    // A fragment with a mistake: one problem, in the fragment, though two definitions use it.
    let e = variant("bad = \"step(sideways-ish)\"", "bad | step(all) bad").unwrap_err();
    assert_eq!(codes(&e), ["bulwark::variant::unknown_direction"]);
    let text = text_of("bad = \"step(sideways-ish)\"", "bad | step(all) bad");
    let at = e.problems[0].span.0;
    assert_eq!(&text[at..at + "sideways-ish".len()], "sideways-ish");
    assert!(
        at < text.find("[pieces.hopper]").unwrap(),
        "reported in the fragment"
    );
}

#[test]
fn bollwerk_shares_the_spy_and_guard_jumps_as_fragments() {
    let text = BUNDLED.iter().find(|(n, _)| *n == "bollwerk178").unwrap().1;
    assert!(text.contains("[fragments]"));
    let rules = Ruleset::bollwerk178();
    let spy = rules.find_piece("spy").unwrap();
    assert!(rules.pieces[spy].moves_text.contains("spy-jump"));
    assert!(
        rules.pieces[spy]
            .range_text
            .as_deref()
            .unwrap()
            .contains("spy-jump")
    );
}
