//! `GET /api/v1/suggestions`: Accounts to follow (deprecated form of the v2 method: accounts only; 40 by default, 80 at most). <https://docs.joinmastodon.org/methods/suggestions/#v1>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::params::de;
use crate::services::discovery::offset_limit;

/// Accounts to follow, as `GET /api/v2/suggestions` chooses them, without the reasons (40 by
/// default, 80 at most). <https://docs.joinmastodon.org/methods/suggestions/#v1>
pub struct ListSuggestions;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListSuggestionsRequest {
    /// How many.
    #[serde(deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
}

impl Endpoint for ListSuggestions {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/suggestions";
    const AUTH: Auth = Auth::User("read");
    type Request = ListSuggestionsRequest;
    type Response = Json<Vec<crate::entities::Account>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListSuggestionsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let found = app
            .discovery()
            .suggestions(me, offset_limit(r.limit, 40, 80) as usize)
            .await?;
        Ok(Json(
            found
                .iter()
                .map(|s| app.render_account(&s.account))
                .collect::<Vec<Account>>(),
        ))
    }
}
