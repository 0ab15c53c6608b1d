//! The admin dashboard's figures (`app.metrics()`): Mastodon's measures (a number per day of a
//! range, its total and the previous range's), dimensions (the biggest groups of a kind) and
//! retention cohorts (local sign-ups of a day or month, and how many of them were still active
//! in each later one), and the activity they count: the day a local account made an
//! authenticated request, recorded at most once a day per account and process.
//!
//! The store answers raw rows ([`StatsStore::measure_events`], `dimension_counts`,
//! `signups_between`, `storage_usage`); everything else (UTC days, distinct totals, the previous
//! range, cohort rates, order, limits, names) is decided here, once for every store. Render
//! turns the views into `Admin::Measure`, `Admin::Dimension` and `Admin::Cohort`
//! (`render/metrics.rs`).

use std::collections::{BTreeMap, HashSet};
use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, Datelike, Months, NaiveDate, NaiveDateTime, Utc};
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::services::instance::{FEDBLOG_VERSION, MASTODON_COMPAT_VERSION};
use crate::store::{
    DimensionKind, DomainScope, MeasureEvent, MeasureKind, StatsStore, Store, TagStore, midnight,
};

/// The most days a range of measures or dimensions may span, and the most periods (days or
/// months) a retention range may: a longer one is a 422, so that no request makes the server
/// read or build without bound.
pub const MAX_PERIODS: i64 = 366;

/// The groups a dimension lists when the request names no `limit`.
pub const DEFAULT_DIMENSION_LIMIT: u64 = 10;

/// The most groups a dimension lists, whatever the request's `limit`.
pub const MAX_DIMENSION_LIMIT: u64 = 100;

/// The text of a 422 for a date that cannot be read.
const INVALID_DATE: &str = "Invalid date supplied";

/// A range of whole UTC days, both ends included, as the `start_at` and `end_at` of a request
/// name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayRange {
    /// The first day.
    pub first: NaiveDate,
    /// The last day.
    pub last: NaiveDate,
}

impl DayRange {
    /// The days from `start_at` to `end_at`, each a date (`2024-05-01`) or a date and time
    /// (`2024-05-01T00:00:00Z`, whose date is taken as written). A missing or unreadable date,
    /// an end before the start, or a range of more than [`MAX_PERIODS`] days is a 422.
    pub fn parse(start_at: Option<&str>, end_at: Option<&str>) -> ApiResult<DayRange> {
        let range = DayRange::parse_unbounded(start_at, end_at)?;
        if range.days() > MAX_PERIODS {
            return Err(ApiError::unprocessable(format!(
                "The range may span at most {MAX_PERIODS} days"
            )));
        }
        Ok(range)
    }

    /// As [`DayRange::parse`], without the bound on its length (retention bounds its periods).
    pub fn parse_unbounded(start_at: Option<&str>, end_at: Option<&str>) -> ApiResult<DayRange> {
        let date = |text: Option<&str>| {
            text.and_then(parse_date)
                .ok_or_else(|| ApiError::unprocessable(INVALID_DATE))
        };
        let range = DayRange {
            first: date(start_at)?,
            last: date(end_at)?,
        };
        if range.last < range.first {
            return Err(ApiError::unprocessable("end_at is before start_at"));
        }
        Ok(range)
    }

    /// How many days it spans.
    pub fn days(&self) -> i64 {
        (self.last - self.first).num_days() + 1
    }

    /// Its first instant.
    pub fn from(&self) -> DateTime<Utc> {
        midnight(self.first)
    }

    /// The instant after it.
    pub fn to(&self) -> DateTime<Utc> {
        midnight(self.last) + chrono::Duration::days(1)
    }

    /// The range of as many days just before it.
    pub fn previous(&self) -> DayRange {
        let length = chrono::Duration::days(self.days());
        DayRange {
            first: self.first - length,
            last: self.last - length,
        }
    }

    /// Its days, in order.
    pub fn each_day(&self) -> impl Iterator<Item = NaiveDate> + use<> {
        let last = self.last;
        self.first.iter_days().take_while(move |d| *d <= last)
    }
}

/// A date as a request gives it, between the years 1 and 9999.
fn parse_date(text: &str) -> Option<NaiveDate> {
    let text = text.trim();
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .or_else(|| {
            DateTime::parse_from_rfc3339(text)
                .ok()
                .map(|t| t.date_naive())
        })
        .or_else(|| {
            [
                "%Y-%m-%dT%H:%M:%S%.f",
                "%Y-%m-%d %H:%M:%S%.f",
                "%Y-%m-%dT%H:%M",
            ]
            .iter()
            .find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
            .map(|t| t.date())
        })?;
    (1..=9999).contains(&date.year()).then_some(date)
}

/// How a measure turns its events into a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tally {
    /// The sum of their amounts.
    Sum,
    /// The number of distinct subjects.
    Distinct,
}

impl Tally {
    fn of<'e>(self, events: impl IntoIterator<Item = &'e MeasureEvent>) -> i64 {
        match self {
            Tally::Sum => events.into_iter().map(|e| e.amount).sum(),
            Tally::Distinct => events
                .into_iter()
                .map(|e| e.subject.as_str())
                .collect::<HashSet<_>>()
                .len() as i64,
        }
    }
}

/// One measure a request asked for, understood.
struct MeasureSpec {
    key: &'static str,
    kind: MeasureKind,
    tally: Tally,
    /// The total counts every event ever (Mastodon's per-server measures), and there is no
    /// previous total.
    all_time: bool,
    unit: Option<&'static str>,
}

/// One measure as render needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasureView {
    /// Mastodon's key (`active_users`).
    pub key: &'static str,
    /// `bytes` for a size.
    pub unit: Option<&'static str>,
    /// Over the range, or over all time for the per-server measures.
    pub total: i64,
    /// Over the range of as many days just before (not for the per-server measures).
    pub previous_total: Option<i64>,
    /// Each day of the range with its number.
    pub data: Vec<(NaiveDate, i64)>,
}

/// The value of a dimension's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DimensionValue {
    /// How many.
    Count(i64),
    /// A size in bytes.
    Bytes(i64),
    /// A text (a version).
    Text(String),
}

/// One row of a dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimensionRow {
    /// The group's key (a language code, a domain, ...).
    pub key: String,
    /// Its name for people.
    pub human_key: String,
    /// Its value.
    pub value: DimensionValue,
}

/// One dimension as render needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimensionView {
    /// Mastodon's key (`languages`).
    pub key: &'static str,
    /// Its rows, biggest first.
    pub rows: Vec<DimensionRow>,
}

/// The size of a retention cohort's periods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frequency {
    /// A day.
    Day,
    /// A calendar month.
    Month,
}

impl Frequency {
    /// `day` or `month`; anything else is `day`, as Mastodon reads it.
    pub fn parse(text: Option<&str>) -> Frequency {
        match text.map(str::trim) {
            Some("month") => Frequency::Month,
            _ => Frequency::Day,
        }
    }

    /// Its name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Frequency::Day => "day",
            Frequency::Month => "month",
        }
    }

    /// The period a day is in.
    fn period_of(self, day: NaiveDate) -> NaiveDate {
        match self {
            Frequency::Day => day,
            Frequency::Month => day.with_day(1).unwrap_or(day),
        }
    }

    /// The period after `period`.
    fn next(self, period: NaiveDate) -> Option<NaiveDate> {
        match self {
            Frequency::Day => period.succ_opt(),
            Frequency::Month => period.checked_add_months(Months::new(1)),
        }
    }
}

/// One point of a cohort: how many of its members were active in a period or later.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CohortPoint {
    /// The period's first day.
    pub date: NaiveDate,
    /// `value` over the cohort's size (0 for an empty cohort).
    pub rate: f64,
    /// Members whose last activity is in this period or a later one.
    pub value: i64,
}

/// The local accounts that signed up in one period, followed through the later ones.
#[derive(Clone, Debug, PartialEq)]
pub struct CohortView {
    /// The period's first day.
    pub period: NaiveDate,
    /// The size of the periods.
    pub frequency: Frequency,
    /// One point per period from the cohort's own to the range's last.
    pub data: Vec<CohortPoint>,
}

/// The (account, day) pairs this process has recorded activity for, for the current day only:
/// an account's first authenticated request of a UTC day writes, the others do not. Kept by
/// the app.
#[derive(Debug, Default)]
pub struct ActivityMemory {
    seen: Mutex<(Option<NaiveDate>, HashSet<Id>)>,
}

impl ActivityMemory {
    /// Whether `account`'s activity on `day` was recorded.
    fn recorded(&self, account: Id, day: NaiveDate) -> bool {
        let seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.0 == Some(day) && seen.1.contains(&account)
    }

    /// Remembers that it was; a new day forgets the previous one.
    fn remember(&self, account: Id, day: NaiveDate) {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.0.is_some_and(|current| current > day) {
            return;
        }
        if seen.0 != Some(day) {
            *seen = (Some(day), HashSet::new());
        }
        seen.1.insert(account);
    }
}

/// The metrics area: `app.metrics()`. It holds the statistics and tag stores, the app's
/// [`ActivityMemory`], the server's domain (the key local rows get) and the clock.
pub struct Metrics<'a> {
    stats: &'a dyn StatsStore,
    tags: &'a dyn TagStore,
    memory: &'a ActivityMemory,
    domain: &'a str,
    now: DateTime<Utc>,
}

impl<'a> Metrics<'a> {
    /// The area over `store`, remembering recorded activity in `memory`; `domain` is the
    /// server's own.
    pub fn new(
        store: &'a dyn Store,
        memory: &'a ActivityMemory,
        domain: &'a str,
        now: DateTime<Utc>,
    ) -> Self {
        Metrics {
            stats: store,
            tags: store,
            memory,
            domain,
            now,
        }
    }

    /// Records that the local account `account` is active today (UTC), once a day per
    /// process; nothing with a store that keeps no dashboard data. A failure is logged and
    /// otherwise ignored: the request it came with goes on.
    pub async fn record_activity(&self, account: Id) {
        let day = self.now.date_naive();
        if !self.stats.keeps_dashboard_data() || self.memory.recorded(account, day) {
            return;
        }
        match self.stats.record_active_day(account, day).await {
            Ok(()) => self.memory.remember(account, day),
            Err(error) => {
                tracing::warn!(%account, %error, "the day's activity of an account was not recorded")
            }
        }
    }

    /// The measures named by `keys` over `range`, in the order asked, each once; unknown keys
    /// are left out. `params` holds each key's own parameters (`tag_accounts[id]`,
    /// `instance_accounts[domain]`): one missing is a 400, an unknown tag a 404. A 404 too
    /// with a store that keeps no dashboard data.
    pub async fn measures(
        &self,
        keys: &[String],
        range: DayRange,
        params: &Map<String, Value>,
    ) -> ApiResult<Vec<MeasureView>> {
        self.require_dashboard_data()?;
        let mut asked = HashSet::new();
        let mut specs = vec![];
        for key in keys {
            if asked.insert(key.as_str())
                && let Some(spec) = self.measure_spec(key, params).await?
            {
                specs.push(spec);
            }
        }
        let mut out = Vec::with_capacity(specs.len());
        for spec in specs {
            out.push(self.measure(spec, range).await?);
        }
        Ok(out)
    }

    /// What a measure key means, with its parameters; `None` for a key Mastodon does not have.
    async fn measure_spec(
        &self,
        key: &str,
        params: &Map<String, Value>,
    ) -> ApiResult<Option<MeasureSpec>> {
        let spec = |key, kind, tally| MeasureSpec {
            key,
            kind,
            tally,
            all_time: false,
            unit: None,
        };
        let server = |key, kind: fn(DomainScope) -> MeasureKind, subdomains: bool| {
            Ok::<_, ApiError>(MeasureSpec {
                key,
                kind: kind(domain_scope(params, key, subdomains)?),
                tally: Tally::Sum,
                all_time: true,
                unit: None,
            })
        };
        Ok(Some(match key {
            "active_users" => spec("active_users", MeasureKind::ActiveUsers, Tally::Distinct),
            "new_users" => spec("new_users", MeasureKind::NewUsers, Tally::Sum),
            "interactions" => spec("interactions", MeasureKind::Interactions, Tally::Sum),
            "opened_reports" => spec("opened_reports", MeasureKind::OpenedReports, Tally::Sum),
            "resolved_reports" => {
                spec("resolved_reports", MeasureKind::ResolvedReports, Tally::Sum)
            }
            "tag_accounts" => {
                let name = self.tag_name(params, "tag_accounts").await?;
                spec(
                    "tag_accounts",
                    MeasureKind::TagStatuses { name },
                    Tally::Distinct,
                )
            }
            "tag_uses" => {
                let name = self.tag_name(params, "tag_uses").await?;
                spec("tag_uses", MeasureKind::TagStatuses { name }, Tally::Sum)
            }
            "tag_servers" => {
                let name = self.tag_name(params, "tag_servers").await?;
                spec(
                    "tag_servers",
                    MeasureKind::TagServers { name },
                    Tally::Distinct,
                )
            }
            "instance_accounts" => {
                server("instance_accounts", MeasureKind::InstanceAccounts, true)?
            }
            "instance_media_attachments" => MeasureSpec {
                unit: Some("bytes"),
                ..server(
                    "instance_media_attachments",
                    MeasureKind::InstanceMediaAttachments,
                    false,
                )?
            },
            "instance_reports" => server("instance_reports", MeasureKind::InstanceReports, false)?,
            "instance_statuses" => {
                server("instance_statuses", MeasureKind::InstanceStatuses, true)?
            }
            "instance_follows" => server("instance_follows", MeasureKind::InstanceFollows, true)?,
            "instance_followers" => {
                server("instance_followers", MeasureKind::InstanceFollowers, true)?
            }
            _ => return Ok(None),
        }))
    }

    /// One measure over `range`.
    async fn measure(&self, spec: MeasureSpec, range: DayRange) -> ApiResult<MeasureView> {
        let events = self
            .stats
            .measure_events(&spec.kind, range.from(), range.to())
            .await?;
        let mut by_day: BTreeMap<NaiveDate, Vec<&MeasureEvent>> = BTreeMap::new();
        for e in &events {
            by_day.entry(e.at.date_naive()).or_default().push(e);
        }
        let data = range
            .each_day()
            .map(|day| {
                let value = by_day
                    .get(&day)
                    .map_or(0, |day_events| spec.tally.of(day_events.iter().copied()));
                (day, value)
            })
            .collect();
        let in_range = || {
            events
                .iter()
                .filter(|e| e.at >= range.from() && e.at < range.to())
        };
        let (total, previous_total) = if spec.all_time {
            (self.stats.measure_total(&spec.kind).await?, None)
        } else {
            let previous = range.previous();
            let before = self
                .stats
                .measure_events(&spec.kind, previous.from(), previous.to())
                .await?;
            let before = before
                .iter()
                .filter(|e| e.at >= previous.from() && e.at < previous.to());
            (spec.tally.of(in_range()), Some(spec.tally.of(before)))
        };
        Ok(MeasureView {
            key: spec.key,
            unit: spec.unit,
            total,
            previous_total,
            data,
        })
    }

    /// The dimensions named by `keys` over `range`, in the order asked, each once and each of
    /// at most `limit` rows ([`DEFAULT_DIMENSION_LIMIT`] when `None`, between 1 and
    /// [`MAX_DIMENSION_LIMIT`]); unknown keys are left out. `params` holds each key's own
    /// parameters (`tag_servers[id]`, `instance_accounts[domain]`): one missing is a 400, an
    /// unknown tag a 404. A 404 too with a store that keeps no dashboard data.
    pub async fn dimensions(
        &self,
        keys: &[String],
        range: DayRange,
        limit: Option<i64>,
        params: &Map<String, Value>,
    ) -> ApiResult<Vec<DimensionView>> {
        self.require_dashboard_data()?;
        let limit = limit.map_or(DEFAULT_DIMENSION_LIMIT, |l| {
            l.clamp(1, MAX_DIMENSION_LIMIT as i64) as u64
        });
        let mut asked = HashSet::new();
        let mut out = vec![];
        for key in keys {
            if !asked.insert(key.as_str()) {
                continue;
            }
            if let Some(view) = self.dimension(key, range, limit, params).await? {
                out.push(view);
            }
        }
        Ok(out)
    }

    /// One dimension; `None` for a key Mastodon does not have.
    async fn dimension(
        &self,
        key: &str,
        range: DayRange,
        limit: u64,
        params: &Map<String, Value>,
    ) -> ApiResult<Option<DimensionView>> {
        let (key, kind, label): (&'static str, DimensionKind, Label) = match key {
            "languages" => ("languages", DimensionKind::Languages, Label::Language),
            "sources" => ("sources", DimensionKind::Sources, Label::Source),
            "servers" => ("servers", DimensionKind::Servers, Label::Server),
            "tag_servers" => {
                let name = self.tag_name(params, "tag_servers").await?;
                (
                    "tag_servers",
                    DimensionKind::TagServers { name },
                    Label::Server,
                )
            }
            "tag_languages" => {
                let name = self.tag_name(params, "tag_languages").await?;
                (
                    "tag_languages",
                    DimensionKind::TagLanguages { name },
                    Label::Language,
                )
            }
            "instance_accounts" => (
                "instance_accounts",
                DimensionKind::InstanceAccounts(domain_scope(params, "instance_accounts", false)?),
                Label::Plain,
            ),
            "instance_languages" => (
                "instance_languages",
                DimensionKind::InstanceLanguages(domain_scope(
                    params,
                    "instance_languages",
                    false,
                )?),
                Label::Language,
            ),
            "space_usage" => return Ok(Some(self.space_usage().await?)),
            "software_versions" => return Ok(Some(self.software_versions().await?)),
            _ => return Ok(None),
        };
        let counted = self
            .stats
            .dimension_counts(&kind, range.from(), range.to(), limit)
            .await?;
        // Rows without a key take the key Mastodon gives them, which may merge them with a
        // row that has it.
        let mut merged: BTreeMap<String, i64> = BTreeMap::new();
        for (group, count) in counted {
            *merged.entry(label.key(group, self.domain)).or_default() += count;
        }
        let mut rows: Vec<(String, i64)> = merged.into_iter().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(Some(DimensionView {
            key,
            rows: rows
                .into_iter()
                .map(|(group, count)| DimensionRow {
                    human_key: label.human(&group),
                    key: group,
                    value: DimensionValue::Count(count),
                })
                .collect(),
        }))
    }

    /// `space_usage`: the database's size and the media's, each when the store tells.
    async fn space_usage(&self) -> ApiResult<DimensionView> {
        let usage = self.stats.storage_usage().await?;
        let mut rows = vec![];
        if let Some(bytes) = usage.database_bytes {
            rows.push(DimensionRow {
                key: usage.engine,
                human_key: usage.engine_name,
                value: DimensionValue::Bytes(bytes),
            });
        }
        if let Some(bytes) = usage.media_bytes {
            rows.push(DimensionRow {
                key: "media".into(),
                human_key: "Media storage".into(),
                value: DimensionValue::Bytes(bytes),
            });
        }
        Ok(DimensionView {
            key: "space_usage",
            rows,
        })
    }

    /// `software_versions`: the Mastodon API followed, fedblog's own, and the database's.
    async fn software_versions(&self) -> ApiResult<DimensionView> {
        let usage = self.stats.storage_usage().await?;
        let text = |key: &str, human: &str, version: &str| DimensionRow {
            key: key.into(),
            human_key: human.into(),
            value: DimensionValue::Text(version.into()),
        };
        let mut rows = vec![
            text("mastodon", "Mastodon", MASTODON_COMPAT_VERSION),
            text("fedblog", "fedblog", FEDBLOG_VERSION),
        ];
        if !usage.engine_version.is_empty() {
            rows.push(text(
                &usage.engine,
                &usage.engine_name,
                &usage.engine_version,
            ));
        }
        Ok(DimensionView {
            key: "software_versions",
            rows,
        })
    }

    /// The retention of local sign-ups: one cohort per period (day or month) of `range`, each
    /// followed through the periods from its own to the range's last. A member counts in a
    /// period when its last activity is in that period or a later one, as Mastodon counts
    /// from `current_sign_in_at`. More than [`MAX_PERIODS`] periods is a 422; a store that
    /// keeps no dashboard data a 404.
    pub async fn retention(
        &self,
        range: DayRange,
        frequency: Frequency,
    ) -> ApiResult<Vec<CohortView>> {
        self.require_dashboard_data()?;
        let mut periods = vec![frequency.period_of(range.first)];
        let last = frequency.period_of(range.last);
        while let Some(&p) = periods.last()
            && p < last
        {
            if periods.len() as i64 >= MAX_PERIODS {
                return Err(ApiError::unprocessable(format!(
                    "The range may span at most {MAX_PERIODS} periods"
                )));
            }
            let Some(next) = frequency.next(p) else {
                break;
            };
            periods.push(next);
        }
        let from = midnight(periods[0]);
        let to = frequency.next(last).map_or(range.to(), midnight);
        let signups = self.stats.signups_between(from, to).await?;
        // Per cohort: how many members were last active in each period index (None: never in
        // the range's periods or later).
        let index_of = |day: NaiveDate| periods.partition_point(|p| *p <= frequency.period_of(day));
        let mut members: Vec<Vec<i64>> = vec![vec![0; periods.len() + 1]; periods.len()];
        for s in signups {
            let cohort = index_of(s.created_at.date_naive());
            let Some(slot) = cohort.checked_sub(1).and_then(|c| members.get_mut(c)) else {
                continue;
            };
            // 0: never active, or before the first period; i: in period i - 1 or after it.
            let last_seen = s.last_active.map_or(0, index_of);
            slot[last_seen] += 1;
        }
        Ok(periods
            .iter()
            .enumerate()
            .map(|(c, &period)| {
                let counts = &members[c];
                let size: i64 = counts.iter().sum();
                // retained[r]: members last active in period r or later.
                let data = (c..periods.len())
                    .map(|r| {
                        let value: i64 = counts[r + 1..].iter().sum();
                        CohortPoint {
                            date: periods[r],
                            rate: value as f64 / size.max(1) as f64,
                            value,
                        }
                    })
                    .collect();
                CohortView {
                    period,
                    frequency,
                    data,
                }
            })
            .collect())
    }

    /// A 404 unless the store keeps the dashboard's data: a store written before it answers
    /// nothing, which the dashboard must not show as zeros.
    fn require_dashboard_data(&self) -> ApiResult<()> {
        if self.stats.keeps_dashboard_data() {
            Ok(())
        } else {
            Err(ApiError::no_dashboard_data())
        }
    }

    /// The normalised name of the tag `params[key][id]` names: 404 when there is no such tag,
    /// 400 when `params[key]` is missing.
    async fn tag_name(&self, params: &Map<String, Value>, key: &str) -> ApiResult<String> {
        let id = key_params(params, key)?
            .get("id")
            .and_then(scalar_text)
            .and_then(|id| id.parse::<Id>().ok())
            .ok_or_else(ApiError::not_found)?;
        let tag = self
            .tags
            .tag_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        Ok(tag.name)
    }
}

/// The parameters of one key (`params[key]`, an object): a 400 when missing or empty, as
/// Rails' `params.require` answers.
fn key_params<'p>(params: &'p Map<String, Value>, key: &str) -> ApiResult<&'p Map<String, Value>> {
    params
        .get(key)
        .and_then(Value::as_object)
        .filter(|o| !o.is_empty())
        .ok_or_else(|| {
            ApiError::bad_request(format!("param is missing or the value is empty: {key}"))
        })
}

/// A string or number parameter as text.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The server `params[key][domain]` names (lower-cased), with its subdomains when `subdomains`
/// and `params[key][include_subdomains]` is true; a 400 without a domain.
fn domain_scope(
    params: &Map<String, Value>,
    key: &str,
    subdomains: bool,
) -> ApiResult<DomainScope> {
    let own = key_params(params, key)?;
    let domain = own
        .get("domain")
        .and_then(scalar_text)
        .map(|d| d.trim_end_matches('.').to_ascii_lowercase())
        .filter(|d| !d.is_empty())
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "param is missing or the value is empty: {key}[domain]"
            ))
        })?;
    let include = own.get("include_subdomains").is_some_and(|v| match v {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_i64() == Some(1),
        Value::String(s) => matches!(
            s.trim().to_ascii_lowercase().as_str(),
            "true" | "1" | "on" | "yes" | "t"
        ),
        _ => false,
    });
    Ok(DomainScope {
        domain,
        include_subdomains: subdomains && include,
    })
}

/// How a dimension names its groups.
#[derive(Clone, Copy, Debug)]
enum Label {
    /// Language codes (`und` without one), named in English.
    Language,
    /// Application names (`web` without one, named `Website`).
    Source,
    /// Domains (the server's own for local rows).
    Server,
    /// As they are.
    Plain,
}

impl Label {
    /// The key of a group (`None`: the rows without one).
    fn key(self, group: Option<String>, domain: &str) -> String {
        match (self, group) {
            (_, Some(g)) => g,
            (Label::Language, None) => "und".into(),
            (Label::Source, None) => "web".into(),
            (Label::Server, None) => domain.into(),
            (Label::Plain, None) => String::new(),
        }
    }

    /// The name of a group for people.
    fn human(self, key: &str) -> String {
        match self {
            Label::Language => language_name(key),
            Label::Source if key == "web" => "Website".into(),
            Label::Source | Label::Server | Label::Plain => key.into(),
        }
    }
}

/// The English name of a language code or locale (`pt-BR`: `Portuguese (BR)`); `und` is
/// `Unknown`, a code nobody knows is itself.
pub fn language_name(code: &str) -> String {
    if code == "und" {
        return "Unknown".into();
    }
    let (language, region) = match code.split_once(['-', '_']) {
        Some((l, r)) => (l, Some(r)),
        None => (code, None),
    };
    let lower = language.to_ascii_lowercase();
    let Some(name) = isolang::Language::from_639_1(&lower)
        .or_else(|| isolang::Language::from_639_3(&lower))
        .map(|l| l.to_name())
    else {
        return code.into();
    };
    match region {
        Some(r) => format!("{name} ({r})"),
        None => name.into(),
    }
}
