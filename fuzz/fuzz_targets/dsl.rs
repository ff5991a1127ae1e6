//! Piece definitions: compiled and run from every cell of a small board, or rejected.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Err(e) = bulwark::selfcheck::definition(text)
    {
        panic!("{e}");
    }
});
