//! ActivityPub: our actors, statuses and their collections as other servers read them (and as
//! HTML pages for browsers at the same URLs), and the inboxes other servers deliver to. Under
//! authorized fetch ("secure mode") the documents need a signature, decided in one place
//! (`fetch_access`).
//! <https://docs.joinmastodon.org/spec/activitypub/>
pub mod actor;
pub mod context;
pub mod context_items;
pub mod featured;
pub mod featured_tags;
pub mod followers;
pub mod followers_synchronization;
pub mod following;
pub mod inbox;
pub mod instance_actor;
pub mod instance_inbox;
pub mod instance_outbox;
pub mod note;
pub mod outbox;
pub mod profile_page;
pub mod quote_authorization;
pub mod replies;
pub mod shared_inbox;
pub mod status_activity;
pub mod status_embed;
pub mod status_likes;
pub mod status_page;
pub mod status_shares;

#[cfg(test)]
mod authorized_fetch_tests;
#[cfg(test)]
mod contexts_tests;

use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Html, Negotiated};
use crate::error::{ApiError, ApiResult};
use crate::federation::vocab::wants_activity_json;
use crate::params::de;
use crate::services::federation_runner::Collection;
use crate::store::AccountRecord;

/// An account's URL: its username.
#[derive(Debug, Deserialize)]
pub struct AccountPath {
    /// The local username.
    pub username: String,
}

/// A status's URL: its author's username and its id.
#[derive(Debug, Deserialize)]
pub struct StatusPath {
    /// The author's username.
    pub username: String,
    /// The status id.
    pub id: String,
}

/// A collection's URL: the account, and the page asked for (`?page=true`, then `max_id`).
#[derive(Debug, Deserialize)]
pub struct CollectionPath {
    /// The local username.
    pub username: String,
    /// Any value asks for the first page.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub page: Option<String>,
    /// A later page: items older than this.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub max_id: Option<String>,
}

/// Whether the request asks for ActivityStreams JSON rather than a page.
fn wants_json(caller: &Caller) -> bool {
    let accept = caller
        .info
        .raw
        .as_ref()
        .and_then(|raw| raw.header("accept"));
    wants_activity_json(accept)
}

/// The local account a path names, suspended or not: 404 when unknown. Its actor and its
/// inbox answer for a suspended account too, as Mastodon's do.
async fn any_local_account(app: &App, username: &str) -> ApiResult<AccountRecord> {
    if username.is_empty() || username.contains(['@', '/']) {
        return Err(ApiError::not_found());
    }
    app.store
        .account_by_username(username, None)
        .await?
        .filter(AccountRecord::is_local)
        .ok_or_else(ApiError::not_found)
}

/// The local account a path names: 404 when unknown, 403 when suspended, as Mastodon answers
/// for the documents of an account suspended reversibly (its `temporary_suspension_response`:
/// they are kept, and served again if the suspension is lifted). Its actor says it is
/// suspended (see [`actor_or_page`]).
async fn local_account(app: &App, username: &str) -> ApiResult<AccountRecord> {
    let account = any_local_account(app, username).await?;
    if account.is_suspended() {
        return Err(ApiError::forbidden());
    }
    Ok(account)
}

/// What authorized fetch makes of an ActivityPub GET of `owner`'s documents.
enum FetchAccess {
    /// Authorized fetch is off: served to anyone, as before.
    Open,
    /// A verified signer that `owner` does not block, nor whose server `owner` blocks.
    Signer(Box<AccountRecord>),
    /// Refused, with the answer to give: 401 for an unsigned or badly signed request, 404 for
    /// a signer `owner` blocks.
    Refused(ApiError),
}

/// Authorized fetch ("secure mode", [`crate::config::InstanceConfig::authorized_fetch`]), the
/// one place it is decided: with it off, anyone ([`FetchAccess::Open`]); on, only a request
/// whose HTTP signature verifies (draft-cavage or RFC 9421, the signer's key fetched if need
/// be) and whose signer `owner` neither blocks nor has blocked the server of, as Mastodon's
/// `require_account_signature!` and its block checks do. Only a failure of ours is an `Err`;
/// a bad signature is a refusal, never a 500.
async fn fetch_access(app: &App, caller: &Caller, owner: &AccountRecord) -> ApiResult<FetchAccess> {
    if !app.config.authorized_fetch {
        return Ok(FetchAccess::Open);
    }
    let signer = match signer_of(app, caller).await {
        Ok(Some(signer)) => signer,
        Ok(None) => {
            return Ok(FetchAccess::Refused(ApiError::new(
                http::StatusCode::UNAUTHORIZED,
                "Request not signed",
            )));
        }
        Err(e) if e.status.is_server_error() => return Err(e),
        Err(e) => return Ok(FetchAccess::Refused(e)),
    };
    if blocks_signer(app, owner, &signer).await? {
        return Ok(FetchAccess::Refused(ApiError::not_found()));
    }
    Ok(FetchAccess::Signer(Box::new(signer)))
}

/// [`fetch_access`] for a document that is refused rather than reduced (statuses,
/// collections): the signer, if authorized fetch asked for one, or the refusal.
async fn require_signed_fetch(
    app: &App,
    caller: &Caller,
    owner: &AccountRecord,
) -> ApiResult<Option<AccountRecord>> {
    match fetch_access(app, caller, owner).await? {
        FetchAccess::Open => Ok(None),
        FetchAccess::Signer(signer) => Ok(Some(*signer)),
        FetchAccess::Refused(e) => Err(e),
    }
}

/// The verified signer of a request, `None` when it is not signed; 401 when its signature does
/// not verify.
async fn signer_of(app: &App, caller: &Caller) -> ApiResult<Option<AccountRecord>> {
    let Some(raw) =
        caller.info.raw.as_ref().filter(|raw| {
            raw.header("signature").is_some() || raw.header("signature-input").is_some()
        })
    else {
        return Ok(None);
    };
    app.federation().authenticate(raw).await.map(Some)
}

/// Whether `owner` blocks `signer`, or the server `signer` is on (a user domain block).
async fn blocks_signer(
    app: &App,
    owner: &AccountRecord,
    signer: &AccountRecord,
) -> ApiResult<bool> {
    if app.store.blocks(owner.id, signer.id).await? {
        return Ok(true);
    }
    match &signer.domain {
        Some(domain) => Ok(app
            .store
            .domain_blocked(owner.id, &domain.to_ascii_lowercase())
            .await?),
        None => Ok(false),
    }
}

/// The members of an actor served when authorized fetch refuses the full one: what verifying
/// its signatures and reaching its inbox need, as Mastodon's `restrict_fields_to` keeps (`id`,
/// `type`, `preferredUsername`, `inbox`, `publicKey`, `endpoints`), with `outbox`, which
/// ActivityPub requires of every actor.
const MINIMAL_ACTOR: [&str; 8] = [
    "@context",
    "id",
    "type",
    "preferredUsername",
    "inbox",
    "outbox",
    "publicKey",
    "endpoints",
];

/// `actor` reduced to [`MINIMAL_ACTOR`].
fn minimal_actor(actor: serde_json::Value) -> serde_json::Value {
    match actor {
        serde_json::Value::Object(members) => serde_json::Value::Object(
            members
                .into_iter()
                .filter(|(k, _)| MINIMAL_ACTOR.contains(&k.as_str()))
                .collect(),
        ),
        other => other,
    }
}

/// An actor as JSON or as its profile page. Under authorized fetch, a request that is not
/// signed (or badly signed, or by someone the account blocks) gets the minimal actor: its key
/// must stay public, or servers that fetch keys unsigned could not verify what it sends. A
/// suspended account's actor is served, saying `suspended: true` without its profile, as
/// Mastodon serves it (so that other servers suspend their copy, and can still verify the
/// `Update` that lifts it); its page is a 403, as Mastodon's.
async fn actor_or_page(app: &App, caller: &Caller, username: &str) -> ApiResult<Negotiated> {
    let account = any_local_account(app, username).await?;
    if account.is_suspended() && !wants_json(caller) {
        return Err(ApiError::forbidden());
    }
    if wants_json(caller) {
        let actor = app.local_actor_document(&account).await?;
        let actor = match fetch_access(app, caller, &account).await? {
            FetchAccess::Refused(_) => minimal_actor(actor),
            FetchAccess::Open | FetchAccess::Signer(_) => actor,
        };
        Ok(Negotiated::Activity(actor.to_string()))
    } else {
        Ok(Negotiated::Page(Html(
            http::StatusCode::OK,
            app.render_profile_page(&account),
        )))
    }
}

/// One of an account's collections, always as JSON; under authorized fetch only to a signer
/// the account does not block (see [`fetch_access`]).
async fn collection_document(
    app: &App,
    caller: &Caller,
    r: &CollectionPath,
    which: Collection,
) -> ApiResult<Negotiated> {
    let account = local_account(app, &r.username).await?;
    require_signed_fetch(app, caller, &account).await?;
    let doc = app
        .render_ap_collection(which, &account, r.page.is_some(), r.max_id.as_deref())
        .await?;
    Ok(Negotiated::Activity(doc.to_string()))
}

/// A local status as a note or as its page. Public and unlisted ones are served to anyone; a
/// followers-only or direct one only as a note to a request signed by an account that may see
/// it (a follower, someone mentioned); anything else is a 404. Under authorized fetch the note
/// (never the page) needs a signature from someone the author does not block, checked before
/// the status is looked up so that an unsigned request learns nothing of which ids exist.
async fn note_or_page(app: &App, caller: &Caller, p: &StatusPath) -> ApiResult<Negotiated> {
    let account = local_account(app, &p.username).await?;
    let json = wants_json(caller);
    let signer = if json {
        require_signed_fetch(app, caller, &account).await?
    } else {
        None
    };
    let id = p.id.parse().map_err(|_| ApiError::not_found())?;
    let parts = app
        .note_parts(id)
        .await?
        .filter(|n| n.author.id == account.id && n.status.local && n.status.reblog_of_id.is_none())
        .ok_or_else(ApiError::not_found)?;
    let public = matches!(
        parts.status.visibility,
        crate::store::Visibility::Public | crate::store::Visibility::Unlisted
    );
    if !public {
        if !json {
            return Err(ApiError::not_found());
        }
        let signer = match signer {
            Some(signer) => signer,
            None => signer_of(app, caller)
                .await?
                .ok_or_else(ApiError::not_found)?,
        };
        app.visibility().visible_status(Some(&signer), id).await?;
    }
    if json {
        Ok(Negotiated::Activity(
            app.render_ap_note_document(&parts).to_string(),
        ))
    } else {
        Ok(Negotiated::Page(Html(
            http::StatusCode::OK,
            app.render_status_page(&parts),
        )))
    }
}
