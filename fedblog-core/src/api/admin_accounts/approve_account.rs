//! `POST /api/v1/admin/accounts/:id/approve`: approve a local account waiting for approval. <https://docs.joinmastodon.org/methods/admin/accounts/#approve>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

/// Approves a local account waiting for approval and answers it; 403 for a remote account or one not waiting, 404 when unknown. <https://docs.joinmastodon.org/methods/admin/accounts/#approve>
pub struct ApproveAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ApproveAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for ApproveAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/accounts/:id/approve";
    const AUTH: Auth = Auth::User("admin:write:accounts");
    type Request = ApproveAccountRequest;
    type Response = Json<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ApproveAccountRequest,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let view = app.moderation().approve(path_id(&r.id)?).await?;
        if view.user.as_ref().is_some_and(|u| u.confirmed_at.is_some()) {
            crate::api::accounts::tell_staff_of_sign_up(app, &view.account).await;
        }
        Ok(Json(app.render_admin_account(&view)))
    }
}
