//! `POST /api/v1/polls/:id/votes`: vote in a poll. <https://docs.joinmastodon.org/methods/polls/#vote>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Poll;
use crate::error::ApiResult;
use crate::params::de;

/// Votes in a poll the caller may see (else 404) with `choices[]`, option indexes from 0; bad or
/// repeated choices, several choices in a single-choice poll, a second vote, a vote after the
/// poll ended and a vote in one's own poll are 422s. Answers the poll with `voted: true` and
/// `own_votes`.
pub struct VotePoll;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct VotePollRequest {
    /// Poll id (path).
    pub id: String,
    /// The chosen option indexes.
    #[serde(default, deserialize_with = "de::list")]
    pub choices: Vec<serde_json::Value>,
}

impl Endpoint for VotePoll {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/polls/:id/votes";
    const AUTH: Auth = Auth::User("write:statuses");
    type Request = VotePollRequest;
    type Response = Json<Poll>;

    async fn handle(app: &App, caller: &Caller, r: VotePollRequest) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let choices: Vec<String> = r
            .choices
            .iter()
            .map(|c| match c {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        let poll = app
            .polls()
            .vote_in_poll(me, path_id(&r.id)?, &choices)
            .await?;
        Ok(Json(app.render_poll_for(&poll, Some(me)).await?))
    }
}
