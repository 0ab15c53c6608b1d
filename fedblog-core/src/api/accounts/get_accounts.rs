//! `GET /api/v1/accounts?id[]=`: several accounts at once. <https://docs.joinmastodon.org/methods/accounts/#index>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Account;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::params::de;

/// Returns the known accounts among the ids, in the order asked; suspended ones are shown blank.
pub struct GetAccounts;

/// At most this many ids per request.
pub const MAX_IDS: usize = 40;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct GetAccountsRequest {
    /// Account ids.
    #[serde(deserialize_with = "de::list")]
    pub id: Vec<String>,
}

impl Endpoint for GetAccounts {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts";
    const AUTH: Auth = Auth::Optional("read:accounts");
    type Request = GetAccountsRequest;
    type Response = Json<Vec<Account>>;

    async fn handle(
        app: &App,
        _caller: &Caller,
        r: GetAccountsRequest,
    ) -> ApiResult<Self::Response> {
        if r.id.len() > MAX_IDS {
            return Err(ApiError::unprocessable(format!(
                "Too many ids requested (at most {MAX_IDS})"
            )));
        }
        let ids: Vec<Id> = r.id.iter().filter_map(|s| s.parse().ok()).collect();
        let found = app.store.accounts_by_ids(&ids).await?;
        let mut seen = std::collections::HashSet::new();
        let ordered = ids
            .iter()
            .filter(|id| seen.insert(**id))
            .filter_map(|id| found.iter().find(|a| a.id == *id));
        Ok(Json(ordered.map(|a| app.render_account(a)).collect()))
    }
}
