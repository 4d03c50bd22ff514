//! Values quoted in messages, shortened when long: a message names what
//! is wrong without repeating a whole file's worth of it.

use std::borrow::Cow;

/// Characters of a long value a message quotes.
pub const QUOTED_CHARS: usize = 60;

/// `value` as a message quotes it: whole when at most
/// [`QUOTED_CHARS`] characters, else its start, `…` and its length in
/// bytes (`W:W1,1,1,1… (54,012 bytes)`).
pub fn shortened(value: &str) -> Cow<'_, str> {
    match value.char_indices().nth(QUOTED_CHARS) {
        None => Cow::Borrowed(value),
        Some((end, _)) => Cow::Owned(format!(
            "{}… ({} bytes)",
            &value[..end],
            thousands(value.len())
        )),
    }
}

/// `n` with its thousands set apart by commas (`54,012`).
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_value_is_quoted_by_its_start_and_length() {
        assert_eq!(shortened("W:W1,2:B3"), "W:W1,2:B3");
        let exact = "é".repeat(QUOTED_CHARS);
        assert_eq!(shortened(&exact), exact);
        let long = format!("W:W{}", "1,".repeat(27_000));
        let quoted = shortened(&long);
        assert!(quoted.starts_with("W:W1,1,1,"), "{quoted}");
        assert!(quoted.ends_with("… (54,003 bytes)"), "{quoted}");
        assert!(quoted.len() < 100);
        // Never cut inside a character.
        assert!(shortened(&"é".repeat(1000)).ends_with("é… (2,000 bytes)"));
    }

    #[test]
    fn thousands_are_set_apart() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(54_012), "54,012");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
