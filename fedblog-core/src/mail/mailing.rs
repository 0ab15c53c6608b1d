//! The mail area (`app.mailing()`): running `send_mail` jobs (making each link's token, building
//! the message, handing it to the `Mailer`), and the flows that mail links: password resets,
//! changes of address confirmed from the new address, and the notification e-mail settings.

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use crate::config::InstanceConfig;
use crate::error::{ApiError, ApiResult, StoreError};
use crate::id::Id;
use crate::mail::{
    CONFIRMATION_PATH, CONFIRMATION_TOKEN_PARAM, EMAIL_CHANGE_CONFIRMATION_PATH,
    EMAIL_CHANGE_TOKEN_PARAM, EMAIL_CHANGE_VALID_HOURS, MailJob, MailQueue, Mailer,
    NOTIFICATION_EMAILS_PATH, PASSWORD_EDIT_PATH, RESET_TOKEN_PARAM, RESET_VALID_HOURS,
    mailed_setting, messages,
};
use crate::services::oauth::{OAuth, hash_secret, random_secret};
use crate::store::{
    AccountRecord, AccountStore, MailTokenPurpose, MailTokenRecord, NotificationEmailsRecord,
    NotificationStore, StatusStore, Store, UserRecord,
};

/// Shortest password (as sign-up: Devise's `password_length` 8..72).
pub const PASSWORD_MIN: usize = 8;
/// Longest password.
pub const PASSWORD_MAX: usize = 72;

/// The mail area: what it reads, the mailer it sends through, the queue it puts mails on, and
/// the OAuth area for passwords.
pub struct Mailing<'a> {
    accounts: &'a dyn AccountStore,
    notifications: &'a dyn NotificationStore,
    statuses: &'a dyn StatusStore,
    mailer: &'a dyn Mailer,
    config: &'a InstanceConfig,
    oauth: OAuth<'a>,
    queue: MailQueue<'a>,
    now: DateTime<Utc>,
}

/// Whether a password is acceptable: the rules of sign-up, and the confirmation typed alike.
/// The error names the field (`password` or `password_confirmation`), as sign-up's do.
pub fn check_new_password(password: &str, confirmation: &str) -> ApiResult<()> {
    let len = password.chars().count();
    if len < PASSWORD_MIN {
        return Err(ApiError::invalid_field(
            "password",
            "ERR_TOO_SHORT",
            format!("Password is too short (minimum is {PASSWORD_MIN} characters)"),
        ));
    }
    if len > PASSWORD_MAX {
        return Err(ApiError::invalid_field(
            "password",
            "ERR_TOO_LONG",
            format!("Password is too long (maximum is {PASSWORD_MAX} characters)"),
        ));
    }
    if password != confirmation {
        return Err(ApiError::invalid_field(
            "password_confirmation",
            "ERR_CONFIRMATION",
            "Password confirmation doesn't match Password",
        ));
    }
    Ok(())
}

/// Whether a link made at `sent_at` still works at `now`, `hours` after.
pub fn link_fresh(sent_at: DateTime<Utc>, now: DateTime<Utc>, hours: i64) -> bool {
    sent_at > now - Duration::hours(hours)
}

/// The error of a link that does not work (unknown, used, or expired), one for all three so
/// that a page tells nothing more.
fn invalid_link() -> ApiError {
    ApiError::new(
        http::StatusCode::NOT_FOUND,
        "This link is invalid, was already used, or has expired.",
    )
}

impl<'a> Mailing<'a> {
    /// The area over `store`, sending through `mailer`, with the instance's `config`, checking
    /// and hashing passwords through `oauth`, queueing mails on `queue`, at `now`.
    pub fn new(
        store: &'a dyn Store,
        mailer: &'a dyn Mailer,
        config: &'a InstanceConfig,
        oauth: OAuth<'a>,
        queue: MailQueue<'a>,
        now: DateTime<Utc>,
    ) -> Self {
        Mailing {
            accounts: store,
            notifications: store,
            statuses: store,
            mailer,
            config,
            oauth,
            queue,
            now,
        }
    }

    fn link(&self, path: &str, param: &str, token: &str) -> String {
        format!("{}{path}?{param}={token}", self.config.base_url())
    }

    /// The `send_mail` job: builds its mail and sends it. Nothing is sent, and the job is
    /// done, when what it names is gone or no longer wants the mail (a confirmed login, a
    /// disabled one, a notification setting turned off); a failed send is an error, so that
    /// the job is tried again.
    pub async fn run_job(&self, payload: &Value) -> Result<(), String> {
        let job = MailJob::parse(payload)?;
        let mail = self.build(&job).await.map_err(|e| e.to_string())?;
        let Some(mail) = mail else {
            return Ok(());
        };
        self.mailer.send(mail).await.map_err(|e| e.to_string())
    }

    /// The login and account of `account`, when both are there.
    async fn login(&self, account: Id) -> ApiResult<Option<(AccountRecord, UserRecord)>> {
        let Some(user) = self.accounts.user_by_account_id(account).await? else {
            return Ok(None);
        };
        Ok(self
            .accounts
            .account_by_id(account)
            .await?
            .map(|a| (a, user)))
    }

    /// The mail of a job, or `None` when there is nothing to send any more.
    async fn build(&self, job: &MailJob) -> ApiResult<Option<crate::mail::Mail>> {
        let title = &self.config.title;
        match job {
            MailJob::Confirmation { account } => {
                let Some((account, mut user)) = self.login(*account).await? else {
                    return Ok(None);
                };
                if user.confirmed_at.is_some() {
                    return Ok(None);
                }
                let token = random_secret();
                user.confirmation_token_hash = Some(hash_secret(&token));
                self.accounts.update_user(&user).await?;
                let link = self.link(CONFIRMATION_PATH, CONFIRMATION_TOKEN_PARAM, &token);
                Ok(Some(messages::confirmation(
                    title,
                    &account.username,
                    &user.email,
                    &link,
                )))
            }
            MailJob::PasswordReset { account } => {
                let Some((account, user)) = self.login(*account).await? else {
                    return Ok(None);
                };
                if user.disabled || account.is_suspended() {
                    return Ok(None);
                }
                let token = random_secret();
                self.accounts
                    .save_mail_token(&MailTokenRecord {
                        account_id: account.id,
                        purpose: MailTokenPurpose::PasswordReset,
                        token_hash: hash_secret(&token),
                        email: None,
                        sent_at: self.now,
                    })
                    .await?;
                let link = self.link(PASSWORD_EDIT_PATH, RESET_TOKEN_PARAM, &token);
                Ok(Some(messages::password_reset(
                    title,
                    &account.username,
                    &user.email,
                    &link,
                    RESET_VALID_HOURS,
                )))
            }
            MailJob::EmailChange { account, email } => {
                let Some((account, _)) = self.login(*account).await? else {
                    return Ok(None);
                };
                if self
                    .accounts
                    .user_by_email(email)
                    .await?
                    .is_some_and(|u| u.account_id != account.id)
                {
                    tracing::info!(account = %account.id, "the new address was taken meanwhile; no confirmation sent");
                    return Ok(None);
                }
                let token = random_secret();
                self.accounts
                    .save_mail_token(&MailTokenRecord {
                        account_id: account.id,
                        purpose: MailTokenPurpose::EmailChange,
                        token_hash: hash_secret(&token),
                        email: Some(email.clone()),
                        sent_at: self.now,
                    })
                    .await?;
                let link = self.link(
                    EMAIL_CHANGE_CONFIRMATION_PATH,
                    EMAIL_CHANGE_TOKEN_PARAM,
                    &token,
                );
                Ok(Some(messages::email_change(
                    title,
                    &account.username,
                    email,
                    &link,
                    EMAIL_CHANGE_VALID_HOURS,
                )))
            }
            MailJob::Notification { notification } => self.notification_mail(*notification).await,
            MailJob::Warning { warning } => {
                let Some(store) = self.accounts.moderation() else {
                    return Ok(None);
                };
                let Some(warning) = store.account_warning_by_id(*warning).await? else {
                    return Ok(None);
                };
                let Some((account, user)) = self.login(warning.target_account_id).await? else {
                    return Ok(None);
                };
                // Only to an address its owner confirmed; a suspended or disabled account is
                // told too, since the warning is how it learns why.
                if user.confirmed_at.is_none() {
                    return Ok(None);
                }
                Ok(Some(messages::warning(
                    title,
                    &account,
                    &user.email,
                    &warning,
                )))
            }
        }
    }

    async fn notification_mail(&self, id: Id) -> ApiResult<Option<crate::mail::Mail>> {
        let Some(n) = self.notifications.notification_by_id(id).await? else {
            return Ok(None);
        };
        let Some((recipient, user)) = self.login(n.account_id).await? else {
            return Ok(None);
        };
        let choices = self
            .accounts
            .notification_emails(&[recipient.id])
            .await?
            .pop()
            .map(|(_, c)| c)
            .unwrap_or_default();
        if n.filtered
            || user.confirmed_at.is_none()
            || user.disabled
            || recipient.is_suspended()
            || mailed_setting(n.kind, &choices) != Some(true)
        {
            return Ok(None);
        }
        let Some(from) = self.accounts.account_by_id(n.from_account_id).await? else {
            return Ok(None);
        };
        let status = match n.status_id {
            Some(s) => self.statuses.status_by_id(s).await?,
            None => None,
        };
        let author = match &status {
            Some(s) if s.account_id == from.id => Some(from.clone()),
            Some(s) => self.accounts.account_by_id(s.account_id).await?,
            None => None,
        };
        let base = self.config.base_url();
        let settings = format!("{base}{NOTIFICATION_EMAILS_PATH}");
        Ok(messages::notification(
            &self.config.title,
            &base,
            &user.email,
            n.kind,
            &from,
            status.as_ref().zip(author.as_ref()),
            &settings,
        ))
    }

    /// Asks for a password reset mail to the login with this address. Answers nothing either
    /// way, so that nobody learns which addresses have an account; a login that is disabled or
    /// suspended gets no mail (it could not sign in anyway).
    pub async fn request_password_reset(&self, email: &str) {
        let email = email.trim();
        if email.is_empty() {
            return;
        }
        match self.accounts.user_by_email(email).await {
            Ok(Some(user)) if !user.disabled => {
                self.queue
                    .queue(MailJob::PasswordReset {
                        account: user.account_id,
                    })
                    .await;
            }
            Ok(_) => {}
            Err(error) => tracing::error!(%error, "cannot look up the login of a password reset"),
        }
    }

    /// Whether a password reset token opens the form: known, unused and not expired.
    pub async fn reset_token_works(&self, token: &str) -> ApiResult<bool> {
        Ok(self
            .accounts
            .mail_token(MailTokenPurpose::PasswordReset, &hash_secret(token))
            .await?
            .is_some_and(|t| link_fresh(t.sent_at, self.now, RESET_VALID_HOURS)))
    }

    /// Sets a new password by a reset token, once: the password follows sign-up's rules (422
    /// naming the field); an unknown, used or expired token is a 404. Every token of the
    /// account is revoked and its streams close, as Mastodon signs every session out on a
    /// reset. Answers the account.
    pub async fn reset_password(
        &self,
        token: &str,
        password: &str,
        confirmation: &str,
    ) -> ApiResult<AccountRecord> {
        check_new_password(password, confirmation)?;
        let hash = hash_secret(token);
        // Checked before hashing, so that a dead link costs no Argon2 work.
        if !self.reset_token_works(token).await? {
            return Err(invalid_link());
        }
        let password_hash = self.oauth.hash_password(password).await?;
        let cutoff = self.now - Duration::hours(RESET_VALID_HOURS);
        let account = self
            .accounts
            .reset_password(&hash, cutoff, &password_hash, self.now)
            .await?
            .ok_or_else(invalid_link)?;
        self.oauth.access_ended(account).await;
        self.accounts
            .account_by_id(account)
            .await?
            .ok_or_else(ApiError::not_found)
    }

    /// Signs in with `login` and `password` for a settings page: the account and its login,
    /// or `None` when they do not match.
    pub async fn sign_in(
        &self,
        login: &str,
        password: &str,
    ) -> ApiResult<Option<(AccountRecord, UserRecord)>> {
        self.oauth.sign_in(login, password).await
    }

    /// Asks to change the address of the login `user` (signed in by its password) to
    /// `new_email`: checked as sign-up checks an address (422 naming `email`), then a link that
    /// confirms it goes to the new address; the old one stays until the link is opened.
    pub async fn request_email_change(&self, user: &UserRecord, new_email: &str) -> ApiResult<()> {
        let email = new_email.trim();
        if !crate::services::accounts::email_ok(email) {
            return Err(ApiError::invalid_field(
                "email",
                "ERR_INVALID",
                "Email is invalid",
            ));
        }
        if email.eq_ignore_ascii_case(&user.email) {
            return Err(ApiError::invalid_field(
                "email",
                "ERR_UNCHANGED",
                "Email is already the address of this account",
            ));
        }
        if self.accounts.user_by_email(email).await?.is_some() {
            return Err(ApiError::invalid_field(
                "email",
                "ERR_TAKEN",
                "Email has already been taken",
            ));
        }
        if !self
            .queue
            .queue(MailJob::EmailChange {
                account: user.account_id,
                email: email.to_string(),
            })
            .await
        {
            return Err(ApiError::internal());
        }
        Ok(())
    }

    /// Confirms a change of address by the token from the link, once: the new address
    /// replaces the login's. 404 for an unknown, used or expired link; 422 when another login
    /// took the address meanwhile.
    pub async fn confirm_email_change(&self, token: &str) -> ApiResult<UserRecord> {
        let cutoff = self.now - Duration::hours(EMAIL_CHANGE_VALID_HOURS);
        match self
            .accounts
            .confirm_email_change(&hash_secret(token), cutoff)
            .await
        {
            Ok(Some(user)) => Ok(user),
            Ok(None) => Err(invalid_link()),
            Err(StoreError::AlreadyExists(_)) => Err(ApiError::invalid_field(
                "email",
                "ERR_TAKEN",
                "Email has already been taken",
            )),
            Err(e) => Err(e.into()),
        }
    }

    /// The notification e-mail choices of an account (the defaults until it saves some).
    pub async fn notification_emails(&self, account: Id) -> ApiResult<NotificationEmailsRecord> {
        Ok(self
            .accounts
            .notification_emails(&[account])
            .await?
            .pop()
            .map(|(_, c)| c)
            .unwrap_or_default())
    }

    /// Saves the notification e-mail choices of an account.
    pub async fn save_notification_emails(
        &self,
        account: Id,
        choices: &NotificationEmailsRecord,
    ) -> ApiResult<()> {
        Ok(self
            .accounts
            .save_notification_emails(account, choices)
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    use crate::app::App;
    use crate::mail::{Mail, MailError};
    use crate::services::accounts::NewAccount;
    use crate::store::Role;

    /// Keeps the mails instead of sending them.
    #[derive(Default)]
    struct Captured(Mutex<Vec<Mail>>);

    #[async_trait::async_trait]
    impl Mailer for Captured {
        async fn send(&self, mail: Mail) -> Result<(), MailError> {
            self.0.lock().expect("mails").push(mail);
            Ok(())
        }
    }

    /// A mail server that is down.
    struct Down;

    #[async_trait::async_trait]
    impl Mailer for Down {
        async fn send(&self, _mail: Mail) -> Result<(), MailError> {
            Err(MailError("connection refused".into()))
        }
    }

    fn app(mailer: Arc<dyn Mailer>) -> App {
        let mut config = InstanceConfig::new("mail.test");
        config.password_hash_memory_kib = 64;
        config.title = "Mail Test".into();
        let mut app = App::new(Arc::new(crate::MemoryStore::new()), config);
        app.mailer = mailer;
        app
    }

    async fn member(app: &App, name: &str) -> (AccountRecord, UserRecord) {
        let (a, u, _) = app
            .accounts()
            .create_local_account(
                NewAccount {
                    username: name.into(),
                    email: format!("{name}@example.test"),
                    password: "old password".into(),
                    role: Role::User,
                    confirmed: true,
                    approved: true,
                    locale: "en".into(),
                },
                false,
            )
            .await
            .expect("account");
        (a, u)
    }

    async fn run_jobs(app: &App) -> crate::services::jobs::RoundReport {
        app.run_due_jobs("test", 50, Duration::seconds(60))
            .await
            .expect("jobs")
    }

    fn token_of(mail: &Mail, param: &str) -> String {
        let link = mail
            .links()
            .into_iter()
            .find(|l| l.contains(param))
            .expect("a link with the token")
            .to_string();
        link.split_once(&format!("{param}="))
            .expect("param")
            .1
            .to_string()
    }

    #[test]
    fn passwords_follow_the_rules_of_sign_up() {
        assert!(check_new_password("12345678", "12345678").is_ok());
        let short = check_new_password("1234567", "1234567").unwrap_err();
        assert!(short.details.expect("details").contains_key("password"));
        assert!(check_new_password(&"x".repeat(73), &"x".repeat(73)).is_err());
        assert!(check_new_password(&"x".repeat(72), &"x".repeat(72)).is_ok());
        let differ = check_new_password("12345678", "12345679").unwrap_err();
        assert!(
            differ
                .details
                .expect("details")
                .contains_key("password_confirmation")
        );
    }

    #[test]
    fn links_expire_after_their_hours() {
        let now = Utc::now();
        assert!(link_fresh(now - Duration::hours(5), now, 6));
        assert!(!link_fresh(now - Duration::hours(6), now, 6));
        assert!(!link_fresh(now - Duration::hours(7), now, 6));
    }

    #[tokio::test]
    async fn a_reset_link_works_once_and_signs_every_session_out() {
        let mails = Arc::new(Captured::default());
        let app = app(mails.clone());
        let (alice, _) = member(&app, "alice").await;
        let cli = app.oauth().cli_application().await.expect("cli app");
        let session = app
            .oauth()
            .issue_token(
                cli.id,
                Some(alice.id),
                &crate::scope::Scopes::parse("read").expect("scopes"),
            )
            .await
            .expect("token")
            .access_token;

        // Asking for an unknown address sends nothing, and says nothing.
        app.mailing()
            .request_password_reset("nobody@example.test")
            .await;
        app.mailing()
            .request_password_reset("ALICE@example.test")
            .await;
        assert_eq!(run_jobs(&app).await.done, 1);
        let sent = mails.0.lock().expect("mails").clone();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].to, "alice@example.test");
        assert!(sent[0].subject.contains("Mail Test"));
        let token = token_of(&sent[0], RESET_TOKEN_PARAM);
        assert!(
            app.mailing()
                .reset_token_works(&token)
                .await
                .expect("check")
        );
        assert!(
            !app.mailing()
                .reset_token_works("forged")
                .await
                .expect("check")
        );

        // A short password is refused and leaves the link working.
        let e = app
            .mailing()
            .reset_password(&token, "short", "short")
            .await
            .unwrap_err();
        assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            app.mailing()
                .reset_token_works(&token)
                .await
                .expect("check")
        );

        let done = app
            .mailing()
            .reset_password(&token, "new password", "new password")
            .await
            .expect("reset");
        assert_eq!(done.id, alice.id);
        assert!(
            app.oauth()
                .sign_in("alice", "new password")
                .await
                .expect("sign in")
                .is_some()
        );
        assert!(
            app.oauth()
                .sign_in("alice", "old password")
                .await
                .expect("sign in")
                .is_none()
        );
        let revoked = app
            .store
            .token_by_hash(&hash_secret(&session))
            .await
            .expect("token")
            .expect("kept");
        assert!(revoked.revoked_at.is_some(), "the reset signs sessions out");
        // Used once.
        let again = app
            .mailing()
            .reset_password(&token, "third password", "third password")
            .await
            .unwrap_err();
        assert_eq!(again.status, http::StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn an_expired_reset_link_does_not_work() {
        let app = app(Arc::new(Captured::default()));
        let (alice, _) = member(&app, "alice").await;
        let token = "an old token";
        app.store
            .save_mail_token(&MailTokenRecord {
                account_id: alice.id,
                purpose: MailTokenPurpose::PasswordReset,
                token_hash: hash_secret(token),
                email: None,
                sent_at: Utc::now() - Duration::hours(RESET_VALID_HOURS) - Duration::minutes(1),
            })
            .await
            .expect("token");
        assert!(!app.mailing().reset_token_works(token).await.expect("check"));
        let e = app
            .mailing()
            .reset_password(token, "new password", "new password")
            .await
            .unwrap_err();
        assert_eq!(e.status, http::StatusCode::NOT_FOUND);
        assert!(
            app.oauth()
                .sign_in("alice", "old password")
                .await
                .expect("sign in")
                .is_some()
        );
    }

    #[tokio::test]
    async fn a_new_address_replaces_the_old_once_confirmed_from_it() {
        let mails = Arc::new(Captured::default());
        let app = app(mails.clone());
        let (alice, user) = member(&app, "alice").await;
        let (_, bob) = member(&app, "bob").await;
        let taken = app
            .mailing()
            .request_email_change(&user, &bob.email)
            .await
            .unwrap_err();
        assert!(taken.details.expect("details").contains_key("email"));
        let bad = app
            .mailing()
            .request_email_change(&user, "not an address")
            .await
            .unwrap_err();
        assert_eq!(bad.status, http::StatusCode::UNPROCESSABLE_ENTITY);
        app.mailing()
            .request_email_change(&user, "alice@new.example")
            .await
            .expect("asked");
        assert_eq!(run_jobs(&app).await.done, 1);
        let sent = mails.0.lock().expect("mails").clone();
        assert_eq!(sent.len(), 1);
        assert_eq!(
            sent[0].to, "alice@new.example",
            "the link goes to the new address"
        );
        // Until the link is opened, the old address stays.
        let before = app
            .store
            .user_by_account_id(alice.id)
            .await
            .expect("user")
            .expect("login");
        assert_eq!(before.email, "alice@example.test");
        let token = token_of(&sent[0], EMAIL_CHANGE_TOKEN_PARAM);
        let after = app
            .mailing()
            .confirm_email_change(&token)
            .await
            .expect("confirmed");
        assert_eq!(after.email, "alice@new.example");
        assert_eq!(
            app.mailing()
                .confirm_email_change(&token)
                .await
                .unwrap_err()
                .status,
            http::StatusCode::NOT_FOUND
        );
    }

    #[tokio::test]
    async fn a_failed_send_is_retried_and_never_fails_the_request() {
        let app = app(Arc::new(Down));
        member(&app, "alice").await;
        // The request only queues.
        app.mailing()
            .request_password_reset("alice@example.test")
            .await;
        let report = run_jobs(&app).await;
        assert_eq!((report.done, report.failed), (0, 1));
        let job = app
            .store
            .claim_jobs(
                "later",
                Utc::now() + Duration::hours(2),
                Utc::now() + Duration::hours(3),
                10,
            )
            .await
            .expect("jobs");
        assert_eq!(job.len(), 1, "the failed mail is due again later");
        assert_eq!(job[0].kind, crate::mail::SEND_MAIL);
        assert!(
            job[0]
                .last_error
                .as_deref()
                .is_some_and(|e| e.contains("connection refused"))
        );
    }

    #[tokio::test]
    async fn notification_mails_follow_the_settings() {
        let mails = Arc::new(Captured::default());
        let app = app(mails.clone());
        let (alice, _) = member(&app, "alice").await;
        let (bob, _) = member(&app, "bob").await;
        crate::test_support::post(&app, &bob, "hi @alice", None).await;
        run_jobs(&app).await;
        {
            let sent = mails.0.lock().expect("mails");
            assert_eq!(sent.len(), 1, "a mention is mailed by default");
            assert_eq!(sent[0].to, "alice@example.test");
            assert!(sent[0].text.contains("hi @alice"), "{}", sent[0].text);
        }
        // Turned off, mentions are not mailed any more.
        app.mailing()
            .save_notification_emails(
                alice.id,
                &NotificationEmailsRecord {
                    mention: false,
                    ..NotificationEmailsRecord::DEFAULTS
                },
            )
            .await
            .expect("saved");
        crate::test_support::post(&app, &bob, "again @alice", None).await;
        run_jobs(&app).await;
        assert_eq!(mails.0.lock().expect("mails").len(), 1);
    }

    #[tokio::test]
    async fn a_warning_with_send_email_notification_is_mailed_to_the_warned() {
        use crate::services::moderation::{AccountAction, AccountActionType};
        let mails = Arc::new(Captured::default());
        let app = app(mails.clone());
        let (moderator, _) = member(&app, "morgan").await;
        let mut login = app
            .store
            .user_by_account_id(moderator.id)
            .await
            .expect("read")
            .expect("login");
        login.role = Role::Moderator;
        app.store.update_user(&login).await.expect("role");
        let (erin, _) = member(&app, "erin").await;
        for (send, text) in [(false, "quiet"), (true, "Please stop.")] {
            app.moderation()
                .act(
                    &moderator,
                    Role::Moderator,
                    erin.id,
                    AccountAction {
                        kind: AccountActionType::None,
                        report_id: None,
                        warning_preset_id: None,
                        text: text.into(),
                        send_email_notification: send,
                    },
                )
                .await
                .expect("warned");
        }
        run_jobs(&app).await;
        let sent = mails.0.lock().expect("mails").clone();
        assert_eq!(
            sent.len(),
            1,
            "only the warning that asked for it is mailed"
        );
        assert_eq!(sent[0].to, "erin@example.test");
        assert!(sent[0].text.contains("Please stop."), "{}", sent[0].text);
    }
}
