//! What local actions tell other servers. An action whose audience reaches another server puts
//! one `federate` job on the durable queue, naming the activity ([`Outgoing`]) and the inboxes
//! it goes to (worked out now, while what they depend on still exists: a deleted status's
//! audience cannot be read after the deletion). The federation runner renders the activity and
//! makes one `deliver` job per inbox, each retried on its own.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::ApiResult;
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::services::jobs::{DEFAULT_MAX_ATTEMPTS, JobQueue, json_job};
use crate::store::{
    AccountRecord, AccountStatusesFilter, PollRecord, QuoteRecord, ReportFilter, ReportRecord,
    StatusRecord, Store, Visibility,
};

/// A job that renders one activity and queues its deliveries; payload [`Federate`].
pub const FEDERATE: &str = "federate";

/// A job that delivers one signed activity to one inbox; payload [`Delivery`].
pub const DELIVER: &str = "deliver";

/// An activity of a local actor for other servers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Outgoing {
    /// A new status (`Create`).
    Create {
        /// The status.
        status: Id,
    },
    /// An edited status (`Update`).
    Update {
        /// The status.
        status: Id,
    },
    /// A deleted status (`Delete` of a `Tombstone`).
    Delete {
        /// The status's ActivityPub id.
        uri: String,
        /// Its author.
        author: Id,
    },
    /// A reblog (`Announce`).
    Announce {
        /// The reblog.
        reblog: Id,
    },
    /// A reblog taken back (`Undo` of the `Announce`).
    UndoAnnounce {
        /// The reblog's id (gone by now).
        reblog: Id,
        /// Who had reblogged.
        author: Id,
        /// The ActivityPub id of the reblogged status.
        object: String,
    },
    /// A favourite (`Like`).
    Like {
        /// Who.
        account: Id,
        /// Of what.
        status: Id,
    },
    /// A favourite taken back.
    UndoLike {
        /// Who.
        account: Id,
        /// Of what.
        status: Id,
    },
    /// A follow of a remote account (pending until it answers).
    Follow {
        /// Who follows.
        follower: Id,
        /// Whom.
        target: Id,
    },
    /// An unfollow (or a request withdrawn).
    UndoFollow {
        /// Who followed.
        follower: Id,
        /// Whom.
        target: Id,
    },
    /// A remote account's follow accepted.
    Accept {
        /// The remote follower.
        follower: Id,
        /// The local account followed.
        target: Id,
    },
    /// A remote account's follow rejected (or a follower removed).
    Reject {
        /// The remote follower.
        follower: Id,
        /// The local account.
        target: Id,
    },
    /// A block of a remote account.
    Block {
        /// Who blocks.
        account: Id,
        /// Whom.
        target: Id,
    },
    /// A block lifted.
    UndoBlock {
        /// Who blocked.
        account: Id,
        /// Whom.
        target: Id,
    },
    /// A post pinned (`Add` to the actor's `featured` collection).
    Pin {
        /// Who pinned.
        account: Id,
        /// What.
        status: Id,
    },
    /// A post unpinned (`Remove` from `featured`).
    Unpin {
        /// Who unpinned.
        account: Id,
        /// What.
        status: Id,
    },
    /// A hashtag featured (`Add` of a `Hashtag` to the actor's `featuredTags` collection).
    FeatureTag {
        /// Who.
        account: Id,
        /// The tag's normalised name.
        name: String,
    },
    /// A hashtag no longer featured (`Remove` from `featuredTags`).
    UnfeatureTag {
        /// Who.
        account: Id,
        /// The tag's normalised name.
        name: String,
    },
    /// An account moved (`Move` of the actor to `target`, which names it as an alias).
    Move {
        /// The account that moved.
        account: Id,
        /// Where to.
        target: Id,
    },
    /// A changed profile (`Update` of the actor).
    UpdateActor {
        /// The account.
        account: Id,
    },
    /// New totals of a local poll, or its end (`Update` of its status's `Question`).
    UpdatePoll {
        /// The status with the poll.
        status: Id,
    },
    /// A report about a remote account, forwarded (`Flag` by the instance actor).
    Flag {
        /// The report.
        report: Id,
    },
    /// One choice of a local account's vote in a remote poll (`Create` of a `Note` named as
    /// the option, replying to the poll's status; a vote for several options is one of these
    /// per option, as Mastodon sends them).
    Vote {
        /// Who voted.
        account: Id,
        /// In which poll.
        poll: Id,
        /// The index of the option chosen.
        choice: usize,
    },
    /// A local account's quote of a remote post, asked of its author (`QuoteRequest`, FEP-044f).
    QuoteRequest {
        /// The quote.
        quote: Id,
    },
    /// A remote account's quote of a local post, approved by its author (`Accept` of the
    /// `QuoteRequest`, with the `QuoteAuthorization` as `result`).
    AcceptQuote {
        /// The quote.
        quote: Id,
    },
    /// A remote account's request to quote a local post, refused (`Reject` of the
    /// `QuoteRequest`).
    RejectQuote {
        /// The local author of the quoted post.
        author: Id,
        /// The `QuoteRequest`'s id.
        request: String,
    },
    /// A local author's approval of a remote account's quote, withdrawn (`Delete` of the
    /// `QuoteAuthorization`).
    RevokeQuote {
        /// The quote.
        quote: Id,
    },
    /// A local status's note sent again, unedited, because what it says of quotes changed (its
    /// quote approved, its quote policy changed): an `Update` with an id of its own each time,
    /// so that no server takes it for one it has seen.
    RefreshNote {
        /// The status.
        status: Id,
    },
}

/// The payload of a [`FEDERATE`] job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Federate {
    /// What to send.
    pub activity: Outgoing,
    /// To which inboxes, each once.
    pub inboxes: Vec<String>,
}

/// The payload of a [`DELIVER`] job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Delivery {
    /// The inbox.
    pub inbox: String,
    /// The local account that signs (its actor is the activity's).
    pub signer: Id,
    /// The activity, as JSON text.
    pub body: String,
    /// The `Collection-Synchronization` header to send (and sign) with it: a followers-only
    /// activity's digest of its author's followers on the inbox's server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collection_sync: Option<String>,
}

/// A job rejecting a remote account's follows of local accounts after we suspended it;
/// payload [`SuspensionFollowUp`].
pub const REJECT_FOLLOWS_OF_SUSPENDED: &str = "reject_follows_of_suspended";

/// A job fetching again the actor of a remote account whose suspension we lifted; payload
/// [`SuspensionFollowUp`].
pub const REFRESH_UNSUSPENDED: &str = "refresh_unsuspended";

/// The payload of [`REJECT_FOLLOWS_OF_SUSPENDED`] and [`REFRESH_UNSUSPENDED`] jobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuspensionFollowUp {
    /// The remote account.
    pub account: Id,
}

/// How far back [`Outbox::suspension_changed`] looks for the accounts a local account recently
/// mentioned or followed (Mastodon's `AccountReachFinder::STATUS_SINCE`).
pub const RECENT_REACH: chrono::Duration = chrono::Duration::days(2);

/// Statuses (and follows, and reports) read at most for those accounts (Mastodon reads 200
/// recent statuses).
const REACH_READ: usize = 200;

/// Whether `domain` is among `domains` (each compared trimmed, without a trailing dot, in
/// lower case).
fn domain_among(domain: &str, domains: &[String]) -> bool {
    let norm = |d: &str| d.trim().trim_end_matches('.').to_ascii_lowercase();
    let domain = norm(domain);
    domains.iter().any(|d| norm(d) == domain)
}

/// Deliveries are tried this many times (about a week with [`delivery_backoff`]).
pub const DELIVERY_ATTEMPTS: i32 = 16;

/// The wait before retry number `attempts` of a delivery: `attempts⁴ + 15` seconds, as
/// Sidekiq (and so Mastodon) waits: 16 s, 31 s, 96 s, ... 18 hours before the 16th; about five
/// days in all.
pub fn delivery_backoff(attempts: i32) -> chrono::Duration {
    let n = i64::from(attempts.clamp(1, DELIVERY_ATTEMPTS));
    chrono::Duration::seconds(n.pow(4) + 15)
}

/// The outbox: `app.outbox()`. Does nothing without a transport (an embedder that does not
/// federate).
pub struct Outbox<'a> {
    store: &'a dyn Store,
    jobs: JobQueue<'a>,
    ids: &'a IdGenerator,
    enabled: bool,
    base_url: String,
    now: DateTime<Utc>,
}

impl<'a> Outbox<'a> {
    /// The outbox over `store`, queueing on `jobs`, for the server at `base_url`; `enabled`
    /// when the app federates.
    pub fn new(
        store: &'a dyn Store,
        jobs: JobQueue<'a>,
        ids: &'a IdGenerator,
        enabled: bool,
        base_url: String,
        now: DateTime<Utc>,
    ) -> Self {
        Outbox {
            store,
            jobs,
            ids,
            enabled,
            base_url,
            now,
        }
    }

    /// Queues `activity` for `inboxes` (nothing when there are none).
    async fn send(&self, activity: Outgoing, mut inboxes: Vec<String>) -> ApiResult<()> {
        inboxes.sort();
        inboxes.dedup();
        if !self.enabled || inboxes.is_empty() {
            return Ok(());
        }
        let federate = Federate { activity, inboxes };
        let job = json_job(
            self.ids.next(),
            FEDERATE,
            &federate,
            self.now,
            DEFAULT_MAX_ATTEMPTS,
        )?;
        self.jobs.enqueue(&job).await
    }

    /// The inbox of each remote account among `accounts`.
    async fn inboxes_of(&self, accounts: &[Id]) -> ApiResult<Vec<String>> {
        if !self.enabled || accounts.is_empty() {
            return Ok(vec![]);
        }
        Ok(self
            .store
            .remote_actors(accounts)
            .await?
            .into_iter()
            .map(|a| a.inbox)
            .collect())
    }

    /// The inbox of each remote account among `accounts`, its server's shared inbox when known
    /// (Mastodon's `preferred_inbox_url`).
    async fn preferred_inboxes_of(&self, accounts: &[Id]) -> ApiResult<Vec<String>> {
        if !self.enabled || accounts.is_empty() {
            return Ok(vec![]);
        }
        Ok(self
            .store
            .remote_actors(accounts)
            .await?
            .into_iter()
            .map(|a| a.shared_inbox.unwrap_or(a.inbox))
            .collect())
    }

    /// The servers that may have a copy of the local `account`, as Mastodon's
    /// `AccountReachFinder` finds them: its followers', those of the accounts that reported it,
    /// and those of the accounts it mentioned in its last [`REACH_READ`] statuses or followed
    /// within [`RECENT_REACH`] (before its suspension, for an account suspended here; before
    /// now otherwise). Mastodon adds the accounts it recently asked to follow and the relays;
    /// fedblog keeps no list of the former and has no relays.
    async fn reach(&self, account: &AccountRecord) -> ApiResult<Vec<String>> {
        let mut inboxes = self.store.follower_inboxes(account.id).await?;
        let mut accounts: Vec<Id> = vec![];
        if let Some(moderation) = self.store.moderation() {
            for resolved in [false, true] {
                let filter = ReportFilter {
                    resolved,
                    account_id: None,
                    target_account_id: Some(account.id),
                };
                let reports = moderation.reports(&filter, Page::first(REACH_READ)).await?;
                accounts.extend(reports.into_iter().map(|r| r.account_id));
            }
        }
        let since = match account.suspended_at {
            Some(at) if !account.is_suspended_remotely() => at - RECENT_REACH,
            _ => self.now - RECENT_REACH,
        };
        let recent = Page {
            since_id: Some(Id::floor_at_millis(since.timestamp_millis())),
            ..Page::first(REACH_READ)
        };
        let filter = AccountStatusesFilter {
            visibilities: vec![
                Visibility::Public,
                Visibility::Unlisted,
                Visibility::Private,
                Visibility::Direct,
            ],
            ..AccountStatusesFilter::default()
        };
        let statuses = self
            .store
            .account_statuses(account.id, &filter, recent)
            .await?;
        accounts.extend(statuses.into_iter().flat_map(|s| s.mentions));
        let follows = self.store.following_page(account.id, recent).await?;
        accounts.extend(follows.into_iter().map(|(_, followed)| followed));
        accounts.sort();
        accounts.dedup();
        inboxes.extend(self.preferred_inboxes_of(&accounts).await?);
        Ok(inboxes)
    }

    /// A local account was suspended or its suspension lifted: the `Update` of its actor (which
    /// then says `suspended: true`, or no longer does) goes to every server that may have a copy
    /// of it ([`Outbox::reach`]), as Mastodon's `SuspendAccountService` and
    /// `UnsuspendAccountService` send it, so that those servers suspend their copy or lift
    /// that suspension.
    ///
    /// A remote account that we suspended (a moderator or a domain block) loses its follows of
    /// local accounts, each rejected to its server, as Mastodon's `SuspendAccountService` does so
    /// that it stops receiving their posts (not reversible: a follow cannot be forced back); one
    /// whose suspension we lifted has its actor fetched again, as `UnsuspendAccountService`
    /// does. Both run as jobs ([`REJECT_FOLLOWS_OF_SUSPENDED`], [`REFRESH_UNSUSPENDED`]). A
    /// suspension by the account's own server leaves its follows: lifting it there restores all.
    pub async fn suspension_changed(&self, account: &AccountRecord) -> ApiResult<()> {
        if !self.enabled {
            return Ok(());
        }
        if !account.is_local() {
            let kind = match (account.is_suspended(), account.is_suspended_remotely()) {
                (true, false) => REJECT_FOLLOWS_OF_SUSPENDED,
                (false, _) => REFRESH_UNSUSPENDED,
                (true, true) => return Ok(()),
            };
            let payload = SuspensionFollowUp {
                account: account.id,
            };
            let job = json_job(
                self.ids.next(),
                kind,
                &payload,
                self.now,
                DEFAULT_MAX_ATTEMPTS,
            )?;
            return self.jobs.enqueue(&job).await;
        }
        let inboxes = self.reach(account).await?;
        self.send(
            Outgoing::UpdateActor {
                account: account.id,
            },
            inboxes,
        )
        .await
    }

    /// The ActivityPub id of the `Flag` forwarding report `report`.
    pub fn flag_uri(&self, report: Id) -> String {
        crate::federation::paths::activity(
            &crate::federation::paths::instance_actor(&self.base_url),
            "flags",
            report,
        )
    }

    /// A report about the remote account `target`, which its reporter asked to forward to
    /// `domains` (already defaulted to the target's own): its `Flag` goes, as Mastodon's
    /// `ReportService` sends it, to the target's inbox when its domain is among them, and to the
    /// servers among them of the accounts the reported statuses reply to (not again to the
    /// target's).
    pub async fn report_forwarded(
        &self,
        report: &ReportRecord,
        target: &AccountRecord,
        domains: &[String],
    ) -> ApiResult<()> {
        let Some(target_domain) = target.domain.as_deref() else {
            return Ok(());
        };
        if !self.enabled {
            return Ok(());
        }
        let target_actor = self.store.remote_actor(target.id).await?;
        let mut inboxes = vec![];
        let to_origin = domain_among(target_domain, domains);
        if to_origin && let Some(actor) = &target_actor {
            inboxes.push(actor.inbox.clone());
        }
        let mut replied_to: Vec<Id> = self
            .store
            .statuses_by_ids(&report.status_ids)
            .await?
            .into_iter()
            .filter_map(|s| s.in_reply_to_account_id)
            .collect();
        replied_to.sort();
        replied_to.dedup();
        let replied_to: Vec<Id> = self
            .store
            .accounts_by_ids(&replied_to)
            .await?
            .into_iter()
            .filter(|a| {
                a.domain
                    .as_deref()
                    .is_some_and(|d| domain_among(d, domains))
            })
            .map(|a| a.id)
            .collect();
        let targets_own = |inbox: &String| {
            target_actor
                .as_ref()
                .is_some_and(|a| a.inbox == *inbox || a.shared_inbox.as_ref() == Some(inbox))
        };
        inboxes.extend(
            self.preferred_inboxes_of(&replied_to)
                .await?
                .into_iter()
                .filter(|i| !targets_own(i)),
        );
        self.send(Outgoing::Flag { report: report.id }, inboxes)
            .await
    }

    /// Who hears of a local status on other servers: the servers of the author's followers
    /// (unless it is direct), the mentioned remote accounts, and the author replied to when the
    /// status is public or unlisted. A followers-only or direct status goes only to servers
    /// with a recipient.
    async fn audience(&self, status: &StatusRecord) -> ApiResult<Vec<String>> {
        if !self.enabled || !status.local {
            return Ok(vec![]);
        }
        let mut accounts = status.mentions.clone();
        let mut inboxes = vec![];
        if status.visibility != Visibility::Direct {
            inboxes = self.store.follower_inboxes(status.account_id).await?;
        }
        if matches!(status.visibility, Visibility::Public | Visibility::Unlisted)
            && let Some(parent_author) = status.in_reply_to_account_id
        {
            accounts.push(parent_author);
        }
        inboxes.extend(self.inboxes_of(&accounts).await?);
        Ok(inboxes)
    }

    /// A local status was posted.
    pub async fn status_created(&self, status: &StatusRecord) -> ApiResult<()> {
        if status.reblog_of_id.is_some() {
            return self.reblogged(status).await;
        }
        let inboxes = self.audience(status).await?;
        self.send(Outgoing::Create { status: status.id }, inboxes)
            .await
    }

    /// A local status was edited.
    pub async fn status_edited(&self, status: &StatusRecord) -> ApiResult<()> {
        let inboxes = self.audience(status).await?;
        self.send(Outgoing::Update { status: status.id }, inboxes)
            .await
    }

    /// A local status is about to be deleted (called before, while its audience can be read).
    pub async fn status_deleting(
        &self,
        status: &StatusRecord,
        author: &AccountRecord,
    ) -> ApiResult<()> {
        if !author.is_local() {
            return Ok(());
        }
        if let Some(original) = status.reblog_of_id {
            return self.unreblogging(status, original).await;
        }
        let inboxes = self.audience(status).await?;
        let uri = crate::federation::paths::status(&self.base_url, &author.username, status.id);
        self.send(
            Outgoing::Delete {
                uri,
                author: author.id,
            },
            inboxes,
        )
        .await
    }

    /// A local account reblogged a status.
    async fn reblogged(&self, reblog: &StatusRecord) -> ApiResult<()> {
        let Some(original_id) = reblog.reblog_of_id else {
            return Ok(());
        };
        if !self.enabled || !reblog.local {
            return Ok(());
        }
        let mut inboxes = self.store.follower_inboxes(reblog.account_id).await?;
        if let Some(original) = self.store.status_by_id(original_id).await? {
            inboxes.extend(self.inboxes_of(&[original.account_id]).await?);
        }
        self.send(Outgoing::Announce { reblog: reblog.id }, inboxes)
            .await
    }

    async fn unreblogging(&self, reblog: &StatusRecord, original_id: Id) -> ApiResult<()> {
        if !self.enabled {
            return Ok(());
        }
        let Some(original) = self.store.status_by_id(original_id).await? else {
            return Ok(());
        };
        let mut inboxes = self.store.follower_inboxes(reblog.account_id).await?;
        inboxes.extend(self.inboxes_of(&[original.account_id]).await?);
        let object = match &original.uri {
            Some(uri) => uri.clone(),
            None => match self.store.account_by_id(original.account_id).await? {
                Some(author) => {
                    crate::federation::paths::status(&self.base_url, &author.username, original.id)
                }
                None => return Ok(()),
            },
        };
        self.send(
            Outgoing::UndoAnnounce {
                reblog: reblog.id,
                author: reblog.account_id,
                object,
            },
            inboxes,
        )
        .await
    }

    /// A local account favourited a status (told to a remote author).
    pub async fn favourited(
        &self,
        account: &AccountRecord,
        status: &StatusRecord,
    ) -> ApiResult<()> {
        self.to_author(
            account,
            status,
            Outgoing::Like {
                account: account.id,
                status: status.id,
            },
        )
        .await
    }

    /// A local account took its favourite back.
    pub async fn unfavourited(
        &self,
        account: &AccountRecord,
        status: &StatusRecord,
    ) -> ApiResult<()> {
        self.to_author(
            account,
            status,
            Outgoing::UndoLike {
                account: account.id,
                status: status.id,
            },
        )
        .await
    }

    async fn to_author(
        &self,
        account: &AccountRecord,
        status: &StatusRecord,
        activity: Outgoing,
    ) -> ApiResult<()> {
        if !account.is_local() || status.local {
            return Ok(());
        }
        let inboxes = self.inboxes_of(&[status.account_id]).await?;
        self.send(activity, inboxes).await
    }

    /// Sends `activity` to `target`'s inbox when `actor` is local and `target` remote.
    async fn between(&self, actor: Id, target: Id, activity: Outgoing) -> ApiResult<()> {
        if !self.enabled {
            return Ok(());
        }
        if self.store.remote_actor(actor).await?.is_some() {
            return Ok(());
        }
        let inboxes = self.inboxes_of(&[target]).await?;
        self.send(activity, inboxes).await
    }

    /// A local account asked to follow a remote one.
    pub async fn followed(&self, follower: Id, target: Id) -> ApiResult<()> {
        self.between(follower, target, Outgoing::Follow { follower, target })
            .await
    }

    /// A local account stopped following (or withdrew its request to follow) a remote one.
    pub async fn unfollowed(&self, follower: Id, target: Id) -> ApiResult<()> {
        self.between(follower, target, Outgoing::UndoFollow { follower, target })
            .await
    }

    /// A local account accepted a remote account's follow.
    pub async fn accepted(&self, follower: Id, target: Id) -> ApiResult<()> {
        self.between(target, follower, Outgoing::Accept { follower, target })
            .await
    }

    /// A local account rejected a remote account's follow, or removed it from its followers.
    pub async fn rejected(&self, follower: Id, target: Id) -> ApiResult<()> {
        self.between(target, follower, Outgoing::Reject { follower, target })
            .await
    }

    /// A local account blocked a remote one.
    pub async fn blocked(&self, account: Id, target: Id) -> ApiResult<()> {
        self.between(account, target, Outgoing::Block { account, target })
            .await
    }

    /// A local account lifted its block of a remote one.
    pub async fn unblocked(&self, account: Id, target: Id) -> ApiResult<()> {
        self.between(account, target, Outgoing::UndoBlock { account, target })
            .await
    }

    /// A local poll has new totals (a remote vote counted) or has ended: its status's
    /// `Update` goes to the status's audience and to the inboxes of the poll's remote voters, so
    /// that the servers with a copy show it as it is (Mastodon's `DistributePollUpdateWorker`).
    pub async fn poll_updated(&self, status: &StatusRecord, poll: &PollRecord) -> ApiResult<()> {
        if !self.enabled || !status.local {
            return Ok(());
        }
        let mut inboxes = self.audience(status).await?;
        let voters = self.store.poll_voters(poll.id).await?;
        inboxes.extend(self.inboxes_of(&voters).await?);
        self.send(Outgoing::UpdatePoll { status: status.id }, inboxes)
            .await
    }

    /// A local account voted for `choices` in the poll of a remote status: one activity per
    /// choice goes to the poll's author.
    pub async fn voted(
        &self,
        voter: &AccountRecord,
        status: &StatusRecord,
        poll: &PollRecord,
        choices: &[usize],
    ) -> ApiResult<()> {
        if !self.enabled || !voter.is_local() || status.local {
            return Ok(());
        }
        let inboxes = self.inboxes_of(&[status.account_id]).await?;
        for &choice in choices {
            let vote = Outgoing::Vote {
                account: voter.id,
                poll: poll.id,
                choice,
            };
            self.send(vote, inboxes.clone()).await?;
        }
        Ok(())
    }

    /// The id of the `QuoteRequest` for quote `quote` of the local `author`.
    pub fn quote_request_uri(&self, author: &AccountRecord, quote: Id) -> String {
        let actor = crate::federation::paths::account_actor(&self.base_url, author);
        crate::federation::paths::activity(&actor, "quote_requests", quote)
    }

    /// A local account quotes a remote post: its `QuoteRequest` goes to the quoted author.
    pub async fn quote_requested(&self, quote: &QuoteRecord) -> ApiResult<()> {
        let Some(quoted_author) = quote.quoted_account_id else {
            return Ok(());
        };
        let activity = Outgoing::QuoteRequest { quote: quote.id };
        self.between(quote.account_id, quoted_author, activity)
            .await
    }

    /// A local author approved a remote account's quote: the `Accept` goes to the quoting
    /// author.
    pub async fn quote_accepted(&self, quote: &QuoteRecord) -> ApiResult<()> {
        let Some(author) = quote.quoted_account_id else {
            return Ok(());
        };
        let activity = Outgoing::AcceptQuote { quote: quote.id };
        self.between(author, quote.account_id, activity).await
    }

    /// The local `author` refused the `QuoteRequest` `request` of the remote `requester`: the
    /// `Reject` goes to the requester.
    pub async fn quote_request_rejected(
        &self,
        author: Id,
        requester: Id,
        request: &str,
    ) -> ApiResult<()> {
        let activity = Outgoing::RejectQuote {
            author,
            request: request.to_string(),
        };
        self.between(author, requester, activity).await
    }

    /// A local author revoked a remote account's accepted quote: the `Delete` of its
    /// authorization goes to the quoting author.
    pub async fn quote_revoked(&self, quote: &QuoteRecord) -> ApiResult<()> {
        let Some(author) = quote.quoted_account_id else {
            return Ok(());
        };
        let activity = Outgoing::RevokeQuote { quote: quote.id };
        self.between(author, quote.account_id, activity).await
    }

    /// What a local status says of quotes changed without an edit: its note goes again (an
    /// `Update` with a new id) to its audience.
    pub async fn note_refreshed(&self, status: &StatusRecord) -> ApiResult<()> {
        if status.reblog_of_id.is_some() {
            return Ok(());
        }
        let inboxes = self.audience(status).await?;
        self.send(Outgoing::RefreshNote { status: status.id }, inboxes)
            .await
    }

    /// A local account changed its profile.
    pub async fn profile_updated(&self, account: &AccountRecord) -> ApiResult<()> {
        let update = Outgoing::UpdateActor {
            account: account.id,
        };
        self.to_followers(account, update).await
    }

    /// A local account pinned (`pinned`) or unpinned one of its posts.
    pub async fn pin_changed(
        &self,
        account: &AccountRecord,
        status: Id,
        pinned: bool,
    ) -> ApiResult<()> {
        let account_id = account.id;
        let change = if pinned {
            Outgoing::Pin {
                account: account_id,
                status,
            }
        } else {
            Outgoing::Unpin {
                account: account_id,
                status,
            }
        };
        self.to_followers(account, change).await
    }

    /// A local account featured (`featured`) or stopped featuring the hashtag `name`.
    pub async fn featured_tag_changed(
        &self,
        account: &AccountRecord,
        name: &str,
        featured: bool,
    ) -> ApiResult<()> {
        let (account_id, name) = (account.id, name.to_string());
        let change = if featured {
            Outgoing::FeatureTag {
                account: account_id,
                name,
            }
        } else {
            Outgoing::UnfeatureTag {
                account: account_id,
                name,
            }
        };
        self.to_followers(account, change).await
    }

    /// Sends `activity` of the local `account` to its followers' servers.
    pub(crate) async fn to_followers(
        &self,
        account: &AccountRecord,
        activity: Outgoing,
    ) -> ApiResult<()> {
        if !self.enabled || !account.is_local() {
            return Ok(());
        }
        let inboxes = self.store.follower_inboxes(account.id).await?;
        self.send(activity, inboxes).await
    }
}
