//! The admin dashboard's figures on a `MemoryStore`: days read from requests, distinct and
//! summed totals, the previous range, per-server totals of all time, dimensions named and cut
//! at their limit, retention cohorts and their rates, and the activity a request records
//! (once a day per process, a failure never failing the request).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use http::StatusCode;
use serde_json::{Map, Value, json};

use crate::api::Endpoint;
use crate::api::accounts::verify_credentials::VerifyCredentials;
use crate::api::admin_metrics::dimensions::GetDimensions;
use crate::api::admin_metrics::measures::GetMeasures;
use crate::api::admin_metrics::retention::GetRetention;
use crate::app::{Request, RequestInfo};
use crate::error::{StoreError, StoreResult};
use crate::id::Id;
use crate::params::Params;
use crate::scope::Scopes;
use crate::services::metrics::{
    ActivityMemory, CohortPoint, DayRange, DimensionValue, Frequency, Metrics, language_name,
};
use crate::store::{
    AccountRecord, DimensionKind, MeasureEvent, MeasureKind, SignUpRecord, StatsStore,
    StatusRecord, StorageUsage, Store, UserRecord, WeekActivity, midnight,
};
use crate::{App, InstanceConfig, MemoryStore, test_support};

/// A day of May 2024.
fn may(day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 5, day).expect("a day of May")
}

/// Noon of a day.
fn noon(day: NaiveDate) -> DateTime<Utc> {
    midnight(day) + Duration::hours(12)
}

/// The days from `first` to `last`, both of May 2024.
fn range(first: u32, last: u32) -> DayRange {
    DayRange {
        first: may(first),
        last: may(last),
    }
}

/// Per-key parameters as a request carries them.
fn params(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// Keys as a request names them.
fn keys(k: &[&str]) -> Vec<String> {
    k.iter().map(|s| s.to_string()).collect()
}

/// The area of `app` as if it were noon of `day`.
fn metrics_on<'a>(app: &'a App, memory: &'a ActivityMemory, day: NaiveDate) -> Metrics<'a> {
    Metrics::new(&*app.store, memory, &app.config.domain, noon(day))
}

/// A local account with a login made at `at`.
async fn local_made_at(app: &App, name: &str, at: DateTime<Utc>) -> AccountRecord {
    let id = app.ids.next_at(at.timestamp_millis());
    let account = AccountRecord::new_local(id, name, at);
    let user = UserRecord {
        account_id: id,
        email: format!("{name}@example.test"),
        password_hash: String::new(),
        role: crate::store::Role::User,
        confirmed_at: Some(at),
        confirmation_token_hash: None,
        approved: true,
        disabled: false,
        locale: "en".into(),
        created_at: at,
    };
    app.store
        .insert_local_account(&account, &user)
        .await
        .expect("insert_local_account");
    account
}

/// A remote account `name@domain` made at `at`.
async fn remote_made_at(app: &App, name: &str, domain: &str, at: DateTime<Utc>) -> AccountRecord {
    let mut a = AccountRecord::new_local(app.ids.next_at(at.timestamp_millis()), name, at);
    a.domain = Some(domain.into());
    a.uri = Some(format!("https://{domain}/users/{name}"));
    app.store
        .insert_remote_account(&a)
        .await
        .expect("insert_remote_account");
    a
}

/// A status by `author` at `at` with `tags` and `language`, stored as given.
async fn status_at(
    app: &App,
    author: &AccountRecord,
    at: DateTime<Utc>,
    tags: &[&str],
    language: Option<&str>,
) -> StatusRecord {
    let s = StatusRecord {
        id: app.ids.next_at(at.timestamp_millis()),
        account_id: author.id,
        uri: None,
        text: "text".into(),
        content: "<p>text</p>".into(),
        spoiler_text: String::new(),
        visibility: crate::store::Visibility::Public,
        sensitive: false,
        language: language.map(Into::into),
        in_reply_to_id: None,
        in_reply_to_account_id: None,
        application_id: None,
        mentions: vec![],
        tags: tags.iter().map(|t| t.to_string()).collect(),
        media_ids: vec![],
        idempotency_key: None,
        local: author.is_local(),
        created_at: at,
        edited_at: None,
        reblog_of_id: None,
        conversation_id: None,
        replies_count: 0,
        reblogs_count: 0,
        favourites_count: 0,
    };
    app.store.insert_status(&s).await.expect("insert_status");
    s
}

#[test]
fn dates_are_read_as_written_and_ranges_are_bounded() {
    let r = DayRange::parse(Some("2024-05-01"), Some("2024-05-03T23:30:00-05:00")).expect("range");
    assert_eq!((r.first, r.last, r.days()), (may(1), may(3), 3));
    let r = DayRange::parse(Some("2024-05-01 10:00:00"), Some("2024-05-01T10:00:00Z"))
        .expect("one day");
    assert_eq!(r.days(), 1);
    assert_eq!(
        r.previous(),
        DayRange {
            first: may(1) - Duration::days(1),
            last: may(1) - Duration::days(1),
        }
    );
    assert_eq!(
        range(1, 3).previous(),
        DayRange {
            first: NaiveDate::from_ymd_opt(2024, 4, 28).expect("day"),
            last: NaiveDate::from_ymd_opt(2024, 4, 30).expect("day"),
        }
    );
    for (start, end) in [
        (None, Some("2024-05-01")),
        (Some("yesterday"), Some("2024-05-01")),
        (Some("2024-02-30"), Some("2024-05-01")),
        (Some("10000-01-01"), Some("10000-01-02")),
    ] {
        let e = DayRange::parse(start, end).expect_err("an unreadable date");
        assert_eq!(
            (e.status, e.message.as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, "Invalid date supplied"),
            "{start:?}..{end:?}"
        );
    }
    let backwards = DayRange::parse(Some("2024-05-02"), Some("2024-05-01")).expect_err("backwards");
    assert_eq!(backwards.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        DayRange::parse(Some("2024-01-01"), Some("2024-12-31")).is_ok(),
        "366 days"
    );
    let long = DayRange::parse(Some("2024-01-01"), Some("2025-01-01")).expect_err("367 days");
    assert_eq!(long.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        DayRange::parse_unbounded(Some("2020-01-01"), Some("2025-01-01")).is_ok(),
        "retention bounds its periods, not its days"
    );
}

#[tokio::test]
async fn active_users_count_accounts_once_per_day_and_once_over_the_range() {
    let app = test_support::app("metrics.test");
    let memory = ActivityMemory::default();
    let alice = test_support::account(&app, "alice").await;
    let bob = test_support::account(&app, "bob").await;
    let carol = test_support::account(&app, "carol").await;
    for (who, day) in [
        (&alice, 1),
        (&alice, 1),
        (&alice, 2),
        (&bob, 2),
        (&carol, 29),
    ] {
        let day = if day == 29 {
            NaiveDate::from_ymd_opt(2024, 4, 29).expect("day")
        } else {
            may(day)
        };
        metrics_on(&app, &memory, day).record_activity(who.id).await;
    }
    let got = metrics_on(&app, &memory, may(9))
        .measures(&keys(&["active_users"]), range(1, 3), &Map::new())
        .await
        .expect("measures");
    assert_eq!(got.len(), 1);
    let m = &got[0];
    assert_eq!(m.key, "active_users");
    assert_eq!(m.data, vec![(may(1), 1), (may(2), 2), (may(3), 0)]);
    assert_eq!(m.total, 2, "alice and bob, each once over the range");
    assert_eq!(m.previous_total, Some(1), "carol, in the three days before");
    assert_eq!(m.unit, None);
}

#[tokio::test]
async fn measures_come_in_the_order_asked_once_each_without_unknown_keys() {
    let app = test_support::app("metrics.test");
    let memory = ActivityMemory::default();
    local_made_at(&app, "early", noon(may(2))).await;
    local_made_at(&app, "before", noon(may(1)) - Duration::days(3)).await;
    let got = metrics_on(&app, &memory, may(9))
        .measures(
            &keys(&["new_users", "nope", "interactions", "new_users"]),
            range(1, 3),
            &Map::new(),
        )
        .await
        .expect("measures");
    let names: Vec<&str> = got.iter().map(|m| m.key).collect();
    assert_eq!(names, vec!["new_users", "interactions"]);
    assert_eq!(got[0].total, 1);
    assert_eq!(got[0].previous_total, Some(1));
    assert_eq!(got[0].data, vec![(may(1), 0), (may(2), 1), (may(3), 0)]);
}

#[tokio::test]
async fn per_key_parameters_are_required_and_tags_must_exist() {
    let app = test_support::app("metrics.test");
    let memory = ActivityMemory::default();
    let m = metrics_on(&app, &memory, may(9));
    let missing = m
        .measures(&keys(&["tag_accounts"]), range(1, 3), &Map::new())
        .await
        .expect_err("no tag_accounts[id]");
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    let unknown = m
        .measures(
            &keys(&["tag_uses"]),
            range(1, 3),
            &params(json!({"tag_uses": {"id": "999"}})),
        )
        .await
        .expect_err("no such tag");
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let no_domain = m
        .dimensions(
            &keys(&["instance_languages"]),
            range(1, 3),
            None,
            &params(json!({"instance_languages": {"include_subdomains": "true"}})),
        )
        .await
        .expect_err("no domain");
    assert_eq!(no_domain.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn tag_measures_count_uses_accounts_and_servers() {
    let app = test_support::app("metrics.test");
    let memory = ActivityMemory::default();
    let alice = test_support::account(&app, "alice").await;
    let bob = test_support::account(&app, "bob").await;
    let far = remote_made_at(&app, "far", "far.example", noon(may(1))).await;
    for (who, day) in [(&alice, 1), (&alice, 2), (&bob, 2), (&far, 3)] {
        status_at(&app, who, noon(may(day)), &["rust"], None).await;
    }
    status_at(&app, &bob, noon(may(2)), &["other"], None).await;
    let tag = app
        .store
        .find_or_create_tag(&crate::store::TagRecord {
            id: app.ids.next(),
            name: "rust".into(),
            display_name: "Rust".into(),
            created_at: noon(may(1)),
            review: Default::default(),
        })
        .await
        .expect("tag");
    let id = tag.id.to_string();
    let p = params(json!({
        "tag_uses": {"id": id},
        "tag_accounts": {"id": id},
        "tag_servers": {"id": id},
    }));
    let got = metrics_on(&app, &memory, may(9))
        .measures(
            &keys(&["tag_uses", "tag_accounts", "tag_servers"]),
            range(1, 3),
            &p,
        )
        .await
        .expect("measures");
    let totals: Vec<(&str, i64)> = got.iter().map(|m| (m.key, m.total)).collect();
    assert_eq!(
        totals,
        vec![("tag_uses", 4), ("tag_accounts", 3), ("tag_servers", 2)]
    );
    assert_eq!(got[1].data, vec![(may(1), 1), (may(2), 2), (may(3), 1)]);
}

#[tokio::test]
async fn server_measures_total_all_time_and_have_no_previous_total() {
    let app = test_support::app("metrics.test");
    let memory = ActivityMemory::default();
    remote_made_at(
        &app,
        "old",
        "example.com",
        noon(may(1)) - Duration::days(40),
    )
    .await;
    let new = remote_made_at(&app, "new", "Example.com", noon(may(2))).await;
    remote_made_at(&app, "sub", "a.example.com", noon(may(2))).await;
    let mut upload = crate::store::MediaRecord {
        id: app.ids.next_at(noon(may(2)).timestamp_millis()),
        account_id: new.id,
        status_id: None,
        scheduled_status_id: None,
        kind: crate::store::MediaKind::Image,
        file_key: "k".into(),
        file_size: 2048,
        preview_key: None,
        thumbnail_key: None,
        description: None,
        focus: None,
        meta: "{}".into(),
        blurhash: None,
        processed: true,
        remote_url: None,
        created_at: noon(may(2)),
    };
    app.store.insert_media(&upload).await.expect("insert_media");
    upload.id = app.ids.next();
    upload.file_size = 1024;
    upload.created_at = noon(may(1)) - Duration::days(40);
    app.store.insert_media(&upload).await.expect("insert_media");
    let p = params(json!({
        "instance_accounts": {"domain": "EXAMPLE.com", "include_subdomains": "true"},
        "instance_media_attachments": {"domain": "example.com"},
    }));
    let got = metrics_on(&app, &memory, may(9))
        .measures(
            &keys(&["instance_accounts", "instance_media_attachments"]),
            range(1, 3),
            &p,
        )
        .await
        .expect("measures");
    assert_eq!(
        got[0].total, 3,
        "all the accounts, of all time, subdomains asked"
    );
    assert_eq!(got[0].previous_total, None);
    assert_eq!(got[0].data, vec![(may(1), 0), (may(2), 2), (may(3), 0)]);
    assert_eq!(got[1].unit, Some("bytes"));
    assert_eq!(got[1].total, 3072);
    assert_eq!(got[1].data[1], (may(2), 2048));
    let rendered = app.render_admin_measure(&got[1]);
    assert_eq!(rendered.human_value.as_deref(), Some("3 KB"));
    assert_eq!(rendered.previous_total, None);
    assert_eq!(rendered.data[1].date, "2024-05-02T00:00:00Z");
}

#[tokio::test]
async fn dimensions_name_their_groups_and_keep_to_the_limit() {
    let app = test_support::app("metrics.test");
    let memory = ActivityMemory::default();
    let alice = test_support::account(&app, "alice").await;
    let a = remote_made_at(&app, "a", "a.example", noon(may(1))).await;
    let b = remote_made_at(&app, "b", "b.example", noon(may(1))).await;
    for (who, n, language) in [
        (&alice, 3, Some("en")),
        (&a, 2, None),
        (&b, 1, Some("pt-BR")),
    ] {
        for _ in 0..n {
            status_at(&app, who, noon(may(2)), &[], language).await;
        }
    }
    metrics_on(&app, &memory, may(2))
        .record_activity(alice.id)
        .await;
    let m = metrics_on(&app, &memory, may(9));
    let got = m
        .dimensions(
            &keys(&[
                "servers",
                "languages",
                "sources",
                "space_usage",
                "software_versions",
                "x",
            ]),
            range(1, 3),
            Some(2),
            &Map::new(),
        )
        .await
        .expect("dimensions");
    let names: Vec<&str> = got.iter().map(|d| d.key).collect();
    assert_eq!(
        names,
        vec![
            "servers",
            "languages",
            "sources",
            "space_usage",
            "software_versions"
        ]
    );
    let rows = |i: usize| {
        got[i]
            .rows
            .iter()
            .map(|r| (r.key.as_str(), r.human_key.as_str(), r.value.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        rows(0),
        vec![
            ("metrics.test", "metrics.test", DimensionValue::Count(3)),
            ("a.example", "a.example", DimensionValue::Count(2)),
        ],
        "local statuses under the server's domain; two groups at limit 2"
    );
    assert_eq!(rows(1), vec![("en", "English", DimensionValue::Count(1))]);
    assert_eq!(rows(2), vec![], "no login was made in the range");
    assert_eq!(
        rows(3),
        vec![("media", "Media storage", DimensionValue::Bytes(0))],
        "the memory store has no database size"
    );
    assert_eq!(got[4].rows[0].key, "mastodon");
    assert_eq!(got[4].rows[1].key, "fedblog");
    let all = m
        .dimensions(
            &keys(&["instance_languages"]),
            range(1, 3),
            Some(0),
            &params(json!({"instance_languages": {"domain": "b.example"}})),
        )
        .await
        .expect("dimensions");
    assert_eq!(
        all[0]
            .rows
            .iter()
            .map(|r| (r.key.as_str(), r.human_key.as_str()))
            .collect::<Vec<_>>(),
        vec![("pt-BR", "Portuguese (BR)")],
        "a limit below 1 is 1"
    );
    let unknown_language = m
        .dimensions(
            &keys(&["instance_languages"]),
            range(1, 3),
            None,
            &params(json!({"instance_languages": {"domain": "a.example"}})),
        )
        .await
        .expect("dimensions");
    assert_eq!(unknown_language[0].rows[0].key, "und");
    assert_eq!(unknown_language[0].rows[0].human_key, "Unknown");
    local_made_at(&app, "site", noon(may(5))).await;
    let sources = m
        .dimensions(&keys(&["sources"]), range(1, 31), None, &Map::new())
        .await
        .expect("dimensions");
    let sources: Vec<(&str, &str, DimensionValue)> = sources[0]
        .rows
        .iter()
        .map(|r| (r.key.as_str(), r.human_key.as_str(), r.value.clone()))
        .collect();
    assert_eq!(
        sources,
        vec![("web", "Website", DimensionValue::Count(1))],
        "a login made without an app's token comes from the website"
    );
    assert_eq!(language_name("xx"), "xx");
}

#[tokio::test]
async fn retention_follows_each_cohort_to_the_last_period() {
    let app = test_support::app("metrics.test");
    let memory = ActivityMemory::default();
    let u1 = local_made_at(&app, "u1", noon(may(1))).await;
    let u2 = local_made_at(&app, "u2", noon(may(1))).await;
    local_made_at(&app, "u3", noon(may(1))).await;
    let u4 = local_made_at(&app, "u4", noon(may(2))).await;
    for (who, day) in [(&u1, 1), (&u1, 3), (&u2, 1), (&u4, 2)] {
        metrics_on(&app, &memory, may(day))
            .record_activity(who.id)
            .await;
    }
    let m = metrics_on(&app, &memory, may(9));
    let cohorts = m
        .retention(range(1, 3), Frequency::Day)
        .await
        .expect("retention");
    let point = |day: u32, value: i64, rate: f64| CohortPoint {
        date: may(day),
        rate,
        value,
    };
    assert_eq!(cohorts.len(), 3);
    assert_eq!(cohorts[0].period, may(1));
    assert_eq!(
        cohorts[0].data,
        vec![
            point(1, 2, 2.0 / 3.0),
            point(2, 1, 1.0 / 3.0),
            point(3, 1, 1.0 / 3.0)
        ]
    );
    assert_eq!(cohorts[1].data, vec![point(2, 1, 1.0), point(3, 0, 0.0)]);
    assert_eq!(cohorts[2].data, vec![point(3, 0, 0.0)], "an empty cohort");
    let rendered = app.render_admin_cohort(&cohorts[1]);
    assert_eq!(rendered.period, "2024-05-02T00:00:00Z");
    assert_eq!(rendered.frequency, "day");
    assert_eq!(rendered.data[0].value, "1");

    let monthly = m
        .retention(
            DayRange::parse_unbounded(Some("2024-03-15"), Some("2024-05-02")).expect("range"),
            Frequency::Month,
        )
        .await
        .expect("retention");
    let periods: Vec<NaiveDate> = monthly.iter().map(|c| c.period).collect();
    assert_eq!(
        periods,
        vec![
            NaiveDate::from_ymd_opt(2024, 3, 1).expect("day"),
            NaiveDate::from_ymd_opt(2024, 4, 1).expect("day"),
            may(1),
        ]
    );
    assert_eq!(
        monthly[2].data,
        vec![CohortPoint {
            date: may(1),
            rate: 0.75,
            value: 3
        }]
    );
    let long = DayRange::parse_unbounded(Some("2023-01-01"), Some("2024-12-31")).expect("range");
    let e = m
        .retention(long, Frequency::Day)
        .await
        .expect_err("731 days");
    assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        m.retention(long, Frequency::Month).await.is_ok(),
        "24 months"
    );
    assert_eq!(Frequency::parse(Some("week")), Frequency::Day);
}

/// A `MemoryStore` counting `record_active_day` calls, failing them when told, and saying it
/// keeps no dashboard data when told.
#[derive(Default)]
struct Recording {
    inner: MemoryStore,
    calls: AtomicUsize,
    fail: bool,
    no_dashboard: bool,
}

crate::delegate_store!(Recording => inner:
    AccountStore, OAuthStore, StatusStore, FollowStore, BlockStore, FeedStore,
    JobStore, ScheduledStatusStore, AccountNoteStore, DomainBlockStore, TagStore,
    DirectoryStore, InteractionStore, StatusEditStore, PollStore, MediaStore,
    NotificationStore, MarkerStore, ListStore, FilterStore, ConversationStore, LinkStore,
    NotificationPolicyStore, FederationStore);

#[async_trait]
impl StatsStore for Recording {
    fn keeps_dashboard_data(&self) -> bool {
        !self.no_dashboard && self.inner.keeps_dashboard_data()
    }
    async fn count_local_accounts(&self) -> StoreResult<i64> {
        self.inner.count_local_accounts().await
    }
    async fn count_active_local_accounts(&self, since: DateTime<Utc>) -> StoreResult<i64> {
        self.inner.count_active_local_accounts(since).await
    }
    async fn count_local_statuses(&self) -> StoreResult<i64> {
        self.inner.count_local_statuses().await
    }
    async fn known_domains(&self) -> StoreResult<Vec<String>> {
        self.inner.known_domains().await
    }
    async fn activity_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<WeekActivity> {
        self.inner.activity_between(from, to).await
    }
    async fn record_active_day(&self, account: Id, day: NaiveDate) -> StoreResult<()> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if self.fail {
            return Err(StoreError::Backend("the disk is full".into()));
        }
        self.inner.record_active_day(account, day).await
    }
    async fn measure_events(
        &self,
        kind: &MeasureKind,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<MeasureEvent>> {
        self.inner.measure_events(kind, from, to).await
    }
    async fn measure_total(&self, kind: &MeasureKind) -> StoreResult<i64> {
        self.inner.measure_total(kind).await
    }
    async fn dimension_counts(
        &self,
        kind: &DimensionKind,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: u64,
    ) -> StoreResult<Vec<(Option<String>, i64)>> {
        self.inner.dimension_counts(kind, from, to, limit).await
    }
    async fn signups_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<SignUpRecord>> {
        self.inner.signups_between(from, to).await
    }
    async fn storage_usage(&self) -> StoreResult<StorageUsage> {
        self.inner.storage_usage().await
    }
}

/// An app on a [`Recording`] store.
fn recording_app(fail: bool) -> (Arc<Recording>, Arc<App>) {
    let store = Arc::new(Recording {
        fail,
        ..Recording::default()
    });
    let mut config = InstanceConfig::new("metrics.test");
    config.password_hash_memory_kib = 64;
    (
        store.clone(),
        Arc::new(App::new(store as Arc<dyn Store>, config)),
    )
}

/// `account`'s `GET /api/v1/accounts/verify_credentials`.
async fn verify(app: &Arc<App>, account: &AccountRecord) -> crate::api::Reply {
    let cli = app.oauth().cli_application().await.expect("cli app");
    let token = app
        .oauth()
        .issue_token(
            cli.id,
            Some(account.id),
            &Scopes::parse("read").expect("scopes"),
        )
        .await
        .expect("token");
    app.dispatch(
        &crate::api::route::<VerifyCredentials>(),
        Request {
            authorization: Some(format!("Bearer {}", token.access_token)),
            params: Params::new(),
            info: RequestInfo {
                path: VerifyCredentials::PATH.into(),
                ..Default::default()
            },
        },
    )
    .await
}

#[tokio::test]
async fn activity_is_written_once_a_day_per_account_and_process() {
    let (store, app) = recording_app(false);
    let memory = ActivityMemory::default();
    let alice = test_support::account(&app, "alice").await;
    let bob = test_support::account(&app, "bob").await;
    for _ in 0..3 {
        metrics_on(&app, &memory, may(1))
            .record_activity(alice.id)
            .await;
    }
    assert_eq!(store.calls.load(Ordering::SeqCst), 1, "once a day");
    metrics_on(&app, &memory, may(1))
        .record_activity(bob.id)
        .await;
    metrics_on(&app, &memory, may(2))
        .record_activity(alice.id)
        .await;
    metrics_on(&app, &memory, may(2))
        .record_activity(alice.id)
        .await;
    assert_eq!(store.calls.load(Ordering::SeqCst), 3, "per account and day");
    let days = app
        .store
        .measure_events(
            &MeasureKind::ActiveUsers,
            midnight(may(1)),
            midnight(may(3)),
        )
        .await
        .expect("measure_events");
    assert_eq!(days.len(), 3);

    // A request records the day of its account, once.
    let before = store.calls.load(Ordering::SeqCst);
    for _ in 0..2 {
        assert_eq!(verify(&app, &bob).await.status, StatusCode::OK);
    }
    assert_eq!(store.calls.load(Ordering::SeqCst), before + 1);
    let today = app.now().date_naive();
    let today = app
        .store
        .measure_events(
            &MeasureKind::ActiveUsers,
            midnight(today),
            midnight(today) + Duration::days(1),
        )
        .await
        .expect("measure_events");
    assert_eq!(today.len(), 1);
    assert_eq!(today[0].subject, bob.id.to_string());
}

#[tokio::test]
async fn a_failure_to_record_activity_never_fails_the_request() {
    let (store, app) = recording_app(true);
    let alice = test_support::account(&app, "alice").await;
    for _ in 0..2 {
        assert_eq!(verify(&app, &alice).await.status, StatusCode::OK);
    }
    assert_eq!(
        store.calls.load(Ordering::SeqCst),
        2,
        "a day not recorded is tried again by the next request"
    );
}

/// A store written before the dashboard's methods: its `StatsStore` implements only the
/// methods that came before them, so `keeps_dashboard_data` and the dashboard's methods are
/// the trait's defaults.
#[derive(Default)]
struct Predating {
    inner: MemoryStore,
}

crate::delegate_store!(Predating => inner:
    AccountStore, OAuthStore, StatusStore, FollowStore, BlockStore, FeedStore,
    JobStore, ScheduledStatusStore, AccountNoteStore, DomainBlockStore, TagStore,
    DirectoryStore, InteractionStore, StatusEditStore, PollStore, MediaStore,
    NotificationStore, MarkerStore, ListStore, FilterStore, ConversationStore, LinkStore,
    NotificationPolicyStore, FederationStore);

#[async_trait]
impl StatsStore for Predating {
    async fn count_local_accounts(&self) -> StoreResult<i64> {
        self.inner.count_local_accounts().await
    }
    async fn count_active_local_accounts(&self, since: DateTime<Utc>) -> StoreResult<i64> {
        self.inner.count_active_local_accounts(since).await
    }
    async fn count_local_statuses(&self) -> StoreResult<i64> {
        self.inner.count_local_statuses().await
    }
    async fn known_domains(&self) -> StoreResult<Vec<String>> {
        self.inner.known_domains().await
    }
    async fn activity_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<WeekActivity> {
        self.inner.activity_between(from, to).await
    }
}

/// `E` asked by `who` with a token of `admin:read`, with a JSON body.
async fn as_admin<E: Endpoint>(
    app: &Arc<App>,
    who: &AccountRecord,
    body: Value,
) -> crate::api::Reply {
    let cli = app.oauth().cli_application().await.expect("cli app");
    let token = app
        .oauth()
        .issue_token(
            cli.id,
            Some(who.id),
            &Scopes::parse("read admin:read").expect("scopes"),
        )
        .await
        .expect("token");
    let mut params = Params::new();
    params.add_json(body);
    app.dispatch(
        &crate::api::route::<E>(),
        Request {
            authorization: Some(format!("Bearer {}", token.access_token)),
            params,
            info: RequestInfo {
                path: E::PATH.into(),
                ..Default::default()
            },
        },
    )
    .await
}

#[tokio::test]
async fn a_store_without_dashboard_data_answers_404_not_zeros() {
    let mut config = InstanceConfig::new("metrics.test");
    config.password_hash_memory_kib = 64;
    let app = Arc::new(App::new(
        Arc::new(Predating::default()) as Arc<dyn Store>,
        config,
    ));
    assert!(
        !app.store.keeps_dashboard_data(),
        "the trait's default keeps no dashboard data"
    );
    let admin = test_support::member(&app, "boss", crate::store::Role::Admin).await;
    let body = json!({
        "keys": ["active_users", "languages"],
        "start_at": "2024-05-01",
        "end_at": "2024-05-03",
    });
    let replies = [
        (
            "measures",
            as_admin::<GetMeasures>(&app, &admin, body.clone()).await,
        ),
        (
            "dimensions",
            as_admin::<GetDimensions>(&app, &admin, body.clone()).await,
        ),
        (
            "retention",
            as_admin::<GetRetention>(&app, &admin, body).await,
        ),
    ];
    for (name, reply) in replies {
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{name}");
        assert_eq!(
            reply.json().map(|b| b["error"].clone()),
            Some(json!("This server keeps no dashboard data")),
            "{name}"
        );
    }
    let memory = ActivityMemory::default();
    let m = metrics_on(&app, &memory, may(3));
    let no_params = Map::new();
    let errors = [
        m.measures(&keys(&["new_users"]), range(1, 3), &no_params)
            .await
            .map(|_| ())
            .expect_err("measures"),
        m.dimensions(&keys(&["space_usage"]), range(1, 3), None, &no_params)
            .await
            .map(|_| ())
            .expect_err("dimensions"),
        m.retention(range(1, 3), Frequency::Day)
            .await
            .map(|_| ())
            .expect_err("retention"),
    ];
    for e in errors {
        assert_eq!(e.status, StatusCode::NOT_FOUND);
    }
    // The store with every dashboard method in place is unchanged.
    let plain = Arc::new(test_support::app("metrics.test"));
    let boss = test_support::member(&plain, "boss", crate::store::Role::Admin).await;
    let reply = as_admin::<GetMeasures>(
        &plain,
        &boss,
        json!({"keys": ["active_users"], "start_at": "2024-05-01", "end_at": "2024-05-03"}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
}

#[tokio::test]
async fn a_store_without_dashboard_data_is_not_asked_to_record_activity() {
    let store = Arc::new(Recording {
        no_dashboard: true,
        ..Recording::default()
    });
    let mut config = InstanceConfig::new("metrics.test");
    config.password_hash_memory_kib = 64;
    let app = Arc::new(App::new(store.clone() as Arc<dyn Store>, config));
    let alice = test_support::account(&app, "alice").await;
    assert_eq!(verify(&app, &alice).await.status, StatusCode::OK);
    let memory = ActivityMemory::default();
    metrics_on(&app, &memory, may(1))
        .record_activity(alice.id)
        .await;
    assert_eq!(
        store.calls.load(Ordering::SeqCst),
        0,
        "no record_active_day call for a store that keeps no dashboard data"
    );
}
