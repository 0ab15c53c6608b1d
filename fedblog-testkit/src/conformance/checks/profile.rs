//! Profile images and fields: avatar and header uploads (multipart, recognised by their bytes,
//! size-limited), the uploaded files served back, their removal (`DELETE /api/v1/profile/avatar`
//! and `/header`), profile field values rendered as links ready for rel=me verification, and the
//! limits of field names and values.

use base64::Engine as _;
use fedblog_core::api::accounts::{
    get_account::GetAccount, update_credentials::UpdateCredentials,
    verify_credentials::VerifyCredentials,
};
use fedblog_core::api::profile::{delete_avatar::DeleteAvatar, delete_header::DeleteHeader};
use serde_json::{Value, json};

use crate::check;
use crate::client::{Body, Part, Response, form};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, path};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "accounts/avatar-upload-png",
            "a PNG avatar uploaded as multipart to update_credentials changes avatar and avatar_static to absolute URLs that do not carry the client's file name, shown by verify_credentials and the public account",
            avatar_upload_png
        ),
        check!(
            "accounts/avatar-url-serves-the-bytes",
            "GET of an uploaded avatar's URL answers 200 with an image content type and exactly the uploaded bytes",
            avatar_fetchable
        ),
        check!(
            "accounts/avatar-upload-jpeg-gif-webp",
            "JPEG, GIF and WebP avatars are accepted too, each served back with its own image content type",
            avatar_formats
        ),
        check!(
            "accounts/avatar-type-from-bytes",
            "an image is recognised by its bytes: a PNG sent as application/octet-stream named `blob` is accepted",
            avatar_type_from_bytes
        ),
        check!(
            "accounts/avatar-not-an-image-422",
            "a text file sent as image/png named avatar.png is a 422 that changes nothing",
            avatar_not_an_image
        ),
        check!(
            "accounts/avatar-too-large-422",
            "an avatar of 8 MB (Mastodon's limit is less than 8 MB) is a 422 that changes nothing",
            avatar_too_large
        ),
        check!(
            "accounts/avatar-replace-removes-old",
            "uploading a new avatar gives a new URL, and the old URL no longer serves the old image",
            avatar_replace
        ),
        check!(
            "accounts/avatar-data-uri-json",
            "a JSON update_credentials with the avatar as a base64 data: URI sets the avatar",
            avatar_data_uri
        ),
        check!(
            "accounts/avatar-upload-no-token-401",
            "a multipart avatar upload without a token is a 401",
            avatar_no_token
        ),
        check!(
            "accounts/header-upload-png",
            "a PNG header upload changes header and header_static, serves the bytes back, and leaves the avatar alone",
            header_upload
        ),
        check!(
            "accounts/header-not-an-image-422",
            "a header that is not an image is a 422 that changes nothing",
            header_not_an_image
        ),
        check!(
            "profile/delete-avatar",
            "DELETE /api/v1/profile/avatar answers the CredentialAccount with the default avatar back, and the removed file is no longer served",
            delete_avatar
        ),
        check!(
            "profile/delete-header",
            "DELETE /api/v1/profile/header answers the CredentialAccount with the default header back and the avatar kept",
            delete_header
        ),
        check!(
            "profile/delete-none-set",
            "deleting the avatar or header when none is set answers 200 with the CredentialAccount",
            delete_none_set
        ),
        check!(
            "profile/delete-scope-403",
            "deleting the avatar or header with a token without write:accounts is a 403",
            delete_scope
        ),
        check!(
            "profile/delete-no-token-401",
            "deleting the avatar or header without a token is a 401",
            delete_no_token
        ),
        check!(
            "accounts/fields-links-rel-me",
            "a URL in a profile field value is rendered as a link with target=_blank and rel me, nofollow and noopener (verification-ready), verified_at null, while source.fields keeps the plain text",
            fields_rel_me
        ),
        check!(
            "accounts/fields-html-escaped",
            "markup in a profile field value is escaped in the rendered value, never passed through",
            fields_escaped
        ),
        check!(
            "accounts/update-credentials/field-name-limit-255",
            "a profile field name of 255 characters is accepted and one of 256 is a 422 that changes nothing",
            field_name_limit
        ),
        check!(
            "accounts/update-credentials/field-value-limit-255",
            "a profile field value of 255 characters is accepted and one of 256 is a 422 that changes nothing",
            field_value_limit
        ),
    ]
}

// ---- Images made here, valid for any decoder ----

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
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

fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in bytes {
        a = (a + x as u32) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// A 1x1 PNG of one colour (an uncompressed deflate block), so each upload can differ.
pub fn png(rgb: [u8; 3]) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut typed = kind.to_vec();
        typed.extend_from_slice(data);
        out.extend_from_slice(&typed);
        out.extend_from_slice(&crc32(&typed).to_be_bytes());
    }
    let raw = [0, rgb[0], rgb[1], rgb[2]];
    let mut zlib = vec![0x78, 0x01, 0x01];
    zlib.extend_from_slice(&(raw.len() as u16).to_le_bytes());
    zlib.extend_from_slice(&(!(raw.len() as u16)).to_le_bytes());
    zlib.extend_from_slice(&raw);
    zlib.extend_from_slice(&adler32(&raw).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &[0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
    chunk(&mut out, b"IDAT", &zlib);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A 1x1 grey baseline JPEG: one 8x8 block whose only coefficient is a zero DC difference.
fn jpeg() -> Vec<u8> {
    let mut out = vec![0xFF, 0xD8];
    out.extend_from_slice(&[0xFF, 0xDB, 0x00, 0x43, 0x00]);
    out.extend_from_slice(&[1; 64]);
    out.extend_from_slice(&[
        0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00,
    ]);
    for class in [0x00, 0x10] {
        out.extend_from_slice(&[0xFF, 0xC4, 0x00, 0x14, class, 1]);
        out.extend_from_slice(&[0; 15]);
        out.push(0);
    }
    out.extend_from_slice(&[0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]);
    out.push(0x3F);
    out.extend_from_slice(&[0xFF, 0xD9]);
    out
}

/// The classic 1x1 transparent GIF.
const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";

/// A 1x1 lossless WebP.
fn webp() -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
        .unwrap_or_default()
}

// ---- Helpers ----

async fn credentials(cx: &Cx, user: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

async fn send_parts(cx: &Cx, token: Option<&str>, parts: Vec<Part>) -> Result<Response, Failure> {
    cx.send(
        "PATCH",
        &path::<UpdateCredentials>(&[]),
        token,
        Body::Multipart(parts),
    )
    .await
}

/// Uploads one image field and returns the answer.
async fn upload(
    cx: &Cx,
    user: &User,
    field: &str,
    file_name: &str,
    content_type: &str,
    bytes: &[u8],
) -> Result<Response, Failure> {
    send_parts(
        cx,
        Some(&user.token),
        vec![Part::file(field, file_name, content_type, bytes)],
    )
    .await
}

/// Uploads a PNG as `field` and returns the CredentialAccount answered.
async fn upload_png(cx: &Cx, user: &User, field: &str, bytes: &[u8]) -> Result<Value, Failure> {
    let r = upload(cx, user, field, "picture.png", "image/png", bytes).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

fn url_of(v: &Value, key: &str) -> Result<String, Failure> {
    let url = v[key].as_str().unwrap_or_default().to_string();
    ensure!(
        url.starts_with("http://") || url.starts_with("https://"),
        "{key} is not an absolute URL: {}",
        v[key]
    );
    Ok(url)
}

/// Fetches `url` and fails unless it serves `bytes` with an image content type.
async fn expect_served(cx: &Cx, url: &str, bytes: &[u8], want_type: Option<&str>) -> CheckResult {
    let (status, headers, body) = cx.client.get_bytes(url).await?;
    ensure!(status == 200, "GET {url} answered {status}");
    let ctype = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    ensure!(
        ctype.starts_with("image/"),
        "GET {url} has content type {ctype:?}, not an image type"
    );
    if let Some(want) = want_type {
        ensure!(
            ctype.starts_with(want),
            "GET {url} has content type {ctype:?}, expected {want}"
        );
    }
    ensure!(
        body == bytes,
        "GET {url} served {} bytes that differ from the {} uploaded",
        body.len(),
        bytes.len()
    );
    Ok(())
}

/// Fails if `url` still serves `bytes`.
async fn expect_not_served(cx: &Cx, url: &str, bytes: &[u8]) -> CheckResult {
    let (status, _, body) = cx.client.get_bytes(url).await?;
    ensure!(
        !(status == 200 && body == bytes),
        "GET {url} still serves the removed image"
    );
    Ok(())
}

async fn update_form(cx: &Cx, user: &User, pairs: &[(&str, &str)]) -> Result<Response, Failure> {
    Ok(cx
        .client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&user.token),
            form(pairs),
        )
        .await?)
}

// ---- Uploads ----

async fn avatar_upload_png(cx: &Cx) -> CheckResult {
    let user = cx.new_user("avatar").await?;
    let before = credentials(cx, &user).await?;
    let r = upload(
        cx,
        &user,
        "avatar",
        "conformance-private-name.png",
        "image/png",
        &png([10, 20, 30]),
    )
    .await?;
    r.expect(200)?;
    let v = r.json()?;
    let avatar = url_of(v, "avatar")?;
    url_of(v, "avatar_static")?;
    ensure!(
        avatar != before["avatar"].as_str().unwrap_or_default(),
        "the avatar URL did not change: {avatar}"
    );
    ensure!(
        !avatar.contains("conformance-private-name"),
        "the avatar URL carries the client's file name: {avatar}"
    );
    let me = credentials(cx, &user).await?;
    ensure!(
        me["avatar"] == avatar.as_str(),
        "verify_credentials shows avatar {} instead of {avatar}",
        me["avatar"]
    );
    let r = cx
        .client
        .get(&path::<GetAccount>(&[("id", &user.id)]), None)
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["avatar"] == avatar.as_str(),
        "the public account shows avatar {} instead of {avatar}",
        r.json()?["avatar"]
    );
    ensure!(
        me["header"] == before["header"],
        "an avatar upload changed the header to {}",
        me["header"]
    );
    Ok(())
}

async fn avatar_fetchable(cx: &Cx) -> CheckResult {
    let user = cx.new_user("avfetch").await?;
    let bytes = png([200, 100, 50]);
    let v = upload_png(cx, &user, "avatar", &bytes).await?;
    expect_served(cx, &url_of(&v, "avatar")?, &bytes, Some("image/png")).await?;
    expect_served(cx, &url_of(&v, "avatar_static")?, &bytes, None).await
}

async fn avatar_formats(cx: &Cx) -> CheckResult {
    let user = cx.new_user("avformats").await?;
    let webp = webp();
    ensure!(!webp.is_empty(), "the WebP sample does not decode");
    for (name, ctype, bytes) in [
        ("a.jpg", "image/jpeg", jpeg()),
        ("a.gif", "image/gif", GIF.to_vec()),
        ("a.webp", "image/webp", webp),
    ] {
        let r = upload(cx, &user, "avatar", name, ctype, &bytes).await?;
        ensure!(
            r.status == 200,
            "a {ctype} avatar answered {} (expected 200): {}",
            r.status,
            r.text
        );
        // Servers that convert images serve other bytes; only the type family is required here.
        let url = url_of(r.json()?, "avatar")?;
        let (status, headers, _) = cx.client.get_bytes(&url).await?;
        let served = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        ensure!(
            status == 200 && served.starts_with("image/"),
            "the {ctype} avatar at {url} answered {status} with content type {served:?}"
        );
    }
    Ok(())
}

async fn avatar_type_from_bytes(cx: &Cx) -> CheckResult {
    let user = cx.new_user("avbytes").await?;
    let before = credentials(cx, &user).await?;
    let bytes = png([1, 2, 3]);
    let r = upload(
        cx,
        &user,
        "avatar",
        "blob",
        "application/octet-stream",
        &bytes,
    )
    .await?;
    ensure!(
        r.status == 200,
        "a PNG sent as application/octet-stream answered {} (expected 200): {}",
        r.status,
        r.text
    );
    ensure!(
        r.json()?["avatar"] != before["avatar"],
        "the avatar did not change"
    );
    Ok(())
}

async fn avatar_not_an_image(cx: &Cx) -> CheckResult {
    let user = cx.new_user("avtext").await?;
    let before = credentials(cx, &user).await?;
    let r = send_parts(
        cx,
        Some(&user.token),
        vec![
            Part::text("display_name", "Should Not Stick"),
            Part::file(
                "avatar",
                "avatar.png",
                "image/png",
                b"this is plain text pretending to be a PNG\n",
            ),
        ],
    )
    .await?;
    expect_error(&r, 422, "a text file uploaded as the avatar")?;
    let after = credentials(cx, &user).await?;
    ensure!(
        after["avatar"] == before["avatar"] && after["display_name"] == before["display_name"],
        "the rejected upload changed the account: avatar {}, display_name {}",
        after["avatar"],
        after["display_name"]
    );
    Ok(())
}

async fn avatar_too_large(cx: &Cx) -> CheckResult {
    let user = cx.new_user("avlarge").await?;
    let before = credentials(cx, &user).await?;
    let mut bytes = png([9, 9, 9]);
    bytes.resize(8 * 1024 * 1024, 0);
    let r = upload(cx, &user, "avatar", "big.png", "image/png", &bytes).await?;
    expect_error(&r, 422, "an 8 MB avatar")?;
    let after = credentials(cx, &user).await?;
    ensure!(
        after["avatar"] == before["avatar"],
        "the rejected upload changed the avatar to {}",
        after["avatar"]
    );
    Ok(())
}

async fn avatar_replace(cx: &Cx) -> CheckResult {
    let user = cx.new_user("avreplace").await?;
    let first = png([11, 22, 33]);
    let old = url_of(&upload_png(cx, &user, "avatar", &first).await?, "avatar")?;
    expect_served(cx, &old, &first, None).await?;
    let second = png([44, 55, 66]);
    let new = url_of(&upload_png(cx, &user, "avatar", &second).await?, "avatar")?;
    ensure!(new != old, "the new avatar kept the old URL {old}");
    expect_served(cx, &new, &second, None).await?;
    expect_not_served(cx, &old, &first).await
}

async fn avatar_data_uri(cx: &Cx) -> CheckResult {
    let user = cx.new_user("avdata").await?;
    let before = credentials(cx, &user).await?;
    let bytes = png([70, 80, 90]);
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let r = cx
        .client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&user.token),
            Body::Json(json!({ "avatar": uri })),
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["avatar"] != before["avatar"],
        "the avatar did not change: {}",
        v["avatar"]
    );
    expect_served(cx, &url_of(v, "avatar")?, &bytes, Some("image/png")).await
}

async fn avatar_no_token(cx: &Cx) -> CheckResult {
    let r = send_parts(
        cx,
        None,
        vec![Part::file("avatar", "a.png", "image/png", &png([0, 0, 0]))],
    )
    .await?;
    expect_error(&r, 401, "an avatar upload without a token")
}

async fn header_upload(cx: &Cx) -> CheckResult {
    let user = cx.new_user("header").await?;
    let avatar_bytes = png([5, 5, 5]);
    let avatar = url_of(
        &upload_png(cx, &user, "avatar", &avatar_bytes).await?,
        "avatar",
    )?;
    let before = credentials(cx, &user).await?;
    let bytes = png([250, 240, 230]);
    let v = upload_png(cx, &user, "header", &bytes).await?;
    let header = url_of(&v, "header")?;
    url_of(&v, "header_static")?;
    ensure!(
        header != before["header"].as_str().unwrap_or_default(),
        "the header URL did not change: {header}"
    );
    ensure!(
        v["avatar"] == avatar.as_str(),
        "a header upload changed the avatar to {}",
        v["avatar"]
    );
    expect_served(cx, &header, &bytes, Some("image/png")).await?;
    expect_served(cx, &avatar, &avatar_bytes, None).await
}

async fn header_not_an_image(cx: &Cx) -> CheckResult {
    let user = cx.new_user("hdtext").await?;
    let before = credentials(cx, &user).await?;
    let r = upload(
        cx,
        &user,
        "header",
        "header.gif",
        "image/gif",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    )
    .await?;
    expect_error(&r, 422, "an SVG uploaded as the header")?;
    let after = credentials(cx, &user).await?;
    ensure!(
        after["header"] == before["header"],
        "the rejected upload changed the header to {}",
        after["header"]
    );
    Ok(())
}

// ---- Removal ----

async fn delete_avatar(cx: &Cx) -> CheckResult {
    let user = cx.new_user("delav").await?;
    let default = credentials(cx, &user).await?["avatar"].clone();
    let bytes = png([123, 45, 67]);
    let url = url_of(&upload_png(cx, &user, "avatar", &bytes).await?, "avatar")?;
    let r = cx
        .client
        .delete(&path::<DeleteAvatar>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["avatar"] == default,
        "after the deletion the avatar is {} (expected the default {default})",
        v["avatar"]
    );
    ensure!(
        v.get("source").is_some(),
        "the answer is not a CredentialAccount (no source): {v}"
    );
    ensure!(
        credentials(cx, &user).await?["avatar"] == default,
        "verify_credentials still shows the deleted avatar"
    );
    expect_not_served(cx, &url, &bytes).await
}

async fn delete_header(cx: &Cx) -> CheckResult {
    let user = cx.new_user("delhd").await?;
    let default = credentials(cx, &user).await?["header"].clone();
    let avatar = url_of(
        &upload_png(cx, &user, "avatar", &png([1, 1, 1])).await?,
        "avatar",
    )?;
    let bytes = png([2, 2, 2]);
    let url = url_of(&upload_png(cx, &user, "header", &bytes).await?, "header")?;
    let r = cx
        .client
        .delete(&path::<DeleteHeader>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["header"] == default,
        "after the deletion the header is {} (expected the default {default})",
        v["header"]
    );
    ensure!(
        v["avatar"] == avatar.as_str(),
        "deleting the header changed the avatar to {}",
        v["avatar"]
    );
    expect_not_served(cx, &url, &bytes).await
}

async fn delete_none_set(cx: &Cx) -> CheckResult {
    let user = cx.new_user("delnone").await?;
    for p in [path::<DeleteAvatar>(&[]), path::<DeleteHeader>(&[])] {
        let r = cx.client.delete(&p, Some(&user.token)).await?;
        ensure!(
            r.status == 200,
            "DELETE {p} with nothing set answered {} (expected 200): {}",
            r.status,
            r.text
        );
        ensure!(
            r.json()?["id"] == user.id.as_str(),
            "DELETE {p} did not answer the caller's account: {}",
            r.text
        );
    }
    Ok(())
}

async fn delete_scope(cx: &Cx) -> CheckResult {
    let token = super::oauth::scoped_user_token(cx, "read").await?;
    for p in [path::<DeleteAvatar>(&[]), path::<DeleteHeader>(&[])] {
        let r = cx.client.delete(&p, Some(&token)).await?;
        expect_error(&r, 403, &format!("DELETE {p} with a read-only token"))?;
    }
    Ok(())
}

async fn delete_no_token(cx: &Cx) -> CheckResult {
    for p in [path::<DeleteAvatar>(&[]), path::<DeleteHeader>(&[])] {
        let r = cx.client.delete(&p, None).await?;
        expect_error(&r, 401, &format!("DELETE {p} without a token"))?;
    }
    Ok(())
}

// ---- Fields ----

async fn fields_rel_me(cx: &Cx) -> CheckResult {
    let user = cx.new_user("relme").await?;
    let link = "https://example.org/~conformance";
    let r = update_form(
        cx,
        &user,
        &[
            ("fields_attributes[0][name]", "Website"),
            ("fields_attributes[0][value]", link),
            ("fields_attributes[1][name]", "Plain"),
            ("fields_attributes[1][value]", "no link here"),
        ],
    )
    .await?;
    r.expect(200)?;
    let v = credentials(cx, &user).await?;
    let field = &v["fields"][0];
    let value = field["value"].as_str().unwrap_or_default();
    let anchor = value
        .find("<a ")
        .map(|i| &value[i..value[i..].find('>').map_or(value.len(), |j| i + j)])
        .unwrap_or_default();
    ensure!(
        anchor.contains(&format!("href=\"{link}\"")),
        "the field value does not link the URL: {value}"
    );
    ensure!(
        anchor.contains("target=\"_blank\""),
        "the link has no target=\"_blank\": {value}"
    );
    let rel = anchor
        .split("rel=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_default();
    let rels: Vec<&str> = rel.split_whitespace().collect();
    ensure!(
        ["me", "nofollow", "noopener"]
            .iter()
            .all(|want| rels.contains(want)),
        "the link's rel is {rel:?}, which lacks me, nofollow or noopener: {value}"
    );
    ensure!(
        !value.starts_with("<p>"),
        "a field value is one line, not a paragraph: {value}"
    );
    ensure!(
        field["verified_at"].is_null(),
        "verified_at is {} (nothing was verified)",
        field["verified_at"]
    );
    ensure!(
        v["fields"][1]["value"] == "no link here",
        "a plain field value is rendered as {}",
        v["fields"][1]["value"]
    );
    ensure!(
        v["source"]["fields"][0]["value"] == link,
        "source.fields keeps {} instead of the plain text",
        v["source"]["fields"][0]["value"]
    );
    Ok(())
}

async fn fields_escaped(cx: &Cx) -> CheckResult {
    let user = cx.new_user("fieldhtml").await?;
    let raw = "<script>alert(1)</script><b>bold</b>";
    update_form(
        cx,
        &user,
        &[
            ("fields_attributes[0][name]", "Markup"),
            ("fields_attributes[0][value]", raw),
        ],
    )
    .await?
    .expect(200)?;
    let v = credentials(cx, &user).await?;
    let value = v["fields"][0]["value"].as_str().unwrap_or_default();
    ensure!(
        !value.contains("<script") && !value.contains("<b>"),
        "markup passed through into the rendered field value: {value}"
    );
    ensure!(
        value.contains("&lt;script&gt;") || value.contains("alert(1)"),
        "the text of the value was lost: {value}"
    );
    ensure!(
        v["source"]["fields"][0]["value"] == raw,
        "source.fields changed the text: {}",
        v["source"]["fields"][0]["value"]
    );
    Ok(())
}

async fn field_limit(cx: &Cx, prefix: &str, long_name: bool) -> CheckResult {
    let user = cx.new_user(prefix).await?;
    let what = if long_name { "name" } else { "value" };
    let pair = |n: usize| {
        if long_name {
            ("x".repeat(n), "v".to_string())
        } else {
            ("n".to_string(), "y".repeat(n))
        }
    };
    let (name, value) = pair(255);
    let r = update_form(
        cx,
        &user,
        &[
            ("fields_attributes[0][name]", name.as_str()),
            ("fields_attributes[0][value]", value.as_str()),
        ],
    )
    .await?;
    ensure!(
        r.status == 200,
        "a field {what} of 255 characters answered {} (expected 200): {}",
        r.status,
        r.text
    );
    let (long_n, long_v) = pair(256);
    let r = update_form(
        cx,
        &user,
        &[
            ("fields_attributes[0][name]", long_n.as_str()),
            ("fields_attributes[0][value]", long_v.as_str()),
        ],
    )
    .await?;
    expect_error(&r, 422, &format!("a field {what} of 256 characters"))?;
    let v = credentials(cx, &user).await?;
    ensure!(
        v["source"]["fields"][0]["name"] == name.as_str()
            && v["source"]["fields"][0]["value"] == value.as_str(),
        "the rejected update changed the fields: {}",
        v["source"]["fields"]
    );
    Ok(())
}

async fn field_name_limit(cx: &Cx) -> CheckResult {
    field_limit(cx, "fname", true).await
}

async fn field_value_limit(cx: &Cx) -> CheckResult {
    field_limit(cx, "fvalue", false).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_images_have_their_magic_bytes() {
        let p = png([1, 2, 3]);
        assert!(p.starts_with(b"\x89PNG\r\n\x1a\n"));
        // IHDR's CRC, as any PNG decoder computes it.
        assert_eq!(&p[29..33], &crc32(&p[12..29]).to_be_bytes());
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
        assert_ne!(png([1, 2, 3]), png([3, 2, 1]));
        assert!(jpeg().starts_with(&[0xFF, 0xD8, 0xFF]) && jpeg().ends_with(&[0xFF, 0xD9]));
        assert!(GIF.starts_with(b"GIF89a") && GIF.ends_with(b";"));
        let w = webp();
        assert!(w.starts_with(b"RIFF") && &w[8..12] == b"WEBP");
    }
}
