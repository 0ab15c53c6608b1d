//! Private notes, endorsements (featured accounts), familiar followers and following by address
//! (`POST /api/v1/follows`); also the small helpers the social-graph check files share.

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    endorse_account::EndorseAccount, familiar_followers::GetFamiliarFollowers,
    follow_account::FollowAccount, get_account_endorsements::GetAccountEndorsements,
    mute_account::MuteAccount, pin_account::PinAccount, remove_from_followers::RemoveFromFollowers,
    set_account_note::SetAccountNote, unendorse_account::UnendorseAccount,
    unfollow_account::UnfollowAccount, unpin_account::UnpinAccount,
    update_credentials::UpdateCredentials,
};
use fedblog_core::api::endorsements::list_endorsements::ListEndorsements;
use fedblog_core::api::follows::follow_by_uri::FollowByUri;
use fedblog_core::api::instance::instance_v2::InstanceV2;
use serde_json::Value;

use crate::check;
use crate::client::{Body, form};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        // Private notes
        check!(
            "accounts/note/set-and-shown",
            "a private note set with POST /accounts/:id/note is the answer's `note` and stays in later relationships",
            note_set
        ),
        check!(
            "accounts/note/private",
            "a private note is shown only to its writer: the noted account's relationship has no note",
            note_private
        ),
        check!(
            "accounts/note/cleared",
            "an empty `comment`, or none, removes the note",
            note_cleared
        ),
        check!(
            "accounts/note-too-long-422",
            "a note of 2001 characters is a 422 that keeps the old note; 2000 characters are accepted",
            note_too_long
        ),
        check!(
            "accounts/note/unknown-404",
            "a note on an unknown account is a 404",
            note_unknown
        ),
        check!(
            "accounts/note/no-token-401",
            "setting a note without a token is a 401",
            note_no_token
        ),
        check!(
            "accounts/note/scope-403",
            "setting a note with a token lacking write:accounts is a 403",
            note_scope
        ),
        // Endorsements
        check!(
            "accounts/endorse/relationship",
            "endorsing a followed account answers endorsed: true; endorsing again is no error",
            endorse_relationship
        ),
        check!(
            "accounts/pin/deprecated-alias",
            "the deprecated /pin and /unpin still endorse and unendorse, for clients older than 4.4",
            pin_alias
        ),
        check!(
            "accounts/endorse/requires-follow-422",
            "endorsing an account one does not follow is a 422",
            endorse_requires_follow
        ),
        check!(
            "accounts/unendorse/relationship",
            "unendorsing answers endorsed: false; unendorsing again is no error",
            unendorse
        ),
        check!(
            "accounts/endorse/ends-with-unfollow",
            "unfollowing an endorsed account ends the endorsement",
            endorse_ends_with_unfollow
        ),
        check!(
            "accounts/endorse/ends-with-remove-from-followers",
            "when the endorsed account removes the endorser from its followers the endorsement ends",
            endorse_ends_with_removal
        ),
        check!(
            "accounts/endorse/unknown-404",
            "endorsing an unknown account is a 404",
            endorse_unknown
        ),
        check!(
            "accounts/endorse/no-token-401",
            "endorsing without a token is a 401",
            endorse_no_token
        ),
        check!(
            "accounts/endorse/scope-403",
            "endorsing with a token lacking write:accounts is a 403",
            endorse_scope
        ),
        check!(
            "accounts/endorsements/public-paginated",
            "an account's endorsements are public, newest first, paginated through the Link header to the end",
            endorsements_paginated
        ),
        check!(
            "accounts/endorsements/unknown-404",
            "the endorsements of an unknown account are a 404",
            endorsements_unknown
        ),
        check!(
            "endorsements/list-own",
            "GET /api/v1/endorsements lists the caller's endorsements",
            endorsements_own
        ),
        check!(
            "endorsements/no-token-401",
            "GET /api/v1/endorsements without a token is a 401",
            endorsements_no_token
        ),
        // Familiar followers
        check!(
            "accounts/familiar-followers/followed-followers",
            "familiar_followers answers, per account asked and in that order, the accounts the caller follows that follow it",
            familiar_followers
        ),
        check!(
            "accounts/familiar-followers/muted-hidden",
            "familiar_followers leaves out accounts the caller mutes (blocks end follows, so blocked accounts never appear)",
            familiar_hidden
        ),
        check!(
            "accounts/familiar-followers/no-token-401",
            "familiar_followers without a token is a 401",
            familiar_no_token
        ),
        check!(
            "accounts/familiar-followers/scope-403",
            "familiar_followers with a token lacking read:follows is a 403",
            familiar_scope
        ),
        // Following by address
        check!(
            "follows/by-username",
            "POST /api/v1/follows with a local username follows the account and answers it",
            follows_by_username
        ),
        check!(
            "follows/by-address-with-own-domain",
            "POST /api/v1/follows accepts `@user@domain` with this server's own domain for a local account",
            follows_by_address
        ),
        check!(
            "follows/already-following-no-error",
            "POST /api/v1/follows for an account already followed succeeds without error",
            follows_twice
        ),
        check!(
            "follows/locked-makes-request",
            "POST /api/v1/follows for a locked account makes a follow request",
            follows_locked
        ),
        check!(
            "follows/unknown-404",
            "POST /api/v1/follows for an unknown account is a 404",
            follows_unknown
        ),
        check!(
            "follows/blank-422",
            "POST /api/v1/follows without a `uri` is a 422",
            follows_blank
        ),
        check!(
            "follows/no-token-401",
            "POST /api/v1/follows without a token is a 401",
            follows_no_token
        ),
        check!(
            "follows/scope-403",
            "POST /api/v1/follows with a token lacking write:follows is a 403",
            follows_scope
        ),
    ]
}

/// An app-only token (client_credentials) with exactly these scopes: scope checks come first,
/// so a user method called with it and lacking the scope answers 403.
pub(crate) async fn token_with_scopes(cx: &Cx, scopes: &str) -> Result<String, Failure> {
    super::oauth::scoped_user_token(cx, scopes).await
}

/// POSTs to an account action (`:id` = `target`) and answers the JSON of a 200.
pub(crate) async fn act<E: Endpoint>(
    cx: &Cx,
    who: &User,
    target: &User,
    pairs: &[(&str, &str)],
) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(
            &path::<E>(&[("id", &target.id)]),
            Some(&who.token),
            form(pairs),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// This server's domain, from `GET /api/v2/instance`.
pub(crate) async fn own_domain(cx: &Cx) -> Result<String, Failure> {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    str_of(r.json()?, "domain")
}

/// Sets profile options of a user (e.g. `discoverable`, `locked`).
pub(crate) async fn set_profile(cx: &Cx, user: &User, pairs: &[(&str, &str)]) -> CheckResult {
    cx.client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&user.token),
            form(pairs),
        )
        .await?
        .expect(200)?;
    Ok(())
}

async fn note(cx: &Cx, who: &User, target: &User, comment: &str) -> Result<Value, Failure> {
    act::<SetAccountNote>(cx, who, target, &[("comment", comment)]).await
}

async fn note_set(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("noter").await?, cx.new_user("noted").await?);
    let rel = note(cx, &a, &b, "met at the conference").await?;
    ensure!(
        rel["id"] == b.id.as_str() && rel["note"] == "met at the conference",
        "the note answered {rel}"
    );
    let later = cx.relationship(&a, &b).await?;
    ensure!(
        later["note"] == "met at the conference",
        "relationships show note {}",
        later["note"]
    );
    Ok(())
}

async fn note_private(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("noter").await?, cx.new_user("noted").await?);
    note(cx, &a, &b, "secret").await?;
    let theirs = cx.relationship(&b, &a).await?;
    ensure!(
        theirs["note"].as_str().unwrap_or("").is_empty(),
        "the noted account sees the note: {theirs}"
    );
    Ok(())
}

async fn note_cleared(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("noter").await?, cx.new_user("noted").await?);
    note(cx, &a, &b, "first").await?;
    let rel = note(cx, &a, &b, "").await?;
    ensure!(rel["note"] == "", "an empty comment left the note: {rel}");
    note(cx, &a, &b, "second").await?;
    let rel = act::<SetAccountNote>(cx, &a, &b, &[]).await?;
    ensure!(rel["note"] == "", "no comment left the note: {rel}");
    Ok(())
}

async fn note_too_long(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("noter").await?, cx.new_user("noted").await?);
    note(cx, &a, &b, "kept").await?;
    let long = "é".repeat(2001);
    let r = cx
        .client
        .post(
            &path::<SetAccountNote>(&[("id", &b.id)]),
            Some(&a.token),
            form(&[("comment", long.as_str())]),
        )
        .await?;
    expect_error(&r, 422, "a note of 2001 characters")?;
    ensure!(
        cx.relationship(&a, &b).await?["note"] == "kept",
        "the refused note changed the old one"
    );
    let max = "é".repeat(2000);
    let rel = note(cx, &a, &b, &max).await?;
    ensure!(
        rel["note"].as_str().map(|s| s.chars().count()) == Some(2000),
        "a note of 2000 characters was not kept whole"
    );
    Ok(())
}

async fn note_unknown(cx: &Cx) -> CheckResult {
    let a = cx.new_user("noter").await?;
    let r = cx
        .client
        .post(
            &path::<SetAccountNote>(&[("id", "999999999999999999")]),
            Some(&a.token),
            form(&[("comment", "x")]),
        )
        .await?;
    expect_error(&r, 404, "a note on an unknown account")
}

async fn note_no_token(cx: &Cx) -> CheckResult {
    let b = cx.new_user("noted").await?;
    let r = cx
        .client
        .post(
            &path::<SetAccountNote>(&[("id", &b.id)]),
            None,
            form(&[("comment", "x")]),
        )
        .await?;
    expect_error(&r, 401, "a note without a token")
}

async fn note_scope(cx: &Cx) -> CheckResult {
    let b = cx.new_user("noted").await?;
    let token = token_with_scopes(cx, "read").await?;
    let r = cx
        .client
        .post(
            &path::<SetAccountNote>(&[("id", &b.id)]),
            Some(&token),
            form(&[("comment", "x")]),
        )
        .await?;
    expect_error(&r, 403, "a note with a read-only token")
}

async fn endorse_relationship(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fan").await?, cx.new_user("star").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    let rel = act::<EndorseAccount>(cx, &a, &b, &[]).await?;
    ensure!(
        rel["endorsed"] == true && rel["following"] == true,
        "endorse answered {rel}"
    );
    let again = act::<EndorseAccount>(cx, &a, &b, &[]).await?;
    ensure!(
        again["endorsed"] == true,
        "endorsing again answered {again}"
    );
    ensure!(
        cx.relationship(&a, &b).await?["endorsed"] == true,
        "relationships do not show the endorsement"
    );
    Ok(())
}

async fn endorse_requires_follow(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fan").await?, cx.new_user("star").await?);
    let r = cx
        .client
        .post(
            &path::<EndorseAccount>(&[("id", &b.id)]),
            Some(&a.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 422, "endorsing an account not followed")?;
    ensure!(
        cx.relationship(&a, &b).await?["endorsed"] == false,
        "the refused endorsement was made"
    );
    Ok(())
}

async fn unendorse(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fan").await?, cx.new_user("star").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    act::<EndorseAccount>(cx, &a, &b, &[]).await?;
    let rel = act::<UnendorseAccount>(cx, &a, &b, &[]).await?;
    ensure!(rel["endorsed"] == false, "unendorse answered {rel}");
    act::<UnendorseAccount>(cx, &a, &b, &[]).await?;
    Ok(())
}

async fn pin_alias(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fan").await?, cx.new_user("star").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    let rel = act::<PinAccount>(cx, &a, &b, &[]).await?;
    ensure!(rel["endorsed"] == true, "/pin answered {rel}");
    ensure!(
        endorsed_ids(cx, &a).await? == vec![b.id.clone()],
        "/pin did not endorse"
    );
    let rel = act::<UnpinAccount>(cx, &a, &b, &[]).await?;
    ensure!(rel["endorsed"] == false, "/unpin answered {rel}");
    Ok(())
}

async fn endorsed_ids(cx: &Cx, owner: &User) -> Result<Vec<String>, Failure> {
    let r = cx
        .client
        .get(&path::<GetAccountEndorsements>(&[("id", &owner.id)]), None)
        .await?;
    r.expect(200)?;
    Ok(ids_of(r.json()?))
}

async fn endorse_ends_with_unfollow(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fan").await?, cx.new_user("star").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    act::<EndorseAccount>(cx, &a, &b, &[]).await?;
    let rel = act::<UnfollowAccount>(cx, &a, &b, &[]).await?;
    ensure!(
        rel["endorsed"] == false,
        "after the unfollow the relationship still says endorsed: {rel}"
    );
    ensure!(
        endorsed_ids(cx, &a).await?.is_empty(),
        "the endorsement is still listed after the unfollow"
    );
    Ok(())
}

async fn endorse_ends_with_removal(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fan").await?, cx.new_user("star").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    act::<EndorseAccount>(cx, &a, &b, &[]).await?;
    act::<RemoveFromFollowers>(cx, &b, &a, &[]).await?;
    ensure!(
        cx.relationship(&a, &b).await?["endorsed"] == false,
        "the endorsement survived the removal from followers"
    );
    ensure!(
        endorsed_ids(cx, &a).await?.is_empty(),
        "the endorsement is still listed after the removal from followers"
    );
    Ok(())
}

async fn endorse_unknown(cx: &Cx) -> CheckResult {
    let a = cx.new_user("fan").await?;
    let r = cx
        .client
        .post(
            &path::<EndorseAccount>(&[("id", "999999999999999999")]),
            Some(&a.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 404, "endorsing an unknown account")
}

async fn endorse_no_token(cx: &Cx) -> CheckResult {
    let b = cx.new_user("star").await?;
    let r = cx
        .client
        .post(&path::<EndorseAccount>(&[("id", &b.id)]), None, Body::None)
        .await?;
    expect_error(&r, 401, "endorsing without a token")
}

async fn endorse_scope(cx: &Cx) -> CheckResult {
    let b = cx.new_user("star").await?;
    let token = token_with_scopes(cx, "read").await?;
    let r = cx
        .client
        .post(
            &path::<EndorseAccount>(&[("id", &b.id)]),
            Some(&token),
            Body::None,
        )
        .await?;
    expect_error(&r, 403, "endorsing with a read-only token")
}

async fn endorsements_paginated(cx: &Cx) -> CheckResult {
    let a = cx.new_user("curator").await?;
    let mut stars = Vec::new();
    for _ in 0..3 {
        let s = cx.new_user("star").await?;
        act::<FollowAccount>(cx, &a, &s, &[]).await?;
        act::<EndorseAccount>(cx, &a, &s, &[]).await?;
        stars.push(s.id);
    }
    let first = cx
        .client
        .get(
            &format!(
                "{}?limit=2",
                path::<GetAccountEndorsements>(&[("id", &a.id)])
            ),
            None,
        )
        .await?;
    first.expect(200)?;
    let page1 = ids_of(first.json()?);
    ensure!(
        page1 == vec![stars[2].clone(), stars[1].clone()],
        "first page {page1:?}, expected the two newest endorsements"
    );
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail("no Link rel=next on the first page".into()))?;
    let second = cx.client.get(&next, None).await?;
    second.expect(200)?;
    let page2 = ids_of(second.json()?);
    ensure!(
        page2 == vec![stars[0].clone()],
        "second page {page2:?}, expected the oldest endorsement"
    );
    if let Some(more) = second.link("next") {
        let third = cx.client.get(&more, None).await?;
        third.expect(200)?;
        ensure!(
            ids_of(third.json()?).is_empty(),
            "the page after the last one is not empty"
        );
    }
    Ok(())
}

async fn endorsements_unknown(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(
            &path::<GetAccountEndorsements>(&[("id", "999999999999999999")]),
            None,
        )
        .await?;
    expect_error(&r, 404, "the endorsements of an unknown account")
}

async fn endorsements_own(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fan").await?, cx.new_user("star").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    act::<EndorseAccount>(cx, &a, &b, &[]).await?;
    let r = cx
        .client
        .get(&path::<ListEndorsements>(&[]), Some(&a.token))
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![b.id.clone()],
        "endorsements lists {:?}",
        ids_of(r.json()?)
    );
    Ok(())
}

async fn endorsements_no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ListEndorsements>(&[]), None).await?;
    expect_error(&r, 401, "GET /api/v1/endorsements without a token")
}

async fn familiar(cx: &Cx, who: &User, ids: &[&str]) -> Result<Value, Failure> {
    let query: Vec<String> = ids.iter().map(|id| format!("id[]={id}")).collect();
    let r = cx
        .client
        .get(
            &format!("{}?{}", path::<GetFamiliarFollowers>(&[]), query.join("&")),
            Some(&who.token),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

async fn familiar_followers(cx: &Cx) -> CheckResult {
    let a = cx.new_user("me").await?;
    let (b, c, x) = (
        cx.new_user("friend").await?,
        cx.new_user("friend").await?,
        cx.new_user("stranger").await?,
    );
    let (d, e) = (cx.new_user("target").await?, cx.new_user("lonely").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    act::<FollowAccount>(cx, &a, &c, &[]).await?;
    for f in [&b, &c, &x] {
        act::<FollowAccount>(cx, f, &d, &[]).await?;
    }
    let v = familiar(cx, &a, &[&e.id, &d.id]).await?;
    let list = v
        .as_array()
        .ok_or_else(|| Failure::Fail(format!("not an array: {v}")))?;
    ensure!(
        list.len() == 2 && list[0]["id"] == e.id.as_str() && list[1]["id"] == d.id.as_str(),
        "expected one entry per account asked, in order: {v}"
    );
    ensure!(
        ids_of(&list[0]["accounts"]).is_empty(),
        "an account without followers has familiar followers: {}",
        list[0]
    );
    let got = sorted(ids_of(&list[1]["accounts"]));
    ensure!(
        got == sorted(vec![b.id.clone(), c.id.clone()]),
        "familiar followers {got:?}, expected the two followed followers (not the stranger)"
    );
    Ok(())
}

async fn familiar_hidden(cx: &Cx) -> CheckResult {
    let a = cx.new_user("me").await?;
    let (b, c) = (cx.new_user("friend").await?, cx.new_user("muted").await?);
    let d = cx.new_user("target").await?;
    for f in [&b, &c] {
        act::<FollowAccount>(cx, &a, f, &[]).await?;
        act::<FollowAccount>(cx, f, &d, &[]).await?;
    }
    act::<MuteAccount>(cx, &a, &c, &[]).await?;
    let v = familiar(cx, &a, &[&d.id]).await?;
    let got = ids_of(&v[0]["accounts"]);
    ensure!(
        got == vec![b.id.clone()],
        "with one of the two muted, familiar followers are {got:?}"
    );
    Ok(())
}

async fn familiar_no_token(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(
            &format!("{}?id[]=1", path::<GetFamiliarFollowers>(&[])),
            None,
        )
        .await?;
    expect_error(&r, 401, "familiar_followers without a token")
}

async fn familiar_scope(cx: &Cx) -> CheckResult {
    let token = token_with_scopes(cx, "write").await?;
    let r = cx
        .client
        .get(
            &format!("{}?id[]=1", path::<GetFamiliarFollowers>(&[])),
            Some(&token),
        )
        .await?;
    expect_error(&r, 403, "familiar_followers with a write-only token")
}

async fn follow_uri(cx: &Cx, who: &User, uri: &str) -> Result<crate::client::Response, Failure> {
    Ok(cx
        .client
        .post(
            &path::<FollowByUri>(&[]),
            Some(&who.token),
            form(&[("uri", uri)]),
        )
        .await?)
}

async fn follows_by_username(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    let r = follow_uri(cx, &a, &b.username).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["id"] == b.id.as_str(),
        "the answer is not the followed account: {}",
        r.text
    );
    ensure!(
        cx.relationship(&a, &b).await?["following"] == true,
        "not following after POST /api/v1/follows"
    );
    Ok(())
}

async fn follows_by_address(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    let domain = own_domain(cx).await?;
    let r = follow_uri(cx, &a, &format!("@{}@{domain}", b.username)).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["id"] == b.id.as_str(),
        "the answer is not the followed account: {}",
        r.text
    );
    ensure!(
        cx.relationship(&a, &b).await?["following"] == true,
        "not following after POST /api/v1/follows"
    );
    Ok(())
}

async fn follows_twice(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    act::<FollowAccount>(cx, &a, &b, &[("notify", "true")]).await?;
    let r = follow_uri(cx, &a, &b.username).await?;
    r.expect(200)?;
    let rel = cx.relationship(&a, &b).await?;
    ensure!(
        rel["following"] == true && rel["notifying"] == true,
        "after following again by address: {rel}"
    );
    Ok(())
}

async fn follows_locked(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("asker").await?, cx.new_user("locked").await?);
    set_profile(cx, &b, &[("locked", "true")]).await?;
    follow_uri(cx, &a, &b.username).await?.expect(200)?;
    let rel = cx.relationship(&a, &b).await?;
    ensure!(
        rel["requested"] == true && rel["following"] == false,
        "following a locked account by address gave {rel}"
    );
    Ok(())
}

async fn follows_unknown(cx: &Cx) -> CheckResult {
    let a = cx.new_user("fa").await?;
    let r = follow_uri(cx, &a, "nobody_here_at_all").await?;
    expect_error(&r, 404, "following an unknown username")?;
    let r = follow_uri(cx, &a, "nobody@unknown.example").await?;
    expect_error(&r, 404, "following an unknown remote address")
}

async fn follows_blank(cx: &Cx) -> CheckResult {
    let a = cx.new_user("fa").await?;
    let r = cx
        .client
        .post(&path::<FollowByUri>(&[]), Some(&a.token), Body::None)
        .await?;
    expect_error(&r, 422, "POST /api/v1/follows without uri")
}

async fn follows_no_token(cx: &Cx) -> CheckResult {
    let b = cx.new_user("fb").await?;
    let r = cx
        .client
        .post(
            &path::<FollowByUri>(&[]),
            None,
            form(&[("uri", b.username.as_str())]),
        )
        .await?;
    expect_error(&r, 401, "POST /api/v1/follows without a token")
}

async fn follows_scope(cx: &Cx) -> CheckResult {
    let b = cx.new_user("fb").await?;
    let token = token_with_scopes(cx, "read").await?;
    let r = cx
        .client
        .post(
            &path::<FollowByUri>(&[]),
            Some(&token),
            form(&[("uri", b.username.as_str())]),
        )
        .await?;
    expect_error(&r, 403, "POST /api/v1/follows with a read-only token")
}
