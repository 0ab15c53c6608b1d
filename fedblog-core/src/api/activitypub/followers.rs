//! `GET /users/:username/followers`: An account's followers (only their number when it hides its collections).

use http::Method;

use super::{CollectionPath, collection_document};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;
use crate::services::federation_runner::Collection;

/// An account's followers (only their number when it hides its collections). Paged as an `OrderedCollection`.
pub struct FollowersCollection;

impl Endpoint for FollowersCollection {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/followers";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = CollectionPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: CollectionPath) -> ApiResult<Negotiated> {
        collection_document(app, caller, &r, Collection::Followers).await
    }
}
