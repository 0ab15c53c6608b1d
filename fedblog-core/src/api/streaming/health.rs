//! `GET /api/v1/streaming/health`: whether streaming is up. <https://docs.joinmastodon.org/methods/streaming/#health>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Text};
use crate::error::ApiResult;

use super::NoRequest;

/// `OK` in plain text while the server streams.
pub struct StreamingHealth;

impl Endpoint for StreamingHealth {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/health";
    const AUTH: Auth = Auth::Public;
    type Request = NoRequest;
    type Response = Text;

    async fn handle(_app: &App, _caller: &Caller, _r: NoRequest) -> ApiResult<Text> {
        Ok(Text("OK".into()))
    }
}
