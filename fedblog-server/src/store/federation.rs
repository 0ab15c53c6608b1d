//! `FederationStore` for `SeaStore`: local actors' key pairs, remote actors saved with their
//! accounts, follower inboxes, applied activities, the ActivityPub ids of follows, and the hosts
//! deliveries are failing to.

use std::collections::BTreeSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::store::{
    AccountRecord, ActorKeyRecord, FederationStore, RemoteActorRecord, StatusRecord,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait, Func, OnConflict, Query};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::accounts::{account_from_row, account_row, domain_key, fold, profile_columns};
use super::entity::{
    accounts, actor_keys, failing_hosts, federation_activities, follow_uris, follows,
    remote_actors, statuses,
};
use super::statuses::hydrate;
use super::{IN_CHUNK, SeaStore, backend_err, finish};

fn key_from_row(m: actor_keys::Model) -> ActorKeyRecord {
    ActorKeyRecord {
        owner: Id::from_i64(m.owner),
        private_key_pem: m.private_key_pem,
        public_key_pem: m.public_key_pem,
        created_at: m.created_at,
    }
}

fn actor_row(account: Id, a: &RemoteActorRecord) -> remote_actors::ActiveModel {
    remote_actors::ActiveModel {
        account_id: Set(account.as_i64()),
        uri: Set(a.uri.clone()),
        actor_type: Set(a.actor_type.clone()),
        inbox: Set(a.inbox.clone()),
        shared_inbox: Set(a.shared_inbox.clone()),
        outbox: Set(a.outbox.clone()),
        followers: Set(a.followers.clone()),
        following: Set(a.following.clone()),
        featured: Set(a.featured.clone()),
        featured_tags: Set(a.featured_tags.clone()),
        key_id: Set(a.key_id.clone()),
        public_key_pem: Set(a.public_key_pem.clone()),
        fetched_at: Set(a.fetched_at),
    }
}

fn actor_from_row(m: remote_actors::Model) -> RemoteActorRecord {
    RemoteActorRecord {
        account_id: Id::from_i64(m.account_id),
        uri: m.uri,
        actor_type: m.actor_type,
        inbox: m.inbox,
        shared_inbox: m.shared_inbox,
        outbox: m.outbox,
        followers: m.followers,
        following: m.following,
        featured: m.featured,
        featured_tags: m.featured_tags,
        key_id: m.key_id,
        public_key_pem: m.public_key_pem,
        fetched_at: m.fetched_at,
    }
}

/// Host names are kept lower-cased (ASCII, as the memory store).
fn host_key(host: &str) -> String {
    host.to_ascii_lowercase()
}

/// The body of [`FederationStore::save_remote_actor`], inside the caller's transaction.
async fn save_remote_actor_rows<C: ConnectionTrait>(
    db: &C,
    account: &AccountRecord,
    actor: &RemoteActorRecord,
) -> StoreResult<AccountRecord> {
    let known: Option<i64> = remote_actors::Entity::find()
        .select_only()
        .column(remote_actors::Column::AccountId)
        .filter(remote_actors::Column::Uri.eq(actor.uri.as_str()))
        .into_tuple()
        .one(db)
        .await
        .map_err(backend_err)?;
    let id = known.unwrap_or(account.id.as_i64());
    // Another account holding `username@domain` is reported first, as the memory store does.
    let holder: Option<i64> = accounts::Entity::find()
        .select_only()
        .column(accounts::Column::Id)
        .filter(accounts::Column::UsernameLower.eq(fold(&account.username)))
        .filter(accounts::Column::DomainKey.eq(domain_key(account.domain.as_deref())))
        .filter(accounts::Column::Id.ne(id))
        .into_tuple()
        .one(db)
        .await
        .map_err(backend_err)?;
    if holder.is_some() {
        return Err(StoreError::AlreadyExists("username".into()));
    }
    let old = accounts::Entity::find_by_id(id)
        .one(db)
        .await
        .map_err(backend_err)?;
    let saved = match old {
        Some(old) => {
            let old = account_from_row(old)?;
            let saved = AccountRecord {
                id: old.id,
                created_at: old.created_at,
                statuses_count: old.statuses_count,
                followers_count: old.followers_count,
                following_count: old.following_count,
                last_status_at: old.last_status_at,
                ..account.clone()
            };
            // What `update_account` replaces, and the name and domain too.
            accounts::Entity::update_many()
                .set(accounts::ActiveModel {
                    username: Set(saved.username.clone()),
                    username_lower: Set(fold(&saved.username)),
                    domain: Set(saved.domain.clone()),
                    domain_key: Set(domain_key(saved.domain.as_deref())),
                    ..profile_columns(&saved)
                })
                .filter(accounts::Column::Id.eq(id))
                .exec(db)
                .await
                .map_err(backend_err)?;
            saved
        }
        None if known.is_some() => return Err(StoreError::NotFound),
        None => {
            accounts::Entity::insert(account_row(account))
                .exec_without_returning(db)
                .await
                .map_err(backend_err)?;
            account.clone()
        }
    };
    // The actor record is replaced as a whole (its uri stays the account's when known).
    remote_actors::Entity::delete_many()
        .filter(remote_actors::Column::AccountId.eq(id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    remote_actors::Entity::insert(actor_row(saved.id, actor))
        .exec_without_returning(db)
        .await
        .map_err(|e| match backend_err(e) {
            // The only unique key left to collide with: another actor's key id.
            StoreError::AlreadyExists(what) if what.contains("key_id") => {
                StoreError::AlreadyExists("key_id".into())
            }
            other => other,
        })?;
    Ok(saved)
}

#[async_trait]
impl FederationStore for SeaStore {
    async fn actor_key(&self, owner: Id) -> StoreResult<Option<ActorKeyRecord>> {
        Ok(actor_keys::Entity::find_by_id(owner.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(key_from_row))
    }

    async fn insert_actor_key(&self, key: &ActorKeyRecord) -> StoreResult<ActorKeyRecord> {
        // Insert-if-absent, then read back: of two racing inserts, both answer the one kept.
        actor_keys::Entity::insert(actor_keys::ActiveModel {
            owner: Set(key.owner.as_i64()),
            private_key_pem: Set(key.private_key_pem.clone()),
            public_key_pem: Set(key.public_key_pem.clone()),
            created_at: Set(key.created_at),
        })
        .on_conflict(
            OnConflict::column(actor_keys::Column::Owner)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        // Gone already only if its account was deleted meanwhile.
        self.actor_key(key.owner).await?.ok_or(StoreError::NotFound)
    }

    async fn remote_actor(&self, account: Id) -> StoreResult<Option<RemoteActorRecord>> {
        Ok(remote_actors::Entity::find_by_id(account.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(actor_from_row))
    }

    async fn remote_actors(&self, accounts: &[Id]) -> StoreResult<Vec<RemoteActorRecord>> {
        let wanted: BTreeSet<i64> = accounts.iter().map(|id| id.as_i64()).collect();
        let wanted: Vec<i64> = wanted.into_iter().collect();
        let mut out = Vec::with_capacity(wanted.len());
        for chunk in wanted.chunks(IN_CHUNK) {
            let rows = remote_actors::Entity::find()
                .filter(remote_actors::Column::AccountId.is_in(chunk.iter().copied()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            out.extend(rows.into_iter().map(actor_from_row));
        }
        Ok(out)
    }

    async fn remote_actor_by_uri(&self, uri: &str) -> StoreResult<Option<RemoteActorRecord>> {
        Ok(remote_actors::Entity::find()
            .filter(remote_actors::Column::Uri.eq(uri))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(actor_from_row))
    }

    async fn remote_actor_by_key_id(&self, key_id: &str) -> StoreResult<Option<RemoteActorRecord>> {
        Ok(remote_actors::Entity::find()
            .filter(remote_actors::Column::KeyId.eq(key_id))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(actor_from_row))
    }

    async fn save_remote_actor(
        &self,
        account: &AccountRecord,
        actor: &RemoteActorRecord,
    ) -> StoreResult<AccountRecord> {
        let tx = self.begin_write().await?;
        let res = save_remote_actor_rows(&tx, account, actor).await;
        finish(tx, res).await
    }

    async fn follower_inboxes(&self, account: Id) -> StoreResult<Vec<String>> {
        // One query: each remote follower's shared inbox, else its own, each once.
        let q = Query::select()
            .distinct()
            .expr(Func::coalesce([
                Expr::col((remote_actors::Entity, remote_actors::Column::SharedInbox)),
                Expr::col((remote_actors::Entity, remote_actors::Column::Inbox)),
            ]))
            .from(follows::Entity)
            .inner_join(
                remote_actors::Entity,
                Expr::col((remote_actors::Entity, remote_actors::Column::AccountId))
                    .equals((follows::Entity, follows::Column::FollowerId)),
            )
            .and_where(Expr::col((follows::Entity, follows::Column::TargetId)).eq(account.as_i64()))
            .to_owned();
        let rows = self.db.query_all(&q).await.map_err(backend_err)?;
        // Sorted here, not in SQL: byte order on both engines, as the memory store.
        let inboxes = rows
            .iter()
            .map(|r| r.try_get_by_index::<String>(0).map_err(backend_err))
            .collect::<StoreResult<BTreeSet<String>>>()?;
        Ok(inboxes.into_iter().collect())
    }

    async fn status_by_uri(&self, uri: &str) -> StoreResult<Option<StatusRecord>> {
        let Some(row) = statuses::Entity::find()
            .filter(statuses::Column::Uri.eq(uri))
            .order_by_asc(statuses::Column::Id)
            .one(&self.db)
            .await
            .map_err(backend_err)?
        else {
            return Ok(None);
        };
        Ok(hydrate(&self.db, vec![row]).await?.pop())
    }

    async fn note_activity(&self, id: &str, at: DateTime<Utc>) -> StoreResult<bool> {
        let inserted = federation_activities::Entity::insert(federation_activities::ActiveModel {
            id: Set(id.to_string()),
            applied_at: Set(at),
        })
        .on_conflict(
            OnConflict::column(federation_activities::Column::Id)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(inserted == 1)
    }

    async fn prune_activities(&self, before: DateTime<Utc>) -> StoreResult<u64> {
        let res = federation_activities::Entity::delete_many()
            .filter(federation_activities::Column::AppliedAt.lt(before))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected)
    }

    async fn follow_uri(&self, follower: Id, target: Id) -> StoreResult<Option<String>> {
        Ok(
            follow_uris::Entity::find_by_id((follower.as_i64(), target.as_i64()))
                .one(&self.db)
                .await
                .map_err(backend_err)?
                .map(|m| m.uri),
        )
    }

    async fn set_follow_uri(&self, follower: Id, target: Id, uri: &str) -> StoreResult<()> {
        follow_uris::Entity::insert(follow_uris::ActiveModel {
            follower: Set(follower.as_i64()),
            target: Set(target.as_i64()),
            uri: Set(uri.to_string()),
        })
        .on_conflict(
            OnConflict::columns([follow_uris::Column::Follower, follow_uris::Column::Target])
                .update_column(follow_uris::Column::Uri)
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn note_host_failure(&self, host: &str, at: DateTime<Utc>) -> StoreResult<DateTime<Utc>> {
        let host = host_key(host);
        // The first failure is kept: insert-if-absent, then read back.
        failing_hosts::Entity::insert(failing_hosts::ActiveModel {
            host: Set(host.clone()),
            since: Set(at),
        })
        .on_conflict(
            OnConflict::column(failing_hosts::Column::Host)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        // A success noted meanwhile cleared it: the failure then starts now.
        Ok(self.host_failing_since(&host).await?.unwrap_or(at))
    }

    async fn note_host_success(&self, host: &str) -> StoreResult<bool> {
        let res = failing_hosts::Entity::delete_by_id(host_key(host))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn host_failing_since(&self, host: &str) -> StoreResult<Option<DateTime<Utc>>> {
        Ok(failing_hosts::Entity::find_by_id(host_key(host))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(|m| m.since))
    }
}
