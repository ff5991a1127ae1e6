//! The variant-file reference (`docs/format-reference.md`) is generated from the loader's key
//! tables: this test fails when the committed page is out of date, and rewrites it with
//! `BULWARK_UPDATE_REFERENCE=1`.

#[test]
fn the_committed_format_reference_is_up_to_date() {
    let path = format!("{}/docs/format-reference.md", env!("CARGO_MANIFEST_DIR"));
    let generated = bulwark::load::format_reference();
    if std::env::var_os("BULWARK_UPDATE_REFERENCE").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/format-reference.md is out of date: run BULWARK_UPDATE_REFERENCE=1 cargo test --test format_reference"
    );
}

/// Every key the reference lists is one the loader reads: a file using each section's
/// first key is checked against the same tables (a key missing from the reference would be
/// refused as unknown).
#[test]
fn the_reference_names_every_key_of_a_bundled_variant() {
    let reference = bulwark::load::format_reference();
    for (name, text) in bulwark::BUNDLED {
        let doc: toml::Table = toml::from_str(text).unwrap();
        for (key, value) in &doc {
            assert!(
                reference.contains(&format!("| `{key}` |")),
                "{name}: top-level key `{key}` missing from the reference"
            );
            // Tables of names (pieces, regions, fragments, …) hold names, not keys.
            let named = [
                "regions",
                "directions",
                "classes",
                "directions-by-class",
                "fragments",
                "stones",
                "pieces",
            ];
            if let toml::Value::Table(t) = value
                && !named.contains(&key.as_str())
            {
                for (k, v) in t {
                    if v.is_table() {
                        continue;
                    }
                    assert!(
                        reference.contains(&format!("| `{k}` |")),
                        "{name}: key `{key}.{k}` missing from the reference"
                    );
                }
            }
        }
    }
}
