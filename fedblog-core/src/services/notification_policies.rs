//! Notification policies (Mastodon 4.3+): what becomes of notifications from accounts the
//! recipient does not follow, that do not follow it, that are new, from private mentions, and from
//! limited accounts (accepted, filtered into requests, or dropped), and the requests that gather
//! the filtered ones per sender until the recipient accepts (the sender is accepted from then on)
//! or dismisses them.
//!
//! As in Mastodon: only mentions, reblogs, follows, follow requests and favourites are filtered or
//! dropped by a policy; a sender the recipient accepted, and a mention from staff ranking above
//! the recipient, always pass; when several conditions hold, `drop` wins over `filter`; only
//! filtered mentions make a request. A limited sender is a silenced account the recipient does
//! not follow (`for_limited_accounts`).

use chrono::{DateTime, Duration, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::pagination::Page;
use crate::services::conversations::Conversations;
use crate::store::{
    AccountRecord, AccountStore, FollowStore, NotificationPolicyRecord, NotificationPolicyStore,
    NotificationRequestRecord, NotificationType, PolicyAction, StatusRecord, StatusStore, Store,
    Visibility,
};

/// The notification types a policy acts on (Mastodon's `filterable`: `quote` is, and
/// `quoted_update` is not, as in Mastodon 4.5).
const FILTERABLE: [NotificationType; 6] = [
    NotificationType::Mention,
    NotificationType::Reblog,
    NotificationType::Follow,
    NotificationType::FollowRequest,
    NotificationType::Favourite,
    NotificationType::Quote,
];

/// Accounts younger than this are new.
const NEW_ACCOUNT_DAYS: i64 = 30;

/// A follow younger than this does not yet make a follower.
const NEW_FOLLOWER_DAYS: i64 = 3;

/// How far up a thread a private mention is looked for as an answer to the recipient.
const ANSWER_DEPTH: usize = 100;

/// Requests counted in a policy's summary, at most (Mastodon's `MAX_MEANINGFUL_COUNT`).
const SUMMARY_CAP: usize = 100;

/// What `PATCH` changes; `None` keeps the current value.
#[derive(Clone, Debug, Default)]
pub struct PolicyChanges {
    /// `accept`, `filter` or `drop` for each condition.
    pub for_not_following: Option<String>,
    /// See `for_not_following`.
    pub for_not_followers: Option<String>,
    /// See `for_not_following`.
    pub for_new_accounts: Option<String>,
    /// See `for_not_following`.
    pub for_private_mentions: Option<String>,
    /// See `for_not_following`.
    pub for_limited_accounts: Option<String>,
}

/// What a policy holds back: requests pending and their notifications (each capped at 100).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolicySummary {
    /// Requests.
    pub pending_requests_count: u64,
    /// Their filtered notifications.
    pub pending_notifications_count: u64,
}

/// A page of requests with the cursors (request ids) of what was read.
pub struct RequestPage {
    /// Newest first.
    pub requests: Vec<NotificationRequestRecord>,
    /// The newest id read.
    pub first: Option<Id>,
    /// The oldest id read.
    pub last: Option<Id>,
}

/// The notification policies area (`app.notification_policies()`): the policy and request
/// store, the follow, account and status stores its rules read, the conversations a request's
/// accepted mentions join, and the clock.
pub struct NotificationPolicies<'a> {
    policies: &'a dyn NotificationPolicyStore,
    follows: &'a dyn FollowStore,
    accounts: &'a dyn AccountStore,
    statuses: &'a dyn StatusStore,
    conversations: Conversations<'a>,
    /// Where accepting requests is told (`notifications_merged`).
    events: &'a dyn crate::events::EventBus,
    now: DateTime<Utc>,
}

impl<'a> NotificationPolicies<'a> {
    /// The area over `store`, adding accepted mentions to `conversations`, telling `events`
    /// when accepted requests bring notifications back, at `now`.
    pub fn new(
        store: &'a dyn Store,
        conversations: Conversations<'a>,
        events: &'a dyn crate::events::EventBus,
        now: DateTime<Utc>,
    ) -> Self {
        NotificationPolicies {
            events,
            policies: store,
            follows: store,
            accounts: store,
            statuses: store,
            conversations,
            now,
        }
    }

    /// `me`'s policy (Mastodon's defaults when never saved) with its summary.
    pub async fn notification_policy(
        &self,
        me: &AccountRecord,
    ) -> ApiResult<(NotificationPolicyRecord, PolicySummary)> {
        let policy = self
            .policies
            .notification_policy(me.id)
            .await?
            .unwrap_or_else(|| NotificationPolicyRecord::default_for(me.id));
        let pending = self
            .policies
            .notification_requests_page(me.id, Page::first(SUMMARY_CAP))
            .await?;
        let notifications: i64 = pending.iter().map(|r| r.notifications_count).sum();
        Ok((
            policy,
            PolicySummary {
                pending_requests_count: pending.len() as u64,
                pending_notifications_count: (notifications.max(0) as u64).min(SUMMARY_CAP as u64),
            },
        ))
    }

    /// Changes `me`'s policy; a value other than `accept`, `filter` or `drop` is a 422 and
    /// nothing changes.
    pub async fn update_notification_policy(
        &self,
        me: &AccountRecord,
        changes: PolicyChanges,
    ) -> ApiResult<(NotificationPolicyRecord, PolicySummary)> {
        let (mut policy, _) = self.notification_policy(me).await?;
        for (field, value, slot) in [
            (
                "for_not_following",
                changes.for_not_following,
                &mut policy.for_not_following,
            ),
            (
                "for_not_followers",
                changes.for_not_followers,
                &mut policy.for_not_followers,
            ),
            (
                "for_new_accounts",
                changes.for_new_accounts,
                &mut policy.for_new_accounts,
            ),
            (
                "for_private_mentions",
                changes.for_private_mentions,
                &mut policy.for_private_mentions,
            ),
            (
                "for_limited_accounts",
                changes.for_limited_accounts,
                &mut policy.for_limited_accounts,
            ),
        ] {
            if let Some(v) = value {
                *slot = PolicyAction::parse(v.trim()).ok_or_else(|| {
                    ApiError::invalid_field(
                        field,
                        "ERR_INCLUSION",
                        format!("{field} is not one of accept, filter or drop"),
                    )
                })?;
            }
        }
        self.policies.save_notification_policy(&policy).await?;
        self.notification_policy(me).await
    }

    /// What `recipient`'s policy does with a notification of `kind` from `sender` (about
    /// `status`).
    pub(crate) async fn policy_verdict(
        &self,
        recipient: &AccountRecord,
        sender: &AccountRecord,
        kind: NotificationType,
        status: Option<&StatusRecord>,
    ) -> ApiResult<PolicyAction> {
        if !FILTERABLE.contains(&kind) {
            return Ok(PolicyAction::Accept);
        }
        let policy = self
            .policies
            .notification_policy(recipient.id)
            .await?
            .unwrap_or_else(|| NotificationPolicyRecord::default_for(recipient.id));
        let direct_mention = kind == NotificationType::Mention
            && status.is_some_and(|s| s.visibility == Visibility::Direct);
        let limited = sender.silenced_at.is_some();
        // When every condition that could hold is accepted (the default policy, for all but
        // direct messages), nothing more needs asking: this runs for every notification made.
        let may_act = [
            policy.for_not_following,
            policy.for_not_followers,
            policy.for_new_accounts,
        ]
        .iter()
        .any(|a| *a != PolicyAction::Accept)
            || (direct_mention && policy.for_private_mentions != PolicyAction::Accept)
            || (limited && policy.for_limited_accounts != PolicyAction::Accept);
        if !may_act
            || self
                .policies
                .notification_permitted(recipient.id, sender.id)
                .await?
        {
            return Ok(PolicyAction::Accept);
        }
        if kind == NotificationType::Mention && self.outranks(sender, recipient).await? {
            return Ok(PolicyAction::Accept);
        }
        let now = self.now;
        let following = self.follows.follows(recipient.id, sender.id).await?;
        let settled_follow = (now - Duration::days(NEW_FOLLOWER_DAYS)).timestamp_millis();
        let follower = self
            .follows
            .follow_of(sender.id, recipient.id)
            .await?
            .is_some_and(|f| f.id.millis() <= settled_follow);
        let new_account = sender.created_at > now - Duration::days(NEW_ACCOUNT_DAYS);
        let private_mention = match status {
            Some(s) if direct_mention => !self.answers(s, recipient.id, sender.id).await?,
            _ => false,
        };
        let mut verdicts = Vec::new();
        if !following {
            verdicts.push(policy.for_not_following);
        }
        if !follower {
            verdicts.push(policy.for_not_followers);
        }
        if new_account && !following {
            verdicts.push(policy.for_new_accounts);
        }
        if private_mention && !following {
            verdicts.push(policy.for_private_mentions);
        }
        if limited && !following {
            verdicts.push(policy.for_limited_accounts);
        }
        Ok(if verdicts.contains(&PolicyAction::Drop) {
            PolicyAction::Drop
        } else if verdicts.contains(&PolicyAction::Filter) {
            PolicyAction::Filter
        } else {
            PolicyAction::Accept
        })
    }

    /// Whether `sender` is staff (a role with any permission but inviting) ranking above
    /// `recipient` (custom roles are read from the moderation store).
    async fn outranks(&self, sender: &AccountRecord, recipient: &AccountRecord) -> ApiResult<bool> {
        let (Some(s), Some(r)) = (
            self.accounts.user_by_account_id(sender.id).await?,
            self.accounts.user_by_account_id(recipient.id).await?,
        ) else {
            return Ok(false);
        };
        let store = self.accounts.moderation();
        let sender = crate::permissions::rank_in(store, s.role).await?;
        let recipient = crate::permissions::rank_in(store, r.role).await?;
        Ok(sender.permissions.is_staff() && sender.overrides(Some(recipient)))
    }

    /// Whether a direct status answers `recipient`: up its thread (at most 100 statuses), a
    /// direct status by `recipient` mentioning `sender`.
    async fn answers(&self, status: &StatusRecord, recipient: Id, sender: Id) -> ApiResult<bool> {
        let mut parent = status.in_reply_to_id;
        for _ in 0..ANSWER_DEPTH {
            let Some(id) = parent else {
                return Ok(false);
            };
            let Some(s) = self.statuses.status_by_id(id).await? else {
                return Ok(false);
            };
            if s.account_id == recipient
                && s.visibility == Visibility::Direct
                && s.mentions.contains(&sender)
            {
                return Ok(true);
            }
            parent = s.in_reply_to_id;
        }
        Ok(false)
    }

    /// A page of `me`'s notification requests, newest first.
    pub async fn notification_requests(
        &self,
        me: &AccountRecord,
        page: Page,
    ) -> ApiResult<RequestPage> {
        let requests = self
            .policies
            .notification_requests_page(me.id, page)
            .await?;
        Ok(RequestPage {
            first: requests.first().map(|r| r.id),
            last: requests.last().map(|r| r.id),
            requests,
        })
    }

    /// `me`'s request `id`; anyone else's is a 404.
    pub async fn own_notification_request(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<NotificationRequestRecord> {
        match self.policies.notification_request_by_id(id).await? {
            Some(r) if r.account_id == me.id => Ok(r),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Accepts `me`'s requests `ids`: their notifications join the others and their senders are
    /// accepted from now on; the direct messages among them join `me`'s conversations. With
    /// `strict`, one that is not `me`'s is a 404 (and none is accepted); otherwise it is skipped.
    pub async fn accept_notification_requests(
        &self,
        me: &AccountRecord,
        ids: &[Id],
        strict: bool,
    ) -> ApiResult<()> {
        for id in self.owned_requests(me, ids, strict).await? {
            for n in self.policies.accept_notification_request(id).await? {
                if n.kind != NotificationType::Mention {
                    continue;
                }
                if let Some(status) = match n.status_id {
                    Some(s) => self.statuses.status_by_id(s).await?,
                    None => None,
                } && status.visibility == Visibility::Direct
                {
                    self.conversations.add(&status, &[me.id]).await?;
                }
            }
        }
        // Clients reload their notifications: the accepted ones are back among them.
        crate::events::publish_logged(
            self.events,
            crate::events::DomainEvent::NotificationsMerged { account: me.id },
        )
        .await;
        Ok(())
    }

    /// Dismisses `me`'s requests `ids` with their notifications (`strict` as for accepting).
    pub async fn dismiss_notification_requests(
        &self,
        me: &AccountRecord,
        ids: &[Id],
        strict: bool,
    ) -> ApiResult<()> {
        for id in self.owned_requests(me, ids, strict).await? {
            self.policies.dismiss_notification_request(id).await?;
        }
        Ok(())
    }

    /// The ids among `ids` of `me`'s requests; with `strict`, a 404 unless all are.
    async fn owned_requests(
        &self,
        me: &AccountRecord,
        ids: &[Id],
        strict: bool,
    ) -> ApiResult<Vec<Id>> {
        let mut owned = Vec::new();
        for id in ids {
            match self.own_notification_request(me, *id).await {
                Ok(r) => owned.push(r.id),
                Err(e) if strict => return Err(e),
                Err(_) => {}
            }
        }
        Ok(owned)
    }
}
