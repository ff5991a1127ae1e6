//! `[blast]` (atomic chess) on a small variant of its own (`tests/variants/blast.toml`: a
//! royal King, Rooks and Pawns; a capture removes the capturer and the pieces around it except
//! Pawns). The bundled atomic chess is checked against Fairy-Stockfish's perft in
//! `tests/perft/atomic.perft`.

mod games;

use bulwark::play::Reason;
use bulwark::{Ruleset, Side, text};
use games::{board, game, moves, play};

const BLAST: &str = include_str!("variants/blast.toml");

fn rules_from(source: &str) -> Ruleset {
    games::rules_named("blast.toml", source)
}

#[test]
fn a_capture_removes_the_capturer_and_its_neighbours_of_both_sides_but_not_immune_ones() {
    let rules = rules_from(BLAST);
    // The a1 Rook takes the Rook on a4: the Rooks on a5 and b4 (one Black, one White) go too,
    // the Pawn on b5 stays, the Kings are far away.
    let mut g = game(&rules, "rp2k/rR3/5/5/R3K w");
    play(&mut g, "a1xa4");
    assert_eq!(board(&g), "1p2k/5/5/5/4K b");
    // Without `[blast]` only the captured piece goes.
    let plain = rules_from(&BLAST.replace(
        "[blast]\naround = [\"orthogonal\", \"diagonal\"]\nimmune = [\"pawn\"]\n",
        "",
    ));
    let mut g = game(&plain, "rp2k/rR3/5/5/R3K w");
    play(&mut g, "a1xa4");
    assert_eq!(board(&g), "rp2k/RR3/5/5/4K b");
}

#[test]
fn a_capturing_or_captured_immune_piece_still_leaves() {
    let rules = rules_from(BLAST);
    // The b2 Pawn takes on c3: it leaves with its prey; the Pawn on d3 beside it stays.
    let mut g = game(&rules, "k4/5/2rp1/1P3/4K w");
    play(&mut g, "b2xc3");
    assert_eq!(board(&g), "k4/5/3p1/5/4K b");
}

#[test]
fn a_royal_piece_never_captures() {
    let rules = rules_from(BLAST);
    // The Rook on d1 checks the King on e1. Taking it would blow the King up with it, and d2
    // is attacked: stepping to e2 is the only turn.
    let mut g = game(&rules, "k4/5/5/5/3rK w");
    assert_eq!(moves(&mut g), ["e1-e2"]);
    assert!(text::parse_turn(&mut g, "e1xd1").is_err());
}

#[test]
fn a_capture_that_blows_up_the_movers_own_royal_piece_is_illegal() {
    let rules = rules_from(BLAST);
    // d1xd2 would blow up the King on e1 beside d2; the Rook's other moves stay.
    let mut g = game(&rules, "k4/5/5/3r1/3RK w");
    let m = moves(&mut g);
    assert!(!m.contains(&"d1xd2".to_string()), "{m:?}");
    assert!(m.contains(&"d1-c1".to_string()), "{m:?}");
    // Counted without being listed (perft's last ply), the same turns.
    assert_eq!(g.count_turns(), m.len());
}

#[test]
fn a_royal_piece_out_of_check_is_counted_without_its_captures() {
    let rules = rules_from(BLAST);
    // Out of check, the King's moves are counted from its landings: taking the Rook on c2
    // beside it would blow it up, c1, d2 and e2 are on the Rook's lines, e1 is the only turn.
    let mut g = game(&rules, "k4/5/5/2r2/3K1 w");
    assert_eq!(moves(&mut g), ["d1-e1"]);
    assert_eq!(g.count_turns(), 1);
    // A King beside the enemy King cannot be taken: d2 and e2, beside the black King on d3,
    // are safe from the Rook on a2's rank; d1 is off it.
    let mut g = game(&rules, "5/5/3k1/r4/4K w");
    let mut m = moves(&mut g);
    m.sort();
    assert_eq!(m, ["e1-d1", "e1-d2", "e1-e2"]);
    assert_eq!(g.count_turns(), 3);
}

#[test]
fn a_capture_whose_blast_opens_a_line_twice_blocked_is_illegal() {
    let rules = rules_from(BLAST);
    // The Rooks on e2 and e3 both stand between the white King on e1 and the black Rook on e5.
    // Taking on d3 (from a3, or with the e3 Rook) blows up both: the file opens, refused. No
    // single piece leaving the file opens it, so each of them may still move.
    let mut g = game(&rules, "1k2r/5/R2rR/4R/4K w");
    let m = moves(&mut g);
    assert!(!m.contains(&"a3xd3".to_string()), "{m:?}");
    assert!(!m.contains(&"e3xd3".to_string()), "{m:?}");
    assert!(m.contains(&"e2-d2".to_string()), "{m:?}");
    assert!(m.contains(&"e3-e4".to_string()), "{m:?}");
    assert_eq!(g.count_turns(), m.len());
    // With the black Rook off the file, the same captures are legal.
    let mut g = game(&rules, "1k1r1/5/R2rR/4R/4K w");
    let m = moves(&mut g);
    assert!(m.contains(&"a3xd3".to_string()), "{m:?}");
    assert!(m.contains(&"e3xd3".to_string()), "{m:?}");
    assert_eq!(g.count_turns(), m.len());
}

#[test]
fn a_capture_that_blows_up_the_enemy_royal_piece_wins_even_from_check() {
    let rules = rules_from(BLAST);
    // White's King on e1 is attacked by the Rook on e5; taking the Rook on b4 blows up the
    // black King on a5 beside it, which is legal and wins at once.
    let mut g = game(&rules, "k3r/1r3/5/5/1R2K w");
    let m = moves(&mut g);
    assert!(m.contains(&"b1xb4".to_string()), "{m:?}");
    assert!(!m.contains(&"b1-b2".to_string()), "{m:?}");
    play(&mut g, "b1xb4");
    let o = g.outcome().expect("the black King is gone");
    assert_eq!(o.winner, Some(Side::White));
    assert_eq!(o.reason, Reason::RoyalCaptured);
}

#[test]
fn royal_pieces_side_by_side_cannot_be_checked() {
    let rules = rules_from(BLAST);
    // The black Rook on e1 attacks the white King on c1 along the rank, but the black King on
    // d2 touches it: taking the white King would blow up the black one, so White is not in
    // check and its Rook may move anywhere.
    let mut g = game(&rules, "R4/5/5/3k1/2K1r w");
    let m = moves(&mut g);
    assert!(m.contains(&"a5-a4".to_string()), "{m:?}");
    // Stepping away from the black King to b1 leaves the white King in check: refused.
    assert!(!m.contains(&"c1-b1".to_string()), "{m:?}");
    // The black King away: White is in check and must answer it.
    let mut g = game(&rules, "R4/3k1/5/5/2K1r w");
    let m = moves(&mut g);
    assert!(!m.contains(&"a5-a4".to_string()), "{m:?}");
    assert!(m.contains(&"c1-b2".to_string()), "{m:?}");
}

#[test]
fn a_blast_that_removes_a_castling_rook_ends_its_right() {
    let rules = Ruleset::load_named("atomic").unwrap();
    // The bishop takes on g2: the blast removes the rook on h1 (the king on e1 is two cells
    // away and stays), so White may no longer castle king-side.
    let mut g = game(&rules, "r3k2r/1b6/8/8/8/8/6P1/R3K2R b KQkq - 0 1");
    play(&mut g, "b7xg2");
    assert_eq!(board(&g), "r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 2");
}

#[test]
fn the_rules_in_words_state_the_blast() {
    let rules = Ruleset::load_named("atomic").unwrap();
    let words: String = bulwark::view::words::rules_in_words(&rules)
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert!(words.contains("Every capture explodes"), "{words}");
    assert!(words.contains("but a Pawn"), "{words}");
}
