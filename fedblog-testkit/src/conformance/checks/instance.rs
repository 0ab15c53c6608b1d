//! Instance information: v1, v2, peers, activity, NodeInfo, and the instance's policy: rules,
//! extended description, privacy policy, terms of service, public domain blocks, languages.

use fedblog_core::api::instance::{
    extended_description::GetExtendedDescription, instance_activity::InstanceActivity,
    instance_domain_blocks::InstanceDomainBlocks, instance_languages::InstanceLanguages,
    instance_peers::InstancePeers, instance_rules::InstanceRules, instance_v1::InstanceV1,
    instance_v2::InstanceV2, nodeinfo::Nodeinfo, nodeinfo_discovery::NodeinfoDiscovery,
    privacy_policy::GetPrivacyPolicy, terms_of_service::GetTermsOfService,
    terms_of_service_on::GetTermsOfServiceOn,
};
use serde_json::Value;

use crate::check;
use crate::conformance::{Check, CheckResult, Cx, expect_error, path};
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
        check!(
            "instance/rules/shape",
            "GET /api/v1/instance/rules is a list of rules, each with a string id, text and hint",
            rules
        ),
        check!(
            "instance/extended-description/shape",
            "GET /api/v1/instance/extended_description answers an ExtendedDescription: updated_at a datetime, content HTML",
            extended_description
        ),
        check!(
            "instance/privacy-policy/shape",
            "GET /api/v1/instance/privacy_policy answers a PrivacyPolicy: updated_at a datetime, content HTML, not empty (a server ships a default policy)",
            privacy_policy
        ),
        check!(
            "instance/terms-of-service/shape",
            "GET /api/v1/instance/terms_of_service answers the TermsOfService in force (and /terms_of_service/:date the same version) or 404 with an error body when none is published; a date with no version is a 404",
            terms_of_service
        ),
        check!(
            "instance/domain-blocks/list-or-404",
            "GET /api/v1/instance/domain_blocks answers a list of DomainBlock (domain, SHA-256 hex digest, severity) or, when the server does not show it, a 404",
            domain_blocks
        ),
        check!(
            "instance/languages/list",
            "GET /api/v1/instance/languages is a list of {code, name} that includes English (en)",
            languages
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

async fn rules(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstanceRules>(&[]), None).await?;
    r.expect(200)?;
    let v = r.json()?;
    let list = v.as_array().ok_or_else(|| format!("not a list: {v}"))?;
    for rule in list {
        for k in ["id", "text", "hint"] {
            ensure!(rule[k].is_string(), "{k} is not a string: {rule}");
        }
    }
    Ok(())
}

/// Whether `v` is an RFC 3339 datetime.
fn is_datetime(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| chrono::DateTime::parse_from_rfc3339(s).is_ok())
}

/// Whether `v` is a `YYYY-MM-DD` date.
fn is_date(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok())
}

/// The `{updated_at, content}` of a policy text.
async fn policy_text(cx: &Cx, at: &str) -> Result<String, crate::conformance::Failure> {
    let r = cx.client.get(at, None).await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        is_datetime(&v["updated_at"]),
        "updated_at is not a datetime: {v}"
    );
    let content = v["content"]
        .as_str()
        .ok_or_else(|| format!("content is not a string: {v}"))?;
    Ok(content.to_string())
}

async fn extended_description(cx: &Cx) -> CheckResult {
    policy_text(cx, &path::<GetExtendedDescription>(&[])).await?;
    Ok(())
}

async fn privacy_policy(cx: &Cx) -> CheckResult {
    let content = policy_text(cx, &path::<GetPrivacyPolicy>(&[])).await?;
    ensure!(!content.trim().is_empty(), "the privacy policy is empty");
    Ok(())
}

async fn terms_of_service(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<GetTermsOfService>(&[]), None).await?;
    // A date no version can have: a 404 whether or not terms are published.
    let none = cx
        .client
        .get(
            &path::<GetTermsOfServiceOn>(&[("date", "1901-01-01")]),
            None,
        )
        .await?;
    expect_error(&none, 404, "terms of service of a date with no version")?;
    if r.status == 404 {
        return expect_error(&r, 404, "no terms of service published");
    }
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        is_date(&v["effective_date"]),
        "effective_date is not a date: {v}"
    );
    ensure!(
        v["effective"].is_boolean(),
        "effective is not a boolean: {v}"
    );
    ensure!(v["content"].is_string(), "content is not a string: {v}");
    ensure!(
        v["succeeded_by"].is_null() || is_date(&v["succeeded_by"]),
        "succeeded_by is neither null nor a date: {v}"
    );
    let date = v["effective_date"].as_str().unwrap_or_default();
    let same = cx
        .client
        .get(&path::<GetTermsOfServiceOn>(&[("date", date)]), None)
        .await?;
    same.expect(200)?;
    ensure!(
        same.json()? == v,
        "/terms_of_service/{date} is not the version in force: {}",
        same.text
    );
    Ok(())
}

async fn domain_blocks(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(&path::<InstanceDomainBlocks>(&[]), None)
        .await?;
    if r.status == 404 {
        return Ok(());
    }
    r.expect(200)?;
    let v = r.json()?;
    let list = v.as_array().ok_or_else(|| format!("not a list: {v}"))?;
    for block in list {
        ensure!(
            block["domain"].is_string(),
            "domain is not a string: {block}"
        );
        ensure!(
            block["digest"]
                .as_str()
                .is_some_and(|d| d.len() == 64 && d.chars().all(|c| c.is_ascii_hexdigit())),
            "digest is not a SHA-256 in hex: {block}"
        );
        ensure!(
            ["silence", "suspend", "noop"]
                .contains(&block["severity"].as_str().unwrap_or_default()),
            "severity is not silence, suspend or noop: {block}"
        );
        ensure!(
            block["comment"].is_null() || block["comment"].is_string(),
            "comment is neither null nor a string: {block}"
        );
    }
    Ok(())
}

async fn languages(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstanceLanguages>(&[]), None).await?;
    r.expect(200)?;
    let v = r.json()?;
    let list = v.as_array().ok_or_else(|| format!("not a list: {v}"))?;
    for l in list {
        ensure!(
            l["code"].is_string() && l["name"].is_string(),
            "not a {{code, name}}: {l}"
        );
    }
    ensure!(
        list.iter().any(|l| l["code"] == "en"),
        "English (en) is not listed"
    );
    Ok(())
}
