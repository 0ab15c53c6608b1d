//! `GET /api/v1/directory`: Discoverable accounts, most recently active or newest first (40 by default, 80 at most); public. <https://docs.joinmastodon.org/methods/directory/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Account;
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::discovery::{offset_limit, offset_of};
use crate::store::DirectoryOrder;

/// Discoverable, unsuspended accounts: `order=active` (the default) by most recent post,
/// `order=new` by newest account; any other `order` is a 422. `local=true` keeps local accounts.
/// 40 by default, 80 at most, `offset` to skip. Public; with a token, accounts blocked either way
/// or muted by the caller are left out. <https://docs.joinmastodon.org/methods/directory/#get>
pub struct ListDirectory;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListDirectoryRequest {
    /// How many to skip.
    #[serde(deserialize_with = "de::opt_i64")]
    pub offset: Option<i64>,
    /// How many.
    #[serde(deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
    /// `active` or `new`.
    #[serde(deserialize_with = "de::opt_string")]
    pub order: Option<String>,
    /// Local accounts only.
    #[serde(deserialize_with = "de::bool")]
    pub local: bool,
}

impl Endpoint for ListDirectory {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/directory";
    const AUTH: Auth = Auth::Optional("");
    type Request = ListDirectoryRequest;
    type Response = Json<Vec<Account>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListDirectoryRequest,
    ) -> ApiResult<Self::Response> {
        let order = match r.order.as_deref() {
            None | Some("active") => DirectoryOrder::Active,
            Some("new") => DirectoryOrder::New,
            Some(_) => {
                return Err(ApiError::invalid_field(
                    "order",
                    "ERR_INCLUSION",
                    "Order must be active or new",
                ));
            }
        };
        let found = app
            .discovery()
            .directory(
                caller.account.as_ref(),
                order,
                r.local,
                offset_of(r.offset),
                offset_limit(r.limit, 40, 80),
            )
            .await?;
        Ok(Json(found.iter().map(|a| app.render_account(a)).collect()))
    }
}
