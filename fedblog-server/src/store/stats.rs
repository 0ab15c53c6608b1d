//! `StatsStore` for `SeaStore`: counts for the instance endpoints, and the rows the admin
//! dashboard's figures are made of (`services/metrics.rs` buckets and totals them): the days
//! accounts were active (`user_activity_days`), the events of each measure, the groups of each
//! dimension, sign-ups with their last active day, and what the storage holds. The queries are
//! portable, times compared as values, never truncated in SQL; only `storage_usage` asks each
//! engine in its own words (`sqlite_version()` and the page count, `server_version` and
//! `pg_database_size`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use async_trait::async_trait;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use fedblog_core::store::{
    DimensionKind, DomainScope, MeasureEvent, MeasureKind, SIGN_UP_TOKEN_WINDOW_SECS, SignUpRecord,
    StatsStore, StorageUsage, WeekActivity, first_day_from, midnight,
};
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{
    Alias, Asterisk, Condition, Expr, ExprTrait, Func, JoinType, OnConflict, Order, Query,
    SelectStatement,
};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, PaginatorTrait, QueryFilter, QueryResult,
    QuerySelect, Statement,
};

use super::directory::{escape_like, like};
use super::entity::{
    accounts, apps, favourites, follows, media_attachments, reports, status_tags, statuses, tokens,
    user_activity_days, users,
};
use super::{IN_CHUNK, SeaStore, backend_err};

#[async_trait]
impl StatsStore for SeaStore {
    fn keeps_dashboard_data(&self) -> bool {
        true
    }

    async fn count_local_accounts(&self) -> StoreResult<i64> {
        let n = accounts::Entity::find()
            .filter(accounts::Column::Domain.is_null())
            .filter(accounts::Column::SuspendedAt.is_null())
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(n as i64)
    }

    async fn count_active_local_accounts(&self, since: DateTime<Utc>) -> StoreResult<i64> {
        let n: Option<i64> = statuses::Entity::find()
            .select_only()
            .expr(Func::count_distinct(Expr::col(statuses::Column::AccountId)))
            .filter(statuses::Column::Local.eq(true))
            .filter(statuses::Column::CreatedAt.gte(since))
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(n.unwrap_or(0))
    }

    async fn count_local_statuses(&self) -> StoreResult<i64> {
        let n = statuses::Entity::find()
            .filter(statuses::Column::Local.eq(true))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(n as i64)
    }

    async fn known_domains(&self) -> StoreResult<Vec<String>> {
        let domains: Vec<String> = accounts::Entity::find()
            .select_only()
            .column(accounts::Column::Domain)
            .distinct()
            .filter(accounts::Column::Domain.is_not_null())
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        // Folded and sorted here, not in SQL: the same Unicode lower-casing and byte order as the
        // memory store on both engines.
        let set: BTreeSet<String> = domains.into_iter().map(|d| d.to_lowercase()).collect();
        Ok(set.into_iter().collect())
    }

    async fn activity_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<WeekActivity> {
        let statuses = statuses::Entity::find()
            .filter(statuses::Column::Local.eq(true))
            .filter(statuses::Column::CreatedAt.gte(from))
            .filter(statuses::Column::CreatedAt.lt(to))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        let logins = tokens::Entity::find()
            .filter(tokens::Column::AccountId.is_not_null())
            .filter(tokens::Column::CreatedAt.gte(from))
            .filter(tokens::Column::CreatedAt.lt(to))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        let registrations = users::Entity::find()
            .filter(users::Column::CreatedAt.gte(from))
            .filter(users::Column::CreatedAt.lt(to))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(WeekActivity {
            statuses: statuses as i64,
            logins: logins as i64,
            registrations: registrations as i64,
        })
    }

    async fn record_active_day(&self, account: Id, day: NaiveDate) -> StoreResult<()> {
        user_activity_days::Entity::insert(user_activity_days::ActiveModel {
            account_id: Set(account.as_i64()),
            day: Set(day),
        })
        .on_conflict(
            OnConflict::columns([
                user_activity_days::Column::AccountId,
                user_activity_days::Column::Day,
            ])
            .do_nothing()
            .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn measure_events(
        &self,
        kind: &MeasureKind,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<MeasureEvent>> {
        let mut out = vec![];
        for source in sources(kind) {
            let mut q = source.query.clone();
            q.expr(source.at.column())
                .expr(source.subject.clone())
                .expr(source.amount.clone().unwrap_or_else(|| Expr::val(1i64)))
                .cond_where(source.at.within(from, to));
            for row in self.db.query_all(&q).await.map_err(backend_err)? {
                out.push(MeasureEvent {
                    at: source.at.read(&row)?,
                    subject: if source.text_subject {
                        row.try_get_by_index::<String>(1).map_err(backend_err)?
                    } else {
                        row.try_get_by_index::<i64>(1)
                            .map_err(backend_err)?
                            .to_string()
                    },
                    amount: row.try_get_by_index::<i64>(2).map_err(backend_err)?,
                });
            }
        }
        Ok(out)
    }

    async fn measure_total(&self, kind: &MeasureKind) -> StoreResult<i64> {
        let mut total = 0;
        for source in sources(kind) {
            let mut q = source.query.clone();
            match source.amount {
                None => q.expr(Func::count(Expr::col(Asterisk))),
                // A sum of integers is a `numeric` on PostgreSQL: cast back.
                Some(amount) => q.expr(Func::cast_as(
                    Func::coalesce([Func::sum(amount).into(), Expr::val(0i64)]),
                    Alias::new("BIGINT"),
                )),
            };
            if let Some(row) = self.db.query_one(&q).await.map_err(backend_err)? {
                total += row.try_get_by_index::<i64>(0).map_err(backend_err)?;
            }
        }
        Ok(total)
    }

    async fn dimension_counts(
        &self,
        kind: &DimensionKind,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: u64,
    ) -> StoreResult<Vec<(Option<String>, i64)>> {
        let q = match kind {
            DimensionKind::Sources => return self.sign_up_sources(from, to, limit).await,
            DimensionKind::InstanceAccounts(scope) => instance_accounts_grouping(scope, limit),
            _ => {
                let (mut q, key) = grouping(kind, from, to);
                let count = || Func::count(Expr::col(Asterisk));
                q.expr(key.clone())
                    .expr(count())
                    .add_group_by([key.clone()])
                    .order_by_expr(count().into(), Order::Desc)
                    .order_by_expr(key, Order::Asc)
                    .limit(limit);
                q
            }
        };
        let rows = self.db.query_all(&q).await.map_err(backend_err)?;
        let folded_domains = matches!(
            kind,
            DimensionKind::Servers | DimensionKind::TagServers { .. }
        );
        rows.iter()
            .map(|r| {
                let key = r
                    .try_get_by_index::<Option<String>>(0)
                    .map_err(backend_err)?;
                // `domain_key` is `''` for a local account.
                let key = key.filter(|k| !(folded_domains && k.is_empty()));
                Ok((key, r.try_get_by_index::<i64>(1).map_err(backend_err)?))
            })
            .collect()
    }

    async fn signups_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<SignUpRecord>> {
        let made = self.logins_made_between(from, to).await?;
        let mut last: HashMap<i64, NaiveDate> = HashMap::new();
        for chunk in made.chunks(IN_CHUNK) {
            let days: Vec<(i64, NaiveDate)> = user_activity_days::Entity::find()
                .select_only()
                .column(user_activity_days::Column::AccountId)
                .column_as(user_activity_days::Column::Day.max(), "day")
                .filter(
                    user_activity_days::Column::AccountId.is_in(chunk.iter().map(|(id, _)| *id)),
                )
                .group_by(user_activity_days::Column::AccountId)
                .into_tuple()
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            last.extend(days);
        }
        Ok(made
            .into_iter()
            .map(|(account, created_at)| SignUpRecord {
                created_at,
                last_active: last.get(&account).copied(),
            })
            .collect())
    }

    async fn storage_usage(&self) -> StoreResult<StorageUsage> {
        let backend = self.db.get_database_backend();
        let (engine, engine_name, sql) = match backend {
            DbBackend::Postgres => (
                "postgresql",
                "PostgreSQL",
                "SELECT current_setting('server_version') AS version, \
                 pg_database_size(current_database()) AS bytes",
            ),
            _ => (
                "sqlite",
                "SQLite",
                "SELECT sqlite_version() AS version, \
                 (SELECT page_count FROM pragma_page_count()) \
                 * (SELECT page_size FROM pragma_page_size()) AS bytes",
            ),
        };
        let row = self
            .db
            .query_one_raw(Statement::from_string(backend, sql))
            .await
            .map_err(backend_err)?;
        let (version, bytes) = match row {
            Some(r) => (
                r.try_get::<String>("", "version").map_err(backend_err)?,
                r.try_get::<i64>("", "bytes").map_err(backend_err)?,
            ),
            None => (String::new(), 0),
        };
        // `16.2 (Debian 16.2-1.pgdg120+2)`: the number only.
        let version = version.split_whitespace().next().unwrap_or("").to_string();
        let mut media = Query::select();
        media.expr(Func::cast_as(
            Func::coalesce([
                Func::sum(Expr::col(media_attachments::Column::FileSize)).into(),
                Expr::val(0i64),
            ]),
            Alias::new("BIGINT"),
        ));
        media.from(media_attachments::Entity);
        let media_bytes = match self.db.query_one(&media).await.map_err(backend_err)? {
            Some(r) => r.try_get_by_index::<i64>(0).map_err(backend_err)?,
            None => 0,
        };
        Ok(StorageUsage {
            engine: engine.into(),
            engine_name: engine_name.into(),
            engine_version: version,
            database_bytes: Some(bytes),
            media_bytes: Some(media_bytes),
        })
    }
}

impl SeaStore {
    /// `(account id, created at)` of each login made in `[from, to)`.
    async fn logins_made_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<(i64, DateTime<Utc>)>> {
        users::Entity::find()
            .select_only()
            .column(users::Column::AccountId)
            .column(users::Column::CreatedAt)
            .filter(users::Column::CreatedAt.gte(from))
            .filter(users::Column::CreatedAt.lt(to))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)
    }

    /// [`DimensionKind::Sources`]: the application of each login made in `[from, to)`, from the
    /// first token issued to its account within [`SIGN_UP_TOKEN_WINDOW_SECS`] of its creation.
    async fn sign_up_sources(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: u64,
    ) -> StoreResult<Vec<(Option<String>, i64)>> {
        let made = self.logins_made_between(from, to).await?;
        let window = Duration::seconds(SIGN_UP_TOKEN_WINDOW_SECS);
        let created: HashMap<i64, DateTime<Utc>> = made.iter().copied().collect();
        // account -> (issued at, token id, app id) of its first token in the window
        let mut first: HashMap<i64, (DateTime<Utc>, i64, i64)> = HashMap::new();
        for chunk in made.chunks(IN_CHUNK) {
            let issued: Vec<(Option<i64>, i64, i64, DateTime<Utc>)> = tokens::Entity::find()
                .select_only()
                .column(tokens::Column::AccountId)
                .column(tokens::Column::Id)
                .column(tokens::Column::AppId)
                .column(tokens::Column::CreatedAt)
                .filter(tokens::Column::AccountId.is_in(chunk.iter().map(|(id, _)| *id)))
                .filter(tokens::Column::CreatedAt.lt(to + window))
                .into_tuple()
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            for (account, id, app, at) in issued {
                let Some(account) = account else { continue };
                let Some(made_at) = created.get(&account) else {
                    continue;
                };
                if at < *made_at || at > *made_at + window {
                    continue;
                }
                let candidate = (at, id, app);
                first
                    .entry(account)
                    .and_modify(|best| {
                        if (candidate.0, candidate.1) < (best.0, best.1) {
                            *best = candidate;
                        }
                    })
                    .or_insert(candidate);
            }
        }
        let app_ids: BTreeSet<i64> = first.values().map(|(_, _, app)| *app).collect();
        let mut names: HashMap<i64, String> = HashMap::new();
        let app_ids: Vec<i64> = app_ids.into_iter().collect();
        for chunk in app_ids.chunks(IN_CHUNK) {
            let rows: Vec<(i64, String)> = apps::Entity::find()
                .select_only()
                .column(apps::Column::Id)
                .column(apps::Column::Name)
                .filter(apps::Column::Id.is_in(chunk.iter().copied()))
                .into_tuple()
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            names.extend(rows);
        }
        let mut counts: BTreeMap<Option<String>, i64> = BTreeMap::new();
        for (account, _) in &made {
            let app = first
                .get(account)
                .and_then(|(_, _, app)| names.get(app).cloned());
            *counts.entry(app).or_default() += 1;
        }
        let mut rows: Vec<(Option<String>, i64)> = counts.into_iter().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(rows)
    }
}

/// How a measure's rows are timed.
#[derive(Clone)]
enum At {
    /// By a time column.
    Time(Expr),
    /// By an id column (a snowflake: its time is in it).
    Id(Expr),
    /// By a date column (the day's midnight).
    Day(Expr),
}

impl At {
    fn column(&self) -> Expr {
        match self {
            At::Time(c) | At::Id(c) | At::Day(c) => c.clone(),
        }
    }

    /// The rows of `[from, to)` (for days: those whose midnight is in it).
    fn within(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Condition {
        let cond = Condition::all();
        match self {
            At::Time(c) => cond.add(c.clone().gte(from)).add(c.clone().lt(to)),
            At::Id(c) => {
                let id = |t: DateTime<Utc>| Id::floor_at_millis(t.timestamp_millis()).as_i64();
                cond.add(c.clone().gte(id(from))).add(c.clone().lt(id(to)))
            }
            At::Day(c) => cond
                .add(c.clone().gte(first_day_from(from)))
                .add(c.clone().lt(first_day_from(to))),
        }
    }

    /// The time of a row, from its first column.
    fn read(&self, row: &QueryResult) -> StoreResult<DateTime<Utc>> {
        Ok(match self {
            At::Time(_) => row
                .try_get_by_index::<DateTime<Utc>>(0)
                .map_err(backend_err)?,
            At::Id(_) => {
                let id = Id::from_i64(row.try_get_by_index::<i64>(0).map_err(backend_err)?);
                DateTime::from_timestamp_millis(id.millis()).unwrap_or_default()
            }
            At::Day(_) => midnight(row.try_get_by_index::<NaiveDate>(0).map_err(backend_err)?),
        })
    }
}

/// One table (with its joins and conditions) a measure's events come from.
struct Source {
    /// `FROM`, joins and conditions, without a select list.
    query: SelectStatement,
    at: At,
    /// The subject's column: an account id, or text when `text_subject`.
    subject: Expr,
    text_subject: bool,
    /// The amount's column; `None`: each row counts 1.
    amount: Option<Expr>,
}

/// A column of a table.
fn col<T: sea_orm::sea_query::IntoIden, C: sea_orm::sea_query::IntoIden>(table: T, c: C) -> Expr {
    Expr::col((table, c))
}

/// The accounts of `scope`, by their folded `domain_key`.
fn in_scope(scope: &DomainScope) -> Condition {
    let key = || col(accounts::Entity, accounts::Column::DomainKey);
    let mut any = Condition::any().add(key().eq(scope.domain.as_str()));
    if scope.include_subdomains {
        any = any.add(key().like(like(format!("%.{}", escape_like(&scope.domain)))));
    }
    any
}

/// `FROM table INNER JOIN accounts ON accounts.id = table.account_column WHERE` in `scope`.
fn joined_accounts<T, C>(table: T, account_column: C, scope: &DomainScope) -> SelectStatement
where
    T: sea_orm::sea_query::IntoIden + Copy,
    C: sea_orm::sea_query::IntoIden,
{
    Query::select()
        .from(table)
        .join(
            JoinType::InnerJoin,
            accounts::Entity,
            col(accounts::Entity, accounts::Column::Id).equals((table, account_column)),
        )
        .cond_where(in_scope(scope))
        .to_owned()
}

/// `FROM status_tags INNER JOIN statuses ...` for the tag `name`.
fn tagged(name: &str) -> SelectStatement {
    Query::select()
        .from(status_tags::Entity)
        .join(
            JoinType::InnerJoin,
            statuses::Entity,
            col(statuses::Entity, statuses::Column::Id)
                .equals((status_tags::Entity, status_tags::Column::StatusId)),
        )
        .and_where(col(status_tags::Entity, status_tags::Column::Name).eq(name))
        .to_owned()
}

/// Where the events of `kind` come from (several tables for interactions).
fn sources(kind: &MeasureKind) -> Vec<Source> {
    let source = |query: SelectStatement, at: At, subject: Expr| Source {
        query,
        at,
        subject,
        text_subject: false,
        amount: None,
    };
    let s = |c: statuses::Column| col(statuses::Entity, c);
    match kind {
        MeasureKind::ActiveUsers => vec![source(
            Query::select().from(user_activity_days::Entity).to_owned(),
            At::Day(col(
                user_activity_days::Entity,
                user_activity_days::Column::Day,
            )),
            col(
                user_activity_days::Entity,
                user_activity_days::Column::AccountId,
            ),
        )],
        MeasureKind::NewUsers => vec![source(
            Query::select().from(users::Entity).to_owned(),
            At::Time(col(users::Entity, users::Column::CreatedAt)),
            col(users::Entity, users::Column::AccountId),
        )],
        MeasureKind::Interactions => {
            // On a local status of someone else: favourites (timed by their ids), reblogs and
            // replies (by the status).
            let target = Alias::new("target");
            let t = |c: statuses::Column| col(target.clone(), c);
            let favourites = Query::select()
                .from(favourites::Entity)
                .join(
                    JoinType::InnerJoin,
                    statuses::Entity,
                    s(statuses::Column::Id)
                        .equals((favourites::Entity, favourites::Column::StatusId)),
                )
                .and_where(s(statuses::Column::Local).eq(true))
                .and_where(
                    s(statuses::Column::AccountId)
                        .ne(col(favourites::Entity, favourites::Column::AccountId)),
                )
                .to_owned();
            let on = |link: statuses::Column| {
                Query::select()
                    .from(statuses::Entity)
                    .join_as(
                        JoinType::InnerJoin,
                        statuses::Entity,
                        target.clone(),
                        t(statuses::Column::Id).equals((statuses::Entity, link)),
                    )
                    .and_where(t(statuses::Column::Local).eq(true))
                    .and_where(t(statuses::Column::AccountId).ne(s(statuses::Column::AccountId)))
                    .to_owned()
            };
            vec![
                source(
                    favourites,
                    At::Id(col(favourites::Entity, favourites::Column::Id)),
                    col(favourites::Entity, favourites::Column::AccountId),
                ),
                source(
                    on(statuses::Column::ReblogOfId),
                    At::Time(s(statuses::Column::CreatedAt)),
                    s(statuses::Column::AccountId),
                ),
                source(
                    on(statuses::Column::InReplyToId),
                    At::Time(s(statuses::Column::CreatedAt)),
                    s(statuses::Column::AccountId),
                ),
            ]
        }
        MeasureKind::OpenedReports => vec![source(
            Query::select().from(reports::Entity).to_owned(),
            At::Time(col(reports::Entity, reports::Column::CreatedAt)),
            col(reports::Entity, reports::Column::TargetAccountId),
        )],
        MeasureKind::ResolvedReports => vec![source(
            Query::select()
                .from(reports::Entity)
                .and_where(col(reports::Entity, reports::Column::ActionTakenAt).is_not_null())
                .to_owned(),
            At::Time(col(reports::Entity, reports::Column::ActionTakenAt)),
            col(reports::Entity, reports::Column::TargetAccountId),
        )],
        MeasureKind::TagStatuses { name } => vec![source(
            tagged(name),
            At::Time(s(statuses::Column::CreatedAt)),
            s(statuses::Column::AccountId),
        )],
        MeasureKind::TagServers { name } => {
            let mut q = tagged(name);
            q.join(
                JoinType::InnerJoin,
                accounts::Entity,
                col(accounts::Entity, accounts::Column::Id)
                    .equals((statuses::Entity, statuses::Column::AccountId)),
            );
            vec![Source {
                text_subject: true,
                ..source(
                    q,
                    At::Time(s(statuses::Column::CreatedAt)),
                    col(accounts::Entity, accounts::Column::DomainKey),
                )
            }]
        }
        MeasureKind::InstanceAccounts(scope) => vec![source(
            Query::select()
                .from(accounts::Entity)
                .cond_where(in_scope(scope))
                .to_owned(),
            At::Time(col(accounts::Entity, accounts::Column::CreatedAt)),
            col(accounts::Entity, accounts::Column::Id),
        )],
        MeasureKind::InstanceMediaAttachments(scope) => vec![Source {
            amount: Some(col(
                media_attachments::Entity,
                media_attachments::Column::FileSize,
            )),
            ..source(
                joined_accounts(
                    media_attachments::Entity,
                    media_attachments::Column::AccountId,
                    scope,
                ),
                At::Time(col(
                    media_attachments::Entity,
                    media_attachments::Column::CreatedAt,
                )),
                col(
                    media_attachments::Entity,
                    media_attachments::Column::AccountId,
                ),
            )
        }],
        MeasureKind::InstanceReports(scope) => vec![source(
            joined_accounts(reports::Entity, reports::Column::TargetAccountId, scope),
            At::Time(col(reports::Entity, reports::Column::CreatedAt)),
            col(reports::Entity, reports::Column::TargetAccountId),
        )],
        MeasureKind::InstanceStatuses(scope) => vec![source(
            joined_accounts(statuses::Entity, statuses::Column::AccountId, scope),
            At::Time(s(statuses::Column::CreatedAt)),
            s(statuses::Column::AccountId),
        )],
        MeasureKind::InstanceFollows(scope) => vec![source(
            joined_accounts(follows::Entity, follows::Column::TargetId, scope),
            At::Id(col(follows::Entity, follows::Column::Id)),
            col(follows::Entity, follows::Column::FollowerId),
        )],
        MeasureKind::InstanceFollowers(scope) => vec![source(
            joined_accounts(follows::Entity, follows::Column::FollowerId, scope),
            At::Id(col(follows::Entity, follows::Column::Id)),
            col(follows::Entity, follows::Column::TargetId),
        )],
    }
}

/// The rows a dimension groups (in `[from, to)`) and the column it groups them by.
fn grouping(
    kind: &DimensionKind,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> (SelectStatement, Expr) {
    let s = |c: statuses::Column| col(statuses::Entity, c);
    let created = || {
        Condition::all()
            .add(s(statuses::Column::CreatedAt).gte(from))
            .add(s(statuses::Column::CreatedAt).lt(to))
    };
    let with_authors = |q: &mut SelectStatement| {
        q.join(
            JoinType::InnerJoin,
            accounts::Entity,
            col(accounts::Entity, accounts::Column::Id)
                .equals((statuses::Entity, statuses::Column::AccountId)),
        );
    };
    let domain = col(accounts::Entity, accounts::Column::DomainKey);
    let language = s(statuses::Column::Language);
    match kind {
        DimensionKind::Languages => {
            let active = Query::select()
                .column(user_activity_days::Column::AccountId)
                .from(user_activity_days::Entity)
                .and_where(Expr::col(user_activity_days::Column::Day).gte(first_day_from(from)))
                .and_where(Expr::col(user_activity_days::Column::Day).lt(first_day_from(to)))
                .to_owned();
            (
                Query::select()
                    .from(users::Entity)
                    .and_where(col(users::Entity, users::Column::AccountId).in_subquery(active))
                    .to_owned(),
                col(users::Entity, users::Column::Locale),
            )
        }
        DimensionKind::Servers => {
            let mut q = Query::select()
                .from(statuses::Entity)
                .cond_where(created())
                .to_owned();
            with_authors(&mut q);
            (q, domain)
        }
        DimensionKind::TagServers { name } => {
            let mut q = tagged(name).cond_where(created()).to_owned();
            with_authors(&mut q);
            (q, domain)
        }
        DimensionKind::TagLanguages { name } => {
            (tagged(name).cond_where(created()).to_owned(), language)
        }
        DimensionKind::InstanceLanguages(scope) => (
            joined_accounts(statuses::Entity, statuses::Column::AccountId, scope)
                .cond_where(created())
                .and_where(s(statuses::Column::ReblogOfId).is_null())
                .to_owned(),
            language,
        ),
        // Written apart (`instance_accounts_grouping`, `sign_up_sources`): no rows here.
        DimensionKind::InstanceAccounts(_) | DimensionKind::Sources => (
            Query::select()
                .from(users::Entity)
                .and_where(Expr::val(false))
                .to_owned(),
            col(users::Entity, users::Column::Locale),
        ),
    }
}

/// [`DimensionKind::InstanceAccounts`]: each account of the server with the follows of it
/// stored here, biggest first.
fn instance_accounts_grouping(scope: &DomainScope, limit: u64) -> SelectStatement {
    let follows_of = Func::count(col(follows::Entity, follows::Column::FollowerId));
    Query::select()
        .expr(col(accounts::Entity, accounts::Column::Username))
        .expr(follows_of.clone())
        .from(accounts::Entity)
        .join(
            JoinType::LeftJoin,
            follows::Entity,
            col(follows::Entity, follows::Column::TargetId)
                .equals((accounts::Entity, accounts::Column::Id)),
        )
        .cond_where(in_scope(scope))
        .group_by_columns([
            (accounts::Entity, accounts::Column::Id),
            (accounts::Entity, accounts::Column::Username),
        ])
        .order_by_expr(follows_of.into(), Order::Desc)
        .order_by_expr(
            col(accounts::Entity, accounts::Column::Username),
            Order::Asc,
        )
        .limit(limit)
        .to_owned()
}
