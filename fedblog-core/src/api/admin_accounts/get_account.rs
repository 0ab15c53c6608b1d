//! `GET /api/v1/admin/accounts/:id`: one account as moderators see it. <https://docs.joinmastodon.org/methods/admin/accounts/#get-one>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

/// One account (local or remote, suspended ones too) with its login's state; 404 when unknown. <https://docs.joinmastodon.org/methods/admin/accounts/#get-one>
pub struct GetAdminAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for GetAdminAccount {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/accounts/:id";
    const AUTH: Auth = Auth::User("admin:read:accounts");
    type Request = GetAdminAccountRequest;
    type Response = Json<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminAccountRequest,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let view = app.moderation().account(path_id(&r.id)?).await?;
        Ok(Json(app.render_admin_account(&view)))
    }
}
