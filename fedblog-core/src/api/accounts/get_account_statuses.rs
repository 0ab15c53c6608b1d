//! `GET /api/v1/accounts/:id/statuses`: An account's statuses the caller may see, newest first (20 by default, 40 at most). <https://docs.joinmastodon.org/methods/accounts/#statuses>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged, path_id};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;
use crate::services::discovery::AccountStatusesQuery;

/// An account's statuses the caller may see, newest first (20 by default, 40 at most), with Link
/// headers. The author sees all; followers public, unlisted and followers-only posts; others
/// public and unlisted ones; anyone also the posts mentioning them. `exclude_replies` drops
/// replies to others, `only_media` keeps posts with media, `tagged` keeps posts with that hashtag
/// (normalised like hashtags), `exclude_reblogs` drops reblogs (shown otherwise when their
/// original may be seen), `pinned=true` lists the pinned statuses, newest pin first. Empty for
/// a suspended account or when either account blocks the other; 404 for an unknown account. <https://docs.joinmastodon.org/methods/accounts/#statuses>
pub struct GetAccountStatuses;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAccountStatusesRequest {
    /// Account id (path).
    pub id: String,
    /// Leave out replies to other accounts.
    #[serde(default, deserialize_with = "de::bool")]
    pub exclude_replies: bool,
    /// Leave out reblogs.
    #[serde(default, deserialize_with = "de::bool")]
    pub exclude_reblogs: bool,
    /// Only posts with media.
    #[serde(default, deserialize_with = "de::bool")]
    pub only_media: bool,
    /// Only pinned posts.
    #[serde(default, deserialize_with = "de::bool")]
    pub pinned: bool,
    /// Only posts with this hashtag.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub tagged: Option<String>,
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for GetAccountStatuses {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/:id/statuses";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = GetAccountStatusesRequest;
    type Response = Paged<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAccountStatusesRequest,
    ) -> ApiResult<Self::Response> {
        let viewer = caller.account.as_ref();
        let query = AccountStatusesQuery {
            exclude_replies: r.exclude_replies,
            only_media: r.only_media,
            tagged: r.tagged,
            pinned: r.pinned,
            exclude_reblogs: r.exclude_reblogs,
        };
        let page = app
            .discovery()
            .account_statuses(viewer, path_id(&r.id)?, query, r.page.page(20, 40))
            .await?;
        let link = app.page_link(caller, page.first, page.last);
        Ok(Paged {
            items: app
                .render_page_in(page, viewer, crate::store::FilterContext::Account)
                .await?,
            link,
        })
    }
}
