//! `POST /api/v1/accounts/:id/follow`: Follow an account (a request when it is locked) with options; following again updates them. <https://docs.joinmastodon.org/methods/accounts/#follow>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;
use crate::params::de;
use crate::services::relationships::FollowOptions;

/// Follow an account (a request carrying the options when it is locked); following again is not
/// an error and updates the options given (`reblogs`, `notify`, `languages[]` of ISO 639-1 codes,
/// else 422). Oneself: 422; an account blocked either way or on a domain the caller blocks: 403. <https://docs.joinmastodon.org/methods/accounts/#follow>
pub struct FollowAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct FollowAccountRequest {
    /// Account id (path).
    pub id: String,
    /// Show the account's reblogs in the home timeline (a new follow: true).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub reblogs: Option<bool>,
    /// Notify of the account's posts (a new follow: false).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub notify: Option<bool>,
    /// Only posts in these ISO 639-1 languages; absent keeps the current choice (a new follow:
    /// all), an empty list means all again.
    #[serde(default, deserialize_with = "some_list")]
    pub languages: Option<Vec<String>>,
}

/// A list parameter that was sent (possibly empty).
fn some_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    de::list(d).map(Some)
}

impl Endpoint for FollowAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/follow";
    const AUTH: Auth = Auth::User("write:follows");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[crate::rate_limit::Family::Follows];
    type Request = FollowAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: FollowAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let options = FollowOptions {
            reblogs: r.reblogs,
            notify: r.notify,
            languages: r.languages,
        };
        let target = app
            .relationships()
            .follow(me, path_id(&r.id)?, options)
            .await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
