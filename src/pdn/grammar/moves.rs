//! The movetext driver and the moves: the loop that dispatches on the
//! first byte of each element, runs of plain movetext read the short way,
//! and each token read as a move number, a move, an annotation or a word,
//! with the plies and annotations it adds.

use super::plain::{plain_move, plain_move_after};
use super::productions::{
    ellipsis, ends_move, mark, meant_as_move, move_number, nag, paren_mark, quote, rest_of_line,
    setup, unknown_move,
};
use super::state::Reading;
use crate::notation::{MoveToken, TokenError};
use crate::pdn::game::{MoveNumber, Nag, Ply, PlyText, PlyToken};
use crate::pdn::lex::result_len;
use crate::pdn::limits::MAX_TOKEN_LEN;

impl<'t> Reading<'t> {
    /// Reads the movetext up to the result (or the end of the text).
    pub(super) fn movetext(&mut self) {
        while self.i < self.bytes.len() {
            let at = self.i;
            let b = self.bytes[at];
            match b {
                _ if b.is_ascii_whitespace() => self.skip_blanks(),
                b'{' => self.brace(),
                b';' => self.line_comment(),
                b'%' if self.at_column_one(at) => {
                    if let Ok((rest, _)) = rest_of_line(self.rest()) {
                        self.seek(rest);
                    }
                }
                b'(' => match paren_mark(self.rest()) {
                    Ok((rest, text)) => {
                        self.seek(rest);
                        self.add_nag(at, text, Nag::Mark(text.to_string()));
                    }
                    Err(_) => self.open_variation(),
                },
                b')' => self.close_variation(),
                b'}' => {
                    self.i += 1;
                    self.warn(at, "`}` without a matching `{` ignored");
                }
                b'!' | b'?' => {
                    if let Ok((rest, text)) = mark(self.rest()) {
                        self.seek(rest);
                        self.add_nag(at, text, Nag::Mark(text.to_string()));
                    }
                }
                b'$' => match nag(self.rest()) {
                    Ok((rest, n)) => {
                        self.seek(rest);
                        let text = &self.text[at..self.i];
                        self.add_nag(at, text, Nag::Glyph(n));
                    }
                    Err(_) => self.bare_words(at, "text outside braces"),
                },
                b'/' => match setup(self.rest()) {
                    Ok((rest, body))
                        if self
                            .result_within(at, self.text.len() - rest.len())
                            .is_none() =>
                    {
                        self.seek(rest);
                        self.add_setup(at, body);
                    }
                    _ => self.bare_words(at, "text outside braces"),
                },
                _ => {
                    if b.is_ascii_digit() && self.short_ways {
                        self.plain_run();
                        if self.i > at {
                            continue;
                        }
                    }
                    if self.result(at) {
                        if self.open.is_empty() {
                            self.after_result();
                            return;
                        }
                        continue;
                    }
                    if self.open.is_empty() && self.glued_result(at) {
                        self.after_result();
                        return;
                    }
                    self.token(at);
                }
            }
        }
    }

    /// Reads a run of the commonest movetext, move numbers and plain moves
    /// ([`plain_move`]) set apart by blanks, by a shorter way than the
    /// general loop that reads them exactly as it would. Stops before the
    /// first token that may be anything else (a result, a move followed by
    /// glued text, …), which is left to the general loop.
    pub(super) fn plain_run(&mut self) {
        let bytes = self.bytes;
        let mut i = self.i;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let rest = &bytes[i..];
            if !b.is_ascii_digit() {
                break;
            }
            // Only `0`, `1` or `2` before `-` or `/` may start a result: tested
            // together without branching, as most moves start like that.
            let joined = rest.get(1).is_some_and(|&n| (n == b'-') | (n == b'/'));
            if (b <= b'2') & joined && result_len(rest).is_some() {
                break;
            }
            // Digits: a move number when dots follow (more than one for the
            // second side's move), as `move_number` reads it; else the
            // first square of a move.
            // At most nine digits (the value then fits a u32), the bound
            // taken once rather than tested at each digit.
            let digits_room = rest.len().min(9);
            let mut digits = 0;
            let mut value = 0u32;
            while digits < digits_room && rest[digits].is_ascii_digit() {
                value = value * 10 + u32::from(rest[digits] - b'0');
                digits += 1;
            }
            if rest.get(digits) == Some(&b'.') {
                let dots = rest[digits..].iter().take_while(|&&d| d == b'.').count();
                self.number = Some(MoveNumber {
                    number: value,
                    ellipsis: dots > 1,
                });
                i += digits + dots;
                continue;
            }
            // A plain move that nothing is glued to.
            if digits > 3 {
                break;
            }
            let Some(plain) = plain_move_after(rest, value as u16, digits) else {
                break;
            };
            let used = plain.used;
            if rest.get(used).is_some_and(|&b| !ends_move(b)) {
                break;
            }
            self.add_plain_ply(i, used, plain.token, plain.max_square);
            // The blanks after it are passed already.
            i += plain.next;
        }
        self.i = i;
    }

    /// A move number, a move, an unknown move, an ellipsis or a word.
    pub(super) fn token(&mut self, at: usize) {
        let b = self.bytes[at];
        if b.is_ascii_digit()
            && let Ok((rest, number)) = move_number(self.rest())
        {
            self.seek(rest);
            self.number = Some(number);
            return;
        }
        if b == b'.'
            && let Ok((rest, _)) = ellipsis(self.rest())
        {
            self.seek(rest);
            match &mut self.number {
                Some(number) => number.ellipsis = true,
                None => self.add_bare(at, "...", "an ellipsis without a move number"),
            }
            return;
        }
        if b == b'-'
            && let Ok((rest, text)) = unknown_move(self.rest())
            && rest.as_bytes().first().is_none_or(|b| ends_move(*b))
        {
            self.seek(rest);
            self.add_ply(at, text, PlyToken::Unknown);
            return;
        }
        if b.is_ascii_alphanumeric() {
            self.move_or_word(at);
        } else {
            self.bare_words(at, "text outside braces");
        }
    }

    /// A move token (with any text glued to it), or a word that is not one.
    pub(super) fn move_or_word(&mut self, at: usize) {
        let rest = self.rest();
        if let Some((token, used)) = plain_move(rest.as_bytes()) {
            // Digits and joiners: no result can start inside it, and it
            // holds no blank before a move number.
            self.add_move(at, rest, token, used);
            return;
        }
        let mut parsed = MoveToken::parse_prefix(rest);
        if parsed.is_err()
            && let Some(pair) = MoveToken::parse_joinerless(rest)
        {
            // `3228`: two squares written without a joiner.
            parsed = Ok(pair);
        }
        let cut = match parsed {
            Ok((_, used)) => self
                .result_within(at, at + used)
                .map(|k| k - at)
                .or_else(|| {
                    // `15-19x 4.`: the last "square" was the next move number.
                    (rest.as_bytes().get(used) == Some(&b'.'))
                        .then(|| rest[..used].rfind([' ', '\t']))
                        .flatten()
                }),
            Err(_) => None,
        };
        if let Some(cut) = cut {
            let shorter = rest[..cut].trim_end();
            match MoveToken::parse_prefix(shorter) {
                Ok((token, n)) if n == shorter.len() => parsed = Ok((token, n)),
                outcome => {
                    let error = match outcome {
                        Ok((_, n)) => TokenError::Trailing {
                            offset: n,
                            text: shorter[n..].to_string(),
                        },
                        Err(error) => error,
                    };
                    self.i = at + shorter.len();
                    self.warn(at, format!("`{}` is not a move: {error}", quote(shorter)));
                    self.add_ply(at, shorter, PlyToken::Invalid(Box::new(error)));
                    return;
                }
            }
        }
        match parsed {
            Ok((token, used)) => self.add_move(at, rest, token, used),
            Err(error) => {
                let mut end = self.word_end(at);
                // Marks after a broken move are still marks: `9-q!?`.
                let unmarked = self.text[at..end].trim_end_matches(['!', '?']).len();
                if unmarked > 0 && meant_as_move(&self.text[at..at + unmarked]) {
                    end = at + unmarked;
                }
                let word = &self.text[at..end];
                if word.len() > MAX_TOKEN_LEN {
                    self.i = end;
                    let why = format!(
                        "a token of {} bytes is too long to be a move; it is",
                        word.len()
                    );
                    self.add_bare(at, word, &why);
                } else if meant_as_move(word) {
                    self.i = end;
                    self.warn(at, format!("`{}` is not a move: {error}", quote(word)));
                    self.add_ply(at, word, PlyToken::Invalid(Box::new(error)));
                } else {
                    self.bare_words(at, "text outside braces");
                }
            }
        }
    }

    /// Adds the move of the first `used` bytes of `rest` (the text from
    /// `at`), and the text glued to it as a bare comment.
    #[inline]
    pub(super) fn add_move(&mut self, at: usize, rest: &str, token: MoveToken, used: usize) {
        self.i = at + used;
        self.add_ply(at, &rest[..used], PlyToken::Move(token));
        if self.i < self.bytes.len() && !ends_move(self.bytes[self.i]) {
            let glued = self.i;
            let end = self.word_end(glued);
            self.i = end;
            let text = &self.text[glued..end];
            self.add_bare(
                glued,
                text,
                &format!("text glued to the move `{}`", &rest[..used]),
            );
        }
    }

    #[inline(always)]
    pub(super) fn add_ply(&mut self, at: usize, text: &str, token: PlyToken) {
        if !self.room_for_ply(at) {
            return;
        }
        if self.open.is_empty()
            && let PlyToken::Move(token) = &token
        {
            let loc = &mut self.loc;
            self.squares.add(token, || loc.at(at));
        }
        self.push_ply(at, text.len(), token);
    }

    /// [`Reading::add_ply`] for a move of `used` bytes at `at` read by
    /// [`plain_move_after`]: squares all numbers, `max_square` the highest.
    #[inline(always)]
    pub(super) fn add_plain_ply(
        &mut self,
        at: usize,
        used: usize,
        token: MoveToken,
        max_square: u16,
    ) {
        if !self.room_for_ply(at) {
            return;
        }
        if self.open.is_empty() {
            self.squares.add_numbers(max_square);
        }
        self.push_ply(at, used, PlyToken::Move(token));
    }

    /// Counts a ply as [`Reading::room`] does; past the limit its move
    /// number goes with it.
    #[inline(always)]
    pub(super) fn room_for_ply(&mut self, at: usize) -> bool {
        let room = self.room(at);
        if !room {
            self.number = None;
        }
        room
    }

    /// Adds the ply of `len` bytes at `at` to the current line, counted
    /// already.
    #[inline(always)]
    pub(super) fn push_ply(&mut self, at: usize, len: usize, token: PlyToken) {
        // Offsets fit: a game's text is far shorter than 4 GiB.
        let offset = at.saturating_sub(self.movetext_at) as u32;
        if let PlyToken::Move(next) = &token
            && next.capture
            && !self.split_captures
            && let Some(PlyToken::Move(last)) = self.line().plies.last().map(|p| &p.token)
        {
            self.split_captures = next.continues(last);
        }
        let ply = Ply {
            number: self.number.take(),
            text: PlyText::Written { len: len as u32 },
            token,
            offset,
            after: None,
        };
        self.line().plies.push(ply);
    }

    /// Adds an annotation to the last move; before any move it is kept as
    /// a comment.
    pub(super) fn add_nag(&mut self, at: usize, text: &str, nag: Nag) {
        if self.line().plies.is_empty() {
            self.add_bare(at, text, "annotation before any move");
            return;
        }
        if !self.room(at) {
            return;
        }
        if let Some(ply) = self.line().plies.last_mut() {
            ply.after_mut().nags.push(nag);
        }
    }
}
