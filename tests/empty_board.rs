//! Every piece on an empty board, from a central cell and from an edge cell: the rulebook's
//! basic move diagrams. Each test checks counts that follow from the ruling and snapshots the
//! whole picture.

mod common;
use bulwark::view::Mark;
use common::*;

fn check(name: &str, at: &str, letter: char, mc: usize, m: usize) -> String {
    let p = pos(&format!("{at}={letter}"));
    let d = diagram(&p, at);
    assert_eq!(
        cells(&d, Mark::MoveCapture).len(),
        mc,
        "{name}: move-capture cells"
    );
    assert_eq!(cells(&d, Mark::Move).len(), m, "{name}: move-only cells");
    // On an empty board the placement range holds every reachable cell (B-41), so every
    // option is also a place mark unless it lies in White's own end zone or end field (B-44).
    text(&p, at)
}

macro_rules! empty_board {
    ($name:ident, $at:literal, $letter:literal, $mc:expr, $m:expr) => {
        #[test]
        fn $name() {
            let t = check(stringify!($name), $at, $letter, $mc, $m);
            insta::assert_snapshot!(stringify!($name), t);
        }
    };
}

// B-20: forward and forward-diagonal steps capture, sideways steps do not; no double step
// away from the starting row.
empty_board!(b20_guard_centre, "F9", 'G', 3, 2);
empty_board!(b20_guard_edge, "A9", 'G', 2, 1);
// Line lengths on the B-1 board. From F9: north-east G10-K14 (5), north-west E10-B13 (4),
// south-east G8-K4 (5), south-west E8-B5 (4): 18 diagonal cells; north F10-F17 (8), south
// F8-F2 (7), east G9-L9 (6), west E9-A9 (5): 26 orthogonal cells. From A9: north-east B10-I17
// (8), south-east B8-H2 (7): 15 diagonal cells; north A10-A13 (4), south A8-A6 (3), east
// B9-L9 (11): 18 orthogonal cells; knight cells B11 C10 C8 B7 (4).
//
// B-21: bishop lines capture, orthogonal steps move only.
empty_board!(b21_gold_runner_centre, "F9", 'R', 18, 4);
empty_board!(b21_gold_runner_edge, "A9", 'R', 15, 3);
// B-22: 8 knight leaps + 8 king steps in the open; fewer on the edge.
empty_board!(b22_kings_knight_centre, "F9", 'K', 16, 0);
empty_board!(b22_kings_knight_edge, "A9", 'K', 9, 0);
// B-23: the 8 neighbours and the 8 cells two steps away.
empty_board!(b23_elephant_centre, "F9", 'E', 16, 0);
empty_board!(b23_elephant_edge, "A9", 'E', 10, 0);
// B-24: queen lines.
empty_board!(b24_queen_centre, "F9", 'Q', 44, 0);
empty_board!(b24_queen_edge, "A9", 'Q', 33, 0);
// B-25: knight leaps plus bishop lines.
empty_board!(b25_marshal_centre, "F9", 'M', 26, 0);
empty_board!(b25_marshal_edge, "A9", 'M', 19, 0);
// B-26: knight leaps plus rook lines.
empty_board!(b26_chancellor_centre, "F9", 'C', 34, 0);
empty_board!(b26_chancellor_edge, "A9", 'C', 22, 0);
// B-27: rook lines without capture; nothing to hop over on an empty board.
empty_board!(b27_cannon_centre, "F9", 'A', 0, 26);
empty_board!(b27_cannon_edge, "A9", 'A', 0, 18);
// B-28: knight leaps.
empty_board!(b28_knight_centre, "F9", 'N', 8, 0);
empty_board!(b28_knight_edge, "A9", 'N', 4, 0);
// B-30: with nothing to jump over, the Spy has its 8 king steps, none capturing.
empty_board!(b30_spy_centre, "F9", 'S', 0, 8);
empty_board!(b30_spy_edge, "A9", 'S', 0, 5);
