//! `GET /api/v1/accounts/relationships`: how the caller relates to accounts. <https://docs.joinmastodon.org/methods/accounts/#relationships>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Relationship;
use crate::error::ApiResult;
use crate::id::Id;
use crate::params::de;

/// Relationships with the given accounts, in the order asked; unknown ids are skipped, and
/// suspended accounts too unless `with_suspended` is true.
pub struct GetRelationships;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RelationshipsRequest {
    /// Account ids.
    #[serde(deserialize_with = "de::list")]
    pub id: Vec<String>,
    /// Include suspended accounts.
    #[serde(deserialize_with = "de::bool")]
    pub with_suspended: bool,
}

impl Endpoint for GetRelationships {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/relationships";
    const AUTH: Auth = Auth::User("read:follows");
    type Request = RelationshipsRequest;
    type Response = Json<Vec<Relationship>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RelationshipsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let mut ids: Vec<Id> =
            r.id.iter()
                .filter_map(|s| s.parse().ok())
                .take(crate::api::accounts::get_accounts::MAX_IDS)
                .collect();
        let mut seen = std::collections::HashSet::new();
        ids.retain(|id| seen.insert(*id));
        let found = app.store.accounts_by_ids(&ids).await?;
        let mut out = Vec::new();
        for id in ids {
            if found
                .iter()
                .any(|a| a.id == id && (r.with_suspended || !a.is_suspended()))
            {
                out.push(app.relationship(me, id).await?);
            }
        }
        Ok(Json(out))
    }
}
