//! The full turn (RULINGS B-40 … B-62), one scenario per ruling.

mod common;
use bulwark::Side;
use bulwark::core::{RegionId, StoneKindId};
use bulwark::play::{Game, Reason};
use bulwark::text::{parse_turn, write_position};
use common::*;

fn has(v: &[String], t: &str) -> bool {
    v.iter().any(|x| x == t)
}

/// A black Guard far away keeps Black in the game (B-61) and able to move (B-62).
const BLACK: &str = "K14=g";

#[test]
fn b40_a_turn_moves_moves_and_places_or_only_places() {
    let p = pos(&format!("F6=N {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "F6-G8"), "move");
    assert!(has(&t, "F6-G8^F6"), "move, then place from the new cell");
    assert!(has(&t, "F6^G8"), "place without moving");
    assert!(t.iter().all(|x| x.len() > 2), "passing is not a turn");
    assert!(!has(&t, "F6"));
}

#[test]
fn b41_move_then_place_uses_the_range_from_the_new_cell() {
    let p = pos(&format!("F6=N {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "F6-G8^H10"));
    assert!(!has(&t, "F6^H10"));
}

#[test]
fn b41_range_is_evaluated_after_the_move() {
    // The Queen captures on F9; from there its range runs on past the emptied F6.
    let p = pos(&format!("F6=Q F9=n {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "F6xF9^F5"), "the line through the vacated F6");
}

#[test]
fn b44_no_stone_in_own_end_zone_or_end_field() {
    let p = pos(&format!("C5=K {BLACK}"));
    let t = turns(&p);
    assert!(!t.iter().any(|x| {
        ["C4", "B4", "D4", "B3", "D3"]
            .iter()
            .any(|c| x.ends_with(c) && !x.contains('-') && x.len() > 4)
    }));
    assert!(has(&t, "C5^E4") && !has(&t, "C5^D4"));
    assert!(has(&t, "C5-C4"), "pieces may enter the end zone");
    // The attacker may place in the opponent's end zone.
    let p = pos(&format!("J14=K {BLACK}"));
    assert!(has(&turns(&p), "J14^J15"));
}

#[test]
fn b44_only_a_bomb_on_the_enemy_end_field() {
    let p = pos(&format!("J16=K {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "J16@K18"));
    for s in ['^', '~', '#', '%'] {
        assert!(!has(&t, &format!("J16{s}K18")), "{s}");
    }
}

#[test]
fn b45_chancellor_places_one_or_two_stones_on_different_cells() {
    let p = pos(&format!("F6=C {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "F6^F7") && has(&t, "F6^F7#F8") && has(&t, "F6^F7^F8"));
    // Both cells are taken from the range before either stone: F8 is in range although
    // a stone on F7 would block the line.
    assert!(has(&t, "F6#F7#F8"));
    // One red-border arrow only: not two of them.
    assert!(!has(&t, "F6~F7~F8"));
    // After a move too.
    assert!(has(&t, "F6-F10^F11#F12"));
    assert!(
        !t.iter()
            .any(|x| x.matches('^').count() + x.matches('#').count() > 2)
    );
    // Other pieces place one stone.
    let p = pos(&format!("F6=Q {BLACK}"));
    assert!(
        !turns(&p)
            .iter()
            .any(|x| x.matches(['^', '~', '#', '%', '@']).count() > 1)
    );
}

#[test]
fn b45_chancellor_explodes_at_most_one_stone_per_turn() {
    // Our reading (README): two explosions in one turn would leave two taboo cells.
    let p = pos(&format!("F6=C F8=^ F9=# F4=^ {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "F6@F8") && has(&t, "F6^F7@F8"));
    assert!(!has(&t, "F6@F4@F8"));
}

#[test]
fn b46_knight_removes_arrows_and_blocks_but_not_bombs() {
    let p = pos(&format!("F6=N G8=^ H7=# H5=~ E4=% D5=@ {BLACK}"));
    let t = turns(&p);
    for c in ["G8", "H7", "H5", "E4"] {
        assert!(has(&t, &format!("F6!{c}")), "{c}");
    }
    assert!(!has(&t, "F6!D5"), "dropped bombs stay");
    assert!(
        !t.iter()
            .any(|x| x.contains('!') && (x.contains('^') || x.contains('#'))),
        "remove instead of placing"
    );
    // In its own end zone too, and after a move.
    let p = pos(&format!("C6=N B4=# {BLACK}"));
    assert!(has(&turns(&p), "C6!B4"));
    // After moving F6-E4, G5 is in range: a move and then a removal.
    let p = pos(&format!("F6=N G5=^ {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "F6-E4!G5") && !has(&t, "F6!G5"));
    // Other pieces cannot remove.
    let p = pos(&format!("F6=K G8=^ {BLACK}"));
    assert!(!turns(&p).iter().any(|x| x.contains('!')));
    let g = play(&pos(&format!("F6=N G8=^ {BLACK}")), &["F6!G8"]);
    assert!(
        g.pos()
            .at(rules().topo.parse_cell("G8").unwrap())
            .is_empty()
    );
}

#[test]
fn b47_bombs_on_empty_cells_stay_as_arrow_like_stones() {
    let g = play(&pos(&format!("F6=Q {BLACK}")), &["F6@F8"]);
    let r = rules();
    let f8 = r.topo.parse_cell("F8").unwrap();
    assert_eq!(
        g.pos().at(f8),
        bulwark::Occupant::stone(StoneKindId::new(4))
    );
    assert_eq!(g.pos().supplies[Side::White][4], 2);
}

#[test]
fn b47_bomb_on_a_stone_removes_both_and_may_be_used_in_own_end_zone() {
    let r = rules();
    let p = pos(&format!("F6=Q F8=^ F4=% {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "F6@F8") && has(&t, "F6@F4"));
    let g = play(&p, &["F6@F8"]);
    assert!(g.pos().at(r.topo.parse_cell("F8").unwrap()).is_empty());
    assert_eq!(g.pos().taboo, r.topo.parse_cell("F8").ok());
    // White's own end zone: no stone may be placed, but a bomb may blow up a stone there.
    let p = pos(&format!("C5=K C4=# {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "C5@C4"));
    assert!(!has(&t, "C5^C4") && !has(&t, "C5@D4"));
    // Dropped bombs are not blown up.
    let p = pos(&format!("F6=Q F8=@ {BLACK}"));
    assert!(!has(&turns(&p), "F6@F8"));
}

#[test]
fn b47_b60_bomb_on_the_enemy_end_field_wins() {
    let mut g = play(&pos(&format!("J16=K {BLACK}")), &["J16@K18"]);
    let o = g.outcome().expect("game over");
    assert_eq!(
        (o.winner, o.reason),
        (
            Some(Side::White),
            Reason::StonePlaced(StoneKindId::new(4), RegionId::new(0))
        )
    );
    assert_eq!(
        o.text(g.rules),
        "white wins (a bomb placed on the enemy end-field)"
    );
}

#[test]
fn b48_taboo_cell_for_the_opponents_next_turn_only() {
    let r = rules();
    let p = pos("F6=Q F8=^ F12=q");
    let g = play(&p, &["F6@F8"]);
    let t = turns(g.pos());
    assert!(
        !t.iter()
            .any(|x| x.ends_with("F8") && !x.contains('-') && !x.contains('x')),
        "no stone on F8"
    );
    assert!(has(&t, "F12-F8"), "pieces may enter it");
    assert!(!has(&t, "F12-F9^F8"));
    // After Black's turn the taboo ends.
    let g = play(&p, &["F6@F8", "F12-F13"]);
    assert_eq!(g.pos().taboo, None);
    assert!(has(&turns(g.pos()), "F6^F8"));
    let _ = r;
}

#[test]
fn b49_arrows_capture_the_enemy_spy() {
    let r = rules();
    let p = pos(&format!("F6=Q F9=s {BLACK}"));
    let t = turns(&p);
    assert!(has(&t, "F6^F9") && has(&t, "F6~F9"));
    assert!(!has(&t, "F6#F9") && !has(&t, "F6@F9"));
    let g = play(&p, &["F6^F9"]);
    assert_eq!(
        g.pos().at(r.topo.parse_cell("F9").unwrap()),
        bulwark::Occupant::stone(StoneKindId::new(0))
    );
    // Only Spies: an arrow on another enemy piece is not a turn.
    let p = pos(&format!("F6=Q F9=q {BLACK}"));
    assert!(!has(&turns(&p), "F6^F9"));
}

#[test]
fn b49_a_spy_cannot_capture_the_enemy_spy_with_an_arrow() {
    let p = pos(&format!("F6=S F7=s {BLACK}"));
    assert!(!has(&turns(&p), "F6^F7"));
}

#[test]
fn b49_a_spy_in_its_opponents_end_zone_is_safe_from_arrows() {
    // The black Spy on C4 stands in White's end zone, where White may place nothing.
    let p = pos(&format!("C6=Q C4=s {BLACK}"));
    let t = turns(&p);
    assert!(!has(&t, "C6^C4") && !has(&t, "C6~C4"));
}

#[test]
fn b50_supplies_limit_placement_and_collecting_refills_them() {
    let r = rules();
    let mut p = pos(&format!("F6=Q F8=~ {BLACK}"));
    p.supplies[Side::White][..5].fill(0);
    let t = turns(&p);
    assert!(
        !t.iter().any(|x| x.contains(['^', '#', '%', '@'])),
        "nothing to place"
    );
    assert!(
        t.iter()
            .filter(|x| x.contains('~'))
            .all(|x| x.starts_with("F6-F8~")),
        "only the collected stone"
    );
    // Collect the red-border arrow on F8 and place it again in the same turn.
    assert!(has(&t, "F6-F8~F9"));
    let g = play(&p, &["F6-F8"]);
    assert_eq!(g.pos().supplies[Side::White][..5], [0, 1, 0, 0, 0]);
    let _ = r;
}

#[test]
fn b50_move_text_rejects_an_empty_supply_with_a_reason() {
    let mut p = pos(&format!("F6=Q {BLACK}"));
    p.supplies[Side::White][4] = 0;
    let mut g = Game::new(rules(), p).unwrap();
    let e = parse_turn(&mut g, "F6@F8").unwrap_err();
    assert!(e.reason.contains("no bomb left"), "{e}");
}

#[test]
fn b60_a_piece_on_the_enemy_end_field_wins() {
    let mut g = play(&pos(&format!("J17=K {BLACK}")), &["J17-K18"]);
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, Some(Side::White));
    assert!(matches!(o.reason, Reason::Occupied(0, _)));
    assert_eq!(
        o.text(g.rules),
        "white wins (a piece on the enemy end-field)"
    );
    assert!(g.legal_turns().is_err());
}

#[test]
fn b61_capturing_the_last_piece_wins() {
    let mut g = play(&pos("F6=Q F9=n"), &["F6xF9"]);
    let o = g.outcome().expect("over");
    assert_eq!((o.winner, o.reason), (Some(Side::White), Reason::NoPieces));
}

#[test]
fn b62_a_side_without_a_piece_move_loses() {
    // Black's only piece, a Guard on F9, is walled in by blocks (forward F8, E8, G8; sideways
    // E9, G9): it could place stones, but cannot move a piece.
    let p0 = pos("A6=Q F9=g F8=# E8=# G8=# E9=# G9=#");
    let mut p = p0.clone();
    p.side = Side::Black;
    let mut g = Game::new(rules(), p).unwrap();
    let o = g.outcome().expect("immobilized");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Side::White), Reason::Immobilized)
    );
    // With the setting turned off (a file edit), Black places stones instead.
    let text = bulwark::load::BUNDLED[0]
        .1
        .replace("immobilized = \"loses\"", "immobilized = \"ignored\"");
    let tweak = bulwark::Ruleset::from_source("tweak.toml", &text).unwrap();
    let mut p = p0;
    p.side = Side::Black;
    let mut g = Game::new(&tweak, p).unwrap();
    assert!(g.outcome().is_none());
    assert!(g.legal_turns().unwrap().iter().all(|t| t.to().is_none()));
}

#[test]
fn move_text_round_trips_and_errors_say_why() {
    let r = rules();
    let mut g = Game::start(r);
    let cases = [
        ("F9-F10", "no piece stands on F9"),
        ("G15-G14", "is black's"),
        ("F4-F7", "is not a move of the Guard"),
        ("F4^F4", "is not in the Guard's range"),
        ("B3^D2", "D2 is in your own end-zone"),
        ("B3-C5#C5^D6", "places at most 1 stone"),
        ("F4-F5!F6", "cannot remove stones"),
        ("Z4-F5", "not a cell name"),
        ("F4-F5?F6", "unexpected `?`"),
        ("F4", "passing is not a turn"),
    ];
    for (text, why) in cases {
        let e = parse_turn(&mut g, text).unwrap_err();
        assert!(e.reason.contains(why), "{text}: {}", e.reason);
    }
    let t = parse_turn(&mut g, "f4-f5").unwrap();
    assert_eq!(bulwark::text::turn_text(r, &t), "F4-F5");
    g.play(&t);
    assert_eq!(
        write_position(r, g.pos()),
        "1/5a4/1cmrsqrken/gggggggggg/10/12/12/12/12/12/12/12/12/4G5/GGGG1GGGGG/NEKRQSRMC1/4A5/1 b"
    );
}
