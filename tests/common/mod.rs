//! Helpers shared by the behaviour tests: the bundled ruleset and positions written as a list
//! of `CELL=CHAR` placements on an empty Bollwerk 178 board.
#![allow(dead_code)]

use std::sync::OnceLock;

use bulwark::view::{self, Diagram, Mark};
use bulwark::vm::{Machine, Options};
use bulwark::{Position, Ruleset, Side};

/// The bundled Bollwerk 178, loaded once.
pub fn rules() -> &'static Ruleset {
    static R: OnceLock<Ruleset> = OnceLock::new();
    R.get_or_init(Ruleset::bollwerk178)
}

/// An empty board, White to move, full supplies, with the given placements: `"G7=S H8=g F6=^"`.
/// Letters are pieces (upper case White), other characters are stone symbols.
pub fn pos(placements: &str) -> Position {
    let r = rules();
    let mut p = Position::empty(r.topo.len(), r.initial_hand());
    for item in placements.split_whitespace() {
        let (cell, what) = item.split_once('=').expect("CELL=CHAR");
        let c = r.topo.parse_cell(cell).expect("cell");
        let ch = what.chars().next().expect("char");
        let o = if ch.is_ascii_alphabetic() {
            let k = r
                .pieces
                .iter()
                .position(|k| k.letter == ch.to_ascii_uppercase())
                .expect("letter");
            bulwark::Occupant::piece(
                if ch.is_ascii_uppercase() {
                    Side::White
                } else {
                    Side::Black
                },
                bulwark::core::PieceKindId::new(k),
            )
        } else {
            let k = r
                .stones
                .iter()
                .position(|s| s.symbol == ch)
                .expect("symbol");
            bulwark::Occupant::stone(bulwark::core::StoneKindId::new(k))
        };
        p.put(c, o);
    }
    p
}

/// The diagram of the piece on `at`.
pub fn diagram(p: &Position, at: &str) -> Diagram {
    let r = rules();
    view::diagram(r, p, r.topo.parse_cell(at).expect("cell")).expect("a piece on that cell")
}

/// The text rendering of the diagram of the piece on `at`.
pub fn text(p: &Position, at: &str) -> String {
    view::diagram_text(rules(), p, &diagram(p, at))
}

/// Sorted names of the cells with a mark.
pub fn cells(d: &Diagram, m: Mark) -> Vec<String> {
    let r = rules();
    let mut v: Vec<String> = d
        .cells_with(m)
        .into_iter()
        .map(|c| r.topo.name(c))
        .collect();
    v.sort();
    v
}

/// Names of the cells a mark falls on, as one sorted space-separated string.
pub fn marked(p: &Position, at: &str, m: Mark) -> String {
    cells(&diagram(p, at), m).join(" ")
}

/// Every movement option of the piece on `at` as `DEST xCAPTURED…`, sorted.
pub fn options(p: &Position, at: &str) -> Vec<String> {
    let r = rules();
    let mut vm = Machine::new();
    let mut o = Options::default();
    vm.moves(r, p, r.topo.parse_cell(at).expect("cell"), &mut o);
    let mut v: Vec<String> = o.moves.iter().map(|m| o.text(&r.topo, m)).collect();
    v.sort();
    v
}

/// Every legal turn of the side to move, as move text, sorted.
pub fn turns(p: &Position) -> Vec<String> {
    let r = rules();
    let mut g = bulwark::play::Game::new(r, p.clone()).unwrap();
    let mut v: Vec<String> = g
        .legal_turns()
        .unwrap_or_default()
        .iter()
        .map(|t| bulwark::text::turn_text(r, t))
        .collect();
    v.sort();
    v
}

/// Plays the turns given as move text, panicking on an illegal one.
pub fn play<'r>(p: &Position, moves: &[&str]) -> bulwark::play::Game<'r> {
    let r: &'r Ruleset = rules();
    let mut g = bulwark::play::Game::new(r, p.clone()).unwrap();
    for m in moves {
        let t = bulwark::text::parse_turn(&mut g, m).unwrap_or_else(|e| panic!("{e}"));
        g.play(&t);
    }
    g
}
