//! Rules of the whole turn, each a setting with the old behaviour as its default: the kinds of
//! turn (`[turn] shapes`, a piece's `turns`), a compulsory stone after a move, compulsory
//! captures and the most captures. Small variants of their own; every count is derived by
//! hand in the comments.

use bulwark::{Game, Ruleset};

/// A variant on an `n`×`n` board whose one piece kind, the man (`M`), moves by `moves`; the
/// `turn` text is added as it is.
fn men_variant(name: &str, n: u8, moves: &str, turn: &str, position: &str) -> Ruleset {
    let text = format!(
        "{}\n[pieces.man]\nletter = \"M\"\nmoves = \"{moves}\"\n\n{turn}\n\n[setup]\nposition = \"{position}\"\n",
        square_board(name, n)
    );
    Ruleset::from_source(&format!("{}.toml", name.to_lowercase()), &text)
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)))
}

/// The `[game]` and `[board]` tables of an `n`×`n` board with every cell, files from `a`.
fn square_board(name: &str, n: u8) -> String {
    let files: Vec<String> = (b'a'..b'a' + n)
        .map(|f| format!("\"{}\"", f as char))
        .collect();
    let row = "#".repeat(n.into());
    let mask = vec![row; n.into()].join("\n");
    format!(
        "[game]\nname = \"{name}\"\n\n[board]\nfiles = [{}]\nranks = {n}\nmask = \"\"\"\n{mask}\n\"\"\"\n",
        files.join(", ")
    )
}

/// A 4x4 board; `P` moves one orthogonal step and places a wall (1 in supply) within one
/// orthogonal step of where it stands. White P on b2, Black p on d4 (out of the way).
fn placer(turn: &str, piece_turns: &str) -> Ruleset {
    let text = format!(
        r##"
{header}

[stones.wall]
symbol = "#"
supply = 1
class = "block-like"

[pieces.placer]
letter = "P"
moves = "step(orthogonal)"
{piece_turns}

{turn}

[setup]
position = "3p/4/1P2/4 w"
"##,
        header = square_board("Placer", 4)
    );
    Ruleset::from_source("placer.toml", &text)
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)))
}

fn count(r: &Ruleset) -> u64 {
    Game::start(r).perft(1)
}

// From b2 the moves are a2, c2, b1, b3 (4). After each, a wall goes on an orthogonal
// neighbour of the new cell: a2 → a1 a3 b2 (3); c2 → c1 c3 b2 d2 (4); b1 → a1 c1 b2 (3);
// b3 → a3 c3 b4 b2 (4): 14 moves with a stone. Without moving, a wall on a2 c2 b1 b3 (4).
// All three kinds: 4 + 14 + 4 = 22.

#[test]
fn all_kinds_of_turn_by_default() {
    assert_eq!(count(&placer("", "")), 22);
}

#[test]
fn turn_shapes_leave_out_kinds_of_turn() {
    assert_eq!(count(&placer("[turn]\nshapes = [\"move\"]", "")), 4);
    assert_eq!(
        count(&placer("[turn]\nshapes = [\"move\", \"stone\"]", "")),
        8
    );
    assert_eq!(
        count(&placer("[turn]\nshapes = [\"move-then-stone\"]", "")),
        14
    );
    // A piece's own `turns` overrides `[turn]`.
    assert_eq!(
        count(&placer(
            "[turn]\nshapes = [\"move\"]",
            "turns = [\"stone\"]"
        )),
        4
    );
}

#[test]
fn a_compulsory_stone_after_a_move() {
    // Every move here can be followed by a wall, so no plain move is left: 14 + 4 = 18.
    assert_eq!(
        count(&placer("[turn]\nstone-after-move = \"compulsory\"", "")),
        18
    );
    // With the wall supply empty, no stone can follow, and the plain moves come back.
    let r = placer("[turn]\nstone-after-move = \"compulsory\"", "");
    let pos = bulwark::parse_position(&r, "3p/4/1P2/4 w #0/#1 -").unwrap();
    assert_eq!(Game::new(&r, pos).unwrap().perft(1), 4);
}

/// A 5x5 board; the man steps diagonally forward, or jumps a chain over enemy men, taking
/// them. White a1; Black b2 and d4 (jumpable in a row), e1 (a Black man out of reach).
fn men(turn: &str) -> Ruleset {
    men_variant(
        "Men",
        5,
        "step(forward-diagonal) | ( jump(forward-diagonal) over(enemy) take )+",
        turn,
        "5/3m1/5/1m3/M3m w",
    )
}

fn turns(r: &Ruleset) -> Vec<String> {
    let mut v: Vec<String> = Game::start(r)
        .legal_turns()
        .unwrap()
        .iter()
        .map(|t| bulwark::turn_text(r, t))
        .collect();
    v.sort();
    v
}

// White a1: the step to b2 is blocked by the Black man; the jump over b2 lands on c3 (one
// capture), and may go on over d4 to e5 (two). No other white piece: 2 turns by default.

#[test]
fn by_default_a_chain_may_stop_and_a_step_is_as_good_as_a_capture() {
    assert_eq!(turns(&men("")), ["a1-c3xb2", "a1-e5xb2xd4"]);
    // With a second White man on c1: it steps to d2 (b2 is taken) or jumps b2 to a3. So
    // c1-d2, c1-a3xb2, a1-c3xb2, a1-e5xb2xd4: 4.
    let r = men("");
    let pos = bulwark::parse_position(&r, "5/3m1/5/1m3/M1M1m w").unwrap();
    assert_eq!(Game::new(&r, pos).unwrap().perft(1), 4);
}

#[test]
fn compulsory_capture_excludes_quiet_turns() {
    let r = men("[turn]\ncompulsory = [\"capture\"]");
    let pos = bulwark::parse_position(&r, "5/3m1/5/1m3/M1M1m w").unwrap();
    // c1-d2 is gone; the three captures stay.
    assert_eq!(Game::new(&r, pos).unwrap().perft(1), 3);
}

#[test]
fn most_captures_keeps_only_the_longest_chains() {
    assert_eq!(turns(&men("[turn]\nmost-captures = true")), ["a1-e5xb2xd4"]);
    // Without compulsion, a quiet turn stays allowed: c1-d2 and the two-capture chain (the
    // one-capture turns c1-a3xb2 and a1-c3xb2 are gone).
    let r = men("[turn]\nmost-captures = true");
    let pos = bulwark::parse_position(&r, "5/3m1/5/1m3/M1M1m w").unwrap();
    assert_eq!(Game::new(&r, pos).unwrap().perft(1), 2);
    // Both together: only the longest capture.
    let r = men("[turn]\ncompulsory = [\"capture\"]\nmost-captures = true");
    let pos = bulwark::parse_position(&r, "5/3m1/5/1m3/M1M1m w").unwrap();
    assert_eq!(Game::new(&r, pos).unwrap().perft(1), 1);
}

/// Every setting of the whole turn written out at its default value.
const EXPLICIT_DEFAULTS: &str = r#"
[turn]
shapes = ["move", "move-then-stone", "stone"]
stone-after-move = "optional"
compulsory = []
most-captures = false
captured-leave = "at-once"
chain-revisits = "never"
"#;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// Writing every turn setting at its default changes no legal turn of Bollwerk 178, chess
    /// or xiangqi along random playouts (and the chess pawn's `en-passant-lines = "file"`).
    #[test]
    fn explicit_defaults_change_no_turn_of_the_bundled_games(
        choices in proptest::collection::vec(proptest::prelude::any::<usize>(), 1..6),
    ) {
        for name in ["bollwerk178", "chess", "xiangqi"] {
            let plain = Ruleset::load_named(name).unwrap();
            let mut text = format!("extends = \"{name}\"\n{EXPLICIT_DEFAULTS}");
            if name == "chess" {
                text.push_str("\n[pieces.pawn]\nen-passant-lines = \"file\"\n");
            }
            let explicit = Ruleset::from_source("explicit.toml", &text)
                .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)));
            let (mut a, mut b) = (Game::start(&plain), Game::start(&explicit));
            for &c in &choices {
                let ta = a.legal_turns().unwrap();
                let tb = b.legal_turns().unwrap();
                let words = |r: &Ruleset, ts: &[bulwark::Turn]| -> Vec<String> {
                    let mut v: Vec<String> = ts.iter().map(|t| bulwark::text::turn_text(r, t)).collect();
                    v.sort();
                    v
                };
                proptest::prop_assert_eq!(words(&plain, &ta), words(&explicit, &tb), "{}", name);
                if ta.is_empty() {
                    break;
                }
                let chosen = &ta[c % ta.len()];
                let same = bulwark::text::turn_text(&plain, chosen);
                let twin = tb.iter().find(|t| bulwark::text::turn_text(&explicit, t) == same).unwrap();
                a.play(chosen);
                b.play(twin);
            }
        }
    }
}

#[test]
fn the_defaults_leave_the_bundled_games_unchanged() {
    // Published and locked counts (tests/perft/*.perft): the settings' defaults change nothing.
    assert_eq!(
        Game::start(&Ruleset::load_named("chess").unwrap()).perft(3),
        8902
    );
    assert_eq!(Game::start(&Ruleset::bollwerk178()).perft(1), 15413);
    assert_eq!(
        Game::start(&Ruleset::load_named("xiangqi").unwrap()).perft(2),
        1920
    );
}

/// A goal region with a piece filter (`[end] occupy-by`): only the named kinds win by reaching
/// it. The tiny fixture: White's guard on a3 and rook on d3; Black's guard on b4 region row.
#[test]
fn a_goal_region_counts_only_the_named_kinds() {
    let base = include_str!("variants/tiny.toml");
    let with_goal = |by: &str| {
        let text = base.replace(
            "[setup]",
            &format!("[end]\noccupy = \"enemy home\"\n{by}\n\n[setup]"),
        );
        Ruleset::from_source("goal.toml", &text).unwrap()
    };
    for (by, guard_wins) in [("", true), ("occupy-by = [\"rook\"]", false)] {
        let r = with_goal(by);
        // White guard a3 steps to a4 (Black's home row); a black guard on c3 keeps the game going.
        let pos = bulwark::parse_position(&r, "4/G1gR/4/4 w").unwrap();
        let mut g = Game::new(&r, pos).unwrap();
        let t = bulwark::parse_turn(&mut g, "a3-a4").unwrap();
        g.play(&t);
        assert_eq!(g.outcome().is_some(), guard_wins, "{by}");
        // The rook reaching it wins either way.
        let pos = bulwark::parse_position(&r, "4/G1gR/4/4 w").unwrap();
        let mut g = Game::new(&r, pos).unwrap();
        let t = bulwark::parse_turn(&mut g, "d3-d4").unwrap();
        g.play(&t);
        assert!(g.outcome().is_some(), "{by}");
    }
    // A kind that does not exist is reported.
    let text = base.replace(
        "[setup]",
        "[end]\noccupy = \"enemy home\"\noccupy-by = [\"dragon\"]\n\n[setup]",
    );
    let e = Ruleset::from_source("goal.toml", &text).unwrap_err();
    assert_eq!(e.problems[0].code.name(), "unknown_piece");
}

/// When taken pieces leave (`[turn] captured-leave`): at once (B-16, the default), the cell of
/// a piece jumped and taken is free for the rest of the chain; at the end of the turn, it
/// stays in the way and cannot be taken twice.
#[test]
fn taken_pieces_leave_at_once_or_at_the_end_of_the_turn() {
    let board = |turn: &str| {
        men_variant(
            "Leave",
            5,
            "jump(all) over(enemy) take step(all)",
            turn,
            "5/5/5/1m3/M3m w",
        )
    };
    let dests = |r: &Ruleset| -> Vec<String> {
        let mut v: Vec<String> = Game::start(r)
            .legal_turns()
            .unwrap()
            .iter()
            .map(|t| r.topo.name(t.to().unwrap()))
            .collect();
        v.sort();
        v
    };
    // a1 jumps b2 (taken) to c3, then steps to one of its 8 neighbours other than a1's way
    // back... b2 is free at once: b2 b3 b4 c2 c4 d2 d3 d4 (8).
    let at_once = dests(&board(""));
    assert_eq!(at_once, ["b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"]);
    // At the end of the turn: b2 still holds the taken man, so the step cannot land there.
    let at_end = dests(&board("[turn]\ncaptured-leave = \"end-of-turn\""));
    assert_eq!(at_end, ["b3", "b4", "c2", "c4", "d2", "d3", "d4"]);
}

/// A 6x6 board; the man jumps an adjacent enemy to the cell beyond and takes it. White M on
/// a1; black men on a2, b2 and d4.
fn chain_board(moves: &str) -> Ruleset {
    men_variant("Chains", 6, moves, "", "6/6/3m2/6/mm4/M5 w")
}

fn destinations(r: &Ruleset) -> Vec<String> {
    let mut v: Vec<String> = Game::start(r)
        .legal_turns()
        .unwrap()
        .iter()
        .map(|t| r.topo.name(t.to().unwrap()))
        .collect();
    v.sort();
    v
}

// From a1: over b2 to c3, then over d4 to e5 (nothing further from e5); over a2 to a3, then
// over b2 (still there on that path) to c1 (nothing further from c1). A chain that may stop
// anywhere ends on c3, e5, a3 or c1 (4); a maximal one only where it cannot go on: e5, c1.

#[test]
fn b16_chains_may_stop_anywhere_by_default() {
    let r = chain_board("(jump(all) over(enemy) take)+");
    assert_eq!(destinations(&r), ["a3", "c1", "c3", "e5"]);
}

#[test]
fn maximal_chain_goes_on_while_it_can() {
    let r = chain_board("(jump(all) over(enemy) take)+!");
    assert_eq!(destinations(&r), ["c1", "e5"]);
    // `*!` is the same here (zero jumps is no move at all).
    let r = chain_board("(jump(all) over(enemy) take)*!");
    assert_eq!(destinations(&r), ["c1", "e5"]);
}

#[test]
fn maximal_bounded_chain_stops_at_its_bound_or_where_it_cannot_go_on() {
    // Exactly one jump: c3, a3.
    let r = chain_board("(jump(all) over(enemy) take){1,1}");
    assert_eq!(destinations(&r), ["a3", "c3"]);
    // At most two jumps, maximal: stops on its bound even where a third jump were possible,
    // and never after one (both first jumps can go on).
    let r = chain_board("(jump(all) over(enemy) take){1,2}!");
    assert_eq!(destinations(&r), ["c1", "e5"]);
    // A step, then a jump whenever one is possible. The only free step from a1 is b1 (a2 and
    // b2 hold men). From b1 the man can jump b2 to b3 (a2 lies diagonally, its far side off
    // the board), so the maximal form must go on to b3; the plain one may also stop on b1.
    let r = chain_board("step(all) (jump(all) over(enemy) take)?!");
    assert_eq!(destinations(&r), ["b3"]);
    let r = chain_board("step(all) (jump(all) over(enemy) take)?");
    assert_eq!(destinations(&r), ["b1", "b3"]);
}

/// A 5x5 board; the man jumps orthogonally over an adjacent enemy and takes it. White M on
/// e3; black men on d3, c4, b5, a4, b3 and c2: around the square c3-c5-a5-a3 the chain can
/// run either way and come back to c3.
fn loop_board(moves: &str, turn: &str) -> Ruleset {
    men_variant("Loop", 5, moves, turn, "1m3/m1m2/1m1mM/2m2/5 w")
}

/// Each turn as its destination and the number of pieces it takes, sorted.
fn landings(r: &Ruleset) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = Game::start(r)
        .legal_turns()
        .unwrap()
        .iter()
        .map(|t| (r.topo.name(t.to().unwrap()), t.captures().len()))
        .collect();
    v.sort();
    v
}

fn own(v: &[(&str, usize)]) -> Vec<(String, usize)> {
    v.iter().map(|&(c, n)| (c.to_string(), n)).collect()
}

// The only first jump is over d3 to c3. From c3: over c4 to c5, over b5 to a5, over a4 to a3,
// and there b3 leads back into c3; or the other way round: over b3 to a3, a4 to a5, b5 to c5,
// and there c4 leads back into c3; or over c2 to c1 (nothing beyond). Never revisiting:
// c3 (1), c5 (2), a5 (3), a3 (4) one way; a3 (2), a5 (3), c5 (4) the other; c1 (2): 8.
// Revisiting after a capture adds c3 with 5 taken (both ways take the same five: one option)
// and then c1 over c2 with all 6: 10.

#[test]
fn b16_a_chain_never_revisits_a_cell_by_default() {
    let r = loop_board("(jump(orthogonal) over(enemy) take)+", "");
    let want = [
        ("a3", 2),
        ("a3", 4),
        ("a5", 3),
        ("a5", 3),
        ("c1", 2),
        ("c3", 1),
        ("c5", 2),
        ("c5", 4),
    ];
    assert_eq!(landings(&r), own(&want));
}

#[test]
fn chain_revisits_after_capture_come_back_through_a_cell() {
    let turn = "[turn]\nchain-revisits = \"after-capture\"";
    let r = loop_board("(jump(orthogonal) over(enemy) take)+", turn);
    let want = [
        ("a3", 2),
        ("a3", 4),
        ("a5", 3),
        ("a5", 3),
        ("c1", 2),
        ("c1", 6),
        ("c3", 1),
        ("c3", 5),
        ("c5", 2),
        ("c5", 4),
    ];
    assert_eq!(landings(&r), own(&want));
    // With a maximal chain: the loop must be run and then the jump to c1 taken (6), or c2
    // jumped at once (2); never revisiting, the loop ends on a3 or c5 (4 each).
    let r = loop_board("(jump(orthogonal) over(enemy) take)+!", turn);
    assert_eq!(landings(&r), own(&[("c1", 2), ("c1", 6)]));
    let r = loop_board("(jump(orthogonal) over(enemy) take)+!", "");
    assert_eq!(landings(&r), own(&[("a3", 4), ("c1", 2), ("c5", 4)]));
}

/// A 5x5 board; the runner goes one or two cells forward or forward-diagonally and captures
/// one cell forward-diagonally, and takes part in en passant. White runner on a3, Black
/// runner on a5; Black to move. `rank3` is rank 3 in position text (White's runner and any
/// other piece there).
fn runner_board(lines: &str, rank3: &str) -> Ruleset {
    let text = format!(
        r#"
{header}

[pieces.runner]
letter = "R"
moves = "ride(forward, forward-diagonal) dist(1..2) | step(forward-diagonal) capture-only"
en-passant = true
{lines}

[notation]
fields = ["en-passant"]

[setup]
position = "r4/5/{rank3}/5/5 b -"
"#,
        header = square_board("Runners", 5)
    );
    Ruleset::from_source("runners.toml", &text)
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)))
}

/// Black plays a5-c3 (passing b4); White's turns after it, as text.
fn after_diagonal_two_step(r: &Ruleset) -> (Game<'_>, Vec<String>) {
    let mut g = Game::start(r);
    let a5 = r.topo.parse_cell("a5").unwrap();
    let c3 = r.topo.parse_cell("c3").unwrap();
    let t = g
        .legal_turns()
        .unwrap()
        .into_iter()
        .find(|t| t.from() == a5 && t.to() == Some(c3))
        .expect("a5-c3 is a turn");
    g.play(&t);
    let mut v: Vec<String> = g
        .legal_turns()
        .unwrap()
        .iter()
        .map(|t| bulwark::text::turn_text(r, t))
        .collect();
    v.sort();
    (g, v)
}

// White's runner on a3: a4, a5 (forward, one or two), b4, c5 (forward-diagonal, one or two;
// nothing to capture on b4): 4. After a5-c3 along a diagonal, en passant onto b4 taking c3
// is a fifth turn only when two-cell diagonal moves count.

#[test]
fn en_passant_after_a_two_cell_file_move_only_by_default() {
    let r = runner_board("", "R4");
    let (_, turns) = after_diagonal_two_step(&r);
    assert_eq!(turns.len(), 4, "{turns:?}");
}

#[test]
fn en_passant_after_any_two_cell_straight_move() {
    let r = runner_board("en-passant-lines = \"any\"", "R4");
    let (mut g, turns) = after_diagonal_two_step(&r);
    let words: String = bulwark::view::words::rules_in_words(&r)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert!(
        words.contains("along any straight line, diagonals included"),
        "{words}"
    );
    assert_eq!(turns.len(), 5, "{turns:?}");
    let b4 = r.topo.parse_cell("b4").unwrap();
    let c3 = r.topo.parse_cell("c3").unwrap();
    let ep: Vec<_> = g
        .legal_turns()
        .unwrap()
        .into_iter()
        .filter(|t| t.captures() == [c3])
        .collect();
    assert_eq!(ep.len(), 1);
    assert_eq!(ep[0].to(), Some(b4));
    // Written as text and read back, the passed cell and the piece that passed are the same.
    let text = bulwark::text::write_position(&r, g.pos());
    let back = bulwark::text::parse_position(&r, &text).unwrap();
    assert_eq!(back.ep, Some(b4));
    assert_eq!(bulwark::play::ep_victim(&r, &back), Some(c3));
}

#[test]
fn en_passant_victim_is_the_piece_that_passed_even_with_another_candidate() {
    // A second black runner on b3 (its file origin b5 empty) could also have passed b4.
    let r = runner_board("en-passant-lines = \"any\"", "Rr3");
    let (mut g, _) = after_diagonal_two_step(&r);
    let b3 = r.topo.parse_cell("b3").unwrap();
    let c3 = r.topo.parse_cell("c3").unwrap();
    let takes: Vec<Vec<_>> = g
        .legal_turns()
        .unwrap()
        .into_iter()
        .filter(|t| t.to() == r.topo.parse_cell("b4").ok())
        .map(|t| t.captures().to_vec())
        .collect();
    // Onto b4: the plain move is taken up by nothing (b4 is empty); en passant takes c3,
    // never b3.
    assert!(takes.contains(&vec![c3]), "{takes:?}");
    assert!(!takes.iter().any(|c| c.contains(&b3)), "{takes:?}");
    // Position text names only the passed cell: with two pieces that could have passed it,
    // it is refused rather than guessed.
    let text = bulwark::text::write_position(&r, g.pos());
    assert!(bulwark::text::parse_position(&r, &text).is_err(), "{text}");
}

/// The rules in words (the players' rulebook) say which turn settings the file changes, and
/// say nothing of those left at their defaults.
#[test]
fn the_rules_in_words_name_the_changed_turn_settings() {
    let turn_words = |r: &Ruleset| -> String {
        bulwark::view::words::rules_in_words(r)
            .into_iter()
            .find(|(h, _)| h == "The turn")
            .map(|(_, t)| t)
            .unwrap()
    };
    let plain = turn_words(&men(""));
    assert!(!plain.contains("must capture"), "{plain}");
    let changed = turn_words(&men(
        "[turn]\ncompulsory = [\"capture\"]\nmost-captures = true\ncaptured-leave = \"end-of-turn\"\nchain-revisits = \"after-capture\"",
    ));
    for words in [
        "the turn must capture",
        "only those taking the most pieces",
        "stay on their cells until the turn ends",
        "pass a cell again",
    ] {
        assert!(changed.contains(words), "{words}: {changed}");
    }
}
