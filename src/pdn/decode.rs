//! Turning a game's bytes into text, and offsets in that text back into
//! positions in the input.

use encoding_rs::Encoding;

use super::encoding::{Choice, How, detect};
use super::error::Position;
use super::framing::Segment;
use super::text_encoding::TextEncoding;

/// A game's decoded text.
pub(crate) struct GameText {
    /// The text.
    pub text: String,
    /// Where runs of the text stand in the input (offsets in `text`).
    pub segments: Vec<Segment>,
    /// How the bytes were decoded.
    pub encoding: TextEncoding,
    /// The sequences that were not valid UTF-8, each now a U+FFFD, in text
    /// order (UTF-8 text only).
    pub replaced: Vec<Replacement>,
}

/// A sequence of bytes that was not valid UTF-8, read as U+FFFD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Replacement {
    /// Offset of the U+FFFD in the text.
    pub at: usize,
    /// The bytes replaced: the first `len` (1 to 3).
    pub bytes: [u8; 3],
    /// How many bytes were replaced.
    pub len: u8,
}

/// Decodes a game's bytes in the input's encoding (`choice`; decided from
/// the game's bytes when the input had none, which only an input of
/// ASCII leaves): valid UTF-8 as UTF-8, unless a legacy encoding was
/// given for the input; else in the legacy encoding, or as UTF-8 with
/// invalid sequences replaced by U+FFFD. Also returns the byte buffer
/// when the text did not take it over, for reuse.
pub(crate) fn decode(
    bytes: Vec<u8>,
    segments: Vec<Segment>,
    choice: Option<Choice>,
) -> (GameText, Option<Vec<u8>>) {
    let forced_legacy = choice.is_some_and(|c| c.how == How::Forced && c.single_byte());
    let bytes = if forced_legacy && !bytes.is_ascii() {
        bytes
    } else {
        match String::from_utf8(bytes) {
            Ok(text) => {
                let text = GameText {
                    text,
                    segments,
                    encoding: TextEncoding::Utf8,
                    replaced: Vec::new(),
                };
                return (text, None);
            }
            Err(e) => e.into_bytes(),
        }
    };
    let choice = choice.unwrap_or_else(|| detect(&bytes, true));
    let text = if choice.single_byte() {
        decode_legacy(&bytes, &segments, choice.encoding)
    } else {
        decode_lossy(&bytes, &segments)
    };
    (text, Some(bytes))
}

/// Whether [`decode`] reads `bytes` in a legacy encoding, told without
/// decoding them: only a single-byte `choice` (or, with none, one detected
/// from bytes that are not UTF-8) does, for bytes that are not valid UTF-8
/// (or not ASCII, when the caller gave that encoding).
pub(crate) fn decodes_as_legacy(bytes: &[u8], choice: Option<Choice>) -> bool {
    match choice {
        None => std::str::from_utf8(bytes).is_err() && detect(bytes, true).single_byte(),
        Some(choice) if !choice.single_byte() => false,
        Some(choice) if choice.how == How::Forced => !bytes.is_ascii(),
        Some(_) => std::str::from_utf8(bytes).is_err(),
    }
}

/// The runs of `bytes` that `segments` give, one after the other, each
/// with where it starts in the text made of them.
fn runs<'b>(
    bytes: &'b [u8],
    segments: &'b [Segment],
) -> impl Iterator<Item = (&'b Segment, &'b [u8])> + 'b {
    segments.iter().enumerate().map(move |(k, segment)| {
        let end = segments.get(k + 1).map_or(bytes.len(), |s| s.at);
        (segment, &bytes[segment.at..end])
    })
}

/// `bytes` in a single-byte `encoding`: every byte one character.
fn decode_legacy(bytes: &[u8], segments: &[Segment], encoding: &'static Encoding) -> GameText {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 4);
    let mut decoded = Vec::with_capacity(segments.len());
    for (segment, run) in runs(bytes, segments) {
        decoded.push(Segment {
            at: text.len(),
            start: segment.start,
        });
        let (part, _) = encoding.decode_without_bom_handling(run);
        text.push_str(&part);
    }
    GameText {
        text,
        segments: decoded,
        encoding: TextEncoding::Legacy(encoding),
        replaced: Vec::new(),
    }
}

/// `bytes` as UTF-8, each invalid sequence read as U+FFFD.
fn decode_lossy(bytes: &[u8], segments: &[Segment]) -> GameText {
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut decoded = Vec::with_capacity(segments.len());
    let mut replaced = Vec::new();
    for (segment, run) in runs(bytes, segments) {
        decoded.push(Segment {
            at: text.len(),
            start: segment.start,
        });
        for chunk in run.utf8_chunks() {
            text.push_str(chunk.valid());
            let bad = chunk.invalid();
            if !bad.is_empty() {
                let len = bad.len().min(3);
                let mut kept = [0u8; 3];
                kept[..len].copy_from_slice(&bad[..len]);
                replaced.push(Replacement {
                    at: text.len(),
                    bytes: kept,
                    len: len as u8,
                });
                text.push(char::REPLACEMENT_CHARACTER);
            }
        }
    }
    GameText {
        text,
        segments: decoded,
        encoding: TextEncoding::Utf8,
        replaced,
    }
}

/// What turns an offset in a game's movetext back into a position in the
/// input: the runs of the movetext after its first (only a game cut
/// somewhere has any) and the U+FFFD that stand for invalid sequences in
/// it, both at offsets in the movetext. Kept with the game, so that the
/// position of a move is worked out when asked for, not for every move
/// read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MovetextMap {
    later: Vec<Segment>,
    replaced: Vec<Replacement>,
}

impl MovetextMap {
    /// The map of the movetext `text.text[from..to]`.
    pub fn new(text: &GameText, from: usize, to: usize) -> MovetextMap {
        let inside = |at: usize| at > from && at < to;
        MovetextMap {
            later: text
                .segments
                .iter()
                .filter(|s| inside(s.at))
                .map(|s| Segment {
                    at: s.at - from,
                    start: s.start,
                })
                .collect(),
            replaced: text
                .replaced
                .iter()
                .filter(|r| r.at == from || inside(r.at))
                .map(|r| Replacement {
                    at: r.at - from,
                    ..*r
                })
                .collect(),
        }
    }

    /// The position in the input of offset `at` of `movetext`, which starts
    /// at `start` and was decoded as `encoding`.
    pub fn locate(
        &self,
        movetext: &str,
        start: Position,
        encoding: TextEncoding,
        at: usize,
    ) -> Position {
        let mut segments = Vec::with_capacity(1 + self.later.len());
        segments.push(Segment { at: 0, start });
        segments.extend_from_slice(&self.later);
        let utf8 = encoding == TextEncoding::Utf8;
        Locator::over(movetext.as_bytes(), &segments, &self.replaced, utf8).at(at)
    }
}

/// Converts offsets in a game's text into positions in the input. Asking
/// in increasing order costs time linear in the text overall; in ASCII
/// text, constant time per call but for one search per line.
pub(crate) struct Locator<'a> {
    bytes: &'a [u8],
    segments: &'a [Segment],
    utf8: bool,
    /// The U+FFFD that stand for invalid sequences (UTF-8 text only), and
    /// the index of the first one not passed.
    replaced: &'a [Replacement],
    fix: usize,
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
        let utf8 = text.encoding == TextEncoding::Utf8;
        Locator::over(text.text.as_bytes(), &text.segments, &text.replaced, utf8)
    }

    /// A locator over `bytes` (UTF-8 text, or text decoded from a legacy
    /// encoding when not `utf8`), whose runs stand where `segments` say,
    /// the first at offset 0, and whose U+FFFD for invalid sequences are
    /// `replaced`.
    fn over(
        bytes: &'a [u8],
        segments: &'a [Segment],
        replaced: &'a [Replacement],
        utf8: bool,
    ) -> Locator<'a> {
        let mut locator = Locator {
            bytes,
            segments,
            utf8,
            replaced,
            fix: 0,
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
        self.fix = 0;
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
        self.position.byte += match (self.utf8, self.replaced.is_empty()) {
            (true, true) => span.len() as u64,
            (true, false) => span.len() as u64 - self.replaced_before(to),
            (false, _) => chars,
        };
        self.offset = to;
    }

    /// How many bytes more than in the input the text has between
    /// `offset` and `to`: each U+FFFD takes three bytes where it stands
    /// for one to three.
    #[cold]
    #[inline(never)]
    fn replaced_before(&mut self, to: usize) -> u64 {
        let mut extra = 0;
        while let Some(r) = self.replaced.get(self.fix) {
            if r.at >= to {
                break;
            }
            if r.at >= self.offset {
                extra += 3 - u64::from(r.len);
            }
            self.fix += 1;
        }
        extra
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
    use encoding_rs::UTF_8;

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
                TextEncoding::Legacy(_) => 1,
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
            let (text, _) = decode(bytes, segments, latin.then_some(WINDOWS_1252_DETECTED));
            let mut loc = Locator::new(&text);
            for target in targets {
                let target = (0..=target.min(text.text.len())).rev().find(|&t| text.text.is_char_boundary(t)).unwrap();
                proptest::prop_assert_eq!(loc.at(target), located_slowly(&text, target));
            }
        }
    }

    const WINDOWS_1252_DETECTED: Choice = Choice {
        encoding: encoding_rs::WINDOWS_1252,
        how: How::Detected,
    };

    #[test]
    fn utf8_stays_utf8() {
        for choice in [None, Some(WINDOWS_1252_DETECTED)] {
            let (text, _) = decode(
                "Müller ½-½".as_bytes().to_vec(),
                vec![segment(0, 0, 1, 1)],
                choice,
            );
            assert_eq!(text.text, "Müller ½-½");
            assert_eq!(text.encoding, TextEncoding::Utf8);
        }
        // Unless a legacy encoding was given for the input.
        let forced = Choice::forced(encoding_rs::WINDOWS_1252);
        let (text, _) = decode(
            "Müller".as_bytes().to_vec(),
            vec![segment(0, 0, 1, 1)],
            Some(forced),
        );
        assert_eq!(text.text, "MÃ¼ller");
        assert_eq!(
            text.encoding,
            TextEncoding::Legacy(encoding_rs::WINDOWS_1252)
        );
        let (text, _) = decode(b"ascii".to_vec(), vec![segment(0, 0, 1, 1)], Some(forced));
        assert_eq!(text.encoding, TextEncoding::Utf8);
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters_located_by_input_bytes() {
        let utf8 = Choice {
            encoding: UTF_8,
            how: How::Detected,
        };
        let (text, spare) = decode(
            b"\xC3\xA9t\xE9 \xE2\x82 x\n\xFFy".to_vec(),
            vec![segment(0, 100, 5, 1)],
            Some(utf8),
        );
        assert!(spare.is_some());
        assert_eq!(text.text, "ét\u{FFFD} \u{FFFD} x\n\u{FFFD}y");
        assert_eq!(text.encoding, TextEncoding::Utf8);
        assert_eq!(
            text.replaced,
            [
                Replacement {
                    at: 3,
                    bytes: [0xE9, 0, 0],
                    len: 1
                },
                Replacement {
                    at: 7,
                    bytes: [0xE2, 0x82, 0],
                    len: 2
                },
                Replacement {
                    at: 13,
                    bytes: [0xFF, 0, 0],
                    len: 1
                }
            ]
        );
        let mut loc = Locator::new(&text);
        let x = text.text.find('x').unwrap();
        assert_eq!(
            loc.at(x),
            Position {
                byte: 100 + 8,
                line: 5,
                column: 7
            }
        );
        let y = text.text.find('y').unwrap();
        assert_eq!(
            loc.at(y),
            Position {
                byte: 100 + 11,
                line: 6,
                column: 2
            }
        );
        // Asked again from the start.
        assert_eq!(loc.at(x).byte, 108);
    }

    #[test]
    fn windows_1252_is_decoded_and_located_by_input_bytes() {
        let (text, spare) = decode(
            b"M\xFCller\n\xBD-\xBD x".to_vec(),
            vec![segment(0, 10, 3, 1)],
            Some(WINDOWS_1252_DETECTED),
        );
        assert!(spare.is_some());
        assert_eq!(text.text, "Müller\n½-½ x");
        assert_eq!(
            text.encoding,
            TextEncoding::Legacy(encoding_rs::WINDOWS_1252)
        );
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
            None,
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

    #[test]
    fn legacy_is_told_without_decoding() {
        let choices = [
            None,
            Some(WINDOWS_1252_DETECTED),
            Some(Choice::forced(encoding_rs::WINDOWS_1252)),
            Some(Choice::forced(UTF_8)),
            Some(Choice {
                encoding: UTF_8,
                how: How::Detected,
            }),
            Some(Choice {
                encoding: encoding_rs::WINDOWS_1252,
                how: How::Instead(encoding_rs::SHIFT_JIS),
            }),
        ];
        let texts: [&[u8]; 5] = [
            b"1. 11-15 *",
            "M\u{fc}ller".as_bytes(),
            b"M\xfcller",
            b"\xc8\xe2\xe0\xed\xee\xe2 \xc8\xe2\xe0\xed",
            b"",
        ];
        for choice in choices {
            for bytes in texts {
                let (text, _) = decode(bytes.to_vec(), vec![segment(0, 0, 1, 1)], choice);
                assert_eq!(
                    decodes_as_legacy(bytes, choice),
                    matches!(text.encoding, TextEncoding::Legacy(_)),
                    "{choice:?} {bytes:?}"
                );
            }
        }
    }
}
