//! `AnnouncementStore` for `SeaStore`: announcements (`announcements`), who read them
//! (`announcement_dismissals`) and the reactions to them (`announcement_reactions`), which go
//! with their announcement and their account by foreign keys.

use async_trait::async_trait;
use fedblog_core::store::{
    AnnouncementReactionCount, AnnouncementReactionRecord, AnnouncementRecord, AnnouncementStore,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, Func, OnConflict};
use sea_orm::{
    ColumnTrait, EntityTrait, FromQueryResult, Order, QueryFilter, QueryOrder, QuerySelect,
};

use super::entity::{announcement_dismissals, announcement_reactions, announcements};
use super::{IN_CHUNK, SeaStore, backend_err};

fn announcement_from_row(m: announcements::Model) -> AnnouncementRecord {
    AnnouncementRecord {
        id: Id::from_i64(m.id),
        text: m.text,
        starts_at: m.starts_at,
        ends_at: m.ends_at,
        all_day: m.all_day,
        published: m.published,
        published_at: m.published_at,
        created_at: m.created_at,
        updated_at: m.updated_at,
    }
}

/// One name's reactions to one announcement, counted by the database.
#[derive(Debug, FromQueryResult)]
struct Counted {
    announcement_id: i64,
    name: String,
    custom_emoji_id: Option<i64>,
    count: i64,
}

impl SeaStore {
    /// Whether the announcement `id` exists.
    async fn announcement_exists(&self, id: Id) -> StoreResult<bool> {
        Ok(announcements::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .is_some())
    }
}

#[async_trait]
impl AnnouncementStore for SeaStore {
    async fn insert_announcement(&self, a: &AnnouncementRecord) -> StoreResult<()> {
        let row = announcements::ActiveModel {
            id: Set(a.id.as_i64()),
            text: Set(a.text.clone()),
            starts_at: Set(a.starts_at),
            ends_at: Set(a.ends_at),
            all_day: Set(a.all_day),
            published: Set(a.published),
            published_at: Set(a.published_at),
            created_at: Set(a.created_at),
            updated_at: Set(a.updated_at),
        };
        match announcements::Entity::insert(row)
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)
        {
            Ok(_) => Ok(()),
            Err(StoreError::AlreadyExists(_)) => {
                Err(StoreError::AlreadyExists("announcement".into()))
            }
            Err(e) => Err(e),
        }
    }

    async fn announcement_by_id(&self, id: Id) -> StoreResult<Option<AnnouncementRecord>> {
        Ok(announcements::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(announcement_from_row))
    }

    async fn update_announcement(&self, a: &AnnouncementRecord) -> StoreResult<()> {
        let res = announcements::Entity::update_many()
            .set(announcements::ActiveModel {
                text: Set(a.text.clone()),
                starts_at: Set(a.starts_at),
                ends_at: Set(a.ends_at),
                all_day: Set(a.all_day),
                published: Set(a.published),
                published_at: Set(a.published_at),
                updated_at: Set(a.updated_at),
                ..Default::default()
            })
            .filter(announcements::Column::Id.eq(a.id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        if res.rows_affected == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    async fn delete_announcement(&self, id: Id) -> StoreResult<()> {
        // The dismissals and reactions go with it (foreign keys).
        let res = announcements::Entity::delete_by_id(id.as_i64())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        if res.rows_affected == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    async fn list_announcements(
        &self,
        published_only: bool,
    ) -> StoreResult<Vec<AnnouncementRecord>> {
        let mut query = announcements::Entity::find();
        if published_only {
            query = query.filter(announcements::Column::Published.eq(true));
        }
        let mut out: Vec<AnnouncementRecord> = query
            .all(&self.db)
            .await
            .map_err(backend_err)?
            .into_iter()
            .map(announcement_from_row)
            .collect();
        // Few rows: ordered here, the same way on both engines.
        out.sort_by_key(|a| (a.starts_at.or(a.published_at).unwrap_or(a.created_at), a.id));
        Ok(out)
    }

    async fn dismiss_announcement(&self, account: Id, announcement: Id) -> StoreResult<bool> {
        if !self.announcement_exists(announcement).await? {
            return Err(StoreError::NotFound);
        }
        let row = announcement_dismissals::ActiveModel {
            account_id: Set(account.as_i64()),
            announcement_id: Set(announcement.as_i64()),
        };
        let added = announcement_dismissals::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([
                    announcement_dismissals::Column::AccountId,
                    announcement_dismissals::Column::AnnouncementId,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(added > 0)
    }

    async fn dismissed_announcements(
        &self,
        account: Id,
        announcements: &[Id],
    ) -> StoreResult<Vec<Id>> {
        let mut out = vec![];
        for chunk in announcements.chunks(IN_CHUNK) {
            let rows = announcement_dismissals::Entity::find()
                .filter(announcement_dismissals::Column::AccountId.eq(account.as_i64()))
                .filter(
                    announcement_dismissals::Column::AnnouncementId
                        .is_in(chunk.iter().map(|id| id.as_i64())),
                )
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            out.extend(rows.into_iter().map(|r| Id::from_i64(r.announcement_id)));
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    async fn add_announcement_reaction(&self, r: &AnnouncementReactionRecord) -> StoreResult<bool> {
        if !self.announcement_exists(r.announcement_id).await? {
            return Err(StoreError::NotFound);
        }
        let row = announcement_reactions::ActiveModel {
            announcement_id: Set(r.announcement_id.as_i64()),
            account_id: Set(r.account_id.as_i64()),
            name: Set(r.name.clone()),
            custom_emoji_id: Set(r.custom_emoji_id.map(|id| id.as_i64())),
            created_at: Set(r.created_at),
        };
        let added = announcement_reactions::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([
                    announcement_reactions::Column::AnnouncementId,
                    announcement_reactions::Column::AccountId,
                    announcement_reactions::Column::Name,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(added > 0)
    }

    async fn remove_announcement_reaction(
        &self,
        announcement: Id,
        account: Id,
        name: &str,
    ) -> StoreResult<bool> {
        let res = announcement_reactions::Entity::delete_many()
            .filter(announcement_reactions::Column::AnnouncementId.eq(announcement.as_i64()))
            .filter(announcement_reactions::Column::AccountId.eq(account.as_i64()))
            .filter(announcement_reactions::Column::Name.eq(name))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn announcement_reactions(
        &self,
        announcements: &[Id],
        viewer: Option<Id>,
    ) -> StoreResult<Vec<AnnouncementReactionCount>> {
        use announcement_reactions::Column as C;
        let mut out = vec![];
        for chunk in announcements.chunks(IN_CHUNK) {
            let ids: Vec<i64> = chunk.iter().map(|id| id.as_i64()).collect();
            let counted = announcement_reactions::Entity::find()
                .select_only()
                .column(C::AnnouncementId)
                .column(C::Name)
                .column_as(
                    Expr::from(Func::max(Expr::col(C::CustomEmojiId))),
                    "custom_emoji_id",
                )
                .column_as(Expr::from(Func::count(Expr::col(C::AccountId))), "count")
                .filter(C::AnnouncementId.is_in(ids.clone()))
                .group_by(C::AnnouncementId)
                .group_by(C::Name)
                .order_by(C::AnnouncementId, Order::Asc)
                .order_by(Func::min(Expr::col(C::CreatedAt)), Order::Asc)
                .order_by(C::Name, Order::Asc)
                .into_model::<Counted>()
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            let mine: Vec<(i64, String)> = match viewer {
                Some(v) => announcement_reactions::Entity::find()
                    .filter(C::AnnouncementId.is_in(ids))
                    .filter(C::AccountId.eq(v.as_i64()))
                    .all(&self.db)
                    .await
                    .map_err(backend_err)?
                    .into_iter()
                    .map(|r| (r.announcement_id, r.name))
                    .collect(),
                None => vec![],
            };
            out.extend(counted.into_iter().map(|c| {
                AnnouncementReactionCount {
                    me: mine
                        .iter()
                        .any(|(a, n)| *a == c.announcement_id && *n == c.name),
                    announcement_id: Id::from_i64(c.announcement_id),
                    custom_emoji_id: c.custom_emoji_id.map(Id::from_i64),
                    count: u64::try_from(c.count).unwrap_or(0),
                    name: c.name,
                }
            }));
        }
        Ok(out)
    }
}
