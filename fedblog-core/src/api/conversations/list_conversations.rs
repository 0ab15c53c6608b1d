//! `GET /api/v1/conversations`: the caller's direct-message threads, by their last status. <https://docs.joinmastodon.org/methods/conversations/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Conversation;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The caller's conversations, newest last status first (20 by default, 40 at most), paged by
/// their last status ids.
pub struct ListConversations;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListConversationsRequest {
    /// Cursor (last status ids) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListConversations {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/conversations";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = ListConversationsRequest;
    type Response = Paged<Conversation>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListConversationsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let page = app.conversations().page(me, r.page.page(20, 40)).await?;
        Ok(Paged {
            link: app.page_link(caller, page.first, page.last),
            items: app.render_conversations(me, &page.conversations).await?,
        })
    }
}
