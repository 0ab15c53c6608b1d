//! Timelines: the materialised home feed and the public timeline, one page at a time.

use crate::app::{App, Caller};
use crate::error::ApiResult;
use crate::id::Id;
use crate::pagination::{Page, link_header};
use crate::store::{AccountRecord, PublicTimelineFilter, StatusRecord};

/// A page of statuses after read-time filtering, with the cursors of the page as read from the
/// store: pagination goes on past entries the filters hid, even past a page they emptied.
pub struct StatusPage {
    /// The statuses to show, newest first.
    pub statuses: Vec<StatusRecord>,
    /// The newest id read.
    pub first: Option<Id>,
    /// The oldest id read.
    pub last: Option<Id>,
}

/// Reads of the store one timeline page may take when filters hide entries.
const MAX_READS: usize = 4;

impl App {
    /// One page of the caller's home feed, with visibility, blocks, mutes and domain blocks
    /// applied on read.
    /// When those hide entries, older entries are read to fill the page (a few reads at most).
    pub async fn home_timeline(&self, me: &AccountRecord, page: Page) -> ApiResult<StatusPage> {
        let mut out = StatusPage {
            statuses: vec![],
            first: None,
            last: None,
        };
        let mut cursor = page;
        for _ in 0..MAX_READS {
            let ids = self.store.home_feed(me.id, cursor).await?;
            let visible = self.visible_statuses(Some(me), &ids).await?;
            let shown = self.without_hidden_authors(Some(me), visible).await?;
            let shown = self.without_blocked_domains(Some(me), shown).await?;
            if !Self::take_read(&mut out, &ids, shown, page, &mut cursor) {
                break;
            }
        }
        Ok(out)
    }

    /// One page of the public timeline, without the posts of accounts hidden from the viewer or on
    /// a domain the viewer blocks (older posts are read to fill the page, a few reads at most).
    pub async fn public_timeline(
        &self,
        viewer: Option<&AccountRecord>,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> ApiResult<StatusPage> {
        let mut out = StatusPage {
            statuses: vec![],
            first: None,
            last: None,
        };
        let mut cursor = page;
        for _ in 0..MAX_READS {
            let records = self.store.public_timeline(filter, cursor).await?;
            let ids: Vec<Id> = records.iter().map(|s| s.id).collect();
            let shown = self.without_hidden_authors(viewer, records).await?;
            let shown = self.without_blocked_domains(viewer, shown).await?;
            if !Self::take_read(&mut out, &ids, shown, page, &mut cursor) {
                break;
            }
        }
        Ok(out)
    }

    /// Adds one read to a page; returns whether another read should follow (the page is not
    /// full, the store had more, and the page reads downwards).
    fn take_read(
        out: &mut StatusPage,
        ids: &[Id],
        shown: Vec<StatusRecord>,
        page: Page,
        cursor: &mut Page,
    ) -> bool {
        let (Some(&newest), Some(&oldest)) = (ids.first(), ids.last()) else {
            return false;
        };
        out.first.get_or_insert(newest);
        out.last = Some(oldest);
        out.statuses.extend(shown);
        let more =
            out.statuses.len() < page.limit && ids.len() >= cursor.limit && !page.ascending();
        *cursor = Page {
            max_id: Some(oldest),
            limit: page.limit.saturating_sub(out.statuses.len()).max(1),
            ..*cursor
        };
        more
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
}
