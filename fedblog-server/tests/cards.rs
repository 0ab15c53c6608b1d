//! Preview cards through the server's own outbound client and media processor: a loopback
//! HTTP server serves a page with OpenGraph tags and a large image; a status linking to it gets
//! its card, with the image scaled down to 640 pixels and its BlurHash. The address rule
//! refuses the same page unless private addresses are allowed, and a page larger than the
//! client's bound leaves no card.

use std::io::Cursor;
use std::net::SocketAddr;
use std::sync::Arc;

use chrono::Duration;
use fedblog_core::services::statuses::NewStatus;
use fedblog_core::store::{AccountRecord, Role, StatusRecord};
use fedblog_core::{App, InstanceConfig, MemoryStore};
use fedblog_server::media::ImageProcessor;
use fedblog_server::outbound::{OutboundClient, OutboundOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A 1280 x 640 PNG.
fn cover_png() -> Vec<u8> {
    let image = image::RgbImage::from_fn(1280, 640, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    });
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(image)
        .write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("png");
    out
}

/// An HTTP answer with `body`.
fn answer(kind: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// A loopback server: `/page` (OpenGraph tags, its image at `/cover.png`), `/cover.png`, and
/// `/big` (a page of 200 KiB).
async fn serve() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let cover = Arc::new(cover_png());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let cover = cover.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 8192];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&buf[..n]).to_string();
                let target = request.split_whitespace().nth(1).unwrap_or("/");
                let reply = match target {
                    "/page" => answer(
                        "text/html; charset=utf-8",
                        br#"<html><head><title>Loopback</title>
                        <meta property="og:title" content="A page served here">
                        <meta property="og:description" content="Read over loopback.">
                        <meta property="og:image" content="/cover.png">
                        </head><body>hello</body></html>"#,
                    ),
                    "/cover.png" => answer("image/png", &cover),
                    "/big" => {
                        let mut page = b"<html><head><title>Big</title></head><body>".to_vec();
                        page.extend(std::iter::repeat_n(b'x', 200 * 1024));
                        answer("text/html", &page)
                    }
                    _ => {
                        b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                            .to_vec()
                    }
                };
                let _ = socket.write_all(&reply).await;
            });
        }
    });
    addr
}

/// An app on `local.test` whose outbound client allows private addresses or not and reads at
/// most `max_body` bytes.
fn app(allow_private: bool, max_body: usize) -> App {
    let mut options = OutboundOptions::new("https://local.test");
    options.allow_private = allow_private;
    options.max_body = max_body;
    let client = OutboundClient::new(options).expect("client");
    let mut config = InstanceConfig::new("local.test");
    config.password_hash_memory_kib = 64;
    App::new(Arc::new(MemoryStore::new()), config)
        .with_push_transport(Arc::new(client))
        .with_media_processor(Arc::new(ImageProcessor))
}

async fn poster(app: &App) -> AccountRecord {
    app.accounts()
        .create_local_account(
            fedblog_core::services::accounts::NewAccount {
                username: "ann".into(),
                email: "ann@local.test".into(),
                password: "a long enough password".into(),
                role: Role::User,
                confirmed: true,
                approved: true,
                locale: "en".into(),
            },
            false,
        )
        .await
        .expect("account")
        .0
}

/// Posts `text` as `who` and runs the jobs; answers the status's card as clients see it.
async fn card_of_post(app: &App, who: &AccountRecord, text: &str) -> serde_json::Value {
    let status: StatusRecord = app
        .statuses()
        .publish_status(
            who,
            None,
            None,
            NewStatus {
                text: text.into(),
                visibility: Some("public".into()),
                ..Default::default()
            },
        )
        .await
        .expect("posted");
    for _ in 0..5 {
        let round = app
            .run_due_jobs("w", 50, Duration::seconds(60))
            .await
            .expect("jobs");
        if round.claimed == 0 {
            break;
        }
    }
    let rendered = app
        .render_statuses(std::slice::from_ref(&status), None, false)
        .await
        .expect("rendered");
    serde_json::to_value(&rendered[0]).expect("json")["card"].clone()
}

#[tokio::test]
async fn a_loopback_page_gives_a_card_with_a_scaled_image_when_private_addresses_are_allowed() {
    let addr = serve().await;
    let app = app(true, 1024 * 1024);
    let ann = poster(&app).await;
    let card = card_of_post(&app, &ann, &format!("see http://{addr}/page")).await;
    assert_eq!(card["title"], "A page served here", "{card}");
    assert_eq!(card["description"], "Read over loopback.");
    assert_eq!(card["type"], "link");
    assert_eq!(
        (card["width"].as_i64(), card["height"].as_i64()),
        (Some(640), Some(320))
    );
    assert!(
        card["blurhash"].as_str().is_some_and(|h| h.len() >= 6),
        "{card}"
    );
    let image = card["image"].as_str().expect("image");
    let key = image
        .strip_prefix("https://local.test/system/")
        .expect("the file store's URL");
    let stored = app.files.get(key).await.expect("file").expect("stored");
    assert_eq!(
        fedblog_core::media::image_dimensions(&stored),
        Some((640, 320)),
        "the stored image is scaled down to 640 pixels wide"
    );
}

#[tokio::test]
async fn a_private_address_is_refused_and_a_too_large_page_leaves_no_card() {
    let addr = serve().await;
    let refusing = app(false, 1024 * 1024);
    let ann = poster(&refusing).await;
    let card = card_of_post(&refusing, &ann, &format!("see http://{addr}/page")).await;
    assert_eq!(
        card,
        serde_json::Value::Null,
        "a loopback address is refused"
    );
    let bounded = app(true, 64 * 1024);
    let ann = poster(&bounded).await;
    let card = card_of_post(&bounded, &ann, &format!("see http://{addr}/big")).await;
    assert_eq!(
        card,
        serde_json::Value::Null,
        "a page over the bound is cut off"
    );
    let card = card_of_post(&bounded, &ann, &format!("and http://{addr}/page")).await;
    assert_eq!(card["title"], "A page served here");
}
