//! Variant files: any text loads or is rejected with problems; a loaded one plays.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Err(e) = bulwark::selfcheck::variant_text(text)
    {
        panic!("{e}");
    }
});
