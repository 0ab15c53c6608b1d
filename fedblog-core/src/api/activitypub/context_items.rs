//! `GET /contexts/:id/items`: The statuses of a thread begun here, page by page.

use http::Method;

use super::context::{ContextPath, context_document};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;
use crate::services::federation_runner::ContextDocument;

/// A conversation context's items, as Mastodon 4.5 serves them: an unordered `Collection`
/// embedding its first page, or with `?page=true` one `CollectionPage` of 60 statuses (public
/// and unlisted, by local accounts, oldest first, as their ActivityPub ids) after `min_id`,
/// with `next` when the page is full. 404 for a thread that is not here; under authorized
/// fetch, as `/contexts/:id`.
/// <https://docs.joinmastodon.org/spec/activitypub/>
pub struct ContextItems;

impl Endpoint for ContextItems {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/contexts/:id/items";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = ContextPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: ContextPath) -> ApiResult<Negotiated> {
        context_document(app, caller, &r, ContextDocument::Items).await
    }
}
