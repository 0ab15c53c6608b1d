//! The only place where store records become API entities.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, SecondsFormat, Utc};

use crate::app::App;
use crate::content;
use crate::entities::*;
use crate::error::ApiResult;
use crate::id::Id;
use crate::loaded::{Loaded, accounts_named, missing_ids};
use crate::services::timelines::StatusPage;
use crate::store::{
    AccountRecord, AppRecord, FilterContext, MarkerRecord, MediaKind, MediaRecord,
    NotificationRecord, PollRecord, Role as RoleRecord, StatusRecord, UserRecord,
};

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
        // An animated GIF is kept as sent beside a still PNG of its first frame (its key from
        // `still_key`), which the `*_static` URL names; other images are their own still.
        let image = |key: &Option<String>, missing: &str| match key {
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

    /// Renders a scheduled status with the media it will post.
    pub async fn render_scheduled_status(
        &self,
        s: &crate::store::ScheduledStatusRecord,
    ) -> ApiResult<ScheduledStatus> {
        let params: ScheduledParams = serde_json::from_str(&s.params).map_err(|e| {
            tracing::error!(id = %s.id, error = %e, "stored scheduled status params do not parse");
            crate::error::ApiError::internal()
        })?;
        let ids = crate::services::scheduled::scheduled_media_ids(&params);
        let media = self.media_map(&ids).await?;
        Ok(ScheduledStatus {
            id: s.id,
            scheduled_at: timestamp(s.scheduled_at),
            media_attachments: self.render_media_list(&ids, &media),
            params,
        })
    }

    /// Loads media by id in one store call.
    pub async fn media_map(&self, ids: &[Id]) -> ApiResult<HashMap<Id, MediaRecord>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(self
            .store
            .media_by_ids(ids)
            .await?
            .into_iter()
            .map(|m| (m.id, m))
            .collect())
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
        let url = (m.processed || m.kind == MediaKind::Image).then(|| url_of(&m.file_key));
        let preview_url = m
            .thumbnail_key
            .as_deref()
            .or(m.preview_key.as_deref())
            .map(url_of)
            .or_else(|| (m.kind == MediaKind::Image).then(|| url_of(&m.file_key)));
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

    /// Renders statuses for a viewer, loading their authors, mentioned accounts, apps, reblogged
    /// originals and the viewer's interactions in batches (one store call per kind per page).
    /// A reblog nests its original under `reblog`; its `favourited`, `reblogged`, `bookmarked` and
    /// `muted` say what the viewer did with the original, and it has no `pinned`. `pinned` is
    /// given to the author of a status that can be pinned (not a reblog, not direct). A reblog
    /// whose original is gone, and a status whose author is gone, are left out.
    /// `with_source` adds the source `text` (for the author's delete and source answers).
    pub async fn render_statuses(
        &self,
        statuses: &[StatusRecord],
        viewer: Option<&AccountRecord>,
        with_source: bool,
    ) -> ApiResult<Vec<Status>> {
        self.render_statuses_with(statuses, viewer, with_source, Loaded::default())
            .await
    }

    /// [`App::render_statuses`] of statuses whose read already `loaded` some originals and
    /// accounts: only what it lacks is read.
    async fn render_statuses_with(
        &self,
        statuses: &[StatusRecord],
        viewer: Option<&AccountRecord>,
        with_source: bool,
        mut loaded: Loaded,
    ) -> ApiResult<Vec<Status>> {
        let mut original_ids: Vec<Id> = statuses.iter().filter_map(|s| s.reblog_of_id).collect();
        original_ids.sort_unstable();
        original_ids.dedup();
        let missing = loaded.missing_statuses(original_ids.iter().copied());
        if !missing.is_empty() {
            loaded.add_statuses(self.store.statuses_by_ids(&missing).await?);
        }
        let Loaded {
            statuses: originals,
            mut accounts,
        } = loaded;
        // The page's statuses and each original they reblog, once.
        let all: Vec<&StatusRecord> = statuses
            .iter()
            .chain(original_ids.iter().filter_map(|o| originals.get(o)))
            .collect();
        let missing = missing_ids(all.iter().flat_map(|s| accounts_named(s)), |id| {
            accounts.contains_key(id)
        });
        if !missing.is_empty() {
            accounts.extend(
                self.store
                    .accounts_by_ids(&missing)
                    .await?
                    .into_iter()
                    .map(|a| (a.id, a)),
            );
        }
        let app_ids: Vec<Id> = all.iter().filter_map(|s| s.application_id).collect();
        let apps: HashMap<Id, AppRecord> = if app_ids.is_empty() {
            HashMap::new()
        } else {
            self.store
                .apps_by_ids(&app_ids)
                .await?
                .into_iter()
                .map(|a| (a.id, a))
                .collect()
        };
        let flags = match viewer {
            Some(v) => Some(self.viewer_flags(v, &all).await?),
            None => None,
        };
        let polls = self.page_polls(&all, viewer).await?;
        let media_ids: Vec<Id> = all
            .iter()
            .flat_map(|s| s.media_ids.iter().copied())
            .collect();
        let media = self.media_map(&media_ids).await?;
        let batch = StatusBatch {
            base: self.base_url(),
            accounts,
            apps,
            flags,
            polls,
            media,
            viewer,
            with_source,
        };
        let filters = self.active_filters(viewer).await?;
        let mut out = Vec::with_capacity(statuses.len());
        for s in statuses {
            let rendered = match s.reblog_of_id {
                None => self.render_one_status(&batch, s, s),
                Some(of) => {
                    let Some(original) = originals.get(&of) else {
                        continue;
                    };
                    let Some(inner) = self.render_one_status(&batch, original, original) else {
                        continue;
                    };
                    self.render_one_status(&batch, s, original)
                        .map(|mut outer| {
                            outer.reblog = Some(Box::new(inner));
                            outer
                        })
                }
            };
            out.extend(rendered.map(|mut st| {
                if viewer.is_some() {
                    self.mark_filtered(&filters, &mut st);
                }
                st
            }));
        }
        Ok(out)
    }

    /// [`App::render_statuses`] for a list read in `context`: statuses by others that match
    /// one of the viewer's `hide` filters of that context are left out.
    pub async fn render_statuses_in(
        &self,
        statuses: &[StatusRecord],
        viewer: Option<&AccountRecord>,
        context: FilterContext,
    ) -> ApiResult<Vec<Status>> {
        self.render_loaded_in(statuses, Loaded::default(), viewer, context)
            .await
    }

    /// [`App::render_statuses`] of a page, with what reading it loaded (nothing read twice).
    pub async fn render_page(
        &self,
        page: StatusPage,
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<Vec<Status>> {
        self.render_statuses_with(&page.statuses, viewer, false, page.loaded)
            .await
    }

    /// [`App::render_statuses_in`] of a page, with what reading it loaded (nothing read twice).
    pub async fn render_page_in(
        &self,
        page: StatusPage,
        viewer: Option<&AccountRecord>,
        context: FilterContext,
    ) -> ApiResult<Vec<Status>> {
        self.render_loaded_in(&page.statuses, page.loaded, viewer, context)
            .await
    }

    async fn render_loaded_in(
        &self,
        statuses: &[StatusRecord],
        loaded: Loaded,
        viewer: Option<&AccountRecord>,
        context: FilterContext,
    ) -> ApiResult<Vec<Status>> {
        let rendered = self
            .render_statuses_with(statuses, viewer, false, loaded)
            .await?;
        let Some(v) = viewer else {
            return Ok(rendered);
        };
        Ok(rendered
            .into_iter()
            .filter(|st| {
                let proper = st.reblog.as_deref().unwrap_or(st);
                proper.account.id == v.id
                    || !st
                        .filtered
                        .as_deref()
                        .is_some_and(|r| crate::services::filters::hidden_in(r, context))
            })
            .collect())
    }

    /// Sets `filtered` on a status rendered for a signed-in viewer (and on the original it
    /// reblogs): the filters its original matches, `[]` when none.
    fn mark_filtered(&self, filters: &crate::services::filters::ActiveFilters, st: &mut Status) {
        let results: Vec<FilterResult> = if filters.is_empty() {
            vec![]
        } else {
            let proper = st.reblog.as_deref().unwrap_or(st);
            let ids: Vec<Id> = std::iter::once(st.id)
                .chain(st.reblog.as_ref().map(|r| r.id))
                .collect();
            let text = crate::services::filters::searchable_text(proper);
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

    /// Renders one status for a viewer (see [`App::render_statuses`]); 404 when it cannot be
    /// shown (its author or, for a reblog, its original is gone).
    pub async fn render_status(
        &self,
        status: &StatusRecord,
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<Status> {
        self.render_statuses(std::slice::from_ref(status), viewer, false)
            .await?
            .pop()
            .ok_or_else(crate::error::ApiError::not_found)
    }

    /// Renders the thread around a status for a viewer, both sides in one pass.
    pub async fn render_context(
        &self,
        thread: crate::services::interactions::Thread,
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<Context> {
        let ancestors: HashSet<Id> = thread.ancestors.iter().map(|s| s.id).collect();
        let mut all = thread.ancestors;
        all.extend(thread.descendants);
        let (ancestors, descendants) = self
            .render_loaded_in(&all, thread.loaded, viewer, FilterContext::Thread)
            .await?
            .into_iter()
            .partition(|s| ancestors.contains(&s.id));
        Ok(Context {
            ancestors,
            descendants,
        })
    }

    /// The accounts of `ids` (each once; unknown ones left out), rendered, by id.
    async fn rendered_accounts(&self, ids: &[Id]) -> ApiResult<HashMap<Id, Account>> {
        let mut ids = ids.to_vec();
        ids.sort();
        ids.dedup();
        Ok(self
            .store
            .accounts_by_ids(&ids)
            .await?
            .iter()
            .map(|a| (a.id, self.render_account(a)))
            .collect())
    }

    /// Renders notification requests for their owner: each with its sender (a request whose
    /// sender is gone is left out) and its last status, if the owner may see it.
    pub async fn render_notification_requests(
        &self,
        me: &AccountRecord,
        requests: &[crate::store::NotificationRequestRecord],
    ) -> ApiResult<Vec<NotificationRequest>> {
        let senders: Vec<Id> = requests.iter().map(|r| r.from_account_id).collect();
        let accounts = self.rendered_accounts(&senders).await?;
        let last_ids: Vec<Id> = requests.iter().filter_map(|r| r.last_status_id).collect();
        let visible = self.visible_statuses(Some(me), &last_ids).await?;
        let statuses: HashMap<Id, Status> = self
            .render_statuses(&visible, Some(me), false)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        Ok(requests
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
            .collect())
    }

    /// Renders conversations for their owner: the other participants (the owner when there is
    /// none) and the last status, if the owner may still see it.
    pub async fn render_conversations(
        &self,
        me: &AccountRecord,
        conversations: &[crate::store::ConversationRecord],
    ) -> ApiResult<Vec<Conversation>> {
        let participants: Vec<Id> = conversations
            .iter()
            .flat_map(|c| c.participant_ids.iter().copied())
            .collect();
        let accounts = self.rendered_accounts(&participants).await?;
        let last_ids: Vec<Id> = conversations
            .iter()
            .filter_map(|c| c.last_status_id())
            .collect();
        let visible = self.visible_statuses(Some(me), &last_ids).await?;
        let statuses: HashMap<Id, Status> = self
            .render_statuses(&visible, Some(me), false)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        Ok(conversations
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
            .collect())
    }

    /// What `viewer` did with the statuses of a page, read in one batch per kind.
    async fn viewer_flags(
        &self,
        viewer: &AccountRecord,
        statuses: &[&StatusRecord],
    ) -> ApiResult<ViewerFlags> {
        let mut ids: Vec<Id> = statuses.iter().map(|s| s.id).collect();
        ids.sort();
        ids.dedup();
        let mut own: Vec<Id> = statuses
            .iter()
            .filter(|s| s.account_id == viewer.id && s.reblog_of_id.is_none())
            .map(|s| s.id)
            .collect();
        own.sort();
        own.dedup();
        let mut conversations: Vec<Id> = statuses.iter().map(|s| conversation_of(s)).collect();
        conversations.sort();
        conversations.dedup();
        let set = |v: Vec<Id>| v.into_iter().collect::<HashSet<Id>>();
        let done = self
            .store
            .interactions_among(viewer.id, &ids, &own, &conversations)
            .await?;
        Ok(ViewerFlags {
            favourited: set(done.favourited),
            reblogged: set(done.reblogged),
            bookmarked: set(done.bookmarked),
            pinned: set(done.pinned),
            muted: set(done.muted_conversations),
        })
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
        let url = format!("{}/@{}/{}", base, author.username, s.id);
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
            emojis: vec![],
            reblogs_count: s.reblogs_count,
            favourites_count: s.favourites_count,
            replies_count: s.replies_count,
            quotes_count: 0,
            in_reply_to_id: s.in_reply_to_id,
            in_reply_to_account_id: s.in_reply_to_account_id,
            reblog: None,
            poll: batch.polls.get(&s.id).cloned(),
            card: None,
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
        })
    }
}

/// What the viewer did with the statuses of one rendered page.
struct ViewerFlags {
    favourited: HashSet<Id>,
    reblogged: HashSet<Id>,
    bookmarked: HashSet<Id>,
    pinned: HashSet<Id>,
    /// Muted threads (conversation ids).
    muted: HashSet<Id>,
}

/// What rendering one page of statuses loads once.
struct StatusBatch<'a> {
    base: String,
    accounts: HashMap<Id, AccountRecord>,
    apps: HashMap<Id, AppRecord>,
    /// `None` for an anonymous viewer.
    flags: Option<ViewerFlags>,
    /// The polls of the page's statuses, rendered for the viewer, by status id.
    polls: HashMap<Id, Poll>,
    /// The media of the page's statuses.
    media: HashMap<Id, MediaRecord>,
    viewer: Option<&'a AccountRecord>,
    with_source: bool,
}

/// The thread a status belongs to (its own id when it has no recorded thread).
pub fn conversation_of(s: &StatusRecord) -> Id {
    s.conversation_id.unwrap_or(s.id)
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

impl App {
    /// Renders the edit history of a status by `author`: every stored revision oldest first, or,
    /// for a status never edited, one entry made of its current version (dated `edited_at`, else
    /// `created_at`). Media show their current descriptions.
    pub async fn render_status_edits(
        &self,
        status: &StatusRecord,
        author: &AccountRecord,
        revisions: &[crate::store::StatusEditRecord],
    ) -> ApiResult<Vec<StatusEdit>> {
        let account = self.render_account(author);
        let current_poll = if revisions.is_empty() {
            self.store
                .polls_by_status_ids(&[status.id])
                .await?
                .pop()
                .map(|p| p.options)
        } else {
            None
        };
        let current = crate::store::StatusEditRecord {
            id: status.id,
            status_id: status.id,
            account_id: status.account_id,
            text: status.text.clone(),
            content: status.content.clone(),
            spoiler_text: status.spoiler_text.clone(),
            sensitive: status.sensitive,
            media_ids: status.media_ids.clone(),
            poll_options: current_poll,
            created_at: status.edited_at.unwrap_or(status.created_at),
        };
        let revisions = if revisions.is_empty() {
            std::slice::from_ref(&current)
        } else {
            revisions
        };
        let ids: Vec<Id> = revisions
            .iter()
            .flat_map(|r| r.media_ids.iter().copied())
            .collect();
        let media = self.media_map(&ids).await?;
        Ok(revisions
            .iter()
            .map(|r| StatusEdit {
                content: r.content.clone(),
                spoiler_text: r.spoiler_text.clone(),
                sensitive: r.sensitive,
                created_at: timestamp(r.created_at),
                account: account.clone(),
                media_attachments: self.render_media_list(&r.media_ids, &media),
                emojis: vec![],
                poll: r.poll_options.as_ref().map(|o| StatusEditPoll {
                    options: o
                        .iter()
                        .map(|t| StatusEditPollOption { title: t.clone() })
                        .collect(),
                }),
            })
            .collect())
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
    /// The polls of a page of statuses, rendered for the viewer, by status id: one store call
    /// for the polls, and for a signed-in viewer one for its own votes in them.
    async fn page_polls(
        &self,
        statuses: &[&StatusRecord],
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<HashMap<Id, Poll>> {
        let mut ids: Vec<Id> = statuses
            .iter()
            .filter(|s| s.reblog_of_id.is_none())
            .map(|s| s.id)
            .collect();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        ids.sort();
        ids.dedup();
        let polls = self.store.polls_by_status_ids(&ids).await?;
        let others: Vec<Id> = polls
            .iter()
            .filter(|p| viewer.is_some_and(|v| v.id != p.account_id))
            .map(|p| p.id)
            .collect();
        let mut own: HashMap<Id, Vec<usize>> = match viewer {
            Some(v) if !others.is_empty() => self
                .store
                .poll_votes_among(&others, v.id)
                .await?
                .into_iter()
                .collect(),
            _ => HashMap::new(),
        };
        Ok(polls
            .iter()
            .map(|poll| {
                let votes = own.remove(&poll.id).unwrap_or_default();
                (poll.status_id, self.render_poll(poll, viewer, votes))
            })
            .collect())
    }

    /// Renders notifications for their owner, loading the accounts and statuses concerned in
    /// batches. One whose account or status cannot be rendered (gone meanwhile) is left out.
    pub async fn render_notifications(
        &self,
        me: &AccountRecord,
        notifications: &[NotificationRecord],
    ) -> ApiResult<Vec<Notification>> {
        let senders: Vec<Id> = notifications.iter().map(|n| n.from_account_id).collect();
        let accounts = self.rendered_accounts(&senders).await?;
        let mut status_ids: Vec<Id> = notifications.iter().filter_map(|n| n.status_id).collect();
        status_ids.sort();
        status_ids.dedup();
        let records = self.store.statuses_by_ids(&status_ids).await?;
        let statuses: HashMap<Id, Status> = self
            .render_statuses_in(&records, Some(me), FilterContext::Notifications)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        Ok(notifications
            .iter()
            .filter_map(|n| {
                let status = match n.status_id {
                    Some(id) => Some(statuses.get(&id)?.clone()),
                    None => None,
                };
                Some(Notification {
                    id: n.id,
                    kind: n.kind.as_str().to_string(),
                    group_key: n.group_key.clone(),
                    created_at: timestamp(n.created_at),
                    account: accounts.get(&n.from_account_id)?.clone(),
                    status,
                })
            })
            .collect())
    }

    /// Renders a page of notification groups for their owner: each group with its sample
    /// accounts and status, the accounts (in full; with `partial`, only each group's most recent
    /// account in full and the others as `partial_accounts`) and the statuses, each once. A group
    /// whose status cannot be rendered (gone meanwhile) is left out.
    pub async fn render_notification_groups(
        &self,
        me: &AccountRecord,
        groups: &[crate::services::notification_groups::NotificationGroup],
        partial: bool,
    ) -> ApiResult<GroupedNotificationsResults> {
        let mut status_ids: Vec<Id> = groups
            .iter()
            .filter_map(|g| g.most_recent().status_id)
            .collect();
        status_ids.sort();
        status_ids.dedup();
        let records = self.store.statuses_by_ids(&status_ids).await?;
        let statuses = self
            .render_statuses_in(&records, Some(me), FilterContext::Notifications)
            .await?;
        let shown: HashSet<Id> = statuses.iter().map(|s| s.id).collect();
        let groups: Vec<_> = groups
            .iter()
            .filter(|g| g.most_recent().status_id.is_none_or(|s| shown.contains(&s)))
            .collect();
        let mut full_ids: Vec<Id> = Vec::new();
        let mut partial_ids: Vec<Id> = Vec::new();
        let mut out_groups = Vec::with_capacity(groups.len());
        for g in &groups {
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
            });
        }
        full_ids.sort();
        full_ids.dedup();
        partial_ids.sort();
        partial_ids.dedup();
        partial_ids.retain(|a| full_ids.binary_search(a).is_err());
        let mut wanted = full_ids.clone();
        wanted.extend(&partial_ids);
        let records: HashMap<Id, AccountRecord> = self
            .store
            .accounts_by_ids(&wanted)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        let accounts = full_ids
            .iter()
            .filter_map(|id| records.get(id))
            .map(|a| self.render_account(a))
            .collect();
        let partial_accounts = partial.then(|| {
            partial_ids
                .iter()
                .filter_map(|id| records.get(id))
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
        Ok(GroupedNotificationsResults {
            accounts,
            partial_accounts,
            statuses,
            notification_groups: out_groups,
        })
    }

    /// Renders a timeline's read position.
    pub fn render_marker(&self, m: &MarkerRecord) -> Marker {
        Marker {
            last_read_id: m.last_read_id,
            version: m.version,
            updated_at: timestamp(m.updated_at),
        }
    }

    /// Renders a poll for a viewer, reading the viewer's own votes.
    pub async fn render_poll_for(
        &self,
        poll: &PollRecord,
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<Poll> {
        let own_votes = match viewer {
            Some(v) if v.id != poll.account_id => self.store.poll_votes_of(poll.id, v.id).await?,
            _ => vec![],
        };
        Ok(self.render_poll(poll, viewer, own_votes))
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
