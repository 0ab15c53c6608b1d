//! Dispatch: the steps every request takes before its endpoint runs (authentication, scope,
//! account state, rate limits) and the turn of every failure into an error reply. It sits in
//! the API layer, above the services, so that nothing below the endpoints depends on them.

use std::sync::Arc;

use http::StatusCode;

use crate::app::{App, Caller, Request, RequestInfo, request_token};
use crate::endpoint::{Auth, Body, Reply, Route};
use crate::error::{ApiError, ApiResult};
use crate::params::Params;
use crate::rate_limit::{Family, Per, address_key};
use crate::scope::Scopes;
use crate::services::oauth::hash_secret;
use crate::services::rate_limits::Charge;
use crate::store::{TokenOwner, TokenRecord};

impl App {
    /// Runs one request through an endpoint: authentication, scope, account state, rate limits,
    /// parameters, handler. Every failure becomes an error reply; this never fails.
    pub async fn dispatch(self: &Arc<Self>, route: &Route, request: Request) -> Reply {
        let Request {
            authorization,
            mut params,
            info,
        } = request;
        let token = request_token(authorization.as_deref(), &mut params);
        let remote_addr = info.remote_addr.clone();
        let caller = self
            .authenticate(route.auth, token.as_deref(), authorization, info)
            .await;
        self.dispatch_as(route, remote_addr.as_deref(), caller, params)
            .await
    }

    /// Runs an endpoint for a caller already authenticated (or refused) with
    /// [`App::authenticate`]: a transport that checks the token before it reads a large body
    /// hands the result here with the parameters it then read. `remote_addr` is the client's
    /// address, counted against the anonymous limit when the token was refused.
    pub async fn dispatch_as(
        self: &Arc<Self>,
        route: &Route,
        remote_addr: Option<&str>,
        caller: ApiResult<Caller>,
        mut params: Params,
    ) -> Reply {
        let uploads = params.take_files();
        let mut shown: Option<Charge> = None;
        let result = async {
            shown = self.charge_api(route, remote_addr, &caller).await?;
            let mut caller = caller?;
            let own = self.charge_own(route, &caller).await?;
            if let Some(first) = own.first() {
                shown = Some(first.clone());
            }
            caller.uploads = uploads;
            let out = (route.handler)(self.clone(), caller, params).await;
            if let Some(log) = &self.change_log
                && route.method != http::Method::GET
                && route.method != http::Method::HEAD
            {
                // Other processes must see what this request wrote once it is answered.
                log.settle().await;
            }
            if out.is_err() {
                // The action did not happen; its own limits count actions, not attempts.
                for charge in &own {
                    self.rate_limits().refund(charge).await;
                }
            }
            out
        }
        .await;
        let mut reply = match result {
            Ok(reply) => reply,
            Err(e) => error_reply(e),
        };
        if let Some(charge) = shown
            && !reply
                .headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("X-RateLimit-Limit"))
        {
            reply.headers.extend(charge.headers());
        }
        reply
    }

    /// Counts an API request against the limits of the API as a whole: per token and per
    /// account when a valid token came, per client address otherwise. The charge whose headers
    /// the answer carries is the token's (or the address's).
    async fn charge_api(
        &self,
        route: &Route,
        remote_addr: Option<&str>,
        caller: &ApiResult<Caller>,
    ) -> ApiResult<Option<Charge>> {
        if !route.path.starts_with(crate::endpoint::API_PREFIX) {
            return Ok(None);
        }
        match caller {
            Ok(Caller {
                token: Some(token),
                account,
                ..
            }) => {
                let shown = self
                    .rate_limits()
                    .charge(Family::Api, &token.id.to_string())
                    .await?;
                if let Some(account) = account {
                    self.rate_limits()
                        .charge(Family::ApiAccount, &account.id.to_string())
                        .await?;
                }
                Ok(shown)
            }
            // No token, or a refused one (guessing tokens is limited like any anonymous
            // request): the client's address.
            _ => match remote_addr {
                Some(addr) => {
                    self.rate_limits()
                        .charge(Family::Unauthenticated, &address_key(addr))
                        .await
                }
                None => Ok(None),
            },
        }
    }

    /// Counts a request against the endpoint's own limits. A spent one refuses it (`429`) and
    /// takes back the hits counted before it, since the action will not happen.
    async fn charge_own(&self, route: &Route, caller: &Caller) -> ApiResult<Vec<Charge>> {
        let mut charged = Vec::with_capacity(route.rate_limits.len());
        for &family in route.rate_limits {
            let Some(subject) = self.subject(family, caller) else {
                continue;
            };
            match self.rate_limits().charge(family, &subject).await {
                Ok(Some(c)) => charged.push(c),
                Ok(None) => {}
                Err(e) => {
                    for c in &charged {
                        self.rate_limits().refund(c).await;
                    }
                    return Err(e);
                }
            }
        }
        Ok(charged)
    }

    /// Whom a family counts for this caller: `None` when that is unknown (no account, or no
    /// client address from the transport), and then nothing is counted.
    fn subject(&self, family: Family, caller: &Caller) -> Option<String> {
        match family.per() {
            Per::Token => caller.token.as_ref().map(|t| t.id.to_string()),
            Per::Account => caller.account.as_ref().map(|a| a.id.to_string()),
            Per::Address => caller.info.remote_addr.as_deref().map(address_key),
        }
    }

    /// Authenticates a request for an endpoint: the token (if the endpoint reads one), its
    /// scope, and its account's state.
    pub async fn authenticate(
        &self,
        auth: Auth,
        token: Option<&str>,
        authorization: Option<String>,
        info: RequestInfo,
    ) -> ApiResult<Caller> {
        // A `no_access` IP block refuses every request from its addresses, as Mastodon's.
        if let Some(addr) = info
            .remote_addr
            .as_deref()
            .and_then(|a| a.parse::<std::net::IpAddr>().ok())
            && self.server_blocks().access_refused(addr).await?
        {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "Requests from this address are blocked",
            ));
        }
        // The badges accounts show are read again now and then, not per account rendered.
        if let Err(e) = self
            .staff_badges
            .refresh_if_stale(self.store.moderation())
            .await
        {
            tracing::warn!(error = %e, "cannot read the holders of highlighted roles");
        }
        // So are this server's custom emojis, which accounts and polls show.
        if let Err(e) = self.local_emojis.refresh_if_stale(&*self.store).await {
            tracing::warn!(error = %e, "cannot read this server's custom emojis");
        }
        let mut caller = Caller {
            token: None,
            app: None,
            account: None,
            user: None,
            custom_role: None,
            authorization,
            info,
            uploads: Vec::new(),
        };
        let (scope, need_user, allow_pending) = match auth {
            Auth::Public => return Ok(caller),
            Auth::Optional(s) => (s, false, false),
            Auth::App(s) => (s, false, false),
            Auth::User(s) => (s, true, false),
            Auth::UserPending(s) => (s, true, true),
        };
        let Some(token) = token else {
            return match auth {
                Auth::Optional(_) => Ok(caller),
                _ => Err(ApiError::missing_token()),
            };
        };
        let found = self
            .store
            .token_with_owner(&hash_secret(token))
            .await?
            .filter(|t| t.token.revoked_at.is_none())
            .ok_or_else(ApiError::invalid_token)?;
        let record = found.token;
        let scopes = Scopes::parse(&record.scopes).unwrap_or_default();
        if !scope.is_empty() && !scopes.allows(scope) {
            return Err(ApiError::outside_scopes());
        }
        let owner = match found.owner {
            Some(owner) => owner,
            None => self.token_owner(&record).await?,
        };
        caller.app = owner.app;
        if let Some(account_id) = record.account_id {
            let account = owner
                .account
                .filter(|a| a.id == account_id)
                .ok_or_else(ApiError::invalid_token)?;
            let user = owner.user.ok_or_else(ApiError::invalid_token)?;
            if user.disabled || account.is_suspended() {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "Your login is currently disabled",
                ));
            }
            if !allow_pending {
                if user.confirmed_at.is_none() {
                    return Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "Your login is missing a confirmed e-mail address",
                    ));
                }
                if !user.approved {
                    return Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "Your login is currently pending approval",
                    ));
                }
            }
            caller.custom_role =
                crate::permissions::custom_role(self.store.moderation(), user.role).await?;
            // The day's activity, as Mastodon's dashboard counts active users.
            self.metrics().record_activity(account.id).await;
            caller.account = Some(account);
            caller.user = Some(user);
        } else if need_user {
            return Err(ApiError::unprocessable(
                "This method requires an authenticated user",
            ));
        }
        caller.token = Some(record);
        Ok(caller)
    }

    /// A token's application, account and login, each read on its own (for stores that do not
    /// read them with the token).
    async fn token_owner(&self, token: &TokenRecord) -> ApiResult<TokenOwner> {
        let app = self.store.app_by_id(token.app_id).await?;
        let Some(account_id) = token.account_id else {
            return Ok(TokenOwner {
                app,
                ..TokenOwner::default()
            });
        };
        let Some(account) = self.store.account_by_id(account_id).await? else {
            return Ok(TokenOwner {
                app,
                ..TokenOwner::default()
            });
        };
        Ok(TokenOwner {
            app,
            user: self.store.user_by_account_id(account_id).await?,
            account: Some(account),
        })
    }
}

/// Turns an error into its JSON reply.
pub fn error_reply(e: ApiError) -> Reply {
    Reply {
        status: e.status,
        headers: e.headers.clone(),
        body: Body::Json(e.body().to_string()),
    }
}
