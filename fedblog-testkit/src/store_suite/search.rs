//! Checks of the full-text status search of [`StatusStore`](fedblog_core::store::StatusStore):
//! `index_statuses` keeps each status's searchable text (replacing what it held for it),
//! `search_statuses` finds the indexed statuses of its scope by whole words and phrases, minus
//! exclusions, meeting conditions, newest first with cursors, and `indexable_status_ids` lists
//! what rebuilding the index goes through. Deleted statuses, those of deleted or suspended
//! accounts, and reblogs are never found.
//!
//! All of it is [`Capability::SearchesStatuses`]: a store lacking it (the trait's defaults) is
//! held to the weaker promise that indexing succeeds and search finds nothing, without error.
//!
//! The texts keep to words no stemmer folds together and no stop-word list holds, since an
//! engine may match the stems of words.

use std::collections::BTreeMap;
use std::sync::Mutex;

use fedblog_core::store::{
    AccountRecord, Has, In, Is, MediaKind, MediaRecord, PollRecord, SearchCondition,
    SearchConditionKind, SearchDocument, StatusRecord, StatusSearch, Text, Visibility,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Capabilities, Capability, T0, add_local, add_media, add_remote, add_status, at, get_account,
    media, reblog, reply, status,
};

/// A check's fixture: the store, whether it claims [`Capability::SearchesStatuses`], an id
/// generator, and the names of the accounts and statuses made, for the messages.
struct Fixture<'a> {
    store: &'a dyn Store,
    searches: bool,
    ids: IdGenerator,
    names: Mutex<BTreeMap<Id, String>>,
}

impl<'a> Fixture<'a> {
    fn new(store: &'a dyn Store, capabilities: Capabilities) -> Self {
        Fixture {
            store,
            searches: capabilities.has(Capability::SearchesStatuses),
            ids: IdGenerator::default(),
            names: Mutex::default(),
        }
    }

    fn name(&self, id: Id, name: &str) {
        self.names
            .lock()
            .expect("fixture names")
            .insert(id, name.to_string());
    }

    /// What the messages call `id`.
    fn called(&self, id: Id) -> String {
        self.names
            .lock()
            .expect("fixture names")
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("{id} (not a fixture)"))
    }

    fn list(&self, ids: &[Id]) -> String {
        ids.iter()
            .map(|id| self.called(*id))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Inserts a local account `username` whose `indexable` is as given.
    async fn local(&self, username: &str, indexable: bool) -> AccountRecord {
        let a = add_local(self.store, &self.ids, username).await;
        self.name(a.id, username);
        self.set_indexable(&a, indexable).await
    }

    /// Inserts a remote account `username@remote.example` whose `indexable` is as given.
    async fn remote(&self, username: &str, indexable: bool) -> AccountRecord {
        let a = add_remote(self.store, &self.ids, username, "remote.example").await;
        self.name(a.id, username);
        self.set_indexable(&a, indexable).await
    }

    /// Sets an account's `indexable` with `update_account` and returns it as stored.
    async fn set_indexable(&self, account: &AccountRecord, indexable: bool) -> AccountRecord {
        let mut a = get_account(self.store, account.id).await;
        if a.indexable != indexable {
            a.indexable = indexable;
            self.store
                .update_account(&a)
                .await
                .unwrap_or_else(|e| panic!("update_account (indexable) failed: {e:?}"));
        }
        a
    }

    /// Sets or clears an account's suspension with `update_account`.
    async fn suspend(&self, account: &AccountRecord, suspended: bool) {
        let mut a = get_account(self.store, account.id).await;
        a.suspended_at = suspended.then(|| at(T0 + 3_600_000));
        self.store
            .update_account(&a)
            .await
            .unwrap_or_else(|e| panic!("update_account (suspension) failed: {e:?}"));
    }

    /// Inserts `s`, named `name` in the messages, without indexing it.
    async fn insert(&self, name: &str, s: StatusRecord) -> StatusRecord {
        self.name(s.id, name);
        add_status(self.store, s).await
    }

    /// Inserts `s`, named `name`, and indexes `text` for it (in its language).
    async fn post(&self, name: &str, s: StatusRecord, text: &str) -> StatusRecord {
        let s = self.insert(name, s).await;
        self.index(&[document(&s, text)]).await;
        s
    }

    /// Indexes the documents, which must succeed.
    async fn index(&self, documents: &[SearchDocument]) {
        let ids: Vec<Id> = documents.iter().map(|d| d.status_id).collect();
        self.store
            .index_statuses(documents)
            .await
            .unwrap_or_else(|e| panic!("index_statuses([{}]) failed: {e:?}", self.list(&ids)));
    }

    /// Inserts media of these kinds uploaded by `s`'s author (one millisecond apart at its
    /// time) and returns `s` listing them. Not inserted.
    async fn with_kinds(&self, s: StatusRecord, kinds: &[MediaKind]) -> StatusRecord {
        let author = get_account(self.store, s.account_id).await;
        let mut media_ids = vec![];
        for (i, kind) in kinds.iter().enumerate() {
            let millis = s.created_at.timestamp_millis() + i as i64;
            let m = MediaRecord {
                kind: *kind,
                ..media(&self.ids, &author, millis)
            };
            media_ids.push(add_media(self.store, m).await.id);
        }
        StatusRecord { media_ids, ..s }
    }

    /// What `search_statuses` answers, which must not be an error.
    async fn find(&self, search: &StatusSearch) -> Vec<Id> {
        self.store
            .search_statuses(search)
            .await
            .unwrap_or_else(|e| panic!("search_statuses({}) failed: {e:?}", self.describe(search)))
    }

    /// Panics with `contract` unless `search` finds exactly `want`, in that order; a store
    /// lacking the capability must find nothing.
    async fn expect(&self, search: &StatusSearch, want: &[&StatusRecord], contract: &str) {
        let got = self.find(search).await;
        let want: Vec<Id> = want.iter().map(|s| s.id).collect();
        if self.searches {
            assert!(
                got == want,
                "{contract}\n  search: {}\n  expected [{}], got [{}]",
                self.describe(search),
                self.list(&want),
                self.list(&got)
            );
        } else {
            assert!(
                got.is_empty(),
                "a store without full-text search (the trait's default) finds nothing, but \
                 {} found [{}] (or claim SearchesStatuses)",
                self.describe(search),
                self.list(&got)
            );
        }
    }

    /// A search as the messages show it, in the query language where it has a word for it.
    fn describe(&self, s: &StatusSearch) -> String {
        let text = |t: &Text| match t {
            Text::Word(w) => w.clone(),
            Text::Phrase(p) => format!("\"{p}\""),
        };
        let millis = |t: &Option<chrono::DateTime<chrono::Utc>>| match t {
            Some(t) => format!("T0+{}ms", t.timestamp_millis() - T0),
            None => "-".to_string(),
        };
        let mut parts = vec![format!("in:{:?}", s.scope).to_lowercase()];
        parts.extend(s.must.iter().map(text));
        parts.extend(s.must_not.iter().map(|t| format!("-{}", text(t))));
        for c in &s.conditions {
            let kind = match &c.kind {
                SearchConditionKind::Author(a) => format!("from:{}", self.called(*a)),
                SearchConditionKind::Has(h) => format!("has:{h:?}").to_lowercase(),
                SearchConditionKind::Is(i) => format!("is:{i:?}").to_lowercase(),
                SearchConditionKind::Language(l) => format!("language:{l}"),
                SearchConditionKind::Created { from, to } => {
                    format!("created:[{}, {})", millis(from), millis(to))
                }
            };
            parts.push(format!("{}{kind}", if c.negated { "-" } else { "" }));
        }
        if let Some(id) = s.max_id {
            parts.push(format!("max_id={}", self.called(id)));
        }
        if let Some(id) = s.min_id {
            parts.push(format!("min_id={}", self.called(id)));
        }
        parts.push(format!("offset={} limit={}", s.offset, s.limit));
        format!(
            "{} searching `{}`",
            self.called(s.searcher),
            parts.join(" ")
        )
    }
}

/// The document of `s` holding `text`, in `s`'s language.
fn document(s: &StatusRecord, text: &str) -> SearchDocument {
    SearchDocument {
        status_id: s.id,
        text: text.to_string(),
        language: s.language.clone(),
    }
}

fn word(w: &str) -> Text {
    Text::Word(w.to_string())
}

fn phrase(p: &str) -> Text {
    Text::Phrase(p.to_string())
}

/// A search by `searcher` in `scope` for every one of `must`, nothing else asked, first page
/// of 40.
fn search(searcher: &AccountRecord, scope: In, must: &[Text]) -> StatusSearch {
    StatusSearch {
        searcher: searcher.id,
        scope,
        must: must.to_vec(),
        must_not: vec![],
        conditions: vec![],
        max_id: None,
        min_id: None,
        offset: 0,
        limit: 40,
    }
}

/// `search` with these conditions.
fn with(search: StatusSearch, conditions: Vec<SearchCondition>) -> StatusSearch {
    StatusSearch {
        conditions,
        ..search
    }
}

fn is(kind: SearchConditionKind) -> SearchCondition {
    SearchCondition {
        negated: false,
        kind,
    }
}

fn not(kind: SearchConditionKind) -> SearchCondition {
    SearchCondition {
        negated: true,
        kind,
    }
}

/// `n` seconds after [`T0`].
fn sec(n: i64) -> i64 {
    T0 + 1_000 * n
}

/// A status is found by any word of its indexed text, whatever the case of either (`QUOKKA`
/// finds `Quokka`, `øresund` finds `Øresund`), a hashtag by its word and by itself, a number
/// too; a word finds whole words only (`rust` does not find `rustacean`), and a word no text
/// holds finds nothing. What is found comes newest first.
pub async fn search_finds_whole_words_case_insensitively(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let s1 = f
        .post(
            "s1",
            status(&f.ids, &me, sec(1)),
            "Quokka pangolin WALRUS narwhal #Axolotl Øresund 2024",
        )
        .await;
    let s2 = f
        .post("s2", status(&f.ids, &me, sec(2)), "narwhal rustacean")
        .await;
    let s3 = f
        .post("s3", status(&f.ids, &me, sec(3)), "rust, quokka!")
        .await;
    for (q, want) in [
        ("quokka", vec![&s3, &s1]),
        ("QUOKKA", vec![&s3, &s1]),
        ("walrus", vec![&s1]),
        ("Walrus", vec![&s1]),
        ("narwhal", vec![&s2, &s1]),
        ("axolotl", vec![&s1]),
        ("#axolotl", vec![&s1]),
        ("øresund", vec![&s1]),
        ("ØRESUND", vec![&s1]),
        ("2024", vec![&s1]),
        ("rust", vec![&s3]),
        ("rustacean", vec![&s2]),
        ("capybara", vec![]),
    ] {
        f.expect(
            &search(&me, In::Library, &[word(q)]),
            &want,
            "search_statuses must find, newest first, exactly the statuses whose indexed text \
             holds the word as a whole word, in any case",
        )
        .await;
    }
}

/// A phrase finds the statuses holding its words next to each other in its order, in any
/// case; not those holding them apart or the other way round (which a search for the words
/// finds). A one-word phrase is that word.
pub async fn search_finds_phrases_of_adjacent_words_in_order(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let s1 = f
        .post(
            "s1",
            status(&f.ids, &me, sec(1)),
            "Quokka pangolin WALRUS narwhal",
        )
        .await;
    let s2 = f
        .post("s2", status(&f.ids, &me, sec(2)), "pangolin narwhal walrus")
        .await;
    let s3 = f
        .post("s3", status(&f.ids, &me, sec(3)), "walrus pangolin")
        .await;
    for (q, want) in [
        (phrase("pangolin walrus"), vec![&s1]),
        (phrase("PANGOLIN Walrus"), vec![&s1]),
        (phrase("walrus pangolin"), vec![&s3]),
        (phrase("quokka walrus"), vec![]),
        (phrase("quokka pangolin walrus"), vec![&s1]),
        (phrase("walrus narwhal"), vec![&s1]),
        (phrase("narwhal walrus"), vec![&s2]),
        (phrase("narwhal"), vec![&s2, &s1]),
    ] {
        f.expect(
            &search(&me, In::Library, &[q]),
            &want,
            "search_statuses must find by a phrase exactly the statuses holding its words \
             next to each other, in its order",
        )
        .await;
    }
    f.expect(
        &search(&me, In::Library, &[word("pangolin"), word("walrus")]),
        &[&s3, &s2, &s1],
        "search_statuses must find by two words the statuses holding both, anywhere",
    )
    .await;
}

/// Every word and phrase of `must` is required; any word or phrase of `must_not` (in any
/// case) excludes a status, a phrase only where its words are adjacent.
pub async fn search_requires_every_must_and_excludes_each_must_not(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let s1 = f
        .post("s1", status(&f.ids, &me, sec(1)), "quokka walrus")
        .await;
    let s2 = f
        .post("s2", status(&f.ids, &me, sec(2)), "quokka narwhal")
        .await;
    let s3 = f
        .post("s3", status(&f.ids, &me, sec(3)), "quokka pangolin narwhal")
        .await;
    f.post("s4", status(&f.ids, &me, sec(4)), "capybara narwhal")
        .await;
    let q = |must: Vec<Text>, must_not: Vec<Text>| StatusSearch {
        must_not,
        ..search(&me, In::Library, &must)
    };
    for (s, want, contract) in [
        (
            q(vec![word("quokka")], vec![word("walrus")]),
            vec![&s3, &s2],
            "a word of must_not must exclude the statuses holding it",
        ),
        (
            q(vec![word("quokka")], vec![word("WALRUS")]),
            vec![&s3, &s2],
            "a word of must_not must exclude the statuses holding it in any case",
        ),
        (
            q(vec![word("quokka")], vec![word("narwhal"), word("walrus")]),
            vec![],
            "each word of must_not must exclude the statuses holding it",
        ),
        (
            q(vec![word("quokka")], vec![phrase("pangolin narwhal")]),
            vec![&s2, &s1],
            "a phrase of must_not must exclude the statuses holding it",
        ),
        (
            q(vec![word("quokka")], vec![phrase("narwhal pangolin")]),
            vec![&s3, &s2, &s1],
            "a phrase of must_not must exclude only statuses holding its words adjacent and \
             in order",
        ),
        (
            q(vec![word("quokka"), word("narwhal")], vec![]),
            vec![&s3, &s2],
            "every word of must is required",
        ),
        (
            q(vec![word("narwhal"), word("pangolin")], vec![]),
            vec![&s3],
            "every word of must is required",
        ),
        (
            q(vec![word("quokka"), phrase("pangolin narwhal")], vec![]),
            vec![&s3],
            "every word and phrase of must is required",
        ),
        (
            q(vec![word("walrus"), word("narwhal")], vec![]),
            vec![],
            "every word of must is required: no status holds both",
        ),
    ] {
        f.expect(&s, &want, contract).await;
    }
}

/// Search reads the text indexed for a status, not the status's own text (a status never
/// indexed is not found); indexing a status again replaces its text (the old words find it
/// no more, and it is found once); a batch indexes each of its documents, and an empty batch
/// is no error.
pub async fn search_reads_the_indexed_text_which_indexing_again_replaces(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let s1 = f
        .post(
            "s1",
            StatusRecord {
                text: "ocelot".into(),
                content: "<p>ocelot</p>".into(),
                ..status(&f.ids, &me, sec(1))
            },
            "quokka walrus",
        )
        .await;
    let s2 = f
        .insert(
            "s2 (not indexed)",
            StatusRecord {
                text: "ocelot quokka pangolin".into(),
                content: "<p>ocelot quokka pangolin</p>".into(),
                ..status(&f.ids, &me, sec(2))
            },
        )
        .await;
    f.expect(
        &search(&me, In::Library, &[word("quokka")]),
        &[&s1],
        "search_statuses must find the indexed statuses only, by their indexed text",
    )
    .await;
    f.expect(
        &search(&me, In::Library, &[word("ocelot")]),
        &[],
        "search_statuses must search the indexed text, not the statuses' own text",
    )
    .await;
    f.index(&[]).await;

    f.index(&[document(&s1, "pangolin narwhal")]).await;
    for gone in ["walrus", "quokka"] {
        f.expect(
            &search(&me, In::Library, &[word(gone)]),
            &[],
            "indexing a status again must replace its text: a word it no longer holds finds it \
             no more",
        )
        .await;
    }
    f.expect(
        &search(&me, In::Library, &[word("narwhal")]),
        &[&s1],
        "indexing a status again must replace its text with the new one",
    )
    .await;

    f.index(&[
        document(&s1, "pangolin narwhal"),
        document(&s2, "pangolin ocelot"),
    ])
    .await;
    f.expect(
        &search(&me, In::Library, &[word("pangolin")]),
        &[&s2, &s1],
        "a batch must index each of its documents, and a status indexed again with the same \
         text must be found once",
    )
    .await;
}

/// In [`In::Library`] the searcher finds its own statuses, whatever their visibility, and
/// those it favourited, bookmarked, reblogged or is mentioned in (whatever their visibility,
/// the caller checks who may see what), but neither others' public statuses it did not
/// interact with nor those another account interacted with; taking the favourite, bookmark
/// or reblog back takes the status out of it. [`In::All`] adds the public statuses of
/// indexable authors.
pub async fn library_holds_own_statuses_and_those_interacted_with(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let other = f.local("other", false).await;
    let third = f.local("third", false).await;
    let stranger = f.local("stranger", true).await;
    let mut n = 0;
    let mut at_next = || {
        n += 1;
        sec(n)
    };
    let mut mine = vec![];
    for (name, visibility) in [
        ("my public", Visibility::Public),
        ("my unlisted", Visibility::Unlisted),
        ("my private", Visibility::Private),
        ("my direct", Visibility::Direct),
    ] {
        let s = StatusRecord {
            visibility,
            ..status(&f.ids, &me, at_next())
        };
        mine.push(f.post(name, s, "quokka").await);
    }
    let faved = f
        .post(
            "other's private I favourited",
            StatusRecord {
                visibility: Visibility::Private,
                ..status(&f.ids, &other, at_next())
            },
            "quokka",
        )
        .await;
    let marked = f
        .post(
            "other's unlisted I bookmarked",
            StatusRecord {
                visibility: Visibility::Unlisted,
                ..status(&f.ids, &other, at_next())
            },
            "quokka",
        )
        .await;
    let boosted = f
        .post(
            "other's public I reblogged",
            status(&f.ids, &other, at_next()),
            "quokka",
        )
        .await;
    let mentioning = f
        .post(
            "other's direct mentioning me",
            StatusRecord {
                visibility: Visibility::Direct,
                mentions: vec![me.id],
                ..status(&f.ids, &other, at_next())
            },
            "quokka",
        )
        .await;
    let untouched = f
        .post(
            "other's public I did not touch",
            status(&f.ids, &other, at_next()),
            "quokka",
        )
        .await;
    let thirds = f
        .post(
            "other's public third interacted with",
            StatusRecord {
                mentions: vec![third.id],
                ..status(&f.ids, &other, at_next())
            },
            "quokka",
        )
        .await;
    let strangers = f
        .post(
            "stranger's public (indexable)",
            status(&f.ids, &stranger, at_next()),
            "quokka",
        )
        .await;
    let my_reblog = f
        .insert("my reblog", reblog(&f.ids, &me, &boosted, at_next()))
        .await;
    let interact = |what: &'static str, r: fedblog_core::StoreResult<bool>| {
        r.unwrap_or_else(|e| panic!("{what} failed: {e:?}"));
    };
    interact(
        "insert_favourite",
        store
            .insert_favourite(f.ids.next_at(at_next()), me.id, faved.id)
            .await,
    );
    interact(
        "insert_bookmark",
        store
            .insert_bookmark(f.ids.next_at(at_next()), me.id, marked.id)
            .await,
    );
    interact(
        "insert_favourite",
        store
            .insert_favourite(f.ids.next_at(at_next()), third.id, thirds.id)
            .await,
    );
    interact(
        "insert_bookmark",
        store
            .insert_bookmark(f.ids.next_at(at_next()), third.id, untouched.id)
            .await,
    );

    let library = [&mentioning, &boosted, &marked, &faved, &mine[3], &mine[2]];
    let library: Vec<&StatusRecord> = library.into_iter().chain([&mine[1], &mine[0]]).collect();
    let q = [word("quokka")];
    f.expect(
        &search(&me, In::Library, &q),
        &library,
        "in:library must find the searcher's own statuses of every visibility and those it \
         favourited, bookmarked, reblogged or is mentioned in, and nothing else",
    )
    .await;
    f.expect(
        &search(&third, In::Library, &q),
        &[&thirds, &untouched],
        "in:library must find the statuses the searcher (not another account) favourited, \
         bookmarked or is mentioned in",
    )
    .await;
    let all: Vec<&StatusRecord> = [&strangers].into_iter().chain(library).collect();
    f.expect(
        &search(&me, In::All, &q),
        &all,
        "in:all must find the searcher's library and the public statuses of indexable \
         authors",
    )
    .await;

    interact(
        "delete_favourite",
        store.delete_favourite(me.id, faved.id).await,
    );
    interact(
        "delete_bookmark",
        store.delete_bookmark(me.id, marked.id).await,
    );
    store
        .delete_status(my_reblog.id)
        .await
        .unwrap_or_else(|e| panic!("delete_status(my reblog) failed: {e:?}"));
    f.expect(
        &search(&me, In::Library, &q),
        &[&mentioning, &mine[3], &mine[2], &mine[1], &mine[0]],
        "in:library must no longer find a status once the searcher's favourite, bookmark or \
         reblog of it is taken back",
    )
    .await;
}

/// [`In::Public`] finds the public statuses of authors whose `indexable` is true, local or
/// remote, as it is when searching (a change of `indexable` counts at once); never their
/// unlisted, private or direct ones, nor the public ones of authors not indexable (the
/// searcher's own included, which [`In::All`] and [`In::Library`] find).
pub async fn public_holds_public_statuses_of_indexable_authors_only(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let open = f.remote("open", true).await;
    let quiet = f.local("quiet", false).await;
    let public = f
        .post("open's public", status(&f.ids, &open, sec(1)), "quokka")
        .await;
    for (n, (name, visibility)) in [
        ("open's unlisted", Visibility::Unlisted),
        ("open's private", Visibility::Private),
        ("open's direct", Visibility::Direct),
    ]
    .into_iter()
    .enumerate()
    {
        let s = StatusRecord {
            visibility,
            mentions: vec![quiet.id],
            ..status(&f.ids, &open, sec(2 + n as i64))
        };
        f.post(name, s, "quokka").await;
    }
    let quiets = f
        .post("quiet's public", status(&f.ids, &quiet, sec(5)), "quokka")
        .await;
    let mine = f
        .post("my public", status(&f.ids, &me, sec(6)), "quokka")
        .await;
    let q = [word("quokka")];
    f.expect(
        &search(&me, In::Public, &q),
        &[&public],
        "in:public must find the public statuses of indexable authors only, never unlisted, \
         private or direct ones, nor those of authors whose indexable is false",
    )
    .await;
    f.expect(
        &search(&me, In::All, &q),
        &[&mine, &public],
        "in:all must find the public statuses of indexable authors and the searcher's own",
    )
    .await;
    f.expect(
        &search(&me, In::Library, &q),
        &[&mine],
        "in:library must not find others' public statuses the searcher did not interact with",
    )
    .await;

    f.set_indexable(&quiet, true).await;
    f.set_indexable(&open, false).await;
    f.expect(
        &search(&me, In::Public, &q),
        &[&quiets],
        "in:public must follow the authors' indexable as it is when searching",
    )
    .await;
}

/// `delete_status` takes a status out of the index: it is found no more, even indexed again
/// after (whether that is refused or not); deleting a reblog leaves the original found.
pub async fn delete_status_takes_it_out_of_the_index(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let other = f.local("other", true).await;
    let s1 = f.post("s1", status(&f.ids, &me, sec(1)), "quokka").await;
    let s2 = f.post("s2", status(&f.ids, &me, sec(2)), "quokka").await;
    let o1 = f
        .post("other's o1", status(&f.ids, &other, sec(3)), "quokka")
        .await;
    let boost = f
        .insert("other's reblog of s2", reblog(&f.ids, &other, &s2, sec(4)))
        .await;
    let q = [word("quokka")];
    f.expect(
        &search(&me, In::All, &q),
        &[&o1, &s2, &s1],
        "search_statuses must find the indexed statuses",
    )
    .await;
    let delete = |id: Id, name: &'static str| async move {
        store
            .delete_status(id)
            .await
            .unwrap_or_else(|e| panic!("delete_status({name}) failed: {e:?}"));
    };
    delete(s1.id, "s1").await;
    f.expect(
        &search(&me, In::All, &q),
        &[&o1, &s2],
        "search_statuses must no longer find a deleted status",
    )
    .await;
    delete(boost.id, "the reblog of s2").await;
    delete(o1.id, "o1").await;
    f.expect(
        &search(&me, In::All, &q),
        &[&s2],
        "search_statuses must no longer find a deleted status, and must still find one whose \
         reblog was deleted",
    )
    .await;
    // A late write for a deleted status (indexing racing the delete) may be refused or not,
    // but must not make it found.
    let _ = store.index_statuses(&[document(&s1, "quokka")]).await;
    f.expect(
        &search(&me, In::All, &q),
        &[&s2],
        "search_statuses must never find a deleted status, even indexed after its deletion",
    )
    .await;
}

/// `delete_account` takes the account's statuses out of the index with them, whatever their
/// visibility; others' statuses it interacted with stay found.
pub async fn delete_account_takes_its_statuses_out_of_the_index(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let gone = f.remote("gone", true).await;
    let g1 = f
        .post("gone's public", status(&f.ids, &gone, sec(1)), "quokka")
        .await;
    let g2 = f
        .post(
            "gone's private mentioning me",
            StatusRecord {
                visibility: Visibility::Private,
                mentions: vec![me.id],
                ..status(&f.ids, &gone, sec(2))
            },
            "quokka",
        )
        .await;
    let m1 = f
        .post("my status", status(&f.ids, &me, sec(3)), "quokka")
        .await;
    f.insert("gone's reblog of mine", reblog(&f.ids, &gone, &m1, sec(4)))
        .await;
    store
        .insert_favourite(f.ids.next_at(sec(5)), gone.id, m1.id)
        .await
        .unwrap_or_else(|e| panic!("insert_favourite failed: {e:?}"));
    let q = [word("quokka")];
    f.expect(
        &search(&me, In::All, &q),
        &[&m1, &g2, &g1],
        "search_statuses must find the indexed statuses",
    )
    .await;
    store
        .delete_account(gone.id)
        .await
        .unwrap_or_else(|e| panic!("delete_account(gone) failed: {e:?}"));
    f.expect(
        &search(&me, In::All, &q),
        &[&m1],
        "search_statuses must no longer find the statuses of a deleted account, and still \
         find those it interacted with",
    )
    .await;
}

/// The statuses of a suspended author are found in no scope, not even the library of a
/// searcher they mention; lifting the suspension makes them found again (only deleting takes
/// a status out of the index).
pub async fn statuses_of_suspended_authors_are_not_found(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let bad = f.remote("bad", true).await;
    let public = f
        .post("bad's public", status(&f.ids, &bad, sec(1)), "quokka")
        .await;
    let private = f
        .post(
            "bad's private mentioning me",
            StatusRecord {
                visibility: Visibility::Private,
                mentions: vec![me.id],
                ..status(&f.ids, &bad, sec(2))
            },
            "quokka",
        )
        .await;
    let mine = f
        .post("my status", status(&f.ids, &me, sec(3)), "quokka")
        .await;
    let q = [word("quokka")];
    f.expect(
        &search(&me, In::All, &q),
        &[&mine, &private, &public],
        "search_statuses must find the indexed statuses",
    )
    .await;
    f.suspend(&bad, true).await;
    for (scope, want) in [
        (In::All, vec![&mine]),
        (In::Library, vec![&mine]),
        (In::Public, vec![]),
    ] {
        f.expect(
            &search(&me, scope, &q),
            &want,
            "search_statuses must not find the statuses of a suspended author, in any scope",
        )
        .await;
    }
    f.suspend(&bad, false).await;
    f.expect(
        &search(&me, In::All, &q),
        &[&mine, &private, &public],
        "search_statuses must find the statuses of an author whose suspension was lifted \
         (suspending takes nothing out of the index)",
    )
    .await;
}

/// Reblogs are not indexed (a batch holding one indexes the rest, without error) and never
/// found: a reblog by the searcher finds the original in its library, never the reblog.
pub async fn reblogs_are_neither_indexed_nor_found(store: &dyn Store, capabilities: Capabilities) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let other = f.local("other", true).await;
    let original = f
        .insert("other's original", status(&f.ids, &other, sec(1)))
        .await;
    let boost = f
        .insert("my reblog", reblog(&f.ids, &me, &original, sec(2)))
        .await;
    f.index(&[
        document(&boost, "narwhal quokka"),
        document(&original, "quokka walrus"),
    ])
    .await;
    f.expect(
        &search(&me, In::All, &[word("narwhal")]),
        &[],
        "index_statuses must not index a reblog, and search_statuses must never find one",
    )
    .await;
    for scope in [In::Library, In::Public, In::All] {
        f.expect(
            &search(&me, scope, &[word("quokka")]),
            &[&original],
            "search_statuses must find the original of a reblog, never the reblog (and a batch \
             holding a reblog must index the rest)",
        )
        .await;
    }
}

/// The `Author` condition keeps the statuses of that account, negated it leaves them out;
/// conditions alone (no words) search too, every condition must hold, and the scope still
/// applies.
pub async fn author_condition_and_its_negation(store: &dyn Store, capabilities: Capabilities) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let other = f.local("other", false).await;
    let pal = f.local("pal", true).await;
    let m1 = f.post("my m1", status(&f.ids, &me, sec(1)), "quokka").await;
    let o1 = f
        .post(
            "other's private I favourited",
            StatusRecord {
                visibility: Visibility::Private,
                ..status(&f.ids, &other, sec(2))
            },
            "quokka",
        )
        .await;
    let p1 = f
        .post("pal's public", status(&f.ids, &pal, sec(3)), "quokka")
        .await;
    let m2 = f.post("my m2", status(&f.ids, &me, sec(4)), "walrus").await;
    store
        .insert_favourite(f.ids.next_at(sec(5)), me.id, o1.id)
        .await
        .unwrap_or_else(|e| panic!("insert_favourite failed: {e:?}"));
    let author = SearchConditionKind::Author;
    let q = [word("quokka")];
    for (s, want, contract) in [
        (
            with(search(&me, In::All, &[]), vec![is(author(me.id))]),
            vec![&m2, &m1],
            "from: alone (no words) must find every indexed status of that author",
        ),
        (
            with(search(&me, In::All, &q), vec![is(author(me.id))]),
            vec![&m1],
            "from: must keep the statuses of that author only",
        ),
        (
            with(search(&me, In::All, &q), vec![is(author(other.id))]),
            vec![&o1],
            "from: must keep the statuses of that author only",
        ),
        (
            with(search(&me, In::All, &q), vec![not(author(me.id))]),
            vec![&p1, &o1],
            "-from: must leave out the statuses of that author",
        ),
        (
            with(
                search(&me, In::All, &q),
                vec![not(author(me.id)), not(author(pal.id))],
            ),
            vec![&o1],
            "every condition must hold",
        ),
        (
            with(
                search(&me, In::All, &q),
                vec![is(author(me.id)), is(author(other.id))],
            ),
            vec![],
            "every condition must hold: no status has two authors",
        ),
        (
            with(search(&me, In::Library, &q), vec![is(author(pal.id))]),
            vec![],
            "from: must not widen the scope: in:library holds no status of pal",
        ),
    ] {
        f.expect(&s, &want, contract).await;
    }
}

/// `has:media` keeps statuses with any attachment, `has:image` those with an image,
/// `has:video` those with a video or a GIF video, `has:audio` those with audio (whatever else
/// they carry); an attachment of unknown kind is media only. Negated, each leaves them out.
pub async fn has_media_image_video_and_audio_conditions(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let mut made = vec![];
    for (n, (name, kinds)) in [
        ("image", &[MediaKind::Image][..]),
        ("video", &[MediaKind::Video][..]),
        ("gifv", &[MediaKind::Gifv][..]),
        ("audio", &[MediaKind::Audio][..]),
        ("unknown", &[MediaKind::Unknown][..]),
        ("image+audio", &[MediaKind::Image, MediaKind::Audio][..]),
        ("plain", &[][..]),
    ]
    .into_iter()
    .enumerate()
    {
        let s = f
            .with_kinds(status(&f.ids, &me, sec(n as i64 + 1)), kinds)
            .await;
        made.push(f.post(name, s, "quokka").await);
    }
    let [image, video, gifv, audio, unknown, mixed, plain] = &made[..] else {
        unreachable!()
    };
    let has = |h: Has| SearchConditionKind::Has(h);
    let q = |conditions| with(search(&me, In::Library, &[word("quokka")]), conditions);
    for (s, want, contract) in [
        (
            q(vec![is(has(Has::Media))]),
            vec![mixed, unknown, audio, gifv, video, image],
            "has:media must keep the statuses with any attachment",
        ),
        (
            q(vec![is(has(Has::Image))]),
            vec![mixed, image],
            "has:image must keep the statuses with an image",
        ),
        (
            q(vec![is(has(Has::Video))]),
            vec![gifv, video],
            "has:video must keep the statuses with a video or a GIF video",
        ),
        (
            q(vec![is(has(Has::Audio))]),
            vec![mixed, audio],
            "has:audio must keep the statuses with audio",
        ),
        (
            q(vec![not(has(Has::Media))]),
            vec![plain],
            "-has:media must leave out the statuses with any attachment",
        ),
        (
            q(vec![not(has(Has::Image))]),
            vec![plain, unknown, audio, gifv, video],
            "-has:image must leave out the statuses with an image",
        ),
        (
            q(vec![is(has(Has::Media)), not(has(Has::Video))]),
            vec![mixed, unknown, audio, image],
            "has:media -has:video must keep the statuses with media but no video",
        ),
        (
            with(search(&me, In::Library, &[]), vec![is(has(Has::Audio))]),
            vec![mixed, audio],
            "has:audio alone (no words) must find the statuses with audio",
        ),
    ] {
        f.expect(&s, &want, contract).await;
    }
}

/// `has:poll` keeps statuses with a poll, `has:link` those with a recorded link, `has:embed`
/// none (no status has an embed yet); negated, each leaves them out. They are read when
/// searching: a poll removed or a link cleared after indexing counts at once.
pub async fn has_poll_link_and_embed_conditions(store: &dyn Store, capabilities: Capabilities) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let polled = f.insert("poll", status(&f.ids, &me, sec(1))).await;
    let linked = f.insert("link", status(&f.ids, &me, sec(2))).await;
    let both = f.insert("poll+link", status(&f.ids, &me, sec(3))).await;
    let plain = f.insert("plain", status(&f.ids, &me, sec(4))).await;
    for (n, s) in [&polled, &both].into_iter().enumerate() {
        let poll = PollRecord {
            id: f.ids.next_at(sec(5 + n as i64)),
            status_id: s.id,
            account_id: me.id,
            options: vec!["yes".into(), "no".into()],
            votes: vec![0, 0],
            voters_count: 0,
            multiple: false,
            hide_totals: false,
            expires_at: None,
            created_at: at(sec(5 + n as i64)),
        };
        store
            .insert_poll(&poll)
            .await
            .unwrap_or_else(|e| panic!("insert_poll failed: {e:?}"));
    }
    for s in [&linked, &both] {
        store
            .set_status_link(s.id, Some("https://news.example/story"))
            .await
            .unwrap_or_else(|e| panic!("set_status_link failed: {e:?}"));
    }
    f.index(&[&polled, &linked, &both, &plain].map(|s| document(s, "quokka")))
        .await;
    let has = |h: Has| SearchConditionKind::Has(h);
    let q = |conditions| with(search(&me, In::Library, &[word("quokka")]), conditions);
    for (s, want, contract) in [
        (
            q(vec![is(has(Has::Poll))]),
            vec![&both, &polled],
            "has:poll must keep the statuses with a poll",
        ),
        (
            q(vec![not(has(Has::Poll))]),
            vec![&plain, &linked],
            "-has:poll must leave out the statuses with a poll",
        ),
        (
            q(vec![is(has(Has::Link))]),
            vec![&both, &linked],
            "has:link must keep the statuses with a recorded link",
        ),
        (
            q(vec![not(has(Has::Link))]),
            vec![&plain, &polled],
            "-has:link must leave out the statuses with a recorded link",
        ),
        (
            q(vec![is(has(Has::Embed))]),
            vec![],
            "has:embed must find nothing: no status has an embed",
        ),
        (
            q(vec![not(has(Has::Embed))]),
            vec![&plain, &both, &linked, &polled],
            "-has:embed must leave nothing out: no status has an embed",
        ),
    ] {
        f.expect(&s, &want, contract).await;
    }
    store
        .replace_poll(both.id, None)
        .await
        .unwrap_or_else(|e| panic!("replace_poll(None) failed: {e:?}"));
    store
        .set_status_link(both.id, None)
        .await
        .unwrap_or_else(|e| panic!("set_status_link(None) failed: {e:?}"));
    f.expect(
        &q(vec![is(has(Has::Poll))]),
        &[&polled],
        "has:poll must be read when searching: a status whose poll was removed has none",
    )
    .await;
    f.expect(
        &q(vec![is(has(Has::Link))]),
        &[&linked],
        "has:link must be read when searching: a status whose link was cleared has none",
    )
    .await;
}

/// `is:reply` keeps the statuses replying to a status (the author's own too), `is:sensitive`
/// those marked sensitive; negated, each leaves them out; both must hold together.
pub async fn is_reply_and_is_sensitive_conditions(store: &dyn Store, capabilities: Capabilities) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let other = f.local("other", false).await;
    let top = f.post("top", status(&f.ids, &me, sec(1)), "quokka").await;
    let others = f
        .insert("other's status", status(&f.ids, &other, sec(2)))
        .await;
    let self_reply = f
        .post("self-reply", reply(&f.ids, &me, &top, sec(3)), "quokka")
        .await;
    let other_reply = f
        .post(
            "reply to other",
            reply(&f.ids, &me, &others, sec(4)),
            "quokka",
        )
        .await;
    let sensitive = f
        .post(
            "sensitive",
            StatusRecord {
                sensitive: true,
                ..status(&f.ids, &me, sec(5))
            },
            "quokka",
        )
        .await;
    let sensitive_reply = f
        .post(
            "sensitive reply",
            StatusRecord {
                sensitive: true,
                ..reply(&f.ids, &me, &top, sec(6))
            },
            "quokka",
        )
        .await;
    let kind = SearchConditionKind::Is;
    let q = |conditions| with(search(&me, In::Library, &[word("quokka")]), conditions);
    for (s, want, contract) in [
        (
            q(vec![is(kind(Is::Reply))]),
            vec![&sensitive_reply, &other_reply, &self_reply],
            "is:reply must keep the statuses replying to a status",
        ),
        (
            q(vec![not(kind(Is::Reply))]),
            vec![&sensitive, &top],
            "-is:reply must leave out the statuses replying to a status",
        ),
        (
            q(vec![is(kind(Is::Sensitive))]),
            vec![&sensitive_reply, &sensitive],
            "is:sensitive must keep the statuses marked sensitive",
        ),
        (
            q(vec![not(kind(Is::Sensitive))]),
            vec![&other_reply, &self_reply, &top],
            "-is:sensitive must leave out the statuses marked sensitive",
        ),
        (
            q(vec![is(kind(Is::Reply)), not(kind(Is::Sensitive))]),
            vec![&other_reply, &self_reply],
            "is:reply -is:sensitive must keep the replies not marked sensitive",
        ),
    ] {
        f.expect(&s, &want, contract).await;
    }
}

/// `language:pt` keeps the statuses in that language, whose code's first part it is (`pt`,
/// `pt-BR`), not those of another code that merely starts with it (`fi` is not `fil`);
/// negated, it leaves them out and keeps the statuses of no known language.
pub async fn language_condition_matches_the_first_part_of_the_code(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let mut made = vec![];
    for (n, language) in [
        Some("en"),
        Some("pt-BR"),
        Some("pt"),
        Some("fil"),
        Some("fi"),
        None,
    ]
    .into_iter()
    .enumerate()
    {
        let s = StatusRecord {
            language: language.map(str::to_string),
            ..status(&f.ids, &me, sec(n as i64 + 1))
        };
        made.push(f.post(language.unwrap_or("none"), s, "quokka").await);
    }
    let [en, pt_br, pt, fil, fi, none] = &made[..] else {
        unreachable!()
    };
    let lang = |code: &str| SearchConditionKind::Language(code.to_string());
    let q = |conditions| with(search(&me, In::Library, &[word("quokka")]), conditions);
    for (s, want, contract) in [
        (
            q(vec![is(lang("pt"))]),
            vec![pt, pt_br],
            "language:pt must keep the statuses in pt and in pt-BR",
        ),
        (
            q(vec![is(lang("fi"))]),
            vec![fi],
            "language:fi must keep the statuses in fi, not those in fil",
        ),
        (
            q(vec![is(lang("fil"))]),
            vec![fil],
            "language:fil must keep the statuses in fil",
        ),
        (
            q(vec![is(lang("en"))]),
            vec![en],
            "language:en must keep the statuses in en",
        ),
        (
            q(vec![is(lang("de"))]),
            vec![],
            "language:de must find nothing when no status is in de",
        ),
        (
            q(vec![not(lang("pt"))]),
            vec![none, fi, fil, en],
            "-language:pt must leave out the statuses in pt and pt-BR, keeping those of no \
             known language",
        ),
    ] {
        f.expect(&s, &want, contract).await;
    }
}

/// The `Created` condition keeps the statuses created at or after `from` and before `to`, to
/// the millisecond; either end may be open; negated, it keeps the others.
pub async fn created_condition_includes_from_and_excludes_to(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let mut made = vec![];
    for n in 1..=4 {
        let name = format!("c{n} (T0+{n}s)");
        made.push(f.post(&name, status(&f.ids, &me, sec(n)), "quokka").await);
    }
    let [c1, c2, c3, c4] = &made[..] else {
        unreachable!()
    };
    let created = |from: Option<i64>, to: Option<i64>| SearchConditionKind::Created {
        from: from.map(at),
        to: to.map(at),
    };
    let q = |conditions| with(search(&me, In::Library, &[word("quokka")]), conditions);
    for (s, want, contract) in [
        (
            q(vec![is(created(Some(sec(2)), None))]),
            vec![c4, c3, c2],
            "a created condition must keep the statuses created at or after `from`",
        ),
        (
            q(vec![is(created(Some(sec(2) + 1), None))]),
            vec![c4, c3],
            "a created condition must leave out a status created a millisecond before `from`",
        ),
        (
            q(vec![is(created(None, Some(sec(3))))]),
            vec![c2, c1],
            "a created condition must keep the statuses created before `to`, not at it",
        ),
        (
            q(vec![is(created(None, Some(sec(3) + 1)))]),
            vec![c3, c2, c1],
            "a created condition must keep a status created a millisecond before `to`",
        ),
        (
            q(vec![is(created(Some(sec(2)), Some(sec(3))))]),
            vec![c2],
            "a created condition must keep the statuses created in [from, to)",
        ),
        (
            q(vec![is(created(Some(sec(3)), Some(sec(3))))]),
            vec![],
            "a created condition with from = to must keep nothing",
        ),
        (
            q(vec![is(created(None, None))]),
            vec![c4, c3, c2, c1],
            "a created condition with neither end must keep everything",
        ),
        (
            q(vec![not(created(Some(sec(2)), Some(sec(3))))]),
            vec![c4, c3, c1],
            "a negated created condition must keep the statuses created outside [from, to)",
        ),
    ] {
        f.expect(&s, &want, contract).await;
    }
}

/// What is found comes newest first, counting only the statuses found: `max_id` keeps those
/// with a smaller id, `min_id` those with a larger one (still the newest first), `offset`
/// skips the newest of them and `limit` caps the rest; cursors need not be statuses found.
pub async fn search_pages_newest_first_with_cursors_offset_and_limit(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let other = f.local("other", false).await;
    let mut s = vec![];
    for i in 0..10 {
        let millis = sec(i + 1);
        s.push(
            f.post(&format!("s{i}"), status(&f.ids, &me, millis), "quokka")
                .await,
        );
        // Between each and the next: one of mine without the word, and one with it out of
        // the scope.
        f.post(
            &format!("walrus after s{i}"),
            status(&f.ids, &me, millis + 300),
            "walrus",
        )
        .await;
        f.post(
            &format!("other's after s{i}"),
            StatusRecord {
                visibility: Visibility::Private,
                ..status(&f.ids, &other, millis + 600)
            },
            "quokka",
        )
        .await;
    }
    let pick = |idx: &[usize]| idx.iter().map(|&i| &s[i]).collect::<Vec<_>>();
    let page = |max_id: Option<Id>, min_id: Option<Id>, offset: u64, limit: u64| StatusSearch {
        max_id,
        min_id,
        offset,
        limit,
        ..search(&me, In::Library, &[word("quokka")])
    };
    let id = |i: usize| Some(s[i].id);
    let between = |i: usize| Some(Id(s[i].id.0 + 1));
    for (q, want) in [
        (
            page(None, None, 0, 40),
            pick(&[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
        ),
        (page(None, None, 0, 3), pick(&[9, 8, 7])),
        (page(None, None, 0, 0), vec![]),
        (page(id(5), None, 0, 40), pick(&[4, 3, 2, 1, 0])),
        (page(id(5), None, 0, 2), pick(&[4, 3])),
        (page(id(0), None, 0, 40), vec![]),
        (page(None, id(5), 0, 40), pick(&[9, 8, 7, 6])),
        (page(None, id(5), 0, 2), pick(&[9, 8])),
        (page(None, id(9), 0, 40), vec![]),
        (page(id(8), id(2), 0, 40), pick(&[7, 6, 5, 4, 3])),
        (page(id(8), id(2), 0, 2), pick(&[7, 6])),
        (page(None, None, 2, 3), pick(&[7, 6, 5])),
        (page(id(8), None, 2, 2), pick(&[5, 4])),
        (page(id(8), id(2), 3, 40), pick(&[4, 3])),
        (page(None, None, 10, 40), vec![]),
        (page(between(5), None, 0, 2), pick(&[5, 4])),
        (page(None, between(5), 0, 40), pick(&[9, 8, 7, 6])),
        (page(Some(Id(i64::MAX as u64)), None, 0, 1), pick(&[9])),
    ] {
        f.expect(
            &q,
            &want,
            "search_statuses must answer the statuses found strictly between max_id and \
             min_id, newest first, skipping `offset` of them and returning at most `limit`",
        )
        .await;
    }
}

/// `indexable_status_ids` lists the ids of the statuses that are not reblogs, indexed or not,
/// of every author and visibility, smallest first: at most `limit` of them, larger than
/// `after` (which need not be a status's, or may be a reblog's); a deleted status is not
/// listed. A store lacking the capability gives none.
pub async fn indexable_status_ids_lists_non_reblogs_ascending_after_a_cursor(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let f = Fixture::new(store, capabilities);
    let me = f.local("me", false).await;
    let other = f.remote("other", false).await;
    let a0 = f.post("a0", status(&f.ids, &me, sec(1)), "quokka").await;
    f.insert("other's reblog of a0", reblog(&f.ids, &other, &a0, sec(2)))
        .await;
    let a1 = f
        .insert(
            "a1 (other's private, not indexed)",
            StatusRecord {
                visibility: Visibility::Private,
                ..status(&f.ids, &other, sec(3))
            },
        )
        .await;
    let a2 = f
        .insert("a2 (reply, not indexed)", reply(&f.ids, &me, &a1, sec(4)))
        .await;
    let r2 = f
        .insert("my reblog of a2", reblog(&f.ids, &me, &a2, sec(5)))
        .await;
    let a3 = f
        .post(
            "a3 (direct)",
            StatusRecord {
                visibility: Visibility::Direct,
                mentions: vec![other.id],
                ..status(&f.ids, &me, sec(6))
            },
            "walrus",
        )
        .await;
    let a4 = f.post("a4", status(&f.ids, &other, sec(7)), "quokka").await;
    let a5 = f.insert("a5", status(&f.ids, &me, sec(8))).await;
    let list = |after: Option<Id>, limit: u64| async move {
        store
            .indexable_status_ids(after, limit)
            .await
            .unwrap_or_else(|e| panic!("indexable_status_ids failed: {e:?}"))
    };
    let check = |after: Option<Id>, limit: u64, got: Vec<Id>, want: Vec<&StatusRecord>| {
        let want: Vec<Id> = want.iter().map(|s| s.id).collect();
        let after = after.map_or("none".to_string(), |a| f.called(a));
        if f.searches {
            assert!(
                got == want,
                "indexable_status_ids must list the non-reblog statuses with an id larger than \
                 `after`, smallest first, at most `limit`\n  after {after}, limit {limit}: \
                 expected [{}], got [{}]",
                f.list(&want),
                f.list(&got)
            );
        } else {
            assert!(
                got.is_empty(),
                "a store without full-text search (the trait's default) lists no status to \
                 index, but indexable_status_ids(after {after}, limit {limit}) listed [{}] (or \
                 claim SearchesStatuses)",
                f.list(&got)
            );
        }
    };
    f.name(Id(a3.id.0 + 1), "a3+1 (no status)");
    for (after, limit, want) in [
        (None, 100, vec![&a0, &a1, &a2, &a3, &a4, &a5]),
        (None, 2, vec![&a0, &a1]),
        (Some(a0.id), 2, vec![&a1, &a2]),
        (Some(r2.id), 100, vec![&a3, &a4, &a5]),
        (Some(Id(a3.id.0 + 1)), 100, vec![&a4, &a5]),
        (Some(a5.id), 100, vec![]),
        (None, 0, vec![]),
    ] {
        check(after, limit, list(after, limit).await, want);
    }
    store
        .delete_status(a4.id)
        .await
        .unwrap_or_else(|e| panic!("delete_status(a4) failed: {e:?}"));
    check(
        Some(a2.id),
        100,
        list(Some(a2.id), 100).await,
        vec![&a3, &a5],
    );
}
