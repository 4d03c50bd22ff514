//! The games chosen for an export written as clean PDN, one at a time as
//! they are found (never the whole export in memory): what `pdndb export`
//! writes and the web server's download streams.

use std::collections::HashMap;
use std::io::Write;
use std::ops::ControlFlow;

use crate::export::{ExportOptions, clean_tag_value, export_text, is_broken};
use crate::notation::Notation;
use crate::pdn::Reader;
use crate::replay::{Overrides, Status, check_game};
use crate::store::read::games::GameFilter;
use crate::store::read::query::{PositionQuery, VariantFilter};
use crate::store::stored::aliases::alias_map;
use crate::store::stored::id::GameId;
use crate::store::stored::{Store, StoreError};

/// Which games an export writes, and how.
#[derive(Debug, Default)]
pub struct ExportChoice {
    /// Only games that reach this position (its variant filter applies);
    /// `None`: every game of `variant`.
    pub at: Option<PositionQuery>,
    /// Without `at`, only games of this variant (a preset or variant
    /// string).
    pub variant: VariantFilter,
    /// The filter by tags (its `status` is not read: see `statuses`).
    pub tags: GameFilter,
    /// Only games of these statuses (empty: all).
    pub statuses: Vec<Status>,
    /// Only these games (empty: all).
    pub games: Vec<GameId>,
    /// At most this many games, by id.
    pub limit: usize,
    /// Each alias with its canonical name, written in place of the alias
    /// in the White and Black tags (empty: names as stored).
    pub canonical: HashMap<String, String>,
    /// How the games are written.
    pub options: ExportOptions,
}

/// Why an export stopped.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The database could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The output could not be written.
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// What an export wrote.
#[derive(Debug, Default)]
pub struct Tally {
    /// Games written.
    pub written: usize,
    /// Broken games left out (`skip_broken`).
    pub skipped: usize,
    /// Written games that read back ambiguous in the Dama notation.
    pub doubtful: usize,
    /// Those of them that were not ambiguous as stored.
    pub doubtful_new: usize,
    /// Games written in their own notation instead of the one asked for.
    pub own: usize,
    /// Games that read back otherwise than they were read, those the Dama
    /// notation makes ambiguous aside.
    pub changed: Changed,
    /// Games with no stored text, left out: `(file, id)` each.
    pub textless: Vec<(String, i64)>,
}

/// Games that read back otherwise than they were read: how many, and the
/// first ids.
#[derive(Debug, Default)]
pub struct Changed {
    /// How many.
    pub count: usize,
    /// The first [`Changed::NAMED`] ids.
    pub first: Vec<i64>,
}

impl Changed {
    /// Ids kept at most.
    pub const NAMED: usize = 10;

    fn note(&mut self, id: i64) {
        self.count += 1;
        if self.first.len() < Changed::NAMED {
            self.first.push(id);
        }
    }
}

impl Store {
    /// Each alias with its player's canonical name (see `pdndb alias`).
    ///
    /// # Errors
    /// A database failure.
    pub fn canonical_names(&self) -> Result<HashMap<String, String>, StoreError> {
        alias_map(self.conn())
    }

    /// Writes the games `choice` asks for to `out`, in id order, each as
    /// soon as it is found and checked by reading its text back.
    ///
    /// # Errors
    /// A database failure, or `out` refusing to be written (a reader that
    /// went away): the games before are written.
    pub fn export_games(
        &self,
        choice: &ExportChoice,
        out: &mut dyn Write,
    ) -> Result<Tally, ExportError> {
        let mut export = Export {
            store: self,
            choice,
            pending: Vec::new(),
            out,
            tally: Tally::default(),
        };
        match &choice.at {
            Some(query) => {
                self.each_game_id_at(&query.position, &query.filter, |id| export.offer(id))?
            }
            None => self.each_game_id(&choice.variant, |id| export.offer(id))?,
        }
        // The last batch: what it says about the limit no longer matters.
        let _ = export.flush()?;
        let tally = export.tally;
        out.flush()?;
        Ok(tally)
    }
}

/// Writes the canonical name of each alias (cleaned) found in `game`'s
/// `White` and `Black` tags in its place.
fn canonical_players(game: &mut crate::pdn::Game, canonical: &HashMap<String, String>) {
    if canonical.is_empty() {
        return;
    }
    for tag in &mut game.tags {
        let player =
            tag.name.eq_ignore_ascii_case("white") || tag.name.eq_ignore_ascii_case("black");
        if let Some(name) = canonical.get(&clean_tag_value(&tag.value))
            && player
        {
            tag.value = name.as_str().into();
        }
    }
}

/// An export under way.
struct Export<'a> {
    store: &'a Store,
    choice: &'a ExportChoice,
    /// Ids offered and not yet filtered by tags.
    pending: Vec<i64>,
    out: &'a mut dyn Write,
    tally: Tally,
}

impl Export<'_> {
    /// Ids filtered by tags at once.
    const BATCH: usize = 512;

    /// Takes game `id`, in id order: written now without a filter by tags,
    /// else with the next batch.
    fn offer(&mut self, id: i64) -> Result<ControlFlow<()>, ExportError> {
        if self.choice.tags.is_empty() {
            return self.game(id);
        }
        self.pending.push(id);
        if self.pending.len() < Self::BATCH {
            return Ok(ControlFlow::Continue(()));
        }
        self.flush()
    }

    /// Writes the pending games that pass the filter by tags.
    fn flush(&mut self) -> Result<ControlFlow<()>, ExportError> {
        let pending = std::mem::take(&mut self.pending);
        for id in self.store.games_passing(&self.choice.tags, &pending)? {
            if self.game(id)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Writes game `id` if it is one of those chosen; breaks once `limit`
    /// games are written.
    fn game(&mut self, id: i64) -> Result<ControlFlow<()>, ExportError> {
        let (store, choice, tally) = (self.store, self.choice, &mut self.tally);
        let options = &choice.options;
        if tally.written >= choice.limit {
            return Ok(ControlFlow::Break(()));
        }
        if !choice.games.is_empty() && !choice.games.contains(&GameId(id)) {
            return Ok(ControlFlow::Continue(()));
        }
        let Some(stored) = store.game(GameId(id))? else {
            return Ok(ControlFlow::Continue(()));
        };
        let status = stored.status;
        if !choice.statuses.is_empty() && !choice.statuses.contains(&status) {
            return Ok(ControlFlow::Continue(()));
        }
        if options.skip_broken && is_broken(status) {
            tally.skipped += 1;
            return Ok(ControlFlow::Continue(()));
        }
        let file = store
            .source(GameId(id))?
            .map(|s| s.file)
            .unwrap_or_default();
        let text = store.original_text(GameId(id))?.unwrap_or_default();
        let Ok(Some(mut original)) = Reader::new(text.as_bytes()).next_game() else {
            tally.textless.push((file, id));
            return Ok(ControlFlow::Continue(()));
        };
        canonical_players(&mut original, &choice.canonical);
        // Read it again the way it was imported.
        let overrides = Overrides {
            rules: stored.rules(),
            notation: stored.notation,
            skip_alternatives: true,
            ..Overrides::default()
        };
        let checked = check_game(&original, &file, &overrides);
        let Some(exported) = export_text(&original, &checked, options) else {
            return Ok(ControlFlow::Continue(()));
        };
        self.out.write_all(exported.text.as_bytes())?;
        tally.written += 1;
        if exported.own_notation {
            tally.own += 1;
        }
        let back = exported.back.as_ref().map(|b| b.outcome.status);
        let doubtful = options.notation == Some(Notation::Dama) && back == Some(Status::Ambiguous);
        if doubtful {
            tally.doubtful += 1;
        }
        if doubtful && checked.record.outcome.status != Status::Ambiguous {
            tally.doubtful_new += 1;
        } else if !exported.kept {
            tally.changed.note(id);
        }
        Ok(ControlFlow::Continue(()))
    }
}
