//! The committed baseline of the reference server (`baselines/fedblog.jsonl`) lists every check
//! of the HTTP suite, in run order, and the README's table of checks and passes per area is the
//! one the baseline makes (generated: `FEDBLOG_UPDATE_BASELINE=1 cargo test -p fedblog-testkit
//! --test baseline` rewrites it). The server's `tests/conformance.rs` holds the baseline to the
//! outcomes of a real run.

use std::path::{Path, PathBuf};

use fedblog_testkit::conformance::{Baseline, checks};

const BEGIN: &str =
    "<!-- conformance-table:begin (generated from fedblog-testkit/baselines/fedblog.jsonl) -->\n";
const END: &str = "<!-- conformance-table:end -->";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn baseline() -> Baseline {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("baselines/fedblog.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Baseline::parse(&text).expect("the baseline parses")
}

#[test]
fn baseline_lists_every_check_in_run_order() {
    let listed: Vec<String> = baseline().entries.into_iter().map(|(id, _)| id).collect();
    let all: Vec<String> = checks::all().iter().map(|c| c.id.to_string()).collect();
    assert_eq!(
        listed, all,
        "the baseline must list every check once, in run order: regenerate it with FEDBLOG_UPDATE_BASELINE=1 cargo test -p fedblog-server --test conformance"
    );
}

#[test]
fn readme_table_is_generated_from_the_baseline() {
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
    let want = baseline().markdown_table();
    if std::env::var_os("FEDBLOG_UPDATE_BASELINE").is_some() {
        let updated = format!("{}{}{}", &readme[..start], want, &readme[end..]);
        std::fs::write(&path, updated).expect("write README.md");
        return;
    }
    assert_eq!(
        &readme[start..end],
        want,
        "the README's conformance table is not the baseline's: regenerate it with FEDBLOG_UPDATE_BASELINE=1 cargo test -p fedblog-testkit --test baseline"
    );
}
