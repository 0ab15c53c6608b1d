//! Requests the server makes to other servers on its own (federation fetches and deliveries,
//! as they come): only to public addresses unless `FEDBLOG_ALLOW_PRIVATE_ADDRESSES` says
//! otherwise, checked after DNS resolution and on every redirect, with a bounded answer size,
//! a bounded number of redirects, timeouts, a bounded number of requests in flight to each
//! host, and a `User-Agent` naming fedblog and the instance.
//!
//! The address rule keeps a remote party from making the server reach what only it can reach
//! (its loopback, the private network it sits in, cloud metadata at `169.254.169.254`).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use tokio::sync::{Semaphore, SemaphorePermit};
use tokio::time::Instant;

/// What outbound requests may do.
#[derive(Clone, Debug)]
pub struct OutboundOptions {
    /// Whether loopback, private, link-local and other non-public addresses may be reached
    /// (`FEDBLOG_ALLOW_PRIVATE_ADDRESSES`; tests and private networks).
    pub allow_private: bool,
    /// The `User-Agent` sent.
    pub user_agent: String,
    /// The largest answer read, in bytes.
    pub max_body: usize,
    /// Redirects followed at most.
    pub max_redirects: usize,
    /// The longest a request may take, answer included, and waiting for a free slot to its
    /// host (see `per_host`) included.
    pub timeout: Duration,
    /// Requests in flight to one host (URL authority: host and port) at most; more wait for
    /// one to end, within `timeout`. Default 8: Mastodon has no such bound per host (its
    /// delivery concurrency is its Sidekiq threads, 5 per process by default and often 25), so
    /// we take a figure in that range, enough to keep a busy server's deliveries moving while no one
    /// host, slow or hostile, can hold every worker and connection. At least 1.
    pub per_host: usize,
}

impl OutboundOptions {
    /// The defaults for the instance at `base_url`: public addresses only, 1 MiB answers, 3
    /// redirects, 10 s, 8 requests in flight per host.
    pub fn new(base_url: &str) -> OutboundOptions {
        OutboundOptions {
            allow_private: false,
            user_agent: format!(
                "fedblog/{} (+{base_url}/)",
                fedblog_core::services::instance::FEDBLOG_VERSION
            ),
            max_body: 1024 * 1024,
            max_redirects: 3,
            timeout: Duration::from_secs(10),
            per_host: DEFAULT_PER_HOST,
        }
    }
}

/// Requests in flight to one host at most, by default (see [`OutboundOptions::per_host`]).
pub const DEFAULT_PER_HOST: usize = 8;

/// Why an outbound request failed.
#[derive(Debug, thiserror::Error)]
pub enum OutboundError {
    /// The URL names, or its host resolves to, an address the rule forbids.
    #[error("refused: {0} is not a public address")]
    Forbidden(String),
    /// Not an `http` or `https` URL.
    #[error("refused: {0} is not an http(s) URL")]
    NotHttp(String),
    /// The answer was larger than allowed.
    #[error("the answer is larger than {0} bytes")]
    TooLarge(usize),
    /// No answer within the timeout (waiting for a free slot to the host included).
    #[error("timed out: {0}")]
    Timeout(String),
    /// The transport failed (DNS, connection, too many redirects, ...).
    #[error("{0}")]
    Transport(String),
}

/// An answer read whole.
#[derive(Debug)]
pub struct Fetched {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`, if any.
    pub content_type: Option<String>,
    /// The body (at most `max_body` bytes).
    pub body: Vec<u8>,
}

/// The client for requests to other servers.
#[derive(Clone)]
pub struct OutboundClient {
    client: reqwest::Client,
    options: OutboundOptions,
    hosts: Arc<HostSlots>,
}

impl OutboundClient {
    /// A client following `options`.
    pub fn new(options: OutboundOptions) -> Result<OutboundClient, String> {
        let allow = options.allow_private;
        let max_redirects = options.max_redirects;
        let redirects = reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() > max_redirects {
                return attempt.error(format!("more than {max_redirects} redirects"));
            }
            match literal_address_refused(attempt.url(), allow) {
                Some(e) => attempt.error(e),
                None => attempt.follow(),
            }
        });
        let client = reqwest::Client::builder()
            .user_agent(options.user_agent.clone())
            .timeout(options.timeout)
            .connect_timeout(options.timeout.min(Duration::from_secs(5)))
            .redirect(redirects)
            .dns_resolver(Arc::new(PublicOnly { allow }))
            .build()
            .map_err(|e| format!("cannot build the outbound HTTP client: {e}"))?;
        let hosts = Arc::new(HostSlots::new(options.per_host));
        Ok(OutboundClient {
            client,
            options,
            hosts,
        })
    }

    /// GETs `url` with `accept`, reading at most `max_body` bytes of the answer.
    pub async fn get(&self, url: &str, accept: &str) -> Result<Fetched, OutboundError> {
        let parsed = self.checked_url(url)?;
        let request = self
            .client
            .get(parsed.clone())
            .header(reqwest::header::ACCEPT, accept);
        self.run(&parsed, request).await
    }

    /// `url` parsed, if it is an http(s) URL the address rule lets us reach (as far as can be
    /// told before DNS).
    fn checked_url(&self, url: &str) -> Result<reqwest::Url, OutboundError> {
        let parsed =
            reqwest::Url::parse(url).map_err(|_| OutboundError::NotHttp(url.to_string()))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(OutboundError::NotHttp(url.to_string()));
        }
        if let Some(e) = literal_address_refused(&parsed, self.options.allow_private) {
            return Err(OutboundError::Forbidden(e));
        }
        Ok(parsed)
    }

    /// Sends `request` (to `url`) once a slot to `url`'s host is free and reads the answer,
    /// all within the timeout. The slot is held until the answer is read; redirects to other
    /// hosts are followed within it.
    async fn run(
        &self,
        url: &reqwest::Url,
        request: reqwest::RequestBuilder,
    ) -> Result<Fetched, OutboundError> {
        let deadline = Instant::now() + self.options.timeout;
        let slot = self.hosts.slot(host_key(url));
        let _permit = slot.acquire(deadline).await?;
        let left = deadline.saturating_duration_since(Instant::now());
        let response = request
            .timeout(left)
            .send()
            .await
            .map_err(|e| classify(&e))?;
        self.read(response).await
    }
}

impl OutboundClient {
    /// Sends a request as given (core signs it), reading at most `max_body` bytes of the
    /// answer. `Host` is left to the client, which writes the same authority the signature
    /// names.
    pub async fn send(
        &self,
        method: http::Method,
        url: &str,
        headers: &[(String, String)],
        body: Option<Vec<u8>>,
    ) -> Result<Fetched, OutboundError> {
        let parsed = self.checked_url(url)?;
        let method = reqwest::Method::from_bytes(method.as_str().as_bytes())
            .map_err(|e| OutboundError::Transport(e.to_string()))?;
        let mut request = self.client.request(method, parsed.clone());
        for (name, value) in headers {
            if !name.eq_ignore_ascii_case("host") {
                request = request.header(name.as_str(), value.as_str());
            }
        }
        if let Some(body) = body {
            request = request.body(body);
        }
        self.run(&parsed, request).await
    }

    /// Reads an answer whole, within `max_body`.
    async fn read(&self, response: reqwest::Response) -> Result<Fetched, OutboundError> {
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let max = self.options.max_body;
        if response.content_length().is_some_and(|n| n as usize > max) {
            return Err(OutboundError::TooLarge(max));
        }
        let mut body = Vec::new();
        let mut chunks = response.bytes_stream();
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk.map_err(|e| classify(&e))?;
            if body.len() + chunk.len() > max {
                return Err(OutboundError::TooLarge(max));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Fetched {
            status,
            content_type,
            body,
        })
    }
}

/// Federation reaches other servers through the outbound client.
#[async_trait::async_trait]
impl fedblog_core::federation::Transport for OutboundClient {
    async fn send(
        &self,
        req: fedblog_core::federation::OutboundRequest,
    ) -> Result<fedblog_core::federation::OutboundResponse, fedblog_core::federation::TransportError>
    {
        use fedblog_core::federation::TransportError;
        match OutboundClient::send(self, req.method, &req.url, &req.headers, req.body).await {
            Ok(f) => Ok(fedblog_core::federation::OutboundResponse {
                status: f.status,
                content_type: f.content_type,
                body: f.body,
            }),
            Err(OutboundError::Forbidden(e)) => Err(TransportError::Refused(e)),
            Err(OutboundError::NotHttp(e)) => Err(TransportError::Refused(e)),
            Err(OutboundError::TooLarge(_)) => Err(TransportError::TooLarge),
            Err(OutboundError::Timeout(_)) => Err(TransportError::Timeout),
            Err(OutboundError::Transport(e)) => Err(TransportError::Network(e)),
        }
    }
}

/// A refused address anywhere in the error's chain (the resolver's or the redirect policy's
/// refusal) becomes [`OutboundError::Forbidden`], a timeout [`OutboundError::Timeout`].
fn classify(error: &reqwest::Error) -> OutboundError {
    if error.is_timeout() {
        return OutboundError::Timeout(error.to_string());
    }
    let mut source: Option<&dyn std::error::Error> = Some(error);
    while let Some(e) = source {
        let text = e.to_string();
        if let Some(rest) = text.strip_prefix(REFUSED) {
            return OutboundError::Forbidden(rest.to_string());
        }
        source = e.source();
    }
    OutboundError::Transport(error.to_string())
}

/// The host a URL names with its port (said or the scheme's), which requests are bounded by.
fn host_key(url: &reqwest::Url) -> String {
    let host = url.host_str().unwrap_or_default();
    match url.port_or_known_default() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    }
}

/// A semaphore per host bounding the requests in flight to it. A host's entry lives only while
/// some request holds or awaits one of its permits, so idle hosts take no room.
struct HostSlots {
    per_host: usize,
    /// Each host's semaphore, with the number of [`HostSlot`]s using it.
    hosts: Mutex<HashMap<String, (Arc<Semaphore>, usize)>>,
}

impl HostSlots {
    /// At most `per_host` (at least 1) requests in flight to each host.
    fn new(per_host: usize) -> HostSlots {
        HostSlots {
            per_host: per_host.max(1),
            hosts: Mutex::new(HashMap::new()),
        }
    }

    /// The map, even if a thread panicked while holding it (every change to it is whole).
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Arc<Semaphore>, usize)>> {
        self.hosts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place in `host`'s queue (its semaphore made if it has none), counted until dropped.
    fn slot(&self, host: String) -> HostSlot<'_> {
        let per_host = self.per_host;
        let mut hosts = self.lock();
        let (semaphore, users) = hosts
            .entry(host.clone())
            .or_insert_with(|| (Arc::new(Semaphore::new(per_host)), 0));
        *users += 1;
        let semaphore = semaphore.clone();
        HostSlot {
            slots: self,
            host,
            semaphore,
        }
    }

    /// Hosts with a request in flight or waiting.
    #[cfg(test)]
    fn tracked(&self) -> usize {
        self.lock().len()
    }
}

/// A request's place at one host: it awaits a permit, holds it while the request runs, and on
/// drop forgets the host if no other request uses it.
struct HostSlot<'a> {
    slots: &'a HostSlots,
    host: String,
    semaphore: Arc<Semaphore>,
}

impl HostSlot<'_> {
    /// A permit to reach the host, or a timeout if none is free by `deadline`.
    async fn acquire(&self, deadline: Instant) -> Result<SemaphorePermit<'_>, OutboundError> {
        match tokio::time::timeout_at(deadline, self.semaphore.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(closed)) => Err(OutboundError::Transport(closed.to_string())),
            Err(_) => Err(OutboundError::Timeout(format!(
                "no free connection to {} in time ({} in flight at most)",
                self.host, self.slots.per_host
            ))),
        }
    }
}

impl Drop for HostSlot<'_> {
    fn drop(&mut self) {
        let mut hosts = self.slots.lock();
        if let Some((_, users)) = hosts.get_mut(&self.host) {
            *users = users.saturating_sub(1);
            if *users == 0 {
                hosts.remove(&self.host);
            }
        }
    }
}

/// How the resolver and the redirect policy begin a refusal.
const REFUSED: &str = "not a public address: ";

/// The refusal of a URL whose host is a literal address the rule forbids (reqwest does not ask
/// the resolver for those).
fn literal_address_refused(url: &reqwest::Url, allow: bool) -> Option<String> {
    let host = url.host_str()?;
    if let Some(refusal) = special_use_name_refused(host, allow) {
        return Some(refusal);
    }
    let ip: IpAddr = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()?;
    (!allow && !is_public(ip)).then(|| format!("{REFUSED}{ip}"))
}

/// The refusal of a name under a special-use domain (RFC 2606, RFC 6761, RFC 7686), without
/// asking DNS: `.example`, `example.com`, `example.net`, `example.org` (reserved for
/// documentation, so that an address in test data or docs, `@x@example.com`, never makes us
/// reach anyone) and `.invalid` never name a server we reach, `.onion` is not reached this
/// way, and `.localhost`, `.test`, `.local`, `.internal` and `.home.arpa` name private
/// ones (allowed with the private addresses).
fn special_use_name_refused(host: &str, allow: bool) -> Option<String> {
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    let under = |tld: &str| name == tld || name.ends_with(&format!(".{tld}"));
    let never = [
        "example",
        "example.com",
        "example.net",
        "example.org",
        "invalid",
        "onion",
    ]
    .iter()
    .any(|t| under(t));
    let private = ["localhost", "test", "local", "internal", "home.arpa"]
        .iter()
        .any(|t| under(t));
    (never || (private && !allow)).then(|| format!("{REFUSED}{host} (a special-use name)"))
}

/// A resolver that hands reqwest only the public addresses of a name (all of them when
/// private ones are allowed), failing when none is left.
struct PublicOnly {
    allow: bool,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let allow = self.allow;
        Box::pin(async move {
            let host = name.as_str().to_string();
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let kept: Vec<SocketAddr> = found
                .iter()
                .copied()
                .filter(|a| allow || is_public(a.ip()))
                .collect();
            if kept.is_empty() {
                let shown = found
                    .first()
                    .map(|a| a.ip().to_string())
                    .unwrap_or_else(|| host.clone());
                let error: Box<dyn std::error::Error + Send + Sync> =
                    format!("{REFUSED}{host} ({shown})").into();
                return Err(error);
            }
            let addrs: Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}

/// Whether `ip` is an address of the public internet: not unspecified, loopback, private
/// (RFC 1918, unique local), shared (CGNAT), link-local, multicast, broadcast, documentation,
/// benchmarking or reserved; an IPv4-mapped or -compatible IPv6 address is judged as its IPv4.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            !(v4.is_unspecified()
                || v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_broadcast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 192 && b == 0 && c == 0)
                || (a == 198 && (18..20).contains(&b))
                || a >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped().or_else(|| {
                let s = v6.segments();
                (s[..6] == [0; 6] && !v6.is_unspecified() && !v6.is_loopback())
                    .then(|| v6.to_ipv4())
                    .flatten()
            }) {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_unspecified()
                || v6.is_loopback()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || (first & 0xffc0) == 0xfec0
                || first == 0x2001 && v6.segments()[1] == 0x0db8
                || first == 0x0064 && v6.segments()[1] == 0xff9b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_use_names_are_refused_without_dns() {
        for (host, allow, refused) in [
            ("unknown.example", true, true),
            ("a.b.invalid", true, true),
            ("x.onion", true, true),
            ("db.internal", false, true),
            ("db.internal", true, false),
            ("localhost", false, true),
            ("host.test", false, true),
            ("host.test", true, false),
            ("mastodon.social", false, false),
            ("examples.com", false, false),
            ("example.com", true, true),
            ("example.net", true, true),
            ("EXAMPLE.ORG.", true, true),
            ("social.example.com", true, true),
            ("a.b.example.org", false, true),
            ("notexample.com", true, false),
            ("example.com.evil.social", true, false),
            ("example.co", false, false),
        ] {
            assert_eq!(
                special_use_name_refused(host, allow).is_some(),
                refused,
                "{host} (private allowed: {allow})"
            );
        }
    }

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.18.0.1",
            "240.0.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "2001:db8::1",
            "64:ff9b::7f00:1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in [
            "93.184.216.34",
            "1.1.1.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    /// A loopback server answering every request with `answer` (raw HTTP).
    async fn serve(answer: String) -> SocketAddr {
        serve_with(Arc::new(move |_: &str| answer.clone())).await
    }

    /// A loopback server answering each request with what `respond` makes of it (raw HTTP).
    async fn serve_with(respond: Arc<dyn Fn(&str) -> String + Send + Sync>) -> SocketAddr {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            while let Ok((mut socket, _)) = listener.accept().await {
                let respond = respond.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 4096];
                    let n = socket.read(&mut buf).await.unwrap_or(0);
                    let request = String::from_utf8_lossy(&buf[..n]).to_string();
                    let _ = socket.write_all(respond(&request).as_bytes()).await;
                });
            }
        });
        addr
    }

    fn user_agent_of(request: &str) -> &str {
        request
            .lines()
            .find_map(|l| l.strip_prefix("user-agent: "))
            .unwrap_or("")
    }

    fn ok(body: &str) -> String {
        format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
    }

    fn client(allow_private: bool) -> OutboundClient {
        let mut options = OutboundOptions::new("https://social.test");
        options.allow_private = allow_private;
        options.max_body = 64;
        OutboundClient::new(options).unwrap()
    }

    #[tokio::test]
    async fn private_addresses_are_refused_unless_allowed() {
        let addr = serve_with(Arc::new(|request: &str| ok(user_agent_of(request)))).await;
        let by_ip = format!("http://{addr}/");
        let by_name = format!("http://localhost:{}/", addr.port());
        for url in [&by_ip, &by_name] {
            let err = client(false).get(url, "*/*").await.unwrap_err();
            assert!(matches!(err, OutboundError::Forbidden(_)), "{url}: {err}");
        }
        let fetched = client(true).get(&by_ip, "*/*").await.expect("allowed");
        assert_eq!(fetched.status, 200);
        let agent = String::from_utf8(fetched.body).unwrap();
        assert!(
            agent.starts_with("fedblog/") && agent.contains("https://social.test"),
            "{agent}"
        );
        let err = client(true)
            .get("file:///etc/passwd", "*/*")
            .await
            .unwrap_err();
        assert!(matches!(err, OutboundError::NotHttp(_)));
    }

    #[tokio::test]
    async fn answers_and_redirects_are_bounded() {
        let big = serve(ok(&"x".repeat(65))).await;
        let err = client(true)
            .get(&format!("http://{big}/"), "*/*")
            .await
            .unwrap_err();
        assert!(matches!(err, OutboundError::TooLarge(64)), "{err}");

        // Each redirect is judged by the rule of the first URL: followed where private
        // addresses are allowed, refused where they are not.
        let target = serve(ok("secret")).await;
        let hop = serve(format!(
            "HTTP/1.1 302 Found\r\nlocation: http://{target}/\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        ))
        .await;
        let mut options = OutboundOptions::new("https://social.test");
        options.allow_private = true;
        let followed = OutboundClient::new(options)
            .unwrap()
            .get(&format!("http://{hop}/"), "*/*")
            .await
            .expect("followed");
        assert_eq!(followed.body, b"secret");
        let refused = literal_address_refused(
            &reqwest::Url::parse(&format!("http://{target}/")).unwrap(),
            false,
        );
        assert!(refused.is_some_and(|e| e.contains("127.0.0.1")));

        let looping = serve(
            "HTTP/1.1 302 Found\r\nlocation: /again\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                .to_string(),
        )
        .await;
        let err = client(true)
            .get(&format!("http://{looping}/"), "*/*")
            .await
            .unwrap_err();
        assert!(matches!(err, OutboundError::Transport(_)), "{err}");
    }

    /// Requests being answered by a test server: now, and the most at once.
    #[derive(Default)]
    struct InFlight {
        now: std::sync::atomic::AtomicUsize,
        max: std::sync::atomic::AtomicUsize,
        seen: std::sync::atomic::AtomicUsize,
    }

    impl InFlight {
        fn enter(&self) {
            use std::sync::atomic::Ordering::SeqCst;
            self.seen.fetch_add(1, SeqCst);
            let now = self.now.fetch_add(1, SeqCst) + 1;
            self.max.fetch_max(now, SeqCst);
        }

        fn leave(&self) {
            self.now.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        }

        fn max(&self) -> usize {
            self.max.load(std::sync::atomic::Ordering::SeqCst)
        }

        fn seen(&self) -> usize {
            self.seen.load(std::sync::atomic::Ordering::SeqCst)
        }
    }

    /// A loopback server answering each request after `delay`, counting the requests it is
    /// answering in each of `counters`.
    async fn slow_server(delay: Duration, counters: Vec<Arc<InFlight>>) -> SocketAddr {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            while let Ok((mut socket, _)) = listener.accept().await {
                let counters = counters.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 4096];
                    let _ = socket.read(&mut buf).await;
                    counters.iter().for_each(|c| c.enter());
                    tokio::time::sleep(delay).await;
                    // Left before answering: once answered, the client may send the next
                    // request, which must not find this one still counted.
                    counters.iter().for_each(|c| c.leave());
                    let _ = socket.write_all(ok("done").as_bytes()).await;
                });
            }
        });
        addr
    }

    fn limited_client(per_host: usize, timeout: Duration) -> OutboundClient {
        let mut options = OutboundOptions::new("https://social.test");
        options.allow_private = true;
        options.per_host = per_host;
        options.timeout = timeout;
        OutboundClient::new(options).unwrap()
    }

    /// Six requests at once to each of two hosts (two ports of 127.0.0.1), two allowed in
    /// flight per host: each host sees two at a time, never more, and the hosts together see
    /// four (neither waits for the other). Once all are done no host is tracked.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn requests_in_flight_are_bounded_per_host() {
        let (a, b, both) = (
            Arc::new(InFlight::default()),
            Arc::new(InFlight::default()),
            Arc::new(InFlight::default()),
        );
        let delay = Duration::from_millis(300);
        let host_a = slow_server(delay, vec![a.clone(), both.clone()]).await;
        let host_b = slow_server(delay, vec![b.clone(), both.clone()]).await;
        let client = limited_client(2, Duration::from_secs(10));
        let urls: Vec<String> = (0..6)
            .flat_map(|n| {
                [
                    format!("http://{host_a}/{n}"),
                    format!("http://{host_b}/{n}"),
                ]
            })
            .collect();
        let answers =
            futures_util::future::join_all(urls.iter().map(|u| client.get(u, "*/*"))).await;
        for answer in answers {
            assert_eq!(answer.expect("answered").status, 200);
        }
        assert_eq!((a.seen(), b.seen()), (6, 6));
        assert_eq!(
            a.max(),
            2,
            "at most two in flight to {host_a}, and two reached"
        );
        assert_eq!(
            b.max(),
            2,
            "at most two in flight to {host_b}, and two reached"
        );
        assert_eq!(both.max(), 4, "each host has its own two");
        assert_eq!(client.hosts.tracked(), 0, "idle hosts are forgotten");
    }

    /// With the one slot to a host taken, a request to it fails as a timeout once the timeout
    /// has passed waiting (it never reaches the host), while another port of the same address
    /// is reached at once; freed, the slot serves the next request.
    #[tokio::test]
    async fn waiting_for_a_slot_counts_against_the_timeout() {
        let (a, b) = (Arc::new(InFlight::default()), Arc::new(InFlight::default()));
        let host_a = slow_server(Duration::ZERO, vec![a.clone()]).await;
        let host_b = slow_server(Duration::ZERO, vec![b.clone()]).await;
        let timeout = Duration::from_millis(300);
        let client = limited_client(1, timeout);
        let url_a = format!("http://{host_a}/");
        let slot = client
            .hosts
            .slot(host_key(&reqwest::Url::parse(&url_a).unwrap()));
        let held = slot.acquire(Instant::now() + timeout).await.expect("free");

        let started = Instant::now();
        let err = client.get(&url_a, "*/*").await.unwrap_err();
        assert!(matches!(err, OutboundError::Timeout(_)), "{err}");
        assert!(started.elapsed() >= timeout, "{:?}", started.elapsed());
        assert_eq!(
            a.seen(),
            0,
            "the request waited, and never reached the host"
        );
        let mapped = fedblog_core::federation::Transport::send(
            &client,
            fedblog_core::federation::OutboundRequest {
                method: http::Method::GET,
                url: url_a.clone(),
                headers: vec![],
                body: None,
            },
        )
        .await
        .unwrap_err();
        assert_eq!(mapped, fedblog_core::federation::TransportError::Timeout);

        let other = client.get(&format!("http://{host_b}/"), "*/*").await;
        assert_eq!(other.expect("another port is not held up").status, 200);
        assert_eq!(b.seen(), 1);

        drop(held);
        drop(slot);
        let fetched = client.get(&url_a, "*/*").await.expect("the slot is free");
        assert_eq!(fetched.body, b"done");
        assert_eq!(client.hosts.tracked(), 0);
    }
}
