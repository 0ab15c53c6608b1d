//! Media attachments: upload, read, describe and delete one's own uploads. <https://docs.joinmastodon.org/methods/media/>
pub mod create_media;
pub mod create_media_v1;
pub mod delete_media;
pub mod get_media;
pub mod update_media;

use serde::Deserialize;

use crate::params::de;
use crate::services::media::MediaChanges;

/// The text fields of an upload or update (`file` and `thumbnail` come as uploaded files).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MediaFields {
    /// Alternative text.
    #[serde(deserialize_with = "de::opt_string")]
    pub description: Option<String>,
    /// Focal point `"x,y"`.
    #[serde(deserialize_with = "de::opt_string")]
    pub focus: Option<String>,
}

impl MediaFields {
    /// The changes these fields and the caller's `thumbnail` upload ask for.
    pub fn changes(self, caller: &crate::app::Caller) -> MediaChanges {
        MediaChanges {
            description: self.description,
            focus: self.focus,
            thumbnail: caller.upload("thumbnail").cloned(),
        }
    }
}
