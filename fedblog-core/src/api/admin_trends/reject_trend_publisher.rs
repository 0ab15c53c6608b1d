//! `POST /api/v1/admin/trends/links/publishers/:id/reject`: staff decide that a publisher of links may not trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;

/// Rejects a publisher of links (a preview card provider) for trends (may not trend). fedblog makes no preview cards yet, so every id is a 404. Needs the `admin:write` scope and a role that manages taxonomies.
pub struct RejectTrendPublisher;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RejectTrendPublisherRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for RejectTrendPublisher {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/links/publishers/:id/reject";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = RejectTrendPublisherRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        _app: &App,
        caller: &Caller,
        r: RejectTrendPublisherRequest,
    ) -> ApiResult<Self::Response> {
        super::review_card(caller, &r.id)
    }
}
