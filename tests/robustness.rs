//! Bad input never panics: random definition text, position text, move text and variant files
//! (the tiny fixture with random damage) are all answered with an error or a result.

use bulwark::play::Game;
use bulwark::{Ruleset, dsl, text};
use proptest::prelude::*;

fn bollwerk() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(Ruleset::bollwerk178)
}

const TINY: &str = include_str!("variants/tiny.toml");

/// Text drawn from the characters the formats use, so that it often gets deep into a parser.
fn tokens() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("step(".to_string()),
            Just("ride(".to_string()),
            Just("leap([2,1])".to_string()),
            Just("jump(all)".to_string()),
            Just("hop(orthogonal)".to_string()),
            Just(")".to_string()),
            Just("(".to_string()),
            Just("|".to_string()),
            Just("*".to_string()),
            Just("+".to_string()),
            Just("{0,2}".to_string()),
            Just("{3,1}".to_string()),
            Just("capture".to_string()),
            Just("take".to_string()),
            Just("over(".to_string()),
            Just("via(lshape, !block-like)".to_string()),
            Just("dist(0..)".to_string()),
            Just("at(start-row)".to_string()),
            Just("forward".to_string()),
            Just("all".to_string()),
            Just(" ".to_string()),
            "[a-z#!?^~%@0-9/,.=x-]{0,3}".prop_map(|s| s),
        ],
        0..16,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn definitions_never_panic(text in tokens()) {
        let _ = dsl::parse(&text);
        // Through the loader too: as the Guard's movement of the tiny variant.
        let variant = TINY.replace("step(forward) capture | at(home) ride(forward) dist(2)", &text.replace('"', "'"));
        let _ = Ruleset::from_source("fuzz.toml", &variant);
    }

    #[test]
    fn position_text_never_panics(text in "[1-9a-zA-Z/^~#%@ wb-]{0,80}") {
        let _ = text::parse_position(bollwerk(), &text);
        let chess = Ruleset::load_named("chess").unwrap();
        let _ = text::parse_position(&chess, &text);
    }

    #[test]
    fn move_text_never_panics(text in "[A-La-l0-9x!=^~#%@QN-]{0,14}") {
        let mut g = Game::start(bollwerk());
        let _ = text::parse_turn(&mut g, &text);
    }

    #[test]
    fn damaged_variant_files_never_panic(at in 0usize..2000, len in 0usize..40, junk in "[\\[\\]\"'=#a-z0-9 \n.{}]{0,20}") {
        let mut text = TINY.to_string();
        let at = at.min(text.len());
        let end = (at + len).min(text.len());
        if text.is_char_boundary(at) && text.is_char_boundary(end) {
            text.replace_range(at..end, &junk);
            let _ = Ruleset::from_source("damaged.toml", &text);
        }
    }
}
