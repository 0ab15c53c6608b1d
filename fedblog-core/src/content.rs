//! Status and bio text: finding links, mentions and hashtags, rendering safe HTML, normalising tag
//! names, and counting characters the way Mastodon does.
//!
//! # Hashtags
//!
//! **What a hashtag name is.** Two kinds of characters make up a name:
//! - *word characters*: letters (Unicode `Alphabetic`, any script), combining marks, decimal digits
//!   (`Nd`) and connector punctuation such as `_`;
//! - *separators*: `_`, the middle dot `·` (U+00B7), the katakana middle dot `・` (U+30FB) and the
//!   zero-width non-joiner (U+200C).
//!
//! A name is valid ([`is_valid_tag_name`]) when it has at most [`MAX_TAG_LENGTH`] characters and
//! either consists of word characters only, at least one of them a letter (`rust`, `2024rust`), or
//! has at least three characters, starts and ends with a word character, and has a letter or a
//! separator somewhere in between (`1_2`, `a·b`, `___`). So a name of only digits (`123`) is never
//! a hashtag, nor is one that starts or ends with `·` (`·a`), nor `_1`. In status text a candidate
//! that ends in separators loses them (`#rust·` tags `rust`); the `#` must not follow a letter,
//! digit or one of `_ / @ # . &`.
//!
//! **Normalisation** ([`normalize_tag`]), which decides when two names are the same tag:
//! 1. Unicode NFKC, so compatibility forms become ordinary ones: full-width `Ｒｕｓｔ` is `Rust`,
//!    half-width `ｶﾞ` is `ガ`, the ligature `ﬁ` is `fi`;
//! 2. lower case (Unicode case mapping: `RUST` and `Rust` are `rust`);
//! 3. Latin letters folded to ASCII: accents dropped (`Café` is `cafe`, `BLÅHAJ` is `blahaj`) and
//!    the Latin letters without a decomposition spelled out (`ß` is `ss`, `æ` is `ae`, `ø` is `o`,
//!    `ł` is `l`, `þ` is `th`); other scripts keep their letters and marks (`日本語`, `ガギ`);
//! 4. anything that is neither a letter, digit, mark nor separator removed.
//!
//! Tags are stored and matched by the normalised name; [`tag_display_name`] keeps the form a user
//! wrote (NFKC applied, case and accents kept: `Café`), which the API shows as the tag's `name`.
//! [`parse_tag_name`] applies all of this to a name given by a client (a path or form value).

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
            r#"(?P<url>https?://[^\s<>"]+)|(?P<mention>@(?P<user>[A-Za-z0-9_]+(?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?)(?:@(?P<domain>[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*(?::[0-9]+)?))?)|(?P<tag>#(?P<name>[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}·・\x{200C}]+))"#,
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

/// The longest hashtag name accepted, in characters (after NFKC). Mastodon sets no limit of its
/// own here; ours keeps tag pages and URLs of sane size.
pub const MAX_TAG_LENGTH: usize = 100;

/// Hashtag separators: `_`, `·` (U+00B7), `・` (U+30FB), zero-width non-joiner (U+200C).
const TAG_SEPARATORS: [char; 4] = ['_', '\u{00B7}', '\u{30FB}', '\u{200C}'];

fn tag_name_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // W: word characters; A: letters; S: separators. See the module documentation.
        let w = r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}]";
        let a = r"\p{Alphabetic}";
        let ws = r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}·・\x{200C}]";
        let as_ = r"[\p{Alphabetic}_·・\x{200C}]";
        Regex::new(&format!("^(?:{w}{ws}*{as_}{ws}*{w}|{w}*{a}{w}*)$")).expect("tag name regex")
    })
}

/// Whether `name` (without `#`) is a valid hashtag name as written; see the module documentation.
pub fn is_valid_tag_name(name: &str) -> bool {
    name.chars().count() <= MAX_TAG_LENGTH && tag_name_re().is_match(name)
}

fn is_mark(c: char) -> bool {
    // Combining marks keep their base letter's meaning (e.g. decomposed accents).
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Whether a character may stay in a normalised or display name.
fn is_tag_char(c: char) -> bool {
    c.is_alphanumeric()
        || TAG_SEPARATORS.contains(&c)
        || is_mark(c)
        || ('\u{0E47}'..='\u{0E4E}').contains(&c)
}

/// The form of a tag name shown to users: NFKC, with case and accents kept and characters that
/// cannot be part of a name removed (`Ｃａｆé` is `Café`).
pub fn tag_display_name(name: &str) -> String {
    name.nfkc().filter(|c| is_tag_char(*c)).collect()
}

/// A hashtag name given by a client (`Café`, `#Café`: one leading `#` is allowed) as
/// `(normalised name, display name)`; `None` unless both the name as written and its normalised
/// form are valid hashtag names.
pub fn parse_tag_name(raw: &str) -> Option<(String, String)> {
    let raw = raw.strip_prefix('#').unwrap_or(raw);
    let display: String = raw.nfkc().collect();
    if !is_valid_tag_name(&display) {
        return None;
    }
    let normalized = normalize_tag(&display);
    is_valid_tag_name(&normalized).then(|| (normalized, tag_display_name(&display)))
}

/// A tag name as one URL path segment: unreserved ASCII kept, everything else percent-encoded
/// (`日本` is `%E6%97%A5%E6%9C%AC`).
pub fn tag_url_segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
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
            // Separators cannot end a name: `#rust·` tags `rust` and leaves the dot as text.
            let name = caps
                .name("name")
                .expect("name")
                .as_str()
                .trim_end_matches(['\u{00B7}', '\u{30FB}', '\u{200C}']);
            (boundary_ok(text, start) && is_valid_tag_name(name))
                .then(|| (start, start + 1 + name.len(), Token::Hashtag(name)))
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

/// The normalised form of a hashtag name, by which tags are stored and matched: NFKC (full-width
/// to normal width), lower case, Latin letters folded to ASCII (`é` to `e`, `å` to `a`, `ß` to
/// `ss`), characters that cannot be part of a name removed. Other scripts keep their letters and
/// marks (`が` stays `が`). See the module documentation.
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
    out.retain(is_tag_char);
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
    extract_tags_with_display(text)
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

/// The distinct hashtags of a text as `(normalised name, display name)`, in order of first
/// appearance; the display name is the first spelling written (see [`tag_display_name`]).
pub fn extract_tags_with_display(text: &str) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = Vec::new();
    for t in tokenize(text) {
        if let Token::Hashtag(name) = t {
            let n = normalize_tag(name);
            if is_valid_tag_name(&n) && !tags.iter().any(|(k, _)| *k == n) {
                tags.push((n, tag_display_name(name)));
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
                    escape(&tag_url_segment(&normalize_tag(name))),
                    escape(name)
                )),
            }
        }
        html.push_str("</p>");
    }
    html
}

/// The text of status HTML, cheaply: tags left out (a line break for `<br>`, a blank line
/// between paragraphs), character references decoded. For matching filters against statuses,
/// whose HTML is our own or sanitised, not for arbitrary markup.
pub fn html_to_plain(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            rest = "";
            break;
        };
        let tag = rest[open + 1..open + close].trim().to_ascii_lowercase();
        if tag == "br" || tag.starts_with("br ") || tag.starts_with("br/") {
            out.push('\n');
        } else if tag == "/p" {
            out.push_str("\n\n");
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    html_escape::decode_html_entities(out.trim_end()).into_owned()
}

/// HTML from another server (a remote post, bio or profile field) made safe to show, as
/// Mastodon keeps it: paragraphs, line breaks, links (made `nofollow noopener`, opening
/// elsewhere), the `h-card`/`mention`/`hashtag`/`invisible`/`ellipsis` classes of mentions and
/// links, and simple formatting; scripts, styles, images and other attributes go.
pub fn sanitize_remote_html(html: &str) -> String {
    use std::collections::HashSet;
    let classes: HashSet<&str> = [
        "h-card",
        "u-url",
        "mention",
        "hashtag",
        "invisible",
        "ellipsis",
        "quote-inline",
    ]
    .into_iter()
    .collect();
    ammonia::Builder::default()
        .tags(
            [
                "p",
                "br",
                "span",
                "a",
                "del",
                "s",
                "pre",
                "code",
                "em",
                "strong",
                "b",
                "i",
                "u",
                "ul",
                "ol",
                "li",
                "blockquote",
            ]
            .into_iter()
            .collect(),
        )
        .generic_attributes(HashSet::new())
        .tag_attributes(
            [("a", ["href"].into_iter().collect::<HashSet<_>>())]
                .into_iter()
                .collect(),
        )
        .allowed_classes(
            [("a", classes.clone()), ("span", classes)]
                .into_iter()
                .collect(),
        )
        .url_schemes(["http", "https"].into_iter().collect())
        .link_rel(Some("nofollow noopener"))
        .set_tag_attribute_value("a", "target", "_blank")
        .clean(html)
        .to_string()
}

/// Whether `shortcode` is a custom emoji's name: at least two letters, digits or `_`, as
/// Mastodon's shortcodes are.
pub fn is_valid_shortcode(shortcode: &str) -> bool {
    shortcode.len() >= 2
        && shortcode
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The custom emoji shortcodes `:name:` in a text (plain or HTML), each once, in order of first
/// appearance. As Mastodon reads them, a shortcode's colons may not touch a letter, a digit or
/// another colon outside it (`a:b:c` and `::x::` name none).
pub fn emoji_shortcodes(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut found: Vec<String> = vec![];
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b':' {
            i += 1;
            continue;
        }
        let before_ok = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b':');
        let start = i + 1;
        let mut end = start;
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
            end += 1;
        }
        let closed = end < bytes.len() && bytes[end] == b':';
        let after_ok = end + 1 >= bytes.len()
            || !(bytes[end + 1].is_ascii_alphanumeric() || bytes[end + 1] == b':');
        if closed && before_ok && after_ok && is_valid_shortcode(&text[start..end]) {
            let code = &text[start..end];
            if !found.iter().any(|f| f == code) {
                found.push(code.to_string());
            }
            i = end + 1;
        } else {
            i = if closed { end } else { end.max(i + 1) };
        }
    }
    found
}

/// The profile page of an account: its own `url` (a remote account's), else
/// `<base_url>/@<username>`.
pub fn account_url(base_url: &str, a: &crate::store::AccountRecord) -> String {
    a.url
        .clone()
        .unwrap_or_else(|| format!("{base_url}/@{}", a.username))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoji_shortcodes_are_found_as_mastodon_finds_them() {
        assert_eq!(
            emoji_shortcodes("<p>hi :blobcat: and :blob_fox:, :blobcat: again</p>"),
            ["blobcat", "blob_fox"]
        );
        assert_eq!(
            emoji_shortcodes(":a: :ab:"),
            ["ab"],
            "one letter is no shortcode"
        );
        assert_eq!(emoji_shortcodes("12:30:45"), Vec::<String>::new());
        assert_eq!(
            emoji_shortcodes("a:bc:d ::bc:: :b c:"),
            Vec::<String>::new()
        );
        assert_eq!(emoji_shortcodes(":one::two:"), Vec::<String>::new());
        assert_eq!(emoji_shortcodes(":one: :two:"), ["one", "two"]);
        assert_eq!(emoji_shortcodes("(:ok:)"), ["ok"]);
        assert!(is_valid_shortcode("blob_cat2"));
        assert!(!is_valid_shortcode("blob-cat"));
    }

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
    fn tag_normalisation_rules() {
        // Case folding and Latin letters folded to ASCII: one tag.
        assert_eq!(normalize_tag("Café"), normalize_tag("cafe"));
        assert_eq!(normalize_tag("CAFÉ"), "cafe");
        assert_eq!(normalize_tag("Ça_Va"), "ca_va");
        assert_eq!(normalize_tag("Æsir"), "aesir");
        assert_eq!(normalize_tag("Łódź"), "lodz");
        assert_eq!(normalize_tag("Þór"), "thor");
        // A decomposed accent (e + U+0301) is the same tag as the composed one.
        assert_eq!(normalize_tag("cafe\u{301}"), "cafe");
        // NFKC: full-width letters and digits, ligatures.
        assert_eq!(normalize_tag("ＣａｆÉ２０２４"), "cafe2024");
        assert_eq!(normalize_tag("ﬁsh"), "fish");
        // Other scripts keep their letters; case folding still applies where there is case.
        assert_eq!(normalize_tag("Ελλάδα"), "ελλάδα");
        assert_eq!(normalize_tag("Москва"), "москва");
        assert_eq!(normalize_tag("한국어"), "한국어");
        // Separators stay.
        assert_eq!(normalize_tag("a·B"), "a·b");
        assert_eq!(normalize_tag("ｱ･ｲ"), "ア・イ");
    }

    #[test]
    fn tag_name_validity() {
        for ok in [
            "rust",
            "Rust2024",
            "2024rust",
            "_rust",
            "rust_",
            "1_2",
            "a·b",
            "___",
            "日本語",
            "ガギ",
            "Ｒｕｓｔ",
            "ア・イ",
            "x",
        ] {
            assert!(is_valid_tag_name(ok), "{ok} should be valid");
        }
        for bad in [
            "", "123", "٣٤", "_", "__", "_1", "·a", "a·", "a-b", "a b", "a.b", "#a", "a²", "😀",
        ] {
            assert!(!is_valid_tag_name(bad), "{bad:?} should be invalid");
        }
        // Length: at most MAX_TAG_LENGTH characters (not bytes).
        let longest = "é".repeat(MAX_TAG_LENGTH);
        assert!(is_valid_tag_name(&longest));
        assert!(!is_valid_tag_name(&format!("{longest}a")));
    }

    #[test]
    fn client_tag_names_parse() {
        assert_eq!(
            parse_tag_name("Café"),
            Some(("cafe".to_string(), "Café".to_string()))
        );
        assert_eq!(
            parse_tag_name("#Ｒｕｓｔ"),
            Some(("rust".to_string(), "Rust".to_string()))
        );
        assert_eq!(parse_tag_name("123"), None, "only digits");
        assert_eq!(parse_tag_name("##rust"), None);
        assert_eq!(parse_tag_name("a/b"), None);
        assert_eq!(parse_tag_name(""), None);
        assert_eq!(parse_tag_name(&"a".repeat(MAX_TAG_LENGTH + 1)), None);
        assert_eq!(tag_url_segment("caf_e-1"), "caf_e-1");
        assert_eq!(tag_url_segment("日本"), "%E6%97%A5%E6%9C%AC");
    }

    #[test]
    fn tags_in_text() {
        assert_eq!(
            extract_tags_with_display("#Café and #cafe and #CAFÉ #Ｒｕｓｔ"),
            vec![
                ("cafe".to_string(), "Café".to_string()),
                ("rust".to_string(), "Rust".to_string())
            ]
        );
        assert_eq!(
            extract_tags("#123 #2024 x#nope a/#no"),
            Vec::<String>::new()
        );
        // Trailing separators are not part of the tag; a superscript ends it.
        assert_eq!(extract_tags("#rust· #a·b #x²"), vec!["rust", "a·b", "x"]);
        let toks = tokenize("#rust·");
        assert_eq!(toks, vec![Token::Hashtag("rust"), Token::Text("·")]);
        let long = format!("#{}", "a".repeat(MAX_TAG_LENGTH + 1));
        assert!(extract_tags(&long).is_empty(), "too long to be a tag");
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
