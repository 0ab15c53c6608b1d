//! What the instance tells about itself: the figures its v1 and v2 documents, weekly activity
//! and NodeInfo report, and its policy: rules, the extended description and privacy policy,
//! the terms of service, the public list of server-wide domain blocks, and the peers a domain
//! search finds (render writes the documents, `render/instance.rs`).
//!
//! The policy lives in the store's [`ModerationStore`] (rules, settings, terms of service,
//! domain blocks). A store that keeps none still answers what it can: the configured rules, the
//! default texts, no terms (404) and no domain blocks; only the writes (the admin CLI's) fail.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};

use crate::error::{ApiError, ApiResult, StoreError};
use crate::id::Id;
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
}
