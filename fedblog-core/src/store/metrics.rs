//! The raw material of the admin dashboard's figures (`/api/v1/admin/measures`, `dimensions`,
//! `retention`) that [`StatsStore`](super::StatsStore) reads: which events a measure counts,
//! which groups a dimension counts, the sign-ups a retention cohort follows, and what the
//! storage holds. The store selects rows; `services/metrics.rs` buckets, totals and orders them.

use chrono::{DateTime, NaiveDate, Utc};

/// The accounts of one server: those whose domain is `domain` (folded to ASCII lower case, as
/// the services pass it), and, with `include_subdomains`, those of its subdomains too
/// (`a.example` and `b.a.example` for `example`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainScope {
    /// The server's domain, lower-cased.
    pub domain: String,
    /// Whether accounts of its subdomains count too.
    pub include_subdomains: bool,
}

impl DomainScope {
    /// Whether an account's domain (`None` for a local account) is in the scope, compared
    /// ASCII-case-insensitively.
    pub fn covers(&self, domain: Option<&str>) -> bool {
        let Some(d) = domain else {
            return false;
        };
        let d = d.to_ascii_lowercase();
        d == self.domain
            || (self.include_subdomains
                && d.len() > self.domain.len()
                && d.ends_with(&self.domain)
                && d.as_bytes()[d.len() - self.domain.len() - 1] == b'.')
    }
}

/// What a measure counts; each event a store answers for it is one [`MeasureEvent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeasureKind {
    /// A local account active on a day (recorded by `record_active_day`): one event per account
    /// and day, at the day's midnight (UTC), its subject the account.
    ActiveUsers,
    /// A local login made, at its creation; subject the account.
    NewUsers,
    /// A favourite (timed by its id), a reblog or a reply (timed by the status) of a local
    /// status, by anyone; subject the account that acted.
    Interactions,
    /// A report filed, at its creation; subject the reported account.
    OpenedReports,
    /// A report resolved, at `action_taken_at`; subject the reported account.
    ResolvedReports,
    /// A status carrying the normalised tag `name`, at its creation; subject its author.
    TagStatuses {
        /// The tag's normalised name.
        name: String,
    },
    /// A status carrying the normalised tag `name`, at its creation; subject its author's
    /// domain, folded (`""` for a local author).
    TagServers {
        /// The tag's normalised name.
        name: String,
    },
    /// An account of the server created (by its `created_at`); subject the account.
    InstanceAccounts(DomainScope),
    /// A media attachment uploaded by an account of the server, at its creation; amount its
    /// size in bytes, subject the uploader.
    InstanceMediaAttachments(DomainScope),
    /// A report about an account of the server, at its creation; subject the reported account.
    InstanceReports(DomainScope),
    /// A status (reblogs included) by an account of the server, at its creation; subject the
    /// author.
    InstanceStatuses(DomainScope),
    /// A follow of an account of the server, timed by the follow's id; subject the follower.
    InstanceFollows(DomainScope),
    /// A follow by an account of the server, timed by the follow's id; subject the followed
    /// account.
    InstanceFollowers(DomainScope),
}

/// One thing a measure counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasureEvent {
    /// When it happened.
    pub at: DateTime<Utc>,
    /// Whom it is about, for the measures that count distinct subjects: an account id in
    /// decimal, or a domain (see the [`MeasureKind`]).
    pub subject: String,
    /// How much it counts: 1, or a size in bytes.
    pub amount: i64,
}

/// What a dimension groups; a store answers `(key, count)` pairs for it, `None` being the
/// group of rows without a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DimensionKind {
    /// Local logins active on some day of the range (recorded by `record_active_day`), by
    /// their interface language (`locale`); each login counts once.
    Languages,
    /// Local logins created in the range, by the name of the application that signed them up:
    /// the application of the first token issued to the account within
    /// [`SIGN_UP_TOKEN_WINDOW_SECS`] of the login's creation (`None`: none, e.g. made by the
    /// CLI).
    Sources,
    /// Statuses created in the range, by their author's domain, folded (`None`: local).
    Servers,
    /// Statuses carrying the normalised tag `name` created in the range, by their author's
    /// domain, folded (`None`: local).
    TagServers {
        /// The tag's normalised name.
        name: String,
    },
    /// Statuses carrying the normalised tag `name` created in the range, by language (`None`:
    /// none given).
    TagLanguages {
        /// The tag's normalised name.
        name: String,
    },
    /// The accounts of the server (any time), by username, counting the follows of each
    /// stored here (an account nobody here follows counts 0).
    InstanceAccounts(DomainScope),
    /// Statuses (not reblogs) by accounts of the server created in the range, by language
    /// (`None`: none given).
    InstanceLanguages(DomainScope),
}

/// How long after a login's creation the token of its sign-up may be issued (the sign-up
/// request makes the login, then the token).
pub const SIGN_UP_TOKEN_WINDOW_SECS: i64 = 60;

/// A local login created in a retention range, and the last day it was active.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignUpRecord {
    /// When the login was made.
    pub created_at: DateTime<Utc>,
    /// The last day `record_active_day` recorded for its account, if any.
    pub last_active: Option<NaiveDate>,
}

/// What the storage behind a store is and holds. What the store cannot tell is left empty:
/// [`StorageUsage::default()`] knows nothing (no engine named, no sizes), which is what
/// [`StatsStore::storage_usage`](super::StatsStore::storage_usage) answers by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StorageUsage {
    /// The database engine, as a key: `sqlite`, `postgresql`, or `memory`; empty when unknown.
    pub engine: String,
    /// Its name for people: `SQLite`, `PostgreSQL`, `In memory`; empty when unknown.
    pub engine_name: String,
    /// Its version (`3.45.1`, `16.2`), empty when it has none of its own or is unknown.
    pub engine_version: String,
    /// The database's size in bytes, when the engine can tell.
    pub database_bytes: Option<i64>,
    /// The bytes of the media attachments' original files the store knows of, when it can
    /// tell.
    pub media_bytes: Option<i64>,
}

/// The first day whose midnight (UTC) is at or after `t`.
pub fn first_day_from(t: DateTime<Utc>) -> NaiveDate {
    let day = t.date_naive();
    if t == midnight(day) {
        day
    } else {
        day.succ_opt().unwrap_or(day)
    }
}

/// The days whose midnight (UTC) is in `[from, to)`, as a half-open range of days.
pub fn days_within(from: DateTime<Utc>, to: DateTime<Utc>) -> std::ops::Range<NaiveDate> {
    first_day_from(from)..first_day_from(to)
}

/// A day's midnight, UTC.
pub fn midnight(day: NaiveDate) -> DateTime<Utc> {
    day.and_time(chrono::NaiveTime::MIN).and_utc()
}
