//! Each stored game's result checked against its moves, for the games
//! stored before the check existed (schema step 20): their first copy's
//! text read again by the game's own rules and notation, as `export`
//! reads it.

use rusqlite::{Transaction, params};

use crate::pdn::Reader;
use crate::replay::{Overrides, ResultCheck, check_game};
use crate::rules::Rules;
use crate::store::stored::StoreError;
use crate::store::stored::game::stored_text;

/// Games read at a time.
const BATCH: i64 = 1000;

/// Fills `game.result_check` where it is empty; returns how many games
/// were checked.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn fill_result_checks(tx: &Transaction<'_>) -> Result<usize, StoreError> {
    let mut checked = 0;
    let mut after = 0_i64;
    loop {
        let games: Vec<(i64, String, Option<String>)> = tx
            .prepare_cached(
                "SELECT id, variant, notation FROM game WHERE id > ?1 AND result_check IS NULL \
                 ORDER BY id LIMIT ?2",
            )?
            .query_map(params![after, BATCH], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect::<Result<_, _>>()?;
        let Some(last) = games.last() else {
            return Ok(checked);
        };
        after = last.0;
        for (id, variant, notation) in &games {
            let check = check_stored(tx, *id, variant, notation.as_deref())?;
            tx.prepare_cached("UPDATE game SET result_check = ?2 WHERE id = ?1")?
                .execute(params![id, check.name()])?;
            checked += 1;
        }
    }
}

/// The result check of stored game `id`: `unknown` when its text is gone
/// or no longer reads.
fn check_stored(
    tx: &Transaction<'_>,
    id: i64,
    variant: &str,
    notation: Option<&str>,
) -> Result<ResultCheck, StoreError> {
    let Some(text) = stored_text(tx, id)? else {
        return Ok(ResultCheck::Unknown);
    };
    let Ok(Some(game)) = Reader::new(text.as_bytes()).next_game() else {
        return Ok(ResultCheck::Unknown);
    };
    let overrides = Overrides {
        rules: Rules::parse(variant).ok(),
        notation: notation.and_then(|n| n.parse().ok()),
        skip_alternatives: true,
        ..Overrides::default()
    };
    Ok(check_game(&game, "", &overrides).result_check)
}

#[cfg(test)]
mod tests {
    use crate::store::stored::Store;
    use crate::store::stored::handle::Mode;

    #[test]
    fn games_stored_without_a_check_get_the_one_an_import_gives() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let pdn = dir.path().join("g.pdn");
        std::fs::write(
            &pdn,
            "[Result \"1-0\"]\n1. 22-18 11-15 *\n\n[Result \"1-0\"]\n1. 22-18 11-15 2. 18x11 8x15 1-0\n",
        )
        .unwrap();
        let mut store = Store::open(&db, Mode::Write).unwrap();
        let input = crate::pdn::Input::open(&pdn, None).unwrap().unwrap();
        crate::store::write::import::Importer::new(&mut store, Default::default())
            .run(&[input], &mut |_| {})
            .unwrap();
        let checks = |store: &Store| -> Vec<Option<String>> {
            store
                .conn()
                .prepare("SELECT result_check FROM game ORDER BY id")
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let imported = checks(&store);
        assert_eq!(
            imported,
            [
                Some("contradicts_movetext".to_string()),
                Some("consistent".to_string())
            ]
        );
        store
            .conn()
            .execute("UPDATE game SET result_check = NULL", [])
            .unwrap();
        let tx = store.conn_mut().transaction().unwrap();
        assert_eq!(super::fill_result_checks(&tx).unwrap(), 2);
        tx.commit().unwrap();
        assert_eq!(checks(&store), imported);
    }
}
