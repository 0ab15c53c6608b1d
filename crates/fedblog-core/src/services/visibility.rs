//! Who may see what: the one place that decides whether a viewer may read a status or an account.

use crate::app::App;
use crate::error::ApiResult;
use crate::id::Id;
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

    /// The same rule as [`App::can_see`], for reading many of `author`'s statuses at once (blocks
    /// are the caller's to check): the visibilities `viewer` may read, and the account whose
    /// mentions make any other status readable. The author reads everything; a follower public,
    /// unlisted and private; anyone else public and unlisted; a signed-in viewer also every
    /// status that mentions it.
    pub async fn readable_visibilities(
        &self,
        viewer: Option<&AccountRecord>,
        author: &AccountRecord,
    ) -> ApiResult<(Vec<Visibility>, Option<Id>)> {
        use Visibility::*;
        Ok(match viewer {
            Some(v) if v.id == author.id => (vec![Public, Unlisted, Private, Direct], None),
            Some(v) if self.store.follows(v.id, author.id).await? => {
                (vec![Public, Unlisted, Private], Some(v.id))
            }
            Some(v) => (vec![Public, Unlisted], Some(v.id)),
            None => (vec![Public, Unlisted], None),
        })
    }
}
