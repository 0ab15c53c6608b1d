//! fedblog-testkit: conformance suites for the Mastodon client API.
//!
//! - [`store_suite`]: checks for any implementation of fedblog-core's store traits.
//! - [`conformance`]: HTTP checks for any Mastodon-compatible server, by URL; the
//!   `fedblog-conformance` command runs them and writes a JSON-lines report.
//! - [`client`]: the HTTP client they use, which validates every JSON response against the
//!   Mastodon OpenAPI schema ([`openapi`]), and [`recorder`], which keeps what a conformance run
//!   saw (each check's requests, each endpoint's schema verdicts).
//! - [`peer`]: a remote ActivityPub server played on a loopback port, which the `federation`
//!   checks hold a server to.
//!
//! # Your store, in five minutes
//!
//! Add `fedblog-testkit` as a dev-dependency, and in a test file of its own:
//!
//! ```
//! fedblog_testkit::store_suite!(|| async {
//!     // A fresh, empty store of yours for every check.
//!     std::sync::Arc::new(fedblog_core::MemoryStore::new()) as std::sync::Arc<dyn fedblog_core::Store>
//! });
//! # fn main() {}
//! ```
//!
//! `cargo test` then runs one test per check, named `area::check`, each failing with the
//! contract its store broke. A store that goes without a behaviour the traits make optional
//! names it: `store_suite!(factory, lacks = [PreciseHasRelations])` (see
//! [`store_suite::Capability`]). The `custom_store` example of the repository (`examples/`)
//! is a store with a backend of its own that passes the suite. See [`mod@store_suite`] for what
//! the checks assume.
//!
//! # Your server, in five minutes
//!
//! Start your server, then:
//!
//! ```text
//! cargo run -p fedblog-testkit --bin fedblog-conformance -- --base-url http://127.0.0.1:3000 \
//!     --account-factory 'your-admin-tool create-user {username} && your-admin-tool token {username}' \
//!     --admin-token "$ADMIN_TOKEN" --report baseline.jsonl
//! ```
//!
//! The account factory is any shell command that creates a confirmed account named
//! `{username}` and prints a bearer token (scopes `read write follow push`) on its last line;
//! without it the checks that need fresh accounts end *not run*, with that reason, as do the
//! checks needing `--admin-token`. The run prints a pass/fail/not-run table per area and writes
//! a JSON-lines report (`id`, `outcome`, `detail`, and for a failure the request that showed it,
//! as a `curl` command); `--markdown summary.md` groups the failures by cause. A step that only
//! prepares a check ends it *not run* (`set-up failed: ...`) rather than failing it, answers are
//! judged against the schema once per endpoint in the `schema` area, and `--lacks push,streaming`
//! declares optional features the server does not offer. Commit the report as your baseline and run
//! with `--expect baseline.jsonl` from then on: the command exits non-zero only when a check
//! that passed no longer does. [`conformance::seed::RULES`] maps each rule of the service
//! specification to its checks.
//!
//! In-process (no network), build a [`conformance::Cx`] over a [`client::Client`] and call
//! [`conformance::run`], as the reference server's `tests/conformance.rs` does, comparing with
//! a [`conformance::Baseline`].

pub mod client;
pub mod conformance;
pub mod openapi;
pub mod peer;
pub mod recorder;
pub mod store_suite;
