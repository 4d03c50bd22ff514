//! Output that never panics: messages to standard error that ignore a
//! failed write, and standard output that a closed reader cannot make
//! change a command's exit status. Nothing read from a file reaches the
//! terminal as a control sequence: messages are made visible
//! (`escape::visible`) and JSON escapes every control character.

use std::io::{self, Write};

use super::error::CliError;
use crate::escape::visible;

/// Writes one line for people to standard error, its control characters
/// (from file names, tag values, tokens) shown as escapes (`\x1b`). A
/// failed write (standard error closed, or a pipe whose reader has gone)
/// is ignored: a message that cannot be shown must not end the command.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::output::say_line(format_args!($($arg)*))
    };
}

/// The line of `say!`, control characters made visible, written and
/// flushed; errors ignored.
pub fn say_line(args: std::fmt::Arguments<'_>) {
    let line = args.to_string();
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{}", visible(&line));
    let _ = err.flush();
}

/// JSON as `serde_json` writes it compactly, with DEL and the C1 controls
/// (U+007F–U+009F) also escaped (`\u009b`), as it escapes the others: a
/// JSON line holds no control character a terminal would act on, and
/// reads back as the same value.
pub struct JsonForTerminal;

impl serde_json::ser::Formatter for JsonForTerminal {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if ('\u{7f}'..='\u{9f}').contains(&c) {
                writer.write_all(&fragment.as_bytes()[start..i])?;
                write!(writer, "\\u{:04x}", u32::from(c))?;
                start = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// Standard output for a command whose exit status depends on everything
/// it reads (`check`, `report`) or that must finish its work whatever
/// becomes of its output (`import`, `recheck`): once the reader of the
/// output has gone (a broken pipe), further output is dropped and the
/// command runs on, so it ends with the status it would have had.
pub struct Outlasting<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> Outlasting<W> {
    /// Output to `inner`.
    pub fn new(inner: W) -> Outlasting<W> {
        Outlasting {
            inner,
            closed: false,
        }
    }

    /// Whether the reader has gone.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// The error of a write, unless it is the reader going away.
    fn check(&mut self, result: io::Result<()>) -> io::Result<()> {
        match result {
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

impl<W: Write> Write for Outlasting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.write_all(buf);
        self.check(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        self.check(result)
    }
}

/// Writes one value as a line of JSON (the `--json` output of every
/// command), every control character in it escaped
/// ([`JsonForTerminal`]).
///
/// # Errors
/// A failed write.
pub fn write_json_line(
    out: &mut impl Write,
    value: &impl serde::Serialize,
) -> Result<(), CliError> {
    let mut json = serde_json::Serializer::with_formatter(&mut *out, JsonForTerminal);
    serde::Serialize::serialize(value, &mut json).map_err(io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes `room` bytes, then fails as a pipe without a reader does.
    struct Pipe {
        taken: Vec<u8>,
        room: usize,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.taken.len() >= self.room {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room - self.taken.len());
            self.taken.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn json_escapes_every_control_character_and_reads_back() {
        let value = serde_json::json!({"t": "a\u{1b}]0;x\u{7}b\u{7f}c\u{9b}2J é\t"});
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, JsonForTerminal);
        serde::Serialize::serialize(&value, &mut ser).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, r#"{"t":"a\u001b]0;x\u0007b\u007fc\u009b2J é\t"}"#);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn a_broken_pipe_drops_output_and_other_errors_stay() {
        let mut out = Outlasting::new(Pipe {
            taken: Vec::new(),
            room: 4,
        });
        writeln!(out, "one").unwrap();
        assert!(!out.closed());
        writeln!(out, "two").unwrap();
        writeln!(out, "three").unwrap();
        out.flush().unwrap();
        assert!(out.closed());
        assert_eq!(out.inner.taken, b"one\n");

        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut full = Outlasting::new(Full);
        assert!(writeln!(full, "x").is_err());
        assert!(!full.closed());
    }
}
