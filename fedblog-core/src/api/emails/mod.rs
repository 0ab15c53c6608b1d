//! E-mail addresses: whether the caller's is confirmed (`GET /api/v1/emails/check_confirmation`;
//! resending the confirmation is `accounts::resend_confirmation`), and the pages of the e-mail
//! settings Mastodon keeps in its web interface: changing the address (confirmed by a link sent
//! to the new one before it replaces the old) and choosing which notifications come by e-mail.
//! The pages sign in with the account's login and password on each form, as the sign-in page
//! does; no session is kept.

pub mod change_email;
pub mod check_confirmation;
pub mod confirm_email_change;
pub mod edit_email;
pub mod notification_emails_page;
pub mod save_notification_emails;

use http::StatusCode;

use crate::api::oauth::page;
use crate::api::passwords::error_paragraph;
use crate::app::App;
use crate::content::escape;
use crate::endpoint::{Endpoint, Html};
use crate::store::{NotificationEmailsRecord, Role};

/// The login and password fields of a settings form.
fn login_fields(login: &str) -> String {
    format!(
        "<label>Username or e-mail <input name=\"username\" autocomplete=\"username\" required value=\"{}\"></label>\
<label>Password <input type=\"password\" name=\"password\" autocomplete=\"current-password\" required></label>",
        escape(login)
    )
}

/// The form changing the address.
pub fn change_form(
    app: &App,
    status: StatusCode,
    login: &str,
    email: &str,
    error: Option<&str>,
) -> Html {
    Html(
        status,
        page(
            app,
            "Change your e-mail address",
            &format!(
                "{}<p>Sign in, then give the new address: a link to confirm it is sent there, and it \
replaces the current one once you open it.</p><form class=\"card\" method=\"post\" action=\"{}\">{}\
<label>New e-mail address <input type=\"email\" name=\"email\" autocomplete=\"email\" required value=\"{}\"></label>\
<div class=\"buttons\"><button class=\"primary\" type=\"submit\">Send the confirmation link</button></div></form>",
                error_paragraph(error),
                change_email::ChangeEmail::PATH,
                login_fields(login),
                escape(email)
            ),
        ),
    )
}

/// The sign-in form in front of the notification e-mail settings.
pub fn settings_sign_in(app: &App, status: StatusCode, login: &str, error: Option<&str>) -> Html {
    Html(
        status,
        page(
            app,
            "Notification e-mails",
            &format!(
                "{}<p>Sign in to choose which notifications come by e-mail.</p>\
<form class=\"card\" method=\"post\" action=\"{}\">{}<div class=\"buttons\"><button class=\"primary\" type=\"submit\">Continue</button></div></form>",
                error_paragraph(error),
                save_notification_emails::SaveNotificationEmails::PATH,
                login_fields(login)
            ),
        ),
    )
}

/// The choices a role sees: everyone's, and the staff's two.
fn choice_boxes(
    role: Role,
    c: &NotificationEmailsRecord,
) -> Vec<(&'static str, &'static str, bool)> {
    let mut boxes = vec![
        ("follow", "Someone followed you", c.follow),
        (
            "follow_request",
            "Someone asked to follow you",
            c.follow_request,
        ),
        ("mention", "Someone mentioned you", c.mention),
        ("reblog", "Someone boosted your post", c.reblog),
        ("favourite", "Someone favourited your post", c.favourite),
    ];
    if role != Role::User {
        boxes.push(("report", "A report was filed (staff)", c.report));
        boxes.push((
            "pending_account",
            "Someone signed up (staff)",
            c.pending_account,
        ));
    }
    boxes
}

/// The settings form with the account's choices, carrying the login and password it was
/// opened with (the next post signs in with them again).
pub fn settings_form(
    app: &App,
    login: &str,
    password: &str,
    role: Role,
    choices: &NotificationEmailsRecord,
    note: Option<&str>,
) -> Html {
    let mut boxes = String::new();
    for (name, label, on) in choice_boxes(role, choices) {
        boxes.push_str(&format!(
            "<label><input type=\"checkbox\" name=\"{name}\" value=\"1\"{}> {label}</label>",
            if on { " checked" } else { "" }
        ));
    }
    let note = note
        .map(|n| format!("<p role=\"status\">{}</p>", escape(n)))
        .unwrap_or_default();
    Html(
        StatusCode::OK,
        page(
            app,
            "Notification e-mails",
            &format!(
                "{note}<p>Send me an e-mail when:</p><form class=\"card\" method=\"post\" action=\"{}\">\
<input type=\"hidden\" name=\"username\" value=\"{}\"><input type=\"hidden\" name=\"password\" value=\"{}\">\
<input type=\"hidden\" name=\"save\" value=\"1\">{boxes}\
<div class=\"buttons\"><button class=\"primary\" type=\"submit\">Save</button></div></form>",
                save_notification_emails::SaveNotificationEmails::PATH,
                escape(login),
                escape(password)
            ),
        ),
    )
}
