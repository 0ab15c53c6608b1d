//! `POST /api/v1/statuses`: publish a status. <https://docs.joinmastodon.org/methods/statuses/#create>

use http::Method;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::{ScheduledStatus, Status};
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::statuses::NewStatus;

/// What posting answers: the status, or the scheduled status when `scheduled_at` was given.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Created {
    /// Published now.
    Status(Box<Status>),
    /// Published later.
    Scheduled(Box<ScheduledStatus>),
}

/// Posts a status. A retry with the same `Idempotency-Key` within an hour returns the first one.
pub struct CreateStatus;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateStatusRequest {
    /// Text.
    #[serde(deserialize_with = "de::opt_string")]
    pub status: Option<String>,
    /// Content warning.
    #[serde(deserialize_with = "de::opt_string")]
    pub spoiler_text: Option<String>,
    /// `public`, `unlisted`, `private` or `direct`.
    #[serde(deserialize_with = "de::opt_string")]
    pub visibility: Option<String>,
    /// Mark media sensitive.
    #[serde(deserialize_with = "de::opt_bool")]
    pub sensitive: Option<bool>,
    /// Parent status id.
    #[serde(deserialize_with = "de::opt_string")]
    pub in_reply_to_id: Option<String>,
    /// ISO 639 language code.
    #[serde(deserialize_with = "de::opt_string")]
    pub language: Option<String>,
    /// Media attachment ids.
    #[serde(deserialize_with = "de::list")]
    pub media_ids: Vec<String>,
    /// A poll.
    pub poll: Option<Value>,
    /// Publish later.
    #[serde(deserialize_with = "de::opt_string")]
    pub scheduled_at: Option<String>,
    /// The status to quote (Mastodon 4.5).
    #[serde(deserialize_with = "de::opt_string")]
    pub quoted_status_id: Option<String>,
    /// Who may quote the new status: `public`, `followers` or `nobody` (Mastodon 4.5).
    #[serde(deserialize_with = "de::opt_string")]
    pub quote_approval_policy: Option<String>,
}

impl Endpoint for CreateStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses";
    const AUTH: Auth = Auth::User("write:statuses");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] =
        &[crate::rate_limit::Family::Statuses];
    type Request = CreateStatusRequest;
    type Response = Json<Created>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateStatusRequest,
    ) -> ApiResult<Self::Response> {
        let mut new = NewStatus {
            text: r.status.unwrap_or_default(),
            spoiler_text: r.spoiler_text.unwrap_or_default(),
            visibility: r.visibility,
            sensitive: r.sensitive,
            in_reply_to_id: r.in_reply_to_id.as_deref().map(path_id).transpose()?,
            language: r.language,
            media_ids: r.media_ids,
            poll: r.poll,
            scheduled_at: r.scheduled_at,
            scheduled_status_id: None,
        };
        let author = caller.account()?;
        app.federation().resolve_mentions(&new.text).await;
        let key = caller
            .info
            .idempotency_key
            .clone()
            .filter(|k| !k.is_empty());
        let app_id = caller.app.as_ref().map(|a| a.id);
        if new.scheduled_at.is_some() {
            let s = app
                .scheduled()
                .schedule_status(author, app_id, key, new)
                .await?;
            return Ok(Json(Created::Scheduled(Box::new(
                app.render_scheduled_status(&s).await?,
            ))));
        }
        // Quote posts: the quoted status and the policy are checked before anything is stored.
        let mentions = match r.quoted_status_id.as_deref() {
            Some(q) if !q.is_empty() => {
                app.statuses().render_status_text(&new.text).await?.mentions
            }
            _ => vec![],
        };
        let draft = app
            .quotes()
            .prepare(
                author,
                r.quoted_status_id.as_deref(),
                r.quote_approval_policy.as_deref(),
                new.visibility.as_deref(),
                &mentions,
            )
            .await?;
        if let Some(v) = draft.visibility.clone() {
            new.visibility = Some(v);
        }
        // The quote is recorded before the status is fanned out and federated, so that its
        // Create carries it.
        let quotes = app.quotes();
        let (record, quote) = app
            .statuses()
            .publish_status_with(author, app_id, key, new, |status| async move {
                quotes.attach(author, &status, draft).await
            })
            .await?;
        let quote = quote.flatten();
        // A quote accepted at once (of a local post by someone else) tells the quoted author.
        if let Some(q) = quote.filter(|q| q.state == crate::store::QuoteState::Accepted)
            && let Some(quoted_account) = q.quoted_account_id.filter(|a| *a != author.id)
        {
            app.notifications()
                .notify_quote(author, &record, quoted_account)
                .await?;
        }
        let mut rendered = app
            .render_statuses(
                std::slice::from_ref(&record),
                caller.account.as_ref(),
                false,
            )
            .await?;
        rendered
            .pop()
            .map(|s| Json(Created::Status(Box::new(s))))
            .ok_or_else(ApiError::internal)
    }
}
