//! Shogi's rules of promotion and drops on a small variant of their own
//! (`tests/variants/drop-rules.toml`): a change `on = "zone"` (a move into, within or out of
//! the zone), `drop-file-limit` (no second own pawn on a file), `drop-mate = "forbidden"` (no
//! pawn drop that mates), and Fairy-Stockfish's shogi position text (`[-]`, counters without
//! the castling and en-passant fields). The bundled shogi and minishogi are checked against
//! Fairy-Stockfish's perft in `tests/perft/`.

mod games;

use bulwark::Ruleset;
use bulwark::play::Game;
use games::{board, game, moves, play};

const RULES: &str = include_str!("variants/drop-rules.toml");

fn rules_from(source: &str) -> Ruleset {
    games::rules_named("drop-rules.toml", source)
}

fn sorted(g: &mut Game<'_>, prefix: &str) -> Vec<String> {
    let mut m: Vec<String> = moves(g)
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .collect();
    m.sort();
    m
}

#[test]
fn a_zone_change_is_offered_on_moves_into_within_and_out_of_the_zone() {
    let rules = rules_from(RULES);
    // Into the zone (b3 to rank 4; c4 holds its own silver), within it (d5 to rank 4) and
    // out of it (c4 to rank 3); from b3 to rank 2 stays outside.
    let mut g = game(&rules, "k2S1/2S2/1S3/5/4K[-] w 0 1");
    assert_eq!(
        sorted(&mut g, "b3"),
        ["b3-a2", "b3-a4", "b3-a4=+S", "b3-b4", "b3-b4=+S", "b3-c2"]
    );
    assert_eq!(sorted(&mut g, "d5"), ["d5-e4", "d5-e4=+S"]);
    assert_eq!(
        sorted(&mut g, "c4"),
        // b3 and d5 hold its own silvers; c4-d3 leaves the zone and may promote.
        [
            "c4-b5", "c4-b5=+S", "c4-c5", "c4-c5=+S", "c4-d3", "c4-d3=+S"
        ]
    );
    // With `on = "reach"` the move out of the zone would not promote.
    let reach = rules_from(&RULES.replacen("on = \"zone\"\nregion", "on = \"reach\"\nregion", 1));
    let mut g = game(&reach, "k2S1/2S2/1S3/5/4K[-] w 0 1");
    assert!(!moves(&mut g).contains(&"c4-d3=+S".to_string()));
}

#[test]
fn a_compulsory_change_on_the_last_rank_overrides_the_optional_zone_change() {
    let rules = rules_from(RULES);
    let mut g = game(&rules, "k4/3P1/5/5/4K[-] w 0 1");
    assert_eq!(sorted(&mut g, "d4"), ["d4-d5=+P"]);
    let mut g = game(&rules, "k4/5/3P1/5/4K[-] w 0 1");
    assert_eq!(sorted(&mut g, "d3"), ["d3-d4", "d3-d4=+P"]);
}

#[test]
fn drop_file_limit_refuses_a_second_own_pawn_on_a_file() {
    let rules = rules_from(RULES);
    // White has a pawn on b2 and a tokin on d2 (another kind: it does not count); Black's pawn
    // on c4 does not count either.
    let mut g = game(&rules, "k4/2p2/5/1P1+P1/4K[P] w 0 1");
    let files: Vec<char> = moves(&mut g)
        .iter()
        .filter_map(|t| t.strip_prefix("P@"))
        .map(|c| c.chars().next().unwrap())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(files, ['a', 'c', 'd', 'e']);
    // Refused with move text too, naming the rule.
    let e = bulwark::text::parse_turn(&mut g, "P@b3").unwrap_err();
    assert!(
        e.reason.contains("its file already holds one of your"),
        "{e}"
    );
    // A cell outside the pawn's drop region, and a full cell, each say so.
    let e = bulwark::text::parse_turn(&mut g, "P@e5").unwrap_err();
    assert!(e.reason.contains("outside"), "{e}");
    let e = bulwark::text::parse_turn(&mut g, "P@b2").unwrap_err();
    assert!(e.reason.contains("not empty"), "{e}");
    play(&mut g, "P@c3");
}

#[test]
fn drop_mate_forbidden_refuses_a_pawn_drop_that_mates_but_not_one_that_checks() {
    let rules = rules_from(RULES);
    // Black's king on a5 with its own pawn on b5: the drop on a4 checks it, the gold on b3
    // guards a4 and b4: mate, so refused.
    let mate = "kp3/2S2/1G3/5/4K[P] w 0 1";
    let mut g = game(&rules, mate);
    assert!(!moves(&mut g).contains(&"P@a4".to_string()));
    let e = bulwark::text::parse_turn(&mut g, "P@a4").unwrap_err();
    assert!(e.to_string().contains("P@a4"), "{e}");
    assert!(e.reason.contains("would checkmate"), "{e}");
    // Without Black's pawn the king escapes to b5: a check, not a mate, allowed.
    let mut g = game(&rules, "k4/5/1G3/5/4K[P] w 0 1");
    assert!(moves(&mut g).contains(&"P@a4".to_string()));
    // With `drop-mate = "allowed"` the mating drop is a turn, and it wins.
    let allowed =
        rules_from(&RULES.replace("drop-mate = \"forbidden\"", "drop-mate = \"allowed\""));
    let mut g = game(&allowed, mate);
    play(&mut g, "P@a4");
    assert!(
        g.outcome()
            .is_some_and(|o| o.winner == Some(bulwark::Side::White))
    );
    // A gold dropped there mates as well: only pawns are bound.
    let mut g = game(&rules, "kp3/2S2/1G3/5/4K[G] w 0 1");
    assert!(moves(&mut g).contains(&"G@a4".to_string()));
}

#[test]
fn fairy_stockfish_shogi_position_text_is_read() {
    let rules = rules_from(RULES);
    // `[-]`: empty hands; `0 1`: the counters without the castling and en-passant fields.
    let g = game(&rules, "2k2/5/5/5/2K2[-] w 0 1");
    assert_eq!(board(&g), "2k2/5/5/5/2K2[] w - - 0 1");
    let g = game(&rules, "2k2/5/5/5/2K2[Pp] b - - 3 7");
    assert_eq!(board(&g), "2k2/5/5/5/2K2[Pp] b - - 3 7");
}

/// With pawn drops that mate allowed, the bundled minishogi counts what Fairy-Stockfish counts
/// (it plays such a drop and scores it as a loss): every other rule agrees. Fairy-Stockfish
/// 011226 (built from source at c19b5f6), `go perft N` with `UCI_Variant` minishogi.
#[test]
fn minishogi_with_drop_mates_allowed_counts_what_fairy_stockfish_counts() {
    let source = bulwark::BUNDLED
        .iter()
        .find(|(n, _)| *n == "minishogi")
        .map(|(_, s)| *s)
        .unwrap();
    assert!(source.contains("drop-mate = \"forbidden\""));
    let rules = rules_from(&source.replace("drop-mate = \"forbidden\"", "drop-mate = \"allowed\""));
    for (pos, depth, nodes) in [
        ("1+Br1k/b4/sG1gp/5/K1S2[pr] b - - 0 8", 3, 23_260),
        ("k1b2/2+R2/5/5/1KB1R[GPSgps] w - - 0 46", 1, 79),
        ("k1b2/2+R2/5/5/1KB1R[GPSgps] w - - 0 46", 3, 211_675),
    ] {
        let mut g = game(&rules, pos);
        assert_eq!(g.perft(depth), nodes, "{pos} depth {depth}");
    }
}

#[test]
fn the_fourth_occurrence_of_a_position_draws_in_the_bundled_shogi_games() {
    let rules = Ruleset::load_named("minishogi").unwrap();
    let mut g = game(&rules, "k4/5/5/5/4K[-] w 0 1");
    let round = ["e1-d1", "a5-b5", "d1-e1", "b5-a5"];
    for _ in 0..2 {
        for m in round {
            play(&mut g, m);
        }
    }
    // The third occurrence decides nothing.
    assert_eq!(g.outcome(), None);
    for m in round {
        play(&mut g, m);
    }
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((None, bulwark::play::Reason::Repetition(4)))
    );
}
