//! Route lookup: one radix tree per method over core's route table, so matching stays flat as
//! endpoints are added.

use std::collections::HashMap;

use fedblog_core::api::Route;
use http::Method;

/// A matched route with its path parameters.
pub struct Matched<'a> {
    /// The route.
    pub route: &'a Route,
    /// `:name` parameters.
    pub params: Vec<(String, String)>,
}

/// What a lookup found.
pub enum Lookup<'a> {
    /// A route.
    Found(Matched<'a>),
    /// The path exists for other methods (listed, for `Allow`).
    OtherMethods(Vec<Method>),
    /// No such path.
    NotFound,
}

/// The routes of core's table, indexed by method.
pub struct Router {
    routes: Vec<Route>,
    trees: HashMap<Method, matchit::Router<usize>>,
}

/// Converts `/a/:id/b` to matchit's `/a/{id}/b`.
fn to_matchit(path: &str) -> String {
    path.split('/')
        .map(|seg| match seg.strip_prefix(':') {
            Some(name) => format!("{{{name}}}"),
            // A parameter after a fixed prefix within the segment: `@:username`.
            None => match seg.split_once(":") {
                Some((prefix, name)) if !prefix.is_empty() => format!("{prefix}{{{name}}}"),
                _ => seg.to_string(),
            },
        })
        .collect::<Vec<_>>()
        .join("/")
}

impl Router {
    /// Builds the trees; a conflicting table is a programming error found at start-up.
    pub fn new(routes: Vec<Route>) -> Result<Self, String> {
        let mut trees: HashMap<Method, matchit::Router<usize>> = HashMap::new();
        for (i, r) in routes.iter().enumerate() {
            trees
                .entry(r.method.clone())
                .or_default()
                .insert(to_matchit(r.path), i)
                .map_err(|e| format!("route {r:?}: {e}"))?;
        }
        Ok(Router { routes, trees })
    }

    /// The routes served.
    pub fn routes(&self) -> &[Route] {
        &self.routes
    }

    /// Finds the route for a request. A trailing slash is ignored; HEAD uses GET's routes.
    pub fn lookup(&self, method: &Method, path: &str) -> Lookup<'_> {
        let path = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            path
        };
        let method = if method == Method::HEAD {
            &Method::GET
        } else {
            method
        };
        if let Some(tree) = self.trees.get(method)
            && let Ok(m) = tree.at(path)
        {
            let params = m
                .params
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            return Lookup::Found(Matched {
                route: &self.routes[*m.value],
                params,
            });
        }
        let others: Vec<Method> = self
            .trees
            .iter()
            .filter(|(_, t)| t.at(path).is_ok())
            .map(|(m, _)| m.clone())
            .collect();
        if others.is_empty() {
            Lookup::NotFound
        } else {
            Lookup::OtherMethods(others)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fedblog_core::api::accounts::{
        get_account::GetAccount, verify_credentials::VerifyCredentials,
    };
    use fedblog_core::api::{Endpoint, REMOVED_ENDPOINTS, fill_path};

    #[test]
    fn static_segments_win_and_params_are_captured() {
        let r = Router::new(fedblog_core::api::routes()).unwrap();
        match r.lookup(&Method::GET, &format!("{}/", VerifyCredentials::PATH)) {
            Lookup::Found(m) => assert_eq!(m.route.path, VerifyCredentials::PATH),
            _ => panic!("not found"),
        }
        let one = fill_path(GetAccount::PATH, &[("id", "123")]);
        match r.lookup(&Method::GET, &one) {
            Lookup::Found(m) => assert_eq!(m.params, vec![("id".to_string(), "123".to_string())]),
            _ => panic!("not found"),
        }
        assert!(matches!(
            r.lookup(&Method::PUT, &one),
            Lookup::OtherMethods(_)
        ));
        // A removed endpoint is served by no route of its method (the path may still match
        // another method's route, as `POST /api/v1/notifications/dismiss` does `GET .../:id`).
        for (method, removed) in REMOVED_ENDPOINTS {
            let method = Method::from_bytes(method.as_bytes()).expect("method");
            assert!(
                !matches!(
                    r.lookup(&method, &fill_path(removed, &[("id", "1")])),
                    Lookup::Found(_)
                ),
                "{method} {removed}"
            );
        }
    }
}
