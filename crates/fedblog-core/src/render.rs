//! The only place where store records become API entities.

use std::collections::HashMap;

use chrono::{DateTime, SecondsFormat, Utc};

use crate::app::App;
use crate::content;
use crate::entities::*;
use crate::error::ApiResult;
use crate::id::Id;
use crate::store::{AccountRecord, AppRecord, Role as RoleRecord, StatusRecord, UserRecord};

/// ISO 8601 with milliseconds and `Z`, as Mastodon writes datetimes.
pub fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Default avatar and header images, served by the server.
pub const MISSING_AVATAR: &str = "/avatars/original/missing.png";
/// Default header image.
pub const MISSING_HEADER: &str = "/headers/original/missing.png";

impl App {
    /// Profile URL of an account.
    pub fn account_url(&self, a: &AccountRecord) -> String {
        a.url
            .clone()
            .unwrap_or_else(|| format!("{}/@{}", self.base_url(), a.username))
    }

    /// ActivityPub id of an account.
    pub fn account_uri(&self, a: &AccountRecord) -> String {
        a.uri
            .clone()
            .unwrap_or_else(|| format!("{}/users/{}", self.base_url(), a.username))
    }

    /// Renders an account. A suspended account is shown blank with `suspended: true`.
    /// An entry of the caller's mutes list.
    pub fn render_muted_account(
        &self,
        a: &AccountRecord,
        expires_at: Option<DateTime<Utc>>,
    ) -> MutedAccount {
        MutedAccount {
            account: self.render_account(a),
            mute_expires_at: expires_at.map(timestamp),
        }
    }

    pub fn render_account(&self, a: &AccountRecord) -> Account {
        let base = self.base_url();
        let suspended = a.is_suspended();
        // Uploaded images are served as stored (not resized, GIFs not flattened), so the
        // `*_static` URLs are the same files.
        let image = |key: &Option<String>, missing: &str| match key {
            Some(k) if !suspended => self.files.public_url(&base, k),
            _ => format!("{base}{missing}"),
        };
        let avatar = image(&a.avatar, MISSING_AVATAR);
        let header = image(&a.header, MISSING_HEADER);
        Account {
            id: a.id,
            username: a.username.clone(),
            acct: a.acct(),
            url: Some(self.account_url(a)),
            uri: self.account_uri(a),
            display_name: if suspended {
                String::new()
            } else {
                a.display_name.clone()
            },
            note: if suspended {
                String::new()
            } else {
                content::render_html(&a.note, &base, &|_, _| None)
            },
            avatar: avatar.clone(),
            avatar_static: avatar,
            header: header.clone(),
            header_static: header,
            locked: a.locked,
            fields: if suspended {
                vec![]
            } else {
                a.fields
                    .iter()
                    .map(|f| Field {
                        name: f.name.clone(),
                        value: render_field_value(&f.value, &base),
                        verified_at: None,
                    })
                    .collect()
            },
            emojis: vec![],
            bot: a.bot,
            group: false,
            discoverable: a.discoverable,
            indexable: a.indexable,
            hide_collections: a.hide_collections,
            noindex: if a.is_local() {
                Some(!a.indexable)
            } else {
                None
            },
            suspended: suspended.then_some(true),
            created_at: timestamp(date_floor(a.created_at)),
            last_status_at: a.last_status_at.map(|t| t.format("%Y-%m-%d").to_string()),
            statuses_count: if suspended { 0 } else { a.statuses_count },
            followers_count: if suspended { 0 } else { a.followers_count },
            following_count: if suspended { 0 } else { a.following_count },
            roles: vec![],
        }
    }

    /// Renders the signed-in user's own account with its `source` and `role`.
    pub fn render_credential_account(
        &self,
        a: &AccountRecord,
        user: &UserRecord,
    ) -> CredentialAccount {
        CredentialAccount {
            account: self.render_account(a),
            source: Source {
                note: a.note.clone(),
                fields: a
                    .fields
                    .iter()
                    .map(|f| Field {
                        name: f.name.clone(),
                        value: f.value.clone(),
                        verified_at: None,
                    })
                    .collect(),
                privacy: a.default_privacy.as_str().to_string(),
                sensitive: a.default_sensitive,
                language: a.default_language.clone().unwrap_or_default(),
                follow_requests_count: 0,
                hide_collections: a.hide_collections,
                discoverable: a.discoverable,
                indexable: a.indexable,
                attribution_domains: vec![],
            },
            role: render_role(user.role),
        }
    }

    /// Renders an application (without its secret).
    pub fn render_application(&self, app: &AppRecord) -> Application {
        Application {
            id: app.id,
            name: app.name.clone(),
            website: app.website.clone(),
            scopes: app
                .scopes
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            redirect_uris: app.redirect_uris.clone(),
            redirect_uri: app.redirect_uris.join("\n"),
            vapid_key: String::new(),
        }
    }

    /// Renders a scheduled status.
    pub fn render_scheduled_status(
        &self,
        s: &crate::store::ScheduledStatusRecord,
    ) -> ApiResult<ScheduledStatus> {
        let params: ScheduledParams = serde_json::from_str(&s.params).map_err(|e| {
            tracing::error!(id = %s.id, error = %e, "stored scheduled status params do not parse");
            crate::error::ApiError::internal()
        })?;
        Ok(ScheduledStatus {
            id: s.id,
            scheduled_at: timestamp(s.scheduled_at),
            params,
            media_attachments: vec![],
        })
    }

    /// Renders a token just issued (its secret is shown once, here).
    pub fn render_token(&self, issued: &crate::services::oauth::IssuedToken) -> Token {
        Token {
            access_token: issued.access_token.clone(),
            token_type: "Bearer".into(),
            scope: issued.record.scopes.clone(),
            created_at: issued.record.created_at.timestamp(),
        }
    }

    /// Renders statuses for a viewer, loading their authors, mentioned accounts and apps in batches.
    /// `with_source` adds the source `text` (for the author's delete and source answers).
    pub async fn render_statuses(
        &self,
        statuses: &[StatusRecord],
        viewer: Option<&AccountRecord>,
        with_source: bool,
    ) -> ApiResult<Vec<Status>> {
        let mut ids: Vec<Id> = statuses.iter().map(|s| s.account_id).collect();
        ids.extend(statuses.iter().flat_map(|s| s.mentions.iter().copied()));
        ids.sort();
        ids.dedup();
        let accounts: HashMap<Id, AccountRecord> = self
            .store
            .accounts_by_ids(&ids)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        let mut apps: HashMap<Id, Option<AppRecord>> = HashMap::new();
        for app_id in statuses.iter().filter_map(|s| s.application_id) {
            if let std::collections::hash_map::Entry::Vacant(slot) = apps.entry(app_id) {
                slot.insert(self.store.app_by_id(app_id).await?);
            }
        }
        let base = self.base_url();
        let mut out = Vec::with_capacity(statuses.len());
        for s in statuses {
            let Some(author) = accounts.get(&s.account_id) else {
                continue;
            };
            let url = format!("{}/@{}/{}", base, author.username, s.id);
            out.push(Status {
                id: s.id,
                uri: s.uri.clone().unwrap_or_else(|| {
                    format!("{}/users/{}/statuses/{}", base, author.username, s.id)
                }),
                url: Some(url),
                created_at: timestamp(s.created_at),
                account: self.render_account(author),
                content: s.content.clone(),
                visibility: s.visibility.as_str().to_string(),
                sensitive: s.sensitive,
                spoiler_text: s.spoiler_text.clone(),
                media_attachments: vec![],
                application: s
                    .application_id
                    .and_then(|id| apps.get(&id).cloned().flatten())
                    .map(|a| StatusApplication {
                        name: a.name,
                        website: a.website,
                    }),
                mentions: s
                    .mentions
                    .iter()
                    .filter_map(|id| accounts.get(id))
                    .map(|m| StatusMention {
                        id: m.id,
                        username: m.username.clone(),
                        url: self.account_url(m),
                        acct: m.acct(),
                    })
                    .collect(),
                tags: s
                    .tags
                    .iter()
                    .map(|t| StatusTag {
                        name: t.clone(),
                        url: format!("{base}/tags/{t}"),
                    })
                    .collect(),
                emojis: vec![],
                reblogs_count: 0,
                favourites_count: 0,
                replies_count: 0,
                quotes_count: 0,
                in_reply_to_id: s.in_reply_to_id,
                in_reply_to_account_id: s.in_reply_to_account_id,
                reblog: None,
                poll: None,
                card: None,
                language: s.language.clone(),
                text: with_source.then(|| s.text.clone()),
                edited_at: s.edited_at.map(timestamp),
                favourited: viewer.map(|_| false),
                reblogged: viewer.map(|_| false),
                muted: viewer.map(|_| false),
                bookmarked: viewer.map(|_| false),
                pinned: viewer.filter(|v| v.id == s.account_id).map(|_| false),
            });
        }
        Ok(out)
    }
}

/// Renders a profile field value as Mastodon does: one line of escaped text (no paragraph),
/// links, hashtags, and URLs as links with `rel="me nofollow noopener noreferrer"` and
/// `target="_blank"`, so that rel=me verification of the linked page can be added later.
pub fn render_field_value(value: &str, base_url: &str) -> String {
    let one_line: String = value
        .chars()
        .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
        .collect();
    let html = content::render_html(&one_line, base_url, &|_, _| None);
    let html = html
        .strip_prefix("<p>")
        .and_then(|h| h.strip_suffix("</p>"))
        .unwrap_or(&html);
    // The input is escaped (a quote becomes `&quot;`), so this attribute text only ever comes
    // from the link markup `render_html` writes.
    html.replace(
        " target=\"_blank\" rel=\"nofollow noopener\"",
        " target=\"_blank\" rel=\"me nofollow noopener noreferrer\"",
    )
}

/// Mastodon rounds account creation times to the day.
fn date_floor(t: DateTime<Utc>) -> DateTime<Utc> {
    t.date_naive()
        .and_hms_opt(0, 0, 0)
        .map(|n| n.and_utc())
        .unwrap_or(t)
}

/// Renders a role.
pub fn render_role(role: RoleRecord) -> Role {
    let (id, name, permissions, highlighted) = match role {
        RoleRecord::Owner => ("3", "Owner", "1", true),
        RoleRecord::Admin => ("2", "Admin", "1048575", true),
        RoleRecord::Moderator => ("1", "Moderator", "1300", true),
        RoleRecord::User => ("-99", "", "65536", false),
    };
    Role {
        id: id.into(),
        name: name.into(),
        color: String::new(),
        permissions: permissions.into(),
        highlighted,
    }
}

impl App {
    /// Renders a hashtag: `name` is its display form, `url` the tag page of the normalised name;
    /// `history` holds `(midnight UTC, use)` per day, newest first; `following` and `featuring`
    /// are `None` for an anonymous caller.
    pub fn render_tag(
        &self,
        tag: &crate::store::TagRecord,
        history: &[(DateTime<Utc>, crate::store::TagUsage)],
        following: Option<bool>,
        featuring: Option<bool>,
    ) -> Tag {
        Tag {
            id: tag.id,
            name: tag.display_name.clone(),
            url: format!(
                "{}/tags/{}",
                self.base_url(),
                content::tag_url_segment(&tag.name)
            ),
            history: history
                .iter()
                .map(|(day, usage)| TagHistory {
                    day: day.timestamp().to_string(),
                    uses: usage.uses.to_string(),
                    accounts: usage.accounts.to_string(),
                })
                .collect(),
            following,
            featuring,
        }
    }

    /// Renders a featured tag of `owner`, with the tag's display name and the owner's public and
    /// unlisted use of it (`statuses_count`, and the newest such status, given as a day).
    pub fn render_featured_tag(
        &self,
        featured: &crate::store::FeaturedTagRecord,
        display_name: &str,
        owner: &AccountRecord,
        statuses_count: i64,
        last_status_at: Option<DateTime<Utc>>,
    ) -> FeaturedTag {
        FeaturedTag {
            id: featured.id,
            name: display_name.to_string(),
            url: format!(
                "{}/tagged/{}",
                self.account_url(owner),
                content::tag_url_segment(&featured.name)
            ),
            statuses_count: statuses_count.to_string(),
            last_status_at: last_status_at.map(|t| t.format("%Y-%m-%d").to_string()),
        }
    }
}

impl App {
    /// Renders a follow suggestion with its reasons (the first one also as the deprecated
    /// `source`).
    pub fn render_suggestion(
        &self,
        suggested: &crate::services::discovery::Suggested,
    ) -> Suggestion {
        Suggestion {
            source: suggested
                .sources
                .first()
                .map(|s| s.legacy())
                .unwrap_or("global")
                .to_string(),
            sources: suggested
                .sources
                .iter()
                .map(|s| s.as_str().to_string())
                .collect(),
            account: self.render_account(&suggested.account),
        }
    }

    /// Renders the familiar followers of one account.
    pub fn render_familiar_followers(
        &self,
        id: Id,
        accounts: &[AccountRecord],
    ) -> FamiliarFollowers {
        FamiliarFollowers {
            id,
            accounts: accounts.iter().map(|a| self.render_account(a)).collect(),
        }
    }
}
