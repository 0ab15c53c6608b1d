//! The trends area on a `MemoryStore`: the scores (fixed clocks: use against the day before,
//! the threshold of distinct accounts, the highest score kept and decayed, statuses decaying
//! from their creation), the rankings staff see, what clients are shown under each
//! [`TrendsMode`], and the reader's blocks and mutes.

use chrono::{DateTime, Duration, TimeZone, Utc};
use http::StatusCode;

use crate::App;
use crate::config::TrendsMode;
use crate::id::Id;
use crate::services::statuses::NewStatus;
use crate::services::trends::{
    STATUS_DECAY_THRESHOLD, TAG_DECAY_THRESHOLD, Trends, status_score, tag_score, usage_score,
};
use crate::store::{AccountRecord, StatusRecord, TrendKind, TrendUse};
use crate::test_support::{account, app, post_new};

/// 2026-03-10 15:00 UTC, plus `hours`.
fn at(hours: f64) -> DateTime<Utc> {
    let base = Utc.with_ymd_and_hms(2026, 3, 10, 15, 0, 0).unwrap();
    base + Duration::milliseconds((hours * 3_600_000.0) as i64)
}

/// One use by each of `accounts` (ids from `first`) at `t`.
fn uses(first: i64, accounts: i64, t: DateTime<Utc>) -> Vec<TrendUse> {
    (first..first + accounts)
        .map(|a| TrendUse {
            account_id: Id(a as u64),
            at: t,
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn usage_scores_observed_against_expected() {
    assert!(close(usage_score(10.0, 1.0, 5.0), 81.0));
    assert!(close(usage_score(10.0, 2.0, 5.0), 32.0));
    // Below the threshold, or below the expected use: nothing.
    assert_eq!(usage_score(4.0, 1.0, 5.0), 0.0);
    assert_eq!(usage_score(6.0, 8.0, 5.0), 0.0);
    // An expected use of 0 counts as 1.
    assert!(close(usage_score(5.0, 0.0, 5.0), 16.0));
}

#[test]
fn a_tag_used_by_many_accounts_today_trends_and_a_flat_one_does_not() {
    let now = at(0.0);
    // #flat: the same six accounts every day for four days.
    let mut flat = vec![];
    for back in 0..4 {
        flat.extend(uses(1, 6, now - Duration::days(back) - Duration::hours(1)));
    }
    assert_eq!(tag_score(&flat, now), 0.0);
    // #rising: one account yesterday, ten today (the last of them an hour ago).
    let mut rising = uses(1, 1, now - Duration::days(1));
    rising.extend(uses(100, 10, now - Duration::hours(1)));
    let score = tag_score(&rising, now);
    // (10 - 1)² / 1, an hour into a four-hour half-life.
    assert!(close(score, 81.0 * 0.5f64.powf(0.25)), "{score}");
    // The same accounts using it again add nothing: accounts are distinct.
    let mut again = rising.clone();
    again.extend(uses(100, 10, now - Duration::minutes(30)));
    assert!(close(tag_score(&again, now), score));
    // Uses after `now` are not counted yet.
    assert_eq!(tag_score(&uses(1, 10, now + Duration::hours(1)), now), 0.0);
}

#[test]
fn a_tag_needs_the_threshold_of_distinct_accounts() {
    let now = at(0.0);
    assert_eq!(tag_score(&uses(1, 4, now), now), 0.0);
    // Four accounts using it many times are still four.
    let mut busy = vec![];
    for _ in 0..10 {
        busy.extend(uses(1, 4, now));
    }
    assert_eq!(tag_score(&busy, now), 0.0);
    assert!(close(tag_score(&uses(1, 5, now), now), 16.0));
}

#[test]
fn a_tags_highest_score_is_kept_and_decays() {
    let now = at(0.0);
    // Yesterday: ten accounts against one the day before, the last at 15:00.
    let mut used = uses(1, 1, now - Duration::days(2));
    used.extend(uses(10, 10, now - Duration::days(1)));
    // Today: six accounts, fewer than yesterday's ten: today's own score is 0, yesterday's
    // peak is kept, 24 hours (six half-lives) later.
    used.extend(uses(100, 6, now - Duration::hours(2)));
    let score = tag_score(&used, now);
    assert!(close(score, 81.0 / 64.0), "{score}");
    // Two more hours: it decays below the threshold and the tag no longer trends.
    assert!(81.0 * 0.5f64.powf(26.0 / 4.0) < TAG_DECAY_THRESHOLD);
    assert_eq!(tag_score(&used, now + Duration::hours(2)), 0.0);
    // A peak older than the two-day cooldown is forgotten even when it would be high.
    let mut old = uses(1, 200, now - Duration::hours(49));
    old.extend(uses(1000, 1, now - Duration::hours(97)));
    assert_eq!(tag_score(&old, now), 0.0);
}

#[test]
fn a_status_score_decays_from_its_creation() {
    let now = at(0.0);
    assert_eq!(status_score(4, now, now), 0.0);
    assert!(close(status_score(5, now, now), 16.0));
    assert!(close(status_score(5, now - Duration::hours(2), now), 8.0));
    assert!(close(status_score(11, now - Duration::hours(4), now), 25.0));
    // 16 halved past 0.3: gone.
    assert!(16.0 * 0.5f64.powf(12.0 / 2.0) < STATUS_DECAY_THRESHOLD);
    assert_eq!(status_score(5, now - Duration::hours(12), now), 0.0);
}

// The area on a store.

/// `n` accounts `{prefix}1`...
async fn accounts(app: &App, prefix: &str, n: usize) -> Vec<AccountRecord> {
    let mut out = vec![];
    for i in 1..=n {
        out.push(account(app, &format!("{prefix}{i}")).await);
    }
    out
}

/// The account made discoverable (only discoverable authors' statuses trend).
async fn discoverable(app: &App, who: &AccountRecord) -> AccountRecord {
    let mut a = app.store.account_by_id(who.id).await.unwrap().unwrap();
    a.discoverable = Some(true);
    app.store.update_account(&a).await.unwrap();
    a
}

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

/// The area as `app` has it, but under `mode`.
fn area(app: &App, mode: TrendsMode) -> Trends<'_> {
    Trends::new(&*app.store, app.tags(), app.visibility(), mode, app.now())
}

fn names(views: &[crate::services::tags::TagView]) -> Vec<&str> {
    views.iter().map(|v| v.tag.name.as_str()).collect()
}

#[tokio::test]
async fn tags_trend_by_distinct_accounts_and_clients_see_approved_ones() {
    let app = app("trends.test");
    let many = accounts(&app, "fan", 6).await;
    for a in &many {
        post(&app, a, "#big").await;
    }
    for a in &many[..5] {
        post(&app, a, "#medium").await;
    }
    // Four accounts, one of them twice in a status: below the threshold.
    for a in &many[..4] {
        post(&app, a, "#small #small").await;
    }
    let ranked = app.trends().tags(0, 10).await.unwrap();
    assert_eq!(names(&ranked), ["big", "medium"]);
    assert_eq!(ranked[0].history[0].1.accounts, 6);
    assert_eq!(names(&app.trends().tags(1, 1).await.unwrap()), ["medium"]);
    assert!(app.trends().tags(2, 10).await.unwrap().is_empty());

    // Clients see only approved tags by default.
    assert!(
        app.trends()
            .public_tags(None, 0, 10)
            .await
            .unwrap()
            .is_empty()
    );
    let medium = app.store.tag_by_name("medium").await.unwrap().unwrap();
    let big = app.store.tag_by_name("big").await.unwrap().unwrap();
    app.trends().review_tag(medium.id, true).await.unwrap();
    assert_eq!(
        names(&app.trends().public_tags(None, 0, 10).await.unwrap()),
        ["medium"]
    );
    // Open: everything but what staff rejected; off: nothing.
    app.trends().review_tag(big.id, false).await.unwrap();
    let small = app.store.tag_by_name("small").await.unwrap().unwrap();
    app.trends().review_tag(small.id, true).await.unwrap();
    let open = area(&app, TrendsMode::Open);
    assert_eq!(
        names(&open.public_tags(None, 0, 10).await.unwrap()),
        ["medium"]
    );
    app.trends().review_tag(big.id, true).await.unwrap();
    assert_eq!(
        names(&app.trends().public_tags(None, 0, 10).await.unwrap()),
        ["big", "medium"]
    );
    let off = area(&app, TrendsMode::Off);
    assert!(off.public_tags(None, 0, 10).await.unwrap().is_empty());
    // Staff still see every candidate, reviewed or not.
    assert_eq!(names(&off.tags(0, 10).await.unwrap()), ["big", "medium"]);
}

#[tokio::test]
async fn tags_count_public_uses_by_accounts_in_good_standing_only() {
    let app = app("trends.test");
    let many = accounts(&app, "fan", 5).await;
    for a in &many[..4] {
        post(&app, a, "#topic").await;
    }
    // The fifth account's use is private: not counted.
    post_new(
        &app,
        &many[4],
        NewStatus {
            text: "#topic".into(),
            visibility: Some("private".into()),
            ..Default::default()
        },
    )
    .await;
    assert!(app.trends().tags(0, 10).await.unwrap().is_empty());
    post(&app, &many[4], "#topic").await;
    assert_eq!(names(&app.trends().tags(0, 10).await.unwrap()), ["topic"]);
    // Silenced: its use no longer counts.
    let mut silenced = app.store.account_by_id(many[0].id).await.unwrap().unwrap();
    silenced.silenced_at = Some(app.now());
    app.store.update_account(&silenced).await.unwrap();
    assert!(app.trends().tags(0, 10).await.unwrap().is_empty());
}

/// An author with a status favourited by `fans`.
async fn favourited(
    app: &App,
    author: &AccountRecord,
    fans: &[AccountRecord],
    text: &str,
) -> StatusRecord {
    let s = post(app, author, text).await;
    for f in fans {
        app.interactions().favourite(f, s.id).await.unwrap();
    }
    s
}

async fn public_ids(trends: &Trends<'_>, viewer: Option<&AccountRecord>) -> Vec<Id> {
    trends
        .public_statuses(viewer, 0, 20)
        .await
        .unwrap()
        .statuses
        .iter()
        .map(|s| s.id)
        .collect()
}

#[tokio::test]
async fn statuses_trend_by_interactions_of_distinct_accounts() {
    let app = app("trends.test");
    let fans = accounts(&app, "fan", 7).await;
    let author = discoverable(&app, &account(&app, "ann").await).await;
    let hidden = account(&app, "bob").await; // not discoverable
    let popular = favourited(&app, &author, &fans, "popular").await;
    // Five accounts: two favourite and three reblog.
    let liked = favourited(&app, &author, &fans[..2], "liked").await;
    for f in &fans[2..5] {
        app.statuses()
            .reblog(f, None, liked.id, None)
            .await
            .unwrap();
    }
    // Four accounts (and the author's own favourite): below the threshold.
    let quiet = favourited(&app, &author, &fans[..4], "quiet").await;
    app.interactions()
        .favourite(&author, quiet.id)
        .await
        .unwrap();
    favourited(&app, &hidden, &fans, "by someone not discoverable").await;
    let ranked: Vec<Id> = app
        .trends()
        .statuses(0, 10)
        .await
        .unwrap()
        .iter()
        .map(|v| v.status.id)
        .collect();
    assert_eq!(ranked, [popular.id, liked.id]);
    assert!(app.trends().statuses(0, 10).await.unwrap()[0].requires_review);

    // Clients: approved ones only, unless open.
    assert!(public_ids(&app.trends(), None).await.is_empty());
    app.trends().review_status(liked.id, true).await.unwrap();
    assert_eq!(public_ids(&app.trends(), None).await, [liked.id]);
    assert_eq!(
        public_ids(&area(&app, TrendsMode::Open), None).await,
        [popular.id, liked.id]
    );
    app.trends().review_status(popular.id, false).await.unwrap();
    assert_eq!(
        public_ids(&area(&app, TrendsMode::Open), None).await,
        [liked.id]
    );
    assert!(
        public_ids(&area(&app, TrendsMode::Off), None)
            .await
            .is_empty()
    );
    // Reviewed: no longer requires review.
    assert!(
        app.trends()
            .statuses(0, 10)
            .await
            .unwrap()
            .iter()
            .all(|v| !v.requires_review)
    );
}

#[tokio::test]
async fn trending_statuses_leave_out_what_the_reader_blocks_or_mutes() {
    let app = app("trends.test");
    let fans = accounts(&app, "fan", 5).await;
    let ann = discoverable(&app, &account(&app, "ann").await).await;
    let bob = discoverable(&app, &account(&app, "bob").await).await;
    let reader = account(&app, "reader").await;
    let muter = account(&app, "muter").await;
    let by_ann = favourited(&app, &ann, &fans, "ann's").await;
    let by_bob = favourited(&app, &bob, &fans, "bob's").await;
    let sensitive = post_new(
        &app,
        &bob,
        NewStatus {
            text: "careful".into(),
            visibility: Some("public".into()),
            spoiler_text: "cw".into(),
            ..Default::default()
        },
    )
    .await;
    for f in &fans {
        app.interactions().favourite(f, sensitive.id).await.unwrap();
    }
    let trends = area(&app, TrendsMode::Open);
    let both = public_ids(&trends, None).await;
    assert_eq!(both.len(), 2);
    assert!(both.contains(&by_ann.id) && both.contains(&by_bob.id));
    app.blocks().block(&reader, ann.id).await.unwrap();
    assert_eq!(public_ids(&trends, Some(&reader)).await, [by_bob.id]);
    app.blocks().mute(&muter, bob.id, true, 0).await.unwrap();
    assert_eq!(public_ids(&trends, Some(&muter)).await, [by_ann.id]);
    // Pages by offset: the second of two.
    let second = trends.public_statuses(None, 1, 1).await.unwrap().statuses;
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].id, both[1]);
    assert!(
        trends
            .public_statuses(None, 2, 1)
            .await
            .unwrap()
            .statuses
            .is_empty()
    );
}

#[tokio::test]
async fn reviewing_a_status_records_it() {
    let app = app("trends.test");
    let (a, fan) = (account(&app, "ann").await, account(&app, "fan").await);
    let s = post(&app, &a, "hello").await;
    let approved = app.trends().review_status(s.id, true).await.unwrap();
    assert_eq!(approved.status.id, s.id);
    assert!(!approved.requires_review);
    let moderation = app.store.moderation().unwrap();
    let reviews = moderation
        .trend_reviews(TrendKind::Status, &[s.id])
        .await
        .unwrap();
    assert_eq!(reviews.len(), 1);
    assert!(reviews[0].trendable);
    app.trends().review_status(s.id, false).await.unwrap();
    let reviews = moderation
        .trend_reviews(TrendKind::Status, &[s.id, s.id])
        .await
        .unwrap();
    assert_eq!(reviews.len(), 1, "one review per status, the latest");
    assert!(!reviews[0].trendable);

    // Unknown, private and reblogs: 404.
    let private = post_new(
        &app,
        &a,
        NewStatus {
            text: "secret".into(),
            visibility: Some("private".into()),
            ..Default::default()
        },
    )
    .await;
    let reblog = app.statuses().reblog(&fan, None, s.id, None).await.unwrap();
    for id in [Id(42), private.id, reblog.id] {
        let err = app.trends().review_status(id, true).await.unwrap_err();
        assert_eq!(err.status, StatusCode::NOT_FOUND);
    }
}

/// A store without moderation data: staff rankings and status reviews answer 404; clients see
/// empty lists; tag reviews (kept on the tag) still work.
#[tokio::test]
async fn without_moderation_data_staff_get_404_and_clients_nothing() {
    let app = app("trends.test");
    let a = account(&app, "ann").await;
    let s = post(&app, &a, "#topic").await;
    let without = app.trends().without_moderation();
    let errors = [
        without.tags(0, 10).await.map(|_| ()).unwrap_err(),
        without.statuses(0, 10).await.map(|_| ()).unwrap_err(),
        without
            .review_status(s.id, true)
            .await
            .map(|_| ())
            .unwrap_err(),
    ];
    for err in errors {
        assert_eq!(err.status, StatusCode::NOT_FOUND);
    }
    assert!(without.public_tags(None, 0, 10).await.unwrap().is_empty());
    assert!(
        without
            .public_statuses(None, 0, 10)
            .await
            .unwrap()
            .statuses
            .is_empty()
    );
    let tag = app.store.tag_by_name("topic").await.unwrap().unwrap();
    assert!(without.review_tag(tag.id, true).await.is_ok());
}
