//! The search benchmark: seeds a large database and prints the figures of the search issue.
//!
//! What it measures, in order:
//!
//! 1. **Seeding** (not a target, printed for reference): `--accounts` accounts (most remote on a
//!    few fake domains, a tenth local, about half `indexable`, names made of generated
//!    syllables) and `--statuses` statuses whose text draws its words from a generated
//!    vocabulary of 30,000 words with a Zipf law (s = 1.05), 5 to 40 words each; 80% public, 10%
//!    unlisted, 7% private, 3% direct, 15% replies, a language on most; then favourites,
//!    bookmarks and follows of the searching accounts. Written with multi-row `INSERT`s in large
//!    transactions on a connection of its own, not through the store's one-row-at-a-time
//!    methods.
//! 2. **Reindexing**: `fedblog_server::reindex::reindex` from scratch: statuses per second.
//! 3. **Status search** through the core (`app.search().statuses`, visibility checks
//!    included), as random local accounts, for two-word queries drawn from the same Zipf law
//!    without the 100 most frequent words: latency of `--queries` sequential queries (p50, p99,
//!    max, mean results), then queries per second of 8 concurrent tasks for `--seconds`.
//!    Targets: p99 <= 50 ms, >= 300 queries/s.
//! 4. **Account search** through the core (`app.discovery().search_accounts`, limit 40): 1000
//!    queries of the first 3 to 5 characters of a username or a display-name word. Target: p99
//!    <= 10 ms.
//!
//! The app is built over the store as the server builds it (`SeaStore::into_cached`, with the
//! change log on PostgreSQL), with the server's default pool of 10 connections.
//!
//! Run (release build; the defaults are the issue's sizes):
//!
//! ```text
//! cargo bench -p fedblog-server --bench search -- [--statuses N] [--accounts N]
//!     [--database-url URL] [--queries N] [--seconds S]
//! ```
//!
//! Without `--database-url` it makes a SQLite file in a new temporary folder, removed at the end.
//! With `--database-url postgres://...` it uses that database, which must be empty (the schema
//! is migrated here), e.g. `createdb -h 127.0.0.1 -U postgres fedblog_search_bench` and
//! `--database-url postgres://postgres@127.0.0.1/fedblog_search_bench`; drop it afterwards.
//! Unknown arguments (`cargo bench` passes `--bench`) are ignored. `FEDBLOG_LOG` sets the log
//! filter (default `warn`).

use std::collections::HashSet;
use std::fmt::Display;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use fedblog_core::services::discovery::SearchQuery;
use fedblog_core::services::search::StatusSearchParams;
use fedblog_core::store::AccountRecord;
use fedblog_core::{App, Id, IdGenerator, InstanceConfig};
use fedblog_server::store::{self, ConnectSettings, SeaStore};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, Statement,
    TransactionTrait, Value,
};

/// This server's domain in the seeded data (local accounts have no domain).
const LOCAL_DOMAIN: &str = "bench.example";
/// The other servers the remote accounts come from, the busiest first.
const REMOTE_DOMAINS: [&str; 8] = [
    "mastodon.example",
    "social.example",
    "fosstodon.example",
    "hachyderm.example",
    "mstdn.example",
    "infosec.example",
    "toot.example",
    "chaos.example",
];
/// Words in the generated vocabulary.
const VOCABULARY: usize = 30_000;
/// The exponent of the Zipf law words are drawn with.
const ZIPF_S: f64 = 1.05;
/// The most frequent words, left out of queries as stop words.
const STOP_RANKS: usize = 100;
/// Statuses a query asks for (the API's default limit).
const STATUS_LIMIT: u64 = 20;
/// Accounts an account query asks for.
const ACCOUNT_LIMIT: u64 = 40;
/// Account queries made.
const ACCOUNT_QUERIES: usize = 1000;
/// Concurrent tasks of the throughput run.
const TASKS: usize = 8;
/// Local accounts that search (and favourite and bookmark, so their library has something).
const SEARCHERS: usize = 1000;
/// Rows per transaction while seeding.
const ROWS_PER_TRANSACTION: usize = 50_000;
/// Bound parameters per statement: under SQLite's limit (32766) and PostgreSQL's (65535).
const PARAMS_PER_STATEMENT: usize = 30_000;

// ---------------------------------------------------------------------------------------------
// Options

/// The command line.
#[derive(Debug)]
struct Options {
    statuses: usize,
    accounts: usize,
    database_url: Option<String>,
    queries: usize,
    seconds: f64,
}

const USAGE: &str = "cargo bench -p fedblog-server --bench search -- [--statuses N] \
[--accounts N] [--database-url URL] [--queries N] [--seconds S]";

impl Options {
    /// Reads the arguments by hand: `--name value` or `--name=value`; unknown flags (such as
    /// the `--bench` cargo adds) are ignored.
    fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut o = Options {
            statuses: 1_000_000,
            accounts: 100_000,
            database_url: None,
            queries: 1000,
            seconds: 10.0,
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
                _ => (arg.clone(), None),
            };
            let known = [
                "--statuses",
                "--accounts",
                "--database-url",
                "--queries",
                "--seconds",
            ];
            if name == "--help" || name == "-h" {
                return Err(format!("usage: {USAGE}"));
            }
            if !known.contains(&name.as_str()) {
                continue;
            }
            let value = match inline {
                Some(v) => v,
                None => args
                    .next()
                    .ok_or_else(|| format!("{name} needs a value; usage: {USAGE}"))?,
            };
            let number = |v: &str| {
                v.replace(['_', ','], "")
                    .parse::<usize>()
                    .map_err(|_| format!("{name}: {v:?} is not a whole number"))
            };
            match name.as_str() {
                "--statuses" => o.statuses = number(&value)?,
                "--accounts" => o.accounts = number(&value)?,
                "--queries" => o.queries = number(&value)?.max(1),
                "--seconds" => {
                    o.seconds = value
                        .parse::<f64>()
                        .ok()
                        .filter(|s| *s > 0.0)
                        .ok_or_else(|| format!("--seconds: {value:?} is not a duration"))?
                }
                _ => o.database_url = Some(value),
            }
        }
        if o.accounts == 0 || o.statuses == 0 {
            return Err("--accounts and --statuses must be at least 1".into());
        }
        Ok(o)
    }
}

// ---------------------------------------------------------------------------------------------
// Generated data

/// A deterministic xorshift64* generator: the same seed makes the same database.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so that nearby seeds start far apart (never zero).
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A Zipf law over ranks `0..n`: rank `k` has a weight `1 / (k + 1)^s`.
struct Zipf {
    cdf: Vec<f64>,
}

impl Zipf {
    fn new(n: usize, s: f64) -> Zipf {
        let mut total = 0.0;
        let mut cdf: Vec<f64> = (1..=n)
            .map(|k| {
                total += 1.0 / (k as f64).powf(s);
                total
            })
            .collect();
        for c in &mut cdf {
            *c /= total;
        }
        Zipf { cdf }
    }

    fn sample(&self, rng: &mut Rng) -> usize {
        let u = rng.unit();
        self.cdf.partition_point(|&c| c < u).min(self.cdf.len() - 1)
    }
}

const ONSETS: [&str; 34] = [
    "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br",
    "ch", "cl", "dr", "fl", "gr", "kr", "pl", "pr", "sh", "sk", "sl", "st", "th", "tr", "y",
];
const NUCLEI: [&str; 14] = [
    "a", "e", "i", "o", "u", "a", "e", "o", "ai", "au", "ea", "ie", "oo", "ou",
];
const CODAS: [&str; 12] = ["", "", "", "", "n", "r", "l", "m", "t", "k", "nd", "st"];

/// English stop words a generated word could spell (PostgreSQL's `english` configuration drops
/// them from the index, which would make a query of one of them find nothing).
const ENGLISH_STOP_WORDS: [&str; 60] = [
    "a", "about", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "before", "below", "but", "by", "do", "doe", "down", "few", "for", "he", "her", "here",
    "hi", "i", "if", "in", "into", "is", "it", "me", "more", "most", "my", "no", "nor", "not",
    "of", "off", "on", "or", "our", "out", "same", "she", "so", "some", "the", "then", "there",
    "these", "to", "too", "we", "were", "who", "yo",
];

/// A generated syllable: an onset, a vowel and, sometimes, a closing consonant.
fn syllable(rng: &mut Rng, closed: bool) -> String {
    let mut s = String::from(ONSETS[rng.below(ONSETS.len())]);
    s.push_str(NUCLEI[rng.below(NUCLEI.len())]);
    if closed {
        s.push_str(CODAS[rng.below(CODAS.len())]);
    }
    s
}

/// A word of `syllables` syllables (only the last may be closed).
fn word(rng: &mut Rng, syllables: usize) -> String {
    (0..syllables)
        .map(|i| syllable(rng, i + 1 == syllables))
        .collect()
}

/// The vocabulary, most frequent first: frequent words are short, as in real text.
fn vocabulary(rng: &mut Rng) -> Vec<String> {
    let mut seen: HashSet<String> = ENGLISH_STOP_WORDS.iter().map(|w| w.to_string()).collect();
    let mut words = Vec::with_capacity(VOCABULARY);
    while words.len() < VOCABULARY {
        let rank = words.len();
        let syllables = match rank {
            0..150 => 1,
            150..3000 => 2,
            3000..15000 => rng.between(2, 3),
            _ => rng.between(3, 4),
        };
        let w = word(rng, syllables);
        if seen.insert(w.clone()) {
            words.push(w);
        }
    }
    words
}

fn capitalized(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The words of one status: `n` words drawn with the Zipf law, as sentences.
fn sentence_text(rng: &mut Rng, words: &[String], zipf: &Zipf, n: usize) -> String {
    let mut out = String::new();
    let mut start = true;
    for i in 0..n {
        let w = &words[zipf.sample(rng)];
        if start {
            out.push_str(&capitalized(w));
            start = false;
        } else {
            out.push_str(w);
        }
        let last = i + 1 == n;
        if last || (i >= 4 && rng.chance(0.08)) {
            out.push(*rng.pick(&['.', '.', '.', '!', '?']));
            start = true;
        } else if rng.chance(0.06) {
            out.push(',');
        }
        if !last {
            out.push(' ');
        }
    }
    out
}

/// One generated account.
struct SeedAccount {
    id: Id,
    username: String,
    /// Index into [`REMOTE_DOMAINS`]; `None` for a local account.
    domain: Option<usize>,
    display_name: String,
    indexable: bool,
    created: DateTime<Utc>,
    statuses: i64,
    last_status: Option<DateTime<Utc>>,
}

impl SeedAccount {
    fn domain(&self) -> Option<&'static str> {
        self.domain.map(|d| REMOTE_DOMAINS[d])
    }

    /// The profile URL, as a mention links it.
    fn url(&self) -> String {
        format!(
            "https://{}/@{}",
            self.domain().unwrap_or(LOCAL_DOMAIN),
            self.username
        )
    }
}

const VIS_PUBLIC: u8 = 0;
const VIS_UNLISTED: u8 = 1;
const VIS_PRIVATE: u8 = 2;
const VIS_DIRECT: u8 = 3;
const VISIBILITIES: [&str; 4] = ["public", "unlisted", "private", "direct"];
/// Languages of statuses, `None` for an unknown language (a tenth or so).
const LANGUAGES: [Option<&str>; 20] = [
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("en"),
    Some("de"),
    Some("de"),
    Some("fr"),
    Some("es"),
    Some("pt"),
    Some("nl"),
    None,
    None,
];

/// One generated status, without its text (made when it is written, from its own seed).
struct PlannedStatus {
    author: u32,
    /// Index of the status it replies to.
    parent: Option<u32>,
    /// Index of its thread's first status (itself when it starts one).
    thread: u32,
    /// Index of the account it mentions (the parent's author, or the addressee of a direct
    /// status).
    mention: Option<u32>,
    visibility: u8,
    language: u8,
    millis: i64,
    replies: u32,
    favourites: u32,
}

/// The generated database, before it is written.
struct Plan {
    accounts: Vec<SeedAccount>,
    statuses: Vec<PlannedStatus>,
    /// `(account index, status index)` pairs.
    favourites: Vec<(u32, u32)>,
    bookmarks: Vec<(u32, u32)>,
    /// `(follower, followed)` account indexes: whom the searchers follow.
    follows: Vec<(u32, u32)>,
    /// Indexes of the local accounts that search.
    searchers: Vec<u32>,
    words: Vec<String>,
    zipf: Zipf,
}

/// Generates every record (texts aside) from one seed.
fn plan(opts: &Options, now: DateTime<Utc>) -> Plan {
    let mut rng = Rng::new(0x0F3D_B106);
    let words = vocabulary(&mut rng);
    let zipf = Zipf::new(VOCABULARY, ZIPF_S);
    let day = 86_400_000i64;
    let now_ms = now.timestamp_millis();

    // Accounts: created between three years and one year ago, in id order.
    let domain_zipf = Zipf::new(REMOTE_DOMAINS.len(), 1.0);
    let accounts_from = now_ms - 3 * 365 * day;
    let accounts_to = now_ms - 365 * day;
    let step = ((accounts_to - accounts_from) / opts.accounts as i64).max(1);
    let mut taken: HashSet<(Option<usize>, String)> = HashSet::new();
    let mut accounts = Vec::with_capacity(opts.accounts);
    for i in 0..opts.accounts {
        // A tenth local; the first always, so that there is someone to search as.
        let domain = (i > 0 && !rng.chance(0.1)).then(|| domain_zipf.sample(&mut rng));
        let username = loop {
            let syllables = rng.between(2, 3);
            let mut u = word(&mut rng, syllables);
            match rng.below(10) {
                0 | 1 => u.push_str(&rng.below(1000).to_string()),
                2 => {
                    u.push('_');
                    u.push_str(&word(&mut rng, 1));
                }
                3 => u = capitalized(&u),
                _ => {}
            }
            if taken.insert((domain, u.to_ascii_lowercase())) {
                break u;
            }
        };
        let display_name = match rng.below(20) {
            0 | 1 => String::new(),
            2 => capitalized(&username),
            3 => format!("{} 🌱", capitalized(&word(&mut rng, 2))),
            4 => {
                let syllables = rng.between(2, 3);
                capitalized(&word(&mut rng, syllables))
            }
            _ => {
                let (first, last) = (rng.between(1, 3), rng.between(2, 3));
                let first = capitalized(&word(&mut rng, first));
                format!("{first} {}", capitalized(&word(&mut rng, last)))
            }
        };
        let ms = accounts_from + i as i64 * step + rng.below(step as usize / 2 + 1) as i64;
        accounts.push(SeedAccount {
            id: Id((ms as u64) << 16),
            username,
            domain,
            display_name,
            indexable: rng.chance(0.5),
            created: DateTime::from_timestamp_millis(ms).unwrap_or(now),
            statuses: 0,
            last_status: None,
        });
    }
    // Who writes: a shuffled order of the accounts, the first ones writing much more.
    let mut writers: Vec<u32> = (0..opts.accounts as u32).collect();
    for i in (1..writers.len()).rev() {
        writers.swap(i, rng.below(i + 1));
    }

    // Statuses: over the last year, in id order.
    let statuses_from = now_ms - 365 * day;
    let statuses_to = now_ms - 60_000;
    let n = opts.statuses;
    let step = ((statuses_to - statuses_from) / n as i64).max(1);
    let mut statuses: Vec<PlannedStatus> = Vec::with_capacity(n);
    for i in 0..n {
        let author = writers[((rng.unit().powi(2)) * opts.accounts as f64) as usize];
        let roll = rng.below(100);
        let visibility = match roll {
            0..80 => VIS_PUBLIC,
            80..90 => VIS_UNLISTED,
            90..97 => VIS_PRIVATE,
            _ => VIS_DIRECT,
        };
        let parent = (i > 0 && rng.chance(0.15)).then(|| (i - 1 - rng.below(i.min(5000))) as u32);
        let thread = match parent {
            Some(p) => statuses[p as usize].thread,
            None => i as u32,
        };
        let mention = match parent {
            Some(p) => Some(statuses[p as usize].author),
            None if visibility == VIS_DIRECT => Some(rng.below(opts.accounts) as u32),
            None => None,
        };
        if let Some(p) = parent {
            statuses[p as usize].replies += 1;
        }
        let millis = statuses_from + i as i64 * step + rng.below(step as usize / 2 + 1) as i64;
        let a = &mut accounts[author as usize];
        a.statuses += 1;
        a.last_status = DateTime::from_timestamp_millis(millis);
        statuses.push(PlannedStatus {
            author,
            parent,
            thread,
            mention,
            visibility,
            language: rng.below(LANGUAGES.len()) as u8,
            millis,
            replies: 0,
            favourites: 0,
        });
    }

    // The searchers: local accounts, spread over the list.
    let locals: Vec<u32> = (0..accounts.len() as u32)
        .filter(|&i| accounts[i as usize].domain.is_none())
        .collect();
    let every = (locals.len() / SEARCHERS).max(1);
    let searchers: Vec<u32> = locals
        .iter()
        .step_by(every)
        .take(SEARCHERS)
        .copied()
        .collect();

    // Favourites and bookmarks of public and unlisted statuses by the searchers: a few thousand
    // for a million statuses.
    let pairs = |count: usize, rng: &mut Rng, statuses: &mut [PlannedStatus], fav: bool| {
        let mut seen = HashSet::new();
        let mut out = Vec::with_capacity(count);
        let mut tries = 0;
        while out.len() < count && tries < count * 20 {
            tries += 1;
            let account = *rng.pick(&searchers);
            let status = rng.below(statuses.len()) as u32;
            if statuses[status as usize].visibility > VIS_UNLISTED
                || !seen.insert((account, status))
            {
                continue;
            }
            if fav {
                statuses[status as usize].favourites += 1;
            }
            out.push((account, status));
        }
        out
    };
    let favourites = pairs((n / 200).max(10), &mut rng, &mut statuses, true);
    let bookmarks = pairs((n / 330).max(10), &mut rng, &mut statuses, false);

    // Whom the searchers follow: 20 to 100 accounts each, the busier writers more often.
    let mut follows = vec![];
    for &follower in &searchers {
        let mut seen = HashSet::new();
        for _ in 0..rng.between(20, 100) {
            let target = writers[(rng.unit().powi(2) * opts.accounts as f64) as usize];
            if target != follower && seen.insert(target) {
                follows.push((follower, target));
            }
        }
    }
    Plan {
        accounts,
        statuses,
        favourites,
        bookmarks,
        follows,
        searchers,
        words,
        zipf,
    }
}

// ---------------------------------------------------------------------------------------------
// Seeding

/// Writes rows of one table with multi-row `INSERT`s, many to a transaction.
struct Inserter<'a> {
    db: &'a DatabaseConnection,
    table: &'static str,
    columns: &'static [&'static str],
}

impl Inserter<'_> {
    fn rows_per_statement(&self) -> usize {
        (PARAMS_PER_STATEMENT / self.columns.len()).min(1000)
    }

    /// The `INSERT` of `rows` rows, with the placeholders of the backend.
    fn sql(&self, rows: usize) -> String {
        let backend = self.db.get_database_backend();
        let mut sql = format!(
            "INSERT INTO {} ({}) VALUES ",
            self.table,
            self.columns.join(", ")
        );
        let mut n = 0;
        for r in 0..rows {
            if r > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for c in 0..self.columns.len() {
                if c > 0 {
                    sql.push_str(", ");
                }
                n += 1;
                match backend {
                    DbBackend::Postgres => sql.push_str(&format!("${n}")),
                    _ => sql.push('?'),
                }
            }
            sql.push(')');
        }
        sql
    }

    /// Writes `count` rows, the values of row `i` made by `row(i, &mut values)`.
    async fn write(
        &self,
        count: usize,
        mut row: impl FnMut(usize, &mut Vec<Value>),
    ) -> Result<(), String> {
        let backend = self.db.get_database_backend();
        let per_statement = self.rows_per_statement();
        let full_sql = self.sql(per_statement);
        let mut i = 0;
        while i < count {
            let tx_end = (i + ROWS_PER_TRANSACTION).min(count);
            let tx = self
                .db
                .begin()
                .await
                .map_err(failed("begin a transaction"))?;
            while i < tx_end {
                let end = (i + per_statement).min(tx_end);
                let mut values = Vec::with_capacity((end - i) * self.columns.len());
                for r in i..end {
                    row(r, &mut values);
                }
                debug_assert_eq!(values.len(), (end - i) * self.columns.len());
                let sql = if end - i == per_statement {
                    full_sql.clone()
                } else {
                    self.sql(end - i)
                };
                tx.execute_raw(Statement::from_sql_and_values(backend, sql, values))
                    .await
                    .map_err(failed(&format!("insert into {}", self.table)))?;
                i = end;
            }
            tx.commit().await.map_err(failed("commit"))?;
        }
        Ok(())
    }
}

/// `what failed: error`, for `map_err`.
fn failed<E: Display>(what: &str) -> impl FnOnce(E) -> String + '_ {
    move |e| format!("cannot {what}: {e}")
}

fn text(s: impl Into<String>) -> Value {
    Value::String(Some(s.into()))
}

fn opt_text(s: Option<impl Into<String>>) -> Value {
    Value::String(s.map(Into::into))
}

fn int(v: i64) -> Value {
    Value::BigInt(Some(v))
}

fn opt_int(v: Option<i64>) -> Value {
    Value::BigInt(v)
}

fn time(t: DateTime<Utc>) -> Value {
    t.into()
}

fn opt_time(t: Option<DateTime<Utc>>) -> Value {
    t.into()
}

const ACCOUNT_COLUMNS: &[&str] = &[
    "id",
    "username",
    "username_lower",
    "domain",
    "domain_key",
    "display_name",
    "note",
    "locked",
    "bot",
    "discoverable",
    "indexable",
    "fields",
    "default_privacy",
    "default_sensitive",
    "default_language",
    "uri",
    "url",
    "also_known_as",
    "created_at",
    "updated_at",
    "statuses_count",
    "followers_count",
    "following_count",
    "last_status_at",
];

const STATUS_COLUMNS: &[&str] = &[
    "id",
    "account_id",
    "uri",
    "text",
    "content",
    "spoiler_text",
    "visibility",
    "sensitive",
    "language",
    "in_reply_to_id",
    "in_reply_to_account_id",
    "has_media",
    "media_ids",
    "local",
    "created_at",
    "conversation_id",
    "replies_count",
    "reblogs_count",
    "favourites_count",
];

/// What seeding wrote, for the figures.
struct Seeded {
    seconds: f64,
    /// The searching accounts' ids.
    searchers: Vec<Id>,
}

/// Writes the plan through a connection of its own to `url`.
async fn seed(url: &str, plan: &Plan) -> Result<Seeded, String> {
    let started = Instant::now();
    let mut co = ConnectOptions::new(url.to_string());
    co.max_connections(1).sqlx_logging(false);
    let db = Database::connect(co)
        .await
        .map_err(failed("open the seeding connection"))?;
    if db.get_database_backend() == DbBackend::Sqlite {
        db.execute_unprepared("PRAGMA synchronous = NORMAL")
            .await
            .map_err(failed("set up SQLite"))?;
    }
    let status_id = |i: u32| Id((plan.statuses[i as usize].millis as u64) << 16);

    let t = Instant::now();
    let mut rng = Rng::new(7);
    let accounts = Inserter {
        db: &db,
        table: "accounts",
        columns: ACCOUNT_COLUMNS,
    };
    accounts
        .write(plan.accounts.len(), |i, v| {
            let a = &plan.accounts[i];
            let remote = a.domain();
            let followers = (rng.unit().powi(6) * 20_000.0) as i64;
            v.extend([
                int(a.id.as_i64()),
                text(a.username.as_str()),
                text(a.username.to_ascii_lowercase()),
                opt_text(remote),
                text(remote.unwrap_or_default()),
                text(a.display_name.as_str()),
                text(if rng.chance(0.5) {
                    String::new()
                } else {
                    format!("<p>{}</p>", capitalized(&word(&mut rng, 3)))
                }),
                false.into(),
                rng.chance(0.03).into(),
                Some(rng.chance(0.7)).into(),
                a.indexable.into(),
                text("[]"),
                text("public"),
                false.into(),
                opt_text(None::<String>),
                opt_text(remote.map(|d| format!("https://{d}/users/{}", a.username))),
                opt_text(remote.map(|_| a.url())),
                text("[]"),
                time(a.created),
                time(a.last_status.unwrap_or(a.created)),
                int(a.statuses),
                int(followers),
                int(rng.below(500) as i64),
                opt_time(a.last_status),
            ]);
        })
        .await?;
    let accounts_seconds = t.elapsed().as_secs_f64();
    println!(
        "  accounts:    {:>10} in {:>7.1} s",
        thousands(plan.accounts.len()),
        accounts_seconds
    );

    let t = Instant::now();
    let statuses = Inserter {
        db: &db,
        table: "statuses",
        columns: STATUS_COLUMNS,
    };
    statuses
        .write(plan.statuses.len(), |i, v| {
            let s = &plan.statuses[i];
            let author = &plan.accounts[s.author as usize];
            let id = status_id(i as u32);
            let mut rng = Rng::new(1_000_003 + i as u64);
            let length = rng.between(5, 40);
            let body = sentence_text(&mut rng, &plan.words, &plan.zipf, length);
            let mentioned = s.mention.map(|m| &plan.accounts[m as usize]);
            let (text_value, content) = match mentioned {
                Some(m) => {
                    let handle = match m.domain() {
                        Some(d) => format!("@{}@{d}", m.username),
                        None => format!("@{}", m.username),
                    };
                    (
                        format!("{handle} {body}"),
                        format!(
                            "<p><span class=\"h-card\"><a href=\"{}\" class=\"u-url mention\">\
                             @<span>{}</span></a></span> {body}</p>",
                            m.url(),
                            m.username
                        ),
                    )
                }
                None => (body.clone(), format!("<p>{body}</p>")),
            };
            let spoiler = if rng.chance(0.03) {
                capitalized(&sentence_text(&mut rng, &plan.words, &plan.zipf, 2))
            } else {
                String::new()
            };
            let remote = author.domain();
            v.extend([
                int(id.as_i64()),
                int(author.id.as_i64()),
                opt_text(
                    remote.map(|d| format!("https://{d}/users/{}/statuses/{id}", author.username)),
                ),
                text(text_value),
                text(content),
                text(spoiler.as_str()),
                text(VISIBILITIES[s.visibility as usize]),
                (!spoiler.is_empty()).into(),
                opt_text(LANGUAGES[s.language as usize]),
                opt_int(s.parent.map(|p| status_id(p).as_i64())),
                opt_int(s.parent.map(|p| {
                    plan.accounts[plan.statuses[p as usize].author as usize]
                        .id
                        .as_i64()
                })),
                false.into(),
                text(""),
                remote.is_none().into(),
                time(DateTime::from_timestamp_millis(s.millis).unwrap_or_default()),
                int(status_id(s.thread).as_i64()),
                int(s.replies as i64),
                int(0),
                int(s.favourites as i64),
            ]);
        })
        .await?;
    println!(
        "  statuses:    {:>10} in {:>7.1} s ({:.0}/s)",
        thousands(plan.statuses.len()),
        t.elapsed().as_secs_f64(),
        plan.statuses.len() as f64 / t.elapsed().as_secs_f64()
    );

    let t = Instant::now();
    let mentioning: Vec<u32> = (0..plan.statuses.len() as u32)
        .filter(|&i| plan.statuses[i as usize].mention.is_some())
        .collect();
    let mentions = Inserter {
        db: &db,
        table: "status_mentions",
        columns: &["status_id", "position", "account_id"],
    };
    mentions
        .write(mentioning.len(), |i, v| {
            let s = mentioning[i];
            let m = plan.statuses[s as usize].mention.unwrap_or_default();
            v.extend([
                int(status_id(s).as_i64()),
                Value::Int(Some(0)),
                int(plan.accounts[m as usize].id.as_i64()),
            ]);
        })
        .await?;
    for (table, pairs) in [
        ("favourites", &plan.favourites),
        ("bookmarks", &plan.bookmarks),
    ] {
        // Ids in the order of their times (a little after the status's).
        let ids = IdGenerator::with_node(1);
        let mut timed: Vec<(i64, u32, u32)> = pairs
            .iter()
            .map(|&(a, s)| (plan.statuses[s as usize].millis + 3_600_000, a, s))
            .collect();
        timed.sort_unstable();
        let pairs = Inserter {
            db: &db,
            table,
            columns: &["id", "account_id", "status_id", "created_at"],
        };
        pairs
            .write(timed.len(), |i, v| {
                let (ms, a, s) = timed[i];
                v.extend([
                    int(ids.next_at(ms).as_i64()),
                    int(plan.accounts[a as usize].id.as_i64()),
                    int(status_id(s).as_i64()),
                    time(DateTime::from_timestamp_millis(ms).unwrap_or_default()),
                ]);
            })
            .await?;
    }
    let ids = IdGenerator::with_node(2);
    let follows = Inserter {
        db: &db,
        table: "follows",
        columns: &["follower_id", "target_id", "id", "show_reblogs", "notify"],
    };
    let last_year = Utc::now().timestamp_millis() - 365 * 86_400_000;
    follows
        .write(plan.follows.len(), |i, v| {
            let (follower, target) = plan.follows[i];
            let at = last_year + i as i64 * 1000;
            v.extend([
                int(plan.accounts[follower as usize].id.as_i64()),
                int(plan.accounts[target as usize].id.as_i64()),
                int(ids.next_at(at).as_i64()),
                true.into(),
                false.into(),
            ]);
        })
        .await?;
    println!(
        "  mentions, favourites, bookmarks, follows: {} / {} / {} / {} in {:.1} s",
        thousands(mentioning.len()),
        thousands(plan.favourites.len()),
        thousands(plan.bookmarks.len()),
        thousands(plan.follows.len()),
        t.elapsed().as_secs_f64()
    );
    db.close()
        .await
        .map_err(failed("close the seeding connection"))?;
    Ok(Seeded {
        seconds: started.elapsed().as_secs_f64(),
        searchers: plan
            .searchers
            .iter()
            .map(|&i| plan.accounts[i as usize].id)
            .collect(),
    })
}

// ---------------------------------------------------------------------------------------------
// Measuring

/// Latencies of a run of queries, each with what was asked.
struct Latencies {
    sorted: Vec<(Duration, String)>,
}

impl Latencies {
    fn new(mut all: Vec<(Duration, String)>) -> Latencies {
        all.sort_unstable_by_key(|(d, _)| *d);
        Latencies { sorted: all }
    }

    /// The `p`th percentile (nearest rank).
    fn percentile(&self, p: f64) -> Duration {
        let n = self.sorted.len();
        if n == 0 {
            return Duration::ZERO;
        }
        let rank = ((p / 100.0) * n as f64).ceil() as usize;
        self.sorted[rank.clamp(1, n) - 1].0
    }

    fn max(&self) -> Duration {
        self.sorted.last().map(|(d, _)| *d).unwrap_or_default()
    }

    /// The `n` slowest queries, slowest first.
    fn slowest(&self, n: usize) -> String {
        self.sorted
            .iter()
            .rev()
            .take(n)
            .map(|(d, q)| format!("{q} {}", ms(*d)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn summary(&self) -> String {
        format!(
            "p50 {}, p99 {}, max {}",
            ms(self.percentile(50.0)),
            ms(self.percentile(99.0)),
            ms(self.max())
        )
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Two-word status queries: words drawn with the corpus's Zipf law, the stop words left out.
struct QueryWords<'a> {
    words: &'a [String],
    zipf: &'a Zipf,
}

impl QueryWords<'_> {
    fn word(&self, rng: &mut Rng) -> usize {
        loop {
            let rank = self.zipf.sample(rng);
            if rank >= STOP_RANKS {
                return rank;
            }
        }
    }

    fn query(&self, rng: &mut Rng) -> String {
        let a = self.word(rng);
        let b = loop {
            let b = self.word(rng);
            if b != a {
                break b;
            }
        };
        format!("{} {}", self.words[a], self.words[b])
    }
}

/// One status search as `me`: the number of statuses found.
async fn status_query(app: &App, me: &AccountRecord, q: &str) -> Result<usize, String> {
    let params = StatusSearchParams {
        limit: STATUS_LIMIT,
        ..Default::default()
    };
    app.search()
        .statuses(me, q, params)
        .await
        .map(|found| found.len())
        .map_err(|e| format!("status search {q:?} failed: {e:?}"))
}

/// The status search figures.
struct StatusFigures {
    sequential: Latencies,
    mean_results: f64,
    empty: usize,
    per_second: f64,
    concurrent: Latencies,
}

async fn measure_status_search(
    app: &Arc<App>,
    searchers: &Arc<Vec<AccountRecord>>,
    words: &QueryWords<'_>,
    opts: &Options,
) -> Result<StatusFigures, String> {
    let mut rng = Rng::new(42);
    // Warm-up (not counted): the first queries read the index into the caches.
    let warm = (opts.queries / 10).clamp(1, 100);
    for _ in 0..warm {
        let me = rng.pick(searchers);
        status_query(app, me, &words.query(&mut rng)).await?;
    }
    let mut latencies = Vec::with_capacity(opts.queries);
    let mut found = 0usize;
    let mut empty = 0usize;
    for _ in 0..opts.queries {
        let me = rng.pick(searchers);
        let q = words.query(&mut rng);
        let t = Instant::now();
        let n = status_query(app, me, &q).await?;
        latencies.push((t.elapsed(), format!("{q:?} ({n} found)")));
        found += n;
        if n == 0 {
            empty += 1;
        }
    }
    let sequential = Latencies::new(latencies);
    println!(
        "  sequential, {} queries ({warm} warm-up not counted): {}; {:.1} results on average \
         ({} found nothing)",
        opts.queries,
        sequential.summary(),
        found as f64 / opts.queries as f64,
        empty
    );
    println!("  slowest: {}", sequential.slowest(5));

    // Throughput: the query texts made before the clock starts.
    let per_task: Vec<Vec<(usize, String)>> = (0..TASKS)
        .map(|_| {
            (0..4096)
                .map(|_| (rng.below(searchers.len()), words.query(&mut rng)))
                .collect()
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs_f64(opts.seconds);
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(TASKS);
    for queries in per_task {
        let app = app.clone();
        let searchers = searchers.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = vec![];
            for (me, q) in queries.iter().cycle() {
                if Instant::now() >= deadline {
                    break;
                }
                let t = Instant::now();
                let n = status_query(&app, &searchers[*me], q).await?;
                latencies.push((t.elapsed(), format!("{q:?} ({n} found)")));
            }
            Ok::<_, String>(latencies)
        }));
    }
    let mut all = vec![];
    for task in tasks {
        all.extend(task.await.map_err(failed("join a query task"))??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let per_second = all.len() as f64 / elapsed;
    let concurrent = Latencies::new(all);
    println!(
        "  {TASKS} concurrent tasks for {elapsed:.1} s: {} queries, {per_second:.0} queries/s; \
         {}",
        thousands(concurrent.sorted.len()),
        concurrent.summary()
    );
    Ok(StatusFigures {
        sequential,
        mean_results: found as f64 / opts.queries as f64,
        empty,
        per_second,
        concurrent,
    })
}

/// Account search figures.
struct AccountFigures {
    latencies: Latencies,
    mean_results: f64,
    /// Accounts matching a query, on average (shown or not).
    mean_matching: f64,
}

/// The start (3 to 5 characters) of a username or of a word of a display name.
fn account_query(rng: &mut Rng, a: &SeedAccount) -> String {
    let name_words: Vec<&str> = a
        .display_name
        .split_whitespace()
        .filter(|w| w.chars().count() >= 3 && w.chars().all(char::is_alphanumeric))
        .collect();
    let source = if name_words.is_empty() || rng.chance(0.5) {
        a.username.as_str()
    } else {
        rng.pick(&name_words)
    };
    source.chars().take(rng.between(3, 5)).collect()
}

async fn measure_account_search(
    app: &Arc<App>,
    searchers: &[AccountRecord],
    plan: &Plan,
) -> Result<AccountFigures, String> {
    let mut rng = Rng::new(4242);
    let mut timed = Vec::with_capacity(ACCOUNT_QUERIES);
    let mut found = 0usize;
    let warm = 20;
    for i in 0..warm + ACCOUNT_QUERIES {
        let me = rng.pick(searchers);
        let a = &plan.accounts[rng.below(plan.accounts.len())];
        let q = account_query(&mut rng, a);
        let query = SearchQuery {
            q: q.clone(),
            following: false,
            offset: 0,
            limit: ACCOUNT_LIMIT,
        };
        let t = Instant::now();
        let n = app
            .discovery()
            .search_accounts(Some(me), query)
            .await
            .map_err(|e| format!("account search {q:?} failed: {e:?}"))?
            .len();
        if i >= warm {
            timed.push((t.elapsed(), q, n));
            found += n;
        }
    }
    // How many accounts each query matches (all of them are read to rank them), counted here
    // with the store's rule: a username starting with the text or a display name holding it.
    let names: Vec<(String, String)> = plan
        .accounts
        .iter()
        .map(|a| (a.username.to_lowercase(), a.display_name.to_lowercase()))
        .collect();
    let mut matching: Vec<usize> = Vec::with_capacity(timed.len());
    let latencies = timed
        .into_iter()
        .map(|(d, q, n)| {
            let q = q.to_lowercase();
            let m = names
                .iter()
                .filter(|(u, d)| u.starts_with(&q) || d.contains(&q))
                .count();
            matching.push(m);
            (d, format!("{q:?} ({n} shown of {m} matching)"))
        })
        .collect();
    let latencies = Latencies::new(latencies);
    matching.sort_unstable();
    let mean_matching = matching.iter().sum::<usize>() as f64 / matching.len().max(1) as f64;
    let p99_matching = matching
        .get((matching.len() * 99).div_ceil(100).saturating_sub(1))
        .copied()
        .unwrap_or(0);
    let mean_results = found as f64 / ACCOUNT_QUERIES as f64;
    println!(
        "  {ACCOUNT_QUERIES} prefix queries ({warm} warm-up not counted): {}; {mean_results:.1} \
         results on average; accounts matching a query: {mean_matching:.0} on average, p99 \
         {p99_matching}",
        latencies.summary()
    );
    println!("  slowest: {}", latencies.slowest(5));
    Ok(AccountFigures {
        latencies,
        mean_results,
        mean_matching,
    })
}

// ---------------------------------------------------------------------------------------------
// The program

/// A temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.0) {
            eprintln!("could not remove {}: {e}", self.0.display());
        }
    }
}

/// What reindexing did.
struct ReindexFigures {
    statuses: u64,
    seconds: f64,
}

async fn reindex(store: &SeaStore) -> Result<ReindexFigures, String> {
    let bar = fedblog_server::reindex::progress_bar();
    let done = fedblog_server::reindex::reindex(store, true, &bar).await?;
    Ok(ReindexFigures {
        statuses: done.statuses,
        seconds: done.seconds,
    })
}

/// On PostgreSQL, gathers the planner's statistics of the tables just filled, as autovacuum
/// would soon after a bulk load (and must here when it is off); SQLite's server gathers none.
async fn analyze(store: &SeaStore) -> Result<(), String> {
    if store.backend_name() != "postgres" {
        return Ok(());
    }
    let autovacuum = store
        .connection()
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT current_setting('autovacuum') AS on",
        ))
        .await
        .ok()
        .flatten()
        .and_then(|r| r.try_get::<String>("", "on").ok())
        .unwrap_or_default();
    let t = Instant::now();
    store
        .connection()
        .execute_unprepared("ANALYZE")
        .await
        .map_err(failed("analyze"))?;
    println!(
        "  ANALYZE in {:.1} s (autovacuum is {autovacuum})",
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The database file of a `sqlite://PATH?...` URL (`None` for other engines and memory).
fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or(rest);
    (!path.is_empty() && !path.contains(":memory:")).then(|| PathBuf::from(path))
}

/// The size of the database, in bytes, when it can tell.
async fn database_size(store: &SeaStore, sqlite_file: Option<&PathBuf>) -> Option<u64> {
    if let Some(path) = sqlite_file {
        // The pages written are copied into the file first (as a server's checkpoints do).
        let checkpoint =
            Statement::from_string(DbBackend::Sqlite, "PRAGMA wal_checkpoint(TRUNCATE)");
        store.connection().query_one_raw(checkpoint).await.ok()?;
        let mut total = 0;
        for suffix in ["", "-wal"] {
            let mut p = path.clone().into_os_string();
            p.push(suffix);
            total += std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
        }
        return Some(total);
    }
    let row = store
        .connection()
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT pg_database_size(current_database()) AS size",
        ))
        .await
        .ok()??;
    row.try_get::<i64>("", "size").ok().map(|s| s as u64)
}

/// The app over `store`, wired as `serve::build_app` wires it for search (the cached store,
/// and the change log on PostgreSQL).
fn build_app(store: SeaStore) -> Arc<App> {
    let (shared, change_log) = store.into_cached();
    let mut app = App::new(shared, InstanceConfig::new(LOCAL_DOMAIN));
    if let Some(log) = change_log {
        app = app.with_change_log(log);
    }
    Arc::new(app)
}

/// The machine's load averages (1, 5 and 15 minutes), where the system tells them: other
/// processes busy during the measurement make it slower.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

fn target(met: bool) -> &'static str {
    if met { "met" } else { "**missed**" }
}

async fn run(opts: Options) -> Result<(), String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (url, _temp, sqlite_file) = match &opts.database_url {
        Some(url) => (url.clone(), None, sqlite_file(url)),
        None => {
            let dir = std::env::temp_dir().join(format!(
                "fedblog-search-bench-{}-{}",
                std::process::id(),
                Utc::now().timestamp_millis()
            ));
            std::fs::create_dir_all(&dir).map_err(failed("create the temporary folder"))?;
            let file = dir.join("bench.sqlite");
            let url = format!("sqlite://{}?mode=rwc", file.display());
            (url, Some(TempDir(dir)), Some(file))
        }
    };
    let store = store::connect(&url, &ConnectSettings::default())
        .await
        .map_err(failed("open the database"))?;
    let backend = store.backend_name();
    store.migrate().await.map_err(failed("migrate"))?;
    let existing = store
        .connection()
        .query_one_raw(Statement::from_string(
            store.connection().get_database_backend(),
            "SELECT COUNT(*) AS n FROM accounts",
        ))
        .await
        .map_err(failed("count the accounts"))?
        .and_then(|r| r.try_get::<i64>("", "n").ok())
        .unwrap_or(0);
    if existing > 0 {
        return Err(format!(
            "the database already has {existing} accounts: give an empty database"
        ));
    }
    println!(
        "search benchmark on {backend}: {} statuses, {} accounts, {cores} cores",
        thousands(opts.statuses),
        thousands(opts.accounts)
    );

    println!("seeding");
    let t = Instant::now();
    let plan = plan(&opts, Utc::now());
    println!("  generated in {:.1} s", t.elapsed().as_secs_f64());
    let seeded = seed(&url, &plan).await?;
    println!("  seeded in {:.1} s", seeded.seconds);
    analyze(&store).await?;

    println!("reindexing");
    let reindexed = reindex(&store).await?;
    let reindex_rate = reindexed.statuses as f64 / reindexed.seconds.max(1e-9);
    println!(
        "  {} statuses indexed in {:.1} s: {reindex_rate:.0} statuses/s",
        thousands(reindexed.statuses as usize),
        reindexed.seconds
    );
    analyze(&store).await?;
    let size = database_size(&store, sqlite_file.as_ref()).await;

    let app = build_app(store.clone());
    let searchers = Arc::new(
        app.store
            .accounts_by_ids(&seeded.searchers)
            .await
            .map_err(failed("read the searching accounts"))?,
    );
    if searchers.is_empty() {
        return Err("no searching account was found".into());
    }

    println!(
        "status search (two words, limit {STATUS_LIMIT}, as {} local accounts)",
        searchers.len()
    );
    let words = QueryWords {
        words: &plan.words,
        zipf: &plan.zipf,
    };
    let load_before = load_average();
    println!("  load average before: {load_before}");
    let statuses = measure_status_search(&app, &searchers, &words, &opts).await?;

    println!("account search (prefixes of 3 to 5 characters, limit {ACCOUNT_LIMIT})");
    let accounts = measure_account_search(&app, &searchers, &plan).await?;
    let load_after = load_average();
    println!("  load average after: {load_after}");

    let p99 = statuses.sequential.percentile(99.0);
    let account_p99 = accounts.latencies.percentile(99.0);
    println!();
    println!("| Figure | Value | Target |");
    println!("|---|---|---|");
    println!("| Backend | {backend} | |");
    println!("| Machine cores | {cores} | 2 |");
    println!("| Load average before / after the queries | {load_before} / {load_after} | |");
    println!("| Statuses | {} | 1,000,000 |", thousands(opts.statuses));
    println!("| Accounts | {} | 100,000 |", thousands(opts.accounts));
    if let Some(size) = size {
        println!("| Database size | {:.0} MiB | |", size as f64 / 1048576.0);
    }
    println!("| Seeding | {:.1} s | |", seeded.seconds);
    println!(
        "| Reindexing | {} statuses in {:.1} s = {reindex_rate:.0} statuses/s | |",
        thousands(reindexed.statuses as usize),
        reindexed.seconds
    );
    println!(
        "| Status query p50 / max ({} sequential) | {} / {} | |",
        opts.queries,
        ms(statuses.sequential.percentile(50.0)),
        ms(statuses.sequential.max())
    );
    println!(
        "| Status query p99 | {} | <= 50 ms: {} |",
        ms(p99),
        target(p99 <= Duration::from_millis(50))
    );
    println!(
        "| Status results per query (mean; none found) | {:.1} ({} of {}) | |",
        statuses.mean_results, statuses.empty, opts.queries
    );
    println!(
        "| Status queries/s ({TASKS} tasks, {} s) | {:.0} | >= 300: {} |",
        opts.seconds,
        statuses.per_second,
        target(statuses.per_second >= 300.0)
    );
    println!(
        "| Status query p50 / p99 under load | {} / {} | |",
        ms(statuses.concurrent.percentile(50.0)),
        ms(statuses.concurrent.percentile(99.0))
    );
    println!(
        "| Account prefix query p50 / max ({ACCOUNT_QUERIES}) | {} / {} | |",
        ms(accounts.latencies.percentile(50.0)),
        ms(accounts.latencies.max())
    );
    println!(
        "| Account prefix query p99 | {} | <= 10 ms: {} |",
        ms(account_p99),
        target(account_p99 <= Duration::from_millis(10))
    );
    println!(
        "| Account results per query (mean; accounts matching) | {:.1} ({:.0}) | |",
        accounts.mean_results, accounts.mean_matching
    );
    Ok(())
}

fn main() {
    let filter = std::env::var("FEDBLOG_LOG").unwrap_or_else(|_| "warn".into());
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::stderr)
        .init();
    let opts = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    if let Err(e) = runtime.block_on(run(opts)) {
        eprintln!("search benchmark failed: {e}");
        std::process::exit(1);
    }
}
