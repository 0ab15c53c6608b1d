//! Where a local actor's ActivityPub documents live, as Mastodon lays them out: one place that
//! writes the URLs and reads them back.

use crate::id::Id;
use crate::store::AccountRecord;

/// The ActivityPub id of any account: a remote one's `uri`, a local one's actor URL.
pub fn account_actor(base: &str, account: &AccountRecord) -> String {
    match &account.uri {
        Some(uri) => uri.clone(),
        None => actor(base, &account.username),
    }
}

/// The actor of the local account `username`: `BASE/users/username`.
pub fn actor(base: &str, username: &str) -> String {
    format!("{base}/users/{username}")
}

/// Its public key's id (`keyId` of its signatures).
pub fn key_id(actor_url: &str) -> String {
    format!("{actor_url}#main-key")
}

/// Its inbox.
pub fn inbox(actor_url: &str) -> String {
    format!("{actor_url}/inbox")
}

/// Its outbox.
pub fn outbox(actor_url: &str) -> String {
    format!("{actor_url}/outbox")
}

/// Its followers collection.
pub fn followers(actor_url: &str) -> String {
    format!("{actor_url}/followers")
}

/// Its following collection.
pub fn following(actor_url: &str) -> String {
    format!("{actor_url}/following")
}

/// Its pinned posts.
pub fn featured(actor_url: &str) -> String {
    format!("{actor_url}/collections/featured")
}

/// Its featured hashtags.
pub fn featured_tags(actor_url: &str) -> String {
    format!("{actor_url}/collections/tags")
}

/// The shared inbox of this server.
pub fn shared_inbox(base: &str) -> String {
    format!("{base}/inbox")
}

/// The instance actor, which signs fetches made on nobody's behalf.
pub fn instance_actor(base: &str) -> String {
    format!("{base}/actor")
}

/// A local status: `BASE/users/username/statuses/id`.
pub fn status(base: &str, username: &str, id: Id) -> String {
    format!("{}/statuses/{id}", actor(base, username))
}

/// A local status's replies collection.
pub fn replies(status_url: &str) -> String {
    format!("{status_url}/replies")
}

/// A page of a local status's replies collection (`replies`, see [`replies`]), as Mastodon
/// pages it: the author's own replies, or with `others` everyone else's; newer than `min_id`.
pub fn replies_page(replies: &str, others: bool, min_id: Option<Id>) -> String {
    let mut url = format!("{replies}?page=true");
    if others {
        url.push_str("&only_other_accounts=true");
    }
    if let Some(m) = min_id {
        url.push_str(&format!("&min_id={m}"));
    }
    url
}

/// The thread a local status starts, as Mastodon names its conversations to other servers
/// (`conversation` and `context` of a note): a tag URI of this server's `domain`, dated by the
/// thread's first status (whose id is the thread's id).
/// `tag:example.com,2024-03-01:objectId=123:objectType=Conversation`
pub fn conversation(domain: &str, thread: Id) -> String {
    let date = chrono::DateTime::from_timestamp_millis(thread.millis())
        .unwrap_or_default()
        .format("%Y-%m-%d");
    format!("tag:{domain},{date}:objectId={thread}:objectType=Conversation")
}

/// The context of a local thread (`context` of its notes, Mastodon 4.5's conversation
/// contexts): `BASE/contexts/ACCOUNT-THREAD`, named by the id of the account that began it and
/// the thread's id (its first status's), so it never changes while the thread lasts.
pub fn context(base: &str, account: Id, thread: Id) -> String {
    format!("{base}/contexts/{account}-{thread}")
}

/// A context's items collection.
pub fn context_items(context_url: &str) -> String {
    format!("{context_url}/items")
}

/// A page of a context's items collection (`items`, see [`context_items`]): the thread's
/// statuses after `min_id` (from its first, without one).
pub fn context_items_page(items: &str, min_id: Option<Id>) -> String {
    match min_id {
        Some(m) => format!("{items}?page=true&min_id={m}"),
        None => format!("{items}?page=true"),
    }
}

/// The account and thread a context's id (`ACCOUNT-THREAD`, see [`context`]) names.
pub fn parse_context_id(id: &str) -> Option<(Id, Id)> {
    let (account, thread) = id.split_once('-')?;
    Some((account.parse().ok()?, thread.parse().ok()?))
}

/// The thread of ours a conversation's name (one [`conversation`] or [`context`] wrote for
/// `domain`) gives, as other servers send it back on their replies.
pub fn parse_conversation(domain: &str, uri: &str) -> Option<Id> {
    if let Some(id) = [
        format!("https://{domain}/contexts/"),
        format!("http://{domain}/contexts/"),
    ]
    .iter()
    .find_map(|prefix| strip_prefix_ignore_case(uri, prefix))
    {
        return parse_context_id(id).map(|(_, thread)| thread);
    }
    let rest = uri.strip_prefix("tag:")?;
    let (named, rest) = rest.split_once(',')?;
    if !named.eq_ignore_ascii_case(domain) {
        return None;
    }
    let (_date, rest) = rest.split_once(":objectId=")?;
    rest.strip_suffix(":objectType=Conversation")?.parse().ok()
}

/// `text` without `prefix`, matched ignoring ASCII case (a host's case does not matter).
fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// The activity that created (or, for a reblog, announced) a local status.
pub fn status_activity(status_url: &str) -> String {
    format!("{status_url}/activity")
}

/// An activity of a local actor that has no other home (a follow, a like, an undo, an
/// acceptance...): `actor#kind/id`, as Mastodon writes them.
pub fn activity(actor_url: &str, kind: &str, id: Id) -> String {
    format!("{actor_url}#{kind}/{id}")
}

/// The `QuoteAuthorization` (FEP-044f) by which the local actor at `actor_url` approved quote
/// `quote_id` of one of its statuses.
pub fn quote_authorization(actor_url: &str, quote_id: Id) -> String {
    format!("{actor_url}/quote_authorizations/{quote_id}")
}

/// What a URL of this server names, for the URLs other servers send back to us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Local {
    /// A local actor, by username.
    Actor(String),
    /// A local status, by id.
    Status(Id),
    /// The instance actor.
    InstanceActor,
}

/// What `url` names on the server at `base`, if it is one of ours (`BASE/users/name`,
/// `BASE/@name`, `BASE/users/name/statuses/id`, `BASE/@name/id`, `BASE/actor`). A fragment is
/// ignored, so a key id names its actor.
pub fn parse_local(base: &str, url: &str) -> Option<Local> {
    let url = url.split('#').next().unwrap_or(url);
    let path = url.strip_prefix(base)?;
    if path == "/actor" {
        return Some(Local::InstanceActor);
    }
    let rest = path
        .strip_prefix("/users/")
        .or_else(|| path.strip_prefix("/@"))?;
    let mut parts = rest.split('/');
    let name = parts.next().filter(|n| !n.is_empty())?;
    match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => Some(Local::Actor(name.to_string())),
        (Some("statuses"), Some(id), None) => id.parse().ok().map(Local::Status),
        (Some(id), None, _) if path.starts_with("/@") => id.parse().ok().map(Local::Status),
        _ => None,
    }
}

/// The host (with its port, if any) of an absolute URL, lower-cased.
pub fn host_of(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?;
    (!authority.is_empty()).then(|| authority.to_ascii_lowercase())
}

/// The scheme a server at `host` is reached with when only its name is known (a handle's
/// domain): `http` for loopback names and addresses, as tests run them, `https` otherwise.
pub fn scheme_for(host: &str) -> &'static str {
    let name = host
        .rsplit_once(':')
        .filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit()))
        .map_or(host, |(name, _)| name);
    let name = name.trim_start_matches('[').trim_end_matches(']');
    if name == "localhost" || name.starts_with("127.") || name == "::1" {
        "http"
    } else {
        "https"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://example.test";

    #[test]
    fn local_urls_are_read_back() {
        let alice = actor(BASE, "alice");
        assert_eq!(
            parse_local(BASE, &alice),
            Some(Local::Actor("alice".into()))
        );
        assert_eq!(
            parse_local(BASE, &key_id(&alice)),
            Some(Local::Actor("alice".into()))
        );
        assert_eq!(
            parse_local(BASE, &status(BASE, "alice", Id(42))),
            Some(Local::Status(Id(42)))
        );
        assert_eq!(
            parse_local(BASE, "https://example.test/@alice/42"),
            Some(Local::Status(Id(42)))
        );
        assert_eq!(
            parse_local(BASE, "https://example.test/@alice"),
            Some(Local::Actor("alice".into()))
        );
        assert_eq!(
            parse_local(BASE, &instance_actor(BASE)),
            Some(Local::InstanceActor)
        );
        assert_eq!(parse_local(BASE, "https://other.test/users/alice"), None);
        assert_eq!(parse_local(BASE, &inbox(&alice)), None);
        assert_eq!(parse_local(BASE, "https://example.test/@alice/x"), None);
        let status = status(BASE, "alice", Id(42));
        assert_eq!(parse_local(BASE, &replies(&status)), None);
    }

    #[test]
    fn conversations_are_tag_uris_read_back() {
        // 2024-03-01T00:00:00Z in milliseconds.
        let thread = Id::floor_at_millis(1_709_251_200_000);
        let uri = conversation("example.test", thread);
        assert_eq!(
            uri,
            format!("tag:example.test,2024-03-01:objectId={thread}:objectType=Conversation")
        );
        assert_eq!(parse_conversation("example.test", &uri), Some(thread));
        assert_eq!(parse_conversation("EXAMPLE.test", &uri), Some(thread));
        assert_eq!(parse_conversation("other.test", &uri), None);
        assert_eq!(
            parse_conversation("example.test", "https://example.test/contexts/1"),
            None
        );
        let context = context("https://example.test", Id(7), thread);
        assert_eq!(context, format!("https://example.test/contexts/7-{thread}"));
        assert_eq!(parse_conversation("example.test", &context), Some(thread));
        assert_eq!(parse_conversation("EXAMPLE.test", &context), Some(thread));
        assert_eq!(parse_conversation("other.test", &context), None);
        assert_eq!(
            parse_context_id(&format!("7-{thread}")),
            Some((Id(7), thread))
        );
        assert_eq!(parse_context_id("7"), None);
        assert_eq!(parse_context_id("7-x"), None);
        assert_eq!(
            context_items_page(&context_items(&context), Some(Id(9))),
            format!("{context}/items?page=true&min_id=9")
        );
        assert_eq!(
            parse_conversation(
                "example.test",
                "tag:example.test,2024-03-01:objectId=x:objectType=Conversation"
            ),
            None
        );
    }

    #[test]
    fn hosts_and_schemes() {
        assert_eq!(
            host_of("https://A.test:8443/x?y"),
            Some("a.test:8443".into())
        );
        assert_eq!(
            host_of("http://127.0.0.1:3000"),
            Some("127.0.0.1:3000".into())
        );
        assert_eq!(host_of("ftp://a.test/"), None);
        assert_eq!(scheme_for("127.0.0.1:3000"), "http");
        assert_eq!(scheme_for("localhost"), "http");
        assert_eq!(scheme_for("[::1]:80"), "http");
        assert_eq!(scheme_for("mastodon.social"), "https");
    }
}
