//! Links: the link of each status that Mastodon would make its preview card (the first `http(s)`
//! link of its text that is not a mention or a hashtag), recorded when the status is posted or
//! edited, and the link timeline of the public statuses carrying a link.
//!
//! fedblog fetches no preview cards and has no trends yet: where Mastodon answers the link
//! timeline only for a trending link's card, fedblog answers it for any link a statuses of its
//! timeline carries, and a 404 for others.

use crate::content::{self, Token};
use crate::error::{ApiError, ApiResult};
use crate::pagination::Page;
use crate::services::timelines::StatusPage;
use crate::services::visibility::VisibilityRule;
use crate::store::{AccountRecord, LinkStore, PublicTimelineFilter, StatusRecord};

/// The link a status's preview card would show: the first `http(s)` link of its text.
pub fn card_link(text: &str) -> Option<String> {
    content::tokenize(text).into_iter().find_map(|t| match t {
        Token::Url(u) => Some(u.to_string()),
        _ => None,
    })
}

/// The links area: `app.links()`. It holds the link store and the visibility rule the link
/// timeline is filtered by.
pub struct Links<'a> {
    store: &'a dyn LinkStore,
    visibility: VisibilityRule<'a>,
}

impl<'a> Links<'a> {
    /// The area over `store`, filtering through `visibility`.
    pub fn new(store: &'a dyn LinkStore, visibility: VisibilityRule<'a>) -> Self {
        Links { store, visibility }
    }

    /// Records the link of a status just posted or edited (or that it has none any more).
    pub(crate) async fn record_link(&self, status: &StatusRecord) -> ApiResult<()> {
        if status.reblog_of_id.is_some() {
            return Ok(());
        }
        let link = card_link(&status.text);
        self.store
            .set_status_link(status.id, link.as_deref())
            .await?;
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
