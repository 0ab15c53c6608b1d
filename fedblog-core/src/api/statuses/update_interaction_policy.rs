//! `PUT /api/v1/statuses/:id/interaction_policy`: Change who may quote one of one's own statuses. <https://docs.joinmastodon.org/methods/statuses/#interaction_policy>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::params::de;

/// Sets the quote approval policy of one of the caller's own statuses (`public`, `followers`
/// or `nobody`; a followers-only or direct status stays `nobody`). Answers the status with its
/// new `quote_approval`. 404 for a status the caller may not see, 403 for someone else's, 422
/// for another policy. <https://docs.joinmastodon.org/methods/statuses/#interaction_policy>
pub struct UpdateInteractionPolicy;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateInteractionPolicyRequest {
    /// Status id (path).
    pub id: String,
    /// `public`, `followers` or `nobody`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub quote_approval_policy: Option<String>,
}

impl Endpoint for UpdateInteractionPolicy {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/statuses/:id/interaction_policy";
    const AUTH: Auth = Auth::User("write:statuses");
    type Request = UpdateInteractionPolicyRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateInteractionPolicyRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app
            .quotes()
            .set_policy(me, path_id(&r.id)?, r.quote_approval_policy.as_deref())
            .await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
