//! Error answers: JSON bodies, unknown routes, removed endpoints.

use fedblog_core::api::instance::instance_v2::InstanceV2;
use fedblog_core::api::{Endpoint, REMOVED_ENDPOINTS, fill_path};

use crate::check;
use crate::conformance::{Check, CheckResult, Cx};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "errors/unknown-route/json-404",
            "an unknown API path is a 404 with a JSON {\"error\"} body",
            unknown_route
        ),
        check!(
            "errors/removed-endpoints/not-available",
            "removed endpoints (v1 search, card, direct timeline, mutes details) are not available",
            removed
        ),
    ]
}

async fn unknown_route(cx: &Cx) -> CheckResult {
    // Below a real prefix, so that only the last segment is unknown.
    let path = format!("{}/{}", InstanceV2::PATH, cx.unique("no_such_route"));
    let r = cx.client.get(&path, None).await?;
    r.expect(404)?;
    ensure!(
        r.error_text().is_some(),
        "404 body is not {{\"error\": ...}}: {}",
        r.text
    );
    Ok(())
}

async fn removed(cx: &Cx) -> CheckResult {
    for (method, p) in REMOVED_ENDPOINTS {
        let r = cx
            .send(
                method,
                &fill_path(p, &[("id", "1")]),
                None,
                crate::client::Body::None,
            )
            .await?;
        ensure!(
            r.status == 404 || r.status == 410,
            "{method} {p} answered {} (expected 404)",
            r.status
        );
    }
    Ok(())
}
