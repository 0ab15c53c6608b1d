//! `TagStore` for `SeaStore`: hashtags, their use in statuses, tag follows and featured tags.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    FeaturedTagRecord, TagRecord, TagReview, TagStore, TagUsage, Visibility,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait, Func, JoinType, OnConflict, Order, Query};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use super::entity::{featured_tags, status_tags, statuses, tag_follows, tags};
use super::pairs::Pair;
use super::{SeaStore, backend_err, paging};

pub(super) fn tag_from_row(m: tags::Model) -> TagRecord {
    TagRecord {
        id: Id::from_i64(m.id),
        name: m.name,
        display_name: m.display_name,
        created_at: m.created_at,
        review: TagReview {
            trendable: m.trendable,
            usable: m.usable,
            listable: m.listable,
            reviewed_at: m.reviewed_at,
        },
    }
}

fn featured_from_row(m: featured_tags::Model) -> FeaturedTagRecord {
    FeaturedTagRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.account_id),
        tag_id: Id::from_i64(m.tag_id),
        name: m.name,
        created_at: m.created_at,
    }
}

/// A tag follow: one per account and tag.
const FOLLOWED_TAG: Pair<tag_follows::Column> = Pair {
    owner: tag_follows::Column::AccountId,
    other: tag_follows::Column::TagId,
};

/// The visibilities whose statuses featured-tag figures count.
const LISTED: [Visibility; 2] = [Visibility::Public, Visibility::Unlisted];

/// `statuses` rows carrying the tag `name` (a correlated `EXISTS` on `status_tags`' primary key).
fn carries_tag(name: &str) -> sea_orm::sea_query::SimpleExpr {
    Expr::exists(
        Query::select()
            .expr(Expr::val(1))
            .from(status_tags::Entity)
            .and_where(
                Expr::col((status_tags::Entity, status_tags::Column::StatusId))
                    .equals((statuses::Entity, statuses::Column::Id)),
            )
            .and_where(status_tags::Column::Name.eq(name))
            .to_owned(),
    )
}

/// The least string above every string that starts with `prefix`, in code point order (which is
/// UTF-8 byte order): `prefix` without its trailing U+10FFFF characters, the last remaining one
/// incremented (over the surrogate gap). `None` when there is none (`prefix` is empty or all
/// U+10FFFF): then every string `>= prefix` starts with it. So a string starts with `prefix`
/// exactly when `prefix <= s < bound`, for any Unicode `prefix`.
pub(super) fn prefix_upper_bound(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match last {
            '\u{D7FF}' => Some('\u{E000}'),
            c => char::from_u32(u32::from(c) + 1),
        };
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// Joins `status_tags` rows to the statuses carrying them.
fn tagging_status() -> sea_orm::sea_query::SimpleExpr {
    Expr::col((statuses::Entity, statuses::Column::Id))
        .equals((status_tags::Entity, status_tags::Column::StatusId))
}

impl SeaStore {
    async fn tag_row_by_name(&self, name: &str) -> StoreResult<Option<TagRecord>> {
        Ok(tags::Entity::find()
            .filter(tags::Column::Name.eq(name))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(tag_from_row))
    }
}

#[async_trait]
impl TagStore for SeaStore {
    async fn find_or_create_tag(&self, tag: &TagRecord) -> StoreResult<TagRecord> {
        let row = tags::ActiveModel {
            id: Set(tag.id.as_i64()),
            name: Set(tag.name.clone()),
            display_name: Set(tag.display_name.clone()),
            created_at: Set(tag.created_at),
            trendable: Set(tag.review.trendable),
            usable: Set(tag.review.usable),
            listable: Set(tag.review.listable),
            reviewed_at: Set(tag.review.reviewed_at),
        };
        // A concurrent insert of the same name makes this one do nothing (PostgreSQL waits for
        // the other transaction first); the select then reads the winner's row.
        let inserted = tags::Entity::insert(row)
            .on_conflict(
                OnConflict::column(tags::Column::Name)
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err);
        match inserted {
            Ok(_) => {}
            // The id is another tag's: the name may still be known (as the memory store checks
            // the name first); otherwise the id is the conflict.
            Err(StoreError::AlreadyExists(_)) => {
                return self
                    .tag_row_by_name(&tag.name)
                    .await?
                    .ok_or_else(|| StoreError::AlreadyExists("tag".into()));
            }
            Err(e) => return Err(e),
        }
        self.tag_row_by_name(&tag.name)
            .await?
            .ok_or_else(|| StoreError::Backend(format!("tag {:?} vanished after insert", tag.name)))
    }

    async fn tag_by_name(&self, name: &str) -> StoreResult<Option<TagRecord>> {
        self.tag_row_by_name(name).await
    }

    async fn tag_by_id(&self, id: Id) -> StoreResult<Option<TagRecord>> {
        Ok(tags::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(tag_from_row))
    }

    async fn tags_page(&self, page: Page) -> StoreResult<Vec<TagRecord>> {
        let rows = paging::apply(tags::Entity::find(), tags::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(rows, &page)
            .into_iter()
            .map(tag_from_row)
            .collect())
    }

    async fn update_tag(&self, tag: &TagRecord) -> StoreResult<bool> {
        let changed = tags::Entity::update_many()
            .col_expr(
                tags::Column::DisplayName,
                Expr::value(tag.display_name.clone()),
            )
            .col_expr(tags::Column::Trendable, Expr::value(tag.review.trendable))
            .col_expr(tags::Column::Usable, Expr::value(tag.review.usable))
            .col_expr(tags::Column::Listable, Expr::value(tag.review.listable))
            .col_expr(
                tags::Column::ReviewedAt,
                Expr::value(tag.review.reviewed_at),
            )
            .filter(tags::Column::Id.eq(tag.id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(changed.rows_affected > 0)
    }

    async fn tags_by_prefix(
        &self,
        prefix: &str,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<TagRecord>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        // A range on the name rather than `LIKE` (whose `_` is a wildcard, and tag names have
        // `_`), compared and ordered in code point order as the memory store does. SQLite's
        // `tags.name` has the BINARY collation (memcmp of UTF-8: code point order), so the
        // range uses `ux_tags_name`. PostgreSQL compares by the column's (the database's)
        // collation, which need not be byte order, so the name is compared and sorted
        // `COLLATE "C"`: correct on any database; the index `ix_tags_name_c` on
        // `(name COLLATE "C")` (migration m0024) serves the range.
        let name = match self.db.get_database_backend() {
            DbBackend::Postgres => Expr::cust(r#""tags"."name" COLLATE "C""#),
            _ => Expr::col((tags::Entity, tags::Column::Name)),
        };
        let mut q = tags::Entity::find().filter(name.clone().gte(prefix));
        if let Some(bound) = prefix_upper_bound(prefix) {
            q = q.filter(name.clone().lt(bound));
        }
        // `LENGTH` of text counts characters on both engines.
        Ok(q.order_by_asc(Expr::cust(r#"LENGTH("tags"."name")"#))
            .order_by_asc(name)
            .offset(std::cmp::min(offset, i64::MAX as u64))
            .limit(std::cmp::min(limit, i64::MAX as u64))
            .all(&self.db)
            .await
            .map_err(backend_err)?
            .into_iter()
            .map(tag_from_row)
            .collect())
    }

    async fn tag_usage(
        &self,
        name: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<TagUsage> {
        let q = Query::select()
            .expr(Func::count_distinct(Expr::col((
                status_tags::Entity,
                status_tags::Column::StatusId,
            ))))
            .expr(Func::count_distinct(Expr::col((
                statuses::Entity,
                statuses::Column::AccountId,
            ))))
            .from(status_tags::Entity)
            .join(JoinType::InnerJoin, statuses::Entity, tagging_status())
            .and_where(Expr::col((status_tags::Entity, status_tags::Column::Name)).eq(name))
            .and_where(Expr::col((statuses::Entity, statuses::Column::CreatedAt)).gte(from))
            .and_where(Expr::col((statuses::Entity, statuses::Column::CreatedAt)).lt(to))
            .to_owned();
        let Some(row) = self.db.query_one(&q).await.map_err(backend_err)? else {
            return Ok(TagUsage::default());
        };
        Ok(TagUsage {
            uses: row.try_get_by_index::<i64>(0).map_err(backend_err)?,
            accounts: row.try_get_by_index::<i64>(1).map_err(backend_err)?,
        })
    }

    async fn follow_tag(&self, id: Id, account: Id, tag_id: Id) -> StoreResult<()> {
        let row = tag_follows::ActiveModel {
            id: Set(id.as_i64()),
            account_id: Set(account.as_i64()),
            tag_id: Set(tag_id.as_i64()),
            created_at: Set(Utc::now()),
        };
        FOLLOWED_TAG.insert(&self.db, row).await.map(|_| ())
    }

    async fn unfollow_tag(&self, account: Id, tag_id: Id) -> StoreResult<bool> {
        FOLLOWED_TAG
            .delete(&self.db, account, tag_id.as_i64())
            .await
    }

    async fn follows_tag(&self, account: Id, tag_id: Id) -> StoreResult<bool> {
        FOLLOWED_TAG
            .exists(&self.db, account, tag_id.as_i64())
            .await
    }

    async fn followed_tags_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<(Id, TagRecord)>> {
        let q =
            tag_follows::Entity::find().filter(tag_follows::Column::AccountId.eq(account.as_i64()));
        let rows: Vec<(i64, i64)> = paging::apply(q, tag_follows::Column::Id, &page)
            .select_only()
            .column(tag_follows::Column::Id)
            .column(tag_follows::Column::TagId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        let rows = paging::finish(rows, &page);
        let tags: std::collections::HashMap<i64, TagRecord> = tags::Entity::find()
            .filter(tags::Column::Id.is_in(rows.iter().map(|(_, tag)| *tag)))
            .all(&self.db)
            .await
            .map_err(backend_err)?
            .into_iter()
            .map(|m| (m.id, tag_from_row(m)))
            .collect();
        Ok(rows
            .into_iter()
            .filter_map(|(follow_id, tag)| Some((Id::from_i64(follow_id), tags.get(&tag)?.clone())))
            .collect())
    }

    async fn insert_featured_tag(&self, tag: &FeaturedTagRecord) -> StoreResult<()> {
        let row = featured_tags::ActiveModel {
            id: Set(tag.id.as_i64()),
            account_id: Set(tag.account_id.as_i64()),
            tag_id: Set(tag.tag_id.as_i64()),
            name: Set(tag.name.clone()),
            created_at: Set(tag.created_at),
        };
        featured_tags::Entity::insert(row)
            .exec_without_returning(&self.db)
            .await
            .map_err(|e| match backend_err(e) {
                // The (account, tag) pair or the id: both are the featured tag existing already.
                StoreError::AlreadyExists(_) => StoreError::AlreadyExists("featured_tag".into()),
                other => other,
            })?;
        Ok(())
    }

    async fn delete_featured_tag(&self, account: Id, id: Id) -> StoreResult<bool> {
        // By its id, and only the account's own.
        let own = Pair {
            owner: featured_tags::Column::AccountId,
            other: featured_tags::Column::Id,
        };
        own.delete(&self.db, account, id.as_i64()).await
    }

    async fn featured_tags(&self, account: Id) -> StoreResult<Vec<FeaturedTagRecord>> {
        Ok(featured_tags::Entity::find()
            .filter(featured_tags::Column::AccountId.eq(account.as_i64()))
            .order_by_asc(featured_tags::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?
            .into_iter()
            .map(featured_from_row)
            .collect())
    }

    async fn account_tag_stats(
        &self,
        account: Id,
        name: &str,
    ) -> StoreResult<(i64, Option<DateTime<Utc>>)> {
        let tagged = || {
            statuses::Entity::find()
                .filter(statuses::Column::AccountId.eq(account.as_i64()))
                .filter(statuses::Column::Visibility.is_in(LISTED.map(|v| v.as_str())))
                .filter(carries_tag(name))
        };
        let count = tagged().count(&self.db).await.map_err(backend_err)?;
        if count == 0 {
            return Ok((0, None));
        }
        let newest: Option<DateTime<Utc>> = tagged()
            .select_only()
            .column(statuses::Column::CreatedAt)
            .order_by_desc(statuses::Column::CreatedAt)
            .limit(1)
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok((count as i64, newest))
    }

    async fn most_used_tags(
        &self,
        account: Id,
        since: DateTime<Utc>,
        limit: u64,
    ) -> StoreResult<Vec<String>> {
        let name = Expr::col((status_tags::Entity, status_tags::Column::Name));
        let q = Query::select()
            .expr(name.clone())
            .expr_as(
                Expr::col((status_tags::Entity, status_tags::Column::StatusId)).count(),
                "n",
            )
            .from(status_tags::Entity)
            .join(JoinType::InnerJoin, statuses::Entity, tagging_status())
            .and_where(
                Expr::col((statuses::Entity, statuses::Column::AccountId)).eq(account.as_i64()),
            )
            .and_where(Expr::col((statuses::Entity, statuses::Column::CreatedAt)).gte(since))
            .group_by_col((status_tags::Entity, status_tags::Column::Name))
            .order_by("n", Order::Desc)
            .order_by((status_tags::Entity, status_tags::Column::Name), Order::Asc)
            .limit(limit)
            .to_owned();
        let mut rows: Vec<(String, i64)> = self
            .db
            .query_all(&q)
            .await
            .map_err(backend_err)?
            .iter()
            .map(|r| {
                Ok((
                    r.try_get_by_index::<String>(0).map_err(backend_err)?,
                    r.try_get_by_index::<i64>(1).map_err(backend_err)?,
                ))
            })
            .collect::<StoreResult<_>>()?;
        // Ties by byte order whatever the database's collation.
        rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(rows.into_iter().map(|(name, _)| name).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::prefix_upper_bound;

    /// Whether `name` is in the range `[prefix, prefix_upper_bound(prefix))`.
    fn in_range(prefix: &str, name: &str) -> bool {
        name >= prefix && prefix_upper_bound(prefix).is_none_or(|b| name < b.as_str())
    }

    #[test]
    fn the_range_holds_exactly_the_names_starting_with_the_prefix() {
        let names = [
            "",
            "a",
            "b",
            "ca",
            "ca_",
            "cat",
            "cat_pics",
            "cau",
            "caz",
            "c\u{10FFFF}",
            "\u{D7FF}",
            "\u{D7FF}x",
            "\u{E000}",
            "ü",
            "ün",
            "ünïcode",
            "üo",
            "\u{10FFFF}",
            "\u{10FFFF}\u{10FFFF}",
            "a\u{10FFFF}",
            "a\u{10FFFF}z",
            "b\u{0}",
        ];
        for prefix in names {
            for name in names {
                assert_eq!(
                    in_range(prefix, name),
                    name.starts_with(prefix),
                    "prefix {prefix:?}, name {name:?}"
                );
            }
        }
        assert_eq!(prefix_upper_bound(""), None);
        assert_eq!(prefix_upper_bound("cat").as_deref(), Some("cau"));
        assert_eq!(prefix_upper_bound("a\u{10FFFF}").as_deref(), Some("b"));
        assert_eq!(prefix_upper_bound("\u{D7FF}").as_deref(), Some("\u{E000}"));
        assert_eq!(prefix_upper_bound("\u{10FFFF}"), None);
    }
}
