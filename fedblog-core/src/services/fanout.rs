//! Fan-out on write: a new status or reblog is inserted into the home feeds of the author's
//! local followers and into the lists that hold the author, by Mastodon's rules; and the feeds'
//! upkeep when a follow starts or ends or an account is muted or blocked.
//!
//! Small audiences are served inside the posting request. Beyond
//! [`InstanceConfig::fanout_inline_max`](crate::config::InstanceConfig::fanout_inline_max) home
//! feeds, the author's own feed and the lists are filled at once and the followers' feeds by a
//! durable [`FAN_OUT`] job, in batches, so that posting stays fast and a crash loses nothing.

use std::collections::HashSet;

use serde_json::{Value, json};

use chrono::{DateTime, Utc};

use crate::error::ApiResult;
use crate::id::{Id, IdGenerator};
use crate::services::jobs::{JobQueue, new_job};
use crate::services::lists::Lists;
use crate::store::{
    AccountNoteStore, Feed, FeedStore, FollowStore, ListRecord, ListStore, RepliesPolicy,
    StatusRecord, StatusStore, Store, Visibility,
};

/// Fills the home feeds of a status's audience; payload `{"status_id": "<id>"}`.
pub const FAN_OUT: &str = "fan_out";

/// Home-feed entries a [`FAN_OUT`] job inserts per store call.
const FAN_OUT_BATCH: usize = 1000;

/// Where a new status goes.
struct Audience {
    /// Home feeds (the author's own included).
    home: Vec<Id>,
    /// Lists.
    lists: Vec<Id>,
}

/// The fan-out area: which feeds a new status or reblog goes to, filling them (at once or
/// through a [`FAN_OUT`] job), and the feeds' upkeep when a follow begins or ends.
pub struct Fanout<'a> {
    statuses: &'a dyn StatusStore,
    follows: &'a dyn FollowStore,
    lists: &'a dyn ListStore,
    feeds: &'a dyn FeedStore,
    list_area: Lists<'a>,
    follow_ending: FollowEnding<'a>,
    queue: JobQueue<'a>,
    /// Most home feeds filled inside a request (see `InstanceConfig::fanout_inline_max`).
    inline_max: usize,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> Fanout<'a> {
    /// The area over `store`, reading recent statuses through `list_area`, queueing on `queue`,
    /// filling at most `inline_max` home feeds inside a request.
    pub fn new(
        store: &'a dyn Store,
        list_area: Lists<'a>,
        queue: JobQueue<'a>,
        inline_max: usize,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Fanout {
            statuses: store,
            follows: store,
            lists: store,
            feeds: store,
            list_area,
            follow_ending: FollowEnding::new(store),
            queue,
            inline_max,
            ids,
            now,
        }
    }

    /// Inserts a new status into feeds (see [`Fanout::status_audience`] for which), its followers'
    /// home feeds through a [`FAN_OUT`] job when they are many.
    pub(crate) async fn fan_out(&self, status: &StatusRecord) -> ApiResult<()> {
        let audience = self.status_audience(status).await?;
        self.deliver(status, audience).await
    }

    /// Inserts a new reblog into feeds (see [`Fanout::reblog_audience_of`] for which), as
    /// [`Fanout::fan_out`] does.
    pub(crate) async fn fan_out_reblog(
        &self,
        reblog: &StatusRecord,
        original: &StatusRecord,
    ) -> ApiResult<()> {
        let audience = self.reblog_audience_of(reblog, original).await?;
        self.deliver(reblog, audience).await
    }

    /// Inserts `status` into its audience's feeds: every one at once, or, beyond
    /// `fanout_inline_max` home feeds, the lists and the author's own feed at once and the rest
    /// through a [`FAN_OUT`] job.
    async fn deliver(&self, status: &StatusRecord, audience: Audience) -> ApiResult<()> {
        let author = status.account_id;
        self.feeds
            .insert_list_entries(status.id, author, &audience.lists)
            .await?;
        if audience.home.len() <= self.inline_max {
            self.feeds
                .insert_feed_entries(status.id, author, &audience.home)
                .await?;
            return Ok(());
        }
        self.feeds
            .insert_feed_entries(status.id, author, &[author])
            .await?;
        let now = self.now;
        let payload = json!({ "status_id": status.id }).to_string();
        self.queue
            .enqueue(&new_job(self.ids.next(), FAN_OUT, &payload, now, now))
            .await
    }

    /// The home feeds (account ids) and lists a status or reblog goes to, by the rules of
    /// [`Fanout::fan_out`]: what streaming sends it to. `None` when a reblog's original is gone.
    pub(crate) async fn audience_of(
        &self,
        status: &StatusRecord,
    ) -> ApiResult<Option<(Vec<Id>, Vec<Id>)>> {
        let audience = match status.reblog_of_id {
            None => self.status_audience(status).await?,
            Some(of) => match self.statuses.status_by_id(of).await? {
                Some(original) => self.reblog_audience_of(status, &original).await?,
                None => return Ok(None),
            },
        };
        Ok(Some((audience.home, audience.lists)))
    }

    /// The [`FAN_OUT`] job: inserts the status into the home feeds of its audience as it is
    /// now, in batches. A status (or a reblog's original) deleted meanwhile has nothing left to
    /// do; running twice inserts nothing twice (feed insertion is idempotent).
    pub(crate) async fn run_fan_out(&self, payload: &Value) -> Result<(), String> {
        let id = payload["status_id"]
            .as_str()
            .and_then(|s| s.parse::<Id>().ok())
            .ok_or("payload has no status_id")?;
        let fail = |e: crate::StoreError| e.to_string();
        let Some(status) = self.statuses.status_by_id(id).await.map_err(fail)? else {
            return Ok(());
        };
        let audience = match status.reblog_of_id {
            None => self.status_audience(&status).await,
            Some(of) => match self.statuses.status_by_id(of).await.map_err(fail)? {
                Some(original) => self.reblog_audience_of(&status, &original).await,
                None => return Ok(()),
            },
        }
        .map_err(|e| e.to_string())?;
        for batch in audience.home.chunks(FAN_OUT_BATCH) {
            self.feeds
                .insert_feed_entries(status.id, status.account_id, batch)
                .await
                .map_err(fail)?;
        }
        Ok(())
    }

    /// Where a new status goes:
    /// - home feeds: the author's own, and its local followers' (for a direct status only the
    ///   mentioned followers; the mentioned others see it through their notifications). A reply
    ///   to another account reaches only the followers that are that account or follow it.
    ///   Followers keeping the author in an exclusive list get it in that list only; followers
    ///   whose follow shows other `languages` only do not get it.
    /// - list feeds (not direct statuses): the lists holding the author, by their replies policy
    ///   (a reply to the list's owner is always shown).
    async fn status_audience(&self, status: &StatusRecord) -> ApiResult<Audience> {
        let author = status.account_id;
        let direct = status.visibility == Visibility::Direct;
        let followers = self.follows.local_follower_ids(author).await?;
        let reply_to = status.in_reply_to_account_id.filter(|to| *to != author);
        let reply_audience = match reply_to {
            Some(to) if !direct => {
                let mut audience: HashSet<Id> = self
                    .follows
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
            self.lists.lists_with_member(author, None).await?
        };
        let exclusive: HashSet<Id> = lists
            .iter()
            .filter(|l| l.exclusive)
            .map(|l| l.account_id)
            .collect();
        // Followers asking for other languages only (a status without a language reaches all).
        let other_languages: HashSet<Id> = match &status.language {
            Some(lang) => self
                .follows
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
        let lists = self
            .list_audience(&lists, reply_to, reply_audience.as_ref())
            .await?;
        Ok(Audience {
            home: targets,
            lists,
        })
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
            self.lists
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

    /// Where a new reblog goes: the reblogger's own home feed, and the home feeds of the
    /// reblogger's local followers whose follow shows reblogs (`reblogs`, true unless turned off),
    /// except followers blocked either way by the original's author or muting it (Mastodon also
    /// filters these at insertion; the store finds that audience in one query). The lists holding
    /// the reblogger get it when their owner is in that audience; owners keeping the reblogger in
    /// an exclusive list get it there only.
    async fn reblog_audience_of(
        &self,
        reblog: &StatusRecord,
        original: &StatusRecord,
    ) -> ApiResult<Audience> {
        let audience: HashSet<Id> = self
            .follows
            .reblog_audience(reblog.account_id, original.account_id, self.now)
            .await?
            .into_iter()
            .collect();
        let lists: Vec<ListRecord> = self
            .lists
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
        Ok(Audience {
            home: targets,
            lists: lists.iter().map(|l| l.id).collect(),
        })
    }

    /// A follow of `target` by `follower` began: `target`'s recent statuses (and reblogs, if
    /// the follow shows them) are put into `follower`'s home feed.
    pub(crate) async fn follow_began(
        &self,
        follower: Id,
        target: Id,
        reblogs: bool,
    ) -> ApiResult<()> {
        let recent = self
            .list_area
            .backfill_entries(target, reblogs, follower)
            .await?;
        self.feeds
            .backfill_feed(Feed::Home(follower), &recent)
            .await?;
        Ok(())
    }

    /// A follow of `target` by `follower` ended (see [`FollowEnding::ended`]).
    pub(crate) async fn follow_ended(&self, follower: Id, target: Id) -> ApiResult<()> {
        self.follow_ending.ended(follower, target).await
    }
}

/// What ends with a follow: the follower's endorsement of the account, the account's places
/// in the follower's lists, and its statuses in the follower's feeds.
pub(crate) struct FollowEnding<'a> {
    endorsements: &'a dyn AccountNoteStore,
    lists: &'a dyn ListStore,
    feeds: &'a dyn FeedStore,
}

impl<'a> FollowEnding<'a> {
    /// Over the endorsements, lists and feeds of `store`.
    pub(crate) fn new(store: &'a dyn Store) -> Self {
        FollowEnding {
            endorsements: store,
            lists: store,
            feeds: store,
        }
    }

    /// A follow of `target` by `follower` ended: `follower`'s endorsement of `target` ends,
    /// `target` leaves `follower`'s lists, and its statuses leave `follower`'s feeds.
    pub(crate) async fn ended(&self, follower: Id, target: Id) -> ApiResult<()> {
        self.endorsements
            .delete_endorsement(follower, target)
            .await?;
        self.lists.remove_from_lists(follower, target).await?;
        self.feeds.remove_author_entries(follower, target).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::App;
    use crate::pagination::Page;
    use crate::services::relationships::FollowOptions;
    use crate::store::{AccountRecord, JobState};
    use crate::test_support::{account, post};

    /// An app filling at most two home feeds inside a request, an author and three followers.
    async fn setup() -> (App, AccountRecord, Vec<AccountRecord>) {
        let mut app = crate::test_support::app("fanout.test");
        app.config.fanout_inline_max = 2;
        let author = account(&app, "author").await;
        let mut followers = vec![];
        for n in 0..3 {
            let f = account(&app, &format!("follower{n}")).await;
            app.relationships()
                .follow(&f, author.id, FollowOptions::default())
                .await
                .expect("follow");
            followers.push(f);
        }
        // The follows queued their notification e-mails: sent now, only fan-outs stay queued.
        app.run_due_jobs("setup", 50, chrono::Duration::seconds(60))
            .await
            .expect("mails");
        (app, author, followers)
    }

    async fn home_has(app: &App, who: &AccountRecord, status: Id) -> bool {
        app.store
            .home_feed(who.id, Page::first(40))
            .await
            .expect("feed")
            .contains(&status)
    }

    async fn queued_fan_outs(app: &App) -> i64 {
        app.store.count_jobs(JobState::Queued).await.expect("count")
    }

    #[tokio::test]
    async fn a_large_audience_is_served_by_a_job_and_the_author_at_once() {
        let (app, author, followers) = setup().await;
        let signal_before = app.job_signal.generation();
        let status = post(&app, &author, "to many", None).await;
        assert!(
            home_has(&app, &author, status.id).await,
            "the author's own feed at once"
        );
        for f in &followers {
            assert!(
                !home_has(&app, f, status.id).await,
                "followers wait for the job"
            );
        }
        assert_eq!(queued_fan_outs(&app).await, 1, "one fan_out job queued");
        assert!(app.job_signal.generation() > signal_before, "workers woken");
        let round = app
            .run_due_jobs("w", 10, chrono::Duration::seconds(60))
            .await
            .expect("round");
        assert_eq!((round.done, round.failed), (1, 0));
        for f in &followers {
            assert!(
                home_has(&app, f, status.id).await,
                "the job filled every feed"
            );
        }
    }

    #[tokio::test]
    async fn a_small_audience_is_served_inside_the_request() {
        let (mut app, author, followers) = setup().await;
        app.config.fanout_inline_max = 4;
        let status = post(&app, &author, "to few", None).await;
        for f in &followers {
            assert!(home_has(&app, f, status.id).await);
        }
        assert_eq!(queued_fan_outs(&app).await, 0);
    }

    #[tokio::test]
    async fn a_reblog_to_a_large_audience_goes_through_the_job() {
        let (app, author, followers) = setup().await;
        let other = account(&app, "other").await;
        let original = post(&app, &other, "worth a reblog", None).await;
        let reblog = app
            .statuses()
            .reblog(&author, None, original.id, None)
            .await
            .expect("reblog");
        assert!(!home_has(&app, &followers[0], reblog.id).await);
        app.run_due_jobs("w", 10, chrono::Duration::seconds(60))
            .await
            .expect("round");
        for f in &followers {
            assert!(home_has(&app, f, reblog.id).await);
        }
    }

    #[tokio::test]
    async fn a_status_deleted_before_its_job_runs_is_not_fanned_out() {
        let (app, author, followers) = setup().await;
        let status = post(&app, &author, "gone soon", None).await;
        app.statuses().delete_status(&status).await.expect("delete");
        let round = app
            .run_due_jobs("w", 10, chrono::Duration::seconds(60))
            .await
            .expect("round");
        assert_eq!((round.done, round.failed), (1, 0), "the job ends quietly");
        for f in &followers {
            assert!(!home_has(&app, f, status.id).await);
        }
    }
}
