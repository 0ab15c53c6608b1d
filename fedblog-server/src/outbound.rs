//! Requests the server makes to other servers on its own (federation fetches and deliveries,
//! as they come): only to public addresses unless `FEDBLOG_ALLOW_PRIVATE_ADDRESSES` says
//! otherwise, checked after DNS resolution and on every redirect, with a bounded answer size,
//! a bounded number of redirects, timeouts, and a `User-Agent` naming fedblog and the instance.
//!
//! The address rule keeps a remote party from making the server reach what only it can reach
//! (its loopback, the private network it sits in, cloud metadata at `169.254.169.254`).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

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
    /// The longest a request may take, answer included.
    pub timeout: Duration,
}

impl OutboundOptions {
    /// The defaults for the instance at `base_url`: public addresses only, 1 MiB answers, 3
    /// redirects, 10 s.
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
        }
    }
}

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
    /// The transport failed (connection, timeout, too many redirects, ...).
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
        Ok(OutboundClient { client, options })
    }

    /// GETs `url` with `accept`, reading at most `max_body` bytes of the answer.
    pub async fn get(&self, url: &str, accept: &str) -> Result<Fetched, OutboundError> {
        let parsed =
            reqwest::Url::parse(url).map_err(|_| OutboundError::NotHttp(url.to_string()))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(OutboundError::NotHttp(url.to_string()));
        }
        if let Some(e) = literal_address_refused(&parsed, self.options.allow_private) {
            return Err(OutboundError::Forbidden(e));
        }
        let response = self
            .client
            .get(parsed)
            .header(reqwest::header::ACCEPT, accept)
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
        let parsed =
            reqwest::Url::parse(url).map_err(|_| OutboundError::NotHttp(url.to_string()))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(OutboundError::NotHttp(url.to_string()));
        }
        if let Some(e) = literal_address_refused(&parsed, self.options.allow_private) {
            return Err(OutboundError::Forbidden(e));
        }
        let method = reqwest::Method::from_bytes(method.as_str().as_bytes())
            .map_err(|e| OutboundError::Transport(e.to_string()))?;
        let mut request = self.client.request(method, parsed);
        for (name, value) in headers {
            if !name.eq_ignore_ascii_case("host") {
                request = request.header(name.as_str(), value.as_str());
            }
        }
        if let Some(body) = body {
            request = request.body(body);
        }
        let response = request.send().await.map_err(|e| classify(&e))?;
        self.read(response).await
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
            let chunk = chunk.map_err(|e| OutboundError::Transport(e.to_string()))?;
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
            Err(OutboundError::Transport(e)) => Err(TransportError::Network(e)),
        }
    }
}

/// A refused address anywhere in the error's chain (the resolver's or the redirect policy's
/// refusal) becomes [`OutboundError::Forbidden`].
fn classify(error: &reqwest::Error) -> OutboundError {
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
/// asking DNS: `.example` and `.invalid` never name a server, `.onion` is not reached this way,
/// and `.localhost`, `.test`, `.local`, `.internal` and `.home.arpa` name private ones (allowed
/// with the private addresses).
fn special_use_name_refused(host: &str, allow: bool) -> Option<String> {
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    let under = |tld: &str| name == tld || name.ends_with(&format!(".{tld}"));
    let never = ["example", "invalid", "onion"].iter().any(|t| under(t));
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
}
