//! `GET|POST /oauth/userinfo`: OpenID Connect user information of the token's account (one
//! endpoint that OpenID lets clients call with either method). <https://docs.joinmastodon.org/methods/oauth/#userinfo>

use http::Method;
use serde_json::{Value, json};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// `GET /oauth/userinfo`.
pub struct Userinfo;

/// `POST /oauth/userinfo`, the same answer.
pub struct UserinfoPost;

async fn userinfo(app: &App, caller: &Caller) -> ApiResult<Json<Value>> {
    let account = caller.account()?;
    let rendered = app.render_account(account);
    Ok(Json(json!({
        "iss": format!("{}/", app.base_url()),
        "sub": rendered.uri,
        "name": rendered.display_name,
        "preferred_username": rendered.username,
        "profile": rendered.url,
        "picture": rendered.avatar,
    })))
}

impl Endpoint for Userinfo {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/oauth/userinfo";
    const AUTH: Auth = Auth::User("profile");
    type Request = NoParams;
    type Response = Json<Value>;

    async fn handle(app: &App, caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        userinfo(app, caller).await
    }
}

impl Endpoint for UserinfoPost {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/oauth/userinfo";
    const AUTH: Auth = Auth::User("profile");
    type Request = NoParams;
    type Response = Json<Value>;

    async fn handle(app: &App, caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        userinfo(app, caller).await
    }
}
