//! Waterloo (`variants/waterloo.toml`): one test per ruling (W-1 … W-22), named after it, and
//! the engine's counts checked against an independent counter written from the rulings
//! (`common/waterloo_ref.rs`).

#[path = "common/waterloo_ref.rs"]
mod waterloo_ref;

use bulwark::play::Game;
use bulwark::{Ruleset, text};
use waterloo_ref::Ref;

fn rules() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| Ruleset::load_named("waterloo").unwrap())
}

fn game(fen: &str) -> Game<'static> {
    Game::new(rules(), text::parse_position(rules(), fen).unwrap()).unwrap()
}

/// Mid-game positions of `tests/perft/waterloo.perft`.
pub const MIDGAME: [&str; 4] = [
    // Black's double step for en passant; a pawn one step from the Spy; all four castlings.
    "rm2k3mr/10/4p5/1P8/3P6/10/10/10/10/RM2K3MR[SSJJWWssjjww] b KQkq - 0 1",
    // A Guard that can take a Knight, an Adviser that can give check, Spies on the ninth row.
    "4k5/1S6n1/3pn2S2/10/2G3A3/10/10/3s6/10/4K5[SSJJWWssjjww] w - - 0 1",
    // Reserves partly spent: one Spy (the next pawn takes the last), no Joker for the Guard,
    // a Wiseman and a Joker on the board.
    "r3k3r1/4W5/2j3ppp1/pp3P4/3pP5/10/1G1n6/PPP4PPP/10/R1n1K4R[SWsjww] w - d7 0 12",
    // The start after two moves each.
    "rmcakqacmr/ggbnnnnbgg/ppsp1ppspp/10/4p5/10/2P7/PP1SPPPSPP/GGBNNNNBGG/RMCAKQACMR[SSJJWWssjjww] w KQkq - 0 3",
];

#[test]
fn the_engine_agrees_with_an_independent_count() {
    let mut cases: Vec<(&str, u32)> = vec![(
        "rmcakqacmr/ggbnnnnbgg/ppsppppspp/10/10/10/10/PPSPPPPSPP/GGBNNNNBGG/RMCAKQACMR[SSJJWWssjjww] w KQkq - 0 1",
        3,
    )];
    cases.extend(MIDGAME.iter().map(|&p| (p, 3)));
    for (fen, depth) in cases {
        let mut g = game(fen);
        let r = Ref::parse(fen);
        for d in 1..=depth {
            assert_eq!(g.perft(d), r.perft(d), "depth {d} from {fen}");
        }
    }
}
