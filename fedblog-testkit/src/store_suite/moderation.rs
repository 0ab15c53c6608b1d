//! Checks of [`ModerationStore`](fedblog_core::store::ModerationStore), which a store offers
//! through [`AccountStore::moderation`](fedblog_core::store::AccountStore::moderation): reports
//! and moderation warnings, the accounts as administrators list them, the server's rules,
//! settings and terms of service, the server-wide domain blocks, listed values and IP
//! blocks, the custom user roles, and trends as staff review them (the rankings of hashtags
//! and statuses, the reviews of statuses, links and publishers).
//!
//! All of it is [`Capability::Moderates`]: a store claiming it must offer a moderation store
//! and keep every contract below; a store lacking it (the trait's default, `moderation()` is
//! `None`) is held to that alone. A store that declares the lack but offers one anyway is
//! checked in full.

use chrono::NaiveDate;
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountOrigin, AccountRecord, AccountWarningRecord, AdminAccountFilter, AdminAccountStatus,
    DomainBlockSeverity, InstanceDomainBlockRecord, IpBlockRecord, IpBlockSeverity,
    ListedValueRecord, ModerationStore, ReportCategory, ReportFilter, ReportRecord, Role,
    RuleRecord, StatusRecord, TagRecord, TermsOfServiceRecord, TrendKind, TrendReviewRecord,
    UserRecord, UserRoleRecord, ValueList, Visibility, WarningAction,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Capabilities, Capability, Cursor, T0, add_local, add_remote, add_status, add_tag,
    assert_already_exists, assert_not_found, assert_pages, at, get_account, local_account, reblog,
    remote_account, reply, status,
};

/// Every kind of page request, for the checks that page.
const CURSORS: [Cursor; 6] = [
    Cursor::Limit,
    Cursor::MaxId,
    Cursor::SinceId,
    Cursor::MinId,
    Cursor::Combined,
    Cursor::Absent,
];

/// The store's moderation store, if it offers one. A store claiming
/// [`Capability::Moderates`] must; for one declaring the lack and offering none there is
/// nothing more to check (`None`).
fn moderation(store: &dyn Store, capabilities: Capabilities) -> Option<&dyn ModerationStore> {
    let m = store.moderation();
    assert!(
        m.is_some() || !capabilities.has(Capability::Moderates),
        "AccountStore::moderation: a store claiming Capability::Moderates must offer its \
         moderation store, got None"
    );
    m
}

/// `ids` newest (largest) first, as the admin lists order them.
fn newest_first(mut ids: Vec<Id>) -> Vec<Id> {
    ids.sort_by(|a, b| b.cmp(a));
    ids
}

/// An open report by `reporter` about `target` made at `millis` (its id made at the same
/// time), category `other`, with no statuses, rules or moderator. Not inserted.
fn report(ids: &IdGenerator, reporter: Id, target: Id, millis: i64) -> ReportRecord {
    ReportRecord {
        id: ids.next_at(millis),
        account_id: reporter,
        target_account_id: target,
        status_ids: vec![],
        rule_ids: vec![],
        comment: format!("report at {millis}"),
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

/// `report` resolved at `millis` by `moderator`.
fn resolved(report: ReportRecord, moderator: Id, millis: i64) -> ReportRecord {
    ReportRecord {
        action_taken_at: Some(at(millis)),
        action_taken_by_account_id: Some(moderator),
        updated_at: at(millis),
        ..report
    }
}

/// Inserts a report, which must succeed, and returns it.
async fn add_report(m: &dyn ModerationStore, report: ReportRecord) -> ReportRecord {
    m.insert_report(&report)
        .await
        .unwrap_or_else(|e| panic!("insert_report({}) failed: {e:?}", report.id));
    report
}

/// The ids of the first 40 reports `filter` selects.
async fn report_ids(m: &dyn ModerationStore, filter: &ReportFilter) -> Vec<Id> {
    m.reports(filter, Page::first(40))
        .await
        .unwrap_or_else(|e| panic!("reports({filter:?}) failed: {e:?}"))
        .into_iter()
        .map(|r| r.id)
        .collect()
}

/// The ids of the first 40 accounts `filter` selects.
async fn admin_ids(m: &dyn ModerationStore, filter: &AdminAccountFilter) -> Vec<Id> {
    m.admin_account_ids(filter, Page::first(40))
        .await
        .unwrap_or_else(|e| panic!("admin_account_ids({filter:?}) failed: {e:?}"))
}

/// Inserts a local account whose login is changed by `edit`, and returns it.
async fn add_local_with(
    store: &dyn Store,
    ids: &IdGenerator,
    username: &str,
    edit: impl FnOnce(&mut AccountRecord, &mut UserRecord),
) -> AccountRecord {
    let (mut account, mut user) = local_account(ids, username);
    edit(&mut account, &mut user);
    store
        .insert_local_account(&account, &user)
        .await
        .unwrap_or_else(|e| panic!("insert_local_account({username:?}) failed: {e:?}"));
    account
}

/// Changes an account with `update_account` (as moderation actions do) and returns it as
/// stored.
async fn update(
    store: &dyn Store,
    account: &AccountRecord,
    edit: impl FnOnce(&mut AccountRecord),
) -> AccountRecord {
    let mut a = get_account(store, account.id).await;
    edit(&mut a);
    store
        .update_account(&a)
        .await
        .unwrap_or_else(|e| panic!("update_account({}) failed: {e:?}", a.username));
    get_account(store, account.id).await
}

/// A rule made at `millis` (its id made at the same time). Not saved.
fn rule(ids: &IdGenerator, text: &str, position: i32, millis: i64) -> RuleRecord {
    RuleRecord {
        id: ids.next_at(millis),
        text: text.to_string(),
        hint: format!("Why: {text}"),
        position,
        created_at: at(millis),
        updated_at: at(millis),
    }
}

async fn save_rule(m: &dyn ModerationStore, rule: &RuleRecord) {
    m.save_rule(rule)
        .await
        .unwrap_or_else(|e| panic!("save_rule({:?}) failed: {e:?}", rule.text));
}

async fn rules(m: &dyn ModerationStore) -> Vec<RuleRecord> {
    m.rules()
        .await
        .unwrap_or_else(|e| panic!("rules failed: {e:?}"))
}

fn day(y: i32, month: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, month, d).expect("a valid day")
}

async fn terms(m: &dyn ModerationStore) -> Vec<TermsOfServiceRecord> {
    m.terms_of_service()
        .await
        .unwrap_or_else(|e| panic!("terms_of_service failed: {e:?}"))
}

async fn domain_blocks(m: &dyn ModerationStore) -> Vec<InstanceDomainBlockRecord> {
    m.instance_domain_blocks()
        .await
        .unwrap_or_else(|e| panic!("instance_domain_blocks failed: {e:?}"))
}

async fn listed(m: &dyn ModerationStore, list: ValueList) -> Vec<ListedValueRecord> {
    m.listed_values(list)
        .await
        .unwrap_or_else(|e| panic!("listed_values({list:?}) failed: {e:?}"))
}

async fn ip_blocks(m: &dyn ModerationStore) -> Vec<IpBlockRecord> {
    m.ip_blocks()
        .await
        .unwrap_or_else(|e| panic!("ip_blocks failed: {e:?}"))
}

/// A report with every field set is read back as inserted, one with every optional field unset
/// too; `update_report` replaces every field, and an unknown report is `None` to read and
/// `NotFound` to update.
pub async fn report_round_trips_and_update_replaces_it(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let moderator = add_local(store, &ids, "moderator").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let s1 = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let r1 = rule(&ids, "Be kind", 0, T0 + 3_000);
    save_rule(m, &r1).await;

    let full = ReportRecord {
        status_ids: vec![s2.id, s1.id],
        rule_ids: vec![r1.id],
        comment: "Rude, twice. Ünïcode ✓".into(),
        category: ReportCategory::Violation,
        forwarded: true,
        uri: Some("https://example.test/reports/1".into()),
        assigned_account_id: Some(moderator.id),
        updated_at: at(T0 + 5_123),
        ..report(&ids, alice.id, bob.id, T0 + 4_000)
    };
    let plain = report(&ids, bob.id, alice.id, T0 + 6_000);
    add_report(m, full.clone()).await;
    add_report(m, plain.clone()).await;
    for r in [&full, &plain] {
        let got = m.report_by_id(r.id).await.expect("report_by_id");
        assert_eq!(
            got.as_ref(),
            Some(r),
            "report_by_id: a report must be read back with every field as inserted \
             (status_ids in the order given)"
        );
    }
    assert_eq!(
        m.report_by_id(Id(1)).await.expect("report_by_id"),
        None,
        "report_by_id of an unknown id is None"
    );

    let changed = ReportRecord {
        status_ids: vec![s1.id],
        rule_ids: vec![],
        comment: "Rude once".into(),
        category: ReportCategory::Spam,
        forwarded: false,
        uri: None,
        assigned_account_id: None,
        ..resolved(full.clone(), moderator.id, T0 + 7_000)
    };
    m.update_report(&changed).await.expect("update_report");
    assert_eq!(
        m.report_by_id(full.id).await.expect("report_by_id"),
        Some(changed),
        "update_report replaces every field of the report"
    );
    assert_eq!(
        m.report_by_id(plain.id).await.expect("report_by_id"),
        Some(plain.clone()),
        "update_report changes no other report"
    );
    let unknown = report(&ids, alice.id, bob.id, T0 + 8_000);
    assert_not_found(
        m.update_report(&unknown).await,
        "update_report of an unknown report",
    );
    assert_eq!(
        m.report_by_id(unknown.id).await.expect("report_by_id"),
        None,
        "update_report of an unknown report inserts nothing"
    );
}

/// `reports` lists the open reports (no `action_taken_at`) or the resolved ones, newest first;
/// resolving a report with `update_report` moves it from one list to the other.
pub async fn reports_lists_open_or_resolved_newest_first(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let moderator = add_local(store, &ids, "moderator").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let o1 = add_report(m, report(&ids, alice.id, bob.id, T0 + 1_000)).await;
    let d1 = add_report(
        m,
        resolved(
            report(&ids, alice.id, bob.id, T0 + 2_000),
            moderator.id,
            T0 + 9_000,
        ),
    )
    .await;
    let o2 = add_report(m, report(&ids, alice.id, bob.id, T0 + 3_000)).await;
    let d2 = add_report(
        m,
        resolved(
            report(&ids, alice.id, bob.id, T0 + 4_000),
            moderator.id,
            T0 + 5_000,
        ),
    )
    .await;
    let o3 = add_report(m, report(&ids, alice.id, bob.id, T0 + 6_000)).await;
    let open = ReportFilter::default();
    let done = ReportFilter {
        resolved: true,
        ..ReportFilter::default()
    };
    assert_eq!(
        report_ids(m, &open).await,
        vec![o3.id, o2.id, o1.id],
        "reports(resolved: false) lists the open reports, newest first"
    );
    assert_eq!(
        report_ids(m, &done).await,
        vec![d2.id, d1.id],
        "reports(resolved: true) lists the resolved reports, newest (by id) first"
    );
    let full = m
        .reports(&open, Page::first(40))
        .await
        .expect("reports")
        .into_iter()
        .find(|r| r.id == o2.id);
    assert_eq!(
        full,
        Some(o2.clone()),
        "reports answers the reports with every field"
    );
    m.update_report(&resolved(o2.clone(), moderator.id, T0 + 10_000))
        .await
        .expect("update_report");
    assert_eq!(
        report_ids(m, &open).await,
        vec![o3.id, o1.id],
        "a report resolved with update_report leaves the open ones"
    );
    assert_eq!(
        report_ids(m, &done).await,
        vec![d2.id, o2.id, d1.id],
        "a report resolved with update_report joins the resolved ones, in id order"
    );
}

/// `reports` takes only the reports filed by `account_id` and only those about
/// `target_account_id`, both when both are given.
pub async fn reports_filter_by_reporter_and_target(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let xavier = add_remote(store, &ids, "xavier", "remote.example").await;
    let yvonne = add_remote(store, &ids, "yvonne", "remote.example").await;
    let ax = add_report(m, report(&ids, alice.id, xavier.id, T0 + 1_000)).await;
    let bx = add_report(m, report(&ids, bob.id, xavier.id, T0 + 2_000)).await;
    let ay = add_report(m, report(&ids, alice.id, yvonne.id, T0 + 3_000)).await;
    let by = add_report(m, report(&ids, bob.id, yvonne.id, T0 + 4_000)).await;
    let cases = [
        (None, None, vec![by.id, ay.id, bx.id, ax.id], "no filter"),
        (Some(alice.id), None, vec![ay.id, ax.id], "filed by alice"),
        (None, Some(xavier.id), vec![bx.id, ax.id], "about xavier"),
        (
            Some(bob.id),
            Some(yvonne.id),
            vec![by.id],
            "by bob about yvonne",
        ),
        (Some(xavier.id), None, vec![], "filed by xavier (none)"),
    ];
    for (account_id, target_account_id, expected, what) in cases {
        let filter = ReportFilter {
            resolved: false,
            account_id,
            target_account_id,
        };
        assert_eq!(
            report_ids(m, &filter).await,
            expected,
            "reports, {what}: only the reports of that reporter and target, newest first"
        );
    }
}

/// The pages of `reports` hold the reports strictly inside the cursors, newest first (ids as
/// cursors), the other kind of report (here a resolved one) never counted.
pub async fn reports_pages_by_id(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let reporter = add_local(store, &ids, "reporter").await;
    let moderator = add_local(store, &ids, "moderator").await;
    let target = add_remote(store, &ids, "target", "remote.example").await;
    let mut s = vec![];
    for i in 0..10 {
        let millis = T0 + 1_000 * (i + 1);
        s.push(
            add_report(m, report(&ids, reporter.id, target.id, millis))
                .await
                .id,
        );
        let other = resolved(
            report(&ids, reporter.id, target.id, millis + 500),
            moderator.id,
            millis + 600,
        );
        add_report(m, other).await;
    }
    for kind in CURSORS {
        let read = |page: Page| async move {
            m.reports(&ReportFilter::default(), page)
                .await
                .expect("reports")
                .into_iter()
                .map(|r| r.id)
                .collect()
        };
        assert_pages("reports (open)", kind, &s, read).await;
    }
}

/// A moderation warning with every field set is read back as inserted, one with every optional
/// field unset too; an unknown one is `None`.
pub async fn account_warning_round_trips(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let moderator = add_local(store, &ids, "moderator").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let r = add_report(m, report(&ids, moderator.id, alice.id, T0 + 3_000)).await;
    let full = AccountWarningRecord {
        id: ids.next_at(T0 + 4_000),
        account_id: Some(moderator.id),
        target_account_id: alice.id,
        action: WarningAction::MarkStatusesAsSensitive,
        text: "Please mark these. Ünïcode ✓".into(),
        report_id: Some(r.id),
        status_ids: vec![s2.id, s1.id],
        created_at: at(T0 + 4_321),
    };
    let plain = AccountWarningRecord {
        id: ids.next_at(T0 + 5_000),
        account_id: None,
        target_account_id: alice.id,
        action: WarningAction::None,
        text: String::new(),
        report_id: None,
        status_ids: vec![],
        created_at: at(T0 + 5_000),
    };
    for w in [&full, &plain] {
        m.insert_account_warning(w)
            .await
            .unwrap_or_else(|e| panic!("insert_account_warning({}) failed: {e:?}", w.id));
    }
    for w in [&full, &plain] {
        assert_eq!(
            m.account_warning_by_id(w.id)
                .await
                .expect("account_warning_by_id")
                .as_ref(),
            Some(w),
            "account_warning_by_id: a warning must be read back with every field as inserted \
             (status_ids in the order given)"
        );
    }
    assert_eq!(
        m.account_warning_by_id(Id(1))
            .await
            .expect("account_warning_by_id"),
        None,
        "account_warning_by_id of an unknown id is None"
    );
}

/// `admin_account_ids` lists every account newest first, and with `origin` only the local or
/// only the remote ones, with `by_domain` only those of that domain.
pub async fn admin_account_ids_filter_by_origin_and_domain(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let carol = add_remote(store, &ids, "carol", "other.example").await;
    let dave = add_local(store, &ids, "dave").await;
    let erin = add_remote(store, &ids, "erin", "remote.example").await;
    let all = newest_first(vec![alice.id, bob.id, carol.id, dave.id, erin.id]);
    let cases = [
        (AdminAccountFilter::default(), all, "no filter"),
        (
            AdminAccountFilter {
                origin: Some(AccountOrigin::Local),
                ..AdminAccountFilter::default()
            },
            newest_first(vec![alice.id, dave.id]),
            "origin local",
        ),
        (
            AdminAccountFilter {
                origin: Some(AccountOrigin::Remote),
                ..AdminAccountFilter::default()
            },
            newest_first(vec![bob.id, carol.id, erin.id]),
            "origin remote",
        ),
        (
            AdminAccountFilter {
                by_domain: Some("remote.example".into()),
                ..AdminAccountFilter::default()
            },
            newest_first(vec![bob.id, erin.id]),
            "by_domain remote.example",
        ),
        (
            AdminAccountFilter {
                by_domain: Some("example".into()),
                ..AdminAccountFilter::default()
            },
            vec![],
            "by_domain example (a suffix of the domains, not one of them)",
        ),
        (
            AdminAccountFilter {
                origin: Some(AccountOrigin::Local),
                by_domain: Some("other.example".into()),
                ..AdminAccountFilter::default()
            },
            vec![],
            "origin local and by_domain other.example",
        ),
    ];
    for (filter, expected, what) in cases {
        assert_eq!(
            admin_ids(m, &filter).await,
            expected,
            "admin_account_ids, {what}: the accounts the filter selects, newest first"
        );
    }
}

/// `admin_account_ids` with a `status`: active accounts are neither suspended nor silenced
/// and, if local, approved and not disabled; pending ones are local logins waiting for
/// approval; disabled ones have their login disabled; silenced, suspended and sensitized ones
/// have that time set.
pub async fn admin_account_ids_filter_by_status(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let active = add_local(store, &ids, "active").await;
    let pending = add_local_with(store, &ids, "pending", |_, u| u.approved = false).await;
    let disabled = add_local_with(store, &ids, "disabled", |_, u| u.disabled = true).await;
    let suspended = add_local(store, &ids, "suspended").await;
    update(store, &suspended, |a| a.suspended_at = Some(at(T0 + 1_000))).await;
    let remote = add_remote(store, &ids, "remote", "remote.example").await;
    let silenced = add_remote(store, &ids, "silenced", "remote.example").await;
    update(store, &silenced, |a| a.silenced_at = Some(at(T0 + 2_000))).await;
    let sensitized = add_remote(store, &ids, "sensitized", "remote.example").await;
    update(store, &sensitized, |a| {
        a.sensitized_at = Some(at(T0 + 3_000))
    })
    .await;
    let cases = [
        (
            AdminAccountStatus::Active,
            newest_first(vec![active.id, remote.id, sensitized.id]),
            "active (a sensitized account is still active)",
        ),
        (AdminAccountStatus::Pending, vec![pending.id], "pending"),
        (AdminAccountStatus::Disabled, vec![disabled.id], "disabled"),
        (AdminAccountStatus::Silenced, vec![silenced.id], "silenced"),
        (
            AdminAccountStatus::Suspended,
            vec![suspended.id],
            "suspended",
        ),
        (
            AdminAccountStatus::Sensitized,
            vec![sensitized.id],
            "sensitized",
        ),
    ];
    for (status, expected, what) in cases {
        let filter = AdminAccountFilter {
            status: Some(status),
            ..AdminAccountFilter::default()
        };
        assert_eq!(
            admin_ids(m, &filter).await,
            expected,
            "admin_account_ids, status {what}: the accounts in that state, newest first"
        );
    }
    update(store, &suspended, |a| a.suspended_at = None).await;
    let filter = AdminAccountFilter {
        status: Some(AdminAccountStatus::Active),
        origin: Some(AccountOrigin::Local),
        ..AdminAccountFilter::default()
    };
    assert_eq!(
        admin_ids(m, &filter).await,
        newest_first(vec![active.id, suspended.id]),
        "admin_account_ids, local and active: an account whose suspension was lifted is active again"
    );
}

/// `admin_account_ids` with `roles` takes the local accounts whose login has one of those
/// roles; remote accounts have none.
pub async fn admin_account_ids_filter_by_role(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let user = add_local(store, &ids, "user").await;
    let moderator = add_local_with(store, &ids, "moderator", |_, u| u.role = Role::Moderator).await;
    let admin = add_local_with(store, &ids, "admin", |_, u| u.role = Role::Admin).await;
    let owner = add_local_with(store, &ids, "owner", |_, u| u.role = Role::Owner).await;
    let remote = add_remote(store, &ids, "remote", "remote.example").await;
    let cases: [(&[&str], Vec<Id>); 4] = [
        (
            &[],
            newest_first(vec![user.id, moderator.id, admin.id, owner.id, remote.id]),
        ),
        (
            &["moderator", "admin"],
            newest_first(vec![moderator.id, admin.id]),
        ),
        (&["owner"], vec![owner.id]),
        (&["user"], vec![user.id]),
    ];
    for (roles, expected) in cases {
        let filter = AdminAccountFilter {
            roles: roles.iter().map(|r| r.to_string()).collect(),
            ..AdminAccountFilter::default()
        };
        assert_eq!(
            admin_ids(m, &filter).await,
            expected,
            "admin_account_ids, roles {roles:?}: the local accounts with one of those roles \
             (any account for none), newest first"
        );
    }
}

/// `admin_account_ids` with `username`, `display_name` or `email` takes the accounts whose
/// field contains the text, case-insensitively; only local accounts have an e-mail address.
pub async fn admin_account_ids_match_names_and_email_case_insensitively(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local_with(store, &ids, "AliceL", |a, u| {
        a.display_name = "Queen of Hearts".into();
        u.email = "alice@Wonder.example".into();
    })
    .await;
    let bob = add_local_with(store, &ids, "bob", |a, u| {
        a.display_name = "Alice's friend".into();
        u.email = "bob@mail.example".into();
    })
    .await;
    let malice = remote_account(&ids, "malice", "remote.example");
    let malice = AccountRecord {
        display_name: "Someone at example".into(),
        ..malice
    };
    store
        .insert_remote_account(&malice)
        .await
        .expect("insert_remote_account");
    let f = |username: Option<&str>, display_name: Option<&str>, email: Option<&str>| {
        AdminAccountFilter {
            username: username.map(str::to_string),
            display_name: display_name.map(str::to_string),
            email: email.map(str::to_string),
            ..AdminAccountFilter::default()
        }
    };
    let cases = [
        (
            f(Some("ALICE"), None, None),
            newest_first(vec![alice.id, malice.id]),
            "username ALICE",
        ),
        (
            f(None, Some("aLICE"), None),
            vec![bob.id],
            "display name aLICE",
        ),
        (
            f(None, Some("hearts"), None),
            vec![alice.id],
            "display name hearts",
        ),
        (
            f(None, None, Some("WONDER")),
            vec![alice.id],
            "email WONDER",
        ),
        (
            f(None, None, Some("example")),
            newest_first(vec![alice.id, bob.id]),
            "email example (remote accounts have none)",
        ),
        (
            f(Some("alice"), Some("QUEEN"), None),
            vec![alice.id],
            "username alice and display name QUEEN",
        ),
        (f(Some("carol"), None, None), vec![], "username carol"),
    ];
    for (filter, expected, what) in cases {
        assert_eq!(
            admin_ids(m, &filter).await,
            expected,
            "admin_account_ids, {what}: the accounts whose field contains the text in any case, \
             newest first"
        );
    }
}

/// The pages of `admin_account_ids` hold the ids strictly inside the cursors, newest first,
/// the accounts the filter leaves out never counted.
pub async fn admin_account_ids_pages_newest_first(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let mut s = vec![];
    for i in 0..10 {
        let millis = T0 + 1_000 * (i + 1);
        let (mut account, mut user) = local_account(&ids, &format!("local{i}"));
        account.id = ids.next_at(millis);
        user.account_id = account.id;
        store
            .insert_local_account(&account, &user)
            .await
            .expect("insert_local_account");
        s.push(account.id);
        let mut other = remote_account(&ids, &format!("remote{i}"), "remote.example");
        other.id = ids.next_at(millis + 500);
        store
            .insert_remote_account(&other)
            .await
            .expect("insert_remote_account");
    }
    let filter = AdminAccountFilter {
        origin: Some(AccountOrigin::Local),
        ..AdminAccountFilter::default()
    };
    for kind in CURSORS {
        let read = |page: Page| {
            let filter = filter.clone();
            async move {
                m.admin_account_ids(&filter, page)
                    .await
                    .expect("admin_account_ids")
            }
        };
        assert_pages("admin_account_ids (local)", kind, &s, read).await;
    }
}

/// `rules` lists the rules by position, then by id; `save_rule` of a known id replaces the
/// rule, which then takes its new place.
pub async fn rules_order_by_position_then_id_and_save_replaces(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    assert_eq!(rules(m).await, vec![], "an empty store has no rules");
    let r1 = rule(&ids, "No spam", 2, T0 + 1_000);
    let r2 = rule(&ids, "Be kind", 0, T0 + 2_000);
    let r3 = rule(&ids, "No ads", 2, T0 + 3_000);
    let r4 = rule(&ids, "Mark spoilers", 1, T0 + 4_000);
    for r in [&r3, &r1, &r4, &r2] {
        save_rule(m, r).await;
    }
    assert_eq!(
        rules(m).await,
        vec![r2.clone(), r4.clone(), r1.clone(), r3.clone()],
        "rules: by position, rules of one position by id, every field as saved"
    );
    let r3b = RuleRecord {
        text: "No advertising".into(),
        hint: String::new(),
        position: -1,
        updated_at: at(T0 + 5_000),
        ..r3.clone()
    };
    save_rule(m, &r3b).await;
    assert_eq!(
        rules(m).await,
        vec![r3b, r2, r4, r1],
        "save_rule of a known id replaces the rule (no second one), which moves to its new position"
    );
}

/// `delete_rule` removes the rule and answers `true`, then `false`; an unknown id is `false`.
pub async fn delete_rule_true_then_false(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let r1 = rule(&ids, "Be kind", 0, T0 + 1_000);
    let r2 = rule(&ids, "No spam", 1, T0 + 2_000);
    save_rule(m, &r1).await;
    save_rule(m, &r2).await;
    assert!(
        m.delete_rule(r1.id).await.expect("delete_rule"),
        "delete_rule of a rule answers true"
    );
    assert_eq!(
        rules(m).await,
        vec![r2.clone()],
        "delete_rule removes that rule only"
    );
    assert!(
        !m.delete_rule(r1.id).await.expect("delete_rule"),
        "delete_rule of a deleted rule answers false"
    );
    assert!(
        !m.delete_rule(Id(1)).await.expect("delete_rule"),
        "delete_rule of an unknown id answers false"
    );
    assert_eq!(rules(m).await, vec![r2], "the other rule stays");
}

/// `set_setting` sets a setting, replaces it, and removes it with `None`; each name is kept
/// apart, and an unset name is `None`.
pub async fn settings_are_set_replaced_and_unset(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let get = |name: &'static str| async move { m.setting(name).await.expect("setting") };
    let set = |name: &'static str, value: Option<&'static str>| async move {
        m.set_setting(name, value)
            .await
            .unwrap_or_else(|e| panic!("set_setting({name:?}, {value:?}) failed: {e:?}"))
    };
    assert_eq!(get("site_terms").await, None, "an unset setting is None");
    let long = "First line\n\nSecond — ünïcode ✓, \"quoted\" and 'single' <b>tags</b>";
    set("site_terms", Some(long)).await;
    set("site_contact_email", Some("admin@example.test")).await;
    assert_eq!(
        get("site_terms").await.as_deref(),
        Some(long),
        "set_setting keeps the value as given"
    );
    set("site_terms", Some("")).await;
    assert_eq!(
        get("site_terms").await.as_deref(),
        Some(""),
        "set_setting replaces the value; an empty value is still set"
    );
    set("site_terms", None).await;
    assert_eq!(
        get("site_terms").await,
        None,
        "set_setting with None removes the setting"
    );
    set("site_terms", None).await;
    assert_eq!(
        get("site_contact_email").await.as_deref(),
        Some("admin@example.test"),
        "changing one setting leaves the others"
    );
}

/// `terms_of_service` lists every version, newest effective date first; saving a known id
/// replaces it, and a version on the date of another is `AlreadyExists("effective_date")`,
/// changing nothing.
pub async fn terms_of_service_newest_effective_date_first_one_per_date(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let version =
        |text: &str, date: NaiveDate, published: bool, millis: i64| TermsOfServiceRecord {
            id: ids.next_at(millis),
            text: format!("# Terms\n\n{text}"),
            changelog: format!("- {text}"),
            effective_date: date,
            published_at: published.then(|| at(millis + 1)),
            created_at: at(millis),
        };
    let save = |t: TermsOfServiceRecord| async move {
        m.save_terms_of_service(&t)
            .await
            .unwrap_or_else(|e| panic!("save_terms_of_service({}) failed: {e:?}", t.id));
        t
    };
    assert_eq!(terms(m).await, vec![], "an empty store has no terms");
    let t1 = save(version("first", day(2024, 1, 1), true, T0 + 1_000)).await;
    let t2 = save(version("a draft", day(2025, 6, 1), false, T0 + 2_000)).await;
    let t3 = save(version("second", day(2024, 12, 31), true, T0 + 3_000)).await;
    assert_eq!(
        terms(m).await,
        vec![t2.clone(), t3.clone(), t1.clone()],
        "terms_of_service: every version, newest effective date first, every field as saved"
    );
    let clash = version("clash", t3.effective_date, true, T0 + 4_000);
    assert_already_exists(
        m.save_terms_of_service(&clash).await,
        "effective_date",
        "save_terms_of_service of a new version on a taken date",
    );
    let t1b = TermsOfServiceRecord {
        text: "# Terms\n\nfirst, amended".into(),
        effective_date: day(2026, 2, 28),
        ..t1.clone()
    };
    let t1b = save(t1b).await;
    let t2b = save(TermsOfServiceRecord {
        published_at: Some(at(T0 + 5_000)),
        ..t2.clone()
    })
    .await;
    assert_eq!(
        terms(m).await,
        vec![t1b, t2b, t3],
        "save_terms_of_service of a known id replaces that version (its date may move), and the \
         refused one left nothing"
    );
}

/// Server-wide domain blocks are listed newest first with every field; a second block of a
/// blocked domain is `AlreadyExists("domain")`, saving a known id replaces the block, and
/// `delete_instance_domain_block` answers `true`, then `false`.
pub async fn instance_domain_blocks_unique_per_domain_and_replaced_by_id(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let save = |b: InstanceDomainBlockRecord| async move {
        m.save_instance_domain_block(&b)
            .await
            .unwrap_or_else(|e| panic!("save_instance_domain_block({}) failed: {e:?}", b.domain));
        b
    };
    let b1 = save(InstanceDomainBlockRecord {
        id: ids.next_at(T0 + 1_000),
        domain: "spam.example".into(),
        severity: DomainBlockSeverity::Suspend,
        reject_media: true,
        reject_reports: true,
        private_comment: Some("seen in reports".into()),
        public_comment: Some("Spam".into()),
        obfuscate: true,
        created_at: at(T0 + 1_000),
    })
    .await;
    let b2 = save(InstanceDomainBlockRecord {
        id: ids.next_at(T0 + 2_000),
        domain: "noisy.example".into(),
        severity: DomainBlockSeverity::Silence,
        reject_media: false,
        reject_reports: false,
        private_comment: None,
        public_comment: None,
        obfuscate: false,
        created_at: at(T0 + 2_000),
    })
    .await;
    assert_eq!(
        domain_blocks(m).await,
        vec![b2.clone(), b1.clone()],
        "instance_domain_blocks: newest first, every field as saved"
    );
    let again = InstanceDomainBlockRecord {
        id: ids.next_at(T0 + 3_000),
        created_at: at(T0 + 3_000),
        ..b1.clone()
    };
    assert_already_exists(
        m.save_instance_domain_block(&again).await,
        "domain",
        "save_instance_domain_block of a second block of a blocked domain",
    );
    let b1b = save(InstanceDomainBlockRecord {
        severity: DomainBlockSeverity::Noop,
        reject_media: false,
        private_comment: None,
        public_comment: Some("Was spam".into()),
        obfuscate: false,
        ..b1.clone()
    })
    .await;
    assert_eq!(
        domain_blocks(m).await,
        vec![b2.clone(), b1b.clone()],
        "save_instance_domain_block of a known id replaces the block, and the refused one left \
         nothing"
    );
    assert!(
        m.delete_instance_domain_block(b2.id)
            .await
            .expect("delete_instance_domain_block"),
        "delete_instance_domain_block of a block answers true"
    );
    assert!(
        !m.delete_instance_domain_block(b2.id)
            .await
            .expect("delete_instance_domain_block"),
        "delete_instance_domain_block of a deleted block answers false"
    );
    assert_eq!(
        domain_blocks(m).await,
        vec![b1b],
        "delete_instance_domain_block removes that block only"
    );
    save(InstanceDomainBlockRecord {
        id: ids.next_at(T0 + 4_000),
        created_at: at(T0 + 4_000),
        ..b2
    })
    .await;
}

/// Each list keeps its own values, newest first (the same value in two lists is fine); a value
/// already in a list is `AlreadyExists("value")` there; `delete_listed_value` removes by id
/// from that list only, answering `true`, then `false`.
pub async fn listed_values_are_kept_per_list_and_unique_within_one(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let value = |v: &str, millis: i64| ListedValueRecord {
        id: ids.next_at(millis),
        value: v.to_string(),
        created_at: at(millis),
    };
    let insert = |list: ValueList, v: ListedValueRecord| async move {
        m.insert_listed_value(list, &v)
            .await
            .unwrap_or_else(|e| panic!("insert_listed_value({list:?}, {}) failed: {e:?}", v.value));
        v
    };
    let hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    let a1 = insert(
        ValueList::DomainAllows,
        value("friends.example", T0 + 1_000),
    )
    .await;
    let e1 = insert(
        ValueList::EmailDomainBlocks,
        value("friends.example", T0 + 2_000),
    )
    .await;
    let a2 = insert(ValueList::DomainAllows, value("pals.example", T0 + 3_000)).await;
    let c1 = insert(ValueList::CanonicalEmailBlocks, value(hash, T0 + 4_000)).await;
    let all = || async {
        [
            listed(m, ValueList::DomainAllows).await,
            listed(m, ValueList::EmailDomainBlocks).await,
            listed(m, ValueList::CanonicalEmailBlocks).await,
        ]
    };
    assert_eq!(
        all().await,
        [
            vec![a2.clone(), a1.clone()],
            vec![e1.clone()],
            vec![c1.clone()]
        ],
        "listed_values: each list's own values, newest first, every field as inserted"
    );
    assert_already_exists(
        m.insert_listed_value(
            ValueList::DomainAllows,
            &value("friends.example", T0 + 5_000),
        )
        .await,
        "value",
        "insert_listed_value of a value already in that list",
    );
    assert!(
        !m.delete_listed_value(ValueList::EmailDomainBlocks, a1.id)
            .await
            .expect("delete_listed_value"),
        "delete_listed_value of another list's id answers false"
    );
    assert_eq!(
        all().await,
        [
            vec![a2.clone(), a1.clone()],
            vec![e1.clone()],
            vec![c1.clone()]
        ],
        "a refused insert and a delete from another list change nothing"
    );
    assert!(
        m.delete_listed_value(ValueList::DomainAllows, a1.id)
            .await
            .expect("delete_listed_value"),
        "delete_listed_value of a listed value answers true"
    );
    assert!(
        !m.delete_listed_value(ValueList::DomainAllows, a1.id)
            .await
            .expect("delete_listed_value"),
        "delete_listed_value of a removed value answers false"
    );
    assert_eq!(
        all().await,
        [vec![a2], vec![e1], vec![c1]],
        "delete_listed_value removes that value from that list only"
    );
    insert(
        ValueList::DomainAllows,
        value("friends.example", T0 + 6_000),
    )
    .await;
}

/// IP blocks are listed newest first with every field, expired ones included; a second block
/// of one range is `AlreadyExists("ip")`, saving a known id replaces the block, and
/// `delete_ip_block` answers `true`, then `false`.
pub async fn ip_blocks_are_saved_replaced_and_deleted(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let save = |b: IpBlockRecord| async move {
        m.save_ip_block(&b)
            .await
            .unwrap_or_else(|e| panic!("save_ip_block({}) failed: {e:?}", b.ip));
        b
    };
    let block =
        |ip: &str, severity: IpBlockSeverity, millis: i64, expires: Option<i64>| IpBlockRecord {
            id: ids.next_at(millis),
            ip: ip.to_string(),
            severity,
            comment: format!("block of {ip}"),
            created_at: at(millis),
            expires_at: expires.map(at),
        };
    let i1 = save(block(
        "192.0.2.0/24",
        IpBlockSeverity::SignUpBlock,
        T0 + 1_000,
        Some(T0 + 86_400_000),
    ))
    .await;
    let i2 = save(block(
        "2001:db8::/32",
        IpBlockSeverity::NoAccess,
        T0 + 2_000,
        None,
    ))
    .await;
    let i3 = save(block(
        "198.51.100.7/32",
        IpBlockSeverity::SignUpRequiresApproval,
        T0 + 3_000,
        Some(T0 + 3_500),
    ))
    .await;
    assert_eq!(
        ip_blocks(m).await,
        vec![i3.clone(), i2.clone(), i1.clone()],
        "ip_blocks: newest first, expired ones included, every field as saved"
    );
    assert_already_exists(
        m.save_ip_block(&block(
            "192.0.2.0/24",
            IpBlockSeverity::NoAccess,
            T0 + 4_000,
            None,
        ))
        .await,
        "ip",
        "save_ip_block of a second block of one range",
    );
    let i1b = save(IpBlockRecord {
        severity: IpBlockSeverity::NoAccess,
        comment: String::new(),
        expires_at: None,
        ..i1.clone()
    })
    .await;
    assert_eq!(
        ip_blocks(m).await,
        vec![i3.clone(), i2.clone(), i1b.clone()],
        "save_ip_block of a known id replaces the block, and the refused one left nothing"
    );
    assert!(
        m.delete_ip_block(i2.id).await.expect("delete_ip_block"),
        "delete_ip_block of a block answers true"
    );
    assert!(
        !m.delete_ip_block(i2.id).await.expect("delete_ip_block"),
        "delete_ip_block of a deleted block answers false"
    );
    assert_eq!(
        ip_blocks(m).await,
        vec![i3, i1b],
        "delete_ip_block removes that block only"
    );
}

/// A custom role made at `millis` (its id made at the same time). Not saved.
fn user_role(ids: &IdGenerator, name: &str, position: i32, millis: i64) -> UserRoleRecord {
    UserRoleRecord {
        id: ids.next_at(millis),
        name: name.to_string(),
        color: "#ff0000".into(),
        permissions: 16 | 1024,
        position,
        highlighted: true,
        created_at: at(millis),
        updated_at: at(millis),
    }
}

async fn save_user_role(m: &dyn ModerationStore, role: &UserRoleRecord) {
    m.save_user_role(role)
        .await
        .unwrap_or_else(|e| panic!("save_user_role({:?}) failed: {e:?}", role.name));
}

async fn user_roles(m: &dyn ModerationStore) -> Vec<UserRoleRecord> {
    m.user_roles()
        .await
        .unwrap_or_else(|e| panic!("user_roles failed: {e:?}"))
}

/// `user_roles` lists the custom roles by position, then by id, each read back as saved (by
/// `user_role_by_id` too); `save_user_role` of a known id replaces the role, which then takes
/// its new place; an unknown id is `None`.
pub async fn user_roles_order_by_position_then_id_and_save_replaces(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    assert_eq!(
        user_roles(m).await,
        vec![],
        "an empty store has no custom roles"
    );
    let helpers = user_role(&ids, "Helpers", 20, T0 + 1_000);
    let plain = UserRoleRecord {
        color: String::new(),
        permissions: 0,
        highlighted: false,
        ..user_role(&ids, "Plain", -5, T0 + 2_000)
    };
    let wardens = UserRoleRecord {
        permissions: u64::from(u32::MAX) << 1,
        ..user_role(&ids, "Wardens", 20, T0 + 3_000)
    };
    let juniors = user_role(&ids, "Juniors", 5, T0 + 4_000);
    for r in [&wardens, &helpers, &juniors, &plain] {
        save_user_role(m, r).await;
    }
    assert_eq!(
        user_roles(m).await,
        vec![
            plain.clone(),
            juniors.clone(),
            helpers.clone(),
            wardens.clone()
        ],
        "user_roles: by position, roles of one position by id, every field as saved"
    );
    for r in [&helpers, &plain, &wardens] {
        assert_eq!(
            m.user_role_by_id(r.id)
                .await
                .expect("user_role_by_id")
                .as_ref(),
            Some(r),
            "user_role_by_id reads the role as saved"
        );
    }
    assert_eq!(
        m.user_role_by_id(Id(1)).await.expect("user_role_by_id"),
        None,
        "user_role_by_id of an unknown id is None"
    );
    let renamed = UserRoleRecord {
        name: "Senior helpers".into(),
        color: "#00f".into(),
        permissions: 1,
        position: 100,
        highlighted: false,
        updated_at: at(T0 + 5_000),
        ..helpers.clone()
    };
    save_user_role(m, &renamed).await;
    assert_eq!(
        user_roles(m).await,
        vec![plain, juniors, wardens, renamed.clone()],
        "save_user_role of a known id replaces the role (no second one), which moves to its new \
         position"
    );
    assert_eq!(
        m.user_role_by_id(helpers.id)
            .await
            .expect("user_role_by_id"),
        Some(renamed),
        "user_role_by_id reads the replaced role"
    );
}

/// `delete_user_role` removes the role and answers `true`, then `false`; an unknown id is
/// `false`; the other roles stay.
pub async fn delete_user_role_true_then_false(store: &dyn Store, capabilities: Capabilities) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let gone = user_role(&ids, "Gone", 5, T0 + 1_000);
    let kept = user_role(&ids, "Kept", 6, T0 + 2_000);
    save_user_role(m, &gone).await;
    save_user_role(m, &kept).await;
    assert!(
        m.delete_user_role(gone.id).await.expect("delete_user_role"),
        "delete_user_role of a role answers true"
    );
    assert_eq!(
        user_roles(m).await,
        vec![kept.clone()],
        "delete_user_role removes that role only"
    );
    assert_eq!(
        m.user_role_by_id(gone.id).await.expect("user_role_by_id"),
        None,
        "a deleted role is not read by id"
    );
    assert!(
        !m.delete_user_role(gone.id).await.expect("delete_user_role"),
        "delete_user_role of a deleted role answers false"
    );
    assert!(
        !m.delete_user_role(Id(1)).await.expect("delete_user_role"),
        "delete_user_role of an unknown id answers false"
    );
    assert_eq!(user_roles(m).await, vec![kept], "the other role stays");
}

/// `admin_account_ids` with `roles` naming custom roles (by id, as `Role::as_str` writes them)
/// takes the local accounts holding them, alone or beside built-in roles.
pub async fn admin_account_ids_filter_by_custom_role(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let helpers = user_role(&ids, "Helpers", 5, T0 + 1_000);
    let wardens = user_role(&ids, "Wardens", 6, T0 + 2_000);
    save_user_role(m, &helpers).await;
    save_user_role(m, &wardens).await;
    let user = add_local(store, &ids, "user").await;
    let helper = add_local_with(store, &ids, "helper", |_, u| {
        u.role = Role::Custom(helpers.id)
    })
    .await;
    let warden = add_local_with(store, &ids, "warden", |_, u| {
        u.role = Role::Custom(wardens.id)
    })
    .await;
    let admin = add_local_with(store, &ids, "admin", |_, u| u.role = Role::Admin).await;
    add_remote(store, &ids, "remote", "remote.example").await;
    let login = store
        .user_by_account_id(helper.id)
        .await
        .expect("user_by_account_id")
        .expect("a login");
    assert_eq!(
        login.role,
        Role::Custom(helpers.id),
        "a login is read back with the custom role it was given"
    );
    let name = |r: &UserRoleRecord| Role::Custom(r.id).as_str().into_owned();
    let cases: [(Vec<String>, Vec<Id>); 3] = [
        (vec![name(&helpers)], vec![helper.id]),
        (
            vec![name(&wardens), "admin".into()],
            newest_first(vec![warden.id, admin.id]),
        ),
        (
            vec![name(&helpers), name(&wardens), "user".into()],
            newest_first(vec![user.id, helper.id, warden.id]),
        ),
    ];
    for (roles, expected) in cases {
        let filter = AdminAccountFilter {
            roles: roles.clone(),
            ..AdminAccountFilter::default()
        };
        assert_eq!(
            admin_ids(m, &filter).await,
            expected,
            "admin_account_ids, roles {roles:?}: the local accounts whose login holds one of \
             those roles, custom roles by id, newest first"
        );
    }
}

/// A trend review of `kind` and `target` decided at `millis`. Not saved.
fn trend_review(kind: TrendKind, target: Id, trendable: bool, millis: i64) -> TrendReviewRecord {
    TrendReviewRecord {
        kind,
        target,
        trendable,
        reviewed_at: at(millis),
    }
}

/// `trend_reviews` of `kind` and `targets`, by target.
async fn reviews_of(
    m: &dyn ModerationStore,
    kind: TrendKind,
    targets: &[Id],
) -> Vec<TrendReviewRecord> {
    let mut got = m
        .trend_reviews(kind, targets)
        .await
        .unwrap_or_else(|e| panic!("trend_reviews({kind:?}, {targets:?}) failed: {e:?}"));
    got.sort_by_key(|r| r.target);
    got
}

/// `set_trend_review` keeps one review per kind and target, the latest (every field replaced),
/// and `trend_reviews` answers those of the targets asked that were reviewed, each once, of
/// the kind asked only.
pub async fn trend_reviews_are_kept_per_kind_and_target_and_replaced(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let (one, two, never) = (
        ids.next_at(T0 + 1),
        ids.next_at(T0 + 2),
        ids.next_at(T0 + 3),
    );
    let set = |r: TrendReviewRecord| async move {
        m.set_trend_review(&r)
            .await
            .unwrap_or_else(|e| panic!("set_trend_review({r:?}) failed: {e:?}"));
    };
    set(trend_review(TrendKind::Status, one, true, T0 + 1_000)).await;
    set(trend_review(TrendKind::Status, two, false, T0 + 2_000)).await;
    set(trend_review(TrendKind::Link, one, false, T0 + 3_000)).await;
    set(trend_review(TrendKind::Publisher, two, true, T0 + 4_000)).await;
    assert_eq!(
        reviews_of(m, TrendKind::Status, &[one, never, two, one]).await,
        vec![
            trend_review(TrendKind::Status, one, true, T0 + 1_000),
            trend_review(TrendKind::Status, two, false, T0 + 2_000),
        ],
        "trend_reviews: the reviews of the targets asked, each once, of that kind only; a \
         target never reviewed has none"
    );
    assert_eq!(
        reviews_of(m, TrendKind::Link, &[one, two]).await,
        vec![trend_review(TrendKind::Link, one, false, T0 + 3_000)],
        "trend_reviews: each kind keeps its own reviews"
    );
    assert_eq!(
        reviews_of(m, TrendKind::Status, &[]).await,
        vec![],
        "trend_reviews of no targets"
    );
    set(trend_review(TrendKind::Status, one, false, T0 + 5_000)).await;
    assert_eq!(
        reviews_of(m, TrendKind::Status, &[one]).await,
        vec![trend_review(TrendKind::Status, one, false, T0 + 5_000)],
        "set_trend_review of a reviewed target replaces its review (decision and time)"
    );
    assert_eq!(
        reviews_of(m, TrendKind::Publisher, &[two]).await,
        vec![trend_review(TrendKind::Publisher, two, true, T0 + 4_000)],
        "set_trend_review leaves the other kinds' reviews of the same id alone"
    );
}

/// `trending_tags(since, offset, limit)` ranks the tags of the statuses created at or after
/// `since` (any visibility) by their distinct authors, then by their statuses, then newest tag
/// first, reviewed or not, and skips `offset` and takes `limit`.
pub async fn trending_tags_rank_by_authors_then_uses_then_newest_tag(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let mut tags: Vec<TagRecord> = vec![];
    for name in ["Solo", "pair", "lone", "late", "stale", "unused"] {
        tags.push(add_tag(store, &ids, name, T0).await);
    }
    let (a, b, c) = (
        add_local(store, &ids, "ann").await,
        add_local(store, &ids, "bob").await,
        add_remote(store, &ids, "cat", "remote.example").await,
    );
    let tagged = |author: &AccountRecord, names: &[&str], millis: i64| StatusRecord {
        tags: names.iter().map(|n| n.to_string()).collect(),
        ..status(&ids, author, millis)
    };
    // The week starts at T0 + 10s; `stale` was used only before.
    let since = at(T0 + 10_000);
    add_status(store, tagged(&a, &["stale"], T0 + 9_999)).await;
    for i in 0..3 {
        add_status(store, tagged(&a, &["solo"], T0 + 10_000 + i)).await;
    }
    add_status(store, tagged(&a, &["pair", "lone"], T0 + 11_000)).await;
    add_status(
        store,
        StatusRecord {
            visibility: Visibility::Unlisted,
            ..tagged(&b, &["pair"], T0 + 12_000)
        },
    )
    .await;
    add_status(store, tagged(&c, &["late"], T0 + 13_000)).await;
    // Reviewed or not, trendable or not: every tag ranks.
    let mut rejected = tags[1].clone();
    rejected.review.trendable = Some(false);
    rejected.review.reviewed_at = Some(at(T0 + 14_000));
    assert!(
        m.trending_tags(since, 0, 0)
            .await
            .is_ok_and(|t| t.is_empty()),
        "trending_tags with limit 0 takes none"
    );
    store.update_tag(&rejected).await.expect("update_tag");
    let expected = vec![rejected, tags[0].clone(), tags[3].clone(), tags[2].clone()];
    let ranked = |offset: u64, limit: u64| async move {
        m.trending_tags(since, offset, limit)
            .await
            .unwrap_or_else(|e| panic!("trending_tags(offset {offset}, limit {limit}): {e:?}"))
    };
    assert_eq!(
        ranked(0, 10).await,
        expected,
        "trending_tags: the tags used since the start (pair: 2 authors; solo: 1 author, 3 \
         statuses; late, then lone: 1 author, 1 status, newest tag first), as stored"
    );
    assert_eq!(
        ranked(1, 2).await,
        expected[1..3].to_vec(),
        "trending_tags skips offset and takes limit"
    );
    assert_eq!(ranked(4, 10).await, vec![], "trending_tags past the end");
}

/// `trending_status_ids(since, offset, limit)` ranks the statuses that may trend (public,
/// created at or after `since`, neither reblogs nor replies, by authors neither suspended nor
/// silenced) by the distinct accounts other than the author that favourited or reblogged them,
/// then newest first, leaving out those nobody else did, and skips `offset` and takes `limit`.
pub async fn trending_status_ids_rank_by_accounts_favouriting_or_reblogging(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let author = add_local(store, &ids, "author").await;
    let other = add_remote(store, &ids, "other", "remote.example").await;
    let silenced = add_local(store, &ids, "silenced").await;
    let suspended = add_local(store, &ids, "suspended").await;
    let mut fans = vec![];
    for name in ["fan1", "fan2", "fan3"] {
        fans.push(add_local(store, &ids, name).await);
    }
    let since = at(T0 + 10_000);
    let post = |by: &AccountRecord, millis: i64| status(&ids, by, millis);
    let one = add_status(store, post(&author, T0 + 11_000)).await;
    let two = add_status(store, post(&author, T0 + 12_000)).await;
    let three = add_status(store, post(&other, T0 + 13_000)).await;
    let own_only = add_status(store, post(&author, T0 + 14_000)).await;
    let old = add_status(store, post(&author, T0 + 9_000)).await;
    let unlisted = add_status(
        store,
        StatusRecord {
            visibility: Visibility::Unlisted,
            ..post(&author, T0 + 15_000)
        },
    )
    .await;
    let answer = add_status(store, reply(&ids, &other, &one, T0 + 16_000)).await;
    let by_silenced = add_status(store, post(&silenced, T0 + 17_000)).await;
    let by_suspended = add_status(store, post(&suspended, T0 + 18_000)).await;
    update(store, &silenced, |a| a.silenced_at = Some(at(T0 + 20_000))).await;
    update(store, &suspended, |a| {
        a.suspended_at = Some(at(T0 + 20_000))
    })
    .await;
    let favourite = |who: &AccountRecord, s: &StatusRecord, millis: i64| {
        let (id, who, s) = (ids.next_at(millis), who.id, s.id);
        async move {
            store
                .insert_favourite(id, who, s)
                .await
                .unwrap_or_else(|e| panic!("insert_favourite failed: {e:?}"));
        }
    };
    // `one`: fan1 favourites and reblogs it, fan2 reblogs it, its author favourites it: two
    // accounts besides the author.
    favourite(&fans[0], &one, T0 + 30_000).await;
    favourite(&author, &one, T0 + 30_001).await;
    add_status(store, reblog(&ids, &fans[0], &one, T0 + 30_002)).await;
    add_status(store, reblog(&ids, &fans[1], &one, T0 + 30_003)).await;
    // `two` and `three`: one account each (`three` is newer).
    favourite(&fans[2], &two, T0 + 30_004).await;
    add_status(store, reblog(&ids, &fans[2], &three, T0 + 30_005)).await;
    // Only their author, or statuses that cannot trend.
    favourite(&author, &own_only, T0 + 30_006).await;
    for (i, s) in [&old, &unlisted, &answer, &by_silenced, &by_suspended]
        .into_iter()
        .enumerate()
    {
        favourite(&fans[0], s, T0 + 31_000 + i as i64).await;
    }
    let ranked = |offset: u64, limit: u64| async move {
        m.trending_status_ids(since, offset, limit)
            .await
            .unwrap_or_else(|e| {
                panic!("trending_status_ids(offset {offset}, limit {limit}): {e:?}")
            })
    };
    assert_eq!(
        ranked(0, 10).await,
        vec![one.id, three.id, two.id],
        "trending_status_ids: one (2 accounts), then three and two (1 account each, newest \
         first); not a status only its author favourited, nor one older than `since`, unlisted, \
         a reply, or by a silenced or suspended author"
    );
    assert_eq!(
        ranked(1, 1).await,
        vec![three.id],
        "trending_status_ids skips offset and takes limit"
    );
    assert_eq!(
        ranked(3, 10).await,
        vec![],
        "trending_status_ids past the end"
    );
    assert_eq!(
        ranked(0, 0).await,
        vec![],
        "trending_status_ids with limit 0"
    );
}
