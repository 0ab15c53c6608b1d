//! `StatusEditStore` for `SeaStore`: editing a status in place (its editable columns, mentions,
//! tags and media) while appending to its revision history in `status_edits`.

use async_trait::async_trait;
use fedblog_core::store::{StatusEditRecord, StatusEditStore, StatusRecord};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::entity::{status_edits, status_mentions, status_tags, statuses};
use super::media::{attach_media, decode_ids, encode_ids};
use super::statuses::insert_mention_and_tag_rows;
use super::{SeaStore, backend_err, finish};

fn edit_row(status_id: i64, r: &StatusEditRecord) -> StoreResult<status_edits::ActiveModel> {
    let poll_options = r
        .poll_options
        .as_ref()
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| StoreError::Backend(e.to_string()))?;
    Ok(status_edits::ActiveModel {
        id: Set(r.id.as_i64()),
        status_id: Set(status_id),
        account_id: Set(r.account_id.as_i64()),
        text: Set(r.text.clone()),
        content: Set(r.content.clone()),
        spoiler_text: Set(r.spoiler_text.clone()),
        sensitive: Set(r.sensitive),
        created_at: Set(r.created_at),
        media_ids: Set(encode_ids(&r.media_ids)),
        poll_options: Set(poll_options),
    })
}

fn edit_from_row(m: status_edits::Model) -> StoreResult<StatusEditRecord> {
    let poll_options = m
        .poll_options
        .as_deref()
        .map(serde_json::from_str::<Vec<String>>)
        .transpose()
        .map_err(|e| {
            StoreError::Backend(format!(
                "status_edits.poll_options is not a JSON array of strings: {e}"
            ))
        })?;
    Ok(StatusEditRecord {
        id: Id::from_i64(m.id),
        status_id: Id::from_i64(m.status_id),
        account_id: Id::from_i64(m.account_id),
        text: m.text,
        content: m.content,
        spoiler_text: m.spoiler_text,
        sensitive: m.sensitive,
        media_ids: decode_ids(&m.media_ids, "status_edits.media_ids")?,
        poll_options,
        created_at: m.created_at,
    })
}

/// The body of `update_status`, inside its transaction. The revisions are filed under
/// `status.id` (the history of the status being edited), whatever their own `status_id` says.
async fn update_status_rows<C: ConnectionTrait>(
    db: &C,
    status: &StatusRecord,
    revisions: &[StatusEditRecord],
) -> StoreResult<()> {
    let id = status.id.as_i64();
    let author: Option<i64> = statuses::Entity::find_by_id(id)
        .select_only()
        .column(statuses::Column::AccountId)
        .into_tuple()
        .one(db)
        .await
        .map_err(backend_err)?;
    let Some(author) = author else {
        return Err(StoreError::NotFound);
    };
    // Newly listed media join the status; those dropped stay attached (the history shows them).
    attach_media(db, &status.media_ids, Id::from_i64(author), status.id).await?;
    let updated = statuses::Entity::update_many()
        .col_expr(statuses::Column::Text, Expr::value(status.text.clone()))
        .col_expr(
            statuses::Column::Content,
            Expr::value(status.content.clone()),
        )
        .col_expr(
            statuses::Column::SpoilerText,
            Expr::value(status.spoiler_text.clone()),
        )
        .col_expr(statuses::Column::Sensitive, Expr::value(status.sensitive))
        .col_expr(
            statuses::Column::Language,
            Expr::value(status.language.clone()),
        )
        .col_expr(
            statuses::Column::MediaIds,
            Expr::value(encode_ids(&status.media_ids)),
        )
        // Kept for the timelines' `only_media` filter.
        .col_expr(statuses::Column::HasMedia, Expr::value(status.has_media()))
        .col_expr(statuses::Column::EditedAt, Expr::value(status.edited_at))
        .filter(statuses::Column::Id.eq(id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    if updated.rows_affected == 0 {
        return Err(StoreError::NotFound);
    }
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
    insert_mention_and_tag_rows(db, status).await?;
    if !revisions.is_empty() {
        let rows = revisions
            .iter()
            .map(|r| edit_row(id, r))
            .collect::<StoreResult<Vec<_>>>()?;
        status_edits::Entity::insert_many(rows)
            .exec_without_returning(db)
            .await
            .map_err(backend_err)?;
    }
    Ok(())
}

#[async_trait]
impl StatusEditStore for SeaStore {
    async fn update_status(
        &self,
        status: &StatusRecord,
        revisions: &[StatusEditRecord],
    ) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = update_status_rows(&tx, status, revisions).await;
        finish(tx, res).await
    }

    async fn status_edits(&self, status_id: Id) -> StoreResult<Vec<StatusEditRecord>> {
        let rows = status_edits::Entity::find()
            .filter(status_edits::Column::StatusId.eq(status_id.as_i64()))
            .order_by_asc(status_edits::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        rows.into_iter().map(edit_from_row).collect()
    }
}
