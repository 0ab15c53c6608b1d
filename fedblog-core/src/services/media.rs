//! Media attachments: uploading (format, size and dimension checks, the stored file), reading
//! and updating one's own uploads, the background work (previews, BlurHash, clean-up of media
//! never posted, copies of remote media), and the rules for attaching media to statuses.
//!
//! Remote media (the attachments of other servers' posts, their accounts' avatars and headers)
//! are kept by URL; with `download_remote_media` on, a [`DOWNLOAD_REMOTE_MEDIA`] job copies
//! each into the file store, within `remote_media_max_bytes`, and clients are shown the copy.
//! An attachment to be copied is stored with the key of its copy and unprocessed, and is shown
//! from its server until the copy is made ([`shown_from_remote`]); an avatar or header is shown
//! from its URL until the account's `avatar` / `header` holds the key of the copy.

use chrono::Duration;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use chrono::{DateTime, Utc};

use crate::config::Limits;
use crate::error::{ApiError, ApiResult};
use crate::files::{FileStore, ImageKind};
use crate::id::{Id, IdGenerator};
use crate::media::{MediaFormat, MediaProcessor, image_dimensions};
use crate::params::Upload;
use crate::services::accounts::{
    PROFILE_IMAGE_LIMIT, ProfileImage, file_failure, new_file_key, remove_files, still_key,
};
use crate::services::jobs::{json_job, new_job};
use crate::store::{
    AccountRecord, AccountStore, JobRecord, JobStore, MediaKind, MediaRecord, MediaStore,
    StatusEditStore, Store,
};

/// Makes the preview and BlurHash of an image, or finishes a video or audio upload; payload
/// `{"media_id": "<id>"}`.
pub const PROCESS_MEDIA: &str = "process_media";
/// Removes an attachment (and its files) if it is still not attached to any status; payload
/// `{"media_id": "<id>"}`.
pub const REMOVE_MEDIA: &str = "remove_media";

/// Copies a remote file into the file store (see the module documentation); payload
/// [`RemoteDownload`].
pub const DOWNLOAD_REMOTE_MEDIA: &str = "download_remote_media";

/// Tries of a [`DOWNLOAD_REMOTE_MEDIA`] job whose server did not answer or failed (Mastodon's
/// `RedownloadMediaWorker` is retried three times). A refusal that trying again would not change
/// (the file is gone, too large, not media we store) ends the job at once.
pub const REMOTE_MEDIA_ATTEMPTS: i32 = 3;

/// Media not attached to a status after this long are removed (uploads never posted, and the
/// media of deleted statuses kept for "delete and redraft").
pub const UNATTACHED_MEDIA_HOURS: i64 = 24;

/// The largest preview, in pixels (Mastodon's `small` style: 640 x 360).
pub const PREVIEW_PIXELS: u32 = 230_400;

/// What a client may set on an upload: alternative text, focal point, custom thumbnail.
#[derive(Default, Debug)]
pub struct MediaChanges {
    /// Alternative text (`None`: unchanged; empty: removed).
    pub description: Option<String>,
    /// Focal point as sent, `"x,y"` (`None`: unchanged).
    pub focus: Option<String>,
    /// A custom thumbnail image.
    pub thumbnail: Option<Upload>,
}

/// A 422 naming the upload.
fn file_error(msg: impl Into<String>) -> ApiError {
    ApiError::invalid_field("file", "ERR_INVALID", msg)
}

/// Parses a focal point `"x,y"` with both in -1.0..=1.0; 422 otherwise.
pub fn parse_focus(text: &str) -> ApiResult<Option<(f64, f64)>> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let bad = || {
        ApiError::invalid_field(
            "focus",
            "ERR_INVALID",
            "Focus must be \"x,y\" with both between -1.0 and 1.0",
        )
    };
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: f64 = x.trim().parse().map_err(|_| bad())?;
    let y: f64 = y.trim().parse().map_err(|_| bad())?;
    if !(-1.0..=1.0).contains(&x) || !(-1.0..=1.0).contains(&y) {
        return Err(bad());
    }
    Ok(Some((x, y)))
}

/// `{"width", "height", "size", "aspect"}` of an image of this size.
fn dimensions_json(width: u32, height: u32) -> Value {
    json!({
        "width": width,
        "height": height,
        "size": format!("{width}x{height}"),
        "aspect": if height == 0 { 0.0 } else { f64::from(width) / f64::from(height) },
    })
}

/// What a [`DOWNLOAD_REMOTE_MEDIA`] job copies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "of", rename_all = "snake_case")]
pub enum RemoteDownload {
    /// A remote post's attachment, stored with the key of its copy (see
    /// [`Media::remote_copy_key`]).
    Attachment {
        /// The attachment.
        media_id: Id,
    },
    /// A remote account's avatar.
    Avatar(RemoteProfileImage),
    /// A remote account's header.
    Header(RemoteProfileImage),
}

/// A remote account's new avatar or header, as an actor refresh found it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RemoteProfileImage {
    /// The account.
    pub account_id: Id,
    /// The image to copy, if one is to be.
    pub url: Option<String>,
    /// The key of our copy of the image it replaced, whose files are removed.
    pub replaces: Option<String>,
}

/// A [`DOWNLOAD_REMOTE_MEDIA`] job copying `what`, tried at most [`REMOTE_MEDIA_ATTEMPTS`] times.
pub fn remote_download_job(
    id: Id,
    what: &RemoteDownload,
    now: DateTime<Utc>,
) -> ApiResult<JobRecord> {
    json_job(id, DOWNLOAD_REMOTE_MEDIA, what, now, REMOTE_MEDIA_ATTEMPTS)
}

/// Whether `media` is shown from its server: a remote attachment with no copy here (none is
/// kept, or it is not made yet, or could not be).
pub fn shown_from_remote(media: &MediaRecord) -> bool {
    media.remote_url.is_some() && (media.file_key.is_empty() || !media.processed)
}

/// Whether a profile image's value is a URL (a remote account's image shown from its server)
/// rather than the key of a file of ours.
pub fn is_remote_url(image: &str) -> bool {
    image.starts_with("https://") || image.starts_with("http://")
}

/// The image a remote account shows as its avatar or header (`which`) and the URL it has on
/// its server.
fn remote_image_mut(
    account: &mut AccountRecord,
    which: ProfileImage,
) -> (&mut Option<String>, &mut Option<String>) {
    match which {
        ProfileImage::Avatar => (&mut account.avatar, &mut account.avatar_remote_url),
        ProfileImage::Header => (&mut account.header, &mut account.header_remote_url),
    }
}

/// Takes the URL a fresh copy of a remote account's actor gives for its avatar or header
/// (`which`). The same URL keeps what the account shows (our copy, once made); another is shown
/// from its server at once, and our copy of the old one goes. Returns the job to queue, if any:
/// the copy of the new image when `download` is on, the removal of the old copy's files.
pub fn take_remote_profile_image(
    account: &mut AccountRecord,
    which: ProfileImage,
    url: Option<String>,
    download: bool,
) -> Option<RemoteDownload> {
    let account_id = account.id;
    let (shown, remote) = remote_image_mut(account, which);
    if *remote == url {
        return None;
    }
    let replaces = std::mem::replace(shown, url.clone()).filter(|old| !is_remote_url(old));
    *remote = url.clone();
    let image = RemoteProfileImage {
        account_id,
        url: url.filter(|_| download),
        replaces,
    };
    if image.url.is_none() && image.replaces.is_none() {
        return None;
    }
    Some(match which {
        ProfileImage::Avatar => RemoteDownload::Avatar(image),
        ProfileImage::Header => RemoteDownload::Header(image),
    })
}

/// The format a remote attachment is said to have: its media type, else its URL's extension.
fn declared_format(media_type: Option<&str>, url: &str) -> Option<MediaFormat> {
    if let Some(t) = media_type {
        let t = t
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if let Some(f) = MediaFormat::all().find(|f| f.content_type() == t) {
            return Some(f);
        }
    }
    let path = url.split(['?', '#']).next().unwrap_or("");
    let name = path.rsplit('/').next().unwrap_or("");
    MediaFormat::of_key(&name.to_ascii_lowercase())
}

/// The media id of a job payload.
pub fn payload_media_id(payload: &Value) -> Result<Id, String> {
    payload["media_id"]
        .as_str()
        .and_then(|s| s.parse::<Id>().ok())
        .ok_or_else(|| "payload has no media_id".to_string())
}

/// The media area: uploads, their descriptions and thumbnails, their processing and removal,
/// and the media a status is posted with.
pub struct Media<'a> {
    media: &'a dyn MediaStore,
    accounts: &'a dyn AccountStore,
    jobs: &'a dyn JobStore,
    edits: &'a dyn StatusEditStore,
    files: &'a dyn FileStore,
    processor: &'a dyn MediaProcessor,
    limits: &'a Limits,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> Media<'a> {
    /// The area over the media, accounts, jobs and status edits of `store`, keeping files in
    /// `files`, making previews with `processor`, within `limits`, making ids with `ids`, at
    /// `now`.
    pub fn new(
        store: &'a dyn Store,
        files: &'a dyn FileStore,
        processor: &'a dyn MediaProcessor,
        limits: &'a Limits,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Media {
            media: store,
            accounts: store,
            jobs: store,
            edits: store,
            files,
            processor,
            limits,
            ids,
            now,
        }
    }

    /// Checks the description against the instance's limit; 422 when too long.
    fn check_media_description(&self, description: &str) -> ApiResult<()> {
        let limit = self.limits.max_media_description;
        if description.chars().count() > limit {
            return Err(ApiError::invalid_field(
                "description",
                "ERR_TOO_LONG",
                format!("Description is too long (maximum is {limit} characters)"),
            ));
        }
        Ok(())
    }

    /// Sets the description (empty: none) and focal point a client sent (`None`: unchanged) on
    /// `media`, checked; returns whether either changed.
    pub(crate) fn describe_media(
        &self,
        media: &mut MediaRecord,
        description: Option<&str>,
        focus: Option<&str>,
    ) -> ApiResult<bool> {
        let before = (media.description.clone(), media.focus);
        if let Some(d) = description {
            self.check_media_description(d)?;
            media.description = Some(d.to_string()).filter(|d| !d.trim().is_empty());
        }
        if let Some(f) = focus {
            media.focus = parse_focus(f)?;
        }
        Ok((media.description.clone(), media.focus) != before)
    }

    /// Stores a custom thumbnail (an image within the image size limit) for `media`, replacing
    /// any earlier one.
    async fn store_thumbnail(&self, media: &mut MediaRecord, upload: &Upload) -> ApiResult<()> {
        let Some(MediaFormat::Image(kind)) = MediaFormat::sniff(&upload.bytes) else {
            return Err(ApiError::invalid_field(
                "thumbnail",
                "ERR_INVALID",
                "Thumbnail must be a PNG, JPEG, GIF or WebP image",
            ));
        };
        if upload.bytes.len() > self.limits.image_size_limit {
            return Err(ApiError::invalid_field(
                "thumbnail",
                "ERR_TOO_LARGE",
                "Thumbnail is too large",
            ));
        }
        let key = format!(
            "media_attachments/thumbnails/{}/{}.{}",
            media.id,
            self.ids.next(),
            kind.extension()
        );
        self.files
            .put(&key, &upload.bytes)
            .await
            .map_err(file_failure)?;
        if let Some(old) = media.thumbnail_key.replace(key) {
            remove_files(self.files, &[old]).await;
        }
        Ok(())
    }

    /// Uploads a media attachment for `me`. Images are ready at once; video and audio are
    /// finished by a background job (until then `processed` is false). Either way a job makes
    /// the preview, and another removes the upload after a day unless a status uses it.
    pub async fn upload_media(
        &self,
        me: &AccountRecord,
        file: Option<&Upload>,
        changes: MediaChanges,
    ) -> ApiResult<MediaRecord> {
        let Some(file) = file.filter(|f| !f.bytes.is_empty()) else {
            return Err(file_error("File can't be blank"));
        };
        let format = MediaFormat::sniff(&file.bytes).ok_or_else(|| {
            file_error("File type is not supported (images: PNG, JPEG, GIF, WebP; video: MP4, MOV, WebM; audio: MP3, Ogg, WAV, FLAC, M4A)")
        })?;
        let kind = format.kind();
        let limit = match kind {
            MediaKind::Image => self.limits.image_size_limit,
            _ => self.limits.video_size_limit,
        };
        if file.bytes.len() > limit {
            return Err(ApiError::invalid_field(
                "file",
                "ERR_TOO_LARGE",
                format!("File is larger than the limit of {limit} bytes"),
            ));
        }
        let description = changes.description.unwrap_or_default();
        self.check_media_description(&description)?;
        let focus = parse_focus(changes.focus.as_deref().unwrap_or(""))?;
        let meta = match kind {
            MediaKind::Image => {
                let (w, h) = image_dimensions(&file.bytes)
                    .ok_or_else(|| file_error("The image could not be read"))?;
                let limit = self.limits.image_matrix_limit;
                if u64::from(w) * u64::from(h) > limit {
                    return Err(ApiError::invalid_field(
                        "file",
                        "ERR_TOO_LARGE",
                        format!("Image has more than {limit} pixels"),
                    ));
                }
                json!({ "original": dimensions_json(w, h) })
            }
            _ => json!({}),
        };
        let now = self.now;
        let id = self.ids.next_at(now.timestamp_millis());
        let mut media = MediaRecord {
            id,
            account_id: me.id,
            status_id: None,
            scheduled_status_id: None,
            kind,
            file_key: format!(
                "media_attachments/files/{id}/original.{}",
                format.extension()
            ),
            file_size: file.bytes.len() as i64,
            preview_key: None,
            thumbnail_key: None,
            description: Some(description).filter(|d| !d.trim().is_empty()),
            focus,
            meta: meta.to_string(),
            blurhash: None,
            processed: kind == MediaKind::Image,
            remote_url: None,
            created_at: now,
        };
        if let Some(thumb) = &changes.thumbnail {
            self.store_thumbnail(&mut media, thumb).await?;
        }
        if let Err(e) = self.files.put(&media.file_key, &file.bytes).await {
            remove_files(
                self.files,
                &media.thumbnail_key.iter().cloned().collect::<Vec<_>>(),
            )
            .await;
            return Err(file_failure(e));
        }
        if let Err(e) = self.media.insert_media(&media).await {
            self.remove_media_files(&media).await;
            return Err(e.into());
        }
        let payload = json!({ "media_id": media.id }).to_string();
        self.jobs
            .enqueue_job(&new_job(self.ids.next(), PROCESS_MEDIA, &payload, now, now))
            .await?;
        self.schedule_media_removal(&[media.id]).await?;
        Ok(media)
    }

    /// Queues the removal of these media in a day, if no status uses them by then.
    pub async fn schedule_media_removal(&self, ids: &[Id]) -> ApiResult<()> {
        let now = self.now;
        for id in ids {
            let payload = json!({ "media_id": id }).to_string();
            let at = now + Duration::hours(UNATTACHED_MEDIA_HOURS);
            self.jobs
                .enqueue_job(&new_job(self.ids.next(), REMOVE_MEDIA, &payload, at, now))
                .await?;
        }
        Ok(())
    }

    /// The caller's own media attachment; 404 for anyone else's.
    pub async fn own_media(&self, me: &AccountRecord, id: Id) -> ApiResult<MediaRecord> {
        match self.media.media_by_id(id).await? {
            Some(m) if m.account_id == me.id => Ok(m),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Changes the description, focal point or thumbnail of one's own upload that no status uses
    /// yet (one waiting in a scheduled status included); attached media are a 404, as in
    /// Mastodon (their descriptions change by editing the status).
    pub async fn update_media(
        &self,
        me: &AccountRecord,
        id: Id,
        changes: MediaChanges,
    ) -> ApiResult<MediaRecord> {
        let mut media = self.own_media(me, id).await?;
        if media.status_id.is_some() {
            return Err(ApiError::not_found());
        }
        self.describe_media(
            &mut media,
            changes.description.as_deref(),
            changes.focus.as_deref(),
        )?;
        if let Some(thumb) = &changes.thumbnail {
            self.store_thumbnail(&mut media, thumb).await?;
        }
        self.media.update_media(&media).await?;
        Ok(media)
    }

    /// Deletes one's own upload that no status uses; 422 when a status (or a scheduled status)
    /// uses it, 404 for anyone else's.
    pub async fn delete_media(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let media = self.own_media(me, id).await?;
        if media.status_id.is_some() || media.scheduled_status_id.is_some() {
            return Err(ApiError::unprocessable(
                "Media attachment is currently used by a status",
            ));
        }
        match self.media.delete_unattached_media(id).await? {
            Some(gone) => {
                self.remove_media_files(&gone).await;
                Ok(())
            }
            // Attached meanwhile.
            None => Err(ApiError::unprocessable(
                "Media attachment is currently used by a status",
            )),
        }
    }

    /// Removes the stored files of a media record.
    pub async fn remove_media_files(&self, media: &MediaRecord) {
        let keys: Vec<String> = media.file_keys().map(str::to_string).collect();
        remove_files(self.files, &keys).await;
    }

    /// Removes these media now if no status uses them (with their files).
    pub async fn remove_unattached_media(&self, ids: &[Id]) -> ApiResult<usize> {
        let mut removed = 0;
        for id in ids {
            if let Some(gone) = self.media.delete_unattached_media(*id).await? {
                self.remove_media_files(&gone).await;
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Every media a status has had: its current ones and those its edits removed (which stay
    /// attached for the history). Read before deleting the status.
    pub async fn media_ever_attached(
        &self,
        status: &crate::store::StatusRecord,
    ) -> ApiResult<Vec<Id>> {
        let mut ids = status.media_ids.clone();
        for r in self.edits.status_edits(status.id).await? {
            ids.extend(r.media_ids);
        }
        ids.sort();
        ids.dedup();
        Ok(ids)
    }

    /// After a status's deletion (which detached its media): removes `media` now when
    /// `delete_media`, else queues their removal in a day (unless posted again by then).
    pub async fn release_media(&self, media: &[Id], delete_media: bool) -> ApiResult<()> {
        if delete_media {
            self.remove_unattached_media(media).await?;
            Ok(())
        } else {
            self.schedule_media_removal(media).await
        }
    }

    /// The background work of an upload: a preview and BlurHash for an image (when the media
    /// processor can make one; otherwise clients are shown the original), and the end of
    /// processing for video and audio. Gone media need nothing.
    pub async fn process_media(&self, id: Id) -> Result<(), String> {
        let Some(media) = self
            .media
            .media_by_id(id)
            .await
            .map_err(|e| e.to_string())?
        else {
            return Ok(());
        };
        self.finish_processing(media, None).await
    }

    /// The preview and BlurHash of an image whose file is stored (`original`, its bytes, when
    /// at hand; else read from the file store), and the end of processing.
    async fn finish_processing(
        &self,
        mut media: MediaRecord,
        original: Option<Vec<u8>>,
    ) -> Result<(), String> {
        if media.kind == MediaKind::Image && media.preview_key.is_none() {
            let original = match original {
                Some(bytes) => bytes,
                None => self
                    .files
                    .get(&media.file_key)
                    .await
                    .map_err(|e| e.to_string())?
                    .ok_or("the original file is missing")?,
            };
            match self.processor.preview(&original, PREVIEW_PIXELS).await {
                Ok(preview) => {
                    let key = format!(
                        "media_attachments/files/{}/small.{}",
                        media.id,
                        preview.kind.extension()
                    );
                    self.files
                        .put(&key, &preview.bytes)
                        .await
                        .map_err(|e| e.to_string())?;
                    let mut meta: Value =
                        serde_json::from_str(&media.meta).unwrap_or_else(|_| json!({}));
                    meta["small"] = dimensions_json(preview.width, preview.height);
                    media.meta = meta.to_string();
                    media.preview_key = Some(key);
                    media.blurhash = preview.blurhash;
                }
                Err(reason) => {
                    tracing::info!(media = %media.id, %reason, "no preview made; the original is shown");
                }
            }
        }
        match self.media.finish_media_processing(&media).await {
            Ok(()) | Err(crate::StoreError::NotFound) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Whether remote media are copied here (`download_remote_media`).
    pub fn downloads_remote_media(&self) -> bool {
        self.limits.download_remote_media
    }

    /// The key the copy of the remote attachment `id` at `url`, of `media_type`, is to be stored
    /// under, when remote media are copied and the file is of a format we store (by its media
    /// type, else its URL's extension). The attachment is then stored with this key and
    /// unprocessed, and [`Media::queue_remote_download`] queues its copy. `None`: it is kept by
    /// URL only.
    pub fn remote_copy_key(&self, id: Id, media_type: Option<&str>, url: &str) -> Option<String> {
        if !self.downloads_remote_media() {
            return None;
        }
        let format = declared_format(media_type, url)?;
        Some(format!(
            "media_attachments/files/{id}/original.{}",
            format.extension()
        ))
    }

    /// Queues the copy of the remote attachment `media`, if it waits for one.
    pub async fn queue_remote_download(&self, media: &MediaRecord) -> ApiResult<()> {
        if !shown_from_remote(media) || media.file_key.is_empty() {
            return Ok(());
        }
        let what = RemoteDownload::Attachment { media_id: media.id };
        let job = remote_download_job(self.ids.next(), &what, self.now)?;
        Ok(self.jobs.enqueue_job(&job).await?)
    }

    /// A [`DOWNLOAD_REMOTE_MEDIA`] job: copies the file `payload` names, GETting it with `fetch`
    /// (the federation area's `fetch_media`: the URL, the most bytes to take). A refusal that
    /// trying again would not change (gone, too large, not media we store, setting off) ends the
    /// job, logged, the remote URL kept; a failure that may pass (no answer, a server error, our
    /// store) is an `Err`, for the job to be retried.
    pub async fn download_remote_media<F, Fut>(
        &self,
        payload: &Value,
        fetch: F,
    ) -> Result<(), String>
    where
        F: Fn(String, usize) -> Fut,
        Fut: Future<Output = ApiResult<Vec<u8>>>,
    {
        let what: RemoteDownload =
            serde_json::from_value(payload.clone()).map_err(|e| format!("invalid payload: {e}"))?;
        let done = match &what {
            RemoteDownload::Attachment { media_id } => {
                self.download_attachment(*media_id, &fetch).await
            }
            RemoteDownload::Avatar(image) => {
                self.download_profile_image(ProfileImage::Avatar, image, &fetch)
                    .await
            }
            RemoteDownload::Header(image) => {
                self.download_profile_image(ProfileImage::Header, image, &fetch)
                    .await
            }
        };
        match done {
            Ok(()) => Ok(()),
            Err(e) if e.status.is_server_error() => Err(e.to_string()),
            Err(e) => {
                tracing::info!(job = ?what, error = %e, "a remote file is not copied; its URL is kept");
                Ok(())
            }
        }
    }

    /// Copies a remote attachment stored with the key of its copy, then makes its preview as an
    /// upload's ([`Media::process_media`]); its `meta` takes the copy's dimensions.
    async fn download_attachment<Fut: Future<Output = ApiResult<Vec<u8>>>>(
        &self,
        id: Id,
        fetch: &impl Fn(String, usize) -> Fut,
    ) -> ApiResult<()> {
        let Some(mut media) = self.media.media_by_id(id).await? else {
            return Ok(());
        };
        let Some(url) = media.remote_url.clone() else {
            return Ok(());
        };
        if !shown_from_remote(&media) || media.file_key.is_empty() {
            return Ok(());
        }
        if !self.downloads_remote_media() {
            return Err(ApiError::unprocessable("Remote media are not downloaded"));
        }
        let bytes = fetch(url.clone(), self.limits.remote_media_max_bytes).await?;
        let format = MediaFormat::sniff(&bytes);
        if format.is_none() || format != MediaFormat::of_key(&media.file_key) {
            return Err(ApiError::unprocessable(format!(
                "{url} is not the media it was said to be"
            )));
        }
        if let Some(MediaFormat::Image(_)) = format {
            let (w, h) = image_dimensions(&bytes)
                .ok_or_else(|| ApiError::unprocessable(format!("{url} cannot be read")))?;
            let limit = self.limits.image_matrix_limit;
            if u64::from(w) * u64::from(h) > limit {
                return Err(ApiError::unprocessable(format!(
                    "{url} has more than {limit} pixels"
                )));
            }
            let mut meta: Value = serde_json::from_str(&media.meta).unwrap_or_else(|_| json!({}));
            meta["original"] = dimensions_json(w, h);
            media.meta = meta.to_string();
        }
        self.files
            .put(&media.file_key, &bytes)
            .await
            .map_err(file_failure)?;
        self.finish_processing(media, Some(bytes))
            .await
            .map_err(|e| {
                tracing::error!(media = %id, error = %e, "a remote copy could not be processed");
                ApiError::internal()
            })
    }

    /// Removes our copy of the image a remote account's avatar or header replaced, and copies
    /// the new one when it still is the account's (refused as an uploaded one would be: see
    /// [`ProfileImage::check`]), sized as an uploaded one.
    async fn download_profile_image<Fut: Future<Output = ApiResult<Vec<u8>>>>(
        &self,
        which: ProfileImage,
        image: &RemoteProfileImage,
        fetch: &impl Fn(String, usize) -> Fut,
    ) -> ApiResult<()> {
        let Some(mut account) = self.accounts.account_by_id(image.account_id).await? else {
            return Ok(());
        };
        let (shown, remote) = remote_image_mut(&mut account, which);
        if let Some(old) = &image.replaces
            && shown.as_ref() != Some(old)
        {
            let keys: Vec<String> = std::iter::once(old.clone()).chain(still_key(old)).collect();
            remove_files(self.files, &keys).await;
        }
        let Some(url) = &image.url else {
            return Ok(());
        };
        // Copied already, or changed since.
        if remote.as_ref() != Some(url) || shown.as_ref() != Some(url) {
            return Ok(());
        }
        if !self.downloads_remote_media() {
            return Err(ApiError::unprocessable("Remote media are not downloaded"));
        }
        let max = self.limits.remote_media_max_bytes.min(PROFILE_IMAGE_LIMIT);
        let bytes = fetch(url.clone(), max).await?;
        let kind = which.check(&bytes, self.limits.image_matrix_limit)?;
        let file = self
            .processor
            .profile_image(bytes, kind, which.geometry())
            .await
            .map_err(|reason| ApiError::unprocessable(format!("{url} cannot be read: {reason}")))?;
        let kind = ImageKind::sniff(&file.bytes).ok_or_else(|| {
            tracing::error!("the media processor answered bytes of no image format");
            ApiError::internal()
        })?;
        let key = new_file_key(which, kind, file.still_png.is_some());
        let still = still_key(&key).zip(file.still_png.as_deref());
        let mut stored = vec![];
        for (k, bytes) in std::iter::once((key.clone(), file.bytes.as_slice())).chain(still) {
            if let Err(e) = self.files.put(&k, bytes).await {
                remove_files(self.files, &stored).await;
                return Err(file_failure(e));
            }
            stored.push(k);
        }
        // The account as it is now: an actor refresh may have changed the image meanwhile.
        let kept = match self.accounts.account_by_id(image.account_id).await {
            Ok(Some(mut now)) => {
                let (shown, remote) = remote_image_mut(&mut now, which);
                if remote.as_ref() == Some(url) && shown.as_ref() == Some(url) {
                    *shown = Some(key);
                    self.accounts.update_account(&now).await.map(|_| true)
                } else {
                    Ok(false)
                }
            }
            Ok(None) => Ok(false),
            Err(e) => Err(e),
        };
        if !matches!(kept, Ok(true)) {
            remove_files(self.files, &stored).await;
        }
        kept.map(|_| ()).map_err(ApiError::from)
    }

    /// Checks the media a status is posted (or edited, or scheduled) with and returns them in
    /// the order given: at most `max_media_attachments` images or one video or audio file, each
    /// the author's, finished processing, and free (not used by another status, nor reserved by a scheduled status other than
    /// `scheduled`); media of `status` itself count as free (edits). 422 otherwise.
    pub async fn check_status_media(
        &self,
        author: &AccountRecord,
        media_ids: &[String],
        status: Option<Id>,
        scheduled: Option<Id>,
    ) -> ApiResult<Vec<MediaRecord>> {
        if media_ids.is_empty() {
            return Ok(Vec::new());
        }
        let max = self.limits.max_media_attachments;
        if media_ids.len() > max {
            return Err(ApiError::invalid_field(
                "media_ids",
                "ERR_TOO_MANY",
                format!("Cannot attach more than {max} files"),
            ));
        }
        let mut ids = Vec::with_capacity(media_ids.len());
        for raw in media_ids {
            let id: Id = raw.trim().parse().map_err(|_| {
                ApiError::invalid_field(
                    "media_ids",
                    "ERR_INVALID",
                    format!("Media with ID {raw} not found"),
                )
            })?;
            if ids.contains(&id) {
                return Err(ApiError::invalid_field(
                    "media_ids",
                    "ERR_INVALID",
                    format!("Media with ID {raw} was given twice"),
                ));
            }
            ids.push(id);
        }
        let found = self.media.media_by_ids(&ids).await?;
        let mut out = Vec::with_capacity(ids.len());
        let mut missing = Vec::new();
        for id in &ids {
            match found.iter().find(|m| m.id == *id) {
                Some(m)
                    if m.account_id == author.id
                        && m.status_id.is_none_or(|s| Some(s) == status)
                        && m.scheduled_status_id.is_none_or(|s| Some(s) == scheduled) =>
                {
                    out.push(m.clone())
                }
                _ => missing.push(id.to_string()),
            }
        }
        if !missing.is_empty() {
            return Err(ApiError::invalid_field(
                "media_ids",
                "ERR_INVALID",
                format!("Media with IDs {} not found", missing.join(", ")),
            ));
        }
        if out.len() > 1 && out.iter().any(|m| m.kind != MediaKind::Image) {
            return Err(ApiError::invalid_field(
                "media_ids",
                "ERR_INVALID",
                "A video or audio file must be the only attachment of a post",
            ));
        }
        if out.iter().any(|m| !m.processed) {
            return Err(ApiError::invalid_field(
                "media_ids",
                "ERR_INVALID",
                "Cannot attach files that have not finished processing. Try again in a moment!",
            ));
        }
        Ok(out)
    }
}
