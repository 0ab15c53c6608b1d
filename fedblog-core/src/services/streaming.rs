//! The streaming area: which channels an event reaches (a status by the rules of the feeds and
//! timelines it goes to, a deletion by the audience it had), and whether a connection may
//! listen to a channel. Rendering each event for each listener is the stream runner's
//! (`services/stream_runner.rs`), through the visibility rule and render of the REST API.

use std::collections::HashSet;

use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::services::fanout::Fanout;
use crate::store::{
    AccountRecord, AccountStore, FollowStore, ListStore, StatusRecord, StatusStore, Store,
    Visibility,
};
use crate::streaming::{Channel, Grants};

/// Where a new or edited status goes.
#[derive(Debug)]
pub struct StatusTargets {
    /// The status (for a reblog, the reblog).
    pub status: StatusRecord,
    /// The accounts whose home feed it goes to (the `user` stream).
    home: HashSet<Id>,
    /// The lists it goes to.
    lists: HashSet<Id>,
    /// Its author is silenced: the public and hashtag streams show it only to the author and
    /// the followers whose home feed it goes to, as the public and hashtag timelines do.
    limited: bool,
}

impl StatusTargets {
    /// Whether it goes to `channel` of a connection of `viewer`'s.
    pub fn reaches(&self, channel: &Channel, viewer: Option<Id>) -> bool {
        let s = &self.status;
        // The public and hashtag timelines' rule: public, not a reblog (and, for the public
        // timelines, not a reply to someone else).
        let listed = s.visibility == Visibility::Public
            && s.reblog_of_id.is_none()
            && (!self.limited || viewer.is_some_and(|v| self.home.contains(&v)));
        match channel {
            Channel::User => viewer.is_some_and(|v| self.home.contains(&v)),
            Channel::List(list) => self.lists.contains(list),
            Channel::Public {
                local,
                remote,
                media,
            } => {
                listed
                    && !s.is_reply_to_other()
                    && (!local || s.local)
                    && (!remote || !s.local)
                    && (!media || s.has_media())
            }
            Channel::Hashtag { tag, local } => {
                listed && s.tags.contains(tag) && (!local || s.local)
            }
            Channel::UserNotification | Channel::Direct => false,
        }
    }
}

/// Where the `delete` of a status goes: the feeds it could be in.
#[derive(Debug)]
pub struct DeletionTargets {
    home: HashSet<Id>,
    lists: HashSet<Id>,
    public: bool,
}

impl DeletionTargets {
    /// Whether the deletion goes to `channel` of a connection of `viewer`'s.
    pub fn reaches(&self, channel: &Channel, viewer: Option<Id>) -> bool {
        match channel {
            Channel::User => viewer.is_some_and(|v| self.home.contains(&v)),
            Channel::List(list) => self.lists.contains(list),
            // A public status's id was public: every public and hashtag listener may drop it.
            // (An unlisted one never reached them.)
            Channel::Public { .. } | Channel::Hashtag { .. } => self.public,
            Channel::UserNotification | Channel::Direct => false,
        }
    }
}

/// The streaming area: `app.streaming()`.
pub struct Streaming<'a> {
    statuses: &'a dyn StatusStore,
    accounts: &'a dyn AccountStore,
    follows: &'a dyn FollowStore,
    lists: &'a dyn ListStore,
    fanout: Fanout<'a>,
    /// Whether the public and hashtag streams need a signed-in account too.
    public_needs_token: bool,
}

impl<'a> Streaming<'a> {
    /// The area over `store`, finding a status's feeds through `fanout`.
    pub fn new(store: &'a dyn Store, fanout: Fanout<'a>, public_needs_token: bool) -> Self {
        Streaming {
            statuses: store,
            accounts: store,
            follows: store,
            lists: store,
            fanout,
            public_needs_token,
        }
    }

    /// Whether `viewer`, granted `grants`, may listen to `channel` (see [`check_channel`]).
    pub async fn check_channel(
        &self,
        viewer: Option<&AccountRecord>,
        grants: Grants,
        channel: &Channel,
    ) -> ApiResult<()> {
        check_channel(self.lists, self.public_needs_token, viewer, grants, channel).await
    }

    /// Where the status `id` goes (`None` when it, or a reblog's original, is gone).
    pub async fn status_targets(&self, id: Id) -> ApiResult<Option<StatusTargets>> {
        let Some(status) = self.statuses.status_by_id(id).await? else {
            return Ok(None);
        };
        let Some((home, lists)) = self.fanout.audience_of(&status).await? else {
            return Ok(None);
        };
        let limited = status.visibility == Visibility::Public
            && self
                .accounts
                .account_by_id(status.account_id)
                .await?
                .is_some_and(|a| a.silenced_at.is_some());
        Ok(Some(StatusTargets {
            status,
            home: home.into_iter().collect(),
            lists: lists.into_iter().collect(),
            limited,
        }))
    }

    /// Where the deletion of a status by `author` of `visibility` mentioning `mentions` goes:
    /// the author's, its local followers' (not for a direct status) and the mentioned accounts'
    /// home feeds, the lists holding the author (not for a direct status), and for a public
    /// status the public and hashtag streams (an unlisted one was never on them: its id stays
    /// unknown there).
    pub async fn deletion_targets(
        &self,
        author: Id,
        visibility: &str,
        mentions: &[Id],
    ) -> ApiResult<DeletionTargets> {
        let direct = visibility == Visibility::Direct.as_str();
        let mut home: HashSet<Id> = mentions.iter().copied().collect();
        home.insert(author);
        let mut lists = HashSet::new();
        if !direct {
            home.extend(self.follows.local_follower_ids(author).await?);
            lists.extend(
                self.lists
                    .lists_with_member(author, None)
                    .await?
                    .into_iter()
                    .map(|l| l.id),
            );
        }
        Ok(DeletionTargets {
            home,
            lists,
            public: visibility == Visibility::Public.as_str(),
        })
    }
}

/// Whether `viewer`, granted `grants`, may listen to `channel`: 401 without an account for a
/// stream that needs one (every stream when `public_needs_token`), 403 outside the token's
/// scopes, 404 for a list that is not the viewer's. A free function, as an open connection
/// checks what it is asked to subscribe to with the list store alone.
pub async fn check_channel(
    lists: &dyn ListStore,
    public_needs_token: bool,
    viewer: Option<&AccountRecord>,
    grants: Grants,
    channel: &Channel,
) -> ApiResult<()> {
    let needs_account = channel.needs_account() || public_needs_token;
    let Some(me) = viewer else {
        return match needs_account {
            true => Err(ApiError::missing_token()),
            false => Ok(()),
        };
    };
    if !grants.allow(channel) {
        return Err(ApiError::outside_scopes());
    }
    if let Channel::List(id) = channel {
        let list = lists.list_by_id(*id).await?;
        if list.is_none_or(|l| l.account_id != me.id) {
            return Err(ApiError::not_found());
        }
    }
    Ok(())
}
