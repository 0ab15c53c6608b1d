//! `GET /api/v1/accounts/familiar_followers`: For each account asked, the accounts the caller follows that follow it. <https://docs.joinmastodon.org/methods/accounts/#familiar_followers>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::FamiliarFollowers;
use crate::error::ApiResult;
use crate::id::Id;
use crate::params::de;

/// For each account of `id[]` (in the order asked, at most 40; unknown ids and suspended accounts
/// skipped), the accounts the caller follows that follow it, without accounts blocked either way,
/// muted or suspended. <https://docs.joinmastodon.org/methods/accounts/#familiar_followers>
pub struct GetFamiliarFollowers;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FamiliarFollowersRequest {
    /// Account ids.
    #[serde(deserialize_with = "de::list")]
    pub id: Vec<String>,
}

impl Endpoint for GetFamiliarFollowers {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/familiar_followers";
    const AUTH: Auth = Auth::User("read:follows");
    type Request = FamiliarFollowersRequest;
    type Response = Json<Vec<FamiliarFollowers>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: FamiliarFollowersRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let mut seen = std::collections::HashSet::new();
        let ids: Vec<Id> =
            r.id.iter()
                .filter_map(|s| s.parse().ok())
                .filter(|id| seen.insert(*id))
                .take(crate::api::accounts::get_accounts::MAX_IDS)
                .collect();
        let found = app.relationships().familiar_followers(me, &ids).await?;
        Ok(Json(
            found
                .iter()
                .map(|(id, accounts)| app.render_familiar_followers(*id, accounts))
                .collect(),
        ))
    }
}
