//! `GET /api/v1/accounts/search`: Accounts whose username starts with, or display name contains, the query (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/accounts/#search>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::params::de;
use crate::services::discovery::{SearchQuery, offset_limit, offset_of};

/// Accounts whose username starts with, or display name contains, `q` (a leading `@` is ignored;
/// `user@domain` searches that domain, this server's domain meaning local accounts): exact
/// username matches first, then accounts the caller follows, then the rest by followers. 40 by
/// default, 80 at most, `offset` to skip;
/// `following` keeps accounts the caller follows. Suspended accounts and accounts blocked either
/// way are left out. A blank `q` finds nothing. With `resolve`, a `q` that is a handle on
/// another server (`user@host`) or an account's URL is looked up there (and stored) when not
/// known, and comes first. <https://docs.joinmastodon.org/methods/accounts/#search>
pub struct SearchAccounts;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SearchAccountsRequest {
    /// The query.
    #[serde(deserialize_with = "de::opt_string")]
    pub q: Option<String>,
    /// How many.
    #[serde(deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
    /// How many to skip.
    #[serde(deserialize_with = "de::opt_i64")]
    pub offset: Option<i64>,
    /// Look a handle or URL up on its server.
    #[serde(deserialize_with = "de::bool")]
    pub resolve: bool,
    /// Only accounts the caller follows.
    #[serde(deserialize_with = "de::bool")]
    pub following: bool,
}

impl Endpoint for SearchAccounts {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/search";
    const AUTH: Auth = Auth::User("read:accounts");
    type Request = SearchAccountsRequest;
    type Response = Json<Vec<Account>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: SearchAccountsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let q = r.q.clone().unwrap_or_default();
        let resolved = if r.resolve {
            app.resolve_account_query(me, &q).await?
        } else {
            None
        };
        let mut found = app
            .discovery()
            .search_accounts(
                Some(me),
                SearchQuery {
                    q,
                    following: r.following,
                    offset: offset_of(r.offset),
                    limit: offset_limit(r.limit, 40, 80),
                },
            )
            .await?;
        if let Some(account) = resolved
            && offset_of(r.offset) == 0
            && (!r.following || app.store.follows(me.id, account.id).await?)
        {
            found.retain(|a| a.id != account.id);
            found.insert(0, account);
            found.truncate(offset_limit(r.limit, 40, 80) as usize);
        }
        Ok(Json(found.iter().map(|a| app.render_account(a)).collect()))
    }
}
