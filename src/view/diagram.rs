//! Renderings: rulebook-style diagrams (text and JSON), boards, and diagnostics as plain text.
//! Pure functions: they return strings and print nothing.

// Pixels: a board is at most 64 cells wide and high, so picture coordinates are small and the
// casts between usize and i32 cannot truncate or wrap.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::fmt::Write as _;

use crate::board::{Cell, Side};
use crate::core::StoneKindId;
use crate::play::{self, PlaceEffect};
use crate::position::Position;
use crate::rules::{Drawing, Picture, Ruleset};
use crate::text::occupant_char;
use crate::vm::{Machine, Options, StoneEffect};

/// A diagram mark, in the order of the diagram legend.
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
        let m = self.marks[c.index()];
        Mark::ALL.into_iter().filter(move |k| m & k.bit() != 0)
    }

    /// Whether a cell has a mark.
    pub fn has(&self, c: Cell, m: Mark) -> bool {
        self.marks[c.index()] & m.bit() != 0
    }

    /// Cells with a mark, in index order.
    pub fn cells_with(&self, m: Mark) -> Vec<Cell> {
        (0..self.marks.len())
            .map(Cell::new)
            .filter(|&c| self.has(c, m))
            .collect()
    }
}

/// Why a diagram could not be drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    /// No piece stands on the cell.
    #[error("no piece stands on the cell")]
    NoPiece,
    /// The piece's definition ran away (see [`crate::vm::Runaway`]).
    #[error(transparent)]
    Runaway(#[from] crate::vm::Runaway),
}

/// A piece whose options from one cell of an empty board already take unusual work: its
/// definition is likely to explode on a crowded board (see [`explosive_pieces`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explosive {
    /// The piece kind.
    pub kind: crate::core::PieceKindId,
    /// Landings beyond [`crate::vm::ORDINARY_RUN`] its run needed from the centre.
    pub excess: u64,
    /// Whether it ran out of a budget before its options were known.
    pub ran_away: bool,
}

/// The pieces whose options from the central cell of an empty board need more than
/// [`crate::vm::ORDINARY_RUN`] landings (no bundled piece needs that many): an estimate of
/// explosive branching that `check` warns about. Each probe has a budget of its own, and
/// `work_budget` landings for a run (the command's).
pub fn explosive_pieces(rules: &Ruleset, work_budget: u64) -> Vec<Explosive> {
    let centre = rules
        .topo
        .cells()
        .nth(rules.topo.len() / 2)
        .unwrap_or_default();
    let mut out = Vec::new();
    for k in 0..rules.pieces.len() {
        let kind = crate::core::PieceKindId::new(k);
        let mut pos = Position::empty(rules.topo.len(), rules.initial_hand());
        pos.put(centre, crate::position::Occupant::piece(Side::White, kind));
        let stop = std::sync::Arc::new(
            crate::vm::Stop::with_budget(None, crate::vm::PROBE_BUDGET)
                .with_work_budget(work_budget),
        );
        let r = diagram_under(rules, &pos, centre, Some(&stop));
        let ran_away = matches!(r, Err(DiagramError::Runaway(_)));
        if stop.excess() > 0 || ran_away {
            out.push(Explosive {
                kind,
                excess: stop.excess(),
                ran_away,
            });
        }
    }
    out
}

/// Why the cell `at` has no diagram, in words: what stands there instead of a side's piece.
pub fn no_piece_text(rules: &Ruleset, pos: &Position, at: Cell) -> String {
    let cell = rules.topo.name(at);
    let o = pos.at(at);
    if let Some(k) = o.as_neutral() {
        format!(
            "the piece on {cell} is a neutral {}: it belongs to neither side and moves for the side with more influence on it, so it has no diagram of its own (`moves` lists its turns)",
            rules.pieces[k.index()].name
        )
    } else if let Some(k) = o.as_stone() {
        format!(
            "a stone stands on {cell} (a {}), not a piece: stones do not move",
            rules.stones[k.index()].name
        )
    } else {
        format!("no piece stands on {cell}: the cell is empty")
    }
}

/// Computes the diagram of the piece on `at`, under no stop (the default work budget of a
/// run; see [`diagram_under`]).
pub fn diagram(rules: &Ruleset, pos: &Position, at: Cell) -> Result<Diagram, DiagramError> {
    diagram_under(rules, pos, at, None)
}

/// Computes the diagram of the piece on `at`, its programs run under `stop` (see
/// [`crate::vm::Stop`]).
pub fn diagram_under(
    rules: &Ruleset,
    pos: &Position,
    at: Cell,
    stop: Option<&std::sync::Arc<crate::vm::Stop>>,
) -> Result<Diagram, DiagramError> {
    let (side, kind) = pos.at(at).as_piece().ok_or(DiagramError::NoPiece)?;
    let mut marks = vec![0u16; pos.cells().len()];
    marks[at.index()] |= Mark::Origin.bit();
    let mut vm = Machine::new();
    vm.set_stop(stop.cloned());
    let mut opts = Options::default();
    vm.moves(rules, pos, at, &mut opts);
    for m in &opts.moves {
        let cell = &mut marks[m.to.index()];
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
            marks[c.index()] |= Mark::Capture.bit();
        }
    }
    for m in &opts.moves {
        if marks[m.to.index()] & Mark::MoveCapture.bit() == 0 {
            marks[m.to.index()] |= Mark::Move.bit();
        }
    }
    let piece = &rules.pieces[kind.index()];
    let range = vm.range(rules, pos, at).to_vec();
    if let Some(r) = vm.take_runaway() {
        return Err(DiagramError::Runaway(r));
    }
    for c in range {
        let occ = pos.at(c);
        if occ.as_stone().is_some_and(|s| piece.removes.contains(&s)) {
            marks[c.index()] |= Mark::Remove.bit();
        }
        if piece.stones_per_turn == 0 {
            continue;
        }
        for k in StoneKindId::all(rules.stones.len()) {
            marks[c.index()] |= match play::placement(rules, pos, side, kind, k, c) {
                Some(PlaceEffect::Stone) => Mark::Place.bit(),
                Some(PlaceEffect::Explode) => Mark::Bomb.bit(),
                Some(PlaceEffect::Capture) => Mark::ArrowCapture.bit(),
                None => 0,
            };
        }
    }
    let letter = occupant_char(rules, pos.at(at));
    Ok(Diagram {
        letter,
        side,
        kind: kind.index(),
        origin: at,
        marks,
    })
}

/// Cells in file-then-rank order.
fn file_rank_order(rules: &Ruleset) -> Vec<Cell> {
    rules.topo.cells_by_file()
}

/// The diagram as JSON: `{"piece":"S","origin":"G7","marks":{"H8":["move-capture"]}}`.
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

/// `a` or `an` and the name.
fn with_article(name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// The stone kinds that do something to what they are placed on, in the variant's own names:
/// what blows a stone up (the `bomb` mark) and what captures a piece (the `arrow-capture`
/// mark), e.g. "a bomb" and "an arrow or a red-border arrow".
fn stone_effect_names(rules: &Ruleset) -> (String, String) {
    let names = |f: &dyn Fn(&crate::rules::StoneKind) -> bool| {
        let v: Vec<String> = rules
            .stones
            .iter()
            .filter(|s| f(s))
            .map(|s| with_article(&s.name))
            .collect();
        if v.is_empty() {
            "a stone".to_string()
        } else {
            v.join(" or ")
        }
    };
    (
        names(&|s| !s.explodes.is_empty()),
        names(&|s| !s.captures.is_empty()),
    )
}

/// The legend of text diagrams, in the variant's own names.
pub fn text_legend(rules: &Ruleset) -> String {
    let (blows, captures) = stone_effect_names(rules);
    if rules.stones.is_empty() {
        // Without stones, only the marks a piece can make.
        return "(X) origin    *  move, may capture    x  move only    <x> capture".to_string();
    }
    format!(
        "(X) origin    *  move, may capture    x  move only    + stone may be placed\n\
         <x> capture   [x] land and destroy   {{x}} land and collect\n\
         !x! {blows} blows it up   ?x? can be removed   /x/ {captures} captures it"
    )
}

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
        rules.side_name(d.side)
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
    out.push_str(&text_legend(rules));
    out.push('\n');
    out
}

/// A position as a text grid.
pub fn board_text(rules: &Ruleset, pos: &Position) -> String {
    board_text_marked(rules, pos, &[])
}

/// The position as a text grid, the `marked` cells (a last turn's) in brackets: `[S]`.
pub fn board_text_marked(rules: &Ruleset, pos: &Position, marked: &[Cell]) -> String {
    let mut out = String::new();
    grid(rules, &mut out, |c| {
        let ch = occupant_char(rules, pos.at(c));
        if marked.contains(&c) {
            format!("[{ch}]")
        } else {
            format!(" {ch} ")
        }
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
    for row in 0..topo.ranks() {
        let rank = topo.ranks() - row;
        let _ = write!(out, "{rank:>3} ");
        for col in 0..topo.files() {
            match topo.at_layout(col, row) {
                Some(c) => out.push_str(&cell(c)),
                None if lattice_point(rules, col, row) => out.push_str(" · "),
                None => out.push_str("   "),
            }
        }
        let _ = writeln!(out, " {rank}");
    }
    labels(out);
}

/// Renders a diagnostic as plain text without colours (for the CLI and snapshots).
pub fn diagnostic_text(d: &dyn miette::Diagnostic) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    let mut out = String::new();
    // Long lines are cut around the labels: the renderer cannot point past column 65,535.
    let _ = handler.render_report(&mut out, &super::clip::Clipped::new(d));
    out
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// A built-in piece picture centred on (cx, cy), about 28 pixels high, in the side's colours:
/// chess's kinds as silhouettes, xiangqi's as their character on a disc (the first side's
/// characters for the first side, as red and black differ in xiangqi).
fn svg_picture(
    out: &mut String,
    picture: Picture,
    side: Side,
    (cx, cy): (i32, i32),
    (fill, ink): (&str, &str),
) {
    let chinese = |first: &str, second: &str| {
        if side == Side::White {
            first.to_string()
        } else {
            second.to_string()
        }
    };
    // Each silhouette: shapes around (0, 0); `I` marks the details drawn in the ink colour.
    let base = r#"<rect x="-10" y="9" width="20" height="4" rx="1"/>"#;
    let shapes: String = match picture {
        Picture::Pawn => format!(
            r#"<circle cx="0" cy="-6" r="4.5"/><path d="M-6 9 L-3 -2 L3 -2 L6 9 Z"/>{base}"#
        ),
        Picture::Rook => format!(
            r#"<path d="M-6 -4 L-6 9 L6 9 L6 -4 Z"/><path d="M-9 -4 L-9 -12 L-5 -12 L-5 -9 L-2 -9 L-2 -12 L2 -12 L2 -9 L5 -9 L5 -12 L9 -12 L9 -4 Z"/>{base}"#
        ),
        Picture::Bishop => format!(
            r#"<circle cx="0" cy="-13" r="2"/><path d="M0 -11 C6 -6 7 -1 2 4 L4 9 L-4 9 L-2 4 C-7 -1 -6 -6 0 -11 Z"/><path d="M2.5 -7 L-2 -2" stroke="{ink}" stroke-width="1.6"/>{base}"#
        ),
        Picture::Knight => format!(
            r#"<path d="M-7 9 L-6 1 C-6 -6 -2 -11 2 -12 L3 -15 L5 -11 C9 -8 10 -3 9 2 L5 0 C3 -1 1 1 0 3 L3 9 Z"/><circle cx="3" cy="-6" r="1.3" fill="{ink}" stroke="none"/>{base}"#
        ),
        Picture::Queen => format!(
            r#"<path d="M-8 8 L-11 -7 L-5 -1 L-3 -11 L0 -2 L3 -11 L5 -1 L11 -7 L8 8 Z"/><circle cx="-11" cy="-8" r="1.8"/><circle cx="-3" cy="-12" r="1.8"/><circle cx="3" cy="-12" r="1.8"/><circle cx="11" cy="-8" r="1.8"/>{base}"#
        ),
        Picture::King => format!(
            r#"<path d="M-8 8 C-11 -1 -6 -6 0 -4 C6 -6 11 -1 8 8 Z"/><rect x="-1.3" y="-15" width="2.6" height="10"/><rect x="-4" y="-12" width="8" height="2.6"/>{base}"#
        ),
        Picture::General => chinese("帥", "將"),
        Picture::Advisor => chinese("仕", "士"),
        Picture::Elephant => chinese("相", "象"),
        Picture::Horse => chinese("傌", "馬"),
        Picture::Chariot => chinese("俥", "車"),
        Picture::Cannon => chinese("炮", "砲"),
        Picture::Soldier => chinese("兵", "卒"),
    };
    if picture as u8 >= Picture::General as u8 {
        // A disc of pale wood with a ring and the character in the side's colour.
        let colour = if fill == "#fdfdfd" { "#111" } else { fill };
        let _ = write!(
            out,
            r##"<g class="picture"><circle cx="{cx}" cy="{cy}" r="15" fill="#f6e7c8" stroke="{colour}" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="12" fill="none" stroke="{colour}" stroke-width="0.8"/><text x="{cx}" y="{}" font-size="17" text-anchor="middle" fill="{colour}" font-family="WenQuanYi Micro Hei, Noto Sans CJK SC, Noto Sans CJK TC, sans-serif">{shapes}</text></g>"##,
            cy + 6
        );
        return;
    }
    let _ = write!(
        out,
        r##"<g class="picture" transform="translate({cx},{cy})" fill="{fill}" stroke="#111" stroke-width="1.3" stroke-linejoin="round">{shapes}</g>"##
    );
}

/// A side's piece colours (fill, letter): from its name in `[game] sides` when that names a
/// colour (`blue`, `red`, …), else white for the first side and black for the second.
pub fn side_colours(rules: &Ruleset, side: Side) -> (&'static str, &'static str) {
    const NAMED: [(&str, &str, &str); 12] = [
        ("white", "#fdfdfd", "#111"),
        ("black", "#222", "#fdfdfd"),
        ("red", "#c8102e", "#fdfdfd"),
        ("blue", "#1f4e9c", "#fdfdfd"),
        ("green", "#2b7a3d", "#fdfdfd"),
        ("yellow", "#f2c230", "#111"),
        ("gold", "#d4a017", "#111"),
        ("silver", "#c0c0c0", "#111"),
        ("orange", "#e8771e", "#111"),
        ("purple", "#6a3d9a", "#fdfdfd"),
        ("brown", "#7b4a26", "#fdfdfd"),
        ("grey", "#808080", "#fdfdfd"),
    ];
    let name = rules.side_name(side);
    NAMED
        .iter()
        .find(|(n, _, _)| *n == name || (*n == "grey" && name == "gray"))
        .map_or(
            if side == Side::White {
                ("#fdfdfd", "#111")
            } else {
                ("#222", "#fdfdfd")
            },
            |&(_, fill, ink)| (fill, ink),
        )
}

const CELL: i32 = 36;
const MARGIN: i32 = 26;
const TITLE: i32 = 26;

fn svg_occupant(rules: &Ruleset, out: &mut String, o: crate::position::Occupant, x: i32, y: i32) {
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    if let Some((side, k)) = o.as_piece() {
        let (fill, ink) = side_colours(rules, side);
        if let Some(picture) = rules.pieces[k.index()].picture {
            svg_picture(out, picture, side, (cx, cy), (fill, ink));
            return;
        }
        let _ = write!(
            out,
            r##"<circle cx="{cx}" cy="{cy}" r="13" fill="{fill}" stroke="#111" stroke-width="1.5"/><text x="{cx}" y="{}" font-size="15" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"##,
            cy + 5,
            rules.pieces[k.index()].letter
        );
    } else if let Some(k) = o.as_neutral() {
        // A neutral piece: green, with its kind's letter.
        let _ = write!(
            out,
            r##"<circle cx="{cx}" cy="{cy}" r="13" fill="#2e9e4f" stroke="#111" stroke-width="1.5"/><text x="{cx}" y="{}" font-size="15" font-weight="bold" text-anchor="middle" fill="#fdfdfd">{}</text>"##,
            cy + 5,
            rules.pieces[k.index()].letter
        );
    } else if let Some(k) = o.as_stone() {
        let st = &rules.stones[k.index()];
        let stroke = if st.collectable {
            r##"stroke="#d00000" stroke-width="3""##
        } else {
            r##"stroke="#333" stroke-width="1""##
        };
        if st.class.contains("block") {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="22" height="22" rx="2" fill="#6b4f3a" {stroke}/>"##,
                cx - 11,
                cy - 11
            );
        } else {
            let _ = write!(
                out,
                r##"<polygon points="{cx},{} {},{cy} {cx},{} {},{cy}" fill="#b8b8b8" {stroke}/>"##,
                cy - 12,
                cx + 12,
                cy + 12,
                cx - 12
            );
        }
        let ink = if st.class.contains("block") {
            "#fff"
        } else {
            "#111"
        };
        let _ = write!(
            out,
            r#"<text x="{cx}" y="{}" font-size="13" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
            cy + 5,
            escape_xml(&st.symbol.to_string())
        );
    }
}

/// Text made safe for HTML and SVG markup (element text and quoted attributes).
pub fn escape_xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The fill of a cell in the board's colouring.
fn cell_fill(rules: &Ruleset, c: Cell) -> &'static str {
    if rules.drawing == Drawing::Points {
        // The lines are the board; a cell is filled only to mark it.
        "none"
    } else if rules.colour(c) == 0 {
        "#c9b38f"
    } else {
        "#efe4cf"
    }
}

/// Whether the grid position (layout column, row) is a lattice point of a segment board: no
/// cell, an even file index and an odd rank index.
fn lattice_point(rules: &Ruleset, col: usize, row: usize) -> bool {
    let ranks = rules.topo.ranks();
    rules.drawing == Drawing::Segments
        && row < ranks
        && col.is_multiple_of(2)
        && (ranks - 1 - row) % 2 == 1
        && rules.topo.at_layout(col, row).is_none()
}

/// A cell's outline: a rectangle `inset` pixels inside the cell at (x, y), in a colour, of a
/// stroke width, dashed by `dash` (an SVG attribute, or empty).
fn svg_outline(
    out: &mut String,
    (x, y): (i32, i32),
    inset: i32,
    colour: &str,
    width: &str,
    dash: &str,
) {
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{colour}" stroke-width="{width}"{dash}/>"#,
        x + inset,
        y + inset,
        CELL - 2 * inset,
        CELL - 2 * inset
    );
}

/// A cell's square (on a segment board, a round token on its segment).
fn svg_square(out: &mut String, rules: &Ruleset, x: i32, y: i32, fill: &str) {
    if rules.drawing == Drawing::Points {
        if fill != "none" {
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="{fill}" fill-opacity="0.85"/>"#,
                x + 2,
                y + 2,
                CELL - 4,
                CELL - 4
            );
        }
        return;
    }
    if rules.drawing == Drawing::Segments {
        let r = CELL / 2 - 1;
        let _ = write!(
            out,
            r##"<circle cx="{}" cy="{}" r="{r}" fill="{fill}" stroke="#8a7a5e" stroke-width="0.8"/>"##,
            x + CELL / 2,
            y + CELL / 2
        );
        return;
    }
    let _ = write!(
        out,
        r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#8a7a5e" stroke-width="0.5"/>"##
    );
}

/// The columns of a segment board whose lines end off the board, in a capital point drawn
/// where the file labels are.
fn capital_columns(rules: &Ruleset) -> Vec<i32> {
    if rules.drawing != Drawing::Segments {
        return Vec::new();
    }
    let topo = &rules.topo;
    let ranks = topo.ranks() as i32;
    let mut out = Vec::new();
    for c in topo.cells() {
        let (col, row) = topo.layout(c);
        let (col, r) = (col as i32, ranks - 1 - row as i32);
        if col % 2 == 0 && (r == 0 || r == ranks - 1) && !out.contains(&col) {
            out.push(col);
        }
    }
    out
}

/// A board of points: a wooden ground, lines between orthogonal neighbours (only the outer
/// files' lines cross a river), and the diagonals of the regions named in `[board] diagonals`.
fn svg_points(out: &mut String, rules: &Ruleset, top: i32) {
    if rules.drawing != Drawing::Points {
        return;
    }
    let topo = &rules.topo;
    let (files, ranks) = (topo.files() as i32, topo.ranks() as i32);
    let centre = |col: i32, row: i32| (MARGIN + col * CELL + CELL / 2, top + row * CELL + CELL / 2);
    let _ = write!(
        out,
        r##"<rect x="{MARGIN}" y="{top}" width="{}" height="{}" fill="#ecd3a0"/>"##,
        files * CELL,
        ranks * CELL
    );
    let line = |out: &mut String, a: (i32, i32), b: (i32, i32), width: &str| {
        let _ = write!(
            out,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#5a4326" stroke-width="{width}"/>"##,
            a.0, a.1, b.0, b.1
        );
    };
    for c in topo.cells() {
        let (col, row) = topo.layout(c);
        let (col, row) = (col as i32, row as i32);
        if topo.at_layout(col as usize + 1, row as usize).is_some() {
            line(out, centre(col, row), centre(col + 1, row), "1.5");
        }
        if topo.at_layout(col as usize, row as usize + 1).is_some() {
            // The lower cell's rank (from 1) is the river's when the link crosses it.
            let crosses = rules.lines.river == Some((ranks - 1 - row) as u32);
            if !crosses || col == 0 || col == files - 1 {
                line(out, centre(col, row), centre(col, row + 1), "1.5");
            }
        }
    }
    if let Some(r) = rules.lines.river {
        let row = ranks - r as i32;
        let y = top + row * CELL;
        let _ = write!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#a9cfe0" fill-opacity="0.55"/>"##,
            MARGIN + CELL / 2 + 1,
            y - CELL / 2 + 1,
            (files - 1) * CELL - 2,
            CELL - 2
        );
    }
    for &region in &rules.lines.diagonals {
        for (_, cells) in rules.regions[region.index()].cells.iter() {
            let spots: Vec<(i32, i32)> = cells
                .iter()
                .map(|c| {
                    let (col, row) = topo.layout(c);
                    (col as i32, row as i32)
                })
                .collect();
            let (Some(c0), Some(c1), Some(r0), Some(r1)) = (
                spots.iter().map(|s| s.0).min(),
                spots.iter().map(|s| s.0).max(),
                spots.iter().map(|s| s.1).min(),
                spots.iter().map(|s| s.1).max(),
            ) else {
                continue;
            };
            line(out, centre(c0, r0), centre(c1, r1), "1.5");
            line(out, centre(c1, r0), centre(c0, r1), "1.5");
        }
    }
}

/// A segment board's lines: each cell a segment between two lattice points (the ends off the
/// board are capitals, drawn larger), under the cells' tokens.
fn svg_segments(out: &mut String, rules: &Ruleset, top: i32) {
    if rules.drawing != Drawing::Segments {
        return;
    }
    let topo = &rules.topo;
    let ranks = topo.ranks() as i32;
    let centre = |col: i32, r: i32| {
        (
            MARGIN + col * CELL + CELL / 2,
            top + (ranks - 1 - r) * CELL + CELL / 2,
        )
    };
    let mut points: Vec<(i32, i32)> = Vec::new();
    for c in topo.cells() {
        let (col, row) = topo.layout(c);
        let (col, r) = (col as i32, ranks - 1 - row as i32);
        let ends = if col % 2 == 1 {
            [(col - 1, r), (col + 1, r)]
        } else {
            [(col, r - 1), (col, r + 1)]
        };
        let (a, b) = (centre(ends[0].0, ends[0].1), centre(ends[1].0, ends[1].1));
        let _ = write!(
            out,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#6b5b3e" stroke-width="3" stroke-linecap="round"/>"##,
            a.0, a.1, b.0, b.1
        );
        for e in ends {
            if !points.contains(&e) {
                points.push(e);
            }
        }
    }
    for (col, r) in points {
        let (x, y) = centre(col, r);
        let capital = r < 0 || r >= ranks;
        let radius = if capital { 8 } else { 3 };
        let _ = write!(
            out,
            r##"<circle cx="{x}" cy="{y}" r="{radius}" fill="#3b2f1e"/>"##
        );
    }
}

/// The diagram as a standalone SVG in the rulebook's colours: red origin, black points
/// (move, may capture) and crosses (move only), red squares on capturable pieces, purple
/// points (stone placement) and purple borders (a bomb blows it up), blue borders (the piece
/// may remove it); orange and green dashed borders for destroying and collecting by landing.
pub fn diagram_svg(rules: &Ruleset, pos: &Position, d: &Diagram) -> String {
    diagram_svg_with(rules, pos, d, true)
}

/// The SVG diagram without its legend (for pages that show one legend for all diagrams).
pub fn diagram_svg_bare(rules: &Ruleset, pos: &Position, d: &Diagram) -> String {
    diagram_svg_with(rules, pos, d, false)
}

fn diagram_svg_with(rules: &Ruleset, pos: &Position, d: &Diagram, legend: bool) -> String {
    let topo = &rules.topo;
    let (files, ranks) = (topo.files() as i32, topo.ranks() as i32);
    let width = 2 * MARGIN + files * CELL;
    let board_h = ranks * CELL;
    // The legend in two columns, or one when a label (in the variant's names) is too long.
    let (blows, captures) = stone_effect_names(rules);
    let (blows, captures) = (
        format!("{blows} blows it up"),
        format!("{captures} captures it"),
    );
    let longest = blows.chars().count().max(captures.chars().count()) as i32;
    let columns = if 20 + longest * 7 <= (width - 2 * MARGIN) / 2 {
        2
    } else {
        1
    };
    let entries = if rules.stones.is_empty() {
        LEGEND_WITHOUT_STONES as i32
    } else {
        10
    };
    let legend_h = if legend {
        18 + (entries + columns - 1) / columns * 20
    } else {
        0
    };
    let height = TITLE + 2 * MARGIN + board_h + legend_h;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = write!(
        out,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let piece = &rules.pieces[d.kind];
    let _ = write!(
        out,
        r#"<text x="{MARGIN}" y="18" font-size="15" font-weight="bold">{} ({}) on {}, {}</text>"#,
        escape_xml(&piece.name),
        d.letter,
        topo.name(d.origin),
        escape_xml(rules.side_name(d.side))
    );
    let top = TITLE + MARGIN;
    let xy = |c: Cell| {
        let (col, row) = topo.layout(c);
        (MARGIN + col as i32 * CELL, top + row as i32 * CELL)
    };
    svg_labels(&mut out, rules, top, board_h);
    svg_segments(&mut out, rules, top);
    svg_points(&mut out, rules, top);
    for c in topo.cells() {
        let (x, y) = xy(c);
        svg_cell(&mut out, rules, pos, d, c, (x, y));
    }
    if legend {
        svg_legend(
            &mut out,
            top + board_h + 34,
            (width, columns),
            !rules.stones.is_empty(),
            &blows,
            &captures,
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The file labels above and below the board and the rank numbers beside it.
fn svg_labels(out: &mut String, rules: &Ruleset, top: i32, board_h: i32) {
    let topo = &rules.topo;
    let (files, ranks) = (topo.files() as i32, topo.ranks() as i32);
    let capitals = capital_columns(rules);
    for f in 0..files {
        // Beside a capital point, not under it.
        let x = MARGIN + f * CELL + CELL / 2 + if capitals.contains(&f) { 16 } else { 0 };
        for y in [top - 8, top + board_h + 18] {
            let _ = write!(
                out,
                r##"<text x="{x}" y="{y}" font-size="12" text-anchor="middle" fill="#444">{}</text>"##,
                escape_xml(topo.file_label(f as usize))
            );
        }
    }
    for r in 0..ranks {
        let y = top + (ranks - 1 - r) * CELL + CELL / 2 + 4;
        for x in [MARGIN / 2, MARGIN + files * CELL + MARGIN / 2] {
            let _ = write!(
                out,
                r##"<text x="{x}" y="{y}" font-size="12" text-anchor="middle" fill="#444">{}</text>"##,
                r + 1
            );
        }
    }
}

/// Colours of regions in board pictures, in declaration order (then repeating).
const REGION_COLOURS: [&str; 6] = [
    "#1d4ed8", "#c1121f", "#2b9348", "#7b2cbf", "#e07a00", "#0891b2",
];

/// The board and a position as an SVG picture, every region drawn: White's cells of a region
/// outlined solid, Black's dashed, in the region's colour; a key names them.
pub fn board_svg(rules: &Ruleset, pos: &Position, title: &str) -> String {
    let topo = &rules.topo;
    let (files, ranks) = (topo.files() as i32, topo.ranks() as i32);
    let width = 2 * MARGIN + files * CELL;
    let board_h = ranks * CELL;
    let key_h = 12 + rules.regions.len() as i32 * 20;
    let height = TITLE + 2 * MARGIN + board_h + key_h;
    let top = TITLE + MARGIN;
    let mut out = String::new();
    svg_position(&mut out, rules, pos, title, (width, height), &[]);
    for (i, r) in rules.regions.iter().enumerate() {
        let colour = REGION_COLOURS[i % REGION_COLOURS.len()];
        // Nested outlines when cells are in several regions: each region a little further in.
        let inset = 2 + 3 * (i as i32 % 4);
        for (side, cells) in r.cells.iter() {
            let dash = if side == Side::White {
                ""
            } else {
                r#" stroke-dasharray="5,3""#
            };
            for c in cells.iter() {
                let (col, row) = topo.layout(c);
                let (x, y) = (MARGIN + col as i32 * CELL, top + row as i32 * CELL);
                svg_outline(&mut out, (x, y), inset, colour, "2.5", dash);
            }
        }
        let ky = top + board_h + 34 + i as i32 * 20;
        let _ = write!(
            out,
            r#"<g transform="translate({MARGIN},{ky})"><rect x="0" y="-11" width="14" height="14" fill="none" stroke="{colour}" stroke-width="2.5"/><text x="20" y="1" font-size="12">{} ({} solid, {} dashed)</text></g>"#,
            escape_xml(&r.id),
            escape_xml(&capitalised(rules.side_name(Side::White))),
            escape_xml(rules.side_name(Side::Black)),
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The SVG diagram with some cells outlined in cyan (the cells a diff found changed).
pub fn diagram_svg_outlined(
    rules: &Ruleset,
    pos: &Position,
    d: &Diagram,
    cells: &[Cell],
) -> String {
    let svg = diagram_svg(rules, pos, d);
    let top = TITLE + MARGIN;
    let mut marks = String::new();
    for &c in cells {
        let (col, row) = rules.topo.layout(c);
        let (x, y) = (MARGIN + col as i32 * CELL, top + row as i32 * CELL);
        svg_outline(&mut marks, (x, y), 2, "#00b4d8", "4", "");
    }
    match svg.rfind("</svg>") {
        Some(i) => format!("{}{marks}{}", &svg[..i], &svg[i..]),
        None => svg,
    }
}

/// One cell: its square in the board's colour (red for the origin and captures), its
/// occupant, and its marks.
fn svg_cell(
    out: &mut String,
    rules: &Ruleset,
    pos: &Position,
    d: &Diagram,
    c: Cell,
    (x, y): (i32, i32),
) {
    let fill = if d.has(c, Mark::Origin) {
        "#e5383b"
    } else if d.has(c, Mark::Capture) {
        "#f28b82"
    } else {
        cell_fill(rules, c)
    };
    svg_square(out, rules, x, y, fill);
    if d.has(c, Mark::Capture) {
        svg_outline(out, (x, y), 2, "#c1121f", "3", "");
    }
    for (m, colour, dash) in [
        (Mark::Bomb, "#7b2cbf", ""),
        (Mark::ArrowCapture, "#7b2cbf", r#" stroke-dasharray="5,3""#),
        (Mark::Remove, "#1d4ed8", ""),
        (Mark::Destroy, "#e07a00", r#" stroke-dasharray="4,3""#),
        (Mark::Collect, "#2b9348", r#" stroke-dasharray="4,3""#),
    ] {
        if d.has(c, m) {
            let inset = if m == Mark::Remove && d.has(c, Mark::Bomb) {
                6
            } else {
                2
            };
            svg_outline(out, (x, y), inset, colour, "3", dash);
        }
    }
    let o = pos.at(c);
    svg_occupant(rules, out, o, x, y);
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    if o.is_empty() {
        if d.has(c, Mark::MoveCapture) {
            let _ = write!(out, r##"<circle cx="{cx}" cy="{cy}" r="6" fill="#111"/>"##);
        } else if d.has(c, Mark::Move) {
            let _ = write!(
                out,
                r##"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="#111" stroke-width="2.5"/>"##,
                cx - 6,
                cy - 6,
                cx + 6,
                cy + 6,
                cx + 6,
                cy - 6,
                cx - 6,
                cy + 6
            );
        }
        if d.has(c, Mark::Place) {
            let moved = d.has(c, Mark::MoveCapture) || d.has(c, Mark::Move);
            let (px, py, r) = if moved {
                (x + CELL - 8, y + 8, 4)
            } else {
                (cx, cy, 6)
            };
            let _ = write!(
                out,
                r##"<circle cx="{px}" cy="{py}" r="{r}" fill="#7b2cbf"/>"##
            );
        }
    } else if d.has(c, Mark::MoveCapture) && !d.has(c, Mark::Capture) && o.as_piece().is_none() {
        let _ = write!(
            out,
            r##"<circle cx="{}" cy="{}" r="4" fill="#111"/>"##,
            x + CELL - 8,
            y + 8
        );
    }
}

/// The legend of the picture diagrams alone, as an SVG (for a page that shows diagrams drawn
/// without their own legend): the same icons and words.
pub fn legend_svg(rules: &Ruleset) -> String {
    let (blows, captures) = stone_effect_names(rules);
    let (blows, captures) = (
        format!("{blows} blows it up"),
        format!("{captures} captures it"),
    );
    let stones = !rules.stones.is_empty();
    let entries = if stones {
        10
    } else {
        LEGEND_WITHOUT_STONES as i32
    };
    let (width, columns) = (2 * MARGIN + 16 * CELL, 2);
    let height = 12 + (entries + columns - 1) / columns * 20;
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="legend" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    svg_legend(&mut out, 16, (width, columns), stones, &blows, &captures);
    out.push_str("</svg>\n");
    out
}

/// The legend's first entries, those a game without stones can show (origin, moves, capture).
const LEGEND_WITHOUT_STONES: usize = 4;

/// The legend: one icon and label per mark, in one or two columns (the stones' marks only
/// where the game has stones).
fn svg_legend(
    out: &mut String,
    ly: i32,
    (width, columns): (i32, i32),
    stones: bool,
    blows: &str,
    captures: &str,
) {
    let (blows, captures) = (escape_xml(blows), escape_xml(captures));
    let items: [(&str, &str); 10] = [
        (
            r##"<rect x="0" y="-11" width="14" height="14" fill="#e5383b"/>"##,
            "origin",
        ),
        (
            r##"<circle cx="7" cy="-4" r="5" fill="#111"/>"##,
            "move, may capture",
        ),
        (
            r##"<path d="M2 -9 L12 1 M12 -9 L2 1" stroke="#111" stroke-width="2.5"/>"##,
            "move only",
        ),
        (
            r##"<rect x="0" y="-11" width="14" height="14" fill="#f28b82" stroke="#c1121f" stroke-width="2"/>"##,
            "can be captured",
        ),
        (
            r##"<circle cx="7" cy="-4" r="5" fill="#7b2cbf"/>"##,
            "stone may be placed",
        ),
        (
            r##"<rect x="0" y="-11" width="14" height="14" fill="none" stroke="#7b2cbf" stroke-width="3"/>"##,
            &blows,
        ),
        (
            r##"<rect x="0" y="-11" width="14" height="14" fill="none" stroke="#1d4ed8" stroke-width="3"/>"##,
            "can be removed",
        ),
        (
            r##"<rect x="0" y="-11" width="14" height="14" fill="none" stroke="#7b2cbf" stroke-width="3" stroke-dasharray="4,2"/>"##,
            &captures,
        ),
        (
            r##"<rect x="0" y="-11" width="14" height="14" fill="none" stroke="#e07a00" stroke-width="3" stroke-dasharray="4,2"/>"##,
            "land and destroy",
        ),
        (
            r##"<rect x="0" y="-11" width="14" height="14" fill="none" stroke="#2b9348" stroke-width="3" stroke-dasharray="4,2"/>"##,
            "land and collect",
        ),
    ];
    let col_w = (width - 2 * MARGIN) / columns;
    let shown = if stones {
        items.len()
    } else {
        LEGEND_WITHOUT_STONES
    };
    for (i, (icon, label)) in items.iter().take(shown).enumerate() {
        let x = MARGIN + (i as i32 % columns) * col_w;
        let y = ly + (i as i32 / columns) * 20;
        let _ = write!(
            out,
            r#"<g transform="translate({x},{y})">{icon}<text x="20" y="1" font-size="12">{label}</text></g>"#
        );
    }
}

/// The board and a position as an SVG picture for play: the board's colours and pieces as in
/// the diagrams, without regions or legend, the `marked` cells (the last turn's) outlined in
/// amber.
pub fn position_svg(rules: &Ruleset, pos: &Position, title: &str, marked: &[Cell]) -> String {
    let topo = &rules.topo;
    let (files, ranks) = (topo.files() as i32, topo.ranks() as i32);
    let width = 2 * MARGIN + files * CELL;
    let height = TITLE + 2 * MARGIN + ranks * CELL;
    let mut out = String::new();
    svg_position(&mut out, rules, pos, title, (width, height), marked);
    out.push_str("</svg>\n");
    out
}

/// The opening of a board picture of this size with its title, the labels, the board and the
/// position, the `marked` cells outlined in amber (the picture is left open for more).
fn svg_position(
    out: &mut String,
    rules: &Ruleset,
    pos: &Position,
    title: &str,
    (width, height): (i32, i32),
    marked: &[Cell],
) {
    let topo = &rules.topo;
    let top = TITLE + MARGIN;
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif"><rect width="{width}" height="{height}" fill="#ffffff"/><text x="{MARGIN}" y="18" font-size="15" font-weight="bold">{}</text>"##,
        escape_xml(title)
    );
    svg_labels(out, rules, top, topo.ranks() as i32 * CELL);
    svg_segments(out, rules, top);
    svg_points(out, rules, top);
    for c in topo.cells() {
        let (col, row) = topo.layout(c);
        let (x, y) = (MARGIN + col as i32 * CELL, top + row as i32 * CELL);
        svg_square(out, rules, x, y, cell_fill(rules, c));
        if marked.contains(&c) {
            svg_outline(out, (x, y), 2, "#f4a100", "4", "");
        }
        svg_occupant(rules, out, pos.at(c), x, y);
    }
}

/// The same picture with a transparent target over every cell, on top of everything, carrying
/// the cell's name and, for a diagram, its marks' JSON names
/// (`<rect class="cell" data-cell="e4" data-marks="move-capture" …>`), for a page that lets
/// the reader click cells. Works on every board picture of this module (they share the cell
/// layout).
pub fn with_cell_targets(rules: &Ruleset, svg: &str, diagram: Option<&Diagram>) -> String {
    let topo = &rules.topo;
    let top = TITLE + MARGIN;
    let mut targets = String::from(r#"<g class="cells">"#);
    for c in topo.cells() {
        let (col, row) = topo.layout(c);
        let (x, y) = (MARGIN + col as i32 * CELL, top + row as i32 * CELL);
        let marks: Vec<&str> = diagram
            .map(|d| d.marks(c).map(Mark::name).collect())
            .unwrap_or_default();
        let _ = write!(
            targets,
            r#"<rect class="cell" data-cell="{}" data-marks="{}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="transparent"><title>{}</title></rect>"#,
            escape_xml(&topo.name(c)),
            marks.join(" "),
            escape_xml(&topo.name(c))
        );
    }
    targets.push_str("</g>");
    match svg.rfind("</svg>") {
        Some(i) => format!("{}{targets}{}", &svg[..i], &svg[i..]),
        None => svg.to_string(),
    }
}
