//! `GET /actor/outbox`: the instance actor's outbox, which its document names: an empty
//! `OrderedCollection` (the instance actor posts nothing), as Mastodon's.

use http::Method;
use serde_json::json;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Negotiated, NoParams};
use crate::error::ApiResult;

/// The instance actor's outbox, always empty, to anyone (as the actor itself).
pub struct InstanceOutbox;

impl Endpoint for InstanceOutbox {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/actor/outbox";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Negotiated;

    async fn handle(app: &App, _caller: &Caller, _r: NoParams) -> ApiResult<Negotiated> {
        let id = format!("{}{}", app.base_url(), Self::PATH);
        Ok(Negotiated::Activity(
            json!({
                "@context": "https://www.w3.org/ns/activitystreams",
                "id": id,
                "type": "OrderedCollection",
                "totalItems": 0,
                "orderedItems": [],
            })
            .to_string(),
        ))
    }
}
