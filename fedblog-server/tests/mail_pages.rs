//! The e-mail flows through HTTP on a real server: the confirmation state of a new account,
//! the password reset pages (no account enumeration, a link that works once, sessions signed
//! out), the change of address confirmed from the new address, and the notification e-mail
//! settings page, with the mails caught by a mailer of the test's own.

mod common;

use std::sync::{Arc, Mutex};

use common::{PASSWORD, TestServer};
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    confirm_email::ConfirmEmail, register_account::RegisterAccount,
    verify_credentials::VerifyCredentials,
};
use fedblog_core::api::emails::{
    change_email::ChangeEmail, check_confirmation::CheckConfirmation,
    confirm_email_change::ConfirmEmailChange, edit_email::EditEmail,
    save_notification_emails::SaveNotificationEmails,
};
use fedblog_core::api::oauth::authorize_decision::AuthorizeDecision;
use fedblog_core::api::passwords::{
    edit_password::EditPassword, new_password::NewPassword, request_reset::RequestReset,
    update_password::UpdatePassword,
};
use fedblog_core::app::{Mail, MailError, Mailer};
use fedblog_core::mail::{CONFIRMATION_PATH, NOTIFICATION_EMAILS_PATH};
use fedblog_core::store::NotificationEmailsRecord;
use fedblog_testkit::client::form;

/// Keeps the mails instead of sending them.
#[derive(Default)]
struct Outbox(Mutex<Vec<Mail>>);

#[async_trait::async_trait]
impl Mailer for Outbox {
    async fn send(&self, mail: Mail) -> Result<(), MailError> {
        self.0.lock().unwrap().push(mail);
        Ok(())
    }
}

impl Outbox {
    /// The mails once there are `n` (they go out from background jobs).
    async fn wait_for(&self, n: usize) -> Vec<Mail> {
        for _ in 0..200 {
            let mails = self.0.lock().unwrap().clone();
            if mails.len() >= n {
                return mails;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        panic!(
            "{n} mails did not arrive: {:?}",
            self.0.lock().unwrap().clone()
        );
    }

    fn count(&self) -> usize {
        self.0.lock().unwrap().len()
    }
}

/// The path and query of a mail's link that starts with `path`.
fn link_to(mail: &Mail, path: &str) -> String {
    let link = mail
        .links()
        .into_iter()
        .find(|l| l.contains(path))
        .unwrap_or_else(|| panic!("no link to {path} in {}", mail.text));
    let (_, rest) = link.split_once("://").unwrap();
    format!("/{}", rest.split_once('/').unwrap().1)
}

/// The value of `name` in a link's query.
fn param(link: &str, name: &str) -> String {
    link.split_once(&format!("{name}="))
        .unwrap()
        .1
        .split('&')
        .next()
        .unwrap()
        .to_string()
}

async fn start() -> (TestServer, Arc<Outbox>) {
    let outbox = Arc::new(Outbox::default());
    let s = TestServer::start_full(|c| c.title = "Mail Pages".into(), Some(outbox.clone())).await;
    (s, outbox)
}

/// Whether `login` and `password` sign in through the authorization form.
async fn signs_in(s: &TestServer, client_id: &str, login: &str, password: &str) -> u16 {
    s.client
        .post(
            AuthorizeDecision::PATH,
            None,
            form(&[
                ("response_type", "code"),
                ("client_id", client_id),
                ("redirect_uri", "urn:ietf:wg:oauth:2.0:oob"),
                ("scope", "read"),
                ("username", login),
                ("password", password),
                ("decision", "approve"),
            ]),
        )
        .await
        .unwrap()
        .status
}

#[tokio::test]
async fn the_paths_mails_link_to_are_served() {
    assert_eq!(ConfirmEmail::PATH, CONFIRMATION_PATH);
    let (s, _) = start().await;
    for path in [NewPassword::PATH, EditEmail::PATH, NOTIFICATION_EMAILS_PATH] {
        let r = s.client.get(path, None).await.unwrap();
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        assert!(r.text.contains("<form"), "{path} is a form");
        assert!(r.text.contains("Mail Pages"), "{path} names the instance");
    }
    s.stop().await;
}

#[tokio::test]
async fn a_new_account_checks_its_confirmation() {
    let (s, outbox) = start().await;
    let (_, _, app) = s.app_token().await;
    let r = s
        .client
        .post(
            RegisterAccount::PATH,
            Some(&app),
            form(&[
                ("username", "newbie"),
                ("email", "newbie@example.com"),
                ("password", PASSWORD),
                ("agreement", "true"),
                ("locale", "en"),
            ]),
        )
        .await
        .unwrap();
    r.expect(200).unwrap();
    let token = r.json().unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_string();
    let check = |t: String| {
        let s = &s;
        async move {
            let r = s
                .client
                .get(CheckConfirmation::PATH, Some(&t))
                .await
                .unwrap();
            r.expect(200).unwrap();
            r.json().unwrap().clone()
        }
    };
    assert_eq!(check(token.clone()).await, serde_json::json!(false));
    let mail = outbox.wait_for(1).await.remove(0);
    assert_eq!(mail.to, "newbie@example.com");
    assert!(mail.subject.contains("Mail Pages"));
    s.client
        .get(&link_to(&mail, ConfirmEmail::PATH), None)
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    assert_eq!(check(token.clone()).await, serde_json::json!(true));
    assert_eq!(
        s.client
            .get(CheckConfirmation::PATH, None)
            .await
            .unwrap()
            .status,
        401,
        "a token is needed"
    );
    s.stop().await;
}

#[tokio::test]
async fn a_password_reset_works_once_and_signs_every_app_out() {
    let (s, outbox) = start().await;
    let (client_id, _, _) = s.app_token().await;
    let (_, token) = s.user("alice").await;

    // Known or not, the address gets the same answer.
    let ask = |email: &'static str| {
        let s = &s;
        async move {
            let r = s
                .client
                .post(RequestReset::PATH, None, form(&[("email", email)]))
                .await
                .unwrap();
            (r.status, r.text.replace(email, "EMAIL"))
        }
    };
    let unknown = ask("nobody@example.com").await;
    let known = ask("alice@example.com").await;
    assert_eq!(unknown, known, "the answer tells nothing about the address");
    assert_eq!(known.0, 200);
    let mail = outbox.wait_for(1).await.remove(0);
    assert_eq!(mail.to, "alice@example.com");
    assert!(mail.text.contains("6 hours"));
    let link = link_to(&mail, EditPassword::PATH);
    let reset_token = param(&link, "reset_password_token");

    let form_page = s.client.get(&link, None).await.unwrap();
    assert_eq!(form_page.status, 200, "{}", form_page.text);
    assert!(form_page.text.contains("name=\"password_confirmation\""));
    assert_eq!(
        s.client
            .get(
                &format!("{}?reset_password_token=forged", EditPassword::PATH),
                None
            )
            .await
            .unwrap()
            .status,
        404
    );

    let set = |password: &'static str, confirmation: &'static str| {
        let s = &s;
        let reset_token = reset_token.clone();
        async move {
            s.client
                .post(
                    UpdatePassword::PATH,
                    None,
                    form(&[
                        ("reset_password_token", reset_token.as_str()),
                        ("password", password),
                        ("password_confirmation", confirmation),
                    ]),
                )
                .await
                .unwrap()
        }
    };
    let mismatch = set("brand new password", "brand new passwort").await;
    assert_eq!(mismatch.status, 422);
    assert!(mismatch.text.contains("doesn"), "{}", mismatch.text);
    let short = set("short", "short").await;
    assert_eq!(short.status, 422);
    assert!(short.text.contains("too short"));
    let done = set("brand new password", "brand new password").await;
    assert_eq!(done.status, 200, "{}", done.text);
    assert!(done.text.contains("@alice"));
    assert_eq!(
        set("another password", "another password").await.status,
        404,
        "the link works once"
    );

    assert_eq!(
        s.client
            .get(VerifyCredentials::PATH, Some(&token))
            .await
            .unwrap()
            .status,
        401,
        "the reset signed the app out"
    );
    assert_eq!(signs_in(&s, &client_id, "alice", PASSWORD).await, 401);
    assert_eq!(
        signs_in(&s, &client_id, "alice", "brand new password").await,
        200
    );
    assert_eq!(outbox.count(), 1, "no mail to an unknown address");
    s.stop().await;
}

#[tokio::test]
async fn a_new_address_replaces_the_old_once_confirmed() {
    let (s, outbox) = start().await;
    let (id, _) = s.user("alice").await;
    s.user("bob").await;
    let change = |password: &'static str, email: &'static str| {
        let s = &s;
        async move {
            s.client
                .post(
                    ChangeEmail::PATH,
                    None,
                    form(&[
                        ("username", "alice"),
                        ("password", password),
                        ("email", email),
                    ]),
                )
                .await
                .unwrap()
        }
    };
    assert_eq!(change("wrong password", "a@new.example").await.status, 401);
    let taken = change(PASSWORD, "bob@example.com").await;
    assert_eq!(taken.status, 422);
    assert!(taken.text.contains("already been taken"));
    let asked = change(PASSWORD, "alice@new.example").await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    let mail = outbox.wait_for(1).await.remove(0);
    assert_eq!(mail.to, "alice@new.example");
    let account = id.parse().unwrap();
    let login = s
        .app
        .store
        .user_by_account_id(account)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        login.email, "alice@example.com",
        "unchanged until confirmed"
    );
    let link = link_to(&mail, ConfirmEmailChange::PATH);
    let r = s.client.get(&link, None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.text.contains("alice@new.example"));
    let login = s
        .app
        .store
        .user_by_account_id(account)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(login.email, "alice@new.example");
    assert_eq!(s.client.get(&link, None).await.unwrap().status, 404);
    s.stop().await;
}

#[tokio::test]
async fn notification_email_choices_are_shown_and_saved() {
    let (s, _) = start().await;
    let (id, _) = s.user("alice").await;
    let r = s
        .client
        .post(
            SaveNotificationEmails::PATH,
            None,
            form(&[("username", "alice"), ("password", "wrong")]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 401);
    let r = s
        .client
        .post(
            SaveNotificationEmails::PATH,
            None,
            form(&[("username", "alice"), ("password", PASSWORD)]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(
        r.text.contains("name=\"mention\" value=\"1\" checked"),
        "Mastodon's default"
    );
    assert!(
        r.text.contains("name=\"favourite\" value=\"1\">"),
        "off by default"
    );
    assert!(
        !r.text.contains("name=\"report\""),
        "staff choices are for staff"
    );
    let r = s
        .client
        .post(
            SaveNotificationEmails::PATH,
            None,
            form(&[
                ("username", "alice"),
                ("password", PASSWORD),
                ("save", "1"),
                ("favourite", "1"),
            ]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.text.contains("name=\"favourite\" value=\"1\" checked"));
    let saved = s
        .app
        .store
        .notification_emails(&[id.parse().unwrap()])
        .await
        .unwrap();
    assert_eq!(
        saved[0].1,
        NotificationEmailsRecord {
            follow: false,
            follow_request: false,
            mention: false,
            reblog: false,
            favourite: true,
            ..NotificationEmailsRecord::DEFAULTS
        }
    );
    s.stop().await;
}
