//! Which address a request comes from: the connection's peer, or, when that peer is a trusted
//! proxy (`FEDBLOG_TRUSTED_PROXIES`), the last address in `X-Forwarded-For` that is not one.

use std::net::{IpAddr, SocketAddr};

use http::HeaderMap;
use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// No proxy: the peer is the client.
    pub fn none() -> Self {
        TrustedProxies(vec![])
    }

    /// Loopback only (a proxy on the same machine): the default.
    pub fn loopback() -> Self {
        Self::parse("127.0.0.0/8,::1/128").unwrap_or_else(|_| Self::none())
    }

    /// Parses a comma-separated list of addresses and networks (`127.0.0.0/8, ::1`); an empty
    /// list or `none` trusts no proxy.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("none") {
            return Ok(Self::none());
        }
        text.split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| {
                p.parse::<IpNet>()
                    .or_else(|_| p.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| {
                        format!("{p:?} is not an address or a network such as 127.0.0.0/8")
                    })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(TrustedProxies)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The client's address for a request from `peer` with these headers.
    pub fn client(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = canonical(peer?.ip());
        if !self.trusts(peer) {
            return Some(peer);
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|part| part.trim().parse::<IpAddr>().ok())
            .map(canonical)
            .collect();
        // Right to left: each trusted hop names the one before it; the first untrusted
        // address is the client (all trusted: the first in the list).
        let client = forwarded
            .iter()
            .rev()
            .find(|ip| !self.trusts(**ip))
            .or(forwarded.first())
            .copied();
        Some(client.unwrap_or(peer))
    }
}

/// An IPv4-mapped IPv6 address as the IPv4 address it is.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xff(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", value.parse().unwrap());
        h
    }

    fn peer(ip: &str) -> Option<SocketAddr> {
        Some(SocketAddr::new(ip.parse().unwrap(), 4000))
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_claims() {
        let t = TrustedProxies::loopback();
        let client = t.client(peer("203.0.113.5"), &xff("198.51.100.1"));
        assert_eq!(client, Some("203.0.113.5".parse().unwrap()));
    }

    #[test]
    fn a_trusted_proxy_names_the_client() {
        let t = TrustedProxies::parse("127.0.0.1, 127.0.1.0/24").unwrap();
        // The client may prepend anything; only what trusted hops appended counts.
        let h = xff("1.2.3.4, 198.51.100.7, 127.0.1.9");
        assert_eq!(
            t.client(peer("127.0.0.1"), &h),
            Some("198.51.100.7".parse().unwrap())
        );
        assert_eq!(
            t.client(peer("::ffff:127.0.0.1"), &HeaderMap::new()),
            Some("127.0.0.1".parse().unwrap())
        );
        assert_eq!(
            TrustedProxies::none().client(peer("127.0.0.1"), &h),
            Some("127.0.0.1".parse().unwrap())
        );
    }

    #[test]
    fn settings_parse() {
        assert_eq!(
            TrustedProxies::parse("none").unwrap(),
            TrustedProxies::none()
        );
        assert!(TrustedProxies::parse("127.0.0.0/33").is_err());
        assert!(TrustedProxies::parse("proxy.example").is_err());
        assert!(TrustedProxies::parse("::1, 127.0.0.0/16").is_ok());
    }
}
