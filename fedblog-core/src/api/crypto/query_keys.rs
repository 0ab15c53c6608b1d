//! `POST /api/v1/crypto/keys/query`: the devices of the accounts `id[]` names
//! (`[{account_id, devices: [{device_id, name, identity_key, fingerprint_key}]}]`); unknown
//! accounts are left out, a remote account has no devices here.

use http::Method;
use serde::{Deserialize, Serialize};

use super::DeviceJson;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;
use crate::params::de;

/// Looks up the devices of some accounts.
pub struct QueryKeys;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct QueryKeysRequest {
    /// The accounts.
    #[serde(deserialize_with = "de::list")]
    pub id: Vec<serde_json::Value>,
}

/// The devices of one account (Mastodon's `REST::Keys::QueryResultSerializer`).
#[derive(Debug, Serialize)]
pub struct QueryResult {
    /// The account.
    pub account_id: String,
    /// Its devices.
    pub devices: Vec<DeviceJson>,
}

impl Endpoint for QueryKeys {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/crypto/keys/query";
    const AUTH: Auth = Auth::User("crypto");
    type Request = QueryKeysRequest;
    type Response = Json<Vec<QueryResult>>;

    async fn handle(app: &App, caller: &Caller, r: QueryKeysRequest) -> ApiResult<Self::Response> {
        caller.account()?;
        let ids: Vec<crate::Id> =
            r.id.iter()
                .filter_map(|v| match v {
                    serde_json::Value::String(s) => s.parse().ok(),
                    serde_json::Value::Number(n) => n.to_string().parse().ok(),
                    _ => None,
                })
                .collect();
        let found = app.crypto().query(&ids).await?;
        Ok(Json(
            found
                .iter()
                .map(|a| QueryResult {
                    account_id: a.account_id.to_string(),
                    devices: a.devices.iter().map(DeviceJson::from).collect(),
                })
                .collect(),
        ))
    }
}
