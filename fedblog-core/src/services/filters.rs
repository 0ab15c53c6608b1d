//! Filters: an account's groups of keywords and statuses (v2), the v1 view of them (one keyword
//! each), their validation, and applying them: statuses a signed-in viewer reads carry the
//! filters they match (`filtered`), and statuses matching a `hide` filter are left out of the
//! timelines and notifications of the filter's contexts.
//!
//! Matching is Mastodon's: a filter's keywords are matched case-insensitively against a status's
//! content warning, text, poll options and media descriptions (a reblog's original's); a
//! `whole_word` keyword only where it starts and ends at word boundaries (a boundary is asked for
//! only at an end that is a word character); a filter's statuses match by id (a reblog's original
//! too). Expired filters are listed but never applied.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use regex::{Regex, RegexBuilder};

use crate::error::{ApiError, ApiResult, StoreError};
use crate::events::{DomainEvent, EventBus, publish_logged};
use crate::id::{Id, IdGenerator};
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountRecord, FilterAction, FilterContext, FilterKeywordRecord, FilterRecord,
    FilterStatusRecord, FilterStore,
};

/// A new expiry: `Never`, or this many seconds from now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpiresIn {
    /// The filter never expires.
    Never,
    /// It expires this many seconds from now.
    Seconds(i64),
}

/// One entry of `keywords_attributes[]`: a new keyword (no `id`), a change to the keyword `id`,
/// or its removal (`destroy`).
#[derive(Clone, Debug, Default)]
pub struct KeywordChange {
    /// The keyword changed or removed; `None` adds one.
    pub id: Option<Id>,
    /// Its text.
    pub keyword: Option<String>,
    /// Whether it matches whole words only (true when a new keyword does not say).
    pub whole_word: Option<bool>,
    /// Remove the keyword `id`.
    pub destroy: bool,
}

/// What a filter is made or changed with; `None` keeps the current value.
#[derive(Clone, Debug, Default)]
pub struct FilterChanges {
    /// The title; required on creation, never blank.
    pub title: Option<String>,
    /// The contexts; at least one of `home`, `notifications`, `public`, `thread`, `account`.
    pub context: Option<Vec<String>>,
    /// `warn` (the default), `hide` or `blur`.
    pub action: Option<String>,
    /// The new expiry.
    pub expires_in: Option<ExpiresIn>,
    /// Keywords added, changed and removed.
    pub keywords: Vec<KeywordChange>,
}

/// The fields of a v1 filter (one keyword with its filter's settings); `None` keeps the current
/// value on update.
#[derive(Clone, Debug, Default)]
pub struct V1FilterChanges {
    /// The keyword, which is also the filter's title.
    pub phrase: Option<String>,
    /// The contexts.
    pub context: Option<Vec<String>>,
    /// `hide` when true, `warn` when false.
    pub irreversible: Option<bool>,
    /// Whether the keyword matches whole words only.
    pub whole_word: Option<bool>,
    /// The new expiry.
    pub expires_in: Option<ExpiresIn>,
}

fn blank(field: &str, label: &str) -> ApiError {
    ApiError::invalid_field(field, "ERR_BLANK", format!("{label} can't be blank"))
}

/// The contexts of a request: trimmed, blanks dropped, each once; none, or an unknown one, is a
/// 422.
fn parse_context(raw: &[String]) -> ApiResult<Vec<FilterContext>> {
    let mut out = Vec::new();
    for c in raw.iter().map(|c| c.trim()).filter(|c| !c.is_empty()) {
        let parsed = FilterContext::parse(c).ok_or_else(|| {
            ApiError::invalid_field("context", "ERR_INVALID", "None or invalid context supplied")
        })?;
        if !out.contains(&parsed) {
            out.push(parsed);
        }
    }
    if out.is_empty() {
        return Err(blank("context", "Context"));
    }
    Ok(out)
}

fn parse_action(raw: &str) -> ApiResult<FilterAction> {
    FilterAction::parse(raw.trim()).ok_or_else(|| {
        ApiError::invalid_field(
            "filter_action",
            "ERR_INCLUSION",
            "Filter action is not included in the list",
        )
    })
}

fn expiry(now: DateTime<Utc>, e: ExpiresIn) -> ApiResult<Option<DateTime<Utc>>> {
    match e {
        ExpiresIn::Never => Ok(None),
        ExpiresIn::Seconds(s) => super::durations::seconds_after(now, s, "expires_in").map(Some),
    }
}

/// A keyword's text, trimmed; blank is a 422.
fn keyword_text(raw: Option<&str>) -> ApiResult<String> {
    let k = raw.unwrap_or("").trim();
    if k.is_empty() {
        return Err(blank("keyword", "Keyword"));
    }
    Ok(k.to_string())
}

/// Whether a stored error says the record is gone.
fn not_found(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound => ApiError::not_found(),
        e => e.into(),
    }
}

/// The filters area: `app.filters()`. It holds the filter store, the id generator, the event bus
/// it tells streaming of changed filters on, the visibility rule a filtered status is read
/// through, and the time expiries count from.
pub struct Filters<'a> {
    store: &'a dyn FilterStore,
    ids: &'a IdGenerator,
    events: &'a dyn EventBus,
    visibility: VisibilityRule<'a>,
    now: DateTime<Utc>,
}

impl<'a> Filters<'a> {
    /// The area over `store`, making ids with `ids`, publishing on `events`, reading statuses
    /// through `visibility`, at `now`.
    pub fn new(
        store: &'a dyn FilterStore,
        ids: &'a IdGenerator,
        events: &'a dyn EventBus,
        visibility: VisibilityRule<'a>,
        now: DateTime<Utc>,
    ) -> Self {
        Filters {
            store,
            ids,
            events,
            visibility,
            now,
        }
    }

    /// `me`'s filters, oldest first, expired ones too.
    pub async fn filters(&self, me: &AccountRecord) -> ApiResult<Vec<FilterRecord>> {
        Ok(self.store.filters_of(me.id).await?)
    }

    /// `me`'s filter `id`; another account's or an unknown filter is a 404.
    pub async fn own_filter(&self, me: &AccountRecord, id: Id) -> ApiResult<FilterRecord> {
        match self.store.filter_by_id(id).await? {
            Some(f) if f.account_id == me.id => Ok(f),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Makes a filter with its keywords. A blank title, no (or an unknown) context, an unknown
    /// action, a blank keyword or a bad expiry is a 422; naming an existing keyword (`id`) is a
    /// 404, as in Mastodon. Entries of `keywords` with nothing in them are skipped.
    pub async fn create_filter(
        &self,
        me: &AccountRecord,
        changes: FilterChanges,
    ) -> ApiResult<FilterRecord> {
        let now = self.now;
        let title = changes.title.as_deref().unwrap_or("").trim().to_string();
        if title.is_empty() {
            return Err(blank("title", "Title"));
        }
        let context = parse_context(changes.context.as_deref().unwrap_or(&[]))?;
        let action = match changes.action.as_deref() {
            Some(a) if !a.trim().is_empty() => parse_action(a)?,
            _ => FilterAction::Warn,
        };
        let expires_at = match changes.expires_in {
            Some(e) => expiry(now, e)?,
            None => None,
        };
        let id = self.ids.next();
        let mut keywords = Vec::new();
        for k in changes.keywords {
            if k.id.is_some() {
                return Err(ApiError::not_found());
            }
            if k.destroy || (k.keyword.is_none() && k.whole_word.is_none()) {
                continue;
            }
            keywords.push(FilterKeywordRecord {
                id: self.ids.next(),
                filter_id: id,
                keyword: keyword_text(k.keyword.as_deref())?,
                whole_word: k.whole_word.unwrap_or(true),
            });
        }
        let filter = FilterRecord {
            id,
            account_id: me.id,
            title,
            context,
            action,
            expires_at,
            created_at: now,
            keywords,
            statuses: vec![],
        };
        self.store.insert_filter(&filter).await?;
        self.filters_changed(me).await;
        Ok(filter)
    }

    /// Changes `me`'s filter `id`: its settings, and keywords added, changed (`id` with new
    /// values) and removed (`id` with `_destroy`), all or nothing. A keyword `id` that is not
    /// this filter's is a 404.
    pub async fn update_filter(
        &self,
        me: &AccountRecord,
        id: Id,
        changes: FilterChanges,
    ) -> ApiResult<FilterRecord> {
        let mut filter = self.own_filter(me, id).await?;
        if let Some(t) = changes.title {
            filter.title = t.trim().to_string();
            if filter.title.is_empty() {
                return Err(blank("title", "Title"));
            }
        }
        if let Some(c) = changes.context {
            filter.context = parse_context(&c)?;
        }
        if let Some(a) = changes.action {
            filter.action = parse_action(&a)?;
        }
        if let Some(e) = changes.expires_in {
            filter.expires_at = expiry(self.now, e)?;
        }
        let (mut added, mut changed, mut removed) = (vec![], vec![], vec![]);
        for k in changes.keywords {
            match k.id {
                Some(kid) => {
                    let Some(current) = filter.keywords.iter().find(|x| x.id == kid) else {
                        return Err(ApiError::not_found());
                    };
                    if k.destroy {
                        removed.push(kid);
                        continue;
                    }
                    changed.push(FilterKeywordRecord {
                        keyword: match &k.keyword {
                            Some(text) => keyword_text(Some(text))?,
                            None => current.keyword.clone(),
                        },
                        whole_word: k.whole_word.unwrap_or(current.whole_word),
                        ..current.clone()
                    });
                }
                None if k.destroy || (k.keyword.is_none() && k.whole_word.is_none()) => {}
                None => added.push(FilterKeywordRecord {
                    id: self.ids.next(),
                    filter_id: filter.id,
                    keyword: keyword_text(k.keyword.as_deref())?,
                    whole_word: k.whole_word.unwrap_or(true),
                }),
            }
        }
        self.store
            .update_filter(&filter, &added, &changed, &removed)
            .await
            .map_err(not_found)?;
        self.filters_changed(me).await;
        self.own_filter(me, id).await
    }

    /// Tells streaming that `me`'s filters changed.
    async fn filters_changed(&self, me: &AccountRecord) {
        publish_logged(self.events, DomainEvent::FiltersChanged { account: me.id }).await;
    }

    /// Deletes `me`'s filter `id` with its keywords and statuses.
    pub async fn delete_filter(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let filter = self.own_filter(me, id).await?;
        if !self.store.delete_filter(filter.id).await? {
            return Err(ApiError::not_found());
        }
        self.filters_changed(me).await;
        Ok(())
    }

    /// Adds a keyword to `me`'s filter `filter_id` (`whole_word` true unless it says otherwise).
    pub async fn add_filter_keyword(
        &self,
        me: &AccountRecord,
        filter_id: Id,
        keyword: Option<&str>,
        whole_word: Option<bool>,
    ) -> ApiResult<FilterKeywordRecord> {
        let filter = self.own_filter(me, filter_id).await?;
        let k = FilterKeywordRecord {
            id: self.ids.next(),
            filter_id: filter.id,
            keyword: keyword_text(keyword)?,
            whole_word: whole_word.unwrap_or(true),
        };
        self.store
            .insert_filter_keyword(&k)
            .await
            .map_err(not_found)?;
        self.filters_changed(me).await;
        Ok(k)
    }

    /// `me`'s keyword `id` (of one of `me`'s filters); anyone else's is a 404.
    pub async fn own_filter_keyword(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<FilterKeywordRecord> {
        let k = self
            .store
            .filter_keyword_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        self.own_filter(me, k.filter_id).await?;
        Ok(k)
    }

    /// Changes `me`'s keyword `id`; a missing or blank keyword is a 422.
    pub async fn update_filter_keyword(
        &self,
        me: &AccountRecord,
        id: Id,
        keyword: Option<&str>,
        whole_word: Option<bool>,
    ) -> ApiResult<FilterKeywordRecord> {
        let mut k = self.own_filter_keyword(me, id).await?;
        k.keyword = keyword_text(keyword)?;
        if let Some(w) = whole_word {
            k.whole_word = w;
        }
        if !self.store.update_filter_keyword(&k).await? {
            return Err(ApiError::not_found());
        }
        self.filters_changed(me).await;
        Ok(k)
    }

    /// Removes `me`'s keyword `id`.
    pub async fn delete_filter_keyword(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let k = self.own_filter_keyword(me, id).await?;
        if !self.store.delete_filter_keyword(k.id).await? {
            return Err(ApiError::not_found());
        }
        self.filters_changed(me).await;
        Ok(())
    }

    /// Adds status `status_id` to `me`'s filter `filter_id`. A status `me` may not see is a
    /// 404 (as any other read of it); one the filter has already is a 422.
    pub async fn add_filter_status(
        &self,
        me: &AccountRecord,
        filter_id: Id,
        status_id: Id,
    ) -> ApiResult<FilterStatusRecord> {
        let filter = self.own_filter(me, filter_id).await?;
        let status = self.visibility.visible_status(Some(me), status_id).await?;
        let record = FilterStatusRecord {
            id: self.ids.next(),
            filter_id: filter.id,
            status_id: status.id,
        };
        match self.store.insert_filter_status(&record).await {
            Ok(()) => {
                self.filters_changed(me).await;
                Ok(record)
            }
            Err(StoreError::AlreadyExists(_)) => Err(ApiError::invalid_field(
                "status_id",
                "ERR_TAKEN",
                "Status has already been taken",
            )),
            Err(e) => Err(not_found(e)),
        }
    }

    /// `me`'s filter status `id`; anyone else's is a 404.
    pub async fn own_filter_status(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<FilterStatusRecord> {
        let f = self
            .store
            .filter_status_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        self.own_filter(me, f.filter_id).await?;
        Ok(f)
    }

    /// Removes `me`'s filter status `id`; returns it.
    pub async fn delete_filter_status(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<FilterStatusRecord> {
        let f = self.own_filter_status(me, id).await?;
        if !self.store.delete_filter_status(f.id).await? {
            return Err(ApiError::not_found());
        }
        self.filters_changed(me).await;
        Ok(f)
    }

    /// `me`'s v1 filters: each keyword of each filter with its filter, in keyword order.
    pub async fn v1_filters(
        &self,
        me: &AccountRecord,
    ) -> ApiResult<Vec<(FilterKeywordRecord, FilterRecord)>> {
        let mut out: Vec<(FilterKeywordRecord, FilterRecord)> = self
            .filters(me)
            .await?
            .into_iter()
            .flat_map(|f| f.keywords.clone().into_iter().map(move |k| (k, f.clone())))
            .collect();
        out.sort_by_key(|(k, _)| k.id);
        Ok(out)
    }

    /// `me`'s v1 filter `id` (a keyword id) with its filter.
    pub async fn v1_filter(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<(FilterKeywordRecord, FilterRecord)> {
        let k = self.own_filter_keyword(me, id).await?;
        let f = self.own_filter(me, k.filter_id).await?;
        Ok((k, f))
    }

    /// Makes a v1 filter: a filter titled by the phrase, holding that one keyword.
    pub async fn create_v1_filter(
        &self,
        me: &AccountRecord,
        v1: V1FilterChanges,
    ) -> ApiResult<(FilterKeywordRecord, FilterRecord)> {
        let phrase = keyword_text(v1.phrase.as_deref())?;
        let filter = self
            .create_filter(
                me,
                FilterChanges {
                    title: Some(phrase.clone()),
                    context: v1.context,
                    action: Some(action_of(v1.irreversible.unwrap_or(false)).into()),
                    expires_in: v1.expires_in,
                    keywords: vec![KeywordChange {
                        keyword: Some(phrase),
                        whole_word: Some(v1.whole_word.unwrap_or(true)),
                        ..KeywordChange::default()
                    }],
                },
            )
            .await?;
        let keyword = filter
            .keywords
            .first()
            .cloned()
            .ok_or_else(ApiError::internal)?;
        Ok((keyword, filter))
    }

    /// Changes a v1 filter: its keyword, and its filter's settings (the title follows the
    /// phrase). Changing the settings of a filter with several keywords is a 422, as in
    /// Mastodon: the v1 API cannot say which filter it means.
    pub async fn update_v1_filter(
        &self,
        me: &AccountRecord,
        id: Id,
        v1: V1FilterChanges,
    ) -> ApiResult<(FilterKeywordRecord, FilterRecord)> {
        let (keyword, filter) = self.v1_filter(me, id).await?;
        let phrase = match &v1.phrase {
            Some(p) => Some(keyword_text(Some(p))?),
            None => None,
        };
        let changes = FilterChanges {
            title: phrase.clone(),
            context: v1.context.clone(),
            action: v1.irreversible.map(|i| action_of(i).into()),
            expires_in: v1.expires_in,
            keywords: vec![KeywordChange {
                id: Some(keyword.id),
                keyword: phrase.clone(),
                whole_word: v1.whole_word,
                destroy: false,
            }],
        };
        let settings_change = phrase.as_ref().is_some_and(|p| *p != filter.title)
            || v1.context.is_some()
            || v1.irreversible.is_some()
            || v1.expires_in.is_some();
        if settings_change && filter.keywords.len() > 1 {
            return Err(ApiError::unprocessable(
                "Validation failed: This filter has several keywords; change it through the v2 API",
            ));
        }
        let filter = self.update_filter(me, filter.id, changes).await?;
        let keyword = filter
            .keywords
            .iter()
            .find(|k| k.id == keyword.id)
            .cloned()
            .ok_or_else(ApiError::not_found)?;
        Ok((keyword, filter))
    }

    /// Deletes a v1 filter: its keyword (the filter itself stays, as in Mastodon).
    pub async fn delete_v1_filter(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        self.delete_filter_keyword(me, id).await
    }

    /// The viewer's filters in force now, ready to match (none for anonymous readers).
    pub async fn active_filters(&self, viewer: Option<&AccountRecord>) -> ApiResult<ActiveFilters> {
        let Some(v) = viewer else {
            return Ok(ActiveFilters::default());
        };
        let now = self.now;
        let filters = self
            .store
            .filters_of(v.id)
            .await?
            .into_iter()
            .filter(|f| f.expires_at.is_none_or(|e| e > now))
            .map(CompiledFilter::new)
            .collect();
        Ok(ActiveFilters { filters })
    }
}

/// `hide` for an irreversible v1 filter, `warn` otherwise.
fn action_of(irreversible: bool) -> &'static str {
    if irreversible { "hide" } else { "warn" }
}

/// A viewer's filters in force, compiled once per request.
#[derive(Default)]
pub struct ActiveFilters {
    filters: Vec<CompiledFilter>,
}

/// A filter with its keywords as one case-insensitive pattern.
struct CompiledFilter {
    record: FilterRecord,
    keywords: Option<Regex>,
    statuses: HashSet<Id>,
}

impl CompiledFilter {
    fn new(record: FilterRecord) -> Self {
        let alternatives: Vec<String> = record
            .keywords
            .iter()
            .filter(|k| !k.keyword.is_empty())
            .map(|k| keyword_pattern(&k.keyword, k.whole_word))
            .collect();
        let keywords = (!alternatives.is_empty())
            .then(|| {
                RegexBuilder::new(&alternatives.join("|"))
                    .case_insensitive(true)
                    .build()
                    .map_err(|e| {
                        tracing::warn!(filter = %record.id, error = %e, "a filter's keywords do not compile");
                    })
                    .ok()
            })
            .flatten();
        CompiledFilter {
            statuses: record.statuses.iter().map(|s| s.status_id).collect(),
            keywords,
            record,
        }
    }
}

/// The pattern of one keyword: the text itself, with a word boundary asked for at each end that
/// is a word character when it matches whole words only.
fn keyword_pattern(keyword: &str, whole_word: bool) -> String {
    let escaped = regex::escape(keyword);
    if !whole_word {
        return escaped;
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let start = if word(keyword.chars().next()) {
        r"\b"
    } else {
        ""
    };
    let end = if word(keyword.chars().last()) {
        r"\b"
    } else {
        ""
    };
    format!("{start}(?:{escaped}){end}")
}

/// A filter a status matched.
pub struct FilterMatch<'a> {
    /// The filter.
    pub filter: &'a FilterRecord,
    /// The text its keywords matched first, if they did.
    pub keyword_match: Option<String>,
    /// The matched ids among the filter's statuses, when it has statuses.
    pub status_matches: Option<Vec<Id>>,
}

impl ActiveFilters {
    /// Whether there is nothing to match.
    pub fn is_empty(&self) -> bool {
        self.filters.is_empty()
    }

    /// The filters a status matches: `text` is what keywords are matched against, `ids` the
    /// status's id and, for a reblog, its original's.
    pub fn matches(&self, text: &str, ids: &[Id]) -> Vec<FilterMatch<'_>> {
        self.filters
            .iter()
            .filter_map(|f| {
                let keyword_match = f
                    .keywords
                    .as_ref()
                    .and_then(|re| re.find(text))
                    .map(|m| m.as_str().to_string());
                let status_matches = (!f.statuses.is_empty()).then(|| {
                    ids.iter()
                        .copied()
                        .filter(|id| f.statuses.contains(id))
                        .collect::<Vec<Id>>()
                });
                let by_status = status_matches.as_ref().is_some_and(|m| !m.is_empty());
                (keyword_match.is_some() || by_status).then_some(FilterMatch {
                    filter: &f.record,
                    keyword_match,
                    status_matches,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(keywords: &[(&str, bool)], statuses: &[Id]) -> ActiveFilters {
        let record = FilterRecord {
            id: Id(1),
            account_id: Id(2),
            title: "t".into(),
            context: vec![FilterContext::Home],
            action: FilterAction::Warn,
            expires_at: None,
            created_at: Utc::now(),
            keywords: keywords
                .iter()
                .enumerate()
                .map(|(i, (k, w))| FilterKeywordRecord {
                    id: Id(10 + i as u64),
                    filter_id: Id(1),
                    keyword: k.to_string(),
                    whole_word: *w,
                })
                .collect(),
            statuses: statuses
                .iter()
                .map(|s| FilterStatusRecord {
                    id: Id(100),
                    filter_id: Id(1),
                    status_id: *s,
                })
                .collect(),
        };
        ActiveFilters {
            filters: vec![CompiledFilter::new(record)],
        }
    }

    fn first_match(f: &ActiveFilters, text: &str) -> Option<String> {
        f.matches(text, &[Id(5)])
            .pop()
            .and_then(|m| m.keyword_match)
    }

    #[test]
    fn whole_words_need_boundaries_and_case_does_not_matter() {
        let f = filter(&[("cat", true)], &[]);
        assert_eq!(first_match(&f, "a CAT sat"), Some("CAT".into()));
        assert_eq!(first_match(&f, "concatenate"), None);
        assert_eq!(first_match(&f, "cats"), None);
        let f = filter(&[("cat", false)], &[]);
        assert_eq!(first_match(&f, "concatenate"), Some("cat".into()));
    }

    #[test]
    fn a_boundary_is_asked_only_at_word_ends() {
        // "@twitter.com" starts with a non-word character: no boundary is needed before it.
        let f = filter(&[("@twitter.com", true)], &[]);
        assert_eq!(
            first_match(&f, "me@twitter.com"),
            Some("@twitter.com".into())
        );
        assert_eq!(first_match(&f, "me@twitter.company"), None);
        // Regex characters in keywords are taken literally.
        let f = filter(&[("a+b", false)], &[]);
        assert_eq!(first_match(&f, "aab"), None);
        assert_eq!(first_match(&f, "x a+b y"), Some("a+b".into()));
    }

    #[test]
    fn words_of_other_scripts_have_boundaries_too() {
        let f = filter(&[("café", true)], &[]);
        assert_eq!(first_match(&f, "un CAFÉ noir"), Some("CAFÉ".into()));
        assert_eq!(first_match(&f, "cafés"), None);
    }

    #[test]
    fn statuses_match_by_id_and_report_what_matched() {
        let f = filter(&[], &[Id(7)]);
        let m = f.matches("anything", &[Id(9), Id(7)]);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].status_matches, Some(vec![Id(7)]));
        assert_eq!(m[0].keyword_match, None);
        assert!(f.matches("anything", &[Id(9)]).is_empty());
    }
}
