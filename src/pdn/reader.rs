//! The streaming reader: framing, then the grammar, one game at a time.

use std::io::{self, Read};

use encoding_rs::{Encoding, UTF_8};
use encoding_rs_io::{DecodeReaderBytes, DecodeReaderBytesBuilder};

use super::decode::decodes_as_legacy;
use super::encoding::{Choice, is_utf16, utf16_by_first_character};
use super::error::{Diagnostic, Position};
use super::framing::{Framer, RawGame};
use super::game::Game;
use super::grammar::parse_game;

/// Reads PDN games one at a time from any byte source.
///
/// Memory stays bounded by the limits of this module (a game's text is at
/// most [`MAX_GAME_LEN`](super::MAX_GAME_LEN) bytes; deciding the input's
/// encoding looks at most 1 MiB ahead, once), however large the input.
/// Problems in the text are reported as [`Diagnostic`]s on the games they
/// concern; only I/O errors of the source are errors.
///
/// Text in UTF-16 that starts with its byte-order mark is turned into
/// UTF-8 as it is read (positions then count the bytes of that UTF-8);
/// every other input is read as it is.
///
/// It is also an [`Iterator`] of `io::Result<Game>`.
///
/// Reading a game is two steps: framing, which finds where the game's text
/// starts and ends and must go through the input in order, and parsing,
/// which reads that text and needs nothing else. [`Reader::next_game`] does
/// both; [`Reader::next_raw`] only the first, handing out a
/// [`FramedGame`] to parse on any thread.
pub struct Reader<R> {
    framer: Framer<DecodeReaderBytes<Peeked<R>, Vec<u8>>>,
    games: u64,
    trailing: Vec<Diagnostic>,
    /// The detected legacy encoding has been named in a warning.
    announced: bool,
}

impl<R: Read> Reader<R> {
    /// A reader over `source`, its encoding detected from its bytes (see
    /// the [module](super) documentation). Wrapping the source in a
    /// `BufReader` is not needed: the reader buffers.
    pub fn new(source: R) -> Reader<R> {
        Reader::with_encoding(source, None)
    }

    /// A reader over `source` in `encoding`, or, when `None`, in the
    /// encoding detected from its bytes. Every game is then decoded in the
    /// given encoding (ASCII text reads the same in any); bytes not valid
    /// in UTF-8 become U+FFFD with a warning.
    ///
    /// The encoding should be UTF-8 or a single-byte encoding whose ASCII
    /// bytes are ASCII ([`encoding_for_label`](super::encoding_for_label)
    /// accepts only those): the framing reads brackets, quotes and line
    /// ends as bytes, and positions count one character per byte of any
    /// other encoding. UTF-16 (`UTF_16LE`, `UTF_16BE`) is read too, turned
    /// into UTF-8 as it is read. A UTF-16 byte-order mark wins over
    /// `encoding`; without one and without `encoding`, UTF-16 is known by
    /// its first character (see `utf16_by_first_character`).
    pub fn with_encoding(source: R, encoding: Option<&'static Encoding>) -> Reader<R> {
        // Bytes pass through untouched unless they are UTF-16, given, known
        // by a byte-order mark (a UTF-8 one stays, for the framing to skip)
        // or by the first character.
        let source = Peeked::new(source);
        let utf16 = match encoding {
            Some(given) => Some(given).filter(|e| is_utf16(e)),
            None => utf16_by_first_character(source.head()),
        };
        let source = DecodeReaderBytesBuilder::new()
            .utf8_passthru(true)
            .encoding(utf16)
            .bom_override(true)
            .build(source);
        let encoding = if utf16.is_some() {
            Some(UTF_8)
        } else {
            encoding
        };
        Reader {
            framer: Framer::with_encoding(source, encoding),
            games: 0,
            trailing: Vec::new(),
            announced: false,
        }
    }

    /// The input's encoding: the one given, or the one detected once a
    /// byte outside ASCII has been read; `None` before.
    pub fn encoding(&self) -> Option<&'static Encoding> {
        self.framer.encoding().map(|c| c.encoding)
    }

    /// The next game, or `None` at the end of the input.
    ///
    /// # Errors
    /// An I/O error of the source. The source then counts as ended: the
    /// next call returns `Ok(None)`.
    pub fn next_game(&mut self) -> io::Result<Option<Game>> {
        let Some(framed) = self.next_raw()? else {
            return Ok(None);
        };
        let (game, buffer) = framed.parse_keeping_buffer();
        self.framer.recycle(buffer);
        Ok(Some(game))
    }

    /// The next game framed but not parsed, or `None` at the end of the
    /// input: [`FramedGame::parse`] gives the game [`Reader::next_game`]
    /// would have, on any thread.
    ///
    /// # Errors
    /// An I/O error of the source. The source then counts as ended: the
    /// next call returns `Ok(None)`.
    pub fn next_raw(&mut self) -> io::Result<Option<FramedGame>> {
        match self.framer.next_game()? {
            Some(raw) => {
                self.games += 1;
                let choice = self.framer.encoding();
                // The first game read in a legacy encoding names it.
                let announce = !self.announced;
                if announce && decodes_as_legacy(&raw.bytes, choice) {
                    self.announced = true;
                }
                Ok(Some(FramedGame {
                    raw,
                    index: self.games,
                    choice,
                    announce,
                }))
            }
            None => {
                let notes = std::mem::take(&mut self.framer.trailing);
                self.trailing
                    .extend(notes.into_iter().map(|n| n.into_diagnostic(None)));
                Ok(None)
            }
        }
    }

    /// Diagnostics about text after the last game (junk at the end of the
    /// input); complete once [`Reader::next_game`] has returned `None`.
    pub fn trailing_diagnostics(&self) -> &[Diagnostic] {
        &self.trailing
    }

    /// How many games have been handed out.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// How far the input has been read.
    pub fn position(&self) -> Position {
        self.framer.position()
    }
}

/// A game's text as framed by [`Reader::next_raw`], with everything its
/// parsing needs: its index in the input, the input's encoding as decided
/// when it was framed, and whether it is the one to name a detected legacy
/// encoding.
#[derive(Debug)]
pub struct FramedGame {
    raw: RawGame,
    index: u64,
    choice: Option<Choice>,
    announce: bool,
}

impl FramedGame {
    pub(crate) fn new(
        raw: RawGame,
        index: u64,
        choice: Option<Choice>,
        announce: bool,
    ) -> FramedGame {
        FramedGame {
            raw,
            index,
            choice,
            announce,
        }
    }

    /// Gives the game its 1-based index in the input, and says whether it
    /// is the one to name a detected legacy encoding (if it is read in
    /// one: see [`FramedGame::decodes_as_legacy`]).
    pub(crate) fn place(&mut self, index: u64, announce: bool) {
        self.index = index;
        self.announce = announce;
    }

    /// Whether its text is read in a legacy encoding.
    pub(crate) fn decodes_as_legacy(&self) -> bool {
        decodes_as_legacy(&self.raw.bytes, self.choice)
    }

    /// The game's 1-based index in the input.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Bytes of the game's text kept (at most
    /// [`MAX_GAME_LEN`](super::MAX_GAME_LEN)).
    pub fn text_len(&self) -> usize {
        self.raw.bytes.len()
    }

    /// Reads the game: the one [`Reader::next_game`] would have handed out.
    pub fn parse(self) -> Game {
        self.parse_keeping_buffer().0
    }

    /// [`FramedGame::parse`], with the byte buffer for reuse.
    fn parse_keeping_buffer(self) -> (Game, Vec<u8>) {
        parse_game(self.raw, self.index, self.choice, self.announce)
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = io::Result<Game>;

    fn next(&mut self) -> Option<io::Result<Game>> {
        self.next_game().transpose()
    }
}

/// A source whose first bytes are read ahead (UTF-16 without a byte-order
/// mark is known by them), then handed out first. An error met reading
/// ahead is handed out where the bytes would have been.
struct Peeked<R> {
    head: [u8; 16],
    len: usize,
    at: usize,
    error: Option<io::Error>,
    inner: R,
}

impl<R: Read> Peeked<R> {
    fn new(mut inner: R) -> Peeked<R> {
        let mut head = [0; 16];
        let (mut len, mut error) = (0, None);
        while len < head.len() {
            match inner.read(&mut head[len..]) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    error = Some(err);
                    break;
                }
            }
        }
        Peeked {
            head,
            len,
            at: 0,
            error,
            inner,
        }
    }

    /// The bytes read ahead.
    fn head(&self) -> &[u8] {
        &self.head[..self.len]
    }
}

impl<R: Read> Read for Peeked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.len {
            let n = (self.len - self.at).min(buf.len());
            buf[..n].copy_from_slice(&self.head[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        if let Some(err) = self.error.take() {
            return Err(err);
        }
        self.inner.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_with_its_byte_order_mark_is_read() {
        let text = "[White \"Müller\"]\n1. 11-15 23-19 *\n";
        let little: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let big: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        for bytes in [little, big] {
            let mut reader = Reader::new(&bytes[..]);
            let game = reader.next_game().unwrap().unwrap();
            assert_eq!(game.tag("white"), Some("Müller"));
            assert_eq!(game.plies().len(), 2);
            assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
            assert!(reader.next_game().unwrap().is_none());
        }
    }

    #[test]
    fn utf16_without_a_byte_order_mark_is_read_when_its_first_character_tells() {
        for start in ["[White \"Müller\"]\n", "\r\n[White \"Müller\"]\n"] {
            let text = format!("{start}1. 11-15 23-19 *\n");
            let little: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
            let big: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
            for bytes in [little, big] {
                let game = Reader::new(&bytes[..]).next_game().unwrap().unwrap();
                assert_eq!(game.tag("white"), Some("Müller"));
                assert_eq!(game.plies().len(), 2);
                assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
            }
        }
    }

    #[test]
    fn a_source_read_ahead_hands_out_every_byte_and_its_error() {
        let mut bytes = Vec::new();
        Peeked::new(&b"[E"[..]).read_to_end(&mut bytes).unwrap();
        assert_eq!(bytes, b"[E");
        let mut one = Vec::new();
        Peeked::new(&b"["[..]).read_to_end(&mut one).unwrap();
        assert_eq!(one, b"[");
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk"))
            }
        }
        let mut peeked = Peeked::new(Failing);
        assert_eq!(peeked.read(&mut [0; 4]).unwrap_err().to_string(), "disk");
    }

    #[test]
    fn utf16_without_a_byte_order_mark_is_read_when_given() {
        let text = "[White \"Müller\"]\n1. 11-15 23-19 *\n";
        let little: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let big: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (bytes, encoding) in [
            (little, encoding_rs::UTF_16LE),
            (big, encoding_rs::UTF_16BE),
        ] {
            let mut reader = Reader::with_encoding(&bytes[..], Some(encoding));
            let game = reader.next_game().unwrap().unwrap();
            assert_eq!(game.tag("white"), Some("Müller"));
            assert_eq!(game.plies().len(), 2);
            assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
        }
    }

    #[test]
    fn framed_games_parsed_in_any_order_are_the_games_read() {
        // ASCII first, then Windows-1252, then UTF-8 read as Windows-1252:
        // the legacy encoding is named on the second game only.
        let mut bytes = b"[White \"A\"]\n1. 11-15 *\n\n".to_vec();
        bytes.extend_from_slice(b"[White \"M\xfcller\"]\n1. 11-15 {caf\xe9} *\n\n");
        bytes.extend_from_slice("[White \"Müller\"]\n1. 11-15 *\n\n".as_bytes());
        bytes.extend_from_slice(b"[White \"Pe\xf1a\"]\n1. 11-15 *\n");
        let read: Vec<Game> = Reader::new(&bytes[..]).map(Result::unwrap).collect();
        let mut reader = Reader::new(&bytes[..]);
        let mut framed = Vec::new();
        while let Some(game) = reader.next_raw().unwrap() {
            framed.push(game);
        }
        assert_eq!(
            framed.iter().map(FramedGame::index).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        let mut parsed: Vec<Game> = framed.into_iter().rev().map(FramedGame::parse).collect();
        parsed.reverse();
        assert_eq!(parsed, read);
        let named: Vec<u64> = read
            .iter()
            .filter(|g| {
                g.diagnostics
                    .iter()
                    .any(|d| d.message.contains("the file is not UTF-8"))
            })
            .map(|g| g.index)
            .collect();
        assert_eq!(named, [2]);
    }
}
