//! `DELETE /api/v1/suggestions/:account_id`: Stop suggesting an account to the caller (404 for an unknown account). <https://docs.joinmastodon.org/methods/suggestions/#remove>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Stop suggesting an account to the caller; dismissing twice is not an error. Unlike Mastodon,
/// which answers `{}` for any id, an unknown account is a 404. <https://docs.joinmastodon.org/methods/suggestions/#remove>
pub struct DismissSuggestion;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DismissSuggestionRequest {
    /// Account id (path).
    pub account_id: String,
}

impl Endpoint for DismissSuggestion {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/suggestions/:account_id";
    const AUTH: Auth = Auth::User("read");
    type Request = DismissSuggestionRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DismissSuggestionRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        app.discovery()
            .dismiss_suggestion(me, path_id(&r.account_id)?)
            .await?;
        Ok(Json(Empty {}))
    }
}
