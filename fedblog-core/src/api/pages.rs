//! The layout every HTML page of the server shares (sign-in and consent, e-mail confirmation,
//! password reset, errors): one small stylesheet, a header naming the instance, a footer, and
//! the small pieces pages are built of (an alert, a safe outside link). No JavaScript anywhere.
//!
//! The stylesheet is inlined in each page's `<style>` rather than served from a path of its own:
//! pages answer with a policy allowing only their own inline style (see
//! [`crate::endpoint::PAGE_CONTENT_SECURITY_POLICY`]), they are `no-store` and few (a person sees
//! them when signing an app in or following a link from an e-mail), and the sheet is under 3 KB,
//! so a separate cached file would save little and cost a second request and a wider policy.

use crate::app::App;
use crate::content::escape;

/// The one stylesheet of every page: system fonts, a single readable column from 320 px wide
/// up, touch targets at least 44 px high, and a dark palette when the system asks for one.
pub const STYLESHEET: &str = "\
:root{color-scheme:light dark;--bg:#f3f4f6;--card:#fff;--text:#1c1e23;--muted:#5a606d;\
--line:#d3d7de;--accent:#4338ca;--on-accent:#fff;--alert-bg:#fdecec;--alert:#8f1d1d;\
--ok-bg:#e8f6ee;--ok:#14532d;--focus:#2563eb}\
@media (prefers-color-scheme:dark){:root{--bg:#15161a;--card:#1f2127;--text:#e7e8ec;\
--muted:#a5aab6;--line:#3a3d48;--accent:#a5a0ff;--on-accent:#15161a;--alert-bg:#3b1d21;\
--alert:#ffc2c2;--ok-bg:#16301f;--ok:#b7ebc8;--focus:#93b4ff}}\
*{box-sizing:border-box}\
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}\
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:var(--bg);\
color:var(--text);font:1rem/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",\
Arial,sans-serif}\
.site,main,.foot{width:100%;max-width:32rem;margin:0 auto;padding-left:1rem;padding-right:1rem}\
.site{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 .6rem;padding-top:1rem;\
padding-bottom:.25rem}\
.site .name{font-weight:700;font-size:1.1rem}\
.site .domain{color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}\
main{flex:1}\
h1{font-size:1.45rem;line-height:1.25;margin:.75rem 0 1rem}\
h2{font-size:1rem;line-height:1.3;margin:1.1rem 0 .4rem}\
p{margin:.5rem 0}\
a{color:var(--accent);overflow-wrap:anywhere}\
.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;\
padding:1rem 1.1rem;margin:0 0 1rem}\
.card>:first-child{margin-top:0}.card>:last-child{margin-bottom:0}\
.alert,.ok{border:1px solid currentColor;border-radius:.5rem;padding:.7rem 1rem;margin:0 0 1rem}\
.alert{background:var(--alert-bg);color:var(--alert)}\
.ok{background:var(--ok-bg);color:var(--ok)}\
.muted{color:var(--muted);font-size:.9rem}\
label{display:block;font-weight:600;margin:.8rem 0 .3rem}\
input[type=text],input[type=email],input[type=password]{display:block;width:100%;\
min-height:2.75rem;padding:.5rem .75rem;font:inherit;color:inherit;background:var(--bg);\
border:1px solid var(--line);border-radius:.5rem}\
.buttons{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.2rem}\
button{flex:1 1 8rem;min-height:2.75rem;padding:.6rem 1rem;font:inherit;font-weight:600;\
color:var(--text);background:var(--card);border:1px solid var(--line);border-radius:.5rem;\
cursor:pointer}\
button.primary{color:var(--on-accent);background:var(--accent);border-color:var(--accent)}\
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--focus);\
outline-offset:2px}\
.aside{margin:.6rem 0 0;font-size:.9rem}\
ul.scopes{list-style:none;padding:0;margin:.4rem 0 0}\
ul.scopes>li{padding:.55rem 0;border-top:1px solid var(--line)}\
ul.scopes>li:first-child{border-top:0;padding-top:.2rem}\
ul.scopes ul{list-style:disc;margin:.3rem 0 0;padding-left:1.25rem}\
ul.scopes code{display:inline-block;color:var(--muted)}\
ul.scopes .admin>.words{color:var(--alert);font-weight:600}\
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;\
overflow-wrap:anywhere}\
.copy{display:block;padding:.75rem;margin:.5rem 0;font-size:1.05rem;background:var(--bg);\
border:1px dashed var(--line);border-radius:.5rem;-webkit-user-select:all;user-select:all}\
.foot{padding-top:.5rem;padding-bottom:1.5rem;color:var(--muted);font-size:.85rem}";

/// A whole page: the instance's header, `title` as the heading, `body` (HTML, already
/// escaped by the caller) and the footer. `title` is escaped here.
pub fn layout(app: &App, title: &str, body: &str) -> String {
    let config = &app.config;
    let instance = escape(&config.title);
    let domain = escape(&config.domain);
    let title = escape(title);
    let contact = if config.contact_email.trim().is_empty() {
        String::new()
    } else {
        let mail = escape(config.contact_email.trim());
        format!(" · Contact: <a href=\"mailto:{mail}\">{mail}</a>")
    };
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"color-scheme\" content=\"light dark\"><meta name=\"robots\" content=\"noindex\">\
<title>{title} · {instance}</title><style>{STYLESHEET}</style></head>\
<body><header class=\"site\"><span class=\"name\">{instance}</span>\
<span class=\"domain\">{domain}</span></header>\
<main><h1>{title}</h1>{body}</main>\
<footer class=\"foot\"><p>{instance} ({domain}){contact}</p></footer></body></html>"
    )
}

/// An alert (an error the reader must notice), announced to screen readers; `text` is escaped.
pub fn alert(text: &str) -> String {
    format!("<div class=\"alert\" role=\"alert\">{}</div>", escape(text))
}

/// A success notice; `html` is the notice's content, already escaped by the caller.
pub fn success(html: &str) -> String {
    format!("<div class=\"ok\" role=\"status\">{html}</div>")
}

/// `url` as the escaped value of an `href`, when it is an `http` or `https` address with a
/// host (anything else, a `javascript:` or `data:` address above all, is never made a link).
pub fn web_href(url: &str) -> Option<String> {
    let url = url.trim();
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return None;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    Some(escape(url))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn app() -> App {
        let mut config = crate::InstanceConfig::new("pages.test");
        config.title = "Tea & <Cake>".into();
        config.contact_email = "admin@pages.test".into();
        App::new(Arc::new(crate::MemoryStore::new()), config)
    }

    #[test]
    fn the_layout_names_the_instance_and_escapes_the_title() {
        let html = layout(&app(), "Hi <there>", "<p>body</p>");
        assert!(html.contains("<span class=\"name\">Tea &amp; &lt;Cake&gt;</span>"));
        assert!(html.contains("<span class=\"domain\">pages.test</span>"));
        assert!(html.contains("<h1>Hi &lt;there&gt;</h1>"));
        assert!(html.contains("<title>Hi &lt;there&gt; · Tea &amp; &lt;Cake&gt;</title>"));
        assert!(html.contains("<p>body</p>"));
        assert!(html.contains("mailto:admin@pages.test"));
        assert!(html.contains("width=device-width"));
        assert!(html.contains(&format!("<style>{STYLESHEET}</style>")));
        assert!(!html.to_lowercase().contains("<script"));
    }

    #[test]
    fn the_stylesheet_follows_the_dark_preference_and_stays_small() {
        assert!(STYLESHEET.contains("@media (prefers-color-scheme:dark)"));
        assert!(
            STYLESHEET.contains("min-height:2.75rem"),
            "44 px touch targets"
        );
        assert!(STYLESHEET.len() < 4096, "{} bytes", STYLESHEET.len());
        // Nothing in it may close the <style> element it is inlined in.
        assert!(!STYLESHEET.contains('<'));
    }

    #[test]
    fn only_web_addresses_become_links() {
        assert_eq!(
            web_href("https://app.example/a?b=1&c=\"2\"").as_deref(),
            Some("https://app.example/a?b=1&amp;c=&quot;2&quot;")
        );
        assert_eq!(
            web_href("HTTP://app.example").as_deref(),
            Some("HTTP://app.example")
        );
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "https://",
            "https:///path",
            "//app.example",
            "https://app.example/a b",
            "",
        ] {
            assert_eq!(web_href(bad), None, "{bad}");
        }
    }

    #[test]
    fn alerts_escape_their_text() {
        assert_eq!(
            alert("<b>no</b>"),
            "<div class=\"alert\" role=\"alert\">&lt;b&gt;no&lt;/b&gt;</div>"
        );
    }
}
