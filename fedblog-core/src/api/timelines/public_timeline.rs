//! `GET /api/v1/timelines/public`: public statuses. <https://docs.joinmastodon.org/methods/timelines/#public>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;
use crate::store::PublicTimelineFilter;

/// Public statuses (not replies to others), newest first; `local`, `remote`, `only_media` filter.
pub struct PublicTimeline;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct PublicRequest {
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

impl Endpoint for PublicTimeline {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/timelines/public";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = PublicRequest;
    type Response = Paged<Status>;

    async fn handle(app: &App, caller: &Caller, r: PublicRequest) -> ApiResult<Self::Response> {
        let filter = PublicTimelineFilter {
            local: r.local,
            remote: r.remote,
            only_media: r.only_media,
        };
        let records = app
            .timelines()
            .public_timeline(caller.account.as_ref(), filter, r.page.page(20, 40))
            .await?;
        let link = app.page_link(caller, records.first, records.last);
        Ok(Paged {
            items: app
                .render_page_in(
                    records,
                    caller.account.as_ref(),
                    crate::store::FilterContext::Public,
                )
                .await?,
            link,
        })
    }
}
