//! `GET /users/:username/statuses/:id/replies`: A public status's replies, as an ActivityPub collection.

use http::Method;
use serde::Deserialize;

use super::{local_account, require_signed_fetch};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::federation_runner::RepliesQuery;

/// A public or unlisted status's public and unlisted replies, as Mastodon serves them: an
/// unordered `Collection` embedding its first page; pages of 60, oldest first, the author's
/// own replies first (`?page=true`), then everyone else's (`&only_other_accounts=true`), later
/// ones after `min_id`. Items are the replies' ActivityPub ids. Under authorized fetch, only to
/// a signed request from someone the author does not block.
/// <https://docs.joinmastodon.org/spec/activitypub/>
pub struct RepliesCollection;

/// The status, and the page asked for.
#[derive(Debug, Deserialize)]
pub struct RepliesPath {
    /// The author's username.
    pub username: String,
    /// The status id.
    pub id: String,
    /// Any value asks for a page rather than the collection.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub page: Option<String>,
    /// `true`: replies by others than the author.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub only_other_accounts: Option<String>,
    /// A later page: replies newer than this.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub min_id: Option<String>,
}

impl Endpoint for RepliesCollection {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/statuses/:id/replies";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = RepliesPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: RepliesPath) -> ApiResult<Negotiated> {
        let account = local_account(app, &r.username).await?;
        require_signed_fetch(app, caller, &account).await?;
        let id = r.id.parse().map_err(|_| ApiError::not_found())?;
        let query = RepliesQuery {
            page: r.page.is_some(),
            only_other_accounts: matches!(r.only_other_accounts.as_deref(), Some("true" | "1")),
            min_id: r.min_id.as_deref().and_then(|m| m.parse().ok()),
        };
        let doc = app.render_ap_replies(&account, id, query).await?;
        Ok(Negotiated::Activity(doc.to_string()))
    }
}
