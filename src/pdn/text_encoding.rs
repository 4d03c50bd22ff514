//! How a game's bytes were turned into text: UTF-8 or a legacy
//! single-byte encoding.

use encoding_rs::Encoding;

/// How a game's bytes were turned into text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8 (ASCII text is UTF-8, in any file). Sequences that were not
    /// valid UTF-8, if any, became U+FFFD, with a warning on the game.
    Utf8,
    /// A single-byte legacy encoding (Windows-1252, Windows-1251,
    /// ISO-8859-2, KOI8-U, …), detected for the input or given by the
    /// caller: every byte is one character.
    Legacy(&'static Encoding),
}

impl TextEncoding {
    /// The encoding.
    #[inline]
    pub fn encoding(&self) -> &'static Encoding {
        match self {
            TextEncoding::Utf8 => encoding_rs::UTF_8,
            TextEncoding::Legacy(encoding) => encoding,
        }
    }

    /// Its name as the Encoding Standard spells it: `UTF-8`,
    /// `windows-1252`, `windows-1251`, `ISO-8859-2`, `KOI8-U`, ….
    #[inline]
    pub fn name(&self) -> &'static str {
        self.encoding().name()
    }
}
