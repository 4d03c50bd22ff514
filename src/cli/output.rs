//! Output that never panics: messages to standard error that ignore a
//! failed write, and standard output that a closed reader cannot make
//! change a command's exit status.

use std::io::{self, Write};

/// Writes one line for people to standard error. A failed write (standard
/// error closed, or a pipe whose reader has gone) is ignored: a message
/// that cannot be shown must not end the command.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::output::say_line(format_args!($($arg)*))
    };
}

/// The line of `say!`, written and flushed; errors ignored.
pub fn say_line(args: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{args}");
    let _ = err.flush();
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
