//! Conversations (direct-message threads as each account sees them) and the link timeline.

use fedblog_core::api::accounts::{
    block_account::BlockAccount, update_credentials::UpdateCredentials,
};
use fedblog_core::api::conversations::{
    delete_conversation::DeleteConversation, list_conversations::ListConversations,
    mark_conversation_unread::MarkConversationUnread, read_conversation::ReadConversation,
};
use fedblog_core::api::notification_requests::update_notification_policy::UpdateNotificationPolicy;
use fedblog_core::api::statuses::delete_status::DeleteStatus;
use fedblog_core::api::timelines::link_timeline::LinkTimeline;
use serde_json::Value;

use crate::check;
use crate::client::{Response, form, query};
use crate::conformance::checks::social::act;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "conversations/direct-message-both-sides",
            "a direct message is in its author's conversations (read) and the recipient's (unread), each naming the other participant and carrying the message as last_status",
            both_sides
        ),
        check!(
            "conversations/replies-stay-in-one",
            "a direct reply in the thread, with the same participants, stays in the same conversation, becomes its last_status and makes it unread for the one it reaches",
            replies
        ),
        check!(
            "conversations/read-and-unread",
            "POST read marks a conversation read and POST unread unread again, each answering the conversation",
            read_unread
        ),
        check!(
            "conversations/delete-for-one",
            "deleting a conversation removes it for the caller only; a new message in the thread brings it back",
            delete_for_one
        ),
        check!(
            "conversations/status-deletion",
            "deleting a conversation's last status moves last_status back; deleting its only status removes the conversation",
            status_deletion
        ),
        check!(
            "conversations/only-direct",
            "public, unlisted and private statuses that mention an account make no conversation",
            only_direct
        ),
        check!(
            "conversations/to-oneself",
            "a direct status mentioning nobody is a conversation naming its author",
            to_oneself
        ),
        check!(
            "conversations/blocked-sender",
            "a direct message from an account the recipient blocks makes no conversation for the recipient",
            blocked_sender
        ),
        check!(
            "conversations/others-404",
            "another account's conversation is a 404 to mark read, unread or delete",
            others_404
        ),
        check!(
            "conversations/pagination",
            "conversations page by their last status with a Link header",
            pagination
        ),
        check!(
            "conversations/no-token-401",
            "conversations without a token are a 401",
            no_token
        ),
        check!(
            "timelines/link/public-statuses",
            "GET /api/v1/timelines/link?url= lists the public statuses carrying the link by discoverable accounts, newest first, with a Link header, also without a token",
            link_public
        ),
        check!(
            "timelines/link/undiscoverable-left-out",
            "statuses of accounts that did not opt in to discovery stay out of the link timeline; a link only they carry is a 404",
            link_undiscoverable
        ),
        check!(
            "timelines/link/unknown-404-blank-422",
            "a link no public status carries is a 404, a blank url a 422",
            link_errors
        ),
    ]
}

/// The caller's conversations (40).
async fn list(cx: &Cx, who: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(
            &format!("{}?limit=40", path::<ListConversations>(&[])),
            Some(&who.token),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The caller's conversation whose last status is `status`, if any.
async fn conversation_with(cx: &Cx, who: &User, status: &str) -> Result<Option<Value>, Failure> {
    Ok(list(cx, who)
        .await?
        .as_array()
        .and_then(|a| a.iter().find(|c| c["last_status"]["id"] == status).cloned()))
}

/// A new account taking direct messages from anyone: Mastodon's default policy filters those
/// from accounts one does not follow (`notifications/policy/private-mentions` checks that).
async fn recipient(cx: &Cx, prefix: &str) -> Result<User, Failure> {
    let user = cx.new_user(prefix).await?;
    cx.client
        .patch(
            &path::<UpdateNotificationPolicy>(&[]),
            Some(&user.token),
            form(&[("for_private_mentions", "accept")]),
        )
        .await?
        .expect(200)?;
    Ok(user)
}

/// Posts a direct message as `from` to `to` (none: to nobody), optionally replying; returns its
/// id.
async fn dm(cx: &Cx, from: &User, to: &[&User], reply_to: Option<&str>) -> Result<String, Failure> {
    let mentions: String = to.iter().map(|u| format!("@{} ", u.username)).collect();
    let text = format!("{mentions}a private word");
    let mut pairs = vec![("status", text.as_str()), ("visibility", "direct")];
    if let Some(r) = reply_to {
        pairs.push(("in_reply_to_id", r));
    }
    str_of(&cx.post_status(from, &pairs).await?, "id")
}

fn account_ids(c: &Value) -> Vec<String> {
    ids_of(&c["accounts"])
}

async fn both_sides(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convboth").await?;
    let bob = recipient(cx, "convbothb").await?;
    let id = dm(cx, &alice, &[&bob], None).await?;
    let mine = conversation_with(cx, &alice, &id)
        .await?
        .ok_or("the message is not in its author's conversations")?;
    let theirs = conversation_with(cx, &bob, &id)
        .await?
        .ok_or("the message is not in the recipient's conversations")?;
    ensure!(
        mine["unread"] == false && account_ids(&mine) == vec![bob.id.clone()],
        "the author's conversation is read and names the recipient: {mine}"
    );
    ensure!(
        theirs["unread"] == true && account_ids(&theirs) == vec![alice.id.clone()],
        "the recipient's conversation is unread and names the author: {theirs}"
    );
    ensure!(
        mine["id"] != theirs["id"],
        "each account has a conversation of its own"
    );
    Ok(())
}

async fn replies(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convrep").await?;
    let bob = recipient(cx, "convrepb").await?;
    let first = dm(cx, &alice, &[&bob], None).await?;
    let before = conversation_with(cx, &alice, &first)
        .await?
        .ok_or("no conversation")?;
    let reply = dm(cx, &bob, &[&alice], Some(&first)).await?;
    let after = list(cx, &alice).await?;
    ensure!(
        after.as_array().map(Vec::len) == Some(1)
            && after[0]["id"] == before["id"]
            && after[0]["last_status"]["id"] == reply.as_str()
            && after[0]["unread"] == true,
        "the reply must stay in the conversation as its unread last status: {after}"
    );
    Ok(())
}

/// Posts to a conversation route and answers the response.
async fn post(cx: &Cx, url: &str, who: &User) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(url, Some(&who.token), form::<&str, &str>(&[]))
        .await?)
}

async fn read_unread(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convread").await?;
    let bob = recipient(cx, "convreadb").await?;
    let id = dm(cx, &alice, &[&bob], None).await?;
    let c = conversation_with(cx, &bob, &id)
        .await?
        .ok_or("no conversation")?;
    let cid = str_of(&c, "id")?;
    let r = post(cx, &path::<ReadConversation>(&[("id", &cid)]), &bob).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["unread"] == false && r.json()?["id"] == cid.as_str(),
        "read answers the conversation, read: {}",
        r.text
    );
    let r = post(cx, &path::<MarkConversationUnread>(&[("id", &cid)]), &bob).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["unread"] == true,
        "unread answers it unread: {}",
        r.text
    );
    let c = conversation_with(cx, &bob, &id).await?.ok_or("gone")?;
    ensure!(c["unread"] == true, "the list shows it unread: {c}");
    Ok(())
}

async fn delete_for_one(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convdel").await?;
    let bob = recipient(cx, "convdelb").await?;
    let id = dm(cx, &alice, &[&bob], None).await?;
    let c = conversation_with(cx, &alice, &id)
        .await?
        .ok_or("no conversation")?;
    let r = cx
        .client
        .delete(
            &path::<DeleteConversation>(&[("id", &str_of(&c, "id")?)]),
            Some(&alice.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        list(cx, &alice)
            .await?
            .as_array()
            .is_some_and(Vec::is_empty),
        "a deleted conversation must be gone from the caller's list"
    );
    ensure!(
        conversation_with(cx, &bob, &id).await?.is_some(),
        "the other participant keeps the conversation"
    );
    let next = dm(cx, &bob, &[&alice], Some(&id)).await?;
    ensure!(
        conversation_with(cx, &alice, &next).await?.is_some(),
        "a new message in the thread brings the conversation back"
    );
    Ok(())
}

async fn status_deletion(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convsd").await?;
    let bob = recipient(cx, "convsdb").await?;
    let first = dm(cx, &alice, &[&bob], None).await?;
    let second = dm(cx, &alice, &[&bob], Some(&first)).await?;
    cx.client
        .delete(
            &path::<DeleteStatus>(&[("id", &second)]),
            Some(&alice.token),
        )
        .await?
        .expect(200)?;
    ensure!(
        conversation_with(cx, &bob, &first).await?.is_some(),
        "deleting the last status moves last_status back to the one before"
    );
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &first)]), Some(&alice.token))
        .await?
        .expect(200)?;
    for who in [&alice, &bob] {
        ensure!(
            list(cx, who).await?.as_array().is_some_and(Vec::is_empty),
            "a conversation left without a status is removed"
        );
    }
    Ok(())
}

async fn only_direct(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convonly").await?;
    let bob = recipient(cx, "convonlyb").await?;
    for vis in ["public", "unlisted", "private"] {
        let text = format!("@{} hello", bob.username);
        cx.post_status(&alice, &[("status", text.as_str()), ("visibility", vis)])
            .await?;
    }
    for who in [&alice, &bob] {
        ensure!(
            list(cx, who).await?.as_array().is_some_and(Vec::is_empty),
            "statuses that are not direct make no conversation"
        );
    }
    Ok(())
}

async fn to_oneself(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convself").await?;
    let id = dm(cx, &alice, &[], None).await?;
    let c = conversation_with(cx, &alice, &id)
        .await?
        .ok_or("no conversation")?;
    ensure!(
        account_ids(&c) == vec![alice.id.clone()],
        "a conversation with oneself names its author: {c}"
    );
    Ok(())
}

async fn blocked_sender(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convblk").await?;
    let bob = recipient(cx, "convblkb").await?;
    act::<BlockAccount>(cx, &bob, &alice, &[]).await?;
    let id = dm(cx, &alice, &[&bob], None).await?;
    ensure!(
        conversation_with(cx, &bob, &id).await?.is_none(),
        "a message from a blocked account must make no conversation for the recipient"
    );
    ensure!(
        conversation_with(cx, &alice, &id).await?.is_some(),
        "the sender still has its conversation"
    );
    Ok(())
}

async fn others_404(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convown").await?;
    let bob = recipient(cx, "convownb").await?;
    let eve = cx.new_user("convowne").await?;
    let id = dm(cx, &alice, &[&bob], None).await?;
    let c = conversation_with(cx, &alice, &id)
        .await?
        .ok_or("no conversation")?;
    let cid = str_of(&c, "id")?;
    let read = post(cx, &path::<ReadConversation>(&[("id", &cid)]), &eve).await?;
    expect_error(&read, 404, "marking another account's conversation read")?;
    let unread = post(cx, &path::<MarkConversationUnread>(&[("id", &cid)]), &bob).await?;
    expect_error(
        &unread,
        404,
        "marking another account's conversation unread",
    )?;
    let del = cx
        .client
        .delete(
            &path::<DeleteConversation>(&[("id", &cid)]),
            Some(&eve.token),
        )
        .await?;
    expect_error(&del, 404, "deleting another account's conversation")?;
    ensure!(
        conversation_with(cx, &alice, &id).await? == Some(c),
        "the owner's conversation must be untouched"
    );
    Ok(())
}

async fn pagination(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("convpage").await?;
    let mut sent = Vec::new();
    for n in 0..3 {
        let to = cx.new_user(&format!("convpage{n}")).await?;
        sent.push(dm(cx, &alice, &[&to], None).await?);
    }
    let url = format!("{}?limit=2", path::<ListConversations>(&[]));
    let r = cx.client.get(&url, Some(&alice.token)).await?;
    r.expect(200)?;
    let first: Vec<String> = r
        .json()?
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|c| c["last_status"]["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    ensure!(
        first == vec![sent[2].clone(), sent[1].clone()],
        "the first page holds the newest conversations: {first:?}"
    );
    let next = r.link("next").ok_or("no Link next on a full page")?;
    let r = cx.client.get(&next, Some(&alice.token)).await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_array().map(Vec::len) == Some(1)
            && r.json()?[0]["last_status"]["id"] == sent[0].as_str(),
        "the next page holds the oldest: {}",
        r.text
    );
    Ok(())
}

async fn no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ListConversations>(&[]), None).await?;
    expect_error(&r, 401, "conversations without a token")
}

/// Makes `who` discoverable.
async fn discoverable(cx: &Cx, who: &User) -> CheckResult {
    cx.send(
        "PATCH",
        &path::<UpdateCredentials>(&[]),
        Some(&who.token),
        form(&[("discoverable", "true")]),
    )
    .await?
    .expect(200)?;
    Ok(())
}

fn link_url(link: &str, limit: &str) -> String {
    format!(
        "{}?{}",
        path::<LinkTimeline>(&[]),
        query(&[("url", link), ("limit", limit)])
    )
}

async fn link_public(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("linkpub").await?;
    discoverable(cx, &alice).await?;
    let link = format!("https://{}.example/article", cx.unique("news"));
    let text = format!("worth reading: {link}");
    let mut public = Vec::new();
    for _ in 0..3 {
        public.push(str_of(
            &cx.post_status(&alice, &[("status", &text)]).await?,
            "id",
        )?);
    }
    cx.post_status(&alice, &[("status", &text), ("visibility", "unlisted")])
        .await?;
    let r = cx.client.get(&link_url(&link, "2"), None).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![public[2].clone(), public[1].clone()],
        "the first page holds the newest public statuses carrying the link: {}",
        r.text
    );
    let next = r.link("next").ok_or("no Link next on a full page")?;
    let r = cx.client.get(&next, Some(&alice.token)).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![public[0].clone()],
        "the next page holds the oldest, and no unlisted status: {}",
        r.text
    );
    Ok(())
}

async fn link_undiscoverable(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("linkdisc").await?;
    let quiet = cx.new_user("linkquiet").await?;
    discoverable(cx, &alice).await?;
    let link = format!("https://{}.example/post", cx.unique("blog"));
    let text = format!("see {link}");
    let shown = str_of(&cx.post_status(&alice, &[("status", &text)]).await?, "id")?;
    cx.post_status(&quiet, &[("status", &text)]).await?;
    let r = cx.client.get(&link_url(&link, "40"), None).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![shown],
        "only the discoverable account's status is listed: {}",
        r.text
    );
    let only_quiet = format!("https://{}.example/quiet", cx.unique("blog"));
    cx.post_status(&quiet, &[("status", &format!("see {only_quiet}"))])
        .await?;
    let r = cx.client.get(&link_url(&only_quiet, "40"), None).await?;
    expect_error(&r, 404, "a link only an undiscoverable account carries")
}

async fn link_errors(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(&link_url("https://never.example/nothing", "40"), None)
        .await?;
    expect_error(&r, 404, "a link no status carries")?;
    let r = cx.client.get(&link_url(" ", "40"), None).await?;
    expect_error(&r, 422, "a blank url")
}
