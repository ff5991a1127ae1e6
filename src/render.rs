//! Renderings: rulebook-style diagrams (text and JSON), boards, and diagnostics as plain text.
//! Pure functions: they return strings and print nothing.

use std::fmt::Write as _;

use crate::board::{Cell, Side};
use crate::game::{self, PlaceEffect};
use crate::notation::occupant_char;
use crate::position::Position;
use crate::variant::Ruleset;
use crate::vm::{Machine, Options, StoneEffect};

/// A diagram mark, in the order of SPEC.md's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// The piece whose options are shown.
    Origin,
    /// Reachable by a leg that can capture.
    MoveCapture,
    /// Reachable only by legs that cannot capture.
    Move,
    /// The enemy piece here can be captured.
    Capture,
    /// The piece can land here and destroy the stone.
    Destroy,
    /// The piece can land here and collect the stone.
    Collect,
    /// A stone can be placed here without moving.
    Place,
    /// The stone here can be blown up by a bomb placed by this piece.
    Bomb,
    /// The stone here can be removed by this piece.
    Remove,
    /// The enemy piece here can be captured by placing a stone (an arrow) on it.
    ArrowCapture,
}

impl Mark {
    /// Every mark in table order.
    pub const ALL: [Mark; 10] = [
        Mark::Origin,
        Mark::MoveCapture,
        Mark::Move,
        Mark::Capture,
        Mark::Destroy,
        Mark::Collect,
        Mark::Place,
        Mark::Bomb,
        Mark::Remove,
        Mark::ArrowCapture,
    ];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Origin => "origin",
            Mark::MoveCapture => "move-capture",
            Mark::Move => "move",
            Mark::Capture => "capture",
            Mark::Destroy => "destroy",
            Mark::Collect => "collect",
            Mark::Place => "place",
            Mark::Bomb => "bomb",
            Mark::Remove => "remove",
            Mark::ArrowCapture => "arrow-capture",
        }
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// The marks of every cell for the piece on one cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagram {
    /// The piece's position-text letter (case gives its side).
    pub letter: char,
    /// The piece's side.
    pub side: Side,
    /// The piece's kind.
    pub kind: usize,
    /// Its cell.
    pub origin: Cell,
    marks: Vec<u16>,
}

impl Diagram {
    /// The marks of a cell, in table order.
    pub fn marks(&self, c: Cell) -> impl Iterator<Item = Mark> + '_ {
        let m = self.marks[c as usize];
        Mark::ALL.into_iter().filter(move |k| m & k.bit() != 0)
    }

    /// Whether a cell has a mark.
    pub fn has(&self, c: Cell, m: Mark) -> bool {
        self.marks[c as usize] & m.bit() != 0
    }

    /// Cells with a mark, in index order.
    pub fn cells_with(&self, m: Mark) -> Vec<Cell> {
        (0..self.marks.len() as Cell)
            .filter(|&c| self.has(c, m))
            .collect()
    }
}

/// Computes the diagram of the piece on `at`, or `None` when no piece stands there.
pub fn diagram(rules: &Ruleset, pos: &Position, at: Cell) -> Option<Diagram> {
    let (side, kind) = pos.at(at).as_piece()?;
    let mut marks = vec![0u16; pos.cells.len()];
    marks[at as usize] |= Mark::Origin.bit();
    let mut vm = Machine::new();
    let mut opts = Options::default();
    vm.moves(rules, pos, at, &mut opts);
    for m in &opts.moves {
        let cell = &mut marks[m.to as usize];
        *cell |= if m.capturing_leg {
            Mark::MoveCapture.bit()
        } else {
            0
        };
        match m.stone {
            StoneEffect::Collect(_) => *cell |= Mark::Collect.bit(),
            StoneEffect::Destroy(_) => *cell |= Mark::Destroy.bit(),
            StoneEffect::None => {}
        }
        for &c in opts.captures(m) {
            marks[c as usize] |= Mark::Capture.bit();
        }
    }
    for m in &opts.moves {
        if marks[m.to as usize] & Mark::MoveCapture.bit() == 0 {
            marks[m.to as usize] |= Mark::Move.bit();
        }
    }
    let piece = &rules.pieces[kind as usize];
    for &c in vm.range(rules, pos, at) {
        let occ = pos.at(c);
        if occ.as_stone().is_some_and(|s| piece.removes.contains(&s)) {
            marks[c as usize] |= Mark::Remove.bit();
        }
        if piece.stones_per_turn == 0 {
            continue;
        }
        for k in 0..rules.stones.len() as u8 {
            marks[c as usize] |= match game::placement(rules, pos, side, kind, k, c) {
                Some(PlaceEffect::Stone) => Mark::Place.bit(),
                Some(PlaceEffect::Explode) => Mark::Bomb.bit(),
                Some(PlaceEffect::Capture) => Mark::ArrowCapture.bit(),
                None => 0,
            };
        }
    }
    let letter = occupant_char(rules, pos.at(at));
    Some(Diagram {
        letter,
        side,
        kind: kind as usize,
        origin: at,
        marks,
    })
}

/// Cells in file-then-rank order.
fn file_rank_order(rules: &Ruleset) -> Vec<Cell> {
    let mut cells: Vec<Cell> = rules.topo.cells().collect();
    cells.sort_by_key(|&c| rules.topo.coord(c));
    cells
}

/// The diagram as JSON (SPEC.md): `{"piece":"S","origin":"G7","marks":{"H8":["move-capture"]}}`.
pub fn diagram_json(rules: &Ruleset, d: &Diagram) -> String {
    let mut marks = serde_json::Map::new();
    for c in file_rank_order(rules) {
        let ms: Vec<serde_json::Value> = d
            .marks(c)
            .map(|m| serde_json::Value::from(m.name()))
            .collect();
        if !ms.is_empty() {
            marks.insert(rules.topo.name(c), serde_json::Value::Array(ms));
        }
    }
    let mut obj = serde_json::Map::new();
    obj.insert("piece".into(), d.letter.to_string().into());
    obj.insert("origin".into(), rules.topo.name(d.origin).into());
    obj.insert("marks".into(), serde_json::Value::Object(marks));
    serde_json::Value::Object(obj).to_string()
}

/// The legend of text diagrams.
pub const TEXT_LEGEND: &str = "\
(X) origin    *  move, may capture    x  move only    + stone may be placed
<x> capture   [x] land and destroy   {x} land and collect
!x! a bomb blows it up   ?x? can be removed   /x/ an arrow captures it";

/// The diagram as a text grid with rank and file labels and a legend.
pub fn diagram_text(rules: &Ruleset, pos: &Position, d: &Diagram) -> String {
    let piece = &rules.pieces[d.kind];
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}) on {}, {}",
        piece.name,
        d.letter,
        rules.topo.name(d.origin),
        d.side
    );
    grid(rules, &mut out, |c| {
        let o = pos.at(c);
        let ch = occupant_char(rules, o);
        if d.has(c, Mark::Origin) {
            format!("({ch})")
        } else if !o.is_empty() {
            if d.has(c, Mark::Capture) {
                format!("<{ch}>")
            } else if d.has(c, Mark::Destroy) {
                format!("[{ch}]")
            } else if d.has(c, Mark::Collect) {
                format!("{{{ch}}}")
            } else if d.has(c, Mark::ArrowCapture) {
                format!("/{ch}/")
            } else if d.has(c, Mark::Bomb) && d.has(c, Mark::Remove) {
                format!("!{ch}?")
            } else if d.has(c, Mark::Bomb) {
                format!("!{ch}!")
            } else if d.has(c, Mark::Remove) {
                format!("?{ch}?")
            } else {
                format!(" {ch} ")
            }
        } else {
            let centre = if d.has(c, Mark::MoveCapture) {
                '*'
            } else if d.has(c, Mark::Move) {
                'x'
            } else if d.has(c, Mark::Place) {
                '+'
            } else {
                '.'
            };
            let right = if d.has(c, Mark::Place) && centre != '+' {
                '+'
            } else {
                ' '
            };
            format!(" {centre}{right}")
        }
    });
    let count = |m: Mark| d.marks.iter().filter(|&&b| b & m.bit() != 0).count();
    let _ = writeln!(
        out,
        "move-capture {}, move {}, capture {}, destroy {}, collect {}, place {}, bomb {}, remove {}, arrow-capture {}",
        count(Mark::MoveCapture),
        count(Mark::Move),
        count(Mark::Capture),
        count(Mark::Destroy),
        count(Mark::Collect),
        count(Mark::Place),
        count(Mark::Bomb),
        count(Mark::Remove),
        count(Mark::ArrowCapture)
    );
    out.push_str(TEXT_LEGEND);
    out.push('\n');
    out
}

/// A position as a text grid.
pub fn board_text(rules: &Ruleset, pos: &Position) -> String {
    let mut out = String::new();
    grid(rules, &mut out, |c| {
        format!(" {} ", occupant_char(rules, pos.at(c)))
    });
    out
}

fn grid(rules: &Ruleset, out: &mut String, cell: impl Fn(Cell) -> String) {
    let topo = &rules.topo;
    let labels = |out: &mut String| {
        out.push_str("    ");
        for f in 0..topo.files() {
            let _ = write!(out, "{:^3}", topo.file_label(f));
        }
        out.push('\n');
    };
    labels(out);
    for r in (0..topo.ranks()).rev() {
        let _ = write!(out, "{:>3} ", r + 1);
        for f in 0..topo.files() {
            match topo.cell_at(f as i32, r as i32) {
                Some(c) => out.push_str(&cell(c)),
                None => out.push_str("   "),
            }
        }
        let _ = writeln!(out, " {}", r + 1);
    }
    labels(out);
}

/// Renders a diagnostic as plain text without colours (for the CLI and snapshots).
pub fn diagnostic_text(d: &dyn miette::Diagnostic) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    let mut out = String::new();
    let _ = handler.render_report(&mut out, d);
    out
}
