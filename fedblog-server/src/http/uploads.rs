//! Serves stored files (avatars, headers) at `/system/<key>` from the app's file store, with the
//! content type of the key's extension and long-lived caching.

use fedblog_core::App;
use fedblog_core::api::error_reply;
use fedblog_core::error::ApiError;
use fedblog_core::files::{PUBLIC_PATH_PREFIX, content_type_of, valid_key};
use http::Method;

use super::reply::{HttpResponse, stored_file, to_http};

/// The answer for a path under `/system/`, or `None` for any other path or method.
pub async fn lookup(app: &App, method: &Method, path: &str) -> Option<HttpResponse> {
    if method != Method::GET && method != Method::HEAD {
        return None;
    }
    let key = path.strip_prefix(PUBLIC_PATH_PREFIX)?;
    let not_found = || to_http(error_reply(ApiError::not_found()));
    let Some(content_type) = content_type_of(key).filter(|_| valid_key(key)) else {
        return Some(not_found());
    };
    Some(match app.files.get(key).await {
        Ok(Some(bytes)) => stored_file(content_type, bytes),
        Ok(None) => not_found(),
        Err(e) => {
            tracing::error!(%key, error = %e, "cannot read a stored file");
            to_http(error_reply(ApiError::unavailable()))
        }
    })
}
