//! Embedding fedblog-core in your own program: no HTTP server, no database, just the API
//! semantics over the in-memory store. Run with `cargo run -p fedblog-examples --example embed`.
//!
//! Your program owns the transport: it finds the route for a method and path in
//! `fedblog_core::api::routes()`, hands core a `Request` and gets back a `Reply` (status, headers,
//! JSON) that it can send anywhere.

use std::sync::Arc;

use fedblog_core::api::{Endpoint, Route, routes};
use fedblog_core::app::Request;
use fedblog_core::params::Params;
use fedblog_core::services::accounts::NewAccount;
use fedblog_core::store::Role;
use fedblog_core::{App, InstanceConfig, MemoryStore};

fn route_of<E: Endpoint>() -> Route {
    routes()
        .into_iter()
        .find(|r| r.method == E::METHOD && r.path == E::PATH)
        .expect("declared route")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let app = Arc::new(App::new(
        Arc::new(MemoryStore::new()),
        InstanceConfig::new("example.test"),
    ));

    // An account and a token, as the admin CLI would make them.
    let (account, _, _) = app
        .accounts()
        .create_local_account(
            NewAccount {
                username: "ada".into(),
                email: "ada@example.test".into(),
                password: "correct horse battery".into(),
                role: Role::User,
                confirmed: true,
                approved: true,
                locale: "en".into(),
            },
            false,
        )
        .await
        .expect("account");
    let client = app.oauth().cli_application().await.expect("app");
    let token = app
        .oauth()
        .issue_token(
            client.id,
            Some(account.id),
            &fedblog_core::scope::Scopes::parse("read write").expect("valid scopes"),
        )
        .await
        .expect("token")
        .access_token;

    // POST /api/v1/statuses, without HTTP.
    let mut params = Params::new();
    params
        .add_urlencoded("status=Hello from an embedded fedblog! #rust")
        .expect("a plain form");
    let post = route_of::<fedblog_core::api::statuses::create_status::CreateStatus>();
    let reply = app
        .dispatch(
            &post,
            Request {
                authorization: Some(format!("Bearer {token}")),
                params,
                ..Default::default()
            },
        )
        .await;
    println!("{} {} -> {}", post.method, post.path, reply.status);
    if let Some(status) = reply.json() {
        println!("  content: {}", status["content"]);
        println!("  tags:    {}", status["tags"]);
    }

    // GET /api/v1/timelines/public, anonymously.
    let public = route_of::<fedblog_core::api::timelines::public_timeline::PublicTimeline>();
    let reply = app.dispatch(&public, Request::default()).await;
    if let Some(items) = reply.json() {
        println!(
            "{} {} -> {} with {} status(es)",
            public.method,
            public.path,
            reply.status,
            items.as_array().map_or(0, Vec::len)
        );
    }
}
