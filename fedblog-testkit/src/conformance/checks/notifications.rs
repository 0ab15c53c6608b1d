//! Notifications: what makes them (mentions, favourites, reblogs, follows, follow requests, posts
//! of accounts followed with `notify`, edits of reblogged posts), what takes them back (undoing
//! the act, deleting the status, blocking), the list with its filters and `min_id`/`max_id`/
//! `since_id` pagination, one notification, dismissing (only the owner), clearing, the unread
//! count after the notifications marker, and markers themselves.
//! `poll` notifications come when a poll ends, at least five minutes after it is posted: core's
//! unit tests cover them.

use serde_json::Value;

use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount, mute_account::MuteAccount,
    unfollow_account::UnfollowAccount,
};
use fedblog_core::api::follow_requests::authorize_follow_request::AuthorizeFollowRequest;
use fedblog_core::api::markers::{get_markers::GetMarkers, save_markers::SaveMarkers};
use fedblog_core::api::notifications::{
    clear_notifications::ClearNotifications, delete_notification::DeleteNotification,
    dismiss_notification::DismissNotification,
    dismiss_notification_group::DismissNotificationGroup,
    dismiss_notifications::DismissNotifications, get_notification::GetNotification,
    get_notification_group::GetNotificationGroup, list_notification_groups::ListNotificationGroups,
    list_notifications::ListNotifications, notification_group_accounts::NotificationGroupAccounts,
    unread_count::UnreadCount, unread_group_count::UnreadGroupCount,
};
use fedblog_core::api::statuses::{
    delete_status::DeleteStatus, edit_status::EditStatus, favourite_status::FavouriteStatus,
    reblog_status::ReblogStatus, unfavourite_status::UnfavouriteStatus,
};

use crate::check;
use crate::client::{Body, form};
use crate::conformance::checks::social::{act, set_profile, token_with_scopes};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "notifications/mention",
            "a status mentioning an account gives it a mention notification carrying the author as account and the status; the author gets none",
            mention
        ),
        check!(
            "notifications/favourite-and-undo",
            "favouriting another's status notifies its author (favourite, with the status); unfavouriting takes the notification back; favouriting one's own status notifies no one",
            favourite_and_undo
        ),
        check!(
            "notifications/reblog-and-undo",
            "reblogging notifies the original's author (reblog, with the original status); unreblogging takes it back",
            reblog_and_undo
        ),
        check!(
            "notifications/follow-and-undo",
            "following notifies the followed account (follow, no status); unfollowing takes it back",
            follow_and_undo
        ),
        check!(
            "notifications/follow-request",
            "asking to follow a locked account gives it a follow_request notification; authorizing the request takes it back",
            follow_request
        ),
        check!(
            "notifications/status-notify",
            "following with notify=true gives a status notification for each new post of the followed account; without notify there is none",
            status_notify
        ),
        check!(
            "notifications/update",
            "editing a status notifies the accounts that reblogged it (update)",
            update
        ),
        check!(
            "notifications/deleted-status",
            "deleting a status takes back the notifications about it",
            deleted_status
        ),
        check!(
            "notifications/blocked-and-muted-hidden",
            "blocking an account removes its notifications and no new ones come; muting with notifications hides its notifications, muting with notifications=false keeps them",
            blocked_and_muted_hidden
        ),
        check!(
            "notifications/filters",
            "types[], exclude_types[] and account_id filter the list; types[] naming only unknown types gives an empty list",
            filters
        ),
        check!(
            "notifications/min-id-pagination",
            "notifications page newest first with limit, max_id, since_id and min_id (min_id: the ones just after the cursor), with Link next (max_id) and prev (min_id) headers",
            min_id_pagination
        ),
        check!(
            "notifications/get-one",
            "GET /api/v1/notifications/:id answers the caller's notification; another account's, or an unknown id, is a 404",
            get_one
        ),
        check!(
            "notifications/dismiss-owner-only",
            "only the owner dismisses a notification: another account's dismiss is a 404 and the notification stays; the owner's answers {} and removes it",
            dismiss_owner_only
        ),
        check!(
            "notifications/legacy-dismiss-routes",
            "DELETE /api/v1/notifications/:id and DELETE /api/v1/notifications/destroy_multiple?ids[] dismiss the caller's notifications only",
            legacy_dismiss_routes
        ),
        check!(
            "notifications/clear",
            "POST /api/v1/notifications/clear removes all of the caller's notifications and no one else's",
            clear
        ),
        check!(
            "notifications/unread-count",
            "unread_count counts the notifications after the notifications marker (all without one), filtered by types[], and no further than limit",
            unread_count
        ),
        check!(
            "notifications/auth",
            "the notification endpoints without a token are 401; with a token lacking read:notifications (or write:notifications to dismiss) 403",
            auth
        ),
        check!(
            "notifications/v2/grouped",
            "GET /api/v2/notifications groups favourites of one status (notifications_count, sample_account_ids most recent first, status_id, page_min_id/page_max_id) and keeps a mention alone (ungrouped-<id>), with the accounts and statuses named",
            v2_grouped
        ),
        check!(
            "notifications/v2/grouped-types",
            "grouped_types[]=follow leaves favourites ungrouped, one group each",
            v2_grouped_types
        ),
        check!(
            "notifications/v2/pagination",
            "grouped notifications page by groups with limit, and the Link next header leads to the older groups without repeats",
            v2_pagination
        ),
        check!(
            "notifications/v2/group-get-accounts-dismiss",
            "a group can be read by its key with its accounts, and dismissed by its owner only (another account gets 404 and the group stays); afterwards it is a 404",
            v2_group_get_accounts_dismiss
        ),
        check!(
            "notifications/v2/partial-avatars",
            "expand_accounts=partial_avatars gives each group's most recent account in full and the other sample accounts in partial_accounts",
            v2_partial_avatars
        ),
        check!(
            "notifications/v2/unread-count",
            "GET /api/v2/notifications/unread_count counts groups after the notifications marker",
            v2_unread_count
        ),
        check!(
            "markers/save-and-read",
            "POST /api/v1/markers saves home and notifications positions with version 1, then 2; GET with timeline[] answers the asked markers only, and without timeline[] {}",
            markers_save_and_read
        ),
        check!(
            "markers/json-body",
            "markers can be saved with a JSON body {\"home\": {\"last_read_id\": ...}}",
            markers_json
        ),
        check!(
            "markers/bad-id-422",
            "a last_read_id that is blank or no id is a 422 and nothing is saved",
            markers_bad_id
        ),
        check!(
            "markers/auth",
            "markers without a token are 401; reading with a token lacking read:statuses is a 403",
            markers_auth
        ),
    ]
}

/// The caller's notifications with a query string (`""` for none).
pub(crate) async fn list(cx: &Cx, who: &User, query: &str) -> Result<Vec<Value>, Failure> {
    let url = format!("{}{query}", path::<ListNotifications>(&[]));
    let r = cx.client.get(&url, Some(&who.token)).await?;
    r.expect(200)?;
    r.json()?
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("notifications are not an array: {}", r.text)))
}

/// The caller's notifications of `kind` from `from`.
async fn of_kind(cx: &Cx, who: &User, kind: &str, from: &User) -> Result<Vec<Value>, Failure> {
    Ok(list(cx, who, &format!("?account_id={}", from.id))
        .await?
        .into_iter()
        .filter(|n| n["type"] == kind)
        .collect())
}

/// Exactly one notification of `kind` from `from`; answers it.
async fn one_of_kind(cx: &Cx, who: &User, kind: &str, from: &User) -> Result<Value, Failure> {
    let found = of_kind(cx, who, kind, from).await?;
    ensure!(
        found.len() == 1,
        "expected one {kind} notification from {}, got {}: {found:?}",
        from.username,
        found.len()
    );
    let n = found[0].clone();
    ensure!(
        n["account"]["id"] == from.id.as_str(),
        "the {kind} notification's account is {}, not the actor {}",
        n["account"]["id"],
        from.id
    );
    ensure!(
        n["group_key"].as_str().is_some_and(|g| !g.is_empty()),
        "a notification has a group_key: {n}"
    );
    Ok(n)
}

/// Posts a status as `who` and answers its id.
async fn post(cx: &Cx, who: &User, text: &str, extra: &[(&str, &str)]) -> Result<String, Failure> {
    let mut pairs = vec![("status", text)];
    pairs.extend_from_slice(extra);
    str_of(&cx.post_status(who, &pairs).await?, "id")
}

/// POSTs a status action (`:id` = `status`) as `who`; expects a 200.
pub(crate) async fn status_action<E: fedblog_core::api::Endpoint>(
    cx: &Cx,
    who: &User,
    status: &str,
) -> CheckResult {
    cx.client
        .post(&path::<E>(&[("id", status)]), Some(&who.token), Body::None)
        .await?
        .expect(200)?;
    Ok(())
}

async fn mention(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("notified").await?;
    let bob = cx.new_user("mentioner").await?;
    let id = post(cx, &bob, &format!("hello @{}", alice.username), &[]).await?;
    let n = one_of_kind(cx, &alice, "mention", &bob).await?;
    ensure!(
        n["status"]["id"] == id.as_str(),
        "the mention carries the status {id}: {n}"
    );
    ensure!(
        list(cx, &bob, "").await?.is_empty(),
        "the author of a mention is not notified of it"
    );
    Ok(())
}

async fn favourite_and_undo(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("faved").await?;
    let bob = cx.new_user("faver").await?;
    let id = post(cx, &alice, "like me", &[]).await?;
    status_action::<FavouriteStatus>(cx, &bob, &id).await?;
    let n = one_of_kind(cx, &alice, "favourite", &bob).await?;
    ensure!(
        n["status"]["id"] == id.as_str(),
        "the favourite carries the status: {n}"
    );
    status_action::<UnfavouriteStatus>(cx, &bob, &id).await?;
    ensure!(
        of_kind(cx, &alice, "favourite", &bob).await?.is_empty(),
        "unfavouriting takes the favourite notification back"
    );
    status_action::<FavouriteStatus>(cx, &alice, &id).await?;
    ensure!(
        list(cx, &alice, "").await?.is_empty(),
        "favouriting one's own status notifies no one"
    );
    Ok(())
}

async fn reblog_and_undo(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("boosted").await?;
    let bob = cx.new_user("booster").await?;
    let id = post(cx, &alice, "boost me", &[]).await?;
    status_action::<ReblogStatus>(cx, &bob, &id).await?;
    let n = one_of_kind(cx, &alice, "reblog", &bob).await?;
    ensure!(
        n["status"]["id"] == id.as_str(),
        "the reblog notification carries the original status {id}: {}",
        n["status"]["id"]
    );
    status_action::<fedblog_core::api::statuses::unreblog_status::UnreblogStatus>(cx, &bob, &id)
        .await?;
    ensure!(
        of_kind(cx, &alice, "reblog", &bob).await?.is_empty(),
        "unreblogging takes the reblog notification back"
    );
    Ok(())
}

async fn follow_and_undo(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("followed").await?;
    let bob = cx.new_user("follower").await?;
    act::<FollowAccount>(cx, &bob, &alice, &[]).await?;
    let n = one_of_kind(cx, &alice, "follow", &bob).await?;
    ensure!(
        n.get("status").is_none_or(Value::is_null),
        "a follow notification has no status: {n}"
    );
    act::<UnfollowAccount>(cx, &bob, &alice, &[]).await?;
    ensure!(
        of_kind(cx, &alice, "follow", &bob).await?.is_empty(),
        "unfollowing takes the follow notification back"
    );
    Ok(())
}

async fn follow_request(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("locked").await?;
    let bob = cx.new_user("asker").await?;
    set_profile(cx, &alice, &[("locked", "true")]).await?;
    act::<FollowAccount>(cx, &bob, &alice, &[]).await?;
    one_of_kind(cx, &alice, "follow_request", &bob).await?;
    ensure!(
        of_kind(cx, &alice, "follow", &bob).await?.is_empty(),
        "a pending request is not a follow notification"
    );
    cx.client
        .post(
            &path::<AuthorizeFollowRequest>(&[("account_id", &bob.id)]),
            Some(&alice.token),
            Body::None,
        )
        .await?
        .expect(200)?;
    ensure!(
        of_kind(cx, &alice, "follow_request", &bob)
            .await?
            .is_empty(),
        "authorizing the request takes the follow_request notification back"
    );
    Ok(())
}

async fn status_notify(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("poster").await?;
    let bell = cx.new_user("bell").await?;
    let quiet = cx.new_user("quiet").await?;
    act::<FollowAccount>(cx, &bell, &alice, &[("notify", "true")]).await?;
    act::<FollowAccount>(cx, &quiet, &alice, &[]).await?;
    let id = post(cx, &alice, "news", &[]).await?;
    let n = one_of_kind(cx, &bell, "status", &alice).await?;
    ensure!(
        n["status"]["id"] == id.as_str(),
        "the status notification carries the post: {n}"
    );
    ensure!(
        of_kind(cx, &quiet, "status", &alice).await?.is_empty(),
        "a follower without notify gets no status notification"
    );
    Ok(())
}

async fn update(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("editor").await?;
    let bob = cx.new_user("reblogger").await?;
    let id = post(cx, &alice, "first version", &[]).await?;
    status_action::<ReblogStatus>(cx, &bob, &id).await?;
    cx.send(
        "PUT",
        &path::<EditStatus>(&[("id", &id)]),
        Some(&alice.token),
        form(&[("status", "second version")]),
    )
    .await?
    .expect(200)?;
    let n = one_of_kind(cx, &bob, "update", &alice).await?;
    ensure!(
        n["status"]["id"] == id.as_str()
            && n["status"]["content"]
                .as_str()
                .is_some_and(|c| c.contains("second version")),
        "the update notification carries the edited status: {}",
        n["status"]
    );
    Ok(())
}

async fn deleted_status(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("mentioned").await?;
    let bob = cx.new_user("regretful").await?;
    let id = post(cx, &bob, &format!("oops @{}", alice.username), &[]).await?;
    one_of_kind(cx, &alice, "mention", &bob).await?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &id)]), Some(&bob.token))
        .await?
        .expect(200)?;
    ensure!(
        of_kind(cx, &alice, "mention", &bob).await?.is_empty(),
        "deleting the status takes its mention notification back"
    );
    Ok(())
}

async fn blocked_and_muted_hidden(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("blocker").await?;
    let loud = cx.new_user("loud").await?;
    let muted = cx.new_user("muted").await?;
    let half = cx.new_user("halfmuted").await?;
    for who in [&loud, &muted, &half] {
        post(cx, who, &format!("hey @{}", alice.username), &[]).await?;
    }
    act::<BlockAccount>(cx, &alice, &loud, &[]).await?;
    act::<MuteAccount>(cx, &alice, &muted, &[]).await?;
    act::<MuteAccount>(cx, &alice, &half, &[("notifications", "false")]).await?;
    ensure!(
        of_kind(cx, &alice, "mention", &loud).await?.is_empty(),
        "a blocked account's notifications are gone"
    );
    ensure!(
        of_kind(cx, &alice, "mention", &muted).await?.is_empty(),
        "a muted account's notifications are hidden"
    );
    one_of_kind(cx, &alice, "mention", &half).await?;
    // New acts of a muted account notify no one.
    act::<FollowAccount>(cx, &muted, &alice, &[]).await?;
    ensure!(
        of_kind(cx, &alice, "follow", &muted).await?.is_empty(),
        "a muted account's new follow is not shown"
    );
    Ok(())
}

async fn filters(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtered").await?;
    let bob = cx.new_user("actor").await?;
    let carol = cx.new_user("other").await?;
    let id = post(cx, &alice, "target", &[]).await?;
    post(cx, &bob, &format!("hi @{}", alice.username), &[]).await?;
    status_action::<FavouriteStatus>(cx, &bob, &id).await?;
    act::<FollowAccount>(cx, &carol, &alice, &[]).await?;
    let types = |v: &[Value]| -> Vec<String> {
        let mut t: Vec<String> = v
            .iter()
            .filter_map(|n| n["type"].as_str().map(str::to_string))
            .collect();
        t.sort();
        t
    };
    let all = list(cx, &alice, "").await?;
    ensure!(
        types(&all) == ["favourite", "follow", "mention"],
        "all notifications: {:?}",
        types(&all)
    );
    let only = list(cx, &alice, "?types[]=mention&types[]=follow").await?;
    ensure!(
        types(&only) == ["follow", "mention"],
        "types[]=mention&types[]=follow gave {:?}",
        types(&only)
    );
    let except = list(cx, &alice, "?exclude_types[]=favourite").await?;
    ensure!(
        types(&except) == ["follow", "mention"],
        "exclude_types[]=favourite gave {:?}",
        types(&except)
    );
    let from_bob = list(cx, &alice, &format!("?account_id={}", bob.id)).await?;
    ensure!(
        types(&from_bob) == ["favourite", "mention"],
        "account_id of bob gave {:?}",
        types(&from_bob)
    );
    let unknown = list(cx, &alice, "?types[]=no_such_type").await?;
    ensure!(
        unknown.is_empty(),
        "types[] naming only an unknown type gave {:?}",
        types(&unknown)
    );
    Ok(())
}

async fn min_id_pagination(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("paged").await?;
    let bob = cx.new_user("pager").await?;
    for i in 0..5 {
        post(cx, &bob, &format!("@{} number {i}", alice.username), &[]).await?;
    }
    let all = ids_of(&Value::Array(list(cx, &alice, "").await?));
    ensure!(all.len() == 5, "five mentions, got {}", all.len());
    let url = format!("{}?limit=2", path::<ListNotifications>(&[]));
    let r = cx.client.get(&url, Some(&alice.token)).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == all[..2],
        "limit=2 gave {:?}, expected {:?}",
        ids_of(r.json()?),
        &all[..2]
    );
    let next = r
        .link("next")
        .ok_or_else(|| Failure::Fail("a full page has a Link next".into()))?;
    ensure!(
        next.contains(&format!("max_id={}", all[1])),
        "Link next {next} pages from max_id={}",
        all[1]
    );
    ensure!(
        r.link("prev")
            .is_some_and(|p| p.contains(&format!("min_id={}", all[0]))),
        "Link prev pages from min_id={}: {:?}",
        all[0],
        r.header("link")
    );
    let older = list(cx, &alice, &format!("?max_id={}&limit=2", all[1])).await?;
    ensure!(
        ids_of(&Value::Array(older.clone())) == all[2..4],
        "max_id gave {:?}",
        ids_of(&Value::Array(older))
    );
    let just_after = list(cx, &alice, &format!("?min_id={}&limit=2", all[4])).await?;
    ensure!(
        ids_of(&Value::Array(just_after.clone())) == all[2..4],
        "min_id={} limit=2 gives the two just after it, newest first: {:?}",
        all[4],
        ids_of(&Value::Array(just_after))
    );
    let newest = list(cx, &alice, &format!("?since_id={}&limit=2", all[4])).await?;
    ensure!(
        ids_of(&Value::Array(newest.clone())) == all[..2],
        "since_id limit=2 gives the newest two: {:?}",
        ids_of(&Value::Array(newest))
    );
    Ok(())
}

async fn get_one(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("owner").await?;
    let bob = cx.new_user("stranger").await?;
    post(cx, &bob, &format!("@{} ping", alice.username), &[]).await?;
    let n = one_of_kind(cx, &alice, "mention", &bob).await?;
    let id = str_of(&n, "id")?;
    let r = cx
        .client
        .get(&path::<GetNotification>(&[("id", &id)]), Some(&alice.token))
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["id"] == id.as_str() && r.json()?["type"] == "mention",
        "GET one answered {}",
        r.text
    );
    let r = cx
        .client
        .get(&path::<GetNotification>(&[("id", &id)]), Some(&bob.token))
        .await?;
    expect_error(&r, 404, "another account's notification")?;
    let r = cx
        .client
        .get(
            &path::<GetNotification>(&[("id", "999999999999")]),
            Some(&alice.token),
        )
        .await?;
    expect_error(&r, 404, "an unknown notification")
}

async fn dismiss_owner_only(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("owner").await?;
    let bob = cx.new_user("intruder").await?;
    post(cx, &bob, &format!("@{} ping", alice.username), &[]).await?;
    let id = str_of(&one_of_kind(cx, &alice, "mention", &bob).await?, "id")?;
    let dismiss = path::<DismissNotification>(&[("id", &id)]);
    let r = cx
        .client
        .post(&dismiss, Some(&bob.token), Body::None)
        .await?;
    expect_error(&r, 404, "dismissing another account's notification")?;
    one_of_kind(cx, &alice, "mention", &bob).await?;
    let r = cx
        .client
        .post(&dismiss, Some(&alice.token), Body::None)
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_object().is_some_and(|o| o.is_empty()),
        "dismiss answers {{}}: {}",
        r.text
    );
    ensure!(
        of_kind(cx, &alice, "mention", &bob).await?.is_empty(),
        "a dismissed notification is gone"
    );
    Ok(())
}

async fn legacy_dismiss_routes(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("owner").await?;
    let bob = cx.new_user("poker").await?;
    for i in 0..3 {
        post(cx, &bob, &format!("@{} poke {i}", alice.username), &[]).await?;
    }
    let ids = ids_of(&Value::Array(list(cx, &alice, "").await?));
    ensure!(ids.len() == 3, "three mentions, got {ids:?}");
    let r = cx
        .client
        .delete(
            &path::<DeleteNotification>(&[("id", &ids[0])]),
            Some(&bob.token),
        )
        .await?;
    expect_error(&r, 404, "DELETE of another account's notification")?;
    cx.client
        .delete(
            &path::<DeleteNotification>(&[("id", &ids[0])]),
            Some(&alice.token),
        )
        .await?
        .expect(200)?;
    let multiple = format!(
        "{}?ids[]={}&ids[]={}",
        path::<DismissNotifications>(&[]),
        ids[1],
        ids[2]
    );
    cx.client
        .delete(&multiple, Some(&bob.token))
        .await?
        .expect(200)?;
    ensure!(
        list(cx, &alice, "").await?.len() == 2,
        "destroy_multiple by another account dismissed the owner's notifications"
    );
    cx.client
        .delete(&multiple, Some(&alice.token))
        .await?
        .expect(200)?;
    ensure!(
        list(cx, &alice, "").await?.is_empty(),
        "destroy_multiple dismissed the listed notifications"
    );
    Ok(())
}

async fn clear(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("clearer").await?;
    let bob = cx.new_user("keeper").await?;
    post(cx, &bob, &format!("@{} one", alice.username), &[]).await?;
    post(cx, &alice, &format!("@{} two", bob.username), &[]).await?;
    let r = cx
        .client
        .post(
            &path::<ClearNotifications>(&[]),
            Some(&alice.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    ensure!(
        list(cx, &alice, "").await?.is_empty(),
        "clear removes the caller's notifications"
    );
    one_of_kind(cx, &bob, "mention", &alice).await?;
    Ok(())
}

/// The caller's unread count with a query string.
async fn count(cx: &Cx, who: &User, query: &str) -> Result<i64, Failure> {
    let url = format!("{}{query}", path::<UnreadCount>(&[]));
    let r = cx.client.get(&url, Some(&who.token)).await?;
    r.expect(200)?;
    r.json()?["count"]
        .as_i64()
        .ok_or_else(|| Failure::Fail(format!("unread_count answered {}", r.text)))
}

async fn unread_count(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("reader").await?;
    let bob = cx.new_user("writer").await?;
    for i in 0..3 {
        post(cx, &bob, &format!("@{} note {i}", alice.username), &[]).await?;
    }
    act::<FollowAccount>(cx, &bob, &alice, &[]).await?;
    ensure!(
        count(cx, &alice, "").await? == 4,
        "4 unread without a marker"
    );
    ensure!(
        count(cx, &alice, "?limit=2").await? == 2,
        "limit=2 counts no further than 2"
    );
    ensure!(
        count(cx, &alice, "?types[]=follow").await? == 1,
        "types[]=follow counts the follow only"
    );
    let ids = ids_of(&Value::Array(list(cx, &alice, "").await?));
    cx.client
        .post(
            &path::<SaveMarkers>(&[]),
            Some(&alice.token),
            form(&[("notifications[last_read_id]", ids[1].as_str())]),
        )
        .await?
        .expect(200)?;
    ensure!(
        count(cx, &alice, "").await? == 1,
        "after a marker on the second newest, 1 unread"
    );
    Ok(())
}

async fn auth(cx: &Cx) -> CheckResult {
    let list_path = path::<ListNotifications>(&[]);
    let r = cx.client.get(&list_path, None).await?;
    expect_error(&r, 401, "notifications without a token")?;
    let r = cx.client.get(&path::<UnreadCount>(&[]), None).await?;
    expect_error(&r, 401, "unread_count without a token")?;
    let wrong = token_with_scopes(cx, "read:statuses write:statuses").await?;
    let r = cx.client.get(&list_path, Some(&wrong)).await?;
    expect_error(
        &r,
        403,
        "notifications with a token lacking read:notifications",
    )?;
    let r = cx
        .client
        .post(&path::<ClearNotifications>(&[]), Some(&wrong), Body::None)
        .await?;
    expect_error(&r, 403, "clear with a token lacking write:notifications")
}

/// The caller's markers for a query string.
async fn markers(cx: &Cx, who: &User, query: &str) -> Result<Value, Failure> {
    let url = format!("{}{query}", path::<GetMarkers>(&[]));
    let r = cx.client.get(&url, Some(&who.token)).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

async fn markers_save_and_read(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("marker").await?;
    ensure!(
        markers(cx, &alice, "?timeline[]=home&timeline[]=notifications").await?
            == serde_json::json!({}),
        "no markers yet"
    );
    let save = |pairs: Vec<(&'static str, String)>| {
        let pairs: Vec<(String, String)> =
            pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let token = alice.token.clone();
        async move {
            let r = cx
                .client
                .post(&path::<SaveMarkers>(&[]), Some(&token), Body::Form(pairs))
                .await?;
            r.expect(200)?;
            Ok::<Value, Failure>(r.json()?.clone())
        }
    };
    let first = save(vec![
        ("home[last_read_id]", "1000".into()),
        ("notifications[last_read_id]", "2000".into()),
    ])
    .await?;
    ensure!(
        first["home"]["last_read_id"] == "1000"
            && first["home"]["version"] == 1
            && first["notifications"]["last_read_id"] == "2000"
            && first["notifications"]["version"] == 1,
        "first save: {first}"
    );
    let second = save(vec![("home[last_read_id]", "1500".into())]).await?;
    ensure!(
        second["home"]["last_read_id"] == "1500"
            && second["home"]["version"] == 2
            && second.get("notifications").is_none(),
        "second save answers the saved marker only, version 2: {second}"
    );
    let home = markers(cx, &alice, "?timeline[]=home").await?;
    ensure!(
        home["home"]["last_read_id"] == "1500"
            && home["home"]["updated_at"].is_string()
            && home.get("notifications").is_none(),
        "GET timeline[]=home: {home}"
    );
    let both = markers(cx, &alice, "?timeline[]=home&timeline[]=notifications").await?;
    ensure!(
        both["notifications"]["last_read_id"] == "2000" && both["home"]["version"] == 2,
        "GET both: {both}"
    );
    ensure!(
        markers(cx, &alice, "").await? == serde_json::json!({}),
        "GET without timeline[] answers {{}}"
    );
    Ok(())
}

async fn markers_json(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("marker").await?;
    let r = cx
        .send(
            "POST",
            &path::<SaveMarkers>(&[]),
            Some(&alice.token),
            Body::Json(serde_json::json!({"home": {"last_read_id": "4242"}})),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["home"]["last_read_id"] == "4242",
        "a JSON marker save answered {}",
        r.text
    );
    Ok(())
}

async fn markers_bad_id(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("marker").await?;
    for (what, value) in [("a blank id", ""), ("no id", "abc")] {
        let r = cx
            .client
            .post(
                &path::<SaveMarkers>(&[]),
                Some(&alice.token),
                form(&[
                    ("notifications[last_read_id]", "77"),
                    ("home[last_read_id]", value),
                ]),
            )
            .await?;
        expect_error(&r, 422, what)?;
    }
    ensure!(
        markers(cx, &alice, "?timeline[]=home&timeline[]=notifications").await?
            == serde_json::json!({}),
        "a refused save stores nothing"
    );
    Ok(())
}

async fn markers_auth(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<GetMarkers>(&[]), None).await?;
    expect_error(&r, 401, "markers without a token")?;
    let r = cx
        .client
        .post(
            &path::<SaveMarkers>(&[]),
            None,
            form(&[("home[last_read_id]", "1")]),
        )
        .await?;
    expect_error(&r, 401, "saving markers without a token")?;
    let wrong = token_with_scopes(cx, "read:notifications").await?;
    let r = cx
        .client
        .get(&path::<GetMarkers>(&[]), Some(&wrong))
        .await?;
    expect_error(&r, 403, "markers with a token lacking read:statuses")
}

/// `GET /api/v2/notifications` with a query string; the JSON body and the response.
async fn groups(
    cx: &Cx,
    who: &User,
    query: &str,
) -> Result<(Value, crate::client::Response), Failure> {
    let url = format!("{}{query}", path::<ListNotificationGroups>(&[]));
    let r = cx.client.get(&url, Some(&who.token)).await?;
    r.expect(200)?;
    Ok((r.json()?.clone(), r))
}

/// The groups of a grouped answer.
fn groups_of(v: &Value) -> Vec<Value> {
    v["notification_groups"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Alice's status favourited by bob then carol, and a mention by dave; answers (alice, bob,
/// carol, dave, status id).
async fn favourited_world(cx: &Cx) -> Result<(User, User, User, User, String), Failure> {
    let alice = cx.new_user("grouped").await?;
    let bob = cx.new_user("fan").await?;
    let carol = cx.new_user("fan").await?;
    let dave = cx.new_user("caller").await?;
    let id = post(cx, &alice, "favourite me", &[]).await?;
    status_action::<FavouriteStatus>(cx, &bob, &id).await?;
    status_action::<FavouriteStatus>(cx, &carol, &id).await?;
    post(cx, &dave, &format!("@{} hi", alice.username), &[]).await?;
    Ok((alice, bob, carol, dave, id))
}

async fn v2_grouped(cx: &Cx) -> CheckResult {
    let (alice, bob, carol, dave, id) = favourited_world(cx).await?;
    let (body, _) = groups(cx, &alice, "").await?;
    let gs = groups_of(&body);
    ensure!(gs.len() == 2, "two groups (favourites, mention): {body}");
    let (mention, favs) = (&gs[0], &gs[1]);
    ensure!(
        mention["type"] == "mention"
            && mention["notifications_count"] == 1
            && mention["group_key"]
                .as_str()
                .is_some_and(|k| k.starts_with("ungrouped-"))
            && mention["sample_account_ids"] == serde_json::json!([dave.id]),
        "the newest group is the mention, alone: {mention}"
    );
    ensure!(
        favs["type"] == "favourite"
            && favs["notifications_count"] == 2
            && favs["status_id"] == id.as_str()
            && favs["sample_account_ids"] == serde_json::json!([carol.id, bob.id]),
        "the favourites form one group, most recent account first: {favs}"
    );
    ensure!(
        favs["page_min_id"].is_string()
            && favs["page_max_id"].is_string()
            && favs["page_min_id"] != favs["page_max_id"],
        "page_min_id and page_max_id span the group's two notifications: {favs}"
    );
    let account_ids: Vec<&str> = body["accounts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["id"].as_str())
        .collect();
    for who in [&bob, &carol, &dave] {
        ensure!(
            account_ids.contains(&who.id.as_str()),
            "accounts hold every sample account: {account_ids:?}"
        );
    }
    ensure!(
        body["statuses"]
            .as_array()
            .is_some_and(|s| s.iter().any(|x| x["id"] == id.as_str())),
        "statuses hold the favourited status"
    );
    Ok(())
}

async fn v2_grouped_types(cx: &Cx) -> CheckResult {
    let (alice, ..) = favourited_world(cx).await?;
    let (body, _) = groups(cx, &alice, "?grouped_types[]=follow").await?;
    let gs = groups_of(&body);
    ensure!(
        gs.len() == 3
            && gs.iter().all(|g| g["notifications_count"] == 1
                && g["group_key"]
                    .as_str()
                    .is_some_and(|k| k.starts_with("ungrouped-"))),
        "without favourite in grouped_types, each favourite is its own group: {body}"
    );
    Ok(())
}

async fn v2_pagination(cx: &Cx) -> CheckResult {
    let (alice, ..) = favourited_world(cx).await?;
    let extra = cx.new_user("follower").await?;
    act::<FollowAccount>(cx, &extra, &alice, &[]).await?;
    let (first, r) = groups(cx, &alice, "?limit=1").await?;
    let gs = groups_of(&first);
    ensure!(
        gs.len() == 1 && gs[0]["type"] == "follow",
        "limit=1 gives the newest group: {first}"
    );
    let mut seen = vec![gs[0]["group_key"].clone()];
    let mut next = r.link("next");
    while let Some(url) = next {
        let r = cx.client.get(&url, Some(&alice.token)).await?;
        r.expect(200)?;
        let page = groups_of(r.json()?);
        if page.is_empty() {
            break;
        }
        ensure!(page.len() == 1, "limit=1 pages hold one group: {}", r.text);
        seen.push(page[0]["group_key"].clone());
        next = r.link("next");
        ensure!(seen.len() <= 5, "paging does not end: {seen:?}");
    }
    let kinds = seen.len();
    ensure!(
        kinds == 3,
        "three groups (follow, mention, favourites) over the pages, got {seen:?}"
    );
    Ok(())
}

async fn v2_group_get_accounts_dismiss(cx: &Cx) -> CheckResult {
    let (alice, bob, carol, ..) = favourited_world(cx).await?;
    let (body, _) = groups(cx, &alice, "?types[]=favourite").await?;
    let key = str_of(&groups_of(&body)[0], "group_key")?;
    let group_path = path::<GetNotificationGroup>(&[("group_key", &key)]);
    let r = cx.client.get(&group_path, Some(&alice.token)).await?;
    r.expect(200)?;
    let one = groups_of(r.json()?);
    ensure!(
        one.len() == 1 && one[0]["notifications_count"] == 2,
        "GET the group: {}",
        r.text
    );
    let r = cx
        .client
        .get(
            &path::<NotificationGroupAccounts>(&[("group_key", &key)]),
            Some(&alice.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == [carol.id.clone(), bob.id.clone()],
        "the group's accounts, most recent first: {}",
        r.text
    );
    let dismiss = path::<DismissNotificationGroup>(&[("group_key", &key)]);
    let r = cx
        .client
        .post(&dismiss, Some(&bob.token), Body::None)
        .await?;
    expect_error(&r, 404, "dismissing another account's group")?;
    let r = cx.client.get(&group_path, Some(&bob.token)).await?;
    expect_error(&r, 404, "reading another account's group")?;
    cx.client
        .post(&dismiss, Some(&alice.token), Body::None)
        .await?
        .expect(200)?;
    let r = cx.client.get(&group_path, Some(&alice.token)).await?;
    expect_error(&r, 404, "a dismissed group")?;
    ensure!(
        of_kind(cx, &alice, "favourite", &bob).await?.is_empty(),
        "dismissing the group dismissed its notifications"
    );
    Ok(())
}

async fn v2_partial_avatars(cx: &Cx) -> CheckResult {
    let (alice, bob, carol, ..) = favourited_world(cx).await?;
    let (body, _) = groups(
        cx,
        &alice,
        "?types[]=favourite&expand_accounts=partial_avatars",
    )
    .await?;
    let full: Vec<&str> = body["accounts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["id"].as_str())
        .collect();
    let partial: Vec<&str> = body["partial_accounts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["id"].as_str())
        .collect();
    ensure!(
        full == [carol.id.as_str()] && partial == [bob.id.as_str()],
        "the most recent account in full, the other partial: accounts {full:?}, partial {partial:?}"
    );
    Ok(())
}

async fn v2_unread_count(cx: &Cx) -> CheckResult {
    let (alice, ..) = favourited_world(cx).await?;
    let url = path::<UnreadGroupCount>(&[]);
    let r = cx.client.get(&url, Some(&alice.token)).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["count"] == 2,
        "two unread groups (favourites, mention): {}",
        r.text
    );
    let newest = ids_of(&Value::Array(list(cx, &alice, "").await?))[0].clone();
    cx.client
        .post(
            &path::<SaveMarkers>(&[]),
            Some(&alice.token),
            form(&[("notifications[last_read_id]", newest.as_str())]),
        )
        .await?
        .expect(200)?;
    let r = cx.client.get(&url, Some(&alice.token)).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["count"] == 0,
        "nothing unread after the marker: {}",
        r.text
    );
    Ok(())
}
