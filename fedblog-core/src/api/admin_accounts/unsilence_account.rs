//! `POST /api/v1/admin/accounts/:id/unsilence`: lift an account's silence. <https://docs.joinmastodon.org/methods/admin/accounts/#unsilence>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

/// Lifts a silence (not an error when there is none) and answers the account; 404 when unknown. <https://docs.joinmastodon.org/methods/admin/accounts/#unsilence>
pub struct UnsilenceAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnsilenceAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for UnsilenceAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/accounts/:id/unsilence";
    const AUTH: Auth = Auth::User("admin:write:accounts");
    type Request = UnsilenceAccountRequest;
    type Response = Json<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnsilenceAccountRequest,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let view = app.moderation().unsilence(path_id(&r.id)?).await?;
        Ok(Json(app.render_admin_account(&view)))
    }
}
