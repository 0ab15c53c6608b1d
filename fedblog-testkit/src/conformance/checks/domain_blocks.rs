//! User domain blocks (`/api/v1/domain_blocks`): blocking, listing with pagination, unblocking,
//! and the validation of `domain`. Their effect on remote accounts needs remote accounts, which
//! the API cannot make; the server's own tests cover it.

use fedblog_core::api::domain_blocks::{
    block_domain::BlockDomain, list_domain_blocks::ListDomainBlocks, unblock_domain::UnblockDomain,
};

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::checks::social::{own_domain, token_with_scopes};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, path};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "domain_blocks/block-list-unblock",
            "a blocked domain is listed (lower case) until it is unblocked; both answer {}",
            block_list_unblock
        ),
        check!(
            "domain_blocks/idempotent",
            "blocking a domain twice lists it once; unblocking a domain not blocked succeeds",
            idempotent
        ),
        check!(
            "domain_blocks/paginated",
            "the domain blocks list is newest first and paginates through the Link header to the end",
            paginated
        ),
        check!(
            "domain_blocks/missing-domain-422",
            "blocking or unblocking without `domain` is a 422",
            missing_domain
        ),
        check!(
            "domain_blocks/invalid-domain-422",
            "a `domain` with spaces, a scheme, a path or a wildcard is a 422 and blocks nothing",
            invalid_domain
        ),
        check!(
            "domain_blocks/own-domain-422",
            "blocking this server's own domain is a 422",
            own_domain_refused
        ),
        check!(
            "domain_blocks/no-token-401",
            "the domain blocks methods without a token are a 401",
            no_token
        ),
        check!(
            "domain_blocks/scope-403",
            "blocking a domain with a token lacking write:blocks is a 403, listing without read:blocks too",
            scope
        ),
    ]
}

async fn block(cx: &Cx, who: &User, domain: &str) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(
            &path::<BlockDomain>(&[]),
            Some(&who.token),
            form(&[("domain", domain)]),
        )
        .await?)
}

async fn unblock(cx: &Cx, who: &User, domain: &str) -> Result<Response, Failure> {
    cx.send(
        "DELETE",
        &path::<UnblockDomain>(&[]),
        Some(&who.token),
        form(&[("domain", domain)]),
    )
    .await
}

async fn listed(cx: &Cx, who: &User) -> Result<Vec<String>, Failure> {
    let r = cx
        .client
        .get(&path::<ListDomainBlocks>(&[]), Some(&who.token))
        .await?;
    r.expect(200)?;
    Ok(strings(r.json()?))
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn empty_object(r: &Response) -> bool {
    r.json()
        .is_ok_and(|v| v.as_object().is_some_and(|o| o.is_empty()))
}

async fn block_list_unblock(cx: &Cx) -> CheckResult {
    let me = cx.new_user("blocker").await?;
    let r = block(cx, &me, "Spam.Example").await?;
    r.expect(200)?;
    ensure!(empty_object(&r), "blocking answered {}", r.text);
    let got = listed(cx, &me).await?;
    ensure!(
        got == vec!["spam.example".to_string()],
        "domain blocks list {got:?}"
    );
    let r = unblock(cx, &me, "spam.example").await?;
    r.expect(200)?;
    ensure!(empty_object(&r), "unblocking answered {}", r.text);
    let got = listed(cx, &me).await?;
    ensure!(got.is_empty(), "after unblocking the list is {got:?}");
    Ok(())
}

async fn idempotent(cx: &Cx) -> CheckResult {
    let me = cx.new_user("blocker").await?;
    block(cx, &me, "twice.example").await?.expect(200)?;
    block(cx, &me, "twice.example").await?.expect(200)?;
    let got = listed(cx, &me).await?;
    ensure!(
        got == vec!["twice.example".to_string()],
        "after blocking twice the list is {got:?}"
    );
    unblock(cx, &me, "never.example").await?.expect(200)?;
    Ok(())
}

async fn paginated(cx: &Cx) -> CheckResult {
    let me = cx.new_user("blocker").await?;
    let domains = ["one.example", "two.example", "three.example"];
    for d in domains {
        block(cx, &me, d).await?.expect(200)?;
    }
    let first = cx
        .client
        .get(
            &format!("{}?limit=2", path::<ListDomainBlocks>(&[])),
            Some(&me.token),
        )
        .await?;
    first.expect(200)?;
    let page1 = strings(first.json()?);
    ensure!(
        page1 == vec!["three.example", "two.example"],
        "first page {page1:?}"
    );
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail("no Link rel=next on the first page".into()))?;
    let second = cx.client.get(&next, Some(&me.token)).await?;
    second.expect(200)?;
    let page2 = strings(second.json()?);
    ensure!(page2 == vec!["one.example"], "second page {page2:?}");
    if let Some(more) = second.link("next") {
        let third = cx.client.get(&more, Some(&me.token)).await?;
        third.expect(200)?;
        ensure!(
            strings(third.json()?).is_empty(),
            "the page after the last one is not empty"
        );
    }
    Ok(())
}

async fn missing_domain(cx: &Cx) -> CheckResult {
    let me = cx.new_user("blocker").await?;
    let r = cx
        .client
        .post(&path::<BlockDomain>(&[]), Some(&me.token), Body::None)
        .await?;
    expect_error(&r, 422, "blocking without a domain")?;
    let r = cx
        .send(
            "DELETE",
            &path::<UnblockDomain>(&[]),
            Some(&me.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 422, "unblocking without a domain")
}

async fn invalid_domain(cx: &Cx) -> CheckResult {
    let me = cx.new_user("blocker").await?;
    for bad in [
        "not a domain",
        "https://spam.example",
        "spam.example/path",
        "*.spam.example",
        "-spam.example",
    ] {
        let r = block(cx, &me, bad).await?;
        expect_error(&r, 422, &format!("blocking {bad:?}"))?;
    }
    let got = listed(cx, &me).await?;
    ensure!(got.is_empty(), "refused domains were blocked: {got:?}");
    Ok(())
}

async fn own_domain_refused(cx: &Cx) -> CheckResult {
    let me = cx.new_user("blocker").await?;
    let domain = own_domain(cx).await?;
    let r = block(cx, &me, &domain).await?;
    expect_error(&r, 422, "blocking this server's own domain")
}

async fn no_token(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .post(
            &path::<BlockDomain>(&[]),
            None,
            form(&[("domain", "spam.example")]),
        )
        .await?;
    expect_error(&r, 401, "blocking a domain without a token")?;
    let r = cx.client.get(&path::<ListDomainBlocks>(&[]), None).await?;
    expect_error(&r, 401, "listing domain blocks without a token")
}

async fn scope(cx: &Cx) -> CheckResult {
    let read = token_with_scopes(cx, "read").await?;
    let r = cx
        .client
        .post(
            &path::<BlockDomain>(&[]),
            Some(&read),
            form(&[("domain", "spam.example")]),
        )
        .await?;
    expect_error(&r, 403, "blocking a domain with a read-only token")?;
    let write = token_with_scopes(cx, "write").await?;
    let r = cx
        .client
        .get(&path::<ListDomainBlocks>(&[]), Some(&write))
        .await?;
    expect_error(&r, 403, "listing domain blocks with a write-only token")
}
