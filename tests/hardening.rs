//! Hostile, careless and merely dense input: every command answers with a result or with a
//! message and exit 1 or 2, never a panic (101), an abort (134), a hang or a silent misreading.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

use bulwark::play::Game;
use bulwark::{Ruleset, text};

fn bulwark(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("run bulwark")
}

fn chess() -> Ruleset {
    Ruleset::load_named("chess").unwrap()
}

fn problems(text: &str) -> Vec<String> {
    match Ruleset::from_source("t.toml", text) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.iter().map(|p| p.code.id()).collect(),
    }
}

const TINY: &str = include_str!("variants/tiny.toml");

/// The tiny fixture with the rook's definition replaced.
fn tiny_with(moves: &str) -> String {
    TINY.replace(
        "moves = \"ride(orthogonal) capture\"",
        &format!("moves = '''{moves}'''"),
    )
}

// ---------------------------------------------------------------------------------------------
// Compile-time limits.

#[test]
fn nested_repetitions_past_the_op_limit_are_a_diagnostic() {
    let p = problems(&tiny_with("((((step(all){32}){32}){32}){32}){32}"));
    assert_eq!(p, ["bulwark::variant::too_large"]);
    let p = problems(&tiny_with("(((step(all){32}){32}){32})"));
    assert_eq!(p, ["bulwark::variant::too_large"]);
    // Just under the limit compiles.
    assert!(problems(&tiny_with("(step(all){32}){32}")).is_empty());
}

#[test]
fn deep_nesting_is_a_syntax_error_not_a_stack_overflow() {
    let deep = format!("{}step(all){}", "(".repeat(5000), ")".repeat(5000));
    assert_eq!(
        problems(&tiny_with(&deep)),
        ["bulwark::variant::dsl_syntax"]
    );
    let filter = format!(
        "jump(all) over({}piece{})",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    assert_eq!(
        problems(&tiny_with(&filter)),
        ["bulwark::variant::dsl_syntax"]
    );
    // 64 levels are fine.
    let ok = format!("{}step(all){}", "(".repeat(60), ")".repeat(60));
    assert!(problems(&tiny_with(&ok)).is_empty());
}

#[test]
fn an_offset_out_of_range_is_refused_not_wrapped() {
    for o in [
        "[-2147483648,2]",
        "[2147483647,1]",
        "[99999999999,1]",
        "[17,0]",
        "[0,0]",
    ] {
        assert_eq!(
            problems(&tiny_with(&format!("leap({o})"))),
            ["bulwark::variant::bad_offset"],
            "{o}"
        );
    }
}

#[test]
fn more_than_32_castlings_are_a_diagnostic() {
    let entry = "[[castling]]\nside = \"white\"\nletter = \"K\"\nking = \"a1\"\nking-to = \"b1\"\nrook = \"b1\"\nrook-to = \"a1\"\nempty = \"\"\nsafe = \"\"\n";
    let text = format!("{TINY}\n{}", entry.repeat(33));
    assert!(
        problems(&text)
            .iter()
            .any(|c| c == "bulwark::variant::castling"),
        "{:?}",
        problems(&text)
    );
}

// ---------------------------------------------------------------------------------------------
// Position text: no silent misreading, no unplayable position.

#[test]
fn a_huge_digit_run_is_refused_not_wrapped() {
    let rules = Ruleset::bollwerk178();
    let e = text::parse_position(
        &rules,
        "1/10/10/10/10/12/12/12/12/12/12/12/12/10/10/10/4A5/99999999999999999999999GG w",
    )
    .unwrap_err();
    assert!(
        e.message.contains("rank 1") && e.message.contains("runs past"),
        "{e}"
    );
    // Inside [setup] too.
    let text = rules_text_with_setup(
        "1/10/10/10/10/12/12/12/12/12/12/12/12/10/10/10/4A5/99999999999999999999999GG w",
    );
    assert!(!problems(&text).is_empty());
}

fn rules_text_with_setup(setup: &str) -> String {
    let text = include_str!("../variants/bollwerk178.toml");
    let start = text.find("position = \"").unwrap();
    let end = text[start..].find('\n').unwrap() + start;
    format!("{}position = \"{setup}\"{}", &text[..start], &text[end..])
}

#[test]
fn chess_positions_need_one_king_a_side() {
    let c = chess();
    for (fen, what) in [
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "black has 0 royal"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "white has 0 royal"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has 2 royal"),
    ] {
        let e = text::parse_position(&c, fen).unwrap_err();
        assert!(e.message.contains(what), "{fen}: {e}");
    }
    let x = Ruleset::load_named("xiangqi").unwrap();
    let e = text::parse_position(&x, "9/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap_err();
    assert!(e.message.contains("black has 0 royal"), "{e}");
}

#[test]
fn the_side_not_to_move_may_not_be_in_check() {
    let c = chess();
    let e = text::parse_position(&c, "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
    assert!(e.message.contains("attacked"), "{e}");
    // The same with Black to move is an ordinary check.
    let pos = text::parse_position(&c, "4k3/4R3/8/8/8/8/8/4K3 b - - 0 1").unwrap();
    assert!(Game::new(&c, pos).unwrap().in_check());
}

#[test]
fn an_en_passant_cell_must_follow_a_two_cell_step() {
    let c = chess();
    // A king "passed over" f6: taking it en passant would capture a king.
    for fen in [
        "8/8/8/4kP2/8/8/8/4K3 w - e6 0 1",
        "4k3/8/8/4pP2/8/8/8/4K3 w - d6 0 1",
        "4k3/8/4p3/4pP2/8/8/8/4K3 w - e6 0 1",
    ] {
        let e = text::parse_position(&c, fen).unwrap_err();
        assert!(e.message.contains("en-passant"), "{fen}: {e}");
    }
    // A real one.
    let pos = text::parse_position(&c, "4k3/8/8/4pP2/8/8/8/4K3 w - e6 0 1").unwrap();
    let mut g = Game::new(&c, pos).unwrap();
    let texts: Vec<String> = g
        .legal_turns()
        .unwrap()
        .iter()
        .map(|t| text::turn_text(&c, t))
        .collect();
    assert!(texts.contains(&"f5-e6xe5".to_string()), "{texts:?}");
}

#[test]
fn counters_and_supplies_at_their_limits_round_trip_and_never_wrap() {
    // Chess without its fifty-move limit, so that turns go on at the counter's top.
    let text =
        include_str!("../variants/chess.toml").replace("limit = 100\nat-limit = \"draw\"\n", "");
    assert!(!text.contains("limit = 100"));
    let c = Ruleset::from_source("chess-no-limit.toml", &text).unwrap();
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295";
    let pos = text::parse_position(&c, fen).unwrap();
    assert_eq!(text::write_position(&c, &pos), fen);
    let mut g = Game::new(&c, pos).unwrap();
    for t in ["e1-e2", "e8-e7"] {
        let turn = text::parse_turn(&mut g, t).unwrap();
        g.play(&turn);
    }
    assert_eq!(
        text::write_position(&c, g.pos()),
        "8/4k3/8/8/8/8/4K3/8 w - - 4294967295 4294967295"
    );
    assert!(text::parse_position(&c, "4k3/8/8/8/8/8/8/4K3 w - - 4294967296 1").is_err());
    // A supply at the top of its range is written back as read.
    let b = Ruleset::bollwerk178();
    let text = "1/5a4/1cmrsqrken/gggggggggg/10/12/12/12/12/12/12/12/12/10/GGGGGGGGGG/NEKRQSRMC1/4A5/1 w ^4294967295~1#10%1@3/^10~1#10%1@3 -";
    let pos = text::parse_position(&b, text).unwrap();
    assert_eq!(text::write_position(&b, &pos), text);
}

#[test]
fn a_castling_whose_king_lands_on_its_partners_cell_moves_both() {
    // A Chess960-like castling: king e1 to g1, partner g1 to f1.
    // The start has the rook on g1 (a castling right needs the start's kind on the partner's
    // cell).
    let text = include_str!("../variants/chess.toml")
        .replace(
            "king-to = \"g1\"\nrook = \"h1\"\nrook-to = \"f1\"\nempty = \"f1 g1\"",
            "king-to = \"g1\"\nrook = \"g1\"\nrook-to = \"f1\"\nempty = \"f1\"",
        )
        .replace("RNBQKBNR w", "RNBQKBRN w");
    let c = Ruleset::from_source("c960.toml", &text).unwrap();
    let pos = text::parse_position(&c, "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1").unwrap();
    let mut g = Game::new(&c, pos).unwrap();
    let t = text::parse_turn(&mut g, "e1-g1").unwrap();
    g.play(&t);
    assert_eq!(
        text::write_position(&c, g.pos()),
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    );
    g.undo();
    assert_eq!(
        text::write_position(&c, g.pos()),
        "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1"
    );
}

// ---------------------------------------------------------------------------------------------
// The command line: a table of bad inputs for every subcommand.

#[test]
fn every_subcommand_answers_bad_input_with_exit_1_or_2_and_a_message() {
    let cases: &[&[&str]] = &[
        &["check", "no-such-file.toml"],
        &["check", "/dev/null"],
        &["check", "tests/broken/many_errors.toml"],
        &["diagram", "--at", "Z99"],
        &["diagram", "--at", "A1"],
        &["diagram", "--at", "G3", "--position", "not a position"],
        &["diagram", "--at", "G3", "--format", "png"],
        &["diagram"],
        &["moves", "--position", "1/10 w"],
        &["moves", "chess", "--position", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &[
            "moves",
            "chess",
            "--position",
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        ],
        &["moves", "nonsense-variant"],
        &["perft"],
        &["perft", "--depth", "100000"],
        &["perft", "--depth", "-1"],
        &["perft", "--depth", "1", "--position", "x w"],
        &[
            "perft",
            "chess",
            "--depth",
            "1",
            "--position",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ],
        &["play", "--position", "1/1 w"],
        &["play", "--white", "robot"],
        &["compile", "--piece", "dragon"],
        &["compile", "chess", "--piece", ""],
        &["rulebook"],
        &["rulebook", "--out", "/dev/null/cannot"],
        &[
            "rulebook",
            "--out",
            "target/rb-bad",
            "--scenarios",
            "no-such-scenarios.toml",
        ],
        &["no-such-command"],
        &["diff", "bollwerk178"],
        &["diff", "bollwerk178", "no-such-file.toml"],
        &["diff", "bollwerk178", "chess", "--format", "html"],
        &[
            "diff",
            "bollwerk178",
            "chess",
            "--scenarios",
            "no-such-scenarios.toml",
        ],
        &["moves", "--position", "\u{1F600}"],
        &["diagram", "--at", "\u{1F600}"],
    ];
    for args in cases {
        let o = bulwark(args);
        let code = o.status.code();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            matches!(code, Some(1 | 2)),
            "{args:?}: exit {code:?}\n{err}"
        );
        assert!(!err.trim().is_empty(), "{args:?}: no message");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Reads one line of a command's output, closes the pipe and waits: the command must end
/// quietly (exit 0, nothing on stderr), not panic on the broken pipe.
fn first_line_then_close(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bulwark");
    {
        let out = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(out).read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "{args:?}: some output");
    }
    drop(child.stdin.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn closed_pipes_end_quietly() {
    first_line_then_close(&["moves"]);
    first_line_then_close(&["moves", "--json"]);
    first_line_then_close(&["check"]);
    first_line_then_close(&["compile"]);
    first_line_then_close(&["perft", "--depth", "2", "--divide"]);
    first_line_then_close(&["play", "--white", "computer", "--black", "computer"]);
    first_line_then_close(&["diagram", "--at", "G3"]);
}

/// The work budget of a run belongs to the stop a game is put under, not to the process or
/// the thread: games with different budgets at once each keep their own, a game's clone
/// carries its stop to another thread, the runaway names the budget it ran out of, and work
/// under no stop has the default.
#[test]
fn the_work_budget_is_the_games_own() {
    use bulwark::vm::{Halt, Stop, WORK_BUDGET};
    use std::sync::Arc;
    let rules =
        Ruleset::from_source("t.toml", &tiny_with("step(orthogonal) step(orthogonal)")).unwrap();
    let runaway = |budget: Option<u64>| {
        let mut game = Game::start(&rules);
        if let Some(n) = budget {
            game = game.under(&Arc::new(Stop::default().with_work_budget(n)));
        }
        // The clone, not the game, runs on the other thread.
        let mut game = game.clone();
        move || {
            let _ = game.legal_turns();
            game.runaway()
        }
    };
    let (small, default, ample) = std::thread::scope(|s| {
        let small = s.spawn(runaway(Some(2)));
        let default = s.spawn(runaway(None));
        let ample = s.spawn(runaway(Some(1000)));
        (
            small.join().unwrap(),
            default.join().unwrap(),
            ample.join().unwrap(),
        )
    });
    let r = small.expect("two landings are too few for a rook of two steps");
    assert_eq!((r.halt, r.limit), (Halt::Budget, 2));
    assert!(
        r.message(&rules).contains("more than 2 landings"),
        "{}",
        r.message(&rules)
    );
    assert_eq!(default, None);
    assert_eq!(ample, None);
    assert_eq!(Stop::default().work_budget(), WORK_BUDGET);
}

/// A stop reaches all the work it is given to, and only that: a game, its parallel perft
/// workers, a diagram and a search stop when it fires, while the same work given no stop
/// (or another stop) goes on. (The rook walks two legs, so it runs in the general
/// interpreter, which looks at its stop at its first run; one-leg programs are too short to
/// look.)
#[test]
fn a_fired_stop_halts_exactly_the_work_it_was_given_to() {
    use bulwark::search::{Agent, AgentSpec};
    use bulwark::vm::{Halt, Stop};
    use std::sync::Arc;
    let rules =
        Ruleset::from_source("t.toml", &tiny_with("step(orthogonal) step(orthogonal)")).unwrap();
    let fired = Arc::new(Stop::new(None));
    fired.stop();
    let other = Arc::new(Stop::new(None));
    let halt = |r: Option<bulwark::vm::Runaway>| r.map(|r| r.halt);
    // A game under it: its first generation stops.
    let mut game = Game::start(&rules).under(&fired);
    let _ = game.legal_turns();
    assert_eq!(halt(game.runaway()), Some(Halt::Stopped));
    // Its clones carry it to perft's worker threads.
    let (_, r) = Game::start(&rules).under(&fired).perft_jobs(3, 2);
    assert_eq!(halt(r), Some(Halt::Stopped));
    // The same work under another stop, or under none, is whole and the same.
    let (n, r) = Game::start(&rules).under(&other).perft_jobs(3, 2);
    assert_eq!(r, None);
    assert!(n > 0);
    assert_eq!(n, Game::start(&rules).perft(3));
    // A diagram under it stops; without it, it is drawn.
    let rook = rules.topo.parse_cell("b1").unwrap();
    let stopped = bulwark::view::diagram_under(&rules, &rules.setup, rook, Some(&fired));
    assert!(
        matches!(&stopped, Err(bulwark::view::DiagramError::Runaway(r)) if r.halt == Halt::Stopped),
        "{stopped:?}"
    );
    assert!(bulwark::view::diagram(&rules, &rules.setup, rook).is_ok());
    // A search on a game under it: whatever it chooses from its incomplete lists, the game
    // says that the work was stopped (the caller's cue to refuse the answer).
    let mut game = Game::start(&rules).under(&fired);
    let mut agent = Agent::new(AgentSpec::parse("search:200n").unwrap(), &rules, 1);
    let _ = agent.choose(&mut game);
    assert_eq!(halt(game.runaway()), Some(Halt::Stopped));
    let mut game = Game::start(&rules);
    assert!(agent.choose(&mut game).is_some());
    assert_eq!(game.runaway(), None);
}

#[test]
fn a_runaway_definition_is_an_error_naming_the_piece() {
    let cluster = "1/10/10/10/10/3@1^1^1^2/2^^^^^^^@@1/3^1^1^1^2/2rkeqsmcan1/3g1g1g1r2/2ANggggggg1/3E1Q1M1C2/2GGGGGGRRK1/1SG1G1G1G1/10/10/10/1 w";
    for args in [
        vec!["diagram", "--at", "C5", "--position", cluster],
        vec!["moves", "--position", cluster],
        vec!["perft", "--depth", "1", "--position", cluster],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_bulwark"))
            .args(&args)
            .env("BULWARK_WORK_BUDGET", "500")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("the Spy (white) on C5") && err.contains("runs away"),
            "{err}"
        );
    }
    // With the default budget the same position answers.
    let o = bulwark(&["diagram", "--at", "C5", "--position", cluster]);
    assert!(o.status.success());
}

#[test]
fn oversized_input_is_refused() {
    // A device is refused before a byte is read; a regular file past the cap, by its size.
    let o = bulwark(&["check", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("character device"));
    let big = std::env::temp_dir().join(format!("bulwark-big-{}.toml", std::process::id()));
    std::fs::write(&big, "#".repeat(2 << 20)).unwrap();
    let o = bulwark(&["check", big.to_str().unwrap()]);
    std::fs::remove_file(&big).unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("larger than"));
    let big = "1/".repeat(600_000);
    let e = text::parse_position(&Ruleset::bollwerk178(), &big).unwrap_err();
    assert!(e.message.contains("limit"), "{e}");
}

#[test]
fn thousands_of_problems_are_summarised() {
    let mut text = String::from("[game]\nname = \"x\"\n");
    for i in 0..20_000 {
        text.push_str(&format!("bad{i} = = 1\n"));
    }
    let e = Ruleset::from_source("many.toml", &text).unwrap_err();
    assert!(e.problems.len() > 1000);
    let shown = bulwark::view::diagnostic_text(&e);
    assert!(
        shown.contains("the first 50 are shown"),
        "{}",
        &shown[..200]
    );
    assert!(shown.len() < 100_000);
}

#[test]
fn a_game_is_only_built_from_a_playable_position() {
    use bulwark::play::Unplayable;
    let c = chess();
    // Wrong size: a position of another board.
    let wrong = bulwark::Position::empty(10, vec![]);
    assert!(matches!(
        Game::new(&c, wrong),
        Err(Unplayable::WrongSize { cells: 10, .. })
    ));
    // Two white kings.
    let mut two = c.setup.clone();
    let king = two.at(c.topo.parse_cell("e1").unwrap());
    two.put(c.topo.parse_cell("e4").unwrap(), king);
    match Game::new(&c, two) {
        Err(u @ Unplayable::RoyalCount { .. }) => {
            assert_eq!(
                u.text(&c),
                "white has 2 royal pieces (on e1, e4); a position needs exactly one"
            );
        }
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("accepted two kings"),
    }
}
