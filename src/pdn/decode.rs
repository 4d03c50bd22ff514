//! Turning a game's bytes into text, and offsets in that text back into
//! positions in the input.

use encoding_rs::WINDOWS_1252;

use super::error::Position;
use super::framing::Segment;
use super::game::TextEncoding;

/// A game's decoded text.
pub(crate) struct GameText {
    /// The text.
    pub text: String,
    /// Where runs of the text stand in the input (offsets in `text`).
    pub segments: Vec<Segment>,
    /// How the bytes were decoded.
    pub encoding: TextEncoding,
}

/// Decodes a game's bytes: UTF-8 when they are valid UTF-8, else
/// Windows-1252 (every byte one character). Also returns the byte buffer
/// when the text did not take it over, for reuse.
pub(crate) fn decode(bytes: Vec<u8>, segments: Vec<Segment>) -> (GameText, Option<Vec<u8>>) {
    match String::from_utf8(bytes) {
        Ok(text) => (
            GameText {
                text,
                segments,
                encoding: TextEncoding::Utf8,
            },
            None,
        ),
        Err(e) => {
            let bytes = e.into_bytes();
            let mut text = String::with_capacity(bytes.len() + bytes.len() / 4);
            let mut decoded = Vec::with_capacity(segments.len());
            for (k, segment) in segments.iter().enumerate() {
                let end = segments.get(k + 1).map_or(bytes.len(), |s| s.at);
                decoded.push(Segment {
                    at: text.len(),
                    start: segment.start,
                });
                // Windows-1252 maps every byte to a character: nothing is replaced.
                let (part, _) = WINDOWS_1252.decode_without_bom_handling(&bytes[segment.at..end]);
                text.push_str(&part);
            }
            (
                GameText {
                    text,
                    segments: decoded,
                    encoding: TextEncoding::Windows1252,
                },
                Some(bytes),
            )
        }
    }
}

/// Converts offsets in a game's text into positions in the input. Asking
/// in increasing order costs time linear in the text overall.
pub(crate) struct Locator<'a> {
    bytes: &'a [u8],
    segments: &'a [Segment],
    utf8: bool,
    next: usize,
    offset: usize,
    position: Position,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a GameText) -> Locator<'a> {
        let first = text.segments.first().map_or(Position::START, |s| s.start);
        Locator {
            bytes: text.text.as_bytes(),
            segments: &text.segments,
            utf8: text.encoding == TextEncoding::Utf8,
            next: 1,
            offset: 0,
            position: first,
        }
    }

    /// The position in the input of text offset `target`.
    pub fn at(&mut self, target: usize) -> Position {
        let target = target.min(self.bytes.len());
        if target < self.offset {
            self.next = 1;
            self.offset = 0;
            self.position = self.segments.first().map_or(Position::START, |s| s.start);
        }
        while let Some(segment) = self.segments.get(self.next) {
            if segment.at > target {
                break;
            }
            self.offset = segment.at;
            self.position = segment.start;
            self.next += 1;
        }
        let passed = &self.bytes[self.offset..target];
        let mut position = self.position;
        // Usually a few bytes since the last call: a plain loop without
        // branches is fastest. A newline starts column 1; every byte but a
        // UTF-8 continuation byte is a character (and, in text decoded from
        // Windows-1252, one byte of the input).
        let (mut line, mut column, mut chars) = (position.line, position.column, 0u64);
        for &b in passed {
            let newline = b == b'\n';
            let char = u64::from((b as i8) >= -64);
            line += u64::from(newline);
            column = if newline { 1 } else { column + char };
            chars += char;
        }
        position.line = line;
        position.column = column;
        position.byte += if self.utf8 {
            passed.len() as u64
        } else {
            chars
        };
        self.position = position;
        self.offset = target;
        position
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(at: usize, byte: u64, line: u64, column: u64) -> Segment {
        Segment {
            at,
            start: Position { byte, line, column },
        }
    }

    #[test]
    fn utf8_stays_utf8() {
        let (text, _) = decode("Müller ½-½".as_bytes().to_vec(), vec![segment(0, 0, 1, 1)]);
        assert_eq!(text.text, "Müller ½-½");
        assert_eq!(text.encoding, TextEncoding::Utf8);
    }

    #[test]
    fn windows_1252_is_decoded_and_located_by_input_bytes() {
        let (text, spare) = decode(
            b"M\xFCller\n\xBD-\xBD x".to_vec(),
            vec![segment(0, 10, 3, 1)],
        );
        assert!(spare.is_some());
        assert_eq!(text.text, "Müller\n½-½ x");
        assert_eq!(text.encoding, TextEncoding::Windows1252);
        let mut loc = Locator::new(&text);
        let x = text.text.find('x').unwrap();
        assert_eq!(
            loc.at(x),
            Position {
                byte: 10 + 11,
                line: 4,
                column: 5
            }
        );
        let l = text.text.find('l').unwrap();
        assert_eq!(
            loc.at(l),
            Position {
                byte: 12,
                line: 3,
                column: 3
            }
        );
    }

    #[test]
    fn segments_jump_over_cut_text() {
        let (text, _) = decode(
            b"{aaa}b".to_vec(),
            vec![segment(0, 0, 1, 1), segment(4, 1000, 7, 2)],
        );
        let mut loc = Locator::new(&text);
        assert_eq!(loc.at(1).byte, 1);
        assert_eq!(
            loc.at(5),
            Position {
                byte: 1001,
                line: 7,
                column: 3
            }
        );
    }
}
