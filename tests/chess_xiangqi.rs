//! Engine features that chess and xiangqi need, each declared in their variant files: royal
//! pieces and legality, checkmate and stalemate results, castling, en passant, promotion,
//! confining regions, the facing generals, lame leapers and the cannon; FEN both ways.

use bulwark::play::{Game, Reason};
use bulwark::text::{parse_position, parse_turn, turn_text, write_position};
use bulwark::{Ruleset, Side};

fn chess() -> Ruleset {
    Ruleset::load_named("chess").unwrap()
}

fn xiangqi() -> Ruleset {
    Ruleset::load_named("xiangqi").unwrap()
}

fn moves(rules: &Ruleset, fen: &str) -> Vec<String> {
    let mut g = Game::new(rules, parse_position(rules, fen).unwrap()).unwrap();
    let mut v: Vec<String> = g
        .legal_turns()
        .unwrap_or_default()
        .iter()
        .map(|t| turn_text(rules, t))
        .collect();
    v.sort();
    v
}

fn has(v: &[String], m: &str) -> bool {
    v.iter().any(|x| x == m)
}

#[test]
fn fen_round_trips_for_chess_and_xiangqi() {
    let c = chess();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "8/8/8/8/8/8/8/K6k b - - 12 40",
    ] {
        assert_eq!(write_position(&c, &parse_position(&c, fen).unwrap()), fen);
    }
    let x = xiangqi();
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(write_position(&x, &parse_position(&x, fen).unwrap()), fen);
    assert_eq!(write_position(&x, &x.setup), fen);
    let e = parse_position(
        &c,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
    )
    .unwrap_err();
    assert!(e.to_string().contains("castling field"), "{e}");
}

#[test]
fn chess_moves_may_not_leave_the_king_attacked() {
    let c = chess();
    // The e-pawn is pinned by the rook on e8: it may not leave the file.
    let m = moves(&c, "4r1k1/8/8/8/8/5p2/4P3/4K3 w - - 0 1");
    assert!(!has(&m, "e2xf3"));
    assert!(has(&m, "e2-e3") && has(&m, "e2-e4"));
    // In check, only answers to the check.
    let m = moves(&c, "4r1k1/8/8/8/8/8/3P4/R3K3 w - - 0 1");
    assert!(
        m.iter()
            .all(|x| x.starts_with("e1") || x.ends_with("e2") || x.ends_with("e8")),
        "{m:?}"
    );
}

#[test]
fn chess_checkmate_loses_and_stalemate_draws() {
    let c = chess();
    let mut g = Game::new(
        &c,
        parse_position(&c, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap(),
    )
    .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Side::White), Reason::Checkmate));
    let mut g = Game::new(
        &c,
        parse_position(&c, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap(),
    )
    .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::Stalemate));
}

#[test]
fn chess_castling_needs_rights_empty_and_unattacked_cells() {
    let c = chess();
    let m = moves(&c, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(has(&m, "e1-g1") && has(&m, "e1-c1"));
    // No right, no castling.
    let m = moves(&c, "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    assert!(!has(&m, "e1-g1") && has(&m, "e1-c1"));
    // A bishop attacks f1: not through check. A knight on b1: not through a piece.
    let m = moves(&c, "r3k2r/8/8/8/8/8/6b1/RN2K2R w KQkq - 0 1");
    assert!(!has(&m, "e1-g1") && !has(&m, "e1-c1"));
    // Playing it moves the rook and clears both white rights.
    let mut g = Game::new(
        &c,
        parse_position(&c, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap(),
    )
    .unwrap();
    let t = parse_turn(&mut g, "e1-g1").unwrap();
    g.play(&t);
    assert_eq!(
        write_position(&c, g.pos()),
        "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    );
    // Moving a rook clears its right only; capturing a rook on its cell clears the other's.
    let mut g = Game::new(
        &c,
        parse_position(&c, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap(),
    )
    .unwrap();
    let t = parse_turn(&mut g, "a1xa8").unwrap();
    g.play(&t);
    assert!(write_position(&c, g.pos()).contains(" b Kk "));
}

#[test]
fn chess_en_passant() {
    let c = chess();
    let mut g = Game::new(
        &c,
        parse_position(&c, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1").unwrap(),
    )
    .unwrap();
    let t = parse_turn(&mut g, "d7-d5").unwrap();
    g.play(&t);
    assert_eq!(
        write_position(&c, g.pos()),
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
    );
    let t = parse_turn(&mut g, "e5-d6xd5").unwrap();
    g.play(&t);
    assert_eq!(
        write_position(&c, g.pos()),
        "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2"
    );
    // Only right after the double step.
    let m = moves(&c, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2");
    assert!(!has(&m, "e5-d6xd5"));
}

#[test]
fn chess_promotion_offers_every_declared_choice() {
    let c = chess();
    let m = moves(&c, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for p in ["Q", "R", "B", "N"] {
        assert!(has(&m, &format!("a7-a8={p}")), "{p}");
    }
    assert!(!has(&m, "a7-a8"), "promotion is compulsory");
    let mut g = Game::new(
        &c,
        parse_position(&c, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
    )
    .unwrap();
    let t = parse_turn(&mut g, "a7-a8=N").unwrap();
    g.play(&t);
    assert!(write_position(&c, g.pos()).starts_with("N3k3/"));
}

#[test]
fn xiangqi_general_and_advisors_stay_in_the_palace() {
    let x = xiangqi();
    let m = moves(&x, "4k4/9/9/9/9/9/9/9/9/3KA4 w - - 0 1");
    assert!(!has(&m, "d1-c1") && has(&m, "d1-d2"), "{m:?}");
    assert!(has(&m, "e1-d2") || has(&m, "e1-f2"));
    assert!(
        !m.iter()
            .any(|t| t.starts_with("e1-") && !["e1-d2", "e1-f2"].contains(&t.as_str()))
    );
}

#[test]
fn xiangqi_generals_may_not_face_each_other() {
    let x = xiangqi();
    // Moving the general to the e-file would face the enemy general on an open file.
    let m = moves(&x, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert!(!has(&m, "d1-e1") && has(&m, "d1-d2"));
    // A piece between them may not step aside. (A cannon, which does not attack the enemy
    // general without a screen: with a rook there, the side not to move would be in check.)
    let m = moves(&x, "4k4/9/9/9/4C4/9/9/9/9/4K4 w - - 0 1");
    assert!(has(&m, "e6-e7") && has(&m, "e6-e2"), "{m:?}");
    assert!(
        m.iter()
            .filter(|t| t.starts_with("e6"))
            .all(|t| t[3..].starts_with('e')),
        "{m:?}"
    );
}

#[test]
fn xiangqi_lame_horse_and_elephant_and_the_river() {
    let x = xiangqi();
    // Horse on b1 with a piece on b2: the two leaps over b2 are blocked.
    let m = moves(&x, "3k5/9/9/9/9/9/9/9/1P7/1N2K4 w - - 0 1");
    assert!(!has(&m, "b1-a3") && !has(&m, "b1-c3") && has(&m, "b1-d2"));
    // Elephant on e5 may not cross the river, and the soldier on d4 blocks the eye of e5-c3.
    let m = moves(&x, "4k4/9/9/9/9/4B4/3P5/9/9/3K5 w - - 0 1");
    assert!(
        !has(&m, "e5-c7") && !has(&m, "e5-g7"),
        "never across the river"
    );
    assert!(!has(&m, "e5-c3") && has(&m, "e5-g3"), "blocked eye on d4");
    // A soldier steps sideways only after the river.
    let m = moves(&x, "4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1");
    assert!(has(&m, "e4-e5") && !has(&m, "e4-d4"));
    let m = moves(&x, "4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1");
    assert!(has(&m, "e6-d6") && has(&m, "e6-e7") && !has(&m, "e6-e5"));
}

#[test]
fn xiangqi_cannon_needs_exactly_one_screen() {
    let x = xiangqi();
    let m = moves(&x, "3k5/9/4r4/9/4P4/9/9/9/4C4/4K4 w - - 0 1");
    assert!(has(&m, "e2xe8"), "over the soldier on e6");
    assert!(!has(&m, "e2-e7"), "no move beyond the screen");
    let m = moves(&x, "3k5/9/4r4/4p4/4P4/9/9/9/4C4/4K4 w - - 0 1");
    assert!(
        has(&m, "e2xe7") && !has(&m, "e2xe8"),
        "the first piece beyond the one screen only"
    );
}

#[test]
fn xiangqi_no_legal_move_loses() {
    let x = xiangqi();
    // Black's general on d10 is not in check, but d9 is covered by the chariot on c9 and e10
    // by the white general facing it along the open e-file: stalemate, which loses in xiangqi.
    let mut g = Game::new(
        &x,
        parse_position(&x, "3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap(),
    )
    .unwrap();
    assert!(!g.in_check());
    let o = g.outcome().expect("no legal move");
    assert_eq!((o.winner, o.reason), (Some(Side::White), Reason::Stalemate));
}
