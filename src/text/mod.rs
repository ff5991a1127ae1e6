//! Text forms of the game: position text and move text, both ways. What is wrong with a text
//! is reported here; why a turn is not legal is asked of [`crate::play`].

mod position;
mod record;
mod turn;

pub use position::*;
pub use record::*;
pub use turn::*;
