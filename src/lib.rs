//! `bulwark`: a rules interpreter for chess-like games, driven by variant files.
//!
//! A game is a TOML variant file whose pieces are written in a small movement language (the
//! piece DSL, `grammar/piece.pest`). Loading a file checks it, reports every problem with a
//! span into the file, and compiles each piece into bytecode that [`vm::Machine`] runs.
//!
//! ```
//! use bulwark::{Mark, Ruleset, diagram, diagram_text};
//!
//! let rules = Ruleset::bollwerk178();
//! let start = rules.setup.clone();
//! let queen = rules.topo.parse_cell("F3").unwrap();
//! let d = diagram(&rules, &start, queen).unwrap();
//! // In the start position the Queen is hemmed in: only E2 and G2, beside its Cannon, are free.
//! let free: Vec<String> = d.cells_with(Mark::MoveCapture).into_iter().map(|c| rules.topo.name(c)).collect();
//! assert_eq!(free, ["E2", "G2"]);
//! println!("{}", diagram_text(&rules, &start, &d));
//! ```
//!
//! Other games are variant files too; perft counts the legal turn tree:
//!
//! ```
//! use bulwark::{Game, Ruleset, parse_position};
//!
//! let chess = Ruleset::load_named("chess").unwrap();
//! assert_eq!(Game::start(&chess).perft(3), 8902);
//! // Kiwipete, the chessprogramming wiki's "position 2": 48 turns, 2039 at depth 2.
//! let kiwipete = parse_position(&chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
//! assert_eq!(Game::new(&chess, kiwipete).unwrap().perft(2), 2039);
//! ```
//!
//! The modules are layers, each naming only those below it (see `ARCHITECTURE.md`): [`core`]
//! → [`board`] → [`position`] → [`dsl`] → [`compile`] → [`rules`] → [`vm`] → [`play`] →
//! [`text`] → [`load`] → [`view`]. The items re-exported here are the small facade most
//! library users need.

// No function longer than 100 lines (`clippy.toml`), tables aside.
#![warn(clippy::too_many_lines)]

pub mod board;
pub mod compile;
pub mod core;
pub mod dsl;
pub mod load;
pub mod play;
pub mod position;
pub mod rules;
pub mod search;
pub mod selfcheck;
#[cfg(feature = "serve")]
pub mod serve;
pub mod text;
pub mod uci;
pub mod view;
pub mod vm;

pub use board::{Cell, Side, Topology};
pub use load::{BUNDLED, LoadError, VariantErrors};
pub use play::{Game, Outcome, Turn};
pub use position::{Occupant, Position};
pub use rules::Ruleset;
pub use text::{parse_position, parse_turn, turn_text, write_position};
pub use view::{Diagram, Mark, diagram, diagram_text};
