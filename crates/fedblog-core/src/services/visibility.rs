//! Who may see what: the one place that decides whether a viewer may read a status or an account.

use crate::app::App;
use crate::error::ApiResult;
use crate::store::{AccountRecord, StatusRecord, Visibility};

impl App {
    /// Whether `viewer` (None = anonymous) may see `status` by `author`.
    ///
    /// Public and unlisted: everyone. Private: the author, followers and mentioned accounts.
    /// Direct: the author and mentioned accounts. Nothing by a suspended author, nor by an author
    /// who blocks the viewer.
    pub async fn can_see(
        &self,
        viewer: Option<&AccountRecord>,
        status: &StatusRecord,
        author: &AccountRecord,
    ) -> ApiResult<bool> {
        if author.is_suspended() {
            return Ok(false);
        }
        let viewer_id = viewer.map(|v| v.id);
        if viewer_id == Some(status.account_id) {
            return Ok(true);
        }
        if let Some(v) = viewer_id
            && self.store.blocks(status.account_id, v).await?
        {
            return Ok(false);
        }
        Ok(match status.visibility {
            Visibility::Public | Visibility::Unlisted => true,
            Visibility::Direct => viewer_id.is_some_and(|v| status.mentions.contains(&v)),
            Visibility::Private => match viewer_id {
                None => false,
                Some(v) => {
                    status.mentions.contains(&v) || self.store.follows(v, status.account_id).await?
                }
            },
        })
    }
}
