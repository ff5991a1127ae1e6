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

#[test]
fn perft_on_several_threads_counts_the_same() {
    for (variant, position, depth) in [
        ("chess", None, 3),
        // Few root turns: the work is split at the second ply.
        (
            "chess",
            Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
            4,
        ),
        ("xiangqi", None, 3),
        ("bollwerk178", None, 2),
        ("border-wars", None, 3),
    ] {
        let rules = Ruleset::load_named(variant).unwrap();
        let pos = match position {
            Some(p) => text::parse_position(&rules, p).unwrap(),
            None => rules.setup.clone(),
        };
        let mut g = Game::new(&rules, pos).unwrap();
        let one = g.perft(depth);
        for jobs in [1, 2, 3] {
            assert_eq!(
                g.perft_jobs(depth, jobs),
                (one, None),
                "{variant} with {jobs} jobs"
            );
        }
    }
    // Rules that look at the past see the game's history in every thread: Waterloo's
    // repetition ban after two knight moves out and one back.
    let rules = Ruleset::load_named("waterloo").unwrap();
    let mut g = Game::start(&rules);
    for m in ["g2-f4", "g9-f7", "f4-g2"] {
        let t = text::parse_turn(&mut g, m).unwrap();
        g.play(&t);
    }
    let one = g.perft(3);
    assert_eq!(g.perft_jobs(3, 2), (one, None));
}
