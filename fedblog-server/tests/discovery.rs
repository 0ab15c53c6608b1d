//! Discovery by other servers through real HTTP: WebFinger (acct: and URL resources, its media
//! type, CORS, errors), host-meta in XML and JSON, and NodeInfo 2.0 and 2.1 with the figures.

mod common;

use fedblog_core::api::Endpoint;
use fedblog_core::api::instance::{
    nodeinfo::Nodeinfo, nodeinfo_21::Nodeinfo21, nodeinfo_discovery::NodeinfoDiscovery,
};
use fedblog_core::api::well_known::{
    host_meta::HostMeta, host_meta_json::HostMetaJson, webfinger::GetWebfinger,
};
use serde_json::Value;

use common::TestServer;

async fn get(base: &str, path: &str) -> (u16, String, String, Option<String>) {
    let r = reqwest::get(format!("{base}{path}"))
        .await
        .expect("request");
    let status = r.status().as_u16();
    let header = |name: &str| {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let content_type = header("content-type").unwrap_or_default();
    let cors = header("access-control-allow-origin");
    (status, content_type, r.text().await.unwrap(), cors)
}

#[tokio::test]
async fn webfinger_and_host_meta_find_local_accounts() {
    let server = TestServer::start().await;
    let base = server.running.base_url();
    let domain = server.running.addr.to_string();
    server.user("alice").await;

    for resource in [
        format!("acct:alice@{domain}"),
        format!("{base}/@alice"),
        format!("{base}/users/alice"),
    ] {
        let query = fedblog_testkit::client::query(&[("resource", &resource)]);
        let (status, content_type, body, cors) =
            get(&base, &format!("{}?{query}", GetWebfinger::PATH)).await;
        assert_eq!(status, 200, "{resource}: {body}");
        assert!(
            content_type.starts_with("application/jrd+json"),
            "{content_type}"
        );
        assert_eq!(
            cors.as_deref(),
            Some("*"),
            "other sites' scripts may read it"
        );
        let jrd: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(jrd["subject"], format!("acct:alice@{domain}"));
        let links = jrd["links"].as_array().unwrap();
        let self_link = links
            .iter()
            .find(|l| l["rel"] == "self")
            .expect("a self link");
        assert_eq!(self_link["type"], "application/activity+json");
        assert_eq!(self_link["href"], format!("{base}/users/alice"));
        assert!(
            links
                .iter()
                .any(|l| l["rel"] == "http://webfinger.net/rel/profile-page"
                    && l["href"] == format!("{base}/@alice"))
        );
    }
    for (query, status) in [
        (String::new(), 400),
        (format!("resource=acct:nobody@{domain}"), 404),
        ("resource=acct:alice@elsewhere.test".to_string(), 404),
    ] {
        let (got, content_type, body, _) =
            get(&base, &format!("{}?{query}", GetWebfinger::PATH)).await;
        assert_eq!(got, status, "{query}: {body}");
        assert!(content_type.starts_with("application/json"));
        assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    }

    let (status, content_type, xml, _) = get(&base, HostMeta::PATH).await;
    assert_eq!(status, 200);
    assert!(
        content_type.starts_with("application/xrd+xml"),
        "{content_type}"
    );
    let template = format!("{base}/.well-known/webfinger?resource={{uri}}");
    assert!(
        xml.contains(&format!("<Link rel=\"lrdd\" template=\"{template}\"/>")),
        "{xml}"
    );
    let (status, _, json, _) = get(&base, HostMetaJson::PATH).await;
    assert_eq!(status, 200);
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["links"][0]["template"], template);
    server.stop().await;
}

#[tokio::test]
async fn nodeinfo_2_0_and_2_1_report_the_usage() {
    let server = TestServer::start().await;
    let base = server.running.base_url();
    let (_, token) = server.user("alice").await;
    server.user("bob").await;
    server
        .client
        .post(
            fedblog_core::api::statuses::create_status::CreateStatus::PATH,
            Some(&token),
            fedblog_testkit::client::form(&[("status", "counted")]),
        )
        .await
        .unwrap()
        .expect(200)
        .unwrap();

    let (_, _, links, _) = get(&base, NodeinfoDiscovery::PATH).await;
    let links: Value = serde_json::from_str(&links).unwrap();
    let hrefs: Vec<&str> = links["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["href"].as_str().unwrap())
        .collect();
    assert_eq!(
        hrefs,
        vec![
            format!("{base}{}", Nodeinfo::PATH),
            format!("{base}{}", Nodeinfo21::PATH)
        ]
    );
    for (path, version) in [(Nodeinfo::PATH, "2.0"), (Nodeinfo21::PATH, "2.1")] {
        let (status, _, body, _) = get(&base, path).await;
        assert_eq!(status, 200);
        let doc: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(doc["version"], version);
        assert_eq!(doc["usage"]["users"]["total"], 2);
        assert_eq!(doc["usage"]["localPosts"], 1);
        assert_eq!(doc["software"]["name"], "fedblog");
        assert_eq!(
            doc["software"]["repository"].is_string(),
            version == "2.1",
            "2.1 names the repository"
        );
    }
    server.stop().await;
}
