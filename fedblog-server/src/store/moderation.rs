//! `ModerationStore` for `SeaStore`: reports, moderation warnings, the accounts as administrators
//! list them, rules and policy texts, the server-wide blocks and allows, custom user roles, and
//! trends as staff review them (rankings and reviews).
//!
//! Every write is one statement. "Inserts or replaces (by id)" is an upsert on the primary key;
//! a clash on another unique key (a blocked domain, an IP range, an effective date, a listed
//! value) is not the conflict it resolves, so it fails, and becomes the `AlreadyExists` the
//! trait names. The trend rankings are one statement each over the statuses, their tags,
//! favourites and reblogs.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountOrigin, AccountWarningRecord, AdminAccountFilter, AdminAccountStatus,
    DomainBlockSeverity, InstanceDomainBlockRecord, IpBlockRecord, IpBlockSeverity,
    ListedValueRecord, ModerationStore, ReportCategory, ReportFilter, ReportRecord, RuleRecord,
    TagRecord, TermsOfServiceRecord, TrendKind, TrendReviewRecord, TrendStatusCandidate,
    TrendTagUses, UserRoleRecord, ValueList, WarningAction,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{
    Expr, ExprTrait, Func, JoinType, OnConflict, Order, Query, SelectStatement, UnionType,
};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, FromQueryResult, Iterable,
    QueryFilter, QueryOrder, QueryTrait,
};

use super::accounts::fold;
use super::directory::{escape_like, like};
use super::entity::{
    account_warnings, accounts, favourites, instance_domain_blocks, ip_blocks, listed_values,
    reports, roles, rules, settings, status_tags, statuses, tags, terms_of_service, trend_reviews,
    users,
};
use super::statuses::public_rows;
use super::tags::tag_from_row;
use super::{SeaStore, backend_err, paging};

/// Replaces whatever unique constraint fired with the one name the contract gives it.
fn taken(what: &'static str) -> impl Fn(DbErr) -> StoreError {
    move |e| match backend_err(e) {
        StoreError::AlreadyExists(_) => StoreError::AlreadyExists(what.into()),
        other => other,
    }
}

/// Ids as a JSON array of numbers.
fn ids_to_json(ids: &[Id]) -> String {
    let raw: Vec<i64> = ids.iter().map(|id| id.as_i64()).collect();
    serde_json::to_string(&raw).unwrap_or_else(|_| "[]".into())
}

fn ids_from_json(s: &str, column: &str) -> StoreResult<Vec<Id>> {
    let raw: Vec<i64> = serde_json::from_str(s)
        .map_err(|_| StoreError::Backend(format!("{column} is not a JSON array of ids")))?;
    Ok(raw.into_iter().map(Id::from_i64).collect())
}

/// A value parsed from a column, or a backend error naming the column.
fn parsed<T>(value: Option<T>, column: &str, raw: &str) -> StoreResult<T> {
    value.ok_or_else(|| StoreError::Backend(format!("unknown value {raw:?} in {column}")))
}

fn report_row(r: &ReportRecord) -> reports::ActiveModel {
    reports::ActiveModel {
        id: Set(r.id.as_i64()),
        account_id: Set(r.account_id.as_i64()),
        target_account_id: Set(r.target_account_id.as_i64()),
        status_ids: Set(ids_to_json(&r.status_ids)),
        rule_ids: Set(ids_to_json(&r.rule_ids)),
        comment: Set(r.comment.clone()),
        category: Set(r.category.as_str().to_string()),
        forwarded: Set(r.forwarded),
        uri: Set(r.uri.clone()),
        assigned_account_id: Set(r.assigned_account_id.map(Id::as_i64)),
        action_taken_at: Set(r.action_taken_at),
        action_taken_by_account_id: Set(r.action_taken_by_account_id.map(Id::as_i64)),
        created_at: Set(r.created_at),
        updated_at: Set(r.updated_at),
    }
}

fn report_from_row(m: reports::Model) -> StoreResult<ReportRecord> {
    Ok(ReportRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.account_id),
        target_account_id: Id::from_i64(m.target_account_id),
        status_ids: ids_from_json(&m.status_ids, "reports.status_ids")?,
        rule_ids: ids_from_json(&m.rule_ids, "reports.rule_ids")?,
        comment: m.comment,
        category: parsed(
            ReportCategory::parse(&m.category),
            "reports.category",
            &m.category,
        )?,
        forwarded: m.forwarded,
        uri: m.uri,
        assigned_account_id: m.assigned_account_id.map(Id::from_i64),
        action_taken_at: m.action_taken_at,
        action_taken_by_account_id: m.action_taken_by_account_id.map(Id::from_i64),
        created_at: m.created_at,
        updated_at: m.updated_at,
    })
}

fn warning_from_row(m: account_warnings::Model) -> StoreResult<AccountWarningRecord> {
    Ok(AccountWarningRecord {
        id: Id::from_i64(m.id),
        account_id: m.account_id.map(Id::from_i64),
        target_account_id: Id::from_i64(m.target_account_id),
        action: parsed(
            WarningAction::parse(&m.action),
            "account_warnings.action",
            &m.action,
        )?,
        text: m.text,
        report_id: m.report_id.map(Id::from_i64),
        status_ids: ids_from_json(&m.status_ids, "account_warnings.status_ids")?,
        created_at: m.created_at,
    })
}

fn rule_from_row(m: rules::Model) -> RuleRecord {
    RuleRecord {
        id: Id::from_i64(m.id),
        text: m.text,
        hint: m.hint,
        position: m.position,
        created_at: m.created_at,
        updated_at: m.updated_at,
    }
}

fn user_role_from_row(m: roles::Model) -> UserRoleRecord {
    UserRoleRecord {
        id: Id::from_i64(m.id),
        name: m.name,
        color: m.color,
        // The column holds what `save_user_role` wrote, a `u64` of at most 64 bits.
        permissions: m.permissions as u64,
        position: m.position,
        highlighted: m.highlighted,
        created_at: m.created_at,
        updated_at: m.updated_at,
    }
}

fn terms_from_row(m: terms_of_service::Model) -> TermsOfServiceRecord {
    TermsOfServiceRecord {
        id: Id::from_i64(m.id),
        text: m.text,
        changelog: m.changelog,
        effective_date: m.effective_date,
        published_at: m.published_at,
        created_at: m.created_at,
    }
}

fn domain_block_from_row(
    m: instance_domain_blocks::Model,
) -> StoreResult<InstanceDomainBlockRecord> {
    Ok(InstanceDomainBlockRecord {
        id: Id::from_i64(m.id),
        severity: parsed(
            DomainBlockSeverity::parse(&m.severity),
            "instance_domain_blocks.severity",
            &m.severity,
        )?,
        domain: m.domain,
        reject_media: m.reject_media,
        reject_reports: m.reject_reports,
        private_comment: m.private_comment,
        public_comment: m.public_comment,
        obfuscate: m.obfuscate,
        created_at: m.created_at,
    })
}

fn ip_block_from_row(m: ip_blocks::Model) -> StoreResult<IpBlockRecord> {
    Ok(IpBlockRecord {
        id: Id::from_i64(m.id),
        severity: parsed(
            IpBlockSeverity::parse(&m.severity),
            "ip_blocks.severity",
            &m.severity,
        )?,
        ip: m.ip,
        comment: m.comment,
        created_at: m.created_at,
        expires_at: m.expires_at,
    })
}

/// The name of `list` in `listed_values.list`.
fn list_name(list: ValueList) -> &'static str {
    match list {
        ValueList::DomainAllows => "domain_allows",
        ValueList::EmailDomainBlocks => "email_domain_blocks",
        ValueList::CanonicalEmailBlocks => "canonical_email_blocks",
    }
}

/// `LIKE '%text%'`, wildcards in `text` escaped.
fn containing(text: &str) -> sea_orm::sea_query::LikeExpr {
    like(format!("%{}%", escape_like(text)))
}

/// The condition of `filter` on `accounts` left-joined with `users` (whose columns are NULL for
/// an account without a login: a remote one).
fn admin_condition(filter: &AdminAccountFilter) -> Condition {
    let a = |c: accounts::Column| Expr::col((accounts::Entity, c));
    let u = |c: users::Column| Expr::col((users::Entity, c));
    let mut cond = Condition::all();
    match filter.origin {
        Some(AccountOrigin::Local) => cond = cond.add(a(accounts::Column::Domain).is_null()),
        Some(AccountOrigin::Remote) => cond = cond.add(a(accounts::Column::Domain).is_not_null()),
        None => {}
    }
    cond = match filter.status {
        None => cond,
        // Nothing holds it back: without a login nothing waits for approval or is disabled.
        Some(AdminAccountStatus::Active) => cond
            .add(a(accounts::Column::SuspendedAt).is_null())
            .add(a(accounts::Column::SilencedAt).is_null())
            .add(
                Condition::any()
                    .add(u(users::Column::AccountId).is_null())
                    .add(
                        Condition::all()
                            .add(u(users::Column::Approved).eq(true))
                            .add(u(users::Column::Disabled).eq(false)),
                    ),
            ),
        Some(AdminAccountStatus::Pending) => cond
            .add(a(accounts::Column::Domain).is_null())
            .add(u(users::Column::Approved).eq(false)),
        Some(AdminAccountStatus::Disabled) => cond.add(u(users::Column::Disabled).eq(true)),
        Some(AdminAccountStatus::Silenced) => {
            cond.add(a(accounts::Column::SilencedAt).is_not_null())
        }
        Some(AdminAccountStatus::Suspended) => {
            cond.add(a(accounts::Column::SuspendedAt).is_not_null())
        }
        Some(AdminAccountStatus::Sensitized) => {
            cond.add(a(accounts::Column::SensitizedAt).is_not_null())
        }
    };
    if !filter.roles.is_empty() {
        cond = cond.add(u(users::Column::Role).is_in(filter.roles.iter().cloned()));
    }
    if let Some(domain) = &filter.by_domain {
        // As usernames are matched: by the folded `domain_key` (`''` for local accounts).
        cond = cond
            .add(a(accounts::Column::Domain).is_not_null())
            .add(a(accounts::Column::DomainKey).eq(fold(domain)));
    }
    if let Some(username) = &filter.username {
        cond = cond.add(a(accounts::Column::UsernameLower).like(containing(&fold(username))));
    }
    if let Some(name) = &filter.display_name {
        cond = cond.add(
            Func::lower(a(accounts::Column::DisplayName)).like(containing(&name.to_lowercase())),
        );
    }
    if let Some(email) = &filter.email {
        cond = cond.add(u(users::Column::EmailLower).like(containing(&fold(email))));
    }
    cond
}

#[async_trait]
impl ModerationStore for SeaStore {
    async fn insert_report(&self, report: &ReportRecord) -> StoreResult<()> {
        reports::Entity::insert(report_row(report))
            .exec_without_returning(&self.db)
            .await
            .map_err(taken("report"))?;
        Ok(())
    }

    async fn report_by_id(&self, id: Id) -> StoreResult<Option<ReportRecord>> {
        reports::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(report_from_row)
            .transpose()
    }

    async fn update_report(&self, report: &ReportRecord) -> StoreResult<()> {
        let res = reports::Entity::update_many()
            .set(report_row(report))
            .filter(reports::Column::Id.eq(report.id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        if res.rows_affected == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    async fn reports(&self, filter: &ReportFilter, page: Page) -> StoreResult<Vec<ReportRecord>> {
        let taken_at = reports::Column::ActionTakenAt;
        let mut query = reports::Entity::find().filter(if filter.resolved {
            taken_at.is_not_null()
        } else {
            taken_at.is_null()
        });
        if let Some(account) = filter.account_id {
            query = query.filter(reports::Column::AccountId.eq(account.as_i64()));
        }
        if let Some(target) = filter.target_account_id {
            query = query.filter(reports::Column::TargetAccountId.eq(target.as_i64()));
        }
        let rows = paging::apply(query, reports::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        paging::finish(rows, &page)
            .into_iter()
            .map(report_from_row)
            .collect()
    }

    async fn insert_account_warning(&self, warning: &AccountWarningRecord) -> StoreResult<()> {
        account_warnings::Entity::insert(account_warnings::ActiveModel {
            id: Set(warning.id.as_i64()),
            account_id: Set(warning.account_id.map(Id::as_i64)),
            target_account_id: Set(warning.target_account_id.as_i64()),
            action: Set(warning.action.as_str().to_string()),
            text: Set(warning.text.clone()),
            report_id: Set(warning.report_id.map(Id::as_i64)),
            status_ids: Set(ids_to_json(&warning.status_ids)),
            created_at: Set(warning.created_at),
        })
        .exec_without_returning(&self.db)
        .await
        .map_err(taken("account_warning"))?;
        Ok(())
    }

    async fn account_warning_by_id(&self, id: Id) -> StoreResult<Option<AccountWarningRecord>> {
        account_warnings::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(warning_from_row)
            .transpose()
    }

    async fn admin_account_ids(
        &self,
        filter: &AdminAccountFilter,
        page: Page,
    ) -> StoreResult<Vec<Id>> {
        let mut query = accounts::Entity::find();
        QueryTrait::query(&mut query).join(
            JoinType::LeftJoin,
            users::Entity,
            Expr::col((users::Entity, users::Column::AccountId))
                .equals((accounts::Entity, accounts::Column::Id)),
        );
        let query = query.filter(admin_condition(filter));
        paging::ids(&self.db, query, accounts::Column::Id, &page)
            .await
            .map_err(backend_err)
    }

    async fn rules(&self) -> StoreResult<Vec<RuleRecord>> {
        let rows = rules::Entity::find()
            .order_by_asc(rules::Column::Position)
            .order_by_asc(rules::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(rows.into_iter().map(rule_from_row).collect())
    }

    async fn save_rule(&self, rule: &RuleRecord) -> StoreResult<()> {
        use rules::Column as C;
        rules::Entity::insert(rules::ActiveModel {
            id: Set(rule.id.as_i64()),
            text: Set(rule.text.clone()),
            hint: Set(rule.hint.clone()),
            position: Set(rule.position),
            created_at: Set(rule.created_at),
            updated_at: Set(rule.updated_at),
        })
        .on_conflict(
            OnConflict::column(C::Id)
                .update_columns([C::Text, C::Hint, C::Position, C::CreatedAt, C::UpdatedAt])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn delete_rule(&self, id: Id) -> StoreResult<bool> {
        let res = rules::Entity::delete_by_id(id.as_i64())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn setting(&self, name: &str) -> StoreResult<Option<String>> {
        Ok(settings::Entity::find_by_id(name.to_string())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(|m| m.value))
    }

    async fn set_setting(&self, name: &str, value: Option<&str>) -> StoreResult<()> {
        match value {
            Some(value) => {
                settings::Entity::insert(settings::ActiveModel {
                    name: Set(name.to_string()),
                    value: Set(value.to_string()),
                })
                .on_conflict(
                    OnConflict::column(settings::Column::Name)
                        .update_column(settings::Column::Value)
                        .to_owned(),
                )
                .exec_without_returning(&self.db)
                .await
                .map_err(backend_err)?;
            }
            None => {
                settings::Entity::delete_by_id(name.to_string())
                    .exec(&self.db)
                    .await
                    .map_err(backend_err)?;
            }
        }
        Ok(())
    }

    async fn terms_of_service(&self) -> StoreResult<Vec<TermsOfServiceRecord>> {
        let rows = terms_of_service::Entity::find()
            .order_by_desc(terms_of_service::Column::EffectiveDate)
            .order_by_desc(terms_of_service::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(rows.into_iter().map(terms_from_row).collect())
    }

    async fn save_terms_of_service(&self, terms: &TermsOfServiceRecord) -> StoreResult<()> {
        use terms_of_service::Column as C;
        terms_of_service::Entity::insert(terms_of_service::ActiveModel {
            id: Set(terms.id.as_i64()),
            text: Set(terms.text.clone()),
            changelog: Set(terms.changelog.clone()),
            effective_date: Set(terms.effective_date),
            published_at: Set(terms.published_at),
            created_at: Set(terms.created_at),
        })
        .on_conflict(
            OnConflict::column(C::Id)
                .update_columns([
                    C::Text,
                    C::Changelog,
                    C::EffectiveDate,
                    C::PublishedAt,
                    C::CreatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(taken("effective_date"))?;
        Ok(())
    }

    async fn instance_domain_blocks(&self) -> StoreResult<Vec<InstanceDomainBlockRecord>> {
        let rows = instance_domain_blocks::Entity::find()
            .order_by_desc(instance_domain_blocks::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        rows.into_iter().map(domain_block_from_row).collect()
    }

    async fn save_instance_domain_block(
        &self,
        block: &InstanceDomainBlockRecord,
    ) -> StoreResult<()> {
        use instance_domain_blocks::Column as C;
        instance_domain_blocks::Entity::insert(instance_domain_blocks::ActiveModel {
            id: Set(block.id.as_i64()),
            domain: Set(block.domain.clone()),
            severity: Set(block.severity.as_str().to_string()),
            reject_media: Set(block.reject_media),
            reject_reports: Set(block.reject_reports),
            private_comment: Set(block.private_comment.clone()),
            public_comment: Set(block.public_comment.clone()),
            obfuscate: Set(block.obfuscate),
            created_at: Set(block.created_at),
        })
        .on_conflict(
            OnConflict::column(C::Id)
                .update_columns([
                    C::Domain,
                    C::Severity,
                    C::RejectMedia,
                    C::RejectReports,
                    C::PrivateComment,
                    C::PublicComment,
                    C::Obfuscate,
                    C::CreatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(taken("domain"))?;
        Ok(())
    }

    async fn delete_instance_domain_block(&self, id: Id) -> StoreResult<bool> {
        let res = instance_domain_blocks::Entity::delete_by_id(id.as_i64())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn listed_values(&self, list: ValueList) -> StoreResult<Vec<ListedValueRecord>> {
        let rows = listed_values::Entity::find()
            .filter(listed_values::Column::List.eq(list_name(list)))
            .order_by_desc(listed_values::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(rows
            .into_iter()
            .map(|m| ListedValueRecord {
                id: Id::from_i64(m.id),
                value: m.value,
                created_at: m.created_at,
            })
            .collect())
    }

    async fn insert_listed_value(
        &self,
        list: ValueList,
        value: &ListedValueRecord,
    ) -> StoreResult<()> {
        listed_values::Entity::insert(listed_values::ActiveModel {
            id: Set(value.id.as_i64()),
            list: Set(list_name(list).to_string()),
            value: Set(value.value.clone()),
            created_at: Set(value.created_at),
        })
        .exec_without_returning(&self.db)
        .await
        .map_err(taken("value"))?;
        Ok(())
    }

    async fn delete_listed_value(&self, list: ValueList, id: Id) -> StoreResult<bool> {
        let res = listed_values::Entity::delete_many()
            .filter(listed_values::Column::Id.eq(id.as_i64()))
            .filter(listed_values::Column::List.eq(list_name(list)))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn ip_blocks(&self) -> StoreResult<Vec<IpBlockRecord>> {
        let rows = ip_blocks::Entity::find()
            .order_by_desc(ip_blocks::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        rows.into_iter().map(ip_block_from_row).collect()
    }

    async fn save_ip_block(&self, block: &IpBlockRecord) -> StoreResult<()> {
        use ip_blocks::Column as C;
        ip_blocks::Entity::insert(ip_blocks::ActiveModel {
            id: Set(block.id.as_i64()),
            ip: Set(block.ip.clone()),
            severity: Set(block.severity.as_str().to_string()),
            comment: Set(block.comment.clone()),
            created_at: Set(block.created_at),
            expires_at: Set(block.expires_at),
        })
        .on_conflict(
            OnConflict::column(C::Id)
                .update_columns([C::Ip, C::Severity, C::Comment, C::CreatedAt, C::ExpiresAt])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(taken("ip"))?;
        Ok(())
    }

    async fn delete_ip_block(&self, id: Id) -> StoreResult<bool> {
        let res = ip_blocks::Entity::delete_by_id(id.as_i64())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn user_roles(&self) -> StoreResult<Vec<UserRoleRecord>> {
        let rows = roles::Entity::find()
            .order_by_asc(roles::Column::Position)
            .order_by_asc(roles::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(rows.into_iter().map(user_role_from_row).collect())
    }

    async fn user_role_by_id(&self, id: Id) -> StoreResult<Option<UserRoleRecord>> {
        Ok(roles::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(user_role_from_row))
    }

    async fn save_user_role(&self, role: &UserRoleRecord) -> StoreResult<()> {
        use roles::Column as C;
        roles::Entity::insert(roles::ActiveModel {
            id: Set(role.id.as_i64()),
            name: Set(role.name.clone()),
            color: Set(role.color.clone()),
            permissions: Set(role.permissions as i64),
            position: Set(role.position),
            highlighted: Set(role.highlighted),
            created_at: Set(role.created_at),
            updated_at: Set(role.updated_at),
        })
        .on_conflict(
            OnConflict::column(C::Id)
                .update_columns([
                    C::Name,
                    C::Color,
                    C::Permissions,
                    C::Position,
                    C::Highlighted,
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

    async fn delete_user_role(&self, id: Id) -> StoreResult<bool> {
        let res = roles::Entity::delete_by_id(id.as_i64())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn set_trend_review(&self, review: &TrendReviewRecord) -> StoreResult<()> {
        use trend_reviews::Column as C;
        trend_reviews::Entity::insert(trend_reviews::ActiveModel {
            kind: Set(review.kind.as_str().to_string()),
            target_id: Set(review.target.as_i64()),
            trendable: Set(review.trendable),
            reviewed_at: Set(review.reviewed_at),
        })
        .on_conflict(
            OnConflict::columns([C::Kind, C::TargetId])
                .update_columns([C::Trendable, C::ReviewedAt])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn trend_reviews(
        &self,
        kind: TrendKind,
        targets: &[Id],
    ) -> StoreResult<Vec<TrendReviewRecord>> {
        if targets.is_empty() {
            return Ok(vec![]);
        }
        let wanted: std::collections::BTreeSet<i64> = targets.iter().map(|t| t.as_i64()).collect();
        let rows = trend_reviews::Entity::find()
            .filter(trend_reviews::Column::Kind.eq(kind.as_str()))
            .filter(trend_reviews::Column::TargetId.is_in(wanted))
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        rows.into_iter().map(trend_review_from_row).collect()
    }

    async fn trending_tags(
        &self,
        since: DateTime<Utc>,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<TagRecord>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        let rows = self
            .db
            .query_all(&trending_tags_query(since, offset, limit))
            .await
            .map_err(backend_err)?;
        rows.iter()
            .map(|row| {
                tags::Model::from_query_result(row, "")
                    .map(tag_from_row)
                    .map_err(backend_err)
            })
            .collect()
    }

    async fn trending_status_ids(
        &self,
        since: DateTime<Utc>,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<Id>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        let rows = self
            .db
            .query_all(&trending_statuses_query(since, offset, limit))
            .await
            .map_err(backend_err)?;
        rows.iter()
            .map(|r| {
                r.try_get_by_index::<i64>(0)
                    .map(Id::from_i64)
                    .map_err(backend_err)
            })
            .collect()
    }

    async fn trend_tag_uses(&self, since: DateTime<Utc>) -> StoreResult<Vec<TrendTagUses>> {
        super::trends::tag_uses(&self.db, since).await
    }

    async fn trend_status_candidates(
        &self,
        since: DateTime<Utc>,
    ) -> StoreResult<Vec<TrendStatusCandidate>> {
        super::trends::status_candidates(&self.db, since).await
    }
}

fn trend_review_from_row(m: trend_reviews::Model) -> StoreResult<TrendReviewRecord> {
    Ok(TrendReviewRecord {
        kind: parsed(TrendKind::parse(&m.kind), "trend_reviews.kind", &m.kind)?,
        target: Id::from_i64(m.target_id),
        trendable: m.trendable,
        reviewed_at: m.reviewed_at,
    })
}

/// `ModerationStore::trending_tags`: every column of `tags`, for the tags that the statuses
/// created at or after `since` carry, ranked by their distinct authors, then by how many
/// statuses, then newest tag; one statement. Grouped by every column of `tags` (its key among
/// them), which both engines accept.
fn trending_tags_query(since: DateTime<Utc>, offset: u64, limit: u64) -> SelectStatement {
    let tag_columns = || tags::Column::iter().map(|c| (tags::Entity, c));
    Query::select()
        .columns(tag_columns())
        .expr_as(
            Func::count_distinct(Expr::col((statuses::Entity, statuses::Column::AccountId))),
            "n_accounts",
        )
        .expr_as(
            Func::count_distinct(Expr::col((
                status_tags::Entity,
                status_tags::Column::StatusId,
            ))),
            "n_uses",
        )
        .from(status_tags::Entity)
        .join(
            JoinType::InnerJoin,
            statuses::Entity,
            Expr::col((statuses::Entity, statuses::Column::Id))
                .equals((status_tags::Entity, status_tags::Column::StatusId)),
        )
        .join(
            JoinType::InnerJoin,
            tags::Entity,
            Expr::col((tags::Entity, tags::Column::Name))
                .equals((status_tags::Entity, status_tags::Column::Name)),
        )
        .and_where(Expr::col((statuses::Entity, statuses::Column::CreatedAt)).gte(since))
        .group_by_columns(tag_columns())
        .order_by("n_accounts", Order::Desc)
        .order_by("n_uses", Order::Desc)
        .order_by((tags::Entity, tags::Column::Id), Order::Desc)
        .limit(limit)
        .offset(offset)
        .to_owned()
}

/// `ModerationStore::trending_status_ids`: the ids of the statuses that may trend, ranked by
/// the distinct accounts (the author aside) that favourited or reblogged them, then newest;
/// one statement over `favourites` and the reblogs in `statuses` (`fans`, `UNION ALL`).
fn trending_statuses_query(since: DateTime<Utc>, offset: u64, limit: u64) -> SelectStatement {
    let fans = fans_query();
    let status = |c: statuses::Column| Expr::col((statuses::Entity, c));
    let account = |c: accounts::Column| Expr::col((accounts::Entity, c));
    Query::select()
        .column((statuses::Entity, statuses::Column::Id))
        .expr_as(
            Func::count_distinct(Expr::col(("fans", "account_id"))),
            "n_accounts",
        )
        .from(statuses::Entity)
        .join(
            JoinType::InnerJoin,
            accounts::Entity,
            account(accounts::Column::Id).equals((statuses::Entity, statuses::Column::AccountId)),
        )
        .join_subquery(
            JoinType::InnerJoin,
            fans,
            "fans",
            Expr::col(("fans", "status_id")).equals((statuses::Entity, statuses::Column::Id)),
        )
        .cond_where(public_rows())
        .and_where(status(statuses::Column::InReplyToId).is_null())
        .and_where(status(statuses::Column::CreatedAt).gte(since))
        .and_where(account(accounts::Column::SuspendedAt).is_null())
        .and_where(account(accounts::Column::SilencedAt).is_null())
        .and_where(
            Expr::col(("fans", "account_id"))
                .not_equals((statuses::Entity, statuses::Column::AccountId)),
        )
        .group_by_col((statuses::Entity, statuses::Column::Id))
        .order_by("n_accounts", Order::Desc)
        .order_by((statuses::Entity, statuses::Column::Id), Order::Desc)
        .limit(limit)
        .offset(offset)
        .to_owned()
}

/// `(account_id, status_id)` of every favourite and every reblog (`UNION ALL`): who gave a status
/// attention, which the trending statuses count by distinct account.
pub(super) fn fans_query() -> SelectStatement {
    let mut fans = Query::select()
        .expr_as(Expr::col(favourites::Column::AccountId), "account_id")
        .expr_as(Expr::col(favourites::Column::StatusId), "status_id")
        .from(favourites::Entity)
        .to_owned();
    let reblogs = Query::select()
        .expr_as(
            Expr::col(("reblogs", statuses::Column::AccountId)),
            "account_id",
        )
        .expr_as(
            Expr::col(("reblogs", statuses::Column::ReblogOfId)),
            "status_id",
        )
        .from_as(statuses::Entity, "reblogs")
        .and_where(Expr::col(("reblogs", statuses::Column::ReblogOfId)).is_not_null())
        .to_owned();
    fans.union(UnionType::All, reblogs);
    fans
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, TimeZone, Utc};
    use fedblog_core::pagination::Page;
    use fedblog_core::store::{
        AccountOrigin, AccountRecord, AccountStore, AccountWarningRecord, AdminAccountFilter,
        AdminAccountStatus, DomainBlockSeverity, InstanceDomainBlockRecord, IpBlockRecord,
        IpBlockSeverity, ListedValueRecord, ModerationStore, ReportCategory, ReportFilter,
        ReportRecord, Role, RuleRecord, TermsOfServiceRecord, UserRecord, ValueList, WarningAction,
    };
    use fedblog_core::{Id, StoreError, StoreResult};

    use crate::store::{ConnectSettings, SeaStore, connect};

    async fn sqlite() -> SeaStore {
        let store = connect("sqlite::memory:", &ConnectSettings::default())
            .await
            .expect("connect");
        store.migrate().await.expect("migrate");
        store
    }

    fn at(secs: i64) -> chrono::DateTime<Utc> {
        Utc.timestamp_opt(1_700_000_000 + secs, 0).unwrap()
    }

    fn ids(raw: &[i64]) -> Vec<Id> {
        raw.iter().copied().map(Id::from_i64).collect()
    }

    /// The field an `AlreadyExists` names; `None` for any other result.
    fn taken_field(res: StoreResult<()>) -> Option<String> {
        match res {
            Err(StoreError::AlreadyExists(field)) => Some(field),
            _ => None,
        }
    }

    /// A local account with its login.
    async fn local(
        store: &SeaStore,
        id: i64,
        username: &str,
        email: &str,
        user: (Role, bool, bool),
    ) {
        let (role, approved, disabled) = user;
        let account = AccountRecord::new_local(Id::from_i64(id), username, at(id));
        let user = UserRecord {
            account_id: Id::from_i64(id),
            email: email.into(),
            password_hash: "x".into(),
            role,
            confirmed_at: Some(at(id)),
            confirmation_token_hash: None,
            approved,
            disabled,
            locale: "en".into(),
            created_at: at(id),
        };
        store
            .insert_local_account(&account, &user)
            .await
            .expect("local account");
    }

    async fn remote(store: &SeaStore, id: i64, username: &str, domain: &str) -> AccountRecord {
        let mut account = AccountRecord::new_local(Id::from_i64(id), username, at(id));
        account.domain = Some(domain.into());
        account.uri = Some(format!("https://{domain}/users/{username}"));
        store
            .insert_remote_account(&account)
            .await
            .expect("remote account");
        account
    }

    /// Six accounts: 1 an approved admin, 2 waiting for approval, 3 a disabled moderator
    /// (locals); 4 silenced, 5 suspended and sensitized, 6 active (remotes).
    async fn population(store: &SeaStore) {
        local(
            store,
            1,
            "Alice",
            "Alice@Example.com",
            (Role::Admin, true, false),
        )
        .await;
        local(
            store,
            2,
            "bob",
            "bob@example.org",
            (Role::User, false, false),
        )
        .await;
        local(
            store,
            3,
            "carol",
            "carol@example.com",
            (Role::Moderator, true, true),
        )
        .await;
        let mut dave = remote(store, 4, "dave", "Remote.Example").await;
        dave.silenced_at = Some(at(10));
        store.update_account(&dave).await.expect("silence");
        let mut eve = remote(store, 5, "eve", "other.example").await;
        eve.suspended_at = Some(at(11));
        eve.sensitized_at = Some(at(11));
        store.update_account(&eve).await.expect("suspend");
        let mut frank = remote(store, 6, "frank_x", "remote.example").await;
        frank.display_name = "100% Real Frank".into();
        store.update_account(&frank).await.expect("rename");
        let mut alice = store
            .account_by_id(Id::from_i64(1))
            .await
            .expect("read")
            .expect("alice");
        alice.display_name = "Alice Liddell".into();
        store.update_account(&alice).await.expect("rename");
    }

    async fn listed(store: &SeaStore, filter: AdminAccountFilter) -> Vec<Id> {
        store
            .admin_account_ids(&filter, Page::first(40))
            .await
            .expect("admin accounts")
    }

    #[tokio::test]
    async fn admin_accounts_filters() {
        let store = sqlite().await;
        population(&store).await;
        let all = AdminAccountFilter::default;
        assert_eq!(listed(&store, all()).await, ids(&[6, 5, 4, 3, 2, 1]));
        let origin = |o| AdminAccountFilter {
            origin: Some(o),
            ..all()
        };
        assert_eq!(
            listed(&store, origin(AccountOrigin::Local)).await,
            ids(&[3, 2, 1])
        );
        assert_eq!(
            listed(&store, origin(AccountOrigin::Remote)).await,
            ids(&[6, 5, 4])
        );
        for (status, want) in [
            (AdminAccountStatus::Active, ids(&[6, 1])),
            (AdminAccountStatus::Pending, ids(&[2])),
            (AdminAccountStatus::Disabled, ids(&[3])),
            (AdminAccountStatus::Silenced, ids(&[4])),
            (AdminAccountStatus::Suspended, ids(&[5])),
            (AdminAccountStatus::Sensitized, ids(&[5])),
        ] {
            let filter = AdminAccountFilter {
                status: Some(status),
                ..all()
            };
            assert_eq!(listed(&store, filter).await, want, "{status:?}");
        }
        let roles = |r: &[&str]| AdminAccountFilter {
            roles: r.iter().map(|s| s.to_string()).collect(),
            ..all()
        };
        assert_eq!(listed(&store, roles(&["admin"])).await, ids(&[1]));
        assert_eq!(
            listed(&store, roles(&["user", "moderator"])).await,
            ids(&[3, 2])
        );
        assert_eq!(listed(&store, roles(&["owner"])).await, ids(&[]));
        let domain = |d: &str| AdminAccountFilter {
            by_domain: Some(d.into()),
            ..all()
        };
        assert_eq!(listed(&store, domain("remote.example")).await, ids(&[6, 4]));
        assert_eq!(listed(&store, domain("example.com")).await, ids(&[]));
        // Case-insensitive "contains", the LIKE wildcards taken literally.
        let username = |u: &str| AdminAccountFilter {
            username: Some(u.into()),
            ..all()
        };
        assert_eq!(listed(&store, username("LI")).await, ids(&[1]));
        assert_eq!(listed(&store, username("_")).await, ids(&[6]));
        assert_eq!(listed(&store, username("%")).await, ids(&[]));
        let name = |n: &str| AdminAccountFilter {
            display_name: Some(n.into()),
            ..all()
        };
        assert_eq!(listed(&store, name("liddELL")).await, ids(&[1]));
        assert_eq!(listed(&store, name("0%")).await, ids(&[6]));
        assert_eq!(listed(&store, name("e_l")).await, ids(&[]));
        let email = |e: &str| AdminAccountFilter {
            email: Some(e.into()),
            ..all()
        };
        assert_eq!(listed(&store, email("EXAMPLE.com")).await, ids(&[3, 1]));
        assert_eq!(listed(&store, email("example")).await, ids(&[3, 2, 1]));
        // Every set field must hold.
        let local_active = AdminAccountFilter {
            origin: Some(AccountOrigin::Local),
            status: Some(AdminAccountStatus::Active),
            email: Some("example".into()),
            ..all()
        };
        assert_eq!(listed(&store, local_active).await, ids(&[1]));
        let remote_active = AdminAccountFilter {
            origin: Some(AccountOrigin::Remote),
            status: Some(AdminAccountStatus::Active),
            ..all()
        };
        assert_eq!(listed(&store, remote_active).await, ids(&[6]));
    }

    #[tokio::test]
    async fn admin_accounts_pages() {
        let store = sqlite().await;
        population(&store).await;
        let page = |max: Option<i64>, since: Option<i64>, min: Option<i64>| Page {
            max_id: max.map(Id::from_i64),
            since_id: since.map(Id::from_i64),
            min_id: min.map(Id::from_i64),
            limit: 2,
        };
        let all = AdminAccountFilter::default();
        for (p, want) in [
            (page(None, None, None), ids(&[6, 5])),
            (page(Some(5), None, None), ids(&[4, 3])),
            (page(Some(2), None, None), ids(&[1])),
            (page(None, Some(3), None), ids(&[6, 5])),
            (page(None, None, Some(2)), ids(&[4, 3])),
            (page(Some(6), None, Some(3)), ids(&[5, 4])),
            (page(Some(4), Some(3), None), ids(&[])),
        ] {
            let got = store.admin_account_ids(&all, p).await.expect("page");
            assert_eq!(got, want, "{p:?}");
        }
        let local = AdminAccountFilter {
            origin: Some(AccountOrigin::Local),
            ..AdminAccountFilter::default()
        };
        let got = store
            .admin_account_ids(&local, page(None, None, Some(1)))
            .await
            .expect("page");
        assert_eq!(got, ids(&[3, 2]));
    }

    fn report(id: i64, account: i64, target: i64) -> ReportRecord {
        ReportRecord {
            id: Id::from_i64(id),
            account_id: Id::from_i64(account),
            target_account_id: Id::from_i64(target),
            status_ids: ids(&[30, 10, 20]),
            rule_ids: ids(&[7]),
            comment: "spam, spam, spam".into(),
            category: ReportCategory::Violation,
            forwarded: false,
            uri: None,
            assigned_account_id: None,
            action_taken_at: None,
            action_taken_by_account_id: None,
            created_at: at(id),
            updated_at: at(id),
        }
    }

    async fn report_ids(store: &SeaStore, filter: ReportFilter) -> Vec<Id> {
        store
            .reports(&filter, Page::first(40))
            .await
            .expect("reports")
            .into_iter()
            .map(|r| r.id)
            .collect()
    }

    #[tokio::test]
    async fn reports_round_trip_and_filter() {
        let store = sqlite().await;
        for r in [report(1, 10, 20), report(2, 11, 20), report(3, 10, 21)] {
            store.insert_report(&r).await.expect("insert");
        }
        let again = store.insert_report(&report(1, 12, 22)).await;
        assert_eq!(taken_field(again).as_deref(), Some("report"));
        let first = store.report_by_id(Id::from_i64(1)).await.expect("read");
        assert_eq!(first, Some(report(1, 10, 20)));
        let mut resolved = report(2, 11, 20);
        resolved.action_taken_at = Some(at(50));
        resolved.action_taken_by_account_id = Some(Id::from_i64(1));
        resolved.assigned_account_id = Some(Id::from_i64(1));
        resolved.category = ReportCategory::Spam;
        resolved.forwarded = true;
        resolved.uri = Some("https://remote.example/flags/1".into());
        store.update_report(&resolved).await.expect("update");
        let read = store.report_by_id(Id::from_i64(2)).await.expect("read");
        assert_eq!(read, Some(resolved));
        let missing = store.update_report(&report(9, 1, 2)).await;
        assert!(matches!(missing, Err(StoreError::NotFound)), "{missing:?}");
        assert_eq!(
            report_ids(&store, ReportFilter::default()).await,
            ids(&[3, 1])
        );
        let open_about_20 = ReportFilter {
            target_account_id: Some(Id::from_i64(20)),
            ..ReportFilter::default()
        };
        assert_eq!(report_ids(&store, open_about_20).await, ids(&[1]));
        let by_10 = ReportFilter {
            account_id: Some(Id::from_i64(10)),
            ..ReportFilter::default()
        };
        assert_eq!(report_ids(&store, by_10).await, ids(&[3, 1]));
        let done = ReportFilter {
            resolved: true,
            ..ReportFilter::default()
        };
        assert_eq!(report_ids(&store, done).await, ids(&[2]));
        let page = Page {
            min_id: Some(Id::from_i64(1)),
            ..Page::first(1)
        };
        let above_1 = store.reports(&ReportFilter::default(), page).await;
        assert_eq!(
            above_1
                .expect("page")
                .iter()
                .map(|r| r.id)
                .collect::<Vec<_>>(),
            ids(&[3])
        );
    }

    #[tokio::test]
    async fn account_warnings_round_trip() {
        let store = sqlite().await;
        let warning = AccountWarningRecord {
            id: Id::from_i64(5),
            account_id: None,
            target_account_id: Id::from_i64(9),
            action: WarningAction::MarkStatusesAsSensitive,
            text: "careful".into(),
            report_id: Some(Id::from_i64(2)),
            status_ids: ids(&[12, 11]),
            created_at: at(5),
        };
        store
            .insert_account_warning(&warning)
            .await
            .expect("insert");
        let read = store
            .account_warning_by_id(Id::from_i64(5))
            .await
            .expect("read");
        assert_eq!(read, Some(warning));
        let none = store
            .account_warning_by_id(Id::from_i64(6))
            .await
            .expect("read");
        assert_eq!(none, None);
    }

    #[tokio::test]
    async fn domain_blocks_are_unique_per_domain() {
        let store = sqlite().await;
        let block = |id: i64, domain: &str, severity| InstanceDomainBlockRecord {
            id: Id::from_i64(id),
            domain: domain.into(),
            severity,
            reject_media: false,
            reject_reports: true,
            private_comment: Some("note".into()),
            public_comment: None,
            obfuscate: false,
            created_at: at(id),
        };
        let first = block(1, "bad.example", DomainBlockSeverity::Silence);
        store
            .save_instance_domain_block(&first)
            .await
            .expect("save");
        let twice = block(2, "bad.example", DomainBlockSeverity::Noop);
        let res = store.save_instance_domain_block(&twice).await;
        assert_eq!(taken_field(res).as_deref(), Some("domain"));
        // Replaced by id.
        let harder = block(1, "bad.example", DomainBlockSeverity::Suspend);
        store
            .save_instance_domain_block(&harder)
            .await
            .expect("replace");
        let other = block(3, "worse.example", DomainBlockSeverity::Noop);
        store
            .save_instance_domain_block(&other)
            .await
            .expect("save");
        let moved = block(3, "bad.example", DomainBlockSeverity::Noop);
        let res = store.save_instance_domain_block(&moved).await;
        assert_eq!(taken_field(res).as_deref(), Some("domain"));
        let all = store.instance_domain_blocks().await.expect("list");
        assert_eq!(all, vec![other, harder]);
        let deleted = store.delete_instance_domain_block(Id::from_i64(1)).await;
        assert!(deleted.expect("delete"));
        let again = store.delete_instance_domain_block(Id::from_i64(1)).await;
        assert!(!again.expect("delete again"));
        assert_eq!(store.instance_domain_blocks().await.expect("list").len(), 1);
    }

    #[tokio::test]
    async fn ip_blocks_are_unique_per_range() {
        let store = sqlite().await;
        let block = |id: i64, ip: &str| IpBlockRecord {
            id: Id::from_i64(id),
            ip: ip.into(),
            severity: IpBlockSeverity::SignUpBlock,
            comment: String::new(),
            created_at: at(id),
            expires_at: Some(at(1000)),
        };
        store
            .save_ip_block(&block(1, "192.0.2.0/24"))
            .await
            .expect("save");
        let res = store.save_ip_block(&block(2, "192.0.2.0/24")).await;
        assert_eq!(taken_field(res).as_deref(), Some("ip"));
        let mut changed = block(1, "2001:db8::/32");
        changed.severity = IpBlockSeverity::NoAccess;
        changed.expires_at = None;
        store.save_ip_block(&changed).await.expect("replace");
        store
            .save_ip_block(&block(2, "192.0.2.0/24"))
            .await
            .expect("freed");
        let all = store.ip_blocks().await.expect("list");
        assert_eq!(all, vec![block(2, "192.0.2.0/24"), changed]);
        assert!(
            store
                .delete_ip_block(Id::from_i64(2))
                .await
                .expect("delete")
        );
        assert!(!store.delete_ip_block(Id::from_i64(2)).await.expect("again"));
    }

    #[tokio::test]
    async fn terms_of_service_one_per_date() {
        let store = sqlite().await;
        let terms = |id: i64, day: u32| TermsOfServiceRecord {
            id: Id::from_i64(id),
            text: format!("terms {id}"),
            changelog: String::new(),
            effective_date: NaiveDate::from_ymd_opt(2025, 3, day).expect("date"),
            published_at: None,
            created_at: at(id),
        };
        store
            .save_terms_of_service(&terms(1, 1))
            .await
            .expect("save");
        store
            .save_terms_of_service(&terms(2, 20))
            .await
            .expect("save");
        let res = store.save_terms_of_service(&terms(3, 1)).await;
        assert_eq!(taken_field(res).as_deref(), Some("effective_date"));
        let mut published = terms(1, 25);
        published.published_at = Some(at(99));
        store
            .save_terms_of_service(&published)
            .await
            .expect("replace");
        let all = store.terms_of_service().await.expect("list");
        assert_eq!(all, vec![published, terms(2, 20)]);
    }

    #[tokio::test]
    async fn listed_values_are_unique_per_list() {
        let store = sqlite().await;
        let value = |id: i64, v: &str| ListedValueRecord {
            id: Id::from_i64(id),
            value: v.into(),
            created_at: at(id),
        };
        let blocks = ValueList::EmailDomainBlocks;
        let allows = ValueList::DomainAllows;
        for v in [value(1, "spam.example"), value(2, "junk.example")] {
            store.insert_listed_value(blocks, &v).await.expect("add");
        }
        let res = store
            .insert_listed_value(blocks, &value(3, "spam.example"))
            .await;
        assert_eq!(taken_field(res).as_deref(), Some("value"));
        // The same value in another list.
        let elsewhere = value(4, "spam.example");
        store
            .insert_listed_value(allows, &elsewhere)
            .await
            .expect("other list");
        let listed = store.listed_values(blocks).await.expect("list");
        assert_eq!(
            listed,
            vec![value(2, "junk.example"), value(1, "spam.example")]
        );
        assert_eq!(
            store.listed_values(allows).await.expect("list"),
            vec![elsewhere]
        );
        let hashes = store.listed_values(ValueList::CanonicalEmailBlocks).await;
        assert!(hashes.expect("list").is_empty());
        // Deleting by id removes only from the list named.
        let wrong_list = store.delete_listed_value(allows, Id::from_i64(1)).await;
        assert!(!wrong_list.expect("delete"));
        assert!(
            store
                .delete_listed_value(blocks, Id::from_i64(1))
                .await
                .expect("delete")
        );
        assert_eq!(store.listed_values(blocks).await.expect("list").len(), 1);
    }

    #[tokio::test]
    async fn rules_and_settings() {
        let store = sqlite().await;
        let rule = |id: i64, position: i32| RuleRecord {
            id: Id::from_i64(id),
            text: format!("rule {id}"),
            hint: String::new(),
            position,
            created_at: at(id),
            updated_at: at(id),
        };
        for r in [rule(1, 2), rule(2, 1), rule(3, 2)] {
            store.save_rule(&r).await.expect("save");
        }
        let mut moved = rule(3, 0);
        moved.hint = "why".into();
        store.save_rule(&moved).await.expect("replace");
        let all = store.rules().await.expect("rules");
        assert_eq!(all, vec![moved, rule(2, 1), rule(1, 2)]);
        assert!(store.delete_rule(Id::from_i64(2)).await.expect("delete"));
        assert!(!store.delete_rule(Id::from_i64(2)).await.expect("again"));
        assert_eq!(store.rules().await.expect("rules").len(), 2);

        let name = "site_contact_email";
        assert_eq!(store.setting(name).await.expect("read"), None);
        store.set_setting(name, Some("a")).await.expect("set");
        store.set_setting(name, Some("b")).await.expect("set again");
        assert_eq!(
            store.setting(name).await.expect("read").as_deref(),
            Some("b")
        );
        store.set_setting(name, None).await.expect("unset");
        store.set_setting(name, None).await.expect("unset again");
        assert_eq!(store.setting(name).await.expect("read"), None);
    }

    #[tokio::test]
    async fn offered_through_the_account_store() {
        let store = sqlite().await;
        let offered = AccountStore::moderation(&store).expect("offered");
        assert!(offered.rules().await.expect("rules").is_empty());
    }
}
