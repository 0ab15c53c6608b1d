//! Deleting an account (`fedblog-server accounts delete`, `App::delete_account`) leaves the rest
//! consistent: other accounts' counters, follower and following lists, follow requests, blocks,
//! mutes, notes, endorsements and timelines lose every trace of it, its statuses and files are
//! gone, it is a 404, and its token is refused. Runs on a server built exactly as `serve` builds
//! it (files on disk), on SQLite and, with `FEDBLOG_TEST_DATABASE_URL`, on PostgreSQL.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount, get_account::GetAccount,
    get_followers::GetFollowers, get_following::GetFollowing, lookup_account::LookupAccount,
    mute_account::MuteAccount, update_credentials::UpdateCredentials,
    verify_credentials::VerifyCredentials,
};
use fedblog_core::api::blocks::list_blocks::ListBlocks;
use fedblog_core::api::fill_path;
use fedblog_core::api::follow_requests::list_follow_requests::ListFollowRequests;
use fedblog_core::api::mutes::list_mutes::ListMutes;
use fedblog_core::api::statuses::{create_status::CreateStatus, get_status::GetStatus};
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, public_timeline::PublicTimeline};
use fedblog_core::services::accounts::NewAccount;
use fedblog_core::store::Role;
use fedblog_core::{App, Id};
use fedblog_server::serve::{Running, build_app, spawn_on};
use fedblog_server::settings::SettingsArgs;
use fedblog_testkit::client::{Body, Client, Part, form};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_fedblog-server");

/// A 1x1 PNG.
const PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
    0, 0, 144, 119, 83, 222, 0, 0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 232, 233, 253, 15, 0, 3,
    193, 2, 25, 188, 44, 160, 75, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// A server built by `serve::build_app` over its own data folder.
struct Instance {
    running: Running,
    app: Arc<App>,
    client: Client,
    dir: PathBuf,
    database_url: String,
    /// (admin URL, database name) of a PostgreSQL database to drop at the end.
    pg: Option<(String, String)>,
}

impl Instance {
    async fn start(pg_admin: Option<&str>) -> Instance {
        let dir = std::env::temp_dir().join(format!(
            "fedblog-deletion-{}-{}",
            std::process::id(),
            chrono::Utc::now().timestamp_micros()
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (database_url, pg) = match pg_admin {
            Some(admin) => {
                let name = format!(
                    "fedblog_del_{}_{}",
                    std::process::id(),
                    chrono::Utc::now().timestamp_micros() % 1_000_000_000
                );
                let url = fedblog_server::store::admin::create_database(admin, &name)
                    .await
                    .expect("create database");
                (Some(url), Some((admin.to_string(), name)))
            }
            None => (None, None),
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let mut settings = SettingsArgs {
            data_dir: Some(dir.clone()),
            domain: Some(format!("127.0.0.1:{port}")),
            database_url,
            ..Default::default()
        }
        .resolve()
        .expect("settings");
        settings.instance.password_hash_memory_kib = 64;
        let app = build_app(&settings).await.expect("build app");
        let running = spawn_on(app.clone(), listener).await.expect("spawn");
        let client = Client::new(&running.base_url(), Some(common::openapi())).expect("client");
        Instance {
            running,
            app,
            client,
            dir,
            database_url: settings.database_url,
            pg,
        }
    }

    async fn stop(self) {
        self.running.stop().await;
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((admin, name)) = self.pg {
            drop(self.app);
            fedblog_server::store::admin::drop_database(&admin, &name)
                .await
                .expect("drop database");
        }
    }

    /// Runs the CLI against this instance's database and data folder.
    fn cli(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(BIN)
            .args(args)
            .env("FEDBLOG_DATA_DIR", &self.dir)
            .env("FEDBLOG_MEDIA_DIR", self.dir.join("media"))
            .env("FEDBLOG_DATABASE_URL", &self.database_url)
            .env("FEDBLOG_DOMAIN", "deletion.test")
            .env("FEDBLOG_LOG", "warn")
            .output()
            .expect("run fedblog-server")
    }

    /// A confirmed, approved user with a `read write follow push` token: (id, token).
    async fn user(&self, username: &str) -> (Id, String) {
        let (account, _, _) = self
            .app
            .accounts()
            .create_local_account(
                NewAccount {
                    username: username.into(),
                    email: format!("{username}@example.com"),
                    password: "correct horse battery".into(),
                    role: Role::User,
                    confirmed: true,
                    approved: true,
                    locale: "en".into(),
                },
                true,
            )
            .await
            .expect("account");
        let cli = self.app.oauth().cli_application().await.expect("cli app");
        let scopes = fedblog_core::scope::Scopes::parse("read write follow push").unwrap();
        let token = self
            .app
            .oauth()
            .issue_token(cli.id, Some(account.id), &scopes)
            .await
            .expect("token")
            .access_token;
        (account.id, token)
    }

    async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let r = self.client.get(path, token).await.expect("GET");
        (r.status, r.json.unwrap_or(Value::Null))
    }

    async fn ok(&self, path: &str, token: &str) -> Value {
        let (status, v) = self.get(path, Some(token)).await;
        assert_eq!(status, 200, "GET {path}: {v}");
        v
    }

    async fn post(&self, path: &str, token: &str, pairs: &[(&str, &str)]) -> Value {
        let r = self
            .client
            .post(path, Some(token), form(pairs))
            .await
            .expect("POST");
        assert_eq!(r.status, 200, "POST {path}: {}", r.text);
        r.json.unwrap_or(Value::Null)
    }
}

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn account_path<E: Endpoint>(id: Id) -> String {
    fill_path(E::PATH, &[("id", &id.to_string())])
}

/// Builds the graph around `alice`, deletes her with `delete`, and checks everything over HTTP.
async fn scenario(s: &Instance, via_cli: bool) {
    let (alice, alice_t) = s.user("alice").await;
    let (bob, bob_t) = s.user("bob").await;
    let (carol, carol_t) = s.user("carol").await;
    let (dave, dave_t) = s.user("dave").await;
    let (erin, erin_t) = s.user("erin").await;

    // Alice's avatar and header, stored on disk.
    let r = s
        .client
        .patch(
            UpdateCredentials::PATH,
            Some(&alice_t),
            Body::Multipart(vec![
                Part::file("avatar", "me.png", "image/png", PNG),
                Part::file("header", "banner.png", "image/png", PNG),
            ]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    let avatar_url = r.json.as_ref().unwrap()["avatar"]
        .as_str()
        .unwrap()
        .to_string();
    let record = s.app.store.account_by_id(alice).await.unwrap().unwrap();
    let keys: Vec<String> = [record.avatar.clone(), record.header.clone()]
        .into_iter()
        .map(|k| k.expect("stored key"))
        .collect();
    for k in &keys {
        assert!(s.dir.join("media").join(k).is_file(), "{k} is not on disk");
    }
    let (st, headers, bytes) = s.client.get_bytes(&avatar_url).await.unwrap();
    assert_eq!((st, bytes.as_slice()), (200, PNG));
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    };
    assert_eq!(header("content-type"), "image/png");
    assert!(header("cache-control").contains("immutable"));
    assert_eq!(header("x-content-type-options"), "nosniff");

    // Erin is locked, so Alice's follow becomes a request.
    s.client
        .patch(
            UpdateCredentials::PATH,
            Some(&erin_t),
            form(&[("locked", "true")]),
        )
        .await
        .unwrap()
        .expect(200)
        .unwrap();

    // The graph: Alice and Bob follow each other, Carol and Alice too, Alice asks Erin; Dave
    // blocks Alice, Carol mutes her, Alice mutes Dave.
    s.post(&account_path::<FollowAccount>(bob), &alice_t, &[])
        .await;
    s.post(&account_path::<FollowAccount>(alice), &bob_t, &[])
        .await;
    s.post(&account_path::<FollowAccount>(alice), &carol_t, &[])
        .await;
    s.post(&account_path::<FollowAccount>(carol), &alice_t, &[])
        .await;
    let rel = s
        .post(&account_path::<FollowAccount>(erin), &alice_t, &[])
        .await;
    assert_eq!(rel["requested"], true, "{rel}");
    s.post(&account_path::<BlockAccount>(alice), &dave_t, &[])
        .await;
    s.post(&account_path::<MuteAccount>(alice), &carol_t, &[])
        .await;
    s.post(&account_path::<MuteAccount>(dave), &alice_t, &[])
        .await;

    // Annotations through the store: Bob's note on Alice, his endorsement of her, his dismissal
    // of her as a suggestion; Alice endorses Bob.
    s.app
        .store
        .set_account_note(bob, alice, "met at the conference")
        .await
        .unwrap();
    s.app
        .store
        .insert_endorsement(s.app.ids.next(), bob, alice)
        .await
        .unwrap();
    s.app
        .store
        .insert_endorsement(s.app.ids.next(), alice, bob)
        .await
        .unwrap();
    s.app.store.dismiss_suggestion(bob, alice).await.unwrap();

    // Posts: Alice posts, Bob mentions her, Alice replies to Bob, Bob posts on his own.
    let alice_post = s
        .post(
            CreateStatus::PATH,
            &alice_t,
            &[("status", "hello from alice")],
        )
        .await;
    let bob_mention = s
        .post(CreateStatus::PATH, &bob_t, &[("status", "@alice welcome!")])
        .await;
    let alice_reply = s
        .post(
            CreateStatus::PATH,
            &alice_t,
            &[
                ("status", "@bob thanks"),
                ("in_reply_to_id", bob_mention["id"].as_str().unwrap()),
            ],
        )
        .await;
    let bob_post = s
        .post(CreateStatus::PATH, &bob_t, &[("status", "just bob")])
        .await;
    let alice_ids = [
        alice_post["id"].as_str().unwrap().to_string(),
        alice_reply["id"].as_str().unwrap().to_string(),
    ];

    // Before: the graph is what was built.
    let me = s.ok(VerifyCredentials::PATH, &bob_t).await;
    assert_eq!(
        (
            me["followers_count"].as_i64(),
            me["following_count"].as_i64()
        ),
        (Some(1), Some(1)),
        "{me}"
    );
    let home = s.ok(HomeTimeline::PATH, &bob_t).await;
    assert!(ids(&home).contains(&alice_ids[0]), "{home}");
    let requests = s.ok(ListFollowRequests::PATH, &erin_t).await;
    assert_eq!(ids(&requests), vec![alice.to_string()]);

    // Delete Alice.
    if via_cli {
        let out = s.cli(&["accounts", "delete", "@alice"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "accounts delete failed: {}{}",
            stdout,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("deleted account @alice") && stdout.contains("2 stored file"),
            "{stdout}"
        );
    } else {
        let deleted = s
            .app
            .accounts()
            .delete_account(alice)
            .await
            .expect("delete");
        assert_eq!(deleted.account.username, "alice");
        assert_eq!(deleted.files_removed, 2);
    }

    // Alice is gone: a 404 by id and by name, her token refused, her statuses and files gone.
    let (st, _) = s.get(&account_path::<GetAccount>(alice), None).await;
    assert_eq!(st, 404);
    let (st, _) = s
        .get(&format!("{}?acct=alice", LookupAccount::PATH), None)
        .await;
    assert_eq!(st, 404);
    let (st, v) = s.get(VerifyCredentials::PATH, Some(&alice_t)).await;
    assert_eq!(st, 401, "{v}");
    let (st, _) = s.get(HomeTimeline::PATH, Some(&alice_t)).await;
    assert_eq!(st, 401);
    for id in &alice_ids {
        let (st, _) = s
            .get(&fill_path(GetStatus::PATH, &[("id", id)]), Some(&bob_t))
            .await;
        assert_eq!(st, 404, "status {id}");
    }
    for k in &keys {
        assert!(
            !s.dir.join("media").join(k).exists(),
            "{k} is still on disk"
        );
    }
    let (st, _, _) = s.client.get_bytes(&avatar_url).await.unwrap();
    assert_eq!(st, 404, "the avatar is still served");

    // Bob: counters, lists and timelines without Alice; his own posts intact.
    let me = s.ok(VerifyCredentials::PATH, &bob_t).await;
    assert_eq!(
        (
            me["followers_count"].as_i64(),
            me["following_count"].as_i64(),
            me["statuses_count"].as_i64()
        ),
        (Some(0), Some(0), Some(2)),
        "{me}"
    );
    let public_bob = s.ok(&account_path::<GetAccount>(bob), &carol_t).await;
    assert_eq!(public_bob["followers_count"], 0, "{public_bob}");
    for path in [
        account_path::<GetFollowers>(bob),
        account_path::<GetFollowing>(bob),
        account_path::<GetFollowers>(carol),
        account_path::<GetFollowing>(carol),
    ] {
        let list = s.ok(&path, &bob_t).await;
        assert!(ids(&list).is_empty(), "{path}: {list}");
    }
    let home = s.ok(HomeTimeline::PATH, &bob_t).await;
    let home_ids = ids(&home);
    assert!(
        alice_ids.iter().all(|id| !home_ids.contains(id)),
        "Alice's posts are still in Bob's home: {home}"
    );
    for own in [&bob_post, &bob_mention] {
        assert!(home_ids.contains(&own["id"].as_str().unwrap().to_string()));
    }
    let mention = s
        .ok(
            &fill_path(
                GetStatus::PATH,
                &[("id", bob_mention["id"].as_str().unwrap())],
            ),
            &bob_t,
        )
        .await;
    assert!(
        mention["mentions"]
            .as_array()
            .is_some_and(|m| m.iter().all(|x| x["id"] != alice.to_string().as_str())),
        "the deleted account is still mentioned: {mention}"
    );
    let public = s.ok(PublicTimeline::PATH, &carol_t).await;
    assert!(
        ids(&public).iter().all(|id| !alice_ids.contains(id)),
        "Alice's posts are still public: {public}"
    );
    assert!(
        public
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["account"]["id"] != alice.to_string().as_str())
    );

    // Carol: counters back to zero, her mute of Alice gone.
    let me = s.ok(VerifyCredentials::PATH, &carol_t).await;
    assert_eq!(
        (
            me["followers_count"].as_i64(),
            me["following_count"].as_i64()
        ),
        (Some(0), Some(0)),
        "{me}"
    );
    let mutes = s.ok(ListMutes::PATH, &carol_t).await;
    assert!(ids(&mutes).is_empty(), "{mutes}");
    // Dave: his block of Alice gone. Erin: Alice's request gone.
    let blocks = s.ok(ListBlocks::PATH, &dave_t).await;
    assert!(ids(&blocks).is_empty(), "{blocks}");
    let requests = s.ok(ListFollowRequests::PATH, &erin_t).await;
    assert!(ids(&requests).is_empty(), "{requests}");
    let me = s.ok(VerifyCredentials::PATH, &erin_t).await;
    assert_eq!(me["followers_count"], 0, "{me}");

    // Annotations pointing at Alice are gone.
    let store = &s.app.store;
    assert_eq!(store.account_note(bob, alice).await.unwrap(), None);
    assert!(!store.endorses(bob, alice).await.unwrap());
    assert!(!store.endorses(alice, bob).await.unwrap());
    assert!(
        !store
            .dismissed_suggestions(bob)
            .await
            .unwrap()
            .contains(&alice)
    );
    assert!(store.account_by_id(alice).await.unwrap().is_none());
    // The others are untouched.
    for id in [bob, carol, dave, erin] {
        assert!(store.account_by_id(id).await.unwrap().is_some());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_account_with_the_cli_keeps_everything_consistent() {
    let s = Instance::start(None).await;
    scenario(&s, true).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_account_through_the_service_on_postgres() {
    let Some(admin) =
        common::TestServer::postgres_or_say("deleting_an_account_through_the_service_on_postgres")
    else {
        return;
    };
    let s = Instance::start(Some(&admin)).await;
    scenario(&s, false).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_through_the_service_on_sqlite() {
    let s = Instance::start(None).await;
    scenario(&s, false).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_unknown_account_fails_clearly() {
    let s = Instance::start(None).await;
    let out = s.cli(&["accounts", "delete", "nobody"]);
    assert!(
        !out.status.success(),
        "deleting an unknown account succeeded"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no local account named @nobody"),
        "{stderr}"
    );
    s.stop().await;
}
