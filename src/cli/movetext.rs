//! A game's main line as `show` prints it: numbered moves with their
//! annotations, `{comments}` and `(variations)` as PDN writes them, each
//! variation on lines of its own, indented by its depth, all in lines
//! shorter than 80 characters.

use crate::escape::visible;
use crate::store::view::PlyView;

/// The width lines stay under.
const WIDTH: usize = 80;

/// The lines of a main line whose first side is `first` (`"white"` or
/// `"black"`), after the game's `comments`.
pub fn annotated_lines(comments: &[String], plies: &[PlyView], first: &str) -> Vec<String> {
    let mut flow = Flow::default();
    for comment in comments {
        flow.comment(comment);
    }
    flow.line(plies, first, 0);
    flow.finish()
}

/// Lines being filled word by word.
#[derive(Default)]
struct Flow {
    lines: Vec<String>,
    current: String,
    indent: usize,
    /// The next word starts a new line (a variation ended).
    pending: bool,
    /// The next word is glued to what stands before it (after `(`).
    glued: bool,
}

impl Flow {
    /// Adds a word, starting a new line when it does not fit.
    fn word(&mut self, word: &str) {
        let used = self.current.chars().count();
        if self.pending || (used > self.indent && used + 1 + word.chars().count() >= WIDTH) {
            self.pending = false;
            self.new_line();
        }
        if self.current.chars().count() > self.indent && !self.glued {
            self.current.push(' ');
        }
        self.glued = false;
        self.current.push_str(word);
    }

    /// Adds text glued to the last word (`!`, `)`).
    fn glue(&mut self, text: &str) {
        self.current.push_str(text);
    }

    /// Ends the line being filled (if it holds anything) and starts one at
    /// the indent.
    fn new_line(&mut self) {
        if self.current.chars().count() > self.indent {
            self.lines.push(std::mem::take(&mut self.current));
        }
        self.current = " ".repeat(self.indent);
    }

    /// A comment, braced, its spaces and line breaks read as one space.
    fn comment(&mut self, text: &str) {
        let words: Vec<String> = text.split_whitespace().map(|w| visible(w).into()).collect();
        match words.as_slice() {
            [] => self.word("{}"),
            [only] => self.word(&format!("{{{only}}}")),
            [first, middle @ .., last] => {
                self.word(&format!("{{{first}"));
                for word in middle {
                    self.word(word);
                }
                self.word(&format!("{last}}}"));
            }
        }
    }

    /// The plies of a line at `depth` (0: the main line).
    fn line(&mut self, plies: &[PlyView], first: &str, depth: usize) {
        // A move of the second side is numbered (`5...`) where the line
        // starts and after anything that breaks the moves' flow.
        let mut broken = true;
        for ply in plies {
            for comment in &ply.comments_before {
                self.comment(comment);
            }
            let text = visible(ply.name.as_deref().unwrap_or(&ply.token));
            if ply.side == first {
                self.word(&format!("{}. {text}", ply.number));
            } else if broken {
                self.word(&format!("{}... {text}", ply.number));
            } else {
                self.word(&text);
            }
            broken = false;
            for glyph in &ply.glyphs {
                if glyph.chars().all(|c| "!?()".contains(c)) {
                    self.glue(&visible(glyph));
                } else {
                    self.word(&visible(glyph));
                }
            }
            for comment in &ply.comments {
                self.comment(comment);
                broken = true;
            }
            for variation in &ply.variations {
                self.variation(variation, first, depth + 1);
                broken = true;
            }
        }
    }

    /// A variation on lines of its own, indented by its depth; the line
    /// around it goes on below it.
    fn variation(&mut self, plies: &[PlyView], first: &str, depth: usize) {
        let outer = self.indent;
        self.indent = 2 * depth;
        self.pending = false;
        self.new_line();
        self.glue("(");
        self.glued = true;
        self.line(plies, first, depth);
        self.glued = false;
        self.glue(")");
        self.indent = outer;
        self.pending = true;
    }

    /// The lines filled.
    fn finish(mut self) -> Vec<String> {
        self.new_line();
        self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(ply: usize, token: &str) -> PlyView {
        let side = if ply % 2 == 1 { "white" } else { "black" };
        PlyView {
            ply,
            number: ply.div_ceil(2),
            side,
            token: token.to_string(),
            mv: None,
            name: None,
            fen: None,
            certain: false,
            comments_before: Vec::new(),
            comments: Vec::new(),
            nags: Vec::new(),
            glyphs: Vec::new(),
            illegal: false,
            variations: Vec::new(),
        }
    }

    #[test]
    fn comments_and_variations_are_written_as_pdn_does() {
        let mut moves = vec![ply(1, "32-28"), ply(2, "19-23"), ply(3, "28x19")];
        moves[0].glyphs = vec!["!".into(), "±".into()];
        moves[1].comments = vec!["a  long\nremark".into()];
        let mut variation = vec![ply(2, "18-23"), ply(3, "37-32")];
        variation[0].comments_before = vec!["or".into()];
        variation[1].variations = vec![vec![ply(3, "31-27")]];
        moves[1].variations = vec![variation];
        let lines = annotated_lines(&["before".into()], &moves, "white");
        assert_eq!(
            lines,
            [
                "{before} 1. 32-28! ± 19-23 {a long remark}",
                "  ({or} 1... 18-23 2. 37-32",
                "    (2. 31-27))",
                "2. 28x19",
            ]
        );
    }

    #[test]
    fn long_comments_wrap_under_80_columns() {
        let mut moves = vec![ply(1, "32-28")];
        moves[0].comments = vec!["word ".repeat(40)];
        let lines = annotated_lines(&[], &moves, "white");
        assert!(lines.len() > 2);
        assert!(lines.iter().all(|l| l.chars().count() < WIDTH), "{lines:?}");
        assert_eq!(lines.join(" ").split_whitespace().count(), 42);
    }
}
