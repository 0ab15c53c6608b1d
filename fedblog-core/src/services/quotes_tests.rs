//! The quotes area's rules: who may quote a status under each policy, what a quote records,
//! how statuses show their quotes to each viewer (accepted, revoked, deleted, unauthorized,
//! shallow inside a quoted status), the list of a status's quotes, revoking and re-policing.

use super::quotes::*;
use crate::App;
use crate::entities::{Status, StatusQuote};
use crate::error::ApiResult;
use crate::pagination::Page;
use crate::services::relationships::FollowOptions;
use crate::services::statuses::NewStatus;
use crate::store::{AccountRecord, QuoteState, StatusRecord};
use crate::test_support::{account, app, post, private_post};

/// `author` posts `text` quoting `quoted` (with `visibility` and `policy` if given), as
/// `POST /api/v1/statuses` does.
async fn quote(
    app: &App,
    author: &AccountRecord,
    quoted: &StatusRecord,
    text: &str,
    visibility: Option<&str>,
) -> ApiResult<StatusRecord> {
    let mentions = app.statuses().render_status_text(text).await?.mentions;
    let draft = app
        .quotes()
        .prepare(
            author,
            Some(&quoted.id.to_string()),
            None,
            visibility,
            &mentions,
        )
        .await?;
    let new = NewStatus {
        text: text.into(),
        visibility: draft
            .visibility
            .clone()
            .or_else(|| visibility.map(str::to_string)),
        ..Default::default()
    };
    let s = app
        .statuses()
        .publish_status(author, None, None, new)
        .await?;
    app.quotes().attach(author, &s, draft).await?;
    Ok(s)
}

/// `author` posts `text` with the quote approval `policy`.
async fn post_with_policy(
    app: &App,
    author: &AccountRecord,
    text: &str,
    policy: &str,
) -> StatusRecord {
    let draft = app
        .quotes()
        .prepare(author, None, Some(policy), None, &[])
        .await
        .expect("prepare");
    let s = crate::test_support::post(app, author, text, None).await;
    app.quotes()
        .attach(author, &s, draft)
        .await
        .expect("attach");
    s
}

/// `status` as `viewer` sees it.
async fn shown(
    app: &App,
    status: &StatusRecord,
    viewer: &AccountRecord,
) -> crate::entities::Status {
    app.render_status(status, Some(viewer))
        .await
        .expect("render")
}

/// The state and quoted status id of a rendered status's (full) quote.
fn quote_of(s: &Status) -> Option<(String, Option<crate::Id>)> {
    match s.quote.as_ref()? {
        StatusQuote::Full(q) => Some((q.state.clone(), q.quoted_status.as_ref().map(|s| s.id))),
        StatusQuote::Shallow(q) => Some((q.state.clone(), q.quoted_status_id)),
    }
}

#[tokio::test]
async fn a_public_status_is_quoted_at_once_and_shown_with_its_quote() {
    let app = app("quotes.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    // A status posted the plain way (no policy asked) gets Mastodon's default, public.
    let original = post_with_policy(&app, &alice, "quote me", "public").await;
    let q = quote(&app, &bob, &original, "look", None)
        .await
        .expect("quote");
    let stored = app.store.quotes().expect("quote store");
    let records = stored.quotes_of_statuses(&[q.id]).await.expect("quotes");
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].state, QuoteState::Accepted);
    assert_eq!(records[0].quoted_account_id, Some(alice.id));
    let seen = shown(&app, &q, &alice).await;
    assert_eq!(
        quote_of(&seen),
        Some(("accepted".into(), Some(original.id)))
    );
    let inner = shown(&app, &original, &bob).await;
    assert_eq!(inner.quotes_count, 1);
    let approval = inner.quote_approval.expect("quote_approval");
    assert_eq!(approval.automatic, vec!["public".to_string()]);
    assert_eq!(approval.current_user, "automatic");
    // The quoted status inside a quote of a quote is shallow.
    let qq = quote(&app, &alice, &q, "and again", None)
        .await
        .expect("quote of a quote");
    let seen = shown(&app, &qq, &bob).await;
    let Some(StatusQuote::Full(full)) = &seen.quote else {
        panic!("a full quote at the top: {:?}", seen.quote);
    };
    let nested = full.quoted_status.as_ref().expect("quoted status");
    assert!(
        matches!(&nested.quote, Some(StatusQuote::Shallow(s)) if s.quoted_status_id == Some(original.id)),
        "the nested quote is shallow: {:?}",
        nested.quote
    );
}

#[tokio::test]
async fn nobody_and_followers_policies_refuse_others_but_never_the_author() {
    let app = app("quotes.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let carol = account(&app, "carol").await;
    let mine = post_with_policy(&app, &alice, "mine", "nobody").await;
    let e = quote(&app, &bob, &mine, "no", None)
        .await
        .expect_err("denied");
    assert_eq!(e.status, http::StatusCode::NOT_FOUND);
    assert_eq!(e.message, QUOTED_NOT_FOUND);
    assert_eq!(
        shown(&app, &mine, &bob)
            .await
            .quote_approval
            .expect("approval")
            .current_user,
        "denied"
    );
    quote(&app, &alice, &mine, "self", None)
        .await
        .expect("the author may quote their own");
    let followers = post_with_policy(&app, &alice, "followers", "followers").await;
    app.relationships()
        .follow(&bob, alice.id, FollowOptions::default())
        .await
        .expect("follow");
    let ok = quote(&app, &bob, &followers, "follower", None)
        .await
        .expect("a follower may quote");
    assert_eq!(
        quote_of(&shown(&app, &ok, &bob).await).map(|q| q.0),
        Some("accepted".into())
    );
    let e = quote(&app, &carol, &followers, "stranger", None)
        .await
        .expect_err("a stranger may not");
    assert_eq!(e.status, http::StatusCode::NOT_FOUND);
    // An unknown policy name is a 422.
    let e = app
        .quotes()
        .prepare(&alice, None, Some("everyone"), None, &[])
        .await
        .expect_err("unknown policy");
    assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn followers_only_statuses_are_quotable_by_their_author_only_and_keep_quotes_private() {
    let app = app("quotes.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    app.relationships()
        .follow(&bob, alice.id, FollowOptions::default())
        .await
        .expect("follow");
    let private = private_post(&app, &alice, "followers only").await;
    let e = quote(&app, &bob, &private, "no", None)
        .await
        .expect_err("a follower may not quote a followers-only status");
    assert_eq!(e.status, http::StatusCode::NOT_FOUND);
    let own = quote(&app, &alice, &private, "self", Some("public"))
        .await
        .expect("self quote");
    assert_eq!(
        own.visibility.as_str(),
        "private",
        "quoting a followers-only status keeps the quote followers-only"
    );
    let approval = shown(&app, &own, &alice)
        .await
        .quote_approval
        .expect("approval");
    assert!(approval.automatic.is_empty(), "{approval:?}");
}

#[tokio::test]
async fn a_direct_quote_must_mention_the_quoted_author() {
    let app = app("quotes.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let original = post_with_policy(&app, &alice, "hello", "public").await;
    let e = quote(&app, &bob, &original, "psst", Some("direct"))
        .await
        .expect_err("not mentioned");
    assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY);
    quote(&app, &bob, &original, "@alice psst", Some("direct"))
        .await
        .expect("mentioned");
}

#[tokio::test]
async fn revoked_deleted_and_hidden_quotes_show_no_quoted_status() {
    let app = app("quotes.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let carol = account(&app, "carol").await;
    let original = post_with_policy(&app, &alice, "quote me", "public").await;
    let q1 = quote(&app, &bob, &original, "one", None).await.expect("q1");
    let q2 = quote(&app, &carol, &original, "two", None)
        .await
        .expect("q2");
    let (page, first, last) = app
        .quotes()
        .quotes_of(&alice, original.id, Page::first(20))
        .await
        .expect("list");
    assert_eq!(
        page.iter().map(|s| s.id).collect::<Vec<_>>(),
        vec![q2.id, q1.id]
    );
    assert!(first.is_some() && last.is_some());
    let e = app
        .quotes()
        .quotes_of(&bob, original.id, Page::first(20))
        .await
        .expect_err("not the author");
    assert_eq!(e.status, http::StatusCode::FORBIDDEN);
    // Someone the quoted author blocks sees the quote as unauthorized.
    app.blocks().block(&alice, carol.id).await.expect("block");
    assert_eq!(
        quote_of(&shown(&app, &q1, &carol).await),
        Some(("unauthorized".into(), None))
    );
    // Revoking.
    let e = app
        .quotes()
        .revoke(&bob, original.id, q1.id)
        .await
        .expect_err("only the quoted author revokes");
    assert_eq!(e.status, http::StatusCode::FORBIDDEN);
    let revoked = app
        .quotes()
        .revoke(&alice, original.id, q1.id)
        .await
        .expect("revoke");
    assert_eq!(revoked.state, QuoteState::Revoked);
    assert_eq!(
        quote_of(&shown(&app, &q1, &bob).await),
        Some(("revoked".into(), None))
    );
    let (page, _, _) = app
        .quotes()
        .quotes_of(&alice, original.id, Page::first(20))
        .await
        .expect("list");
    assert_eq!(page.iter().map(|s| s.id).collect::<Vec<_>>(), vec![q2.id]);
    // Deleting the quoted status shows the remaining quote as deleted.
    app.statuses()
        .delete_status(&original)
        .await
        .expect("delete");
    assert_eq!(
        quote_of(&shown(&app, &q2, &carol).await),
        Some(("deleted".into(), None))
    );
}

#[tokio::test]
async fn the_policy_of_ones_own_status_can_be_changed() {
    let app = app("quotes.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let s = post(&app, &alice, "policy", None).await;
    app.quotes()
        .set_policy(&alice, s.id, Some("nobody"))
        .await
        .expect("set nobody");
    assert!(quote(&app, &bob, &s, "no", None).await.is_err());
    let e = app
        .quotes()
        .set_policy(&bob, s.id, Some("public"))
        .await
        .expect_err("someone else's status");
    assert_eq!(e.status, http::StatusCode::FORBIDDEN);
    let e = app
        .quotes()
        .set_policy(&alice, s.id, Some("anyone"))
        .await
        .expect_err("unknown policy");
    assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY);
    app.quotes()
        .set_policy(&alice, s.id, Some("public"))
        .await
        .expect("set public");
    quote(&app, &bob, &s, "yes", None)
        .await
        .expect("quotable again");
    let p = private_post(&app, &alice, "private").await;
    app.quotes()
        .set_policy(&alice, p.id, Some("public"))
        .await
        .expect("set on private");
    assert_eq!(
        app.quotes().policy_of(p.id).await.expect("policy"),
        crate::store::QuotePolicyBits::NOBODY,
        "a followers-only status keeps nobody"
    );
}

#[tokio::test]
async fn an_accepted_quote_has_an_authorization_of_the_quoted_author_until_revoked() {
    let app = app("quotes.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let original = post_with_policy(&app, &alice, "quote me", "public").await;
    let q = quote(&app, &bob, &original, "quoting", None)
        .await
        .expect("quote");
    let record = app
        .store
        .quotes()
        .expect("quote store")
        .quotes_of_statuses(&[q.id])
        .await
        .expect("quotes")
        .pop()
        .expect("the quote");
    let (found, quoting) = app
        .quotes()
        .authorization(&alice, record.id, None)
        .await
        .expect("authorization");
    assert_eq!((found.id, quoting.id), (record.id, q.id));
    let e = app
        .quotes()
        .authorization(&bob, record.id, None)
        .await
        .expect_err("not bob's to authorize");
    assert_eq!(e.status, http::StatusCode::NOT_FOUND);
    app.quotes()
        .revoke(&alice, original.id, q.id)
        .await
        .expect("revoke");
    let e = app
        .quotes()
        .authorization(&alice, record.id, None)
        .await
        .expect_err("a revoked quote has no authorization");
    assert_eq!(e.status, http::StatusCode::NOT_FOUND);
}
