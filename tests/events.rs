//! The reserve, changes of kind on events, castlings with several partners, the clock and
//! repetition rules, each on the small variant `tests/variants/events.toml` (or a one-line
//! change of it), with expectations counted by hand in the comments.

use bulwark::play::Game;
use bulwark::{Ruleset, Side, text};

const EVENTS: &str = include_str!("variants/events.toml");

fn variant(edit: impl Fn(String) -> String) -> Ruleset {
    Ruleset::from_source("events.toml", &edit(EVENTS.to_string())).unwrap_or_else(|e| {
        panic!("{}", bulwark::view::diagnostic_text(&e));
    })
}

fn events() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| variant(|s| s))
}

fn game<'r>(r: &'r Ruleset, fen: &str) -> Game<'r> {
    Game::new(
        r,
        text::parse_position(r, fen).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap()
}

fn texts(g: &mut Game<'_>) -> Vec<String> {
    g.legal_turns()
        .map(|l| l.iter().map(|t| text::turn_text(g.rules, t)).collect())
        .unwrap_or_default()
}

fn play<'r>(r: &'r Ruleset, fen: &str, moves: &[&str]) -> Game<'r> {
    let mut g = game(r, fen);
    for m in moves {
        let t = text::parse_turn(&mut g, m).unwrap_or_else(|e| panic!("{e}"));
        g.play(&t);
    }
    g
}

fn pos_text(g: &Game<'_>) -> String {
    text::write_position(g.rules, g.pos())
}

#[test]
fn a_change_into_a_reserve_kind_draws_from_the_reserve_or_does_not_happen() {
    let r = events();
    // Pawn b4: the compulsory promotion is its only move while the reserve has a Queen.
    let mut g = game(r, "4k/1P3/5/5/K4[Qq] w - - 0 1");
    let l = texts(&mut g);
    assert!(
        l.contains(&"b4-b5=Q".into()) && !l.contains(&"b4-b5".into()),
        "{l:?}"
    );
    let g = play(r, "4k/1P3/5/5/K4[Qq] w - - 0 1", &["b4-b5=Q"]);
    assert_eq!(pos_text(&g), "1Q2k/5/5/5/K4[q] b - - 1 1");
    // With no Queen left the pawn moves on and stays a pawn.
    let mut g = game(r, "4k/1P3/5/5/K4[q] w - - 0 1");
    let l = texts(&mut g);
    assert!(
        l.contains(&"b4-b5".into()) && !l.contains(&"b4-b5=Q".into()),
        "{l:?}"
    );
    // The bracket lists counted kinds only; an uncounted kind in it is refused.
    assert!(text::parse_position(r, "4k/1P3/5/5/K4[P] w - - 0 1").is_err());
    assert_eq!(r.initial_hand(), vec![0, 0, 1, 0, 0, 0]);
}

#[test]
fn a_change_on_capture_counts_only_the_listed_kinds() {
    // Hunter c3; a pawn on d4 and a scout on b4 to take.
    let mut g = game(events(), "4k/1s1p1/2H2/5/K4[Qq] w - - 0 1");
    let l = texts(&mut g);
    assert!(l.contains(&"c3xd4=Q".into()) && !l.contains(&"c3xd4".into()));
    assert!(l.contains(&"c3xb4".into()) && !l.contains(&"c3xb4=Q".into()));
    assert!(l.contains(&"c3-c4".into()) && !l.contains(&"c3-c4=Q".into()));
}

#[test]
fn a_change_on_check_needs_the_piece_itself_to_give_it() {
    // Herald a3, Black King e5: a3-a5 checks along rank 5, a3-e3 along the e-file.
    let mut g = game(events(), "4k/5/E4/5/K4[Qq] w - - 0 1");
    let l = texts(&mut g);
    for m in ["a3-a5=Q", "a3-e3=Q"] {
        assert!(l.contains(&m.into()), "{m} in {l:?}");
    }
    for m in ["a3-a4", "a3-b3", "a3-d3", "a3-a2"] {
        assert!(l.contains(&m.into()), "{m} in {l:?}");
    }
    assert!(!l.iter().any(|m| m == "a3-a5" || m == "a3-e3"));
}

#[test]
fn an_optional_change_is_two_turns_and_enter_differs_from_reach() {
    // Scout b3: forward to b4 enters the rank before the last (two turns); sideways along b3
    // does not. Scout on c4: sideways stays in the rank: no change with `enter`.
    let r = events();
    let mut g = game(r, "4k/5/1S3/5/K4[Qq] w - - 0 1");
    let l = texts(&mut g);
    assert!(l.contains(&"b3-b4".into()) && l.contains(&"b3-b4=Q".into()));
    assert!(l.contains(&"b3-c3".into()) && !l.contains(&"b3-c3=Q".into()));
    let mut g = game(r, "4k/2S2/5/5/K4[Qq] w - - 0 1");
    let l = texts(&mut g);
    assert!(
        l.contains(&"c4-d4".into()) && !l.contains(&"c4-d4=Q".into()),
        "{l:?}"
    );
    // With `reach`, ending the move in the region is enough.
    let reach = variant(|s| s.replace("on = \"enter\"", "on = \"reach\""));
    let mut g = game(&reach, "4k/2S2/5/5/K4[Qq] w - - 0 1");
    let l = texts(&mut g);
    assert!(
        l.contains(&"c4-d4".into()) && l.contains(&"c4-d4=Q".into()),
        "{l:?}"
    );
}

#[test]
fn a_replaced_piece_leaves_the_game_or_goes_back_to_the_reserve() {
    let fen = "4k/1s1p1/2H2/5/K4[Qq] w - - 0 1";
    let g = play(events(), fen, &["c3xd4=Q"]);
    assert_eq!(pos_text(&g), "4k/1s1Q1/5/5/K4[q] b - - 0 1");
    // Counted hunters, replaced pieces back to the reserve.
    let back = variant(|s| {
        s.replace(
            "moves = \"step(all) capture\"\nchanges",
            "moves = \"step(all) capture\"\nreserve = 0\nchanges",
        ) + "\n[reserve]\nreplaced = \"reserve\"\n"
    });
    let g = play(&back, "4k/1s1p1/2H2/5/K4[Qq] w - - 0 1", &["c3xd4=Q"]);
    assert_eq!(pos_text(&g), "4k/1s1Q1/5/5/K4[Hq] b - - 0 1");
}

#[test]
fn a_castling_moves_every_partner() {
    // Seven files: King e1 to b1, the Herald b1 to d1, the Hunter a1 to c1.
    let src = EVENTS
        .replace(
            "files = [\"a\", \"b\", \"c\", \"d\", \"e\"]",
            "files = [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\"]",
        )
        .replace("#####\n", "#######\n")
        .replace("\"a5-e5\"", "\"a5-g5\"")
        .replace("\"a1-e1\"", "\"a1-g1\"")
        .replace("\"a4-e4\"", "\"a4-g4\"")
        .replace("\"a2-e2\"", "\"a2-g2\"")
        .replace(
            "position = \"4k/5/5/5/K4[Qq] w - - 0 1\"",
            "position = \"6k/7/7/7/HE2K2[Qq] w A - 0 1\"",
        )
        + r#"
[[castling]]
side = "white"
letter = "A"
king = "e1"
king-to = "b1"
partners = ["b1-d1", "a1-c1"]
empty = "c1 d1"
safe = "e1 d1 c1 b1"
"#;
    let r = Ruleset::from_source("castle.toml", &src)
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)));
    let mut g = game(&r, &r.setup_text());
    assert!(texts(&mut g).contains(&"e1-b1".into()));
    let g = play(&r, &r.setup_text(), &["e1-b1"]);
    assert_eq!(pos_text(&g), "6k/7/7/7/1KHE3[Qq] b - - 1 1");
    // A partner missing: the right cannot stand (it would move whatever stands there), and
    // without it, no castling.
    let e = text::parse_position(&r, "6k/7/7/7/1E2K2[Qq] w A - 0 1").unwrap_err();
    assert!(e.message.contains("needs a white hunter on a1"), "{e}");
    let mut g = game(&r, "6k/7/7/7/1E2K2[Qq] w - - 0 1");
    assert!(!texts(&mut g).contains(&"e1-b1".into()));
    // A piece between: none either.
    let mut g = game(&r, "6k/7/7/7/HEP1K2[Qq] w A - 0 1");
    assert!(!texts(&mut g).contains(&"e1-b1".into()));
}

#[test]
fn the_clock_resets_as_declared_and_its_limit_ends_the_game() {
    let limited = |verdict: &str| {
        variant(|s| {
            s + &format!(
                "\n[clock]\nreset-on = [\"capture\", \"change\"]\nreset-by = [\"pawn\"]\nlimit = 4\nat-limit = \"{verdict}\"\n"
            )
        })
    };
    let draw = limited("draw");
    // Four king moves without a reset: the fourth ends the game.
    let moves = ["a1-a2", "e5-e4", "a2-a1", "e4-e5"];
    let mut g = play(&draw, "4k/5/5/5/K4[Qq] w - - 0 1", &moves[..3]);
    assert_eq!(g.pos().halfmove, 3);
    assert!(g.outcome().is_none());
    let mut g = play(&draw, "4k/5/5/5/K4[Qq] w - - 0 1", &moves);
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, None);
    assert!(o.text(&draw).contains("4 turns"), "{}", o.text(&draw));
    assert!(texts(&mut g).is_empty());
    let loses = limited("mover-loses");
    let mut g = play(&loses, "4k/5/5/5/K4[Qq] w - - 0 1", &moves);
    assert_eq!(
        g.outcome().map(|o| o.winner),
        Some(Some(Side::White)),
        "Black made the 4th"
    );
    // A pawn move, a capture and a change reset it; a scout's move does not.
    let g = play(&draw, "4k/5/1P3/5/K4[Qq] w - - 3 1", &["b3-b4"]);
    assert_eq!(g.pos().halfmove, 0);
    let g = play(&draw, "4k/5/1S3/5/K4[Qq] w - - 2 1", &["b3-c3"]);
    assert_eq!(g.pos().halfmove, 3);
    let g = play(&draw, "4k/5/1S3/5/K4[Qq] w - - 2 1", &["b3-b4=Q"]);
    assert_eq!(g.pos().halfmove, 0);
    // Without `[clock]`: only a capture resets it (no piece resets it by moving).
    let g = play(events(), "4k/5/1P3/5/K4[Qq] w - - 3 1", &["b3-b4"]);
    assert_eq!(g.pos().halfmove, 4);
}

#[test]
fn repetition_is_illegal_or_ends_the_game_as_declared() {
    let with = |occ: u32, verdict: &str| {
        variant(|s| s + &format!("\n[repetition]\noccurrence = {occ}\nverdict = \"{verdict}\"\n"))
    };
    let shuffle = ["a1-a2", "e5-e4", "a2-a1", "e4-e5"];
    let fen = "4k/5/5/5/K4[Qq] w - - 0 1";
    // Illegal: the fourth move would bring back the start.
    let illegal = with(2, "illegal");
    let mut g = play(&illegal, fen, &shuffle[..3]);
    let l = texts(&mut g);
    assert!(
        !l.contains(&"e4-e5".into()) && l.contains(&"e4-d4".into()),
        "{l:?}"
    );
    // Third occurrence draws: after eight moves.
    let draw = with(3, "draw");
    let mut g = play(&draw, fen, &shuffle);
    assert!(g.outcome().is_none(), "second occurrence: the game goes on");
    let mut g = play(&draw, fen, &[shuffle, shuffle].concat());
    let o = g.outcome().expect("third occurrence");
    assert_eq!(
        (o.winner, o.text(&draw).contains("third time")),
        (None, true)
    );
    let loses = with(3, "mover-loses");
    let mut g = play(&loses, fen, &[shuffle, shuffle].concat());
    assert_eq!(
        g.outcome().map(|o| o.winner),
        Some(Some(Side::White)),
        "Black made it"
    );
    // Without `[repetition]` nothing happens.
    let mut g = play(events(), fen, &[shuffle, shuffle, shuffle].concat());
    assert!(g.outcome().is_none());
}

#[test]
fn a_goal_region_names_the_kind_that_reached_it() {
    let goal = variant(|s| {
        s.replace(
            "immobilized = \"ignored\"",
            "immobilized = \"ignored\"\noccupy = \"own far\"\noccupy-by = [\"king\"]",
        )
    });
    let mut g = play(&goal, "4k/K4/5/5/5[Qq] w - - 0 1", &["a4-a5"]);
    let o = g.outcome().expect("over");
    assert_eq!(o.text(&goal), "white wins (a king on its own far)");
    // A scout there does not count.
    let mut g = play(&goal, "4k/S4/5/5/K4[Qq] w - - 0 1", &["a4-b4"]);
    assert!(g.outcome().is_none());
}

#[test]
fn a_goal_may_draw_or_lose_for_the_side_that_reaches_it() {
    let goals = variant(|s| {
        s + r#"
[[goal]]
region = "enemy far"
by = ["scout"]
verdict = "draw"

[[goal]]
region = "own near-far"
by = ["hunter"]
verdict = "loses"
"#
    });
    // White's scout on Black's far rank (rank 1): drawn. A White hunter on its own rank 4:
    // White loses.
    let mut g = play(&goals, "4k/5/5/1S3/K4[Qq] w - - 0 1", &["b2-c2"]);
    assert!(g.outcome().is_none(), "rank 2 is no goal");
    let mut g = game(&goals, "4k/5/5/5/KS3[Qq] b - - 0 1");
    let o = g.outcome().expect("over");
    assert_eq!(
        (o.winner, o.text(&goals)),
        (None, "draw (a scout on the enemy far)".into())
    );
    let mut g = play(&goals, "4k/5/2H2/5/K4[Qq] w - - 0 1", &["c3-c4"]);
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, Some(Side::Black));
    assert_eq!(o.text(&goals), "black wins (a hunter on its own near-far)");
}

const HANDS: &str = include_str!("variants/hands.toml");

fn hands() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        Ruleset::from_source("hands.toml", HANDS)
            .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)))
    })
}

#[test]
fn passive_capture_puts_the_piece_turned_over_into_the_capturers_hand() {
    let r = hands();
    // The taker on c3 takes the black smasher on d4: White's hand gains a smasher.
    let g = play(r, "2k2/3s1/2T2/5/2K2[] w", &["c3xd4"]);
    assert_eq!(pos_text(&g), "2k2/3T1/5/5/2K2[S] b");
    // The smasher takes destructively: nothing into any hand.
    let g = play(r, "2k2/3t1/2S2/5/2K2[] w", &["c3xd4"]);
    assert_eq!(pos_text(&g), "2k2/3S1/5/5/2K2[] b");
}

#[test]
fn a_drop_places_a_piece_from_the_hand_on_an_empty_cell_of_the_drop_region() {
    let r = hands();
    // White holds one smasher: it may go on a1, b1, d1 or e1 (c1 holds the king).
    let mut g = game(r, "2k2/5/5/5/2K2[S] w");
    let drops: Vec<String> = texts(&mut g)
        .into_iter()
        .filter(|m| m.contains('@'))
        .collect();
    assert_eq!(drops, ["S@a1", "S@b1", "S@d1", "S@e1"]);
    let g = play(r, "2k2/5/5/5/2K2[S] w", &["S@a1"]);
    assert_eq!(pos_text(&g), "2k2/5/5/5/S1K2[] b");
    // Nothing in hand, nothing to drop; a drop elsewhere is refused with the reason.
    let mut g = game(r, "2k2/5/5/5/2K2[s] w");
    assert!(!texts(&mut g).iter().any(|m| m.contains('@')));
    let e = text::parse_turn(&mut g, "S@a1").unwrap_err();
    assert!(e.reason.contains("no smasher in your reserve"), "{e}");
    let mut g = game(r, "2k2/5/5/5/2K2[S] w");
    let e = text::parse_turn(&mut g, "S@a3").unwrap_err();
    assert!(e.reason.contains("may not be dropped on a3"), "{e}");
}

#[test]
fn a_kind_with_drops_in_drops_in_its_own_region_and_the_others_in_the_drop_region() {
    let source = HANDS
        .replace(
            "[drops]",
            "[regions.middle]\nwhite = \"a3-e3\"\nblack = \"a3-e3\"\n\n[drops]",
        )
        .replace(
            "[pieces.smasher]              # destructive capture (the default)\n",
            "[pieces.smasher]\ndrops-in = \"own middle\"\n",
        );
    let r = Ruleset::from_source("hands.toml", &source)
        .unwrap_or_else(|e| panic!("{}", bulwark::view::diagnostic_text(&e)));
    // White holds a smasher and an envoy: the smasher only on the middle rank, the envoy on
    // the first rank as before.
    let mut g = game(&r, "2k2/5/5/5/2K2[SE] w");
    let drops: Vec<String> = texts(&mut g)
        .into_iter()
        .filter(|m| m.contains('@'))
        .collect();
    assert_eq!(
        drops,
        [
            "S@a3", "S@b3", "S@c3", "S@d3", "S@e3", "E@a1", "E@b1", "E@d1", "E@e1"
        ]
    );
    let e = text::parse_turn(&mut g, "S@a1").unwrap_err();
    assert!(e.reason.contains("may not be dropped on a1"), "{e}");
}

#[test]
fn reaching_the_named_region_takes_the_opponents_whole_reserve() {
    let r = hands();
    // The envoy on b4 steps onto b5, Black's first rank: Black's hand turns over to White.
    let g = play(r, "2k2/1E3/5/5/2K2[Tsst] w", &["b4-b5"]);
    assert_eq!(pos_text(&g), "1Ek2/5/5/5/2K2[TTSS] b");
    // Anywhere else, nothing.
    let g = play(r, "2k2/1E3/5/5/2K2[Tsst] w", &["b4-b3"]);
    assert_eq!(pos_text(&g), "2k2/5/1E3/5/2K2[Ttss] b");
}
