//! `GET /auth/email/edit`: the form changing the account's e-mail address.

use http::{Method, StatusCode};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Html, NoParams};
use crate::error::ApiResult;

/// Shows the form.
pub struct EditEmail;

impl Endpoint for EditEmail {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/auth/email/edit";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Html> {
        Ok(super::change_form(app, StatusCode::OK, "", "", None))
    }
}
