//! The tag pairs of a game's header: the tags before its movetext, each
//! read the short way when plain ([`super::plain::plain_tag`]) or through
//! the tag production, with what is skipped between them reported.

use super::plain::{plain_tag, tag_end};
use super::productions::{quote, rest_of_line, tag_pair, unescape};
use super::state::Reading;
use crate::pdn::game::Tag;
use crate::pdn::lex::bracketless_tag;

impl<'t> Reading<'t> {
    /// The tags and comments before the movetext. Returns the offset where
    /// the movetext starts.
    pub(super) fn header(&mut self) -> usize {
        let mut movetext = 0;
        loop {
            self.skip_blanks();
            let at = self.i;
            match self.bytes.get(at) {
                Some(b'[') => {
                    self.tag();
                    movetext = self.i;
                }
                Some(b'%') if self.at_column_one(at) => {
                    if let Ok((rest, _)) = rest_of_line(self.rest()) {
                        self.seek(rest);
                    }
                }
                Some(b'{') => self.brace(),
                Some(b';') => self.line_comment(),
                // A tag line that lost its `[`, as the framing reads it.
                Some(b)
                    if b.is_ascii_alphabetic()
                        && self.at_line_start(at)
                        && bracketless_tag(&self.bytes[at..], true) =>
                {
                    self.tag();
                    movetext = self.i;
                }
                _ => break,
            }
        }
        while movetext < self.bytes.len() && self.bytes[movetext].is_ascii_whitespace() {
            movetext += 1;
        }
        movetext
    }

    pub(super) fn tag(&mut self) {
        let at = self.i;
        if self.tags.is_empty() {
            // Room for the usual header at once (nine tags or so) rather
            // than in three steps.
            self.tags.reserve(12);
        }
        if self.short_ways
            && let Some(plain) = plain_tag(self.bytes, at)
        {
            self.i = plain.end;
            let position = self.loc.at(at);
            self.tags.push(Tag {
                name: self.text[plain.name].into(),
                value: self.text[plain.value].into(),
                position,
            });
            return;
        }
        let end = tag_end(self.bytes, at);
        self.i = end;
        match tag_pair(&self.text[at..end]) {
            Ok((_, raw)) => {
                if raw.bracketless {
                    self.warn(
                        at,
                        format!("tag `{}` lacks its opening `[`: read as a tag", raw.name),
                    );
                }
                if !raw.closed_value {
                    self.warn(
                        at,
                        format!("tag `{}`: its value is not closed by `\"`", raw.name),
                    );
                } else if !raw.extra.is_empty() {
                    self.warn(
                        at,
                        format!(
                            "tag `{}`: text after the value ignored: `{}`",
                            raw.name,
                            quote(raw.extra)
                        ),
                    );
                } else if !raw.closed {
                    self.warn(at, format!("tag `{}` is not closed by `]`", raw.name));
                }
                let position = self.loc.at(at);
                self.tags.push(Tag {
                    name: raw.name.into(),
                    value: unescape(raw.value),
                    position,
                });
            }
            Err(_) => {
                // Only the tag is lost: the game is read on.
                let text = self.text[at..end].trim_end().to_string();
                self.warn(at, format!("malformed tag skipped: `{}`", quote(&text)));
            }
        }
    }
}
