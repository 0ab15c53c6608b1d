//! `GET /api/v1/emails/check_confirmation`: whether the caller's e-mail address is confirmed
//! (`true` or `false`), for apps waiting on a new account's confirmation. Undocumented in
//! Mastodon's docs; in its routes (`api/v1/emails/confirmations#check`).

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::{ApiError, ApiResult};

/// Answers whether the caller's address is confirmed.
pub struct CheckConfirmation;

impl Endpoint for CheckConfirmation {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/emails/check_confirmation";
    // An account still awaiting confirmation is who asks.
    const AUTH: Auth = Auth::UserPending("read:accounts");
    type Request = NoParams;
    type Response = Json<bool>;

    async fn handle(app: &App, caller: &Caller, _req: NoParams) -> ApiResult<Json<bool>> {
        let user = caller.user.as_ref().ok_or_else(ApiError::invalid_token)?;
        // Read again: the login the token carried may predate a link opened since.
        let confirmed = match app.store.user_by_account_id(user.account_id).await? {
            Some(u) => u.confirmed_at.is_some(),
            None => user.confirmed_at.is_some(),
        };
        Ok(Json(confirmed))
    }
}
