//! Trends: the hashtags and statuses in use now, scored as Mastodon scores them, as clients
//! read them (`/api/v1/trends/*`, only what may be shown) and as staff review them
//! (`/api/v1/admin/trends/*`, every candidate, with what staff decided about each).
//!
//! # Scores
//!
//! A hashtag is scored from the distinct accounts that used it per day (UTC days), counting
//! public statuses that are not reblogs, by authors neither suspended nor silenced, of tags
//! staff did not make unusable. On a day, the accounts of the previous day are the expected use
//! (at least 1) and the accounts so far that day the observed use; the day's score is 0 below
//! [`TAG_THRESHOLD`] accounts or when fewer accounts than expected used it, else
//! `(observed - expected)² / expected`. The highest score of the last
//! [`TAG_MAX_SCORE_COOLDOWN_HOURS`] is kept and decays from the moment it was reached with a
//! half-life of [`TAG_HALF_LIFE_HOURS`]; a tag whose decayed score is below
//! [`TAG_DECAY_THRESHOLD`] does not trend.
//!
//! A status is scored from the distinct accounts (its author aside) that favourited or
//! reblogged it: 0 below [`STATUS_THRESHOLD`], else `(accounts - 1)²`, decaying from its
//! creation with a half-life of [`STATUS_HALF_LIFE_HOURS`]; below [`STATUS_DECAY_THRESHOLD`] it
//! does not trend. Only public statuses created in the last [`TREND_DAYS`] days that are neither
//! replies nor reblogs, neither sensitive nor behind a content warning, in no language or a
//! known one, by discoverable authors neither suspended nor silenced, are candidates.
//!
//! These are the rules and values of Mastodon's `Trends::Tags` and `Trends::Statuses`.
//! Mastodon refreshes stored scores every few minutes; fedblog computes them when they are
//! read, from one store read ([`ModerationStore::trend_tag_uses`] or
//! [`ModerationStore::trend_status_candidates`]) per page: the highest score of the last two
//! days is derived again from the per-day history instead of being stored (a day's score only
//! grows during the day, so its highest is reached by the use of the day's last new account),
//! and nothing has to wait for a refresh.
//!
//! # Review
//!
//! A hashtag keeps its review on the tag ([`Tags::review_tag`]); a status's review is a
//! [`TrendReviewRecord`] in the moderation store. Clients are shown what the instance's
//! [`TrendsMode`] allows: only approved items (the default), everything not rejected, or
//! nothing. Staff lists show every candidate, ranked the same way.
//!
//! Links and publishers come with preview cards (`/api/v1/trends/links` is served by their
//! area).

use std::cmp::Ordering;
use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};

use crate::config::TrendsMode;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::services::statuses::parse_language;
use crate::services::tags::{TagChanges, TagView, Tags};
use crate::services::timelines::StatusPage;
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountRecord, ModerationStore, StatusRecord, StatusStore, Store, TagRecord, TrendKind,
    TrendReviewRecord, TrendStatusCandidate, TrendUse, Visibility,
};

/// How many days back statuses are candidates for trends.
pub const TREND_DAYS: i64 = 7;
/// Distinct accounts a hashtag needs in a day before it scores.
pub const TAG_THRESHOLD: f64 = 5.0;
/// How long a hashtag's highest score is kept (and decayed from).
pub const TAG_MAX_SCORE_COOLDOWN_HOURS: i64 = 48;
/// Half-life of a hashtag's highest score.
pub const TAG_HALF_LIFE_HOURS: f64 = 4.0;
/// The least decayed score with which a hashtag trends.
pub const TAG_DECAY_THRESHOLD: f64 = 1.0;
/// Distinct accounts favouriting or reblogging a status before it scores.
pub const STATUS_THRESHOLD: f64 = 5.0;
/// Half-life of a status's score, from its creation.
pub const STATUS_HALF_LIFE_HOURS: f64 = 2.0;
/// The least decayed score with which a status trends.
pub const STATUS_DECAY_THRESHOLD: f64 = 0.3;

/// The score of an observed use against the expected use (at least 1): 0 below `threshold`
/// or below the expected use, else `(observed - expected)² / expected`.
pub fn usage_score(observed: f64, expected: f64, threshold: f64) -> f64 {
    let expected = if expected > 0.0 { expected } else { 1.0 };
    if expected > observed || observed < threshold {
        0.0
    } else {
        (observed - expected).powi(2) / expected
    }
}

/// `score` halved every `half_life_hours` since `since`, at `now`.
pub fn decayed(score: f64, since: DateTime<Utc>, now: DateTime<Utc>, half_life_hours: f64) -> f64 {
    let hours = (now - since).num_milliseconds() as f64 / 3_600_000.0;
    score * 0.5f64.powf(hours / half_life_hours)
}

/// Midnight (UTC) of the day of `t`.
fn day_start(t: DateTime<Utc>) -> DateTime<Utc> {
    t.date_naive()
        .and_hms_opt(0, 0, 0)
        .map(|d| d.and_utc())
        .unwrap_or(t)
}

/// The score of a hashtag at `now` from its uses (see the module documentation); 0 when it does
/// not trend. Uses after `now` are not counted.
pub fn tag_score(uses: &[TrendUse], now: DateTime<Utc>) -> f64 {
    let today = day_start(now);
    // The first use of each account per day: (day start, account) -> first use.
    let mut first_use: HashMap<(DateTime<Utc>, Id), DateTime<Utc>> = HashMap::new();
    for u in uses.iter().filter(|u| u.at <= now) {
        let entry = first_use
            .entry((day_start(u.at), u.account_id))
            .or_insert(u.at);
        *entry = (*entry).min(u.at);
    }
    let accounts_on = |day: DateTime<Utc>| first_use.keys().filter(|(d, _)| *d == day).count();
    let cooldown_start = now - Duration::hours(TAG_MAX_SCORE_COOLDOWN_HOURS);
    // The highest score of the days whose peak is within the cooldown (earliest on a tie).
    let mut best: Option<(f64, DateTime<Utc>)> = None;
    for back in (0..=TAG_MAX_SCORE_COOLDOWN_HOURS / 24).rev() {
        let day = today - Duration::days(back);
        let observed = accounts_on(day) as f64;
        let expected = accounts_on(day - Duration::days(1)) as f64;
        let score = usage_score(observed, expected, TAG_THRESHOLD);
        // The day's score peaks when its last new account first used the tag.
        let Some(peak) = first_use
            .iter()
            .filter(|((d, _), _)| *d == day)
            .map(|(_, at)| *at)
            .max()
        else {
            continue;
        };
        if score > 0.0 && peak >= cooldown_start && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, peak));
        }
    }
    match best {
        Some((score, at)) => {
            let now_score = decayed(score, at, now, TAG_HALF_LIFE_HOURS);
            if now_score >= TAG_DECAY_THRESHOLD {
                now_score
            } else {
                0.0
            }
        }
        None => 0.0,
    }
}

/// The score of a status at `now` from the distinct accounts that favourited or reblogged it
/// (see the module documentation); 0 when it does not trend.
pub fn status_score(accounts: u64, created_at: DateTime<Utc>, now: DateTime<Utc>) -> f64 {
    let score = usage_score(accounts as f64, 1.0, STATUS_THRESHOLD);
    if score == 0.0 {
        return 0.0;
    }
    let now_score = decayed(score, created_at.min(now), now, STATUS_HALF_LIFE_HOURS);
    if now_score >= STATUS_DECAY_THRESHOLD {
        now_score
    } else {
        0.0
    }
}

/// Highest score first, then newest (largest id).
fn by_score(a: (f64, Id), b: (f64, Id)) -> Ordering {
    b.0.partial_cmp(&a.0)
        .unwrap_or(Ordering::Equal)
        .then(b.1.cmp(&a.1))
}

/// One page of `items` from `offset`, at most `limit`.
fn page<T>(items: Vec<T>, offset: u64, limit: u64) -> Vec<T> {
    items
        .into_iter()
        .skip(usize::try_from(offset).unwrap_or(usize::MAX))
        .take(usize::try_from(limit).unwrap_or(usize::MAX))
        .collect()
}

/// A status as staff see it among trends, loaded for render.
#[derive(Clone, Debug)]
pub struct TrendStatusView {
    /// The status.
    pub status: StatusRecord,
    /// Staff have not decided yet whether it may trend.
    pub requires_review: bool,
}

/// The trends area: `app.trends()`. It holds the moderation store (what scores are computed
/// from, and reviews), the status store, the tags area (a hashtag's review and its week of
/// use), the visibility rules (for the reader of trending statuses) and the instance's
/// [`TrendsMode`].
pub struct Trends<'a> {
    moderation: Option<&'a dyn ModerationStore>,
    statuses: &'a dyn StatusStore,
    tags: Tags<'a>,
    visibility: VisibilityRule<'a>,
    mode: TrendsMode,
    now: DateTime<Utc>,
}

impl<'a> Trends<'a> {
    /// The area over `store`, reviewing hashtags through `tags`, showing clients what `mode`
    /// allows, at `now`.
    pub fn new(
        store: &'a dyn Store,
        tags: Tags<'a>,
        visibility: VisibilityRule<'a>,
        mode: TrendsMode,
        now: DateTime<Utc>,
    ) -> Self {
        Trends {
            moderation: store.moderation(),
            statuses: store,
            tags,
            visibility,
            mode,
            now,
        }
    }

    /// The same area over a store that keeps no moderation data (tests).
    #[cfg(test)]
    pub(crate) fn without_moderation(self) -> Self {
        Trends {
            moderation: None,
            ..self
        }
    }

    /// The moderation store; 404 when the store keeps no moderation data.
    fn moderation(&self) -> ApiResult<&'a dyn ModerationStore> {
        self.moderation.ok_or_else(ApiError::no_moderation_data)
    }

    /// Whether clients are shown an item staff reviewed as `trendable` (`None`: not yet).
    fn shown(&self, trendable: Option<bool>) -> bool {
        match self.mode {
            TrendsMode::Reviewed => trendable == Some(true),
            TrendsMode::Open => trendable != Some(false),
            TrendsMode::Off => false,
        }
    }

    /// Every trending hashtag (score above 0), highest score first, then newest tag.
    async fn ranked_tags(&self) -> ApiResult<Vec<TagRecord>> {
        // The scores look back two days, each against the day before it.
        let since = day_start(self.now) - Duration::days(TAG_MAX_SCORE_COOLDOWN_HOURS / 24 + 1);
        let mut scored: Vec<(f64, TagRecord)> = self
            .moderation()?
            .trend_tag_uses(since)
            .await?
            .into_iter()
            .filter(|t| t.tag.review.usable())
            .map(|t| (tag_score(&t.uses, self.now), t.tag))
            .filter(|(score, _)| *score > 0.0)
            .collect();
        scored.sort_by(|a, b| by_score((a.0, a.1.id), (b.0, b.1.id)));
        Ok(scored.into_iter().map(|(_, t)| t).collect())
    }

    /// Every trending status (score above 0), highest score first, then newest.
    async fn ranked_statuses(&self) -> ApiResult<Vec<TrendStatusCandidate>> {
        let since = self.now - Duration::days(TREND_DAYS);
        let mut scored: Vec<(f64, TrendStatusCandidate)> = self
            .moderation()?
            .trend_status_candidates(since)
            .await?
            .into_iter()
            .filter(|c| {
                c.language.as_deref().is_none_or(|l| {
                    parse_language(Some(l)).is_ok_and(|known| known.as_deref() == Some(l))
                })
            })
            .map(|c| (status_score(c.accounts, c.created_at, self.now), c))
            .filter(|(score, _)| *score > 0.0)
            .collect();
        scored.sort_by(|a, b| by_score((a.0, a.1.status_id), (b.0, b.1.status_id)));
        Ok(scored.into_iter().map(|(_, c)| c).collect())
    }

    /// The trending hashtags as staff see them, reviewed or not; `offset` of them skipped, at
    /// most `limit`.
    pub async fn tags(&self, offset: u64, limit: u64) -> ApiResult<Vec<TagView>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        let ranked = page(self.ranked_tags().await?, offset, limit);
        self.tags.tag_views(&ranked, None).await
    }

    /// The trending hashtags clients are shown (see [`TrendsMode`]), as `viewer` sees them;
    /// `offset` of them skipped, at most `limit`. None when trends are off or the store keeps
    /// no moderation data.
    pub async fn public_tags(
        &self,
        viewer: Option<&AccountRecord>,
        offset: u64,
        limit: u64,
    ) -> ApiResult<Vec<TagView>> {
        if limit == 0 || self.mode == TrendsMode::Off || self.moderation.is_none() {
            return Ok(vec![]);
        }
        let shown: Vec<TagRecord> = self
            .ranked_tags()
            .await?
            .into_iter()
            .filter(|t| self.shown(t.review.trendable))
            .collect();
        self.tags
            .tag_views(&page(shown, offset, limit), viewer)
            .await
    }

    /// Staff decide whether the hashtag `id` may trend; it counts as reviewed. 404 when unknown.
    pub async fn review_tag(&self, id: Id, trendable: bool) -> ApiResult<TagView> {
        let changes = TagChanges {
            trendable: Some(trendable),
            ..TagChanges::default()
        };
        self.tags.review_tag(id, changes).await
    }

    /// The trending statuses as staff see them, reviewed or not; `offset` of them skipped, at
    /// most `limit`.
    pub async fn statuses(&self, offset: u64, limit: u64) -> ApiResult<Vec<TrendStatusView>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        let ranked = page(self.ranked_statuses().await?, offset, limit);
        if ranked.is_empty() {
            return Ok(vec![]);
        }
        let ids: Vec<Id> = ranked.iter().map(|c| c.status_id).collect();
        let mut found: HashMap<Id, StatusRecord> = self
            .statuses
            .statuses_by_ids(&ids)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        // In rank order; a status deleted since the ranking read is left out.
        Ok(ranked
            .iter()
            .filter_map(|c| {
                found.remove(&c.status_id).map(|status| TrendStatusView {
                    requires_review: c.trendable.is_none(),
                    status,
                })
            })
            .collect())
    }

    /// The trending statuses clients are shown (see [`TrendsMode`]), for `viewer`: those in the
    /// viewer's default posting language first (Mastodon puts the reader's languages first),
    /// then by score; `offset` of them skipped, at most `limit`; then what the viewer may not
    /// see is left out of the page (statuses of accounts the viewer blocks, mutes or is blocked
    /// by, or of a domain the viewer blocks), so a page may hold fewer than `limit`. Empty when
    /// trends are off or the store keeps no moderation data.
    pub async fn public_statuses(
        &self,
        viewer: Option<&AccountRecord>,
        offset: u64,
        limit: u64,
    ) -> ApiResult<StatusPage> {
        let empty = || StatusPage {
            statuses: vec![],
            first: None,
            last: None,
            loaded: Default::default(),
        };
        if limit == 0 || self.mode == TrendsMode::Off || self.moderation.is_none() {
            return Ok(empty());
        }
        let mut shown: Vec<TrendStatusCandidate> = self
            .ranked_statuses()
            .await?
            .into_iter()
            .filter(|c| self.shown(c.trendable))
            .collect();
        if let Some(language) = viewer.and_then(|v| v.default_language.as_deref()) {
            // A stable sort: the score order stays within each group.
            shown.sort_by_key(|c| c.language.as_deref() != Some(language));
        }
        let ids: Vec<Id> = page(shown, offset, limit)
            .into_iter()
            .map(|c| c.status_id)
            .collect();
        if ids.is_empty() {
            return Ok(empty());
        }
        let (visible, mut loaded) = self
            .visibility
            .visible_unhidden_statuses(viewer, &ids)
            .await?;
        let statuses = self
            .visibility
            .without_blocked_domains(viewer, visible, &mut loaded)
            .await?;
        Ok(StatusPage {
            statuses,
            first: None,
            last: None,
            loaded,
        })
    }

    /// Staff decide whether the status `id` may trend, now. Only a public status that is not a
    /// reblog can ever trend: any other id is a 404, as an unknown one, so that reviewing tells
    /// nothing of statuses staff could not otherwise see.
    pub async fn review_status(&self, id: Id, trendable: bool) -> ApiResult<TrendStatusView> {
        let moderation = self.moderation()?;
        let status = self
            .statuses
            .status_by_id(id)
            .await?
            .filter(|s| s.visibility == Visibility::Public && s.reblog_of_id.is_none())
            .ok_or_else(ApiError::not_found)?;
        moderation
            .set_trend_review(&TrendReviewRecord {
                kind: TrendKind::Status,
                target: status.id,
                trendable,
                reviewed_at: self.now,
            })
            .await?;
        Ok(TrendStatusView {
            status,
            requires_review: false,
        })
    }
}
