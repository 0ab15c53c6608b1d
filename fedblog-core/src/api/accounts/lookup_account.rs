//! `GET /api/v1/accounts/lookup`: find an account by its address. <https://docs.joinmastodon.org/methods/accounts/#lookup>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Account;
use crate::error::{ApiError, ApiResult};
use crate::params::de;

/// Returns the account named `username` or `username@domain`.
pub struct LookupAccount;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LookupRequest {
    /// The address.
    #[serde(deserialize_with = "de::opt_string")]
    pub acct: Option<String>,
}

impl Endpoint for LookupAccount {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/lookup";
    const AUTH: Auth = Auth::Optional("read:accounts");
    type Request = LookupRequest;
    type Response = Json<Account>;

    async fn handle(app: &App, _caller: &Caller, r: LookupRequest) -> ApiResult<Self::Response> {
        let acct = r
            .acct
            .ok_or_else(|| ApiError::bad_request("param is missing or the value is empty: acct"))?;
        let account = app.accounts().lookup_account(&acct).await?;
        Ok(Json(app.render_account_alone(&account).await?))
    }
}
