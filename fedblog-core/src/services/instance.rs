//! What the instance tells about itself: the figures its v1 and v2 documents, weekly activity
//! and NodeInfo report, and its policy: rules, the extended description and privacy policy,
//! the terms of service, the public list of server-wide domain blocks, and the peers a domain
//! search finds; and the thumbnail (the server's banner image) the administrator may upload
//! (render writes the documents, `render/instance.rs`).
//!
//! The policy lives in the store's [`ModerationStore`] (rules, settings, terms of service,
//! domain blocks); the thumbnail's files in the file store, named by a setting. A store that
//! keeps none still answers what it can: the configured rules, the default texts, no terms
//! (404), no domain blocks and the built-in thumbnail; only the writes (the admin CLI's) fail.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};

use crate::config::Limits;
use crate::error::{ApiError, ApiResult, StoreError};
use crate::files::{FileStore, ImageKind};
use crate::id::Id;
use crate::media::{MediaProcessor, Preview, image_dimensions};
use crate::services::accounts::{file_failure, remove_files};
use crate::services::federation::LIMITED_FEDERATION_MODE;
use crate::services::server_blocks::domain_covers;
use crate::store::{
    DomainBlockSeverity, InstanceDomainBlockRecord, ModerationStore, RuleRecord, StatsStore, Store,
    TermsOfServiceRecord, WeekActivity,
};

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

/// The instance area: `app.instance()`. It holds the statistics store, the moderation store
/// (when the store keeps one) and whether translation is on; the configuration the documents
/// describe is render's to read.
pub struct Instance<'a> {
    stats: &'a dyn StatsStore,
    moderation: Option<&'a dyn ModerationStore>,
    translation: bool,
}

impl<'a> Instance<'a> {
    /// The area over the statistics and moderation data of `store`; `translation`: whether a
    /// translator is configured.
    pub fn new(store: &'a dyn Store, translation: bool) -> Self {
        Instance {
            stats: store,
            moderation: store.moderation(),
            translation,
        }
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

// Policy: rules, texts, terms of service, public domain blocks, peers.

/// The setting that says who may read the public list of server-wide domain blocks
/// ([`Audience`]; Mastodon's `show_domain_blocks`, `disabled` unless set).
pub const SHOW_DOMAIN_BLOCKS: &str = "show_domain_blocks";
/// The setting that says who may read the public comments of those blocks ([`Audience`];
/// Mastodon's `show_domain_blocks_rationale`, `disabled` unless set).
pub const SHOW_DOMAIN_BLOCKS_RATIONALE: &str = "show_domain_blocks_rationale";
/// The settings [`Instance::set_setting`] accepts; each takes an [`Audience`].
pub const AUDIENCE_SETTINGS: [&str; 2] = [SHOW_DOMAIN_BLOCKS, SHOW_DOMAIN_BLOCKS_RATIONALE];

/// The longest rule, in characters (Mastodon's limit).
const MAX_RULE_CHARS: usize = 300;
/// The longest policy text or version of the terms, in bytes.
const MAX_TEXT_BYTES: usize = 1024 * 1024;
/// The most domains a peer search returns (Mastodon's).
const PEER_SEARCH_LIMIT: usize = 10;

/// The answer when the store keeps no moderation data and something must be written there.
fn no_moderation() -> ApiError {
    ApiError::no_moderation_data()
}

/// A policy text the administrator writes in Markdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyText {
    /// The about page's text (`GET /api/v1/instance/extended_description`); empty unless set.
    ExtendedDescription,
    /// The privacy policy (`GET /api/v1/instance/privacy_policy`); a default one unless set.
    PrivacyPolicy,
}

impl PolicyText {
    /// Both texts.
    pub const ALL: [PolicyText; 2] = [PolicyText::ExtendedDescription, PolicyText::PrivacyPolicy];

    /// The setting that keeps the text (Markdown), also the name the CLI takes.
    pub fn setting(self) -> &'static str {
        match self {
            PolicyText::ExtendedDescription => "extended_description",
            PolicyText::PrivacyPolicy => "privacy_policy",
        }
    }

    /// The setting that keeps when the text was last set or cleared (RFC 3339).
    pub fn updated_at_setting(self) -> &'static str {
        match self {
            PolicyText::ExtendedDescription => "extended_description_updated_at",
            PolicyText::PrivacyPolicy => "privacy_policy_updated_at",
        }
    }

    /// The text of this setting name.
    pub fn parse(name: &str) -> Option<PolicyText> {
        PolicyText::ALL.into_iter().find(|t| t.setting() == name)
    }
}

/// Who may read something the settings [`AUDIENCE_SETTINGS`] guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Nobody (the default).
    Disabled,
    /// Signed-in callers only.
    Users,
    /// Everyone.
    All,
}

impl Audience {
    /// The setting's value.
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::Disabled => "disabled",
            Audience::Users => "users",
            Audience::All => "all",
        }
    }

    /// Parses a setting's value.
    pub fn parse(value: &str) -> Option<Audience> {
        Some(match value {
            "disabled" => Audience::Disabled,
            "users" => Audience::Users,
            "all" => Audience::All,
            _ => return None,
        })
    }

    /// Whether a caller (`signed_in` or not) is in this audience.
    pub fn admits(self, signed_in: bool) -> bool {
        match self {
            Audience::Disabled => false,
            Audience::Users => signed_in,
            Audience::All => true,
        }
    }
}

/// A policy text as stored: `None` fields were never set (render falls back to the default
/// text and its date).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextView {
    /// The Markdown, if set and not blank.
    pub markdown: Option<String>,
    /// When it was last set or cleared.
    pub updated_at: Option<DateTime<Utc>>,
}

/// A published version of the terms of service with what the entity says about it.
#[derive(Clone, Debug, PartialEq)]
pub struct TermsView {
    /// The version.
    pub terms: TermsOfServiceRecord,
    /// Whether it applies today (its effective date has come).
    pub effective: bool,
    /// The effective date of the next published version, if any.
    pub succeeded_by: Option<NaiveDate>,
}

/// The server-wide domain blocks a caller may see.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PublicDomainBlocks {
    /// Silenced and suspended domains, silenced first, each by domain.
    pub blocks: Vec<InstanceDomainBlockRecord>,
    /// Whether the caller may read their public comments.
    pub with_comments: bool,
}

/// A new version of the terms of service ([`Instance::add_terms`]).
#[derive(Clone, Debug, PartialEq)]
pub struct NewTerms {
    /// The day it applies from; not before today.
    pub effective_date: NaiveDate,
    /// Markdown; `%{domain}` stands for the server's domain.
    pub text: String,
    /// What changed since the previous version.
    pub changelog: String,
    /// Publish it at once (otherwise a draft, shown nowhere until published).
    pub publish: bool,
}

/// Parses an effective date (`YYYY-MM-DD`).
pub fn parse_date(raw: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d").ok()
}

/// Checks a Markdown text: not blank, not huge.
fn checked_text(field: &str, text: &str) -> ApiResult<String> {
    if text.trim().is_empty() {
        return Err(ApiError::invalid_field(
            field,
            "ERR_BLANK",
            format!("{field} can't be blank"),
        ));
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(ApiError::invalid_field(
            field,
            "ERR_TOO_LONG",
            format!("{field} is too long (at most {MAX_TEXT_BYTES} bytes)"),
        ));
    }
    Ok(text.to_string())
}

impl<'a> Instance<'a> {
    /// The moderation store, or 404 when the store keeps none.
    fn moderation_store(&self) -> ApiResult<&'a dyn ModerationStore> {
        self.moderation.ok_or_else(no_moderation)
    }

    /// The rules the store keeps, by position; `None` when the store keeps no moderation data
    /// (render then shows the configured rules).
    pub async fn rules(&self) -> ApiResult<Option<Vec<RuleRecord>>> {
        match self.moderation {
            Some(store) => Ok(Some(store.rules().await?)),
            None => Ok(None),
        }
    }

    /// A policy text as stored (nothing when the store keeps no moderation data).
    pub async fn text(&self, which: PolicyText) -> ApiResult<TextView> {
        let Some(store) = self.moderation else {
            return Ok(TextView::default());
        };
        let markdown = store
            .setting(which.setting())
            .await?
            .filter(|t| !t.trim().is_empty());
        let updated_at = store
            .setting(which.updated_at_setting())
            .await?
            .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
            .map(|t| t.with_timezone(&Utc));
        Ok(TextView {
            markdown,
            updated_at,
        })
    }

    /// The published versions of the terms, newest effective date first.
    async fn published_terms(&self) -> ApiResult<Vec<TermsOfServiceRecord>> {
        let Some(store) = self.moderation else {
            return Ok(vec![]);
        };
        let mut terms = store.terms_of_service().await?;
        terms.retain(|t| t.published_at.is_some());
        terms.sort_by_key(|t| std::cmp::Reverse(t.effective_date));
        Ok(terms)
    }

    /// `terms` (one of `published`, newest first) with its standing on `today`.
    fn terms_view(
        terms: TermsOfServiceRecord,
        published: &[TermsOfServiceRecord],
        today: NaiveDate,
    ) -> TermsView {
        let succeeded_by = published
            .iter()
            .filter(|t| t.effective_date > terms.effective_date)
            .map(|t| t.effective_date)
            .min();
        TermsView {
            effective: terms.effective_date <= today,
            succeeded_by,
            terms,
        }
    }

    /// The terms that apply on `today`: the published version with the latest effective date
    /// not after it or, when none has come into effect yet, the next one to (as Mastodon
    /// answers, so that the coming terms can be read); 404 when none is published.
    pub async fn current_terms(&self, today: NaiveDate) -> ApiResult<TermsView> {
        let published = self.published_terms().await?;
        let chosen = published
            .iter()
            .find(|t| t.effective_date <= today)
            .or_else(|| published.last())
            .cloned()
            .ok_or_else(ApiError::not_found)?;
        Ok(Self::terms_view(chosen, &published, today))
    }

    /// The published version of the terms effective from `raw_date` (`YYYY-MM-DD`); 404 when
    /// there is none or the date is not one.
    pub async fn terms_on(&self, raw_date: &str, today: NaiveDate) -> ApiResult<TermsView> {
        let date = parse_date(raw_date).ok_or_else(ApiError::not_found)?;
        let published = self.published_terms().await?;
        let chosen = published
            .iter()
            .find(|t| t.effective_date == date)
            .cloned()
            .ok_or_else(ApiError::not_found)?;
        Ok(Self::terms_view(chosen, &published, today))
    }

    /// A setting of [`AUDIENCE_SETTINGS`] as stored, `disabled` when unset or unreadable.
    async fn audience(&self, store: &dyn ModerationStore, name: &str) -> ApiResult<Audience> {
        Ok(store
            .setting(name)
            .await?
            .and_then(|v| Audience::parse(&v))
            .unwrap_or(Audience::Disabled))
    }

    /// The server-wide blocks with limits users notice (silenced and suspended domains) for a
    /// caller `signed_in` or not, as `show_domain_blocks` allows (404 otherwise, as Mastodon
    /// answers), with their comments as `show_domain_blocks_rationale` allows. A store that keeps
    /// no moderation data has no blocks: an empty list.
    pub async fn public_domain_blocks(&self, signed_in: bool) -> ApiResult<PublicDomainBlocks> {
        let Some(store) = self.moderation else {
            return Ok(PublicDomainBlocks::default());
        };
        if !self
            .audience(store, SHOW_DOMAIN_BLOCKS)
            .await?
            .admits(signed_in)
        {
            return Err(ApiError::not_found());
        }
        let with_comments = self
            .audience(store, SHOW_DOMAIN_BLOCKS_RATIONALE)
            .await?
            .admits(signed_in);
        let rank = |s: DomainBlockSeverity| match s {
            DomainBlockSeverity::Noop => 0,
            DomainBlockSeverity::Silence => 1,
            DomainBlockSeverity::Suspend => 2,
        };
        let mut blocks: Vec<InstanceDomainBlockRecord> = store
            .instance_domain_blocks()
            .await?
            .into_iter()
            .filter(|b| b.severity != DomainBlockSeverity::Noop)
            .collect();
        blocks.sort_by(|a, b| (rank(a.severity), &a.domain).cmp(&(rank(b.severity), &b.domain)));
        Ok(PublicDomainBlocks {
            blocks,
            with_comments,
        })
    }

    /// Known peers whose domain starts with `q` (trimmed, lower case), at most 10, in order;
    /// none for a blank `q`. Domains blocked server-wide (and their subdomains) are left out,
    /// as Mastodon leaves them out of its peer search.
    pub async fn search_peers(&self, q: &str) -> ApiResult<Vec<String>> {
        let prefix = q.trim().trim_end_matches('.').to_lowercase();
        if prefix.is_empty() {
            return Ok(vec![]);
        }
        let blocked: Vec<String> = match self.moderation {
            Some(store) => store
                .instance_domain_blocks()
                .await?
                .into_iter()
                .map(|b| b.domain)
                .collect(),
            None => vec![],
        };
        let mut found: Vec<String> = self
            .stats
            .known_domains()
            .await?
            .into_iter()
            .filter(|d| d.to_lowercase().starts_with(&prefix))
            .filter(|d| !blocked.iter().any(|b| domain_covers(b, d)))
            .collect();
        found.sort();
        found.dedup();
        found.truncate(PEER_SEARCH_LIMIT);
        Ok(found)
    }

    // Writes (the admin CLI's)

    /// Adds a rule at `position` (default: after the last), as `id`, made `now`. 422 for a
    /// blank or too long text.
    pub async fn add_rule(
        &self,
        id: Id,
        text: &str,
        hint: &str,
        position: Option<i32>,
        now: DateTime<Utc>,
    ) -> ApiResult<RuleRecord> {
        let store = self.moderation_store()?;
        let text = text.trim();
        if text.is_empty() {
            return Err(ApiError::invalid_field(
                "text",
                "ERR_BLANK",
                "text can't be blank",
            ));
        }
        if text.chars().count() > MAX_RULE_CHARS {
            return Err(ApiError::invalid_field(
                "text",
                "ERR_TOO_LONG",
                format!("text is too long (at most {MAX_RULE_CHARS} characters)"),
            ));
        }
        let position = match position {
            Some(p) => p,
            None => store
                .rules()
                .await?
                .iter()
                .map(|r| r.position)
                .max()
                .map_or(0, |p| p.saturating_add(1)),
        };
        let rule = RuleRecord {
            id,
            text: text.to_string(),
            hint: hint.trim().to_string(),
            position,
            created_at: now,
            updated_at: now,
        };
        store.save_rule(&rule).await?;
        Ok(rule)
    }

    /// Removes the rule `id`; 404 when there is none.
    pub async fn remove_rule(&self, id: Id) -> ApiResult<()> {
        if self.moderation_store()?.delete_rule(id).await? {
            Ok(())
        } else {
            Err(ApiError::not_found())
        }
    }

    /// Sets a policy text (Markdown; 422 when blank or too long), or clears it with `None` (the
    /// default text applies again), dating the change `now`.
    pub async fn set_text(
        &self,
        which: PolicyText,
        markdown: Option<&str>,
        now: DateTime<Utc>,
    ) -> ApiResult<()> {
        let store = self.moderation_store()?;
        let text = markdown
            .map(|t| checked_text(which.setting(), t))
            .transpose()?;
        store.set_setting(which.setting(), text.as_deref()).await?;
        store
            .set_setting(which.updated_at_setting(), Some(&now.to_rfc3339()))
            .await?;
        Ok(())
    }

    /// Every version of the terms, drafts included, newest effective date first.
    pub async fn all_terms(&self) -> ApiResult<Vec<TermsOfServiceRecord>> {
        Ok(self.moderation_store()?.terms_of_service().await?)
    }

    /// Adds a version of the terms as `id` (or replaces the draft on the same date, keeping its
    /// id), published at once when `new.publish`. 422 for a date before today (people are told
    /// of new terms ahead), a blank text, or a date whose version is already published.
    pub async fn add_terms(
        &self,
        id: Id,
        new: NewTerms,
        now: DateTime<Utc>,
    ) -> ApiResult<TermsOfServiceRecord> {
        let store = self.moderation_store()?;
        if new.effective_date < now.date_naive() {
            return Err(ApiError::invalid_field(
                "effective_date",
                "ERR_INVALID",
                "effective_date cannot be in the past",
            ));
        }
        let text = checked_text("text", &new.text)?;
        let existing = store
            .terms_of_service()
            .await?
            .into_iter()
            .find(|t| t.effective_date == new.effective_date);
        if existing.as_ref().is_some_and(|t| t.published_at.is_some()) {
            return Err(ApiError::invalid_field(
                "effective_date",
                "ERR_TAKEN",
                format!(
                    "the terms effective from {} are published and cannot change",
                    new.effective_date
                ),
            ));
        }
        let terms = TermsOfServiceRecord {
            id: existing.as_ref().map_or(id, |t| t.id),
            text,
            changelog: new.changelog.trim().to_string(),
            effective_date: new.effective_date,
            published_at: new.publish.then_some(now),
            created_at: existing.as_ref().map_or(now, |t| t.created_at),
        };
        store
            .save_terms_of_service(&terms)
            .await
            .map_err(|e| match e {
                StoreError::AlreadyExists(_) => ApiError::invalid_field(
                    "effective_date",
                    "ERR_TAKEN",
                    "another version has this effective date",
                ),
                other => other.into(),
            })?;
        Ok(terms)
    }

    /// Publishes the draft effective from `date` (`YYYY-MM-DD`), `now`; 404 when there is no
    /// version on that date, 422 when it is published already.
    pub async fn publish_terms(
        &self,
        raw_date: &str,
        now: DateTime<Utc>,
    ) -> ApiResult<TermsOfServiceRecord> {
        let store = self.moderation_store()?;
        let date = parse_date(raw_date).ok_or_else(|| {
            ApiError::invalid_field(
                "effective_date",
                "ERR_INVALID",
                format!("{raw_date:?} is not a date (YYYY-MM-DD)"),
            )
        })?;
        let mut terms = store
            .terms_of_service()
            .await?
            .into_iter()
            .find(|t| t.effective_date == date)
            .ok_or_else(ApiError::not_found)?;
        if terms.published_at.is_some() {
            return Err(ApiError::invalid_field(
                "effective_date",
                "ERR_TAKEN",
                format!("the terms effective from {date} are already published"),
            ));
        }
        terms.published_at = Some(now);
        store.save_terms_of_service(&terms).await?;
        Ok(terms)
    }

    /// Sets [`LIMITED_FEDERATION_MODE`] (`true` or `false`), or one of [`AUDIENCE_SETTINGS`] to
    /// an [`Audience`]'s name; 422 for another setting
    /// or value.
    pub async fn set_setting(&self, name: &str, value: &str) -> ApiResult<()> {
        let store = self.moderation_store()?;
        if name == LIMITED_FEDERATION_MODE {
            let on = match value {
                "true" | "on" => true,
                "false" | "off" => false,
                _ => {
                    return Err(ApiError::invalid_field(
                        "value",
                        "ERR_INVALID",
                        format!("{name} takes true or false, not {value:?}"),
                    ));
                }
            };
            store.set_setting(name, on.then_some("true")).await?;
            return Ok(());
        }
        if !AUDIENCE_SETTINGS.contains(&name) {
            return Err(ApiError::invalid_field(
                "name",
                "ERR_INVALID",
                format!(
                    "unknown setting {name:?}: use {} or {LIMITED_FEDERATION_MODE}",
                    AUDIENCE_SETTINGS.join(", ")
                ),
            ));
        }
        let audience = Audience::parse(value).ok_or_else(|| {
            ApiError::invalid_field(
                "value",
                "ERR_INVALID",
                format!("{name} takes disabled, users or all, not {value:?}"),
            )
        })?;
        store.set_setting(name, Some(audience.as_str())).await?;
        Ok(())
    }
}

// The thumbnail: the server's banner image, which the administrator may upload.

/// The setting that keeps the uploaded thumbnail ([`Thumbnail`], as JSON); unset, the documents
/// show the built-in image.
pub const THUMBNAIL_SETTING: &str = "thumbnail";

/// The box the thumbnail's `@1x` version fits in, in pixels: Mastodon's 1200x630 (the size of a
/// link preview image). The `@2x` version fits in twice that each way.
pub const THUMBNAIL_BOX: (u32, u32) = (1200, 630);

/// One version of the uploaded thumbnail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThumbnailFile {
    /// Its key in the file store.
    pub key: String,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
}

/// The thumbnail the administrator uploaded, as the [`THUMBNAIL_SETTING`] keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thumbnail {
    /// Made for this upload and named in its file keys: a new upload has new URLs, so that
    /// nothing cached of the old one is shown for it.
    pub version: Id,
    /// `@1x`: within [`THUMBNAIL_BOX`], the aspect ratio kept, never scaled up.
    pub x1: ThumbnailFile,
    /// `@2x`: within twice [`THUMBNAIL_BOX`] each way.
    pub x2: ThumbnailFile,
    /// The BlurHash of the `@1x` version, when the media processor made one.
    pub blurhash: Option<String>,
}

impl Thumbnail {
    /// The keys of its files.
    pub fn keys(&self) -> [String; 2] {
        [self.x1.key.clone(), self.x2.key.clone()]
    }

    /// The setting's value.
    fn to_setting(&self) -> String {
        let file = |f: &ThumbnailFile| serde_json::json!({ "key": f.key, "width": f.width, "height": f.height });
        serde_json::json!({
            "version": self.version.to_string(),
            "blurhash": self.blurhash,
            "@1x": file(&self.x1),
            "@2x": file(&self.x2),
        })
        .to_string()
    }

    /// Reads the setting's value; `None` when it is not one.
    fn from_setting(raw: &str) -> Option<Thumbnail> {
        let v: serde_json::Value = serde_json::from_str(raw).ok()?;
        let file = |name: &str| {
            let f = v.get(name)?;
            let dimension = |d: &str| u32::try_from(f.get(d)?.as_u64()?).ok();
            Some(ThumbnailFile {
                key: f.get("key")?.as_str()?.to_string(),
                width: dimension("width")?,
                height: dimension("height")?,
            })
        };
        Some(Thumbnail {
            version: v.get("version")?.as_str()?.parse().ok()?,
            x1: file("@1x")?,
            x2: file("@2x")?,
            blurhash: v
                .get("blurhash")
                .and_then(serde_json::Value::as_str)
                .map(str::to_string),
        })
    }
}

/// The 422 naming the thumbnail.
fn invalid_thumbnail(code: &str, description: String) -> ApiError {
    ApiError::invalid_field("thumbnail", code, description)
}

/// Checks a thumbnail before anything is decoded (the admin CLI checks its file with it before
/// it opens the database): a PNG, JPEG, GIF or WebP by its bytes, within the image upload limits
/// in bytes and in pixels (its dimensions read from its header only, so that a decompression
/// bomb is refused here). Its width and height, or a 422 naming `thumbnail`.
pub fn check_thumbnail(bytes: &[u8], limits: &Limits) -> ApiResult<(u32, u32)> {
    if ImageKind::sniff(bytes).is_none() {
        return Err(invalid_thumbnail(
            "ERR_INVALID",
            "the thumbnail must be a PNG, JPEG, GIF or WebP image".into(),
        ));
    }
    if bytes.len() > limits.image_size_limit {
        return Err(invalid_thumbnail(
            "ERR_TOO_LARGE",
            format!(
                "the thumbnail is larger than the image size limit ({} bytes)",
                limits.image_size_limit
            ),
        ));
    }
    let (width, height) = image_dimensions(bytes)
        .filter(|&(w, h)| w > 0 && h > 0)
        .ok_or_else(|| {
            invalid_thumbnail(
                "ERR_INVALID",
                "the thumbnail's dimensions cannot be read: it is not a whole image".into(),
            )
        })?;
    if u64::from(width) * u64::from(height) > limits.image_matrix_limit {
        return Err(invalid_thumbnail(
            "ERR_TOO_LARGE",
            format!(
                "the thumbnail has more than {} pixels ({width}x{height})",
                limits.image_matrix_limit
            ),
        ));
    }
    Ok((width, height))
}

/// The most pixels a preview of a `width` x `height` image may have for it to fit in `bounds`
/// with its aspect ratio kept, never scaled up: the previews of [`MediaProcessor::preview`] are
/// bounded by their number of pixels, and this is the number whose preview fits the box (the
/// image scaled until its limiting side meets the box's).
fn pixels_within(width: u32, height: u32, bounds: (u32, u32)) -> u32 {
    let (w, h) = (u64::from(width.max(1)), u64::from(height.max(1)));
    let (bw, bh) = (u64::from(bounds.0), u64::from(bounds.1));
    let pixels = if w <= bw && h <= bh {
        w * h
    } else if bw * h <= bh * w {
        // The width reaches the box first.
        bw * bw * h / w
    } else {
        bh * bh * w / h
    };
    u32::try_from(pixels.max(1)).unwrap_or(u32::MAX)
}

/// A version of the thumbnail made by the media processor within `max_pixels`: a 422 when it
/// cannot be made, a 500 when the processor answers bytes of another format than it says.
async fn thumbnail_version(
    processor: &dyn MediaProcessor,
    bytes: &[u8],
    max_pixels: u32,
) -> ApiResult<Preview> {
    let version = processor
        .preview(bytes, max_pixels)
        .await
        .map_err(|reason| {
            invalid_thumbnail(
                "ERR_INVALID",
                format!("the thumbnail could not be processed: {reason}"),
            )
        })?;
    if ImageKind::sniff(&version.bytes) != Some(version.kind) {
        tracing::error!("the media processor answered bytes of another format than it said");
        return Err(ApiError::internal());
    }
    Ok(version)
}

impl<'a> Instance<'a> {
    /// The uploaded thumbnail, if any (none when the store keeps no moderation data; a setting
    /// that cannot be read is logged and taken as none, so the built-in image shows).
    pub async fn thumbnail(&self) -> ApiResult<Option<Thumbnail>> {
        let Some(store) = self.moderation else {
            return Ok(None);
        };
        Ok(store.setting(THUMBNAIL_SETTING).await?.and_then(|raw| {
            let thumbnail = Thumbnail::from_setting(&raw);
            if thumbnail.is_none() {
                tracing::warn!(
                    setting = THUMBNAIL_SETTING,
                    "the setting cannot be read; the built-in thumbnail is shown"
                );
            }
            thumbnail
        }))
    }

    /// Sets the thumbnail from an image (see [`check_thumbnail`]; an animated one keeps its
    /// first frame): the media processor makes its `@1x` version within [`THUMBNAIL_BOX`] with
    /// a BlurHash and its `@2x` version within twice the box, both stored in `files` under keys
    /// naming `version`; then the setting names them and the files of the thumbnail it replaces
    /// are removed. 404 when the store keeps no moderation data.
    pub async fn set_thumbnail(
        &self,
        files: &dyn FileStore,
        processor: &dyn MediaProcessor,
        limits: &Limits,
        version: Id,
        bytes: &[u8],
    ) -> ApiResult<Thumbnail> {
        let store = self.moderation_store()?;
        let (width, height) = check_thumbnail(bytes, limits)?;
        let (box_w, box_h) = THUMBNAIL_BOX;
        let x1 = thumbnail_version(
            processor,
            bytes,
            pixels_within(width, height, (box_w, box_h)),
        )
        .await?;
        let x2 = thumbnail_version(
            processor,
            bytes,
            pixels_within(width, height, (box_w * 2, box_h * 2)),
        )
        .await?;
        let folder = format!("site_uploads/thumbnail/{version}");
        let thumbnail = Thumbnail {
            version,
            x1: ThumbnailFile {
                key: format!("{folder}/1x.{}", x1.kind.extension()),
                width: x1.width,
                height: x1.height,
            },
            x2: ThumbnailFile {
                key: format!("{folder}/2x.{}", x2.kind.extension()),
                width: x2.width,
                height: x2.height,
            },
            blurhash: x1.blurhash.clone(),
        };
        let previous = self.thumbnail().await?;
        let keys = thumbnail.keys();
        for (key, made) in keys.iter().zip([&x1, &x2]) {
            if let Err(e) = files.put(key, &made.bytes).await {
                remove_files(files, &keys).await;
                return Err(file_failure(e));
            }
        }
        if let Err(e) = store
            .set_setting(THUMBNAIL_SETTING, Some(&thumbnail.to_setting()))
            .await
        {
            remove_files(files, &keys).await;
            return Err(e.into());
        }
        if let Some(old) = previous {
            remove_files(files, &old.keys()).await;
        }
        Ok(thumbnail)
    }

    /// Clears the thumbnail (the built-in image shows again) and removes its files; whether one
    /// was set. 404 when the store keeps no moderation data.
    pub async fn clear_thumbnail(&self, files: &dyn FileStore) -> ApiResult<bool> {
        let store = self.moderation_store()?;
        let Some(old) = self.thumbnail().await? else {
            return Ok(false);
        };
        store.set_setting(THUMBNAIL_SETTING, None).await?;
        remove_files(files, &old.keys()).await;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chrono::{Duration, NaiveDate, Utc};
    use http::StatusCode;
    use serde_json::Value;

    use super::*;
    use crate::api::instance::{
        extended_description::GetExtendedDescription, instance_domain_blocks::InstanceDomainBlocks,
        instance_languages::InstanceLanguages, instance_rules::InstanceRules,
        instance_v1::InstanceV1, instance_v2::InstanceV2, privacy_policy::GetPrivacyPolicy,
        search_peers::SearchPeers, terms_of_service::GetTermsOfService,
        terms_of_service_on::GetTermsOfServiceOn,
    };
    use crate::api::{Endpoint, Reply, route};
    use crate::app::{App, Request, RequestInfo};
    use crate::params::Params;
    use crate::scope::Scopes;
    use crate::store::AccountRecord;
    use crate::test_support;

    fn app() -> Arc<App> {
        Arc::new(test_support::app("policy.test"))
    }

    /// The area over `app`'s store as if it kept no moderation data.
    fn without_moderation(app: &App) -> Instance<'_> {
        Instance {
            stats: &*app.store,
            moderation: None,
            translation: false,
        }
    }

    /// `GET E` with path or query `params`, signed in as `who` if given.
    async fn get<E: Endpoint>(
        app: &Arc<App>,
        params: &[(&str, &str)],
        who: Option<&AccountRecord>,
    ) -> Reply {
        let authorization = match who {
            Some(who) => {
                let cli = app.oauth().cli_application().await.expect("cli app");
                let token = app
                    .oauth()
                    .issue_token(
                        cli.id,
                        Some(who.id),
                        &Scopes::parse("read").expect("scopes"),
                    )
                    .await
                    .expect("token");
                Some(format!("Bearer {}", token.access_token))
            }
            None => None,
        };
        let mut p = Params::new();
        for (k, v) in params {
            p.set(k, *v);
        }
        app.dispatch(
            &route::<E>(),
            Request {
                authorization,
                params: p,
                info: RequestInfo {
                    path: E::PATH.into(),
                    ..Default::default()
                },
            },
        )
        .await
    }

    fn json(reply: &Reply) -> Value {
        reply.json().expect("a JSON body")
    }

    #[tokio::test]
    async fn instance_rules_come_from_the_store_with_hints_in_order_and_are_embedded() {
        let app = app();
        let area = app.instance();
        let now = Utc::now();
        let second = area
            .add_rule(app.ids.next(), "Be kind", "Really.", None, now)
            .await
            .expect("rule");
        let first = area
            .add_rule(app.ids.next(), "  No spam  ", "", Some(-1), now)
            .await
            .expect("rule");
        assert_eq!(first.text, "No spam", "text is trimmed");
        let blank = area.add_rule(app.ids.next(), "   ", "", None, now).await;
        assert_eq!(
            blank.map_err(|e| e.status),
            Err(StatusCode::UNPROCESSABLE_ENTITY)
        );
        let long = "x".repeat(MAX_RULE_CHARS + 1);
        assert!(
            area.add_rule(app.ids.next(), &long, "", None, now)
                .await
                .is_err()
        );

        let reply = get::<InstanceRules>(&app, &[], None).await;
        assert_eq!(reply.status, StatusCode::OK);
        let want = serde_json::json!([
            { "id": first.id.to_string(), "text": "No spam", "hint": "" },
            { "id": second.id.to_string(), "text": "Be kind", "hint": "Really." },
        ]);
        assert_eq!(json(&reply), want);
        assert_eq!(
            json(&get::<InstanceV2>(&app, &[], None).await)["rules"],
            want
        );
        assert_eq!(
            json(&get::<InstanceV1>(&app, &[], None).await)["rules"],
            want
        );

        area.remove_rule(first.id).await.expect("removed");
        assert_eq!(
            area.remove_rule(first.id).await.map_err(|e| e.status),
            Err(StatusCode::NOT_FOUND)
        );
        let left = json(&get::<InstanceRules>(&app, &[], None).await);
        assert_eq!(left.as_array().map(Vec::len), Some(1));
    }

    #[tokio::test]
    async fn instance_rules_fall_back_to_the_configuration_without_moderation_data() {
        let mut config = crate::InstanceConfig::new("plain.test");
        config.rules = vec!["Be nice".into(), "No bots".into()];
        let app = App::new(Arc::new(crate::MemoryStore::new()), config);
        let rules = without_moderation(&app).rules().await.expect("rules");
        assert_eq!(rules, None);
        let rendered = app.render_rules(rules.as_deref());
        assert_eq!(
            rendered
                .iter()
                .map(|r| (r.id.as_str(), r.text.as_str()))
                .collect::<Vec<_>>(),
            [("1", "Be nice"), ("2", "No bots")]
        );
    }

    #[tokio::test]
    async fn instance_texts_render_markdown_safely_and_fall_back_to_defaults() {
        let app = app();
        let description = json(&get::<GetExtendedDescription>(&app, &[], None).await);
        assert_eq!(description["content"], "");
        let default_date = description["updated_at"]
            .as_str()
            .expect("a date")
            .to_string();
        let policy = json(&get::<GetPrivacyPolicy>(&app, &[], None).await);
        let content = policy["content"].as_str().expect("content");
        assert!(content.contains("policy.test"), "{content}");
        assert!(
            content.contains("<h1>"),
            "the default is rendered: {content}"
        );
        assert_eq!(policy["updated_at"], default_date.as_str());

        let before = Utc::now();
        app.instance()
            .set_text(
                PolicyText::ExtendedDescription,
                Some("# About\n\nWe *like* [cats](https://cats.example).\n\n<script>alert(1)</script>![x](https://img.example/x.png)<a href=\"javascript:alert(1)\">y</a>"),
                before,
            )
            .await
            .expect("set");
        let description = json(&get::<GetExtendedDescription>(&app, &[], None).await);
        let html = description["content"].as_str().expect("content");
        assert!(html.contains("<h1>About</h1>"), "{html}");
        assert!(html.contains("<em>like</em>"), "{html}");
        assert!(
            html.contains("href=\"https://cats.example\""),
            "links are kept: {html}"
        );
        for gone in ["<script", "alert(1)</", "<img", "javascript:"] {
            assert!(!html.contains(gone), "{gone} left in {html}");
        }
        assert_eq!(
            description["updated_at"],
            crate::render::timestamp(before).as_str()
        );

        let blank = app
            .instance()
            .set_text(PolicyText::PrivacyPolicy, Some("  \n"), before)
            .await;
        assert_eq!(
            blank.map_err(|e| e.status),
            Err(StatusCode::UNPROCESSABLE_ENTITY)
        );
        let later = before + Duration::minutes(5);
        app.instance()
            .set_text(PolicyText::ExtendedDescription, None, later)
            .await
            .expect("clear");
        let description = json(&get::<GetExtendedDescription>(&app, &[], None).await);
        assert_eq!(description["content"], "", "cleared");
        assert_eq!(
            description["updated_at"],
            crate::render::timestamp(later).as_str(),
            "a clearing is a change"
        );
        assert_eq!(
            PolicyText::parse("privacy_policy"),
            Some(PolicyText::PrivacyPolicy)
        );
        assert_eq!(PolicyText::parse("site_terms"), None);
    }

    #[tokio::test]
    async fn instance_texts_without_moderation_data_are_the_defaults_and_cannot_be_written() {
        let app = test_support::app("plain.test");
        let area = without_moderation(&app);
        let text = area.text(PolicyText::PrivacyPolicy).await.expect("text");
        assert_eq!(text, TextView::default());
        assert!(
            app.render_privacy_policy(&text)
                .content
                .contains("plain.test")
        );
        let write = area
            .set_text(PolicyText::PrivacyPolicy, Some("mine"), Utc::now())
            .await;
        assert_eq!(write.map_err(|e| e.status), Err(StatusCode::NOT_FOUND));
        assert_eq!(
            area.current_terms(Utc::now().date_naive())
                .await
                .map_err(|e| e.status),
            Err(StatusCode::NOT_FOUND)
        );
        assert_eq!(
            area.public_domain_blocks(false).await.expect("blocks"),
            PublicDomainBlocks::default()
        );
    }

    fn terms(date: NaiveDate, text: &str, publish: bool) -> NewTerms {
        NewTerms {
            effective_date: date,
            text: text.into(),
            changelog: "changes".into(),
            publish,
        }
    }

    #[tokio::test]
    async fn instance_terms_of_service_in_effect_by_date_and_their_successors() {
        let app = app();
        let area = app.instance();
        let now = Utc::now();
        let today = now.date_naive();
        let none = get::<GetTermsOfService>(&app, &[], None).await;
        assert_eq!(none.status, StatusCode::NOT_FOUND);
        assert!(json(&none)["error"].is_string());

        let past = area
            .add_terms(
                app.ids.next(),
                terms(today - Duration::days(1), "old", true),
                now,
            )
            .await;
        assert_eq!(
            past.map_err(|e| e.status),
            Err(StatusCode::UNPROCESSABLE_ENTITY),
            "terms cannot start in the past"
        );

        // Only a coming version: it is shown, not yet effective.
        let next_week = today + Duration::days(7);
        area.add_terms(
            app.ids.next(),
            terms(next_week, "Soon on %{domain}", true),
            now,
        )
        .await
        .expect("coming terms");
        let coming = json(&get::<GetTermsOfService>(&app, &[], None).await);
        assert_eq!(coming["effective"], false);
        assert_eq!(coming["effective_date"], next_week.to_string().as_str());
        assert_eq!(coming["content"], "<p>Soon on policy.test</p>\n");
        assert_eq!(coming["succeeded_by"], Value::Null);

        // A draft for today is shown nowhere until published.
        area.add_terms(app.ids.next(), terms(today, "draft", false), now)
            .await
            .expect("draft");
        let today_s = today.to_string();
        let draft = get::<GetTermsOfServiceOn>(&app, &[("date", &today_s)], None).await;
        assert_eq!(draft.status, StatusCode::NOT_FOUND);
        // Replacing the draft keeps one version for the date.
        area.add_terms(
            app.ids.next(),
            terms(today, "Today's **terms**", false),
            now,
        )
        .await
        .expect("draft replaced");
        area.publish_terms(&today_s, now).await.expect("published");
        assert_eq!(
            area.publish_terms(&today_s, now)
                .await
                .map_err(|e| e.status),
            Err(StatusCode::UNPROCESSABLE_ENTITY),
            "published once"
        );
        assert_eq!(area.all_terms().await.expect("all").len(), 2);
        let republish = area
            .add_terms(app.ids.next(), terms(today, "changed", true), now)
            .await;
        assert_eq!(
            republish.map_err(|e| e.status),
            Err(StatusCode::UNPROCESSABLE_ENTITY),
            "published terms do not change"
        );

        let current = json(&get::<GetTermsOfService>(&app, &[], None).await);
        assert_eq!(current["effective_date"], today_s.as_str());
        assert_eq!(current["effective"], true);
        assert_eq!(
            current["content"],
            "<p>Today's <strong>terms</strong></p>\n"
        );
        assert_eq!(current["succeeded_by"], next_week.to_string().as_str());

        let on = get::<GetTermsOfServiceOn>(&app, &[("date", &next_week.to_string())], None).await;
        assert_eq!(on.status, StatusCode::OK);
        assert_eq!(json(&on)["effective"], false);
        for bad in ["2020-01-01", "yesterday", "2025-02-30"] {
            let r = get::<GetTermsOfServiceOn>(&app, &[("date", bad)], None).await;
            assert_eq!(r.status, StatusCode::NOT_FOUND, "{bad}");
            assert!(json(&r)["error"].is_string());
        }
        assert_eq!(
            area.publish_terms("2099-01-01", now)
                .await
                .map_err(|e| e.status),
            Err(StatusCode::NOT_FOUND)
        );
    }

    fn block(
        app: &App,
        domain: &str,
        severity: DomainBlockSeverity,
        obfuscate: bool,
    ) -> InstanceDomainBlockRecord {
        InstanceDomainBlockRecord {
            id: app.ids.next(),
            domain: domain.into(),
            severity,
            reject_media: false,
            reject_reports: false,
            private_comment: Some("moderators only".into()),
            public_comment: Some(format!("about {domain}")),
            obfuscate,
            created_at: Utc::now(),
        }
    }

    #[tokio::test]
    async fn instance_domain_blocks_follow_the_settings_and_hide_what_they_ask() {
        let app = app();
        let store = app
            .store
            .moderation()
            .expect("MemoryStore keeps moderation data");
        for b in [
            block(&app, "zeta.example", DomainBlockSeverity::Silence, false),
            block(&app, "bad.example", DomainBlockSeverity::Suspend, true),
            block(&app, "alpha.example", DomainBlockSeverity::Silence, false),
            block(&app, "quiet.example", DomainBlockSeverity::Noop, false),
        ] {
            store.save_instance_domain_block(&b).await.expect("block");
        }
        let reader = test_support::account(&app, "reader").await;

        // Disabled unless set.
        let r = get::<InstanceDomainBlocks>(&app, &[], Some(&reader)).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND);
        assert!(json(&r)["error"].is_string());

        let area = app.instance();
        area.set_setting(SHOW_DOMAIN_BLOCKS, "users")
            .await
            .expect("set");
        assert_eq!(
            get::<InstanceDomainBlocks>(&app, &[], None).await.status,
            StatusCode::NOT_FOUND,
            "users only"
        );
        let list = json(&get::<InstanceDomainBlocks>(&app, &[], Some(&reader)).await);
        let domains: Vec<&str> = list
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|b| b["domain"].as_str())
            .collect();
        assert_eq!(
            domains,
            ["alpha.example", "zeta.example", "bad.*****le"],
            "silenced first, by domain; noop left out; obfuscated"
        );
        assert_eq!(
            list[2]["digest"], "86bbe8ffb912a153c9a8b396246aeeae079cd324af4dd947a2bf59a698eabc62",
            "SHA-256 (hex) of the domain as blocked"
        );
        assert_eq!(list[2]["severity"], "suspend");
        assert_eq!(list[0]["comment"], Value::Null, "rationale disabled");

        area.set_setting(SHOW_DOMAIN_BLOCKS, "all")
            .await
            .expect("set");
        area.set_setting(SHOW_DOMAIN_BLOCKS_RATIONALE, "users")
            .await
            .expect("set");
        let public = json(&get::<InstanceDomainBlocks>(&app, &[], None).await);
        assert_eq!(
            public[0]["comment"],
            Value::Null,
            "rationale for users only"
        );
        let signed_in = json(&get::<InstanceDomainBlocks>(&app, &[], Some(&reader)).await);
        assert_eq!(signed_in[0]["comment"], "about alpha.example");
        assert!(
            !signed_in.to_string().contains("moderators only"),
            "private comments never show"
        );

        for (name, value) in [("show_domain_blocks", "everyone"), ("site_title", "all")] {
            assert_eq!(
                area.set_setting(name, value).await.map_err(|e| e.status),
                Err(StatusCode::UNPROCESSABLE_ENTITY),
                "{name}={value}"
            );
        }
    }

    #[tokio::test]
    async fn instance_languages_list_iso_639_with_english_names() {
        let app = app();
        let reply = get::<InstanceLanguages>(&app, &[], None).await;
        assert_eq!(reply.status, StatusCode::OK);
        let list = json(&reply);
        let list = list.as_array().expect("a list");
        assert!(list.len() > 180, "every ISO 639-1 language: {}", list.len());
        let name = |code: &str| {
            list.iter()
                .find(|l| l["code"] == code)
                .and_then(|l| l["name"].as_str())
                .map(str::to_string)
        };
        assert_eq!(name("en").as_deref(), Some("English"));
        assert_eq!(name("fr").as_deref(), Some("French"));
        assert_eq!(name("tok").as_deref(), Some("Toki Pona"));
        let mut codes: Vec<&str> = list.iter().filter_map(|l| l["code"].as_str()).collect();
        let count = codes.len();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), count, "each code once");
    }

    #[tokio::test]
    async fn instance_peer_search_finds_known_domains_by_prefix() {
        let app = app();
        for (i, host) in [
            "social.example",
            "Sock.example",
            "other.example",
            "spam.social.example",
        ]
        .iter()
        .enumerate()
        {
            let mut a = AccountRecord::new_local(app.ids.next(), &format!("u{i}"), Utc::now());
            a.domain = Some((*host).into());
            a.uri = Some(format!("https://{host}/users/u{i}"));
            app.store.insert_remote_account(&a).await.expect("remote");
        }
        let blocked = block(&app, "social.example", DomainBlockSeverity::Silence, false);
        let found = |q: &'static str| {
            let app = app.clone();
            async move { json(&get::<SearchPeers>(&app, &[("q", q)], None).await) }
        };
        assert_eq!(
            found(" SO").await,
            serde_json::json!(["social.example", "sock.example"])
        );
        assert_eq!(found("").await, serde_json::json!([]));
        app.store
            .moderation()
            .expect("moderation")
            .save_instance_domain_block(&blocked)
            .await
            .expect("block");
        assert_eq!(
            found("s").await,
            serde_json::json!(["sock.example"]),
            "blocked domains and their subdomains are left out"
        );
    }

    /// A 1x1 PNG.
    const PNG: &[u8] = &[
        137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2,
        0, 0, 0, 144, 119, 83, 222, 0, 0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 232, 233, 253, 15,
        0, 3, 193, 2, 25, 188, 44, 160, 75, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
    ];

    /// A PNG's signature and header declaring `width` x `height`, and no pixels.
    fn png_declaring(width: u32, height: u32) -> Vec<u8> {
        let mut v = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        v.extend_from_slice(&width.to_be_bytes());
        v.extend_from_slice(&height.to_be_bytes());
        v.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
        v
    }

    const BLURHASH: &str = "LEHV6nWB2yk8pyo0adR*.7kCMdnj";

    /// Makes every version a 1x1 PNG, noting the pixels each was asked for.
    #[derive(Default)]
    struct OnePixel {
        asked: std::sync::Mutex<Vec<u32>>,
    }

    #[async_trait::async_trait]
    impl MediaProcessor for OnePixel {
        async fn preview(&self, _image: &[u8], max_pixels: u32) -> Result<Preview, String> {
            self.asked.lock().expect("lock").push(max_pixels);
            Ok(Preview {
                bytes: PNG.to_vec(),
                kind: ImageKind::Png,
                width: 1,
                height: 1,
                blurhash: Some(BLURHASH.into()),
            })
        }
    }

    #[test]
    fn instance_thumbnail_versions_fit_their_box_and_are_never_enlarged() {
        let x1 = THUMBNAIL_BOX;
        let x2 = (x1.0 * 2, x1.1 * 2);
        // Wide: the width meets the box (1200x600, 2400x1200).
        assert_eq!(pixels_within(3000, 1500, x1), 720_000);
        assert_eq!(pixels_within(3000, 1500, x2), 2_880_000);
        // Tall: the height does (315x630).
        assert_eq!(pixels_within(1000, 2000, x1), 198_450);
        // Small: as it is, both times.
        assert_eq!(pixels_within(800, 400, x1), 320_000);
        assert_eq!(pixels_within(800, 400, x2), 320_000);
        // Exactly the box, and a thin strip keeping a pixel.
        assert_eq!(pixels_within(1200, 630, x1), 756_000);
        assert_eq!(pixels_within(1_000_000, 1, x1), 1);
    }

    #[tokio::test]
    async fn instance_thumbnail_is_stored_in_two_versions_shown_and_cleared() {
        let app = app();
        let area = app.instance();
        let files = &*app.files;
        let limits = &app.config.limits;
        let processor = OnePixel::default();
        let base = app.base_url();
        let built_in = serde_json::json!({ "url": format!("{base}/thumbnail.png") });
        assert_eq!(
            json(&get::<InstanceV2>(&app, &[], None).await)["thumbnail"],
            built_in
        );

        // Not an image: refused before anything is made, nothing stored.
        for bad in [&b"%PDF-1.7 not an image"[..], b"", &PNG[..12]] {
            let refused = area
                .set_thumbnail(files, &processor, limits, app.ids.next(), bad)
                .await
                .map_err(|e| e.status);
            assert_eq!(refused, Err(StatusCode::UNPROCESSABLE_ENTITY), "{bad:?}");
        }
        let huge = area
            .set_thumbnail(
                files,
                &processor,
                limits,
                app.ids.next(),
                &png_declaring(100_000, 100_000),
            )
            .await
            .expect_err("too many pixels");
        assert_eq!(huge.status, StatusCode::UNPROCESSABLE_ENTITY);
        let details = huge.details.as_ref().and_then(|d| d.get("thumbnail"));
        assert_eq!(
            details.map(|d| d[0].error.as_str()),
            Some("ERR_TOO_LARGE"),
            "{huge:?}"
        );
        assert!(processor.asked.lock().expect("lock").is_empty());
        assert_eq!(area.thumbnail().await.expect("read"), None);

        let first = area
            .set_thumbnail(
                files,
                &processor,
                limits,
                app.ids.next(),
                &png_declaring(3000, 1500),
            )
            .await
            .expect("set");
        assert_eq!(
            *processor.asked.lock().expect("lock"),
            [720_000, 2_880_000],
            "@1x within 1200x630, @2x within 2400x1260"
        );
        let folder = format!("site_uploads/thumbnail/{}", first.version);
        assert_eq!(first.x1.key, format!("{folder}/1x.png"));
        assert_eq!(first.x2.key, format!("{folder}/2x.png"));
        assert_eq!(first.blurhash.as_deref(), Some(BLURHASH));
        for key in first.keys() {
            assert_eq!(files.get(&key).await.expect("get").as_deref(), Some(PNG));
        }
        assert_eq!(area.thumbnail().await.expect("read"), Some(first.clone()));

        let url_1x = files.public_url(&base, &first.x1.key);
        let url_2x = files.public_url(&base, &first.x2.key);
        assert_eq!(
            json(&get::<InstanceV2>(&app, &[], None).await)["thumbnail"],
            serde_json::json!({
                "url": url_1x,
                "blurhash": BLURHASH,
                "versions": { "@1x": url_1x, "@2x": url_2x },
            })
        );
        assert_eq!(
            json(&get::<InstanceV1>(&app, &[], None).await)["thumbnail"],
            url_1x.as_str()
        );

        // A new upload: new keys, the old files removed.
        let second = area
            .set_thumbnail(files, &processor, limits, app.ids.next(), PNG)
            .await
            .expect("replaced");
        assert_ne!(second.x1.key, first.x1.key);
        for key in first.keys() {
            assert_eq!(files.get(&key).await.expect("get"), None, "{key}");
        }
        assert_eq!(
            json(&get::<InstanceV2>(&app, &[], None).await)["thumbnail"]["url"],
            files.public_url(&base, &second.x1.key).as_str()
        );

        // Cleared: the built-in image, no files left; clearing again changes nothing.
        assert!(area.clear_thumbnail(files).await.expect("cleared"));
        for key in second.keys() {
            assert_eq!(files.get(&key).await.expect("get"), None, "{key}");
        }
        assert_eq!(
            json(&get::<InstanceV2>(&app, &[], None).await)["thumbnail"],
            built_in
        );
        assert_eq!(
            json(&get::<InstanceV1>(&app, &[], None).await)["thumbnail"],
            built_in["url"]
        );
        assert!(!area.clear_thumbnail(files).await.expect("nothing to clear"));

        // A setting that is not a thumbnail shows the built-in image.
        app.store
            .moderation()
            .expect("moderation")
            .set_setting(THUMBNAIL_SETTING, Some("{\"version\": 1}"))
            .await
            .expect("set");
        assert_eq!(area.thumbnail().await.expect("read"), None);
        assert_eq!(
            json(&get::<InstanceV2>(&app, &[], None).await)["thumbnail"],
            built_in
        );
    }

    #[tokio::test]
    async fn instance_thumbnail_needs_a_processor_and_moderation_data() {
        let app = app();
        let limits = &app.config.limits;
        let failed = app
            .instance()
            .set_thumbnail(
                &*app.files,
                &crate::media::NoProcessing,
                limits,
                app.ids.next(),
                PNG,
            )
            .await
            .expect_err("no processor");
        assert_eq!(failed.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(app.instance().thumbnail().await.expect("read"), None);

        let area = without_moderation(&app);
        let write = area
            .set_thumbnail(
                &*app.files,
                &OnePixel::default(),
                limits,
                app.ids.next(),
                PNG,
            )
            .await;
        assert_eq!(write.map_err(|e| e.status), Err(StatusCode::NOT_FOUND));
        assert_eq!(
            area.clear_thumbnail(&*app.files)
                .await
                .map_err(|e| e.status),
            Err(StatusCode::NOT_FOUND)
        );
        assert_eq!(area.thumbnail().await.expect("read"), None);
    }
}
