//! The only place where store records become API entities.

pub mod activitypub;
mod admin;
mod announcements;
pub use announcements::*;
mod embed;
mod instance;
mod metrics;
mod reports;
mod server_blocks;
pub use server_blocks::*;
pub mod webfinger;

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, SecondsFormat, Utc};

use crate::app::App;
use crate::content;
use crate::entities::*;
use crate::id::Id;
use crate::services::filters::ActiveFilters;
use crate::store::{
    AccountRecord, AppRecord, CustomEmojiRecord, FilterContext, MarkerRecord, MediaKind,
    MediaRecord, NotificationRecord, NotificationType, PollRecord, PushSubscriptionRecord,
    Role as RoleRecord, StatusRecord, UserRecord, UserRoleRecord, conversation_of,
};

/// ISO 8601 with milliseconds and `Z`, as Mastodon writes datetimes.
pub fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Default avatar and header images, served by the server.
pub const MISSING_AVATAR: &str = "/avatars/original/missing.png";
/// Default header image.
pub const MISSING_HEADER: &str = "/headers/original/missing.png";

mod cards;

impl App {
    /// Profile URL of an account.
    pub fn account_url(&self, a: &AccountRecord) -> String {
        content::account_url(&self.base_url(), a)
    }

    /// ActivityPub id of an account.
    pub fn account_uri(&self, a: &AccountRecord) -> String {
        a.uri
            .clone()
            .unwrap_or_else(|| format!("{}/users/{}", self.base_url(), a.username))
    }

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

    /// Renders an account. A suspended account is shown blank with `suspended: true`; a local
    /// one whose login holds a highlighted role shows it in `roles` ([`StaffBadges`]).
    ///
    /// [`StaffBadges`]: crate::services::badges::StaffBadges
    pub fn render_account(&self, a: &AccountRecord) -> Account {
        let base = self.base_url();
        let suspended = a.is_suspended();
        // An animated GIF is kept as sent beside a still PNG of its first frame (its key from
        // `still_key`), which the `*_static` URL names; other images are their own still. A
        // remote account's image not copied here is its URL, shown as it is.
        let image = |key: &Option<String>, missing: &str| match key {
            Some(url) if !suspended && crate::services::media::is_remote_url(url) => {
                (url.clone(), url.clone())
            }
            Some(k) if !suspended => {
                let still = crate::services::accounts::still_key(k).unwrap_or_else(|| k.clone());
                (
                    self.files.public_url(&base, k),
                    self.files.public_url(&base, &still),
                )
            }
            _ => (format!("{base}{missing}"), format!("{base}{missing}")),
        };
        let (avatar, avatar_static) = image(&a.avatar, MISSING_AVATAR);
        let (header, header_static) = image(&a.header, MISSING_HEADER);
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
            avatar,
            avatar_static,
            header,
            header_static,
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
            emojis: if suspended || !a.is_local() {
                vec![]
            } else {
                self.local_account_emojis(a)
            },
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
            roles: match self.staff_badges.of(a.id) {
                Some(b) if !suspended && a.is_local() => {
                    render_role_badges(b.role, b.custom.as_ref())
                }
                _ => vec![],
            },
            moved: None,
        }
    }

    /// Renders the signed-in user's own account with its `source` and `role` (`custom`: the
    /// record of its custom role, if it has one), and its role's badge in `roles` when the role
    /// is highlighted.
    pub fn render_credential_account(
        &self,
        a: &AccountRecord,
        user: &UserRecord,
        custom: Option<&UserRoleRecord>,
    ) -> CredentialAccount {
        let mut account = self.render_account(a);
        account.roles = render_role_badges(user.role, custom);
        CredentialAccount {
            account,
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
            role: render_role(user.role, custom),
        }
    }

    /// Renders a push subscription: every documented alert (off unless turned on) and any
    /// other type turned on, the policy, and the server's key.
    pub fn render_push_subscription(&self, sub: &PushSubscriptionRecord) -> WebPushSubscription {
        let mut alerts = serde_json::Map::new();
        for t in crate::store::NotificationType::ALL {
            let on = sub.alerts.iter().any(|a| a == t.as_str());
            if on || crate::services::web_push::DOCUMENTED_ALERTS.contains(&t) {
                alerts.insert(t.as_str().to_string(), serde_json::Value::Bool(on));
            }
        }
        WebPushSubscription {
            id: sub.id,
            endpoint: sub.endpoint.clone(),
            standard: sub.standard,
            alerts,
            server_key: self.vapid.public_key(),
            policy: sub.policy.clone(),
        }
    }

    /// Renders the preferences of `a`: its posting defaults, and Mastodon's default reading
    /// preferences (fedblog keeps no others).
    pub fn render_preferences(&self, a: &AccountRecord) -> Preferences {
        Preferences {
            posting_default_visibility: a.default_privacy.as_str().to_string(),
            posting_default_sensitive: a.default_sensitive,
            posting_default_language: a.default_language.clone().filter(|l| !l.is_empty()),
            reading_expand_media: "default".into(),
            reading_expand_spoilers: false,
            reading_autoplay_gifs: false,
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
            vapid_key: self.vapid.public_key(),
        }
    }

    /// Renders a scheduled status whose parameters are `params`, with the media of `ids`.
    pub fn render_scheduled_status_with(
        &self,
        s: &crate::store::ScheduledStatusRecord,
        params: ScheduledParams,
        ids: &[Id],
        media: &HashMap<Id, MediaRecord>,
    ) -> ScheduledStatus {
        ScheduledStatus {
            id: s.id,
            scheduled_at: timestamp(s.scheduled_at),
            media_attachments: self.render_media_list(ids, media),
            params,
        }
    }

    /// Renders the media of `ids` in that order, skipping any not in `media`.
    pub fn render_media_list(
        &self,
        ids: &[Id],
        media: &HashMap<Id, MediaRecord>,
    ) -> Vec<MediaAttachment> {
        ids.iter()
            .filter_map(|id| media.get(id))
            .map(|m| self.render_media(m))
            .collect()
    }

    /// Renders a media attachment. `url` is `null` until a video or audio upload is processed;
    /// `preview_url` is the client's thumbnail, else the generated preview, else (for an image)
    /// the original.
    pub fn render_media(&self, m: &MediaRecord) -> MediaAttachment {
        let base = self.base_url();
        let url_of = |key: &str| self.files.public_url(&base, key);
        // A remote post's attachment with no copy here (none kept, or not made yet) is shown
        // from its server; a copy is shown from here, `remote_url` naming the original.
        let remote_only = crate::services::media::shown_from_remote(m);
        let url = if remote_only {
            m.remote_url.clone()
        } else {
            (m.processed || m.kind == MediaKind::Image).then(|| url_of(&m.file_key))
        };
        let preview_url = if remote_only {
            (m.kind == MediaKind::Image)
                .then(|| m.remote_url.clone())
                .flatten()
        } else {
            m.thumbnail_key
                .as_deref()
                .or(m.preview_key.as_deref())
                .map(url_of)
                .or_else(|| (m.kind == MediaKind::Image).then(|| url_of(&m.file_key)))
        };
        let mut meta: serde_json::Value =
            serde_json::from_str(&m.meta).unwrap_or_else(|_| serde_json::json!({}));
        if let (Some((x, y)), Some(obj)) = (m.focus, meta.as_object_mut()) {
            obj.insert("focus".into(), serde_json::json!({ "x": x, "y": y }));
        }
        MediaAttachment {
            id: m.id,
            kind: m.kind.as_str().to_string(),
            url,
            preview_url,
            remote_url: m.remote_url.clone(),
            preview_remote_url: None,
            text_url: None,
            meta,
            description: m.description.clone(),
            blurhash: m.blurhash.clone(),
        }
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

    /// Renders `statuses` with what `batch` loaded for them (see `App::render_statuses`).
    pub(crate) fn render_batch(
        &self,
        statuses: &[StatusRecord],
        batch: &StatusBatch<'_>,
    ) -> Vec<Status> {
        let mut out = Vec::with_capacity(statuses.len());
        for s in statuses {
            let rendered = match s.reblog_of_id {
                None => self.render_one_status(batch, s, s),
                Some(of) => {
                    let Some(original) = batch.originals.get(&of) else {
                        continue;
                    };
                    let Some(inner) = self.render_one_status(batch, original, original) else {
                        continue;
                    };
                    self.render_one_status(batch, s, original).map(|mut outer| {
                        outer.reblog = Some(Box::new(inner));
                        outer
                    })
                }
            };
            out.extend(rendered.map(|mut st| {
                if batch.viewer.is_some() {
                    self.mark_filtered(&batch.filters, &mut st);
                }
                st
            }));
        }
        out
    }

    /// Renders conversations for `me` with their participants' accounts and their last
    /// statuses as rendered (a last status `me` may not see is absent): the other participants,
    /// or `me` when there is none.
    pub(crate) fn render_conversation_list(
        &self,
        me: &AccountRecord,
        conversations: &[crate::store::ConversationRecord],
        accounts: &HashMap<Id, Account>,
        statuses: &HashMap<Id, Status>,
    ) -> Vec<Conversation> {
        conversations
            .iter()
            .map(|c| {
                let mut others: Vec<Account> = c
                    .participant_ids
                    .iter()
                    .filter_map(|id| accounts.get(id).cloned())
                    .collect();
                if others.is_empty() {
                    others.push(self.render_account(me));
                }
                Conversation {
                    id: c.id,
                    unread: c.unread,
                    accounts: others,
                    last_status: c.last_status_id().and_then(|id| statuses.get(&id).cloned()),
                }
            })
            .collect()
    }

    /// Sets `filtered` on a status rendered for a signed-in viewer (and on the original it
    /// reblogs): the filters its original matches, `[]` when none.
    fn mark_filtered(&self, filters: &ActiveFilters, st: &mut Status) {
        let results: Vec<FilterResult> = if filters.is_empty() {
            vec![]
        } else {
            let proper = st.reblog.as_deref().unwrap_or(st);
            let ids: Vec<Id> = std::iter::once(st.id)
                .chain(st.reblog.as_ref().map(|r| r.id))
                .collect();
            let text = searchable_text(proper);
            filters
                .matches(&text, &ids)
                .into_iter()
                .map(|m| FilterResult {
                    filter: render_filter(m.filter, false),
                    keyword_matches: m.keyword_match.map(|k| vec![k]),
                    status_matches: m.status_matches,
                })
                .collect()
        };
        if let Some(inner) = st.reblog.as_deref_mut() {
            inner.filtered = Some(results.clone());
        }
        st.filtered = Some(results);
    }

    /// Renders one status of a batch; `proper` is the status itself, or for a reblog its
    /// original, whose interactions the viewer's flags describe. `None` when the author is gone.
    fn render_one_status(
        &self,
        batch: &StatusBatch<'_>,
        s: &StatusRecord,
        proper: &StatusRecord,
    ) -> Option<Status> {
        let base = &batch.base;
        let accounts = &batch.accounts;
        let author = accounts.get(&s.account_id)?;
        // A remote status's page is on its own server: its id stands for it (Mastodon shows
        // `url || uri`; the `url` a note names is not kept yet), never a page of ours, which
        // serves only local statuses.
        let url = match (&s.uri, s.local) {
            (Some(uri), false) => uri.clone(),
            _ => format!("{}/@{}/{}", base, author.username, s.id),
        };
        let flag = |set: fn(&ViewerFlags) -> &HashSet<Id>, id: Id| {
            batch.flags.as_ref().map(|f| set(f).contains(&id))
        };
        let pinnable = s.reblog_of_id.is_none() && s.visibility != crate::store::Visibility::Direct;
        Some(Status {
            id: s.id,
            uri: s
                .uri
                .clone()
                .unwrap_or_else(|| format!("{}/users/{}/statuses/{}", base, author.username, s.id)),
            url: Some(url),
            created_at: timestamp(s.created_at),
            account: self.render_account(author),
            content: s.content.clone(),
            visibility: s.visibility.as_str().to_string(),
            sensitive: s.sensitive,
            spoiler_text: s.spoiler_text.clone(),
            media_attachments: self.render_media_list(&s.media_ids, &batch.media),
            application: s
                .application_id
                .and_then(|id| batch.apps.get(&id).cloned())
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
            emojis: status_emojis(batch, s, author),
            reblogs_count: s.reblogs_count,
            favourites_count: s.favourites_count,
            replies_count: s.replies_count,
            quotes_count: 0,
            in_reply_to_id: s.in_reply_to_id,
            in_reply_to_account_id: s.in_reply_to_account_id,
            reblog: None,
            poll: batch
                .polls
                .get(&s.id)
                .cloned()
                .map(|p| with_poll_emojis(batch, p, author)),
            card: batch.cards.get(&s.id).map(|c| self.render_preview_card(c)),
            language: s.language.clone(),
            text: batch.with_source.then(|| s.text.clone()),
            edited_at: s.edited_at.map(timestamp),
            favourited: flag(|f| &f.favourited, proper.id),
            reblogged: flag(|f| &f.reblogged, proper.id),
            muted: batch
                .flags
                .as_ref()
                .map(|f| f.muted.contains(&conversation_of(proper))),
            bookmarked: flag(|f| &f.bookmarked, proper.id),
            pinned: batch
                .viewer
                .filter(|v| v.id == s.account_id && pinnable)
                .and_then(|_| flag(|f| &f.pinned, s.id)),
            filtered: None,
            quote: None,
            quote_approval: None,
        })
    }
}

/// What the viewer did with the statuses of one rendered page.
#[derive(Default)]
pub(crate) struct ViewerFlags {
    pub(crate) favourited: HashSet<Id>,
    pub(crate) reblogged: HashSet<Id>,
    pub(crate) bookmarked: HashSet<Id>,
    pub(crate) pinned: HashSet<Id>,
    /// Muted threads (conversation ids).
    pub(crate) muted: HashSet<Id>,
}

/// What rendering one page of statuses needs besides the statuses, each kind loaded once (by
/// `services/presenting.rs`).
pub(crate) struct StatusBatch<'a> {
    pub(crate) base: String,
    /// The originals the page's reblogs name.
    pub(crate) originals: HashMap<Id, StatusRecord>,
    /// Authors and mentioned accounts of the page's statuses and originals.
    pub(crate) accounts: HashMap<Id, AccountRecord>,
    pub(crate) apps: HashMap<Id, AppRecord>,
    /// `None` for an anonymous viewer.
    pub(crate) flags: Option<ViewerFlags>,
    /// The polls of the page's statuses, rendered for the viewer, by status id.
    pub(crate) polls: HashMap<Id, Poll>,
    /// The media of the page's statuses.
    pub(crate) media: HashMap<Id, MediaRecord>,
    /// The viewer's filters (none for an anonymous viewer).
    pub(crate) filters: ActiveFilters,
    pub(crate) viewer: Option<&'a AccountRecord>,
    pub(crate) with_source: bool,
    /// The custom emojis the page's statuses name, by shortcode and domain (`None`: ours).
    pub(crate) emojis: HashMap<(String, Option<String>), CustomEmojiRecord>,
    /// The preview cards of the page's statuses, by status id.
    pub(crate) cards: HashMap<Id, crate::store::PreviewCardRecord>,
}

/// The texts of a status where custom emojis show: its content, its content warning and its
/// poll's options.
pub(crate) fn emoji_texts<'s>(s: &'s StatusRecord, poll: Option<&'s Poll>) -> Vec<&'s str> {
    let mut texts = vec![s.content.as_str(), s.spoiler_text.as_str()];
    if let Some(poll) = poll {
        texts.extend(poll.options.iter().map(|o| o.title.as_str()));
    }
    texts
}

/// The `emojis` of a status by `author`: each `:shortcode:` of its texts that names an enabled
/// custom emoji of the author's server, once, in order.
fn status_emojis(
    batch: &StatusBatch<'_>,
    s: &StatusRecord,
    author: &AccountRecord,
) -> Vec<CustomEmoji> {
    if batch.emojis.is_empty() {
        return vec![];
    }
    let domain = author.domain.as_ref().map(|d| d.to_ascii_lowercase());
    let mut out: Vec<CustomEmoji> = vec![];
    for text in emoji_texts(s, batch.polls.get(&s.id)) {
        for code in content::emoji_shortcodes(text) {
            if out.iter().any(|e| e.shortcode == code) {
                continue;
            }
            if let Some(e) = batch.emojis.get(&(code, domain.clone()))
                && !e.disabled
            {
                out.push(render_custom_emoji(e));
            }
        }
    }
    out
}

/// A status's poll with its `emojis`: each `:shortcode:` of its options that names an enabled
/// custom emoji of the author's server, once, in order.
fn with_poll_emojis(batch: &StatusBatch<'_>, mut poll: Poll, author: &AccountRecord) -> Poll {
    if batch.emojis.is_empty() {
        return poll;
    }
    let domain = author.domain.as_ref().map(|d| d.to_ascii_lowercase());
    let mut out: Vec<CustomEmoji> = vec![];
    for option in &poll.options {
        for code in content::emoji_shortcodes(&option.title) {
            if out.iter().any(|e| e.shortcode == code) {
                continue;
            }
            if let Some(e) = batch.emojis.get(&(code, domain.clone()))
                && !e.disabled
            {
                out.push(render_custom_emoji(e));
            }
        }
    }
    poll.emojis = out;
    poll
}

impl App {
    /// The `emojis` of a local account: this server's enabled emojis its display name, bio and
    /// profile fields name (from the emojis the app read last, see
    /// [`LocalEmojis`](crate::services::custom_emojis::LocalEmojis)).
    pub(crate) fn local_account_emojis(&self, a: &AccountRecord) -> Vec<CustomEmoji> {
        let texts = [a.display_name.as_str(), a.note.as_str()]
            .into_iter()
            .chain(
                a.fields
                    .iter()
                    .flat_map(|f| [f.name.as_str(), f.value.as_str()]),
            );
        self.local_emojis
            .named_in(texts)
            .iter()
            .map(render_custom_emoji)
            .collect()
    }

    /// The `emojis` of a local poll: this server's enabled emojis its options name.
    pub(crate) fn local_poll_emojis(&self, poll: &PollRecord) -> Vec<CustomEmoji> {
        self.local_emojis
            .named_in(poll.options.iter().map(String::as_str))
            .iter()
            .map(render_custom_emoji)
            .collect()
    }
}

/// A custom emoji as clients see it.
pub fn render_custom_emoji(e: &CustomEmojiRecord) -> CustomEmoji {
    CustomEmoji {
        shortcode: e.shortcode.clone(),
        url: e.image_url.clone(),
        static_url: e.static_url.clone(),
        visible_in_picker: e.visible_in_picker,
        category: e.category.clone(),
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

/// Renders a notification policy with its summary.
pub fn render_notification_policy(
    p: &crate::store::NotificationPolicyRecord,
    summary: crate::services::notification_policies::PolicySummary,
) -> NotificationPolicy {
    NotificationPolicy {
        for_not_following: p.for_not_following.as_str().into(),
        for_not_followers: p.for_not_followers.as_str().into(),
        for_new_accounts: p.for_new_accounts.as_str().into(),
        for_private_mentions: p.for_private_mentions.as_str().into(),
        for_limited_accounts: p.for_limited_accounts.as_str().into(),
        summary: NotificationPolicySummary {
            pending_requests_count: summary.pending_requests_count,
            pending_notifications_count: summary.pending_notifications_count,
        },
    }
}

/// Renders a filter; `with_rules` adds its keywords and statuses (left out inside a
/// `FilterResult`).
pub fn render_filter(f: &crate::store::FilterRecord, with_rules: bool) -> Filter {
    Filter {
        id: f.id,
        title: f.title.clone(),
        context: f.context.iter().map(|c| c.as_str().to_string()).collect(),
        expires_at: f.expires_at.map(timestamp),
        filter_action: f.action.as_str().to_string(),
        keywords: with_rules.then(|| f.keywords.iter().map(render_filter_keyword).collect()),
        statuses: with_rules.then(|| f.statuses.iter().map(render_filter_status).collect()),
    }
}

/// Renders a filter keyword.
pub fn render_filter_keyword(k: &crate::store::FilterKeywordRecord) -> FilterKeyword {
    FilterKeyword {
        id: k.id,
        keyword: k.keyword.clone(),
        whole_word: k.whole_word,
    }
}

/// Renders a filter status.
pub fn render_filter_status(s: &crate::store::FilterStatusRecord) -> FilterStatus {
    FilterStatus {
        id: s.id,
        status_id: s.status_id,
    }
}

/// Renders one keyword of a filter as a v1 filter.
pub fn render_v1_filter(
    k: &crate::store::FilterKeywordRecord,
    f: &crate::store::FilterRecord,
) -> V1Filter {
    V1Filter {
        id: k.id,
        phrase: k.keyword.clone(),
        context: f.context.iter().map(|c| c.as_str().to_string()).collect(),
        whole_word: k.whole_word,
        expires_at: f.expires_at.map(timestamp),
        irreversible: f.action == crate::store::FilterAction::Hide,
    }
}

/// The API form of how one account stands to another: follow options come from the follow, or
/// from the pending request while there is one.
pub fn render_relationship(standing: crate::services::relationships::Standing) -> Relationship {
    let options = standing.follow.as_ref().or(standing.request.as_ref());
    let mute = standing.mute.as_ref();
    Relationship {
        id: standing.other,
        following: standing.follow.is_some(),
        showing_reblogs: options.is_some_and(|f| f.show_reblogs),
        notifying: options.is_some_and(|f| f.notify),
        languages: options.and_then(|f| f.languages.clone()),
        followed_by: standing.followed_by,
        blocking: standing.blocking,
        blocked_by: standing.blocked_by,
        muting: mute.is_some(),
        muting_notifications: mute.is_some_and(|m| m.notifications),
        muting_expires_at: mute.and_then(|m| m.expires_at).map(timestamp),
        requested: standing.request.is_some(),
        requested_by: standing.requested_by,
        domain_blocking: standing.domain_blocking,
        endorsed: standing.endorsed,
        note: standing.note.unwrap_or_default(),
    }
}

/// Renders a list.
pub fn render_list(list: &crate::store::ListRecord) -> List {
    List {
        id: list.id,
        title: list.title.clone(),
        replies_policy: list.replies_policy.as_str().to_string(),
        exclusive: list.exclusive,
    }
}

/// Renders lists.
pub fn render_lists(lists: &[crate::store::ListRecord]) -> Vec<List> {
    lists.iter().map(render_list).collect()
}

/// Renders a role; `custom` is the record of a custom role (a custom role without its record is
/// rendered as everyone's, whose rights it has). A custom role's `permissions` are what it
/// grants, everyone's flags included (Mastodon's `computed_permissions`).
pub fn render_role(role: RoleRecord, custom: Option<&UserRoleRecord>) -> Role {
    let (name, highlighted) = match role {
        RoleRecord::Owner => ("Owner", true),
        RoleRecord::Admin => ("Admin", true),
        RoleRecord::Moderator => ("Moderator", true),
        RoleRecord::User => ("", false),
        RoleRecord::Custom(id) => {
            return match custom.filter(|c| c.id == id) {
                Some(c) => Role {
                    id: c.id.to_string(),
                    name: c.name.clone(),
                    color: c.color.clone(),
                    permissions: crate::permissions::Permissions::of_custom(c).0.to_string(),
                    highlighted: c.highlighted,
                },
                None => render_role(RoleRecord::User, None),
            };
        }
    };
    Role {
        id: crate::permissions::role_id(role).into(),
        name: name.into(),
        color: String::new(),
        permissions: crate::permissions::Permissions::of(role).0.to_string(),
        highlighted,
    }
}

/// The badges of a local account whose login has `role` (`Account.roles`): the role, when it is
/// highlighted (as Mastodon seeds them, the built-in owner, admin and moderator roles are).
pub fn render_role_badges(role: RoleRecord, custom: Option<&UserRoleRecord>) -> Vec<AccountRole> {
    let r = render_role(role, custom);
    if r.highlighted {
        vec![AccountRole {
            id: r.id,
            name: r.name,
            color: r.color,
        }]
    } else {
        vec![]
    }
}

impl App {
    /// Renders a hashtag as staff see it: the tag (no `following` or `featuring`: staff read
    /// it as staff) with what staff decided.
    pub fn render_admin_tag(&self, view: &crate::services::tags::TagView) -> AdminTag {
        let review = &view.tag.review;
        AdminTag {
            tag: self.render_tag(view),
            trendable: review.trendable(),
            usable: review.usable(),
            listable: review.listable(),
            requires_review: review.reviewed_at.is_none(),
        }
    }

    /// Renders a hashtag: `name` is its display form, `url` the tag page of the normalised name;
    /// `following` and `featuring` are left out for an anonymous caller.
    pub fn render_tag(&self, view: &crate::services::tags::TagView) -> Tag {
        Tag {
            id: view.tag.id,
            name: view.tag.display_name.clone(),
            url: format!(
                "{}/tags/{}",
                self.base_url(),
                content::tag_url_segment(&view.tag.name)
            ),
            history: view
                .history
                .iter()
                .map(|(day, usage)| TagHistory {
                    day: day.timestamp().to_string(),
                    uses: usage.uses.to_string(),
                    accounts: usage.accounts.to_string(),
                })
                .collect(),
            following: view.following,
            featuring: view.featuring,
        }
    }

    /// Renders hashtags in order.
    pub fn render_tags(&self, views: &[crate::services::tags::TagView]) -> Vec<Tag> {
        views.iter().map(|v| self.render_tag(v)).collect()
    }

    /// Search results: accounts, statuses rendered already (they need a page's loading), and
    /// hashtags.
    pub fn render_search(
        &self,
        accounts: &[AccountRecord],
        statuses: Vec<Status>,
        hashtags: &[crate::services::tags::TagView],
    ) -> Search {
        Search {
            accounts: accounts.iter().map(|a| self.render_account(a)).collect(),
            statuses,
            hashtags: self.render_tags(hashtags),
        }
    }

    /// Renders a featured tag with the tag's display name and the owner's public and unlisted
    /// use of it (`statuses_count`, and the newest such status, given as a day).
    pub fn render_featured_tag(
        &self,
        view: &crate::services::tags::FeaturedTagView,
    ) -> FeaturedTag {
        FeaturedTag {
            id: view.featured.id,
            name: view.display_name.clone(),
            url: format!(
                "{}/tagged/{}",
                self.account_url(&view.owner),
                content::tag_url_segment(&view.featured.name)
            ),
            statuses_count: view.statuses_count.to_string(),
            last_status_at: view
                .last_status_at
                .map(|t| t.format("%Y-%m-%d").to_string()),
        }
    }

    /// Renders featured tags in order.
    pub fn render_featured_tags(
        &self,
        views: &[crate::services::tags::FeaturedTagView],
    ) -> Vec<FeaturedTag> {
        views.iter().map(|v| self.render_featured_tag(v)).collect()
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

impl App {
    /// Renders the revisions of a status by `author`, oldest first, with the media of each.
    pub(crate) fn render_status_edit_list(
        &self,
        author: &AccountRecord,
        revisions: &[crate::store::StatusEditRecord],
        media: &HashMap<Id, MediaRecord>,
    ) -> Vec<StatusEdit> {
        let account = self.render_account(author);
        revisions
            .iter()
            .map(|r| StatusEdit {
                content: r.content.clone(),
                spoiler_text: r.spoiler_text.clone(),
                sensitive: r.sensitive,
                created_at: timestamp(r.created_at),
                account: account.clone(),
                media_attachments: self.render_media_list(&r.media_ids, media),
                emojis: vec![],
                poll: r.poll_options.as_ref().map(|o| StatusEditPoll {
                    options: o
                        .iter()
                        .map(|t| StatusEditPollOption { title: t.clone() })
                        .collect(),
                }),
            })
            .collect()
    }

    /// Renders the source of a status (its plain text and content warning), for its author.
    pub fn render_status_source(&self, status: &StatusRecord) -> StatusSource {
        StatusSource {
            id: status.id,
            text: status.text.clone(),
            spoiler_text: status.spoiler_text.clone(),
        }
    }
}

impl App {
    /// Renders a page of notification groups (those to show, their statuses rendered) with the
    /// accounts `accounts` holds: see `App::render_notification_groups`.
    pub(crate) fn render_notification_group_page(
        &self,
        groups: &[&crate::services::notification_groups::NotificationGroup],
        partial: bool,
        statuses: Vec<Status>,
        accounts: &HashMap<Id, AccountRecord>,
        subjects: &NotificationSubjects,
    ) -> GroupedNotificationsResults {
        let mut full_ids: Vec<Id> = Vec::new();
        let mut partial_ids: Vec<Id> = Vec::new();
        let mut out_groups = Vec::with_capacity(groups.len());
        for g in groups {
            let Some((report, moderation_warning)) = subjects.of(g.most_recent()) else {
                continue;
            };
            let samples = g.sample_account_ids();
            for (i, a) in samples.iter().enumerate() {
                if i == 0 || !partial {
                    full_ids.push(*a);
                } else {
                    partial_ids.push(*a);
                }
            }
            let newest = g.most_recent();
            let oldest = g.notifications.last().unwrap_or(newest);
            out_groups.push(NotificationGroup {
                group_key: g.key.clone(),
                notifications_count: g.notifications.len() as u64,
                kind: g.kind.as_str().to_string(),
                most_recent_notification_id: newest.id.0,
                page_min_id: oldest.id,
                page_max_id: newest.id,
                latest_page_notification_at: timestamp(newest.created_at),
                sample_account_ids: samples,
                status_id: newest.status_id,
                report,
                moderation_warning,
            });
        }
        full_ids.sort();
        full_ids.dedup();
        partial_ids.sort();
        partial_ids.dedup();
        partial_ids.retain(|a| full_ids.binary_search(a).is_err());
        let full = full_ids
            .iter()
            .filter_map(|id| accounts.get(id))
            .map(|a| self.render_account(a))
            .collect();
        let partial_accounts = partial.then(|| {
            partial_ids
                .iter()
                .filter_map(|id| accounts.get(id))
                .map(|a| {
                    let full = self.render_account(a);
                    PartialAccountWithAvatar {
                        id: full.id,
                        acct: full.acct,
                        url: full.url.unwrap_or_else(|| self.account_url(a)),
                        avatar: full.avatar,
                        avatar_static: full.avatar_static,
                        locked: full.locked,
                        bot: full.bot,
                    }
                })
                .collect()
        });
        GroupedNotificationsResults {
            accounts: full,
            partial_accounts,
            statuses,
            notification_groups: out_groups,
        }
    }

    /// Renders a timeline's read position.
    pub fn render_marker(&self, m: &MarkerRecord) -> Marker {
        Marker {
            last_read_id: m.last_read_id,
            version: m.version,
            updated_at: timestamp(m.updated_at),
        }
    }

    /// Renders a poll for a viewer whose own votes are `own_votes` (option indexes). `expired`
    /// compares `expires_at` with now. While the totals are hidden (`hide_totals`, poll still
    /// open) the options' `votes_count` are `null`, except for the author; the poll's
    /// `votes_count` is always given. `voters_count` is given for multiple-choice polls only.
    /// `voted` and `own_votes` are given to signed-in viewers only; as in Mastodon, the author
    /// counts as having voted (it cannot vote, and clients then show the results).
    pub fn render_poll(
        &self,
        poll: &PollRecord,
        viewer: Option<&AccountRecord>,
        own_votes: Vec<usize>,
    ) -> Poll {
        let expired = crate::services::polls::poll_expired(poll, self.now());
        let is_author = viewer.is_some_and(|v| v.id == poll.account_id);
        let show_totals = expired || !poll.hide_totals || is_author;
        Poll {
            id: poll.id,
            expires_at: poll.expires_at.map(timestamp),
            expired,
            multiple: poll.multiple,
            votes_count: poll.votes.iter().sum(),
            voters_count: poll.multiple.then_some(poll.voters_count),
            options: poll
                .options
                .iter()
                .enumerate()
                .map(|(i, title)| PollOption {
                    title: title.clone(),
                    votes_count: show_totals.then(|| poll.votes.get(i).copied().unwrap_or(0)),
                })
                .collect(),
            emojis: vec![],
            voted: viewer.map(|_| is_author || !own_votes.is_empty()),
            own_votes: viewer.map(|_| own_votes),
        }
    }
}

impl App {
    /// A translated status as the Translation entity.
    pub fn render_translation(
        &self,
        t: &crate::services::translation::StatusTranslation,
    ) -> Translation {
        Translation {
            content: t.content.clone(),
            spoiler_text: t.spoiler_text.clone(),
            poll: t.poll.as_ref().map(|(id, options)| TranslationPoll {
                id: *id,
                options: options
                    .iter()
                    .map(|title| TranslationPollOption {
                        title: title.clone(),
                    })
                    .collect(),
            }),
            media_attachments: t
                .media_attachments
                .iter()
                .map(|(id, description)| TranslationAttachment {
                    id: *id,
                    description: description.clone(),
                })
                .collect(),
            detected_source_language: t.detected_source_language.clone(),
            language: t.language.clone(),
            provider: t.provider.clone(),
        }
    }
}

/// What keywords are matched against in a rendered status (a reblog's original): its content
/// warning, its text, its poll's options and its media's descriptions.
fn searchable_text(status: &Status) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !status.spoiler_text.is_empty() {
        parts.push(status.spoiler_text.clone());
    }
    parts.push(crate::content::html_to_plain(&status.content));
    if let Some(p) = &status.poll {
        parts.extend(p.options.iter().map(|o| o.title.clone()));
    }
    parts.extend(
        status
            .media_attachments
            .iter()
            .filter_map(|m| m.description.clone()),
    );
    parts.join("\n\n")
}

/// Whether a status matched a `hide` filter of `context`.
fn hidden_in(results: &[FilterResult], context: FilterContext) -> bool {
    results.iter().any(|r| {
        r.filter.filter_action == crate::store::FilterAction::Hide.as_str()
            && r.filter.context.iter().any(|c| c == context.as_str())
    })
}

/// Of statuses rendered for `viewer` in `context`, those to show: a status by someone else that
/// matches one of the viewer's `hide` filters of that context is left out.
pub(crate) fn without_hidden_in(
    rendered: Vec<Status>,
    viewer: Option<&AccountRecord>,
    context: FilterContext,
) -> Vec<Status> {
    let Some(v) = viewer else {
        return rendered;
    };
    rendered
        .into_iter()
        .filter(|st| {
            let proper = st.reblog.as_deref().unwrap_or(st);
            proper.account.id == v.id
                || !st
                    .filtered
                    .as_deref()
                    .is_some_and(|r| hidden_in(r, context))
        })
        .collect()
}

/// A thread's statuses as rendered, split into its ancestors (ids in `ancestors`) and its
/// descendants, each side in the order given.
pub fn render_thread(rendered: Vec<Status>, ancestors: &HashSet<Id>) -> Context {
    let (ancestors, descendants) = rendered
        .into_iter()
        .partition(|s| ancestors.contains(&s.id));
    Context {
        ancestors,
        descendants,
    }
}

/// Notification requests with their senders' accounts and their last statuses as rendered; a
/// request whose sender is gone is left out, a last status not rendered is absent.
pub(crate) fn render_notification_request_list(
    requests: &[crate::store::NotificationRequestRecord],
    accounts: &HashMap<Id, Account>,
    statuses: &HashMap<Id, Status>,
) -> Vec<NotificationRequest> {
    requests
        .iter()
        .filter_map(|r| {
            Some(NotificationRequest {
                id: r.id,
                created_at: timestamp(r.created_at),
                updated_at: timestamp(r.updated_at),
                account: accounts.get(&r.from_account_id)?.clone(),
                notifications_count: r.notifications_count.to_string(),
                last_status: r.last_status_id.and_then(|id| statuses.get(&id).cloned()),
            })
        })
        .collect()
}

/// The reports and moderation warnings that notifications name (`subject_id`), rendered for
/// their recipient, by id.
#[derive(Debug, Default)]
pub(crate) struct NotificationSubjects {
    /// Reports, for `admin.report`.
    pub reports: HashMap<Id, Report>,
    /// Warnings, for `moderation_warning`.
    pub warnings: HashMap<Id, AccountWarning>,
}

impl NotificationSubjects {
    /// The report and warning `n` shows; `None` when it names one that was not rendered (gone).
    pub(crate) fn of(
        &self,
        n: &NotificationRecord,
    ) -> Option<(Option<Report>, Option<AccountWarning>)> {
        let Some(id) = n.subject_id else {
            return Some((None, None));
        };
        match n.kind {
            NotificationType::AdminReport => Some((Some(self.reports.get(&id)?.clone()), None)),
            NotificationType::ModerationWarning => {
                Some((None, Some(self.warnings.get(&id)?.clone())))
            }
            _ => Some((None, None)),
        }
    }
}

/// Notifications with the accounts, statuses, reports and warnings they name, as rendered; one
/// whose account, status or subject was not rendered (gone meanwhile, or hidden) is left out.
pub(crate) fn render_notification_list(
    notifications: &[NotificationRecord],
    accounts: &HashMap<Id, Account>,
    statuses: &HashMap<Id, Status>,
    subjects: &NotificationSubjects,
) -> Vec<Notification> {
    notifications
        .iter()
        .filter_map(|n| {
            let status = match n.status_id {
                Some(id) => Some(statuses.get(&id)?.clone()),
                None => None,
            };
            let (report, moderation_warning) = subjects.of(n)?;
            Some(Notification {
                id: n.id,
                kind: n.kind.as_str().to_string(),
                group_key: n.group_key.clone(),
                created_at: timestamp(n.created_at),
                account: accounts.get(&n.from_account_id)?.clone(),
                status,
                report,
                moderation_warning,
            })
        })
        .collect()
}
