//! Cursor pagination as Mastodon does it: `max_id`, `since_id`, `min_id`, `limit`, and the `Link` header.

use serde::Deserialize;

use crate::id::Id;
use crate::params::de;

/// The pagination parameters of a request, as sent.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PageParams {
    /// Items strictly older than this id.
    #[serde(default)]
    pub max_id: Option<Id>,
    /// Items strictly newer than this id, newest first.
    #[serde(default)]
    pub since_id: Option<Id>,
    /// Items strictly newer than this id, the ones immediately after it.
    #[serde(default)]
    pub min_id: Option<Id>,
    /// How many items; clamped to the endpoint's maximum.
    #[serde(default, deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
}

impl PageParams {
    /// The page to read, with the endpoint's default and maximum `limit`.
    ///
    /// As Mastodon: missing means the default, otherwise `min(|limit|, max)`; 0 means the default.
    pub fn page(&self, default: usize, max: usize) -> Page {
        let limit = match self.limit {
            None | Some(0) => default,
            Some(n) => (n.unsigned_abs() as usize).min(max),
        };
        Page {
            max_id: self.max_id,
            since_id: self.since_id,
            min_id: self.min_id,
            limit,
        }
    }
}

/// A page request as stores receive it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// Strictly below.
    pub max_id: Option<Id>,
    /// Strictly above (newest first).
    pub since_id: Option<Id>,
    /// Strictly above (the oldest such items first, returned newest first).
    pub min_id: Option<Id>,
    /// At most this many.
    pub limit: usize,
}

impl Page {
    /// The first page of `limit` items.
    pub fn first(limit: usize) -> Page {
        Page {
            max_id: None,
            since_id: None,
            min_id: None,
            limit,
        }
    }

    /// Whether an id lies inside the page's bounds (ignoring the limit).
    pub fn contains(&self, id: Id) -> bool {
        self.max_id.is_none_or(|m| id < m)
            && self.since_id.is_none_or(|s| id > s)
            && self.min_id.is_none_or(|s| id > s)
    }

    /// Whether the page reads upwards from `min_id` (the store must take the oldest items first).
    pub fn ascending(&self) -> bool {
        self.min_id.is_some()
    }

    /// Applies the page to items sorted newest first; the result is newest first.
    /// In-memory stores use it; SQL stores do the same with `ORDER BY` and `LIMIT`.
    pub fn apply<T>(
        &self,
        items_newest_first: impl DoubleEndedIterator<Item = T>,
        id_of: impl Fn(&T) -> Id,
    ) -> Vec<T> {
        if self.ascending() {
            let mut v: Vec<T> = items_newest_first
                .rev()
                .filter(|t| self.contains(id_of(t)))
                .take(self.limit)
                .collect();
            v.reverse();
            v
        } else {
            items_newest_first
                .filter(|t| self.contains(id_of(t)))
                .take(self.limit)
                .collect()
        }
    }
}

/// Builds the `Link` header of a page: `next` (older, `max_id` = the last item's cursor) and
/// `prev` (newer, `min_id` = the first item's cursor). `None` for an empty page.
///
/// `url` is the absolute URL of the endpoint without a query; `query` is the request's query string,
/// whose other parameters (filters, `limit`) are echoed into both links.
pub fn link_header(url: &str, query: &str, first: Option<Id>, last: Option<Id>) -> Option<String> {
    let (first, last) = (first?, last?);
    let kept: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .filter(|(k, _)| !matches!(k.as_ref(), "max_id" | "since_id" | "min_id"))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let build = |key: &str, id: Id| {
        let mut ser = form_urlencoded::Serializer::new(String::new());
        for (k, v) in &kept {
            ser.append_pair(k, v);
        }
        ser.append_pair(key, &id.to_string());
        format!("{url}?{}", ser.finish())
    };
    Some(format!(
        "<{}>; rel=\"next\", <{}>; rel=\"prev\"",
        build("max_id", last),
        build("min_id", first)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_clamps_like_mastodon() {
        let p = |l: Option<i64>| {
            PageParams {
                limit: l,
                ..Default::default()
            }
            .page(20, 40)
            .limit
        };
        assert_eq!(p(None), 20);
        assert_eq!(p(Some(5)), 5);
        assert_eq!(p(Some(-5)), 5);
        assert_eq!(p(Some(400)), 40);
    }

    #[test]
    fn apply_reads_both_directions() {
        let items: Vec<u64> = (1..=10).rev().collect();
        let page = Page {
            max_id: Some(Id(8)),
            since_id: None,
            min_id: None,
            limit: 3,
        };
        assert_eq!(
            page.apply(items.clone().into_iter(), |x| Id(*x)),
            vec![7, 6, 5]
        );
        let page = Page {
            max_id: None,
            since_id: None,
            min_id: Some(Id(2)),
            limit: 3,
        };
        assert_eq!(
            page.apply(items.clone().into_iter(), |x| Id(*x)),
            vec![5, 4, 3]
        );
        let page = Page {
            max_id: None,
            since_id: Some(Id(2)),
            min_id: None,
            limit: 3,
        };
        assert_eq!(page.apply(items.into_iter(), |x| Id(*x)), vec![10, 9, 8]);
    }

    #[test]
    fn link_header_echoes_filters() {
        let h = link_header(
            "https://x.test/api/v1/timelines/public",
            "local=true&max_id=9&limit=2",
            Some(Id(8)),
            Some(Id(7)),
        )
        .unwrap();
        assert_eq!(
            h,
            "<https://x.test/api/v1/timelines/public?local=true&limit=2&max_id=7>; rel=\"next\", <https://x.test/api/v1/timelines/public?local=true&limit=2&min_id=8>; rel=\"prev\""
        );
        assert!(link_header("u", "", None, None).is_none());
    }
}
