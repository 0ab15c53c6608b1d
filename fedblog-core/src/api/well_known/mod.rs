//! Discovery by other servers under `/.well-known/`: WebFinger and host-meta.
//! <https://docs.joinmastodon.org/spec/webfinger/>
pub mod change_password;
pub mod host_meta;
pub mod host_meta_json;
pub mod webfinger;
