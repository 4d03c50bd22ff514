//! Names the games stored before openings were named (schema step 19):
//! each `ok` game from its stored moves, as an import names it from its
//! certain positions.

use rusqlite::{Transaction, params};

use crate::openings::{PLIES, name_game};
use crate::rules::{Position, Rules};
use crate::store::stored::StoreError;

/// Names every stored `ok` game of a variant with a table of openings
/// that starts from the standard position.
pub(in crate::store) fn name_stored_games(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let mut select = tx.prepare(
        "SELECT id, variant, moves FROM game \
         WHERE status = 'ok' AND start_fen IS NULL AND moves IS NOT NULL AND preset = ?1",
    )?;
    let mut update =
        tx.prepare("UPDATE game SET opening = ?2, opening_ply = ?3, ballot = ?4 WHERE id = ?1")?;
    for preset in crate::openings::named_presets() {
        let mut rows = select.query([preset.name()])?;
        while let Some(row) = rows.next()? {
            let (id, variant): (i64, String) = (row.get(0)?, row.get(1)?);
            let moves = row.get_ref(2)?.as_blob().unwrap_or_default();
            let Ok(rules) = Rules::parse(&variant) else {
                continue;
            };
            let named = name_game(preset, line_keys(&rules, moves));
            if named.opening.is_some() || named.ballot.is_some() {
                update.execute(params![id, named.opening, named.ply, named.ballot])?;
            }
        }
    }
    Ok(())
}

/// The keys of the positions a stored move list goes through from the
/// start, `(key, ply)`, up to ply [`PLIES`]; each key at its first ply.
fn line_keys(rules: &Rules, mut data: &[u8]) -> Vec<(u64, u32)> {
    let mut position = Position::initial(rules);
    let mut keys = vec![(position.zobrist(), 0)];
    let mut scratch = Vec::new();
    for ply in 1..=PLIES {
        let Some(index) = crate::store::codec::moves::read_leb128(&mut data) else {
            break;
        };
        let Some(mv) = usize::try_from(index)
            .ok()
            .and_then(|index| position.canonical_nth(rules, index, &mut scratch))
        else {
            break;
        };
        position = position.play(&mv);
        let key = position.zobrist();
        if keys.iter().all(|&(k, _)| k != key) {
            keys.push((key, ply));
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;
    use crate::store::codec::moves::encode;

    #[test]
    fn a_stored_move_list_gives_the_positions_an_import_names() {
        let rules = Preset::English.rules();
        let start = Position::initial(&rules);
        let mut moves = Vec::new();
        let mut position = start;
        for token in ["11-15", "23-19", "8-11", "22-17", "4-8"] {
            let mv = position
                .legal_moves(&rules)
                .into_iter()
                .find(|m| {
                    crate::notation::write_move(
                        m,
                        crate::notation::Notation::Numeric,
                        rules.geometry,
                        false,
                    ) == token
                })
                .unwrap();
            position = position.play(&mv);
            moves.push(mv);
        }
        let data = encode(&rules, &start, &moves).unwrap();
        let named = name_game(Preset::English, line_keys(&rules, &data));
        assert_eq!(named.opening, Some("Old Fourteenth"));
        assert_eq!(named.ply, Some(5));
        assert_eq!(named.ballot, Some("11-15 23-19 8-11"));
    }
}
