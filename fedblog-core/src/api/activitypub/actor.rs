//! `GET /users/:username`: An account as an ActivityPub actor (or its profile page for a browser).

use http::Method;

use super::{AccountPath, actor_or_page};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;

/// An account as an ActivityPub actor (or its profile page for a browser).
pub struct ActorDocument;

impl Endpoint for ActorDocument {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = AccountPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: AccountPath) -> ApiResult<Negotiated> {
        actor_or_page(app, caller, &r.username).await
    }
}
