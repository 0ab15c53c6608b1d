//! `DirectoryStore` for `SeaStore`: account search, the profile directory, popular local accounts.

use async_trait::async_trait;
use fedblog_core::store::{AccountRecord, AccountSearch, DirectoryOrder, DirectoryStore};
use fedblog_core::{Id, StoreResult};
use sea_orm::sea_query::{
    CommonTableExpression, Expr, ExprTrait, Func, LikeExpr, NullOrdering, Order, Query,
    SelectStatement, UnionType, WithClause,
};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DbBackend, EntityTrait, FromQueryResult, QueryFilter,
    QueryOrder, QuerySelect, QueryTrait, Statement, StatementBuilder,
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

/// The index of the accounts in rank order (followers, most first, then id), on SQLite carrying
/// the columns the rank walk checks (migration m0029).
const RANK_INDEX: &str = "ix_accounts_search_rank";

/// The accounts the rank walk reads at most on SQLite, in rank order, before it gives up and
/// the matches are ranked from the name indexes instead. Reading one entry of [`RANK_INDEX`]
/// and checking it costs about 0.25 µs: 2.5 ms for the whole window. A text matching one
/// account in a hundred (the fewest [`RANK_PROBE`] lets through, at 100,000 accounts) has about
/// 100 matches in it, twice a page of 50; a common piece of a name (3,000 to 5,000 matches)
/// finds its page in the first 1,000 to 2,000 entries.
const RANK_WINDOW: u64 = 10_000;

/// The rank walk's window on PostgreSQL, where the walk reads each account's row (its index
/// carries no names) for about 1.5 µs: a whole window in vain costs about 4 ms. The walk finds
/// a page of 50 there when one account in 50 matches (a common piece of a name, whose matches
/// cost 10 ms or more to rank from the trigram index, against 1 to 3 ms walked).
const PG_RANK_WINDOW: u64 = 2_500;

/// The longest text PostgreSQL walks for (it has no cheap count of candidates to tell a rare
/// text from a common one, as SQLite's trigram table gives): a piece of a name of three
/// characters or fewer is most often common, one of four or more most often rare (tens to a
/// few hundred matches at 100,000 accounts), which the trigram index ranks in a few ms.
const PG_WALK_MAX_CHARS: usize = 3;

/// On SQLite, the rank walk is tried only when a text the trigram index serves has this many
/// candidates or more (ids from the username range and the trigram index, counted up to this
/// many, about 0.3 ms): fewer are ranked quickly from the name indexes (about 2 µs each), where
/// a walk would read much of its window in vain to find them. Tuned at 100,000 accounts: with
/// many more, a text with this many candidates matches a smaller share of them, and the walk
/// gives up more often (then both are paid).
const RANK_PROBE: u64 = 1_000;

/// The deepest result (`offset + limit`) the rank walk looks for; a deeper page would need a
/// denser match than the walk's window is likely to hold, and is ranked from the name indexes.
const RANK_WALK_MAX: u64 = 500;

/// The table name of `accounts`, for columns qualified by name.
const ACCOUNTS: &str = "accounts";

/// The alias of `accounts` in the subquery that chooses the page of results.
const RANKED: &str = "ranked";

/// The common table of a search's first [`RANK_PROBE`] candidates on SQLite (the ids of
/// [`sqlite_candidates`]), which decide between the rank walk and ranking them.
const CANDIDATES: &str = "candidates";

/// The common table of the page's ids ranked among fewer than [`RANK_PROBE`] candidates on
/// SQLite.
const CHOSEN: &str = "chosen";

/// The column of [`walked_page_statement`]'s rows counting [`CANDIDATES`].
const CANDIDATE_COUNT: &str = "candidate_count";

/// The common table of the rank walk's ids in [`walked_page_statement`].
const WALKED: &str = "walked";

/// The column of [`walked_page_statement`]'s rows counting the rank walk's ids.
const WALKED_COUNT: &str = "walked_count";

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
/// `ESCAPE`.) An id may come twice (`UNION ALL`): `IN` keeps one, and a `UNION` would sort them
/// all into a temporary B-tree once more first.
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
        .union(UnionType::All, by_display_name)
        .to_owned()
}

/// The name condition of a search for `text` (lower-cased), in columns of `table`: the
/// lower-cased username starts with `text` (a range, in byte order: `COLLATE "C"` on
/// PostgreSQL) or the lower-cased display name contains it (`LIKE`, wildcards escaped).
///
/// On SQLite the display name is compared as it is: SQLite's `LIKE` ignores the case of ASCII
/// letters, and its `LOWER` folds ASCII letters only, so `display_name LIKE p` and
/// `LOWER(display_name) LIKE p` match the same names (without a lower-cased copy of each
/// name: the rank walk checks thousands). PostgreSQL's `LIKE` is case sensitive: `lower` there.
fn name_match(backend: DbBackend, table: &'static str, text: &str) -> Condition {
    let col = |c: accounts::Column| Expr::col((table, c));
    let pattern = like(format!("%{}%", escape_like(text)));
    match backend {
        DbBackend::Postgres => Condition::any()
            .add(starts_with(
                Expr::cust(format!(r#""{table}"."username_lower" COLLATE "C""#)),
                text,
            ))
            .add(Func::lower(col(accounts::Column::DisplayName)).like(pattern)),
        _ => Condition::any()
            .add(starts_with(col(accounts::Column::UsernameLower), text))
            .add(col(accounts::Column::DisplayName).like(pattern)),
    }
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
/// [`sqlite_candidates`], so that only those accounts are read (a shorter one reads them all),
/// but for a search among the accounts one follows: those are read from `follows` and checked,
/// which costs as many lookups as the account follows (tens to hundreds), where gathering the
/// candidates of a common piece of a name costs as many as it matches (thousands).
fn search_filter(backend: DbBackend, table: &'static str, search: &AccountSearch) -> Condition {
    let col = |c: accounts::Column| Expr::col((table, c));
    let text = search.text.as_str();
    let mut filter = Condition::all().add(col(accounts::Column::SuspendedAt).is_null());
    if backend == DbBackend::Sqlite && trigram_serves(text) && search.followed_by.is_none() {
        filter = filter.add(col(accounts::Column::Id).in_subquery(sqlite_candidates(text)));
    }
    filter = filter.add(name_match(backend, table, text));
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

/// The results a search must find before its page can be cut: `offset + limit`.
fn wanted(search: &AccountSearch) -> u64 {
    search.offset.saturating_add(search.limit)
}

/// The statement that ranks every match of `search` (the fallback of the rank walk, and the
/// search with a domain or a follower): the page of ids is chosen first, by a subquery that
/// reads only the columns it filters and orders by, then only those accounts are read whole.
///
/// On SQLite the subquery reads [`SEARCH_INDEX`] (`INDEXED BY`: without statistics the planner
/// would read the table by its primary key), a fraction of the table's bytes (no notes, fields
/// or URLs), so that the accounts a piece of a name matches are ranked from a small index
/// rather than from about one table page each.
fn search_statement(backend: DbBackend, search: &AccountSearch) -> Statement {
    let offset = std::cmp::min(search.offset, i64::MAX as u64);
    let limit = std::cmp::min(search.limit, i64::MAX as u64);
    let text = search.text.as_str();
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
    if backend == DbBackend::Sqlite && search.domain.is_none() {
        // sea-query has no `INDEXED BY`: it goes after the subquery's table and alias.
        let from = format!(r#"FROM "{ACCOUNTS}" AS "{RANKED}""#);
        stmt.sql = stmt
            .sql
            .replacen(&from, &format!(r#"{from} INDEXED BY "{SEARCH_INDEX}""#), 1);
    }
    stmt
}

/// The rank walk of `search`: the ids of its first `offset + limit` matches in rank order (by
/// followers, most first, then by id; exact username matches are not put first here), looked
/// for among the first accounts of that order only ([`RANK_WINDOW`], [`PG_RANK_WINDOW`]):
/// [`RANK_INDEX`] read in order, each entry checked, stopping at the last match wanted. `None`
/// for a search the walk does not serve: with a domain or a follower (few accounts to rank:
/// the name indexes find them), deeper than [`RANK_WALK_MAX`], or on PostgreSQL longer than
/// [`PG_WALK_MAX_CHARS`].
///
/// With `probed` (SQLite, a text [`trigram_serves`]), the walk reads the common table
/// [`CANDIDATES`] first and walks only when it holds [`RANK_PROBE`] ids: the count bounds the
/// walk's range of the index, all of it (`followers_count <= i64::MAX`) or none of it
/// (`<= -1`). SQLite evaluates a range's bound once, before it seeks; a condition on no column
/// would be checked on every entry of the window instead.
///
/// Fewer ids than `offset + limit` mean that the window did not hold them all, not that there
/// are no more.
///
/// The window is a subquery ordered and limited, filtered outside. On SQLite it runs as a
/// co-routine that yields its rows in its order, and the outer query has no `ORDER BY` of its
/// own (SQLite would sort the whole window for it, so the `LIMIT` could not stop the walk
/// early). PostgreSQL keeps the subquery's order through the filter: the outer `ORDER BY` costs
/// no sort there, and is spelled out so that the order is guaranteed. The statement names no
/// index: see [`walking_rank_index`].
fn rank_walk(backend: DbBackend, search: &AccountSearch, probed: bool) -> Option<SelectStatement> {
    let wanted = wanted(search);
    if search.domain.is_some()
        || search.followed_by.is_some()
        || wanted > RANK_WALK_MAX
        || (backend != DbBackend::Sqlite && search.text.chars().count() > PG_WALK_MAX_CHARS)
    {
        return None;
    }
    let mut window = Query::select();
    window
        .columns([
            accounts::Column::Id,
            accounts::Column::FollowersCount,
            accounts::Column::SuspendedAt,
            accounts::Column::UsernameLower,
            accounts::Column::DisplayName,
        ])
        .from(accounts::Entity)
        .order_by(accounts::Column::FollowersCount, Order::Desc)
        .order_by(accounts::Column::Id, Order::Asc)
        .limit(match backend {
            DbBackend::Sqlite => RANK_WINDOW,
            _ => PG_RANK_WINDOW,
        });
    if probed {
        let enough = Expr::case(Expr::cust("COUNT(*)").gte(RANK_PROBE), i64::MAX).finally(-1);
        let bound = Query::select().expr(enough).from(CANDIDATES).to_owned();
        window.and_where(
            Expr::col(accounts::Column::FollowersCount)
                .lte(Expr::SubQuery(None, Box::new(bound.into()))),
        );
    }
    let mut walk = Query::select();
    walk.column((RANKED, accounts::Column::Id))
        .from_subquery(window, RANKED)
        .cond_where(
            Condition::all()
                .add(Expr::col((RANKED, accounts::Column::SuspendedAt)).is_null())
                .add(name_match(backend, RANKED, &search.text)),
        )
        .limit(wanted);
    if backend != DbBackend::Sqlite {
        walk.order_by((RANKED, accounts::Column::FollowersCount), Order::Desc)
            .order_by((RANKED, accounts::Column::Id), Order::Asc);
    }
    Some(walk)
}

/// SQLite: the first `offset + limit` matches of `search` in its whole order, ranked from
/// [`CANDIDATES`] (read from [`SEARCH_INDEX`], as [`search_statement`] ranks) when it holds
/// fewer than [`RANK_PROBE`] ids, that is all of the candidates; none otherwise (the walk's
/// turn). The list of candidates to rank is read, and emptied, before any is looked up.
fn chosen_among_candidates(search: &AccountSearch) -> SelectStatement {
    let few = Query::select()
        .expr(Expr::cust("COUNT(*)"))
        .from(CANDIDATES)
        .to_owned();
    let candidates = Query::select()
        .column((CANDIDATES, accounts::Column::Id))
        .from(CANDIDATES)
        .and_where(Expr::SubQuery(None, Box::new(few.into())).lt(RANK_PROBE))
        .to_owned();
    let mut chosen = Query::select();
    chosen
        .column((RANKED, accounts::Column::Id))
        .from_as(accounts::Entity, RANKED)
        .cond_where(
            Condition::all()
                .add(Expr::col((RANKED, accounts::Column::Id)).in_subquery(candidates))
                .add(Expr::col((RANKED, accounts::Column::SuspendedAt)).is_null())
                .add(name_match(DbBackend::Sqlite, RANKED, &search.text)),
        );
    for (expr, order) in search_order(RANKED, &search.text) {
        chosen.order_by_expr(expr, order);
    }
    chosen.limit(wanted(search));
    chosen
}

/// `stmt` (with the rank walk's window in it) built for `backend`, on SQLite with the indexes
/// named by `INDEXED BY` (sea-query has none), so that they are read whatever the statistics
/// say: [`RANK_INDEX`] for the window, [`SEARCH_INDEX`] for [`chosen_among_candidates`].
fn walking_rank_index(backend: DbBackend, stmt: &impl StatementBuilder) -> Statement {
    let mut stmt = backend.build(stmt);
    if backend == DbBackend::Sqlite {
        // The window's `FROM`: the only `accounts` followed by its `ORDER BY`, or by the
        // probe's bound; the candidates' ranking: the only `accounts` named `ranked`.
        let (table, ranked) = (
            format!(r#""{ACCOUNTS}""#),
            format!(r#""{ACCOUNTS}" AS "{RANKED}""#),
        );
        let uses = [
            (format!("FROM {table} ORDER BY"), &table, RANK_INDEX),
            (
                format!(r#"FROM {table} WHERE "followers_count" <="#),
                &table,
                RANK_INDEX,
            ),
            (format!("FROM {ranked} WHERE"), &ranked, SEARCH_INDEX),
        ];
        for (from, name, index) in uses {
            let indexed =
                from.replacen(name.as_str(), &format!(r#"{name} INDEXED BY "{index}""#), 1);
            stmt.sql = stmt.sql.replacen(&from, &indexed, 1);
        }
    }
    stmt
}

/// The page of `search` in one statement when the rank walk serves it: the walk's ids
/// ([`rank_walk`], as the common table [`WALKED`]) and the exact username matches (which lead,
/// found by `ux_accounts_username`), read whole, ranked by [`search_order`] and cut to the
/// page; each row tells how many ids the walk found ([`WALKED_COUNT`]). When it found
/// `offset + limit`, the first `offset + limit` results of the whole order are among these
/// accounts: the exact matches, then the first of the others in rank order, which the walk
/// found. `None` when the walk does not serve `search`.
///
/// On SQLite, for a text [`trigram_serves`], the statement first gathers the first
/// [`RANK_PROBE`] candidates ([`CANDIDATES`]; each row tells how many: [`CANDIDATE_COUNT`]):
/// with fewer, it ranks them ([`chosen_among_candidates`]; the walk does not walk) and the page
/// is whole whatever the walk found; with that many, it walks.
fn walked_page_statement(backend: DbBackend, search: &AccountSearch) -> Option<Statement> {
    let probed = backend == DbBackend::Sqlite && trigram_serves(&search.text);
    let walk = rank_walk(backend, search, probed)?;
    let offset = std::cmp::min(search.offset, i64::MAX as u64);
    let limit = std::cmp::min(search.limit, i64::MAX as u64);
    let text = search.text.as_str();
    // Each table is read more than once (its ids, their count): `MATERIALIZED`, so that it is
    // made once (SQLite would otherwise make it again for each).
    let table = |name: &'static str, query: SelectStatement| {
        CommonTableExpression::new()
            .query(query)
            .table_name(name)
            .materialized(true)
            .to_owned()
    };
    let count = |name: &'static str| {
        Expr::SubQuery(
            None,
            Box::new(
                Query::select()
                    .expr(Expr::cust("COUNT(*)"))
                    .from(name)
                    .to_owned()
                    .into(),
            ),
        )
    };
    let ids_of = |name: &'static str| {
        Query::select()
            .column((name, accounts::Column::Id))
            .from(name)
            .to_owned()
    };
    let mut with = WithClause::new();
    let mut ids = ids_of(WALKED);
    let mut page = Query::select();
    page.expr(Expr::cust(format!(r#""{ACCOUNTS}".*"#)))
        .expr_as(count(WALKED), WALKED_COUNT);
    if probed {
        let candidates = sqlite_candidates(text).limit(RANK_PROBE).to_owned();
        with.cte(table(CANDIDATES, candidates));
        with.cte(table(CHOSEN, chosen_among_candidates(search)));
        ids.union(UnionType::All, ids_of(CHOSEN));
        page.expr_as(count(CANDIDATES), CANDIDATE_COUNT);
    }
    with.cte(table(WALKED, walk));
    // Unqualified columns: those of this subquery's own `accounts`.
    let exact = Query::select()
        .column(accounts::Column::Id)
        .from(accounts::Entity)
        .and_where(accounts::Column::UsernameLower.eq(text))
        .and_where(accounts::Column::SuspendedAt.is_null())
        .to_owned();
    // One list of ids (an `OR` of conditions would make PostgreSQL read every account).
    ids.union(UnionType::All, exact);
    page.from(accounts::Entity)
        .and_where(Expr::col((ACCOUNTS, accounts::Column::Id)).in_subquery(ids));
    for (expr, order) in search_order(ACCOUNTS, text) {
        page.order_by_expr(expr, order);
    }
    page.offset(offset).limit(limit);
    Some(walking_rank_index(backend, &page.with(with)))
}

/// What [`walked_page_statement`] read: the page's rows, how many ids the walk found, and on
/// SQLite (a text [`trigram_serves`]) how many candidates it counted; the counts are `None`
/// without rows.
struct WalkedRows {
    rows: Vec<accounts::Model>,
    walked: Option<u64>,
    candidates: Option<u64>,
}

impl WalkedRows {
    /// Whether the rows are the page of `search`: ranked among all of the candidates, or
    /// walked to its last result.
    fn whole(&self, search: &AccountSearch) -> bool {
        self.candidates.is_some_and(|n| n < RANK_PROBE)
            || self.walked.is_some_and(|n| n >= wanted(search))
    }
}

impl SeaStore {
    /// The accounts `stmt` selects, as records.
    async fn account_records(&self, stmt: Statement) -> StoreResult<Vec<AccountRecord>> {
        let rows = accounts::Entity::find()
            .from_raw_sql(stmt)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        records(rows)
    }

    /// What [`walked_page_statement`] reads for `search`, or `None` when the walk does not serve
    /// it.
    async fn walked_rows(&self, search: &AccountSearch) -> StoreResult<Option<WalkedRows>> {
        let Some(stmt) = walked_page_statement(self.db.get_database_backend(), search) else {
            return Ok(None);
        };
        let rows = self.db.query_all_raw(stmt).await.map_err(backend_err)?;
        let count = |column: &str| -> StoreResult<Option<u64>> {
            match rows.first() {
                Some(row) => {
                    let n = row
                        .try_get::<Option<i64>>("", column)
                        .map_err(backend_err)?;
                    Ok(n.map(|n| u64::try_from(n).unwrap_or(0)))
                }
                None => Ok(None),
            }
        };
        let walked = count(WALKED_COUNT)?;
        let probed =
            self.db.get_database_backend() == DbBackend::Sqlite && trigram_serves(&search.text);
        let candidates = if probed {
            count(CANDIDATE_COUNT)?
        } else {
            None
        };
        let rows = rows
            .iter()
            .map(|row| accounts::Model::from_query_result(row, "").map_err(backend_err))
            .collect::<StoreResult<Vec<_>>>()?;
        Ok(Some(WalkedRows {
            rows,
            walked,
            candidates,
        }))
    }

    /// The page of `search` by [`walked_page_statement`], or `None` when the walk does not
    /// serve the search or the statement did not find all of the page's results.
    async fn walked_page(&self, search: &AccountSearch) -> StoreResult<Option<Vec<AccountRecord>>> {
        match self.walked_rows(search).await? {
            Some(walked) if walked.whole(search) => records(walked.rows).map(Some),
            _ => Ok(None),
        }
    }
}

#[async_trait]
impl DirectoryStore for SeaStore {
    /// The rank walk first ([`walked_page_statement`]): when it finds the page's matches within
    /// its window, they make the page; otherwise (or when it does not serve the search) every
    /// match is ranked ([`search_statement`]).
    async fn search_accounts(&self, search: &AccountSearch) -> StoreResult<Vec<AccountRecord>> {
        if search.limit == 0 {
            return Ok(vec![]);
        }
        if let Some(page) = self.walked_page(search).await? {
            return Ok(page);
        }
        let backend = self.db.get_database_backend();
        self.account_records(search_statement(backend, search))
            .await
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
    use super::{
        RANK_PROBE, escape_like, prefix_upper_bound, search_statement, trigram_phrase,
        trigram_serves, walked_page_statement,
    };
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
        plan_of(store, search_statement(DbBackend::Sqlite, search)).await
    }

    /// The `detail` lines of SQLite's plan for `stmt`.
    async fn plan_of(store: &SeaStore, stmt: Statement) -> Vec<String> {
        plan_tree(store, stmt)
            .await
            .into_iter()
            .map(|(_, _, detail)| detail)
            .collect()
    }

    /// SQLite's plan for `stmt` as `(id, parent, detail)` rows.
    async fn plan_tree(store: &SeaStore, stmt: Statement) -> Vec<(i64, i64, String)> {
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
            .map(|r| {
                (
                    r.try_get::<i64>("", "id").expect("id"),
                    r.try_get::<i64>("", "parent").expect("parent"),
                    r.try_get::<String>("", "detail").expect("detail"),
                )
            })
            .collect()
    }

    /// The details of the plan rows under the first whose detail starts with `head`.
    fn subtree(plan: &[(i64, i64, String)], head: &str) -> Vec<String> {
        let Some(root) = plan.iter().find(|(_, _, d)| d.starts_with(head)) else {
            return vec![];
        };
        let mut ids = vec![root.0];
        let mut out = vec![];
        for (id, parent, detail) in plan {
            if ids.contains(parent) {
                ids.push(*id);
                out.push(detail.clone());
            }
        }
        out
    }

    /// On SQLite a search of three characters or more reads the trigram index and the username
    /// index, then ranks the ids found from the covering index and reads `accounts` by id only,
    /// with or without a domain; a shorter one ranks every account from the covering index. A
    /// search among the accounts one follows reads them from `follows` instead (by follower),
    /// checking each in the covering index.
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
        let followed = plan(
            &store,
            &AccountSearch {
                followed_by: Some(Id::from_i64(7)),
                ..search("alice")
            },
        )
        .await;
        let text = followed.join("\n");
        assert!(
            !followed.iter().any(|l| l.contains("accounts_fts")),
            "{text}"
        );
        assert!(
            followed
                .iter()
                .any(|l| l.starts_with("SEARCH follows USING COVERING INDEX")
                    && l.ends_with("(follower_id=?)")),
            "does not read the follows by follower:\n{text}"
        );
        assert!(
            followed
                .iter()
                .any(|l| l
                    .starts_with("SEARCH ranked USING COVERING INDEX ix_accounts_search (id=?")),
            "does not check them in the covering index:\n{text}"
        );
        assert!(
            !followed.iter().any(|l| l.starts_with("SCAN ")),
            "reads every account:\n{text}"
        );
        let plan = plan(&store, &search("al")).await;
        assert!(!plan.iter().any(|l| l.contains("accounts_fts")), "{plan:?}");
        assert!(
            plan.iter()
                .any(|l| l == "SCAN ranked USING COVERING INDEX ix_accounts_search"),
            "{plan:?}"
        );
    }

    /// The page by the rank walk (SQLite): the walk reads `ix_accounts_search_rank` alone, in
    /// order, as a co-routine the filter reads from with nothing to sort (so its `LIMIT` ends
    /// the walk), once; the page reads the accounts by id and the exact matches by
    /// `ux_accounts_username`. For a text of three characters or more, the candidates are
    /// gathered first (username range and trigram index, once), bound the walk's range, and are
    /// ranked from `ix_accounts_search` when few. No domain, no follower, no page past the
    /// walk's depth.
    #[tokio::test]
    async fn sqlite_rank_walk_reads_the_rank_index_in_order() {
        let store = sqlite().await;
        for text in ["al", "ali", "100% \"c\""] {
            let s = search(text);
            let stmt = walked_page_statement(DbBackend::Sqlite, &s).expect("walked");
            let tree = plan_tree(&store, stmt).await;
            let plan: Vec<String> = tree.iter().map(|(_, _, d)| d.clone()).collect();
            let text = plan.join("\n");
            let walk = subtree(&tree, "MATERIALIZE walked");
            assert!(
                walk.iter().any(|l| l.starts_with("CO-ROUTINE ranked")),
                "{s:?}: no co-routine in\n{text}"
            );
            let probed = trigram_serves(&s.text);
            let window = if probed {
                "SEARCH accounts USING COVERING INDEX ix_accounts_search_rank (followers_count<?)"
            } else {
                "SCAN accounts USING COVERING INDEX ix_accounts_search_rank"
            };
            assert!(
                walk.iter().any(|l| l == window),
                "{s:?}: does not walk the rank index ({window}) in\n{text}"
            );
            assert!(
                !walk.iter().any(|l| l.contains("TEMP B-TREE")),
                "{s:?}: sorts the walk in\n{text}"
            );
            assert_eq!(
                plan.iter()
                    .filter(|l| l.contains("ix_accounts_search_rank"))
                    .count(),
                1,
                "{s:?}: walks more than once:\n{text}"
            );
            assert!(
                plan.iter()
                    .any(|l| l.contains("INDEX ux_accounts_username (username_lower=?")),
                "{s:?}: exact matches not by the username index in\n{text}"
            );
            assert!(
                plan.iter()
                    .any(|l| l.starts_with("SEARCH accounts USING INTEGER PRIMARY KEY (rowid=?)")),
                "{s:?}: the accounts are not read by id in\n{text}"
            );
            assert_eq!(
                plan.iter().any(|l| l == "MATERIALIZE candidates"),
                probed,
                "{s:?}: candidates gathered for a text of three characters or more only:\n{text}"
            );
            if probed {
                let fts = plan
                    .iter()
                    .filter(|l| l.starts_with("SCAN accounts_fts VIRTUAL TABLE INDEX 0:M"));
                assert_eq!(fts.count(), 1, "{s:?}: the trigram index once in\n{text}");
                assert!(
                    plan.iter().any(|l| l.contains(
                        "INDEX ux_accounts_username (username_lower>? AND username_lower<?)"
                    )),
                    "{s:?}: no username range in\n{text}"
                );
                assert!(
                    subtree(&tree, "MATERIALIZE chosen")
                        .iter()
                        .any(|l| l.starts_with(
                            "SEARCH ranked USING COVERING INDEX ix_accounts_search (id=?"
                        )),
                    "{s:?}: the candidates are not ranked from the covering index:\n{text}"
                );
            }
            assert!(
                !plan.iter().any(|l| l.starts_with("SCAN ")
                    && !l
                        .starts_with("SCAN accounts USING COVERING INDEX ix_accounts_search_rank")
                    && !l.starts_with("SCAN accounts_fts VIRTUAL TABLE INDEX 0:M")
                    && ![
                        "SCAN walked",
                        "SCAN ranked",
                        "SCAN chosen",
                        "SCAN candidates"
                    ]
                    .contains(&l.as_str())),
                "{s:?}: the page reads every account:\n{text}"
            );
        }
        let not_walked = [
            AccountSearch {
                domain: Some("remote.example".into()),
                ..search("alice")
            },
            AccountSearch {
                followed_by: Some(Id::from_i64(7)),
                ..search("alice")
            },
            AccountSearch {
                offset: 480,
                ..search("alice")
            },
        ];
        for s in not_walked {
            assert!(
                walked_page_statement(DbBackend::Sqlite, &s).is_none(),
                "{s:?}"
            );
        }
    }

    /// What the walked page holds is what ranking every match gives: exact matches (several
    /// domains) first, then by followers (with ties) and id, suspended accounts left out,
    /// usernames by prefix and display names by a part (ASCII case ignored), any offset. The
    /// walk answers the searches with many candidates (it finds enough in its window), the
    /// candidates ranked answer those of three characters or more with fewer than `RANK_PROBE`
    /// candidates, and the full ranking answers the others.
    #[tokio::test]
    async fn sqlite_rank_walk_pages_match_the_full_ranking() {
        let store = sqlite().await;
        let now = chrono::Utc::now();
        let mut n = 0i64;
        let mut add = |username: String, domain: Option<&str>, display_name: &str| {
            n += 1;
            let mut a = AccountRecord::new_local(Id::from_i64(n), &username, now);
            a.domain = domain.map(str::to_string);
            a.display_name = display_name.to_string();
            a.followers_count = (n * 7) % 11;
            if n % 10 == 0 {
                a.suspended_at = Some(now);
            }
            a
        };
        let mut all = Vec::new();
        for i in 0..150 {
            all.push(match i % 3 {
                0 => add(format!("ab{i}"), None, ""),
                1 => add(
                    format!("x{i}"),
                    Some("remote.example"),
                    &format!("Crab {i}"),
                ),
                _ => add(format!("zz{i}"), None, "NOTHING AB Äbc"),
            });
        }
        for domain in [None, Some("one.example"), Some("two.example")] {
            all.push(add("Ab".into(), domain, ""));
        }
        // Enough candidates for "rab" and "nothing ab" to be walked.
        for i in 0..RANK_PROBE {
            all.push(add(
                format!("fill{i}"),
                Some("filler.example"),
                "Crab nothing Ab",
            ));
        }
        for a in &all {
            store.insert_remote_account(a).await.expect("insert");
        }
        let cases = [
            ("ab", 0, 40, "walk"),
            ("ab", 25, 30, "walk"),
            ("ab", 0, 1, "walk"),
            ("rab", 0, 20, "walk"),
            ("rab", 10, 20, "walk"),
            ("nothing ab", 3, 7, "walk"),
            ("ab1", 0, 5, "candidates"),
            ("ab12", 0, 40, "candidates"),
            ("zz1", 2, 3, "candidates"),
            // No match: no row to tell, the full ranking answers.
            ("äbc", 0, 5, "full"),
        ];
        for (text, offset, limit, path) in cases {
            let s = AccountSearch {
                offset,
                limit,
                ..search(text)
            };
            let walked = store.walked_rows(&s).await.expect("walk").expect("served");
            let took = match (walked.whole(&s), walked.candidates) {
                (false, _) => "full",
                (true, Some(n)) if n < RANK_PROBE => "candidates",
                (true, _) => "walk",
            };
            assert_eq!(took, path, "{s:?}");
            let ids = |found: Vec<AccountRecord>| {
                found.into_iter().map(|a| a.id.as_i64()).collect::<Vec<_>>()
            };
            let searched = ids(store.search_accounts(&s).await.expect("search"));
            let ranked = ids(store
                .account_records(search_statement(DbBackend::Sqlite, &s))
                .await
                .expect("ranked"));
            assert_eq!(searched, ranked, "{s:?}");
        }
        // The exact match ab12 first, then ab123, ab126 and ab120 by followers; ab129 is
        // suspended.
        let found: Vec<String> = store
            .search_accounts(&search("ab12"))
            .await
            .expect("search")
            .into_iter()
            .map(|a| a.username)
            .collect();
        assert_eq!(found, ["ab12", "ab123", "ab126", "ab120"]);
        // Full pages, where there are enough matches.
        for (text, limit) in [("ab", 40), ("rab", 20), ("zz1", 3)] {
            assert_eq!(
                store
                    .search_accounts(&AccountSearch {
                        limit,
                        ..search(text)
                    })
                    .await
                    .expect("search")
                    .len() as u64,
                limit,
                "{text}"
            );
        }
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
