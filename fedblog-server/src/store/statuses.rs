//! `StatusStore` for `SeaStore`: statuses and reblogs with their ordered mentions, tags, media
//! and counters, their deletion with everything hanging off them, and the public timeline.

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountStatusesFilter, NotificationType, PublicTimelineFilter, StatusRecord, StatusStore,
    TagTimelineFilter, Visibility,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait, IntoCondition, Query, SelectStatement, UnionType};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::accounts::parse_visibility;
use super::conversations::remove_statuses_from_conversations;
use super::entity::{
    accounts, bookmarks, favourites, filter_statuses, home_feed, list_feed, notifications,
    status_edits, status_links, status_mentions, status_pins, status_tags, statuses,
};
use super::media::{attach_media, decode_ids, detach_status_media, encode_ids};
use super::polls::delete_status_polls;
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
        // Kept for the timelines' `only_media` filter.
        has_media: Set(s.has_media()),
        media_ids: Set(encode_ids(&s.media_ids)),
        idempotency_key: Set(s.idempotency_key.clone()),
        local: Set(s.local),
        created_at: Set(s.created_at),
        edited_at: Set(s.edited_at),
        reblog_of_id: Set(s.reblog_of_id.map(Id::as_i64)),
        conversation_id: Set(s.conversation_id.map(Id::as_i64)),
        replies_count: Set(s.replies_count),
        reblogs_count: Set(s.reblogs_count),
        favourites_count: Set(s.favourites_count),
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
        media_ids: decode_ids(&m.media_ids, "statuses.media_ids")?,
        idempotency_key: m.idempotency_key,
        local: m.local,
        created_at: m.created_at,
        edited_at: m.edited_at,
        reblog_of_id: m.reblog_of_id.map(Id::from_i64),
        conversation_id: m.conversation_id.map(Id::from_i64),
        replies_count: m.replies_count,
        reblogs_count: m.reblogs_count,
        favourites_count: m.favourites_count,
    })
}

/// Turns status rows into records, loading their mentions and tags (two queries per chunk),
/// keeping the rows' order.
pub(super) async fn hydrate<C: ConnectionTrait>(
    db: &C,
    rows: Vec<statuses::Model>,
) -> StoreResult<Vec<StatusRecord>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let mut mentions: HashMap<i64, Vec<Id>> = HashMap::new();
    let mut tags: HashMap<i64, Vec<String>> = HashMap::new();
    for chunk in ids.chunks(IN_CHUNK) {
        // One statement for both: each row a mention (`mention` set) or a tag (`tag` set).
        let mut q = Query::select()
            .column(status_mentions::Column::StatusId)
            .column(status_mentions::Column::Position)
            .expr_as(Expr::col(status_mentions::Column::AccountId), "mention")
            .expr_as(Expr::cust("CAST(NULL AS TEXT)"), "tag")
            .from(status_mentions::Entity)
            .and_where(Expr::col(status_mentions::Column::StatusId).is_in(chunk.iter().copied()))
            .to_owned();
        q.union(
            UnionType::All,
            Query::select()
                .column(status_tags::Column::StatusId)
                .column(status_tags::Column::Position)
                .expr_as(Expr::cust("CAST(NULL AS BIGINT)"), "mention")
                .expr_as(Expr::col(status_tags::Column::Name), "tag")
                .from(status_tags::Entity)
                .and_where(Expr::col(status_tags::Column::StatusId).is_in(chunk.iter().copied()))
                .to_owned(),
        );
        let mut found: Vec<(i64, i32, Option<i64>, Option<String>)> = db
            .query_all(&q)
            .await
            .map_err(backend_err)?
            .iter()
            .map(|row| {
                Ok((
                    row.try_get_by_index(0).map_err(backend_err)?,
                    row.try_get_by_index(1).map_err(backend_err)?,
                    row.try_get_by_index(2).map_err(backend_err)?,
                    row.try_get_by_index(3).map_err(backend_err)?,
                ))
            })
            .collect::<StoreResult<_>>()?;
        found.sort_unstable_by_key(|(status, position, ..)| (*status, *position));
        for (status, _, mention, tag) in found {
            if let Some(account) = mention {
                mentions
                    .entry(status)
                    .or_default()
                    .push(Id::from_i64(account));
            }
            if let Some(name) = tag {
                tags.entry(status).or_default().push(name);
            }
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

/// Inserts the `status_mentions` and `status_tags` rows of `s`, in its order.
pub(super) async fn insert_mention_and_tag_rows<C: ConnectionTrait>(
    db: &C,
    s: &StatusRecord,
) -> StoreResult<()> {
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
    Ok(())
}

async fn insert_status_rows<C: ConnectionTrait>(db: &C, s: &StatusRecord) -> StoreResult<()> {
    statuses::Entity::insert(status_row(s))
        .exec_without_returning(db)
        .await
        .map_err(backend_err)?;
    insert_mention_and_tag_rows(db, s).await?;
    // After the row, so that a taken id or reblog is reported before the media.
    attach_media(db, &s.media_ids, s.account_id, s.id).await?;
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
    if let Some(parent) = s.in_reply_to_id {
        add_to_status_counter(
            db,
            statuses::Column::RepliesCount,
            1,
            statuses::Column::Id.eq(parent.as_i64()),
        )
        .await?;
    }
    if let Some(original) = s.reblog_of_id {
        add_to_status_counter(
            db,
            statuses::Column::ReblogsCount,
            1,
            statuses::Column::Id.eq(original.as_i64()),
        )
        .await?;
    }
    Ok(())
}

/// Adds `delta` to a counter column of the statuses matching `which`, never going below zero.
pub(super) async fn add_to_status_counter<C: ConnectionTrait>(
    db: &C,
    col: statuses::Column,
    delta: i64,
    which: impl IntoCondition,
) -> StoreResult<()> {
    let cur = Expr::col(col);
    let next = Expr::case(cur.clone().add(delta).gt(0), cur.add(delta)).finally(0);
    statuses::Entity::update_many()
        .col_expr(col, next.into())
        .filter(which)
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

/// Adds `-n` to a counter column of each account of `decrements` (pairs of account id and `n`,
/// distinct accounts), never going below zero: one statement per distinct `n` and chunk.
async fn decrement_accounts_by<C: ConnectionTrait>(
    db: &C,
    col: accounts::Column,
    decrements: Vec<(i64, i64)>,
) -> StoreResult<()> {
    for (n, ids) in by_amount(decrements) {
        for chunk in ids.chunks(IN_CHUNK) {
            let cur = Expr::col(col);
            let next = Expr::case(cur.clone().sub(n).gt(0), cur.sub(n)).finally(0);
            accounts::Entity::update_many()
                .col_expr(col, next.into())
                .filter(accounts::Column::Id.is_in(chunk.iter().copied()))
                .exec(db)
                .await
                .map_err(backend_err)?;
        }
    }
    Ok(())
}

/// [`decrement_accounts_by`] for statuses' counters.
async fn decrement_statuses_by<C: ConnectionTrait>(
    db: &C,
    col: statuses::Column,
    decrements: Vec<(i64, i64)>,
) -> StoreResult<()> {
    for (n, ids) in by_amount(decrements) {
        for chunk in ids.chunks(IN_CHUNK) {
            add_to_status_counter(
                db,
                col,
                -n,
                statuses::Column::Id.is_in(chunk.iter().copied()),
            )
            .await?;
        }
    }
    Ok(())
}

/// `(id, n)` pairs grouped by `n` (most often all 1, so one group).
fn by_amount(pairs: Vec<(i64, i64)>) -> BTreeMap<i64, Vec<i64>> {
    let mut groups: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (id, n) in pairs {
        if n > 0 {
            groups.entry(n).or_default().push(id);
        }
    }
    groups
}

/// Restricts a timeline query by `local`, `remote` and `only_media`.
/// The statuses of the public timeline: public, neither reblogs (they stay off public
/// timelines, as in Mastodon) nor replies to someone else, by unsuspended authors, in `place`.
fn public_timeline_query(place: PublicTimelineFilter) -> sea_orm::Select<statuses::Entity> {
    let q = statuses::Entity::find()
        .inner_join(accounts::Entity)
        .filter(accounts::Column::SuspendedAt.is_null())
        .filter(public_rows())
        // Not a reply to someone else: no parent author, or the author replying to themselves.
        .filter(
            Condition::any()
                .add(statuses::Column::InReplyToAccountId.is_null())
                .add(
                    Expr::col((statuses::Entity, statuses::Column::InReplyToAccountId))
                        .equals((statuses::Entity, statuses::Column::AccountId)),
                ),
        );
    in_place(q, place)
}

pub(super) fn in_place(
    mut q: sea_orm::Select<statuses::Entity>,
    place: PublicTimelineFilter,
) -> sea_orm::Select<statuses::Entity> {
    // Literal values, as in `public_rows`, so the (local, id) partial index can serve.
    let local = || Expr::col((statuses::Entity, statuses::Column::Local));
    if place.local {
        q = q.filter(local().eq(Expr::cust("TRUE")));
    }
    if place.remote {
        q = q.filter(local().eq(Expr::cust("FALSE")));
    }
    if place.only_media {
        q = q.filter(statuses::Column::HasMedia.eq(true));
    }
    q
}

/// The statuses a public timeline may show: public, and not reblogs. Written with literal
/// values, not bound parameters, so that PostgreSQL's prepared plans can use the partial indexes
/// of m0018 (a parameter cannot prove a partial index's predicate).
pub(super) fn public_rows() -> Condition {
    Condition::all()
        .add(
            Expr::col((statuses::Entity, statuses::Column::Visibility))
                .eq(Expr::cust(format!("'{}'", Visibility::Public.as_str()))),
        )
        .add(statuses::Column::ReblogOfId.is_null())
}

/// Deletes what hangs off the statuses `ids` selects (mentions, tags, edit history, feed entries,
/// favourites, bookmarks, pins, polls with their options and votes) and detaches their media,
/// before the statuses themselves go. Every `status_id` column is indexed.
pub(super) async fn delete_status_dependents<C: ConnectionTrait>(
    db: &C,
    ids: impl Fn() -> SelectStatement,
) -> StoreResult<()> {
    // The foreign keys cascade mentions and tags already; deleting explicitly does not rely on
    // them.
    status_mentions::Entity::delete_many()
        .filter(status_mentions::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    status_tags::Entity::delete_many()
        .filter(status_tags::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    status_edits::Entity::delete_many()
        .filter(status_edits::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    home_feed::Entity::delete_many()
        .filter(home_feed::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    list_feed::Entity::delete_many()
        .filter(list_feed::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    favourites::Entity::delete_many()
        .filter(favourites::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    bookmarks::Entity::delete_many()
        .filter(bookmarks::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    status_pins::Entity::delete_many()
        .filter(status_pins::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    notifications::Entity::delete_many()
        .filter(notifications::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    filter_statuses::Entity::delete_many()
        .filter(filter_statuses::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    status_links::Entity::delete_many()
        .filter(status_links::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    remove_statuses_from_conversations(db, &ids)
        .await
        .map_err(backend_err)?;
    delete_status_polls(db, &ids).await?;
    detach_status_media(db, &ids).await?;
    Ok(())
}

/// Deletes a status and its reblogs with everything hanging off them, moving the counters of
/// the authors, the parent and the original (see `StatusStore::delete_status`).
/// [`StatusStore::link_reply`] within a transaction: the reply's row changes only while it
/// still replies to nothing, so that two links at once raise the parent's count once.
async fn link_reply_rows<C: ConnectionTrait>(
    db: &C,
    status: i64,
    parent: i64,
) -> StoreResult<bool> {
    let child = statuses::Entity::find_by_id(status)
        .one(db)
        .await
        .map_err(backend_err)?;
    let found = statuses::Entity::find_by_id(parent)
        .one(db)
        .await
        .map_err(backend_err)?;
    let (Some(child), Some(found)) = (child, found) else {
        return Err(StoreError::NotFound);
    };
    if child.in_reply_to_id.is_some()
        || child.reblog_of_id.is_some()
        || found.reblog_of_id.is_some()
        || status == parent
    {
        return Ok(false);
    }
    let linked = statuses::Entity::update_many()
        .col_expr(statuses::Column::InReplyToId, Expr::value(parent))
        .col_expr(
            statuses::Column::InReplyToAccountId,
            Expr::value(found.account_id),
        )
        .filter(statuses::Column::Id.eq(status))
        .filter(statuses::Column::InReplyToId.is_null())
        .exec(db)
        .await
        .map_err(backend_err)?;
    if linked.rows_affected == 0 {
        return Ok(false);
    }
    // The thread it began joins the parent's.
    statuses::Entity::update_many()
        .col_expr(
            statuses::Column::ConversationId,
            Expr::value(found.conversation_id.unwrap_or(found.id)),
        )
        .filter(
            Condition::any()
                .add(statuses::Column::Id.eq(status))
                .add(statuses::Column::ConversationId.eq(status)),
        )
        .exec(db)
        .await
        .map_err(backend_err)?;
    add_to_status_counter(
        db,
        statuses::Column::RepliesCount,
        1,
        statuses::Column::Id.eq(parent),
    )
    .await?;
    Ok(true)
}

async fn delete_status_rows<C: ConnectionTrait>(db: &C, id: i64) -> StoreResult<()> {
    let Some(status) = statuses::Entity::find_by_id(id)
        .one(db)
        .await
        .map_err(backend_err)?
    else {
        return Err(StoreError::NotFound);
    };
    // The status and its reblogs (both columns indexed).
    let doomed = || {
        Condition::any()
            .add(statuses::Column::Id.eq(id))
            .add(statuses::Column::ReblogOfId.eq(id))
    };
    let doomed_ids = || {
        Query::select()
            .column(statuses::Column::Id)
            .from(statuses::Entity)
            .cond_where(doomed())
            .to_owned()
    };
    // Each reblogger loses one status: an account reblogs a status at most once.
    let rebloggers = Query::select()
        .column(statuses::Column::AccountId)
        .from(statuses::Entity)
        .and_where(statuses::Column::ReblogOfId.eq(id))
        .to_owned();
    decrement_accounts_where(
        db,
        accounts::Column::StatusesCount,
        accounts::Column::Id.in_subquery(rebloggers),
    )
    .await?;
    delete_status_dependents(db, doomed_ids).await?;
    statuses::Entity::delete_many()
        .filter(doomed())
        .exec(db)
        .await
        .map_err(backend_err)?;
    decrement_accounts_where(
        db,
        accounts::Column::StatusesCount,
        accounts::Column::Id.eq(status.account_id),
    )
    .await?;
    if let Some(parent) = status.in_reply_to_id {
        add_to_status_counter(
            db,
            statuses::Column::RepliesCount,
            -1,
            statuses::Column::Id.eq(parent),
        )
        .await?;
    }
    if let Some(original) = status.reblog_of_id {
        add_to_status_counter(
            db,
            statuses::Column::ReblogsCount,
            -1,
            statuses::Column::Id.eq(original),
        )
        .await?;
        // The reblog's notification to the original's author goes with it.
        notifications::Entity::delete_many()
            .filter(notifications::Column::Kind.eq(NotificationType::Reblog.as_str()))
            .filter(notifications::Column::FromAccountId.eq(status.account_id))
            .filter(notifications::Column::StatusId.eq(original))
            .exec(db)
            .await
            .map_err(backend_err)?;
    }
    Ok(())
}

/// Lowers a counter column of the accounts matching `which` by one, never below zero.
async fn decrement_accounts_where<C: ConnectionTrait>(
    db: &C,
    col: accounts::Column,
    which: impl IntoCondition,
) -> StoreResult<()> {
    let cur = Expr::col(col);
    accounts::Entity::update_many()
        .col_expr(
            col,
            Expr::case(cur.clone().gt(0), cur.sub(1)).finally(0).into(),
        )
        .filter(which)
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

/// Deletes an account's statuses (`AccountStore::delete_account`): the originals it reblogged
/// lose a reblog, the statuses of others it replied to lose its replies, others' reblogs of its
/// statuses go (their authors' `statuses_count` moving), then its statuses with everything
/// hanging off them. Others' replies to its statuses stay.
pub(super) async fn delete_account_statuses<C: ConnectionTrait>(
    db: &C,
    account: i64,
) -> StoreResult<()> {
    let own = || {
        Query::select()
            .column(statuses::Column::Id)
            .from(statuses::Entity)
            .and_where(statuses::Column::AccountId.eq(account))
            .to_owned()
    };

    // One reblog per account and status, so each original loses one.
    let reblogged = Query::select()
        .column(statuses::Column::ReblogOfId)
        .from(statuses::Entity)
        .and_where(statuses::Column::AccountId.eq(account))
        .and_where(statuses::Column::ReblogOfId.is_not_null())
        .to_owned();
    add_to_status_counter(
        db,
        statuses::Column::ReblogsCount,
        -1,
        statuses::Column::Id.in_subquery(reblogged),
    )
    .await?;

    // Replies to others' statuses, counted per parent (its own threads go anyway).
    let replied: Vec<(i64, i64)> = statuses::Entity::find()
        .select_only()
        .column(statuses::Column::InReplyToId)
        .column_as(statuses::Column::Id.count(), "n")
        .filter(statuses::Column::AccountId.eq(account))
        .filter(statuses::Column::InReplyToId.is_not_null())
        .filter(
            Condition::any()
                .add(statuses::Column::InReplyToAccountId.is_null())
                .add(statuses::Column::InReplyToAccountId.ne(account)),
        )
        .group_by(statuses::Column::InReplyToId)
        .into_tuple()
        .all(db)
        .await
        .map_err(backend_err)?;
    decrement_statuses_by(db, statuses::Column::RepliesCount, replied).await?;

    // Others' reblogs of its statuses, counted per reblogger.
    let others_reblogs = || {
        Condition::all()
            .add(statuses::Column::ReblogOfId.in_subquery(own()))
            .add(statuses::Column::AccountId.ne(account))
    };
    let rebloggers: Vec<(i64, i64)> = statuses::Entity::find()
        .select_only()
        .column(statuses::Column::AccountId)
        .column_as(statuses::Column::Id.count(), "n")
        .filter(others_reblogs())
        .group_by(statuses::Column::AccountId)
        .into_tuple()
        .all(db)
        .await
        .map_err(backend_err)?;
    decrement_accounts_by(db, accounts::Column::StatusesCount, rebloggers).await?;
    delete_status_dependents(db, || {
        Query::select()
            .column(statuses::Column::Id)
            .from(statuses::Entity)
            .cond_where(others_reblogs())
            .to_owned()
    })
    .await?;
    statuses::Entity::delete_many()
        .filter(others_reblogs())
        .exec(db)
        .await
        .map_err(backend_err)?;

    delete_status_dependents(db, own).await?;
    statuses::Entity::delete_many()
        .filter(statuses::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

#[async_trait]
impl StatusStore for SeaStore {
    fn quotes(&self) -> Option<&dyn fedblog_core::store::QuoteStore> {
        Some(self)
    }

    async fn insert_status(&self, status: &StatusRecord) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = insert_status_rows(&tx, status).await;
        match finish(tx, res).await {
            // A new status can hit two unique keys: its id, and (for a reblog) its author's
            // reblog of the same status. A taken id is reported first, whichever the engine
            // found. Media that cannot be attached are reported as such (checked last).
            Err(StoreError::AlreadyExists(what)) if what != "media" => {
                let what = if what == "reblog" && self.status_by_id(status.id).await?.is_none() {
                    "reblog"
                } else {
                    "status"
                };
                Err(StoreError::AlreadyExists(what.into()))
            }
            other => other,
        }
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

    async fn link_reply(&self, status: Id, parent: Id) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = link_reply_rows(&tx, status.as_i64(), parent.as_i64()).await;
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
        if filter.exclude_reblogs {
            q = q.filter(statuses::Column::ReblogOfId.is_null());
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
        let rows = paging::apply(public_timeline_query(filter), statuses::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        hydrate(&self.db, paging::finish(rows, &page)).await
    }

    async fn public_timeline_ids(
        &self,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<Id>> {
        paging::ids(
            &self.db,
            public_timeline_query(filter),
            statuses::Column::Id,
            &page,
        )
        .await
        .map_err(backend_err)
    }

    async fn tag_timeline(
        &self,
        filter: &TagTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        // The statuses carrying one of `names`, as a subquery on the tag-name index.
        let tagged = |names: &[String]| {
            Query::select()
                .column(status_tags::Column::StatusId)
                .from(status_tags::Entity)
                .and_where(status_tags::Column::Name.is_in(names.iter().cloned()))
                .to_owned()
        };
        let mut q = statuses::Entity::find()
            .inner_join(accounts::Entity)
            .filter(accounts::Column::SuspendedAt.is_null())
            .filter(public_rows())
            .filter(statuses::Column::Id.in_subquery(tagged(&filter.any)));
        for name in &filter.all {
            q = q.filter(statuses::Column::Id.in_subquery(tagged(std::slice::from_ref(name))));
        }
        if !filter.none.is_empty() {
            q = q.filter(statuses::Column::Id.not_in_subquery(tagged(&filter.none)));
        }
        let q = in_place(q, filter.place);
        let rows = paging::apply(q, statuses::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        hydrate(&self.db, paging::finish(rows, &page)).await
    }

    async fn index_statuses(
        &self,
        documents: &[fedblog_core::store::SearchDocument],
    ) -> StoreResult<()> {
        self.index_search_documents(documents).await
    }

    async fn search_statuses(
        &self,
        search: &fedblog_core::store::StatusSearch,
    ) -> StoreResult<Vec<Id>> {
        self.search_status_ids(search).await
    }

    async fn indexable_status_ids(&self, after: Option<Id>, limit: u64) -> StoreResult<Vec<Id>> {
        self.indexable_ids(after, limit).await
    }
}
