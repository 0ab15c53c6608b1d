//! Notification policies and requests (Mastodon 4.3+): the policy's defaults and changes, what
//! each condition filters or drops, the requests gathering filtered mentions per sender, and
//! accepting or dismissing them, one at a time or several.

use serde_json::Value;

use fedblog_core::api::accounts::follow_account::FollowAccount;
use fedblog_core::api::conversations::list_conversations::ListConversations;
use fedblog_core::api::notification_requests::{
    accept_notification_request::AcceptNotificationRequest,
    accept_notification_requests::AcceptNotificationRequests,
    dismiss_notification_request::DismissNotificationRequest,
    dismiss_notification_requests::DismissNotificationRequests,
    get_notification_policy::GetNotificationPolicy,
    get_notification_request::GetNotificationRequest,
    list_notification_requests::ListNotificationRequests,
    notification_requests_merged::NotificationRequestsMerged,
    update_notification_policy::UpdateNotificationPolicy,
};
use fedblog_core::api::notifications::unread_count::UnreadCount;
use fedblog_core::api::statuses::favourite_status::FavouriteStatus;

use crate::check;
use crate::client::{Body, form};
use crate::conformance::checks::notifications::{list as notifications, status_action};
use crate::conformance::checks::social::{act, token_with_scopes};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "notifications/policy/defaults",
            "GET /api/v2/notifications/policy answers Mastodon's defaults for a new account (accept, accept, accept, filter private mentions, filter limited accounts) with an empty summary",
            policy_defaults
        ),
        check!(
            "notifications/policy/update",
            "PATCH /api/v2/notifications/policy changes the values given (form or JSON; a blank value is not given), keeps the others and answers the policy; a value other than accept, filter or drop is a 422 and changes nothing",
            policy_update
        ),
        check!(
            "notifications/policy/filter-not-following",
            "with for_not_following=filter a mention from an account the caller does not follow is left out of the notifications and the unread count, listed with include_filtered=true, and gathered in a request naming the sender and the status; one from an account followed passes",
            filter_not_following
        ),
        check!(
            "notifications/policy/drop",
            "with for_not_following=drop a mention from an account the caller does not follow makes no notification at all, filtered or not, and no request",
            drop_not_following
        ),
        check!(
            "notifications/policy/not-followers-and-new-accounts",
            "for_not_followers=filter filters an account that does not follow the caller; for_new_accounts=filter filters a new account the caller does not follow, and not one it follows",
            not_followers_and_new
        ),
        check!(
            "notifications/policy/private-mentions",
            "by default a direct message from an account the caller does not follow is filtered (no notification, no conversation) while a public mention passes; a direct reply to the caller's own direct message passes",
            private_mentions
        ),
        check!(
            "notifications/policy/summary",
            "the policy's summary counts the pending requests and their filtered notifications",
            policy_summary
        ),
        check!(
            "notifications/requests/accept",
            "accepting a request answers {}, removes it, brings its notifications (and direct messages' conversations) back and lets the sender's later notifications through",
            accept
        ),
        check!(
            "notifications/requests/dismiss",
            "dismissing a request answers {}, removes it with its notifications, and the sender's next filtered mention makes a new request",
            dismiss
        ),
        check!(
            "notifications/requests/bulk",
            "POST /api/v1/notifications/requests/accept and /dismiss with id[] act on each of the caller's requests named and skip the ids of none",
            bulk
        ),
        check!(
            "notifications/requests/others-404",
            "another account's request, or an unknown id, is a 404 to read, accept or dismiss, and the request stays",
            others_404
        ),
        check!(
            "notifications/requests/pagination",
            "requests page newest first with limit and a Link next header leading to the older ones",
            pagination
        ),
        check!(
            "notifications/requests/merged",
            "GET /api/v1/notifications/requests/merged answers {\"merged\": true}",
            merged
        ),
        check!(
            "notifications/requests/auth",
            "the policy and request endpoints without a token are 401; with a token lacking read:notifications 403",
            auth
        ),
    ]
}

const POLICY_FIELDS: [&str; 5] = [
    "for_not_following",
    "for_not_followers",
    "for_new_accounts",
    "for_private_mentions",
    "for_limited_accounts",
];

/// The caller's policy.
async fn policy(cx: &Cx, who: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<GetNotificationPolicy>(&[]), Some(&who.token))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Sets the caller's policy fields; answers the policy.
async fn set_policy(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<Value, Failure> {
    let r = cx
        .client
        .patch(
            &path::<UpdateNotificationPolicy>(&[]),
            Some(&who.token),
            form(pairs),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The ids of the statuses of the caller's notifications (`include_filtered` or not).
async fn notified_statuses(cx: &Cx, who: &User, filtered: bool) -> Result<Vec<String>, Failure> {
    let query = if filtered {
        "?include_filtered=true"
    } else {
        ""
    };
    Ok(notifications(cx, who, query)
        .await?
        .iter()
        .filter_map(|n| n["status"]["id"].as_str().map(str::to_string))
        .collect())
}

/// The caller's requests (40).
async fn requests(cx: &Cx, who: &User) -> Result<Vec<Value>, Failure> {
    let r = cx
        .client
        .get(
            &format!("{}?limit=40", path::<ListNotificationRequests>(&[])),
            Some(&who.token),
        )
        .await?;
    r.expect(200)?;
    r.json()?
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("requests are not an array: {}", r.text)))
}

/// The caller's request from `from`, if any.
async fn request_from(cx: &Cx, who: &User, from: &User) -> Result<Option<Value>, Failure> {
    Ok(requests(cx, who)
        .await?
        .into_iter()
        .find(|r| r["account"]["id"] == from.id.as_str()))
}

/// Posts `text` mentioning `to` as `from` with this visibility (and reply); answers its id.
async fn mention(
    cx: &Cx,
    from: &User,
    to: &User,
    visibility: &str,
    reply_to: Option<&str>,
) -> Result<String, Failure> {
    let text = format!("@{} a word for you", to.username);
    let mut pairs = vec![("status", text.as_str()), ("visibility", visibility)];
    if let Some(r) = reply_to {
        pairs.push(("in_reply_to_id", r));
    }
    str_of(&cx.post_status(from, &pairs).await?, "id")
}

/// A recipient filtering mentions from accounts it does not follow, and a stranger whose
/// mention it filtered: (recipient, stranger, the mention, the request).
async fn filtered_world(cx: &Cx, prefix: &str) -> Result<(User, User, String, Value), Failure> {
    let alice = cx.new_user(&format!("{prefix}r")).await?;
    let bob = cx.new_user(&format!("{prefix}s")).await?;
    set_policy(cx, &alice, &[("for_not_following", "filter")]).await?;
    let id = mention(cx, &bob, &alice, "public", None).await?;
    let request = request_from(cx, &alice, &bob)
        .await?
        .ok_or("a filtered mention made no request")?;
    Ok((alice, bob, id, request))
}

/// POSTs to a request route (`:id` = `id`) as `who`; answers the response.
async fn on_request<E: fedblog_core::api::Endpoint>(
    cx: &Cx,
    who: &User,
    id: &str,
) -> Result<crate::client::Response, Failure> {
    Ok(cx
        .client
        .post(&path::<E>(&[("id", id)]), Some(&who.token), Body::None)
        .await?)
}

async fn policy_defaults(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("policydef").await?;
    let p = policy(cx, &alice).await?;
    let got: Vec<&str> = POLICY_FIELDS
        .iter()
        .map(|f| p[*f].as_str().unwrap_or("?"))
        .collect();
    ensure!(
        got == ["accept", "accept", "accept", "filter", "filter"],
        "the defaults are accept, accept, accept, filter, filter: {p}"
    );
    ensure!(
        p["summary"]["pending_requests_count"] == 0
            && p["summary"]["pending_notifications_count"] == 0,
        "a new account has nothing pending: {p}"
    );
    Ok(())
}

async fn policy_update(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("policyupd").await?;
    let p = set_policy(
        cx,
        &alice,
        &[
            ("for_not_following", "filter"),
            ("for_new_accounts", "drop"),
        ],
    )
    .await?;
    ensure!(
        p["for_not_following"] == "filter"
            && p["for_new_accounts"] == "drop"
            && p["for_not_followers"] == "accept"
            && p["for_private_mentions"] == "filter",
        "PATCH changes the values given and keeps the others: {p}"
    );
    let r = cx
        .client
        .patch(
            &path::<UpdateNotificationPolicy>(&[]),
            Some(&alice.token),
            Body::Json(serde_json::json!({"for_private_mentions": "accept"})),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["for_private_mentions"] == "accept",
        "a JSON body is read too: {}",
        r.text
    );
    for bad in ["maybe", "everyone"] {
        let r = cx
            .client
            .patch(
                &path::<UpdateNotificationPolicy>(&[]),
                Some(&alice.token),
                form(&[("for_not_followers", "filter"), ("for_not_following", bad)]),
            )
            .await?;
        expect_error(&r, 422, &format!("for_not_following={bad:?}"))?;
    }
    let now = policy(cx, &alice).await?;
    ensure!(
        now["for_not_following"] == "filter"
            && now["for_not_followers"] == "accept"
            && now["for_new_accounts"] == "drop"
            && now["for_private_mentions"] == "accept",
        "a refused PATCH changes nothing, not even its valid values: {now}"
    );
    let blank = set_policy(cx, &alice, &[("for_new_accounts", "")]).await?;
    ensure!(
        blank["for_new_accounts"] == "drop",
        "a blank value is not given, and keeps the value: {blank}"
    );
    Ok(())
}

async fn filter_not_following(cx: &Cx) -> CheckResult {
    let (alice, bob, id, request) = filtered_world(cx, "nfollow").await?;
    ensure!(
        !notified_statuses(cx, &alice, false).await?.contains(&id),
        "a filtered mention is left out of the notifications"
    );
    ensure!(
        notified_statuses(cx, &alice, true).await?.contains(&id),
        "include_filtered=true lists the filtered mention"
    );
    let r = cx
        .client
        .get(&path::<UnreadCount>(&[]), Some(&alice.token))
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["count"] == 0,
        "the unread count leaves filtered notifications out: {}",
        r.text
    );
    ensure!(
        request["notifications_count"] == "1"
            && request["last_status"]["id"] == id.as_str()
            && request["account"]["id"] == bob.id.as_str(),
        "the request names the sender, counts one notification (a string) and carries the status: {request}"
    );
    let rid = str_of(&request, "id")?;
    let r = cx
        .client
        .get(
            &path::<GetNotificationRequest>(&[("id", &rid)]),
            Some(&alice.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["id"] == rid.as_str(),
        "GET of the request answers it: {}",
        r.text
    );
    let carol = cx.new_user("nfollowf").await?;
    act::<FollowAccount>(cx, &alice, &carol, &[]).await?;
    let passed = mention(cx, &carol, &alice, "public", None).await?;
    ensure!(
        notified_statuses(cx, &alice, false)
            .await?
            .contains(&passed),
        "a mention from an account the caller follows passes"
    );
    ensure!(
        request_from(cx, &alice, &carol).await?.is_none(),
        "a mention that passes makes no request"
    );
    Ok(())
}

async fn drop_not_following(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("dropr").await?;
    let bob = cx.new_user("drops").await?;
    set_policy(cx, &alice, &[("for_not_following", "drop")]).await?;
    let id = mention(cx, &bob, &alice, "public", None).await?;
    ensure!(
        !notified_statuses(cx, &alice, true).await?.contains(&id),
        "a dropped mention is not even among the filtered notifications"
    );
    ensure!(
        requests(cx, &alice).await?.is_empty(),
        "a dropped mention makes no request"
    );
    Ok(())
}

async fn not_followers_and_new(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("nfwr").await?;
    let bob = cx.new_user("nfws").await?;
    set_policy(cx, &alice, &[("for_not_followers", "filter")]).await?;
    act::<FollowAccount>(cx, &alice, &bob, &[]).await?;
    let id = mention(cx, &bob, &alice, "public", None).await?;
    ensure!(
        !notified_statuses(cx, &alice, false).await?.contains(&id)
            && notified_statuses(cx, &alice, true).await?.contains(&id),
        "for_not_followers=filter filters a mention from an account that does not follow the caller, even one it follows"
    );
    let carol = cx.new_user("newr").await?;
    let dave = cx.new_user("news").await?;
    let erin = cx.new_user("newf").await?;
    set_policy(cx, &carol, &[("for_new_accounts", "filter")]).await?;
    act::<FollowAccount>(cx, &carol, &erin, &[]).await?;
    let from_new = mention(cx, &dave, &carol, "public", None).await?;
    let from_followed = mention(cx, &erin, &carol, "public", None).await?;
    let shown = notified_statuses(cx, &carol, false).await?;
    ensure!(
        !shown.contains(&from_new),
        "for_new_accounts=filter filters a mention from a new account the caller does not follow"
    );
    ensure!(
        shown.contains(&from_followed),
        "for_new_accounts=filter lets a new account the caller follows through"
    );
    Ok(())
}

/// The ids of the last statuses of the caller's conversations.
async fn conversation_statuses(cx: &Cx, who: &User) -> Result<Vec<String>, Failure> {
    let r = cx
        .client
        .get(
            &format!("{}?limit=40", path::<ListConversations>(&[])),
            Some(&who.token),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|c| c["last_status"]["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default())
}

async fn private_mentions(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("pmr").await?;
    let bob = cx.new_user("pms").await?;
    let dm = mention(cx, &bob, &alice, "direct", None).await?;
    let public = mention(cx, &bob, &alice, "public", None).await?;
    let shown = notified_statuses(cx, &alice, false).await?;
    ensure!(
        !shown.contains(&dm),
        "a direct message from an account the caller does not follow is filtered by default"
    );
    ensure!(
        shown.contains(&public),
        "a public mention from the same account passes"
    );
    ensure!(
        !conversation_statuses(cx, &alice).await?.contains(&dm),
        "a filtered direct message makes no conversation for the recipient"
    );
    let request = request_from(cx, &alice, &bob)
        .await?
        .ok_or("a filtered direct message made no request")?;
    ensure!(
        request["last_status"]["id"] == dm.as_str(),
        "the request carries the direct message: {request}"
    );
    let carol = cx.new_user("pmc").await?;
    let mine = mention(cx, &alice, &carol, "direct", None).await?;
    let answer = mention(cx, &carol, &alice, "direct", Some(&mine)).await?;
    ensure!(
        notified_statuses(cx, &alice, false)
            .await?
            .contains(&answer),
        "a direct reply to the caller's own direct message passes"
    );
    Ok(())
}

async fn policy_summary(cx: &Cx) -> CheckResult {
    let (alice, bob, ..) = filtered_world(cx, "summ").await?;
    mention(cx, &bob, &alice, "public", None).await?;
    let carol = cx.new_user("summc").await?;
    mention(cx, &carol, &alice, "public", None).await?;
    let p = policy(cx, &alice).await?;
    ensure!(
        p["summary"]["pending_requests_count"] == 2
            && p["summary"]["pending_notifications_count"] == 3,
        "two requests holding three notifications: {p}"
    );
    Ok(())
}

async fn accept(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("accr").await?;
    let bob = cx.new_user("accs").await?;
    let dm = mention(cx, &bob, &alice, "direct", None).await?;
    let request = request_from(cx, &alice, &bob)
        .await?
        .ok_or("a filtered direct message made no request")?;
    let rid = str_of(&request, "id")?;
    let r = on_request::<AcceptNotificationRequest>(cx, &alice, &rid).await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_object().is_some_and(|o| o.is_empty()),
        "accepting answers {{}}: {}",
        r.text
    );
    ensure!(
        requests(cx, &alice).await?.is_empty(),
        "an accepted request is gone"
    );
    let r = cx
        .client
        .get(
            &path::<GetNotificationRequest>(&[("id", &rid)]),
            Some(&alice.token),
        )
        .await?;
    expect_error(&r, 404, "GET of an accepted request")?;
    ensure!(
        notified_statuses(cx, &alice, false).await?.contains(&dm),
        "the accepted request's notification joins the others"
    );
    ensure!(
        conversation_statuses(cx, &alice).await?.contains(&dm),
        "the accepted direct message joins the conversations"
    );
    let later = mention(cx, &bob, &alice, "direct", None).await?;
    ensure!(
        notified_statuses(cx, &alice, false).await?.contains(&later),
        "the accepted sender's later direct messages pass"
    );
    ensure!(
        requests(cx, &alice).await?.is_empty(),
        "and make no new request"
    );
    Ok(())
}

async fn dismiss(cx: &Cx) -> CheckResult {
    let (alice, bob, id, request) = filtered_world(cx, "dism").await?;
    let status = cx.post_status(&alice, &[("status", "fave me")]).await?;
    status_action::<FavouriteStatus>(cx, &bob, &str_of(&status, "id")?).await?;
    let rid = str_of(&request, "id")?;
    let r = on_request::<DismissNotificationRequest>(cx, &alice, &rid).await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_object().is_some_and(|o| o.is_empty()),
        "dismissing answers {{}}: {}",
        r.text
    );
    ensure!(
        request_from(cx, &alice, &bob).await?.is_none(),
        "a dismissed request is gone"
    );
    let all = notifications(cx, &alice, "?include_filtered=true").await?;
    ensure!(
        !all.iter().any(|n| n["account"]["id"] == bob.id.as_str()),
        "dismissing removes the sender's filtered notifications: {all:?}"
    );
    let again = mention(cx, &bob, &alice, "public", None).await?;
    let new = request_from(cx, &alice, &bob)
        .await?
        .ok_or("the sender's next filtered mention made no new request")?;
    ensure!(
        new["last_status"]["id"] == again.as_str() && new["notifications_count"] == "1",
        "the new request holds the new mention only: {new}"
    );
    ensure!(id != again, "two mentions");
    Ok(())
}

async fn bulk(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("bulkr").await?;
    set_policy(cx, &alice, &[("for_not_following", "filter")]).await?;
    let mut senders = Vec::new();
    for i in 0..4 {
        let s = cx.new_user(&format!("bulks{i}")).await?;
        mention(cx, &s, &alice, "public", None).await?;
        senders.push(s);
    }
    let eve = cx.new_user("bulke").await?;
    let eves_sender = cx.new_user("bulkx").await?;
    set_policy(cx, &eve, &[("for_not_following", "filter")]).await?;
    mention(cx, &eves_sender, &eve, "public", None).await?;
    let eves = ids_of(&Value::Array(requests(cx, &eve).await?));
    let mut rids = Vec::new();
    for s in &senders {
        let r = request_from(cx, &alice, s)
            .await?
            .ok_or("a filtered mention made no request")?;
        rids.push(str_of(&r, "id")?);
    }
    let bulk_pairs = |ids: &[&str]| -> Vec<(String, String)> {
        ids.iter()
            .map(|id| ("id[]".to_string(), id.to_string()))
            .collect()
    };
    let r = cx
        .client
        .post(
            &path::<AcceptNotificationRequests>(&[]),
            Some(&alice.token),
            form(&bulk_pairs(&[&rids[0], &rids[1], &eves[0], "12345"])),
        )
        .await?;
    r.expect(200)?;
    let r = cx
        .client
        .post(
            &path::<DismissNotificationRequests>(&[]),
            Some(&alice.token),
            form(&bulk_pairs(&[&rids[2], &eves[0], "notanid"])),
        )
        .await?;
    r.expect(200)?;
    let left = ids_of(&Value::Array(requests(cx, &alice).await?));
    ensure!(
        left == vec![rids[3].clone()],
        "the requests named are accepted or dismissed, the others stay: {left:?}"
    );
    let shown: Vec<String> = notifications(cx, &alice, "")
        .await?
        .iter()
        .filter_map(|n| n["account"]["id"].as_str().map(str::to_string))
        .collect();
    ensure!(
        shown.contains(&senders[0].id)
            && shown.contains(&senders[1].id)
            && !shown.contains(&senders[2].id),
        "the accepted requests' notifications join the others, the dismissed one's do not: {shown:?}"
    );
    ensure!(
        ids_of(&Value::Array(requests(cx, &eve).await?)) == eves,
        "another account's request named in a bulk call stays"
    );
    Ok(())
}

async fn others_404(cx: &Cx) -> CheckResult {
    let (alice, _, _, request) = filtered_world(cx, "oth").await?;
    let eve = cx.new_user("othe").await?;
    let rid = str_of(&request, "id")?;
    let r = cx
        .client
        .get(
            &path::<GetNotificationRequest>(&[("id", &rid)]),
            Some(&eve.token),
        )
        .await?;
    expect_error(&r, 404, "GET of another account's request")?;
    let r = on_request::<AcceptNotificationRequest>(cx, &eve, &rid).await?;
    expect_error(&r, 404, "accepting another account's request")?;
    let r = on_request::<DismissNotificationRequest>(cx, &eve, &rid).await?;
    expect_error(&r, 404, "dismissing another account's request")?;
    for unknown in ["999999999999", "x"] {
        let r = on_request::<AcceptNotificationRequest>(cx, &alice, unknown).await?;
        expect_error(&r, 404, &format!("accepting request {unknown}"))?;
    }
    ensure!(
        ids_of(&Value::Array(requests(cx, &alice).await?)) == vec![rid],
        "the request stays"
    );
    Ok(())
}

async fn pagination(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("reqpage").await?;
    set_policy(cx, &alice, &[("for_not_following", "filter")]).await?;
    for i in 0..3 {
        let s = cx.new_user(&format!("reqpages{i}")).await?;
        mention(cx, &s, &alice, "public", None).await?;
    }
    let all = ids_of(&Value::Array(requests(cx, &alice).await?));
    ensure!(all.len() == 3, "three requests: {all:?}");
    let r = cx
        .client
        .get(
            &format!("{}?limit=2", path::<ListNotificationRequests>(&[])),
            Some(&alice.token),
        )
        .await?;
    r.expect(200)?;
    let first = ids_of(r.json()?);
    ensure!(
        first == all[..2],
        "limit=2 gives the two newest: {first:?} of {all:?}"
    );
    let next = r.link("next").ok_or("no Link next header")?;
    let r = cx.client.get(&next, Some(&alice.token)).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == all[2..],
        "the next page holds the oldest: {}",
        r.text
    );
    Ok(())
}

async fn merged(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("merged").await?;
    let r = cx
        .client
        .get(&path::<NotificationRequestsMerged>(&[]), Some(&alice.token))
        .await?;
    r.expect(200)?;
    ensure!(r.json()?["merged"] == true, "merged is true: {}", r.text);
    Ok(())
}

async fn auth(cx: &Cx) -> CheckResult {
    for url in [
        path::<GetNotificationPolicy>(&[]),
        path::<ListNotificationRequests>(&[]),
        path::<NotificationRequestsMerged>(&[]),
    ] {
        let r = cx.client.get(&url, None).await?;
        expect_error(&r, 401, &format!("GET {url} without a token"))?;
    }
    let r = cx
        .client
        .patch(
            &path::<UpdateNotificationPolicy>(&[]),
            None,
            form(&[("for_not_following", "filter")]),
        )
        .await?;
    expect_error(&r, 401, "PATCH policy without a token")?;
    let token = token_with_scopes(cx, "read:statuses write:statuses").await?;
    let r = cx
        .client
        .get(&path::<GetNotificationPolicy>(&[]), Some(&token))
        .await?;
    expect_error(&r, 403, "GET policy without read:notifications")?;
    Ok(())
}
