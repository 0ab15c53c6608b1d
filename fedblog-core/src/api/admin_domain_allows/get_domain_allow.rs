//! `GET /api/v1/admin/domain_allows/:id`: One domain allowed to federate. <https://docs.joinmastodon.org/methods/admin/domain_allows/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminDomainAllow;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_domain_allow;
use crate::store::ValueList;

/// One domain allowed to federate. Needs the `admin:read:domain_allows` scope and a role that manages federation. <https://docs.joinmastodon.org/methods/admin/domain_allows/>
pub struct GetAdminDomainAllow;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminDomainAllowRequest {
    /// Allow id (path).
    pub id: String,
}

impl Endpoint for GetAdminDomainAllow {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/domain_allows/:id";
    const AUTH: Auth = Auth::User("admin:read:domain_allows");
    type Request = GetAdminDomainAllowRequest;
    type Response = Json<AdminDomainAllow>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminDomainAllowRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_FEDERATION)?;
        let allow = app
            .server_blocks()
            .listed_one(ValueList::DomainAllows, path_id(&r.id)?)
            .await?;
        Ok(Json(render_admin_domain_allow(&allow)))
    }
}
