//! Hashtags as staff review them (`/api/v1/admin/tags`, served by Mastodon but undocumented):
//! the Admin::Tag entity, the review through PUT, and what an unusable tag does to new posts.

use fedblog_core::api::Endpoint;
use fedblog_core::api::admin_tags::{
    get_tag::GetAdminTag, list_tags::ListAdminTags, update_tag::UpdateAdminTag,
};
use fedblog_core::api::tags::get_tag::GetTag;

use crate::check;
use crate::client::form;
use crate::conformance::{Check, CheckResult, Cx, expect_error, ids_of, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "admin/tags/get-and-list",
            "a hashtag used in a post is listed in GET /api/v1/admin/tags and readable by id as an Admin::Tag (id, name, url, history, trendable, usable, requires_review); an unknown id is a 404",
            get_and_list
        ),
        check!(
            "admin/tags/review",
            "PUT /api/v1/admin/tags/:id records trendable and usable and marks the tag reviewed; a new post no longer carries a tag made unusable",
            review
        ),
        check!(
            "admin/tags/refused-to-users",
            "a normal user's token is refused (403 with an {\"error\"} body) on GET /api/v1/admin/tags",
            refused_to_users
        ),
    ]
}

/// Posts a status with a new hashtag; returns the hashtag's name and the tag's id.
async fn used_tag(cx: &Cx, prefix: &str) -> Result<(String, String), crate::conformance::Failure> {
    let user = cx.new_user(prefix).await?;
    let name = cx.unique(prefix).replace('_', "");
    cx.post_status(&user, &[("status", &format!("about #{name}"))])
        .await?;
    let tag = cx
        .client
        .get(&path::<GetTag>(&[("id", &name)]), None)
        .await?;
    tag.expect(200)?;
    Ok((name, str_of(tag.json()?, "id")?))
}

async fn get_and_list(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let (name, id) = used_tag(cx, "admintag").await?;
    let one = cx
        .client
        .get(&path::<GetAdminTag>(&[("id", &id)]), Some(&admin))
        .await?;
    one.expect(200)?;
    let t = one.json()?;
    ensure!(
        t["id"] == id.as_str()
            && t["name"]
                .as_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(&name))
            && t["url"].as_str().is_some_and(|u| u.starts_with("http"))
            && t["history"].as_array().is_some_and(|h| !h.is_empty())
            && t["trendable"].is_boolean()
            && t["usable"] == true
            && t["requires_review"] == true,
        "the tag as staff see it: {}",
        one.text
    );
    let list = cx
        .client
        .get(&format!("{}?limit=200", ListAdminTags::PATH), Some(&admin))
        .await?;
    list.expect(200)?;
    ensure!(
        ids_of(list.json()?).contains(&id),
        "the tag {id} is not listed: {}",
        list.text
    );
    let unknown = cx
        .client
        .get(&path::<GetAdminTag>(&[("id", "999999999")]), Some(&admin))
        .await?;
    expect_error(&unknown, 404, "GET of an unknown admin tag")
}

async fn review(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let (name, id) = used_tag(cx, "reviewtag").await?;
    let changed = cx
        .send(
            "PUT",
            &path::<UpdateAdminTag>(&[("id", &id)]),
            Some(&admin),
            form(&[("trendable", "true"), ("usable", "false")]),
        )
        .await?;
    changed.expect(200)?;
    let t = changed.json()?;
    ensure!(
        t["trendable"] == true && t["usable"] == false && t["requires_review"] == false,
        "after PUT trendable=true usable=false: {}",
        changed.text
    );
    let user = cx.new_user("reviewpost").await?;
    let status = cx
        .post_status(&user, &[("status", &format!("again #{name}"))])
        .await?;
    ensure!(
        status["tags"]
            .as_array()
            .is_some_and(|tags| tags.is_empty()),
        "a post with the unusable tag #{name} carries: {}",
        status["tags"]
    );
    Ok(())
}

async fn refused_to_users(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let user = cx.new_user("plaintags").await?;
    let r = cx
        .client
        .get(ListAdminTags::PATH, Some(&user.token))
        .await?;
    expect_error(&r, 403, "GET /api/v1/admin/tags with a normal user's token")
}
