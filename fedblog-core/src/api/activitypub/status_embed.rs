//! `GET /@:username/:id/embed`: A public status's embed page, for other sites to frame.

use http::{Method, StatusCode};

use super::{StatusPath, local_account};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Body, BodyKind, Endpoint, IntoReply, Reply};
use crate::error::{ApiError, ApiResult};
use crate::store::Visibility;

/// The embed page of a local public or unlisted status, as Mastodon serves it for the iframe
/// its oEmbed answer holds (`GET /api/oembed`): a small HTML document (author, handle, text,
/// media, date, a link to the status) that any site may frame. 404 for a private or direct
/// status, a reblog, or one that is not here; 403 when its author is suspended (as the status's
/// page, and as Mastodon answers for a reversible suspension).
pub struct StatusEmbed;

/// The policy of an embed page: nothing but its own inline style and images (which may be
/// on a media host), no scripts, and framing allowed to any site (no `frame-ancestors`).
pub const EMBED_CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; base-uri 'none'; form-action 'none'";

/// An embed page: framable by any site (no `X-Frame-Options`), cached three minutes by
/// anyone, as Mastodon's.
pub struct EmbedPage(pub String);

impl IntoReply for EmbedPage {
    fn into_reply(self) -> ApiResult<Reply> {
        Ok(Reply {
            status: StatusCode::OK,
            headers: vec![
                ("Cache-Control".into(), "public, max-age=180".into()),
                (
                    "Content-Security-Policy".into(),
                    EMBED_CONTENT_SECURITY_POLICY.into(),
                ),
                ("Referrer-Policy".into(), "no-referrer".into()),
            ],
            body: Body::Html(self.0),
        })
    }
}

impl Endpoint for StatusEmbed {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/@:username/:id/embed";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = StatusPath;
    type Response = EmbedPage;

    async fn handle(app: &App, _caller: &Caller, r: StatusPath) -> ApiResult<EmbedPage> {
        let account = local_account(app, &r.username).await?;
        let id = r.id.parse().map_err(|_| ApiError::not_found())?;
        let parts = app
            .note_parts(id)
            .await?
            .filter(|n| {
                n.author.id == account.id
                    && n.status.local
                    && n.status.reblog_of_id.is_none()
                    && matches!(
                        n.status.visibility,
                        Visibility::Public | Visibility::Unlisted
                    )
            })
            .ok_or_else(ApiError::not_found)?;
        Ok(EmbedPage(app.render_status_embed(&parts)))
    }
}
