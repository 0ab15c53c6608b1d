//! Following an account by its address rather than its id.
pub mod follow_by_uri;
