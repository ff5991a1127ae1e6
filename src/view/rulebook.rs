//! The generated rulebook: scenario files (a position, a cell, the rulings it shows and a
//! caption) and an HTML page with every piece's definition, its empty-board diagram and its
//! scenario diagrams as SVG.

use std::fmt::Write as _;
use std::sync::Arc;

use serde::Deserialize;

use crate::board::{Cell, Side};
use crate::core::PieceKindId;
use crate::position::{Occupant, Position};
use crate::rules::Ruleset;
use crate::text;
use crate::view as render;
use crate::vm::Stop;

/// Scenario files bundled with the bundled variants, by variant name.
pub const BUNDLED_SCENARIOS: &[(&str, &str)] = &[
    (
        "bollwerk178",
        include_str!("../../variants/bollwerk178.scenarios.toml"),
    ),
    (
        "waterloo",
        include_str!("../../variants/waterloo.scenarios.toml"),
    ),
];

/// One rulebook diagram as data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Scenario {
    /// A short name, used for file names.
    pub name: String,
    /// The cell of the piece whose options are shown.
    pub at: String,
    /// The rulings it shows.
    #[serde(default)]
    pub rulings: Vec<String>,
    /// The position, as position text.
    pub position: String,
    /// What the diagram shows, in our own words.
    pub caption: String,
    /// The rulebook section it belongs to; the piece's name when absent.
    pub section: Option<String>,
    /// What the caption claims, as data: a mark (`capture`, `bomb`, … as in diagram JSON) and
    /// exactly the cells that carry it. Checked against the diagram whenever the rulebook is
    /// made.
    #[serde(default)]
    pub claims: indexmap::IndexMap<String, Vec<String>>,
}

/// The claims of a scenario that its diagram contradicts, each in words: the mark, the cells
/// claimed and the cells the diagram shows.
pub fn contradictions(rules: &Ruleset, s: &Scenario, pr: &Prepared) -> Vec<String> {
    let mut out = Vec::new();
    for (mark, cells) in &s.claims {
        let Some(m) = render::Mark::ALL.into_iter().find(|m| m.name() == mark) else {
            out.push(format!("`{mark}` is not a diagram mark"));
            continue;
        };
        let mut shown: Vec<String> = pr
            .diagram
            .cells_with(m)
            .into_iter()
            .map(|c| rules.topo.name(c))
            .collect();
        shown.sort();
        let mut claimed: Vec<String> = cells.iter().map(|c| c.to_ascii_uppercase()).collect();
        claimed.sort();
        let shown_upper: Vec<String> = shown.iter().map(|c| c.to_ascii_uppercase()).collect();
        if shown_upper != claimed {
            out.push(format!(
                "{mark}: the caption claims {}, the diagram shows {}",
                list_or_none(cells),
                list_or_none(&shown)
            ));
        }
    }
    out
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(" ")
    }
}

/// The rulebook's files and the captions its diagrams contradict (`scenario: claim`).
#[derive(Debug, Clone, Default)]
pub struct Rulebook {
    /// File name and text, `index.html` last.
    pub files: Vec<RulebookFile>,
    /// Every contradicted claim, `scenario NAME: …`.
    pub contradictions: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    #[serde(default)]
    scenario: Vec<Scenario>,
}

/// Reads a scenario file.
pub fn parse_scenarios(text: &str) -> Result<Vec<Scenario>, String> {
    toml::from_str::<ScenarioFile>(text)
        .map(|f| f.scenario)
        .map_err(|e| e.to_string())
}

/// The bundled scenarios of a bundled variant (none for other variants).
pub fn bundled_scenarios(variant: &str) -> Vec<Scenario> {
    BUNDLED_SCENARIOS
        .iter()
        .find(|(n, _)| *n == variant)
        .map(|(_, t)| parse_scenarios(t).expect("bundled scenarios are valid"))
        .unwrap_or_default()
}

/// A scenario made ready to draw.
pub struct Prepared {
    /// Its position.
    pub pos: Position,
    /// Its piece's cell.
    pub at: Cell,
    /// The diagram.
    pub diagram: render::Diagram,
}

/// Checks a scenario against the rules: the position reads, the cell holds a piece. Its
/// diagram's programs run under `stop`, if given.
pub fn prepare(
    rules: &Ruleset,
    s: &Scenario,
    stop: Option<&Arc<Stop>>,
) -> Result<Prepared, String> {
    let pos = text::parse_position(rules, &s.position)
        .map_err(|e| format!("scenario {}: {e}", s.name))?;
    let at = rules
        .topo
        .parse_cell(&s.at)
        .map_err(|e| format!("scenario {}: {e}", s.name))?;
    let diagram = render::diagram_under(rules, &pos, at, stop).map_err(|e| match e {
        render::DiagramError::NoPiece => format!("scenario {}: no piece on {}", s.name, s.at),
        render::DiagramError::Runaway(r) => format!("scenario {}: {}", s.name, r.message(rules)),
    })?;
    Ok(Prepared { pos, at, diagram })
}

/// The cell nearest the middle of the board (for empty-board diagrams).
pub fn central_cell(rules: &Ruleset) -> Cell {
    let t = &rules.topo;
    t.cells()
        .min_by(|&a, &b| {
            t.distance_from_centre(a)
                .total_cmp(&t.distance_from_centre(b))
                .then(a.cmp(&b))
        })
        .unwrap_or_default()
}

/// One file of the rulebook: its name and its text.
pub type RulebookFile = (String, String);

/// The rulebook in memory: `index.html` (last) and the SVG files it shows, each with its file
/// name. Nothing is written; the command line writes them. Its programs run under `stop`, if
/// given.
pub fn rulebook(
    rules: &Ruleset,
    scenarios: &[Scenario],
    stop: Option<&Arc<Stop>>,
) -> Result<Rulebook, String> {
    let mut written: Vec<RulebookFile> = Vec::new();
    let mut write = |name: &str, text: &str| -> Result<(), String> {
        written.push((name.to_string(), text.to_string()));
        Ok(())
    };
    distinct_file_names(scenarios)?;
    let prepared: Vec<(&Scenario, Prepared)> = scenarios
        .iter()
        .map(|s| prepare(rules, s, stop).map(|p| (s, p)))
        .collect::<Result<_, _>>()?;
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0} rulebook</title>\n<style>\nbody {{ font-family: sans-serif; max-width: 60em; margin: 2em auto; color: #222; }}\npre {{ background: #f4f4f4; padding: .6em; overflow-x: auto; }}\nfigure {{ display: inline-block; margin: 1em; vertical-align: top; max-width: 30em; }}\nfigure img {{ width: 24em; height: auto; }}\nfigcaption {{ font-size: .9em; }}\n.rulings {{ color: #666; }}\n.contradiction {{ border: 2px solid #c1121f; background: #fff0f0; padding: .4em .8em; margin: .5em 0; }}\n</style>\n</head>\n<body>\n<h1>{0}</h1>\n<p>{1}</p>\n<p>Generated by bulwark from the variant file: every diagram below is computed from the definitions, so it always shows what the file says.</p>\n",
        super::escape_xml(&rules.name),
        super::escape_xml(&rules.description)
    );
    let _ = writeln!(
        html,
        "<h2>Contents</h2>\n<ul>\n<li><a href=\"#rules\">The rules</a></li>"
    );
    for p in &rules.pieces {
        let _ = writeln!(
            html,
            "<li><a href=\"#{}\">{} ({})</a></li>",
            p.id,
            super::escape_xml(&p.name),
            p.letter
        );
    }
    // The sections the scenarios add, in their order.
    let extra = extra_sections(&prepared);
    for sec in &extra {
        let _ = writeln!(
            html,
            "<li><a href=\"#section-{}\">{}</a></li>",
            slug(sec),
            super::escape_xml(sec)
        );
    }
    let _ = writeln!(html, "</ul>");
    write(
        "board.svg",
        &render::board_svg(rules, &rules.setup, &format!("{}: the start", rules.name)),
    )?;
    let _ = writeln!(
        html,
        "<h2 id=\"rules\">The rules</h2>\n<figure><img src=\"board.svg\" alt=\"the board and the starting array\"><figcaption>The board and the starting array, with every region drawn.</figcaption></figure>"
    );
    for (title, text) in super::words::rules_in_words(rules) {
        let _ = writeln!(
            html,
            "<h3>{}</h3>\n<p>{}</p>",
            super::escape_xml(&title),
            super::escape_xml(&text)
        );
    }
    let _ = writeln!(
        html,
        "<h2>The pieces</h2>\n<p>Each diagram shows where the piece may go; the legend is at the end of the page.</p>"
    );
    let centre = central_cell(rules);
    for k in 0..rules.pieces.len() {
        piece_section(&mut html, &mut write, rules, k, &prepared, centre, stop)?;
    }
    for sec in extra {
        let _ = writeln!(
            html,
            "<h2 id=\"section-{}\">{}</h2>",
            slug(sec),
            super::escape_xml(sec)
        );
        for (s, pr) in prepared
            .iter()
            .filter(|(s, _)| s.section.as_deref() == Some(sec))
        {
            figure(&mut html, &mut write, rules, s, pr)?;
        }
    }
    // The legend as the diagrams draw their marks: pictures, not the text diagrams' signs.
    let _ = writeln!(
        html,
        "<h2>Legend</h2>\n<figure id=\"legend\">{}</figure>\n</body>\n</html>",
        render::legend_svg(rules)
    );
    write("index.html", &html)?;
    let contradictions = prepared
        .iter()
        .flat_map(|(sc, pr)| {
            contradictions(rules, sc, pr)
                .into_iter()
                .map(move |c| format!("scenario {}: {c}", sc.name))
        })
        .collect();
    Ok(Rulebook {
        files: written,
        contradictions,
    })
}

/// Each scenario's picture is named after it: two names with one file name would overwrite
/// each other.
fn distinct_file_names(scenarios: &[Scenario]) -> Result<(), String> {
    let mut files: Vec<(String, &str)> = Vec::new();
    for s in scenarios {
        let f = slug(&s.name);
        if let Some((_, other)) = files.iter().find(|(g, _)| *g == f) {
            return Err(format!(
                "scenarios `{other}` and `{}` would both be drawn to scenario-{f}.svg: rename one",
                s.name
            ));
        }
        files.push((f, &s.name));
    }
    Ok(())
}

/// The sections the scenarios name (beside the pieces'), in their order.
fn extra_sections<'a>(prepared: &'a [(&Scenario, Prepared)]) -> Vec<&'a str> {
    let mut extra: Vec<&str> = Vec::new();
    for (s, _) in prepared {
        if let Some(sec) = &s.section
            && !extra.contains(&sec.as_str())
        {
            extra.push(sec);
        }
    }
    extra
}

/// One piece's section: its name, rulings, definition, empty-board diagram and scenarios.
fn piece_section(
    html: &mut String,
    write: &mut impl FnMut(&str, &str) -> Result<(), String>,
    rules: &Ruleset,
    k: usize,
    prepared: &[(&Scenario, Prepared)],
    centre: Cell,
    stop: Option<&Arc<Stop>>,
) -> Result<(), String> {
    let p = &rules.pieces[k];
    let _ = writeln!(
        html,
        "<h2 id=\"{}\">{} ({})</h2>",
        p.id,
        super::escape_xml(&p.name),
        p.letter
    );
    if !p.rulings.is_empty() {
        let _ = writeln!(
            html,
            "<p class=\"rulings\">Rulings: {}</p>",
            super::escape_xml(&p.rulings.join(", "))
        );
    }
    let range = match &p.range_text {
        Some(r) => format!(
            "<h4>Placement range</h4>\n<pre>{}</pre>",
            super::escape_xml(r)
        ),
        None => "<p>Its placement range is its movement.</p>".to_string(),
    };
    let _ = writeln!(
        html,
        "<details><summary>Definition (for designers)</summary>\n<h4>Movement</h4>\n<pre>{}</pre>\n{range}\n</details>",
        super::escape_xml(&p.moves_text)
    );
    let mut pos = Position::empty(rules.topo.len(), rules.initial_hand());
    pos.put(centre, Occupant::piece(Side::White, PieceKindId::new(k)));
    let d = render::diagram_under(rules, &pos, centre, stop).map_err(|e| match e {
        render::DiagramError::Runaway(r) => r.message(rules),
        render::DiagramError::NoPiece => format!("no {} on the centre cell", p.name),
    })?;
    let file = format!("{}-empty.svg", p.id);
    write(&file, &render::diagram_svg_bare(rules, &pos, &d))?;
    let _ = writeln!(
        html,
        "<figure><img src=\"{file}\" alt=\"{0} on an empty board\"><figcaption>The {0} on {1} of an empty board.</figcaption></figure>",
        super::escape_xml(&p.name),
        rules.topo.name(centre)
    );
    for (s, pr) in prepared
        .iter()
        .filter(|(s, pr)| s.section.is_none() && pr.diagram.kind == k)
    {
        figure(html, write, rules, s, pr)?;
    }
    Ok(())
}

fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

fn figure(
    html: &mut String,
    write: &mut impl FnMut(&str, &str) -> Result<(), String>,
    rules: &Ruleset,
    s: &Scenario,
    pr: &Prepared,
) -> Result<(), String> {
    let file = format!("scenario-{}.svg", slug(&s.name));
    write(
        &file,
        &render::diagram_svg_bare(rules, &pr.pos, &pr.diagram),
    )?;
    let wrong = contradictions(rules, s, pr);
    if !wrong.is_empty() {
        let items: Vec<String> = wrong
            .iter()
            .map(|w| format!("<li>{}</li>", super::escape_xml(w)))
            .collect();
        let _ = writeln!(
            html,
            "<div class=\"contradiction\"><strong>This caption no longer matches its diagram under these rules:</strong><ul>{}</ul></div>",
            items.join("")
        );
    }
    let rulings = if s.rulings.is_empty() {
        String::new()
    } else {
        format!(
            " <span class=\"rulings\">({})</span>",
            super::escape_xml(&s.rulings.join(", "))
        )
    };
    let _ = writeln!(
        html,
        "<figure><img src=\"{file}\" alt=\"{}\"><figcaption>{}{rulings}</figcaption></figure>",
        super::escape_xml(&s.name),
        super::escape_xml(s.caption.trim()),
    );
    Ok(())
}
