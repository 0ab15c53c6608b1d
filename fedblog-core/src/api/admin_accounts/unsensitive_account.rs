//! `POST /api/v1/admin/accounts/:id/unsensitive`: stop forcing an account's posts sensitive. <https://docs.joinmastodon.org/methods/admin/accounts/#unsensitive>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

/// Stops forcing the account's posts sensitive (not an error when they were not) and answers the account; 404 when unknown. <https://docs.joinmastodon.org/methods/admin/accounts/#unsensitive>
pub struct UnsensitiveAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnsensitiveAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for UnsensitiveAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/accounts/:id/unsensitive";
    const AUTH: Auth = Auth::User("admin:write:accounts");
    type Request = UnsensitiveAccountRequest;
    type Response = Json<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnsensitiveAccountRequest,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let view = app.moderation().unsensitive(path_id(&r.id)?).await?;
        Ok(Json(app.render_admin_account(&view)))
    }
}
