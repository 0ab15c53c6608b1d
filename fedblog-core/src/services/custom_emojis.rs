//! This server's custom emojis, as staff manage them, and the lookups rendering needs.
//!
//! An emoji is an image shown for `:shortcode:` in text. This server's own (no domain) are
//! uploaded by staff (the fedblog admin endpoints, or the `emoji import` command of the
//! server), listed by `GET /api/v1/custom_emojis` while enabled, and rendered in the `emojis`
//! of local statuses, accounts and polls that name them; remote servers' are kept from the
//! `Emoji` tags of what they send (`services/federation_runner/emojis.rs`) and can be copied
//! here. Administrators enable and disable emojis: a disabled one is neither listed nor
//! rendered.
//!
//! Images are PNG, GIF or WebP of at most [`EMOJI_IMAGE_LIMIT`] bytes, as Mastodon takes them,
//! stored as uploaded through the [`FileStore`] (keys `custom_emojis/images/<hex>/...`); an
//! animated image gets a still version (its first frame) from the [`MediaProcessor`], served as
//! `static_url`.
//!
//! Rendering an account reads nothing: this server's enabled emojis are read at most once per
//! [`LOCAL_EMOJIS_TTL`] into [`LocalEmojis`], which the app keeps (a server has hundreds of
//! emojis, not millions) and this process forgets when it changes one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::content::{emoji_shortcodes, is_valid_shortcode};
use crate::error::{ApiError, ApiResult};
use crate::files::{FileStore, ImageKind};
use crate::id::{Id, IdGenerator};
use crate::media::{ImageGeometry, MediaProcessor};
use crate::pagination::Page;
use crate::store::{CustomEmojiFilter, CustomEmojiRecord, MediaStore};

/// The largest emoji image taken, in bytes: Mastodon's limit for local custom emojis (256 KB).
pub const EMOJI_IMAGE_LIMIT: usize = 256 * 1024;

/// The longest category name kept.
pub const MAX_CATEGORY_CHARS: usize = 64;

/// The longest shortcode taken (Mastodon's admin form takes no longer ones).
pub const MAX_SHORTCODE_CHARS: usize = 128;

/// How long the enabled local emojis read for rendering are trusted: a change made through
/// this process shows at once, one made by another process (the CLI) within this time.
pub const LOCAL_EMOJIS_TTL: Duration = Duration::from_secs(30);

/// Emojis read per page when all of this server's are read.
const EMOJIS_PER_READ: usize = 200;

/// The most pixels the still version of an animated emoji has (it is shown at text size).
const STILL_MAX_PIXELS: u64 = 1024 * 1024;

/// This server's enabled emojis by shortcode, as last read.
type Enabled = Arc<HashMap<String, CustomEmojiRecord>>;

/// This server's enabled custom emojis as last read, kept by the app for rendering.
#[derive(Debug, Default)]
pub struct LocalEmojis {
    read: Mutex<Option<(Instant, Enabled)>>,
}

impl LocalEmojis {
    /// The enabled local emojis the `:shortcode:`s of `texts` name, each once, in order of
    /// first use (none before the first read).
    pub fn named_in<'t>(&self, texts: impl IntoIterator<Item = &'t str>) -> Vec<CustomEmojiRecord> {
        let enabled = {
            let read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
            match read.as_ref() {
                Some((_, enabled)) if !enabled.is_empty() => Arc::clone(enabled),
                _ => return vec![],
            }
        };
        let mut out: Vec<CustomEmojiRecord> = vec![];
        for text in texts {
            for code in emoji_shortcodes(text) {
                if out.iter().any(|e| e.shortcode == code) {
                    continue;
                }
                if let Some(e) = enabled.get(&code) {
                    out.push(e.clone());
                }
            }
        }
        out
    }

    /// Reads the enabled local emojis again when the last read is older than
    /// [`LOCAL_EMOJIS_TTL`] (or there was none). A store that does not manage custom emojis
    /// lists none: nothing is rendered.
    pub async fn refresh_if_stale(&self, store: &dyn MediaStore) -> ApiResult<()> {
        let fresh = {
            let read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
            read.as_ref()
                .is_some_and(|(at, _)| at.elapsed() < LOCAL_EMOJIS_TTL)
        };
        if fresh {
            return Ok(());
        }
        let enabled: HashMap<String, CustomEmojiRecord> = enabled_local(store)
            .await?
            .into_iter()
            .map(|e| (e.shortcode.clone(), e))
            .collect();
        *self.read.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((Instant::now(), Arc::new(enabled)));
        Ok(())
    }

    /// Forgets what was read (an emoji changed in this process): the next request reads again.
    pub fn forget(&self) {
        *self.read.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Every enabled emoji of this server, by shortcode.
async fn enabled_local(store: &dyn MediaStore) -> ApiResult<Vec<CustomEmojiRecord>> {
    let filter = CustomEmojiFilter {
        local: Some(true),
        enabled_only: true,
        ..CustomEmojiFilter::default()
    };
    let mut all = vec![];
    let mut page = Page::first(EMOJIS_PER_READ);
    loop {
        let got = store.list_custom_emojis(&filter, page).await?;
        let last = got.last().map(|e| e.id);
        let full = got.len() == EMOJIS_PER_READ;
        all.extend(got);
        match last {
            Some(last) if full => page.max_id = Some(last),
            _ => break,
        }
    }
    all.sort_by(|a, b| a.shortcode.cmp(&b.shortcode));
    Ok(all)
}

/// A new local emoji.
#[derive(Clone, Debug, Default)]
pub struct NewEmoji {
    /// The name between the colons.
    pub shortcode: String,
    /// The image (PNG, GIF or WebP).
    pub image: Vec<u8>,
    /// The category pickers group it under (blank: none).
    pub category: Option<String>,
    /// Whether pickers offer it (Mastodon's default: yes).
    pub visible_in_picker: bool,
}

/// What `PATCH /api/v1/admin/custom_emojis/:id` changes; absent fields are kept.
#[derive(Clone, Debug, Default)]
pub struct EmojiChange {
    /// A new category (blank: none).
    pub category: Option<String>,
    /// Whether pickers offer it.
    pub visible_in_picker: Option<bool>,
}

/// What [`CustomEmojis::create`] does when this server has an emoji of that shortcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnTaken {
    /// Refuse (422), as the admin endpoint does.
    Refuse,
    /// Replace its image, category and picker visibility, keeping its id.
    Replace,
    /// Keep it and change nothing ([`Created::Kept`]).
    Keep,
}

/// What [`CustomEmojis::create`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Created {
    /// A new emoji was stored, or a taken one replaced.
    Stored(CustomEmojiRecord),
    /// The shortcode was taken and [`OnTaken::Keep`] kept it.
    Kept(CustomEmojiRecord),
}

/// The custom emojis area: `app.custom_emojis()`.
pub struct CustomEmojis<'a> {
    store: &'a dyn MediaStore,
    files: &'a dyn FileStore,
    processor: &'a dyn MediaProcessor,
    local: &'a LocalEmojis,
    ids: &'a IdGenerator,
    base_url: String,
    now: DateTime<Utc>,
}

impl<'a> CustomEmojis<'a> {
    /// The area over `store`, keeping images in `files` (their URLs under `base_url`), making
    /// stills with `processor`, forgetting `local` when an emoji changes, dating changes `now`.
    pub fn new(
        store: &'a dyn MediaStore,
        files: &'a dyn FileStore,
        processor: &'a dyn MediaProcessor,
        local: &'a LocalEmojis,
        ids: &'a IdGenerator,
        base_url: String,
        now: DateTime<Utc>,
    ) -> Self {
        CustomEmojis {
            store,
            files,
            processor,
            local,
            ids,
            base_url,
            now,
        }
    }

    /// This server's enabled emojis, by shortcode (`GET /api/v1/custom_emojis`).
    pub async fn enabled_local(&self) -> ApiResult<Vec<CustomEmojiRecord>> {
        enabled_local(self.store).await
    }

    /// 404 unless the store manages custom emojis (the admin operations are then not offered).
    fn managed(&self) -> ApiResult<()> {
        if self.store.manages_custom_emojis() {
            Ok(())
        } else {
            Err(ApiError::new(
                http::StatusCode::NOT_FOUND,
                "This server does not manage custom emojis",
            ))
        }
    }

    /// One page of the emojis `filter` selects, newest first (staff).
    pub async fn list(
        &self,
        filter: &CustomEmojiFilter,
        page: Page,
    ) -> ApiResult<Vec<CustomEmojiRecord>> {
        self.managed()?;
        let filter = CustomEmojiFilter {
            domain: filter
                .domain
                .as_ref()
                .map(|d| d.trim().to_ascii_lowercase()),
            shortcode: filter
                .shortcode
                .as_ref()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty()),
            ..filter.clone()
        };
        Ok(self.store.list_custom_emojis(&filter, page).await?)
    }

    /// The emoji with this id; 404 if there is none.
    pub async fn get(&self, id: Id) -> ApiResult<CustomEmojiRecord> {
        self.managed()?;
        self.store
            .custom_emoji_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)
    }

    /// Stores a new local emoji: its shortcode checked (422 `shortcode`), its image a PNG, GIF
    /// or WebP of at most [`EMOJI_IMAGE_LIMIT`] bytes (422 `image`), with a still version when
    /// it is animated. A shortcode this server has is handled as `on_taken` says.
    pub async fn create(&self, new: NewEmoji, on_taken: OnTaken) -> ApiResult<Created> {
        self.managed()?;
        let shortcode = new.shortcode.trim().to_string();
        check_shortcode(&shortcode)?;
        let category = clean_category(new.category.as_deref())?;
        let kind = check_image(&new.image)?;
        let taken = self
            .store
            .custom_emojis_by_keys(&[(shortcode.clone(), None)])
            .await?
            .into_iter()
            .next();
        if let Some(existing) = &taken {
            match on_taken {
                OnTaken::Refuse => {
                    return Err(ApiError::invalid_field(
                        "shortcode",
                        "ERR_TAKEN",
                        "Shortcode has already been taken",
                    ));
                }
                OnTaken::Keep => return Ok(Created::Kept(existing.clone())),
                OnTaken::Replace => {}
            }
        }
        let (image_key, static_key) = self.store_image(new.image, kind).await?;
        let id = taken.as_ref().map_or_else(|| self.ids.next(), |e| e.id);
        let record = CustomEmojiRecord {
            id,
            shortcode: shortcode.clone(),
            domain: None,
            uri: Some(format!("{}/emojis/{id}", self.base_url)),
            image_url: self.files.public_url(&self.base_url, &image_key),
            static_url: self.files.public_url(&self.base_url, &static_key),
            visible_in_picker: new.visible_in_picker,
            category,
            disabled: taken.as_ref().is_some_and(|e| e.disabled),
            updated_at: self.now,
        };
        if let Err(e) = self
            .store
            .save_custom_emojis(std::slice::from_ref(&record))
            .await
        {
            self.remove_files(&[image_key, static_key]).await;
            return Err(e.into());
        }
        if let Some(old) = &taken {
            self.remove_files_of(old).await;
        }
        self.local.forget();
        let stored = self
            .store
            .custom_emojis_by_keys(&[(shortcode, None)])
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| {
                ApiError::new(
                    http::StatusCode::NOT_FOUND,
                    "This server does not keep custom emojis",
                )
            })?;
        Ok(Created::Stored(stored))
    }

    /// Changes an emoji's category and picker visibility.
    pub async fn update(&self, id: Id, change: EmojiChange) -> ApiResult<CustomEmojiRecord> {
        let mut e = self.get(id).await?;
        if let Some(category) = change.category.as_deref() {
            e.category = clean_category(Some(category))?;
        }
        if let Some(v) = change.visible_in_picker {
            e.visible_in_picker = v;
        }
        self.save(e).await
    }

    /// Enables (`disabled` false) or disables an emoji: a disabled one is neither listed nor
    /// rendered.
    pub async fn set_disabled(&self, id: Id, disabled: bool) -> ApiResult<CustomEmojiRecord> {
        let mut e = self.get(id).await?;
        if e.disabled == disabled {
            return Ok(e);
        }
        e.disabled = disabled;
        self.save(e).await
    }

    /// Copies a remote emoji to this server under its shortcode: a new local emoji showing
    /// the same image (its URLs as the remote server serves them), enabled and offered in
    /// pickers. 422 for a local emoji or a shortcode this server has.
    pub async fn copy(&self, id: Id) -> ApiResult<CustomEmojiRecord> {
        let remote = self.get(id).await?;
        if remote.domain.is_none() {
            return Err(ApiError::unprocessable("This emoji is this server's own"));
        }
        let taken = self
            .store
            .custom_emojis_by_keys(&[(remote.shortcode.clone(), None)])
            .await?;
        if !taken.is_empty() {
            return Err(ApiError::invalid_field(
                "shortcode",
                "ERR_TAKEN",
                "Shortcode has already been taken",
            ));
        }
        let id = self.ids.next();
        let copy = CustomEmojiRecord {
            id,
            domain: None,
            uri: Some(format!("{}/emojis/{id}", self.base_url)),
            visible_in_picker: true,
            disabled: false,
            updated_at: self.now,
            ..remote
        };
        self.save(copy).await
    }

    /// Removes an emoji, and the files of a local one.
    pub async fn delete(&self, id: Id) -> ApiResult<()> {
        self.managed()?;
        let removed = self
            .store
            .delete_custom_emoji(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        self.remove_files_of(&removed).await;
        self.local.forget();
        Ok(())
    }

    /// Saves a changed emoji and reads it back.
    async fn save(&self, e: CustomEmojiRecord) -> ApiResult<CustomEmojiRecord> {
        let record = CustomEmojiRecord {
            updated_at: self.now,
            ..e
        };
        self.store
            .save_custom_emojis(std::slice::from_ref(&record))
            .await?;
        self.local.forget();
        self.store
            .custom_emojis_by_keys(&[(record.shortcode.clone(), record.domain.clone())])
            .await?
            .into_iter()
            .next()
            .ok_or_else(ApiError::not_found)
    }

    /// Stores an image and its still version (the image itself when it is still); their keys.
    async fn store_image(&self, image: Vec<u8>, kind: ImageKind) -> ApiResult<(String, String)> {
        let dir = format!("custom_emojis/images/{:032x}", rand::random::<u128>());
        let image_key = format!("{dir}/original.{}", kind.extension());
        let still = self
            .processor
            .profile_image(
                image.clone(),
                kind,
                ImageGeometry::MaxPixels {
                    max_pixels: STILL_MAX_PIXELS,
                },
            )
            .await
            .map_err(|reason| {
                ApiError::invalid_field("image", "ERR_INVALID", format!("Image {reason}"))
            })?;
        // A still PNG made of an animated image, or the image made still (its first frame);
        // otherwise the image is its own still.
        let still_file = match (still.still_png, still.bytes != image) {
            (Some(png), _) => Some((format!("{dir}/static.png"), png)),
            (None, true) => Some((
                format!("{dir}/static.{}", still.kind.extension()),
                still.bytes,
            )),
            (None, false) => None,
        };
        self.files
            .put(&image_key, &image)
            .await
            .map_err(crate::services::accounts::file_failure)?;
        let static_key = match still_file {
            Some((key, bytes)) => {
                if let Err(e) = self.files.put(&key, &bytes).await {
                    self.remove_files(std::slice::from_ref(&image_key)).await;
                    return Err(crate::services::accounts::file_failure(e));
                }
                key
            }
            None => image_key.clone(),
        };
        Ok((image_key, static_key))
    }

    /// Removes the stored files of a local emoji (a copied one shows remote URLs: none).
    async fn remove_files_of(&self, e: &CustomEmojiRecord) {
        if e.domain.is_some() {
            return;
        }
        let prefix = self.files.public_url(&self.base_url, "");
        let keys: Vec<String> = [&e.image_url, &e.static_url]
            .into_iter()
            .filter_map(|url| url.strip_prefix(&prefix))
            .filter(|k| k.starts_with("custom_emojis/"))
            .map(str::to_string)
            .collect();
        self.remove_files(&keys).await;
    }

    /// Removes files; a failure is logged (the record is gone already).
    async fn remove_files(&self, keys: &[String]) {
        let mut done: Vec<&String> = vec![];
        for key in keys {
            if done.contains(&key) {
                continue;
            }
            if let Err(e) = self.files.delete(key).await {
                tracing::warn!(error = %e, key, "could not remove a custom emoji file");
            }
            done.push(key);
        }
    }
}

/// 422 `shortcode` unless `shortcode` is two to [`MAX_SHORTCODE_CHARS`] letters, digits or `_`.
pub fn check_shortcode(shortcode: &str) -> ApiResult<()> {
    if shortcode.is_empty() {
        return Err(ApiError::invalid_field(
            "shortcode",
            "ERR_BLANK",
            "Shortcode can't be blank",
        ));
    }
    if !is_valid_shortcode(shortcode) || shortcode.len() > MAX_SHORTCODE_CHARS {
        return Err(ApiError::invalid_field(
            "shortcode",
            "ERR_INVALID",
            "Shortcode must be at least 2 characters and can only contain alphanumeric characters and underscores",
        ));
    }
    Ok(())
}

/// The format of an emoji image: PNG, GIF or WebP of at most [`EMOJI_IMAGE_LIMIT`] bytes
/// (422 `image` otherwise).
pub fn check_image(image: &[u8]) -> ApiResult<ImageKind> {
    if image.is_empty() {
        return Err(ApiError::invalid_field(
            "image",
            "ERR_BLANK",
            "Image can't be blank",
        ));
    }
    if image.len() > EMOJI_IMAGE_LIMIT {
        return Err(ApiError::invalid_field(
            "image",
            "ERR_TOO_LARGE",
            format!("Image must be less than {} KB", EMOJI_IMAGE_LIMIT / 1024),
        ));
    }
    match ImageKind::sniff(image) {
        Some(kind @ (ImageKind::Png | ImageKind::Gif | ImageKind::Webp)) => Ok(kind),
        _ => Err(ApiError::invalid_field(
            "image",
            "ERR_INVALID",
            "Image has contents that are not what they are reported to be (PNG, GIF or WebP)",
        )),
    }
}

/// A category as kept: trimmed, `None` when blank; 422 `category` when too long.
fn clean_category(category: Option<&str>) -> ApiResult<Option<String>> {
    let Some(c) = category.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    if c.chars().count() > MAX_CATEGORY_CHARS {
        return Err(ApiError::invalid_field(
            "category",
            "ERR_TOO_LONG",
            format!("Category is too long (maximum is {MAX_CATEGORY_CHARS} characters)"),
        ));
    }
    Ok(Some(c.to_string()))
}
