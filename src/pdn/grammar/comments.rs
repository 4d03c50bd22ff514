//! Comments and other text kept in the lines of play: `{…}` comments,
//! `;` line comments, words that are not moves, and `/FEN "…"/` set-up
//! commands, each added where it stands.

use super::productions::{
    CommentEnd, brace_comment, ends_word, fen_command, limited, meant_as_move, normalise_newlines,
    quote, rest_of_line,
};
use super::state::Reading;
use crate::notation::MoveToken;
use crate::pdn::error::{Note, Position};
use crate::pdn::game::{Comment, CommentKind, SetupCommand};
use crate::pdn::lex::result_len;

impl<'t> Reading<'t> {
    /// Adds a comment after the last move of the current line, or before its
    /// first move.
    #[inline]
    pub(super) fn add_comment(&mut self, at: usize, text: &str, kind: CommentKind) {
        self.add_comment_located(at, None, text, kind);
    }

    /// [`Reading::add_comment`], its position given when already known
    /// (asking the locator for an earlier offset costs a pass from the
    /// start of the text).
    #[inline]
    pub(super) fn add_comment_located(
        &mut self,
        at: usize,
        position: Option<Position>,
        text: &str,
        kind: CommentKind,
    ) {
        if !self.room(at) {
            return;
        }
        let comment = Comment {
            text: normalise_newlines(limited(text)),
            kind,
            position: position.unwrap_or_else(|| self.loc.at(at)),
        };
        let line = self.line();
        match line.plies.last_mut() {
            Some(ply) => ply.after_mut().comments.push(comment),
            None => line.comments.push(comment),
        }
    }

    /// Adds text that stands outside braces as a bare comment, with a warning.
    #[inline]
    pub(super) fn add_bare(&mut self, at: usize, text: &str, why: &str) {
        self.add_bare_located(at, None, text, why);
    }

    /// [`Reading::add_bare`], its position given when already known.
    #[inline]
    pub(super) fn add_bare_located(
        &mut self,
        at: usize,
        position: Option<Position>,
        text: &str,
        why: &str,
    ) {
        let position = position.unwrap_or_else(|| self.loc.at(at));
        let message = format!("{why} kept as a comment: `{}`", quote(text));
        self.note(Note::warning(position, message));
        self.add_comment_located(at, Some(position), text, CommentKind::Bare);
    }

    pub(super) fn brace(&mut self) {
        let at = self.i;
        let Ok((rest, (body, end))) = brace_comment(self.rest()) else {
            self.i += 1;
            return;
        };
        self.seek(rest);
        match end {
            CommentEnd::Closed => {}
            CommentEnd::Unbalanced => self.warn(
                at,
                "the braces of this comment do not balance: it is read up to its first `}`",
            ),
            CommentEnd::Unterminated => self.error(at, "unterminated comment started here"),
        }
        self.add_comment(at, body, CommentKind::Brace);
    }

    pub(super) fn line_comment(&mut self) {
        let at = self.i;
        if let Ok((rest, body)) = rest_of_line(self.rest()) {
            self.seek(rest);
            self.add_comment(at, body.trim_end_matches('\r'), CommentKind::Line);
        }
    }

    /// Where the word starting at `at` ends.
    #[inline]
    pub(super) fn word_end(&self, at: usize) -> usize {
        let n = self.bytes[at + 1..]
            .iter()
            .position(|b| ends_word(*b))
            .unwrap_or(self.bytes.len() - at - 1);
        // Never stop inside a character.
        let mut end = at + 1 + n;
        while end < self.bytes.len() && !self.text.is_char_boundary(end) {
            end += 1;
        }
        self.result_within(at, end).unwrap_or(end)
    }

    /// Whether the word at `at` is plain text (not a move, number, result or
    /// other element).
    #[inline]
    pub(super) fn is_bare_word(&self, at: usize) -> bool {
        let b = self.bytes[at];
        if b.is_ascii_digit()
            || b"{}()[];%$!?/*-.".contains(&b)
            || result_len(&self.bytes[at..]).is_some()
        {
            return false;
        }
        if b.is_ascii_alphabetic() {
            let word = &self.text[at..self.word_end(at)];
            return MoveToken::parse_prefix(word).is_err() && !meant_as_move(word);
        }
        true
    }

    /// Text outside braces: this word and the plain words after it on the
    /// same line, kept as one bare comment.
    pub(super) fn bare_words(&mut self, at: usize, why: &str) {
        let mut end = self.word_end(at);
        loop {
            let mut next = end;
            while next < self.bytes.len() && matches!(self.bytes[next], b' ' | b'\t') {
                next += 1;
            }
            // Words on one line only: the next line may start with a move
            // or an escape line.
            if next == end
                || next >= self.bytes.len()
                || self.bytes[next].is_ascii_whitespace()
                || !self.is_bare_word(next)
            {
                break;
            }
            end = self.word_end(next);
        }
        self.i = end;
        let text = &self.text[at..end];
        self.add_bare(at, text, why);
    }

    pub(super) fn add_setup(&mut self, at: usize, body: &str) {
        if !self.room(at) {
            return;
        }
        let fen = fen_command(body.trim())
            .ok()
            .map(|(_, fen)| fen.trim().to_string());
        let command = SetupCommand {
            text: body.to_string(),
            fen,
            position: self.loc.at(at),
        };
        // Only a set-up before the first move gives the game's start.
        if self.open.is_empty() && command.fen.is_some() {
            if !self.main.plies.is_empty() {
                self.later_setup = true;
            } else if self.first_fen_command.is_none() {
                self.first_fen_command = Some(command.clone());
            }
        }
        let line = self.line();
        match line.plies.last_mut() {
            Some(ply) => ply.after_mut().setups.push(command),
            None => line.setups.push(command),
        }
    }
}
