//! Blocks, mutes and user domain blocks: making and lifting them and listing them. The filters
//! read paths apply with them (a blocked or muted account's posts, and posts from a blocked
//! domain, stay out of the blocker's and muter's views) are the visibility area's
//! (`services/visibility.rs`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::services::accounts::visible_account;
use crate::services::accounts::{AccountPage, accounts_page};
use crate::services::fanout::FollowEnding;
use crate::services::notifications::forget_follow_notifications;
use crate::store::{
    AccountRecord, AccountStore, BlockStore, DomainBlockStore, FeedStore, MuteRecord,
    NotificationStore, Store,
};

/// The blocks area: blocks, mutes and user domain blocks.
pub struct Blocks<'a> {
    blocks: &'a dyn BlockStore,
    accounts: &'a dyn AccountStore,
    domain_blocks: &'a dyn DomainBlockStore,
    notifications: &'a dyn NotificationStore,
    feeds: &'a dyn FeedStore,
    follow_ending: FollowEnding<'a>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
    /// This server's domain (it cannot be blocked).
    domain: &'a str,
    outbox: crate::services::outbox::Outbox<'a>,
}

impl<'a> Blocks<'a> {
    /// The area over `store`, making ids with `ids`, at `now`, on the server of `domain`.
    pub fn new(
        store: &'a dyn Store,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
        domain: &'a str,
        outbox: crate::services::outbox::Outbox<'a>,
    ) -> Self {
        Blocks {
            blocks: store,
            accounts: store,
            domain_blocks: store,
            notifications: store,
            feeds: store,
            follow_ending: FollowEnding::new(store),
            ids,
            now,
            domain,
            outbox,
        }
    }

    /// `me` blocks `target`: follows, follow requests and endorsements between them end.
    /// Blocking oneself is a 422.
    pub async fn block(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        if target.id == me.id {
            return Err(ApiError::invalid_field(
                "account",
                "ERR_INVALID",
                "You cannot block yourself",
            ));
        }
        self.blocks
            .insert_block(self.ids.next(), me.id, target.id)
            .await?;
        // The follows ended both ways, and what hangs on them ends too (endorsements, places in
        // lists, feed entries).
        self.follow_ending.ended(me.id, target.id).await?;
        self.follow_ending.ended(target.id, me.id).await?;
        // Nothing from the blocked account stays in `me`'s notifications, nor `me`'s follow in
        // the target's.
        self.notifications
            .retract_notifications(me.id, target.id, None, None)
            .await?;
        forget_follow_notifications(self.notifications, target.id, me.id).await?;
        if me.is_local() {
            self.outbox.blocked(me.id, target.id).await?;
        }
        Ok(target)
    }

    /// `me` lifts a block (no error when there was none).
    pub async fn unblock(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        if self.blocks.delete_block(me.id, target.id).await? && me.is_local() {
            self.outbox.unblocked(me.id, target.id).await?;
        }
        Ok(target)
    }

    /// `me` mutes `target`, with or without its notifications, for `duration_secs` (0: until lifted).
    pub async fn mute(
        &self,
        me: &AccountRecord,
        target_id: Id,
        notifications: bool,
        duration_secs: i64,
    ) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        if target.id == me.id {
            return Err(ApiError::invalid_field(
                "account",
                "ERR_INVALID",
                "You cannot mute yourself",
            ));
        }
        // 0 mutes until lifted; anything else must be a duration in range (no overflow).
        let expires_at = match duration_secs {
            0 => None,
            s => Some(super::durations::seconds_after(self.now, s, "duration")?),
        };
        self.blocks
            .upsert_mute(&MuteRecord {
                id: self.ids.next(),
                account_id: me.id,
                target_id: target.id,
                notifications,
                expires_at,
            })
            .await?;
        // Mastodon clears the muted account from the home and list feeds at once.
        self.feeds.remove_author_entries(me.id, target.id).await?;
        Ok(target)
    }

    /// `me` lifts a mute (no error when there was none).
    pub async fn unmute(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = visible_account(self.accounts, target_id).await?;
        self.blocks.delete_mute(me.id, target.id).await?;
        Ok(target)
    }

    /// A page of the accounts `me` blocks.
    pub async fn blocked_accounts(&self, me: &AccountRecord, page: Page) -> ApiResult<AccountPage> {
        let pairs = self.blocks.blocks_page(me.id, page).await?;
        accounts_page(self.accounts, &pairs).await
    }

    /// A page of the accounts `me` mutes (mutes in force).
    pub async fn muted_accounts(
        &self,
        me: &AccountRecord,
        page: Page,
    ) -> ApiResult<(AccountPage, HashMap<Id, DateTime<Utc>>)> {
        let mutes = self.blocks.mutes_page(me.id, self.now, page).await?;
        let pairs: Vec<(Id, Id)> = mutes.iter().map(|m| (m.id, m.target_id)).collect();
        let expiries = mutes
            .iter()
            .filter_map(|m| Some((m.target_id, m.expires_at?)))
            .collect();
        Ok((accounts_page(self.accounts, &pairs).await?, expiries))
    }

    /// `me` blocks a domain (see [`Blocks::normalize_blocked_domain`] for what is accepted): posts from
    /// accounts there leave `me`'s timelines, `me`'s followers there are removed and their
    /// requests dropped, and `me` cannot follow accounts there. Blocking twice is not an error.
    pub async fn block_domain(&self, me: &AccountRecord, raw: &str) -> ApiResult<()> {
        let domain = self.normalize_blocked_domain(raw)?;
        self.domain_blocks
            .insert_domain_block(self.ids.next(), me.id, &domain)
            .await?;
        Ok(())
    }

    /// `me` lifts a domain block (no error when there was none; the domain is checked as for
    /// blocking).
    pub async fn unblock_domain(&self, me: &AccountRecord, raw: &str) -> ApiResult<()> {
        let domain = self.normalize_blocked_domain(raw)?;
        self.domain_blocks
            .delete_domain_block(me.id, &domain)
            .await?;
        Ok(())
    }

    /// A page of the domains `me` blocks, as `(block id, domain)`, newest first.
    pub async fn blocked_domains(
        &self,
        me: &AccountRecord,
        page: Page,
    ) -> ApiResult<Vec<(Id, String)>> {
        Ok(self.domain_blocks.domain_blocks_page(me.id, page).await?)
    }

    /// The domain of a user domain block, lower case. Accepted: a host name of letters, digits and
    /// hyphens in dot-separated labels (at most 63 characters each, 253 in all), or an IPv4
    /// address, optionally with `:port`; one trailing dot is dropped. Refused with a 422: a blank
    /// value, anything with a scheme (`https://`), a path, a wildcard (`*.`), spaces or other
    /// characters, non-ASCII names (send the punycode `xn--` form), and this server's own domain.
    pub fn normalize_blocked_domain(&self, raw: &str) -> ApiResult<String> {
        let invalid = |msg: &str| ApiError::invalid_field("domain", "ERR_INVALID", msg);
        let d = raw.trim().to_ascii_lowercase();
        if d.is_empty() {
            return Err(ApiError::invalid_field(
                "domain",
                "ERR_BLANK",
                "Domain can't be blank",
            ));
        }
        let d = d.strip_suffix('.').unwrap_or(&d).to_string();
        let (host, port) = match d.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (d.as_str(), None),
        };
        if port
            .is_some_and(|p| p.is_empty() || p.len() > 5 || !p.chars().all(|c| c.is_ascii_digit()))
        {
            return Err(invalid("Domain is not a valid host name"));
        }
        let label_ok = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        };
        if host.is_empty() || host.len() > 253 || !host.split('.').all(label_ok) {
            return Err(invalid("Domain is not a valid host name"));
        }
        let own = self.domain.to_ascii_lowercase();
        let own_host = own.split(':').next().unwrap_or(&own);
        if d == own || (port.is_none() && host == own_host) {
            return Err(invalid("You cannot block your own domain"));
        }
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::app::App;
    use crate::config::InstanceConfig;
    use crate::store::memory::MemoryStore;

    fn app() -> App {
        App::new(
            Arc::new(MemoryStore::new()),
            InstanceConfig::new("social.example"),
        )
    }

    #[test]
    fn blocked_domains_are_lower_case_host_names() {
        let app = app();
        let blocks = app.blocks();
        let ok = |raw: &str| blocks.normalize_blocked_domain(raw).ok();
        assert_eq!(ok(" Spam.Example. ").as_deref(), Some("spam.example"));
        assert_eq!(
            ok("xn--bcher-kva.example").as_deref(),
            Some("xn--bcher-kva.example")
        );
        assert_eq!(
            ok("mastodon.example:8443").as_deref(),
            Some("mastodon.example:8443")
        );
        assert_eq!(ok("10.0.0.1").as_deref(), Some("10.0.0.1"));
        assert_eq!(
            ok("social.example:8443").as_deref(),
            Some("social.example:8443")
        );
        for bad in [
            "",
            "   ",
            "not a domain",
            "https://spam.example",
            "spam.example/path",
            "*.spam.example",
            "-spam.example",
            "spam..example",
            "bücher.example",
            "spam.example:",
            "spam.example:80a",
            "Social.Example",
        ] {
            let e = blocks.normalize_blocked_domain(bad).unwrap_err();
            assert_eq!(e.status.as_u16(), 422, "{bad:?}");
        }
    }
}
