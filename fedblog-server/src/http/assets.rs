//! Static images every account and the instance point at until uploads exist.

use fedblog_core::render::{MISSING_AVATAR, MISSING_HEADER};
use http::Method;

use super::reply::{HttpResponse, file};

/// A 1x1 PNG in fedblog's colour.
const PIXEL_PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
    0, 0, 144, 119, 83, 222, 0, 0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 232, 233, 253, 15, 0, 3,
    193, 2, 25, 188, 44, 160, 75, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// The asset at this path, if any.
pub fn lookup(method: &Method, path: &str) -> Option<HttpResponse> {
    if method != Method::GET && method != Method::HEAD {
        return None;
    }
    match path {
        p if p == MISSING_AVATAR
            || p == MISSING_HEADER
            || p == "/thumbnail.png"
            || p == "/favicon.ico" =>
        {
            Some(file("image/png", PIXEL_PNG))
        }
        _ => None,
    }
}
