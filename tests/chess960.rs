//! Chess960 (`variants/chess960.toml`): castling whose king and rook are found where they
//! stand, rights named by files (Shredder-FEN), move text, and random playouts from random
//! arrays of the 960. The published counts are in `tests/perft/chess960.perft`.

use bulwark::play::Game;
use bulwark::{Ruleset, text};
use proptest::prelude::*;

fn rules() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| Ruleset::load_named("chess960").unwrap())
}

fn texts(fen: &str) -> Vec<String> {
    let r = rules();
    let mut g = Game::new(r, text::parse_position(r, fen).unwrap()).unwrap();
    g.legal_turns()
        .unwrap()
        .iter()
        .map(|t| text::turn_text(r, t))
        .collect()
}

fn after(fen: &str, moves: &[&str]) -> String {
    let r = rules();
    let mut g = Game::new(r, text::parse_position(r, fen).unwrap()).unwrap();
    for m in moves {
        let t = text::parse_turn(&mut g, m).unwrap_or_else(|e| panic!("{e}"));
        g.play(&t);
    }
    text::write_position(r, g.pos())
}

/// The starting array number `n` (0 … 959) in the usual numbering, as White's first rank.
fn array(mut n: usize) -> String {
    let mut rank = [' '; 8];
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    let place = |rank: &mut [char; 8], mut k: usize, piece: char| {
        for c in rank.iter_mut() {
            if *c == ' ' {
                if k == 0 {
                    *c = piece;
                    return;
                }
                k -= 1;
            }
        }
    };
    place(&mut rank, n % 6, 'Q');
    n /= 6;
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ][n];
    // The second knight's index counts the empty cells left after the first is placed.
    place(&mut rank, knights.0, 'N');
    place(&mut rank, knights.1 - 1, 'N');
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, 0, piece);
    }
    rank.iter().collect()
}

fn start(n: usize) -> String {
    let white = array(n);
    let files: Vec<char> = white
        .chars()
        .enumerate()
        .filter(|(_, c)| *c == 'R')
        .map(|(i, _)| (b'A' + i as u8) as char)
        .collect();
    let rights: String = [files[1], files[0]]
        .iter()
        .map(std::string::ToString::to_string)
        .chain(
            [files[1], files[0]]
                .iter()
                .map(|c| c.to_ascii_lowercase().to_string()),
        )
        .collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1",
        white.to_ascii_lowercase()
    )
}

#[test]
fn the_numbering_gives_the_classical_array_at_518() {
    assert_eq!(array(518), "RNBQKBNR");
    assert_eq!(array(0), "BBQNNRKR");
    assert_eq!(start(518), rules().setup_text());
}

#[test]
fn rights_are_written_as_files_and_x_fen_letters_are_read() {
    let r = rules();
    // Shredder-FEN round trip.
    for fen in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "nnrqbkrb/pppp1pp1/7p/4p3/6P1/2N2B2/PPPPPP1P/NR1QBKR1 w Ggc - 2 9",
    ] {
        assert_eq!(
            text::write_position(r, &text::parse_position(r, fen).unwrap()),
            fen
        );
    }
    // X-FEN: K and Q name the outermost rook on each side of the king.
    let p = text::parse_position(
        r,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
    .unwrap();
    assert_eq!(
        text::write_position(r, &p),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert!(text::parse_position(r, "4k3/8/8/8/8/8/8/4K3 w Z - 0 1").is_err());
}

#[test]
fn a_castling_finds_king_and_rook_and_moves_them_to_the_fixed_cells() {
    // King b1, rooks a1 and h1 (array BQNNRKRB shifted): queen-side castling moves the king
    // two files right to c1 and the rook from a1 to d1.
    let fen = "1k6/8/8/8/8/8/8/RK5R w HA - 0 1";
    let l = texts(fen);
    assert!(l.contains(&"b1-g1".into()), "{l:?}");
    // Queen side: king b1 to c1 is one step: written onto the rook, a1.
    assert!(l.contains(&"b1-a1".into()), "{l:?}");
    assert!(
        l.contains(&"b1-c1".into()),
        "the plain king step is a turn of its own"
    );
    assert_eq!(after(fen, &["b1-g1"]), "1k6/8/8/8/8/8/8/R4RK1 b - - 1 1");
    assert_eq!(after(fen, &["b1-a1"]), "1k6/8/8/8/8/8/8/2KR3R b - - 1 1");
    // A king that stays: king g1, rook h1.
    let fen = "6k1/8/8/8/8/8/8/6KR w H - 0 1";
    assert!(texts(fen).contains(&"g1-h1".into()));
    assert_eq!(after(fen, &["g1-h1"]), "6k1/8/8/8/8/8/8/5RK1 b - - 1 1");
    // King f1 lands on its rook's cell g1.
    let fen = "5k2/8/8/8/8/8/8/4RKR1 w GE - 0 1";
    let l = texts(fen);
    assert!(
        l.contains(&"f1-g1".into()) && l.contains(&"f1-c1".into()),
        "{l:?}"
    );
    assert_eq!(after(fen, &["f1-g1"]), "5k2/8/8/8/8/8/8/4RRK1 b - - 1 1");
    assert_eq!(after(fen, &["f1-c1"]), "5k2/8/8/8/8/8/8/2KR2R1 b - - 1 1");
}

#[test]
fn castling_needs_empty_cells_safe_king_cells_and_both_pieces_unmoved() {
    // A piece between rook and destination (the rook's path) blocks it.
    assert!(!texts("1k6/8/8/8/8/8/8/RK3B1R w HA - 0 1").contains(&"b1-g1".into()));
    // An attacked cell on the king's path: f1 by the rook on f8.
    assert!(!texts("1k3r2/8/8/8/8/8/8/RK5R w HA - 0 1").contains(&"b1-g1".into()));
    // The rook's cell itself may be attacked (only the king's cells must be safe).
    assert!(texts("1k5r/8/8/8/8/8/8/RK5R w HA - 0 1").contains(&"b1-g1".into()));
    // A king move ends both rights; a rook move its own.
    let fen = "1k6/8/8/8/8/8/8/RK5R w HA - 0 1";
    assert_eq!(
        after(fen, &["b1-b2", "b8-b7", "b2-b1"]).split(' ').nth(2),
        Some("-")
    );
    assert_eq!(after(fen, &["h1-h2"]).split(' ').nth(2), Some("A"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// From any of the 960 arrays: undo restores text and hash, the hash matches one computed
    /// from scratch, every turn's text reads back to that turn and no two turns share a text.
    #[test]
    fn random_playouts_from_random_arrays(n in 0usize..960, choices in proptest::collection::vec(any::<usize>(), 1..40)) {
        let r = rules();
        let fen = start(n);
        let mut g = Game::new(r, text::parse_position(r, &fen).unwrap()).unwrap();
        let mut before = Vec::new();
        for c in choices {
            let Ok(turns) = g.legal_turns() else { break };
            let mut seen = std::collections::HashSet::new();
            for t in &turns {
                let s = text::turn_text(r, t);
                prop_assert!(seen.insert(s.clone()), "duplicate text {} in {}", s, text::write_position(r, g.pos()));
                let back = text::parse_turn(&mut g, &s).unwrap();
                prop_assert_eq!(&back, t);
            }
            let t = &turns[c % turns.len()];
            before.push((text::write_position(r, g.pos()), g.hash()));
            g.play(t);
            prop_assert_eq!(g.hash(), r.zobrist().hash(g.pos()));
            let written = text::write_position(r, g.pos());
            let read = text::parse_position(r, &written).unwrap();
            prop_assert_eq!(&read, g.pos());
        }
        while let Some((t, h)) = before.pop() {
            g.undo();
            prop_assert_eq!(text::write_position(r, g.pos()), t);
            prop_assert_eq!(g.hash(), h);
        }
    }
}
