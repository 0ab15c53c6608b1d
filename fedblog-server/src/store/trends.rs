//! What trends are scored from, for `SeaStore`'s `ModerationStore`: the uses of hashtags that
//! count towards trends (`trend_tag_uses`) and the statuses that may trend with the accounts
//! that favourited or reblogged them (`trend_status_candidates`). One statement each; the
//! scores themselves are computed by the trends service (`fedblog_core::services::trends`).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use fedblog_core::store::{TrendKind, TrendStatusCandidate, TrendTagUses, TrendUse};
use fedblog_core::{Id, StoreResult};
use sea_orm::sea_query::{Expr, ExprTrait, Func, JoinType, Query, SelectStatement};
use sea_orm::{ConnectionTrait, DatabaseConnection, FromQueryResult, Iterable};

use super::backend_err;
use super::entity::{accounts, status_tags, statuses, tags, trend_reviews};
use super::statuses::public_rows;
use super::tags::tag_from_row;

/// `ModerationStore::trend_tag_uses`: one row per use (every column of the tag, the status's
/// author and creation time), grouped into tags here.
pub(super) async fn tag_uses(
    db: &DatabaseConnection,
    since: DateTime<Utc>,
) -> StoreResult<Vec<TrendTagUses>> {
    let rows = db
        .query_all(&tag_uses_query(since))
        .await
        .map_err(backend_err)?;
    let mut by_tag: BTreeMap<i64, TrendTagUses> = BTreeMap::new();
    for row in &rows {
        let tag = tags::Model::from_query_result(row, "").map_err(backend_err)?;
        let account_id: i64 = row.try_get("", "use_account_id").map_err(backend_err)?;
        let at: DateTime<Utc> = row.try_get("", "use_at").map_err(backend_err)?;
        let entry = by_tag.entry(tag.id).or_insert_with(|| TrendTagUses {
            tag: tag_from_row(tag),
            uses: vec![],
        });
        entry.uses.push(TrendUse {
            account_id: Id::from_i64(account_id),
            at,
        });
    }
    Ok(by_tag.into_values().collect())
}

/// The statement of [`tag_uses`]: `status_tags` joined to the statuses (public, not reblogs,
/// created at or after `since`), their authors (neither suspended nor silenced) and the tags.
fn tag_uses_query(since: DateTime<Utc>) -> SelectStatement {
    let status = |c: statuses::Column| Expr::col((statuses::Entity, c));
    let account = |c: accounts::Column| Expr::col((accounts::Entity, c));
    Query::select()
        .columns(tags::Column::iter().map(|c| (tags::Entity, c)))
        .expr_as(status(statuses::Column::AccountId), "use_account_id")
        .expr_as(status(statuses::Column::CreatedAt), "use_at")
        .from(status_tags::Entity)
        .join(
            JoinType::InnerJoin,
            statuses::Entity,
            status(statuses::Column::Id)
                .equals((status_tags::Entity, status_tags::Column::StatusId)),
        )
        .join(
            JoinType::InnerJoin,
            tags::Entity,
            Expr::col((tags::Entity, tags::Column::Name))
                .equals((status_tags::Entity, status_tags::Column::Name)),
        )
        .join(
            JoinType::InnerJoin,
            accounts::Entity,
            account(accounts::Column::Id).equals((statuses::Entity, statuses::Column::AccountId)),
        )
        .cond_where(public_rows())
        .and_where(status(statuses::Column::CreatedAt).gte(since))
        .and_where(account(accounts::Column::SuspendedAt).is_null())
        .and_where(account(accounts::Column::SilencedAt).is_null())
        .to_owned()
}

/// `ModerationStore::trend_status_candidates`.
pub(super) async fn status_candidates(
    db: &DatabaseConnection,
    since: DateTime<Utc>,
) -> StoreResult<Vec<TrendStatusCandidate>> {
    let rows = db
        .query_all(&status_candidates_query(since))
        .await
        .map_err(backend_err)?;
    rows.iter()
        .map(|r| {
            let n: i64 = r.try_get("", "n_accounts")?;
            Ok(TrendStatusCandidate {
                status_id: Id::from_i64(r.try_get("", "id")?),
                account_id: Id::from_i64(r.try_get("", "account_id")?),
                created_at: r.try_get("", "created_at")?,
                language: r.try_get("", "language")?,
                accounts: u64::try_from(n).unwrap_or(0),
                trendable: r.try_get("", "trendable")?,
            })
        })
        .collect::<Result<Vec<_>, sea_orm::DbErr>>()
        .map_err(backend_err)
}

/// The statement of [`status_candidates`]: the statuses that may trend, with the distinct
/// accounts (the author aside) in `favourites` and in the reblogs of `statuses` (`fans`,
/// `UNION ALL`), and the status's review, if any (`trend_reviews`, left join).
fn status_candidates_query(since: DateTime<Utc>) -> SelectStatement {
    let fans = super::moderation::fans_query();
    let status = |c: statuses::Column| Expr::col((statuses::Entity, c));
    let account = |c: accounts::Column| Expr::col((accounts::Entity, c));
    let review = |c: trend_reviews::Column| Expr::col((trend_reviews::Entity, c));
    Query::select()
        .column((statuses::Entity, statuses::Column::Id))
        .column((statuses::Entity, statuses::Column::AccountId))
        .column((statuses::Entity, statuses::Column::CreatedAt))
        .column((statuses::Entity, statuses::Column::Language))
        .column((trend_reviews::Entity, trend_reviews::Column::Trendable))
        .expr_as(
            Func::count_distinct(Expr::col(("fans", "account_id"))),
            "n_accounts",
        )
        .from(statuses::Entity)
        .join(
            JoinType::InnerJoin,
            accounts::Entity,
            account(accounts::Column::Id).equals((statuses::Entity, statuses::Column::AccountId)),
        )
        .join_subquery(
            JoinType::InnerJoin,
            fans,
            "fans",
            Expr::col(("fans", "status_id")).equals((statuses::Entity, statuses::Column::Id)),
        )
        .join(
            JoinType::LeftJoin,
            trend_reviews::Entity,
            review(trend_reviews::Column::TargetId)
                .equals((statuses::Entity, statuses::Column::Id))
                .and(review(trend_reviews::Column::Kind).eq(TrendKind::Status.as_str())),
        )
        .cond_where(public_rows())
        .and_where(status(statuses::Column::InReplyToId).is_null())
        .and_where(status(statuses::Column::Sensitive).eq(false))
        .and_where(status(statuses::Column::SpoilerText).eq(""))
        .and_where(status(statuses::Column::CreatedAt).gte(since))
        .and_where(account(accounts::Column::Discoverable).eq(true))
        .and_where(account(accounts::Column::SuspendedAt).is_null())
        .and_where(account(accounts::Column::SilencedAt).is_null())
        .and_where(
            Expr::col(("fans", "account_id"))
                .not_equals((statuses::Entity, statuses::Column::AccountId)),
        )
        .group_by_col((statuses::Entity, statuses::Column::Id))
        .group_by_col((statuses::Entity, statuses::Column::AccountId))
        .group_by_col((statuses::Entity, statuses::Column::CreatedAt))
        .group_by_col((statuses::Entity, statuses::Column::Language))
        .group_by_col((trend_reviews::Entity, trend_reviews::Column::Trendable))
        .to_owned()
}
