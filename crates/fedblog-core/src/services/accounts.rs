//! Accounts: sign-up and the admin's account creation, e-mail confirmation, profile updates
//! (avatar and header images included), lookups, and deleting an account with its files.

use std::sync::OnceLock;

use base64::Engine as _;
use regex::Regex;

use crate::app::App;
use crate::config::RegistrationMode;
use crate::content;
use crate::error::{ApiError, ApiResult, StoreError};
use crate::files::{FileError, ImageKind};
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
    /// A new avatar image (PNG, JPEG, GIF or WebP, smaller than [`PROFILE_IMAGE_LIMIT`]).
    pub avatar: Option<Vec<u8>>,
    /// A new header image (same rules as the avatar).
    pub header: Option<Vec<u8>>,
}

/// Avatars and headers must be smaller than this: 8 MB, Mastodon's limit for both
/// (`Account::Avatar::AVATAR_LIMIT`, `Account::Header::HEADER_LIMIT`, validated with `less_than`).
pub const PROFILE_IMAGE_LIMIT: usize = 8 * 1024 * 1024;

/// One of the two images of a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileImage {
    /// The avatar.
    Avatar,
    /// The header (banner).
    Header,
}

impl ProfileImage {
    /// The parameter name (`avatar`, `header`), also the field of validation errors.
    pub fn field(self) -> &'static str {
        match self {
            ProfileImage::Avatar => "avatar",
            ProfileImage::Header => "header",
        }
    }

    fn label(self) -> &'static str {
        match self {
            ProfileImage::Avatar => "Avatar",
            ProfileImage::Header => "Header",
        }
    }

    fn folder(self) -> &'static str {
        match self {
            ProfileImage::Avatar => "accounts/avatars",
            ProfileImage::Header => "accounts/headers",
        }
    }

    fn key_of(self, a: &AccountRecord) -> &Option<String> {
        match self {
            ProfileImage::Avatar => &a.avatar,
            ProfileImage::Header => &a.header,
        }
    }

    fn key_of_mut(self, a: &mut AccountRecord) -> &mut Option<String> {
        match self {
            ProfileImage::Avatar => &mut a.avatar,
            ProfileImage::Header => &mut a.header,
        }
    }

    /// Checks an uploaded image: smaller than [`PROFILE_IMAGE_LIMIT`] and, by its magic bytes,
    /// a PNG, JPEG, GIF or WebP. Anything else is a 422 naming the field.
    pub fn check(self, bytes: &[u8]) -> ApiResult<ImageKind> {
        if bytes.len() >= PROFILE_IMAGE_LIMIT {
            return Err(ApiError::invalid_field(
                self.field(),
                "ERR_INVALID",
                format!(
                    "{} file size must be less than {} MB",
                    self.label(),
                    PROFILE_IMAGE_LIMIT / (1024 * 1024)
                ),
            ));
        }
        ImageKind::sniff(bytes).ok_or_else(|| {
            ApiError::invalid_field(
                self.field(),
                "ERR_INVALID",
                format!(
                    "{} content type is invalid: upload a PNG, JPEG, GIF or WebP image",
                    self.label()
                ),
            )
        })
    }

    /// Decodes an image sent as a `data:` URI with base64 content (how JSON clients send files,
    /// as Mastodon accepts). Anything that is not such a URI is a 422 naming the field.
    pub fn decode_data_uri(self, text: &str) -> ApiResult<Vec<u8>> {
        let invalid = || {
            ApiError::invalid_field(
                self.field(),
                "ERR_INVALID",
                format!(
                    "{} must be an uploaded image file (multipart/form-data) or a base64 data: URI",
                    self.label()
                ),
            )
        };
        let rest = text.trim().strip_prefix("data:").ok_or_else(invalid)?;
        let (meta, data) = rest.split_once(',').ok_or_else(invalid)?;
        if !meta.to_ascii_lowercase().ends_with(";base64") {
            return Err(invalid());
        }
        let data: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        base64::engine::general_purpose::STANDARD
            .decode(data.as_bytes())
            .map_err(|_| invalid())
    }
}

/// What [`App::delete_account`] removed.
#[derive(Clone, Debug)]
pub struct DeletedAccount {
    /// The account as it was just before deletion.
    pub account: AccountRecord,
    /// The stored files (avatar, header) that were removed.
    pub files_removed: usize,
}

pub(crate) fn file_failure(e: FileError) -> ApiError {
    tracing::error!(error = %e, "file store failure");
    ApiError::internal()
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
    /// New images are stored under fresh random keys; the files they replace are removed.
    pub async fn update_profile(
        &self,
        account: &AccountRecord,
        u: ProfileUpdate,
    ) -> ApiResult<AccountRecord> {
        let limits = &self.config.limits;
        // The caller's record was read at authentication; start from the newest one so an
        // image changed since then is neither lost nor left pointing at a removed file.
        let before = self
            .store
            .account_by_id(account.id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let mut a = before.clone();
        let mut images: Vec<(ProfileImage, Vec<u8>, ImageKind)> = Vec::new();
        for (which, bytes) in [
            (ProfileImage::Avatar, u.avatar),
            (ProfileImage::Header, u.header),
        ] {
            if let Some(bytes) = bytes {
                let kind = which.check(&bytes)?;
                images.push((which, bytes, kind));
            }
        }
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
        let mut stored: Vec<String> = Vec::new();
        for (which, bytes, kind) in &images {
            let key = new_file_key(*which, *kind);
            if let Err(e) = self.files.put(&key, bytes).await {
                self.remove_files(&stored).await;
                return Err(file_failure(e));
            }
            stored.push(key.clone());
            *which.key_of_mut(&mut a) = Some(key);
        }
        a.updated_at = self.now();
        if let Err(e) = self.store.update_account(&a).await {
            self.remove_files(&stored).await;
            return Err(e.into());
        }
        let replaced: Vec<String> = [ProfileImage::Avatar, ProfileImage::Header]
            .into_iter()
            .filter_map(|w| {
                let old = w.key_of(&before).clone();
                (old != *w.key_of(&a)).then_some(old).flatten()
            })
            .collect();
        self.remove_files(&replaced).await;
        self.store
            .account_by_id(a.id)
            .await?
            .ok_or_else(ApiError::not_found)
    }

    /// Removes the avatar or header of an account (`DELETE /api/v1/profile/avatar|header`):
    /// the default image shows again. Without one set, nothing changes and this succeeds.
    pub async fn delete_profile_image(
        &self,
        account: &AccountRecord,
        which: ProfileImage,
    ) -> ApiResult<AccountRecord> {
        let mut a = self
            .store
            .account_by_id(account.id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let Some(old) = which.key_of_mut(&mut a).take() else {
            return Ok(a);
        };
        a.updated_at = self.now();
        self.store.update_account(&a).await?;
        self.remove_files(&[old]).await;
        Ok(a)
    }

    /// Deletes an account and everything that belongs to it or points at it
    /// (`AccountStore::delete_account`, one transaction), then its avatar and header files.
    /// Mastodon has no client-API method for this; the admin CLI and embedders call it.
    pub async fn delete_account(&self, id: Id) -> ApiResult<DeletedAccount> {
        let account = self
            .store
            .account_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let media = self.store.account_media(id).await?;
        self.store.delete_account(id).await?;
        let keys: Vec<String> = [account.avatar.clone(), account.header.clone()]
            .into_iter()
            .flatten()
            .chain(media.iter().flat_map(|m| m.file_keys().map(str::to_string)))
            .collect();
        let files_removed = self.remove_files(&keys).await;
        Ok(DeletedAccount {
            account,
            files_removed,
        })
    }

    /// Removes stored files, logging (not failing on) errors: a leftover file is harmless, a
    /// failed request after the records changed is not. Returns how many were removed.
    pub(crate) async fn remove_files(&self, keys: &[String]) -> usize {
        let mut removed = 0;
        for key in keys {
            match self.files.delete(key).await {
                Ok(()) => removed += 1,
                Err(e) => tracing::warn!(%key, error = %e, "could not remove a stored file"),
            }
        }
        removed
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

/// A fresh, unguessable key for an image: `accounts/avatars/<32 hex digits>.<ext>`.
fn new_file_key(which: ProfileImage, kind: ImageKind) -> String {
    format!(
        "{}/{:032x}.{}",
        which.folder(),
        rand::random::<u128>(),
        kind.extension()
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::files::{FileStore, MemoryFileStore};
    use crate::{InstanceConfig, MemoryStore};

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    const GIF: &[u8] = b"GIF89a\x01\0\x01\0";

    async fn app_with_user() -> (App, Arc<MemoryFileStore>, AccountRecord) {
        let files = Arc::new(MemoryFileStore::new());
        let mut config = InstanceConfig::new("files.test");
        config.password_hash_memory_kib = 64;
        let app = App::new(Arc::new(MemoryStore::new()), config).with_files(files.clone());
        let (account, _, _) = app
            .create_local_account(
                NewAccount {
                    username: "pic".into(),
                    email: "pic@files.test".into(),
                    password: "correct horse battery".into(),
                    role: Role::User,
                    confirmed: true,
                    approved: true,
                    locale: "en".into(),
                },
                false,
            )
            .await
            .unwrap();
        (app, files, account)
    }

    #[tokio::test]
    async fn images_are_stored_replaced_and_removed() {
        let (app, files, account) = app_with_user().await;
        let a = app
            .update_profile(
                &account,
                ProfileUpdate {
                    avatar: Some(PNG.to_vec()),
                    header: Some(GIF.to_vec()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        let (avatar, header) = (a.avatar.clone().unwrap(), a.header.clone().unwrap());
        assert!(avatar.starts_with("accounts/avatars/") && avatar.ends_with(".png"));
        assert!(header.starts_with("accounts/headers/") && header.ends_with(".gif"));
        assert_eq!(files.get(&avatar).await.unwrap().as_deref(), Some(PNG));
        let rendered = app.render_account(&a);
        assert_eq!(
            rendered.avatar,
            format!("https://files.test/system/{avatar}")
        );
        assert_eq!(rendered.avatar_static, rendered.avatar);
        assert_eq!(
            rendered.header,
            format!("https://files.test/system/{header}")
        );

        // Replacing the avatar stores a new key and removes the old file; the header stays.
        let b = app
            .update_profile(
                &account,
                ProfileUpdate {
                    avatar: Some(GIF.to_vec()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert_ne!(b.avatar.as_deref(), Some(avatar.as_str()));
        assert_eq!(b.header.as_deref(), Some(header.as_str()));
        assert_eq!(files.get(&avatar).await.unwrap(), None);
        assert_eq!(files.len(), 2);

        // A bad image changes nothing and stores nothing.
        let err = app
            .update_profile(
                &account,
                ProfileUpdate {
                    display_name: Some("changed".into()),
                    header: Some(b"<svg/>".to_vec()),
                    ..Default::default()
                },
            )
            .await
            .unwrap_err();
        assert_eq!(err.status.as_u16(), 422);
        assert!(err.details.unwrap().contains_key("header"));
        let now = app.store.account_by_id(account.id).await.unwrap().unwrap();
        assert_eq!(now.display_name, "");
        assert_eq!(files.len(), 2);

        // Deleting the header removes its file; deleting again is fine.
        let c = app
            .delete_profile_image(&account, ProfileImage::Header)
            .await
            .unwrap();
        assert_eq!(c.header, None);
        assert_eq!(files.len(), 1);
        app.delete_profile_image(&account, ProfileImage::Header)
            .await
            .unwrap();
        assert!(
            app.render_account(&c)
                .header
                .ends_with(crate::render::MISSING_HEADER)
        );

        // Deleting the account removes the remaining file.
        let gone = app.delete_account(account.id).await.unwrap();
        assert_eq!(gone.files_removed, 1);
        assert!(files.is_empty());
        assert!(app.store.account_by_id(account.id).await.unwrap().is_none());
        assert_eq!(
            app.delete_account(account.id)
                .await
                .unwrap_err()
                .status
                .as_u16(),
            404
        );
    }

    #[test]
    fn image_checks_and_data_uris() {
        let big = {
            let mut v = PNG.to_vec();
            v.resize(PROFILE_IMAGE_LIMIT, 0);
            v
        };
        assert!(ProfileImage::Avatar.check(&big).is_err());
        assert!(
            ProfileImage::Avatar
                .check(&big[..PROFILE_IMAGE_LIMIT - 1])
                .is_ok()
        );
        assert!(ProfileImage::Avatar.check(b"").is_err());
        assert!(ProfileImage::Avatar.check(b"hello").is_err());
        assert_eq!(
            ProfileImage::Avatar
                .decode_data_uri("data:image/png;base64,R0lG ODlh")
                .unwrap(),
            b"GIF89a"
        );
        for bad in ["hello", "data:image/png,abc", "data:image/png;base64,***"] {
            let e = ProfileImage::Header.decode_data_uri(bad).unwrap_err();
            assert_eq!(e.status.as_u16(), 422, "{bad}");
        }
    }

    #[test]
    fn field_values_link_with_rel_me() {
        let html = crate::render::render_field_value(
            "see https://example.org/me\n<b>x</b> #Tag",
            "https://files.test",
        );
        assert!(!html.starts_with("<p>") && !html.contains("<br"), "{html}");
        assert!(
            html.contains("<a href=\"https://example.org/me\" target=\"_blank\" rel=\"me nofollow noopener noreferrer\""),
            "{html}"
        );
        assert!(html.contains("&lt;b&gt;x&lt;/b&gt;"), "{html}");
        assert!(
            html.contains("href=\"https://files.test/tags/tag\""),
            "{html}"
        );
        // Text cannot forge the attribute: quotes are escaped.
        let forged = crate::render::render_field_value(
            "x\" target=\"_blank\" rel=\"nofollow noopener\"",
            "https://files.test",
        );
        assert!(!forged.contains("rel=\"me"), "{forged}");
    }
}
