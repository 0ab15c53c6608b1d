//! `GET /api/v1/domain_blocks/preview`: What blocking a domain would sever: how many accounts there the caller follows and how many there follow the caller (Mastodon 4.5's `Api::V1::DomainBlocks::PreviewsController`, undocumented).

use http::Method;
use serde::{Deserialize, Serialize};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;
use crate::id::Id;
use crate::pagination::Page;
use crate::params::de;

/// How many of the caller's follows and followers are accounts on `domain`: the relations a
/// block of that domain would end, asked before blocking it. The domain is read as
/// `POST /api/v1/domain_blocks` reads it (lower case, one trailing dot dropped); a domain that
/// could not be blocked (blank, a scheme or path, a wildcard, this server's own) is the same
/// 422. Mastodon asks for the scope of blocking, `write:blocks`, not a read scope.
pub struct PreviewDomainBlock;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PreviewDomainBlockRequest {
    /// The domain that would be blocked.
    #[serde(deserialize_with = "de::opt_string")]
    pub domain: Option<String>,
}

/// The answer, with Mastodon's two keys in its order.
#[derive(Debug, Serialize)]
pub struct DomainBlockPreview {
    /// Accounts on the domain the caller follows.
    pub following_count: u64,
    /// Accounts on the domain that follow the caller.
    pub followers_count: u64,
}

/// How many follows each read of the walk takes.
const WALK_PAGE: usize = 1000;

/// Which side of the caller's follows a walk counts.
#[derive(Clone, Copy)]
enum Side {
    Following,
    Followers,
}

/// How many accounts on `domain` are on `side` of `me`'s follows: the follows are read a page
/// of [`WALK_PAGE`] at a time with their accounts (two store reads a page), since no store
/// read counts them by domain. A preview is asked once, before a block, so the walk's cost
/// (two reads per thousand follows, and one more to find the end) is paid rarely.
async fn count_on_domain(app: &App, me: Id, domain: &str, side: Side) -> ApiResult<u64> {
    let mut page = Page::first(WALK_PAGE);
    let mut count = 0u64;
    loop {
        let pairs = match side {
            Side::Following => app.store.following_page(me, page).await?,
            Side::Followers => app.store.followers_page(me, page).await?,
        };
        let ids: Vec<Id> = pairs.iter().map(|(_, account)| *account).collect();
        if !ids.is_empty() {
            count += app
                .store
                .accounts_by_ids(&ids)
                .await?
                .iter()
                .filter(|a| {
                    a.domain
                        .as_deref()
                        .is_some_and(|d| d.eq_ignore_ascii_case(domain))
                })
                .count() as u64;
        }
        // Until a page comes back empty, so that a store answering fewer than asked does not
        // end the walk early.
        match pairs.last() {
            Some((cursor, _)) => page.max_id = Some(*cursor),
            None => return Ok(count),
        }
    }
}

impl Endpoint for PreviewDomainBlock {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/domain_blocks/preview";
    const AUTH: Auth = Auth::User("write:blocks");
    type Request = PreviewDomainBlockRequest;
    type Response = Json<DomainBlockPreview>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: PreviewDomainBlockRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let domain = app
            .blocks()
            .normalize_blocked_domain(r.domain.as_deref().unwrap_or(""))?;
        Ok(Json(DomainBlockPreview {
            following_count: count_on_domain(app, me.id, &domain, Side::Following).await?,
            followers_count: count_on_domain(app, me.id, &domain, Side::Followers).await?,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::RequestInfo;
    use crate::store::AccountRecord;
    use crate::test_support::{account, app};

    /// A remote account `name@domain`, stored.
    async fn remote(app: &App, name: &str, domain: &str) -> AccountRecord {
        let mut a = AccountRecord::new_local(app.ids.next(), name, app.now());
        a.domain = Some(domain.to_string());
        app.store.insert_remote_account(&a).await.expect("stored");
        a
    }

    async fn preview(app: &App, me: &AccountRecord, domain: &str) -> ApiResult<(u64, u64)> {
        let cli = app.oauth().cli_application().await.expect("cli app");
        let scopes = crate::scope::Scopes::parse("write:blocks").expect("scopes");
        let token = app
            .oauth()
            .issue_token(cli.id, Some(me.id), &scopes)
            .await
            .expect("token")
            .access_token;
        let caller = app
            .authenticate(
                PreviewDomainBlock::AUTH,
                Some(&token),
                None,
                RequestInfo::default(),
            )
            .await
            .expect("authenticated");
        let request = PreviewDomainBlockRequest {
            domain: Some(domain.to_string()),
        };
        let Json(p) = PreviewDomainBlock::handle(app, &caller, request).await?;
        Ok((p.following_count, p.followers_count))
    }

    /// Mastodon's own example: follows of alice@ and bob@ there, carol@ elsewhere; dave@ there
    /// and erin@ elsewhere following back. More follows than one page of the walk count too.
    #[tokio::test]
    async fn counts_follows_and_followers_on_the_domain_only() {
        let app = app("home.test");
        let me = account(&app, "me").await;
        let other = account(&app, "other").await;
        for name in ["alice", "bob"] {
            let a = remote(&app, name, "example.com").await;
            app.store
                .insert_follow(app.ids.next(), me.id, a.id)
                .await
                .expect("follow");
        }
        let carol = remote(&app, "carol", "example.net").await;
        app.store
            .insert_follow(app.ids.next(), me.id, carol.id)
            .await
            .expect("follow");
        let dave = remote(&app, "dave", "example.com").await;
        app.store
            .insert_follow(app.ids.next(), dave.id, me.id)
            .await
            .expect("follow");
        let erin = remote(&app, "erin", "example.net").await;
        app.store
            .insert_follow(app.ids.next(), erin.id, me.id)
            .await
            .expect("follow");
        // Someone else's relations on the domain do not count.
        app.store
            .insert_follow(app.ids.next(), dave.id, other.id)
            .await
            .expect("follow");
        assert_eq!(preview(&app, &me, "example.com").await.expect("ok"), (2, 1));
        assert_eq!(
            preview(&app, &me, "EXAMPLE.COM.").await.expect("ok"),
            (2, 1)
        );
        assert_eq!(preview(&app, &me, "example.net").await.expect("ok"), (1, 1));
        assert_eq!(preview(&app, &me, "example.org").await.expect("ok"), (0, 0));
        // Past one page of the walk.
        for i in 0..(WALK_PAGE + 5) {
            let a = remote(&app, &format!("f{i}"), "big.example").await;
            app.store
                .insert_follow(app.ids.next(), a.id, me.id)
                .await
                .expect("follow");
        }
        assert_eq!(
            preview(&app, &me, "big.example").await.expect("ok"),
            (0, WALK_PAGE as u64 + 5)
        );
    }

    #[tokio::test]
    async fn a_domain_that_could_not_be_blocked_is_a_422() {
        let app = app("home.test");
        let me = account(&app, "me").await;
        for bad in [
            "",
            "https://example.com",
            "example.com/path",
            "*.example.com",
            "home.test",
        ] {
            let e = preview(&app, &me, bad).await.expect_err(bad);
            assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        }
    }
}
