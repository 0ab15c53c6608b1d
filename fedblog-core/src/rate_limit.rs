//! Rate limits: the families of limits Mastodon applies (the API as a whole per token, account
//! and address; posting, following, uploads, deletions, sign-ups, sign-ins and e-mail
//! confirmations of their own), their configuration, and the [`RateLimiter`] port that counts
//! hits in fixed windows (in memory here; the server adds its database and Redis).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use async_trait::async_trait;
use chrono::{DateTime, TimeZone, Utc};

/// A family of limits: what is counted, and per whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Family {
    /// Every API request made with one access token.
    Api,
    /// Every API request of one account, all its tokens together.
    ApiAccount,
    /// Every API request without a valid token, per client address.
    Unauthenticated,
    /// Statuses and reblogs an account posts.
    Statuses,
    /// Accounts an account follows.
    Follows,
    /// Media an account uploads.
    Media,
    /// Statuses and reblogs an account deletes.
    Deletes,
    /// Sign-ups through the API, per client address.
    SignUps,
    /// Sign-in attempts, per client address.
    SignIn,
    /// Sign-in attempts, per account signed in to.
    SignInAccount,
    /// Requests to send the confirmation e-mail again, per client address.
    Confirmations,
    /// Requests to send the confirmation e-mail again, per account.
    ConfirmationsAccount,
}

/// Who a family counts per.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Per {
    /// An access token.
    Token,
    /// An account.
    Account,
    /// A client address (IPv6 addresses by their /64 network).
    Address,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 12] = [
        Family::Api,
        Family::ApiAccount,
        Family::Unauthenticated,
        Family::Statuses,
        Family::Follows,
        Family::Media,
        Family::Deletes,
        Family::SignUps,
        Family::SignIn,
        Family::SignInAccount,
        Family::Confirmations,
        Family::ConfirmationsAccount,
    ];

    /// Its name in settings (`FEDBLOG_RATE_LIMITS=statuses=300/3h`) and counter keys.
    pub fn name(self) -> &'static str {
        match self {
            Family::Api => "api",
            Family::ApiAccount => "api_account",
            Family::Unauthenticated => "unauthenticated",
            Family::Statuses => "statuses",
            Family::Follows => "follows",
            Family::Media => "media",
            Family::Deletes => "deletes",
            Family::SignUps => "sign_ups",
            Family::SignIn => "sign_in",
            Family::SignInAccount => "sign_in_account",
            Family::Confirmations => "confirmations",
            Family::ConfirmationsAccount => "confirmations_account",
        }
    }

    /// The family of a settings name.
    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Who it counts per.
    pub fn per(self) -> Per {
        match self {
            Family::Api => Per::Token,
            Family::Unauthenticated | Family::SignUps | Family::SignIn | Family::Confirmations => {
                Per::Address
            }
            _ => Per::Account,
        }
    }

    /// Mastodon's values (its Rack::Attack throttles and `RateLimiter` families).
    pub fn default_rule(self) -> Rule {
        let (limit, minutes) = match self {
            Family::Api => (300, 5),
            Family::ApiAccount => (1500, 5),
            Family::Unauthenticated => (300, 5),
            Family::Statuses => (300, 180),
            Family::Follows => (400, 24 * 60),
            Family::Media => (30, 30),
            Family::Deletes => (30, 30),
            Family::SignUps => (5, 30),
            Family::SignIn => (25, 5),
            Family::SignInAccount => (25, 60),
            Family::Confirmations => (25, 5),
            Family::ConfirmationsAccount => (5, 30),
        };
        Rule {
            limit,
            period_secs: minutes * 60,
        }
    }
}

/// At most `limit` hits in each window of `period_secs` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Hits allowed per window.
    pub limit: u64,
    /// The window's length in seconds.
    pub period_secs: u64,
}

impl Rule {
    /// Parses `300/5m` (`s`, `m`, `h` or `d`; a bare number is seconds).
    pub fn parse(text: &str) -> Option<Rule> {
        let (limit, period) = text.trim().split_once('/')?;
        let limit: u64 = limit.trim().parse().ok()?;
        let period = period.trim();
        let (number, unit) = match period.find(|c: char| !c.is_ascii_digit()) {
            Some(i) => period.split_at(i),
            None => (period, "s"),
        };
        let number: u64 = number.parse().ok()?;
        let scale = match unit {
            "s" => 1,
            "m" => 60,
            "h" => 3600,
            "d" => 86_400,
            _ => return None,
        };
        let period_secs = number.checked_mul(scale)?;
        (limit > 0 && period_secs > 0).then_some(Rule { limit, period_secs })
    }

    /// The window holding `now`: its index and its end.
    pub fn window(&self, now: DateTime<Utc>) -> (i64, DateTime<Utc>) {
        let period = self.period_secs as i64;
        let index = now.timestamp().div_euclid(period);
        let end = Utc
            .timestamp_opt((index + 1) * period, 0)
            .single()
            .unwrap_or(now);
        (index, end)
    }
}

/// Which limits apply, and whether any do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// Off: nothing is counted and no `X-RateLimit-*` header is sent (`FEDBLOG_RATE_LIMITS=off`,
    /// for benchmarks).
    pub enabled: bool,
    /// The rule of each family.
    pub rules: BTreeMap<Family, Rule>,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            enabled: true,
            rules: Family::ALL
                .into_iter()
                .map(|f| (f, f.default_rule()))
                .collect(),
        }
    }
}

impl RateLimits {
    /// No limits at all.
    pub fn off() -> Self {
        RateLimits {
            enabled: false,
            ..Default::default()
        }
    }

    /// Parses the setting: `on` (Mastodon's values), `off`, or comma-separated overrides such
    /// as `statuses=300/3h,sign_ups=5/30m` (the other families keep Mastodon's values; `*`
    /// names every family, and entries after it override it).
    pub fn parse(text: &str) -> Result<RateLimits, String> {
        let text = text.trim();
        match text.to_ascii_lowercase().as_str() {
            "" | "on" | "true" => return Ok(RateLimits::default()),
            "off" | "false" => return Ok(RateLimits::off()),
            _ => {}
        }
        let mut limits = RateLimits::default();
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (name, rule) = part.split_once('=').ok_or_else(|| {
                format!("rate limit {part:?} is not of the form name=limit/period")
            })?;
            let rule = Rule::parse(rule).ok_or_else(|| {
                format!("rate limit {part:?}: expected limit/period such as 300/5m")
            })?;
            if name.trim() == "*" {
                // Every family; later entries override.
                for family in Family::ALL {
                    limits.rules.insert(family, rule);
                }
                continue;
            }
            let family = Family::parse(name.trim()).ok_or_else(|| {
                let names: Vec<_> = Family::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown rate limit {:?} (known: {}, or * for all)",
                    name.trim(),
                    names.join(", ")
                )
            })?;
            limits.rules.insert(family, rule);
        }
        Ok(limits)
    }

    /// The rule of a family.
    pub fn rule(&self, family: Family) -> Rule {
        self.rules
            .get(&family)
            .copied()
            .unwrap_or_else(|| family.default_rule())
    }
}

/// Counts hits. Counters are kept per key until their window ends; a deployment of several
/// processes shares one counter store (the database, or Redis).
#[async_trait]
pub trait RateLimiter: Send + Sync {
    /// Adds `delta` (1 for a hit, -1 to take one back) to the counter `key`, which may be
    /// forgotten after `expires_at`, and returns its new value.
    async fn add(&self, key: &str, delta: i64, expires_at: DateTime<Utc>) -> Result<i64, String>;
}

/// Counters in this process's memory (the embedded default: one process serves).
#[derive(Default)]
pub struct MemoryRateLimiter {
    counters: Mutex<Counters>,
}

#[derive(Default)]
struct Counters {
    /// Key -> (count, kept until).
    map: HashMap<String, (i64, DateTime<Utc>)>,
    /// The size at which expired counters are swept next.
    sweep_at: usize,
}

/// Counters kept before expired ones are first swept; after a sweep, the next waits until the
/// map has doubled, so a sweep costs a constant amount per hit however many counters live.
const SWEEP_AT: usize = 10_000;

#[async_trait]
impl RateLimiter for MemoryRateLimiter {
    async fn add(&self, key: &str, delta: i64, expires_at: DateTime<Utc>) -> Result<i64, String> {
        let mut counters = self.counters.lock().map_err(|_| "poisoned".to_string())?;
        if counters.map.len() >= counters.sweep_at.max(SWEEP_AT) {
            let now = Utc::now();
            counters.map.retain(|_, (_, until)| *until > now);
            counters.sweep_at = counters.map.len() * 2;
        }
        let entry = counters
            .map
            .entry(key.to_string())
            .or_insert((0, expires_at));
        entry.0 += delta;
        entry.1 = expires_at;
        Ok(entry.0)
    }
}

/// The address a family counts per: an IPv6 address by its /64 network (one host usually has
/// a whole one), anything else as it is.
pub fn address_key(addr: &str) -> String {
    match addr.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
        _ => addr.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_with_units() {
        assert_eq!(
            Rule::parse("300/5m"),
            Some(Rule {
                limit: 300,
                period_secs: 300
            })
        );
        assert_eq!(Rule::parse(" 5 / 30m ").map(|r| r.period_secs), Some(1800));
        assert_eq!(Rule::parse("400/1d").map(|r| r.period_secs), Some(86_400));
        assert_eq!(Rule::parse("10/90").map(|r| r.period_secs), Some(90));
        for bad in [
            "",
            "300",
            "0/5m",
            "5/0m",
            "x/5m",
            "5/5w",
            "5/99999999999999999999d",
        ] {
            assert_eq!(Rule::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn settings_parse_overrides_and_switch() {
        assert!(RateLimits::parse("on").unwrap().enabled);
        assert!(!RateLimits::parse("off").unwrap().enabled);
        let l = RateLimits::parse("statuses=3/1h, follows=2/10m").unwrap();
        assert!(l.enabled);
        assert_eq!(l.rule(Family::Statuses).limit, 3);
        assert_eq!(l.rule(Family::Follows).period_secs, 600);
        assert_eq!(l.rule(Family::Media), Family::Media.default_rule());
        assert!(
            RateLimits::parse("posting=3/1h")
                .unwrap_err()
                .contains("known: api")
        );
        assert!(RateLimits::parse("statuses=3").is_err());
        let l = RateLimits::parse("*=1000/1m,statuses=300/3h").unwrap();
        assert_eq!(l.rule(Family::SignUps).limit, 1000);
        assert_eq!(l.rule(Family::Statuses).limit, 300);
    }

    #[test]
    fn windows_are_fixed_and_end_on_a_multiple_of_the_period() {
        let rule = Rule::parse("5/5m").unwrap();
        let at = Utc.timestamp_opt(1_000_000_123, 0).unwrap();
        let (index, end) = rule.window(at);
        assert_eq!(index, 1_000_000_123 / 300);
        assert_eq!(end.timestamp() % 300, 0);
        assert!(end > at && end.timestamp() - at.timestamp() <= 300);
        assert_eq!(rule.window(end).0, index + 1);
    }

    #[tokio::test]
    async fn memory_counters_count_and_take_back() {
        let m = MemoryRateLimiter::default();
        let until = Utc::now() + chrono::Duration::minutes(5);
        assert_eq!(m.add("a", 1, until).await.unwrap(), 1);
        assert_eq!(m.add("a", 1, until).await.unwrap(), 2);
        assert_eq!(m.add("b", 1, until).await.unwrap(), 1);
        assert_eq!(m.add("a", -1, until).await.unwrap(), 1);
    }

    #[test]
    fn ipv6_addresses_count_by_network() {
        assert_eq!(address_key("203.0.113.9"), "203.0.113.9");
        assert_eq!(
            address_key("2001:db8:1:2:aaaa::1"),
            address_key("2001:db8:1:2:bbbb::9")
        );
        assert_ne!(
            address_key("2001:db8:1:2::1"),
            address_key("2001:db8:1:3::1")
        );
        assert_eq!(address_key("::ffff:127.0.0.9"), "127.0.0.9");
    }
}
