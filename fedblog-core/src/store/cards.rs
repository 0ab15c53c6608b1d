//! Preview cards: what fedblog read of the page a status's first link points to (its title,
//! description, image, provider, author and, for a few video providers, an embedded player),
//! which status shows which card, how many accounts shared each card's link each day (the
//! trending links), and the publishers (the domains) of the cards, which staff review for
//! trends.
//!
//! A store offers them through [`LinkStore::cards`](super::LinkStore::cards); a store written
//! before them offers none, and statuses then have no `card` and no link trends.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

use crate::error::StoreResult;
use crate::id::Id;

/// What kind of page a card shows, as Mastodon's `PreviewCard#type` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardType {
    /// A page (the common case).
    Link,
    /// An image (oEmbed `photo`).
    Photo,
    /// A video, with an embedded player where its provider is allowed.
    Video,
    /// Rich content (oEmbed `rich`).
    Rich,
}

impl CardType {
    /// Every type.
    pub const ALL: [CardType; 4] = [
        CardType::Link,
        CardType::Photo,
        CardType::Video,
        CardType::Rich,
    ];

    /// Its name, in the API and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            CardType::Link => "link",
            CardType::Photo => "photo",
            CardType::Video => "video",
            CardType::Rich => "rich",
        }
    }

    /// The type of a name.
    pub fn parse(name: &str) -> Option<CardType> {
        CardType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// A preview card: one per URL, shared by every status whose first link is that URL.
#[derive(Clone, Debug, PartialEq)]
pub struct PreviewCardRecord {
    /// Id.
    pub id: Id,
    /// The link, as the status wrote it (unique).
    pub url: String,
    /// The page's title.
    pub title: String,
    /// The page's description.
    pub description: String,
    /// What kind of page it is.
    pub card_type: CardType,
    /// The author's name (`""` when unknown).
    pub author_name: String,
    /// The author's page (`""` when unknown).
    pub author_url: String,
    /// The provider's name (`""` when unknown).
    pub provider_name: String,
    /// The provider's page (`""` when unknown).
    pub provider_url: String,
    /// A sanitised `<iframe>` player (video and rich cards of allowed providers), else `""`.
    pub html: String,
    /// The width of the image or player, in pixels (0 when unknown).
    pub width: i32,
    /// The height of the image or player, in pixels (0 when unknown).
    pub height: i32,
    /// The file key of the stored copy of the image, if any (its URL comes from the file store).
    pub image_key: Option<String>,
    /// The image's alternative text (`""` when none).
    pub image_description: String,
    /// The BlurHash of the image.
    pub blurhash: Option<String>,
    /// The URL of the photo of a `photo` card (`""` otherwise).
    pub embed_url: String,
    /// The page's language (ISO 639-1), if it says.
    pub language: Option<String>,
    /// When the page says it was published.
    pub published_at: Option<DateTime<Utc>>,
    /// When fedblog read the page.
    pub fetched_at: DateTime<Utc>,
}

/// How often a card's link was shared on one day: by the public statuses (not reblogs) of that
/// day whose card it is, written by accounts neither suspended nor silenced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardShareRecord {
    /// The card.
    pub card_id: Id,
    /// The day (UTC).
    pub day: NaiveDate,
    /// Statuses that day.
    pub uses: i64,
    /// Distinct authors of those statuses.
    pub accounts: i64,
}

/// A publisher of links: the domain of cards' URLs (Mastodon's preview card provider), which
/// staff review for trends as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardPublisherRecord {
    /// Id.
    pub id: Id,
    /// The domain, lower case (unique).
    pub domain: String,
}

/// The store of preview cards, offered by [`LinkStore::cards`](super::LinkStore::cards).
#[async_trait]
pub trait CardStore: Send + Sync {
    /// Saves a card: a new one when no card has its URL, else it replaces the card with that
    /// URL, keeping that card's id. Answers the card as stored.
    async fn save_preview_card(&self, card: &PreviewCardRecord) -> StoreResult<PreviewCardRecord>;
    /// The card of this URL.
    async fn preview_card_by_url(&self, url: &str) -> StoreResult<Option<PreviewCardRecord>>;
    /// The cards with these ids, each once, in any order; unknown ids are skipped.
    async fn preview_cards_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<PreviewCardRecord>>;
    /// Makes `card` the card of `status` (`None`: it has none), replacing the one before.
    /// `NotFound` when the status or the card is unknown. `delete_status` removes it.
    async fn set_status_card(&self, status: Id, card: Option<Id>) -> StoreResult<()>;
    /// The cards of those of `statuses` that have one, as (status, card), each status once, in
    /// any order: a page's cards read at once.
    async fn status_cards(&self, statuses: &[Id]) -> StoreResult<Vec<(Id, PreviewCardRecord)>>;
    /// How often each card's link was shared each day since `since` (see [`CardShareRecord`]),
    /// by statuses created at or after `since`; in any order, one record per card and day with
    /// shares.
    async fn card_shares(&self, since: DateTime<Utc>) -> StoreResult<Vec<CardShareRecord>>;
    /// The publisher of `domain` (lower case), made with the id `new_id` when there is none.
    async fn card_publisher(&self, domain: &str, new_id: Id) -> StoreResult<CardPublisherRecord>;
    /// Every publisher, newest (highest id) first.
    async fn card_publishers(&self) -> StoreResult<Vec<CardPublisherRecord>>;
}
