//! `POST /api/v1/admin/accounts/:id/reject`: reject a local account waiting for approval (it is deleted). <https://docs.joinmastodon.org/methods/admin/accounts/#reject>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

/// Rejects a local account waiting for approval: it is deleted with everything it has, and answered as it was; 403 for a remote account or one not waiting, 404 when unknown. <https://docs.joinmastodon.org/methods/admin/accounts/#reject>
pub struct RejectAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RejectAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for RejectAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/accounts/:id/reject";
    const AUTH: Auth = Auth::User("admin:write:accounts");
    type Request = RejectAccountRequest;
    type Response = Json<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RejectAccountRequest,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let view = app.moderation().reject(path_id(&r.id)?).await?;
        Ok(Json(app.render_admin_account(&view)))
    }
}
