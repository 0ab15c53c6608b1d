//! Notifications: made when others act (mentions, posts of accounts followed with `notify`,
//! reblogs, favourites, follows and follow requests, edits of reblogged posts, ended polls,
//! quotes of one's posts and edits of posts one quoted),
//! taken back when the act is undone, and read with visibility, blocks, mutes and domain blocks
//! applied. Only their owner sees, dismisses or clears them.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::events::EventBus;
use crate::id::Id;
use crate::id::IdGenerator;
use crate::pagination::Page;
use crate::services::conversations::Conversations;
use crate::services::jobs::new_job;
use crate::services::notification_policies::NotificationPolicies;
use crate::services::timelines::{MAX_READS, PageFill};
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountOrigin, AccountRecord, AccountStore, AdminAccountFilter, BlockStore, DomainBlockStore,
    FollowStore, InteractionStore, JobStore, NotificationPolicyStore, NotificationQuery,
    NotificationRecord, NotificationStore, NotificationType, PolicyAction, PollRecord, PollStore,
    Role, StatusRecord, StatusStore, Store, Visibility,
};

/// Staff accounts read at once when telling them of a report or a sign-up.
const STAFF_PER_READ: usize = 200;

/// Notifies a poll's author and its local voters that it ended; payload `{"poll_id": "<id>"}`.
pub const CLOSE_POLL: &str = "close_poll";

/// Notifications of these types are grouped (others are alone in `ungrouped-<id>`).
const GROUPED_TYPES: [NotificationType; 4] = [
    NotificationType::Favourite,
    NotificationType::Reblog,
    NotificationType::Follow,
    NotificationType::AdminSignUp,
];

/// The time a group gathers notifications over (Mastodon groups over at most 12 hours).
const GROUP_SPAN_SECONDS: i64 = 12 * 3600;

/// Rebloggers read at once when an edit is told of.
const REBLOGGERS_PER_READ: usize = 1000;

/// Quotes (and quoting statuses) read at once when an edit is told of.
const QUOTES_PER_READ: usize = 200;

/// The key grouping a notification with similar ones: favourites and reblogs of one status, and
/// follows (and sign-ups), each within the same 12-hour window; `ungrouped-<id>` for the rest.
pub fn group_key(kind: NotificationType, status: Option<Id>, id: Id, at: DateTime<Utc>) -> String {
    if !GROUPED_TYPES.contains(&kind) {
        return format!("ungrouped-{id}");
    }
    let window = at.timestamp().div_euclid(GROUP_SPAN_SECONDS);
    match status {
        Some(s) => format!("{}-{s}-{window}", kind.as_str()),
        None => format!("{}-{window}", kind.as_str()),
    }
}

/// A page of notifications after read-time filtering, with the cursors of what was read.
pub struct NotificationPage {
    /// The notifications to show, newest first.
    pub notifications: Vec<NotificationRecord>,
    /// The newest id read.
    pub first: Option<Id>,
    /// The oldest id read.
    pub last: Option<Id>,
}

/// The notifications area: making notifications by the rules of who is told, taking them back,
/// reading them with blocks, mutes and visibility applied, and closing polls.
pub struct Notifications<'a> {
    accounts: &'a dyn AccountStore,
    blocks: &'a dyn BlockStore,
    domain_blocks: &'a dyn DomainBlockStore,
    follows: &'a dyn FollowStore,
    interactions: &'a dyn InteractionStore,
    jobs: &'a dyn JobStore,
    policy_store: &'a dyn NotificationPolicyStore,
    notifications: &'a dyn NotificationStore,
    polls: &'a dyn PollStore,
    statuses: &'a dyn StatusStore,
    ids: &'a IdGenerator,
    events: &'a dyn EventBus,
    visibility: VisibilityRule<'a>,
    policies: NotificationPolicies<'a>,
    conversations: Conversations<'a>,
    pushes: crate::services::web_push::PushQueue<'a>,
    /// Whether notification e-mails are queued (the mailer reaches mailboxes).
    mails: bool,
    now: DateTime<Utc>,
}

impl<'a> Notifications<'a> {
    /// The area over `store`, making ids with `ids`, publishing on `events`, deciding through
    /// `visibility` and `policies`, adding direct messages to `conversations`, queueing pushes
    /// on `pushes` and (when `mails`) notification e-mails, at `now`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: &'a dyn Store,
        ids: &'a IdGenerator,
        events: &'a dyn EventBus,
        visibility: VisibilityRule<'a>,
        policies: NotificationPolicies<'a>,
        conversations: Conversations<'a>,
        pushes: crate::services::web_push::PushQueue<'a>,
        mails: bool,
        now: DateTime<Utc>,
    ) -> Self {
        Notifications {
            accounts: store,
            blocks: store,
            domain_blocks: store,
            follows: store,
            interactions: store,
            jobs: store,
            policy_store: store,
            notifications: store,
            polls: store,
            statuses: store,
            ids,
            events,
            visibility,
            policies,
            conversations,
            pushes,
            mails,
            now,
        }
    }
    /// Notifies `recipients` that `from` did `kind` (about `status`). Left out: accounts that are
    /// not local or are suspended, `from` itself (except for its own ended poll), and recipients
    /// that block `from` or are blocked by it, mute its notifications, block its domain, or
    /// muted the thread of `status`.
    pub(crate) async fn notify(
        &self,
        recipients: &[Id],
        from: &AccountRecord,
        kind: NotificationType,
        status: Option<&StatusRecord>,
    ) -> ApiResult<Vec<NotificationRecord>> {
        self.notify_of(recipients, from, kind, status, None).await
    }

    /// Notifies `recipients` as [`Self::notify`] does, about `subject` too: the report of an
    /// `admin.report`, the warning of a `moderation_warning` (which comes from its recipient,
    /// as Mastodon records it: a warning has no other account behind it).
    pub(crate) async fn notify_of(
        &self,
        recipients: &[Id],
        from: &AccountRecord,
        kind: NotificationType,
        status: Option<&StatusRecord>,
        subject: Option<Id>,
    ) -> ApiResult<Vec<NotificationRecord>> {
        let mut ids: Vec<Id> = recipients
            .iter()
            .copied()
            .filter(|r| {
                *r != from.id
                    || matches!(
                        kind,
                        NotificationType::Poll | NotificationType::ModerationWarning
                    )
            })
            .collect();
        ids.sort();
        ids.dedup();
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let blocked: HashSet<Id> = self
            .blocks
            .blocked_either_way(from.id, &ids)
            .await?
            .into_iter()
            .collect();
        let now = self.now;
        let mut out = Vec::new();
        for r in self.accounts.accounts_by_ids(&ids).await? {
            if !r.is_local() || r.suspended_at.is_some() || blocked.contains(&r.id) {
                continue;
            }
            if r.id != from.id && self.mutes_notifications_of(&r, from, now).await? {
                continue;
            }
            if let Some(s) = status {
                let thread = crate::store::conversation_of(s);
                if !self
                    .interactions
                    .muted_conversations_among(r.id, &[thread])
                    .await?
                    .is_empty()
                {
                    continue;
                }
            }
            let filtered = match self.policies.policy_verdict(&r, from, kind, status).await? {
                PolicyAction::Drop => continue,
                PolicyAction::Filter => true,
                PolicyAction::Accept => false,
            };
            let id = self.ids.next_at(now.timestamp_millis());
            let status_id = status.map(|s| s.id);
            out.push(NotificationRecord {
                id,
                account_id: r.id,
                from_account_id: from.id,
                kind,
                status_id,
                subject_id: subject,
                group_key: group_key(kind, status_id, id, now),
                filtered,
                created_at: now,
            });
        }
        if !out.is_empty() {
            self.notifications.insert_notifications(&out).await?;
        }
        // Filtered mentions wait in a request per sender (Mastodon makes requests of mentions
        // only; other filtered notifications show with `include_filtered`).
        for n in out
            .iter()
            .filter(|n| n.filtered && n.kind == NotificationType::Mention)
        {
            self.policy_store
                .note_notification_request(self.ids.next(), n.account_id, from.id, n.status_id, now)
                .await?;
        }
        self.publish_notifications(&out).await;
        // E-mail, for the accepted ones their recipients want by mail (queued, never failing).
        if self.mails {
            crate::mail::MailQueue::new(self.jobs, None, self.ids, self.now)
                .notifications(self.accounts, &out)
                .await;
        }
        self.pushes.queue(&out, from).await;
        Ok(out)
    }

    /// Tells every local account whose role is among `staff` that `from` did `kind` (about
    /// `subject`): `admin.report` and `admin.sign_up`. The endpoint works out `staff` from the
    /// role permissions (this area does not know them); a store without moderation data lists
    /// no staff.
    pub(crate) async fn notify_staff(
        &self,
        staff: &[Role],
        from: &AccountRecord,
        kind: NotificationType,
        subject: Option<Id>,
    ) -> ApiResult<()> {
        let Some(store) = self.accounts.moderation() else {
            return Ok(());
        };
        if staff.is_empty() {
            return Ok(());
        }
        let filter = AdminAccountFilter {
            origin: Some(AccountOrigin::Local),
            roles: staff.iter().map(|r| r.as_str().to_string()).collect(),
            ..AdminAccountFilter::default()
        };
        let mut recipients = Vec::new();
        let mut page = Page::first(STAFF_PER_READ);
        loop {
            let ids = store.admin_account_ids(&filter, page).await?;
            let Some(oldest) = ids.last().copied() else {
                break;
            };
            let full = ids.len() == STAFF_PER_READ;
            recipients.extend(ids);
            if !full {
                break;
            }
            page.max_id = Some(oldest);
        }
        self.notify_of(&recipients, from, kind, None, subject)
            .await?;
        Ok(())
    }

    /// Tells staff (the local accounts whose role is among `staff`: those who manage users)
    /// that `account` joined, once it may sign in: confirmed and approved (`admin.sign_up`, as
    /// Mastodon tells them when a new user is set up).
    pub async fn signed_up(&self, account: &AccountRecord, staff: &[Role]) -> ApiResult<()> {
        self.notify_staff(staff, account, NotificationType::AdminSignUp, None)
            .await
    }

    /// Publishes what this area did (see [`crate::App::publish`]).
    async fn publish(&self, event: crate::events::DomainEvent) {
        crate::events::publish_logged(self.events, event).await;
    }

    /// Tells streaming of new notifications, those their policy did not filter.
    pub(crate) async fn publish_notifications(&self, notifications: &[NotificationRecord]) {
        for n in notifications.iter().filter(|n| !n.filtered) {
            self.publish(crate::events::DomainEvent::Notification {
                notification: n.id,
                account: n.account_id,
            })
            .await;
        }
    }

    /// Tells of a new status: its mentioned accounts (`mention`), and the followers of its author
    /// who asked to be notified of the author's posts (`status`; not for a direct status, nor for
    /// a reply to someone else, and not again for those mentioned).
    pub(crate) async fn notify_new_status(
        &self,
        author: &AccountRecord,
        status: &StatusRecord,
    ) -> ApiResult<()> {
        let told = self
            .notify(
                &status.mentions,
                author,
                NotificationType::Mention,
                Some(status),
            )
            .await?;
        if status.visibility == Visibility::Direct {
            // The mentioned accounts told of it (those not filtered) get it in their
            // conversations, as Mastodon pushes a direct message with its notification.
            let recipients: Vec<Id> = told
                .iter()
                .filter(|n| !n.filtered)
                .map(|n| n.account_id)
                .collect();
            self.conversations.add(status, &recipients).await?;
        }
        let own_thread = status.in_reply_to_account_id.is_none_or(|a| a == author.id);
        if status.visibility == Visibility::Direct || !own_thread {
            return Ok(());
        }
        let subscribers: Vec<Id> = self
            .follows
            .notified_follower_ids(author.id)
            .await?
            .into_iter()
            .filter(|f| !status.mentions.contains(f))
            .collect();
        self.notify(&subscribers, author, NotificationType::Status, Some(status))
            .await?;
        Ok(())
    }

    /// Tells of an edit: the local accounts that reblogged the status (`update`), and the accounts
    /// the edit mentions for the first time (`mention`).
    pub(crate) async fn notify_edit(
        &self,
        author: &AccountRecord,
        before: &StatusRecord,
        after: &StatusRecord,
    ) -> ApiResult<()> {
        let added: Vec<Id> = after
            .mentions
            .iter()
            .copied()
            .filter(|m| !before.mentions.contains(m))
            .collect();
        self.notify(&added, author, NotificationType::Mention, Some(after))
            .await?;
        let mut rebloggers = Vec::new();
        let mut page = Page::first(REBLOGGERS_PER_READ);
        loop {
            let read = self.interactions.reblogged_by_page(after.id, page).await?;
            let Some(&(oldest, _)) = read.last() else {
                break;
            };
            let full = read.len() >= page.limit;
            rebloggers.extend(read.into_iter().map(|(_, a)| a));
            if !full {
                break;
            }
            page.max_id = Some(oldest);
        }
        self.notify(&rebloggers, author, NotificationType::Update, Some(after))
            .await?;
        self.notify_quoted_update(author, after).await?;
        Ok(())
    }

    /// Tells the author of the status `quoted_account` wrote that `quoting_author` quoted it in
    /// `quoting_status` (`quote`, Mastodon 4.5): only a local author, and as [`Self::notify`]
    /// does (not for a self-quote; blocks, mutes and notification policies honoured).
    pub(crate) async fn notify_quote(
        &self,
        quoting_author: &AccountRecord,
        quoting_status: &StatusRecord,
        quoted_account: Id,
    ) -> ApiResult<()> {
        self.notify(
            &[quoted_account],
            quoting_author,
            NotificationType::Quote,
            Some(quoting_status),
        )
        .await?;
        Ok(())
    }

    /// Tells the local authors of accepted quotes of `edited` that it was edited
    /// (`quoted_update`, Mastodon 4.5): each notification is about the recipient's own quoting
    /// status and comes from the editor; the editor is not told of its own quotes.
    async fn notify_quoted_update(
        &self,
        editor: &AccountRecord,
        edited: &StatusRecord,
    ) -> ApiResult<()> {
        let Some(quotes) = self.statuses.quotes() else {
            return Ok(());
        };
        let mut quoting = Vec::new();
        let mut page = Page::first(QUOTES_PER_READ);
        loop {
            let read = quotes.accepted_quotes_of(edited.id, page).await?;
            let Some(oldest) = read.last().map(|q| q.id) else {
                break;
            };
            let full = read.len() >= page.limit;
            quoting.extend(
                read.into_iter()
                    .filter(|q| q.account_id != editor.id)
                    .map(|q| q.status_id),
            );
            if !full {
                break;
            }
            page.max_id = Some(oldest);
        }
        for chunk in quoting.chunks(QUOTES_PER_READ) {
            for status in self.statuses.statuses_by_ids(chunk).await? {
                if status.account_id == editor.id {
                    continue;
                }
                self.notify(
                    &[status.account_id],
                    editor,
                    NotificationType::QuotedUpdate,
                    Some(&status),
                )
                .await?;
            }
        }
        Ok(())
    }

    /// Whether `me` must not hear from `other`: a mute of its notifications in force, or a block
    /// of its domain.
    async fn mutes_notifications_of(
        &self,
        me: &AccountRecord,
        other: &AccountRecord,
        now: DateTime<Utc>,
    ) -> ApiResult<bool> {
        if self
            .blocks
            .mute_of(me.id, other.id, now)
            .await?
            .is_some_and(|m| m.notifications)
        {
            return Ok(true);
        }
        Ok(match &other.domain {
            Some(d) => {
                self.domain_blocks
                    .domain_blocked(me.id, &d.to_ascii_lowercase())
                    .await?
            }
            None => false,
        })
    }

    /// Takes back `account`'s notifications of `kind` from `from` (about `status`, when given):
    /// the act they told of was undone.
    pub(crate) async fn retract_notification(
        &self,
        account: Id,
        from: Id,
        kind: NotificationType,
        status: Option<Id>,
    ) -> ApiResult<()> {
        self.notifications
            .retract_notifications(account, from, Some(kind), status)
            .await?;
        Ok(())
    }

    /// One page of `me`'s notifications that `query` takes, without those `me` must not see:
    /// from accounts blocked either way, whose notifications `me` mutes, suspended or on a
    /// domain `me` blocks, or about a status `me` can no longer see. When those hide entries,
    /// older ones are read to fill the page (a few reads at most).
    pub async fn page(
        &self,
        me: &AccountRecord,
        query: &NotificationQuery,
        page: Page,
    ) -> ApiResult<NotificationPage> {
        let mut fill = PageFill::new();
        let mut cursor = page;
        for _ in 0..MAX_READS {
            let read = self
                .notifications
                .notifications_page(me.id, query, cursor)
                .await?;
            let ids: Vec<Id> = read.iter().map(|n| n.id).collect();
            let shown = self.shown_notifications(me, read).await?;
            if !fill.take(&ids, shown, page, &mut cursor) {
                break;
            }
        }
        Ok(NotificationPage {
            notifications: fill.items,
            first: fill.first,
            last: fill.last,
        })
    }

    /// The notifications among `read` that `me` may see (see [`App::notifications`]).
    pub(crate) async fn shown_notifications(
        &self,
        me: &AccountRecord,
        read: Vec<NotificationRecord>,
    ) -> ApiResult<Vec<NotificationRecord>> {
        let mut senders: Vec<Id> = read.iter().map(|n| n.from_account_id).collect();
        senders.sort();
        senders.dedup();
        let now = self.now;
        let blocked: HashSet<Id> = self
            .blocks
            .blocked_either_way(me.id, &senders)
            .await?
            .into_iter()
            .collect();
        let muted: HashSet<Id> = self
            .blocks
            .muted_among(me.id, &senders, now)
            .await?
            .into_iter()
            .collect();
        let mut audible: HashSet<Id> = HashSet::new();
        for a in self.accounts.accounts_by_ids(&senders).await? {
            let hidden = a.suspended_at.is_some()
                || (a.id != me.id
                    && (blocked.contains(&a.id)
                        || (muted.contains(&a.id) || a.domain.is_some())
                            && self.mutes_notifications_of(me, &a, now).await?));
            if !hidden {
                audible.insert(a.id);
            }
        }
        let status_ids: Vec<Id> = read.iter().filter_map(|n| n.status_id).collect();
        let visible: HashSet<Id> = self
            .visibility
            .visible_statuses(Some(me), &status_ids)
            .await?
            .into_iter()
            .map(|s| s.id)
            .collect();
        Ok(read
            .into_iter()
            .filter(|n| {
                audible.contains(&n.from_account_id)
                    && n.status_id.is_none_or(|s| visible.contains(&s))
            })
            .collect())
    }

    /// One of `me`'s notifications; 404 for another account's, or one `me` may not see.
    pub async fn notification(&self, me: &AccountRecord, id: Id) -> ApiResult<NotificationRecord> {
        let n = self
            .notifications
            .notification_by_id(id)
            .await?
            .filter(|n| n.account_id == me.id)
            .ok_or_else(ApiError::not_found)?;
        self.shown_notifications(me, vec![n])
            .await?
            .pop()
            .ok_or_else(ApiError::not_found)
    }

    /// Dismisses one of `me`'s notifications; 404 when it is not `me`'s (it stays).
    pub async fn dismiss_notification(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        if self.notifications.dismiss_notification(me.id, id).await? {
            Ok(())
        } else {
            Err(ApiError::not_found())
        }
    }

    /// Dismisses several of `me`'s notifications; ids that are not `me`'s are ignored.
    pub async fn dismiss_notifications(&self, me: &AccountRecord, ids: &[Id]) -> ApiResult<()> {
        for id in ids {
            self.notifications.dismiss_notification(me.id, *id).await?;
        }
        Ok(())
    }

    /// Removes all of `me`'s notifications.
    pub async fn clear_notifications(&self, me: &AccountRecord) -> ApiResult<()> {
        self.notifications.clear_notifications(me.id).await?;
        Ok(())
    }

    /// How many of `me`'s notifications `query` takes above `after` (all when `None`), counting
    /// no further than `limit`.
    pub async fn count_notifications(
        &self,
        me: &AccountRecord,
        query: &NotificationQuery,
        after: Option<Id>,
        limit: u64,
    ) -> ApiResult<u64> {
        Ok(self
            .notifications
            .count_notifications(me.id, query, after, limit)
            .await?)
    }

    /// Queues the job that tells of a poll's end, when the poll ends at all.
    pub(crate) async fn schedule_poll_close(&self, poll: &PollRecord) -> ApiResult<()> {
        let Some(at) = poll.expires_at else {
            return Ok(());
        };
        let payload = json!({ "poll_id": poll.id.to_string() }).to_string();
        self.jobs
            .enqueue_job(&new_job(
                self.ids.next(),
                CLOSE_POLL,
                &payload,
                at,
                self.now,
            ))
            .await?;
        Ok(())
    }

    /// The `close_poll` job: notifies the author of an ended poll and its local voters (`poll`
    /// notifications from the author; a remote poll's author is not ours to tell). Nothing to do
    /// when the poll is gone (its status was deleted, or an edit replaced it) or was already told
    /// of (a job run twice, or a remote poll whose end moved, which has a job for each end); a
    /// poll not ended yet is put off to its end.
    pub(crate) async fn close_poll(&self, payload: &Value) -> Result<(), String> {
        let id = payload["poll_id"]
            .as_str()
            .and_then(|s| s.parse::<Id>().ok())
            .ok_or("payload has no poll_id")?;
        self.close_poll_now(id).await.map_err(|e| e.to_string())
    }

    async fn close_poll_now(&self, id: Id) -> ApiResult<()> {
        let Some(poll) = self.polls.poll_by_id(id).await? else {
            return Ok(());
        };
        let Some(ends) = poll.expires_at else {
            return Ok(());
        };
        if ends > self.now {
            return self.schedule_poll_close(&poll).await;
        }
        let (Some(status), Some(author)) = (
            self.statuses.status_by_id(poll.status_id).await?,
            self.accounts.account_by_id(poll.account_id).await?,
        ) else {
            return Ok(());
        };
        let mut recipients = self.polls.poll_voters(poll.id).await?;
        recipients.push(author.id);
        // Told of already: the notifications of one end are stored together, so one told
        // recipient tells. A local author always is; a remote poll's local voters are asked.
        let asked: Vec<Id> = if author.is_local() {
            vec![author.id]
        } else {
            recipients.clone()
        };
        if self.told_of_end(&asked, &author, &status).await? {
            return Ok(());
        }
        // Voters who can no longer see the status are not told.
        let mut told_ok: Vec<Id> = Vec::with_capacity(recipients.len());
        let accounts: HashMap<Id, AccountRecord> = self
            .accounts
            .accounts_by_ids(&recipients)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        for r in &recipients {
            if let Some(a) = accounts.get(r)
                && self.visibility.can_see(Some(a), &status, &author).await?
            {
                told_ok.push(*r);
            }
        }
        self.notify(&told_ok, &author, NotificationType::Poll, Some(&status))
            .await
            .map(|_| ())
    }

    /// Whether one of `recipients` has been told of the end of `author`'s poll on `status`.
    async fn told_of_end(
        &self,
        recipients: &[Id],
        author: &AccountRecord,
        status: &StatusRecord,
    ) -> ApiResult<bool> {
        let told = NotificationQuery {
            types: Some(vec![NotificationType::Poll]),
            from_account_id: Some(author.id),
            include_filtered: true,
            ..Default::default()
        };
        for r in recipients {
            let page = self
                .notifications
                .notifications_page(*r, &told, Page::first(80))
                .await?;
            if page.iter().any(|n| n.status_id == Some(status.id)) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Takes back the follow and follow request `follower` made of `followed` (the follow ended).
pub(crate) async fn forget_follow_notifications(
    notifications: &dyn NotificationStore,
    followed: Id,
    follower: Id,
) -> ApiResult<()> {
    for kind in [NotificationType::Follow, NotificationType::FollowRequest] {
        notifications
            .retract_notifications(followed, follower, Some(kind), None)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::App;
    use chrono::Duration;
    use serde_json::json;

    use super::*;
    use crate::test_support::{account, ended_poll, poll_of, post};

    fn app() -> App {
        crate::test_support::app("notify.test")
    }

    async fn polls_told(app: &App, who: &AccountRecord) -> Vec<NotificationRecord> {
        let query = NotificationQuery {
            types: Some(vec![NotificationType::Poll]),
            ..Default::default()
        };
        app.store
            .notifications_page(who.id, &query, Page::first(40))
            .await
            .expect("notifications")
    }

    #[tokio::test]
    async fn posting_a_poll_queues_its_close_at_its_end() {
        let app = app();
        let author = account(&app, "asker").await;
        let status = post(
            &app,
            &author,
            "which?",
            Some(json!({"options": ["a", "b"], "expires_in": 600})),
        )
        .await;
        let poll = poll_of(&app, &status).await;
        let far = app.now() + Duration::hours(1);
        let jobs = app
            .store
            .claim_jobs("test", far, far + Duration::minutes(1), 10)
            .await
            .expect("claim");
        let close: Vec<_> = jobs.iter().filter(|j| j.kind == CLOSE_POLL).collect();
        assert_eq!(close.len(), 1, "one close_poll job: {jobs:?}");
        assert_eq!(Some(close[0].run_at), poll.expires_at);
        assert!(close[0].payload.contains(&poll.id.to_string()));
    }

    #[tokio::test]
    async fn an_ended_poll_notifies_its_voters_and_author_once() {
        let app = app();
        let author = account(&app, "asker").await;
        let voter = account(&app, "voter").await;
        let bystander = account(&app, "bystander").await;
        let estranged = account(&app, "estranged").await;
        let (status, poll) = ended_poll(&app, &author).await;
        for who in [&voter, &estranged] {
            app.store
                .insert_poll_votes(poll.id, who.id, &[0])
                .await
                .expect("vote");
        }
        // A voter who blocked the author since is not told.
        app.blocks()
            .block(&estranged, author.id)
            .await
            .expect("block");
        let payload = json!({"poll_id": poll.id.to_string()});
        app.notifications()
            .close_poll(&payload)
            .await
            .expect("closed");
        app.notifications()
            .close_poll(&payload)
            .await
            .expect("closed again");
        for who in [&voter, &author] {
            let told = polls_told(&app, who).await;
            assert_eq!(told.len(), 1, "{} told once: {told:?}", who.username);
            assert_eq!(told[0].status_id, Some(status.id));
            assert_eq!(told[0].from_account_id, author.id);
        }
        assert!(polls_told(&app, &bystander).await.is_empty());
        assert!(polls_told(&app, &estranged).await.is_empty());
    }

    #[tokio::test]
    async fn a_poll_not_ended_is_put_off_and_a_gone_poll_is_done() {
        let app = app();
        let author = account(&app, "asker").await;
        let voter = account(&app, "voter").await;
        let status = post(
            &app,
            &author,
            "open",
            Some(json!({"options": ["a", "b"], "expires_in": 600})),
        )
        .await;
        let poll = poll_of(&app, &status).await;
        app.polls()
            .vote_in_poll(&voter, poll.id, &["1".into()])
            .await
            .expect("vote");
        app.notifications()
            .close_poll(&json!({"poll_id": poll.id.to_string()}))
            .await
            .expect("put off");
        assert!(polls_told(&app, &voter).await.is_empty());
        let far = app.now() + Duration::hours(1);
        let jobs = app
            .store
            .claim_jobs("test", far, far + Duration::minutes(1), 10)
            .await
            .expect("claim");
        assert_eq!(
            jobs.iter().filter(|j| j.kind == CLOSE_POLL).count(),
            2,
            "the first job and the one putting it off: {jobs:?}"
        );
        assert!(
            app.notifications()
                .close_poll(&json!({"poll_id": "12345"}))
                .await
                .is_ok()
        );
        assert!(app.notifications().close_poll(&json!({})).await.is_err());
    }

    #[test]
    fn group_keys_gather_favourites_of_a_status_within_a_window() {
        let at = DateTime::from_timestamp(1_700_000_000, 0).expect("time");
        let s = Some(Id(7));
        let a = group_key(NotificationType::Favourite, s, Id(1), at);
        let b = group_key(
            NotificationType::Favourite,
            s,
            Id(2),
            at + chrono::Duration::minutes(5),
        );
        assert_eq!(a, b);
        assert_ne!(
            a,
            group_key(NotificationType::Favourite, Some(Id(8)), Id(3), at)
        );
        assert_ne!(a, group_key(NotificationType::Reblog, s, Id(4), at));
        assert_eq!(
            group_key(NotificationType::Mention, s, Id(5), at),
            "ungrouped-5"
        );
    }
}
