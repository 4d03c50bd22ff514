//! Other names of a player (`player_alias`, schema step 20): each alias,
//! a cleaned name, is another name of its canonical name, which is never
//! itself an alias. Queries apply them as they read, so that they hold
//! whatever is imported, rechecked or removed later.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::error::StoreError;
use crate::export::clean_tag_value;

/// Each alias with its canonical name (both cleaned).
pub(crate) type AliasMap = HashMap<String, String>;

/// A canonical name and its aliases.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AliasGroup {
    /// The name the others stand for.
    pub canonical: String,
    /// Its other names, in order.
    pub aliases: Vec<String>,
}

/// Every alias with its canonical name.
///
/// # Errors
/// A database failure.
pub(crate) fn alias_map(conn: &rusqlite::Connection) -> Result<AliasMap, StoreError> {
    let mut stmt = conn.prepare_cached("SELECT alias, canonical FROM player_alias")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The groups of names, by canonical name.
///
/// # Errors
/// A database failure.
pub(crate) fn alias_groups(conn: &rusqlite::Connection) -> Result<Vec<AliasGroup>, StoreError> {
    let mut by_canonical: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (alias, canonical) in alias_map(conn)? {
        by_canonical.entry(canonical).or_default().push(alias);
    }
    Ok(by_canonical
        .into_iter()
        .map(|(canonical, mut aliases)| {
            aliases.sort();
            AliasGroup { canonical, aliases }
        })
        .collect())
}

/// The canonical name of the (stored, uncleaned) player name `stored`:
/// its cleaned form, or the name that form is an alias of.
pub(crate) fn canonical_name(aliases: &AliasMap, stored: &str) -> String {
    let clean = clean_tag_value(stored);
    match aliases.get(&clean) {
        Some(canonical) => canonical.clone(),
        None => clean,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_then_followed_to_their_canonical_name() {
        let aliases: AliasMap = [("Lowder, B.".to_string(), "Lowder, Bill".to_string())]
            .into_iter()
            .collect();
        assert_eq!(canonical_name(&aliases, " Lowder,  B. "), "Lowder, Bill");
        assert_eq!(canonical_name(&aliases, "Lowder, Bill"), "Lowder, Bill");
        assert_eq!(canonical_name(&aliases, "lowder, b."), "lowder, b.");
    }
}
