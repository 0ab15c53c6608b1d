//! The social graph where remote accounts take part: user domain blocks (relationship flag,
//! timelines, followers there, follows there), following and searching by `user@domain`, and the
//! statuses of a suspended account. Remote accounts cannot be made over HTTP yet, so each
//! scenario inserts them through the store and then checks over HTTP, on SQLite and (with
//! `FEDBLOG_TEST_DATABASE_URL`) on PostgreSQL.

mod common;

use common::TestServer;
use fedblog_core::Id;
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    follow_account::FollowAccount, get_account_statuses::GetAccountStatuses,
    get_relationships::GetRelationships, search_accounts::SearchAccounts,
    update_credentials::UpdateCredentials,
};
use fedblog_core::api::domain_blocks::{block_domain::BlockDomain, unblock_domain::UnblockDomain};
use fedblog_core::api::fill_path;
use fedblog_core::api::follows::follow_by_uri::FollowByUri;
use fedblog_core::api::suggestions::list_suggestions_v2::ListSuggestionsV2;
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, public_timeline::PublicTimeline};
use fedblog_core::store::{AccountRecord, StatusRecord, Visibility};
use fedblog_testkit::client::{Body, form};
use fedblog_testkit::conformance::ids_of;
use serde_json::Value;

const REMOTE: &str = "remote.example";

/// Runs a scenario on SQLite, and on PostgreSQL when a server is configured.
macro_rules! on_both {
    ($sqlite:ident, $postgres:ident, $scenario:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $sqlite() {
            let s = TestServer::start().await;
            $scenario(&s).await;
            s.stop().await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $postgres() {
            let Some(admin) = TestServer::postgres_or_say(stringify!($postgres)) else {
                return;
            };
            let s = TestServer::start_postgres(&admin).await;
            $scenario(&s).await;
            s.stop().await;
        }
    };
}

on_both!(
    domain_block_flags_relationship_and_hides_posts,
    domain_block_flags_relationship_and_hides_posts_on_postgres,
    domain_block_hides_posts
);
on_both!(
    domain_block_removes_followers_and_refuses_follows,
    domain_block_removes_followers_and_refuses_follows_on_postgres,
    domain_block_followers
);
on_both!(
    follow_by_address_finds_known_remote_accounts,
    follow_by_address_finds_known_remote_accounts_on_postgres,
    follow_by_address
);
on_both!(
    search_restricts_to_the_domain_asked,
    search_restricts_to_the_domain_asked_on_postgres,
    search_by_domain
);
on_both!(
    suspended_account_lists_no_statuses,
    suspended_account_lists_no_statuses_on_postgres,
    suspended_statuses
);
on_both!(
    suggestions_leave_out_blocked_domains,
    suggestions_leave_out_blocked_domains_on_postgres,
    suggestions_domain_blocked
);

/// Inserts a remote account `username@domain` and answers it.
async fn remote_account(s: &TestServer, username: &str, domain: &str) -> AccountRecord {
    let mut a = AccountRecord::new_local(s.app.ids.next(), username, s.app.now());
    a.domain = Some(domain.to_string());
    a.uri = Some(format!("https://{domain}/users/{username}"));
    a.url = Some(format!("https://{domain}/@{username}"));
    s.app
        .store
        .insert_remote_account(&a)
        .await
        .expect("insert remote account");
    a
}

/// Inserts a public status by a remote account and answers its id.
async fn remote_status(s: &TestServer, author: &AccountRecord, text: &str) -> Id {
    let id = s.app.ids.next();
    let status = StatusRecord {
        id,
        account_id: author.id,
        uri: Some(format!(
            "https://{}/users/{}/statuses/{id}",
            author.domain.as_deref().unwrap_or_default(),
            author.username
        )),
        text: String::new(),
        content: format!("<p>{text}</p>"),
        spoiler_text: String::new(),
        visibility: Visibility::Public,
        sensitive: false,
        language: Some("en".into()),
        in_reply_to_id: None,
        in_reply_to_account_id: None,
        application_id: None,
        mentions: vec![],
        tags: vec![],
        media_ids: Vec::new(),
        idempotency_key: None,
        local: false,
        created_at: s.app.now(),
        edited_at: None,
        reblog_of_id: None,
        conversation_id: Some(id),
        replies_count: 0,
        reblogs_count: 0,
        favourites_count: 0,
    };
    s.app
        .store
        .insert_status(&status)
        .await
        .expect("insert remote status");
    id
}

async fn get(s: &TestServer, url: &str, token: Option<&str>) -> Value {
    let r = s.client.get(url, token).await.expect("request");
    assert_eq!(r.status, 200, "GET {url}: {}", r.text);
    r.json().expect("json").clone()
}

async fn relationship(s: &TestServer, token: &str, other: Id) -> Value {
    let v = get(
        s,
        &format!("{}?id[]={other}", GetRelationships::PATH),
        Some(token),
    )
    .await;
    v[0].clone()
}

async fn domain_block(s: &TestServer, token: &str, domain: &str) {
    let r = s
        .client
        .post(BlockDomain::PATH, Some(token), form(&[("domain", domain)]))
        .await
        .expect("request");
    assert_eq!(r.status, 200, "blocking {domain}: {}", r.text);
}

async fn follow(s: &TestServer, token: &str, id: Id) -> u16 {
    let r = s
        .client
        .post(
            &fill_path(FollowAccount::PATH, &[("id", &id.to_string())]),
            Some(token),
            Body::None,
        )
        .await
        .expect("request");
    r.status
}

async fn domain_block_hides_posts(s: &TestServer) {
    let (_, token) = s.user("reader").await;
    let alice = remote_account(s, "alice", REMOTE).await;
    let other = remote_account(s, "bob", "elsewhere.example").await;
    assert_eq!(follow(s, &token, alice.id).await, 200);
    let me = s
        .app
        .store
        .account_by_username("reader", None)
        .await
        .unwrap()
        .unwrap();
    let post = remote_status(s, &alice, "hello from afar").await;
    let kept = remote_status(s, &other, "hello from elsewhere").await;
    s.app
        .store
        .insert_feed_entries(post, alice.id, &[me.id])
        .await
        .unwrap();
    let (post, kept) = (post.to_string(), kept.to_string());
    let home = get(s, HomeTimeline::PATH, Some(&token)).await;
    assert!(ids_of(&home).contains(&post), "home before the block");
    let public = get(s, PublicTimeline::PATH, Some(&token)).await;
    assert!(ids_of(&public).contains(&post), "public before the block");
    assert_eq!(
        relationship(s, &token, alice.id).await["domain_blocking"],
        false
    );

    // Case and a trailing dot do not matter.
    domain_block(s, &token, "Remote.Example.").await;
    let rel = relationship(s, &token, alice.id).await;
    assert_eq!(rel["domain_blocking"], true, "{rel}");
    assert_eq!(
        relationship(s, &token, other.id).await["domain_blocking"],
        false
    );
    let home = get(s, HomeTimeline::PATH, Some(&token)).await;
    assert!(
        !ids_of(&home).contains(&post),
        "home shows a blocked domain"
    );
    let public = get(s, PublicTimeline::PATH, Some(&token)).await;
    assert!(
        !ids_of(&public).contains(&post),
        "public shows a blocked domain"
    );
    assert!(
        ids_of(&public).contains(&kept),
        "public lost another domain"
    );
    let anon = get(s, PublicTimeline::PATH, None).await;
    assert!(ids_of(&anon).contains(&post), "anonymous public lost it");
    let statuses_url = fill_path(GetAccountStatuses::PATH, &[("id", &alice.id.to_string())]);
    assert_eq!(
        ids_of(&get(s, &statuses_url, Some(&token)).await),
        Vec::<String>::new(),
        "the blocked domain's account statuses"
    );
    assert_eq!(
        ids_of(&get(s, &statuses_url, None).await),
        vec![post.clone()]
    );

    let r = s
        .client
        .send(
            "DELETE",
            UnblockDomain::PATH,
            Some(&token),
            form(&[("domain", REMOTE)]),
            &[],
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        relationship(s, &token, alice.id).await["domain_blocking"],
        false
    );
    let public = get(s, PublicTimeline::PATH, Some(&token)).await;
    assert!(ids_of(&public).contains(&post), "public after the unblock");
}

async fn domain_block_followers(s: &TestServer) {
    let (my_id, token) = s.user("popular").await;
    let my_id: Id = my_id.parse().unwrap();
    let alice = remote_account(s, "alice", REMOTE).await;
    let carol = remote_account(s, "carol", REMOTE).await;
    s.app
        .store
        .insert_follow(s.app.ids.next(), alice.id, my_id)
        .await
        .unwrap();
    s.app
        .store
        .insert_follow_request(s.app.ids.next(), carol.id, my_id)
        .await
        .unwrap();
    let rel = relationship(s, &token, alice.id).await;
    assert_eq!(rel["followed_by"], true, "{rel}");
    assert_eq!(
        relationship(s, &token, carol.id).await["requested_by"],
        true
    );
    domain_block(s, &token, REMOTE).await;
    let rel = relationship(s, &token, alice.id).await;
    assert_eq!(
        rel["followed_by"], false,
        "a follower there survived: {rel}"
    );
    assert_eq!(
        relationship(s, &token, carol.id).await["requested_by"],
        false,
        "a request from there survived"
    );
    let me = s.app.store.account_by_id(my_id).await.unwrap().unwrap();
    assert_eq!(me.followers_count, 0);
    assert_eq!(
        follow(s, &token, alice.id).await,
        403,
        "following an account on a blocked domain"
    );
    let r = s
        .client
        .post(
            FollowByUri::PATH,
            Some(&token),
            form(&[("uri", "alice@remote.example")]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.text);
    assert_eq!(relationship(s, &token, alice.id).await["following"], false);
}

async fn follow_by_address(s: &TestServer) {
    let (_, token) = s.user("follower").await;
    let alice = remote_account(s, "alice", REMOTE).await;
    for uri in [
        "alice@remote.example",
        "@alice@Remote.Example",
        "acct:alice@remote.example",
    ] {
        let r = s
            .client
            .post(FollowByUri::PATH, Some(&token), form(&[("uri", uri)]))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{uri}: {}", r.text);
        let v = r.json().unwrap();
        assert_eq!(v["id"], alice.id.to_string().as_str(), "{uri}: {v}");
        assert_eq!(v["acct"], "alice@remote.example");
    }
    // A remote account's server decides: the follow waits for its `Accept`.
    let rel = relationship(s, &token, alice.id).await;
    assert_eq!(rel["requested"], true, "{rel}");
    assert_eq!(rel["following"], false, "{rel}");
    let r = s
        .client
        .post(
            FollowByUri::PATH,
            Some(&token),
            form(&[("uri", "nobody@remote.example")]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 404, "{}", r.text);
    // A remote account with the username of a local one is a different account.
    let (local_id, _) = s.user("dana").await;
    let dana_remote = remote_account(s, "dana", REMOTE).await;
    let r = s
        .client
        .post(FollowByUri::PATH, Some(&token), form(&[("uri", "dana")]))
        .await
        .unwrap();
    assert_eq!(r.json().unwrap()["id"], local_id.as_str());
    let r = s
        .client
        .post(
            FollowByUri::PATH,
            Some(&token),
            form(&[("uri", "dana@remote.example")]),
        )
        .await
        .unwrap();
    assert_eq!(r.json().unwrap()["id"], dana_remote.id.to_string().as_str());
}

async fn search_by_domain(s: &TestServer) {
    let (_, token) = s.user("seeker").await;
    let (local_id, _) = s.user("erin").await;
    let remote = remote_account(s, "erin", REMOTE).await;
    let elsewhere = remote_account(s, "erin", "elsewhere.example").await;
    let search = |q: String| {
        let token = token.clone();
        async move {
            let url = format!("{}?q={}", SearchAccounts::PATH, q.replace('@', "%40"));
            let mut ids = ids_of(&get(s, &url, Some(&token)).await);
            ids.sort();
            ids
        }
    };
    let mut all = vec![
        local_id.clone(),
        remote.id.to_string(),
        elsewhere.id.to_string(),
    ];
    all.sort();
    assert_eq!(search("erin".into()).await, all);
    assert_eq!(
        search("@erin@remote.example".into()).await,
        vec![remote.id.to_string()]
    );
    assert_eq!(
        search("erin@ELSEWHERE.example".into()).await,
        vec![elsewhere.id.to_string()]
    );
    let own = s.app.config.domain.clone();
    assert_eq!(search(format!("erin@{own}")).await, vec![local_id]);
    assert_eq!(
        search("erin@unknown.example".into()).await,
        Vec::<String>::new()
    );
}

async fn suspended_statuses(s: &TestServer) {
    let (author_id, author_token) = s.user("author").await;
    let (_, reader) = s.user("reader").await;
    let r = s
        .client
        .post(
            fedblog_core::api::statuses::create_status::CreateStatus::PATH,
            Some(&author_token),
            form(&[("status", "before the suspension")]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    let url = fill_path(GetAccountStatuses::PATH, &[("id", &author_id)]);
    assert_eq!(ids_of(&get(s, &url, Some(&reader)).await).len(), 1);
    let id: Id = author_id.parse().unwrap();
    let mut a = s.app.store.account_by_id(id).await.unwrap().unwrap();
    a.suspended_at = Some(s.app.now());
    s.app.store.update_account(&a).await.unwrap();
    assert!(ids_of(&get(s, &url, Some(&reader)).await).is_empty());
    assert!(ids_of(&get(s, &url, None).await).is_empty());
}

async fn suggestions_domain_blocked(s: &TestServer) {
    let (_, token) = s.user("me").await;
    let (friend_id, friend_token) = s.user("friend").await;
    let friend_id: Id = friend_id.parse().unwrap();
    let mut far = remote_account(s, "far", REMOTE).await;
    far.discoverable = Some(true);
    s.app.store.update_account(&far).await.unwrap();
    // The friend is discoverable too but is followed, so only `far` is a candidate.
    let r = s
        .client
        .patch(
            UpdateCredentials::PATH,
            Some(&friend_token),
            form(&[("discoverable", "true")]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(follow(s, &token, friend_id).await, 200);
    s.app
        .store
        .insert_follow(s.app.ids.next(), friend_id, far.id)
        .await
        .unwrap();
    let url = format!("{}?limit=80", ListSuggestionsV2::PATH);
    let v = get(s, &url, Some(&token)).await;
    let found: Vec<&Value> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["account"]["id"] == far.id.to_string().as_str())
        .collect();
    assert_eq!(found.len(), 1, "{v}");
    assert_eq!(
        found[0]["sources"],
        serde_json::json!(["friends_of_friends"])
    );
    assert_eq!(found[0]["source"], "past_interactions");
    domain_block(s, &token, REMOTE).await;
    let v = get(s, &url, Some(&token)).await;
    assert!(
        !v.as_array()
            .unwrap()
            .iter()
            .any(|x| x["account"]["id"] == far.id.to_string().as_str()),
        "an account on a blocked domain is suggested: {v}"
    );
}
