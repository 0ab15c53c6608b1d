//! Moderation and administration records and their store: reports, moderation warnings, the
//! server's rules and policy texts, the server-wide blocks and allows (domains, e-mail
//! domains, canonical e-mail addresses, IP ranges), custom user roles, and trends as staff review
//! them (the candidates ranked, the reviews of statuses, links and publishers).
//!
//! [`ModerationStore`] came after the other store traits. A store offers it through
//! [`AccountStore::moderation`](super::AccountStore::moderation) (`None` by default), so stores
//! written before it keep compiling; without it the admin API and reports answer that the
//! server does not offer them.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

use crate::error::StoreResult;
use crate::id::Id;
use crate::pagination::Page;

use super::TagRecord;

/// Why an account was reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReportCategory {
    /// Unwanted or repetitive content.
    Spam,
    /// Illegal content.
    Legal,
    /// Breaks one or more of the server's rules (`rule_ids`).
    Violation,
    /// Anything else.
    Other,
}

impl ReportCategory {
    /// Mastodon's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReportCategory::Spam => "spam",
            ReportCategory::Legal => "legal",
            ReportCategory::Violation => "violation",
            ReportCategory::Other => "other",
        }
    }
    /// Parses Mastodon's name.
    pub fn parse(s: &str) -> Option<ReportCategory> {
        Some(match s {
            "spam" => ReportCategory::Spam,
            "legal" => ReportCategory::Legal,
            "violation" => ReportCategory::Violation,
            "other" => ReportCategory::Other,
            _ => return None,
        })
    }
}

/// A report about an account (and some of its statuses), filed here or received as a `Flag`.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportRecord {
    /// Id.
    pub id: Id,
    /// Who filed it (for a report another server forwarded: an account of that server, or its
    /// instance actor's account).
    pub account_id: Id,
    /// The reported account.
    pub target_account_id: Id,
    /// Reported statuses of the target, in the order given.
    pub status_ids: Vec<Id>,
    /// Rules it breaks (category `violation`).
    pub rule_ids: Vec<Id>,
    /// The reporter's comment.
    pub comment: String,
    /// Category.
    pub category: ReportCategory,
    /// Whether it was forwarded to the target's server (or came from another server).
    pub forwarded: bool,
    /// ActivityPub id of the `Flag` it came as or was sent as.
    pub uri: Option<String>,
    /// The moderator handling it.
    pub assigned_account_id: Option<Id>,
    /// When it was resolved (`None`: open).
    pub action_taken_at: Option<DateTime<Utc>>,
    /// Who resolved it.
    pub action_taken_by_account_id: Option<Id>,
    /// Filed.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// Which reports [`ModerationStore::reports`] lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportFilter {
    /// Resolved ones (`true`) or open ones (`false`).
    pub resolved: bool,
    /// Only those filed by this account.
    pub account_id: Option<Id>,
    /// Only those about this account.
    pub target_account_id: Option<Id>,
}

/// What a moderator did to an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarningAction {
    /// A warning only.
    None,
    /// Login disabled.
    Disable,
    /// Some statuses marked sensitive.
    MarkStatusesAsSensitive,
    /// Some statuses deleted.
    DeleteStatuses,
    /// All media forced sensitive.
    Sensitive,
    /// Limited (silenced).
    Silence,
    /// Suspended.
    Suspend,
}

impl WarningAction {
    /// Mastodon's name (`AccountWarning#action`).
    pub fn as_str(self) -> &'static str {
        match self {
            WarningAction::None => "none",
            WarningAction::Disable => "disable",
            WarningAction::MarkStatusesAsSensitive => "mark_statuses_as_sensitive",
            WarningAction::DeleteStatuses => "delete_statuses",
            WarningAction::Sensitive => "sensitive",
            WarningAction::Silence => "silence",
            WarningAction::Suspend => "suspend",
        }
    }
    /// Parses Mastodon's name.
    pub fn parse(s: &str) -> Option<WarningAction> {
        Some(match s {
            "none" => WarningAction::None,
            "disable" => WarningAction::Disable,
            "mark_statuses_as_sensitive" => WarningAction::MarkStatusesAsSensitive,
            "delete_statuses" => WarningAction::DeleteStatuses,
            "sensitive" => WarningAction::Sensitive,
            "silence" => WarningAction::Silence,
            "suspend" => WarningAction::Suspend,
            _ => return None,
        })
    }
}

/// A moderation decision about an account, shown to it (`moderation_warning` notification).
#[derive(Clone, Debug, PartialEq)]
pub struct AccountWarningRecord {
    /// Id.
    pub id: Id,
    /// The moderator who decided (`None`: the server itself).
    pub account_id: Option<Id>,
    /// The account concerned.
    pub target_account_id: Id,
    /// What was done.
    pub action: WarningAction,
    /// The text shown to the account.
    pub text: String,
    /// The report it resolved.
    pub report_id: Option<Id>,
    /// Statuses concerned.
    pub status_ids: Vec<Id>,
    /// Made.
    pub created_at: DateTime<Utc>,
}

/// Local or remote accounts, for [`AdminAccountFilter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountOrigin {
    /// Accounts of this server.
    Local,
    /// Accounts of other servers.
    Remote,
}

/// An account state, for [`AdminAccountFilter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdminAccountStatus {
    /// Not suspended, not silenced, not disabled, not waiting for approval.
    Active,
    /// A local login waiting for approval.
    Pending,
    /// A local login disabled.
    Disabled,
    /// Silenced (limited).
    Silenced,
    /// Suspended.
    Suspended,
    /// Media forced sensitive.
    Sensitized,
}

/// Which accounts [`ModerationStore::admin_account_ids`] lists; every set field must hold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AdminAccountFilter {
    /// Local or remote.
    pub origin: Option<AccountOrigin>,
    /// In this state.
    pub status: Option<AdminAccountStatus>,
    /// Only local accounts whose role is one of these (as [`Role::as_str`](crate::store::Role::as_str)
    /// writes them: `user`, `moderator`, `admin`, `owner`, or a custom role's id); empty: any.
    pub roles: Vec<String>,
    /// Only accounts on this domain (lower case; for remote accounts).
    pub by_domain: Option<String>,
    /// Username containing this (case-insensitively).
    pub username: Option<String>,
    /// Display name containing this (case-insensitively).
    pub display_name: Option<String>,
    /// Local accounts whose e-mail address contains this (case-insensitively).
    pub email: Option<String>,
}

/// A custom user role (Mastodon's `UserRole`), held by the logins whose
/// [`Role`](crate::store::Role) is [`Role::Custom`](crate::store::Role::Custom) of its id. The
/// built-in roles (owner, admin, moderator, and everyone's) are not kept here.
#[derive(Clone, Debug, PartialEq)]
pub struct UserRoleRecord {
    /// Id (never one of the built-in roles' API ids: `-99`, `1`, `2`, `3`).
    pub id: Id,
    /// Name shown on badges and in the admin API.
    pub name: String,
    /// Badge colour, `#rrggbb` or `#rgb`, or empty for none.
    pub color: String,
    /// Permission flags (the bits of [`Permissions`](crate::permissions::Permissions)); the
    /// holder also has everyone's.
    pub permissions: u64,
    /// Rank: a moderator acts only on accounts whose role ranks strictly lower (the built-in
    /// roles rank: everyone -1, moderator 10, admin 100, owner 1000).
    pub position: i32,
    /// Shown as a badge on its holders' profiles (`Account.roles`).
    pub highlighted: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// One of the server's rules.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleRecord {
    /// Id.
    pub id: Id,
    /// The rule.
    pub text: String,
    /// Longer explanation.
    pub hint: String,
    /// Order among the rules (smallest first).
    pub position: i32,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// One version of the terms of service.
#[derive(Clone, Debug, PartialEq)]
pub struct TermsOfServiceRecord {
    /// Id.
    pub id: Id,
    /// The terms (Markdown, as Mastodon keeps them).
    pub text: String,
    /// What changed since the previous version.
    pub changelog: String,
    /// The day they apply from.
    pub effective_date: NaiveDate,
    /// Published (`None`: a draft, not shown).
    pub published_at: Option<DateTime<Utc>>,
    /// Created.
    pub created_at: DateTime<Utc>,
}

/// How hard a server-wide domain block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomainBlockSeverity {
    /// Nothing but the block's other flags (`reject_media`, `reject_reports`).
    Noop,
    /// The domain's accounts are silenced.
    Silence,
    /// The domain's accounts are suspended; nothing is exchanged with it.
    Suspend,
}

impl DomainBlockSeverity {
    /// Mastodon's name.
    pub fn as_str(self) -> &'static str {
        match self {
            DomainBlockSeverity::Noop => "noop",
            DomainBlockSeverity::Silence => "silence",
            DomainBlockSeverity::Suspend => "suspend",
        }
    }
    /// Parses Mastodon's name.
    pub fn parse(s: &str) -> Option<DomainBlockSeverity> {
        Some(match s {
            "noop" => DomainBlockSeverity::Noop,
            "silence" => DomainBlockSeverity::Silence,
            "suspend" => DomainBlockSeverity::Suspend,
            _ => return None,
        })
    }
}

/// A server-wide block of a domain (`/api/v1/admin/domain_blocks`).
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceDomainBlockRecord {
    /// Id.
    pub id: Id,
    /// The domain (lower case; covers its subdomains).
    pub domain: String,
    /// Severity.
    pub severity: DomainBlockSeverity,
    /// Media from the domain is not stored.
    pub reject_media: bool,
    /// Reports from the domain are ignored.
    pub reject_reports: bool,
    /// Note for moderators only.
    pub private_comment: Option<String>,
    /// Reason shown publicly.
    pub public_comment: Option<String>,
    /// Show the domain partly hidden in public lists.
    pub obfuscate: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
}

/// A domain allowed to federate (allow-list mode), an e-mail domain refused at sign-up, or a
/// canonical e-mail hash refused at sign-up: an id, a value, a creation time.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedValueRecord {
    /// Id.
    pub id: Id,
    /// The domain (lower case) or the hash (hex).
    pub value: String,
    /// Created.
    pub created_at: DateTime<Utc>,
}

/// The lists of [`ListedValueRecord`]s the store keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueList {
    /// Domains allowed to federate (`/api/v1/admin/domain_allows`).
    DomainAllows,
    /// E-mail domains refused at sign-up (`/api/v1/admin/email_domain_blocks`).
    EmailDomainBlocks,
    /// SHA-256 hashes (hex) of canonical e-mail addresses refused at sign-up
    /// (`/api/v1/admin/canonical_email_blocks`).
    CanonicalEmailBlocks,
}

/// What an IP block does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpBlockSeverity {
    /// Sign-ups from the range need approval.
    SignUpRequiresApproval,
    /// No sign-ups from the range.
    SignUpBlock,
    /// No access from the range.
    NoAccess,
}

impl IpBlockSeverity {
    /// Mastodon's name.
    pub fn as_str(self) -> &'static str {
        match self {
            IpBlockSeverity::SignUpRequiresApproval => "sign_up_requires_approval",
            IpBlockSeverity::SignUpBlock => "sign_up_block",
            IpBlockSeverity::NoAccess => "no_access",
        }
    }
    /// Parses Mastodon's name.
    pub fn parse(s: &str) -> Option<IpBlockSeverity> {
        Some(match s {
            "sign_up_requires_approval" => IpBlockSeverity::SignUpRequiresApproval,
            "sign_up_block" => IpBlockSeverity::SignUpBlock,
            "no_access" => IpBlockSeverity::NoAccess,
            _ => return None,
        })
    }
}

/// A block of an IP range (`/api/v1/admin/ip_blocks`).
#[derive(Clone, Debug, PartialEq)]
pub struct IpBlockRecord {
    /// Id.
    pub id: Id,
    /// The range in CIDR notation (`192.0.2.0/24`, `2001:db8::/32`; a single address has its
    /// full prefix length).
    pub ip: String,
    /// What it does.
    pub severity: IpBlockSeverity,
    /// Note for moderators.
    pub comment: String,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// When it stops applying (`None`: never).
    pub expires_at: Option<DateTime<Utc>>,
}

/// Moderation and administration data (see the module documentation). Lists are newest first
/// unless a method says otherwise; pages follow the store contract of [`Page`].
#[async_trait]
pub trait ModerationStore: Send + Sync {
    // Reports

    /// Inserts a report.
    async fn insert_report(&self, report: &ReportRecord) -> StoreResult<()>;
    /// The report with this id.
    async fn report_by_id(&self, id: Id) -> StoreResult<Option<ReportRecord>>;
    /// Replaces a report (`NotFound` if it does not exist).
    async fn update_report(&self, report: &ReportRecord) -> StoreResult<()>;
    /// One page of the reports `filter` selects, newest first.
    async fn reports(&self, filter: &ReportFilter, page: Page) -> StoreResult<Vec<ReportRecord>>;

    // Moderation warnings

    /// Inserts a moderation warning.
    async fn insert_account_warning(&self, warning: &AccountWarningRecord) -> StoreResult<()>;
    /// The moderation warning with this id.
    async fn account_warning_by_id(&self, id: Id) -> StoreResult<Option<AccountWarningRecord>>;

    // Accounts, as administrators list them

    /// One page of the ids of the accounts `filter` selects, newest (largest id) first.
    async fn admin_account_ids(
        &self,
        filter: &AdminAccountFilter,
        page: Page,
    ) -> StoreResult<Vec<Id>>;

    // Rules and policy texts

    /// The rules, by position then id.
    async fn rules(&self) -> StoreResult<Vec<RuleRecord>>;
    /// Inserts or replaces a rule (by id).
    async fn save_rule(&self, rule: &RuleRecord) -> StoreResult<()>;
    /// Deletes a rule; returns whether it existed.
    async fn delete_rule(&self, id: Id) -> StoreResult<bool>;
    /// A server setting (policy texts and switches, by name), if set.
    async fn setting(&self, name: &str) -> StoreResult<Option<String>>;
    /// Sets a server setting, or removes it with `None`.
    async fn set_setting(&self, name: &str, value: Option<&str>) -> StoreResult<()>;
    /// Every version of the terms of service, newest effective date first.
    async fn terms_of_service(&self) -> StoreResult<Vec<TermsOfServiceRecord>>;
    /// Inserts or replaces a version of the terms of service (by id; one per effective date:
    /// `AlreadyExists("effective_date")` for another id on a taken date).
    async fn save_terms_of_service(&self, terms: &TermsOfServiceRecord) -> StoreResult<()>;

    // Server-wide blocks and allows

    /// Every server-wide domain block, newest first.
    async fn instance_domain_blocks(&self) -> StoreResult<Vec<InstanceDomainBlockRecord>>;
    /// Inserts or replaces a domain block (by id; `AlreadyExists("domain")` for another id on a
    /// blocked domain).
    async fn save_instance_domain_block(
        &self,
        block: &InstanceDomainBlockRecord,
    ) -> StoreResult<()>;
    /// Deletes a domain block; returns whether it existed.
    async fn delete_instance_domain_block(&self, id: Id) -> StoreResult<bool>;
    /// Every value of `list`, newest first.
    async fn listed_values(&self, list: ValueList) -> StoreResult<Vec<ListedValueRecord>>;
    /// Adds a value to `list` (`AlreadyExists("value")` if it is there).
    async fn insert_listed_value(
        &self,
        list: ValueList,
        value: &ListedValueRecord,
    ) -> StoreResult<()>;
    /// Removes a value from `list` by id; returns whether it was there.
    async fn delete_listed_value(&self, list: ValueList, id: Id) -> StoreResult<bool>;
    /// Every IP block, newest first, expired ones included.
    async fn ip_blocks(&self) -> StoreResult<Vec<IpBlockRecord>>;
    /// Inserts or replaces an IP block (by id; `AlreadyExists("ip")` for another id on the same
    /// range).
    async fn save_ip_block(&self, block: &IpBlockRecord) -> StoreResult<()>;
    /// Deletes an IP block; returns whether it existed.
    async fn delete_ip_block(&self, id: Id) -> StoreResult<bool>;

    // Custom user roles

    /// Every custom role, by position then id.
    async fn user_roles(&self) -> StoreResult<Vec<UserRoleRecord>>;
    /// The custom role with this id.
    async fn user_role_by_id(&self, id: Id) -> StoreResult<Option<UserRoleRecord>>;
    /// Inserts or replaces a custom role (by id).
    async fn save_user_role(&self, role: &UserRoleRecord) -> StoreResult<()>;
    /// Deletes a custom role; returns whether it existed. The logins holding it are left as they
    /// are: a login whose custom role is gone has the rights and rank of the plain user role
    /// (see [`crate::permissions`]), and whoever deletes a role gives its holders
    /// [`Role::User`](crate::store::Role::User) through
    /// [`AccountStore::update_user`](crate::store::AccountStore::update_user), which caches of
    /// logins learn of (as `fedblog-server roles delete` does).
    async fn delete_user_role(&self, id: Id) -> StoreResult<bool>;

    // Trends

    /// Records what staff decided about a candidate for trends, replacing an earlier review of
    /// the same `kind` and `target`.
    async fn set_trend_review(&self, review: &TrendReviewRecord) -> StoreResult<()>;
    /// The reviews of those of `targets` (of `kind`) that staff reviewed, each once, in no
    /// particular order: a target never reviewed (or unknown) has none.
    async fn trend_reviews(
        &self,
        kind: TrendKind,
        targets: &[Id],
    ) -> StoreResult<Vec<TrendReviewRecord>>;
    /// The tags carried by statuses created at or after `since`, reviewed or not, ranked by the
    /// distinct authors of those statuses, then by how many statuses they are, then newest tag
    /// (largest id) first; `offset` of them skipped, at most `limit` given. The statuses
    /// counted are those [`TagStore::tag_usage`](super::TagStore::tag_usage) counts.
    async fn trending_tags(
        &self,
        since: DateTime<Utc>,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<TagRecord>>;
    /// The ids of the statuses that may trend and that accounts other than their author
    /// favourited or reblogged: public statuses created at or after `since`, neither reblogs nor
    /// replies, by authors neither suspended nor silenced. Ranked by how many distinct accounts
    /// (the author aside) favourited or reblogged each, then newest (largest id) first; `offset`
    /// of them skipped, at most `limit` given.
    async fn trending_status_ids(
        &self,
        since: DateTime<Utc>,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<Id>>;
    /// The hashtags used by statuses created at or after `since` that count towards trends,
    /// each tag once with every such use: public statuses that are not reblogs, by authors
    /// neither suspended nor silenced (staff reviews and usability are on the tag, for the
    /// caller to read). Uses in no particular order, tags in no particular order. The default
    /// finds none, which is correct but weaker: nothing trends (capability `ScoresTrends` of the
    /// store suite).
    async fn trend_tag_uses(&self, since: DateTime<Utc>) -> StoreResult<Vec<TrendTagUses>> {
        let _ = since;
        Ok(vec![])
    }
    /// The statuses that may trend, created at or after `since`, that accounts other than their
    /// author favourited or reblogged, each once with how many distinct such accounts did and
    /// its staff review: public statuses that are neither reblogs nor replies, neither
    /// sensitive nor behind a content warning, by authors who are discoverable
    /// (`discoverable = Some(true)`) and neither suspended nor silenced. In no particular order.
    /// The default finds none, which is correct but weaker: nothing trends (capability
    /// `ScoresTrends` of the store suite).
    async fn trend_status_candidates(
        &self,
        since: DateTime<Utc>,
    ) -> StoreResult<Vec<TrendStatusCandidate>> {
        let _ = since;
        Ok(vec![])
    }
}

/// One use of a hashtag by a status, for scoring trends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TrendUse {
    /// The author of the status.
    pub account_id: Id,
    /// When the status was created.
    pub at: DateTime<Utc>,
}

/// A hashtag with its uses that count towards trends
/// ([`ModerationStore::trend_tag_uses`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TrendTagUses {
    /// The tag, with its staff review.
    pub tag: TagRecord,
    /// Its uses, one per status.
    pub uses: Vec<TrendUse>,
}

/// A status that may trend, with what its score is computed from
/// ([`ModerationStore::trend_status_candidates`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TrendStatusCandidate {
    /// The status.
    pub status_id: Id,
    /// Its author.
    pub account_id: Id,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// Its language, if known.
    pub language: Option<String>,
    /// The distinct accounts, its author aside, that favourited or reblogged it.
    pub accounts: u64,
    /// What staff decided (`Some(true)`: may trend), `None` before any review.
    pub trendable: Option<bool>,
}

/// What a trend review is about. Hashtags keep their review on the tag itself
/// ([`TagReview`](super::TagReview)); links and publishers come with preview cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TrendKind {
    /// A status.
    Status,
    /// A link (a preview card).
    Link,
    /// A publisher of links (a preview card provider, by its id).
    Publisher,
}

impl TrendKind {
    /// The name stored.
    pub fn as_str(self) -> &'static str {
        match self {
            TrendKind::Status => "status",
            TrendKind::Link => "link",
            TrendKind::Publisher => "publisher",
        }
    }
    /// Parses the name stored.
    pub fn parse(s: &str) -> Option<TrendKind> {
        Some(match s {
            "status" => TrendKind::Status,
            "link" => TrendKind::Link,
            "publisher" => TrendKind::Publisher,
            _ => return None,
        })
    }
}

/// What staff decided about a candidate for trends (`/api/v1/admin/trends/*/:id/approve` and
/// `reject`): one per kind and target, the latest decision.
#[derive(Clone, Debug, PartialEq)]
pub struct TrendReviewRecord {
    /// What is reviewed.
    pub kind: TrendKind,
    /// Its id (a status, a preview card, a preview card provider).
    pub target: Id,
    /// Whether it may trend.
    pub trendable: bool,
    /// When the decision was made.
    pub reviewed_at: DateTime<Utc>,
}
