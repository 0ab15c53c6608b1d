//! How many store calls a page of statuses costs: a home page of N statuses, on a store that
//! counts every call, must cost the same small number of calls whatever N is.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::api::Endpoint;
use crate::api::statuses::get_context::GetContext;
use crate::api::statuses::get_status::GetStatus;
use crate::api::timelines::home_timeline::HomeTimeline;
use crate::app::{Request, RequestInfo};
use crate::params::Params;
use crate::scope::Scopes;
use crate::services::oauth::NewApp;
use crate::services::relationships::FollowOptions;
use crate::services::statuses::NewStatus;
use crate::{App, InstanceConfig, MemoryStore};
use serde_json::json;

/// A [`MemoryStore`] that counts the calls made to it, by method.
#[derive(Default)]
struct Counting {
    inner: MemoryStore,
    calls: Mutex<BTreeMap<&'static str, usize>>,
}

impl Counting {
    fn note(&self, method: &'static str) {
        if let Ok(mut calls) = self.calls.lock() {
            *calls.entry(method).or_default() += 1;
        }
    }

    fn take(&self) -> BTreeMap<&'static str, usize> {
        std::mem::take(&mut *self.calls.lock().expect("calls"))
    }
}

crate::delegate_store!(Counting => inner, observe = note:
    AccountStore, OAuthStore, StatusStore, FollowStore, BlockStore, FeedStore, StatsStore,
    JobStore, ScheduledStatusStore, AccountNoteStore, DomainBlockStore, TagStore,
    DirectoryStore, InteractionStore, StatusEditStore, PollStore, MediaStore,
    NotificationStore, MarkerStore, ListStore, FilterStore, ConversationStore, LinkStore,
    NotificationPolicyStore, FederationStore);

/// `reader`'s `GET` of `E` with `limit=40`, the calls counted so far forgotten first.
async fn read_page<E: Endpoint>(
    app: &Arc<App>,
    store: &Counting,
    reader: &crate::store::AccountRecord,
) -> crate::api::Reply {
    let mut params = Params::new();
    params.set("limit", "40");
    read_as::<E>(app, store, reader, params).await
}

/// `reader`'s `GET` of `E` with `params`, the calls counted so far forgotten first.
async fn read_as<E: Endpoint>(
    app: &Arc<App>,
    store: &Counting,
    reader: &crate::store::AccountRecord,
    params: Params,
) -> crate::api::Reply {
    let cli = app.oauth().cli_application().await.expect("cli app");
    let token = app
        .oauth()
        .issue_token(
            cli.id,
            Some(reader.id),
            &Scopes::parse("read").expect("scopes"),
        )
        .await
        .expect("token");
    let route = crate::api::route::<E>();
    // The reader's activity of the day is written by its first request of the day: a write
    // once a day, not a read of the page.
    app.metrics().record_activity(reader.id).await;
    store.take();
    app.dispatch(
        &route,
        Request {
            authorization: Some(format!("Bearer {}", token.access_token)),
            params,
            info: RequestInfo {
                path: E::PATH.into(),
                ..Default::default()
            },
        },
    )
    .await
}

/// The store calls of one `GET /api/v1/timelines/home?limit=40` whose page holds `statuses`
/// statuses by as many authors, each posted through an app of its own: every third a reblog of
/// another author's post, every third with a poll, each mentioning the reader and a hashtag.
async fn home_page_calls(statuses: usize) -> (usize, BTreeMap<&'static str, usize>) {
    let store = Arc::new(Counting::default());
    let mut config = InstanceConfig::new("counting.test");
    config.password_hash_memory_kib = 64;
    let app = Arc::new(App::new(store.clone(), config));
    let reader = crate::test_support::account(&app, "reader").await;
    let outsider = crate::test_support::account(&app, "outsider").await;
    let shared = crate::test_support::post(&app, &outsider, "worth a reblog", None).await;
    for n in 0..statuses {
        let author = crate::test_support::account(&app, &format!("author{n}")).await;
        app.relationships()
            .follow(&reader, author.id, FollowOptions::default())
            .await
            .expect("follow");
        if n % 3 == 1 {
            app.statuses()
                .reblog(&author, None, shared.id, None)
                .await
                .expect("reblog");
            continue;
        }
        let client = app
            .oauth()
            .create_app(NewApp {
                name: format!("client {n}"),
                redirect_uris: vec!["urn:ietf:wg:oauth:2.0:oob".into()],
                scopes: None,
                website: None,
            })
            .await
            .expect("app");
        let poll = (n % 3 == 2).then(|| json!({"options": ["a", "b"], "expires_in": 3600}));
        app.statuses()
            .publish_status(
                &author,
                Some(client.id),
                None,
                NewStatus {
                    text: format!("post {n} #tag @reader"),
                    poll,
                    ..Default::default()
                },
            )
            .await
            .expect("posted");
    }
    // This server's custom emojis are read at most every 30 s, not per page: read them now, as
    // a running server has, so the count is the page's own.
    app.local_emojis
        .refresh_if_stale(&*store)
        .await
        .expect("custom emojis");
    let reply = read_page::<HomeTimeline>(&app, &store, &reader).await;
    let shown = reply.json().and_then(|v| v.as_array().map(Vec::len));
    assert_eq!(
        shown,
        Some(statuses),
        "the page shows every status: {reply:?}"
    );
    let calls = store.take();
    (calls.values().sum(), calls)
}

#[tokio::test]
async fn a_home_page_costs_the_same_store_calls_whatever_its_size() {
    let (small, small_calls) = home_page_calls(3).await;
    let (large, large_calls) = home_page_calls(40).await;
    println!(
        "3 statuses: {small} calls {small_calls:?}\n40 statuses: {large} calls {large_calls:?}"
    );
    assert_eq!(
        small_calls, large_calls,
        "calls by method, 3 statuses against 40"
    );
    // One read of each kind: the token, its app, account and login; the feed; the relations;
    // the interactions, polls and votes, apps and filters; the statuses and then the originals
    // their reblogs name.
    for (method, n) in &large_calls {
        let most = if *method == "StatusStore::statuses_by_ids" {
            2
        } else {
            1
        };
        assert!(
            *n <= most,
            "{method} is called {n} times for one page: {large_calls:?}"
        );
    }
    assert!(
        large <= 14,
        "a home page of 40 costs {large} store calls: {large_calls:?}"
    );
}

/// One signed-in `GET /api/v1/statuses/:id` of a reblog of a post with a poll reads each kind
/// once: the token with its owner, the status and its original, their authors, the relations,
/// the interactions, the poll and votes, the apps and the filters.
#[tokio::test]
async fn one_status_reads_each_kind_once() {
    let store = Arc::new(Counting::default());
    let mut config = InstanceConfig::new("counting.test");
    config.password_hash_memory_kib = 64;
    let app = Arc::new(App::new(store.clone(), config));
    let reader = crate::test_support::account(&app, "reader").await;
    let author = crate::test_support::account(&app, "author").await;
    let booster = crate::test_support::account(&app, "booster").await;
    let original = app
        .statuses()
        .publish_status(
            &author,
            None,
            None,
            NewStatus {
                text: "a question @reader #tag".into(),
                poll: Some(json!({"options": ["a", "b"], "expires_in": 3600})),
                ..Default::default()
            },
        )
        .await
        .expect("posted");
    let reblog = app
        .statuses()
        .reblog(&booster, None, original.id, None)
        .await
        .expect("reblog");
    let mut params = Params::new();
    params.set("id", reblog.id.to_string());
    let reply = read_as::<GetStatus>(&app, &store, &reader, params).await;
    let v = reply.json().unwrap_or_default();
    assert_eq!(v["reblog"]["id"], original.id.to_string(), "{v}");
    let calls = store.take();
    println!("{calls:?}");
    for (method, n) in &calls {
        let most = if *method == "StatusStore::statuses_by_ids" {
            2
        } else {
            1
        };
        assert!(*n <= most, "{method} is called {n} times: {calls:?}");
    }
    // `account_by_id` is the caller's (a store without `token_with_owner` reads it apart).
    assert_eq!(
        calls.get("AccountStore::accounts_by_ids"),
        Some(&1),
        "the authors are read once, for the visibility rule and render: {calls:?}"
    );
}

/// The store calls of one `GET /api/v1/statuses/:id/context` of a thread of `replies` replies
/// to a reply to a root post, each reply by an author of its own, read anonymously.
async fn context_calls(replies: usize) -> (usize, BTreeMap<&'static str, usize>, usize) {
    let store = Arc::new(Counting::default());
    let mut config = InstanceConfig::new("counting.test");
    config.password_hash_memory_kib = 64;
    let app = Arc::new(App::new(store.clone(), config));
    let author = crate::test_support::account(&app, "author").await;
    let root = crate::test_support::post(&app, &author, "root", None).await;
    let reply_to = |parent: crate::Id, text: String| NewStatus {
        text,
        in_reply_to_id: Some(parent),
        ..Default::default()
    };
    let middle = app
        .statuses()
        .publish_status(&author, None, None, reply_to(root.id, "middle".into()))
        .await
        .expect("middle");
    for n in 0..replies {
        let replier = crate::test_support::account(&app, &format!("replier{n}")).await;
        app.statuses()
            .publish_status(
                &replier,
                None,
                None,
                reply_to(middle.id, format!("reply {n}")),
            )
            .await
            .expect("reply");
    }
    let route = crate::api::route::<GetContext>();
    let mut params = Params::new();
    params.set("id", middle.id.to_string());
    store.take();
    let reply = app
        .dispatch(
            &route,
            Request {
                params,
                ..Default::default()
            },
        )
        .await;
    let v = reply.json().unwrap_or_default();
    assert_eq!(v["ancestors"].as_array().map(Vec::len), Some(1), "{v}");
    let shown = v["descendants"].as_array().map_or(0, Vec::len);
    let calls = store.take();
    (calls.values().sum(), calls, shown)
}

#[tokio::test]
async fn a_thread_costs_the_same_store_calls_whatever_its_size() {
    let (small, small_calls, shown) = context_calls(3).await;
    assert_eq!(shown, 3);
    let (large, large_calls, shown) = context_calls(30).await;
    assert_eq!(shown, 30);
    println!("3 replies: {small} calls {small_calls:?}\n30 replies: {large} calls {large_calls:?}");
    assert_eq!(
        small_calls, large_calls,
        "calls by method, 3 replies against 30"
    );
}

/// The store calls of one signed-in `GET` of `E` (`limit=40`) by a reader whom `senders`
/// accounts it follows each mention in a direct status of their own (a notification and a conversation
/// each), every other one with a poll.
async fn mentioned_page_calls<E: Endpoint>(
    senders: usize,
) -> (BTreeMap<&'static str, usize>, serde_json::Value) {
    let store = Arc::new(Counting::default());
    let mut config = InstanceConfig::new("counting.test");
    config.password_hash_memory_kib = 64;
    let app = Arc::new(App::new(store.clone(), config));
    let reader = crate::test_support::account(&app, "reader").await;
    for n in 0..senders {
        let sender = crate::test_support::account(&app, &format!("sender{n}")).await;
        // Private mentions from strangers are filtered into requests by default.
        app.relationships()
            .follow(&reader, sender.id, FollowOptions::default())
            .await
            .expect("follow");
        let poll = (n % 2 == 1).then(|| json!({"options": ["a", "b"], "expires_in": 3600}));
        app.statuses()
            .publish_status(
                &sender,
                None,
                None,
                NewStatus {
                    text: format!("@reader message {n}"),
                    visibility: Some("direct".into()),
                    poll,
                    ..Default::default()
                },
            )
            .await
            .expect("posted");
    }
    let reply = read_page::<E>(&app, &store, &reader).await;
    (store.take(), reply.json().unwrap_or_default())
}

#[tokio::test]
async fn notifications_and_conversations_cost_the_same_store_calls_whatever_their_size() {
    use crate::api::conversations::list_conversations::ListConversations;
    use crate::api::notifications::list_notification_groups::ListNotificationGroups;
    use crate::api::notifications::list_notifications::ListNotifications;

    let (small, page) = mentioned_page_calls::<ListNotifications>(3).await;
    assert_eq!(page.as_array().map(Vec::len), Some(3), "{page}");
    let (large, page) = mentioned_page_calls::<ListNotifications>(30).await;
    assert_eq!(page.as_array().map(Vec::len), Some(30), "{page}");
    assert_eq!(small, large, "notifications: calls by method, 3 against 30");

    let (small, page) = mentioned_page_calls::<ListNotificationGroups>(3).await;
    assert_eq!(
        page["notification_groups"].as_array().map(Vec::len),
        Some(3),
        "{page}"
    );
    let (large, page) = mentioned_page_calls::<ListNotificationGroups>(30).await;
    assert_eq!(
        page["notification_groups"].as_array().map(Vec::len),
        Some(30),
        "{page}"
    );
    assert_eq!(
        small, large,
        "grouped notifications: calls by method, 3 against 30"
    );

    let (small, page) = mentioned_page_calls::<ListConversations>(3).await;
    assert_eq!(page.as_array().map(Vec::len), Some(3), "{page}");
    let (large, page) = mentioned_page_calls::<ListConversations>(30).await;
    assert_eq!(page.as_array().map(Vec::len), Some(30), "{page}");
    assert_eq!(small, large, "conversations: calls by method, 3 against 30");
    println!("conversations of 30: {large:?}");
}
