//! Two fedblog servers on loopback federating over HTTP, every request signed and checked (two
//! `fedblog-server serve` processes with their own databases and domains), on SQLite and on
//! PostgreSQL.
//!
//! The first scenario: follows by handle (a locked account's request accepted), a post
//! reaching the remote follower's home timeline, a reply, a favourite and a boost arriving as
//! notifications, an edit with its history, a poll voted on from the other server (the count
//! seen on both), a deletion, an unfollow stopping delivery, a block honoured.
//!
//! The second, with authorized fetch on both servers (an unsigned GET of a note a 401, all
//! else working because fetches are signed) and remote media downloaded by one: a described,
//! focused picture (type, description, focus, blurhash, size and `remote_url` seen remotely;
//! the copy served by the follower's server) and a new avatar reaching the other server; a
//! thread whose first post is fetched as an ancestor, and an answer from the other server in
//! it; a hashtag and a mention (tags, mentions, a notification, the tag timeline); a pin and an
//! unpin; a featured tag and its removal; an account moved with the CLI, its remote follower
//! following the new account; an account unknown to one server found by a search with
//! `resolve`; a remote post's `url` on its own server.
//!
//! The third, moderation: a suspension on one server seen on the other (its copy suspended,
//! the client API answering 410) and lifted again, and a report forwarded as a `Flag`, filed on
//! the reported account's server.
//!
//! Then the refusals: unsigned, badly signed, wrong digest, stale date, an actor deleting
//! another's post, and a fetch to a private address with the setting off.

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use fedblog_core::App;
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    block_account::BlockAccount, get_account::GetAccount, get_account_statuses::GetAccountStatuses,
    get_featured_tags::GetFeaturedTags, get_followers::GetFollowers,
    get_relationships::GetRelationships, lookup_account::LookupAccount,
    search_accounts::SearchAccounts, unfollow_account::UnfollowAccount,
    update_credentials::UpdateCredentials, verify_credentials::VerifyCredentials,
};
use fedblog_core::api::admin_accounts::{
    moderate_account::ModerateAccount, unsuspend_account::UnsuspendAccount,
};
use fedblog_core::api::admin_reports::list_reports::ListReports;
use fedblog_core::api::featured_tags::{
    create_featured_tag::CreateFeaturedTag, delete_featured_tag::DeleteFeaturedTag,
};
use fedblog_core::api::follow_requests::{
    authorize_follow_request::AuthorizeFollowRequest, list_follow_requests::ListFollowRequests,
};
use fedblog_core::api::follows::follow_by_uri::FollowByUri;
use fedblog_core::api::media::create_media::CreateMedia;
use fedblog_core::api::notifications::list_notifications::ListNotifications;
use fedblog_core::api::polls::vote_poll::VotePoll;
use fedblog_core::api::reports::create_report::CreateReport;
use fedblog_core::api::statuses::{
    create_status::CreateStatus, favourite_status::FavouriteStatus, get_context::GetContext,
    get_status::GetStatus, pin_status::PinStatus, reblog_status::ReblogStatus,
    status_history::GetStatusHistory, unpin_status::UnpinStatus,
};
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, tag_timeline::TagTimeline};
use fedblog_core::federation::vocab::ACTIVITY_JSON;
use fedblog_testkit::client::{Part, encode_multipart};
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
    process_with(pg, &[]).await
}

/// [`process`] with more settings in its environment (`("FEDBLOG_...", value)`).
async fn process_with(pg: Option<&str>, settings: &[(&str, &str)]) -> Side {
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
        .envs(settings.iter().copied())
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
        if let Backend::InProcess(server) = &self.backend {
            return server.user(name).await;
        }
        let email = format!("{name}@example.com");
        self.cli(&[
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
        let out = self.cli(&["tokens", "create", name]);
        let token = out.lines().last().unwrap_or_default().trim().to_string();
        let (_, me) = self.call("GET", VerifyCredentials::PATH, &token, &[]).await;
        (me["id"].as_str().expect("an id").to_string(), token)
    }

    /// Runs the `fedblog-server` CLI with `args` on this process's database and domain; its
    /// standard output, trimmed (it must succeed).
    fn cli(&self, args: &[&str]) -> String {
        let Backend::Process(p) = &self.backend else {
            panic!("the CLI runs on a process's database");
        };
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

impl Side {
    /// A client API call on this server with a `multipart/form-data` body (`PATCH` or `POST`).
    async fn upload(&self, method: &str, path: &str, token: &str, parts: &[Part]) -> (u16, Value) {
        let (body, content_type) = encode_multipart(parts);
        let url = format!("{}{path}", self.base);
        let client = reqwest::Client::new();
        let request = match method {
            "PATCH" => client.patch(url),
            _ => client.post(url),
        };
        let r = request
            .bearer_auth(token)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .expect("request");
        decoded(r).await
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
    decoded(request.bearer_auth(token).send().await.expect("request")).await
}

/// A reply's status and body (JSON, or the text as a string).
async fn decoded(r: reqwest::Response) -> (u16, Value) {
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

/// `token`'s account on `side` follows `handle` (`user@host`), and the follow is accepted: the
/// account's id on `side`.
async fn follow_by_handle(side: &Side, token: &str, handle: &str) -> String {
    let (s, found) = side
        .call("POST", FollowByUri::PATH, token, &[("uri", handle)])
        .await;
    assert_eq!(s, 200, "{found}");
    assert_eq!(found["acct"], handle);
    let id = found["id"].as_str().expect("an id").to_string();
    eventually(&format!("following {handle}"), || async {
        let r = relationship(side, token, &id).await;
        (r["following"] == true).then_some(r)
    })
    .await;
    id
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
    let bob_at_a = follow_by_handle(&a, &ta, &format!("bob@{}", b.domain)).await;

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

/// The second scenario's servers and people: alice on a, following bob on b; carol on b,
/// whom alice does not follow. a downloads remote media; both serve ActivityPub documents only
/// to signed requests.
struct Pair {
    a: Side,
    b: Side,
    alice_id: String,
    ta: String,
    tb: String,
    tc: String,
    /// bob's account id at a.
    bob_at_a: String,
}

/// Posts a status on `side` (the form of `POST` statuses); the status.
async fn post(side: &Side, token: &str, form: &[(&str, &str)]) -> Value {
    let (s, status) = side.call("POST", CreateStatus::PATH, token, form).await;
    assert_eq!(s, 200, "{status}");
    status
}

/// The status `uri` in the home timeline of `token` on `side`, once it has arrived.
async fn in_home(side: &Side, token: &str, uri: &Value, what: &str) -> Value {
    eventually(what, || async {
        let (_, r) = side.call("GET", HomeTimeline::PATH, token, &[]).await;
        has(&r, |x| x["uri"] == *uri)
    })
    .await
}

/// The statuses of account `id` on `side` seen by `token`, with `query` (`pinned=true`).
async fn account_statuses(side: &Side, token: &str, id: &str, query: &str) -> Value {
    let path = format!("{}?{query}", at(GetAccountStatuses::PATH, id));
    side.call("GET", &path, token, &[]).await.1
}

/// The account `id` on `side` seen by `token`.
async fn account(side: &Side, token: &str, id: &str) -> Value {
    side.call("GET", &at(GetAccount::PATH, id), token, &[])
        .await
        .1
}

/// A `width` x `height` PNG with some detail.
fn png(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([
            (x * 3 % 256) as u8,
            (y * 5 % 256) as u8,
            ((x + y) % 256) as u8,
        ])
    });
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("a PNG");
    out
}

/// A GET of `url` with no signature, asking for ActivityPub JSON: its status.
async fn unsigned_activitypub_get(url: &str) -> u16 {
    reqwest::Client::new()
        .get(url)
        .header("accept", ACTIVITY_JSON)
        .send()
        .await
        .expect("an answer")
        .status()
        .as_u16()
}

/// Authorized fetch on both servers: the follow and every delivery and fetch below work
/// because they are signed, while an unsigned GET of a note is a 401. bob's note and its copy
/// at a.
async fn authorized_fetch(p: &Pair) -> (Value, Value) {
    let bobs = post(&p.b, &p.tb, &[("status", "for signed eyes only")]).await;
    let alices = post(&p.a, &p.ta, &[("status", "mine too")]).await;
    for (side, note) in [(&p.b, &bobs), (&p.a, &alices)] {
        let uri = note["uri"].as_str().unwrap();
        assert!(uri.starts_with(&side.base), "{uri}");
        assert_eq!(unsigned_activitypub_get(uri).await, 401, "{uri}");
    }
    let copy = in_home(
        &p.a,
        &p.ta,
        &bobs["uri"],
        "a note of an authorized-fetch server at a",
    )
    .await;
    (bobs, copy)
}

/// A remote status's `url` is its page on its own server (the note's `url`, or else its id,
/// as Mastodon shows it), not a page of the server showing the copy, which has none.
fn links_to_its_server(original: &Value, copy: &Value) {
    let url = copy["url"].as_str().unwrap_or_default();
    assert!(
        url == original["url"] || url == original["uri"],
        "the copy's url {url} should be {} (or {})",
        original["url"],
        original["uri"]
    );
}

/// bob posts a described, focused picture: a sees it (`remote_url` naming b's file) and
/// serves its own copy. bob's new avatar reaches a with the Update of his actor.
async fn media(p: &Pair) {
    let (s, uploaded) =
        p.b.upload(
            "POST",
            CreateMedia::PATH,
            &p.tb,
            &[
                Part::file("file", "gradient.png", "image/png", &png(64, 48)),
                Part::text("description", "A gradient"),
                Part::text("focus", "0.5,-0.25"),
            ],
        )
        .await;
    assert_eq!(s, 200, "{uploaded}");
    let original = uploaded["url"].as_str().expect("a url").to_string();
    assert!(original.starts_with(&p.b.base), "{uploaded}");
    let status = post(
        &p.b,
        &p.tb,
        &[
            ("status", "a picture"),
            ("media_ids[]", uploaded["id"].as_str().unwrap()),
        ],
    )
    .await;
    let copy = in_home(&p.a, &p.ta, &status["uri"], "bob's picture at a").await;
    let m = &copy["media_attachments"][0];
    assert_eq!(m["type"], "image", "{m}");
    assert_eq!(m["description"], "A gradient", "{m}");
    assert_eq!(m["meta"]["focus"]["x"], 0.5, "{m}");
    assert_eq!(m["meta"]["focus"]["y"], -0.25, "{m}");
    assert!(m["blurhash"].is_string(), "{m}");
    assert_eq!(m["meta"]["original"]["width"], 64, "{m}");
    assert_eq!(m["meta"]["original"]["height"], 48, "{m}");
    assert_eq!(m["remote_url"], original.as_str(), "{m}");

    // Remote media download: a's copy, served from a.
    let copy_id = copy["id"].as_str().unwrap();
    let m = eventually("the picture copied to a", || async {
        let (_, r) =
            p.a.call("GET", &at(GetStatus::PATH, copy_id), &p.ta, &[])
                .await;
        let m = r["media_attachments"][0].clone();
        m["url"]
            .as_str()
            .is_some_and(|u| u.starts_with(&p.a.base))
            .then_some(m)
    })
    .await;
    assert_eq!(m["remote_url"], original.as_str(), "{m}");
    let preview = m["preview_url"].as_str().unwrap_or_default();
    assert!(preview.starts_with(&p.a.base), "{m}");
    let r = reqwest::get(m["url"].as_str().unwrap())
        .await
        .expect("a's copy");
    assert_eq!(r.status().as_u16(), 200, "{m}");
    let content_type = r.headers()["content-type"].to_str().unwrap().to_string();
    assert!(content_type.starts_with("image/"), "{content_type}");
    let img = image::load_from_memory(&r.bytes().await.unwrap()).expect("an image");
    assert_eq!((img.width(), img.height()), (64, 48));

    // A new avatar: a refreshes bob on the Update of his actor.
    let before = account(&p.a, &p.ta, &p.bob_at_a).await;
    let (s, me) =
        p.b.upload(
            "PATCH",
            UpdateCredentials::PATH,
            &p.tb,
            &[Part::file("avatar", "me.png", "image/png", &png(80, 80))],
        )
        .await;
    assert_eq!(s, 200, "{me}");
    let bob = eventually("bob's new avatar at a", || async {
        let r = account(&p.a, &p.ta, &p.bob_at_a).await;
        (r["avatar"].is_string() && r["avatar"] != before["avatar"]).then_some(r)
    })
    .await;
    let r = reqwest::get(bob["avatar"].as_str().unwrap())
        .await
        .expect("the avatar");
    assert_eq!(r.status().as_u16(), 200, "{bob}");
}

/// carol starts a thread on b and bob answers: the answer reaches alice (who follows only
/// bob) with carol's post fetched as its ancestor; alice's answer to bob reaches b's thread.
async fn threads(p: &Pair) {
    let root = post(&p.b, &p.tc, &[("status", "carol starts a thread")]).await;
    let root_id = root["id"].as_str().unwrap();
    let reply = post(
        &p.b,
        &p.tb,
        &[
            ("status", &format!("@carol@{} bob answers", p.b.domain)),
            ("in_reply_to_id", root_id),
        ],
    )
    .await;
    let copy = eventually("bob's answer at a", || async {
        let r = account_statuses(&p.a, &p.ta, &p.bob_at_a, "limit=40").await;
        has(&r, |x| x["uri"] == reply["uri"])
    })
    .await;
    let copy_id = copy["id"].as_str().unwrap().to_string();
    let context = eventually("carol's post, an ancestor at a", || async {
        let (_, r) =
            p.a.call("GET", &at(GetContext::PATH, &copy_id), &p.ta, &[])
                .await;
        has(&r["ancestors"], |x| x["uri"] == root["uri"]).map(|_| r)
    })
    .await;
    assert_eq!(
        context["ancestors"].as_array().map(Vec::len),
        Some(1),
        "{context}"
    );
    assert_eq!(
        context["ancestors"][0]["account"]["acct"],
        format!("carol@{}", p.b.domain)
    );

    let answer = post(
        &p.a,
        &p.ta,
        &[
            ("status", &format!("@bob@{} alice joins in", p.b.domain)),
            ("in_reply_to_id", &copy_id),
        ],
    )
    .await;
    let thread = eventually("both answers in the thread at b", || async {
        let (_, r) =
            p.b.call("GET", &at(GetContext::PATH, root_id), &p.tc, &[])
                .await;
        let d = &r["descendants"];
        (d.as_array().map(Vec::len) == Some(2)
            && has(d, |x| x["uri"] == reply["uri"]).is_some()
            && has(d, |x| x["uri"] == answer["uri"]).is_some())
        .then_some(r)
    })
    .await;
    let answer_at_b = has(&thread["descendants"], |x| x["uri"] == answer["uri"]).unwrap();
    assert_eq!(answer_at_b["in_reply_to_id"], reply["id"], "{answer_at_b}");
}

/// A hashtag and a mention in bob's post: tagged and mentioned at a, a notification for
/// alice, and the post in a's timeline of the tag.
async fn hashtags_and_mentions(p: &Pair) -> Value {
    let status = post(
        &p.b,
        &p.tb,
        &[("status", &format!("#Federated hello @alice@{}", p.a.domain))],
    )
    .await;
    let copy = in_home(&p.a, &p.ta, &status["uri"], "the tagged post at a").await;
    assert_eq!(copy["tags"][0]["name"], "federated", "{copy}");
    assert!(
        has(&copy["mentions"], |m| m["id"] == p.alice_id.as_str()
            && m["acct"] == "alice")
        .is_some(),
        "{copy}"
    );
    eventually("alice's mention notification", || async {
        let (_, r) = p.a.call("GET", ListNotifications::PATH, &p.ta, &[]).await;
        has(&r, |n| {
            n["type"] == "mention"
                && n["status"]["uri"] == status["uri"]
                && n["account"]["acct"] == format!("bob@{}", p.b.domain)
        })
    })
    .await;
    eventually("the post in a's #federated timeline", || async {
        let (_, r) =
            p.a.call("GET", &at(TagTimeline::PATH, "federated"), &p.ta, &[])
                .await;
        has(&r, |x| x["uri"] == status["uri"])
    })
    .await;
    status
}

/// bob pins `status` and unpins it; a's view of his pinned posts follows.
async fn pins(p: &Pair, status: &Value) {
    let id = status["id"].as_str().unwrap();
    let (s, r) = p.b.call("POST", &at(PinStatus::PATH, id), &p.tb, &[]).await;
    assert_eq!(s, 200, "{r}");
    eventually("the pin seen at a", || async {
        let r = account_statuses(&p.a, &p.ta, &p.bob_at_a, "pinned=true").await;
        has(&r, |x| x["uri"] == status["uri"]).map(|_| r)
    })
    .await;
    let (s, r) =
        p.b.call("POST", &at(UnpinStatus::PATH, id), &p.tb, &[])
            .await;
    assert_eq!(s, 200, "{r}");
    eventually("the unpin seen at a", || async {
        let r = account_statuses(&p.a, &p.ta, &p.bob_at_a, "pinned=true").await;
        r.as_array().is_some_and(Vec::is_empty).then_some(r)
    })
    .await;
}

/// bob features a tag and unfeatures it; a's view of his featured tags follows.
async fn featured_tags(p: &Pair) {
    let (s, tag) =
        p.b.call(
            "POST",
            CreateFeaturedTag::PATH,
            &p.tb,
            &[("name", "Federated")],
        )
        .await;
    assert_eq!(s, 200, "{tag}");
    let listed = || async {
        p.a.call("GET", &at(GetFeaturedTags::PATH, &p.bob_at_a), &p.ta, &[])
            .await
            .1
    };
    eventually("the featured tag seen at a", || async {
        let r = listed().await;
        has(&r, |t| {
            t["name"]
                .as_str()
                .is_some_and(|n| n.eq_ignore_ascii_case("federated"))
        })
    })
    .await;
    let (s, r) =
        p.b.call(
            "DELETE",
            &at(DeleteFeaturedTag::PATH, tag["id"].as_str().unwrap()),
            &p.tb,
            &[],
        )
        .await;
    assert_eq!(s, 200, "{r}");
    eventually("no featured tag at a", || async {
        let r = listed().await;
        r.as_array().is_some_and(Vec::is_empty).then_some(r)
    })
    .await;
}

/// bob moves to bob2 with the CLI: alice, at a, follows bob2 instead, and bob is shown moved.
/// An account a has never heard of is found by a search with `resolve`, not without it.
async fn search_resolves(p: &Pair) {
    p.b.user("dora").await;
    let dora = format!("dora@{}", p.b.domain);
    let search = |resolve: &'static str| {
        let url = format!("{}?q={dora}&resolve={resolve}", SearchAccounts::PATH);
        async move { p.a.call("GET", &url, &p.ta, &[]).await }
    };
    let (s, found) = search("false").await;
    assert_eq!(s, 200, "{found}");
    assert_eq!(found, serde_json::json!([]), "not known without resolve");
    let (s, found) = search("true").await;
    assert_eq!(s, 200, "{found}");
    assert_eq!(found[0]["acct"], dora.as_str(), "{found}");
    let (_, found) = search("false").await;
    assert_eq!(
        found[0]["acct"],
        dora.as_str(),
        "known once resolved: {found}"
    );
}

async fn moves(p: &Pair) {
    p.b.user("bob2").await;
    let bob = format!("bob@{}", p.b.domain);
    let bob2 = format!("bob2@{}", p.b.domain);
    p.b.cli(&["accounts", "aliases", "bob2", &bob]);
    p.b.cli(&["accounts", "move", "bob", &bob2]);
    let moved = eventually("bob shown moved at a", || async {
        let r = account(&p.a, &p.ta, &p.bob_at_a).await;
        r["moved"].is_object().then_some(r)
    })
    .await;
    assert_eq!(moved["moved"]["acct"], bob2.as_str(), "{moved}");
    let bob2_at_a = moved["moved"]["id"].as_str().unwrap().to_string();
    let (s, looked_up) =
        p.a.call(
            "GET",
            &format!("{}?acct={bob2}", LookupAccount::PATH),
            &p.ta,
            &[],
        )
        .await;
    assert_eq!(s, 200, "{looked_up}");
    assert_eq!(looked_up["id"], bob2_at_a.as_str());
    eventually("alice follows bob2", || async {
        let r = relationship(&p.a, &p.ta, &bob2_at_a).await;
        (r["following"] == true).then_some(r)
    })
    .await;
    eventually("alice no longer follows bob", || async {
        let r = relationship(&p.a, &p.ta, &p.bob_at_a).await;
        (r["following"] == false).then_some(r)
    })
    .await;
}

async fn two_servers_federate_more(pg: Option<&str>) {
    let a = process_with(
        None,
        &[
            ("FEDBLOG_AUTHORIZED_FETCH", "true"),
            ("FEDBLOG_REMOTE_MEDIA_DOWNLOAD", "true"),
        ],
    )
    .await;
    let b = process_with(pg, &[("FEDBLOG_AUTHORIZED_FETCH", "true")]).await;
    let (alice_id, ta) = a.user("alice").await;
    let (_, tb) = b.user("bob").await;
    let (_, tc) = b.user("carol").await;
    let bob_at_a = follow_by_handle(&a, &ta, &format!("bob@{}", b.domain)).await;
    let p = Pair {
        a,
        b,
        alice_id,
        ta,
        tb,
        tc,
        bob_at_a,
    };

    let (bobs, copy) = authorized_fetch(&p).await;
    media(&p).await;
    threads(&p).await;
    let tagged = hashtags_and_mentions(&p).await;
    pins(&p, &tagged).await;
    featured_tags(&p).await;
    moves(&p).await;
    search_resolves(&p).await;
    links_to_its_server(&bobs, &copy);

    p.a.stop().await;
    p.b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_federation_on_sqlite() {
    two_servers_federate_more(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_federation_with_postgresql() {
    let Some(pg) = TestServer::postgres_or_say("more_federation_with_postgresql") else {
        return;
    };
    two_servers_federate_more(Some(&pg)).await;
}

/// An account with the admin role on `side` (a process), with a token of the admin scopes:
/// its token.
fn admin(side: &Side, name: &str) -> String {
    let email = format!("{name}@example.com");
    side.cli(&[
        "accounts",
        "create",
        name,
        "--email",
        &email,
        "--password",
        "correct horse battery",
        "--role",
        "admin",
        "--confirmed",
        "--approved",
    ]);
    let out = side.cli(&[
        "tokens",
        "create",
        name,
        "--scopes",
        "read write admin:read admin:write",
    ]);
    out.lines().last().unwrap_or_default().trim().to_string()
}

/// Moderation across the two servers: alice on A, followed by bob on B, suspended by A's
/// admin: B sees her suspended (its client API answers 410 for her) while A serves her actor
/// saying so; unsuspended: B shows her again, with her profile. Then bob reports her with
/// `forward`: A's admin finds the report, filed by B's instance actor, about alice and her post.
async fn moderation_federates(pg: Option<&str>) {
    let a = process(None).await;
    let b = process(pg).await;
    let (alice_id, ta) = a.user("alice").await;
    let boss = admin(&a, "boss");
    let (_, tb) = b.user("bob").await;
    let (s, _) = a
        .call(
            "PATCH",
            UpdateCredentials::PATH,
            &ta,
            &[("display_name", "Alice of A")],
        )
        .await;
    assert_eq!(s, 200);
    let alice_at_b = follow_by_handle(&b, &tb, &format!("alice@{}", a.domain)).await;
    let (s, hello) = a
        .call(
            "POST",
            CreateStatus::PATH,
            &ta,
            &[("status", "hello from A")],
        )
        .await;
    assert_eq!(s, 200, "{hello}");
    let copy = eventually("alice's post in bob's home", || async {
        let (_, r) = b.call("GET", HomeTimeline::PATH, &tb, &[]).await;
        has(&r, |x| x["uri"] == hello["uri"])
    })
    .await;

    // Suspended on A: B suspends its copy.
    let (s, r) = a
        .call(
            "POST",
            &at(ModerateAccount::PATH, &alice_id),
            &boss,
            &[("type", "suspend")],
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let (s, _) = a
        .call("GET", &at(GetAccount::PATH, &alice_id), &boss, &[])
        .await;
    assert_eq!(s, 410, "A's client API: gone");
    let actor = reqwest::Client::new()
        .get(format!("{}/users/alice", a.base))
        .header("accept", ACTIVITY_JSON)
        .send()
        .await
        .expect("actor");
    assert_eq!(actor.status().as_u16(), 200, "the actor is still served");
    let actor: Value = actor.json().await.expect("actor JSON");
    assert_eq!(actor["suspended"], true, "{actor}");
    assert_eq!(actor["name"], "alice", "no display name while suspended");
    eventually("alice suspended at B", || async {
        let (s, r) = b
            .call("GET", &at(GetAccount::PATH, &alice_at_b), &tb, &[])
            .await;
        (s == 410).then_some(r)
    })
    .await;

    // Unsuspended on A: B lifts its suspension, and shows her profile again.
    let (s, r) = a
        .call("POST", &at(UnsuspendAccount::PATH, &alice_id), &boss, &[])
        .await;
    assert_eq!(s, 200, "{r}");
    let back = eventually("alice back at B", || async {
        let (s, r) = b
            .call("GET", &at(GetAccount::PATH, &alice_at_b), &tb, &[])
            .await;
        (s == 200).then_some(r)
    })
    .await;
    assert_eq!(back["display_name"], "Alice of A", "{back}");
    let rel = relationship(&b, &tb, &alice_at_b).await;
    assert_eq!(rel["following"], true, "bob still follows her: {rel}");

    // bob reports her, forwarded: A's admin sees it.
    let copy_id = copy["id"].as_str().expect("an id");
    let (s, filed) = b
        .call(
            "POST",
            CreateReport::PATH,
            &tb,
            &[
                ("account_id", alice_at_b.as_str()),
                ("status_ids[]", copy_id),
                ("comment", "Forwarded from B"),
                ("forward", "true"),
            ],
        )
        .await;
    assert_eq!(s, 200, "{filed}");
    assert_eq!(filed["forwarded"], true, "{filed}");
    let report = eventually("the report at A", || async {
        let (_, r) = a.call("GET", ListReports::PATH, &boss, &[]).await;
        has(&r, |x| x["comment"] == "Forwarded from B")
    })
    .await;
    assert_eq!(
        report["target_account"]["id"],
        alice_id.as_str(),
        "{report}"
    );
    assert_eq!(report["category"], "other");
    assert_eq!(report["account"]["domain"], b.domain.as_str(), "{report}");
    let statuses = report["statuses"].as_array().expect("statuses");
    assert_eq!(statuses.len(), 1, "{report}");
    assert_eq!(statuses[0]["id"], hello["id"]);

    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moderation_federates_on_sqlite() {
    moderation_federates(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moderation_federates_with_postgresql() {
    let Some(pg) = TestServer::postgres_or_say("moderation_federates_with_postgresql") else {
        return;
    };
    moderation_federates(Some(&pg)).await;
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
    follow_by_handle(&a, &ta, &format!("bob@{}", b.domain)).await;
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
