//! Quote posts across servers (FEP-044f, as Mastodon 4.5 federates them): what a local note
//! says of its quote and of who may quote it; the `QuoteRequest`, `Accept`, `Reject`, `Delete`
//! (of an authorization) and `Update` that go out; and, coming in, quote requests of local
//! posts, the answers to ours, revoked authorizations, and the quotes remote notes make.
//!
//! Who may do what: only the quoted author answers or revokes a quote of their post; a quote
//! request is taken for the signer's own note only (an embedded note attributed to someone
//! else is fetched from its origin, never trusted); private and direct posts are never quotable
//! by others; a request from an account the quoted author blocks (or whose server they block),
//! or one we suspended, is rejected.

use http::StatusCode;
use serde_json::{Value, json};

use super::{ThreadReach, forbidden, gone_is_none};
use crate::app::App;
use crate::error::ApiResult;
use crate::federation::paths;
use crate::federation::vocab::{self, Activity, Note, QuoteDoc};
use crate::id::Id;
use crate::services::outbox::Outgoing;
use crate::services::quotes::QuotePermission;
use crate::store::{AccountRecord, QuotePolicyBits, QuoteRecord, QuoteState, StatusRecord};

/// What a `QuoteAuthorization` fetched to check a remote quote said.
enum Authorization {
    /// It approves this quote.
    Valid,
    /// It is gone (404 or 410): the quote is not approved.
    Gone,
    /// It could not be read, or approves something else: the quote stays as it was.
    Unproven,
}

/// The quote parts of a remote note, read before the note is consumed.
#[derive(Clone, Debug, Default)]
pub(crate) struct NoteQuote {
    /// The id of the post it quotes.
    pub quoted: Option<String>,
    /// The id of the authorization it claims.
    pub authorization: Option<String>,
    /// Who may quote it, as said (automatic and manual approval).
    pub can_quote: Option<(Vec<String>, Vec<String>)>,
}

impl NoteQuote {
    /// The quote parts of `note`.
    pub(crate) fn of(note: &Note) -> Self {
        NoteQuote {
            quoted: note.quote.clone(),
            authorization: note.quote_authorization.clone(),
            can_quote: note.can_quote.clone(),
        }
    }
}

/// Whether `a` and `b` are URLs on the same host.
fn same_host(a: &str, b: &str) -> bool {
    match (paths::host_of(a), paths::host_of(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

impl App {
    /// What the note of `status` (by `author`) says of quotes: the post it quotes, with the
    /// authorization once accepted (ours for a local quoted post, the one its server gave for
    /// a remote one); and, for a local status, who may quote it with automatic approval (the
    /// public, the author's followers or following, else only the author).
    pub(super) async fn note_quote_parts(
        &self,
        status: &StatusRecord,
        author: &AccountRecord,
    ) -> ApiResult<(Option<QuoteDoc>, Option<Vec<String>>)> {
        let Some(store) = self.store.quotes() else {
            return Ok((None, None));
        };
        let base = self.base_url();
        let can_quote = if status.local && status.reblog_of_id.is_none() {
            let actor = self.actor_uri(author);
            let policy = store
                .quote_policies(&[status.id])
                .await?
                .into_iter()
                .next()
                .map(|(_, p)| p)
                .unwrap_or(QuotePolicyBits::NOBODY);
            let automatic = policy.automatic();
            let mut approved = vec![];
            if automatic & QuotePolicyBits::PUBLIC != 0 {
                approved.push(vocab::PUBLIC.to_string());
            }
            if automatic & QuotePolicyBits::FOLLOWERS != 0 {
                approved.push(paths::followers(&actor));
            }
            if automatic & QuotePolicyBits::FOLLOWING != 0 {
                approved.push(paths::following(&actor));
            }
            if approved.is_empty() {
                approved.push(actor);
            }
            Some(approved)
        } else {
            None
        };
        let Some(quote) = store.quotes_of_statuses(&[status.id]).await?.pop() else {
            return Ok((None, can_quote));
        };
        let quoted_status = match quote.quoted_status_id {
            Some(id) => self.store.status_by_id(id).await?,
            None => None,
        };
        let quoted_author = match quote.quoted_account_id {
            Some(id) => self.store.account_by_id(id).await?,
            None => None,
        };
        let quoted = match (&quoted_status, &quoted_author, quote.quoted_status_id) {
            (Some(s), _, _) => self.status_uri(s).await?,
            // A local post deleted since: its id still names it.
            (None, Some(a), Some(id)) if a.is_local() => {
                Some(paths::status(&base, &a.username, id))
            }
            _ => None,
        };
        let authorization = match (&quoted_author, quote.state) {
            (Some(a), QuoteState::Accepted) if a.is_local() => {
                Some(paths::quote_authorization(&self.actor_uri(a), quote.id))
            }
            (_, QuoteState::Accepted) => quote.approval_uri.clone(),
            _ => None,
        };
        Ok((
            Some(QuoteDoc {
                quoted,
                authorization,
            }),
            can_quote,
        ))
    }

    /// The signer and JSON of an outgoing quote activity; `None` when what it is about is
    /// gone, or (an answer) no longer holds.
    pub(super) async fn render_quote_outgoing(
        &self,
        activity: &Outgoing,
    ) -> ApiResult<Option<(Id, Value)>> {
        let quote_of = |id: Id| async move {
            match self.store.quotes() {
                Some(store) => store.quote_by_id(id).await,
                None => Ok(None),
            }
        };
        Ok(match activity {
            Outgoing::QuoteRequest { quote } => {
                let Some(q) = quote_of(*quote).await? else {
                    return Ok(None);
                };
                let (Some(parts), Some(quoted_id)) =
                    (self.note_parts(q.status_id).await?, q.quoted_status_id)
                else {
                    return Ok(None);
                };
                let Some(quoted) = self.store.status_by_id(quoted_id).await? else {
                    return Ok(None);
                };
                let Some(object) = self.status_uri(&quoted).await? else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&parts.author);
                let id = q
                    .activity_uri
                    .clone()
                    .unwrap_or_else(|| paths::activity(&actor, "quote_requests", q.id));
                let note = self.render_ap_note(&parts).to_json(false);
                let value = json!({
                    "@context": vocab::note_context(),
                    "id": id,
                    "type": "QuoteRequest",
                    "actor": actor,
                    "object": object,
                    "instrument": note,
                });
                Some((parts.author.id, value))
            }
            Outgoing::AcceptQuote { quote } => {
                let Some(q) = quote_of(*quote).await? else {
                    return Ok(None);
                };
                let (Some(request), QuoteState::Accepted, Some(author_id)) =
                    (q.activity_uri.clone(), q.state, q.quoted_account_id)
                else {
                    return Ok(None);
                };
                let (Some(author), Some(requester)) = (
                    self.store.account_by_id(author_id).await?,
                    self.store.account_by_id(q.account_id).await?,
                ) else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&author);
                let value = json!({
                    "@context": vocab::note_context(),
                    "id": paths::activity(&actor, "quote_accepts", q.id),
                    "type": "Accept",
                    "actor": actor,
                    "to": [self.actor_uri(&requester)],
                    "object": request,
                    "result": paths::quote_authorization(&actor, q.id),
                });
                Some((author.id, value))
            }
            Outgoing::RejectQuote { author, request } => {
                let Some(author) = self.store.account_by_id(*author).await? else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&author);
                let value = json!({
                    "@context": vocab::note_context(),
                    "id": paths::activity(&actor, "quote_rejects", self.ids.next()),
                    "type": "Reject",
                    "actor": actor,
                    "object": request,
                });
                Some((author.id, value))
            }
            Outgoing::RevokeQuote { quote } => {
                let Some(q) = quote_of(*quote).await? else {
                    return Ok(None);
                };
                let Some(author_id) = q.quoted_account_id else {
                    return Ok(None);
                };
                let Some(author) = self.store.account_by_id(author_id).await? else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&author);
                let authorization = paths::quote_authorization(&actor, q.id);
                let value = json!({
                    "@context": vocab::note_context(),
                    "id": format!("{authorization}#delete"),
                    "type": "Delete",
                    "actor": actor,
                    "object": authorization,
                });
                Some((author.id, value))
            }
            Outgoing::RefreshNote { status } => {
                let Some(parts) = self.note_parts(*status).await? else {
                    return Ok(None);
                };
                let note = self.render_ap_note(&parts);
                let value = vocab::activity(
                    &format!("{}#updates/quotes/{}", note.id, self.ids.next()),
                    "Update",
                    &note.attributed_to,
                    note.to_json(false),
                    &note.to,
                    &note.cc,
                    None,
                );
                Some((parts.author.id, value))
            }
            _ => None,
        })
    }

    /// An `Accept` or `Reject` of one of our `QuoteRequest`s (its object, by id or embedded):
    /// accepted, the quote takes the authorization given as `result` (on the signer's server)
    /// and its note goes again to its audience; rejected, it is rejected (revoked, had it been
    /// accepted). Only the quoted author may answer. `false` when the object is not a quote
    /// request of ours (a follow, then).
    pub(super) async fn receive_quote_answer(
        &self,
        signer: &AccountRecord,
        activity: &Activity,
        accepted: bool,
    ) -> ApiResult<bool> {
        let kind = activity.object_kind();
        if kind.as_deref().is_some_and(|k| k != "QuoteRequest") {
            return Ok(false);
        }
        let (Some(store), Some(request)) = (self.store.quotes(), activity.object_id()) else {
            return Ok(kind.is_some());
        };
        let Some(mut quote) = store.quote_by_activity_uri(&request).await? else {
            return Ok(kind.is_some());
        };
        let quoting_author = self.store.account_by_id(quote.account_id).await?;
        if !quoting_author.is_some_and(|a| a.is_local()) {
            return Ok(true);
        }
        if quote.quoted_account_id != Some(signer.id) {
            return Err(forbidden(
                "Only the quoted author may answer a quote request",
            ));
        }
        let signer_uri = signer.uri.clone().unwrap_or_default();
        if accepted {
            let Some(result) = activity.result.clone() else {
                return Ok(true);
            };
            if !same_host(&result, &signer_uri) || quote.state != QuoteState::Pending {
                return Ok(true);
            }
            quote.state = QuoteState::Accepted;
            quote.approval_uri = Some(result);
        } else {
            quote.state = match quote.state {
                QuoteState::Accepted | QuoteState::Revoked => QuoteState::Revoked,
                _ => QuoteState::Rejected,
            };
        }
        quote.updated_at = self.now();
        store.update_quote(&quote).await?;
        if accepted && let Some(status) = self.store.status_by_id(quote.status_id).await? {
            self.outbox().note_refreshed(&status).await?;
        }
        Ok(true)
    }

    /// A `Delete` of `id`: when it is the authorization of an accepted quote, the quote is
    /// revoked (only the quoted author may). `false` when no quote has that authorization.
    pub(super) async fn receive_authorization_delete(
        &self,
        signer: &AccountRecord,
        id: &str,
    ) -> ApiResult<bool> {
        let Some(store) = self.store.quotes() else {
            return Ok(false);
        };
        let Some(mut quote) = store.quote_by_approval_uri(id).await? else {
            return Ok(false);
        };
        if quote.quoted_account_id != Some(signer.id) {
            return Err(forbidden("Only the quoted author may revoke a quote"));
        }
        if quote.state == QuoteState::Accepted {
            quote.state = QuoteState::Revoked;
            quote.updated_at = self.now();
            store.update_quote(&quote).await?;
        }
        Ok(true)
    }

    /// A `QuoteRequest` (FEP-044f) from `signer`: when its object is a local post, the quoting
    /// note (its `instrument`) is stored and its quote recorded, then accepted when the post's
    /// policy approves the signer automatically (an `Accept` with our authorization goes
    /// back, and the author is told), rejected otherwise (a `Reject` goes back; Mastodon 4.5
    /// rejects what would need a manual review too).
    pub(super) async fn receive_quote_request(
        &self,
        signer: &AccountRecord,
        activity: &Activity,
    ) -> ApiResult<()> {
        let (Some(request), Some(object)) = (activity.id.clone(), activity.object_id()) else {
            return Ok(());
        };
        let signer_uri = signer.uri.clone().unwrap_or_default();
        if !same_host(&request, &signer_uri) {
            return Ok(());
        }
        let quoted = match paths::parse_local(&self.base_url(), &object) {
            Some(paths::Local::Status(id)) => self.store.status_by_id(id).await?,
            _ => None,
        };
        let Some(quoted) = quoted.filter(|s| s.local) else {
            return Ok(());
        };
        let Some(author) = self.store.account_by_id(quoted.account_id).await? else {
            return Ok(());
        };
        let outbox = self.outbox();
        let reject = || outbox.quote_request_rejected(author.id, signer.id, &request);
        let Some(store) = self.store.quotes() else {
            return reject().await;
        };
        let refused = signer.is_suspended()
            || author.is_suspended()
            || self.store.blocks(author.id, signer.id).await?
            || match signer.domain.as_deref() {
                Some(domain) => self.store.domain_blocked(author.id, domain).await?,
                None => false,
            };
        let Some(instrument) = vocab::id_of(&activity.instrument) else {
            return reject().await;
        };
        if refused {
            return reject().await;
        }
        let Some(status) = self
            .quoting_note(signer, &activity.instrument, &instrument)
            .await?
            .filter(|s| s.account_id == signer.id)
        else {
            return reject().await;
        };
        let quotes = self.quotes();
        let policy = quotes.policy_of(quoted.id).await?;
        let permission = quotes.permission(Some(signer), &quoted, policy).await?;
        let accept = permission == QuotePermission::Automatic;
        let state = if accept {
            QuoteState::Accepted
        } else {
            QuoteState::Rejected
        };
        let now = self.now();
        let existing = store.quotes_of_statuses(&[status.id]).await?.pop();
        let (quote, newly_accepted) = match existing {
            // The note quotes another post: not the quote asked about.
            Some(q) if q.quoted_status_id.is_some() && q.quoted_status_id != Some(quoted.id) => {
                return reject().await;
            }
            Some(mut q) => {
                let newly = accept && q.state != QuoteState::Accepted;
                q.quoted_status_id = Some(quoted.id);
                q.quoted_account_id = Some(author.id);
                q.state = state;
                q.activity_uri = Some(request.clone());
                q.updated_at = now;
                store.update_quote(&q).await?;
                (q, newly)
            }
            None => {
                let q = QuoteRecord {
                    id: self.ids.next_at(now.timestamp_millis()),
                    status_id: status.id,
                    account_id: signer.id,
                    quoted_status_id: Some(quoted.id),
                    quoted_account_id: Some(author.id),
                    state,
                    activity_uri: Some(request.clone()),
                    approval_uri: None,
                    created_at: now,
                    updated_at: now,
                };
                store.insert_quote(&q).await?;
                (q, accept)
            }
        };
        if !accept {
            return reject().await;
        }
        outbox.quote_accepted(&quote).await?;
        if newly_accepted {
            self.notifications()
                .notify_quote(signer, &status, author.id)
                .await?;
        }
        Ok(())
    }

    /// The quoting note a `QuoteRequest` names (`instrument`, by id `uri` or embedded): the
    /// one here already; else the embedded one when it is `signer`'s own, on its server;
    /// else the one fetched from its origin. `None` when it cannot be had.
    async fn quoting_note(
        &self,
        signer: &AccountRecord,
        instrument: &Value,
        uri: &str,
    ) -> ApiResult<Option<StatusRecord>> {
        if let Some(known) = self.store.status_by_uri(uri).await? {
            return Ok(Some(known));
        }
        let signer_uri = signer.uri.clone().unwrap_or_default();
        if instrument.is_object()
            && let Ok(note) = Note::from_json(instrument)
            && note.attributed_to == signer_uri
            && same_host(&note.id, &signer_uri)
        {
            return self
                .store_remote_note(signer, note, ThreadReach::Delivered)
                .await
                .map(Some);
        }
        match gone_is_none(
            self.fetch_remote_note(uri, ThreadReach::Fetched { depth: 0 })
                .await,
        ) {
            Ok(found) => Ok(found),
            Err(e) => {
                tracing::info!(note = %uri, error = %e.message, "cannot fetch a quoting note");
                Ok(None)
            }
        }
    }

    /// Records the quote the remote note of `status` (by `author`) makes, as `quote` says it
    /// (nothing when it quotes nothing). The quoted post is the one here, else (with `fetch`)
    /// the one fetched. A self-quote is accepted; a quote of a local post stays pending (our
    /// approval comes by a `QuoteRequest`); a quote of a remote post is accepted when its
    /// `quoteAuthorization`, fetched, approves it, rejected when that is gone, pending
    /// otherwise. A quote already decided stays as it is; a pending one is checked again (an
    /// `Update` may bring the authorization).
    pub(crate) async fn record_remote_quote(
        &self,
        author: &AccountRecord,
        status: &StatusRecord,
        quote: NoteQuote,
        fetch: bool,
    ) -> ApiResult<()> {
        let Some(store) = self.store.quotes() else {
            return Ok(());
        };
        if status.local {
            return Ok(());
        }
        if let Some((automatic, manual)) = &quote.can_quote {
            let policy = self.remote_quote_policy(author, automatic, manual).await?;
            store.set_quote_policy(status.id, policy).await?;
        }
        let Some(quoted_uri) = quote.quoted else {
            return Ok(());
        };
        let existing = store.quotes_of_statuses(&[status.id]).await?.pop();
        if existing
            .as_ref()
            .is_some_and(|q| q.state != QuoteState::Pending)
        {
            return Ok(());
        }
        let mut quoted = self.remote().status_by_uri(&quoted_uri).await?;
        if quoted.is_none() && fetch && paths::parse_local(&self.base_url(), &quoted_uri).is_none()
        {
            let reach = ThreadReach::Fetched {
                depth: super::MAX_FETCHED_ANCESTORS,
            };
            quoted = match gone_is_none(Box::pin(self.fetch_remote_note(&quoted_uri, reach)).await)
            {
                Ok(found) => found,
                Err(e) => {
                    tracing::info!(quoted = %quoted_uri, error = %e.message, "cannot fetch a quoted post");
                    None
                }
            };
        }
        let Some(quoted) = quoted else {
            return Ok(());
        };
        let (state, approval) = if quoted.account_id == author.id {
            (QuoteState::Accepted, None)
        } else if quoted.local {
            (QuoteState::Pending, None)
        } else {
            match quote.authorization {
                Some(uri) => match self.check_authorization(&uri, status, &quoted).await? {
                    Authorization::Valid => (QuoteState::Accepted, Some(uri)),
                    Authorization::Gone => (QuoteState::Rejected, None),
                    Authorization::Unproven => (QuoteState::Pending, None),
                },
                None => (QuoteState::Pending, None),
            }
        };
        let now = self.now();
        match existing {
            Some(mut q) => {
                q.quoted_status_id = Some(quoted.id);
                q.quoted_account_id = Some(quoted.account_id);
                q.state = state;
                q.approval_uri = approval;
                q.updated_at = now;
                store.update_quote(&q).await?;
            }
            None => {
                let q = QuoteRecord {
                    id: self.ids.next_at(now.timestamp_millis()),
                    status_id: status.id,
                    account_id: author.id,
                    quoted_status_id: Some(quoted.id),
                    quoted_account_id: Some(quoted.account_id),
                    state,
                    activity_uri: None,
                    approval_uri: approval,
                    created_at: now,
                    updated_at: now,
                };
                match store.insert_quote(&q).await {
                    Ok(()) | Err(crate::StoreError::AlreadyExists(_)) => {}
                    Err(e) => return Err(e.into()),
                }
            }
        }
        Ok(())
    }

    /// The quote policy a remote `author`'s note says (`interactionPolicy.canQuote`), as
    /// Mastodon 4.5 reads it: the public collection is anyone, the author's followers and
    /// following collections are those audiences, the author itself adds nothing, and
    /// anything else is an audience not understood.
    async fn remote_quote_policy(
        &self,
        author: &AccountRecord,
        automatic: &[String],
        manual: &[String],
    ) -> ApiResult<QuotePolicyBits> {
        let actor = self.store.remote_actor(author.id).await?;
        let followers = actor.as_ref().and_then(|a| a.followers.clone());
        let following = actor.as_ref().and_then(|a| a.following.clone());
        let flags = |uris: &[String]| {
            uris.iter().fold(0, |flags, uri| {
                flags
                    | if vocab::is_public(uri) {
                        QuotePolicyBits::PUBLIC
                    } else if Some(uri) == followers.as_ref() {
                        QuotePolicyBits::FOLLOWERS
                    } else if Some(uri) == following.as_ref() {
                        QuotePolicyBits::FOLLOWING
                    } else if Some(uri) == author.uri.as_ref() {
                        0
                    } else {
                        QuotePolicyBits::UNSUPPORTED
                    }
            })
        };
        Ok(QuotePolicyBits::of(flags(automatic), flags(manual)))
    }

    /// Fetches (signed) the `QuoteAuthorization` at `uri` and checks that it approves the
    /// quote `status` makes of `quoted`: a `QuoteAuthorization` on its author's server,
    /// attributed to the quoted author, whose `interactingObject` is the quoting note and
    /// `interactionTarget` the quoted one.
    async fn check_authorization(
        &self,
        uri: &str,
        status: &StatusRecord,
        quoted: &StatusRecord,
    ) -> ApiResult<Authorization> {
        let doc = match self.federation().fetch(uri).await {
            Ok(doc) => doc,
            Err(e) if e.status == StatusCode::NOT_FOUND => return Ok(Authorization::Gone),
            Err(e) => {
                tracing::info!(authorization = %uri, error = %e.message, "cannot fetch a quote authorization");
                return Ok(Authorization::Unproven);
            }
        };
        let quoted_author = match self.store.account_by_id(quoted.account_id).await? {
            Some(a) => self.actor_uri(&a),
            None => return Ok(Authorization::Unproven),
        };
        let field = |key: &str| doc.get(key).and_then(vocab::id_of);
        let valid = vocab::types_of(&doc).contains(&"QuoteAuthorization")
            && vocab::id_of(&doc).as_deref() == Some(uri)
            && field("attributedTo").as_deref() == Some(quoted_author.as_str())
            && same_host(uri, &quoted_author)
            && field("interactingObject") == status.uri
            && field("interactionTarget") == quoted.uri;
        Ok(if valid {
            Authorization::Valid
        } else {
            Authorization::Unproven
        })
    }
}
