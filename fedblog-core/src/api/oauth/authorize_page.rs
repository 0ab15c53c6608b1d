//! `GET /oauth/authorize`: the sign-in and consent page. <https://docs.joinmastodon.org/methods/oauth/#authorize>

use http::Method;

use super::{AuthorizeParams, refusal, sign_in_form};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Redirect};
use crate::error::ApiResult;

/// Shows the form where a user signs in and approves or denies the app.
pub struct AuthorizePage;

impl Endpoint for AuthorizePage {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/oauth/authorize";
    const AUTH: Auth = Auth::Public;
    type Request = AuthorizeParams;
    type Response = Redirect;

    async fn handle(app: &App, _caller: &Caller, req: AuthorizeParams) -> ApiResult<Redirect> {
        Ok(match req.validate(app).await {
            Ok(valid) => Redirect::Page(sign_in_form(app, &valid, "", None)),
            Err(e) => refusal(app, &e),
        })
    }
}
