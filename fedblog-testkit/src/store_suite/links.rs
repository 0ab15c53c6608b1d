//! Checks of [`LinkStore`](fedblog_core::store::LinkStore): the link recorded for each status and
//! the link timeline of the public statuses of discoverable accounts carrying it.

use fedblog_core::pagination::Page;
use fedblog_core::store::{AccountRecord, PublicTimelineFilter, StatusRecord, Visibility};
use fedblog_core::{Id, IdGenerator, Store};

use super::{T0, add_local, add_remote, add_status, get_account, reblog, status};

const URL: &str = "https://news.example/story";

/// Makes an account discoverable (or not).
async fn discoverable(store: &dyn Store, account: &AccountRecord, yes: bool) -> AccountRecord {
    let mut a = get_account(store, account.id).await;
    a.discoverable = Some(yes);
    store.update_account(&a).await.expect("update_account");
    a
}

async fn linked(store: &dyn Store, s: StatusRecord, url: &str) -> StatusRecord {
    let s = add_status(store, s).await;
    store
        .set_status_link(s.id, Some(url))
        .await
        .expect("set_status_link");
    s
}

async fn timeline(store: &dyn Store, url: &str, filter: PublicTimelineFilter) -> Vec<Id> {
    store
        .link_timeline(url, filter, Page::first(40))
        .await
        .expect("link_timeline")
        .iter()
        .map(|s| s.id)
        .collect()
}

/// The link timeline lists, newest first, the statuses recording the link that are public,
/// not reblogs, by unsuspended accounts whose `discoverable` is true; `link_known` says whether
/// there is one; a link replaced or cleared no longer counts.
pub async fn link_timeline_lists_public_statuses_of_discoverable_accounts(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = discoverable(store, &add_local(store, &ids, "alice").await, true).await;
    let quiet = discoverable(store, &add_local(store, &ids, "quiet").await, false).await;
    let unset = add_local(store, &ids, "unset").await;
    let gone = discoverable(store, &add_local(store, &ids, "gone").await, true).await;
    let shown1 = linked(store, status(&ids, &alice, T0 + 1_000), URL).await;
    let unlisted = linked(
        store,
        StatusRecord {
            visibility: Visibility::Unlisted,
            ..status(&ids, &alice, T0 + 2_000)
        },
        URL,
    )
    .await;
    let shown2 = linked(store, status(&ids, &alice, T0 + 3_000), URL).await;
    linked(store, status(&ids, &quiet, T0 + 4_000), URL).await;
    linked(store, status(&ids, &unset, T0 + 5_000), URL).await;
    let boosted = add_status(store, reblog(&ids, &alice, &shown1, T0 + 6_000)).await;
    store
        .set_status_link(boosted.id, Some(URL))
        .await
        .expect("set_status_link");
    linked(store, status(&ids, &gone, T0 + 7_000), URL).await;
    let mut suspended = get_account(store, gone.id).await;
    suspended.suspended_at = Some(super::at(T0 + 8_000));
    store.update_account(&suspended).await.expect("suspend");
    linked(
        store,
        status(&ids, &alice, T0 + 9_000),
        "https://other.example/",
    )
    .await;
    assert_eq!(
        timeline(store, URL, PublicTimelineFilter::default()).await,
        vec![shown2.id, shown1.id],
        "link_timeline must list the public non-reblog statuses of unsuspended discoverable accounts carrying the link, newest first"
    );
    assert!(store.link_known(URL).await.expect("link_known"));
    assert!(
        !store
            .link_known("https://nowhere.example/")
            .await
            .expect("link_known"),
        "a link no status records is not known"
    );
    store
        .set_status_link(shown2.id, Some("https://moved.example/"))
        .await
        .expect("replace");
    store.set_status_link(shown1.id, None).await.expect("clear");
    store
        .set_status_link(unlisted.id, None)
        .await
        .expect("clear");
    assert_eq!(
        timeline(store, URL, PublicTimelineFilter::default()).await,
        vec![],
        "replaced and cleared links no longer count"
    );
    assert!(
        !store.link_known(URL).await.expect("link_known"),
        "a link only non-public, undiscoverable, reblog or suspended statuses carry is not known"
    );
}

/// The link timeline takes the public timeline's place filters and pages by id.
pub async fn link_timeline_filters_by_place_and_pages(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = discoverable(store, &add_local(store, &ids, "alice").await, true).await;
    let far = add_remote(store, &ids, "far", "remote.example").await;
    let far = discoverable(store, &far, true).await;
    let mut local = Vec::new();
    for i in 0..3 {
        local.push(
            linked(store, status(&ids, &alice, T0 + 1_000 * (i + 1)), URL)
                .await
                .id,
        );
    }
    let remote = linked(store, status(&ids, &far, T0 + 10_000), URL).await.id;
    let only = |local: bool, remote: bool| PublicTimelineFilter {
        local,
        remote,
        only_media: false,
    };
    assert_eq!(
        timeline(store, URL, only(true, false)).await,
        vec![local[2], local[1], local[0]],
        "local=true keeps local statuses"
    );
    assert_eq!(
        timeline(store, URL, only(false, true)).await,
        vec![remote],
        "remote=true keeps remote statuses"
    );
    let page = store
        .link_timeline(
            URL,
            PublicTimelineFilter::default(),
            Page {
                max_id: Some(remote),
                since_id: Some(local[0]),
                min_id: None,
                limit: 1,
            },
        )
        .await
        .expect("link_timeline");
    assert_eq!(
        page.iter().map(|s| s.id).collect::<Vec<_>>(),
        vec![local[2]],
        "link_timeline must page by id (max_id, since_id, limit)"
    );
}
