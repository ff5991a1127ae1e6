//! What the loader reports: one problem per mistake, each with a code, a span, a label and a
//! help text; all of a file's problems in one report.

use std::fmt;

use miette::{Diagnostic, NamedSource};

use super::MAX_PROBLEMS_SHOWN;

/// One problem in a variant file (the crate's one diagnostic type).
pub type Problem = crate::core::Diagnostic;

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
        let what = if self
            .problems
            .iter()
            .all(|p| p.severity == crate::core::Severity::Warning)
        {
            "warning"
        } else {
            "problem"
        };
        write!(
            f,
            "variant file {} has {n} {what}{}",
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
    fn severity(&self) -> Option<miette::Severity> {
        let warnings = self
            .problems
            .iter()
            .all(|p| p.severity == crate::core::Severity::Warning);
        Some(if warnings {
            miette::Severity::Warning
        } else {
            miette::Severity::Error
        })
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
        help("give a path to a variant file or a bundled name ({known})")
    )]
    Io {
        /// The path given.
        path: String,
        /// The system's message.
        message: String,
        /// The bundled names, with the closest to the path given first if one is close.
        known: String,
    },
    /// The file has problems.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Invalid(VariantErrors),
}
