//! The discovery documents other servers read: WebFinger's JRD for a local account and
//! host-meta's XRD (XML and JSON) pointing at it.

use serde_json::{Value, json};

use crate::app::App;
use crate::content::account_url;
use crate::store::AccountRecord;

/// The media type of a WebFinger answer.
pub const JRD: &str = "application/jrd+json; charset=utf-8";

/// The media type of host-meta in XML.
pub const XRD: &str = "application/xrd+xml; charset=utf-8";

impl App {
    /// The ActivityPub actor URL of a local account.
    pub fn actor_url(&self, account: &AccountRecord) -> String {
        account
            .uri
            .clone()
            .unwrap_or_else(|| format!("{}/users/{}", self.base_url(), account.username))
    }

    /// The WebFinger document (JRD) of a local account: its `acct:` subject, its profile and
    /// actor URLs as aliases, and links to its profile page and its actor. (Mastodon's
    /// remote-follow template comes with the page it names.)
    pub fn render_webfinger(&self, account: &AccountRecord) -> Value {
        let profile = account_url(&self.base_url(), account);
        let actor = self.actor_url(account);
        json!({
            "subject": format!("acct:{}@{}", account.username, self.config.domain),
            "aliases": [profile, actor],
            "links": [
                { "rel": "http://webfinger.net/rel/profile-page", "type": "text/html", "href": profile },
                { "rel": "self", "type": "application/activity+json", "href": actor },
            ],
        })
    }

    /// The WebFinger URL template host-meta announces.
    fn webfinger_template(&self) -> String {
        format!("{}/.well-known/webfinger?resource={{uri}}", self.base_url())
    }

    /// host-meta in XML (XRD): where WebFinger is.
    pub fn render_host_meta_xml(&self) -> String {
        let template =
            html_escape::encode_double_quoted_attribute(&self.webfinger_template()).into_owned();
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <XRD xmlns=\"http://docs.oasis-open.org/ns/xri/xrd-1.0\">\n  \
             <Link rel=\"lrdd\" template=\"{template}\"/>\n\
             </XRD>\n"
        )
    }

    /// host-meta in JSON (JRD): where WebFinger is.
    pub fn render_host_meta_json(&self) -> Value {
        json!({ "links": [{ "rel": "lrdd", "template": self.webfinger_template() }] })
    }
}
