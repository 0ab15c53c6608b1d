//! The inbound full mix: after the `Create`-only measurement, the remote actor `r` (whom the L
//! local accounts follow) sends M signed activities of every kind a peer sends a shared inbox,
//! interleaved in a fixed cycle of 20 ([`CYCLE`]):
//!
//! | kind | per 20 | what it is about |
//! |---|---|---|
//! | `Create` of a public `Note` | 6 | a new note (to Public, cc `r`'s followers) |
//! | `Like` | 5 | a local post (made before timing, each liked once) |
//! | `Announce` | 3 | a local post (each boosted once), to Public, cc the author and followers |
//! | `Update` of a `Note` | 2 | a note this mix created, edited (`updated` set, new text) |
//! | `Delete` (a `Tombstone`) | 2 | another note this mix created |
//! | `Follow` | 1 | a local account (fedblog answers with an `Accept`, which `r` verifies) |
//! | `Undo` of a `Follow` | 1 | an earlier `Follow` of this mix |
//!
//! An `Update`, `Delete` or `Undo` is about an activity at least 2·C places earlier in the
//! order (C: the connections), as is a `Follow` of an account `r` followed before (on the `Undo`
//! of that), and its sender waits, if need be, for that activity's answer before sending it (a
//! peer sends an edit after the post, not before; waits are counted). Where
//! the cycle asks for one of these and nothing old enough is left to edit, delete or undo (only
//! near the start), a `Create` is sent instead, so the counts printed are the ones sent. Every
//! request is signed before the clock starts. Throughput is the accepted (2xx) activities over
//! the wall time from the first send to the last answer.
//!
//! Afterwards (untimed) the outcome is read back through the client API: each liked or boosted
//! local post's counts, `r`'s statuses since the mix began (the notes created and not deleted
//! are there, the edited ones with their new text and `edited_at`, the deleted ones gone, the
//! boosts there), the `Accept`s `r` received, and each local account's relationship with `r`
//! (followed by `r` exactly when its last `Follow` was not undone).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, SecondsFormat, Utc};
use fedblog_core::api::accounts::get_account_statuses::GetAccountStatuses;
use fedblog_core::api::accounts::get_relationships::GetRelationships;
use fedblog_core::api::activitypub::shared_inbox::SharedInbox;
use fedblog_core::api::{Endpoint, fill_path};
use fedblog_core::federation::paths;
use fedblog_core::federation::vocab::{ACTIVITY_STREAMS, PUBLIC};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::task::JoinSet;

use super::{Fedblog, Remote, first, judged, ms, percentile, row, run_tag};
use crate::api;
use crate::report::Row;
use crate::run::cpu_secs;

/// The kinds of activity in the mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Kind {
    Create,
    Like,
    Announce,
    Update,
    Delete,
    Follow,
    Undo,
}

use Kind::{Announce, Create, Delete, Follow, Like, Undo, Update};

/// One cycle of the mix, repeated: per 20 activities 6 `Create`, 5 `Like`, 3 `Announce`, 2
/// `Update`, 2 `Delete`, 1 `Follow`, 1 `Undo` of a `Follow`, spread out.
pub(super) const CYCLE: [Kind; 20] = [
    Create, Like, Create, Announce, Like, Create, Update, Like, Delete, Create, Follow, Like,
    Announce, Create, Update, Like, Create, Delete, Announce, Undo,
];

/// How long the `Accept`s of the mix's `Follow`s may take to arrive, after the last answer.
const ACCEPTS_TIMEOUT: Duration = Duration::from_secs(60);

impl Kind {
    /// The name in the rows.
    fn name(self) -> &'static str {
        match self {
            Create => "Create (Note)",
            Like => "Like (local post)",
            Announce => "Announce (local post)",
            Update => "Update (Note)",
            Delete => "Delete (Note)",
            Follow => "Follow (local account)",
            Undo => "Undo (Follow)",
        }
    }

    /// `6 Create, 5 Like, ...`: the cycle's counts.
    pub(super) fn cycle_line() -> String {
        let mut counts: BTreeMap<Kind, usize> = BTreeMap::new();
        for kind in CYCLE {
            *counts.entry(kind).or_default() += 1;
        }
        counts
            .iter()
            .map(|(kind, n)| {
                let name = match kind {
                    Undo => "Undo Follow",
                    k => k.name().split(' ').next().unwrap_or(""),
                };
                format!("{n} {name}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One activity of the plan: its kind, what it is about, and the earlier activity (by place)
/// whose answer it waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    kind: Kind,
    /// The note (`Create`, `Update`, `Delete`), the local post (`Like`, `Announce`), the local
    /// account (`Follow`, `Undo`).
    subject: usize,
    /// The follow's number (`Follow`, and the `Undo` of it).
    round: usize,
    after: Option<usize>,
}

/// What the plan holds, and how it leaves things.
#[derive(Debug, Default)]
struct Plan {
    steps: Vec<Step>,
    notes: usize,
    likes: usize,
    announces: usize,
    /// Per local account: followed by `r` at the end.
    followed: Vec<bool>,
}

impl Plan {
    /// `n` activities; dependencies at least `gap` places back; `targets` local accounts to
    /// follow.
    fn new(n: usize, gap: usize, targets: usize) -> Plan {
        let mut plan = Plan {
            followed: vec![false; targets],
            ..Plan::default()
        };
        let mut fresh: VecDeque<(usize, usize)> = VecDeque::new();
        let mut pending: VecDeque<(usize, usize, usize)> = VecDeque::new();
        let mut last_undo: Vec<Option<usize>> = vec![None; targets];
        let (mut follows, mut next_target) = (0, 0);
        for i in 0..n {
            let old_enough = |at: usize| at + gap <= i;
            let step = match CYCLE[i % CYCLE.len()] {
                Like => {
                    plan.likes += 1;
                    Some(step(Like, plan.likes - 1, None))
                }
                Announce => {
                    plan.announces += 1;
                    Some(step(Announce, plan.announces - 1, None))
                }
                kind @ (Update | Delete) => match fresh.front() {
                    Some(&(at, note)) if old_enough(at) => {
                        fresh.pop_front();
                        Some(step(kind, note, Some(at)))
                    }
                    _ => None,
                },
                Follow => (0..targets)
                    .map(|k| (next_target + k) % targets)
                    .find(|&t| !plan.followed[t])
                    .map(|t| {
                        next_target = (t + 1) % targets;
                        plan.followed[t] = true;
                        pending.push_back((i, t, follows));
                        follows += 1;
                        Step {
                            round: follows - 1,
                            ..step(Follow, t, last_undo[t])
                        }
                    }),
                Undo => match pending.front() {
                    Some(&(at, t, round)) if old_enough(at) => {
                        pending.pop_front();
                        plan.followed[t] = false;
                        last_undo[t] = Some(i);
                        Some(Step {
                            round,
                            ..step(Undo, t, Some(at))
                        })
                    }
                    _ => None,
                },
                Create => None,
            };
            let step = step.unwrap_or_else(|| {
                fresh.push_back((i, plan.notes));
                plan.notes += 1;
                self::step(Create, plan.notes - 1, None)
            });
            plan.steps.push(step);
        }
        plan
    }

    fn count(&self, kind: Kind) -> usize {
        self.steps.iter().filter(|s| s.kind == kind).count()
    }

    /// The notes an activity of `kind` was about.
    fn notes_of(&self, kind: Kind) -> HashSet<usize> {
        self.steps
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| s.subject)
            .collect()
    }
}

fn step(kind: Kind, subject: usize, after: Option<usize>) -> Step {
    Step {
        kind,
        subject,
        round: 0,
        after,
    }
}

/// A local post to like and boost.
struct LocalPost {
    id: String,
    uri: String,
    author: String,
    /// The index of its author's token.
    token: usize,
}

/// What the activities say, fixed before they are rendered.
struct Context<'a> {
    actor: String,
    followers: String,
    run: String,
    t0: DateTime<Utc>,
    posts: &'a [LocalPost],
    /// Each local account's actor URL.
    targets: &'a [String],
}

impl Context<'_> {
    fn note_id(&self, note: usize) -> String {
        format!("{}/statuses/{}-m{note}", self.actor, self.run)
    }

    fn at(&self, place: usize) -> String {
        (self.t0 + chrono::Duration::milliseconds(place as i64))
            .to_rfc3339_opts(SecondsFormat::Millis, true)
    }

    fn follow(&self, target: usize, round: usize) -> Value {
        json!({
            "id": format!("{}#follows/{}-m{round}", self.actor, self.run),
            "type": "Follow",
            "actor": self.actor,
            "object": self.targets[target],
        })
    }

    /// The note `note` as created at `created` (and, when `edited`, as edited at that place).
    fn note(&self, note: usize, created: usize, edited: Option<usize>) -> Value {
        let id = self.note_id(note);
        let mut object = json!({
            "id": id,
            "type": "Note",
            "attributedTo": self.actor,
            "content": format!("<p>Inbound mix note {note} ({})</p>", note_marker(&self.run, note)),
            "published": self.at(created),
            "url": id,
            "to": [PUBLIC],
            "cc": [self.followers],
        });
        if let Some(at) = edited {
            object["content"] = json!(format!(
                "<p>Inbound mix note {note}, edited ({})</p>",
                edit_marker(&self.run, note)
            ));
            object["updated"] = json!(self.at(at));
        }
        object
    }

    /// The activity at place `i` of `plan`.
    fn render(&self, plan: &Plan, created_at: &HashMap<usize, usize>, i: usize) -> Value {
        let s = plan.steps[i];
        let actor = &self.actor;
        let mut body = match s.kind {
            Create => json!({
                "id": format!("{}/activity", self.note_id(s.subject)),
                "type": "Create",
                "actor": actor,
                "published": self.at(i),
                "to": [PUBLIC],
                "cc": [self.followers],
                "object": self.note(s.subject, i, None),
            }),
            Like => json!({
                "id": format!("{actor}#likes/{}-m{}", self.run, s.subject),
                "type": "Like",
                "actor": actor,
                "object": self.posts[s.subject].uri,
            }),
            Announce => {
                let post = &self.posts[s.subject];
                json!({
                    "id": format!("{actor}/statuses/{}-b{}/activity", self.run, s.subject),
                    "type": "Announce",
                    "actor": actor,
                    "published": self.at(i),
                    "to": [PUBLIC],
                    "cc": [post.author, self.followers],
                    "object": post.uri,
                })
            }
            Update => {
                let created = created_at.get(&s.subject).copied().unwrap_or(0);
                json!({
                    "id": format!("{}#updates/{}", self.note_id(s.subject), self.run),
                    "type": "Update",
                    "actor": actor,
                    "published": self.at(i),
                    "to": [PUBLIC],
                    "cc": [self.followers],
                    "object": self.note(s.subject, created, Some(i)),
                })
            }
            Delete => json!({
                "id": format!("{}#delete", self.note_id(s.subject)),
                "type": "Delete",
                "actor": actor,
                "to": [PUBLIC],
                "object": {"id": self.note_id(s.subject), "type": "Tombstone"},
            }),
            Follow => self.follow(s.subject, s.round),
            Undo => json!({
                "id": format!("{actor}#follows/{}-m{}/undo", self.run, s.round),
                "type": "Undo",
                "actor": actor,
                "object": self.follow(s.subject, s.round),
            }),
        };
        body["@context"] = json!(ACTIVITY_STREAMS);
        body
    }
}

/// A marker no other note's text contains.
fn note_marker(run: &str, note: usize) -> String {
    format!("mix-{run}-{note}-end")
}

fn edit_marker(run: &str, note: usize) -> String {
    format!("edited-{run}-{note}-end")
}

/// Per kind: what was sent and answered.
#[derive(Default)]
struct KindFigures {
    sent: usize,
    ok: usize,
    errors: usize,
    first_error: Option<String>,
    latencies: Vec<Duration>,
}

/// What the inbound mix found.
pub(super) struct MixFigures {
    activities: usize,
    connections: usize,
    posts: usize,
    posts_secs: f64,
    sign_secs: f64,
    kinds: BTreeMap<Kind, KindFigures>,
    ok: usize,
    errors: usize,
    first_error: Option<String>,
    wall_secs: f64,
    per_sec: f64,
    p50_ms: Option<f64>,
    p99_ms: Option<f64>,
    waits: u64,
    server_cpu_ms: Option<f64>,
    bench_cpu_ms: Option<f64>,
    /// Liked local posts whose `favourites_count` is at least 1, of the liked ones; the same for
    /// boosts (`reblogs_count`, and the reblog among `r`'s statuses).
    liked: (usize, usize),
    boosted: (usize, usize),
    boosts_listed: usize,
    /// Notes created and not deleted that `r`'s statuses show, of those; edited ones showing
    /// their edit, of the edited; deleted ones gone, of the deleted.
    present: (usize, usize),
    edited: (usize, usize),
    gone: (usize, usize),
    statuses_read: usize,
    /// `Accept`s `r` received for the mix's `Follow`s, of the `Follow`s.
    accepts: (u64, usize),
    /// Local accounts whose relationship with `r` is as the plan left it, of all.
    relationships: (usize, usize),
    refused: u64,
    first_refusal: Option<String>,
    check_error: Option<String>,
}

impl MixFigures {
    pub(super) fn incomplete(&self) -> Option<String> {
        let short = |(a, b): (usize, usize)| a < b;
        if self.errors > 0 {
            Some(format!(
                "{} of {} mixed activities were not accepted{}",
                self.errors,
                self.activities,
                first(&self.first_error)
            ))
        } else if let Some(e) = &self.check_error {
            Some(format!("the mix's outcome could not be read: {e}"))
        } else if short(self.liked)
            || short(self.boosted)
            || self.boosts_listed < self.boosted.1
            || short(self.present)
            || short(self.edited)
            || short(self.gone)
            || (self.accepts.0 as usize) < self.accepts.1
            || short(self.relationships)
        {
            Some("the mix's outcome differs from what was sent (see the inbound mix rows)".into())
        } else {
            None
        }
    }

    pub(super) fn rows(&self, rows: &mut Vec<Row>) {
        let frac = |(a, b): (usize, usize)| format!("{a} of {b}");
        rows.push(row(
            "inbound mix: set-up (untimed)",
            format!(
                "{} local posts to like and boost in {:.2} s; {} requests signed in {:.2} s",
                self.posts, self.posts_secs, self.activities, self.sign_secs
            ),
        ));
        rows.push(row(
            "inbound mix: the cycle (per 20 activities)",
            Kind::cycle_line(),
        ));
        rows.push(judged(
            "inbound mix: signed activities accepted (2xx) at /inbox",
            format!(
                "{} of {} ({} errors{})",
                self.ok,
                self.activities,
                self.errors,
                first(&self.first_error)
            ),
            "all",
            self.errors == 0,
        ));
        rows.push(judged(
            format!(
                "inbound mix: throughput, {} connections (every kind verified and applied)",
                self.connections
            ),
            format!("{:.1} activities/s ({:.2} s)", self.per_sec, self.wall_secs),
            format!(">= {:.0}/s", super::INBOUND_TARGET_PER_SEC),
            self.errors == 0 && self.per_sec >= super::INBOUND_TARGET_PER_SEC,
        ));
        rows.push(row(
            "inbound mix: latency p50 / p99, all kinds",
            format!("{} / {}", ms(self.p50_ms), ms(self.p99_ms)),
        ));
        for (kind, k) in &self.kinds {
            let mut sorted = k.latencies.clone();
            sorted.sort();
            rows.push(row(
                format!("inbound mix: {}", kind.name()),
                format!(
                    "{} sent, {} accepted{}; p50 / p99 / max {} / {} / {}",
                    k.sent,
                    k.ok,
                    if k.errors > 0 {
                        format!(", {} errors{}", k.errors, first(&k.first_error))
                    } else {
                        String::new()
                    },
                    ms(percentile(&sorted, 50.0)),
                    ms(percentile(&sorted, 99.0)),
                    ms(sorted.last().map(|d| d.as_secs_f64() * 1000.0))
                ),
            ));
        }
        rows.push(row(
            "inbound mix: waits for an earlier activity's answer",
            format!(
                "{} (an Update, Delete or Undo sent after what it is about)",
                self.waits
            ),
        ));
        rows.push(row(
            "inbound mix: CPU per activity, server / bench",
            format!("{} / {}", ms(self.server_cpu_ms), ms(self.bench_cpu_ms)),
        ));
        if let Some(e) = &self.check_error {
            rows.push(judged(
                "inbound mix: outcome read back",
                format!("failed: {}", api::excerpt(e)),
                "-",
                false,
            ));
            return;
        }
        rows.push(judged(
            "inbound mix: liked posts counted / boosted posts counted, listed",
            format!(
                "{} / {}, {} listed among r's statuses",
                frac(self.liked),
                frac(self.boosted),
                self.boosts_listed
            ),
            "all",
            self.liked.0 == self.liked.1
                && self.boosted.0 == self.boosted.1
                && self.boosts_listed == self.boosted.1,
        ));
        rows.push(judged(
            "inbound mix: notes kept / edited / deleted as sent",
            format!(
                "{} / {} / {} gone ({} statuses of r read)",
                frac(self.present),
                frac(self.edited),
                frac(self.gone),
                self.statuses_read
            ),
            "all",
            self.present.0 == self.present.1
                && self.edited.0 == self.edited.1
                && self.gone.0 == self.gone.1,
        ));
        rows.push(judged(
            "inbound mix: Follows answered (Accepts r verified) / relationships",
            format!(
                "{} of {} / {} as left",
                self.accepts.0,
                self.accepts.1,
                frac(self.relationships)
            ),
            "all",
            self.accepts.0 as usize >= self.accepts.1
                && self.relationships.0 == self.relationships.1,
        ));
        rows.push(judged(
            "inbound mix: fedblog requests r refused",
            format!("{}{}", self.refused, first(&self.first_refusal)),
            "0",
            self.refused == 0,
        ));
    }
}

/// The local accounts, as the mix uses them.
pub(super) struct Locals<'a> {
    /// Their tokens (`follower_1`...).
    pub tokens: &'a [String],
    /// Their usernames, in the same order.
    pub names: &'a [String],
}

/// Runs the inbound mix with `remote` (one server, actor `r`, whose fedblog account id is
/// `remote_id` and whom every local account follows).
pub(super) async fn run(
    fed: &Fedblog,
    remote: &Arc<Remote>,
    remote_id: &str,
    locals: Locals<'_>,
    activities: usize,
    connections: usize,
    pid: u32,
) -> Result<MixFigures, String> {
    println!();
    println!(
        "inbound mix: {activities} signed activities over {connections} connections, per 20: {}",
        Kind::cycle_line()
    );
    let tokens = locals.tokens;
    if tokens.is_empty() {
        return Err("no local accounts".into());
    }
    let plan = Plan::new(activities, 2 * connections, tokens.len());
    let actor = remote.actor(0);
    let (refused_before, _) = remote.tally.refusals();
    let accepts_before = remote.tally.count("Accept");

    // The local posts to like and boost, posted round the local accounts.
    let started = Instant::now();
    let wanted = plan.likes.max(plan.announces);
    let posts: Vec<Result<LocalPost, String>> = futures_util::stream::iter(0..wanted)
        .map(|k| {
            let t = k % tokens.len();
            let token = tokens[t].clone();
            let author = paths::actor(&fed.base, &locals.names[t]);
            async move {
                let status = fed
                    .post_status(
                        &token,
                        &json!({"status": format!("Local post {k}, to be liked and boosted")}),
                    )
                    .await?;
                match (status["id"].as_str(), status["uri"].as_str()) {
                    (Some(id), Some(uri)) => Ok(LocalPost {
                        id: id.to_string(),
                        uri: uri.to_string(),
                        author,
                        token: t,
                    }),
                    _ => Err(format!(
                        "a post's answer has no id or uri: {}",
                        api::excerpt(&status.to_string())
                    )),
                }
            }
        })
        .buffered(8)
        .collect()
        .await;
    let posts = posts.into_iter().collect::<Result<Vec<_>, String>>()?;
    let posts_secs = started.elapsed().as_secs_f64();

    // Where r's statuses stood before the mix (its newest status's id).
    let statuses_path = fill_path(GetAccountStatuses::PATH, &[("id", remote_id)]);
    let newest = fed
        .get(&format!("{statuses_path}?limit=1"), &tokens[0])
        .await?;
    let boundary = newest[0]["id"].as_str().map(str::to_string);

    // The activities, signed before the clock starts.
    let targets: Vec<String> = locals
        .names
        .iter()
        .map(|n| paths::actor(&fed.base, n))
        .collect();
    let ctx = Context {
        followers: paths::followers(&actor),
        actor,
        run: run_tag(),
        t0: Utc::now(),
        posts: &posts,
        targets: &targets,
    };
    let created_at: HashMap<usize, usize> = plan
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == Create)
        .map(|(i, s)| (s.subject, i))
        .collect();
    let inbox = format!("{}{}", fed.base, SharedInbox::PATH);
    let bodies: Vec<(usize, String, String)> = (0..plan.steps.len())
        .map(|i| {
            (
                0,
                inbox.clone(),
                ctx.render(&plan, &created_at, i).to_string(),
            )
        })
        .collect();
    let signing = Instant::now();
    let signed = Arc::new(remote.sign_all(bodies).await?);
    let sign_secs = signing.elapsed().as_secs_f64();
    println!(
        "  {} local posts in {posts_secs:.2} s; {} requests signed in {sign_secs:.2} s (not timed)",
        posts.len(),
        signed.len()
    );

    // The timed part: C senders take the activities in order; one about an earlier activity
    // waits for that one's answer.
    let steps = Arc::new(plan.steps.clone());
    let done: Arc<Vec<AtomicBool>> =
        Arc::new((0..steps.len()).map(|_| AtomicBool::new(false)).collect());
    let waits = Arc::new(AtomicU64::new(0));
    let client = api::client(connections)?;
    let next = Arc::new(AtomicUsize::new(0));
    let cpu_before = cpu_secs(pid).ok();
    let bench_before = cpu_secs(std::process::id()).ok();
    let start = Instant::now();
    let mut tasks = JoinSet::new();
    for _ in 0..connections {
        let (client, signed, next) = (client.clone(), signed.clone(), next.clone());
        let (steps, done, waits) = (steps.clone(), done.clone(), waits.clone());
        tasks.spawn(async move {
            let mut answered = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let (Some(request), Some(step)) = (signed.get(i), steps.get(i)) else {
                    break;
                };
                if let Some(d) = step.after
                    && !done[d].load(Ordering::Acquire)
                {
                    waits.fetch_add(1, Ordering::Relaxed);
                    while !done[d].load(Ordering::Acquire) {
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                }
                let sent = Instant::now();
                let outcome = request.send(&client).await;
                done[i].store(true, Ordering::Release);
                answered.push((i, sent.elapsed(), Instant::now(), outcome));
            }
            answered
        });
    }
    let mut kinds: BTreeMap<Kind, KindFigures> = BTreeMap::new();
    let mut all = Vec::new();
    let mut last_answer = start;
    let (mut ok, mut errors, mut first_error) = (0, 0, None);
    while let Some(joined) = tasks.join_next().await {
        let answered = joined.map_err(|e| format!("a sending task stopped: {e}"))?;
        for (i, latency, at, outcome) in answered {
            last_answer = last_answer.max(at);
            let k = kinds.entry(steps[i].kind).or_default();
            k.sent += 1;
            match outcome {
                Ok(_) => {
                    ok += 1;
                    k.ok += 1;
                    k.latencies.push(latency);
                    all.push(latency);
                }
                Err(e) => {
                    errors += 1;
                    k.errors += 1;
                    k.first_error.get_or_insert(e.clone());
                    first_error.get_or_insert(format!("{}: {e}", steps[i].kind.name()));
                }
            }
        }
    }
    let wall = last_answer.duration_since(start);
    let cpu_after = cpu_secs(pid).ok();
    let bench_after = cpu_secs(std::process::id()).ok();
    let per_activity = |before: Option<f64>, after: Option<f64>| match (before, after) {
        (Some(b), Some(a)) if ok > 0 => Some((a - b) * 1000.0 / ok as f64),
        _ => None,
    };
    all.sort();
    let per_sec = if wall.is_zero() {
        0.0
    } else {
        ok as f64 / wall.as_secs_f64()
    };
    let waits = waits.load(Ordering::Relaxed);
    println!(
        "  {ok} of {activities} accepted in {:.2} s: {per_sec:.1} activities/s, p50 {}, p99 {}, {errors} errors{}; {waits} waits",
        wall.as_secs_f64(),
        ms(percentile(&all, 50.0)),
        ms(percentile(&all, 99.0)),
        first(&first_error)
    );

    let mut figures = MixFigures {
        activities,
        connections,
        posts: posts.len(),
        posts_secs,
        sign_secs,
        kinds,
        ok,
        errors,
        first_error,
        wall_secs: wall.as_secs_f64(),
        per_sec,
        p50_ms: percentile(&all, 50.0),
        p99_ms: percentile(&all, 99.0),
        waits,
        server_cpu_ms: per_activity(cpu_before, cpu_after),
        bench_cpu_ms: per_activity(bench_before, bench_after),
        liked: (0, plan.likes),
        boosted: (0, plan.announces),
        boosts_listed: 0,
        present: (0, 0),
        edited: (0, 0),
        gone: (0, 0),
        statuses_read: 0,
        accepts: (0, plan.count(Follow)),
        relationships: (0, tokens.len()),
        refused: 0,
        first_refusal: None,
        check_error: None,
    };

    // The outcome, read back (untimed).
    let check = Check {
        fed,
        remote,
        remote_id,
        tokens,
        plan: &plan,
        ctx: &ctx,
        statuses_path: &statuses_path,
        boundary: boundary.as_deref(),
        accepts_before,
    };
    if let Err(e) = check.read(&mut figures).await {
        figures.check_error = Some(e);
    }
    let (refused, first_refusal) = remote.tally.refusals();
    figures.refused = refused - refused_before;
    figures.first_refusal = first_refusal.filter(|_| figures.refused > 0);
    println!(
        "  afterwards: liked {}/{}, boosted {}/{}, notes kept {}/{}, edited {}/{}, gone {}/{}, Accepts {}/{}, relationships {}/{}",
        figures.liked.0,
        figures.liked.1,
        figures.boosted.0,
        figures.boosted.1,
        figures.present.0,
        figures.present.1,
        figures.edited.0,
        figures.edited.1,
        figures.gone.0,
        figures.gone.1,
        figures.accepts.0,
        figures.accepts.1,
        figures.relationships.0,
        figures.relationships.1
    );
    Ok(figures)
}

/// Reads the mix's outcome back through the client API.
struct Check<'a> {
    fed: &'a Fedblog,
    remote: &'a Arc<Remote>,
    remote_id: &'a str,
    tokens: &'a [String],
    plan: &'a Plan,
    ctx: &'a Context<'a>,
    statuses_path: &'a str,
    boundary: Option<&'a str>,
    accepts_before: u64,
}

impl Check<'_> {
    async fn read(&self, figures: &mut MixFigures) -> Result<(), String> {
        let (fed, plan, ctx) = (self.fed, self.plan, self.ctx);

        // The Accepts of the Follows arrive after their answers: waited for.
        let deadline = Instant::now() + ACCEPTS_TIMEOUT;
        let follows = plan.count(Follow) as u64;
        let accepts = || {
            self.remote
                .tally
                .count("Accept")
                .saturating_sub(self.accepts_before)
        };
        while accepts() < follows && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        figures.accepts.0 = accepts();

        // Each liked or boosted local post, as its author sees it.
        let counts: Vec<Result<(u64, u64), String>> = futures_util::stream::iter(ctx.posts.iter())
            .map(|post| async move {
                let s = fed
                    .get(&api::status_path(&post.id), &self.tokens[post.token])
                    .await?;
                Ok((
                    s["favourites_count"].as_u64().unwrap_or(0),
                    s["reblogs_count"].as_u64().unwrap_or(0),
                ))
            })
            .buffered(8)
            .collect()
            .await;
        for (k, c) in counts.into_iter().enumerate() {
            let (favourites, reblogs) = c?;
            if k < plan.likes && favourites >= 1 {
                figures.liked.0 += 1;
            }
            if k < plan.announces && reblogs >= 1 {
                figures.boosted.0 += 1;
            }
        }

        // r's statuses since the mix began, read upwards from there.
        let mut notes: HashMap<String, Value> = HashMap::new();
        let mut reblogged: HashSet<String> = HashSet::new();
        let mut min_id = self.boundary.map(str::to_string);
        let mut read = 0;
        for _ in 0..100_000 {
            let path = match &min_id {
                Some(id) => format!("{}?limit=40&min_id={id}", self.statuses_path),
                None => format!("{}?limit=40&min_id=0", self.statuses_path),
            };
            let page = fed.get(&path, &self.tokens[0]).await?;
            let list = page.as_array().cloned().unwrap_or_default();
            let top = list
                .iter()
                .filter_map(|s| s["id"].as_str())
                .max_by_key(|id| (id.len(), id.to_string()))
                .map(str::to_string);
            let Some(top) = top else {
                break;
            };
            if min_id.as_deref() == Some(top.as_str()) {
                break;
            }
            read += list.len();
            for s in list {
                match s["reblog"]["uri"].as_str() {
                    Some(uri) => {
                        reblogged.insert(uri.to_string());
                    }
                    None => {
                        if let Some(uri) = s["uri"].as_str() {
                            notes.insert(uri.to_string(), s.clone());
                        }
                    }
                }
            }
            min_id = Some(top);
        }
        figures.statuses_read = read;
        figures.boosts_listed = ctx.posts[..plan.announces]
            .iter()
            .filter(|p| reblogged.contains(&p.uri))
            .count();
        let edited = plan.notes_of(Update);
        let deleted = plan.notes_of(Delete);
        for note in 0..plan.notes {
            let shown = notes.get(&ctx.note_id(note));
            if deleted.contains(&note) {
                figures.gone.1 += 1;
                if shown.is_none() {
                    figures.gone.0 += 1;
                }
                continue;
            }
            figures.present.1 += 1;
            if shown.is_some() {
                figures.present.0 += 1;
            }
            if edited.contains(&note) {
                figures.edited.1 += 1;
                if let Some(s) = shown
                    && s["content"]
                        .as_str()
                        .is_some_and(|c| c.contains(&edit_marker(&ctx.run, note)))
                    && s["edited_at"].is_string()
                {
                    figures.edited.0 += 1;
                }
            }
        }

        // Each local account: followed by r exactly when the plan left it so.
        for (t, token) in self.tokens.iter().enumerate() {
            let path = format!("{}?id[]={}", GetRelationships::PATH, self.remote_id);
            let rel = fed.get(&path, token).await?;
            if rel[0]["followed_by"].as_bool() == Some(plan.followed[t]) {
                figures.relationships.0 += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cycle_has_the_documented_counts() {
        assert_eq!(
            Kind::cycle_line(),
            "6 Create, 5 Like, 3 Announce, 2 Update, 2 Delete, 1 Follow, 1 Undo Follow"
        );
    }

    #[test]
    fn dependencies_come_first_and_far_enough_back() {
        let plan = Plan::new(2000, 32, 5);
        assert_eq!(plan.steps.len(), 2000);
        for (i, s) in plan.steps.iter().enumerate() {
            if let Some(d) = s.after {
                assert!(d + 32 <= i, "{i} waits for {d}");
                let before = plan.steps[d];
                match s.kind {
                    Update | Delete => {
                        assert_eq!((before.kind, before.subject), (Create, s.subject));
                    }
                    Undo => assert_eq!(
                        (before.kind, before.subject, before.round),
                        (Follow, s.subject, s.round)
                    ),
                    Follow => assert_eq!((before.kind, before.subject), (Undo, s.subject)),
                    _ => panic!("{:?} waits", s.kind),
                }
            }
        }
        // Every note is edited or deleted at most once; the counts are near the cycle's.
        let mut touched = HashSet::new();
        for s in plan
            .steps
            .iter()
            .filter(|s| matches!(s.kind, Update | Delete))
        {
            assert!(touched.insert(s.subject));
        }
        assert_eq!(plan.likes, 500);
        assert_eq!(plan.announces, 300);
        assert!(plan.count(Update) >= 195 && plan.count(Delete) >= 195);
        assert_eq!(plan.count(Follow), 100);
        assert!(plan.count(Undo) >= 97);
        assert_eq!(
            plan.followed.iter().filter(|f| **f).count(),
            plan.count(Follow) - plan.count(Undo)
        );
    }

    #[test]
    fn a_small_plan_still_has_every_kind() {
        let plan = Plan::new(200, 32, 5);
        for kind in [Create, Like, Announce, Update, Delete, Follow, Undo] {
            assert!(plan.count(kind) > 0, "{kind:?}");
        }
    }
}
