//! `bulwark`: a rules interpreter for chess-like games, driven by variant files.
//!
//! A game is a TOML variant file whose pieces are written in a small movement language (the
//! piece DSL, `grammar/piece.pest`). Loading a file checks it, reports every problem with a
//! span into the file, and compiles each piece into bytecode that [`vm::Machine`] runs.
//!
//! ```
//! use bulwark::{Ruleset, render};
//!
//! let rules = Ruleset::bollwerk178();
//! let start = rules.setup.clone();
//! let queen = rules.topo.parse_cell("F3").unwrap();
//! let d = render::diagram(&rules, &start, queen).unwrap();
//! // In the start position the Queen is hemmed in: only E2 and G2, beside its Cannon, are free.
//! let free: Vec<String> = d.cells_with(render::Mark::MoveCapture).into_iter().map(|c| rules.topo.name(c)).collect();
//! assert_eq!(free, ["E2", "G2"]);
//! println!("{}", render::diagram_text(&rules, &start, &d));
//! ```
//!
//! Other games are variant files too; perft counts the legal turn tree:
//!
//! ```
//! use bulwark::{Ruleset, game::Game};
//!
//! let chess = Ruleset::load_named("chess").unwrap();
//! assert_eq!(Game::start(&chess).perft(3), 8902);
//! ```

pub mod board;
pub mod compile;
pub mod dsl;
pub mod game;
pub mod notation;
pub mod position;
pub mod render;
pub mod rulebook;
mod schema;
pub mod selfcheck;
pub mod variant;
pub mod vm;

pub use board::{Cell, Side, Topology};
pub use position::{Occupant, Position};
pub use variant::Ruleset;
