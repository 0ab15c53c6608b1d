//! `GET /users/:username/collections/tags`: An account's featured hashtags.

use http::Method;

use super::{CollectionPath, collection_document};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;
use crate::services::federation_runner::Collection;

/// An account's featured hashtags. Paged as an `OrderedCollection`.
pub struct FeaturedTagsCollection;

impl Endpoint for FeaturedTagsCollection {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/collections/tags";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = CollectionPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: CollectionPath) -> ApiResult<Negotiated> {
        collection_document(app, caller, &r, Collection::FeaturedTags).await
    }
}
