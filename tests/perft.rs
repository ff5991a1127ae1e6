//! Perft: leaf counts of the legal turn tree, read from `tests/perft/*.perft` (each number's
//! source is given in its file). Deep counts marked `ignored` run with `cargo test -- --ignored`.

use bulwark::play::Game;
use bulwark::{Ruleset, text};

struct Case {
    file: String,
    position: String,
    depth: u32,
    nodes: u64,
    ignored: bool,
}

fn cases() -> Vec<Case> {
    let dir = format!("{}/tests/perft", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut position = String::new();
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            if let Some(p) = line.strip_prefix("position:") {
                position = p.trim().to_string();
                continue;
            }
            let (ignored, rest) = match line.strip_prefix("ignored ") {
                Some(r) => (true, r),
                None => (false, line),
            };
            let (d, n) = rest
                .strip_prefix("depth ")
                .and_then(|r| r.split_once(':'))
                .unwrap_or_else(|| panic!("{file}: bad line `{line}`"));
            out.push(Case {
                file: file.clone(),
                position: position.clone(),
                depth: d.trim().parse().unwrap(),
                nodes: n.trim().parse().unwrap(),
                ignored,
            });
        }
    }
    out
}

fn run(ignored: bool) {
    let mut ran = 0;
    for c in cases().into_iter().filter(|c| c.ignored == ignored) {
        // The file name names the bundled variant: chess.perft, xiangqi.perft, bollwerk178.perft.
        let variant = c.file.trim_end_matches(".perft");
        let rules = Ruleset::load_named(variant)
            .unwrap_or_else(|_| panic!("{}: no bundled variant {variant}", c.file));
        let pos =
            text::parse_position(&rules, &c.position).unwrap_or_else(|e| panic!("{}: {e}", c.file));
        let mut g = Game::new(&rules, pos).unwrap();
        let hash = g.hash();
        assert_eq!(
            g.perft(c.depth),
            c.nodes,
            "{} depth {} from {}",
            c.file,
            c.depth,
            c.position
        );
        assert_eq!(g.hash(), hash, "perft leaves the position as it found it");
        ran += 1;
    }
    assert!(ran > 0);
}

#[test]
fn perft_data_files() {
    run(false);
}

#[test]
#[ignore = "minutes; cargo test --release --test perft -- --ignored"]
fn perft_data_files_deep() {
    run(true);
}

#[test]
fn divide_adds_up_to_perft() {
    let rules = Ruleset::bollwerk178();
    let pos = text::parse_position(
        &rules,
        "1/10/10/3ng5/10/12/12/5S6/12/12/6q5/12/12/10/4NG4/10/10/1 w ^1~0#0%0@0/^0~0#0%0@1 -",
    )
    .unwrap();
    let mut g = Game::new(&rules, pos).unwrap();
    let total = g.perft(2);
    let mut sum = 0;
    for t in g.legal_turns().unwrap() {
        g.play(&t);
        sum += g.perft(1);
        g.undo();
    }
    assert_eq!(sum, total);
}
