//! Text from files and databases made safe to show on a terminal.
//!
//! Tag values, comments, move tokens and file names come from files that
//! anyone may have written; a control character among them (ESC starting
//! a terminal sequence that sets the window title, writes the clipboard or
//! clears the screen; BEL; a carriage return that hides what came before;
//! a C1 control such as U+009B, which some terminals read as ESC `[`)
//! would act on the reader's terminal instead of being seen. [`visible`]
//! turns each into an escape that shows what it was.
//!
//! The scheme, as in Rust string literals: a C0 control (U+0000–U+001F)
//! or DEL as `\x` and two lowercase hex digits (`\x1b`, `\x07`, `\x0a`,
//! `\x7f`); a C1 control (U+0080–U+009F) as `\u{` hex `}` (`\u{9b}`), so
//! that it is not taken for a byte. Tab is kept. Everything else,
//! backslashes and letters of every script included, is left as it is:
//! the escaped text is for reading, not for turning back into the
//! original (a value holding the four characters `\x1b` looks the same as
//! one holding ESC).
//!
//! Apply it where a value is formatted for a terminal, not to what is
//! stored: JSON output escapes control characters by itself, and exported
//! PDN keeps the text as it was.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is a control character that [`visible`] escapes: every
/// control character but tab.
pub fn is_hidden(c: char) -> bool {
    c.is_control() && c != '\t'
}

/// `text` with each control character but tab replaced by a visible
/// escape (`\x1b`, `\x7f`, `\u{9b}`; see the module documentation);
/// borrowed when there is none.
pub fn visible(text: &str) -> Cow<'_, str> {
    let Some(first) = text.find(is_hidden) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if !is_hidden(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    Cow::Owned(out)
}

/// `text` as [`visible`] makes it, but with its lines kept: a line feed,
/// and a carriage return just before one, stay as they are.
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    let hidden = |(i, c): (usize, char)| {
        is_hidden(c) && c != '\n' && !(c == '\r' && text[i + 1..].starts_with('\n'))
    };
    if !text.char_indices().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut line_start = 0;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            let line = &text[line_start..i];
            match line.strip_suffix('\r') {
                Some(rest) => {
                    out.push_str(&visible(rest));
                    out.push('\r');
                }
                None => out.push_str(&visible(line)),
            }
            out.push('\n');
            line_start = i + 1;
        }
    }
    out.push_str(&visible(&text[line_start..]));
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_kept_and_every_other_control_made_visible() {
        assert_eq!(
            visible_lines("{\u{1b}]0;title\u{7}}\n\u{1b}[2J\r\nx\ry\t\u{9b}z\u{7f}\r"),
            "{\\x1b]0;title\\x07}\n\\x1b[2J\r\nx\\x0dy\t\\u{9b}z\\x7f\\x0d"
        );
        assert!(matches!(
            visible_lines("[Event \"a\"]\r\n1. 11-15 *\n"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn control_characters_become_visible_escapes() {
        assert_eq!(
            visible("\u{1b}]0;pwned\u{7}"),
            "\\x1b]0;pwned\\x07",
            "a title-setting sequence"
        );
        assert_eq!(visible("\u{1b}[2J"), "\\x1b[2J");
        assert_eq!(
            visible("\u{1b}]52;c;ZXZpbA==\u{7}"),
            "\\x1b]52;c;ZXZpbA==\\x07"
        );
        assert_eq!(visible("a\rb\nc\0d"), "a\\x0db\\x0ac\\x00d");
        assert_eq!(visible("del\u{7f}"), "del\\x7f");
        assert_eq!(
            visible("\u{80}c1\u{9b}2J\u{9f}"),
            "\\u{80}c1\\u{9b}2J\\u{9f}"
        );
    }

    #[test]
    fn ordinary_text_is_borrowed_unchanged() {
        for text in [
            "",
            "Reyes, A.",
            "Ñoño – Müller ½-½ 日本 Ελλάδα",
            "tab\tkept",
            "C:\\games\\x1b.pdn",
            "\u{a0}no-break space and \u{ff} are not controls",
        ] {
            assert!(
                matches!(visible(text), Cow::Borrowed(t) if t == text),
                "{text:?}"
            );
        }
        // Text after the first control character is kept too.
        assert_eq!(visible("é\u{1b}ü"), "é\\x1bü");
    }

    #[test]
    fn the_result_has_no_control_character_and_escaping_twice_changes_nothing() {
        let all: String = (0u32..0x250).filter_map(char::from_u32).collect();
        let once = visible(&all).into_owned();
        assert!(!once.chars().any(is_hidden), "{once:?}");
        assert_eq!(visible(&once), once);
    }
}
