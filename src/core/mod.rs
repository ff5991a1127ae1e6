//! Shared vocabulary, below everything else: the sides, what stands on a cell, and occupant
//! filters, the diagnostic type. Depends on nothing in the crate.

mod by_side;
pub mod diagnostic;
pub mod file;
pub mod filter;
mod ids;
pub mod names;
mod occupant;
mod side;

pub use by_side::BySide;
pub use diagnostic::{Code, Diagnostic, Severity};
pub use filter::Filter;
pub use ids::{PieceKindId, RegionId, StoneKindId};
pub use occupant::{Occupant, each_filled};
pub use side::Side;
