//! `POST /api/v1/admin/trends/tags/:id/reject`: staff decide that a hashtag may not trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminTag;
use crate::error::ApiResult;

/// Rejects the hashtag for trends (may not trend) and marks it reviewed; answers it as staff see it. 404 when unknown. Needs the `admin:write` scope and a role that manages taxonomies.
pub struct RejectTrendTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RejectTrendTagRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for RejectTrendTag {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/tags/:id/reject";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = RejectTrendTagRequest;
    type Response = Json<AdminTag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RejectTrendTagRequest,
    ) -> ApiResult<Self::Response> {
        super::review_tag(app, caller, &r.id, false).await
    }
}
