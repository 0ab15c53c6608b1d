//! OAuth 2: client applications, authorization codes (with PKCE), tokens, revocation, and the
//! secrets behind them (random, and stored only as hashes).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Duration, Utc};
use http::StatusCode;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::blocking::Blocking;
use crate::config::InstanceConfig;
use crate::error::{ApiError, ApiResult};
use crate::id::IdGenerator;
use crate::scope::Scopes;
use crate::store::{
    AccountRecord, AccountStore, AppRecord, AuthorizationRecord, OAuthStore, Store, TokenRecord,
    UserRecord,
};

/// The redirect URI that shows the code on a page instead of redirecting.
pub const OOB_REDIRECT: &str = "urn:ietf:wg:oauth:2.0:oob";

/// How long an authorization code stays valid.
const CODE_LIFETIME_MINUTES: i64 = 10;
/// How long an exchanged code is remembered, so that exchanging it again revokes its token.
const CODE_EXCHANGE_MEMORY_DAYS: i64 = 1;

/// A new random secret: 32 bytes, URL-safe base64.
pub fn random_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// SHA-256 of a secret, hex; the form in which tokens and codes are stored.
pub fn hash_secret(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hashes a password with Argon2id. `memory_kib` sets the cost (tests use a small one).
pub fn hash_password(password: &str, memory_kib: u32) -> ApiResult<String> {
    use argon2::password_hash::{PasswordHasher, SaltString, rand_core::OsRng};
    let params =
        argon2::Params::new(memory_kib.max(8), 2, 1, None).map_err(|_| ApiError::internal())?;
    let hasher = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let salt = SaltString::generate(&mut OsRng);
    hasher
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|_| ApiError::internal())
}

/// Checks a password against its stored hash.
pub fn verify_password(password: &str, hash: &str) -> bool {
    use argon2::password_hash::{PasswordHash, PasswordVerifier};
    PasswordHash::new(hash)
        .map(|parsed| {
            argon2::Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Registration of a client application.
pub struct NewApp {
    /// Name.
    pub name: String,
    /// Redirect URIs, newline-separated or as a list.
    pub redirect_uris: Vec<String>,
    /// Requested scopes text (default `read`).
    pub scopes: Option<String>,
    /// Homepage.
    pub website: Option<String>,
}

/// An `http(s)://` URL with a host and no spaces.
fn is_web_url(url: &str) -> bool {
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    !host.is_empty() && !host.starts_with(':') && !url.chars().any(char::is_whitespace)
}

fn valid_redirect_uri(uri: &str) -> bool {
    if uri == OOB_REDIRECT {
        return true;
    }
    match uri.split_once(':') {
        Some((scheme, rest)) => {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
                && !rest.is_empty()
                && !uri.contains('#')
                && !uri.chars().any(char::is_whitespace)
        }
        None => false,
    }
}

/// What a client sends to the token endpoint.
#[derive(Default)]
pub struct TokenRequest {
    /// `authorization_code` or `client_credentials`.
    pub grant_type: Option<String>,
    /// Client id (or from HTTP Basic).
    pub client_id: Option<String>,
    /// Client secret (or from HTTP Basic).
    pub client_secret: Option<String>,
    /// The authorization code.
    pub code: Option<String>,
    /// Must equal the one the code was issued for.
    pub redirect_uri: Option<String>,
    /// PKCE verifier.
    pub code_verifier: Option<String>,
    /// Requested scopes (client_credentials).
    pub scope: Option<String>,
}

/// A token just issued, with its secret (shown once).
pub struct IssuedToken {
    /// The secret.
    pub access_token: String,
    /// The stored record.
    pub record: TokenRecord,
}

/// A live (unrevoked) token as token introspection and token info describe it: the token, its
/// application and, for a user's token, its account.
pub struct LiveToken {
    /// The token.
    pub token: TokenRecord,
    /// Its application (`None` if it no longer exists).
    pub app: Option<AppRecord>,
    /// Its account (`None` for an application's own token, or if it no longer exists).
    pub account: Option<AccountRecord>,
}

/// The parameters of an authorization request, as the client sent them.
#[derive(Debug, Default, Clone)]
pub struct AuthorizationQuery {
    /// Must be `code`.
    pub response_type: Option<String>,
    /// The app's client id.
    pub client_id: Option<String>,
    /// One of the app's redirect URIs (may be omitted when the app has exactly one).
    pub redirect_uri: Option<String>,
    /// Requested scopes (default `read`).
    pub scope: Option<String>,
    /// Opaque client state, echoed back.
    pub state: Option<String>,
    /// PKCE challenge.
    pub code_challenge: Option<String>,
    /// PKCE method (`S256`).
    pub code_challenge_method: Option<String>,
}

/// Why an authorization request cannot go on.
#[derive(Debug)]
pub enum AuthorizationError {
    /// Shown on the page: the client or redirect URI cannot be trusted (or a store failure).
    Page(ApiError),
    /// Sent back to the client's redirect URI as `?error=...&error_description=...&state=...`.
    Redirect {
        /// The verified redirect URI.
        redirect_uri: String,
        /// RFC 6749 error code.
        error: String,
        /// Text.
        description: String,
        /// The client's state.
        state: Option<String>,
    },
}

impl From<ApiError> for AuthorizationError {
    fn from(e: ApiError) -> Self {
        AuthorizationError::Page(e)
    }
}

impl From<crate::StoreError> for AuthorizationError {
    fn from(e: crate::StoreError) -> Self {
        AuthorizationError::Page(e.into())
    }
}

/// Appends query parameters to a URI that may already have a query.
pub fn with_query(uri: &str, pairs: &[(&str, &str)]) -> String {
    let mut ser = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        ser.append_pair(k, v);
    }
    let sep = if uri.contains('?') { '&' } else { '?' };
    format!("{uri}{sep}{}", ser.finish())
}

/// A validated authorization request (`GET /oauth/authorize`).
pub struct AuthorizationRequest {
    /// The app.
    pub app: AppRecord,
    /// Where to send the code.
    pub redirect_uri: String,
    /// Granted scopes.
    pub scopes: Scopes,
    /// Client state, echoed back.
    pub state: Option<String>,
    /// PKCE challenge.
    pub code_challenge: Option<String>,
    /// PKCE method.
    pub code_challenge_method: Option<String>,
}

fn oauth_err(status: StatusCode, code: &str, text: &str) -> ApiError {
    ApiError::oauth(status, code, text)
}

fn basic_credentials(header: Option<&str>) -> Option<(String, String)> {
    let h = header?.trim();
    let (kind, value) = h.split_once(' ')?;
    if !kind.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(value.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    let unescape = |s: &str| {
        form_urlencoded::parse(format!("x={s}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default()
    };
    Some((unescape(id), unescape(secret)))
}

/// The OAuth area: client applications, authorization codes, tokens, sign-in and password
/// hashing.
pub struct OAuth<'a> {
    oauth: &'a dyn OAuthStore,
    accounts: &'a dyn AccountStore,
    config: &'a InstanceConfig,
    blocking: &'a dyn Blocking,
    /// The hash unknown logins are checked against, made on first use and kept by the app.
    stand_in_hash: &'a std::sync::OnceLock<String>,
    ids: &'a IdGenerator,
    /// Where the end of a token's or an account's access is told (their streams close).
    events: &'a dyn crate::events::EventBus,
    now: DateTime<Utc>,
}

impl<'a> OAuth<'a> {
    /// The area over the OAuth and account stores of `store`, with the instance's limits and
    /// password cost, hashing through `blocking`, keeping the stand-in hash in `stand_in_hash`,
    /// making ids with `ids`, at `now`.
    pub fn new(
        store: &'a dyn Store,
        config: &'a InstanceConfig,
        blocking: &'a dyn Blocking,
        stand_in_hash: &'a std::sync::OnceLock<String>,
        ids: &'a IdGenerator,
        events: &'a dyn crate::events::EventBus,
        now: DateTime<Utc>,
    ) -> Self {
        OAuth {
            oauth: store,
            accounts: store,
            config,
            blocking,
            stand_in_hash,
            ids,
            events,
            now,
        }
    }

    /// Revokes `token` and closes its streams.
    async fn revoke_token(&self, token: &crate::store::TokenRecord) -> ApiResult<()> {
        self.oauth.revoke_token(&token.token_hash, self.now).await?;
        crate::events::publish_logged(
            self.events,
            crate::events::DomainEvent::TokenRevoked { token: token.id },
        )
        .await;
        Ok(())
    }

    /// Tells that `account` can no longer act (deleted or suspended): its streams close.
    pub(crate) async fn access_ended(&self, account: crate::Id) {
        crate::events::publish_logged(
            self.events,
            crate::events::DomainEvent::AccountClosed { account },
        )
        .await;
    }

    /// Registers a client application (`POST /api/v1/apps`).
    pub async fn create_app(&self, new: NewApp) -> ApiResult<AppRecord> {
        let limits = &self.config.limits;
        let name = new.name.trim().to_string();
        if name.is_empty() {
            return Err(ApiError::invalid_field(
                "client_name",
                "ERR_BLANK",
                "Application name can't be blank",
            ));
        }
        if name.chars().count() > limits.max_app_name {
            return Err(ApiError::invalid_field(
                "client_name",
                "ERR_TOO_LONG",
                format!(
                    "Application name is too long (maximum is {} characters)",
                    limits.max_app_name
                ),
            ));
        }
        if let Some(w) = new.website.as_deref().filter(|w| !w.trim().is_empty()) {
            if w.chars().count() > limits.max_app_website {
                return Err(ApiError::invalid_field(
                    "website",
                    "ERR_TOO_LONG",
                    format!(
                        "Application website is too long (maximum is {} characters)",
                        limits.max_app_website
                    ),
                ));
            }
            if !is_web_url(w.trim()) {
                return Err(ApiError::invalid_field(
                    "website",
                    "ERR_INVALID",
                    "Application website is not a valid URL",
                ));
            }
        }
        let uris: Vec<String> = new
            .redirect_uris
            .iter()
            .flat_map(|u| u.split('\n'))
            .map(|u| u.trim().to_string())
            .filter(|u| !u.is_empty())
            .collect();
        if uris.is_empty() {
            return Err(ApiError::invalid_field(
                "redirect_uris",
                "ERR_BLANK",
                "Redirect URI can't be blank",
            ));
        }
        if uris.join("\n").chars().count() > limits.max_app_redirect_uris {
            return Err(ApiError::invalid_field(
                "redirect_uris",
                "ERR_TOO_LONG",
                format!(
                    "Redirect URI is too long (maximum is {} characters)",
                    limits.max_app_redirect_uris
                ),
            ));
        }
        if let Some(bad) = uris.iter().find(|u| !valid_redirect_uri(u)) {
            return Err(ApiError::invalid_field(
                "redirect_uris",
                "ERR_INVALID",
                format!("Redirect URI must be an absolute URI: {bad}"),
            ));
        }
        let scopes = match new
            .scopes
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => Scopes::parse("read").expect("read is a scope"),
            Some(text) => Scopes::parse(text).map_err(|e| {
                ApiError::invalid_field("scopes", "ERR_INVALID", format!("Scopes are invalid: {e}"))
            })?,
        };
        let record = AppRecord {
            id: self.ids.next(),
            name,
            website: new.website.filter(|w| !w.trim().is_empty()),
            redirect_uris: uris,
            scopes: scopes.to_string(),
            client_id: random_secret(),
            client_secret: random_secret(),
            created_at: self.now,
        };
        self.oauth.insert_app(&record).await?;
        Ok(record)
    }

    /// The application that tokens made by the admin CLI belong to, created on first use.
    pub async fn cli_application(&self) -> ApiResult<AppRecord> {
        const CLIENT_ID: &str = "fedblog-cli";
        if let Some(app) = self.oauth.app_by_client_id(CLIENT_ID).await? {
            return Ok(app);
        }
        let record = AppRecord {
            id: self.ids.next(),
            name: "fedblog CLI".into(),
            website: None,
            redirect_uris: vec![OOB_REDIRECT.into()],
            scopes: "read write follow push admin:read admin:write".into(),
            client_id: CLIENT_ID.into(),
            client_secret: random_secret(),
            created_at: self.now,
        };
        match self.oauth.insert_app(&record).await {
            Ok(()) => Ok(record),
            Err(crate::StoreError::AlreadyExists(_)) => self
                .oauth
                .app_by_client_id(CLIENT_ID)
                .await?
                .ok_or_else(ApiError::internal),
            Err(e) => Err(e.into()),
        }
    }

    /// Validates the parameters of an authorization request. Errors are for the sign-in page.
    pub async fn authorization_request(
        &self,
        q: AuthorizationQuery,
    ) -> Result<AuthorizationRequest, AuthorizationError> {
        let AuthorizationQuery {
            response_type,
            client_id,
            redirect_uri,
            scope,
            state,
            code_challenge,
            code_challenge_method,
        } = q;
        let (response_type, client_id, redirect_uri, scope) = (
            response_type.as_deref(),
            client_id.as_deref(),
            redirect_uri.as_deref(),
            scope.as_deref(),
        );
        let app = match client_id {
            Some(id) => self.oauth.app_by_client_id(id).await?,
            None => None,
        }
        .ok_or_else(|| oauth_err(StatusCode::BAD_REQUEST, "invalid_client", "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method."))?;
        let redirect_uri = match redirect_uri {
            Some(u) => u.to_string(),
            None if app.redirect_uris.len() == 1 => app.redirect_uris[0].clone(),
            None => {
                return Err(oauth_err(
                    StatusCode::BAD_REQUEST,
                    "invalid_redirect_uri",
                    "The redirect uri included is not valid.",
                )
                .into());
            }
        };
        if !app.redirect_uris.contains(&redirect_uri) {
            return Err(oauth_err(
                StatusCode::BAD_REQUEST,
                "invalid_redirect_uri",
                "The redirect uri included is not valid.",
            )
            .into());
        }
        // From here on the client and redirect URI are known good: errors go back to the client
        // (RFC 6749 §4.1.2.1), except to the out-of-band URI, which shows them on the page.
        let back = |code: &str, text: &str| {
            if redirect_uri == OOB_REDIRECT {
                AuthorizationError::Page(oauth_err(StatusCode::BAD_REQUEST, code, text))
            } else {
                AuthorizationError::Redirect {
                    redirect_uri: redirect_uri.clone(),
                    error: code.to_string(),
                    description: text.to_string(),
                    state: state.clone().filter(|s| !s.is_empty()),
                }
            }
        };
        if response_type != Some("code") {
            return Err(back(
                "unsupported_response_type",
                "The authorization server does not support this response type.",
            ));
        }
        let scopes = Scopes::parse(scope.unwrap_or("read")).map_err(|_| {
            back(
                "invalid_scope",
                "The requested scope is invalid, unknown, or malformed.",
            )
        })?;
        let scopes = if scopes.is_empty() {
            Scopes::parse("read").expect("read")
        } else {
            scopes
        };
        let app_scopes = Scopes::parse(&app.scopes).unwrap_or_default();
        if !app_scopes.covers_all(&scopes) {
            return Err(back(
                "invalid_scope",
                "The requested scope is invalid, unknown, or malformed.",
            ));
        }
        let code_challenge = code_challenge.filter(|c| !c.is_empty());
        let code_challenge_method = code_challenge_method.filter(|c| !c.is_empty());
        if code_challenge.is_some() && code_challenge_method.as_deref().unwrap_or("S256") != "S256"
        {
            return Err(back(
                "invalid_request",
                "Only the S256 code challenge method is supported.",
            ));
        }
        Ok(AuthorizationRequest {
            app,
            redirect_uri,
            scopes,
            state: state.filter(|s| !s.is_empty()),
            code_challenge,
            code_challenge_method,
        })
    }

    /// Checks a username-or-email and password for the sign-in form. `None` when they do not match
    /// (the same answer for unknown users and wrong passwords, in the same time: an unknown
    /// login is checked against a stand-in hash of the same cost). The hashing runs through
    /// [`App::blocking`](crate::App::blocking), off the async workers.
    pub async fn sign_in(
        &self,
        login: &str,
        password: &str,
    ) -> ApiResult<Option<(AccountRecord, UserRecord)>> {
        let login = login.trim().trim_start_matches('@');
        let user = if login.contains('@') {
            self.accounts.user_by_email(login).await?
        } else {
            match self.accounts.account_by_username(login, None).await? {
                Some(a) => self.accounts.user_by_account_id(a.id).await?,
                None => None,
            }
        };
        let hash = match &user {
            Some(u) => u.password_hash.clone(),
            None => self.stand_in_hash().await?,
        };
        let password = password.to_string();
        let matches =
            crate::blocking::run(self.blocking, move || verify_password(&password, &hash))
                .await
                .ok_or_else(ApiError::internal)?;
        let Some(user) = user.filter(|_| matches) else {
            return Ok(None);
        };
        let account = self
            .accounts
            .account_by_id(user.account_id)
            .await?
            .ok_or_else(ApiError::internal)?;
        Ok(Some((account, user)))
    }

    /// Hashes a password at the configured cost, off the async workers.
    pub async fn hash_password(&self, password: &str) -> ApiResult<String> {
        let (password, kib) = (password.to_string(), self.config.password_hash_memory_kib);
        crate::blocking::run(self.blocking, move || hash_password(&password, kib))
            .await
            .ok_or_else(ApiError::internal)?
    }

    /// A hash of a random password at the configured cost, made once, that unknown logins are
    /// checked against.
    async fn stand_in_hash(&self) -> ApiResult<String> {
        if let Some(h) = self.stand_in_hash.get() {
            return Ok(h.clone());
        }
        let hash = self.hash_password(&random_secret()).await?;
        Ok(self.stand_in_hash.get_or_init(|| hash).clone())
    }

    /// Issues an authorization code for a consenting user; returns the code.
    pub async fn issue_code(
        &self,
        req: &AuthorizationRequest,
        account_id: crate::Id,
    ) -> ApiResult<String> {
        let code = random_secret();
        self.oauth
            .insert_authorization(&AuthorizationRecord {
                code_hash: hash_secret(&code),
                app_id: req.app.id,
                account_id,
                redirect_uri: req.redirect_uri.clone(),
                scopes: req.scopes.to_string(),
                code_challenge: req.code_challenge.clone(),
                code_challenge_method: req
                    .code_challenge
                    .as_ref()
                    .and(req.code_challenge_method.clone()),
                expires_at: self.now + Duration::minutes(CODE_LIFETIME_MINUTES),
            })
            .await?;
        Ok(code)
    }

    /// Issues a token for an app (and user); the secret is returned once.
    pub async fn issue_token(
        &self,
        app_id: crate::Id,
        account_id: Option<crate::Id>,
        scopes: &Scopes,
    ) -> ApiResult<IssuedToken> {
        let access_token = random_secret();
        let record = TokenRecord {
            id: self.ids.next(),
            token_hash: hash_secret(&access_token),
            app_id,
            account_id,
            scopes: scopes.to_string(),
            created_at: self.now,
            revoked_at: None,
        };
        self.oauth.insert_token(&record).await?;
        Ok(IssuedToken {
            access_token,
            record,
        })
    }

    async fn authenticate_client(
        &self,
        req: &TokenRequest,
        authorization: Option<&str>,
        secret_required: bool,
    ) -> ApiResult<AppRecord> {
        let (id, secret) = match basic_credentials(authorization) {
            Some((id, secret)) => (Some(id), Some(secret)),
            None => (req.client_id.clone(), req.client_secret.clone()),
        };
        let invalid = || {
            oauth_err(
                StatusCode::UNAUTHORIZED,
                "invalid_client",
                "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
            )
        };
        let app = match id {
            Some(id) => self
                .oauth
                .app_by_client_id(&id)
                .await?
                .ok_or_else(invalid)?,
            None => return Err(invalid()),
        };
        match secret {
            Some(s) if constant_time_eq(s.as_bytes(), app.client_secret.as_bytes()) => Ok(app),
            None if !secret_required => Ok(app),
            _ => Err(invalid()),
        }
    }

    /// The token endpoint (`POST /oauth/token`).
    pub async fn exchange_token(
        &self,
        req: TokenRequest,
        authorization: Option<&str>,
    ) -> ApiResult<IssuedToken> {
        let invalid_grant = || {
            oauth_err(
                StatusCode::BAD_REQUEST,
                "invalid_grant",
                "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
            )
        };
        match req.grant_type.as_deref() {
            Some("authorization_code") => {
                let app = self
                    .authenticate_client(&req, authorization, req.code_verifier.is_none())
                    .await?;
                let code = req
                    .code
                    .as_deref()
                    .filter(|c| !c.is_empty())
                    .ok_or_else(|| {
                        oauth_err(
                            StatusCode::BAD_REQUEST,
                            "invalid_request",
                            "Missing required parameter: code.",
                        )
                    })?;
                let code_hash = hash_secret(code);
                let Some(auth) = self.oauth.take_authorization(&code_hash).await? else {
                    // A code exchanged a second time: revoke the token of the first exchange
                    // (RFC 6749, 4.1.2), since the code may have been stolen.
                    if let Some(token_hash) =
                        self.oauth.take_code_exchange(&code_hash, self.now).await?
                    {
                        if let Some(token) = self.oauth.token_by_hash(&token_hash).await? {
                            self.revoke_token(&token).await?;
                        }
                        tracing::warn!(
                            "an authorization code was exchanged twice; the token it gave is revoked"
                        );
                    }
                    return Err(invalid_grant());
                };
                if auth.app_id != app.id || auth.expires_at < Utc::now() {
                    return Err(invalid_grant());
                }
                if let Some(uri) = &req.redirect_uri
                    && uri != &auth.redirect_uri
                {
                    return Err(invalid_grant());
                }
                match (&auth.code_challenge, &req.code_verifier) {
                    (Some(challenge), Some(verifier)) => {
                        let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
                        if !constant_time_eq(computed.as_bytes(), challenge.as_bytes()) {
                            return Err(invalid_grant());
                        }
                    }
                    (Some(_), None) => return Err(invalid_grant()),
                    (None, Some(_)) => return Err(invalid_grant()),
                    (None, None) => {}
                }
                let scopes = Scopes::parse(&auth.scopes).unwrap_or_default();
                let issued = self
                    .issue_token(app.id, Some(auth.account_id), &scopes)
                    .await?;
                self.oauth
                    .record_code_exchange(
                        &code_hash,
                        &issued.record.token_hash,
                        self.now,
                        self.now + Duration::days(CODE_EXCHANGE_MEMORY_DAYS),
                    )
                    .await?;
                Ok(issued)
            }
            Some("client_credentials") => {
                let app = self.authenticate_client(&req, authorization, true).await?;
                let wanted =
                    Scopes::parse(req.scope.as_deref().unwrap_or("read")).map_err(|_| {
                        oauth_err(
                            StatusCode::BAD_REQUEST,
                            "invalid_scope",
                            "The requested scope is invalid, unknown, or malformed.",
                        )
                    })?;
                let wanted = if wanted.is_empty() {
                    Scopes::parse("read").expect("read")
                } else {
                    wanted
                };
                if !Scopes::parse(&app.scopes)
                    .unwrap_or_default()
                    .covers_all(&wanted)
                {
                    return Err(oauth_err(
                        StatusCode::BAD_REQUEST,
                        "invalid_scope",
                        "The requested scope is invalid, unknown, or malformed.",
                    ));
                }
                self.issue_token(app.id, None, &wanted).await
            }
            Some(_) => Err(oauth_err(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                "The authorization grant type is not supported by the authorization server.",
            )),
            None => Err(oauth_err(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "Missing required parameter: grant_type.",
            )),
        }
    }

    /// Revokes a token of the calling client (`POST /oauth/revoke`). Unknown tokens are not an error.
    pub async fn revoke(
        &self,
        req: TokenRequest,
        token: &str,
        authorization: Option<&str>,
    ) -> ApiResult<()> {
        let app = self
            .authenticate_client(&req, authorization, true)
            .await
            .map_err(|_| {
                oauth_err(
                    StatusCode::FORBIDDEN,
                    "unauthorized_client",
                    "You are not authorized to revoke this token",
                )
            })?;
        let hash = hash_secret(token);
        match self.oauth.token_by_hash(&hash).await? {
            // RFC 7009: an unknown token is not an error.
            None => Ok(()),
            Some(t) if t.app_id == app.id => self.revoke_token(&t).await,
            Some(_) => Err(oauth_err(
                StatusCode::FORBIDDEN,
                "unauthorized_client",
                "You are not authorized to revoke this token",
            )),
        }
    }

    /// A live token with its application and, for a user's token, its account.
    async fn live_token(&self, token: TokenRecord) -> ApiResult<LiveToken> {
        let app = self.oauth.app_by_id(token.app_id).await?;
        let account = match token.account_id {
            Some(id) => self.accounts.account_by_id(id).await?,
            None => None,
        };
        Ok(LiveToken {
            token,
            app,
            account,
        })
    }

    /// Token introspection (`POST /oauth/introspect`, RFC 7662) with the rules Doorkeeper's
    /// defaults give Mastodon's. The caller authenticates as a client (HTTP Basic, or the
    /// `client_id` and `client_secret` parameters; wrong ones are a 401 `invalid_client`) and
    /// then learns only of its own application's live tokens: any other token, unknown or
    /// revoked, is inactive (`None`). Or it presents a live bearer token of its own (`bearer`),
    /// which may introspect another token of the same application only, live or revoked; the
    /// bearer itself, a token of another application and an unknown one are a 401
    /// `invalid_token` alike, so a bearer cannot tell other applications' tokens from none.
    /// With neither: 400 `invalid_request`. `token` is the secret asked about.
    pub async fn introspect(
        &self,
        client: &TokenRequest,
        authorization: Option<&str>,
        bearer: Option<&str>,
        token: Option<&str>,
    ) -> ApiResult<Option<LiveToken>> {
        let asked = match token.filter(|t| !t.is_empty()) {
            Some(secret) => self.oauth.token_by_hash(&hash_secret(secret)).await?,
            None => None,
        };
        let client_given = basic_credentials(authorization).is_some()
            || client.client_id.as_deref().is_some_and(|c| !c.is_empty());
        if client_given {
            let app = self
                .authenticate_client(client, authorization, true)
                .await?;
            return match asked {
                Some(t) if t.revoked_at.is_none() && t.app_id == app.id => {
                    Ok(Some(self.live_token(t).await?))
                }
                _ => Ok(None),
            };
        }
        let Some(bearer) = bearer.filter(|b| !b.is_empty()) else {
            return Err(oauth_err(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "The request must be authorized: give the client's credentials or a bearer token.",
            ));
        };
        let refused = || invalid_token("The access token is invalid");
        let holder = self
            .oauth
            .token_by_hash(&hash_secret(bearer))
            .await?
            .filter(|t| t.revoked_at.is_none())
            .ok_or_else(refused)?;
        match asked {
            Some(t) if t.id != holder.id && t.app_id == holder.app_id => {
                if t.revoked_at.is_some() {
                    Ok(None)
                } else {
                    Ok(Some(self.live_token(t).await?))
                }
            }
            _ => Err(refused()),
        }
    }

    /// The live token a bearer secret names (`GET /oauth/token/info`); a missing or unknown one
    /// is a 401 `invalid_token`, and so is a revoked one, saying so.
    pub async fn token_info(&self, bearer: Option<&str>) -> ApiResult<LiveToken> {
        let token = match bearer.filter(|b| !b.is_empty()) {
            Some(secret) => self.oauth.token_by_hash(&hash_secret(secret)).await?,
            None => None,
        };
        match token {
            Some(t) if t.revoked_at.is_none() => self.live_token(t).await,
            Some(_) => Err(invalid_token("The access token was revoked")),
            None => Err(invalid_token("The access token is invalid")),
        }
    }
}

/// The 401 of a token that cannot be used (RFC 6750 3.1), with its `WWW-Authenticate`.
fn invalid_token(description: &str) -> ApiError {
    let mut e = oauth_err(StatusCode::UNAUTHORIZED, "invalid_token", description);
    e.headers.push((
        "WWW-Authenticate".into(),
        format!("Bearer error=\"invalid_token\", error_description=\"{description}\""),
    ));
    e
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_and_hashes_stable() {
        assert_ne!(random_secret(), random_secret());
        assert_eq!(
            hash_secret("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    /// Counts the pieces of work it runs (in place).
    #[derive(Default)]
    struct Counting(std::sync::atomic::AtomicUsize);

    #[async_trait::async_trait]
    impl crate::blocking::Blocking for Counting {
        async fn run(&self, work: crate::blocking::Work) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            work()
        }
    }

    /// Defect: unknown logins answered at once while real ones ran Argon2, telling which
    /// accounts exist; and the hashing ran on the async workers. Now every attempt verifies a
    /// hash of the configured cost through `App::blocking`.
    #[tokio::test]
    async fn unknown_and_known_logins_do_the_same_hashing_work_off_the_workers() {
        let counting = std::sync::Arc::new(Counting::default());
        let app = crate::test_support::app("signin.test").with_blocking(counting.clone());
        crate::test_support::account(&app, "ada").await;
        let runs = || counting.0.load(std::sync::atomic::Ordering::SeqCst);
        let after_sign_up = runs();
        assert_eq!(after_sign_up, 1, "the sign-up's hash runs through blocking");
        assert!(
            app.oauth()
                .sign_in("ada", "wrong password")
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(runs(), after_sign_up + 1);
        // The stand-in hash is made once, then every unknown login verifies against it.
        assert!(
            app.oauth()
                .sign_in("nobody", "whatever")
                .await
                .unwrap()
                .is_none()
        );
        let after_first_unknown = runs();
        assert_eq!(after_first_unknown, after_sign_up + 3);
        assert!(
            app.oauth()
                .sign_in("nobody@else", "x")
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(runs(), after_first_unknown + 1);
        let stand_in = app.stand_in_hash.get().unwrap();
        assert!(
            stand_in.contains("m=64,"),
            "the configured cost: {stand_in}"
        );
        assert!(
            app.oauth()
                .sign_in("ada", "correct horse battery")
                .await
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn passwords_verify() {
        let h = hash_password("correct horse", 64).unwrap();
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong", &h));
        assert!(!verify_password("x", "not a hash"));
    }

    #[test]
    fn redirect_uris_must_be_absolute() {
        assert!(valid_redirect_uri("https://app.test/cb"));
        assert!(valid_redirect_uri(OOB_REDIRECT));
        assert!(valid_redirect_uri("myapp://callback"));
        assert!(!valid_redirect_uri("/relative"));
        assert!(!valid_redirect_uri("https://a.test/#frag"));
    }

    #[test]
    fn basic_auth_parses() {
        let h = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode("id:se%3Acret")
        );
        assert_eq!(
            basic_credentials(Some(&h)),
            Some(("id".into(), "se:cret".into()))
        );
    }
}
