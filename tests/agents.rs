//! Agents and self-play: budgets as written on the command line, the search and MCTS finding
//! what a position forces, evaluation from declared or estimated values, reproducible studies
//! whatever the number of jobs, shards that add up to the whole study, and the statistics.

use bulwark::play::Game;
use bulwark::search::selfplay::{self, MatchConfig, Summary};
use bulwark::search::{Agent, AgentKind, AgentSpec, Budget, Evaluator};
use bulwark::{Ruleset, text};

fn chess() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| Ruleset::load_named("chess").unwrap())
}

fn choose(spec: &str, fen: &str, seed: u64) -> String {
    let r = chess();
    let mut g = Game::new(r, text::parse_position(r, fen).unwrap()).unwrap();
    let mut a = Agent::new(AgentSpec::parse(spec).unwrap(), r, seed);
    let t = a.choose(&mut g).expect("a turn");
    text::turn_text(r, &t)
}

#[test]
fn agents_and_budgets_are_read_as_written() {
    let p = |s: &str| AgentSpec::parse(s);
    assert_eq!(p("random").unwrap().kind, AgentKind::Random);
    assert_eq!(p("search:200").unwrap().budget, Budget::Millis(200));
    assert_eq!(p("search:200ms").unwrap().budget, Budget::Millis(200));
    assert_eq!(p("search:5000n").unwrap().budget, Budget::Nodes(5000));
    assert_eq!(p("mcts:2000").unwrap().budget, Budget::Playouts(2000));
    assert_eq!(p("computer").unwrap(), p("search").unwrap());
    assert!(p("search").unwrap().reproducible());
    assert!(!p("search:200").unwrap().reproducible());
    for bad in [
        "alphabeta",
        "search:",
        "search:0",
        "search:fast",
        "random:10",
        "mcts:-3",
    ] {
        assert!(p(bad).is_err(), "{bad}");
    }
    assert_eq!(
        p("alphabeta"),
        Err(bulwark::search::AgentError::UnknownAgent(
            "alphabeta".into()
        ))
    );
    assert_eq!(
        p("search:0"),
        Err(bulwark::search::AgentError::BadBudget("0".into()))
    );
    assert_eq!(
        p("random:10"),
        Err(bulwark::search::AgentError::NoBudget("10".into()))
    );
    for s in ["random", "search:200ms", "search:5000n", "mcts:2000"] {
        assert_eq!(p(&p(s).unwrap().text()).unwrap(), p(s).unwrap(), "{s}");
    }
}

#[test]
fn search_mates_in_one_and_takes_a_free_queen() {
    // Back-rank mate: Ra1-a8.
    let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    for seed in 1..4 {
        assert_eq!(choose("search:3000n", mate, seed), "a1-a8");
    }
    // The queen on d5 hangs to the knight on c3.
    let free = "4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1";
    assert_eq!(choose("search:3000n", free, 1), "c3xd5");
}

#[test]
fn the_search_finds_quiet_turns_after_the_captures_and_scores_a_stalemate_as_a_draw() {
    // The search generates captures first and the quiet turns only when no capture cut the
    // node off. Here the capture Qxh3 leaves Black's king (boxed in by White's) without a
    // turn and out of check, a stalemate, told only when neither stage finds a turn; the
    // quiet Qe1 and Qg1 mate.
    let fen = "8/8/8/8/8/6Qr/p1K5/k7 w - - 0 1";
    for seed in 1..4 {
        let t = choose("search:20000n", fen, seed);
        assert!(t == "g3-e1" || t == "g3-g1", "{t}");
    }
    // And with a capture beside the quiet back-rank mate.
    let mate = "6k1/5ppp/8/1p6/8/2N5/8/R5K1 w - - 0 1";
    assert_eq!(choose("search:3000n", mate, 1), "a1-a8");
}

#[test]
fn search_does_not_walk_into_a_mate_in_one() {
    // White's rook on g2 shields its king: most of its moves allow Qg1 (or a knight fork)
    // mate at once (checked: `bulwark status --history` finds nine such pairs). Search keeps
    // the king safe.
    let fen = "6k1/8/8/8/8/6qn/6RP/7K w - - 0 1";
    let r = chess();
    let mut g = Game::new(r, text::parse_position(r, fen).unwrap()).unwrap();
    let mut a = Agent::new(AgentSpec::parse("search:20000n").unwrap(), r, 1);
    let t = a.choose(&mut g).unwrap();
    g.play(&t);
    // Whatever Black does next, White is not mated.
    for reply in g.legal_turns().unwrap() {
        g.play(&reply);
        let o = g.outcome();
        assert!(
            !matches!(o, Some(ref o) if o.winner == Some(bulwark::Side::Black)),
            "{} then {} mates",
            text::turn_text(r, &t),
            text::turn_text(r, &reply)
        );
        g.undo();
    }
}

#[test]
fn mcts_finds_a_mate_in_one() {
    let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    assert_eq!(choose("mcts:400", mate, 7), "a1-a8");
}

/// The evaluation reads each piece as its side's: a side's own material and its own placement
/// table (a pawn near its own promotion region is worth more, not the enemy's pawn there).
#[test]
fn the_evaluation_counts_each_piece_for_its_own_side() {
    let r = chess();
    let mut e = Evaluator::new(r);
    let mut eval = |fen: &str| e.eval(r, &text::parse_position(r, fen).unwrap());
    let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // The same array for both: only the move's bonus, whoever moves.
    assert_eq!(
        start,
        eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
    );
    // Black's queen gone: White is about a queen up.
    let up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(up - start > 800, "{start} then {up}");
    // A white pawn a step from promotion, against one at home; and Black's likewise.
    let near = eval("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let home = eval("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert!(near > home, "{near} against {home}");
    let near = eval("4k3/8/8/8/8/8/4p3/4K3 b - - 0 1");
    let home = eval("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1");
    assert!(near > home, "{near} against {home}");
}

#[test]
fn values_are_declared_or_estimated_from_mobility() {
    let r = chess();
    let e = Evaluator::new(r);
    let v = |name: &str| e.values[r.find_piece(name).unwrap()];
    assert_eq!((v("queen"), v("rook"), v("pawn")), (900, 500, 100));
    assert!(e.declared[r.find_piece("queen").unwrap()]);
    // Bollwerk 178 declares none: estimated from how many cells a piece reaches.
    let b = Ruleset::bollwerk178();
    let e = Evaluator::new(&b);
    let v = |name: &str| e.values[b.find_piece(name).unwrap()];
    assert!(e.declared.iter().all(|d| !d));
    assert!(
        v("queen") > v("knight") && v("knight") > v("guard"),
        "{:?}",
        e.values
    );
}

fn config(games: usize, jobs: usize, shard: (usize, usize)) -> MatchConfig {
    MatchConfig {
        games,
        seed: 42,
        max_turns: 60,
        jobs,
        shard,
        ..MatchConfig::new(
            AgentSpec::parse("search:300n").unwrap(),
            AgentSpec::parse("random").unwrap(),
        )
    }
}

#[test]
fn a_study_is_the_same_whatever_the_number_of_jobs() {
    let r = chess();
    let start = Game::start(r);
    let one = selfplay::play_games(r, &start, &config(6, 1, (1, 1)), &|_| {});
    let two = selfplay::play_games(r, &start, &config(6, 2, (1, 1)), &|_| {});
    assert_eq!(one, two);
    assert_eq!(one.len(), 6);
    // Different games from one seed, and another seed gives others.
    assert_ne!(one[0].moves, one[1].moves);
    let mut other = config(6, 2, (1, 1));
    other.seed = 43;
    assert_ne!(
        selfplay::play_games(r, &start, &other, &|_| {})[0].moves,
        one[0].moves
    );
}

#[test]
fn shards_add_up_to_the_whole_study() {
    let r = chess();
    let start = Game::start(r);
    let whole_cfg = config(7, 2, (1, 1));
    let whole = Summary::of(
        r,
        &whole_cfg,
        &selfplay::play_games(r, &start, &whole_cfg, &|_| {}),
    );
    let mut merged = Summary::default();
    for i in 1..=3 {
        let cfg = config(7, 2, (i, 3));
        let part = Summary::of(r, &cfg, &selfplay::play_games(r, &start, &cfg, &|_| {}));
        // Through JSON, as `merge` reads it.
        let back = Summary::from_json(&part.to_json()).unwrap();
        assert_eq!(back, part);
        merged.add(&back).unwrap();
    }
    assert_eq!(merged, whole);
    assert_eq!(merged.games, 7);
    assert_eq!(
        merged.white + merged.black + merged.draws + merged.unfinished,
        7
    );
}

#[test]
fn games_are_recorded_in_move_text_that_replays() {
    let r = chess();
    let start = Game::start(r);
    for rec in selfplay::play_games(r, &start, &config(3, 2, (1, 1)), &|_| {}) {
        let mut g = Game::start(r);
        for m in &rec.moves {
            let t = text::parse_turn(&mut g, m).unwrap_or_else(|e| panic!("{e}"));
            g.play(&t);
        }
        assert_eq!(g.outcome().map(|o| o.winner), rec.result);
    }
}

#[test]
fn statistics_intervals_and_significance() {
    let (lo, hi) = selfplay::wilson(50, 100);
    assert!(
        (lo - 0.404).abs() < 0.01 && (hi - 0.596).abs() < 0.01,
        "{lo} {hi}"
    );
    assert_eq!(selfplay::wilson(0, 0), (0.0, 1.0));
    assert!(selfplay::proportions_differ(90, 100, 50, 100));
    assert!(!selfplay::proportions_differ(50, 100, 52, 100));
    // Means from (count, sum, sum of squares): 100 games of length 40 ± a little against
    // 100 of length 60 ± a little.
    let around = |m: u64| (100u64, 100 * m, 100 * m * m + 100 * 25);
    assert!(selfplay::means_differ(around(40), around(60)));
    assert!(!selfplay::means_differ(around(40), around(40)));
    let mut a = Summary {
        variant: "A".into(),
        games: 100,
        white: 90,
        black: 10,
        length: (4000, 160_000 + 2500),
        ..Summary::default()
    };
    a.branching = (4000, 40_000);
    let mut b = a.clone();
    b.variant = "B".into();
    b.white = 50;
    b.black = 50;
    // White's score falls from 0.9 to 0.5 in every one of 50 paired openings.
    let cmp = selfplay::Comparison::new(("A".into(), "B".into()), a, b, &[-0.4; 50]);
    let t = cmp.text();
    let line = |name: &str| t.lines().find(|l| l.starts_with(name)).unwrap().to_string();
    assert!(line("white wins").ends_with('*'), "{t}");
    assert!(!line("mean length").ends_with('*'), "{t}");
    assert!(line("difference B − A").contains("significant *"), "{t}");
    let j = cmp.to_json();
    assert_eq!(j["white_score"]["significant"], true);
    assert!((j["white_score"]["a"].as_f64().unwrap() - 0.9).abs() < 1e-9);
    assert!((j["white_score"]["b"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    assert_eq!(
        j["significant"],
        serde_json::json!(["white_score", "white wins", "black wins"])
    );
}

/// The searching agent against random, 100 games per variant (50 with each colour): at least
/// 95 wins. Minutes on two cores: `cargo test --release --test agents -- --ignored`.
#[test]
#[ignore = "minutes: cargo test --release --test agents -- --ignored"]
fn search_beats_random_in_95_of_100_games() {
    for variant in ["chess", "xiangqi", "bollwerk178"] {
        let r = Ruleset::load_named(variant).unwrap();
        let start = Game::start(&r);
        let mut wins = 0;
        for (white, black, winner) in [
            ("search", "random", bulwark::Side::White),
            ("random", "search", bulwark::Side::Black),
        ] {
            let cfg = MatchConfig {
                games: 50,
                seed: 2026,
                jobs: 2,
                ..MatchConfig::new(
                    AgentSpec::parse(white).unwrap(),
                    AgentSpec::parse(black).unwrap(),
                )
            };
            let recs = selfplay::play_games(&r, &start, &cfg, &|_| {});
            wins += recs
                .iter()
                .filter(|g| g.result == Some(Some(winner)))
                .count();
        }
        eprintln!("{variant}: search won {wins} of 100");
        assert!(wins >= 95, "{variant}: search won {wins} of 100");
    }
}
