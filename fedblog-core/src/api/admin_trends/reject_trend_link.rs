//! `POST /api/v1/admin/trends/links/:id/reject`: staff decide that a link may not trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;

/// Rejects a link (a preview card) for trends (may not trend). fedblog makes no preview cards yet, so every id is a 404. Needs the `admin:write` scope and a role that manages taxonomies.
pub struct RejectTrendLink;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RejectTrendLinkRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for RejectTrendLink {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/links/:id/reject";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = RejectTrendLinkRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        _app: &App,
        caller: &Caller,
        r: RejectTrendLinkRequest,
    ) -> ApiResult<Self::Response> {
        super::review_card(caller, &r.id)
    }
}
