//! `OAuthStore` for `SeaStore`: applications, single-use authorization codes, access tokens.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::store::{
    AppRecord, AuthorizationRecord, OAuthStore, PushSubscriptionRecord, TokenOwner, TokenRecord,
    TokenWithOwner,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Alias, Expr, ExprTrait, JoinType, OnConflict, Query, SelectStatement};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, FromQueryResult, IdenStatic, Iterable,
    QueryFilter, Statement,
};
use serde_json::Value;

use super::accounts::{account_from_row, user_from_row};
use super::entity::{accounts, apps, authorizations, push_subscriptions, tokens, users};
use super::{IN_CHUNK, SeaStore, backend_err};

/// Selects every column of `E` as `{prefix}{column}` (for reading several tables' rows from one
/// joined row with `FromQueryResult::from_query_result(row, prefix)`).
fn prefixed<E: EntityTrait>(q: &mut SelectStatement, prefix: &str) {
    for c in E::Column::iter() {
        q.expr_as(
            Expr::col((E::default(), c)),
            Alias::new(format!("{prefix}{}", c.as_str())),
        );
    }
}

/// Replaces whatever unique constraint fired with the one name the contract gives it.
fn taken(what: &'static str) -> impl Fn(sea_orm::DbErr) -> StoreError {
    move |e| match backend_err(e) {
        StoreError::AlreadyExists(_) => StoreError::AlreadyExists(what.into()),
        other => other,
    }
}

fn app_from_row(m: apps::Model) -> StoreResult<AppRecord> {
    let bad = || StoreError::Backend("apps.redirect_uris is not a JSON array of strings".into());
    let redirect_uris = match serde_json::from_str::<Value>(&m.redirect_uris).map_err(|_| bad())? {
        Value::Array(items) => items
            .into_iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(bad))
            .collect::<StoreResult<Vec<_>>>()?,
        _ => return Err(bad()),
    };
    Ok(AppRecord {
        id: Id::from_i64(m.id),
        name: m.name,
        website: m.website,
        redirect_uris,
        scopes: m.scopes,
        client_id: m.client_id,
        client_secret: m.client_secret,
        created_at: m.created_at,
    })
}

fn authorization_from_row(m: authorizations::Model) -> AuthorizationRecord {
    AuthorizationRecord {
        code_hash: m.code_hash,
        app_id: Id::from_i64(m.app_id),
        account_id: Id::from_i64(m.account_id),
        redirect_uri: m.redirect_uri,
        scopes: m.scopes,
        code_challenge: m.code_challenge,
        code_challenge_method: m.code_challenge_method,
        expires_at: m.expires_at,
    }
}

fn token_from_row(m: tokens::Model) -> TokenRecord {
    TokenRecord {
        id: Id::from_i64(m.id),
        token_hash: m.token_hash,
        app_id: Id::from_i64(m.app_id),
        account_id: m.account_id.map(Id::from_i64),
        scopes: m.scopes,
        created_at: m.created_at,
        revoked_at: m.revoked_at,
    }
}

#[async_trait]
impl OAuthStore for SeaStore {
    async fn insert_app(&self, app: &AppRecord) -> StoreResult<()> {
        let row = apps::ActiveModel {
            id: Set(app.id.as_i64()),
            name: Set(app.name.clone()),
            website: Set(app.website.clone()),
            redirect_uris: Set(Value::from(app.redirect_uris.clone()).to_string()),
            scopes: Set(app.scopes.clone()),
            client_id: Set(app.client_id.clone()),
            client_secret: Set(app.client_secret.clone()),
            created_at: Set(app.created_at),
        };
        // A taken id is reported as a taken client id, as the memory store does.
        apps::Entity::insert(row)
            .exec_without_returning(&self.db)
            .await
            .map_err(taken("client_id"))?;
        Ok(())
    }

    async fn app_by_id(&self, id: Id) -> StoreResult<Option<AppRecord>> {
        apps::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(app_from_row)
            .transpose()
    }

    async fn apps_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AppRecord>> {
        let mut ids: Vec<i64> = ids.iter().map(|id| id.as_i64()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(IN_CHUNK) {
            let rows = apps::Entity::find()
                .filter(apps::Column::Id.is_in(chunk.iter().copied()))
                .all(&self.db)
                .await
                .map_err(backend_err)?;
            for row in rows {
                out.push(app_from_row(row)?);
            }
        }
        Ok(out)
    }

    async fn app_by_client_id(&self, client_id: &str) -> StoreResult<Option<AppRecord>> {
        apps::Entity::find()
            .filter(apps::Column::ClientId.eq(client_id))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(app_from_row)
            .transpose()
    }

    async fn insert_authorization(&self, auth: &AuthorizationRecord) -> StoreResult<()> {
        let row = authorizations::ActiveModel {
            code_hash: Set(auth.code_hash.clone()),
            app_id: Set(auth.app_id.as_i64()),
            account_id: Set(auth.account_id.as_i64()),
            redirect_uri: Set(auth.redirect_uri.clone()),
            scopes: Set(auth.scopes.clone()),
            code_challenge: Set(auth.code_challenge.clone()),
            code_challenge_method: Set(auth.code_challenge_method.clone()),
            expires_at: Set(auth.expires_at),
        };
        authorizations::Entity::insert(row)
            .exec_without_returning(&self.db)
            .await
            .map_err(taken("code"))?;
        Ok(())
    }

    async fn take_authorization(
        &self,
        code_hash: &str,
    ) -> StoreResult<Option<AuthorizationRecord>> {
        // One statement, `DELETE ... RETURNING *`: of two racing requests only the one whose
        // delete removed the row gets it back.
        let row = authorizations::Entity::delete_by_id(code_hash.to_string())
            .exec_with_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(row.map(authorization_from_row))
    }

    async fn insert_token(&self, token: &TokenRecord) -> StoreResult<()> {
        let row = tokens::ActiveModel {
            token_hash: Set(token.token_hash.clone()),
            id: Set(token.id.as_i64()),
            app_id: Set(token.app_id.as_i64()),
            account_id: Set(token.account_id.map(Id::as_i64)),
            scopes: Set(token.scopes.clone()),
            created_at: Set(token.created_at),
            revoked_at: Set(token.revoked_at),
        };
        tokens::Entity::insert(row)
            .exec_without_returning(&self.db)
            .await
            .map_err(taken("token"))?;
        Ok(())
    }

    async fn token_by_hash(&self, token_hash: &str) -> StoreResult<Option<TokenRecord>> {
        Ok(tokens::Entity::find_by_id(token_hash.to_string())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(token_from_row))
    }

    async fn token_with_owner(&self, token_hash: &str) -> StoreResult<Option<TokenWithOwner>> {
        // One statement: the token, its application, account and login side by side, each
        // table's columns under a prefix of its own.
        let mut q = Query::select();
        prefixed::<tokens::Entity>(&mut q, "t_");
        prefixed::<apps::Entity>(&mut q, "p_");
        prefixed::<accounts::Entity>(&mut q, "a_");
        prefixed::<users::Entity>(&mut q, "u_");
        q.from(tokens::Entity)
            .join(
                JoinType::LeftJoin,
                apps::Entity,
                Expr::col((apps::Entity, apps::Column::Id))
                    .equals((tokens::Entity, tokens::Column::AppId)),
            )
            .join(
                JoinType::LeftJoin,
                accounts::Entity,
                Expr::col((accounts::Entity, accounts::Column::Id))
                    .equals((tokens::Entity, tokens::Column::AccountId)),
            )
            .join(
                JoinType::LeftJoin,
                users::Entity,
                Expr::col((users::Entity, users::Column::AccountId))
                    .equals((tokens::Entity, tokens::Column::AccountId)),
            )
            .and_where(Expr::col((tokens::Entity, tokens::Column::TokenHash)).eq(token_hash));
        let Some(row) = self.db.query_one(&q).await.map_err(backend_err)? else {
            return Ok(None);
        };
        let token = tokens::Model::from_query_result(&row, "t_").map_err(backend_err)?;
        let app = apps::Model::from_query_result_optional(&row, "p_").map_err(backend_err)?;
        let account =
            accounts::Model::from_query_result_optional(&row, "a_").map_err(backend_err)?;
        let user = users::Model::from_query_result_optional(&row, "u_").map_err(backend_err)?;
        Ok(Some(TokenWithOwner {
            token: token_from_row(token),
            owner: Some(TokenOwner {
                app: app.map(app_from_row).transpose()?,
                account: account.map(account_from_row).transpose()?,
                user: user.map(user_from_row).transpose()?,
            }),
        }))
    }

    async fn revoke_token(&self, token_hash: &str, at: DateTime<Utc>) -> StoreResult<bool> {
        let res = tokens::Entity::update_many()
            .set(tokens::ActiveModel {
                revoked_at: Set(Some(at)),
                ..Default::default()
            })
            .filter(tokens::Column::TokenHash.eq(token_hash))
            .filter(tokens::Column::RevokedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        // The token's push subscription goes with it (revoked twice or not).
        push_subscriptions::Entity::delete_many()
            .filter(
                push_subscriptions::Column::TokenId.in_subquery(
                    Query::select()
                        .column(tokens::Column::Id)
                        .from(tokens::Entity)
                        .and_where(tokens::Column::TokenHash.eq(token_hash))
                        .to_owned(),
                ),
            )
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    fn keeps_push_subscriptions(&self) -> bool {
        true
    }

    async fn put_push_subscription(&self, sub: &PushSubscriptionRecord) -> StoreResult<()> {
        use push_subscriptions::Column as C;
        push_subscriptions::Entity::insert(push_subscriptions::ActiveModel {
            token_id: Set(sub.token_id.as_i64()),
            id: Set(sub.id.as_i64()),
            account_id: Set(sub.account_id.as_i64()),
            endpoint: Set(sub.endpoint.clone()),
            key_p256dh: Set(sub.key_p256dh.clone()),
            key_auth: Set(sub.key_auth.clone()),
            standard: Set(sub.standard),
            alerts: Set(sub.alerts.join(" ")),
            policy: Set(sub.policy.clone()),
            sealed_token: Set(sub.sealed_token.clone()),
            created_at: Set(sub.created_at),
            updated_at: Set(sub.updated_at),
        })
        .on_conflict(
            OnConflict::column(C::TokenId)
                .update_columns([
                    C::Id,
                    C::AccountId,
                    C::Endpoint,
                    C::KeyP256dh,
                    C::KeyAuth,
                    C::Standard,
                    C::Alerts,
                    C::Policy,
                    C::SealedToken,
                    C::CreatedAt,
                    C::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn push_subscription_of_token(
        &self,
        token_id: Id,
    ) -> StoreResult<Option<PushSubscriptionRecord>> {
        Ok(push_subscriptions::Entity::find_by_id(token_id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(push_subscription_from_row))
    }

    async fn push_subscriptions_of_account(
        &self,
        account_id: Id,
    ) -> StoreResult<Vec<PushSubscriptionRecord>> {
        let rows = push_subscriptions::Entity::find()
            .filter(push_subscriptions::Column::AccountId.eq(account_id.as_i64()))
            .filter(
                push_subscriptions::Column::TokenId.in_subquery(
                    Query::select()
                        .column(tokens::Column::Id)
                        .from(tokens::Entity)
                        .and_where(tokens::Column::AccountId.eq(account_id.as_i64()))
                        .and_where(tokens::Column::RevokedAt.is_null())
                        .to_owned(),
                ),
            )
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(rows.into_iter().map(push_subscription_from_row).collect())
    }

    async fn delete_push_subscription(&self, id: Id) -> StoreResult<bool> {
        let res = push_subscriptions::Entity::delete_many()
            .filter(push_subscriptions::Column::Id.eq(id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn record_code_exchange(
        &self,
        code_hash: &str,
        token_hash: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> StoreResult<()> {
        let backend = self.db.get_database_backend();
        let (sweep, insert) = match backend {
            DbBackend::Postgres => (
                "DELETE FROM oauth_code_exchanges WHERE expires_at <= $1",
                "INSERT INTO oauth_code_exchanges (code_hash, token_hash, expires_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (code_hash) DO UPDATE SET token_hash = excluded.token_hash, expires_at = excluded.expires_at",
            ),
            _ => (
                "DELETE FROM oauth_code_exchanges WHERE expires_at <= ?",
                "INSERT INTO oauth_code_exchanges (code_hash, token_hash, expires_at) VALUES (?, ?, ?) \
                 ON CONFLICT (code_hash) DO UPDATE SET token_hash = excluded.token_hash, expires_at = excluded.expires_at",
            ),
        };
        let now: [sea_orm::Value; 1] = [now.into()];
        self.db
            .execute_raw(Statement::from_sql_and_values(backend, sweep, now))
            .await
            .map_err(backend_err)?;
        let values: [sea_orm::Value; 3] = [code_hash.into(), token_hash.into(), until.into()];
        self.db
            .execute_raw(Statement::from_sql_and_values(backend, insert, values))
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn take_code_exchange(
        &self,
        code_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<String>> {
        // One `DELETE ... RETURNING`: of two racing requests only one gets the token back.
        let backend = self.db.get_database_backend();
        let sql = match backend {
            DbBackend::Postgres => {
                "DELETE FROM oauth_code_exchanges WHERE code_hash = $1 RETURNING token_hash, expires_at"
            }
            _ => {
                "DELETE FROM oauth_code_exchanges WHERE code_hash = ? RETURNING token_hash, expires_at"
            }
        };
        let values: [sea_orm::Value; 1] = [code_hash.into()];
        let Some(row) = self
            .db
            .query_one_raw(Statement::from_sql_and_values(backend, sql, values))
            .await
            .map_err(backend_err)?
        else {
            return Ok(None);
        };
        let token: String = row.try_get("", "token_hash").map_err(backend_err)?;
        let until: DateTime<Utc> = row.try_get("", "expires_at").map_err(backend_err)?;
        Ok((now < until).then_some(token))
    }
}

fn push_subscription_from_row(m: push_subscriptions::Model) -> PushSubscriptionRecord {
    PushSubscriptionRecord {
        id: Id::from_i64(m.id),
        token_id: Id::from_i64(m.token_id),
        account_id: Id::from_i64(m.account_id),
        endpoint: m.endpoint,
        key_p256dh: m.key_p256dh,
        key_auth: m.key_auth,
        standard: m.standard,
        alerts: m.alerts.split_whitespace().map(str::to_string).collect(),
        policy: m.policy,
        sealed_token: m.sealed_token,
        created_at: m.created_at,
        updated_at: m.updated_at,
    }
}
