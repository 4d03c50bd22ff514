//! Text made safe for the markup of pictures and pages.

/// Text made safe for XML and HTML, in content and in quoted attributes:
/// `& < > " '` escaped; characters XML does not allow (most control
/// characters) replaced by U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || (0x7f..=0x9f).contains(&(c as u32)) => out.push('\u{fffd}'),
            '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_quotes_and_control_characters() {
        assert_eq!(
            escape("<a href=\"x\">O'Brien & co</a>\u{1}\u{7f}"),
            "&lt;a href=&quot;x&quot;&gt;O&#39;Brien &amp; co&lt;/a&gt;\u{fffd}\u{fffd}"
        );
        assert_eq!(escape("Sánchez\tx"), "Sánchez\tx");
    }
}
