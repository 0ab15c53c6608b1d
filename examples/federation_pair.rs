//! Two fedblog instances in one process federating a follow and a post, every request signed
//! and checked as over HTTP. Run with `cargo run -p fedblog-examples --example federation_pair`.
//!
//! An embedder that federates gives `App::with_transport` its own HTTP client; here
//! `InProcessNetwork` hands each request to the app whose domain the URL names, through the
//! route table. The durable job queue carries deliveries: this program runs it by hand
//! (`run_due_jobs`); a server runs workers.

use std::sync::Arc;

use fedblog_core::api::in_process::InProcessNetwork;
use fedblog_core::pagination::Page;
use fedblog_core::services::accounts::NewAccount;
use fedblog_core::services::relationships::FollowOptions;
use fedblog_core::services::statuses::NewStatus;
use fedblog_core::store::{AccountRecord, Role};
use fedblog_core::{App, InstanceConfig, MemoryStore};

async fn user(app: &App, name: &str) -> AccountRecord {
    let new = NewAccount {
        username: name.into(),
        email: format!("{name}@example.test"),
        password: "correct horse battery".into(),
        role: Role::User,
        confirmed: true,
        approved: true,
        locale: "en".into(),
    };
    app.accounts()
        .create_local_account(new, false)
        .await
        .expect("account")
        .0
}

/// Runs both apps' due jobs until none is left.
async fn settle(apps: &[&Arc<App>]) {
    loop {
        let mut claimed = 0;
        for app in apps {
            let report = app
                .run_due_jobs("example", 100, chrono::Duration::seconds(60))
                .await
                .expect("jobs");
            claimed += report.claimed;
        }
        if claimed == 0 {
            return;
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    run().await;
}

/// The whole exchange; `cargo test` runs it too.
async fn run() {
    let net = InProcessNetwork::new();
    let make = |domain: &str| {
        Arc::new(
            App::new(Arc::new(MemoryStore::new()), InstanceConfig::new(domain))
                .with_transport(net.transport()),
        )
    };
    let one = make("one.example");
    let two = make("two.example");
    net.join(&one);
    net.join(&two);

    let ada = user(&one, "ada").await;
    let grace = user(&two, "grace").await;

    // ada follows grace@two.example: WebFinger, then grace's actor, then a signed Follow.
    let grace_at_one = one
        .federation()
        .resolve_handle("grace", "two.example")
        .await
        .expect("grace found");
    one.relationships()
        .follow(&ada, grace_at_one.id, FollowOptions::default())
        .await
        .expect("follow");
    settle(&[&one, &two]).await;
    let accepted = one
        .store
        .follows(ada.id, grace_at_one.id)
        .await
        .expect("store");
    println!("ada follows {}: {accepted}", grace_at_one.acct());

    // grace posts; the Create reaches one.example and ada's home feed.
    two.statuses()
        .publish_status(
            &grace,
            None,
            None,
            NewStatus {
                text: "Hello from two.example".into(),
                ..Default::default()
            },
        )
        .await
        .expect("post");
    settle(&[&one, &two]).await;
    let home = one
        .timelines()
        .home_timeline(&ada, Page::first(20))
        .await
        .expect("home");
    for s in &home.statuses {
        println!(
            "ada's home: {} ({})",
            s.content,
            s.uri.as_deref().unwrap_or("")
        );
    }
    assert!(accepted && !home.statuses.is_empty());
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn a_follow_and_a_post_cross_between_the_two_instances() {
        super::run().await;
    }
}
