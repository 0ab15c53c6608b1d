//! Notification policies and the requests of the notifications they filter (Mastodon 4.3+). <https://docs.joinmastodon.org/methods/notifications/#get-policy>
pub mod accept_notification_request;
pub mod accept_notification_requests;
pub mod dismiss_notification_request;
pub mod dismiss_notification_requests;
pub mod get_notification_policy;
pub mod get_notification_request;
pub mod list_notification_requests;
pub mod notification_requests_merged;
pub mod update_notification_policy;

use serde::Deserialize;

use crate::error::ApiResult;
use crate::id::Id;
use crate::params::de;

/// The request a route names (path).
#[derive(Debug, Deserialize)]
pub struct RequestId {
    /// Request id (path).
    pub id: String,
}

/// The `id[]` of a bulk accept or dismiss.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RequestIds {
    /// The requests (ids that are no ids name none, and are skipped).
    #[serde(deserialize_with = "de::list")]
    pub id: Vec<String>,
}

impl RequestIds {
    /// The ids that parse.
    pub fn ids(&self) -> ApiResult<Vec<Id>> {
        Ok(self.id.iter().filter_map(|s| s.parse().ok()).collect())
    }
}
