//! `GET /api/v1/timelines/tag/:hashtag`: public statuses with a hashtag (`any[]`, `all[]`, `none[]`, `local`, `remote`, `only_media`). <https://docs.joinmastodon.org/methods/timelines/#tag>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;
use crate::store::{PublicTimelineFilter, TagTimelineFilter};

/// Public statuses carrying the hashtag (or one of `any[]`), every tag of `all[]` and none of
/// `none[]`, newest first (20 by default, 40 at most). Anyone may read it.
pub struct TagTimeline;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct TagTimelineRequest {
    /// The hashtag, without `#` (path).
    pub hashtag: String,
    /// Statuses with any of these tags too.
    #[serde(default, deserialize_with = "de::list")]
    pub any: Vec<String>,
    /// Statuses that also carry all of these tags.
    #[serde(default, deserialize_with = "de::list")]
    pub all: Vec<String>,
    /// Statuses with none of these tags.
    #[serde(default, deserialize_with = "de::list")]
    pub none: Vec<String>,
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

impl Endpoint for TagTimeline {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/timelines/tag/:hashtag";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = TagTimelineRequest;
    type Response = Paged<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: TagTimelineRequest,
    ) -> ApiResult<Self::Response> {
        let mut any = vec![r.hashtag];
        any.extend(r.any);
        let filter = TagTimelineFilter {
            any,
            all: r.all,
            none: r.none,
            place: PublicTimelineFilter {
                local: r.local,
                remote: r.remote,
                only_media: r.only_media,
            },
        };
        let viewer = caller.account.as_ref();
        let records = app
            .timelines()
            .tag_timeline(viewer, filter, r.page.page(20, 40))
            .await?;
        let link = app.page_link(caller, records.first, records.last);
        Ok(Paged {
            items: app
                .render_page_in(records, viewer, crate::store::FilterContext::Public)
                .await?,
            link,
        })
    }
}
