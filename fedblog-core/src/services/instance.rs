//! What the instance tells about itself: the figures its v1 and v2 documents, weekly activity
//! and NodeInfo report (render writes the documents, `render/instance.rs`).

use chrono::{DateTime, Datelike, Duration, TimeZone, Utc};

use crate::error::ApiResult;
use crate::store::{StatsStore, WeekActivity};

/// fedblog's own version.
pub const FEDBLOG_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The Mastodon version whose API we follow.
pub const MASTODON_COMPAT_VERSION: &str = "4.5.0";

/// `api_versions.mastodon`: the Mastodon API level whose features all work here. It rises as
/// features land: 2 is 4.3's (grouped notifications, notification policies and requests, the
/// link timeline, `indexable` and `hide_collections`); 3 needs `attribution_domains`, 7 quote
/// posts.
pub const MASTODON_API_VERSION: i64 = 2;

/// Where the source code lives.
pub const SOURCE_URL: &str = "https://github.com/fedblog/fedblog";

/// Weeks of activity `GET /api/v1/instance/activity` reports.
const ACTIVITY_WEEKS: usize = 12;

/// The local accounts and statuses the instance documents report.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    /// Local accounts.
    pub users: i64,
    /// Local statuses.
    pub statuses: i64,
}

/// Local accounts active in the last month and half-year, as NodeInfo reports them.
#[derive(Clone, Copy, Debug, Default)]
pub struct ActiveUsers {
    /// With a status in the last 30 days.
    pub month: i64,
    /// With a status in the last 180 days.
    pub half_year: i64,
}

/// The instance area: `app.instance()`. It holds the statistics store and whether translation
/// is on; the configuration the documents describe is render's to read.
pub struct Instance<'a> {
    stats: &'a dyn StatsStore,
    translation: bool,
}

impl<'a> Instance<'a> {
    /// The area over `stats`; `translation`: whether a translator is configured.
    pub fn new(stats: &'a dyn StatsStore, translation: bool) -> Self {
        Instance { stats, translation }
    }

    /// Whether statuses can be translated here.
    pub fn translation(&self) -> bool {
        self.translation
    }

    /// Local accounts with a status in the last 30 days.
    pub async fn active_month(&self) -> ApiResult<i64> {
        Ok(self
            .stats
            .count_active_local_accounts(Utc::now() - Duration::days(30))
            .await?)
    }

    /// Local accounts active in the last month and half-year.
    pub async fn active_users(&self) -> ApiResult<ActiveUsers> {
        let now = Utc::now();
        Ok(ActiveUsers {
            month: self
                .stats
                .count_active_local_accounts(now - Duration::days(30))
                .await?,
            half_year: self
                .stats
                .count_active_local_accounts(now - Duration::days(180))
                .await?,
        })
    }

    /// Local accounts and statuses.
    pub async fn totals(&self) -> ApiResult<Totals> {
        Ok(Totals {
            users: self.stats.count_local_accounts().await?,
            statuses: self.stats.count_local_statuses().await?,
        })
    }

    /// How many domains the known remote accounts are on.
    pub async fn domain_count(&self) -> ApiResult<usize> {
        Ok(self.stats.known_domains().await?.len())
    }

    /// The last 12 weeks (from Monday 00:00 UTC), newest first.
    pub async fn activity(&self) -> ApiResult<Vec<(DateTime<Utc>, WeekActivity)>> {
        let today = Utc::now().date_naive();
        let monday = today - Duration::days(today.weekday().num_days_from_monday() as i64);
        let mut start = Utc.from_utc_datetime(&monday.and_hms_opt(0, 0, 0).expect("midnight"));
        let mut weeks = Vec::with_capacity(ACTIVITY_WEEKS);
        for _ in 0..ACTIVITY_WEEKS {
            let end = start + Duration::weeks(1);
            weeks.push((start, self.stats.activity_between(start, end).await?));
            start -= Duration::weeks(1);
        }
        Ok(weeks)
    }
}
