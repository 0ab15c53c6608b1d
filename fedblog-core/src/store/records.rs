//! Store records: the plain data stores keep. They carry no serde derives; `render` turns them into API entities.

use chrono::{DateTime, Utc};

use crate::id::Id;
pub use crate::search_query::{Has, In, Is, Text};

/// A role on this server: a built-in one, or a custom role kept by the moderation store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Everything, including other admins.
    Owner,
    /// Administration.
    Admin,
    /// Moderation.
    Moderator,
    /// No special rights.
    User,
    /// A custom role: the id of its [`UserRoleRecord`](crate::store::UserRoleRecord) (a login
    /// whose custom role is gone has the rights of [`Role::User`]).
    Custom(Id),
}

impl Role {
    /// The text used in settings, the CLI and the database: a built-in role's name, or a custom
    /// role's id in decimal.
    pub fn as_str(self) -> std::borrow::Cow<'static, str> {
        match self {
            Role::Owner => "owner".into(),
            Role::Admin => "admin".into(),
            Role::Moderator => "moderator".into(),
            Role::User => "user".into(),
            Role::Custom(id) => id.to_string().into(),
        }
    }
    /// Parses that text: a built-in role's name (in any case), or a custom role's id (whether
    /// such a role exists is not checked here).
    pub fn parse(s: &str) -> Option<Role> {
        Some(match s.to_ascii_lowercase().as_str() {
            "owner" => Role::Owner,
            "admin" => Role::Admin,
            "moderator" => Role::Moderator,
            "user" => Role::User,
            other => Role::Custom(other.parse().ok()?),
        })
    }
}

/// Who may see a status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    /// Everyone, listed on public timelines.
    Public,
    /// Everyone, not on public timelines.
    Unlisted,
    /// Followers and mentioned accounts.
    Private,
    /// Mentioned accounts only.
    Direct,
}

impl Visibility {
    /// Mastodon's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Unlisted => "unlisted",
            Visibility::Private => "private",
            Visibility::Direct => "direct",
        }
    }
    /// Parse Mastodon's name.
    pub fn parse(s: &str) -> Option<Visibility> {
        Some(match s {
            "public" => Visibility::Public,
            "unlisted" => Visibility::Unlisted,
            "private" => Visibility::Private,
            "direct" => Visibility::Direct,
            _ => return None,
        })
    }
}

/// Who suspended an account, as Mastodon's `suspension_origin`: this server's moderators (or
/// one of its domain blocks), or, for a remote account, its own server (its actor said
/// `suspended`). Only a remote suspension is lifted when the actor stops saying so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuspensionOrigin {
    /// Suspended here.
    Local,
    /// Suspended by the account's own server.
    Remote,
}

impl SuspensionOrigin {
    /// The name kept in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            SuspensionOrigin::Local => "local",
            SuspensionOrigin::Remote => "remote",
        }
    }
    /// Parses a name kept in the database.
    pub fn parse(s: &str) -> Option<SuspensionOrigin> {
        Some(match s {
            "local" => SuspensionOrigin::Local,
            "remote" => SuspensionOrigin::Remote,
            _ => return None,
        })
    }
}

/// A name/value pair on a profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileField {
    /// Label.
    pub name: String,
    /// Value (plain text).
    pub value: String,
}

/// An account: local (with a [`UserRecord`]) or remote.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountRecord {
    /// Id.
    pub id: Id,
    /// Username, unique per domain (case-insensitively).
    pub username: String,
    /// `None` for a local account.
    pub domain: Option<String>,
    /// Display name.
    pub display_name: String,
    /// Bio as the owner wrote it (plain text).
    pub note: String,
    /// Follow requests must be approved.
    pub locked: bool,
    /// Automated account.
    pub bot: bool,
    /// Listed in the directory (`None` = not chosen).
    pub discoverable: Option<bool>,
    /// Posts may be indexed by search.
    pub indexable: bool,
    /// Hide followers and following.
    pub hide_collections: Option<bool>,
    /// Profile fields.
    pub fields: Vec<ProfileField>,
    /// Default visibility of new posts.
    pub default_privacy: Visibility,
    /// Mark new posts sensitive by default.
    pub default_sensitive: bool,
    /// Default language of new posts (ISO 639-1), if set.
    pub default_language: Option<String>,
    /// ActivityPub id of a remote account.
    pub uri: Option<String>,
    /// Profile page of a remote account.
    pub url: Option<String>,
    /// File key of the uploaded avatar (`None`: the default image).
    pub avatar: Option<String>,
    /// File key of the uploaded header (`None`: the default image).
    pub header: Option<String>,
    /// A remote account's avatar on its own server. `avatar` holds the same URL until a copy is
    /// downloaded, then the copy's file key.
    pub avatar_remote_url: Option<String>,
    /// A remote account's header on its own server, as `avatar_remote_url`.
    pub header_remote_url: Option<String>,
    /// The account's other identities (ActivityPub actor ids, `alsoKnownAs`): an account may
    /// move to this one only if it is named here.
    pub also_known_as: Vec<String>,
    /// The account this one moved to, once it has.
    pub moved_to_account_id: Option<Id>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last profile change.
    pub updated_at: DateTime<Utc>,
    /// Set while suspended.
    pub suspended_at: Option<DateTime<Utc>>,
    /// Who suspended it, while suspended (`None` with `suspended_at` set: here, as before
    /// origins were kept, and as a domain block suspends).
    pub suspension_origin: Option<SuspensionOrigin>,
    /// Set while every post is forced sensitive.
    pub sensitized_at: Option<DateTime<Utc>>,
    /// Set while the account is silenced (limited) by a moderator or a domain block.
    pub silenced_at: Option<DateTime<Utc>>,
    /// Posts, maintained by the store.
    pub statuses_count: i64,
    /// Followers, maintained by the store.
    pub followers_count: i64,
    /// Followed accounts, maintained by the store.
    pub following_count: i64,
    /// Time of the newest post, maintained by the store.
    pub last_status_at: Option<DateTime<Utc>>,
}

impl AccountRecord {
    /// A new local account with defaults for everything but the name.
    pub fn new_local(id: Id, username: &str, now: DateTime<Utc>) -> Self {
        AccountRecord {
            id,
            username: username.to_string(),
            domain: None,
            display_name: String::new(),
            note: String::new(),
            locked: false,
            bot: false,
            discoverable: None,
            indexable: false,
            hide_collections: None,
            fields: vec![],
            default_privacy: Visibility::Public,
            default_sensitive: false,
            default_language: None,
            uri: None,
            url: None,
            avatar: None,
            header: None,
            avatar_remote_url: None,
            header_remote_url: None,
            also_known_as: vec![],
            moved_to_account_id: None,
            created_at: now,
            updated_at: now,
            suspended_at: None,
            suspension_origin: None,
            sensitized_at: None,
            silenced_at: None,
            statuses_count: 0,
            followers_count: 0,
            following_count: 0,
            last_status_at: None,
        }
    }
    /// Whether the account lives on this server.
    pub fn is_local(&self) -> bool {
        self.domain.is_none()
    }
    /// `username` for local accounts, `username@domain` for remote ones.
    pub fn acct(&self) -> String {
        match &self.domain {
            None => self.username.clone(),
            Some(d) => format!("{}@{}", self.username, d),
        }
    }
    /// Whether the account is suspended.
    pub fn is_suspended(&self) -> bool {
        self.suspended_at.is_some()
    }
    /// Whether the account is suspended by its own server only (see [`SuspensionOrigin`]).
    pub fn is_suspended_remotely(&self) -> bool {
        self.is_suspended() && self.suspension_origin == Some(SuspensionOrigin::Remote)
    }
}

/// The login of a local account.
#[derive(Clone, Debug, PartialEq)]
pub struct UserRecord {
    /// The account this login belongs to.
    pub account_id: Id,
    /// E-mail address, unique (case-insensitively).
    pub email: String,
    /// Argon2 PHC string.
    pub password_hash: String,
    /// Role.
    pub role: Role,
    /// Set once the e-mail address is confirmed.
    pub confirmed_at: Option<DateTime<Utc>>,
    /// Hash of the pending confirmation token.
    pub confirmation_token_hash: Option<String>,
    /// Approved by a moderator (or registrations need no approval).
    pub approved: bool,
    /// Login disabled by a moderator.
    pub disabled: bool,
    /// Interface and e-mail language.
    pub locale: String,
    /// Created.
    pub created_at: DateTime<Utc>,
}

/// A registered client application.
#[derive(Clone, Debug, PartialEq)]
pub struct AppRecord {
    /// Id.
    pub id: Id,
    /// Name shown to users.
    pub name: String,
    /// Homepage.
    pub website: Option<String>,
    /// Where authorization codes may be sent.
    pub redirect_uris: Vec<String>,
    /// Scopes the app may ask for (space-separated).
    pub scopes: String,
    /// Public client id.
    pub client_id: String,
    /// Client secret.
    pub client_secret: String,
    /// Created.
    pub created_at: DateTime<Utc>,
}

/// A pending authorization code (single use).
#[derive(Clone, Debug, PartialEq)]
pub struct AuthorizationRecord {
    /// SHA-256 of the code, hex.
    pub code_hash: String,
    /// The app it was issued to.
    pub app_id: Id,
    /// The user who consented.
    pub account_id: Id,
    /// The redirect URI it was issued for.
    pub redirect_uri: String,
    /// Granted scopes.
    pub scopes: String,
    /// PKCE challenge, if any.
    pub code_challenge: Option<String>,
    /// PKCE method (`S256`).
    pub code_challenge_method: Option<String>,
    /// Expiry.
    pub expires_at: DateTime<Utc>,
}

/// A Web Push subscription: where the push service of one access token's app takes the
/// notifications its alerts and policy let through (one per token).
#[derive(Clone, Debug, PartialEq)]
pub struct PushSubscriptionRecord {
    /// Id.
    pub id: Id,
    /// The access token it belongs to; revoking the token removes it.
    pub token_id: Id,
    /// The account whose notifications it receives.
    pub account_id: Id,
    /// The push service's URL for this subscription.
    pub endpoint: String,
    /// The subscriber's P-256 public key (base64url, as the client gave it).
    pub key_p256dh: String,
    /// The subscriber's authentication secret (base64url, as the client gave it).
    pub key_auth: String,
    /// `true`: RFC 8291 `aes128gcm`; `false`: the older `aesgcm` encoding.
    pub standard: bool,
    /// The notification types it takes (`mention`, `admin.sign_up`, ...).
    pub alerts: Vec<String>,
    /// Whose notifications it takes: `all`, `followed`, `follower` or `none`.
    pub policy: String,
    /// The access token itself, sealed with a key of the server's (the payload carries it, as
    /// Mastodon's does); `None` when it could not be sealed.
    pub sealed_token: Option<String>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// An access token. Only its hash is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenRecord {
    /// Id.
    pub id: Id,
    /// SHA-256 of the token, hex.
    pub token_hash: String,
    /// The app it was issued to.
    pub app_id: Id,
    /// The user it acts for (`None` for an app token from client_credentials).
    pub account_id: Option<Id>,
    /// Granted scopes (space-separated).
    pub scopes: String,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Set once revoked.
    pub revoked_at: Option<DateTime<Utc>>,
}

/// A token with what a request signed with it acts as, as
/// [`OAuthStore::token_with_owner`](super::OAuthStore::token_with_owner) answers it.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenWithOwner {
    /// The token, revoked or not.
    pub token: TokenRecord,
    /// Its application, account and login, read with it; `None` when the store leaves them to
    /// their own reads (`app_by_id`, `account_by_id`, `user_by_account_id`).
    pub owner: Option<TokenOwner>,
}

/// The application a token was issued to and, for a user's token, the account and login.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TokenOwner {
    /// The token's application (`None` if it no longer exists).
    pub app: Option<AppRecord>,
    /// The token's account (`None` for an application's own token, or if it no longer exists).
    pub account: Option<AccountRecord>,
    /// That account's login.
    pub user: Option<UserRecord>,
}

/// A status (post), local or remote.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusRecord {
    /// Id.
    pub id: Id,
    /// Author.
    pub account_id: Id,
    /// ActivityPub id of a remote status.
    pub uri: Option<String>,
    /// Source text as written (local statuses).
    pub text: String,
    /// Rendered, sanitised HTML.
    pub content: String,
    /// Content warning.
    pub spoiler_text: String,
    /// Visibility.
    pub visibility: Visibility,
    /// Sensitive media.
    pub sensitive: bool,
    /// ISO 639-1 language.
    pub language: Option<String>,
    /// Parent status.
    pub in_reply_to_id: Option<Id>,
    /// Author of the parent.
    pub in_reply_to_account_id: Option<Id>,
    /// The app that posted it.
    pub application_id: Option<Id>,
    /// Mentioned accounts.
    pub mentions: Vec<Id>,
    /// Normalised hashtag names.
    pub tags: Vec<String>,
    /// Its media attachments, in display order (Mastodon's `ordered_media_attachment_ids`).
    /// The store attaches them to the status on insert and edit (see `StatusStore`).
    pub media_ids: Vec<Id>,
    /// The client's `Idempotency-Key`, kept to answer retries with the same status.
    pub idempotency_key: Option<String>,
    /// Whether it is local.
    pub local: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last edit.
    pub edited_at: Option<DateTime<Utc>>,
    /// For a reblog: the status reblogged (the reblog itself has no text of its own).
    pub reblog_of_id: Option<Id>,
    /// The thread: the id of the thread's first status (its own id when it starts one).
    pub conversation_id: Option<Id>,
    /// Replies, maintained by the store.
    pub replies_count: i64,
    /// Reblogs, maintained by the store.
    pub reblogs_count: i64,
    /// Favourites, maintained by the store.
    pub favourites_count: i64,
}

impl StatusRecord {
    /// Whether it carries media (for `only_media`).
    pub fn has_media(&self) -> bool {
        !self.media_ids.is_empty()
    }

    /// Whether it replies to someone else's status (such replies stay off public timelines).
    pub fn is_reply_to_other(&self) -> bool {
        self.in_reply_to_account_id
            .is_some_and(|a| a != self.account_id)
    }
}

/// Which statuses a public timeline shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PublicTimelineFilter {
    /// Local statuses only.
    pub local: bool,
    /// Remote statuses only.
    pub remote: bool,
    /// Statuses with media only.
    pub only_media: bool,
}

/// A status's searchable text, as the full-text index keeps it
/// ([`StatusStore::index_statuses`](super::StatusStore::index_statuses)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchDocument {
    /// The status.
    pub status_id: Id,
    /// Its content warning, text, media descriptions and poll options, as plain text.
    pub text: String,
    /// Its language, when known: an engine may also index the words' stems in it.
    pub language: Option<String>,
}

/// A full-text search of statuses ([`StatusStore::search_statuses`](super::StatusStore::search_statuses)).
///
/// Text matches whole words, case-insensitively (an engine may also match other forms of a
/// word, such as its stem); a word or phrase is read as the words its letters and digits make
/// (`#rust` is `rust`, `don't` the phrase `don t`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusSearch {
    /// Who searches.
    pub searcher: Id,
    /// Which statuses are searched: [`In::Library`]: the searcher's own, and those it
    /// favourited, bookmarked, reblogged or is mentioned in; [`In::Public`]: public statuses of
    /// authors whose `indexable` is true; [`In::All`]: both. Never reblogs, never statuses of
    /// suspended authors.
    pub scope: In,
    /// Words and phrases each status found contains (at least one, or at least one condition).
    pub must: Vec<Text>,
    /// Words and phrases no status found contains.
    pub must_not: Vec<Text>,
    /// Conditions each status found meets.
    pub conditions: Vec<SearchCondition>,
    /// Only statuses with a smaller id.
    pub max_id: Option<Id>,
    /// Only statuses with a larger id.
    pub min_id: Option<Id>,
    /// How many of the newest to skip.
    pub offset: u64,
    /// How many to return.
    pub limit: u64,
}

/// One condition of a [`StatusSearch`], or with `negated` its opposite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchCondition {
    /// Statuses that do not meet it.
    pub negated: bool,
    /// The condition.
    pub kind: SearchConditionKind,
}

/// What a [`SearchCondition`] asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchConditionKind {
    /// Written by this account.
    Author(Id),
    /// Carries: [`Has::Media`] any attachment, [`Has::Image`] an image, [`Has::Video`] a video
    /// or a GIF video, [`Has::Audio`] audio, [`Has::Poll`] a poll, [`Has::Link`] a recorded link
    /// ([`LinkStore`](super::LinkStore)), [`Has::Embed`] a preview card with an embed (none
    /// exist yet: nothing has one).
    Has(Has),
    /// [`Is::Reply`] replies to a status; [`Is::Sensitive`] is marked sensitive.
    Is(Is),
    /// In this language (a lower-case code such as `pt`; a status in `pt-BR` is in `pt`).
    Language(String),
    /// Created at or after `from` and before `to`.
    Created {
        /// The start, if any.
        from: Option<DateTime<Utc>>,
        /// The end (excluded), if any.
        to: Option<DateTime<Utc>>,
    },
}

/// What a hashtag timeline shows (`GET /api/v1/timelines/tag/:hashtag`): public statuses, not
/// reblogs, by unsuspended authors, carrying the tags asked. Tag names are normalised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagTimelineFilter {
    /// At least one of these tags (never empty: the path's tag and `any[]`).
    pub any: Vec<String>,
    /// Every one of these tags too.
    pub all: Vec<String>,
    /// None of these tags.
    pub none: Vec<String>,
    /// Local, remote and media filters, as on the public timeline.
    pub place: PublicTimelineFilter,
}

/// Counts for one week of `/api/v1/instance/activity`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WeekActivity {
    /// Local statuses created.
    pub statuses: i64,
    /// Sign-ins (user tokens issued).
    pub logins: i64,
    /// Local accounts created.
    pub registrations: i64,
}

/// Where a background job is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobState {
    /// Waiting for `run_at`.
    Queued,
    /// Claimed by a worker until `locked_until`.
    Running,
    /// Finished.
    Done,
    /// Failed too often; kept for inspection.
    Dead,
}

impl JobState {
    /// The name stored in databases.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Dead => "dead",
        }
    }
    /// Parse a stored name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "queued" => JobState::Queued,
            "running" => JobState::Running,
            "done" => JobState::Done,
            "dead" => JobState::Dead,
            _ => return None,
        })
    }
}

/// A durable background job (delivery, scheduled publication, large fan-out, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct JobRecord {
    /// Id.
    pub id: Id,
    /// What to do, e.g. `publish_scheduled_status`.
    pub kind: String,
    /// The kind's input, as JSON text.
    pub payload: String,
    /// Not before this time.
    pub run_at: DateTime<Utc>,
    /// State.
    pub state: JobState,
    /// How many times a worker claimed it.
    pub attempts: i32,
    /// After this many failed attempts the job is dead.
    pub max_attempts: i32,
    /// The worker holding it.
    pub locked_by: Option<String>,
    /// Until when the worker holds it; after that another worker may take it over.
    pub locked_until: Option<DateTime<Utc>>,
    /// The last failure.
    pub last_error: Option<String>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// When it ended (done or dead).
    pub finished_at: Option<DateTime<Utc>>,
}

/// A status waiting to be published.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduledStatusRecord {
    /// Id (also the id of its publication job).
    pub id: Id,
    /// Author.
    pub account_id: Id,
    /// When to publish.
    pub scheduled_at: DateTime<Utc>,
    /// The status parameters as JSON text (Mastodon's `params`).
    pub params: String,
    /// The app that scheduled it.
    pub application_id: Option<Id>,
    /// Created.
    pub created_at: DateTime<Utc>,
}

/// A mute of one account by another.
#[derive(Clone, Debug, PartialEq)]
pub struct MuteRecord {
    /// Id (the cursor of the mutes list).
    pub id: Id,
    /// Who mutes.
    pub account_id: Id,
    /// Who is muted.
    pub target_id: Id,
    /// Whether notifications from the muted account are hidden too.
    pub notifications: bool,
    /// When the mute ends by itself (`None`: never).
    pub expires_at: Option<DateTime<Utc>>,
}

/// A follow, or a pending follow request, with the follower's options.
#[derive(Clone, Debug, PartialEq)]
pub struct FollowRecord {
    /// Id (the hidden cursor of follower, following and request lists).
    pub id: Id,
    /// Who follows.
    pub account_id: Id,
    /// Who is followed.
    pub target_id: Id,
    /// Whether the target's reblogs reach the follower's home feed.
    pub show_reblogs: bool,
    /// Whether the follower is notified of the target's posts.
    pub notify: bool,
    /// Only posts in these ISO 639-1 languages reach the home feed (`None`: all).
    pub languages: Option<Vec<String>>,
}

impl FollowRecord {
    /// A follow with Mastodon's default options (reblogs shown, no notifications, all languages).
    pub fn new(id: Id, account_id: Id, target_id: Id) -> Self {
        FollowRecord {
            id,
            account_id,
            target_id,
            show_reblogs: true,
            notify: false,
            languages: None,
        }
    }
}

/// A hashtag known to this server.
#[derive(Clone, Debug, PartialEq)]
pub struct TagRecord {
    /// Id.
    pub id: Id,
    /// Normalised name (see `content::normalize_tag`), unique.
    pub name: String,
    /// The name as first written (same letters, original case), or as staff set it.
    pub display_name: String,
    /// First seen.
    pub created_at: DateTime<Utc>,
    /// What staff decided about it (nothing yet for a new tag).
    pub review: TagReview,
}

/// What staff decided about a hashtag (`PUT /api/v1/admin/tags/:id`); `None`: not decided,
/// Mastodon's defaults apply (usable, listable, not trendable).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagReview {
    /// May trend.
    pub trendable: Option<bool>,
    /// Linked and attached in new statuses (`false`: the hashtag stays plain text).
    pub usable: Option<bool>,
    /// Found by hashtag search.
    pub listable: Option<bool>,
    /// When staff last reviewed it (`None`: it still requires review).
    pub reviewed_at: Option<DateTime<Utc>>,
}

impl TagReview {
    /// Whether the tag is attached to new statuses (unless staff said no).
    pub fn usable(&self) -> bool {
        self.usable != Some(false)
    }
    /// Whether hashtag search finds it (unless staff said no).
    pub fn listable(&self) -> bool {
        self.listable != Some(false)
    }
    /// Whether it may trend (only once staff said so).
    pub fn trendable(&self) -> bool {
        self.trendable == Some(true)
    }
}

/// A hashtag an account features on its profile.
#[derive(Clone, Debug, PartialEq)]
pub struct FeaturedTagRecord {
    /// Id.
    pub id: Id,
    /// Owner.
    pub account_id: Id,
    /// The tag.
    pub tag_id: Id,
    /// The tag's normalised name.
    pub name: String,
    /// Created.
    pub created_at: DateTime<Utc>,
}

/// How often a tag was used in a period.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TagUsage {
    /// Statuses carrying the tag.
    pub uses: i64,
    /// Distinct authors of those statuses.
    pub accounts: i64,
}

/// Which of an account's statuses `account_statuses` returns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AccountStatusesFilter {
    /// Statuses with these visibilities ...
    pub visibilities: Vec<Visibility>,
    /// ... plus, whatever their visibility, those mentioning this account.
    pub or_mentioning: Option<Id>,
    /// Leave out replies to other accounts (self-replies stay, as in Mastodon).
    pub exclude_replies: bool,
    /// Only statuses with media.
    pub only_media: bool,
    /// Only statuses carrying this normalised tag.
    pub tagged: Option<String>,
    /// Leave out reblogs.
    pub exclude_reblogs: bool,
}

/// Ordering of the profile directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectoryOrder {
    /// Most recently posted first (accounts that never posted last).
    Active,
    /// Newest accounts first.
    New,
}

/// An account search (`GET /api/v1/accounts/search`).
#[derive(Clone, Debug, PartialEq)]
pub struct AccountSearch {
    /// Lower-cased text to match: a prefix of the username, or a part of the display name.
    pub text: String,
    /// Only accounts on this domain (lower case); `None`: any, local ones included.
    pub domain: Option<String>,
    /// Only accounts this account follows.
    pub followed_by: Option<Id>,
    /// How many to skip.
    pub offset: u64,
    /// How many to return.
    pub limit: u64,
}

/// One revision of a status, kept when the status is edited (the first is the original).
#[derive(Clone, Debug, PartialEq)]
pub struct StatusEditRecord {
    /// Id (ordering: older revisions have smaller ids).
    pub id: Id,
    /// The status.
    pub status_id: Id,
    /// Its author.
    pub account_id: Id,
    /// Source text of this revision.
    pub text: String,
    /// Rendered HTML of this revision.
    pub content: String,
    /// Content warning.
    pub spoiler_text: String,
    /// Sensitive.
    pub sensitive: bool,
    /// The media attachments of this revision, in order.
    pub media_ids: Vec<Id>,
    /// The poll's option titles in this revision (`None`: no poll).
    pub poll_options: Option<Vec<String>>,
    /// When this revision was made (the status's `created_at` for the original).
    pub created_at: DateTime<Utc>,
}

/// A poll attached to a status.
#[derive(Clone, Debug, PartialEq)]
pub struct PollRecord {
    /// Id.
    pub id: Id,
    /// The status it belongs to (one poll per status).
    pub status_id: Id,
    /// The status's author.
    pub account_id: Id,
    /// The options' titles, in order.
    pub options: Vec<String>,
    /// Votes per option (same order), maintained by the store.
    pub votes: Vec<i64>,
    /// Accounts that voted, maintained by the store.
    pub voters_count: i64,
    /// Several choices allowed.
    pub multiple: bool,
    /// Totals hidden until the poll ends.
    pub hide_totals: bool,
    /// When voting ends (`None`: never).
    pub expires_at: Option<DateTime<Utc>>,
    /// Created.
    pub created_at: DateTime<Utc>,
}

/// What kind of file a media attachment is (Mastodon's `type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MediaKind {
    /// A still (or animated GIF) image.
    Image,
    /// A looping silent video.
    Gifv,
    /// A video.
    Video,
    /// Audio.
    Audio,
    /// Anything else (remote files only).
    Unknown,
}

impl MediaKind {
    /// The name on the wire and in databases.
    pub fn as_str(self) -> &'static str {
        match self {
            MediaKind::Image => "image",
            MediaKind::Gifv => "gifv",
            MediaKind::Video => "video",
            MediaKind::Audio => "audio",
            MediaKind::Unknown => "unknown",
        }
    }
    /// Parse a stored name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "image" => MediaKind::Image,
            "gifv" => MediaKind::Gifv,
            "video" => MediaKind::Video,
            "audio" => MediaKind::Audio,
            "unknown" => MediaKind::Unknown,
            _ => return None,
        })
    }
}

/// A custom emoji: an image shown for `:shortcode:` in text. A remote server's (`domain` set)
/// is known from the `Emoji` tags of what it sends and shown in its statuses; a shortcode is
/// unique per domain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomEmojiRecord {
    /// Its id.
    pub id: Id,
    /// The name between the colons (letters, digits and `_`, at least two).
    pub shortcode: String,
    /// The server it belongs to, lower-cased; `None` for this server's own.
    pub domain: Option<String>,
    /// Its ActivityPub id, when it has one.
    pub uri: Option<String>,
    /// Where its image is.
    pub image_url: String,
    /// Where a still version of it is (the image itself when there is none).
    pub static_url: String,
    /// Whether pickers offer it.
    pub visible_in_picker: bool,
    /// A category pickers group it under.
    pub category: Option<String>,
    /// Disabled emojis are not shown.
    pub disabled: bool,
    /// When it was last changed (a remote one: its `updated`, else when it was first seen).
    pub updated_at: DateTime<Utc>,
}

/// Which custom emojis [`MediaStore::list_custom_emojis`](crate::store::MediaStore::list_custom_emojis)
/// lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustomEmojiFilter {
    /// `Some(true)`: this server's only; `Some(false)`: other servers' only; `None`: both.
    pub local: Option<bool>,
    /// Only those of this domain (lower-cased).
    pub domain: Option<String>,
    /// Only those whose shortcode contains this text, compared case-insensitively.
    pub shortcode: Option<String>,
    /// Only those that are not disabled.
    pub enabled_only: bool,
}

/// An uploaded file to attach to a status (a media attachment).
///
/// It is *unattached* while `status_id` is `None`; only unattached media can be attached to a new
/// status, and a scheduled status reserves its media through `scheduled_status_id`.
#[derive(Clone, Debug, PartialEq)]
pub struct MediaRecord {
    /// Id.
    pub id: Id,
    /// The uploader.
    pub account_id: Id,
    /// The status it is attached to (set by the store when a status is inserted or edited with
    /// it; cleared when that status is deleted, so that it can be posted again).
    pub status_id: Option<Id>,
    /// The scheduled status that will post it.
    pub scheduled_status_id: Option<Id>,
    /// Kind.
    pub kind: MediaKind,
    /// The stored original file (a key of the `FileStore`).
    pub file_key: String,
    /// Size of the original in bytes.
    pub file_size: i64,
    /// The generated small preview (a file key), once processed.
    pub preview_key: Option<String>,
    /// A thumbnail the client uploaded (a file key); shown instead of the generated preview.
    pub thumbnail_key: Option<String>,
    /// Alternative text.
    pub description: Option<String>,
    /// Focal point (x, y), each in -1.0..=1.0.
    pub focus: Option<(f64, f64)>,
    /// Mastodon's `meta` without `focus` (`original`, `small`), as JSON text.
    pub meta: String,
    /// BlurHash of the image, once processed.
    pub blurhash: Option<String>,
    /// Whether post-processing finished (until then the API answers 206 and `url` is null for
    /// media processed in the background).
    pub processed: bool,
    /// The original's URL on its server, for remote media.
    pub remote_url: Option<String>,
    /// Uploaded.
    pub created_at: DateTime<Utc>,
}

impl MediaRecord {
    /// The keys of every stored file it has: the original, the preview, the client's thumbnail.
    pub fn file_keys(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.file_key.as_str())
            .chain(self.preview_key.as_deref())
            .chain(self.thumbnail_key.as_deref())
    }
}

/// What a notification is about (Mastodon's notification `type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NotificationType {
    /// Someone mentioned the account.
    Mention,
    /// Someone the account follows with `notify` posted.
    Status,
    /// Someone reblogged one of the account's statuses.
    Reblog,
    /// Someone followed the account.
    Follow,
    /// Someone asked to follow the (locked) account.
    FollowRequest,
    /// Someone favourited one of the account's statuses.
    Favourite,
    /// A poll the account voted in or made has ended.
    Poll,
    /// A status the account reblogged was edited.
    Update,
    /// Someone signed up (moderators and admins).
    AdminSignUp,
    /// A report was filed (moderators and admins).
    AdminReport,
    /// Follows were severed by a moderation action.
    SeveredRelationships,
    /// A moderator warned the account.
    ModerationWarning,
    /// Someone quoted one of the account's statuses (Mastodon 4.5).
    Quote,
    /// A status the account quoted was edited (Mastodon 4.5); the notification carries the
    /// account's own quoting status.
    QuotedUpdate,
}

impl NotificationType {
    /// Every type, in Mastodon's documented order.
    pub const ALL: [NotificationType; 14] = [
        NotificationType::Mention,
        NotificationType::Status,
        NotificationType::Reblog,
        NotificationType::Follow,
        NotificationType::FollowRequest,
        NotificationType::Favourite,
        NotificationType::Poll,
        NotificationType::Update,
        NotificationType::AdminSignUp,
        NotificationType::AdminReport,
        NotificationType::SeveredRelationships,
        NotificationType::ModerationWarning,
        NotificationType::Quote,
        NotificationType::QuotedUpdate,
    ];

    /// Mastodon's name.
    pub fn as_str(self) -> &'static str {
        match self {
            NotificationType::Mention => "mention",
            NotificationType::Status => "status",
            NotificationType::Reblog => "reblog",
            NotificationType::Follow => "follow",
            NotificationType::FollowRequest => "follow_request",
            NotificationType::Favourite => "favourite",
            NotificationType::Poll => "poll",
            NotificationType::Update => "update",
            NotificationType::AdminSignUp => "admin.sign_up",
            NotificationType::AdminReport => "admin.report",
            NotificationType::SeveredRelationships => "severed_relationships",
            NotificationType::ModerationWarning => "moderation_warning",
            NotificationType::Quote => "quote",
            NotificationType::QuotedUpdate => "quoted_update",
        }
    }

    /// Parses Mastodon's name.
    pub fn parse(s: &str) -> Option<NotificationType> {
        NotificationType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// A notification: something `from_account_id` did that concerns `account_id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotificationRecord {
    /// Id (its position in the list).
    pub id: Id,
    /// Who is notified.
    pub account_id: Id,
    /// Who acted.
    pub from_account_id: Id,
    /// What happened.
    pub kind: NotificationType,
    /// The status concerned, for mention, status, reblog (the reblogged status), favourite, poll,
    /// update, quote (the quoting status) and quoted_update (the account's own quoting status).
    pub status_id: Option<Id>,
    /// The report (`admin.report`) or moderation warning (`moderation_warning`) concerned.
    pub subject_id: Option<Id>,
    /// Notifications sharing it are shown as one group (`ungrouped-<id>` for a lone one).
    pub group_key: String,
    /// Held back by the account's notification policy (shown only on request).
    pub filtered: bool,
    /// When.
    pub created_at: DateTime<Utc>,
}

/// Which of an account's notifications a list or count takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NotificationQuery {
    /// Only these types (`None`: every type).
    pub types: Option<Vec<NotificationType>>,
    /// Not these types.
    pub exclude_types: Vec<NotificationType>,
    /// Only those from this account.
    pub from_account_id: Option<Id>,
    /// Only those of this group.
    pub group_key: Option<String>,
    /// Filtered notifications too (otherwise only unfiltered ones).
    pub include_filtered: bool,
}

impl NotificationQuery {
    /// Whether a notification is taken (its recipient aside).
    pub fn matches(&self, n: &NotificationRecord) -> bool {
        self.types.as_ref().is_none_or(|t| t.contains(&n.kind))
            && !self.exclude_types.contains(&n.kind)
            && self.from_account_id.is_none_or(|a| a == n.from_account_id)
            && self.group_key.as_ref().is_none_or(|k| *k == n.group_key)
            && (self.include_filtered || !n.filtered)
    }
}

/// Where an account stopped reading a timeline (`home` or `notifications`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerRecord {
    /// Whose.
    pub account_id: Id,
    /// `home` or `notifications`.
    pub timeline: String,
    /// The newest item read.
    pub last_read_id: Id,
    /// 1 for the first position saved, one more with each later one.
    pub version: i64,
    /// When saved.
    pub updated_at: DateTime<Utc>,
}

/// Which replies a list's feed shows (Mastodon's `replies_policy`). A reply to the list's owner,
/// or an author's reply to itself, is always shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepliesPolicy {
    /// Replies to any account the owner follows.
    Followed,
    /// Replies to members of the list (the default).
    List,
    /// No replies to others.
    None,
}

impl RepliesPolicy {
    /// The API and storage name.
    pub fn as_str(self) -> &'static str {
        match self {
            RepliesPolicy::Followed => "followed",
            RepliesPolicy::List => "list",
            RepliesPolicy::None => "none",
        }
    }

    /// Parses a name written by `as_str`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "followed" => Some(RepliesPolicy::Followed),
            "list" => Some(RepliesPolicy::List),
            "none" => Some(RepliesPolicy::None),
            _ => None,
        }
    }
}

/// A list: a named set of accounts its owner follows, with its own feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListRecord {
    /// Id.
    pub id: Id,
    /// The owner.
    pub account_id: Id,
    /// Title (not blank).
    pub title: String,
    /// Which replies its feed shows.
    pub replies_policy: RepliesPolicy,
    /// Whether its members' posts stay out of the owner's home feed.
    pub exclusive: bool,
}

/// A feed materialised at write time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feed {
    /// The home feed of an account.
    Home(Id),
    /// The feed of a list.
    List(Id),
}

/// How an account stands with another, as [`BlockStore::relations_among`](super::BlockStore::relations_among) answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationRecord {
    /// The other account.
    pub id: Id,
    /// The account blocks it.
    pub blocking: bool,
    /// It blocks the account.
    pub blocked_by: bool,
    /// The account mutes it.
    pub muting: bool,
}

impl RelationRecord {
    /// No relation yet with `id`.
    pub fn new(id: Id) -> Self {
        RelationRecord {
            id,
            blocking: false,
            blocked_by: false,
            muting: false,
        }
    }
}

/// What an account did with a page of statuses, as
/// [`InteractionStore::interactions_among`](super::InteractionStore::interactions_among) answers;
/// each list sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InteractionsRecord {
    /// Statuses it favourited.
    pub favourited: Vec<Id>,
    /// Statuses it reblogged.
    pub reblogged: Vec<Id>,
    /// Statuses it bookmarked.
    pub bookmarked: Vec<Id>,
    /// Its statuses it pinned.
    pub pinned: Vec<Id>,
    /// Threads (conversation ids) it muted.
    pub muted_conversations: Vec<Id>,
}

/// Where a filter applies (Mastodon's filter contexts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FilterContext {
    /// The home and list timelines.
    Home,
    /// Notifications.
    Notifications,
    /// The public timelines (and hashtag and link timelines).
    Public,
    /// A status's thread (its context, and the status itself).
    Thread,
    /// An account's statuses on its profile.
    Account,
}

impl FilterContext {
    /// Every context, in Mastodon's order.
    pub const ALL: [FilterContext; 5] = [
        FilterContext::Home,
        FilterContext::Notifications,
        FilterContext::Public,
        FilterContext::Thread,
        FilterContext::Account,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            FilterContext::Home => "home",
            FilterContext::Notifications => "notifications",
            FilterContext::Public => "public",
            FilterContext::Thread => "thread",
            FilterContext::Account => "account",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Self> {
        FilterContext::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// What a client does with a status a filter matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterAction {
    /// Show it behind a warning naming the filter.
    Warn,
    /// Leave it out (the server leaves it out of timelines and notifications too).
    Hide,
    /// Show it with its media blurred.
    Blur,
}

impl FilterAction {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            FilterAction::Warn => "warn",
            FilterAction::Hide => "hide",
            FilterAction::Blur => "blur",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "warn" => Some(FilterAction::Warn),
            "hide" => Some(FilterAction::Hide),
            "blur" => Some(FilterAction::Blur),
            _ => None,
        }
    }
}

/// A filter: an account's named group of keywords and statuses, with where it applies, what a
/// match does and when it stops applying.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterRecord {
    /// Id.
    pub id: Id,
    /// Owner.
    pub account_id: Id,
    /// Title.
    pub title: String,
    /// Where it applies (at least one, each once).
    pub context: Vec<FilterContext>,
    /// What a match does.
    pub action: FilterAction,
    /// When it stops applying (`None`: never). Expired filters are kept.
    pub expires_at: Option<DateTime<Utc>>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Its keywords, oldest first.
    pub keywords: Vec<FilterKeywordRecord>,
    /// Its statuses, oldest first.
    pub statuses: Vec<FilterStatusRecord>,
}

/// A keyword of a filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterKeywordRecord {
    /// Id.
    pub id: Id,
    /// The filter.
    pub filter_id: Id,
    /// The text matched (case-insensitively).
    pub keyword: String,
    /// Whether it matches whole words only.
    pub whole_word: bool,
}

/// A status a filter matches by id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterStatusRecord {
    /// Id.
    pub id: Id,
    /// The filter.
    pub filter_id: Id,
    /// The status.
    pub status_id: Id,
}

/// One account's view of a direct-message thread: the direct statuses it sent or received in a
/// thread with the same other participants (Mastodon's `AccountConversation`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversationRecord {
    /// Id.
    pub id: Id,
    /// Whose view it is.
    pub account_id: Id,
    /// The thread (the `conversation_id` of its statuses).
    pub thread_id: Id,
    /// The other participants, ascending (empty when the account wrote only to itself).
    pub participant_ids: Vec<Id>,
    /// Its statuses, ascending; never empty (a conversation left without one is removed).
    pub status_ids: Vec<Id>,
    /// Whether a status arrived that the account has not read.
    pub unread: bool,
}

impl ConversationRecord {
    /// The newest status, by which conversations are ordered and paged.
    pub fn last_status_id(&self) -> Option<Id> {
        self.status_ids.last().copied()
    }
}

/// What a notification policy does with the notifications it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyAction {
    /// Shown as usual.
    Accept,
    /// Kept, but only shown on request (`include_filtered`, notification requests).
    Filter,
    /// Not kept at all.
    Drop,
}

impl PolicyAction {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            PolicyAction::Accept => "accept",
            PolicyAction::Filter => "filter",
            PolicyAction::Drop => "drop",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "accept" => Some(PolicyAction::Accept),
            "filter" => Some(PolicyAction::Filter),
            "drop" => Some(PolicyAction::Drop),
            _ => None,
        }
    }
}

/// An account's notification policy: what to do with notifications from each kind of sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotificationPolicyRecord {
    /// Whose.
    pub account_id: Id,
    /// From accounts the account does not follow.
    pub for_not_following: PolicyAction,
    /// From accounts that do not follow the account (or followed it less than three days ago).
    pub for_not_followers: PolicyAction,
    /// From accounts created less than thirty days ago, not followed.
    pub for_new_accounts: PolicyAction,
    /// Private mentions not answering the account, from accounts it does not follow.
    pub for_private_mentions: PolicyAction,
    /// From accounts a moderator limited, not followed.
    pub for_limited_accounts: PolicyAction,
}

impl NotificationPolicyRecord {
    /// Mastodon's defaults: accept all but private mentions and limited accounts (filtered).
    pub fn default_for(account_id: Id) -> Self {
        NotificationPolicyRecord {
            account_id,
            for_not_following: PolicyAction::Accept,
            for_not_followers: PolicyAction::Accept,
            for_new_accounts: PolicyAction::Accept,
            for_private_mentions: PolicyAction::Filter,
            for_limited_accounts: PolicyAction::Filter,
        }
    }
}

/// The filtered notifications one sender sent an account, waiting for the account to accept or
/// dismiss them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotificationRequestRecord {
    /// Id.
    pub id: Id,
    /// Whose.
    pub account_id: Id,
    /// The sender.
    pub from_account_id: Id,
    /// The status of the latest filtered notification that had one.
    pub last_status_id: Option<Id>,
    /// How many of the sender's notifications to the account are filtered (the store counts).
    pub notifications_count: i64,
    /// The first filtered notification.
    pub created_at: DateTime<Utc>,
    /// The latest.
    pub updated_at: DateTime<Utc>,
}

/// The thread a status belongs to (its own id when it has no recorded thread).
pub fn conversation_of(s: &StatusRecord) -> Id {
    s.conversation_id.unwrap_or(s.id)
}

/// The id under which the instance actor's key pair is kept (no account has it): the actor that
/// signs fetches made on nobody's behalf.
pub const INSTANCE_ACTOR: Id = Id(0);

/// The RSA key pair of a local actor (an account, or the instance actor under
/// [`INSTANCE_ACTOR`]), PEM-encoded: PKCS#8 for the private key, SPKI for the public key, as
/// ActivityPub servers publish it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActorKeyRecord {
    /// The account (or [`INSTANCE_ACTOR`]).
    pub owner: Id,
    /// `-----BEGIN PRIVATE KEY-----` ...
    pub private_key_pem: String,
    /// `-----BEGIN PUBLIC KEY-----` ...
    pub public_key_pem: String,
    /// Made.
    pub created_at: DateTime<Utc>,
}

/// What this server knows of the ActivityPub actor behind a remote account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteActorRecord {
    /// The remote account.
    pub account_id: Id,
    /// The actor's ActivityPub id, unique.
    pub uri: String,
    /// `Person`, `Service`, `Application`, `Group` or `Organization`.
    pub actor_type: String,
    /// Its own inbox.
    pub inbox: String,
    /// Its server's shared inbox, if it has one.
    pub shared_inbox: Option<String>,
    /// Its outbox collection.
    pub outbox: Option<String>,
    /// Its followers collection (the addressee of its followers-only posts).
    pub followers: Option<String>,
    /// Its following collection.
    pub following: Option<String>,
    /// Its pinned posts (`featured`), where `Add` and `Remove` of a pin name it.
    pub featured: Option<String>,
    /// Its featured hashtags (`featuredTags`).
    pub featured_tags: Option<String>,
    /// The id of its public key (`keyId` of its signatures), unique.
    pub key_id: String,
    /// Its public key, PEM-encoded.
    pub public_key_pem: String,
    /// When it was last fetched (refreshed when a day old).
    pub fetched_at: DateTime<Utc>,
}
