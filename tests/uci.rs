//! `bulwark uci`: scripted conversations with the real binary over its stdin and stdout, as a
//! GUI or a match runner has them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

struct Uci {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Uci {
    fn start(args: &[&str]) -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bulwark"))
            .arg("uci")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("bulwark runs");
        let input = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_mins(1);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no `{prefix}` within 60 s; got {got:?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed its output before `{prefix}`; got {got:?}")
                }
            }
        }
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until("readyok");
    }

    fn bestmove(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(go);
        let lines = self.until("bestmove");
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (best, lines)
    }

    /// `go perft D`: the per-move counts and the total.
    fn perft(&mut self, depth: u32) -> (Vec<(String, u64)>, u64) {
        self.send(&format!("go perft {depth}"));
        let lines = self.until("Nodes searched:");
        let total = lines.last().unwrap()["Nodes searched: ".len()..]
            .parse()
            .unwrap();
        let moves = lines
            .iter()
            .filter_map(|l| l.split_once(": "))
            .filter(|(m, _)| !m.starts_with("Nodes"))
            .map(|(m, n)| (m.to_string(), n.parse().unwrap()))
            .collect();
        (moves, total)
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn handshake_names_every_bundled_variant_and_the_options() {
    let mut e = Uci::start(&[]);
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name bulwark "), "{lines:?}");
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default bollwerk178"))
        .expect("UCI_Variant option");
    for (name, _) in bulwark::BUNDLED {
        assert!(
            variant.contains(&format!(" var {name}")),
            "{name} missing: {variant}"
        );
    }
    for opt in [
        "VariantFile type string",
        "UCI_Chess960 type check",
        "Hash type spin",
    ] {
        assert!(
            lines.iter().any(|l| l.contains(opt)),
            "{opt} missing: {lines:?}"
        );
    }
    e.ready();
}

#[test]
fn perft_divides_as_fairy_stockfish_prints_it() {
    let mut e = Uci::start(&["chess"]);
    e.send("position startpos");
    let (moves, total) = e.perft(3);
    // perft(3) of chess is 8,902 (chessprogramming wiki, "Perft Results"); the divided counts
    // are those Fairy-Stockfish prints for `go perft 3` from the start.
    assert_eq!(total, 8902);
    assert_eq!(moves.len(), 20);
    for (m, n) in [("e2e4", 600), ("d2d3", 539), ("g1f3", 440), ("b2b4", 421)] {
        assert!(
            moves.contains(&(m.to_string(), n)),
            "{m}: {n} missing in {moves:?}"
        );
    }
    // Xiangqi after the central cannon h3e3: Fairy-Stockfish (large-board build) counts 45
    // replies and 1,564 positions two plies deep, the cannon's capture h8h2 among them.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos moves h3e3");
    let (moves, total) = e.perft(2);
    assert_eq!(total, 1564);
    assert_eq!(moves.len(), 45, "{moves:?}");
    assert!(moves.iter().any(|(m, _)| m == "h8h2"), "{moves:?}");
    assert!(moves.iter().any(|(m, _)| m == "a10a9"), "{moves:?}");
}

#[test]
fn castling_is_the_kings_move_or_with_chess960_onto_its_rook() {
    let mut e = Uci::start(&["chess"]);
    let fen = "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    e.send(fen);
    let (moves, total) = e.perft(1);
    assert_eq!(total, 15);
    assert!(moves.iter().any(|(m, _)| m == "e1g1"), "{moves:?}");
    e.send("setoption name UCI_Chess960 value true");
    e.send(fen);
    let (moves, _) = e.perft(1);
    assert!(moves.iter().any(|(m, _)| m == "e1h1"), "{moves:?}");
    // Played in either form, the castling is understood.
    e.send(&format!("{fen} moves e1h1 e8d8"));
    let (moves, _) = e.perft(1);
    assert!(
        moves.iter().any(|(m, _)| m == "f1f8"),
        "the rook is on f1: {moves:?}"
    );
}

#[test]
fn promotion_is_written_with_a_lowercase_letter() {
    let mut e = Uci::start(&["chess"]);
    e.send("position fen 7k/4P3/8/8/8/8/8/K7 w - - 0 1");
    let (moves, _) = e.perft(1);
    for m in ["e7e8q", "e7e8r", "e7e8b", "e7e8n"] {
        assert!(moves.iter().any(|(t, _)| t == m), "{m} missing: {moves:?}");
    }
}

#[test]
fn search_reports_info_lines_then_a_legal_bestmove() {
    let mut e = Uci::start(&["chess"]);
    e.send("position startpos moves e2e4 e7e5");
    let (best, lines) = e.bestmove("go depth 4");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for (i, l) in infos.iter().enumerate() {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(w[2], (i + 1).to_string());
        for key in ["seldepth", "score", "nodes", "nps", "time", "pv"] {
            assert!(w.contains(&key), "{key} missing in {l}");
        }
        assert!(l.contains("score cp "), "{l}");
    }
    // The best move is the first of the last principal variation, and legal.
    let last_pv: Vec<&str> = infos[3].split(" pv ").nth(1).unwrap().split(' ').collect();
    assert_eq!(last_pv[0], best);
    e.send("position startpos moves e2e4 e7e5");
    let (moves, _) = e.perft(1);
    assert!(moves.iter().any(|(m, _)| *m == best), "{best} is not legal");
}

#[test]
fn a_mate_in_one_is_found_and_scored_as_mate() {
    let mut e = Uci::start(&["chess"]);
    // White mates with Ra8 (the black king on h8 is boxed in by its own pawns).
    e.send("position fen 7k/6pp/8/8/8/8/8/R5K1 w - - 0 1");
    let (best, lines) = e.bestmove("go depth 3");
    assert_eq!(best, "a1a8");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    // The side being mated sees a mate against it: Black's king is boxed in, and after either
    // pawn move the queen mates on b7.
    e.send("position fen k7/2K4p/1Q6/8/8/8/8/8 b - - 0 1");
    let (_, lines) = e.bestmove("go depth 2");
    assert!(
        lines.iter().any(|l| l.contains("score mate -1 ")),
        "{lines:?}"
    );
}

#[test]
fn go_nodes_and_movetime_and_clocks_end_the_search() {
    let mut e = Uci::start(&["chess"]);
    e.send("position startpos");
    let (_, lines) = e.bestmove("go nodes 3000");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    let t = Instant::now();
    e.bestmove("go movetime 300");
    let took = t.elapsed();
    assert!(took < Duration::from_secs(5), "movetime 300 took {took:?}");
    let t = Instant::now();
    e.bestmove("go wtime 2000 btime 2000 winc 0 binc 0");
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "a 2 s clock took {:?}",
        t.elapsed()
    );
}

#[test]
fn infinite_waits_for_stop_and_isready_is_answered_meanwhile() {
    let mut e = Uci::start(&["chess"]);
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 1 ");
    e.ready();
    // No bestmove until stop, however long the search has been running.
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(500) {
        if let Ok(l) = e.lines.recv_timeout(Duration::from_millis(50)) {
            assert!(!l.starts_with("bestmove"), "bestmove before stop: {l}");
        }
    }
    e.send("stop");
    e.until("bestmove");
}

#[test]
fn bad_input_is_named_in_an_info_string_and_ignored() {
    let mut e = Uci::start(&["chess"]);
    e.send("xyzzy plugh");
    let l = e.until("info string");
    assert!(l[0].contains("unknown command `xyzzy`"), "{l:?}");
    e.send("setoption name UCI_Variant value nosuchgame");
    let l = e.until("info string");
    assert!(l[0].contains("nosuchgame"), "{l:?}");
    e.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1");
    let l = e.until("info string");
    assert!(
        l[0].contains("position not set") && l[0].contains("board"),
        "{l:?}"
    );
    // An illegal move: named with its number, the position stops before it.
    e.send("position startpos moves e2e4 e2e4 d7d5");
    let l = e.until("info string");
    assert!(l[0].contains("move 2 `e2e4` is not legal"), "{l:?}");
    let (moves, _) = e.perft(1);
    assert!(
        moves.iter().any(|(m, _)| m == "e7e5"),
        "Black to move after e2e4: {moves:?}"
    );
    e.send("go depth banana");
    let l = e.until("bestmove");
    assert!(l[0].contains("`depth` needs a number"), "{l:?}");
    e.send("setoption name VariantFile value /nonexistent/file.toml");
    e.send("position startpos");
    let l = e.until("info string");
    assert!(
        l[0].contains("cannot load `/nonexistent/file.toml`"),
        "{l:?}"
    );
    // `go` is still answered, with no move.
    e.send("go depth 1");
    let l = e.until("bestmove");
    assert_eq!(l.last().unwrap(), "bestmove (none)", "{l:?}");
    e.ready();
}

#[test]
fn variants_of_its_own_use_bulwarks_move_text() {
    let mut e = Uci::start(&[]);
    e.send("position startpos");
    let (moves, total) = e.perft(1);
    assert!(total > 1000, "Bollwerk 178 has thousands of turns: {total}");
    // Turns that place a stone keep bulwark's text (a stone symbol and its cell).
    assert!(
        moves
            .iter()
            .any(|(m, _)| m.contains('^') || m.contains('-')),
        "{:?}",
        &moves[..5]
    );
    let (best, _) = e.bestmove("go depth 1");
    assert!(
        moves.iter().any(|(m, _)| *m == best),
        "{best} not among the turns"
    );
    e.send(&format!("position startpos moves {best}"));
    e.ready();
}

#[test]
fn quit_and_the_end_of_input_both_end_the_engine() {
    let mut e = Uci::start(&["chess"]);
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 1 ");
    e.send("quit");
    // The running search is stopped and answered before the engine leaves.
    e.until("bestmove");
    let status = e.child.wait().unwrap();
    assert!(status.success());
    // Without `quit`: the input ends.
    let status = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["uci", "chess"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}
