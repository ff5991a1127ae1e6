//! Perft speed of chess (start position, depth 5), xiangqi (start position, depth 4) and
//! Waterloo (start position, depth 3) and Border Wars (start, depth 4) through the same interpreter, with bulk counting at the
//! last ply.
//!
//! cargo bench --bench engines
//!
//! For scale, the same chess perft by shakmaty, a dedicated hand-written chess move generator,
//! runs in the same benchmark on the same machine.

use bulwark::Ruleset;
use bulwark::play::Game;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (variant, depth) in [
        ("chess", 5),
        ("xiangqi", 4),
        ("waterloo", 3),
        ("border-wars", 4),
    ] {
        let rules = Ruleset::load_named(variant).expect("bundled variant");
        let mut g = Game::start(&rules);
        let nodes = g.perft(depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(
            format!("{variant} start depth {depth} ({nodes} nodes)"),
            |b| b.iter(|| g.perft(depth)),
        );
    }
    let start = shakmaty::Chess::default();
    let nodes = shakmaty::perft(&start, 5);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(
        format!("shakmaty chess start depth 5 ({nodes} nodes)"),
        |b| b.iter(|| shakmaty::perft(&start, 5)),
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
