//! Web Push subscriptions (`/api/v1/push/subscription`): one per access token, with alerts per
//! notification type and a `policy`; 404 when none exists (a specification rule); the server's
//! key the same in the subscription, the instance and the application; invalid endpoints and
//! keys refused with 422; the specification's `POST /api/v1/push/subscriptions`.
//!
//! The endpoints given are on a closed loopback port: a server that tried to deliver to them
//! would reach nothing, and no check makes a notification for these users.

use fedblog_core::api::apps::create_app::CreateApp;
use fedblog_core::api::instance::instance_v2::InstanceV2;
use fedblog_core::api::push::create_subscription::CreateSubscription;
use fedblog_core::api::push::create_subscriptions::CreateSubscriptions;
use fedblog_core::api::push::get_subscription::GetSubscription;
use fedblog_core::api::push::update_subscription::UpdateSubscription;
use serde_json::Value;

use crate::check;
use crate::client::form;
use crate::conformance::{Check, CheckResult, Cx, User, expect_error, path};
use crate::ensure;

/// A receiver's public key and auth secret (the example keys of RFC 8291, appendix A).
const P256DH: &str =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";

/// The alerts every subscription shows (Mastodon documents these ten).
const DOCUMENTED_ALERTS: [&str; 10] = [
    "mention",
    "status",
    "reblog",
    "follow",
    "follow_request",
    "favourite",
    "poll",
    "update",
    "admin.sign_up",
    "admin.report",
];

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "push/none-is-404",
            "GET /api/v1/push/subscription of a token without a subscription is a 404 with an {\"error\"} body (specification rule), and so is PUT",
            none_is_404
        ),
        check!(
            "push/create-shows-alerts-policy-and-key",
            "POST /api/v1/push/subscription answers the subscription: the endpoint, every documented alert as a boolean (on as asked, the admin ones included), the policy, and a server_key equal to the instance's configuration.vapid.public_key; GET answers the same",
            create_shows
        ),
        check!(
            "push/one-per-token",
            "a second POST /api/v1/push/subscription with the same token replaces the first: GET shows the second endpoint and alerts",
            one_per_token
        ),
        check!(
            "push/update-alerts-and-policy",
            "PUT /api/v1/push/subscription changes data[alerts] and data[policy] and keeps the endpoint",
            update
        ),
        check!(
            "push/delete",
            "DELETE /api/v1/push/subscription answers {} and GET is a 404 afterwards; deleting again is still {}",
            delete
        ),
        check!(
            "push/invalid-422",
            "POST /api/v1/push/subscription with a missing or non-URL endpoint, a p256dh that is no P-256 point, an auth secret of the wrong length or an unknown policy is a 422 with an {\"error\"} body, and keeps nothing",
            invalid
        ),
        check!(
            "push/subscriptions-path",
            "POST /api/v1/push/subscriptions (the path the specification writes) creates the subscription with its alerts and policy",
            plural_path
        ),
        check!(
            "push/app-vapid-key",
            "the vapid_key of a new application (POST /api/v1/apps) is the instance's configuration.vapid.public_key",
            app_vapid_key
        ),
        check!(
            "push/no-token-401",
            "GET /api/v1/push/subscription without a token is a 401 with an {\"error\"} body",
            no_token
        ),
    ]
}

/// An endpoint no one listens on.
fn endpoint(cx: &Cx, what: &str) -> String {
    format!("https://127.0.0.1:1/conformance-push/{}", cx.unique(what))
}

/// The pairs of a create with `alerts` on (the others off) and `policy`.
fn create_pairs(endpoint: &str, on: &[&str], policy: Option<&str>) -> Vec<(String, String)> {
    let mut pairs = vec![
        ("subscription[endpoint]".to_string(), endpoint.to_string()),
        ("subscription[keys][p256dh]".to_string(), P256DH.to_string()),
        ("subscription[keys][auth]".to_string(), AUTH.to_string()),
        ("subscription[standard]".to_string(), "true".to_string()),
    ];
    for alert in DOCUMENTED_ALERTS {
        pairs.push((
            format!("data[alerts][{alert}]"),
            on.contains(&alert).to_string(),
        ));
    }
    if let Some(p) = policy {
        pairs.push(("data[policy]".to_string(), p.to_string()));
    }
    pairs
}

/// Creates a subscription for `user` (the subject of the checks that call it).
async fn subscribe(
    cx: &Cx,
    user: &User,
    endpoint: &str,
    on: &[&str],
    policy: Option<&str>,
) -> Result<Value, crate::conformance::Failure> {
    let r = cx
        .client
        .post(
            &path::<CreateSubscription>(&[]),
            Some(&user.token),
            form(&create_pairs(endpoint, on, policy)),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Fails unless `sub` has `endpoint`, the alerts of `on` on and the other documented ones off,
/// and `policy`.
fn ensure_shape(sub: &Value, endpoint: &str, on: &[&str], policy: &str, what: &str) -> CheckResult {
    ensure!(
        sub["endpoint"] == endpoint,
        "{what}: endpoint {} instead of {endpoint}",
        sub["endpoint"]
    );
    for alert in DOCUMENTED_ALERTS {
        ensure!(
            sub["alerts"][alert] == on.contains(&alert),
            "{what}: alerts[{alert}] is {} (asked {})",
            sub["alerts"][alert],
            on.contains(&alert)
        );
    }
    ensure!(
        sub["policy"] == policy,
        "{what}: policy {} instead of {policy}",
        sub["policy"]
    );
    ensure!(
        sub["id"].is_string() || sub["id"].is_number(),
        "{what}: no id"
    );
    Ok(())
}

/// Fails unless the current subscription of `user` (GET) is as [`ensure_shape`] wants it.
async fn ensure_current(
    cx: &Cx,
    user: &User,
    endpoint: &str,
    on: &[&str],
    policy: &str,
    what: &str,
) -> CheckResult {
    let r = cx
        .client
        .get(&path::<GetSubscription>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    ensure_shape(r.json()?, endpoint, on, policy, what)
}

/// The instance's VAPID public key.
async fn instance_key(cx: &Cx) -> Result<String, crate::conformance::Failure> {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    let key = r.json()?["configuration"]["vapid"]["public_key"].clone();
    key.as_str().map(str::to_string).ok_or_else(|| {
        crate::conformance::Failure::Fail(format!(
            "GET /api/v2/instance has no configuration.vapid.public_key: {key}"
        ))
    })
}

async fn none_is_404(cx: &Cx) -> CheckResult {
    let user = cx.new_user("push404").await?;
    let r = cx
        .client
        .get(&path::<GetSubscription>(&[]), Some(&user.token))
        .await?;
    expect_error(
        &r,
        404,
        "GET /api/v1/push/subscription without a subscription",
    )?;
    let r = cx
        .send(
            "PUT",
            &path::<UpdateSubscription>(&[]),
            Some(&user.token),
            form(&[("data[alerts][mention]", "true")]),
        )
        .await?;
    expect_error(
        &r,
        404,
        "PUT /api/v1/push/subscription without a subscription",
    )
}

async fn create_shows(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pushnew").await?;
    let at = endpoint(cx, "create");
    let on = ["mention", "favourite", "admin.sign_up", "admin.report"];
    let sub = subscribe(cx, &user, &at, &on, Some("followed")).await?;
    ensure_shape(&sub, &at, &on, "followed", "the created subscription")?;
    let key = instance_key(cx).await?;
    ensure!(
        sub["server_key"] == key.as_str(),
        "server_key {} is not the instance's configuration.vapid.public_key {key}",
        sub["server_key"]
    );
    ensure!(!key.is_empty(), "the instance's VAPID key is empty");
    let r = cx
        .client
        .get(&path::<GetSubscription>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    let got = r.json()?;
    ensure_shape(got, &at, &on, "followed", "GET after POST")?;
    ensure!(
        got["id"] == sub["id"] && got["server_key"] == sub["server_key"],
        "GET answers another subscription: {} vs {}",
        got,
        sub
    );
    Ok(())
}

async fn one_per_token(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pushone").await?;
    let first = endpoint(cx, "first");
    let second = endpoint(cx, "second");
    subscribe(cx, &user, &first, &["mention"], None).await?;
    subscribe(cx, &user, &second, &["follow"], Some("follower")).await?;
    ensure_current(
        cx,
        &user,
        &second,
        &["follow"],
        "follower",
        "GET after a second POST",
    )
    .await
}

async fn update(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pushput").await?;
    let at = endpoint(cx, "update");
    subscribe(cx, &user, &at, &["mention"], Some("all")).await?;
    let mut pairs: Vec<(String, String)> = DOCUMENTED_ALERTS
        .iter()
        .map(|a| {
            (
                format!("data[alerts][{a}]"),
                ["poll", "reblog"].contains(a).to_string(),
            )
        })
        .collect();
    pairs.push(("data[policy]".into(), "none".into()));
    let r = cx
        .send(
            "PUT",
            &path::<UpdateSubscription>(&[]),
            Some(&user.token),
            form(&pairs),
        )
        .await?;
    r.expect(200)?;
    ensure_shape(
        r.json()?,
        &at,
        &["poll", "reblog"],
        "none",
        "the PUT answer",
    )?;
    ensure_current(cx, &user, &at, &["poll", "reblog"], "none", "GET after PUT").await
}

async fn delete(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pushdel").await?;
    subscribe(cx, &user, &endpoint(cx, "delete"), &["mention"], None).await?;
    for round in ["DELETE", "DELETE again"] {
        let r = cx
            .client
            .delete(&path::<GetSubscription>(&[]), Some(&user.token))
            .await?;
        r.expect(200)?;
        ensure!(
            r.json()?.as_object().is_some_and(|o| o.is_empty()),
            "{round} answers {} instead of {{}}",
            r.text
        );
    }
    let r = cx
        .client
        .get(&path::<GetSubscription>(&[]), Some(&user.token))
        .await?;
    expect_error(&r, 404, "GET after DELETE /api/v1/push/subscription")
}

async fn invalid(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pushbad").await?;
    let good = endpoint(cx, "invalid");
    let cases: [(&str, Vec<(String, String)>); 5] = [
        ("no endpoint", {
            let mut p = create_pairs(&good, &["mention"], None);
            p.retain(|(k, _)| k != "subscription[endpoint]");
            p
        }),
        (
            "an endpoint that is no URL",
            create_pairs("not a url", &["mention"], None),
        ),
        ("a p256dh that is no P-256 point", {
            let mut p = create_pairs(&good, &["mention"], None);
            for (k, v) in p.iter_mut() {
                if k == "subscription[keys][p256dh]" {
                    *v = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".into();
                }
            }
            p
        }),
        ("an auth secret of 3 bytes", {
            let mut p = create_pairs(&good, &["mention"], None);
            for (k, v) in p.iter_mut() {
                if k == "subscription[keys][auth]" {
                    *v = "AAAA".into();
                }
            }
            p
        }),
        (
            "an unknown policy",
            create_pairs(&good, &["mention"], Some("friends-of-friends")),
        ),
    ];
    for (what, pairs) in cases {
        let r = cx
            .client
            .post(
                &path::<CreateSubscription>(&[]),
                Some(&user.token),
                form(&pairs),
            )
            .await?;
        expect_error(
            &r,
            422,
            &format!("POST /api/v1/push/subscription with {what}"),
        )?;
    }
    let r = cx
        .client
        .get(&path::<GetSubscription>(&[]), Some(&user.token))
        .await?;
    expect_error(&r, 404, "GET after refused subscriptions")
}

async fn plural_path(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pushplural").await?;
    let at = endpoint(cx, "plural");
    let r = cx
        .client
        .post(
            &path::<CreateSubscriptions>(&[]),
            Some(&user.token),
            form(&create_pairs(&at, &["status", "update"], Some("follower"))),
        )
        .await?;
    r.expect(200)?;
    ensure_shape(
        r.json()?,
        &at,
        &["status", "update"],
        "follower",
        "POST /api/v1/push/subscriptions",
    )?;
    ensure_current(
        cx,
        &user,
        &at,
        &["status", "update"],
        "follower",
        "GET after POST /api/v1/push/subscriptions",
    )
    .await
}

async fn app_vapid_key(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .post(
            &path::<CreateApp>(&[]),
            None,
            form(&[
                ("client_name", "fedblog conformance push"),
                ("redirect_uris", "urn:ietf:wg:oauth:2.0:oob"),
                ("scopes", "read push"),
            ]),
        )
        .await?;
    r.expect(200)?;
    let app_key = r.json()?["vapid_key"].clone();
    let key = instance_key(cx).await?;
    ensure!(
        app_key == key.as_str(),
        "the application's vapid_key {app_key} is not the instance's {key}"
    );
    Ok(())
}

async fn no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<GetSubscription>(&[]), None).await?;
    expect_error(&r, 401, "GET /api/v1/push/subscription without a token")
}
