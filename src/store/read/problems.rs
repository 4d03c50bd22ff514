//! The problem games a page at a time: `report`'s records filtered by
//! status, variant and file, for the web explorer's problems page.

use rusqlite::types::Value;

use crate::replay::Status;
use crate::store::stored::id::GameId;
use crate::store::stored::{Store, StoreError};

/// Which problem games to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProblemFilter {
    /// These statuses (empty: every status but ok).
    pub statuses: Vec<Status>,
    /// Also ok games that had resolved ambiguities.
    pub resolved: bool,
    /// Instead of statuses: the games whose result contradicts their
    /// moves (`report --results`).
    pub results: bool,
    /// A preset (any switches) or a full variant string.
    pub variant: Option<String>,
    /// Games from a file whose path contains this.
    pub file: Option<String>,
}

impl ProblemFilter {
    /// The SQL condition on `game g` and its parameters.
    fn condition(&self) -> (String, Vec<Value>) {
        let statuses: Vec<&str> = if self.statuses.is_empty() {
            Status::ALL
                .iter()
                .filter(|s| **s != Status::Ok)
                .map(|s| s.name())
                .collect()
        } else {
            self.statuses.iter().map(|s| s.name()).collect()
        };
        let mut params: Vec<Value> = Vec::new();
        let mut listed = String::from("(g.status IN (SELECT value FROM json_each(?1))");
        params.push(Value::Text(serde_json::Value::from(statuses).to_string()));
        if self.resolved {
            listed.push_str(" OR (g.status = 'ok' AND g.record IS NOT NULL)");
        }
        listed.push(')');
        if self.results {
            // `?1` stays in the SQL: the parameters after it are numbered.
            listed = "(?1 IS NOT NULL AND g.result_check IN ('contradicts_position', 'contradicts_movetext'))"
                .to_string();
        }
        let mut parts = vec![listed];
        if let Some(variant) = &self.variant {
            params.push(Value::Text(crate::rules::Rules::stored_form(variant)));
            let n = params.len();
            parts.push(format!("(g.preset = ?{n} OR g.variant = ?{n})"));
        }
        if let Some(file) = &self.file {
            params.push(Value::Text(file.clone()));
            parts.push(format!(
                "g.id IN (SELECT p.game FROM provenance p JOIN source_file f ON f.id = p.file \
                 WHERE instr(f.path, ?{}) > 0)",
                params.len()
            ));
        }
        (parts.join(" AND "), params)
    }
}

impl Store {
    /// The records of the games `filter` chooses (as `report --json`
    /// prints them), `limit` of them after `offset`, by id, handed to
    /// `each` one at a time; then how many games the filter chooses in
    /// all.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_problem<E: From<StoreError>>(
        &self,
        filter: &ProblemFilter,
        limit: usize,
        offset: usize,
        mut each: impl FnMut(crate::store::stored::record::ReportRecord) -> Result<(), E>,
    ) -> Result<usize, E> {
        let (total, ids) = self.problem_ids(filter, limit, offset)?;
        for id in ids {
            if let Some(record) = self.record(GameId(id))? {
                each(record)?;
            }
        }
        Ok(total)
    }

    /// How many games `filter` chooses, and the ids of `limit` of them
    /// after `offset`.
    fn problem_ids(
        &self,
        filter: &ProblemFilter,
        limit: usize,
        offset: usize,
    ) -> Result<(usize, Vec<i64>), StoreError> {
        let (condition, mut params) = filter.condition();
        let total: i64 = self.conn().query_row(
            &format!("SELECT count(*) FROM game g WHERE {condition}"),
            rusqlite::params_from_iter(params.iter()),
            |r| r.get(0),
        )?;
        params.push(Value::Integer(crate::store::stored::sql_count(limit)));
        params.push(Value::Integer(crate::store::stored::sql_count(offset)));
        let sql = format!(
            "SELECT g.id FROM game g WHERE {condition} ORDER BY g.id LIMIT ?{} OFFSET ?{}",
            params.len() - 1,
            params.len()
        );
        let ids: Vec<i64> = self
            .conn()
            .prepare(&sql)?
            .query_map(rusqlite::params_from_iter(params.iter()), |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok((usize::try_from(total).unwrap_or(0), ids))
    }
}
