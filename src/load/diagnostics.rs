//! What the loader reports: one problem per mistake, each with a code, a span, a label and a
//! help text; all of a file's problems in one report.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceSpan};

use super::MAX_PROBLEMS_SHOWN;

/// One problem in a variant file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Stable code, e.g. `bulwark::variant::duplicate_letter`.
    pub code: String,
    /// What is wrong.
    pub message: String,
    /// Where, in bytes of the file.
    pub span: (usize, usize),
    /// Text at the span.
    pub label: String,
    /// How to fix it.
    pub help: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

impl Diagnostic for Problem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.help.is_empty()).then(|| Box::new(&self.help) as Box<dyn fmt::Display>)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = SourceSpan::new(self.span.0.into(), self.span.1.saturating_sub(self.span.0));
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(self.label.clone()),
            span,
        ))))
    }
}

/// Every problem found in one variant file.
#[derive(Debug)]
pub struct VariantErrors {
    pub(crate) src: NamedSource<String>,
    /// The problems in file order.
    pub problems: Vec<Problem>,
}

impl fmt::Display for VariantErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        write!(
            f,
            "variant file {} has {n} problem{}",
            self.src.name(),
            if n == 1 { "" } else { "s" }
        )?;
        if n > MAX_PROBLEMS_SHOWN {
            write!(f, " (the first {MAX_PROBLEMS_SHOWN} are shown)")?;
        }
        Ok(())
    }
}

impl std::error::Error for VariantErrors {}

impl Diagnostic for VariantErrors {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("bulwark::variant"))
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(
            self.problems
                .iter()
                .take(MAX_PROBLEMS_SHOWN)
                .map(|p| p as &dyn Diagnostic),
        ))
    }
}

/// A variant that could not be loaded.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read variant file `{path}`: {message}")]
    #[diagnostic(
        code(bulwark::variant::io),
        help("give a path to a variant file or a bundled name: {known}")
    )]
    Io {
        /// The path given.
        path: String,
        /// The system's message.
        message: String,
        /// Bundled names.
        known: String,
    },
    /// The file has problems.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Invalid(VariantErrors),
}
