//! Lists: named sets of followed accounts with their own feeds (filled at write time, see
//! `statuses.rs`), at most [`MAX_LISTS`] per account, the lists collection not paginated.

use crate::error::{ApiError, ApiResult, StoreError};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::services::accounts::visible_account;
use crate::services::accounts::{AccountPage, accounts_page};
use crate::services::timelines::{StatusPage, Timelines};
use crate::store::{
    AccountRecord, AccountStatusesFilter, AccountStore, Feed, FeedStore, FollowStore, ListRecord,
    ListStore, RepliesPolicy, StatusStore, Store, Visibility,
};

/// Lists one account may own (Mastodon's `List::LIMIT`).
pub const MAX_LISTS: usize = 50;

/// Recent statuses of an account put into a feed when the account is followed or added to a
/// list (Mastodon merges a quarter of a feed's 400 entries).
pub const BACKFILL: usize = 100;

/// Members read per store call when the caller asks for all of them (`limit=0`).
const MEMBERS_BATCH: usize = 1_000;

/// What a list is made or changed with; `None` keeps the current value (the defaults on
/// creation: `replies_policy` `list`, not exclusive).
#[derive(Clone, Debug, Default)]
pub struct ListChanges {
    /// The title; blank is a 422, and required on creation.
    pub title: Option<String>,
    /// `followed`, `list` or `none`; anything else is a 422.
    pub replies_policy: Option<String>,
    /// Whether the members' posts stay out of the home feed.
    pub exclusive: Option<bool>,
}

impl ListChanges {
    /// The list with these changes applied, or the 422 for a blank title or an unknown policy.
    fn apply_to(self, mut list: ListRecord) -> ApiResult<ListRecord> {
        if let Some(title) = self.title {
            list.title = title.trim().to_string();
        }
        if list.title.is_empty() {
            return Err(ApiError::invalid_field(
                "title",
                "ERR_BLANK",
                "Title can't be blank",
            ));
        }
        if let Some(p) = self.replies_policy {
            list.replies_policy = RepliesPolicy::parse(&p).ok_or_else(|| {
                ApiError::invalid_field(
                    "replies_policy",
                    "ERR_INCLUSION",
                    "Replies policy is not included in the list",
                )
            })?;
        }
        if let Some(e) = self.exclusive {
            list.exclusive = e;
        }
        Ok(list)
    }
}

/// The lists area: an account's lists, their members and their feeds.
pub struct Lists<'a> {
    lists: &'a dyn ListStore,
    accounts: &'a dyn AccountStore,
    follows: &'a dyn FollowStore,
    statuses: &'a dyn StatusStore,
    feeds: &'a dyn FeedStore,
    ids: &'a IdGenerator,
    timelines: Timelines<'a>,
}

impl<'a> Lists<'a> {
    /// The area over the lists, accounts, follows, statuses and feeds of `store`, making ids
    /// with `ids` and reading list feeds through `timelines`.
    pub fn new(store: &'a dyn Store, ids: &'a IdGenerator, timelines: Timelines<'a>) -> Self {
        Lists {
            lists: store,
            accounts: store,
            follows: store,
            statuses: store,
            feeds: store,
            ids,
            timelines,
        }
    }

    /// `me`'s lists, oldest first (all of them: the collection is not paginated).
    pub async fn all(&self, me: &AccountRecord) -> ApiResult<Vec<ListRecord>> {
        Ok(self.lists.lists_of(me.id).await?)
    }

    /// `me`'s list `id`; another account's or an unknown list is a 404.
    pub async fn own_list(&self, me: &AccountRecord, id: Id) -> ApiResult<ListRecord> {
        match self.lists.list_by_id(id).await? {
            Some(l) if l.account_id == me.id => Ok(l),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Makes a list; a 51st list is a 422. Two creations racing past the limit both insert,
    /// then the one beyond the first [`MAX_LISTS`] by id takes its list back.
    pub async fn create_list(
        &self,
        me: &AccountRecord,
        changes: ListChanges,
    ) -> ApiResult<ListRecord> {
        let list = changes.apply_to(ListRecord {
            id: self.ids.next(),
            account_id: me.id,
            title: String::new(),
            replies_policy: RepliesPolicy::List,
            exclusive: false,
        })?;
        let too_many = || {
            ApiError::unprocessable(
                "Validation failed: You have reached the maximum number of lists",
            )
        };
        if self.lists.lists_of(me.id).await?.len() >= MAX_LISTS {
            return Err(too_many());
        }
        self.lists.insert_list(&list).await?;
        let lists = self.lists.lists_of(me.id).await?;
        if lists
            .iter()
            .position(|l| l.id == list.id)
            .is_none_or(|i| i >= MAX_LISTS)
        {
            self.lists.delete_list(list.id).await?;
            return Err(too_many());
        }
        Ok(list)
    }

    /// Changes `me`'s list `id`.
    pub async fn update_list(
        &self,
        me: &AccountRecord,
        id: Id,
        changes: ListChanges,
    ) -> ApiResult<ListRecord> {
        let list = changes.apply_to(self.own_list(me, id).await?)?;
        if !self.lists.update_list(&list).await? {
            return Err(ApiError::not_found());
        }
        Ok(list)
    }

    /// Deletes `me`'s list `id` with its members and feed.
    pub async fn delete_list(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let list = self.own_list(me, id).await?;
        if !self.lists.delete_list(list.id).await? {
            return Err(ApiError::not_found());
        }
        Ok(())
    }

    /// A page of the members of `me`'s list `id`, highest account id first; `None`: all of them.
    /// Suspended members are left out.
    pub async fn list_members(
        &self,
        me: &AccountRecord,
        id: Id,
        page: Option<Page>,
    ) -> ApiResult<AccountPage> {
        let list = self.own_list(me, id).await?;
        let ids = match page {
            Some(page) => self.lists.list_accounts_page(list.id, page).await?,
            None => {
                let mut all = vec![];
                let mut cursor = Page::first(MEMBERS_BATCH);
                loop {
                    let batch = self.lists.list_accounts_page(list.id, cursor).await?;
                    let done = batch.len() < MEMBERS_BATCH;
                    cursor.max_id = batch.last().copied();
                    all.extend(batch);
                    if done {
                        break;
                    }
                }
                all
            }
        };
        let pairs: Vec<(Id, Id)> = ids.iter().map(|a| (*a, *a)).collect();
        let mut found = accounts_page(self.accounts, &pairs).await?;
        if page.is_none() {
            // Not paginated: no Link header.
            found.first = None;
            found.last = None;
        }
        Ok(found)
    }

    /// Adds accounts to `me`'s list `id`, all or none. Each must exist and be followed by `me`
    /// (or be `me`), else a 404; one already in the list is a 422. Their recent statuses are
    /// put into the list's feed.
    pub async fn add_list_members(
        &self,
        me: &AccountRecord,
        id: Id,
        account_ids: &[Id],
    ) -> ApiResult<()> {
        let list = self.own_list(me, id).await?;
        let mut wanted = account_ids.to_vec();
        wanted.sort();
        wanted.dedup();
        let found = self.accounts.accounts_by_ids(&wanted).await?;
        for a in &wanted {
            let known = found.iter().any(|f| f.id == *a && !f.is_suspended());
            if !known || (*a != me.id && !self.follows.follows(me.id, *a).await?) {
                return Err(ApiError::not_found());
            }
        }
        match self.lists.add_list_accounts(list.id, &wanted).await {
            Err(StoreError::AlreadyExists(_)) => {
                return Err(ApiError::invalid_field(
                    "account_id",
                    "ERR_TAKEN",
                    "Account has already been taken",
                ));
            }
            r => r?,
        }
        for a in &wanted {
            let recent = self.backfill_entries(*a, true, me.id).await?;
            self.feeds
                .backfill_feed(Feed::List(list.id), &recent)
                .await?;
        }
        Ok(())
    }

    /// Removes accounts from `me`'s list `id` (those not in it are ignored), with their statuses
    /// from its feed.
    pub async fn remove_list_members(
        &self,
        me: &AccountRecord,
        id: Id,
        account_ids: &[Id],
    ) -> ApiResult<()> {
        let list = self.own_list(me, id).await?;
        self.lists
            .remove_list_accounts(list.id, account_ids)
            .await?;
        Ok(())
    }

    /// `me`'s lists that hold the account `account_id` (a 404 if it is unknown or hidden).
    pub async fn lists_with_account(
        &self,
        me: &AccountRecord,
        account_id: Id,
    ) -> ApiResult<Vec<ListRecord>> {
        let account = visible_account(self.accounts, account_id).await?;
        Ok(self
            .lists
            .lists_with_member(account.id, Some(me.id))
            .await?)
    }

    /// One page of `me`'s list `id`'s feed, with the read-time filters of the home feed.
    pub async fn list_timeline(
        &self,
        me: &AccountRecord,
        id: Id,
        page: Page,
    ) -> ApiResult<StatusPage> {
        let list = self.own_list(me, id).await?;
        self.timelines
            .feed_timeline(me, Feed::List(list.id), page)
            .await
    }

    /// `(status, author)` of `account`'s most recent statuses ([`BACKFILL`] at most) for a feed
    /// of `reader`'s: not direct ones, reblogs only when `reblogs`, and of replies to others only
    /// those to `reader` (fan-out shows some more, by rules that need the whole graph).
    pub(crate) async fn backfill_entries(
        &self,
        account: Id,
        reblogs: bool,
        reader: Id,
    ) -> ApiResult<Vec<(Id, Id)>> {
        let filter = AccountStatusesFilter {
            visibilities: vec![
                Visibility::Public,
                Visibility::Unlisted,
                Visibility::Private,
            ],
            exclude_reblogs: !reblogs,
            ..Default::default()
        };
        Ok(self
            .statuses
            .account_statuses(account, &filter, Page::first(BACKFILL))
            .await?
            .into_iter()
            .filter(|s| {
                s.in_reply_to_account_id
                    .is_none_or(|to| to == account || to == reader)
            })
            .map(|s| (s.id, s.account_id))
            .collect())
    }
}
