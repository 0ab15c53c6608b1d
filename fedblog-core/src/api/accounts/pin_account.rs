//! `POST /api/v1/accounts/:id/pin`: The pre-4.4 name of `/endorse`, deprecated by Mastodon but still served, so older clients keep working. <https://docs.joinmastodon.org/methods/accounts/#pin>

use http::Method;

use crate::api::accounts::endorse_account::{EndorseAccount, EndorseAccountRequest};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// `/pin`: the same as [`EndorseAccount`]. <https://docs.joinmastodon.org/methods/accounts/#pin>
pub struct PinAccount;

impl Endpoint for PinAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/pin";
    const AUTH: Auth = EndorseAccount::AUTH;
    type Request = EndorseAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: EndorseAccountRequest,
    ) -> ApiResult<Self::Response> {
        EndorseAccount::handle(app, caller, r).await
    }
}
