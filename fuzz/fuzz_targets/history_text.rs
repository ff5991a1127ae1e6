//! A history in move text from the start of every bundled variant: each turn that reads is
//! legal and is played; taking them all back restores the start.
#![no_main]
use std::sync::OnceLock;

static RULES: OnceLock<Vec<bulwark::Ruleset>> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let rules = RULES.get_or_init(bulwark::selfcheck::bundled);
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Ok(text) = std::str::from_utf8(rest)
        && let Err(e) = bulwark::selfcheck::history_text(&rules[pick as usize % rules.len()], text)
    {
        panic!("{e}");
    }
});
