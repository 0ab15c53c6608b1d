//! `POST /actor/inbox`: the instance actor's inbox, which its document names: what other servers
//! send to this server as a whole (a relay's answer, a `Flag`'s acknowledgement) is taken as the
//! shared inbox takes it.

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Accepted, Auth, BodyKind, Endpoint, NoParams};
use crate::error::ApiResult;

/// An activity for the instance actor: checked and applied as the shared inbox's; 202 once taken.
pub struct InstanceInbox;

impl Endpoint for InstanceInbox {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/actor/inbox";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = NoParams;
    type Response = Accepted;

    async fn handle(app: &App, caller: &Caller, r: NoParams) -> ApiResult<Accepted> {
        super::shared_inbox::SharedInbox::handle(app, caller, r).await
    }
}
