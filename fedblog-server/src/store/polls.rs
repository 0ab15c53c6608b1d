//! `PollStore` for `SeaStore`: polls with their options and per-option counts, the votes (all at
//! once from here, one choice at a time from other servers), a remote poll's tally, replacing a
//! status's poll on edit, and what deleting a status or an account takes along.
//!
//! Counts are raised and lowered in place (`votes_count = votes_count + 1`) inside the voting
//! transaction, so concurrent votes never lose one: on PostgreSQL the first `UPDATE polls` of a
//! vote locks the poll's row until the vote commits, on SQLite `BEGIN IMMEDIATE` serialises the
//! writers. A second vote by one account hits the `poll_votes` primary key and rolls back.

use std::collections::BTreeMap;

use async_trait::async_trait;
use fedblog_core::store::{PollRecord, PollStore};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait, Query, SelectStatement, SimpleExpr};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::entity::{poll_options, poll_votes, polls};
use super::{IN_CHUNK, SeaStore, backend_err, finish};

/// `col + delta`, never below zero.
fn moved(col: impl sea_orm::sea_query::IntoColumnRef + Copy, delta: i64) -> SimpleExpr {
    let cur = Expr::col(col);
    if delta >= 0 {
        cur.add(delta)
    } else {
        Expr::case(cur.clone().gt(-delta), cur.add(delta))
            .finally(0)
            .into()
    }
}

/// Renames any unique violation: every unique key of these tables means the same thing to the
/// caller.
fn taken_as(name: &str, e: StoreError) -> StoreError {
    match e {
        StoreError::AlreadyExists(_) => StoreError::AlreadyExists(name.into()),
        other => other,
    }
}

fn poll_from_rows(p: polls::Model, options: Vec<poll_options::Model>) -> PollRecord {
    PollRecord {
        id: Id::from_i64(p.id),
        status_id: Id::from_i64(p.status_id),
        account_id: Id::from_i64(p.account_id),
        options: options.iter().map(|o| o.title.clone()).collect(),
        votes: options.iter().map(|o| o.votes_count).collect(),
        voters_count: p.voters_count,
        multiple: p.multiple,
        hide_totals: p.hide_totals,
        expires_at: p.expires_at,
        created_at: p.created_at,
    }
}

/// Option positions as stored; an index too large for the column matches no option.
fn positions(choices: &[usize]) -> Vec<i32> {
    choices
        .iter()
        .filter_map(|c| i32::try_from(*c).ok())
        .collect()
}

/// Reads the options of `polls` and assembles the records.
async fn with_options<C: ConnectionTrait>(
    db: &C,
    rows: Vec<polls::Model>,
) -> StoreResult<Vec<PollRecord>> {
    let mut options: BTreeMap<i64, Vec<poll_options::Model>> = BTreeMap::new();
    let ids: Vec<i64> = rows.iter().map(|p| p.id).collect();
    for chunk in ids.chunks(IN_CHUNK) {
        let found = poll_options::Entity::find()
            .filter(poll_options::Column::PollId.is_in(chunk.iter().copied()))
            .order_by_asc(poll_options::Column::PollId)
            .order_by_asc(poll_options::Column::Position)
            .all(db)
            .await
            .map_err(backend_err)?;
        for o in found {
            options.entry(o.poll_id).or_default().push(o);
        }
    }
    Ok(rows
        .into_iter()
        .map(|p| {
            let opts = options.remove(&p.id).unwrap_or_default();
            poll_from_rows(p, opts)
        })
        .collect())
}

async fn insert_poll_rows<C: ConnectionTrait>(db: &C, poll: &PollRecord) -> StoreResult<()> {
    let id = poll.id.as_i64();
    polls::Entity::insert(polls::ActiveModel {
        id: Set(id),
        status_id: Set(poll.status_id.as_i64()),
        account_id: Set(poll.account_id.as_i64()),
        multiple: Set(poll.multiple),
        hide_totals: Set(poll.hide_totals),
        voters_count: Set(poll.voters_count),
        expires_at: Set(poll.expires_at),
        created_at: Set(poll.created_at),
    })
    .exec_without_returning(db)
    .await
    .map_err(backend_err)?;
    if poll.options.is_empty() {
        return Ok(());
    }
    let rows = poll
        .options
        .iter()
        .enumerate()
        .map(|(i, title)| poll_options::ActiveModel {
            poll_id: Set(id),
            position: Set(i32::try_from(i).unwrap_or(i32::MAX)),
            title: Set(title.clone()),
            votes_count: Set(poll.votes.get(i).copied().unwrap_or(0)),
        });
    poll_options::Entity::insert_many(rows)
        .exec_without_returning(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

async fn insert_vote_rows<C: ConnectionTrait>(
    db: &C,
    poll_id: i64,
    account: i64,
    choices: &[usize],
) -> StoreResult<()> {
    // First, as it locks the poll's row on PostgreSQL: votes on one poll queue up here.
    raise_voters(db, poll_id, 1).await?;
    let mut chosen = choices.to_vec();
    chosen.sort_unstable();
    chosen.dedup();
    insert_vote_row(db, poll_id, account, &chosen).await?;
    let positions = positions(&chosen);
    raise_options(db, poll_id, positions).await
}

/// Adds `by` to the poll's `voters_count`, which takes its row's lock on PostgreSQL (choices
/// and votes in one poll queue up behind it); `NotFound` if there is no such poll.
/// The chosen option indexes as stored (a JSON array).
fn choices_json(chosen: &[usize]) -> StoreResult<String> {
    serde_json::to_string(chosen).map_err(|e| StoreError::Backend(e.to_string()))
}

/// Inserts `account`'s vote row in poll `poll_id`; a second one is `AlreadyExists`.
async fn insert_vote_row<C: ConnectionTrait>(
    db: &C,
    poll_id: i64,
    account: i64,
    chosen: &[usize],
) -> StoreResult<()> {
    poll_votes::Entity::insert(poll_votes::ActiveModel {
        poll_id: Set(poll_id),
        account_id: Set(account),
        choices: Set(choices_json(chosen)?),
    })
    .exec_without_returning(db)
    .await
    .map_err(|e| taken_as("vote", backend_err(e)))?;
    Ok(())
}

async fn raise_voters<C: ConnectionTrait>(db: &C, poll_id: i64, by: i64) -> StoreResult<()> {
    let raised = polls::Entity::update_many()
        .col_expr(
            polls::Column::VotersCount,
            moved(polls::Column::VotersCount, by),
        )
        .filter(polls::Column::Id.eq(poll_id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    if raised.rows_affected == 0 {
        return Err(StoreError::NotFound);
    }
    Ok(())
}

/// Adds a vote to each of the poll's options at `positions`.
async fn raise_options<C: ConnectionTrait>(
    db: &C,
    poll_id: i64,
    positions: Vec<i32>,
) -> StoreResult<()> {
    if positions.is_empty() {
        return Ok(());
    }
    poll_options::Entity::update_many()
        .col_expr(
            poll_options::Column::VotesCount,
            moved(poll_options::Column::VotesCount, 1),
        )
        .filter(poll_options::Column::PollId.eq(poll_id))
        .filter(poll_options::Column::Position.is_in(positions))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

fn parse_choices(json: &str) -> StoreResult<Vec<usize>> {
    serde_json::from_str(json)
        .map_err(|e| StoreError::Backend(format!("poll_votes.choices is not an index list: {e}")))
}

/// Deletes the polls of the statuses `ids` selects, with their options and votes (part of
/// `delete_status_dependents`).
pub(super) async fn delete_status_polls<C: ConnectionTrait>(
    db: &C,
    ids: &impl Fn() -> SelectStatement,
) -> StoreResult<()> {
    let doomed = || {
        Query::select()
            .column(polls::Column::Id)
            .from(polls::Entity)
            .and_where(polls::Column::StatusId.in_subquery(ids()))
            .to_owned()
    };
    delete_polls_where(db, doomed).await?;
    polls::Entity::delete_many()
        .filter(polls::Column::StatusId.in_subquery(ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

/// The body of `replace_poll`, inside its transaction: the poll of `status_id` goes with its
/// options and votes, and `poll` (if any) takes its place.
async fn replace_poll_rows<C: ConnectionTrait>(
    db: &C,
    status_id: i64,
    poll: Option<&PollRecord>,
) -> StoreResult<()> {
    if let Some(p) = poll {
        let taken: Option<i64> = polls::Entity::find_by_id(p.id.as_i64())
            .select_only()
            .column(polls::Column::Id)
            .filter(polls::Column::StatusId.ne(status_id))
            .into_tuple()
            .one(db)
            .await
            .map_err(backend_err)?;
        if taken.is_some() {
            return Err(StoreError::AlreadyExists("poll".into()));
        }
    }
    let old = || {
        Query::select()
            .column(polls::Column::Id)
            .from(polls::Entity)
            .and_where(polls::Column::StatusId.eq(status_id))
            .to_owned()
    };
    delete_polls_where(db, old).await?;
    polls::Entity::delete_many()
        .filter(polls::Column::StatusId.eq(status_id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    if let Some(p) = poll {
        insert_poll_rows(db, p).await?;
    }
    Ok(())
}

/// The body of `add_poll_choice`, inside its transaction.
async fn add_choice_rows<C: ConnectionTrait>(
    db: &C,
    poll_id: i64,
    account: i64,
    choice: usize,
) -> StoreResult<bool> {
    // First, as it locks the poll's row on PostgreSQL: choices and votes in one poll queue up
    // here (on SQLite `BEGIN IMMEDIATE` has serialised the writers already).
    raise_voters(db, poll_id, 0).await?;
    let multiple: Option<bool> = polls::Entity::find_by_id(poll_id)
        .select_only()
        .column(polls::Column::Multiple)
        .into_tuple()
        .one(db)
        .await
        .map_err(backend_err)?;
    let multiple = multiple.ok_or(StoreError::NotFound)?;
    let row = poll_votes::Entity::find_by_id((poll_id, account))
        .one(db)
        .await
        .map_err(backend_err)?;
    let mut chosen = match &row {
        Some(v) => parse_choices(&v.choices)?,
        None => vec![],
    };
    let first = chosen.is_empty();
    if chosen.contains(&choice) || (!multiple && !first) {
        return Ok(false);
    }
    chosen.push(choice);
    chosen.sort_unstable();
    if row.is_some() {
        let json = choices_json(&chosen)?;
        poll_votes::Entity::update_many()
            .col_expr(poll_votes::Column::Choices, Expr::value(json))
            .filter(poll_votes::Column::PollId.eq(poll_id))
            .filter(poll_votes::Column::AccountId.eq(account))
            .exec(db)
            .await
            .map_err(backend_err)?;
    } else {
        insert_vote_row(db, poll_id, account, &chosen).await?;
    }
    raise_options(db, poll_id, positions(&[choice])).await?;
    if first {
        raise_voters(db, poll_id, 1).await?;
    }
    Ok(true)
}

/// The body of `set_poll_tally`, inside its transaction.
async fn set_tally_rows<C: ConnectionTrait>(
    db: &C,
    poll_id: i64,
    votes: &[i64],
    voters_count: i64,
    expires_at: Option<chrono::DateTime<chrono::Utc>>,
) -> StoreResult<bool> {
    let set = polls::Entity::update_many()
        .col_expr(polls::Column::VotersCount, Expr::value(voters_count))
        .col_expr(polls::Column::ExpiresAt, Expr::value(expires_at))
        .filter(polls::Column::Id.eq(poll_id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    if set.rows_affected == 0 {
        return Err(StoreError::NotFound);
    }
    let positions: Vec<i32> = poll_options::Entity::find()
        .select_only()
        .column(poll_options::Column::Position)
        .filter(poll_options::Column::PollId.eq(poll_id))
        .into_tuple()
        .all(db)
        .await
        .map_err(backend_err)?;
    for position in positions {
        let count = usize::try_from(position)
            .ok()
            .and_then(|i| votes.get(i).copied())
            .unwrap_or(0);
        poll_options::Entity::update_many()
            .col_expr(poll_options::Column::VotesCount, Expr::value(count))
            .filter(poll_options::Column::PollId.eq(poll_id))
            .filter(poll_options::Column::Position.eq(position))
            .exec(db)
            .await
            .map_err(backend_err)?;
    }
    Ok(true)
}

/// Deletes the options and votes of the polls `poll_ids` selects.
async fn delete_polls_where<C: ConnectionTrait>(
    db: &C,
    poll_ids: impl Fn() -> SelectStatement,
) -> StoreResult<()> {
    poll_votes::Entity::delete_many()
        .filter(poll_votes::Column::PollId.in_subquery(poll_ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    poll_options::Entity::delete_many()
        .filter(poll_options::Column::PollId.in_subquery(poll_ids()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

/// What deleting an account does to polls (`AccountStore::delete_account`): its votes go, each
/// poll it voted in losing a voter and a vote per option it chose, then its own polls go with
/// their options and votes.
pub(super) async fn delete_account_polls<C: ConnectionTrait>(
    db: &C,
    account: i64,
) -> StoreResult<()> {
    let votes = poll_votes::Entity::find()
        .filter(poll_votes::Column::AccountId.eq(account))
        .all(db)
        .await
        .map_err(backend_err)?;
    // Polls per chosen position, so that one statement lowers each position's counts.
    let mut by_position: BTreeMap<i32, Vec<i64>> = BTreeMap::new();
    let mut voted: Vec<i64> = Vec::with_capacity(votes.len());
    for v in &votes {
        voted.push(v.poll_id);
        for p in positions(&parse_choices(&v.choices)?) {
            by_position.entry(p).or_default().push(v.poll_id);
        }
    }
    // Poll rows first, as a vote takes its locks (poll, then options).
    for chunk in voted.chunks(IN_CHUNK) {
        polls::Entity::update_many()
            .col_expr(
                polls::Column::VotersCount,
                moved(polls::Column::VotersCount, -1),
            )
            .filter(polls::Column::Id.is_in(chunk.iter().copied()))
            .exec(db)
            .await
            .map_err(backend_err)?;
    }
    for (position, poll_ids) in by_position {
        for chunk in poll_ids.chunks(IN_CHUNK) {
            poll_options::Entity::update_many()
                .col_expr(
                    poll_options::Column::VotesCount,
                    moved(poll_options::Column::VotesCount, -1),
                )
                .filter(poll_options::Column::Position.eq(position))
                .filter(poll_options::Column::PollId.is_in(chunk.iter().copied()))
                .exec(db)
                .await
                .map_err(backend_err)?;
        }
    }
    poll_votes::Entity::delete_many()
        .filter(poll_votes::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;

    // Its polls (those of its statuses also go with the statuses; this takes any other).
    let own = || {
        Query::select()
            .column(polls::Column::Id)
            .from(polls::Entity)
            .and_where(polls::Column::AccountId.eq(account))
            .to_owned()
    };
    delete_polls_where(db, own).await?;
    polls::Entity::delete_many()
        .filter(polls::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

#[async_trait]
impl PollStore for SeaStore {
    async fn insert_poll(&self, poll: &PollRecord) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = insert_poll_rows(&tx, poll).await;
        finish(tx, res).await.map_err(|e| taken_as("poll", e))
    }

    async fn poll_by_id(&self, id: Id) -> StoreResult<Option<PollRecord>> {
        let Some(row) = polls::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
        else {
            return Ok(None);
        };
        Ok(with_options(&self.db, vec![row]).await?.pop())
    }

    async fn polls_by_status_ids(&self, status_ids: &[Id]) -> StoreResult<Vec<PollRecord>> {
        let mut rows = vec![];
        for chunk in status_ids.chunks(IN_CHUNK) {
            rows.extend(
                polls::Entity::find()
                    .filter(polls::Column::StatusId.is_in(chunk.iter().map(|i| i.as_i64())))
                    .all(&self.db)
                    .await
                    .map_err(backend_err)?,
            );
        }
        // A status repeated across chunks finds its poll twice.
        rows.sort_by_key(|p| p.id);
        rows.dedup_by_key(|p| p.id);
        with_options(&self.db, rows).await
    }

    async fn insert_poll_votes(
        &self,
        poll_id: Id,
        account: Id,
        choices: &[usize],
    ) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = insert_vote_rows(&tx, poll_id.as_i64(), account.as_i64(), choices).await;
        finish(tx, res).await
    }

    async fn poll_votes_of(&self, poll_id: Id, account: Id) -> StoreResult<Vec<usize>> {
        let row = poll_votes::Entity::find_by_id((poll_id.as_i64(), account.as_i64()))
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        match row {
            Some(v) => parse_choices(&v.choices),
            None => Ok(vec![]),
        }
    }

    async fn poll_votes_among(
        &self,
        poll_ids: &[Id],
        account: Id,
    ) -> StoreResult<Vec<(Id, Vec<usize>)>> {
        let mut ids: Vec<i64> = poll_ids.iter().map(|id| id.as_i64()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::new();
        for chunk in ids.chunks(IN_CHUNK) {
            let rows = poll_votes::Entity::find()
                .filter(poll_votes::Column::AccountId.eq(account.as_i64()))
                .filter(poll_votes::Column::PollId.is_in(chunk.iter().copied()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            for row in rows {
                let choices = parse_choices(&row.choices)?;
                if !choices.is_empty() {
                    out.push((Id::from_i64(row.poll_id), choices));
                }
            }
        }
        Ok(out)
    }

    async fn replace_poll(&self, status_id: Id, poll: Option<&PollRecord>) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = replace_poll_rows(&tx, status_id.as_i64(), poll).await;
        finish(tx, res).await.map_err(|e| taken_as("poll", e))
    }

    async fn poll_voters(&self, poll_id: Id) -> StoreResult<Vec<Id>> {
        let ids: Vec<i64> = poll_votes::Entity::find()
            .select_only()
            .column(poll_votes::Column::AccountId)
            .filter(poll_votes::Column::PollId.eq(poll_id.as_i64()))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(ids.into_iter().map(Id::from_i64).collect())
    }

    async fn add_poll_choice(&self, poll_id: Id, account: Id, choice: usize) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = add_choice_rows(&tx, poll_id.as_i64(), account.as_i64(), choice).await;
        finish(tx, res).await
    }

    async fn set_poll_tally(
        &self,
        poll_id: Id,
        votes: &[i64],
        voters_count: i64,
        expires_at: Option<chrono::DateTime<chrono::Utc>>,
    ) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = set_tally_rows(&tx, poll_id.as_i64(), votes, voters_count, expires_at).await;
        finish(tx, res).await
    }
}
