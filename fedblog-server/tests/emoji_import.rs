//! `fedblog-server emoji import`: a folder and `.tar` / `.tar.gz` archives of images become
//! this server's custom emojis, listed by `GET /api/v1/custom_emojis` with their category and
//! picker visibility; files that are no images, and names that make no shortcode, are skipped
//! with a message; a shortcode taken is kept unless `--overwrite`; an animated GIF gets a still
//! PNG.

mod common;

use std::io::Cursor;
use std::path::Path;

use chrono::Utc;
use common::cli::cli;
use fedblog_core::api::Endpoint;
use fedblog_core::api::custom_emojis::list_custom_emojis::ListCustomEmojis;
use fedblog_server::http::HttpOptions;
use fedblog_server::serve::{build_app, spawn_with};
use fedblog_server::settings::SettingsArgs;
use fedblog_testkit::client::Client;
use serde_json::Value;

/// A `width` x `height` PNG of one colour.
fn png(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(width, height, image::Rgb(rgb));
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("encode png");
    out.into_inner()
}

/// An animated GIF of two 4x4 frames.
fn animated_gif() -> Vec<u8> {
    use image::codecs::gif::{GifEncoder, Repeat};
    use image::{Delay, Frame, RgbaImage};
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut out);
        encoder.set_repeat(Repeat::Infinite).expect("repeat");
        for rgba in [[255, 0, 0, 255], [0, 0, 255, 255]] {
            let frame = Frame::from_parts(
                RgbaImage::from_pixel(4, 4, image::Rgba(rgba)),
                0,
                0,
                Delay::from_numer_denom_ms(100, 1),
            );
            encoder.encode_frame(frame).expect("frame");
        }
    }
    out
}

/// A tar archive of `files` (name, bytes).
fn tar_of(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, name, bytes.as_slice())
            .expect("append");
    }
    builder.into_inner().expect("tar")
}

/// `bytes` gzipped.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

/// Runs an import that must succeed; its summary line and standard error.
fn import(dir: &Path, args: &[&str]) -> (String, String) {
    let mut all = vec!["emoji", "import"];
    all.extend_from_slice(args);
    let (ok, out, err) = cli(dir, &all);
    assert!(ok, "{all:?} failed: {err}");
    let summary = out.lines().last().unwrap_or_default().trim().to_string();
    (summary, err)
}

#[tokio::test]
async fn a_folder_and_archives_of_images_become_listed_emojis() {
    let dir = std::env::temp_dir().join(format!(
        "fedblog-emoji-import-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    let images = dir.join("images");
    std::fs::create_dir_all(&images).expect("temp dir");
    let data = dir.join("data");
    std::fs::create_dir_all(&data).expect("data dir");
    std::fs::write(images.join("blobcat.png"), png(8, 8, [250, 200, 0])).unwrap();
    std::fs::write(images.join("party.gif"), animated_gif()).unwrap();
    std::fs::write(images.join("notes.txt"), b"not an image").unwrap();
    std::fs::write(images.join("bad-name.png"), png(2, 2, [0, 0, 0])).unwrap();
    std::fs::write(images.join(".hidden.png"), png(2, 2, [0, 0, 0])).unwrap();

    // A folder: two emojis, three files skipped with a reason each.
    let (summary, err) = import(
        &data,
        &[images.to_str().expect("utf-8 path"), "--category", "Cats"],
    );
    assert_eq!(summary, "imported 2, skipped 3", "{err}");
    assert!(err.contains("notes.txt"), "{err}");
    assert!(
        err.contains("bad-name.png") && err.contains("shortcode"),
        "{err}"
    );

    // A .tar.gz: a new one, unlisted; a taken shortcode is kept.
    let archive = dir.join("more.tar.gz");
    std::fs::write(
        &archive,
        gzip(&tar_of(&[
            ("emojis/fox.png", png(4, 4, [200, 90, 0])),
            ("emojis/blobcat.png", png(4, 4, [0, 90, 200])),
            ("emojis/readme.md", b"# emojis".to_vec()),
        ])),
    )
    .unwrap();
    let (summary, err) = import(&data, &[archive.to_str().unwrap(), "--unlisted"]);
    assert_eq!(summary, "imported 1, skipped 2", "{err}");
    assert!(err.contains("--overwrite"), "{err}");

    // A plain .tar with --overwrite and a prefix/suffix-free name: replaced.
    let plain = dir.join("replace.tar");
    std::fs::write(&plain, tar_of(&[("blobcat.png", png(4, 4, [9, 9, 9]))])).unwrap();
    let (summary, err) = import(
        &data,
        &[plain.to_str().unwrap(), "--overwrite", "--category", "Dogs"],
    );
    assert_eq!(summary, "imported 1, skipped 0", "{err}");

    // Prefix and suffix make the shortcode.
    let (summary, err) = import(
        &data,
        &[plain.to_str().unwrap(), "--prefix", "x_", "--suffix", "_y"],
    );
    assert_eq!(summary, "imported 1, skipped 0", "{err}");

    // Neither a folder nor an archive.
    let (ok, _, err) = cli(
        &data,
        &[
            "emoji",
            "import",
            images.join("notes.txt").to_str().unwrap(),
        ],
    );
    assert!(!ok && err.contains("neither a folder nor"), "{err}");

    // The server lists them.
    let settings = SettingsArgs {
        data_dir: Some(data.clone()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    let app = build_app(&settings).await.expect("app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let running = spawn_with(app, listener, HttpOptions::default())
        .await
        .expect("serve");
    let client = Client::new(&running.base_url(), Some(common::openapi())).expect("client");
    let r = client
        .get(ListCustomEmojis::PATH, None)
        .await
        .expect("list");
    assert_eq!(r.status, 200, "{}", r.text);
    let listed: Vec<Value> = r.json().expect("json").as_array().expect("array").clone();
    let by = |code: &str| {
        listed
            .iter()
            .find(|e| e["shortcode"] == code)
            .unwrap_or_else(|| panic!("{code} is not listed: {listed:?}"))
            .clone()
    };
    let codes: Vec<&str> = listed
        .iter()
        .filter_map(|e| e["shortcode"].as_str())
        .collect();
    assert_eq!(codes, vec!["blobcat", "fox", "party", "x_blobcat_y"]);
    let cat = by("blobcat");
    assert_eq!(
        (cat["category"].as_str(), cat["visible_in_picker"].as_bool()),
        (Some("Dogs"), Some(true)),
        "replaced: {cat}"
    );
    let fox = by("fox");
    assert_eq!(fox["visible_in_picker"], false, "{fox}");
    assert!(fox.get("category").is_none_or(Value::is_null), "{fox}");
    let party = by("party");
    let (url, still) = (
        party["url"].as_str().unwrap(),
        party["static_url"].as_str().unwrap(),
    );
    assert!(url.ends_with(".gif") && still.ends_with(".png"), "{party}");
    assert_eq!(party["category"], "Cats");
    // The URLs name the configured domain; the files are fetched from this listener.
    let path_of = |url: &str| format!("/system/{}", url.split("/system/").nth(1).unwrap_or(url));
    let (status, _, bytes) = client.get_bytes(&path_of(still)).await.expect("still");
    assert_eq!(status, 200);
    assert!(bytes.starts_with(b"\x89PNG"), "the still is a PNG");
    let (status, _, bytes) = client
        .get_bytes(&path_of(cat["url"].as_str().unwrap()))
        .await
        .unwrap();
    assert_eq!(
        (status, bytes),
        (200, png(4, 4, [9, 9, 9])),
        "the new image"
    );

    running.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
