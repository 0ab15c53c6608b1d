//! Quote posts across servers, as Mastodon 4.5 federates them (FEP-044f): an app on
//! `fedblog.test` among remote servers (`remote.test`, `other.test`) that serve their documents
//! and record what is POSTed to them. Each test drives one point of the quote federation
//! contract and checks the JSON delivered and what the client API then shows.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::Duration;
use serde_json::{Value, json};

use crate::Id;
use crate::api::in_process::InProcessNetwork;
use crate::app::App;
use crate::federation::keys::PrivateKey;
use crate::federation::keys::test_keys::{ACTOR_KEY, ACTOR_PUB};
use crate::federation::paths;
use crate::federation::signatures::sign_request;
use crate::federation::vocab::{ACTIVITY_JSON, PUBLIC};
use crate::federation::{OutboundRequest, OutboundResponse, Transport, TransportError};
use crate::services::statuses::NewStatus;
use crate::store::{AccountRecord, ActorKeyRecord, INSTANCE_ACTOR, QuoteRecord, StatusRecord};
use crate::test_support::{account, app, post, post_new};

/// Our server.
const LOCAL: &str = "fedblog.test";
/// The remote quoting (or quoted) actor.
const ROB: &str = "https://remote.test/users/rob";
/// Another actor on rob's server.
const EVE: &str = "https://remote.test/users/eve";
/// An actor on a third server.
const OLGA: &str = "https://other.test/users/olga";

/// The actor document of `id` (`https://HOST/users/NAME`), with the test key.
fn actor_doc(id: &str) -> Value {
    let name = id.rsplit('/').next().unwrap_or("x");
    json!({
        "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
        "id": id,
        "type": "Person",
        "preferredUsername": name,
        "inbox": format!("{id}/inbox"),
        "outbox": format!("{id}/outbox"),
        "followers": format!("{id}/followers"),
        "following": format!("{id}/following"),
        "publicKey": {"id": format!("{id}#main-key"), "owner": id, "publicKeyPem": ACTOR_PUB},
    })
}

/// A public note `id` by `actor` with `text` and the properties in `extra`.
fn note(id: &str, actor: &str, text: &str, extra: Value) -> Value {
    let mut n = json!({
        "id": id,
        "type": "Note",
        "attributedTo": actor,
        "content": format!("<p>{text}</p>"),
        "published": "2026-01-02T03:04:05Z",
        "to": [PUBLIC],
        "cc": [format!("{actor}/followers")],
    });
    if let (Some(o), Some(e)) = (n.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            o.insert(k.clone(), v.clone());
        }
    }
    n
}

/// The remote servers: they serve documents and record every POST (inbox and activity).
struct Remotes {
    net: Arc<InProcessNetwork>,
    docs: Mutex<HashMap<String, Value>>,
    received: Mutex<Vec<(String, Value)>>,
}

#[async_trait]
impl Transport for Remotes {
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError> {
        if paths::host_of(&req.url).as_deref() == Some(LOCAL) {
            return self.net.transport().send(req).await;
        }
        let served = self.docs.lock().unwrap().get(&req.url).cloned();
        let (status, body) = match (req.method.as_str(), served) {
            ("POST", _) => {
                let sent = serde_json::from_slice(&req.body.unwrap_or_default()).unwrap();
                self.received.lock().unwrap().push((req.url.clone(), sent));
                (202, vec![])
            }
            (_, Some(doc)) => (200, doc.to_string().into_bytes()),
            (_, None) => (404, vec![]),
        };
        Ok(OutboundResponse {
            status,
            content_type: Some(ACTIVITY_JSON.into()),
            body,
        })
    }
}

/// Our app, the remote servers, alice (local) and rob (remote, following alice).
struct World {
    app: Arc<App>,
    remotes: Arc<Remotes>,
    alice: AccountRecord,
    rob: AccountRecord,
}

impl World {
    async fn new() -> World {
        let net = InProcessNetwork::new();
        let docs = [ROB, EVE, OLGA]
            .iter()
            .map(|a| (a.to_string(), actor_doc(a)))
            .collect();
        let remotes = Arc::new(Remotes {
            net: net.clone(),
            docs: Mutex::new(docs),
            received: Mutex::default(),
        });
        let app = Arc::new(app(LOCAL).with_transport(remotes.clone()));
        net.join(&app);
        let alice = account(&app, "alice").await;
        let w = World {
            rob: app.federation().resolve_actor(ROB).await.unwrap(),
            app,
            remotes,
            alice,
        };
        w.keys(INSTANCE_ACTOR).await;
        w.keys(w.alice.id).await;
        // rob follows alice: her posts go to his inbox.
        let follow = json!({"id": format!("{ROB}#follows/1"), "type": "Follow", "actor": ROB,
            "object": w.actor(&w.alice)});
        assert_eq!(w.deliver(&follow).await, 202);
        assert!(w.app.store.follows(w.rob.id, w.alice.id).await.unwrap());
        w.run_jobs().await;
        w.remotes.received.lock().unwrap().clear();
        w
    }

    /// The test key for the local `owner` (making an RSA key is slow).
    async fn keys(&self, owner: Id) {
        let key = ActorKeyRecord {
            owner,
            private_key_pem: ACTOR_KEY.into(),
            public_key_pem: ACTOR_PUB.into(),
            created_at: self.app.now(),
        };
        self.app.store.insert_actor_key(&key).await.unwrap();
    }

    fn actor(&self, a: &AccountRecord) -> String {
        paths::account_actor(&self.app.base_url(), a)
    }

    fn uri(&self, s: &StatusRecord) -> String {
        s.uri
            .clone()
            .unwrap_or_else(|| paths::status(&self.app.base_url(), "alice", s.id))
    }

    fn serve(&self, doc: Value) {
        let id = doc["id"].as_str().unwrap().to_string();
        self.remotes.docs.lock().unwrap().insert(id, doc);
    }

    /// POSTs `activity` to our shared inbox, signed by its actor: the answer's status.
    async fn deliver(&self, activity: &Value) -> u16 {
        let actor = activity["actor"].as_str().unwrap();
        let inbox = paths::shared_inbox(&self.app.base_url());
        let body = activity.to_string().into_bytes();
        let key = PrivateKey::from_pem(ACTOR_KEY).unwrap();
        let key_id = format!("{actor}#main-key");
        let now = self.app.now();
        let mut headers = sign_request("POST", &inbox, Some(&body), &key_id, &key, now).unwrap();
        headers.push(("Content-Type".into(), ACTIVITY_JSON.into()));
        let request = OutboundRequest {
            method: http::Method::POST,
            url: inbox,
            headers,
            body: Some(body),
        };
        self.remotes
            .net
            .transport()
            .send(request)
            .await
            .unwrap()
            .status
    }

    async fn run_jobs(&self) {
        loop {
            let report = self.app.run_due_jobs("test", 100, Duration::seconds(60));
            let report = report.await.unwrap();
            assert_eq!(report.failed, 0, "a job failed");
            if report.claimed == 0 {
                return;
            }
        }
    }

    /// What we POSTed of type `kind`, with the inbox, and forgets it.
    fn take(&self, kind: &str) -> Vec<(String, Value)> {
        let mut received = self.remotes.received.lock().unwrap();
        let (taken, kept) = received.drain(..).partition(|(_, a)| a["type"] == kind);
        *received = kept;
        taken
    }

    /// `author` posts `text` quoting `quoted`, as `POST /api/v1/statuses` does.
    async fn quote(
        &self,
        author: &AccountRecord,
        quoted: &StatusRecord,
        text: &str,
    ) -> StatusRecord {
        let quotes = self.app.quotes();
        let draft = quotes
            .prepare(author, Some(&quoted.id.to_string()), None, None, &[])
            .await
            .expect("prepare");
        let new = NewStatus {
            text: text.into(),
            ..Default::default()
        };
        let s = post_new(&self.app, author, new).await;
        quotes.attach(author, &s, draft).await.expect("attach");
        s
    }

    /// alice posts `text` with the quote approval `policy`.
    async fn alice_posts(&self, text: &str, policy: &str) -> StatusRecord {
        let quotes = self.app.quotes();
        let draft = quotes.prepare(&self.alice, None, Some(policy), None, &[]);
        let draft = draft.await.expect("prepare");
        let s = post(&self.app, &self.alice, text, None).await;
        quotes.attach(&self.alice, &s, draft).await.expect("attach");
        s
    }

    /// The quote `status` makes.
    async fn quote_of(&self, status: Id) -> Option<QuoteRecord> {
        let store = self.app.store.quotes().expect("quotes kept");
        store.quotes_of_statuses(&[status]).await.unwrap().pop()
    }

    /// `status` as alice's client sees it, as JSON.
    async fn shown(&self, status: &StatusRecord) -> Value {
        let s = self.app.render_status(status, Some(&self.alice)).await;
        serde_json::to_value(s.expect("render")).unwrap()
    }

    /// The note of `status` as its URL serves it.
    async fn note_doc(&self, status: Id) -> Value {
        let parts = self.app.note_parts(status).await.unwrap().expect("parts");
        self.app.render_ap_note_document(&parts)
    }

    /// rob's public post `n`, stored here as delivered: its note and status.
    async fn rob_post(&self, n: u32) -> (Value, StatusRecord) {
        let doc = note(
            &format!("{ROB}/statuses/{n}"),
            ROB,
            "rob's post",
            json!({"interactionPolicy": {"canQuote": {"automaticApproval": [PUBLIC]}}}),
        );
        self.serve(doc.clone());
        let create = json!({"id": format!("{ROB}/statuses/{n}/activity"), "type": "Create",
            "actor": ROB, "to": [PUBLIC], "object": doc});
        assert_eq!(self.deliver(&create).await, 202);
        let uri = format!("{ROB}/statuses/{n}");
        let s = self.app.store.status_by_uri(&uri).await.unwrap();
        (doc, s.expect("rob's post stored"))
    }

    /// alice quotes rob's post `n`; the jobs run: her status and the `QuoteRequest` sent.
    async fn alice_quotes_rob(&self, n: u32) -> (StatusRecord, Value) {
        let (_, robs) = self.rob_post(n).await;
        let mine = self.quote(&self.alice, &robs, "look at this").await;
        self.run_jobs().await;
        let mut requests = self.take("QuoteRequest");
        assert_eq!(requests.len(), 1, "one QuoteRequest");
        let (inbox, request) = requests.remove(0);
        assert_eq!(
            inbox,
            format!("{ROB}/inbox"),
            "to the quoted author's inbox"
        );
        (mine, request)
    }
}

/// Point 1: a local note says who may quote it (`public`: the public collection; `followers`:
/// the author's followers; `nobody`: the author), as served and in its `Create`, with the
/// quote terms in its `@context`.
#[tokio::test]
async fn local_notes_carry_their_quote_policy_and_the_quote_terms() {
    let w = World::new().await;
    let actor = w.actor(&w.alice);
    for (policy, expected) in [
        ("public", PUBLIC.to_string()),
        ("followers", format!("{actor}/followers")),
        ("nobody", actor.clone()),
    ] {
        let s = w.alice_posts(&format!("policy {policy}"), policy).await;
        let doc = w.note_doc(s.id).await;
        assert_eq!(
            doc["interactionPolicy"],
            json!({"canQuote": {"automaticApproval": [expected], "manualApproval": []}}),
            "{policy}"
        );
        let terms = &doc["@context"][1];
        for term in [
            "quote",
            "quoteUri",
            "_misskey_quote",
            "quoteAuthorization",
            "QuoteRequest",
            "QuoteAuthorization",
            "interactionPolicy",
            "canQuote",
            "automaticApproval",
            "manualApproval",
            "interactingObject",
            "interactionTarget",
        ] {
            assert!(terms.get(term).is_some(), "{term} in {terms}");
        }
        w.run_jobs().await;
        let creates = w.take("Create");
        assert_eq!(creates.len(), 1, "{policy}");
        assert_eq!(
            creates[0].1["object"]["interactionPolicy"], doc["interactionPolicy"],
            "{policy}: the Create's note says the same"
        );
        assert!(creates[0].1["@context"][1].get("canQuote").is_some());
        assert!(doc.get("quote").is_none(), "a note that quotes nothing");
    }
}

/// Point 2: a local quoting note names the quoted post (`quote`, `quoteUri`,
/// `_misskey_quote`), with our authorization once accepted, and still after the quoted post
/// is deleted.
#[tokio::test]
async fn a_local_quote_names_the_quoted_post_and_its_authorization() {
    let w = World::new().await;
    let bob = account(&w.app, "bob").await;
    let original = w.alice_posts("quote me", "public").await;
    let quoting = w.quote(&bob, &original, "quoting alice").await;
    let q = w.quote_of(quoting.id).await.expect("quote recorded");
    let doc = w.note_doc(quoting.id).await;
    let quoted_uri = w.uri(&original);
    for key in ["quote", "quoteUri", "_misskey_quote"] {
        assert_eq!(doc[key], quoted_uri.as_str(), "{key}");
    }
    assert_eq!(
        doc["quoteAuthorization"],
        format!("{}/quote_authorizations/{}", w.actor(&w.alice), q.id)
    );
    w.app.statuses().delete_status(&original).await.unwrap();
    let doc = w.note_doc(quoting.id).await;
    assert_eq!(doc["quote"], quoted_uri.as_str(), "the deleted post's URI");
}

/// Points 3 and 4: alice quotes rob's post: pending, her `Create` carries `quote` without an
/// authorization and a `QuoteRequest` goes to rob; his `Accept` (object by id) approves it,
/// and her note goes again (an `Update` with a new id) with the authorization.
#[tokio::test]
async fn quoting_a_remote_post_asks_its_author_and_an_accept_approves_it() {
    let w = World::new().await;
    let (_, robs) = w.rob_post(1).await;
    let mine = w.quote(&w.alice, &robs, "look at this").await;
    w.run_jobs().await;
    let q = w.quote_of(mine.id).await.expect("quote");
    assert_eq!(q.state, crate::store::QuoteState::Pending);
    let creates = w.take("Create");
    assert_eq!(creates.len(), 1);
    let created = &creates[0].1["object"];
    assert_eq!(created["quote"], format!("{ROB}/statuses/1"));
    assert!(created.get("quoteAuthorization").is_none(), "{created}");
    let mut requests = w.take("QuoteRequest");
    assert_eq!(requests.len(), 1);
    let (inbox, request) = requests.remove(0);
    assert_eq!(inbox, format!("{ROB}/inbox"));
    let request_id = request["id"].as_str().expect("id").to_string();
    assert!(
        request_id.starts_with("https://fedblog.test/"),
        "{request_id}"
    );
    assert_eq!(request["actor"], w.actor(&w.alice));
    assert_eq!(request["object"], format!("{ROB}/statuses/1"));
    assert_eq!(request["instrument"]["id"], w.uri(&mine));
    assert_eq!(request["instrument"]["quote"], format!("{ROB}/statuses/1"));
    assert_eq!(q.activity_uri.as_deref(), Some(request_id.as_str()));
    assert_eq!(w.shown(&mine).await["quote"]["state"], "pending");

    // eve (not the quoted author) may not accept it.
    let authorization = format!("{ROB}/quote_authorizations/7");
    let forged = json!({"id": format!("{EVE}#accepts/1"), "type": "Accept", "actor": EVE,
        "object": request_id, "result": format!("{EVE}/quote_authorizations/7")});
    assert_eq!(w.deliver(&forged).await, 403);
    assert_eq!(
        w.quote_of(mine.id).await.unwrap().state,
        crate::store::QuoteState::Pending
    );

    let accept = json!({"id": format!("{ROB}#accepts/1"), "type": "Accept", "actor": ROB,
        "object": request_id, "result": authorization});
    assert_eq!(w.deliver(&accept).await, 202);
    let q = w.quote_of(mine.id).await.unwrap();
    assert_eq!(q.state, crate::store::QuoteState::Accepted);
    assert_eq!(q.approval_uri.as_deref(), Some(authorization.as_str()));
    let shown = w.shown(&mine).await;
    assert_eq!(shown["quote"]["state"], "accepted");
    assert_eq!(shown["quote"]["quoted_status"]["id"], robs.id.to_string());
    w.run_jobs().await;
    let updates = w.take("Update");
    assert_eq!(updates.len(), 1, "the note goes again");
    let (inbox, update) = &updates[0];
    assert_eq!(inbox, &format!("{ROB}/inbox"), "to the Create's audience");
    assert_eq!(update["object"]["quoteAuthorization"], authorization);
    assert_ne!(update["id"], creates[0].1["id"]);
    assert!(update["id"].as_str().unwrap().starts_with(&w.uri(&mine)));
}

/// Point 4: an `Accept` whose object embeds the request; a `Reject` of a pending quote
/// rejects it, of an accepted one revokes it.
#[tokio::test]
async fn answers_name_the_request_embedded_and_a_reject_refuses_or_revokes() {
    let w = World::new().await;
    let (mine, request) = w.alice_quotes_rob(1).await;
    let reject = json!({"id": format!("{ROB}#rejects/1"), "type": "Reject", "actor": ROB,
        "object": request["id"]});
    assert_eq!(w.deliver(&reject).await, 202);
    assert_eq!(
        w.quote_of(mine.id).await.unwrap().state,
        crate::store::QuoteState::Rejected
    );
    assert_eq!(w.shown(&mine).await["quote"]["state"], "rejected");

    let (mine, request) = w.alice_quotes_rob(2).await;
    let embedded = json!({"id": request["id"], "type": "QuoteRequest", "actor": request["actor"],
        "object": request["object"], "instrument": request["instrument"]["id"]});
    let accept = json!({"id": format!("{ROB}#accepts/2"), "type": "Accept", "actor": ROB,
        "object": embedded, "result": format!("{ROB}/quote_authorizations/2")});
    assert_eq!(w.deliver(&accept).await, 202);
    assert_eq!(
        w.quote_of(mine.id).await.unwrap().state,
        crate::store::QuoteState::Accepted
    );
    let reject = json!({"id": format!("{ROB}#rejects/2"), "type": "Reject", "actor": ROB,
        "object": embedded});
    assert_eq!(w.deliver(&reject).await, 202);
    assert_eq!(
        w.quote_of(mine.id).await.unwrap().state,
        crate::store::QuoteState::Revoked
    );
    assert_eq!(w.shown(&mine).await["quote"]["state"], "revoked");
    // A follow's answers still work: rob's follow of alice is untouched.
    assert!(w.app.store.follows(w.rob.id, w.alice.id).await.unwrap());
}

/// Point 5: the quoted author's `Delete` of the authorization revokes the quote; anyone
/// else's is refused.
#[tokio::test]
async fn deleting_the_authorization_revokes_the_quote() {
    let w = World::new().await;
    let (mine, request) = w.alice_quotes_rob(1).await;
    let authorization = format!("{ROB}/quote_authorizations/1");
    let accept = json!({"id": format!("{ROB}#accepts/1"), "type": "Accept", "actor": ROB,
        "object": request["id"], "result": authorization});
    assert_eq!(w.deliver(&accept).await, 202);
    let forged = json!({"id": format!("{EVE}#delete/1"), "type": "Delete", "actor": EVE,
        "object": authorization});
    assert_eq!(w.deliver(&forged).await, 403);
    assert_eq!(
        w.quote_of(mine.id).await.unwrap().state,
        crate::store::QuoteState::Accepted
    );
    let delete = json!({"id": format!("{authorization}#delete"), "type": "Delete", "actor": ROB,
        "object": authorization});
    assert_eq!(w.deliver(&delete).await, 202);
    assert_eq!(
        w.quote_of(mine.id).await.unwrap().state,
        crate::store::QuoteState::Revoked
    );
    assert_eq!(w.shown(&mine).await["quote"]["state"], "revoked");
}

/// A `QuoteRequest` by rob for `quoted` (alice's), its instrument note `n` embedded.
fn quote_request(w: &World, quoted: &StatusRecord, n: u32) -> Value {
    let instrument = note(
        &format!("{ROB}/statuses/q{n}"),
        ROB,
        "rob quotes alice",
        json!({"quote": w.uri(quoted)}),
    );
    json!({"id": format!("{ROB}/quote_requests/{n}"), "type": "QuoteRequest", "actor": ROB,
        "object": w.uri(quoted), "instrument": instrument})
}

/// Point 6: rob asks to quote alice's public post: his note is stored, the quote accepted,
/// an `Accept` with our authorization goes back, and the authorization is served.
#[tokio::test]
async fn a_quote_request_of_a_public_post_is_accepted() {
    let w = World::new().await;
    let original = w.alice_posts("quote me", "public").await;
    let request = quote_request(&w, &original, 1);
    assert_eq!(w.deliver(&request).await, 202);
    let quoting = w
        .app
        .store
        .status_by_uri(&format!("{ROB}/statuses/q1"))
        .await
        .unwrap()
        .expect("rob's note stored");
    assert_eq!(quoting.account_id, w.rob.id);
    let q = w.quote_of(quoting.id).await.expect("quote recorded");
    assert_eq!(q.state, crate::store::QuoteState::Accepted);
    assert_eq!(q.quoted_status_id, Some(original.id));
    assert_eq!(q.activity_uri.as_deref(), request["id"].as_str());
    w.run_jobs().await;
    let accepts = w.take("Accept");
    assert_eq!(accepts.len(), 1);
    let (inbox, accept) = &accepts[0];
    assert_eq!(inbox, &format!("{ROB}/inbox"));
    assert_eq!(accept["actor"], w.actor(&w.alice));
    assert_eq!(accept["object"], request["id"]);
    let authorization = format!("{}/quote_authorizations/{}", w.actor(&w.alice), q.id);
    assert_eq!(accept["result"], authorization);
    let (served, status) = w
        .app
        .quotes()
        .authorization(&w.alice, q.id, None)
        .await
        .unwrap();
    assert_eq!((served.id, status.id), (q.id, quoting.id));
    let counted = w.shown(&original).await;
    assert_eq!(counted["quotes_count"], 1);
    // alice is told, about rob's status, from rob.
    let page = crate::pagination::Page::first(40);
    let query = crate::store::NotificationQuery::default();
    let told = w.app.store.notifications_page(w.alice.id, &query, page);
    let quotes: Vec<_> = told
        .await
        .unwrap()
        .into_iter()
        .filter(|n| n.kind == crate::store::NotificationType::Quote)
        .map(|n| (n.from_account_id, n.status_id))
        .collect();
    assert_eq!(quotes, vec![(w.rob.id, Some(quoting.id))]);
    // The Create of the same note, after: still one quote, still accepted.
    let create = json!({"id": format!("{ROB}/statuses/q1/activity"), "type": "Create",
        "actor": ROB, "object": request["instrument"]});
    assert_eq!(w.deliver(&create).await, 202);
    let again = w.quote_of(quoting.id).await.unwrap();
    assert_eq!(
        (again.id, again.state),
        (q.id, crate::store::QuoteState::Accepted)
    );
}

/// Point 6: requests that the policy does not approve, of a private post, from a blocked
/// account, are rejected (`Reject` of the request), and `followers` approves a follower.
#[tokio::test]
async fn quote_requests_the_policy_refuses_are_rejected() {
    let w = World::new().await;
    let nobody = w.alice_posts("not quotable", "nobody").await;
    let request = quote_request(&w, &nobody, 1);
    assert_eq!(w.deliver(&request).await, 202);
    w.run_jobs().await;
    let rejects = w.take("Reject");
    assert_eq!(rejects.len(), 1);
    assert_eq!(rejects[0].0, format!("{ROB}/inbox"));
    assert_eq!(rejects[0].1["object"], request["id"]);
    assert_eq!(rejects[0].1["actor"], w.actor(&w.alice));
    assert!(w.take("Accept").is_empty());
    let quoting = w
        .app
        .store
        .status_by_uri(&format!("{ROB}/statuses/q1"))
        .await
        .unwrap();
    let q = w
        .quote_of(quoting.expect("stored").id)
        .await
        .expect("recorded");
    assert_eq!(q.state, crate::store::QuoteState::Rejected);

    // followers: rob follows alice, so his quote is approved.
    let followers = w.alice_posts("for followers", "followers").await;
    assert_eq!(w.deliver(&quote_request(&w, &followers, 2)).await, 202);
    w.run_jobs().await;
    assert_eq!(w.take("Accept").len(), 1, "a follower's quote is approved");

    // A private post is never quotable by others.
    let private = crate::test_support::private_post(&w.app, &w.alice, "private").await;
    assert_eq!(w.deliver(&quote_request(&w, &private, 3)).await, 202);
    w.run_jobs().await;
    assert_eq!(w.take("Reject").len(), 1, "a private post");

    // alice blocks rob: refused, and his note is not even stored.
    let public = w.alice_posts("public", "public").await;
    w.app.blocks().block(&w.alice, w.rob.id).await.unwrap();
    w.run_jobs().await;
    w.remotes.received.lock().unwrap().clear();
    assert_eq!(w.deliver(&quote_request(&w, &public, 4)).await, 202);
    w.run_jobs().await;
    assert_eq!(w.take("Reject").len(), 1, "a blocked account");
    assert!(
        w.app
            .store
            .status_by_uri(&format!("{ROB}/statuses/q4"))
            .await
            .unwrap()
            .is_none()
    );
}

/// Point 6 (security): an embedded instrument attributed to someone else than the signer is
/// not trusted: the note is fetched from its id.
#[tokio::test]
async fn an_instrument_not_the_signers_own_is_fetched() {
    let w = World::new().await;
    let original = w.alice_posts("quote me", "public").await;
    let id = format!("{ROB}/statuses/q9");
    let mut request = quote_request(&w, &original, 9);
    request["instrument"]["attributedTo"] = EVE.into();
    request["instrument"]["content"] = "<p>forged</p>".into();
    w.serve(note(&id, ROB, "served", json!({"quote": w.uri(&original)})));
    assert_eq!(w.deliver(&request).await, 202);
    let stored = w
        .app
        .store
        .status_by_uri(&id)
        .await
        .unwrap()
        .expect("fetched");
    assert!(stored.content.contains("served"), "{}", stored.content);
    assert_eq!(stored.account_id, w.rob.id);
    assert_eq!(
        w.quote_of(stored.id).await.unwrap().state,
        crate::store::QuoteState::Accepted
    );
}

/// olga's post on `other.test`, served and stored here.
async fn olga_post(w: &World) -> StatusRecord {
    let id = format!("{OLGA}/statuses/1");
    w.serve(note(&id, OLGA, "olga's post", json!({})));
    let s = w.app.fetch_remote_note(
        &id,
        super::federation_runner::ThreadReach::Fetched { depth: 0 },
    );
    s.await.unwrap().expect("olga's post")
}

/// Point 7: a remote note's quote of a remote post: accepted when its authorization (fetched)
/// approves it, rejected when that is gone, pending when it does not match or is missing, and
/// a self-quote is accepted; `_misskey_quote` is read too; an `Update` may bring the
/// authorization.
#[tokio::test]
async fn a_remote_quote_is_verified_by_its_authorization() {
    let w = World::new().await;
    let olgas = olga_post(&w).await;
    let quoted = format!("{OLGA}/statuses/1");
    let authorization = |n: u32, object: &str| {
        json!({"id": format!("{OLGA}/quote_authorizations/{n}"), "type": "QuoteAuthorization",
            "attributedTo": OLGA, "interactingObject": object, "interactionTarget": quoted})
    };
    let create = |n: u32, extra: Value| {
        let id = format!("{ROB}/statuses/{n}");
        json!({"id": format!("{id}/activity"), "type": "Create", "actor": ROB,
            "object": note(&id, ROB, "quoting olga", extra)})
    };
    let state = |n: u32| {
        let w = &w;
        async move {
            let s = w
                .app
                .store
                .status_by_uri(&format!("{ROB}/statuses/{n}"))
                .await
                .unwrap();
            w.quote_of(s.expect("stored").id).await.map(|q| q.state)
        }
    };
    use crate::store::QuoteState::*;
    // 1: a valid authorization.
    w.serve(authorization(1, &format!("{ROB}/statuses/1")));
    let auth1 = format!("{OLGA}/quote_authorizations/1");
    let c = create(1, json!({"quote": quoted, "quoteAuthorization": auth1}));
    assert_eq!(w.deliver(&c).await, 202);
    assert_eq!(state(1).await, Some(Accepted));
    let s1 = w
        .app
        .store
        .status_by_uri(&format!("{ROB}/statuses/1"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        w.quote_of(s1.id).await.unwrap().quoted_status_id,
        Some(olgas.id)
    );
    assert_eq!(
        w.quote_of(s1.id).await.unwrap().approval_uri.as_deref(),
        Some(auth1.as_str())
    );
    // 2: gone.
    let c = create(
        2,
        json!({"quote": quoted, "quoteAuthorization": format!("{OLGA}/quote_authorizations/2")}),
    );
    assert_eq!(w.deliver(&c).await, 202);
    assert_eq!(state(2).await, Some(Rejected));
    // 3: approving another note.
    w.serve(authorization(3, &format!("{ROB}/statuses/999")));
    let c = create(
        3,
        json!({"_misskey_quote": quoted, "quoteAuthorization": format!("{OLGA}/quote_authorizations/3")}),
    );
    assert_eq!(w.deliver(&c).await, 202);
    assert_eq!(state(3).await, Some(Pending));
    // 4: none, then an Update brings it.
    let c = create(4, json!({"quoteUri": quoted}));
    assert_eq!(w.deliver(&c).await, 202);
    assert_eq!(state(4).await, Some(Pending));
    w.serve(authorization(4, &format!("{ROB}/statuses/4")));
    let id = format!("{ROB}/statuses/4");
    let update = json!({"id": format!("{id}#updates/1"), "type": "Update", "actor": ROB,
        "object": note(&id, ROB, "quoting olga", json!({"quote": quoted,
            "quoteAuthorization": format!("{OLGA}/quote_authorizations/4")}))});
    assert_eq!(w.deliver(&update).await, 202);
    assert_eq!(state(4).await, Some(Accepted));
    let s4 = w.app.store.status_by_uri(&id).await.unwrap().unwrap();
    assert!(
        w.app.store.status_edits(s4.id).await.unwrap().is_empty(),
        "not an edit"
    );
    // 5: rob quoting himself.
    let (_, robs) = w.rob_post(50).await;
    let c = create(5, json!({"quote": w.uri(&robs)}));
    assert_eq!(w.deliver(&c).await, 202);
    assert_eq!(state(5).await, Some(Accepted));
}

/// Point 7: a remote note quoting a local post without a request stays pending; the
/// request then accepts the same quote (one record).
#[tokio::test]
async fn a_create_quoting_a_local_post_waits_for_the_request() {
    let w = World::new().await;
    let original = w.alice_posts("quote me", "public").await;
    let request = quote_request(&w, &original, 1);
    let create = json!({"id": format!("{ROB}/statuses/q1/activity"), "type": "Create",
        "actor": ROB, "object": request["instrument"]});
    assert_eq!(w.deliver(&create).await, 202);
    let quoting = w
        .app
        .store
        .status_by_uri(&format!("{ROB}/statuses/q1"))
        .await
        .unwrap();
    let quoting = quoting.expect("stored");
    let first = w.quote_of(quoting.id).await.expect("recorded");
    assert_eq!(first.state, crate::store::QuoteState::Pending);
    assert_eq!(w.deliver(&request).await, 202);
    let after = w.quote_of(quoting.id).await.unwrap();
    assert_eq!(
        (after.id, after.state),
        (first.id, crate::store::QuoteState::Accepted)
    );
}

/// Point 8: alice revokes rob's accepted quote: a `Delete` of the authorization goes to rob,
/// and the authorization is no longer served.
#[tokio::test]
async fn revoking_a_remote_quote_deletes_its_authorization() {
    let w = World::new().await;
    let original = w.alice_posts("quote me", "public").await;
    assert_eq!(w.deliver(&quote_request(&w, &original, 1)).await, 202);
    w.run_jobs().await;
    w.remotes.received.lock().unwrap().clear();
    let quoting = w
        .app
        .store
        .status_by_uri(&format!("{ROB}/statuses/q1"))
        .await
        .unwrap()
        .unwrap();
    let q = w.quote_of(quoting.id).await.unwrap();
    w.app
        .quotes()
        .revoke(&w.alice, original.id, quoting.id)
        .await
        .unwrap();
    w.run_jobs().await;
    let deletes = w.take("Delete");
    assert_eq!(deletes.len(), 1);
    let (inbox, delete) = &deletes[0];
    assert_eq!(inbox, &format!("{ROB}/inbox"));
    assert_eq!(delete["actor"], w.actor(&w.alice));
    let authorization = format!("{}/quote_authorizations/{}", w.actor(&w.alice), q.id);
    assert_eq!(delete["object"], authorization);
    let gone = w.app.quotes().authorization(&w.alice, q.id, None).await;
    assert_eq!(
        gone.err().map(|e| e.status),
        Some(http::StatusCode::NOT_FOUND)
    );
}

/// Point 9: a new quote policy sends the note again (an `Update` with a new id each time) to
/// its audience, with the new `interactionPolicy`.
#[tokio::test]
async fn a_new_quote_policy_updates_the_note() {
    let w = World::new().await;
    let s = w.alice_posts("policed", "public").await;
    w.run_jobs().await;
    w.remotes.received.lock().unwrap().clear();
    let mut ids = vec![];
    for (policy, expected) in [
        ("nobody", w.actor(&w.alice)),
        ("public", PUBLIC.to_string()),
    ] {
        w.app
            .quotes()
            .set_policy(&w.alice, s.id, Some(policy))
            .await
            .unwrap();
        w.run_jobs().await;
        let updates = w.take("Update");
        assert_eq!(updates.len(), 1, "{policy}");
        let (inbox, update) = &updates[0];
        assert_eq!(inbox, &format!("{ROB}/inbox"), "{policy}");
        assert_eq!(
            update["object"]["interactionPolicy"]["canQuote"]["automaticApproval"],
            json!([expected]),
            "{policy}"
        );
        ids.push(update["id"].clone());
    }
    assert_ne!(ids[0], ids[1], "each Update is new");
}

/// A remote post's quote policy comes from its note's `interactionPolicy`: without one it
/// may not be quoted (as Mastodon 4.5 has it); with the author's followers collection, a
/// local follower may.
#[tokio::test]
async fn a_remote_posts_quote_policy_comes_from_its_note() {
    let w = World::new().await;
    let quotes = w.app.quotes();
    for (n, extra) in [
        (1, json!({})),
        (
            2,
            json!({"interactionPolicy": {"canQuote": {"automaticApproval": [format!("{ROB}/followers")]}}}),
        ),
    ] {
        let id = format!("{ROB}/statuses/{n}");
        let create = json!({"id": format!("{id}/activity"), "type": "Create", "actor": ROB,
            "object": note(&id, ROB, "rob's post", extra)});
        assert_eq!(w.deliver(&create).await, 202);
        let s = w
            .app
            .store
            .status_by_uri(&id)
            .await
            .unwrap()
            .expect("stored");
        let raw = s.id.to_string();
        let asked = quotes.prepare(&w.alice, Some(&raw), None, None, &[]);
        let refused = asked.await.err().map(|e| e.status);
        assert_eq!(
            refused,
            Some(http::StatusCode::NOT_FOUND),
            "{n}: not quotable"
        );
    }
    // alice follows rob: the followers' policy now lets her quote his second post.
    let followed = crate::services::relationships::FollowOptions::default();
    w.app
        .relationships()
        .follow(&w.alice, w.rob.id, followed)
        .await
        .unwrap();
    w.run_jobs().await;
    let follow = w.take("Follow").pop().expect("a Follow sent").1;
    let accept = json!({"id": format!("{ROB}#accepts/f"), "type": "Accept", "actor": ROB,
        "object": follow});
    assert_eq!(w.deliver(&accept).await, 202);
    let second = w
        .app
        .store
        .status_by_uri(&format!("{ROB}/statuses/2"))
        .await
        .unwrap()
        .unwrap();
    let raw = second.id.to_string();
    let asked = quotes.prepare(&w.alice, Some(&raw), None, None, &[]);
    assert!(asked.await.is_ok(), "a follower may quote");
}

/// Point 6 (security): a request from an account we suspended is rejected, and its note is
/// not stored.
#[tokio::test]
async fn a_suspended_accounts_quote_request_is_rejected() {
    let w = World::new().await;
    let original = w.alice_posts("quote me", "public").await;
    let mut rob = w.rob.clone();
    rob.suspended_at = Some(w.app.now());
    rob.suspension_origin = Some(crate::store::SuspensionOrigin::Local);
    w.app.store.update_account(&rob).await.unwrap();
    let request = quote_request(&w, &original, 1);
    assert_eq!(w.deliver(&request).await, 202);
    w.run_jobs().await;
    let rejects = w.take("Reject");
    assert_eq!(rejects.len(), 1, "a Reject goes back");
    assert_eq!(rejects[0].1["object"], request["id"]);
    assert!(w.take("Accept").is_empty());
    let uri = format!("{ROB}/statuses/q1");
    assert!(w.app.store.status_by_uri(&uri).await.unwrap().is_none());
}
