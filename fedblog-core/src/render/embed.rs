//! The embed page of a local status (`/@username/:id/embed`): a small self-contained HTML
//! document, made to be framed by other sites through oEmbed's iframe.

use crate::app::App;
use crate::content;
use crate::render::activitypub::NoteParts;
use crate::render::timestamp;
use crate::store::{MediaKind, MediaRecord};

/// The page's own style: inline, as the page's policy allows nothing else.
const EMBED_STYLE: &str = "body{margin:0;font-family:system-ui,sans-serif;font-size:15px;\
line-height:1.4;color:#1c1a25;background:#fff}article{padding:12px 16px;border:1px solid \
#c9c4da;border-radius:8px}header a{color:inherit;text-decoration:none}header span{color:#6f6b80}\
.media img{max-width:100%;height:auto;border-radius:4px}.media{margin:8px 0}footer{color:#6f6b80;\
font-size:13px}footer a{color:inherit}";

impl App {
    /// The embed page of a status (its author, handle, text as rendered for the API, media as
    /// images or links, date, and a link to the status), every value that is not already
    /// sanitised HTML escaped. Links open outside the frame.
    pub fn render_status_embed(&self, parts: &NoteParts) -> String {
        let base = self.base_url();
        let a = &parts.author;
        let s = &parts.status;
        let name = if a.display_name.trim().is_empty() {
            &a.username
        } else {
            &a.display_name
        };
        let handle = format!("@{}@{}", a.username, self.config.domain);
        let url = format!("{base}/@{}/{}", a.username, s.id);
        let text = crate::render::activitypub::content_behind_warning(s);
        let media: String = parts
            .media
            .iter()
            .map(|m| self.embed_media(m, s.sensitive))
            .collect();
        let media = if media.is_empty() {
            media
        } else {
            format!("<div class=\"media\">{media}</div>")
        };
        let lang = s
            .language
            .as_deref()
            .filter(|l| !l.is_empty())
            .map(|l| format!(" lang=\"{}\"", attr(l)))
            .unwrap_or_default();
        format!(
            "<!DOCTYPE html>\n<html{lang}><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{title}</title><link rel=\"canonical\" href=\"{url_attr}\">\
             <style>{EMBED_STYLE}</style></head><body><article>\
             <header><a href=\"{profile}\" target=\"_blank\" rel=\"noopener\">\
             <strong>{name}</strong> <span>{handle}</span></a></header>\
             <div class=\"content\">{text}</div>{media}\
             <footer><a href=\"{url_attr}\" target=\"_blank\" rel=\"noopener\">\
             <time datetime=\"{datetime}\">{date}</time></a></footer>\
             </article></body></html>\n",
            title = esc(&format!("{name} ({handle})")),
            url_attr = attr(&url),
            profile = attr(&content::account_url(&base, a)),
            name = esc(name),
            handle = esc(&handle),
            datetime = timestamp(s.created_at),
            date = s.created_at.format("%b %-d, %Y, %H:%M UTC"),
        )
    }

    /// One attachment of an embed: an image (its preview when there is one) linking to the
    /// file, or, for other media and for sensitive statuses, a link named by its description.
    fn embed_media(&self, m: &MediaRecord, sensitive: bool) -> String {
        let base = self.base_url();
        let file = |key: &str| self.files.public_url(&base, key);
        let url = m.remote_url.clone().unwrap_or_else(|| file(&m.file_key));
        let description = m.description.as_deref().unwrap_or("");
        if m.kind == MediaKind::Image && !sensitive {
            let shown = match (&m.remote_url, &m.preview_key) {
                (None, Some(preview)) => file(preview),
                _ => url.clone(),
            };
            return format!(
                "<a href=\"{}\" target=\"_blank\" rel=\"noopener\"><img src=\"{}\" alt=\"{}\"></a>",
                attr(&url),
                attr(&shown),
                attr(description),
            );
        }
        let label = if description.trim().is_empty() {
            match m.kind {
                MediaKind::Image => "Image",
                MediaKind::Gifv | MediaKind::Video => "Video",
                MediaKind::Audio => "Audio",
                MediaKind::Unknown => "Attachment",
            }
        } else {
            description
        };
        format!(
            "<p><a href=\"{}\" target=\"_blank\" rel=\"noopener\">{}</a></p>",
            attr(&url),
            esc(label)
        )
    }
}

fn esc(text: &str) -> String {
    html_escape::encode_text(text).into_owned()
}

fn attr(text: &str) -> String {
    html_escape::encode_double_quoted_attribute(text).into_owned()
}
