//! `POST /users/:username/inbox`: another server delivers an activity to one of our accounts.

use http::Method;

use super::{AccountPath, any_local_account};
use crate::app::{App, Caller};
use crate::endpoint::{Accepted, Auth, BodyKind, Endpoint};
use crate::error::{ApiError, ApiResult};

/// An activity for one account: checked (signature, digest, date, actor) and applied (see
/// `App::receive_activity`); 202 once taken, 401 for a bad signature, 404 for an unknown
/// account. A suspended account's inbox takes activities too, as Mastodon's does (what they may
/// do to it is the runner's business).
pub struct PersonalInbox;

impl Endpoint for PersonalInbox {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/users/:username/inbox";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = AccountPath;
    type Response = Accepted;

    async fn handle(app: &App, caller: &Caller, r: AccountPath) -> ApiResult<Accepted> {
        any_local_account(app, &r.username).await?;
        let raw = caller.info.raw.as_ref().ok_or_else(ApiError::internal)?;
        app.receive_activity(raw).await?;
        Ok(Accepted)
    }
}
