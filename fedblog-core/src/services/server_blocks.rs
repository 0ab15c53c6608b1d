//! Server-wide blocks and allows, as administrators manage them: domain blocks and allows
//! (federation), e-mail domain blocks, canonical e-mail blocks and IP blocks (sign-ups and
//! access). The lists live in the store's [`ModerationStore`]; without one, every method answers
//! 404, as the rest of the admin API does.
//!
//! The lists are short (a server blocks hundreds of domains, not millions), so they are read
//! whole and paged here.

use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult, StoreError};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::services::outbox::Outbox;
use crate::store::{
    AccountOrigin, AccountStore, AdminAccountFilter, DomainBlockSeverity,
    InstanceDomainBlockRecord, IpBlockRecord, IpBlockSeverity, ListedValueRecord, ModerationStore,
    ValueList,
};

/// The longest domain accepted (DNS's limit).
const MAX_DOMAIN_LEN: usize = 253;
/// Accounts read per page when a domain block is applied to the accounts of its domain.
const ACCOUNTS_PER_READ: usize = 200;
/// The longest comment kept on a block.
const MAX_COMMENT_CHARS: usize = 1000;

/// What `POST` and `PUT /api/v1/admin/domain_blocks` set (absent fields keep their value on
/// `PUT`, and take Mastodon's defaults on `POST`).
#[derive(Clone, Debug, Default)]
pub struct DomainBlockChange {
    /// `noop`, `silence` or `suspend`.
    pub severity: Option<String>,
    /// Media from the domain is not stored.
    pub reject_media: Option<bool>,
    /// Reports from the domain are ignored.
    pub reject_reports: Option<bool>,
    /// Note for moderators.
    pub private_comment: Option<String>,
    /// Reason shown publicly.
    pub public_comment: Option<String>,
    /// Shown partly hidden in public lists.
    pub obfuscate: Option<bool>,
}

/// What `POST` and `PUT /api/v1/admin/ip_blocks` set.
#[derive(Clone, Debug, Default)]
pub struct IpBlockChange {
    /// The address or range.
    pub ip: Option<String>,
    /// `sign_up_requires_approval`, `sign_up_block` or `no_access`.
    pub severity: Option<String>,
    /// Note for moderators.
    pub comment: Option<String>,
    /// Seconds until it stops applying.
    pub expires_in: Option<i64>,
}

/// The server-wide blocks area: `app.server_blocks()`.
pub struct ServerBlocks<'a> {
    store: Option<&'a dyn ModerationStore>,
    accounts: &'a dyn AccountStore,
    ip_access: &'a IpAccessCache,
    outbox: Outbox<'a>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

/// How long the IP blocks read for [`ServerBlocks::access_refused`] are trusted: a change made
/// through this process is seen at once, one made by another process sharing the database
/// within this time.
pub const IP_ACCESS_TTL: StdDuration = StdDuration::from_secs(5);

/// The IP blocks as last read for the check every request makes (one read per
/// [`IP_ACCESS_TTL`], not one per request), kept by the app.
#[derive(Debug, Default)]
pub struct IpAccessCache {
    read: Mutex<Option<(Instant, Arc<Vec<IpBlockRecord>>)>>,
}

impl IpAccessCache {
    /// The blocks read less than [`IP_ACCESS_TTL`] ago, if any.
    fn fresh(&self) -> Option<Arc<Vec<IpBlockRecord>>> {
        let read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
        read.as_ref()
            .filter(|(at, _)| at.elapsed() < IP_ACCESS_TTL)
            .map(|(_, blocks)| blocks.clone())
    }

    /// Keeps `blocks`, read now.
    fn keep(&self, blocks: Vec<IpBlockRecord>) -> Arc<Vec<IpBlockRecord>> {
        let blocks = Arc::new(blocks);
        *self.read.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((Instant::now(), blocks.clone()));
        blocks
    }

    /// Forgets what was read (the blocks changed).
    fn forget(&self) {
        *self.read.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Whether a suspension or silence dated `t` is `block`'s doing: a block dates what it does by
/// its own creation (compared to the millisecond, as every store keeps it).
pub(crate) fn dated_by(block: &InstanceDomainBlockRecord, t: Option<DateTime<Utc>>) -> bool {
    t.is_some_and(|t| t.timestamp_millis() == block.created_at.timestamp_millis())
}

/// 422 for `field`: `Validation failed: Field message`.
fn invalid(field: &str, message: &str) -> ApiError {
    let mut name = field.replace('_', " ");
    if let Some(first) = name.get(..1) {
        name = format!("{}{}", first.to_uppercase(), &name[1..]);
    }
    ApiError::invalid_field(field, "ERR_INVALID", format!("{name} {message}"))
}

/// `domain` lower-cased and trimmed of dots and spaces, if it looks like a host name (letters,
/// digits, `-`, `.`, and non-ASCII letters of internationalised names; no scheme or path), with
/// a port if given (a block of `host:port` covers that server only).
pub fn normalize_domain(domain: &str) -> Option<String> {
    let d = domain.trim().trim_matches('.').to_lowercase();
    let ok = !d.is_empty()
        && d.len() <= MAX_DOMAIN_LEN
        && !d.contains("..")
        && match d.split_once(':') {
            Some((name, port)) => {
                !name.is_empty() && !port.is_empty() && port.chars().all(|c| c.is_ascii_digit())
            }
            None => true,
        }
        && d.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | ':'));
    ok.then_some(d)
}

/// Whether `host` (a host name, maybe with a port) falls under `domain`: the same host and
/// port, or the same name or a subdomain of it whatever the port.
pub fn domain_covers(domain: &str, host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    let name = host.split(':').next().unwrap_or("");
    host == domain
        || name == domain
        || name
            .strip_suffix(domain)
            .is_some_and(|rest| rest.ends_with('.'))
}

/// The SHA-256 of `text`, hex (the `digest` of a domain block, the hash of a canonical e-mail).
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// An e-mail address in canonical form, as Mastodon compares them for canonical e-mail blocks:
/// lower case, the local part without dots and without a `+suffix`.
pub fn canonical_email(email: &str) -> Option<String> {
    let (local, domain) = email.trim().rsplit_once('@')?;
    let local = local.split('+').next().unwrap_or("").replace('.', "");
    if local.is_empty() || domain.is_empty() {
        return None;
    }
    Some(format!(
        "{}@{}",
        local.to_lowercase(),
        domain.to_lowercase()
    ))
}

/// `ip` as a network in CIDR notation (`192.0.2.0/24`, a single address with its full prefix),
/// with the host bits cleared; `None` if it is not an address or range.
pub fn normalize_cidr(ip: &str) -> Option<String> {
    let (addr, prefix) = match ip.trim().split_once('/') {
        Some((a, p)) => (a.trim(), Some(p.trim().parse::<u8>().ok()?)),
        None => (ip.trim(), None),
    };
    let addr: IpAddr = addr.parse().ok()?;
    let (bits, max) = match addr {
        IpAddr::V4(a) => (u128::from(u32::from(a)) << 96, 32u8),
        IpAddr::V6(a) => (u128::from(a), 128u8),
    };
    let prefix = prefix.unwrap_or(max);
    if prefix > max {
        return None;
    }
    let keep = if prefix == 0 {
        0
    } else {
        u128::MAX << (128 - u32::from(prefix))
    };
    let net = bits & keep;
    let shown = match addr {
        IpAddr::V4(_) => IpAddr::V4(std::net::Ipv4Addr::from((net >> 96) as u32)),
        IpAddr::V6(_) => IpAddr::V6(std::net::Ipv6Addr::from(net)),
    };
    Some(format!("{shown}/{prefix}"))
}

/// Whether `addr` lies in the network `cidr` (as [`normalize_cidr`] writes it).
pub fn cidr_contains(cidr: &str, addr: IpAddr) -> bool {
    let Some((net, prefix)) = cidr.split_once('/') else {
        return false;
    };
    let (Ok(net), Ok(prefix)) = (net.parse::<IpAddr>(), prefix.parse::<u32>()) else {
        return false;
    };
    let addr = match (net, addr) {
        (IpAddr::V4(_), IpAddr::V6(a)) => match a.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => return false,
        },
        (_, a) => a,
    };
    let as_bits = |a: IpAddr| match a {
        IpAddr::V4(a) => Some((u128::from(u32::from(a)) << 96, 32)),
        IpAddr::V6(a) => Some((u128::from(a), 128)),
    };
    match (as_bits(net), as_bits(addr)) {
        (Some((n, nmax)), Some((a, amax))) if nmax == amax && prefix <= nmax => {
            let keep = if prefix == 0 {
                0
            } else {
                u128::MAX << (128 - prefix)
            };
            n & keep == a & keep
        }
        _ => false,
    }
}

fn text_field(field: &str, value: Option<String>) -> ApiResult<Option<String>> {
    match value {
        Some(v) if v.chars().count() > MAX_COMMENT_CHARS => Err(invalid(
            field,
            &format!("is too long (at most {MAX_COMMENT_CHARS} characters)"),
        )),
        Some(v) if v.trim().is_empty() => Ok(None),
        v => Ok(v),
    }
}

impl<'a> ServerBlocks<'a> {
    /// The area over the store's moderation data (if any), making ids with `ids`, dating what it
    /// saves `now`.
    pub fn new(
        store: Option<&'a dyn ModerationStore>,
        accounts: &'a dyn AccountStore,
        ip_access: &'a IpAccessCache,
        outbox: Outbox<'a>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        ServerBlocks {
            store,
            accounts,
            ip_access,
            outbox,
            ids,
            now,
        }
    }

    /// Whether requests from `addr` are refused: an unexpired `no_access` IP block covers it
    /// (Mastodon refuses every request of such an address). Read through the app's
    /// [`IpAccessCache`]; without moderation data nothing is refused.
    pub async fn access_refused(&self, addr: IpAddr) -> ApiResult<bool> {
        let Some(store) = self.store else {
            return Ok(false);
        };
        let blocks = match self.ip_access.fresh() {
            Some(blocks) => blocks,
            None => self.ip_access.keep(store.ip_blocks().await?),
        };
        Ok(blocks.iter().any(|b| {
            b.severity == IpBlockSeverity::NoAccess
                && b.expires_at.is_none_or(|t| t > self.now)
                && cidr_contains(&b.ip, addr)
        }))
    }

    /// Brings the known accounts of `block`'s domain in line with it: suspended by a
    /// `suspend` block, silenced by a `silence` one, dated by the block's creation; with
    /// `lifted` (or a milder severity), what the block did (recognised by that date) is undone,
    /// while suspensions and silences of the accounts' own are kept. What a suspension made or
    /// lifted here brings about follows ([`Outbox::suspension_changed`]).
    async fn apply_to_accounts(
        &self,
        block: &InstanceDomainBlockRecord,
        lifted: bool,
    ) -> ApiResult<()> {
        let store = self.store()?;
        let filter = AdminAccountFilter {
            origin: Some(AccountOrigin::Remote),
            by_domain: Some(block.domain.clone()),
            ..AdminAccountFilter::default()
        };
        let by_block = |t: Option<DateTime<Utc>>| dated_by(block, t);
        let mut page = Page::first(ACCOUNTS_PER_READ);
        loop {
            let ids = store.admin_account_ids(&filter, page).await?;
            let Some(last) = ids.last().copied() else {
                return Ok(());
            };
            for mut account in self.accounts.accounts_by_ids(&ids).await? {
                let before = (account.suspended_at, account.silenced_at);
                let suspend = !lifted && block.severity == DomainBlockSeverity::Suspend;
                let silence = !lifted && block.severity == DomainBlockSeverity::Silence;
                if suspend && account.suspended_at.is_none() {
                    account.suspended_at = Some(block.created_at);
                } else if !suspend && by_block(account.suspended_at) {
                    account.suspended_at = None;
                }
                if silence && account.silenced_at.is_none() {
                    account.silenced_at = Some(block.created_at);
                } else if !silence && by_block(account.silenced_at) {
                    account.silenced_at = None;
                }
                if (account.suspended_at, account.silenced_at) != before {
                    self.accounts.update_account(&account).await?;
                }
                if account.suspended_at != before.0 {
                    self.outbox.suspension_changed(&account).await?;
                }
            }
            if ids.len() < ACCOUNTS_PER_READ {
                return Ok(());
            }
            page.max_id = Some(last);
        }
    }

    fn store(&self) -> ApiResult<&'a dyn ModerationStore> {
        self.store.ok_or_else(ApiError::no_moderation_data)
    }

    // Domain blocks

    /// One page of the server-wide domain blocks, newest first.
    pub async fn domain_blocks(&self, page: Page) -> ApiResult<Vec<InstanceDomainBlockRecord>> {
        let all = self.store()?.instance_domain_blocks().await?;
        Ok(page.apply(all.into_iter(), |b| b.id))
    }

    /// Every server-wide domain block, newest first (the public list; none without moderation
    /// data).
    pub async fn all_domain_blocks(&self) -> ApiResult<Vec<InstanceDomainBlockRecord>> {
        match self.store {
            Some(s) => Ok(s.instance_domain_blocks().await?),
            None => Ok(vec![]),
        }
    }

    /// The domain block with this id (404 otherwise).
    pub async fn domain_block(&self, id: Id) -> ApiResult<InstanceDomainBlockRecord> {
        self.store()?
            .instance_domain_blocks()
            .await?
            .into_iter()
            .find(|b| b.id == id)
            .ok_or_else(ApiError::not_found)
    }

    fn apply_domain_block(
        block: &mut InstanceDomainBlockRecord,
        change: DomainBlockChange,
    ) -> ApiResult<()> {
        if let Some(s) = change.severity {
            block.severity = DomainBlockSeverity::parse(s.trim())
                .ok_or_else(|| invalid("severity", "must be noop, silence or suspend"))?;
        }
        if let Some(v) = change.reject_media {
            block.reject_media = v;
        }
        if let Some(v) = change.reject_reports {
            block.reject_reports = v;
        }
        if change.private_comment.is_some() {
            block.private_comment = text_field("private_comment", change.private_comment)?;
        }
        if change.public_comment.is_some() {
            block.public_comment = text_field("public_comment", change.public_comment)?;
        }
        if let Some(v) = change.obfuscate {
            block.obfuscate = v;
        }
        Ok(())
    }

    /// Blocks `domain` (severity `silence` unless given). A domain already blocked is a 422, as
    /// Mastodon answers (change the existing block with `PUT`).
    pub async fn block_domain(
        &self,
        domain: &str,
        change: DomainBlockChange,
    ) -> ApiResult<InstanceDomainBlockRecord> {
        let store = self.store()?;
        let domain =
            normalize_domain(domain).ok_or_else(|| invalid("domain", "is not a valid domain"))?;
        let mut block = InstanceDomainBlockRecord {
            id: self.ids.next(),
            domain,
            severity: DomainBlockSeverity::Silence,
            reject_media: false,
            reject_reports: false,
            private_comment: None,
            public_comment: None,
            obfuscate: false,
            created_at: self.now,
        };
        Self::apply_domain_block(&mut block, change)?;
        match store.save_instance_domain_block(&block).await {
            Ok(()) => {}
            Err(StoreError::AlreadyExists(_)) => {
                return Err(invalid("domain", "is already blocked"));
            }
            Err(e) => return Err(e.into()),
        }
        self.apply_to_accounts(&block, false).await?;
        Ok(block)
    }

    /// Changes a domain block (its domain stays).
    pub async fn update_domain_block(
        &self,
        id: Id,
        change: DomainBlockChange,
    ) -> ApiResult<InstanceDomainBlockRecord> {
        let mut block = self.domain_block(id).await?;
        Self::apply_domain_block(&mut block, change)?;
        self.store()?.save_instance_domain_block(&block).await?;
        self.apply_to_accounts(&block, false).await?;
        Ok(block)
    }

    /// Removes a domain block (404 if unknown), and undoes what it did to the accounts of its
    /// domain.
    pub async fn unblock_domain(&self, id: Id) -> ApiResult<()> {
        let block = self.domain_block(id).await?;
        if !self.store()?.delete_instance_domain_block(id).await? {
            return Err(ApiError::not_found());
        }
        self.apply_to_accounts(&block, true).await
    }

    // Listed values: domain allows, e-mail domain blocks, canonical e-mail blocks

    /// One page of `list`, newest first.
    pub async fn listed(&self, list: ValueList, page: Page) -> ApiResult<Vec<ListedValueRecord>> {
        let all = self.store()?.listed_values(list).await?;
        Ok(page.apply(all.into_iter(), |v| v.id))
    }

    /// The entry of `list` with this id (404 otherwise).
    pub async fn listed_one(&self, list: ValueList, id: Id) -> ApiResult<ListedValueRecord> {
        self.store()?
            .listed_values(list)
            .await?
            .into_iter()
            .find(|v| v.id == id)
            .ok_or_else(ApiError::not_found)
    }

    /// Adds `value` to `list`; when it is there already, the existing entry (domain allows, as
    /// Mastodon) or a 422 (`duplicate` says which).
    async fn add(
        &self,
        list: ValueList,
        value: String,
        field: &str,
        duplicate_is_error: bool,
    ) -> ApiResult<ListedValueRecord> {
        let store = self.store()?;
        let entry = ListedValueRecord {
            id: self.ids.next(),
            value,
            created_at: self.now,
        };
        match store.insert_listed_value(list, &entry).await {
            Ok(()) => Ok(entry),
            Err(StoreError::AlreadyExists(_)) if !duplicate_is_error => store
                .listed_values(list)
                .await?
                .into_iter()
                .find(|v| v.value == entry.value)
                .ok_or_else(ApiError::not_found),
            Err(StoreError::AlreadyExists(_)) => Err(invalid(field, "has already been taken")),
            Err(e) => Err(e.into()),
        }
    }

    /// Allows `domain` to federate (the existing allow if it is allowed already).
    pub async fn allow_domain(&self, domain: &str) -> ApiResult<ListedValueRecord> {
        let domain =
            normalize_domain(domain).ok_or_else(|| invalid("domain", "is not a valid domain"))?;
        self.add(ValueList::DomainAllows, domain, "domain", false)
            .await
    }

    /// Refuses sign-ups with e-mail addresses at `domain` (and its subdomains); 422 when it is
    /// refused already.
    pub async fn block_email_domain(&self, domain: &str) -> ApiResult<ListedValueRecord> {
        let domain =
            normalize_domain(domain).ok_or_else(|| invalid("domain", "is not a valid domain"))?;
        self.add(ValueList::EmailDomainBlocks, domain, "domain", true)
            .await
    }

    /// Refuses sign-ups with `email` or any address of the same canonical form (given as an
    /// address, or directly as the hash of one); 422 when it is refused already.
    pub async fn block_canonical_email(
        &self,
        email: Option<&str>,
        hash: Option<&str>,
    ) -> ApiResult<ListedValueRecord> {
        let hash = match (email, hash) {
            (Some(e), _) if !e.trim().is_empty() => sha256_hex(
                &canonical_email(e).ok_or_else(|| invalid("email", "is not an e-mail address"))?,
            ),
            (_, Some(h)) => {
                let h = h.trim().to_ascii_lowercase();
                if h.len() != 64 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
                    return Err(invalid(
                        "canonical_email_hash",
                        "is not a SHA-256 hash in hex",
                    ));
                }
                h
            }
            _ => return Err(invalid("email", "can't be blank")),
        };
        self.add(
            ValueList::CanonicalEmailBlocks,
            hash,
            "canonical_email_hash",
            true,
        )
        .await
    }

    /// The canonical e-mail blocks `email` falls under.
    pub async fn test_canonical_email(&self, email: &str) -> ApiResult<Vec<ListedValueRecord>> {
        let store = self.store()?;
        let Some(canonical) = canonical_email(email) else {
            return Ok(vec![]);
        };
        let hash = sha256_hex(&canonical);
        Ok(store
            .listed_values(ValueList::CanonicalEmailBlocks)
            .await?
            .into_iter()
            .filter(|v| v.value == hash)
            .collect())
    }

    /// Removes an entry of `list` (404 if unknown).
    pub async fn remove_listed(&self, list: ValueList, id: Id) -> ApiResult<()> {
        if self.store()?.delete_listed_value(list, id).await? {
            Ok(())
        } else {
            Err(ApiError::not_found())
        }
    }

    // IP blocks

    /// One page of the IP blocks, newest first.
    pub async fn ip_blocks(&self, page: Page) -> ApiResult<Vec<IpBlockRecord>> {
        let all = self.store()?.ip_blocks().await?;
        Ok(page.apply(all.into_iter(), |b| b.id))
    }

    /// The IP block with this id (404 otherwise).
    pub async fn ip_block(&self, id: Id) -> ApiResult<IpBlockRecord> {
        self.store()?
            .ip_blocks()
            .await?
            .into_iter()
            .find(|b| b.id == id)
            .ok_or_else(ApiError::not_found)
    }

    fn apply_ip_block(&self, block: &mut IpBlockRecord, change: IpBlockChange) -> ApiResult<()> {
        if let Some(ip) = change.ip {
            block.ip = normalize_cidr(&ip)
                .ok_or_else(|| invalid("ip", "is not an IP address or range"))?;
        }
        if let Some(s) = change.severity {
            block.severity = IpBlockSeverity::parse(s.trim()).ok_or_else(|| {
                invalid(
                    "severity",
                    "must be sign_up_requires_approval, sign_up_block or no_access",
                )
            })?;
        }
        if let Some(c) = text_field("comment", change.comment)? {
            block.comment = c;
        }
        if let Some(secs) = change.expires_in {
            if secs <= 0 {
                return Err(invalid(
                    "expires_in",
                    "must be a positive number of seconds",
                ));
            }
            let until = Duration::try_seconds(secs)
                .and_then(|d| self.now.checked_add_signed(d))
                .ok_or_else(|| invalid("expires_in", "is too far in the future"))?;
            block.expires_at = Some(until);
        }
        Ok(())
    }

    /// Blocks an address or range (`ip` and `severity` are required).
    pub async fn block_ip(&self, change: IpBlockChange) -> ApiResult<IpBlockRecord> {
        let store = self.store()?;
        if change.ip.as_deref().is_none_or(|s| s.trim().is_empty()) {
            return Err(invalid("ip", "can't be blank"));
        }
        if change.severity.is_none() {
            return Err(invalid("severity", "can't be blank"));
        }
        let mut block = IpBlockRecord {
            id: self.ids.next(),
            ip: String::new(),
            severity: IpBlockSeverity::NoAccess,
            comment: String::new(),
            created_at: self.now,
            expires_at: None,
        };
        self.apply_ip_block(&mut block, change)?;
        let saved = store.save_ip_block(&block).await;
        self.ip_access.forget();
        match saved {
            Ok(()) => Ok(block),
            Err(StoreError::AlreadyExists(_)) => Err(invalid("ip", "has already been taken")),
            Err(e) => Err(e.into()),
        }
    }

    /// Changes an IP block.
    pub async fn update_ip_block(&self, id: Id, change: IpBlockChange) -> ApiResult<IpBlockRecord> {
        let mut block = self.ip_block(id).await?;
        self.apply_ip_block(&mut block, change)?;
        let saved = self.store()?.save_ip_block(&block).await;
        self.ip_access.forget();
        match saved {
            Ok(()) => Ok(block),
            Err(StoreError::AlreadyExists(_)) => Err(invalid("ip", "has already been taken")),
            Err(e) => Err(e.into()),
        }
    }

    /// Removes an IP block (404 if unknown).
    pub async fn unblock_ip(&self, id: Id) -> ApiResult<()> {
        let deleted = self.store()?.delete_ip_block(id).await?;
        self.ip_access.forget();
        if deleted {
            Ok(())
        } else {
            Err(ApiError::not_found())
        }
    }

    // What sign-ups check

    /// Whether a sign-up with `email` from `addr` is refused (an e-mail domain block on the
    /// address's domain or a parent of it, a canonical e-mail block, or an unexpired
    /// `sign_up_block` or `no_access` IP block), and whether it needs approval (an unexpired
    /// `sign_up_requires_approval` IP block). Without moderation data nothing is refused.
    pub async fn sign_up_verdict(
        &self,
        email: &str,
        addr: Option<IpAddr>,
    ) -> ApiResult<SignUpVerdict> {
        let Some(store) = self.store else {
            return Ok(SignUpVerdict::default());
        };
        let mut verdict = SignUpVerdict::default();
        if let Some((_, domain)) = email.trim().rsplit_once('@') {
            let domain = domain.to_lowercase();
            let blocked = store.listed_values(ValueList::EmailDomainBlocks).await?;
            verdict.email_refused = blocked.iter().any(|b| domain_covers(&b.value, &domain));
        }
        if !verdict.email_refused
            && let Some(canonical) = canonical_email(email)
        {
            let hash = sha256_hex(&canonical);
            verdict.email_refused = store
                .listed_values(ValueList::CanonicalEmailBlocks)
                .await?
                .iter()
                .any(|b| b.value == hash);
        }
        if let Some(addr) = addr {
            for b in store.ip_blocks().await? {
                if b.expires_at.is_some_and(|t| t <= self.now) || !cidr_contains(&b.ip, addr) {
                    continue;
                }
                match b.severity {
                    IpBlockSeverity::SignUpRequiresApproval => verdict.needs_approval = true,
                    IpBlockSeverity::SignUpBlock | IpBlockSeverity::NoAccess => {
                        verdict.ip_refused = true
                    }
                }
            }
        }
        Ok(verdict)
    }
}

/// What the server-wide blocks say of a sign-up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SignUpVerdict {
    /// The e-mail address (its domain, or its canonical form) is refused.
    pub email_refused: bool,
    /// The address the request came from may not sign up.
    pub ip_refused: bool,
    /// The account waits for approval whatever the registration mode.
    pub needs_approval: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_emails_drop_dots_and_suffixes() {
        assert_eq!(
            canonical_email("Jo.Hn+news@Example.ORG").as_deref(),
            Some("john@example.org")
        );
        assert_eq!(canonical_email("nobody"), None);
        assert_eq!(canonical_email("+x@example.org"), None);
    }

    #[test]
    fn cidrs_are_normalised_and_matched() {
        assert_eq!(
            normalize_cidr("192.0.2.77/24").as_deref(),
            Some("192.0.2.0/24")
        );
        assert_eq!(normalize_cidr("192.0.2.7").as_deref(), Some("192.0.2.7/32"));
        assert_eq!(
            normalize_cidr("2001:db8::1/32").as_deref(),
            Some("2001:db8::/32")
        );
        assert_eq!(normalize_cidr("192.0.2.0/33"), None);
        assert_eq!(normalize_cidr("example.org"), None);
        let a = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(cidr_contains("192.0.2.0/24", a("192.0.2.200")));
        assert!(!cidr_contains("192.0.2.0/24", a("192.0.3.1")));
        assert!(cidr_contains("192.0.2.0/24", a("::ffff:192.0.2.9")));
        assert!(cidr_contains("2001:db8::/32", a("2001:db8:1::5")));
        assert!(!cidr_contains("2001:db8::/32", a("192.0.2.1")));
        assert!(cidr_contains("0.0.0.0/0", a("203.0.113.9")));
    }

    #[test]
    fn domains_are_normalised() {
        assert_eq!(
            normalize_domain(" Example.ORG. ").as_deref(),
            Some("example.org")
        );
        assert_eq!(normalize_domain("https://example.org/x"), None);
        assert_eq!(normalize_domain(""), None);
        assert_eq!(normalize_domain("a..b"), None);
        assert_eq!(
            normalize_domain("127.0.0.1:3000").as_deref(),
            Some("127.0.0.1:3000")
        );
        assert_eq!(normalize_domain("host:"), None);
    }

    #[test]
    fn pages_of_a_list_follow_the_cursors() {
        let ids: Vec<Id> = (1..=5).rev().map(Id::from_i64).collect();
        let page = |max: Option<i64>, since: Option<i64>, min: Option<i64>, limit| Page {
            max_id: max.map(Id::from_i64),
            since_id: since.map(Id::from_i64),
            min_id: min.map(Id::from_i64),
            limit,
        };
        let got = |p: Page| p.apply(ids.clone().into_iter(), |i| *i);
        let n = |v: Vec<Id>| v.into_iter().map(Id::as_i64).collect::<Vec<_>>();
        assert_eq!(n(got(page(None, None, None, 2))), vec![5, 4]);
        assert_eq!(n(got(page(Some(4), None, None, 2))), vec![3, 2]);
        assert_eq!(n(got(page(None, Some(2), None, 2))), vec![5, 4]);
        assert_eq!(n(got(page(None, None, Some(2), 2))), vec![4, 3]);
    }
}

#[cfg(test)]
mod app_tests {
    use super::*;
    use crate::store::AccountRecord;
    use crate::test_support::app;

    async fn remote(app: &crate::app::App, name: &str, domain: &str) -> AccountRecord {
        let mut a = AccountRecord::new_local(app.ids.next(), name, app.now());
        a.domain = Some(domain.to_string());
        a.uri = Some(format!("https://{domain}/users/{name}"));
        app.store.insert_remote_account(&a).await.expect("remote");
        a
    }

    async fn reread(app: &crate::app::App, a: &AccountRecord) -> AccountRecord {
        app.store
            .account_by_id(a.id)
            .await
            .expect("read")
            .expect("there")
    }

    #[tokio::test]
    async fn a_domain_block_suspends_and_silences_its_accounts_and_lifting_it_undoes_only_that() {
        let app = app("here.example");
        let a = remote(&app, "a", "far.example").await;
        let mut own = remote(&app, "own", "far.example").await;
        own.suspended_at = Some(app.now() - Duration::days(3));
        app.store.update_account(&own).await.expect("suspend");
        let other = remote(&app, "other", "near.example").await;
        let blocks = app.server_blocks();
        let block = blocks
            .block_domain(
                "Far.Example",
                DomainBlockChange {
                    severity: Some("suspend".into()),
                    ..DomainBlockChange::default()
                },
            )
            .await
            .expect("block");
        assert!(reread(&app, &a).await.suspended_at.is_some());
        assert!(reread(&app, &other).await.suspended_at.is_none());
        assert!(
            app.federation().host_suspended("far.example").await
                && app
                    .federation()
                    .host_suspended("sub.far.example:8443")
                    .await
                && !app.federation().host_suspended("near.example").await
        );
        let again = blocks
            .block_domain("far.example", DomainBlockChange::default())
            .await;
        assert_eq!(again.map(|_| ()).unwrap_err().status, 422);

        let milder = blocks
            .update_domain_block(
                block.id,
                DomainBlockChange {
                    severity: Some("silence".into()),
                    ..DomainBlockChange::default()
                },
            )
            .await
            .expect("update");
        assert_eq!(milder.severity, DomainBlockSeverity::Silence);
        let a_now = reread(&app, &a).await;
        assert!(a_now.suspended_at.is_none() && a_now.silenced_at.is_some());
        assert!(reread(&app, &own).await.suspended_at.is_some());

        blocks.unblock_domain(block.id).await.expect("lift");
        let a_now = reread(&app, &a).await;
        assert!(a_now.suspended_at.is_none() && a_now.silenced_at.is_none());
        assert!(
            reread(&app, &own).await.suspended_at.is_some(),
            "a suspension of the account's own outlives the block"
        );
        assert_eq!(
            blocks.unblock_domain(block.id).await.unwrap_err().status,
            404
        );
    }

    #[tokio::test]
    async fn limited_federation_mode_lets_only_allowed_domains_federate() {
        let app = app("here.example");
        let federation = app.federation();
        assert!(!federation.host_suspended("anywhere.example").await);
        let moderation = app
            .store
            .moderation()
            .expect("memory keeps moderation data");
        moderation
            .set_setting(
                crate::services::federation::LIMITED_FEDERATION_MODE,
                Some("true"),
            )
            .await
            .expect("setting");
        assert!(federation.host_suspended("anywhere.example").await);
        let allow = app
            .server_blocks()
            .allow_domain("friends.example")
            .await
            .expect("allow");
        let again = app
            .server_blocks()
            .allow_domain("FRIENDS.example")
            .await
            .expect("again");
        assert_eq!(again.id, allow.id, "allowing twice answers the first allow");
        assert!(!federation.host_suspended("friends.example").await);
        assert!(
            !federation
                .host_suspended("social.friends.example:8443")
                .await
        );
        assert!(federation.host_suspended("anywhere.example").await);
        moderation
            .set_setting(crate::services::federation::LIMITED_FEDERATION_MODE, None)
            .await
            .expect("setting");
        assert!(!federation.host_suspended("anywhere.example").await);
    }

    #[tokio::test]
    async fn no_access_ip_blocks_refuse_every_request_from_their_addresses() {
        use crate::app::RequestInfo;
        use crate::endpoint::Auth;
        let app = app("here.example");
        let from = |addr: &str| RequestInfo {
            remote_addr: Some(addr.to_string()),
            ..RequestInfo::default()
        };
        let status = |r: ApiResult<crate::app::Caller>| r.map(|_| ()).map_err(|e| e.status);
        let before = app
            .authenticate(Auth::Public, None, None, from("203.0.113.9"))
            .await;
        assert_eq!(status(before), Ok(()));
        let blocks = app.server_blocks();
        blocks
            .block_ip(IpBlockChange {
                ip: Some("203.0.113.0/24".into()),
                severity: Some("no_access".into()),
                ..IpBlockChange::default()
            })
            .await
            .expect("no access");
        blocks
            .block_ip(IpBlockChange {
                ip: Some("192.0.2.0/24".into()),
                severity: Some("sign_up_block".into()),
                ..IpBlockChange::default()
            })
            .await
            .expect("sign-ups only");
        // A block made through this process applies at once (the cache is forgotten).
        for addr in ["203.0.113.9", "::ffff:203.0.113.200"] {
            let refused = app.authenticate(Auth::Public, None, None, from(addr)).await;
            assert_eq!(status(refused), Err(http::StatusCode::FORBIDDEN), "{addr}");
        }
        for addr in ["192.0.2.1", "198.51.100.1", "not an address"] {
            let let_in = app.authenticate(Auth::Public, None, None, from(addr)).await;
            assert_eq!(status(let_in), Ok(()), "{addr}");
        }
        // Lifted: let in again at once.
        let id = blocks
            .ip_blocks(Page::first(10))
            .await
            .expect("list")
            .iter()
            .find(|b| b.severity == IpBlockSeverity::NoAccess)
            .expect("the no-access block")
            .id;
        app.server_blocks().unblock_ip(id).await.expect("lifted");
        let after = app
            .authenticate(Auth::Public, None, None, from("203.0.113.9"))
            .await;
        assert_eq!(status(after), Ok(()));
    }

    #[tokio::test]
    async fn sign_ups_meet_e_mail_and_ip_blocks() {
        let app = app("here.example");
        let blocks = app.server_blocks();
        blocks
            .block_email_domain("spam.example")
            .await
            .expect("email domain");
        blocks
            .block_canonical_email(Some("john.doe@mail.example"), None)
            .await
            .expect("canonical");
        blocks
            .block_ip(IpBlockChange {
                ip: Some("192.0.2.0/24".into()),
                severity: Some("sign_up_requires_approval".into()),
                ..IpBlockChange::default()
            })
            .await
            .expect("ip");
        blocks
            .block_ip(IpBlockChange {
                ip: Some("198.51.100.7".into()),
                severity: Some("sign_up_block".into()),
                expires_in: Some(60),
                ..IpBlockChange::default()
            })
            .await
            .expect("ip");
        let verdict = |email: &'static str, ip: &'static str| {
            let blocks = app.server_blocks();
            async move {
                blocks
                    .sign_up_verdict(email, ip.parse().ok())
                    .await
                    .expect("verdict")
            }
        };
        assert!(verdict("x@spam.example", "203.0.113.1").await.email_refused);
        assert!(
            verdict("x@mx.spam.example", "203.0.113.1")
                .await
                .email_refused
        );
        assert!(
            !verdict("x@notspam.example", "203.0.113.1")
                .await
                .email_refused
        );
        assert!(
            verdict("John.Doe+a@MAIL.example", "203.0.113.1")
                .await
                .email_refused
        );
        let approval = verdict("x@ok.example", "192.0.2.55").await;
        assert!(approval.needs_approval && !approval.ip_refused && !approval.email_refused);
        assert!(verdict("x@ok.example", "198.51.100.7").await.ip_refused);
        assert_eq!(
            verdict("x@ok.example", "203.0.113.1").await,
            SignUpVerdict::default()
        );
    }
}
