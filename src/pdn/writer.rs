//! Writing games as PDN 3.0 text.
//!
//! A game is written as its tags, one per line (`[Name "value"]`, with `"`
//! and `\` escaped), a blank line, then the movetext wrapped to lines under
//! 80 columns, then a blank line. Move numbers are written afresh: `12.`
//! before the first side's moves, `12...` before a second-side move that
//! opens a line or follows a comment or variation. Moves are written in
//! their canonical form (`23x14`, `a3-b4`), or as their text when that
//! reads back as the same move (`23:14`, `01-05`), so that a move copied from
//! a record keeps its form; unknown moves as `- -`, and text that was not a
//! move as it was written. Marks are glued to their move,
//! glyphs written `$n`, comments `{…}`, set-up commands `/…/`, variations
//! `( … )`. A game without a result, or with the unknown result `-`, gets
//! `*`.
//!
//! Comments keep their text, except that a long one may be wrapped at its
//! spaces (a reader sees the same words), and braces that do not balance
//! are written as parentheses, since PDN cannot escape them.

use std::io::{self, Write};

use super::game::{Comment, Game, Line, Nag, Ply, PlyToken, SetupCommand, Tag};
use super::lex::result_len;
use crate::notation::MoveToken;

/// Lines are kept under this many columns.
const WIDTH: usize = 79;

/// Writes one game, followed by a blank line.
///
/// # Errors
/// The I/O errors of `out`.
pub fn write_game<W: Write + ?Sized>(out: &mut W, game: &Game) -> io::Result<()> {
    out.write_all(game_to_string(game).as_bytes())
}

/// Writes games one after the other.
///
/// # Errors
/// The I/O errors of `out`.
pub fn write_games<'a, W: Write>(
    out: &mut W,
    games: impl IntoIterator<Item = &'a Game>,
) -> io::Result<()> {
    for game in games {
        write_game(out, game)?;
    }
    Ok(())
}

/// One game as PDN text, ending with a blank line.
pub fn game_to_string(game: &Game) -> String {
    let mut out = tags_to_string(&game.tags);
    let mut text = Wrap::default();
    write_line(
        &mut text,
        &game.movetext,
        &game.line,
        Counter::start(&game.line),
    );
    // A lone `-` (an unknown result some files write) is PDN's `*`.
    let result = game.result.as_ref().map_or("*", |r| r.text.as_str()).trim();
    text.word(if result == "-" { "*" } else { result });
    out.push_str(&text.out);
    out.push_str("\n\n");
    out
}

/// Tags as PDN text, one per line (`[Name "value"]`), then a blank line
/// when there is any.
pub fn tags_to_string(tags: &[Tag]) -> String {
    let mut out = String::new();
    for tag in tags {
        out.push('[');
        out.push_str(&tag.name);
        out.push_str(" \"");
        for c in tag.value.chars() {
            match c {
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                // A tag is one line.
                '\n' | '\r' => out.push(' '),
                _ => out.push(c),
            }
        }
        out.push_str("\"]\n");
    }
    if !tags.is_empty() {
        out.push('\n');
    }
    out
}

/// Move numbering: the number and whether the next move is the second
/// side's.
#[derive(Clone, Copy)]
struct Counter {
    number: u32,
    second: bool,
}

impl Counter {
    /// Numbering from the first move number written in the line, else 1.
    fn start(line: &Line) -> Counter {
        match line.plies.first().and_then(|p| p.number) {
            Some(n) => Counter {
                number: n.number,
                second: n.ellipsis,
            },
            None => Counter {
                number: 1,
                second: false,
            },
        }
    }

    fn next(self) -> Counter {
        Counter {
            number: if self.second {
                self.number.saturating_add(1)
            } else {
                self.number
            },
            second: !self.second,
        }
    }
}

/// Text being wrapped into lines.
#[derive(Default)]
struct Wrap {
    out: String,
    column: usize,
    /// Text to glue before the next word (a variation's `(`).
    prefix: String,
}

impl Wrap {
    /// Writes `word` after a space, or at the start of a new line when it
    /// would not fit.
    fn word(&mut self, word: &str) {
        self.piece(word, true);
    }

    /// Writes `word` after a space (or a line break when `may_break` and it
    /// would not fit).
    fn piece(&mut self, word: &str, may_break: bool) {
        let prefixed;
        let word = if self.prefix.is_empty() {
            word
        } else {
            prefixed = std::mem::take(&mut self.prefix) + word;
            &prefixed
        };
        // A word with a line break in it (a comment's) fits by its first line.
        let len = word.split('\n').next().unwrap_or_default().chars().count();
        if !self.out.is_empty() {
            if may_break && self.column + 1 + len > WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.glue(word);
    }

    /// Writes `text` right after what came before.
    fn glue(&mut self, text: &str) {
        self.out.push_str(text);
        match text.rfind('\n') {
            Some(k) => self.column = text[k + 1..].chars().count(),
            None => self.column += text.chars().count(),
        }
    }

    /// Closes a variation: right after what came before when it fits.
    fn close(&mut self, c: char) {
        if !self.prefix.is_empty() {
            // An empty variation.
            self.prefix.push(c);
            let text = std::mem::take(&mut self.prefix);
            self.word(&text);
        } else if self.column < WIDTH {
            self.out.push(c);
            self.column += 1;
        } else {
            self.out.push('\n');
            self.out.push(c);
            self.column = 1;
        }
    }
}

/// Writes `line`, a line of a game whose movetext is `movetext`.
fn write_line(w: &mut Wrap, movetext: &str, line: &Line, start: Counter) {
    for comment in &line.comments {
        write_comment(w, comment);
    }
    for setup in &line.setups {
        write_setup(w, setup);
    }
    let mut counter = start;
    let mut interrupted = true;
    let mut after_invalid = false;
    for ply in &line.plies {
        let invalid = matches!(ply.token, PlyToken::Invalid(_));
        // Text that is not a move always has its move number: it may end or
        // start with a joiner (`12x`, `x16`) and read as one move with the
        // ply beside it, and a line that starts with it reads as junk
        // between games (and what ends the line before it, a lone `-`, say,
        // as the end of the game).
        write_ply(
            w,
            movetext,
            ply,
            counter,
            interrupted || invalid || after_invalid,
        );
        interrupted =
            !ply.comments().is_empty() || !ply.setups().is_empty() || !ply.variations().is_empty();
        after_invalid = invalid;
        counter = counter.next();
    }
}

fn write_ply(w: &mut Wrap, movetext: &str, ply: &Ply, counter: Counter, interrupted: bool) {
    let written = ply.text(movetext);
    let number = if !counter.second {
        Some(format!("{}.", counter.number))
    } else if interrupted {
        Some(format!("{}...", counter.number))
    } else {
        None
    };
    let text = match &ply.token {
        PlyToken::Move(token) => {
            // As written when that is the same move.
            let text = if !written.is_empty()
                && !written.contains(['\n', '\r'])
                && written.parse::<MoveToken>().as_ref() == Ok(token)
            {
                written.to_string()
            } else {
                token.to_string()
            };
            // A move such as `1-0` would read as a result: zero-pad it.
            if result_len(text.as_bytes()).is_some() {
                format!("0{text}")
            } else {
                text
            }
        }
        // As written: `--` reads back as itself.
        PlyToken::Unknown if written == "--" => "--".to_string(),
        PlyToken::Unknown => "- -".to_string(),
        PlyToken::Invalid(_) => written.to_string(),
    };
    // Keep the number with its move.
    let mut word = match number {
        Some(number) => format!("{number} {text}"),
        None => text,
    };
    let mut nags = ply.nags().iter().peekable();
    // One mark is glued to its move; more marks would read as one.
    if let Some(Nag::Mark(mark)) = nags.peek() {
        word.push_str(mark);
        nags.next();
    }
    w.word(&word);
    for nag in nags {
        match nag {
            Nag::Glyph(n) => w.word(&format!("${n}")),
            Nag::Mark(mark) => w.word(mark),
        }
    }
    for comment in ply.comments() {
        write_comment(w, comment);
    }
    for setup in ply.setups() {
        write_setup(w, setup);
    }
    for variation in ply.variations() {
        w.prefix.push('(');
        write_line(w, movetext, variation, counter);
        w.close(')');
    }
}

fn write_setup(w: &mut Wrap, setup: &SetupCommand) {
    let text = setup.text.replace(['/', '\n'], " ");
    w.word(&format!("/{text}/"));
}

/// `text` with a no-break space before the `[` of any line (after the
/// first) that starts with one, so that no line of a comment, or of move
/// text kept as written, reads as a tag.
pub fn guard_tag_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
            let blanks = line.len() - line.trim_start_matches([' ', '\t']).len();
            if line[blanks..].starts_with('[') {
                out.push_str(&line[..blanks]);
                out.push('\u{A0}');
                out.push_str(&line[blanks..]);
                continue;
            }
        }
        out.push_str(line);
    }
    out
}

/// Whether the braces of `text` balance (so it can stand between braces).
fn balanced(text: &str) -> bool {
    let mut depth = 0i64;
    for b in text.bytes() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

fn write_comment(w: &mut Wrap, comment: &Comment) {
    let mut text = if balanced(&comment.text) {
        comment.text.clone()
    } else {
        comment.text.replace('{', "(").replace('}', ")")
    };
    if text.contains('\n') {
        text = guard_tag_lines(&text);
    }
    let pieces: Vec<&str> = text.split(' ').collect();
    let last = pieces.len() - 1;
    let mut from = 0;
    for (k, piece) in pieces.iter().enumerate() {
        let mut word = String::with_capacity(piece.len() + 2);
        if k == 0 {
            word.push('{');
        }
        word.push_str(piece);
        if k == last {
            word.push('}');
        }
        // A line starting with `[` after blanks could read as a tag: never
        // break where the rest of the comment, past blanks, starts with one.
        let may_break = !text[from..]
            .trim_start_matches([' ', '\t'])
            .starts_with('[');
        w.piece(&word, may_break);
        from += piece.len() + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::Reader;

    fn read(text: &str) -> Vec<Game> {
        Reader::new(text.as_bytes()).map(|g| g.unwrap()).collect()
    }

    fn rewrite(text: &str) -> String {
        read(text).iter().map(game_to_string).collect()
    }

    #[test]
    fn tags_blank_line_movetext_result() {
        let out =
            rewrite("[Event \"a \\\"b\\\" c\\\\d\"]\n[Date \"\"]\n1. 11-15 24-20 2. 8-11 1-0");
        assert_eq!(
            out,
            "[Event \"a \\\"b\\\" c\\\\d\"]\n[Date \"\"]\n\n1. 11-15 24-20 2. 8-11 1-0\n\n"
        );
    }

    #[test]
    fn numbers_comments_variations_annotations() {
        let out = rewrite(
            "1. 11-15 {good} 24-20 (23-19 $1 {alt}) 2. 8-11!? ( 2... 9-13 ) 28-24 /FEN \"W:W18:B11\"/ *",
        );
        assert_eq!(
            out,
            "1. 11-15 {good} 1... 24-20 (1... 23-19 $1 {alt}) 2. 8-11!? (2. 9-13) 2... 28-24\n/FEN \"W:W18:B11\"/ *\n\n"
        );
    }

    #[test]
    fn a_line_starting_with_the_second_side() {
        let out = rewrite("[FEN \"B:W18:B11\"]\n12... 11-15 13. 18x11 *");
        assert!(out.ends_with("12... 11-15 13. 18x11 *\n\n"), "{out}");
    }

    #[test]
    fn lines_stay_under_80_columns() {
        let moves: Vec<String> = (1..=60)
            .map(|n| format!("{n}. 11-15 24-20 {{a comment of a few words}}"))
            .collect();
        let out = rewrite(&format!("[Event \"x\"]\n{} 1/2-1/2", moves.join(" ")));
        for line in out.lines() {
            assert!(line.chars().count() < 80, "{line}");
        }
        assert_eq!(read(&out)[0].plies().len(), 120);
    }

    #[test]
    fn unknown_invalid_and_missing_result() {
        let out = rewrite("1. - - 11-15 2. 9-q 24-20");
        assert_eq!(out, "1. - - 11-15 2. 9-q 2... 24-20 *\n\n");
    }

    #[test]
    fn plies_beside_text_that_is_not_a_move_stay_apart() {
        for text in ["1. 0x\n0K *", "1. 0 {} x0 *", "1. 11-15x\n22-18 *"] {
            let out = rewrite(text);
            let game = &read(&out)[0];
            let plies: Vec<&str> = game.plies().iter().map(|p| game.ply_text(p)).collect();
            assert_eq!(plies.len(), 2, "{text:?} written {out:?}");
        }
        assert_eq!(rewrite("1. -- 11-15"), "1. -- 11-15 *\n\n");
    }

    /// Found by fuzzing: text that was not a move, written at the start of
    /// a line, read back as junk between games (and a `-` ending the line
    /// before it as the game's result).
    #[test]
    fn text_that_is_not_a_move_never_starts_a_line_by_itself() {
        let text = format!("1. 11-15 {} 24-20 *", "9-q ".repeat(40));
        let out = rewrite(&text);
        assert!(out.lines().count() > 2, "{out}");
        assert!(out.lines().all(|l| !l.starts_with("9-q")), "{out}");
        assert!(out.lines().all(|l| l.chars().count() < 80), "{out}");
        assert_eq!(read(&out).len(), 1);
        assert_eq!(read(&out)[0].plies().len(), 42);
    }

    /// Found by fuzzing: a game of a lone `-` result alone was written `-`,
    /// which between games is no game.
    #[test]
    fn a_lone_dash_result_is_written_as_the_unknown_result() {
        assert_eq!(rewrite("[White \"a\"]\n1. -"), "[White \"a\"]\n\n*\n\n");
        assert_eq!(rewrite("1. 11-15 -"), "1. 11-15 *\n\n");
    }

    /// Found by fuzzing: `1.1-0v` holds the move `1-0` (glued text after it
    /// keeps it from being a result); written plainly it read as a result.
    #[test]
    fn a_move_that_reads_like_a_result_is_written_zero_padded() {
        let games = read("1.1-0v 0-0, 1-1! *");
        assert_eq!(games[0].plies().len(), 3);
        let out = game_to_string(&games[0]);
        assert_eq!(out, "1. 01-0 {v} 1... 00-0 {,} 2. 01-1! *\n\n");
        let again = read(&out);
        assert_eq!(again.len(), 1);
        let tokens = |g: &Game| -> Vec<_> { g.plies().iter().map(|p| p.token.clone()).collect() };
        assert_eq!(tokens(&again[0]), tokens(&games[0]));
    }

    #[test]
    fn no_line_of_a_comment_reads_as_a_tag() {
        let mut games = read("1. 11-15 24-20 *");
        games[0].line.plies[0].after_mut().comments.push(Comment {
            text: "see\n [Event \"x\"]".into(),
            kind: crate::pdn::CommentKind::Brace,
            position: crate::pdn::Position::START,
        });
        let out = game_to_string(&games[0]);
        assert!(out.contains("{see\n \u{A0}[Event \"x\"]}"), "{out}");
        assert_eq!(read(&out).len(), 1);
    }

    #[test]
    fn no_line_break_in_a_comment_stands_before_a_tag_after_blanks() {
        // Blanks before the `[` (a tab after a space, or a run of spaces):
        // breaking the line in them would start a line that reads as a
        // tag. The first word's length moves the break over every place.
        for gap in [" \t", "  ", " \t "] {
            for len in 1..80 {
                let comment = format!("{} 22M{gap}[Event \"x\"] 1. 9-13", "w".repeat(len));
                let text = format!("[Event \"a\"]\n1. 11-15 {{{comment}}} 24-20 *\n");
                let games = read(&text);
                let written = rewrite(&text);
                let again = read(&written);
                assert_eq!(again.len(), 1, "{written}");
                let words = |games: &[Game]| -> Vec<String> {
                    let text = &games[0].plies()[0].comments()[0].text;
                    text.split_whitespace().map(str::to_string).collect()
                };
                assert_eq!(words(&again), words(&games), "{written}");
            }
        }
    }

    #[test]
    fn a_comment_over_several_lines_is_written_the_same_again() {
        let once = rewrite(
            "1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 {a long comment that is wrapped\nonce \
             already by its author and then again by the writer} 4. 4-8 *",
        );
        assert_eq!(rewrite(&once), once);
        for line in once.lines() {
            assert!(line.chars().count() < 80, "{line}");
        }
    }

    #[test]
    fn unbalanced_braces_become_parentheses() {
        let out = rewrite("1. 11-15 {a {b} 24-20 *");
        assert!(out.starts_with("1. 11-15 {a (b}"), "{out}");
    }
}
