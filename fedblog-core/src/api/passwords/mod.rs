//! The password reset pages (Devise's "forgot your password?" flow, as Mastodon has it): the
//! form asking for the address, the mail with a link that works once for 6 hours, the form for
//! the new password, and its answer. Plain HTML forms posted without scripts, in the layout of
//! the sign-in page.

pub mod edit_password;
pub mod new_password;
pub mod request_reset;
pub mod update_password;

use http::StatusCode;

use crate::api::oauth::page;
use crate::app::App;
use crate::content::escape;
use crate::endpoint::{Endpoint, Html};
use crate::error::ApiError;

/// What a failed step says on a page: the first field error's sentence, else the message.
pub fn error_text(e: &ApiError) -> String {
    e.details
        .as_ref()
        .and_then(|d| d.values().flat_map(|v| v.iter()).next())
        .map(|f| f.description.clone())
        .unwrap_or_else(|| e.message.clone())
}

/// A paragraph with an error, for the top of a form.
pub fn error_paragraph(error: Option<&str>) -> String {
    error
        .map(|e| format!("<div class=\"alert\" role=\"alert\">{}</div>", escape(e)))
        .unwrap_or_default()
}

/// The page of a link that does not work, with a way to ask for a new one.
pub fn invalid_link_page(app: &App) -> Html {
    Html(
        StatusCode::NOT_FOUND,
        page(
            app,
            "Reset your password",
            &format!(
                "<div class=\"alert\" role=\"alert\">This link is invalid, was already used, or has expired.</div>\
<p><a href=\"{}\">Ask for a new link</a></p>",
                new_password::NewPassword::PATH
            ),
        ),
    )
}

/// The form asking for the address of the account.
pub fn request_form(app: &App, status: StatusCode, email: &str, error: Option<&str>) -> Html {
    Html(
        status,
        page(
            app,
            "Forgot your password?",
            &format!(
                "{}<p>Enter the e-mail address of your account: a link to choose a new password \
will be sent to it.</p><form class=\"card\" method=\"post\" action=\"{}\">\
<label>E-mail address <input type=\"email\" name=\"email\" autocomplete=\"email\" required value=\"{}\"></label>\
<div class=\"buttons\"><button class=\"primary\" type=\"submit\">Send the link</button></div></form>",
                error_paragraph(error),
                request_reset::RequestReset::PATH,
                escape(email)
            ),
        ),
    )
}

/// The form for the new password, carrying the link's token.
pub fn password_form(app: &App, status: StatusCode, token: &str, error: Option<&str>) -> Html {
    Html(
        status,
        page(
            app,
            "Choose a new password",
            &format!(
                "{}<form class=\"card\" method=\"post\" action=\"{}\">\
<input type=\"hidden\" name=\"reset_password_token\" value=\"{}\">\
<label>New password <input type=\"password\" name=\"password\" autocomplete=\"new-password\" minlength=\"{}\" maxlength=\"{}\" required></label>\
<label>Confirm the new password <input type=\"password\" name=\"password_confirmation\" autocomplete=\"new-password\" required></label>\
<div class=\"buttons\"><button class=\"primary\" type=\"submit\">Change the password</button></div></form>",
                error_paragraph(error),
                update_password::UpdatePassword::PATH,
                escape(token),
                crate::mail::mailing::PASSWORD_MIN,
                crate::mail::mailing::PASSWORD_MAX,
            ),
        ),
    )
}
