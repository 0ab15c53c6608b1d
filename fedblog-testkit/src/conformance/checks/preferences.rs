//! The user's preferences (`GET /api/v1/preferences`): the posting defaults set through
//! `update_credentials`' `source[...]`, Mastodon's keys and types, and the default a status
//! posted without a visibility takes.

use fedblog_core::api::accounts::update_credentials::UpdateCredentials;
use fedblog_core::api::preferences::get_preferences::GetPreferences;

use crate::check;
use crate::client::form;
use crate::conformance::{Check, CheckResult, Cx, expect_error, path};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "preferences/reflect-source",
            "GET /api/v1/preferences answers Mastodon's keys with their types, and shows the posting defaults set through update_credentials (source[privacy], source[sensitive], source[language]); a status posted without a visibility takes the default",
            reflect_source
        ),
        check!(
            "preferences/no-token-401",
            "GET /api/v1/preferences without a token is a 401 with an {\"error\"} body",
            no_token
        ),
    ]
}

async fn reflect_source(cx: &Cx) -> CheckResult {
    let user = cx.new_user("prefs").await?;
    let before = cx
        .client
        .get(&path::<GetPreferences>(&[]), Some(&user.token))
        .await?;
    before.expect(200)?;
    let p = before.json()?;
    ensure!(
        p["posting:default:visibility"] == "public"
            && p["posting:default:sensitive"] == false
            && p["reading:expand:media"].is_string()
            && p["reading:expand:spoilers"].is_boolean(),
        "a new account's preferences: {}",
        before.text
    );
    cx.client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&user.token),
            form(&[
                ("source[privacy]", "unlisted"),
                ("source[sensitive]", "true"),
                ("source[language]", "de"),
            ]),
        )
        .await?
        .expect(200)?;
    let after = cx
        .client
        .get(&path::<GetPreferences>(&[]), Some(&user.token))
        .await?;
    after.expect(200)?;
    let p = after.json()?;
    ensure!(
        p["posting:default:visibility"] == "unlisted"
            && p["posting:default:sensitive"] == true
            && p["posting:default:language"] == "de",
        "after update_credentials with source[privacy]=unlisted, source[sensitive]=true, source[language]=de: {}",
        after.text
    );
    let status = cx
        .post_status(&user, &[("status", "posted with the defaults")])
        .await?;
    ensure!(
        status["visibility"] == "unlisted",
        "a status posted without a visibility: {}",
        status["visibility"]
    );
    Ok(())
}

async fn no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<GetPreferences>(&[]), None).await?;
    expect_error(&r, 401, "GET /api/v1/preferences without a token")
}
