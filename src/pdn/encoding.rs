//! Which encoding a file's text is in: decided once per file, from a
//! bounded sample of its bytes, or given by the caller.
//!
//! The reader decides when the first byte outside ASCII arrives (until
//! then every ASCII-compatible encoding reads the same). It looks at up to
//! [`SNIFF_LEN`] bytes from there:
//!
//! * valid UTF-8 (a character cut at the end of the sample aside), or
//!   mostly so — at least [`UTF8_MAJORITY`] valid characters outside
//!   ASCII for each invalid sequence, as in a UTF-8 file with a damaged
//!   byte — is UTF-8: invalid bytes then become U+FFFD, with a warning on
//!   their game;
//! * anything else is a legacy encoding, guessed by `chardetng` (the
//!   detector of Firefox) among the single-byte encodings real files use
//!   (Windows-1252, Windows-1251, Windows-1250, ISO-8859-x, KOI8-U, …).
//!   Should it guess a multi-byte one (Shift_JIS, GBK, …), which the
//!   framing of PDN cannot read, Windows-1252 is taken instead. A game
//!   whose bytes are valid UTF-8 is still read as UTF-8 in such a file
//!   (files joined from several sources mix both).

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// Bytes looked at, from the first byte outside ASCII on, to decide a
/// file's encoding.
pub(crate) const SNIFF_LEN: usize = 1 << 20;

/// Valid UTF-8 characters outside ASCII needed for each invalid sequence
/// for a sample that is not valid UTF-8 to be read as UTF-8 all the same.
pub(crate) const UTF8_MAJORITY: usize = 4;

/// The encoding a file is read in, and how it was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    /// The encoding.
    pub encoding: &'static Encoding,
    /// How it was chosen.
    pub how: How,
}

/// How a file's encoding was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum How {
    /// By the caller.
    Forced,
    /// From the file's bytes.
    Detected,
    /// The bytes pointed to this encoding, which cannot be read: the
    /// chosen one is read instead.
    Instead(&'static Encoding),
}

impl Choice {
    /// The caller's encoding.
    pub fn forced(encoding: &'static Encoding) -> Choice {
        Choice {
            encoding,
            how: How::Forced,
        }
    }

    /// Whether every byte is one character (not UTF-8).
    pub fn single_byte(&self) -> bool {
        self.encoding != UTF_8
    }

    /// What a person is told, once per file, when a detected legacy
    /// encoding is first used; `None` when there is nothing to say.
    pub fn note(&self) -> Option<String> {
        let name = self.encoding.name();
        match self.how {
            How::Forced => None,
            How::Detected if self.encoding == UTF_8 => None,
            How::Detected => Some(format!(
                "the file is not UTF-8: its text is read as {name}, the encoding detected for it"
            )),
            How::Instead(guess) => Some(format!(
                "the file is not UTF-8: its text is read as {name} (the encoding detected for it, {}, is not one pdndb reads)",
                guess.name()
            )),
        }
    }
}

/// Decides the encoding of a file from `sample`, its bytes from the first
/// one outside ASCII on, which stands at byte `at` of the file (up to
/// [`SNIFF_LEN`] of them; `complete`: to the end of the file): UTF-8 when
/// the file starts with its byte-order mark, else as [`detect`] says.
pub(crate) fn decide_from(sample: &[u8], at: u64, complete: bool) -> Choice {
    if at == 0 && sample.starts_with(b"\xEF\xBB\xBF") {
        Choice {
            encoding: UTF_8,
            how: How::Detected,
        }
    } else {
        detect(sample, complete)
    }
}

/// Decides the encoding of a file from `sample`, its bytes from the first
/// one outside ASCII on (or a little before); `complete` says whether the
/// sample runs to the end of the file.
pub(crate) fn detect(sample: &[u8], complete: bool) -> Choice {
    let (good, bad) = utf8_evidence(sample, complete);
    if bad == 0 || good >= UTF8_MAJORITY.saturating_mul(bad) {
        return Choice {
            encoding: UTF_8,
            how: How::Detected,
        };
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(&without_utf8(sample), complete);
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    if readable(guess) {
        Choice {
            encoding: guess,
            how: How::Detected,
        }
    } else {
        Choice {
            encoding: WINDOWS_1252,
            how: How::Instead(guess),
        }
    }
}

/// `sample` with each valid UTF-8 character outside ASCII made a blank:
/// in a file that is not UTF-8 these are games in UTF-8 among the others
/// (read as UTF-8 all the same), or rare accidents; either way they would
/// only mislead the detector about the rest.
fn without_utf8(sample: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(sample.len());
    for chunk in sample.utf8_chunks() {
        for c in chunk.valid().chars() {
            out.push(if c.is_ascii() { c as u8 } else { b' ' });
        }
        out.extend_from_slice(chunk.invalid());
    }
    out
}

/// Whether the reader can read text in `encoding`: UTF-8, or a
/// single-byte encoding whose ASCII bytes are ASCII (the framing reads
/// brackets, quotes and newlines as bytes, and positions count one
/// character per byte).
pub(crate) fn readable(encoding: &'static Encoding) -> bool {
    encoding == UTF_8 || (encoding.is_single_byte() && encoding.is_ascii_compatible())
}

/// Whether `encoding` is UTF-16, which the reader turns into UTF-8 as it
/// reads (see [`Reader::with_encoding`](super::Reader::with_encoding)).
pub(crate) fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == UTF_16LE || encoding == UTF_16BE
}

/// The UTF-16 of text without a byte-order mark whose first character
/// tells its byte order: a character PDN text starts with (`[`, a digit,
/// a blank, `{`, `%` or `;`) in one byte and NUL in the other, and most of
/// the characters of `start` (its first bytes, read ahead) ASCII so.
pub(crate) fn utf16_by_first_character(start: &[u8]) -> Option<&'static Encoding> {
    let starts_pdn = |b: u8| b.is_ascii_digit() || b" \t\r\n[{%;".contains(&b);
    let (encoding, high) = match *start {
        [b, 0, ..] if starts_pdn(b) => (UTF_16LE, 1),
        [0, b, ..] if starts_pdn(b) => (UTF_16BE, 0),
        _ => return None,
    };
    let units = start.chunks_exact(2);
    let ascii = units
        .clone()
        .filter(|u| u[high] == 0 && u[1 - high] != 0)
        .count();
    (ascii * 4 >= units.len() * 3).then_some(encoding)
}

/// How many characters outside ASCII in `sample` are valid UTF-8, and how
/// many invalid sequences it holds; a sequence cut at the end of a sample
/// that is not `complete` counts as neither.
fn utf8_evidence(sample: &[u8], complete: bool) -> (usize, usize) {
    let (mut good, mut bad) = (0usize, 0usize);
    let mut chunks = sample.utf8_chunks().peekable();
    while let Some(chunk) = chunks.next() {
        good += chunk.valid().bytes().filter(|&b| b >= 0xC0).count();
        let invalid = chunk.invalid();
        let last = chunks.peek().is_none();
        let cut = last && !complete && invalid.len() < 4 && starts_a_sequence(invalid);
        if !invalid.is_empty() && !cut {
            bad += 1;
        }
    }
    (good, bad)
}

/// Whether `bytes` (an invalid run ending a sample) is the start of a
/// UTF-8 sequence that the rest of the input may complete.
fn starts_a_sequence(bytes: &[u8]) -> bool {
    let Some(&lead) = bytes.first() else {
        return false;
    };
    let len = match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return false,
    };
    bytes.len() < len && bytes[1..].iter().all(|&b| (0x80..0xC0).contains(&b))
}

/// The error of [`encoding_for_label`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodingError {
    /// No encoding has this label.
    #[error(
        "unknown encoding `{0}` (give one such as utf-8, windows-1252, windows-1251, windows-1250, iso-8859-2 or koi8-r)"
    )]
    Unknown(String),
    /// The encoding exists but cannot be read: neither UTF-8 nor a
    /// single-byte encoding whose ASCII bytes are ASCII.
    #[error(
        "encoding `{0}` cannot be read: pdndb reads UTF-8, UTF-16 and single-byte encodings (windows-1252, windows-1251, iso-8859-2, koi8-r, …)"
    )]
    Unsupported(String),
}

/// The encoding that `label` names (any label of the WHATWG Encoding
/// Standard, without case: `utf-8`, `windows-1251`, `cp1251`, `latin1`,
/// `koi8-r`, …), for [`Reader::with_encoding`](super::Reader::with_encoding).
///
/// # Errors
/// [`EncodingError::Unknown`] for a label no encoding has,
/// [`EncodingError::Unsupported`] for an encoding the reader cannot read
/// (multi-byte ones such as Shift_JIS). UTF-16 (`utf-16le`, `utf-16be`)
/// is read: for text in it without a byte-order mark.
pub fn encoding_for_label(label: &str) -> Result<&'static Encoding, EncodingError> {
    let encoding = Encoding::for_label(label.trim().as_bytes())
        .ok_or_else(|| EncodingError::Unknown(label.to_string()))?;
    if readable(encoding) || is_utf16(encoding) {
        Ok(encoding)
    } else {
        Err(EncodingError::Unsupported(label.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{KOI8_U, SHIFT_JIS, WINDOWS_1251};

    #[test]
    fn valid_or_mostly_valid_utf8_is_utf8() {
        assert_eq!(detect("Müller ½-½".as_bytes(), true).encoding, UTF_8);
        // A character cut at the end of the sample.
        let cut = &"Müller é".as_bytes()[..9];
        assert_eq!(detect(cut, false).encoding, UTF_8);
        assert_eq!(utf8_evidence(cut, false), (1, 0));
        assert_eq!(utf8_evidence(cut, true), (1, 1));
        // One damaged byte among many characters.
        let mut damaged = "Дмитриев Müller ".as_bytes().to_vec();
        damaged.push(0xE9);
        assert_eq!(utf8_evidence(&damaged, true), (9, 1));
        assert_eq!(detect(&damaged, true).encoding, UTF_8);
    }

    #[test]
    fn legacy_text_is_guessed() {
        let (cp1251, _, _) = WINDOWS_1251.encode(
            "[White \"Иванов Пётр\"]\n[Black \"Сидоров Алексей\"]\n[Event \"Чемпионат города\"]\n",
        );
        let choice = detect(&cp1251, true);
        assert_eq!(choice.encoding, WINDOWS_1251);
        assert_eq!(choice.how, How::Detected);
        assert_eq!(
            choice.note().unwrap(),
            "the file is not UTF-8: its text is read as windows-1251, the encoding detected for it"
        );
        let (latin, _, _) =
            WINDOWS_1252.encode("[White \"Müller, Jürgen\"]\n[Black \"Peña\"]\n{café} ½-½\n");
        assert_eq!(detect(&latin, true).encoding, WINDOWS_1252);
        let (koi8, _, _) = KOI8_U.encode("[White \"Иванов Пётр\"]\n[Black \"Сидоров Алексей\"]\n");
        assert!(readable(detect(&koi8, true).encoding));
    }

    #[test]
    fn labels() {
        assert_eq!(encoding_for_label("cp1251"), Ok(WINDOWS_1251));
        assert_eq!(encoding_for_label(" UTF-8 "), Ok(UTF_8));
        assert_eq!(encoding_for_label("latin1"), Ok(WINDOWS_1252));
        assert!(matches!(
            encoding_for_label("nonsense"),
            Err(EncodingError::Unknown(_))
        ));
        assert!(matches!(
            encoding_for_label("shift_jis"),
            Err(EncodingError::Unsupported(_))
        ));
        assert_eq!(encoding_for_label("utf-16le"), Ok(UTF_16LE));
        assert_eq!(encoding_for_label("UTF-16BE"), Ok(UTF_16BE));
    }

    #[test]
    fn utf16_is_known_by_its_first_character() {
        assert_eq!(utf16_by_first_character(b"[\0E\0"), Some(UTF_16LE));
        assert_eq!(utf16_by_first_character(b"\x001\x00."), Some(UTF_16BE));
        assert_eq!(utf16_by_first_character(b"\r\0\n\0"), Some(UTF_16LE));
        assert_eq!(utf16_by_first_character(b"[\0E\0\xe9\0v\0"), Some(UTF_16LE));
        // A NUL before ASCII text is not UTF-16.
        assert_eq!(utf16_by_first_character(b"\0[Event"), None);
        for undecided in [&b"A\0"[..], b"\0\0", b"[E", b"[", b""] {
            assert_eq!(utf16_by_first_character(undecided), None, "{undecided:?}");
        }
        assert!(!readable(SHIFT_JIS));
        assert_eq!(
            Choice {
                encoding: WINDOWS_1252,
                how: How::Instead(SHIFT_JIS)
            }
            .note()
            .unwrap(),
            "the file is not UTF-8: its text is read as windows-1252 (the encoding detected for it, Shift_JIS, is not one pdndb reads)"
        );
    }
}
