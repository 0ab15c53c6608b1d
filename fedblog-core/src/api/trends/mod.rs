//! Trends as clients read them: tags, statuses and links in use now, offset-paginated with a
//! `Link` header even when empty. <https://docs.joinmastodon.org/methods/trends/>
//!
//! Every list takes `offset` (how many to skip) and `limit` (how many; each endpoint has its
//! default and its maximum) and answers with a `Link` header that always names the `next` page
//! (`offset + limit`), and the `prev` page too when `offset` is above 0, even on an empty page
//! (the specification's rule). [`TrendsPageRequest`] reads the parameters,
//! [`TrendsPageRequest::page`] resolves them into an [`OffsetPage`], and [`OffsetPage::link`]
//! makes the header; a list of trends (links included) uses the three so that all of them
//! paginate alike:
//!
//! ```ignore
//! let page = r.page(10, 20);
//! let items = /* at most page.limit items, page.offset of them skipped */;
//! Ok(Paged { link: Some(page.link(app, caller)), items })
//! ```
//!
//! What is shown (only what staff approved, by default) and how items are scored is the
//! trends area's (`services/trends.rs`).

pub mod list_links;
pub mod list_statuses;
pub mod list_tags;
pub mod list_tags_v1;

use serde::Deserialize;

use crate::app::{App, Caller};
use crate::params::de;
use crate::services::discovery::{offset_limit, offset_of};

/// Parameters of an offset-paginated list of trends.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TrendsPageRequest {
    /// How many to skip.
    #[serde(deserialize_with = "de::opt_i64")]
    pub offset: Option<i64>,
    /// How many.
    #[serde(deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
}

impl TrendsPageRequest {
    /// The page asked for: `offset` (missing or negative: 0) and `limit` (missing or 0:
    /// `default`; at most `max`).
    pub fn page(&self, default: u64, max: u64) -> OffsetPage {
        OffsetPage {
            offset: offset_of(self.offset),
            limit: offset_limit(self.limit, default, max),
        }
    }
}

/// One page of an offset-paginated list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffsetPage {
    /// How many items are skipped.
    pub offset: u64,
    /// How many items the page holds at most.
    pub limit: u64,
}

impl OffsetPage {
    /// The `Link` header of this page, served at the caller's path: `next` always (the page
    /// after this one, even when this one is empty or short), `prev` when the page does not
    /// start at the top; both with the page's `limit`.
    pub fn link(&self, app: &App, caller: &Caller) -> String {
        let url = format!("{}{}", app.base_url(), caller.info.path);
        let (offset, limit) = (self.offset, self.limit);
        let mut rels = vec![format!(
            "<{url}?limit={limit}&offset={}>; rel=\"next\"",
            offset.saturating_add(limit)
        )];
        if offset > 0 {
            rels.push(format!(
                "<{url}?limit={limit}&offset={}>; rel=\"prev\"",
                offset.saturating_sub(limit)
            ));
        }
        rels.join(", ")
    }
}
