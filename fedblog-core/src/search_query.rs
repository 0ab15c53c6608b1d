//! The language of a full-text status search, as Mastodon 4.2+ reads it: words, `"quoted
//! phrases"`, `-` to exclude (and `+`, which changes nothing), and the operators `from:` (`me`,
//! or an account `user` / `user@domain`), `has:` (`media`, `poll`, `link`, `embed`, `image`,
//! `video`, `audio`), `is:` (`reply`, `sensitive`), `language:`, `before:`, `after:` and
//! `during:` (a date, `YYYY-MM-DD`), and `in:` (`library`, `public`, `all`). Only those names
//! are operators, so that a URL stays a word. What a parsed query finds is the search index's.

use chrono::NaiveDate;

/// A parsed status query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusQuery {
    /// Words and phrases every status found must contain.
    pub must: Vec<Text>,
    /// Words and phrases no status found may contain.
    pub must_not: Vec<Text>,
    /// Conditions on everything else, each possibly negated.
    pub filters: Vec<Filter>,
}

impl StatusQuery {
    /// Whether it asks for nothing at all (no text and no condition).
    pub fn is_empty(&self) -> bool {
        self.must.is_empty() && self.must_not.is_empty() && self.filters.is_empty()
    }

    /// Where to search (`in:`), the last one given; [`In::All`] when none is.
    pub fn scope(&self) -> In {
        self.filters
            .iter()
            .rev()
            .find_map(|f| match f.kind {
                FilterKind::In(scope) if !f.negated => Some(scope),
                _ => None,
            })
            .unwrap_or(In::All)
    }
}

/// A piece of text to look for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Text {
    /// One word (any run of characters without space or `"`: `#tag`, `:emoji:` and URLs too).
    Word(String),
    /// Words in this order, next to each other.
    Phrase(String),
}

/// One condition of a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// `-` before it: statuses that do not meet it.
    pub negated: bool,
    /// The condition.
    pub kind: FilterKind,
}

/// What a condition is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterKind {
    /// `from:` an author.
    From(Author),
    /// `has:` something attached.
    Has(Has),
    /// `is:` a property.
    Is(Is),
    /// `language:` a language code, as given (`en`, `pt-BR`), normalised by [`language_code`].
    Language(String),
    /// `before:` a day: posted before it began.
    Before(NaiveDate),
    /// `after:` a day: posted after it ended.
    After(NaiveDate),
    /// `during:` a day: posted on it.
    During(NaiveDate),
    /// `in:` where to look.
    In(In),
}

/// The author of `from:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Author {
    /// `from:me`: the searcher.
    Me,
    /// `from:user` or `from:user@domain` (a leading `@` dropped), lower-cased.
    Handle(String),
}

/// What `has:` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Has {
    /// Any attachment.
    Media,
    /// A poll.
    Poll,
    /// A link.
    Link,
    /// A link with a preview card of a video or rich embed.
    Embed,
    /// An image (or a GIF).
    Image,
    /// A video.
    Video,
    /// An audio file.
    Audio,
}

/// What `is:` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Is {
    /// A reply.
    Reply,
    /// Marked sensitive.
    Sensitive,
}

/// Where to look (`in:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum In {
    /// The searcher's own statuses and those it interacted with.
    Library,
    /// Public statuses of accounts that let themselves be found (`indexable`).
    Public,
    /// Both (the default).
    All,
}

/// Why a query cannot be searched: an operator with a value it does not take. Mastodon finds
/// nothing for such a query; so does fedblog.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{operator}:{value}` is not a search operator fedblog knows")]
pub struct QueryError {
    /// The operator.
    pub operator: String,
    /// The value given.
    pub value: String,
}

/// The operators (anything else before a `:` is part of a word).
const OPERATORS: [&str; 8] = [
    "from", "has", "is", "language", "before", "after", "during", "in",
];

/// Reads a query. Unbalanced quotes: a `"` with no closing one is part of the word it starts.
pub fn parse(q: &str) -> Result<StatusQuery, QueryError> {
    let mut query = StatusQuery::default();
    let chars: Vec<char> = q.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        // A `-` or `+` right before a clause (not a lone sign, which is a word).
        let sign = chars[i];
        let signed =
            (sign == '-' || sign == '+') && chars.get(i + 1).is_some_and(|c| !c.is_whitespace());
        let negated = signed && sign == '-';
        let start = if signed { i + 1 } else { i };
        // A phrase, when its quote closes.
        if chars[start] == '"'
            && let Some(len) = chars[start + 1..].iter().position(|&c| c == '"')
        {
            let phrase: String = chars[start + 1..start + 1 + len].iter().collect();
            let phrase = phrase.split_whitespace().collect::<Vec<_>>().join(" ");
            if !phrase.is_empty() {
                push_text(&mut query, negated, Text::Phrase(phrase));
            }
            i = start + len + 2;
            continue;
        }
        let end = chars[start..]
            .iter()
            .position(|c| c.is_whitespace())
            .map_or(chars.len(), |n| start + n);
        let token: String = chars[start..end].iter().collect();
        i = end;
        match token.split_once(':') {
            Some((op, value)) if OPERATORS.contains(&op.to_ascii_lowercase().as_str()) => {
                let kind = operator(&op.to_ascii_lowercase(), value)?;
                query.filters.push(Filter { negated, kind });
            }
            _ => push_text(&mut query, negated, Text::Word(token)),
        }
    }
    Ok(query)
}

fn push_text(query: &mut StatusQuery, negated: bool, text: Text) {
    if negated {
        query.must_not.push(text);
    } else {
        query.must.push(text);
    }
}

/// The condition of operator `op` (lower case, one of [`OPERATORS`]) with `value`.
fn operator(op: &str, value: &str) -> Result<FilterKind, QueryError> {
    let bad = || QueryError {
        operator: op.to_string(),
        value: value.to_string(),
    };
    let lower = value.to_ascii_lowercase();
    Ok(match op {
        "from" => {
            let handle = lower.trim_start_matches('@');
            if handle == "me" {
                FilterKind::From(Author::Me)
            } else if handle.is_empty() || handle.contains(['/', ':']) {
                return Err(bad());
            } else {
                FilterKind::From(Author::Handle(handle.to_string()))
            }
        }
        "has" => FilterKind::Has(match lower.as_str() {
            "media" => Has::Media,
            "poll" => Has::Poll,
            "link" => Has::Link,
            "embed" => Has::Embed,
            "image" => Has::Image,
            "video" => Has::Video,
            "audio" => Has::Audio,
            _ => return Err(bad()),
        }),
        "is" => FilterKind::Is(match lower.as_str() {
            "reply" => Is::Reply,
            "sensitive" => Is::Sensitive,
            _ => return Err(bad()),
        }),
        "language" => {
            let code = language_code(value);
            if code.is_empty() || !code.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(bad());
            }
            FilterKind::Language(code)
        }
        "before" | "after" | "during" => {
            let day = NaiveDate::parse_from_str(value, "%Y-%m-%d").map_err(|_| bad())?;
            match op {
                "before" => FilterKind::Before(day),
                "after" => FilterKind::After(day),
                _ => FilterKind::During(day),
            }
        }
        "in" => FilterKind::In(match lower.as_str() {
            "library" => In::Library,
            "public" => In::Public,
            "all" => In::All,
            _ => return Err(bad()),
        }),
        _ => return Err(bad()),
    })
}

/// A language code as statuses carry it: lower case, its first part (`pt-BR` and `pt_BR` are
/// `pt`), as Mastodon falls back when the whole code is not one it knows.
pub fn language_code(value: &str) -> String {
    value
        .split(['-', '_'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// The words of a text as search compares them: runs of letters and digits, lower-cased
/// (`#Rust` is `rust`, `don't` is `don` and `t`).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(s: &str) -> Text {
        Text::Word(s.into())
    }

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn words_phrases_and_exclusions() {
        let q = parse(r#"  Rust  "async traits"  -java +tokio -"bad idea" "#).unwrap();
        assert_eq!(
            q.must,
            vec![
                word("Rust"),
                Text::Phrase("async traits".into()),
                word("tokio")
            ]
        );
        assert_eq!(
            q.must_not,
            vec![word("java"), Text::Phrase("bad idea".into())]
        );
        assert!(q.filters.is_empty());
        assert!(parse("   ").unwrap().is_empty());
        // An unclosed quote is part of a word; a lone sign is a word.
        assert_eq!(parse(r#""open"#).unwrap().must, vec![word("\"open")]);
        assert_eq!(
            parse("a - b").unwrap().must,
            vec![word("a"), word("-"), word("b")]
        );
        // Phrases keep their words, not their spacing; an empty one is nothing.
        assert_eq!(
            parse(r#""  two   words """"#).unwrap().must,
            vec![Text::Phrase("two words".into())]
        );
    }

    #[test]
    fn operators_and_their_values() {
        let q = parse(
            "from:me -from:@Bob@Example.COM has:media -has:poll is:reply is:sensitive \
             language:pt-BR before:2024-01-31 after:2023-12-01 during:2024-01-15 in:library",
        )
        .unwrap();
        let kinds: Vec<(bool, FilterKind)> = q
            .filters
            .iter()
            .map(|f| (f.negated, f.kind.clone()))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (false, FilterKind::From(Author::Me)),
                (
                    true,
                    FilterKind::From(Author::Handle("bob@example.com".into()))
                ),
                (false, FilterKind::Has(Has::Media)),
                (true, FilterKind::Has(Has::Poll)),
                (false, FilterKind::Is(Is::Reply)),
                (false, FilterKind::Is(Is::Sensitive)),
                (false, FilterKind::Language("pt".into())),
                (false, FilterKind::Before(day("2024-01-31"))),
                (false, FilterKind::After(day("2023-12-01"))),
                (false, FilterKind::During(day("2024-01-15"))),
                (false, FilterKind::In(In::Library)),
            ]
        );
        assert!(q.must.is_empty());
        assert_eq!(q.scope(), In::Library);
        assert_eq!(parse("cats").unwrap().scope(), In::All);
        assert_eq!(
            parse("HAS:Image in:public").unwrap().filters,
            vec![
                Filter {
                    negated: false,
                    kind: FilterKind::Has(Has::Image)
                },
                Filter {
                    negated: false,
                    kind: FilterKind::In(In::Public)
                },
            ]
        );
    }

    #[test]
    fn urls_and_unknown_prefixes_are_words() {
        let q = parse("https://example.com/a:b note:this #tag :blobcat:").unwrap();
        assert_eq!(
            q.must,
            vec![
                word("https://example.com/a:b"),
                word("note:this"),
                word("#tag"),
                word(":blobcat:")
            ]
        );
        assert!(q.filters.is_empty());
    }

    #[test]
    fn bad_operator_values_are_errors() {
        for q in [
            "has:banana",
            "is:cool",
            "before:yesterday",
            "during:2024-13-01",
            "in:space",
            "from:",
            "language:",
            "language:1x",
        ] {
            assert!(parse(q).is_err(), "{q}");
        }
        let e = parse("cats has:banana").unwrap_err();
        assert_eq!((e.operator.as_str(), e.value.as_str()), ("has", "banana"));
    }
}
