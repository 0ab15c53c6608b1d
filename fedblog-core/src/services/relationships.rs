//! Follows (with their options) and follow requests between accounts, private notes,
//! endorsements, familiar followers, and the relationship between two accounts.

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
pub use crate::services::accounts::AccountPage;
use crate::services::accounts::{accounts_page, lookup_account, visible_account};
use crate::services::fanout::Fanout;
use crate::services::notifications::{Notifications, forget_follow_notifications};
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountNoteStore, AccountRecord, AccountStore, BlockStore, DomainBlockStore, FollowRecord,
    FollowStore, MuteRecord, NotificationStore, NotificationType, Store,
};

/// How one account stands to another, as read from the store (render makes the API's
/// `Relationship` of it).
#[derive(Clone, Debug)]
pub struct Standing {
    /// The other account.
    pub other: Id,
    /// The follow of the other account, if any.
    pub follow: Option<FollowRecord>,
    /// The pending request to follow it, while there is no follow.
    pub request: Option<FollowRecord>,
    /// The mute of the other account, if any.
    pub mute: Option<MuteRecord>,
    /// The other account follows this one.
    pub followed_by: bool,
    /// This account blocks the other.
    pub blocking: bool,
    /// The other account blocks this one.
    pub blocked_by: bool,
    /// The other account asks to follow this one.
    pub requested_by: bool,
    /// This account blocks the other's domain.
    pub domain_blocking: bool,
    /// This account features the other on its profile.
    pub endorsed: bool,
    /// This account's private note on the other.
    pub note: Option<String>,
}

/// The relationships area: follows and follow requests, private notes, endorsements, familiar
/// followers, follower and following lists, and how two accounts stand.
pub struct Relationships<'a> {
    accounts: &'a dyn AccountStore,
    follows: &'a dyn FollowStore,
    blocks: &'a dyn BlockStore,
    domain_blocks: &'a dyn DomainBlockStore,
    notes: &'a dyn AccountNoteStore,
    notification_store: &'a dyn NotificationStore,
    fanout: Fanout<'a>,
    notifications: Notifications<'a>,
    visibility: VisibilityRule<'a>,
    /// This server's domain (an `acct` on it is local).
    domain: &'a str,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
    /// What other servers are told.
    outbox: crate::services::outbox::Outbox<'a>,
}

/// The options of a follow as a request gives them; `None` leaves a value as it is (a new follow
/// takes Mastodon's defaults: reblogs shown, no notifications, all languages).
#[derive(Clone, Debug, Default)]
pub struct FollowOptions {
    /// Show the target's reblogs in the home feed.
    pub reblogs: Option<bool>,
    /// Notify the follower of the target's posts.
    pub notify: Option<bool>,
    /// Only posts in these ISO 639-1 languages; an empty list means all languages again.
    pub languages: Option<Vec<String>>,
}

impl FollowOptions {
    /// Applies the options given to a follow or follow request.
    fn apply_to(&self, mut follow: FollowRecord) -> FollowRecord {
        if let Some(r) = self.reblogs {
            follow.show_reblogs = r;
        }
        if let Some(n) = self.notify {
            follow.notify = n;
        }
        if let Some(l) = &self.languages {
            follow.languages = (!l.is_empty()).then(|| l.clone());
        }
        follow
    }

    /// Checks and normalises `languages` (trimmed, lower case, duplicates dropped, empty entries
    /// ignored): every entry must be an ISO 639-1 code, else 422.
    fn validated(mut self) -> ApiResult<Self> {
        if let Some(langs) = self.languages.take() {
            let mut out: Vec<String> = Vec::new();
            for raw in langs {
                let l = raw.trim().to_ascii_lowercase();
                if l.is_empty() {
                    continue;
                }
                if !ISO_639_1.contains(&l.as_str()) {
                    return Err(ApiError::invalid_field(
                        "languages",
                        "ERR_INVALID",
                        format!("Languages contains {raw:?}, which is not an ISO 639-1 code"),
                    ));
                }
                if !out.contains(&l) {
                    out.push(l);
                }
            }
            self.languages = Some(out);
        }
        Ok(self)
    }
}

/// The ISO 639-1 language codes (two letters) a follow may be restricted to.
pub const ISO_639_1: &[&str] = &[
    "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh",
    "bi", "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da",
    "de", "dv", "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr",
    "fy", "ga", "gd", "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz",
    "ia", "id", "ie", "ig", "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj",
    "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln",
    "lo", "lt", "lu", "lv", "mg", "mh", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb",
    "nd", "ne", "ng", "nl", "nn", "no", "nr", "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi",
    "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru", "rw", "sa", "sc", "sd", "se", "sg", "si", "sk",
    "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su", "sv", "sw", "ta", "te", "tg", "th", "ti",
    "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug", "uk", "ur", "uz", "ve", "vi", "vo",
    "wa", "wo", "xh", "yi", "yo", "za", "zh", "zu",
];

/// The longest private note, in characters (Mastodon's limit).
pub const MAX_NOTE_CHARS: usize = 2000;

/// Most accounts shown per account by `familiar_followers`.
const FAMILIAR_FOLLOWERS_LIMIT: u64 = 80;

impl<'a> Relationships<'a> {
    /// The area over `store`, with the fan-out and notifications areas, the visibility rule, on
    /// the server of `domain`, telling other servers through `outbox`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: &'a dyn Store,
        fanout: Fanout<'a>,
        notifications: Notifications<'a>,
        visibility: VisibilityRule<'a>,
        domain: &'a str,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
        outbox: crate::services::outbox::Outbox<'a>,
    ) -> Self {
        Relationships {
            outbox,
            accounts: store,
            follows: store,
            blocks: store,
            domain_blocks: store,
            notes: store,
            notification_store: store,
            fanout,
            notifications,
            visibility,
            domain,
            ids,
            now,
        }
    }

    /// `me` follows `target` with `options`: at once, or as a request carrying the options when
    /// `target` is locked. Following again is not an error: it updates the options of the follow
    /// (or of the pending request). Following oneself is a 422; following an account blocked
    /// either way, or on a domain `me` blocks, is a 403 (as Mastodon).
    pub async fn follow(
        &self,
        me: &AccountRecord,
        target_id: Id,
        options: FollowOptions,
    ) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        if target.id == me.id {
            return Err(ApiError::invalid_field(
                "account",
                "ERR_INVALID",
                "You cannot follow yourself",
            ));
        }
        let options = options.validated()?;
        if let Some(existing) = self.follows.follow_of(me.id, target.id).await? {
            self.follows
                .upsert_follow(&options.apply_to(existing))
                .await?;
            return Ok(target);
        }
        if self.blocks.blocks(me.id, target.id).await?
            || self.blocks.blocks(target.id, me.id).await?
        {
            return Err(ApiError::forbidden());
        }
        if let Some(domain) = &target.domain
            && self.domain_blocks.domain_blocked(me.id, domain).await?
        {
            return Err(ApiError::forbidden());
        }
        let pending = self.follows.follow_request_of(me.id, target.id).await?;
        if !target.is_local() {
            // Another server answers: the follow waits for its `Accept`.
            let request =
                pending.unwrap_or_else(|| FollowRecord::new(self.ids.next(), me.id, target.id));
            self.follows
                .upsert_follow_request(&options.apply_to(request))
                .await?;
            self.outbox.followed(me.id, target.id).await?;
        } else if target.locked {
            let asked_before = pending.is_some();
            let request =
                pending.unwrap_or_else(|| FollowRecord::new(self.ids.next(), me.id, target.id));
            if self
                .follows
                .upsert_follow_request(&options.apply_to(request))
                .await?
                && !asked_before
            {
                self.notifications
                    .notify(&[target.id], me, NotificationType::FollowRequest, None)
                    .await?;
            }
        } else {
            // A request left from when the target was locked becomes the follow, options kept.
            let base = match pending {
                Some(p) => {
                    self.follows.delete_follow_request(me.id, target.id).await?;
                    FollowRecord {
                        id: self.ids.next(),
                        ..p
                    }
                }
                None => FollowRecord::new(self.ids.next(), me.id, target.id),
            };
            let follow = options.apply_to(base);
            if self.follows.upsert_follow(&follow).await? {
                if me.is_local() {
                    self.fanout
                        .follow_began(me.id, target.id, follow.show_reblogs)
                        .await?;
                }
                self.notifications
                    .retract_notification(target.id, me.id, NotificationType::FollowRequest, None)
                    .await?;
                self.notifications
                    .notify(&[target.id], me, NotificationType::Follow, None)
                    .await?;
            }
        }
        Ok(target)
    }

    /// `me` stops following `target` (and withdraws a pending request); `me`'s endorsement of
    /// `target`, `target`'s places in `me`'s lists and its statuses in `me`'s feeds end with the
    /// follow. Not following is not an error.
    pub async fn unfollow(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        let followed = self.follows.delete_follow(me.id, target.id).await?;
        let requested = self.follows.delete_follow_request(me.id, target.id).await?;
        if followed || requested {
            self.outbox.unfollowed(me.id, target.id).await?;
        }
        self.fanout.follow_ended(me.id, target.id).await?;
        forget_follow_notifications(self.notification_store, target.id, me.id).await?;
        Ok(target)
    }

    /// `target` stops following `me` (with its endorsement of `me`). Not being followed is not an
    /// error.
    pub async fn remove_from_followers(
        &self,
        me: &AccountRecord,
        target_id: Id,
    ) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        self.reject_follow(me.id, target.id).await?;
        Ok(target)
    }

    /// `follower`'s follow of the local account `followed` ends, rejected to `follower`'s
    /// server (whatever the two accounts' states: moderation uses it for suspended accounts).
    pub async fn reject_follow(&self, followed: Id, follower: Id) -> ApiResult<()> {
        if self.follows.delete_follow(follower, followed).await? {
            self.outbox.rejected(follower, followed).await?;
        }
        self.fanout.follow_ended(follower, followed).await?;
        forget_follow_notifications(self.notification_store, followed, follower).await
    }

    /// Accepts `requester`'s pending request to follow `me`, making a follow with the request's
    /// options; 404 when there is none.
    pub async fn authorize_follow_request(
        &self,
        me: &AccountRecord,
        requester: Id,
    ) -> ApiResult<()> {
        let request = self
            .follows
            .follow_request_of(requester, me.id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if !self.follows.delete_follow_request(requester, me.id).await? {
            return Err(ApiError::not_found());
        }
        let reblogs = request.show_reblogs;
        if self
            .follows
            .upsert_follow(&FollowRecord {
                id: self.ids.next(),
                ..request
            })
            .await?
        {
            self.fanout.follow_began(requester, me.id, reblogs).await?;
        }
        self.notifications
            .retract_notification(me.id, requester, NotificationType::FollowRequest, None)
            .await?;
        self.outbox.accepted(requester, me.id).await?;
        Ok(())
    }

    /// Declines `requester`'s pending request to follow `me`; 404 when there is none.
    pub async fn reject_follow_request(&self, me: &AccountRecord, requester: Id) -> ApiResult<()> {
        if !self.follows.delete_follow_request(requester, me.id).await? {
            return Err(ApiError::not_found());
        }
        self.notifications
            .retract_notification(me.id, requester, NotificationType::FollowRequest, None)
            .await?;
        self.outbox.rejected(requester, me.id).await?;
        Ok(())
    }

    /// `POST /api/v1/follows`: follows the account named by `uri`, which is `user`, `@user`,
    /// `user@domain` or `acct:user@domain` (our own domain means local; a remote account must
    /// be known: the endpoint looks it up on its server first). Unknown: 404. Already following: no error,
    /// the options of the follow are kept.
    pub async fn follow_by_uri(&self, me: &AccountRecord, uri: &str) -> ApiResult<AccountRecord> {
        let acct = uri.trim();
        let acct = acct.strip_prefix("acct:").unwrap_or(acct);
        if acct.trim_start_matches('@').is_empty() {
            return Err(ApiError::invalid_field(
                "uri",
                "ERR_BLANK",
                "Uri can't be blank",
            ));
        }
        let target = lookup_account(self.accounts, self.domain, acct).await?;
        self.follow(me, target.id, FollowOptions::default()).await
    }

    /// Sets `me`'s private note on `target` (at most 2000 characters; empty removes it).
    pub async fn set_account_note(
        &self,
        me: &AccountRecord,
        target_id: Id,
        comment: &str,
    ) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        if comment.chars().count() > MAX_NOTE_CHARS {
            return Err(ApiError::invalid_field(
                "comment",
                "ERR_TOO_LONG",
                format!("Comment is too long (maximum is {MAX_NOTE_CHARS} characters)"),
            ));
        }
        self.notes
            .set_account_note(me.id, target.id, comment)
            .await?;
        Ok(target)
    }

    /// `me` features `target` on its profile. As Mastodon, only an account `me` follows can be
    /// endorsed (422 otherwise); endorsing twice is not an error. There is no limit on the number.
    pub async fn endorse(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        if !self.follows.follows(me.id, target.id).await? {
            return Err(ApiError::unprocessable(
                "Validation failed: You must be already following the person you want to endorse",
            ));
        }
        self.notes
            .insert_endorsement(self.ids.next(), me.id, target.id)
            .await?;
        Ok(target)
    }

    /// `me` stops featuring `target` (no error when it did not).
    pub async fn unendorse(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        self.notes.delete_endorsement(me.id, target.id).await?;
        Ok(target)
    }

    /// A page of the accounts `owner_id` features, as `viewer` may see them: nothing for a
    /// suspended owner or one that blocks the viewer; accounts blocked either way by the viewer
    /// are left out (the cursors stay those of the unfiltered page).
    pub async fn endorsements(
        &self,
        viewer: Option<&AccountRecord>,
        owner_id: Id,
        page: Page,
    ) -> ApiResult<AccountPage> {
        let Some(owner) = self.collection_owner(viewer, owner_id, false).await? else {
            return Ok(AccountPage::empty());
        };
        let pairs = self.notes.endorsements_page(owner.id, page).await?;
        let mut page = accounts_page(self.accounts, &pairs).await?;
        if let Some(v) = viewer {
            let ids: Vec<Id> = page.accounts.iter().map(|a| a.id).collect();
            let hidden = self.blocks.blocked_either_way(v.id, &ids).await?;
            page.accounts.retain(|a| !hidden.contains(&a.id));
        }
        Ok(page)
    }

    /// For each account of `ids` (in the order asked, unknown and suspended ones skipped), the
    /// accounts `me` follows that follow it, without those hidden from `me` (blocked either way,
    /// muted) or suspended.
    pub async fn familiar_followers(
        &self,
        me: &AccountRecord,
        ids: &[Id],
    ) -> ApiResult<Vec<(Id, Vec<AccountRecord>)>> {
        let found = self.accounts.accounts_by_ids(ids).await?;
        let mut out = Vec::new();
        for id in ids {
            if !found.iter().any(|a| a.id == *id && !a.is_suspended()) {
                continue;
            }
            let followers = self
                .follows
                .familiar_followers(me.id, *id, FAMILIAR_FOLLOWERS_LIMIT)
                .await?;
            let hidden = self.visibility.hidden_for(me, &followers).await?;
            let shown: Vec<Id> = followers
                .into_iter()
                .filter(|f| !hidden.contains(f))
                .collect();
            let records = self.accounts.accounts_by_ids(&shown).await?;
            let accounts = shown
                .iter()
                .filter_map(|f| {
                    records
                        .iter()
                        .find(|a| a.id == *f && !a.is_suspended())
                        .cloned()
                })
                .collect();
            out.push((*id, accounts));
        }
        Ok(out)
    }

    /// How `me` stands to `other`: the follow (or, while there is none, the pending request),
    /// the mute, blocks both ways, the domain block, endorsement and note.
    pub async fn standing(&self, me: &AccountRecord, other: Id) -> ApiResult<Standing> {
        let follow = self.follows.follow_of(me.id, other).await?;
        let request = match follow {
            Some(_) => None,
            None => self.follows.follow_request_of(me.id, other).await?,
        };
        let domain_blocking = match self.accounts.account_by_id(other).await? {
            Some(AccountRecord {
                domain: Some(d), ..
            }) => {
                self.domain_blocks
                    .domain_blocked(me.id, &d.to_ascii_lowercase())
                    .await?
            }
            _ => false,
        };
        Ok(Standing {
            other,
            follow,
            request,
            mute: self.blocks.mute_of(me.id, other, self.now).await?,
            followed_by: self.follows.follows(other, me.id).await?,
            blocking: self.blocks.blocks(me.id, other).await?,
            blocked_by: self.blocks.blocks(other, me.id).await?,
            requested_by: self.follows.follow_requested(other, me.id).await?,
            domain_blocking,
            endorsed: self.notes.endorses(me.id, other).await?,
            note: self.notes.account_note(me.id, other).await?,
        })
    }

    /// The owner of an account collection (followers, following, endorsements) when `viewer` may
    /// read it, `None` when the answer is an empty list: the owner is suspended or blocks the
    /// viewer, or (for `follow_lists`) hides its follows from others. Unknown owner: 404.
    async fn collection_owner(
        &self,
        viewer: Option<&AccountRecord>,
        owner_id: Id,
        follow_lists: bool,
    ) -> ApiResult<Option<AccountRecord>> {
        let owner = self
            .accounts
            .account_by_id(owner_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let is_owner = viewer.is_some_and(|v| v.id == owner.id);
        let hidden = owner.is_suspended()
            || (follow_lists && !is_owner && owner.hide_collections == Some(true))
            || match viewer {
                Some(v) if !is_owner => self.blocks.blocks(owner.id, v.id).await?,
                _ => false,
            };
        Ok(if hidden { None } else { Some(owner) })
    }

    /// A page of `target`'s followers as `viewer` may see them (empty for a suspended account).
    pub async fn followers(
        &self,
        viewer: Option<&AccountRecord>,
        target_id: Id,
        page: Page,
    ) -> ApiResult<AccountPage> {
        let Some(owner) = self.collection_owner(viewer, target_id, true).await? else {
            return Ok(AccountPage::empty());
        };
        let pairs = self.follows.followers_page(owner.id, page).await?;
        self.visible_in_list(viewer, &owner, accounts_page(self.accounts, &pairs).await?)
            .await
    }

    /// A page of the accounts `target` follows as `viewer` may see them.
    pub async fn following(
        &self,
        viewer: Option<&AccountRecord>,
        target_id: Id,
        page: Page,
    ) -> ApiResult<AccountPage> {
        let Some(owner) = self.collection_owner(viewer, target_id, true).await? else {
            return Ok(AccountPage::empty());
        };
        let pairs = self.follows.following_page(owner.id, page).await?;
        self.visible_in_list(viewer, &owner, accounts_page(self.accounts, &pairs).await?)
            .await
    }

    /// Drops from a followers/following page the accounts blocked either way by the viewer and,
    /// on the viewer's own lists, the accounts the viewer mutes. The cursors stay those of the
    /// unfiltered page, so pagination goes on past hidden entries.
    async fn visible_in_list(
        &self,
        viewer: Option<&AccountRecord>,
        owner: &AccountRecord,
        mut page: AccountPage,
    ) -> ApiResult<AccountPage> {
        let Some(v) = viewer else { return Ok(page) };
        let ids: Vec<Id> = page.accounts.iter().map(|a| a.id).collect();
        let mut hidden: std::collections::HashSet<Id> = self
            .blocks
            .blocked_either_way(v.id, &ids)
            .await?
            .into_iter()
            .collect();
        if v.id == owner.id {
            hidden.extend(self.blocks.muted_among(v.id, &ids, self.now).await?);
        }
        page.accounts.retain(|a| !hidden.contains(&a.id));
        Ok(page)
    }

    /// A page of the requests to follow `me`.
    pub async fn follow_requests(&self, me: &AccountRecord, page: Page) -> ApiResult<AccountPage> {
        let pairs = self.follows.follow_requests_page(me.id, page).await?;
        accounts_page(self.accounts, &pairs).await
    }
}
