//! Agents' speed: search nodes per second from the start of Bollwerk 178, chess and xiangqi
//! (one turn with a fixed node budget), and self-play throughput (games per second on one
//! thread; times 60 for games per minute per core).
//!
//! cargo bench --bench search

use bulwark::Ruleset;
use bulwark::play::Game;
use bulwark::search::selfplay::{self, MatchConfig};
use bulwark::search::{Agent, AgentSpec};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for variant in ["chess", "xiangqi", "bollwerk178"] {
        let rules = Ruleset::load_named(variant).expect("bundled variant");
        let spec = AgentSpec::parse("search:20000n").expect("agent");
        // Nodes one turn's search takes (the same every time: a node budget).
        let mut g = Game::start(&rules);
        let mut a = Agent::new(spec, &rules, 1);
        a.choose(&mut g);
        let nodes = a.nodes().max(1);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{variant}: one turn, {nodes} nodes"), |b| {
            b.iter(|| {
                let mut g = Game::start(&rules);
                let mut a = Agent::new(spec, &rules, 1);
                a.choose(&mut g)
            });
        });
    }
    for (variant, white, black, turns) in [
        ("chess", "search:2000n", "random", 200),
        ("xiangqi", "search:2000n", "random", 200),
        ("bollwerk178", "random", "random", 100),
    ] {
        let rules = Ruleset::load_named(variant).expect("bundled variant");
        let start = Game::start(&rules);
        let cfg = MatchConfig {
            games: 4,
            max_turns: turns,
            ..MatchConfig::new(
                AgentSpec::parse(white).expect("agent"),
                AgentSpec::parse(black).expect("agent"),
            )
        };
        group.throughput(Throughput::Elements(4));
        group.bench_function(
            format!("{variant}: self-play, {white} against {black}, 4 games on one thread"),
            |b| b.iter(|| selfplay::play_games(&rules, &start, &cfg, &|_| {})),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
