//! `GET /actor`: the instance actor, whose key signs the fetches this server makes on nobody's
//! behalf.

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Negotiated, NoParams};
use crate::error::ApiResult;
use crate::store::INSTANCE_ACTOR;

/// The instance actor (an `Application`), always as JSON, and to anyone even under authorized
/// fetch: other servers need its key to verify the fetches it signs.
pub struct InstanceActor;

impl Endpoint for InstanceActor {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/actor";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Negotiated;

    async fn handle(app: &App, _caller: &Caller, _r: NoParams) -> ApiResult<Negotiated> {
        let key = app.federation().local_key(INSTANCE_ACTOR).await?;
        Ok(Negotiated::Activity(
            app.render_instance_actor(&key).to_string(),
        ))
    }
}
