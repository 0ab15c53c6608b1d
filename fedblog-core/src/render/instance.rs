//! The instance documents: v1 and v2, rules, weekly activity and NodeInfo, and the policy
//! entities (extended description, privacy policy, terms of service, public domain blocks,
//! languages), written from the configuration and what `services/instance.rs` reads. Policy
//! texts are Markdown: rendered with `pulldown-cmark`, then sanitised with `ammonia`. The
//! thumbnail is the administrator's upload, or the built-in image the server serves at
//! `/thumbnail.png`.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use chrono::{DateTime, TimeZone, Utc};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::app::App;
use crate::config::RegistrationMode;
use crate::entities::{
    DomainBlock, ExtendedDescription, Language, PrivacyPolicy, Rule, TermsOfService,
};
use crate::media::MediaFormat;
use crate::render::timestamp;
use crate::services::instance::{
    ActiveUsers, FEDBLOG_VERSION, MASTODON_API_VERSION, MASTODON_COMPAT_VERSION,
    PublicDomainBlocks, SOURCE_URL, TermsView, TextView, Thumbnail, Totals,
};
use crate::store::{InstanceDomainBlockRecord, RuleRecord, WeekActivity};

/// The path of the built-in thumbnail, shown until the administrator uploads one.
const BUILT_IN_THUMBNAIL: &str = "/thumbnail.png";

/// The date of the default texts (the empty extended description, [`DEFAULT_PRIVACY_POLICY`]):
/// when this release last changed them. A text never set is the software's, so it is dated
/// as the software's text, which keeps the date stable across restarts.
const DEFAULT_TEXTS_UPDATED_AT: (i32, u32, u32) = (2026, 11, 28);

/// The privacy policy shown until the administrator sets one (Markdown; `%{domain}` is the
/// server's domain). It says what fedblog itself keeps, and no more.
const DEFAULT_PRIVACY_POLICY: &str = r#"This is the default privacy policy of %{domain}, a server running fedblog. Its administrator has not written one of their own yet.

# What this server keeps

- **Your account**: your username, your e-mail address, a hash of your password (never the password itself), and what you put in your profile (display name, bio, profile fields, avatar and header). Everything in your profile but the e-mail address is public.
- **What you post**: your posts with their media, polls and dates. Public posts can be read by anyone; followers-only and direct posts are shown to the people they are addressed to, and the server's operators can read them too.
- **Your connections and settings**: whom you follow, block and mute, your lists, filters, bookmarks and favourites.
- **Applications you sign in with**: the applications you authorized and their access tokens, kept as hashes.

The server does not record the addresses you sign in from. The address of a request may be counted for a short while to enforce rate limits.

# Other servers

Your public profile and the posts you address to people on other servers are delivered to those servers, which keep copies under their own policies. When you delete a post, the servers it went to are asked to delete their copies, but they may not.

# Deleting your data

You can delete your posts at any time. To have your account and everything in it deleted, ask the administrator of %{domain}.

# Cookies

The API works with access tokens; it sets no cookies.
"#;

/// The elements policy texts may use: what CommonMark makes, less images.
const POLICY_ELEMENTS: &[&str] = &[
    "p",
    "br",
    "hr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "em",
    "strong",
    "del",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
];

/// The sanitiser of rendered policy texts (see [`markdown_html`]).
static POLICY_SANITIZER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut builder = ammonia::Builder::empty();
    builder
        .tags(POLICY_ELEMENTS.iter().copied().collect())
        .clean_content_tags(HashSet::from(["script", "style"]))
        .strip_comments(true)
        .generic_attributes(HashSet::new())
        .tag_attributes(HashMap::from([
            ("a", HashSet::from(["href"])),
            ("ol", HashSet::from(["start"])),
        ]))
        .url_schemes(HashSet::from(["http", "https", "mailto"]))
        .url_relative(ammonia::UrlRelative::Deny)
        .link_rel(Some("nofollow noopener"));
    builder
});

/// A policy text (Markdown, CommonMark) as safe HTML: raw HTML in it is sanitised like any
/// other, images and scripts are dropped, links keep only http, https and mailto addresses.
pub fn markdown_html(markdown: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::empty());
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, parser);
    POLICY_SANITIZER.clean(&html).to_string()
}

/// `domain` as the public list of domain blocks shows it: with `obfuscate`, the characters of
/// its middle half (dots aside) replaced by `*`, as Mastodon shows them.
pub fn public_domain(block: &InstanceDomainBlockRecord) -> String {
    if !block.obfuscate {
        return block.domain.clone();
    }
    let length = block.domain.chars().count();
    let visible = length / 4;
    block
        .domain
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i > visible && i < length - visible && c != '.' {
                '*'
            } else {
                c
            }
        })
        .collect()
}

/// The ISO 639-3 codes Mastodon lists besides the ISO 639-1 ones (languages without a
/// two-letter code that it knows); names come from `isolang`, like the others.
const EXTRA_LANGUAGES: &[&str] = &[
    "ast", "ckb", "cnr", "jbo", "kab", "kmr", "ldn", "lfn", "sco", "sma", "smj", "szl", "tok",
    "zba", "zgh",
];

/// Every ISO 639-1 language by code, then [`EXTRA_LANGUAGES`], with English names.
static LANGUAGES: LazyLock<Vec<(&'static str, &'static str)>> = LazyLock::new(|| {
    let mut two_letter: Vec<(&'static str, &'static str)> = isolang::languages()
        .filter_map(|l| Some((l.to_639_1()?, l.to_name())))
        .collect();
    two_letter.sort_unstable();
    two_letter.dedup_by_key(|(code, _)| *code);
    two_letter.extend(
        EXTRA_LANGUAGES
            .iter()
            .filter_map(|code| isolang::Language::from_639_3(code))
            .map(|l| (l.to_639_3(), l.to_name())),
    );
    two_letter
});

impl App {
    /// The version string: `4.5.0 (compatible; fedblog X.Y.Z)`.
    pub fn version_string(&self) -> String {
        format!("{MASTODON_COMPAT_VERSION} (compatible; fedblog {FEDBLOG_VERSION})")
    }

    /// The server's rules: those the store keeps (`stored`, by position), or, for a store that
    /// keeps no moderation data (`None`), the configured ones numbered from 1.
    pub fn render_rules(&self, stored: Option<&[RuleRecord]>) -> Vec<Rule> {
        match stored {
            Some(rules) => rules
                .iter()
                .map(|r| Rule {
                    id: r.id.to_string(),
                    text: r.text.clone(),
                    hint: r.hint.clone(),
                })
                .collect(),
            None => self
                .config
                .rules
                .iter()
                .enumerate()
                .map(|(i, t)| Rule {
                    id: (i + 1).to_string(),
                    text: t.clone(),
                    hint: String::new(),
                })
                .collect(),
        }
    }

    /// When a text never set (the software's default) was last changed.
    fn default_texts_updated_at() -> DateTime<Utc> {
        let (y, m, d) = DEFAULT_TEXTS_UPDATED_AT;
        Utc.with_ymd_and_hms(y, m, d, 0, 0, 0)
            .single()
            .unwrap_or(DateTime::UNIX_EPOCH)
    }

    /// `GET /api/v1/instance/extended_description`: the text as HTML (empty when never set).
    pub fn render_extended_description(&self, text: &TextView) -> ExtendedDescription {
        ExtendedDescription {
            updated_at: timestamp(
                text.updated_at
                    .unwrap_or_else(Self::default_texts_updated_at),
            ),
            content: text
                .markdown
                .as_deref()
                .map(markdown_html)
                .unwrap_or_default(),
        }
    }

    /// `GET /api/v1/instance/privacy_policy`: the policy as HTML, the default one when never set.
    pub fn render_privacy_policy(&self, text: &TextView) -> PrivacyPolicy {
        let markdown = match &text.markdown {
            Some(m) => m.clone(),
            None => DEFAULT_PRIVACY_POLICY.replace("%{domain}", &self.config.domain),
        };
        PrivacyPolicy {
            updated_at: timestamp(
                text.updated_at
                    .unwrap_or_else(Self::default_texts_updated_at),
            ),
            content: markdown_html(&markdown),
        }
    }

    /// A published version of the terms of service, `%{domain}` in it replaced by the server's
    /// domain, as Mastodon does.
    pub fn render_terms_of_service(&self, view: &TermsView) -> TermsOfService {
        let markdown = view.terms.text.replace("%{domain}", &self.config.domain);
        TermsOfService {
            effective_date: view.terms.effective_date.format("%Y-%m-%d").to_string(),
            effective: view.effective,
            content: markdown_html(&markdown),
            succeeded_by: view.succeeded_by.map(|d| d.format("%Y-%m-%d").to_string()),
        }
    }

    /// `GET /api/v1/instance/domain_blocks`: each block's public domain, the SHA-256 of the
    /// domain blocked, its severity and, when the caller may read it, its public comment.
    pub fn render_public_domain_blocks(&self, list: &PublicDomainBlocks) -> Vec<DomainBlock> {
        list.blocks
            .iter()
            .map(|b| DomainBlock {
                domain: public_domain(b),
                digest: Sha256::digest(b.domain.as_bytes())
                    .iter()
                    .map(|byte| format!("{byte:02x}"))
                    .collect(),
                severity: b.severity.as_str().to_string(),
                comment: if list.with_comments {
                    b.public_comment.clone().filter(|c| !c.trim().is_empty())
                } else {
                    None
                },
            })
            .collect()
    }

    /// `GET /api/v1/instance/languages`: the ISO 639 languages with their English names.
    pub fn render_languages(&self) -> Vec<Language> {
        LANGUAGES
            .iter()
            .map(|(code, name)| Language {
                code: (*code).to_string(),
                name: (*name).to_string(),
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

    /// The URL of the thumbnail: the `@1x` version of the uploaded one, else the built-in image.
    fn thumbnail_url(&self, thumbnail: Option<&Thumbnail>) -> String {
        let base = self.base_url();
        match thumbnail {
            Some(t) => self.files.public_url(&base, &t.x1.key),
            None => format!("{base}{BUILT_IN_THUMBNAIL}"),
        }
    }

    /// The v2 `thumbnail`: of an uploaded one, its URL (the `@1x` version), BlurHash and both
    /// versions; of the built-in image, its URL only (as Mastodon shows its default).
    fn thumbnail_json(&self, thumbnail: Option<&Thumbnail>) -> Value {
        let url = self.thumbnail_url(thumbnail);
        match thumbnail {
            Some(t) => json!({
                "url": url,
                "blurhash": t.blurhash,
                "versions": {
                    "@1x": url,
                    "@2x": self.files.public_url(&self.base_url(), &t.x2.key),
                },
            }),
            None => json!({ "url": url }),
        }
    }

    /// `GET /api/v2/instance`, with the accounts active this month, whether translation is on,
    /// the rules (see [`App::render_rules`]) and the uploaded thumbnail, if any.
    pub fn render_instance_v2(
        &self,
        active_month: i64,
        translation: bool,
        rules: Option<&[RuleRecord]>,
        thumbnail: Option<&Thumbnail>,
    ) -> Value {
        let c = &self.config;
        let (accounts, statuses, media, polls) = self.limits_json();
        json!({
            "domain": c.domain,
            "title": c.title,
            "version": self.version_string(),
            "source_url": SOURCE_URL,
            "description": c.description,
            "usage": { "users": { "active_month": active_month } },
            "thumbnail": self.thumbnail_json(thumbnail),
            "icon": [],
            "languages": ["en"],
            "configuration": {
                "urls": { "streaming": self.streaming_url(), "status": null, "about": format!("{}/about", c.base_url()), "privacy_policy": null, "terms_of_service": null },
                "accounts": accounts,
                "statuses": statuses,
                "media_attachments": media,
                "polls": polls,
                "translation": { "enabled": translation },
                "vapid": { "public_key": self.vapid.public_key() },
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
            "rules": self.render_rules(rules),
        })
    }

    /// `GET /api/v1/instance` (deprecated but still read by many clients), with the local totals,
    /// the number of known domains, the rules (see [`App::render_rules`]) and the uploaded
    /// thumbnail, if any (its `@1x` version's URL).
    pub fn render_instance_v1(
        &self,
        totals: Totals,
        domains: usize,
        rules: Option<&[RuleRecord]>,
        thumbnail: Option<&Thumbnail>,
    ) -> Value {
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
            "thumbnail": self.thumbnail_url(thumbnail),
            "languages": ["en"],
            "registrations": c.registrations != RegistrationMode::Closed,
            "approval_required": c.registrations == RegistrationMode::Approval,
            "invites_enabled": false,
            "configuration": { "accounts": accounts, "statuses": statuses, "media_attachments": media, "polls": polls },
            "contact_account": null,
            "rules": self.render_rules(rules),
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
            // `upstream` names the API this server speaks without changing its name: client
            // libraries that pick an API by NodeInfo alone (megalodon's `detector`, in
            // JavaScript and Rust) take an unknown `software.name` for Mastodon when
            // `metadata.upstream.name` is `mastodon`, as Mastodon's forks (Fedibird, kmyblue)
            // say it, and refuse the server otherwise.
            "metadata": {
                "nodeName": self.config.title,
                "upstream": { "name": "mastodon", "version": MASTODON_COMPAT_VERSION },
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;

    use super::*;
    use crate::id::Id;
    use crate::store::DomainBlockSeverity;

    fn block(domain: &str, obfuscate: bool) -> InstanceDomainBlockRecord {
        InstanceDomainBlockRecord {
            id: Id::from_i64(1),
            domain: domain.into(),
            severity: DomainBlockSeverity::Suspend,
            reject_media: false,
            reject_reports: false,
            private_comment: None,
            public_comment: None,
            obfuscate,
            created_at: Utc::now(),
        }
    }

    #[test]
    fn instance_obfuscated_domains_keep_their_ends_and_dots() {
        assert_eq!(public_domain(&block("example.com", true)), "exa****.*om");
        assert_eq!(
            public_domain(&block("a.b", true)),
            "a.*",
            "Mastodon's rule, however short the domain"
        );
        assert_eq!(public_domain(&block("example.com", false)), "example.com");
    }

    #[test]
    fn instance_markdown_keeps_structure_and_drops_what_is_unsafe() {
        let html = markdown_html(
            "## Rules\n\n1. one\n2. **two**\n\n> quoted `code`\n\n<div onclick=\"x()\">raw</div>\n\n[mail](mailto:a@b.example) [rel](/relative)",
        );
        for kept in [
            "<h2>Rules</h2>",
            "<ol>",
            "<li><strong>two</strong></li>",
            "<blockquote>",
            "<code>code</code>",
            "href=\"mailto:a@b.example\"",
        ] {
            assert!(html.contains(kept), "{kept} missing from {html}");
        }
        for gone in ["<div", "onclick", "/relative"] {
            assert!(!html.contains(gone), "{gone} left in {html}");
        }
    }
}
