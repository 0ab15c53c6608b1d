//! Checks of the admin dashboard's raw material in
//! [`StatsStore`](fedblog_core::store::StatsStore): the days accounts were active, the events of
//! each measure, the groups of each dimension, sign-ups with their last active day, and what
//! the storage holds. The service buckets and totals them; the store only has to select the
//! right rows in the right range.
//!
//! All of it is [`Capability::KeepsDashboardData`]: a store lacking it (the trait's defaults)
//! is held to the weaker promise that recording succeeds and every figure is empty (no events,
//! 0, no groups, no sign-ups, a storage that tells nothing), without error.

use std::fmt::Debug;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use fedblog_core::store::{
    AccountRecord, DimensionKind, DomainScope, MeasureEvent, MeasureKind, ReportCategory,
    ReportRecord, SignUpRecord, StatusRecord, StorageUsage,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Capabilities, Capability, T0, add_app, add_local, add_media, add_remote, add_status, at,
    local_account, media, reblog, reply, status, token,
};

/// A day in milliseconds.
const DAY: i64 = 86_400_000;

/// The day of [`T0`] (2023-11-14).
fn day(n: i64) -> NaiveDate {
    at(T0).date_naive() + Duration::days(n)
}

/// Midnight (UTC) of `day(n)`, in milliseconds.
fn midnight_of(n: i64) -> i64 {
    day(n)
        .and_time(chrono::NaiveTime::MIN)
        .and_utc()
        .timestamp_millis()
}

/// Noon (UTC) of `day(n)`, in milliseconds.
fn noon_of(n: i64) -> i64 {
    midnight_of(n) + DAY / 2
}

/// `[midnight of day(first), midnight of day(last + 1))`.
fn days(first: i64, last: i64) -> (DateTime<Utc>, DateTime<Utc>) {
    (at(midnight_of(first)), at(midnight_of(last + 1)))
}

/// Whether the store claims [`Capability::KeepsDashboardData`]; its `keeps_dashboard_data`,
/// by which the server shows the dashboard or not, must say the same.
fn claims_dashboard(store: &dyn Store, capabilities: Capabilities) -> bool {
    let claims = capabilities.has(Capability::KeepsDashboardData);
    assert_eq!(
        store.keeps_dashboard_data(),
        claims,
        "keeps_dashboard_data must answer {claims} for a store that {} \
         Capability::KeepsDashboardData: the server shows the admin dashboard by it",
        if claims {
            "claims"
        } else {
            "declares it lacks"
        }
    );
    claims
}

/// Panics with `contract` unless `got` is `want`; a store lacking
/// [`Capability::KeepsDashboardData`] must answer the trait's default instead (empty, 0,
/// `None`).
fn expect<T: PartialEq + Debug + Default>(keeps: bool, got: T, want: T, contract: &str) {
    if keeps {
        assert_eq!(got, want, "{contract}");
    } else {
        assert_eq!(
            got,
            T::default(),
            "a store without dashboard data (the trait's defaults) answers nothing, here \
             instead of: {contract} (or claim KeepsDashboardData)"
        );
    }
}

/// The events of `kind` in `range`, sorted (by time, subject, amount).
async fn events(
    store: &dyn Store,
    kind: &MeasureKind,
    range: (DateTime<Utc>, DateTime<Utc>),
) -> Vec<(DateTime<Utc>, String, i64)> {
    let mut got: Vec<(DateTime<Utc>, String, i64)> = store
        .measure_events(kind, range.0, range.1)
        .await
        .unwrap_or_else(|e| panic!("measure_events({kind:?}) failed: {e:?}"))
        .into_iter()
        .map(
            |MeasureEvent {
                 at,
                 subject,
                 amount,
             }| (at, subject, amount),
        )
        .collect();
    got.sort();
    got
}

/// The total of `kind` over all time.
async fn total(store: &dyn Store, kind: &MeasureKind) -> i64 {
    store
        .measure_total(kind)
        .await
        .unwrap_or_else(|e| panic!("measure_total({kind:?}) failed: {e:?}"))
}

/// The groups of `kind` in `range`, at most `limit`.
async fn groups(
    store: &dyn Store,
    kind: &DimensionKind,
    range: (DateTime<Utc>, DateTime<Utc>),
    limit: u64,
) -> Vec<(Option<String>, i64)> {
    store
        .dimension_counts(kind, range.0, range.1, limit)
        .await
        .unwrap_or_else(|e| panic!("dimension_counts({kind:?}) failed: {e:?}"))
}

/// Records an active day, which must succeed.
async fn active(store: &dyn Store, account: Id, n: i64) {
    store
        .record_active_day(account, day(n))
        .await
        .unwrap_or_else(|e| panic!("record_active_day({account}, {}) failed: {e:?}", day(n)));
}

/// A local account made at `millis` (its login too), inserted.
async fn local_at(store: &dyn Store, ids: &IdGenerator, name: &str, millis: i64) -> AccountRecord {
    let (mut account, mut user) = local_account(ids, name);
    account.created_at = at(millis);
    user.created_at = at(millis);
    store
        .insert_local_account(&account, &user)
        .await
        .unwrap_or_else(|e| panic!("insert_local_account({name:?}) failed: {e:?}"));
    account
}

/// A remote account `name@domain` made at noon of `day(n)`, inserted.
async fn remote_at(
    store: &dyn Store,
    ids: &IdGenerator,
    name: &str,
    domain: &str,
    n: i64,
) -> AccountRecord {
    let mut a = AccountRecord::new_local(ids.next_at(noon_of(n)), name, at(noon_of(n)));
    a.domain = Some(domain.into());
    a.uri = Some(format!("https://{domain}/users/{name}"));
    store
        .insert_remote_account(&a)
        .await
        .unwrap_or_else(|e| panic!("insert_remote_account({name}@{domain}) failed: {e:?}"));
    a
}

/// The scope of `domain`, with or without its subdomains.
fn scope(domain: &str, include_subdomains: bool) -> DomainScope {
    DomainScope {
        domain: domain.into(),
        include_subdomains,
    }
}

/// An open report about `target` made at `millis` (its id made at the same time). Not inserted.
fn report(ids: &IdGenerator, reporter: Id, target: Id, millis: i64) -> ReportRecord {
    ReportRecord {
        id: ids.next_at(millis),
        account_id: reporter,
        target_account_id: target,
        status_ids: vec![],
        rule_ids: vec![],
        comment: String::new(),
        category: ReportCategory::Other,
        forwarded: false,
        uri: None,
        assigned_account_id: None,
        action_taken_at: None,
        action_taken_by_account_id: None,
        created_at: at(millis),
        updated_at: at(millis),
    }
}

/// `record_active_day` keeps one row per account and day however often it is called, and
/// `ActiveUsers` events are those rows whose day's midnight is in the range: at that midnight,
/// the account as subject, amount 1.
pub async fn active_days_are_kept_once_per_account_and_day(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    for n in [0, 0, 1, 3] {
        active(store, alice.id, n).await;
    }
    active(store, bob.id, 1).await;
    active(store, bob.id, 1).await;
    let at_day = |n: i64, who: &AccountRecord| (at(midnight_of(n)), who.id.to_string(), 1);
    let mut want = vec![at_day(0, &alice), at_day(1, &alice), at_day(1, &bob)];
    want.sort();
    expect(
        keeps,
        events(store, &MeasureKind::ActiveUsers, days(0, 2)).await,
        want,
        "ActiveUsers in days 0..=2: each account once per day (recorded again changes nothing), \
         day 3 outside",
    );
    expect(
        keeps,
        events(
            store,
            &MeasureKind::ActiveUsers,
            (at(midnight_of(0) + 1), at(midnight_of(3))),
        )
        .await,
        {
            let mut want = vec![at_day(1, &alice), at_day(1, &bob)];
            want.sort();
            want
        },
        "ActiveUsers takes the days whose midnight is in [from, to): not day 0 when `from` is \
         after its midnight, not day 3 whose midnight is `to`",
    );
}

/// `signups_between` answers each local login made in the range, with the last day its
/// account was active (`None` when never): not the logins made before or at the range's end,
/// not remote accounts.
pub async fn signups_between_gives_each_login_with_its_last_active_day(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let early = local_at(store, &ids, "early", noon_of(-5)).await;
    let alice = local_at(store, &ids, "alice", noon_of(0)).await;
    let bob = local_at(store, &ids, "bob", noon_of(1)).await;
    let _late = local_at(store, &ids, "late", midnight_of(3)).await;
    add_remote(store, &ids, "remote", "remote.example").await;
    active(store, early.id, 0).await;
    for n in [1, 4, 2] {
        active(store, alice.id, n).await;
    }
    let mut got = store
        .signups_between(at(midnight_of(0)), at(midnight_of(3)))
        .await
        .expect("signups_between");
    got.sort_by_key(|s| s.created_at);
    expect(
        keeps,
        got,
        vec![
            SignUpRecord {
                created_at: alice.created_at,
                last_active: Some(day(4)),
            },
            SignUpRecord {
                created_at: bob.created_at,
                last_active: None,
            },
        ],
        "signups_between: the logins made in [from, to) with their last active day",
    );
}

/// `NewUsers` events are the local logins made in the range; `InstanceAccounts` those of the
/// accounts of a domain (compared without regard to case), and of its subdomains only when
/// asked, never of a domain that merely ends with the same letters. `measure_total` counts
/// them all, whenever made.
pub async fn accounts_are_counted_by_creation_and_domain(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = local_at(store, &ids, "alice", noon_of(1)).await;
    local_at(store, &ids, "old", noon_of(-9)).await;
    let one = remote_at(store, &ids, "one", "Example.COM", 1).await;
    let sub = remote_at(store, &ids, "sub", "a.example.com", 2).await;
    let _other = remote_at(store, &ids, "other", "badexample.com", 1).await;
    let _before = remote_at(store, &ids, "before", "example.com", -9).await;
    expect(
        keeps,
        events(store, &MeasureKind::NewUsers, days(0, 2)).await,
        vec![(at(noon_of(1)), alice.id.to_string(), 1)],
        "NewUsers: the local logins made in the range, no remote account",
    );
    let kind = MeasureKind::InstanceAccounts(scope("example.com", false));
    expect(
        keeps,
        events(store, &kind, days(0, 2)).await,
        vec![(at(noon_of(1)), one.id.to_string(), 1)],
        "InstanceAccounts(example.com): its accounts made in the range, its domain's case aside",
    );
    expect(
        keeps,
        total(store, &kind).await,
        2,
        "measure_total(InstanceAccounts): every account of the domain",
    );
    let with_subdomains = MeasureKind::InstanceAccounts(scope("example.com", true));
    let mut want = vec![
        (at(noon_of(1)), one.id.to_string(), 1),
        (at(noon_of(2)), sub.id.to_string(), 1),
    ];
    want.sort();
    expect(
        keeps,
        events(store, &with_subdomains, days(0, 2)).await,
        want,
        "InstanceAccounts(example.com with subdomains): a.example.com too, not badexample.com",
    );
}

/// `Interactions` are favourites (timed by their ids), reblogs and replies of local statuses
/// by another account than their author, the actor as subject: not those of remote statuses,
/// not one's own.
pub async fn interactions_are_those_with_local_statuses_of_others(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let remote = add_remote(store, &ids, "remote", "remote.example").await;
    let post = add_status(store, status(&ids, &alice, noon_of(0))).await;
    let theirs = add_status(store, status(&ids, &remote, noon_of(0))).await;
    let favourite = |millis: i64, who: Id, what: Id| {
        let id = ids.next_at(millis);
        async move {
            store
                .insert_favourite(id, who, what)
                .await
                .unwrap_or_else(|e| panic!("insert_favourite failed: {e:?}"));
        }
    };
    favourite(noon_of(1), bob.id, post.id).await;
    favourite(noon_of(1) + 1, alice.id, post.id).await;
    favourite(noon_of(1) + 2, bob.id, theirs.id).await;
    add_status(store, reblog(&ids, &remote, &post, noon_of(2))).await;
    add_status(store, reply(&ids, &bob, &post, noon_of(2) + 1)).await;
    add_status(store, reply(&ids, &alice, &post, noon_of(2) + 2)).await;
    add_status(store, reply(&ids, &alice, &theirs, noon_of(2) + 3)).await;
    add_status(store, reblog(&ids, &bob, &post, noon_of(5))).await;
    let mut want = vec![
        (at(noon_of(1)), bob.id.to_string(), 1),
        (at(noon_of(2)), remote.id.to_string(), 1),
        (at(noon_of(2) + 1), bob.id.to_string(), 1),
    ];
    want.sort();
    expect(
        keeps,
        events(store, &MeasureKind::Interactions, days(1, 3)).await,
        want,
        "Interactions: a favourite, a reblog and a reply of a local status by others, in the range",
    );
    expect(
        keeps,
        total(store, &MeasureKind::Interactions).await,
        4,
        "measure_total(Interactions): the reblog after the range too",
    );
}

/// `TagStatuses` events are the statuses carrying the tag, their authors as subjects;
/// `TagServers` the same with their authors' domains, folded, `""` for local authors.
pub async fn tag_events_name_authors_and_their_domains(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let remote = add_remote(store, &ids, "remote", "Remote.Example").await;
    let tagged = |author: &AccountRecord, n: i64, tag: &str| StatusRecord {
        tags: vec![tag.into()],
        ..status(&ids, author, noon_of(n))
    };
    add_status(store, tagged(&alice, 1, "rust")).await;
    add_status(store, tagged(&remote, 1, "rust")).await;
    add_status(store, tagged(&remote, 1, "other")).await;
    add_status(store, tagged(&alice, 7, "rust")).await;
    let mut want = vec![
        (at(noon_of(1)), alice.id.to_string(), 1),
        (at(noon_of(1)), remote.id.to_string(), 1),
    ];
    want.sort();
    expect(
        keeps,
        events(
            store,
            &MeasureKind::TagStatuses {
                name: "rust".into(),
            },
            days(0, 2),
        )
        .await,
        want,
        "TagStatuses(rust): its statuses in the range, by author",
    );
    let mut want = vec![
        (at(noon_of(1)), String::new(), 1),
        (at(noon_of(1)), "remote.example".to_string(), 1),
    ];
    want.sort();
    expect(
        keeps,
        events(
            store,
            &MeasureKind::TagServers {
                name: "rust".into(),
            },
            days(0, 2),
        )
        .await,
        want,
        "TagServers(rust): by the author's domain, folded, \"\" for a local author",
    );
}

/// The per-server measures: statuses by the server's accounts, their media (each counting its
/// size), follows of them (the follower as subject, timed by the follow's id) apart from
/// follows by them (the followed account as subject).
pub async fn server_events_count_statuses_media_and_follows(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let remote = add_remote(store, &ids, "remote", "remote.example").await;
    let stranger = add_remote(store, &ids, "stranger", "elsewhere.example").await;
    add_status(store, status(&ids, &remote, noon_of(1))).await;
    add_status(store, status(&ids, &stranger, noon_of(1))).await;
    add_status(store, status(&ids, &alice, noon_of(1))).await;
    let mut upload = media(&ids, &remote, noon_of(1));
    upload.file_size = 5_000;
    add_media(store, upload).await;
    let mut old = media(&ids, &remote, noon_of(-20));
    old.file_size = 700;
    add_media(store, old).await;
    add_media(store, media(&ids, &alice, noon_of(1))).await;
    store
        .insert_follow(ids.next_at(noon_of(1)), alice.id, remote.id)
        .await
        .expect("insert_follow");
    store
        .insert_follow(ids.next_at(noon_of(2)), remote.id, stranger.id)
        .await
        .expect("insert_follow");
    let s = || scope("remote.example", false);
    expect(
        keeps,
        events(store, &MeasureKind::InstanceStatuses(s()), days(0, 2)).await,
        vec![(at(noon_of(1)), remote.id.to_string(), 1)],
        "InstanceStatuses: the statuses of the server's accounts",
    );
    expect(
        keeps,
        events(
            store,
            &MeasureKind::InstanceMediaAttachments(s()),
            days(0, 2),
        )
        .await,
        vec![(at(noon_of(1)), remote.id.to_string(), 5_000)],
        "InstanceMediaAttachments: its accounts' uploads in the range, each counting its size",
    );
    expect(
        keeps,
        total(store, &MeasureKind::InstanceMediaAttachments(s())).await,
        5_700,
        "measure_total(InstanceMediaAttachments): the bytes of all its accounts' uploads",
    );
    expect(
        keeps,
        events(store, &MeasureKind::InstanceFollows(s()), days(0, 2)).await,
        vec![(at(noon_of(1)), alice.id.to_string(), 1)],
        "InstanceFollows: follows of its accounts, the follower as subject",
    );
    expect(
        keeps,
        events(store, &MeasureKind::InstanceFollowers(s()), days(0, 2)).await,
        vec![(at(noon_of(2)), stranger.id.to_string(), 1)],
        "InstanceFollowers: follows by its accounts, the followed account as subject",
    );
}

/// Reports are opened at their creation and resolved at `action_taken_at` (an open report is
/// not resolved); `InstanceReports` are those about the server's accounts. A store without
/// moderation data has no reports to count.
pub async fn reports_are_timed_by_opening_and_resolution(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let remote = add_remote(store, &ids, "remote", "remote.example").await;
    let Some(m) = store.moderation() else {
        assert!(
            !capabilities.has(Capability::Moderates),
            "a store claiming Capability::Moderates must offer its moderation store"
        );
        assert_eq!(
            events(store, &MeasureKind::OpenedReports, days(0, 9)).await,
            vec![],
            "a store without moderation data has no reports"
        );
        return;
    };
    let open = report(&ids, alice.id, remote.id, noon_of(1));
    let mut done = report(&ids, remote.id, alice.id, noon_of(-3));
    done.action_taken_at = Some(at(noon_of(2)));
    done.action_taken_by_account_id = Some(alice.id);
    for r in [&open, &done] {
        m.insert_report(r).await.expect("insert_report");
    }
    expect(
        keeps,
        events(store, &MeasureKind::OpenedReports, days(0, 2)).await,
        vec![(at(noon_of(1)), remote.id.to_string(), 1)],
        "OpenedReports: the reports made in the range, the reported account as subject",
    );
    expect(
        keeps,
        events(store, &MeasureKind::ResolvedReports, days(0, 2)).await,
        vec![(at(noon_of(2)), alice.id.to_string(), 1)],
        "ResolvedReports: timed by action_taken_at; an open report is not resolved",
    );
    expect(
        keeps,
        total(
            store,
            &MeasureKind::InstanceReports(scope("remote.example", false)),
        )
        .await,
        1,
        "measure_total(InstanceReports): the reports about the server's accounts",
    );
}

/// `(key, count)` pairs in the order a check compares them: biggest first, then by key (stores
/// may give groups of equal counts in any order).
fn by_size(mut g: Vec<(Option<String>, i64)>) -> Vec<(Option<String>, i64)> {
    g.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    g
}

/// A group keyed `key`.
fn group(key: Option<&str>, count: i64) -> (Option<String>, i64) {
    (key.map(Into::into), count)
}

/// `dimension_counts` groups biggest first and answers at most `limit` groups: statuses of the
/// range by their author's domain (folded, `None` for local authors), a tag's statuses by
/// language (`None` without one), a server's statuses by language without its reblogs.
pub async fn dimensions_group_statuses_biggest_first_within_the_limit(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let one = add_remote(store, &ids, "one", "one.example").await;
    let two = add_remote(store, &ids, "two", "Two.Example").await;
    let post = |author: &AccountRecord, language: Option<&str>, tag: &str| StatusRecord {
        language: language.map(Into::into),
        tags: vec![tag.into()],
        ..status(&ids, author, noon_of(1))
    };
    let mut posts = vec![];
    for _ in 0..3 {
        posts.push(post(&two, Some("fr"), "rust"));
    }
    posts.push(post(&two, None, "rust"));
    posts.push(post(&alice, Some("en"), "rust"));
    posts.push(post(&alice, Some("en"), "other"));
    posts.push(post(&one, Some("en"), "rust"));
    for p in posts.clone() {
        add_status(store, p).await;
    }
    add_status(store, reblog(&ids, &two, &posts[4], noon_of(1))).await;
    add_status(store, post(&one, Some("en"), "rust")).await;
    let mut late = status(&ids, &one, noon_of(8));
    late.tags = vec!["rust".into()];
    add_status(store, late).await;
    let range = days(0, 2);
    expect(
        keeps,
        by_size(groups(store, &DimensionKind::Servers, range, 10).await),
        by_size(vec![
            group(Some("two.example"), 5),
            group(None, 2),
            group(Some("one.example"), 2),
        ]),
        "Servers: statuses of the range (reblogs too) by domain, folded, local as None",
    );
    expect(
        keeps,
        groups(store, &DimensionKind::Servers, range, 1).await,
        vec![group(Some("two.example"), 5)],
        "Servers with limit 1: the biggest group only",
    );
    let tag = DimensionKind::TagLanguages {
        name: "rust".into(),
    };
    expect(
        keeps,
        by_size(groups(store, &tag, range, 10).await),
        vec![group(Some("en"), 3), group(Some("fr"), 3), group(None, 1)],
        "TagLanguages(rust): the tag's statuses of the range by language, None without one",
    );
    expect(
        keeps,
        groups(store, &tag, range, 10).await.last().cloned(),
        Some(group(None, 1)),
        "TagLanguages: the smallest group last",
    );
    expect(
        keeps,
        by_size(
            groups(
                store,
                &DimensionKind::TagServers {
                    name: "rust".into(),
                },
                range,
                10,
            )
            .await,
        ),
        vec![
            group(Some("two.example"), 4),
            group(Some("one.example"), 2),
            group(None, 1),
        ],
        "TagServers(rust): the tag's statuses of the range by domain",
    );
    expect(
        keeps,
        groups(
            store,
            &DimensionKind::InstanceLanguages(scope("two.example", false)),
            range,
            10,
        )
        .await,
        vec![group(Some("fr"), 3), group(None, 1)],
        "InstanceLanguages(two.example): its statuses of the range by language, not its reblogs",
    );
}

/// `Languages` groups the local logins active on a day of the range by locale, each once;
/// `InstanceAccounts` lists every account of the server with how many follow it here, those
/// nobody follows too (0).
pub async fn dimensions_group_active_logins_and_followed_accounts(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let mut people = vec![];
    for (name, locale) in [("a", "de"), ("b", "de"), ("c", "fr"), ("d", "ja")] {
        let (account, mut user) = local_account(&ids, name);
        user.locale = locale.into();
        store
            .insert_local_account(&account, &user)
            .await
            .expect("insert_local_account");
        people.push(account);
    }
    for (who, n) in [(0, 1), (0, 2), (1, 2), (2, 1), (3, 5)] {
        active(store, people[who].id, n).await;
    }
    expect(
        keeps,
        groups(store, &DimensionKind::Languages, days(0, 3), 10).await,
        vec![group(Some("de"), 2), group(Some("fr"), 1)],
        "Languages: the logins active in the range by locale, each once, biggest first",
    );
    let big = add_remote(store, &ids, "big", "remote.example").await;
    let small = add_remote(store, &ids, "small", "remote.example").await;
    let quiet = add_remote(store, &ids, "quiet", "remote.example").await;
    let _away = add_remote(store, &ids, "away", "elsewhere.example").await;
    for (follower, target) in [(0, &big), (1, &big), (2, &big), (0, &small)] {
        store
            .insert_follow(ids.next_at(noon_of(1)), people[follower].id, target.id)
            .await
            .expect("insert_follow");
    }
    let kind = DimensionKind::InstanceAccounts(scope("remote.example", false));
    expect(
        keeps,
        groups(store, &kind, days(0, 3), 10).await,
        vec![
            group(Some(&big.username), 3),
            group(Some(&small.username), 1),
            group(Some(&quiet.username), 0),
        ],
        "InstanceAccounts: each account of the server by the follows of it, none followed too",
    );
    expect(
        keeps,
        groups(store, &kind, days(0, 3), 2).await.len(),
        2,
        "InstanceAccounts with limit 2: two accounts",
    );
}

/// `Sources` groups the logins made in the range by the application of the first token
/// issued to their account within a minute of their creation (`None` without one: a token
/// issued later does not count).
pub async fn sources_name_the_application_that_signed_up(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let app = add_app(store, &ids, "signup").await;
    let later_app = add_app(store, &ids, "later").await;
    let mut made = vec![];
    for name in ["a", "b", "c"] {
        made.push(local_at(store, &ids, name, noon_of(1)).await);
    }
    let issue = |n: usize, app: Id, millis: i64| {
        let t = token(
            &ids,
            &format!("hash-{n}-{millis}"),
            app,
            Some(made[n].id),
            millis,
        );
        async move { store.insert_token(&t).await.expect("insert_token") }
    };
    issue(0, app.id, noon_of(1) + 2_000).await;
    issue(0, later_app.id, noon_of(1) + 3_000).await;
    issue(1, app.id, noon_of(1) + 500).await;
    issue(2, later_app.id, noon_of(1) + 3_600_000).await;
    expect(
        keeps,
        groups(store, &DimensionKind::Sources, days(0, 2), 10).await,
        vec![group(Some(&app.name), 2), group(None, 1)],
        "Sources: by the app of the sign-up's token, None for a login without one",
    );
}

/// `storage_usage` names the engine and counts the bytes of the media attachments' files; a
/// store without dashboard data tells nothing ([`StorageUsage::default()`]).
pub async fn storage_usage_names_the_engine_and_counts_media(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let mut upload = media(&ids, &alice, noon_of(1));
    upload.file_size = 3_000;
    add_media(store, upload).await;
    add_media(store, media(&ids, &alice, noon_of(2))).await;
    let usage = store.storage_usage().await.expect("storage_usage");
    if !keeps {
        assert_eq!(
            usage,
            StorageUsage::default(),
            "a store without dashboard data (the trait's default) tells nothing of its storage \
             (or claim KeepsDashboardData)"
        );
        return;
    }
    assert!(
        !usage.engine.is_empty() && !usage.engine_name.is_empty(),
        "storage_usage names its engine: {usage:?}"
    );
    assert!(
        usage.database_bytes.is_none_or(|b| b > 0),
        "a database that tells its size holds some bytes: {usage:?}"
    );
    assert_eq!(
        usage.media_bytes,
        Some(4_234),
        "storage_usage: the bytes of every media attachment"
    );
}

/// Deleting an account deletes the days it was active.
pub async fn deleting_an_account_forgets_its_active_days(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let keeps = claims_dashboard(store, capabilities);
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    active(store, alice.id, 1).await;
    active(store, bob.id, 1).await;
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    expect(
        keeps,
        events(store, &MeasureKind::ActiveUsers, days(0, 2)).await,
        vec![(at(midnight_of(1)), bob.id.to_string(), 1)],
        "the active days of a deleted account go with it",
    );
}
