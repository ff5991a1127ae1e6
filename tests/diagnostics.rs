//! Broken variant files (tests/broken/*.toml, each a small edit of tests/variants/tiny.toml)
//! and the diagnostics they produce, rendered without colours. Every problem carries a code,
//! a span into the file and a help text, and one run reports all of them.

use bulwark::Ruleset;
use bulwark::view::diagnostic_text;

fn load(name: &str) -> (String, bulwark::load::VariantErrors) {
    let path = format!("{}/tests/broken/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture");
    let err = Ruleset::from_source(&format!("broken/{name}.toml"), &text)
        .expect_err("the file is broken");
    (text, err)
}

fn codes(e: &bulwark::load::VariantErrors) -> Vec<String> {
    e.problems
        .iter()
        .map(|p| p.code.name().to_string())
        .collect()
}

macro_rules! broken {
    ($name:ident, [$($code:literal),*]) => {
        #[test]
        fn $name() {
            let (text, e) = load(stringify!($name));
            assert_eq!(codes(&e), [$($code),*]);
            for p in &e.problems {
                assert!(p.span.1 <= text.len(), "span inside the file");
                assert!(!p.help.is_empty(), "every problem has a help text");
            }
            insta::assert_snapshot!(stringify!($name), diagnostic_text(&e));
        }
    };
}

broken!(toml_syntax, ["toml"]);
broken!(toml_syntax_many, ["toml", "toml", "toml"]);
broken!(unknown_key, ["schema", "schema"]);
broken!(
    schema_many,
    [
        "schema", "schema", "schema", "schema", "schema", "schema", "schema"
    ]
);
broken!(dsl_syntax, ["dsl_syntax"]);
broken!(unknown_direction, ["unknown_direction"]);
broken!(unknown_piece, ["unknown_piece"]);
broken!(unknown_stone, ["unknown_occupant"]);
broken!(unknown_region, ["unknown_region"]);
broken!(mask_lines, ["mask"]);
broken!(mask_cells, ["mask", "mask"]);
broken!(setup_misfit, ["setup"]);
broken!(setup_symbol, ["setup"]);
broken!(duplicate_letter, ["duplicate_letter"]);
broken!(
    bad_modifiers,
    ["bad_modifier", "bad_modifier", "bad_distance"]
);
broken!(empty_loop, ["empty_loop", "bad_bounds"]);
broken!(bad_region, ["region", "region"]);
broken!(bad_symbol, ["stone_symbol"]);
broken!(
    many_errors,
    [
        "region",
        "duplicate_symbol",
        "unknown_direction",
        "duplicate_letter",
        "unknown_piece",
        "duplicate_modifier"
    ]
);

#[test]
fn the_base_fixture_is_valid() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/variants/tiny.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let r = Ruleset::from_source("tiny.toml", &text).expect("valid");
    assert_eq!(r.topo.len(), 16);
}

#[test]
fn every_bundled_variant_is_valid() {
    for (name, text) in bulwark::load::BUNDLED {
        Ruleset::from_source(name, text)
            .unwrap_or_else(|e| panic!("{name}: {}", diagnostic_text(&e)));
    }
}
broken!(too_large, ["too_large"]);
broken!(deep_nesting, ["dsl_syntax"]);
broken!(check_position, ["setup"]);
broken!(turn_explosions, ["turn"]);
broken!(
    fragments,
    ["unused_fragment", "dsl_syntax", "unknown_fragment"]
);
broken!(board_colouring, ["board"]);
broken!(bad_direction, ["direction"]);
broken!(stone_fields, ["stone_supply", "stone_class"]);
broken!(unknown_stone_kind, ["unknown_stone"]);
broken!(placement_only_stone, ["unknown_stone"]);
broken!(too_many_stones, ["stones"]);
broken!(
    too_many_pieces,
    [
        "duplicate_letter",
        "duplicate_letter",
        "duplicate_letter",
        "duplicate_letter",
        "duplicate_letter",
        "duplicate_letter",
        "pieces",
        "duplicate_letter",
        "duplicate_letter",
        "duplicate_letter"
    ]
);
broken!(piece_fields, ["piece_letter", "piece_name"]);
broken!(piece_actions, ["stones_per_turn", "promotion"]);
broken!(
    leg_errors,
    [
        "bad_offset",
        "bad_capture",
        "bad_destroy",
        "bad_step",
        "bad_jump",
        "no_path",
        "unknown_path"
    ]
);
broken!(placement_region, ["placement"]);
broken!(rule_tables, ["end", "notation", "castling"]);

/// A variant that loads with warnings: the report lists them, and loading succeeds.
#[test]
fn unused_fragment() {
    let path = format!(
        "{}/tests/broken/unused_fragment.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("fixture");
    let (rules, warnings) =
        Ruleset::from_source_checked("broken/unused_fragment.toml", &text).expect("it loads");
    let report = warnings.expect("a warning");
    assert_eq!(codes(&report), ["unused_fragment"]);
    assert_eq!(rules.warnings.len(), 1);
    insta::assert_snapshot!("unused_fragment", diagnostic_text(&report));
}

/// Every code has a fixture whose reviewed snapshot shows it.
#[test]
fn every_code_has_a_fixture_and_a_snapshot() {
    let dir = format!("{}/tests/snapshots", env!("CARGO_MANIFEST_DIR"));
    let mut shown = String::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("diagnostics__") && name.ends_with(".snap") {
            shown.push_str(&std::fs::read_to_string(e.path()).unwrap());
        }
    }
    let missing: Vec<&str> = bulwark::core::Code::ALL
        .iter()
        .map(|c| c.name())
        .filter(|n| !shown.contains(&format!("bulwark::variant::{n}\n")))
        .collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}
broken!(extends_unknown, ["extends"]);
// A misspelt leg kind is one error with the close name, not one per word in its brackets.
broken!(dsl_unknown_leg, ["dsl_syntax"]);
// An unclosed bracket is reported at the bracket, not at the end of the definition.
broken!(dsl_unclosed, ["dsl_syntax"]);
// A tweak's new piece whose name is close to one it extends: the help suggests that name.
broken!(tweak_misspelt_piece, ["schema"]);
// `river` and `diagonals` belong to a board of points.
broken!(board_lines, ["board", "board"]);
// `picture` names a built-in picture.
broken!(picture, ["picture"]);
// `captures-neutral` and `gives-check` are true or false.
broken!(neutral_settings, ["schema", "schema"]);
broken!(hop_dist, ["bad_distance"]);
broken!(turn_shapes, ["turn", "turn"]);
broken!(captured_leave, ["turn"]);
broken!(en_passant, ["en_passant", "en_passant"]);
broken!(chain_revisits, ["turn"]);
broken!(maximal_fixed, ["bad_bounds"]);
broken!(occupy_by, ["unknown_piece"]);
broken!(
    change,
    [
        "change",
        "change",
        "change",
        "change",
        "unknown_piece",
        "change",
        "reserve"
    ]
);
broken!(
    history_rules,
    [
        "reserve",
        "clock",
        "unknown_piece",
        "clock",
        "clock",
        "repetition",
        "repetition"
    ]
);
broken!(clock_verdict, ["clock", "repetition"]);
broken!(goal, ["placement", "unknown_piece", "end"]);
broken!(piece_value, ["value", "value"]);
broken!(filter_intersection, ["bad_capture", "bad_capture"]);
broken!(
    neutral,
    ["unknown_piece", "stone_symbol", "unknown_direction"]
);
broken!(vanquished, ["unknown_piece", "end", "end"]);
broken!(side_names, ["board"]);
broken!(
    classed_directions,
    [
        "direction",
        "direction",
        "direction",
        "direction",
        "unknown_path"
    ]
);
broken!(
    hands,
    [
        "placement",
        "reserve",
        "unknown_piece",
        "reserve",
        "unknown_region"
    ]
);
broken!(
    free_castling,
    [
        "castling",
        "castling",
        "unknown_piece",
        "castling",
        "castling",
        "castling"
    ]
);
broken!(
    castling_partners,
    ["castling", "castling", "castling", "castling"]
);
broken!(checks, ["end", "end", "end"]);
broken!(checks_field, ["notation"]);
broken!(race, ["turn", "end"]);
broken!(extinction, ["unknown_piece", "unknown_piece"]);
broken!(without_royal, ["board", "en_passant"]);
broken!(blast, ["unknown_direction", "unknown_piece"]);
broken!(bare, ["end", "end"]);
broken!(bare_answer, ["end"]);
broken!(promotion_limits, ["change", "change", "change"]);
broken!(drops_in, ["reserve"]);
broken!(captured_as, ["reserve", "unknown_piece"]);
broken!(drop_rules, ["change", "reserve", "reserve"]);
broken!(drop_rules_without_drops, ["reserve", "reserve"]);
broken!(chain_ends_home, ["turn"]);
broken!(pass_settings, ["turn", "end", "end"]);
broken!(pass_endings, ["end", "end"]);
broken!(bent_path, ["no_path"]);
broken!(drop_rule_undropped, ["reserve"]);
broken!(
    letter_mark,
    ["piece_letter", "piece_letter", "duplicate_letter"]
);
