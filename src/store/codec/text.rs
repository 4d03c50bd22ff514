//! A game's stored text (`provenance.text`): its original tags (a JSON
//! object, on one line) and its original move text, one after the other
//! with a line break between, coded on their own so that each game's text
//! reads back alone.
//!
//! Layout: one byte naming the format, then the text in that format:
//!
//! - **2**: the text's length (LEB128), then the text coded with a fixed
//!   model of bytes ([`crate::store::codec::text_model`]): most texts.
//! - **1**: raw deflate with a preset dictionary ([`DICTIONARY_V1`]) that
//!   gives the compressor the tag names, the usual tag values, move
//!   numbers and common moves up front. Written for a text that format 2
//!   codes poorly (more than [`FALLBACK_SHARE`] of its bytes, as a text
//!   with much unusual or repeated text does: engine comments at every
//!   move) when deflate makes it smaller; the only format written before
//!   format 2.
//!
//! # Stability
//!
//! Stored texts are decoded by the format they name: a format, once
//! released, is never changed. A better one comes as a new number (and
//! the stored texts keep theirs, or a schema step encodes them again).

use std::io::Read;

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

/// The byte that names format 1 (deflate with [`DICTIONARY_V1`]).
const V1: u8 = 1;

/// The byte that names format 2 ([`crate::store::codec::text_model`]).
const V2: u8 = 2;

/// The share of a text's bytes (in hundredths) past which a text coded in
/// format 2 is deflated too, the smaller kept. Typical games take a
/// quarter to a third.
const FALLBACK_SHARE: usize = 45;

/// Preset dictionary 1: tags as pdndb stores them (JSON) and move text as
/// archives write it; the strings most likely met come last, where they are
/// the cheapest to refer to. Never changed (see the module's Stability).
pub const DICTIONARY_V1: &str = concat!(
    "{\"Event\":\"\",\"Date\":\"\",\"Black\":\"\",\"White\":\"\",\"Site\":\"\",",
    "\"Result\":\"1/2-1/2\",\"GameType\":\"21,B,8,8,N1,0\",\"FEN\":\"B:W:B\",\"SetUp\":\"1\",",
    "\"Annotator\":\"\",\"PlyCount\":\"\",\"Source\":\"\"}\n",
    "{\"Event\":\"\",\"Date\":\"-??-??\",\"Black\":\"\",\"White\":\"\",\"Site\":\"\",",
    "\"Result\":\"0-1\",\"Round\":\"1\"}\n",
    "{\"Event\":\"Generated game 1\",\"Site\":\"pdndb generate\",\"Date\":\"2001.02.19\",",
    "\"Round\":\"1\",\"White\":\"\",\"Black\":\"\",\"Result\":\"1-0\",",
    "\"GameType\":\"26,W,8,8,N2,0\",\"Variant\":\"Filipino Dama\"}\n",
    "{\"Event\":\"\",\"Site\":\"\",\"Date\":\"????.??.??\",\"Round\":\"\",\"White\":\"\",",
    "\"Black\":\"\",\"Result\":\"*\"}\n",
    "1. 15x22 25x18 2. 18x9 5x14 3. 26x17 10x1 4. 16x23 27x18 5. 15x22 25x18 ",
    "6. 18x9 5x14 7. 26x17 10x1 8. 16x23 27x18 9. 15x22 25x18 10. 18x9 5x14 ",
    "11. 26x17 10x1 12. 16x23 27x18 13. 15x22 25x18 14. 18x9 5x14 15. 26x17 10x1 ",
    "16. 16x23 27x18 17. 15x22 25x18 18. 18x9 5x14 19. 26x17 10x1 20. 16x23 27x18 ",
    "21. 15x22 25x18 22. 18x9 5x14 23. 26x17 10x1 24. 16x23 27x18 25. 15x22 25x18 ",
    "26. 18x9 5x14 27. 26x17 10x1 28. 16x23 27x18 29. 15x22 25x18 30. 18x9 5x14 ",
    "1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10-17 21-14 5. 24-19 11-16 ",
    "6. 28-24 10-15 7. 19-10 6-15 8. 32-28 16-19 9. 23-16 12-19 10. 11-15 23-19 ",
    "11. 8-11 22-17 12. 9-13 17-14 13. 10-17 21-14 14. 24-19 11-16 15. 28-24 10-15 ",
    "16. 19-10 6-15 17. 32-28 16-19 18. 23-16 12-19 19. 11-15 23-19 20. 8-11 22-17 ",
    "21. 9-13 17-14 22. 10-17 21-14 23. 24-19 11-16 24. 28-24 10-15 25. 19-10 6-15 ",
    "26. 32-28 16-19 27. 23-16 12-19 28. 11-15 23-19 29. 8-11 22-17 30. 9-13 17-14 ",
    "31. 10-17 21-14 32. 24-19 11-16 33. 28-24 10-15 34. 19-10 6-15 35. 32-28 16-19 ",
    "36. 23-16 12-19 37. 11-15 23-19 38. 8-11 22-17 39. 9-13 17-14 40. 10-17 21-14 ",
    "1-0 0-1 1/2-1/2 * "
);

/// Encodes games' texts, its buffers reused for every game.
pub struct TextEncoder {
    text: Vec<u8>,
    /// The coder's output (it needs room for twice the text, which a
    /// stored text should not keep).
    coded: Vec<u8>,
    /// The coder's buffer.
    scratch: crate::store::codec::text_model::EncodeScratch,
    /// For texts format 2 codes poorly; made when first needed.
    deflate: Option<DeflateEncoder>,
}

impl Default for TextEncoder {
    fn default() -> TextEncoder {
        TextEncoder::new()
    }
}

impl TextEncoder {
    /// An encoder.
    pub fn new() -> TextEncoder {
        TextEncoder {
            text: Vec::new(),
            coded: Vec::new(),
            scratch: crate::store::codec::text_model::EncodeScratch::default(),
            deflate: None,
        }
    }

    /// The stored text of a game with these tags (a JSON object) and move
    /// text.
    pub fn encode(&mut self, tags: &str, movetext: &str) -> Vec<u8> {
        let out = self.format_two(tags, movetext);
        if out.len() * 100 > self.text.len() * FALLBACK_SHARE {
            let deflated = self
                .deflate
                .get_or_insert_with(DeflateEncoder::new)
                .encode(tags, movetext);
            if deflated.len() < out.len() {
                return deflated;
            }
        }
        out
    }

    /// The text in format 2.
    fn format_two(&mut self, tags: &str, movetext: &str) -> Vec<u8> {
        let text = &mut self.text;
        text.clear();
        text.extend_from_slice(tags.as_bytes());
        text.push(b'\n');
        text.extend_from_slice(movetext.as_bytes());
        self.coded.clear();
        crate::store::codec::text_model::encode_with(text, &mut self.coded, &mut self.scratch);
        let mut out = Vec::with_capacity(self.coded.len() + 11);
        out.push(V2);
        crate::store::codec::moves::write_leb128(&mut out, text.len() as u64);
        out.extend_from_slice(&self.coded);
        out
    }
}

/// Format 1: deflate with [`DICTIONARY_V1`], one compressor reused
/// (setting one up costs more than compressing a game).
struct DeflateEncoder(Compress);

impl DeflateEncoder {
    fn new() -> DeflateEncoder {
        DeflateEncoder(Compress::new(Compression::default(), false))
    }

    fn encode(&mut self, tags: &str, movetext: &str) -> Vec<u8> {
        let compress = &mut self.0;
        compress.reset();
        let mut out = Vec::with_capacity((tags.len() + movetext.len()) / 2 + 64);
        out.push(V1);
        // Cannot fail on a fresh raw stream; without it the text would
        // still decode, only larger.
        let _ = compress.set_dictionary(DICTIONARY_V1.as_bytes());
        let mut parts = [tags.as_bytes(), b"\n", movetext.as_bytes()].into_iter();
        let mut part = parts.next().unwrap_or_default();
        loop {
            let before = compress.total_in();
            let last = parts.len() == 0;
            let flush = if last {
                FlushCompress::Finish
            } else {
                FlushCompress::None
            };
            if out.capacity() - out.len() < 64 {
                out.reserve(out.capacity().max(64));
            }
            let status = compress.compress_vec(part, &mut out, flush);
            let used = (compress.total_in() - before) as usize;
            part = &part[used.min(part.len())..];
            match status {
                Ok(Status::StreamEnd) => return out,
                Ok(_) if part.is_empty() && !last => {
                    part = parts.next().unwrap_or_default();
                }
                Ok(_) => {}
                Err(_) => return vec![V1],
            }
        }
    }
}

/// A game's tags (JSON object) and move text as stored, or `None` when
/// `stored` is not a stored text this version reads.
pub fn decode(stored: &[u8]) -> Option<(String, String)> {
    let text = match stored.split_first()? {
        (&V1, deflated) => inflate(deflated)?,
        (&V2, mut coded) => {
            let len = crate::store::codec::moves::read_leb128(&mut coded)?;
            crate::store::codec::text_model::decode(coded, len)?
        }
        _ => return None,
    };
    let text = String::from_utf8(text).ok()?;
    let (tags, movetext) = text.split_once('\n')?;
    Some((tags.to_string(), movetext.to_string()))
}

/// A game's tags (JSON object) as stored, or `None` as [`decode`]; the
/// move text after them is not decoded where the format allows it.
pub fn decode_tags(stored: &[u8]) -> Option<String> {
    match stored.split_first()? {
        (&V2, mut coded) => {
            let len = crate::store::codec::moves::read_leb128(&mut coded)?;
            let tags = crate::store::codec::text_model::decode_until(coded, len, Some(b'\n'))?;
            // All of the text decoded: it has no line break, which every
            // stored text has (`decode` refuses it too).
            if tags.len() as u64 == len {
                return None;
            }
            String::from_utf8(tags).ok()
        }
        _ => decode(stored).map(|(tags, _)| tags),
    }
}

/// A format-1 text, inflated.
fn inflate(deflated: &[u8]) -> Option<Vec<u8>> {
    let mut inflater = Decompress::new(false);
    inflater.set_dictionary(DICTIONARY_V1.as_bytes()).ok()?;
    let mut text = Vec::with_capacity(deflated.len() * 3 + 64);
    loop {
        let (read, written) = (inflater.total_in(), inflater.total_out());
        if text.capacity() - text.len() < 256 {
            text.reserve(text.capacity());
        }
        let rest = deflated.get(read as usize..)?;
        let status = inflater
            .decompress_vec(rest, &mut text, FlushDecompress::Finish)
            .ok()?;
        match status {
            Status::StreamEnd => break,
            // Nothing read or written with room to write: cut short.
            _ if inflater.total_in() == read && inflater.total_out() == written => return None,
            _ => {}
        }
    }
    Some(text)
}

/// The move text of step 1's `provenance.text` (raw deflate of the move
/// text alone, no dictionary): what a schema step reads to encode again.
pub fn decode_movetext_alone(deflated: &[u8]) -> String {
    let mut movetext = String::new();
    let _ = flate2::read::DeflateDecoder::new(deflated).read_to_string(&mut movetext);
    movetext
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAGS: &str = r#"{"Event":"Manchester 1841","White":"Wyllie, J.","Result":"0-1"}"#;
    const MOVES: &str = "1. 11-15 24-20 2. 8-11 28-24 {a comment\non two lines} 0-1";

    #[test]
    fn a_text_reads_back_as_written_in_either_format() {
        let (mut now, mut before) = (TextEncoder::new(), DeflateEncoder::new());
        for (tags, moves) in [(TAGS, MOVES), ("{}", ""), ("{}", "½-½ “é”\n\n")] {
            let stored = now.format_two(tags, moves);
            assert_eq!(stored[0], V2);
            assert_eq!(decode(&stored), Some((tags.to_string(), moves.to_string())));
            let stored = before.encode(tags, moves);
            assert_eq!(stored[0], V1);
            assert_eq!(decode(&stored), Some((tags.to_string(), moves.to_string())));
        }
    }

    #[test]
    fn the_tags_alone_read_back_in_either_format() {
        let (mut now, mut before) = (TextEncoder::new(), DeflateEncoder::new());
        for (tags, moves) in [(TAGS, MOVES), ("{}", ""), ("{}", "½-½ “é”\n\n")] {
            for stored in [now.format_two(tags, moves), before.encode(tags, moves)] {
                assert_eq!(decode_tags(&stored).as_deref(), Some(tags));
            }
        }
        // A text without its line break is not a stored text.
        let mut coded = vec![V2];
        crate::store::codec::moves::write_leb128(&mut coded, 2);
        text_model_encode(b"{}", &mut coded);
        assert_eq!(decode(&coded), None);
        assert_eq!(decode_tags(&coded), None);
    }

    #[test]
    fn format_two_is_smaller_than_format_one_on_a_game() {
        let tags = r#"{"Event":"Open tournament","Site":"Cebu","Date":"2019.05.03","Round":"4","White":"Santos, R.","Black":"Lim, A.","Result":"1-0","GameType":"26,W,8,8,N2,0"}"#;
        let moves = "1. 22-18 11-15 2. 18x11 8x15 3. 21-17 9-13 4. 17-14 10x17 5. 23-18 6-10\n\
                     6. 25-21 1-6 7. 21x14 15-19 8. 24x15 10x19 9. 14-10 7x14 10. 18x9 5x14 1-0";
        let now = TextEncoder::new().encode(tags, moves);
        assert_eq!(now[0], V2);
        // A stored text keeps no room beyond its bytes while it waits to be
        // written (the coder's needs twice the text).
        assert!(
            now.capacity() <= now.len() + 10,
            "{} of {}",
            now.len(),
            now.capacity()
        );
        let before = DeflateEncoder::new().encode(tags, moves);
        assert!(
            now.len() < before.len(),
            "{} vs {}",
            now.len(),
            before.len()
        );
    }

    #[test]
    fn a_text_format_two_codes_poorly_is_deflated_when_that_is_smaller() {
        // Engine output at every move: unusual to the model, repeated for deflate.
        let moves: String = (1..=40)
            .map(|n| format!("{n}. 33-29 {{[%drgnode {n} 1][%eval -0.048][%depth 12]}} 20-25 "))
            .collect();
        let stored = TextEncoder::new().encode(TAGS, &moves);
        assert_eq!(stored[0], V1);
        assert_eq!(decode(&stored), Some((TAGS.to_string(), moves)));
        // Text unusual to both stays in format 2 unless deflate does better.
        let odd = "\u{1F600}\u{3042}\u{4E2D}\u{0416}";
        let stored = TextEncoder::new().encode("{}", odd);
        assert_eq!(decode(&stored), Some(("{}".to_string(), odd.to_string())));
    }

    #[test]
    fn the_dictionary_makes_format_one_texts_smaller() {
        let stored = DeflateEncoder::new().encode(TAGS, MOVES);
        let alone = {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Compression::default());
            std::io::Write::write_all(&mut e, format!("{TAGS}\n{MOVES}").as_bytes()).unwrap();
            e.finish().unwrap()
        };
        assert!(
            stored.len() + 20 < alone.len(),
            "{} vs {}",
            stored.len(),
            alone.len()
        );
    }

    #[test]
    fn a_long_text_reads_back() {
        let moves: String = (1..=3000).map(|n| format!("{n}. 11-15 23-19 ")).collect();
        for stored in [
            TextEncoder::new().format_two(TAGS, &moves),
            DeflateEncoder::new().encode(TAGS, &moves),
        ] {
            assert_eq!(decode(&stored), Some((TAGS.to_string(), moves.clone())));
        }
    }

    #[test]
    fn what_is_not_a_stored_text_decodes_to_nothing() {
        assert_eq!(decode(&[]), None);
        assert_eq!(decode(&[7, 1, 2, 3]), None);
        assert_eq!(decode(&[V2]), None);
        for stored in [
            TextEncoder::new().format_two(TAGS, MOVES),
            DeflateEncoder::new().encode(TAGS, MOVES),
        ] {
            assert_eq!(decode(&stored[..stored.len() / 2]), None);
            let mut flipped = stored.clone();
            flipped[3] ^= 0xFF;
            // Garbage may decode to something or to nothing, never panic.
            let _ = decode(&flipped);
        }
        // A text without the line break between tags and moves.
        let mut coded = vec![V2, 3];
        text_model_encode(b"abc", &mut coded);
        assert_eq!(decode(&coded), None);
    }

    fn text_model_encode(text: &[u8], out: &mut Vec<u8>) {
        crate::store::codec::text_model::encode(text, out);
    }

    proptest::proptest! {
        #[test]
        fn nothing_panics_on_any_stored_bytes(tail in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64), v2: bool) {
            let mut stored = vec![if v2 { V2 } else { V1 }];
            stored.extend(tail);
            let _ = decode(&stored);
            let _ = decode_tags(&stored);
        }
    }

    #[test]
    fn step_one_texts_are_read_for_encoding_again() {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Compression::fast());
        std::io::Write::write_all(&mut e, MOVES.as_bytes()).unwrap();
        assert_eq!(decode_movetext_alone(&e.finish().unwrap()), MOVES);
    }
}
