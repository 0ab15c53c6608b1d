//! A network of apps in one process: a [`Transport`] that hands each request to the app whose
//! domain the URL names, through the route table, as a server would. For embedders' tests and
//! for trying federation without sockets (`examples/federation_pair.rs`); the reference
//! server's transport is HTTP.

use std::collections::HashMap;
use std::sync::{Arc, RwLock, Weak};

use async_trait::async_trait;

use crate::api::{Body, Route, routes};
use crate::app::{App, RawBody, Request, RequestInfo};
use crate::federation::{OutboundRequest, OutboundResponse, Transport, TransportError};
use crate::params::Params;

/// Apps by domain; give each app [`InProcessNetwork::transport`].
#[derive(Default)]
pub struct InProcessNetwork {
    apps: RwLock<HashMap<String, Weak<App>>>,
    routes: Vec<Route>,
}

impl InProcessNetwork {
    /// An empty network.
    pub fn new() -> Arc<Self> {
        Arc::new(InProcessNetwork {
            apps: RwLock::default(),
            routes: routes(),
        })
    }

    /// Adds an app under its configured domain.
    pub fn join(&self, app: &Arc<App>) {
        if let Ok(mut apps) = self.apps.write() {
            apps.insert(app.config.domain.to_ascii_lowercase(), Arc::downgrade(app));
        }
    }

    /// The transport apps of this network use.
    pub fn transport(self: &Arc<Self>) -> Arc<dyn Transport> {
        Arc::new(NetworkTransport(self.clone()))
    }

    /// The route and path parameters for a request.
    fn find(&self, method: &http::Method, path: &str) -> Option<(&Route, Vec<(String, String)>)> {
        let path = path.trim_end_matches('/');
        let asked: Vec<&str> = path.split('/').collect();
        'routes: for route in &self.routes {
            if route.method != *method {
                continue;
            }
            let pattern: Vec<&str> = route.path.split('/').collect();
            if pattern.len() != asked.len() {
                continue;
            }
            let mut params = vec![];
            for (p, a) in pattern.iter().zip(&asked) {
                match p.split_once(':') {
                    Some((prefix, name)) => match a.strip_prefix(prefix) {
                        Some(value) if !value.is_empty() => {
                            params.push((name.to_string(), value.to_string()));
                        }
                        _ => continue 'routes,
                    },
                    None if p == a => {}
                    None => continue 'routes,
                }
            }
            return Some((route, params));
        }
        None
    }
}

struct NetworkTransport(Arc<InProcessNetwork>);

#[async_trait]
impl Transport for NetworkTransport {
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError> {
        let host = crate::federation::paths::host_of(&req.url)
            .ok_or_else(|| TransportError::Refused(format!("{} is not http(s)", req.url)))?;
        let app = self
            .0
            .apps
            .read()
            .ok()
            .and_then(|apps| apps.get(&host).and_then(Weak::upgrade))
            .ok_or_else(|| TransportError::Network(format!("no server at {host}")))?;
        let after_host = req
            .url
            .split_once("://")
            .and_then(|(_, rest)| rest.find('/').map(|i| rest[i..].to_string()))
            .unwrap_or_else(|| "/".into());
        let (path, query) = match after_host.split_once('?') {
            Some((p, q)) => (p.to_string(), q.to_string()),
            None => (after_host.clone(), String::new()),
        };
        let Some((route, path_params)) = self.0.find(&req.method, &path) else {
            return Ok(OutboundResponse {
                status: 404,
                content_type: None,
                body: br#"{"error":"Record not found"}"#.to_vec(),
            });
        };
        let mut params = Params::new();
        params
            .add_urlencoded(&query)
            .map_err(|e| TransportError::Network(e.to_string()))?;
        for (k, v) in path_params {
            params.set(&k, v);
        }
        let mut headers: Vec<(String, String)> = req
            .headers
            .iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), v.clone()))
            .collect();
        if !headers.iter().any(|(k, _)| k == "host") {
            headers.push(("host".into(), host.clone()));
        }
        let info = RequestInfo {
            path: path.clone(),
            query: query.clone(),
            idempotency_key: None,
            remote_addr: Some("127.0.0.1".into()),
            raw: Some(Arc::new(RawBody {
                method: req.method.to_string(),
                target: after_host,
                headers,
                bytes: req.body.unwrap_or_default(),
            })),
        };
        let reply = app
            .dispatch(
                route,
                Request {
                    authorization: None,
                    params,
                    info,
                },
            )
            .await;
        let (content_type, body) = match reply.body {
            Body::Json(text) => (Some("application/json".to_string()), text.into_bytes()),
            Body::Html(text) => (Some("text/html".to_string()), text.into_bytes()),
            Body::Text(text) => (Some("text/plain".to_string()), text.into_bytes()),
            Body::Typed(kind, text) => (Some(kind.to_string()), text.into_bytes()),
            Body::Stream(_) | Body::Empty => (None, vec![]),
        };
        Ok(OutboundResponse {
            status: reply.status.as_u16(),
            content_type,
            body,
        })
    }
}
