//! Every input the fuzz targets (`fuzz/fuzz_targets/`) found a problem with, kept in
//! `fuzz/regressions/TARGET/`, and their seed corpora in `fuzz/corpus/TARGET/`, run through the
//! same invariants (`bulwark::selfcheck`) on every `cargo test`.

use std::path::Path;

use bulwark::selfcheck;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = Vec::new();
    for dir in ["regressions", "corpus"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_file() && p.file_name().is_some_and(|n| n != ".gitkeep") {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Runs `check` over a target's inputs, as the fuzz target does (the first byte picks the
/// bundled variant where the target takes one).
fn replay(target: &str, check: impl Fn(&[u8]) -> Result<(), String>) -> usize {
    let list = inputs(target);
    for (name, data) in &list {
        if let Err(e) = check(data) {
            panic!("{name}: {e}");
        }
    }
    list.len()
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

#[test]
fn variant_text_inputs() {
    let n = replay("variant_text", |d| {
        text(d).map_or(Ok(()), selfcheck::variant_text)
    });
    assert!(n >= 4, "the seed corpus is there");
}

#[test]
fn dsl_inputs() {
    let n = replay("dsl", |d| text(d).map_or(Ok(()), selfcheck::definition));
    assert!(n >= 6);
}

#[test]
fn position_text_inputs() {
    let rules = selfcheck::bundled();
    let n = replay("position_text", |d| match d.split_first() {
        Some((&pick, rest)) => text(rest).map_or(Ok(()), |t| {
            selfcheck::position_text(&rules[pick as usize % rules.len()], t)
        }),
        None => Ok(()),
    });
    assert!(n >= 3);
}

#[test]
fn move_text_inputs() {
    let rules = selfcheck::bundled();
    let n = replay("move_text", |d| match d.split_first() {
        Some((&pick, rest)) => text(rest).map_or(Ok(()), |t| {
            selfcheck::move_text(&rules[pick as usize % rules.len()], t)
        }),
        None => Ok(()),
    });
    assert!(n >= 4);
}

#[test]
fn history_text_inputs() {
    let rules = selfcheck::bundled();
    let n = replay("history_text", |d| match d.split_first() {
        Some((&pick, rest)) => text(rest).map_or(Ok(()), |t| {
            selfcheck::history_text(&rules[pick as usize % rules.len()], t)
        }),
        None => Ok(()),
    });
    assert!(n >= 5);
}

#[test]
fn request_inputs() {
    let variants: Vec<bulwark::serve::Variant> = bulwark::BUNDLED
        .iter()
        .filter_map(|(name, text)| bulwark::serve::Variant::load(name, text).ok())
        .collect();
    let n = replay("request", |d| match d.split_first() {
        Some((&pick, rest)) => text(rest).map_or(Ok(()), |t| {
            selfcheck::requests(&variants[pick as usize % variants.len()], t)
        }),
        None => Ok(()),
    });
    assert!(n >= 3);
}

/// The invariants hold on ordinary input: every bundled start position, a legal first turn, a
/// chain definition (so an invariant that rejects everything would fail here).
#[test]
fn the_invariants_hold_on_ordinary_input() {
    let rules = selfcheck::bundled();
    for r in &rules {
        let start = bulwark::text::write_position(r, &r.setup);
        selfcheck::position_text(r, &start).unwrap();
    }
    selfcheck::move_text(&rules[0], "F4-F5").unwrap();
    selfcheck::definition("(jump(all) over(piece))+").unwrap();
    selfcheck::history_text(&rules[1], "e2-e4 e7-e5 g1-f3").unwrap();
    let chess =
        bulwark::serve::Variant::load("chess", bulwark::load::bundled_text("chess").unwrap())
            .unwrap();
    selfcheck::requests(&chess, "play e2-e4\nundo\nredo\nexport").unwrap();
}
