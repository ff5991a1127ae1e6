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

/// The legal turns of a position, as move text.
fn turns(fen: &str) -> Vec<String> {
    let mut g = game(fen);
    texts(&mut g)
}

fn texts(g: &mut Game<'_>) -> Vec<String> {
    g.legal_turns()
        .map(|l| l.iter().map(|t| text::turn_text(rules(), t)).collect())
        .unwrap_or_default()
}

/// A game after playing `moves` (move text) from `fen`.
fn after(fen: &str, moves: &[&str]) -> Game<'static> {
    let mut g = game(fen);
    for m in moves {
        let t = text::parse_turn(&mut g, m).unwrap_or_else(|e| panic!("{e}"));
        g.play(&t);
    }
    g
}

fn has(list: &[String], m: &str) -> bool {
    list.iter().any(|t| t == m)
}

const START: &str = "rmcakqacmr/ggbnnnnbgg/ppsppppspp/10/10/10/10/PPSPPPPSPP/GGBNNNNBGG/RMCAKQACMR[SSJJWWssjjww] w KQkq - 0 1";

#[test]
fn w1_board_has_ten_files_without_j_and_ten_ranks() {
    let t = &rules().topo;
    assert_eq!(t.len(), 100);
    assert!(t.parse_cell("k10").is_ok());
    assert!(t.parse_cell("j5").is_err());
    let names: Vec<String> = t.rank_cells(0).map(|c| t.name(c)).collect();
    assert_eq!(
        names,
        ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "k1"]
    );
    assert_eq!(rules().setup.side, bulwark::Side::White);
}

#[test]
fn w2_movement_modes_on_an_open_board() {
    // Each piece alone in the middle (kings in the corners): N(3) 8 cells, N(1)+N(2) 16,
    // N (the 5×5 square) 24.
    let count = |letter: char| {
        let fen = format!("9k/10/10/10/4{letter}5/10/10/10/10/K9[] w - - 0 1");
        turns(&fen).iter().filter(|m| m.starts_with("e6")).count()
    };
    assert_eq!(count('N'), 8);
    assert_eq!(count('G'), 16);
    assert_eq!(count('J'), 24);
    assert_eq!(count('S'), 8);
    // O: rook lines, D: bishop lines, both for the Adviser; the Queen adds N(3).
    assert_eq!(count('R'), 18);
    assert_eq!(count('B'), 17);
    assert_eq!(count('A'), 35);
    assert_eq!(count('Q'), 43);
    assert_eq!(count('M'), 26);
    assert_eq!(count('C'), 25);
}

#[test]
fn w3_letters_name_the_pieces() {
    let names: Vec<(char, &str)> = rules()
        .pieces
        .iter()
        .map(|p| (p.letter, p.name.as_str()))
        .collect();
    for (l, n) in [
        ('P', "Pawn"),
        ('N', "Knight"),
        ('G', "Guard"),
        ('B', "Bishop"),
        ('C', "Cardinal"),
        ('R', "Rook"),
        ('M', "Marshall"),
        ('A', "Adviser"),
        ('Q', "Queen"),
        ('K', "King"),
        ('S', "Spy"),
        ('J', "Joker"),
        ('W', "Wiseman"),
    ] {
        assert!(names.contains(&(l, n)), "{l} {n}");
    }
    assert_eq!(names.len(), 13);
    let royal: Vec<char> = rules()
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.letter)
        .collect();
    assert_eq!(royal, ['K'], "only the King is royal (the Spy is not)");
}

#[test]
fn w4_the_starting_array() {
    assert_eq!(rules().setup_text(), START);
    let g = game(START);
    let at = |c: &str| {
        let cell = rules().topo.parse_cell(c).unwrap();
        text::occupant_char(rules(), g.pos().at(cell))
    };
    for (c, l) in [
        ("e1", 'K'),
        ("f1", 'Q'),
        ("b1", 'M'),
        ("c3", 'S'),
        ("h3", 'S'),
        ("e10", 'k'),
        ("f10", 'q'),
        ("c8", 's'),
    ] {
        assert_eq!(at(c), l, "{c}");
    }
    // A position text without the bracket has the starting reserve.
    let without = START.replace("[SSJJWWssjjww]", "");
    assert_eq!(
        text::write_position(rules(), &text::parse_position(rules(), &without).unwrap()),
        START
    );
}

#[test]
fn w5_reserve_feeds_changes_and_replaced_or_captured_pieces_leave_the_game() {
    // A pawn promotes: the reserve has one Spy fewer and no Pawn comes into it.
    let g = after(
        "4k5/10/10/1P8/10/10/10/10/10/4K5[SSJJWWssjjww] w - - 0 1",
        &["b7-b8=S"],
    );
    assert_eq!(
        text::write_position(rules(), g.pos()),
        "4k5/10/1S8/10/10/10/10/10/10/4K5[SJJWWssjjww] b - - 0 1"
    );
    // A capture takes nothing into any reserve.
    let g = after("4k5/10/10/10/4n5/3P6/10/10/10/4K5[] w - - 0 1", &["d5xe6"]);
    assert_eq!(
        text::write_position(rules(), g.pos()),
        "4k5/10/10/10/4P5/10/10/10/10/4K5[] b - - 0 1"
    );
    // The reserve is part of the position: two positions that differ only in it differ.
    let a = text::parse_position(rules(), "4k5/10/10/10/10/10/10/10/10/4K5[S] w - - 0 1").unwrap();
    let b = text::parse_position(rules(), "4k5/10/10/10/10/10/10/10/10/4K5[] w - - 0 1").unwrap();
    assert_ne!(rules().zobrist().hash(&a), rules().zobrist().hash(&b));
    // A King or Pawn is not kept in the reserve.
    assert!(text::parse_position(rules(), "4k5/10/10/10/10/10/10/10/10/4K5[P] w - - 0 1").is_err());
}

#[test]
fn w10_pawn_steps_doubles_from_its_row_captures_diagonally_and_en_passant() {
    let l = turns("4k5/10/10/10/10/10/3p6/2P1P5/10/4K5[] w - - 0 1");
    assert!(has(&l, "c3-c4") && has(&l, "c3-c5"));
    assert!(has(&l, "e3xd4") && has(&l, "c3xd4"));
    assert!(has(&l, "e3-e5") && has(&l, "e3-e4"));
    assert!(
        !has(&l, "c3-d4") && !has(&l, "e3-f4"),
        "the diagonal step only captures"
    );
    // Not from another row, not over a piece, never capturing straight ahead.
    let l = turns("4k5/10/10/10/10/2p7/2P7/10/3P6/4K5[] w - - 0 1");
    assert!(!has(&l, "c4-c5") && !has(&l, "c4xc5"));
    assert!(has(&l, "d2-d3") && !has(&l, "d2-d4"));
    // En passant right after the double step, not later.
    let fen = "4k5/10/3p6/10/4P5/10/10/10/10/4K5[] b - - 0 1";
    let mut g = after(fen, &["d8-d6"]);
    let l = texts(&mut g);
    assert!(has(&l, "e6-d7xd6"), "{l:?}");
    let mut g2 = after(fen, &["d8-d6", "e1-e2", "e10-e9"]);
    assert!(!has(&texts(&mut g2), "e6-d7xd6"));
}

#[test]
fn w11_pawn_becomes_a_spy_at_once_and_the_third_pawn_wins() {
    let with = turns("4k5/10/10/1P8/10/10/10/10/10/4K5[SSJJWWssjjww] w - - 0 1");
    assert!(has(&with, "b7-b8=S"));
    assert!(
        !has(&with, "b7-b8"),
        "the change is compulsory while a Spy is left"
    );
    // No Spy left (two pawns promoted already): the pawn stays a pawn and wins.
    let fen = "4k5/10/10/1P8/10/10/10/10/10/4K5[JJWWssjjww] w - - 0 1";
    let without = turns(fen);
    assert!(has(&without, "b7-b8") && !has(&without, "b7-b8=S"));
    let mut g = after(fen, &["b7-b8"]);
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, Some(bulwark::Side::White));
    assert_eq!(o.text(rules()), "white wins (a Pawn on its own eighth-row)");
    // Black's eighth row is rank 3.
    let l = turns("4k5/10/10/10/10/10/1p8/10/10/4K5[SSJJWWssjjww] b - - 0 1");
    assert!(has(&l, "b4-b3=S"), "{l:?}");
}

#[test]
fn w12_double_castlings_move_marshall_rook_and_king() {
    let fen = "rm2k3mr/pp6pp/10/10/10/10/10/10/PP6PP/RM2K3MR[] w KQkq - 0 1";
    let l = turns(fen);
    assert!(has(&l, "e1-b1") && has(&l, "e1-h1"), "{l:?}");
    let g = after(fen, &["e1-b1"]);
    assert_eq!(
        text::write_position(rules(), g.pos()),
        "rm2k3mr/pp6pp/10/10/10/10/10/10/PP6PP/1KRM4MR[] b kq - 1 1"
    );
    let g = after(fen, &["e1-b1", "e10-i10"]);
    assert_eq!(
        text::write_position(rules(), g.pos()),
        "rm4mrk1/pp6pp/10/10/10/10/10/10/PP6PP/1KRM4MR[] w - - 2 2"
    );
    // After White's 0-0-0 its Rook on g1 guards g10, which Black's King would cross.
    let mut g = after(fen, &["e1-h1"]);
    let l = texts(&mut g);
    assert!(!has(&l, "e10-i10") && has(&l, "e10-c10"), "{l:?}");
    let g = after(fen, &["e1-h1", "e10-c10"]);
    assert_eq!(
        text::write_position(rules(), g.pos()),
        "2krm3mr/pp6pp/10/10/10/10/10/10/PP6PP/RM3MRK2[] w - - 2 2"
    );
    // Not with a piece between King and Marshall, not across an attacked cell, not in check,
    // not after the Marshall has moved.
    let l = turns("rm2k3mr/pp6pp/10/10/10/10/10/10/PP6PP/RMN1K3MR[] w KQkq - 0 1");
    assert!(!has(&l, "e1-b1") && has(&l, "e1-h1"));
    let l = turns("rm2k3mr/pp6pp/10/10/10/10/10/6r3/PP6PP/RM2K3MR[] w KQkq - 0 1");
    assert!(!has(&l, "e1-h1") && has(&l, "e1-b1"), "g3 rook attacks g1");
    let l = turns("rm2k3mr/pp6pp/10/10/10/10/4r5/10/PP6PP/RM2K3MR[] w KQkq - 0 1");
    assert!(!has(&l, "e1-h1") && !has(&l, "e1-b1"), "in check");
    let mut g = after(fen, &["b1-c3", "e10-e9", "c3-b1", "e9-e10"]);
    let l = texts(&mut g);
    assert!(!has(&l, "e1-b1") && has(&l, "e1-h1"));
    assert_eq!(
        text::write_position(rules(), g.pos()).split(' ').nth(2),
        Some("Q")
    );
}

#[test]
fn w13_a_guard_that_takes_a_knight_becomes_a_joker() {
    let l = turns("4k5/10/10/10/10/2n1b5/10/2G7/10/4K5[SSJJWWssjjww] w - - 0 1");
    assert!(has(&l, "c3xc5=J") && !has(&l, "c3xc5"), "{l:?}");
    assert!(
        has(&l, "c3xe5") && !has(&l, "c3xe5=J"),
        "a Bishop is not a Knight"
    );
    // No Joker left: it stays a Guard.
    let l = turns("4k5/10/10/10/10/2n1b5/10/2G7/10/4K5[SSWWssjjww] w - - 0 1");
    assert!(has(&l, "c3xc5") && !has(&l, "c3xc5=J"));
}

#[test]
fn w14_an_adviser_giving_check_becomes_a_wiseman() {
    let l = turns("4k5/10/10/10/10/10/10/10/10/3AK5[SSJJWWssjjww] w - - 0 1");
    assert!(has(&l, "d1-d9=W") && !has(&l, "d1-d9"), "d9 attacks e10");
    assert!(has(&l, "d1-d5") && !has(&l, "d1-d5=W"));
    assert!(has(&l, "d1-i6=W"), "i6 attacks e10 along the diagonal");
    // Without a Wiseman in the reserve it checks as an Adviser.
    let l = turns("4k5/10/10/10/10/10/10/10/10/3AK5[SSJJssjjww] w - - 0 1");
    assert!(has(&l, "d1-d9") && !has(&l, "d1-d9=W"));
    // A discovered check by another piece does not change it (W-14 judgement call).
    // Here the Adviser on e3 is the Wiseman's second piece; stepping aside, it lets the
    // Wiseman hop the pawn on e5 to the King.
    let l = turns("4k5/10/10/10/10/4p5/10/4A5/10/4W4K[SSJJWWssjjww] w - - 0 1");
    assert!(has(&l, "e3-d3") && !has(&l, "e3-d3=W"), "{l:?}");
    let mut g = after(
        "4k5/10/10/10/10/4p5/10/4A5/10/4W4K[SSJJWWssjjww] w - - 0 1",
        &["e3-d3"],
    );
    assert!(g.in_check(), "the check is real");
}

#[test]
fn w15_the_wiseman_hops_over_exactly_one_piece() {
    // Wiseman e2, hurdle e4 (own pawn); beyond: e5, e6, then an enemy on e7 to capture.
    let l = turns("k9/10/10/4p5/10/10/4P5/10/4W5/K9[] w - - 0 1");
    for m in ["e2-e5", "e2-e6", "e2xe7"] {
        assert!(has(&l, m), "{m} in {l:?}");
    }
    assert!(!has(&l, "e2-e3"), "not before the hurdle");
    assert!(!has(&l, "e2-e8"), "not past a second piece");
    assert!(!has(&l, "e2xe4"), "the hurdle is not captured");
    // Without a hurdle along a line it does not move along it.
    assert!(
        !l.iter()
            .any(|m| m.starts_with("e2-f") || m.starts_with("e2-d")),
        "{l:?}"
    );
}

#[test]
fn w16_a_spy_may_become_a_joker_on_its_ninth_row_and_a_wiseman_on_its_last() {
    let l = turns("4k5/10/1S8/10/10/10/10/10/10/4K5[SSJJWWssjjww] w - - 0 1");
    assert!(has(&l, "b8-b9") && has(&l, "b8-b9=J"));
    assert!(!has(&l, "b8-b9=W"));
    let l = turns("4k5/1S8/10/10/10/10/10/10/10/4K5[SSJJWWssjjww] w - - 0 1");
    assert!(has(&l, "b9-b10") && has(&l, "b9-b10=W"));
    assert!(
        has(&l, "b9-c9") && !has(&l, "b9-c9=J"),
        "moving along the row is no arrival"
    );
    // Each only while the reserve has one.
    let l = turns("4k5/1S8/10/10/10/10/10/10/10/4K5[SSJJssjjww] w - - 0 1");
    assert!(has(&l, "b9-b10") && !has(&l, "b9-b10=W"));
}

#[test]
fn w20_checkmate_stalemate_and_the_king_on_its_eighth_row_win() {
    // Stalemate wins for the side that gave it.
    let mut g = game("k9/2R7/10/10/10/10/10/10/10/1R2K5[] b - - 0 1");
    assert_eq!(g.legal_turns().map_or(0, |l| l.len()), 0);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.text(rules())),
        (
            Some(bulwark::Side::White),
            "white wins (stalemate)".to_string()
        )
    );
    let mut g = game("k9/10/10/10/10/10/10/10/1R8/R3K5[] b - - 0 1");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.text(rules())),
        (
            Some(bulwark::Side::White),
            "white wins (checkmate)".to_string()
        )
    );
    // The King on its eighth row.
    let mut g = after("k9/10/10/4K5/10/10/10/10/10/10[] w - - 0 1", &["e7-e8"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(bulwark::Side::White));
    assert_eq!(o.text(rules()), "white wins (a King on its own eighth-row)");
}

#[test]
fn w21_no_repetition_and_sixty_plies_without_capture_or_change_lose() {
    // The fourth knight move would bring back the start: not allowed.
    let mut g = after(START, &["g2-f4", "g9-f7", "f4-g2"]);
    let l = texts(&mut g);
    assert!(!has(&l, "f7-g9") && has(&l, "f7-h6"), "{l:?}");
    let err = text::parse_turn(&mut g, "f7-g9").unwrap_err();
    assert!(err.reason.contains("repeat"), "{err}");
    // The 60th ply without a capture or change of kind loses for the side that made it.
    let fen = "k9/10/10/10/10/10/10/10/10/1R2K5[] w - - 59 40";
    let mut g = after(fen, &["b1-b2"]);
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, Some(bulwark::Side::Black));
    assert!(o.text(rules()).contains("60 turns"), "{}", o.text(rules()));
    // A capture or a change of kind resets the count; a pawn move does not.
    let g = after("k9/10/10/10/10/10/10/1n8/P9/R3K5[] w - - 30 40", &["a2xb3"]);
    assert_eq!(g.pos().halfmove, 0);
    let g = after("k9/10/10/10/10/10/10/10/P9/R3K5[] w - - 30 40", &["a2-a3"]);
    assert_eq!(g.pos().halfmove, 31);
    let g = after(
        "4k5/10/10/1P8/10/10/10/10/10/4K5[SSJJWWssjjww] w - - 30 40",
        &["b7-b8=S"],
    );
    assert_eq!(g.pos().halfmove, 0);
}

#[test]
fn w22_a_move_may_not_leave_ones_own_king_in_check() {
    // The Rook on e2 is pinned by the Black Rook on e10... of the e-file.
    let l = turns("4r4k/10/10/10/10/10/10/10/4R5/4K5[] w - - 0 1");
    assert!(!has(&l, "e2-d2") && has(&l, "e2-e5"), "{l:?}");
    assert!(!has(&l, "e1-e2"));
}
