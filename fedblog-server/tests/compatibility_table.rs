//! The README's compatibility table: every row of the reference's endpoint list
//! (`shared/reference/endpoints.tsv`) classed against the route table as served, removed or not
//! served with its reason (`fedblog_core::api::compatibility`), and the table generated from
//! that between the README's `compatibility-table` markers (`FEDBLOG_UPDATE_README=1 cargo test
//! -p fedblog-server --test compatibility_table` rewrites it).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use fedblog_core::api::compatibility::{NOT_SERVED, PATH_ALIASES};
use fedblog_core::api::{REMOVED_ENDPOINTS, routes};
use fedblog_core::services::instance::MASTODON_COMPAT_VERSION;

const BEGIN: &str = "<!-- compatibility-table:start -->\n";
const END: &str = "<!-- compatibility-table:end -->";
const REGENERATE: &str = "regenerate it with FEDBLOG_UPDATE_README=1 cargo test -p fedblog-server --test compatibility_table";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// One row of `endpoints.tsv`.
#[derive(Debug, Clone)]
struct Row {
    area: String,
    method: String,
    path: String,
    notes: String,
    added: String,
    status: String,
}

/// The reference's rows, found as the OpenAPI document is: `shared/reference/` or
/// `../shared/reference/` above the crate.
fn reference() -> Vec<Row> {
    let mut dir = Some(Path::new(env!("CARGO_MANIFEST_DIR")));
    while let Some(d) = dir {
        for candidate in [
            d.join("shared/reference/endpoints.tsv"),
            d.join("../shared/reference/endpoints.tsv"),
        ] {
            if let Ok(text) = std::fs::read_to_string(&candidate) {
                return parse(&text);
            }
        }
        dir = d.parent();
    }
    panic!("endpoints.tsv (../shared/reference) not found above CARGO_MANIFEST_DIR");
}

fn parse(text: &str) -> Vec<Row> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .unwrap_or_else(|| panic!("endpoints.tsv has no column {name}"))
    };
    let (area, method, path, notes, added, status) = (
        column("area"),
        column("method"),
        column("path"),
        column("notes"),
        column("added"),
        column("status"),
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            let cell = |i: usize| {
                cells
                    .get(i)
                    .unwrap_or_else(|| panic!("short row in endpoints.tsv: {l:?}"))
                    .trim()
                    .to_string()
            };
            Row {
                area: cell(area),
                method: cell(method),
                path: cell(path),
                notes: cell(notes),
                added: cell(added),
                status: cell(status),
            }
        })
        .collect()
}

/// A path with its parameters' names dropped (`/api/v1/tags/:name` and `/api/v1/tags/:id` are
/// one route; `/@:username` keeps its `@`).
fn shape(path: &str) -> String {
    path.split('/')
        .map(|segment| match segment.find(':') {
            Some(at) => &segment[..=at],
            None => segment,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// What fedblog does with one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Served,
    Removed,
    NotServed(&'static str),
}

/// Every way a row is accounted for (more than one is a fault, none too).
struct Accounting {
    served: bool,
    removed: bool,
    not_served: Option<&'static str>,
}

struct Tables {
    routes: HashSet<(String, String)>,
    removed: HashSet<(String, String)>,
}

impl Tables {
    fn new() -> Self {
        Tables {
            routes: routes()
                .iter()
                .map(|r| (r.method.as_str().to_string(), shape(r.path)))
                .collect(),
            removed: REMOVED_ENDPOINTS
                .iter()
                .map(|(m, p)| (m.to_string(), shape(p)))
                .collect(),
        }
    }

    fn route(&self, method: &str, path: &str) -> bool {
        self.routes.contains(&(method.to_string(), shape(path)))
    }

    fn account(&self, row: &Row) -> Accounting {
        let alias = PATH_ALIASES
            .iter()
            .find(|(m, p, _)| *m == row.method && *p == row.path)
            .map(|(_, _, served)| *served);
        Accounting {
            served: self.route(&row.method, &row.path)
                || alias.is_some_and(|served| self.route(&row.method, served)),
            removed: row.status == "removed"
                || self
                    .removed
                    .contains(&(row.method.clone(), shape(&row.path))),
            not_served: NOT_SERVED
                .iter()
                .find(|(m, p, _)| *m == row.method && *p == row.path)
                .map(|(_, _, why)| *why),
        }
    }

    /// The row's class, `None` when nothing accounts for it (removed wins over served, served
    /// over a stale `NOT_SERVED` entry; the classification test fails on both).
    fn class(&self, row: &Row) -> Option<Class> {
        let a = self.account(row);
        if a.removed {
            Some(Class::Removed)
        } else if a.served {
            Some(Class::Served)
        } else {
            a.not_served.map(Class::NotServed)
        }
    }
}

#[test]
fn every_reference_row_is_served_removed_or_not_served_with_a_reason() {
    let rows = reference();
    let tables = Tables::new();
    let mut faults = Vec::new();
    let mut seen = HashSet::new();
    for row in &rows {
        let what = format!("{} {}", row.method, row.path);
        if !seen.insert((row.method.clone(), row.path.clone())) {
            faults.push(format!("{what}: twice in endpoints.tsv"));
        }
        let a = tables.account(row);
        match (a.served, a.removed, a.not_served) {
            (true, false, None) | (false, true, None) | (false, false, Some(_)) => {}
            (false, false, None) => faults.push(format!(
                "{what}: neither served, removed nor in NOT_SERVED (fedblog-core/src/api/compatibility.rs)"
            )),
            (true, true, _) => faults.push(format!(
                "{what}: served, but Mastodon removed it (a server must not offer it)"
            )),
            (true, false, Some(_)) => faults.push(format!(
                "{what}: served now; remove its stale NOT_SERVED entry"
            )),
            (false, true, Some(_)) => faults.push(format!(
                "{what}: removed; it needs no NOT_SERVED entry"
            )),
        }
    }
    let mut listed = HashSet::new();
    for (method, path, reason) in NOT_SERVED {
        if !listed.insert((method, path)) {
            faults.push(format!("{method} {path}: twice in NOT_SERVED"));
        }
        if !seen.contains(&(method.to_string(), path.to_string())) {
            faults.push(format!(
                "{method} {path}: in NOT_SERVED but not a row of endpoints.tsv"
            ));
        }
        if reason.trim().is_empty() {
            faults.push(format!("{method} {path}: in NOT_SERVED without a reason"));
        }
    }
    for (method, path, served) in PATH_ALIASES {
        if !seen.contains(&(method.to_string(), path.to_string())) {
            faults.push(format!(
                "{method} {path}: in PATH_ALIASES but not a row of endpoints.tsv"
            ));
        }
        if !tables.route(method, served) {
            faults.push(format!(
                "{method} {path}: PATH_ALIASES names {served}, which is not a route"
            ));
        }
    }
    assert!(
        faults.is_empty(),
        "{} fault(s) between endpoints.tsv, the route table and compatibility.rs:\n{}",
        faults.len(),
        faults.join("\n")
    );
}

/// The part of a row's `notes` that starts with `word` (`deprecated in 4.0.0`), or the word.
fn note_starting(notes: &str, word: &str) -> String {
    notes
        .split(';')
        .map(str::trim)
        .find(|n| n.starts_with(word))
        .unwrap_or(word)
        .to_string()
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// One line of the table (an empty cell is one space wide).
fn table_row(cells: &[&str]) -> String {
    let cells: Vec<String> = cells
        .iter()
        .map(|c| {
            if c.is_empty() {
                " ".into()
            } else {
                format!(" {c} ")
            }
        })
        .collect();
    format!("|{}|\n", cells.join("|"))
}

/// The table: a summary line, then one row per reference row, grouped by area (areas in
/// alphabetical order, rows in the reference's order).
fn markdown_table(rows: &[Row], tables: &Tables) -> String {
    let mut areas: BTreeMap<&str, Vec<(&Row, Option<Class>)>> = BTreeMap::new();
    for row in rows {
        areas
            .entry(row.area.as_str())
            .or_default()
            .push((row, tables.class(row)));
    }
    let count = |want: fn(&Option<Class>) -> bool, of: &[(&Row, Option<Class>)]| {
        of.iter().filter(|(_, c)| want(c)).count()
    };
    let served = |c: &Option<Class>| *c == Some(Class::Served);
    let removed = |c: &Option<Class>| *c == Some(Class::Removed);
    let not_served = |c: &Option<Class>| !matches!(c, Some(Class::Served | Class::Removed));
    let all: Vec<(&Row, Option<Class>)> = areas.values().flatten().copied().collect();
    let mut out = format!(
        "fedblog reports Mastodon `{MASTODON_COMPAT_VERSION}`. {} served, {} removed, {} not \
         served of {} rows.\n\n",
        count(served, &all),
        count(removed, &all),
        count(not_served, &all),
        all.len()
    );
    out.push_str(&table_row(&["Method", "Path", "Since", "Status", "Note"]));
    out.push_str(&table_row(&["---", "---", "---", "---", "---"]));
    for (area, of) in &areas {
        let tally: Vec<String> = [
            (count(served, of), "served"),
            (count(removed, of), "removed"),
            (count(not_served, of), "not served"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        out.push_str(&table_row(&[
            &format!("**{}**", cell(area)),
            "",
            "",
            "",
            &tally.join(", "),
        ]));
        for (row, class) in of {
            let mut notes = Vec::new();
            if row.status == "deprecated" {
                notes.push(note_starting(&row.notes, "deprecated"));
            }
            let status = match class {
                Some(Class::Served) => "served",
                Some(Class::Removed) => {
                    if row.status == "removed" {
                        notes.push(note_starting(&row.notes, "removed"));
                    } else {
                        notes.push("removed from Mastodon since".to_string());
                    }
                    notes.push("answers 404".to_string());
                    "removed"
                }
                Some(Class::NotServed(why)) => {
                    notes.push(why.to_string());
                    "not served"
                }
                None => {
                    notes.push("unaccounted for".to_string());
                    "not served"
                }
            };
            let since = if row.added.starts_with(|c: char| c.is_ascii_digit()) {
                row.added.as_str()
            } else {
                ""
            };
            out.push_str(&table_row(&[
                &row.method,
                &format!("`{}`", cell(&row.path)),
                &cell(since),
                status,
                &cell(&notes.join("; ")),
            ]));
        }
    }
    out
}

#[test]
fn readme_compatibility_table_is_generated_from_the_reference() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let start = readme
        .find(BEGIN)
        .unwrap_or_else(|| panic!("README.md has no line {BEGIN:?}"))
        + BEGIN.len();
    let end = start
        + readme[start..]
            .find(END)
            .unwrap_or_else(|| panic!("README.md has no line {END:?}"));
    let want = markdown_table(&reference(), &Tables::new());
    if std::env::var_os("FEDBLOG_UPDATE_README").is_some() {
        let updated = format!("{}{}{}", &readme[..start], want, &readme[end..]);
        std::fs::write(&path, updated).expect("write README.md");
        return;
    }
    assert_eq!(
        &readme[start..end],
        want,
        "the README's compatibility table is not the one endpoints.tsv and the route table make: {REGENERATE}"
    );
}

#[test]
fn parameter_names_do_not_matter_but_literal_segments_do() {
    assert_eq!(shape("/x/tags/:name/follow"), shape("/x/tags/:id/follow"));
    assert_eq!(shape("/@:username/:id"), shape("/@:acct/:status"));
    assert_ne!(shape("/x/tags/:id"), shape("/x/tags/followed"));
    assert_ne!(shape("/@:username"), shape("/:username"));
}

#[test]
fn a_row_nothing_accounts_for_is_no_class() {
    let tables = Tables::new();
    let row = |method: &str, path: &str, status: &str| Row {
        area: "test".into(),
        method: method.into(),
        path: path.into(),
        notes: String::new(),
        added: String::new(),
        status: status.into(),
    };
    assert_eq!(
        tables.class(&row("GET", "/nowhere/at/all", "current")),
        None
    );
    assert_eq!(
        tables.class(&row("GET", "/nowhere/at/all", "removed")),
        Some(Class::Removed)
    );
    let (m, p, why) = *NOT_SERVED
        .iter()
        .find(|(m, p, _)| !tables.route(m, p))
        .expect("an entry of NOT_SERVED that is not a route");
    assert_eq!(
        tables.class(&row(m, p, "current")),
        Some(Class::NotServed(why))
    );
    let (m, p, _) = PATH_ALIASES[0];
    assert_eq!(tables.class(&row(m, p, "current")), Some(Class::Served));
    // The table counts a row nothing accounts for as not served and says so.
    let table = markdown_table(&[row("GET", "/nowhere/at/all", "current")], &tables);
    assert!(
        table.contains("0 served, 0 removed, 1 not served of 1 rows"),
        "{table}"
    );
    assert!(table.contains("unaccounted for"), "{table}");
}
