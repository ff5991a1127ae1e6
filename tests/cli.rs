//! The `bulwark` binary against its documented surface: commands, output formats and exit codes.

use std::process::{Command, Output};

fn bulwark(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run bulwark")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn no_arguments_prints_the_start_position_and_the_pieces() {
    let o = bulwark(&[]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains(
        "1/5a4/1cmrsqrken/gggggggggg/10/12/12/12/12/12/12/12/12/10/GGGGGGGGGG/NEKRQSRMC1/4A5/1 w"
    ));
    for name in [
        "Guard",
        "Gold Runner",
        "King's Knight",
        "Elephant",
        "Queen",
        "Spy",
        "Marshal",
        "Chancellor",
        "Cannon",
        "Knight",
    ] {
        assert!(out.contains(name), "{name}");
    }
    assert!(out.contains("bulwark diagram"));
}

#[test]
fn check_accepts_the_bundled_variant_by_name_and_by_path() {
    for v in [
        &["check"][..],
        &["check", "bollwerk178"],
        &["check", "variants/bollwerk178.toml"],
    ] {
        let o = bulwark(v);
        assert!(o.status.success(), "{v:?}: {}", stderr(&o));
        assert!(stdout(&o).starts_with("Bollwerk 178: ok. 178 cells"));
    }
}

#[test]
fn check_reports_every_problem_with_file_line_and_column() {
    let o = bulwark(&["check", "tests/broken/many_errors.toml"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("has 6 problems"));
    assert!(
        err.contains("[tests/broken/many_errors.toml:31:15]"),
        "{err}"
    );
    assert!(err.contains("help: did you mean `rook`?"));
}

#[test]
fn check_of_a_missing_file_is_bad_input() {
    let o = bulwark(&["check", "no/such/variant.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read variant file `no/such/variant.toml`"));
}

#[test]
fn diagram_json_matches_spec() {
    // A Knight on F6 of an otherwise empty board with an enemy on G8 and a block on E7.
    let position = "1/10/10/10/10/12/12/12/12/12/6g5/4#7/5N6/10/10/10/10/1 w";
    let o = bulwark(&[
        "diagram",
        "--at",
        "f6",
        "--position",
        position,
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!(stdout(&o), @r#"{"piece":"N","origin":"F6","marks":{"D5":["move-capture","place"],"D7":["move-capture","place"],"E4":["move-capture","place"],"E8":["move-capture","place"],"F6":["origin"],"G4":["move-capture","place"],"G8":["move-capture","capture"],"H5":["move-capture","place"],"H7":["move-capture","place"]}}"#);
}

#[test]
fn diagram_text_has_labels_and_legend() {
    let o = bulwark(&["diagram", "--at", "G3"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("Spy (S) on G3, white"));
    assert!(out.contains("(S)"));
    assert!(out.contains(" 18 ") && out.contains(" A  B  C"));
    assert!(out.contains("move only"));
}

#[test]
fn diagram_bad_inputs_exit_1_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["diagram", "--at", "Z9"], "`Z9` is not a cell name"),
        (&["diagram", "--at", "A1"], "`A1` is not on the board"),
        (&["diagram", "--at", "F9"], "no piece stands on F9"),
        (
            &["diagram", "--at", "F6", "--position", "1/10 w"],
            "board field: 2 ranks given",
        ),
        (
            &[
                "diagram",
                "--at",
                "F6",
                "--position",
                "1/5a4/1cmrsqrken/gggggggggg/10/12/12/12/12/12/12/12/12/10/GGGGGGGGGG/NEKRQSRMC1/4A5/1 x",
            ],
            "side field",
        ),
        (
            &[
                "diagram",
                "--at",
                "F6",
                "--position",
                "1/5a4/1cmrsqrken/gggggggggg/10/12/12/12/12/12/12/12/12/10/GGGGGGGGGX/NEKRQSRMC1/4A5/1 w",
            ],
            "`X` is neither a piece letter nor a stone symbol",
        ),
        (
            &[
                "diagram",
                "--at",
                "F6",
                "--position",
                "1/5a4/1cmrsqrken/gggggggggg/10/12/12/12/12/12/12/12/12/10/GGGGGGGGGG/NEKRQSRMC1/4A5/1 w ^1/^1x",
            ],
            "supplies field",
        ),
        (
            &[
                "diagram",
                "--at",
                "F6",
                "--position",
                "1/5a4/1cmrsqrken/gggggggggg/10/12/12/12/12/12/12/12/12/10/GGGGGGGGGG/NEKRQSRMC1/4A5/1 w - Q99",
            ],
            "taboo field",
        ),
        (&["compile", "--piece", "king"], "`king` is not a piece"),
    ];
    for (args, needle) in cases {
        let o = bulwark(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(bulwark(&["diagram"]).status.code(), Some(2));
    assert_eq!(bulwark(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn compile_lists_the_spy_program() {
    let o = bulwark(&["compile", "--piece", "S"]);
    assert!(o.status.success());
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn compile_lists_every_piece() {
    let o = bulwark(&["compile"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(
        out.matches("\npiece ").count() + usize::from(out.starts_with("piece ")),
        10
    );
    assert!(
        out.contains("emit"),
        "fast paths for plain leapers and riders"
    );
}

#[test]
fn moves_lists_canonical_texts_and_json() {
    let o = bulwark(&["moves"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 15413);
    assert!(out.lines().any(|l| l == "F4-F5") && out.lines().any(|l| l == "J3^K3#K5"));
    let o = bulwark(&[
        "moves",
        "--json",
        "--position",
        "1/10/10/10/10/12/12/12/12/12/12/12/12/10/10/10/10/K w ^0~0#0%0@0/^0~0#0%0@0 -",
    ]);
    // A lone white King's Knight and no black piece: the game is over (B-61), no turns.
    assert_eq!(stdout(&o).trim(), "[]");
}

#[test]
fn perft_divide_and_json() {
    let position =
        "1/10/10/3ng5/10/12/12/5S6/12/12/6q5/12/12/10/4NG4/10/10/1 w ^1~0#0%0@0/^0~0#0%0@1 -";
    let o = bulwark(&["perft", "--depth", "2", "--position", position, "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(*lines.last().unwrap(), "nodes 323189");
    let sum: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 323_189);
    assert_eq!(lines.len() - 1, 198);
    let o = bulwark(&["perft", "--depth", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["depth"], 1);
    assert_eq!(v["nodes"], 15413);
    assert!(v["seconds"].is_number());
}

fn play_with(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn play_two_humans_with_undo_moves_and_quit() {
    let o = play_with(&["play"], "F4-F5\nundo\nF4-F7\nG4-G5\nmoves\nquit\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("white to move"));
    assert!(out.contains("not played: `F4-F7`: F4 to F7 is not a move of the Guard on F4"));
    assert!(out.contains("black to move"));
    assert!(out.contains("result: game abandoned"));
}

#[test]
fn play_computer_against_computer_ends_with_a_result() {
    // From a sparse ending, random play ends by a rule or by the move limit.
    let position =
        "1/10/10/3ng5/10/12/12/5S6/12/12/6q5/12/12/10/4NG4/10/10/1 w ^1~0#0%0@0/^0~0#0%0@1 -";
    let o = play_with(
        &[
            "play",
            "--position",
            position,
            "--white",
            "random",
            "--black",
            "random",
            "--max-turns",
            "400",
            "--seed",
            "7",
        ],
        "",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("(computer, random) plays"));
    assert!(
        out.lines().any(|l| l.starts_with("result: ")),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
}

#[test]
fn play_rejects_bad_moves_without_ending() {
    let o = play_with(&["play", "--black", "computer"], "Z1-Z2\nB3!C5\nquit\n");
    let out = stdout(&o);
    assert!(out.contains("not played: `Z1-Z2`"));
    assert!(out.contains("cannot remove") || out.contains("not played: `B3!C5`"));
}

#[test]
fn diagram_svg_is_a_standalone_svg() {
    let o = bulwark(&["diagram", "--at", "G3", "--format", "svg"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(out.trim_end().ends_with("</svg>"));
    assert!(out.contains("Spy (S) on G3, white"));
}

#[test]
fn rulebook_writes_a_page_and_its_diagrams() {
    let dir = std::env::temp_dir().join(format!("bulwark-cli-rulebook-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = bulwark(&["rulebook", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // index.html, board.svg, 10 empty-board diagrams and 15 scenarios.
    assert!(stdout(&o).starts_with("wrote 27 files"));
    assert!(dir.join("board.svg").exists());
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.contains("scenario-spy-not-the-queen.svg") && html.contains("guard-empty.svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bundled_chess_and_xiangqi_through_the_cli() {
    let o = bulwark(&["perft", "chess", "--depth", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "nodes 8902");
    let o = bulwark(&["moves", "xiangqi"]);
    assert_eq!(stdout(&o).lines().count(), 44);
    let o = bulwark(&[
        "moves",
        "chess",
        "--position",
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    ]);
    assert!(stdout(&o).lines().any(|l| l == "a7-a8=Q"));
    let o = bulwark(&["diagram", "chess", "--at", "g1", "--format", "json"]);
    assert!(
        stdout(&o).contains("\"f3\":[\"move-capture\"]")
            && stdout(&o).contains("\"origin\":\"g1\"")
    );
    let o = bulwark(&[
        "diagram",
        "chess",
        "--at",
        "e4",
        "--position",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(o.status.code(), Some(1));
}

/// `play` for people: `help`, `moves` by piece, `moves CELL`, the last turn marked on the
/// board, supplies shown, the position text on request only.
#[test]
fn play_commands_help_filter_and_mark() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["play"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"help\nmoves\nmoves G3\nG3-G5\nposition\nmoves Z9\nquit\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let out = stdout(&o);
    // help lists the commands
    assert!(
        out.contains("moves CELL") && out.contains("position"),
        "{out}"
    );
    // `moves` counts per piece; `moves G3` lists only the Spy's turns
    assert!(out.contains("turns by piece: F2 379"), "{out}");
    assert!(out.contains("G3-G5 G3-G5^G2"), "{out}");
    // the move is marked on the redrawn board: the Spy on G5, its old cell empty
    assert!(out.contains("[S]") && out.contains("[.]"), "{out}");
    // supplies are shown from the start; the position text only when asked for
    assert!(out.contains("white supply: ^10 arrow"), "{out}");
    assert_eq!(out.matches("/GGGGGGGGGG/").count(), 1, "{out}");
    assert!(out.contains("`Z9` is not a cell name"), "{out}");
    assert!(out.contains("result: game abandoned"));
}

#[test]
fn play_against_the_searching_computer_by_default() {
    let o = play_with(&["play", "chess", "--black", "computer"], "e2-e4\nquit\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("black (computer, search:20000n) plays"),
        "{out}"
    );
    let o = play_with(&["play", "chess", "--black", "alphabeta"], "");
    assert_eq!(o.status.code(), Some(2), "an unknown agent is bad usage");
}

#[test]
fn match_prints_statistics_and_json_and_writes_replayable_games() {
    let dir = std::env::temp_dir().join(format!("bulwark-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    let args = [
        "match",
        "chess",
        "--games",
        "4",
        "--white",
        "search:300n",
        "--black",
        "random",
        "--max-turns",
        "40",
        "--seed",
        "3",
        "--jobs",
        "2",
    ];
    let o = bulwark(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for word in [
        "white wins",
        "95%",
        "length: mean",
        "branching",
        "Pawn",
        "how games ended",
    ] {
        assert!(out.contains(word), "{word}: {out}");
    }
    let mut with_json: Vec<&str> = args.to_vec();
    let path = games.to_str().unwrap();
    with_json.extend(["--json", "--games-out", path]);
    let o = bulwark(&with_json);
    assert!(o.status.success());
    let out = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["games"], 4);
    let sum: u64 = ["white", "black", "draws", "unfinished"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 4);
    // Each recorded game replays through --history.
    let text = std::fs::read_to_string(&games).unwrap();
    assert_eq!(text.lines().count(), 4);
    for line in text.lines() {
        let o = bulwark(&["status", "chess", "--history", line]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // Shards merge to the same counts.
    let mut files = Vec::new();
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let mut a: Vec<&str> = args.to_vec();
        a.extend(["--json", "--shard", &shard]);
        let o = bulwark(&a);
        let f = dir.join(format!("shard{i}.json"));
        std::fs::write(&f, &o.stdout).unwrap();
        files.push(f);
    }
    let mut m = vec!["merge", "--json"];
    let names: Vec<String> = files
        .iter()
        .map(|f| f.to_str().unwrap().to_string())
        .collect();
    m.extend(names.iter().map(String::as_str));
    let o = bulwark(&m);
    assert!(o.status.success(), "{}", stderr(&o));
    let merged: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    for k in ["games", "white", "black", "draws", "unfinished"] {
        assert_eq!(merged[k], v[k], "{k}");
    }
    assert_eq!(merged["length"]["sum"], v["length"]["sum"]);
    // A file that is no result is bad input.
    std::fs::write(dir.join("bad.json"), "hello").unwrap();
    let o = bulwark(&["merge", dir.join("bad.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let o = bulwark(&["match", "chess", "--shard", "3/2"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn compare_puts_two_rule_sets_side_by_side() {
    let o = bulwark(&[
        "compare",
        "chess",
        "chess",
        "--games",
        "2",
        "--white",
        "random",
        "--black",
        "random",
        "--max-turns",
        "20",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("white wins") && out.contains("mean length"),
        "{out}"
    );
    // The same rule set and seed: the same games, nothing significant.
    assert!(!out.lines().any(|l| l.ends_with(" *")), "{out}");
}

#[test]
fn perft_jobs_gives_the_same_count() {
    for jobs in ["1", "2"] {
        let o = bulwark(&["perft", "chess", "--depth", "3", "--jobs", jobs]);
        assert!(o.status.success());
        assert_eq!(stdout(&o).trim(), "nodes 8902", "{jobs} jobs");
    }
    let o = bulwark(&["perft", "chess", "--depth", "3", "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `save FILE` writes the same record as the web board's export; `load FILE` continues from
/// it (its turns can be taken back), and a bad record is named without ending the game.
#[test]
fn play_saves_and_loads_a_game_record() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("play-records");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.txt");
    let o = play_with(
        &["play", "chess"],
        &format!("e2-e4\ne7-e5\nsave {}\nquit\n", saved.display()),
    );
    assert!(o.status.success());
    assert!(stdout(&o).contains(&format!("saved to {}", saved.display())));
    let record = std::fs::read_to_string(&saved).unwrap();
    assert!(record.contains("\nvariant: chess\n"), "{record}");
    assert!(record.contains("\nturns: e2-e4 e7-e5\n"), "{record}");
    assert!(record.contains("\nresult: ongoing\n"), "{record}");

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, record.replace("e7-e5", "e7-e4")).unwrap();
    let o = play_with(
        &["play", "chess"],
        &format!(
            "load {}\nload {}\nposition\nundo\nposition\ng1-f3\nquit\n",
            bad.display(),
            saved.display()
        ),
    );
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("not loaded:") && out.contains("turn 2:"),
        "{out}"
    );
    // After the load, the position after 1. e4 e5; undo takes back e7-e5 to the record's
    // first turn, so the record's turns are the game's history.
    assert!(
        out.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"),
        "{out}"
    );
    assert!(
        out.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        "{out}"
    );
    assert!(out.contains("white to move"), "{out}");
}

/// One turn is "1 turn", not "1 turns".
#[test]
fn play_counts_one_turn_in_the_singular() {
    let o = play_with(
        &[
            "play",
            "chess",
            "--white",
            "random",
            "--black",
            "random",
            "--max-turns",
            "1",
        ],
        "",
    );
    assert!(
        stdout(&o).contains("result: stopped after 1 turn (move limit"),
        "{}",
        stdout(&o)
    );
}

/// `builtin:NAME` is always the copy built into bulwark, so an edited checkout copy can be
/// compared with it; a misspelt name is bad input with the closest name suggested.
#[test]
fn builtin_names_the_built_in_copy() {
    let o = bulwark(&["check", "builtin:chess"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("Chess: ok."));
    let o = bulwark(&["diff", "builtin:chess", "chess", "--no-perft"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = bulwark(&["check", "builtin:chesss"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("did you mean `chess`?"),
        "{}",
        stderr(&o)
    );
    let o = bulwark(&["check", "xiangqui"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("did you mean `xiangqi`?"),
        "{}",
        stderr(&o)
    );
}

/// Side names come from `[game] sides` in every picture, and a side named for a colour is
/// drawn in it: xiangqi's red and black, Border Wars' blue and red.
#[test]
fn diagrams_name_and_colour_the_sides_as_the_file_does() {
    let o = bulwark(&["diagram", "xiangqi", "--at", "a1"]);
    assert!(
        stdout(&o).starts_with("Chariot (R) on a1, red\n"),
        "{}",
        stdout(&o)
    );
    let svg = stdout(&bulwark(&[
        "diagram",
        "border-wars",
        "--at",
        "a3",
        "--format",
        "svg",
    ]));
    assert!(svg.contains("Blockade (B) on a3, blue</text>"));
    assert!(svg.contains(r##"fill="#1f4e9c""##), "blue pieces");
    assert!(svg.contains(r##"fill="#c8102e""##), "red pieces");
    assert!(
        !svg.contains(r##"<circle cx="7" cy="-4" r="5" fill="#7b2cbf"/>"##),
        "no stone marks in the legend of a game without stones"
    );
    // Chess keeps white and black.
    let svg = stdout(&bulwark(&[
        "diagram", "chess", "--at", "e2", "--format", "svg",
    ]));
    assert!(svg.contains("Pawn (P) on e2, white</text>"));
}

/// `play --help` says what the computer does and names each side once.
#[test]
fn play_help_describes_the_agents_once() {
    let help = stdout(&bulwark(&["play", "--help"]));
    assert!(!help.contains("random turns)"), "{help}");
    assert_eq!(help.matches("Who plays White").count(), 1, "{help}");
    assert!(help.contains("save, load"), "{help}");
}
