//! Diagnostics about very long lines, made safe to render: the graphical renderer cannot point
//! past column 65,535 (it panics), and a 70,000-character line is no help to read anyway. A
//! diagnostic whose labels lie on a line longer than [`LONG_LINE`] bytes is shown with a window
//! of the text around each label instead of the whole line, marked `…` where it was cut.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode, SourceSpan};

/// Lines longer than this are cut around the labels.
pub const LONG_LINE: usize = 1_000;

/// Bytes of text kept on each side of a label.
const AROUND: usize = 60;

/// The most bytes of a label itself that are kept.
const LABEL_MOST: usize = 200;

/// A diagnostic with its long lines cut, and its related diagnostics likewise.
pub struct Clipped<'a> {
    inner: &'a dyn Diagnostic,
    /// The cut text and the labels moved into it; `None` when nothing needed cutting.
    cut: Option<(NamedSource<String>, Vec<LabeledSpan>)>,
    related: Vec<Clipped<'a>>,
}

impl<'a> Clipped<'a> {
    /// Wraps a diagnostic (and its related ones).
    pub fn new(inner: &'a dyn Diagnostic) -> Clipped<'a> {
        Clipped::within(inner, None)
    }

    /// Wraps a diagnostic whose labels point into `inherited` when it has no text of its own
    /// (a related diagnostic points into its parent's).
    fn within(inner: &'a dyn Diagnostic, inherited: Option<&'a dyn SourceCode>) -> Clipped<'a> {
        let src = inner.source_code().or(inherited);
        Clipped {
            inner,
            cut: src.and_then(|s| cut(inner, s)),
            related: inner
                .related()
                .map(|r| r.map(|d| Clipped::within(d, src)).collect())
                .unwrap_or_default(),
        }
    }
}

/// The largest char boundary at or below `i`.
fn floor(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary at or above `i`.
fn ceil(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The cut text and labels of a diagnostic that points into a long line, if it does.
fn cut(
    d: &dyn Diagnostic,
    src: &dyn SourceCode,
) -> Option<(NamedSource<String>, Vec<LabeledSpan>)> {
    let labels: Vec<LabeledSpan> = d.labels()?.collect();
    let mut windows = Vec::new();
    let mut name = None;
    let mut long = false;
    let mut place = None;
    for l in &labels {
        // One line of context before: the data then starts at a line start.
        let Ok(c) = src.read_span(l.inner(), 1, 0) else {
            continue;
        };
        name = name.or_else(|| c.name().map(str::to_string));
        let Ok(text) = std::str::from_utf8(c.data()) else {
            continue;
        };
        let base = c.span().offset();
        long |= text.lines().any(|line| line.len() > LONG_LINE);
        // The label within the lines read, then a window around it on its own line.
        let start = l.offset().saturating_sub(base).min(text.len());
        let end = (start + l.len().min(LABEL_MOST)).min(text.len());
        let line_start = text[..floor(text, start)].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[floor(text, start)..]
            .find('\n')
            .map_or(text.len(), |i| floor(text, start) + i);
        let from = floor(text, start.saturating_sub(AROUND).max(line_start));
        let to = ceil(text, (end + AROUND).min(line_end).max(from));
        let (s, e) = (floor(text, start).max(from), ceil(text, end).min(to));
        if place.is_none() {
            let line = c.line() + 1 + text[..line_start].matches('\n').count();
            let column = text[line_start..s].chars().count() + 1;
            place = Some((line, column));
        }
        windows.push((
            text[from..to].to_string(),
            from > line_start,
            to < line_end,
            s - from,
            e - s,
            l.label().map(str::to_string),
        ));
    }
    if !long {
        return None;
    }
    let mut out = String::new();
    let mut moved = Vec::new();
    for (text, cut_before, cut_after, at, len, label) in windows {
        if !out.is_empty() {
            out.push('\n');
        }
        if cut_before {
            out.push('…');
        }
        let offset = out.len() + at;
        out.push_str(&text);
        if cut_after {
            out.push('…');
        }
        moved.push(LabeledSpan::new_with_span(
            label,
            SourceSpan::new(offset.into(), len),
        ));
    }
    let name = name.unwrap_or_default();
    let (line, column) = place.unwrap_or((1, 1));
    Some((
        NamedSource::new(
            format!("{name}, line {line} column {column} (long lines cut)"),
            out,
        ),
        moved,
    ))
}

impl fmt::Debug for Clipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.inner, f)
    }
}

impl fmt::Display for Clipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.inner, f)
    }
}

impl std::error::Error for Clipped<'_> {}

impl Diagnostic for Clipped<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.help()
    }
    fn url<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.url()
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        match &self.cut {
            Some((src, _)) => Some(src),
            None => self.inner.source_code(),
        }
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        match &self.cut {
            Some((_, labels)) => Some(Box::new(labels.iter().cloned())),
            None => self.inner.labels(),
        }
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
    }
    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.inner.diagnostic_source()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error, miette::Diagnostic)]
    #[error("bad")]
    struct Bad {
        #[source_code]
        src: NamedSource<String>,
        #[label("here")]
        at: SourceSpan,
    }

    #[test]
    fn a_label_past_column_65535_is_shown_in_a_window() {
        let text = format!("{}xx\nnext line", " ".repeat(70_000));
        let d = Bad {
            src: NamedSource::new("input", text),
            at: SourceSpan::new(70_000.into(), 2),
        };
        let c = Clipped::new(&d);
        assert!(c.cut.is_some());
        let out = crate::view::diagnostic_text(&d);
        assert!(out.contains("xx"), "{out}");
        assert!(
            out.contains("line 1 column 70001 (long lines cut)"),
            "{out}"
        );
        assert!(out.len() < 2_000, "{out}");
    }
}
