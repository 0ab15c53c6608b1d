//! ActivityPub: the protocol pieces federation is built from. Key pairs (`keys`), HTTP
//! signatures (`signatures`), ActivityStreams documents (`vocab`), and the [`Transport`] an
//! embedder supplies to reach other servers (the reference server's is reqwest with the outbound
//! safety rules). What an activity means and what to send is decided by the `federation` area
//! service and the federation runner.

pub mod collection_sync;
pub mod keys;
pub mod paths;
pub mod signatures;
pub mod vocab;

use async_trait::async_trait;

/// A request as it arrived, for an endpoint that needs its exact bytes (a signed delivery).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawBody {
    /// The method (`POST`).
    pub method: String,
    /// The path and query as sent (`/inbox?x=1`), what a signature's `(request-target)` names.
    pub target: String,
    /// Every header, names in lower case, in the order sent (a repeated header repeats).
    pub headers: Vec<(String, String)>,
    /// The body's bytes.
    pub bytes: Vec<u8>,
}

impl RawBody {
    /// The first value of the header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A request to another server, signed already where it needs to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboundRequest {
    /// `GET` or `POST`.
    pub method: http::Method,
    /// The absolute URL.
    pub url: String,
    /// Headers to send (`Host`, `Date`, `Digest`, `Signature`, `Accept`, `Content-Type`...).
    pub headers: Vec<(String, String)>,
    /// The body of a POST.
    pub body: Option<Vec<u8>>,
}

/// Another server's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboundResponse {
    /// HTTP status.
    pub status: u16,
    /// Its `Content-Type`, if any.
    pub content_type: Option<String>,
    /// The body (bounded by the transport).
    pub body: Vec<u8>,
}

/// Why a request to another server got no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    /// The outbound rules refused it (a private address, a bad scheme, too many redirects).
    #[error("refused: {0}")]
    Refused(String),
    /// The answer was larger than the transport accepts.
    #[error("the answer is too large")]
    TooLarge,
    /// No answer in time.
    #[error("timed out")]
    Timeout,
    /// DNS, connection or protocol failure.
    #[error("network: {0}")]
    Network(String),
}

/// How federation reaches other servers: the embedder's HTTP client. It sends what it is given
/// (core signs), follows the outbound safety rules (no private addresses unless allowed, bounded
/// answers and redirects, timeouts) and names the software in `User-Agent`.
#[async_trait]
pub trait Transport: Send + Sync {
    /// Sends one request.
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError>;
}
