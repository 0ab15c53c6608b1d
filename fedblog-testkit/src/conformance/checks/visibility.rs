//! The visibility matrix (issue 5): for every read path, visibility (public, unlisted, private,
//! direct) and kind of viewer (author, follower, non-follower, mentioned, anonymous, blocked by
//! the author), whether the viewer gets the status. The expected outcomes are the table in
//! `visibility.tsv`; one check per read path asserts every cell of its rows and reports every
//! cell that fails, not only the first.
//!
//! The streams are read paths too (`stream-user`, `stream-public-local`, `stream-hashtag`):
//! each viewer connects before the statuses are posted, and a status is visible when the
//! viewer's stream carries its `update`, hidden when it does not within a short wait
//! ([`LISTEN`]), 401 when the stream is refused so.
//!
//! Read paths added when the endpoint lands: the tag timeline (`timelines/tag/:hashtag`),
//! search (v2) and translation.
//! `statuses/:id/source` is left out: fedblog answers it for the author only (404 to everyone
//! else), stricter than Mastodon, which gives it to every signed-in viewer who may see the status.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount,
    get_account_statuses::GetAccountStatuses, update_credentials::UpdateCredentials,
};
use fedblog_core::api::conversations::list_conversations::ListConversations;
use fedblog_core::api::lists::{add_list_accounts::AddListAccounts, create_list::CreateList};
use fedblog_core::api::notification_requests::update_notification_policy::UpdateNotificationPolicy;
use fedblog_core::api::notifications::list_notifications::ListNotifications;
use fedblog_core::api::polls::get_poll::GetPoll;
use fedblog_core::api::search::search_v2::SearchV2;
use fedblog_core::api::statuses::{
    bookmark_status::BookmarkStatus, favourite_status::FavouriteStatus,
    favourited_by::FavouritedBy, get_context::GetContext, get_status::GetStatus,
    get_statuses::GetStatuses, reblogged_by::RebloggedBy, status_history::GetStatusHistory,
};
use fedblog_core::api::streaming::{
    stream_hashtag::StreamHashtag, stream_public_local::StreamPublicLocal, stream_user::StreamUser,
};
use fedblog_core::api::timelines::{
    home_timeline::HomeTimeline, link_timeline::LinkTimeline, list_timeline::ListTimeline,
    public_timeline::PublicTimeline,
};

use crate::check;
use crate::client::{Response, form, query, truncate};
use crate::conformance::checks::polls::status_json;
use crate::conformance::checks::social::act;
use crate::conformance::checks::streaming::{self, Auth, Opened};
use crate::conformance::{Check, CheckResult, Cx, Failure, Feature, User, path, str_of};

/// The expected outcomes, one row per read path and visibility, one column per viewer.
const TABLE: &str = include_str!("visibility.tsv");

/// How long the streams are read after the last status is posted, at least: an `update` the
/// table does not expect that has not come by then is taken as never sent. (One it expects is
/// awaited for longer, up to the streaming checks' wait.)
const LISTEN: std::time::Duration = std::time::Duration::from_secs(2);

/// The checks of this area: one per read path.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "visibility/matrix/get-status",
            "GET /api/v1/statuses/:id answers every status to exactly the viewers the visibility matrix allows, and 404 (never 401/403) to the others",
            get_status
        ),
        check!(
            "visibility/matrix/multi-get",
            "GET /api/v1/statuses?id[]= returns exactly the statuses the visibility matrix lets the viewer see",
            multi_get
        ),
        check!(
            "visibility/matrix/context",
            "the descendants of a public status's context hold exactly the replies the visibility matrix lets the viewer see",
            context
        ),
        check!(
            "visibility/matrix/account-statuses",
            "GET /api/v1/accounts/:id/statuses lists exactly the author's statuses the visibility matrix lets the viewer see",
            account_statuses
        ),
        check!(
            "visibility/matrix/home",
            "the home timeline holds the author's own posts of every visibility and, for followers, the posts they may see; mentions alone, blocked viewers and anonymous callers get nothing",
            home
        ),
        check!(
            "visibility/matrix/public-local",
            "the local public timeline holds public posts only, for every viewer but one blocked by the author",
            public_local
        ),
        check!(
            "visibility/matrix/favourited-by",
            "favourited_by answers 200 for a status the viewer may see and 404 (never 401/403) otherwise",
            favourited_by
        ),
        check!(
            "visibility/matrix/reblogged-by",
            "reblogged_by answers 200 for a status the viewer may see and 404 (never 401/403) otherwise",
            reblogged_by
        ),
        check!(
            "visibility/matrix/history",
            "the edit history of a status answers 200 to the viewers the visibility matrix allows and 404 (never 401/403) to the others",
            history
        ),
        check!(
            "visibility/matrix/favourite",
            "favouriting a status the viewer may not see is a 404 (never 401/403); one it may see is a 200; without a token 401",
            favourite
        ),
        check!(
            "visibility/matrix/bookmark",
            "bookmarking a status the viewer may not see is a 404 (never 401/403); one it may see is a 200; without a token 401",
            bookmark
        ),
        check!(
            "visibility/matrix/get-poll",
            "GET /api/v1/polls/:id answers the poll of a status to exactly the viewers the visibility matrix allows, and 404 (never 401/403) to the others",
            get_poll
        ),
        check!(
            "visibility/matrix/notifications",
            "a status notifies only the accounts it mentions, whatever its visibility: followers, others, the author and a blocked account get no notification of it; anonymous callers get a 401",
            notifications
        ),
        check!(
            "visibility/matrix/conversations",
            "a direct status is in the conversations of its author and of the account it mentions, and of no one else; other visibilities make no conversation; anonymous callers get a 401",
            conversations
        ),
        check!(
            "visibility/matrix/link-timeline",
            "the link timeline of a link the statuses carry holds the public one only, for every viewer but one blocked by the author",
            link_timeline
        ),
        check!(
            "visibility/matrix/list",
            "a list timeline holding the author shows its owner the author's posts the owner may see, never direct ones; viewers who may not add the author, a blocked one and anonymous callers get nothing",
            list
        ),
        check!(
            "visibility/matrix/search-url",
            "GET /api/v2/search with resolve=true and a status's URL finds it for exactly the viewers the visibility matrix allows (a 401 without a token, which cannot resolve)",
            search_url
        ),
        check!(
            "visibility/matrix/search-text",
            "GET /api/v2/search finds statuses by a word of their text, their author having opted in with indexable, for exactly the viewers the visibility matrix allows: the public one for everyone signed in, all of them for the author and the account they mention, nothing without a token or for a blocked viewer",
            search_text
        ),
        check!(
            "visibility/matrix/stream-user",
            "the user stream, open before the statuses are posted, carries the `update` of exactly what the home timeline would show: the author's own posts and, for followers, the posts they may see; mentions alone and blocked viewers get none, anonymous callers a 401",
            stream_user
        ),
        check!(
            "visibility/matrix/stream-public-local",
            "the public:local stream, open before the statuses are posted, carries the `update` of public posts only, to every viewer (anonymous too) but one blocked by the author",
            stream_public_local
        ),
        check!(
            "visibility/matrix/stream-hashtag",
            "the hashtag stream of a tag every status carries, open before they are posted, carries the `update` of the public one only, to every viewer (anonymous too) but one blocked by the author",
            stream_hashtag
        ),
    ]
}

/// A status visibility, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Vis {
    Public,
    Unlisted,
    Private,
    Direct,
}

const VISIBILITIES: [Vis; 4] = [Vis::Public, Vis::Unlisted, Vis::Private, Vis::Direct];

impl Vis {
    fn name(self) -> &'static str {
        match self {
            Vis::Public => "public",
            Vis::Unlisted => "unlisted",
            Vis::Private => "private",
            Vis::Direct => "direct",
        }
    }
}

/// A kind of viewer, in table column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Viewer {
    Author,
    Follower,
    NonFollower,
    Mentioned,
    Anonymous,
    Blocked,
}

const VIEWERS: [Viewer; 6] = [
    Viewer::Author,
    Viewer::Follower,
    Viewer::NonFollower,
    Viewer::Mentioned,
    Viewer::Anonymous,
    Viewer::Blocked,
];

impl Viewer {
    fn name(self) -> &'static str {
        match self {
            Viewer::Author => "author",
            Viewer::Follower => "follower",
            Viewer::NonFollower => "non-follower",
            Viewer::Mentioned => "mentioned",
            Viewer::Anonymous => "anonymous",
            Viewer::Blocked => "blocked",
        }
    }
}

/// What a viewer gets on a path: the expected value of a cell, and what was observed.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// The status is shown.
    Visible,
    /// Not shown: 404 with an error body for a single status, absent from a list.
    Hidden,
    /// 401 with an error body (the path needs a user).
    Unauthorized,
    /// Anything else (observed only), described.
    Other(String),
}

impl Outcome {
    fn parse(s: &str) -> Option<Outcome> {
        match s {
            "visible" => Some(Outcome::Visible),
            "hidden" => Some(Outcome::Hidden),
            "401" => Some(Outcome::Unauthorized),
            _ => None,
        }
    }

    fn describe(&self) -> String {
        match self {
            Outcome::Visible => "visible".into(),
            Outcome::Hidden => "hidden".into(),
            Outcome::Unauthorized => "401".into(),
            Outcome::Other(d) => d.clone(),
        }
    }
}

/// A read path of the matrix; its name is the first column of the table and the last part of
/// its check id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum ReadPath {
    GetStatus,
    MultiGet,
    Context,
    AccountStatuses,
    Home,
    PublicLocal,
    FavouritedBy,
    RebloggedBy,
    History,
    Favourite,
    Bookmark,
    GetPoll,
    Notifications,
    List,
    Conversations,
    LinkTimeline,
    SearchUrl,
    SearchText,
    StreamUser,
    StreamPublicLocal,
    StreamHashtag,
}

const READ_PATHS: [ReadPath; 21] = [
    ReadPath::GetStatus,
    ReadPath::MultiGet,
    ReadPath::Context,
    ReadPath::AccountStatuses,
    ReadPath::Home,
    ReadPath::PublicLocal,
    ReadPath::FavouritedBy,
    ReadPath::RebloggedBy,
    ReadPath::History,
    ReadPath::Favourite,
    ReadPath::Bookmark,
    ReadPath::GetPoll,
    ReadPath::Notifications,
    ReadPath::List,
    ReadPath::Conversations,
    ReadPath::LinkTimeline,
    ReadPath::SearchUrl,
    ReadPath::SearchText,
    ReadPath::StreamUser,
    ReadPath::StreamPublicLocal,
    ReadPath::StreamHashtag,
];

impl ReadPath {
    fn name(self) -> &'static str {
        match self {
            ReadPath::GetStatus => "get-status",
            ReadPath::MultiGet => "multi-get",
            ReadPath::Context => "context",
            ReadPath::AccountStatuses => "account-statuses",
            ReadPath::Home => "home",
            ReadPath::List => "list",
            ReadPath::PublicLocal => "public-local",
            ReadPath::FavouritedBy => "favourited-by",
            ReadPath::RebloggedBy => "reblogged-by",
            ReadPath::History => "history",
            ReadPath::Favourite => "favourite",
            ReadPath::Bookmark => "bookmark",
            ReadPath::GetPoll => "get-poll",
            ReadPath::Notifications => "notifications",
            ReadPath::Conversations => "conversations",
            ReadPath::LinkTimeline => "link-timeline",
            ReadPath::SearchUrl => "search-url",
            ReadPath::SearchText => "search-text",
            ReadPath::StreamUser => "stream-user",
            ReadPath::StreamPublicLocal => "stream-public-local",
            ReadPath::StreamHashtag => "stream-hashtag",
        }
    }

    /// Whether it is a stream, read by connecting before the statuses are posted.
    fn is_stream(self) -> bool {
        matches!(
            self,
            ReadPath::StreamUser | ReadPath::StreamPublicLocal | ReadPath::StreamHashtag
        )
    }

    /// The stream's path and query (`tag` for the hashtag stream), if it is a stream.
    fn stream_path(self, tag: &str) -> Option<String> {
        match self {
            ReadPath::StreamUser => Some(path::<StreamUser>(&[])),
            ReadPath::StreamPublicLocal => Some(path::<StreamPublicLocal>(&[])),
            ReadPath::StreamHashtag => Some(format!(
                "{}?{}",
                path::<StreamHashtag>(&[]),
                query(&[("tag", tag)])
            )),
            _ => None,
        }
    }

    fn from_name(s: &str) -> Option<ReadPath> {
        READ_PATHS.into_iter().find(|p| p.name() == s)
    }
}

/// The parsed table: (path, visibility, viewer) → expected outcome.
type Matrix = BTreeMap<(ReadPath, Vis, Viewer), Outcome>;

/// Parses `visibility.tsv`: `#` comments and blank lines are skipped; the header (first column
/// `path`) must name the viewers in [`VIEWERS`] order; each row is path, visibility and one
/// outcome per viewer; a cell given twice is an error.
fn parse_table(text: &str) -> Result<Matrix, String> {
    let mut matrix = Matrix::new();
    let mut header_seen = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols[0] == "path" {
            let want: Vec<&str> = ["path", "visibility"]
                .into_iter()
                .chain(VIEWERS.iter().map(|v| v.name()))
                .collect();
            if cols != want {
                return Err(format!("line {}: the header must be {want:?}", n + 1));
            }
            header_seen = true;
            continue;
        }
        if !header_seen {
            return Err(format!("line {}: a row before the header", n + 1));
        }
        if cols.len() != 2 + VIEWERS.len() {
            return Err(format!(
                "line {}: {} columns (expected {})",
                n + 1,
                cols.len(),
                2 + VIEWERS.len()
            ));
        }
        let read_path = ReadPath::from_name(cols[0])
            .ok_or_else(|| format!("line {}: unknown read path {:?}", n + 1, cols[0]))?;
        let vis = VISIBILITIES
            .into_iter()
            .find(|v| v.name() == cols[1])
            .ok_or_else(|| format!("line {}: unknown visibility {:?}", n + 1, cols[1]))?;
        for (viewer, cell) in VIEWERS.into_iter().zip(&cols[2..]) {
            let outcome = Outcome::parse(cell)
                .ok_or_else(|| format!("line {}: unknown outcome {cell:?}", n + 1))?;
            if matrix.insert((read_path, vis, viewer), outcome).is_some() {
                return Err(format!(
                    "line {}: the cell {} / {} / {} is given twice",
                    n + 1,
                    read_path.name(),
                    vis.name(),
                    viewer.name()
                ));
            }
        }
    }
    Ok(matrix)
}

/// The accounts and statuses a matrix check runs on.
struct World {
    author: User,
    follower: User,
    non_follower: User,
    mentioned: User,
    blocked: User,
    /// The public root the statuses reply to (context check only).
    root: Option<String>,
    /// One status per visibility, each mentioning `mentioned`.
    statuses: Vec<(Vis, String)>,
    /// The ids of the statuses' polls, per visibility (get-poll check only).
    polls: Vec<(Vis, String)>,
    /// Each signed-in viewer's list, holding the author where the viewer may add it (list
    /// check only), in [`VIEWERS`] order without the anonymous one.
    lists: Vec<(Viewer, String)>,
    /// The link every status carries, its author discoverable (link-timeline check only).
    link: Option<String>,
    /// What each viewer's stream carried (stream checks only): the ids of the statuses whose
    /// `update` came, or the outcome of a stream refused.
    streamed: Vec<(Viewer, Result<HashSet<String>, Outcome>)>,
    /// The word every status's text carries (search-text check only), or the hashtag every
    /// status carries (stream-hashtag check only).
    word: String,
}

impl World {
    /// The token of a viewer (None for anonymous).
    fn token(&self, viewer: Viewer) -> Option<&str> {
        let user = match viewer {
            Viewer::Author => &self.author,
            Viewer::Follower => &self.follower,
            Viewer::NonFollower => &self.non_follower,
            Viewer::Mentioned => &self.mentioned,
            Viewer::Blocked => &self.blocked,
            Viewer::Anonymous => return None,
        };
        Some(user.token.as_str())
    }
}

/// Makes the accounts (the follower follows the author; the blocked account followed the author,
/// then the author blocked it) and one status per visibility mentioning the mentioned account;
/// with `as_replies`, a public root by a third account that the statuses reply to; with
/// `with_polls`, each status carries a poll.
async fn world(cx: &Cx, read_path: ReadPath) -> Result<World, Failure> {
    let as_replies = read_path == ReadPath::Context;
    let with_polls = read_path == ReadPath::GetPoll;
    let with_lists = read_path == ReadPath::List;
    let with_link = read_path == ReadPath::LinkTimeline;
    let author = cx.new_user("author").await?;
    let follower = cx.new_user("follower").await?;
    let non_follower = cx.new_user("stranger").await?;
    let mentioned = cx.new_user("mentioned").await?;
    if matches!(read_path, ReadPath::Notifications | ReadPath::Conversations) {
        // Mastodon's default policy filters private mentions from accounts one does not
        // follow: the mentioned viewer takes them, so the rows show visibility alone.
        cx.client
            .patch(
                &path::<UpdateNotificationPolicy>(&[]),
                Some(&mentioned.token),
                form(&[("for_private_mentions", "accept")]),
            )
            .await?
            .expect(200)?;
    }
    let blocked = cx.new_user("blocked").await?;
    let rel = act::<FollowAccount>(cx, &follower, &author, &[]).await?;
    if rel["following"] != true {
        return Err(Failure::Fail(format!(
            "set-up: the follow of an unlocked account did not take: {rel}"
        )));
    }
    act::<FollowAccount>(cx, &blocked, &author, &[]).await?;
    // Each signed-in viewer makes a list and puts the author in it if it may (the author
    // itself, and the accounts that follow it: the blocked one loses it with the block).
    let mut lists = Vec::new();
    if with_lists {
        for (viewer, user) in [
            (Viewer::Author, &author),
            (Viewer::Follower, &follower),
            (Viewer::NonFollower, &non_follower),
            (Viewer::Mentioned, &mentioned),
            (Viewer::Blocked, &blocked),
        ] {
            let r = cx
                .client
                .post(
                    &path::<CreateList>(&[]),
                    Some(&user.token),
                    form(&[("title", "matrix")]),
                )
                .await?;
            r.expect(200)?;
            let id = str_of(r.json()?, "id")?;
            cx.client
                .post(
                    &path::<AddListAccounts>(&[("id", &id)]),
                    Some(&user.token),
                    form(&[("account_ids[]", author.id.as_str())]),
                )
                .await?;
            lists.push((viewer, id));
        }
    }
    act::<BlockAccount>(cx, &author, &blocked, &[]).await?;
    let root = if as_replies {
        let op = cx.new_user("op").await?;
        let s = cx
            .post_status(&op, &[("status", "matrix root"), ("visibility", "public")])
            .await?;
        Some(str_of(&s, "id")?)
    } else {
        None
    };
    let link = if with_link {
        cx.send(
            "PATCH",
            &path::<UpdateCredentials>(&[]),
            Some(&author.token),
            form(&[("discoverable", "true")]),
        )
        .await?
        .expect(200)?;
        Some(format!("https://{}.example/matrix", cx.unique("link")))
    } else {
        None
    };
    // Every viewer connects to the stream before anything is posted.
    let tag = match read_path {
        ReadPath::StreamHashtag | ReadPath::SearchText => cx.unique("matrix").replace('_', ""),
        _ => String::new(),
    };
    if read_path == ReadPath::SearchText {
        // Public statuses are found by others only when their author opts in.
        cx.send(
            "PATCH",
            &path::<UpdateCredentials>(&[]),
            Some(&author.token),
            form(&[("indexable", "true")]),
        )
        .await?
        .expect(200)?;
    }
    let mut streams = Vec::new();
    if let Some(stream_path) = read_path.stream_path(&tag) {
        for (viewer, user) in [
            (Viewer::Author, Some(&author)),
            (Viewer::Follower, Some(&follower)),
            (Viewer::NonFollower, Some(&non_follower)),
            (Viewer::Mentioned, Some(&mentioned)),
            (Viewer::Anonymous, None),
            (Viewer::Blocked, Some(&blocked)),
        ] {
            let token = user.map(|u| u.token.as_str());
            streams.push((
                viewer,
                streaming::sse(cx, &stream_path, Auth::of(token)).await?,
            ));
        }
    }
    let mut statuses = Vec::new();
    let mut polls = Vec::new();
    for vis in VISIBILITIES {
        let mut text = match &link {
            Some(l) => format!("@{} matrix {} {l}", mentioned.username, vis.name()),
            None => format!("@{} matrix {}", mentioned.username, vis.name()),
        };
        if read_path == ReadPath::StreamHashtag {
            text.push_str(&format!(" #{tag}"));
        }
        if read_path == ReadPath::SearchText {
            text.push_str(&format!(" {tag}"));
        }
        let mut pairs = vec![("status", text.as_str()), ("visibility", vis.name())];
        if let Some(r) = &root {
            pairs.push(("in_reply_to_id", r.as_str()));
        }
        if with_polls {
            pairs.extend([
                ("poll[options][]", "yes"),
                ("poll[options][]", "no"),
                ("poll[expires_in]", "3600"),
            ]);
        }
        let s = if with_polls {
            // As JSON: the poll checks see to form arrays (`poll[options][]`) on their own.
            cx.post_status_json(&author, status_json(&pairs)?).await?
        } else {
            cx.post_status(&author, &pairs).await?
        };
        if with_polls {
            polls.push((vis, str_of(&s["poll"], "id")?));
        }
        let mentions_ok = s["mentions"]
            .as_array()
            .is_some_and(|m| m.iter().any(|x| x["id"] == mentioned.id.as_str()));
        if !mentions_ok || s["visibility"] != vis.name() {
            return Err(Failure::Fail(format!(
                "set-up: the {} status does not have that visibility or does not mention @{}: {}",
                vis.name(),
                mentioned.username,
                truncate(&s.to_string())
            )));
        }
        statuses.push((vis, str_of(&s, "id")?));
    }
    // What each stream carried, all read at once (a connection not read is not read ahead
    // either): at least for LISTEN after the last post, and up to the streaming checks' WAIT
    // while an `update` the table expects has not come.
    let matrix = parse_table(TABLE).unwrap_or_default();
    let now = tokio::time::Instant::now();
    let (soon, late) = (now + LISTEN, now + streaming::WAIT);
    let statuses_ref = &statuses;
    let matrix_ref = &matrix;
    let streamed =
        futures_util::future::join_all(streams.into_iter().map(|(viewer, opened)| async move {
            let mut s = match opened {
                Opened::Stream(s) => s,
                Opened::Refused(r, _) => return (viewer, Err(refused(&r))),
            };
            let expected: Vec<&String> = statuses_ref
                .iter()
                .filter(|(vis, _)| {
                    matrix_ref.get(&(read_path, *vis, viewer)) == Some(&Outcome::Visible)
                })
                .map(|(_, id)| id)
                .collect();
            let mut ids = HashSet::new();
            loop {
                let until = match expected.iter().all(|id| ids.contains(*id)) {
                    true => soon,
                    false => late,
                };
                match s.next(until).await {
                    Some(e) if e.event == "update" => {
                        if let Some(id) = e.json()["id"].as_str() {
                            ids.insert(id.to_string());
                        }
                    }
                    Some(_) => {}
                    None => break,
                }
            }
            (viewer, Ok(ids))
        }))
        .await;
    Ok(World {
        author,
        follower,
        non_follower,
        mentioned,
        blocked,
        root,
        statuses,
        polls,
        lists,
        link,
        streamed,
        word: tag,
    })
}

/// What a stream refused says: 401 with an error body unauthorized, anything else described.
fn refused(r: &Response) -> Outcome {
    match r.status {
        401 if r.error_text().is_some_and(|e| !e.is_empty()) => Outcome::Unauthorized,
        s => Outcome::Other(format!(
            "HTTP {s} ({}) {} instead of a stream",
            r.header("content-type").unwrap_or("no content type"),
            truncate(&r.text)
        )),
    }
}

/// What one answer about one status says: 200 (with the status itself when `id` is given) is
/// visible, 404 and 401 with an error body hidden and unauthorized, anything else described.
fn single(r: &Response, id: Option<&str>) -> Outcome {
    let has_error = r.error_text().is_some_and(|e| !e.is_empty());
    match r.status {
        200 => match id {
            Some(id) if r.json.as_ref().is_none_or(|v| v["id"] != id) => {
                Outcome::Other(format!("200 with another body: {}", truncate(&r.text)))
            }
            _ => Outcome::Visible,
        },
        404 if has_error => Outcome::Hidden,
        401 if has_error => Outcome::Unauthorized,
        s => Outcome::Other(format!("HTTP {s} {}", truncate(&r.text))),
    }
}

/// The ids of the statuses in a JSON array, and of the originals of the reblogs among them.
fn status_ids(v: &Value) -> HashSet<String> {
    let mut ids = HashSet::new();
    for s in v.as_array().into_iter().flatten() {
        for x in [&s["id"], &s["reblog"]["id"]] {
            if let Some(id) = x.as_str() {
                ids.insert(id.to_string());
            }
        }
    }
    ids
}

/// What a list answer says about each status: 200 with it visible, 200 without it hidden, 401
/// with an error body unauthorized, anything else described. `pick` takes the array(s) to look
/// in out of the JSON body.
fn listed(
    r: &Response,
    statuses: &[(Vis, String)],
    pick: impl Fn(&Value) -> Vec<&Value>,
) -> Vec<(Vis, Outcome)> {
    let has_error = r.error_text().is_some_and(|e| !e.is_empty());
    match (r.status, &r.json) {
        (200, Some(v)) => {
            let ids: HashSet<String> = pick(v).into_iter().flat_map(status_ids).collect();
            statuses
                .iter()
                .map(|(vis, id)| {
                    let o = if ids.contains(id) {
                        Outcome::Visible
                    } else {
                        Outcome::Hidden
                    };
                    (*vis, o)
                })
                .collect()
        }
        (401, _) if has_error => statuses
            .iter()
            .map(|(vis, _)| (*vis, Outcome::Unauthorized))
            .collect(),
        (s, _) => statuses
            .iter()
            .map(|(vis, _)| {
                (
                    *vis,
                    Outcome::Other(format!("HTTP {s} {}", truncate(&r.text))),
                )
            })
            .collect(),
    }
}

/// Observes one viewer on one read path: the outcome for each of the world's statuses.
async fn observe(
    cx: &Cx,
    w: &World,
    read_path: ReadPath,
    viewer: Viewer,
) -> Result<Vec<(Vis, Outcome)>, Failure> {
    let token = w.token(viewer);
    let each_single = |e: fn(&str) -> String, post: bool, echo: bool| async move {
        let mut out = Vec::new();
        let targets = if read_path == ReadPath::GetPoll {
            &w.polls
        } else {
            &w.statuses
        };
        for (vis, id) in targets {
            let url = e(id);
            let r = if post {
                cx.client.post(&url, token, form::<&str, &str>(&[])).await?
            } else {
                cx.client.get(&url, token).await?
            };
            out.push((*vis, single(&r, echo.then_some(id.as_str()))));
        }
        Ok::<_, Failure>(out)
    };
    Ok(match read_path {
        ReadPath::GetStatus => each_single(status_path::<GetStatus>, false, true).await?,
        ReadPath::FavouritedBy => each_single(status_path::<FavouritedBy>, false, false).await?,
        ReadPath::RebloggedBy => each_single(status_path::<RebloggedBy>, false, false).await?,
        ReadPath::History => each_single(status_path::<GetStatusHistory>, false, false).await?,
        ReadPath::Favourite => each_single(status_path::<FavouriteStatus>, true, true).await?,
        ReadPath::Bookmark => each_single(status_path::<BookmarkStatus>, true, true).await?,
        ReadPath::GetPoll => each_single(status_path::<GetPoll>, false, true).await?,
        ReadPath::MultiGet => {
            let query: Vec<String> = w
                .statuses
                .iter()
                .map(|(_, id)| format!("id[]={id}"))
                .collect();
            let url = format!("{}?{}", path::<GetStatuses>(&[]), query.join("&"));
            listed(&cx.client.get(&url, token).await?, &w.statuses, as_list)
        }
        ReadPath::Context => {
            let root = w
                .root
                .as_deref()
                .ok_or_else(|| Failure::Fail("set-up: no root status".into()))?;
            let r = cx
                .client
                .get(&path::<GetContext>(&[("id", root)]), token)
                .await?;
            listed(&r, &w.statuses, |v| {
                vec![&v["ancestors"], &v["descendants"]]
            })
        }
        ReadPath::AccountStatuses => {
            let url = format!(
                "{}?limit=40",
                path::<GetAccountStatuses>(&[("id", &w.author.id)])
            );
            listed(&cx.client.get(&url, token).await?, &w.statuses, as_list)
        }
        ReadPath::Home => {
            let url = format!("{}?limit=40", path::<HomeTimeline>(&[]));
            listed(&cx.client.get(&url, token).await?, &w.statuses, as_list)
        }
        ReadPath::List => {
            // Anonymous callers ask for the author's list.
            let own = w.lists.iter().find(|(v, _)| *v == viewer);
            let id = own
                .or(w.lists.first())
                .map(|(_, id)| id.as_str())
                .unwrap_or("0");
            let url = format!("{}?limit=40", path::<ListTimeline>(&[("list_id", id)]));
            listed(&cx.client.get(&url, token).await?, &w.statuses, as_list)
        }
        ReadPath::PublicLocal => {
            let url = format!("{}?local=true&limit=40", path::<PublicTimeline>(&[]));
            listed(&cx.client.get(&url, token).await?, &w.statuses, as_list)
        }
        ReadPath::Conversations => {
            let url = format!("{}?limit=40", path::<ListConversations>(&[]));
            // The last statuses of the conversations, as one list.
            let r = statuses_under(cx.client.get(&url, token).await?, "last_status");
            listed(&r, &w.statuses, as_list)
        }
        ReadPath::SearchUrl => {
            // Each status's URL, as its author is shown it, searched for with `resolve`.
            let mut out = Vec::new();
            for (vis, id) in &w.statuses {
                let shown = cx
                    .client
                    .get(&status_path::<GetStatus>(id), Some(&w.author.token))
                    .await?;
                let json = shown.json()?;
                let url = json["url"]
                    .as_str()
                    .or(json["uri"].as_str())
                    .unwrap_or_default();
                let q = query(&[("q", url), ("resolve", "true"), ("type", "statuses")]);
                let r = cx
                    .client
                    .get(&format!("{}?{q}", path::<SearchV2>(&[])), token)
                    .await?;
                let one = [(*vis, id.clone())];
                out.extend(listed(&r, &one, |v| vec![&v["statuses"]]));
            }
            out
        }
        ReadPath::SearchText => {
            let q = query(&[
                ("q", w.word.as_str()),
                ("type", "statuses"),
                ("limit", "40"),
            ]);
            let r = cx
                .client
                .get(&format!("{}?{q}", path::<SearchV2>(&[])), token)
                .await?;
            listed(&r, &w.statuses, |v| vec![&v["statuses"]])
        }
        ReadPath::LinkTimeline => {
            let link = w
                .link
                .as_deref()
                .ok_or_else(|| Failure::Fail("set-up: no link".into()))?;
            let url = format!(
                "{}?{}",
                path::<LinkTimeline>(&[]),
                crate::client::query(&[("url", link), ("limit", "40")])
            );
            listed(&cx.client.get(&url, token).await?, &w.statuses, as_list)
        }
        ReadPath::Notifications => {
            let url = format!("{}?limit=80", path::<ListNotifications>(&[]));
            // The statuses the notifications carry, as one list.
            let r = statuses_under(cx.client.get(&url, token).await?, "status");
            listed(&r, &w.statuses, as_list)
        }
        ReadPath::StreamUser | ReadPath::StreamPublicLocal | ReadPath::StreamHashtag => {
            let seen = w
                .streamed
                .iter()
                .find(|(v, _)| *v == viewer)
                .map(|(_, seen)| seen)
                .ok_or_else(|| Failure::Fail(format!("set-up: no stream of {}", viewer.name())))?;
            w.statuses
                .iter()
                .map(|(vis, id)| {
                    let o = match seen {
                        Ok(ids) if ids.contains(id) => Outcome::Visible,
                        Ok(_) => Outcome::Hidden,
                        Err(o) => o.clone(),
                    };
                    (*vis, o)
                })
                .collect()
        }
    })
}

/// A 200 answer holding an array of objects, turned into the array of what each holds under
/// `key` (the statuses of notifications, the last statuses of conversations).
fn statuses_under(mut r: Response, key: &str) -> Response {
    if r.status == 200 {
        r.json = r.json.map(|v| {
            Value::Array(
                v.as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| x[key].clone())
                    .collect(),
            )
        });
    }
    r
}

/// The body itself as the one array to look in.
fn as_list(v: &Value) -> Vec<&Value> {
    vec![v]
}

/// The path of a status endpoint for a status id.
fn status_path<E: Endpoint>(id: &str) -> String {
    path::<E>(&[("id", id)])
}

/// Runs the cells of one read path: builds a world, observes every viewer and compares every
/// cell with the table; fails with the list of all cells that differ.
async fn run_path(cx: &Cx, read_path: ReadPath) -> CheckResult {
    if read_path.is_stream() && cx.lacks(Feature::Streaming) {
        return Err(Feature::Streaming.absent());
    }
    let matrix = parse_table(TABLE).map_err(|e| Failure::Fail(format!("visibility.tsv: {e}")))?;
    let w = world(cx, read_path).await?;
    let mut failures = Vec::new();
    let mut cells = 0;
    for viewer in VIEWERS {
        for (vis, seen) in observe(cx, &w, read_path, viewer).await? {
            let Some(want) = matrix.get(&(read_path, vis, viewer)) else {
                return Err(Failure::Fail(format!(
                    "visibility.tsv has no cell {} / {} / {}",
                    read_path.name(),
                    vis.name(),
                    viewer.name()
                )));
            };
            cells += 1;
            if &seen != want {
                let leak = if seen == Outcome::Visible {
                    " (LEAK)"
                } else {
                    ""
                };
                failures.push(format!(
                    "{} status, {} viewer: expected {}, got {}{leak}",
                    vis.name(),
                    viewer.name(),
                    want.describe(),
                    seen.describe()
                ));
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Failure::Fail(format!(
            "{} of {cells} cells of {} fail: {}",
            failures.len(),
            read_path.name(),
            failures.join("; ")
        )))
    }
}

async fn get_status(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::GetStatus).await
}

async fn multi_get(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::MultiGet).await
}

async fn context(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::Context).await
}

async fn account_statuses(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::AccountStatuses).await
}

async fn home(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::Home).await
}

async fn public_local(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::PublicLocal).await
}

async fn favourited_by(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::FavouritedBy).await
}

async fn reblogged_by(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::RebloggedBy).await
}

async fn history(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::History).await
}

async fn favourite(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::Favourite).await
}

async fn bookmark(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::Bookmark).await
}

async fn get_poll(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::GetPoll).await
}

async fn notifications(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::Notifications).await
}

async fn list(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::List).await
}

async fn conversations(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::Conversations).await
}

async fn link_timeline(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::LinkTimeline).await
}

async fn stream_user(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::StreamUser).await
}

async fn stream_public_local(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::StreamPublicLocal).await
}

async fn search_url(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::SearchUrl).await
}

async fn search_text(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::SearchText).await
}

async fn stream_hashtag(cx: &Cx) -> CheckResult {
    run_path(cx, ReadPath::StreamHashtag).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_every_cell_once() {
        let m = parse_table(TABLE).expect("visibility.tsv parses");
        assert_eq!(
            m.len(),
            READ_PATHS.len() * VISIBILITIES.len() * VIEWERS.len()
        );
        for p in READ_PATHS {
            for vis in VISIBILITIES {
                for viewer in VIEWERS {
                    assert!(
                        m.contains_key(&(p, vis, viewer)),
                        "no cell {} / {} / {}",
                        p.name(),
                        vis.name(),
                        viewer.name()
                    );
                }
            }
        }
    }

    #[test]
    fn every_read_path_has_its_check() {
        let ids: HashSet<&str> = checks().iter().map(|c| c.id).collect();
        for p in READ_PATHS {
            let id = format!("visibility/matrix/{}", p.name());
            assert!(ids.contains(id.as_str()), "no check {id}");
        }
        assert_eq!(ids.len(), READ_PATHS.len());
    }

    #[test]
    fn blocked_viewers_never_see_and_direct_posts_stay_with_author_and_mentioned() {
        let m = parse_table(TABLE).expect("visibility.tsv parses");
        for ((p, vis, viewer), want) in &m {
            if *viewer == Viewer::Blocked {
                assert_eq!(*want, Outcome::Hidden, "{} / {}", p.name(), vis.name());
            }
            if *vis == Vis::Direct && *want == Outcome::Visible {
                assert!(
                    matches!(viewer, Viewer::Author | Viewer::Mentioned),
                    "{} / direct / {}",
                    p.name(),
                    viewer.name()
                );
            }
        }
    }

    #[test]
    fn bad_tables_are_refused() {
        let header = "path visibility author follower non-follower mentioned anonymous blocked\n";
        let row = "home public visible visible hidden hidden 401 hidden\n";
        assert!(parse_table(&format!("{header}{row}")).is_ok());
        assert!(parse_table(&format!("{header}{row}{row}")).is_err());
        assert!(parse_table(row).is_err());
        assert!(parse_table(&format!("{header}home public visible\n")).is_err());
        assert!(
            parse_table(&format!(
                "{header}home public maybe visible hidden hidden 401 hidden\n"
            ))
            .is_err()
        );
        assert!(
            parse_table(&format!(
                "{header}tags public visible visible hidden hidden 401 hidden\n"
            ))
            .is_err()
        );
    }
}
