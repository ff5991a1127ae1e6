//! `bulwark play`: a terminal game between humans and/or a computer that picks random turns.

use std::io::{BufRead, Write};

use bulwark::game::Game;
use bulwark::{Position, Ruleset, notation, render};

/// A small deterministic generator for the computer's choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays until the game ends, the input ends, `quit`, or `max_turns`.
pub fn run(rules: &Ruleset, pos: Position, computer: [bool; 2], seed: u64, max_turns: Option<u32>) {
    let mut game = Game::new(rules, pos);
    let mut rng = Rng(seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut played = 0u32;
    loop {
        println!();
        print!("{}", render::board_text(rules, &game.pos));
        println!("{}", notation::write_position(rules, &game.pos));
        let turns = match game.legal_turns() {
            Ok(t) => t,
            Err(outcome) => {
                println!("result: {outcome}");
                return;
            }
        };
        if max_turns.is_some_and(|m| played >= m) {
            println!("result: stopped after {played} turns (move limit; not a rule of the game)");
            return;
        }
        let side = game.pos.side;
        if computer[side.index()] {
            let t = &turns[rng.below(turns.len())];
            println!("{side} (computer) plays {}", notation::turn_text(rules, t));
            game.play(t);
            played += 1;
            continue;
        }
        print!(
            "{side} to move ({} turns; `moves`, `undo`, `quit`)> ",
            turns.len()
        );
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = lines.next() else {
            println!("\nresult: input ended, game abandoned");
            return;
        };
        match line.trim() {
            "" => {}
            "quit" => {
                println!("result: game abandoned");
                return;
            }
            "moves" => {
                let texts: Vec<String> = turns
                    .iter()
                    .map(|t| notation::turn_text(rules, t))
                    .collect();
                println!("{}", texts.join(" "));
            }
            "undo" => {
                // Take back to the last turn a human played.
                let mut undone = 0;
                while game.undo() {
                    undone += 1;
                    played = played.saturating_sub(1);
                    if !computer[game.pos.side.index()] {
                        break;
                    }
                }
                if undone == 0 {
                    println!("nothing to undo");
                }
            }
            text => match notation::parse_turn(&mut game, text) {
                Ok(t) => {
                    game.play(&t);
                    played += 1;
                }
                Err(e) => println!("not played: {e}"),
            },
        }
    }
}
