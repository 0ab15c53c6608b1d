//! Timelines: the materialised home feed and the public timeline, one page at a time.

use crate::content;
use crate::error::ApiResult;
use crate::id::Id;
use crate::loaded::Loaded;
use crate::pagination::Page;
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountRecord, Feed, FeedStore, PublicTimelineFilter, StatusRecord, StatusStore, Store,
    TagTimelineFilter,
};

/// A page of statuses after read-time filtering, with the cursors of the page as read from the
/// store: pagination goes on past entries the filters hid, even past a page they emptied.
#[derive(Default)]
pub struct StatusPage {
    /// The statuses to show, newest first.
    pub statuses: Vec<StatusRecord>,
    /// The newest id read.
    pub first: Option<Id>,
    /// The oldest id read.
    pub last: Option<Id>,
    /// What reading the page loaded besides its statuses, for render.
    pub loaded: Loaded,
}

impl From<PageFill<StatusRecord>> for StatusPage {
    fn from(f: PageFill<StatusRecord>) -> Self {
        StatusPage {
            statuses: f.items,
            first: f.first,
            last: f.last,
            loaded: Loaded::default(),
        }
    }
}

/// Tags counted per mode (`any[]`, `all[]`, `none[]`) of a hashtag timeline (Mastodon's
/// `LIMIT_PER_MODE`); `any` holds the path's tag besides.
pub const MAX_TAGS_PER_MODE: usize = 4;

/// Where a timeline's entries come from.
#[derive(Clone, Copy)]
enum Source<'a> {
    /// A materialised feed (status ids).
    Feed(Feed),
    /// The public timeline.
    Public(PublicTimelineFilter),
    /// A hashtag timeline.
    Tag(&'a TagTimelineFilter),
}

/// Statuses read with their ids, in order.
fn with_ids(records: Vec<StatusRecord>) -> (Vec<Id>, Vec<StatusRecord>) {
    (records.iter().map(|s| s.id).collect(), records)
}

/// Reads of the store one page may take when read-time filters hide entries.
pub(crate) const MAX_READS: usize = 4;

/// What the reads of one page gathered when read-time filters hide entries (timelines,
/// notifications): the items shown, and the cursors of everything read.
pub(crate) struct PageFill<T> {
    /// The items to show, newest first.
    pub items: Vec<T>,
    /// The newest id read.
    pub first: Option<Id>,
    /// The oldest id read.
    pub last: Option<Id>,
}

impl<T> PageFill<T> {
    /// Nothing read yet.
    pub fn new() -> Self {
        PageFill {
            items: vec![],
            first: None,
            last: None,
        }
    }

    /// Adds one read (`ids` as read, `shown` what the filters kept); returns whether another
    /// read should follow (the page is not full, the store had more, and the page reads
    /// downwards), with `cursor` moved below this read.
    pub fn take(&mut self, ids: &[Id], shown: Vec<T>, page: Page, cursor: &mut Page) -> bool {
        let (Some(&newest), Some(&oldest)) = (ids.first(), ids.last()) else {
            return false;
        };
        self.first.get_or_insert(newest);
        self.last = Some(oldest);
        self.items.extend(shown);
        let more = self.items.len() < page.limit && ids.len() >= cursor.limit && !page.ascending();
        *cursor = Page {
            max_id: Some(oldest),
            limit: page.limit.saturating_sub(self.items.len()).max(1),
            ..*cursor
        };
        more
    }
}

/// The timelines area: `app.timelines()`. It holds the feed and status stores the pages come
/// from and the visibility rule that filters them.
pub struct Timelines<'a> {
    feeds: &'a dyn FeedStore,
    statuses: &'a dyn StatusStore,
    visibility: VisibilityRule<'a>,
}

impl<'a> Timelines<'a> {
    /// The area over the feeds and statuses of `store`, filtering through `visibility`.
    pub fn new(store: &'a dyn Store, visibility: VisibilityRule<'a>) -> Self {
        Timelines {
            feeds: store,
            statuses: store,
            visibility,
        }
    }

    /// One page of the caller's home feed, with visibility, blocks, mutes and domain blocks
    /// applied on read.
    /// When those hide entries, older entries are read to fill the page (a few reads at most).
    pub async fn home_timeline(&self, me: &AccountRecord, page: Page) -> ApiResult<StatusPage> {
        self.feed_timeline(me, Feed::Home(me.id), page).await
    }

    /// One page of a materialised feed of `me`'s (home or list), filtered as the home feed.
    pub(crate) async fn feed_timeline(
        &self,
        me: &AccountRecord,
        feed: Feed,
        page: Page,
    ) -> ApiResult<StatusPage> {
        self.timeline_page(Some(me), Source::Feed(feed), page).await
    }

    /// One page of the public timeline, without the posts of accounts hidden from the viewer or on
    /// a domain the viewer blocks, nor those of silenced accounts the viewer does not follow
    /// (older posts are read to fill the page, a few reads at most).
    pub async fn public_timeline(
        &self,
        viewer: Option<&AccountRecord>,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> ApiResult<StatusPage> {
        self.timeline_page(viewer, Source::Public(filter), page)
            .await
    }

    /// One page of a hashtag timeline (the tags normalised; at most [`MAX_TAGS_PER_MODE`] of
    /// `any`, `all` and `none` count, as in Mastodon), filtered as the public timeline.
    pub async fn tag_timeline(
        &self,
        viewer: Option<&AccountRecord>,
        mut filter: TagTimelineFilter,
        page: Page,
    ) -> ApiResult<StatusPage> {
        for (names, keep) in [
            (&mut filter.any, MAX_TAGS_PER_MODE + 1),
            (&mut filter.all, MAX_TAGS_PER_MODE),
            (&mut filter.none, MAX_TAGS_PER_MODE),
        ] {
            let mut normalised: Vec<String> = Vec::new();
            for n in names.iter() {
                let n = content::normalize_tag(n.trim_start_matches('#'));
                if !n.is_empty() && !normalised.contains(&n) {
                    normalised.push(n);
                }
            }
            normalised.truncate(keep);
            *names = normalised;
        }
        if filter.any.is_empty() {
            return Ok(PageFill::new().into());
        }
        self.timeline_page(viewer, Source::Tag(&filter), page).await
    }

    /// A page of a timeline, without the posts of accounts hidden from the viewer or on a domain
    /// the viewer blocks (and, for a feed, the statuses the viewer may no longer see); older
    /// entries are read to fill the page (a few reads at most).
    async fn timeline_page(
        &self,
        viewer: Option<&AccountRecord>,
        source: Source<'_>,
        page: Page,
    ) -> ApiResult<StatusPage> {
        let mut fill = PageFill::new();
        let mut loaded = Loaded::default();
        let mut cursor = page;
        for _ in 0..MAX_READS {
            let (ids, shown) = match source {
                Source::Feed(feed) => {
                    let ids = match feed {
                        Feed::Home(account) => self.feeds.home_feed(account, cursor).await?,
                        Feed::List(list) => self.feeds.list_feed(list, cursor).await?,
                    };
                    let (shown, read) = self
                        .visibility
                        .visible_unhidden_statuses(viewer, &ids)
                        .await?;
                    loaded.merge(read);
                    (ids, shown)
                }
                // Public statuses only: everyone may see them.
                Source::Public(f) => with_ids(self.statuses.public_timeline(f, cursor).await?),
                Source::Tag(f) => with_ids(self.statuses.tag_timeline(f, cursor).await?),
            };
            let shown = match source {
                Source::Feed(_) => shown,
                _ => {
                    let shown = self
                        .visibility
                        .without_hidden_authors(viewer, shown, &mut loaded)
                        .await?;
                    // Limited accounts stay off public and hashtag timelines but for followers.
                    self.visibility
                        .without_silenced_authors(viewer, shown, &mut loaded)
                        .await?
                }
            };
            let shown = self
                .visibility
                .without_blocked_domains(viewer, shown, &mut loaded)
                .await?;
            if !fill.take(&ids, shown, page, &mut cursor) {
                break;
            }
        }
        Ok(StatusPage {
            loaded,
            ..fill.into()
        })
    }
}
