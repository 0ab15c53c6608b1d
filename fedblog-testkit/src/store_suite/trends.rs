//! Checks of what trends are scored from, in
//! [`ModerationStore`](fedblog_core::store::ModerationStore): the uses of hashtags that count
//! (`trend_tag_uses`) and the statuses that may trend with the accounts that favourited or
//! reblogged them (`trend_status_candidates`). The scores themselves are the trends service's.
//!
//! Both are part of [`Capability::Moderates`]: a store claiming it must offer them; a store
//! lacking it (no moderation store) is held to that alone.

use fedblog_core::store::{
    AccountRecord, ModerationStore, StatusRecord, TagRecord, TrendKind, TrendReviewRecord,
    TrendStatusCandidate, TrendTagUses, TrendUse, Visibility,
};
use fedblog_core::{IdGenerator, Store};

use super::{
    Capabilities, Capability, T0, add_local, add_remote, add_status, add_tag, at, get_account,
    reblog, reply, status,
};

/// The store's moderation store; `None` for a store declaring it keeps no moderation data and
/// offering none (nothing more to check).
fn moderation(store: &dyn Store, capabilities: Capabilities) -> Option<&dyn ModerationStore> {
    let m = store.moderation();
    assert!(
        m.is_some() || !capabilities.has(Capability::Moderates),
        "AccountStore::moderation: a store claiming Capability::Moderates must offer its \
         moderation store, got None"
    );
    m
}

/// The account after `edit`, saved.
async fn update(
    store: &dyn Store,
    account: &AccountRecord,
    edit: impl FnOnce(&mut AccountRecord),
) -> AccountRecord {
    let mut a = get_account(store, account.id).await;
    edit(&mut a);
    store
        .update_account(&a)
        .await
        .unwrap_or_else(|e| panic!("update_account({}) failed: {e:?}", a.username));
    get_account(store, account.id).await
}

/// `trend_tag_uses(since)` gives each tag used by a public status (not a reblog) created at or
/// after `since`, by an author neither suspended nor silenced, once, with every such use (the
/// status's author and creation time), the tag as stored (its review included); tags used
/// only otherwise are left out.
pub async fn trend_tag_uses_are_public_uses_by_accounts_in_good_standing(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let mut tags: Vec<TagRecord> = vec![];
    for name in ["busy", "quiet", "hidden", "unused"] {
        tags.push(add_tag(store, &ids, name, T0).await);
    }
    let mut reviewed = tags[1].clone();
    reviewed.review.trendable = Some(true);
    reviewed.review.reviewed_at = Some(at(T0 + 1_000));
    store.update_tag(&reviewed).await.expect("update_tag");
    let (ann, bob, cat) = (
        add_local(store, &ids, "ann").await,
        add_local(store, &ids, "bob").await,
        add_remote(store, &ids, "cat", "remote.example").await,
    );
    let silenced = add_local(store, &ids, "silenced").await;
    let suspended = add_local(store, &ids, "suspended").await;
    let tagged = |author: &AccountRecord, names: &[&str], millis: i64| StatusRecord {
        tags: names.iter().map(|n| n.to_string()).collect(),
        ..status(&ids, author, millis)
    };
    let since = at(T0 + 10_000);
    // Counted: two of ann's, one of bob's (a reply counts), one of cat's.
    let first = add_status(store, tagged(&ann, &["busy", "quiet"], T0 + 11_000)).await;
    add_status(store, tagged(&ann, &["busy"], T0 + 12_000)).await;
    add_status(
        store,
        StatusRecord {
            tags: vec!["busy".into()],
            ..reply(&ids, &bob, &first, T0 + 13_000)
        },
    )
    .await;
    add_status(store, tagged(&cat, &["busy"], T0 + 14_000)).await;
    // Not counted: too old, not public, a reblog, silenced and suspended authors.
    add_status(store, tagged(&bob, &["hidden", "quiet"], T0 + 9_999)).await;
    add_status(
        store,
        StatusRecord {
            visibility: Visibility::Unlisted,
            ..tagged(&bob, &["hidden"], T0 + 15_000)
        },
    )
    .await;
    add_status(
        store,
        StatusRecord {
            tags: vec!["hidden".into()],
            ..reblog(&ids, &bob, &first, T0 + 16_000)
        },
    )
    .await;
    add_status(store, tagged(&silenced, &["hidden"], T0 + 17_000)).await;
    add_status(store, tagged(&suspended, &["hidden"], T0 + 18_000)).await;
    update(store, &silenced, |a| a.silenced_at = Some(at(T0 + 20_000))).await;
    update(store, &suspended, |a| {
        a.suspended_at = Some(at(T0 + 20_000))
    })
    .await;
    let mut got = m
        .trend_tag_uses(since)
        .await
        .unwrap_or_else(|e| panic!("trend_tag_uses failed: {e:?}"));
    got.sort_by_key(|t| t.tag.id);
    for t in &mut got {
        t.uses.sort();
    }
    let used = |who: &AccountRecord, millis: i64| TrendUse {
        account_id: who.id,
        at: at(millis),
    };
    let mut busy_uses = vec![
        used(&ann, T0 + 11_000),
        used(&ann, T0 + 12_000),
        used(&bob, T0 + 13_000),
        used(&cat, T0 + 14_000),
    ];
    busy_uses.sort();
    assert_eq!(
        got,
        vec![
            TrendTagUses {
                tag: tags[0].clone(),
                uses: busy_uses,
            },
            TrendTagUses {
                tag: reviewed,
                uses: vec![used(&ann, T0 + 11_000)],
            },
        ],
        "trend_tag_uses: busy (ann twice, bob's reply, cat) and quiet (ann, since `since`), \
         as stored; not the uses before `since`, unlisted, in a reblog, or by silenced or \
         suspended authors"
    );
}

/// `trend_status_candidates(since)` gives each public status created at or after `since`,
/// neither a reblog nor a reply, neither sensitive nor behind a content warning, by a
/// discoverable author neither suspended nor silenced, that accounts other than its author
/// favourited or reblogged: once, with how many distinct such accounts, its language and its
/// status review (`None` before any).
pub async fn trend_status_candidates_count_distinct_accounts_with_reviews(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(m) = moderation(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let author = add_local(store, &ids, "author").await;
    let author = update(store, &author, |a| a.discoverable = Some(true)).await;
    let other = add_remote(store, &ids, "other", "remote.example").await;
    let other = update(store, &other, |a| a.discoverable = Some(true)).await;
    let shy = add_local(store, &ids, "shy").await;
    let silenced = add_local(store, &ids, "silenced").await;
    let silenced = update(store, &silenced, |a| a.discoverable = Some(true)).await;
    let mut fans = vec![];
    for name in ["fan1", "fan2", "fan3"] {
        fans.push(add_local(store, &ids, name).await);
    }
    let since = at(T0 + 10_000);
    let post = |by: &AccountRecord, millis: i64| status(&ids, by, millis);
    let one = add_status(
        store,
        StatusRecord {
            language: Some("de".into()),
            ..post(&author, T0 + 11_000)
        },
    )
    .await;
    let two = add_status(store, post(&other, T0 + 12_000)).await;
    let own_only = add_status(store, post(&author, T0 + 13_000)).await;
    let old = add_status(store, post(&author, T0 + 9_000)).await;
    let unlisted = add_status(
        store,
        StatusRecord {
            visibility: Visibility::Unlisted,
            ..post(&author, T0 + 14_000)
        },
    )
    .await;
    let answer = add_status(store, reply(&ids, &other, &one, T0 + 15_000)).await;
    let sensitive = add_status(
        store,
        StatusRecord {
            sensitive: true,
            ..post(&author, T0 + 16_000)
        },
    )
    .await;
    let warned = add_status(
        store,
        StatusRecord {
            spoiler_text: "cw".into(),
            ..post(&author, T0 + 17_000)
        },
    )
    .await;
    let by_shy = add_status(store, post(&shy, T0 + 18_000)).await;
    let by_silenced = add_status(store, post(&silenced, T0 + 19_000)).await;
    update(store, &silenced, |a| a.silenced_at = Some(at(T0 + 20_000))).await;
    let favourite = |who: &AccountRecord, s: &StatusRecord, millis: i64| {
        let (id, who, s) = (ids.next_at(millis), who.id, s.id);
        async move {
            store
                .insert_favourite(id, who, s)
                .await
                .unwrap_or_else(|e| panic!("insert_favourite failed: {e:?}"));
        }
    };
    // `one`: fan1 favourites and reblogs it, fan2 reblogs it, its author favourites it: two
    // accounts besides the author. `two`: one account.
    favourite(&fans[0], &one, T0 + 30_000).await;
    favourite(&author, &one, T0 + 30_001).await;
    add_status(store, reblog(&ids, &fans[0], &one, T0 + 30_002)).await;
    add_status(store, reblog(&ids, &fans[1], &one, T0 + 30_003)).await;
    add_status(store, reblog(&ids, &fans[2], &two, T0 + 30_004)).await;
    favourite(&author, &own_only, T0 + 30_005).await;
    for (i, s) in [
        &old,
        &unlisted,
        &answer,
        &sensitive,
        &warned,
        &by_shy,
        &by_silenced,
    ]
    .into_iter()
    .enumerate()
    {
        favourite(&fans[0], s, T0 + 31_000 + i as i64).await;
    }
    m.set_trend_review(&TrendReviewRecord {
        kind: TrendKind::Status,
        target: two.id,
        trendable: false,
        reviewed_at: at(T0 + 32_000),
    })
    .await
    .expect("set_trend_review");
    // A review of another kind with the same id is not the status's.
    m.set_trend_review(&TrendReviewRecord {
        kind: TrendKind::Link,
        target: one.id,
        trendable: true,
        reviewed_at: at(T0 + 32_001),
    })
    .await
    .expect("set_trend_review");
    let mut got = m
        .trend_status_candidates(since)
        .await
        .unwrap_or_else(|e| panic!("trend_status_candidates failed: {e:?}"));
    got.sort_by_key(|c| c.status_id);
    assert_eq!(
        got,
        vec![
            TrendStatusCandidate {
                status_id: one.id,
                account_id: author.id,
                created_at: one.created_at,
                language: Some("de".into()),
                accounts: 2,
                trendable: None,
            },
            TrendStatusCandidate {
                status_id: two.id,
                account_id: other.id,
                created_at: two.created_at,
                language: None,
                accounts: 1,
                trendable: Some(false),
            },
        ],
        "trend_status_candidates: one (2 accounts besides its author, not reviewed as a \
         status) and two (1 account, rejected); not a status only its author favourited, nor \
         one older than `since`, unlisted, a reply, sensitive, behind a content warning, by an \
         author not discoverable, or by a silenced one"
    );
}
