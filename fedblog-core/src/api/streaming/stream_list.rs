//! `GET /api/v1/streaming/list`: a list's timeline. <https://docs.joinmastodon.org/methods/streaming/#list>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;
use crate::params::de;

use super::{channel, open};

/// Server-sent events of the `list` stream of one of the caller's lists.
pub struct StreamList;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListRequest {
    /// The list's id.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub list: Option<String>,
}

impl Endpoint for StreamList {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/list";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = ListRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, r: ListRequest) -> ApiResult<Streamed> {
        open(app, caller, vec![channel("list", None, r.list.as_deref())?]).await
    }
}
