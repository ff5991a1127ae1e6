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
        .map(|p| p.code.trim_start_matches("bulwark::variant::").to_string())
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
broken!(fragments, ["dsl_syntax", "unknown_fragment"]);
