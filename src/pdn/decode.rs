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
/// in increasing order costs time linear in the text overall; in ASCII
/// text, constant time per call but for one search per line.
pub(crate) struct Locator<'a> {
    bytes: &'a [u8],
    segments: &'a [Segment],
    utf8: bool,
    /// The whole text is ASCII: a byte is a character.
    ascii: bool,
    /// Index of the next segment.
    next: usize,
    /// The offset whose position is `position`.
    offset: usize,
    position: Position,
    /// The first newline at or after `offset` (the text's length if none).
    newline: usize,
    /// Where the next segment starts (`usize::MAX` if none).
    segment_end: usize,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a GameText) -> Locator<'a> {
        let bytes = text.text.as_bytes();
        let mut locator = Locator {
            bytes,
            segments: &text.segments,
            utf8: text.encoding == TextEncoding::Utf8,
            ascii: bytes.is_ascii(),
            next: 1,
            offset: 0,
            position: Position::START,
            newline: 0,
            segment_end: usize::MAX,
        };
        locator.restart();
        locator
    }

    /// Back to the start of the text.
    fn restart(&mut self) {
        self.next = 1;
        self.offset = 0;
        self.position = self.segments.first().map_or(Position::START, |s| s.start);
        self.newline = self.newline_from(0);
        self.segment_end = self.segment_end();
    }

    fn segment_end(&self) -> usize {
        self.segments.get(self.next).map_or(usize::MAX, |s| s.at)
    }

    fn newline_from(&self, from: usize) -> usize {
        memchr::memchr(b'\n', &self.bytes[from..]).map_or(self.bytes.len(), |k| from + k)
    }

    /// Moves to `to`, with no newline before it since `offset`.
    fn pass(&mut self, to: usize) {
        let span = &self.bytes[self.offset..to];
        let chars = if self.ascii {
            span.len() as u64
        } else {
            span.iter().filter(|&&b| (b as i8) >= -64).count() as u64
        };
        self.position.column += chars;
        self.position.byte += if self.utf8 { span.len() as u64 } else { chars };
        self.offset = to;
    }

    /// The position in the input of text offset `target`.
    #[inline(always)]
    pub fn at(&mut self, target: usize) -> Position {
        if self.ascii && (self.offset..=self.newline).contains(&target) && target < self.segment_end
        {
            // Further on the same line of ASCII text: only the column moves.
            // (Built whole, then stored: reading back a struct just written
            // field by field would stall the processor.)
            let passed = (target - self.offset) as u64;
            let position = Position {
                byte: self.position.byte + passed,
                line: self.position.line,
                column: self.position.column + passed,
            };
            self.position = position;
            self.offset = target;
            return position;
        }
        self.at_any(target)
    }

    /// [`Locator::at`], anywhere.
    #[inline(never)]
    fn at_any(&mut self, target: usize) -> Position {
        let target = target.min(self.bytes.len());
        if target < self.offset {
            #[cfg(test)]
            tests::BACKWARD.with(|count| count.set(count.get() + 1));
            self.restart();
        }
        loop {
            let segment = self.segments.get(self.next).filter(|s| s.at <= target);
            let stop = segment.map_or(target, |s| s.at);
            while self.newline < stop {
                // Past a newline: the next line starts at column 1.
                self.pass(self.newline + 1);
                self.position.line += 1;
                self.position.column = 1;
                self.newline = self.newline_from(self.offset);
            }
            let Some(segment) = segment else { break };
            self.offset = segment.at;
            self.position = segment.start;
            self.next += 1;
            self.newline = self.newline_from(self.offset);
            self.segment_end = self.segment_end();
        }
        self.pass(target);
        self.position
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    thread_local! {
        /// How many times a locator of this thread was asked for an
        /// offset before the last one (each costs a pass from the start).
        pub(crate) static BACKWARD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    fn segment(at: usize, byte: u64, line: u64, column: u64) -> Segment {
        Segment {
            at,
            start: Position { byte, line, column },
        }
    }

    /// The position of `target`, counted from the start byte by byte.
    fn located_slowly(text: &GameText, target: usize) -> Position {
        let segment = text.segments.iter().rev().find(|s| s.at <= target).unwrap();
        let mut position = segment.start;
        for c in text.text[segment.at..target].chars() {
            if c == '\n' {
                position.line += 1;
                position.column = 1;
            } else {
                position.column += 1;
            }
            position.byte += match text.encoding {
                TextEncoding::Utf8 => c.len_utf8() as u64,
                TextEncoding::Windows1252 => 1,
            };
        }
        position
    }

    proptest::proptest! {
        #[test]
        fn positions_agree_with_counting_from_the_start(
            text in proptest::prop_oneof!["[a\n é½]{0,80}", "[a\n ]{0,80}"],
            latin in proptest::bool::ANY,
            cuts in proptest::collection::vec(1usize..80, 0..3),
            targets in proptest::collection::vec(0usize..200, 1..12),
        ) {
            // Segments start at characters, counted in the input's bytes.
            let bytes: Vec<u8> = if latin {
                text.chars().map(|c| c as u8).collect()
            } else {
                text.clone().into_bytes()
            };
            let starts: Vec<usize> = if latin {
                (0..text.chars().count()).collect()
            } else {
                text.char_indices().map(|(k, _)| k).collect()
            };
            let mut cuts: Vec<usize> = cuts.into_iter().filter_map(|c| starts.get(c).copied()).filter(|&c| c > 0).collect();
            cuts.sort_unstable();
            cuts.dedup();
            let mut segments = vec![segment(0, 0, 1, 1)];
            for (k, at) in cuts.into_iter().enumerate() {
                segments.push(segment(at, 1000 * (k as u64 + 1), 10 * (k as u64 + 1), 5));
            }
            let (text, _) = decode(bytes, segments);
            let mut loc = Locator::new(&text);
            for target in targets {
                let target = (0..=target.min(text.text.len())).rev().find(|&t| text.text.is_char_boundary(t)).unwrap();
                proptest::prop_assert_eq!(loc.at(target), located_slowly(&text, target));
            }
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
