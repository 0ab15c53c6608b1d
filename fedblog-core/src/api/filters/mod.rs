//! Filters (v2): filters with their keywords and statuses. <https://docs.joinmastodon.org/methods/filters/>
pub mod add_filter_keyword;
pub mod add_filter_status;
pub mod create_filter;
pub mod delete_filter;
pub mod delete_filter_keyword;
pub mod delete_filter_status;
pub mod get_filter;
pub mod get_filter_keyword;
pub mod get_filter_status;
pub mod list_filter_keywords;
pub mod list_filter_statuses;
pub mod list_filters;
pub mod update_filter;
pub mod update_filter_keyword;

use serde::{Deserialize, Deserializer};

use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::filters::{ExpiresIn, FilterChanges, KeywordChange};

/// A list that was given (even empty), told apart from one that was not (`None`, with
/// `#[serde(default)]`).
pub(crate) fn given_list<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    de::list(d).map(Some)
}

/// `expires_in`: seconds from now; given empty (or `null`), never.
pub(crate) fn given_expiry<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ExpiresIn>, D::Error> {
    Ok(Some(match de::opt_i64(d)? {
        Some(s) => ExpiresIn::Seconds(s),
        None => ExpiresIn::Never,
    }))
}

/// One entry of `keywords_attributes[]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct KeywordParam {
    /// The keyword changed or removed (update only).
    #[serde(deserialize_with = "de::opt_string")]
    pub id: Option<String>,
    /// Its text.
    #[serde(deserialize_with = "de::opt_string")]
    pub keyword: Option<String>,
    /// Whether it matches whole words only.
    #[serde(deserialize_with = "de::opt_bool")]
    pub whole_word: Option<bool>,
    /// Remove the keyword `id`.
    #[serde(rename = "_destroy", deserialize_with = "de::bool")]
    pub destroy: bool,
}

/// The fields of a filter, as `POST` and `PUT` take them (form or JSON).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FilterFields {
    /// The title.
    pub title: Option<String>,
    /// Where it applies.
    #[serde(deserialize_with = "given_list")]
    pub context: Option<Vec<String>>,
    /// `warn`, `hide` or `blur`.
    #[serde(deserialize_with = "de::opt_string")]
    pub filter_action: Option<String>,
    /// Seconds until it expires; empty: never.
    #[serde(deserialize_with = "given_expiry")]
    pub expires_in: Option<ExpiresIn>,
    /// Keywords to add, change or remove.
    #[serde(deserialize_with = "de::list")]
    pub keywords_attributes: Vec<KeywordParam>,
}

impl FilterFields {
    /// The changes these fields ask for; a keyword id that is not an id names nothing (404).
    pub fn changes(self) -> ApiResult<FilterChanges> {
        let keywords = self
            .keywords_attributes
            .into_iter()
            .map(|k| {
                Ok(KeywordChange {
                    id: match k.id {
                        Some(id) => Some(id.parse().map_err(|_| ApiError::not_found())?),
                        None => None,
                    },
                    keyword: k.keyword,
                    whole_word: k.whole_word,
                    destroy: k.destroy,
                })
            })
            .collect::<ApiResult<Vec<_>>>()?;
        Ok(FilterChanges {
            title: self.title,
            context: self.context,
            action: self.filter_action,
            expires_in: self.expires_in,
            keywords,
        })
    }
}

/// A keyword's fields (`POST .../keywords`, `PUT /api/v2/filters/keywords/:id`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct KeywordFields {
    /// The text (required).
    #[serde(deserialize_with = "de::opt_string")]
    pub keyword: Option<String>,
    /// Whether it matches whole words only.
    #[serde(deserialize_with = "de::opt_bool")]
    pub whole_word: Option<bool>,
}
