//! The command line against careless or hostile input (issue "hostile input, round two",
//! items 7, 8, 9, 12 and 13): every file and stream is capped and special files refused, `merge`
//! adds only consistent results with checked sums, a history is capped and split on any white
//! space, and a diagnostic on a very long line renders without a panic.

use std::process::{Command, Output};

fn bulwark(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit 1 with a message that contains `words`, and never a panic.
fn refused(o: &Output, words: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // The report wraps long messages: compare with its words rejoined.
    let flat = err
        .split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        err.contains(words) || flat.contains(words),
        "expected `{words}` in: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("bulwark-hostile-cli-{}-{name}", std::process::id()))
}

#[cfg(unix)]
#[test]
fn item_7_special_files_are_refused_before_they_are_read() {
    let out = temp("rulebook");
    let out = out.to_str().unwrap();
    for args in [
        vec!["merge", "/dev/zero"],
        vec![
            "rulebook",
            "chess",
            "--out",
            out,
            "--scenarios",
            "/dev/zero",
        ],
        vec![
            "diff",
            "chess",
            "chess",
            "--no-perft",
            "--scenarios",
            "/dev/zero",
        ],
        vec!["check", "/dev/zero"],
        vec!["merge", "/tmp"],
    ] {
        let o = bulwark(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("character device") || err.contains("a directory"),
            "{args:?}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(out);
}

#[cfg(unix)]
#[test]
fn item_7_endless_input_to_play_is_refused() {
    let o = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["play", "chess"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    refused(&o, "longer than 64 KiB");
}

/// A `match --json` result with the given counts.
fn result(games: u64, white: u64, black: u64, draws: u64, unfinished: u64) -> String {
    format!(
        r#"{{"games":{games},"white":{white},"black":{black},"draws":{draws},"unfinished":{unfinished},"variant":"Chess","agents":{{"white":"random","black":"random"}},"length":{{"min":20,"max":20,"sum":{},"sum_sq":0}},"branching":{{"positions":0,"sum":0}}}}"#,
        u128::from(games) * 20
    )
}

#[test]
fn item_8_merge_checks_its_sums_and_its_inputs() {
    let a = temp("a.json");
    let b = temp("b.json");
    let (pa, pb) = (a.to_str().unwrap(), b.to_str().unwrap());
    // Two shards that add up.
    std::fs::write(&a, result(2, 1, 1, 0, 0)).unwrap();
    std::fs::write(&b, result(3, 0, 1, 2, 0)).unwrap();
    let o = bulwark(&["merge", pa, pb, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 5);
    assert_eq!(v["draws"], 2);
    // Sums past 2^64 - 1 are refused, not wrapped.
    let huge = u64::MAX / 20;
    std::fs::write(&a, result(huge, huge, 0, 0, 0)).unwrap();
    std::fs::write(&b, result(huge, huge, 0, 0, 0)).unwrap();
    refused(&bulwark(&["merge", pa, pb]), "largest count");
    // Outcomes that do not add up to the games.
    std::fs::write(&a, result(5, 1, 1, 0, 0)).unwrap();
    refused(&bulwark(&["merge", pa]), "is not the 5 games");
    // No files at all: bad usage.
    let o = bulwark(&["merge"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    std::fs::remove_file(&a).unwrap();
    std::fs::remove_file(&b).unwrap();
}

#[test]
fn item_9_a_history_is_capped() {
    let h = vec!["g1-f3"; bulwark::play::MAX_HISTORY_TURNS + 1].join(" ");
    refused(
        &bulwark(&["status", "chess", "--history", &h]),
        "the most is 10000",
    );
}

#[test]
fn item_12_a_diagnostic_far_along_a_line_renders() {
    let line = format!("{}xx", " ".repeat(70_000));
    refused(
        &bulwark(&["moves", "chess", "--position", &line]),
        "long lines cut",
    );
    refused(
        &bulwark(&["moves", "chess", "--history", &line]),
        "long lines cut",
    );
    let file = temp("long.toml");
    std::fs::write(
        &file,
        format!("[game]\nname = \"x\" {}bogus = = 1\n", " ".repeat(70_000)),
    )
    .unwrap();
    let o = bulwark(&["check", file.to_str().unwrap()]);
    refused(&o, "line 2 column");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn item_13_tabs_and_newlines_separate_history_turns() {
    let o = bulwark(&["status", "chess", "--history", "e2-e4\te7-e5\ng1-f3\r\n"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The refused turn is named by its index and pointed at on its own line.
    let o = bulwark(&["status", "chess", "--history", "e2-e4\te7-e5\ng1-f4"]);
    refused(&o, "turn 3 `g1-f4`");
}

#[test]
fn item_13_extends_naming_a_device_says_what_it_is() {
    let file = temp("dev.toml");
    std::fs::write(&file, "extends = \"/dev/zero\"\n").unwrap();
    let o = bulwark(&["check", file.to_str().unwrap()]);
    refused(&o, "character device");
    assert!(!stderr(&o).contains("no bundled variant"), "{}", stderr(&o));
    std::fs::write(&file, "extends = \"no-such-name\"\n").unwrap();
    refused(
        &bulwark(&["check", file.to_str().unwrap()]),
        "no bundled variant has that name",
    );
    std::fs::remove_file(&file).unwrap();
}

/// A tweak of a bundled variant whose piece `id` moves by `moves`, written to a file.
fn tweak(name: &str, parent: &str, id: &str, moves: &str) -> std::path::PathBuf {
    let file = temp(name);
    std::fs::write(
        &file,
        format!("extends = \"{parent}\"\n[pieces.{id}]\nmoves = \"{moves}\"\n"),
    )
    .unwrap();
    file
}

/// The exploding definitions of the issue: each command ends with a message that names the
/// piece and the repeated part of its definition, the whole command under one budget (here a
/// small one, so that the test is quick; the default is `bulwark::vm::COMMAND_BUDGET`).
#[test]
fn item_6_a_whole_command_is_bounded_and_names_the_repeated_part() {
    let cases = [
        (
            tweak(
                "kk.toml",
                "bollwerk178",
                "kings-knight",
                "(leap(knight) | step(all))+",
            ),
            vec!["moves"],
            "King's Knight",
            "(leap(knight) | step(all))+",
        ),
        (
            tweak(
                "kk2.toml",
                "bollwerk178",
                "kings-knight",
                "(leap(knight) | step(all))+",
            ),
            vec!["perft", "--depth", "2", "--jobs", "2"],
            "King's Knight",
            "(leap(knight) | step(all))+",
        ),
        (
            tweak(
                "wk.toml",
                "waterloo",
                "knight",
                "(leap(knight) capture){1,}",
            ),
            vec!["perft", "--depth", "2"],
            "Knight",
            "(leap(knight) capture){1,}",
        ),
        (
            tweak(
                "xa.toml",
                "xiangqi",
                "advisor",
                "(step(all))+ (step(all))+ (step(all))+",
            ),
            vec!["perft", "--depth", "2"],
            "Advisor",
            "(step(all))+",
        ),
    ];
    for (file, args, piece, part) in cases {
        let path = file.to_str().unwrap();
        let mut all = vec![args[0], path];
        all.extend(&args[1..]);
        let o = Command::new(env!("CARGO_BIN_EXE_bulwark"))
            .args(&all)
            .env("BULWARK_COMMAND_BUDGET", "2000000")
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{all:?}: {err}");
        assert!(err.contains("budget"), "{all:?}: {err}");
        assert!(err.contains(piece), "{all:?}: {err}");
        assert!(err.contains(&format!("`{part}`")), "{all:?}: {err}");
        std::fs::remove_file(&file).unwrap();
    }
    // Ordinary work never touches the budget: a budget of one landing still counts perft.
    let o = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["perft", "bollwerk178", "--depth", "1"])
        .env("BULWARK_COMMAND_BUDGET", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let full = bulwark(&["perft", "bollwerk178", "--depth", "1"]);
    assert_eq!(o.stdout, full.stdout);
    let bad = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["perft", "chess", "--depth", "1"])
        .env("BULWARK_COMMAND_BUDGET", "lots")
        .output()
        .unwrap();
    refused(&bad, "BULWARK_COMMAND_BUDGET");
}

/// `check` warns about a definition that branches explosively already on an empty board, and
/// about no bundled piece.
#[test]
fn item_6_check_warns_about_explosive_branching() {
    let file = tweak(
        "kk-check.toml",
        "bollwerk178",
        "kings-knight",
        "(leap(knight) | step(all))+",
    );
    let o = bulwark(&["check", file.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("the King's Knight's options from the centre of an empty board")
            && err.contains("branches explosively")
            && err.contains("`(leap(knight) | step(all))+`"),
        "{err}"
    );
    std::fs::remove_file(&file).unwrap();
    for (name, _) in bulwark::BUNDLED {
        let o = bulwark(&["check", name]);
        assert!(o.status.success());
        assert!(
            !stderr(&o).contains("branches explosively"),
            "{name}: {}",
            stderr(&o)
        );
    }
}

/// Item 13's messages: a neutral piece on a diagram's cell, move text with a stone in a game
/// without stones, and a runaway's help for a definition that repeats nothing without bound.
#[test]
fn item_13_messages_say_what_is_there() {
    let o = bulwark(&["diagram", "border-wars", "--at", "b6"]);
    refused(&o, "is a neutral Pawn");
    assert!(!stderr(&o).contains("no piece stands"), "{}", stderr(&o));
    let o = bulwark(&["status", "chess", "--history", "e2-e4^"]);
    refused(&o, "Chess has no stones");
    assert!(!stderr(&o).contains("stone symbols ()"), "{}", stderr(&o));
    let file = tweak("twostep.toml", "chess", "queen", "step(all) step(all)");
    let o = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args([
            "moves",
            file.to_str().unwrap(),
            "--position",
            "4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1",
        ])
        .env("BULWARK_WORK_BUDGET", "3")
        .output()
        .unwrap();
    refused(&o, "repeats nothing without bound");
    assert!(!stderr(&o).contains("instead of `+`"), "{}", stderr(&o));
    std::fs::remove_file(&file).unwrap();
}
