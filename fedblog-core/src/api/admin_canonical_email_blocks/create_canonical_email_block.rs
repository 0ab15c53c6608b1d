//! `POST /api/v1/admin/canonical_email_blocks`: Refuses sign-ups with an address in the same canonical form as `email` (or with the given `canonical_email_hash`); 422 if refused already. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminCanonicalEmailBlock;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_canonical_email_block;

/// Refuses sign-ups with an address in the same canonical form as `email` (or with the given `canonical_email_hash`); 422 if refused already. Needs the `admin:write:canonical_email_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>
pub struct CreateAdminCanonicalEmailBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateAdminCanonicalEmailBlockRequest {
    /// The address to refuse.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub email: Option<String>,
    /// Or the SHA-256 (hex) of a canonical address.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub canonical_email_hash: Option<String>,
}

impl Endpoint for CreateAdminCanonicalEmailBlock {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/canonical_email_blocks";
    const AUTH: Auth = Auth::User("admin:write:canonical_email_blocks");
    type Request = CreateAdminCanonicalEmailBlockRequest;
    type Response = Json<AdminCanonicalEmailBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateAdminCanonicalEmailBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let block = app
            .server_blocks()
            .block_canonical_email(r.email.as_deref(), r.canonical_email_hash.as_deref())
            .await?;
        Ok(Json(render_admin_canonical_email_block(&block)))
    }
}
