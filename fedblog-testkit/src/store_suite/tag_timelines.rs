//! Checks of [`StatusStore::tag_timeline`](fedblog_core::store::StatusStore::tag_timeline): which
//! statuses a hashtag timeline shows (the `any`/`all`/`none` tag rules, public statuses only,
//! replies in, reblogs and suspended authors out, `local`/`remote`/`only_media`) and its pages.

use fedblog_core::pagination::Page;
use fedblog_core::store::{PublicTimelineFilter, StatusRecord, TagTimelineFilter, Visibility};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Cursor, T0, add_local, add_remote, add_status, assert_pages, reblog, reply, status, with_media,
};

/// A filter over `any` with nothing else set.
fn any(tags: &[&str]) -> TagTimelineFilter {
    TagTimelineFilter {
        any: names(tags),
        ..Default::default()
    }
}

fn names(tags: &[&str]) -> Vec<String> {
    tags.iter().map(|t| t.to_string()).collect()
}

/// A status with these tags.
fn tagged(s: StatusRecord, tags: &[&str]) -> StatusRecord {
    StatusRecord {
        tags: names(tags),
        ..s
    }
}

/// The first page (40) of a tag timeline, as ids.
async fn timeline(store: &dyn Store, filter: &TagTimelineFilter) -> Vec<Id> {
    store
        .tag_timeline(filter, Page::first(40))
        .await
        .unwrap_or_else(|e| panic!("tag_timeline({filter:?}) failed: {e:?}"))
        .into_iter()
        .map(|s| s.id)
        .collect()
}

/// A status shows when it carries one tag of `any`, every tag of `all` and none of `none`.
pub async fn tag_timeline_matches_any_all_and_none(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let cats = add_status(store, tagged(status(&ids, &alice, T0 + 1_000), &["cats"])).await;
    let dogs = add_status(store, tagged(status(&ids, &alice, T0 + 2_000), &["dogs"])).await;
    let both = add_status(
        store,
        tagged(status(&ids, &alice, T0 + 3_000), &["dogs", "cats", "pets"]),
    )
    .await;
    let cats_pets = add_status(
        store,
        tagged(status(&ids, &alice, T0 + 4_000), &["pets", "cats"]),
    )
    .await;
    add_status(store, tagged(status(&ids, &alice, T0 + 5_000), &["birds"])).await;
    assert_eq!(
        timeline(store, &any(&["cats"])).await,
        vec![cats_pets.id, both.id, cats.id],
        "a tag timeline must show every public status carrying the tag, newest first"
    );
    assert_eq!(
        timeline(store, &any(&["cats", "dogs"])).await,
        vec![cats_pets.id, both.id, dogs.id, cats.id],
        "with several tags in any, a status carrying one of them must show"
    );
    let all = TagTimelineFilter {
        all: names(&["pets"]),
        ..any(&["cats", "dogs"])
    };
    assert_eq!(
        timeline(store, &all).await,
        vec![cats_pets.id, both.id],
        "all must keep only statuses carrying every tag of it too"
    );
    let none = TagTimelineFilter {
        none: names(&["dogs"]),
        ..all
    };
    assert_eq!(
        timeline(store, &none).await,
        vec![cats_pets.id],
        "none must leave out statuses carrying one of its tags"
    );
}

/// Only public statuses show (not unlisted, private or direct); replies do, reblogs and the
/// statuses of suspended authors do not.
pub async fn tag_timeline_shows_public_statuses_and_replies_only(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let gone = add_local(store, &ids, "gone").await;
    let public = add_status(store, tagged(status(&ids, &alice, T0 + 1_000), &["news"])).await;
    for (i, v) in [
        Visibility::Unlisted,
        Visibility::Private,
        Visibility::Direct,
    ]
    .into_iter()
    .enumerate()
    {
        let s = StatusRecord {
            visibility: v,
            ..tagged(status(&ids, &alice, T0 + 2_000 + i as i64), &["news"])
        };
        add_status(store, s).await;
    }
    let answer = add_status(
        store,
        tagged(reply(&ids, &bob, &public, T0 + 3_000), &["news"]),
    )
    .await;
    let boost = StatusRecord {
        tags: names(&["news"]),
        ..reblog(&ids, &bob, &public, T0 + 4_000)
    };
    add_status(store, boost).await;
    add_status(store, tagged(status(&ids, &gone, T0 + 5_000), &["news"])).await;
    let mut suspended = gone.clone();
    suspended.suspended_at = Some(super::at(T0 + 6_000));
    store
        .update_account(&suspended)
        .await
        .expect("update_account");
    assert_eq!(
        timeline(store, &any(&["news"])).await,
        vec![answer.id, public.id],
        "a tag timeline must show public statuses and replies only: not unlisted, private or \
         direct ones, not reblogs, not those of suspended authors"
    );
}

/// `local`, `remote` and `only_media` narrow a tag timeline as they do the public one.
pub async fn tag_timeline_local_remote_and_media_filters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let local = add_status(store, tagged(status(&ids, &alice, T0 + 1_000), &["art"])).await;
    let remote = add_status(store, tagged(status(&ids, &bob, T0 + 2_000), &["art"])).await;
    let pic = with_media(
        store,
        &ids,
        &alice,
        tagged(status(&ids, &alice, T0 + 3_000), &["art"]),
        1,
    )
    .await;
    let pic = add_status(store, pic).await;
    let place = |local: bool, remote: bool, only_media: bool| TagTimelineFilter {
        place: PublicTimelineFilter {
            local,
            remote,
            only_media,
        },
        ..any(&["art"])
    };
    assert_eq!(
        timeline(store, &place(true, false, false)).await,
        vec![pic.id, local.id],
        "local=true must show local statuses only"
    );
    assert_eq!(
        timeline(store, &place(false, true, false)).await,
        vec![remote.id],
        "remote=true must show remote statuses only"
    );
    assert_eq!(
        timeline(store, &place(false, false, true)).await,
        vec![pic.id],
        "only_media=true must show statuses with media only"
    );
}

/// Tag timeline pages honour `limit`, `max_id`, `since_id`, `min_id` and their combinations.
pub async fn tag_timeline_pages_by_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let mut s = vec![];
    for i in 0..10 {
        let t = tagged(status(&ids, &alice, T0 + 1_000 * (i + 1)), &["paged"]);
        s.push(add_status(store, t).await.id);
        add_status(
            store,
            tagged(status(&ids, &alice, T0 + 1_000 * (i + 1) + 500), &["other"]),
        )
        .await;
    }
    let filter = any(&["paged"]);
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
    ] {
        let read = |page: Page| {
            let filter = filter.clone();
            async move {
                store
                    .tag_timeline(&filter, page)
                    .await
                    .expect("tag_timeline")
                    .into_iter()
                    .map(|s| s.id)
                    .collect()
            }
        };
        assert_pages("tag_timeline", kind, &s, read).await;
    }
}
