//! `GET /auth/notification_emails`: the sign-in form in front of the notification e-mail
//! settings (linked from every notification mail).

use http::{Method, StatusCode};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Html, NoParams};
use crate::error::ApiResult;

/// Shows the sign-in form.
pub struct NotificationEmailsPage;

impl Endpoint for NotificationEmailsPage {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = crate::mail::NOTIFICATION_EMAILS_PATH;
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Html> {
        Ok(super::settings_sign_in(app, StatusCode::OK, "", None))
    }
}
