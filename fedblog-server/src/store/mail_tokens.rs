//! The mail-token and notification e-mail methods of `AccountStore` for `SeaStore`: pending
//! mailed links (`mail_tokens`), using them (a password reset, a change of address, each in one
//! transaction), and the notification e-mail choices (`notification_emails`).

use chrono::{DateTime, Utc};
use fedblog_core::store::{
    MailTokenPurpose, MailTokenRecord, NotificationEmailsRecord, UserRecord,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::accounts::{fold, user_from_row};
use super::entity::{
    authorizations, mail_tokens, notification_emails, push_subscriptions, tokens, users,
};
use super::{IN_CHUNK, SeaStore, backend_err, finish};

fn token_from_row(m: mail_tokens::Model) -> StoreResult<MailTokenRecord> {
    Ok(MailTokenRecord {
        account_id: Id::from_i64(m.account_id),
        purpose: MailTokenPurpose::parse(&m.purpose).ok_or_else(|| {
            StoreError::Backend(format!("unknown purpose {:?} in mail_tokens", m.purpose))
        })?,
        token_hash: m.token_hash,
        email: m.email,
        sent_at: m.sent_at,
    })
}

fn choices_from_row(m: &notification_emails::Model) -> NotificationEmailsRecord {
    NotificationEmailsRecord {
        follow: m.follow,
        follow_request: m.follow_request,
        mention: m.mention,
        reblog: m.reblog,
        favourite: m.favourite,
        report: m.report,
        pending_account: m.pending_account,
    }
}

/// Whether `account` has a login.
async fn has_login<C: ConnectionTrait>(db: &C, account: Id) -> StoreResult<bool> {
    Ok(users::Entity::find_by_id(account.as_i64())
        .one(db)
        .await
        .map_err(backend_err)?
        .is_some())
}

/// Removes the pending link of `purpose` with this hash when it was sent after `sent_after`;
/// answers it when this call removed it (a racing call removes nothing).
async fn take_fresh<C: ConnectionTrait>(
    db: &C,
    purpose: MailTokenPurpose,
    token_hash: &str,
    sent_after: DateTime<Utc>,
) -> StoreResult<Option<MailTokenRecord>> {
    let Some(row) = mail_tokens::Entity::find()
        .filter(mail_tokens::Column::Purpose.eq(purpose.as_str()))
        .filter(mail_tokens::Column::TokenHash.eq(token_hash))
        .filter(mail_tokens::Column::SentAt.gt(sent_after))
        .one(db)
        .await
        .map_err(backend_err)?
    else {
        return Ok(None);
    };
    let removed = mail_tokens::Entity::delete_many()
        .filter(mail_tokens::Column::AccountId.eq(row.account_id))
        .filter(mail_tokens::Column::Purpose.eq(purpose.as_str()))
        .filter(mail_tokens::Column::TokenHash.eq(token_hash))
        .exec(db)
        .await
        .map_err(backend_err)?;
    if removed.rows_affected == 0 {
        return Ok(None);
    }
    token_from_row(row).map(Some)
}

async fn reset_rows<C: ConnectionTrait>(
    db: &C,
    token_hash: &str,
    sent_after: DateTime<Utc>,
    password_hash: &str,
    at: DateTime<Utc>,
) -> StoreResult<Option<Id>> {
    let Some(token) =
        take_fresh(db, MailTokenPurpose::PasswordReset, token_hash, sent_after).await?
    else {
        return Ok(None);
    };
    let account = token.account_id.as_i64();
    let changed = users::Entity::update_many()
        .set(users::ActiveModel {
            password_hash: Set(password_hash.to_string()),
            ..Default::default()
        })
        .filter(users::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    if changed.rows_affected == 0 {
        return Ok(None);
    }
    tokens::Entity::update_many()
        .set(tokens::ActiveModel {
            revoked_at: Set(Some(at)),
            ..Default::default()
        })
        .filter(tokens::Column::AccountId.eq(account))
        .filter(tokens::Column::RevokedAt.is_null())
        .exec(db)
        .await
        .map_err(backend_err)?;
    // Every token of the account is revoked now, and its push subscriptions go with them.
    push_subscriptions::Entity::delete_many()
        .filter(push_subscriptions::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    authorizations::Entity::delete_many()
        .filter(authorizations::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(Some(token.account_id))
}

async fn email_change_rows<C: ConnectionTrait>(
    db: &C,
    token_hash: &str,
    sent_after: DateTime<Utc>,
) -> StoreResult<Option<UserRecord>> {
    let Some(token) = take_fresh(db, MailTokenPurpose::EmailChange, token_hash, sent_after).await?
    else {
        return Ok(None);
    };
    let Some(email) = token.email else {
        return Ok(None);
    };
    let account = token.account_id.as_i64();
    let taken = users::Entity::find()
        .filter(users::Column::EmailLower.eq(fold(&email)))
        .filter(users::Column::AccountId.ne(account))
        .one(db)
        .await
        .map_err(backend_err)?;
    if taken.is_some() {
        return Err(StoreError::AlreadyExists("email".into()));
    }
    users::Entity::update_many()
        .set(users::ActiveModel {
            email_lower: Set(fold(&email)),
            email: Set(email),
            ..Default::default()
        })
        .filter(users::Column::AccountId.eq(account))
        .exec(db)
        .await
        .map_err(|e| match backend_err(e) {
            StoreError::AlreadyExists(_) => StoreError::AlreadyExists("email".into()),
            other => other,
        })?;
    users::Entity::find_by_id(account)
        .one(db)
        .await
        .map_err(backend_err)?
        .map(user_from_row)
        .transpose()
}

impl SeaStore {
    pub(super) async fn save_mail_token_row(&self, token: &MailTokenRecord) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = async {
            if !has_login(&tx, token.account_id).await? {
                return Err(StoreError::NotFound);
            }
            mail_tokens::Entity::insert(mail_tokens::ActiveModel {
                account_id: Set(token.account_id.as_i64()),
                purpose: Set(token.purpose.as_str().to_string()),
                token_hash: Set(token.token_hash.clone()),
                email: Set(token.email.clone()),
                sent_at: Set(token.sent_at),
            })
            .on_conflict(
                OnConflict::columns([mail_tokens::Column::AccountId, mail_tokens::Column::Purpose])
                    .update_columns([
                        mail_tokens::Column::TokenHash,
                        mail_tokens::Column::Email,
                        mail_tokens::Column::SentAt,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(&tx)
            .await
            .map_err(backend_err)?;
            Ok(())
        }
        .await;
        finish(tx, res).await
    }

    pub(super) async fn mail_token_row(
        &self,
        purpose: MailTokenPurpose,
        token_hash: &str,
    ) -> StoreResult<Option<MailTokenRecord>> {
        mail_tokens::Entity::find()
            .filter(mail_tokens::Column::Purpose.eq(purpose.as_str()))
            .filter(mail_tokens::Column::TokenHash.eq(token_hash))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(token_from_row)
            .transpose()
    }

    pub(super) async fn reset_password_rows(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
        password_hash: &str,
        at: DateTime<Utc>,
    ) -> StoreResult<Option<Id>> {
        let tx = self.begin_write().await?;
        let res = reset_rows(&tx, token_hash, sent_after, password_hash, at).await;
        finish(tx, res).await
    }

    pub(super) async fn confirm_email_change_rows(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
    ) -> StoreResult<Option<UserRecord>> {
        let tx = self.begin_write().await?;
        let res = email_change_rows(&tx, token_hash, sent_after).await;
        finish(tx, res).await
    }

    pub(super) async fn notification_email_rows(
        &self,
        accounts: &[Id],
    ) -> StoreResult<Vec<(Id, NotificationEmailsRecord)>> {
        let mut ids: Vec<i64> = accounts.iter().map(|id| id.as_i64()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::new();
        for chunk in ids.chunks(IN_CHUNK) {
            let rows = notification_emails::Entity::find()
                .filter(notification_emails::Column::AccountId.is_in(chunk.iter().copied()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            out.extend(
                rows.iter()
                    .map(|r| (Id::from_i64(r.account_id), choices_from_row(r))),
            );
        }
        Ok(out)
    }

    pub(super) async fn save_notification_email_row(
        &self,
        account: Id,
        choices: &NotificationEmailsRecord,
    ) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = async {
            if !has_login(&tx, account).await? {
                return Err(StoreError::NotFound);
            }
            notification_emails::Entity::insert(notification_emails::ActiveModel {
                account_id: Set(account.as_i64()),
                follow: Set(choices.follow),
                follow_request: Set(choices.follow_request),
                mention: Set(choices.mention),
                reblog: Set(choices.reblog),
                favourite: Set(choices.favourite),
                report: Set(choices.report),
                pending_account: Set(choices.pending_account),
            })
            .on_conflict(
                OnConflict::column(notification_emails::Column::AccountId)
                    .update_columns([
                        notification_emails::Column::Follow,
                        notification_emails::Column::FollowRequest,
                        notification_emails::Column::Mention,
                        notification_emails::Column::Reblog,
                        notification_emails::Column::Favourite,
                        notification_emails::Column::Report,
                        notification_emails::Column::PendingAccount,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(&tx)
            .await
            .map_err(backend_err)?;
            Ok(())
        }
        .await;
        finish(tx, res).await
    }
}
