//! `POST /api/v1/accounts/:id/unpin`: The pre-4.4 name of `/unendorse`, deprecated by Mastodon but still served, so older clients keep working. <https://docs.joinmastodon.org/methods/accounts/#unpin>

use http::Method;

use crate::api::accounts::unendorse_account::{UnendorseAccount, UnendorseAccountRequest};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// `/unpin`: the same as [`UnendorseAccount`]. <https://docs.joinmastodon.org/methods/accounts/#unpin>
pub struct UnpinAccount;

impl Endpoint for UnpinAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/unpin";
    const AUTH: Auth = UnendorseAccount::AUTH;
    type Request = UnendorseAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnendorseAccountRequest,
    ) -> ApiResult<Self::Response> {
        UnendorseAccount::handle(app, caller, r).await
    }
}
