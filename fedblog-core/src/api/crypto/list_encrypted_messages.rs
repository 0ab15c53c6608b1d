//! `GET /api/v1/crypto/encrypted_messages`: the messages delivered to the access token's
//! device, newest first (80 by default and at most, as Mastodon), paginated by id with a `Link`
//! header; 404 before it uploaded a device.

use http::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::error::{ApiError, ApiResult};
use crate::pagination::PageParams;
use crate::services::crypto::message_json;

/// Lists the token's device's messages.
pub struct ListEncryptedMessages;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListEncryptedMessagesRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListEncryptedMessages {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/crypto/encrypted_messages";
    const AUTH: Auth = Auth::User("crypto");
    type Request = ListEncryptedMessagesRequest;
    type Response = Paged<Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListEncryptedMessagesRequest,
    ) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
        let messages = app.crypto().messages(token, r.page.page(80, 80)).await?;
        Ok(Paged {
            link: app.page_link(
                caller,
                messages.first().map(|m| m.id),
                messages.last().map(|m| m.id),
            ),
            items: messages.iter().map(message_json).collect(),
        })
    }
}
