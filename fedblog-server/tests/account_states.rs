//! Account states through the API: sign-up modes, e-mail confirmation, approval, suspension,
//! revoked tokens, and bad input that must store nothing.

mod common;

use std::sync::{Arc, Mutex};

use common::TestServer;
use fedblog_core::Id;
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    confirm_email::ConfirmEmail, get_account::GetAccount, register_account::RegisterAccount,
    resend_confirmation::ResendConfirmation, update_credentials::UpdateCredentials,
    verify_credentials::VerifyCredentials,
};
use fedblog_core::api::fill_path;
use fedblog_core::api::oauth::revoke_token::RevokeToken;
use fedblog_core::api::statuses::{create_status::CreateStatus, get_status::GetStatus};
use fedblog_core::app::{Mail, MailError, Mailer};
use fedblog_core::config::RegistrationMode;
use fedblog_testkit::client::form;

/// Keeps the links of the mails instead of sending them.
#[derive(Default)]
struct CaptureMailer(Mutex<Vec<String>>);

#[async_trait::async_trait]
impl Mailer for CaptureMailer {
    async fn send(&self, mail: Mail) -> Result<(), MailError> {
        let mut links = self.0.lock().unwrap();
        links.extend(mail.links().into_iter().map(str::to_string));
        Ok(())
    }
}

impl CaptureMailer {
    /// The links once `n` mails arrived (mails go out from background jobs).
    async fn links(&self, n: usize) -> Vec<String> {
        for _ in 0..200 {
            let links = self.0.lock().unwrap().clone();
            if links.len() >= n {
                return links;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        panic!("{n} mails did not arrive");
    }
}

async fn sign_up(
    s: &TestServer,
    app_token: &str,
    username: &str,
) -> fedblog_testkit::client::Response {
    s.client
        .post(
            RegisterAccount::PATH,
            Some(app_token),
            form(&[
                ("username", username),
                ("email", &format!("{username}@example.com")),
                ("password", "correct horse battery"),
                ("agreement", "true"),
                ("locale", "en"),
            ]),
        )
        .await
        .unwrap()
}

fn token_of(r: &fedblog_testkit::client::Response) -> String {
    r.expect(200).unwrap();
    r.json().unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn sign_up_needs_confirmation_then_works() {
    let mailer = Arc::new(CaptureMailer::default());
    let s = TestServer::start_full(|_| {}, Some(mailer.clone())).await;
    let (_, _, app) = s.app_token().await;
    let token = token_of(&sign_up(&s, &app, "newbie").await);

    let r = s
        .client
        .get(VerifyCredentials::PATH, Some(&token))
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(
        r.error_text(),
        Some("Your login is missing a confirmed e-mail address")
    );
    let r = s
        .client
        .post(
            CreateStatus::PATH,
            Some(&token),
            form(&[("status", "too early")]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(
        s.app.store.count_local_statuses().await.unwrap(),
        0,
        "a refused post must store nothing"
    );

    // Resending is allowed while unconfirmed.
    s.client
        .post(
            ResendConfirmation::PATH,
            Some(&token),
            form::<&str, &str>(&[]),
        )
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    let links = mailer.links(2).await;
    assert_eq!(links.len(), 2, "one link at sign-up, one on resend");
    // The first link was replaced by the second.
    let path_of = |link: &str| {
        link.split_once("://")
            .unwrap()
            .1
            .split_once('/')
            .map(|(_, p)| format!("/{p}"))
            .unwrap()
    };
    assert!(path_of(&links[0]).starts_with(ConfirmEmail::PATH));
    assert_eq!(
        s.client
            .get(&path_of(&links[0]), None)
            .await
            .unwrap()
            .status,
        404
    );
    let r = s.client.get(&path_of(&links[1]), None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.text.contains("@newbie"));

    s.client
        .get(VerifyCredentials::PATH, Some(&token))
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    let r = s
        .client
        .post(
            ResendConfirmation::PATH,
            Some(&token),
            form::<&str, &str>(&[]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "resending after confirmation is refused");
    s.stop().await;
}

#[tokio::test]
async fn approval_mode_keeps_new_accounts_pending() {
    let mailer = Arc::new(CaptureMailer::default());
    let s = TestServer::start_full(
        |c| c.registrations = RegistrationMode::Approval,
        Some(mailer.clone()),
    )
    .await;
    let (_, _, app) = s.app_token().await;
    let token = token_of(&sign_up(&s, &app, "pending").await);
    let link = mailer.links(1).await[0].clone();
    let path = format!(
        "/{}",
        link.split_once("://").unwrap().1.split_once('/').unwrap().1
    );
    s.client
        .get(&path, None)
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    let r = s
        .client
        .get(VerifyCredentials::PATH, Some(&token))
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(
        r.error_text(),
        Some("Your login is currently pending approval")
    );
    s.stop().await;
}

#[tokio::test]
async fn closed_registrations_refuse_sign_up_and_store_nothing() {
    let s = TestServer::start_with(|c| c.registrations = RegistrationMode::Closed).await;
    let (_, _, app) = s.app_token().await;
    let r = sign_up(&s, &app, "nobody").await;
    assert_eq!(r.status, 403);
    assert!(
        s.app
            .store
            .account_by_username("nobody", None)
            .await
            .unwrap()
            .is_none()
    );
    s.stop().await;
}

#[tokio::test]
async fn sign_up_rejects_bad_input_with_field_details() {
    let s = TestServer::start().await;
    let (_, _, app) = s.app_token().await;
    for (username, email, password, agreement, field) in [
        (
            "bad name",
            "a@example.com",
            "correct horse battery",
            "true",
            "username",
        ),
        (
            "okname",
            "not-an-email",
            "correct horse battery",
            "true",
            "email",
        ),
        ("okname", "a@example.com", "short", "true", "password"),
        (
            "okname",
            "a@example.com",
            "correct horse battery",
            "false",
            "agreement",
        ),
    ] {
        let r = s
            .client
            .post(
                RegisterAccount::PATH,
                Some(&app),
                form(&[
                    ("username", username),
                    ("email", email),
                    ("password", password),
                    ("agreement", agreement),
                ]),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 422, "{field}: {}", r.text);
        assert!(
            r.json().unwrap()["details"][field].is_array(),
            "{field}: {}",
            r.text
        );
    }
    assert_eq!(s.app.store.count_local_accounts().await.unwrap(), 0);
    // Sign-up needs an app token: an empty bearer token is a missing one.
    assert_eq!(sign_up(&s, "", "x").await.status, 401);
    s.stop().await;
}

#[tokio::test]
async fn suspended_accounts_are_gone_and_locked_out() {
    let s = TestServer::start().await;
    let (id, token) = s.user("suspendme").await;
    let (_, viewer) = s.user("viewer").await;
    let status = s
        .client
        .post(
            CreateStatus::PATH,
            Some(&token),
            form(&[("status", "before")]),
        )
        .await
        .unwrap();
    let status_id = status.json().unwrap()["id"].as_str().unwrap().to_string();

    let mut account = s
        .app
        .store
        .account_by_id(id.parse::<Id>().unwrap())
        .await
        .unwrap()
        .unwrap();
    account.suspended_at = Some(chrono::Utc::now());
    s.app.store.update_account(&account).await.unwrap();

    let r = s
        .client
        .get(&fill_path(GetAccount::PATH, &[("id", &id)]), Some(&viewer))
        .await
        .unwrap();
    assert_eq!(r.status, 410);
    let r = s
        .client
        .get(VerifyCredentials::PATH, Some(&token))
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(r.error_text(), Some("Your login is currently disabled"));
    let r = s
        .client
        .get(&fill_path(GetStatus::PATH, &[("id", &status_id)]), None)
        .await
        .unwrap();
    assert_eq!(
        r.status, 404,
        "a suspended account's statuses are not shown"
    );

    // Suspension is reversible.
    account.suspended_at = None;
    s.app.store.update_account(&account).await.unwrap();
    s.client
        .get(&fill_path(GetAccount::PATH, &[("id", &id)]), None)
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    s.stop().await;
}

#[tokio::test]
async fn revoked_tokens_stop_working() {
    let s = TestServer::start().await;
    let (client_id, secret, app) = s.app_token().await;
    let r = s
        .client
        .post(
            RevokeToken::PATH,
            None,
            form(&[
                ("client_id", client_id.as_str()),
                ("client_secret", "wrong"),
                ("token", app.as_str()),
            ]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "a wrong client secret cannot revoke");
    let r = sign_up(&s, &app, "stillworks").await;
    assert_eq!(r.status, 200);
    s.client
        .post(
            RevokeToken::PATH,
            None,
            form(&[
                ("client_id", client_id.as_str()),
                ("client_secret", secret.as_str()),
                ("token", app.as_str()),
            ]),
        )
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    assert_eq!(sign_up(&s, &app, "toolate").await.status, 401);
    s.stop().await;
}

#[tokio::test]
async fn invalid_profile_updates_change_nothing() {
    let s = TestServer::start().await;
    let (id, token) = s.user("profile").await;
    s.client
        .patch(
            UpdateCredentials::PATH,
            Some(&token),
            form(&[("display_name", "Before")]),
        )
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    let r = s
        .client
        .patch(
            UpdateCredentials::PATH,
            Some(&token),
            form(&[("display_name", "After"), ("note", &"x".repeat(501))]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 422);
    let stored = s
        .app
        .store
        .account_by_id(id.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        stored.display_name, "Before",
        "one invalid field rejects the whole update"
    );
    let r = s
        .client
        .patch(
            UpdateCredentials::PATH,
            Some(&token),
            form(&[("source[privacy]", "direct")]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 422, "direct is not a default visibility");
    s.stop().await;
}
