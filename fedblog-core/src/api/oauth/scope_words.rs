//! What each OAuth scope lets an app do, in plain words, and the list the consent page shows
//! of the scopes an app asks for (a granular scope under its parent when both are asked).

use crate::content::escape;
use crate::scope::Scopes;

/// What `scope` lets an app do, for the person deciding; `None` for a scope this list does not
/// know (the page then names the scope alone).
pub fn describe(scope: &str) -> Option<&'static str> {
    Some(match scope {
        "read" => {
            "See everything in your account: posts, notifications, lists, follows and settings"
        }
        "write" => {
            "Change anything in your account: post, delete, follow, block and edit your profile"
        }
        "follow" => "See and change whom you follow, block and mute",
        "push" => "Receive your notifications as push messages",
        "crypto" => "Publish this device's encryption keys and exchange encrypted messages",
        "profile" => "See your profile (your name, avatar and bio) and nothing else",
        "admin:read" => "See the server's moderation data: every account, report and block",
        "admin:write" => {
            "Take moderation actions on the whole server: accounts, reports and blocks"
        }
        "read:accounts" => "See account information",
        "read:blocks" => "See whom you block",
        "read:bookmarks" => "See your bookmarks",
        "read:favourites" => "See your favourites",
        "read:filters" => "See your filters",
        "read:follows" => "See whom you follow and your follow requests",
        "read:lists" => "See your lists",
        "read:mutes" => "See whom you mute",
        "read:notifications" => "See your notifications",
        "read:search" => "Search on your behalf",
        "read:statuses" => "See posts, including the private ones you can see",
        "write:accounts" => "Change your profile and account settings",
        "write:blocks" => "Block and unblock accounts and domains",
        "write:bookmarks" => "Bookmark posts and remove bookmarks",
        "write:conversations" => "Mute and delete conversations",
        "write:favourites" => "Favourite posts and take favourites back",
        "write:filters" => "Create, change and delete filters",
        "write:follows" => "Follow and unfollow people",
        "write:lists" => "Create, change and delete lists",
        "write:media" => "Upload pictures, videos and other media",
        "write:mutes" => "Mute and unmute people and conversations",
        "write:notifications" => "Dismiss and clear your notifications",
        "write:reports" => "Report other people to moderators",
        "write:statuses" => "Publish, edit and delete posts as you",
        "admin:read:accounts" => "See private information of every account on the server",
        "admin:read:reports" => "See every report filed on the server",
        "admin:read:domain_allows" => "See which domains the server federates with",
        "admin:read:domain_blocks" => "See which domains the server blocks",
        "admin:read:ip_blocks" => "See which IP addresses the server blocks",
        "admin:read:email_domain_blocks" => "See which e-mail domains the server blocks",
        "admin:read:canonical_email_blocks" => "See which e-mail addresses the server blocks",
        "admin:write:accounts" => "Approve, warn, limit, suspend and delete accounts",
        "admin:write:reports" => "Assign, resolve and reopen reports",
        "admin:write:domain_allows" => "Allow and stop allowing federation with domains",
        "admin:write:domain_blocks" => "Block and unblock whole domains",
        "admin:write:ip_blocks" => "Block and unblock IP addresses",
        "admin:write:email_domain_blocks" => "Block and unblock e-mail domains for sign-up",
        "admin:write:canonical_email_blocks" => "Block and unblock e-mail addresses for sign-up",
        _ => return None,
    })
}

/// The top-level scope a granular one belongs to (`read:statuses` → `read`,
/// `admin:write:accounts` → `admin:write`); `None` for a top-level scope.
pub fn parent(scope: &str) -> Option<&'static str> {
    ["admin:read", "admin:write", "read", "write"]
        .into_iter()
        .find(|p| {
            scope
                .strip_prefix(p)
                .is_some_and(|rest| rest.len() > 1 && rest.starts_with(':'))
        })
}

/// One line of the list: the plain words, then the scope's own name for those who know it.
fn item(scope: &str, nested: &str) -> String {
    let words =
        describe(scope).map_or_else(|| format!("Use the “{}” permission", escape(scope)), escape);
    let class = if scope.starts_with("admin:") {
        " class=\"admin\""
    } else {
        ""
    };
    format!(
        "<li{class} data-scope=\"{name}\"><span class=\"words\">{words}</span> \
<code>{name}</code>{nested}</li>",
        name = escape(scope)
    )
}

/// The requested scopes as a `<ul class="scopes">`, in the order asked, each granular scope
/// nested under its parent when the parent is requested too.
pub fn scope_list(scopes: &Scopes) -> String {
    let asked: Vec<&str> = scopes.iter().collect();
    let under_parent = |s: &str| parent(s).is_some_and(|p| asked.contains(&p));
    let mut out = String::from("<ul class=\"scopes\">");
    for scope in asked.iter().copied().filter(|s| !under_parent(s)) {
        let children: String = asked
            .iter()
            .copied()
            .filter(|c| parent(c) == Some(scope))
            .map(|c| item(c, ""))
            .collect();
        let nested = if children.is_empty() {
            String::new()
        } else {
            format!("<ul>{children}</ul>")
        };
        out.push_str(&item(scope, &nested));
    }
    out.push_str("</ul>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scope::KNOWN_SCOPES;

    #[test]
    fn every_known_scope_has_plain_words() {
        for s in KNOWN_SCOPES {
            assert!(describe(s).is_some_and(|w| !w.is_empty()), "{s}");
        }
    }

    #[test]
    fn granular_scopes_have_their_parent() {
        assert_eq!(parent("read:statuses"), Some("read"));
        assert_eq!(parent("write:media"), Some("write"));
        assert_eq!(parent("admin:read:accounts"), Some("admin:read"));
        assert_eq!(parent("admin:write:reports"), Some("admin:write"));
        for top in ["read", "write", "follow", "push", "profile", "admin:read"] {
            assert_eq!(parent(top), None, "{top}");
        }
    }

    #[test]
    fn a_granular_scope_is_nested_only_when_its_parent_is_asked() {
        let list = scope_list(&Scopes::parse("read:statuses read write:media push").unwrap());
        let read = list.find("<code>read</code>").unwrap();
        let statuses = list.find("<code>read:statuses</code>").unwrap();
        assert!(read < statuses, "read:statuses comes under read: {list}");
        assert!(
            list.contains("<code>read</code><ul><li data-scope=\"read:statuses\">"),
            "{list}"
        );
        // write is not asked, so write:media stands on its own line.
        assert!(
            list.contains("</li><li data-scope=\"write:media\">"),
            "{list}"
        );
        assert_eq!(list.matches("<li").count(), 4, "{list}");
        assert!(list.contains(describe("push").unwrap()));
    }

    #[test]
    fn admin_scopes_are_marked() {
        let list = scope_list(&Scopes::parse("admin:read admin:read:accounts").unwrap());
        assert!(
            list.contains("<li class=\"admin\" data-scope=\"admin:read\">"),
            "{list}"
        );
        assert!(
            list.contains("<ul><li class=\"admin\" data-scope=\"admin:read:accounts\">"),
            "{list}"
        );
    }
}
