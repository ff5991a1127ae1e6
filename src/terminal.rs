//! `bulwark play`: a terminal game between humans and/or a computer that picks random turns.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use bulwark::core::BySide;
use bulwark::play::Game;
use bulwark::{Position, Ruleset, text, view};

/// A small deterministic generator for the computer's choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % u64::try_from(n).unwrap_or(u64::MAX)).unwrap_or(0)
    }
}

/// Turns a game between two computers lasts at most when no `--max-turns` is given: some games
/// (bare kings, without draw rules) never end by themselves.
const COMPUTER_GAME_TURNS: u32 = 2_000;

/// Plays until the game ends, the input ends, `quit`, or `max_turns`. A closed output ends the
/// game quietly (exit 0); a definition that runs away is an error (exit 1).
pub fn run(
    rules: &Ruleset,
    pos: Position,
    computer: BySide<bool>,
    seed: u64,
    max_turns: Option<u32>,
) -> Result<(), ExitCode> {
    let max_turns = max_turns.or((computer == BySide::both(true)).then_some(COMPUTER_GAME_TURNS));
    match game_loop(rules, pos, computer, seed, max_turns) {
        Ok(()) => Ok(()),
        Err(Stop::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(ExitCode::SUCCESS)
        }
        Err(Stop::Output(e)) => {
            eprintln!("error: cannot write the output: {e}");
            Err(ExitCode::from(1))
        }
        Err(Stop::Runaway(r)) => {
            eprintln!("error: {}", r.message(rules));
            Err(ExitCode::from(1))
        }
    }
}

/// Why a game stopped before its end.
enum Stop {
    Output(std::io::Error),
    Runaway(bulwark::vm::Runaway),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Output(e)
    }
}

fn game_loop(
    rules: &Ruleset,
    pos: Position,
    computer: BySide<bool>,
    seed: u64,
    max_turns: Option<u32>,
) -> Result<(), Stop> {
    let mut game = Game::new(rules, pos).expect("positions given to the CLI are checked when read");
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut rng = Rng(seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut played = 0u32;
    loop {
        writeln!(out)?;
        write!(out, "{}", view::board_text(rules, game.pos()))?;
        writeln!(out, "{}", text::write_position(rules, game.pos()))?;
        let turns = game.legal_turns();
        if let Some(r) = game.runaway() {
            return Err(Stop::Runaway(r));
        }
        let turns = match turns {
            Ok(t) => t,
            Err(outcome) => {
                writeln!(out, "result: {}", outcome.text(rules))?;
                return Ok(());
            }
        };
        if max_turns.is_some_and(|m| played >= m) {
            writeln!(
                out,
                "result: stopped after {played} turns (move limit; not a rule of the game)"
            )?;
            return Ok(());
        }
        let side = game.pos().side;
        if computer[side] {
            let t = &turns[rng.below(turns.len())];
            writeln!(out, "{side} (computer) plays {}", text::turn_text(rules, t))?;
            game.play(t);
            played += 1;
            continue;
        }
        write!(
            out,
            "{side} to move ({} turns; `moves`, `undo`, `quit`)> ",
            turns.len()
        )?;
        out.flush()?;
        let Some(Ok(line)) = lines.next() else {
            writeln!(out, "\nresult: input ended, game abandoned")?;
            return Ok(());
        };
        match line.trim() {
            "" => {}
            "quit" => {
                writeln!(out, "result: game abandoned")?;
                return Ok(());
            }
            "moves" => {
                let texts: Vec<String> = turns.iter().map(|t| text::turn_text(rules, t)).collect();
                writeln!(out, "{}", texts.join(" "))?;
            }
            "undo" => {
                // Take back to the last turn a human played.
                let mut undone = 0;
                while game.undo() {
                    undone += 1;
                    played = played.saturating_sub(1);
                    if !computer[game.pos().side] {
                        break;
                    }
                }
                if undone == 0 {
                    writeln!(out, "nothing to undo")?;
                }
            }
            text => match text::parse_turn(&mut game, text) {
                Ok(t) => {
                    game.play(&t);
                    played += 1;
                }
                Err(e) => writeln!(out, "not played: {e}")?,
            },
        }
    }
}
