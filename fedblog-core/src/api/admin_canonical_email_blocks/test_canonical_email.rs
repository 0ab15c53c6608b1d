//! `POST /api/v1/admin/canonical_email_blocks/test`: The canonical e-mail blocks an address falls under (dots and a `+suffix` in its local part do not matter). <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminCanonicalEmailBlock;
use crate::error::ApiError;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_canonical_email_block;

/// The canonical e-mail blocks an address falls under (dots and a `+suffix` in its local part do not matter). Needs the `admin:read:canonical_email_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>
pub struct TestCanonicalEmail;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct TestCanonicalEmailRequest {
    /// The address to test (required).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub email: Option<String>,
}

impl Endpoint for TestCanonicalEmail {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/canonical_email_blocks/test";
    const AUTH: Auth = Auth::User("admin:read:canonical_email_blocks");
    type Request = TestCanonicalEmailRequest;
    type Response = Json<Vec<AdminCanonicalEmailBlock>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: TestCanonicalEmailRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let email = r
            .email
            .filter(|e| !e.trim().is_empty())
            .ok_or_else(|| ApiError::invalid_field("email", "ERR_BLANK", "Email can't be blank"))?;
        let found = app.server_blocks().test_canonical_email(&email).await?;
        Ok(Json(
            found
                .iter()
                .map(render_admin_canonical_email_block)
                .collect(),
        ))
    }
}
