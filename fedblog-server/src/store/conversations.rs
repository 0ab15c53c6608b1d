//! `ConversationStore` for `SeaStore`: each account's direct-message threads, and their upkeep
//! when statuses or accounts are deleted.

use std::collections::HashMap;

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{ConversationRecord, ConversationStore};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{
    Expr, ExprTrait, Func, OnConflict, Query, SelectStatement, SimpleExpr, SubQueryStatement,
};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::entity::{conversation_statuses, conversations};
use super::{IN_CHUNK, SeaStore, backend_err, finish, paging};

/// The stored form of a participant set: ids ascending, comma-separated.
fn participants_text(ids: &[Id]) -> String {
    let mut ids: Vec<i64> = ids.iter().map(|i| i.as_i64()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

fn participants_of(text: &str, conversation: i64) -> StoreResult<Vec<Id>> {
    text.split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.parse::<i64>().map(Id::from_i64).map_err(|_| {
                StoreError::Backend(format!(
                    "conversation {conversation}: participant {p:?} is not an id"
                ))
            })
        })
        .collect()
}

/// Conversation rows with their statuses (ascending), read in one more query per chunk.
async fn assemble<C: ConnectionTrait>(
    db: &C,
    rows: Vec<conversations::Model>,
) -> StoreResult<Vec<ConversationRecord>> {
    let ids: Vec<i64> = rows.iter().map(|c| c.id).collect();
    let mut statuses: HashMap<i64, Vec<Id>> = HashMap::new();
    for chunk in ids.chunks(IN_CHUNK) {
        for cs in conversation_statuses::Entity::find()
            .filter(conversation_statuses::Column::ConversationId.is_in(chunk.iter().copied()))
            .order_by_asc(conversation_statuses::Column::StatusId)
            .all(db)
            .await
            .map_err(backend_err)?
        {
            statuses
                .entry(cs.conversation_id)
                .or_default()
                .push(Id::from_i64(cs.status_id));
        }
    }
    rows.into_iter()
        .map(|c| {
            Ok(ConversationRecord {
                id: Id::from_i64(c.id),
                account_id: Id::from_i64(c.account_id),
                thread_id: Id::from_i64(c.thread_id),
                participant_ids: participants_of(&c.participants, c.id)?,
                status_ids: statuses.remove(&c.id).unwrap_or_default(),
                unread: c.unread,
            })
        })
        .collect()
}

/// Sets the last status of the conversations `which` selects to their newest remaining status,
/// then removes those left without one.
async fn refresh_last_statuses<C: ConnectionTrait>(
    db: &C,
    which: &[i64],
) -> Result<(), sea_orm::DbErr> {
    for chunk in which.chunks(IN_CHUNK) {
        let newest = Query::select()
            .expr(Func::max(Expr::col((
                conversation_statuses::Entity,
                conversation_statuses::Column::StatusId,
            ))))
            .from(conversation_statuses::Entity)
            .and_where(
                Expr::col((
                    conversation_statuses::Entity,
                    conversation_statuses::Column::ConversationId,
                ))
                .equals((conversations::Entity, conversations::Column::Id)),
            )
            .to_owned();
        let update = Query::update()
            .table(conversations::Entity)
            .value(
                conversations::Column::LastStatusId,
                SimpleExpr::SubQuery(None, Box::new(SubQueryStatement::SelectStatement(newest))),
            )
            .and_where(conversations::Column::Id.is_in(chunk.iter().copied()))
            .to_owned();
        db.execute(&update).await?;
        conversations::Entity::delete_many()
            .filter(conversations::Column::Id.is_in(chunk.iter().copied()))
            .filter(conversations::Column::LastStatusId.is_null())
            .exec(db)
            .await?;
    }
    Ok(())
}

/// Takes the statuses `statuses` selects out of every conversation holding them (see
/// `StatusStore::delete_status`).
pub(super) async fn remove_statuses_from_conversations<C: ConnectionTrait>(
    db: &C,
    statuses: impl Fn() -> SelectStatement,
) -> Result<(), sea_orm::DbErr> {
    let holding: Vec<i64> = conversation_statuses::Entity::find()
        .select_only()
        .column(conversation_statuses::Column::ConversationId)
        .filter(conversation_statuses::Column::StatusId.in_subquery(statuses()))
        .distinct()
        .into_tuple()
        .all(db)
        .await?;
    if holding.is_empty() {
        return Ok(());
    }
    conversation_statuses::Entity::delete_many()
        .filter(conversation_statuses::Column::StatusId.in_subquery(statuses()))
        .exec(db)
        .await?;
    refresh_last_statuses(db, &holding).await
}

/// Removes `account`'s conversations (see `AccountStore::delete_account`).
pub(super) async fn delete_account_conversations<C: ConnectionTrait>(
    db: &C,
    account: i64,
) -> Result<(), sea_orm::DbErr> {
    let mine = Query::select()
        .column(conversations::Column::Id)
        .from(conversations::Entity)
        .and_where(conversations::Column::AccountId.eq(account))
        .to_owned();
    conversation_statuses::Entity::delete_many()
        .filter(conversation_statuses::Column::ConversationId.in_subquery(mine))
        .exec(db)
        .await?;
    conversations::Entity::delete_many()
        .filter(conversations::Column::AccountId.eq(account))
        .exec(db)
        .await?;
    Ok(())
}

#[async_trait]
impl ConversationStore for SeaStore {
    async fn add_to_conversation(
        &self,
        new_id: Id,
        account: Id,
        thread: Id,
        participants: &[Id],
        status: Id,
        unread: bool,
    ) -> StoreResult<ConversationRecord> {
        let text = participants_text(participants);
        let tx = self.begin_write().await?;
        let res = async {
            let key = || {
                conversations::Entity::find()
                    .filter(conversations::Column::AccountId.eq(account.as_i64()))
                    .filter(conversations::Column::ThreadId.eq(thread.as_i64()))
                    .filter(conversations::Column::Participants.eq(text.clone()))
            };
            // A racing add may have made it: the unique key keeps one.
            conversations::Entity::insert(conversations::ActiveModel {
                id: Set(new_id.as_i64()),
                account_id: Set(account.as_i64()),
                thread_id: Set(thread.as_i64()),
                participants: Set(text.clone()),
                last_status_id: Set(Some(status.as_i64())),
                unread: Set(unread),
            })
            .on_conflict(
                OnConflict::columns([
                    conversations::Column::AccountId,
                    conversations::Column::ThreadId,
                    conversations::Column::Participants,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&tx)
            .await
            .map_err(backend_err)?;
            let row = key()
                .one(&tx)
                .await
                .map_err(backend_err)?
                .ok_or(StoreError::NotFound)?;
            let added = conversation_statuses::Entity::insert(conversation_statuses::ActiveModel {
                conversation_id: Set(row.id),
                status_id: Set(status.as_i64()),
            })
            .on_conflict(
                OnConflict::columns([
                    conversation_statuses::Column::ConversationId,
                    conversation_statuses::Column::StatusId,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&tx)
            .await
            .map_err(backend_err)?;
            if added > 0 {
                let last = Ord::max(row.last_status_id.unwrap_or(0), status.as_i64());
                conversations::Entity::update_many()
                    .col_expr(conversations::Column::Unread, Expr::value(unread))
                    .col_expr(conversations::Column::LastStatusId, Expr::value(last))
                    .filter(conversations::Column::Id.eq(row.id))
                    .exec(&tx)
                    .await
                    .map_err(backend_err)?;
            }
            let row = key()
                .one(&tx)
                .await
                .map_err(backend_err)?
                .ok_or(StoreError::NotFound)?;
            assemble(&tx, vec![row])
                .await?
                .pop()
                .ok_or(StoreError::NotFound)
        }
        .await;
        finish(tx, res).await
    }

    async fn conversation_by_id(&self, id: Id) -> StoreResult<Option<ConversationRecord>> {
        let rows = conversations::Entity::find_by_id(id.as_i64())
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(assemble(&self.db, rows).await?.pop())
    }

    async fn conversations_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<ConversationRecord>> {
        let q = conversations::Entity::find()
            .filter(conversations::Column::AccountId.eq(account.as_i64()))
            .filter(conversations::Column::LastStatusId.is_not_null());
        let rows = paging::apply(q, conversations::Column::LastStatusId, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        assemble(&self.db, paging::finish(rows, &page)).await
    }

    async fn set_conversation_unread(&self, id: Id, unread: bool) -> StoreResult<bool> {
        let res = conversations::Entity::update_many()
            .col_expr(conversations::Column::Unread, Expr::value(unread))
            .filter(conversations::Column::Id.eq(id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn delete_conversation(&self, id: Id) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = async {
            conversation_statuses::Entity::delete_many()
                .filter(conversation_statuses::Column::ConversationId.eq(id.as_i64()))
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            Ok(conversations::Entity::delete_by_id(id.as_i64())
                .exec(&tx)
                .await
                .map_err(backend_err)?
                .rows_affected
                > 0)
        }
        .await;
        finish(tx, res).await
    }
}
