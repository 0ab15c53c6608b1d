//! Mastodon API entities as they go over the wire (serde). Only `render` builds them from records.
#![allow(missing_docs)] // Field names are Mastodon's; see the linked entity docs.
//!
//! Field names and nullability follow <https://docs.joinmastodon.org/entities/>.

use serde::{Deserialize, Serialize};

use crate::id::Id;

/// Datetimes are ISO 8601 with milliseconds and `Z`.
pub type Timestamp = String;

/// A profile field. <https://docs.joinmastodon.org/entities/Account/#Field>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Field {
    /// Label.
    pub name: String,
    /// Value (HTML in `Account`, plain in `source`).
    pub value: String,
    /// When the link in the value was verified.
    pub verified_at: Option<Timestamp>,
}

/// A custom emoji. <https://docs.joinmastodon.org/entities/CustomEmoji/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CustomEmoji {
    /// Name without colons.
    pub shortcode: String,
    /// Image URL.
    pub url: String,
    /// Static image URL.
    pub static_url: String,
    /// Shown in pickers.
    pub visible_in_picker: bool,
    /// Category.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

/// An account. <https://docs.joinmastodon.org/entities/Account/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Account {
    pub id: Id,
    pub username: String,
    pub acct: String,
    pub url: Option<String>,
    pub uri: String,
    pub display_name: String,
    pub note: String,
    pub avatar: String,
    pub avatar_static: String,
    pub header: String,
    pub header_static: String,
    pub locked: bool,
    pub fields: Vec<Field>,
    pub emojis: Vec<CustomEmoji>,
    pub bot: bool,
    pub group: bool,
    pub discoverable: Option<bool>,
    pub indexable: bool,
    pub hide_collections: Option<bool>,
    pub noindex: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspended: Option<bool>,
    pub created_at: Timestamp,
    pub last_status_at: Option<String>,
    pub statuses_count: i64,
    pub followers_count: i64,
    pub following_count: i64,
    pub roles: Vec<AccountRole>,
    /// The account this one moved to, when it has (shown where a single account is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<Box<Account>>,
}

/// A role badge shown on a profile. <https://docs.joinmastodon.org/entities/Account/#AccountRole>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AccountRole {
    pub id: String,
    pub name: String,
    pub color: String,
}

/// The `source` of a credential account: what the owner typed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Source {
    pub note: String,
    pub fields: Vec<Field>,
    pub privacy: String,
    pub sensitive: bool,
    pub language: String,
    pub follow_requests_count: i64,
    pub hide_collections: Option<bool>,
    pub discoverable: Option<bool>,
    pub indexable: bool,
    pub attribution_domains: Vec<String>,
}

/// A role. <https://docs.joinmastodon.org/entities/Role/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Role {
    pub id: String,
    pub name: String,
    pub color: String,
    pub permissions: String,
    pub highlighted: bool,
}

/// The user's preferences by Mastodon's keys (`GET /api/v1/preferences`).
/// <https://docs.joinmastodon.org/methods/preferences/#get>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Preferences {
    /// The visibility a status gets when none is given.
    #[serde(rename = "posting:default:visibility")]
    pub posting_default_visibility: String,
    /// Whether media are marked sensitive when not said.
    #[serde(rename = "posting:default:sensitive")]
    pub posting_default_sensitive: bool,
    /// The language a status gets when none is given (`null`: detected or none).
    #[serde(rename = "posting:default:language")]
    pub posting_default_language: Option<String>,
    /// `default` (hide media marked sensitive), `show_all` or `hide_all`.
    #[serde(rename = "reading:expand:media")]
    pub reading_expand_media: String,
    /// Whether content warnings are expanded.
    #[serde(rename = "reading:expand:spoilers")]
    pub reading_expand_spoilers: bool,
    /// Whether animated images play at once.
    #[serde(rename = "reading:autoplay:gifs")]
    pub reading_autoplay_gifs: bool,
}

/// A Web Push subscription. <https://docs.joinmastodon.org/entities/WebPushSubscription/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WebPushSubscription {
    /// Id.
    pub id: Id,
    /// The push service's URL.
    pub endpoint: String,
    /// `true`: RFC 8291 `aes128gcm`; `false`: the older `aesgcm`.
    pub standard: bool,
    /// The notification types it takes, by name.
    pub alerts: serde_json::Map<String, serde_json::Value>,
    /// The server's VAPID public key.
    pub server_key: String,
    /// Whose notifications it takes: `all`, `followed`, `follower` or `none`.
    pub policy: String,
}

/// The signed-in user's own account. <https://docs.joinmastodon.org/entities/Account/#CredentialAccount>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CredentialAccount {
    #[serde(flatten)]
    pub account: Account,
    pub source: Source,
    pub role: Role,
}

/// A mention in a status. <https://docs.joinmastodon.org/entities/Status/#Mention>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusMention {
    pub id: Id,
    pub username: String,
    pub url: String,
    pub acct: String,
}

/// A hashtag in a status. <https://docs.joinmastodon.org/entities/Status/#Tag>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusTag {
    pub name: String,
    pub url: String,
}

/// A file attached to a status. <https://docs.joinmastodon.org/entities/MediaAttachment/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MediaAttachment {
    pub id: Id,
    /// `image`, `gifv`, `video`, `audio` or `unknown`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The original; `null` while a video or audio upload is being processed.
    pub url: Option<String>,
    /// A small preview (the original image until a preview is made).
    pub preview_url: Option<String>,
    pub remote_url: Option<String>,
    pub preview_remote_url: Option<String>,
    pub text_url: Option<String>,
    /// `original`, `small` and `focus`, as far as known.
    pub meta: serde_json::Value,
    pub description: Option<String>,
    pub blurhash: Option<String>,
}

/// The app that posted a status.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusApplication {
    pub name: String,
    pub website: Option<String>,
}

/// A status. <https://docs.joinmastodon.org/entities/Status/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Status {
    pub id: Id,
    pub uri: String,
    pub url: Option<String>,
    pub created_at: Timestamp,
    pub account: Account,
    pub content: String,
    pub visibility: String,
    pub sensitive: bool,
    pub spoiler_text: String,
    pub media_attachments: Vec<MediaAttachment>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub application: Option<StatusApplication>,
    pub mentions: Vec<StatusMention>,
    pub tags: Vec<StatusTag>,
    pub emojis: Vec<CustomEmoji>,
    pub reblogs_count: i64,
    pub favourites_count: i64,
    pub replies_count: i64,
    pub quotes_count: i64,
    pub in_reply_to_id: Option<Id>,
    pub in_reply_to_account_id: Option<Id>,
    pub reblog: Option<Box<Status>>,
    pub poll: Option<Poll>,
    pub card: Option<PreviewCard>,
    pub language: Option<String>,
    /// Source text; only in answers to the author (delete, source).
    pub text: Option<String>,
    pub edited_at: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub favourited: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reblogged: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub muted: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bookmarked: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<bool>,
    /// The viewer's filters this status matches (signed-in viewers only; `[]` when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filtered: Option<Vec<FilterResult>>,
    /// The status it quotes and where that quote stands (Mastodon 4.5); `null` when none.
    #[serde(default)]
    pub quote: Option<StatusQuote>,
    /// Who may quote it and how that applies to the viewer (Mastodon 4.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote_approval: Option<QuoteApproval>,
}

/// The quote a status makes: a full [`Quote`] at the top level, a [`ShallowQuote`] inside a
/// quoted status.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum StatusQuote {
    /// With the quoted status.
    Full(Quote),
    /// With the quoted status's id only.
    Shallow(ShallowQuote),
}

/// A quote with the quoted status. <https://docs.joinmastodon.org/entities/Quote/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Quote {
    /// `pending`, `accepted`, `rejected`, `revoked`, `deleted` or `unauthorized`.
    pub state: String,
    /// The quoted status, only when the quote is accepted and the viewer may see it.
    pub quoted_status: Option<Box<Status>>,
}

/// A quote with the quoted status's id. <https://docs.joinmastodon.org/entities/ShallowQuote/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ShallowQuote {
    /// As [`Quote::state`].
    pub state: String,
    /// The quoted status's id, only when the quote is accepted and the viewer may see it.
    pub quoted_status_id: Option<Id>,
}

/// Who may quote a status and how that applies to the viewer.
/// <https://docs.joinmastodon.org/entities/QuoteApproval/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct QuoteApproval {
    /// Audiences whose quotes are approved automatically (`public`, `followers`, `following`,
    /// `unsupported_policy`).
    pub automatic: Vec<String>,
    /// Audiences whose quotes the author reviews.
    pub manual: Vec<String>,
    /// `automatic`, `manual`, `denied` or `unknown`, for the viewer.
    pub current_user: String,
}

/// A client application. <https://docs.joinmastodon.org/entities/Application/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Application {
    pub id: Id,
    pub name: String,
    pub website: Option<String>,
    pub scopes: Vec<String>,
    pub redirect_uris: Vec<String>,
    /// Deprecated: the redirect URIs joined by newlines.
    pub redirect_uri: String,
    /// Deprecated: the server's Web Push key.
    pub vapid_key: String,
}

/// An application with its credentials, as returned on registration.
/// <https://docs.joinmastodon.org/entities/Application/#CredentialApplication>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CredentialApplication {
    #[serde(flatten)]
    pub application: Application,
    pub client_id: String,
    pub client_secret: String,
    pub client_secret_expires_at: i64,
}

/// An OAuth token. <https://docs.joinmastodon.org/entities/Token/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Token {
    pub access_token: String,
    pub token_type: String,
    pub scope: String,
    pub created_at: i64,
}

/// A server rule. <https://docs.joinmastodon.org/entities/Rule/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Rule {
    pub id: String,
    pub text: String,
    pub hint: String,
}

/// An empty JSON object, the answer of actions that return nothing.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Empty {}

/// The parameters a scheduled status will be posted with.
/// <https://docs.joinmastodon.org/entities/ScheduledStatus/#params>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ScheduledParams {
    pub text: String,
    pub visibility: String,
    pub sensitive: Option<bool>,
    pub spoiler_text: Option<String>,
    pub in_reply_to_id: Option<i64>,
    pub language: Option<String>,
    pub media_ids: Option<Vec<String>>,
    pub poll: Option<serde_json::Value>,
    pub idempotency: Option<String>,
    pub scheduled_at: Option<String>,
    /// Deprecated; 0 when the status was not scheduled through an app.
    pub application_id: i64,
    /// Deprecated.
    pub with_rate_limit: bool,
}

/// A status that will be published later. <https://docs.joinmastodon.org/entities/ScheduledStatus/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ScheduledStatus {
    pub id: Id,
    pub scheduled_at: Timestamp,
    pub params: ScheduledParams,
    pub media_attachments: Vec<MediaAttachment>,
}

/// How the signed-in account relates to another. <https://docs.joinmastodon.org/entities/Relationship/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Relationship {
    pub id: Id,
    pub following: bool,
    pub showing_reblogs: bool,
    pub notifying: bool,
    pub languages: Option<Vec<String>>,
    pub followed_by: bool,
    pub blocking: bool,
    pub blocked_by: bool,
    pub muting: bool,
    pub muting_notifications: bool,
    pub muting_expires_at: Option<Timestamp>,
    pub requested: bool,
    pub requested_by: bool,
    pub domain_blocking: bool,
    pub endorsed: bool,
    pub note: String,
}

/// Use of a hashtag on one day. <https://docs.joinmastodon.org/entities/Tag/#history>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TagHistory {
    /// Midnight (UTC) of the day, as a UNIX timestamp string.
    pub day: String,
    /// Statuses carrying the tag that day, as a string.
    pub uses: String,
    /// Distinct authors of those statuses, as a string.
    pub accounts: String,
}

/// A hashtag with its recent use. <https://docs.joinmastodon.org/entities/Tag/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Tag {
    pub id: Id,
    /// The name as first written (display form), without `#`.
    pub name: String,
    pub url: String,
    /// The last 7 days, newest first.
    pub history: Vec<TagHistory>,
    /// Only for a signed-in caller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub following: Option<bool>,
    /// Only for a signed-in caller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub featuring: Option<bool>,
}

/// A hashtag as staff see it (`/api/v1/admin/tags`): the tag with what staff decided.
/// <https://docs.joinmastodon.org/entities/Tag/#admin>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminTag {
    #[serde(flatten)]
    pub tag: Tag,
    /// May trend (approved by staff).
    pub trendable: bool,
    /// Attached to new statuses (not disabled by staff).
    pub usable: bool,
    /// Found by hashtag search (not unlisted by staff).
    pub listable: bool,
    /// Staff have not reviewed it yet.
    pub requires_review: bool,
}

/// A hashtag featured on a profile. <https://docs.joinmastodon.org/entities/FeaturedTag/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FeaturedTag {
    pub id: Id,
    pub name: String,
    /// The owner's profile filtered by the tag (`https://DOMAIN/@user/tagged/name`).
    pub url: String,
    /// Public and unlisted statuses of the owner with the tag, as a string.
    pub statuses_count: String,
    /// Day (`YYYY-MM-DD`) of the newest of them.
    pub last_status_at: Option<String>,
}

/// The accounts one follows that follow a given account.
/// <https://docs.joinmastodon.org/entities/FamiliarFollowers/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FamiliarFollowers {
    pub id: Id,
    pub accounts: Vec<Account>,
}

/// A suggested account to follow and why. <https://docs.joinmastodon.org/entities/Suggestion/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Suggestion {
    /// Deprecated single reason: `staff`, `past_interactions` or `global`.
    pub source: String,
    /// The reasons: `featured`, `most_followed`, `most_interactions`,
    /// `similar_to_recently_followed`, `friends_of_friends`.
    pub sources: Vec<String>,
    pub account: Account,
}

/// A list of accounts whose posts make a timeline. <https://docs.joinmastodon.org/entities/List/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct List {
    pub id: Id,
    pub title: String,
    /// `followed`, `list` or `none`.
    pub replies_policy: String,
    /// Whether the members' posts stay out of the home timeline.
    pub exclusive: bool,
}

/// An account in the caller's mutes list: the account plus when the mute ends.
/// <https://docs.joinmastodon.org/methods/mutes/#get>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MutedAccount {
    /// The muted account.
    #[serde(flatten)]
    pub account: Account,
    /// When the mute ends (`null`: never).
    pub mute_expires_at: Option<String>,
}

/// The thread around a status. <https://docs.joinmastodon.org/entities/Context/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Context {
    /// Parents, the thread's first status first.
    pub ancestors: Vec<Status>,
    /// Replies, depth-first in thread order.
    pub descendants: Vec<Status>,
}

/// One revision of a status. <https://docs.joinmastodon.org/entities/StatusEdit/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusEdit {
    /// HTML of this revision.
    pub content: String,
    pub spoiler_text: String,
    pub sensitive: bool,
    /// When this revision was published (the status's `created_at` for the original).
    pub created_at: Timestamp,
    /// The author.
    pub account: Account,
    /// The media of this revision, in order.
    pub media_attachments: Vec<MediaAttachment>,
    pub emojis: Vec<CustomEmoji>,
    /// The poll's options in this revision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll: Option<StatusEditPoll>,
}

/// The poll of a status revision: its options' titles.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusEditPoll {
    pub options: Vec<StatusEditPollOption>,
}

/// One option of a revision's poll.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusEditPollOption {
    pub title: String,
}

/// The source of a status, for editing. <https://docs.joinmastodon.org/entities/StatusSource/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusSource {
    pub id: Id,
    /// Plain text as written.
    pub text: String,
    pub spoiler_text: String,
}

/// A poll attached to a status. <https://docs.joinmastodon.org/entities/Poll/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Poll {
    pub id: Id,
    /// When voting ends (`null`: never).
    pub expires_at: Option<Timestamp>,
    pub expired: bool,
    pub multiple: bool,
    /// Votes received, over all options.
    pub votes_count: i64,
    /// Accounts that voted: for multiple-choice polls only, `null` otherwise.
    pub voters_count: Option<i64>,
    pub options: Vec<PollOption>,
    pub emojis: Vec<CustomEmoji>,
    /// Whether the viewer voted (the author counts as having voted); absent for anonymous callers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub voted: Option<bool>,
    /// The option indexes the viewer chose; absent for anonymous callers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_votes: Option<Vec<usize>>,
}

/// One answer of a poll. <https://docs.joinmastodon.org/entities/Poll/#Option>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PollOption {
    pub title: String,
    /// `null` while the totals are hidden (`hide_totals`, poll still open), except for the author.
    pub votes_count: Option<i64>,
}

/// A machine translation of a status. <https://docs.joinmastodon.org/entities/Translation/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Translation {
    /// The translated content (HTML).
    pub content: String,
    /// The translated content warning (plain text; empty when there is none).
    pub spoiler_text: String,
    /// The translated poll, `null` when the status has none.
    pub poll: Option<TranslationPoll>,
    /// The translated media descriptions.
    pub media_attachments: Vec<TranslationAttachment>,
    /// The source language as the provider detected it.
    pub detected_source_language: String,
    /// The language translated into.
    pub language: String,
    /// The service that translated.
    pub provider: String,
}

/// The translated poll of a status. <https://docs.joinmastodon.org/entities/Translation/#Poll>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TranslationPoll {
    pub id: Id,
    pub options: Vec<TranslationPollOption>,
}

/// One translated poll option.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TranslationPollOption {
    pub title: String,
}

/// A translated media description. <https://docs.joinmastodon.org/entities/Translation/#Attachment>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TranslationAttachment {
    pub id: Id,
    pub description: String,
}

/// Something that happened concerning the caller. <https://docs.joinmastodon.org/entities/Notification/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Notification {
    pub id: Id,
    /// `mention`, `status`, `reblog`, `follow`, `follow_request`, `favourite`, `poll`,
    /// `update`, `admin.sign_up`, `admin.report`, `severed_relationships`, `moderation_warning`,
    /// `quote`, `quoted_update`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Shared by notifications shown as one group (`ungrouped-<id>` for a lone one).
    pub group_key: String,
    pub created_at: Timestamp,
    /// Who acted.
    pub account: Account,
    /// The status concerned, for the types that have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The report, for `admin.report`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
    /// The warning, for `moderation_warning`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moderation_warning: Option<AccountWarning>,
}

/// A moderation decision about one's own account, as its owner sees it.
/// <https://docs.joinmastodon.org/entities/AccountWarning/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AccountWarning {
    pub id: Id,
    /// `none`, `disable`, `mark_statuses_as_sensitive`, `delete_statuses`, `sensitive`,
    /// `silence` or `suspend`.
    pub action: String,
    pub text: String,
    /// The statuses concerned; `null` when it names none.
    pub status_ids: Option<Vec<Id>>,
    pub target_account: Account,
    /// An appeal of it (fedblog takes no appeals: always `null`).
    pub appeal: Option<serde_json::Value>,
    pub created_at: Timestamp,
}

/// A timeline's read position. <https://docs.joinmastodon.org/entities/Marker/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Marker {
    /// The id of the newest item read.
    pub last_read_id: Id,
    /// Goes up by one with each change.
    pub version: i64,
    pub updated_at: Timestamp,
}

/// Notifications shown as groups, with the accounts and statuses they name.
/// <https://docs.joinmastodon.org/methods/grouped_notifications/#GroupedNotificationsResults>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GroupedNotificationsResults {
    /// Accounts the groups name (in full).
    pub accounts: Vec<Account>,
    /// With `expand_accounts=partial_avatars`: the sample accounts not given in full.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_accounts: Option<Vec<PartialAccountWithAvatar>>,
    /// Statuses the groups are about.
    pub statuses: Vec<Status>,
    pub notification_groups: Vec<NotificationGroup>,
}

/// One group of notifications. <https://docs.joinmastodon.org/methods/grouped_notifications/#NotificationGroup>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NotificationGroup {
    pub group_key: String,
    /// Notifications in the group (within the page).
    pub notifications_count: u64,
    #[serde(rename = "type")]
    pub kind: String,
    /// A number, as Mastodon sends it (its docs say a string).
    pub most_recent_notification_id: u64,
    /// The oldest notification of the group in the page.
    pub page_min_id: Id,
    /// The newest notification of the group in the page.
    pub page_max_id: Id,
    pub latest_page_notification_at: Timestamp,
    /// The accounts that acted, most recent first.
    pub sample_account_ids: Vec<Id>,
    /// The status concerned, for the types that have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_id: Option<Id>,
    /// The report, for `admin.report`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
    /// The warning, for `moderation_warning`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moderation_warning: Option<AccountWarning>,
}

/// An account reduced to what an avatar row needs. <https://docs.joinmastodon.org/methods/grouped_notifications/#PartialAccountWithAvatar>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PartialAccountWithAvatar {
    pub id: Id,
    pub acct: String,
    pub url: String,
    pub avatar: String,
    pub avatar_static: String,
    pub locked: bool,
    pub bot: bool,
}

/// A filter. <https://docs.joinmastodon.org/entities/Filter/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Filter {
    pub id: Id,
    pub title: String,
    pub context: Vec<String>,
    pub expires_at: Option<Timestamp>,
    pub filter_action: String,
    /// Left out inside a `FilterResult`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<FilterKeyword>>,
    /// Left out inside a `FilterResult`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<Vec<FilterStatus>>,
}

/// A keyword of a filter. <https://docs.joinmastodon.org/entities/FilterKeyword/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FilterKeyword {
    pub id: Id,
    pub keyword: String,
    pub whole_word: bool,
}

/// A status a filter matches. <https://docs.joinmastodon.org/entities/FilterStatus/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FilterStatus {
    pub id: Id,
    pub status_id: Id,
}

/// A filter a status matched, with what matched. <https://docs.joinmastodon.org/entities/FilterResult/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FilterResult {
    pub filter: Filter,
    /// The text that matched the filter's keywords (`null`: none did).
    pub keyword_matches: Option<Vec<String>>,
    /// The ids of the filter's statuses that matched (`null`: the filter has none).
    pub status_matches: Option<Vec<Id>>,
}

/// A v1 filter: one keyword of a filter, with its filter's settings.
/// <https://docs.joinmastodon.org/entities/V1_Filter/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct V1Filter {
    /// The keyword's id.
    pub id: Id,
    pub phrase: String,
    pub context: Vec<String>,
    pub whole_word: bool,
    pub expires_at: Option<Timestamp>,
    pub irreversible: bool,
}

/// A direct-message thread as one account sees it. <https://docs.joinmastodon.org/entities/Conversation/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Conversation {
    pub id: Id,
    pub unread: bool,
    /// The other participants (the account itself when it wrote only to itself).
    pub accounts: Vec<Account>,
    pub last_status: Option<Status>,
}

/// An account's notification filtering policy. <https://docs.joinmastodon.org/entities/NotificationPolicy/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NotificationPolicy {
    pub for_not_following: String,
    pub for_not_followers: String,
    pub for_new_accounts: String,
    pub for_private_mentions: String,
    pub for_limited_accounts: String,
    pub summary: NotificationPolicySummary,
}

/// What a notification policy holds back.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NotificationPolicySummary {
    pub pending_requests_count: u64,
    pub pending_notifications_count: u64,
}

/// The filtered notifications of one sender. <https://docs.joinmastodon.org/entities/NotificationRequest/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NotificationRequest {
    pub id: Id,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub account: Account,
    /// A number, as a string.
    pub notifications_count: String,
    pub last_status: Option<Status>,
}

/// Whether accepted notification requests are merged into the notifications.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MergedResponse {
    pub merged: bool,
}

/// Search results. <https://docs.joinmastodon.org/entities/Search/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Search {
    /// Accounts found.
    pub accounts: Vec<Account>,
    /// Statuses found.
    pub statuses: Vec<Status>,
    /// Hashtags found, as `Tag` objects.
    pub hashtags: Vec<Tag>,
}

// Administration: accounts (entities of the admin accounts API).

/// An account as moderators see it. <https://docs.joinmastodon.org/entities/Admin_Account/>
/// The login's fields (`email`, `locale`, `role`) are `null` for a remote account, as Mastodon
/// sends them; fedblog records no IP addresses, so `ip` is `null` and `ips` empty.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminAccount {
    pub id: Id,
    pub username: String,
    /// `null` for a local account.
    pub domain: Option<String>,
    pub created_at: Timestamp,
    pub email: Option<String>,
    pub ip: Option<String>,
    pub ips: Vec<AdminIp>,
    pub locale: Option<String>,
    /// The reason given at sign-up, when approval is needed.
    pub invite_request: Option<String>,
    pub role: Option<Role>,
    pub confirmed: bool,
    pub approved: bool,
    pub disabled: bool,
    pub silenced: bool,
    pub suspended: bool,
    pub sensitized: bool,
    pub account: Account,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_by_application_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invited_by_account_id: Option<String>,
}

/// An IP address an account used. <https://docs.joinmastodon.org/entities/Admin_Ip/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminIp {
    pub ip: String,
    pub used_at: Timestamp,
}

// Reports (entities of reports and of the admin reports API).

/// A report as its reporter sees it. <https://docs.joinmastodon.org/entities/Report/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Report {
    pub id: Id,
    pub action_taken: bool,
    pub action_taken_at: Option<Timestamp>,
    /// `spam`, `legal`, `violation` or `other`.
    pub category: String,
    pub comment: String,
    pub forwarded: bool,
    pub created_at: Timestamp,
    /// The statuses named when it was filed.
    pub status_ids: Option<Vec<Id>>,
    /// `null` when it names no rule, as Mastodon sends it.
    pub rule_ids: Option<Vec<Id>>,
    pub target_account: Account,
}

/// A report as moderators see it. <https://docs.joinmastodon.org/entities/Admin_Report/>
/// Statuses and rules deleted since it was filed are left out.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminReport {
    pub id: Id,
    pub action_taken: bool,
    pub action_taken_at: Option<Timestamp>,
    pub category: String,
    pub comment: String,
    pub forwarded: bool,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub account: AdminAccount,
    pub target_account: AdminAccount,
    pub assigned_account: Option<AdminAccount>,
    pub action_taken_by_account: Option<AdminAccount>,
    pub statuses: Vec<Status>,
    pub rules: Vec<Rule>,
}

// Instance policy (rules, texts, terms of service, public domain blocks, languages).

/// The instance's about page text. <https://docs.joinmastodon.org/entities/ExtendedDescription/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ExtendedDescription {
    pub updated_at: Timestamp,
    /// HTML.
    pub content: String,
}

/// The instance's privacy policy. <https://docs.joinmastodon.org/entities/PrivacyPolicy/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PrivacyPolicy {
    pub updated_at: Timestamp,
    /// HTML.
    pub content: String,
}

/// A published version of the terms of service.
/// <https://docs.joinmastodon.org/entities/TermsOfService/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TermsOfService {
    /// `YYYY-MM-DD`.
    pub effective_date: String,
    pub effective: bool,
    /// HTML.
    pub content: String,
    /// The effective date of the next version, if one is published.
    pub succeeded_by: Option<String>,
}

/// A server-wide domain block as the public list shows it.
/// <https://docs.joinmastodon.org/entities/DomainBlock/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DomainBlock {
    /// The domain, partly replaced by `*` when the block asks for it.
    pub domain: String,
    /// SHA-256 (hex) of the domain as blocked.
    pub digest: String,
    pub severity: String,
    /// The public comment, when there is one and the rationale is shown to the caller.
    pub comment: Option<String>,
}

/// A language the instance knows (`GET /api/v1/instance/languages`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Language {
    /// ISO 639-1 code, or ISO 639-3 where there is none.
    pub code: String,
    /// English name.
    pub name: String,
}

// Administration: server-wide blocks (domain blocks and allows, e-mail domain, canonical e-mail
// and IP blocks).

/// A server-wide domain block. <https://docs.joinmastodon.org/entities/Admin_DomainBlock/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminDomainBlock {
    pub id: Id,
    pub domain: String,
    /// SHA-256 of the domain, hex.
    pub digest: String,
    pub created_at: Timestamp,
    pub severity: String,
    pub reject_media: bool,
    pub reject_reports: bool,
    pub private_comment: Option<String>,
    pub public_comment: Option<String>,
    pub obfuscate: bool,
}

/// A domain allowed to federate. <https://docs.joinmastodon.org/entities/Admin_DomainAllow/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminDomainAllow {
    pub id: Id,
    pub domain: String,
    pub created_at: Timestamp,
}

/// A custom emoji as staff see it (`/api/v1/admin/custom_emojis`, fedblog's own: Mastodon
/// has no admin API for emojis): the [`CustomEmoji`] fields with its id, server and state.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminCustomEmoji {
    /// Its id.
    pub id: Id,
    /// Name without colons.
    pub shortcode: String,
    /// The server it belongs to; `null` for this server's own.
    pub domain: Option<String>,
    /// Image URL.
    pub url: String,
    /// Static image URL.
    pub static_url: String,
    /// Shown in pickers.
    pub visible_in_picker: bool,
    /// Category.
    pub category: Option<String>,
    /// Disabled emojis are neither listed nor shown.
    pub disabled: bool,
    /// Its ActivityPub id, when it has one.
    pub uri: Option<String>,
    /// When it last changed.
    pub updated_at: Timestamp,
}

/// One day of sign-up attempts with a blocked e-mail domain.
/// <https://docs.joinmastodon.org/entities/Admin_EmailDomainBlock/#history>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EmailDomainBlockHistory {
    /// UNIX time of the day's start, as a string.
    pub day: String,
    /// Accounts that tried, as a string.
    pub accounts: String,
    /// Attempts, as a string.
    pub uses: String,
}

/// An e-mail domain refused at sign-up. <https://docs.joinmastodon.org/entities/Admin_EmailDomainBlock/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminEmailDomainBlock {
    pub id: Id,
    pub domain: String,
    pub created_at: Timestamp,
    pub history: Vec<EmailDomainBlockHistory>,
}

/// A canonical e-mail address refused at sign-up. <https://docs.joinmastodon.org/entities/Admin_CanonicalEmailBlock/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminCanonicalEmailBlock {
    pub id: Id,
    pub canonical_email_hash: String,
}

/// A blocked IP range. <https://docs.joinmastodon.org/entities/Admin_IpBlock/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminIpBlock {
    pub id: Id,
    pub ip: String,
    pub severity: String,
    pub comment: String,
    pub created_at: Timestamp,
    pub expires_at: Option<Timestamp>,
}

/// A status among trends as staff see them (`/api/v1/admin/trends/statuses`): the status with
/// whether staff have yet to decide if it may trend (Mastodon's `REST::Admin::Trends::StatusSerializer`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminTrendStatus {
    #[serde(flatten)]
    pub status: Status,
    /// Staff have not reviewed it yet.
    pub requires_review: bool,
}

/// A preview card: what was read of the page a status's first link points to.
/// <https://docs.joinmastodon.org/entities/PreviewCard/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PreviewCard {
    pub url: String,
    pub title: String,
    pub description: String,
    /// `link`, `photo`, `video` or `rich`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Fediverse accounts of the authors: none, as fedblog does not read `fediverse:creator`.
    pub authors: Vec<serde_json::Value>,
    pub author_name: String,
    pub author_url: String,
    pub provider_name: String,
    pub provider_url: String,
    /// A sanitised `<iframe>` player of an allowed provider, else `""`.
    pub html: String,
    pub width: i32,
    pub height: i32,
    pub image: Option<String>,
    pub image_description: String,
    pub embed_url: String,
    pub blurhash: Option<String>,
    pub language: Option<String>,
    pub published_at: Option<Timestamp>,
}

/// Shares of a link on one day. <https://docs.joinmastodon.org/entities/PreviewCard/#trends-link>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LinkHistory {
    /// Midnight (UTC) of the day, as a UNIX timestamp string.
    pub day: String,
    /// Statuses sharing the link that day, as a string.
    pub uses: String,
    /// Distinct accounts sharing it that day, as a string.
    pub accounts: String,
}

/// A trending link: a preview card with its week of shares (`Trends::Link`).
/// <https://docs.joinmastodon.org/entities/PreviewCard/#trends-link>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TrendsLink {
    #[serde(flatten)]
    pub card: PreviewCard,
    /// The last 7 days, newest first.
    pub history: Vec<LinkHistory>,
}

/// A link among trends as staff see them (`/api/v1/admin/trends/links`): the trending link
/// with its card's id and review (Mastodon's `REST::Admin::Trends::LinkSerializer`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminTrendLink {
    pub id: Id,
    #[serde(flatten)]
    pub link: TrendsLink,
    /// Whether it may trend.
    pub trendable: bool,
    /// Staff have not reviewed it (nor its publisher) yet.
    pub requires_review: bool,
}

/// A publisher of links as staff see them (`/api/v1/admin/trends/links/publishers`; Mastodon's
/// `REST::Admin::Trends::Links::PreviewCardProviderSerializer`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminTrendPublisher {
    pub id: Id,
    pub domain: String,
    /// Whether its links may trend.
    pub trendable: bool,
    /// Staff have not reviewed it yet.
    pub requires_review: bool,
}

/// A quantitative figure of the server over a range of days.
/// <https://docs.joinmastodon.org/entities/Admin_Measure/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminMeasure {
    pub key: String,
    /// `bytes` for a size, else null.
    pub unit: Option<String>,
    /// As a string.
    pub total: String,
    /// The total for people (`1.5 MB`), for a measure with a unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_value: Option<String>,
    /// The total of the range of as many days just before, as a string; absent for the
    /// per-server measures, whose total is of all time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_total: Option<String>,
    pub data: Vec<AdminMeasureData>,
}

/// One day of a measure. <https://docs.joinmastodon.org/entities/Admin_Measure/#data>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminMeasureData {
    /// Midnight (UTC) of the day.
    pub date: Timestamp,
    /// As a string.
    pub value: String,
}

/// The biggest groups of a kind. <https://docs.joinmastodon.org/entities/Admin_Dimension/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminDimension {
    pub key: String,
    pub data: Vec<AdminDimensionData>,
}

/// One group of a dimension. <https://docs.joinmastodon.org/entities/Admin_Dimension/#data>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminDimensionData {
    pub key: String,
    pub human_key: String,
    /// As a string.
    pub value: String,
    /// `bytes` for a size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The value for people, for sizes and versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_value: Option<String>,
}

/// The local accounts that signed up in one period, and how many were active later.
/// <https://docs.joinmastodon.org/entities/Admin_Cohort/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminCohort {
    /// Midnight (UTC) of the period's first day.
    pub period: Timestamp,
    /// `day` or `month`.
    pub frequency: String,
    pub data: Vec<AdminCohortData>,
}

/// One later period of a cohort. <https://docs.joinmastodon.org/entities/Admin_Cohort/#CohortData>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminCohortData {
    /// Midnight (UTC) of the period's first day.
    pub date: Timestamp,
    /// `value` over the cohort's size.
    pub rate: f64,
    /// As a string.
    pub value: String,
}

/// An announcement staff made for every local user.
/// <https://docs.joinmastodon.org/entities/Announcement/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Announcement {
    pub id: Id,
    /// The text as HTML.
    pub content: String,
    pub starts_at: Option<Timestamp>,
    pub ends_at: Option<Timestamp>,
    /// `false` without `starts_at` and `ends_at`.
    pub all_day: bool,
    pub published_at: Timestamp,
    pub updated_at: Timestamp,
    /// Whether the caller dismissed it; only for a signed-in caller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<bool>,
    pub mentions: Vec<AnnouncementAccount>,
    pub statuses: Vec<AnnouncementStatus>,
    pub tags: Vec<StatusTag>,
    pub emojis: Vec<CustomEmoji>,
    pub reactions: Vec<AnnouncementReaction>,
}

/// An account an announcement mentions.
/// <https://docs.joinmastodon.org/entities/Announcement/#Account>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AnnouncementAccount {
    pub id: Id,
    pub username: String,
    pub url: String,
    pub acct: String,
}

/// A status an announcement links to.
/// <https://docs.joinmastodon.org/entities/Announcement/#Status>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AnnouncementStatus {
    pub id: Id,
    pub url: String,
}

/// The reactions of one emoji to an announcement. <https://docs.joinmastodon.org/entities/Reaction/>
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AnnouncementReaction {
    /// A Unicode emoji, or a custom emoji's shortcode.
    pub name: String,
    pub count: u64,
    /// Whether the caller reacted so; only for a signed-in caller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub me: Option<bool>,
    /// A custom emoji's image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A custom emoji's still image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_url: Option<String>,
}

/// An announcement as staff see it in fedblog's own admin API (`/api/v1/admin/announcements`,
/// which Mastodon does not have): the source text and the draft state too.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdminAnnouncement {
    pub id: Id,
    /// The text as staff wrote it.
    pub text: String,
    pub starts_at: Option<Timestamp>,
    pub ends_at: Option<Timestamp>,
    pub all_day: bool,
    /// Whether users see it.
    pub published: bool,
    /// When it was last published; `null` for one never published.
    pub published_at: Option<Timestamp>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}
