//! Hashtags: tag pages with their week of use, following tags, and featuring tags on one's
//! profile (ordered by recent use, with suggestions). Naming and normalisation rules live in
//! `content.rs`.

use std::collections::HashSet;

use chrono::{DateTime, Duration, Utc};

use crate::content;
use crate::error::{ApiError, ApiResult, StoreError};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::services::outbox::Outbox;
use crate::store::{
    AccountRecord, AccountStore, FeaturedTagRecord, Store, TagRecord, TagReview, TagStore, TagUsage,
};

/// Days of use a Tag entity reports (`history`), today first.
const HISTORY_DAYS: i64 = 7;
/// How many tags an account may feature on its profile (as Mastodon).
pub const MAX_FEATURED_TAGS: usize = 10;
/// How far back featured-tag suggestions look at the caller's own statuses.
const SUGGESTION_DAYS: i64 = 28;
/// How many featured-tag suggestions are offered (as Mastodon).
const MAX_SUGGESTIONS: usize = 10;

/// A tag as a viewer sees it, loaded for render.
#[derive(Clone, Debug)]
pub struct TagView {
    /// The tag.
    pub tag: TagRecord,
    /// `(midnight UTC, use)` per day of the last week, today first.
    pub history: Vec<(DateTime<Utc>, TagUsage)>,
    /// Whether the viewer follows it (`None` for an anonymous viewer).
    pub following: Option<bool>,
    /// Whether the viewer features it (`None` for an anonymous viewer).
    pub featuring: Option<bool>,
}

/// What staff change of a hashtag (`PUT /api/v1/admin/tags/:id`); `None`: kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TagChanges {
    /// A new display form: the same name in other letter case.
    pub display_name: Option<String>,
    /// May trend.
    pub trendable: Option<bool>,
    /// Attached to new statuses.
    pub usable: Option<bool>,
    /// Found by hashtag search.
    pub listable: Option<bool>,
}

/// A featured tag with what its entity shows, loaded for render.
#[derive(Clone, Debug)]
pub struct FeaturedTagView {
    /// The featured tag.
    pub featured: FeaturedTagRecord,
    /// The tag's display name.
    pub display_name: String,
    /// The account featuring it.
    pub owner: AccountRecord,
    /// The owner's public and unlisted statuses with the tag.
    pub statuses_count: i64,
    /// When the newest of them was posted.
    pub last_status_at: Option<DateTime<Utc>>,
}

/// A page of followed tags, paginated on the hidden ids of the follows.
pub struct TagPage {
    /// The tags, most recently followed first.
    pub tags: Vec<TagView>,
    /// The hidden cursor of the first item.
    pub first: Option<Id>,
    /// The hidden cursor of the last item.
    pub last: Option<Id>,
}

fn invalid_tag_name() -> ApiError {
    ApiError::invalid_field("name", "ERR_INVALID", "Tag is invalid")
}

/// The tags area: tag pages, followed tags and featured tags.
pub struct Tags<'a> {
    tags: &'a dyn TagStore,
    accounts: &'a dyn AccountStore,
    ids: &'a IdGenerator,
    outbox: Outbox<'a>,
    now: DateTime<Utc>,
}

impl<'a> Tags<'a> {
    /// The area over `store`, making ids with `ids`, telling other servers of featured tags
    /// through `outbox`, at `now`.
    pub fn new(
        store: &'a dyn Store,
        ids: &'a IdGenerator,
        outbox: Outbox<'a>,
        now: DateTime<Utc>,
    ) -> Self {
        Tags {
            tags: store,
            accounts: store,
            ids,
            outbox,
            now,
        }
    }

    /// The tag a path names (`/api/v1/tags/:id`, where the id is the name; the transport
    /// percent-decodes path segments). A valid name not yet known is created, so the answer always has a real id; a name
    /// that is not a valid hashtag is a 404.
    pub async fn tag_from_path(&self, raw: &str) -> ApiResult<TagRecord> {
        let (name, display_name) = content::parse_tag_name(raw).ok_or_else(ApiError::not_found)?;
        self.tag_named(name, display_name).await
    }

    /// The tag with this normalised name, created with this display name if unknown.
    async fn tag_named(&self, name: String, display_name: String) -> ApiResult<TagRecord> {
        if let Some(tag) = self.tags.tag_by_name(&name).await? {
            return Ok(tag);
        }
        Ok(self
            .tags
            .find_or_create_tag(&TagRecord {
                id: self.ids.next(),
                name,
                display_name,
                created_at: self.now,
                review: TagReview::default(),
            })
            .await?)
    }

    /// Makes sure every hashtag of a status text exists as a tag; a new tag takes the spelling
    /// the author wrote as its display name. Called when a status is posted or edited; returns
    /// the normalised names the status carries: those staff did not make unusable.
    pub async fn record_status_tags(&self, text: &str) -> ApiResult<Vec<String>> {
        let mut usable = Vec::new();
        for (name, display_name) in content::extract_tags_with_display(text) {
            let tag = self.tag_named(name, display_name).await?;
            if tag.review.usable() {
                usable.push(tag.name);
            }
        }
        Ok(usable)
    }

    /// Makes sure each hashtag named (as another server wrote it, `#` or not) exists as a tag;
    /// returns their normalised names, each once, leaving out names that are not valid tags and
    /// tags staff made unusable.
    pub async fn record_tag_names(&self, names: &[String]) -> ApiResult<Vec<String>> {
        let mut out: Vec<String> = Vec::with_capacity(names.len());
        for raw in names {
            let shown = raw.trim().trim_start_matches('#');
            if !content::is_valid_tag_name(shown) {
                continue;
            }
            let name = content::normalize_tag(shown);
            if !out.contains(&name)
                && self
                    .tag_named(name.clone(), shown.to_string())
                    .await?
                    .review
                    .usable()
            {
                out.push(name);
            }
        }
        Ok(out)
    }

    /// Use of a tag per day over the last week, today (from midnight UTC) first.
    async fn tag_history(&self, name: &str) -> ApiResult<Vec<(DateTime<Utc>, TagUsage)>> {
        let now = self.now;
        let today = now
            .date_naive()
            .and_hms_opt(0, 0, 0)
            .map(|t| t.and_utc())
            .unwrap_or(now);
        let mut days = Vec::with_capacity(HISTORY_DAYS as usize);
        for back in 0..HISTORY_DAYS {
            let from = today - Duration::days(back);
            let usage = self
                .tags
                .tag_usage(name, from, from + Duration::days(1))
                .await?;
            days.push((from, usage));
        }
        Ok(days)
    }

    /// Tags as a viewer sees them (`following` and `featuring` only when signed in).
    pub async fn tag_views(
        &self,
        tags: &[TagRecord],
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<Vec<TagView>> {
        let featured: HashSet<Id> = match viewer {
            Some(v) => self
                .tags
                .featured_tags(v.id)
                .await?
                .into_iter()
                .map(|f| f.tag_id)
                .collect(),
            None => HashSet::new(),
        };
        let mut out = Vec::with_capacity(tags.len());
        for tag in tags {
            let history = self.tag_history(&tag.name).await?;
            let (following, featuring) = match viewer {
                Some(v) => (
                    Some(self.tags.follows_tag(v.id, tag.id).await?),
                    Some(featured.contains(&tag.id)),
                ),
                None => (None, None),
            };
            out.push(TagView {
                tag: tag.clone(),
                history,
                following,
                featuring,
            });
        }
        Ok(out)
    }

    /// Hashtags for a search: those whose name starts with `q` (a leading `#` dropped,
    /// normalised as tags are), the exact one first, then shorter names before longer. A `q`
    /// that cannot be a hashtag finds none.
    pub async fn search_hashtags(
        &self,
        q: &str,
        offset: u64,
        limit: u64,
    ) -> ApiResult<Vec<TagRecord>> {
        let Some((name, _)) = content::parse_tag_name(q.trim()) else {
            return Ok(vec![]);
        };
        if limit == 0 {
            return Ok(vec![]);
        }
        // Tags staff unlisted are not found (a page may then hold fewer).
        let mut found = self.tags.tags_by_prefix(&name, offset, limit).await?;
        found.retain(|t| t.review.listable());
        Ok(found)
    }

    /// One page of every tag, as staff see them (by id, newest first).
    pub async fn admin_tags(&self, page: Page) -> ApiResult<Vec<TagView>> {
        let tags = self.tags.tags_page(page).await?;
        self.tag_views(&tags, None).await
    }

    /// One tag by id, as staff see it; 404 when unknown.
    pub async fn admin_tag(&self, id: Id) -> ApiResult<TagView> {
        let tag = self
            .tags
            .tag_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        self.tag_view(&tag, None).await
    }

    /// Records what staff decided about a tag (marking it reviewed now, as Mastodon does);
    /// 404 when unknown, 422 for a display name that is not the tag's name.
    pub async fn review_tag(&self, id: Id, changes: TagChanges) -> ApiResult<TagView> {
        let mut tag = self
            .tags
            .tag_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if let Some(shown) = changes.display_name.filter(|d| !d.trim().is_empty()) {
            let shown = shown.trim().trim_start_matches('#');
            if !content::is_valid_tag_name(shown) || content::normalize_tag(shown) != tag.name {
                return Err(ApiError::invalid_field(
                    "display_name",
                    "ERR_INVALID",
                    "Validation failed: Display name must match the tag's name (letter case aside)",
                ));
            }
            tag.display_name = shown.to_string();
        }
        let review = &mut tag.review;
        review.trendable = changes.trendable.or(review.trendable);
        review.usable = changes.usable.or(review.usable);
        review.listable = changes.listable.or(review.listable);
        review.reviewed_at = Some(self.now);
        if !self.tags.update_tag(&tag).await? {
            return Err(ApiError::not_found());
        }
        self.tag_view(&tag, None).await
    }

    /// One tag as a viewer sees it.
    pub async fn tag_view(
        &self,
        tag: &TagRecord,
        viewer: Option<&AccountRecord>,
    ) -> ApiResult<TagView> {
        let mut v = self.tag_views(std::slice::from_ref(tag), viewer).await?;
        v.pop().ok_or_else(ApiError::internal)
    }

    /// `GET /api/v1/tags/:id`: the tag a path names, for a viewer.
    pub async fn show_hashtag(
        &self,
        viewer: Option<&AccountRecord>,
        raw: &str,
    ) -> ApiResult<TagView> {
        let tag = self.tag_from_path(raw).await?;
        self.tag_view(&tag, viewer).await
    }

    /// `me` follows a tag (following twice is not an error).
    pub async fn follow_hashtag(&self, me: &AccountRecord, raw: &str) -> ApiResult<TagView> {
        let tag = self.tag_from_path(raw).await?;
        self.tags.follow_tag(self.ids.next(), me.id, tag.id).await?;
        self.tag_view(&tag, Some(me)).await
    }

    /// `me` stops following a tag (not following is not an error).
    pub async fn unfollow_hashtag(&self, me: &AccountRecord, raw: &str) -> ApiResult<TagView> {
        let tag = self.tag_from_path(raw).await?;
        self.tags.unfollow_tag(me.id, tag.id).await?;
        self.tag_view(&tag, Some(me)).await
    }

    /// A page of the tags `me` follows, most recently followed first.
    pub async fn followed_hashtags(&self, me: &AccountRecord, page: Page) -> ApiResult<TagPage> {
        let rows = self.tags.followed_tags_page(me.id, page).await?;
        let first = rows.first().map(|(id, _)| *id);
        let last = rows.last().map(|(id, _)| *id);
        let tags: Vec<TagRecord> = rows.into_iter().map(|(_, t)| t).collect();
        Ok(TagPage {
            tags: self.tag_views(&tags, Some(me)).await?,
            first,
            last,
        })
    }

    /// An account's featured tags ordered by recent use: the newest public or
    /// unlisted status with the tag first, tags never used last, then the most recently featured.
    async fn featured_tags_ordered(
        &self,
        owner: &AccountRecord,
    ) -> ApiResult<Vec<FeaturedTagView>> {
        let mut rows = Vec::new();
        for featured in self.tags.featured_tags(owner.id).await? {
            let (count, last) = self
                .tags
                .account_tag_stats(owner.id, &featured.name)
                .await?;
            rows.push((featured, count, last));
        }
        rows.sort_by(|a, b| b.2.cmp(&a.2).then(b.0.id.cmp(&a.0.id)));
        let mut out = Vec::with_capacity(rows.len());
        for (featured, count, last) in rows {
            out.push(
                self.featured_tag_view(owner, &featured, count, last)
                    .await?,
            );
        }
        Ok(out)
    }

    async fn featured_tag_view(
        &self,
        owner: &AccountRecord,
        featured: &FeaturedTagRecord,
        count: i64,
        last: Option<DateTime<Utc>>,
    ) -> ApiResult<FeaturedTagView> {
        let display_name = self
            .tags
            .tag_by_id(featured.tag_id)
            .await?
            .map(|t| t.display_name)
            .unwrap_or_else(|| featured.name.clone());
        Ok(FeaturedTagView {
            featured: featured.clone(),
            display_name,
            owner: owner.clone(),
            statuses_count: count,
            last_status_at: last,
        })
    }

    /// `GET /api/v1/featured_tags`: the caller's featured tags, by recent use.
    pub async fn own_featured_tags(&self, me: &AccountRecord) -> ApiResult<Vec<FeaturedTagView>> {
        self.featured_tags_ordered(me).await
    }

    /// `GET /api/v1/accounts/:id/featured_tags`: public; unknown account 404, suspended `[]`.
    pub async fn account_featured_tags(&self, account_id: Id) -> ApiResult<Vec<FeaturedTagView>> {
        let owner = self
            .accounts
            .account_by_id(account_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if owner.is_suspended() {
            return Ok(vec![]);
        }
        self.featured_tags_ordered(&owner).await
    }

    /// Features `tag` on `me`'s profile. `Ok(false)` if it already was; 422 beyond the limit.
    async fn insert_featured(&self, me: &AccountRecord, tag: &TagRecord) -> ApiResult<bool> {
        let existing = self.tags.featured_tags(me.id).await?;
        if existing.iter().any(|f| f.tag_id == tag.id) {
            return Ok(false);
        }
        if existing.len() >= MAX_FEATURED_TAGS {
            return Err(ApiError::invalid_field(
                "base",
                "ERR_LIMIT_REACHED",
                format!("You cannot feature more than {MAX_FEATURED_TAGS} hashtags"),
            ));
        }
        let record = FeaturedTagRecord {
            id: self.ids.next(),
            account_id: me.id,
            tag_id: tag.id,
            name: tag.name.clone(),
            created_at: self.now,
        };
        match self.tags.insert_featured_tag(&record).await {
            Ok(()) => {
                self.outbox
                    .featured_tag_changed(me, &tag.name, true)
                    .await?;
                Ok(true)
            }
            // A concurrent request featured it first.
            Err(StoreError::AlreadyExists(_)) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// `POST /api/v1/featured_tags`: features the tag `name` (a leading `#` allowed). An invalid
    /// name, a tag already featured, or more than [`MAX_FEATURED_TAGS`] are 422s.
    pub async fn create_featured_tag(
        &self,
        me: &AccountRecord,
        name: &str,
    ) -> ApiResult<FeaturedTagView> {
        let (name, display_name) =
            content::parse_tag_name(name.trim()).ok_or_else(invalid_tag_name)?;
        let tag = self.tag_named(name, display_name).await?;
        if !self.insert_featured(me, &tag).await? {
            return Err(ApiError::invalid_field(
                "name",
                "ERR_TAKEN",
                "Tag has already been taken",
            ));
        }
        let featured = self
            .tags
            .featured_tags(me.id)
            .await?
            .into_iter()
            .find(|f| f.tag_id == tag.id)
            .ok_or_else(ApiError::not_found)?;
        let (count, last) = self.tags.account_tag_stats(me.id, &tag.name).await?;
        self.featured_tag_view(me, &featured, count, last).await
    }

    /// `DELETE /api/v1/featured_tags/:id`: another account's or an unknown featured tag is a 404.
    pub async fn delete_featured_tag(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let featured = self.tags.featured_tags(me.id).await?;
        let name = featured.iter().find(|f| f.id == id).map(|f| f.name.clone());
        if !self.tags.delete_featured_tag(me.id, id).await? {
            return Err(ApiError::not_found());
        }
        if let Some(name) = name {
            self.outbox.featured_tag_changed(me, &name, false).await?;
        }
        Ok(())
    }

    /// A remote account featured (`featured`) or stopped featuring the tag `name` (a
    /// normalised name; `display_name` as it wrote it, the spelling of a tag new here); returns
    /// whether that changed anything. Beyond [`MAX_FEATURED_TAGS`]
    /// the tag is not featured.
    pub(crate) async fn set_remote_featured(
        &self,
        account: &AccountRecord,
        name: &str,
        display_name: &str,
        featured: bool,
    ) -> ApiResult<bool> {
        if featured {
            let tag = self
                .tag_named(name.to_string(), display_name.to_string())
                .await?;
            return match self.insert_featured(account, &tag).await {
                Err(e) if e.status == http::StatusCode::UNPROCESSABLE_ENTITY => Ok(false),
                other => other,
            };
        }
        let mut changed = false;
        for f in self.tags.featured_tags(account.id).await? {
            if f.name == name {
                changed |= self.tags.delete_featured_tag(account.id, f.id).await?;
            }
        }
        Ok(changed)
    }

    /// Makes a remote account's featured tags those `names` list (normalised, and as written).
    pub(crate) async fn set_remote_featured_names(
        &self,
        account: &AccountRecord,
        names: &[(String, String)],
    ) -> ApiResult<()> {
        for f in self.tags.featured_tags(account.id).await? {
            if !names.iter().any(|(name, _)| *name == f.name) {
                self.tags.delete_featured_tag(account.id, f.id).await?;
            }
        }
        for (name, display) in names {
            self.set_remote_featured(account, name, display, true)
                .await?;
        }
        Ok(())
    }

    /// `POST /api/v1/tags/:id/feature`: features the tag the path names; featuring it twice is
    /// not an error; beyond [`MAX_FEATURED_TAGS`] a 422.
    pub async fn feature_hashtag(&self, me: &AccountRecord, raw: &str) -> ApiResult<TagView> {
        let tag = self.tag_from_path(raw).await?;
        self.insert_featured(me, &tag).await?;
        self.tag_view(&tag, Some(me)).await
    }

    /// `POST /api/v1/tags/:id/unfeature`: stops featuring the tag (not featured is not an error).
    pub async fn unfeature_hashtag(&self, me: &AccountRecord, raw: &str) -> ApiResult<TagView> {
        let tag = self.tag_from_path(raw).await?;
        let featured = self.tags.featured_tags(me.id).await?;
        for f in featured.iter().filter(|f| f.tag_id == tag.id) {
            if self.tags.delete_featured_tag(me.id, f.id).await? {
                self.outbox.featured_tag_changed(me, &f.name, false).await?;
            }
        }
        self.tag_view(&tag, Some(me)).await
    }

    /// `GET /api/v1/featured_tags/suggestions`: the tags `me` used most in the last four weeks
    /// and does not feature yet, most used first, up to ten.
    pub async fn featured_tag_suggestions(&self, me: &AccountRecord) -> ApiResult<Vec<TagView>> {
        let featured: HashSet<String> = self
            .tags
            .featured_tags(me.id)
            .await?
            .into_iter()
            .map(|f| f.name)
            .collect();
        let since = self.now - Duration::days(SUGGESTION_DAYS);
        let names = self
            .tags
            .most_used_tags(me.id, since, (MAX_SUGGESTIONS + featured.len()) as u64)
            .await?;
        let mut tags = Vec::new();
        for name in names.into_iter().filter(|n| !featured.contains(n)) {
            if tags.len() == MAX_SUGGESTIONS {
                break;
            }
            // Statuses keep normalised names, which are valid display names too.
            tags.push(self.tag_named(name.clone(), name).await?);
        }
        self.tag_views(&tags, Some(me)).await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::MAX_FEATURED_TAGS;
    use crate::services::accounts::NewAccount;
    use crate::services::statuses::NewStatus;
    use crate::store::{AccountRecord, Role};
    use crate::{App, InstanceConfig, MemoryStore};

    async fn app_with(names: &[&str]) -> (App, Vec<AccountRecord>) {
        let mut config = InstanceConfig::new("tags.test");
        config.password_hash_memory_kib = 64;
        let app = App::new(Arc::new(MemoryStore::new()), config);
        let mut accounts = Vec::new();
        for name in names {
            let (a, _, _) = app
                .accounts()
                .create_local_account(
                    NewAccount {
                        username: name.to_string(),
                        email: format!("{name}@tags.test"),
                        password: "correct horse battery".into(),
                        role: Role::User,
                        confirmed: true,
                        approved: true,
                        locale: "en".into(),
                    },
                    false,
                )
                .await
                .unwrap();
            accounts.push(a);
        }
        (app, accounts)
    }

    async fn post(app: &App, author: &AccountRecord, text: &str) {
        let public = NewStatus {
            text: text.into(),
            visibility: Some("public".into()),
            ..Default::default()
        };
        crate::test_support::post_new(app, author, public).await;
    }

    #[tokio::test]
    async fn posting_creates_tags_with_the_written_spelling() {
        let (app, a) = app_with(&["writer"]).await;
        post(&app, &a[0], "hello #RustLang and #Café").await;
        let tag = app.store.tag_by_name("rustlang").await.unwrap().unwrap();
        assert_eq!(tag.display_name, "RustLang");
        let shown = app
            .tags()
            .show_hashtag(None, "RUSTLANG")
            .await
            .map(|v| app.render_tag(&v))
            .unwrap();
        assert_eq!(shown.id, tag.id);
        assert_eq!(shown.name, "RustLang");
        assert_eq!(shown.url, "https://tags.test/tags/rustlang");
        assert_eq!(shown.history.len(), 7);
        assert_eq!(
            (
                shown.history[0].uses.as_str(),
                shown.history[0].accounts.as_str()
            ),
            ("1", "1")
        );
        assert!(shown.following.is_none() && shown.featuring.is_none());
        let cafe = app.tags().show_hashtag(Some(&a[0]), "Café").await.unwrap();
        assert_eq!(cafe.tag.display_name, "Café");
        assert_eq!(cafe.following, Some(false));
        assert!(
            app.tags()
                .show_hashtag(None, "123")
                .await
                .map(|v| app.render_tag(&v))
                .is_err()
        );
    }

    #[tokio::test]
    async fn featured_tags_by_recent_use_and_hidden_when_suspended() {
        let (app, a) = app_with(&["owner"]).await;
        let me = &a[0];
        for name in ["unused", "old", "new"] {
            app.tags().create_featured_tag(me, name).await.unwrap();
        }
        post(&app, me, "#old").await;
        post(&app, me, "#new #new").await;
        let names: Vec<String> = app
            .tags()
            .own_featured_tags(me)
            .await
            .unwrap()
            .into_iter()
            .map(|f| f.display_name)
            .collect();
        assert_eq!(names, ["new", "old", "unused"]);
        let listed =
            app.render_featured_tags(&app.tags().account_featured_tags(me.id).await.unwrap());
        assert_eq!(listed[0].statuses_count, "1");
        assert_eq!(listed[0].url, "https://tags.test/@owner/tagged/new");
        assert!(listed[2].last_status_at.is_none());

        let mut suspended = app.store.account_by_id(me.id).await.unwrap().unwrap();
        suspended.suspended_at = Some(app.now());
        app.store.update_account(&suspended).await.unwrap();
        assert!(
            app.tags()
                .account_featured_tags(me.id)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            app.tags()
                .account_featured_tags(crate::Id(1))
                .await
                .unwrap_err()
                .status,
            http::StatusCode::NOT_FOUND
        );
    }

    #[tokio::test]
    async fn featuring_is_limited_and_suggestions_skip_featured_tags() {
        let (app, a) = app_with(&["limits"]).await;
        let me = &a[0];
        post(&app, me, "#alpha #beta").await;
        post(&app, me, "#alpha").await;
        let sugg: Vec<String> = app
            .tags()
            .featured_tag_suggestions(me)
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.tag.display_name)
            .collect();
        assert_eq!(sugg, ["alpha", "beta"]);
        app.tags().create_featured_tag(me, "#Alpha").await.unwrap();
        let err = app
            .tags()
            .create_featured_tag(me, "alpha")
            .await
            .unwrap_err();
        assert_eq!(err.status, http::StatusCode::UNPROCESSABLE_ENTITY);
        let sugg = app.tags().featured_tag_suggestions(me).await.unwrap();
        assert_eq!(sugg.len(), 1);
        assert_eq!(sugg[0].tag.display_name, "beta");
        for i in 1..MAX_FEATURED_TAGS {
            app.tags()
                .create_featured_tag(me, &format!("t{i}"))
                .await
                .unwrap();
        }
        let err = app
            .tags()
            .create_featured_tag(me, "onemore")
            .await
            .unwrap_err();
        assert_eq!(err.status, http::StatusCode::UNPROCESSABLE_ENTITY);
        let err = app.tags().feature_hashtag(me, "onemore").await.unwrap_err();
        assert_eq!(err.status, http::StatusCode::UNPROCESSABLE_ENTITY);
        // Featuring an already featured tag by name is not an error, even at the limit.
        assert_eq!(
            app.tags()
                .feature_hashtag(me, "ALPHA")
                .await
                .unwrap()
                .featuring,
            Some(true)
        );
    }

    #[tokio::test]
    async fn staff_review_makes_tags_unusable_unlisted_or_trendable() {
        let (app, a) = app_with(&["writer"]).await;
        post(&app, &a[0], "first #Topic and #Other").await;
        let topic = app
            .store
            .tag_by_name("topic")
            .await
            .unwrap()
            .expect("tag recorded");
        let listed: Vec<String> = app
            .tags()
            .admin_tags(crate::pagination::Page::first(10))
            .await
            .unwrap()
            .into_iter()
            .map(|v| v.tag.name)
            .collect();
        assert_eq!(listed, ["other", "topic"], "newest first");
        let fresh = app.tags().admin_tag(topic.id).await.unwrap();
        assert_eq!(fresh.tag.review, super::TagReview::default());
        let rendered = app.render_admin_tag(&fresh);
        assert!(rendered.usable && rendered.listable && !rendered.trendable);
        assert!(rendered.requires_review);
        // Another spelling than the name: refused.
        let err = app
            .tags()
            .review_tag(
                topic.id,
                super::TagChanges {
                    display_name: Some("Topics".into()),
                    ..Default::default()
                },
            )
            .await
            .unwrap_err();
        assert_eq!(err.status, http::StatusCode::UNPROCESSABLE_ENTITY);
        let reviewed = app
            .tags()
            .review_tag(
                topic.id,
                super::TagChanges {
                    display_name: Some("TOPIC".into()),
                    trendable: Some(true),
                    usable: Some(false),
                    listable: Some(false),
                },
            )
            .await
            .unwrap();
        let rendered = app.render_admin_tag(&reviewed);
        assert_eq!(rendered.tag.name, "TOPIC");
        assert!(rendered.trendable && !rendered.usable && !rendered.listable);
        assert!(!rendered.requires_review);
        // A new status no longer carries the unusable tag; search does not find it.
        let status = crate::test_support::post_new(
            &app,
            &a[0],
            NewStatus {
                text: "again #topic and #other".into(),
                visibility: Some("public".into()),
                ..Default::default()
            },
        )
        .await;
        assert_eq!(status.tags, ["other"]);
        assert!(
            app.tags()
                .search_hashtags("topic", 0, 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            app.tags()
                .search_hashtags("oth", 0, 10)
                .await
                .unwrap()
                .len(),
            1
        );
        let unknown = crate::id::Id(42);
        assert_eq!(
            app.tags().admin_tag(unknown).await.unwrap_err().status,
            http::StatusCode::NOT_FOUND
        );
    }
}
