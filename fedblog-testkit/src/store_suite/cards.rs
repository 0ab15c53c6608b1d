//! Checks of the preview cards a store offers through
//! [`LinkStore::cards`](fedblog_core::store::LinkStore::cards): cards kept one per URL, the card
//! each status shows (gone with its status), the shares of each card's link per day, and the
//! publishers of cards.
//!
//! All of it is [`Capability::KeepsPreviewCards`]: a store lacking it (the trait's default)
//! must offer no card store at all.

use fedblog_core::store::{CardStore, CardType, PreviewCardRecord, Visibility};
use fedblog_core::{Id, IdGenerator, Store};

use super::{Capabilities, Capability, T0, add_local, add_status, assert_not_found, at, status};

/// The card store, when the store claims the capability; `None` (checked) when it lacks it.
fn cards_of(store: &dyn Store, capabilities: Capabilities) -> Option<&dyn CardStore> {
    if !capabilities.has(Capability::KeepsPreviewCards) {
        assert!(
            store.cards().is_none(),
            "a store lacking KeepsPreviewCards offers no card store (or claim it)"
        );
        return None;
    }
    let cards = store.cards();
    assert!(
        cards.is_some(),
        "a store claiming KeepsPreviewCards offers a card store"
    );
    cards
}

/// A card of `url` with the id `id`, read at `millis`, every field set. Not saved.
fn card(id: Id, url: &str, millis: i64) -> PreviewCardRecord {
    PreviewCardRecord {
        id,
        url: url.to_string(),
        title: format!("title of {url}"),
        description: "a description".into(),
        card_type: CardType::Video,
        author_name: "Ann".into(),
        author_url: "https://news.example/@ann".into(),
        provider_name: "News".into(),
        provider_url: "https://news.example/".into(),
        html: "<iframe src=\"https://www.youtube.com/embed/x\"></iframe>".into(),
        width: 640,
        height: 360,
        image_key: Some(format!("preview_cards/images/{id}/original.png")),
        image_description: "alt".into(),
        blurhash: Some("LEHV6nWB2yk8pyo0adR*.7kCMdnj".into()),
        embed_url: String::new(),
        language: Some("en".into()),
        published_at: Some(at(T0 - 86_400_000)),
        fetched_at: at(millis),
    }
}

/// A saved card comes back by URL and by id exactly as saved; saving a card of the same URL
/// again replaces its fields and keeps the first id; `preview_cards_by_ids` answers each known
/// card once. Lacking the capability, the store offers no card store.
pub async fn preview_cards_round_trip_one_per_url(store: &dyn Store, capabilities: Capabilities) {
    let Some(cards) = cards_of(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let a = card(ids.next(), "https://news.example/a", T0);
    let b = PreviewCardRecord {
        card_type: CardType::Link,
        html: String::new(),
        image_key: None,
        blurhash: None,
        language: None,
        published_at: None,
        ..card(ids.next(), "https://news.example/b", T0)
    };
    for c in [&a, &b] {
        let stored = cards.save_preview_card(c).await.expect("save_preview_card");
        assert_eq!(&stored, c, "a new card is stored as given");
    }
    assert_eq!(
        cards
            .preview_card_by_url("https://news.example/a")
            .await
            .expect("by url"),
        Some(a.clone())
    );
    assert_eq!(
        cards
            .preview_card_by_url("https://news.example/zzz")
            .await
            .expect("by url"),
        None
    );
    let again = PreviewCardRecord {
        title: "a new title".into(),
        card_type: CardType::Photo,
        fetched_at: at(T0 + 5_000),
        ..card(ids.next(), "https://news.example/a", T0)
    };
    let stored = cards
        .save_preview_card(&again)
        .await
        .expect("save_preview_card");
    assert_eq!(
        stored,
        PreviewCardRecord {
            id: a.id,
            ..again.clone()
        },
        "saving a card of a known URL replaces it, keeping its id"
    );
    let mut found = cards
        .preview_cards_by_ids(&[b.id, a.id, a.id, Id(7)])
        .await
        .expect("by ids");
    found.sort_by_key(|c| c.id);
    let mut want = vec![stored, b];
    want.sort_by_key(|c| c.id);
    assert_eq!(found, want, "each known card once, unknown ids skipped");
}

/// `set_status_card` gives a status its card, replaces it and removes it; `status_cards`
/// answers each status that has one once; an unknown status or card is `NotFound`;
/// `delete_status` takes the status's card link away (the card stays).
pub async fn status_cards_are_set_replaced_and_removed_with_the_status(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(cards) = cards_of(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let ann = add_local(store, &ids, "ann").await;
    let s1 = add_status(store, status(&ids, &ann, T0)).await;
    let s2 = add_status(store, status(&ids, &ann, T0 + 1)).await;
    let s3 = add_status(store, status(&ids, &ann, T0 + 2)).await;
    let a = cards
        .save_preview_card(&card(ids.next(), "https://news.example/a", T0))
        .await
        .expect("save");
    let b = cards
        .save_preview_card(&card(ids.next(), "https://news.example/b", T0))
        .await
        .expect("save");
    cards.set_status_card(s1.id, Some(a.id)).await.expect("set");
    cards.set_status_card(s2.id, Some(a.id)).await.expect("set");
    let mut found = cards
        .status_cards(&[s1.id, s2.id, s3.id, s1.id])
        .await
        .expect("status_cards");
    found.sort_by_key(|(s, _)| *s);
    assert_eq!(found, vec![(s1.id, a.clone()), (s2.id, a.clone())]);
    cards
        .set_status_card(s1.id, Some(b.id))
        .await
        .expect("replace");
    cards.set_status_card(s2.id, None).await.expect("remove");
    assert_eq!(
        cards
            .status_cards(&[s1.id, s2.id])
            .await
            .expect("status_cards"),
        vec![(s1.id, b.clone())],
        "replaced and removed"
    );
    assert_not_found(
        cards.set_status_card(Id(42), Some(a.id)).await,
        "set_status_card of an unknown status",
    );
    assert_not_found(
        cards.set_status_card(s3.id, Some(Id(42))).await,
        "set_status_card of an unknown card",
    );
    store.delete_status(s1.id).await.expect("delete_status");
    assert_eq!(
        cards.status_cards(&[s1.id]).await.expect("status_cards"),
        vec![],
        "delete_status removes the status's card link"
    );
    assert_eq!(
        cards
            .preview_card_by_url(&b.url)
            .await
            .expect("by url")
            .map(|c| c.id),
        Some(b.id),
        "the card stays"
    );
}

/// `card_shares` counts, per card and UTC day, the public statuses (not reblogs) created at or
/// after `since` that show the card, and their distinct authors; statuses of suspended or
/// silenced authors, private ones and older ones are not counted.
pub async fn card_shares_count_public_statuses_by_day_and_account(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(cards) = cards_of(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let ann = add_local(store, &ids, "ann").await;
    let bob = add_local(store, &ids, "bob").await;
    let mut gone = add_local(store, &ids, "gone").await;
    let mut quiet = add_local(store, &ids, "quiet").await;
    let day = 86_400_000;
    // T0 is 22:13 UTC: the first day's shares are at T0, the next day's a day later.
    let a = cards
        .save_preview_card(&card(ids.next(), "https://news.example/a", T0))
        .await
        .expect("save");
    let shared = [
        (&ann, T0, Visibility::Public),
        (&ann, T0 + 1_000, Visibility::Public),
        (&bob, T0 + 2_000, Visibility::Public),
        (&bob, T0 + day, Visibility::Public),
        (&bob, T0 + day + 1_000, Visibility::Private),
        (&ann, T0 - 3 * day, Visibility::Public),
        (&gone, T0 + 3_000, Visibility::Public),
        (&quiet, T0 + 4_000, Visibility::Public),
    ];
    for (who, millis, visibility) in shared {
        let s = add_status(
            store,
            fedblog_core::store::StatusRecord {
                visibility,
                ..status(&ids, who, millis)
            },
        )
        .await;
        cards.set_status_card(s.id, Some(a.id)).await.expect("set");
    }
    gone.suspended_at = Some(at(T0));
    store.update_account(&gone).await.expect("suspend");
    quiet.silenced_at = Some(at(T0));
    store.update_account(&quiet).await.expect("silence");
    let mut shares = cards.card_shares(at(T0 - day)).await.expect("card_shares");
    shares.sort_by_key(|s| s.day);
    let first = at(T0).date_naive();
    let got: Vec<_> = shares
        .iter()
        .map(|s| (s.card_id, s.day, s.uses, s.accounts))
        .collect();
    assert_eq!(
        got,
        vec![
            (a.id, first, 3, 2),
            (a.id, first.succ_opt().expect("next day"), 1, 1)
        ],
        "three uses by two accounts on the first day, one the next"
    );
}

/// `card_publisher` makes a publisher per domain once (a second call answers the first one,
/// whatever id it is offered); `card_publishers` lists them newest first.
pub async fn card_publishers_are_one_per_domain_newest_first(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(cards) = cards_of(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let (first, second) = (ids.next(), ids.next());
    let news = cards
        .card_publisher("news.example", first)
        .await
        .expect("publisher");
    assert_eq!((news.id, news.domain.as_str()), (first, "news.example"));
    let again = cards
        .card_publisher("news.example", ids.next())
        .await
        .expect("publisher");
    assert_eq!(again, news, "one publisher per domain");
    let blog = cards
        .card_publisher("blog.example", second)
        .await
        .expect("publisher");
    assert_eq!(
        cards.card_publishers().await.expect("publishers"),
        vec![blog, news],
        "newest first"
    );
}
