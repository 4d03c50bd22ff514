//! Positions in the input and the diagnostics the reader reports.
//!
//! The reader never fails on the text it reads: what it cannot read, or reads
//! with doubt, becomes a [`Diagnostic`] attached to the game it concerns. Only
//! I/O errors of the underlying reader stop it.

use std::fmt;

/// Where something stands in the input.
///
/// `byte` is a 0-based offset into the input (a byte-order mark counts as
/// three bytes). `line` and `column` are 1-based; lines end at `\n` (so CRLF
/// ends a line once) and columns count characters, not bytes (a byte-order
/// mark is not a character).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// 0-based byte offset in the input.
    pub byte: u64,
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
}

impl Position {
    /// The start of the input: byte 0, line 1, column 1.
    pub const START: Position = Position {
        byte: 0,
        line: 1,
        column: 1,
    };
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

impl fmt::Display for Position {
    /// `line:column`, the form people and editors expect.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The text was read, but something in it is dubious or was skipped on
    /// purpose (junk between games, a malformed or repeated tag, a missing
    /// result, a limit reached). The game's moves are read all the same.
    Warning,
    /// Part of the movetext could not be read as what it should be (an
    /// unterminated comment, which may hold moves); the reader went on
    /// after it.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// A message for a person about the input, with where it applies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// Where in the input it applies.
    pub position: Position,
    /// The 1-based index of the game it belongs to; `None` for text after
    /// the last game of the input.
    pub game: Option<u64>,
    /// What happened, in words.
    pub message: String,
}

impl Diagnostic {
    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `line:column: game N: severity: message` (callers prepend the file
    /// name to get the `file:line:col: message` form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.position)?;
        if let Some(game) = self.game {
            write!(f, "game {game}: ")?;
        }
        write!(f, "{}: {}", self.severity, self.message)
    }
}

/// A diagnostic before it knows its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Note {
    pub severity: Severity,
    pub position: Position,
    pub message: String,
}

impl Note {
    pub fn warning(position: Position, message: impl Into<String>) -> Note {
        Note {
            severity: Severity::Warning,
            position,
            message: message.into(),
        }
    }

    pub fn error(position: Position, message: impl Into<String>) -> Note {
        Note {
            severity: Severity::Error,
            position,
            message: message.into(),
        }
    }

    pub fn into_diagnostic(self, game: Option<u64>) -> Diagnostic {
        Diagnostic {
            severity: self.severity,
            position: self.position,
            game,
            message: self.message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_reads_like_a_compiler_message() {
        let d = Diagnostic {
            severity: Severity::Error,
            position: Position {
                byte: 120,
                line: 7,
                column: 12,
            },
            game: Some(3),
            message: "unterminated comment started here".into(),
        };
        assert_eq!(
            d.to_string(),
            "7:12: game 3: error: unterminated comment started here"
        );
        assert!(d.is_error());
        let trailing = Diagnostic { game: None, ..d };
        assert_eq!(
            trailing.to_string(),
            "7:12: error: unterminated comment started here"
        );
    }

    #[test]
    fn positions_order_by_byte() {
        let a = Position::START;
        let b = Position {
            byte: 5,
            line: 1,
            column: 6,
        };
        assert!(a < b);
        assert_eq!(Position::default(), a);
    }
}
