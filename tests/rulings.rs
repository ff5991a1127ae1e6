//! One scenario per ruling about movement and placement range (RULINGS B-11 … B-44), each
//! named after its ruling. Each checks the options that the ruling decides; the rulebook-style
//! scenario diagrams are also snapshotted.

mod common;
use bulwark::Side;
use bulwark::view::Mark;
use common::*;

fn has(opts: &[String], o: &str) -> bool {
    opts.iter().any(|x| x == o)
}

// ---------------------------------------------------------------------------------------------
// B-11 / B-12: line movers stop at every occupant; jumping legs pass pieces and arrows.

#[test]
fn b11_line_movers_are_blocked_by_stones_and_pieces() {
    // Queen F6; arrow F8, own Guard H8, enemy piece D6.
    let p = pos("F6=Q F8=^ H8=G D6=n");
    let o = options(&p, "F6");
    assert!(has(&o, "F7"));
    assert!(
        !has(&o, "F8") && !has(&o, "F9"),
        "arrow blocks and cannot be landed on"
    );
    assert!(
        has(&o, "G7") && !has(&o, "H8") && !has(&o, "I9"),
        "own piece blocks"
    );
    assert!(
        has(&o, "E6") && has(&o, "D6xD6") && !has(&o, "C6"),
        "enemy is captured, not passed"
    );
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b12_jumping_legs_pass_pieces_and_arrow_like_stones() {
    // Knight F6 boxed in by pieces and arrow-like stones on every path cell.
    let p = pos("F6=N E6=G G6=g F7=^ F5=@ E7=~ G7=R E5=r G5=^");
    let o = options(&p, "F6");
    assert_eq!(o, ["D5", "D7", "E4", "E8", "G4", "G8", "H5", "H7"]);
}

// ---------------------------------------------------------------------------------------------
// B-13: knight legs past blocks.

#[test]
fn b13_knight_leg_with_one_path_blocked_still_lands() {
    // F6 -> G8 goes via F7,F8 or via G6,G7. A block on F7 closes the first path only.
    // F6 -> H7 goes via G6,H6 or via F7,G7: F7 closes the second; an arrow on G6 does not
    // close the first (B-12).
    let p = pos("F6=N F7=# G6=^");
    let o = options(&p, "F6");
    assert!(has(&o, "G8"));
    assert!(has(&o, "H7"));
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b13_knight_leg_with_both_paths_blocked_is_closed() {
    // F6 -> E8 goes via F7,F8 or via E6,E7: blocks on F7 and E7 close both.
    // F6 -> D7 goes via E6,D6 or via F7,E7: the first stays open. So does F6 -> G8 via
    // G6,G7. Only E8 is lost.
    let p = pos("F6=N F7=# E7=%");
    let o = options(&p, "F6");
    assert!(!has(&o, "E8"));
    assert!(has(&o, "D7"));
    assert!(has(&o, "G8"));
    assert_eq!(o.len(), 7);
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b13_a_path_through_a_hole_is_free() {
    // B5 -> A7 goes via B6,B7 or via A5,A6; A5 is not on the board, so with B6 blocked the
    // second path is free. Blocking A6 as well closes it.
    let open = pos("B5=N B6=#");
    assert!(has(&options(&open, "B5"), "A7"));
    let closed = pos("B5=N B6=# A6=#");
    assert!(!has(&options(&closed, "B5"), "A7"));
}

#[test]
fn b13_applies_to_kings_knight_marshal_and_chancellor() {
    for letter in ['K', 'M', 'C', 'N'] {
        let p = pos(&format!("F6={letter} F7=# E7=#"));
        let o = options(&p, "F6");
        assert!(!has(&o, "E8"), "{letter}: both paths of F6-E8 are blocked");
        assert!(has(&o, "G8"), "{letter}: F6-G8 is open via G6,G7");
    }
}

// ---------------------------------------------------------------------------------------------
// B-14: the Elephant's evasive step.

#[test]
fn b14_elephant_evasive_step_orthogonal() {
    // Block on F9 between F8 and F10; the flank cell E9 is empty, G9 holds a piece.
    let p = pos("F8=E F9=# G9=N");
    let o = options(&p, "F8");
    assert!(has(&o, "F10"), "evasive step through E9");
    insta::assert_snapshot!(text(&p, "F8"));
}

#[test]
fn b14_elephant_evasive_step_needs_an_empty_flank() {
    // Both flank cells of F8-F10 are occupied (a piece and an arrow): no evasive step.
    let p = pos("F8=E F9=# G9=N E9=^");
    assert!(!has(&options(&p, "F8"), "F10"));
}

#[test]
fn b14_elephant_diagonal_is_blocked_without_flank() {
    // Block on G9 between F8 and H10: diagonal moves have no flank cell.
    let p = pos("F8=E G9=#");
    let o = options(&p, "F8");
    assert!(!has(&o, "H10"));
    // A piece or an arrow in the middle is jumped (B-12).
    let p = pos("F8=E G9=^ E9=g");
    let o = options(&p, "F8");
    assert!(has(&o, "H10") && has(&o, "D10") && has(&o, "E9xE9"));
    insta::assert_snapshot!(text(&pos("F8=E G9=# F9=# E9=N"), "F8"));
}

// ---------------------------------------------------------------------------------------------
// B-15: landing on stones.

#[test]
fn b15_kings_knight_and_elephant_destroy_arrows() {
    // Arrows on a king step (G7), a knight cell (H7) and a two-cell Elephant move (F8).
    let p = pos("F6=K G7=^ H7=^ F8=@ E6=#");
    let d = diagram(&p, "F6");
    assert_eq!(cells(&d, Mark::Destroy), ["G7", "H7"]);
    assert!(
        !d.has(rules().topo.parse_cell("F8").unwrap(), Mark::MoveCapture),
        "dropped bombs are never landed on"
    );
    assert!(!has(&options(&p, "F6"), "E6"), "blocks are never landed on");
    insta::assert_snapshot!(text(&p, "F6"));
    let p = pos("F6=E F8=^ G7=^ D6=@");
    assert_eq!(marked(&p, "F6", Mark::Destroy), "F8 G7");
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b15_other_pieces_cannot_land_on_arrows() {
    for letter in ['Q', 'N', 'M', 'C', 'R', 'G', 'S'] {
        let p = pos(&format!("F6={letter} F7=^ G7=^ H7=^ G8=^"));
        assert_eq!(marked(&p, "F6", Mark::Destroy), "", "{letter}");
    }
}

#[test]
fn b15_red_border_stones_are_collected_by_every_piece() {
    // A Guard's move-only sideways step may collect; a Queen's line ends on the stone.
    let p = pos("F6=G G6=% F7=~");
    assert_eq!(marked(&p, "F6", Mark::Collect), "F7 G6");
    insta::assert_snapshot!(text(&p, "F6"));
    let p = pos("F6=Q F9=~ I6=%");
    let o = options(&p, "F6");
    assert!(has(&o, "F9") && !has(&o, "F10") && has(&o, "I6") && !has(&o, "J6"));
    assert_eq!(marked(&p, "F6", Mark::Collect), "F9 I6");
    // The Cannon's capture lands only on an enemy piece, never on a stone (B-27).
    let p = pos("F6=A F8=G F10=~");
    assert_eq!(marked(&p, "F6", Mark::Collect), "");
}

// ---------------------------------------------------------------------------------------------
// B-16 / B-17: chains.

#[test]
fn b16_chains_never_revisit_a_cell() {
    // A ring of own Guards around F6..H8: the chain can run round it but never back to F6.
    let p = pos("F6=G F7=G G8=G H7=G G6=G");
    let o = options(&p, "F6");
    assert!(has(&o, "F8") && has(&o, "H8") && has(&o, "H6"));
    assert!(!has(&o, "F6"));
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b16_chain_ends_on_a_red_border_stone() {
    // Spy D6 jumps own E6 onto a red-border arrow on F6: it collects it and stops there.
    let p = pos("D6=S E6=N F6=~ G6=N");
    let o = options(&p, "D6");
    assert!(has(&o, "F6"));
    assert!(!has(&o, "H6"));
    assert_eq!(marked(&p, "D6", Mark::Collect), "F6");
}

#[test]
fn b17_one_option_per_effect() {
    // H8 is reached both via F8 and via H6: one option.
    let p = pos("F6=G F7=G G8=G H7=G G6=G");
    let o = options(&p, "F6");
    assert_eq!(o.iter().filter(|x| *x == "H8").count(), 1);
    let mut sorted = o.clone();
    sorted.dedup();
    assert_eq!(sorted, o);
}

// ---------------------------------------------------------------------------------------------
// B-20: the Guard.

#[test]
fn b20_guard_chain_over_own_guards_captures_enemy_guard_forward() {
    // F6 jumps own F7 to F8, then the enemy Guard on F9 (forward) to F10, capturing it; or
    // the enemy Guard on G9 (forward-diagonal) to H10.
    let p = pos("F6=G F7=G F9=g G9=g");
    let o = options(&p, "F6");
    assert!(has(&o, "F8"));
    assert!(has(&o, "F10xF9"));
    assert!(has(&o, "H10xG9"));
    assert_eq!(marked(&p, "F6", Mark::Capture), "F9 G9");
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b20_guard_may_not_capture_sideways_or_backwards() {
    // After F6-F8 over own F7, the enemy Guard on G8 is beside it: no jump over it. The enemy
    // Guard on E6 beside the start and on F5 behind it cannot be captured either.
    let p = pos("F6=G F7=G G8=g E6=g F5=g");
    let o = options(&p, "F6");
    assert!(!o.iter().any(|x| x.contains('x')), "{o:?}");
    assert!(!has(&o, "H8") && !has(&o, "D6") && !has(&o, "F4"));
    assert_eq!(marked(&p, "F6", Mark::Capture), "");
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b20_guard_jumps_only_guards() {
    // Own and enemy pieces that are not Guards cannot be jumped.
    let p = pos("F6=G F7=N G7=q");
    let o = options(&p, "F6");
    assert!(!has(&o, "F8") && !has(&o, "H8"));
    assert!(
        has(&o, "G7xG7"),
        "a forward-diagonal step captures any piece"
    );
}

#[test]
fn b20_guard_double_step_only_from_its_starting_row() {
    // White's starting row is rank 4: D4 may go two cells straight to D6 or diagonally to
    // B6 and F6 (move only), besides its sideways steps C4 and E4.
    let p = pos("D4=G");
    let d = diagram(&p, "D4");
    assert_eq!(cells(&d, Mark::Move), ["B6", "C4", "D6", "E4", "F6"]);
    insta::assert_snapshot!(text(&p, "D4"));
    // From rank 5 there is no double step.
    let p = pos("D5=G");
    assert!(!has(&options(&p, "D5"), "D7"));
    // The middle cell must be empty.
    let p = pos("D4=G D5=^ E5=n");
    let o = options(&p, "D4");
    assert!(!has(&o, "D6") && !has(&o, "F6") && has(&o, "B6"));
    // Black's starting row is rank 15 and forward is down.
    let p = pos("E15=g");
    let o = options(&p, "E15");
    assert!(has(&o, "E13") && has(&o, "C13") && has(&o, "G13") && !has(&o, "E17"));
}

// ---------------------------------------------------------------------------------------------
// B-21 … B-28: the other pieces meeting pieces.

#[test]
fn b21_gold_runner_changes_colour_without_capturing() {
    let p = pos("F6=R F7=n G7=n");
    let o = options(&p, "F6");
    assert!(!has(&o, "F7xF7"), "orthogonal steps do not capture");
    assert!(has(&o, "G7xG7"), "diagonal lines capture");
}

#[test]
fn b25_marshal_bishop_lines_blocked_knight_legs_jump() {
    let p = pos("F6=M G7=^ E7=g G5=N");
    let o = options(&p, "F6");
    assert!(!has(&o, "H8") && has(&o, "E7xE7") && !has(&o, "D8"));
    assert!(has(&o, "G8") && has(&o, "H7"));
}

#[test]
fn b26_chancellor_rook_lines_blocked_knight_legs_jump() {
    let p = pos("F6=C F7=# F5=n");
    let o = options(&p, "F6");
    assert!(!has(&o, "F8") && has(&o, "F5xF5") && !has(&o, "F4"));
    assert!(has(&o, "G8") && has(&o, "E4"));
}

#[test]
fn b27_cannon_captures_over_a_block_screen() {
    // North: block F8 as screen, F9 and F10 empty, enemy F11: captured. East: own H6 as
    // screen, arrow J6 first beyond it: nothing to capture. West: enemy E6 adjacent without
    // a screen: not capturable. South: two screens (F5, F3): the enemy F2 is safe.
    let p = pos("F6=A F8=# F11=n H6=G J6=^ K6=n E6=n F5=^ F3=^ F2=n");
    let o = options(&p, "F6");
    assert!(has(&o, "F11xF11"));
    assert!(
        !has(&o, "F9") && !has(&o, "F10"),
        "no move beyond the screen"
    );
    assert!(!has(&o, "K6xK6") && !has(&o, "E6xE6") && !has(&o, "F2xF2"));
    assert_eq!(marked(&p, "F6", Mark::Capture), "F11");
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b27_cannon_captures_over_any_screen_kind() {
    for screen in ['#', '%', '^', '~', '@', 'G', 'g'] {
        let p = pos(&format!("F6=A F7={screen} F9=q"));
        assert!(has(&options(&p, "F6"), "F9xF9"), "screen {screen}");
    }
}

// ---------------------------------------------------------------------------------------------
// B-30 … B-33: the Spy.

#[test]
fn b30_spy_steps_never_capture() {
    // The enemy on F7 cannot be jumped (F8 is occupied) and a step does not capture it.
    let p = pos("F6=S F7=q F8=N");
    let o = options(&p, "F6");
    assert!(!o.iter().any(|x| x.starts_with("F7")), "{o:?}");
    // A chain of jumps over pieces of both sides and arrow-like stones, capturing nothing.
    let p = pos("D6=S E6=g G6=^ I6=N");
    let o = options(&p, "D6");
    assert!(has(&o, "F6") && has(&o, "H6") && has(&o, "J6"));
}

#[test]
fn b31_spy_prefix_over_own_pieces_then_capture() {
    let p = pos("D6=S E6=N G6=g");
    assert!(has(&options(&p, "D6"), "H6xG6"));
    insta::assert_snapshot!(text(&p, "D6"));
}

#[test]
fn b31_spy_prefix_over_stones_then_capture() {
    let p = pos("D6=S E6=^ G6=g");
    assert!(has(&options(&p, "D6"), "H6xG6"));
    let p = pos("D6=S E6=@ G6=g");
    assert!(
        has(&options(&p, "D6"), "H6xG6"),
        "a dropped bomb is arrow-like"
    );
}

#[test]
fn b31_spy_mixed_prefix_cannot_capture() {
    // Own piece, then an arrow, then an enemy: the prefix is mixed, so the enemy on I6 is
    // jumped but not captured.
    let p = pos("D6=S E6=N G6=^ I6=g");
    let o = options(&p, "D6");
    assert!(has(&o, "J6"));
    assert!(!o.iter().any(|x| x.contains('x')), "{o:?}");
    insta::assert_snapshot!(text(&p, "D6"));
}

#[test]
fn b31_spy_one_and_two_captures_but_not_three() {
    let p = pos("D6=S E6=g G6=q I6=r");
    let o = options(&p, "D6");
    assert!(has(&o, "F6xE6"));
    assert!(has(&o, "H6xE6xG6"));
    assert!(!o.iter().any(|x| x.matches('x').count() > 2), "{o:?}");
    // The third enemy can still be jumped in the tail, uncaptured.
    assert!(has(&o, "J6xE6xG6"));
    let d = diagram(&p, "D6");
    assert_eq!(cells(&d, Mark::Capture), ["E6", "G6"]);
    insta::assert_snapshot!(text(&p, "D6"));
}

#[test]
fn b31_spy_tail_after_capture() {
    // Capture E6 landing on F6; then at most two jumps (over own G6, I6; not K6), a king
    // step, or a jump and a step in either order.
    let p = pos("D6=S E6=g G6=N I6=N K6=N");
    let o = options(&p, "D6");
    assert!(has(&o, "H6xE6") && has(&o, "J6xE6"));
    assert!(!has(&o, "L6xE6"), "three tail jumps");
    assert!(
        has(&o, "F7xE6") && has(&o, "E6xE6"),
        "a king step, also onto the emptied cell"
    );
    assert!(has(&o, "H7xE6"), "jump then step");
    assert!(
        has(&o, "G5xE6") && has(&o, "H5xE6"),
        "step then jump (F6-G7 then over G6 to G5)"
    );
    assert!(has(&o, "I7xE6"), "jump to H6 then step");
    assert!(!has(&o, "K7xE6"), "jump, jump, step is too long");
    // Without capturing, the chain may go on: over E6, G6, I6, K6 to L6.
    assert!(has(&o, "L6"));
    insta::assert_snapshot!(text(&p, "D6"));
}

#[test]
fn b31_uncaptured_enemy_rules_out_later_captures() {
    // Jumping E6 without capturing it rules out capturing G6 later in the move.
    let p = pos("D6=S E6=g G6=g");
    let o = options(&p, "D6");
    assert!(!has(&o, "H6xG6"), "{o:?}");
    assert!(has(&o, "H6") && has(&o, "H6xE6xG6") && has(&o, "F6xE6"));
}

#[test]
fn b31_second_capture_must_be_the_very_next_jump() {
    // Capture E6 (to F6), jump own G6 (to H6), then I6: too late to capture it.
    let p = pos("D6=S E6=g G6=N I6=g");
    let o = options(&p, "D6");
    assert!(!o.iter().any(|x| x.contains("xI6")), "{o:?}");
}

#[test]
fn b31_spy_captures_two_guards_diagram() {
    // The rulebook's picture: two Guards in a row in front of the Spy can both be captured.
    let p = pos("G7=S G8=g G10=g E8=G");
    let o = options(&p, "G7");
    assert!(has(&o, "G11xG8xG10") && has(&o, "G9xG8"), "{o:?}");
    assert_eq!(marked(&p, "G7", Mark::Capture), "G10 G8");
    insta::assert_snapshot!(text(&p, "G7"));
}

#[test]
fn b33_blocks_stop_spy_jumps() {
    let p = pos("D6=S E6=# D7=% E7=g E5=N");
    let o = options(&p, "D6");
    assert!(!has(&o, "F6") && !has(&o, "D8"), "never over a block");
    assert!(has(&o, "F8xE7") && has(&o, "F4"));
    insta::assert_snapshot!(text(&p, "D6"));
}

// ---------------------------------------------------------------------------------------------
// B-41 … B-44: placement ranges and where stones may go.

#[test]
fn b41_range_is_movement_with_the_first_occupied_cell() {
    // Queen F6 with an enemy on F9 and an arrow on H6: the line cells and the occupied cells
    // are in range; only empty ones get a place mark.
    let p = pos("F6=Q F9=n H6=^");
    let r = rules();
    let mut vm = bulwark::vm::Machine::new();
    let range: Vec<String> = vm
        .range(r, &p, r.topo.parse_cell("F6").unwrap())
        .iter()
        .map(|&c| r.topo.name(c))
        .collect();
    assert!(range.contains(&"F9".to_string()) && !range.contains(&"F10".to_string()));
    assert!(range.contains(&"H6".to_string()) && !range.contains(&"I6".to_string()));
    let d = diagram(&p, "F6");
    assert!(!cells(&d, Mark::Place).contains(&"F9".to_string()));
    assert!(cells(&d, Mark::Place).contains(&"F8".to_string()));
}

#[test]
fn b41_range_after_knight_blocks_follows_leg_rules() {
    // The Knight's range uses its legs' blocking rule: E8 is closed by blocks on F7 and E7.
    let p = pos("F6=N F7=# E7=#");
    let d = diagram(&p, "F6");
    assert!(!cells(&d, Mark::Place).contains(&"E8".to_string()));
    assert!(cells(&d, Mark::Place).contains(&"G8".to_string()));
}

#[test]
fn b42_guard_range_single_jump_no_chain() {
    // Guard F6: range = steps forward, forward-diagonal, sideways; a single jump over own F7
    // to F8 but no chain on to F10 over own F9; a jump over the enemy Guard on G7 to H8.
    let p = pos("F6=G F7=G F9=G G7=g");
    let d = diagram(&p, "F6");
    assert_eq!(cells(&d, Mark::Place), ["E6", "E7", "F8", "G6", "H8"]);
    assert!(
        cells(&d, Mark::Move).contains(&"F10".to_string()),
        "the move may chain"
    );
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b43_cannon_range_beyond_one_screen() {
    // Beyond the screen on F8: F9, F10 and the occupant F11 are in range; F12 is not.
    let p = pos("F6=A F8=G F11=^");
    let d = diagram(&p, "F6");
    let place = cells(&d, Mark::Place);
    assert!(
        place.contains(&"F7".to_string())
            && place.contains(&"F9".to_string())
            && place.contains(&"F10".to_string())
    );
    assert!(!place.contains(&"F12".to_string()) && !place.contains(&"F11".to_string()));
    insta::assert_snapshot!(text(&p, "F6"));
}

#[test]
fn b32_spy_range() {
    // Spy D6 next to own E6 and arrow D7: range = king steps, one or two jumps, jump + step,
    // step + jump. C9 would need two jumps and a step: not in range.
    let p = pos("D6=S E6=N D7=^ F7=n");
    let d = diagram(&p, "D6");
    let place = cells(&d, Mark::Place);
    assert!(place.contains(&"F6".to_string()), "one jump");
    assert!(place.contains(&"D8".to_string()), "jump over the arrow");
    assert!(place.contains(&"E9".to_string()), "jump then step");
    assert!(
        place.contains(&"F8".to_string()),
        "two jumps: over E6 to F6, over F7 to F8"
    );
    assert!(
        !place.contains(&"H9".to_string()),
        "three steps away by jumps only"
    );
    insta::assert_snapshot!(text(&p, "D6"));
}

#[test]
fn b44_no_stones_in_own_end_zone_or_end_field_and_only_bombs_on_the_enemy_end_field() {
    // White King's Knight on C5: its range reaches B3, C4, D4 (own end zone) and nothing
    // there may receive a stone.
    let p = pos("C5=K");
    let place = marked(&p, "C5", Mark::Place);
    for c in ["B3", "B4", "C4", "D3", "D4"] {
        assert!(
            !place.split(' ').any(|x| x == c),
            "{c} is in White's end zone"
        );
    }
    assert!(place.split(' ').any(|x| x == "E4"));
    // Next to Black's end field K18: a bomb may go there while one is in supply.
    let r = rules();
    let mut p = pos("J16=K");
    assert!(
        marked(&p, "J16", Mark::Place)
            .split(' ')
            .any(|x| x == "K18")
    );
    let bomb = r.stones.iter().position(|s| s.symbol == '@').unwrap();
    p.supplies[Side::White][bomb] = 0;
    assert!(
        !marked(&p, "J16", Mark::Place)
            .split(' ')
            .any(|x| x == "K18")
    );
    // Black may not place on K18 (its own end field) nor in I15-K17.
    let p = pos("J16=k");
    assert!(
        !marked(&p, "J16", Mark::Place)
            .split(' ')
            .any(|x| x == "K18" || x == "K17" || x == "I15")
    );
}

#[test]
fn b48_taboo_cell_binds_only_the_side_to_move() {
    let r = rules();
    let mut p = pos("F6=Q f9=q");
    p.taboo = Some(r.topo.parse_cell("F7").unwrap());
    assert!(
        !marked(&p, "F6", Mark::Place).split(' ').any(|x| x == "F7"),
        "White to move: taboo"
    );
    assert!(has(&options(&p, "F6"), "F7"), "pieces may enter it");
    p.side = bulwark::Side::Black;
    assert!(marked(&p, "F6", Mark::Place).split(' ').any(|x| x == "F7"));
}

#[test]
fn b3_gold_runner_orthogonal_steps_change_colour() {
    // B-3: colours by parity; the Gold Runner's diagonal lines keep its colour and its
    // orthogonal steps (move only, B-21) change it.
    let r = rules();
    let p = pos("F6=R");
    let d = diagram(&p, "F6");
    let home = r.colour(r.topo.parse_cell("F6").unwrap());
    for c in d.cells_with(Mark::MoveCapture) {
        assert_eq!(r.colour(c), home, "{}", r.topo.name(c));
    }
    for c in d.cells_with(Mark::Move) {
        assert_ne!(r.colour(c), home, "{}", r.topo.name(c));
    }
    assert_eq!(cells(&d, Mark::Move), ["E6", "F5", "F7", "G6"]);
}

#[test]
fn b4_the_two_gold_runners_stand_on_different_colours() {
    let r = rules();
    let runners: Vec<u8> = r
        .topo
        .cells()
        .filter(|&c| matches!(r.setup.at(c).as_piece(), Some((bulwark::Side::White, k)) if r.pieces[k].letter == 'R'))
        .map(|c| r.colour(c))
        .collect();
    assert_eq!(runners.len(), 2);
    assert_ne!(runners[0], runners[1]);
}

#[test]
fn b1_board_has_178_cells_and_is_symmetric_under_a_half_turn() {
    let t = &rules().topo;
    assert_eq!(t.len(), 178);
    for c in t.cells() {
        assert!(t.half_turn(c).is_some(), "{} has no image", t.name(c));
    }
    assert!(
        t.parse_cell("B1").is_ok() && t.parse_cell("K18").is_ok() && t.parse_cell("A1").is_err()
    );
}

#[test]
fn b4_black_is_the_half_turn_image_of_white() {
    let r = rules();
    let t = &r.topo;
    for c in t.cells() {
        let image = t.half_turn(c).unwrap();
        let a = r.setup.at(c).as_piece();
        let b = r.setup.at(image).as_piece();
        assert_eq!(a.map(|(s, k)| (s.opponent(), k)), b, "{}", t.name(c));
    }
}

#[test]
fn b2_white_moves_first_and_forward_is_towards_the_other_side() {
    let r = rules();
    assert_eq!(r.setup.side, bulwark::Side::White);
    // The Guards' forward steps: up for White, down for Black.
    assert!(has(&options(&pos("F9=G"), "F9"), "F10"));
    assert!(has(&options(&pos("F9=g"), "F9"), "F8"));
    // Own end fields and end zones per side.
    let field = r.region("end-field").unwrap();
    assert!(field.cells[Side::White].contains(r.topo.parse_cell("B1").unwrap()));
    assert!(field.cells[Side::Black].contains(r.topo.parse_cell("K18").unwrap()));
    let zone = r.region("end-zone").unwrap();
    assert_eq!(zone.cells[Side::White].len(), 9);
    assert!(
        zone.cells[Side::Black].contains(r.topo.parse_cell("I15").unwrap())
            && zone.cells[Side::Black].contains(r.topo.parse_cell("K17").unwrap())
    );
}

#[test]
fn b5_each_side_starts_with_25_stones() {
    let r = rules();
    for side in bulwark::Side::BOTH {
        let by_symbol: Vec<(char, u32)> = r
            .stones
            .iter()
            .zip(&r.setup.supplies[side])
            .map(|(s, &n)| (s.symbol, n))
            .collect();
        assert_eq!(
            by_symbol,
            [('^', 10), ('~', 1), ('#', 10), ('%', 1), ('@', 3)]
        );
    }
}

#[test]
fn b10_occupant_classes_arrow_like_and_block_like() {
    // A Knight's leg passes arrow-like stones (arrow, red-border arrow, dropped bomb) but not
    // block-like ones (block, red-border block): B-10 decides which class each stone is in.
    for (stone, passes) in [
        ('^', true),
        ('~', true),
        ('@', true),
        ('#', false),
        ('%', false),
    ] {
        let p = pos(&format!("F6=N F7={stone} E7={stone}"));
        assert_eq!(has(&options(&p, "F6"), "E8"), passes, "{stone}");
    }
}
