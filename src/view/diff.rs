//! What changes from one rule set to another: for every piece, its diagrams (on an empty board,
//! from its start cells, in every scenario) compared cell by cell, the first-turn count and
//! perft(2) before and after. Rendered as text, JSON or an HTML page with the old and new
//! pictures side by side and the changed cells outlined (in cyan, a colour no mark uses).

use std::fmt::Write as _;
use std::sync::Arc;

use crate::board::Cell;
use crate::core::{PieceKindId, Side};
use crate::play::Game;
use crate::position::{Occupant, Position};
use crate::rules::Ruleset;

use super::rulebook::{Scenario, central_cell};
use super::{Diagram, Mark, diagram_svg_outlined, diagram_under};
use crate::vm::Stop;

/// One diagram of a piece in both rule sets, and the cells whose marks differ.
#[derive(Debug, Clone)]
pub struct DiagramChange {
    /// The piece's id.
    pub piece: String,
    /// Which diagram: `empty board`, `start E3`, `scenario NAME`.
    pub what: String,
    /// The cell names whose marks differ, with the marks before and after.
    pub cells: Vec<(String, Vec<Mark>, Vec<Mark>)>,
    /// The two pictures (SVG), when the diagram exists in both.
    pub svg: Option<(String, String)>,
    /// Why the diagram cannot be drawn in one of the rule sets, if so.
    pub problem: Option<String>,
}

/// Everything that differs from A to B.
#[derive(Debug, Clone)]
pub struct Diff {
    /// The two rule sets' names.
    pub names: (String, String),
    /// Piece ids only in A.
    pub removed: Vec<String>,
    /// Piece ids only in B.
    pub added: Vec<String>,
    /// Every compared diagram (changed or not).
    pub diagrams: Vec<DiagramChange>,
    /// Legal first turns from the start, in A and B.
    pub first_turns: (usize, usize),
    /// Perft(2) from the start, in A and B (`None` when not asked for).
    pub perft2: Option<(u64, u64)>,
}

impl Diff {
    /// The ids of the pieces with at least one changed diagram.
    pub fn changed(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .diagrams
            .iter()
            .filter(|d| !d.cells.is_empty() || d.problem.is_some())
            .map(|d| d.piece.clone())
            .collect();
        v.dedup();
        v
    }
}

/// Compares rule set `a` with `b`: every piece both have, by its id. Its programs run under
/// `stop`, if given.
pub fn diff(
    a: &Ruleset,
    b: &Ruleset,
    scenarios: &[Scenario],
    perft: bool,
    stop: Option<&Arc<Stop>>,
) -> Diff {
    let ids = |r: &Ruleset| r.pieces.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
    let (ia, ib) = (ids(a), ids(b));
    let mut diagrams = Vec::new();
    for (ka, id) in ia.iter().enumerate() {
        let Some(kb) = ib.iter().position(|x| x == id) else {
            continue;
        };
        let (ka, kb) = (PieceKindId::new(ka), PieceKindId::new(kb));
        diagrams.push(compare(
            a,
            b,
            id,
            "empty board".into(),
            Ok(alone(a, ka)),
            Ok(alone(b, kb)),
            stop,
        ));
        for c in a.topo.cells() {
            if a.setup.at(c) == Occupant::piece(Side::White, ka) {
                let name = a.topo.name(c);
                let in_b = b.topo.parse_cell(&name).map(|cb| (b.setup.clone(), cb));
                diagrams.push(compare(
                    a,
                    b,
                    id,
                    format!("start {name}"),
                    Ok((a.setup.clone(), c)),
                    in_b.map_err(|e| e.to_string()),
                    stop,
                ));
            }
        }
        for s in scenarios {
            let pa = scenario_position(a, s);
            if !matches!(&pa, Ok((p, c)) if p.at(*c).as_piece().is_some_and(|(_, k)| k == ka)) {
                continue;
            }
            diagrams.push(compare(
                a,
                b,
                id,
                format!("scenario {}", s.name),
                pa,
                scenario_position(b, s),
                stop,
            ));
        }
    }
    let first = |r: &Ruleset| started(r, stop).count_turns();
    let perft2 = |r: &Ruleset| started(r, stop).perft(2);
    Diff {
        names: (a.name.clone(), b.name.clone()),
        removed: ia.iter().filter(|x| !ib.contains(x)).cloned().collect(),
        added: ib.iter().filter(|x| !ia.contains(x)).cloned().collect(),
        diagrams,
        first_turns: (first(a), first(b)),
        perft2: perft.then(|| (perft2(a), perft2(b))),
    }
}

/// A game at the start of `r`, under `stop`.
fn started<'r>(r: &'r Ruleset, stop: Option<&Arc<Stop>>) -> Game<'r> {
    let mut g = Game::start(r);
    g.set_stop(stop.cloned());
    g
}

/// The piece alone on the central cell of an empty board.
fn alone(r: &Ruleset, k: PieceKindId) -> (Position, Cell) {
    let centre = central_cell(r);
    let mut pos = Position::empty(r.topo.len(), r.initial_hand());
    pos.put(centre, Occupant::piece(Side::White, k));
    (pos, centre)
}

fn scenario_position(r: &Ruleset, s: &Scenario) -> Result<(Position, Cell), String> {
    let pos = crate::text::parse_position(r, &s.position).map_err(|e| e.to_string())?;
    let at = r.topo.parse_cell(&s.at).map_err(|e| e.to_string())?;
    Ok((pos, at))
}

fn compare(
    a: &Ruleset,
    b: &Ruleset,
    piece: &str,
    what: String,
    pa: Result<(Position, Cell), String>,
    pb: Result<(Position, Cell), String>,
    stop: Option<&Arc<Stop>>,
) -> DiagramChange {
    let draw = |r: &Ruleset, p: Result<(Position, Cell), String>| {
        p.and_then(|(pos, c)| {
            diagram_under(r, &pos, c, stop)
                .map(|d| (pos, d))
                .map_err(|e| format!("{e}"))
        })
    };
    let (da, db) = (draw(a, pa), draw(b, pb));
    let ((pos_a, da), (pos_b, db)) = match (da, db) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) => {
            return DiagramChange {
                piece: piece.into(),
                what,
                cells: Vec::new(),
                svg: None,
                problem: Some(format!("not drawn in {}: {e}", a.name)),
            };
        }
        (_, Err(e)) => {
            return DiagramChange {
                piece: piece.into(),
                what,
                cells: Vec::new(),
                svg: None,
                problem: Some(format!("not drawn in {}: {e}", b.name)),
            };
        }
    };
    let cells = changed_cells(a, b, &da, &db);
    let svg = (!cells.is_empty()).then(|| {
        let outline = |r: &Ruleset| -> Vec<Cell> {
            cells
                .iter()
                .filter_map(|(n, _, _)| r.topo.parse_cell(n).ok())
                .collect()
        };
        (
            diagram_svg_outlined(a, &pos_a, &da, &outline(a)),
            diagram_svg_outlined(b, &pos_b, &db, &outline(b)),
        )
    });
    DiagramChange {
        piece: piece.into(),
        what,
        cells,
        svg,
        problem: None,
    }
}

/// The cells (by name, so that boards of different shapes compare) whose marks differ.
fn changed_cells(
    a: &Ruleset,
    b: &Ruleset,
    da: &Diagram,
    db: &Diagram,
) -> Vec<(String, Vec<Mark>, Vec<Mark>)> {
    let mut names: Vec<String> = a.topo.cells().map(|c| a.topo.name(c)).collect();
    for c in b.topo.cells() {
        let n = b.topo.name(c);
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let marks = |r: &Ruleset, d: &Diagram, n: &str| -> Vec<Mark> {
        r.topo
            .parse_cell(n)
            .map(|c| d.marks(c).collect())
            .unwrap_or_default()
    };
    names
        .into_iter()
        .filter_map(|n| {
            let (x, y) = (marks(a, da, &n), marks(b, db, &n));
            (x != y).then_some((n, x, y))
        })
        .collect()
}

fn mark_list(m: &[Mark]) -> String {
    if m.is_empty() {
        "-".into()
    } else {
        m.iter().map(|k| k.name()).collect::<Vec<_>>().join("+")
    }
}

/// The diff as text: the changed pieces and diagrams with their cells, then the counts.
pub fn diff_text(d: &Diff) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} -> {}", d.names.0, d.names.1);
    if !d.removed.is_empty() {
        let _ = writeln!(out, "pieces only in the first: {}", d.removed.join(", "));
    }
    if !d.added.is_empty() {
        let _ = writeln!(out, "pieces only in the second: {}", d.added.join(", "));
    }
    let changed = d.changed();
    let _ = writeln!(
        out,
        "pieces whose diagrams changed: {}",
        if changed.is_empty() {
            "none".to_string()
        } else {
            changed.join(", ")
        }
    );
    for c in &d.diagrams {
        if let Some(p) = &c.problem {
            let _ = writeln!(out, "  {}, {}: {p}", c.piece, c.what);
        } else if !c.cells.is_empty() {
            let _ = writeln!(
                out,
                "  {}, {}: {} cell{} changed",
                c.piece,
                c.what,
                c.cells.len(),
                if c.cells.len() == 1 { "" } else { "s" }
            );
            for (n, x, y) in &c.cells {
                let _ = writeln!(out, "    {n}: {} -> {}", mark_list(x), mark_list(y));
            }
        }
    }
    let compared = d.diagrams.len();
    let _ = writeln!(out, "diagrams compared: {compared}");
    let _ = writeln!(
        out,
        "first turns from the start: {} -> {}",
        d.first_turns.0, d.first_turns.1
    );
    if let Some((x, y)) = d.perft2 {
        let _ = writeln!(out, "perft 2 from the start: {x} -> {y}");
    }
    out
}

/// The diff as JSON: `{"changed":[ids], "removed", "added", "diagrams":[…], "first_turns",
/// "perft2"}`.
pub fn diff_json(d: &Diff) -> String {
    let diagrams: Vec<serde_json::Value> = d
        .diagrams
        .iter()
        .filter(|c| !c.cells.is_empty() || c.problem.is_some())
        .map(|c| {
            let mut cells = serde_json::Map::new();
            for (n, x, y) in &c.cells {
                cells.insert(
                    n.clone(),
                    serde_json::json!({
                        "before": x.iter().map(|m| m.name()).collect::<Vec<_>>(),
                        "after": y.iter().map(|m| m.name()).collect::<Vec<_>>(),
                    }),
                );
            }
            serde_json::json!({
                "piece": c.piece,
                "diagram": c.what,
                "cells": cells,
                "problem": c.problem,
            })
        })
        .collect();
    serde_json::json!({
        "changed": d.changed(),
        "removed": d.removed,
        "added": d.added,
        "diagrams": diagrams,
        "compared": d.diagrams.len(),
        "first_turns": [d.first_turns.0, d.first_turns.1],
        "perft2": d.perft2.map(|(x, y)| [x, y]),
    })
    .to_string()
}

/// The diff as files: `index.html` with every changed diagram old and new side by side (the
/// changed cells outlined in cyan) and their SVG files.
pub fn diff_html(d: &Diff) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0} to {1}</title>\n<style>\nbody {{ font-family: sans-serif; margin: 2em; color: #222; }}\n.pair {{ display: flex; gap: 2em; flex-wrap: wrap; }}\nfigure {{ margin: 0; }}\nfigure img {{ width: 24em; }}\ntable {{ border-collapse: collapse; }}\ntd, th {{ border: 1px solid #ccc; padding: .2em .6em; }}\n</style>\n</head>\n<body>\n<h1>{0} → {1}</h1>\n<p>Each changed diagram before and after; the changed cells are outlined in cyan.</p>\n",
        super::escape_xml(&d.names.0),
        super::escape_xml(&d.names.1)
    );
    let _ = writeln!(
        html,
        "<table><tr><th></th><th>{}</th><th>{}</th></tr><tr><td>first turns</td><td>{}</td><td>{}</td></tr>",
        super::escape_xml(&d.names.0),
        super::escape_xml(&d.names.1),
        d.first_turns.0,
        d.first_turns.1
    );
    if let Some((x, y)) = d.perft2 {
        let _ = writeln!(html, "<tr><td>perft 2</td><td>{x}</td><td>{y}</td></tr>");
    }
    let _ = writeln!(html, "</table>");
    let changed = d.changed();
    if changed.is_empty() {
        let _ = writeln!(html, "<p>No diagram changed.</p>");
    }
    for (i, c) in d
        .diagrams
        .iter()
        .filter(|c| !c.cells.is_empty() || c.problem.is_some())
        .enumerate()
    {
        let _ = writeln!(
            html,
            "<h2>{}: {}</h2>",
            super::escape_xml(&c.piece),
            super::escape_xml(&c.what)
        );
        if let Some(p) = &c.problem {
            let _ = writeln!(html, "<p>{}</p>", super::escape_xml(p));
            continue;
        }
        if let Some((old, new)) = &c.svg {
            let (fa, fb) = (
                format!("diff-{i}-before.svg"),
                format!("diff-{i}-after.svg"),
            );
            let _ = writeln!(
                html,
                "<div class=\"pair\"><figure><img src=\"{fa}\" alt=\"before\"><figcaption>{}</figcaption></figure><figure><img src=\"{fb}\" alt=\"after\"><figcaption>{}</figcaption></figure></div>",
                super::escape_xml(&d.names.0),
                super::escape_xml(&d.names.1)
            );
            files.push((fa, old.clone()));
            files.push((fb, new.clone()));
        }
        let _ = writeln!(html, "<ul>");
        for (n, x, y) in &c.cells {
            let _ = writeln!(
                html,
                "<li>{n}: {} → {}</li>",
                super::escape_xml(&mark_list(x)),
                super::escape_xml(&mark_list(y))
            );
        }
        let _ = writeln!(html, "</ul>");
    }
    let _ = writeln!(html, "</body>\n</html>");
    files.push(("index.html".into(), html));
    files
}
