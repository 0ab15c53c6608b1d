//! `DELETE /api/v1/admin/accounts/:id`: delete a suspended account's data for good. <https://docs.joinmastodon.org/methods/admin/accounts/#delete>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

/// Deletes a suspended account with everything it has (Delete User Data permission) and answers it as it was; 403 when it is not suspended, 404 when unknown. <https://docs.joinmastodon.org/methods/admin/accounts/#delete>
pub struct DeleteAdminAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteAdminAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for DeleteAdminAccount {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/admin/accounts/:id";
    const AUTH: Auth = Auth::User("admin:write:accounts");
    type Request = DeleteAdminAccountRequest;
    type Response = Json<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteAdminAccountRequest,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::DELETE_USER_DATA)?;
        let view = app.moderation().delete(path_id(&r.id)?).await?;
        Ok(Json(app.render_admin_account(&view)))
    }
}
