//! Accounts: sign-up and the admin's account creation, e-mail confirmation, profile updates, lookups.

use std::sync::OnceLock;

use regex::Regex;

use crate::app::App;
use crate::config::RegistrationMode;
use crate::content;
use crate::error::{ApiError, ApiResult, StoreError};
use crate::id::Id;
use crate::services::oauth::{hash_password, hash_secret, random_secret};
use crate::store::{AccountRecord, ProfileField, Role, UserRecord, Visibility};

/// A new local account, from sign-up or the admin CLI.
pub struct NewAccount {
    /// Username (letters, digits, underscore; at most 30).
    pub username: String,
    /// E-mail address.
    pub email: String,
    /// Password (8 to 72 characters).
    pub password: String,
    /// Role.
    pub role: Role,
    /// E-mail already confirmed.
    pub confirmed: bool,
    /// Already approved.
    pub approved: bool,
    /// Language.
    pub locale: String,
}

/// Changes to one's own profile (`PATCH /api/v1/accounts/update_credentials`); `None` keeps a value.
#[derive(Default)]
pub struct ProfileUpdate {
    /// Display name.
    pub display_name: Option<String>,
    /// Bio (plain text).
    pub note: Option<String>,
    /// Locked.
    pub locked: Option<bool>,
    /// Bot.
    pub bot: Option<bool>,
    /// Discoverable.
    pub discoverable: Option<bool>,
    /// Indexable.
    pub indexable: Option<bool>,
    /// Hide collections.
    pub hide_collections: Option<bool>,
    /// Replace all profile fields.
    pub fields: Option<Vec<ProfileField>>,
    /// Default post visibility.
    pub privacy: Option<String>,
    /// Default sensitivity.
    pub sensitive: Option<bool>,
    /// Default language.
    pub language: Option<String>,
}

fn username_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^[A-Za-z0-9_]{1,30}$").expect("username regex"))
}

fn email_ok(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !email.chars().any(char::is_whitespace)
}

/// Usernames nobody may take.
const RESERVED_USERNAMES: &[&str] = &[
    "admin",
    "support",
    "help",
    "root",
    "webmaster",
    "administrator",
    "mod",
    "moderator",
    "instance",
    "actor",
];

fn language_ok(lang: &str) -> bool {
    lang.len() == 2 && lang.chars().all(|c| c.is_ascii_lowercase())
}

impl App {
    /// Creates a local account with its login. Validation failures are 422 with field details.
    pub async fn create_local_account(
        &self,
        new: NewAccount,
        allow_reserved: bool,
    ) -> ApiResult<(AccountRecord, UserRecord, Option<String>)> {
        if new.username.is_empty() {
            return Err(ApiError::invalid_field(
                "username",
                "ERR_BLANK",
                "Username can't be blank",
            ));
        }
        if !username_re().is_match(&new.username) {
            return Err(ApiError::invalid_field(
                "username",
                "ERR_INVALID",
                "Username must contain only letters, numbers and underscores (at most 30)",
            ));
        }
        if !allow_reserved
            && RESERVED_USERNAMES.contains(&new.username.to_ascii_lowercase().as_str())
        {
            return Err(ApiError::invalid_field(
                "username",
                "ERR_RESERVED",
                "Username is reserved",
            ));
        }
        if !email_ok(&new.email) {
            return Err(ApiError::invalid_field(
                "email",
                "ERR_INVALID",
                "Email is invalid",
            ));
        }
        let len = new.password.chars().count();
        if len < 8 {
            return Err(ApiError::invalid_field(
                "password",
                "ERR_TOO_SHORT",
                "Password is too short (minimum is 8 characters)",
            ));
        }
        if len > 72 {
            return Err(ApiError::invalid_field(
                "password",
                "ERR_TOO_LONG",
                "Password is too long (maximum is 72 characters)",
            ));
        }
        let now = self.now();
        let account = AccountRecord::new_local(self.ids.next(), &new.username, now);
        let confirmation = (!new.confirmed).then(random_secret);
        let user = UserRecord {
            account_id: account.id,
            email: new.email.trim().to_string(),
            password_hash: hash_password(&new.password, self.config.password_hash_memory_kib)?,
            role: new.role,
            confirmed_at: new.confirmed.then_some(now),
            confirmation_token_hash: confirmation.as_deref().map(hash_secret),
            approved: new.approved,
            disabled: false,
            locale: new.locale,
            created_at: now,
        };
        match self.store.insert_local_account(&account, &user).await {
            Ok(()) => Ok((account, user, confirmation)),
            Err(StoreError::AlreadyExists(what)) if what == "email" => Err(
                ApiError::invalid_field("email", "ERR_TAKEN", "Email has already been taken"),
            ),
            Err(StoreError::AlreadyExists(_)) => Err(ApiError::invalid_field(
                "username",
                "ERR_TAKEN",
                "Username has already been taken",
            )),
            Err(e) => Err(e.into()),
        }
    }

    /// Sign-up through the API: obeys the registration mode and sends the confirmation link.
    pub async fn register(
        &self,
        username: String,
        email: String,
        password: String,
        agreement: bool,
        locale: Option<String>,
    ) -> ApiResult<(AccountRecord, UserRecord)> {
        let mode = self.config.registrations;
        if mode == RegistrationMode::Closed {
            return Err(ApiError::forbidden());
        }
        if !agreement {
            return Err(ApiError::invalid_field(
                "agreement",
                "ERR_ACCEPTED",
                "Agreement must be accepted",
            ));
        }
        let new = NewAccount {
            username,
            email,
            password,
            role: Role::User,
            confirmed: false,
            approved: mode == RegistrationMode::Open,
            locale: locale
                .filter(|l| !l.is_empty() && l != "None")
                .unwrap_or_else(|| "en".into()),
        };
        let (account, user, token) = self.create_local_account(new, false).await?;
        if let Some(token) = token {
            self.send_confirmation(&account, &user, &token);
        }
        Ok((account, user))
    }

    fn send_confirmation(&self, account: &AccountRecord, user: &UserRecord, token: &str) {
        let link = format!(
            "{}/auth/confirmation?confirmation_token={}",
            self.base_url(),
            token
        );
        self.mailer
            .send_confirmation(&user.email, &account.username, &link);
    }

    /// Sends a new confirmation link, optionally to a new address (`POST /api/v1/emails/confirmations`).
    pub async fn resend_confirmation(
        &self,
        user: &UserRecord,
        email: Option<String>,
    ) -> ApiResult<()> {
        if user.confirmed_at.is_some() {
            return Err(ApiError::new(
                http::StatusCode::FORBIDDEN,
                "This method is only available while the e-mail is awaiting confirmation",
            ));
        }
        let mut user = user.clone();
        if let Some(e) = email.filter(|e| !e.trim().is_empty()) {
            if !email_ok(e.trim()) {
                return Err(ApiError::invalid_field(
                    "email",
                    "ERR_INVALID",
                    "Email is invalid",
                ));
            }
            user.email = e.trim().to_string();
        }
        let token = random_secret();
        user.confirmation_token_hash = Some(hash_secret(&token));
        match self.store.update_user(&user).await {
            Err(StoreError::AlreadyExists(_)) => {
                return Err(ApiError::invalid_field(
                    "email",
                    "ERR_TAKEN",
                    "Email has already been taken",
                ));
            }
            other => other?,
        }
        let account = self
            .store
            .account_by_id(user.account_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        self.send_confirmation(&account, &user, &token);
        Ok(())
    }

    /// Confirms an e-mail address by the token from the link. Returns the account on success.
    pub async fn confirm_email(&self, token: &str) -> ApiResult<AccountRecord> {
        let mut user = self
            .store
            .user_by_confirmation_token(&hash_secret(token))
            .await?
            .ok_or_else(ApiError::not_found)?;
        user.confirmed_at = Some(self.now());
        user.confirmation_token_hash = None;
        self.store.update_user(&user).await?;
        self.store
            .account_by_id(user.account_id)
            .await?
            .ok_or_else(ApiError::not_found)
    }

    /// Applies a profile update after validating every field; nothing is stored on a failure.
    pub async fn update_profile(
        &self,
        account: &AccountRecord,
        u: ProfileUpdate,
    ) -> ApiResult<AccountRecord> {
        let limits = &self.config.limits;
        let mut a = account.clone();
        if let Some(name) = u.display_name {
            if name.chars().count() > limits.max_display_name {
                return Err(ApiError::invalid_field(
                    "display_name",
                    "ERR_TOO_LONG",
                    format!(
                        "Display name is too long (maximum is {} characters)",
                        limits.max_display_name
                    ),
                ));
            }
            a.display_name = name;
        }
        if let Some(note) = u.note {
            if content::countable_length(&note, limits.characters_reserved_per_url)
                > limits.max_note
            {
                return Err(ApiError::invalid_field(
                    "note",
                    "ERR_TOO_LONG",
                    format!(
                        "Note is too long (maximum is {} characters)",
                        limits.max_note
                    ),
                ));
            }
            a.note = note;
        }
        if let Some(fields) = u.fields {
            let fields: Vec<ProfileField> = fields
                .into_iter()
                .filter(|f| !(f.name.trim().is_empty() && f.value.trim().is_empty()))
                .collect();
            if fields.len() > limits.max_fields {
                return Err(ApiError::invalid_field(
                    "fields",
                    "ERR_TOO_LONG",
                    format!(
                        "Fields is too long (maximum is {} fields)",
                        limits.max_fields
                    ),
                ));
            }
            if fields.iter().any(|f| {
                f.name.chars().count() > limits.max_field_length
                    || f.value.chars().count() > limits.max_field_length
            }) {
                return Err(ApiError::invalid_field(
                    "fields",
                    "ERR_TOO_LONG",
                    format!(
                        "Field name and value may have at most {} characters",
                        limits.max_field_length
                    ),
                ));
            }
            a.fields = fields;
        }
        if let Some(p) = u.privacy {
            a.default_privacy = match Visibility::parse(&p) {
                Some(v) if v != Visibility::Direct => v,
                _ => {
                    return Err(ApiError::invalid_field(
                        "source.privacy",
                        "ERR_INCLUSION",
                        "Privacy is not included in the list",
                    ));
                }
            };
        }
        if let Some(lang) = u.language {
            if lang.is_empty() {
                a.default_language = None;
            } else if language_ok(&lang) {
                a.default_language = Some(lang);
            } else {
                return Err(ApiError::invalid_field(
                    "source.language",
                    "ERR_INVALID",
                    "Language is not a valid ISO 639-1 code",
                ));
            }
        }
        if let Some(v) = u.locked {
            a.locked = v;
        }
        if let Some(v) = u.bot {
            a.bot = v;
        }
        if let Some(v) = u.discoverable {
            a.discoverable = Some(v);
        }
        if let Some(v) = u.indexable {
            a.indexable = v;
        }
        if let Some(v) = u.hide_collections {
            a.hide_collections = Some(v);
        }
        if let Some(v) = u.sensitive {
            a.default_sensitive = v;
        }
        a.updated_at = self.now();
        self.store.update_account(&a).await?;
        self.store
            .account_by_id(a.id)
            .await?
            .ok_or_else(ApiError::not_found)
    }

    /// An account by id for the API: 404 when unknown, 410 when suspended.
    pub async fn visible_account(&self, id: Id) -> ApiResult<AccountRecord> {
        let a = self
            .store
            .account_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if a.is_suspended() {
            return Err(ApiError::gone());
        }
        Ok(a)
    }

    /// Finds an account by `username`, `@username`, `username@domain` (our own domain means local).
    pub async fn lookup_account(&self, acct: &str) -> ApiResult<AccountRecord> {
        let acct = acct.trim().trim_start_matches('@');
        let (user, domain) = match acct.split_once('@') {
            Some((u, d)) if d.eq_ignore_ascii_case(&self.config.domain) => (u, None),
            Some((u, d)) => (u, Some(d)),
            None => (acct, None),
        };
        if user.is_empty() {
            return Err(ApiError::not_found());
        }
        let a = self
            .store
            .account_by_username(user, domain)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if a.is_suspended() {
            return Err(ApiError::gone());
        }
        Ok(a)
    }
}
