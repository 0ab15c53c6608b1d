//! `GET /api/v2/suggestions`: Accounts to follow with the reasons (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/suggestions/#v2>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Suggestion;
use crate::error::ApiResult;
use crate::params::de;
use crate::services::discovery::offset_limit;

/// Accounts to follow with the reasons (40 by default, 80 at most): `friends_of_friends` (followed
/// by accounts the caller follows, most such follows first), then `most_followed` (local accounts
/// with the most followers). Only discoverable accounts; never the caller, accounts it follows or
/// asked to follow, blocked either way, muted, on a domain it blocks, dismissed or suspended. <https://docs.joinmastodon.org/methods/suggestions/#v2>
pub struct ListSuggestionsV2;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListSuggestionsV2Request {
    /// How many.
    #[serde(deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
}

impl Endpoint for ListSuggestionsV2 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/suggestions";
    const AUTH: Auth = Auth::User("read");
    type Request = ListSuggestionsV2Request;
    type Response = Json<Vec<Suggestion>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListSuggestionsV2Request,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let found = app
            .discovery()
            .suggestions(me, offset_limit(r.limit, 40, 80) as usize)
            .await?;
        Ok(Json(
            found.iter().map(|s| app.render_suggestion(s)).collect(),
        ))
    }
}
