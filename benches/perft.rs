//! Perft speed: nodes per second from the start position and from a crowded mid-game
//! position (depth 2, with bulk counting at the leaves), and full generation of every turn.
//!
//! cargo bench --bench perft

use bulwark::play::Game;
use bulwark::{Ruleset, text};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const CROWDED: &str = include_str!("../tests/positions/crowded-midgame.txt");

fn bench(c: &mut Criterion) {
    let rules = Ruleset::bollwerk178();
    let crowded = text::parse_position(&rules, CROWDED.trim()).expect("crowded position");
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos) in [("start", rules.setup.clone()), ("crowded", crowded)] {
        let mut g = Game::new(&rules, pos).unwrap();
        let nodes = g.perft(2);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("depth 2, {name} ({nodes} nodes)"), |b| {
            b.iter(|| g.perft(2));
        });
        let turns = g.count_turns() as u64;
        group.throughput(Throughput::Elements(turns));
        group.bench_function(format!("legal turns as values, {name} ({turns})"), |b| {
            b.iter(|| g.legal_turns().map(|t| t.len()));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
