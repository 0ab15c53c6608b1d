//! ActivityStreams 2.0 documents as Mastodon sends and reads them: pure functions, JSON in and
//! JSON out.
//!
//! Reading is lenient about shapes, as the fediverse needs: a property may hold one value or an
//! array, an object or only its id, a `Link` where a URL was expected; optional properties may be
//! missing. It is strict about what a document cannot do without (an actor's inbox and key, a
//! note's id and author) and says which property was wrong in a [`VocabError`].
//!
//! Writing follows Mastodon 4.x's output (`@context`, property names, `tag` and `attachment`
//! shapes, addressing), so other servers read our documents as they read Mastodon's.
//! <https://docs.joinmastodon.org/spec/activitypub/>

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};
use serde_json::{Map, Value, json};

use crate::store::Visibility;

/// The ActivityStreams 2.0 JSON-LD context.
pub const ACTIVITY_STREAMS: &str = "https://www.w3.org/ns/activitystreams";

/// The Security Vocabulary v1 context (`publicKey`, `publicKeyPem`, `owner`).
pub const SECURITY_V1: &str = "https://w3id.org/security/v1";

/// The public collection: addressing it makes a post public (in `to`) or unlisted (in `cc`).
pub const PUBLIC: &str = "https://www.w3.org/ns/activitystreams#Public";

/// Mastodon's JSON-LD namespace (`toot:`).
pub const TOOT: &str = "http://joinmastodon.org/ns#";

/// The ActivityPub media type, sent as `Content-Type` of deliveries and served documents.
pub const ACTIVITY_JSON: &str = "application/activity+json";

/// The JSON-LD media type with the ActivityStreams profile, the other media type ActivityPub
/// names (sent as `Accept` when fetching).
pub const LD_JSON: &str = "application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\"";

/// The actor types Mastodon accepts.
pub const ACTOR_TYPES: [&str; 5] = ["Person", "Service", "Application", "Group", "Organization"];

/// The object types Mastodon turns into statuses (`Note` and `Question` natively, the others
/// converted as best it can).
pub const NOTE_TYPES: [&str; 8] = [
    "Note", "Question", "Article", "Page", "Image", "Audio", "Video", "Event",
];

/// Whether `uri` names the public collection, in any of the spellings Mastodon accepts
/// (the full IRI, the compacted `as:Public`, or `Public`).
pub fn is_public(uri: &str) -> bool {
    uri == PUBLIC || uri == "as:Public" || uri == "Public"
}

/// Why a document is not what it was read as.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VocabError {
    /// The document is not a JSON object.
    #[error("the {0} is not a JSON object")]
    NotAnObject(&'static str),
    /// A required property is missing, empty or of the wrong shape.
    #[error("the {what} has no usable `{field}`")]
    Missing {
        /// What was being read (`actor`, `note`, `activity`).
        what: &'static str,
        /// The property.
        field: &'static str,
    },
    /// The document's `type` is not one this reader takes.
    #[error("`{found}` is not a supported {what} type")]
    UnsupportedType {
        /// What was being read.
        what: &'static str,
        /// The type(s) found, as sent.
        found: String,
    },
    /// A property is present but unusable.
    #[error("the {what}'s `{field}` is invalid: {reason}")]
    Invalid {
        /// What was being read.
        what: &'static str,
        /// The property.
        field: &'static str,
        /// Why.
        reason: String,
    },
}

// ---------------------------------------------------------------------------------------------
// Content negotiation
// ---------------------------------------------------------------------------------------------

/// Splits a header on `sep`, except inside double quotes (a `profile` may be quoted).
fn split_unquoted(s: &str, sep: char) -> Vec<&str> {
    let mut parts = vec![];
    let mut quoted = false;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            c if c == sep && !quoted => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// The media type of a header value (`type/subtype`, lower-cased, parameters dropped).
fn essence(media_type: &str) -> String {
    split_unquoted(media_type, ';')
        .first()
        .map(|e| e.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

/// The media types that ask for (or carry) ActivityStreams JSON: Mastodon treats
/// `application/activity+json`, `application/ld+json` (whatever its profile) and
/// `application/json` as one format.
fn is_activity_essence(essence: &str) -> bool {
    matches!(
        essence,
        "application/activity+json" | "application/ld+json" | "application/json"
    )
}

/// Whether a request with this `Accept` header gets ActivityStreams JSON rather than an HTML
/// page. True when `application/activity+json` or `application/ld+json` (with the
/// ActivityStreams profile or any other, as Mastodon ignores it) is asked for, and also for
/// `application/json`, which Mastodon answers with the same JSON; false without an `Accept`,
/// for `*/*` alone and for browsers. When both JSON and `text/html` (or `application/xhtml+xml`,
/// `text/*`) are listed, the higher `q` wins, and the one listed first on a tie; wildcards
/// never choose JSON.
pub fn wants_activity_json(accept: Option<&str>) -> bool {
    let Some(accept) = accept else {
        return false;
    };
    // (q, position) of the best JSON and the best page media range.
    let mut json: Option<(f64, usize)> = None;
    let mut page: Option<(f64, usize)> = None;
    for (i, range) in split_unquoted(accept, ',').into_iter().enumerate() {
        let mut parts = split_unquoted(range, ';').into_iter();
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        if media.is_empty() {
            continue;
        }
        let mut q = 1.0_f64;
        for param in parts {
            if let Some((name, value)) = param.split_once('=')
                && name.trim().eq_ignore_ascii_case("q")
            {
                q = value.trim().parse::<f64>().unwrap_or(1.0).clamp(0.0, 1.0);
            }
        }
        if q <= 0.0 {
            continue;
        }
        let slot = if is_activity_essence(&media) {
            &mut json
        } else if matches!(
            media.as_str(),
            "text/html" | "application/xhtml+xml" | "text/*"
        ) {
            &mut page
        } else {
            continue;
        };
        if slot.is_none_or(|(best, _)| q > best) {
            *slot = Some((q, i));
        }
    }
    match (json, page) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some((jq, ji)), Some((pq, pi))) => jq > pq || (jq == pq && ji < pi),
    }
}

/// Whether the `Content-Type` of a POST to an inbox is one an activity may come in:
/// `application/activity+json`, `application/ld+json` with any parameters, and, leniently,
/// plain `application/json`.
pub fn is_activity_content_type(ct: &str) -> bool {
    is_activity_essence(&essence(ct))
}

// ---------------------------------------------------------------------------------------------
// Lenient readers
// ---------------------------------------------------------------------------------------------

/// A property that may hold one value or an array, as a list: nothing for `null` (or a missing
/// property), the elements of an array, or the value alone.
pub fn one_or_many(v: &Value) -> Vec<&Value> {
    match v {
        Value::Null => vec![],
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    }
}

/// A non-empty string, or the first non-empty string of an array.
pub fn first_str(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s),
        Value::Array(items) => items.iter().find_map(|i| match i {
            Value::String(s) if !s.is_empty() => Some(s.as_str()),
            _ => None,
        }),
        _ => None,
    }
}

/// A non-empty string property of an object, owned.
fn string_field(v: &Value, key: &str) -> Option<String> {
    match v.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// The types of an object (`type` may be one string or several); empty for anything else.
pub fn types_of(v: &Value) -> Vec<&str> {
    one_or_many(v.get("type").unwrap_or(&Value::Null))
        .into_iter()
        .filter_map(Value::as_str)
        .filter(|s| !s.is_empty())
        .collect()
}

/// The (first) type of an object.
pub fn type_of(v: &Value) -> Option<&str> {
    types_of(v).into_iter().next()
}

/// What a reference points at: a non-empty string itself, an object's `id`, or a `Link`'s
/// `href`; for an array, the first element that has one.
pub fn id_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Object(_) => string_field(v, "id").or_else(|| string_field(v, "href")),
        Value::Array(items) => items.iter().find_map(id_of),
        _ => None,
    }
}

/// Every reference of a property that may hold one or many, strings or objects (as `to`,
/// `cc`, `alsoKnownAs`), in order; elements without an id are skipped.
pub fn uris(v: &Value) -> Vec<String> {
    one_or_many(v).into_iter().filter_map(id_of).collect()
}

/// A URL from a `url`-like property, as Mastodon reads one: a string; an array of strings
/// (the first); a `Link` object (its `href`); or an array of `Link`s, where with `preferred`
/// the first whose `mediaType` (or `mimeType`; text/html when absent) is that one is taken, and
/// none if none is.
pub fn href_of(v: &Value, preferred: Option<&str>) -> Option<String> {
    let link_href = |l: &Value| string_field(l, "href").or_else(|| string_field(l, "url"));
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Object(_) => link_href(v),
        Value::Array(items) => match items.first() {
            Some(Value::String(_)) => first_str(v).map(str::to_string),
            Some(_) => items
                .iter()
                .filter(|l| {
                    let Some(want) = preferred else {
                        return true;
                    };
                    let media = first_str(l.get("mediaType").unwrap_or(&Value::Null))
                        .or_else(|| first_str(l.get("mimeType").unwrap_or(&Value::Null)))
                        .unwrap_or("text/html");
                    essence(media) == want
                })
                .find_map(|l| match l {
                    Value::String(s) if !s.is_empty() => Some(s.clone()),
                    other => link_href(other),
                }),
            None => None,
        },
        _ => None,
    }
}

/// A timestamp: RFC 3339, or (leniently) without an offset, read as UTC.
pub fn parse_time(v: &Value) -> Option<DateTime<Utc>> {
    let s = v.as_str()?.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&Utc));
    }
    ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
        .map(|t| t.and_utc())
}

/// A timestamp as Mastodon writes one: seconds, UTC, `Z` (`2024-05-01T12:00:00Z`).
pub fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// An embedded document without its own `@context`.
pub fn strip_context(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("@context");
    }
    v
}

/// A boolean property; `None` when absent or not a boolean (`"true"` strings are accepted).
fn bool_field(v: &Value, key: &str) -> Option<bool> {
    match v.get(key)? {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

/// A non-negative whole number that fits a `u32` (`1024` or `1024.0`).
fn u32_field(v: &Value, key: &str) -> Option<u32> {
    let n = v.get(key)?;
    if let Some(u) = n.as_u64() {
        return u32::try_from(u).ok();
    }
    let f = n.as_f64()?;
    (f.is_finite() && f >= 0.0 && f <= f64::from(u32::MAX)).then(|| f.round() as u32)
}

/// A natural-language property: the plain value when present and non-empty, else the first
/// value of its `…Map`, with the language that map names.
fn language_value(v: &Value, plain: &str, map: &str) -> (Option<String>, Option<String>) {
    let language_map = v
        .get(map)
        .and_then(Value::as_object)
        .filter(|m| !m.is_empty());
    let language = language_map.and_then(|m| m.keys().next().cloned());
    let text = string_field(v, plain).or_else(|| {
        language_map
            .and_then(|m| m.values().next())
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    (text, language)
}

/// The object a document is, or the error saying it is not one.
fn object<'a>(v: &'a Value, what: &'static str) -> Result<&'a Map<String, Value>, VocabError> {
    v.as_object().ok_or(VocabError::NotAnObject(what))
}

/// A required reference property.
fn required_id(v: &Value, what: &'static str, field: &'static str) -> Result<String, VocabError> {
    v.get(field)
        .and_then(id_of)
        .ok_or(VocabError::Missing { what, field })
}

/// The URL of an image property (`icon`, `image`): a URL, an `Image` with a `url` (a string or
/// `Link`s), a `Link`; the first of several.
fn image_url(v: &Value) -> Option<String> {
    let first = one_or_many(v).into_iter().next()?;
    match first {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Object(_) => first
            .get("url")
            .and_then(|u| href_of(u, None))
            .or_else(|| string_field(first, "href")),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Inbound documents
// ---------------------------------------------------------------------------------------------

/// A remote actor, as read from its document.
#[derive(Clone, Debug, PartialEq)]
pub struct Actor {
    /// Its id (an http(s) URL).
    pub id: String,
    /// `Person`, `Service`, `Application`, `Group` or `Organization`.
    pub kind: String,
    /// Its username (`preferredUsername`).
    pub preferred_username: String,
    /// Its display name.
    pub name: Option<String>,
    /// Its bio, as sent (HTML, not yet sanitised).
    pub summary_html: Option<String>,
    /// Its profile page (`url`, preferring a text/html link).
    pub url: Option<String>,
    /// Its inbox.
    pub inbox: String,
    /// Its server's shared inbox (`endpoints.sharedInbox`).
    pub shared_inbox: Option<String>,
    /// Its outbox.
    pub outbox: Option<String>,
    /// Its followers collection.
    pub followers: Option<String>,
    /// Its following collection.
    pub following: Option<String>,
    /// Its pinned posts (`featured`).
    pub featured: Option<String>,
    /// Its featured hashtags (`featuredTags`).
    pub featured_tags: Option<String>,
    /// Whether follows need its approval (`manuallyApprovesFollowers`, false when absent).
    pub manually_approves_followers: bool,
    /// Whether it may be featured in directories (`discoverable`; unknown when absent).
    pub discoverable: Option<bool>,
    /// Whether its posts may be indexed for search (`indexable`, false when absent).
    pub indexable: bool,
    /// The id of its public key (the `keyId` its signatures name).
    pub public_key_id: String,
    /// Its public key, PEM-encoded.
    pub public_key_pem: String,
    /// Its avatar URL.
    pub icon_url: Option<String>,
    /// Its header image URL.
    pub image_url: Option<String>,
    /// Its profile fields: name and value (HTML as sent), from `PropertyValue` attachments.
    pub fields: Vec<(String, String)>,
    /// When the account was created, if said.
    pub published: Option<DateTime<Utc>>,
    /// Its other identities (`alsoKnownAs`), for account moves.
    pub also_known_as: Vec<String>,
    /// The account it moved to (`movedTo`), if it has.
    pub moved_to: Option<String>,
    /// Whether it is automated (`Service` or `Application`).
    pub bot: bool,
    /// Whether its server suspended it (`suspended`, Mastodon's `toot:suspended`; false when
    /// absent). Its profile is then left out of the document.
    pub suspended: bool,
}

/// The `id` and the first `type` among `known` of an object (`what` names it in errors).
fn id_and_kind(
    v: &Value,
    what: &'static str,
    known: &[&str],
) -> Result<(String, String), VocabError> {
    object(v, what)?;
    let id = string_field(v, "id").ok_or(VocabError::Missing { what, field: "id" })?;
    let types = types_of(v);
    let kind = types
        .iter()
        .find(|t| known.contains(t))
        .map(|t| t.to_string())
        .ok_or_else(|| match types.is_empty() {
            true => VocabError::Missing {
                what,
                field: "type",
            },
            false => VocabError::UnsupportedType {
                what,
                found: types.join(", "),
            },
        })?;
    Ok((id, kind))
}

impl Actor {
    /// Reads an actor document. Requires an `id`, a known actor `type`, a `preferredUsername`,
    /// an `inbox` and a `publicKey` (one, or the first of several that has a `publicKeyPem`,
    /// whose `owner`, when given, is the actor).
    pub fn from_json(v: &Value) -> Result<Self, VocabError> {
        const WHAT: &str = "actor";
        let (id, kind) = id_and_kind(v, WHAT, &ACTOR_TYPES)?;
        let preferred_username =
            string_field(v, "preferredUsername").ok_or(VocabError::Missing {
                what: WHAT,
                field: "preferredUsername",
            })?;
        let inbox = required_id(v, WHAT, "inbox")?;
        let (public_key_id, public_key_pem) = public_key(v, &id)?;
        let optional_id = |key: &str| v.get(key).and_then(id_of);
        let fields = one_or_many(v.get("attachment").unwrap_or(&Value::Null))
            .into_iter()
            .filter(|a| types_of(a).contains(&"PropertyValue"))
            .filter_map(|a| {
                let name = a.get("name")?.as_str()?.to_string();
                let value = a.get("value")?.as_str()?.to_string();
                Some((name, value))
            })
            .collect();
        Ok(Actor {
            bot: matches!(kind.as_str(), "Service" | "Application"),
            name: v.get("name").and_then(Value::as_str).map(str::to_string),
            summary_html: v.get("summary").and_then(Value::as_str).map(str::to_string),
            url: v.get("url").and_then(|u| href_of(u, Some("text/html"))),
            shared_inbox: v
                .get("endpoints")
                .and_then(|e| e.get("sharedInbox"))
                .and_then(id_of),
            outbox: optional_id("outbox"),
            followers: optional_id("followers"),
            following: optional_id("following"),
            featured: optional_id("featured"),
            featured_tags: optional_id("featuredTags"),
            manually_approves_followers: bool_field(v, "manuallyApprovesFollowers")
                .unwrap_or(false),
            discoverable: bool_field(v, "discoverable"),
            indexable: bool_field(v, "indexable").unwrap_or(false),
            icon_url: v.get("icon").and_then(image_url),
            image_url: v.get("image").and_then(image_url),
            fields,
            published: v.get("published").and_then(parse_time),
            also_known_as: uris(v.get("alsoKnownAs").unwrap_or(&Value::Null)),
            moved_to: optional_id("movedTo"),
            suspended: bool_field(v, "suspended").unwrap_or(false),
            id,
            kind,
            preferred_username,
            inbox,
            public_key_id,
            public_key_pem,
        })
    }
}

/// The actor's key: the first `publicKey` with an id and a PEM whose owner (if said) is it.
fn public_key(v: &Value, actor_id: &str) -> Result<(String, String), VocabError> {
    let keys = one_or_many(v.get("publicKey").unwrap_or(&Value::Null));
    if keys.is_empty() {
        return Err(VocabError::Missing {
            what: "actor",
            field: "publicKey",
        });
    }
    let mut foreign = None;
    for key in keys {
        let (Some(id), Some(pem)) = (string_field(key, "id"), string_field(key, "publicKeyPem"))
        else {
            continue;
        };
        match key.get("owner").and_then(id_of) {
            Some(owner) if owner != actor_id => foreign = Some(owner),
            _ => return Ok((id, pem)),
        }
    }
    Err(match foreign {
        Some(owner) => VocabError::Invalid {
            what: "actor",
            field: "publicKey",
            reason: format!("the key belongs to {owner}, not to the actor"),
        },
        None => VocabError::Missing {
            what: "actor",
            field: "publicKey.publicKeyPem",
        },
    })
}

/// A `Mention` tag of a note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    /// The mentioned actor's id.
    pub href: String,
    /// How the note names it (`@user@domain`), if it does.
    pub name: Option<String>,
}

/// A custom emoji (`Emoji` tag) a note uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Emoji {
    /// Its shortcode, without colons.
    pub shortcode: String,
    /// Its image.
    pub url: String,
    /// Its ActivityPub id, if it has one.
    pub id: Option<String>,
    /// When it last changed, if said.
    pub updated: Option<DateTime<Utc>>,
}

/// A media attachment of a note.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// The file.
    pub url: String,
    /// Its media type (`image/png`...), if said.
    pub media_type: Option<String>,
    /// `Document`, `Image`, `Video`, `Audio`...
    pub kind: String,
    /// Its description (alt text): `summary`, else `name`.
    pub description: Option<String>,
    /// Its blurhash.
    pub blurhash: Option<String>,
    /// Its width in pixels.
    pub width: Option<u32>,
    /// Its height in pixels.
    pub height: Option<u32>,
    /// Its focal point, x and y in -1.0..=1.0.
    pub focal_point: Option<(f64, f64)>,
}

impl Attachment {
    /// Reads one attachment; `None` for a `Link` (a preview card) or one without a URL.
    pub fn from_json(v: &Value) -> Option<Self> {
        let kind = type_of(v).unwrap_or("Document").to_string();
        if kind == "Link" {
            return None;
        }
        let url = v.get("url").and_then(|u| href_of(u, None))?;
        let focal_point = v.get("focalPoint").and_then(Value::as_array).and_then(|p| {
            match (p.first()?.as_f64()?, p.get(1)?.as_f64()?) {
                (x, y) if x.is_finite() && y.is_finite() => Some((x, y)),
                _ => None,
            }
        });
        let media_type = string_field(v, "mediaType").or_else(|| string_field(v, "mimeType"));
        Some(Attachment {
            url,
            media_type,
            kind,
            description: string_field(v, "summary").or_else(|| string_field(v, "name")),
            blurhash: string_field(v, "blurhash"),
            width: u32_field(v, "width"),
            height: u32_field(v, "height"),
            focal_point,
        })
    }
}

/// A remote post (`Note`, `Question`, `Article`...), as read from its document.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// Its id.
    pub id: String,
    /// Its type.
    pub kind: String,
    /// Its author's id (the first actor of `attributedTo`).
    pub attributed_to: String,
    /// Its text, as sent (HTML, not yet sanitised): `content`, else the first of `contentMap`;
    /// empty when neither is there.
    pub content_html: String,
    /// Its language: the first key of `contentMap` (else of `nameMap`, `summaryMap`).
    pub language: Option<String>,
    /// Its content warning (`summary`, else the first of `summaryMap`), when not empty.
    pub summary: Option<String>,
    /// Whether it is marked sensitive.
    pub sensitive: bool,
    /// When it was published.
    pub published: Option<DateTime<Utc>>,
    /// When it was last edited.
    pub updated: Option<DateTime<Utc>>,
    /// Its page (`url`, preferring a text/html link).
    pub url: Option<String>,
    /// The id of the post it replies to.
    pub in_reply_to: Option<String>,
    /// Its primary audience.
    pub to: Vec<String>,
    /// Its secondary audience.
    pub cc: Vec<String>,
    /// The actors it mentions.
    pub mentions: Vec<Mention>,
    /// Its hashtags, as sent without the `#`.
    pub hashtags: Vec<String>,
    /// The custom emojis it uses.
    pub emojis: Vec<Emoji>,
    /// Its media.
    pub attachments: Vec<Attachment>,
    /// The conversation it belongs to (`context`, else `conversation`).
    pub conversation: Option<String>,
    /// Its replies collection as sent: its id, or the collection itself (Mastodon embeds it
    /// with its first page); see [`collection_page_items`].
    pub replies: Option<Value>,
    /// Its `name` (else the first of `nameMap`): a vote names the option it chooses this way.
    pub name: Option<String>,
    /// Its poll, when it is a `Question` with options.
    pub poll: Option<Question>,
    /// The id of the post it quotes: `quote` (FEP-044f), else `quoteUri` (Fedibird),
    /// `_misskey_quote` or `quoteUrl`, as Mastodon 4.5 reads them.
    pub quote: Option<String>,
    /// The id of the `QuoteAuthorization` approving its quote (`quoteAuthorization`).
    pub quote_authorization: Option<String>,
    /// Who may quote it (`interactionPolicy.canQuote`), when said: the ids (actors,
    /// collections, the public collection) approved automatically, and those its author
    /// reviews.
    pub can_quote: Option<(Vec<String>, Vec<String>)>,
}

/// The poll of a `Question`, as Mastodon reads one.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The options in order: each one's title (`name`, else `content`) and votes
    /// (`replies.totalItems`, 0 when not said). Options without a title are left out.
    pub options: Vec<(String, u64)>,
    /// Several choices allowed: the options are in `anyOf` (else in `oneOf`).
    pub multiple: bool,
    /// How many accounts voted (`votersCount`), when said.
    pub voters_count: Option<u64>,
    /// When voting ends (`endTime`).
    pub end_time: Option<DateTime<Utc>>,
    /// `closed`: when it closed (`Some(Some(t))`), closed at a time not said (`Some(None)`, a
    /// `true`), or not closed (`None`, also for `false`).
    pub closed: Option<Option<DateTime<Utc>>>,
}

impl Question {
    /// Reads the poll of `v`: `None` unless it is a `Question` whose `anyOf` or `oneOf` is an
    /// array.
    pub fn from_json(v: &Value) -> Option<Self> {
        if !types_of(v).contains(&"Question") {
            return None;
        }
        let (items, multiple) = match (v.get("anyOf"), v.get("oneOf")) {
            (Some(Value::Array(any)), _) => (any, true),
            (_, Some(Value::Array(one))) => (one, false),
            _ => return None,
        };
        let options = items
            .iter()
            .filter_map(|item| {
                let title = string_field(item, "name").or_else(|| string_field(item, "content"))?;
                let votes = item
                    .get("replies")
                    .and_then(|r| r.get("totalItems"))
                    .and_then(Value::as_u64)
                    .unwrap_or(0);
                Some((title, votes))
            })
            .collect();
        let closed = match v.get("closed") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => None,
            Some(at @ Value::String(_)) => Some(parse_time(at)),
            Some(_) => Some(None),
        };
        Some(Question {
            options,
            multiple,
            voters_count: v.get("votersCount").and_then(Value::as_u64),
            end_time: v.get("endTime").and_then(parse_time),
            closed,
        })
    }
}

impl Note {
    /// Reads a post. Requires an `id`, a type Mastodon turns into a status ([`NOTE_TYPES`]) and
    /// an `attributedTo` (several: the first that is not a `Group`, else the first).
    pub fn from_json(v: &Value) -> Result<Self, VocabError> {
        const WHAT: &str = "note";
        let (id, kind) = id_and_kind(v, WHAT, &NOTE_TYPES)?;
        let authors = one_or_many(v.get("attributedTo").unwrap_or(&Value::Null));
        let attributed_to = authors
            .iter()
            .filter(|a| !types_of(a).contains(&"Group"))
            .find_map(|a| id_of(a))
            .or_else(|| authors.iter().find_map(|a| id_of(a)))
            .ok_or(VocabError::Missing {
                what: WHAT,
                field: "attributedTo",
            })?;
        let (content, content_language) = language_value(v, "content", "contentMap");
        let (name, name_language) = language_value(v, "name", "nameMap");
        let (summary, summary_language) = language_value(v, "summary", "summaryMap");
        let mut mentions = vec![];
        let mut hashtags = vec![];
        let mut emojis = vec![];
        for tag in one_or_many(v.get("tag").unwrap_or(&Value::Null)) {
            let types = types_of(tag);
            if types.contains(&"Mention") {
                if let Some(href) = string_field(tag, "href").or_else(|| string_field(tag, "id")) {
                    mentions.push(Mention {
                        href,
                        name: string_field(tag, "name"),
                    });
                }
            } else if let Some(name) = hashtag_name(tag) {
                hashtags.push(name);
            } else if types.contains(&"Emoji")
                && let Some(name) = string_field(tag, "name")
                && let Some(url) = tag.get("icon").and_then(image_url)
            {
                let shortcode = name.trim().trim_matches(':');
                if !shortcode.is_empty() {
                    emojis.push(Emoji {
                        shortcode: shortcode.to_string(),
                        url,
                        id: string_field(tag, "id"),
                        updated: tag.get("updated").and_then(parse_time),
                    });
                }
            }
        }
        let attachments = one_or_many(v.get("attachment").unwrap_or(&Value::Null))
            .into_iter()
            .filter_map(Attachment::from_json)
            .collect();
        Ok(Note {
            content_html: content.unwrap_or_default(),
            language: content_language.or(name_language).or(summary_language),
            summary,
            sensitive: bool_field(v, "sensitive").unwrap_or(false),
            published: v.get("published").and_then(parse_time),
            updated: v.get("updated").and_then(parse_time),
            url: v.get("url").and_then(|u| href_of(u, Some("text/html"))),
            in_reply_to: v.get("inReplyTo").and_then(id_of),
            to: uris(v.get("to").unwrap_or(&Value::Null)),
            cc: uris(v.get("cc").unwrap_or(&Value::Null)),
            mentions,
            hashtags,
            emojis,
            attachments,
            conversation: v
                .get("context")
                .and_then(id_of)
                .or_else(|| v.get("conversation").and_then(id_of)),
            replies: v
                .get("replies")
                .filter(|r| r.is_object() || id_of(r).is_some())
                .cloned(),
            name,
            poll: Question::from_json(v),
            quote: ["quote", "quoteUri", "_misskey_quote", "quoteUrl"]
                .iter()
                .find_map(|k| v.get(*k).and_then(id_of)),
            quote_authorization: v.get("quoteAuthorization").and_then(id_of),
            can_quote: v
                .get("interactionPolicy")
                .and_then(|p| p.get("canQuote"))
                .filter(|c| c.is_object())
                .map(|c| {
                    let list = |k: &str| uris(c.get(k).unwrap_or(&Value::Null));
                    (list("automaticApproval"), list("manualApproval"))
                }),
            id,
            kind,
            attributed_to,
        })
    }
}

/// An activity (`Create`, `Follow`, `Undo`...), as read from what an inbox was sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Activity {
    /// Its id; transient activities may have none.
    pub id: Option<String>,
    /// Its type.
    pub kind: String,
    /// The id of the actor doing it.
    pub actor: String,
    /// Its object as sent: an id, or an embedded object; `null` when there is none.
    pub object: Value,
    /// Its primary audience.
    pub to: Vec<String>,
    /// Its secondary audience.
    pub cc: Vec<String>,
    /// Its target (`Add`/`Remove`: the collection).
    pub target: Option<String>,
    /// When it was published.
    pub published: Option<DateTime<Utc>>,
    /// Its `content`, when it has one as a string (a `Flag`'s comment).
    pub content: Option<String>,
    /// Its `result`, as an id (an `Accept` of a `QuoteRequest`: the `QuoteAuthorization`).
    pub result: Option<String>,
    /// Its `instrument` as sent (a `QuoteRequest`'s quoting post: its id, or the post).
    pub instrument: Value,
}

impl Activity {
    /// Reads an activity. Requires a `type` and an `actor`.
    pub fn from_json(v: &Value) -> Result<Self, VocabError> {
        const WHAT: &str = "activity";
        object(v, WHAT)?;
        let kind = type_of(v).map(str::to_string).ok_or(VocabError::Missing {
            what: WHAT,
            field: "type",
        })?;
        Ok(Activity {
            id: string_field(v, "id"),
            actor: required_id(v, WHAT, "actor")?,
            object: v.get("object").cloned().unwrap_or(Value::Null),
            to: uris(v.get("to").unwrap_or(&Value::Null)),
            cc: uris(v.get("cc").unwrap_or(&Value::Null)),
            target: v.get("target").and_then(id_of),
            published: v.get("published").and_then(parse_time),
            content: string_field(v, "content"),
            result: v.get("result").and_then(id_of),
            instrument: v.get("instrument").cloned().unwrap_or(Value::Null),
            kind,
        })
    }

    /// The id of its object (embedded or not).
    pub fn object_id(&self) -> Option<String> {
        id_of(&self.object)
    }

    /// The type of its object, when it is embedded.
    pub fn object_kind(&self) -> Option<String> {
        type_of(&self.object).map(str::to_string)
    }

    /// The ids of its objects: one, or several in an array (as a `Flag` names an account and
    /// its statuses), each an id or an object with one.
    pub fn object_ids(&self) -> Vec<String> {
        uris(&self.object)
    }
}

// ---------------------------------------------------------------------------------------------
// Addressing
// ---------------------------------------------------------------------------------------------

/// The visibility of a post from its addressing, as Mastodon decides it: public when the
/// public collection is in `to`; unlisted when it is in `cc`; private (followers-only) when the
/// author's followers collection is in `to` (`followers_url`; when unknown, any `to` ending in
/// `/followers` counts); direct otherwise.
pub fn visibility_of(to: &[String], cc: &[String], followers_url: Option<&str>) -> Visibility {
    if to.iter().any(|u| is_public(u)) {
        Visibility::Public
    } else if cc.iter().any(|u| is_public(u)) {
        Visibility::Unlisted
    } else if to.iter().any(|u| match followers_url {
        Some(f) => u == f,
        None => u.ends_with("/followers"),
    }) {
        Visibility::Private
    } else {
        Visibility::Direct
    }
}

/// The `to` and `cc` of a post, as Mastodon addresses them: public goes to the public
/// collection with followers and the mentioned in `cc`; unlisted to the followers with the
/// public collection and the mentioned in `cc`; private to the followers with the mentioned in
/// `cc`; direct to the mentioned only. Repeated actors are named once.
pub fn addressing(
    visibility: Visibility,
    followers_url: &str,
    mentioned: &[String],
) -> (Vec<String>, Vec<String>) {
    let mut cc: Vec<String> = match visibility {
        Visibility::Public => vec![followers_url.to_string()],
        Visibility::Unlisted => vec![PUBLIC.to_string()],
        Visibility::Private | Visibility::Direct => vec![],
    };
    let mut to: Vec<String> = match visibility {
        Visibility::Public => vec![PUBLIC.to_string()],
        Visibility::Unlisted | Visibility::Private => vec![followers_url.to_string()],
        Visibility::Direct => vec![],
    };
    let audience = if visibility == Visibility::Direct {
        &mut to
    } else {
        &mut cc
    };
    for m in mentioned {
        if !m.is_empty() && !audience.contains(m) {
            audience.push(m.clone());
        }
    }
    (to, cc)
}

// ---------------------------------------------------------------------------------------------
// Outbound documents
// ---------------------------------------------------------------------------------------------

/// The `@context` of an actor document, as Mastodon writes it.
pub fn actor_context() -> Value {
    json!([
        ACTIVITY_STREAMS,
        SECURITY_V1,
        {
            "manuallyApprovesFollowers": "as:manuallyApprovesFollowers",
            "toot": TOOT,
            "featured": { "@id": "toot:featured", "@type": "@id" },
            "featuredTags": { "@id": "toot:featuredTags", "@type": "@id" },
            "alsoKnownAs": { "@id": "as:alsoKnownAs", "@type": "@id" },
            "movedTo": { "@id": "as:movedTo", "@type": "@id" },
            "schema": "http://schema.org#",
            "PropertyValue": "schema:PropertyValue",
            "value": "schema:value",
            "discoverable": "toot:discoverable",
            "suspended": "toot:suspended",
            "memorial": "toot:memorial",
            "indexable": "toot:indexable",
            "Hashtag": "as:Hashtag",
            "Emoji": "toot:Emoji",
            "focalPoint": { "@container": "@list", "@id": "toot:focalPoint" }
        }
    ])
}

/// The `@context` of a note (or of an activity carrying one), as Mastodon writes it.
pub fn note_context() -> Value {
    json!([
        ACTIVITY_STREAMS,
        {
            "ostatus": "http://ostatus.org#",
            "atomUri": "ostatus:atomUri",
            "inReplyToAtomUri": "ostatus:inReplyToAtomUri",
            "conversation": "ostatus:conversation",
            "sensitive": "as:sensitive",
            "toot": TOOT,
            "votersCount": "toot:votersCount",
            "Hashtag": "as:Hashtag",
            "Emoji": "toot:Emoji",
            "blurhash": "toot:blurhash",
            "focalPoint": { "@container": "@list", "@id": "toot:focalPoint" },
            // Quote posts (FEP-044f) and who may quote them, as Mastodon 4.5 names them.
            "QuoteRequest": "https://w3id.org/fep/044f#QuoteRequest",
            "QuoteAuthorization": "https://w3id.org/fep/044f#QuoteAuthorization",
            "quote": "https://w3id.org/fep/044f#quote",
            "quoteUri": "http://fedibird.com/ns#quoteUri",
            "_misskey_quote": "https://misskey-hub.net/ns#_misskey_quote",
            "quoteAuthorization": { "@id": "https://w3id.org/fep/044f#quoteAuthorization", "@type": "@id" },
            "gts": "https://gotosocial.org/ns#",
            "interactionPolicy": { "@id": "gts:interactionPolicy", "@type": "@id" },
            "canQuote": { "@id": "gts:canQuote", "@type": "@id" },
            "automaticApproval": { "@id": "gts:automaticApproval", "@type": "@id" },
            "manualApproval": { "@id": "gts:manualApproval", "@type": "@id" },
            "interactingObject": { "@id": "gts:interactingObject", "@type": "@id" },
            "interactionTarget": { "@id": "gts:interactionTarget", "@type": "@id" }
        }
    ])
}

/// A local actor to publish.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorDoc {
    /// Its id.
    pub id: String,
    /// `Person`, `Service` (a bot) or `Application` (the instance actor).
    pub kind: String,
    /// Its username.
    pub preferred_username: String,
    /// Its display name; the username is written when empty, as Mastodon does.
    pub name: String,
    /// Its bio, HTML.
    pub summary_html: String,
    /// Its profile page.
    pub url: String,
    /// Its inbox.
    pub inbox: String,
    /// Its outbox.
    pub outbox: String,
    /// Its followers collection.
    pub followers: String,
    /// Its following collection.
    pub following: String,
    /// Its pinned posts collection.
    pub featured: String,
    /// Its featured hashtags collection.
    pub featured_tags: String,
    /// The server's shared inbox (`endpoints` is left out when empty).
    pub shared_inbox: String,
    /// Whether follows need approval (a locked account).
    pub manually_approves_followers: bool,
    /// Whether it may be featured in directories.
    pub discoverable: bool,
    /// Whether its public posts may be indexed for search.
    pub indexable: bool,
    /// When the account was created; written as that day's midnight, as Mastodon does.
    pub published: DateTime<Utc>,
    /// The id of its public key.
    pub public_key_id: String,
    /// Its public key, PEM-encoded.
    pub public_key_pem: String,
    /// Its avatar: URL and media type.
    pub icon: Option<(String, String)>,
    /// Its header image: URL and media type.
    pub image: Option<(String, String)>,
    /// Its profile fields: name and value (HTML).
    pub fields: Vec<(String, String)>,
    /// Its other identities (written only when there are some).
    pub also_known_as: Vec<String>,
    /// The actor it moved to, if it has.
    pub moved_to: Option<String>,
}

/// An `Image` object (`icon`, `image`).
fn image(url: &str, media_type: &str) -> Value {
    let mut o = Map::new();
    o.insert("type".into(), "Image".into());
    if !media_type.is_empty() {
        o.insert("mediaType".into(), media_type.into());
    }
    o.insert("url".into(), url.into());
    Value::Object(o)
}

impl ActorDoc {
    /// The actor document, with its `@context`, in Mastodon's shape.
    pub fn to_json(&self) -> Value {
        let name = if self.name.is_empty() {
            &self.preferred_username
        } else {
            &self.name
        };
        let published = self
            .published
            .date_naive()
            .and_hms_opt(0, 0, 0)
            .map(|t| t.and_utc())
            .unwrap_or(self.published);
        let mut o = Map::new();
        o.insert("@context".into(), actor_context());
        o.insert("id".into(), self.id.clone().into());
        o.insert("type".into(), self.kind.clone().into());
        o.insert("following".into(), self.following.clone().into());
        o.insert("followers".into(), self.followers.clone().into());
        o.insert("inbox".into(), self.inbox.clone().into());
        o.insert("outbox".into(), self.outbox.clone().into());
        o.insert("featured".into(), self.featured.clone().into());
        o.insert("featuredTags".into(), self.featured_tags.clone().into());
        o.insert(
            "preferredUsername".into(),
            self.preferred_username.clone().into(),
        );
        o.insert("name".into(), name.clone().into());
        o.insert("summary".into(), self.summary_html.clone().into());
        o.insert("url".into(), self.url.clone().into());
        o.insert(
            "manuallyApprovesFollowers".into(),
            self.manually_approves_followers.into(),
        );
        o.insert("discoverable".into(), self.discoverable.into());
        o.insert("indexable".into(), self.indexable.into());
        o.insert("published".into(), timestamp(published).into());
        o.insert(
            "publicKey".into(),
            json!({
                "id": self.public_key_id,
                "owner": self.id,
                "publicKeyPem": self.public_key_pem,
            }),
        );
        o.insert("tag".into(), json!([]));
        o.insert(
            "attachment".into(),
            self.fields
                .iter()
                .map(|(name, value)| json!({"type": "PropertyValue", "name": name, "value": value}))
                .collect(),
        );
        if !self.also_known_as.is_empty() {
            o.insert("alsoKnownAs".into(), self.also_known_as.clone().into());
        }
        if let Some(moved_to) = &self.moved_to {
            o.insert("movedTo".into(), moved_to.clone().into());
        }
        if !self.shared_inbox.is_empty() {
            o.insert(
                "endpoints".into(),
                json!({ "sharedInbox": self.shared_inbox }),
            );
        }
        if let Some((url, media_type)) = &self.icon {
            o.insert("icon".into(), image(url, media_type));
        }
        if let Some((url, media_type)) = &self.image {
            o.insert("image".into(), image(url, media_type));
        }
        Value::Object(o)
    }
}

impl Attachment {
    /// The attachment object, as Mastodon writes it (the description as `name`).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        let kind = if self.kind.is_empty() {
            "Document"
        } else {
            &self.kind
        };
        o.insert("type".into(), kind.into());
        if let Some(m) = &self.media_type {
            o.insert("mediaType".into(), m.clone().into());
        }
        o.insert("url".into(), self.url.clone().into());
        o.insert("name".into(), self.description.clone().into());
        if let Some(b) = &self.blurhash {
            o.insert("blurhash".into(), b.clone().into());
        }
        if let Some((x, y)) = self.focal_point {
            o.insert("focalPoint".into(), json!([x, y]));
        }
        if let Some(w) = self.width {
            o.insert("width".into(), w.into());
        }
        if let Some(h) = self.height {
            o.insert("height".into(), h.into());
        }
        Value::Object(o)
    }
}

/// A local post to publish, as a `Note`.
#[derive(Clone, Debug, PartialEq)]
pub struct NoteDoc {
    /// Its id.
    pub id: String,
    /// Its page.
    pub url: String,
    /// Its author's actor id.
    pub attributed_to: String,
    /// Its text, HTML.
    pub content_html: String,
    /// Its content warning.
    pub summary: Option<String>,
    /// Whether it is sensitive.
    pub sensitive: bool,
    /// When it was published.
    pub published: DateTime<Utc>,
    /// When it was last edited (written only if it was).
    pub updated: Option<DateTime<Utc>>,
    /// The id of the post it replies to.
    pub in_reply_to: Option<String>,
    /// Its primary audience (see [`addressing`]).
    pub to: Vec<String>,
    /// Its secondary audience.
    pub cc: Vec<String>,
    /// Mentioned actors: id and `@user@domain` (the `@` is added when missing).
    pub mentions: Vec<(String, String)>,
    /// Hashtags: the tag's page and `#name` (the `#` is added when missing).
    pub hashtags: Vec<(String, String)>,
    /// Its media.
    pub attachments: Vec<Attachment>,
    /// Its language (ISO 639-1); with one, `contentMap` is written too.
    pub language: Option<String>,
    /// The conversation it belongs to (written as `conversation`, and as `context` without
    /// [`NoteDoc::context`]).
    pub conversation: Option<String>,
    /// The context collection of its thread (`context`; Mastodon 4.5's conversation contexts).
    pub context: Option<String>,
    /// Its replies collection, embedded (see [`replies_collection`]).
    pub replies: Option<Value>,
    /// Its poll: with one, the note is a `Question`.
    pub poll: Option<QuestionDoc>,
    /// The custom emojis its text uses, written as `Emoji` tags.
    pub emojis: Vec<Emoji>,
    /// The post it quotes, when it quotes one (see [`QuoteDoc`]).
    pub quote: Option<QuoteDoc>,
    /// Who may quote it with automatic approval (`interactionPolicy.canQuote`, with an empty
    /// `manualApproval`), for a local post; nothing is written without.
    pub can_quote: Option<Vec<String>>,
}

/// What a local post says of the post it quotes, as Mastodon 4.5 writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct QuoteDoc {
    /// The quoted post's id: written as `quote`, `quoteUri` and `_misskey_quote`; when it is
    /// not known any more, `quote` is a `Tombstone` and the others are left out.
    pub quoted: Option<String>,
    /// The `QuoteAuthorization` approving the quote (`quoteAuthorization`), once accepted.
    pub authorization: Option<String>,
}

/// The poll of a local post to publish, as Mastodon writes a `Question`'s.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionDoc {
    /// The options in order: title and the votes to show.
    pub options: Vec<(String, i64)>,
    /// Several choices allowed (`anyOf` rather than `oneOf`).
    pub multiple: bool,
    /// How many accounts voted.
    pub voters_count: i64,
    /// When voting ends (`endTime`).
    pub end_time: Option<DateTime<Utc>>,
    /// Whether it has ended: `closed` is then written, at `end_time`.
    pub closed: bool,
}

impl QuestionDoc {
    /// Writes the poll's properties into the note `o`.
    fn write_into(&self, o: &mut Map<String, Value>) {
        let options: Vec<Value> = self
            .options
            .iter()
            .map(|(title, votes)| {
                json!({
                    "type": "Note",
                    "name": title,
                    "replies": { "type": "Collection", "totalItems": (*votes).max(0) },
                })
            })
            .collect();
        let key = if self.multiple { "anyOf" } else { "oneOf" };
        o.insert(key.into(), options.into());
        if let Some(end) = self.end_time {
            o.insert("endTime".into(), timestamp(end).into());
            if self.closed {
                o.insert("closed".into(), timestamp(end).into());
            }
        }
        o.insert("votersCount".into(), self.voters_count.max(0).into());
    }
}

/// The `Create` of a vote in a poll, as Mastodon sends one: a `Note` by `actor` named as the
/// chosen option (`name`), replying to the poll's post (`question`), addressed to its author
/// alone. `id` is the vote's; the activity's is `id` + `/activity`.
pub fn vote(id: &str, actor: &str, author: &str, question: &str, name: &str) -> Value {
    let note = json!({
        "id": id,
        "type": "Note",
        "name": name,
        "attributedTo": actor,
        "inReplyTo": question,
        "to": author,
    });
    let mut v = activity(
        &format!("{id}/activity"),
        "Create",
        actor,
        note,
        &[author.to_string()],
        &[],
        None,
    );
    if let Some(o) = v.as_object_mut() {
        o.remove("cc");
        o.insert("to".into(), author.into());
    }
    v
}

/// `s` with `prefix` in front unless it starts with it already.
fn prefixed(prefix: char, s: &str) -> String {
    if s.starts_with(prefix) {
        s.to_string()
    } else {
        format!("{prefix}{s}")
    }
}

impl NoteDoc {
    /// The `Note`, in Mastodon's shape; with its own `@context` when served alone, without
    /// when embedded in an activity.
    pub fn to_json(&self, with_context: bool) -> Value {
        let mut o = Map::new();
        if with_context {
            o.insert("@context".into(), note_context());
        }
        o.insert("id".into(), self.id.clone().into());
        let kind = if self.poll.is_some() {
            "Question"
        } else {
            "Note"
        };
        o.insert("type".into(), kind.into());
        o.insert("summary".into(), self.summary.clone().into());
        o.insert("inReplyTo".into(), self.in_reply_to.clone().into());
        o.insert("published".into(), timestamp(self.published).into());
        o.insert("url".into(), self.url.clone().into());
        o.insert("attributedTo".into(), self.attributed_to.clone().into());
        o.insert("to".into(), self.to.clone().into());
        o.insert("cc".into(), self.cc.clone().into());
        o.insert("sensitive".into(), self.sensitive.into());
        if let Some(c) = &self.conversation {
            o.insert("conversation".into(), c.clone().into());
        }
        if let Some(c) = self.context.as_ref().or(self.conversation.as_ref()) {
            o.insert("context".into(), c.clone().into());
        }
        o.insert("content".into(), self.content_html.clone().into());
        if let Some(lang) = self.language.as_ref().filter(|l| !l.is_empty()) {
            let mut map = Map::new();
            map.insert(lang.clone(), self.content_html.clone().into());
            o.insert("contentMap".into(), Value::Object(map));
        }
        if let Some(updated) = self.updated {
            o.insert("updated".into(), timestamp(updated).into());
        }
        o.insert(
            "attachment".into(),
            self.attachments.iter().map(Attachment::to_json).collect(),
        );
        let mentions = self.mentions.iter().map(
            |(href, name)| json!({"type": "Mention", "href": href, "name": prefixed('@', name)}),
        );
        let hashtags = self.hashtags.iter().map(|(href, name)| hashtag(href, name));
        let emojis = self.emojis.iter().map(emoji_tag);
        o.insert(
            "tag".into(),
            mentions.chain(hashtags).chain(emojis).collect(),
        );
        if let Some(r) = &self.replies {
            o.insert("replies".into(), r.clone());
        }
        if let Some(p) = &self.poll {
            p.write_into(&mut o);
        }
        if let Some(q) = &self.quote {
            match &q.quoted {
                Some(uri) => {
                    for key in ["quote", "quoteUri", "_misskey_quote"] {
                        o.insert(key.into(), uri.clone().into());
                    }
                }
                None => {
                    o.insert("quote".into(), json!({"type": "Tombstone"}));
                }
            }
            if let Some(a) = &q.authorization {
                o.insert("quoteAuthorization".into(), a.clone().into());
            }
        }
        if let Some(approved) = &self.can_quote {
            o.insert(
                "interactionPolicy".into(),
                json!({"canQuote": {"automaticApproval": approved, "manualApproval": []}}),
            );
        }
        Value::Object(o)
    }
}

/// The `@context` for an activity carrying `object`: an actor's for an embedded actor, a
/// note's for an embedded post or hashtag (the ActivityStreams context has no `Hashtag`, so
/// JSON-LD readers would not see one), ActivityStreams alone otherwise.
fn context_for(object: &Value) -> Value {
    let types = types_of(object);
    if types.iter().any(|t| ACTOR_TYPES.contains(t)) {
        actor_context()
    } else if types
        .iter()
        .any(|t| NOTE_TYPES.contains(t) || *t == "Hashtag")
    {
        note_context()
    } else {
        Value::String(ACTIVITY_STREAMS.into())
    }
}

/// An activity with its `@context`, as Mastodon writes one. `object` is embedded as given (an
/// id string, or an object whose own `@context` is dropped). `to` is written when not empty;
/// `cc` when not empty or when `to` is written (a `Create` always has both); `published` when
/// given.
pub fn activity(
    id: &str,
    kind: &str,
    actor: &str,
    object: Value,
    to: &[String],
    cc: &[String],
    published: Option<DateTime<Utc>>,
) -> Value {
    let object = strip_context(object);
    let mut o = Map::new();
    o.insert("@context".into(), context_for(&object));
    o.insert("id".into(), id.into());
    o.insert("type".into(), kind.into());
    o.insert("actor".into(), actor.into());
    if let Some(p) = published {
        o.insert("published".into(), timestamp(p).into());
    }
    if !to.is_empty() {
        o.insert("to".into(), to.to_vec().into());
    }
    if !to.is_empty() || !cc.is_empty() {
        o.insert("cc".into(), cc.to_vec().into());
    }
    o.insert("object".into(), object);
    Value::Object(o)
}

/// A `Flag` (a report forwarded to another server) as Mastodon's `FlagSerializer` writes it:
/// by `actor` (the instance actor), its `object` the reported account's id followed by the
/// reported statuses' ids, its `content` the reporter's comment; no addressing.
pub fn flag(id: &str, actor: &str, objects: Vec<String>, content: &str) -> Value {
    let mut o = Map::new();
    o.insert("@context".into(), ACTIVITY_STREAMS.into());
    o.insert("id".into(), id.into());
    o.insert("type".into(), "Flag".into());
    o.insert("actor".into(), actor.into());
    o.insert("content".into(), content.into());
    o.insert("object".into(), objects.into());
    Value::Object(o)
}

/// Marks an actor document `suspended: true` (Mastodon's `toot:suspended`, which
/// [`actor_context`] defines), as a suspended account's actor is served.
pub fn mark_suspended(actor: &mut Value) {
    if let Some(o) = actor.as_object_mut() {
        o.insert("suspended".into(), true.into());
    }
}

/// A note's replies collection as Mastodon embeds it in the note: an unordered `Collection`
/// whose `first` page is embedded too (without an id), listing `items` and pointing `next`.
pub fn replies_collection(id: &str, items: Vec<Value>, next: Option<String>) -> Value {
    let mut first = Map::new();
    first.insert("type".into(), "CollectionPage".into());
    if let Some(n) = next {
        first.insert("next".into(), n.into());
    }
    first.insert("partOf".into(), id.into());
    first.insert("items".into(), items.into());
    json!({ "id": id, "type": "Collection", "first": Value::Object(first) })
}

/// One page of an unordered collection served alone (Mastodon's replies pages), with its
/// `@context`: its items and the next page, when there is one.
pub fn collection_page(id: &str, part_of: &str, items: Vec<Value>, next: Option<String>) -> Value {
    let mut o = Map::new();
    o.insert("@context".into(), ACTIVITY_STREAMS.into());
    o.insert("id".into(), id.into());
    o.insert("type".into(), "CollectionPage".into());
    if let Some(n) = next {
        o.insert("next".into(), n.into());
    }
    o.insert("partOf".into(), part_of.into());
    o.insert("items".into(), items.into());
    Value::Object(o)
}

/// Where a collection's first page is, as Mastodon reads a replies collection: the page itself
/// when the collection embeds it (or when `v` is a page), else its URL to fetch (`first` as a
/// URL, or the collection's own URL when `v` is only that).
#[derive(Clone, Debug, PartialEq)]
pub enum FirstPage<'a> {
    /// The page is here.
    Here(&'a Value),
    /// The page (or the collection holding it) is at this URL.
    At(String),
}

/// The types of collections and of their pages.
const COLLECTION_TYPES: [&str; 4] = [
    "Collection",
    "OrderedCollection",
    "CollectionPage",
    "OrderedCollectionPage",
];

/// Where the first page of the collection `v` is (see [`FirstPage`]); `None` for something
/// that is neither a collection nor a page nor a URL.
pub fn first_page(v: &Value) -> Option<FirstPage<'_>> {
    match v {
        Value::String(_) => id_of(v).map(FirstPage::At),
        Value::Object(o) => match o.get("first") {
            Some(first @ Value::Object(_)) => Some(FirstPage::Here(first)),
            Some(first) => id_of(first).map(FirstPage::At),
            // An empty collection may name no items at all (Fedify serves one so): a
            // collection with neither `first` nor items lists nothing, not another page.
            None if o.contains_key("items")
                || o.contains_key("orderedItems")
                || types_of(v).iter().any(|t| COLLECTION_TYPES.contains(t)) =>
            {
                Some(FirstPage::Here(v))
            }
            None => id_of(v).map(FirstPage::At),
        },
        _ => None,
    }
}

/// The ids of what a collection page lists (`items` or `orderedItems`, each an id or an object
/// with one), in order.
pub fn collection_page_items(page: &Value) -> Vec<String> {
    let items = page
        .get("items")
        .or_else(|| page.get("orderedItems"))
        .unwrap_or(&Value::Null);
    uris(items)
}

/// An `Emoji` tag, as Mastodon writes one: its id, `:shortcode:`, when it last changed, and
/// its image (the media type from the URL's extension).
pub fn emoji_tag(e: &Emoji) -> Value {
    let ext = e.url.rsplit('.').next().map(str::to_ascii_lowercase);
    let media_type = match ext.as_deref() {
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("jpg" | "jpeg") => "image/jpeg",
        _ => "image/png",
    };
    let mut o = Map::new();
    if let Some(id) = &e.id {
        o.insert("id".into(), id.clone().into());
    }
    o.insert("type".into(), "Emoji".into());
    o.insert("name".into(), format!(":{}:", e.shortcode).into());
    if let Some(updated) = e.updated {
        o.insert("updated".into(), timestamp(updated).into());
    }
    o.insert("icon".into(), image(&e.url, media_type));
    Value::Object(o)
}

/// A `Hashtag` object: the tag's page and `#name` (the `#` added when missing).
pub fn hashtag(href: &str, name: &str) -> Value {
    json!({"type": "Hashtag", "href": href, "name": prefixed('#', name)})
}

/// The name of a `Hashtag` object, without its `#`; `None` for anything else or no name.
pub fn hashtag_name(tag: &Value) -> Option<String> {
    if !types_of(tag).contains(&"Hashtag") {
        return None;
    }
    let name = string_field(tag, "name")?;
    let name = name.trim().trim_start_matches('#');
    (!name.is_empty()).then(|| name.to_string())
}

/// What a deleted post becomes (the object of a `Delete`).
pub fn tombstone(id: &str) -> Value {
    json!({ "id": id, "type": "Tombstone" })
}

/// An `OrderedCollection` with its `@context`: its size and first page, when given.
pub fn ordered_collection(id: &str, total: Option<u64>, first: Option<String>) -> Value {
    let mut o = Map::new();
    o.insert("@context".into(), ACTIVITY_STREAMS.into());
    o.insert("id".into(), id.into());
    o.insert("type".into(), "OrderedCollection".into());
    if let Some(t) = total {
        o.insert("totalItems".into(), t.into());
    }
    if let Some(f) = first {
        o.insert("first".into(), f.into());
    }
    Value::Object(o)
}

/// One page of an `OrderedCollection`, with its `@context`: its items (newest first) and the
/// pages around it, when there are some.
pub fn ordered_collection_page(
    id: &str,
    part_of: &str,
    items: Vec<Value>,
    next: Option<String>,
    prev: Option<String>,
) -> Value {
    let mut o = Map::new();
    o.insert("@context".into(), ACTIVITY_STREAMS.into());
    o.insert("id".into(), id.into());
    o.insert("type".into(), "OrderedCollectionPage".into());
    if let Some(n) = next {
        o.insert("next".into(), n.into());
    }
    if let Some(p) = prev {
        o.insert("prev".into(), p.into());
    }
    o.insert("partOf".into(), part_of.into());
    o.insert("orderedItems".into(), items.into());
    Value::Object(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PEM: &str = "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu\n-----END PUBLIC KEY-----\n";

    #[test]
    fn an_activity_carrying_a_hashtag_defines_the_term() {
        let add = activity(
            "https://a.example/users/x#add",
            "Add",
            "https://a.example/users/x",
            hashtag("https://a.example/tags/cats", "cats"),
            &[],
            &[],
            None,
        );
        assert_eq!(add["@context"], note_context());
        assert_eq!(add["@context"][1]["Hashtag"], "as:Hashtag");
        let follow = activity(
            "https://a.example/users/x#follow",
            "Follow",
            "https://a.example/users/x",
            Value::String("https://b.example/users/y".into()),
            &[],
            &[],
            None,
        );
        assert_eq!(follow["@context"], ACTIVITY_STREAMS);
    }

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s)
            .expect("test timestamp")
            .with_timezone(&Utc)
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// An actor as Mastodon 4.x serves it.
    fn mastodon_actor() -> Value {
        json!({
            "@context": [
                "https://www.w3.org/ns/activitystreams",
                "https://w3id.org/security/v1",
                {
                    "manuallyApprovesFollowers": "as:manuallyApprovesFollowers",
                    "toot": "http://joinmastodon.org/ns#",
                    "featured": {"@id": "toot:featured", "@type": "@id"},
                    "featuredTags": {"@id": "toot:featuredTags", "@type": "@id"},
                    "alsoKnownAs": {"@id": "as:alsoKnownAs", "@type": "@id"},
                    "movedTo": {"@id": "as:movedTo", "@type": "@id"},
                    "schema": "http://schema.org#",
                    "PropertyValue": "schema:PropertyValue",
                    "value": "schema:value",
                    "discoverable": "toot:discoverable",
                    "suspended": "toot:suspended",
                    "memorial": "toot:memorial",
                    "indexable": "toot:indexable",
                    "focalPoint": {"@container": "@list", "@id": "toot:focalPoint"}
                }
            ],
            "id": "https://mastodon.example/users/alice",
            "type": "Person",
            "following": "https://mastodon.example/users/alice/following",
            "followers": "https://mastodon.example/users/alice/followers",
            "inbox": "https://mastodon.example/users/alice/inbox",
            "outbox": "https://mastodon.example/users/alice/outbox",
            "featured": "https://mastodon.example/users/alice/collections/featured",
            "featuredTags": "https://mastodon.example/users/alice/collections/tags",
            "preferredUsername": "alice",
            "name": "Alice 🌻",
            "summary": "<p>Gardener. <a href=\"https://mastodon.example/tags/plants\" class=\"mention hashtag\" rel=\"tag\">#<span>plants</span></a></p>",
            "url": "https://mastodon.example/@alice",
            "manuallyApprovesFollowers": false,
            "discoverable": true,
            "indexable": true,
            "published": "2022-11-05T00:00:00Z",
            "memorial": false,
            "devices": "https://mastodon.example/users/alice/collections/devices",
            "publicKey": {
                "id": "https://mastodon.example/users/alice#main-key",
                "owner": "https://mastodon.example/users/alice",
                "publicKeyPem": PEM
            },
            "tag": [],
            "attachment": [
                {"type": "PropertyValue", "name": "Website", "value": "<a href=\"https://alice.example\" target=\"_blank\" rel=\"nofollow noopener me\" translate=\"no\"><span class=\"invisible\">https://</span><span class=\"\">alice.example</span><span class=\"invisible\"></span></a>"},
                {"type": "PropertyValue", "name": "Pronouns", "value": "she/her"}
            ],
            "endpoints": {"sharedInbox": "https://mastodon.example/inbox"},
            "icon": {"type": "Image", "mediaType": "image/png", "url": "https://files.mastodon.example/accounts/avatars/000/000/001/original/a.png"},
            "image": {"type": "Image", "mediaType": "image/jpeg", "url": "https://files.mastodon.example/accounts/headers/000/000/001/original/h.jpg"}
        })
    }

    /// A note as Mastodon 4.x embeds it in a `Create`.
    fn mastodon_note() -> Value {
        json!({
            "id": "https://mastodon.example/users/alice/statuses/111",
            "type": "Note",
            "summary": "plants",
            "inReplyTo": "https://other.example/notes/9",
            "published": "2024-03-01T12:34:56Z",
            "url": "https://mastodon.example/@alice/111",
            "attributedTo": "https://mastodon.example/users/alice",
            "to": ["https://www.w3.org/ns/activitystreams#Public"],
            "cc": [
                "https://mastodon.example/users/alice/followers",
                "https://fedblog.example/users/bob"
            ],
            "sensitive": true,
            "atomUri": "https://mastodon.example/users/alice/statuses/111",
            "inReplyToAtomUri": "https://other.example/notes/9",
            "conversation": "tag:mastodon.example,2024-03-01:objectId=555:objectType=Conversation",
            "context": "https://mastodon.example/contexts/555",
            "content": "<p><span class=\"h-card\"><a href=\"https://fedblog.example/@bob\" class=\"u-url mention\">@<span>bob</span></a></span> look :blobcat: <a href=\"https://mastodon.example/tags/Plants\" class=\"mention hashtag\" rel=\"tag\">#<span>Plants</span></a></p>",
            "contentMap": {"en": "<p>look</p>"},
            "updated": "2024-03-01T13:00:00Z",
            "attachment": [
                {
                    "type": "Document",
                    "mediaType": "image/jpeg",
                    "url": "https://files.mastodon.example/media_attachments/files/1/original/p.jpg",
                    "name": "A fern in a pot",
                    "blurhash": "UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH",
                    "focalPoint": [0.5, -0.25],
                    "width": 1200,
                    "height": 800
                },
                {"type": "Link", "href": "https://news.example/article"}
            ],
            "tag": [
                {"type": "Mention", "href": "https://fedblog.example/users/bob", "name": "@bob@fedblog.example"},
                {"type": "Hashtag", "href": "https://mastodon.example/tags/plants", "name": "#Plants"},
                {
                    "id": "https://mastodon.example/emojis/42",
                    "type": "Emoji",
                    "name": ":blobcat:",
                    "updated": "2023-01-01T00:00:00Z",
                    "icon": {"type": "Image", "mediaType": "image/png", "url": "https://files.mastodon.example/custom_emojis/images/42/blobcat.png"}
                }
            ],
            "replies": {
                "id": "https://mastodon.example/users/alice/statuses/111/replies",
                "type": "Collection",
                "first": {"type": "CollectionPage", "next": "https://mastodon.example/users/alice/statuses/111/replies?only_other_accounts=true&page=true", "partOf": "https://mastodon.example/users/alice/statuses/111/replies", "items": []}
            }
        })
    }

    #[test]
    fn reads_whether_an_actor_is_suspended() {
        assert!(
            !Actor::from_json(&mastodon_actor())
                .expect("actor")
                .suspended
        );
        let mut v = mastodon_actor();
        v["suspended"] = json!(true);
        v["name"] = json!("alice");
        assert!(Actor::from_json(&v).expect("actor").suspended);
        let mut doc = mastodon_actor();
        mark_suspended(&mut doc);
        assert_eq!(doc["suspended"], true);
    }

    #[test]
    fn a_flag_has_mastodons_shape_and_reads_back() {
        let flag = flag(
            "https://a.example/actor#flags/1",
            "https://a.example/actor",
            strings(&[
                "https://b.example/users/bob",
                "https://b.example/users/bob/statuses/2",
            ]),
            "Please look",
        );
        assert_eq!(flag["@context"], ACTIVITY_STREAMS);
        assert_eq!(flag["type"], "Flag");
        assert!(flag.get("to").is_none() && flag.get("cc").is_none());
        let read = Activity::from_json(&flag).expect("activity");
        assert_eq!(read.id.as_deref(), Some("https://a.example/actor#flags/1"));
        assert_eq!(read.content.as_deref(), Some("Please look"));
        assert_eq!(
            read.object_ids(),
            strings(&[
                "https://b.example/users/bob",
                "https://b.example/users/bob/statuses/2"
            ])
        );
        // One object alone, or objects embedded, name the same.
        let one = json!({"type": "Flag", "actor": "https://a.example/actor",
            "object": {"id": "https://b.example/users/bob", "type": "Person"}});
        let read = Activity::from_json(&one).expect("activity");
        assert_eq!(read.object_ids(), strings(&["https://b.example/users/bob"]));
        assert_eq!(read.content, None);
    }

    #[test]
    fn reads_a_mastodon_actor() {
        let a = Actor::from_json(&mastodon_actor()).expect("actor");
        assert_eq!(a.id, "https://mastodon.example/users/alice");
        assert_eq!(a.kind, "Person");
        assert!(!a.bot);
        assert_eq!(a.preferred_username, "alice");
        assert_eq!(a.name.as_deref(), Some("Alice 🌻"));
        assert!(
            a.summary_html
                .as_deref()
                .is_some_and(|s| s.starts_with("<p>Gardener."))
        );
        assert_eq!(a.url.as_deref(), Some("https://mastodon.example/@alice"));
        assert_eq!(a.inbox, "https://mastodon.example/users/alice/inbox");
        assert_eq!(
            a.shared_inbox.as_deref(),
            Some("https://mastodon.example/inbox")
        );
        assert_eq!(
            a.outbox.as_deref(),
            Some("https://mastodon.example/users/alice/outbox")
        );
        assert_eq!(
            a.followers.as_deref(),
            Some("https://mastodon.example/users/alice/followers")
        );
        assert_eq!(
            a.following.as_deref(),
            Some("https://mastodon.example/users/alice/following")
        );
        assert_eq!(
            a.featured.as_deref(),
            Some("https://mastodon.example/users/alice/collections/featured")
        );
        assert!(!a.manually_approves_followers);
        assert_eq!(a.discoverable, Some(true));
        assert!(a.indexable);
        assert_eq!(
            a.public_key_id,
            "https://mastodon.example/users/alice#main-key"
        );
        assert_eq!(a.public_key_pem, PEM);
        assert_eq!(
            a.icon_url.as_deref(),
            Some("https://files.mastodon.example/accounts/avatars/000/000/001/original/a.png")
        );
        assert_eq!(
            a.image_url.as_deref(),
            Some("https://files.mastodon.example/accounts/headers/000/000/001/original/h.jpg")
        );
        assert_eq!(a.fields.len(), 2);
        assert_eq!(a.fields[0].0, "Website");
        assert!(a.fields[0].1.contains("alice.example"));
        assert_eq!(a.fields[1], ("Pronouns".into(), "she/her".into()));
        assert_eq!(a.published, Some(t("2022-11-05T00:00:00Z")));
        assert!(a.also_known_as.is_empty());
    }

    #[test]
    fn reads_a_mastodon_note() {
        let n = Note::from_json(&mastodon_note()).expect("note");
        assert_eq!(n.id, "https://mastodon.example/users/alice/statuses/111");
        assert_eq!(n.kind, "Note");
        assert_eq!(n.attributed_to, "https://mastodon.example/users/alice");
        assert!(
            n.content_html.contains("#<span>Plants</span>"),
            "content wins over contentMap"
        );
        assert_eq!(n.language.as_deref(), Some("en"));
        assert_eq!(n.summary.as_deref(), Some("plants"));
        assert!(n.sensitive);
        assert_eq!(n.published, Some(t("2024-03-01T12:34:56Z")));
        assert_eq!(n.updated, Some(t("2024-03-01T13:00:00Z")));
        assert_eq!(
            n.url.as_deref(),
            Some("https://mastodon.example/@alice/111")
        );
        assert_eq!(
            n.in_reply_to.as_deref(),
            Some("https://other.example/notes/9")
        );
        assert_eq!(n.to, strings(&[PUBLIC]));
        assert_eq!(
            n.cc,
            strings(&[
                "https://mastodon.example/users/alice/followers",
                "https://fedblog.example/users/bob"
            ])
        );
        assert_eq!(
            n.mentions,
            vec![Mention {
                href: "https://fedblog.example/users/bob".into(),
                name: Some("@bob@fedblog.example".into()),
            }]
        );
        assert_eq!(n.hashtags, strings(&["Plants"]));
        assert_eq!(
            n.emojis,
            vec![Emoji {
                shortcode: "blobcat".into(),
                url: "https://files.mastodon.example/custom_emojis/images/42/blobcat.png".into(),
                id: Some("https://mastodon.example/emojis/42".into()),
                updated: parse_time(&json!("2023-01-01T00:00:00Z")),
            }]
        );
        assert_eq!(
            n.attachments.len(),
            1,
            "the Link (preview card) is not media"
        );
        let m = &n.attachments[0];
        assert_eq!(m.kind, "Document");
        assert_eq!(m.media_type.as_deref(), Some("image/jpeg"));
        assert_eq!(
            m.url,
            "https://files.mastodon.example/media_attachments/files/1/original/p.jpg"
        );
        assert_eq!(m.description.as_deref(), Some("A fern in a pot"));
        assert_eq!(
            m.blurhash.as_deref(),
            Some("UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH")
        );
        assert_eq!((m.width, m.height), (Some(1200), Some(800)));
        assert_eq!(m.focal_point, Some((0.5, -0.25)));
        assert_eq!(
            n.conversation.as_deref(),
            Some("https://mastodon.example/contexts/555")
        );
        // Mastodon embeds its replies collection with an empty first page pointing on.
        let replies = n.replies.as_ref().expect("replies");
        let Some(FirstPage::Here(first)) = first_page(replies) else {
            panic!("the first page is embedded: {replies}");
        };
        assert!(collection_page_items(first).is_empty());
        assert_eq!(
            first_page(&json!(
                "https://mastodon.example/users/alice/statuses/111/replies"
            )),
            Some(FirstPage::At(
                "https://mastodon.example/users/alice/statuses/111/replies".into()
            ))
        );
        assert_eq!(
            first_page(
                &json!({"id": "https://x.example/r", "first": "https://x.example/r?page=1"})
            ),
            Some(FirstPage::At("https://x.example/r?page=1".into()))
        );
        let page = json!({"type": "OrderedCollectionPage", "orderedItems": [
            "https://x.example/1", {"id": "https://x.example/2", "type": "Note"}, 7
        ]});
        assert_eq!(first_page(&page), Some(FirstPage::Here(&page)));
        // An empty collection with no items named at all lists nothing; an object that is only
        // an id is fetched.
        let empty =
            json!({"id": "https://x.example/f", "type": "OrderedCollection", "totalItems": 0});
        assert_eq!(first_page(&empty), Some(FirstPage::Here(&empty)));
        assert!(collection_page_items(&empty).is_empty());
        assert_eq!(
            first_page(&json!({"id": "https://x.example/f"})),
            Some(FirstPage::At("https://x.example/f".into()))
        );
        assert_eq!(
            collection_page_items(&page),
            strings(&["https://x.example/1", "https://x.example/2"])
        );
        assert_eq!(
            visibility_of(
                &n.to,
                &n.cc,
                Some("https://mastodon.example/users/alice/followers")
            ),
            Visibility::Public
        );
    }

    #[test]
    fn reads_a_create_and_its_object() {
        let mut create = json!({
            "@context": "https://www.w3.org/ns/activitystreams",
            "id": "https://mastodon.example/users/alice/statuses/111/activity",
            "type": "Create",
            "actor": "https://mastodon.example/users/alice",
            "published": "2024-03-01T12:34:56Z",
            "to": ["https://www.w3.org/ns/activitystreams#Public"],
            "cc": ["https://mastodon.example/users/alice/followers"],
        });
        create["object"] = mastodon_note();
        let a = Activity::from_json(&create).expect("activity");
        assert_eq!(
            a.id.as_deref(),
            Some("https://mastodon.example/users/alice/statuses/111/activity")
        );
        assert_eq!(a.kind, "Create");
        assert_eq!(a.actor, "https://mastodon.example/users/alice");
        assert_eq!(
            a.object_id().as_deref(),
            Some("https://mastodon.example/users/alice/statuses/111")
        );
        assert_eq!(a.object_kind().as_deref(), Some("Note"));
        assert_eq!(a.to, strings(&[PUBLIC]));
        assert_eq!(a.published, Some(t("2024-03-01T12:34:56Z")));
        assert!(Note::from_json(&a.object).is_ok());

        // An Undo of a Follow, the inner object embedded; a Like by reference, no id.
        let undo = Activity::from_json(&json!({
            "type": "Undo",
            "actor": {"id": "https://a.example/u", "type": "Person"},
            "object": {"id": "https://a.example/f/1", "type": "Follow", "actor": "https://a.example/u", "object": "https://b.example/users/c"}
        }))
        .expect("undo");
        assert_eq!(undo.id, None);
        assert_eq!(undo.actor, "https://a.example/u");
        assert_eq!(undo.object_kind().as_deref(), Some("Follow"));
        assert_eq!(undo.object_id().as_deref(), Some("https://a.example/f/1"));
        let like = Activity::from_json(&json!({
            "id": "https://a.example/l/1", "type": "Like", "actor": "https://a.example/u",
            "object": "https://b.example/users/c/statuses/1"
        }))
        .expect("like");
        assert_eq!(like.object_kind(), None);
        assert_eq!(
            like.object_id().as_deref(),
            Some("https://b.example/users/c/statuses/1")
        );
        let add = Activity::from_json(&json!({
            "type": "Add", "actor": "https://a.example/u", "object": "https://a.example/n/1",
            "target": {"id": "https://a.example/u/featured", "type": "OrderedCollection"}
        }))
        .expect("add");
        assert_eq!(add.target.as_deref(), Some("https://a.example/u/featured"));
    }

    #[test]
    fn reads_pleroma_and_misskey_shapes() {
        let actor = json!({
            "@context": ["https://www.w3.org/ns/activitystreams", "https://pleroma.example/schemas/litepub-0.1.jsonld", {"@language": "und"}],
            "id": "https://pleroma.example/users/carol",
            "type": ["Service"],
            "preferredUsername": "carol",
            "inbox": {"id": "https://pleroma.example/users/carol/inbox"},
            "url": [
                {"type": "Link", "mediaType": "application/activity+json", "href": "https://pleroma.example/users/carol"},
                {"type": "Link", "href": "https://pleroma.example/@carol"}
            ],
            "publicKey": [
                {"id": "https://pleroma.example/users/carol#ed25519", "owner": "https://pleroma.example/users/carol", "type": "Multikey"},
                {"id": "https://pleroma.example/users/carol#main-key", "owner": "https://pleroma.example/users/carol", "publicKeyPem": PEM}
            ],
            "icon": [{"type": "Image", "url": {"type": "Link", "href": "https://pleroma.example/media/a.png"}}],
            "attachment": [
                {"type": "PropertyValue", "name": "site", "value": "x"},
                {"type": "IdentityProof", "name": "y", "signatureValue": "z"}
            ],
            "alsoKnownAs": ["https://old.example/users/carol", {"id": "https://older.example/u/carol"}],
            "manuallyApprovesFollowers": true,
            "published": "2023-02-03T04:05:06.789+01:00"
        });
        let a = Actor::from_json(&actor).expect("actor");
        assert_eq!(a.kind, "Service");
        assert!(a.bot);
        assert_eq!(a.inbox, "https://pleroma.example/users/carol/inbox");
        assert_eq!(a.shared_inbox, None);
        assert_eq!(a.url.as_deref(), Some("https://pleroma.example/@carol"));
        assert_eq!(
            a.public_key_id,
            "https://pleroma.example/users/carol#main-key"
        );
        assert_eq!(
            a.icon_url.as_deref(),
            Some("https://pleroma.example/media/a.png")
        );
        assert_eq!(a.fields, vec![("site".to_string(), "x".to_string())]);
        assert_eq!(
            a.also_known_as,
            strings(&[
                "https://old.example/users/carol",
                "https://older.example/u/carol"
            ])
        );
        assert!(a.manually_approves_followers);
        assert_eq!(a.discoverable, None);
        assert!(!a.indexable);
        assert_eq!(a.name, None);
        assert_eq!(a.published, Some(t("2023-02-03T03:05:06.789Z")));

        let note = json!({
            "id": "https://misskey.example/notes/9xyz",
            "type": "Note",
            "attributedTo": [
                {"type": "Group", "id": "https://misskey.example/channels/1"},
                {"type": "Person", "id": "https://misskey.example/users/dan"}
            ],
            "contentMap": {"ja": "<p>こんにちは</p>"},
            "_misskey_content": "こんにちは",
            "url": [{"type": "Link", "mediaType": "text/html", "href": "https://misskey.example/notes/9xyz"}],
            "to": "https://misskey.example/users/dan/followers",
            "cc": {"id": "https://fedblog.example/users/bob"},
            "inReplyTo": {"id": "https://fedblog.example/users/bob/statuses/7", "type": "Note"},
            "tag": {"type": "Hashtag", "name": "#猫"},
            "attachment": {
                "type": "Image",
                "url": [{"type": "Link", "href": "https://misskey.example/files/cat.webp", "mediaType": "image/webp"}],
                "summary": "a cat",
                "name": "cat.webp",
                "width": 640.0
            },
            "published": "2024-01-02T03:04:05.000Z"
        });
        let n = Note::from_json(&note).expect("note");
        assert_eq!(n.attributed_to, "https://misskey.example/users/dan");
        assert_eq!(n.content_html, "<p>こんにちは</p>");
        assert_eq!(n.language.as_deref(), Some("ja"));
        assert_eq!(n.url.as_deref(), Some("https://misskey.example/notes/9xyz"));
        assert_eq!(
            n.to,
            strings(&["https://misskey.example/users/dan/followers"])
        );
        assert_eq!(n.cc, strings(&["https://fedblog.example/users/bob"]));
        assert_eq!(
            n.in_reply_to.as_deref(),
            Some("https://fedblog.example/users/bob/statuses/7")
        );
        assert_eq!(n.hashtags, strings(&["猫"]));
        assert_eq!(n.summary, None);
        assert!(!n.sensitive);
        let m = &n.attachments[0];
        assert_eq!(m.kind, "Image");
        assert_eq!(m.url, "https://misskey.example/files/cat.webp");
        assert_eq!(m.description.as_deref(), Some("a cat"));
        assert_eq!(m.width, Some(640));
        assert_eq!(m.height, None);
        assert_eq!(
            visibility_of(
                &n.to,
                &n.cc,
                Some("https://misskey.example/users/dan/followers")
            ),
            Visibility::Private
        );

        // A PeerTube-style url array without a page link gives no url, as in Mastodon.
        let no_page =
            json!([{"type": "Link", "mediaType": "video/mp4", "href": "https://p.example/v.mp4"}]);
        assert_eq!(href_of(&no_page, Some("text/html")), None);
        assert_eq!(
            href_of(&no_page, None).as_deref(),
            Some("https://p.example/v.mp4")
        );
    }

    #[test]
    fn missing_required_fields_are_errors() {
        let without = |key: &str| {
            let mut v = mastodon_actor();
            if let Some(o) = v.as_object_mut() {
                o.remove(key);
            }
            Actor::from_json(&v)
        };
        for (key, field) in [
            ("id", "id"),
            ("type", "type"),
            ("preferredUsername", "preferredUsername"),
            ("inbox", "inbox"),
            ("publicKey", "publicKey"),
        ] {
            assert_eq!(
                without(key),
                Err(VocabError::Missing {
                    what: "actor",
                    field
                }),
                "{key}"
            );
        }
        let mut v = mastodon_actor();
        v["type"] = json!("Tombstone");
        let err = Actor::from_json(&v).expect_err("tombstone");
        assert_eq!(err.to_string(), "`Tombstone` is not a supported actor type");
        v["type"] = json!("Person");
        v["publicKey"] = json!({"id": "https://mastodon.example/users/alice#main-key"});
        assert_eq!(
            Actor::from_json(&v),
            Err(VocabError::Missing {
                what: "actor",
                field: "publicKey.publicKeyPem"
            })
        );
        v["publicKey"] = json!({"id": "https://evil.example/k", "owner": "https://evil.example/u", "publicKeyPem": PEM});
        let err = Actor::from_json(&v).expect_err("foreign key");
        assert!(err.to_string().contains("https://evil.example/u"), "{err}");
        assert_eq!(
            Actor::from_json(&json!("https://a.example/u")),
            Err(VocabError::NotAnObject("actor"))
        );

        let mut n = mastodon_note();
        n["attributedTo"] = json!([]);
        assert_eq!(
            Note::from_json(&n),
            Err(VocabError::Missing {
                what: "note",
                field: "attributedTo"
            })
        );
        n["attributedTo"] = json!("https://mastodon.example/users/alice");
        n["type"] = json!("Person");
        assert!(matches!(
            Note::from_json(&n),
            Err(VocabError::UnsupportedType { .. })
        ));
        n["type"] = json!("Note");
        n["id"] = json!("");
        assert_eq!(
            Note::from_json(&n).map_err(|e| e.to_string()),
            Err("the note has no usable `id`".to_string())
        );

        assert_eq!(
            Activity::from_json(&json!({"type": "Follow", "object": "https://b.example/u"})),
            Err(VocabError::Missing {
                what: "activity",
                field: "actor"
            })
        );
        assert_eq!(
            Activity::from_json(&json!({"actor": "https://a.example/u"})),
            Err(VocabError::Missing {
                what: "activity",
                field: "type"
            })
        );
        assert_eq!(
            Activity::from_json(&json!([])),
            Err(VocabError::NotAnObject("activity"))
        );
    }

    fn actor_doc() -> ActorDoc {
        let id = "https://fedblog.example/users/bob".to_string();
        ActorDoc {
            kind: "Person".into(),
            preferred_username: "bob".into(),
            name: "Bob".into(),
            summary_html: "<p>hi</p>".into(),
            url: "https://fedblog.example/@bob".into(),
            inbox: format!("{id}/inbox"),
            outbox: format!("{id}/outbox"),
            followers: format!("{id}/followers"),
            following: format!("{id}/following"),
            featured: format!("{id}/collections/featured"),
            featured_tags: format!("{id}/collections/tags"),
            shared_inbox: "https://fedblog.example/inbox".into(),
            manually_approves_followers: true,
            discoverable: true,
            indexable: false,
            published: t("2024-05-06T07:08:09Z"),
            public_key_id: format!("{id}#main-key"),
            public_key_pem: PEM.into(),
            icon: Some((
                "https://fedblog.example/files/a.png".into(),
                "image/png".into(),
            )),
            image: None,
            fields: vec![(
                "Site".into(),
                "<a href=\"https://b.example\">b.example</a>".into(),
            )],
            also_known_as: vec!["https://old.example/users/bob".into()],
            moved_to: Some("https://new.example/users/bob".into()),
            id,
        }
    }

    #[test]
    fn actor_doc_has_mastodons_shape_and_reads_back() {
        let doc = actor_doc();
        let v = doc.to_json();
        assert_eq!(v["@context"][0], ACTIVITY_STREAMS);
        assert_eq!(v["@context"][1], SECURITY_V1);
        assert_eq!(v["@context"][2]["toot"], TOOT);
        assert_eq!(v["@context"][2]["featured"]["@type"], "@id");
        assert_eq!(v["@context"][2]["PropertyValue"], "schema:PropertyValue");
        assert_eq!(v["@context"][2]["indexable"], "toot:indexable");
        assert_eq!(v["publicKey"]["owner"], doc.id.as_str());
        assert_eq!(
            v["endpoints"]["sharedInbox"],
            "https://fedblog.example/inbox"
        );
        assert_eq!(v["attachment"][0]["type"], "PropertyValue");
        assert_eq!(v["icon"]["type"], "Image");
        assert_eq!(v["icon"]["mediaType"], "image/png");
        assert_eq!(
            v["published"], "2024-05-06T00:00:00Z",
            "the day only, as Mastodon"
        );
        assert_eq!(
            v["featuredTags"],
            "https://fedblog.example/users/bob/collections/tags"
        );
        assert!(v.get("image").is_none());
        assert!(v.get("memorial").is_none());

        let a = Actor::from_json(&v).expect("reads back");
        assert_eq!(a.id, doc.id);
        assert_eq!(a.kind, "Person");
        assert_eq!(a.preferred_username, "bob");
        assert_eq!(a.name.as_deref(), Some("Bob"));
        assert_eq!(a.summary_html.as_deref(), Some("<p>hi</p>"));
        assert_eq!(a.url.as_deref(), Some("https://fedblog.example/@bob"));
        assert_eq!(a.inbox, doc.inbox);
        assert_eq!(
            a.shared_inbox.as_deref(),
            Some("https://fedblog.example/inbox")
        );
        assert_eq!(a.outbox.as_deref(), Some(doc.outbox.as_str()));
        assert_eq!(a.followers.as_deref(), Some(doc.followers.as_str()));
        assert_eq!(a.following.as_deref(), Some(doc.following.as_str()));
        assert_eq!(a.featured.as_deref(), Some(doc.featured.as_str()));
        assert!(a.manually_approves_followers);
        assert_eq!(a.discoverable, Some(true));
        assert!(!a.indexable);
        assert_eq!(
            (a.public_key_id, a.public_key_pem),
            (doc.public_key_id, doc.public_key_pem)
        );
        assert_eq!(
            a.icon_url.as_deref(),
            Some("https://fedblog.example/files/a.png")
        );
        assert_eq!(a.image_url, None);
        assert_eq!(a.fields, doc.fields);
        assert_eq!(a.published, Some(t("2024-05-06T00:00:00Z")));
        assert_eq!(a.also_known_as, doc.also_known_as);
        assert_eq!(a.moved_to, doc.moved_to);
        assert!(!a.bot);

        // A bot; an empty name is written as the username.
        let mut bot = actor_doc();
        bot.kind = "Service".into();
        bot.name = String::new();
        bot.shared_inbox = String::new();
        bot.also_known_as = vec![];
        bot.moved_to = None;
        let v = bot.to_json();
        assert_eq!(v["name"], "bob");
        assert!(v.get("endpoints").is_none());
        assert!(v.get("alsoKnownAs").is_none());
        assert!(v.get("movedTo").is_none());
        assert!(Actor::from_json(&v).expect("bot").bot);
    }

    fn note_doc() -> NoteDoc {
        let actor = "https://fedblog.example/users/bob".to_string();
        let (to, cc) = addressing(
            Visibility::Public,
            &format!("{actor}/followers"),
            &strings(&["https://mastodon.example/users/alice"]),
        );
        NoteDoc {
            id: format!("{actor}/statuses/1"),
            url: "https://fedblog.example/@bob/1".into(),
            attributed_to: actor,
            content_html: "<p>hello @alice #Rust</p>".into(),
            summary: Some("cw".into()),
            sensitive: true,
            published: t("2024-05-06T07:08:09Z"),
            updated: Some(t("2024-05-06T08:00:00Z")),
            in_reply_to: Some("https://mastodon.example/users/alice/statuses/111".into()),
            to,
            cc,
            mentions: vec![(
                "https://mastodon.example/users/alice".into(),
                "@alice@mastodon.example".into(),
            )],
            hashtags: vec![("https://fedblog.example/tags/rust".into(), "Rust".into())],
            attachments: vec![Attachment {
                url: "https://fedblog.example/files/p.png".into(),
                media_type: Some("image/png".into()),
                kind: "Document".into(),
                description: Some("a crab".into()),
                blurhash: Some("LEHV6nWB2yk8pyo0adR*.7kCMdnj".into()),
                width: Some(640),
                height: Some(480),
                focal_point: Some((0.0, 0.5)),
            }],
            language: Some("en".into()),
            conversation: Some("https://fedblog.example/contexts/1".into()),
            context: None,
            replies: Some(replies_collection(
                "https://fedblog.example/users/bob/statuses/1/replies",
                vec!["https://fedblog.example/users/bob/statuses/2".into()],
                Some("https://fedblog.example/users/bob/statuses/1/replies?page=true".into()),
            )),
            poll: None,
            emojis: vec![],
            quote: None,
            can_quote: None,
        }
    }

    #[test]
    fn a_question_has_mastodons_shape_and_reads_back() {
        let mut doc = note_doc();
        doc.poll = Some(QuestionDoc {
            options: vec![("tea".into(), 3), ("coffee".into(), 1)],
            multiple: false,
            voters_count: 4,
            end_time: Some(t("2024-05-07T07:08:09Z")),
            closed: false,
        });
        let v = doc.to_json(true);
        assert_eq!(v["type"], "Question");
        assert_eq!(
            v["oneOf"],
            json!([
                {"type": "Note", "name": "tea", "replies": {"type": "Collection", "totalItems": 3}},
                {"type": "Note", "name": "coffee", "replies": {"type": "Collection", "totalItems": 1}},
            ])
        );
        assert!(v.get("anyOf").is_none());
        assert_eq!(v["endTime"], "2024-05-07T07:08:09Z");
        assert!(v.get("closed").is_none(), "open: no closed");
        assert_eq!(v["votersCount"], 4);
        let n = Note::from_json(&v).expect("reads back");
        assert_eq!(n.kind, "Question");
        assert_eq!(
            n.poll,
            Some(Question {
                options: vec![("tea".into(), 3), ("coffee".into(), 1)],
                multiple: false,
                voters_count: Some(4),
                end_time: Some(t("2024-05-07T07:08:09Z")),
                closed: None,
            })
        );

        // Several choices, ended.
        if let Some(p) = doc.poll.as_mut() {
            p.multiple = true;
            p.closed = true;
        }
        let v = doc.to_json(false);
        assert!(v.get("oneOf").is_none());
        assert_eq!(v["anyOf"][1]["name"], "coffee");
        assert_eq!(v["closed"], "2024-05-07T07:08:09Z");
        let poll = Note::from_json(&v)
            .expect("reads back")
            .poll
            .expect("a poll");
        assert!(poll.multiple);
        assert_eq!(poll.closed, Some(Some(t("2024-05-07T07:08:09Z"))));

        // Read leniently: a title in `content`, no count, `closed: true`, no title at all.
        let other = json!({
            "id": "https://other.example/q/1", "type": "Question",
            "attributedTo": "https://other.example/u/1",
            "closed": true,
            "oneOf": [{"type": "Note", "content": "yes"}, {"type": "Note"}, {"name": "no",
                "replies": {"totalItems": 2}}],
        });
        let poll = Note::from_json(&other)
            .expect("reads")
            .poll
            .expect("a poll");
        assert_eq!(poll.options, vec![("yes".into(), 0), ("no".into(), 2)]);
        assert_eq!((poll.closed, poll.voters_count), (Some(None), None));
        // A Note, or a Question without options, has no poll.
        assert_eq!(
            Note::from_json(&note_doc().to_json(false))
                .expect("note")
                .poll,
            None
        );
        let bare = json!({"id": "https://other.example/q/2", "type": "Question",
            "attributedTo": "https://other.example/u/1", "content": "?"});
        assert_eq!(Note::from_json(&bare).expect("question").poll, None);
    }

    #[test]
    fn a_vote_has_mastodons_shape_and_reads_back_as_a_named_note() {
        let v = vote(
            "https://fedblog.example/users/bob#votes/7/0",
            "https://fedblog.example/users/bob",
            "https://mastodon.example/users/alice",
            "https://mastodon.example/users/alice/statuses/1",
            "tea",
        );
        assert_eq!(v["type"], "Create");
        assert_eq!(
            v["id"],
            "https://fedblog.example/users/bob#votes/7/0/activity"
        );
        assert_eq!(v["to"], "https://mastodon.example/users/alice");
        assert!(v.get("cc").is_none());
        let activity = Activity::from_json(&v).expect("an activity");
        assert_eq!(activity.actor, "https://fedblog.example/users/bob");
        let n = Note::from_json(&activity.object).expect("a note");
        assert_eq!(n.id, "https://fedblog.example/users/bob#votes/7/0");
        assert_eq!(n.name.as_deref(), Some("tea"));
        assert_eq!(n.content_html, "");
        assert_eq!(
            n.in_reply_to.as_deref(),
            Some("https://mastodon.example/users/alice/statuses/1")
        );
        assert_eq!(n.to, strings(&["https://mastodon.example/users/alice"]));
        assert_eq!(n.poll, None);
    }

    #[test]
    fn note_doc_has_mastodons_shape_and_reads_back() {
        let doc = note_doc();
        let v = doc.to_json(true);
        assert_eq!(v["@context"][0], ACTIVITY_STREAMS);
        assert_eq!(v["@context"][1]["sensitive"], "as:sensitive");
        assert_eq!(v["@context"][1]["blurhash"], "toot:blurhash");
        assert_eq!(v["type"], "Note");
        assert_eq!(v["contentMap"]["en"], "<p>hello @alice #Rust</p>");
        assert_eq!(v["published"], "2024-05-06T07:08:09Z");
        assert_eq!(v["tag"][0]["type"], "Mention");
        assert_eq!(v["tag"][1]["type"], "Hashtag");
        assert_eq!(v["tag"][1]["name"], "#Rust");
        assert_eq!(v["attachment"][0]["type"], "Document");
        assert_eq!(v["attachment"][0]["name"], "a crab");
        assert_eq!(v["attachment"][0]["focalPoint"], json!([0.0, 0.5]));
        assert!(doc.to_json(false).get("@context").is_none());

        let n = Note::from_json(&v).expect("reads back");
        assert_eq!(n.id, doc.id);
        assert_eq!(n.attributed_to, doc.attributed_to);
        assert_eq!(n.content_html, doc.content_html);
        assert_eq!(n.language.as_deref(), Some("en"));
        assert_eq!(n.summary, doc.summary);
        assert!(n.sensitive);
        assert_eq!(n.published, Some(doc.published));
        assert_eq!(n.updated, doc.updated);
        assert_eq!(n.url.as_deref(), Some(doc.url.as_str()));
        assert_eq!(n.in_reply_to, doc.in_reply_to);
        assert_eq!(
            (n.to.clone(), n.cc.clone()),
            (doc.to.clone(), doc.cc.clone())
        );
        assert_eq!(
            n.mentions,
            vec![Mention {
                href: "https://mastodon.example/users/alice".into(),
                name: Some("@alice@mastodon.example".into()),
            }]
        );
        assert_eq!(n.hashtags, strings(&["Rust"]));
        assert_eq!(
            n.attachments,
            vec![Attachment {
                url: "https://fedblog.example/files/p.png".into(),
                media_type: Some("image/png".into()),
                kind: "Document".into(),
                description: Some("a crab".into()),
                blurhash: Some("LEHV6nWB2yk8pyo0adR*.7kCMdnj".into()),
                width: Some(640),
                height: Some(480),
                focal_point: Some((0.0, 0.5)),
            }]
        );
        assert_eq!(n.conversation, doc.conversation);
        let replies = n.replies.as_ref().expect("replies read back");
        let Some(FirstPage::Here(first)) = first_page(replies) else {
            panic!("the first page is embedded: {replies}");
        };
        assert_eq!(
            collection_page_items(first),
            strings(&["https://fedblog.example/users/bob/statuses/2"])
        );
        assert_eq!(
            visibility_of(
                &n.to,
                &n.cc,
                Some("https://fedblog.example/users/bob/followers")
            ),
            Visibility::Public
        );

        // Without a language, no contentMap; without an edit, no updated.
        let mut plain = note_doc();
        plain.language = None;
        plain.updated = None;
        plain.summary = None;
        let v = plain.to_json(false);
        assert!(v.get("contentMap").is_none());
        assert!(v.get("updated").is_none());
        assert_eq!(v["summary"], Value::Null);
        let n = Note::from_json(&v).expect("plain");
        assert_eq!((n.language, n.summary, n.updated), (None, None, None));
    }

    #[test]
    fn activities_and_collections() {
        let doc = note_doc();
        let create = activity(
            &format!("{}/activity", doc.id),
            "Create",
            &doc.attributed_to,
            doc.to_json(true),
            &doc.to,
            &doc.cc,
            Some(doc.published),
        );
        assert_eq!(create["@context"], note_context());
        assert!(create["object"].get("@context").is_none());
        assert_eq!(create["published"], "2024-05-06T07:08:09Z");
        let a = Activity::from_json(&create).expect("create");
        assert_eq!(a.kind, "Create");
        assert_eq!(a.actor, doc.attributed_to);
        assert_eq!((&a.to, &a.cc), (&doc.to, &doc.cc));
        assert_eq!(a.object_id(), Some(doc.id.clone()));
        assert_eq!(Note::from_json(&a.object).map(|n| n.id), Ok(doc.id.clone()));

        let update = activity(
            "https://fedblog.example/users/bob#updates/1",
            "Update",
            "https://fedblog.example/users/bob",
            actor_doc().to_json(),
            &[PUBLIC.to_string()],
            &[],
            None,
        );
        assert_eq!(update["@context"], actor_context());
        assert_eq!(update["cc"], json!([]));
        assert!(update.get("published").is_none());
        let a = Activity::from_json(&update).expect("update");
        assert!(Actor::from_json(&a.object).is_ok());

        let follow = activity(
            "https://fedblog.example/users/bob#follows/1",
            "Follow",
            "https://fedblog.example/users/bob",
            Value::String("https://mastodon.example/users/alice".into()),
            &[],
            &[],
            None,
        );
        assert_eq!(follow["@context"], ACTIVITY_STREAMS);
        assert!(follow.get("to").is_none() && follow.get("cc").is_none());
        let delete = activity(
            "https://fedblog.example/users/bob/statuses/1#delete",
            "Delete",
            "https://fedblog.example/users/bob",
            tombstone("https://fedblog.example/users/bob/statuses/1"),
            &[PUBLIC.to_string()],
            &[],
            None,
        );
        assert_eq!(delete["object"]["type"], "Tombstone");
        assert_eq!(
            Activity::from_json(&delete)
                .ok()
                .and_then(|a| a.object_id())
                .as_deref(),
            Some("https://fedblog.example/users/bob/statuses/1")
        );

        let c = ordered_collection(
            "https://x.example/c",
            Some(3),
            Some("https://x.example/c?page=true".into()),
        );
        assert_eq!(c["type"], "OrderedCollection");
        assert_eq!(c["totalItems"], 3);
        assert_eq!(c["first"], "https://x.example/c?page=true");
        let hidden = ordered_collection("https://x.example/c", Some(3), None);
        assert!(hidden.get("first").is_none());
        let p = ordered_collection_page(
            "https://x.example/c?page=true",
            "https://x.example/c",
            vec![json!("https://a.example/u")],
            Some("https://x.example/c?page=true&max_id=1".into()),
            None,
        );
        assert_eq!(p["type"], "OrderedCollectionPage");
        assert_eq!(p["partOf"], "https://x.example/c");
        assert_eq!(p["orderedItems"], json!(["https://a.example/u"]));
        assert!(p.get("prev").is_none());
        assert_eq!(p["next"], "https://x.example/c?page=true&max_id=1");
        assert!(strip_context(p).get("@context").is_none());
    }

    #[test]
    fn visibility_and_addressing_round_trip() {
        let followers = "https://fedblog.example/users/bob/followers";
        let mentioned = strings(&[
            "https://mastodon.example/users/alice",
            "https://mastodon.example/users/alice",
        ]);
        let cases = [
            (
                Visibility::Public,
                strings(&[PUBLIC]),
                strings(&[followers, "https://mastodon.example/users/alice"]),
            ),
            (
                Visibility::Unlisted,
                strings(&[followers]),
                strings(&[PUBLIC, "https://mastodon.example/users/alice"]),
            ),
            (
                Visibility::Private,
                strings(&[followers]),
                strings(&["https://mastodon.example/users/alice"]),
            ),
            (
                Visibility::Direct,
                strings(&["https://mastodon.example/users/alice"]),
                vec![],
            ),
        ];
        for (visibility, want_to, want_cc) in cases {
            let (to, cc) = addressing(visibility, followers, &mentioned);
            assert_eq!((&to, &cc), (&want_to, &want_cc), "{visibility:?}");
            assert_eq!(
                visibility_of(&to, &cc, Some(followers)),
                visibility,
                "known followers"
            );
            assert_eq!(
                visibility_of(&to, &cc, None),
                visibility,
                "guessed followers"
            );
        }
        // The compact spellings of the public collection.
        assert!(is_public("as:Public") && is_public("Public") && is_public(PUBLIC));
        assert!(!is_public("https://www.w3.org/ns/activitystreams"));
        assert_eq!(
            visibility_of(&strings(&["as:Public"]), &[], None),
            Visibility::Public
        );
        assert_eq!(
            visibility_of(&[], &strings(&["Public"]), None),
            Visibility::Unlisted
        );
        // Another actor's followers collection is not the author's.
        assert_eq!(
            visibility_of(
                &strings(&["https://other.example/users/x/followers"]),
                &[],
                Some(followers)
            ),
            Visibility::Direct
        );
        // With nobody mentioned, a direct post has no audience at all.
        assert_eq!(
            addressing(Visibility::Direct, followers, &[]),
            (vec![], vec![])
        );
    }

    #[test]
    fn content_negotiation() {
        for yes in [
            "application/activity+json",
            "application/ld+json",
            "application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\"",
            "application/activity+json, application/ld+json",
            "Application/Activity+JSON",
            "application/json",
            "application/activity+json, */*;q=0.8",
            "text/html;q=0.5, application/activity+json",
            "application/ld+json; profile=\"a,b\", text/html;q=0.9",
        ] {
            assert!(wants_activity_json(Some(yes)), "{yes}");
        }
        for no in [
            "text/html",
            "*/*",
            "",
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
            "text/html, application/activity+json",
            "application/activity+json;q=0, text/html;q=0.1",
            "application/activity+json;q=0",
            "image/png",
        ] {
            assert!(!wants_activity_json(Some(no)), "{no}");
        }
        assert!(!wants_activity_json(None));

        for yes in [
            "application/activity+json",
            "application/activity+json; charset=utf-8",
            "application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\"",
            "application/ld+json",
            "application/json",
            " APPLICATION/JSON ; charset=UTF-8",
        ] {
            assert!(is_activity_content_type(yes), "{yes}");
        }
        for no in [
            "text/html",
            "application/x-www-form-urlencoded",
            "",
            "multipart/form-data",
        ] {
            assert!(!is_activity_content_type(no), "{no}");
        }
    }

    #[test]
    fn lenient_readers() {
        assert_eq!(id_of(&json!("https://a/1")).as_deref(), Some("https://a/1"));
        assert_eq!(
            id_of(&json!({"id": "https://a/2"})).as_deref(),
            Some("https://a/2")
        );
        assert_eq!(
            id_of(&json!({"type": "Link", "href": "https://a/3"})).as_deref(),
            Some("https://a/3")
        );
        assert_eq!(
            id_of(&json!([{}, "https://a/4"])).as_deref(),
            Some("https://a/4")
        );
        assert_eq!(id_of(&json!("")), None);
        assert_eq!(id_of(&json!(3)), None);
        assert_eq!(id_of(&Value::Null), None);
        assert_eq!(
            uris(&json!(["https://a/1", {"id": "https://a/2"}, 5, {"href": "https://a/3"}])),
            strings(&["https://a/1", "https://a/2", "https://a/3"])
        );
        assert_eq!(uris(&json!("https://a/1")), strings(&["https://a/1"]));
        assert!(uris(&Value::Null).is_empty());
        assert_eq!(first_str(&json!(["", "x"])), Some("x"));
        assert_eq!(first_str(&json!(1)), None);
        assert_eq!(type_of(&json!({"type": ["Note", "x:Thing"]})), Some("Note"));
        assert_eq!(
            parse_time(&json!("2024-01-02T03:04:05")),
            Some(t("2024-01-02T03:04:05Z"))
        );
        assert_eq!(parse_time(&json!("yesterday")), None);
        assert_eq!(
            timestamp(t("2024-01-02T03:04:05.678+02:00")),
            "2024-01-02T01:04:05Z"
        );
    }
}
