//! `DELETE /api/v1/profile/header`: remove one's header image. <https://docs.joinmastodon.org/methods/profile/#delete-profile-header>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::CredentialAccount;
use crate::error::{ApiError, ApiResult};
use crate::services::accounts::ProfileImage;

/// Removes the caller's header (the default image shows again); fine when none is set.
pub struct DeleteHeader;

impl Endpoint for DeleteHeader {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/profile/header";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = NoParams;
    type Response = Json<CredentialAccount>;

    async fn handle(app: &App, caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let account = app
            .accounts()
            .delete_profile_image(caller.account()?, ProfileImage::Header)
            .await?;
        let user = caller.user.as_ref().ok_or_else(ApiError::invalid_token)?;
        Ok(Json(app.render_credential_account(
            &account,
            user,
            caller.custom_role.as_ref(),
        )))
    }
}
