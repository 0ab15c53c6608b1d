//! `NotificationStore` for `SeaStore`: notifications read by cursor pages per account, filtered
//! by type, sender and policy in SQL, counted for the unread count.

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    NotificationQuery, NotificationRecord, NotificationStore, NotificationType,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::{
    ColumnTrait, Condition, EntityTrait, PaginatorTrait, QueryFilter, QuerySelect, Select,
};

use super::entity::notifications;
use super::{SeaStore, backend_err, paging};

fn notification_row(n: &NotificationRecord) -> notifications::ActiveModel {
    notifications::ActiveModel {
        id: Set(n.id.as_i64()),
        account_id: Set(n.account_id.as_i64()),
        from_account_id: Set(n.from_account_id.as_i64()),
        kind: Set(n.kind.as_str().to_string()),
        status_id: Set(n.status_id.map(Id::as_i64)),
        subject_id: Set(n.subject_id.map(Id::as_i64)),
        group_key: Set(n.group_key.clone()),
        filtered: Set(n.filtered),
        created_at: Set(n.created_at),
    }
}

pub(super) fn notification_from_row(m: notifications::Model) -> StoreResult<NotificationRecord> {
    Ok(NotificationRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.account_id),
        from_account_id: Id::from_i64(m.from_account_id),
        kind: NotificationType::parse(&m.kind)
            .ok_or_else(|| StoreError::Backend(format!("unknown notification type {}", m.kind)))?,
        status_id: m.status_id.map(Id::from_i64),
        subject_id: m.subject_id.map(Id::from_i64),
        group_key: m.group_key,
        filtered: m.filtered,
        created_at: m.created_at,
    })
}

fn kind_names(kinds: &[NotificationType]) -> Vec<&'static str> {
    kinds.iter().map(|k| k.as_str()).collect()
}

/// `account`'s notifications that `query` takes; `None` when it takes none (an empty `types`).
fn matching(account: Id, query: &NotificationQuery) -> Option<Select<notifications::Entity>> {
    let mut q =
        notifications::Entity::find().filter(notifications::Column::AccountId.eq(account.as_i64()));
    if let Some(types) = &query.types {
        if types.is_empty() {
            return None;
        }
        q = q.filter(notifications::Column::Kind.is_in(kind_names(types)));
    }
    if !query.exclude_types.is_empty() {
        q = q.filter(notifications::Column::Kind.is_not_in(kind_names(&query.exclude_types)));
    }
    if let Some(from) = query.from_account_id {
        q = q.filter(notifications::Column::FromAccountId.eq(from.as_i64()));
    }
    if let Some(key) = &query.group_key {
        q = q.filter(notifications::Column::GroupKey.eq(key.as_str()));
    }
    if !query.include_filtered {
        q = q.filter(notifications::Column::Filtered.eq(false));
    }
    Some(q)
}

#[async_trait]
impl NotificationStore for SeaStore {
    async fn insert_notifications(&self, notifications: &[NotificationRecord]) -> StoreResult<()> {
        if notifications.is_empty() {
            return Ok(());
        }
        // One statement: all rows or none.
        notifications::Entity::insert_many(notifications.iter().map(notification_row))
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn notification_by_id(&self, id: Id) -> StoreResult<Option<NotificationRecord>> {
        notifications::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(notification_from_row)
            .transpose()
    }

    async fn notifications_page(
        &self,
        account: Id,
        query: &NotificationQuery,
        page: Page,
    ) -> StoreResult<Vec<NotificationRecord>> {
        let Some(q) = matching(account, query) else {
            return Ok(vec![]);
        };
        let rows = paging::apply(q, notifications::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        paging::finish(rows, &page)
            .into_iter()
            .map(notification_from_row)
            .collect()
    }

    async fn count_notifications(
        &self,
        account: Id,
        query: &NotificationQuery,
        after: Option<Id>,
        limit: u64,
    ) -> StoreResult<u64> {
        let Some(mut q) = matching(account, query) else {
            return Ok(0);
        };
        if let Some(a) = after {
            q = q.filter(notifications::Column::Id.gt(a.as_i64()));
        }
        // Counted over a limited subquery, so a huge backlog costs no more than `limit` rows.
        q.select_only()
            .column(notifications::Column::Id)
            .limit(limit)
            .count(&self.db)
            .await
            .map_err(backend_err)
    }

    async fn dismiss_notification(&self, account: Id, id: Id) -> StoreResult<bool> {
        let res = notifications::Entity::delete_many()
            .filter(notifications::Column::Id.eq(id.as_i64()))
            .filter(notifications::Column::AccountId.eq(account.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn dismiss_notification_group(&self, account: Id, group_key: &str) -> StoreResult<u64> {
        let res = notifications::Entity::delete_many()
            .filter(notifications::Column::AccountId.eq(account.as_i64()))
            .filter(notifications::Column::GroupKey.eq(group_key))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected)
    }

    async fn clear_notifications(&self, account: Id) -> StoreResult<u64> {
        let res = notifications::Entity::delete_many()
            .filter(notifications::Column::AccountId.eq(account.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected)
    }

    async fn retract_notifications(
        &self,
        account: Id,
        from: Id,
        kind: Option<NotificationType>,
        status: Option<Id>,
    ) -> StoreResult<u64> {
        let mut cond = Condition::all()
            .add(notifications::Column::AccountId.eq(account.as_i64()))
            .add(notifications::Column::FromAccountId.eq(from.as_i64()));
        if let Some(k) = kind {
            cond = cond.add(notifications::Column::Kind.eq(k.as_str()));
        }
        if let Some(s) = status {
            cond = cond.add(notifications::Column::StatusId.eq(s.as_i64()));
        }
        let res = notifications::Entity::delete_many()
            .filter(cond)
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected)
    }
}
