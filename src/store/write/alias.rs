//! Giving a player's names one canonical name (`pdndb alias`), and taking
//! aliases away. Every name is checked before anything is written: a name
//! made an alias of itself, an alias that would be canonical too (a
//! cycle, or a chain), and a name no game has are refused, and nothing
//! changes.

use std::collections::HashSet;

use crate::export::clean_tag_value;
use crate::store::stored::aliases::{AliasGroup, alias_groups, alias_map};
use crate::store::stored::{Store, StoreError};

/// Why an alias cannot be made or taken away.
#[derive(Debug, thiserror::Error)]
pub enum AliasError {
    /// A name made an alias of itself.
    #[error("{0:?} cannot be an alias of itself")]
    Itself(String),
    /// The canonical name given is an alias of another name.
    #[error("{name:?} is an alias of {canonical:?}: give {canonical:?} as the canonical name")]
    CanonicalIsAlias {
        /// The name given.
        name: String,
        /// What it is an alias of.
        canonical: String,
    },
    /// A name to make an alias is the canonical name of others.
    #[error(
        "{0:?} is the canonical name of other names: remove its aliases first \
         (`pdndb alias --remove {0:?}`)"
    )]
    AliasIsCanonical(String),
    /// A name no stored game has.
    #[error("{0:?}: no game has this player")]
    UnknownName(String),
    /// A name that is neither an alias nor a canonical name.
    #[error("{0:?} is not an alias nor a canonical name")]
    NotAnAlias(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for AliasError {
    fn from(e: rusqlite::Error) -> AliasError {
        AliasError::Store(e.into())
    }
}

impl Store {
    /// Makes each of `others` an alias of `canonical` (names are cleaned
    /// first); an alias of another name already is moved to `canonical`.
    /// Returns the group `canonical` heads now.
    ///
    /// # Errors
    /// [`AliasError`] when a name is refused (nothing is written then), or
    /// a database failure.
    pub fn add_aliases(
        &mut self,
        canonical: &str,
        others: &[String],
    ) -> Result<AliasGroup, AliasError> {
        let canonical = clean_tag_value(canonical);
        let others: Vec<String> = others.iter().map(|o| clean_tag_value(o)).collect();
        let aliases = alias_map(self.conn())?;
        if let Some(of) = aliases.get(&canonical) {
            return Err(AliasError::CanonicalIsAlias {
                name: canonical,
                canonical: of.clone(),
            });
        }
        let canonicals: HashSet<&String> = aliases.values().collect();
        for other in &others {
            if *other == canonical {
                return Err(AliasError::Itself(other.clone()));
            }
            if canonicals.contains(other) {
                return Err(AliasError::AliasIsCanonical(other.clone()));
            }
        }
        let known = self.player_names()?;
        if let Some(unknown) = std::iter::once(&canonical)
            .chain(&others)
            .find(|n| !known.contains(*n))
        {
            return Err(AliasError::UnknownName(unknown.clone()));
        }
        let tx = self.conn_mut().transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO player_alias (alias, canonical) VALUES (?1, ?2) \
                 ON CONFLICT (alias) DO UPDATE SET canonical = excluded.canonical",
            )?;
            for other in &others {
                stmt.execute([other, &canonical])?;
            }
        }
        tx.commit()?;
        self.alias_group(&canonical)
    }

    /// Takes `name` (cleaned) away as an alias; a canonical name loses all
    /// its aliases. Returns the names that are no longer aliases.
    ///
    /// # Errors
    /// [`AliasError::NotAnAlias`] for a name that is neither, or a
    /// database failure.
    pub fn remove_alias(&mut self, name: &str) -> Result<Vec<String>, AliasError> {
        let name = clean_tag_value(name);
        let aliases = alias_map(self.conn())?;
        let mut gone: Vec<String> = if aliases.contains_key(&name) {
            vec![name.clone()]
        } else {
            aliases
                .iter()
                .filter(|(_, c)| **c == name)
                .map(|(a, _)| a.clone())
                .collect()
        };
        if gone.is_empty() {
            return Err(AliasError::NotAnAlias(name));
        }
        gone.sort();
        let tx = self.conn_mut().transaction()?;
        tx.execute(
            "DELETE FROM player_alias WHERE alias = ?1 OR canonical = ?1",
            [&name],
        )?;
        tx.commit()?;
        Ok(gone)
    }

    /// Every canonical name with its aliases, by canonical name.
    ///
    /// # Errors
    /// A database failure.
    pub fn aliases(&self) -> Result<Vec<AliasGroup>, StoreError> {
        alias_groups(self.conn())
    }

    /// The group `canonical` heads.
    fn alias_group(&self, canonical: &str) -> Result<AliasGroup, AliasError> {
        let group = self
            .aliases()?
            .into_iter()
            .find(|g| g.canonical == canonical);
        Ok(group.unwrap_or_else(|| AliasGroup {
            canonical: canonical.to_string(),
            aliases: Vec::new(),
        }))
    }

    /// Every player name of a stored game, cleaned.
    fn player_names(&self) -> Result<HashSet<String>, StoreError> {
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT DISTINCT name FROM player_stat")?;
        let mut rows = stmt.query([])?;
        let mut names = HashSet::new();
        while let Some(r) = rows.next()? {
            let stored = r.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
            let name = clean_tag_value(stored);
            if !name.is_empty() && name != "?" {
                names.insert(name);
            }
        }
        Ok(names)
    }
}
