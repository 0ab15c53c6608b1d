//! Reading a linked page for its preview card: the `<title>`, the `<meta>` tags (OpenGraph
//! `og:*`, Twitter `twitter:*`, `description`, `article:published_time`), the oEmbed discovery
//! link and the document's language, with html5ever's tokenizer (no tree is built: the card
//! needs only these tags); reading an oEmbed answer; keeping an embedded player only as a
//! rebuilt `<iframe>` of an allowed provider; the first link of a remote status's HTML.

use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

/// The hosts whose players a card may embed, each with its subdomains (`www.youtube.com`,
/// `player.vimeo.com`): the common video and audio providers whose oEmbed `html` and
/// `twitter:player` are a plain `<iframe>`. Any other provider's card has no `html`.
pub const EMBED_PROVIDERS: &[&str] = &[
    "youtube.com",
    "youtube-nocookie.com",
    "vimeo.com",
    "dailymotion.com",
    "soundcloud.com",
];

/// What a page says about itself.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PageMeta {
    /// The text of its `<title>`, if any.
    pub title: Option<String>,
    /// Its `<meta>` tags as (property or name, lower case; content), in document order.
    pub metas: Vec<(String, String)>,
    /// The `href` of its `<link rel="alternate" type="application/json+oembed">`, if any.
    pub oembed: Option<String>,
    /// The `lang` of its `<html>`, if any.
    pub lang: Option<String>,
}

impl PageMeta {
    /// The content of the first non-blank `<meta>` among `keys`, in the order of `keys`.
    pub fn meta(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| {
            self.metas
                .iter()
                .find(|(name, content)| name == k && !content.trim().is_empty())
                .map(|(_, content)| content.trim().to_string())
        })
    }
}

/// The value of the attribute `name` of a tag.
fn attr(tag: &Tag, name: &str) -> Option<String> {
    tag.attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| a.value.to_string())
}

/// Collects what [`read_page`] keeps.
#[derive(Default)]
struct PageSink {
    meta: RefCell<PageMeta>,
    /// Inside `<title>`: its text so far.
    title: RefCell<Option<String>>,
}

impl TokenSink for PageSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        match token {
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => {
                let mut meta = self.meta.borrow_mut();
                match &*tag.name {
                    "html" if meta.lang.is_none() => meta.lang = attr(&tag, "lang"),
                    "meta" => {
                        let key = attr(&tag, "property").or_else(|| attr(&tag, "name"));
                        if let (Some(key), Some(content)) = (key, attr(&tag, "content")) {
                            for k in key.split_whitespace() {
                                meta.metas.push((k.to_ascii_lowercase(), content.clone()));
                            }
                        }
                    }
                    "link" if meta.oembed.is_none() => {
                        let rel = attr(&tag, "rel").unwrap_or_default().to_ascii_lowercase();
                        let kind = attr(&tag, "type").unwrap_or_default().to_ascii_lowercase();
                        if rel.split_whitespace().any(|r| r == "alternate")
                            && kind == "application/json+oembed"
                        {
                            meta.oembed = attr(&tag, "href");
                        }
                    }
                    "title" if meta.title.is_none() => {
                        *self.title.borrow_mut() = Some(String::new());
                        return TokenSinkResult::RawData(RawKind::Rcdata);
                    }
                    "script" => return TokenSinkResult::RawData(RawKind::ScriptData),
                    "style" => return TokenSinkResult::RawData(RawKind::Rawtext),
                    _ => {}
                }
            }
            Token::TagToken(tag) if tag.kind == TagKind::EndTag && &*tag.name == "title" => {
                if let Some(text) = self.title.borrow_mut().take() {
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    self.meta.borrow_mut().title = Some(text);
                }
            }
            Token::CharacterTokens(text) => {
                if let Some(title) = self.title.borrow_mut().as_mut() {
                    title.push_str(&text);
                }
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

/// Runs the tokenizer over `html` into `sink`.
fn tokenize<S: TokenSink>(html: &str, sink: S) -> S {
    let input = BufferQueue::default();
    input.push_back(StrTendril::from(html));
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink
}

/// What `html` says about itself (see [`PageMeta`]).
pub fn read_page(html: &str) -> PageMeta {
    tokenize(html, PageSink::default()).meta.into_inner()
}

/// Whether `host` is one of [`EMBED_PROVIDERS`] or a subdomain of one.
pub fn allowed_provider(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    EMBED_PROVIDERS
        .iter()
        .any(|p| host == *p || host.ends_with(&format!(".{p}")))
}

/// An `https` player URL of an allowed provider, parsed; `None` for any other.
fn allowed_player(src: &str) -> Option<url::Url> {
    let url = url::Url::parse(src.trim()).ok()?;
    (url.scheme() == "https" && url.host_str().is_some_and(allowed_provider)).then_some(url)
}

/// The `<iframe>` a card embeds for the player at `src`, `width` x `height`: rebuilt from
/// those three values alone, so nothing else of the provider's markup passes; `None` unless
/// `src` is an `https` URL of an allowed provider.
pub fn player_iframe(src: &str, width: i32, height: i32) -> Option<String> {
    let url = allowed_player(src)?;
    let src = html_escape::encode_double_quoted_attribute(url.as_str());
    Some(format!(
        "<iframe src=\"{src}\" width=\"{}\" height=\"{}\" frameborder=\"0\" allowfullscreen=\"true\"></iframe>",
        width.max(0),
        height.max(0)
    ))
}

/// An `<iframe>`'s `src`, `width` and `height` as written.
type IframeAttrs = (String, Option<String>, Option<String>);

/// Collects the first `<iframe>` of an oEmbed `html`.
#[derive(Default)]
struct IframeSink {
    first: RefCell<Option<IframeAttrs>>,
}

impl TokenSink for IframeSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if let Token::TagToken(tag) = token
            && tag.kind == TagKind::StartTag
            && &*tag.name == "iframe"
        {
            let mut first = self.first.borrow_mut();
            if first.is_none()
                && let Some(src) = attr(&tag, "src")
            {
                *first = Some((src, attr(&tag, "width"), attr(&tag, "height")));
            }
        }
        TokenSinkResult::Continue
    }
}

/// The player of an oEmbed `html`: its first `<iframe>`, rebuilt by [`player_iframe`] (its
/// `width` and `height` when the iframe has none of its own); `None` when it has no iframe of
/// an allowed provider. Scripts, other elements and attributes are dropped.
pub fn sanitized_embed(html: &str, width: i32, height: i32) -> Option<String> {
    let (src, w, h) = tokenize(html, IframeSink::default()).first.into_inner()?;
    let number = |v: Option<String>, or: i32| v.and_then(|v| v.trim().parse().ok()).unwrap_or(or);
    player_iframe(&src, number(w, width), number(h, height))
}

/// Collects the first link of a status's HTML that is neither a mention nor a hashtag.
#[derive(Default)]
struct LinkSink {
    first: RefCell<Option<String>>,
}

impl TokenSink for LinkSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if let Token::TagToken(tag) = token
            && tag.kind == TagKind::StartTag
            && &*tag.name == "a"
        {
            let rel = attr(&tag, "rel").unwrap_or_default().to_ascii_lowercase();
            let class = attr(&tag, "class").unwrap_or_default().to_ascii_lowercase();
            let skipped = rel.split_whitespace().any(|r| r == "tag")
                || class
                    .split_whitespace()
                    .any(|c| matches!(c, "mention" | "hashtag" | "u-url" | "h-card"));
            let mut first = self.first.borrow_mut();
            if !skipped
                && first.is_none()
                && let Some(href) = attr(&tag, "href")
                && (href.starts_with("http://") || href.starts_with("https://"))
            {
                *first = Some(href);
            }
        }
        TokenSinkResult::Continue
    }
}

/// The first `http(s)` link of a remote status's HTML that is not a mention or a hashtag (as
/// Mastodon skips them: `rel="tag"`, or a class `mention`, `hashtag`, `u-url` or `h-card`).
pub fn first_html_link(html: &str) -> Option<String> {
    tokenize(html, LinkSink::default()).first.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_gives_its_title_metas_oembed_and_language() {
        let page = read_page(
            r#"<!doctype html><html lang="fr"><head><title> A  <b>page</b>
            </title><meta property="og:title" content="OG title">
            <meta name="description" content="Plain">
            <script>var x = "<meta property='og:title' content='no'>";</script>
            <link rel="alternate" type="application/json+oembed" href="/oembed?u=1">
            </head><body><title>second</title></body></html>"#,
        );
        assert_eq!(page.title.as_deref(), Some("A <b>page</b>"));
        assert_eq!(page.meta(&["og:title"]).as_deref(), Some("OG title"));
        assert_eq!(
            page.meta(&["og:description", "description"]).as_deref(),
            Some("Plain")
        );
        assert_eq!(page.metas.iter().filter(|m| m.0 == "og:title").count(), 1);
        assert_eq!(page.oembed.as_deref(), Some("/oembed?u=1"));
        assert_eq!(page.lang.as_deref(), Some("fr"));
    }

    #[test]
    fn only_iframes_of_allowed_providers_are_kept_and_rebuilt() {
        let kept = sanitized_embed(
            r#"<div><iframe src="https://www.youtube.com/embed/x?a=1&b=2" width="560" onload="evil()"></iframe><script>evil()</script></div>"#,
            0,
            315,
        );
        assert_eq!(
            kept.as_deref(),
            Some(
                "<iframe src=\"https://www.youtube.com/embed/x?a=1&amp;b=2\" width=\"560\" height=\"315\" frameborder=\"0\" allowfullscreen=\"true\"></iframe>"
            )
        );
        for html in [
            r#"<iframe src="https://evil.example/embed/x"></iframe>"#,
            r#"<iframe src="http://www.youtube.com/embed/x"></iframe>"#,
            r#"<iframe src="https://youtube.com.evil.example/x"></iframe>"#,
            r#"<script src="https://www.youtube.com/x.js"></script>"#,
        ] {
            assert_eq!(sanitized_embed(html, 1, 1), None, "{html}");
        }
    }

    #[test]
    fn the_first_link_of_remote_html_skips_mentions_and_hashtags() {
        let html = r#"<p><span class="h-card"><a href="https://far.example/@bob" class="u-url mention">@bob</a></span>
            <a href="https://far.example/tags/x" class="mention hashtag" rel="tag">#x</a>
            <a href="https://news.example/a" rel="nofollow noopener">news</a>
            <a href="https://news.example/b">b</a></p>"#;
        assert_eq!(
            first_html_link(html).as_deref(),
            Some("https://news.example/a")
        );
        assert_eq!(first_html_link("<p>no link</p>"), None);
    }
}
