//! `GET /api/v1/statuses?id[]=`: several statuses at once. <https://docs.joinmastodon.org/methods/statuses/#index>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Status;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::params::de;

/// Returns the statuses among the ids that the caller may see, in the order asked.
pub struct GetStatuses;

/// At most this many ids per request.
pub const MAX_IDS: usize = 40;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct GetStatusesRequest {
    /// Status ids.
    #[serde(deserialize_with = "de::list")]
    pub id: Vec<String>,
}

impl Endpoint for GetStatuses {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/statuses";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = GetStatusesRequest;
    type Response = Json<Vec<Status>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetStatusesRequest,
    ) -> ApiResult<Self::Response> {
        if r.id.len() > MAX_IDS {
            return Err(ApiError::unprocessable(format!(
                "Too many ids requested (at most {MAX_IDS})"
            )));
        }
        let ids: Vec<Id> = r.id.iter().filter_map(|s| s.parse().ok()).collect();
        let visible = app
            .visibility()
            .visible_statuses(caller.account.as_ref(), &ids)
            .await?;
        Ok(Json(
            app.render_statuses(&visible, caller.account.as_ref(), false)
                .await?,
        ))
    }
}
