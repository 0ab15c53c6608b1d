//! Conversation contexts (`/contexts/:id`, `/contexts/:id/items`), the `context` our notes
//! name, the embed page (`/@username/:id/embed`) and the oEmbed iframe that frames it, asked
//! through an in-process network as other servers and browsers ask them.

use std::sync::Arc;

use chrono::Utc;
use serde_json::Value;

use crate::api::Endpoint;
use crate::api::activitypub::{
    context::ContextCollection,
    context_items::ContextItems,
    note::NoteDocument,
    status_embed::{EmbedPage, StatusEmbed},
};
use crate::api::in_process::InProcessNetwork;
use crate::api::oembed::get_oembed::GetOEmbed;
use crate::app::App;
use crate::endpoint::IntoReply;
use crate::federation::keys::PrivateKey;
use crate::federation::signatures::sign_request;
use crate::federation::vocab::ACTIVITY_JSON;
use crate::federation::{OutboundRequest, Transport, paths};
use crate::id::Id;
use crate::services::federation_runner::CONTEXT_PAGE;
use crate::services::statuses::NewStatus;
use crate::store::{AccountRecord, StatusRecord};
use crate::test_support::{account, app, post, post_new};

/// Apps on `a.test` (authorized fetch as given) and `b.test` that reach each other, and the
/// network's transport.
fn pair(a_secure: bool) -> (Arc<App>, Arc<App>, Arc<dyn Transport>) {
    let net = InProcessNetwork::new();
    let mut a = app("a.test").with_transport(net.transport());
    a.config.authorized_fetch = a_secure;
    let b = app("b.test").with_transport(net.transport());
    let (a, b) = (Arc::new(a), Arc::new(b));
    net.join(&a);
    net.join(&b);
    (a, b, net.transport())
}

/// One app on `a.test` and the network's transport.
fn single() -> (Arc<App>, Arc<dyn Transport>) {
    let (a, _, net) = pair(false);
    (a, net)
}

/// An answer: status, media type and body (JSON, or the text as a string).
struct Answer {
    status: u16,
    content_type: Option<String>,
    body: Value,
}

/// A GET of `url` accepting `accept`, signed with the key of `signer`'s account when given.
async fn get(
    net: &Arc<dyn Transport>,
    url: &str,
    accept: &str,
    signer: Option<(&App, Id)>,
) -> Answer {
    let mut headers = match signer {
        Some((app, owner)) => signed(app, owner, url).await,
        None => vec![],
    };
    headers.push(("Accept".into(), accept.into()));
    let answer = net
        .send(OutboundRequest {
            method: http::Method::GET,
            url: url.to_string(),
            headers,
            body: None,
        })
        .await
        .expect("an answer");
    let text = String::from_utf8_lossy(&answer.body).to_string();
    Answer {
        status: answer.status,
        content_type: answer.content_type,
        body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
    }
}

/// The headers signing a GET of `url` with the key of the local account `owner` of `app`.
async fn signed(app: &App, owner: Id, url: &str) -> Vec<(String, String)> {
    let key = app.federation().local_key(owner).await.expect("a key");
    let private = PrivateKey::from_pem(&key.private_key_pem).expect("a private key");
    let account = app
        .store
        .account_by_id(owner)
        .await
        .unwrap()
        .expect("the signer");
    let actor = paths::actor(&app.config.base_url(), &account.username);
    sign_request(
        "GET",
        url,
        None,
        &paths::key_id(&actor),
        &private,
        Utc::now(),
    )
    .expect("signed")
}

/// `base` + `path` with `:name` segments filled in.
fn url(app: &App, path: &str, params: &[(&str, &str)]) -> String {
    let filled: Vec<String> = path
        .split('/')
        .map(|segment| match segment.split_once(':') {
            Some((prefix, name)) => {
                let value = params
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| *v)
                    .expect("a value for every parameter");
                format!("{prefix}{value}")
            }
            None => segment.to_string(),
        })
        .collect();
    format!("{}{}", app.config.base_url(), filled.join("/"))
}

/// A reply by `author` to `parent`, of `visibility`.
async fn reply(
    app: &App,
    author: &AccountRecord,
    parent: &StatusRecord,
    visibility: &str,
) -> StatusRecord {
    post_new(
        app,
        author,
        NewStatus {
            text: format!("a {visibility} reply"),
            visibility: Some(visibility.into()),
            in_reply_to_id: Some(parent.id),
            ..Default::default()
        },
    )
    .await
}

/// The ActivityPub id of a local status.
fn uri(app: &App, author: &AccountRecord, s: &StatusRecord) -> Value {
    paths::status(&app.config.base_url(), &author.username, s.id).into()
}

/// The context id of the thread `first` begins.
fn context_id(first: &StatusRecord) -> String {
    format!("{}-{}", first.account_id, first.id)
}

/// The items of a collection's page (the page itself, or a collection's embedded `first`).
fn items(doc: &Value) -> Vec<Value> {
    let page = if doc["type"] == "Collection" {
        &doc["first"]
    } else {
        doc
    };
    page["items"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn a_context_lists_the_public_and_unlisted_statuses_of_a_local_thread() {
    let (a, net) = single();
    let alice = account(&a, "alice").await;
    let bob = account(&a, "bob").await;
    let first = post(&a, &alice, "a thread", None).await;
    let open = reply(&a, &bob, &first, "unlisted").await;
    let hidden = reply(&a, &bob, &first, "private").await;
    let _direct = reply(&a, &alice, &open, "direct").await;
    let deeper = reply(&a, &alice, &open, "public").await;
    let _reply_to_hidden = reply(&a, &bob, &hidden, "private").await;
    let _elsewhere = post(&a, &bob, "another thread", None).await;
    let _reblog = a
        .statuses()
        .reblog(&bob, None, first.id, None)
        .await
        .expect("reblogged");

    let id = context_id(&first);
    let context = url(&a, ContextCollection::PATH, &[("id", &id)]);
    let answer = get(&net, &context, ACTIVITY_JSON, None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(
        answer
            .content_type
            .as_deref()
            .is_some_and(|t| t.starts_with("application/activity+json")),
        "{:?}",
        answer.content_type
    );
    let doc = answer.body;
    assert_eq!(doc["@context"], "https://www.w3.org/ns/activitystreams");
    assert_eq!(doc["type"], "Collection");
    assert_eq!(doc["id"], context.as_str());
    assert_eq!(
        doc["attributedTo"],
        paths::actor(&a.config.base_url(), "alice")
    );
    assert_eq!(doc["first"]["type"], "CollectionPage");
    assert_eq!(doc["first"]["partOf"], context.as_str());
    assert!(doc["first"].get("next").is_none(), "{doc}");
    let expected = vec![
        uri(&a, &alice, &first),
        uri(&a, &bob, &open),
        uri(&a, &alice, &deeper),
    ];
    assert_eq!(items(&doc), expected);

    // The items collection embeds the same first page; `?page=true` is that page alone.
    let items_url = url(&a, ContextItems::PATH, &[("id", &id)]);
    let collection = get(&net, &items_url, ACTIVITY_JSON, None).await.body;
    assert_eq!(collection["type"], "Collection");
    assert_eq!(collection["id"], items_url.as_str());
    assert_eq!(
        collection["first"]["id"],
        format!("{items_url}?page=true").as_str()
    );
    assert_eq!(items(&collection), expected);
    let page = get(&net, &format!("{items_url}?page=true"), ACTIVITY_JSON, None)
        .await
        .body;
    assert_eq!(page["type"], "CollectionPage");
    assert_eq!(page["partOf"], items_url.as_str());
    assert_eq!(items(&page), expected);
    let after = format!("{items_url}?page=true&min_id={}", open.id);
    let later = get(&net, &after, ACTIVITY_JSON, None).await.body;
    assert_eq!(items(&later), vec![uri(&a, &alice, &deeper)]);
    assert_eq!(later["id"], after.as_str());
}

#[tokio::test]
async fn notes_name_their_threads_context_and_replies_join_it_back() {
    let (a, net) = single();
    let alice = account(&a, "alice").await;
    let bob = account(&a, "bob").await;
    let first = post(&a, &alice, "a thread", None).await;
    let answer = reply(&a, &bob, &first, "public").await;
    let context = paths::context(&a.config.base_url(), alice.id, first.id);
    for (author, s) in [(&alice, &first), (&bob, &answer)] {
        let note = url(
            &a,
            NoteDocument::PATH,
            &[("username", &author.username), ("id", &s.id.to_string())],
        );
        let doc = get(&net, &note, ACTIVITY_JSON, None).await.body;
        assert_eq!(doc["context"], context.as_str(), "{doc}");
        assert_eq!(
            doc["conversation"],
            paths::conversation("a.test", first.id).as_str(),
            "{doc}"
        );
        assert_eq!(
            get(&net, doc["context"].as_str().unwrap(), ACTIVITY_JSON, None)
                .await
                .status,
            200
        );
    }
    // Other servers send the context back on their replies: it names our thread.
    assert_eq!(
        paths::parse_conversation("a.test", &context),
        Some(first.id)
    );
}

#[tokio::test]
async fn a_context_is_paged_by_sixty_oldest_first() {
    let (a, net) = single();
    let alice = account(&a, "alice").await;
    let first = post(&a, &alice, "a long thread", None).await;
    let mut all = vec![first.clone()];
    let mut parent = first.clone();
    for _ in 0..CONTEXT_PAGE {
        parent = reply(&a, &alice, &parent, "public").await;
        all.push(parent.clone());
    }
    let id = context_id(&first);
    let items_url = url(&a, ContextItems::PATH, &[("id", &id)]);
    let context = url(&a, ContextCollection::PATH, &[("id", &id)]);
    let doc = get(&net, &context, ACTIVITY_JSON, None).await.body;
    let next = format!("{items_url}?page=true&min_id={}", all[CONTEXT_PAGE - 1].id);
    assert_eq!(doc["first"]["next"], next.as_str());
    let page_one: Vec<Value> = all[..CONTEXT_PAGE]
        .iter()
        .map(|s| uri(&a, &alice, s))
        .collect();
    assert_eq!(items(&doc), page_one);
    let page_two = get(&net, &next, ACTIVITY_JSON, None).await.body;
    assert_eq!(items(&page_two), vec![uri(&a, &alice, &all[CONTEXT_PAGE])]);
    assert!(page_two.get("next").is_none(), "{page_two}");
}

#[tokio::test]
async fn contexts_that_are_not_here_are_404s() {
    let (a, net) = single();
    let alice = account(&a, "alice").await;
    let bob = account(&a, "bob").await;
    let first = post(&a, &alice, "a thread", None).await;
    let answer = reply(&a, &bob, &first, "public").await;
    let missing = Id(first.id.0 + 1_000_000);
    let ids = [
        "x".to_string(),
        first.id.to_string(),
        format!("{}-x", alice.id),
        // The thread is alice's, not bob's.
        format!("{}-{}", bob.id, first.id),
        // A reply begins no thread.
        format!("{}-{}", bob.id, answer.id),
        format!("{}-{missing}", alice.id),
        format!("{missing}-{}", first.id),
    ];
    for id in ids {
        for path in [ContextCollection::PATH, ContextItems::PATH] {
            let u = url(&a, path, &[("id", &id)]);
            assert_eq!(get(&net, &u, ACTIVITY_JSON, None).await.status, 404, "{u}");
        }
    }

    // A suspended account's statuses are left out; a thread it began is not served.
    let context = url(&a, ContextCollection::PATH, &[("id", &context_id(&first))]);
    let mut suspended = bob.clone();
    suspended.suspended_at = Some(Utc::now());
    a.store.update_account(&suspended).await.expect("suspended");
    let doc = get(&net, &context, ACTIVITY_JSON, None).await.body;
    assert_eq!(items(&doc), vec![uri(&a, &alice, &first)]);
    let mut suspended = alice.clone();
    suspended.suspended_at = Some(Utc::now());
    a.store.update_account(&suspended).await.expect("suspended");
    assert_eq!(get(&net, &context, ACTIVITY_JSON, None).await.status, 404);
}

#[tokio::test]
async fn under_authorized_fetch_a_context_needs_a_signer_nobody_in_it_blocks() {
    let (a, b, net) = pair(true);
    let alice = account(&a, "alice").await;
    let dave = account(&a, "dave").await;
    let bob = account(&b, "bob").await;
    let carol = account(&b, "carol").await;
    let first = post(&a, &alice, "a thread", None).await;
    let answer = reply(&a, &dave, &first, "public").await;
    let context = url(&a, ContextCollection::PATH, &[("id", &context_id(&first))]);
    let items_url = url(&a, ContextItems::PATH, &[("id", &context_id(&first))]);
    let bob_at_a = a
        .federation()
        .resolve_handle("bob", "b.test")
        .await
        .expect("bob known at a");

    for u in [&context, &items_url] {
        assert_eq!(get(&net, u, ACTIVITY_JSON, None).await.status, 401, "{u}");
        let signed = get(&net, u, ACTIVITY_JSON, Some((&b, bob.id))).await;
        assert_eq!(signed.status, 200, "{u}: {}", signed.body);
        assert_eq!(
            items(&signed.body),
            vec![uri(&a, &alice, &first), uri(&a, &dave, &answer)]
        );
    }
    // An unsigned request learns nothing of which threads exist.
    let nowhere = url(&a, ContextCollection::PATH, &[("id", "1-2")]);
    assert_eq!(get(&net, &nowhere, ACTIVITY_JSON, None).await.status, 404);
    let unknown = url(
        &a,
        ContextCollection::PATH,
        &[("id", &format!("{}-{}", alice.id, first.id.0 + 1_000_000))],
    );
    assert_eq!(get(&net, &unknown, ACTIVITY_JSON, None).await.status, 401);

    // dave blocks b.test: his reply is left out for its signers.
    a.blocks()
        .block_domain(&dave, "b.test")
        .await
        .expect("domain block");
    let doc = get(&net, &context, ACTIVITY_JSON, Some((&b, carol.id)))
        .await
        .body;
    assert_eq!(items(&doc), vec![uri(&a, &alice, &first)]);
    // alice, who began the thread, blocks bob: the context is a 404 to him, not to carol.
    a.blocks().block(&alice, bob_at_a.id).await.expect("block");
    for u in [&context, &items_url] {
        assert_eq!(
            get(&net, u, ACTIVITY_JSON, Some((&b, bob.id))).await.status,
            404
        );
        assert_eq!(
            get(&net, u, ACTIVITY_JSON, Some((&b, carol.id)))
                .await
                .status,
            200
        );
    }
}

#[tokio::test]
async fn the_embed_page_of_a_public_status_may_be_framed() {
    let (a, net) = single();
    let alice = account(&a, "alice").await;
    let status = post_new(
        &a,
        &alice,
        NewStatus {
            text: "embed <me> & more".into(),
            spoiler_text: "<b>careful</b>".into(),
            visibility: Some("unlisted".into()),
            ..Default::default()
        },
    )
    .await;
    let embed = url(
        &a,
        StatusEmbed::PATH,
        &[("username", "alice"), ("id", &status.id.to_string())],
    );
    let answer = get(&net, &embed, "text/html", None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(
        answer
            .content_type
            .as_deref()
            .is_some_and(|t| t.starts_with("text/html")),
        "{:?}",
        answer.content_type
    );
    // Its headers let any site frame it (see `EmbedPage`).
    let reply = EmbedPage(String::new()).into_reply().expect("a reply");
    let header = |name: &str| {
        reply
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    assert_eq!(header("x-frame-options"), None);
    let policy = header("content-security-policy").unwrap_or_default();
    assert!(!policy.contains("frame-ancestors"), "{policy}");
    assert!(policy.contains("default-src 'none'"), "{policy}");
    assert!(!policy.contains("script-src"), "{policy}");
    assert_eq!(
        header("cache-control").as_deref(),
        Some("public, max-age=180")
    );
    let html = answer.body.as_str().expect("a page").to_string();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("@alice@a.test"), "{html}");
    assert!(html.contains(&status.content), "{html}");
    assert!(html.contains("&lt;b&gt;careful&lt;/b&gt;"), "{html}");
    assert!(!html.contains("<b>careful"), "{html}");
    assert!(!html.contains("<script"), "{html}");
    let link = format!("{}/@alice/{}", a.config.base_url(), status.id);
    assert!(html.contains(&format!("href=\"{link}\"")), "{html}");
    assert!(html.contains("<time datetime="), "{html}");
}

#[tokio::test]
async fn embeds_of_statuses_that_are_not_public_are_404s() {
    let (a, net) = single();
    let alice = account(&a, "alice").await;
    let bob = account(&a, "bob").await;
    let public = post(&a, &alice, "public", None).await;
    let private = reply(&a, &alice, &public, "private").await;
    let direct = reply(&a, &alice, &public, "direct").await;
    let reblog = a
        .statuses()
        .reblog(&bob, None, public.id, None)
        .await
        .expect("reblogged");
    let embed =
        |user: &str, id: String| url(&a, StatusEmbed::PATH, &[("username", user), ("id", &id)]);
    for u in [
        embed("alice", private.id.to_string()),
        embed("alice", direct.id.to_string()),
        embed("bob", reblog.id.to_string()),
        embed("bob", public.id.to_string()),
        embed("alice", "x".into()),
        embed("alice", (public.id.0 + 1_000_000).to_string()),
        embed("nobody", public.id.to_string()),
    ] {
        assert_eq!(get(&net, &u, "text/html", None).await.status, 404, "{u}");
    }
    // A suspended author's page is a 403, as the status's own page.
    let mut suspended = alice.clone();
    suspended.suspended_at = Some(Utc::now());
    a.store.update_account(&suspended).await.expect("suspended");
    let u = embed("alice", public.id.to_string());
    assert_eq!(get(&net, &u, "text/html", None).await.status, 403);
}

#[tokio::test]
async fn oembed_frames_the_embed_page() {
    let (a, net) = single();
    let alice = account(&a, "alice").await;
    let status = post(&a, &alice, "frame me", None).await;
    let link = format!("{}/@alice/{}", a.config.base_url(), status.id);
    let query = |extra: &str| {
        format!(
            "{}{}?url={}{extra}",
            a.config.base_url(),
            GetOEmbed::PATH,
            form_urlencoded::byte_serialize(link.as_bytes()).collect::<String>()
        )
    };
    let doc = get(&net, &query(""), "application/json", None).await.body;
    assert_eq!(doc["width"], 400);
    assert_eq!(doc["height"], Value::Null);
    let html = doc["html"].as_str().expect("html");
    assert!(html.starts_with("<iframe "), "{html}");
    assert!(html.contains(&format!("src=\"{link}/embed\"")), "{html}");
    assert!(html.contains("width=\"400\""), "{html}");
    assert!(!html.contains("height="), "{html}");
    let doc = get(
        &net,
        &query("&maxwidth=300&maxheight=200"),
        "application/json",
        None,
    )
    .await
    .body;
    assert_eq!(
        (doc["width"].clone(), doc["height"].clone()),
        (300.into(), 200.into())
    );
    let html = doc["html"].as_str().expect("html");
    assert!(html.contains("width=\"300\" height=\"200\""), "{html}");
}
