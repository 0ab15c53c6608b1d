//! `POST /api/v1/admin/accounts/:id/unsuspend`: lift an account's suspension. <https://docs.joinmastodon.org/methods/admin/accounts/#unsuspend>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

/// Lifts a suspension and answers the account; 403 when it is not suspended, 404 when unknown. <https://docs.joinmastodon.org/methods/admin/accounts/#unsuspend>
pub struct UnsuspendAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnsuspendAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for UnsuspendAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/accounts/:id/unsuspend";
    const AUTH: Auth = Auth::User("admin:write:accounts");
    type Request = UnsuspendAccountRequest;
    type Response = Json<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnsuspendAccountRequest,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let view = app.moderation().unsuspend(path_id(&r.id)?).await?;
        Ok(Json(app.render_admin_account(&view)))
    }
}
