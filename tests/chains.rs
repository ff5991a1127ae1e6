//! Chains whose cost does not explode (B-16: a chain never visits a cell twice, so a search
//! walks simple paths, and their number grows exponentially with the cells a chain can use).
//!
//! The interpreter prunes a chain state when a walk from it that may revisit its own cells (a
//! superset of what the real paths reach) finds only results already known. These tests check
//! that the pruning never changes an option, against the same search with pruning switched off,
//! and that the dense positions and definitions that used to hang now answer.

mod common;

use bulwark::vm::{COMMAND_BUDGET, Machine, Options, Pruning, Stop};
use bulwark::{Cell, Position, Ruleset, text};
use proptest::prelude::*;

/// Every option as (destination, captured cells, capturing leg, stone effect), sorted.
fn option_set(opts: &Options) -> Vec<(Cell, Vec<Cell>, bool, String)> {
    let mut v: Vec<_> = opts
        .moves
        .iter()
        .map(|m| {
            (
                m.to,
                opts.captures(m).to_vec(),
                m.capturing_leg,
                format!("{:?}", m.stone),
            )
        })
        .collect();
    v.sort();
    v
}

/// Options as compared, and the placement range.
type Outcome = (Vec<(Cell, Vec<Cell>, bool, String)>, Vec<Cell>);

/// Options and placement range of the piece on `at` under one pruning policy.
fn run(rules: &Ruleset, pos: &Position, at: Cell, pruning: Pruning) -> Outcome {
    let mut vm = Machine::with_pruning(pruning);
    let mut opts = Options::default();
    vm.moves(rules, pos, at, &mut opts);
    let range = vm.range(rules, pos, at).to_vec();
    assert_eq!(vm.take_runaway(), None, "no runaway expected");
    (option_set(&opts), range)
}

/// The dense cluster of a real game's material (20 pieces a side, 14 arrows, 3 bombs) in which
/// the Spy on C5 used to make `diagram`, `moves` and `perft --depth 1` hang.
const CLUSTER: &str = "1/10/10/10/10/3@1^1^1^2/2^^^^^^^@@1/3^1^1^1^2/2rkeqsmcan1/3g1g1g1r2/2ANggggggg1/3E1Q1M1C2/2GGGGGGRRK1/1SG1G1G1G1/10/10/10/1 w";

#[test]
fn b16_b31_spy_in_a_dense_cluster_answers() {
    let rules = common::rules();
    let pos = text::parse_position(rules, CLUSTER).unwrap();
    let at = rules.topo.parse_cell("C5").unwrap();
    let auto = run(rules, &pos, at, Pruning::Auto);
    let always = run(rules, &pos, at, Pruning::Always);
    assert_eq!(
        auto, always,
        "pruning from the first landing changes nothing"
    );
    // The engine's count (locked after review: one- and two-capture chains through the arrow
    // lattice with every tail, and the non-capturing chains to every reachable cell).
    assert_eq!(auto.0.len(), 2076);
    // Captures of two pieces exist, never of three (B-31).
    assert!(auto.0.iter().any(|o| o.1.len() == 2));
    assert!(auto.0.iter().all(|o| o.1.len() <= 2));
    // The whole turn list of that position is generated too.
    let mut game = bulwark::play::Game::new(rules, pos).unwrap();
    assert!(game.count_turns() > 0);
    assert_eq!(game.runaway(), None);
}

/// A dense random window of the Bollwerk board around D6: pieces of both sides, arrows and
/// blocks, small enough for the search without pruning to finish.
fn window() -> impl Strategy<Value = Vec<(u8, u8)>> {
    // (cell index in the 5x5 window from B4, occupant code)
    proptest::collection::vec((0u8..25, 0u8..6), 8..20)
}

fn window_position(items: &[(u8, u8)], mover: char) -> (Position, Cell) {
    const LETTERS: [char; 4] = ['G', 'g', 'S', 's'];
    let rules = common::rules();
    let mut spec = String::new();
    for &(i, code) in items {
        let (f, r) = (i % 5, i / 5);
        let cell = format!("{}{}", (b'B' + f) as char, 4 + r);
        let ch = match code {
            0..=3 => LETTERS[code as usize],
            4 => '^',
            _ => '#',
        };
        spec.push_str(&format!("{cell}={ch} "));
    }
    spec.push_str(&format!("D6={mover}"));
    let p = common::pos(&spec);
    (p, rules.topo.parse_cell("D6").unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// B-16: pruning never adds, drops or changes an option or a placement cell.
    #[test]
    fn b16_pruning_never_changes_options(items in window(), mover in prop::sample::select(vec!['S', 'G', 's', 'g'])) {
        let rules = common::rules();
        let (pos, at) = window_position(&items, mover);
        let exact = run(rules, &pos, at, Pruning::Never);
        prop_assert_eq!(&run(rules, &pos, at, Pruning::Always), &exact);
        prop_assert_eq!(&run(rules, &pos, at, Pruning::Auto), &exact);
    }
}

/// A small board whose one piece has the given definition.
fn board(size: usize, moves: &str) -> Ruleset {
    let files: Vec<String> = (0..size)
        .map(|i| format!("\"{}\"", (b'a' + i as u8) as char))
        .collect();
    let row = "#".repeat(size);
    let mask = vec![row; size].join("\n");
    let empty = vec![size.to_string(); size].join("/");
    let text = format!(
        "[game]\nname = \"Chains\"\n\n[board]\nfiles = [{}]\nranks = {size}\nmask = \"\"\"\n{mask}\n\"\"\"\n\n[pieces.walker]\nletter = \"W\"\nmoves = '''{moves}'''\n\n[pieces.post]\nletter = \"P\"\nmoves = \"step(forward)\"\n\n[setup]\nposition = \"{empty} w\"\n",
        files.join(", ")
    );
    Ruleset::from_source("chains.toml", &text)
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)))
}

/// Definitions `check` accepts whose paths are exponentially many: each answers, with exactly
/// the options of the unpruned search where that finishes.
#[test]
fn b16_unbounded_and_long_chains_answer() {
    for (size, def, exhaustive) in [
        (5, "(step(all))+", false),
        (4, "(step(all))+", true),
        (6, "step(all){12}", false),
        (4, "step(all){6}", true),
        (6, "(step(all)?){10} step(all)", false),
        (
            4,
            "(step(orthogonal) | jump(all) over(piece))+ step(all)",
            true,
        ),
    ] {
        let rules = board(size, def);
        let mut pos = rules.setup.clone();
        let at = rules.topo.parse_cell("b2").unwrap();
        pos.put(
            at,
            bulwark::Occupant::piece(bulwark::Side::White, bulwark::core::PieceKindId::new(0)),
        );
        let post = rules.topo.parse_cell("c3").unwrap();
        pos.put(
            post,
            bulwark::Occupant::piece(bulwark::Side::Black, bulwark::core::PieceKindId::new(1)),
        );
        let auto = run(&rules, &pos, at, Pruning::Auto);
        assert_eq!(auto, run(&rules, &pos, at, Pruning::Always), "{def}");
        if exhaustive {
            assert_eq!(auto, run(&rules, &pos, at, Pruning::Never), "{def}");
        }
        assert!(!auto.0.is_empty(), "{def}: some options");
    }
}

/// The walkers' test variant (tests/variants/walkers.toml): chains that repeat one leg and end.
fn walkers() -> Ruleset {
    Ruleset::from_source("walkers.toml", include_str!("variants/walkers.toml"))
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)))
}

/// B-16 for chains that repeat one leg and then end (`(step(all))+`, a hopper's jumps): where
/// the turns are counted or listed in any order they are found cell by cell, each reachable
/// cell once; listed in order, path by path. The same turns: after every first turn of the
/// walkers' game, the count is the length of the list and the two listings hold the same turns.
#[test]
fn b16_repeated_chains_counted_cell_by_cell_are_the_listed_turns() {
    let rules = walkers();
    let mut game = bulwark::Game::new(&rules, rules.setup.clone()).unwrap();
    let first = game.legal_turns().unwrap();
    assert_eq!(first.len(), game.count_turns());
    for t in &first {
        game.play(t);
        let listed = game.legal_turns().unwrap();
        let any = game.legal_turns_any_order().unwrap();
        assert_eq!(
            game.count_turns(),
            listed.len(),
            "after {}",
            text::turn_text(&rules, t)
        );
        let set = |v: &[bulwark::Turn]| -> std::collections::BTreeSet<String> {
            v.iter().map(|t| text::turn_text(&rules, t)).collect()
        };
        assert_eq!(
            set(&any),
            set(&listed),
            "after {}",
            text::turn_text(&rules, t)
        );
        assert_eq!(set(&listed).len(), listed.len(), "each turn once");
        game.undo();
    }
}

/// Perft 3 of the walkers' game (an engine count; perft 2, 8,996, is also what the
/// path-by-path search counted) needs each walker's reachable cells, not its paths: under a
/// command's default budget (`perft` on the command line) no run goes beyond ordinary work,
/// where walking every path spent the whole budget and stopped.
#[test]
fn b16_repeated_chains_count_within_the_work_budget() {
    let rules = walkers();
    let mut game = bulwark::Game::new(&rules, rules.setup.clone()).unwrap();
    let stop = std::sync::Arc::new(Stop::with_budget(None, COMMAND_BUDGET));
    game.set_stop(Some(stop.clone()));
    assert_eq!(game.perft(2), 8_996);
    assert_eq!(game.perft(3), 920_454);
    assert_eq!(game.runaway(), None);
    assert_eq!(stop.excess(), 0, "landings beyond the ordinary");
}
