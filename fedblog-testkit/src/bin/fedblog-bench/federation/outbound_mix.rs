//! The outbound full mix: after the post whose `Create` the outbound figure times, the author
//! does, one at a time, everything else that reaches every server following it, and each
//! activity is timed like the post, from the API call until every remote server has received
//! and verified it:
//!
//! 1. `Update` of the note: the post edited (`PUT /api/v1/statuses/:id`);
//! 2. `Announce`: the author boosts its own public post (`POST /api/v1/statuses/:id/reblog`);
//! 3. `Undo` of that `Announce` (`POST /api/v1/statuses/:id/unreblog`);
//! 4. `Create` of a `Question`: a post with a poll;
//! 5. `Update` of the `Person`: the profile's bio changed (`PATCH
//!    /api/v1/accounts/update_credentials`);
//! 6. `Delete` of the post (`DELETE /api/v1/statuses/:id`).
//!
//! Favourites are left out: a `Like` goes only to the liked post's author, not to the followers'
//! servers. Each activity is recognised by what it is about (the post's id, or a marker in its
//! text), so one arriving late is never taken for the next.

use fedblog_core::api::accounts::update_credentials::UpdateCredentials;
use fedblog_core::api::statuses::create_status::CreateStatus;
use fedblog_core::api::statuses::delete_status::DeleteStatus;
use fedblog_core::api::statuses::edit_status::EditStatus;
use fedblog_core::api::statuses::reblog_status::ReblogStatus;
use fedblog_core::api::statuses::unreblog_status::UnreblogStatus;
use fedblog_core::api::{Endpoint, fill_path};
use reqwest::Method;
use serde_json::{Value, json};

use super::{Delivered, Fedblog, Remote, id_of};

/// Times the mix after the post `status` (its API answer); one figure per activity, in order.
/// A step whose call fails is reported and the rest still run.
pub(super) async fn run(
    fed: &Fedblog,
    remote: &Remote,
    pid: u32,
    token: &str,
    status: &Value,
    run: &str,
) -> Vec<Delivered> {
    let mut steps = Vec::new();
    let (Some(id), Some(uri)) = (status["id"].as_str(), status["uri"].as_str()) else {
        println!("  the post's answer has no id or uri: the rest of the mix is skipped");
        return steps;
    };
    let (id, uri) = (id.to_string(), uri.to_string());
    let status_path = fill_path(EditStatus::PATH, &[("id", &id)]);

    // The edit: an Update of the note, with the new text.
    let edited = format!("edit-{run}-end");
    let (u, m) = (uri.clone(), edited.clone());
    record(
        &mut steps,
        Delivered::time(
            remote,
            pid,
            "Update (edit)",
            "PUT /api/v1/statuses/:id",
            move |a| {
                a["type"] == "Update"
                    && id_of(&a["object"]) == Some(u.as_str())
                    && a["object"]["content"]
                        .as_str()
                        .is_some_and(|c| c.contains(&m))
            },
            fed.call(
                Method::PUT,
                &status_path,
                token,
                Some(&json!({"status": format!("Outbound benchmark post, edited {edited}")})),
            ),
        )
        .await,
    );

    // The boost of the author's own post, then its undoing.
    let u = uri.clone();
    record(
        &mut steps,
        Delivered::time(
            remote,
            pid,
            "Announce (boost)",
            "POST /api/v1/statuses/:id/reblog",
            move |a| a["type"] == "Announce" && id_of(&a["object"]) == Some(u.as_str()),
            fed.call(
                Method::POST,
                &fill_path(ReblogStatus::PATH, &[("id", &id)]),
                token,
                None,
            ),
        )
        .await,
    );
    let u = uri.clone();
    record(
        &mut steps,
        Delivered::time(
            remote,
            pid,
            "Undo Announce (unboost)",
            "POST /api/v1/statuses/:id/unreblog",
            move |a| {
                a["type"] == "Undo"
                    && a["object"]["type"] == "Announce"
                    && id_of(&a["object"]["object"]) == Some(u.as_str())
            },
            fed.call(
                Method::POST,
                &fill_path(UnreblogStatus::PATH, &[("id", &id)]),
                token,
                None,
            ),
        )
        .await,
    );

    // A post with a poll: a Create of a Question.
    let poll = format!("poll-{run}-end");
    let m = poll.clone();
    record(
        &mut steps,
        Delivered::time(
            remote,
            pid,
            "Create (poll)",
            "POST /api/v1/statuses with a poll",
            move |a| {
                a["type"] == "Create"
                    && a["object"]["type"] == "Question"
                    && a["object"]["content"]
                        .as_str()
                        .is_some_and(|c| c.contains(&m))
            },
            fed.call(
                Method::POST,
                CreateStatus::PATH,
                token,
                Some(&json!({
                    "status": format!("Outbound benchmark poll {poll}"),
                    "visibility": "public",
                    "poll": {"options": ["yes", "no"], "expires_in": 86400},
                })),
            ),
        )
        .await,
    );

    // The profile: an Update of the Person.
    let bio = format!("profile-{run}-end");
    let m = bio.clone();
    record(
        &mut steps,
        Delivered::time(
            remote,
            pid,
            "Update (profile)",
            "PATCH /api/v1/accounts/update_credentials",
            move |a| {
                a["type"] == "Update"
                    && a["object"]["type"] == "Person"
                    && a["object"]["summary"]
                        .as_str()
                        .is_some_and(|c| c.contains(&m))
            },
            fed.call(
                Method::PATCH,
                UpdateCredentials::PATH,
                token,
                Some(&json!({"note": format!("Benchmark author {bio}")})),
            ),
        )
        .await,
    );

    // The post deleted.
    let u = uri.clone();
    record(
        &mut steps,
        Delivered::time(
            remote,
            pid,
            "Delete",
            "DELETE /api/v1/statuses/:id",
            move |a| a["type"] == "Delete" && id_of(&a["object"]) == Some(u.as_str()),
            fed.call(
                Method::DELETE,
                &fill_path(DeleteStatus::PATH, &[("id", &id)]),
                token,
                None,
            ),
        )
        .await,
    );
    steps
}

/// Prints a step's outcome and keeps it.
fn record(steps: &mut Vec<Delivered>, step: Delivered) {
    println!("  {}", step.line());
    steps.push(step);
}
