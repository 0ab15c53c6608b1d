//! Avatars and headers through the real server and its `ImageProcessor`: sized as Mastodon
//! sizes them (avatars a 400x400 square, headers at most 1500x500 pixels), small images kept as
//! sent, animated GIFs kept with a still version, and images declaring too many pixels refused
//! with a 422 before anything is decoded.

mod common;

use std::io::Cursor;

use common::TestServer;
use fedblog_core::Id;
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::update_credentials::UpdateCredentials;
use fedblog_core::services::accounts::still_key;
use fedblog_core::store::AccountRecord;
use fedblog_testkit::client::{Body, Part, Response};
use image::codecs::gif::GifEncoder;
use image::{Delay, DynamicImage, Frame, ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};

/// A `width` x `height` image with some detail, encoded as `format`.
fn picture(width: u32, height: u32, format: ImageFormat) -> Vec<u8> {
    let img = RgbImage::from_fn(width, height, |x, y| {
        Rgb([(x % 251) as u8, (y % 241) as u8, ((x + y) % 239) as u8])
    });
    let mut out = Vec::new();
    DynamicImage::ImageRgb8(img)
        .write_to(&mut Cursor::new(&mut out), format)
        .unwrap();
    out
}

/// A PNG's signature and IHDR chunk declaring `width` x `height`, and no pixels.
fn png_declaring(width: u32, height: u32) -> Vec<u8> {
    let mut v = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    v.extend_from_slice(&width.to_be_bytes());
    v.extend_from_slice(&height.to_be_bytes());
    v.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
    v
}

/// A two-frame animated GIF of `side` x `side` pixels.
fn animated_gif(side: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, 30);
        for colour in [[255, 0, 0, 255], [0, 0, 255, 255]] {
            let frame = Frame::from_parts(
                RgbaImage::from_pixel(side, side, Rgba(colour)),
                0,
                0,
                Delay::from_numer_denom_ms(100, 1),
            );
            encoder.encode_frame(frame).unwrap();
        }
    }
    out
}

async fn upload(s: &TestServer, token: &str, field: &str, bytes: &[u8]) -> Response {
    s.client
        .patch(
            UpdateCredentials::PATH,
            Some(token),
            Body::Multipart(vec![Part::file(
                field,
                "picture",
                "application/octet-stream",
                bytes,
            )]),
        )
        .await
        .unwrap()
}

async fn record(s: &TestServer, id: &str) -> AccountRecord {
    let id: Id = id.parse().unwrap();
    s.app.store.account_by_id(id).await.unwrap().unwrap()
}

/// The stored file of `key`, and the same bytes served at `url`.
async fn stored(s: &TestServer, key: &str, url: &str) -> Vec<u8> {
    let bytes = s
        .app
        .files
        .get(key)
        .await
        .unwrap()
        .expect("the file is stored");
    let (status, _, served) = s.client.get_bytes(url).await.unwrap();
    assert_eq!(status, 200, "{url}");
    assert_eq!(
        served, bytes,
        "{url} serves other bytes than stored under {key}"
    );
    bytes
}

fn dimensions(bytes: &[u8]) -> (u32, u32) {
    let img = image::load_from_memory(bytes).unwrap();
    (img.width(), img.height())
}

fn url(r: &Response, field: &str) -> String {
    assert_eq!(r.status, 200, "{}", r.text);
    r.json.as_ref().unwrap()[field]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn avatars_and_headers_are_sized_as_mastodon_sizes_them() {
    let s = TestServer::start().await;
    let (id, token) = s.user("pictures").await;

    // A 1000x1000 avatar becomes 400x400; avatar_static is the same still file.
    let r = upload(&s, &token, "avatar", &picture(1000, 1000, ImageFormat::Png)).await;
    let avatar_url = url(&r, "avatar");
    assert_eq!(url(&r, "avatar_static"), avatar_url);
    let key = record(&s, &id).await.avatar.unwrap();
    assert!(key.ends_with(".png") && still_key(&key).is_none(), "{key}");
    assert_eq!(dimensions(&stored(&s, &key, &avatar_url).await), (400, 400));

    // A wide JPEG avatar is cropped to the centred square, and stays a JPEG.
    let r = upload(&s, &token, "avatar", &picture(900, 500, ImageFormat::Jpeg)).await;
    let avatar_url = url(&r, "avatar");
    let key = record(&s, &id).await.avatar.unwrap();
    assert!(key.ends_with(".jpg"), "{key}");
    let bytes = stored(&s, &key, &avatar_url).await;
    assert_eq!(image::guess_format(&bytes).unwrap(), ImageFormat::Jpeg);
    assert_eq!(dimensions(&bytes), (400, 400));

    // A small square avatar is within the size: kept byte for byte.
    let small = picture(64, 64, ImageFormat::Png);
    let r = upload(&s, &token, "avatar", &small).await;
    let key = record(&s, &id).await.avatar.unwrap();
    assert_eq!(stored(&s, &key, &url(&r, "avatar")).await, small);

    // A 3000x1000 header becomes 1500x500 (Mastodon's 750,000 pixels), aspect kept.
    let r = upload(
        &s,
        &token,
        "header",
        &picture(3000, 1000, ImageFormat::Jpeg),
    )
    .await;
    let header_url = url(&r, "header");
    assert_eq!(url(&r, "header_static"), header_url);
    let key = record(&s, &id).await.header.unwrap();
    assert_eq!(
        dimensions(&stored(&s, &key, &header_url).await),
        (1500, 500)
    );

    // Another aspect ratio: scaled, never cropped.
    let r = upload(&s, &token, "header", &picture(2000, 1500, ImageFormat::Png)).await;
    let key = record(&s, &id).await.header.unwrap();
    assert_eq!(
        dimensions(&stored(&s, &key, &url(&r, "header")).await),
        (1000, 750)
    );

    // A header within the pixels is kept as sent.
    let banner = picture(1200, 400, ImageFormat::Png);
    let r = upload(&s, &token, "header", &banner).await;
    let key = record(&s, &id).await.header.unwrap();
    assert_eq!(stored(&s, &key, &url(&r, "header")).await, banner);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_animated_gif_avatar_is_kept_with_a_still_version() {
    let s = TestServer::start().await;
    let (id, token) = s.user("animated").await;
    let gif = animated_gif(600);
    let r = upload(&s, &token, "avatar", &gif).await;
    let avatar_url = url(&r, "avatar");
    let key = record(&s, &id).await.avatar.unwrap();
    assert!(key.ends_with("/original.gif"), "{key}");
    assert_eq!(stored(&s, &key, &avatar_url).await, gif);
    let still = still_key(&key).unwrap();
    let bytes = s
        .app
        .files
        .get(&still)
        .await
        .unwrap()
        .expect("a still version");
    assert_eq!(image::guess_format(&bytes).unwrap(), ImageFormat::Png);
    assert_eq!(dimensions(&bytes), (400, 400));
    let static_url = url(&r, "avatar_static");
    assert!(static_url.ends_with("/static.png"), "{static_url}");
    let (status, _, served) = s.client.get_bytes(&static_url).await.unwrap();
    assert_eq!((status, served), (200, bytes));

    // Replacing it removes both files.
    let r = upload(&s, &token, "avatar", &picture(10, 10, ImageFormat::Png)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(s.app.files.get(&key).await.unwrap(), None);
    assert_eq!(s.app.files.get(&still).await.unwrap(), None);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn images_declaring_too_many_pixels_are_422_and_change_nothing() {
    let s = TestServer::start().await;
    let (id, token) = s.user("bombs").await;
    let r = upload(&s, &token, "avatar", &picture(8, 8, ImageFormat::Png)).await;
    let avatar_url = url(&r, "avatar");
    let before = record(&s, &id).await;
    for field in ["avatar", "header"] {
        let r = upload(&s, &token, field, &png_declaring(50_000, 50_000)).await;
        assert_eq!(r.status, 422, "{}", r.text);
        let v = r.json.as_ref().unwrap();
        let error = v["error"].as_str().unwrap();
        assert!(error.starts_with("Validation failed: "), "{error}");
        assert!(error.contains("33177600 pixels"), "{error}");
        assert!(v["details"][field].is_array(), "{}", r.text);
        let after = record(&s, &id).await;
        assert_eq!(
            (after.avatar, after.header),
            (before.avatar.clone(), before.header.clone())
        );
    }
    // An image whose dimensions cannot be read is a 422 too.
    let r = upload(&s, &token, "header", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").await;
    assert_eq!(r.status, 422, "{}", r.text);
    // Within the limit but not decodable: refused by the processor, still a 422.
    let r = upload(&s, &token, "avatar", &png_declaring(5000, 5000)).await;
    assert_eq!(r.status, 422, "{}", r.text);
    let (status, _, _) = s.client.get_bytes(&avatar_url).await.unwrap();
    assert_eq!(status, 200, "the old avatar is still served");
    assert_eq!(record(&s, &id).await.avatar, before.avatar);
    s.stop().await;
}
