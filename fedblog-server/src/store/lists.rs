//! `ListStore` for `SeaStore`: lists, their members, and their feeds' clean-up.

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{ListRecord, ListStore, RepliesPolicy};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use super::entity::{list_accounts, list_feed, lists};
use super::{SeaStore, backend_err, finish, paging};

fn list_from_row(l: lists::Model) -> StoreResult<ListRecord> {
    Ok(ListRecord {
        id: Id::from_i64(l.id),
        account_id: Id::from_i64(l.account_id),
        replies_policy: RepliesPolicy::parse(&l.replies_policy).ok_or_else(|| {
            StoreError::Backend(format!(
                "list {}: unknown replies_policy {:?}",
                l.id, l.replies_policy
            ))
        })?,
        title: l.title,
        exclusive: l.exclusive,
    })
}

fn lists_from_rows(rows: Vec<lists::Model>) -> StoreResult<Vec<ListRecord>> {
    rows.into_iter().map(list_from_row).collect()
}

/// Removes `accounts` from the list `list` with their entries in its feed; returns how many
/// were members.
async fn remove_members<C: ConnectionTrait>(
    db: &C,
    list: i64,
    accounts: &[i64],
) -> Result<u64, sea_orm::DbErr> {
    let removed = list_accounts::Entity::delete_many()
        .filter(list_accounts::Column::ListId.eq(list))
        .filter(list_accounts::Column::AccountId.is_in(accounts.iter().copied()))
        .exec(db)
        .await?
        .rows_affected;
    list_feed::Entity::delete_many()
        .filter(list_feed::Column::ListId.eq(list))
        .filter(list_feed::Column::AuthorId.is_in(accounts.iter().copied()))
        .exec(db)
        .await?;
    Ok(removed)
}

/// Deletes the lists `ids` selects, with their members and feeds.
pub(super) async fn delete_lists<C: ConnectionTrait>(
    db: &C,
    ids: impl Fn() -> sea_orm::sea_query::SelectStatement,
) -> Result<u64, sea_orm::DbErr> {
    list_feed::Entity::delete_many()
        .filter(list_feed::Column::ListId.in_subquery(ids()))
        .exec(db)
        .await?;
    list_accounts::Entity::delete_many()
        .filter(list_accounts::Column::ListId.in_subquery(ids()))
        .exec(db)
        .await?;
    Ok(lists::Entity::delete_many()
        .filter(lists::Column::Id.in_subquery(ids()))
        .exec(db)
        .await?
        .rows_affected)
}

/// Removes `author`'s entries from the feeds of `owner`'s lists.
pub(super) async fn remove_owner_list_entries<C: ConnectionTrait>(
    db: &C,
    owner: i64,
    author: i64,
) -> Result<(), sea_orm::DbErr> {
    list_feed::Entity::delete_many()
        .filter(list_feed::Column::ListId.in_subquery(lists_of_owner(owner)))
        .filter(list_feed::Column::AuthorId.eq(author))
        .exec(db)
        .await?;
    Ok(())
}

/// The ids of `owner`'s lists, as a subquery.
pub(super) fn lists_of_owner(owner: i64) -> sea_orm::sea_query::SelectStatement {
    Query::select()
        .column(lists::Column::Id)
        .from(lists::Entity)
        .and_where(lists::Column::AccountId.eq(owner))
        .to_owned()
}

#[async_trait]
impl ListStore for SeaStore {
    async fn insert_list(&self, list: &ListRecord) -> StoreResult<()> {
        lists::Entity::insert(lists::ActiveModel {
            id: Set(list.id.as_i64()),
            account_id: Set(list.account_id.as_i64()),
            title: Set(list.title.clone()),
            replies_policy: Set(list.replies_policy.as_str().to_string()),
            exclusive: Set(list.exclusive),
        })
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn list_by_id(&self, id: Id) -> StoreResult<Option<ListRecord>> {
        lists::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(list_from_row)
            .transpose()
    }

    async fn lists_of(&self, account: Id) -> StoreResult<Vec<ListRecord>> {
        lists_from_rows(
            lists::Entity::find()
                .filter(lists::Column::AccountId.eq(account.as_i64()))
                .order_by_asc(lists::Column::Id)
                .all(&self.db)
                .await
                .map_err(backend_err)?,
        )
    }

    async fn update_list(&self, list: &ListRecord) -> StoreResult<bool> {
        let res = lists::Entity::update_many()
            .set(lists::ActiveModel {
                title: Set(list.title.clone()),
                replies_policy: Set(list.replies_policy.as_str().to_string()),
                exclusive: Set(list.exclusive),
                ..Default::default()
            })
            .filter(lists::Column::Id.eq(list.id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn delete_list(&self, id: Id) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = delete_lists(&tx, || {
            Query::select()
                .column(lists::Column::Id)
                .from(lists::Entity)
                .and_where(lists::Column::Id.eq(id.as_i64()))
                .to_owned()
        })
        .await
        .map_err(backend_err);
        finish(tx, res).await.map(|n| n > 0)
    }

    async fn add_list_accounts(&self, list_id: Id, accounts: &[Id]) -> StoreResult<()> {
        if self.list_by_id(list_id).await?.is_none() {
            return Err(StoreError::NotFound);
        }
        let mut ids: Vec<i64> = accounts.iter().map(|a| a.as_i64()).collect();
        ids.sort_unstable();
        if ids.windows(2).any(|w| w[0] == w[1]) {
            return Err(StoreError::AlreadyExists("list_account".into()));
        }
        if ids.is_empty() {
            return Ok(());
        }
        let rows = ids.into_iter().map(|a| list_accounts::ActiveModel {
            list_id: Set(list_id.as_i64()),
            account_id: Set(a),
        });
        // One statement: a member already there fails it whole.
        list_accounts::Entity::insert_many(rows)
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn remove_list_accounts(&self, list_id: Id, accounts: &[Id]) -> StoreResult<u64> {
        let ids: Vec<i64> = accounts.iter().map(|a| a.as_i64()).collect();
        if ids.is_empty() {
            return Ok(0);
        }
        let tx = self.begin_write().await?;
        let res = remove_members(&tx, list_id.as_i64(), &ids)
            .await
            .map_err(backend_err);
        finish(tx, res).await
    }

    async fn remove_from_lists(&self, owner: Id, account: Id) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = async {
            list_accounts::Entity::delete_many()
                .filter(list_accounts::Column::ListId.in_subquery(lists_of_owner(owner.as_i64())))
                .filter(list_accounts::Column::AccountId.eq(account.as_i64()))
                .exec(&tx)
                .await?;
            remove_owner_list_entries(&tx, owner.as_i64(), account.as_i64()).await
        }
        .await
        .map_err(backend_err);
        finish(tx, res).await
    }

    async fn list_accounts_page(&self, list_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        let q = list_accounts::Entity::find()
            .filter(list_accounts::Column::ListId.eq(list_id.as_i64()));
        paging::ids(&self.db, q, list_accounts::Column::AccountId, &page)
            .await
            .map_err(backend_err)
    }

    async fn lists_with_member(
        &self,
        account: Id,
        owner: Option<Id>,
    ) -> StoreResult<Vec<ListRecord>> {
        let mut q = lists::Entity::find().filter(
            lists::Column::Id.in_subquery(
                Query::select()
                    .column(list_accounts::Column::ListId)
                    .from(list_accounts::Entity)
                    .and_where(list_accounts::Column::AccountId.eq(account.as_i64()))
                    .to_owned(),
            ),
        );
        if let Some(o) = owner {
            q = q.filter(lists::Column::AccountId.eq(o.as_i64()));
        }
        lists_from_rows(
            q.order_by_asc(lists::Column::Id)
                .all(&self.db)
                .await
                .map_err(backend_err)?,
        )
    }
}
