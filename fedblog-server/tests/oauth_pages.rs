//! The HTML pages people see, over real HTTP: the sign-in and consent page names the instance,
//! the app (its website as a link) and what each requested scope allows; it, the error page and
//! the e-mail confirmation page share one inline stylesheet, run no script and escape what
//! apps and users wrote.

mod common;

use common::{PASSWORD, TestServer};
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::confirm_email::ConfirmEmail;
use fedblog_core::api::apps::create_app::CreateApp;
use fedblog_core::api::oauth::authorize_decision::AuthorizeDecision;
use fedblog_core::api::oauth::authorize_page::AuthorizePage;
use fedblog_core::api::oauth::scope_words::describe;
use fedblog_core::api::pages::STYLESHEET;
use fedblog_core::content::escape;
use fedblog_core::services::accounts::NewAccount;
use fedblog_core::store::Role;
use fedblog_testkit::client::{Response, form, query};

const REDIRECT: &str = "http://127.0.0.1:9/callback";
const HOSTILE_NAME: &str = "<script>alert('name')</script> & \"Friends\"";
const HOSTILE_WEBSITE: &str = "https://app.example/?q=\"><script>alert(1)</script>";

/// Registers an app and answers its client id.
async fn register(s: &TestServer, name: &str, website: &str, scopes: &str) -> String {
    let r = s
        .client
        .post(
            CreateApp::PATH,
            None,
            form(&[
                ("client_name", name),
                ("redirect_uris", REDIRECT),
                ("scopes", scopes),
                ("website", website),
            ]),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    r.json().unwrap()["client_id"].as_str().unwrap().to_string()
}

fn authorize_path(client_id: &str, scope: &str) -> String {
    format!(
        "{}?{}",
        AuthorizePage::PATH,
        query(&[
            ("response_type", "code"),
            ("client_id", client_id),
            ("redirect_uri", REDIRECT),
            ("scope", scope),
            ("state", "s1"),
        ])
    )
}

/// What every page must be: HTML under the strict page policy, with the one shared stylesheet
/// inline (the policy allows nothing else) and no script.
fn assert_a_plain_page(r: &Response) {
    assert!(
        r.header("content-type")
            .is_some_and(|t| t.starts_with("text/html")),
        "{:?}",
        r.header("content-type")
    );
    let csp = r.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("style-src 'unsafe-inline'"), "{csp}");
    assert!(!csp.contains("script-src"), "{csp}");
    assert!(
        r.text.contains(&format!("<style>{STYLESHEET}</style>")),
        "{}",
        r.text
    );
    let lower = r.text.to_lowercase();
    assert!(!lower.contains("<script"), "{}", r.text);
    assert!(
        !lower.contains("<link"),
        "nothing to load that the policy would block"
    );
    assert!(lower.contains("<meta name=\"viewport\" content=\"width=device-width"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_consent_page_names_the_instance_the_app_and_what_each_scope_allows() {
    let s = TestServer::start_with(|c| c.title = "Harbour <Social>".into()).await;
    let client_id = register(
        &s,
        "Tusky",
        "https://tusky.example/about",
        "read write push admin:read",
    )
    .await;
    let scopes = ["read", "read:statuses", "write:media", "push", "admin:read"];
    let r = s
        .client
        .get(&authorize_path(&client_id, &scopes.join(" ")), None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert_a_plain_page(&r);
    let page = &r.text;
    assert!(
        page.contains("<span class=\"name\">Harbour &lt;Social&gt;</span>"),
        "{page}"
    );
    assert!(page.contains(&format!(
        "<span class=\"domain\">{}</span>",
        escape(&s.app.config.domain)
    )));
    assert!(page.contains("<strong class=\"app-name\">Tusky</strong>"));
    assert!(page.contains("<a href=\"https://tusky.example/about\""));
    for scope in scopes {
        let line = format!(
            "<span class=\"words\">{}</span> <code>{scope}</code>",
            escape(describe(scope).unwrap())
        );
        assert!(page.contains(&line), "{scope}: {page}");
    }
    // read:statuses is part of read, asked too: it is listed under it.
    assert!(
        page.contains("<code>read</code><ul><li data-scope=\"read:statuses\">"),
        "{page}"
    );
    assert!(page.contains("<li class=\"admin\" data-scope=\"admin:read\">"));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_app_names_and_websites_are_escaped() {
    let s = TestServer::start().await;
    let client_id = register(&s, HOSTILE_NAME, HOSTILE_WEBSITE, "read").await;
    let r = s
        .client
        .get(&authorize_path(&client_id, "read"), None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert_a_plain_page(&r);
    assert!(
        r.text.contains(&format!(
            "<strong class=\"app-name\">{}</strong>",
            escape(HOSTILE_NAME)
        )),
        "{}",
        r.text
    );
    assert!(r.text.contains(&format!(
        "<a href=\"{}\" rel=\"noopener noreferrer nofollow\">",
        escape(HOSTILE_WEBSITE)
    )));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_sign_in_shows_an_alert_and_the_same_form() {
    let s = TestServer::start().await;
    s.user("ada").await;
    let client_id = register(&s, "App", "", "read").await;
    let fields = |password: &'static str| {
        form(&[
            ("response_type", "code"),
            ("client_id", client_id.as_str()),
            ("redirect_uri", REDIRECT),
            ("scope", "read"),
            ("state", "s1"),
            ("code_challenge", ""),
            ("code_challenge_method", ""),
            ("username", "ada"),
            ("password", password),
            ("decision", "approve"),
        ])
    };
    let r = s
        .client
        .post(AuthorizeDecision::PATH, None, fields("wrong"))
        .await
        .unwrap();
    assert_eq!(r.status, 401, "{}", r.text);
    assert_a_plain_page(&r);
    assert!(r.text.contains(
        "<div class=\"alert\" role=\"alert\">Invalid username, e-mail or password.</div>"
    ));
    assert!(r.text.contains("This app gives no website."));
    assert!(r.text.contains("name=\"username\""));
    assert!(r.text.contains("value=\"ada\""));
    assert!(
        r.text
            .contains("<input type=\"hidden\" name=\"state\" value=\"s1\">")
    );
    // The same fields with the right password let the app in.
    let r = s
        .client
        .post(AuthorizeDecision::PATH, None, fields(PASSWORD))
        .await
        .unwrap();
    assert_eq!(r.status, 302, "{}", r.text);
    let to = r.header("location").unwrap();
    assert!(to.starts_with(REDIRECT) && to.contains("code="), "{to}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_error_and_confirmation_pages_share_the_layout() {
    let s = TestServer::start_with(|c| c.title = "Harbour".into()).await;
    // An unknown client cannot be sent back to: an error page.
    let r = s
        .client
        .get(&authorize_path("no-such-client", "read"), None)
        .await
        .unwrap();
    assert!((400..500).contains(&r.status), "{} {}", r.status, r.text);
    assert_a_plain_page(&r);
    assert!(r.text.contains("<span class=\"name\">Harbour</span>"));
    assert!(r.text.contains("role=\"alert\""));

    // A confirmation link, then the same link again.
    let (_, _, token) = s
        .app
        .accounts()
        .create_local_account(
            NewAccount {
                username: "newbie".into(),
                email: "newbie@example.com".into(),
                password: PASSWORD.into(),
                role: Role::User,
                confirmed: false,
                approved: true,
                locale: "en".into(),
            },
            true,
        )
        .await
        .unwrap();
    let link = format!(
        "{}?{}",
        ConfirmEmail::PATH,
        query(&[("confirmation_token", token.unwrap())])
    );
    let r = s.client.get(&link, None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert_a_plain_page(&r);
    assert!(r.text.contains("<span class=\"name\">Harbour</span>"));
    assert!(
        r.text
            .contains("The e-mail address of <strong>@newbie</strong> on Harbour is confirmed.")
    );
    assert!(r.text.contains("You can sign in now"));
    let r = s.client.get(&link, None).await.unwrap();
    assert_eq!(r.status, 404, "{}", r.text);
    assert_a_plain_page(&r);
    assert!(r.text.contains(
        "<div class=\"alert\" role=\"alert\">This confirmation link is invalid or was already used.</div>"
    ));
    s.stop().await;
}
