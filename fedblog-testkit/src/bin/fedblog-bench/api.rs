//! The Mastodon API as the benchmark calls it: the paths (taken from fedblog-core's endpoint
//! declarations, which follow Mastodon's), the HTTP client settings, and the few calls set-up and
//! checks make. Nothing here is fedblog-specific.

use std::sync::Arc;
use std::time::Duration;

use fedblog_core::api::accounts::follow_account::FollowAccount;
use fedblog_core::api::accounts::verify_credentials::VerifyCredentials;
use fedblog_core::api::instance::instance_v1::InstanceV1;
use fedblog_core::api::statuses::create_status::CreateStatus;
use fedblog_core::api::statuses::get_status::GetStatus;
use fedblog_core::api::timelines::home_timeline::HomeTimeline;
use fedblog_core::api::timelines::public_timeline::PublicTimeline;
use fedblog_core::api::{Endpoint, fill_path};
use serde_json::Value;

/// Longest wait for one answer (a post fanned out to many followers may take a while).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);

/// `GET /api/v1/timelines/home?limit=N`.
pub fn home_path(limit: usize) -> String {
    format!("{}?limit={limit}", HomeTimeline::PATH)
}

/// `GET /api/v1/timelines/public?local=true&limit=40`.
pub fn public_local_path() -> String {
    format!("{}?local=true&limit=40", PublicTimeline::PATH)
}

/// `GET /api/v1/statuses/:id`.
pub fn status_path(id: &str) -> String {
    fill_path(GetStatus::PATH, &[("id", id)])
}

/// `GET /api/v1/accounts/verify_credentials`.
pub fn verify_credentials_path() -> String {
    VerifyCredentials::PATH.to_string()
}

/// `GET /api/v1/instance`.
pub fn instance_path() -> String {
    InstanceV1::PATH.to_string()
}

/// An HTTP client keeping at most `max_idle` idle connections to the server, without proxies
/// (the benchmark measures the server, not a proxy) and with Nagle's algorithm off.
pub fn client(max_idle: usize) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .pool_max_idle_per_host(max_idle)
        .tcp_nodelay(true)
        .no_proxy()
        .timeout(REQUEST_TIMEOUT)
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))
}

/// The body of a status the benchmark posts.
pub fn status_form(text: &str) -> [(&'static str, &str); 2] {
    [("status", text), ("visibility", "public")]
}

/// At most 200 characters of an answer, for error messages.
pub fn excerpt(text: &str) -> String {
    let mut s: String = text.chars().take(200).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s
}

/// Whether a list of statuses (a timeline page) holds a status whose content contains `marker`.
pub fn has_status_with(statuses: &Value, marker: &str) -> bool {
    statuses.as_array().is_some_and(|list| {
        list.iter().any(|s| {
            s.get("content")
                .and_then(Value::as_str)
                .is_some_and(|c| c.contains(marker))
        })
    })
}

/// A server and a pooled client for set-up and checks (the measurements make their own clients).
#[derive(Clone)]
pub struct Api {
    client: reqwest::Client,
    base: Arc<str>,
}

impl Api {
    /// A client for the server at `base_url` keeping up to `connections` connections.
    pub fn new(base_url: &str, connections: usize) -> Result<Api, String> {
        Ok(Api {
            client: client(connections)?,
            base: normalise_base(base_url)?.into(),
        })
    }

    /// The base URL without a trailing slash.
    pub fn base(&self) -> &str {
        &self.base
    }

    async fn call(&self, req: reqwest::RequestBuilder, what: &str) -> Result<Value, String> {
        let resp = req
            .send()
            .await
            .map_err(|e| format!("{what}: no answer: {e}"))?;
        let status = resp.status();
        let text = resp
            .text()
            .await
            .map_err(|e| format!("{what}: the answer broke off: {e}"))?;
        if !status.is_success() {
            return Err(format!("{what}: {status}: {}", excerpt(&text)));
        }
        serde_json::from_str(&text)
            .map_err(|e| format!("{what}: the answer is not JSON ({e}): {}", excerpt(&text)))
    }

    /// `GET path` with a token; the JSON answer of a 2xx, else an error.
    pub async fn get(&self, path: &str, token: &str) -> Result<Value, String> {
        let req = self
            .client
            .get(format!("{}{path}", self.base))
            .bearer_auth(token);
        self.call(req, &format!("GET {path}")).await
    }

    /// The id of a token's account (`verify_credentials`).
    pub async fn account_id(&self, token: &str) -> Result<String, String> {
        let me = self.get(&verify_credentials_path(), token).await?;
        me.get("id")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| "verify_credentials answered without an id".to_string())
    }

    /// Follows account `id`; an error unless the answer says the follow is in place (a locked
    /// account would leave it requested).
    pub async fn follow(&self, token: &str, id: &str) -> Result<(), String> {
        let path = fill_path(FollowAccount::PATH, &[("id", id)]);
        let req = self
            .client
            .post(format!("{}{path}", self.base))
            .bearer_auth(token);
        let rel = self.call(req, &format!("POST {path}")).await?;
        if rel.get("following").and_then(Value::as_bool) == Some(true) {
            Ok(())
        } else {
            Err(format!(
                "following {id} did not take effect (a locked account?): {}",
                excerpt(&rel.to_string())
            ))
        }
    }

    /// Posts a public status; its id.
    pub async fn post_status(&self, token: &str, text: &str) -> Result<String, String> {
        let req = self
            .client
            .post(format!("{}{}", self.base, CreateStatus::PATH))
            .bearer_auth(token)
            .form(&status_form(text));
        let status = self
            .call(req, &format!("POST {}", CreateStatus::PATH))
            .await?;
        status
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| "posting answered without a status id".to_string())
    }
}

/// `http://host:port` from what the user gave: an http(s) URL, without a trailing slash.
pub fn normalise_base(base_url: &str) -> Result<String, String> {
    let base = base_url.trim().trim_end_matches('/');
    if !(base.starts_with("http://") || base.starts_with("https://")) {
        return Err(format!(
            "the base URL must start with http:// or https://, not {base_url:?}"
        ));
    }
    Ok(base.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_are_mastodon_paths() {
        assert_eq!(home_path(40), format!("{}?limit=40", HomeTimeline::PATH));
        assert!(status_path("123").ends_with("/statuses/123"));
        assert!(public_local_path().ends_with("/timelines/public?local=true&limit=40"));
    }

    #[test]
    fn base_url_is_checked_and_trimmed() {
        assert_eq!(
            normalise_base("http://127.0.0.1:3000/").unwrap(),
            "http://127.0.0.1:3000"
        );
        assert!(normalise_base("127.0.0.1:3000").is_err());
    }

    #[test]
    fn statuses_are_found_by_a_marker_in_their_content() {
        let page = json!([{"id": "1", "content": "<p>hello fanout42</p>"}, {"id": "2"}]);
        assert!(has_status_with(&page, "fanout42"));
        assert!(!has_status_with(&page, "fanout43"));
        assert!(!has_status_with(&json!({"error": "x"}), "fanout42"));
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("short"), "short");
        assert_eq!(excerpt(&"x".repeat(300)).len(), 203);
    }
}
