//! A remote account's `Move`, checked here and applied by the moves area, and our accounts'
//! `Move`s rendered for delivery.

use http::StatusCode;
use serde_json::Value;

use crate::app::App;
use crate::error::{ApiError, ApiResult};
use crate::federation::paths;
use crate::federation::vocab::{self, Activity};
use crate::id::Id;
use crate::store::AccountRecord;

impl App {
    /// A remote account's `Move`: applied when its object is the signer and its target,
    /// fetched afresh, names the signer as an alias; ignored otherwise, as Mastodon does.
    pub(crate) async fn receive_move(
        &self,
        signer: &AccountRecord,
        activity: &Activity,
    ) -> ApiResult<()> {
        let (Some(origin), Some(target)) = (activity.object_id(), activity.target.clone()) else {
            return Ok(());
        };
        if signer.uri.as_deref() != Some(origin.as_str()) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "An actor may only move itself",
            ));
        }
        let federation = self.federation();
        let target = match federation.local_account_of(&target).await? {
            Some(local) => local,
            None => match federation.refresh_actor(&target).await {
                Ok(account) => account,
                Err(e) if e.status == StatusCode::NOT_FOUND => return Ok(()),
                Err(e) => return Err(e),
            },
        };
        if target.id == signer.id
            || target.is_suspended()
            || !target.also_known_as.contains(&origin)
        {
            tracing::info!(from = %origin, to = ?target.uri, "ignoring a move to an account that does not name the old one");
            return Ok(());
        }
        self.moves().apply(signer, &target).await.map(|_| ())
    }

    /// A local account's `Move` to `target`, rendered for delivery.
    pub(crate) async fn render_move(
        &self,
        account: Id,
        target: Id,
    ) -> ApiResult<Option<(Id, Value)>> {
        let (Some(a), Some(t)) = (
            self.store.account_by_id(account).await?,
            self.store.account_by_id(target).await?,
        ) else {
            return Ok(None);
        };
        let actor = self.actor_uri(&a);
        let id = paths::activity(&actor, "moves", self.ids.next());
        let object = Value::String(actor.clone());
        let mut value = vocab::activity(&id, "Move", &actor, object, &[], &[], None);
        if let Some(o) = value.as_object_mut() {
            o.insert("target".into(), self.actor_uri(&t).into());
        }
        Ok(Some((a.id, value)))
    }
}
