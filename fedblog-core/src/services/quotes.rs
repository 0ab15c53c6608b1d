//! Quote posts as Mastodon 4.5 has them: checking a quote when a status is posted (the quoted
//! status must be visible and its quote approval policy must not deny the author), recording
//! it with its approval state, the quote approval policy of each status and what it means for
//! a viewer, the accepted quotes of one's own status, revoking one, and changing a status's
//! policy.

use chrono::{DateTime, Utc};
use http::StatusCode;

use crate::error::{ApiError, ApiResult};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountRecord, QuotePolicyBits, QuoteRecord, QuoteState, QuoteStore, StatusRecord, Store,
    Visibility,
};

/// Mastodon's answer when the status to quote is missing, hidden or may not be quoted (one
/// answer for all three, so that a refusal does not reveal that a status exists).
pub const QUOTED_NOT_FOUND: &str = "The post you are trying to quote does not appear to exist.";

/// How a status's quote approval policy applies to one account (`quote_approval.current_user`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotePermission {
    /// The account's quote is approved at once.
    Automatic,
    /// The author reviews the account's quote.
    Manual,
    /// The policy names audiences fedblog does not understand.
    Unknown,
    /// The account may not quote the status.
    Denied,
}

impl QuotePermission {
    /// Mastodon's name.
    pub fn as_str(self) -> &'static str {
        match self {
            QuotePermission::Automatic => "automatic",
            QuotePermission::Manual => "manual",
            QuotePermission::Unknown => "unknown",
            QuotePermission::Denied => "denied",
        }
    }
}

/// A quote checked before its status is stored: what [`Quotes::attach`] records after.
#[derive(Clone, Debug)]
pub struct QuoteDraft {
    /// The status quoted (a reblog's original in its place), if any.
    pub quoted: Option<(StatusRecord, QuotePermission)>,
    /// The policy the new status gets, when one was asked for.
    pub policy: Option<QuotePolicyBits>,
    /// The visibility the new status must take instead of the one asked for (quoting a
    /// followers-only status keeps the quote followers-only).
    pub visibility: Option<String>,
}

/// What rendering needs to show the quotes of a page: each quoting status's quote, each
/// status's policy and how it applies to the viewer, and the number of accepted quotes.
#[derive(Clone, Debug, Default)]
pub struct QuoteViews {
    /// quoting status -> its quote
    pub quotes: std::collections::HashMap<Id, QuoteRecord>,
    /// status -> (automatic audiences, manual audiences, how it applies to the viewer)
    pub approvals: std::collections::HashMap<Id, (Vec<String>, Vec<String>, QuotePermission)>,
    /// quoted status -> its accepted quotes
    pub counts: std::collections::HashMap<Id, i64>,
    /// The quoted statuses the viewer may see (the others show as `unauthorized`, or
    /// `deleted` when gone).
    pub visible_quoted: Vec<StatusRecord>,
    /// The quoted statuses that no longer exist.
    pub deleted_quoted: Vec<Id>,
}

/// The quotes area: `app.quotes()`. It holds the store and the visibility rule, and names no
/// `App` (the shape of an area service: see ARCHITECTURE.md, "Adding a new area").
pub struct Quotes<'a> {
    store: &'a dyn Store,
    visibility: VisibilityRule<'a>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
    /// Tells other servers of quotes (see [`Quotes::with_outbox`]).
    outbox: Option<crate::services::outbox::Outbox<'a>>,
}

impl<'a> Quotes<'a> {
    /// The area over `store`, dating what it records `now`.
    pub fn new(
        store: &'a dyn Store,
        visibility: VisibilityRule<'a>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Quotes {
            store,
            visibility,
            ids,
            now,
            outbox: None,
        }
    }

    /// The area telling other servers through `outbox` of what changes there: a quote of a
    /// remote post is asked of its author (`QuoteRequest`), a remote account's quote revoked
    /// (`Delete` of its authorization), a changed policy sent (`Update` of the note).
    pub fn with_outbox(mut self, outbox: crate::services::outbox::Outbox<'a>) -> Self {
        self.outbox = Some(outbox);
        self
    }

    /// The store's quote store; 422 when it keeps none.
    fn quote_store(&self) -> ApiResult<&'a dyn QuoteStore> {
        self.store
            .quotes()
            .ok_or_else(|| ApiError::unprocessable("This server does not keep quote posts"))
    }

    /// The stored policy of `status` ([`QuotePolicyBits::NOBODY`] without one).
    pub async fn policy_of(&self, status: Id) -> ApiResult<QuotePolicyBits> {
        let Some(q) = self.store.quotes() else {
            return Ok(QuotePolicyBits::NOBODY);
        };
        Ok(q.quote_policies(&[status])
            .await?
            .into_iter()
            .next()
            .map(|(_, p)| p)
            .unwrap_or(QuotePolicyBits::NOBODY))
    }

    /// How `status`'s `policy` applies to `account` (Mastodon's `quote_policy_for_account`):
    /// nobody signed out, and no direct status, is quotable; the author always may quote their
    /// own; otherwise only public and unlisted statuses, by their automatic then manual
    /// audiences (anyone, the author's followers, those the author follows).
    pub async fn permission(
        &self,
        account: Option<&AccountRecord>,
        status: &StatusRecord,
        policy: QuotePolicyBits,
    ) -> ApiResult<QuotePermission> {
        let Some(account) = account else {
            return Ok(QuotePermission::Denied);
        };
        if status.visibility == Visibility::Direct || status.reblog_of_id.is_some() {
            return Ok(QuotePermission::Denied);
        }
        if account.id == status.account_id {
            return Ok(QuotePermission::Automatic);
        }
        if !matches!(status.visibility, Visibility::Public | Visibility::Unlisted) {
            return Ok(QuotePermission::Denied);
        }
        let mut following_author = None;
        let mut followed_by_author = None;
        for (flags, answer) in [
            (policy.automatic(), QuotePermission::Automatic),
            (policy.manual(), QuotePermission::Manual),
        ] {
            if flags & QuotePolicyBits::PUBLIC != 0 {
                return Ok(answer);
            }
            if flags & QuotePolicyBits::FOLLOWERS != 0 {
                let f = match following_author {
                    Some(f) => f,
                    None => self.store.follows(account.id, status.account_id).await?,
                };
                following_author = Some(f);
                if f {
                    return Ok(answer);
                }
            }
            if flags & QuotePolicyBits::FOLLOWING != 0 {
                let f = match followed_by_author {
                    Some(f) => f,
                    None => self.store.follows(status.account_id, account.id).await?,
                };
                followed_by_author = Some(f);
                if f {
                    return Ok(answer);
                }
            }
        }
        if (policy.automatic() | policy.manual()) & QuotePolicyBits::UNSUPPORTED != 0 {
            return Ok(QuotePermission::Unknown);
        }
        Ok(QuotePermission::Denied)
    }

    /// Checks a quote before its status is stored (`quoted_status_id` and
    /// `quote_approval_policy` of `POST /api/v1/statuses`): the policy must be `public`,
    /// `followers` or `nobody` (422 otherwise); the quoted status (a reblog's original in its
    /// place) must exist, be visible to `author` and not deny them (404 with
    /// [`QUOTED_NOT_FOUND`] otherwise). Quoting a followers-only status makes a public or
    /// unlisted quote followers-only; a direct quote of someone else's status must mention
    /// them (`mentions`, 422 otherwise).
    pub async fn prepare(
        &self,
        author: &AccountRecord,
        quoted_status_id: Option<&str>,
        policy: Option<&str>,
        visibility: Option<&str>,
        mentions: &[Id],
    ) -> ApiResult<QuoteDraft> {
        let policy = match policy.filter(|p| !p.is_empty()) {
            None => None,
            Some(name) => Some(QuotePolicyBits::from_setting(name).ok_or_else(|| {
                ApiError::invalid_field(
                    "quote_approval_policy",
                    "ERR_INCLUSION",
                    "Quote approval policy is not included in the list",
                )
            })?),
        };
        let Some(raw) = quoted_status_id.filter(|s| !s.is_empty()) else {
            return Ok(QuoteDraft {
                quoted: None,
                policy,
                visibility: None,
            });
        };
        let not_found = || ApiError::new(StatusCode::NOT_FOUND, QUOTED_NOT_FOUND);
        let id: Id = raw.parse().map_err(|_| not_found())?;
        let mut quoted = self
            .visibility
            .visible_status(Some(author), id)
            .await
            .map_err(|_| not_found())?;
        if let Some(original) = quoted.reblog_of_id {
            quoted = self
                .visibility
                .visible_status(Some(author), original)
                .await
                .map_err(|_| not_found())?;
        }
        if self.store.quotes().is_none() {
            return Err(not_found());
        }
        let quoted_policy = self.policy_of(quoted.id).await?;
        let permission = self
            .permission(Some(author), &quoted, quoted_policy)
            .await?;
        if permission == QuotePermission::Denied {
            return Err(not_found());
        }
        let asked = visibility
            .filter(|v| !v.is_empty())
            .and_then(Visibility::parse)
            .unwrap_or(author.default_privacy);
        let mut new_visibility = None;
        if quoted.visibility == Visibility::Private
            && matches!(asked, Visibility::Public | Visibility::Unlisted)
        {
            new_visibility = Some("private".to_string());
        }
        if asked == Visibility::Direct
            && quoted.account_id != author.id
            && !mentions.contains(&quoted.account_id)
        {
            return Err(ApiError::unprocessable(
                "Validation failed: The author of the quoted post must be mentioned in a private mention",
            ));
        }
        Ok(QuoteDraft {
            quoted: Some((quoted, permission)),
            policy,
            visibility: new_visibility,
        })
    }

    /// Records what `draft` checked for the new status `status` by `author`: its quote
    /// approval policy (`nobody` for followers-only and direct statuses; `public`, Mastodon's
    /// default setting, when none was asked for) and its quote, accepted at once when the
    /// quoted status is local and its policy approves `author` automatically, pending
    /// otherwise. Answers the quote recorded.
    pub async fn attach(
        &self,
        author: &AccountRecord,
        status: &StatusRecord,
        draft: QuoteDraft,
    ) -> ApiResult<Option<QuoteRecord>> {
        let Some(store) = self.store.quotes() else {
            return Ok(None);
        };
        let policy = effective_policy(
            status.visibility,
            draft
                .policy
                .unwrap_or(QuotePolicyBits(QuotePolicyBits::PUBLIC << 16)),
        );
        store.set_quote_policy(status.id, policy).await?;
        let Some((quoted, permission)) = draft.quoted else {
            return Ok(None);
        };
        // A self-quote needs no approval; a quote of someone else's remote post is asked of
        // its author (a `QuoteRequest`), and stays pending until their server answers.
        let own = quoted.account_id == author.id;
        let state = if (quoted.local || own) && permission == QuotePermission::Automatic {
            QuoteState::Accepted
        } else {
            QuoteState::Pending
        };
        let id = self.ids.next_at(self.now.timestamp_millis());
        let ask = !quoted.local && !own;
        let quote = QuoteRecord {
            id,
            status_id: status.id,
            account_id: author.id,
            quoted_status_id: Some(quoted.id),
            quoted_account_id: Some(quoted.account_id),
            state,
            activity_uri: match (&self.outbox, ask) {
                (Some(outbox), true) => Some(outbox.quote_request_uri(author, id)),
                _ => None,
            },
            approval_uri: None,
            created_at: self.now,
            updated_at: self.now,
        };
        match store.insert_quote(&quote).await {
            Ok(()) => {
                if let (Some(outbox), true) = (&self.outbox, ask) {
                    outbox.quote_requested(&quote).await?;
                }
                Ok(Some(quote))
            }
            // A retry with the same idempotency key answers the status posted first, whose
            // quote is recorded already.
            Err(crate::StoreError::AlreadyExists(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Everything render needs to show `statuses` (and the originals they reblog, in
    /// `originals`) to `viewer`: their quotes, the quoted statuses the viewer may see, the
    /// policies and what they mean for the viewer, and the accepted quote counts.
    pub async fn views(
        &self,
        statuses: &[&StatusRecord],
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<QuoteViews> {
        let mut views = QuoteViews::default();
        let Some(store) = self.store.quotes() else {
            for s in statuses {
                let permission = self.permission(viewer, s, QuotePolicyBits::NOBODY).await?;
                views.approvals.insert(s.id, (vec![], vec![], permission));
            }
            return Ok(views);
        };
        let ids: Vec<Id> = statuses.iter().map(|s| s.id).collect();
        for q in store.quotes_of_statuses(&ids).await? {
            views.quotes.insert(q.status_id, q);
        }
        let policies: std::collections::HashMap<Id, QuotePolicyBits> =
            store.quote_policies(&ids).await?.into_iter().collect();
        for s in statuses {
            let policy = policies
                .get(&s.id)
                .copied()
                .unwrap_or(QuotePolicyBits::NOBODY);
            let permission = self.permission(viewer, s, policy).await?;
            views.approvals.insert(
                s.id,
                (
                    QuotePolicyBits::keys(policy.automatic()),
                    QuotePolicyBits::keys(policy.manual()),
                    permission,
                ),
            );
        }
        views.counts = store
            .accepted_quote_counts(&ids)
            .await?
            .into_iter()
            .collect();
        let mut quoted_ids: Vec<Id> = views
            .quotes
            .values()
            .filter(|q| q.state == QuoteState::Accepted)
            .filter_map(|q| q.quoted_status_id)
            .collect();
        quoted_ids.sort_unstable();
        quoted_ids.dedup();
        if !quoted_ids.is_empty() {
            let existing: Vec<Id> = self
                .store
                .statuses_by_ids(&quoted_ids)
                .await?
                .into_iter()
                .map(|s| s.id)
                .collect();
            views.deleted_quoted = quoted_ids
                .iter()
                .copied()
                .filter(|id| !existing.contains(id))
                .collect();
            views.visible_quoted = self.visibility.visible_statuses(viewer, &existing).await?;
        }
        Ok(views)
    }

    /// `me`'s status `status_id` (404 when `me` may not see it, 403 when it is someone
    /// else's).
    async fn own_status(&self, me: &AccountRecord, status_id: Id) -> ApiResult<StatusRecord> {
        let status = self.visibility.visible_status(Some(me), status_id).await?;
        if status.account_id != me.id {
            return Err(ApiError::forbidden());
        }
        Ok(status)
    }

    /// The statuses that quote `me`'s status `status_id` with an accepted quote, newest quote
    /// first, paged on the quotes' ids, without those `me` may not see; with the first and
    /// last quote ids of the page (the cursors of its `Link` header).
    pub async fn quotes_of(
        &self,
        me: &AccountRecord,
        status_id: Id,
        page: Page,
    ) -> ApiResult<(Vec<StatusRecord>, Option<Id>, Option<Id>)> {
        let status = self.own_status(me, status_id).await?;
        let Some(store) = self.store.quotes() else {
            return Ok((vec![], None, None));
        };
        let quotes = store.accepted_quotes_of(status.id, page).await?;
        let first = quotes.first().map(|q| q.id);
        let last = quotes.last().map(|q| q.id);
        let ids: Vec<Id> = quotes.iter().map(|q| q.status_id).collect();
        let visible = self.visibility.visible_statuses(Some(me), &ids).await?;
        Ok((visible, first, last))
    }

    /// `me` withdraws their approval of the quote that `quoting_status_id` makes of `me`'s
    /// status `status_id`: an accepted quote becomes revoked, a pending one rejected. 404 when
    /// that status does not quote it. Answers the quote as changed.
    pub async fn revoke(
        &self,
        me: &AccountRecord,
        status_id: Id,
        quoting_status_id: Id,
    ) -> ApiResult<QuoteRecord> {
        let status = self.own_status(me, status_id).await?;
        let store = self.quote_store()?;
        let Some(mut quote) = store
            .quotes_of_statuses(&[quoting_status_id])
            .await?
            .into_iter()
            .find(|q| q.quoted_status_id == Some(status.id))
        else {
            return Err(ApiError::not_found());
        };
        let next = match quote.state {
            QuoteState::Accepted => QuoteState::Revoked,
            QuoteState::Revoked => QuoteState::Revoked,
            _ => QuoteState::Rejected,
        };
        if next != quote.state {
            let was_accepted = quote.state == QuoteState::Accepted;
            quote.state = next;
            quote.updated_at = self.now;
            store.update_quote(&quote).await?;
            // A remote account's quote: its server is told the authorization is gone.
            if was_accepted && let Some(outbox) = &self.outbox {
                outbox.quote_revoked(&quote).await?;
            }
        }
        Ok(quote)
    }

    /// Sets the quote approval policy of `me`'s status `status_id` (`public`, `followers` or
    /// `nobody`; 422 otherwise; a followers-only or direct status keeps `nobody`). 404 when
    /// `me` may not see the status, 403 when it is someone else's. Answers the status.
    pub async fn set_policy(
        &self,
        me: &AccountRecord,
        status_id: Id,
        policy: Option<&str>,
    ) -> ApiResult<StatusRecord> {
        let status = self.own_status(me, status_id).await?;
        let bits = policy
            .filter(|p| !p.is_empty())
            .and_then(QuotePolicyBits::from_setting)
            .ok_or_else(|| {
                ApiError::invalid_field(
                    "quote_approval_policy",
                    "ERR_INCLUSION",
                    "Quote approval policy is not included in the list",
                )
            })?;
        if status.reblog_of_id.is_some() {
            return Err(ApiError::forbidden());
        }
        self.quote_store()?
            .set_quote_policy(status.id, effective_policy(status.visibility, bits))
            .await?;
        // Other servers learn the policy from the note, sent again.
        if let Some(outbox) = &self.outbox {
            outbox.note_refreshed(&status).await?;
        }
        Ok(status)
    }
}

impl Quotes<'_> {
    /// The accepted quote `id` of one of `owner`'s statuses, with the quoting status, as its
    /// `QuoteAuthorization` document shows it to `signer` (anyone when `None`): 404 unless the
    /// quote is accepted, quotes a status of `owner`, and its quoting status is visible.
    pub async fn authorization(
        &self,
        owner: &AccountRecord,
        id: Id,
        signer: Option<&AccountRecord>,
    ) -> ApiResult<(QuoteRecord, StatusRecord)> {
        let store = self.store.quotes().ok_or_else(ApiError::not_found)?;
        let quote = store
            .quote_by_id(id)
            .await?
            .filter(|q| q.state == QuoteState::Accepted && q.quoted_account_id == Some(owner.id))
            .ok_or_else(ApiError::not_found)?;
        let status = self
            .visibility
            .visible_status(signer, quote.status_id)
            .await?;
        Ok((quote, status))
    }
}

/// The policy a status of `visibility` keeps when `asked` is asked for: followers-only and
/// direct statuses can be quoted by nobody but their author (Mastodon downgrades them).
pub fn effective_policy(visibility: Visibility, asked: QuotePolicyBits) -> QuotePolicyBits {
    match visibility {
        Visibility::Public | Visibility::Unlisted => asked,
        Visibility::Private | Visibility::Direct => QuotePolicyBits::NOBODY,
    }
}
