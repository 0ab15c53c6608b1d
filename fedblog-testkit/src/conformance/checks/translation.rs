//! Translation: `POST /api/v1/statuses/:id/translate` and
//! `GET /api/v1/instance/translation_languages`, the paths that hold whether or not the server
//! has a translation backend (a status the viewer may not see is a 404, a followers-only status
//! is never translated, a missing token is a 401), and what a server without a backend answers
//! (the v2 instance says translation is disabled, no language pairs, translating is a 403 as in
//! Mastodon). Translations themselves need a backend; the reference server's tests run one.

use serde_json::Value;

use fedblog_core::api::accounts::follow_account::FollowAccount;
use fedblog_core::api::instance::{
    instance_v2::InstanceV2, translation_languages::TranslationLanguages,
};
use fedblog_core::api::statuses::translate_status::TranslateStatus;

use crate::check;
use crate::client::{Response, form};
use crate::conformance::checks::social::act;
use crate::conformance::{Check, CheckResult, Cx, Failure, expect_error, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "translation/languages-public",
            "GET /api/v1/instance/translation_languages answers without a token an object whose values are arrays of language codes",
            languages_public
        ),
        check!(
            "translation/disabled",
            "a server whose v2 instance says configuration.translation.enabled false lists no language pairs ({}) and answers a translation request for a public status with 403 {\"error\": ...}, as Mastodon does without a translation service",
            disabled
        ),
        check!(
            "translation/invisible-404",
            "translating a status the caller may not see (followers-only or direct to someone else, unknown or malformed id) is a 404, never 401/403",
            invisible_404
        ),
        check!(
            "translation/private-403",
            "translating a followers-only status the caller may see is a 403 {\"error\": ...}: only public and unlisted statuses are translated",
            private_403
        ),
        check!(
            "translation/missing-token-401",
            "POST /api/v1/statuses/:id/translate without a token, or with an invalid one, is a 401",
            missing_token_401
        ),
    ]
}

async fn translate(
    cx: &Cx,
    id: &str,
    token: Option<&str>,
    pairs: &[(&str, &str)],
) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(&path::<TranslateStatus>(&[("id", id)]), token, form(pairs))
        .await?)
}

/// `configuration.translation.enabled` of the v2 instance.
async fn translation_enabled(cx: &Cx) -> Result<bool, Failure> {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    let v = r.json()?;
    v.pointer("/configuration/translation/enabled")
        .and_then(Value::as_bool)
        .ok_or_else(|| {
            Failure::Fail(format!(
                "the v2 instance has no boolean configuration.translation.enabled: {}",
                v.pointer("/configuration").cloned().unwrap_or(Value::Null)
            ))
        })
}

async fn languages_public(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(&path::<TranslationLanguages>(&[]), None)
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    let map = v
        .as_object()
        .ok_or_else(|| Failure::Fail(format!("translation_languages is not an object: {v}")))?;
    for (source, targets) in map {
        let targets = targets.as_array().ok_or_else(|| {
            Failure::Fail(format!(
                "the targets of {source:?} are not an array: {targets}"
            ))
        })?;
        ensure!(
            targets
                .iter()
                .all(|t| t.as_str().is_some_and(|s| !s.is_empty())),
            "the targets of {source:?} are not all language codes: {targets:?}"
        );
    }
    Ok(())
}

async fn disabled(cx: &Cx) -> CheckResult {
    if translation_enabled(cx).await? {
        return Err(Failure::NotRun(
            "the server has translation enabled; this check holds a server without a translation service".into(),
        ));
    }
    let r = cx
        .client
        .get(&path::<TranslationLanguages>(&[]), None)
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v.as_object().is_some_and(|m| m.is_empty()),
        "translation is disabled but translation_languages is not {{}}: {v}"
    );
    let author = cx.new_user("speaker").await?;
    let reader = cx.new_user("reader").await?;
    let status = cx
        .post_status(
            &author,
            &[("status", "Guten Morgen, Welt"), ("language", "de")],
        )
        .await?;
    let id = str_of(&status, "id")?;
    for lang in [Some("en"), None] {
        let pairs: Vec<(&str, &str)> = lang.map(|l| ("lang", l)).into_iter().collect();
        expect_error(
            &translate(cx, &id, Some(&reader.token), &pairs).await?,
            403,
            &format!(
                "translating a public status without a translation service (lang {})",
                lang.unwrap_or("absent")
            ),
        )?;
    }
    Ok(())
}

async fn invisible_404(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let stranger = cx.new_user("stranger").await?;
    let other = cx.new_user("other").await?;
    let private = cx
        .post_status(
            &author,
            &[
                ("status", "Nur für Freunde"),
                ("visibility", "private"),
                ("language", "de"),
            ],
        )
        .await?;
    let mention = format!("@{} unter uns", other.username);
    let direct = cx
        .post_status(
            &author,
            &[
                ("status", mention.as_str()),
                ("visibility", "direct"),
                ("language", "de"),
            ],
        )
        .await?;
    for (what, status) in [("followers-only", &private), ("direct", &direct)] {
        let id = str_of(status, "id")?;
        expect_error(
            &translate(cx, &id, Some(&stranger.token), &[("lang", "en")]).await?,
            404,
            &format!("translating a {what} status the caller may not see"),
        )?;
    }
    for id in ["999999999999999999", "not-an-id"] {
        expect_error(
            &translate(cx, id, Some(&stranger.token), &[("lang", "en")]).await?,
            404,
            &format!("translating the unknown status {id}"),
        )?;
    }
    Ok(())
}

async fn private_403(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let follower = cx.new_user("follower").await?;
    act::<FollowAccount>(cx, &follower, &author, &[]).await?;
    let status = cx
        .post_status(
            &author,
            &[
                ("status", "Nur für Freunde"),
                ("visibility", "private"),
                ("language", "de"),
            ],
        )
        .await?;
    let id = str_of(&status, "id")?;
    expect_error(
        &translate(cx, &id, Some(&follower.token), &[("lang", "en")]).await?,
        403,
        "a follower translating a followers-only status",
    )?;
    Ok(())
}

async fn missing_token_401(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let status = cx
        .post_status(&author, &[("status", "Bonjour"), ("language", "fr")])
        .await?;
    let id = str_of(&status, "id")?;
    expect_error(
        &translate(cx, &id, None, &[("lang", "en")]).await?,
        401,
        "translating without a token",
    )?;
    expect_error(
        &translate(cx, &id, Some("not-a-token"), &[("lang", "en")]).await?,
        401,
        "translating with an invalid token",
    )?;
    Ok(())
}
