//! `POST /api/v1/admin/trends/links/:id/reject`: staff decide that a link may not trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminTrendLink;
use crate::error::ApiResult;

/// Rejects a link (a preview card) for trends (may not trend). 404 when no link has that id; answers it as staff see it. Needs the `admin:write` scope and a role that manages taxonomies.
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
    type Response = Json<AdminTrendLink>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RejectTrendLinkRequest,
    ) -> ApiResult<Self::Response> {
        super::review_link(app, caller, &r.id, false).await
    }
}
