//! Checks of [`AnnouncementStore`](fedblog_core::store::AnnouncementStore), which a store
//! offers through [`AccountStore::announcements`](fedblog_core::store::AccountStore::announcements):
//! announcements (drafts and published ones, listed chronologically), their dismissals (one
//! per account) and reactions (one per account and name, counted in order of first use); both
//! go with their announcement and with their account.
//!
//! All of it is [`Capability::KeepsAnnouncements`]: a store claiming it must offer an
//! announcement store and keep every contract below; a store lacking it (the trait's default,
//! `announcements()` is `None`) is held to that alone. A store that declares the lack but
//! offers one anyway is checked in full.

use fedblog_core::store::{
    AnnouncementReactionCount, AnnouncementReactionRecord, AnnouncementRecord, AnnouncementStore,
};
use fedblog_core::{Id, IdGenerator, Store, StoreError};

use super::{Capabilities, Capability, T0, add_local, at};

/// The store's announcement store, if it offers one. A store claiming
/// [`Capability::KeepsAnnouncements`] must; for one declaring the lack and offering none there
/// is nothing more to check (`None`).
fn kept(store: &dyn Store, capabilities: Capabilities) -> Option<&dyn AnnouncementStore> {
    let a = store.announcements();
    assert!(
        a.is_some() || !capabilities.has(Capability::KeepsAnnouncements),
        "AccountStore::announcements: a store claiming Capability::KeepsAnnouncements must \
         offer its announcement store, got None"
    );
    a
}

/// An announcement made at `millis`, published then when `published`.
fn announcement(ids: &IdGenerator, text: &str, millis: i64, published: bool) -> AnnouncementRecord {
    AnnouncementRecord {
        id: ids.next_at(millis),
        text: text.to_string(),
        starts_at: None,
        ends_at: None,
        all_day: false,
        published,
        published_at: published.then(|| at(millis)),
        created_at: at(millis),
        updated_at: at(millis),
    }
}

/// A reaction of `account` to `announcement`, made at `millis`.
fn reaction(announcement: Id, account: Id, name: &str, millis: i64) -> AnnouncementReactionRecord {
    AnnouncementReactionRecord {
        announcement_id: announcement,
        account_id: account,
        name: name.to_string(),
        custom_emoji_id: None,
        created_at: at(millis),
    }
}

/// An announcement comes back exactly as stored (times to the millisecond, optional fields
/// set and unset); a taken id is `AlreadyExists("announcement")`; `update_announcement`
/// replaces every field but `created_at`, and unknown ids are `None` / `NotFound`.
pub async fn announcement_round_trips_and_update_replaces_it(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(s) = kept(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let mut a = announcement(&ids, "hello :blobcat:", T0 + 1_234, false);
    a.starts_at = Some(at(T0 + 10_000));
    a.ends_at = Some(at(T0 + 20_000));
    a.all_day = true;
    s.insert_announcement(&a)
        .await
        .expect("insert_announcement");
    assert_eq!(
        s.announcement_by_id(a.id)
            .await
            .expect("announcement_by_id"),
        Some(a.clone()),
        "announcement_by_id finds the announcement as stored"
    );
    let got = s.insert_announcement(&a).await;
    assert!(
        matches!(got, Err(StoreError::AlreadyExists(ref what)) if what == "announcement"),
        "insert_announcement of a taken id: {got:?}"
    );
    let changed = AnnouncementRecord {
        text: "changed".into(),
        starts_at: None,
        ends_at: None,
        all_day: false,
        published: true,
        published_at: Some(at(T0 + 5_000)),
        created_at: at(T0 + 99_000),
        updated_at: at(T0 + 5_000),
        ..a.clone()
    };
    s.update_announcement(&changed)
        .await
        .expect("update_announcement");
    assert_eq!(
        s.announcement_by_id(a.id)
            .await
            .expect("announcement_by_id"),
        Some(AnnouncementRecord {
            created_at: a.created_at,
            ..changed.clone()
        }),
        "update_announcement replaces every field but created_at"
    );
    let unknown = Id::from_i64(4242);
    assert_eq!(
        s.announcement_by_id(unknown).await.expect("lookup"),
        None,
        "announcement_by_id of an unknown id"
    );
    let got = s
        .update_announcement(&AnnouncementRecord {
            id: unknown,
            ..changed
        })
        .await;
    assert!(
        matches!(got, Err(StoreError::NotFound)),
        "update_announcement of an unknown id: {got:?}"
    );
    let got = s.delete_announcement(unknown).await;
    assert!(
        matches!(got, Err(StoreError::NotFound)),
        "delete_announcement of an unknown id: {got:?}"
    );
}

/// `list_announcements` orders by the first of `starts_at`, `published_at` and `created_at`
/// that is set, oldest first, then by id; with `published_only` the drafts are left out.
pub async fn announcements_list_chronologically_drafts_on_demand(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(s) = kept(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    // Published at 3s but starting at 1s: first.
    let mut event = announcement(&ids, "event", T0 + 3_000, true);
    event.starts_at = Some(at(T0 + 1_000));
    event.ends_at = Some(at(T0 + 50_000));
    // A draft made at 2s.
    let draft = announcement(&ids, "draft", T0 + 2_000, false);
    // Made at 0.5s, published at 4s.
    let mut late = announcement(&ids, "late", T0 + 500, true);
    late.published_at = Some(at(T0 + 4_000));
    for a in [&late, &draft, &event] {
        s.insert_announcement(a).await.expect("insert_announcement");
    }
    let all: Vec<Id> = s
        .list_announcements(false)
        .await
        .expect("list_announcements")
        .iter()
        .map(|a| a.id)
        .collect();
    assert_eq!(
        all,
        vec![event.id, draft.id, late.id],
        "list_announcements(false): chronological, drafts included"
    );
    let published: Vec<AnnouncementRecord> = s
        .list_announcements(true)
        .await
        .expect("list_announcements");
    assert_eq!(
        published,
        vec![event, late],
        "list_announcements(true): the published ones as stored"
    );
}

/// A dismissal is kept once per account (`true` the first time, `false` after); it is
/// `NotFound` for an unknown announcement; `dismissed_announcements` answers those of the
/// asked ones the account dismissed, and nobody else's.
pub async fn dismissals_are_kept_once_per_account(store: &dyn Store, capabilities: Capabilities) {
    let Some(s) = kept(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let one = announcement(&ids, "one", T0 + 1_000, true);
    let two = announcement(&ids, "two", T0 + 2_000, true);
    for a in [&one, &two] {
        s.insert_announcement(a).await.expect("insert_announcement");
    }
    assert!(
        s.dismiss_announcement(alice.id, one.id)
            .await
            .expect("dismiss"),
        "the first dismissal is new"
    );
    assert!(
        !s.dismiss_announcement(alice.id, one.id)
            .await
            .expect("dismiss"),
        "a second dismissal changes nothing"
    );
    let got = s.dismiss_announcement(alice.id, Id::from_i64(4242)).await;
    assert!(
        matches!(got, Err(StoreError::NotFound)),
        "dismiss_announcement of an unknown announcement: {got:?}"
    );
    let mut got = s
        .dismissed_announcements(alice.id, &[one.id, two.id])
        .await
        .expect("dismissed_announcements");
    got.sort();
    assert_eq!(got, vec![one.id], "alice dismissed one");
    assert_eq!(
        s.dismissed_announcements(bob.id, &[one.id, two.id])
            .await
            .expect("dismissed_announcements"),
        Vec::<Id>::new(),
        "bob dismissed none"
    );
    assert_eq!(
        s.dismissed_announcements(alice.id, &[two.id])
            .await
            .expect("dismissed_announcements"),
        Vec::<Id>::new(),
        "only the asked announcements are answered"
    );
}

/// Reactions are kept once per account and name (`false` for a repeat), `NotFound` for an
/// unknown announcement; `announcement_reactions` counts them per announcement and name, in
/// the order each name was first used, with `me` for the viewer only and the custom emoji id;
/// removing one answers whether it was there.
pub async fn reactions_are_counted_per_name_in_order_of_first_use(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(s) = kept(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let a = announcement(&ids, "react", T0 + 1_000, true);
    let other = announcement(&ids, "other", T0 + 1_500, true);
    for x in [&a, &other] {
        s.insert_announcement(x).await.expect("insert_announcement");
    }
    let mut custom = reaction(a.id, bob.id, "blobcat", T0 + 2_000);
    custom.custom_emoji_id = Some(Id::from_i64(77));
    let added = [
        custom.clone(),
        reaction(a.id, alice.id, "👍", T0 + 3_000),
        reaction(a.id, bob.id, "👍", T0 + 4_000),
        reaction(other.id, bob.id, "🎉", T0 + 5_000),
    ];
    for r in &added {
        assert!(
            s.add_announcement_reaction(r).await.expect("add"),
            "a new reaction is added"
        );
    }
    assert!(
        !s.add_announcement_reaction(&reaction(a.id, alice.id, "👍", T0 + 6_000))
            .await
            .expect("add again"),
        "a repeated reaction changes nothing"
    );
    let got = s
        .add_announcement_reaction(&reaction(Id::from_i64(4242), alice.id, "👍", T0))
        .await;
    assert!(
        matches!(got, Err(StoreError::NotFound)),
        "a reaction to an unknown announcement: {got:?}"
    );
    let counted = s
        .announcement_reactions(&[a.id], Some(alice.id))
        .await
        .expect("announcement_reactions");
    assert_eq!(
        counted,
        vec![
            AnnouncementReactionCount {
                announcement_id: a.id,
                name: "blobcat".into(),
                custom_emoji_id: Some(Id::from_i64(77)),
                count: 1,
                me: false,
            },
            AnnouncementReactionCount {
                announcement_id: a.id,
                name: "👍".into(),
                custom_emoji_id: None,
                count: 2,
                me: true,
            },
        ],
        "announcement_reactions for alice: by first use, counted, with me"
    );
    let anonymous = s
        .announcement_reactions(&[a.id, other.id], None)
        .await
        .expect("announcement_reactions");
    assert_eq!(
        anonymous.len(),
        3,
        "both announcements' names: {anonymous:?}"
    );
    assert!(
        anonymous.iter().all(|r| !r.me),
        "no viewer: me is false everywhere"
    );
    assert!(
        s.remove_announcement_reaction(a.id, alice.id, "👍")
            .await
            .expect("remove"),
        "removing a reaction that is there"
    );
    assert!(
        !s.remove_announcement_reaction(a.id, alice.id, "👍")
            .await
            .expect("remove again"),
        "removing it again"
    );
    let counted = s
        .announcement_reactions(&[a.id], Some(alice.id))
        .await
        .expect("announcement_reactions");
    assert_eq!(
        counted
            .iter()
            .map(|r| (r.name.as_str(), r.count, r.me))
            .collect::<Vec<_>>(),
        vec![("blobcat", 1, false), ("👍", 1, false)],
        "after alice took hers back"
    );
}

/// Deleting an announcement deletes its dismissals and reactions; deleting an account deletes
/// its own, leaving the others'.
pub async fn dismissals_and_reactions_go_with_announcement_and_account(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(s) = kept(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let kept_one = announcement(&ids, "kept", T0 + 1_000, true);
    let gone = announcement(&ids, "gone", T0 + 2_000, true);
    for a in [&kept_one, &gone] {
        s.insert_announcement(a).await.expect("insert_announcement");
        for who in [&alice, &bob] {
            s.dismiss_announcement(who.id, a.id).await.expect("dismiss");
            s.add_announcement_reaction(&reaction(a.id, who.id, "👍", T0 + 3_000))
                .await
                .expect("add");
        }
    }
    s.delete_announcement(gone.id)
        .await
        .expect("delete_announcement");
    assert_eq!(
        s.announcement_by_id(gone.id).await.expect("lookup"),
        None,
        "the deleted announcement is gone"
    );
    assert_eq!(
        s.announcement_reactions(&[gone.id], None)
            .await
            .expect("announcement_reactions"),
        vec![],
        "its reactions went with it"
    );
    assert_eq!(
        s.dismissed_announcements(alice.id, &[gone.id])
            .await
            .expect("dismissed"),
        Vec::<Id>::new(),
        "its dismissals went with it"
    );
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    let left = s
        .announcement_reactions(&[kept_one.id], Some(bob.id))
        .await
        .expect("announcement_reactions");
    assert_eq!(
        left.iter()
            .map(|r| (r.name.as_str(), r.count, r.me))
            .collect::<Vec<_>>(),
        vec![("👍", 1, true)],
        "alice's reaction went with her account, bob's stays"
    );
    assert_eq!(
        s.dismissed_announcements(alice.id, &[kept_one.id])
            .await
            .expect("dismissed"),
        Vec::<Id>::new(),
        "alice's dismissal went with her account"
    );
    assert_eq!(
        s.dismissed_announcements(bob.id, &[kept_one.id])
            .await
            .expect("dismissed"),
        vec![kept_one.id],
        "bob's dismissal stays"
    );
}
