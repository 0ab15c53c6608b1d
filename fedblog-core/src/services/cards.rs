//! Preview cards and trending links: the card of a status's first link, made by a background
//! job from the linked page, and the links shared by the most accounts, as clients and staff
//! see them.
//!
//! **Fetching** (as Mastodon's `FetchLinkCardService` does, facts only): when a status is
//! posted or edited, locally or arriving by federation, and its first `http(s)` link that is
//! neither a mention nor a hashtag (nor a page of this server) is not the link of its card, the
//! links area queues a [`FETCH_LINK_CARD`] job. Statuses with media get one too: Mastodon
//! fetches their card and leaves it to clients to show the media instead. The job reuses the
//! card of that URL when it was read in the last [`REFRESH_AFTER_DAYS`] days, and otherwise GETs
//! the page through the embedder's outbound client (the one federation and Web Push use, with
//! its rules: no private addresses unless the server allows them, bounded answers, redirects
//! and time), at most [`MAX_PAGE_BYTES`]. An `text/html` page is read for its oEmbed discovery
//! link first (the oEmbed answer, at most [`MAX_OEMBED_BYTES`], gives the type, title, author,
//! provider and, for `photo`, the image), then its OpenGraph and Twitter `<meta>` tags (a
//! `twitter:player` makes a video card). The image is downloaded (at most
//! [`MAX_IMAGE_BYTES`]), scaled down to fit [`IMAGE_MAX_SIDE`] x [`IMAGE_MAX_SIDE`] (Mastodon's
//! `640x640>`) with its BlurHash by the media processor, and stored with the file store media
//! use. Embedded `html` is kept only for video and rich cards whose player is an `https`
//! `<iframe>` of one of [`page::EMBED_PROVIDERS`], rebuilt from its address and size; any other
//! card has none (a video without one becomes a link card; a rich oEmbed without one falls
//! back to the page's tags, as Mastodon refuses rich oEmbed that is not a plain player). A page
//! that cannot be had for good (refused, too large, not HTML, no title) leaves no card and is
//! logged; a failure that may pass (no answer, 5xx, 429) is retried, [`FETCH_ATTEMPTS`] times at
//! most. An edit whose first link changed drops the old card at once and queues the new one.
//!
//! **Trending links** (as Mastodon's `Trends::Links`, facts only, kept simple): a card's shares
//! are the public statuses (not reblogs) showing it, by accounts neither suspended nor
//! silenced, counted per UTC day as distinct accounts. A day scores when its accounts reach
//! [`LINK_TREND_THRESHOLD`] and are more than the day before (the expected level, at least 1):
//! `(observed - expected)^2 / expected`; a day's score halves every [`SCORE_HALF_LIFE_HOURS`]
//! hours after it ends, and a link ranks by its best decayed score of the week. Mastodon's
//! threshold is 5 accounts a day; fedblog takes 2, as a small server would otherwise never have
//! a trending link. Clients see the links with a score that may trend: as `FEDBLOG_TRENDS`
//! says, approved only (the link, or else its publisher: its domain) or everything not
//! rejected, or nothing; staff see every link shared this week.

mod page;

use std::collections::HashMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde_json::Value;

use crate::config::TrendsMode;
use crate::content::{self, Token};
use crate::error::{ApiError, ApiResult};
use crate::federation::{OutboundRequest, OutboundResponse, Transport, TransportError};
use crate::files::{FileStore, ImageKind};
use crate::id::{Id, IdGenerator};
use crate::media::{MediaProcessor, image_dimensions};
use crate::store::{
    CardPublisherRecord, CardStore, CardType, JobRecord, ModerationStore, PreviewCardRecord,
    StatusRecord, Store, TrendKind, TrendReviewRecord,
};

pub use page::{EMBED_PROVIDERS, allowed_provider, first_html_link};

/// Fetches the card of a status's link; payload `{"status_id": "<id>", "url": "<link>"}`.
pub const FETCH_LINK_CARD: &str = "fetch_link_card";

/// Tries of a card fetch whose failure may pass (a bounded retry).
pub const FETCH_ATTEMPTS: i32 = 3;

/// The largest page read, in bytes (Mastodon reads 1 MB of a page).
pub const MAX_PAGE_BYTES: usize = 1024 * 1024;

/// The largest oEmbed answer read, in bytes.
pub const MAX_OEMBED_BYTES: usize = 256 * 1024;

/// The largest card image downloaded, in bytes.
pub const MAX_IMAGE_BYTES: usize = 2 * 1024 * 1024;

/// A card image is scaled down to fit this many pixels on each side (Mastodon's `640x640>`).
pub const IMAGE_MAX_SIDE: u32 = 640;

/// A card read this many days ago or more is read again when another status links to it
/// (Mastodon's two weeks).
pub const REFRESH_AFTER_DAYS: i64 = 14;

/// How many days of shares the link trends count.
pub const TREND_DAYS: i64 = 7;

/// Distinct accounts a day needs before it scores (see the module documentation).
pub const LINK_TREND_THRESHOLD: i64 = 2;

/// A day's score halves every this many hours after it ends (Mastodon's 8 hours).
pub const SCORE_HALF_LIFE_HOURS: f64 = 8.0;

/// The link a status's preview card would show: the first `http(s)` link of its text.
pub fn card_link(text: &str) -> Option<String> {
    content::tokenize(text).into_iter().find_map(|t| match t {
        Token::Url(u) => Some(u.to_string()),
        _ => None,
    })
}

/// The link of a status's card: for a local status the first link of its text, for a remote
/// one the first link of its HTML (see [`first_html_link`]); never a page of `domain` (this
/// server), never for a reblog.
pub fn status_card_link(status: &StatusRecord, domain: &str) -> Option<String> {
    if status.reblog_of_id.is_some() {
        return None;
    }
    let link = if status.local {
        card_link(&status.text)
    } else {
        page::first_html_link(&status.content)
    }?;
    let ours =
        crate::federation::paths::host_of(&link).is_some_and(|h| h.eq_ignore_ascii_case(domain));
    (!ours).then_some(link)
}

/// The job that fetches the card of `url` for `status`, at `now`.
pub(crate) fn fetch_job(
    ids: &IdGenerator,
    status: Id,
    url: &str,
    now: DateTime<Utc>,
) -> ApiResult<JobRecord> {
    crate::services::jobs::json_job(
        ids.next(),
        FETCH_LINK_CARD,
        &serde_json::json!({ "status_id": status.to_string(), "url": url }),
        now,
        FETCH_ATTEMPTS,
    )
}

/// Why a fetch gave no card.
#[derive(Debug)]
enum Failure {
    /// For good: logged, not retried.
    Permanent(String),
    /// It may pass: the job is retried.
    Retry(String),
}

/// One day of a link's shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShareDay {
    /// The day (UTC).
    pub day: NaiveDate,
    /// Statuses that day.
    pub uses: i64,
    /// Distinct accounts that day.
    pub accounts: i64,
}

/// A link among trends: its card, its week of shares and what staff decided.
#[derive(Clone, Debug)]
pub struct LinkTrendView {
    /// The card.
    pub card: PreviewCardRecord,
    /// The last [`TREND_DAYS`] days, newest first.
    pub history: Vec<ShareDay>,
    /// Its score (see the module documentation).
    pub score: f64,
    /// Whether it may trend: the link's review, else its publisher's (`false` unreviewed).
    pub trendable: bool,
    /// Neither the link nor its publisher was reviewed.
    pub requires_review: bool,
    /// The link itself was rejected, or (unreviewed) its publisher was.
    pub rejected: bool,
}

/// A publisher of links with what staff decided.
#[derive(Clone, Debug)]
pub struct PublisherView {
    /// The publisher.
    pub publisher: CardPublisherRecord,
    /// Whether its links may trend.
    pub trendable: bool,
    /// Staff have not reviewed it.
    pub requires_review: bool,
}

/// The cards area: `app.cards()`. It holds the stores (cards, statuses, trend reviews), the
/// file store and media processor the card images go through, the outbound client pages are
/// read with, the id generator, the trends mode and the clock.
pub struct Cards<'a> {
    store: &'a dyn Store,
    cards: Option<&'a dyn CardStore>,
    moderation: Option<&'a dyn ModerationStore>,
    files: &'a dyn FileStore,
    processor: &'a dyn MediaProcessor,
    transport: Option<&'a dyn Transport>,
    ids: &'a IdGenerator,
    domain: &'a str,
    trends: TrendsMode,
    now: DateTime<Utc>,
}

impl<'a> Cards<'a> {
    /// The area over `store`, storing images in `files` through `processor`, reading pages
    /// through `transport` (none: no card is fetched), for the server at `domain`, at `now`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: &'a dyn Store,
        files: &'a dyn FileStore,
        processor: &'a dyn MediaProcessor,
        transport: Option<&'a dyn Transport>,
        ids: &'a IdGenerator,
        domain: &'a str,
        trends: TrendsMode,
        now: DateTime<Utc>,
    ) -> Self {
        Cards {
            store,
            cards: store.cards(),
            moderation: store.moderation(),
            files,
            processor,
            transport,
            ids,
            domain,
            trends,
            now,
        }
    }

    /// The cards of those of `statuses` that have one, by status: one store read for a page.
    pub async fn cards_of(&self, statuses: &[Id]) -> ApiResult<HashMap<Id, PreviewCardRecord>> {
        let Some(cards) = self.cards else {
            return Ok(HashMap::new());
        };
        if statuses.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(cards.status_cards(statuses).await?.into_iter().collect())
    }

    /// Runs a [`FETCH_LINK_CARD`] job: the card of the payload's link, read or reused, becomes
    /// its status's card. `Err` (the job is retried) only for a failure that may pass.
    pub async fn run_fetch(&self, payload: &Value) -> Result<(), String> {
        let Some(cards) = self.cards else {
            return Ok(());
        };
        let status_id = payload["status_id"]
            .as_str()
            .and_then(|s| s.parse::<Id>().ok())
            .ok_or("payload has no status_id")?;
        let url = payload["url"].as_str().ok_or("payload has no url")?;
        let store_err = |e: crate::error::StoreError| e.to_string();
        let Some(status) = self
            .store
            .status_by_id(status_id)
            .await
            .map_err(store_err)?
        else {
            return Ok(());
        };
        // Edited since: the job of the new link does the work.
        if status_card_link(&status, self.domain).as_deref() != Some(url) {
            return Ok(());
        }
        let known = cards.preview_card_by_url(url).await.map_err(store_err)?;
        let card = match known {
            Some(card) if card.fetched_at > self.now - Duration::days(REFRESH_AFTER_DAYS) => card,
            known => {
                let id = known.map_or_else(|| self.ids.next(), |c| c.id);
                match self.fetch_card(id, url).await {
                    Ok(card) => cards.save_preview_card(&card).await.map_err(store_err)?,
                    Err(Failure::Permanent(why)) => {
                        tracing::info!(status = %status.id, url, %why, "no preview card");
                        return Ok(());
                    }
                    Err(Failure::Retry(why)) => {
                        return Err(format!("preview card of {url}: {why}"));
                    }
                }
            }
        };
        if let Some(host) = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        {
            cards
                .card_publisher(&host, self.ids.next())
                .await
                .map_err(store_err)?;
        }
        match cards.set_status_card(status.id, Some(card.id)).await {
            Ok(()) | Err(crate::error::StoreError::NotFound) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// GETs `url` through the outbound client, taking at most `max` bytes.
    async fn get(&self, url: &str, accept: &str, max: usize) -> Result<OutboundResponse, Failure> {
        let transport = self
            .transport
            .ok_or_else(|| Failure::Permanent("this server reaches no other server".into()))?;
        let answer = transport
            .send(OutboundRequest {
                method: http::Method::GET,
                url: url.to_string(),
                headers: vec![("Accept".into(), accept.into())],
                body: None,
            })
            .await
            .map_err(|e| match e {
                TransportError::Refused(_) | TransportError::TooLarge => {
                    Failure::Permanent(e.to_string())
                }
                TransportError::Timeout | TransportError::Network(_) => {
                    Failure::Retry(e.to_string())
                }
            })?;
        match answer.status {
            200..=299 if answer.body.len() > max => {
                Err(Failure::Permanent(format!("larger than {max} bytes")))
            }
            200..=299 => Ok(answer),
            n @ (408 | 429 | 500..=599) => Err(Failure::Retry(format!("answered {n}"))),
            n => Err(Failure::Permanent(format!("answered {n}"))),
        }
    }

    /// Reads the page at `url` into a card with the id `id` (see the module documentation).
    async fn fetch_card(&self, id: Id, url: &str) -> Result<PreviewCardRecord, Failure> {
        let base = url::Url::parse(url).map_err(|e| Failure::Permanent(e.to_string()))?;
        let answer = self.get(url, "text/html", MAX_PAGE_BYTES).await?;
        let html_type = answer.content_type.as_deref().is_some_and(|t| {
            let t = t
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            t == "text/html" || t == "application/xhtml+xml"
        });
        if !html_type {
            return Err(Failure::Permanent("not an HTML page".into()));
        }
        let meta = page::read_page(&String::from_utf8_lossy(&answer.body));
        let mut card = PreviewCardRecord {
            id,
            url: url.to_string(),
            title: String::new(),
            description: String::new(),
            card_type: CardType::Link,
            author_name: String::new(),
            author_url: String::new(),
            provider_name: String::new(),
            provider_url: String::new(),
            html: String::new(),
            width: 0,
            height: 0,
            image_key: None,
            image_description: String::new(),
            blurhash: None,
            embed_url: String::new(),
            language: None,
            published_at: None,
            fetched_at: self.now,
        };
        let mut image = None;
        let oembed = match meta.oembed.as_deref().and_then(|h| base.join(h).ok()) {
            Some(endpoint) => match self.oembed(endpoint.as_str()).await {
                Ok(json) => Some((json, endpoint)),
                Err(Failure::Permanent(why) | Failure::Retry(why)) => {
                    tracing::info!(url, %why, "oEmbed unreadable; the page's tags are used");
                    None
                }
            },
            None => None,
        };
        let from_oembed = match oembed {
            Some((json, endpoint)) => apply_oembed(&mut card, &json, &endpoint, &mut image),
            None => false,
        };
        if !from_oembed {
            apply_page(&mut card, &meta, &base, &mut image);
        }
        if card.title.trim().is_empty() && card.html.is_empty() {
            return Err(Failure::Permanent("the page has no title".into()));
        }
        if card.description.is_empty() {
            card.description = meta
                .meta(&["og:description", "twitter:description", "description"])
                .unwrap_or_default();
        }
        if card.provider_name.is_empty() {
            card.provider_name = meta.meta(&["og:site_name"]).unwrap_or_default();
        }
        card.image_description = meta
            .meta(&["og:image:alt", "twitter:image:alt"])
            .unwrap_or_default();
        card.language = meta
            .meta(&["og:locale"])
            .or(meta.lang.clone())
            .and_then(|l| language_code(&l));
        card.published_at = meta
            .meta(&["article:published_time", "og:published_time"])
            .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
            .map(|t| t.with_timezone(&Utc));
        if let Some(image) = image {
            self.store_image(&mut card, &image).await;
        }
        Ok(card)
    }

    /// The oEmbed answer at `endpoint`, as JSON.
    async fn oembed(&self, endpoint: &str) -> Result<Value, Failure> {
        let answer = self
            .get(endpoint, "application/json", MAX_OEMBED_BYTES)
            .await?;
        serde_json::from_slice(&answer.body).map_err(|e| Failure::Permanent(e.to_string()))
    }

    /// Downloads the image at `url`, scales it down and stores it as the card's image; a
    /// failure is logged and leaves the card without one.
    async fn store_image(&self, card: &mut PreviewCardRecord, url: &str) {
        if let Err(why) = self.try_store_image(card, url).await {
            let why = match why {
                Failure::Permanent(w) | Failure::Retry(w) => w,
            };
            tracing::info!(card = %card.id, url, %why, "preview card kept without its image");
        }
    }

    async fn try_store_image(
        &self,
        card: &mut PreviewCardRecord,
        url: &str,
    ) -> Result<(), Failure> {
        let bytes = self.get(url, "image/*", MAX_IMAGE_BYTES).await?.body;
        let kind =
            ImageKind::sniff(&bytes).ok_or_else(|| Failure::Permanent("not an image".into()))?;
        let (w, h) = image_dimensions(&bytes)
            .filter(|(w, h)| *w > 0 && *h > 0)
            .ok_or_else(|| Failure::Permanent("the image's size cannot be read".into()))?;
        let (tw, th) = fit_within(w, h, IMAGE_MAX_SIDE);
        let pixels = u32::try_from(u64::from(tw) * u64::from(th)).unwrap_or(u32::MAX);
        let (bytes, kind, width, height, blurhash) =
            match self.processor.preview(&bytes, pixels).await {
                Ok(p) => (p.bytes, p.kind, p.width, p.height, p.blurhash),
                // Without a processor an image that already fits is kept as it is.
                Err(_) if (tw, th) == (w, h) => (bytes, kind, w, h, None),
                Err(why) => return Err(Failure::Permanent(why)),
            };
        let key = format!(
            "preview_cards/images/{}/original.{}",
            card.id,
            kind.extension()
        );
        self.files
            .put(&key, &bytes)
            .await
            .map_err(|e| Failure::Permanent(e.to_string()))?;
        card.image_key = Some(key);
        card.blurhash = blurhash;
        if card.card_type == CardType::Link {
            card.width = i32::try_from(width).unwrap_or(0);
            card.height = i32::try_from(height).unwrap_or(0);
        }
        Ok(())
    }

    /// The trends review of links and publishers; 404 when the store keeps no moderation data.
    fn moderation(&self) -> ApiResult<&'a dyn ModerationStore> {
        self.moderation.ok_or_else(ApiError::no_moderation_data)
    }

    /// Every link shared this week, ranked by score (then by accounts, then newest card), with
    /// what staff decided.
    async fn ranked(&self) -> ApiResult<Vec<LinkTrendView>> {
        let Some(cards) = self.cards else {
            return Ok(vec![]);
        };
        let today = self.now.date_naive();
        let first = today - Duration::days(TREND_DAYS - 1);
        let since = first
            .and_hms_opt(0, 0, 0)
            .map(|t| t.and_utc())
            .unwrap_or(self.now);
        let mut shares: HashMap<Id, HashMap<NaiveDate, (i64, i64)>> = HashMap::new();
        for s in cards.card_shares(since).await? {
            shares
                .entry(s.card_id)
                .or_default()
                .insert(s.day, (s.uses, s.accounts));
        }
        if shares.is_empty() {
            return Ok(vec![]);
        }
        let ids: Vec<Id> = shares.keys().copied().collect();
        let records = cards.preview_cards_by_ids(&ids).await?;
        let publishers: HashMap<String, Id> = cards
            .card_publishers()
            .await?
            .into_iter()
            .map(|p| (p.domain, p.id))
            .collect();
        let publisher_of = |c: &PreviewCardRecord| {
            url::Url::parse(&c.url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
                .and_then(|h| publishers.get(&h).copied())
        };
        let (link_reviews, publisher_reviews) = match self.moderation {
            Some(m) => {
                let pubs: Vec<Id> = records.iter().filter_map(publisher_of).collect();
                (
                    reviews(m.trend_reviews(TrendKind::Link, &ids).await?),
                    reviews(m.trend_reviews(TrendKind::Publisher, &pubs).await?),
                )
            }
            None => (HashMap::new(), HashMap::new()),
        };
        let mut ranked: Vec<LinkTrendView> = records
            .into_iter()
            .map(|card| {
                let days = shares.remove(&card.id).unwrap_or_default();
                let history: Vec<ShareDay> = (0..TREND_DAYS)
                    .map(|n| {
                        let day = today - Duration::days(n);
                        let (uses, accounts) = days.get(&day).copied().unwrap_or((0, 0));
                        ShareDay {
                            day,
                            uses,
                            accounts,
                        }
                    })
                    .collect();
                let accounts = |day: NaiveDate| days.get(&day).map_or(0, |d| d.1);
                let score = score(&accounts, today, self.now);
                let link = link_reviews.get(&card.id).copied();
                let publisher =
                    publisher_of(&card).and_then(|p| publisher_reviews.get(&p).copied());
                let decided = link.or(publisher);
                LinkTrendView {
                    card,
                    history,
                    score,
                    trendable: decided == Some(true),
                    requires_review: decided.is_none(),
                    rejected: decided == Some(false),
                }
            })
            .collect();
        let total = |v: &LinkTrendView| v.history.iter().map(|d| d.accounts).sum::<i64>();
        ranked.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| total(b).cmp(&total(a)))
                .then_with(|| b.card.id.cmp(&a.card.id))
        });
        Ok(ranked)
    }

    /// The trending links clients see (see the module documentation); `offset` of them
    /// skipped, at most `limit`.
    pub async fn trending_links(&self, offset: u64, limit: u64) -> ApiResult<Vec<LinkTrendView>> {
        if limit == 0 || self.trends == TrendsMode::Off {
            return Ok(vec![]);
        }
        let open = self.trends == TrendsMode::Open;
        Ok(self
            .ranked()
            .await?
            .into_iter()
            .filter(|v| v.score > 0.0 && (v.trendable || (open && !v.rejected)))
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(usize::try_from(limit).unwrap_or(usize::MAX))
            .collect())
    }

    /// Every link shared this week, ranked, reviewed or not, as staff see them; `offset` of
    /// them skipped, at most `limit`. 404 when the store keeps no moderation data.
    pub async fn staff_links(&self, offset: u64, limit: u64) -> ApiResult<Vec<LinkTrendView>> {
        self.moderation()?;
        Ok(self
            .ranked()
            .await?
            .into_iter()
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(usize::try_from(limit).unwrap_or(usize::MAX))
            .collect())
    }

    /// Staff decide whether the link (the card) `id` may trend. 404 when no card has that id.
    pub async fn review_link(&self, id: Id, trendable: bool) -> ApiResult<LinkTrendView> {
        let moderation = self.moderation()?;
        let card = match self.cards {
            Some(cards) => cards.preview_cards_by_ids(&[id]).await?.pop(),
            None => None,
        }
        .ok_or_else(ApiError::not_found)?;
        moderation
            .set_trend_review(&TrendReviewRecord {
                kind: TrendKind::Link,
                target: card.id,
                trendable,
                reviewed_at: self.now,
            })
            .await?;
        let found = self.ranked().await?.into_iter().find(|v| v.card.id == id);
        Ok(found.unwrap_or_else(|| LinkTrendView {
            history: vec![],
            score: 0.0,
            trendable,
            requires_review: false,
            rejected: !trendable,
            card,
        }))
    }

    /// Every publisher of links, newest first, with what staff decided. 404 when the store
    /// keeps no moderation data.
    pub async fn publishers(&self) -> ApiResult<Vec<PublisherView>> {
        let moderation = self.moderation()?;
        let Some(cards) = self.cards else {
            return Ok(vec![]);
        };
        let publishers = cards.card_publishers().await?;
        let ids: Vec<Id> = publishers.iter().map(|p| p.id).collect();
        let decided = reviews(moderation.trend_reviews(TrendKind::Publisher, &ids).await?);
        Ok(publishers
            .into_iter()
            .map(|publisher| {
                let review = decided.get(&publisher.id).copied();
                PublisherView {
                    publisher,
                    trendable: review == Some(true),
                    requires_review: review.is_none(),
                }
            })
            .collect())
    }

    /// Staff decide whether the links of the publisher `id` may trend (those not reviewed one
    /// by one). 404 when no publisher has that id.
    pub async fn review_publisher(&self, id: Id, trendable: bool) -> ApiResult<PublisherView> {
        let moderation = self.moderation()?;
        let publisher = self
            .publishers()
            .await?
            .into_iter()
            .find(|p| p.publisher.id == id)
            .ok_or_else(ApiError::not_found)?
            .publisher;
        moderation
            .set_trend_review(&TrendReviewRecord {
                kind: TrendKind::Publisher,
                target: id,
                trendable,
                reviewed_at: self.now,
            })
            .await?;
        Ok(PublisherView {
            publisher,
            trendable,
            requires_review: false,
        })
    }
}

/// Reviews by target.
fn reviews(records: Vec<TrendReviewRecord>) -> HashMap<Id, bool> {
    records
        .into_iter()
        .map(|r| (r.target, r.trendable))
        .collect()
}

/// The best decayed daily score of the week (see the module documentation), from the distinct
/// accounts of each day.
fn score(accounts: &dyn Fn(NaiveDate) -> i64, today: NaiveDate, now: DateTime<Utc>) -> f64 {
    (0..TREND_DAYS)
        .map(|n| {
            let day = today - Duration::days(n);
            let observed = accounts(day) as f64;
            let expected = (accounts(day - Duration::days(1)) as f64).max(1.0);
            if observed < LINK_TREND_THRESHOLD as f64 || expected > observed {
                return 0.0;
            }
            let raw = (observed - expected).powi(2) / expected;
            let ended = (day + Duration::days(1))
                .and_hms_opt(0, 0, 0)
                .map(|t| t.and_utc())
                .unwrap_or(now);
            let hours = if n == 0 {
                0.0
            } else {
                (now - ended).num_seconds().max(0) as f64 / 3600.0
            };
            raw * 0.5f64.powf(hours / SCORE_HALF_LIFE_HOURS)
        })
        .fold(0.0, f64::max)
}

/// `width` x `height` scaled down, aspect kept, to fit `side` x `side` (never up).
fn fit_within(width: u32, height: u32, side: u32) -> (u32, u32) {
    if width <= side && height <= side {
        return (width, height);
    }
    let scale = f64::from(side) / f64::from(width.max(height));
    let scaled = |v: u32| ((f64::from(v) * scale).round() as u32).clamp(1, side);
    (scaled(width), scaled(height))
}

/// The two-letter language of a locale or language tag (`en_US`, `fr-CA`, `de`).
fn language_code(tag: &str) -> Option<String> {
    let code = tag.split(['_', '-']).next()?.trim().to_ascii_lowercase();
    (code.len() == 2 && code.bytes().all(|b| b.is_ascii_lowercase())).then_some(code)
}

/// A string of an oEmbed field.
fn text_of(json: &Value, field: &str) -> String {
    json[field].as_str().unwrap_or_default().trim().to_string()
}

/// A dimension of an oEmbed field (a number, or a string of one).
fn dimension_of(json: &Value, field: &str) -> i32 {
    json[field]
        .as_i64()
        .or_else(|| json[field].as_str().and_then(|s| s.trim().parse().ok()))
        .and_then(|n| i32::try_from(n).ok())
        .unwrap_or(0)
        .max(0)
}

/// `href` resolved against `base`, when it is an `http(s)` URL; `""` otherwise.
fn resolved(base: &url::Url, href: &str) -> String {
    if href.trim().is_empty() {
        return String::new();
    }
    base.join(href.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(String::from)
        .unwrap_or_default()
}

/// Fills `card` from an oEmbed answer (as Mastodon's `attempt_oembed`, facts only); `false`
/// when it gives no card (an unknown type, a photo without its URL, a rich card without an
/// allowed player), and the page's tags are read instead.
fn apply_oembed(
    card: &mut PreviewCardRecord,
    json: &Value,
    endpoint: &url::Url,
    image: &mut Option<String>,
) -> bool {
    let Some(kind) = json["type"].as_str().and_then(CardType::parse) else {
        return false;
    };
    let thumbnail = resolved(endpoint, &text_of(json, "thumbnail_url"));
    let (width, height) = (dimension_of(json, "width"), dimension_of(json, "height"));
    match kind {
        CardType::Link => {}
        CardType::Photo => {
            let photo = resolved(endpoint, &text_of(json, "url"));
            if photo.is_empty() {
                return false;
            }
            card.embed_url = photo.clone();
            *image = Some(photo);
            card.width = width;
            card.height = height;
        }
        CardType::Video | CardType::Rich => {
            match page::sanitized_embed(&text_of(json, "html"), width, height) {
                Some(html) => {
                    card.html = html;
                    card.width = width;
                    card.height = height;
                }
                None if kind == CardType::Rich => return false,
                None => {}
            }
        }
    }
    card.card_type = if card.html.is_empty() && kind != CardType::Photo {
        CardType::Link
    } else {
        kind
    };
    if image.is_none() && !thumbnail.is_empty() {
        *image = Some(thumbnail);
    }
    card.title = text_of(json, "title");
    card.author_name = text_of(json, "author_name");
    card.author_url = resolved(endpoint, &text_of(json, "author_url"));
    card.provider_name = text_of(json, "provider_name");
    card.provider_url = resolved(endpoint, &text_of(json, "provider_url"));
    true
}

/// Fills `card` from the page's own tags (as Mastodon's `attempt_opengraph`, facts only): a
/// `twitter:player` of an allowed provider makes a video card with that player.
fn apply_page(
    card: &mut PreviewCardRecord,
    meta: &page::PageMeta,
    base: &url::Url,
    image: &mut Option<String>,
) {
    let dimension = |key: &str| {
        meta.meta(&[key])
            .and_then(|v| v.parse::<i32>().ok())
            .unwrap_or(0)
            .max(0)
    };
    let player = meta.meta(&["twitter:player"]).and_then(|src| {
        let (w, h) = (
            dimension("twitter:player:width"),
            dimension("twitter:player:height"),
        );
        page::player_iframe(&resolved(base, &src), w, h).map(|html| (html, w, h))
    });
    match player {
        Some((html, w, h)) => {
            card.card_type = CardType::Video;
            card.html = html;
            card.width = w;
            card.height = h;
        }
        None => card.card_type = CardType::Link,
    }
    card.title = meta
        .meta(&["og:title", "twitter:title"])
        .or_else(|| meta.title.clone())
        .unwrap_or_default();
    card.author_name = meta
        .meta(&["author", "article:author"])
        .filter(|a| !a.starts_with("http"))
        .unwrap_or_default();
    *image = meta
        .meta(&[
            "og:image",
            "og:image:secure_url",
            "og:image:url",
            "twitter:image",
            "twitter:image:src",
        ])
        .map(|i| resolved(base, &i))
        .filter(|i| !i.is_empty());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_fit_within_the_side_keeping_their_aspect() {
        assert_eq!(fit_within(1280, 720, 640), (640, 360));
        assert_eq!(fit_within(300, 2000, 640), (96, 640));
        assert_eq!(fit_within(200, 100, 640), (200, 100));
    }

    #[test]
    fn a_day_scores_above_its_expected_level_and_decays() {
        let now = DateTime::parse_from_rfc3339("2026-05-10T12:00:00Z")
            .map(|t| t.with_timezone(&Utc))
            .expect("time");
        let today = now.date_naive();
        let yesterday = today - Duration::days(1);
        // Today: 3 accounts after 1 yesterday: (3-1)^2/1 = 4, not decayed.
        let counts = |d: NaiveDate| {
            if d == today {
                3
            } else if d == yesterday {
                1
            } else {
                0
            }
        };
        assert_eq!(score(&counts, today, now), 4.0);
        // One account a day never scores; fewer than the day before neither.
        assert_eq!(score(&|_| 1, today, now), 0.0);
        // Yesterday's 3 (after none) decays: it ended 12 h ago, 1.5 half-lives.
        let old = |d: NaiveDate| if d == yesterday { 3 } else { 0 };
        let s = score(&old, today, now);
        assert!((s - 4.0 * 0.5f64.powf(1.5)).abs() < 1e-9, "{s}");
    }

    #[test]
    fn languages_are_read_from_locales() {
        assert_eq!(language_code("en_US").as_deref(), Some("en"));
        assert_eq!(language_code("fr-CA").as_deref(), Some("fr"));
        assert_eq!(language_code("deu"), None);
    }
}
