//! `POST /oauth/introspect`: OAuth 2.0 token introspection (RFC 7662), served by Mastodon through Doorkeeper's default routes. <https://datatracker.ietf.org/doc/html/rfc7662>

use http::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{App, Caller, bearer_token};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;
use crate::params::de;
use crate::services::oauth::TokenRequest;

/// Whether a token is active, and what it allows, told to its own application: the caller
/// authenticates as that application's client (HTTP Basic or `client_id` and `client_secret`)
/// or with another live token of it (`Authorization: Bearer`); the rules and errors are
/// `OAuth::introspect`'s. An active token answers `active`, `scope` (space-separated),
/// `client_id`, `token_type` (`Bearer`), `iat` and, for a user's token, `sub` (the account's
/// ActivityPub id, as `/oauth/userinfo` names it) and `username`; anything else is
/// `{"active": false}`. Tokens here never expire, so `exp` is left out (RFC 7662 makes it
/// optional; Doorkeeper writes `0` for such a token, which a reader would take for long
/// expired). `token_type_hint` is accepted and not needed: there are access tokens only.
pub struct IntrospectToken;

/// Parameters (a form, as RFC 7662 sends them).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct IntrospectRequest {
    /// The token asked about.
    #[serde(deserialize_with = "de::opt_string")]
    pub token: Option<String>,
    /// `access_token` or `refresh_token`; a hint only.
    #[serde(deserialize_with = "de::opt_string")]
    pub token_type_hint: Option<String>,
    /// Client id (or from HTTP Basic).
    #[serde(deserialize_with = "de::opt_string")]
    pub client_id: Option<String>,
    /// Client secret (or from HTTP Basic).
    #[serde(deserialize_with = "de::opt_string")]
    pub client_secret: Option<String>,
}

impl Endpoint for IntrospectToken {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/oauth/introspect";
    const AUTH: Auth = Auth::Public;
    type Request = IntrospectRequest;
    type Response = Json<Value>;

    async fn handle(app: &App, caller: &Caller, r: IntrospectRequest) -> ApiResult<Self::Response> {
        let client = TokenRequest {
            client_id: r.client_id,
            client_secret: r.client_secret,
            ..Default::default()
        };
        let authorization = caller.authorization.as_deref();
        let bearer = bearer_token(authorization);
        let Some(live) = app
            .oauth()
            .introspect(
                &client,
                authorization,
                bearer.as_deref(),
                r.token.as_deref(),
            )
            .await?
        else {
            return Ok(Json(json!({ "active": false })));
        };
        let mut body = json!({
            "active": true,
            "scope": live.token.scopes,
            "client_id": live.app.as_ref().map(|a| a.client_id.clone()),
            "token_type": "Bearer",
            "iat": live.token.created_at.timestamp(),
        });
        if let Some(account) = &live.account {
            let rendered = app.render_account(account);
            body["sub"] = rendered.uri.into();
            body["username"] = rendered.username.into();
        }
        Ok(Json(body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::RequestInfo;
    use crate::scope::Scopes;
    use crate::services::oauth::NewApp;
    use crate::store::AppRecord;
    use crate::test_support::{account, app};

    async fn new_app(app: &App) -> AppRecord {
        app.oauth()
            .create_app(NewApp {
                name: "client".into(),
                redirect_uris: vec!["https://client.test/cb".into()],
                scopes: Some("read write".into()),
                website: None,
            })
            .await
            .expect("app")
    }

    async fn token(app: &App, client: &AppRecord, account: Option<crate::Id>) -> String {
        let scopes = Scopes::parse("read write").expect("scopes");
        app.oauth()
            .issue_token(client.id, account, &scopes)
            .await
            .expect("token")
            .access_token
    }

    fn creds(client: &AppRecord) -> TokenRequest {
        TokenRequest {
            client_id: Some(client.client_id.clone()),
            client_secret: Some(client.client_secret.clone()),
            ..Default::default()
        }
    }

    /// Whether `asked` is active for a client authenticated by `by`.
    async fn active_for(app: &App, by: &AppRecord, asked: &str) -> bool {
        app.oauth()
            .introspect(&creds(by), None, None, Some(asked))
            .await
            .expect("introspected")
            .is_some()
    }

    async fn by_bearer(app: &App, bearer: &str, asked: &str) -> ApiResult<bool> {
        Ok(app
            .oauth()
            .introspect(&TokenRequest::default(), None, Some(bearer), Some(asked))
            .await?
            .is_some())
    }

    #[tokio::test]
    async fn a_client_learns_of_its_own_live_tokens_only() {
        let app = app("home.test");
        let (mine, theirs) = (new_app(&app).await, new_app(&app).await);
        let t = token(&app, &mine, None).await;
        assert!(active_for(&app, &mine, &t).await);
        assert!(!active_for(&app, &theirs, &t).await, "another client's");
        assert!(!active_for(&app, &mine, "unknown").await);
        let wrong = TokenRequest {
            client_secret: Some("wrong".into()),
            ..creds(&mine)
        };
        let e = app
            .oauth()
            .introspect(&wrong, None, None, Some(&t))
            .await
            .err()
            .expect("refused");
        assert_eq!(
            (e.status.as_u16(), e.message.as_str()),
            (401, "invalid_client")
        );
        let e = app
            .oauth()
            .introspect(&TokenRequest::default(), None, None, Some(&t))
            .await
            .err()
            .expect("refused");
        assert_eq!(
            (e.status.as_u16(), e.message.as_str()),
            (400, "invalid_request")
        );
        let record = app
            .store
            .token_by_hash(&crate::services::oauth::hash_secret(&t))
            .await
            .expect("read")
            .expect("stored");
        app.store
            .revoke_token(&record.token_hash, app.now())
            .await
            .expect("revoked");
        assert!(!active_for(&app, &mine, &t).await, "a revoked token");
    }

    #[tokio::test]
    async fn a_bearer_introspects_other_tokens_of_its_application_only() {
        let app = app("home.test");
        let (mine, theirs) = (new_app(&app).await, new_app(&app).await);
        let (first, second) = (
            token(&app, &mine, None).await,
            token(&app, &mine, None).await,
        );
        let foreign = token(&app, &theirs, None).await;
        assert!(by_bearer(&app, &second, &first).await.expect("allowed"));
        for (bearer, asked, what) in [
            (&first, &first, "itself"),
            (&foreign, &first, "another application's token"),
            (&second, &"unknown".to_string(), "an unknown token"),
            (&"unknown".to_string(), &first, "an unknown bearer"),
        ] {
            let e = by_bearer(&app, bearer, asked).await.expect_err(what);
            assert_eq!(
                (e.status.as_u16(), e.message.as_str()),
                (401, "invalid_token"),
                "{what}"
            );
            assert!(
                e.headers
                    .iter()
                    .any(|(k, v)| k == "WWW-Authenticate" && v.starts_with("Bearer")),
                "{what}"
            );
        }
    }

    #[tokio::test]
    async fn a_users_token_names_its_account() {
        let app = app("home.test");
        let me = account(&app, "me").await;
        let client = new_app(&app).await;
        let t = token(&app, &client, Some(me.id)).await;
        let caller = app
            .authenticate(Auth::Public, None, None, RequestInfo::default())
            .await
            .expect("caller");
        let request = IntrospectRequest {
            token: Some(t),
            client_id: Some(client.client_id.clone()),
            client_secret: Some(client.client_secret.clone()),
            ..Default::default()
        };
        let Json(v) = IntrospectToken::handle(&app, &caller, request)
            .await
            .expect("answered");
        assert_eq!(v["active"], true);
        assert_eq!(v["client_id"], client.client_id.as_str());
        assert_eq!(v["token_type"], "Bearer");
        assert_eq!(v["username"], "me");
        assert_eq!(v["sub"], app.render_account(&me).uri.as_str());
        assert!(v.get("exp").is_none(), "tokens here never expire: {v}");
    }
}
