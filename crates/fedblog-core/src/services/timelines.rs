//! Timelines: the materialised home feed and the public timeline, one page at a time.

use crate::app::{App, Caller};
use crate::error::ApiResult;
use crate::pagination::{Page, link_header};
use crate::store::{AccountRecord, PublicTimelineFilter, StatusRecord};

impl App {
    /// One page of the caller's home feed, with visibility re-checked on read.
    pub async fn home_timeline(
        &self,
        me: &AccountRecord,
        page: Page,
    ) -> ApiResult<Vec<StatusRecord>> {
        let ids = self.store.home_feed(me.id, page).await?;
        let visible = self.visible_statuses(Some(me), &ids).await?;
        self.without_hidden_authors(Some(me), visible).await
    }

    /// One page of the public timeline, without the posts of accounts hidden from the viewer.
    pub async fn public_timeline(
        &self,
        viewer: Option<&AccountRecord>,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> ApiResult<Vec<StatusRecord>> {
        let records = self.store.public_timeline(filter, page).await?;
        self.without_hidden_authors(viewer, records).await
    }

    /// The `Link` header for a page served at the caller's request path, from the cursors of its
    /// first (newest) and last (oldest) items.
    pub fn page_link(
        &self,
        caller: &Caller,
        first: Option<crate::Id>,
        last: Option<crate::Id>,
    ) -> Option<String> {
        let url = format!("{}{}", self.base_url(), caller.info.path);
        link_header(&url, &caller.info.query, first, last)
    }

    /// The `Link` header for a page of statuses.
    pub fn status_page_link(&self, caller: &Caller, items: &[StatusRecord]) -> Option<String> {
        self.page_link(
            caller,
            items.first().map(|s| s.id),
            items.last().map(|s| s.id),
        )
    }
}
