//! Position text read strictly (issue "hostile input, round two", items 10 and 11): castling
//! rights need their pieces, and lenient readings are refused or normalised on purpose.

use bulwark::{Ruleset, parse_position, write_position};

fn rules(name: &str) -> Ruleset {
    Ruleset::load_named(name).unwrap()
}

/// The message of a refused position text.
fn refused(r: &Ruleset, text: &str) -> String {
    match parse_position(r, text) {
        Ok(p) => panic!("`{text}` was read as {}", write_position(r, &p)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn item_10_a_castling_right_needs_its_king_and_partner() {
    let chess = rules("chess");
    for (text, words) in [
        (
            "4k3/8/8/8/8/8/8/4K2N w K - 0 1",
            "needs a white Rook on h1 (a white Knight",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2B w K - 0 1",
            "needs a white Rook on h1 (a white Bishop",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",
            "needs a white Rook on h1 (nothing",
        ),
        (
            "4k3/8/8/8/8/8/8/R2K3R w K - 0 1",
            "needs a white royal piece on e1",
        ),
        ("4k3/8/8/8/8/8/8/4K2R w k - 0 1", "needs a black Rook on h8"),
        (
            "r3k2r/8/8/8/8/8/8/4K2r w K - 0 1",
            "needs a white Rook on h1 (a black Rook",
        ),
    ] {
        let m = refused(&chess, text);
        assert!(m.contains(words), "{text}: {m}");
    }
    // With its pieces, a right stands, and castling moves the king and the rook.
    let ok = parse_position(&chess, "4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    assert_eq!(
        write_position(&chess, &ok),
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    );
    // Waterloo: both partners of a castling must stand (W-12), each of the kind of the start.
    let waterloo = rules("waterloo");
    let m = refused(&waterloo, "4k5/10/10/10/10/10/10/10/10/NN2K5[] w K - 0 1");
    assert!(m.contains("the castling right `K` needs a white"), "{m}");
    // Chess960: `K` without a partner on the king's side says so.
    let c960 = rules("chess960");
    let m = refused(&c960, "4k3/8/8/8/8/8/8/4K3 w K - 0 1");
    assert!(m.contains("none stands there"), "{m}");
    let m = refused(&c960, "4k3/8/8/8/8/8/8/4K2N w H - 0 1");
    assert!(m.contains("castling right `H`"), "{m}");
    assert!(parse_position(&c960, "4k3/8/8/8/8/8/8/4K2R w H - 0 1").is_ok());
}

#[test]
fn item_11_lenient_readings_are_refused() {
    let chess = rules("chess");
    for (text, words) in [
        ("4k3/08/8/8/8/8/8/4K3 w - - 0 1", "leading zero"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQKQ - 0 1", "given twice"),
        ("4k3/8/8/8/8/8/8/4K3 w - - +5 1", "`+5`"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 -1", "`-1`"),
        ("4k3/8/8/8/8/8/8/4K3", "side to move is missing"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "must already have become"),
        ("4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "black Pawn on a1"),
    ] {
        let m = refused(&chess, text);
        assert!(m.contains(words), "{text}: {m}");
    }
    // A pawn on its own first rank has not reached anything: it may stand there.
    assert!(parse_position(&chess, "4k3/8/8/8/8/8/8/P3K3 w - - 0 1").is_ok());
}

#[test]
fn item_11_any_white_space_separates_fields() {
    let chess = rules("chess");
    let want = "4k3/8/8/8/8/8/8/4K2R w K - 3 9";
    for text in [
        "4k3/8/8/8/8/8/8/4K2R\tw\tK\t-\t3\t9",
        "  4k3/8/8/8/8/8/8/4K2R  w K -\n3 9\n",
        "4k3/8/8/8/8/8/8/4K2R w\r\nK - 3 9",
    ] {
        let p = parse_position(&chess, text).unwrap();
        assert_eq!(write_position(&chess, &p), want, "{text:?}");
    }
}
