//! Trends as staff review them (`/api/v1/admin/trends/*`): the hashtags and statuses in use this
//! week, ranked, reviewed or not, and what staff decide about each (may it trend or not).
//!
//! The ranking is a stand-in, served over what exists today: a hashtag ranks by the distinct
//! accounts that used it in the last [`TREND_DAYS`] days (then by its uses, then newest tag
//! first), a status by the distinct accounts that favourited or reblogged it (then newest
//! first), among the public statuses of the last [`TREND_DAYS`] days that are neither replies
//! nor reblogs and whose authors are neither suspended nor silenced. Scoring use against its
//! expected level, with decay, is issue 28's. A hashtag keeps its review on the tag
//! ([`Tags::review_tag`]); a status's review is a [`TrendReviewRecord`] in the moderation store.
//! Links and publishers need preview cards, which fedblog does not make yet (issue 28).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::services::tags::{TagChanges, TagView, Tags};
use crate::store::{
    ModerationStore, StatusRecord, StatusStore, Store, TrendKind, TrendReviewRecord, Visibility,
};

/// How many days of use the rankings count.
pub const TREND_DAYS: i64 = 7;

/// A status as staff see it among trends, loaded for render.
#[derive(Clone, Debug)]
pub struct TrendStatusView {
    /// The status.
    pub status: StatusRecord,
    /// Staff have not decided yet whether it may trend.
    pub requires_review: bool,
}

/// The trends area: `app.trends()`. It holds the moderation store (rankings and reviews), the
/// status store and the tags area (a hashtag's review and its week of use).
pub struct Trends<'a> {
    moderation: Option<&'a dyn ModerationStore>,
    statuses: &'a dyn StatusStore,
    tags: Tags<'a>,
    now: DateTime<Utc>,
}

impl<'a> Trends<'a> {
    /// The area over `store`, reviewing hashtags through `tags`, at `now`.
    pub fn new(store: &'a dyn Store, tags: Tags<'a>, now: DateTime<Utc>) -> Self {
        Trends {
            moderation: store.moderation(),
            statuses: store,
            tags,
            now,
        }
    }

    /// The moderation store; 404 when the store keeps no moderation data.
    fn moderation(&self) -> ApiResult<&'a dyn ModerationStore> {
        self.moderation.ok_or_else(ApiError::no_moderation_data)
    }

    /// Where the counted week starts.
    fn since(&self) -> DateTime<Utc> {
        self.now - Duration::days(TREND_DAYS)
    }

    /// The hashtags used this week, ranked (see the module documentation), reviewed or not;
    /// `offset` of them skipped, at most `limit`.
    pub async fn tags(&self, offset: u64, limit: u64) -> ApiResult<Vec<TagView>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        let ranked = self
            .moderation()?
            .trending_tags(self.since(), offset, limit)
            .await?;
        self.tags.tag_views(&ranked, None).await
    }

    /// Staff decide whether the hashtag `id` may trend; it counts as reviewed. 404 when unknown.
    pub async fn review_tag(&self, id: Id, trendable: bool) -> ApiResult<TagView> {
        let changes = TagChanges {
            trendable: Some(trendable),
            ..TagChanges::default()
        };
        self.tags.review_tag(id, changes).await
    }

    /// The statuses favourited or reblogged this week, ranked (see the module documentation),
    /// reviewed or not; `offset` of them skipped, at most `limit`.
    pub async fn statuses(&self, offset: u64, limit: u64) -> ApiResult<Vec<TrendStatusView>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        let moderation = self.moderation()?;
        let ids = moderation
            .trending_status_ids(self.since(), offset, limit)
            .await?;
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let mut found: HashMap<Id, StatusRecord> = self
            .statuses
            .statuses_by_ids(&ids)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        let reviewed: HashSet<Id> = moderation
            .trend_reviews(TrendKind::Status, &ids)
            .await?
            .into_iter()
            .map(|r| r.target)
            .collect();
        // In rank order; a status deleted since the ranking read is left out.
        Ok(ids
            .iter()
            .filter_map(|id| found.remove(id))
            .map(|status| TrendStatusView {
                requires_review: !reviewed.contains(&status.id),
                status,
            })
            .collect())
    }

    /// Staff decide whether the status `id` may trend, now. Only a public status that is not a
    /// reblog can ever trend: any other id is a 404, as an unknown one, so that reviewing tells
    /// nothing of statuses staff could not otherwise see.
    pub async fn review_status(&self, id: Id, trendable: bool) -> ApiResult<TrendStatusView> {
        let moderation = self.moderation()?;
        let status = self
            .statuses
            .status_by_id(id)
            .await?
            .filter(|s| s.visibility == Visibility::Public && s.reblog_of_id.is_none())
            .ok_or_else(ApiError::not_found)?;
        moderation
            .set_trend_review(&TrendReviewRecord {
                kind: TrendKind::Status,
                target: status.id,
                trendable,
                reviewed_at: self.now,
            })
            .await?;
        Ok(TrendStatusView {
            status,
            requires_review: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;
    use http::StatusCode;

    use super::Trends;
    use crate::App;
    use crate::id::Id;
    use crate::services::statuses::NewStatus;
    use crate::store::{AccountRecord, StatusRecord, TrendKind};
    use crate::test_support::{account, app, post_new};

    async fn post(app: &App, author: &AccountRecord, text: &str, visibility: &str) -> StatusRecord {
        post_new(
            app,
            author,
            NewStatus {
                text: text.into(),
                visibility: Some(visibility.into()),
                ..Default::default()
            },
        )
        .await
    }

    /// The ids of one page of the ranked statuses.
    async fn ranked_statuses(app: &App, offset: u64, limit: u64) -> Vec<Id> {
        app.trends()
            .statuses(offset, limit)
            .await
            .expect("ranked")
            .iter()
            .map(|v| v.status.id)
            .collect()
    }

    async fn favourite(app: &App, who: &AccountRecord, status: &StatusRecord) {
        app.interactions()
            .favourite(who, status.id)
            .await
            .expect("favourited");
    }

    fn names(views: &[crate::services::tags::TagView]) -> Vec<&str> {
        views.iter().map(|v| v.tag.name.as_str()).collect()
    }

    #[tokio::test]
    async fn tags_rank_by_accounts_then_uses_then_newest() {
        let app = app("trends.test");
        let (a, b, c) = (
            account(&app, "ann").await,
            account(&app, "bob").await,
            account(&app, "cat").await,
        );
        // #solo: one account, three uses; #pair: two accounts; #lone and #late: one use each,
        // #late the newer tag.
        for _ in 0..3 {
            post(&app, &a, "#solo", "public").await;
        }
        post(&app, &a, "#pair #lone", "public").await;
        post(&app, &b, "#pair", "unlisted").await;
        post(&app, &c, "#late", "public").await;
        let ranked = app.trends().tags(0, 10).await.unwrap();
        assert_eq!(names(&ranked), ["pair", "solo", "late", "lone"]);
        // Unreviewed tags are listed, with their week of use.
        assert!(ranked.iter().all(|v| v.tag.review.reviewed_at.is_none()));
        assert_eq!(ranked[0].history[0].1.accounts, 2);
        assert_eq!(
            names(&app.trends().tags(1, 2).await.unwrap()),
            ["solo", "late"]
        );
        assert!(app.trends().tags(4, 10).await.unwrap().is_empty());
        assert!(app.trends().tags(0, 0).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn tags_count_only_this_weeks_statuses() {
        let app = app("trends.test");
        let a = account(&app, "ann").await;
        // `#old` was used eight days ago: its status is stored again with that creation time.
        let old = post(&app, &a, "#old", "public").await;
        app.store.delete_status(old.id).await.unwrap();
        let eight_days_ago = app.now() - Duration::days(8);
        let aged = StatusRecord {
            id: app.ids.next_at(eight_days_ago.timestamp_millis()),
            created_at: eight_days_ago,
            ..old
        };
        app.store.insert_status(&aged).await.unwrap();
        post(&app, &a, "#new", "public").await;
        assert_eq!(names(&app.trends().tags(0, 10).await.unwrap()), ["new"]);
    }

    #[tokio::test]
    async fn approving_and_rejecting_a_tag_reviews_it() {
        let app = app("trends.test");
        let a = account(&app, "ann").await;
        post(&app, &a, "#topic", "public").await;
        let tag = app.store.tag_by_name("topic").await.unwrap().unwrap();
        let approved = app.trends().review_tag(tag.id, true).await.unwrap();
        let rendered = app.render_admin_tag(&approved);
        assert!(rendered.trendable && !rendered.requires_review);
        let rejected = app.trends().review_tag(tag.id, false).await.unwrap();
        let rendered = app.render_admin_tag(&rejected);
        assert!(!rendered.trendable && !rendered.requires_review);
        // Still listed: staff may change their mind.
        assert_eq!(names(&app.trends().tags(0, 10).await.unwrap()), ["topic"]);
        let err = app.trends().review_tag(Id(42), true).await.unwrap_err();
        assert_eq!(err.status, StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn statuses_rank_by_accounts_favouriting_or_reblogging() {
        let app = app("trends.test");
        let (a, b, c, d) = (
            account(&app, "ann").await,
            account(&app, "bob").await,
            account(&app, "cat").await,
            account(&app, "dan").await,
        );
        let one = post(&app, &a, "one", "public").await;
        let two = post(&app, &a, "two", "public").await;
        let three = post(&app, &b, "three", "public").await;
        let quiet = post(&app, &b, "nobody cares", "public").await;
        // `one`: b favourites and reblogs it, c reblogs it: two accounts.
        favourite(&app, &b, &one).await;
        app.statuses().reblog(&b, None, one.id, None).await.unwrap();
        app.statuses().reblog(&c, None, one.id, None).await.unwrap();
        // `two` and `three`: one account each (`three` newer); the author's own favourite of
        // `three` does not count.
        favourite(&app, &d, &two).await;
        favourite(&app, &c, &three).await;
        favourite(&app, &b, &three).await;
        let ranked: Vec<Id> = ranked_statuses(&app, 0, 10).await;
        assert_eq!(ranked, [one.id, three.id, two.id]);
        assert!(!ranked.contains(&quiet.id));
        let second: Vec<Id> = ranked_statuses(&app, 1, 1).await;
        assert_eq!(second, [three.id]);
    }

    #[tokio::test]
    async fn statuses_leave_out_replies_private_and_limited_authors() {
        let app = app("trends.test");
        let (a, b, fan) = (
            account(&app, "ann").await,
            account(&app, "bob").await,
            account(&app, "fan").await,
        );
        let public = post(&app, &a, "public", "public").await;
        let unlisted = post(&app, &a, "unlisted", "unlisted").await;
        let reply = post_new(
            &app,
            &a,
            NewStatus {
                text: "a reply".into(),
                visibility: Some("public".into()),
                in_reply_to_id: Some(public.id),
                ..Default::default()
            },
        )
        .await;
        let by_silenced = post(&app, &b, "loud", "public").await;
        for s in [&public, &unlisted, &reply, &by_silenced] {
            favourite(&app, &fan, s).await;
        }
        let mut silenced = app.store.account_by_id(b.id).await.unwrap().unwrap();
        silenced.silenced_at = Some(app.now());
        app.store.update_account(&silenced).await.unwrap();
        let listed: Vec<Id> = ranked_statuses(&app, 0, 10).await;
        assert_eq!(listed, [public.id]);
    }

    #[tokio::test]
    async fn reviewing_a_status_records_it() {
        let app = app("trends.test");
        let (a, fan) = (account(&app, "ann").await, account(&app, "fan").await);
        let s = post(&app, &a, "hello", "public").await;
        favourite(&app, &fan, &s).await;
        let listed = app.trends().statuses(0, 10).await.unwrap();
        assert!(listed[0].requires_review);

        let approved = app.trends().review_status(s.id, true).await.unwrap();
        assert_eq!(approved.status.id, s.id);
        assert!(!approved.requires_review);
        let moderation = app.store.moderation().unwrap();
        let reviews = moderation
            .trend_reviews(TrendKind::Status, &[s.id])
            .await
            .unwrap();
        assert_eq!(reviews.len(), 1);
        assert!(reviews[0].trendable);
        app.trends().review_status(s.id, false).await.unwrap();
        let reviews = moderation
            .trend_reviews(TrendKind::Status, &[s.id, s.id])
            .await
            .unwrap();
        assert_eq!(reviews.len(), 1, "one review per status, the latest");
        assert!(!reviews[0].trendable);
        assert!(!app.trends().statuses(0, 10).await.unwrap()[0].requires_review);

        // Unknown, private and reblogs: 404.
        let private = post(&app, &a, "secret", "private").await;
        let reblog = app.statuses().reblog(&fan, None, s.id, None).await.unwrap();
        for id in [Id(42), private.id, reblog.id] {
            let err = app.trends().review_status(id, true).await.unwrap_err();
            assert_eq!(err.status, StatusCode::NOT_FOUND);
        }
    }

    /// A store without moderation data: the rankings and status reviews answer 404, tag
    /// reviews (kept on the tag) still work.
    #[tokio::test]
    async fn without_moderation_data_rankings_are_404() {
        let app = app("trends.test");
        let a = account(&app, "ann").await;
        let s = post(&app, &a, "#topic", "public").await;
        let area = Trends {
            moderation: None,
            ..app.trends()
        };
        let errors = [
            area.tags(0, 10).await.map(|_| ()).unwrap_err(),
            area.statuses(0, 10).await.map(|_| ()).unwrap_err(),
            area.review_status(s.id, true)
                .await
                .map(|_| ())
                .unwrap_err(),
        ];
        for err in errors {
            assert_eq!(err.status, StatusCode::NOT_FOUND);
            assert_eq!(err.message, "This server keeps no moderation data");
        }
        let tag = app.store.tag_by_name("topic").await.unwrap().unwrap();
        assert!(area.review_tag(tag.id, true).await.is_ok());
    }
}
