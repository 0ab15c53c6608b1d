//! Accounts: sign-up and the admin's account creation, e-mail confirmation, profile updates
//! (avatar and header images included: checked, sized as Mastodon sizes them, stored), lookups,
//! and deleting an account with its files.

use std::sync::OnceLock;

use base64::Engine as _;
use chrono::{DateTime, Utc};
use regex::Regex;

use crate::config::{InstanceConfig, RegistrationMode};
use crate::content;
use crate::error::{ApiError, ApiResult, StoreError};
use crate::files::{FileError, FileStore, ImageKind};
use crate::id::{Id, IdGenerator};
use crate::mail::{MailJob, MailQueue};
use crate::media::{ImageGeometry, MediaProcessor, ProfileImageFile, image_dimensions};
use crate::services::oauth::{OAuth, hash_secret, random_secret};
use crate::store::{
    AccountRecord, AccountStore, MediaStore, ProfileField, Role, Store, UserRecord, Visibility,
};

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
    /// A new avatar image (PNG, JPEG, GIF or WebP, smaller than [`PROFILE_IMAGE_LIMIT`], within
    /// the instance's `image_matrix_limit` pixels).
    pub avatar: Option<Vec<u8>>,
    /// A new header image (same rules as the avatar).
    pub header: Option<Vec<u8>>,
}

/// Avatars and headers must be smaller than this: 8 MB, Mastodon's limit for both
/// (`Account::Avatar::AVATAR_LIMIT`, `Account::Header::HEADER_LIMIT`, validated with `less_than`).
pub const PROFILE_IMAGE_LIMIT: usize = 8 * 1024 * 1024;

/// Avatars are cropped to a centred square of at most this many pixels a side: Mastodon's
/// `Account::Avatar::AVATAR_DIMENSIONS` (400 x 400, Paperclip geometry `400x400#`).
pub const AVATAR_SIDE: u32 = 400;

/// Headers are scaled down, aspect kept, to at most this many pixels: Mastodon's
/// `Account::Header::MAX_PIXELS` (`HEADER_DIMENSIONS` 1500 x 500).
pub const HEADER_MAX_PIXELS: u64 = 1500 * 500;

/// The key of the still PNG stored next to an animated avatar or header, which then has a key
/// `accounts/<avatars|headers>/<hex>/original.<ext>` (the still is `…/<hex>/static.png`); `None`
/// for every other key (a still image is its own static version). `render.rs` serves it as
/// `avatar_static` / `header_static`.
pub fn still_key(key: &str) -> Option<String> {
    let (dir, name) = key.rsplit_once('/')?;
    (key.starts_with("accounts/") && name.starts_with("original."))
        .then(|| format!("{dir}/static.png"))
}

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

    /// How the image is sized: Mastodon's avatar and header geometry.
    pub fn geometry(self) -> ImageGeometry {
        match self {
            ProfileImage::Avatar => ImageGeometry::Square { side: AVATAR_SIDE },
            ProfileImage::Header => ImageGeometry::MaxPixels {
                max_pixels: HEADER_MAX_PIXELS,
            },
        }
    }

    /// Checks an uploaded image: smaller than [`PROFILE_IMAGE_LIMIT`], by its magic bytes a
    /// PNG, JPEG, GIF or WebP, and with a width and height in its header whose product is at
    /// most `max_pixels` (read from the header only: nothing is decoded, so a decompression
    /// bomb is refused here). Anything else is a 422 naming the field.
    pub fn check(self, bytes: &[u8], max_pixels: u64) -> ApiResult<ImageKind> {
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
        let kind = ImageKind::sniff(bytes).ok_or_else(|| {
            ApiError::invalid_field(
                self.field(),
                "ERR_INVALID",
                format!(
                    "{} content type is invalid: upload a PNG, JPEG, GIF or WebP image",
                    self.label()
                ),
            )
        })?;
        let (width, height) = image_dimensions(bytes)
            .filter(|&(w, h)| w > 0 && h > 0)
            .ok_or_else(|| self.unreadable())?;
        if u64::from(width) * u64::from(height) > max_pixels {
            return Err(ApiError::invalid_field(
                self.field(),
                "ERR_TOO_LARGE",
                format!(
                    "{} has more than {max_pixels} pixels ({width}x{height})",
                    self.label()
                ),
            ));
        }
        Ok(kind)
    }

    /// The 422 for an image that cannot be read or processed.
    fn unreadable(self) -> ApiError {
        ApiError::invalid_field(
            self.field(),
            "ERR_INVALID",
            format!("{} could not be read as an image", self.label()),
        )
    }

    /// Sizes a checked image with the app's media processor (a 422 when it cannot be decoded).
    async fn process(
        self,
        processor: &dyn MediaProcessor,
        bytes: Vec<u8>,
        kind: ImageKind,
    ) -> ApiResult<ProfileImageFile> {
        let out = processor
            .profile_image(bytes, kind, self.geometry())
            .await
            .map_err(|reason| {
                tracing::info!(field = self.field(), %reason, "a profile image could not be processed");
                self.unreadable()
            })?;
        // The key's extension says the content type: the processor must answer what it says.
        let still_ok = out
            .still_png
            .as_deref()
            .is_none_or(|b| ImageKind::sniff(b) == Some(ImageKind::Png));
        if ImageKind::sniff(&out.bytes) != Some(out.kind) || !still_ok {
            tracing::error!(
                field = self.field(),
                "the media processor answered bytes of another format than it said"
            );
            return Err(ApiError::internal());
        }
        Ok(out)
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

pub(crate) fn email_ok(email: &str) -> bool {
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

/// The accounts area: local accounts and their logins (creation, sign-up, e-mail confirmation),
/// profiles and their images, deletion, and finding an account by id or name.
pub struct Accounts<'a> {
    accounts: &'a dyn AccountStore,
    media: &'a dyn MediaStore,
    files: &'a dyn FileStore,
    processor: &'a dyn MediaProcessor,
    mail: MailQueue<'a>,
    config: &'a InstanceConfig,
    oauth: OAuth<'a>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> Accounts<'a> {
    /// The area over the accounts and media of `store`, keeping files in `files`, making
    /// profile images with `processor`, queueing mail on `mail`, with the instance's
    /// `config`, hashing passwords through `oauth`, making ids with `ids`, at `now`.
    // One argument per dependency the area holds, as every area's constructor does.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: &'a dyn Store,
        files: &'a dyn FileStore,
        processor: &'a dyn MediaProcessor,
        mail: MailQueue<'a>,
        config: &'a InstanceConfig,
        oauth: OAuth<'a>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Accounts {
            accounts: store,
            media: store,
            files,
            processor,
            mail,
            config,
            oauth,
            ids,
            now,
        }
    }
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
        // Off the async workers (and bounded), as sign-in's checks are.
        let password_hash = self.oauth.hash_password(&new.password).await?;
        let now = self.now;
        let account = AccountRecord::new_local(self.ids.next(), &new.username, now);
        let confirmation = (!new.confirmed).then(random_secret);
        let user = UserRecord {
            account_id: account.id,
            email: new.email.trim().to_string(),
            password_hash,
            role: new.role,
            confirmed_at: new.confirmed.then_some(now),
            confirmation_token_hash: confirmation.as_deref().map(hash_secret),
            approved: new.approved,
            disabled: false,
            locale: new.locale,
            created_at: now,
        };
        match self.accounts.insert_local_account(&account, &user).await {
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
        needs_approval: bool,
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
            approved: mode == RegistrationMode::Open && !needs_approval,
            locale: locale
                .filter(|l| !l.is_empty() && l != "None")
                .unwrap_or_else(|| "en".into()),
        };
        let (account, user, token) = self.create_local_account(new, false).await?;
        if token.is_some() {
            // The job makes the link's token when it runs (no secret waits in the job table).
            self.mail
                .queue(MailJob::Confirmation {
                    account: account.id,
                })
                .await;
        }
        Ok((account, user))
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
        // The link sent before stops working now; the job makes the new one.
        user.confirmation_token_hash = Some(hash_secret(&random_secret()));
        match self.accounts.update_user(&user).await {
            Err(StoreError::AlreadyExists(_)) => {
                return Err(ApiError::invalid_field(
                    "email",
                    "ERR_TAKEN",
                    "Email has already been taken",
                ));
            }
            other => other?,
        }
        self.mail
            .queue(MailJob::Confirmation {
                account: user.account_id,
            })
            .await;
        Ok(())
    }

    /// Confirms an e-mail address by the token from the link. Returns the account and its
    /// login on success.
    pub async fn confirm_email(&self, token: &str) -> ApiResult<(AccountRecord, UserRecord)> {
        let mut user = self
            .accounts
            .user_by_confirmation_token(&hash_secret(token))
            .await?
            .ok_or_else(ApiError::not_found)?;
        user.confirmed_at = Some(self.now);
        user.confirmation_token_hash = None;
        self.accounts.update_user(&user).await?;
        let account = self
            .accounts
            .account_by_id(user.account_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        Ok((account, user))
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
            .accounts
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
                let kind = which.check(&bytes, limits.image_matrix_limit)?;
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
        // Every field is valid: now the images are decoded and sized (the costly part).
        let mut processed: Vec<(ProfileImage, ProfileImageFile)> = Vec::new();
        for (which, bytes, kind) in images {
            processed.push((which, which.process(self.processor, bytes, kind).await?));
        }
        let mut stored: Vec<String> = Vec::new();
        for (which, file) in &processed {
            let key = new_file_key(*which, file.kind, file.still_png.is_some());
            let still = still_key(&key).zip(file.still_png.as_deref());
            for (k, bytes) in std::iter::once((key.clone(), file.bytes.as_slice())).chain(still) {
                if let Err(e) = self.files.put(&k, bytes).await {
                    remove_files(self.files, &stored).await;
                    return Err(file_failure(e));
                }
                stored.push(k);
            }
            *which.key_of_mut(&mut a) = Some(key);
        }
        a.updated_at = self.now;
        if let Err(e) = self.accounts.update_account(&a).await {
            remove_files(self.files, &stored).await;
            return Err(e.into());
        }
        let replaced: Vec<String> = [ProfileImage::Avatar, ProfileImage::Header]
            .into_iter()
            .filter_map(|w| {
                let old = w.key_of(&before).clone();
                (old != *w.key_of(&a)).then_some(old).flatten()
            })
            .flat_map(with_still)
            .collect();
        remove_files(self.files, &replaced).await;
        self.accounts
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
            .accounts
            .account_by_id(account.id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let Some(old) = which.key_of_mut(&mut a).take() else {
            return Ok(a);
        };
        a.updated_at = self.now;
        self.accounts.update_account(&a).await?;
        remove_files(self.files, &with_still(old)).await;
        Ok(a)
    }

    /// Deletes an account and everything that belongs to it or points at it
    /// (`AccountStore::delete_account`, one transaction), then its avatar and header files.
    /// Mastodon has no client-API method for this; the admin CLI and embedders call it.
    pub async fn delete_account(&self, id: Id) -> ApiResult<DeletedAccount> {
        let account = self
            .accounts
            .account_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let media = self.media.account_media(id).await?;
        self.accounts.delete_account(id).await?;
        self.oauth.access_ended(id).await;
        let keys: Vec<String> = [account.avatar.clone(), account.header.clone()]
            .into_iter()
            .flatten()
            .flat_map(with_still)
            .chain(media.iter().flat_map(|m| m.file_keys().map(str::to_string)))
            .collect();
        let files_removed = remove_files(self.files, &keys).await;
        Ok(DeletedAccount {
            account,
            files_removed,
        })
    }

    /// An account by id for the API: 404 when unknown, 410 when suspended.
    pub async fn visible_account(&self, id: Id) -> ApiResult<AccountRecord> {
        visible_account(self.accounts, id).await
    }

    /// Finds an account by `username`, `@username`, `username@domain` (our own domain means local).
    pub async fn lookup_account(&self, acct: &str) -> ApiResult<AccountRecord> {
        lookup_account(self.accounts, &self.config.domain, acct).await
    }
}

/// A fresh, unguessable key for an image: `accounts/avatars/<32 hex digits>.<ext>`, or
/// `accounts/avatars/<32 hex digits>/original.<ext>` for one stored with a still version
/// (see [`still_key`]).
pub(crate) fn new_file_key(which: ProfileImage, kind: ImageKind, with_still: bool) -> String {
    let base = format!("{}/{:032x}", which.folder(), rand::random::<u128>());
    let ext = kind.extension();
    if with_still {
        format!("{base}/original.{ext}")
    } else {
        format!("{base}.{ext}")
    }
}

/// A profile image's key and the key of its still version, if it has one.
fn with_still(key: String) -> Vec<String> {
    let still = still_key(&key);
    std::iter::once(key).chain(still).collect()
}

/// A page of accounts from a list paginated on hidden ids (follows, requests).
#[derive(Default)]
pub struct AccountPage {
    /// The accounts, in list order.
    pub accounts: Vec<AccountRecord>,
    /// The hidden cursor of the first item.
    pub first: Option<Id>,
    /// The hidden cursor of the last item.
    pub last: Option<Id>,
}

impl AccountPage {
    /// No accounts (and so no `Link` header).
    pub fn empty() -> Self {
        Self::default()
    }
}

/// The accounts of a page of `(cursor, account)` pairs, in their order, suspended ones left
/// out, with the page's cursors.
pub(crate) async fn accounts_page(
    accounts: &dyn AccountStore,
    pairs: &[(Id, Id)],
) -> ApiResult<AccountPage> {
    let ids: Vec<Id> = pairs.iter().map(|(_, a)| *a).collect();
    let found = accounts.accounts_by_ids(&ids).await?;
    let accounts = ids
        .iter()
        .filter_map(|id| {
            found
                .iter()
                .find(|a| a.id == *id && !a.is_suspended())
                .cloned()
        })
        .collect();
    Ok(AccountPage {
        accounts,
        first: pairs.first().map(|p| p.0),
        last: pairs.last().map(|p| p.0),
    })
}

/// The account `acct` names (`user`, `@user`, `user@domain`; `our_domain` means local): 404 when
/// unknown, 410 when suspended.
pub(crate) async fn lookup_account(
    accounts: &dyn AccountStore,
    our_domain: &str,
    acct: &str,
) -> ApiResult<AccountRecord> {
    let acct = acct.trim().trim_start_matches('@');
    let (user, domain) = match acct.split_once('@') {
        Some((u, d)) if d.eq_ignore_ascii_case(our_domain) => (u, None),
        Some((u, d)) => (u, Some(d)),
        None => (acct, None),
    };
    if user.is_empty() {
        return Err(ApiError::not_found());
    }
    let a = accounts
        .account_by_username(user, domain)
        .await?
        .ok_or_else(ApiError::not_found)?;
    if a.is_suspended() {
        return Err(ApiError::gone());
    }
    Ok(a)
}

/// An account by id for the API: 404 when unknown, 410 when suspended (for the area services,
/// which hold the account store but not the app).
pub(crate) async fn visible_account(
    accounts: &dyn AccountStore,
    id: Id,
) -> ApiResult<AccountRecord> {
    let a = accounts
        .account_by_id(id)
        .await?
        .ok_or_else(ApiError::not_found)?;
    if a.is_suspended() {
        return Err(ApiError::gone());
    }
    Ok(a)
}

/// Removes stored files, logging (not failing on) errors: a leftover file is harmless, a failed
/// request after the records changed is not. Returns how many were removed.
pub(crate) async fn remove_files(files: &dyn FileStore, keys: &[String]) -> usize {
    let mut removed = 0;
    for key in keys {
        match files.delete(key).await {
            Ok(()) => removed += 1,
            Err(e) => tracing::warn!(%key, error = %e, "could not remove a stored file"),
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use crate::App;
    use std::sync::Arc;

    use super::*;
    use crate::files::{FileStore, MemoryFileStore};
    use crate::{InstanceConfig, MemoryStore};

    /// A 1x1 PNG.
    const PNG: &[u8] = &[
        137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2,
        0, 0, 0, 144, 119, 83, 222, 0, 0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 232, 233, 253, 15,
        0, 3, 193, 2, 25, 188, 44, 160, 75, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
    ];
    /// The start of a 1x1 GIF (its header and logical screen size).
    const GIF: &[u8] = b"GIF89a\x01\0\x01\0\0\0\0";

    /// The signature and IHDR chunk of a PNG declaring `width` x `height` pixels, followed by
    /// a little of what a decompression bomb would hold: nothing here may decode it.
    fn png_declaring(width: u32, height: u32) -> Vec<u8> {
        let mut v = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        v.extend_from_slice(&width.to_be_bytes());
        v.extend_from_slice(&height.to_be_bytes());
        v.extend_from_slice(&[8, 2, 0, 0, 0]);
        v.extend_from_slice(&[0; 4]);
        v.extend_from_slice(&[0, 0, 0, 16]);
        v.extend_from_slice(b"IDAT");
        v.extend_from_slice(&[
            0x78, 0xDA, 0xED, 0xC1, 0x01, 0x0D, 0, 0, 0, 0xC2, 0xA0, 0xF7, 0x4F, 0x6D, 0x0E, 0x37,
        ]);
        v
    }

    /// A processor that must never be asked: the checks come first.
    struct MustNotDecode;

    #[async_trait::async_trait]
    impl crate::media::MediaProcessor for MustNotDecode {
        async fn preview(
            &self,
            _image: &[u8],
            _max_pixels: u32,
        ) -> Result<crate::media::Preview, String> {
            panic!("a preview was asked for")
        }

        async fn profile_image(
            &self,
            _image: Vec<u8>,
            _kind: ImageKind,
            _geometry: ImageGeometry,
        ) -> Result<ProfileImageFile, String> {
            panic!("an image that should have been refused was decoded")
        }
    }

    /// A processor that turns every image into the same animated GIF with a still version.
    struct Animated;

    #[async_trait::async_trait]
    impl crate::media::MediaProcessor for Animated {
        async fn preview(
            &self,
            _image: &[u8],
            _max_pixels: u32,
        ) -> Result<crate::media::Preview, String> {
            Err("no previews".into())
        }

        async fn profile_image(
            &self,
            _image: Vec<u8>,
            _kind: ImageKind,
            geometry: ImageGeometry,
        ) -> Result<ProfileImageFile, String> {
            assert!(matches!(geometry, ImageGeometry::Square { side: 400 }));
            Ok(ProfileImageFile {
                bytes: GIF.to_vec(),
                kind: ImageKind::Gif,
                still_png: Some(PNG.to_vec()),
            })
        }
    }

    async fn app_with_user() -> (App, Arc<MemoryFileStore>, AccountRecord) {
        let files = Arc::new(MemoryFileStore::new());
        let mut config = InstanceConfig::new("files.test");
        config.password_hash_memory_kib = 64;
        let app = App::new(Arc::new(MemoryStore::new()), config).with_files(files.clone());
        let (account, _, _) = app
            .accounts()
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
            .accounts()
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
            .accounts()
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
            .accounts()
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
            .accounts()
            .delete_profile_image(&account, ProfileImage::Header)
            .await
            .unwrap();
        assert_eq!(c.header, None);
        assert_eq!(files.len(), 1);
        app.accounts()
            .delete_profile_image(&account, ProfileImage::Header)
            .await
            .unwrap();
        assert!(
            app.render_account(&c)
                .header
                .ends_with(crate::render::MISSING_HEADER)
        );

        // Deleting the account removes the remaining file.
        let gone = app.accounts().delete_account(account.id).await.unwrap();
        assert_eq!(gone.files_removed, 1);
        assert!(files.is_empty());
        assert!(app.store.account_by_id(account.id).await.unwrap().is_none());
        assert_eq!(
            app.accounts()
                .delete_account(account.id)
                .await
                .unwrap_err()
                .status
                .as_u16(),
            404
        );
    }

    #[tokio::test]
    async fn images_declaring_too_many_pixels_are_refused_before_decoding() {
        let (mut app, files, account) = app_with_user().await;
        let limit = app.config.limits.image_matrix_limit;
        // A valid avatar and header first (a 1x1 image is already within the size: kept as is).
        let a = app
            .accounts()
            .update_profile(
                &account,
                ProfileUpdate {
                    avatar: Some(PNG.to_vec()),
                    header: Some(PNG.to_vec()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        let (avatar, header) = (a.avatar.clone().unwrap(), a.header.clone().unwrap());
        assert_eq!(files.get(&avatar).await.unwrap().as_deref(), Some(PNG));
        assert_eq!(files.len(), 2);

        app.media = Arc::new(MustNotDecode);
        let bomb = png_declaring(50_000, 50_000);
        assert_eq!(image_dimensions(&bomb), Some((50_000, 50_000)));
        for which in [ProfileImage::Avatar, ProfileImage::Header] {
            let mut u = ProfileUpdate {
                display_name: Some("changed".into()),
                ..Default::default()
            };
            match which {
                ProfileImage::Avatar => u.avatar = Some(bomb.clone()),
                ProfileImage::Header => u.header = Some(bomb.clone()),
            }
            let err = app
                .accounts()
                .update_profile(&account, u)
                .await
                .unwrap_err();
            assert_eq!(err.status.as_u16(), 422);
            assert!(
                err.message.starts_with("Validation failed: "),
                "{}",
                err.message
            );
            assert!(err.message.contains(&limit.to_string()), "{}", err.message);
            let details = err.details.unwrap();
            assert_eq!(details.keys().collect::<Vec<_>>(), [which.field()]);
            assert_eq!(details[which.field()][0].error, "ERR_TOO_LARGE");
            // Nothing stored, nothing changed: the old images are kept and still there.
            let now = app.store.account_by_id(account.id).await.unwrap().unwrap();
            assert_eq!(now.display_name, "");
            assert_eq!(now.avatar.as_deref(), Some(avatar.as_str()));
            assert_eq!(now.header.as_deref(), Some(header.as_str()));
            assert_eq!(files.len(), 2);
            assert_eq!(files.get(&avatar).await.unwrap().as_deref(), Some(PNG));
            assert_eq!(files.get(&header).await.unwrap().as_deref(), Some(PNG));
        }

        // An image whose dimensions cannot be read is refused too, as is one of zero pixels.
        for bad in [
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
            png_declaring(0, 10),
        ] {
            let err = app
                .accounts()
                .update_profile(
                    &account,
                    ProfileUpdate {
                        header: Some(bad),
                        ..Default::default()
                    },
                )
                .await
                .unwrap_err();
            assert_eq!(err.status.as_u16(), 422);
            assert!(err.details.unwrap().contains_key("header"));
        }
        // Exactly at the limit is no bomb: it goes on to the processor (which panics here), so
        // check the header rule alone.
        let side = (limit as f64).sqrt() as u32;
        assert!(
            ProfileImage::Avatar
                .check(&png_declaring(side, side), limit)
                .is_ok()
        );
        assert!(
            ProfileImage::Avatar
                .check(&png_declaring(side + 1, side + 1), limit)
                .is_err()
        );
        assert_eq!(files.len(), 2);
    }

    #[tokio::test]
    async fn animated_images_are_stored_with_their_still_version() {
        let (app, files, account) = app_with_user().await;
        let app = app.with_media_processor(Arc::new(Animated));
        let a = app
            .accounts()
            .update_profile(
                &account,
                ProfileUpdate {
                    avatar: Some(PNG.to_vec()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        let key = a.avatar.clone().unwrap();
        assert!(
            key.starts_with("accounts/avatars/") && key.ends_with("/original.gif"),
            "{key}"
        );
        let still = still_key(&key).unwrap();
        assert!(still.ends_with("/static.png"), "{still}");
        assert!(crate::files::valid_key(&key) && crate::files::valid_key(&still));
        assert_eq!(files.get(&key).await.unwrap().as_deref(), Some(GIF));
        assert_eq!(files.get(&still).await.unwrap().as_deref(), Some(PNG));
        assert_eq!(files.len(), 2);
        assert_eq!(still_key("accounts/avatars/0a.gif"), None);
        assert_eq!(still_key("media_attachments/files/1/original.gif"), None);

        // Replacing removes both files; deleting the new one removes its pair too.
        app.accounts()
            .update_profile(
                &account,
                ProfileUpdate {
                    avatar: Some(PNG.to_vec()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(files.get(&key).await.unwrap(), None);
        assert_eq!(files.get(&still).await.unwrap(), None);
        assert_eq!(files.len(), 2);
        app.accounts()
            .delete_profile_image(&account, ProfileImage::Avatar)
            .await
            .unwrap();
        assert!(files.is_empty());
    }

    #[test]
    fn image_checks_and_data_uris() {
        let big = {
            let mut v = PNG[..33].to_vec();
            v.resize(PROFILE_IMAGE_LIMIT, 0);
            v
        };
        let limit = crate::config::Limits::default().image_matrix_limit;
        assert!(ProfileImage::Avatar.check(&big, limit).is_err());
        assert!(
            ProfileImage::Avatar
                .check(&big[..PROFILE_IMAGE_LIMIT - 1], limit)
                .is_ok()
        );
        assert!(ProfileImage::Avatar.check(b"", limit).is_err());
        assert!(ProfileImage::Avatar.check(b"hello", limit).is_err());
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
