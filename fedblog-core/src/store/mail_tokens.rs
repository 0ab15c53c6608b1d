//! The records of the e-mail flows: links mailed to a login and not used yet (password resets,
//! the confirmation of a new address), and which notifications a login wants by e-mail.

use chrono::{DateTime, Utc};

use crate::id::Id;

/// What a mailed link is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MailTokenPurpose {
    /// It opens the form that sets a new password.
    PasswordReset,
    /// It confirms a new e-mail address, which then replaces the login's.
    EmailChange,
}

impl MailTokenPurpose {
    /// Every purpose.
    pub const ALL: [MailTokenPurpose; 2] = [
        MailTokenPurpose::PasswordReset,
        MailTokenPurpose::EmailChange,
    ];

    /// Its stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            MailTokenPurpose::PasswordReset => "password_reset",
            MailTokenPurpose::EmailChange => "email_change",
        }
    }

    /// The purpose of a stored name.
    pub fn parse(name: &str) -> Option<MailTokenPurpose> {
        MailTokenPurpose::ALL
            .into_iter()
            .find(|p| p.as_str() == name)
    }
}

/// A link mailed to a login and not used yet. A login has at most one per purpose (a new one
/// replaces the old); only the SHA-256 hash of the link's token is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct MailTokenRecord {
    /// The login (its account).
    pub account_id: Id,
    /// What the link is for.
    pub purpose: MailTokenPurpose,
    /// SHA-256 of the token, hex.
    pub token_hash: String,
    /// The new address an [`MailTokenPurpose::EmailChange`] confirms; `None` for a reset.
    pub email: Option<String>,
    /// When the link was made (it expires some time after).
    pub sent_at: DateTime<Utc>,
}

/// Which notifications a login wants by e-mail, as Mastodon's `notification_emails` user
/// settings name them. A login that never chose has [`NotificationEmailsRecord::DEFAULTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotificationEmailsRecord {
    /// Someone followed the account.
    pub follow: bool,
    /// Someone asked to follow the account.
    pub follow_request: bool,
    /// Someone mentioned the account.
    pub mention: bool,
    /// Someone reblogged one of the account's statuses.
    pub reblog: bool,
    /// Someone favourited one of the account's statuses.
    pub favourite: bool,
    /// A report was filed (staff who handle reports).
    pub report: bool,
    /// Someone signed up (staff who manage users).
    pub pending_account: bool,
}

impl NotificationEmailsRecord {
    /// Mastodon's defaults (`UserSettings`, namespace `notification_emails`): follows, follow
    /// requests, mentions, reports and sign-ups on; reblogs and favourites off.
    pub const DEFAULTS: NotificationEmailsRecord = NotificationEmailsRecord {
        follow: true,
        follow_request: true,
        mention: true,
        reblog: false,
        favourite: false,
        report: true,
        pending_account: true,
    };
}

impl Default for NotificationEmailsRecord {
    fn default() -> Self {
        NotificationEmailsRecord::DEFAULTS
    }
}
