//! `GET /api/v1/instance/extended_description`: The about page's text, as HTML. <https://docs.joinmastodon.org/methods/instance/#extended_description>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::ExtendedDescription;
use crate::error::ApiResult;
use crate::services::instance::PolicyText;

/// The about page's text, as HTML (empty until the administrator sets one). <https://docs.joinmastodon.org/methods/instance/#extended_description>
pub struct GetExtendedDescription;

impl Endpoint for GetExtendedDescription {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/extended_description";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<ExtendedDescription>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let text = app.instance().text(PolicyText::ExtendedDescription).await?;
        Ok(Json(app.render_extended_description(&text)))
    }
}
