//! `POST /api/v1/admin/accounts/:id/action`: a moderation action on an account (`none`, `sensitive`, `disable`, `silence`, `suspend`), kept as a warning. <https://docs.joinmastodon.org/methods/admin/accounts/#action>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::permissions::{self, Permissions};
use crate::services::moderation::{AccountAction, AccountActionType};

use super::caller_role;

/// Takes a moderation action and answers `{}`. A missing or unknown `type` is a 422; an unknown
/// account, `report_id` or `warning_preset_id` (fedblog keeps no presets) a 404; an account whose
/// role is not below the caller's a 403; `disable` of a remote account a 422. Every action keeps
/// a warning; one other than `none` resolves the open reports about the account, `none` the
/// report named. <https://docs.joinmastodon.org/methods/admin/accounts/#action>
pub struct ModerateAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ModerateAccountRequest {
    /// Account id (path).
    pub id: String,
    /// `none`, `sensitive`, `disable`, `silence` or `suspend`.
    #[serde(default, deserialize_with = "de::opt_string", rename = "type")]
    pub kind: Option<String>,
    /// The report that led to the action.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub report_id: Option<String>,
    /// A preset warning (none exists here).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub warning_preset_id: Option<String>,
    /// Why the action was taken, shown to the account.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub text: Option<String>,
    /// Whether to tell the account (true by default).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub send_email_notification: Option<bool>,
}

impl Endpoint for ModerateAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/accounts/:id/action";
    const AUTH: Auth = Auth::User("admin:write:accounts");
    type Request = ModerateAccountRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ModerateAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = permissions::require(caller, Permissions::MANAGE_USERS)?;
        let target = path_id(&r.id)?;
        let kind = match r.kind.as_deref() {
            None => {
                return Err(ApiError::invalid_field(
                    "type",
                    "ERR_BLANK",
                    "Type can't be blank",
                ));
            }
            Some(k) => AccountActionType::parse(k).ok_or_else(|| {
                ApiError::invalid_field("type", "ERR_INCLUSION", "Type is not included in the list")
            })?,
        };
        let report_id = match r.report_id.as_deref() {
            None => None,
            Some(id) => Some(path_id(id)?),
        };
        let action = AccountAction {
            kind,
            report_id,
            warning_preset_id: r.warning_preset_id,
            text: r.text.unwrap_or_default(),
            send_email_notification: r.send_email_notification.unwrap_or(true),
        };
        app.moderation()
            .act(me, caller_role(caller), target, action)
            .await?;
        Ok(Json(Empty {}))
    }
}
