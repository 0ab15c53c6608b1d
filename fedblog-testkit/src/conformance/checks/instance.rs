//! Instance information: v1, v2, peers, activity, NodeInfo.

use fedblog_core::api::instance::{
    instance_activity::InstanceActivity, instance_peers::InstancePeers, instance_v1::InstanceV1,
    instance_v2::InstanceV2, nodeinfo::Nodeinfo, nodeinfo_discovery::NodeinfoDiscovery,
};

use crate::check;
use crate::conformance::{Check, CheckResult, Cx, path};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "instance/v2/version",
            "GET /api/v2/instance answers with a 3-part version and api_versions.mastodon",
            v2_version
        ),
        check!(
            "instance/v1/shape",
            "GET /api/v1/instance answers with the V1 instance entity",
            v1_shape
        ),
        check!(
            "instance/peers/strings",
            "GET /api/v1/instance/peers is a list of domain strings",
            peers
        ),
        check!(
            "instance/activity/numbers-as-strings",
            "GET /api/v1/instance/activity gives weeks whose numbers are strings",
            activity
        ),
        check!(
            "instance/nodeinfo/discovery",
            "/.well-known/nodeinfo links to a NodeInfo 2.0 document that names the software",
            nodeinfo
        ),
    ]
}

async fn v2_version(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    let v = r.json()?;
    let version = v["version"].as_str().unwrap_or_default();
    let first = version.split(' ').next().unwrap_or_default();
    ensure!(
        first.split('.').count() == 3 && first.split('.').all(|p| p.parse::<u32>().is_ok()),
        "version {version:?} does not start with a 3-part number"
    );
    ensure!(
        v["api_versions"]["mastodon"].is_i64(),
        "api_versions.mastodon missing: {}",
        v["api_versions"]
    );
    Ok(())
}

async fn v1_shape(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstanceV1>(&[]), None).await?;
    r.expect(200)?;
    ensure!(r.json()?["uri"].is_string(), "uri missing");
    Ok(())
}

async fn peers(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstancePeers>(&[]), None).await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v.as_array()
            .is_some_and(|a| a.iter().all(|x| x.is_string())),
        "peers is not a list of strings: {v}"
    );
    Ok(())
}

async fn activity(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstanceActivity>(&[]), None).await?;
    r.expect(200)?;
    let weeks = r.json()?.as_array().cloned().unwrap_or_default();
    ensure!(!weeks.is_empty(), "no weeks");
    for w in &weeks {
        for k in ["week", "statuses", "logins", "registrations"] {
            ensure!(
                w[k].as_str().is_some_and(|s| s.parse::<u64>().is_ok()),
                "{k} is not a number in a string: {w}"
            );
        }
    }
    Ok(())
}

async fn nodeinfo(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<NodeinfoDiscovery>(&[]), None).await?;
    r.expect(200)?;
    let href = r.json()?["links"][0]["href"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    ensure!(
        href.ends_with(&path::<Nodeinfo>(&[])),
        "no link to the NodeInfo 2.0 document: {href}"
    );
    let doc = cx.client.get(&href, None).await?;
    doc.expect(200)?;
    let v = doc.json()?;
    ensure!(
        v["version"] == "2.0" && v["software"]["name"].is_string(),
        "not a NodeInfo 2.0 document: {v}"
    );
    ensure!(
        v["usage"]["users"]["total"].is_i64(),
        "usage.users.total missing: {v}"
    );
    Ok(())
}
