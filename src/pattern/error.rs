//! Why a pattern or a material cannot be read.

/// A pattern, material or colours value that cannot be used: what is
/// wrong, and the part of the text it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// What is wrong, e.g. `square 33 is not on the english board (1–32)`.
    pub problem: String,
    /// The part of the input it is about, e.g. `W33`; `None` when it is
    /// about the whole input.
    pub part: Option<String>,
}

impl PatternError {
    /// An error about `part` of the input.
    pub(crate) fn at(problem: impl Into<String>, part: impl Into<String>) -> PatternError {
        PatternError {
            problem: problem.into(),
            part: Some(part.into()),
        }
    }

    /// An error about the whole input.
    pub(crate) fn whole(problem: impl Into<String>) -> PatternError {
        PatternError {
            problem: problem.into(),
            part: None,
        }
    }
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.part {
            Some(part) => write!(f, "{}, in \"{part}\"", self.problem),
            None => f.write_str(&self.problem),
        }
    }
}

impl std::error::Error for PatternError {}
