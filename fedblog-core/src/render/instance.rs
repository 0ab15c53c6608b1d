//! The instance documents: v1 and v2, rules, weekly activity and NodeInfo, written from the
//! configuration and the figures `services/instance.rs` reads.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::app::App;
use crate::config::RegistrationMode;
use crate::entities::Rule;
use crate::media::MediaFormat;
use crate::services::instance::{
    ActiveUsers, FEDBLOG_VERSION, MASTODON_API_VERSION, MASTODON_COMPAT_VERSION, SOURCE_URL, Totals,
};
use crate::store::WeekActivity;

impl App {
    /// The version string: `4.5.0 (compatible; fedblog X.Y.Z)`.
    pub fn version_string(&self) -> String {
        format!("{MASTODON_COMPAT_VERSION} (compatible; fedblog {FEDBLOG_VERSION})")
    }

    /// The server's rules, numbered from 1.
    pub fn render_rules(&self) -> Vec<Rule> {
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

    /// `GET /api/v2/instance`, with the accounts active this month and whether translation is on.
    pub fn render_instance_v2(&self, active_month: i64, translation: bool) -> Value {
        let c = &self.config;
        let (accounts, statuses, media, polls) = self.limits_json();
        json!({
            "domain": c.domain,
            "title": c.title,
            "version": self.version_string(),
            "source_url": SOURCE_URL,
            "description": c.description,
            "usage": { "users": { "active_month": active_month } },
            "thumbnail": { "url": format!("{}/thumbnail.png", c.base_url()) },
            "icon": [],
            "languages": ["en"],
            "configuration": {
                "urls": { "streaming": self.streaming_url(), "status": null, "about": format!("{}/about", c.base_url()), "privacy_policy": null, "terms_of_service": null },
                "accounts": accounts,
                "statuses": statuses,
                "media_attachments": media,
                "polls": polls,
                "translation": { "enabled": translation },
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
            "rules": self.render_rules(),
        })
    }

    /// `GET /api/v1/instance` (deprecated but still read by many clients), with the local totals
    /// and the number of known domains.
    pub fn render_instance_v1(&self, totals: Totals, domains: usize) -> Value {
        let c = &self.config;
        let (accounts, statuses, media, polls) = self.limits_json();
        json!({
            "uri": c.domain,
            "title": c.title,
            "short_description": c.description,
            "description": c.description,
            "email": c.contact_email,
            "version": self.version_string(),
            "urls": { "streaming_api": self.streaming_url() },
            "stats": {
                "user_count": totals.users,
                "status_count": totals.statuses,
                "domain_count": domains,
            },
            "thumbnail": format!("{}/thumbnail.png", c.base_url()),
            "languages": ["en"],
            "registrations": c.registrations != RegistrationMode::Closed,
            "approval_required": c.registrations == RegistrationMode::Approval,
            "invites_enabled": false,
            "configuration": { "accounts": accounts, "statuses": statuses, "media_attachments": media, "polls": polls },
            "contact_account": null,
            "rules": self.render_rules(),
        })
    }

    /// `GET /api/v1/instance/activity`: weeks newest first, numbers as strings.
    pub fn render_activity(&self, weeks: &[(DateTime<Utc>, WeekActivity)]) -> Value {
        weeks
            .iter()
            .map(|(start, a)| {
                json!({
                    "week": start.timestamp().to_string(),
                    "statuses": a.statuses.to_string(),
                    "logins": a.logins.to_string(),
                    "registrations": a.registrations.to_string(),
                })
            })
            .collect()
    }

    /// The NodeInfo document of schema `version` (`2.0`, or `2.1`, which adds the software's
    /// repository and homepage).
    pub fn render_nodeinfo(&self, version: &str, totals: Totals, active: ActiveUsers) -> Value {
        let mut software = json!({ "name": "fedblog", "version": FEDBLOG_VERSION });
        if version != "2.0" {
            software["repository"] = SOURCE_URL.into();
            software["homepage"] = SOURCE_URL.into();
        }
        json!({
            "version": version,
            "software": software,
            "protocols": ["activitypub"],
            "services": { "outbound": [], "inbound": [] },
            "usage": {
                "users": {
                    "total": totals.users,
                    "activeMonth": active.month,
                    "activeHalfyear": active.half_year,
                },
                "localPosts": totals.statuses,
            },
            "openRegistrations": self.config.registrations == RegistrationMode::Open,
            "metadata": { "nodeName": self.config.title },
        })
    }
}
