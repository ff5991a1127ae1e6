//! Movement generation speed: every movement option (and placement range) of every piece of
//! both sides, in the start position and in a crowded mid-game position with stones.
//!
//! The worst case of chain search: the Spy of the dense cluster in `tests/chains.rs` (2,076
//! options), pruned as always, against the same search pruning from the first landing and
//! against every movement option of the crowded position in the same run.
//!
//! cargo bench --bench movegen

use bulwark::vm::{Machine, Options, Pruning};
use bulwark::{Position, Ruleset, text};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const CROWDED: &str = include_str!("../tests/positions/crowded-midgame.txt");

fn all_options(rules: &Ruleset, pos: &Position, vm: &mut Machine, opts: &mut Options) -> usize {
    let mut n = 0;
    for c in rules.topo.cells() {
        if pos.at(c).as_piece().is_some() {
            vm.moves(rules, pos, c, opts);
            n += opts.len();
        }
    }
    n
}

fn all_ranges(rules: &Ruleset, pos: &Position, vm: &mut Machine) -> usize {
    let mut n = 0;
    for c in rules.topo.cells() {
        if pos.at(c).as_piece().is_some() {
            n += vm.range(rules, pos, c).len();
        }
    }
    n
}

fn bench(c: &mut Criterion) {
    let rules = Ruleset::bollwerk178();
    let start = rules.setup.clone();
    let crowded = text::parse_position(&rules, CROWDED.trim()).expect("crowded position");
    let mut vm = Machine::new();
    let mut opts = Options::default();
    for (name, pos) in [("start", &start), ("crowded", &crowded)] {
        c.bench_function(&format!("movement options, both sides, {name}"), |b| {
            b.iter(|| all_options(&rules, black_box(pos), &mut vm, &mut opts));
        });
        c.bench_function(&format!("placement ranges, both sides, {name}"), |b| {
            b.iter(|| all_ranges(&rules, black_box(pos), &mut vm));
        });
    }
}

const CLUSTER: &str = "1/10/10/10/10/3@1^1^1^2/2^^^^^^^@@1/3^1^1^1^2/2rkeqsmcan1/3g1g1g1r2/2ANggggggg1/3E1Q1M1C2/2GGGGGGRRK1/1SG1G1G1G1/10/10/10/1 w";

fn chains(c: &mut Criterion) {
    let rules = Ruleset::bollwerk178();
    let pos = text::parse_position(&rules, CLUSTER).expect("cluster position");
    let spy = rules.topo.parse_cell("C5").expect("cell");
    let mut g = c.benchmark_group("dense Spy chain");
    g.sample_size(10);
    for (name, pruning) in [("auto", Pruning::Auto), ("always", Pruning::Always)] {
        let mut vm = Machine::with_pruning(pruning);
        let mut opts = Options::default();
        g.bench_function(name, |b| {
            b.iter(|| {
                vm.moves(&rules, black_box(&pos), spy, &mut opts);
                opts.len()
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench, chains);
criterion_main!(benches);
