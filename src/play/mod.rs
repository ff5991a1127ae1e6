//! Playing: whole turns (RULINGS B-40 … B-50), generated, applied and undone with an
//! incrementally updated hash; the end of the game (B-60 … B-62); royal pieces, castling, en
//! passant and promotion as declared by the variant file; perft.
//!
//! A turn is one of: move a piece; move it and then place stones from its new cell; place
//! stones without moving; a piece that `removes` stones may remove one instead of placing.
//! Which stones exist, what they blow up or capture and where they win is read from the
//! variant file.

mod apply;
mod check;
mod game;
mod generate;
mod outcome;
mod placement;
mod refusal;
mod turn;

pub use crate::compile::zobrist::Zobrist;
pub use apply::{Undo, apply_turn, make_movement, make_turn, unmake};
pub use check::{Unplayable, check_position, ep_victim};
#[cfg(test)]
pub(crate) use game::random_playout;
pub use game::{Game, MAX_HISTORY_TURNS};
pub use generate::Generator;
pub use outcome::{Outcome, Reason, static_outcome};
pub use placement::{PlaceEffect, placement, placements};
pub use refusal::{DropRefusal, Refusal, Request};
pub use turn::{Captures, Then, Turn, TurnView};
