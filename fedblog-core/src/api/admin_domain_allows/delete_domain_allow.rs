//! `DELETE /api/v1/admin/domain_allows/:id`: Removes a domain allow; answers an empty object. <https://docs.joinmastodon.org/methods/admin/domain_allows/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::store::ValueList;

/// Removes a domain allow; answers an empty object. Needs the `admin:write:domain_allows` scope and a role that manages federation. <https://docs.joinmastodon.org/methods/admin/domain_allows/>
pub struct DeleteAdminDomainAllow;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteAdminDomainAllowRequest {
    /// Allow id (path).
    pub id: String,
}

impl Endpoint for DeleteAdminDomainAllow {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/admin/domain_allows/:id";
    const AUTH: Auth = Auth::User("admin:write:domain_allows");
    type Request = DeleteAdminDomainAllowRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteAdminDomainAllowRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_FEDERATION)?;
        app.server_blocks()
            .remove_listed(ValueList::DomainAllows, path_id(&r.id)?)
            .await?;
        Ok(Json(serde_json::json!({})))
    }
}
