//! fedblog-core: the semantics of the Mastodon client API, independent of any web framework or database.
//!
//! Start at [`App`]: it authenticates a request, checks scopes and runs the endpoint declared in
//! [`api`], whose handlers call the services in [`services`]; those apply the rules and talk to a
//! [`store::Store`]. [`render`] is the only place where store records become API [`entities`].

pub mod api;
pub mod app;
pub mod blocking;
pub mod config;
pub mod content;
pub mod endpoint;
pub mod entities;
pub mod error;
pub mod events;
pub mod federation;
pub mod files;
pub mod id;
pub mod loaded;
pub mod mail;
pub mod media;
pub mod pagination;
pub mod params;
pub mod permissions;
pub mod push;
pub mod quote_presenting;
pub mod rate_limit;
pub mod render;
pub mod scope;
pub mod search_query;
pub mod services;
pub mod store;
pub mod streaming;
pub mod translation;

#[cfg(test)]
mod test_support;

pub use app::{App, Caller, RequestInfo};
pub use config::InstanceConfig;
pub use error::{ApiError, ApiResult, StoreError, StoreResult};
pub use id::{Id, IdGenerator};
pub use store::Store;
pub use store::memory::MemoryStore;
