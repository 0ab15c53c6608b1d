//! `GET /@:username`: An account's profile page (or its actor, to an ActivityPub `Accept`).

use http::Method;

use super::{AccountPath, actor_or_page};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;

/// An account's profile page (or its actor, to an ActivityPub `Accept`).
pub struct ProfilePage;

impl Endpoint for ProfilePage {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/@:username";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = AccountPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: AccountPath) -> ApiResult<Negotiated> {
        actor_or_page(app, caller, &r.username).await
    }
}
