//! What fedblog says about the Mastodon endpoints of the reference (`endpoints.tsv`) that the
//! route table does not answer by their own spelling: the rows it does not serve, each with its
//! reason, and the rows it serves under another spelling. Data only; the README's compatibility
//! table is generated from it, the route table and [`super::REMOVED_ENDPOINTS`] by
//! `fedblog-server/tests/compatibility_table.rs`, which also holds it to the reference and the
//! route table (a row built later must leave [`NOT_SERVED`]).
//!
//! Paths are written as the reference writes them; a path parameter matches a route's whatever
//! its name (`/api/v1/tags/:name` is the route `/api/v1/tags/:id`).

/// Reason of the collections rows: a feature of a Mastodon newer than the one fedblog reports.
macro_rules! collections_reason {
    () => {
        "collections of accounts (featured collections), added in Mastodon 4.6.0 and documented \
         for it at docs.joinmastodon.org/methods/collections: newer than the version fedblog \
         reports (4.5.0), and fedblog keeps no collections of accounts"
    };
}

/// Rows of the reference that fedblog neither serves nor answers as removed: method, path as the
/// reference writes it, and why.
pub const NOT_SERVED: &[(&str, &str, &str)] = &[
    // Annual reports ("Wrapstodon"): Mastodon makes a user's report of a year once, by a
    // background job, for users active enough the year before, ranks it against every other
    // user's report of that year (`percentiles`), and keeps it with its read state; the
    // reads answer only what was generated.
    (
        "GET",
        "/api/v1/annual_reports",
        "fedblog generates and keeps no annual reports: Mastodon's are made once a year by a \
         background job for the users eligible then and hold percentiles against every other \
         user's kept report, which fedblog cannot compute honestly without keeping them; the \
         list would always be empty",
    ),
    (
        "GET",
        "/api/v1/annual_reports/:year",
        "fedblog generates and keeps no annual reports (see `GET /api/v1/annual_reports`)",
    ),
    (
        "GET",
        "/api/v1/annual_reports/:year/state",
        "Mastodon 4.6, newer than the version fedblog reports; fedblog generates no annual \
         reports (see `GET /api/v1/annual_reports`)",
    ),
    (
        "POST",
        "/api/v1/annual_reports/:year/read",
        "fedblog generates and keeps no annual reports, so there is none to mark read (see \
         `GET /api/v1/annual_reports`)",
    ),
    (
        "POST",
        "/api/v1/annual_reports/:year/generate",
        "Mastodon 4.6, newer than the version fedblog reports; fedblog generates no annual \
         reports (see `GET /api/v1/annual_reports`)",
    ),
    // Async refreshes: Mastodon answers some reads with a `Mastodon-Async-Refresh` header while
    // a background job (a timeline rebuilt, remote replies fetched) runs; a client polls this.
    (
        "GET",
        "/api/v1_alpha/async_refreshes/:id",
        "experimental in Mastodon (v1_alpha); fedblog runs no background refresh a client could \
         wait for and never sends `Mastodon-Async-Refresh`",
    ),
    // Collections (Mastodon 4.6)
    ("POST", "/api/v1/collections", collections_reason!()),
    ("GET", "/api/v1/collections/:id", collections_reason!()),
    (
        "GET",
        "/api/v1/accounts/:account_id/collections",
        collections_reason!(),
    ),
    (
        "GET",
        "/api/v1/accounts/:account_id/in_collections",
        collections_reason!(),
    ),
    ("PATCH", "/api/v1/collections/:id", collections_reason!()),
    ("DELETE", "/api/v1/collections/:id", collections_reason!()),
    (
        "POST",
        "/api/v1/collections/:collection_id/items",
        collections_reason!(),
    ),
    (
        "DELETE",
        "/api/v1/collections/:collection_id/items/:id",
        collections_reason!(),
    ),
    (
        "POST",
        "/api/v1/collections/:collection_id/items/:id/revoke",
        collections_reason!(),
    ),
    (
        "GET",
        "/api/v1_alpha/collections/:id",
        "the pre-release path of `GET /api/v1/collections/:id` (undocumented, kept by Mastodon \
         4.6 until apps move to `/api/v1`); fedblog serves neither (see `GET \
         /api/v1/collections/:id`)",
    ),
    // Profile (Mastodon 4.6; the profile is edited through update_credentials)
    (
        "GET",
        "/api/v1/profile",
        "Mastodon 4.6 (API version 8), newer than the version fedblog reports: its `Profile` \
         holds settings fedblog does not keep (avatar and header descriptions, `show_media`, \
         `show_media_replies`, `show_featured`, `attribution_domains`); the same profile is read \
         with `GET /api/v1/accounts/verify_credentials`",
    ),
    (
        "PATCH",
        "/api/v1/profile",
        "Mastodon 4.6 (API version 8), newer than the version fedblog reports: it sets settings \
         fedblog does not keep (avatar and header descriptions, `show_media`, \
         `show_media_replies`, `show_featured`, `attribution_domains`); the rest of the profile \
         is edited with `PATCH /api/v1/accounts/update_credentials`",
    ),
    // Trends
    // Mastodon's own web interface, which signs in with a session cookie rather than a token.
    (
        "PUT",
        "/api/web/settings",
        "the settings of Mastodon's own web interface (session cookie); fedblog has no web \
         interface",
    ),
    (
        "GET",
        "/api/web/embeds/:id",
        "the embed code of Mastodon's own web interface (session cookie); fedblog has no web \
         interface",
    ),
    (
        "POST",
        "/api/web/push_subscriptions",
        "the browser push subscription of Mastodon's own web interface (session cookie); fedblog \
         has no web interface, and apps use `/api/v1/push/subscription`",
    ),
    (
        "PUT",
        "/api/web/push_subscriptions/:id",
        "the browser push subscription of Mastodon's own web interface (session cookie); fedblog \
         has no web interface, and apps use `/api/v1/push/subscription`",
    ),
    // Fediverse Auxiliary Service Providers: Mastodon routes these only when the experimental
    // feature is on (`EXPERIMENTAL_FEATURES=fasp`) and answers 404 otherwise.
    (
        "POST",
        "/api/fasp/registration",
        "Fediverse Auxiliary Service Providers, experimental in Mastodon (404 unless \
         `EXPERIMENTAL_FEATURES` has `fasp`); fedblog works with no such provider",
    ),
    (
        "POST",
        "/api/fasp/debug/v0/callback/responses",
        "the debugging callback of Fediverse Auxiliary Service Providers, experimental in \
         Mastodon; fedblog works with no such provider",
    ),
    // OAuth
    (
        "GET",
        "/oauth/authorize/native",
        "the out-of-band code (`urn:ietf:wg:oauth:2.0:oob`) is shown in the answer to the \
         consent form (`POST /oauth/authorize`), not on a page of its own",
    ),
    (
        "DELETE",
        "/oauth/authorize",
        "denying is the consent form's `decision=deny`, sent with `POST /oauth/authorize` (a \
         browser form sends no DELETE)",
    ),
    (
        "GET",
        "/oauth/authorized_applications",
        "a page of Mastodon's signed-in web session; fedblog keeps no browser session (an app \
         gives up its token with `POST /oauth/revoke`)",
    ),
    // Well-known redirects and pages of Mastodon's web interface
    (
        "GET",
        "/.well-known/proxy",
        "a redirect to `/authorize_interaction`, which fedblog does not serve",
    ),
    (
        "GET",
        "/manifest",
        "the web app manifest of Mastodon's web interface; fedblog has no web interface",
    ),
    // ActivityPub
    (
        "GET",
        "/ap/users/:id",
        "fedblog's actors are `/users/:username`; it writes no numeric-id actor URIs (Mastodon \
         4.4 may)",
    ),
    // HTML pages
    (
        "GET",
        "/authorize_interaction",
        "the remote follow and interaction page of Mastodon's signed-in web session; fedblog \
         keeps no browser session",
    ),
];

/// Rows of the reference served by a route spelled otherwise: method, path as the reference
/// writes it, and the path of the route that serves it.
pub const PATH_ALIASES: &[(&str, &str, &str)] = &[
    // The reference lists the WebSocket upgrade as a row of its own. It is the route
    // `GET /api/v1/streaming` (`streaming/stream_websocket.rs`): asked with an upgrade, the
    // transport carries its streams over the socket (`fedblog-server/src/http/websocket.rs`);
    // without one, as server-sent events.
    (
        "GET",
        "/api/v1/streaming (WebSocket upgrade)",
        "/api/v1/streaming",
    ),
];
