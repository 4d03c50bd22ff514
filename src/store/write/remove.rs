//! Taking files and games out of the database: `pdndb remove`.
//!
//! A file's games go with it, unless another file holds them too (a game
//! met in two files is stored once); a game named by id goes from every
//! file. Their positions leave the index and the opening tree's counts
//! follow, in one transaction: an interrupted removal removes nothing.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use rusqlite::{Transaction, params};
use serde::Serialize;

use crate::store::stored::id::GameId;
use crate::store::stored::{Store, StoreError};
use crate::store::write::import::locate;
use crate::store::write::index::index_missing;
use crate::store::write::rows::delete_games;

/// What a removal took out (or, for a dry run, would take out).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RemoveSummary {
    /// Files taken out.
    pub files: usize,
    /// Games taken out.
    pub games: usize,
    /// Games of those files kept because another file holds them too.
    pub games_kept: usize,
    /// Index rows taken out.
    pub positions: usize,
    /// Whether nothing was changed (`--dry-run`).
    pub dry_run: bool,
}

/// The stored files that paths name, and the paths that name none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilesAt {
    /// Ids of the files (a folder names every file under it), ascending.
    pub ids: Vec<i64>,
    /// The paths that name no stored file.
    pub unknown: Vec<String>,
}

impl Store {
    /// The stored files that `paths` name: a file by where it is (however
    /// the path is written), a folder by every file imported from under it;
    /// files stored before places were recorded, by the path as given.
    ///
    /// # Errors
    /// A database failure.
    pub fn files_at(&self, paths: &[impl AsRef<Path>]) -> Result<FilesAt, StoreError> {
        let mut found = FilesAt::default();
        let mut ids = BTreeSet::new();
        let mut stmt = self.conn().prepare_cached(
            "SELECT id FROM source_file WHERE location = ?1 OR location LIKE ?2 ESCAPE '\\' \
             OR (location IS NULL AND (path = ?3 OR path LIKE ?4 ESCAPE '\\'))",
        )?;
        for path in paths {
            let path = path.as_ref();
            let location = locate(path);
            let given = path.display().to_string();
            let under = |p: &str| format!("{}/%", like_literal(p.trim_end_matches('/')));
            let named: Vec<i64> = stmt
                .query_map(
                    params![location, under(&location), given, under(&given)],
                    |r| r.get(0),
                )?
                .collect::<Result<_, _>>()?;
            if named.is_empty() {
                found.unknown.push(given);
            }
            ids.extend(named);
        }
        found.ids = ids.into_iter().collect();
        Ok(found)
    }

    /// The stored files imported from under folder `dir` that are no longer
    /// there (by the path they were imported by).
    ///
    /// # Errors
    /// A database failure.
    pub fn files_gone(&self, dir: &Path) -> Result<Vec<String>, StoreError> {
        let under = format!("{}/%", like_literal(locate(dir).trim_end_matches('/')));
        let mut stmt = self.conn().prepare_cached(
            "SELECT path, location FROM source_file WHERE location LIKE ?1 ESCAPE '\\' ORDER BY path",
        )?;
        let rows: Vec<(String, String)> = stmt
            .query_map([under], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        Ok(rows
            .into_iter()
            .filter(|(_, location)| !Path::new(location).exists())
            .map(|(path, _)| path)
            .collect())
    }

    /// The ids among `games` that name no stored game.
    ///
    /// # Errors
    /// A database failure.
    pub fn unknown_games(&self, games: &[GameId]) -> Result<Vec<GameId>, StoreError> {
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT count(*) FROM game WHERE id = ?1")?;
        let mut unknown = Vec::new();
        for &id in games {
            if stmt.query_row([id.get()], |r| r.get::<_, i64>(0))? == 0 {
                unknown.push(id);
            }
        }
        Ok(unknown)
    }

    /// Takes files (with their games) and games out of the database and
    /// the index, in one transaction; with `dry_run`, only says what would
    /// go.
    ///
    /// # Errors
    /// A database failure (nothing is then removed).
    pub fn remove(
        &mut self,
        files: &[i64],
        games: &[GameId],
        dry_run: bool,
    ) -> Result<RemoveSummary, StoreError> {
        let tx = self.conn_mut().transaction()?;
        let mut move_ids = HashMap::new();
        // Every stored game's positions must be in the index before any
        // leave it (an interrupted import may have left some out).
        index_missing(&tx)?;
        let mut summary = RemoveSummary {
            dry_run,
            ..RemoveSummary::default()
        };
        // The games that go: those named, and those of the files that no
        // other file holds.
        let mut leaving: BTreeSet<i64> = games.iter().map(|g| g.get()).collect();
        for &file in files {
            for (game, elsewhere) in games_of_file(&tx, file, files)? {
                if elsewhere {
                    summary.games_kept += 1;
                } else {
                    leaving.insert(game);
                }
            }
        }
        let leaving: Vec<i64> = leaving.into_iter().collect();
        summary.positions = delete_games(&tx, &leaving, &mut move_ids)?;
        summary.games = leaving.len();
        for &file in files {
            tx.execute("DELETE FROM provenance WHERE file = ?1", [file])?;
            summary.files += tx.execute("DELETE FROM source_file WHERE id = ?1", [file])?;
        }
        tx.execute(
            "UPDATE source_file SET games = (SELECT count(*) FROM provenance WHERE file = source_file.id)",
            [],
        )?;
        // Names, events and sites that other games hold than those gone.
        crate::store::stored::folds::enter_new(&tx)?;
        if !dry_run {
            tx.commit()?;
        }
        Ok(summary)
    }
}

/// The games of a file, each with whether a file outside `files` holds
/// it too.
fn games_of_file(
    tx: &Transaction<'_>,
    file: i64,
    files: &[i64],
) -> Result<Vec<(i64, bool)>, StoreError> {
    let mut stmt = tx.prepare_cached("SELECT DISTINCT game FROM provenance WHERE file = ?1")?;
    let games: Vec<i64> = stmt
        .query_map([file], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut copies = tx.prepare_cached("SELECT file FROM provenance WHERE game = ?1")?;
    let mut out = Vec::with_capacity(games.len());
    for game in games {
        let holders: Vec<i64> = copies
            .query_map([game], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        out.push((game, holders.iter().any(|f| !files.contains(f))));
    }
    Ok(out)
}

/// `text` for a LIKE pattern that matches it literally (escape `\`).
fn like_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_patterns_take_wildcards_literally() {
        assert_eq!(like_literal(r"a%b_c\d"), r"a\%b\_c\\d");
    }
}
