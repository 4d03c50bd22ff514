//! Warnings about a game as a whole, found once it is read: tags whose
//! name an earlier tag already has, and how its text was decoded.

use compact_str::CompactString;

use crate::pdn::decode::{GameText, Locator};
use crate::pdn::encoding::Choice;
use crate::pdn::error::Note;
use crate::pdn::game::Tag;
use crate::pdn::text_encoding::TextEncoding;

/// A warning for each tag whose name (compared without case) an earlier tag
/// of the game already has. Both stay in the game's tags; the first is the
/// one [`Game::tag`](crate::pdn::Game::tag) gives.
pub(super) fn repeated_tags(tags: &[Tag]) -> Vec<Note> {
    let note = |first: &Tag, again: &Tag| {
        Note::warning(
            again.position,
            format!(
                "tag `{}` repeated (first on line {}): both kept, the first one counts",
                again.name, first.position.line
            ),
        )
    };
    let mut notes = Vec::new();
    if tags.len() <= 32 {
        // The usual handful: compared pairwise, but only where a bit for
        // the name's length and first letter was already set (the tags of
        // most games differ in these).
        let key = |t: &Tag| {
            let name = t.name.as_bytes();
            let first = name.first().map_or(0, u8::to_ascii_lowercase);
            1u64 << ((name.len() * 7 + usize::from(first)) % 64)
        };
        let mut seen = 0u64;
        for (k, again) in tags.iter().enumerate() {
            let bit = key(again);
            if seen & bit != 0
                && let Some(first) = tags[..k]
                    .iter()
                    .find(|t| t.name.eq_ignore_ascii_case(&again.name))
            {
                notes.push(note(first, again));
            }
            seen |= bit;
        }
    } else {
        // Many tags: sorted by name, so that time stays n log n.
        let mut order: Vec<(CompactString, usize)> = tags
            .iter()
            .enumerate()
            .map(|(k, t)| (t.name.to_ascii_lowercase(), k))
            .collect();
        order.sort();
        for pair in order.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.0 == b.0 {
                let first = order[order.partition_point(|o| o.0 < b.0)].1;
                notes.push(note(&tags[first], &tags[b.1]));
            }
        }
        notes.sort_by_key(|n| n.position.byte);
    }
    notes
}

/// The warnings about how a game's text was decoded: sequences that were
/// not valid UTF-8 (one warning, at the first), and, when `announce`, the
/// legacy encoding detected for the input, at the first character that
/// uses it.
pub(super) fn encoding_notes(text: &GameText, choice: Option<Choice>, announce: bool) -> Vec<Note> {
    let mut notes = Vec::new();
    if let Some(first) = text.replaced.first() {
        let shown: String = first.bytes[..usize::from(first.len)]
            .iter()
            .map(|b| format!("\\x{b:02X}"))
            .collect();
        let what = if first.len == 1 { "byte" } else { "bytes" };
        let more = match text.replaced.len() - 1 {
            0 => String::new(),
            n => format!(" ({n} more in this game)"),
        };
        notes.push(Note::warning(
            Locator::new(text).at(first.at),
            format!("{what} {shown} not valid UTF-8, the input's encoding: read as U+FFFD{more}"),
        ));
    }
    if announce
        && matches!(text.encoding, TextEncoding::Legacy(_))
        && let Some(message) = choice.and_then(|c| c.note())
        && let Some(at) = text.text.bytes().position(|b| !b.is_ascii())
    {
        notes.push(Note::warning(Locator::new(text).at(at), message));
    }
    notes
}
