//! Checks of the custom emoji management methods of `MediaStore`: staff's list by filter and
//! page, lookups by id and removal ([`Capability::ManagesCustomEmojis`]).

use fedblog_core::pagination::Page;
use fedblog_core::store::{CustomEmojiFilter, CustomEmojiRecord};
use fedblog_core::{Id, IdGenerator, Store};

use super::{Capabilities, Capability, T0, at};

/// A custom emoji `shortcode` of `domain` (`None`: this server's) changed at `millis`. Not
/// saved.
fn emoji(
    ids: &IdGenerator,
    shortcode: &str,
    domain: Option<&str>,
    millis: i64,
) -> CustomEmojiRecord {
    let id = ids.next_at(millis);
    let host = domain.unwrap_or("local.example");
    CustomEmojiRecord {
        id,
        shortcode: shortcode.into(),
        domain: domain.map(Into::into),
        uri: Some(format!("https://{host}/emojis/{id}")),
        image_url: format!("https://files.{host}/custom_emojis/{id}/{shortcode}.png"),
        static_url: format!("https://files.{host}/custom_emojis/{id}/{shortcode}.png"),
        visible_in_picker: domain.is_none(),
        category: domain.is_none().then(|| "Blobs".to_string()),
        disabled: false,
        updated_at: at(millis),
    }
}

/// Saves emojis, which must succeed.
async fn save(store: &dyn Store, emojis: &[CustomEmojiRecord]) {
    store
        .save_custom_emojis(emojis)
        .await
        .unwrap_or_else(|e| panic!("save_custom_emojis failed: {e:?}"));
}

/// The ids `list_custom_emojis` answers, in order.
async fn listed(store: &dyn Store, filter: &CustomEmojiFilter, page: Page) -> Vec<Id> {
    store
        .list_custom_emojis(filter, page)
        .await
        .unwrap_or_else(|e| panic!("list_custom_emojis({filter:?}, {page:?}) failed: {e:?}"))
        .into_iter()
        .map(|e| e.id)
        .collect()
}

/// `list_custom_emojis` lists the emojis a filter selects, newest (highest id) first, with
/// every field as saved: `local` takes this server's (`Some(true)`) or other servers'
/// (`Some(false)`), `domain` one server's, `shortcode` those containing the text in any case
/// (with `_` and `%` taken literally), `enabled_only` leaves disabled ones out; pages bound and
/// limit it as everywhere (`max_id`, `since_id`, `min_id` taking the oldest above first). A
/// store that claims the capability answers `true` to `manages_custom_emojis`. Without
/// [`Capability::ManagesCustomEmojis`] (the trait's default): it lists nothing.
pub async fn custom_emojis_are_listed_by_filter_newest_first(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let cat = emoji(&ids, "blobcat", None, T0 + 1_000);
    let far_cat = emoji(&ids, "blobcat", Some("remote.example"), T0 + 1_001);
    let parrot = CustomEmojiRecord {
        disabled: true,
        ..emoji(&ids, "Party_Parrot", None, T0 + 1_002)
    };
    let hundred = emoji(&ids, "blob100", Some("other.example"), T0 + 1_003);
    save(
        store,
        &[
            cat.clone(),
            far_cat.clone(),
            parrot.clone(),
            hundred.clone(),
        ],
    )
    .await;
    let all = CustomEmojiFilter::default();
    if !capabilities.has(Capability::ManagesCustomEmojis) {
        assert_eq!(
            listed(store, &all, Page::first(10)).await,
            vec![],
            "a store that does not manage custom emojis lists none (or claim \
             ManagesCustomEmojis)"
        );
        return;
    }
    assert!(
        store.manages_custom_emojis(),
        "a store claiming ManagesCustomEmojis must answer true to manages_custom_emojis"
    );
    let got = store
        .list_custom_emojis(&all, Page::first(10))
        .await
        .expect("list_custom_emojis");
    assert_eq!(
        got,
        vec![
            hundred.clone(),
            parrot.clone(),
            far_cat.clone(),
            cat.clone()
        ],
        "no filter must list every emoji, newest first, as saved"
    );
    let cases: Vec<(CustomEmojiFilter, Vec<Id>, &str)> = vec![
        (
            CustomEmojiFilter {
                local: Some(true),
                ..Default::default()
            },
            vec![parrot.id, cat.id],
            "local: Some(true) takes this server's only",
        ),
        (
            CustomEmojiFilter {
                local: Some(false),
                ..Default::default()
            },
            vec![hundred.id, far_cat.id],
            "local: Some(false) takes other servers' only",
        ),
        (
            CustomEmojiFilter {
                domain: Some("remote.example".into()),
                ..Default::default()
            },
            vec![far_cat.id],
            "domain takes that server's only",
        ),
        (
            CustomEmojiFilter {
                shortcode: Some("PARROT".into()),
                ..Default::default()
            },
            vec![parrot.id],
            "shortcode matches part of a shortcode in any case",
        ),
        (
            CustomEmojiFilter {
                shortcode: Some("_".into()),
                ..Default::default()
            },
            vec![parrot.id],
            "shortcode takes `_` literally (not as a LIKE wildcard)",
        ),
        (
            CustomEmojiFilter {
                shortcode: Some("blob".into()),
                local: Some(false),
                ..Default::default()
            },
            vec![hundred.id, far_cat.id],
            "filters combine",
        ),
        (
            CustomEmojiFilter {
                local: Some(true),
                enabled_only: true,
                ..Default::default()
            },
            vec![cat.id],
            "enabled_only leaves disabled emojis out",
        ),
    ];
    for (filter, want, rule) in cases {
        assert_eq!(
            listed(store, &filter, Page::first(10)).await,
            want,
            "{rule} ({filter:?})"
        );
    }
    let page = |max_id: Option<Id>, since_id: Option<Id>, min_id: Option<Id>, limit| Page {
        max_id,
        since_id,
        min_id,
        limit,
    };
    assert_eq!(
        listed(store, &all, page(None, None, None, 2)).await,
        vec![hundred.id, parrot.id],
        "limit takes the newest"
    );
    assert_eq!(
        listed(store, &all, page(Some(parrot.id), None, None, 10)).await,
        vec![far_cat.id, cat.id],
        "max_id takes those below"
    );
    assert_eq!(
        listed(store, &all, page(None, Some(far_cat.id), None, 10)).await,
        vec![hundred.id, parrot.id],
        "since_id takes those above"
    );
    assert_eq!(
        listed(store, &all, page(None, None, Some(cat.id), 2)).await,
        vec![parrot.id, far_cat.id],
        "min_id takes the oldest above it, newest first"
    );
}

/// `custom_emoji_by_id` finds a saved emoji as saved, and nothing for an unknown id;
/// `delete_custom_emoji` removes it and answers it once (then `None`), leaving the others, so
/// that neither a lookup by id, by key nor a list finds it. Without
/// [`Capability::ManagesCustomEmojis`] (the trait's default): nothing is found or removed.
pub async fn custom_emojis_are_found_by_id_and_deleted_once(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let cat = emoji(&ids, "blobcat", None, T0 + 1_000);
    let far_cat = emoji(&ids, "blobcat", Some("remote.example"), T0 + 1_001);
    save(store, &[cat.clone(), far_cat.clone()]).await;
    let by_id = |id: Id| async move {
        store
            .custom_emoji_by_id(id)
            .await
            .unwrap_or_else(|e| panic!("custom_emoji_by_id failed: {e:?}"))
    };
    let delete = |id: Id| async move {
        store
            .delete_custom_emoji(id)
            .await
            .unwrap_or_else(|e| panic!("delete_custom_emoji failed: {e:?}"))
    };
    if !capabilities.has(Capability::ManagesCustomEmojis) {
        assert_eq!(by_id(cat.id).await, None, "the default finds nothing");
        assert_eq!(delete(cat.id).await, None, "the default removes nothing");
        return;
    }
    assert_eq!(
        by_id(cat.id).await,
        Some(cat.clone()),
        "found by id as saved"
    );
    assert_eq!(by_id(far_cat.id).await, Some(far_cat.clone()));
    assert_eq!(
        by_id(ids.next_at(T0 + 9_000)).await,
        None,
        "an unknown id finds nothing"
    );
    assert_eq!(
        delete(cat.id).await,
        Some(cat.clone()),
        "delete_custom_emoji answers what it removed"
    );
    assert_eq!(
        by_id(cat.id).await,
        None,
        "a removed emoji is not found by id"
    );
    assert_eq!(
        delete(cat.id).await,
        None,
        "a second delete removes nothing"
    );
    let keys = [
        ("blobcat".to_string(), None),
        ("blobcat".to_string(), Some("remote.example".to_string())),
    ];
    assert_eq!(
        store
            .custom_emojis_by_keys(&keys)
            .await
            .expect("custom_emojis_by_keys"),
        vec![far_cat.clone()],
        "a removed emoji is not found by key, the others are"
    );
    assert_eq!(
        listed(store, &CustomEmojiFilter::default(), Page::first(10)).await,
        vec![far_cat.id],
        "a removed emoji is not listed"
    );
}
