//! `PUT /api/v1/admin/tags/:id`: what staff decide about a hashtag (`display_name`, `trendable`, `usable`, `listable`); it counts as reviewed.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminTag;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::services::tags::TagChanges;

/// Records what staff decide about a hashtag and marks it reviewed; 404 when unknown, 422 for a display name that is not the tag's name. Needs the `admin:write` scope and a role that manages taxonomies.
pub struct UpdateAdminTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateAdminTagRequest {
    /// Tag id (path).
    pub id: String,
    /// The name in other letter case.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub display_name: Option<String>,
    /// May trend.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub trendable: Option<bool>,
    /// Attached to new statuses.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub usable: Option<bool>,
    /// Found by hashtag search.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub listable: Option<bool>,
}

impl Endpoint for UpdateAdminTag {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/admin/tags/:id";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = UpdateAdminTagRequest;
    type Response = Json<AdminTag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateAdminTagRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_TAXONOMIES)?;
        let changes = TagChanges {
            display_name: r.display_name,
            trendable: r.trendable,
            usable: r.usable,
            listable: r.listable,
        };
        let view = app.tags().review_tag(path_id(&r.id)?, changes).await?;
        Ok(Json(app.render_admin_tag(&view)))
    }
}
