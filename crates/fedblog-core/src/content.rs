//! Status and bio text: finding links, mentions and hashtags, rendering safe HTML, normalising tag
//! names, and counting characters the way Mastodon does.

use std::sync::OnceLock;

use regex::Regex;
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

/// A piece of status text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// Plain text.
    Text(&'a str),
    /// An `http(s)://` link.
    Url(&'a str),
    /// `@username` or `@username@domain`.
    Mention {
        /// The whole `@...` text.
        raw: &'a str,
        /// Username part.
        username: &'a str,
        /// Domain part, if written.
        domain: Option<&'a str>,
    },
    /// `#tag` (without the `#`).
    Hashtag(&'a str),
}

fn token_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"(?P<url>https?://[^\s<>"]+)|(?P<mention>@(?P<user>[A-Za-z0-9_]+(?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?)(?:@(?P<domain>[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*(?::[0-9]+)?))?)|(?P<tag>#(?P<name>[\p{L}\p{M}\p{N}_·]+))"#,
        )
        .expect("token regex")
    })
}

fn boundary_ok(text: &str, start: usize) -> bool {
    match text[..start].chars().next_back() {
        None => true,
        Some(c) => !(c.is_alphanumeric() || matches!(c, '_' | '/' | '@' | '#' | '.' | '&')),
    }
}

fn trim_url(url: &str) -> &str {
    let mut end = url.len();
    loop {
        let s = &url[..end];
        let Some(last) = s.chars().next_back() else {
            break;
        };
        let unbalanced_paren = last == ')' && s.matches('(').count() < s.matches(')').count();
        if matches!(last, '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '"') || unbalanced_paren {
            end -= last.len_utf8();
        } else {
            break;
        }
    }
    &url[..end]
}

/// Whether a hashtag name is valid: word characters with at least one that is not a digit.
pub fn is_valid_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '·') || is_mark(c))
        && name.chars().any(|c| !c.is_numeric())
}

fn is_mark(c: char) -> bool {
    // Combining marks keep their base letter's meaning (e.g. decomposed accents).
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Splits text into tokens. Invalid candidates (e.g. `a@b`, `#123`) stay text.
pub fn tokenize(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut last = 0;
    for caps in token_re().captures_iter(text) {
        let m = caps.get(0).expect("match");
        let start = m.start();
        let token = if let Some(u) = caps.name("url") {
            if !boundary_ok(text, start) && !text[..start].ends_with(['(', '"']) {
                None
            } else {
                let t = trim_url(u.as_str());
                Some((start, start + t.len(), Token::Url(t)))
            }
        } else if caps.name("mention").is_some() {
            let user = caps.name("user").expect("user").as_str();
            let domain = caps
                .name("domain")
                .map(|d| d.as_str().trim_end_matches('.'));
            let end = match domain {
                Some(d) => caps.name("domain").expect("d").start() + d.len(),
                None => caps.name("user").expect("u").end(),
            };
            boundary_ok(text, start).then(|| {
                (
                    start,
                    end,
                    Token::Mention {
                        raw: &text[start..end],
                        username: user,
                        domain,
                    },
                )
            })
        } else {
            let name = caps.name("name").expect("name").as_str();
            (boundary_ok(text, start) && is_valid_tag_name(name))
                .then(|| (start, m.end(), Token::Hashtag(name)))
        };
        if let Some((s, e, tok)) = token {
            if s > last {
                out.push(Token::Text(&text[last..s]));
            }
            out.push(tok);
            last = e;
        }
    }
    if last < text.len() {
        out.push(Token::Text(&text[last..]));
    }
    out
}

/// Mastodon's hashtag normalisation: NFKC (full-width to normal width), lower case, Latin
/// letters folded to ASCII (`é` to `e`, `å` to `a`, `ß` to `ss`), invalid characters removed.
/// Other scripts keep their letters and marks (`が` stays `が`).
pub fn normalize_tag(name: &str) -> String {
    let lowered = name.nfkc().collect::<String>().to_lowercase();
    let mut out = String::with_capacity(lowered.len());
    for c in lowered.chars() {
        if let Some(folded) = fold_latin(c) {
            out.push_str(folded);
            continue;
        }
        let mut decomposed = std::iter::once(c).nfd();
        match decomposed.next() {
            // A Latin letter with accents: keep the base letter.
            Some(base) if base.is_ascii_alphabetic() && c != base => out.push(base),
            _ => out.push(c),
        }
    }
    out.retain(|c| {
        c.is_alphanumeric()
            || matches!(c, '_' | '·' | '\u{200c}')
            || is_mark(c)
            || ('\u{0E47}'..='\u{0E4E}').contains(&c)
    });
    out
}

/// Latin letters without a decomposition that ASCII folding still maps.
fn fold_latin(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' => "ss",
        'æ' => "ae",
        'œ' => "oe",
        'ø' => "o",
        'đ' | 'ð' => "d",
        'ł' => "l",
        'þ' => "th",
        'ı' => "i",
        'ħ' => "h",
        'ŧ' => "t",
        _ => return None,
    })
}

/// The distinct normalised hashtags of a text, in order of first appearance.
pub fn extract_tags(text: &str) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    for t in tokenize(text) {
        if let Token::Hashtag(name) = t {
            let n = normalize_tag(name);
            if !tags.contains(&n) {
                tags.push(n);
            }
        }
    }
    tags
}

/// The distinct `(username, domain)` mentions of a text, in order of first appearance.
pub fn extract_mentions(text: &str) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for t in tokenize(text) {
        if let Token::Mention {
            username, domain, ..
        } = t
        {
            let key = (username.to_string(), domain.map(str::to_string));
            if !out.iter().any(|(u, d)| {
                u.eq_ignore_ascii_case(&key.0)
                    && d.as_deref().map(str::to_lowercase)
                        == key.1.as_deref().map(str::to_lowercase)
            }) {
                out.push(key);
            }
        }
    }
    out
}

/// Characters as Mastodon counts them: grapheme clusters, every URL as `url_length`, and only the
/// `@username` part of a remote mention.
pub fn countable_length(text: &str, url_length: usize) -> usize {
    tokenize(text)
        .iter()
        .map(|t| match t {
            Token::Url(_) => url_length,
            Token::Mention { username, .. } => 1 + username.graphemes(true).count(),
            Token::Text(s) => s.graphemes(true).count(),
            Token::Hashtag(n) => 1 + n.graphemes(true).count(),
        })
        .sum()
}

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A mention that resolved to a known account.
#[derive(Clone, Debug)]
pub struct MentionLink {
    /// Profile URL.
    pub url: String,
    /// Username shown.
    pub username: String,
}

/// Renders plain text as Mastodon-style HTML: paragraphs, line breaks, links, hashtags and the
/// mentions `resolve` knows; everything else escaped. The output contains no markup from the input.
pub fn render_html(
    text: &str,
    base_url: &str,
    resolve: &dyn Fn(&str, Option<&str>) -> Option<MentionLink>,
) -> String {
    let normalized = text.replace("\r\n", "\n");
    let trimmed = normalized.trim();
    if trimmed.is_empty() {
        return String::new();
    }
    let mut html = String::new();
    for para in trimmed
        .split("\n\n")
        .map(|p| p.trim_matches('\n'))
        .filter(|p| !p.is_empty())
    {
        html.push_str("<p>");
        for t in tokenize(para) {
            match t {
                Token::Text(s) => html.push_str(&escape(s).replace('\n', "<br />")),
                Token::Url(u) => {
                    let (prefix, rest) = u.split_once("://").map(|(s, r)| (format!("{s}://"), r)).unwrap_or_default();
                    let www = if rest.starts_with("www.") { "www." } else { "" };
                    let rest = &rest[www.len()..];
                    html.push_str(&format!(
                        "<a href=\"{}\" target=\"_blank\" rel=\"nofollow noopener\" translate=\"no\"><span class=\"invisible\">{}{}</span><span class=\"\">{}</span><span class=\"invisible\"></span></a>",
                        escape(u),
                        escape(&prefix),
                        www,
                        escape(rest)
                    ));
                }
                Token::Mention { raw, username, domain } => match resolve(username, domain) {
                    Some(link) => html.push_str(&format!(
                        "<span class=\"h-card\" translate=\"no\"><a href=\"{}\" class=\"u-url mention\">@<span>{}</span></a></span>",
                        escape(&link.url),
                        escape(&link.username)
                    )),
                    None => html.push_str(&escape(raw)),
                },
                Token::Hashtag(name) => html.push_str(&format!(
                    "<a href=\"{}/tags/{}\" class=\"mention hashtag\" rel=\"tag\">#<span>{}</span></a>",
                    base_url,
                    escape(&normalize_tag(name)),
                    escape(name)
                )),
            }
        }
        html.push_str("</p>");
    }
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str, _: Option<&str>) -> Option<MentionLink> {
        None
    }

    #[test]
    fn finds_links_mentions_and_tags() {
        let toks = tokenize(
            "hi @bob and @carol@example.org see https://x.test/a_(b). #Rust #123 mail a@b.c",
        );
        assert!(toks.contains(&Token::Mention {
            raw: "@bob",
            username: "bob",
            domain: None
        }));
        assert!(toks.contains(&Token::Mention {
            raw: "@carol@example.org",
            username: "carol",
            domain: Some("example.org")
        }));
        assert!(toks.contains(&Token::Url("https://x.test/a_(b)")));
        assert!(toks.contains(&Token::Hashtag("Rust")));
        assert!(!toks.contains(&Token::Hashtag("123")));
        assert!(
            !toks
                .iter()
                .any(|t| matches!(t, Token::Mention { username: "b", .. }))
        );
    }

    #[test]
    fn tags_normalise() {
        assert_eq!(normalize_tag("Ｒｕｓｔ"), "rust");
        assert_eq!(normalize_tag("Café"), "cafe");
        assert_eq!(normalize_tag("BLÅHAJ"), "blahaj");
        assert_eq!(normalize_tag("Straße"), "strasse");
        assert_eq!(
            normalize_tag("ｶﾞｷﾞ"),
            "ガギ",
            "NFKC joins half-width kana; Japanese keeps its marks"
        );
        assert_eq!(normalize_tag("日本語"), "日本語");
        assert_eq!(
            extract_tags("#Rust #rust #RUST_lang"),
            vec!["rust", "rust_lang"]
        );
    }

    #[test]
    fn html_is_escaped_and_linked() {
        let html = render_html(
            "<b>hi</b> & #Tag\nnext\n\nhttps://x.test/",
            "https://me.test",
            &none,
        );
        assert!(
            html.starts_with("<p>&lt;b&gt;hi&lt;/b&gt; &amp; <a href=\"https://me.test/tags/tag\"")
        );
        assert!(html.contains("<br />next</p><p><a href=\"https://x.test/\""));
        assert!(!html.contains("<b>"));
        let with = render_html("@bob hi", "https://me.test", &|u, _| {
            Some(MentionLink {
                url: format!("https://me.test/@{u}"),
                username: u.into(),
            })
        });
        assert!(with.contains("class=\"u-url mention\">@<span>bob</span></a>"));
    }

    #[test]
    fn counting_matches_mastodon() {
        assert_eq!(
            countable_length(
                "https://example.com/a/very/long/path/that/goes/on/and/on",
                23
            ),
            23
        );
        assert_eq!(countable_length("@bob@example.org", 23), 4);
        assert_eq!(countable_length("👍🏽 e\u{301}", 23), 3);
    }
}
