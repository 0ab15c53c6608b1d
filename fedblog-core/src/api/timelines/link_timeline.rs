//! `GET /api/v1/timelines/link?url=`: public statuses carrying a link (a blank `url` is a 422, a link no public status carries a 404). <https://docs.joinmastodon.org/methods/timelines/#link>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;
use crate::store::{FilterContext, PublicTimelineFilter};

/// Public statuses whose preview-card link is `url`, by accounts that opted in to discovery,
/// newest first (20 by default, 40 at most).
pub struct LinkTimeline;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct LinkTimelineRequest {
    /// The link, exactly as the statuses carry it.
    #[serde(default)]
    pub url: String,
    /// Local statuses only.
    #[serde(default, deserialize_with = "de::bool")]
    pub local: bool,
    /// Remote statuses only.
    #[serde(default, deserialize_with = "de::bool")]
    pub remote: bool,
    /// Statuses with media only.
    #[serde(default, deserialize_with = "de::bool")]
    pub only_media: bool,
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for LinkTimeline {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/timelines/link";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = LinkTimelineRequest;
    type Response = Paged<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: LinkTimelineRequest,
    ) -> ApiResult<Self::Response> {
        let viewer = caller.account.as_ref();
        let filter = PublicTimelineFilter {
            local: r.local,
            remote: r.remote,
            only_media: r.only_media,
        };
        let records = app
            .links()
            .link_timeline(viewer, &r.url, filter, r.page.page(20, 40))
            .await?;
        let link = app.page_link(caller, records.first, records.last);
        Ok(Paged {
            items: app
                .render_page_in(records, viewer, FilterContext::Public)
                .await?,
            link,
        })
    }
}
