//! `POST /api/v1/statuses/:id/quotes/:quoting_status_id/revoke`: Withdraw the approval of a quote of one's own status. <https://docs.joinmastodon.org/methods/statuses/#revoke_quote>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::{ApiError, ApiResult};

/// The author of a status withdraws their approval of the quote another status makes of it:
/// an accepted quote becomes `revoked` (a pending one `rejected`), and the quoting status no
/// longer shows the quoted one. Answers the quoting status as the caller sees it. 404 for a
/// status the caller may not see or one that does not quote it, 403 for someone else's status.
/// <https://docs.joinmastodon.org/methods/statuses/#revoke_quote>
pub struct RevokeQuote;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RevokeQuoteRequest {
    /// The quoted status's id (path).
    pub id: String,
    /// The quoting status's id (path).
    pub quoting_status_id: String,
}

impl Endpoint for RevokeQuote {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/quotes/:quoting_status_id/revoke";
    const AUTH: Auth = Auth::User("write:statuses");
    type Request = RevokeQuoteRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RevokeQuoteRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let quote = app
            .quotes()
            .revoke(me, path_id(&r.id)?, path_id(&r.quoting_status_id)?)
            .await?;
        let quoting = app
            .store
            .status_by_id(quote.status_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        Ok(Json(app.render_status(&quoting, Some(me)).await?))
    }
}
