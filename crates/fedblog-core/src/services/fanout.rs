//! Fan-out on write: a new status or reblog is inserted into the home feeds of the author's
//! local followers and into the lists that hold the author, by Mastodon's rules; and the feeds'
//! upkeep when a follow starts or ends or an account is muted or blocked.

use std::collections::HashSet;

use crate::app::App;
use crate::error::ApiResult;
use crate::id::Id;
use crate::store::{Feed, ListRecord, RepliesPolicy, StatusRecord, Visibility};

impl App {
    /// Inserts a new status into feeds:
    /// - home feeds: the author's own, and its local followers' (for a direct status only the
    ///   mentioned followers; the mentioned others see it through their notifications). A reply
    ///   to another account reaches only the followers that are that account or follow it.
    ///   Followers keeping the author in an exclusive list get it in that list only; followers
    ///   whose follow shows other `languages` only do not get it.
    /// - list feeds (not direct statuses): the lists holding the author, by their replies policy
    ///   (a reply to the list's owner is always shown).
    pub(crate) async fn fan_out(&self, status: &StatusRecord) -> ApiResult<()> {
        let author = status.account_id;
        let direct = status.visibility == Visibility::Direct;
        let followers = self.store.local_follower_ids(author).await?;
        let reply_to = status.in_reply_to_account_id.filter(|to| *to != author);
        let reply_audience = match reply_to {
            Some(to) if !direct => {
                let mut audience: HashSet<Id> = self
                    .store
                    .local_follower_ids(to)
                    .await?
                    .into_iter()
                    .collect();
                audience.insert(to);
                Some(audience)
            }
            _ => None,
        };
        let lists = if direct {
            vec![]
        } else {
            self.store.lists_with_member(author, None).await?
        };
        let exclusive: HashSet<Id> = lists
            .iter()
            .filter(|l| l.exclusive)
            .map(|l| l.account_id)
            .collect();
        // Followers asking for other languages only (a status without a language reaches all).
        let other_languages: HashSet<Id> = match &status.language {
            Some(lang) => self
                .store
                .language_restricted_followers(author)
                .await?
                .into_iter()
                .filter(|(_, langs)| !langs.is_empty() && !langs.contains(lang))
                .map(|(f, _)| f)
                .collect(),
            None => HashSet::new(),
        };
        let mut targets: Vec<Id> = followers
            .into_iter()
            .filter(|f| !direct || status.mentions.contains(f))
            .filter(|f| reply_audience.as_ref().is_none_or(|a| a.contains(f)))
            .filter(|f| !exclusive.contains(f) && !other_languages.contains(f))
            .collect();
        targets.push(author);
        targets.sort();
        targets.dedup();
        self.store
            .insert_feed_entries(status.id, author, &targets)
            .await?;
        let list_ids = self
            .list_audience(&lists, reply_to, reply_audience.as_ref())
            .await?;
        self.store
            .insert_list_entries(status.id, author, &list_ids)
            .await?;
        Ok(())
    }

    /// The lists among `lists` (those holding the author) that show a status replying to
    /// `reply_to` (`None`: not a reply to another account), whose followers (and itself) are
    /// `reply_audience`.
    async fn list_audience(
        &self,
        lists: &[ListRecord],
        reply_to: Option<Id>,
        reply_audience: Option<&HashSet<Id>>,
    ) -> ApiResult<Vec<Id>> {
        let Some(to) = reply_to else {
            return Ok(lists.iter().map(|l| l.id).collect());
        };
        let holding_parent: HashSet<Id> = if lists
            .iter()
            .any(|l| l.replies_policy == RepliesPolicy::List)
        {
            self.store
                .lists_with_member(to, None)
                .await?
                .into_iter()
                .map(|l| l.id)
                .collect()
        } else {
            HashSet::new()
        };
        Ok(lists
            .iter()
            .filter(|l| {
                l.account_id == to
                    || match l.replies_policy {
                        RepliesPolicy::Followed => {
                            reply_audience.is_some_and(|a| a.contains(&l.account_id))
                        }
                        RepliesPolicy::List => holding_parent.contains(&l.id),
                        RepliesPolicy::None => false,
                    }
            })
            .map(|l| l.id)
            .collect())
    }

    /// Inserts a new reblog into feeds: the reblogger's own home feed, and the home feeds of the
    /// reblogger's local followers whose follow shows reblogs (`reblogs`, true unless turned off),
    /// except followers blocked either way by the original's author or muting it (Mastodon also
    /// filters these at insertion; the store finds that audience in one query). The lists holding
    /// the reblogger get it when their owner is in that audience; owners keeping the reblogger in
    /// an exclusive list get it there only.
    pub(crate) async fn fan_out_reblog(
        &self,
        reblog: &StatusRecord,
        original: &StatusRecord,
    ) -> ApiResult<()> {
        let audience: HashSet<Id> = self
            .store
            .reblog_audience(reblog.account_id, original.account_id, self.now())
            .await?
            .into_iter()
            .collect();
        let lists: Vec<ListRecord> = self
            .store
            .lists_with_member(reblog.account_id, None)
            .await?
            .into_iter()
            .filter(|l| audience.contains(&l.account_id))
            .collect();
        let exclusive: HashSet<Id> = lists
            .iter()
            .filter(|l| l.exclusive)
            .map(|l| l.account_id)
            .collect();
        let mut targets: Vec<Id> = audience
            .into_iter()
            .filter(|f| !exclusive.contains(f))
            .collect();
        targets.push(reblog.account_id);
        targets.sort();
        targets.dedup();
        self.store
            .insert_feed_entries(reblog.id, reblog.account_id, &targets)
            .await?;
        let list_ids: Vec<Id> = lists.iter().map(|l| l.id).collect();
        self.store
            .insert_list_entries(reblog.id, reblog.account_id, &list_ids)
            .await?;
        Ok(())
    }

    /// A follow of `target` by `follower` began: `target`'s recent statuses (and reblogs, if
    /// the follow shows them) are put into `follower`'s home feed.
    pub(crate) async fn follow_began(
        &self,
        follower: Id,
        target: Id,
        reblogs: bool,
    ) -> ApiResult<()> {
        let recent = self.backfill_entries(target, reblogs, follower).await?;
        self.store
            .backfill_feed(Feed::Home(follower), &recent)
            .await?;
        Ok(())
    }

    /// A follow of `target` by `follower` ended: `follower`'s endorsement of `target` ends,
    /// `target` leaves `follower`'s lists, and its statuses leave `follower`'s feeds.
    pub(crate) async fn follow_ended(&self, follower: Id, target: Id) -> ApiResult<()> {
        self.store.delete_endorsement(follower, target).await?;
        self.store.remove_from_lists(follower, target).await?;
        self.store.remove_author_entries(follower, target).await?;
        Ok(())
    }
}
