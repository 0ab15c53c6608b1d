//! Lists. <https://docs.joinmastodon.org/methods/lists/>
pub mod add_list_accounts;
pub mod create_list;
pub mod delete_list;
pub mod get_list;
pub mod list_accounts;
pub mod list_lists;
pub mod remove_list_accounts;
pub mod update_list;

use serde::Deserialize;

use crate::error::ApiResult;
use crate::id::Id;
use crate::params::de;
use crate::services::lists::ListChanges;

/// The fields of a list, as `POST` and `PUT` take them (form or JSON).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListFields {
    /// The title (given blank, a 422).
    pub title: Option<String>,
    /// `followed`, `list` or `none`.
    #[serde(deserialize_with = "de::opt_string")]
    pub replies_policy: Option<String>,
    /// Whether the members' posts stay out of the home timeline.
    #[serde(deserialize_with = "de::opt_bool")]
    pub exclusive: Option<bool>,
}

impl From<ListFields> for ListChanges {
    fn from(f: ListFields) -> Self {
        ListChanges {
            title: f.title,
            replies_policy: f.replies_policy,
            exclusive: f.exclusive,
        }
    }
}

/// The `account_ids[]` of a member change: ids that are no ids name no account (a 404 when
/// adding, ignored when removing).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AccountIds {
    /// The accounts.
    #[serde(deserialize_with = "de::list")]
    pub account_ids: Vec<String>,
}

impl AccountIds {
    /// The ids that parse; `None` if one does not.
    fn parsed(&self) -> Option<Vec<Id>> {
        self.account_ids.iter().map(|s| s.parse().ok()).collect()
    }

    /// The ids, a 404 if one is not an id.
    pub fn all(&self) -> ApiResult<Vec<Id>> {
        self.parsed().ok_or_else(crate::error::ApiError::not_found)
    }

    /// The ids that are ids.
    pub fn valid(&self) -> Vec<Id> {
        self.account_ids
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect()
    }
}
