//! Checks of [`PollStore`](fedblog_core::store::PollStore): polls by id and by status, one poll
//! per status, votes raising the counts atomically (once per account), what deleting a status or
//! an account takes along, and what other servers bring: one choice at a time from a remote
//! voter, and a remote poll's tally.

use fedblog_core::store::{PollRecord, StatusRecord};
use fedblog_core::{Id, IdGenerator, Store, StoreError};

use super::{
    Capabilities, Capability, T0, add_local, add_remote, add_status, assert_already_exists,
    assert_not_found, at, sorted, status,
};

/// A poll on `s` (by its author) with these options, no votes yet, one choice, totals shown,
/// never ending, created at `millis` (its id made at the same time). Not inserted.
fn poll(ids: &IdGenerator, s: &StatusRecord, options: &[&str], millis: i64) -> PollRecord {
    PollRecord {
        id: ids.next_at(millis),
        status_id: s.id,
        account_id: s.account_id,
        options: options.iter().map(|o| o.to_string()).collect(),
        votes: vec![0; options.len()],
        voters_count: 0,
        multiple: false,
        hide_totals: false,
        expires_at: None,
        created_at: at(millis),
    }
}

async fn add_poll(store: &dyn Store, p: PollRecord) -> PollRecord {
    store
        .insert_poll(&p)
        .await
        .unwrap_or_else(|e| panic!("insert_poll({}) failed: {e:?}", p.id));
    p
}

/// The stored poll, which must exist.
async fn get_poll(store: &dyn Store, id: Id) -> PollRecord {
    store
        .poll_by_id(id)
        .await
        .unwrap_or_else(|e| panic!("poll_by_id({id}) failed: {e:?}"))
        .unwrap_or_else(|| panic!("poll_by_id({id}): this poll must be found"))
}

/// A poll's store-maintained counts: `(votes per option, voters)`.
async fn counts(store: &dyn Store, id: Id) -> (Vec<i64>, i64) {
    let p = get_poll(store, id).await;
    (p.votes, p.voters_count)
}

async fn vote(store: &dyn Store, poll: Id, account: Id, choices: &[usize]) {
    store
        .insert_poll_votes(poll, account, choices)
        .await
        .unwrap_or_else(|e| {
            panic!("insert_poll_votes({poll}, {account}, {choices:?}) failed: {e:?}")
        });
}

async fn votes_of(store: &dyn Store, poll: Id, account: Id) -> Vec<usize> {
    store
        .poll_votes_of(poll, account)
        .await
        .unwrap_or_else(|e| panic!("poll_votes_of({poll}, {account}) failed: {e:?}"))
}

async fn voters(store: &dyn Store, poll: Id) -> Vec<Id> {
    sorted(
        store
            .poll_voters(poll)
            .await
            .unwrap_or_else(|e| panic!("poll_voters({poll}) failed: {e:?}")),
    )
}

async fn by_status(store: &dyn Store, statuses: &[Id]) -> Vec<PollRecord> {
    let mut got = store
        .polls_by_status_ids(statuses)
        .await
        .unwrap_or_else(|e| panic!("polls_by_status_ids({statuses:?}) failed: {e:?}"));
    got.sort_by_key(|p| p.id);
    got
}

/// A poll comes back exactly as inserted, by id and by status: its options in order, the counts
/// as given, `multiple`, `hide_totals` and `expires_at` set or unset, timestamps to the
/// millisecond. Statuses without a poll find none; unknown ids and empty lists find nothing.
pub async fn poll_round_trips_by_id_and_by_status(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let s3 = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    let full = add_poll(
        store,
        PollRecord {
            votes: vec![3, 0, 1],
            voters_count: 4,
            multiple: true,
            hide_totals: true,
            expires_at: Some(at(T0 + 86_400_123)),
            ..poll(&ids, &s1, &["yes", "no", "Maybe ✓"], T0 + 1_234)
        },
    )
    .await;
    let plain = add_poll(store, poll(&ids, &s2, &["a", "b"], T0 + 2_345)).await;
    assert_eq!(
        get_poll(store, full.id).await,
        full,
        "poll_by_id must return the poll as inserted (options in order, counts as given, \
         multiple, hide_totals, expires_at, timestamps to the millisecond)"
    );
    assert_eq!(
        get_poll(store, plain.id).await,
        plain,
        "poll_by_id must return a poll without end or options set as inserted"
    );
    assert_eq!(
        by_status(store, &[s1.id, s3.id]).await,
        vec![full.clone()],
        "polls_by_status_ids must return the polls of the given statuses only"
    );
    assert_eq!(
        by_status(store, &[s3.id]).await,
        vec![],
        "polls_by_status_ids of a status without a poll must be empty"
    );
    assert_eq!(
        by_status(store, &[s2.id, s1.id]).await.len(),
        2,
        "polls_by_status_ids must return the poll of every given status"
    );
    assert_eq!(
        by_status(store, &[]).await,
        vec![],
        "polls_by_status_ids of no statuses must be empty"
    );
    assert_eq!(
        store
            .poll_by_id(ids.next_at(T0 + 9_000))
            .await
            .expect("poll_by_id of an unknown id"),
        None,
        "poll_by_id of an unknown id must be None"
    );
}

/// A second poll on a status, or a poll with a taken id, is `AlreadyExists("poll")` and changes
/// nothing.
pub async fn second_poll_on_a_status_or_taken_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let first = add_poll(store, poll(&ids, &s1, &["a", "b"], T0 + 1_100)).await;
    let same_status = poll(&ids, &s1, &["c", "d", "e"], T0 + 1_200);
    assert_already_exists(
        store.insert_poll(&same_status).await,
        "poll",
        "insert_poll on a status that has a poll",
    );
    let same_id = PollRecord {
        id: first.id,
        ..poll(&ids, &s2, &["x", "y"], T0 + 2_100)
    };
    assert_already_exists(
        store.insert_poll(&same_id).await,
        "poll",
        "insert_poll with a taken id",
    );
    assert_eq!(
        get_poll(store, first.id).await,
        first,
        "a refused insert_poll must leave the existing poll as it was"
    );
    assert_eq!(
        store.poll_by_id(same_status.id).await.expect("poll_by_id"),
        None,
        "a poll refused for its status must not be stored"
    );
    assert_eq!(
        by_status(store, &[s2.id]).await,
        vec![],
        "a poll refused for its id must not be stored"
    );
}

/// Each vote raises its chosen option's count and `voters_count` by one; `poll_votes_of` gives
/// each account its own choice (empty for an account that did not vote) and `poll_voters` the
/// accounts that voted in that poll only.
pub async fn votes_raise_option_counts_and_voters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let dave = add_local(store, &ids, "dave").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let p1 = add_poll(store, poll(&ids, &s1, &["a", "b", "c"], T0 + 1_000)).await;
    let p2 = add_poll(store, poll(&ids, &s2, &["x", "y"], T0 + 2_000)).await;
    vote(store, p1.id, alice.id, &[1]).await;
    vote(store, p1.id, bob.id, &[1]).await;
    vote(store, p1.id, carol.id, &[0]).await;
    vote(store, p2.id, dave.id, &[0]).await;
    assert_eq!(
        counts(store, p1.id).await,
        (vec![1, 2, 0], 3),
        "three votes (b, b, a) must count [1, 2, 0] with 3 voters"
    );
    assert_eq!(
        counts(store, p2.id).await,
        (vec![1, 0], 1),
        "votes in another poll must not count in this one"
    );
    assert_eq!(
        votes_of(store, p1.id, alice.id).await,
        vec![1],
        "poll_votes_of must return the account's own choice"
    );
    assert_eq!(votes_of(store, p1.id, carol.id).await, vec![0]);
    assert_eq!(
        votes_of(store, p1.id, dave.id).await,
        Vec::<usize>::new(),
        "poll_votes_of an account that voted elsewhere only must be empty"
    );
    assert_eq!(
        voters(store, p1.id).await,
        sorted(vec![alice.id, bob.id, carol.id]),
        "poll_voters must list the accounts that voted in this poll"
    );
    assert_eq!(
        voters(store, p2.id).await,
        vec![dave.id],
        "poll_voters must not list voters of other polls"
    );
}

/// `poll_votes_among` answers an account's own choices (ascending) in each poll of the ids it
/// voted in, each once, leaving out the polls it did not vote in, unknown ids, and others' votes.
pub async fn poll_votes_among_answers_the_account_s_votes_in_those_polls(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let mut polls = Vec::new();
    for n in 0..4 {
        let s = add_status(store, status(&ids, &alice, T0 + 1_000 * (n + 1))).await;
        let mut p = poll(&ids, &s, &["a", "b", "c"], T0 + 1_000 * (n + 1));
        p.multiple = true;
        polls.push(add_poll(store, p).await);
    }
    vote(store, polls[0].id, bob.id, &[2, 0]).await;
    vote(store, polls[1].id, bob.id, &[1]).await;
    vote(store, polls[2].id, alice.id, &[1]).await;
    vote(store, polls[3].id, bob.id, &[0]).await;
    let asked = [
        polls[0].id,
        polls[1].id,
        polls[2].id,
        polls[0].id,
        ids.next_at(T0),
    ];
    let mut got = store
        .poll_votes_among(&asked, bob.id)
        .await
        .expect("poll_votes_among");
    got.sort();
    let mut want = vec![(polls[0].id, vec![0, 2]), (polls[1].id, vec![1])];
    want.sort();
    assert_eq!(
        got, want,
        "poll_votes_among must answer the account's own choices, ascending, in the asked polls it voted in, each once"
    );
    let none = store
        .poll_votes_among(&[], bob.id)
        .await
        .expect("poll_votes_among of none");
    assert!(
        none.is_empty(),
        "poll_votes_among of no polls must be empty"
    );
}

/// A vote for several options raises each chosen option once and `voters_count` once;
/// `poll_votes_of` gives the choices ascending whatever their order in the vote.
pub async fn multiple_choice_vote_counts_each_option_and_one_voter(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let p = add_poll(
        store,
        PollRecord {
            multiple: true,
            ..poll(&ids, &s, &["a", "b", "c", "d"], T0 + 1_000)
        },
    )
    .await;
    vote(store, p.id, alice.id, &[3, 0]).await;
    vote(store, p.id, bob.id, &[0]).await;
    assert_eq!(
        counts(store, p.id).await,
        (vec![2, 0, 0, 1], 2),
        "votes for [d, a] and [a] must count [2, 0, 0, 1] with 2 voters (one per account)"
    );
    assert_eq!(
        votes_of(store, p.id, alice.id).await,
        vec![0, 3],
        "poll_votes_of must return the chosen indexes ascending"
    );
}

/// A second vote by the same account is `AlreadyExists("vote")` and changes nothing: counts,
/// voters and the account's recorded choice stay.
pub async fn second_vote_is_already_exists_and_changes_nothing(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let p = add_poll(store, poll(&ids, &s, &["a", "b"], T0 + 1_000)).await;
    vote(store, p.id, alice.id, &[0]).await;
    assert_already_exists(
        store.insert_poll_votes(p.id, alice.id, &[1]).await,
        "vote",
        "insert_poll_votes by an account that already voted",
    );
    assert_eq!(
        counts(store, p.id).await,
        (vec![1, 0], 1),
        "a refused second vote must not change the counts"
    );
    assert_eq!(
        votes_of(store, p.id, alice.id).await,
        vec![0],
        "a refused second vote must keep the first choice"
    );
    assert_eq!(voters(store, p.id).await, vec![alice.id]);
}

/// Voting in an unknown poll is `NotFound`; an unknown poll has no votes and no voters.
pub async fn vote_in_unknown_poll_is_not_found(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let unknown = ids.next_at(T0 + 5_000);
    assert_not_found(
        store.insert_poll_votes(unknown, alice.id, &[0]).await,
        "insert_poll_votes in an unknown poll",
    );
    assert_eq!(
        votes_of(store, unknown, alice.id).await,
        Vec::<usize>::new()
    );
    assert_eq!(voters(store, unknown).await, vec![]);
}

/// Votes racing on one poll are all counted (no lost update), and of two racing votes by one
/// account exactly one is recorded, the other being `AlreadyExists("vote")`.
pub async fn racing_votes_are_all_counted_once_per_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let mut accounts = vec![];
    for name in ["alice", "bob", "carol", "dave", "erin"] {
        accounts.push(add_local(store, &ids, name).await);
    }
    let s = add_status(store, status(&ids, &accounts[0], T0 + 1_000)).await;
    let p = add_poll(store, poll(&ids, &s, &["a", "b"], T0 + 1_000)).await;
    let (a, b, c, d) = tokio::join!(
        store.insert_poll_votes(p.id, accounts[0].id, &[0]),
        store.insert_poll_votes(p.id, accounts[1].id, &[1]),
        store.insert_poll_votes(p.id, accounts[2].id, &[0]),
        store.insert_poll_votes(p.id, accounts[3].id, &[1]),
    );
    for r in [a, b, c, d] {
        r.expect("insert_poll_votes racing others");
    }
    assert_eq!(
        counts(store, p.id).await,
        (vec![2, 2], 4),
        "four racing votes (a, b, a, b) must all be counted"
    );
    let erin = accounts[4].id;
    let (x, y) = tokio::join!(
        store.insert_poll_votes(p.id, erin, &[0]),
        store.insert_poll_votes(p.id, erin, &[1]),
    );
    let (won, expected) = match (x, y) {
        (Ok(()), Err(StoreError::AlreadyExists(n))) if n == "vote" => (vec![0], (vec![3, 2], 5)),
        (Err(StoreError::AlreadyExists(n)), Ok(())) if n == "vote" => (vec![1], (vec![2, 3], 5)),
        other => panic!(
            "of two racing votes by one account exactly one must succeed, the other being \
             AlreadyExists(\"vote\"), got {other:?}"
        ),
    };
    assert_eq!(
        counts(store, p.id).await,
        expected,
        "only the recorded one of two racing votes by one account must count"
    );
    assert_eq!(votes_of(store, p.id, erin).await, won);
}

/// `delete_status` removes the status's poll with its votes, and leaves other polls alone.
pub async fn delete_status_removes_its_poll_and_votes(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let p1 = add_poll(store, poll(&ids, &s1, &["a", "b"], T0 + 1_000)).await;
    let p2 = add_poll(store, poll(&ids, &s2, &["a", "b"], T0 + 2_000)).await;
    vote(store, p1.id, bob.id, &[1]).await;
    vote(store, p2.id, bob.id, &[0]).await;
    store.delete_status(s1.id).await.expect("delete_status");
    assert_eq!(
        store.poll_by_id(p1.id).await.expect("poll_by_id"),
        None,
        "delete_status must remove the status's poll"
    );
    assert_eq!(
        by_status(store, &[s1.id, s2.id]).await,
        vec![PollRecord {
            votes: vec![1, 0],
            voters_count: 1,
            ..p2.clone()
        }],
        "delete_status must keep other statuses' polls"
    );
    assert_eq!(
        voters(store, p1.id).await,
        vec![],
        "delete_status must remove the votes of the status's poll"
    );
    assert_eq!(
        votes_of(store, p1.id, bob.id).await,
        Vec::<usize>::new(),
        "delete_status must remove the votes of the status's poll"
    );
    assert_eq!(votes_of(store, p2.id, bob.id).await, vec![0]);
}

/// `delete_account` takes back the account's votes, lowering the counts of the polls it voted
/// in, and removes its polls.
pub async fn delete_account_takes_back_votes_and_removes_polls(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let sa = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let sb = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let pa = add_poll(store, poll(&ids, &sa, &["a", "b"], T0 + 1_000)).await;
    let pb = add_poll(store, poll(&ids, &sb, &["x", "y"], T0 + 2_000)).await;
    vote(store, pa.id, carol.id, &[0]).await;
    vote(store, pb.id, carol.id, &[1]).await;
    vote(store, pa.id, bob.id, &[1]).await;
    vote(store, pb.id, alice.id, &[0]).await;

    store
        .delete_account(carol.id)
        .await
        .expect("delete_account");
    assert_eq!(
        counts(store, pa.id).await,
        (vec![0, 1], 1),
        "delete_account must lower the counts of the polls the account voted in"
    );
    assert_eq!(
        counts(store, pb.id).await,
        (vec![1, 0], 1),
        "delete_account must lower the counts of every poll the account voted in"
    );
    assert_eq!(
        voters(store, pa.id).await,
        vec![bob.id],
        "delete_account must remove the account's votes"
    );
    assert_eq!(
        votes_of(store, pb.id, carol.id).await,
        Vec::<usize>::new(),
        "delete_account must remove the account's votes"
    );

    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    assert_eq!(
        store.poll_by_id(pa.id).await.expect("poll_by_id"),
        None,
        "delete_account must remove the account's polls"
    );
    assert_eq!(
        by_status(store, &[sa.id]).await,
        vec![],
        "delete_account must remove the account's polls"
    );
    assert_eq!(
        counts(store, pb.id).await,
        (vec![0, 0], 0),
        "delete_account must take back its votes in others' polls"
    );
    assert_eq!(voters(store, pb.id).await, vec![]);
}

async fn replace(store: &dyn Store, status: Id, p: Option<&PollRecord>) {
    store.replace_poll(status, p).await.unwrap_or_else(|e| {
        panic!(
            "replace_poll({status}, {:?}) failed: {e:?}",
            p.map(|p| p.id)
        )
    });
}

/// `replace_poll` with a poll of a new id removes the status's old poll with its votes and stores
/// the new one as given; other statuses' polls and votes stay, and voting starts over.
pub async fn replace_poll_removes_the_old_poll_and_votes_and_stores_the_new_one(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let old = add_poll(store, poll(&ids, &s1, &["a", "b"], T0 + 1_000)).await;
    let other = add_poll(store, poll(&ids, &s2, &["x", "y"], T0 + 2_000)).await;
    vote(store, old.id, bob.id, &[1]).await;
    vote(store, other.id, bob.id, &[0]).await;

    let new = PollRecord {
        multiple: true,
        expires_at: Some(at(T0 + 86_400_000)),
        ..poll(&ids, &s1, &["c", "d", "e"], T0 + 5_000)
    };
    replace(store, s1.id, Some(&new)).await;
    assert_eq!(
        store.poll_by_id(old.id).await.expect("poll_by_id"),
        None,
        "replace_poll must remove the status's old poll"
    );
    assert_eq!(
        by_status(store, &[s1.id]).await,
        vec![new.clone()],
        "replace_poll must leave the status with the new poll only, stored as given"
    );
    assert_eq!(
        voters(store, old.id).await,
        vec![],
        "replace_poll must remove the old poll's votes"
    );
    assert_eq!(
        votes_of(store, old.id, bob.id).await,
        Vec::<usize>::new(),
        "replace_poll must remove the old poll's votes"
    );
    assert_eq!(
        (counts(store, new.id).await, voters(store, new.id).await),
        ((vec![0, 0, 0], 0), vec![]),
        "the new poll must start without votes"
    );
    assert_eq!(
        (
            counts(store, other.id).await,
            votes_of(store, other.id, bob.id).await
        ),
        ((vec![1, 0], 1), vec![0]),
        "replace_poll must leave other statuses' polls and votes alone"
    );
    vote(store, new.id, bob.id, &[2, 0]).await;
    assert_eq!(
        counts(store, new.id).await,
        (vec![1, 0, 1], 1),
        "an account that voted in the old poll must be able to vote in the new one"
    );
}

/// `replace_poll` with a poll keeping the old poll's id (the way an edit of the options goes)
/// stores the new options and takes back every vote: voting starts over.
pub async fn replace_poll_keeping_the_id_starts_voting_over(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let old = add_poll(store, poll(&ids, &s, &["a", "b"], T0 + 1_000)).await;
    vote(store, old.id, bob.id, &[0]).await;
    vote(store, old.id, carol.id, &[1]).await;

    let new = PollRecord {
        id: old.id,
        hide_totals: true,
        ..poll(&ids, &s, &["b", "a", "c"], T0 + 3_000)
    };
    replace(store, s.id, Some(&new)).await;
    assert_eq!(
        get_poll(store, old.id).await,
        new,
        "replace_poll keeping the id must store the new poll as given (options, counts, settings)"
    );
    assert_eq!(
        voters(store, old.id).await,
        vec![],
        "replace_poll keeping the id must take back every vote"
    );
    assert_eq!(
        votes_of(store, old.id, bob.id).await,
        Vec::<usize>::new(),
        "replace_poll keeping the id must take back every vote"
    );
    vote(store, old.id, bob.id, &[2]).await;
    assert_eq!(
        (counts(store, old.id).await, voters(store, old.id).await),
        ((vec![0, 0, 1], 1), vec![bob.id]),
        "after replace_poll an account may vote again, counted from zero"
    );
}

/// `replace_poll` with `None` removes the status's poll and its votes (the edit dropped the
/// poll); on a status without a poll it stores the given one (the edit added a poll); `None` on a
/// status without a poll changes nothing.
pub async fn replace_poll_adds_a_poll_or_removes_it(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let s3 = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    let p1 = add_poll(store, poll(&ids, &s1, &["a", "b"], T0 + 1_000)).await;
    let p3 = add_poll(store, poll(&ids, &s3, &["x", "y"], T0 + 3_000)).await;
    vote(store, p1.id, bob.id, &[0]).await;

    replace(store, s1.id, None).await;
    assert_eq!(
        store.poll_by_id(p1.id).await.expect("poll_by_id"),
        None,
        "replace_poll with None must remove the status's poll"
    );
    assert_eq!(
        by_status(store, &[s1.id]).await,
        vec![],
        "replace_poll with None must leave the status without a poll"
    );
    assert_eq!(
        voters(store, p1.id).await,
        vec![],
        "replace_poll with None must remove the poll's votes"
    );

    let added = poll(&ids, &s2, &["new", "poll"], T0 + 4_000);
    replace(store, s2.id, Some(&added)).await;
    assert_eq!(
        by_status(store, &[s2.id]).await,
        vec![added],
        "replace_poll on a status without a poll must store the given poll"
    );
    replace(store, s2.id, None).await;
    replace(store, s2.id, None).await;
    assert_eq!(
        by_status(store, &[s1.id, s2.id, s3.id]).await,
        vec![p3],
        "replace_poll with None must remove only that status's poll, and do nothing when it has \
         none"
    );
}

/// `replace_poll` with a poll whose id is another status's poll is `AlreadyExists("poll")` and
/// changes nothing: the status keeps its poll and votes, the other poll stays as it was.
pub async fn replace_poll_with_another_statuses_poll_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let p1 = add_poll(store, poll(&ids, &s1, &["a", "b"], T0 + 1_000)).await;
    let p2 = add_poll(store, poll(&ids, &s2, &["x", "y"], T0 + 2_000)).await;
    vote(store, p1.id, bob.id, &[1]).await;
    let taken = PollRecord {
        id: p2.id,
        ..poll(&ids, &s1, &["c", "d"], T0 + 3_000)
    };
    assert_already_exists(
        store.replace_poll(s1.id, Some(&taken)).await,
        "poll",
        "replace_poll with the id of another status's poll",
    );
    assert_eq!(
        by_status(store, &[s1.id, s2.id]).await,
        vec![
            PollRecord {
                votes: vec![0, 1],
                voters_count: 1,
                ..p1.clone()
            },
            p2
        ],
        "a refused replace_poll must keep both statuses' polls as they were"
    );
    assert_eq!(
        votes_of(store, p1.id, bob.id).await,
        vec![1],
        "a refused replace_poll must keep the votes of the status's poll"
    );
}

async fn add_choice(store: &dyn Store, poll: Id, account: Id, choice: usize) -> bool {
    store
        .add_poll_choice(poll, account, choice)
        .await
        .unwrap_or_else(|e| panic!("add_poll_choice({poll}, {account}, {choice}) failed: {e:?}"))
}

/// `add_poll_choice` counts a remote voter's choices one at a time: the first raises its option
/// and `voters_count`, each further one of a `multiple` poll its option only (choices kept
/// ascending, the voter listed once); the same choice again, or a second choice in a
/// single-choice poll, is `false` and changes nothing; an unknown poll is `NotFound`. Without
/// [`Capability::AddsPollChoices`] (the trait's default), the weaker promise: the first choice
/// counts, every further one is `false` and changes nothing.
pub async fn add_poll_choice_counts_each_choice_of_a_remote_voter_once(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let carol = add_remote(store, &ids, "carol", "remote.example").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let single = add_poll(store, poll(&ids, &s1, &["a", "b"], T0 + 1_000)).await;
    let multi = add_poll(
        store,
        PollRecord {
            multiple: true,
            ..poll(&ids, &s2, &["x", "y", "z"], T0 + 2_000)
        },
    )
    .await;

    // Read through `polls_by_status_ids` first, so that a store keeping polls by status must
    // forget them on these writes.
    assert_eq!(by_status(store, &[s1.id, s2.id]).await.len(), 2);
    assert!(
        add_choice(store, single.id, bob.id, 1).await,
        "add_poll_choice must count a first choice"
    );
    assert!(
        !add_choice(store, single.id, bob.id, 0).await,
        "add_poll_choice must refuse a second choice in a single-choice poll"
    );
    assert!(
        !add_choice(store, single.id, bob.id, 1).await,
        "add_poll_choice must refuse the same choice again"
    );
    assert!(add_choice(store, single.id, carol.id, 1).await);
    assert_eq!(
        (
            counts(store, single.id).await,
            votes_of(store, single.id, bob.id).await,
            voters(store, single.id).await,
        ),
        ((vec![0, 2], 2), vec![1], sorted(vec![bob.id, carol.id])),
        "two voters' first choices must count once each, refused ones not at all"
    );
    assert_eq!(
        by_status(store, &[s1.id])
            .await
            .into_iter()
            .map(|p| (p.votes, p.voters_count))
            .collect::<Vec<_>>(),
        vec![(vec![0, 2], 2)],
        "polls_by_status_ids must show the counts add_poll_choice raised"
    );

    assert!(
        add_choice(store, multi.id, bob.id, 2).await,
        "add_poll_choice must count a first choice in a multiple-choice poll"
    );
    let second = add_choice(store, multi.id, bob.id, 0).await;
    assert!(
        !add_choice(store, multi.id, bob.id, 2).await,
        "add_poll_choice must refuse the same choice again"
    );
    if capabilities.has(Capability::AddsPollChoices) {
        assert!(
            second,
            "add_poll_choice must count another choice in a multiple-choice poll"
        );
        assert_eq!(
            (
                counts(store, multi.id).await,
                votes_of(store, multi.id, bob.id).await,
                voters(store, multi.id).await,
            ),
            ((vec![1, 0, 1], 1), vec![0, 2], vec![bob.id]),
            "two choices of one voter must raise both options and the voters once, \
             recorded ascending"
        );
    } else {
        assert!(
            !second,
            "a store that adds no further choice answers false (or claim AddsPollChoices)"
        );
        assert_eq!(
            (
                counts(store, multi.id).await,
                votes_of(store, multi.id, bob.id).await
            ),
            ((vec![0, 0, 1], 1), vec![2]),
            "a store that adds no further choice keeps the first only"
        );
    }
    assert_eq!(
        counts(store, single.id).await,
        (vec![0, 2], 2),
        "choices in another poll must not count in this one"
    );
    assert_not_found(
        store
            .add_poll_choice(ids.next_at(T0 + 9_000), bob.id, 0)
            .await,
        "add_poll_choice in an unknown poll",
    );
}

/// `set_poll_tally` sets a poll's counts (0 for options it gives none; extra counts ignored),
/// `voters_count` and end as given, keeping its options, settings and the votes recorded here:
/// a voter keeps its choice, and a vote after it counts from the new tally. Other polls stay;
/// an unknown poll is `NotFound`. Without [`Capability::SetsPollTallies`] (the trait's default),
/// the weaker promise: `false`, and nothing changes.
pub async fn set_poll_tally_sets_counts_and_end_keeping_the_votes(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let alice = add_remote(store, &ids, "alice", "remote.example").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let p = add_poll(
        store,
        PollRecord {
            expires_at: Some(at(T0 + 86_400_000)),
            ..poll(&ids, &s1, &["a", "b", "c"], T0 + 1_000)
        },
    )
    .await;
    let other = add_poll(store, poll(&ids, &s2, &["x", "y"], T0 + 2_000)).await;
    vote(store, p.id, bob.id, &[1]).await;
    // Read through `polls_by_status_ids` first, so that a store keeping polls by status must
    // forget them on this write.
    assert_eq!(by_status(store, &[s1.id, s2.id]).await.len(), 2);
    let ends = at(T0 + 3_600_000);
    let set = store
        .set_poll_tally(p.id, &[5, 7, 0], 11, Some(ends))
        .await
        .expect("set_poll_tally");
    if !capabilities.has(Capability::SetsPollTallies) {
        assert!(
            !set,
            "a store that sets no tally answers false (or claim SetsPollTallies)"
        );
        assert_eq!(
            get_poll(store, p.id).await,
            PollRecord {
                votes: vec![0, 1, 0],
                voters_count: 1,
                ..p.clone()
            },
            "a store that sets no tally leaves the poll as it was"
        );
        return;
    }
    assert!(set, "set_poll_tally of a poll must answer true");
    assert_eq!(
        get_poll(store, p.id).await,
        PollRecord {
            votes: vec![5, 7, 0],
            voters_count: 11,
            expires_at: Some(ends),
            ..p.clone()
        },
        "set_poll_tally must set the counts, voters and end, and nothing else"
    );
    assert_eq!(
        by_status(store, &[s1.id]).await,
        vec![get_poll(store, p.id).await],
        "polls_by_status_ids must show the tally set"
    );
    assert_eq!(
        (
            votes_of(store, p.id, bob.id).await,
            voters(store, p.id).await
        ),
        (vec![1], vec![bob.id]),
        "set_poll_tally must keep the votes recorded here"
    );
    vote(store, p.id, carol.id, &[0]).await;
    assert_eq!(
        counts(store, p.id).await,
        (vec![6, 7, 0], 12),
        "a vote after set_poll_tally must count from the new tally"
    );
    store
        .set_poll_tally(p.id, &[2], 2, None)
        .await
        .expect("set_poll_tally");
    assert_eq!(
        get_poll(store, p.id).await,
        PollRecord {
            votes: vec![2, 0, 0],
            voters_count: 2,
            expires_at: None,
            ..p.clone()
        },
        "set_poll_tally must count 0 for the options it gives no count and may clear the end"
    );
    store
        .set_poll_tally(p.id, &[1, 2, 3, 4], 6, None)
        .await
        .expect("set_poll_tally");
    assert_eq!(
        counts(store, p.id).await,
        (vec![1, 2, 3], 6),
        "set_poll_tally must ignore counts beyond the options"
    );
    assert_eq!(
        get_poll(store, other.id).await,
        other,
        "set_poll_tally must leave other polls alone"
    );
    assert_not_found(
        store
            .set_poll_tally(ids.next_at(T0 + 9_000), &[1], 1, None)
            .await,
        "set_poll_tally of an unknown poll",
    );
}
