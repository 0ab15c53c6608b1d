//! Rendering preview cards, trending links and publishers of links.

use crate::app::App;
use crate::entities::{AdminTrendLink, AdminTrendPublisher, LinkHistory, PreviewCard, TrendsLink};
use crate::services::cards::{LinkTrendView, PublisherView};
use crate::store::PreviewCardRecord;

use super::timestamp;

impl App {
    /// A preview card as clients see it; its image is served from the file store.
    pub fn render_preview_card(&self, card: &PreviewCardRecord) -> PreviewCard {
        let base = self.base_url();
        PreviewCard {
            url: card.url.clone(),
            title: card.title.clone(),
            description: card.description.clone(),
            kind: card.card_type.as_str().to_string(),
            authors: vec![],
            author_name: card.author_name.clone(),
            author_url: card.author_url.clone(),
            provider_name: card.provider_name.clone(),
            provider_url: card.provider_url.clone(),
            html: card.html.clone(),
            width: card.width,
            height: card.height,
            image: card
                .image_key
                .as_deref()
                .map(|k| self.files.public_url(&base, k)),
            image_description: card.image_description.clone(),
            embed_url: card.embed_url.clone(),
            blurhash: card.blurhash.clone(),
            language: card.language.clone(),
            published_at: card.published_at.map(timestamp),
        }
    }

    /// A trending link (`Trends::Link`): its card with its week of shares, newest day first.
    pub fn render_trends_link(&self, view: &LinkTrendView) -> TrendsLink {
        TrendsLink {
            card: self.render_preview_card(&view.card),
            history: view
                .history
                .iter()
                .map(|d| LinkHistory {
                    day: d
                        .day
                        .and_hms_opt(0, 0, 0)
                        .map(|t| t.and_utc().timestamp())
                        .unwrap_or_default()
                        .to_string(),
                    uses: d.uses.to_string(),
                    accounts: d.accounts.to_string(),
                })
                .collect(),
        }
    }

    /// A link among trends as staff see it.
    pub fn render_admin_trend_link(&self, view: &LinkTrendView) -> AdminTrendLink {
        AdminTrendLink {
            id: view.card.id,
            link: self.render_trends_link(view),
            trendable: view.trendable,
            requires_review: view.requires_review,
        }
    }

    /// A publisher of links as staff see it.
    pub fn render_admin_trend_publisher(&self, view: &PublisherView) -> AdminTrendPublisher {
        AdminTrendPublisher {
            id: view.publisher.id,
            domain: view.publisher.domain.clone(),
            trendable: view.trendable,
            requires_review: view.requires_review,
        }
    }
}
