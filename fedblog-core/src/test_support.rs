//! Fixtures shared by core's unit tests: an app on a `MemoryStore`, confirmed accounts, and
//! statuses with polls (open, or already ended).

use std::sync::Arc;

use chrono::Duration;
use serde_json::Value;

use crate::services::accounts::NewAccount;
use crate::services::statuses::NewStatus;
use crate::store::{AccountRecord, PollRecord, Role, StatusRecord};
use crate::{App, InstanceConfig, MemoryStore};

/// An app for `domain` on an empty `MemoryStore`, with cheap password hashing.
pub fn app(domain: &str) -> App {
    let mut config = InstanceConfig::new(domain);
    config.password_hash_memory_kib = 64;
    App::new(Arc::new(MemoryStore::new()), config)
}

/// A confirmed, approved local user `name`.
pub async fn account(app: &App, name: &str) -> AccountRecord {
    member(app, name, Role::User).await
}

/// A confirmed, approved local account `name` with `role`.
pub async fn member(app: &App, name: &str, role: Role) -> AccountRecord {
    app.accounts()
        .create_local_account(
            NewAccount {
                username: name.to_string(),
                email: format!("{name}@example.test"),
                password: "correct horse battery".into(),
                role,
                confirmed: true,
                approved: true,
                locale: "en".into(),
            },
            false,
        )
        .await
        .expect("account")
        .0
}

/// A status by `author` with `text` and, if given, a poll (the `poll` parameter of posting).
pub async fn post(
    app: &App,
    author: &AccountRecord,
    text: &str,
    poll: Option<Value>,
) -> StatusRecord {
    post_new(
        app,
        author,
        NewStatus {
            text: text.into(),
            poll,
            ..Default::default()
        },
    )
    .await
}

/// `new`, posted by `author` now (no app, no idempotency key).
pub async fn post_new(app: &App, author: &AccountRecord, new: NewStatus) -> StatusRecord {
    app.statuses()
        .publish_status(author, None, None, new)
        .await
        .expect("posted")
}

/// A followers-only status by `author`.
pub async fn private_post(app: &App, author: &AccountRecord, text: &str) -> StatusRecord {
    post_new(
        app,
        author,
        NewStatus {
            text: text.into(),
            visibility: Some("private".into()),
            ..Default::default()
        },
    )
    .await
}

/// The poll of `status`.
pub async fn poll_of(app: &App, status: &StatusRecord) -> PollRecord {
    app.store
        .polls_by_status_ids(&[status.id])
        .await
        .expect("polls")
        .pop()
        .expect("the status has a poll")
}

/// A status by `author` with a poll (options `a` and `b`, no votes) that ended a second ago:
/// stored directly, since posting refuses a poll ending in the past.
pub async fn ended_poll(app: &App, author: &AccountRecord) -> (StatusRecord, PollRecord) {
    let status = post(app, author, "ended", None).await;
    let now = app.now();
    let poll = PollRecord {
        id: app.ids.next(),
        status_id: status.id,
        account_id: author.id,
        options: vec!["a".into(), "b".into()],
        votes: vec![0, 0],
        voters_count: 0,
        multiple: false,
        hide_totals: false,
        expires_at: Some(now - Duration::seconds(1)),
        created_at: now - Duration::seconds(301),
    };
    app.store.insert_poll(&poll).await.expect("poll");
    (status, poll)
}

/// Runs the jobs of the apps until none is left (deliveries make more jobs).
pub async fn drain(apps: &[&Arc<App>]) {
    for _ in 0..20 {
        let mut claimed = 0;
        for app in apps {
            let report = app
                .run_due_jobs("test", 100, Duration::seconds(60))
                .await
                .expect("jobs run");
            assert_eq!(report.failed, 0, "a job failed on {}", app.config.domain);
            claimed += report.claimed;
        }
        if claimed == 0 {
            return;
        }
    }
    panic!("jobs kept coming");
}
