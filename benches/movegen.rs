//! Movement generation speed: every movement option (and placement range) of every piece of
//! both sides, in the start position and in a crowded mid-game position with stones.
//!
//! cargo bench --bench movegen

use bulwark::vm::{Machine, Options};
use bulwark::{Position, Ruleset, notation};
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
    let crowded = notation::parse_position(&rules, CROWDED.trim()).expect("crowded position");
    let mut vm = Machine::new();
    let mut opts = Options::default();
    for (name, pos) in [("start", &start), ("crowded", &crowded)] {
        c.bench_function(&format!("movement options, both sides, {name}"), |b| {
            b.iter(|| all_options(&rules, black_box(pos), &mut vm, &mut opts))
        });
        c.bench_function(&format!("placement ranges, both sides, {name}"), |b| {
            b.iter(|| all_ranges(&rules, black_box(pos), &mut vm))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
