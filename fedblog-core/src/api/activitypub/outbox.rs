//! `GET /users/:username/outbox`: An account's outbox: its public posts, newest first, as `Create` activities.

use http::Method;

use super::{CollectionPath, collection_document};
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

    async fn handle(app: &App, caller: &Caller, r: CollectionPath) -> ApiResult<Negotiated> {
        collection_document(app, caller, &r, Collection::Outbox).await
    }
}
