//! Finding accounts: account search, follow suggestions (v1 and v2, sources, dismissal) and the
//! profile directory.

use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount, mute_account::MuteAccount,
    search_accounts::SearchAccounts,
};
use fedblog_core::api::directory::list_directory::ListDirectory;
use fedblog_core::api::suggestions::{
    dismiss_suggestion::DismissSuggestion, list_suggestions::ListSuggestions,
    list_suggestions_v2::ListSuggestionsV2,
};
use serde_json::Value;

use crate::check;
use crate::conformance::checks::social::{act, own_domain, set_profile, token_with_scopes};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        // Search
        check!(
            "accounts/search/username-prefix",
            "account search finds accounts whose username starts with the query, an exact match first",
            search_prefix
        ),
        check!(
            "accounts/search/address-forms",
            "account search accepts `@user` and `user@<this domain>` for a local account",
            search_address
        ),
        check!(
            "accounts/search/display-name",
            "account search matches a part of the display name",
            search_display_name
        ),
        check!(
            "accounts/search/following-only",
            "following=true keeps only accounts the caller follows",
            search_following
        ),
        check!(
            "accounts/search/limit-offset",
            "limit and offset page through the results without repeats",
            search_limit_offset
        ),
        check!(
            "accounts/search/blocked-hidden",
            "accounts blocked by, or blocking, the caller are not found",
            search_blocked
        ),
        check!(
            "accounts/search/no-token-401",
            "account search without a token is a 401",
            search_no_token
        ),
        check!(
            "accounts/search/scope-403",
            "account search with a token lacking read:accounts is a 403",
            search_scope
        ),
        // Suggestions
        check!(
            "suggestions/friends-of-friends",
            "v2 suggestions offer discoverable accounts followed by the accounts one follows, with source friends_of_friends",
            suggestions_fof
        ),
        check!(
            "suggestions/most-followed",
            "v2 suggestions offer discoverable local accounts with many followers, with source most_followed",
            suggestions_most_followed
        ),
        check!(
            "suggestions/exclusions",
            "suggestions never offer oneself or accounts followed, requested, blocked either way, muted or not discoverable",
            suggestions_exclusions
        ),
        check!(
            "suggestions/dismiss",
            "a dismissed account is no longer suggested; dismissing answers {}",
            suggestions_dismiss
        ),
        check!(
            "suggestions/v1-accounts",
            "v1 suggestions answer the suggested accounts themselves",
            suggestions_v1
        ),
        check!(
            "suggestions/limit",
            "limit caps the number of suggestions",
            suggestions_limit
        ),
        check!(
            "suggestions/dismiss-unknown-404",
            "dismissing an unknown account is a 404",
            suggestions_dismiss_unknown
        ),
        check!(
            "suggestions/no-token-401",
            "suggestions without a token are a 401",
            suggestions_no_token
        ),
        check!(
            "suggestions/scope-403",
            "suggestions with a token lacking read are a 403",
            suggestions_scope
        ),
        // Directory
        check!(
            "directory/discoverable-only",
            "the directory is public and lists discoverable accounts only",
            directory_discoverable
        ),
        check!(
            "directory/order-new",
            "order=new lists the newest accounts first",
            directory_new
        ),
        check!(
            "directory/order-active",
            "order=active lists accounts by most recent post, accounts that never posted last",
            directory_active
        ),
        check!(
            "directory/hides-blocked-muted",
            "with a token the directory leaves out accounts blocked either way or muted",
            directory_hidden
        ),
        check!(
            "directory/invalid-order-422",
            "an order other than active or new is a 422",
            directory_invalid_order
        ),
    ]
}

async fn search(cx: &Cx, who: &User, query: &str) -> Result<Vec<String>, Failure> {
    let r = cx
        .client
        .get(
            &format!("{}?{query}", path::<SearchAccounts>(&[])),
            Some(&who.token),
        )
        .await?;
    r.expect(200)?;
    Ok(ids_of(r.json()?))
}

fn q(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// Users whose usernames share a prefix no other check uses; answers them and the prefix.
async fn family(cx: &Cx, n: usize) -> Result<(String, Vec<User>), Failure> {
    let base = cx.unique("sr");
    let mut users = Vec::new();
    for _ in 0..n {
        users.push(cx.new_user(&base).await?);
    }
    Ok((format!("{base}_"), users))
}

async fn search_prefix(cx: &Cx) -> CheckResult {
    let me = cx.new_user("seeker").await?;
    let (prefix, users) = family(cx, 2).await?;
    let got = search(cx, &me, &format!("q={}", q(&prefix))).await?;
    let mut want: Vec<String> = users.iter().map(|u| u.id.clone()).collect();
    let mut sorted_got = got.clone();
    sorted_got.sort();
    want.sort();
    ensure!(sorted_got == want, "searching {prefix:?} found {got:?}");
    let exact = search(cx, &me, &format!("q={}", q(&users[1].username))).await?;
    ensure!(
        exact.first() == Some(&users[1].id),
        "searching an exact username found {exact:?}"
    );
    Ok(())
}

async fn search_address(cx: &Cx) -> CheckResult {
    let me = cx.new_user("seeker").await?;
    let (_, users) = family(cx, 1).await?;
    let target = &users[0];
    let domain = own_domain(cx).await?;
    for form in [
        format!("@{}", target.username),
        format!("{}@{domain}", target.username),
        format!("@{}@{domain}", target.username),
    ] {
        let got = search(cx, &me, &format!("q={}", q(&form))).await?;
        ensure!(
            got == vec![target.id.clone()],
            "searching {form:?} found {got:?}"
        );
    }
    Ok(())
}

async fn search_display_name(cx: &Cx) -> CheckResult {
    let me = cx.new_user("seeker").await?;
    let target = cx.new_user("dn").await?;
    let word = cx.unique("Zq").replace('_', "");
    set_profile(
        cx,
        &target,
        &[("display_name", format!("The {word} Person").as_str())],
    )
    .await?;
    let got = search(cx, &me, &format!("q={}", q(&word.to_lowercase()))).await?;
    ensure!(
        got == vec![target.id.clone()],
        "searching a display-name word found {got:?}"
    );
    Ok(())
}

async fn search_following(cx: &Cx) -> CheckResult {
    let me = cx.new_user("seeker").await?;
    let (prefix, users) = family(cx, 2).await?;
    act::<FollowAccount>(cx, &me, &users[0], &[]).await?;
    let got = search(cx, &me, &format!("q={}&following=true", q(&prefix))).await?;
    ensure!(
        got == vec![users[0].id.clone()],
        "following=true found {got:?}"
    );
    Ok(())
}

async fn search_limit_offset(cx: &Cx) -> CheckResult {
    let me = cx.new_user("seeker").await?;
    let (prefix, users) = family(cx, 3).await?;
    let all = search(cx, &me, &format!("q={}", q(&prefix))).await?;
    ensure!(all.len() == 3, "found {all:?}");
    let first = search(cx, &me, &format!("q={}&limit=2", q(&prefix))).await?;
    let rest = search(cx, &me, &format!("q={}&limit=2&offset=2", q(&prefix))).await?;
    ensure!(
        first == all[..2] && rest == all[2..],
        "pages {first:?} + {rest:?} do not make {all:?}"
    );
    ensure!(users.len() == 3, "three users");
    Ok(())
}

async fn search_blocked(cx: &Cx) -> CheckResult {
    let me = cx.new_user("seeker").await?;
    let (prefix, users) = family(cx, 3).await?;
    act::<BlockAccount>(cx, &me, &users[0], &[]).await?;
    act::<BlockAccount>(cx, &users[1], &me, &[]).await?;
    let got = search(cx, &me, &format!("q={}", q(&prefix))).await?;
    ensure!(
        got == vec![users[2].id.clone()],
        "with one blocked and one blocker, search found {got:?}"
    );
    Ok(())
}

async fn search_no_token(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(&format!("{}?q=a", path::<SearchAccounts>(&[])), None)
        .await?;
    expect_error(&r, 401, "account search without a token")
}

async fn search_scope(cx: &Cx) -> CheckResult {
    let token = token_with_scopes(cx, "write").await?;
    let r = cx
        .client
        .get(
            &format!("{}?q=a", path::<SearchAccounts>(&[])),
            Some(&token),
        )
        .await?;
    expect_error(&r, 403, "account search with a write-only token")
}

async fn suggestions_v2(cx: &Cx, who: &User, query: &str) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(
            &format!("{}?{query}", path::<ListSuggestionsV2>(&[])),
            Some(&who.token),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

fn suggested(v: &Value, id: &str) -> Option<Value> {
    v.as_array()?
        .iter()
        .find(|s| s["account"]["id"] == id)
        .cloned()
}

fn has_source(s: &Value, source: &str) -> bool {
    s["sources"]
        .as_array()
        .is_some_and(|a| a.iter().any(|x| x == source))
}

async fn discoverable(cx: &Cx, prefix: &str) -> Result<User, Failure> {
    let u = cx.new_user(prefix).await?;
    set_profile(cx, &u, &[("discoverable", "true")]).await?;
    Ok(u)
}

async fn suggestions_fof(cx: &Cx) -> CheckResult {
    let (me, friend) = (cx.new_user("me").await?, cx.new_user("friend").await?);
    let fof = discoverable(cx, "fof").await?;
    act::<FollowAccount>(cx, &me, &friend, &[]).await?;
    act::<FollowAccount>(cx, &friend, &fof, &[]).await?;
    let v = suggestions_v2(cx, &me, "limit=80").await?;
    let s = suggested(&v, &fof.id)
        .ok_or_else(|| Failure::Fail(format!("the friend's follow is not suggested: {v}")))?;
    ensure!(
        has_source(&s, "friends_of_friends"),
        "the suggestion's sources are {}",
        s["sources"]
    );
    Ok(())
}

async fn suggestions_most_followed(cx: &Cx) -> CheckResult {
    let me = cx.new_user("me").await?;
    let star = discoverable(cx, "popular").await?;
    for _ in 0..3 {
        let fan = cx.new_user("fan").await?;
        act::<FollowAccount>(cx, &fan, &star, &[]).await?;
    }
    let v = suggestions_v2(cx, &me, "limit=80").await?;
    let s = suggested(&v, &star.id)
        .ok_or_else(|| Failure::Fail(format!("the popular account is not suggested: {v}")))?;
    ensure!(
        has_source(&s, "most_followed"),
        "the suggestion's sources are {}",
        s["sources"]
    );
    Ok(())
}

async fn suggestions_exclusions(cx: &Cx) -> CheckResult {
    let me = discoverable(cx, "me").await?;
    let friend = cx.new_user("friend").await?;
    let followed = discoverable(cx, "followed").await?;
    let requested = discoverable(cx, "locked").await?;
    set_profile(cx, &requested, &[("locked", "true")]).await?;
    let blocked = discoverable(cx, "blocked").await?;
    let blocker = discoverable(cx, "blocker").await?;
    let muted = discoverable(cx, "muted").await?;
    let hidden = cx.new_user("hidden").await?;
    let shown = discoverable(cx, "shown").await?;
    act::<FollowAccount>(cx, &me, &friend, &[]).await?;
    for u in [
        &me, &followed, &requested, &blocked, &blocker, &muted, &hidden, &shown,
    ] {
        act::<FollowAccount>(cx, &friend, u, &[]).await?;
    }
    act::<FollowAccount>(cx, &me, &followed, &[]).await?;
    act::<FollowAccount>(cx, &me, &requested, &[]).await?;
    act::<BlockAccount>(cx, &me, &blocked, &[]).await?;
    act::<BlockAccount>(cx, &blocker, &me, &[]).await?;
    act::<MuteAccount>(cx, &me, &muted, &[]).await?;
    let v = suggestions_v2(cx, &me, "limit=80").await?;
    ensure!(
        suggested(&v, &shown.id).is_some(),
        "the one eligible account is not suggested: {v}"
    );
    for (what, u) in [
        ("oneself", &me),
        ("a followed account", &followed),
        ("a requested account", &requested),
        ("a blocked account", &blocked),
        ("a blocking account", &blocker),
        ("a muted account", &muted),
        ("an account not discoverable", &hidden),
    ] {
        ensure!(suggested(&v, &u.id).is_none(), "{what} is suggested");
    }
    Ok(())
}

async fn suggestions_dismiss(cx: &Cx) -> CheckResult {
    let (me, friend) = (cx.new_user("me").await?, cx.new_user("friend").await?);
    let fof = discoverable(cx, "fof").await?;
    act::<FollowAccount>(cx, &me, &friend, &[]).await?;
    act::<FollowAccount>(cx, &friend, &fof, &[]).await?;
    ensure!(
        suggested(&suggestions_v2(cx, &me, "limit=80").await?, &fof.id).is_some(),
        "the account is not suggested before the dismissal; the check cannot tell"
    );
    let p = path::<DismissSuggestion>(&[("account_id", &fof.id)]);
    let r = cx.client.delete(&p, Some(&me.token)).await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_object().is_some_and(|o| o.is_empty()),
        "dismissing answered {}",
        r.text
    );
    cx.client.delete(&p, Some(&me.token)).await?.expect(200)?;
    ensure!(
        suggested(&suggestions_v2(cx, &me, "limit=80").await?, &fof.id).is_none(),
        "the dismissed account is still suggested"
    );
    Ok(())
}

async fn suggestions_v1(cx: &Cx) -> CheckResult {
    let (me, friend) = (cx.new_user("me").await?, cx.new_user("friend").await?);
    let fof = discoverable(cx, "fof").await?;
    act::<FollowAccount>(cx, &me, &friend, &[]).await?;
    act::<FollowAccount>(cx, &friend, &fof, &[]).await?;
    let r = cx
        .client
        .get(
            &format!("{}?limit=80", path::<ListSuggestions>(&[])),
            Some(&me.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?).contains(&fof.id),
        "v1 suggestions lack the account: {}",
        r.text
    );
    Ok(())
}

async fn suggestions_limit(cx: &Cx) -> CheckResult {
    let (me, friend) = (cx.new_user("me").await?, cx.new_user("friend").await?);
    act::<FollowAccount>(cx, &me, &friend, &[]).await?;
    for _ in 0..2 {
        let fof = discoverable(cx, "fof").await?;
        act::<FollowAccount>(cx, &friend, &fof, &[]).await?;
    }
    let v = suggestions_v2(cx, &me, "limit=1").await?;
    ensure!(
        v.as_array().is_some_and(|a| a.len() == 1),
        "limit=1 answered {v}"
    );
    Ok(())
}

async fn suggestions_dismiss_unknown(cx: &Cx) -> CheckResult {
    let me = cx.new_user("me").await?;
    let r = cx
        .client
        .delete(
            &path::<DismissSuggestion>(&[("account_id", "999999999999999999")]),
            Some(&me.token),
        )
        .await?;
    expect_error(&r, 404, "dismissing an unknown account")
}

async fn suggestions_no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ListSuggestionsV2>(&[]), None).await?;
    expect_error(&r, 401, "suggestions without a token")
}

async fn suggestions_scope(cx: &Cx) -> CheckResult {
    let token = token_with_scopes(cx, "write").await?;
    let r = cx
        .client
        .get(&path::<ListSuggestionsV2>(&[]), Some(&token))
        .await?;
    expect_error(&r, 403, "suggestions with a write-only token")
}

async fn directory(cx: &Cx, token: Option<&str>, query: &str) -> Result<Vec<String>, Failure> {
    let r = cx
        .client
        .get(&format!("{}?{query}", path::<ListDirectory>(&[])), token)
        .await?;
    r.expect(200)?;
    Ok(ids_of(r.json()?))
}

async fn directory_discoverable(cx: &Cx) -> CheckResult {
    let listed = discoverable(cx, "listed").await?;
    let unlisted = cx.new_user("unlisted").await?;
    let got = directory(cx, None, "order=new&local=true&limit=80").await?;
    ensure!(
        got.contains(&listed.id),
        "the discoverable account is not in the directory"
    );
    ensure!(
        !got.contains(&unlisted.id),
        "an account that is not discoverable is in the directory"
    );
    Ok(())
}

async fn directory_new(cx: &Cx) -> CheckResult {
    let older = discoverable(cx, "older").await?;
    let newer = discoverable(cx, "newer").await?;
    let got = directory(cx, None, "order=new&local=true&limit=2").await?;
    ensure!(
        got == vec![newer.id.clone(), older.id.clone()],
        "order=new answered {got:?}"
    );
    Ok(())
}

async fn directory_active(cx: &Cx) -> CheckResult {
    let quiet = discoverable(cx, "quiet").await?;
    let poster = discoverable(cx, "poster").await?;
    cx.post_status(&poster, &[("status", "I am active")])
        .await?;
    let got = directory(cx, None, "order=active&local=true&limit=80").await?;
    let pos = |id: &str| got.iter().position(|x| x == id);
    ensure!(
        pos(&poster.id) == Some(0),
        "the account that just posted is not first: {got:?}"
    );
    ensure!(
        pos(&quiet.id).is_some(),
        "an account that never posted is missing from order=active"
    );
    Ok(())
}

async fn directory_hidden(cx: &Cx) -> CheckResult {
    let me = cx.new_user("viewer").await?;
    let blocked = discoverable(cx, "blocked").await?;
    let blocker = discoverable(cx, "blocker").await?;
    let muted = discoverable(cx, "muted").await?;
    let shown = discoverable(cx, "shown").await?;
    act::<BlockAccount>(cx, &me, &blocked, &[]).await?;
    act::<BlockAccount>(cx, &blocker, &me, &[]).await?;
    act::<MuteAccount>(cx, &me, &muted, &[]).await?;
    let got = directory(cx, Some(&me.token), "order=new&local=true&limit=80").await?;
    ensure!(got.contains(&shown.id), "the directory lacks {}", shown.id);
    for u in [&blocked, &blocker, &muted] {
        ensure!(
            !got.contains(&u.id),
            "the directory shows {} to an account that blocks, is blocked by or mutes it",
            u.username
        );
    }
    let anon = directory(cx, None, "order=new&local=true&limit=80").await?;
    ensure!(
        anon.contains(&muted.id),
        "the public directory lacks the muted account"
    );
    Ok(())
}

async fn directory_invalid_order(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(
            &format!("{}?order=popular", path::<ListDirectory>(&[])),
            None,
        )
        .await?;
    expect_error(&r, 422, "the directory with order=popular")
}
