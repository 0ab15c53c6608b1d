//! Filters (v1): each keyword of a filter seen as a filter of its own, as Mastodon 4 still serves them. <https://docs.joinmastodon.org/methods/filters/#v1>
pub mod create_filter_v1;
pub mod delete_filter_v1;
pub mod get_filter_v1;
pub mod list_filters_v1;
pub mod update_filter_v1;

use serde::Deserialize;

use crate::api::filters::{given_expiry, given_list};
use crate::params::de;
use crate::services::filters::{ExpiresIn, V1FilterChanges};

/// The fields of a v1 filter, as `POST` and `PUT` take them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct V1FilterFields {
    /// The keyword (and the filter's title).
    #[serde(deserialize_with = "de::opt_string")]
    pub phrase: Option<String>,
    /// Where it applies.
    #[serde(deserialize_with = "given_list")]
    pub context: Option<Vec<String>>,
    /// Whether matches are dropped (`hide`) rather than shown with a warning.
    #[serde(deserialize_with = "de::opt_bool")]
    pub irreversible: Option<bool>,
    /// Whether the keyword matches whole words only.
    #[serde(deserialize_with = "de::opt_bool")]
    pub whole_word: Option<bool>,
    /// Seconds until it expires; empty: never.
    #[serde(deserialize_with = "given_expiry")]
    pub expires_in: Option<ExpiresIn>,
}

impl From<V1FilterFields> for V1FilterChanges {
    fn from(f: V1FilterFields) -> Self {
        V1FilterChanges {
            phrase: f.phrase,
            context: f.context,
            irreversible: f.irreversible,
            whole_word: f.whole_word,
            expires_in: f.expires_in,
        }
    }
}
