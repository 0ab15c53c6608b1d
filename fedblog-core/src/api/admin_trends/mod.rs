//! Trends as staff review them (`/api/v1/admin/trends`): the hashtags, statuses, links and
//! publishers in use, reviewed or not, and approving or rejecting each for trends.
//! <https://docs.joinmastodon.org/methods/admin/trends/>
//!
//! Every endpoint takes a user token with `admin:read` (lists) or `admin:write` (approve,
//! reject), then a role granting Manage Taxonomies, else 403. The rankings are stand-ins over
//! what exists today (see `services/trends.rs`; issue 28 scores them properly): hashtags used
//! this week by the most accounts, statuses favourited or reblogged this week by the most
//! accounts. Lists are offset-paginated as Mastodon's (`offset`, `limit`), with a `Link` header.
//! A store without moderation data answers 404 for the rankings and status reviews.
//!
//! Links are preview cards shared this week (ranked as `services/cards.rs` says) and
//! publishers the domains of cards; approving or rejecting one records a trend review, and an
//! id that names none is a 404 `Record not found`.

pub mod approve_trend_link;
pub mod approve_trend_publisher;
pub mod approve_trend_status;
pub mod approve_trend_tag;
pub mod list_trend_links;
pub mod list_trend_publishers;
pub mod list_trend_statuses;
pub mod list_trend_tags;
pub mod reject_trend_link;
pub mod reject_trend_publisher;
pub mod reject_trend_status;
pub mod reject_trend_tag;

use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Json, path_id};
use crate::entities::{AdminTag, AdminTrendLink, AdminTrendPublisher, AdminTrendStatus};
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::permissions::{Permissions, require};

/// Parameters of an offset-paginated list of trends.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TrendsPageRequest {
    /// How many to skip.
    #[serde(deserialize_with = "de::opt_i64")]
    pub offset: Option<i64>,
    /// How many.
    #[serde(deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
}

/// The `Link` header of an offset-paginated list served at the caller's path: `next` when the
/// page is full, `prev` when it did not start at the top, both with the page's `limit`.
fn offset_link(
    app: &App,
    caller: &Caller,
    offset: u64,
    limit: u64,
    count: usize,
) -> Option<String> {
    let url = format!("{}{}", app.base_url(), caller.info.path);
    let mut rels = Vec::with_capacity(2);
    if count as u64 >= limit && limit > 0 {
        rels.push(format!(
            "<{url}?limit={limit}&offset={}>; rel=\"next\"",
            offset + limit
        ));
    }
    if offset > 0 {
        rels.push(format!(
            "<{url}?limit={limit}&offset={}>; rel=\"prev\"",
            offset.saturating_sub(limit)
        ));
    }
    (!rels.is_empty()).then(|| rels.join(", "))
}

/// Approves (`trendable`) or rejects the hashtag `id` for the caller, who manages taxonomies.
async fn review_tag(
    app: &App,
    caller: &Caller,
    id: &str,
    trendable: bool,
) -> ApiResult<Json<AdminTag>> {
    require(caller, Permissions::MANAGE_TAXONOMIES)?;
    let view = app.trends().review_tag(path_id(id)?, trendable).await?;
    Ok(Json(app.render_admin_tag(&view)))
}

/// Approves (`trendable`) or rejects the status `id` for the caller, who manages taxonomies.
async fn review_status(
    app: &App,
    caller: &Caller,
    id: &str,
    trendable: bool,
) -> ApiResult<Json<AdminTrendStatus>> {
    let me = require(caller, Permissions::MANAGE_TAXONOMIES)?;
    let view = app.trends().review_status(path_id(id)?, trendable).await?;
    app.render_admin_trend_statuses(std::slice::from_ref(&view), me)
        .await?
        .pop()
        .map(Json)
        .ok_or_else(ApiError::not_found)
}

/// Approves (`trendable`) or rejects the link (preview card) `id` for the caller, who manages
/// taxonomies. 404 when no card has that id.
async fn review_link(
    app: &App,
    caller: &Caller,
    id: &str,
    trendable: bool,
) -> ApiResult<Json<AdminTrendLink>> {
    require(caller, Permissions::MANAGE_TAXONOMIES)?;
    let view = app.cards().review_link(path_id(id)?, trendable).await?;
    Ok(Json(app.render_admin_trend_link(&view)))
}

/// Approves (`trendable`) or rejects the publisher of links `id` for the caller, who manages
/// taxonomies. 404 when no publisher has that id.
async fn review_publisher(
    app: &App,
    caller: &Caller,
    id: &str,
    trendable: bool,
) -> ApiResult<Json<AdminTrendPublisher>> {
    require(caller, Permissions::MANAGE_TAXONOMIES)?;
    let view = app
        .cards()
        .review_publisher(path_id(id)?, trendable)
        .await?;
    Ok(Json(app.render_admin_trend_publisher(&view)))
}
