//! `POST /api/v1/admin/trends/tags/:id/approve`: staff decide that a hashtag may trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminTag;
use crate::error::ApiResult;

/// Approves the hashtag for trends (may trend) and marks it reviewed; answers it as staff see it. 404 when unknown. Needs the `admin:write` scope and a role that manages taxonomies.
pub struct ApproveTrendTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ApproveTrendTagRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for ApproveTrendTag {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/tags/:id/approve";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = ApproveTrendTagRequest;
    type Response = Json<AdminTag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ApproveTrendTagRequest,
    ) -> ApiResult<Self::Response> {
        super::review_tag(app, caller, &r.id, true).await
    }
}
