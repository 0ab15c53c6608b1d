//! `GET /api/v1/admin/tags/:id`: one hashtag, as staff see it.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminTag;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// One hashtag by id, as staff see it; 404 when unknown. Needs the `admin:read` scope and a role that manages taxonomies.
pub struct GetAdminTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminTagRequest {
    /// Tag id (path).
    pub id: String,
}

impl Endpoint for GetAdminTag {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/tags/:id";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = GetAdminTagRequest;
    type Response = Json<AdminTag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminTagRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_TAXONOMIES)?;
        let view = app.tags().admin_tag(path_id(&r.id)?).await?;
        Ok(Json(app.render_admin_tag(&view)))
    }
}
