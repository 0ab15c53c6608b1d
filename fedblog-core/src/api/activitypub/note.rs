//! `GET /users/:username/statuses/:id`: A public status as an ActivityPub note (or its page for a browser).

use http::Method;

use super::{StatusPath, note_or_page};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;

/// A public status as an ActivityPub note (or its page for a browser).
pub struct NoteDocument;

impl Endpoint for NoteDocument {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/statuses/:id";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = StatusPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: StatusPath) -> ApiResult<Negotiated> {
        note_or_page(app, caller, &r).await
    }
}
