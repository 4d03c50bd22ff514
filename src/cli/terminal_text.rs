//! Text written to a terminal with its control characters made visible,
//! for commands that otherwise write what they read unchanged (`export`).

use std::io::{self, IsTerminal, Write};

use crate::escape::visible_lines;

/// Whether text for standard output is to be made visible: when it goes
/// to a terminal (not to a file or a pipe) and not to a file named by
/// the command.
pub fn escapes_for(stdout_is_terminal: bool, to_file: bool) -> bool {
    !to_file && stdout_is_terminal
}

/// Whether standard output is a terminal.
pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// A writer that passes its text on a line at a time with every control
/// character but tab, line feed and the carriage return of a line end
/// made visible (`\x1b`, `\u{9b}`; see [`crate::escape`]). Bytes that
/// are not UTF-8 are shown as `\xNN` too. What is left of a last line is
/// written on [`Write::flush`].
pub struct Visible<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> Visible<W> {
    /// Makes visible what is written to `inner`.
    pub fn new(inner: W) -> Visible<W> {
        Visible {
            inner,
            pending: Vec::new(),
        }
    }

    /// Writes the pending text up to its last line feed, or all of it.
    fn pass_on(&mut self, all: bool) -> io::Result<()> {
        let end = if all {
            self.pending.len()
        } else {
            match self.pending.iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => return Ok(()),
            }
        };
        let mut text = String::with_capacity(end);
        for chunk in self.pending[..end].utf8_chunks() {
            text.push_str(&visible_lines(chunk.valid()));
            for byte in chunk.invalid() {
                text.push_str(&format!("\\x{byte:02x}"));
            }
        }
        self.pending.drain(..end);
        self.inner.write_all(text.as_bytes())
    }
}

impl<W: Write> Write for Visible<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        self.pass_on(false)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.pass_on(true)?;
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_made_visible_across_writes() {
        let mut out = Vec::new();
        {
            let mut visible = Visible::new(&mut out);
            // A two-byte character and an escape sequence split between writes.
            visible.write_all(b"{P\xc3").unwrap();
            visible.write_all(b"\xa9na \x1b]0;t").unwrap();
            visible
                .write_all(b"\x07 \xc2\x9b2J\x1b[2J}\r\n1. 11-15\r")
                .unwrap();
            visible.write_all(b"\n\xff *").unwrap();
            visible.flush().unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{Péna \\x1b]0;t\\x07 \\u{9b}2J\\x1b[2J}\r\n1. 11-15\r\n\\xff *"
        );
    }

    #[test]
    fn only_a_terminal_asked_for_no_file_gets_escapes() {
        assert!(escapes_for(true, false));
        assert!(!escapes_for(true, true));
        assert!(!escapes_for(false, false));
    }
}
