//! `POST /api/v1/follows`: Follow an account by address (`user`, `@user`, `user@domain`); succeeds without error when already following.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::params::de;

/// Follow an account by address: `uri` is `user`, `@user`, `user@domain` or `acct:user@domain`,
/// where this server's domain means a local account and another domain a remote account, looked
/// up on its server (WebFinger) when this server federates; or the URL of an actor or profile
/// (`https://host/users/name`, `https://host/@name`), fetched when it is another server's. Unknown: 404; blank: 422. Succeeds without error when
/// already following (the follow's options stay); a locked account gets a request. Answers the
/// followed Account.
pub struct FollowByUri;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FollowByUriRequest {
    /// The address of the account to follow.
    #[serde(deserialize_with = "de::opt_string")]
    pub uri: Option<String>,
}

impl Endpoint for FollowByUri {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/follows";
    const AUTH: Auth = Auth::User("write:follows");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[crate::rate_limit::Family::Follows];
    type Request = FollowByUriRequest;
    type Response = Json<Account>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: FollowByUriRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let given = r.uri.as_deref().unwrap_or("").trim();
        if given.starts_with("https://") || given.starts_with("http://") {
            let target = app.federation().account_at_url(given).await?;
            let target = app
                .relationships()
                .follow(me, target.id, Default::default())
                .await?;
            return Ok(Json(app.render_account(&target)));
        }
        // A handle on another server is looked up there first (WebFinger, then its actor).
        let acct = given;
        let acct = acct
            .strip_prefix("acct:")
            .unwrap_or(acct)
            .trim_start_matches('@');
        if let Some((user, host)) = acct.rsplit_once('@')
            && !host.eq_ignore_ascii_case(&app.config.domain)
            && app.federation().enabled()
        {
            // One its server does not know (or that cannot be reached) is a 404 below, as
            // Mastodon answers.
            if let Err(e) = app.federation().resolve_handle(user, host).await {
                tracing::info!("cannot look up {user}@{host}: {}", e.message);
            }
        }
        let target = app
            .relationships()
            .follow_by_uri(me, r.uri.as_deref().unwrap_or(""))
            .await?;
        Ok(Json(app.render_account(&target)))
    }
}
