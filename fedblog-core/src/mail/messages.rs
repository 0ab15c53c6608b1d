//! The texts of the e-mails a server sends: subject, plain text and simple HTML of each, with
//! the instance's name, built from records and links (no store, no sending).

use crate::content::{escape, html_to_plain};
use crate::mail::Mail;
use crate::store::{
    AccountRecord, AccountWarningRecord, NotificationType, StatusRecord, WarningAction,
};

/// One piece of a message body.
enum Part {
    /// A paragraph.
    Text(String),
    /// A link with what it does: `label` then the URL on its own line in the text.
    Link(String, String),
    /// Quoted words of someone else (a status's text, a moderator's note).
    Quote(String),
}

/// Puts a message together: the text and the HTML say the same, the HTML escaped, both
/// ending with the instance's name (and, when given, the link to the e-mail settings).
fn compose(
    title: &str,
    to: &str,
    subject: String,
    parts: Vec<Part>,
    settings: Option<&str>,
) -> Mail {
    let mut text = String::new();
    let mut html = String::new();
    for part in &parts {
        match part {
            Part::Text(t) => {
                text.push_str(t);
                html.push_str(&format!("<p>{}</p>", escape(t)));
            }
            Part::Link(label, url) => {
                text.push_str(&format!("{label}:\n{url}"));
                html.push_str(&format!(
                    "<p><a href=\"{}\">{}</a></p>",
                    escape(url),
                    escape(label)
                ));
            }
            Part::Quote(q) => {
                for line in q.lines() {
                    text.push_str("> ");
                    text.push_str(line);
                    text.push('\n');
                }
                let text_end = text.trim_end_matches('\n').len();
                text.truncate(text_end);
                html.push_str(&format!(
                    "<blockquote>{}</blockquote>",
                    escape(q).replace('\n', "<br>")
                ));
            }
        }
        text.push_str("\n\n");
    }
    text.push_str(&format!("-- \n{title}\n"));
    html.push_str(&format!(
        "<hr><p style=\"color:#666\">{}</p>",
        escape(title)
    ));
    if let Some(url) = settings {
        text.push_str(&format!(
            "Choose which notifications come by e-mail:\n{url}\n"
        ));
        html.push_str(&format!(
            "<p style=\"color:#666\"><a href=\"{}\">Choose which notifications come by e-mail</a></p>",
            escape(url)
        ));
    }
    let html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{}</title></head>\
<body style=\"font-family:sans-serif;max-width:36rem\">{html}</body></html>",
        escape(&subject)
    );
    Mail {
        to: to.to_string(),
        subject,
        text,
        html,
    }
}

/// The sign-up confirmation: the link that confirms `to` for `@username`.
pub fn confirmation(title: &str, username: &str, to: &str, link: &str) -> Mail {
    compose(
        title,
        to,
        format!("{title}: confirm your e-mail address"),
        vec![
            Part::Text(format!(
                "Welcome to {title}, @{username}! Confirm your e-mail address to finish signing up."
            )),
            Part::Link("Confirm your e-mail address".into(), link.to_string()),
            Part::Text(
                "If you did not sign up, ignore this message: nothing happens without the link."
                    .into(),
            ),
        ],
        None,
    )
}

/// A password reset: the link to the form that sets a new password, valid `hours`.
pub fn password_reset(title: &str, username: &str, to: &str, link: &str, hours: i64) -> Mail {
    compose(
        title,
        to,
        format!("{title}: reset your password"),
        vec![
            Part::Text(format!(
                "Someone asked to reset the password of @{username} on {title}."
            )),
            Part::Link("Choose a new password".into(), link.to_string()),
            Part::Text(format!(
                "The link works once, for {hours} hours. If you did not ask, ignore this message: \
your password stays as it is."
            )),
        ],
        None,
    )
}

/// A change of address: the link, sent to the new address, that makes it the login's.
pub fn email_change(title: &str, username: &str, to: &str, link: &str, hours: i64) -> Mail {
    compose(
        title,
        to,
        format!("{title}: confirm your new e-mail address"),
        vec![
            Part::Text(format!(
                "@{username} on {title} asked to use this address from now on. It replaces the \
old one once you open the link."
            )),
            Part::Link("Confirm your new e-mail address".into(), link.to_string()),
            Part::Text(format!(
                "The link works once, for {hours} hours. If you did not ask, ignore this message."
            )),
        ],
        None,
    )
}

/// What a notification mail shows of the status it is about: its content warning, or its text.
fn status_text(status: &StatusRecord) -> String {
    if !status.spoiler_text.is_empty() {
        return format!("CW: {}", status.spoiler_text);
    }
    let text = html_to_plain(&status.content);
    let text = if text.trim().is_empty() {
        status.text.clone()
    } else {
        text
    };
    match text.char_indices().nth(500) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// The page of a status, for the link of a notification mail.
fn status_link(base_url: &str, author: &AccountRecord, status: &StatusRecord) -> String {
    if status.local {
        format!("{base_url}/@{}/{}", author.username, status.id)
    } else {
        status
            .uri
            .clone()
            .unwrap_or_else(|| crate::content::account_url(base_url, author))
    }
}

/// A notification told by e-mail: what `from` did, with the status concerned (whose author is
/// `author`). `None` for the kinds that are never mailed. `settings` is the page where the
/// recipient chooses which notifications come by e-mail.
// One argument per fact the message shows.
#[allow(clippy::too_many_arguments)]
pub fn notification(
    title: &str,
    base_url: &str,
    to: &str,
    kind: NotificationType,
    from: &AccountRecord,
    status: Option<(&StatusRecord, &AccountRecord)>,
    settings: &str,
) -> Option<Mail> {
    let who = if from.display_name.trim().is_empty() {
        format!("@{}", from.acct())
    } else {
        format!("{} (@{})", from.display_name.trim(), from.acct())
    };
    let (subject, what) = match kind {
        NotificationType::Mention => (
            format!("You were mentioned by {who}"),
            format!("{who} mentioned you:"),
        ),
        NotificationType::Follow => (
            format!("{who} followed you"),
            format!("{who} is now following you on {title}."),
        ),
        NotificationType::FollowRequest => (
            format!("Pending follower: {who}"),
            format!("{who} asked to follow you; accept or reject the request in your app."),
        ),
        NotificationType::Reblog => (
            format!("{who} boosted your post"),
            format!("{who} boosted your post:"),
        ),
        NotificationType::Favourite => (
            format!("{who} favourited your post"),
            format!("{who} favourited your post:"),
        ),
        NotificationType::AdminReport => (
            format!("New report on {title}"),
            format!("{who} filed a report. Review it in the moderation tools of your app."),
        ),
        NotificationType::AdminSignUp => (
            format!("New sign-up on {title}"),
            format!("{who} signed up on {title}."),
        ),
        NotificationType::Quote => (
            format!("{who} quoted your post"),
            format!("{who} quoted your post:"),
        ),
        NotificationType::Status
        | NotificationType::Poll
        | NotificationType::Update
        | NotificationType::SeveredRelationships
        | NotificationType::ModerationWarning
        | NotificationType::QuotedUpdate => return None,
    };
    let mut parts = vec![Part::Text(what)];
    match status {
        Some((s, author)) => {
            parts.push(Part::Quote(status_text(s)));
            parts.push(Part::Link(
                "Open the post".into(),
                status_link(base_url, author, s),
            ));
        }
        None => parts.push(Part::Link(
            format!("See the profile of {who}"),
            crate::content::account_url(base_url, from),
        )),
    }
    Some(compose(
        title,
        to,
        format!("{title}: {subject}"),
        parts,
        Some(settings),
    ))
}

/// What a moderation action did, said to the account it was taken on.
fn warning_action(action: WarningAction) -> &'static str {
    match action {
        WarningAction::None => "A moderator sent you a warning.",
        WarningAction::Disable => "A moderator disabled your login: you cannot sign in for now.",
        WarningAction::MarkStatusesAsSensitive => {
            "A moderator marked some of your posts as sensitive."
        }
        WarningAction::DeleteStatuses => "A moderator removed some of your posts.",
        WarningAction::Sensitive => {
            "A moderator made every media of your posts sensitive from now on."
        }
        WarningAction::Silence => {
            "A moderator limited your account: only your followers see your posts."
        }
        WarningAction::Suspend => "A moderator suspended your account.",
    }
}

/// A moderation warning told by e-mail to the warned account.
pub fn warning(
    title: &str,
    account: &AccountRecord,
    to: &str,
    warning: &AccountWarningRecord,
) -> Mail {
    let mut parts = vec![Part::Text(format!(
        "Hello @{}. {}",
        account.username,
        warning_action(warning.action)
    ))];
    if !warning.text.trim().is_empty() {
        parts.push(Part::Text("The moderator's note:".into()));
        parts.push(Part::Quote(warning.text.trim().to_string()));
    }
    if !warning.status_ids.is_empty() {
        parts.push(Part::Text(format!(
            "It concerns {} of your posts.",
            warning.status_ids.len()
        )));
    }
    parts.push(Part::Text(format!(
        "If you think this is a mistake, write to the staff of {title}."
    )));
    let subject = match warning.action {
        WarningAction::None => format!("{title}: a warning about your account"),
        WarningAction::Suspend => format!("{title}: your account is suspended"),
        WarningAction::Disable => format!("{title}: your login is disabled"),
        _ => format!("{title}: a moderation action on your account"),
    };
    compose(title, to, subject, parts, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::Id;
    use chrono::Utc;

    fn account(name: &str, display: &str) -> AccountRecord {
        let mut a = AccountRecord::new_local(Id::from_i64(1), name, Utc::now());
        a.display_name = display.into();
        a
    }

    #[test]
    fn confirmation_names_the_instance_and_carries_the_link_in_both_bodies() {
        let m = confirmation(
            "Example Social",
            "alice",
            "alice@example.test",
            "https://social.example/auth/confirmation?confirmation_token=abc",
        );
        assert_eq!(m.to, "alice@example.test");
        assert!(m.subject.contains("Example Social"), "{}", m.subject);
        assert!(m.text.contains("@alice"));
        assert!(m.text.contains("Example Social"));
        assert!(
            m.text
                .contains("https://social.example/auth/confirmation?confirmation_token=abc")
        );
        assert!(
            m.html.contains(
                "href=\"https://social.example/auth/confirmation?confirmation_token=abc\""
            ),
            "{}",
            m.html
        );
        assert_eq!(
            m.links(),
            vec!["https://social.example/auth/confirmation?confirmation_token=abc"]
        );
    }

    #[test]
    fn html_escapes_what_people_wrote() {
        let from = account("mallory", "<script>x</script>");
        let mut status = crate::store::StatusRecord {
            id: Id::from_i64(5),
            account_id: from.id,
            uri: None,
            text: String::new(),
            content: "<p>hi &amp; <b>bye</b></p>".into(),
            spoiler_text: String::new(),
            visibility: crate::store::Visibility::Public,
            sensitive: false,
            language: None,
            in_reply_to_id: None,
            in_reply_to_account_id: None,
            application_id: None,
            mentions: vec![],
            tags: vec![],
            media_ids: vec![],
            idempotency_key: None,
            local: true,
            created_at: Utc::now(),
            edited_at: None,
            reblog_of_id: None,
            conversation_id: None,
            replies_count: 0,
            reblogs_count: 0,
            favourites_count: 0,
        };
        let m = notification(
            "T",
            "https://t.example",
            "bob@example.test",
            NotificationType::Mention,
            &from,
            Some((&status, &from)),
            "https://t.example/auth/notification_emails",
        )
        .expect("mentions are mailed");
        assert!(!m.html.contains("<script>"), "{}", m.html);
        assert!(m.html.contains("&lt;script&gt;"));
        // The status shows as text, its markup gone.
        assert!(m.text.contains("> hi & bye"), "{}", m.text);
        assert!(m.text.contains("https://t.example/@mallory/5"));
        assert!(
            m.text
                .contains("https://t.example/auth/notification_emails")
        );
        // A content warning is shown instead of the text.
        status.spoiler_text = "spoilers".into();
        let m = notification(
            "T",
            "https://t.example",
            "bob@example.test",
            NotificationType::Favourite,
            &from,
            Some((&status, &from)),
            "https://t.example/auth/notification_emails",
        )
        .expect("favourites are mailed when chosen");
        assert!(m.text.contains("CW: spoilers") && !m.text.contains("bye"));
        // A quote names the quoting account and shows the quoting status.
        let m = notification(
            "T",
            "https://t.example",
            "bob@example.test",
            NotificationType::Quote,
            &from,
            Some((&status, &from)),
            "https://t.example/auth/notification_emails",
        )
        .expect("quotes are mailed");
        assert!(m.subject.contains("quoted your post"), "{}", m.subject);
        assert!(m.text.contains("CW: spoilers"), "{}", m.text);
        assert!(m.text.contains("https://t.example/@mallory/5"));
    }

    #[test]
    fn kinds_never_mailed_build_no_message() {
        let from = account("carol", "");
        for kind in [
            NotificationType::Poll,
            NotificationType::Status,
            NotificationType::Update,
            NotificationType::ModerationWarning,
            NotificationType::QuotedUpdate,
        ] {
            assert!(
                notification(
                    "T",
                    "https://t",
                    "x@y.test",
                    kind,
                    &from,
                    None,
                    "https://t/s"
                )
                .is_none()
            );
        }
        let follow = notification(
            "T",
            "https://t",
            "x@y.test",
            NotificationType::Follow,
            &from,
            None,
            "https://t/s",
        )
        .expect("follows are mailed");
        assert!(
            follow.subject.contains("@carol followed you"),
            "{}",
            follow.subject
        );
        assert!(follow.text.contains("https://t/@carol"));
    }

    #[test]
    fn reset_and_change_say_how_long_the_link_works() {
        let r = password_reset("T", "dave", "d@x.test", "https://t/r?t=1", 6);
        assert!(r.text.contains("6 hours") && r.text.contains("once"));
        assert!(r.text.contains("https://t/r?t=1"));
        let c = email_change("T", "dave", "new@x.test", "https://t/c?t=2", 48);
        assert_eq!(c.to, "new@x.test");
        assert!(c.text.contains("48 hours") && c.text.contains("https://t/c?t=2"));
    }

    #[test]
    fn a_warning_says_what_was_done_and_quotes_the_note() {
        let a = account("erin", "");
        let w = AccountWarningRecord {
            id: Id::from_i64(3),
            account_id: None,
            target_account_id: a.id,
            action: WarningAction::Silence,
            text: "Stop spamming.".into(),
            report_id: None,
            status_ids: vec![Id::from_i64(4)],
            created_at: Utc::now(),
        };
        let m = warning("T", &a, "erin@x.test", &w);
        assert!(m.text.contains("limited your account"), "{}", m.text);
        assert!(m.text.contains("> Stop spamming."));
        assert!(m.text.contains("1 of your posts"));
        assert!(m.html.contains("<blockquote>Stop spamming.</blockquote>"));
    }
}
