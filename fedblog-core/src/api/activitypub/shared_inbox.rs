//! `POST /inbox`: the shared inbox, where other servers deliver what several of our accounts
//! receive (a post for their followers) once.

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Accepted, Auth, BodyKind, Endpoint, NoParams};
use crate::error::{ApiError, ApiResult};

/// An activity for this server: checked and applied as a personal inbox's; 202 once taken.
pub struct SharedInbox;

impl Endpoint for SharedInbox {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/inbox";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = NoParams;
    type Response = Accepted;

    async fn handle(app: &App, caller: &Caller, _r: NoParams) -> ApiResult<Accepted> {
        let raw = caller.info.raw.as_ref().ok_or_else(ApiError::internal)?;
        app.receive_activity(raw).await?;
        Ok(Accepted)
    }
}
