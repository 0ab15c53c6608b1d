//! Media attachments: uploading (`POST /api/v2/media`, the deprecated `POST /api/v1/media`),
//! reading, describing and deleting one's own uploads (`/api/v1/media/:id`) with their bad-input
//! paths, and media on statuses: posting, editing (order, `media_attributes[]`, polls), delete and
//! redraft, scheduled statuses, the `only_media` filter and the instance's supported types.

use std::time::Duration;

use serde_json::{Value, json};

use fedblog_core::api::accounts::get_account_statuses::GetAccountStatuses;
use fedblog_core::api::instance::instance_v2::InstanceV2;
use fedblog_core::api::media::{
    create_media::CreateMedia, create_media_v1::CreateMediaV1, delete_media::DeleteMedia,
    get_media::GetMedia, update_media::UpdateMedia,
};
use fedblog_core::api::polls::{get_poll::GetPoll, vote_poll::VotePoll};
use fedblog_core::api::scheduled_statuses::{
    delete_scheduled_status::DeleteScheduledStatus, get_scheduled_status::GetScheduledStatus,
};
use fedblog_core::api::statuses::{
    create_status::CreateStatus, delete_status::DeleteStatus, edit_status::EditStatus,
    get_status::GetStatus, status_history::GetStatusHistory,
};

use crate::check;
use crate::client::{Body, Part, Response, form, truncate};
use crate::conformance::checks::social::token_with_scopes;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "media/upload/image",
            "POST /api/v2/media with a PNG answers 200 with type image, url and preview_url set, meta.original of the image's width and height, and the description and focal point (meta.focus) sent; the url serves the file and GET /api/v1/media/:id answers the same",
            upload_image
        ),
        check!(
            "media/upload/video-202",
            "POST /api/v2/media with a video answers 202 with url null (processing in the background; or 200 with a url when the server processed it at once, which the API allows); GET /api/v1/media/:id answers 206 with url null while processing (200 with a url once done)",
            upload_video_202
        ),
        check!(
            "media/upload/processed-200",
            "after a 202 upload, GET /api/v1/media/:id turns from 206 to 200 with a url once the server's background work has processed the file",
            processed_200
        ),
        check!(
            "media/upload/v1-processed",
            "the deprecated POST /api/v1/media answers 200 with a url even for audio (it processes before answering)",
            upload_v1
        ),
        check!(
            "media/upload/no-file-422",
            "an upload without a file, or with an empty one, is a 422",
            no_file_422
        ),
        check!(
            "media/upload/unsupported-422",
            "an upload whose bytes are no accepted format (a PDF, plain text; whatever content type is claimed) is a 422",
            unsupported_422
        ),
        check!(
            "media/upload/description-limit",
            "a description over the instance's description_limit (characters, not bytes) is a 422; exactly the limit is accepted",
            description_limit
        ),
        check!(
            "media/upload/bad-focus-422",
            "a focal point that is not \"x,y\" with both within -1.0..1.0 (\"2,0\", \"x\", \"0.5\") is a 422",
            bad_focus_422
        ),
        check!(
            "media/auth",
            "uploading, reading, updating and deleting media without a token is a 401, and with a token lacking write:media a 403",
            media_auth
        ),
        check!(
            "media/others-404",
            "GET, PUT and DELETE /api/v1/media/:id of another account's upload are 404s and change nothing",
            others_404
        ),
        check!(
            "media/update/description-focus",
            "PUT /api/v1/media/:id changes the description and focal point of an unattached upload (GET shows them); a bad focus there is a 422 that changes nothing",
            update_description_focus
        ),
        check!(
            "media/update/attached-404",
            "PUT /api/v1/media/:id on media attached to a status is a 404 and changes nothing",
            update_attached_404
        ),
        check!(
            "media/get/attached-404",
            "GET /api/v1/media/:id of one's own media once attached to a status is a 404, as in Mastodon (only unattached uploads are served there; the status carries its media)",
            get_attached_404
        ),
        check!(
            "media/delete/unattached",
            "DELETE /api/v1/media/:id of an unattached upload answers 200; then GET is a 404, the file is no longer served and the id cannot be posted",
            delete_unattached
        ),
        check!(
            "media/delete/attached-422",
            "DELETE /api/v1/media/:id of media attached to a status is a 422 and the status keeps it",
            delete_attached_422
        ),
        check!(
            "media/instance/supported-mime-types",
            "GET /api/v2/instance lists image/png and video/mp4 in configuration.media_attachments.supported_mime_types",
            supported_mime_types
        ),
        check!(
            "media/only-media-filter",
            "only_media=true on GET /api/v1/accounts/:id/statuses lists the account's status with media and not the one without",
            only_media_filter
        ),
        check!(
            "statuses/create/media-attachments",
            "POST /api/v1/statuses with media_ids[] answers the status with media_attachments in the order given (an empty text is allowed with media); GET shows the same",
            create_with_media
        ),
        check!(
            "statuses/create/media-too-many-422",
            "more media_ids than configuration.statuses.max_media_attachments is a 422 that attaches nothing",
            too_many_media_422
        ),
        check!(
            "statuses/create/media-video-alone-422",
            "a video or audio file can only be posted alone: with an image it is a 422 that attaches nothing, alone it is posted",
            video_alone_422
        ),
        check!(
            "statuses/create/media-others-422",
            "posting another account's media is a 422, and the media stay free for their owner",
            others_media_422
        ),
        check!(
            "statuses/create/media-attached-422",
            "posting media already attached to another status is a 422 and the other status keeps them",
            attached_media_422
        ),
        check!(
            "statuses/create/media-unknown-422",
            "posting an unknown or malformed media id is a 422",
            unknown_media_422
        ),
        check!(
            "statuses/create/media-and-poll-422",
            "a status with both an existing upload and a poll is a 422 that attaches nothing",
            media_and_poll_422
        ),
        check!(
            "statuses/create/media-processing-422",
            "posting media that has not finished processing (GET /api/v1/media/:id answers 206 before and after the attempt) is a 422",
            media_processing_422
        ),
        check!(
            "statuses/edit/media-order-remove-add",
            "PUT /api/v1/statuses/:id with media_ids[] reorders, removes and adds media; the status, GET and the last history revision show the new list, the first revision the original one",
            edit_media_order
        ),
        check!(
            "statuses/edit/media-attributes",
            "an edit with media_attributes[] changes an attached media's description and focal point; the status, GET and the last history revision show them",
            edit_media_attributes
        ),
        check!(
            "statuses/edit/poll-added",
            "an edit with a poll on a status without one adds the poll; the history records no poll for the original and the options for the new version",
            edit_poll_added
        ),
        check!(
            "statuses/edit/poll-changed-resets-votes",
            "an edit resending the same poll keeps its votes; an edit with different options replaces it with no votes (the voter has not voted); the history records each revision's options",
            edit_poll_changed
        ),
        check!(
            "statuses/edit/poll-removed",
            "an edit without a poll removes the status's poll (the poll is then a 404); the history records the options of the original and none for the new version",
            edit_poll_removed
        ),
        check!(
            "statuses/delete/media-redraft",
            "DELETE /api/v1/statuses/:id answers the status with its media_attachments; without delete_media those media can be posted again in a new status (delete and redraft)",
            delete_redraft
        ),
        check!(
            "statuses/delete/delete-media",
            "DELETE /api/v1/statuses/:id?delete_media=true removes the status's media: GET /api/v1/media/:id is then a 404 and the id cannot be posted",
            delete_with_media
        ),
        check!(
            "statuses/scheduled/media-reserved",
            "a scheduled status with media_ids[] lists them in media_attachments; meanwhile they cannot be posted elsewhere (422) but PUT /api/v1/media/:id still describes them; cancelling releases them",
            scheduled_media
        ),
    ]
}

/// An id no server has issued (a snowflake far in the future).
const UNKNOWN_ID: &str = "999999999999999990";

// ─── Files ───────────────────────────────────────────────────────────────────────────────────

/// CRC-32 (IEEE), as PNG chunks carry it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Adler-32, as a zlib stream ends with it.
fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in bytes {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// A `width` x `height` PNG of one colour (8-bit RGB, one uncompressed deflate block; keep it
/// small), so uploads differ and their dimensions are known.
pub fn png(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut typed = kind.to_vec();
        typed.extend_from_slice(data);
        out.extend_from_slice(&typed);
        out.extend_from_slice(&crc32(&typed).to_be_bytes());
    }
    // Each row: filter type 0, then the pixels.
    let row: Vec<u8> = std::iter::once(0)
        .chain((0..width).flat_map(|_| rgb))
        .collect();
    let raw = row.repeat(height as usize);
    let len = raw.len() as u16;
    let mut zlib = vec![0x78, 0x01, 0x01];
    zlib.extend_from_slice(&len.to_le_bytes());
    zlib.extend_from_slice(&(!len).to_le_bytes());
    zlib.extend_from_slice(&raw);
    zlib.extend_from_slice(&adler32(&raw).to_be_bytes());
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &zlib);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// The start of an MP4 file: an `ftyp` box (brand `isom`) and an empty `mdat`.
fn mp4() -> Vec<u8> {
    let mut out = b"\0\0\0\x18ftypisom\0\0\x02\0isomiso2".to_vec();
    out.extend_from_slice(b"\0\0\0\x08mdat");
    out
}

/// The start of a WebM file: the EBML magic and a `webm` doc type.
fn webm() -> Vec<u8> {
    let mut out = vec![0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84];
    out.extend_from_slice(b"webm");
    out
}

/// The start of an MP3 file: an empty ID3v2.4 tag and one MPEG frame header.
fn mp3() -> Vec<u8> {
    let mut out = b"ID3\x04\0\0\0\0\0\0".to_vec();
    out.extend_from_slice(&[0xFF, 0xFB, 0x90, 0x64]);
    out.extend_from_slice(&[0; 32]);
    out
}

/// A PNG of `rgb` as the `file` part.
fn png_part(rgb: [u8; 3]) -> Part {
    Part::file("file", "picture.png", "image/png", &png(2, 2, rgb))
}

// ─── Requests ────────────────────────────────────────────────────────────────────────────────

/// `POST /api/v2/media` (or `/api/v1/media` when `v1`) with these parts.
async fn upload(
    cx: &Cx,
    token: Option<&str>,
    v1: bool,
    parts: Vec<Part>,
) -> Result<Response, Failure> {
    let p = if v1 {
        path::<CreateMediaV1>(&[])
    } else {
        path::<CreateMedia>(&[])
    };
    cx.send("POST", &p, token, Body::Multipart(parts)).await
}

/// Uploads a 2x2 PNG of `rgb` with a description and answers the MediaAttachment of the 200.
async fn upload_png(
    cx: &Cx,
    user: &User,
    rgb: [u8; 3],
    description: &str,
) -> Result<Value, Failure> {
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![png_part(rgb), Part::text("description", description)],
    )
    .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Uploads `n` PNGs (each of another colour) and answers their ids in upload order.
async fn upload_pngs(cx: &Cx, user: &User, n: usize) -> Result<Vec<String>, Failure> {
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let shade = (i as u8).wrapping_mul(37);
        let v = upload_png(cx, user, [shade, 255 - shade, 90], &format!("picture {i}")).await?;
        ids.push(str_of(&v, "id")?);
    }
    Ok(ids)
}

/// `GET /api/v1/media/:id`.
async fn get_media(cx: &Cx, token: Option<&str>, id: &str) -> Result<Response, Failure> {
    Ok(cx
        .client
        .get(&path::<GetMedia>(&[("id", id)]), token)
        .await?)
}

/// `PUT /api/v1/media/:id` with form pairs.
async fn put_media(
    cx: &Cx,
    token: Option<&str>,
    id: &str,
    pairs: &[(&str, &str)],
) -> Result<Response, Failure> {
    cx.send(
        "PUT",
        &path::<UpdateMedia>(&[("id", id)]),
        token,
        form(pairs),
    )
    .await
}

/// `DELETE /api/v1/media/:id`.
async fn delete_media(cx: &Cx, token: Option<&str>, id: &str) -> Result<Response, Failure> {
    cx.send(
        "DELETE",
        &path::<DeleteMedia>(&[("id", id)]),
        token,
        Body::None,
    )
    .await
}

/// `POST /api/v1/statuses` with `text` and these media ids (and extra pairs).
async fn post_media_status(
    cx: &Cx,
    user: &User,
    text: &str,
    media: &[&str],
    extra: &[(&str, &str)],
) -> Result<Response, Failure> {
    let mut pairs = vec![("status", text)];
    pairs.extend(media.iter().map(|m| ("media_ids[]", *m)));
    pairs.extend_from_slice(extra);
    Ok(cx
        .client
        .post(&path::<CreateStatus>(&[]), Some(&user.token), form(&pairs))
        .await?)
}

/// Posts a status with these media and answers its JSON (a 200 is required).
async fn post_with_media(
    cx: &Cx,
    user: &User,
    text: &str,
    media: &[&str],
) -> Result<Value, Failure> {
    let r = post_media_status(cx, user, text, media, &[]).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// `GET /api/v1/statuses/:id` as `user`.
async fn get_status(cx: &Cx, user: &User, id: &str) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<GetStatus>(&[("id", id)]), Some(&user.token))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// `PUT /api/v1/statuses/:id` with a body.
async fn edit(cx: &Cx, user: &User, id: &str, body: Body) -> Result<Response, Failure> {
    cx.send(
        "PUT",
        &path::<EditStatus>(&[("id", id)]),
        Some(&user.token),
        body,
    )
    .await
}

/// Edits as the author and answers the JSON of the 200.
async fn edit_ok(cx: &Cx, user: &User, id: &str, body: Body) -> Result<Value, Failure> {
    let r = edit(cx, user, id, body).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The revisions of a status, oldest first.
async fn history(cx: &Cx, user: &User, id: &str) -> Result<Vec<Value>, Failure> {
    let r = cx
        .client
        .get(&path::<GetStatusHistory>(&[("id", id)]), Some(&user.token))
        .await?;
    r.expect(200)?;
    r.json()?
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("the history is not an array: {}", r.text)))
}

/// The ids of an entity's `media_attachments`, in order.
fn media_of(v: &Value) -> Vec<String> {
    ids_of(&v["media_attachments"])
}

/// The options of a poll (or of a StatusEdit's poll) as titles; `None` when there is no poll.
fn poll_titles(poll: &Value) -> Option<Vec<String>> {
    if poll.is_null() {
        return None;
    }
    Some(
        poll["options"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|o| o["title"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default(),
    )
}

/// `Some(["a", "b"])` as owned strings.
fn titles(t: &[&str]) -> Option<Vec<String>> {
    Some(t.iter().map(|s| s.to_string()).collect())
}

/// The instance's `configuration` (from `GET /api/v2/instance`).
async fn configuration(cx: &Cx) -> Result<Value, Failure> {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    Ok(r.json()?["configuration"].clone())
}

/// The string `v` as a URL; fails unless it is an absolute http(s) URL.
fn absolute_url(v: &Value, what: &str) -> Result<String, Failure> {
    let s = v.as_str().unwrap_or_default();
    ensure!(
        s.starts_with("http://") || s.starts_with("https://"),
        "{what} is not an absolute URL: {v}"
    );
    Ok(s.to_string())
}

/// Whether two numbers are equal within a rounding error.
fn close(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-6)
}

// ─── Uploads ─────────────────────────────────────────────────────────────────────────────────

async fn upload_image(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let bytes = png(3, 2, [12, 34, 56]);
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![
            Part::file("file", "holiday.png", "image/png", &bytes),
            Part::text("description", "Three by two pixels of blue"),
            Part::text("focus", "-0.5,0.25"),
        ],
    )
    .await?;
    r.expect(200)?;
    let v = r.json()?.clone();
    let id = str_of(&v, "id")?;
    ensure!(
        v["type"] == "image",
        "type is {} (expected image): {v}",
        v["type"]
    );
    let url = absolute_url(&v["url"], "url")?;
    absolute_url(&v["preview_url"], "preview_url")?;
    let original = &v["meta"]["original"];
    ensure!(
        original["width"] == 3 && original["height"] == 2,
        "meta.original is {original} (expected width 3, height 2)"
    );
    if !original["aspect"].is_null() {
        ensure!(
            close(&original["aspect"], 1.5),
            "meta.original.aspect is {}",
            original["aspect"]
        );
    }
    ensure!(
        v["description"] == "Three by two pixels of blue",
        "description is {}",
        v["description"]
    );
    let focus = &v["meta"]["focus"];
    ensure!(
        close(&focus["x"], -0.5) && close(&focus["y"], 0.25),
        "meta.focus is {focus} (expected x -0.5, y 0.25)"
    );
    let (status, headers, body) = cx.client.get_bytes(&url).await?;
    ensure!(status == 200, "GET {url} answered {status}");
    let ctype = headers
        .get("content-type")
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    ensure!(
        ctype.starts_with("image/png"),
        "GET {url} has content type {ctype:?}"
    );
    ensure!(
        body == bytes,
        "GET {url} serves other bytes than those uploaded"
    );
    let g = get_media(cx, Some(&user.token), &id).await?;
    g.expect(200)?;
    let got = g.json()?;
    ensure!(
        got["id"] == id.as_str()
            && got["url"] == url.as_str()
            && got["description"] == v["description"]
            && got["meta"]["original"] == *original,
        "GET /api/v1/media/:id answered {got} after the upload answered {v}"
    );
    Ok(())
}

async fn upload_video_202(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![
            Part::file("file", "clip.mp4", "video/mp4", &mp4()),
            Part::text("description", "a short clip"),
        ],
    )
    .await?;
    ensure!(
        matches!(r.status, 200 | 202),
        "expected HTTP 202 (or 200, processed at once), got {} {}",
        r.status,
        truncate(&r.text)
    );
    let v = r.json()?.clone();
    let id = str_of(&v, "id")?;
    ensure!(
        v["type"] == "video",
        "type is {} (expected video): {v}",
        v["type"]
    );
    if r.status == 202 {
        ensure!(
            v["url"].is_null(),
            "url of a 202 upload is {} (expected null)",
            v["url"]
        );
    } else {
        absolute_url(&v["url"], "url of a video processed at once (200)")?;
    }
    ensure!(
        v["description"] == "a short clip",
        "description is {}",
        v["description"]
    );
    let g = get_media(cx, Some(&user.token), &id).await?;
    let got = g.json()?;
    match g.status {
        206 => ensure!(got["url"].is_null(), "a 206 answer has url {}", got["url"]),
        200 => {
            absolute_url(&got["url"], "url of a processed video")?;
        }
        s => {
            return Err(Failure::Fail(format!(
                "GET /api/v1/media/:id of a video being processed answered {s} (expected 206, or 200 once done): {}",
                g.text
            )));
        }
    }
    ensure!(
        got["type"] == "video" && got["id"] == id.as_str(),
        "GET answered {got}"
    );
    Ok(())
}

async fn processed_200(cx: &Cx) -> CheckResult {
    const WAIT: Duration = Duration::from_secs(10);
    let user = cx.new_user("media").await?;
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![Part::file("file", "clip.webm", "video/webm", &webm())],
    )
    .await?;
    if r.status == 200 {
        return Err(Failure::NotRun(
            "the server processed the video at once (200), so there is no processing to watch end"
                .into(),
        ));
    }
    r.expect(202)?;
    let id = str_of(r.json()?, "id")?;
    let started = std::time::Instant::now();
    loop {
        let g = get_media(cx, Some(&user.token), &id).await?;
        match g.status {
            200 => {
                let got = g.json()?;
                absolute_url(&got["url"], "url of a processed upload")?;
                ensure!(
                    got["type"] == "video",
                    "type is {} (expected video)",
                    got["type"]
                );
                return Ok(());
            }
            206 => {}
            s => {
                return Err(Failure::Fail(format!(
                    "GET /api/v1/media/:id while processing answered {s}: {}",
                    g.text
                )));
            }
        }
        if started.elapsed() > WAIT {
            return Err(Failure::NotRun(format!(
                "the upload was still processing (206) after {} s: the server (or this test harness) runs no background workers, so the end of processing cannot be observed",
                WAIT.as_secs()
            )));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn upload_v1(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let r = upload(
        cx,
        Some(&user.token),
        true,
        vec![
            Part::file("file", "song.mp3", "audio/mpeg", &mp3()),
            Part::text("description", "a song"),
        ],
    )
    .await?;
    r.expect(200)?;
    let v = r.json()?.clone();
    ensure!(
        v["type"] == "audio",
        "type is {} (expected audio): {v}",
        v["type"]
    );
    absolute_url(&v["url"], "url of a v1 audio upload")?;
    ensure!(
        v["description"] == "a song",
        "description is {}",
        v["description"]
    );
    let g = get_media(cx, Some(&user.token), &str_of(&v, "id")?).await?;
    g.expect(200)?;
    let r = upload(cx, Some(&user.token), true, vec![png_part([1, 2, 3])]).await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["type"] == "image",
        "a v1 PNG upload has type {}",
        v["type"]
    );
    absolute_url(&v["url"], "url of a v1 image upload")?;
    Ok(())
}

async fn no_file_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![Part::text("description", "nothing attached")],
    )
    .await?;
    expect_error(&r, 422, "an upload without a file")?;
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![Part::file("file", "empty.png", "image/png", &[])],
    )
    .await?;
    expect_error(&r, 422, "an upload of an empty file")
}

async fn unsupported_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let pdf =
        b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";
    for (name, ctype, bytes) in [
        ("document.png", "image/png", &pdf[..]),
        ("document.pdf", "application/pdf", &pdf[..]),
        (
            "notes.mp4",
            "video/mp4",
            &b"just some words, not a video"[..],
        ),
    ] {
        let r = upload(
            cx,
            Some(&user.token),
            false,
            vec![Part::file("file", name, ctype, bytes)],
        )
        .await?;
        expect_error(&r, 422, &format!("uploading {name} claimed as {ctype}"))?;
    }
    Ok(())
}

async fn description_limit(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let limit = configuration(cx).await?["media_attachments"]["description_limit"]
        .as_u64()
        .unwrap_or(1500) as usize;
    let over = "d".repeat(limit + 1);
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![png_part([5, 5, 5]), Part::text("description", &over)],
    )
    .await?;
    expect_error(
        &r,
        422,
        &format!("a description of {} characters", limit + 1),
    )?;
    // Two bytes a character: the limit counts characters.
    let exact = "é".repeat(limit);
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![png_part([6, 6, 6]), Part::text("description", &exact)],
    )
    .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["description"] == exact.as_str(),
        "a description of exactly {limit} characters was not kept"
    );
    let id = str_of(r.json()?, "id")?;
    let r = put_media(
        cx,
        Some(&user.token),
        &id,
        &[("description", over.as_str())],
    )
    .await?;
    expect_error(&r, 422, "PUT with a description over the limit")?;
    Ok(())
}

async fn bad_focus_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    for focus in ["2,0", "0,-1.5", "x", "0.5", "a,b"] {
        let r = upload(
            cx,
            Some(&user.token),
            false,
            vec![png_part([7, 7, 7]), Part::text("focus", focus)],
        )
        .await?;
        expect_error(&r, 422, &format!("an upload with focus {focus:?}"))?;
    }
    let r = upload(
        cx,
        Some(&user.token),
        false,
        vec![png_part([7, 7, 8]), Part::text("focus", "1,-1")],
    )
    .await?;
    r.expect(200)?;
    let f = &r.json()?["meta"]["focus"];
    ensure!(
        close(&f["x"], 1.0) && close(&f["y"], -1.0),
        "focus \"1,-1\" answered meta.focus {f}"
    );
    Ok(())
}

async fn media_auth(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let id = str_of(&upload_png(cx, &user, [8, 8, 8], "mine").await?, "id")?;
    let read_only = token_with_scopes(cx, "read write:statuses").await?;
    for (token, status, who) in [
        (None, 401, "without a token"),
        (
            Some(read_only.as_str()),
            403,
            "with a token lacking write:media",
        ),
    ] {
        for v1 in [false, true] {
            let r = upload(cx, token, v1, vec![png_part([9, 9, 9])]).await?;
            expect_error(
                &r,
                status,
                &format!("uploading (v{}) {who}", if v1 { 1 } else { 2 }),
            )?;
        }
        expect_error(
            &get_media(cx, token, &id).await?,
            status,
            &format!("GET media {who}"),
        )?;
        let r = put_media(cx, token, &id, &[("description", "changed")]).await?;
        expect_error(&r, status, &format!("PUT media {who}"))?;
        expect_error(
            &delete_media(cx, token, &id).await?,
            status,
            &format!("DELETE media {who}"),
        )?;
    }
    let g = get_media(cx, Some(&user.token), &id).await?;
    g.expect(200)?;
    ensure!(
        g.json()?["description"] == "mine",
        "a refused request changed the media: {}",
        g.text
    );
    Ok(())
}

async fn others_404(cx: &Cx) -> CheckResult {
    let owner = cx.new_user("media").await?;
    let other = cx.new_user("nosy").await?;
    let id = str_of(
        &upload_png(cx, &owner, [10, 10, 10], "owner's words").await?,
        "id",
    )?;
    let t = Some(other.token.as_str());
    expect_error(
        &get_media(cx, t, &id).await?,
        404,
        "GET of another account's media",
    )?;
    let r = put_media(cx, t, &id, &[("description", "hijacked")]).await?;
    expect_error(&r, 404, "PUT of another account's media")?;
    expect_error(
        &delete_media(cx, t, &id).await?,
        404,
        "DELETE of another account's media",
    )?;
    expect_error(
        &get_media(cx, t, UNKNOWN_ID).await?,
        404,
        "GET of an unknown media id",
    )?;
    let g = get_media(cx, Some(&owner.token), &id).await?;
    g.expect(200)?;
    ensure!(
        g.json()?["description"] == "owner's words",
        "after another account's refused requests the media reads {}",
        g.text
    );
    Ok(())
}

async fn update_description_focus(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let id = str_of(
        &upload_png(cx, &user, [11, 11, 11], "first words").await?,
        "id",
    )?;
    let r = put_media(
        cx,
        Some(&user.token),
        &id,
        &[("description", "second words"), ("focus", "0.25,-0.75")],
    )
    .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["description"] == "second words"
            && close(&v["meta"]["focus"]["x"], 0.25)
            && close(&v["meta"]["focus"]["y"], -0.75),
        "PUT answered {v}"
    );
    let r = put_media(cx, Some(&user.token), &id, &[("focus", "3,3")]).await?;
    expect_error(&r, 422, "PUT with focus \"3,3\"")?;
    let g = get_media(cx, Some(&user.token), &id).await?;
    g.expect(200)?;
    let got = g.json()?;
    ensure!(
        got["description"] == "second words"
            && close(&got["meta"]["focus"]["x"], 0.25)
            && close(&got["meta"]["focus"]["y"], -0.75),
        "GET after the update (and a refused one) answered {got}"
    );
    Ok(())
}

async fn update_attached_404(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let id = str_of(
        &upload_png(cx, &user, [12, 12, 12], "posted words").await?,
        "id",
    )?;
    let s = post_with_media(cx, &user, "with a picture", &[&id]).await?;
    let r = put_media(cx, Some(&user.token), &id, &[("description", "too late")]).await?;
    expect_error(&r, 404, "PUT of media attached to a status")?;
    let now = get_status(cx, &user, &str_of(&s, "id")?).await?;
    ensure!(
        now["media_attachments"][0]["description"] == "posted words",
        "after a refused PUT the status shows {}",
        now["media_attachments"]
    );
    Ok(())
}

async fn get_attached_404(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let id = str_of(&upload_png(cx, &user, [20, 20, 20], "").await?, "id")?;
    get_media(cx, Some(&user.token), &id).await?.expect(200)?;
    post_with_media(cx, &user, "attached now", &[&id]).await?;
    let r = get_media(cx, Some(&user.token), &id).await?;
    expect_error(&r, 404, "GET of media attached to a status")
}

async fn delete_unattached(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let v = upload_png(cx, &user, [13, 13, 13], "short-lived").await?;
    let id = str_of(&v, "id")?;
    let url = absolute_url(&v["url"], "url")?;
    delete_media(cx, Some(&user.token), &id)
        .await?
        .expect(200)?;
    expect_error(
        &get_media(cx, Some(&user.token), &id).await?,
        404,
        "GET of a deleted upload",
    )?;
    let (status, _, _) = cx.client.get_bytes(&url).await?;
    ensure!(
        status != 200,
        "the deleted upload's file is still served at {url}"
    );
    let r = post_media_status(cx, &user, "with a deleted picture", &[&id], &[]).await?;
    expect_error(&r, 422, "posting a deleted upload")?;
    expect_error(
        &delete_media(cx, Some(&user.token), &id).await?,
        404,
        "deleting it twice",
    )
}

async fn delete_attached_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let id = str_of(&upload_png(cx, &user, [14, 14, 14], "kept").await?, "id")?;
    let s = post_with_media(cx, &user, "keeps its picture", &[&id]).await?;
    let r = delete_media(cx, Some(&user.token), &id).await?;
    expect_error(&r, 422, "DELETE of media attached to a status")?;
    let now = get_status(cx, &user, &str_of(&s, "id")?).await?;
    ensure!(
        media_of(&now) == vec![id.clone()],
        "the status now has {}",
        now["media_attachments"]
    );
    Ok(())
}

async fn supported_mime_types(cx: &Cx) -> CheckResult {
    let c = configuration(cx).await?;
    let types: Vec<&str> = c["media_attachments"]["supported_mime_types"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for want in ["image/png", "video/mp4"] {
        ensure!(
            types.contains(&want),
            "supported_mime_types lacks {want}: {types:?}"
        );
    }
    Ok(())
}

async fn only_media_filter(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let id = str_of(&upload_png(cx, &user, [15, 15, 15], "").await?, "id")?;
    let with = str_of(
        &post_with_media(cx, &user, "a picture", &[&id]).await?,
        "id",
    )?;
    let without = str_of(
        &cx.post_status(&user, &[("status", "words only")]).await?,
        "id",
    )?;
    let list = |q: &'static str| {
        let url = format!("{}{q}", path::<GetAccountStatuses>(&[("id", &user.id)]));
        async move {
            let r = cx.client.get(&url, None).await?;
            r.expect(200)?;
            Ok::<_, Failure>(ids_of(r.json()?))
        }
    };
    let all = list("").await?;
    ensure!(
        all.contains(&with) && all.contains(&without),
        "the account's statuses {all:?} lack {with} or {without}"
    );
    let only = list("?only_media=true").await?;
    ensure!(
        only == vec![with.clone()],
        "only_media=true lists {only:?} (expected [{with}])"
    );
    Ok(())
}

// ─── Posting ─────────────────────────────────────────────────────────────────────────────────

async fn create_with_media(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let ids = upload_pngs(cx, &user, 3).await?;
    let order = [ids[1].as_str(), ids[0].as_str(), ids[2].as_str()];
    let s = post_with_media(cx, &user, "", &order).await?;
    ensure!(
        media_of(&s) == order,
        "media_attachments are {:?} (posted {order:?})",
        media_of(&s)
    );
    ensure!(
        s["media_attachments"][0]["description"] == "picture 1"
            && s["media_attachments"][0]["type"] == "image",
        "the first attachment is {}",
        s["media_attachments"][0]
    );
    let got = get_status(cx, &user, &str_of(&s, "id")?).await?;
    ensure!(
        media_of(&got) == order,
        "GET shows media {:?} (posted {order:?})",
        media_of(&got)
    );
    Ok(())
}

async fn video_alone_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let r = upload(
        cx,
        Some(&user.token),
        true,
        vec![Part::file("file", "clip.mp4", "video/mp4", &mp4())],
    )
    .await?;
    r.expect(200)?;
    let video = str_of(r.json()?, "id")?;
    let images = upload_pngs(cx, &user, 1).await?;
    let r = post_media_status(cx, &user, "mixed", &[&images[0], &video], &[]).await?;
    expect_error(&r, 422, "an image and a video in one post")?;
    let alone = post_with_media(cx, &user, "a clip", &[&video]).await?;
    ensure!(
        media_of(&alone) == vec![video.clone()],
        "the video posted alone shows media {:?}",
        media_of(&alone)
    );
    let pic = post_with_media(cx, &user, "a picture", &[&images[0]]).await?;
    ensure!(
        media_of(&pic) == images,
        "the image refused with the video could not be posted after: {:?}",
        media_of(&pic)
    );
    Ok(())
}

async fn too_many_media_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let max = configuration(cx).await?["statuses"]["max_media_attachments"]
        .as_u64()
        .unwrap_or(4) as usize;
    let ids = upload_pngs(cx, &user, max + 1).await?;
    let all: Vec<&str> = ids.iter().map(String::as_str).collect();
    let r = post_media_status(cx, &user, "too many", &all, &[]).await?;
    expect_error(&r, 422, &format!("a status with {} media", max + 1))?;
    // None was attached: the first `max` can still be posted.
    let s = post_with_media(cx, &user, "just enough", &all[..max]).await?;
    ensure!(
        media_of(&s) == all[..max],
        "posting {max} media answered {:?}",
        media_of(&s)
    );
    Ok(())
}

async fn others_media_422(cx: &Cx) -> CheckResult {
    let owner = cx.new_user("media").await?;
    let thief = cx.new_user("thief").await?;
    let id = str_of(&upload_png(cx, &owner, [16, 16, 16], "").await?, "id")?;
    let r = post_media_status(cx, &thief, "not mine", &[&id], &[]).await?;
    expect_error(&r, 422, "posting another account's media")?;
    post_with_media(cx, &owner, "mine", &[&id]).await?;
    Ok(())
}

async fn attached_media_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let id = str_of(&upload_png(cx, &user, [17, 17, 17], "").await?, "id")?;
    let first = post_with_media(cx, &user, "first", &[&id]).await?;
    let r = post_media_status(cx, &user, "second", &[&id], &[]).await?;
    expect_error(&r, 422, "posting media already attached to another status")?;
    let now = get_status(cx, &user, &str_of(&first, "id")?).await?;
    ensure!(
        media_of(&now) == vec![id.clone()],
        "the first status now has {:?}",
        media_of(&now)
    );
    Ok(())
}

async fn unknown_media_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    for bad in [UNKNOWN_ID, "not-an-id"] {
        let r = post_media_status(cx, &user, "ghost picture", &[bad], &[]).await?;
        expect_error(&r, 422, &format!("posting media id {bad:?}"))?;
    }
    Ok(())
}

async fn media_and_poll_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let id = str_of(&upload_png(cx, &user, [18, 18, 18], "").await?, "id")?;
    let r = post_media_status(
        cx,
        &user,
        "picture and poll",
        &[&id],
        &[
            ("poll[options][]", "yes"),
            ("poll[options][]", "no"),
            ("poll[expires_in]", "3600"),
        ],
    )
    .await?;
    expect_error(&r, 422, "a status with media and a poll")?;
    post_with_media(cx, &user, "picture only", &[&id]).await?;
    Ok(())
}

async fn media_processing_422(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    for _ in 0..5 {
        let r = upload(
            cx,
            Some(&user.token),
            false,
            vec![Part::file("file", "clip.mp4", "video/mp4", &mp4())],
        )
        .await?;
        if r.status != 202 {
            r.expect(200)?;
            continue;
        }
        let id = str_of(r.json()?, "id")?;
        if get_media(cx, Some(&user.token), &id).await?.status != 206 {
            continue;
        }
        let posted = post_media_status(cx, &user, "too early", &[&id], &[]).await?;
        let after = get_media(cx, Some(&user.token), &id).await?.status;
        if after != 206 {
            // Processing ended around the attempt: this round cannot tell.
            continue;
        }
        return expect_error(
            &posted,
            422,
            "posting media still processing (206 before and after)",
        );
    }
    Err(Failure::NotRun(
        "in five tries no upload was seen still processing on both sides of the post: the server processes too fast to observe this rule".into(),
    ))
}

// ─── Edits ───────────────────────────────────────────────────────────────────────────────────

async fn edit_media_order(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let ids = upload_pngs(cx, &user, 4).await?;
    let (a, b, c, d) = (
        ids[0].as_str(),
        ids[1].as_str(),
        ids[2].as_str(),
        ids[3].as_str(),
    );
    let s = post_with_media(cx, &user, "three pictures", &[a, b, c]).await?;
    let id = str_of(&s, "id")?;
    let e = edit_ok(
        cx,
        &user,
        &id,
        form(&[
            ("status", "three pictures, rearranged"),
            ("media_ids[]", c),
            ("media_ids[]", a),
            ("media_ids[]", d),
        ]),
    )
    .await?;
    let want = vec![c.to_string(), a.to_string(), d.to_string()];
    ensure!(
        media_of(&e) == want,
        "the edit answered media {:?} (expected {want:?})",
        media_of(&e)
    );
    ensure!(!e["edited_at"].is_null(), "edited_at is null after an edit");
    let got = get_status(cx, &user, &id).await?;
    ensure!(
        media_of(&got) == want,
        "GET shows media {:?} (expected {want:?})",
        media_of(&got)
    );
    let h = history(cx, &user, &id).await?;
    ensure!(
        h.len() == 2,
        "the history holds {} revisions (expected 2)",
        h.len()
    );
    ensure!(
        media_of(&h[0]) == [a, b, c],
        "the original revision has media {:?} (expected {:?})",
        media_of(&h[0]),
        [a, b, c]
    );
    ensure!(
        media_of(&h[1]) == want,
        "the new revision has media {:?} (expected {want:?})",
        media_of(&h[1])
    );
    Ok(())
}

async fn edit_media_attributes(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let ids = upload_pngs(cx, &user, 2).await?;
    let s = post_with_media(cx, &user, "described", &[&ids[0], &ids[1]]).await?;
    let id = str_of(&s, "id")?;
    let e = edit_ok(
        cx,
        &user,
        &id,
        Body::Json(json!({
            "status": "described",
            "media_ids": [ids[0], ids[1]],
            "media_attributes": [
                { "id": ids[1], "description": "a better description", "focus": "0.5,-0.5" }
            ],
        })),
    )
    .await?;
    let check = |v: &Value, what: &str| -> CheckResult {
        let m = &v["media_attachments"];
        ensure!(
            media_of(v) == ids,
            "{what}: media {:?} (expected {ids:?})",
            media_of(v)
        );
        ensure!(
            m[1]["description"] == "a better description"
                && close(&m[1]["meta"]["focus"]["x"], 0.5)
                && close(&m[1]["meta"]["focus"]["y"], -0.5),
            "{what}: the described media is {}",
            m[1]
        );
        ensure!(
            m[0]["description"] == "picture 0",
            "{what}: the other media changed: {}",
            m[0]
        );
        Ok(())
    };
    check(&e, "the edit's answer")?;
    check(&get_status(cx, &user, &id).await?, "GET after the edit")?;
    let h = history(cx, &user, &id).await?;
    ensure!(
        h.len() == 2,
        "the history holds {} revisions (expected 2)",
        h.len()
    );
    check(&h[1], "the last revision")?;
    ensure!(
        media_of(&h[0]) == ids,
        "the original revision has media {:?}",
        media_of(&h[0])
    );
    Ok(())
}

/// The pairs of a poll with these options, lasting an hour.
fn poll_form<'a>(text: &'a str, options: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    let mut pairs = vec![("status", text)];
    pairs.extend(options.iter().map(|o| ("poll[options][]", *o)));
    pairs.push(("poll[expires_in]", "3600"));
    pairs
}

async fn edit_poll_added(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pollster").await?;
    let id = str_of(
        &cx.post_status(&user, &[("status", "a question?")]).await?,
        "id",
    )?;
    let e = edit_ok(
        cx,
        &user,
        &id,
        form(&poll_form("a question?", &["yes", "no"])),
    )
    .await?;
    ensure!(
        poll_titles(&e["poll"]) == titles(&["yes", "no"]) && e["poll"]["votes_count"] == 0,
        "the edit answered poll {}",
        e["poll"]
    );
    let got = get_status(cx, &user, &id).await?;
    ensure!(
        poll_titles(&got["poll"]) == titles(&["yes", "no"]),
        "GET shows poll {}",
        got["poll"]
    );
    let h = history(cx, &user, &id).await?;
    ensure!(
        h.len() == 2,
        "the history holds {} revisions (expected 2)",
        h.len()
    );
    ensure!(
        poll_titles(&h[0]["poll"]).is_none(),
        "the original revision has poll {}",
        h[0]["poll"]
    );
    ensure!(
        poll_titles(&h[1]["poll"]) == titles(&["yes", "no"]),
        "the new revision has poll {}",
        h[1]["poll"]
    );
    Ok(())
}

async fn edit_poll_changed(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pollster").await?;
    let voter = cx.new_user("voter").await?;
    let s = cx
        .post_status(&user, &poll_form("pick one", &["a", "b"]))
        .await?;
    let id = str_of(&s, "id")?;
    let poll_id = str_of(&s["poll"], "id")
        .setup("the new status's poll (POST /api/v1/statuses with poll[options][])")?;
    cx.client
        .post(
            &path::<VotePoll>(&[("id", &poll_id)]),
            Some(&voter.token),
            form(&[("choices[]", "1")]),
        )
        .await?
        .expect(200)?;
    // Same options, new text: the votes stay.
    let e = edit_ok(
        cx,
        &user,
        &id,
        form(&poll_form("pick one, please", &["a", "b"])),
    )
    .await?;
    ensure!(
        e["poll"]["votes_count"] == 1 && poll_titles(&e["poll"]) == titles(&["a", "b"]),
        "an edit resending the same poll answered poll {}",
        e["poll"]
    );
    // Other options: a new poll without votes.
    let e = edit_ok(
        cx,
        &user,
        &id,
        form(&poll_form("pick one, please", &["x", "y", "z"])),
    )
    .await?;
    ensure!(
        poll_titles(&e["poll"]) == titles(&["x", "y", "z"]) && e["poll"]["votes_count"] == 0,
        "an edit with other options answered poll {}",
        e["poll"]
    );
    let seen = get_status(cx, &voter, &id).await?;
    ensure!(
        seen["poll"]["voted"] == false
            && seen["poll"]["own_votes"] == json!([])
            && seen["poll"]["votes_count"] == 0,
        "the voter sees the replaced poll as {}",
        seen["poll"]
    );
    let h = history(cx, &user, &id).await?;
    let polls: Vec<Option<Vec<String>>> = h.iter().map(|r| poll_titles(&r["poll"])).collect();
    ensure!(
        polls
            == vec![
                titles(&["a", "b"]),
                titles(&["a", "b"]),
                titles(&["x", "y", "z"])
            ],
        "the revisions' polls are {polls:?}"
    );
    Ok(())
}

async fn edit_poll_removed(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pollster").await?;
    let s = cx
        .post_status(&user, &poll_form("still asking?", &["yes", "no"]))
        .await?;
    let id = str_of(&s, "id")?;
    let poll_id = str_of(&s["poll"], "id")
        .setup("the new status's poll (POST /api/v1/statuses with poll[options][])")?;
    let e = edit_ok(cx, &user, &id, form(&[("status", "no longer asking")])).await?;
    ensure!(
        e["poll"].is_null(),
        "the edit without a poll answered poll {}",
        e["poll"]
    );
    let got = get_status(cx, &user, &id).await?;
    ensure!(got["poll"].is_null(), "GET shows poll {}", got["poll"]);
    let r = cx
        .client
        .get(&path::<GetPoll>(&[("id", &poll_id)]), Some(&user.token))
        .await?;
    expect_error(&r, 404, "GET of the removed poll")?;
    let h = history(cx, &user, &id).await?;
    let polls: Vec<Option<Vec<String>>> = h.iter().map(|r| poll_titles(&r["poll"])).collect();
    ensure!(
        polls == vec![titles(&["yes", "no"]), None],
        "the revisions' polls are {polls:?}"
    );
    Ok(())
}

// ─── Deletion and scheduling ─────────────────────────────────────────────────────────────────

async fn delete_redraft(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let ids = upload_pngs(cx, &user, 2).await?;
    let s = post_with_media(cx, &user, "first draft", &[&ids[1], &ids[0]]).await?;
    let id = str_of(&s, "id")?;
    let r = cx
        .send(
            "DELETE",
            &path::<DeleteStatus>(&[("id", &id)]),
            Some(&user.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    let deleted = r.json()?;
    let want = vec![ids[1].clone(), ids[0].clone()];
    ensure!(
        media_of(deleted) == want,
        "DELETE answered media {:?} (expected {want:?})",
        media_of(deleted)
    );
    ensure!(
        deleted["text"] == "first draft",
        "DELETE answered text {}",
        deleted["text"]
    );
    let again = post_with_media(cx, &user, "second draft", &[&ids[1], &ids[0]]).await?;
    ensure!(
        media_of(&again) == want,
        "the redraft has media {:?} (expected {want:?})",
        media_of(&again)
    );
    Ok(())
}

async fn delete_with_media(cx: &Cx) -> CheckResult {
    let user = cx.new_user("media").await?;
    let v = upload_png(cx, &user, [19, 19, 19], "").await?;
    let media = str_of(&v, "id")?;
    let url = absolute_url(&v["url"], "url")?;
    let s = post_with_media(cx, &user, "gone for good", &[&media]).await?;
    let id = str_of(&s, "id")?;
    let p = format!("{}?delete_media=true", path::<DeleteStatus>(&[("id", &id)]));
    let r = cx.send("DELETE", &p, Some(&user.token), Body::None).await?;
    r.expect(200)?;
    ensure!(
        media_of(r.json()?) == vec![media.clone()],
        "DELETE answered media {:?}",
        media_of(r.json()?)
    );
    expect_error(
        &get_media(cx, Some(&user.token), &media).await?,
        404,
        "GET of media deleted with its status",
    )?;
    let (status, _, _) = cx.client.get_bytes(&url).await?;
    ensure!(
        status != 200,
        "the deleted media's file is still served at {url}"
    );
    let r = post_media_status(cx, &user, "redraft", &[&media], &[]).await?;
    expect_error(&r, 422, "posting media deleted with its status")
}

async fn scheduled_media(cx: &Cx) -> CheckResult {
    let user = cx.new_user("sched").await?;
    let ids = upload_pngs(cx, &user, 2).await?;
    let at = (chrono::Utc::now() + chrono::Duration::minutes(60))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let r = post_media_status(
        cx,
        &user,
        "later, with pictures",
        &[&ids[1], &ids[0]],
        &[("scheduled_at", at.as_str())],
    )
    .await?;
    r.expect(200)?;
    let v = r.json()?.clone();
    let sched = str_of(&v, "id")?;
    let want = vec![ids[1].clone(), ids[0].clone()];
    ensure!(
        v["scheduled_at"].is_string() && media_of(&v) == want,
        "the ScheduledStatus has media {:?} (expected {want:?}): {v}",
        media_of(&v)
    );
    let r = post_media_status(cx, &user, "now", &[&ids[0]], &[]).await?;
    expect_error(&r, 422, "posting media reserved by a scheduled status")?;
    let r = put_media(
        cx,
        Some(&user.token),
        &ids[0],
        &[("description", "described meanwhile")],
    )
    .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["description"] == "described meanwhile",
        "PUT answered {}",
        r.text
    );
    let g = cx
        .client
        .get(
            &path::<GetScheduledStatus>(&[("id", &sched)]),
            Some(&user.token),
        )
        .await?;
    g.expect(200)?;
    let got = g.json()?;
    ensure!(
        media_of(got) == want
            && got["media_attachments"][1]["description"] == "described meanwhile",
        "GET of the scheduled status shows media {}",
        got["media_attachments"]
    );
    cx.send(
        "DELETE",
        &path::<DeleteScheduledStatus>(&[("id", &sched)]),
        Some(&user.token),
        Body::None,
    )
    .await?
    .expect(200)?;
    let s = post_with_media(cx, &user, "posted after all", &[&ids[0], &ids[1]]).await?;
    ensure!(
        media_of(&s) == ids,
        "after cancelling, posting the media answered {:?}",
        media_of(&s)
    );
    Ok(())
}
