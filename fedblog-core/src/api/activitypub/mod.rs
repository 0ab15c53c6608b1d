//! ActivityPub: our actors, statuses and their collections as other servers read them (and as
//! HTML pages for browsers at the same URLs), and the inboxes other servers deliver to.
//! <https://docs.joinmastodon.org/spec/activitypub/>
pub mod actor;
pub mod featured;
pub mod featured_tags;
pub mod followers;
pub mod following;
pub mod inbox;
pub mod instance_actor;
pub mod note;
pub mod outbox;
pub mod profile_page;
pub mod shared_inbox;
pub mod status_page;

use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Html, Negotiated};
use crate::error::{ApiError, ApiResult};
use crate::federation::vocab::wants_activity_json;
use crate::params::de;
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

/// The local account a path names: 404 when unknown, 410 when suspended.
async fn local_account(app: &App, username: &str) -> ApiResult<AccountRecord> {
    let account = app
        .webfinger()
        .resolve(&format!("acct:{username}@{}", app.config.domain))
        .await?;
    if account.is_suspended() {
        return Err(ApiError::gone());
    }
    Ok(account)
}

/// An actor as JSON or as its profile page.
async fn actor_or_page(app: &App, caller: &Caller, username: &str) -> ApiResult<Negotiated> {
    let account = local_account(app, username).await?;
    if wants_json(caller) {
        let key = app.federation().local_key(account.id).await?;
        Ok(Negotiated::Activity(
            app.render_ap_actor(&account, &key).to_string(),
        ))
    } else {
        Ok(Negotiated::Page(Html(
            http::StatusCode::OK,
            app.render_profile_page(&account),
        )))
    }
}

/// A local status as a note or as its page. Public and unlisted ones are served to anyone; a
/// followers-only or direct one only as a note to a request signed by an account that may see
/// it (a follower, someone mentioned); anything else is a 404.
async fn note_or_page(app: &App, caller: &Caller, p: &StatusPath) -> ApiResult<Negotiated> {
    let account = local_account(app, &p.username).await?;
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
        let signed = caller.info.raw.as_ref().filter(|raw| {
            raw.header("signature").is_some() || raw.header("signature-input").is_some()
        });
        let (Some(raw), true) = (signed, wants_json(caller)) else {
            return Err(ApiError::not_found());
        };
        let signer = app.federation().authenticate(raw).await?;
        app.visibility().visible_status(Some(&signer), id).await?;
    }
    if wants_json(caller) {
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
