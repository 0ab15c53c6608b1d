//! `QuoteStore` for `SeaStore`: quotes (`quotes`, found by id, quoting status, or the ids of
//! their `QuoteRequest` and `QuoteAuthorization`) and the quote approval policies of statuses
//! (`status_quote_policies`). Deleting a status removes its quote and policy (foreign keys).

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{QuotePolicyBits, QuoteRecord, QuoteState, QuoteStore};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::entity::{quotes, status_quote_policies};
use super::{IN_CHUNK, SeaStore, backend_err, paging};

fn quote_from_row(m: quotes::Model) -> StoreResult<QuoteRecord> {
    Ok(QuoteRecord {
        id: Id::from_i64(m.id),
        status_id: Id::from_i64(m.status_id),
        account_id: Id::from_i64(m.account_id),
        quoted_status_id: m.quoted_status_id.map(Id::from_i64),
        quoted_account_id: m.quoted_account_id.map(Id::from_i64),
        state: QuoteState::parse(&m.state)
            .ok_or_else(|| StoreError::Backend(format!("unknown state {:?} in quotes", m.state)))?,
        activity_uri: m.activity_uri,
        approval_uri: m.approval_uri,
        created_at: m.created_at,
        updated_at: m.updated_at,
    })
}

fn ids_i64(ids: &[Id]) -> Vec<i64> {
    let mut v: Vec<i64> = ids.iter().map(|i| i.as_i64()).collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[async_trait]
impl QuoteStore for SeaStore {
    async fn insert_quote(&self, quote: &QuoteRecord) -> StoreResult<()> {
        let row = quotes::ActiveModel {
            id: Set(quote.id.as_i64()),
            status_id: Set(quote.status_id.as_i64()),
            account_id: Set(quote.account_id.as_i64()),
            quoted_status_id: Set(quote.quoted_status_id.map(|i| i.as_i64())),
            quoted_account_id: Set(quote.quoted_account_id.map(|i| i.as_i64())),
            state: Set(quote.state.as_str().to_string()),
            activity_uri: Set(quote.activity_uri.clone()),
            approval_uri: Set(quote.approval_uri.clone()),
            created_at: Set(quote.created_at),
            updated_at: Set(quote.updated_at),
        };
        match quotes::Entity::insert(row)
            .exec_without_returning(&self.db)
            .await
        {
            Ok(_) => Ok(()),
            Err(e) => match backend_err(e) {
                StoreError::AlreadyExists(_) => Err(StoreError::AlreadyExists("quote".into())),
                other => Err(other),
            },
        }
    }

    async fn quote_by_id(&self, id: Id) -> StoreResult<Option<QuoteRecord>> {
        quotes::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(quote_from_row)
            .transpose()
    }

    async fn quotes_of_statuses(&self, status_ids: &[Id]) -> StoreResult<Vec<QuoteRecord>> {
        let mut out = vec![];
        for chunk in ids_i64(status_ids).chunks(IN_CHUNK) {
            let rows = quotes::Entity::find()
                .filter(quotes::Column::StatusId.is_in(chunk.to_vec()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            for r in rows {
                out.push(quote_from_row(r)?);
            }
        }
        Ok(out)
    }

    async fn update_quote(&self, quote: &QuoteRecord) -> StoreResult<()> {
        let res = quotes::Entity::update_many()
            .col_expr(
                quotes::Column::QuotedStatusId,
                Expr::value(quote.quoted_status_id.map(|i| i.as_i64())),
            )
            .col_expr(
                quotes::Column::QuotedAccountId,
                Expr::value(quote.quoted_account_id.map(|i| i.as_i64())),
            )
            .col_expr(quotes::Column::State, Expr::value(quote.state.as_str()))
            .col_expr(
                quotes::Column::ActivityUri,
                Expr::value(quote.activity_uri.clone()),
            )
            .col_expr(
                quotes::Column::ApprovalUri,
                Expr::value(quote.approval_uri.clone()),
            )
            .col_expr(quotes::Column::UpdatedAt, Expr::value(quote.updated_at))
            .filter(quotes::Column::Id.eq(quote.id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        if res.rows_affected == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    async fn accepted_quotes_of(
        &self,
        quoted_status_id: Id,
        page: Page,
    ) -> StoreResult<Vec<QuoteRecord>> {
        let query = quotes::Entity::find()
            .filter(quotes::Column::QuotedStatusId.eq(quoted_status_id.as_i64()))
            .filter(quotes::Column::State.eq(QuoteState::Accepted.as_str()));
        let rows = paging::apply(query, quotes::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        paging::finish(rows, &page)
            .into_iter()
            .map(quote_from_row)
            .collect()
    }

    async fn accepted_quote_counts(&self, quoted_status_ids: &[Id]) -> StoreResult<Vec<(Id, i64)>> {
        let mut out = vec![];
        for chunk in ids_i64(quoted_status_ids).chunks(IN_CHUNK) {
            let rows: Vec<(Option<i64>, i64)> = quotes::Entity::find()
                .select_only()
                .column(quotes::Column::QuotedStatusId)
                .column_as(quotes::Column::Id.count(), "n")
                .filter(quotes::Column::QuotedStatusId.is_in(chunk.to_vec()))
                .filter(quotes::Column::State.eq(QuoteState::Accepted.as_str()))
                .group_by(quotes::Column::QuotedStatusId)
                .into_tuple()
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            out.extend(
                rows.into_iter()
                    .filter_map(|(id, n)| id.map(|id| (Id::from_i64(id), n))),
            );
        }
        Ok(out)
    }

    async fn set_quote_policy(&self, status_id: Id, policy: QuotePolicyBits) -> StoreResult<()> {
        status_quote_policies::Entity::insert(status_quote_policies::ActiveModel {
            status_id: Set(status_id.as_i64()),
            policy: Set(policy.0),
        })
        .on_conflict(
            OnConflict::column(status_quote_policies::Column::StatusId)
                .update_column(status_quote_policies::Column::Policy)
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn quote_policies(&self, status_ids: &[Id]) -> StoreResult<Vec<(Id, QuotePolicyBits)>> {
        let mut out = vec![];
        for chunk in ids_i64(status_ids).chunks(IN_CHUNK) {
            let rows = status_quote_policies::Entity::find()
                .filter(status_quote_policies::Column::StatusId.is_in(chunk.to_vec()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            out.extend(
                rows.into_iter()
                    .map(|r| (Id::from_i64(r.status_id), QuotePolicyBits(r.policy))),
            );
        }
        Ok(out)
    }

    async fn quote_by_activity_uri(&self, uri: &str) -> StoreResult<Option<QuoteRecord>> {
        self.quote_where(quotes::Column::ActivityUri, uri).await
    }

    async fn quote_by_approval_uri(&self, uri: &str) -> StoreResult<Option<QuoteRecord>> {
        self.quote_where(quotes::Column::ApprovalUri, uri).await
    }
}

impl SeaStore {
    /// The first quote whose `column` (one of the two URI columns) is `uri`.
    async fn quote_where(
        &self,
        column: quotes::Column,
        uri: &str,
    ) -> StoreResult<Option<QuoteRecord>> {
        quotes::Entity::find()
            .filter(column.eq(uri))
            .order_by_asc(quotes::Column::Id)
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(quote_from_row)
            .transpose()
    }
}
