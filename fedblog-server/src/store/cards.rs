//! `CardStore` for `SeaStore`: preview cards (`preview_cards`), the card each status shows
//! (`status_preview_cards`, which goes with its status by a foreign key) and the publishers of
//! cards (`preview_card_publishers`).

use std::collections::{BTreeSet, HashMap};

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use fedblog_core::store::{
    CardPublisherRecord, CardShareRecord, CardStore, CardType, PreviewCardRecord, Visibility,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait, JoinType, OnConflict, Query, SelectStatement};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use super::entity::{
    accounts, preview_card_publishers, preview_cards, status_preview_cards, statuses,
};
use super::{IN_CHUNK, SeaStore, backend_err};

fn card_from_row(m: preview_cards::Model) -> StoreResult<PreviewCardRecord> {
    Ok(PreviewCardRecord {
        id: Id::from_i64(m.id),
        card_type: CardType::parse(&m.card_type).ok_or_else(|| {
            StoreError::Backend(format!(
                "unknown card type {:?} in preview_cards",
                m.card_type
            ))
        })?,
        url: m.url,
        title: m.title,
        description: m.description,
        author_name: m.author_name,
        author_url: m.author_url,
        provider_name: m.provider_name,
        provider_url: m.provider_url,
        html: m.html,
        width: m.width,
        height: m.height,
        image_key: m.image_key,
        image_description: m.image_description,
        blurhash: m.blurhash,
        embed_url: m.embed_url,
        language: m.language,
        published_at: m.published_at,
        fetched_at: m.fetched_at,
    })
}

fn card_row(c: &PreviewCardRecord) -> preview_cards::ActiveModel {
    preview_cards::ActiveModel {
        id: Set(c.id.as_i64()),
        url: Set(c.url.clone()),
        title: Set(c.title.clone()),
        description: Set(c.description.clone()),
        card_type: Set(c.card_type.as_str().to_string()),
        author_name: Set(c.author_name.clone()),
        author_url: Set(c.author_url.clone()),
        provider_name: Set(c.provider_name.clone()),
        provider_url: Set(c.provider_url.clone()),
        html: Set(c.html.clone()),
        width: Set(c.width),
        height: Set(c.height),
        image_key: Set(c.image_key.clone()),
        image_description: Set(c.image_description.clone()),
        blurhash: Set(c.blurhash.clone()),
        embed_url: Set(c.embed_url.clone()),
        language: Set(c.language.clone()),
        published_at: Set(c.published_at),
        fetched_at: Set(c.fetched_at),
    }
}

/// Every column of `preview_cards` but its id and URL: what saving a card again replaces.
fn replaced_columns() -> Vec<preview_cards::Column> {
    use preview_cards::Column as C;
    vec![
        C::Title,
        C::Description,
        C::CardType,
        C::AuthorName,
        C::AuthorUrl,
        C::ProviderName,
        C::ProviderUrl,
        C::Html,
        C::Width,
        C::Height,
        C::ImageKey,
        C::ImageDescription,
        C::Blurhash,
        C::EmbedUrl,
        C::Language,
        C::PublishedAt,
        C::FetchedAt,
    ]
}

/// `CardStore::card_shares`: the card, author and creation time of every status created at or
/// after `since` that shows a card, is public and not a reblog, and whose author is neither
/// suspended nor silenced; counted by day in Rust (a week of shares).
fn shares_query(since: DateTime<Utc>) -> SelectStatement {
    Query::select()
        .column((
            status_preview_cards::Entity,
            status_preview_cards::Column::CardId,
        ))
        .column((statuses::Entity, statuses::Column::AccountId))
        .column((statuses::Entity, statuses::Column::CreatedAt))
        .from(status_preview_cards::Entity)
        .join(
            JoinType::InnerJoin,
            statuses::Entity,
            Expr::col((statuses::Entity, statuses::Column::Id)).equals((
                status_preview_cards::Entity,
                status_preview_cards::Column::StatusId,
            )),
        )
        .join(
            JoinType::InnerJoin,
            accounts::Entity,
            Expr::col((accounts::Entity, accounts::Column::Id))
                .equals((statuses::Entity, statuses::Column::AccountId)),
        )
        .and_where(Expr::col((statuses::Entity, statuses::Column::CreatedAt)).gte(since))
        .and_where(
            Expr::col((statuses::Entity, statuses::Column::Visibility))
                .eq(Visibility::Public.as_str()),
        )
        .and_where(Expr::col((statuses::Entity, statuses::Column::ReblogOfId)).is_null())
        .and_where(Expr::col((accounts::Entity, accounts::Column::SuspendedAt)).is_null())
        .and_where(Expr::col((accounts::Entity, accounts::Column::SilencedAt)).is_null())
        .to_owned()
}

#[async_trait]
impl CardStore for SeaStore {
    async fn save_preview_card(&self, card: &PreviewCardRecord) -> StoreResult<PreviewCardRecord> {
        preview_cards::Entity::insert(card_row(card))
            .on_conflict(
                OnConflict::column(preview_cards::Column::Url)
                    .update_columns(replaced_columns())
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        self.preview_card_by_url(&card.url)
            .await?
            .ok_or_else(|| StoreError::Backend("a saved preview card is missing".into()))
    }

    async fn preview_card_by_url(&self, url: &str) -> StoreResult<Option<PreviewCardRecord>> {
        preview_cards::Entity::find()
            .filter(preview_cards::Column::Url.eq(url))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(card_from_row)
            .transpose()
    }

    async fn preview_cards_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<PreviewCardRecord>> {
        let ids: BTreeSet<i64> = ids.iter().map(|id| id.as_i64()).collect();
        let ids: Vec<i64> = ids.into_iter().collect();
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(IN_CHUNK) {
            let rows = preview_cards::Entity::find()
                .filter(preview_cards::Column::Id.is_in(chunk.iter().copied()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            for row in rows {
                out.push(card_from_row(row)?);
            }
        }
        Ok(out)
    }

    async fn set_status_card(&self, status: Id, card: Option<Id>) -> StoreResult<()> {
        let known = statuses::Entity::find_by_id(status.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .is_some();
        if !known {
            return Err(StoreError::NotFound);
        }
        let Some(card) = card else {
            status_preview_cards::Entity::delete_by_id(status.as_i64())
                .exec(&self.db)
                .await
                .map_err(backend_err)?;
            return Ok(());
        };
        let card_known = preview_cards::Entity::find_by_id(card.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .is_some();
        if !card_known {
            return Err(StoreError::NotFound);
        }
        status_preview_cards::Entity::insert(status_preview_cards::ActiveModel {
            status_id: Set(status.as_i64()),
            card_id: Set(card.as_i64()),
        })
        .on_conflict(
            OnConflict::column(status_preview_cards::Column::StatusId)
                .update_column(status_preview_cards::Column::CardId)
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn status_cards(&self, statuses: &[Id]) -> StoreResult<Vec<(Id, PreviewCardRecord)>> {
        let ids: BTreeSet<i64> = statuses.iter().map(|id| id.as_i64()).collect();
        let ids: Vec<i64> = ids.into_iter().collect();
        let mut links = Vec::new();
        for chunk in ids.chunks(IN_CHUNK) {
            links.extend(
                status_preview_cards::Entity::find()
                    .filter(status_preview_cards::Column::StatusId.is_in(chunk.iter().copied()))
                    .all(&self.db)
                    .await
                    .map_err(backend_err)?,
            );
        }
        if links.is_empty() {
            return Ok(vec![]);
        }
        let card_ids: Vec<Id> = links.iter().map(|l| Id::from_i64(l.card_id)).collect();
        let cards: HashMap<i64, PreviewCardRecord> = self
            .preview_cards_by_ids(&card_ids)
            .await?
            .into_iter()
            .map(|c| (c.id.as_i64(), c))
            .collect();
        Ok(links
            .into_iter()
            .filter_map(|l| {
                cards
                    .get(&l.card_id)
                    .map(|c| (Id::from_i64(l.status_id), c.clone()))
            })
            .collect())
    }

    async fn card_shares(&self, since: DateTime<Utc>) -> StoreResult<Vec<CardShareRecord>> {
        let rows = self
            .db
            .query_all(&shares_query(since))
            .await
            .map_err(backend_err)?;
        let mut days: HashMap<(i64, NaiveDate), (i64, BTreeSet<i64>)> = HashMap::new();
        for r in rows {
            let card: i64 = r.try_get_by_index(0).map_err(backend_err)?;
            let account: i64 = r.try_get_by_index(1).map_err(backend_err)?;
            let created: DateTime<Utc> = r.try_get_by_index(2).map_err(backend_err)?;
            let day = days.entry((card, created.date_naive())).or_default();
            day.0 += 1;
            day.1.insert(account);
        }
        Ok(days
            .into_iter()
            .map(|((card, day), (uses, accounts))| CardShareRecord {
                card_id: Id::from_i64(card),
                day,
                uses,
                accounts: accounts.len() as i64,
            })
            .collect())
    }

    async fn card_publisher(&self, domain: &str, new_id: Id) -> StoreResult<CardPublisherRecord> {
        preview_card_publishers::Entity::insert(preview_card_publishers::ActiveModel {
            id: Set(new_id.as_i64()),
            domain: Set(domain.to_string()),
        })
        .on_conflict(
            OnConflict::column(preview_card_publishers::Column::Domain)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        let row = preview_card_publishers::Entity::find()
            .filter(preview_card_publishers::Column::Domain.eq(domain))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .ok_or_else(|| StoreError::Backend("a saved publisher is missing".into()))?;
        Ok(CardPublisherRecord {
            id: Id::from_i64(row.id),
            domain: row.domain,
        })
    }

    async fn card_publishers(&self) -> StoreResult<Vec<CardPublisherRecord>> {
        Ok(preview_card_publishers::Entity::find()
            .order_by_desc(preview_card_publishers::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?
            .into_iter()
            .map(|row| CardPublisherRecord {
                id: Id::from_i64(row.id),
                domain: row.domain,
            })
            .collect())
    }
}
