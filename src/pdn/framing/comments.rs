//! Comments `{…}`: nested braces counted, the text cut at the limit, and
//! an unterminated comment ended before a line that looks like a tag.

use std::io::{self, Read};

use super::buffer::{GameBuf, Limited};
use super::source::{LOOKAHEAD, position_after};
use super::state::Framer;
use crate::pdn::lex::{looks_like_tag, skip_blanks};

impl<R: Read> Framer<R> {
    /// Reads a comment from its `{` to the matching `}` (nested braces
    /// counted). An unterminated comment ends at the end of the input or
    /// before a line that looks like a tag. Returns whether it stopped at
    /// the start of a line.
    pub(super) fn read_comment(&mut self, g: &mut GameBuf) -> io::Result<bool> {
        let start = self.src.position();
        g.copy(b"{", self.src.single_byte, || start);
        self.src.advance(1);
        let mut depth = 1u32;
        let mut text = Limited::new();
        loop {
            self.src.fill(1)?;
            let w = self.src.window();
            if w.is_empty() {
                return Ok(false);
            }
            let single_byte = self.src.single_byte;
            let at = || self.src.position();
            let Some(k) = memchr::memchr3(b'{', b'}', b'\n', w) else {
                text.take(g, w, single_byte, at, start, "comment");
                let n = w.len();
                self.src.advance(n);
                continue;
            };
            match w[k] {
                b'}' if depth == 1 => {
                    text.take(g, &w[..k], single_byte, at, start, "comment");
                    g.copy(b"}", single_byte, || {
                        position_after(at(), &w[..k], single_byte)
                    });
                    self.src.advance(k + 1);
                    return Ok(false);
                }
                b'{' => depth = depth.saturating_add(1),
                b'}' => depth -= 1,
                _ => {}
            }
            text.take(g, &w[..=k], single_byte, at, start, "comment");
            let newline = w[k] == b'\n';
            self.src.advance(k + 1);
            if newline {
                self.src.fill(LOOKAHEAD)?;
                if looks_like_tag(skip_blanks(self.src.window())) {
                    return Ok(true);
                }
            }
        }
    }
}
