//! `DirectoryStore` for `SeaStore`: account search, the profile directory, popular local accounts.

use async_trait::async_trait;
use fedblog_core::store::{AccountRecord, AccountSearch, DirectoryOrder, DirectoryStore};
use fedblog_core::{Id, StoreResult};
use sea_orm::sea_query::{
    Expr, ExprTrait, Func, LikeExpr, NullOrdering, Order, Query, SelectStatement, UnionType,
};
use sea_orm::{
    ColumnTrait, Condition, DbBackend, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    QueryTrait, Statement,
};

use super::accounts::{account_from_row, fold};
use super::entity::{accounts, follows, users};
use super::tags::prefix_upper_bound;
use super::{SeaStore, backend_err};

/// The escape character of the `LIKE` patterns built here.
const LIKE_ESCAPE: char = '\\';

/// `text` with the `LIKE` wildcards (`%`, `_`) and the escape character itself escaped, so user
/// text matches literally.
pub(super) fn escape_like(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | LIKE_ESCAPE) {
            out.push(LIKE_ESCAPE);
        }
        out.push(c);
    }
    out
}

pub(super) fn like(pattern: String) -> LikeExpr {
    LikeExpr::new(pattern).escape(LIKE_ESCAPE)
}

fn records(rows: Vec<accounts::Model>) -> StoreResult<Vec<AccountRecord>> {
    rows.into_iter().map(account_from_row).collect()
}

/// The external-content FTS5 table (trigram tokenizer) over `accounts(display_name)` on SQLite
/// (migration m0026).
const ACCOUNTS_FTS: &str = "accounts_fts";

/// SQLite's covering index of the columns account search filters and orders by, but for the
/// domain (migration m0026), led by the id.
const SEARCH_INDEX: &str = "ix_accounts_search";

/// The table name of `accounts`, for columns qualified by name.
const ACCOUNTS: &str = "accounts";

/// The alias of `accounts` in SQLite's subquery that chooses the page of results.
const RANKED: &str = "ranked";

/// `username` starts with `prefix`: `prefix <= username < prefix_upper_bound(prefix)`, a range
/// an index on the column serves (no `LIKE`: SQLite's LIKE optimisation needs a NOCASE index and
/// a pattern known when the statement is prepared).
fn starts_with(username: Expr, prefix: &str) -> Condition {
    let mut c = Condition::all().add(username.clone().gte(prefix));
    if let Some(bound) = prefix_upper_bound(prefix) {
        c = c.add(username.lt(bound));
    }
    c
}

/// The FTS5 query for the rows whose display name contains `text` (three characters or more),
/// case-insensitively: `text` as one phrase, its consecutive trigrams, `"` doubled. Every
/// character of a phrase is literal (`%` and `_` too).
fn trigram_phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// Whether the trigram index can find the display names containing `text`: three characters or
/// more (the tokens are trigrams), and no NUL (where SQLite would cut the FTS5 query short).
fn trigram_serves(text: &str) -> bool {
    text.chars().count() >= 3 && !text.contains('\0')
}

/// SQLite: the ids of the accounts whose lower-cased username starts with `text` (a range of
/// `ux_accounts_username`, byte order) and of those whose display name contains `text` as far
/// as the trigram index `accounts_fts` tells (when [`trigram_serves`] `text`). The index
/// folds case by Unicode where `LOWER` folds ASCII only: a superset of the matches, which the
/// plain condition narrows. (A `MATCH` rather than FTS5's own `LIKE` support: that one reads
/// each candidate's text from `accounts` once more to check it, and needs a `LIKE` without
/// `ESCAPE`.)
fn sqlite_candidates(text: &str) -> SelectStatement {
    let by_display_name = Query::select()
        .expr(Expr::cust(format!(r#""{ACCOUNTS_FTS}"."rowid""#)))
        .from(ACCOUNTS_FTS)
        .and_where(Expr::cust_with_values(
            format!(r#""{ACCOUNTS_FTS}" MATCH ?"#),
            [trigram_phrase(text)],
        ))
        .to_owned();
    // Unqualified columns: those of this subquery's own `accounts`.
    Query::select()
        .column(accounts::Column::Id)
        .from(accounts::Entity)
        .cond_where(starts_with(
            Expr::col(accounts::Column::UsernameLower),
            text,
        ))
        .union(UnionType::Distinct, by_display_name)
        .to_owned()
}

/// The accounts `search` finds, in columns of `table` (`accounts` or an alias): not suspended,
/// the lower-cased username starting with the text or the display name containing it,
/// case-insensitively (the text comes lower-cased), then the domain and follower filters.
///
/// The match is `LOWER(col) LIKE lower-cased pattern` on both engines (PostgreSQL's LIKE is
/// case sensitive, and ILIKE is not portable), wildcards escaped, or a range for the username
/// prefix. On PostgreSQL the range is compared `COLLATE "C"` (byte order; the index
/// `ix_accounts_username_lower_c`) and the `LIKE` can use the `pg_trgm` GIN index
/// `ix_accounts_display_name_trgm` (when the extension could be created): a bitmap OR of both.
/// On SQLite a text of three characters or more also restricts the ids to
/// [`sqlite_candidates`], so that only those accounts are read (a shorter one reads them all).
fn search_filter(backend: DbBackend, table: &'static str, search: &AccountSearch) -> Condition {
    let col = |c: accounts::Column| Expr::col((table, c));
    let text = search.text.as_str();
    let username = match backend {
        DbBackend::Postgres => Expr::cust(format!(r#""{table}"."username_lower" COLLATE "C""#)),
        _ => col(accounts::Column::UsernameLower),
    };
    let mut filter = Condition::all().add(col(accounts::Column::SuspendedAt).is_null());
    if backend == DbBackend::Sqlite && trigram_serves(text) {
        filter = filter.add(col(accounts::Column::Id).in_subquery(sqlite_candidates(text)));
    }
    filter = filter.add(
        Condition::any().add(starts_with(username, text)).add(
            Func::lower(col(accounts::Column::DisplayName))
                .like(like(format!("%{}%", escape_like(text)))),
        ),
    );
    if let Some(domain) = &search.domain {
        filter = filter
            .add(col(accounts::Column::Domain).is_not_null())
            .add(col(accounts::Column::DomainKey).eq(fold(domain)));
    }
    if let Some(follower) = search.followed_by {
        filter = filter.add(
            col(accounts::Column::Id).in_subquery(
                Query::select()
                    .column(follows::Column::TargetId)
                    .from(follows::Entity)
                    .and_where(follows::Column::FollowerId.eq(follower.as_i64()))
                    .to_owned(),
            ),
        );
    }
    filter
}

/// The order of search results, in columns of `table`: exact username matches first, then by
/// followers (most first), then by id.
fn search_order(table: &'static str, text: &str) -> [(Expr, Order); 3] {
    let exact_last: Expr = Expr::case(
        Expr::col((table, accounts::Column::UsernameLower)).eq(text),
        0,
    )
    .finally(1)
    .into();
    [
        (exact_last, Order::Asc),
        (
            Expr::col((table, accounts::Column::FollowersCount)),
            Order::Desc,
        ),
        (Expr::col((table, accounts::Column::Id)), Order::Asc),
    ]
}

/// The statement of `search_accounts` on `backend`.
///
/// PostgreSQL: one query, filtered, ordered and paged.
///
/// SQLite: the page of ids is chosen first, by a subquery that reads [`SEARCH_INDEX`] only
/// (`INDEXED BY`: without statistics the planner would read the table by its primary key), then
/// only those accounts are read whole. The index holds a fraction of the table's bytes (no
/// notes, fields or URLs), so the few thousand accounts a common fragment of a name matches
/// are ranked from a small index rather than from about one table page each.
fn search_statement(backend: DbBackend, search: &AccountSearch) -> Statement {
    let offset = std::cmp::min(search.offset, i64::MAX as u64);
    let limit = std::cmp::min(search.limit, i64::MAX as u64);
    let text = search.text.as_str();
    if backend != DbBackend::Sqlite {
        let mut q = accounts::Entity::find().filter(search_filter(backend, ACCOUNTS, search));
        for (expr, order) in search_order(ACCOUNTS, text) {
            q = q.order_by(expr, order);
        }
        return q.offset(offset).limit(limit).build(backend);
    }
    let mut ranked = Query::select();
    ranked
        .column((RANKED, accounts::Column::Id))
        .from_as(accounts::Entity, RANKED)
        .cond_where(search_filter(backend, RANKED, search));
    for (expr, order) in search_order(RANKED, text) {
        ranked.order_by_expr(expr, order);
    }
    ranked.offset(offset).limit(limit);
    let mut q = accounts::Entity::find().filter(accounts::Column::Id.in_subquery(ranked));
    for (expr, order) in search_order(ACCOUNTS, text) {
        q = q.order_by(expr, order);
    }
    let mut stmt = q.build(backend);
    // With a domain, the planner's own choice (the few accounts of the domain by
    // `ix_accounts_domain_key`, looked up by id) beats the covering index.
    if search.domain.is_none() {
        // sea-query has no `INDEXED BY`: it goes after the subquery's table and alias.
        let from = format!(r#"FROM "{ACCOUNTS}" AS "{RANKED}""#);
        stmt.sql = stmt
            .sql
            .replacen(&from, &format!(r#"{from} INDEXED BY "{SEARCH_INDEX}""#), 1);
    }
    stmt
}

#[async_trait]
impl DirectoryStore for SeaStore {
    async fn search_accounts(&self, search: &AccountSearch) -> StoreResult<Vec<AccountRecord>> {
        let stmt = search_statement(self.db.get_database_backend(), search);
        let rows = accounts::Entity::find()
            .from_raw_sql(stmt)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        records(rows)
    }

    async fn directory(
        &self,
        order: DirectoryOrder,
        local_only: bool,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<AccountRecord>> {
        let can_log_in = Query::select()
            .column(users::Column::AccountId)
            .from(users::Entity)
            .and_where(users::Column::ConfirmedAt.is_not_null())
            .and_where(users::Column::Approved.eq(true))
            .to_owned();
        let mut q = accounts::Entity::find()
            .filter(accounts::Column::Discoverable.eq(true))
            .filter(accounts::Column::SuspendedAt.is_null())
            // Remote accounts, or local ones whose login is confirmed and approved.
            .filter(
                Condition::any()
                    .add(accounts::Column::Domain.is_not_null())
                    .add(accounts::Column::Id.in_subquery(can_log_in)),
            );
        if local_only {
            q = q.filter(accounts::Column::Domain.is_null());
        }
        q = match order {
            // `NULLS LAST` spelled out: PostgreSQL sorts NULLs first in descending order.
            DirectoryOrder::Active => q.order_by_with_nulls(
                accounts::Column::LastStatusAt,
                Order::Desc,
                NullOrdering::Last,
            ),
            DirectoryOrder::New => q.order_by_desc(accounts::Column::CreatedAt),
        };
        let rows = q
            .order_by_desc(accounts::Column::Id)
            .offset(offset)
            .limit(limit)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        records(rows)
    }

    async fn most_followed_local(&self, limit: u64) -> StoreResult<Vec<Id>> {
        let ids: Vec<i64> = accounts::Entity::find()
            .select_only()
            .column(accounts::Column::Id)
            // `domain_key = ''` (local) leads the (domain_key, followers_count) index.
            .filter(accounts::Column::DomainKey.eq(""))
            .filter(accounts::Column::Domain.is_null())
            .filter(accounts::Column::Discoverable.eq(true))
            .filter(accounts::Column::SuspendedAt.is_null())
            .order_by_desc(accounts::Column::FollowersCount)
            .order_by_asc(accounts::Column::Id)
            .limit(limit)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(ids.into_iter().map(Id::from_i64).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::{escape_like, prefix_upper_bound, search_statement, trigram_phrase};
    use crate::store::{ConnectSettings, SeaStore, connect};
    use fedblog_core::Id;
    use fedblog_core::store::{AccountRecord, AccountSearch, AccountStore, DirectoryStore};
    use sea_orm::{ConnectionTrait, DbBackend, Statement};

    #[test]
    fn escapes_like_wildcards() {
        assert_eq!(escape_like("a_b%c\\d"), "a\\_b\\%c\\\\d");
        assert_eq!(escape_like("plain"), "plain");
    }

    #[test]
    fn prefix_ranges_and_phrases() {
        assert_eq!(prefix_upper_bound("ali").as_deref(), Some("alj"));
        assert_eq!(prefix_upper_bound("a\u{10FFFF}").as_deref(), Some("b"));
        assert_eq!(prefix_upper_bound("\u{D7FF}").as_deref(), Some("\u{E000}"));
        assert_eq!(prefix_upper_bound(""), None);
        assert_eq!(trigram_phrase("ali"), "\"ali\"");
        assert_eq!(trigram_phrase("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    fn search(text: &str) -> AccountSearch {
        AccountSearch {
            text: text.to_string(),
            domain: None,
            followed_by: None,
            offset: 0,
            limit: 40,
        }
    }

    async fn sqlite() -> SeaStore {
        let store = connect("sqlite::memory:", &ConnectSettings::default())
            .await
            .expect("connect");
        store.migrate().await.expect("migrate");
        store
    }

    /// The `detail` lines of SQLite's plan for `search`.
    async fn plan(store: &SeaStore, search: &AccountSearch) -> Vec<String> {
        let stmt = search_statement(DbBackend::Sqlite, search);
        let explain = Statement::from_sql_and_values(
            DbBackend::Sqlite,
            format!("EXPLAIN QUERY PLAN {}", stmt.sql),
            stmt.values.map(|v| v.0).unwrap_or_default(),
        );
        store
            .connection()
            .query_all_raw(explain)
            .await
            .expect("explain")
            .iter()
            .map(|r| r.try_get::<String>("", "detail").expect("detail"))
            .collect()
    }

    /// On SQLite a search of three characters or more reads the trigram index and the username
    /// index, then ranks the ids found from the covering index and reads `accounts` by id only,
    /// whatever the filters; a shorter one ranks every account from the covering index.
    #[tokio::test]
    async fn sqlite_search_reads_the_indexes() {
        let store = sqlite().await;
        let filtered = [
            search("ali"),
            search("100% \"c\""),
            AccountSearch {
                domain: Some("remote.example".into()),
                ..search("alice")
            },
            AccountSearch {
                followed_by: Some(Id::from_i64(7)),
                ..search("alice")
            },
        ];
        for s in filtered {
            let plan = plan(&store, &s).await;
            let text = plan.join("\n");
            assert!(
                plan.iter()
                    .any(|l| l.starts_with("SCAN accounts_fts VIRTUAL TABLE INDEX 0:M")),
                "{s:?}: no trigram index in\n{text}"
            );
            assert!(
                plan.iter().any(|l| l.contains(
                    "INDEX ux_accounts_username (username_lower>? AND username_lower<?)"
                )),
                "{s:?}: no username index in\n{text}"
            );
            let ranking = if s.domain.is_some() {
                "SEARCH ranked USING INDEX ix_accounts_domain_key (domain_key=? AND rowid=?)"
            } else {
                "SEARCH ranked USING COVERING INDEX ix_accounts_search (id=?"
            };
            assert!(
                plan.iter().any(|l| l.starts_with(ranking)),
                "{s:?}: does not rank with {ranking}:\n{text}"
            );
            assert!(
                !plan.iter().any(|l| l.starts_with("SCAN ")
                    && !l.starts_with("SCAN accounts_fts VIRTUAL TABLE INDEX 0:M")),
                "{s:?}: reads every account:\n{text}"
            );
        }
        let plan = plan(&store, &search("al")).await;
        assert!(!plan.iter().any(|l| l.contains("accounts_fts")), "{plan:?}");
        assert!(
            plan.iter()
                .any(|l| l == "SCAN ranked USING COVERING INDEX ix_accounts_search"),
            "{plan:?}"
        );
    }

    /// The triggers keep the trigram index in step with `accounts`: new accounts, changed
    /// display names and deleted accounts.
    #[tokio::test]
    async fn sqlite_trigram_index_follows_accounts() {
        let store = sqlite().await;
        let mut a = AccountRecord::new_local(Id::from_i64(1), "someone", chrono::Utc::now());
        a.domain = Some("remote.example".into());
        a.display_name = "Grace Hopper".into();
        store.insert_remote_account(&a).await.expect("insert");
        let found = |text: &'static str| {
            let store = &store;
            async move {
                store
                    .search_accounts(&search(text))
                    .await
                    .expect("search")
                    .into_iter()
                    .map(|a| a.id.as_i64())
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(found("hopp").await, vec![1]);
        for odd in ["a\0bc", "\"\"\"", "x*y", "NEAR(a b)", "a:b^c", "  \u{0}  "] {
            store
                .search_accounts(&search(odd))
                .await
                .unwrap_or_else(|e| panic!("{odd:?}: {e:?}"));
        }
        let db = store.connection();
        db.execute_unprepared("UPDATE accounts SET display_name = 'Ada Lovelace' WHERE id = 1")
            .await
            .expect("update");
        assert_eq!(found("hopp").await, Vec::<i64>::new());
        assert_eq!(found("lovel").await, vec![1]);
        // Compares the index with the content table.
        db.execute_unprepared(
            "INSERT INTO accounts_fts(accounts_fts, rank) VALUES ('integrity-check', 1)",
        )
        .await
        .expect("index in step after an update");
        db.execute_unprepared("DELETE FROM accounts WHERE id = 1")
            .await
            .expect("delete");
        assert_eq!(found("lovel").await, Vec::<i64>::new());
        db.execute_unprepared(
            "INSERT INTO accounts_fts(accounts_fts, rank) VALUES ('integrity-check', 1)",
        )
        .await
        .expect("index in step after a delete");
    }
}
