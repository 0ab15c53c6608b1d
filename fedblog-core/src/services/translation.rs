//! Translating statuses through the configured [`Translator`] (`POST /api/v1/statuses/:id/translate`)
//! and the language pairs it offers (`GET /api/v1/instance/translation_languages`), with the
//! sanitising of what the backend sends back.
//!
//! The rules follow Mastodon's `TranslateStatusService`: a status the viewer may not see is a 404;
//! with no backend, a status that is not public or unlisted, or a language pair the backend does
//! not offer (translating into the status's own language among them), it is a 403 `This action is
//! not allowed`; a backend failure is a 503. Content, content warning, poll options and media
//! descriptions go to the backend in one request.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::LazyLock;

use crate::content::escape;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::services::visibility::VisibilityRule;
use crate::store::{AccountRecord, MediaStore, PollStore, StatusStore, Store, Visibility};
use crate::translation::{LanguageMatrix, TranslationError, Translator};

/// The key of [`Translation::translation_languages`] for statuses whose language is not known.
pub const UNKNOWN_LANGUAGE: &str = "und";

/// The language a status is translated into when the client names none and the login has no
/// locale (Mastodon's default locale).
pub const DEFAULT_TARGET_LANGUAGE: &str = "en";

/// A translated status, before rendering (see `App::render_translation`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusTranslation {
    /// The translated content: sanitised HTML.
    pub content: String,
    /// The translated content warning: plain text (empty when the status has none).
    pub spoiler_text: String,
    /// The poll's id and its translated option titles (plain text), in order.
    pub poll: Option<(Id, Vec<String>)>,
    /// The translated media descriptions (plain text), in the order given.
    pub media_attachments: Vec<(Id, String)>,
    /// The language the backend detected, else the status's, else `und`.
    pub detected_source_language: String,
    /// The language translated into.
    pub language: String,
    /// The backend's name.
    pub provider: String,
}

/// The language to translate into: the `lang` parameter when given, else the login's locale,
/// else [`DEFAULT_TARGET_LANGUAGE`].
pub fn target_language(lang: Option<&str>, locale: Option<&str>) -> String {
    [lang, locale]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or(DEFAULT_TARGET_LANGUAGE)
        .to_string()
}

/// Which source text a position of the batch sent to the backend holds.
enum Part {
    Content,
    Spoiler,
    PollOption,
    Media(Id),
}

/// The translation area: `app.translation()`. It holds the configured translator (if any), the
/// status, poll and media stores a status's texts come from, and the visibility rule.
pub struct Translation<'a> {
    translator: Option<&'a dyn Translator>,
    statuses: &'a dyn StatusStore,
    polls: &'a dyn PollStore,
    media: &'a dyn MediaStore,
    visibility: VisibilityRule<'a>,
}

impl<'a> Translation<'a> {
    /// The area translating through `translator` (none: translation is disabled), reading the
    /// statuses `visibility` lets through with their polls and media from `store`.
    pub fn new(
        translator: Option<&'a dyn Translator>,
        store: &'a dyn Store,
        visibility: VisibilityRule<'a>,
    ) -> Self {
        Translation {
            translator,
            statuses: store,
            polls: store,
            media: store,
            visibility,
        }
    }

    /// The language pairs the backend offers: source → targets, sorted, a language never its own
    /// target, plus [`UNKNOWN_LANGUAGE`] → every target (for statuses of unknown language).
    /// Empty when translation is disabled; 503 when the backend fails.
    pub async fn translation_languages(&self) -> ApiResult<LanguageMatrix> {
        let Some(translator) = self.translator else {
            return Ok(BTreeMap::new());
        };
        let mut matrix: LanguageMatrix = BTreeMap::new();
        let mut all = BTreeSet::new();
        for (source, targets) in translator.languages().await? {
            let targets: BTreeSet<String> = targets.into_iter().filter(|t| *t != source).collect();
            all.extend(targets.iter().cloned());
            matrix.insert(source, targets.into_iter().collect());
        }
        matrix.insert(UNKNOWN_LANGUAGE.to_string(), all.into_iter().collect());
        Ok(matrix)
    }

    /// Translates a status `viewer` may see into `target`: its content, content warning, poll
    /// options and media descriptions, in one backend call. A reblog is translated as its
    /// original.
    pub async fn translate_status(
        &self,
        viewer: &AccountRecord,
        id: Id,
        target: &str,
    ) -> ApiResult<StatusTranslation> {
        let named = self.visibility.visible_status(Some(viewer), id).await?;
        // `visible_status` has checked that the viewer may see the original too.
        let status = match named.reblog_of_id {
            None => named,
            Some(of) => self
                .statuses
                .status_by_id(of)
                .await?
                .ok_or_else(ApiError::not_found)?,
        };
        let Some(translator) = self.translator else {
            return Err(ApiError::forbidden());
        };
        if !matches!(status.visibility, Visibility::Public | Visibility::Unlisted) {
            return Err(ApiError::forbidden());
        }
        let languages = self.translation_languages().await?;
        let source_key = status.language.as_deref().unwrap_or(UNKNOWN_LANGUAGE);
        let offered = languages
            .get(source_key)
            .is_some_and(|targets| targets.iter().any(|t| t == target));
        if !offered {
            return Err(ApiError::forbidden());
        }

        let poll = self
            .polls
            .polls_by_status_ids(&[status.id])
            .await?
            .into_iter()
            .find(|p| p.status_id == status.id);
        let mut parts = Vec::new();
        let mut texts = Vec::new();
        if !status.content.trim().is_empty() {
            parts.push(Part::Content);
            texts.push(protect_hashtags(&status.content));
        }
        if !status.spoiler_text.is_empty() {
            parts.push(Part::Spoiler);
            texts.push(escape(&status.spoiler_text));
        }
        if let Some(poll) = &poll {
            for option in &poll.options {
                parts.push(Part::PollOption);
                texts.push(escape(option));
            }
        }
        // The described media, in order (an empty description stays empty).
        let media: HashMap<Id, _> = if status.media_ids.is_empty() {
            HashMap::new()
        } else {
            self.media
                .media_by_ids(&status.media_ids)
                .await?
                .into_iter()
                .map(|m| (m.id, m))
                .collect()
        };
        let described: Vec<(Id, &str)> = status
            .media_ids
            .iter()
            .filter_map(|id| media.get(id))
            .filter_map(|m| m.description.as_deref().map(|d| (m.id, d)))
            .collect();
        for (media_id, description) in &described {
            if !description.is_empty() {
                parts.push(Part::Media(*media_id));
                texts.push(escape(description));
            }
        }
        if texts.is_empty() {
            return Err(ApiError::forbidden());
        }

        let translated = translator
            .translate(&texts, status.language.as_deref(), target)
            .await?;
        if translated.texts.len() != texts.len() {
            return Err(TranslationError::Unavailable(format!(
                "asked for {} translations, got {}",
                texts.len(),
                translated.texts.len()
            ))
            .into());
        }

        let mut out = StatusTranslation {
            content: String::new(),
            spoiler_text: String::new(),
            poll: poll.as_ref().map(|p| (p.id, Vec::new())),
            media_attachments: Vec::new(),
            detected_source_language: translated
                .detected_source_language
                .clone()
                .filter(|l| !l.trim().is_empty())
                .or_else(|| status.language.clone())
                .unwrap_or_else(|| UNKNOWN_LANGUAGE.to_string()),
            language: target.to_string(),
            provider: translator.provider().to_string(),
        };
        let mut translated_media: BTreeMap<Id, String> = BTreeMap::new();
        for (part, text) in parts.iter().zip(&translated.texts) {
            match part {
                Part::Content => out.content = sanitize_html(text),
                Part::Spoiler => out.spoiler_text = html_to_text(text),
                Part::PollOption => {
                    if let Some((_, options)) = &mut out.poll {
                        options.push(html_to_text(text));
                    }
                }
                Part::Media(media_id) => {
                    translated_media.insert(*media_id, html_to_text(text));
                }
            }
        }
        out.media_attachments = described
            .into_iter()
            .map(|(media_id, _)| {
                let text = translated_media.remove(&media_id).unwrap_or_default();
                (media_id, text)
            })
            .collect();
        Ok(out)
    }
}

/// Marks hashtag links as not to be translated (links and mentions already are, see
/// `content::render_html`).
fn protect_hashtags(html: &str) -> String {
    html.replace(
        "class=\"mention hashtag\" rel=\"tag\">",
        "class=\"mention hashtag\" rel=\"tag\" translate=\"no\">",
    )
}

/// Elements kept in translated content (Mastodon's strict sanitiser's list).
const ALLOWED_ELEMENTS: &[&str] = &[
    "p",
    "br",
    "span",
    "a",
    "del",
    "pre",
    "blockquote",
    "code",
    "b",
    "strong",
    "u",
    "i",
    "em",
    "ul",
    "ol",
    "li",
];

/// Elements dropped with everything inside them.
const DROPPED_WITH_CONTENT: &[&str] = &[
    "script", "style", "template", "iframe", "object", "embed", "textarea", "title", "noscript",
    "svg", "math", "head",
];

/// Classes kept on `a` and `span` (those Mastodon's own HTML uses).
const ALLOWED_CLASSES: &[&str] = &[
    "h-card",
    "u-url",
    "mention",
    "hashtag",
    "invisible",
    "ellipsis",
];

/// The sanitiser of translated content (see [`sanitize_html`]).
static SANITIZER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let classes: HashSet<&str> = ALLOWED_CLASSES.iter().copied().collect();
    let translate_no = || HashMap::from([("translate", HashSet::from(["no"]))]);
    let mut builder = ammonia::Builder::empty();
    builder
        .tags(ALLOWED_ELEMENTS.iter().copied().collect())
        .clean_content_tags(DROPPED_WITH_CONTENT.iter().copied().collect())
        .strip_comments(true)
        .generic_attributes(HashSet::new())
        .tag_attributes(HashMap::from([("a", HashSet::from(["href"]))]))
        .tag_attribute_values(HashMap::from([
            ("a", translate_no()),
            ("span", translate_no()),
        ]))
        .allowed_classes(HashMap::from([("a", classes.clone()), ("span", classes)]))
        .url_schemes(HashSet::from(["http", "https"]))
        .url_relative(ammonia::UrlRelative::Deny)
        .link_rel(Some("nofollow noopener"))
        .set_tag_attribute_value("a", "target", "_blank")
        // `allowed_classes` would leave `class=""` where no class is allowed: drop it instead.
        .attribute_filter(|_, attribute, value| {
            let keep = attribute != "class"
                || value
                    .split_ascii_whitespace()
                    .any(|c| ALLOWED_CLASSES.contains(&c));
            keep.then_some(value.into())
        });
    builder
});

/// Strips every tag (and the elements of [`DROPPED_WITH_CONTENT`] with their content), leaving
/// escaped text (see [`html_to_text`]).
static TAG_STRIPPER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut builder = ammonia::Builder::empty();
    builder
        .clean_content_tags(DROPPED_WITH_CONTENT.iter().copied().collect())
        .strip_comments(true);
    builder
});

/// The text of an HTML fragment: tags left out, character references decoded.
pub fn html_to_text(html: &str) -> String {
    let escaped = TAG_STRIPPER.clean(html).to_string();
    html_escape::decode_html_entities(&escaped).into_owned()
}

/// Keeps the markup of translated content a client may show: the elements of
/// [`ALLOWED_ELEMENTS`] with a few attributes (`href` only for absolute http and https links, on
/// `a`, which get `target="_blank"` and `rel="nofollow noopener"`; classes only those Mastodon
/// uses; `translate="no"`), every element closed; other tags are dropped (their text kept), and
/// all text is escaped again. The work is done by `ammonia` (an html5ever parse, so the
/// markup is read as a browser would read it).
pub fn sanitize_html(html: &str) -> String {
    SANITIZER.clean(html).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_prefers_lang_then_locale_then_english() {
        assert_eq!(target_language(Some("de"), Some("fr")), "de");
        assert_eq!(target_language(Some("  "), Some("fr")), "fr");
        assert_eq!(target_language(None, Some("")), "en");
        assert_eq!(target_language(None, None), "en");
    }

    #[test]
    fn sanitize_keeps_mastodon_markup() {
        let html = "<p>Hallo <a href=\"https://x.test/tags/a\" class=\"mention hashtag\" rel=\"tag\" translate=\"no\">#<span>a</span></a><br>Welt</p>";
        assert_eq!(
            sanitize_html(html),
            "<p>Hallo <a href=\"https://x.test/tags/a\" class=\"mention hashtag\" translate=\"no\" target=\"_blank\" rel=\"nofollow noopener\">#<span>a</span></a><br>Welt</p>"
        );
        let list = "<ul><li><del>x</del></li></ul><ol><li><em>y</em></li></ol><blockquote><pre><code>z</code></pre></blockquote><strong>s</strong><u>u</u><i>i</i>";
        assert_eq!(sanitize_html(list), list);
    }

    #[test]
    fn sanitize_removes_scripts_handlers_and_bad_links() {
        let html = "<p onclick=\"evil()\">a<script>alert('x')</script>b<img src=x onerror=alert(1)><a href=\"javascript:alert(1)\">c</a><style>p{}</style><!-- hidden --></p>";
        // An `a` left without `href` still gets `target` and `rel`, which are harmless on it.
        assert_eq!(
            sanitize_html(html),
            "<p>ab<a target=\"_blank\" rel=\"nofollow noopener\">c</a></p>"
        );
        for bad in [
            " JavaScript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:x",
            "/relative/path",
            "//x.test/no-scheme",
        ] {
            let out = sanitize_html(&format!("<a href=\"{bad}\">c</a>"));
            assert!(!out.contains("href"), "{bad:?} kept: {out}");
        }
        assert_eq!(
            sanitize_html(
                "<iframe src=\"https://x.test\">in</iframe><svg><script>1</script></svg><textarea>t</textarea>ok"
            ),
            "ok"
        );
    }

    #[test]
    fn sanitize_drops_unknown_attributes_classes_and_translate_values() {
        assert_eq!(
            sanitize_html(
                "<span class=\"evil invisible\" style=\"color:red\" id=\"x\" title=\"t\" lang=\"de\">a</span>"
            ),
            "<span class=\"invisible\">a</span>"
        );
        assert_eq!(
            sanitize_html("<span class=\"evil\" translate=\"yes\">a</span>"),
            "<span>a</span>"
        );
        assert_eq!(
            sanitize_html("<p class=\"mention\" translate=\"no\">a</p><b title=\"t\">b</b>"),
            "<p>a</p><b>b</b>"
        );
        assert_eq!(
            sanitize_html("<a href=\"http://x.test/\" rel=\"opener\" target=\"_self\">l</a>"),
            "<a href=\"http://x.test/\" target=\"_blank\" rel=\"nofollow noopener\">l</a>"
        );
    }

    #[test]
    fn sanitize_closes_and_balances_elements() {
        // Read as a browser reads it: `</p>` closes the `b` too, which reopens for `y`.
        assert_eq!(sanitize_html("<p><b>x</p>y</i>"), "<p><b>x</b></p><b>y</b>");
        assert_eq!(sanitize_html("<p>open"), "<p>open</p>");
    }

    #[test]
    fn sanitize_escapes_stray_markup_characters() {
        assert_eq!(
            sanitize_html("1 < 2 & 3 > 2 &amp; &lt;b&gt; &bogus;"),
            "1 &lt; 2 &amp; 3 &gt; 2 &amp; &lt;b&gt; &amp;bogus;"
        );
        assert_eq!(sanitize_html("<p title=\"a>b\">t</p>"), "<p>t</p>");
    }

    #[test]
    fn text_of_html_decodes_entities_and_drops_tags() {
        assert_eq!(
            html_to_text("<span translate=\"no\">:cat:</span> &lt;3 &amp; &#39;x&#x27; &#128512;"),
            ":cat: <3 & 'x' 😀"
        );
        assert_eq!(html_to_text("a<script>b</script>c"), "ac");
        assert_eq!(
            html_to_text("<p>1 &amp;lt; 2</p><!-- c --><style>x</style>"),
            "1 &lt; 2"
        );
        assert_eq!(html_to_text("plain"), "plain");
        assert_eq!(
            html_to_text("a&nbsp;b\u{a0}c &quot;q&quot;"),
            "a\u{a0}b\u{a0}c \"q\""
        );
    }

    #[test]
    fn hashtags_are_marked_untranslatable() {
        let html = "<p><a href=\"https://x.test/tags/rust\" class=\"mention hashtag\" rel=\"tag\">#<span>rust</span></a></p>";
        assert!(protect_hashtags(html).contains("rel=\"tag\" translate=\"no\">"));
    }
}
