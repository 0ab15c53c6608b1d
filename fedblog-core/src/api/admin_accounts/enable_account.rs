//! `POST /api/v1/admin/accounts/:id/enable`: enable a local account's disabled login. <https://docs.joinmastodon.org/methods/admin/accounts/#enable>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

/// Enables a local account's login (not an error when it is enabled) and answers the account; 403 for a remote account, 404 when unknown. <https://docs.joinmastodon.org/methods/admin/accounts/#enable>
pub struct EnableAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct EnableAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for EnableAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/accounts/:id/enable";
    const AUTH: Auth = Auth::User("admin:write:accounts");
    type Request = EnableAccountRequest;
    type Response = Json<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: EnableAccountRequest,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let view = app.moderation().enable(path_id(&r.id)?).await?;
        Ok(Json(app.render_admin_account(&view)))
    }
}
