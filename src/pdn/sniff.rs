//! Whether an input holds PDN at all, before it is read as games.
//!
//! An input is not PDN when it is empty, when its leading bytes are
//! binary content, or when it is text in which the reader finds neither a
//! tag pair nor a move. Text is any encoding the reader reads: UTF-8, a
//! single-byte legacy encoding (Windows-1252, KOI8-R, ISO-8859-2, …, whose
//! bytes above 127 are all characters), or UTF-16 marked by its byte-order
//! mark or by its first character.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read};

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

use super::encoding::{is_utf16, utf16_by_first_character};
use super::game::PlyToken;
use super::reader::Reader;

/// Leading bytes looked at to tell text from binary content.
pub const SNIFF_SAMPLE: usize = 64 << 10;

/// Bytes of a stream (standard input, a pipe, a device) read at most to
/// find a game in its text; a file is read to its end.
pub const STREAM_SNIFF_LIMIT: u64 = 16 << 20;

/// At most one control character in this many bytes of text: past
/// that, the sample is binary content. Text has none besides blanks and
/// line ends; random or compressed bytes have about one in ten.
const CONTROLS_PER: usize = 32;

/// Why an input is not PDN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotPdn {
    /// It holds no byte.
    Empty,
    /// Its leading sample holds a NUL, or too many other control
    /// characters to be text.
    Binary,
    /// It is text, but holds neither a tag pair nor a move.
    NoGame,
    /// It is a stream whose first [`STREAM_SNIFF_LIMIT`] bytes are text
    /// holding neither a tag pair nor a move (the rest is not read).
    NoGameAtStart,
    /// It is UTF-16 text without the byte-order mark that would tell it
    /// (its ASCII characters alternate with NUL bytes), in this encoding
    /// as far as its bytes tell, and its first character does not tell the
    /// byte order: read only when the encoding is given.
    Utf16WithoutBom(&'static Encoding),
}

impl fmt::Display for NotPdn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotPdn::Empty => "empty",
            NotPdn::Binary => "binary content",
            NotPdn::NoGame => "no tag pair or move in it",
            NotPdn::NoGameAtStart => {
                return write!(
                    f,
                    "no tag pair or move in its first {} MiB",
                    STREAM_SNIFF_LIMIT >> 20
                );
            }
            NotPdn::Utf16WithoutBom(_) => "UTF-16 text without a byte-order mark",
        })
    }
}

/// Whether `source` holds PDN: `None` when it does, else why not.
///
/// Binary content is decided from the first [`SNIFF_SAMPLE`] bytes only;
/// a file that starts as PDN (a tag pair or a move before its first
/// control character) is PDN damaged further on, which the reader reads
/// around, not binary. Text is then read as games until the first one
/// with a tag pair or a move (a FEN-only game or movetext without tags
/// counts), so a PDN file costs only the text before its first game; only
/// text that holds no game at all is read to its end (a long comment
/// before the games is not mistaken for the whole file).
///
/// # Errors
/// An I/O error of the source.
pub fn sniff<R: Read>(source: R) -> io::Result<Option<NotPdn>> {
    sniff_as(source, None)
}

/// As [`sniff`], the text read in `encoding` when one is given (as
/// [`Reader::with_encoding`] reads it); UTF-16 without a byte-order mark
/// is text only so.
///
/// # Errors
/// An I/O error of the source.
pub fn sniff_as<R: Read>(
    mut source: R,
    encoding: Option<&'static Encoding>,
) -> io::Result<Option<NotPdn>> {
    let mut sample = Vec::with_capacity(SNIFF_SAMPLE.min(8 << 10));
    (&mut source)
        .take(SNIFF_SAMPLE as u64)
        .read_to_end(&mut sample)?;
    if sample.is_empty() {
        return Ok(Some(NotPdn::Empty));
    }
    let text = as_utf8(&sample, encoding);
    if is_binary(&text) {
        if let Some(utf16) = utf16_without_bom(&sample).filter(|_| !encoding.is_some_and(is_utf16))
        {
            return Ok(Some(NotPdn::Utf16WithoutBom(utf16)));
        }
        let clean = text.iter().position(|&b| is_control(b)).unwrap_or(0);
        return Ok(if holds_game(&text[..clean])? {
            None
        } else {
            Some(NotPdn::Binary)
        });
    }
    let whole = io::Cursor::new(sample).chain(source);
    Ok(if holds_game_as(whole, encoding)? {
        None
    } else {
        Some(NotPdn::NoGame)
    })
}

/// Whether the reader finds a game with a tag pair or a move in `source`;
/// it stops at the first.
fn holds_game<R: Read>(source: R) -> io::Result<bool> {
    holds_game_as(source, None)
}

/// As [`holds_game`], the text read in `encoding` when one is given.
fn holds_game_as<R: Read>(source: R, encoding: Option<&'static Encoding>) -> io::Result<bool> {
    let mut reader = Reader::with_encoding(source, encoding);
    while let Some(game) = reader.next_game()? {
        let has_move = game
            .plies()
            .iter()
            .any(|p| matches!(p.token, PlyToken::Move(_)));
        if has_move || !game.tags.is_empty() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// A sample as bytes in which ASCII characters are ASCII bytes: the
/// sample itself, or, for UTF-16 text known by its byte-order mark,
/// `given` or its first character (whose ASCII characters hold NUL
/// bytes), the sample decoded into UTF-8.
fn as_utf8<'a>(sample: &'a [u8], given: Option<&'static Encoding>) -> Cow<'a, [u8]> {
    let (encoding, rest) = match (sample, given) {
        ([0xFF, 0xFE, rest @ ..], _) => (UTF_16LE, rest),
        ([0xFE, 0xFF, rest @ ..], _) => (UTF_16BE, rest),
        (_, Some(given)) if is_utf16(given) => (given, sample),
        (_, None) => match utf16_by_first_character(sample) {
            Some(found) => (found, sample),
            None => return Cow::Borrowed(sample),
        },
        _ => return Cow::Borrowed(sample),
    };
    let (text, _) = encoding.decode_without_bom_handling(rest);
    Cow::Owned(text.into_owned().into_bytes())
}

/// The encoding of a sample of UTF-16 text without a byte-order mark: one
/// byte of each pair is mostly NUL (ASCII characters), the other hardly
/// ever, and the sample decoded is text.
fn utf16_without_bom(sample: &[u8]) -> Option<&'static Encoding> {
    let units = &sample[..sample.len() & !1];
    let nuls = |first: usize| {
        let at = units.iter().skip(first).step_by(2);
        at.filter(|&&b| b == 0).count()
    };
    let (even, odd) = (nuls(0), nuls(1));
    let half = units.len() / 4;
    let encoding = if odd >= half && even.saturating_mul(8) <= odd {
        UTF_16LE
    } else if even >= half && odd.saturating_mul(8) <= even {
        UTF_16BE
    } else {
        return None;
    };
    let (text, _) = encoding.decode_without_bom_handling(units);
    (units.len() >= 4 && !is_binary(text.as_bytes())).then_some(encoding)
}

/// Whether a sample (from [`as_utf8`]) is binary content: it holds a
/// NUL, or more than one control character (other than tab, line ends,
/// form feed, escape and the DOS end-of-file mark) in [`CONTROLS_PER`]
/// bytes. Bytes above 127 are characters of some encoding.
fn is_binary(text: &[u8]) -> bool {
    let controls = text.iter().filter(|&&b| is_control(b)).count();
    text.contains(&0) || controls.saturating_mul(CONTROLS_PER) > text.len()
}

/// A control character that text does not hold (NUL included).
fn is_control(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x19 | 0x1C..=0x1F | 0x7F)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{KOI8_U, WINDOWS_1250, WINDOWS_1252};

    fn verdict(bytes: &[u8]) -> Option<NotPdn> {
        sniff(bytes).unwrap()
    }

    fn utf16(text: &str, little: bool) -> Vec<u8> {
        let mut out = if little {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        for unit in text.encode_utf16() {
            out.extend(if little {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            });
        }
        out
    }

    #[test]
    fn pdn_of_every_shape_is_pdn() {
        assert_eq!(verdict(b"[Event \"x\"]\n1. 11-15 23-19 *\n"), None);
        assert_eq!(verdict(b"[FEN \"W:W21:B1\"]\n*\n"), None);
        assert_eq!(verdict(b"1. 11-15 23-19 *\n"), None);
        assert_eq!(verdict(b"\xEF\xBB\xBF[Event \"x\"]\r\n*\r\n"), None);
        // The DOS end-of-file mark of old files.
        assert_eq!(verdict(b"1. 11-15 23-19 *\r\n\x1A"), None);
    }

    #[test]
    fn legacy_encodings_and_utf16_are_text() {
        let text = "[White \"Müller, Jürgen\"]\n[Black \"Peña Łukasz Иванов\"]\n1. 11-15 *\n";
        for encoding in [WINDOWS_1252, WINDOWS_1250, KOI8_U] {
            let (bytes, _, _) = encoding.encode(text);
            assert_eq!(verdict(&bytes), None, "{}", encoding.name());
        }
        // Bytes above 127 only, as in Cyrillic text in KOI8-R.
        let (cyrillic, _, _) = KOI8_U.encode("{Иванов Пётр Сидоров Алексей}");
        assert!(!is_binary(&as_utf8(&cyrillic, None)));
        assert_eq!(verdict(&utf16(text, true)), None);
        assert_eq!(verdict(&utf16(text, false)), None);
        assert_eq!(
            verdict(&utf16("just some words\n", true)),
            Some(NotPdn::NoGame)
        );
    }

    #[test]
    fn utf16_without_a_byte_order_mark_is_told_apart() {
        // Its first character tells its byte order: it is PDN.
        let text = "[White \"Müller\"]\n1. 11-15 23-19 *\n";
        for little in [true, false] {
            assert_eq!(verdict(&utf16(text, little).split_off(2)), None);
        }
        // Another first character does not: read only when given.
        let text = "Games of 2019\n\n[White \"Müller\"]\n1. 11-15 23-19 *\n";
        let little: Vec<u8> = utf16(text, true).split_off(2);
        let big: Vec<u8> = utf16(text, false).split_off(2);
        assert_eq!(verdict(&little), Some(NotPdn::Utf16WithoutBom(UTF_16LE)));
        assert_eq!(verdict(&big), Some(NotPdn::Utf16WithoutBom(UTF_16BE)));
        // Read as given, it is PDN.
        assert_eq!(sniff_as(&little[..], Some(UTF_16LE)).unwrap(), None);
        assert_eq!(sniff_as(&big[..], Some(UTF_16BE)).unwrap(), None);
        // NULs everywhere, or in binary records, are not UTF-16.
        assert_eq!(verdict(&[0; 4096]), Some(NotPdn::Binary));
        let records: Vec<u8> = (0u16..2048).flat_map(u16::to_le_bytes).collect();
        assert_eq!(verdict(&records), Some(NotPdn::Binary));
    }

    #[test]
    fn empty_binary_and_other_text_are_not() {
        assert_eq!(verdict(b""), Some(NotPdn::Empty));
        assert_eq!(verdict(b"\0[Event \"x\"]\n*"), Some(NotPdn::Binary));
        assert_eq!(verdict(b"{x}\n\0[Event \"x\"]\n*"), Some(NotPdn::Binary));
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
        assert_eq!(verdict(png), Some(NotPdn::Binary));
        // Control characters without a NUL, as in compressed data.
        let noisy: Vec<u8> = (1u8..=255).cycle().take(4096).collect();
        assert_eq!(verdict(&noisy), Some(NotPdn::Binary));
        assert_eq!(
            verdict(b"[package]\nname = \"pdndb\"\nversion = \"0.1.0\"\n"),
            Some(NotPdn::NoGame)
        );
        assert_eq!(verdict(b"   \n\n"), Some(NotPdn::NoGame));
        assert_eq!(NotPdn::NoGame.to_string(), "no tag pair or move in it");
        assert_eq!(NotPdn::Binary.to_string(), "binary content");
        assert_eq!(NotPdn::Empty.to_string(), "empty");
    }

    #[test]
    fn pdn_damaged_by_binary_bytes_is_pdn() {
        let mut damaged = b"[Event \"x\"]\n1. 11-15 ".to_vec();
        damaged.extend((0u8..=255).cycle().take(4096));
        damaged.extend_from_slice(b"\n\n[Event \"y\"]\n1. 9-13 *\n");
        assert_eq!(verdict(&damaged), None);
        // Text before the first control character that holds no game.
        let mut header = b"GIF89a".to_vec();
        header.extend((0u8..=255).cycle().take(4096));
        assert_eq!(verdict(&header), Some(NotPdn::Binary));
    }

    #[test]
    fn games_after_a_sample_of_comment_are_found() {
        let mut text = b"{".to_vec();
        text.extend(std::iter::repeat_n(b'x', SNIFF_SAMPLE + 100));
        text.extend_from_slice(b"}\n[Event \"x\"]\n1. 11-15 *\n");
        assert_eq!(verdict(&text), None);
        let mut words = b"notes ".repeat(SNIFF_SAMPLE / 4);
        assert_eq!(verdict(&words), Some(NotPdn::NoGame));
        words.extend_from_slice(b"\n\n1. 11-15 23-19 *\n");
        assert_eq!(verdict(&words), None);
    }
}
