//! Presenting: what rendering needs besides the records a service returns (a page's originals
//! and accounts, the viewer's interactions, polls and votes, media, apps, filters), loaded in one
//! store call per kind and handed to `render.rs`, which reads no store.

use std::collections::{HashMap, HashSet};

use crate::app::App;
use crate::content;
use crate::entities::*;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::loaded::{Loaded, accounts_named, missing_ids, unique_ids};
use crate::render::{self, StatusBatch, ViewerFlags};
use crate::services::timelines::StatusPage;
use crate::store::conversation_of;
use crate::store::{
    AccountRecord, AppRecord, CustomEmojiRecord, FilterContext, MediaRecord, NotificationRecord,
    NotificationType, PollRecord, StatusRecord,
};

impl App {
    /// An account as the client API shows it on its own (`GET /api/v1/accounts/:id`,
    /// `lookup`): with the account it moved to, if it has.
    pub async fn render_account_alone(&self, a: &AccountRecord) -> ApiResult<Account> {
        let mut rendered = self.render_account(a);
        if let Some(to) = a.moved_to_account_id
            && let Some(target) = self.store.account_by_id(to).await?
            && !target.is_suspended()
        {
            rendered.moved = Some(Box::new(self.render_account(&target)));
        }
        Ok(rendered)
    }

    /// How `me` stands to `other`, as the API shows it.
    pub async fn relationship(&self, me: &AccountRecord, other: Id) -> ApiResult<Relationship> {
        let standing = self.relationships().standing(me, other).await?;
        Ok(crate::render::render_relationship(standing))
    }

    /// Renders a scheduled status with the media it will post.
    pub async fn render_scheduled_status(
        &self,
        s: &crate::store::ScheduledStatusRecord,
    ) -> ApiResult<ScheduledStatus> {
        let params: ScheduledParams = serde_json::from_str(&s.params).map_err(|e| {
            tracing::error!(id = %s.id, error = %e, "stored scheduled status params do not parse");
            ApiError::internal()
        })?;
        let ids = crate::services::scheduled::scheduled_media_ids(&params);
        let media = self.media_map(&ids).await?;
        Ok(self.render_scheduled_status_with(s, params, &ids, &media))
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
        loaded: Loaded,
    ) -> ApiResult<Vec<Status>> {
        let batch = self
            .load_batch(statuses, viewer, with_source, loaded, false)
            .await?;
        let mut rendered = self.render_batch(statuses, &batch);
        crate::quote_presenting::attach(self, &mut rendered, statuses, &batch.originals, viewer)
            .await?;
        Ok(rendered)
    }

    /// Everything rendering `statuses` for `viewer` needs, each kind read once: what `loaded`
    /// lacks of the originals and accounts, then the apps, the viewer's interactions (none to
    /// read when the statuses are `untouched`: new, and neither reblogs nor replies, so that
    /// nobody could have favourited, bookmarked, reblogged, pinned or muted them yet), the polls
    /// (with the viewer's votes), the media and the viewer's filters.
    async fn load_batch<'v>(
        &self,
        statuses: &[StatusRecord],
        viewer: Option<&'v AccountRecord>,
        with_source: bool,
        mut loaded: Loaded,
        untouched: bool,
    ) -> ApiResult<StatusBatch<'v>> {
        let original_ids = unique_ids(statuses.iter().filter_map(|s| s.reblog_of_id));
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
            Some(_) if untouched => Some(ViewerFlags::default()),
            Some(v) => Some(self.viewer_flags(v, &all).await?),
            None => None,
        };
        let polls = self.page_polls(&all, viewer).await?;
        let media_ids: Vec<Id> = all
            .iter()
            .flat_map(|s| s.media_ids.iter().copied())
            .collect();
        let media = self.media_map(&media_ids).await?;
        let filters = self.filters().active_filters(viewer).await?;
        let emojis = self.page_emojis(&all, &accounts, &polls).await?;
        let card_ids: Vec<Id> = all.iter().map(|s| s.id).collect();
        let cards = self.cards().cards_of(&card_ids).await?;
        Ok(StatusBatch {
            base: self.base_url(),
            originals,
            accounts,
            apps,
            flags,
            polls,
            media,
            filters,
            viewer,
            with_source,
            emojis,
            cards,
        })
    }

    /// The custom emojis `statuses` name (see [`render::emoji_texts`]), read at once; no read
    /// when none names any.
    async fn page_emojis(
        &self,
        statuses: &[&StatusRecord],
        accounts: &HashMap<Id, AccountRecord>,
        polls: &HashMap<Id, Poll>,
    ) -> ApiResult<HashMap<(String, Option<String>), CustomEmojiRecord>> {
        let mut keys: Vec<(String, Option<String>)> = vec![];
        for s in statuses {
            let Some(author) = accounts.get(&s.account_id) else {
                continue;
            };
            let domain = author.domain.as_ref().map(|d| d.to_ascii_lowercase());
            for text in render::emoji_texts(s, polls.get(&s.id)) {
                for code in content::emoji_shortcodes(text) {
                    let key = (code, domain.clone());
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
            }
        }
        if keys.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(self
            .store
            .custom_emojis_by_keys(&keys)
            .await?
            .into_iter()
            .map(|e| ((e.shortcode.clone(), e.domain.clone()), e))
            .collect())
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
        Ok(crate::render::without_hidden_in(rendered, viewer, context))
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
            .ok_or_else(ApiError::not_found)
    }

    /// The status `id` as `viewer` may see it, read and rendered with each kind of record read
    /// once (the visibility rule's reads serve render); 404 when it does not exist or the viewer
    /// may not see it or, for a reblog, its original.
    pub async fn render_visible_status(
        &self,
        id: Id,
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<Status> {
        let (visible, loaded) = self
            .visibility()
            .visible_statuses_loading(viewer, &[id])
            .await?;
        self.render_statuses_with(&visible, viewer, false, loaded)
            .await?
            .pop()
            .ok_or_else(ApiError::not_found)
    }

    /// `status` as JSON text for a streaming listener `viewer` in `context`, by the read path of
    /// the timelines: `None` when the viewer may not see it (visibility, blocks either way,
    /// mutes, domain blocks) or a `hide` filter of the context hides it. `new`: it was just
    /// posted (not edited).
    pub async fn render_streamed_status(
        &self,
        status: &StatusRecord,
        viewer: Option<&AccountRecord>,
        context: FilterContext,
        new: bool,
    ) -> ApiResult<Option<String>> {
        let rule = self.visibility();
        let (shown, mut loaded) = rule.visible_unhidden_statuses(viewer, &[status.id]).await?;
        let shown = rule
            .without_blocked_domains(viewer, shown, &mut loaded)
            .await?;
        if shown.is_empty() {
            return Ok(None);
        }
        // A status just posted, not a reblog nor a reply (which joins a thread one may have
        // muted): nobody has acted on it yet, so there are no interactions to read.
        let untouched = new && status.reblog_of_id.is_none() && status.in_reply_to_id.is_none();
        let batch = self
            .load_batch(&shown, viewer, false, loaded, untouched)
            .await?;
        let mut all = self.render_batch(&shown, &batch);
        crate::quote_presenting::attach(self, &mut all, &shown, &batch.originals, viewer).await?;
        let rendered = crate::render::without_hidden_in(all, viewer, context);
        json_text(rendered.first())
    }

    /// The notification `id` as JSON text for `me`'s streams; `None` when it is not `me`'s or
    /// `me` may not see it (its sender or status hidden since).
    pub async fn render_streamed_notification(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<Option<String>> {
        let n = match self.notifications().notification(me, id).await {
            Ok(n) => n,
            Err(e) if e.status == http::StatusCode::NOT_FOUND => return Ok(None),
            Err(e) => return Err(e),
        };
        let rendered = self.render_notifications(me, &[n]).await?;
        json_text(rendered.first())
    }

    /// `me`'s conversation `id` as JSON text for the `direct` stream; `None` when gone.
    pub async fn render_streamed_conversation(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<Option<String>> {
        let conversation = match self.conversations().own(me, id).await {
            Ok(c) => c,
            Err(e) if e.status == http::StatusCode::NOT_FOUND => return Ok(None),
            Err(e) => return Err(e),
        };
        let rendered = self.render_conversations(me, &[conversation]).await?;
        json_text(rendered.first())
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
        let rendered = self
            .render_loaded_in(&all, thread.loaded, viewer, FilterContext::Thread)
            .await?;
        Ok(crate::render::render_thread(rendered, &ancestors))
    }

    /// The accounts of `ids` (each once; unknown ones left out), rendered, by id.
    async fn rendered_accounts(&self, ids: &[Id]) -> ApiResult<HashMap<Id, Account>> {
        let ids = unique_ids(ids.iter().copied());
        Ok(self
            .store
            .accounts_by_ids(&ids)
            .await?
            .iter()
            .map(|a| (a.id, self.render_account(a)))
            .collect())
    }

    /// The statuses of `ids` that `me` may see, rendered for `me`, by id (the last statuses of
    /// notification requests and conversations).
    async fn rendered_visible(
        &self,
        me: &AccountRecord,
        ids: &[Id],
    ) -> ApiResult<HashMap<Id, Status>> {
        let (visible, loaded) = self
            .visibility()
            .visible_statuses_loading(Some(me), ids)
            .await?;
        Ok(self
            .render_statuses_with(&visible, Some(me), false, loaded)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect())
    }

    /// Statuses among trends as the staff member `staff` sees them, each with whether it awaits
    /// review (`/api/v1/admin/trends/statuses`), in the order given; a status whose author is
    /// gone is left out.
    pub async fn render_admin_trend_statuses(
        &self,
        views: &[crate::services::trends::TrendStatusView],
        staff: &AccountRecord,
    ) -> ApiResult<Vec<AdminTrendStatus>> {
        let statuses: Vec<StatusRecord> = views.iter().map(|v| v.status.clone()).collect();
        let pending: HashMap<Id, bool> = views
            .iter()
            .map(|v| (v.status.id, v.requires_review))
            .collect();
        Ok(self
            .render_statuses(&statuses, Some(staff), false)
            .await?
            .into_iter()
            .map(|status| AdminTrendStatus {
                requires_review: pending.get(&status.id).copied().unwrap_or(true),
                status,
            })
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
        let statuses = self.rendered_visible(me, &last_ids).await?;
        Ok(crate::render::render_notification_request_list(
            requests, &accounts, &statuses,
        ))
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
        let statuses = self.rendered_visible(me, &last_ids).await?;
        Ok(self.render_conversation_list(me, conversations, &accounts, &statuses))
    }

    /// What `viewer` did with the statuses of a page, read in one batch per kind.
    async fn viewer_flags(
        &self,
        viewer: &AccountRecord,
        statuses: &[&StatusRecord],
    ) -> ApiResult<ViewerFlags> {
        let ids = unique_ids(statuses.iter().map(|s| s.id));
        let own = unique_ids(
            statuses
                .iter()
                .filter(|s| s.account_id == viewer.id && s.reblog_of_id.is_none())
                .map(|s| s.id),
        );
        let conversations = unique_ids(statuses.iter().map(|s| conversation_of(s)));
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

    /// Renders the edit history of a status by `author`: every stored revision oldest first, or,
    /// for a status never edited, one entry made of its current version (dated `edited_at`, else
    /// `created_at`). Media show their current descriptions.
    pub async fn render_status_edits(
        &self,
        status: &StatusRecord,
        author: &AccountRecord,
        revisions: &[crate::store::StatusEditRecord],
    ) -> ApiResult<Vec<StatusEdit>> {
        let current_poll = if revisions.is_empty() {
            self.store
                .polls_by_status_ids(&[status.id])
                .await?
                .pop()
                .map(|p| p.options)
        } else {
            None
        };
        let current = crate::services::edits::revision(
            status.id,
            status,
            current_poll,
            status.edited_at.unwrap_or(status.created_at),
        );
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
        Ok(self.render_status_edit_list(author, revisions, &media))
    }

    /// The polls of a page of statuses, rendered for the viewer, by status id: one store call
    /// for the polls, and for a signed-in viewer one for its own votes in them.
    async fn page_polls(
        &self,
        statuses: &[&StatusRecord],
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<HashMap<Id, Poll>> {
        let ids = unique_ids(
            statuses
                .iter()
                .filter(|s| s.reblog_of_id.is_none())
                .map(|s| s.id),
        );
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
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
        let status_ids = unique_ids(notifications.iter().filter_map(|n| n.status_id));
        let records = self.store.statuses_by_ids(&status_ids).await?;
        let statuses: HashMap<Id, Status> = self
            .render_statuses_in(&records, Some(me), FilterContext::Notifications)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        let subjects = self.notification_subjects(notifications.iter()).await?;
        Ok(crate::render::render_notification_list(
            notifications,
            &accounts,
            &statuses,
            &subjects,
        ))
    }

    /// The reports (`admin.report`) and moderation warnings (`moderation_warning`) that
    /// `notifications` name, rendered, with the accounts they concern read in one call. Each is
    /// read by id: they are few (one per report filed or warning given), and a store that keeps
    /// no moderation data has none.
    async fn notification_subjects(
        &self,
        notifications: impl Iterator<Item = &NotificationRecord>,
    ) -> ApiResult<render::NotificationSubjects> {
        let mut out = render::NotificationSubjects::default();
        let Some(store) = self.store.moderation() else {
            return Ok(out);
        };
        let mut reports = Vec::new();
        let mut warnings = Vec::new();
        let mut seen = HashSet::new();
        for n in notifications {
            let Some(id) = n.subject_id.filter(|id| seen.insert(*id)) else {
                continue;
            };
            match n.kind {
                NotificationType::AdminReport => reports.extend(store.report_by_id(id).await?),
                NotificationType::ModerationWarning => {
                    warnings.extend(store.account_warning_by_id(id).await?)
                }
                _ => {}
            }
        }
        if reports.is_empty() && warnings.is_empty() {
            return Ok(out);
        }
        let targets = unique_ids(
            reports
                .iter()
                .map(|r| r.target_account_id)
                .chain(warnings.iter().map(|w| w.target_account_id)),
        );
        let targets: HashMap<Id, AccountRecord> = self
            .store
            .accounts_by_ids(&targets)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        for report in reports {
            if let Some(target) = targets.get(&report.target_account_id) {
                let filed = crate::services::reports::FiledReport {
                    target: target.clone(),
                    report,
                };
                out.reports
                    .insert(filed.report.id, self.render_report(&filed));
            }
        }
        for warning in warnings {
            if let Some(target) = targets.get(&warning.target_account_id) {
                out.warnings
                    .insert(warning.id, self.render_account_warning(&warning, target));
            }
        }
        Ok(out)
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
        let status_ids = unique_ids(groups.iter().filter_map(|g| g.most_recent().status_id));
        let records = self.store.statuses_by_ids(&status_ids).await?;
        let statuses = self
            .render_statuses_in(&records, Some(me), FilterContext::Notifications)
            .await?;
        let shown: HashSet<Id> = statuses.iter().map(|s| s.id).collect();
        let groups: Vec<_> = groups
            .iter()
            .filter(|g| g.most_recent().status_id.is_none_or(|s| shown.contains(&s)))
            .collect();
        let samples = unique_ids(groups.iter().flat_map(|g| g.sample_account_ids()));
        let accounts: HashMap<Id, AccountRecord> = self
            .store
            .accounts_by_ids(&samples)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        let subjects = self
            .notification_subjects(groups.iter().map(|g| g.most_recent()))
            .await?;
        Ok(self.render_notification_group_page(&groups, partial, statuses, &accounts, &subjects))
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
        let mut rendered = self.render_poll(poll, viewer, own_votes);
        // A local poll shows this server's emojis its options name (a remote one's are its
        // server's, shown with its status).
        let local = match viewer {
            Some(v) if v.id == poll.account_id => v.is_local(),
            _ => self
                .store
                .account_by_id(poll.account_id)
                .await?
                .is_some_and(|a| a.is_local()),
        };
        if local {
            rendered.emojis = self.local_poll_emojis(poll);
        }
        Ok(rendered)
    }
}

/// A rendered entity as the JSON text a stream carries.
fn json_text<T: serde::Serialize>(entity: Option<&T>) -> ApiResult<Option<String>> {
    entity
        .map(serde_json::to_string)
        .transpose()
        .map_err(|_| ApiError::internal())
}
