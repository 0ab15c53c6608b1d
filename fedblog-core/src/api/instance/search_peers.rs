//! `GET /api/v1/peers/search`: Known domains starting with a query, for autocompletion. (Undocumented; Mastodon's `Api::V1::Peers::SearchController`.)

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;

/// Up to 10 known peer domains starting with `q`, leaving out domains blocked server-wide;
/// none for a blank `q`.
pub struct SearchPeers;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct SearchPeersRequest {
    /// The start of a domain.
    #[serde(default)]
    pub q: String,
}

impl Endpoint for SearchPeers {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/peers/search";
    const AUTH: Auth = Auth::Public;
    type Request = SearchPeersRequest;
    type Response = Json<Vec<String>>;

    async fn handle(
        app: &App,
        _caller: &Caller,
        r: SearchPeersRequest,
    ) -> ApiResult<Self::Response> {
        Ok(Json(app.instance().search_peers(&r.q).await?))
    }
}
