//! `GET /users/:username/statuses/:id/activity`: the activity that published a public or
//! unlisted local status, as JSON-LD: its `Create` (the note embedded), or the `Announce` of a
//! reblog, built as the outbox delivers them. Private and direct statuses are 404s, and so is
//! a status that is not the named account's. Under authorized fetch, only to a signed request
//! from someone the author does not block.

use http::Method;

use super::{StatusPath, local_account, require_signed_fetch};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated};
use crate::error::{ApiError, ApiResult};
use crate::services::outbox::Outgoing;
use crate::store::{StatusRecord, Visibility};

/// A status's `Create` or `Announce`.
pub struct StatusActivity;

/// The public or unlisted local status a path names (404 otherwise), after the authorized
/// fetch check of its author; shared with the likes and shares collections.
pub(super) async fn public_status(
    app: &App,
    caller: &Caller,
    p: &StatusPath,
) -> ApiResult<StatusRecord> {
    let account = local_account(app, &p.username).await?;
    require_signed_fetch(app, caller, &account).await?;
    let id = p.id.parse().map_err(|_| ApiError::not_found())?;
    app.store
        .status_by_id(id)
        .await?
        .filter(|s| {
            s.account_id == account.id
                && s.local
                && matches!(s.visibility, Visibility::Public | Visibility::Unlisted)
        })
        .ok_or_else(ApiError::not_found)
}

impl Endpoint for StatusActivity {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/statuses/:id/activity";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = StatusPath;
    type Response = Negotiated;

    async fn handle(app: &App, caller: &Caller, r: StatusPath) -> ApiResult<Negotiated> {
        let status = public_status(app, caller, &r).await?;
        let outgoing = match status.reblog_of_id {
            Some(_) => Outgoing::Announce { reblog: status.id },
            None => Outgoing::Create { status: status.id },
        };
        let (_, activity) = app
            .render_outgoing(&outgoing)
            .await?
            .ok_or_else(ApiError::not_found)?;
        Ok(Negotiated::Activity(activity.to_string()))
    }
}
