//! Server-wide blocks and allows through the admin API: domain blocks, domain allows, e-mail
//! domain blocks, canonical e-mail blocks and IP blocks, and what sign-ups make of them.

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::register_account::RegisterAccount;
use fedblog_core::api::admin_canonical_email_blocks::{
    create_canonical_email_block::CreateAdminCanonicalEmailBlock,
    delete_canonical_email_block::DeleteAdminCanonicalEmailBlock,
    get_canonical_email_block::GetAdminCanonicalEmailBlock,
    list_canonical_email_blocks::ListAdminCanonicalEmailBlocks,
    test_canonical_email::TestCanonicalEmail,
};
use fedblog_core::api::admin_domain_allows::{
    create_domain_allow::CreateAdminDomainAllow, get_domain_allow::GetAdminDomainAllow,
    list_domain_allows::ListAdminDomainAllows,
};
use fedblog_core::api::admin_domain_blocks::{
    create_domain_block::CreateAdminDomainBlock, delete_domain_block::DeleteAdminDomainBlock,
    get_domain_block::GetAdminDomainBlock, list_domain_blocks::ListAdminDomainBlocks,
    update_domain_block::UpdateAdminDomainBlock,
};
use fedblog_core::api::admin_email_domain_blocks::{
    create_email_domain_block::CreateAdminEmailDomainBlock,
    delete_email_domain_block::DeleteAdminEmailDomainBlock,
    get_email_domain_block::GetAdminEmailDomainBlock,
    list_email_domain_blocks::ListAdminEmailDomainBlocks,
};
use fedblog_core::api::admin_ip_blocks::{
    create_ip_block::CreateAdminIpBlock, delete_ip_block::DeleteAdminIpBlock,
    get_ip_block::GetAdminIpBlock, list_ip_blocks::ListAdminIpBlocks,
    update_ip_block::UpdateAdminIpBlock,
};
use fedblog_core::api::instance::instance_v2::InstanceV2;
use serde_json::Value;

use crate::check;
use crate::client::{Response, form};
use crate::conformance::{Check, CheckResult, Cx, Failure, expect_error, ids_of, path};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "admin/domain-blocks/lifecycle",
            "an administrator blocks a domain (severity, comments, flags and a SHA-256 digest shown), reads it alone and in the list, changes it with PUT, and lifts it (then 404)",
            domain_block_lifecycle
        ),
        check!(
            "admin/domain-blocks/validation",
            "blocking a domain twice, an unknown severity or a string that is not a domain are 422s with an {\"error\"} body",
            domain_block_validation
        ),
        check!(
            "admin/domain-allows/get-and-repeat",
            "allowing an allowed domain again answers the same allow, readable by id",
            domain_allow_repeat
        ),
        check!(
            "admin/email-domain-blocks/lifecycle",
            "an administrator refuses an e-mail domain (listed, readable by id, a second block a 422) and lifts it",
            email_domain_block_lifecycle
        ),
        check!(
            "admin/email-domain-blocks/sign-up-refused",
            "a sign-up with an address at a refused e-mail domain or one of its subdomains is a 422, and succeeds once the block is lifted",
            email_domain_block_refuses_sign_up
        ),
        check!(
            "admin/canonical-email-blocks/test",
            "a canonical e-mail block made from an address matches the same address with dots and a +suffix added (POST .../test), not another one, is read by id (404 once deleted), and a sign-up with it is a 422",
            canonical_email_block
        ),
        check!(
            "admin/ip-blocks/lifecycle",
            "an administrator blocks an IP range (normalised to CIDR, with severity, comment and expiry), changes and lifts it; a missing severity or an invalid address is a 422",
            ip_block_lifecycle
        ),
        check!(
            "admin/blocks/refused-to-users",
            "a normal user's token is refused (403 with an {\"error\"} body) on every server-wide block list",
            refused_to_users
        ),
    ]
}

fn id_of(r: &Response) -> Result<String, Failure> {
    r.json()?["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| Failure::Fail(format!("no string id in {}", r.text)))
}

fn domain(cx: &Cx, prefix: &str) -> String {
    format!("{}.example", cx.unique(prefix).replace('_', "-"))
}

async fn domain_block_lifecycle(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let d = domain(cx, "blocked");
    let r = cx
        .client
        .post(
            &path::<CreateAdminDomainBlock>(&[]),
            Some(&admin),
            form(&[
                ("domain", d.as_str()),
                ("severity", "suspend"),
                ("reject_media", "true"),
                ("public_comment", "spam source"),
                ("private_comment", "seen in reports"),
            ]),
        )
        .await?;
    r.expect(200)?;
    let id = id_of(&r)?;
    let b = r.json()?;
    ensure!(
        b["domain"] == d.as_str()
            && b["severity"] == "suspend"
            && b["reject_media"] == true
            && b["reject_reports"] == false
            && b["public_comment"] == "spam source"
            && b["private_comment"] == "seen in reports"
            && b["digest"].as_str().is_some_and(|s| s.len() == 64),
        "the new block reads {}",
        r.text
    );
    let one = cx
        .client
        .get(&path::<GetAdminDomainBlock>(&[("id", &id)]), Some(&admin))
        .await?;
    one.expect(200)?;
    ensure!(
        one.json()?["domain"] == d.as_str(),
        "GET by id: {}",
        one.text
    );
    let list = cx
        .client
        .get(&path::<ListAdminDomainBlocks>(&[]), Some(&admin))
        .await?;
    list.expect(200)?;
    ensure!(
        ids_of(list.json()?).contains(&id),
        "the block {id} is not listed: {}",
        list.text
    );
    let changed = cx
        .send(
            "PUT",
            &path::<UpdateAdminDomainBlock>(&[("id", &id)]),
            Some(&admin),
            form(&[("severity", "silence")]),
        )
        .await?;
    changed.expect(200)?;
    ensure!(
        changed.json()?["severity"] == "silence" && changed.json()?["reject_media"] == true,
        "after PUT severity=silence: {}",
        changed.text
    );
    cx.client
        .delete(
            &path::<DeleteAdminDomainBlock>(&[("id", &id)]),
            Some(&admin),
        )
        .await?
        .expect(200)?;
    let gone = cx
        .client
        .get(&path::<GetAdminDomainBlock>(&[("id", &id)]), Some(&admin))
        .await?;
    expect_error(&gone, 404, "GET of a lifted domain block")
}

async fn domain_block_validation(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let d = domain(cx, "twice");
    let create = |pairs: Vec<(&'static str, String)>| {
        let admin = admin.clone();
        async move {
            let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
            cx.client
                .post(
                    &path::<CreateAdminDomainBlock>(&[]),
                    Some(&admin),
                    form(&pairs),
                )
                .await
        }
    };
    let first = create(vec![("domain", d.clone())]).await?;
    first.expect(200)?;
    let id = id_of(&first)?;
    let again = create(vec![("domain", d.clone())]).await?;
    let outcome = expect_error(&again, 422, "blocking a blocked domain again");
    let bad_severity = create(vec![
        ("domain", domain(cx, "sev")),
        ("severity", "obliterate".into()),
    ])
    .await?;
    let bad_domain = create(vec![("domain", "not a domain/x".into())]).await?;
    cx.client
        .delete(
            &path::<DeleteAdminDomainBlock>(&[("id", &id)]),
            Some(&admin),
        )
        .await?
        .expect(200)?;
    outcome?;
    expect_error(&bad_severity, 422, "an unknown severity")?;
    expect_error(&bad_domain, 422, "a domain with a space and a path")
}

async fn domain_allow_repeat(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let d = domain(cx, "allowed");
    let allow = || {
        cx.client.post(
            CreateAdminDomainAllow::PATH,
            Some(&admin),
            form(&[("domain", d.as_str())]),
        )
    };
    let first = allow().await?;
    first.expect(200)?;
    let second = allow().await?;
    second.expect(200)?;
    let id = id_of(&first)?;
    ensure!(
        id_of(&second)? == id,
        "allowing {d} twice made two allows: {} and {}",
        first.text,
        second.text
    );
    let one = cx
        .client
        .get(&path::<GetAdminDomainAllow>(&[("id", &id)]), Some(&admin))
        .await?;
    one.expect(200)?;
    ensure!(
        one.json()?["domain"] == d.as_str(),
        "GET by id: {}",
        one.text
    );
    Ok(())
}

async fn block_email_domain(cx: &Cx, admin: &str, d: &str) -> Result<String, Failure> {
    let r = cx
        .client
        .post(
            &path::<CreateAdminEmailDomainBlock>(&[]),
            Some(admin),
            form(&[("domain", d)]),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["domain"] == d && r.json()?["history"].is_array(),
        "the new e-mail domain block reads {}",
        r.text
    );
    id_of(&r)
}

async fn email_domain_block_lifecycle(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let d = domain(cx, "mailer");
    let id = block_email_domain(cx, &admin, &d).await?;
    let list = cx
        .client
        .get(&path::<ListAdminEmailDomainBlocks>(&[]), Some(&admin))
        .await?;
    list.expect(200)?;
    let listed = ids_of(list.json()?).contains(&id);
    let one = cx
        .client
        .get(
            &path::<GetAdminEmailDomainBlock>(&[("id", &id)]),
            Some(&admin),
        )
        .await?;
    let again = cx
        .client
        .post(
            &path::<CreateAdminEmailDomainBlock>(&[]),
            Some(&admin),
            form(&[("domain", d.as_str())]),
        )
        .await?;
    cx.client
        .delete(
            &path::<DeleteAdminEmailDomainBlock>(&[("id", &id)]),
            Some(&admin),
        )
        .await?
        .expect(200)?;
    ensure!(listed, "the block {id} is not listed: {}", list.text);
    one.expect(200)?;
    expect_error(&again, 422, "refusing a refused e-mail domain again")
}

/// Registrations must be open for the sign-up checks.
async fn require_open_registrations(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    if r.json()?["registrations"]["enabled"] == Value::Bool(false) {
        return Err(Failure::NotRun(
            "registrations are closed on this server".into(),
        ));
    }
    Ok(())
}

async fn sign_up(cx: &Cx, email: &str) -> Result<Response, Failure> {
    let app = cx.new_app("read write").await?;
    let token = cx.app_token(&app, "read write").await?;
    let username = cx.unique("signup");
    Ok(cx
        .client
        .post(
            &path::<RegisterAccount>(&[]),
            Some(&token),
            form(&[
                ("username", username.as_str()),
                ("email", email),
                ("password", "Conformance-Passw0rd-42"),
                ("agreement", "true"),
                ("locale", "en"),
            ]),
        )
        .await?)
}

async fn email_domain_block_refuses_sign_up(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    require_open_registrations(cx).await?;
    let d = domain(cx, "refused");
    let id = block_email_domain(cx, &admin, &d).await?;
    let at_domain = sign_up(cx, &format!("{}@{d}", cx.unique("m"))).await?;
    let at_sub = sign_up(cx, &format!("{}@mx.{d}", cx.unique("m"))).await?;
    cx.client
        .delete(
            &path::<DeleteAdminEmailDomainBlock>(&[("id", &id)]),
            Some(&admin),
        )
        .await?
        .expect(200)?;
    expect_error(
        &at_domain,
        422,
        "signing up with an address at a refused domain",
    )?;
    expect_error(
        &at_sub,
        422,
        "signing up with an address at a subdomain of one",
    )?;
    let after = sign_up(cx, &format!("{}@{d}", cx.unique("m"))).await?;
    after.expect(200)?;
    Ok(())
}

async fn canonical_email_block(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let local = cx.unique("canon").replace('_', "");
    let d = domain(cx, "canon");
    let r = cx
        .client
        .post(
            &path::<CreateAdminCanonicalEmailBlock>(&[]),
            Some(&admin),
            form(&[("email", format!("{local}@{d}").as_str())]),
        )
        .await?;
    r.expect(200)?;
    let id = id_of(&r)?;
    ensure!(
        r.json()?["canonical_email_hash"]
            .as_str()
            .is_some_and(|h| h.len() == 64),
        "the new block reads {}",
        r.text
    );
    let variant = format!("{}.{}+news@{}", &local[..2], &local[2..], d.to_uppercase());
    let test = |email: String| {
        let admin = admin.clone();
        async move {
            cx.client
                .post(
                    &path::<TestCanonicalEmail>(&[]),
                    Some(&admin),
                    form(&[("email", email.as_str())]),
                )
                .await
        }
    };
    let hit = test(variant.clone()).await?;
    let miss = test(format!("other{local}@{d}")).await?;
    let list = cx
        .client
        .get(&path::<ListAdminCanonicalEmailBlocks>(&[]), Some(&admin))
        .await?;
    let one = cx
        .client
        .get(
            &path::<GetAdminCanonicalEmailBlock>(&[("id", &id)]),
            Some(&admin),
        )
        .await?;
    let registration = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    let open = registration.json()?["registrations"]["enabled"] != Value::Bool(false);
    let signed_up = if open {
        Some(sign_up(cx, &variant).await?)
    } else {
        None
    };
    cx.client
        .delete(
            &path::<DeleteAdminCanonicalEmailBlock>(&[("id", &id)]),
            Some(&admin),
        )
        .await?
        .expect(200)?;
    hit.expect(200)?;
    ensure!(
        ids_of(hit.json()?) == vec![id.clone()],
        "testing {variant} found {}",
        hit.text
    );
    miss.expect(200)?;
    ensure!(
        ids_of(miss.json()?).is_empty(),
        "testing another address found {}",
        miss.text
    );
    list.expect(200)?;
    ensure!(
        ids_of(list.json()?).contains(&id),
        "the block {id} is not listed: {}",
        list.text
    );
    one.expect(200)?;
    ensure!(
        one.json()?["id"] == id.as_str(),
        "GET of the block {id} reads {}",
        one.text
    );
    let gone = cx
        .client
        .get(
            &path::<GetAdminCanonicalEmailBlock>(&[("id", &id)]),
            Some(&admin),
        )
        .await?;
    expect_error(&gone, 404, "GET of a deleted canonical e-mail block")?;
    if let Some(r) = signed_up {
        expect_error(&r, 422, "signing up with a blocked canonical address")?;
    }
    Ok(())
}

async fn ip_block_lifecycle(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    // A documentation range (RFC 5737), picked per run so that runs do not collide.
    let spread: u32 = cx.unique("ip").bytes().map(u32::from).sum::<u32>() % 240;
    let range = format!("198.51.100.{}/32", 10 + spread);
    let r = cx
        .client
        .post(
            &path::<CreateAdminIpBlock>(&[]),
            Some(&admin),
            form(&[
                ("ip", range.as_str()),
                ("severity", "sign_up_block"),
                ("comment", "conformance"),
                ("expires_in", "3600"),
            ]),
        )
        .await?;
    r.expect(200)?;
    let id = id_of(&r)?;
    let b = r.json()?.clone();
    let one = cx
        .client
        .get(&path::<GetAdminIpBlock>(&[("id", &id)]), Some(&admin))
        .await?;
    let list = cx
        .client
        .get(&path::<ListAdminIpBlocks>(&[]), Some(&admin))
        .await?;
    let changed = cx
        .send(
            "PUT",
            &path::<UpdateAdminIpBlock>(&[("id", &id)]),
            Some(&admin),
            form(&[("severity", "sign_up_requires_approval")]),
        )
        .await?;
    let no_severity = cx
        .client
        .post(
            &path::<CreateAdminIpBlock>(&[]),
            Some(&admin),
            form(&[("ip", "198.51.100.250")]),
        )
        .await?;
    let bad_ip = cx
        .client
        .post(
            &path::<CreateAdminIpBlock>(&[]),
            Some(&admin),
            form(&[("ip", "not-an-ip"), ("severity", "no_access")]),
        )
        .await?;
    cx.client
        .delete(&path::<DeleteAdminIpBlock>(&[("id", &id)]), Some(&admin))
        .await?
        .expect(200)?;
    ensure!(
        b["ip"]
            .as_str()
            .is_some_and(|ip| ip.starts_with("198.51.100."))
            && b["severity"] == "sign_up_block"
            && b["comment"] == "conformance"
            && b["expires_at"].is_string(),
        "the new IP block reads {b}"
    );
    one.expect(200)?;
    list.expect(200)?;
    ensure!(
        ids_of(list.json()?).contains(&id),
        "the block {id} is not listed: {}",
        list.text
    );
    changed.expect(200)?;
    ensure!(
        changed.json()?["severity"] == "sign_up_requires_approval",
        "after PUT: {}",
        changed.text
    );
    expect_error(&no_severity, 422, "an IP block without a severity")?;
    expect_error(
        &bad_ip,
        422,
        "an IP block of something that is not an address",
    )?;
    let gone = cx
        .client
        .get(&path::<GetAdminIpBlock>(&[("id", &id)]), Some(&admin))
        .await?;
    expect_error(&gone, 404, "GET of a lifted IP block")
}

async fn refused_to_users(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let user = cx.new_user("plain").await?;
    for list in [
        ListAdminDomainBlocks::PATH,
        ListAdminDomainAllows::PATH,
        ListAdminEmailDomainBlocks::PATH,
        ListAdminCanonicalEmailBlocks::PATH,
        ListAdminIpBlocks::PATH,
    ] {
        let r = cx.client.get(list, Some(&user.token)).await?;
        expect_error(&r, 403, &format!("GET {list} with a normal user's token"))?;
    }
    Ok(())
}
