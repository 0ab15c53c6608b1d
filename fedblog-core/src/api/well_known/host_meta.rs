//! `GET /.well-known/host-meta`: where WebFinger is, in XML (XRD).
//! <https://www.rfc-editor.org/rfc/rfc6415>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, NoParams, Typed};
use crate::error::ApiResult;
use crate::render::webfinger::XRD;

/// The XRD naming the WebFinger template.
pub struct HostMeta;

impl Endpoint for HostMeta {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/.well-known/host-meta";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Typed;

    async fn handle(app: &App, _caller: &Caller, _r: NoParams) -> ApiResult<Typed> {
        Ok(Typed(XRD, app.render_host_meta_xml()))
    }
}
