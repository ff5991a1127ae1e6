//! Shared vocabulary, below everything else: the sides, what stands on a cell, and occupant
//! filters. Depends on nothing in the crate.

pub mod filter;
mod occupant;
mod side;

pub use filter::Filter;
pub use occupant::Occupant;
pub use side::Side;
