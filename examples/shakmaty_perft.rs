//! Perft of a chess position by shakmaty, a dedicated chess move generator: the in-process
//! reference that `scripts/speed.py` runs beside bulwark.
//!
//! cargo run --release --example `shakmaty_perft` -- "FEN" DEPTH

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(fen), Some(depth)) = (args.get(1), args.get(2).and_then(|d| d.parse::<u32>().ok()))
    else {
        eprintln!("usage: shakmaty_perft FEN DEPTH");
        std::process::exit(2);
    };
    let Ok(setup) = fen.parse::<Fen>() else {
        eprintln!("error: bad FEN `{fen}`");
        std::process::exit(1);
    };
    let Ok(pos) = setup.into_position::<Chess>(CastlingMode::Standard) else {
        eprintln!("error: `{fen}` is not a legal position");
        std::process::exit(1);
    };
    println!("nodes {}", shakmaty::perft(&pos, depth));
}
