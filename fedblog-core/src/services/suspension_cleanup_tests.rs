//! The deletion of suspended accounts' data once the suspension is over 30 days old
//! (`Moderation::delete_expired_suspensions`, run by the server's housekeeping): which
//! suspensions expire, and which are kept however old.

use chrono::{DateTime, Duration, Utc};

use crate::App;
use crate::id::Id;
use crate::services::moderation::SUSPENSION_KEEP_DAYS;
use crate::store::{
    AccountRecord, DomainBlockSeverity, InstanceDomainBlockRecord, SuspensionOrigin,
};
use crate::test_support::{account, app, post};

/// `a` suspended at `at` by `origin`.
async fn suspend(
    app: &App,
    mut a: AccountRecord,
    at: DateTime<Utc>,
    origin: Option<SuspensionOrigin>,
) {
    a.suspended_at = Some(at);
    a.suspension_origin = origin;
    app.store.update_account(&a).await.expect("suspended");
}

/// A remote account on `host`.
async fn remote(app: &App, name: &str, host: &str) -> AccountRecord {
    let mut a = AccountRecord::new_local(app.ids.next(), name, Utc::now());
    a.domain = Some(host.into());
    a.uri = Some(format!("https://{host}/users/{name}"));
    app.store.insert_remote_account(&a).await.expect("remote");
    a
}

async fn exists(app: &App, id: Id) -> bool {
    app.store.account_by_id(id).await.expect("read").is_some()
}

#[tokio::test]
async fn suspensions_made_here_expire_after_thirty_days_others_are_kept() {
    let app = app("social.example");
    let now = app.now();
    let long_ago = now - Duration::days(SUSPENSION_KEEP_DAYS) - Duration::hours(1);
    let lately = now - Duration::days(SUSPENSION_KEEP_DAYS) + Duration::hours(1);
    let old = account(&app, "old").await;
    post(&app, &old, "gone with the account", None).await;
    suspend(&app, old.clone(), long_ago, Some(SuspensionOrigin::Local)).await;
    // Suspended before origins were kept: here.
    let older = account(&app, "older").await;
    suspend(&app, older.clone(), long_ago, None).await;
    let recent = account(&app, "recent").await;
    suspend(&app, recent.clone(), lately, Some(SuspensionOrigin::Local)).await;
    let far_here = remote(&app, "farhere", "far.example").await;
    suspend(
        &app,
        far_here.clone(),
        long_ago,
        Some(SuspensionOrigin::Local),
    )
    .await;
    let far_there = remote(&app, "farthere", "far.example").await;
    suspend(
        &app,
        far_there.clone(),
        long_ago,
        Some(SuspensionOrigin::Remote),
    )
    .await;
    // Suspended by a domain block (dated by the block, as blocks date them).
    let block = InstanceDomainBlockRecord {
        id: app.ids.next(),
        domain: "blocked.example".into(),
        severity: DomainBlockSeverity::Suspend,
        reject_media: false,
        reject_reports: false,
        private_comment: None,
        public_comment: None,
        obfuscate: false,
        created_at: long_ago,
    };
    app.store
        .moderation()
        .expect("MemoryStore keeps moderation data")
        .save_instance_domain_block(&block)
        .await
        .expect("block");
    let blocked = remote(&app, "blocked", "sub.blocked.example").await;
    suspend(&app, blocked.clone(), long_ago, None).await;
    let free = account(&app, "free").await;

    let deleted = app
        .moderation()
        .delete_expired_suspensions()
        .await
        .expect("cleaned up");
    assert_eq!(deleted, 3);
    for gone in [&old, &older, &far_here] {
        assert!(!exists(&app, gone.id).await, "{} is deleted", gone.username);
    }
    for kept in [&recent, &far_there, &blocked, &free] {
        assert!(exists(&app, kept.id).await, "{} is kept", kept.username);
    }
    assert_eq!(
        app.moderation()
            .delete_expired_suspensions()
            .await
            .expect("again"),
        0,
        "nothing left to delete"
    );
}
