//! `GET /health`: whether the web server answers, as `OK` in plain text. <https://docs.joinmastodon.org/methods/health/>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, NoParams, Text};
use crate::error::ApiResult;

/// `200 OK` with the body `OK` (`text/plain`), to anyone: no token is read and, being outside
/// `/api/`, it counts against no API rate limit, so a monitor polling it never runs out.
/// Like Mastodon's, it says the web process answers; it reads nothing from the store.
pub struct HealthCheck;

impl Endpoint for HealthCheck {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/health";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Text;

    async fn handle(_app: &App, _caller: &Caller, _r: NoParams) -> ApiResult<Text> {
        Ok(Text("OK".into()))
    }
}
