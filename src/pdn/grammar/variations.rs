//! Variations: `(` opens one on an explicit stack (so deep nesting costs
//! no recursion), `)` attaches it to the ply it follows, and at the end of
//! the game the ones left open are closed with an error.

use super::productions::{brace_comment, rest_of_line};
use super::state::{Open, Reading};
use crate::pdn::game::Line;
use crate::pdn::limits::MAX_VARIATION_DEPTH;

impl<'t> Reading<'t> {
    pub(super) fn open_variation(&mut self) {
        let at = self.i;
        if self.open.len() >= MAX_VARIATION_DEPTH {
            self.skip_variation();
            self.warn(
                at,
                format!("variation nested deeper than {MAX_VARIATION_DEPTH} skipped"),
            );
            return;
        }
        self.i += 1;
        self.number = None;
        let position = self.loc.at(at);
        self.open.push(Open {
            line: Line {
                position,
                ..Line::default()
            },
            at,
        });
    }

    /// Passes a variation without reading it: to its matching `)` (comments
    /// respected) or the end of the text.
    pub(super) fn skip_variation(&mut self) {
        let mut depth = 0usize;
        while self.i < self.bytes.len() {
            match self.bytes[self.i] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return;
                    }
                }
                b'{' => {
                    if let Ok((rest, _)) = brace_comment(self.rest()) {
                        self.seek(rest);
                        continue;
                    }
                }
                b';' => {
                    if let Ok((rest, _)) = rest_of_line(self.rest()) {
                        self.seek(rest);
                        continue;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
    }

    pub(super) fn close_variation(&mut self) {
        let at = self.i;
        self.i += 1;
        match self.open.pop() {
            Some(open) => self.attach(open, at + 1),
            None => self.warn(at, "`)` without a matching `(` ignored"),
        }
    }

    /// Attaches a finished variation (its text ends before `end`) to the
    /// last move of the enclosing line.
    pub(super) fn attach(&mut self, open: Open, end: usize) {
        self.number = None;
        let enclosing = self.line();
        match enclosing.plies.last_mut() {
            Some(ply) => ply.after_mut().variations.push(open.line),
            None => {
                // Kept short: the whole text stays in the movetext.
                let text = &self.text[open.at..end.min(self.bytes.len())];
                let mut cut = text.len().min(1024);
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                // Where the variation opened was located then: asking
                // again, behind the text read since, would cost a pass
                // from the start for each such variation.
                let position = Some(open.line.position);
                self.add_bare_located(
                    open.at,
                    position,
                    &text[..cut],
                    "a variation before any move",
                );
            }
        }
    }

    /// Closes the variations still open at the end of the text.
    pub(super) fn close_all(&mut self) {
        if let Some(outer) = self.open.first() {
            let (at, count) = (outer.at, self.open.len());
            let what = if count == 1 {
                "this variation is never closed".to_string()
            } else {
                format!(
                    "this variation and {} inside it are never closed",
                    count - 1
                )
            };
            self.warn(at, what);
        }
        let end = self.bytes.len();
        while let Some(open) = self.open.pop() {
            if self.line().plies.is_empty() {
                // Nothing to hang it on; its text stays in the movetext.
                continue;
            }
            self.attach(open, end);
        }
    }
}
