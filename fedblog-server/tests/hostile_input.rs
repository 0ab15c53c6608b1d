//! Hostile input over real HTTP: each defect the security review found (nesting that overflowed
//! the stack, bodies read before the token was checked, slow clients, date overflows, framable
//! pages, unlimited guessing) stays fixed, and the rate limits answer as Mastodon's do.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::mute_account::MuteAccount;
use fedblog_core::api::accounts::register_account::RegisterAccount;
use fedblog_core::api::filters::create_filter::CreateFilter;
use fedblog_core::api::filters_v1::create_filter_v1::CreateFilterV1;
use fedblog_core::api::instance::instance_v1::InstanceV1;
use fedblog_core::api::media::create_media::CreateMedia;
use fedblog_core::api::oauth::authorize_decision::AuthorizeDecision;
use fedblog_core::api::statuses::{create_status::CreateStatus, get_status::GetStatus};
use fedblog_core::api::{SMALL_BODY_BYTES, fill_path};
use fedblog_core::rate_limit::RateLimits;
use fedblog_server::http::HttpOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends `head` (and `body`) on a new connection and reads the answer until the server closes
/// it or `wait` passes; returns the status (0 if none came) and the raw answer.
async fn raw(s: &TestServer, head: &str, body: &[u8], wait: Duration) -> (u16, String) {
    let mut conn = TcpStream::connect(s.running.addr).await.expect("connect");
    conn.write_all(head.as_bytes()).await.expect("write head");
    if !body.is_empty() {
        // A server that answered early may close before the body is all sent.
        let _ = conn.write_all(body).await;
    }
    let mut out = Vec::new();
    let _ = tokio::time::timeout(wait, conn.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    answer.lines().take_while(|l| !l.is_empty()).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

async fn instance_answers(s: &TestServer) {
    let r = s.client.get(InstanceV1::PATH, None).await.unwrap();
    assert_eq!(r.status, 200, "the server still serves: {}", r.text);
}

/// Defect 1: a key nested 10,000 levels deep aborted the process (stack overflow).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_nested_ten_thousand_deep_are_a_400_and_the_server_lives() {
    let s = TestServer::start().await;
    let deep = format!("a{}=1", "[x]".repeat(10_000));
    let r = s
        .client
        .get(&format!("{}?{deep}", InstanceV1::PATH), None)
        .await
        .unwrap();
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.error_text().unwrap().contains("nested"), "{}", r.text);
    let (_, token) = s.user("deep").await;
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        CreateStatus::PATH,
        deep.len()
    );
    let (status, answer) = raw(&s, &head, deep.as_bytes(), Duration::from_secs(10)).await;
    assert_eq!(status, 400, "{answer}");
    instance_answers(&s).await;
    s.stop().await;
}

/// Defect 3: every route read up to 41 MiB before checking the token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_are_refused_before_their_body_without_a_valid_token() {
    let s = TestServer::start().await;
    for auth in ["", "Authorization: Bearer not-a-token\r\n"] {
        // Headers announce 40 MB; no byte of it is sent, yet the answer comes at once.
        let head = format!(
            "POST {} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 40000000\r\nConnection: close\r\n\r\n",
            CreateMedia::PATH
        );
        let started = Instant::now();
        let (status, answer) = raw(&s, &head, b"", Duration::from_secs(5)).await;
        assert_eq!(status, 401, "{auth:?}: {answer}");
        assert!(started.elapsed() < Duration::from_secs(4), "{auth:?}");
        assert!(answer.contains("\"error\""), "{answer}");
    }
    s.stop().await;
}

/// Defect 3: bodies are limited by their endpoint's kind (small for parameters).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parameters_endpoint_refuses_a_large_body_with_413() {
    let s = TestServer::start().await;
    let (_, token) = s.user("bulky").await;
    let body = format!("status={}", "a".repeat(SMALL_BODY_BYTES as usize + 10));
    for auth in [format!("Authorization: Bearer {token}\r\n"), String::new()] {
        let head = format!(
            "POST {} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            CreateStatus::PATH,
            body.len()
        );
        let (status, answer) = raw(&s, &head, body.as_bytes(), Duration::from_secs(10)).await;
        assert_eq!(status, 413, "{answer}");
    }
    instance_answers(&s).await;
    s.stop().await;
}

/// Defect 8: slow clients held connections open; now headers and each piece of a body must
/// arrive within the read timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_and_bodies_are_cut_off() {
    let http = HttpOptions {
        read_timeout: Duration::from_secs(1),
        ..Default::default()
    };
    let s = TestServer::start_http(|_| {}, http).await;
    let started = Instant::now();
    let (_, answer) = raw(
        &s,
        "GET /health HTTP/1.1\r\nHost: x\r\n",
        b"",
        Duration::from_secs(8),
    )
    .await;
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(6),
        "an unfinished head is closed within the timeout (took {waited:?}): {answer}"
    );
    let (_, token) = s.user("slow").await;
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\nConnection: close\r\n\r\nstatus=",
        CreateStatus::PATH
    );
    let (status, answer) = raw(&s, &head, b"", Duration::from_secs(8)).await;
    assert_eq!(status, 408, "{answer}");
    instance_answers(&s).await;
    s.stop().await;
}

/// Defect 4: huge durations panicked (500) or silently meant "never".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_durations_are_422_and_never_500() {
    let s = TestServer::start().await;
    let (_, token) = s.user("timekeeper").await;
    let (target, _) = s.user("muted").await;
    let mute = fill_path(MuteAccount::PATH, &[("id", target.as_str())]);
    let post = |path: String, field: &'static str, value: &str, rest: &[(&str, &str)]| {
        let mut pairs = rest.to_vec();
        pairs.push((field, value));
        let (s, token, body) = (&s, token.clone(), fedblog_testkit::client::form(&pairs));
        async move { s.client.post(&path, Some(&token), body).await.unwrap() }
    };
    let v2 = [("title", "t"), ("context[]", "home")];
    let v1 = [("phrase", "p"), ("context[]", "home")];
    for seconds in ["9223372036854775807", "99999999999999", "-5"] {
        for (path, field, rest) in [
            (CreateFilter::PATH.to_string(), "expires_in", &v2[..]),
            (CreateFilterV1::PATH.to_string(), "expires_in", &v1[..]),
            (mute.clone(), "duration", &[][..]),
        ] {
            let r = post(path.clone(), field, seconds, rest).await;
            assert_eq!(r.status, 422, "{path} {field}={seconds}: {}", r.text);
        }
    }
    let r = post(CreateFilter::PATH.to_string(), "expires_in", "3600", &v2).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json().unwrap()["expires_at"].is_string(), "{}", r.text);
    s.stop().await;
}

/// Defect 6: the HTML pages could be framed (clickjacking the consent button).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_forbid_framing_and_sniffing() {
    let s = TestServer::start().await;
    let head = format!(
        "GET {}?response_type=code HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        AuthorizeDecision::PATH
    );
    let (_, answer) = raw(&s, &head, b"", Duration::from_secs(5)).await;
    assert!(
        header(&answer, "content-type").is_some_and(|t| t.starts_with("text/html")),
        "{answer}"
    );
    let csp = header(&answer, "content-security-policy").unwrap_or_default();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert_eq!(header(&answer, "x-frame-options"), Some("DENY"));
    assert_eq!(header(&answer, "x-content-type-options"), Some("nosniff"));
    s.stop().await;
}

/// Defect 2 and the sign-in limits: guesses are limited per account named (known or not) and
/// per client address; a trusted proxy's X-Forwarded-For names the address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_guesses_are_limited_per_account_and_per_address() {
    let s = TestServer::start_with(|c| {
        c.rate_limits = RateLimits::parse("sign_in=6/5m,sign_in_account=3/1h").unwrap();
    })
    .await;
    s.user("ada").await;
    let (client_id, _, _) = s.app_token().await;
    let attempt = |login: &'static str, client: &'static str| {
        let (s, client_id) = (&s, client_id.clone());
        async move {
            let body = format!(
                "response_type=code&client_id={client_id}&redirect_uri=urn:ietf:wg:oauth:2.0:oob&scope=read&username={login}&password=guess"
            );
            let head = format!(
                "POST {} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {client}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                AuthorizeDecision::PATH,
                body.len()
            );
            raw(s, &head, body.as_bytes(), Duration::from_secs(10)).await
        }
    };
    // Three guesses at ada are answered (the form with its error, a 401), the fourth is a 429; an
    // unknown name is limited the same way.
    for name in ["ada", "nobody"] {
        for _ in 0..3 {
            let (status, answer) = attempt(name, "198.51.100.1").await;
            assert_eq!(status, 401, "{name}: {answer}");
            assert!(answer.contains("Invalid username"), "{answer}");
        }
        let (status, answer) = attempt(name, "198.51.100.2").await;
        assert_eq!(status, 429, "{name}: {answer}");
        let retry: u64 = header(&answer, "retry-after").unwrap().parse().unwrap();
        assert!(retry > 0 && retry <= 3600, "{retry}");
    }
    // The first address has made 6 attempts (its limit), the second 2.
    let (status, answer) = attempt("carol", "198.51.100.1").await;
    assert_eq!(status, 429, "{answer}");
    assert!(answer.contains("\"error\""), "{answer}");
    let (status, answer) = attempt("dave", "198.51.100.2").await;
    assert_eq!(status, 401, "{answer}");
    s.stop().await;
}

/// Sign-ups are limited per client address (Mastodon: 5 in 30 minutes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ups_are_limited_per_address() {
    let s = TestServer::start_with(|c| c.rate_limits = RateLimits::default()).await;
    let (_, _, app_token) = s.app_token().await;
    let mut statuses = vec![];
    for i in 0..6 {
        let name = format!("newcomer{i}");
        let email = format!("{name}@example.com");
        let r = s
            .client
            .post(
                RegisterAccount::PATH,
                Some(&app_token),
                fedblog_testkit::client::form(&[
                    ("username", name.as_str()),
                    ("email", email.as_str()),
                    ("password", "correct horse battery"),
                    ("agreement", "true"),
                    ("locale", "en"),
                ]),
            )
            .await
            .unwrap();
        statuses.push(r.status);
        if i == 5 {
            assert_eq!(r.header("x-ratelimit-remaining"), Some("0"), "{}", r.text);
            assert!(r.header("retry-after").is_some());
        }
    }
    assert_eq!(statuses, [200, 200, 200, 200, 200, 429]);
    s.stop().await;
}

/// Every API answer carries the headers of the limit that applies, errors included; off, none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_answers_carry_their_limit_and_none_when_off() {
    let s = TestServer::start_with(|c| c.rate_limits = RateLimits::default()).await;
    let (_, token) = s.user("counted").await;
    let anonymous = s.client.get(InstanceV1::PATH, None).await.unwrap();
    assert_eq!(anonymous.header("x-ratelimit-limit"), Some("300"));
    let first = s
        .client
        .get(&fill_path(GetStatus::PATH, &[("id", "1")]), Some(&token))
        .await
        .unwrap();
    assert_eq!(first.status, 404);
    assert_eq!(
        first.header("x-ratelimit-limit"),
        Some("300"),
        "a 404 counts too"
    );
    let before: u64 = first
        .header("x-ratelimit-remaining")
        .unwrap()
        .parse()
        .unwrap();
    let next = s.client.get(InstanceV1::PATH, Some(&token)).await.unwrap();
    let after: u64 = next
        .header("x-ratelimit-remaining")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(after + 1, before);
    s.stop().await;

    let s = TestServer::start_with(|c| c.rate_limits = RateLimits::off()).await;
    let r = s.client.get(InstanceV1::PATH, None).await.unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.header("x-ratelimit-limit"), None);
    s.stop().await;
}
