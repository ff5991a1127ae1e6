//! Tables derived from a rule set and kept outside it (a generator's attack lines) are keyed
//! by the rule set's identity, never by its address: a rule set made where another was freed
//! must not inherit its tables.

use bulwark::play::Generator;
use bulwark::{Ruleset, parse_position, turn_text};

/// Black's piece on b4 pins the White knight on d2 to its king on e1 along the diagonal when
/// the `r` rides diagonally; when it rides orthogonally, it pins nothing.
const PINNED: &str = "4k3/8/8/8/1r6/8/3N4/4K3 w - - 0 1";

fn turns(g: &mut Generator, rules: &Ruleset) -> Vec<String> {
    let pos = parse_position(rules, PINNED).unwrap();
    let mut out = Vec::new();
    let _ = g.turns(rules, &pos, |t| out.push(turn_text(rules, &t.to_turn())));
    out.sort();
    out
}

#[test]
fn a_rule_set_made_where_another_was_is_not_taken_for_it() {
    let chess = bulwark::load::bundled_text("chess").unwrap();
    let diagonal = chess.replace(
        "moves = \"ride(orthogonal) capture\"",
        "moves = \"ride(diagonal) capture\"",
    );
    assert_ne!(chess, diagonal);
    let mut g = Generator::default();
    let mut rules = Ruleset::from_source("chess.toml", chess).unwrap();
    let before = turns(&mut g, &rules);
    assert!(before.iter().any(|t| t.starts_with("d2-")), "{before:?}");
    let place = std::ptr::from_ref(&rules) as usize;
    // The same variable, so the same address, now holding other rules.
    rules = Ruleset::from_source("diagonal.toml", &diagonal).unwrap();
    assert_eq!(std::ptr::from_ref(&rules) as usize, place);
    let reused = turns(&mut g, &rules);
    let fresh = turns(&mut Generator::default(), &rules);
    assert_eq!(reused, fresh);
    assert!(!reused.iter().any(|t| t.starts_with("d2-")), "{reused:?}");
    // A clone is a rule set of its own too (it may be changed).
    let copy = rules.clone();
    assert_ne!(copy.identity, rules.identity);
}

/// The derived tables are private to the rule set and built from its declared rules only by
/// `derive_tables`: after a declared change, deriving again brings every one of them along.
#[test]
fn derived_tables_follow_the_declared_rules() {
    let mut rules = Ruleset::load_named("chess").unwrap();
    let queen = rules.pieces.iter().position(|p| p.letter == 'Q').unwrap();
    assert!(rules.has_royals());
    assert_eq!(rules.royal_kinds() >> queen & 1, 0);
    assert!(
        rules.bit_moves().is_some(),
        "plain chess is counted in cell sets"
    );
    rules.pieces[queen].royal = true;
    // Until they are derived again the tables still describe the game as loaded.
    assert_eq!(rules.royal_kinds() >> queen & 1, 0);
    rules.derive_tables();
    assert_eq!(rules.royal_kinds() >> queen & 1, 1);
    let white_queen =
        bulwark::Occupant::piece(bulwark::Side::White, bulwark::core::PieceKindId::new(queen));
    assert_eq!(
        rules.piece_class()[usize::from(white_queen.code())],
        bulwark::rules::PIECE_WHITE | bulwark::rules::PIECE_ROYAL
    );
}
