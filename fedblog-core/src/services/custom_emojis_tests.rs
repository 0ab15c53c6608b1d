//! The custom emojis area's rules: uploads checked as Mastodon checks them, enabled local
//! emojis listed and disabled ones hidden, staff's list filters, copies of remote emojis, and
//! `:shortcode:` rendered in the `emojis` of local statuses, accounts and polls and in the
//! `Emoji` tags of what federates.

use chrono::Utc;

use crate::App;
use crate::services::custom_emojis::{Created, EMOJI_IMAGE_LIMIT, EmojiChange, NewEmoji, OnTaken};
use crate::store::{CustomEmojiFilter, CustomEmojiRecord};
use crate::test_support::{account, app, post};

/// A 1x1 PNG.
const PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
    0, 0, 144, 119, 83, 222, 0, 0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 232, 233, 253, 15, 0, 3,
    193, 2, 25, 188, 44, 160, 75, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// The start of a JPEG.
const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F', 0];

/// Uploads a local emoji `shortcode` (a PNG), which must succeed.
async fn upload(app: &App, shortcode: &str) -> CustomEmojiRecord {
    match app
        .custom_emojis()
        .create(
            NewEmoji {
                shortcode: shortcode.into(),
                image: PNG.to_vec(),
                category: Some("Blobs".into()),
                visible_in_picker: true,
            },
            OnTaken::Refuse,
        )
        .await
        .expect("upload")
    {
        Created::Stored(e) => e,
        Created::Kept(e) => panic!("{shortcode} was taken: {e:?}"),
    }
}

/// Keeps a remote emoji of `domain`.
async fn remote(app: &App, shortcode: &str, domain: &str) -> CustomEmojiRecord {
    let e = CustomEmojiRecord {
        id: app.ids.next(),
        shortcode: shortcode.into(),
        domain: Some(domain.into()),
        uri: Some(format!("https://{domain}/emojis/{shortcode}")),
        image_url: format!("https://files.{domain}/{shortcode}.png"),
        static_url: format!("https://files.{domain}/{shortcode}.png"),
        visible_in_picker: false,
        category: None,
        disabled: false,
        updated_at: Utc::now(),
    };
    app.store
        .save_custom_emojis(std::slice::from_ref(&e))
        .await
        .expect("save");
    e
}

/// The shortcodes `GET /api/v1/custom_emojis` lists.
async fn listed(app: &App) -> Vec<String> {
    app.custom_emojis()
        .enabled_local()
        .await
        .expect("list")
        .into_iter()
        .map(|e| e.shortcode)
        .collect()
}

/// The status of an error.
fn status_of<T: std::fmt::Debug>(r: crate::error::ApiResult<T>) -> u16 {
    r.expect_err("an error").status.as_u16()
}

#[tokio::test]
async fn uploads_are_stored_with_public_urls_and_checked() {
    let app = app("emoji.test");
    let e = upload(&app, "blobcat").await;
    assert_eq!(e.domain, None);
    assert_eq!(e.category.as_deref(), Some("Blobs"));
    assert!(!e.disabled && e.visible_in_picker);
    let prefix = app.files.public_url(&app.base_url(), "");
    let key = e.image_url.strip_prefix(&prefix).expect("a stored file");
    assert!(key.starts_with("custom_emojis/images/") && key.ends_with(".png"));
    assert_eq!(app.files.get(key).await.unwrap().as_deref(), Some(PNG));
    assert_eq!(e.static_url, e.image_url, "a still image is its own still");

    let bad = |shortcode: &str, image: &[u8]| NewEmoji {
        shortcode: shortcode.into(),
        image: image.to_vec(),
        category: None,
        visible_in_picker: true,
    };
    let emojis = app.custom_emojis();
    for (new, field) in [
        (bad("a", PNG), "shortcode"),
        (bad("blob-cat", PNG), "shortcode"),
        (bad("", PNG), "shortcode"),
        (bad("blobcat", PNG), "shortcode"),
        (bad("jpeg_cat", JPEG), "image"),
        (bad("no_image", b""), "image"),
        (bad("big_cat", &vec![0u8; EMOJI_IMAGE_LIMIT + 1]), "image"),
    ] {
        let shortcode = new.shortcode.clone();
        let err = emojis
            .create(new, OnTaken::Refuse)
            .await
            .expect_err("refused");
        assert_eq!(err.status.as_u16(), 422, "{shortcode}");
        assert!(
            err.details.as_ref().is_some_and(|d| d.contains_key(field)),
            "{shortcode}: the error names {field}: {err:?}"
        );
    }
    assert_eq!(listed(&app).await, vec!["blobcat"]);
}

#[tokio::test]
async fn a_taken_shortcode_is_kept_or_replaced_as_asked() {
    let app = app("emoji.test");
    let first = upload(&app, "blobcat").await;
    let again = NewEmoji {
        shortcode: "blobcat".into(),
        image: PNG.to_vec(),
        category: Some("Cats".into()),
        visible_in_picker: false,
    };
    let kept = app
        .custom_emojis()
        .create(again.clone(), OnTaken::Keep)
        .await
        .unwrap();
    assert_eq!(kept, Created::Kept(first.clone()));
    let Created::Stored(replaced) = app
        .custom_emojis()
        .create(again, OnTaken::Replace)
        .await
        .unwrap()
    else {
        panic!("replaced");
    };
    assert_eq!(replaced.id, first.id, "the id is kept");
    assert_eq!(replaced.category.as_deref(), Some("Cats"));
    assert_ne!(replaced.image_url, first.image_url, "a new image");
    let prefix = app.files.public_url(&app.base_url(), "");
    let old_key = first.image_url.strip_prefix(&prefix).unwrap();
    assert_eq!(
        app.files.get(old_key).await.unwrap(),
        None,
        "the old image is removed"
    );
}

#[tokio::test]
async fn disabled_emojis_are_hidden_until_enabled_again() {
    let app = app("emoji.test");
    let cat = upload(&app, "blobcat").await;
    upload(&app, "aardvark").await;
    remote(&app, "remote_only", "remote.example").await;
    assert_eq!(listed(&app).await, vec!["aardvark", "blobcat"]);
    let off = app
        .custom_emojis()
        .set_disabled(cat.id, true)
        .await
        .unwrap();
    assert!(off.disabled);
    assert_eq!(listed(&app).await, vec!["aardvark"]);
    app.custom_emojis()
        .set_disabled(cat.id, false)
        .await
        .unwrap();
    assert_eq!(listed(&app).await, vec!["aardvark", "blobcat"]);
}

#[tokio::test]
async fn staff_list_filters_and_updates() {
    let app = app("emoji.test");
    let cat = upload(&app, "blobcat").await;
    let far = remote(&app, "blobfox", "remote.example").await;
    let other = remote(&app, "parrot", "other.example").await;
    let list = |filter: CustomEmojiFilter| {
        let app = &app;
        async move {
            app.custom_emojis()
                .list(&filter, crate::pagination::Page::first(50))
                .await
                .unwrap()
                .into_iter()
                .map(|e| e.id)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        list(CustomEmojiFilter::default()).await,
        vec![other.id, far.id, cat.id],
        "newest first"
    );
    let local = CustomEmojiFilter {
        local: Some(true),
        ..Default::default()
    };
    assert_eq!(list(local).await, vec![cat.id]);
    let remote_only = CustomEmojiFilter {
        local: Some(false),
        ..Default::default()
    };
    assert_eq!(list(remote_only).await, vec![other.id, far.id]);
    let by_domain = CustomEmojiFilter {
        domain: Some("Remote.Example".into()),
        ..Default::default()
    };
    assert_eq!(list(by_domain).await, vec![far.id]);
    let search = CustomEmojiFilter {
        shortcode: Some("BLOB".into()),
        ..Default::default()
    };
    assert_eq!(list(search).await, vec![far.id, cat.id]);

    let changed = app
        .custom_emojis()
        .update(
            cat.id,
            EmojiChange {
                category: Some("  ".into()),
                visible_in_picker: Some(false),
            },
        )
        .await
        .unwrap();
    assert_eq!((changed.category, changed.visible_in_picker), (None, false));
    assert_eq!(
        status_of(app.custom_emojis().get(crate::Id::from_i64(1)).await),
        404
    );
}

#[tokio::test]
async fn remote_emojis_are_copied_and_any_can_be_deleted() {
    let app = app("emoji.test");
    let far = remote(&app, "blobfox", "remote.example").await;
    let copy = app.custom_emojis().copy(far.id).await.unwrap();
    assert_eq!(
        (copy.domain.as_deref(), copy.shortcode.as_str()),
        (None, "blobfox")
    );
    assert_ne!(copy.id, far.id);
    assert_eq!(copy.image_url, far.image_url);
    assert_eq!(listed(&app).await, vec!["blobfox"]);
    assert_eq!(
        status_of(app.custom_emojis().copy(far.id).await),
        422,
        "taken"
    );
    assert_eq!(
        status_of(app.custom_emojis().copy(copy.id).await),
        422,
        "local"
    );

    let cat = upload(&app, "blobcat").await;
    let prefix = app.files.public_url(&app.base_url(), "");
    let key = cat.image_url.strip_prefix(&prefix).unwrap().to_string();
    app.custom_emojis().delete(cat.id).await.unwrap();
    assert_eq!(
        app.files.get(&key).await.unwrap(),
        None,
        "its file is removed"
    );
    assert_eq!(status_of(app.custom_emojis().delete(cat.id).await), 404);
    app.custom_emojis().delete(far.id).await.unwrap();
    assert_eq!(listed(&app).await, vec!["blobfox"]);
}

#[tokio::test]
async fn local_statuses_accounts_and_polls_show_the_emojis_they_use() {
    let app = app("emoji.test");
    let cat = upload(&app, "blobcat").await;
    let off = upload(&app, "gone").await;
    app.custom_emojis()
        .set_disabled(off.id, true)
        .await
        .unwrap();
    remote(&app, "blobfox", "remote.example").await;
    let alice = account(&app, "alice").await;

    let s = post(
        &app,
        &alice,
        "hi :blobcat: :blobcat: :gone: :blobfox: :unknown:",
        Some(serde_json::json!({"options": ["a :blobcat:", "b"], "expires_in": 3600})),
    )
    .await;
    let shown = app.render_status(&s, None).await.unwrap();
    let codes: Vec<&str> = shown.emojis.iter().map(|e| e.shortcode.as_str()).collect();
    assert_eq!(
        codes,
        vec!["blobcat"],
        "enabled local emojis used, once each"
    );
    assert_eq!(shown.emojis[0].url, cat.image_url);
    let poll = shown.poll.expect("poll");
    assert_eq!(poll.emojis.len(), 1);

    let mut changed = alice.clone();
    changed.display_name = "Alice :blobcat:".into();
    changed.note = ":gone: bio".into();
    app.local_emojis
        .refresh_if_stale(&*app.store)
        .await
        .unwrap();
    let rendered = app.render_account(&changed);
    let codes: Vec<&str> = rendered
        .emojis
        .iter()
        .map(|e| e.shortcode.as_str())
        .collect();
    assert_eq!(codes, vec!["blobcat"]);

    let parts = app.note_parts(s.id).await.unwrap().expect("parts");
    let note = app.render_ap_note_document(&parts);
    let emoji_tags: Vec<&serde_json::Value> = note["tag"]
        .as_array()
        .expect("tags")
        .iter()
        .filter(|t| t["type"] == "Emoji")
        .collect();
    assert_eq!(emoji_tags.len(), 1, "{note}");
    assert_eq!(emoji_tags[0]["name"], ":blobcat:");
    assert_eq!(emoji_tags[0]["icon"]["url"], cat.image_url.as_str());
}
