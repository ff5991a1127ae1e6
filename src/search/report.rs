//! The page of a comparison (`compare --html DIR`): White's score over the games with its
//! interval band, histograms of game lengths, piece use, and every figure with its test, rule
//! set A and B side by side. One self-contained HTML file with inline SVG: no script, no
//! network.

use std::fmt::Write as _;

use super::selfplay::{Comparison, MatchConfig, Record};
use super::stats;

const A_COLOUR: &str = "#2b6cb0";
const B_COLOUR: &str = "#c05621";

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// White's running score after each game, with its 95% interval.
fn running(recs: &[Record]) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::with_capacity(recs.len());
    let (mut sum, mut sq) = (0.0, 0.0);
    for (i, r) in recs.iter().enumerate() {
        let x = r.white_score();
        sum += x;
        sq += x * x;
        let n = (i + 1) as f64;
        let mean = sum / n;
        let var = if i > 0 {
            ((sq - n * mean * mean) / (n - 1.0)).max(0.0)
        } else {
            0.25
        };
        let half = stats::t975(i as u64).min(4.0) * (var / n).sqrt();
        out.push((mean, (mean - half).max(0.0), (mean + half).min(1.0)));
    }
    out
}

/// The score chart: both rule sets' running scores and bands on one plot.
fn score_chart(a: &[Record], b: &[Record]) -> String {
    let (w, h, pad) = (640.0, 260.0, 36.0);
    let n = a.len().max(b.len()).max(2);
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / (n - 1) as f64;
    let y = |v: f64| h - pad - (h - 2.0 * pad) * v;
    let mut svg = format!(
        r#"<svg id="score-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="White's score over the games">"#
    );
    for v in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = write!(
            svg,
            r##"<line x1="{pad}" x2="{}" y1="{yv}" y2="{yv}" stroke="#ddd"/><text x="4" y="{}" font-size="11">{v:.2}</text>"##,
            w - pad,
            y(v) + 4.0,
            yv = y(v)
        );
    }
    for (recs, colour, id) in [(a, A_COLOUR, "a"), (b, B_COLOUR, "b")] {
        let r = running(recs);
        if r.is_empty() {
            continue;
        }
        let upper: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.2)))
            .collect();
        let lower: Vec<String> = r
            .iter()
            .enumerate()
            .rev()
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.1)))
            .collect();
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.0)))
            .collect();
        let _ = write!(
            svg,
            r#"<polygon class="band band-{id}" points="{} {}" fill="{colour}" fill-opacity="0.15"/><polyline class="score score-{id}" points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            upper.join(" "),
            lower.join(" "),
            line.join(" ")
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{}" y="{}" font-size="11" text-anchor="end">games →</text></svg>"#,
        w - pad,
        h - 8.0
    );
    svg
}

/// A histogram of game lengths for one rule set, on bins shared with the other.
fn length_histogram(recs: &[Record], max_len: usize, colour: &str, id: &str) -> String {
    let bins = 20usize;
    let width = max_len.div_ceil(bins).max(1);
    let mut counts = vec![0usize; bins];
    for r in recs {
        counts[(r.moves.len() / width).min(bins - 1)] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    let (w, h, pad) = (300.0, 160.0, 24.0);
    let bw = (w - 2.0 * pad) / bins as f64;
    let mut svg = format!(
        r#"<svg class="lengths" id="lengths-{id}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="game lengths">"#
    );
    for (i, &c) in counts.iter().enumerate() {
        let bh = (h - 2.0 * pad) * c as f64 / top as f64;
        let _ = write!(
            svg,
            r#"<rect class="bar" x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="{colour}"><title>{}–{} turns: {c} games</title></rect>"#,
            pad + bw * i as f64,
            h - pad - bh,
            bw - 1.0,
            i * width,
            (i + 1) * width - 1
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{pad}" y="{}" font-size="11">0</text><text x="{}" y="{}" font-size="11" text-anchor="end">{} turns</text></svg>"#,
        h - 6.0,
        w - pad,
        h - 6.0,
        width * bins
    );
    svg
}

/// Piece use: each kind's share of turns in A and in B, as paired bars.
fn piece_chart(cmp: &Comparison) -> String {
    let rows: Vec<&super::selfplay::Secondary> = cmp
        .secondary
        .iter()
        .filter(|s| s.name.starts_with("share of turns: "))
        .collect();
    let top = rows
        .iter()
        .map(|s| s.a.max(s.b))
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let (w, row_h, label) = (640.0, 26.0, 180.0);
    let h = row_h * rows.len() as f64 + 10.0;
    let mut svg = format!(
        r#"<svg id="pieces-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="piece use">"#
    );
    for (i, s) in rows.iter().enumerate() {
        let y0 = 5.0 + row_h * i as f64;
        let name = s.name.trim_start_matches("share of turns: ");
        let _ = write!(
            svg,
            r#"<text x="0" y="{:.1}" font-size="12">{}{}</text>"#,
            y0 + 15.0,
            esc(name),
            if s.significant { " *" } else { "" }
        );
        for (j, (v, colour)) in [(s.a, A_COLOUR), (s.b, B_COLOUR)].into_iter().enumerate() {
            let bw = (w - label - 60.0) * v / top;
            let _ = write!(
                svg,
                r#"<rect class="piece-bar" x="{label}" y="{:.1}" width="{bw:.1}" height="10" fill="{colour}"><title>{:.1}%</title></rect>"#,
                y0 + 11.0 * j as f64,
                100.0 * v
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

/// The whole page.
pub fn compare_page(cmp: &Comparison, a: &[Record], b: &[Record], cfg: &MatchConfig) -> String {
    let (sa, la, ha) = cmp.a.white_score();
    let (sb, lb, hb) = cmp.b.white_score();
    let d = &cmp.score;
    let max_len = a
        .iter()
        .chain(b)
        .map(|r| r.moves.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let mut rows = String::new();
    for s in &cmp.secondary {
        let (fa, fb) = if s.name.starts_with("mean length") {
            (format!("{:.1}", s.a), format!("{:.1}", s.b))
        } else {
            (
                format!("{:.1}%", 100.0 * s.a),
                format!("{:.1}%", 100.0 * s.b),
            )
        };
        let _ = write!(
            rows,
            r#"<tr class="{}"><td>{}</td><td>{fa}</td><td>{fb}</td><td>{:.4}</td><td>{}</td></tr>"#,
            if s.significant { "significant" } else { "" },
            esc(&s.name),
            s.p,
            if s.significant { "yes" } else { "" }
        );
    }
    let sprt = cmp.sprt.map_or(String::new(), |(v, delta, _, _)| {
        format!(
            "<p id=\"sprt\">Sequential test for a difference of {delta}: {}.</p>",
            match v {
                stats::Sprt::Different => "stopped, the scores differ",
                stats::Sprt::Same => "stopped, no difference that large",
                stats::Sprt::Continue => "undecided when the games ran out",
            }
        )
    });
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bulwark compare: {na} against {nb}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; max-width: 1400px; overflow-wrap: anywhere; }}
.pair {{ display: flex; flex-wrap: wrap; gap: 2em; }}
.pair > div {{ flex: 1 1 300px; min-width: 0; }}
svg {{ max-width: 100%; height: auto; }}
table {{ border-collapse: collapse; }} td, th {{ padding: 2px 10px; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; }}
tr.significant {{ font-weight: bold; }}
.a {{ color: {A_COLOUR}; }} .b {{ color: {B_COLOUR}; }}
</style></head><body>
<h1>{na} against {nb}</h1>
<p><span class="a">A: {na}</span> ({va}) — <span class="b">B: {nb}</span> ({vb}). {games} games each, white {white} against black {black}, openings of {plies} random plies, each played twice with the colours swapped.</p>
<h2>White's score</h2>
<p id="scores"><span class="a">A {sa:.3} (95%: {la:.3}–{ha:.3})</span>, <span class="b">B {sb:.3} (95%: {lb:.3}–{hb:.3})</span>.
Difference B − A: <strong id="difference">{dm:+.3}</strong> (95%: {dl:+.3} to {dh:+.3}, over {dn} openings): <strong id="verdict">{verdict}</strong>.</p>
{sprt}
{score_chart}
<h2>Game lengths</h2>
<div class="pair"><div><h3 class="a">A</h3>{len_a}</div><div><h3 class="b">B</h3>{len_b}</div></div>
<h2>Piece use (share of turns)</h2>
{pieces}
<h2>Every figure</h2>
<table id="figures"><tr><th></th><th class="a">A</th><th class="b">B</th><th>p</th><th>significant</th></tr>{rows}</table>
<p>Significant: White's score when the interval of its difference over paired openings excludes 0; the other figures by tests with the game as the unit, Holm-corrected for their number, at 5%.</p>
</body></html>
"#,
        na = esc(&cmp.names.0),
        nb = esc(&cmp.names.1),
        va = esc(&cmp.a.variant),
        vb = esc(&cmp.b.variant),
        games = cmp.a.games,
        white = esc(&cfg.white.text()),
        black = esc(&cfg.black.text()),
        plies = cfg.openings,
        dm = d.mean,
        dl = d.low,
        dh = d.high,
        dn = d.n,
        verdict = if d.significant() {
            "significant"
        } else {
            "not significant"
        },
        score_chart = score_chart(a, b),
        len_a = length_histogram(a, max_len, A_COLOUR, "a"),
        len_b = length_histogram(b, max_len, B_COLOUR, "b"),
        pieces = piece_chart(cmp),
    )
}
