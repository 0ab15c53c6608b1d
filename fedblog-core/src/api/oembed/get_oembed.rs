//! `GET /api/oembed?url=&maxwidth=&maxheight=`: the oEmbed document of a local public or
//! unlisted status named by its URL (`/@username/:id` or `/users/:username/statuses/:id` on
//! this server): type `rich`, version `1.0`, its author, this server as provider, a day's
//! cache age, and an embed of the status as HTML. Any other URL, and a private or direct
//! status, is a 404, as Mastodon answers.
//! <https://docs.joinmastodon.org/methods/oembed/>
//!
//! The embed is an iframe of the status's embed page (`/@username/:id/embed`), as Mastodon's:
//! class `mastodon-embed`, `max-width: 100%; border: 0`, fullscreen allowed, and the `width`
//! and `height` the document gives: `width` is `maxwidth` (400 by default, as Mastodon's),
//! `height` is `maxheight`, null (and left off the iframe) without one. Mastodon adds a script
//! of its web interface that resizes the frame to its page; fedblog has no such script.

use http::Method;
use serde::{Deserialize, Serialize};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::store::Visibility;

/// The oEmbed document of a status.
pub struct GetOEmbed;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct GetOEmbedRequest {
    /// The status's URL.
    #[serde(deserialize_with = "de::opt_string")]
    pub url: Option<String>,
    /// The embed's width in pixels.
    #[serde(deserialize_with = "de::opt_i64")]
    pub maxwidth: Option<i64>,
    /// The embed's height in pixels.
    #[serde(deserialize_with = "de::opt_i64")]
    pub maxheight: Option<i64>,
}

/// An oEmbed document (Mastodon's `OEmbedSerializer` fields).
#[derive(Debug, Serialize)]
pub struct OEmbed {
    /// Always `rich`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Always `1.0`.
    pub version: &'static str,
    /// `New status by <username>`.
    pub title: String,
    /// The author's display name, or username.
    pub author_name: String,
    /// The author's profile URL.
    pub author_url: String,
    /// This server's domain.
    pub provider_name: String,
    /// This server's URL.
    pub provider_url: String,
    /// Seconds a consumer may cache it.
    pub cache_age: u32,
    /// The embed.
    pub html: String,
    /// Its width.
    pub width: i64,
    /// Its height: `maxheight`, else null.
    pub height: Option<i64>,
}

/// The width of an embed when none is asked (Mastodon's).
const DEFAULT_WIDTH: i64 = 400;

/// The status id and author username a local status URL names.
fn local_status(base: &str, url: &str) -> Option<(String, crate::Id)> {
    let rest = url.strip_prefix(base)?;
    let rest = rest.split(['?', '#']).next()?;
    let segments: Vec<&str> = rest.trim_start_matches('/').split('/').collect();
    let (user, id) = match segments.as_slice() {
        [at, id] => (at.strip_prefix('@')?, *id),
        ["users", user, "statuses", id] => (*user, *id),
        _ => return None,
    };
    if user.is_empty() || user.contains('@') {
        return None;
    }
    Some((user.to_string(), id.parse().ok()?))
}

/// The iframe of an embed page, `height` written only when there is one.
fn embed_iframe(src: &str, width: i64, height: Option<i64>) -> String {
    let height = height
        .map(|h| format!(" height=\"{h}\""))
        .unwrap_or_default();
    format!(
        "<iframe src=\"{}\" class=\"mastodon-embed\" style=\"max-width: 100%; border: 0\" width=\"{width}\"{height} allow=\"fullscreen\"></iframe>",
        html_escape::encode_double_quoted_attribute(src),
    )
}

impl Endpoint for GetOEmbed {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/oembed";
    const AUTH: Auth = Auth::Public;
    type Request = GetOEmbedRequest;
    type Response = Json<OEmbed>;

    async fn handle(app: &App, _caller: &Caller, r: GetOEmbedRequest) -> ApiResult<Self::Response> {
        let base = app.base_url();
        let (username, id) = r
            .url
            .as_deref()
            .and_then(|u| local_status(&base, u.trim()))
            .ok_or_else(ApiError::not_found)?;
        let author = app
            .store
            .account_by_username(&username, None)
            .await?
            .filter(|a| a.is_local() && !a.is_suspended())
            .ok_or_else(ApiError::not_found)?;
        let status = app
            .store
            .status_by_id(id)
            .await?
            .filter(|s| {
                s.account_id == author.id
                    && s.local
                    && s.reblog_of_id.is_none()
                    && matches!(s.visibility, Visibility::Public | Visibility::Unlisted)
            })
            .ok_or_else(ApiError::not_found)?;
        let status_url = format!("{base}/@{}/{}", author.username, status.id);
        let author_url = crate::content::account_url(&base, &author);
        let author_name = if author.display_name.trim().is_empty() {
            author.username.clone()
        } else {
            author.display_name.clone()
        };
        let domain = app.config.domain.clone();
        let width = r.maxwidth.filter(|w| *w != 0).unwrap_or(DEFAULT_WIDTH);
        let height = r.maxheight;
        let html = embed_iframe(&format!("{status_url}/embed"), width, height);
        Ok(Json(OEmbed {
            kind: "rich",
            version: "1.0",
            title: format!("New status by {}", author.username),
            author_name,
            author_url,
            provider_name: domain,
            provider_url: format!("{base}/"),
            cache_age: 86_400,
            html,
            width,
            height,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::{embed_iframe, local_status};

    #[test]
    fn the_embed_is_an_iframe_of_the_embed_page() {
        assert_eq!(
            embed_iframe("https://example.test/@alice/1/embed", 400, None),
            "<iframe src=\"https://example.test/@alice/1/embed\" class=\"mastodon-embed\" \
             style=\"max-width: 100%; border: 0\" width=\"400\" allow=\"fullscreen\"></iframe>"
        );
        assert!(
            embed_iframe("https://example.test/@a\"b/1/embed", 300, Some(200))
                .contains("src=\"https://example.test/@a&quot;b/1/embed\" class=\"mastodon-embed\" style=\"max-width: 100%; border: 0\" width=\"300\" height=\"200\"")
        );
    }

    #[test]
    fn local_status_urls_are_recognised() {
        let base = "https://example.test";
        assert_eq!(
            local_status(base, "https://example.test/@alice/123"),
            Some(("alice".into(), crate::Id::from_i64(123)))
        );
        assert_eq!(
            local_status(base, "https://example.test/users/alice/statuses/123?x=1"),
            Some(("alice".into(), crate::Id::from_i64(123)))
        );
        assert_eq!(local_status(base, "https://other.test/@alice/123"), None);
        assert_eq!(local_status(base, "https://example.test/@alice"), None);
        assert_eq!(local_status(base, "https://example.test/@bob@x/1"), None);
    }
}
