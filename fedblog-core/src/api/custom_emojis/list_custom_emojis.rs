//! `GET /api/v1/custom_emojis`: This server's enabled custom emojis, by shortcode, to anyone. <https://docs.joinmastodon.org/methods/custom_emojis/>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::CustomEmoji;
use crate::error::ApiResult;
use crate::render::render_custom_emoji;

/// This server's enabled custom emojis, by shortcode, to anyone (no token read); disabled ones
/// are left out. <https://docs.joinmastodon.org/methods/custom_emojis/>
pub struct ListCustomEmojis;

impl Endpoint for ListCustomEmojis {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/custom_emojis";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<Vec<CustomEmoji>>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let emojis = app.custom_emojis().enabled_local().await?;
        Ok(Json(emojis.iter().map(render_custom_emoji).collect()))
    }
}
