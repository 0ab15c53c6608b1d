//! `GET /users/:username/outbox`: An account's outbox: its public posts, newest first, as `Create` activities.

use http::Method;

use super::{CollectionPath, local_account};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;
use crate::services::federation_runner::Collection;

/// An account's outbox: its public posts, newest first, as `Create` activities. Paged as an `OrderedCollection`.
pub struct OutboxCollection;

impl Endpoint for OutboxCollection {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/outbox";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = CollectionPath;
    type Response = Negotiated;

    async fn handle(app: &App, _caller: &Caller, r: CollectionPath) -> ApiResult<Negotiated> {
        let account = local_account(app, &r.username).await?;
        let doc = app
            .render_ap_collection(
                Collection::Outbox,
                &account,
                r.page.is_some(),
                r.max_id.as_deref(),
            )
            .await?;
        Ok(Negotiated::Activity(doc.to_string()))
    }
}
