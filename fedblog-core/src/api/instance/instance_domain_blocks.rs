//! `GET /api/v1/instance/domain_blocks`: The domains this server limits or suspends. <https://docs.joinmastodon.org/methods/instance/#domain_blocks>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::DomainBlock;
use crate::error::ApiResult;

/// The server-wide blocks of silenced and suspended domains, as the `show_domain_blocks`
/// setting allows (`all`, or `users`: signed-in callers; 404 otherwise), with their public
/// comments as `show_domain_blocks_rationale` allows. <https://docs.joinmastodon.org/methods/instance/#domain_blocks>
pub struct InstanceDomainBlocks;

impl Endpoint for InstanceDomainBlocks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/domain_blocks";
    const AUTH: Auth = Auth::Optional("");
    type Request = NoParams;
    type Response = Json<Vec<DomainBlock>>;

    async fn handle(app: &App, caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let list = app
            .instance()
            .public_domain_blocks(caller.account.is_some())
            .await?;
        Ok(Json(app.render_public_domain_blocks(&list)))
    }
}
