//! `POST /api/v1/accounts/:id/note`: Set the caller's private note on an account (at most 2000 characters; empty or absent removes it). <https://docs.joinmastodon.org/methods/accounts/#note>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;
use crate::params::de;

/// Set the caller's private note on an account (at most 2000 characters, else 422; an empty or
/// absent `comment` removes it); the answer shows it in `note`. <https://docs.joinmastodon.org/methods/accounts/#note>
pub struct SetAccountNote;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct SetAccountNoteRequest {
    /// Account id (path).
    pub id: String,
    /// The note.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub comment: Option<String>,
}

impl Endpoint for SetAccountNote {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/note";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = SetAccountNoteRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: SetAccountNoteRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let comment = r.comment.unwrap_or_default();
        let target = app
            .relationships()
            .set_account_note(me, path_id(&r.id)?, &comment)
            .await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
