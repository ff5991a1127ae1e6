//! Border Wars (`variants/border-wars*.toml`): one test per ruling (X-1 … X-30), named after
//! it. Positions are written rank 11 first: e11; b d f h on 10, 8, 6, 4, 2; a c e g i on 9, 7,
//! 5, 3; e1.

use bulwark::play::Game;
use bulwark::{Ruleset, Side, text};

fn load(name: &str) -> Ruleset {
    Ruleset::load_named(name).unwrap()
}

fn bw() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| load("border-wars"))
}

fn turns(r: &Ruleset, fen: &str) -> Vec<String> {
    let mut g = Game::new(r, text::parse_position(r, fen).unwrap()).unwrap();
    let mut l: Vec<String> = g
        .legal_turns()
        .unwrap_or_default()
        .iter()
        .map(|t| text::turn_text(r, t))
        .collect();
    l.sort();
    l
}

fn after<'r>(r: &'r Ruleset, fen: &str, moves: &[&str]) -> Game<'r> {
    let mut g = Game::new(r, text::parse_position(r, fen).unwrap()).unwrap();
    for m in moves {
        let t = text::parse_turn(&mut g, m).unwrap_or_else(|e| panic!("{e}"));
        g.play(&t);
    }
    g
}

fn from(l: &[String], cell: &str) -> Vec<String> {
    l.iter().filter(|m| m.starts_with(cell)).cloned().collect()
}

#[test]
fn x1_x2_forty_two_segments_named_by_their_midpoints() {
    let t = &bw().topo;
    assert_eq!(t.len(), 42);
    for c in ["e1", "e11", "b2", "h10", "a3", "i9"] {
        assert!(t.parse_cell(c).is_ok(), "{c}");
    }
    for c in ["a1", "a2", "b3", "e2", "d11"] {
        assert!(t.parse_cell(c).is_err(), "{c}");
    }
}

#[test]
fn x3_crosspoint_along_the_segments_line_crosscorner_round_the_corner() {
    // A pawn on the horizontal segment d6 and one on the vertical segment g5 (kings on the
    // roads): d6 reaches b6 and f6 (crosspoint), c5 c7 e5 e7 (crosscorner); g5 reaches g3 g7
    // and f4 f6 h4 h6.
    let fen = "g/4/5/4/5/1P2/3P1/4/5/4/G[Pp] w 0 1";
    let l = turns(bw(), fen);
    assert_eq!(
        from(&l, "d6"),
        ["d6-b6", "d6-c5", "d6-c7", "d6-e5", "d6-e7", "d6-f6"]
    );
    assert_eq!(
        from(&l, "g5"),
        ["g5-f4", "g5-f6", "g5-g3", "g5-g7", "g5-h4", "g5-h6"]
    );
}

#[test]
fn x10_pieces_move_and_capture_as_ruled() {
    let r = bw();
    // The guard on d6 rides its rank (b6, f6, h6) and steps crosscorner; it may not take the
    // blockade on f6's line beyond: only a General or a Diplomat may take a Blockade.
    let l = turns(r, "g/4/5/4/5/1U1b/5/4/5/4/G[Pp] w 0 1");
    assert_eq!(
        from(&l, "d6"),
        ["d6-b6", "d6-c5", "d6-c7", "d6-e5", "d6-e7", "d6-f6"]
    );
    // A diplomat takes the blockade (passively, into White's reserve).
    let g = after(r, "g/4/5/4/5/1Db1/5/4/5/4/G[p] w 0 1", &["d6xf6"]);
    assert_eq!(
        text::write_position(r, g.pos()),
        "g/4/5/4/5/2D1/5/4/5/4/G[Bp] b 0 1"
    );
    // The blockade never captures.
    let l = turns(r, "g/4/5/4/5/1Bu1/5/4/5/4/G[Pp] w 0 1");
    assert!(!from(&l, "d6").iter().any(|m| m.contains('x')), "{l:?}");
    // Values: 5, 3, 3, 2, 1.
    let v: Vec<Option<u32>> = r.pieces.iter().map(|p| p.value).collect();
    assert_eq!(v, [Some(5), Some(3), Some(3), Some(2), Some(1)]);
}

#[test]
fn x11_x12_the_armies_reserves_and_neutral_pawns() {
    let r = bw();
    assert_eq!(
        r.setup_text(),
        "g/uddu/bpdpb/puup/5/*2*/5/PUUP/BPDPB/UDDU/G[BUUPPPbuuppp] w 0 1"
    );
    let pos = &r.setup;
    let points = |side: Side| -> u32 {
        pos.cells()
            .iter()
            .filter_map(|o| o.as_piece())
            .filter(|(s, _)| *s == side)
            .map(|(_, k)| r.pieces[k.index()].value.unwrap_or(0))
            .sum::<u32>()
    };
    // 14 pieces on the board and 6 in reserve a side, 42 points with the reserve.
    let on_board = pos
        .cells()
        .iter()
        .filter(|o| matches!(o.as_piece(), Some((Side::White, _))))
        .count();
    assert_eq!(on_board, 14);
    assert_eq!(points(Side::White) + 3 + 2 * 2 + 3, 42);
    assert_eq!(
        pos.cells()
            .iter()
            .filter(|o| o.as_neutral().is_some())
            .count(),
        2
    );
}

#[test]
fn x20_destructive_and_passive_capture_and_neutral_pawns_are_destroyed() {
    let r = bw();
    // A guard captures destructively: nothing into the hand.
    let g = after(r, "g/4/5/4/5/1Up1/5/4/5/4/G[Pp] w 0 1", &["d6xf6"]);
    assert_eq!(
        text::write_position(r, g.pos()),
        "g/4/5/4/5/2U1/5/4/5/4/G[Pp] b 0 1"
    );
    // A diplomat captures passively: the pawn goes, turned over, into White's reserve.
    let g = after(r, "g/4/5/4/5/1Dp1/5/4/5/4/G[p] w 0 1", &["d6xf6"]);
    assert_eq!(
        text::write_position(r, g.pos()),
        "g/4/5/4/5/2D1/5/4/5/4/G[Pp] b 0 1"
    );
    // A neutral pawn taken by a diplomat goes nowhere.
    let g = after(r, "g/4/5/4/5/1D*1/5/4/5/4/G[p] w 0 1", &["d6xf6"]);
    assert_eq!(
        text::write_position(r, g.pos()),
        "g/4/5/4/5/2D1/5/4/5/4/G[p] b 0 1"
    );
}

#[test]
fn x21_influence_decides_who_moves_a_neutral_pawn() {
    let r = bw();
    // White's guard on a5 (2) against Black's pawn on c7 (1) around the neutral pawn on b6.
    let l = turns(r, "g/4/5/4/1p3/*3/U4/4/5/4/G[] w 0 1");
    assert!(l.contains(&"b6xc7".to_string()), "{l:?}");
    let l = turns(r, "g/4/5/4/1p3/*3/U4/4/5/4/G[] b 0 1");
    assert!(!l.iter().any(|m| m.starts_with("b6")), "{l:?}");
    // Equal influence (a pawn each): either moves it, without capturing.
    let l = turns(r, "g/4/5/4/1p3/*3/P4/4/5/4/G[] w 0 1");
    assert!(
        l.contains(&"b6-a7".to_string()) && !l.contains(&"b6xc7".to_string()),
        "{l:?}"
    );
}

#[test]
fn x22_drops_on_the_own_capital_road_and_the_diplomat_and_general_on_the_enemys() {
    let r = bw();
    // White's general has left its road e1: a reserve piece may be dropped there, only there.
    let l = turns(r, "g/4/5/4/5/4/5/4/5/1G2/1[BPp] w 0 1");
    let drops: Vec<&String> = l.iter().filter(|m| m.contains('@')).collect();
    assert_eq!(drops, ["B@e1", "P@e1"]);
    // A White diplomat stepping onto Red's road (d10 to e11) takes Red's whole reserve.
    let g = after(r, "1/1D2/g4/4/5/4/5/4/5/4/G[Puupp] w 0 1", &["d10-e11"]);
    assert_eq!(
        text::write_position(r, g.pos()),
        "D/4/g4/4/5/4/5/4/5/4/G[UUPPP] b 1 1"
    );
    // A White general stepping onto Red's road draws the game.
    let mut g = after(r, "1/1G2/g4/4/5/4/5/4/5/4/1[Pu] w 0 1", &["d10-e11"]);
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, None);
    assert_eq!(o.text(r), "draw (a General on the enemy capital-road)");
}

#[test]
fn x23_the_general_may_not_be_left_attacked() {
    // Red's guard on e5 attacks White's general on e1 down the e-file (e3 is empty): only the
    // general's steps off the file remain; the pawn on a3 cannot help.
    let l = turns(bw(), "g/4/5/4/5/4/2u2/4/P4/4/G[Pp] w 0 1");
    assert_eq!(l, ["e1-d2", "e1-f2"]);
}

#[test]
fn x24_vanquished_needs_all_four_conditions() {
    let r = bw();
    // White: general and a pawn (6 points), no diplomat, no reserve, no neutral pawn: it loses.
    let mut g = Game::new(
        r,
        text::parse_position(r, "g/4/5/4/5/4/5/4/P4/4/G[u] b 0 1").unwrap(),
    )
    .unwrap();
    let o = g.outcome().expect("vanquished");
    assert_eq!(
        (o.winner, o.text(r)),
        (Some(Side::Black), "red wins (vanquished)".into())
    );
    // Any one condition missing saves it: a reserve piece, a diplomat, ten points, a neutral
    // pawn.
    for fen in [
        "g/4/5/4/5/4/5/4/P4/4/G[Pu] b 0 1",
        "g/4/5/4/5/4/5/4/D4/4/G[u] b 0 1",
        "g/4/5/4/5/4/5/4/B4/U1U1/G[u] b 0 1",
        "g/4/5/4/5/*3/5/4/P4/4/G[u] b 0 1",
    ] {
        let mut g = Game::new(r, text::parse_position(r, fen).unwrap()).unwrap();
        assert!(g.outcome().is_none(), "{fen}");
    }
}

#[test]
fn x25_fifty_moves_draw_and_the_third_occurrence_loses_for_its_maker() {
    let r = load("border-wars-chess");
    let start = "g/4/5/4/5/4/5/4/5/4/G w 0 1";
    let shuffle = ["e1-d2", "e11-d10", "d2-e1", "d10-e11"];
    let mut g = after(&r, start, &shuffle);
    assert!(g.outcome().is_none(), "the second occurrence");
    let mut g = after(&r, start, &[shuffle, shuffle].concat());
    let o = g.outcome().expect("the third occurrence");
    assert_eq!(o.winner, Some(Side::White), "Red made it: {}", o.text(&r));
    let mut g = after(&r, "g/4/5/4/5/4/5/4/5/4/G w 99 60", &["e1-d2"]);
    let o = g.outcome().expect("fifty moves");
    assert_eq!(o.winner, None);
}

#[test]
fn x30_the_three_sub_variants() {
    // Chess: no reserves, no neutral pawns, every capture destroys.
    let c = load("border-wars-chess");
    assert_eq!(
        c.setup_text(),
        "g/uddu/bpdpb/puup/5/4/5/PUUP/BPDPB/UDDU/G w 0 1"
    );
    assert!(c.neutral.is_none() && c.drops.is_none() && c.end.vanquished.is_none());
    assert!(c.pieces.iter().all(|p| !p.captures_to_reserve));
    // Shogi: empty reserves, every capture passive.
    let s = load("border-wars-shogi");
    assert_eq!(
        s.setup_text(),
        "g/uddu/bpdpb/puup/5/4/5/PUUP/BPDPB/UDDU/G[] w 0 1"
    );
    let g = after(&s, "g/4/5/4/5/1Up1/5/4/5/4/G[] w 0 1", &["d6xf6"]);
    assert_eq!(
        text::write_position(&s, g.pos()),
        "g/4/5/4/5/2U1/5/4/5/4/G[P] b 0 1"
    );
    // Xiang-Qi: Cannons capture over one screen, along crosspoint lines and diagonals.
    let x = load("border-wars-xiangqi");
    assert_eq!(
        x.setup_text(),
        "g/uddu/cpdpc/puup/5/4/5/PUUP/CPDPC/UDDU/G w 0 1"
    );
    // Cannon a3, screen on a5, Red's pawn on a7: a3xa7; a3-a5 is blocked, no capture of a5.
    let l = turns(&x, "g/4/5/4/p4/4/P4/4/C4/4/G w 0 1");
    assert!(l.contains(&"a3xa7".to_string()), "{l:?}");
    assert!(!l.contains(&"a3xa5".to_string()) && !l.contains(&"a3-a5".to_string()));
}

#[path = "common/border_wars_ref.rs"]
mod border_wars_ref;

/// The engine's counts against an independent counter that walks segments as geometry.
#[test]
fn the_engine_agrees_with_an_independent_count() {
    use border_wars_ref::{Kind, Ref};
    for (name, kind, positions) in [
        (
            "border-wars",
            Kind::Full,
            vec![
                "g/uddu/bpdpb/puup/5/*2*/5/PUUP/BPDPB/UDDU/G[BUUPPPbuuppp] w 0 1",
                "g/uddu/bpd2/p1pp/B1u1b/1*2/3U*/P1UP/1PDPB/UGDU/1[BUUUPPPbuuppp] w 3 7",
            ],
        ),
        (
            "border-wars-chess",
            Kind::Chess,
            vec![
                "g/uddu/bpdpb/puup/5/4/5/PUUP/BPDPB/UDDU/G w 0 1",
                "g/uddu/bpd2/p1pp/B1u1b/4/3U1/P1UP/1PDPB/UGDU/1 w 3 7",
            ],
        ),
        (
            "border-wars-shogi",
            Kind::Shogi,
            vec!["g/uddu/bpd2/p1pp/B1u1b/4/3U1/P1UP/1PDPB/UGDU/1[BUUUPPPbuuppp] w 3 7"],
        ),
        (
            "border-wars-xiangqi",
            Kind::Xiangqi,
            vec![
                "g/uddu/cpdpc/puup/5/4/5/PUUP/CPDPC/UDDU/G w 0 1",
                "g/uddu/cpd2/p1pp/C1u1c/4/3U1/P1UP/1PDPC/UGDU/1 w 3 7",
            ],
        ),
    ] {
        let r = load(name);
        let reference = Ref::new(kind);
        assert_eq!(reference.board.len(), 42);
        for fen in positions {
            let mut g = Game::new(&r, text::parse_position(&r, fen).unwrap()).unwrap();
            let p = reference.parse(fen);
            for d in 1..=3 {
                assert_eq!(
                    g.perft(d),
                    reference.perft(&p, d),
                    "{name} depth {d} from {fen}"
                );
            }
        }
    }
}

/// Diagrams draw the board as segments between lattice points, with the capitals: text (`·`
/// at lattice points) and SVG (lines, points, tokens on the segments).
#[test]
fn diagrams_draw_the_segment_board() {
    let r = bw();
    let pos = text::parse_position(r, &r.setup_text()).unwrap();
    for at in ["d4", "e3", "b6"] {
        let cell = r.topo.parse_cell(at).unwrap();
        let Ok(d) = bulwark::view::diagram(r, &pos, cell) else {
            // b6 holds a neutral pawn: no side's piece, no diagram.
            assert_eq!(at, "b6");
            continue;
        };
        let svg = bulwark::view::diagram_svg(r, &pos, &d);
        assert!(
            svg.contains("<line") && svg.contains(r#"r="8""#),
            "segments and capitals"
        );
        insta::assert_snapshot!(
            format!("border-wars-{at}-text"),
            bulwark::view::diagram_text(r, &pos, &d)
        );
        insta::assert_snapshot!(format!("border-wars-{at}-svg"), svg);
    }
}
