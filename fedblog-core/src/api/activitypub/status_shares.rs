//! `GET /users/:username/statuses/:id/shares`: how many accounts reblogged a public or unlisted
//! local status, as an ActivityPub `Collection` with its `totalItems` only (Mastodon serves
//! the count, not the accounts). Private and direct statuses are 404s, as for the status itself.

use http::Method;
use serde_json::json;

use super::StatusPath;
use super::status_activity::public_status;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;
use crate::federation::paths;

/// The reblogs count of a status, as a collection.
pub struct StatusShares;

impl Endpoint for StatusShares {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/statuses/:id/shares";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = StatusPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: StatusPath) -> ApiResult<Negotiated> {
        let status = public_status(app, caller, &r).await?;
        let url = paths::status(&app.base_url(), &r.username, status.id);
        let doc = json!({
            "@context": "https://www.w3.org/ns/activitystreams",
            "id": format!("{url}/shares"),
            "type": "Collection",
            "totalItems": status.reblogs_count.max(0),
        });
        Ok(Negotiated::Activity(doc.to_string()))
    }
}
