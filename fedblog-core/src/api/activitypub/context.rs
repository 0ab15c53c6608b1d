//! `GET /contexts/:id`: A thread begun here, as the conversation context its notes name.

use http::Method;
use serde::Deserialize;

use super::require_signed_fetch;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;
use crate::params::de;
use crate::services::federation_runner::{ContextDocument, ContextQuery};

/// A thread begun on this server as Mastodon 4.5 serves its conversation contexts: an
/// unordered `Collection` (`attributedTo` the account that began it) embedding its first page
/// of the thread's public and unlisted statuses by local accounts, oldest first, 60 a page, as
/// their ActivityPub ids; later pages are those of `/contexts/:id/items`. The id is
/// `ACCOUNT-THREAD` (the account that began the thread, the thread's first status). Under
/// authorized fetch, only to a signed request from someone that account does not block (and
/// without the statuses of those who block the signer).
/// <https://docs.joinmastodon.org/spec/activitypub/>
pub struct ContextCollection;

/// A context's URL, and (for its items) the page asked for.
#[derive(Debug, Deserialize)]
pub struct ContextPath {
    /// `ACCOUNT-THREAD`.
    pub id: String,
    /// Any value asks for a page rather than the collection.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub page: Option<String>,
    /// A later page: statuses after this one.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub min_id: Option<String>,
}

impl Endpoint for ContextCollection {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/contexts/:id";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = ContextPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: ContextPath) -> ApiResult<Negotiated> {
        context_document(app, caller, &r, ContextDocument::Context).await
    }
}

/// A context document (see [`ContextDocument`]): the account that began the thread is found
/// first, then under authorized fetch the signature is checked, then the thread is read.
pub(super) async fn context_document(
    app: &App,
    caller: &Caller,
    r: &ContextPath,
    which: ContextDocument,
) -> ApiResult<Negotiated> {
    let (starter, thread) = app.context_starter(&r.id).await?;
    let signer = require_signed_fetch(app, caller, &starter).await?;
    let query = ContextQuery {
        page: r.page.is_some(),
        min_id: r.min_id.as_deref().and_then(|m| m.parse().ok()),
    };
    let doc = app
        .render_ap_context(&starter, thread, which, query, signer.as_ref())
        .await?;
    Ok(Negotiated::Activity(doc.to_string()))
}
