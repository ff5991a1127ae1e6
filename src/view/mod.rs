//! Pictures and pages computed from the rules: diagrams (text, JSON, SVG), the rulebook, the
//! rendering of diagnostics. Pure: everything is returned as text, nothing is printed.

pub mod clip;
mod diagram;
pub mod diff;
pub mod rulebook;
pub mod snapshots;
pub mod words;

pub use diagram::*;
