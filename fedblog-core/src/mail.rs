//! The `Mailer` port (also reachable as `app::Mailer`): the e-mail messages a server sends
//! ([`Mail`], built by core in [`messages`]), `LogMailer`, which logs them instead of sending
//! them, and [`MailQueue`], through which areas queue them as durable `send_mail` jobs that the
//! workers build and send ([`mailing`]), so a failing mail server never fails a request and a
//! failed send is tried again.
//!
//! An embedder that sends e-mail implements [`Mailer::send`] and sets `App::mailer`.

pub mod mailing;
pub mod messages;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::id::{Id, IdGenerator};
use crate::services::jobs::{JobSignal, new_job};
use crate::store::{AccountStore, JobStore, NotificationRecord, NotificationType};

/// Where the link of a password reset mail leads: the form for the new password.
pub const PASSWORD_EDIT_PATH: &str = "/auth/password/edit";
/// The query parameter carrying a password reset's token.
pub const RESET_TOKEN_PARAM: &str = "reset_password_token";
/// Where the link of a sign-up confirmation mail leads.
pub const CONFIRMATION_PATH: &str = "/auth/confirmation";
/// The query parameter carrying a sign-up confirmation's token.
pub const CONFIRMATION_TOKEN_PARAM: &str = "confirmation_token";
/// Where the link confirming a new e-mail address leads.
pub const EMAIL_CHANGE_CONFIRMATION_PATH: &str = "/auth/email/confirmation";
/// The query parameter carrying an e-mail change's token.
pub const EMAIL_CHANGE_TOKEN_PARAM: &str = "token";
/// The page where a user chooses which notifications come by e-mail (linked from each
/// notification mail).
pub const NOTIFICATION_EMAILS_PATH: &str = "/auth/notification_emails";

/// How long a password reset link works: 6 hours, Devise's `reset_password_within` as Mastodon
/// sets it.
pub const RESET_VALID_HOURS: i64 = 6;
/// How long the link confirming a new address works: 2 days (our choice; long enough to find
/// the mail, short enough that an old mailbox cannot take an account over much later).
pub const EMAIL_CHANGE_VALID_HOURS: i64 = 48;

/// The job that builds and sends one mail; payload as [`MailJob::payload`] writes it.
pub const SEND_MAIL: &str = "send_mail";

/// Attempts before a mail job is dead: with the queue's back-off (10 s doubling, at most an
/// hour), a mail server down for about two hours still gets the mail.
pub const MAIL_MAX_ATTEMPTS: i32 = 10;

/// One e-mail message as core builds it: the recipient, the subject, and the same body as
/// plain text and as simple HTML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mail {
    /// The recipient's address.
    pub to: String,
    /// The subject line.
    pub subject: String,
    /// The body as plain text.
    pub text: String,
    /// The body as an HTML document.
    pub html: String,
}

impl Mail {
    /// The links in the body (the words of its text that are `http://` or `https://` URLs),
    /// as [`LogMailer`] logs them.
    pub fn links(&self) -> Vec<&str> {
        self.text
            .split_whitespace()
            .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
            .collect()
    }
}

/// A mail that could not be sent; the job sending it is tried again later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailError(pub String);

impl std::fmt::Display for MailError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MailError {}

/// Sends the e-mails a server sends. Core builds every message; a mailer only delivers it.
/// Sends run in background jobs, never inside a request: an error is logged and the job is
/// tried again with back-off.
#[async_trait]
pub trait Mailer: Send + Sync {
    /// Delivers one message.
    async fn send(&self, mail: Mail) -> Result<(), MailError>;
    /// Whether messages reach a mailbox. A mailer that only logs them answers `false`, and
    /// notification e-mails (which only a mailbox needs) are then not queued at all.
    fn delivers(&self) -> bool {
        true
    }
}

/// A mailer that logs messages instead of sending them (development and small servers): the
/// recipient, the subject and the links, which is all a reader needs to follow them. Mails
/// never carry a password.
pub struct LogMailer;

#[async_trait]
impl Mailer for LogMailer {
    async fn send(&self, mail: Mail) -> Result<(), MailError> {
        let links = mail.links().join(" ");
        tracing::info!(to = %mail.to, subject = %mail.subject, %links, "e-mail (logged, not sent)");
        Ok(())
    }

    fn delivers(&self) -> bool {
        false
    }
}

/// What a `send_mail` job sends. The tokens of links are made when the job runs, so that no
/// secret waits in the job table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MailJob {
    /// The sign-up confirmation link to the login's address (a new link each time).
    Confirmation {
        /// The account.
        account: Id,
    },
    /// A password reset link to the login's address.
    PasswordReset {
        /// The account.
        account: Id,
    },
    /// The link confirming `email`, sent to that address.
    EmailChange {
        /// The account.
        account: Id,
        /// The new address.
        email: String,
    },
    /// A notification told by e-mail.
    Notification {
        /// The notification.
        notification: Id,
    },
    /// A moderation warning told by e-mail.
    Warning {
        /// The warning.
        warning: Id,
    },
}

impl MailJob {
    /// The job's payload.
    pub fn payload(&self) -> Value {
        match self {
            MailJob::Confirmation { account } => {
                json!({ "mail": "confirmation", "account_id": account.to_string() })
            }
            MailJob::PasswordReset { account } => {
                json!({ "mail": "password_reset", "account_id": account.to_string() })
            }
            MailJob::EmailChange { account, email } => json!({
                "mail": "email_change",
                "account_id": account.to_string(),
                "email": email,
            }),
            MailJob::Notification { notification } => {
                json!({ "mail": "notification", "notification_id": notification.to_string() })
            }
            MailJob::Warning { warning } => {
                json!({ "mail": "warning", "warning_id": warning.to_string() })
            }
        }
    }

    /// The job of a payload.
    pub fn parse(payload: &Value) -> Result<MailJob, String> {
        let id = |key: &str| {
            payload[key]
                .as_str()
                .and_then(|s| s.parse::<Id>().ok())
                .ok_or_else(|| format!("payload has no {key}"))
        };
        match payload["mail"].as_str() {
            Some("confirmation") => Ok(MailJob::Confirmation {
                account: id("account_id")?,
            }),
            Some("password_reset") => Ok(MailJob::PasswordReset {
                account: id("account_id")?,
            }),
            Some("email_change") => Ok(MailJob::EmailChange {
                account: id("account_id")?,
                email: payload["email"]
                    .as_str()
                    .ok_or("payload has no email")?
                    .to_string(),
            }),
            Some("notification") => Ok(MailJob::Notification {
                notification: id("notification_id")?,
            }),
            Some("warning") => Ok(MailJob::Warning {
                warning: id("warning_id")?,
            }),
            other => Err(format!("unknown mail {other:?}")),
        }
    }
}

/// The notification e-mail setting that decides whether a notification of `kind` is mailed;
/// `None` for the kinds never mailed (as Mastodon: posts of followed accounts, edits and edits
/// of quoted posts, polls, severed relationships, and moderation warnings, which have a mail of
/// their own).
pub fn mailed_setting(
    kind: NotificationType,
    choices: &crate::store::NotificationEmailsRecord,
) -> Option<bool> {
    match kind {
        NotificationType::Mention => Some(choices.mention),
        NotificationType::Follow => Some(choices.follow),
        NotificationType::FollowRequest => Some(choices.follow_request),
        NotificationType::Reblog => Some(choices.reblog),
        NotificationType::Favourite => Some(choices.favourite),
        NotificationType::AdminReport => Some(choices.report),
        NotificationType::AdminSignUp => Some(choices.pending_account),
        // Mastodon 4.5 mails quotes under a setting of their own (on by default, turned off for
        // those who had both mention and reblog mails off); fedblog keeps no such setting, so a
        // quote is mailed as that default would have it.
        NotificationType::Quote => Some(choices.mention || choices.reblog),
        NotificationType::Status
        | NotificationType::Poll
        | NotificationType::Update
        | NotificationType::SeveredRelationships
        | NotificationType::ModerationWarning
        | NotificationType::QuotedUpdate => None,
    }
}

/// Whether a notification of `kind` may be mailed at all, whatever the settings.
pub fn mailable(kind: NotificationType) -> bool {
    mailed_setting(kind, &crate::store::NotificationEmailsRecord::DEFAULTS).is_some()
}

/// Where areas queue mails: `send_mail` jobs in the job store, due at once. With a
/// [`JobSignal`], this process's idle workers wake for them; without one, a worker finds them
/// at its next poll. Queueing never fails the caller: a store that refuses the job is logged.
#[derive(Clone, Copy)]
pub struct MailQueue<'a> {
    jobs: &'a dyn JobStore,
    signal: Option<&'a JobSignal>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> MailQueue<'a> {
    /// The queue in `jobs`, waking workers through `signal` when given, making ids with `ids`,
    /// at `now`.
    pub fn new(
        jobs: &'a dyn JobStore,
        signal: Option<&'a JobSignal>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        MailQueue {
            jobs,
            signal,
            ids,
            now,
        }
    }

    /// Queues one mail; `false` (logged) when the store refused the job.
    pub async fn queue(&self, mail: MailJob) -> bool {
        let mut job = new_job(
            self.ids.next(),
            SEND_MAIL,
            &mail.payload().to_string(),
            self.now,
            self.now,
        );
        job.max_attempts = MAIL_MAX_ATTEMPTS;
        match self.jobs.enqueue_job(&job).await {
            Ok(()) => {
                if let Some(signal) = self.signal {
                    signal.notify();
                }
                true
            }
            Err(error) => {
                tracing::error!(%error, ?mail, "cannot queue an e-mail");
                false
            }
        }
    }

    /// Queues the mails of new notifications that their recipients want by e-mail: those not
    /// filtered by a policy, of a kind that is mailed, to logins with a confirmed address that
    /// are not disabled, whose settings ask for that kind (the job checks again when it runs).
    /// Reads nothing when no notification is of a mailed kind.
    pub async fn notifications(&self, accounts: &dyn AccountStore, new: &[NotificationRecord]) {
        let candidates: Vec<&NotificationRecord> = new
            .iter()
            .filter(|n| !n.filtered && mailable(n.kind))
            .collect();
        if candidates.is_empty() {
            return;
        }
        let ids: Vec<Id> = candidates.iter().map(|n| n.account_id).collect();
        let (users, choices) = match futures_util::future::try_join(
            accounts.users_by_account_ids(&ids),
            accounts.notification_emails(&ids),
        )
        .await
        {
            Ok(read) => read,
            Err(error) => {
                tracing::error!(%error, "cannot read who wants notification e-mails");
                return;
            }
        };
        for n in candidates {
            let Some(user) = users.iter().find(|u| u.account_id == n.account_id) else {
                continue;
            };
            let chosen = choices
                .iter()
                .find(|(a, _)| *a == n.account_id)
                .map(|(_, c)| *c)
                .unwrap_or_default();
            if user.confirmed_at.is_some()
                && !user.disabled
                && mailed_setting(n.kind, &chosen) == Some(true)
            {
                self.queue(MailJob::Notification { notification: n.id })
                    .await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_payloads_read_back() {
        let jobs = [
            MailJob::Confirmation {
                account: Id::from_i64(7),
            },
            MailJob::PasswordReset {
                account: Id::from_i64(8),
            },
            MailJob::EmailChange {
                account: Id::from_i64(9),
                email: "new@example.test".into(),
            },
            MailJob::Notification {
                notification: Id::from_i64(10),
            },
            MailJob::Warning {
                warning: Id::from_i64(11),
            },
        ];
        for job in jobs {
            assert_eq!(MailJob::parse(&job.payload()), Ok(job));
        }
        assert!(MailJob::parse(&json!({"mail": "spam"})).is_err());
        assert!(MailJob::parse(&json!({"mail": "warning"})).is_err());
    }

    #[test]
    fn payloads_hold_no_secret() {
        // The tokens of links are made when the job runs: a payload names records only.
        let p = MailJob::PasswordReset {
            account: Id::from_i64(8),
        }
        .payload()
        .to_string();
        assert!(!p.contains("token"), "{p}");
    }

    #[test]
    fn mastodon_defaults_decide_which_kinds_are_mailed() {
        let d = crate::store::NotificationEmailsRecord::DEFAULTS;
        assert_eq!(mailed_setting(NotificationType::Mention, &d), Some(true));
        assert_eq!(mailed_setting(NotificationType::Follow, &d), Some(true));
        assert_eq!(
            mailed_setting(NotificationType::FollowRequest, &d),
            Some(true)
        );
        assert_eq!(mailed_setting(NotificationType::Favourite, &d), Some(false));
        assert_eq!(mailed_setting(NotificationType::Reblog, &d), Some(false));
        assert_eq!(
            mailed_setting(NotificationType::AdminReport, &d),
            Some(true)
        );
        assert_eq!(
            mailed_setting(NotificationType::AdminSignUp, &d),
            Some(true)
        );
        assert_eq!(mailed_setting(NotificationType::Quote, &d), Some(true));
        let quiet = crate::store::NotificationEmailsRecord {
            mention: false,
            reblog: false,
            ..d
        };
        assert_eq!(mailed_setting(NotificationType::Quote, &quiet), Some(false));
        for never in [
            NotificationType::Status,
            NotificationType::Poll,
            NotificationType::Update,
            NotificationType::ModerationWarning,
            NotificationType::QuotedUpdate,
        ] {
            assert!(!mailable(never), "{never:?}");
        }
    }

    #[test]
    fn links_are_the_urls_of_the_text() {
        let mail = Mail {
            to: "a@example.test".into(),
            subject: "s".into(),
            text: "Open https://x.test/a?b=c to go on,\nor http://y.test/.".into(),
            html: String::new(),
        };
        assert_eq!(
            mail.links(),
            vec!["https://x.test/a?b=c", "http://y.test/."]
        );
    }
}
