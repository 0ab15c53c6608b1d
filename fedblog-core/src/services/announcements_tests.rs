//! The announcements area: what users are shown (published, not ended, chronological, with
//! `read` and reactions), dismissal, reactions (Unicode and custom emojis, 422 for anything
//! else, the limit of names), staff changes with their checks, the text's lists, and the
//! streaming events.

use chrono::{Duration, Utc};
use http::StatusCode;
use serde_json::Value;

use crate::events::DomainEvent;
use crate::render::render_announcement;
use crate::services::announcements::{AnnouncementChange, REACTION_LIMIT, is_unicode_emoji};
use crate::store::{CustomEmojiRecord, MediaStore};
use crate::streaming::{Channel, Grants, Outgoing};
use crate::test_support::{account, app, post};
use crate::{App, Id};

fn text(t: &str) -> AnnouncementChange {
    AnnouncementChange {
        text: Some(t.into()),
        ..Default::default()
    }
}

fn published(t: &str) -> AnnouncementChange {
    AnnouncementChange {
        publish: Some(true),
        ..text(t)
    }
}

async fn emoji(app: &App, shortcode: &str, disabled: bool) -> CustomEmojiRecord {
    let e = CustomEmojiRecord {
        id: app.ids.next(),
        shortcode: shortcode.into(),
        domain: None,
        uri: None,
        image_url: format!("https://files.example/{shortcode}.png"),
        static_url: format!("https://files.example/{shortcode}_static.png"),
        visible_in_picker: true,
        category: None,
        disabled,
        updated_at: Utc::now(),
    };
    MediaStore::save_custom_emojis(&*app.store, std::slice::from_ref(&e))
        .await
        .expect("saved");
    e
}

fn status_of<T: std::fmt::Debug>(r: crate::ApiResult<T>) -> StatusCode {
    r.expect_err("an error").status
}

#[tokio::test]
async fn drafts_are_hidden_until_published_and_listed_chronologically() {
    let app = app("ann.test");
    let alice = account(&app, "alice").await;
    let area = app.announcements();
    let draft = area.create(text("later")).await.expect("draft");
    assert!(!draft.published);
    assert!(area.list_for(&alice, true).await.expect("list").is_empty());
    let soon = area
        .create(AnnouncementChange {
            starts_at: Some("2001-01-01T00:00:00Z".into()),
            ends_at: Some("2999-01-02T00:00:00Z".into()),
            all_day: Some(true),
            ..published("an event")
        })
        .await
        .expect("made");
    area.publish_announcement(draft.id)
        .await
        .expect("published");
    let listed = area.list_for(&alice, true).await.expect("list");
    let ids: Vec<Id> = listed.iter().map(|v| v.record.id).collect();
    // By starts_at, else published_at: the event (2001) before the draft published now.
    assert_eq!(ids, vec![soon.id, draft.id]);
    assert_eq!(listed[1].content, "<p>later</p>");
    assert_eq!(listed[0].read, Some(false));
    let json = serde_json::to_value(render_announcement(&app.base_url(), &listed[0])).unwrap();
    assert_eq!(json["all_day"], Value::Bool(true));
    assert_eq!(json["starts_at"], "2001-01-01T00:00:00.000Z");
    assert_eq!(json["read"], Value::Bool(false));
    for field in ["mentions", "statuses", "tags", "emojis", "reactions"] {
        assert!(json[field].is_array(), "{field}");
    }

    area.unpublish(draft.id).await.expect("unpublished");
    let ids: Vec<Id> = area
        .list_for(&alice, true)
        .await
        .expect("list")
        .iter()
        .map(|v| v.record.id)
        .collect();
    assert_eq!(ids, vec![soon.id]);
    // Staff still see the draft.
    assert_eq!(area.all().await.expect("all").len(), 2);
}

#[tokio::test]
async fn ended_announcements_are_not_shown() {
    let app = app("ann.test");
    let alice = account(&app, "alice").await;
    let past = (Utc::now() - Duration::days(2)).to_rfc3339();
    let ended = (Utc::now() - Duration::days(1)).to_rfc3339();
    let a = app
        .announcements()
        .create(AnnouncementChange {
            starts_at: Some(past),
            ends_at: Some(ended),
            ..published("over")
        })
        .await
        .expect("made");
    assert!(a.published);
    let listed = app.announcements().list_for(&alice, true).await.unwrap();
    assert!(listed.is_empty());
}

#[tokio::test]
async fn dismissal_is_per_user_and_with_dismissed_false_hides_read_ones() {
    let app = app("ann.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let area = app.announcements();
    let a = area.create(published("hello")).await.unwrap();
    area.dismiss(&alice, a.id).await.expect("dismissed");
    area.dismiss(&alice, a.id).await.expect("dismissed again");
    assert_eq!(
        area.list_for(&alice, true).await.unwrap()[0].read,
        Some(true)
    );
    assert_eq!(
        area.list_for(&bob, true).await.unwrap()[0].read,
        Some(false)
    );
    assert!(area.list_for(&alice, false).await.unwrap().is_empty());
    assert_eq!(area.list_for(&bob, false).await.unwrap().len(), 1);

    assert_eq!(
        status_of(area.dismiss(&alice, Id(12345)).await),
        StatusCode::NOT_FOUND
    );
    let draft = area.create(text("draft")).await.unwrap();
    assert_eq!(
        status_of(area.dismiss(&alice, draft.id).await),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn reactions_count_per_name_with_me_and_go_away() {
    let app = app("ann.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    // A new area per request, as requests make them: each reaction is dated when made.
    let area = || app.announcements();
    let a = area().create(published("react")).await.unwrap();
    area().react(&alice, a.id, "👍").await.expect("reacted");
    area()
        .react(&alice, a.id, "👍")
        .await
        .expect("again: no change");
    area().react(&bob, a.id, "👍").await.expect("reacted");
    area().react(&bob, a.id, "🎉").await.expect("reacted");
    let mine = &area().list_for(&alice, true).await.unwrap()[0];
    let got: Vec<(String, u64, bool)> = mine
        .reactions
        .iter()
        .map(|(r, _)| (r.name.clone(), r.count, r.me))
        .collect();
    assert_eq!(
        got,
        vec![("👍".to_string(), 2, true), ("🎉".to_string(), 1, false)]
    );
    area()
        .unreact(&alice, a.id, "👍")
        .await
        .expect("taken back");
    assert_eq!(
        status_of(area().unreact(&alice, a.id, "👍").await),
        StatusCode::NOT_FOUND
    );
    let mine = &area().list_for(&alice, true).await.unwrap()[0];
    assert_eq!(mine.reactions[0].0.count, 1);
    assert!(!mine.reactions[0].0.me);
    assert_eq!(
        status_of(area().react(&alice, Id(999), "👍").await),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn reaction_names_are_unicode_or_enabled_local_custom_emojis() {
    let app = app("ann.test");
    let alice = account(&app, "alice").await;
    emoji(&app, "blobcat", false).await;
    emoji(&app, "gone", true).await;
    let area = app.announcements();
    let a = area.create(published("names")).await.unwrap();
    for bad in ["notanemoji", "gone", "", "👍👍", "a"] {
        assert_eq!(
            status_of(area.react(&alice, a.id, bad).await),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad:?}"
        );
    }
    area.react(&alice, a.id, "blobcat").await.expect("custom");
    area.react(&alice, a.id, "👍🏽").await.expect("skin tone");
    area.react(&alice, a.id, "❤️")
        .await
        .expect("qualified heart");
    let v = &area.list_for(&alice, true).await.unwrap()[0];
    let json = serde_json::to_value(render_announcement(&app.base_url(), v)).unwrap();
    assert_eq!(json["reactions"][0]["name"], "blobcat");
    assert_eq!(
        json["reactions"][0]["url"],
        "https://files.example/blobcat.png"
    );
    assert_eq!(json["reactions"][0]["me"], Value::Bool(true));
    assert!(json["reactions"][1].get("url").is_none());
    assert!(is_unicode_emoji("😀") && !is_unicode_emoji("x"));
}

#[tokio::test]
async fn an_announcement_takes_a_limited_number_of_names() {
    let app = app("ann.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let area = app.announcements();
    let a = area.create(published("many")).await.unwrap();
    let names = ["😀", "😁", "😂", "🤣", "😃", "😄", "😅", "😆", "😉"];
    for name in &names[..REACTION_LIMIT] {
        area.react(&alice, a.id, name)
            .await
            .expect("within the limit");
    }
    assert_eq!(
        status_of(area.react(&alice, a.id, names[REACTION_LIMIT]).await),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // A name already used still takes more accounts.
    area.react(&bob, a.id, names[0]).await.expect("a used name");
}

#[tokio::test]
async fn the_text_fills_mentions_tags_statuses_and_emojis() {
    let app = app("ann.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    emoji(&app, "blobcat", false).await;
    let s = post(&app, &bob, "a post", None).await;
    let body = format!(
        "Hi @bob, see #News and https://ann.test/@bob/{} :blobcat: :nope:",
        s.id
    );
    let area = app.announcements();
    area.create(published(&body)).await.unwrap();
    let v = &area.list_for(&alice, true).await.unwrap()[0];
    let json = serde_json::to_value(render_announcement(&app.base_url(), v)).unwrap();
    assert_eq!(json["mentions"][0]["username"], "bob");
    assert_eq!(json["mentions"][0]["acct"], "bob");
    assert_eq!(json["mentions"][0]["id"], bob.id.to_string());
    assert_eq!(json["tags"][0]["name"], "news");
    assert_eq!(
        json["tags"][0]["url"],
        format!("{}/tags/news", app.base_url())
    );
    assert_eq!(json["statuses"][0]["id"], s.id.to_string());
    assert_eq!(json["emojis"].as_array().map(Vec::len), Some(1));
    assert_eq!(json["emojis"][0]["shortcode"], "blobcat");
    let content = json["content"].as_str().unwrap();
    assert!(content.contains("class=\"u-url mention\""), "{content}");
    assert!(content.contains("rel=\"tag\""), "{content}");
}

#[tokio::test]
async fn staff_changes_are_checked() {
    let app = app("ann.test");
    let area = app.announcements();
    assert_eq!(
        status_of(area.create(text("   ")).await),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let half = AnnouncementChange {
        starts_at: Some("2030-01-01T00:00:00Z".into()),
        ..text("half a range")
    };
    assert_eq!(
        status_of(area.create(half).await),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let backwards = AnnouncementChange {
        starts_at: Some("2030-01-02T00:00:00Z".into()),
        ends_at: Some("2030-01-01T00:00:00Z".into()),
        ..text("backwards")
    };
    assert_eq!(
        status_of(area.create(backwards).await),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let bad_time = AnnouncementChange {
        starts_at: Some("tomorrow".into()),
        ends_at: Some("later".into()),
        ..text("bad time")
    };
    assert_eq!(
        status_of(area.create(bad_time).await),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // all_day without a range is false.
    let a = area
        .create(AnnouncementChange {
            all_day: Some(true),
            ..text("no range")
        })
        .await
        .unwrap();
    assert!(!a.all_day);
    let changed = area.update(a.id, text("new text")).await.unwrap();
    assert_eq!(changed.text, "new text");
    assert_eq!(area.get(a.id).await.unwrap().text, "new text");
    area.delete(a.id).await.expect("deleted");
    assert_eq!(status_of(area.get(a.id).await), StatusCode::NOT_FOUND);
    assert_eq!(status_of(area.delete(a.id).await), StatusCode::NOT_FOUND);
    assert_eq!(
        status_of(area.update(a.id, text("x")).await),
        StatusCode::NOT_FOUND
    );
}

/// Streams every domain event published since `events` was made.
async fn stream(app: &App, events: &mut crate::events::Subscription) {
    while let Some(e) = events.try_recv() {
        let domain = DomainEvent::from_event(&e).expect("a domain event");
        app.stream_event(&domain).await.expect("streamed");
    }
}

#[tokio::test]
async fn every_user_stream_is_told_of_announcements() {
    let app = app("ann.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let mut events = app.events.subscribe();
    let conn = app
        .streams
        .connect(
            Some(alice.clone()),
            Some(Id(alice.id.0 + 1)),
            Grants::of("read"),
            vec![Channel::User],
        )
        .expect("connected");
    let area = app.announcements();
    let a = area.create(published("streamed")).await.unwrap();
    stream(&app, &mut events).await;
    area.react(&bob, a.id, "👍").await.unwrap();
    area.dismiss(&alice, a.id).await.unwrap();
    stream(&app, &mut events).await;
    area.unpublish(a.id).await.unwrap();
    stream(&app, &mut events).await;
    let got: Vec<(String, String)> = std::iter::from_fn(|| conn.try_recv())
        .map(|m| match m {
            Outgoing::Event { event, payload, .. } => (event, payload),
            Outgoing::Error { status, error } => panic!("an error {status}: {error}"),
        })
        .collect();
    let names: Vec<&str> = got.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "announcement",
            "announcement.reaction",
            "announcement.delete"
        ]
    );
    let first: Value = serde_json::from_str(&got[0].1).unwrap();
    assert_eq!(first["id"], a.id.to_string());
    assert_eq!(first["read"], Value::Bool(false));
    let reaction: Value = serde_json::from_str(&got[1].1).unwrap();
    assert_eq!(reaction["name"], "👍");
    assert_eq!(reaction["count"], 1);
    assert_eq!(reaction["announcement_id"], a.id.to_string());
    assert_eq!(got[2].1, a.id.to_string());
}
