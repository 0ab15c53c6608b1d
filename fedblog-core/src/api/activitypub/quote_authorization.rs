//! `GET /users/:username/quote_authorizations/:id`: the `QuoteAuthorization` (FEP-044f) by which
//! a local account approved a quote of one of its statuses, as other servers fetch it to verify
//! a quote post. Only accepted quotes whose quoting status the requester may see are served;
//! anything else is a 404, as Mastodon answers.

use http::Method;
use serde::Deserialize;
use serde_json::json;

use super::{local_account, require_signed_fetch};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, BodyKind, Endpoint, Negotiated, path_id};
use crate::error::{ApiError, ApiResult};
use crate::federation::paths;

/// A quote authorization document.
pub struct QuoteAuthorization;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct QuoteAuthorizationPath {
    /// The quoted account's username (path).
    pub username: String,
    /// The quote's id (path).
    pub id: String,
}

impl Endpoint for QuoteAuthorization {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/users/:username/quote_authorizations/:id";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = QuoteAuthorizationPath;
    type Response = Negotiated;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: QuoteAuthorizationPath,
    ) -> ApiResult<Negotiated> {
        let owner = local_account(app, &r.username).await?;
        let signer = require_signed_fetch(app, caller, &owner).await?;
        let id = path_id(&r.id).map_err(|_| ApiError::not_found())?;
        let (quote, quoting) = app
            .quotes()
            .authorization(&owner, id, signer.as_ref())
            .await?;
        let base = app.base_url();
        let actor = paths::account_actor(&base, &owner);
        let quoting_author = app
            .store
            .account_by_id(quoting.account_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let quoting_uri = quoting
            .uri
            .clone()
            .unwrap_or_else(|| paths::status(&base, &quoting_author.username, quoting.id));
        let target = quote.quoted_status_id.ok_or_else(ApiError::not_found)?;
        let doc = json!({
            "@context": [
                "https://www.w3.org/ns/activitystreams",
                {
                    "QuoteAuthorization": "https://w3id.org/fep/044f#QuoteAuthorization",
                    "gts": "https://gotosocial.org/ns#",
                    "interactingObject": {"@id": "gts:interactingObject", "@type": "@id"},
                    "interactionTarget": {"@id": "gts:interactionTarget", "@type": "@id"}
                }
            ],
            "id": format!("{actor}/quote_authorizations/{}", quote.id),
            "type": "QuoteAuthorization",
            "attributedTo": actor,
            "interactingObject": quoting_uri,
            "interactionTarget": paths::status(&base, &owner.username, target),
        });
        Ok(Negotiated::Activity(doc.to_string()))
    }
}
