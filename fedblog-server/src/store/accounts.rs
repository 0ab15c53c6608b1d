//! `AccountStore` for `SeaStore`: accounts, logins, and their row conversions.

use async_trait::async_trait;
use fedblog_core::store::{
    AccountRecord, AccountStore, ProfileField, Role, SuspensionOrigin, UserRecord, Visibility,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect};
use serde_json::{Value, json};

use super::conversations::delete_account_conversations;
use super::entity::{
    account_domain_blocks, account_notes, accounts, actor_keys, authorizations, blocks,
    endorsements, featured_tags, follow_requests, follow_uris, follows, home_feed, list_accounts,
    markers, mutes, notifications, scheduled_statuses, suggestion_dismissals, tag_follows, tokens,
    users,
};
use super::filters::{delete_filters, filters_of_account};
use super::follows::decrement_each;
use super::interactions::delete_account_interactions;
use super::lists::{delete_lists, lists_of_owner};
use super::media::delete_account_media;
use super::notification_policies::delete_account_policies;
use super::polls::delete_account_polls;
use super::statuses::delete_account_statuses;
use super::{IN_CHUNK, SeaStore, backend_err, finish};

/// Case folding used for uniqueness: ASCII only, as the memory store's `eq_ignore_ascii_case`.
pub(super) fn fold(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// The `domain_key` of an account: its folded domain, `''` when local.
pub(super) fn domain_key(domain: Option<&str>) -> String {
    domain.map(fold).unwrap_or_default()
}

fn fields_to_json(fields: &[ProfileField]) -> String {
    Value::Array(
        fields
            .iter()
            .map(|f| json!({ "name": f.name, "value": f.value }))
            .collect(),
    )
    .to_string()
}

fn fields_from_json(s: &str) -> StoreResult<Vec<ProfileField>> {
    let bad = || StoreError::Backend("accounts.fields is not a JSON array of {name, value}".into());
    let Value::Array(items) = serde_json::from_str::<Value>(s).map_err(|_| bad())? else {
        return Err(bad());
    };
    items
        .iter()
        .map(|item| {
            let name = item.get("name").and_then(Value::as_str).ok_or_else(bad)?;
            let value = item.get("value").and_then(Value::as_str).ok_or_else(bad)?;
            Ok(ProfileField {
                name: name.to_string(),
                value: value.to_string(),
            })
        })
        .collect()
}

fn strings_to_json(list: &[String]) -> String {
    serde_json::to_string(list).unwrap_or_else(|_| "[]".into())
}

fn strings_from_json(s: &str) -> StoreResult<Vec<String>> {
    serde_json::from_str(s).map_err(|_| {
        StoreError::Backend("accounts.also_known_as is not a JSON array of strings".into())
    })
}

pub(super) fn parse_visibility(s: &str, column: &str) -> StoreResult<Visibility> {
    Visibility::parse(s)
        .ok_or_else(|| StoreError::Backend(format!("unknown visibility {s:?} in {column}")))
}

/// The columns `update_account` replaces (everything but identity, creation time and counters).
pub(super) fn profile_columns(a: &AccountRecord) -> accounts::ActiveModel {
    accounts::ActiveModel {
        display_name: Set(a.display_name.clone()),
        note: Set(a.note.clone()),
        locked: Set(a.locked),
        bot: Set(a.bot),
        discoverable: Set(a.discoverable),
        indexable: Set(a.indexable),
        hide_collections: Set(a.hide_collections),
        fields: Set(fields_to_json(&a.fields)),
        default_privacy: Set(a.default_privacy.as_str().to_string()),
        default_sensitive: Set(a.default_sensitive),
        default_language: Set(a.default_language.clone()),
        uri: Set(a.uri.clone()),
        url: Set(a.url.clone()),
        avatar: Set(a.avatar.clone()),
        header: Set(a.header.clone()),
        avatar_remote_url: Set(a.avatar_remote_url.clone()),
        header_remote_url: Set(a.header_remote_url.clone()),
        also_known_as: Set(strings_to_json(&a.also_known_as)),
        moved_to_account_id: Set(a.moved_to_account_id.map(Id::as_i64)),
        updated_at: Set(a.updated_at),
        suspended_at: Set(a.suspended_at),
        suspension_origin: Set(a.suspension_origin.map(|o| o.as_str().to_string())),
        sensitized_at: Set(a.sensitized_at),
        silenced_at: Set(a.silenced_at),
        ..Default::default()
    }
}

pub(super) fn account_row(a: &AccountRecord) -> accounts::ActiveModel {
    accounts::ActiveModel {
        id: Set(a.id.as_i64()),
        username: Set(a.username.clone()),
        username_lower: Set(fold(&a.username)),
        domain: Set(a.domain.clone()),
        domain_key: Set(domain_key(a.domain.as_deref())),
        created_at: Set(a.created_at),
        statuses_count: Set(a.statuses_count),
        followers_count: Set(a.followers_count),
        following_count: Set(a.following_count),
        last_status_at: Set(a.last_status_at),
        ..profile_columns(a)
    }
}

pub(super) fn account_from_row(m: accounts::Model) -> StoreResult<AccountRecord> {
    Ok(AccountRecord {
        id: Id::from_i64(m.id),
        username: m.username,
        domain: m.domain,
        display_name: m.display_name,
        note: m.note,
        locked: m.locked,
        bot: m.bot,
        discoverable: m.discoverable,
        indexable: m.indexable,
        hide_collections: m.hide_collections,
        fields: fields_from_json(&m.fields)?,
        default_privacy: parse_visibility(&m.default_privacy, "accounts.default_privacy")?,
        default_sensitive: m.default_sensitive,
        default_language: m.default_language,
        uri: m.uri,
        url: m.url,
        avatar: m.avatar,
        header: m.header,
        avatar_remote_url: m.avatar_remote_url,
        header_remote_url: m.header_remote_url,
        also_known_as: strings_from_json(&m.also_known_as)?,
        moved_to_account_id: m.moved_to_account_id.map(Id::from_i64),
        created_at: m.created_at,
        updated_at: m.updated_at,
        suspended_at: m.suspended_at,
        suspension_origin: m
            .suspension_origin
            .as_deref()
            .map(|o| {
                SuspensionOrigin::parse(o).ok_or_else(|| {
                    StoreError::Backend(format!("unknown accounts.suspension_origin {o:?}"))
                })
            })
            .transpose()?,
        sensitized_at: m.sensitized_at,
        silenced_at: m.silenced_at,
        statuses_count: m.statuses_count,
        followers_count: m.followers_count,
        following_count: m.following_count,
        last_status_at: m.last_status_at,
    })
}

/// The columns `update_user` replaces (everything but account_id and created_at).
fn login_columns(u: &UserRecord) -> users::ActiveModel {
    users::ActiveModel {
        email: Set(u.email.clone()),
        email_lower: Set(fold(&u.email)),
        password_hash: Set(u.password_hash.clone()),
        role: Set(u.role.as_str().to_string()),
        confirmed_at: Set(u.confirmed_at),
        confirmation_token_hash: Set(u.confirmation_token_hash.clone()),
        approved: Set(u.approved),
        disabled: Set(u.disabled),
        locale: Set(u.locale.clone()),
        ..Default::default()
    }
}

pub(super) fn user_from_row(m: users::Model) -> StoreResult<UserRecord> {
    Ok(UserRecord {
        account_id: Id::from_i64(m.account_id),
        email: m.email,
        password_hash: m.password_hash,
        role: Role::parse(&m.role).ok_or_else(|| {
            StoreError::Backend(format!("unknown role {:?} in users.role", m.role))
        })?,
        confirmed_at: m.confirmed_at,
        confirmation_token_hash: m.confirmation_token_hash,
        approved: m.approved,
        disabled: m.disabled,
        locale: m.locale,
        created_at: m.created_at,
    })
}

async fn insert_account_rows<C: ConnectionTrait>(
    db: &C,
    account: &AccountRecord,
    user: Option<&UserRecord>,
) -> StoreResult<()> {
    accounts::Entity::insert(account_row(account))
        .exec_without_returning(db)
        .await
        .map_err(backend_err)?;
    if let Some(u) = user {
        let row = users::ActiveModel {
            account_id: Set(account.id.as_i64()),
            created_at: Set(u.created_at),
            ..login_columns(u)
        };
        users::Entity::insert(row)
            .exec_without_returning(db)
            .await
            .map_err(backend_err)?;
    }
    Ok(())
}

/// Deletes rows of `E` where `col` is `id` (one statement; the callers' columns are indexed).
async fn delete_where<C: ConnectionTrait, E: EntityTrait>(
    db: &C,
    col: E::Column,
    id: i64,
) -> StoreResult<()> {
    E::delete_many()
        .filter(col.eq(id))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

/// Removes an account and everything that belongs to it or points at it (see
/// `AccountStore::delete_account`). Other accounts' statuses stay, including their mentions of
/// it and their replies to its statuses, as in the memory store; their reblogs of its statuses
/// go with the statuses.
async fn delete_account_rows<C: ConnectionTrait>(db: &C, id: Id) -> StoreResult<()> {
    let id = id.as_i64();
    let exists: Option<i64> = accounts::Entity::find_by_id(id)
        .select_only()
        .column(accounts::Column::Id)
        .into_tuple()
        .one(db)
        .await
        .map_err(backend_err)?;
    if exists.is_none() {
        return Err(StoreError::NotFound);
    }

    // Follows both ways, moving the counters of the accounts on the other side.
    let followed: Vec<i64> = follows::Entity::delete_many()
        .filter(follows::Column::FollowerId.eq(id))
        .exec_with_returning(db)
        .await
        .map_err(backend_err)?
        .into_iter()
        .map(|f| f.target_id)
        .collect();
    decrement_each(db, &followed, accounts::Column::FollowersCount).await?;
    let followers: Vec<i64> = follows::Entity::delete_many()
        .filter(follows::Column::TargetId.eq(id))
        .exec_with_returning(db)
        .await
        .map_err(backend_err)?
        .into_iter()
        .map(|f| f.follower_id)
        .collect();
    decrement_each(db, &followers, accounts::Column::FollowingCount).await?;
    delete_where::<_, follow_requests::Entity>(db, follow_requests::Column::FollowerId, id).await?;
    delete_where::<_, follow_requests::Entity>(db, follow_requests::Column::TargetId, id).await?;

    // One account's annotations of another, both ways.
    delete_where::<_, blocks::Entity>(db, blocks::Column::AccountId, id).await?;
    delete_where::<_, blocks::Entity>(db, blocks::Column::TargetId, id).await?;
    delete_where::<_, mutes::Entity>(db, mutes::Column::AccountId, id).await?;
    delete_where::<_, mutes::Entity>(db, mutes::Column::TargetId, id).await?;
    delete_where::<_, account_notes::Entity>(db, account_notes::Column::AccountId, id).await?;
    delete_where::<_, account_notes::Entity>(db, account_notes::Column::TargetId, id).await?;
    delete_where::<_, endorsements::Entity>(db, endorsements::Column::AccountId, id).await?;
    delete_where::<_, endorsements::Entity>(db, endorsements::Column::TargetId, id).await?;
    delete_where::<_, suggestion_dismissals::Entity>(
        db,
        suggestion_dismissals::Column::AccountId,
        id,
    )
    .await?;
    delete_where::<_, suggestion_dismissals::Entity>(
        db,
        suggestion_dismissals::Column::TargetId,
        id,
    )
    .await?;
    delete_where::<_, account_domain_blocks::Entity>(
        db,
        account_domain_blocks::Column::AccountId,
        id,
    )
    .await?;
    delete_where::<_, tag_follows::Entity>(db, tag_follows::Column::AccountId, id).await?;
    delete_where::<_, featured_tags::Entity>(db, featured_tags::Column::AccountId, id).await?;
    delete_where::<_, scheduled_statuses::Entity>(db, scheduled_statuses::Column::AccountId, id)
        .await?;

    // Its votes (lowering the counts of others' polls) and its polls.
    delete_account_polls(db, id).await?;
    // What it did with statuses, then its statuses with what others did with them.
    delete_account_interactions(db, id).await?;
    delete_account_statuses(db, id).await?;
    // Its media records (the caller removes their files).
    delete_account_media(db, id).await?;
    // Its own home feed, its lists (with their members and feeds) and its places in others'
    // lists, its notifications both ways and its markers.
    delete_where::<_, home_feed::Entity>(db, home_feed::Column::AccountId, id).await?;
    delete_lists(db, || lists_of_owner(id))
        .await
        .map_err(backend_err)?;
    delete_where::<_, list_accounts::Entity>(db, list_accounts::Column::AccountId, id).await?;
    delete_where::<_, notifications::Entity>(db, notifications::Column::AccountId, id).await?;
    delete_where::<_, notifications::Entity>(db, notifications::Column::FromAccountId, id).await?;
    delete_where::<_, markers::Entity>(db, markers::Column::AccountId, id).await?;
    delete_filters(db, || filters_of_account(id))
        .await
        .map_err(backend_err)?;
    delete_account_conversations(db, id)
        .await
        .map_err(backend_err)?;
    delete_account_policies(db, id).await.map_err(backend_err)?;

    // Its key pair and the ActivityPub ids of its follows both ways (its remote actor goes
    // with the account, by the foreign key's cascade).
    delete_where::<_, actor_keys::Entity>(db, actor_keys::Column::Owner, id).await?;
    delete_where::<_, follow_uris::Entity>(db, follow_uris::Column::Follower, id).await?;
    delete_where::<_, follow_uris::Entity>(db, follow_uris::Column::Target, id).await?;

    // Its login and credentials, then the account.
    delete_where::<_, tokens::Entity>(db, tokens::Column::AccountId, id).await?;
    delete_where::<_, authorizations::Entity>(db, authorizations::Column::AccountId, id).await?;
    delete_where::<_, users::Entity>(db, users::Column::AccountId, id).await?;
    delete_where::<_, accounts::Entity>(db, accounts::Column::Id, id).await
}

impl SeaStore {
    async fn name_taken(&self, username: &str, domain: Option<&str>) -> StoreResult<bool> {
        Ok(accounts::Entity::find()
            .filter(accounts::Column::UsernameLower.eq(fold(username)))
            .filter(accounts::Column::DomainKey.eq(domain_key(domain)))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .is_some())
    }

    /// Whether a login other than `except`'s uses this e-mail address.
    async fn email_taken(&self, email: &str, except: Option<Id>) -> StoreResult<bool> {
        let mut q = users::Entity::find().filter(users::Column::EmailLower.eq(fold(email)));
        if let Some(id) = except {
            q = q.filter(users::Column::AccountId.ne(id.as_i64()));
        }
        Ok(q.one(&self.db).await.map_err(backend_err)?.is_some())
    }

    /// Inserts an account (and its login), reporting a conflict in the memory store's order:
    /// username, then e-mail, then id.
    async fn insert_account(
        &self,
        account: &AccountRecord,
        user: Option<&UserRecord>,
    ) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = insert_account_rows(&tx, account, user).await;
        match finish(tx, res).await {
            Err(StoreError::AlreadyExists(what)) => {
                let domain = if user.is_some() {
                    None
                } else {
                    account.domain.as_deref()
                };
                let what = if self.name_taken(&account.username, domain).await? {
                    "username".to_string()
                } else if match user {
                    Some(u) => self.email_taken(&u.email, None).await?,
                    None => false,
                } {
                    "email".to_string()
                } else {
                    what
                };
                Err(StoreError::AlreadyExists(what))
            }
            other => other,
        }
    }
}

#[async_trait]
impl AccountStore for SeaStore {
    async fn insert_local_account(
        &self,
        account: &AccountRecord,
        user: &UserRecord,
    ) -> StoreResult<()> {
        self.insert_account(account, Some(user)).await
    }

    async fn insert_remote_account(&self, account: &AccountRecord) -> StoreResult<()> {
        self.insert_account(account, None).await
    }

    async fn account_by_id(&self, id: Id) -> StoreResult<Option<AccountRecord>> {
        accounts::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(account_from_row)
            .transpose()
    }

    async fn accounts_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AccountRecord>> {
        let mut ids: Vec<i64> = ids.iter().map(|id| id.as_i64()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(IN_CHUNK) {
            let rows = accounts::Entity::find()
                .filter(accounts::Column::Id.is_in(chunk.iter().copied()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            for row in rows {
                out.push(account_from_row(row)?);
            }
        }
        Ok(out)
    }

    async fn account_by_username(
        &self,
        username: &str,
        domain: Option<&str>,
    ) -> StoreResult<Option<AccountRecord>> {
        accounts::Entity::find()
            .filter(accounts::Column::UsernameLower.eq(fold(username)))
            .filter(accounts::Column::DomainKey.eq(domain_key(domain)))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(account_from_row)
            .transpose()
    }

    async fn update_account(&self, account: &AccountRecord) -> StoreResult<()> {
        let res = accounts::Entity::update_many()
            .set(profile_columns(account))
            .filter(accounts::Column::Id.eq(account.id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        if res.rows_affected == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    async fn user_by_account_id(&self, account_id: Id) -> StoreResult<Option<UserRecord>> {
        users::Entity::find_by_id(account_id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(user_from_row)
            .transpose()
    }

    async fn users_by_account_ids(&self, accounts: &[Id]) -> StoreResult<Vec<UserRecord>> {
        let mut ids: Vec<i64> = accounts.iter().map(|id| id.as_i64()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(IN_CHUNK) {
            let rows = users::Entity::find()
                .filter(users::Column::AccountId.is_in(chunk.iter().copied()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            for row in rows {
                out.push(user_from_row(row)?);
            }
        }
        Ok(out)
    }

    async fn user_by_email(&self, email: &str) -> StoreResult<Option<UserRecord>> {
        users::Entity::find()
            .filter(users::Column::EmailLower.eq(fold(email)))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(user_from_row)
            .transpose()
    }

    async fn user_by_confirmation_token(
        &self,
        token_hash: &str,
    ) -> StoreResult<Option<UserRecord>> {
        users::Entity::find()
            .filter(users::Column::ConfirmationTokenHash.eq(token_hash))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(user_from_row)
            .transpose()
    }

    async fn delete_account(&self, id: Id) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = delete_account_rows(&tx, id).await;
        finish(tx, res).await
    }

    async fn update_user(&self, user: &UserRecord) -> StoreResult<()> {
        let res = users::Entity::update_many()
            .set(login_columns(user))
            .filter(users::Column::AccountId.eq(user.account_id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(|e| match backend_err(e) {
                StoreError::AlreadyExists(_) => StoreError::AlreadyExists("email".into()),
                other => other,
            })?;
        if res.rows_affected == 0 {
            // As the memory store: a taken e-mail wins over a missing login.
            if self.email_taken(&user.email, Some(user.account_id)).await? {
                return Err(StoreError::AlreadyExists("email".into()));
            }
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    fn moderation(&self) -> Option<&dyn fedblog_core::store::ModerationStore> {
        Some(self)
    }

    fn announcements(&self) -> Option<&dyn fedblog_core::store::AnnouncementStore> {
        Some(self)
    }

    fn crypto(&self) -> Option<&dyn fedblog_core::store::CryptoStore> {
        Some(self)
    }

    // The e-mail flows' data, in `mail_tokens.rs`.
    async fn save_mail_token(
        &self,
        token: &fedblog_core::store::MailTokenRecord,
    ) -> StoreResult<()> {
        self.save_mail_token_row(token).await
    }

    async fn mail_token(
        &self,
        purpose: fedblog_core::store::MailTokenPurpose,
        token_hash: &str,
    ) -> StoreResult<Option<fedblog_core::store::MailTokenRecord>> {
        self.mail_token_row(purpose, token_hash).await
    }

    async fn reset_password(
        &self,
        token_hash: &str,
        sent_after: chrono::DateTime<chrono::Utc>,
        password_hash: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<Option<Id>> {
        self.reset_password_rows(token_hash, sent_after, password_hash, at)
            .await
    }

    async fn confirm_email_change(
        &self,
        token_hash: &str,
        sent_after: chrono::DateTime<chrono::Utc>,
    ) -> StoreResult<Option<UserRecord>> {
        self.confirm_email_change_rows(token_hash, sent_after).await
    }

    async fn notification_emails(
        &self,
        accounts: &[Id],
    ) -> StoreResult<Vec<(Id, fedblog_core::store::NotificationEmailsRecord)>> {
        self.notification_email_rows(accounts).await
    }

    async fn save_notification_emails(
        &self,
        account: Id,
        choices: &fedblog_core::store::NotificationEmailsRecord,
    ) -> StoreResult<()> {
        self.save_notification_email_row(account, choices).await
    }
}
