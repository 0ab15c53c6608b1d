//! What the instance tells about itself: v1 and v2 instance documents, peers, weekly activity, NodeInfo.

use chrono::{Datelike, Duration, TimeZone, Utc};
use serde_json::{Value, json};

use crate::config::{InstanceConfig, RegistrationMode};
use crate::entities::Rule;
use crate::error::ApiResult;
use crate::media::MediaFormat;
use crate::store::StatsStore;

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

/// The instance area: `app.instance()`. It holds the statistics store, the configuration it
/// describes, and whether translation is on.
pub struct Instance<'a> {
    stats: &'a dyn StatsStore,
    config: &'a InstanceConfig,
    translation: bool,
}

impl<'a> Instance<'a> {
    /// The area over `stats` and `config`; `translation`: whether a translator is configured.
    pub fn new(stats: &'a dyn StatsStore, config: &'a InstanceConfig, translation: bool) -> Self {
        Instance {
            stats,
            config,
            translation,
        }
    }

    /// The version string: `4.5.0 (compatible; fedblog X.Y.Z)`.
    pub fn version_string(&self) -> String {
        format!("{MASTODON_COMPAT_VERSION} (compatible; fedblog {FEDBLOG_VERSION})")
    }

    /// The server's rules.
    pub fn rules(&self) -> Vec<Rule> {
        self.config
            .rules
            .iter()
            .enumerate()
            .map(|(i, t)| Rule {
                id: (i + 1).to_string(),
                text: t.clone(),
                hint: String::new(),
            })
            .collect()
    }

    fn streaming_url(&self) -> String {
        let ws = if self.config.scheme == "https" {
            "wss"
        } else {
            "ws"
        };
        format!("{ws}://{}", self.config.domain)
    }

    fn limits_json(&self) -> (Value, Value, Value, Value) {
        let l = &self.config.limits;
        (
            json!({ "max_featured_tags": l.max_featured_tags, "max_pinned_statuses": l.max_pinned_statuses, "max_display_name_length": l.max_display_name, "max_note_length": l.max_note, "max_profile_fields": l.max_fields, "profile_field_name_limit": l.max_field_length, "profile_field_value_limit": l.max_field_length }),
            json!({ "max_characters": l.max_status_characters, "max_media_attachments": l.max_media_attachments, "characters_reserved_per_url": l.characters_reserved_per_url }),
            json!({ "supported_mime_types": MediaFormat::all().map(MediaFormat::content_type).collect::<Vec<_>>(), "image_size_limit": l.image_size_limit, "image_matrix_limit": l.image_matrix_limit, "video_size_limit": l.video_size_limit, "video_frame_rate_limit": 120, "video_matrix_limit": 8_294_400, "description_limit": l.max_media_description }),
            json!({ "max_options": l.max_poll_options, "max_characters_per_option": l.max_poll_option_characters, "min_expiration": l.min_poll_expiration, "max_expiration": l.max_poll_expiration }),
        )
    }

    /// `GET /api/v2/instance`.
    pub async fn instance_v2(&self) -> ApiResult<Value> {
        let c = &self.config;
        let (accounts, statuses, media, polls) = self.limits_json();
        let active = self
            .stats
            .count_active_local_accounts(Utc::now() - Duration::days(30))
            .await?;
        Ok(json!({
            "domain": c.domain,
            "title": c.title,
            "version": self.version_string(),
            "source_url": SOURCE_URL,
            "description": c.description,
            "usage": { "users": { "active_month": active } },
            "thumbnail": { "url": format!("{}/thumbnail.png", self.config.base_url()) },
            "icon": [],
            "languages": ["en"],
            "configuration": {
                "urls": { "streaming": self.streaming_url(), "status": null, "about": format!("{}/about", self.config.base_url()), "privacy_policy": null, "terms_of_service": null },
                "accounts": accounts,
                "statuses": statuses,
                "media_attachments": media,
                "polls": polls,
                "translation": { "enabled": self.translation },
                "timelines_access": {
                    "live_feeds": { "local": "public", "remote": "public" },
                    "hashtag_feeds": { "local": "public", "remote": "public" },
                    "trending_link_feeds": { "local": "public", "remote": "public" }
                },
                "limited_federation": false
            },
            "registrations": {
                "enabled": c.registrations != RegistrationMode::Closed,
                "approval_required": c.registrations == RegistrationMode::Approval,
                "reason_required": false,
                "message": null,
                "min_age": null,
                "url": null
            },
            "api_versions": { "mastodon": MASTODON_API_VERSION },
            "contact": { "email": c.contact_email, "account": null },
            "rules": self.rules(),
        }))
    }

    /// `GET /api/v1/instance` (deprecated but still read by many clients).
    pub async fn instance_v1(&self) -> ApiResult<Value> {
        let c = &self.config;
        let (accounts, statuses, media, polls) = self.limits_json();
        Ok(json!({
            "uri": c.domain,
            "title": c.title,
            "short_description": c.description,
            "description": c.description,
            "email": c.contact_email,
            "version": self.version_string(),
            "urls": { "streaming_api": self.streaming_url() },
            "stats": {
                "user_count": self.stats.count_local_accounts().await?,
                "status_count": self.stats.count_local_statuses().await?,
                "domain_count": self.stats.known_domains().await?.len(),
            },
            "thumbnail": format!("{}/thumbnail.png", self.config.base_url()),
            "languages": ["en"],
            "registrations": c.registrations != RegistrationMode::Closed,
            "approval_required": c.registrations == RegistrationMode::Approval,
            "invites_enabled": false,
            "configuration": { "accounts": accounts, "statuses": statuses, "media_attachments": media, "polls": polls },
            "contact_account": null,
            "rules": self.rules(),
        }))
    }

    /// `GET /api/v1/instance/activity`: the last 12 weeks (Monday 00:00 UTC), newest first, numbers as strings.
    pub async fn instance_activity(&self) -> ApiResult<Value> {
        let now = Utc::now();
        let today = now.date_naive();
        let monday = today - Duration::days(today.weekday().num_days_from_monday() as i64);
        let mut start = Utc.from_utc_datetime(&monday.and_hms_opt(0, 0, 0).expect("midnight"));
        let mut weeks = Vec::with_capacity(12);
        for _ in 0..12 {
            let end = start + Duration::weeks(1);
            let a = self.stats.activity_between(start, end).await?;
            weeks.push(json!({
                "week": start.timestamp().to_string(),
                "statuses": a.statuses.to_string(),
                "logins": a.logins.to_string(),
                "registrations": a.registrations.to_string(),
            }));
            start -= Duration::weeks(1);
        }
        Ok(Value::Array(weeks))
    }

    /// NodeInfo 2.0 document.
    pub async fn nodeinfo(&self) -> ApiResult<Value> {
        let now = Utc::now();
        Ok(json!({
            "version": "2.0",
            "software": { "name": "fedblog", "version": FEDBLOG_VERSION },
            "protocols": ["activitypub"],
            "services": { "outbound": [], "inbound": [] },
            "usage": {
                "users": {
                    "total": self.stats.count_local_accounts().await?,
                    "activeMonth": self.stats.count_active_local_accounts(now - Duration::days(30)).await?,
                    "activeHalfyear": self.stats.count_active_local_accounts(now - Duration::days(180)).await?,
                },
                "localPosts": self.stats.count_local_statuses().await?,
            },
            "openRegistrations": self.config.registrations == RegistrationMode::Open,
            "metadata": { "nodeName": self.config.title },
        }))
    }
}
