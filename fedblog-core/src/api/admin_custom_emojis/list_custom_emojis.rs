//! `GET /api/v1/admin/custom_emojis`: Custom emojis, this server's and others', newest first (100 by default, 200 at most), paginated through the Link header. fedblog's own endpoint.

use http::Method;
use serde::Deserialize;

use crate::api::admin_custom_emojis::render_admin_custom_emoji;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminCustomEmoji;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::store::CustomEmojiFilter;

/// Custom emojis, this server's and others', newest first (100 by default, 200 at most),
/// paginated through the Link header; `local`, `remote`, `by_domain` and `shortcode` narrow
/// the list. Needs the `admin:read` scope and a role that manages custom emojis. fedblog's own
/// endpoint (Mastodon has no admin API for emojis).
pub struct ListAdminCustomEmojis;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListAdminCustomEmojisRequest {
    /// Only this server's.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub local: Option<bool>,
    /// Only other servers'.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub remote: Option<bool>,
    /// Only those of this domain.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub by_domain: Option<String>,
    /// Only those whose shortcode contains this text (any case).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub shortcode: Option<String>,
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListAdminCustomEmojis {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/custom_emojis";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = ListAdminCustomEmojisRequest;
    type Response = Paged<AdminCustomEmoji>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAdminCustomEmojisRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_CUSTOM_EMOJIS)?;
        let local = match (r.local, r.remote) {
            (Some(true), Some(true)) | (None | Some(false), None | Some(false)) => None,
            (Some(true), _) => Some(true),
            (_, Some(true)) => Some(false),
        };
        let filter = CustomEmojiFilter {
            local,
            domain: r.by_domain.filter(|d| !d.trim().is_empty()),
            shortcode: r.shortcode,
            enabled_only: false,
        };
        let rows = app
            .custom_emojis()
            .list(&filter, r.page.page(100, 200))
            .await?;
        let link = app.page_link(
            caller,
            rows.first().map(|e| e.id),
            rows.last().map(|e| e.id),
        );
        Ok(Paged {
            items: rows.iter().map(render_admin_custom_emoji).collect(),
            link,
        })
    }
}
