//! `MediaStore` for `SeaStore`: the `media_attachments` rows, and the helpers the status, edit
//! and account stores use to attach, detach and remove media inside their transactions; and the
//! `custom_emojis` rows.

use std::collections::{BTreeMap, BTreeSet};

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    CustomEmojiFilter, CustomEmojiRecord, MediaKind, MediaRecord, MediaStore,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Condition, Expr, ExprTrait, Func, OnConflict, SelectStatement};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::entity::{custom_emojis, media_attachments};
use super::{IN_CHUNK, SeaStore, backend_err, directory, finish, paging};

/// `(shortcode, domain)` keys per lookup query: two bind parameters each.
const EMOJI_KEY_CHUNK: usize = 200;

/// Ordered ids as stored in `statuses.media_ids` and `status_edits.media_ids`: comma-separated
/// decimal, `''` for none.
pub(super) fn encode_ids(ids: &[Id]) -> String {
    ids.iter()
        .map(|id| id.as_i64().to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The inverse of [`encode_ids`]; `column` names the column in the error.
pub(super) fn decode_ids(s: &str, column: &str) -> StoreResult<Vec<Id>> {
    if s.is_empty() {
        return Ok(vec![]);
    }
    s.split(',')
        .map(|part| {
            part.parse::<i64>().map(Id::from_i64).map_err(|_| {
                StoreError::Backend(format!("{column} is not a comma-separated id list: {s:?}"))
            })
        })
        .collect()
}

fn media_row(m: &MediaRecord) -> media_attachments::ActiveModel {
    media_attachments::ActiveModel {
        id: Set(m.id.as_i64()),
        account_id: Set(m.account_id.as_i64()),
        status_id: Set(m.status_id.map(Id::as_i64)),
        scheduled_status_id: Set(m.scheduled_status_id.map(Id::as_i64)),
        kind: Set(m.kind.as_str().to_string()),
        file_key: Set(m.file_key.clone()),
        file_size: Set(m.file_size),
        preview_key: Set(m.preview_key.clone()),
        thumbnail_key: Set(m.thumbnail_key.clone()),
        description: Set(m.description.clone()),
        focus_x: Set(m.focus.map(|(x, _)| x)),
        focus_y: Set(m.focus.map(|(_, y)| y)),
        meta: Set(m.meta.clone()),
        blurhash: Set(m.blurhash.clone()),
        processed: Set(m.processed),
        remote_url: Set(m.remote_url.clone()),
        created_at: Set(m.created_at),
    }
}

fn media_from_row(m: media_attachments::Model) -> StoreResult<MediaRecord> {
    let kind = MediaKind::parse(&m.kind).ok_or_else(|| {
        StoreError::Backend(format!(
            "unknown media kind {:?} in media_attachments.kind",
            m.kind
        ))
    })?;
    Ok(MediaRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.account_id),
        status_id: m.status_id.map(Id::from_i64),
        scheduled_status_id: m.scheduled_status_id.map(Id::from_i64),
        kind,
        file_key: m.file_key,
        file_size: m.file_size,
        preview_key: m.preview_key,
        thumbnail_key: m.thumbnail_key,
        description: m.description,
        focus: m.focus_x.zip(m.focus_y),
        meta: m.meta,
        blurhash: m.blurhash,
        processed: m.processed,
        remote_url: m.remote_url,
        created_at: m.created_at,
    })
}

/// The stored `custom_emojis.domain` of a domain: `''` for this server's own (`None`), so that
/// the unique index on `(shortcode, domain)` holds for them too.
fn emoji_domain(domain: Option<&str>) -> &str {
    domain.unwrap_or("")
}

/// The row of `e` under the id `id`.
fn emoji_row(id: Id, e: &CustomEmojiRecord) -> custom_emojis::ActiveModel {
    custom_emojis::ActiveModel {
        id: Set(id.as_i64()),
        shortcode: Set(e.shortcode.clone()),
        domain: Set(emoji_domain(e.domain.as_deref()).to_string()),
        uri: Set(e.uri.clone()),
        image_url: Set(e.image_url.clone()),
        static_url: Set(e.static_url.clone()),
        visible_in_picker: Set(e.visible_in_picker),
        category: Set(e.category.clone()),
        disabled: Set(e.disabled),
        updated_at: Set(e.updated_at),
    }
}

fn emoji_from_row(r: custom_emojis::Model) -> CustomEmojiRecord {
    CustomEmojiRecord {
        id: Id::from_i64(r.id),
        shortcode: r.shortcode,
        domain: (!r.domain.is_empty()).then_some(r.domain),
        uri: r.uri,
        image_url: r.image_url,
        static_url: r.static_url,
        visible_in_picker: r.visible_in_picker,
        category: r.category,
        disabled: r.disabled,
        updated_at: r.updated_at,
    }
}

/// Inserts `rows`, or, for a `(shortcode, domain)` stored already, replaces all but its id.
async fn upsert_emojis<C: ConnectionTrait>(
    db: &C,
    rows: &[custom_emojis::ActiveModel],
) -> StoreResult<()> {
    use custom_emojis::Column as C;
    for chunk in rows.chunks(IN_CHUNK) {
        custom_emojis::Entity::insert_many(chunk.iter().cloned())
            .on_conflict(
                OnConflict::columns([C::Shortcode, C::Domain])
                    .update_columns([
                        C::Uri,
                        C::ImageUrl,
                        C::StaticUrl,
                        C::VisibleInPicker,
                        C::Category,
                        C::Disabled,
                        C::UpdatedAt,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(db)
            .await
            .map_err(backend_err)?;
    }
    Ok(())
}

/// Attaches the media `ids` to `status`, all or nothing: each must exist, be `account`'s, and be
/// unattached or attached to `status` already. One conditional `UPDATE` per chunk; if fewer rows
/// match than there are distinct ids, `AlreadyExists("media")`, and the caller's transaction
/// rolls back whatever was attached.
pub(super) async fn attach_media<C: ConnectionTrait>(
    db: &C,
    ids: &[Id],
    account: Id,
    status: Id,
) -> StoreResult<()> {
    let distinct: Vec<i64> = ids
        .iter()
        .map(|id| id.as_i64())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut attached = 0u64;
    for chunk in distinct.chunks(IN_CHUNK) {
        let res = media_attachments::Entity::update_many()
            .col_expr(
                media_attachments::Column::StatusId,
                Expr::value(status.as_i64()),
            )
            .filter(media_attachments::Column::Id.is_in(chunk.iter().copied()))
            .filter(media_attachments::Column::AccountId.eq(account.as_i64()))
            .filter(
                Condition::any()
                    .add(media_attachments::Column::StatusId.is_null())
                    .add(media_attachments::Column::StatusId.eq(status.as_i64())),
            )
            .exec(db)
            .await
            .map_err(backend_err)?;
        attached += res.rows_affected;
    }
    if attached != distinct.len() as u64 {
        return Err(StoreError::AlreadyExists("media".into()));
    }
    Ok(())
}

/// Detaches the media of the statuses `ids` selects (part of `delete_status_dependents`): their
/// `status_id` and `scheduled_status_id` are cleared, so that they can be posted again.
pub(super) async fn detach_status_media<C: ConnectionTrait>(
    db: &C,
    ids: &impl Fn() -> SelectStatement,
) -> StoreResult<()> {
    media_attachments::Entity::update_many()
        .col_expr(
            media_attachments::Column::StatusId,
            Expr::value(Option::<i64>::None),
        )
        .col_expr(
            media_attachments::Column::ScheduledStatusId,
            Expr::value(Option::<i64>::None),
        )
        .filter(media_attachments::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

/// Removes an account's media records (`AccountStore::delete_account`; its files are the
/// caller's to remove).
pub(super) async fn delete_account_media<C: ConnectionTrait>(
    db: &C,
    account: i64,
) -> StoreResult<()> {
    media_attachments::Entity::delete_many()
        .filter(media_attachments::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

#[async_trait]
impl MediaStore for SeaStore {
    async fn insert_media(&self, media: &MediaRecord) -> StoreResult<()> {
        media_attachments::Entity::insert(media_row(media))
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn media_by_id(&self, id: Id) -> StoreResult<Option<MediaRecord>> {
        media_attachments::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(media_from_row)
            .transpose()
    }

    async fn media_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<MediaRecord>> {
        let distinct: Vec<i64> = ids
            .iter()
            .map(|id| id.as_i64())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut out = Vec::with_capacity(distinct.len());
        for chunk in distinct.chunks(IN_CHUNK) {
            let rows = media_attachments::Entity::find()
                .filter(media_attachments::Column::Id.is_in(chunk.iter().copied()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            for row in rows {
                out.push(media_from_row(row)?);
            }
        }
        Ok(out)
    }

    async fn update_media(&self, media: &MediaRecord) -> StoreResult<()> {
        let update = media_attachments::Entity::update_many()
            .col_expr(
                media_attachments::Column::ScheduledStatusId,
                Expr::value(media.scheduled_status_id.map(Id::as_i64)),
            )
            .col_expr(
                media_attachments::Column::ThumbnailKey,
                Expr::value(media.thumbnail_key.clone()),
            )
            .col_expr(
                media_attachments::Column::Description,
                Expr::value(media.description.clone()),
            )
            .col_expr(
                media_attachments::Column::FocusX,
                Expr::value(media.focus.map(|(x, _)| x)),
            )
            .col_expr(
                media_attachments::Column::FocusY,
                Expr::value(media.focus.map(|(_, y)| y)),
            );
        self.update_one_media(update, media.id).await
    }

    async fn finish_media_processing(&self, media: &MediaRecord) -> StoreResult<()> {
        let update = media_attachments::Entity::update_many()
            .col_expr(
                media_attachments::Column::PreviewKey,
                Expr::value(media.preview_key.clone()),
            )
            .col_expr(
                media_attachments::Column::Meta,
                Expr::value(media.meta.clone()),
            )
            .col_expr(
                media_attachments::Column::Blurhash,
                Expr::value(media.blurhash.clone()),
            )
            .col_expr(media_attachments::Column::Processed, Expr::value(true));
        self.update_one_media(update, media.id).await
    }

    async fn delete_unattached_media(&self, id: Id) -> StoreResult<Option<MediaRecord>> {
        // One statement: a concurrent attach either happened first (nothing is deleted) or
        // waits and then finds no row to attach.
        let rows = media_attachments::Entity::delete_many()
            .filter(media_attachments::Column::Id.eq(id.as_i64()))
            .filter(media_attachments::Column::StatusId.is_null())
            .filter(media_attachments::Column::ScheduledStatusId.is_null())
            .exec_with_returning(&self.db)
            .await
            .map_err(backend_err)?;
        rows.into_iter().next().map(media_from_row).transpose()
    }

    async fn account_media(&self, account_id: Id) -> StoreResult<Vec<MediaRecord>> {
        media_attachments::Entity::find()
            .filter(media_attachments::Column::AccountId.eq(account_id.as_i64()))
            .all(&self.db)
            .await
            .map_err(backend_err)?
            .into_iter()
            .map(media_from_row)
            .collect()
    }

    async fn save_custom_emojis(&self, emojis: &[CustomEmojiRecord]) -> StoreResult<()> {
        // One row per key (an upsert may not touch a row twice): the first id given for it, as
        // if saved one after the other, and the last fields.
        let mut by_key: BTreeMap<(&str, &str), (Id, &CustomEmojiRecord)> = BTreeMap::new();
        for e in emojis {
            let key = (e.shortcode.as_str(), emoji_domain(e.domain.as_deref()));
            by_key
                .entry(key)
                .and_modify(|(_, last)| *last = e)
                .or_insert((e.id, e));
        }
        let rows: Vec<custom_emojis::ActiveModel> = by_key
            .into_values()
            .map(|(id, e)| emoji_row(id, e))
            .collect();
        if rows.len() <= IN_CHUNK {
            return upsert_emojis(&self.db, &rows).await;
        }
        let tx = self.begin_write().await?;
        let result = upsert_emojis(&tx, &rows).await;
        finish(tx, result).await
    }

    async fn custom_emojis_by_keys(
        &self,
        keys: &[(String, Option<String>)],
    ) -> StoreResult<Vec<CustomEmojiRecord>> {
        let distinct: Vec<(&str, &str)> = keys
            .iter()
            .map(|(shortcode, domain)| (shortcode.as_str(), emoji_domain(domain.as_deref())))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut out = Vec::with_capacity(distinct.len());
        for chunk in distinct.chunks(EMOJI_KEY_CHUNK) {
            let any = chunk
                .iter()
                .fold(Condition::any(), |any, &(shortcode, domain)| {
                    any.add(
                        Condition::all()
                            .add(custom_emojis::Column::Shortcode.eq(shortcode))
                            .add(custom_emojis::Column::Domain.eq(domain)),
                    )
                });
            let rows = custom_emojis::Entity::find()
                .filter(any)
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            out.extend(rows.into_iter().map(emoji_from_row));
        }
        Ok(out)
    }

    fn manages_custom_emojis(&self) -> bool {
        true
    }

    async fn list_custom_emojis(
        &self,
        filter: &CustomEmojiFilter,
        page: Page,
    ) -> StoreResult<Vec<CustomEmojiRecord>> {
        use custom_emojis::Column as C;
        let mut query = custom_emojis::Entity::find();
        match filter.local {
            Some(true) => query = query.filter(C::Domain.eq("")),
            Some(false) => query = query.filter(C::Domain.ne("")),
            None => {}
        }
        if let Some(domain) = &filter.domain {
            query = query.filter(C::Domain.eq(domain.as_str()));
        }
        if let Some(text) = &filter.shortcode {
            let pattern = directory::like(format!(
                "%{}%",
                directory::escape_like(&text.to_lowercase())
            ));
            query = query.filter(Expr::expr(Func::lower(Expr::col(C::Shortcode))).like(pattern));
        }
        if filter.enabled_only {
            query = query.filter(C::Disabled.eq(false));
        }
        let rows = paging::apply(query, C::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(rows, &page)
            .into_iter()
            .map(emoji_from_row)
            .collect())
    }

    async fn custom_emoji_by_id(&self, id: Id) -> StoreResult<Option<CustomEmojiRecord>> {
        Ok(custom_emojis::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(emoji_from_row))
    }

    async fn delete_custom_emoji(&self, id: Id) -> StoreResult<Option<CustomEmojiRecord>> {
        let rows = custom_emojis::Entity::delete_many()
            .filter(custom_emojis::Column::Id.eq(id.as_i64()))
            .exec_with_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(rows.into_iter().next().map(emoji_from_row))
    }
}

impl SeaStore {
    /// Runs an update of the attachment `id`; `NotFound` when it does not exist.
    async fn update_one_media(
        &self,
        update: sea_orm::UpdateMany<media_attachments::Entity>,
        id: Id,
    ) -> StoreResult<()> {
        let res = update
            .filter(media_attachments::Column::Id.eq(id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        if res.rows_affected == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_lists_round_trip_in_order() {
        let ids = vec![Id(7), Id(3), Id(u64::MAX), Id(3)];
        let s = encode_ids(&ids);
        assert_eq!(decode_ids(&s, "t.c").expect("decode"), ids);
        assert_eq!(encode_ids(&[]), "");
        assert_eq!(decode_ids("", "t.c").expect("decode"), Vec::<Id>::new());
        assert!(decode_ids("1,x", "t.c").is_err());
    }
}
