//! Property tests on random playouts from the start and from a crowded position: undo
//! restores the position text and the hash exactly, the incremental hash equals the hash
//! computed from scratch, every turn's text parses back to the same turn, and no two legal
//! turns share a text or an effect.

use std::collections::HashSet;

use bulwark::play::Game;
use bulwark::{Ruleset, text};
use proptest::prelude::*;

const CROWDED: &str = include_str!("positions/crowded-midgame.txt");

fn rules() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(Ruleset::bollwerk178)
}

fn playout(start: &str, choices: &[usize]) {
    playout_in(rules(), start, choices);
}

fn playout_in(r: &Ruleset, start: &str, choices: &[usize]) {
    let pos = text::parse_position(r, start.trim()).unwrap();
    let mut g = Game::new(r, pos).unwrap();
    let mut texts_before = Vec::new();
    let mut hashes_before = Vec::new();
    for &choice in choices {
        let Ok(turns) = g.legal_turns() else { break };
        // Every turn: a unique text that parses back to it; unique effects.
        let mut texts = HashSet::new();
        let mut effects = HashSet::new();
        for t in &turns {
            let text = text::turn_text(r, t);
            assert!(texts.insert(text.clone()), "duplicate text {text}");
            assert!(effects.insert(t.clone()), "duplicate effect {text}");
        }
        // Parsing is slow for 15000 turns; check a sample spread over the list.
        for t in turns.iter().step_by((turns.len() / 40).max(1)) {
            let text = text::turn_text(r, t);
            let back = text::parse_turn(&mut g, &text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(&back, t, "{text}");
        }
        let t = &turns[choice % turns.len()];
        texts_before.push(text::write_position(r, g.pos()));
        hashes_before.push(g.hash());
        g.play(t);
        assert_eq!(
            g.hash(),
            r.zobrist().hash(g.pos()),
            "incremental hash after {}",
            text::turn_text(r, t)
        );
        let text = text::write_position(r, g.pos());
        assert_eq!(
            text::parse_position(r, &text).as_ref(),
            Ok(g.pos()),
            "position text round trip"
        );
    }
    while let Some(text) = texts_before.pop() {
        assert!(g.undo());
        assert_eq!(text::write_position(r, g.pos()), text);
        assert_eq!(g.hash(), hashes_before.pop().unwrap());
    }
    assert!(!g.undo());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn playouts_from_the_start(choices in proptest::collection::vec(any::<usize>(), 1..8)) {
        playout(&rules().setup_text(), &choices);
    }

    #[test]
    fn playouts_from_a_crowded_position(choices in proptest::collection::vec(any::<usize>(), 1..8)) {
        playout(CROWDED, &choices);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn chess_and_xiangqi_playouts(choices in proptest::collection::vec(any::<usize>(), 1..60)) {
        // Castling rights, en passant, promotion and counters must undo exactly too.
        for variant in ["chess", "xiangqi", "waterloo"] {
            let r = Ruleset::load_named(variant).unwrap();
            let start = r.setup_text();
            playout_in(&r, &start, &choices);
        }
        let r = Ruleset::load_named("chess").unwrap();
        playout_in(&r, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &choices);
        // Border Wars and its sub-variants: segments, hands, drops, neutral pawns.
        for variant in ["border-wars", "border-wars-chess", "border-wars-shogi", "border-wars-xiangqi"] {
            let b = Ruleset::load_named(variant).unwrap();
            playout_in(&b, &b.setup_text(), &choices);
        }
        let b = Ruleset::load_named("border-wars").unwrap();
        playout_in(&b, "g/uddu/bpd2/p1pp/B1u1b/1*2/3U*/P1UP/1PDPB/UGDU/1[BUUUPPPbuuppp] w 3 7", &choices);
        // Waterloo mid-game: reserves, changes of kind, double castlings, en passant.
        let w = Ruleset::load_named("waterloo").unwrap();
        for start in [
            "rm2k3mr/10/4p5/1P8/3P6/10/10/10/10/RM2K3MR[SSJJWWssjjww] b KQkq - 0 1",
            "4k5/1S6n1/3pn2S2/10/2G3A3/10/10/3s6/10/4K5[SSJJWWssjjww] w - - 0 1",
            "r3k3r1/4W5/2j3ppp1/pp3P4/3pP5/10/1G1n6/PPP4PPP/10/R1n1K4R[SWsjww] w - d7 0 12",
        ] {
            playout_in(&w, start, &choices);
        }
    }
}

#[test]
fn a_long_playout_to_the_end_of_a_game() {
    // Random turns from a sparse ending until the game ends or 300 turns pass: exercises
    // captures, stones, collection and the end rules over many turns.
    let start =
        "1/10/10/3ng5/10/12/12/5S6/12/12/6q5/12/12/10/4NG4/10/10/1 w ^1~0#0%0@0/^0~0#0%0@1 -";
    let choices: Vec<usize> = (0..300u64)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 17) as usize)
        .collect();
    playout(start, &choices);
}
