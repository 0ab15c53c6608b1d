//! Preview cards and trending links: statuses posted and edited on `local.test`, the pages
//! they link to served by a web played in process (its pages, oEmbed answers and images by
//! URL, an address it refuses as the outbound client refuses private ones, a bound on answers
//! as the client's), the fetch jobs run, the cards read back as clients see them; then the
//! link trends as clients and staff see them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::Duration;
use serde_json::json;

use crate::app::App;
use crate::federation::{OutboundRequest, OutboundResponse, Transport, TransportError};
use crate::media::{MediaProcessor, Preview};
use crate::services::cards::{FETCH_ATTEMPTS, FETCH_LINK_CARD, fetch_job};
use crate::services::edits::StatusChanges;
use crate::services::statuses::NewStatus;
use crate::store::{AccountRecord, JobState, StatusRecord};
use crate::test_support::{account, app, post_new};

/// A 1x1 PNG.
const PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
    0, 0, 144, 119, 83, 222, 0, 0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 232, 233, 253, 15, 0, 3,
    193, 2, 25, 188, 44, 160, 75, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// The largest answer the played web hands over (as the outbound client's `max_body`).
const MAX_BODY: usize = 64 * 1024;

/// What the played web answers for a URL.
#[derive(Clone)]
enum Answer {
    /// 200 with this content type and body.
    Ok(&'static str, Vec<u8>),
    /// This status, no body.
    Status(u16),
    /// No answer in time.
    Timeout,
}

/// The web the app's outbound client reaches: answers by URL, requests counted. Hosts that
/// are private addresses (`10.*`, `127.*`, `192.168.*`) are refused, as the outbound client
/// refuses them unless private addresses are allowed.
#[derive(Default)]
struct Web {
    answers: Mutex<HashMap<String, Answer>>,
    gets: Mutex<Vec<String>>,
}

impl Web {
    fn serve(&self, url: &str, answer: Answer) {
        self.answers
            .lock()
            .expect("answers")
            .insert(url.into(), answer);
    }

    fn html(&self, url: &str, html: &str) {
        self.serve(url, Answer::Ok("text/html; charset=utf-8", html.into()));
    }

    fn got(&self, url: &str) -> usize {
        let gets = self.gets.lock().expect("gets");
        gets.iter().filter(|u| *u == url).count()
    }
}

#[async_trait]
impl Transport for Web {
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError> {
        let host = crate::federation::paths::host_of(&req.url).unwrap_or_default();
        if ["127."].iter().any(|p| host.starts_with(p)) {
            return Err(TransportError::Refused(format!(
                "{host} is not a public address"
            )));
        }
        self.gets.lock().expect("gets").push(req.url.clone());
        let answer = self.answers.lock().expect("answers").get(&req.url).cloned();
        match answer {
            Some(Answer::Ok(_, body)) if body.len() > MAX_BODY => Err(TransportError::TooLarge),
            Some(Answer::Ok(kind, body)) => Ok(OutboundResponse {
                status: 200,
                content_type: Some(kind.into()),
                body,
            }),
            Some(Answer::Status(status)) => Ok(OutboundResponse {
                status,
                content_type: None,
                body: vec![],
            }),
            Some(Answer::Timeout) => Err(TransportError::Timeout),
            None => Ok(OutboundResponse {
                status: 404,
                content_type: None,
                body: vec![],
            }),
        }
    }
}

/// A media processor that keeps the image as it is and gives it a fixed BlurHash, recording
/// the pixels it was asked for.
#[derive(Default)]
struct Hashing {
    asked: Mutex<Vec<u32>>,
}

/// The BlurHash [`Hashing`] gives.
const BLURHASH: &str = "LEHV6nWB2yk8pyo0adR*.7kCMdnj";

#[async_trait]
impl MediaProcessor for Hashing {
    async fn preview(&self, image: &[u8], max_pixels: u32) -> Result<Preview, String> {
        self.asked.lock().expect("asked").push(max_pixels);
        let (width, height) = crate::media::image_dimensions(image).ok_or("no image")?;
        Ok(Preview {
            bytes: image.to_vec(),
            kind: crate::files::ImageKind::Png,
            width,
            height,
            blurhash: Some(BLURHASH.into()),
        })
    }
}

/// An app on `local.test` reaching `web`, with the [`Hashing`] processor.
fn app_with(web: &Arc<Web>) -> (App, Arc<Hashing>) {
    let processor = Arc::new(Hashing::default());
    let app = app("local.test")
        .with_push_transport(web.clone())
        .with_media_processor(processor.clone());
    (app, processor)
}

/// A page with OpenGraph tags and an image.
const ARTICLE: &str = r#"<!doctype html><html lang="en"><head>
<title>Fallback title</title>
<meta property="og:title" content="A long read">
<meta property="og:description" content="All about it.">
<meta property="og:site_name" content="News Example">
<meta property="og:image" content="/img/cover.png">
<meta property="og:image:alt" content="A cover">
<meta property="article:published_time" content="2026-05-01T08:00:00Z">
<meta name="author" content="Ann Writer">
</head><body><p>Text</p></body></html>"#;

async fn post(app: &App, author: &AccountRecord, text: &str) -> StatusRecord {
    post_new(
        app,
        author,
        NewStatus {
            text: text.into(),
            visibility: Some("public".into()),
            ..Default::default()
        },
    )
    .await
}

/// Runs the due jobs until none is left.
async fn run_jobs(app: &App) {
    for _ in 0..10 {
        let round = app
            .run_due_jobs("w", 50, Duration::seconds(60))
            .await
            .expect("round");
        if round.claimed == 0 {
            return;
        }
    }
}

/// The `card` of `status` as clients see it.
async fn card_json(app: &App, status: &StatusRecord) -> serde_json::Value {
    let stored = app
        .store
        .status_by_id(status.id)
        .await
        .expect("status")
        .expect("stored");
    let rendered = app
        .render_statuses(std::slice::from_ref(&stored), None, false)
        .await
        .expect("rendered");
    serde_json::to_value(&rendered[0]).expect("json")["card"].clone()
}

#[tokio::test]
async fn the_first_link_gets_a_card_from_its_page_with_its_image() {
    let web = Arc::new(Web::default());
    web.html("https://news.example/a", ARTICLE);
    web.serve(
        "https://news.example/img/cover.png",
        Answer::Ok("image/png", PNG.to_vec()),
    );
    let (app, processor) = app_with(&web);
    let ann = account(&app, "ann").await;
    let s = post(
        &app,
        &ann,
        "@ann #news read https://news.example/a and https://other.example/b",
    )
    .await;
    assert_eq!(card_json(&app, &s).await, serde_json::Value::Null);
    run_jobs(&app).await;
    let card = card_json(&app, &s).await;
    assert_eq!(card["url"], "https://news.example/a");
    assert_eq!(card["title"], "A long read");
    assert_eq!(card["description"], "All about it.");
    assert_eq!(card["type"], "link");
    assert_eq!(card["provider_name"], "News Example");
    assert_eq!(card["author_name"], "Ann Writer");
    assert_eq!(card["image_description"], "A cover");
    assert_eq!(card["language"], "en");
    assert_eq!(card["html"], "");
    assert_eq!(card["blurhash"], BLURHASH);
    assert_eq!(
        (card["width"].as_i64(), card["height"].as_i64()),
        (Some(1), Some(1))
    );
    assert!(
        card["published_at"]
            .as_str()
            .is_some_and(|t| t.starts_with("2026-05-01T08:00:00"))
    );
    let image = card["image"].as_str().expect("image");
    let key = image
        .strip_prefix("https://local.test/system/")
        .expect("served by the file store");
    assert_eq!(
        app.files.get(key).await.expect("file").as_deref(),
        Some(PNG),
        "the image is stored"
    );
    assert_eq!(processor.asked.lock().expect("asked").as_slice(), [1]);
    assert_eq!(web.got("https://other.example/b"), 0, "only the first link");

    // A second status linking there reuses the card without reading the page again.
    let bob = account(&app, "bob").await;
    let again = post(&app, &bob, "same https://news.example/a").await;
    run_jobs(&app).await;
    assert_eq!(card_json(&app, &again).await["title"], "A long read");
    assert_eq!(web.got("https://news.example/a"), 1);
}

#[tokio::test]
async fn statuses_without_a_link_queue_no_fetch() {
    let web = Arc::new(Web::default());
    let (app, _) = app_with(&web);
    let ann = account(&app, "ann").await;
    let s = post(&app, &ann, "@ann #tag no links here").await;
    run_jobs(&app).await;
    assert_eq!(card_json(&app, &s).await, serde_json::Value::Null);
    assert!(web.gets.lock().expect("gets").is_empty());
    // A link to this server is no card either.
    post(&app, &ann, "see https://local.test/@ann").await;
    run_jobs(&app).await;
    assert!(web.gets.lock().expect("gets").is_empty());
}

#[tokio::test]
async fn an_allowed_video_oembed_embeds_its_iframe_and_others_none() {
    let web = Arc::new(Web::default());
    web.html(
        "https://www.youtube.com/watch?v=x",
        r#"<html><head><title>T</title><link rel="alternate" type="application/json+oembed" href="https://www.youtube.com/oembed?url=x"></head></html>"#,
    );
    web.serve(
        "https://www.youtube.com/oembed?url=x",
        Answer::Ok(
            "application/json",
            json!({
                "type": "video", "title": "A video", "author_name": "Cat",
                "author_url": "/@cat", "provider_name": "YouTube",
                "provider_url": "https://www.youtube.com/", "width": 200, "height": 113,
                "html": "<iframe width=\"200\" height=\"113\" src=\"https://www.youtube.com/embed/x\" onload=\"x()\"></iframe><script>x()</script>"
            })
            .to_string()
            .into_bytes(),
        ),
    );
    // A rich oEmbed of a provider not allowed: its markup is dropped, the page's tags used.
    web.html(
        "https://widgets.example/w",
        r#"<html><head><meta property="og:title" content="Widget page"><meta name="twitter:player" content="https://widgets.example/player"><link rel="alternate" type="application/json+oembed" href="/oembed"></head></html>"#,
    );
    web.serve(
        "https://widgets.example/oembed",
        Answer::Ok(
            "application/json",
            json!({"type": "rich", "title": "Widget", "html": "<iframe src=\"https://widgets.example/embed\"></iframe>"})
                .to_string()
                .into_bytes(),
        ),
    );
    let (app, _) = app_with(&web);
    let ann = account(&app, "ann").await;
    let video = post(&app, &ann, "watch https://www.youtube.com/watch?v=x").await;
    let widget = post(&app, &ann, "try https://widgets.example/w").await;
    run_jobs(&app).await;
    let card = card_json(&app, &video).await;
    assert_eq!(card["type"], "video");
    assert_eq!(card["title"], "A video");
    assert_eq!(card["author_url"], "https://www.youtube.com/@cat");
    assert_eq!(
        card["html"],
        "<iframe src=\"https://www.youtube.com/embed/x\" width=\"200\" height=\"113\" frameborder=\"0\" allowfullscreen=\"true\"></iframe>"
    );
    assert_eq!(
        (card["width"].as_i64(), card["height"].as_i64()),
        (Some(200), Some(113))
    );
    let card = card_json(&app, &widget).await;
    assert_eq!(card["title"], "Widget page");
    assert_eq!(
        card["type"], "link",
        "a player of a provider not allowed is no video"
    );
    assert_eq!(card["html"], "");
}

#[tokio::test]
async fn an_edit_with_a_new_first_link_replaces_the_card() {
    let web = Arc::new(Web::default());
    web.html("https://news.example/a", ARTICLE);
    web.html(
        "https://news.example/b",
        "<html><head><title>Second page</title></head></html>",
    );
    let (app, _) = app_with(&web);
    let ann = account(&app, "ann").await;
    let s = post(&app, &ann, "read https://news.example/a").await;
    run_jobs(&app).await;
    assert_eq!(card_json(&app, &s).await["title"], "A long read");
    let edit = |text: &str| StatusChanges {
        text: text.into(),
        ..Default::default()
    };
    app.edits()
        .edit_status(&ann, s.id, edit("now https://news.example/b"))
        .await
        .expect("edited");
    assert_eq!(
        card_json(&app, &s).await,
        serde_json::Value::Null,
        "the old card goes at once"
    );
    run_jobs(&app).await;
    assert_eq!(card_json(&app, &s).await["title"], "Second page");
    // An edit that keeps the link keeps the card, and reads nothing.
    app.edits()
        .edit_status(&ann, s.id, edit("still https://news.example/b !"))
        .await
        .expect("edited");
    run_jobs(&app).await;
    assert_eq!(card_json(&app, &s).await["title"], "Second page");
    assert_eq!(web.got("https://news.example/b"), 1);
    // No link any more: no card.
    app.edits()
        .edit_status(&ann, s.id, edit("no link"))
        .await
        .expect("edited");
    run_jobs(&app).await;
    assert_eq!(card_json(&app, &s).await, serde_json::Value::Null);
}

#[tokio::test]
async fn refused_too_large_and_untitled_pages_leave_no_card_and_are_not_retried() {
    let web = Arc::new(Web::default());
    web.html(
        "https://big.example/page",
        &format!(
            "<html><head><title>Big</title></head><body>{}</body></html>",
            "x".repeat(MAX_BODY)
        ),
    );
    web.html(
        "https://blank.example/page",
        "<html><body>no title</body></html>",
    );
    web.serve(
        "https://image.example/pic.png",
        Answer::Ok("image/png", PNG.to_vec()),
    );
    web.serve("https://gone.example/page", Answer::Status(404));
    let (app, _) = app_with(&web);
    let ann = account(&app, "ann").await;
    let mut statuses = vec![];
    for url in [
        "http://127.0.0.2/admin",
        "http://127.0.0.1:8080/",
        "https://big.example/page",
        "https://blank.example/page",
        "https://image.example/pic.png",
        "https://gone.example/page",
    ] {
        statuses.push(post(&app, &ann, &format!("see {url}")).await);
    }
    run_jobs(&app).await;
    for s in &statuses {
        assert_eq!(
            card_json(&app, s).await,
            serde_json::Value::Null,
            "{}",
            s.text
        );
    }
    for url in ["https://big.example/page", "https://gone.example/page"] {
        assert_eq!(web.got(url), 1, "{url} is not retried");
    }
    for state in [JobState::Queued, JobState::Dead] {
        let left = app.store.count_jobs(state).await.expect("count");
        assert_eq!(left, 0, "no job is retried or dead ({state:?})");
    }
}

#[tokio::test]
async fn a_page_that_does_not_answer_is_retried_a_few_times() {
    let web = Arc::new(Web::default());
    web.serve("https://slow.example/a", Answer::Timeout);
    let (app, _) = app_with(&web);
    let ann = account(&app, "ann").await;
    let s = post(&app, &ann, "see https://slow.example/a").await;
    let payload = json!({ "status_id": s.id.to_string(), "url": "https://slow.example/a" });
    let err = app.cards().run_fetch(&payload).await.expect_err("may pass");
    assert!(err.contains("timed out"), "{err}");
    let job = fetch_job(&app.ids, s.id, "https://slow.example/a", app.now()).expect("job");
    assert_eq!(
        (job.kind.as_str(), job.max_attempts),
        (FETCH_LINK_CARD, FETCH_ATTEMPTS)
    );
    const { assert!(FETCH_ATTEMPTS <= 3, "not retried for long") };
    // Once it answers, the card is made.
    web.html("https://slow.example/a", "<title>At last</title>");
    app.cards().run_fetch(&payload).await.expect("fetched");
    assert_eq!(card_json(&app, &s).await["title"], "At last");
}

#[tokio::test]
async fn a_remote_statuss_first_html_link_is_its_card_link() {
    let web = Arc::new(Web::default());
    let (app, _) = app_with(&web);
    let ann = account(&app, "ann").await;
    let posted = post(&app, &ann, "plain").await;
    let status = StatusRecord {
        local: false,
        text: String::new(),
        content: r#"<p><a href="https://far.example/@bob" class="u-url mention">@bob</a> <a href="https://far.example/tags/x" rel="tag">#x</a> <a href="https://news.example/a">news</a></p>"#.into(),
        ..posted
    };
    assert_eq!(
        crate::services::links::status_card_link(&status, "local.test").as_deref(),
        Some("https://news.example/a")
    );
}

/// A remote status as federation hands it over, linking to `href` (with a mention and a
/// hashtag before it).
fn remote_note(uri: &str, href: &str, app: &App) -> crate::services::remote::RemoteStatus {
    crate::services::remote::RemoteStatus {
        uri: uri.into(),
        content: format!(
            r#"<p><span class="h-card"><a href="https://far.example/@bob" class="u-url mention">@bob</a></span> <a href="https://far.example/tags/x" class="mention hashtag" rel="tag">#x</a> <a href="{href}" rel="nofollow">{href}</a></p>"#
        ),
        spoiler_text: String::new(),
        sensitive: false,
        language: None,
        visibility: crate::store::Visibility::Public,
        in_reply_to: None,
        context: None,
        mentions: vec![],
        tags: vec![],
        published: app.now(),
        updated: None,
        attachments: vec![],
        poll: None,
    }
}

#[tokio::test]
async fn remote_statuses_get_the_card_of_their_first_link_on_arrival_and_edit() {
    let web = Arc::new(Web::default());
    web.html("https://news.example/a", ARTICLE);
    web.html(
        "https://news.example/b",
        "<html><head><title>Second page</title></head></html>",
    );
    let (app, _) = app_with(&web);
    let mut bob = AccountRecord::new_local(app.ids.next(), "bob", app.now());
    bob.domain = Some("far.example".into());
    bob.uri = Some("https://far.example/users/bob".into());
    app.store.insert_remote_account(&bob).await.expect("bob");
    let uri = "https://far.example/notes/1";
    let s = app
        .remote()
        .receive_status(&bob, remote_note(uri, "https://news.example/a", &app))
        .await
        .expect("received");
    run_jobs(&app).await;
    assert_eq!(card_json(&app, &s).await["title"], "A long read");
    let edited = crate::services::remote::RemoteStatus {
        updated: Some(app.now() + Duration::seconds(5)),
        ..remote_note(uri, "https://news.example/b", &app)
    };
    app.remote().receive_edit(&s, edited).await.expect("edited");
    run_jobs(&app).await;
    assert_eq!(card_json(&app, &s).await["title"], "Second page");
}

/// `n` accounts share `url` today.
async fn share(app: &App, url: &str, names: &[&str]) -> Vec<StatusRecord> {
    let mut out = vec![];
    for name in names {
        let who = account(app, name).await;
        out.push(post(app, &who, &format!("look {url}")).await);
    }
    out
}

#[tokio::test]
async fn links_shared_by_several_accounts_trend_once_approved() {
    let web = Arc::new(Web::default());
    web.html("https://news.example/a", ARTICLE);
    web.html("https://blog.example/b", "<title>Blog post</title>");
    web.html("https://solo.example/c", "<title>Solo</title>");
    let (app, _) = app_with(&web);
    share(&app, "https://news.example/a", &["a1", "a2", "a3"]).await;
    share(&app, "https://blog.example/b", &["b1", "b2"]).await;
    share(&app, "https://solo.example/c", &["c1"]).await;
    run_jobs(&app).await;
    let cards = app.cards();
    // Staff see every link shared this week, best score first, unreviewed.
    let staff = cards.staff_links(0, 10).await.expect("staff");
    let urls: Vec<&str> = staff.iter().map(|v| v.card.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "https://news.example/a",
            "https://blog.example/b",
            "https://solo.example/c"
        ]
    );
    assert!(staff.iter().all(|v| v.requires_review && !v.trendable));
    assert_eq!(
        (staff[0].history[0].uses, staff[0].history[0].accounts),
        (3, 3)
    );
    assert_eq!(staff[0].history.len(), 7);
    assert_eq!(staff[2].score, 0.0, "one account is no trend");
    // Clients see none until staff approve.
    assert!(cards.trending_links(0, 10).await.expect("links").is_empty());
    let news = staff[0].card.id;
    let approved = cards.review_link(news, true).await.expect("approved");
    assert!(approved.trendable && !approved.requires_review);
    let shown = cards.trending_links(0, 10).await.expect("links");
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].card.id, news);
    // Approving the blog's publisher lets its links trend; the lone link still does not.
    let publishers = cards.publishers().await.expect("publishers");
    let blog = publishers
        .iter()
        .find(|p| p.publisher.domain == "blog.example")
        .expect("publisher");
    assert!(blog.requires_review);
    cards
        .review_publisher(blog.publisher.id, true)
        .await
        .expect("approved");
    let shown: Vec<String> = cards
        .trending_links(0, 10)
        .await
        .expect("links")
        .into_iter()
        .map(|v| v.card.url)
        .collect();
    assert_eq!(shown, ["https://news.example/a", "https://blog.example/b"]);
    assert_eq!(cards.trending_links(1, 1).await.expect("links").len(), 1);
    // A link rejected is not shown even when its publisher is approved.
    cards.review_link(news, false).await.expect("rejected");
    assert_eq!(cards.trending_links(0, 10).await.expect("links").len(), 1);
    // Unknown ids are 404.
    let err = cards
        .review_link(crate::Id(42), true)
        .await
        .expect_err("unknown");
    assert_eq!(err.status, http::StatusCode::NOT_FOUND);
    let rendered = app.render_trends_link(&staff[0]);
    let json = serde_json::to_value(&rendered).expect("json");
    assert_eq!(json["history"][0]["accounts"], "3");
    assert_eq!(json["title"], "A long read");
}
