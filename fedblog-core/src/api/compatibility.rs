//! What fedblog says about the Mastodon endpoints of the reference (`endpoints.tsv`) that the
//! route table does not answer by their own spelling: the rows it does not serve, each with its
//! reason, and the rows it serves under another spelling. Data only; the README's compatibility
//! table is generated from it, the route table and [`super::REMOVED_ENDPOINTS`] by
//! `fedblog-server/tests/compatibility_table.rs`, which also holds it to the reference and the
//! route table (a row built later must leave [`NOT_SERVED`]).
//!
//! Paths are written as the reference writes them; a path parameter matches a route's whatever
//! its name (`/api/v1/tags/:name` is the route `/api/v1/tags/:id`).

/// Reason of the rows that wait for issue 28 (the rest of the Mastodon API).
macro_rules! not_yet {
    ($what:literal) => {
        concat!("not yet: ", $what, " (issue 28)")
    };
}

/// Rows of the reference that fedblog neither serves nor answers as removed: method, path as the
/// reference writes it, and why.
pub const NOT_SERVED: &[(&str, &str, &str)] = &[
    // Accounts
    (
        "GET",
        "/api/v1/accounts/:id/identity_proofs",
        "Mastodon dropped identity proofs and answers an empty list; not yet (issue 28)",
    ),
    // Announcements
    ("GET", "/api/v1/announcements", not_yet!("announcements")),
    (
        "POST",
        "/api/v1/announcements/:id/dismiss",
        not_yet!("announcements"),
    ),
    (
        "PUT",
        "/api/v1/announcements/:id/reactions/:name",
        not_yet!("announcements"),
    ),
    (
        "DELETE",
        "/api/v1/announcements/:id/reactions/:name",
        not_yet!("announcements"),
    ),
    // Annual reports
    ("GET", "/api/v1/annual_reports", not_yet!("annual reports")),
    (
        "GET",
        "/api/v1/annual_reports/:year",
        not_yet!("annual reports"),
    ),
    (
        "GET",
        "/api/v1/annual_reports/:year/state",
        not_yet!("annual reports; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "POST",
        "/api/v1/annual_reports/:year/read",
        not_yet!("annual reports"),
    ),
    (
        "POST",
        "/api/v1/annual_reports/:year/generate",
        not_yet!("annual reports; Mastodon 4.6, newer than the version fedblog reports"),
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
    (
        "POST",
        "/api/v1/collections",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "GET",
        "/api/v1/collections/:id",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "GET",
        "/api/v1/accounts/:account_id/collections",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "GET",
        "/api/v1/accounts/:account_id/in_collections",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "PATCH",
        "/api/v1/collections/:id",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "DELETE",
        "/api/v1/collections/:id",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "POST",
        "/api/v1/collections/:collection_id/items",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "DELETE",
        "/api/v1/collections/:collection_id/items/:id",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "POST",
        "/api/v1/collections/:collection_id/items/:id/revoke",
        not_yet!("collections; Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "GET",
        "/api/v1_alpha/collections/:id",
        not_yet!("collections, under their pre-release path"),
    ),
    // Custom emojis
    ("GET", "/api/v1/custom_emojis", not_yet!("custom emojis")),
    // oEmbed
    ("GET", "/api/oembed", not_yet!("oEmbed")),
    // Profile (Mastodon 4.6; the profile is edited through update_credentials)
    (
        "GET",
        "/api/v1/profile",
        not_yet!("Mastodon 4.6, newer than the version fedblog reports"),
    ),
    (
        "PATCH",
        "/api/v1/profile",
        not_yet!("Mastodon 4.6, newer than the version fedblog reports"),
    ),
    // Quote posts (Mastodon 4.5)
    (
        "GET",
        "/api/v1/statuses/:id/quotes",
        not_yet!("quote posts"),
    ),
    (
        "POST",
        "/api/v1/statuses/:id/quotes/:quoting_status_id/revoke",
        not_yet!("quote posts"),
    ),
    (
        "PUT",
        "/api/v1/statuses/:id/interaction_policy",
        not_yet!("quote posts"),
    ),
    // Trends
    ("GET", "/api/v1/trends/tags", not_yet!("trends")),
    ("GET", "/api/v1/trends/statuses", not_yet!("trends")),
    ("GET", "/api/v1/trends/links", not_yet!("trends")),
    (
        "GET",
        "/api/v1/trends",
        not_yet!("trends; the old path of the trending tags"),
    ),
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
        "/.well-known/change-password",
        not_yet!("the redirect to the password page"),
    ),
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
        "/users/:username/quote_authorizations/:id",
        not_yet!("quote posts"),
    ),
    (
        "GET",
        "/users/:username/statuses/:id/activity",
        "not yet (issue 28): the `Create` or `Announce` of a status, whose id fedblog writes \
         but does not answer",
    ),
    (
        "GET",
        "/users/:username/statuses/:id/likes",
        not_yet!("the likes collection of a status"),
    ),
    (
        "GET",
        "/users/:username/statuses/:id/shares",
        not_yet!("the shares collection of a status"),
    ),
    (
        "GET",
        "/ap/users/:id",
        "fedblog's actors are `/users/:username`; it writes no numeric-id actor URIs (Mastodon \
         4.4 may)",
    ),
    (
        "GET",
        "/contexts/:id",
        not_yet!("conversation contexts of Mastodon 4.5"),
    ),
    (
        "GET",
        "/contexts/:id/items",
        not_yet!("conversation contexts of Mastodon 4.5"),
    ),
    // HTML pages
    ("GET", "/@:username/:id/embed", not_yet!("embeds")),
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
