//! Game terminators: results where they end the game (`1-1` and a lone
//! `-` only there), results glued to a move, and what follows a result.

use super::state::Reading;
use crate::pdn::game::GameResult;
use crate::pdn::lex::{
    ends_game_only_at_its_end, glued_result_len, is_boundary, lone_dash_len, result_len,
};

impl<'t> Reading<'t> {
    /// Reads a result at `at`, if one stands there. Inside a variation it is
    /// kept as a comment.
    pub(super) fn result(&mut self, at: usize) -> bool {
        let prev = at.checked_sub(1).map(|k| self.bytes[k]);
        if !is_boundary(prev) {
            return false;
        }
        let Some(n) = self.result_at(at) else {
            return false;
        };
        self.i = at + n;
        let text = &self.text[at..at + n];
        if self.open.is_empty() {
            self.number = None;
            self.result = Some(GameResult {
                text: text.to_string(),
                position: self.loc.at(at),
            });
        } else {
            self.add_bare(at, text, "result inside a variation");
        }
        true
    }

    /// Reads a result of the main line at `at` with text glued to it
    /// ([`glued_result_len`]): the result, and the glued text kept as a
    /// comment with a warning.
    pub(super) fn glued_result(&mut self, at: usize) -> bool {
        let prev = at.checked_sub(1).map(|k| self.bytes[k]);
        if !is_boundary(prev) {
            return false;
        }
        let Some(n) = glued_result_len(&self.bytes[at..]) else {
            return false;
        };
        let text = &self.text[at..at + n];
        self.number = None;
        self.result = Some(GameResult {
            text: text.to_string(),
            position: self.loc.at(at),
        });
        let glued_end = at
            + n
            + self.bytes[at + n..]
                .iter()
                .position(u8::is_ascii_whitespace)
                .unwrap_or(self.bytes.len() - at - n);
        let glued = &self.text[at + n..glued_end];
        self.add_bare(at + n, glued, &format!("text glued to the result {text}"));
        self.i = glued_end;
        true
    }

    /// Anything after the result is kept as one bare comment.
    pub(super) fn after_result(&mut self) {
        let rest = self.rest().trim();
        if !rest.is_empty() {
            let at = self.i + (self.rest().len() - self.rest().trim_start().len());
            self.add_bare(at, rest, "text after the result");
        }
        self.i = self.bytes.len();
    }

    /// The first offset in `from + 1..to` where a result stands at a token
    /// boundary: the framing may end the game there, so no word or move may
    /// run over it. `1-1` counts wherever it stands (as a result or as the
    /// move it then is), so that no word holds one, and the writer writes
    /// it only as a result (the move zero-padded); a lone `-` counts where
    /// it is the result.
    #[inline]
    pub(super) fn result_within(&self, from: usize, to: usize) -> Option<usize> {
        (from + 1..to.min(self.bytes.len())).find(|&k| {
            is_boundary(Some(self.bytes[k - 1]))
                && (result_len(&self.bytes[k..]).is_some()
                    || self.bytes[k] == b'-' && self.result_at(k).is_some())
        })
    }

    /// The length of the result at `k` (the caller checks the boundary
    /// before it). `1-1` and a lone `-` are results only where the framing
    /// ended the game on them: they then end the text, since the framing
    /// stops right after a result (see `lex::draw_ends_game` for its rule).
    /// Anywhere else `1-1` is a move and `-` text, so the framing and the
    /// grammar always agree.
    #[inline(always)]
    pub(super) fn result_at(&self, k: usize) -> Option<usize> {
        let rest = &self.bytes[k..];
        let n = if rest.first() == Some(&b'-') {
            lone_dash_len(rest)?
        } else {
            result_len(rest)?
        };
        let ends_text = k + n == self.bytes.len() && self.ends_on_result;
        (!ends_game_only_at_its_end(&rest[..n]) || ends_text).then_some(n)
    }
}
