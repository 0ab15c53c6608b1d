//! Checks of [`QuoteStore`](fedblog_core::store::QuoteStore), which a store offers through
//! [`StatusStore::quotes`](fedblog_core::store::StatusStore::quotes): quotes (one per quoting
//! status), their states, the accepted quotes of a status paged and counted, and the quote
//! approval policies of statuses.
//!
//! All of it is [`Capability::KeepsQuotes`]: a store lacking it offers no quote store
//! (`quotes()` is `None`), and there is nothing more to check.

use fedblog_core::store::{QuotePolicyBits, QuoteRecord, QuoteState, QuoteStore};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Capabilities, Capability, Cursor, T0, add_local, add_status, assert_already_exists,
    assert_not_found, assert_pages, at, sorted, status,
};

/// The store's quote store, if it offers one. A store claiming [`Capability::KeepsQuotes`]
/// must; one declaring the lack must not (`None`: nothing more to check).
fn quotes(store: &dyn Store, capabilities: Capabilities) -> Option<&dyn QuoteStore> {
    let q = store.quotes();
    if capabilities.has(Capability::KeepsQuotes) {
        assert!(
            q.is_some(),
            "StatusStore::quotes: a store claiming Capability::KeepsQuotes must offer its quote \
             store, got None"
        );
    } else {
        assert!(
            q.is_none(),
            "StatusStore::quotes: a store offering a quote store must claim \
             Capability::KeepsQuotes"
        );
    }
    q
}

/// A quote of `quoted` (by `quoted_account`) by the status `status_id` of `account`, made at
/// `millis` (its id made then too), in `state`. Not inserted.
fn quote(
    ids: &IdGenerator,
    status_id: Id,
    account: Id,
    quoted: Id,
    quoted_account: Id,
    state: QuoteState,
    millis: i64,
) -> QuoteRecord {
    QuoteRecord {
        id: ids.next_at(millis),
        status_id,
        account_id: account,
        quoted_status_id: Some(quoted),
        quoted_account_id: Some(quoted_account),
        state,
        activity_uri: None,
        approval_uri: None,
        created_at: at(millis),
        updated_at: at(millis),
    }
}

/// An inserted quote comes back by id and by its quoting status exactly as inserted; a second
/// quote by the same status, or one with a taken id, is `AlreadyExists("quote")`; statuses that
/// quote nothing are skipped and an unknown id finds nothing.
pub async fn quotes_round_trip_one_per_status(store: &dyn Store, capabilities: Capabilities) {
    let Some(q) = quotes(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let original = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let quoting = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let plain = add_status(store, status(&ids, &bob, T0 + 3_000)).await;
    let mut first = quote(
        &ids,
        quoting.id,
        bob.id,
        original.id,
        alice.id,
        QuoteState::Pending,
        T0 + 2_000,
    );
    first.activity_uri = Some("https://remote.example/quote_requests/1".into());
    q.insert_quote(&first).await.expect("insert_quote");
    assert_eq!(
        q.quote_by_id(first.id).await.expect("quote_by_id"),
        Some(first.clone()),
        "quote_by_id answers the quote as inserted"
    );
    assert_eq!(
        q.quotes_of_statuses(&[plain.id, quoting.id, quoting.id])
            .await
            .expect("quotes_of_statuses"),
        vec![first.clone()],
        "quotes_of_statuses answers each quote once and skips statuses that quote nothing"
    );
    let again = quote(
        &ids,
        quoting.id,
        bob.id,
        original.id,
        alice.id,
        QuoteState::Accepted,
        T0 + 4_000,
    );
    assert_already_exists(
        q.insert_quote(&again).await,
        "quote",
        "a status quotes at most one status",
    );
    let mut same_id = quote(
        &ids,
        plain.id,
        bob.id,
        original.id,
        alice.id,
        QuoteState::Accepted,
        T0 + 4_000,
    );
    same_id.id = first.id;
    assert_already_exists(
        q.insert_quote(&same_id).await,
        "quote",
        "a quote's id is unique",
    );
    assert_eq!(
        q.quote_by_id(Id(first.id.0 + 12345))
            .await
            .expect("quote_by_id"),
        None,
        "an unknown quote id finds nothing"
    );
}

/// `update_quote` replaces the state, the quoted status and author, the activity and approval
/// ids and `updated_at` (and nothing else); an unknown quote is `NotFound`.
pub async fn update_quote_replaces_state_and_ids(store: &dyn Store, capabilities: Capabilities) {
    let Some(q) = quotes(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let original = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let quoting = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let before = quote(
        &ids,
        quoting.id,
        bob.id,
        original.id,
        alice.id,
        QuoteState::Pending,
        T0 + 2_000,
    );
    q.insert_quote(&before).await.expect("insert_quote");
    let mut after = before.clone();
    after.state = QuoteState::Accepted;
    after.approval_uri = Some("https://remote.example/users/alice/quote_authorizations/9".into());
    after.activity_uri = Some("https://remote.example/quote_requests/2".into());
    after.updated_at = at(T0 + 5_000);
    q.update_quote(&after).await.expect("update_quote");
    assert_eq!(
        q.quote_by_id(before.id).await.expect("quote_by_id"),
        Some(after.clone()),
        "update_quote keeps the new state, ids and updated_at"
    );
    after.state = QuoteState::Revoked;
    after.updated_at = at(T0 + 6_000);
    q.update_quote(&after).await.expect("update_quote");
    assert_eq!(
        q.quotes_of_statuses(&[quoting.id])
            .await
            .expect("quotes_of_statuses")
            .first()
            .map(|x| x.state),
        Some(QuoteState::Revoked),
        "a second update replaces the state again"
    );
    let mut unknown = after.clone();
    unknown.id = Id(after.id.0 + 777);
    assert_not_found(
        q.update_quote(&unknown).await,
        "update_quote of an unknown quote",
    );
}

/// `accepted_quotes_of` answers the accepted quotes of one status only (not pending, rejected,
/// revoked or deleted ones, nor quotes of other statuses), newest first, paged on their ids by
/// every kind of cursor; `accepted_quote_counts` counts them per status and leaves out
/// statuses without any.
pub async fn accepted_quotes_page_newest_first_and_count(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(q) = quotes(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let original = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let other = add_status(store, status(&ids, &alice, T0 + 1_500)).await;
    let lonely = add_status(store, status(&ids, &alice, T0 + 1_700)).await;
    let mut accepted = vec![];
    for i in 0..10 {
        let millis = T0 + 10_000 + i * 1_000;
        let s = add_status(store, status(&ids, &bob, millis)).await;
        let qr = quote(
            &ids,
            s.id,
            bob.id,
            original.id,
            alice.id,
            QuoteState::Accepted,
            millis,
        );
        q.insert_quote(&qr).await.expect("insert_quote");
        accepted.push(qr.id);
    }
    for (n, state) in [
        QuoteState::Pending,
        QuoteState::Rejected,
        QuoteState::Revoked,
        QuoteState::Deleted,
    ]
    .into_iter()
    .enumerate()
    {
        let millis = T0 + 30_000 + n as i64 * 1_000;
        let s = add_status(store, status(&ids, &bob, millis)).await;
        q.insert_quote(&quote(
            &ids,
            s.id,
            bob.id,
            original.id,
            alice.id,
            state,
            millis,
        ))
        .await
        .expect("insert_quote");
    }
    let s = add_status(store, status(&ids, &bob, T0 + 40_000)).await;
    q.insert_quote(&quote(
        &ids,
        s.id,
        bob.id,
        other.id,
        alice.id,
        QuoteState::Accepted,
        T0 + 40_000,
    ))
    .await
    .expect("insert_quote");
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages("accepted_quotes_of", kind, &accepted, |page| async move {
            q.accepted_quotes_of(original.id, page)
                .await
                .expect("accepted_quotes_of")
                .into_iter()
                .map(|x| x.id)
                .collect()
        })
        .await;
    }
    let mut counts = q
        .accepted_quote_counts(&[original.id, other.id, lonely.id])
        .await
        .expect("accepted_quote_counts");
    counts.sort();
    let mut expected = vec![(original.id, 10), (other.id, 1)];
    expected.sort();
    assert_eq!(
        counts, expected,
        "accepted_quote_counts counts accepted quotes only and leaves out statuses without any"
    );
}

/// A set policy comes back for its status and a second one replaces it; statuses without one
/// are left out.
pub async fn quote_policies_are_set_and_replaced(store: &dyn Store, capabilities: Capabilities) {
    let Some(q) = quotes(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let a = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let b = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let c = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    let public = QuotePolicyBits(QuotePolicyBits::PUBLIC << 16);
    let mixed = QuotePolicyBits::of(QuotePolicyBits::FOLLOWERS, QuotePolicyBits::PUBLIC);
    q.set_quote_policy(a.id, public)
        .await
        .expect("set_quote_policy");
    q.set_quote_policy(b.id, public)
        .await
        .expect("set_quote_policy");
    q.set_quote_policy(b.id, mixed)
        .await
        .expect("set_quote_policy");
    let mut got = q
        .quote_policies(&[a.id, b.id, c.id])
        .await
        .expect("quote_policies");
    got.sort_by_key(|(id, _)| *id);
    assert_eq!(
        got,
        vec![(a.id, public), (b.id, mixed)],
        "quote_policies answers the last policy set and leaves out statuses without one"
    );
}

/// Deleting the quoting status removes its quote and its policy; deleting the quoted status
/// keeps the quotes of it (they show as deleted).
pub async fn deleting_a_status_removes_its_quote_and_policy(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(q) = quotes(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let original = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let q1 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let q2 = add_status(store, status(&ids, &bob, T0 + 3_000)).await;
    let first = quote(
        &ids,
        q1.id,
        bob.id,
        original.id,
        alice.id,
        QuoteState::Accepted,
        T0 + 2_000,
    );
    let second = quote(
        &ids,
        q2.id,
        bob.id,
        original.id,
        alice.id,
        QuoteState::Accepted,
        T0 + 3_000,
    );
    q.insert_quote(&first).await.expect("insert_quote");
    q.insert_quote(&second).await.expect("insert_quote");
    q.set_quote_policy(q1.id, QuotePolicyBits(QuotePolicyBits::PUBLIC << 16))
        .await
        .expect("set_quote_policy");
    store.delete_status(q1.id).await.expect("delete_status");
    assert_eq!(
        q.quotes_of_statuses(&[q1.id, q2.id])
            .await
            .expect("quotes_of_statuses"),
        vec![second.clone()],
        "deleting a quoting status removes its quote"
    );
    assert_eq!(
        q.quote_by_id(first.id).await.expect("quote_by_id"),
        None,
        "the quote of a deleted status is gone by id too"
    );
    assert!(
        q.quote_policies(&[q1.id])
            .await
            .expect("quote_policies")
            .is_empty(),
        "deleting a status removes its policy"
    );
    assert_eq!(
        q.accepted_quote_counts(&[original.id])
            .await
            .expect("accepted_quote_counts"),
        vec![(original.id, 1)],
        "a removed quote is no longer counted"
    );
    store
        .delete_status(original.id)
        .await
        .expect("delete_status");
    assert_eq!(
        sorted(
            q.quotes_of_statuses(&[q2.id])
                .await
                .expect("quotes_of_statuses")
                .into_iter()
                .map(|x| x.id)
                .collect()
        ),
        vec![second.id],
        "deleting the quoted status keeps the quotes of it"
    );
}

/// `quote_by_activity_uri` and `quote_by_approval_uri` find a quote by the id of its
/// `QuoteRequest` and of its `QuoteAuthorization` (set when inserted or by an update, and
/// followed when an update changes them), exactly as stored; an id no quote has, or the one of
/// the other kind, finds nothing.
pub async fn quotes_are_found_by_activity_and_approval_uri(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(q) = quotes(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let original = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let q1 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let q2 = add_status(store, status(&ids, &bob, T0 + 3_000)).await;
    let request = "https://remote.example/users/bob/quote_requests/1";
    let approval = "https://remote.example/users/alice/quote_authorizations/1";
    let mut first = quote(
        &ids,
        q1.id,
        bob.id,
        original.id,
        alice.id,
        QuoteState::Pending,
        T0 + 2_000,
    );
    first.activity_uri = Some(request.into());
    let second = quote(
        &ids,
        q2.id,
        bob.id,
        original.id,
        alice.id,
        QuoteState::Pending,
        T0 + 3_000,
    );
    q.insert_quote(&first).await.expect("insert_quote");
    q.insert_quote(&second).await.expect("insert_quote");
    assert_eq!(
        q.quote_by_activity_uri(request)
            .await
            .expect("quote_by_activity_uri"),
        Some(first.clone()),
        "quote_by_activity_uri finds the quote inserted with that QuoteRequest id"
    );
    assert_eq!(
        q.quote_by_approval_uri(request)
            .await
            .expect("quote_by_approval_uri"),
        None,
        "a QuoteRequest id is not an authorization id"
    );
    assert_eq!(
        q.quote_by_approval_uri(approval)
            .await
            .expect("quote_by_approval_uri"),
        None,
        "no quote has this authorization yet"
    );
    let mut accepted = second.clone();
    accepted.state = QuoteState::Accepted;
    accepted.approval_uri = Some(approval.into());
    accepted.activity_uri = Some("https://remote.example/users/bob/quote_requests/2".into());
    accepted.updated_at = at(T0 + 4_000);
    q.update_quote(&accepted).await.expect("update_quote");
    assert_eq!(
        q.quote_by_approval_uri(approval)
            .await
            .expect("quote_by_approval_uri"),
        Some(accepted.clone()),
        "quote_by_approval_uri finds the quote an update gave that authorization id"
    );
    assert_eq!(
        q.quote_by_activity_uri("https://remote.example/users/bob/quote_requests/2")
            .await
            .expect("quote_by_activity_uri")
            .map(|x| x.id),
        Some(second.id),
        "quote_by_activity_uri follows an updated QuoteRequest id"
    );
    assert_eq!(
        q.quote_by_activity_uri("https://remote.example/users/bob/quote_requests/9")
            .await
            .expect("quote_by_activity_uri"),
        None,
        "an id no quote has finds nothing"
    );
    let mut moved = first.clone();
    moved.activity_uri = None;
    moved.updated_at = at(T0 + 5_000);
    q.update_quote(&moved).await.expect("update_quote");
    assert_eq!(
        q.quote_by_activity_uri(request)
            .await
            .expect("quote_by_activity_uri"),
        None,
        "an id an update took away finds nothing"
    );
}
