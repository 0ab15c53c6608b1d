//! `StatusStore` for `SeaStore`: statuses with their ordered mentions and tags, and the public timeline.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountStatusesFilter, PublicTimelineFilter, StatusRecord, StatusStore, Visibility,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use super::accounts::parse_visibility;
use super::entity::{accounts, home_feed, status_mentions, status_tags, statuses};
use super::{IN_CHUNK, SeaStore, backend_err, finish, paging};

fn status_row(s: &StatusRecord) -> statuses::ActiveModel {
    statuses::ActiveModel {
        id: Set(s.id.as_i64()),
        account_id: Set(s.account_id.as_i64()),
        uri: Set(s.uri.clone()),
        text: Set(s.text.clone()),
        content: Set(s.content.clone()),
        spoiler_text: Set(s.spoiler_text.clone()),
        visibility: Set(s.visibility.as_str().to_string()),
        sensitive: Set(s.sensitive),
        language: Set(s.language.clone()),
        in_reply_to_id: Set(s.in_reply_to_id.map(Id::as_i64)),
        in_reply_to_account_id: Set(s.in_reply_to_account_id.map(Id::as_i64)),
        application_id: Set(s.application_id.map(Id::as_i64)),
        has_media: Set(s.has_media),
        idempotency_key: Set(s.idempotency_key.clone()),
        local: Set(s.local),
        created_at: Set(s.created_at),
        edited_at: Set(s.edited_at),
    }
}

fn status_from_row(
    m: statuses::Model,
    mentions: Vec<Id>,
    tags: Vec<String>,
) -> StoreResult<StatusRecord> {
    Ok(StatusRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.account_id),
        uri: m.uri,
        text: m.text,
        content: m.content,
        spoiler_text: m.spoiler_text,
        visibility: parse_visibility(&m.visibility, "statuses.visibility")?,
        sensitive: m.sensitive,
        language: m.language,
        in_reply_to_id: m.in_reply_to_id.map(Id::from_i64),
        in_reply_to_account_id: m.in_reply_to_account_id.map(Id::from_i64),
        application_id: m.application_id.map(Id::from_i64),
        mentions,
        tags,
        has_media: m.has_media,
        idempotency_key: m.idempotency_key,
        local: m.local,
        created_at: m.created_at,
        edited_at: m.edited_at,
    })
}

/// Turns status rows into records, loading their mentions and tags (two queries per chunk),
/// keeping the rows' order.
async fn hydrate<C: ConnectionTrait>(
    db: &C,
    rows: Vec<statuses::Model>,
) -> StoreResult<Vec<StatusRecord>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let mut mentions: HashMap<i64, Vec<Id>> = HashMap::new();
    let mut tags: HashMap<i64, Vec<String>> = HashMap::new();
    for chunk in ids.chunks(IN_CHUNK) {
        let ms = status_mentions::Entity::find()
            .filter(status_mentions::Column::StatusId.is_in(chunk.iter().copied()))
            .order_by_asc(status_mentions::Column::StatusId)
            .order_by_asc(status_mentions::Column::Position)
            .all(db)
            .await
            .map_err(backend_err)?;
        for m in ms {
            mentions
                .entry(m.status_id)
                .or_default()
                .push(Id::from_i64(m.account_id));
        }
        let ts = status_tags::Entity::find()
            .filter(status_tags::Column::StatusId.is_in(chunk.iter().copied()))
            .order_by_asc(status_tags::Column::StatusId)
            .order_by_asc(status_tags::Column::Position)
            .all(db)
            .await
            .map_err(backend_err)?;
        for t in ts {
            tags.entry(t.status_id).or_default().push(t.name);
        }
    }
    rows.into_iter()
        .map(|r| {
            let id = r.id;
            status_from_row(
                r,
                mentions.remove(&id).unwrap_or_default(),
                tags.remove(&id).unwrap_or_default(),
            )
        })
        .collect()
}

async fn insert_status_rows<C: ConnectionTrait>(db: &C, s: &StatusRecord) -> StoreResult<()> {
    statuses::Entity::insert(status_row(s))
        .exec_without_returning(db)
        .await
        .map_err(backend_err)?;
    if !s.mentions.is_empty() {
        let rows = s
            .mentions
            .iter()
            .enumerate()
            .map(|(i, a)| status_mentions::ActiveModel {
                status_id: Set(s.id.as_i64()),
                position: Set(i as i32),
                account_id: Set(a.as_i64()),
            });
        status_mentions::Entity::insert_many(rows)
            .exec_without_returning(db)
            .await
            .map_err(backend_err)?;
    }
    if !s.tags.is_empty() {
        let rows = s
            .tags
            .iter()
            .enumerate()
            .map(|(i, name)| status_tags::ActiveModel {
                status_id: Set(s.id.as_i64()),
                position: Set(i as i32),
                name: Set(name.clone()),
            });
        status_tags::Entity::insert_many(rows)
            .exec_without_returning(db)
            .await
            .map_err(backend_err)?;
    }
    // Counters move with the row, in the same transaction; `last_status_at` only moves forward.
    let last = Expr::col(accounts::Column::LastStatusAt);
    accounts::Entity::update_many()
        .col_expr(
            accounts::Column::StatusesCount,
            Expr::col(accounts::Column::StatusesCount).add(1),
        )
        .col_expr(
            accounts::Column::LastStatusAt,
            Expr::case(
                last.clone().is_null().or(last.clone().lt(s.created_at)),
                Expr::val(s.created_at),
            )
            .finally(last)
            .into(),
        )
        .filter(accounts::Column::Id.eq(s.account_id.as_i64()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

async fn delete_status_rows<C: ConnectionTrait>(db: &C, id: i64) -> StoreResult<()> {
    let deleted = statuses::Entity::delete_by_id(id)
        .exec_with_returning(db)
        .await
        .map_err(backend_err)?;
    let Some(status) = deleted else {
        return Err(StoreError::NotFound);
    };
    // The foreign keys cascade these two already; deleting explicitly does not rely on them.
    status_mentions::Entity::delete_many()
        .filter(status_mentions::Column::StatusId.eq(id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    status_tags::Entity::delete_many()
        .filter(status_tags::Column::StatusId.eq(id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    home_feed::Entity::delete_many()
        .filter(home_feed::Column::StatusId.eq(id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    let count = Expr::col(accounts::Column::StatusesCount);
    accounts::Entity::update_many()
        .col_expr(
            accounts::Column::StatusesCount,
            Expr::case(count.clone().gt(0), count.sub(1))
                .finally(0)
                .into(),
        )
        .filter(accounts::Column::Id.eq(status.account_id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

#[async_trait]
impl StatusStore for SeaStore {
    async fn insert_status(&self, status: &StatusRecord) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = insert_status_rows(&tx, status).await.map_err(|e| match e {
            // The only unique key a new status can hit is its id.
            StoreError::AlreadyExists(_) => StoreError::AlreadyExists("status".into()),
            other => other,
        });
        finish(tx, res).await
    }

    async fn status_by_id(&self, id: Id) -> StoreResult<Option<StatusRecord>> {
        let Some(row) = statuses::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
        else {
            return Ok(None);
        };
        Ok(hydrate(&self.db, vec![row]).await?.pop())
    }

    async fn statuses_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<StatusRecord>> {
        let mut ids: Vec<i64> = ids.iter().map(|id| id.as_i64()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut rows = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(IN_CHUNK) {
            rows.extend(
                statuses::Entity::find()
                    .filter(statuses::Column::Id.is_in(chunk.iter().copied()))
                    .all(&self.db)
                    .await
                    .map_err(backend_err)?,
            );
        }
        hydrate(&self.db, rows).await
    }

    async fn status_by_idempotency_key(
        &self,
        account_id: Id,
        key: &str,
        since: DateTime<Utc>,
    ) -> StoreResult<Option<StatusRecord>> {
        let row = statuses::Entity::find()
            .filter(statuses::Column::AccountId.eq(account_id.as_i64()))
            .filter(statuses::Column::IdempotencyKey.eq(key))
            .filter(statuses::Column::CreatedAt.gte(since))
            .order_by_desc(statuses::Column::Id)
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        match row {
            Some(row) => Ok(hydrate(&self.db, vec![row]).await?.pop()),
            None => Ok(None),
        }
    }

    async fn delete_status(&self, id: Id) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = delete_status_rows(&tx, id.as_i64()).await;
        finish(tx, res).await
    }

    async fn account_statuses(
        &self,
        account_id: Id,
        filter: &AccountStatusesFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let status_id = || Expr::col((statuses::Entity, statuses::Column::Id));
        let mut shown = Condition::any();
        if !filter.visibilities.is_empty() {
            shown = shown.add(
                statuses::Column::Visibility.is_in(filter.visibilities.iter().map(|v| v.as_str())),
            );
        }
        if let Some(mentioned) = filter.or_mentioning {
            shown = shown.add(Expr::exists(
                Query::select()
                    .expr(Expr::val(1))
                    .from(status_mentions::Entity)
                    .and_where(
                        Expr::col((status_mentions::Entity, status_mentions::Column::StatusId))
                            .eq(status_id()),
                    )
                    .and_where(status_mentions::Column::AccountId.eq(mentioned.as_i64()))
                    .to_owned(),
            ));
        }
        if shown.is_empty() {
            // No visibility and no mention asked for: nothing matches.
            return Ok(vec![]);
        }
        let mut q = statuses::Entity::find()
            .filter(statuses::Column::AccountId.eq(account_id.as_i64()))
            .filter(shown);
        if filter.exclude_replies {
            // Self-replies stay, as on the public timeline.
            q = q.filter(
                Condition::any()
                    .add(statuses::Column::InReplyToAccountId.is_null())
                    .add(statuses::Column::InReplyToAccountId.eq(account_id.as_i64())),
            );
        }
        if filter.only_media {
            q = q.filter(statuses::Column::HasMedia.eq(true));
        }
        if let Some(tag) = &filter.tagged {
            q = q.filter(Expr::exists(
                Query::select()
                    .expr(Expr::val(1))
                    .from(status_tags::Entity)
                    .and_where(
                        Expr::col((status_tags::Entity, status_tags::Column::StatusId))
                            .eq(status_id()),
                    )
                    .and_where(status_tags::Column::Name.eq(tag.as_str()))
                    .to_owned(),
            ));
        }
        let rows = paging::apply(q, statuses::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        hydrate(&self.db, paging::finish(rows, &page)).await
    }

    async fn public_timeline(
        &self,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let mut q = statuses::Entity::find()
            .inner_join(accounts::Entity)
            .filter(accounts::Column::SuspendedAt.is_null())
            .filter(statuses::Column::Visibility.eq(Visibility::Public.as_str()))
            // Not a reply to someone else: no parent author, or the author replying to themselves.
            .filter(
                Condition::any()
                    .add(statuses::Column::InReplyToAccountId.is_null())
                    .add(
                        Expr::col((statuses::Entity, statuses::Column::InReplyToAccountId))
                            .equals((statuses::Entity, statuses::Column::AccountId)),
                    ),
            );
        if filter.local {
            q = q.filter(statuses::Column::Local.eq(true));
        }
        if filter.remote {
            q = q.filter(statuses::Column::Local.eq(false));
        }
        if filter.only_media {
            q = q.filter(statuses::Column::HasMedia.eq(true));
        }
        let rows = paging::apply(q, statuses::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        hydrate(&self.db, paging::finish(rows, &page)).await
    }
}
