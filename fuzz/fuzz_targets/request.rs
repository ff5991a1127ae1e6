//! The web board's request handling on one game of a bundled variant: a script of requests,
//! one a line; every request answers with a status that fits, and the game stays readable.
#![no_main]
use std::sync::OnceLock;

static VARIANTS: OnceLock<Vec<bulwark::serve::Variant>> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let variants = VARIANTS.get_or_init(|| {
        bulwark::BUNDLED
            .iter()
            .filter_map(|(name, text)| bulwark::serve::Variant::load(name, text).ok())
            .collect()
    });
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Ok(script) = std::str::from_utf8(rest)
        && let Err(e) = bulwark::selfcheck::requests(&variants[pick as usize % variants.len()], script)
    {
        panic!("{e}");
    }
});
