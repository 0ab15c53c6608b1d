//! `GET /users/:username/followers_synchronization`: an account's followers on the signer's
//! server (FEP-8fcf's partial followers collection).

use http::Method;

use super::{AccountPath, local_account, signer_of};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::{ApiError, ApiResult};

/// The followers of an account whose ids are on the server of the request's signer, every one
/// inline in an `OrderedCollection`, as Mastodon serves it: what that server checks its own
/// copy against after a `Collection-Synchronization` header disagreed. Only for a signed
/// request (401 otherwise), whatever authorized fetch says: the list is not public.
pub struct FollowersSynchronization;

impl Endpoint for FollowersSynchronization {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/followers_synchronization";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = AccountPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: AccountPath) -> ApiResult<Negotiated> {
        let account = local_account(app, &r.username).await?;
        let signer = signer_of(app, caller)
            .await?
            .ok_or_else(|| ApiError::new(http::StatusCode::UNAUTHORIZED, "Request not signed"))?;
        let doc = app
            .render_followers_synchronization(&account, &signer)
            .await?;
        Ok(Negotiated::Activity(doc.to_string()))
    }
}
