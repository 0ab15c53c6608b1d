//! Links: the link of each status that Mastodon would make its preview card (the first `http(s)`
//! link of its text that is not a mention or a hashtag, nor a page of this server), recorded
//! when the status is posted or edited, with its card fetched by a background job (see
//! `services/cards.rs`), and the link timeline of the public statuses carrying a link.
//!
//! Mastodon 4.3 answers the link timeline only for a link whose preview card is currently
//! trending (and lists the statuses showing that card). fedblog keeps answering it for any
//! link a status of the timeline carries (a 404 for others): the statuses it lists are the
//! same ones, since a card is made for the very URL a status links to, and a server with few
//! accounts would otherwise have no link timeline at all.

use crate::error::{ApiError, ApiResult};
use crate::pagination::Page;
use crate::services::timelines::StatusPage;
use crate::services::visibility::VisibilityRule;
use crate::store::{AccountRecord, LinkStore, PublicTimelineFilter, StatusRecord};
use chrono::{DateTime, Utc};

use crate::id::IdGenerator;
use crate::services::jobs::JobQueue;

pub use crate::services::cards::{card_link, status_card_link};

/// The links area: `app.links()`. It holds the link store, the visibility rule the link
/// timeline is filtered by, and the job queue card fetches go on.
pub struct Links<'a> {
    store: &'a dyn LinkStore,
    visibility: VisibilityRule<'a>,
    jobs: JobQueue<'a>,
    ids: &'a IdGenerator,
    domain: &'a str,
    now: DateTime<Utc>,
}

impl<'a> Links<'a> {
    /// The area over `store`, filtering through `visibility`, queueing card fetches on `jobs`
    /// with ids of `ids`, for the server at `domain`, at `now`.
    pub fn new(
        store: &'a dyn LinkStore,
        visibility: VisibilityRule<'a>,
        jobs: JobQueue<'a>,
        ids: &'a IdGenerator,
        domain: &'a str,
        now: DateTime<Utc>,
    ) -> Self {
        Links {
            store,
            visibility,
            jobs,
            ids,
            domain,
            now,
        }
    }

    /// Records the link of a status just posted or edited (or that it has none any more).
    /// When the store keeps cards and the link is not that of the status's card, the card goes
    /// and a job fetching the new one is queued.
    pub(crate) async fn record_link(&self, status: &StatusRecord) -> ApiResult<()> {
        if status.reblog_of_id.is_some() {
            return Ok(());
        }
        let link = status_card_link(status, self.domain);
        self.store
            .set_status_link(status.id, link.as_deref())
            .await?;
        let Some(cards) = self.store.cards() else {
            return Ok(());
        };
        let current = cards.status_cards(&[status.id]).await?.pop().map(|c| c.1);
        if current.as_ref().map(|c| &c.url) == link.as_ref() {
            return Ok(());
        }
        if current.is_some() {
            cards.set_status_card(status.id, None).await?;
        }
        if let Some(url) = link {
            let job = crate::services::cards::fetch_job(self.ids, status.id, &url, self.now)?;
            self.jobs.enqueue(&job).await?;
        }
        Ok(())
    }

    /// One page of the link timeline of `url`: public statuses carrying it by discoverable
    /// accounts, filtered as the public timeline. A blank `url` is a 422; a link no such status
    /// carries is a 404.
    pub async fn link_timeline(
        &self,
        viewer: Option<&AccountRecord>,
        url: &str,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> ApiResult<StatusPage> {
        let url = url.trim();
        if url.is_empty() {
            return Err(ApiError::invalid_field(
                "url",
                "ERR_BLANK",
                "Url can't be blank",
            ));
        }
        if !self.store.link_known(url).await? {
            return Err(ApiError::not_found());
        }
        let records = self.store.link_timeline(url, filter, page).await?;
        let first = records.first().map(|s| s.id);
        let last = records.last().map(|s| s.id);
        let mut loaded = crate::loaded::Loaded::default();
        let shown = self
            .visibility
            .without_hidden_authors(viewer, records, &mut loaded)
            .await?;
        let shown = self
            .visibility
            .without_blocked_domains(viewer, shown, &mut loaded)
            .await?;
        Ok(StatusPage {
            statuses: shown,
            first,
            last,
            loaded,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::card_link;

    #[test]
    fn the_card_link_is_the_first_link_not_a_mention_or_hashtag() {
        assert_eq!(
            card_link("@bob #news read https://a.example/x then http://b.example/"),
            Some("https://a.example/x".into())
        );
        assert_eq!(card_link("@bob@far.example #tag no links"), None);
    }
}
