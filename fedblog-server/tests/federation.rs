//! Two fedblog servers on loopback federating over HTTP, every request signed and checked (two
//! `fedblog-server serve` processes with their own databases and domains):
//! follows by handle (a locked account's request accepted), a post reaching the remote
//! follower's home timeline, a reply, a favourite and a boost arriving as notifications, an
//! edit with its history, a poll voted on from the other server (the count seen on both), a
//! deletion, an unfollow stopping delivery, a block honoured; on SQLite and on PostgreSQL. Then
//! the refusals: unsigned, badly signed, wrong digest, stale date, an actor deleting another's
//! post, and a fetch to a private address with the setting off.

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use fedblog_core::App;
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    block_account::BlockAccount, get_followers::GetFollowers, get_relationships::GetRelationships,
    lookup_account::LookupAccount, unfollow_account::UnfollowAccount,
    update_credentials::UpdateCredentials, verify_credentials::VerifyCredentials,
};
use fedblog_core::api::follow_requests::{
    authorize_follow_request::AuthorizeFollowRequest, list_follow_requests::ListFollowRequests,
};
use fedblog_core::api::follows::follow_by_uri::FollowByUri;
use fedblog_core::api::notifications::list_notifications::ListNotifications;
use fedblog_core::api::polls::vote_poll::VotePoll;
use fedblog_core::api::statuses::{
    create_status::CreateStatus, favourite_status::FavouriteStatus, get_context::GetContext,
    get_status::GetStatus, reblog_status::ReblogStatus, status_history::GetStatusHistory,
};
use fedblog_core::api::timelines::home_timeline::HomeTimeline;
use serde_json::Value;

use common::TestServer;

const BIN: &str = env!("CARGO_BIN_EXE_fedblog-server");

/// A server of the test: in this process (its store at hand), or a process of its own.
struct Side {
    backend: Backend,
    base: String,
    domain: String,
}

enum Backend {
    InProcess(TestServer),
    Process(Proc),
}

/// A `fedblog-server serve` process on its own SQLite file or PostgreSQL database.
struct Proc {
    child: Child,
    db_url: String,
    dir: PathBuf,
    pg: Option<(String, String)>,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server in this process federating over HTTP (`allow_private`:
/// `FEDBLOG_ALLOW_PRIVATE_ADDRESSES`).
async fn side(pg: Option<&str>, allow_private: bool) -> Side {
    let server = TestServer::start_federating(pg, allow_private).await;
    let base = server.running.base_url();
    let domain = server.running.addr.to_string();
    Side {
        backend: Backend::InProcess(server),
        base,
        domain,
    }
}

/// A `fedblog-server serve` process with `FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true`, on SQLite or
/// on a new database of the PostgreSQL server `pg`.
async fn process(pg: Option<&str>) -> Side {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    let dir =
        std::env::temp_dir().join(format!("fedblog-federation-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (db_url, pg) = match pg {
        Some(admin_url) => {
            let name = format!("fedblog_fed_{}_{port}", std::process::id());
            let url = fedblog_server::store::admin::create_database(admin_url, &name)
                .await
                .expect("create database");
            (url, Some((admin_url.to_string(), name)))
        }
        None => (
            format!("sqlite://{}?mode=rwc", dir.join("fedblog.sqlite").display()),
            None,
        ),
    };
    let domain = format!("127.0.0.1:{port}");
    let child = Command::new(BIN)
        .arg("serve")
        .env("FEDBLOG_DATABASE_URL", &db_url)
        .env("FEDBLOG_DATA_DIR", &dir)
        .env("FEDBLOG_DOMAIN", &domain)
        .env("FEDBLOG_LISTEN", &domain)
        .env("FEDBLOG_ALLOW_PRIVATE_ADDRESSES", "true")
        .env("FEDBLOG_RATE_LIMITS", "off")
        .env("FEDBLOG_WORKERS", "2")
        .env("FEDBLOG_WORKER_POLL_MS", "50")
        .env("FEDBLOG_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start fedblog-server");
    let side = Side {
        backend: Backend::Process(Proc {
            child,
            db_url,
            dir,
            pg,
        }),
        base: format!("http://{domain}"),
        domain,
    };
    for _ in 0..300 {
        if reqwest::get(format!("{}/nodeinfo/2.0", side.base))
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return side;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("fedblog-server on {} did not start", side.base);
}

impl Side {
    /// A confirmed user with a token: (account id, token).
    async fn user(&self, name: &str) -> (String, String) {
        let p = match &self.backend {
            Backend::InProcess(server) => return server.user(name).await,
            Backend::Process(p) => p,
        };
        let cli = |args: &[&str]| {
            let out = Command::new(BIN)
                .args(args)
                .env("FEDBLOG_DATABASE_URL", &p.db_url)
                .env("FEDBLOG_DATA_DIR", &p.dir)
                .env("FEDBLOG_DOMAIN", &self.domain)
                .env("FEDBLOG_LOG", "warn")
                .output()
                .expect("run fedblog-server");
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        let email = format!("{name}@example.com");
        cli(&[
            "accounts",
            "create",
            name,
            "--email",
            &email,
            "--password",
            "correct horse battery",
            "--confirmed",
            "--approved",
        ]);
        let out = cli(&["tokens", "create", name]);
        let token = out.lines().last().unwrap_or_default().trim().to_string();
        let (_, me) = self.call("GET", VerifyCredentials::PATH, &token, &[]).await;
        (me["id"].as_str().expect("an id").to_string(), token)
    }

    /// The app of a server in this process.
    fn app(&self) -> &Arc<App> {
        match &self.backend {
            Backend::InProcess(server) => &server.app,
            Backend::Process(_) => panic!("a process's app is not at hand"),
        }
    }

    async fn stop(self) {
        match self.backend {
            Backend::InProcess(server) => server.stop().await,
            Backend::Process(mut p) => {
                let _ = p.child.kill();
                let _ = p.child.wait();
                let _ = std::fs::remove_dir_all(&p.dir);
                if let Some((admin_url, name)) = p.pg.take() {
                    fedblog_server::store::admin::drop_database(&admin_url, &name)
                        .await
                        .expect("drop database");
                }
            }
        }
    }

    /// A client API call on this server.
    async fn call(
        &self,
        method: &str,
        path: &str,
        token: &str,
        form: &[(&str, &str)],
    ) -> (u16, Value) {
        call(method, &format!("{}{path}", self.base), token, form).await
    }
}

async fn call(method: &str, url: &str, token: &str, form: &[(&str, &str)]) -> (u16, Value) {
    let client = reqwest::Client::new();
    let request = match method {
        "GET" => client.get(url),
        "PUT" => client.put(url).form(form),
        "PATCH" => client.patch(url).form(form),
        "DELETE" => client.delete(url),
        _ => client.post(url).form(form),
    };
    let r = request.bearer_auth(token).send().await.expect("request");
    let status = r.status().as_u16();
    let text = r.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// An endpoint's path with its one parameter filled in.
fn at(path: &str, id: &str) -> String {
    let (head, tail) = path.split_once(':').expect("a parameter");
    let rest = tail.find('/').map_or("", |i| &tail[i..]);
    format!("{head}{id}{rest}")
}

/// `token`'s relationship on `side` with the account `id`.
async fn relationship(side: &Side, token: &str, id: &str) -> Value {
    let url = format!("{}{}?id[]={id}", side.base, GetRelationships::PATH);
    let (_, r) = call("GET", &url, token, &[]).await;
    r[0].clone()
}

/// Waits (up to 20 s) until `check` holds, then returns what it saw.
async fn eventually<F, Fut>(what: &str, mut check: F) -> Value
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<Value>>,
{
    let started = std::time::Instant::now();
    for _ in 0..200 {
        if let Some(v) = check().await {
            println!("{what}: {:?}", started.elapsed());
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("never: {what}");
}

fn has(list: &Value, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    list.as_array()?.iter().find(|v| pred(v)).cloned()
}

async fn two_servers_federate(pg: Option<&str>) {
    let a = process(None).await;
    let b = process(pg).await;
    let (_, ta) = a.user("alice").await;
    let (bob_id, tb) = b.user("bob").await;
    let (_, tc) = b.user("carol").await;
    let (s, _) = b
        .call("PATCH", UpdateCredentials::PATH, &tc, &[("locked", "true")])
        .await;
    assert_eq!(s, 200);

    // Follow by handle.
    let (s, bob) = a
        .call(
            "POST",
            FollowByUri::PATH,
            &ta,
            &[("uri", &format!("bob@{}", b.domain))],
        )
        .await;
    assert_eq!(s, 200, "{bob}");
    assert_eq!(bob["acct"], format!("bob@{}", b.domain));
    let bob_at_a = bob["id"].as_str().unwrap().to_string();
    eventually("alice follows bob", || async {
        let r = relationship(&a, &ta, &bob_at_a).await;
        (r["following"] == true).then_some(r)
    })
    .await;

    // A locked account's request, accepted.
    let (s, carol) = a
        .call(
            "POST",
            FollowByUri::PATH,
            &ta,
            &[("uri", &format!("carol@{}", b.domain))],
        )
        .await;
    assert_eq!(s, 200, "{carol}");
    let carol_at_a = carol["id"].as_str().unwrap().to_string();
    let request = eventually("carol sees alice's request", || async {
        let (_, r) = b.call("GET", ListFollowRequests::PATH, &tc, &[]).await;
        has(&r, |x| x["acct"] == format!("alice@{}", a.domain))
    })
    .await;
    let rel = relationship(&a, &ta, &carol_at_a).await;
    assert_eq!(rel["requested"], true, "{rel}");
    let (s, _) = b
        .call(
            "POST",
            &at(
                AuthorizeFollowRequest::PATH,
                request["id"].as_str().unwrap(),
            ),
            &tc,
            &[],
        )
        .await;
    assert_eq!(s, 200);
    eventually("alice follows carol", || async {
        let r = relationship(&a, &ta, &carol_at_a).await;
        (r["following"] == true).then_some(r)
    })
    .await;

    // bob posts: it lands in alice's home timeline.
    let (s, hello) = b
        .call(
            "POST",
            CreateStatus::PATH,
            &tb,
            &[("status", "Hello across servers")],
        )
        .await;
    assert_eq!(s, 200, "{hello}");
    let hello_id = hello["id"].as_str().unwrap().to_string();
    let copy = eventually("bob's post in alice's home", || async {
        let (_, r) = a.call("GET", HomeTimeline::PATH, &ta, &[]).await;
        has(&r, |x| {
            x["content"]
                .as_str()
                .is_some_and(|c| c.contains("Hello across servers"))
        })
    })
    .await;
    assert_eq!(copy["account"]["acct"], format!("bob@{}", b.domain));
    assert_eq!(copy["uri"], hello["uri"]);
    let copy_id = copy["id"].as_str().unwrap().to_string();

    // A reply, a favourite and a boost arrive as notifications.
    let (s, _) = a
        .call(
            "POST",
            CreateStatus::PATH,
            &ta,
            &[
                ("status", &format!("@bob@{} nice!", b.domain)),
                ("in_reply_to_id", &copy_id),
            ],
        )
        .await;
    assert_eq!(s, 200);
    let (s, _) = a
        .call("POST", &at(FavouriteStatus::PATH, &copy_id), &ta, &[])
        .await;
    assert_eq!(s, 200);
    let (s, _) = a
        .call("POST", &at(ReblogStatus::PATH, &copy_id), &ta, &[])
        .await;
    assert_eq!(s, 200);
    for kind in ["mention", "favourite", "reblog"] {
        eventually(kind, || async {
            let (_, r) = b.call("GET", ListNotifications::PATH, &tb, &[]).await;
            has(&r, |n| {
                n["type"] == kind && n["account"]["acct"] == format!("alice@{}", a.domain)
            })
        })
        .await;
    }
    let (_, context) = b
        .call("GET", &at(GetContext::PATH, &hello_id), &tb, &[])
        .await;
    assert_eq!(
        context["descendants"].as_array().map(Vec::len),
        Some(1),
        "{context}"
    );

    // An edit arrives with its history.
    let (s, _) = b
        .call(
            "PUT",
            &at(GetStatus::PATH, &hello_id),
            &tb,
            &[("status", "Hello, edited")],
        )
        .await;
    assert_eq!(s, 200);
    eventually("the edit's history", || async {
        let (_, r) = a
            .call("GET", &at(GetStatusHistory::PATH, &copy_id), &ta, &[])
            .await;
        (r.as_array().map(Vec::len) == Some(2)).then_some(r)
    })
    .await;

    // A poll posted on b, voted on from a through the client API: the count seen on both.
    let (s, asked) = b
        .call(
            "POST",
            CreateStatus::PATH,
            &tb,
            &[
                ("status", "Tea or coffee?"),
                ("poll[options][]", "tea"),
                ("poll[options][]", "coffee"),
                ("poll[expires_in]", "600"),
            ],
        )
        .await;
    assert_eq!(s, 200, "{asked}");
    let asked_id = asked["id"].as_str().unwrap().to_string();
    let poll_copy = eventually("bob's poll in alice's home", || async {
        let (_, r) = a.call("GET", HomeTimeline::PATH, &ta, &[]).await;
        has(&r, |x| x["uri"] == asked["uri"] && x["poll"].is_object())
    })
    .await;
    assert_eq!(poll_copy["poll"]["options"][1]["title"], "coffee");
    let poll_copy_id = poll_copy["id"].as_str().unwrap().to_string();
    let poll_id = poll_copy["poll"]["id"].as_str().unwrap().to_string();
    let (s, voted) = a
        .call(
            "POST",
            &at(VotePoll::PATH, &poll_id),
            &ta,
            &[("choices[]", "1")],
        )
        .await;
    assert_eq!(s, 200, "{voted}");
    assert_eq!(voted["options"][1]["votes_count"], 1, "{voted}");
    eventually("alice's vote counted on b", || async {
        let (_, r) = b
            .call("GET", &at(GetStatus::PATH, &asked_id), &tb, &[])
            .await;
        (r["poll"]["votes_count"] == 1 && r["poll"]["options"][1]["votes_count"] == 1).then_some(r)
    })
    .await;
    eventually("the count and alice's vote on a", || async {
        let (_, r) = a
            .call("GET", &at(GetStatus::PATH, &poll_copy_id), &ta, &[])
            .await;
        let p = &r["poll"];
        (p["votes_count"] == 1 && p["voted"] == true && p["own_votes"] == serde_json::json!([1]))
            .then_some(r)
    })
    .await;

    // A deletion removes it.
    let (s, _) = b
        .call("DELETE", &at(GetStatus::PATH, &hello_id), &tb, &[])
        .await;
    assert_eq!(s, 200);
    eventually("the post gone at a", || async {
        let (s, r) = a
            .call("GET", &at(GetStatus::PATH, &copy_id), &ta, &[])
            .await;
        (s == 404).then_some(r)
    })
    .await;

    // An unfollow stops delivery.
    let (s, _) = a
        .call("POST", &at(UnfollowAccount::PATH, &bob_at_a), &ta, &[])
        .await;
    assert_eq!(s, 200);
    eventually("alice no longer among bob's followers", || async {
        let (_, r) = b
            .call("GET", &at(GetFollowers::PATH, &bob_id), &tb, &[])
            .await;
        (r.as_array().is_some_and(Vec::is_empty)).then_some(r)
    })
    .await;
    let (s, _) = b
        .call(
            "POST",
            CreateStatus::PATH,
            &tb,
            &[("status", "after the unfollow")],
        )
        .await;
    assert_eq!(s, 200);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_, home) = a.call("GET", HomeTimeline::PATH, &ta, &[]).await;
    assert!(
        has(&home, |x| x["content"]
            .as_str()
            .is_some_and(|c| c.contains("after the unfollow")))
        .is_none()
    );

    // A block is honoured: carol blocks alice; alice's follow of carol ends.
    let (_, alice_at_b) = b
        .call(
            "GET",
            &format!("{}?acct=alice@{}", LookupAccount::PATH, a.domain),
            &tc,
            &[],
        )
        .await;
    let (s, _) = b
        .call(
            "POST",
            &at(BlockAccount::PATH, alice_at_b["id"].as_str().unwrap()),
            &tc,
            &[],
        )
        .await;
    assert_eq!(s, 200);
    eventually("the block known at a", || async {
        let r = relationship(&a, &ta, &carol_at_a).await;
        (r["following"] == false && r["blocked_by"] == true).then_some(r)
    })
    .await;

    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_federate_on_sqlite() {
    two_servers_federate(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_federate_with_postgresql() {
    let Some(pg) = TestServer::postgres_or_say("two_servers_federate_with_postgresql") else {
        return;
    };
    two_servers_federate(Some(&pg)).await;
}

/// A signed POST to `url` of `body` by `key_owner` of server `from`, with `adjust` applied to
/// the headers after signing.
async fn signed_post(
    from: &Side,
    key_owner: &str,
    url: &str,
    body: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> Vec<(String, String)> {
    let account = from
        .app()
        .store
        .account_by_username(key_owner, None)
        .await
        .unwrap()
        .unwrap();
    let key = from.app().federation().local_key(account.id).await.unwrap();
    let private =
        fedblog_core::federation::keys::PrivateKey::from_pem(&key.private_key_pem).unwrap();
    let key_id = format!("{}/users/{key_owner}#main-key", from.base);
    fedblog_core::federation::signatures::sign_request(
        "POST",
        url,
        Some(body.as_bytes()),
        &key_id,
        &private,
        at,
    )
    .unwrap()
}

async fn post_raw(url: &str, headers: &[(String, String)], body: &str) -> u16 {
    let mut r = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/activity+json")
        .body(body.to_string());
    for (k, v) in headers {
        if !k.eq_ignore_ascii_case("host") {
            r = r.header(k.as_str(), v.as_str());
        }
    }
    r.send().await.unwrap().status().as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inboxes_refuse_what_is_not_signed_by_its_actor() {
    let a = side(None, true).await;
    let b = side(None, true).await;
    let (_, ta) = a.user("alice").await;
    let (_, tb) = b.user("bob").await;
    b.user("mallory").await;
    // alice follows bob, and bob posts: a keeps a copy.
    let (s, bob) = a
        .call(
            "POST",
            FollowByUri::PATH,
            &ta,
            &[("uri", &format!("bob@{}", b.domain))],
        )
        .await;
    assert_eq!(s, 200, "{bob}");
    let bob_at_a = bob["id"].as_str().unwrap().to_string();
    eventually("alice follows bob", || async {
        let r = relationship(&a, &ta, &bob_at_a).await;
        (r["following"] == true).then_some(r)
    })
    .await;
    let (_, hello) = b
        .call("POST", CreateStatus::PATH, &tb, &[("status", "mine alone")])
        .await;
    let copy = eventually("bob's post at a", || async {
        let (_, r) = a.call("GET", HomeTimeline::PATH, &ta, &[]).await;
        has(&r, |x| {
            x["content"]
                .as_str()
                .is_some_and(|c| c.contains("mine alone"))
        })
    })
    .await;
    let inbox = format!("{}/users/alice/inbox", a.base);
    let mallory = format!("{}/users/mallory", b.base);
    let delete = serde_json::json!({
        "@context": "https://www.w3.org/ns/activitystreams",
        "id": format!("{mallory}#delete-1"),
        "type": "Delete",
        "actor": mallory,
        "object": hello["uri"],
    })
    .to_string();
    let now = chrono::Utc::now();

    // Unsigned.
    assert_eq!(post_raw(&inbox, &[], &delete).await, 401);
    // Signed, but the body changed afterwards (the digest no longer matches).
    let headers = signed_post(&b, "mallory", &inbox, &delete, now).await;
    assert_eq!(
        post_raw(&inbox, &headers, &delete.replace("delete-1", "delete-2")).await,
        401
    );
    // A bad signature: signed by one key, claimed by another actor.
    let mut forged = signed_post(&b, "mallory", &inbox, &delete, now).await;
    for (k, v) in forged.iter_mut() {
        if k.eq_ignore_ascii_case("signature") {
            *v = v.replace("/users/mallory#", "/users/bob#");
        }
    }
    assert_eq!(post_raw(&inbox, &forged, &delete).await, 401);
    // A stale date.
    let stale = signed_post(
        &b,
        "mallory",
        &inbox,
        &delete,
        now - chrono::Duration::hours(3),
    )
    .await;
    assert_eq!(post_raw(&inbox, &stale, &delete).await, 401);
    // Properly signed by mallory, but the post is bob's: refused, and nothing changes.
    let headers = signed_post(&b, "mallory", &inbox, &delete, now).await;
    assert_eq!(post_raw(&inbox, &headers, &delete).await, 403);
    let (s, _) = a
        .call(
            "GET",
            &at(GetStatus::PATH, copy["id"].as_str().unwrap()),
            &ta,
            &[],
        )
        .await;
    assert_eq!(s, 200, "bob's post is still there");

    // With FEDBLOG_ALLOW_PRIVATE_ADDRESSES off, a loopback server is not reached.
    let c = side(None, false).await;
    let (_, tc) = c.user("carol").await;
    let (s, r) = c
        .call(
            "POST",
            FollowByUri::PATH,
            &tc,
            &[("uri", &format!("bob@{}", b.domain))],
        )
        .await;
    assert_eq!(
        s, 404,
        "an account that cannot be looked up is not found: {r}"
    );
    let refused = c
        .app()
        .federation()
        .resolve_handle("bob", &b.domain)
        .await
        .expect_err("refused");
    assert!(refused.message.contains("refused"), "{}", refused.message);
    let (s, _) = c
        .call(
            "GET",
            &format!("{}?acct=bob@{}", LookupAccount::PATH, b.domain),
            &tc,
            &[],
        )
        .await;
    assert_eq!(s, 404, "nothing was stored");

    a.stop().await;
    b.stop().await;
    c.stop().await;
}
