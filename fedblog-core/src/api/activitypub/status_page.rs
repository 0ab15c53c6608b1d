//! `GET /@:username/:id`: A public status's page (or its note, to an ActivityPub `Accept`).

use http::Method;

use super::{StatusPath, note_or_page};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::ApiResult;

/// A public status's page (or its note, to an ActivityPub `Accept`).
pub struct StatusPage;

impl Endpoint for StatusPage {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/@:username/:id";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = StatusPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: StatusPath) -> ApiResult<Negotiated> {
        note_or_page(app, caller, &r).await
    }
}
