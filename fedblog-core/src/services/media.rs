//! Media attachments: uploading (format, size and dimension checks, the stored file), reading
//! and updating one's own uploads, the background work (previews, BlurHash, clean-up of media
//! never posted), and the rules for attaching media to statuses.

use chrono::Duration;
use serde_json::{Value, json};

use chrono::{DateTime, Utc};

use crate::config::Limits;
use crate::error::{ApiError, ApiResult};
use crate::files::FileStore;
use crate::id::{Id, IdGenerator};
use crate::media::{MediaFormat, MediaProcessor, image_dimensions};
use crate::params::Upload;
use crate::services::accounts::{file_failure, remove_files};
use crate::services::jobs::new_job;
use crate::store::{
    AccountRecord, JobStore, MediaKind, MediaRecord, MediaStore, StatusEditStore, Store,
};

/// Makes the preview and BlurHash of an image, or finishes a video or audio upload; payload
/// `{"media_id": "<id>"}`.
pub const PROCESS_MEDIA: &str = "process_media";
/// Removes an attachment (and its files) if it is still not attached to any status; payload
/// `{"media_id": "<id>"}`.
pub const REMOVE_MEDIA: &str = "remove_media";

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
    jobs: &'a dyn JobStore,
    edits: &'a dyn StatusEditStore,
    files: &'a dyn FileStore,
    processor: &'a dyn MediaProcessor,
    limits: &'a Limits,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> Media<'a> {
    /// The area over the media, jobs and status edits of `store`, keeping files in `files`,
    /// making previews with `processor`, within `limits`, making ids with `ids`, at `now`.
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
        let Some(mut media) = self
            .media
            .media_by_id(id)
            .await
            .map_err(|e| e.to_string())?
        else {
            return Ok(());
        };
        if media.kind == MediaKind::Image && media.preview_key.is_none() {
            let original = self
                .files
                .get(&media.file_key)
                .await
                .map_err(|e| e.to_string())?
                .ok_or("the original file is missing")?;
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
