//! Loads a variant through the library API and prints the diagram of the piece on a cell.
//!
//! ```text
//! cargo run --example diagram -- [VARIANT] CELL ["POSITION TEXT"]
//! cargo run --example diagram -- G3
//! cargo run --example diagram -- examples/spy-three-captures.toml D6 "1/10/10/10/10/12/12/12/12/12/12/12/3Sg1q1r3/10/10/10/10/1 w"
//! ```

use bulwark::{Ruleset, text, view};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // The first argument is a variant when it is a bundled name or a file that exists.
    let variant = match args.first() {
        Some(a) if a.ends_with(".toml") || bulwark::load::BUNDLED.iter().any(|(n, _)| n == a) => {
            args.remove(0)
        }
        _ => "bollwerk178".to_string(),
    };
    let rules = match Ruleset::load_named(&variant) {
        Ok(r) => r,
        Err(e) => {
            eprint!("{}", view::diagnostic_text(&e));
            std::process::exit(1);
        }
    };
    let Some(cell) = args.first() else {
        eprintln!("usage: diagram [VARIANT] CELL [POSITION]");
        std::process::exit(2);
    };
    let pos = match args.get(1) {
        Some(text) => text::parse_position(&rules, text).unwrap_or_else(|e| {
            eprintln!("bad position: {e}");
            std::process::exit(1);
        }),
        None => rules.setup.clone(),
    };
    let cell = rules.topo.parse_cell(cell).unwrap_or_else(|e| {
        eprintln!("bad cell: {e}");
        std::process::exit(1);
    });
    match view::diagram(&rules, &pos, cell) {
        Ok(d) => print!("{}", view::diagram_text(&rules, &pos, &d)),
        Err(view::DiagramError::NoPiece) => {
            eprintln!("no piece on {}", rules.topo.name(cell));
            std::process::exit(1);
        }
        Err(view::DiagramError::Runaway(r)) => {
            eprintln!("{}", r.message(&rules));
            std::process::exit(1);
        }
    }
}
