//! Quote posts (Mastodon 4.5): quoting a status when posting (`quoted_status_id`,
//! `quote_approval_policy`), the `quote` and `quote_approval` of statuses, the list of a
//! status's quotes, revoking a quote and changing a status's quote approval policy, with the
//! refusals Mastodon answers (404 for a status one may not quote, 403 for another's status,
//! 422 for an unknown policy).

use serde_json::Value;

use fedblog_core::api::statuses::{
    create_status::CreateStatus, get_status::GetStatus, list_quotes::ListQuotes,
    revoke_quote::RevokeQuote, update_interaction_policy::UpdateInteractionPolicy,
};

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "quotes/create/accepted-public",
            "quoting a public status answers the new status with quote.state `accepted` and the quoted status under quote.quoted_status (whose own quote is shallow); the quoted status counts the quote and shows quote_approval automatic [public]",
            create_accepted
        ),
        check!(
            "quotes/create/policy-nobody-refused",
            "a status posted with quote_approval_policy=nobody cannot be quoted by another account (404 with an error), shows current_user `denied` to it, and can still be quoted by its author",
            policy_nobody
        ),
        check!(
            "quotes/create/private-stranger-refused",
            "a followers-only status cannot be quoted by an account that does not follow its author (404), and its quote_approval allows nobody",
            private_stranger
        ),
        check!(
            "quotes/create/unknown-policy-422",
            "posting with a quote_approval_policy other than public, followers or nobody is a 422",
            unknown_policy
        ),
        check!(
            "quotes/list/owner-paged",
            "GET /api/v1/statuses/:id/quotes lists the statuses quoting the caller's own status, newest first, with a Link next page; another account gets a 403",
            list_owner_paged
        ),
        check!(
            "quotes/revoke/state-revoked",
            "the quoted author revoking a quote answers the quoting status with quote.state `revoked` and no quoted status, and the quote leaves the list; the quoting author may not revoke (403)",
            revoke_quote
        ),
        check!(
            "quotes/notification/quote",
            "quoting another account's status gives its author a `quote` notification from the quoting account carrying the quoting status (types[]=quote finds it, exclude_types[]=quote leaves it out); a self-quote tells nobody",
            quote_notification
        ),
        check!(
            "quotes/interaction-policy/update",
            "PUT /api/v1/statuses/:id/interaction_policy sets quote_approval (followers: automatic [followers], non-followers then refused); an unknown policy is a 422 and another account's status a 403",
            update_policy
        ),
    ]
}

/// Posts a status as `who` with these form fields, answering the response as it came.
async fn post(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(&path::<CreateStatus>(&[]), Some(&who.token), form(pairs))
        .await?)
}

/// Posts a status that must succeed and answers its JSON.
async fn posted(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<Value, Failure> {
    let r = post(cx, who, pairs).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The `id` of an entity.
fn id_of(v: &Value) -> Result<String, Failure> {
    v["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| Failure::Fail(format!("entity without an id: {v}")))
}

/// A status as `who` sees it.
async fn seen(cx: &Cx, who: &User, id: &str) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<GetStatus>(&[("id", id)]), Some(&who.token))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

async fn create_accepted(cx: &Cx) -> CheckResult {
    let (alice, bob) = (cx.new_user("quoted").await?, cx.new_user("quoter").await?);
    let original = posted(cx, &alice, &[("status", "quote me")]).await?;
    let oid = id_of(&original)?;
    ensure!(
        original["quote"].is_null(),
        "a status quoting nothing has quote {}",
        original["quote"]
    );
    let q = posted(
        cx,
        &bob,
        &[("status", "look at this"), ("quoted_status_id", &oid)],
    )
    .await?;
    ensure!(
        q["quote"]["state"] == "accepted" && q["quote"]["quoted_status"]["id"] == oid.as_str(),
        "the quoting status has quote {}",
        q["quote"]
    );
    ensure!(
        q["quote"]["quoted_status"]["quote"].is_null(),
        "the quoted status (which quotes nothing) has quote {}",
        q["quote"]["quoted_status"]["quote"]
    );
    let again = seen(cx, &alice, &oid).await?;
    ensure!(
        again["quotes_count"] == 1,
        "the quoted status has quotes_count {}",
        again["quotes_count"]
    );
    ensure!(
        again["quote_approval"]["automatic"] == serde_json::json!(["public"])
            && again["quote_approval"]["manual"] == serde_json::json!([])
            && again["quote_approval"]["current_user"] == "automatic",
        "the quoted status has quote_approval {}",
        again["quote_approval"]
    );
    let by_bob = seen(cx, &bob, &oid).await?;
    ensure!(
        by_bob["quote_approval"]["current_user"] == "automatic",
        "another account sees quote_approval {}",
        by_bob["quote_approval"]
    );
    // A quote of a quote shows the inner quote shallow.
    let qid = id_of(&q)?;
    let qq = posted(
        cx,
        &alice,
        &[("status", "and this"), ("quoted_status_id", &qid)],
    )
    .await?;
    ensure!(
        qq["quote"]["quoted_status"]["quote"]["state"] == "accepted"
            && qq["quote"]["quoted_status"]["quote"]["quoted_status_id"] == oid.as_str(),
        "a quote of a quote shows the inner quote as {}",
        qq["quote"]["quoted_status"]["quote"]
    );
    Ok(())
}

async fn policy_nobody(cx: &Cx) -> CheckResult {
    let (alice, bob) = (cx.new_user("quoted").await?, cx.new_user("quoter").await?);
    let original = posted(
        cx,
        &alice,
        &[("status", "mine only"), ("quote_approval_policy", "nobody")],
    )
    .await?;
    let oid = id_of(&original)?;
    ensure!(
        original["quote_approval"]["automatic"] == serde_json::json!([])
            && original["quote_approval"]["current_user"] == "automatic",
        "the author sees quote_approval {}",
        original["quote_approval"]
    );
    let r = post(cx, &bob, &[("status", "nope"), ("quoted_status_id", &oid)]).await?;
    expect_error(&r, 404, "quoting a status whose policy is nobody")?;
    let by_bob = seen(cx, &bob, &oid).await?;
    ensure!(
        by_bob["quote_approval"]["current_user"] == "denied",
        "another account sees quote_approval {}",
        by_bob["quote_approval"]
    );
    let own = posted(
        cx,
        &alice,
        &[("status", "self"), ("quoted_status_id", &oid)],
    )
    .await?;
    ensure!(
        own["quote"]["state"] == "accepted",
        "the author quoting their own status got quote {}",
        own["quote"]
    );
    Ok(())
}

async fn private_stranger(cx: &Cx) -> CheckResult {
    let (alice, carol) = (cx.new_user("quoted").await?, cx.new_user("stranger").await?);
    let original = posted(
        cx,
        &alice,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    let oid = id_of(&original)?;
    ensure!(
        original["quote_approval"]["automatic"] == serde_json::json!([]),
        "a followers-only status has quote_approval {}",
        original["quote_approval"]
    );
    let r = post(
        cx,
        &carol,
        &[("status", "nope"), ("quoted_status_id", &oid)],
    )
    .await?;
    expect_error(&r, 404, "quoting a followers-only status of a stranger")
}

async fn unknown_policy(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("quoted").await?;
    let r = post(
        cx,
        &alice,
        &[("status", "hi"), ("quote_approval_policy", "everyone")],
    )
    .await?;
    expect_error(&r, 422, "posting with quote_approval_policy=everyone")
}

async fn list_owner_paged(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("quoted").await?;
    let (bob, carol) = (cx.new_user("quoter").await?, cx.new_user("quoter").await?);
    let oid = id_of(&posted(cx, &alice, &[("status", "popular")]).await?)?;
    let b = id_of(&posted(cx, &bob, &[("status", "b"), ("quoted_status_id", &oid)]).await?)?;
    let c = id_of(&posted(cx, &carol, &[("status", "c"), ("quoted_status_id", &oid)]).await?)?;
    let url = path::<ListQuotes>(&[("id", &oid)]);
    let r = cx.client.get(&url, Some(&alice.token)).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![c.clone(), b.clone()],
        "the quotes list answered {}",
        r.text
    );
    let first = cx
        .client
        .get(&format!("{url}?limit=1"), Some(&alice.token))
        .await?;
    first.expect(200)?;
    ensure!(
        ids_of(first.json()?) == vec![c.clone()],
        "limit=1 answered {}",
        first.text
    );
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail(format!("no next link: {:?}", first.header("link"))))?;
    let second = cx.client.get(&next, Some(&alice.token)).await?;
    second.expect(200)?;
    ensure!(
        ids_of(second.json()?) == vec![b.clone()],
        "the next page answered {}",
        second.text
    );
    let r = cx.client.get(&url, Some(&bob.token)).await?;
    expect_error(&r, 403, "listing the quotes of another account's status")
}

async fn revoke_quote(cx: &Cx) -> CheckResult {
    let (alice, bob) = (cx.new_user("quoted").await?, cx.new_user("quoter").await?);
    let oid = id_of(&posted(cx, &alice, &[("status", "quote me")]).await?)?;
    let qid = id_of(&posted(cx, &bob, &[("status", "q"), ("quoted_status_id", &oid)]).await?)?;
    let url = path::<RevokeQuote>(&[("id", &oid), ("quoting_status_id", &qid)]);
    let r = cx.client.post(&url, Some(&bob.token), Body::None).await?;
    expect_error(&r, 403, "the quoting author revoking")?;
    let r = cx.client.post(&url, Some(&alice.token), Body::None).await?;
    r.expect(200)?;
    let s = r.json()?;
    ensure!(
        s["id"] == qid.as_str()
            && s["quote"]["state"] == "revoked"
            && s["quote"]["quoted_status"].is_null(),
        "revoking answered {s}"
    );
    let after = seen(cx, &bob, &qid).await?;
    ensure!(
        after["quote"]["state"] == "revoked",
        "the quoting status then has quote {}",
        after["quote"]
    );
    let list = cx
        .client
        .get(&path::<ListQuotes>(&[("id", &oid)]), Some(&alice.token))
        .await?;
    list.expect(200)?;
    ensure!(
        ids_of(list.json()?).is_empty(),
        "a revoked quote is still listed: {}",
        list.text
    );
    let original = seen(cx, &alice, &oid).await?;
    ensure!(
        original["quotes_count"] == 0,
        "a revoked quote still counts: {}",
        original["quotes_count"]
    );
    Ok(())
}

async fn update_policy(cx: &Cx) -> CheckResult {
    let (alice, bob) = (cx.new_user("quoted").await?, cx.new_user("quoter").await?);
    let oid = id_of(&posted(cx, &alice, &[("status", "who may quote")]).await?)?;
    let url = path::<UpdateInteractionPolicy>(&[("id", &oid)]);
    let put = |token: String, policy: &'static str| {
        let url = url.clone();
        async move {
            cx.client
                .send(
                    "PUT",
                    &url,
                    Some(&token),
                    Body::Form(vec![("quote_approval_policy".into(), policy.into())]),
                    &[],
                )
                .await
        }
    };
    let r = put(alice.token.clone(), "followers").await?;
    r.expect(200)?;
    let s = r.json()?;
    ensure!(
        s["id"] == oid.as_str()
            && s["quote_approval"]["automatic"] == serde_json::json!(["followers"]),
        "setting followers answered {s}"
    );
    let r = post(cx, &bob, &[("status", "nope"), ("quoted_status_id", &oid)]).await?;
    expect_error(
        &r,
        404,
        "a non-follower quoting a followers-quotable status",
    )?;
    let r = put(alice.token.clone(), "everyone").await?;
    expect_error(&r, 422, "an unknown quote approval policy")?;
    let r = put(bob.token.clone(), "public").await?;
    expect_error(&r, 403, "setting the policy of another account's status")?;
    let r = put(alice.token.clone(), "public").await?;
    r.expect(200)?;
    let ok = posted(
        cx,
        &bob,
        &[("status", "now yes"), ("quoted_status_id", &oid)],
    )
    .await?;
    ensure!(
        ok["quote"]["state"] == "accepted",
        "quoting after the policy became public got {}",
        ok["quote"]
    );
    Ok(())
}

async fn quote_notification(cx: &Cx) -> CheckResult {
    let (alice, bob) = (cx.new_user("quoted").await?, cx.new_user("quoter").await?);
    let original = posted(cx, &alice, &[("status", "quote me, tell me")]).await?;
    let oid = id_of(&original)?;
    let own = posted(
        cx,
        &alice,
        &[("status", "me again"), ("quoted_status_id", &oid)],
    )
    .await?;
    ensure!(
        own["quote"]["state"] == "accepted",
        "a self-quote has quote {}",
        own["quote"]
    );
    let q = posted(
        cx,
        &bob,
        &[("status", "look at this"), ("quoted_status_id", &oid)],
    )
    .await?;
    let qid = id_of(&q)?;
    let quotes = super::notifications::list(cx, &alice, "?types[]=quote").await?;
    ensure!(
        quotes.len() == 1,
        "types[]=quote lists {} notifications (one expected: a self-quote tells nobody): {quotes:?}",
        quotes.len()
    );
    let n = &quotes[0];
    ensure!(
        n["type"] == "quote",
        "the notification has type {}",
        n["type"]
    );
    ensure!(
        n["account"]["id"] == bob.id.as_str(),
        "the quote notification's account is {}, not the quoting account {}",
        n["account"]["id"],
        bob.id
    );
    ensure!(
        n["status"]["id"] == qid.as_str(),
        "the quote notification carries status {}, not the quoting status {qid}",
        n["status"]["id"]
    );
    ensure!(
        n["status"]["quote"]["quoted_status"]["id"] == oid.as_str(),
        "the quoting status in the notification quotes {}",
        n["status"]["quote"]["quoted_status"]["id"]
    );
    let others = super::notifications::list(cx, &alice, "?exclude_types[]=quote").await?;
    ensure!(
        others.iter().all(|n| n["type"] != "quote"),
        "exclude_types[]=quote still lists a quote: {others:?}"
    );
    let told_bob = super::notifications::list(cx, &bob, "").await?;
    ensure!(
        told_bob.is_empty(),
        "the quoting account is told {told_bob:?}"
    );
    Ok(())
}
