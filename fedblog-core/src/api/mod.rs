//! Endpoint declarations: one file per endpoint, each naming its method, path, authentication,
//! request and response types and handler. [`routes`] is the route table every transport serves.
//!
//! Paths are written once, here, in Mastodon's `:param` notation.

pub mod accounts;
pub mod apps;
pub mod blocks;
pub mod bookmarks;
pub mod conversations;
pub mod directory;
pub mod domain_blocks;
pub mod endorsements;
pub mod favourites;
pub mod featured_tags;
pub mod filters;
pub mod filters_v1;
pub mod follow_requests;
pub mod followed_tags;
pub mod follows;
pub mod instance;
pub mod lists;
pub mod markers;
pub mod media;
pub mod mutes;
pub mod notification_requests;
pub mod notifications;
pub mod oauth;
pub mod polls;
pub mod profile;
pub mod scheduled_statuses;
pub mod statuses;
pub mod suggestions;
pub mod tags;
pub mod timelines;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use http::{Method, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::app::{App, Caller};
use crate::entities::Account;
use crate::error::{ApiError, ApiResult};
use crate::params::Params;
use crate::rate_limit::Family;
use crate::services::relationships::AccountPage;

/// Who may call an endpoint, and with which scope (`""` = no scope needed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Auth {
    /// Anyone; tokens are not read.
    Public,
    /// Anyone; a token, if given, must be valid and carry the scope.
    Optional(&'static str),
    /// Any valid token, app or user, with the scope.
    App(&'static str),
    /// A user token with the scope, for an active (confirmed, approved, not suspended) account.
    User(&'static str),
    /// A user token with the scope; the account may still await confirmation or approval.
    UserPending(&'static str),
}

/// How large a request body an endpoint takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Parameters only (JSON or a form): [`SMALL_BODY_BYTES`] at most.
    Params,
    /// Files too (multipart uploads): up to the largest upload the limits allow, read only
    /// after the caller is authenticated.
    Upload,
    /// The body as sent, unparsed, with the request's headers ([`crate::app::RawBody`] in
    /// [`crate::app::RequestInfo::raw`]): for bodies whose bytes matter, such as signed
    /// ActivityPub deliveries, whose digest and signature cover them. Parameters come from the
    /// path and query only. [`SMALL_BODY_BYTES`] at most.
    Raw,
}

/// The prefix of the client API's paths (what the API-wide rate limits count).
pub const API_PREFIX: &str = "/api/";

/// Largest body of an endpoint that takes parameters only.
pub const SMALL_BODY_BYTES: u64 = 1024 * 1024;

/// The body of a reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// `application/json`: the serialised JSON text (entities are written straight to text,
    /// without building a `serde_json::Value` first).
    Json(String),
    /// `text/html; charset=utf-8`.
    Html(String),
    /// Messages sent as they come, for as long as the connection lasts (see [`StreamBody`]).
    Stream(StreamBody),
    /// No body.
    Empty,
}

/// One message of a streaming reply, as Mastodon's streaming API sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamMessage {
    /// The stream it belongs to, as WebSocket clients are told (`["user"]`,
    /// `["hashtag", "rust"]`).
    pub stream: Vec<String>,
    /// The event name (`update`, `delete`, `notification`, ...).
    pub event: String,
    /// The payload: JSON text, or a plain id for `delete`.
    pub payload: String,
}

/// Where a streaming reply's messages come from. The transport frames them (server-sent
/// events: `event:` and `data:` lines, with a heartbeat comment while idle; a WebSocket: one
/// text message each) and hands back what a WebSocket client sends.
#[async_trait::async_trait]
pub trait MessageSource: Send {
    /// The next message to send; `None` ends the reply.
    async fn next(&mut self) -> Option<StreamMessage>;
    /// A text message from the client (a WebSocket's `subscribe` and `unsubscribe`); ignored
    /// unless a source needs it.
    async fn received(&mut self, _text: &str) {}
}

/// A streaming reply's source, taken once by the transport that sends it.
#[derive(Clone)]
pub struct StreamBody(Arc<std::sync::Mutex<Option<Box<dyn MessageSource>>>>);

impl StreamBody {
    /// A body sending what `source` yields.
    pub fn new(source: impl MessageSource + 'static) -> StreamBody {
        StreamBody(Arc::new(std::sync::Mutex::new(Some(Box::new(source)))))
    }

    /// The source, the first time it is asked for (`None` after).
    pub fn take(&self) -> Option<Box<dyn MessageSource>> {
        self.0.lock().ok().and_then(|mut s| s.take())
    }
}

impl PartialEq for StreamBody {
    fn eq(&self, other: &StreamBody) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for StreamBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StreamBody(..)")
    }
}

/// A streaming answer (status 200): see [`Body::Stream`].
pub struct Streamed(pub StreamBody);

impl IntoReply for Streamed {
    fn into_reply(self) -> ApiResult<Reply> {
        Ok(Reply {
            status: StatusCode::OK,
            headers: vec![("Cache-Control".into(), "no-store".into())],
            body: Body::Stream(self.0),
        })
    }
}

/// What an endpoint answers: status, extra headers and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// HTTP status.
    pub status: StatusCode,
    /// Extra headers, e.g. `Link`.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Body,
}

impl Reply {
    /// The JSON body parsed, for callers that read replies in-process (`None` for other bodies).
    pub fn json(&self) -> Option<serde_json::Value> {
        match &self.body {
            Body::Json(text) => serde_json::from_str(text).ok(),
            _ => None,
        }
    }
}

/// Converts an endpoint's typed response into a reply.
pub trait IntoReply {
    /// The reply.
    fn into_reply(self) -> ApiResult<Reply>;
}

/// A JSON response of type `T` with status 200.
pub struct Json<T>(pub T);

impl<T: Serialize> IntoReply for Json<T> {
    fn into_reply(self) -> ApiResult<Reply> {
        let value = serde_json::to_string(&self.0).map_err(|e| {
            tracing::error!(error = %e, "serialising a response failed");
            ApiError::internal()
        })?;
        Ok(Reply {
            status: StatusCode::OK,
            headers: vec![],
            body: Body::Json(value),
        })
    }
}

/// A JSON response of type `T` with another status than 200 (`202 Accepted`, `206`).
pub struct JsonWithStatus<T>(pub StatusCode, pub T);

impl<T: Serialize> IntoReply for JsonWithStatus<T> {
    fn into_reply(self) -> ApiResult<Reply> {
        let mut reply = Json(self.1).into_reply()?;
        reply.status = self.0;
        Ok(reply)
    }
}

/// A page of a collection with its `Link` header (absent for an empty page).
pub struct Paged<T> {
    /// The items, newest first.
    pub items: Vec<T>,
    /// The `Link` header value.
    pub link: Option<String>,
}

impl Paged<Account> {
    /// A page of accounts (followers, follows, endorsements...) rendered for `caller`, with the
    /// `Link` header its hidden cursors give.
    pub fn accounts(app: &App, caller: &Caller, page: AccountPage) -> Self {
        Paged {
            link: app.page_link(caller, page.first, page.last),
            items: page
                .accounts
                .iter()
                .map(|a| app.render_account(a))
                .collect(),
        }
    }
}

/// A JSON body that is not a list but is paged all the same (grouped notifications), with its
/// `Link` header.
pub struct Linked<T> {
    /// The body.
    pub body: T,
    /// The `Link` header value.
    pub link: Option<String>,
}

impl<T: Serialize> IntoReply for Linked<T> {
    fn into_reply(self) -> ApiResult<Reply> {
        let mut reply = Json(self.body).into_reply()?;
        if let Some(link) = self.link {
            reply.headers.push(("Link".into(), link));
        }
        Ok(reply)
    }
}

impl<T: Serialize> IntoReply for Paged<T> {
    fn into_reply(self) -> ApiResult<Reply> {
        let mut reply = Json(self.items).into_reply()?;
        if let Some(link) = self.link {
            reply.headers.push(("Link".into(), link));
        }
        Ok(reply)
    }
}

/// An HTML page with a status.
pub struct Html(pub StatusCode, pub String);

/// The policy of every page: nothing but its own inline style, no scripts, and no framing by
/// other sites (the consent button must not be clickjacked). `form-action` is left out on
/// purpose: browsers apply it to the redirect after the consent form, which leaves for the
/// client's own redirect URI.
pub const PAGE_CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

impl IntoReply for Html {
    fn into_reply(self) -> ApiResult<Reply> {
        Ok(Reply {
            status: self.0,
            headers: vec![
                ("Cache-Control".into(), "no-store".into()),
                (
                    "Content-Security-Policy".into(),
                    PAGE_CONTENT_SECURITY_POLICY.into(),
                ),
                ("X-Frame-Options".into(), "DENY".into()),
                ("Referrer-Policy".into(), "no-referrer".into()),
            ],
            body: Body::Html(self.1),
        })
    }
}

/// A redirect (302) to a URL, or an HTML page for flows that end in the browser.
pub enum Redirect {
    /// `302 Found` with `Location`.
    To(String),
    /// A page instead of a redirect.
    Page(Html),
}

impl IntoReply for Redirect {
    fn into_reply(self) -> ApiResult<Reply> {
        match self {
            Redirect::To(url) => Ok(Reply {
                status: StatusCode::FOUND,
                headers: vec![
                    ("Location".into(), url),
                    ("Cache-Control".into(), "no-store".into()),
                ],
                body: Body::Empty,
            }),
            Redirect::Page(h) => h.into_reply(),
        }
    }
}

/// One endpoint of the API.
pub trait Endpoint: Send + Sync + 'static {
    /// HTTP method.
    const METHOD: Method;
    /// Path, with `:name` parameters.
    const PATH: &'static str;
    /// Authentication and scope.
    const AUTH: Auth;
    /// The rate limits of its own this endpoint counts against, besides the API's; the first is
    /// the one its answers' `X-RateLimit-*` headers describe.
    const RATE_LIMITS: &'static [Family] = &[];
    /// How large a body it takes.
    const BODY: BodyKind = BodyKind::Params;
    /// Parameters (path, query and body merged).
    type Request: DeserializeOwned + Send + 'static;
    /// The typed answer.
    type Response: IntoReply + Send + 'static;
    /// Runs the endpoint for an authenticated caller.
    fn handle(
        app: &App,
        caller: &Caller,
        req: Self::Request,
    ) -> impl Future<Output = ApiResult<Self::Response>> + Send;
}

/// A boxed future of a reply.
pub type ReplyFuture = Pin<Box<dyn Future<Output = ApiResult<Reply>> + Send>>;

/// An endpoint with its types erased, as a route table holds it.
#[derive(Clone)]
pub struct Route {
    /// Method.
    pub method: Method,
    /// Path with `:name` parameters.
    pub path: &'static str,
    /// Authentication and scope.
    pub auth: Auth,
    /// Its own rate limits (the first is shown in the headers).
    pub rate_limits: &'static [Family],
    /// How large a body it takes.
    pub body: BodyKind,
    /// The endpoint's type name, for logs.
    pub name: &'static str,
    /// Parses the parameters and runs the handler.
    pub handler: fn(Arc<App>, Caller, Params) -> ReplyFuture,
}

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} ({})", self.method, self.path, self.name)
    }
}

fn call<E: Endpoint>(app: Arc<App>, caller: Caller, params: Params) -> ReplyFuture {
    Box::pin(async move {
        let req: E::Request = params
            .parse()
            .map_err(|e| ApiError::unprocessable(format!("Validation failed: {e}")))?;
        E::handle(&app, &caller, req).await?.into_reply()
    })
}

/// The route entry of an endpoint.
pub fn route<E: Endpoint>() -> Route {
    let full = std::any::type_name::<E>();
    Route {
        method: E::METHOD,
        path: E::PATH,
        auth: E::AUTH,
        rate_limits: E::RATE_LIMITS,
        body: E::BODY,
        name: full.rsplit("::").next().unwrap_or(full),
        handler: call::<E>,
    }
}

/// Fills the `:name` parameters of a declared path, e.g. for clients and tests.
pub fn fill_path(path: &str, values: &[(&str, &str)]) -> String {
    path.split('/')
        .map(|seg| match seg.strip_prefix(':') {
            Some(name) => values
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
                .unwrap_or_else(|| seg.to_string()),
            None => seg.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Endpoints Mastodon removed; a server must not offer them (they answer 404 here).
pub const REMOVED_ENDPOINTS: &[(&str, &str)] = &[
    ("GET", "/api/v1/search"),
    ("GET", "/api/v1/statuses/:id/card"),
    ("GET", "/api/v1/timelines/direct"),
    ("GET", "/api/v1/mutes/details"),
    ("POST", "/api/v1/notifications/dismiss"),
];

/// Paths of Mastodon endpoints this crate does not serve yet, as Mastodon spells them. The
/// conformance checks of the specification's rules about them use these (and fail against
/// fedblog until the endpoints are built); an endpoint that gets built moves to a declaration.
pub mod unserved {
    /// `POST`: an administrator acts on an account (`type=suspend`, ...).
    pub const ADMIN_ACCOUNT_ACTION: &str = "/api/v1/admin/accounts/:id/action";
    /// `GET`: accounts for administrators (v2, with `role_ids[]`).
    pub const ADMIN_ACCOUNTS_V2: &str = "/api/v2/admin/accounts";
    /// `GET`, `POST`: domains allowed to federate.
    pub const ADMIN_DOMAIN_ALLOWS: &str = "/api/v1/admin/domain_allows";
    /// `DELETE`: one domain allow.
    pub const ADMIN_DOMAIN_ALLOW: &str = "/api/v1/admin/domain_allows/:id";
    /// `GET`: the server's custom emojis.
    pub const CUSTOM_EMOJIS: &str = "/api/v1/custom_emojis";
    /// `GET`, `POST`, `PUT`, `DELETE`: the caller's web push subscription.
    pub const PUSH_SUBSCRIPTION: &str = "/api/v1/push/subscription";
    /// `POST`: file a report.
    pub const REPORTS: &str = "/api/v1/reports";
    /// `GET`: search accounts, statuses and hashtags.
    pub const SEARCH_V2: &str = "/api/v2/search";
    /// `GET`: whether the streaming server is up.
    pub const STREAMING_HEALTH: &str = "/api/v1/streaming/health";
    /// `GET`: trending statuses, tags or links (`:kind`).
    pub const TRENDS: &str = "/api/v1/trends/:kind";
}

/// Endpoints of federation mechanisms Mastodon dropped (Salmon, PubSubHubbub); a server must
/// not offer them.
pub const DROPPED_FEDERATION_ENDPOINTS: &[(&str, &str)] = &[
    ("POST", "/api/salmon/:id"),
    ("POST", "/api/push"),
    ("POST", "/api/subscriptions/:id"),
];

/// The route table: every endpoint this crate implements, one line each.
pub fn routes() -> Vec<Route> {
    vec![
        // OAuth and applications
        route::<apps::create_app::CreateApp>(),
        route::<apps::verify_app_credentials::VerifyAppCredentials>(),
        route::<oauth::authorize_page::AuthorizePage>(),
        route::<oauth::authorize_decision::AuthorizeDecision>(),
        route::<oauth::create_token::CreateToken>(),
        route::<oauth::revoke_token::RevokeToken>(),
        route::<oauth::server_metadata::ServerMetadata>(),
        route::<oauth::userinfo::Userinfo>(),
        route::<oauth::userinfo::UserinfoPost>(),
        // Accounts
        route::<accounts::register_account::RegisterAccount>(),
        route::<accounts::resend_confirmation::ResendConfirmation>(),
        route::<accounts::confirm_email::ConfirmEmail>(),
        route::<accounts::verify_credentials::VerifyCredentials>(),
        route::<accounts::update_credentials::UpdateCredentials>(),
        route::<profile::delete_avatar::DeleteAvatar>(),
        route::<profile::delete_header::DeleteHeader>(),
        route::<accounts::get_account::GetAccount>(),
        route::<accounts::get_accounts::GetAccounts>(),
        route::<accounts::lookup_account::LookupAccount>(),
        route::<accounts::follow_account::FollowAccount>(),
        route::<accounts::unfollow_account::UnfollowAccount>(),
        route::<accounts::get_relationships::GetRelationships>(),
        route::<accounts::get_followers::GetFollowers>(),
        route::<accounts::get_following::GetFollowing>(),
        route::<accounts::block_account::BlockAccount>(),
        route::<accounts::unblock_account::UnblockAccount>(),
        route::<accounts::mute_account::MuteAccount>(),
        route::<accounts::unmute_account::UnmuteAccount>(),
        route::<blocks::list_blocks::ListBlocks>(),
        route::<mutes::list_mutes::ListMutes>(),
        route::<accounts::remove_from_followers::RemoveFromFollowers>(),
        route::<accounts::set_account_note::SetAccountNote>(),
        route::<accounts::endorse_account::EndorseAccount>(),
        route::<accounts::unendorse_account::UnendorseAccount>(),
        route::<accounts::pin_account::PinAccount>(),
        route::<accounts::unpin_account::UnpinAccount>(),
        route::<accounts::get_account_endorsements::GetAccountEndorsements>(),
        route::<endorsements::list_endorsements::ListEndorsements>(),
        route::<accounts::familiar_followers::GetFamiliarFollowers>(),
        route::<accounts::search_accounts::SearchAccounts>(),
        route::<accounts::get_account_statuses::GetAccountStatuses>(),
        route::<accounts::get_account_lists::GetAccountLists>(),
        route::<follows::follow_by_uri::FollowByUri>(),
        route::<domain_blocks::list_domain_blocks::ListDomainBlocks>(),
        route::<domain_blocks::block_domain::BlockDomain>(),
        route::<domain_blocks::unblock_domain::UnblockDomain>(),
        // Discovery
        route::<suggestions::list_suggestions_v2::ListSuggestionsV2>(),
        route::<suggestions::list_suggestions::ListSuggestions>(),
        route::<suggestions::dismiss_suggestion::DismissSuggestion>(),
        route::<directory::list_directory::ListDirectory>(),
        // Follow requests
        route::<follow_requests::list_follow_requests::ListFollowRequests>(),
        route::<follow_requests::authorize_follow_request::AuthorizeFollowRequest>(),
        route::<follow_requests::reject_follow_request::RejectFollowRequest>(),
        // Statuses
        route::<statuses::create_status::CreateStatus>(),
        route::<statuses::get_status::GetStatus>(),
        route::<statuses::get_statuses::GetStatuses>(),
        route::<statuses::delete_status::DeleteStatus>(),
        route::<statuses::get_context::GetContext>(),
        route::<statuses::favourite_status::FavouriteStatus>(),
        route::<statuses::unfavourite_status::UnfavouriteStatus>(),
        route::<statuses::reblog_status::ReblogStatus>(),
        route::<statuses::unreblog_status::UnreblogStatus>(),
        route::<statuses::bookmark_status::BookmarkStatus>(),
        route::<statuses::unbookmark_status::UnbookmarkStatus>(),
        route::<statuses::pin_status::PinStatus>(),
        route::<statuses::unpin_status::UnpinStatus>(),
        route::<statuses::mute_conversation::MuteConversation>(),
        route::<statuses::unmute_conversation::UnmuteConversation>(),
        route::<statuses::favourited_by::FavouritedBy>(),
        route::<statuses::reblogged_by::RebloggedBy>(),
        route::<statuses::edit_status::EditStatus>(),
        route::<statuses::status_history::GetStatusHistory>(),
        route::<statuses::status_source::GetStatusSource>(),
        route::<statuses::translate_status::TranslateStatus>(),
        route::<favourites::list_favourites::ListFavourites>(),
        route::<bookmarks::list_bookmarks::ListBookmarks>(),
        // Polls
        route::<media::create_media::CreateMedia>(),
        route::<media::create_media_v1::CreateMediaV1>(),
        route::<media::get_media::GetMedia>(),
        route::<media::update_media::UpdateMedia>(),
        route::<media::delete_media::DeleteMedia>(),
        route::<polls::get_poll::GetPoll>(),
        route::<polls::vote_poll::VotePoll>(),
        // Scheduled statuses
        route::<scheduled_statuses::list_scheduled_statuses::ListScheduledStatuses>(),
        route::<scheduled_statuses::get_scheduled_status::GetScheduledStatus>(),
        route::<scheduled_statuses::update_scheduled_status::UpdateScheduledStatus>(),
        route::<scheduled_statuses::delete_scheduled_status::DeleteScheduledStatus>(),
        // Hashtags
        route::<tags::get_tag::GetTag>(),
        route::<tags::follow_tag::FollowTag>(),
        route::<tags::unfollow_tag::UnfollowTag>(),
        route::<tags::feature_tag::FeatureTag>(),
        route::<tags::unfeature_tag::UnfeatureTag>(),
        route::<followed_tags::list_followed_tags::ListFollowedTags>(),
        route::<featured_tags::list_featured_tags::ListFeaturedTags>(),
        route::<featured_tags::create_featured_tag::CreateFeaturedTag>(),
        route::<featured_tags::delete_featured_tag::DeleteFeaturedTag>(),
        route::<featured_tags::featured_tag_suggestions::FeaturedTagSuggestions>(),
        route::<accounts::get_featured_tags::GetFeaturedTags>(),
        // Timelines
        route::<timelines::home_timeline::HomeTimeline>(),
        route::<timelines::public_timeline::PublicTimeline>(),
        route::<timelines::list_timeline::ListTimeline>(),
        route::<timelines::tag_timeline::TagTimeline>(),
        route::<timelines::link_timeline::LinkTimeline>(),
        route::<lists::list_lists::ListLists>(),
        route::<lists::create_list::CreateList>(),
        route::<lists::get_list::GetList>(),
        route::<lists::update_list::UpdateList>(),
        route::<lists::delete_list::DeleteList>(),
        route::<lists::list_accounts::ListAccounts>(),
        route::<lists::add_list_accounts::AddListAccounts>(),
        route::<lists::remove_list_accounts::RemoveListAccounts>(),
        // Notifications
        route::<notifications::list_notifications::ListNotifications>(),
        route::<notifications::unread_count::UnreadCount>(),
        route::<notifications::get_notification::GetNotification>(),
        route::<notifications::dismiss_notification::DismissNotification>(),
        route::<notifications::delete_notification::DeleteNotification>(),
        route::<notifications::dismiss_notifications::DismissNotifications>(),
        route::<notifications::clear_notifications::ClearNotifications>(),
        route::<notifications::list_notification_groups::ListNotificationGroups>(),
        route::<notifications::unread_group_count::UnreadGroupCount>(),
        route::<notifications::get_notification_group::GetNotificationGroup>(),
        route::<notifications::notification_group_accounts::NotificationGroupAccounts>(),
        route::<notifications::dismiss_notification_group::DismissNotificationGroup>(),
        // Conversations
        route::<conversations::list_conversations::ListConversations>(),
        route::<conversations::read_conversation::ReadConversation>(),
        route::<conversations::mark_conversation_unread::MarkConversationUnread>(),
        route::<conversations::delete_conversation::DeleteConversation>(),
        // Filters
        route::<filters::list_filters::ListFilters>(),
        route::<filters::create_filter::CreateFilter>(),
        route::<filters::get_filter::GetFilter>(),
        route::<filters::update_filter::UpdateFilter>(),
        route::<filters::delete_filter::DeleteFilter>(),
        route::<filters::list_filter_keywords::ListFilterKeywords>(),
        route::<filters::add_filter_keyword::AddFilterKeyword>(),
        route::<filters::get_filter_keyword::GetFilterKeyword>(),
        route::<filters::update_filter_keyword::UpdateFilterKeyword>(),
        route::<filters::delete_filter_keyword::DeleteFilterKeyword>(),
        route::<filters::list_filter_statuses::ListFilterStatuses>(),
        route::<filters::add_filter_status::AddFilterStatus>(),
        route::<filters::get_filter_status::GetFilterStatus>(),
        route::<filters::delete_filter_status::DeleteFilterStatus>(),
        route::<filters_v1::list_filters_v1::ListFiltersV1>(),
        route::<filters_v1::create_filter_v1::CreateFilterV1>(),
        route::<filters_v1::get_filter_v1::GetFilterV1>(),
        route::<filters_v1::update_filter_v1::UpdateFilterV1>(),
        route::<filters_v1::delete_filter_v1::DeleteFilterV1>(),
        route::<notification_requests::get_notification_policy::GetNotificationPolicy>(),
        route::<notification_requests::update_notification_policy::UpdateNotificationPolicy>(),
        route::<notification_requests::list_notification_requests::ListNotificationRequests>(),
        route::<notification_requests::get_notification_request::GetNotificationRequest>(),
        route::<notification_requests::accept_notification_request::AcceptNotificationRequest>(),
        route::<notification_requests::dismiss_notification_request::DismissNotificationRequest>(),
        route::<notification_requests::accept_notification_requests::AcceptNotificationRequests>(),
        route::<notification_requests::dismiss_notification_requests::DismissNotificationRequests>(
        ),
        route::<notification_requests::notification_requests_merged::NotificationRequestsMerged>(),
        // Markers
        route::<markers::get_markers::GetMarkers>(),
        route::<markers::save_markers::SaveMarkers>(),
        // Instance
        route::<instance::instance_v1::InstanceV1>(),
        route::<instance::instance_v2::InstanceV2>(),
        route::<instance::instance_peers::InstancePeers>(),
        route::<instance::instance_activity::InstanceActivity>(),
        route::<instance::instance_rules::InstanceRules>(),
        route::<instance::translation_languages::TranslationLanguages>(),
        route::<instance::nodeinfo_discovery::NodeinfoDiscovery>(),
        route::<instance::nodeinfo::Nodeinfo>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_is_unique() {
        let mut seen = std::collections::HashSet::new();
        for r in routes() {
            assert!(
                seen.insert((r.method.clone(), r.path)),
                "duplicate route {r:?}"
            );
            assert!(r.path.starts_with('/'), "{r:?}");
        }
    }

    #[test]
    fn fill_path_substitutes_params() {
        assert_eq!(
            fill_path("/api/v1/statuses/:id/context", &[("id", "42")]),
            "/api/v1/statuses/42/context"
        );
    }
}

/// The request type of endpoints that take no parameters (unknown parameters are ignored).
#[derive(Debug, Default, serde::Deserialize)]
pub struct NoParams {}

/// Parses an id from a path; anything that is not an id cannot name a record, so it is a 404.
pub fn path_id(raw: &str) -> ApiResult<crate::Id> {
    raw.parse().map_err(|_| ApiError::not_found())
}
