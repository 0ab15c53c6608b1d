//! `InteractionStore` for `SeaStore`: favourites (with the status's `favourites_count`),
//! bookmarks, pins, reblog lookups, thread replies and conversation mutes.

use async_trait::async_trait;
use chrono::Utc;
use fedblog_core::pagination::Page;
use fedblog_core::store::{InteractionStore, InteractionsRecord, StatusRecord};
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::Query;
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::entity::{bookmarks, conversation_mutes, favourites, status_pins, statuses};
use super::pairs::{Pair, fits_one_query, tagged_union};
use super::statuses::{add_to_status_counter, hydrate};
use super::{IN_CHUNK, SeaStore, backend_err, finish};

/// A favourite, read from the account: one per account and status.
const FAVOURITED: Pair<favourites::Column> = Pair {
    owner: favourites::Column::AccountId,
    other: favourites::Column::StatusId,
};

/// A favourite, read from the status (for who favourited it).
const FAVOURITERS: Pair<favourites::Column> = Pair {
    owner: favourites::Column::StatusId,
    other: favourites::Column::AccountId,
};

/// A bookmark: one per account and status.
const BOOKMARKED: Pair<bookmarks::Column> = Pair {
    owner: bookmarks::Column::AccountId,
    other: bookmarks::Column::StatusId,
};

/// A pin: one per account and status.
const PINNED: Pair<status_pins::Column> = Pair {
    owner: status_pins::Column::AccountId,
    other: status_pins::Column::StatusId,
};

/// A reblog, read from its author: one per account and reblogged status
/// (`ux_statuses_account_reblog`).
const REBLOGGED: Pair<statuses::Column> = Pair {
    owner: statuses::Column::AccountId,
    other: statuses::Column::ReblogOfId,
};

/// A reblog, read from the reblogged status (for who reblogged it).
const REBLOGGERS: Pair<statuses::Column> = Pair {
    owner: statuses::Column::ReblogOfId,
    other: statuses::Column::AccountId,
};

/// A muted thread: one per account and conversation.
const CONVERSATION_MUTED: Pair<conversation_mutes::Column> = Pair {
    owner: conversation_mutes::Column::AccountId,
    other: conversation_mutes::Column::ConversationId,
};

/// Deletes what an account did with statuses (`AccountStore::delete_account`): its favourites,
/// each favourited status losing one from `favourites_count`, its bookmarks, pins and muted
/// threads. Its statuses, and others' interactions with them, are `delete_account_statuses`'.
pub(super) async fn delete_account_interactions<C: ConnectionTrait>(
    db: &C,
    account: i64,
) -> StoreResult<()> {
    let favourited = Query::select()
        .column(favourites::Column::StatusId)
        .from(favourites::Entity)
        .and_where(favourites::Column::AccountId.eq(account))
        .to_owned();
    add_to_status_counter(
        db,
        statuses::Column::FavouritesCount,
        -1,
        statuses::Column::Id.in_subquery(favourited),
    )
    .await?;
    favourites::Entity::delete_many()
        .filter(favourites::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    bookmarks::Entity::delete_many()
        .filter(bookmarks::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    status_pins::Entity::delete_many()
        .filter(status_pins::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    conversation_mutes::Entity::delete_many()
        .filter(conversation_mutes::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

#[async_trait]
impl InteractionStore for SeaStore {
    async fn insert_favourite(&self, id: Id, account: Id, status: Id) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = async {
            let row = favourites::ActiveModel {
                id: Set(id.as_i64()),
                account_id: Set(account.as_i64()),
                status_id: Set(status.as_i64()),
                created_at: Set(Utc::now()),
            };
            let new = FAVOURITED.insert(&tx, row).await? == 1;
            if new {
                add_to_status_counter(
                    &tx,
                    statuses::Column::FavouritesCount,
                    1,
                    statuses::Column::Id.eq(status.as_i64()),
                )
                .await?;
            }
            Ok(new)
        }
        .await;
        finish(tx, res).await
    }

    async fn delete_favourite(&self, account: Id, status: Id) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = async {
            let existed = FAVOURITED.delete(&tx, account, status.as_i64()).await?;
            if existed {
                add_to_status_counter(
                    &tx,
                    statuses::Column::FavouritesCount,
                    -1,
                    statuses::Column::Id.eq(status.as_i64()),
                )
                .await?;
            }
            Ok(existed)
        }
        .await;
        finish(tx, res).await
    }

    async fn favourited_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>> {
        FAVOURITED.among(&self.db, account, statuses).await
    }

    async fn favourites_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        FAVOURITED
            .id_page(&self.db, favourites::Column::Id, account, &page)
            .await
    }

    async fn favourited_by_page(&self, status: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        FAVOURITERS
            .id_page(&self.db, favourites::Column::Id, status, &page)
            .await
    }

    async fn insert_bookmark(&self, id: Id, account: Id, status: Id) -> StoreResult<bool> {
        let row = bookmarks::ActiveModel {
            id: Set(id.as_i64()),
            account_id: Set(account.as_i64()),
            status_id: Set(status.as_i64()),
            created_at: Set(Utc::now()),
        };
        Ok(BOOKMARKED.insert(&self.db, row).await? == 1)
    }

    async fn delete_bookmark(&self, account: Id, status: Id) -> StoreResult<bool> {
        BOOKMARKED.delete(&self.db, account, status.as_i64()).await
    }

    async fn bookmarked_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>> {
        BOOKMARKED.among(&self.db, account, statuses).await
    }

    async fn bookmarks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        BOOKMARKED
            .id_page(&self.db, bookmarks::Column::Id, account, &page)
            .await
    }

    async fn insert_pin(&self, id: Id, account: Id, status: Id) -> StoreResult<bool> {
        let row = status_pins::ActiveModel {
            id: Set(id.as_i64()),
            account_id: Set(account.as_i64()),
            status_id: Set(status.as_i64()),
            created_at: Set(Utc::now()),
        };
        Ok(PINNED.insert(&self.db, row).await? == 1)
    }

    async fn delete_pin(&self, account: Id, status: Id) -> StoreResult<bool> {
        PINNED.delete(&self.db, account, status.as_i64()).await
    }

    async fn pinned_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>> {
        PINNED.among(&self.db, account, statuses).await
    }

    async fn pinned_status_ids(&self, account: Id) -> StoreResult<Vec<Id>> {
        let ids: Vec<i64> = status_pins::Entity::find()
            .select_only()
            .column(status_pins::Column::StatusId)
            .filter(status_pins::Column::AccountId.eq(account.as_i64()))
            .order_by_desc(status_pins::Column::Id)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(ids.into_iter().map(Id::from_i64).collect())
    }

    async fn reblog_by(&self, account: Id, status: Id) -> StoreResult<Option<StatusRecord>> {
        let Some(row) = statuses::Entity::find()
            .filter(statuses::Column::AccountId.eq(account.as_i64()))
            .filter(statuses::Column::ReblogOfId.eq(status.as_i64()))
            .one(&self.db)
            .await
            .map_err(backend_err)?
        else {
            return Ok(None);
        };
        Ok(hydrate(&self.db, vec![row]).await?.pop())
    }

    async fn reblogged_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>> {
        REBLOGGED.among(&self.db, account, statuses).await
    }

    async fn reblogged_by_page(&self, status: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        REBLOGGERS
            .id_page(&self.db, statuses::Column::Id, status, &page)
            .await
    }

    async fn replies_to(&self, parents: &[Id]) -> StoreResult<Vec<StatusRecord>> {
        let mut wanted: Vec<i64> = parents.iter().map(|p| p.as_i64()).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut rows = Vec::new();
        for chunk in wanted.chunks(IN_CHUNK) {
            rows.extend(
                statuses::Entity::find()
                    .filter(statuses::Column::InReplyToId.is_in(chunk.iter().copied()))
                    .order_by_asc(statuses::Column::Id)
                    .all(&self.db)
                    .await
                    .map_err(backend_err)?,
            );
        }
        // Oldest first across chunks too.
        rows.sort_by_key(|r| r.id);
        hydrate(&self.db, rows).await
    }

    async fn mute_conversation(&self, account: Id, conversation: Id) -> StoreResult<()> {
        let row = conversation_mutes::ActiveModel {
            account_id: Set(account.as_i64()),
            conversation_id: Set(conversation.as_i64()),
            created_at: Set(Utc::now()),
        };
        CONVERSATION_MUTED.insert(&self.db, row).await.map(|_| ())
    }

    async fn unmute_conversation(&self, account: Id, conversation: Id) -> StoreResult<bool> {
        CONVERSATION_MUTED
            .delete(&self.db, account, conversation.as_i64())
            .await
    }

    async fn muted_conversations_among(
        &self,
        account: Id,
        conversations: &[Id],
    ) -> StoreResult<Vec<Id>> {
        CONVERSATION_MUTED
            .among(&self.db, account, conversations)
            .await
    }

    async fn interactions_among(
        &self,
        account: Id,
        statuses: &[Id],
        own: &[Id],
        conversations: &[Id],
    ) -> StoreResult<InteractionsRecord> {
        if ![statuses, own, conversations]
            .iter()
            .all(|ids| fits_one_query(ids))
        {
            return Ok(InteractionsRecord {
                favourited: self.favourited_among(account, statuses).await?,
                reblogged: self.reblogged_among(account, statuses).await?,
                bookmarked: self.bookmarked_among(account, statuses).await?,
                pinned: self.pinned_among(account, own).await?,
                muted_conversations: self
                    .muted_conversations_among(account, conversations)
                    .await?,
            });
        }
        let all = Condition::all();
        let mut queries = vec![];
        if !statuses.is_empty() {
            queries.push(FAVOURITED.among_tagged("f", account, statuses, all.clone()));
            queries.push(REBLOGGED.among_tagged("r", account, statuses, all.clone()));
            queries.push(BOOKMARKED.among_tagged("b", account, statuses, all.clone()));
        }
        if !own.is_empty() {
            queries.push(PINNED.among_tagged("p", account, own, all.clone()));
        }
        if !conversations.is_empty() {
            queries.push(CONVERSATION_MUTED.among_tagged("m", account, conversations, all));
        }
        let mut out = InteractionsRecord::default();
        for (kind, id) in tagged_union(&self.db, queries).await? {
            match kind.as_str() {
                "f" => out.favourited.push(id),
                "r" => out.reblogged.push(id),
                "b" => out.bookmarked.push(id),
                "p" => out.pinned.push(id),
                _ => out.muted_conversations.push(id),
            }
        }
        for list in [
            &mut out.favourited,
            &mut out.reblogged,
            &mut out.bookmarked,
            &mut out.pinned,
            &mut out.muted_conversations,
        ] {
            list.sort_unstable();
            list.dedup();
        }
        Ok(out)
    }
}
