//! Full-text search of statuses for `SeaStore` (`StatusStore::index_statuses`,
//! `search_statuses`, `indexable_status_ids`), and the position `search reindex` resumes from.
//!
//! The index is written per engine (schema in `migration/m0025_status_search.rs`), as are the
//! statements reading it; every value, the words searched included, is bound, never written
//! into the SQL. Both engines index and search the words of
//! [`fedblog_core::search_query::words`] (runs of letters and digits, lower-cased), joined by
//! spaces, so that a word is the same word to the engine as to `MemoryStore`.
//!
//! - **SQLite**: an FTS5 table (`status_search`, rowid = status id; diacritics folded). A
//!   search with words reads the table's matches newest first as the outer loop, so that its
//!   `LIMIT` stops the scan early, and checks the scope and conditions on those rows only. A
//!   search with no word to require reads the statuses joined with the index's own list of
//!   rows (its `_docsize` shadow table, one row per indexed status: a contentless FTS5 table
//!   cannot be scanned), newest first through an index of `statuses` the planner picks (the
//!   author's, for `from:`), leaving out the matches of the excluded words.
//! - **PostgreSQL**: a `tsvector` per status under a GIN index, holding the words as they are
//!   (the `simple` configuration, weight A) and, when the status's language has a
//!   configuration, their stems in it (weight B). A word or phrase matches the A lexemes; when
//!   the search keeps one language that has a configuration, it may match the stems of that
//!   language (B) too. The weights keep the two apart: a phrase never runs from one into the
//!   other, and a search without a language matches exact words only.

use fedblog_core::search_query::{language_code, words};
use fedblog_core::store::{Has, In, Is, SearchConditionKind, SearchDocument, StatusSearch, Text};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Statement, Value,
};

use super::entity::statuses;
use super::{SeaStore, backend_err, finish};

/// The PostgreSQL text search configuration (all built in) for the words of a language, by its
/// ISO 639-1 code; `None` for a language none serves (only `simple` indexes it then).
fn pg_config(language: &str) -> Option<&'static str> {
    Some(match language_code(language).as_str() {
        "ar" => "arabic",
        "hy" => "armenian",
        "eu" => "basque",
        "ca" => "catalan",
        "da" => "danish",
        "nl" => "dutch",
        "en" => "english",
        "fi" => "finnish",
        "fr" => "french",
        "de" => "german",
        "el" => "greek",
        "hi" => "hindi",
        "hu" => "hungarian",
        "id" => "indonesian",
        "ga" => "irish",
        "it" => "italian",
        "lt" => "lithuanian",
        "ne" => "nepali",
        "no" | "nb" | "nn" => "norwegian",
        "pt" => "portuguese",
        "ro" => "romanian",
        "ru" => "russian",
        "sr" => "serbian",
        "es" => "spanish",
        "sv" => "swedish",
        "ta" => "tamil",
        "tr" => "turkish",
        "yi" => "yiddish",
        _ => return None,
    })
}

/// The configuration named by the text `param` (SQL), or NULL when this PostgreSQL lacks it
/// (older versions ship fewer), so that a missing one means `simple` only rather than an error.
fn pg_config_sql(param: &str) -> String {
    format!(
        "(SELECT c.oid::regconfig FROM pg_ts_config c WHERE c.cfgname::text = {param} \
         AND c.cfgnamespace = 'pg_catalog'::regnamespace)"
    )
}

/// A statement being written: the values bound so far, each with its numbered placeholder
/// (`$n` on PostgreSQL, `?n` on SQLite), which may appear any number of times in any order.
struct Sql {
    backend: DbBackend,
    values: Vec<Value>,
}

impl Sql {
    fn new(backend: DbBackend) -> Self {
        Sql {
            backend,
            values: vec![],
        }
    }

    /// Binds `value` and gives its placeholder.
    fn bind(&mut self, value: impl Into<Value>) -> String {
        self.values.push(value.into());
        let n = self.values.len();
        match self.backend {
            DbBackend::Postgres => format!("${n}"),
            _ => format!("?{n}"),
        }
    }

    fn statement(self, sql: String) -> Statement {
        Statement::from_sql_and_values(self.backend, sql, self.values)
    }
}

/// An id as a bound for the `i64` columns: ids past `i64::MAX` (none is stored) count as it.
fn bound(id: Id) -> i64 {
    i64::try_from(id.0).unwrap_or(i64::MAX)
}

/// A count as SQL takes it.
fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The words of a word or phrase, which it matches as a phrase (none: it matches nothing).
fn text_words(text: &Text) -> Vec<String> {
    match text {
        Text::Word(w) | Text::Phrase(w) => words(w),
    }
}

/// The error for an engine the store does not run on.
fn unsupported(what: &str, backend: DbBackend) -> StoreError {
    StoreError::Backend(format!("{what}: unsupported database backend {backend:?}"))
}

/// The conditions on the candidate status `s` (and its author `a`) every search applies: not a
/// reblog, an author not suspended, in `search`'s scope, meeting each condition.
fn status_filters(sql: &mut Sql, search: &StatusSearch) -> Vec<String> {
    let public = "(s.visibility = 'public' AND a.indexable)";
    let mut library = || {
        let me = sql.bind(search.searcher.as_i64());
        format!(
            "(s.account_id = {me} \
             OR EXISTS (SELECT 1 FROM favourites f WHERE f.account_id = {me} AND f.status_id = s.id) \
             OR EXISTS (SELECT 1 FROM bookmarks b WHERE b.account_id = {me} AND b.status_id = s.id) \
             OR EXISTS (SELECT 1 FROM statuses r WHERE r.account_id = {me} AND r.reblog_of_id = s.id) \
             OR EXISTS (SELECT 1 FROM status_mentions m WHERE m.status_id = s.id AND m.account_id = {me}))"
        )
    };
    let scope = match search.scope {
        In::Library => library(),
        In::Public => public.to_string(),
        In::All => format!("({public} OR {})", library()),
    };
    let mut filters = vec![
        "s.reblog_of_id IS NULL".to_string(),
        "a.suspended_at IS NULL".to_string(),
        scope,
    ];
    for c in &search.conditions {
        let meets = condition(sql, &c.kind);
        filters.push(if c.negated {
            format!("NOT ({meets})")
        } else {
            meets
        });
    }
    filters
}

/// Whether the candidate status `s` meets a condition: never NULL, so that `NOT` is its
/// opposite.
fn condition(sql: &mut Sql, kind: &SearchConditionKind) -> String {
    let media = |kinds: &str| {
        format!(
            "EXISTS (SELECT 1 FROM media_attachments ma WHERE ma.status_id = s.id \
             AND ma.kind IN ({kinds}))"
        )
    };
    match kind {
        SearchConditionKind::Author(author) => {
            format!("s.account_id = {}", sql.bind(author.as_i64()))
        }
        SearchConditionKind::Has(Has::Media) => "s.has_media".to_string(),
        SearchConditionKind::Has(Has::Image) => media("'image'"),
        SearchConditionKind::Has(Has::Video) => media("'video', 'gifv'"),
        SearchConditionKind::Has(Has::Audio) => media("'audio'"),
        SearchConditionKind::Has(Has::Poll) => {
            "EXISTS (SELECT 1 FROM polls p WHERE p.status_id = s.id)".to_string()
        }
        SearchConditionKind::Has(Has::Link) => {
            "EXISTS (SELECT 1 FROM status_links l WHERE l.status_id = s.id)".to_string()
        }
        SearchConditionKind::Has(Has::Embed) => "1 = 0".to_string(),
        SearchConditionKind::Is(Is::Reply) => "s.in_reply_to_id IS NOT NULL".to_string(),
        SearchConditionKind::Is(Is::Sensitive) => "s.sensitive".to_string(),
        SearchConditionKind::Language(code) => {
            // A status is in `code` when the first part of its language (before `-` or `_`),
            // lower-cased, is `code`; a code that is no such first part matches nothing.
            if language_code(code) != *code {
                return "1 = 0".to_string();
            }
            let exact = sql.bind(code.clone());
            let len = sql.bind(i32::try_from(code.chars().count() + 1).unwrap_or(i32::MAX));
            let dash = sql.bind(format!("{code}-"));
            let underscore = sql.bind(format!("{code}_"));
            format!(
                "(s.language IS NOT NULL AND (lower(s.language) = {exact} \
                 OR substr(lower(s.language), 1, {len}) IN ({dash}, {underscore})))"
            )
        }
        SearchConditionKind::Created { from, to } => {
            let mut parts = vec![];
            if let Some(from) = from {
                parts.push(format!("s.created_at >= {}", sql.bind(*from)));
            }
            if let Some(to) = to {
                parts.push(format!("s.created_at < {}", sql.bind(*to)));
            }
            if parts.is_empty() {
                "1 = 1".to_string()
            } else {
                format!("({})", parts.join(" AND "))
            }
        }
    }
}

/// An FTS5 phrase of `words` (each a run of letters and digits, so only the quotes need care).
fn fts_phrase(words: &[String]) -> String {
    format!("\"{}\"", words.join(" ").replace('"', "\"\""))
}

/// FTS5 phrases joined by `op` (`AND`, `OR`), parenthesised.
fn fts_join(texts: &[Vec<String>], op: &str) -> String {
    let phrases: Vec<String> = texts.iter().map(|w| fts_phrase(w)).collect();
    format!("({})", phrases.join(&format!(" {op} ")))
}

/// The SQLite search: `must` and `must_not` are the words of the texts (none empty).
fn sqlite_search(
    search: &StatusSearch,
    must: &[Vec<String>],
    must_not: &[Vec<String>],
) -> Statement {
    let mut sql = Sql::new(DbBackend::Sqlite);
    let mut filters = vec![];
    let (from, id) = if must.is_empty() {
        // No word required: every indexed status (the shadow table where FTS5 keeps a row per
        // document), minus the matches of the excluded words. The planner picks the order of
        // the joins, so that a selective condition (`from:`) can lead through its index.
        if !must_not.is_empty() {
            let excluded = sql.bind(fts_join(must_not, "OR"));
            filters.push(format!(
                "s.id NOT IN (SELECT rowid FROM status_search WHERE status_search MATCH {excluded})"
            ));
        }
        (
            "statuses s JOIN status_search_docsize d ON d.id = s.id \
             JOIN accounts a ON a.id = s.account_id",
            "s.id",
        )
    } else {
        // The index's matches, read newest first as the outer loop (CROSS JOIN keeps it
        // there), so rows come in its order and LIMIT stops the scan.
        let mut expression = fts_join(must, "AND");
        if !must_not.is_empty() {
            expression = format!("{expression} NOT {}", fts_join(must_not, "OR"));
        }
        let matching = sql.bind(expression);
        filters.push(format!("status_search MATCH {matching}"));
        (
            "status_search CROSS JOIN statuses s ON s.id = status_search.rowid \
             CROSS JOIN accounts a ON a.id = s.account_id",
            "status_search.rowid",
        )
    };
    if let Some(max) = search.max_id {
        filters.push(format!("{id} < {}", sql.bind(bound(max))));
    }
    if let Some(min) = search.min_id {
        filters.push(format!("{id} > {}", sql.bind(bound(min))));
    }
    filters.extend(status_filters(&mut sql, search));
    let limit = sql.bind(count(search.limit));
    let offset = sql.bind(count(search.offset));
    let text = format!(
        "SELECT s.id AS id FROM {from} WHERE {} ORDER BY {id} DESC LIMIT {limit} OFFSET {offset}",
        filters.join(" AND ")
    );
    sql.statement(text)
}

/// The tsquery text `regexp_replace` gives every lexeme of a tsquery `weight` in (lexemes are
/// quoted; a quote inside one, which the words never hold, would be doubled).
fn pg_weighted(tsquery: &str, weight: char) -> String {
    format!("regexp_replace(({tsquery})::text, '''[^'']*''', '\\&:{weight}', 'g')")
}

/// The tsquery of one word or phrase on PostgreSQL: its words in order, exact (weight A), or
/// when `config` (SQL giving the configuration of the language searched, possibly NULL) is
/// given, also their stems in that language (weight B).
fn pg_text(sql: &mut Sql, words: &[String], config: Option<&str>) -> String {
    let text = sql.bind(words.join(" "));
    let exact = format!(
        "{}::tsquery",
        pg_weighted(&format!("phraseto_tsquery('simple', {text})"), 'A')
    );
    match config {
        None => exact,
        // A phrase of stop words only has no lexeme in the language: then exact only.
        Some(config) => format!(
            "COALESCE(({exact}) || NULLIF({}, '')::tsquery, {exact})",
            pg_weighted(&format!("phraseto_tsquery({config}, {text})"), 'B')
        ),
    }
}

/// The PostgreSQL search: `must` and `must_not` are the words of the texts (none empty).
fn pg_search(search: &StatusSearch, must: &[Vec<String>], must_not: &[Vec<String>]) -> Statement {
    let mut sql = Sql::new(DbBackend::Postgres);
    // The first language kept that has a configuration: its stems match too.
    let config = search.conditions.iter().find_map(|c| match &c.kind {
        SearchConditionKind::Language(code) if !c.negated => pg_config(code),
        _ => None,
    });
    let config = config.map(|c| {
        let name = sql.bind(c);
        pg_config_sql(&name)
    });
    let mut query = |texts: &[Vec<String>], op: &str| {
        let parts: Vec<String> = texts
            .iter()
            .map(|w| format!("({})", pg_text(&mut sql, w, config.as_deref())))
            .collect();
        parts.join(op)
    };
    let mut filters = vec![];
    if !must.is_empty() {
        filters.push(format!("ss.tsv @@ ({})", query(must, " && ")));
    }
    if !must_not.is_empty() {
        filters.push(format!("NOT (ss.tsv @@ ({}))", query(must_not, " || ")));
    }
    if let Some(max) = search.max_id {
        filters.push(format!("ss.status_id < {}", sql.bind(bound(max))));
    }
    if let Some(min) = search.min_id {
        filters.push(format!("ss.status_id > {}", sql.bind(bound(min))));
    }
    filters.extend(status_filters(&mut sql, search));
    let limit = sql.bind(count(search.limit));
    let offset = sql.bind(count(search.offset));
    let text = format!(
        "SELECT s.id AS id FROM status_search ss \
         JOIN statuses s ON s.id = ss.status_id \
         JOIN accounts a ON a.id = s.account_id \
         WHERE {} ORDER BY ss.status_id DESC LIMIT {limit} OFFSET {offset}",
        filters.join(" AND ")
    );
    sql.statement(text)
}

/// Documents written per statement: a few hundred bound values.
const INDEX_CHUNK: usize = 100;

/// One document as written: the status, its words, and on PostgreSQL the configuration of its
/// language (if any).
struct Row {
    id: i64,
    words: String,
    config: Option<&'static str>,
}

/// The rows of `documents`, the last one of each status only (as if written one by one).
fn rows(documents: &[SearchDocument]) -> Vec<Row> {
    let mut last = std::collections::HashMap::new();
    for (i, d) in documents.iter().enumerate() {
        last.insert(d.status_id, i);
    }
    documents
        .iter()
        .enumerate()
        .filter(|(i, d)| last.get(&d.status_id) == Some(i))
        .map(|(_, d)| Row {
            id: d.status_id.as_i64(),
            words: words(&d.text).join(" "),
            config: d.language.as_deref().and_then(pg_config),
        })
        .collect()
}

/// Writes `rows` on SQLite: takes the statuses out of the index, then puts in those that
/// exist and are not reblogs.
fn sqlite_index(rows: &[Row]) -> [Statement; 2] {
    let mut unindex = Sql::new(DbBackend::Sqlite);
    let ids: Vec<String> = rows.iter().map(|r| unindex.bind(r.id)).collect();
    let unindex = unindex.statement(format!(
        "DELETE FROM status_search WHERE rowid IN ({})",
        ids.join(", ")
    ));
    let mut index = Sql::new(DbBackend::Sqlite);
    let documents: Vec<String> = rows
        .iter()
        .map(|r| format!("({}, {})", index.bind(r.id), index.bind(r.words.clone())))
        .collect();
    let index = index.statement(format!(
        "INSERT INTO status_search (rowid, text) \
         SELECT s.id, v.column2 FROM (VALUES {}) v \
         CROSS JOIN statuses s ON s.id = v.column1 WHERE s.reblog_of_id IS NULL",
        documents.join(", ")
    ));
    [unindex, index]
}

/// Writes `rows` on PostgreSQL, each replacing what the index held for its status; nothing
/// for missing statuses and reblogs.
fn pg_index(rows: &[Row]) -> Statement {
    let mut sql = Sql::new(DbBackend::Postgres);
    let documents: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "({}::bigint, {}::text, {}::text)",
                sql.bind(r.id),
                sql.bind(r.words.clone()),
                sql.bind(r.config.map(str::to_string))
            )
        })
        .collect();
    let text = format!(
        "INSERT INTO status_search (status_id, tsv) \
         SELECT s.id, setweight(to_tsvector('simple', v.words), 'A') \
         || COALESCE(setweight(to_tsvector({config}, v.words), 'B'), ''::tsvector) \
         FROM (VALUES {documents}) AS v (id, words, config) \
         JOIN statuses s ON s.id = v.id WHERE s.reblog_of_id IS NULL \
         ON CONFLICT (status_id) DO UPDATE SET tsv = excluded.tsv",
        config = pg_config_sql("v.config"),
        documents = documents.join(", ")
    );
    sql.statement(text)
}

/// Writes `documents` into the index, each replacing what it held for its status; documents of
/// missing statuses and of reblogs write nothing.
async fn index_rows<C: ConnectionTrait>(db: &C, documents: &[SearchDocument]) -> StoreResult<()> {
    let backend = db.get_database_backend();
    for chunk in rows(documents).chunks(INDEX_CHUNK) {
        let statements = match backend {
            DbBackend::Sqlite => sqlite_index(chunk).to_vec(),
            DbBackend::Postgres => vec![pg_index(chunk)],
            other => return Err(unsupported("index_statuses", other)),
        };
        for statement in statements {
            db.execute_raw(statement).await.map_err(backend_err)?;
        }
    }
    Ok(())
}

impl SeaStore {
    /// `StatusStore::index_statuses`: the batch in one transaction.
    pub(super) async fn index_search_documents(
        &self,
        documents: &[SearchDocument],
    ) -> StoreResult<()> {
        if documents.is_empty() {
            return Ok(());
        }
        let tx = self.begin_write().await?;
        let res = index_rows(&tx, documents).await;
        finish(tx, res).await
    }

    /// `StatusStore::search_statuses`.
    pub(super) async fn search_status_ids(&self, search: &StatusSearch) -> StoreResult<Vec<Id>> {
        let must: Vec<Vec<String>> = search.must.iter().map(text_words).collect();
        // A text of no words matches nothing: required, nothing is found; excluded, it
        // excludes nothing.
        if search.limit == 0 || must.iter().any(Vec::is_empty) {
            return Ok(vec![]);
        }
        let must_not: Vec<Vec<String>> = search
            .must_not
            .iter()
            .map(text_words)
            .filter(|w| !w.is_empty())
            .collect();
        let statement = match self.db.get_database_backend() {
            DbBackend::Sqlite => sqlite_search(search, &must, &must_not),
            DbBackend::Postgres => pg_search(search, &must, &must_not),
            other => return Err(unsupported("search_statuses", other)),
        };
        let rows = self
            .db
            .query_all_raw(statement)
            .await
            .map_err(backend_err)?;
        rows.iter()
            .map(|r| {
                r.try_get::<i64>("", "id")
                    .map(Id::from_i64)
                    .map_err(backend_err)
            })
            .collect()
    }

    /// `StatusStore::indexable_status_ids`.
    pub(super) async fn indexable_ids(
        &self,
        after: Option<Id>,
        limit: u64,
    ) -> StoreResult<Vec<Id>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        let mut query = statuses::Entity::find()
            .select_only()
            .column(statuses::Column::Id)
            .filter(statuses::Column::ReblogOfId.is_null());
        if let Some(after) = after {
            query = query.filter(statuses::Column::Id.gt(bound(after)));
        }
        let ids: Vec<i64> = query
            .order_by_asc(statuses::Column::Id)
            .limit(limit)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(ids.into_iter().map(Id::from_i64).collect())
    }

    /// Where the last `search reindex` stopped: the id of the last status it indexed, which the
    /// next one resumes after; `None` when none was saved (or `None` was).
    pub async fn reindex_position(&self) -> Result<Option<Id>, StoreError> {
        let backend = self.db.get_database_backend();
        let row = self
            .db
            .query_one_raw(Statement::from_string(
                backend,
                "SELECT position FROM search_reindex WHERE id = 1",
            ))
            .await
            .map_err(backend_err)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let position: Option<i64> = row.try_get("", "position").map_err(backend_err)?;
        Ok(position.map(Id::from_i64))
    }

    /// Saves where `search reindex` stands (see [`SeaStore::reindex_position`]); `None` forgets
    /// it.
    pub async fn save_reindex_position(&self, position: Option<Id>) -> Result<(), StoreError> {
        let backend = self.db.get_database_backend();
        let sql = match backend {
            DbBackend::Postgres => {
                "INSERT INTO search_reindex (id, position) VALUES (1, $1) \
                 ON CONFLICT (id) DO UPDATE SET position = excluded.position"
            }
            _ => {
                "INSERT INTO search_reindex (id, position) VALUES (1, ?1) \
                 ON CONFLICT (id) DO UPDATE SET position = excluded.position"
            }
        };
        let values: [Value; 1] = [position.map(Id::as_i64).into()];
        self.db
            .execute_raw(Statement::from_sql_and_values(backend, sql, values))
            .await
            .map_err(backend_err)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{ConnectSettings, connect};
    use fedblog_core::store::SearchCondition;

    fn search(must: &[&str], must_not: &[&str], scope: In) -> StatusSearch {
        let texts = |w: &[&str]| w.iter().map(|w| Text::Word(w.to_string())).collect();
        StatusSearch {
            searcher: Id(1),
            scope,
            must: texts(must),
            must_not: texts(must_not),
            conditions: vec![
                SearchCondition {
                    negated: false,
                    kind: SearchConditionKind::Has(Has::Image),
                },
                SearchCondition {
                    negated: true,
                    kind: SearchConditionKind::Language("en".into()),
                },
            ],
            max_id: Some(Id(1_000_000)),
            min_id: Some(Id(10)),
            offset: 0,
            limit: 20,
        }
    }

    /// SQLite's plan for `search`, one step a line.
    async fn plan(store: &SeaStore, search: &StatusSearch) -> Vec<String> {
        let words = |t: &[Text]| t.iter().map(text_words).collect::<Vec<_>>();
        let statement = sqlite_search(search, &words(&search.must), &words(&search.must_not));
        let explain = Statement::from_sql_and_values(
            DbBackend::Sqlite,
            format!("EXPLAIN QUERY PLAN {}", statement.sql),
            statement.values.map(|v| v.0).unwrap_or_default(),
        );
        let rows = store.db.query_all_raw(explain).await.expect("explain");
        rows.iter()
            .map(|r| r.try_get::<String>("", "detail").expect("detail"))
            .collect()
    }

    /// A search with words reads the FTS5 matches newest first as its outer loop, and no
    /// search sorts its rows afterwards (which would read every match before the first row).
    #[tokio::test]
    async fn sqlite_searches_read_in_id_order_without_sorting() {
        let store = connect("sqlite::memory:", &ConnectSettings::default())
            .await
            .expect("connect");
        store.migrate().await.expect("migrate");
        for scope in [In::All, In::Library, In::Public] {
            for (must, must_not) in [
                (&["quokka", "walrus"][..], &[][..]),
                (&["quokka"][..], &["walrus"][..]),
                (&[][..], &["walrus"][..]),
                (&[][..], &[][..]),
            ] {
                let steps = plan(&store, &search(must, must_not, scope)).await;
                let plan = steps.join("\n");
                assert!(!plan.contains("TEMP B-TREE"), "{scope:?} {must:?}: {plan}");
                if !must.is_empty() {
                    assert!(
                        steps[0].starts_with("SCAN status_search VIRTUAL TABLE"),
                        "{scope:?} {must:?}: {plan}"
                    );
                }
            }
        }
    }
}
