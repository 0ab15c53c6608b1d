//! fedblog-testkit: conformance suites for the Mastodon client API.
//!
//! - [`store_suite`]: checks for any implementation of fedblog-core's store traits.
//! - [`conformance`]: HTTP checks for any Mastodon-compatible server, by URL; the
//!   `fedblog-conformance` command runs them and writes a JSON-lines report.
//! - [`client`]: the HTTP client they use, which validates every JSON response against the
//!   Mastodon OpenAPI schema ([`openapi`]).

pub mod client;
pub mod conformance;
pub mod openapi;
pub mod store_suite;
