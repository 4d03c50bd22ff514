//! Tag lines: a plain tag kept in one copy, any other read part by part
//! (its name, then its quoted value cut at the text limit), and the tag
//! names remembered to split tag blocks that lack a terminator.

use std::io::{self, Read};

use super::buffer::{GameBuf, Limited};
use super::source::position_after;
use super::state::{Framer, Scan};
use crate::pdn::error::Position;
use crate::pdn::lex::{is_name_byte, skip_blanks};
use crate::pdn::limits::MAX_TEXT_LEN;

impl<R: Read> Framer<R> {
    /// Reads a tag line from its `[` (or its name, when it lost the `[`) to
    /// its `]` (or to the end of the line when it is not closed), cutting a
    /// value over the text limit.
    pub(super) fn read_tag(&mut self, g: &mut GameBuf, s: &mut Scan) -> io::Result<()> {
        g.game.has_tags = true;
        s.blank_line = false;
        s.line_blank = false;
        s.names.extend(tag_name(self.src.window()));
        s.names.push(0);
        // The commonest tag, `[Name "value"]` whole in the window with no
        // escape in its value, is kept in one copy: the bytes the general
        // way below keeps piece by piece.
        let w = self.src.window();
        if self.plain_tags
            && let Some(len) = plain_tag_len(w)
            && g.has_room(len)
        {
            let single_byte = self.src.single_byte;
            g.copy(&w[..len], single_byte, || self.src.position());
            self.src.advance(len);
            s.prev = Some(b']');
            return Ok(());
        }
        let start = self.src.position();
        let mut quoted = false;
        let mut escaped = false;
        let mut value = Limited::new();
        loop {
            self.src.fill(1)?;
            if self.src.window().is_empty() {
                break;
            }
            let next = if quoted {
                self.tag_value_part(g, &mut value, start, &mut escaped)
            } else {
                self.tag_name_part(g)
            };
            match next {
                Some(q) => quoted = q,
                None => break,
            }
        }
        s.prev = Some(b']');
        Ok(())
    }

    /// A tag's value bytes in the window, up to the closing quote or the
    /// end of the line (`start`: where the tag starts; `escaped`: the
    /// last byte was an unescaped `\`). Returns whether the value goes on
    /// (`Some(true)`), the rest of the tag follows it (`Some(false)`) or
    /// the line ends (`None`).
    #[inline]
    pub(super) fn tag_value_part(
        &mut self,
        g: &mut GameBuf,
        value: &mut Limited,
        start: Position,
        escaped: &mut bool,
    ) -> Option<bool> {
        let w = self.src.window();
        let single_byte = self.src.single_byte;
        let at = || self.src.position();
        let mut i = 0;
        let mut closed = None;
        while i < w.len() {
            let b = w[i];
            if b == b'\n' {
                closed = Some(false);
                break;
            }
            if *escaped {
                *escaped = false;
            } else if b == b'\\' {
                *escaped = true;
            } else if b == b'"' {
                closed = Some(true);
                break;
            }
            i += 1;
        }
        value.take(g, &w[..i], single_byte, at, start, "tag value");
        match closed {
            Some(true) => {
                g.copy(b"\"", single_byte, || {
                    position_after(at(), &w[..i], single_byte)
                });
                self.src.advance(i + 1);
                Some(false)
            }
            Some(false) => {
                self.src.advance(i);
                None
            }
            None => {
                self.src.advance(i);
                Some(true)
            }
        }
    }

    /// The `[`, the name and blanks of a tag in the window, up to a quote,
    /// `]` or the end of the line. Returns whether a value starts
    /// (`Some(true)`), the window ended first (`Some(false)`) or the tag
    /// or the line ends (`None`).
    #[inline]
    pub(super) fn tag_name_part(&mut self, g: &mut GameBuf) -> Option<bool> {
        let w = self.src.window();
        let single_byte = self.src.single_byte;
        let at = || self.src.position();
        match w.iter().position(|b| matches!(b, b'\n' | b'"' | b']')) {
            Some(i) if w[i] == b'\n' => {
                g.copy(&w[..i], single_byte, at);
                self.src.advance(i);
                None
            }
            Some(i) => {
                let close = w[i] == b']';
                g.copy(&w[..=i], single_byte, at);
                self.src.advance(i + 1);
                (!close).then_some(true)
            }
            None => {
                let n = w.len();
                g.copy(w, single_byte, at);
                self.src.advance(n);
                Some(false)
            }
        }
    }
}

/// The lower-cased name of the tag at the start of `w` (a `[`, or the
/// name of a tag that lost it).
#[inline]
pub(super) fn tag_name(w: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let rest = match w.strip_prefix(b"[") {
        Some(rest) => skip_blanks(rest),
        None => w,
    };
    rest.iter()
        .take_while(|b| is_name_byte(**b))
        .map(u8::to_ascii_lowercase)
}

/// The length of the tag at the start of `w`, up to its `]`, when it is
/// `[`, a name and blanks, a quoted value holding no backslash, and blanks
/// before the `]`, all on one line (and within the text limit).
#[inline]
pub(super) fn plain_tag_len(w: &[u8]) -> Option<usize> {
    if w.first() != Some(&b'[') {
        return None;
    }
    let open = memchr::memchr3(b'\n', b'"', b']', w)?;
    if w[open] != b'"' {
        return None;
    }
    let close = open + 1 + memchr::memchr3(b'\n', b'"', b'\\', &w[open + 1..])?;
    if w[close] != b'"' {
        return None;
    }
    let end = close + 1 + memchr::memchr3(b'\n', b'"', b']', &w[close + 1..])?;
    (w[end] == b']' && end < MAX_TEXT_LEN).then_some(end + 1)
}

/// Whether the tag at the start of `w` repeats one of `names`.
#[inline]
pub(super) fn repeats_name(w: &[u8], names: &[u8]) -> bool {
    let name: Vec<u8> = tag_name(w).collect();
    !name.is_empty() && names.split(|&b| b == 0).any(|n| n == name)
}
