//! Conformance results: the JSON-lines report and the per-area summary table.

use std::collections::BTreeMap;

use serde_json::json;

use crate::recorder::Exchange;

/// How a check ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The server follows the rule.
    Pass,
    /// It does not; the detail says how.
    Fail(String),
    /// The check could not be set up; the detail says why.
    NotRun(String),
}

impl Outcome {
    /// `pass`, `fail` or `not-run`.
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::NotRun(_) => "not-run",
        }
    }
    /// The detail text.
    pub fn detail(&self) -> &str {
        match self {
            Outcome::Pass => "",
            Outcome::Fail(d) | Outcome::NotRun(d) => d,
        }
    }
}

/// The result of one check.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// Check id.
    pub id: String,
    /// Area.
    pub area: String,
    /// The rule.
    pub rule: String,
    /// Outcome.
    pub outcome: Outcome,
    /// For a failure or a not-run, the last request the check sent, as it was answered.
    pub request: Option<Exchange>,
}

/// All results of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// In run order.
    pub results: Vec<CheckReport>,
}

impl Report {
    /// One JSON object per line: `id`, `outcome`, `detail` (and `area`, `rule`, and for a
    /// failure or a not-run the `request` that came last, with a `curl` command).
    pub fn to_jsonl(&self) -> String {
        self.results
            .iter()
            .map(|r| {
                let mut v = json!({ "id": r.id, "area": r.area, "outcome": r.outcome.label(), "detail": r.outcome.detail(), "rule": r.rule });
                if let Some(x) = &r.request {
                    v["request"] = x.to_json();
                }
                v.to_string() + "\n"
            })
            .collect()
    }

    /// Counts per area: (pass, fail, not-run).
    pub fn by_area(&self) -> BTreeMap<String, (usize, usize, usize)> {
        let mut m: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
        for r in &self.results {
            let e = m.entry(r.area.clone()).or_default();
            match r.outcome {
                Outcome::Pass => e.0 += 1,
                Outcome::Fail(_) => e.1 += 1,
                Outcome::NotRun(_) => e.2 += 1,
            }
        }
        m
    }

    /// The summary table, one row per area and a total.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{:<20} {:>6} {:>6} {:>8} {:>6}\n",
            "area", "pass", "fail", "not-run", "total"
        );
        let (mut p, mut f, mut n) = (0, 0, 0);
        for (area, (ap, af, an)) in self.by_area() {
            out.push_str(&format!(
                "{:<20} {:>6} {:>6} {:>8} {:>6}\n",
                area,
                ap,
                af,
                an,
                ap + af + an
            ));
            p += ap;
            f += af;
            n += an;
        }
        out.push_str(&format!(
            "{:<20} {:>6} {:>6} {:>8} {:>6}\n",
            "total",
            p,
            f,
            n,
            p + f + n
        ));
        out
    }

    /// The checks that did not run, grouped by the reason given.
    pub fn not_run(&self) -> BTreeMap<&str, Vec<&str>> {
        let mut m: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for r in &self.results {
            if let Outcome::NotRun(why) = &r.outcome {
                m.entry(why.as_str()).or_default().push(r.id.as_str());
            }
        }
        m
    }

    /// A Markdown summary of a run against `base_url`: the table, the features declared
    /// absent, the failures grouped by cause (the endpoint and status of the request that
    /// showed them; schema mismatches together), each group with a `curl` command repeating
    /// its first request, and the checks not run grouped by reason.
    pub fn markdown(&self, base_url: &str, declared_absent: &str) -> String {
        let mut out = format!("# fedblog-conformance against {base_url}\n\n");
        let total = self.results.len();
        let pass = self
            .results
            .iter()
            .filter(|r| r.outcome == Outcome::Pass)
            .count();
        out.push_str(&format!(
            "{pass} of {total} checks pass; {} fail; {} not run. Declared absent: {declared_absent}.\n\n",
            self.failures().len(),
            total - pass - self.failures().len()
        ));
        out.push_str("| area | pass | fail | not run |\n|---|---:|---:|---:|\n");
        for (area, (p, f, n)) in self.by_area() {
            out.push_str(&format!("| {area} | {p} | {f} | {n} |\n"));
        }
        let mut groups: BTreeMap<String, Vec<&CheckReport>> = BTreeMap::new();
        for r in self.failures() {
            groups.entry(cause(r)).or_default().push(r);
        }
        let mut groups: Vec<(String, Vec<&CheckReport>)> = groups.into_iter().collect();
        groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        out.push_str(&format!(
            "\n## Failures by cause ({} causes)\n",
            groups.len()
        ));
        for (cause, rs) in &groups {
            out.push_str(&format!("\n### {cause} ({} checks)\n\n", rs.len()));
            for r in rs {
                out.push_str(&format!(
                    "- `{}`: {}\n",
                    r.id,
                    one_line(r.outcome.detail(), 400)
                ));
            }
            if let Some(x) = rs.iter().find_map(|r| r.request.as_ref()) {
                out.push_str(&format!("\n```sh\n{}\n```\n", x.curl()));
                match &x.token_of {
                    Some(who) => out.push_str(&format!(
                        "\n(`$TOKEN`: the token of {who}.) It answered {}: `{}`\n",
                        x.status,
                        one_line(&x.response, 200)
                    )),
                    None => out.push_str(&format!(
                        "\nIt answered {}: `{}`\n",
                        x.status,
                        one_line(&x.response, 200)
                    )),
                }
            }
        }
        let mut reasons: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for r in &self.results {
            if let Outcome::NotRun(why) = &r.outcome {
                reasons.entry(generalise(why)).or_default().push(&r.id);
            }
        }
        out.push_str(&format!(
            "\n## Not run, by reason ({} reasons)\n\n",
            reasons.len()
        ));
        for (why, ids) in &reasons {
            out.push_str(&format!(
                "- {} ({}): {}\n",
                one_line(why, 400),
                ids.len(),
                ids.iter()
                    .map(|i| format!("`{i}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        out
    }

    /// The failed checks.
    pub fn failures(&self) -> Vec<&CheckReport> {
        self.results
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
            .collect()
    }
}

/// What a failure is grouped under in summaries.
fn cause(r: &CheckReport) -> String {
    if r.area == "schema" {
        return "answers that do not match the OpenAPI schema".into();
    }
    match &r.request {
        Some(x) if x.status == 0 => format!("{}: no answer", x.endpoint()),
        Some(x) => format!("{} answered {}", x.endpoint(), x.status),
        None => generalise(r.outcome.detail().split(':').next().unwrap_or_default()),
    }
}

/// A text with run-specific parts (numbers, the suite's unique names) replaced, so the same
/// reason reads the same in every check and every run.
fn generalise(text: &str) -> String {
    static NAMES: std::sync::OnceLock<(regex::Regex, regex::Regex)> = std::sync::OnceLock::new();
    let (names, numbers) = NAMES.get_or_init(|| {
        (
            regex::Regex::new(r"\b[a-z][a-z0-9]*_[a-z0-9]{5,}\b").expect("regex"),
            regex::Regex::new(r"\d{3,}").expect("regex"),
        )
    });
    let text = names.replace_all(text, "<name>");
    numbers.replace_all(&text, "<n>").into_owned()
}

/// A text on one line, at most `max` characters.
fn one_line(text: &str, max: usize) -> String {
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// The outcome each check is expected to have, by id: a committed baseline. It is read from
/// JSON lines with at least `id` and `outcome` (so a report written by `fedblog-conformance
/// --report` is a baseline as it stands), and written with those two fields only, so that a
/// baseline changes only when an outcome does.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Baseline {
    /// `(id, outcome label)`, in the order read.
    pub entries: Vec<(String, String)>,
}

/// How a run differs from a [`Baseline`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Checks expected to pass that did not: `(id, expected, got)`.
    pub regressions: Vec<(String, String, String)>,
    /// Checks expected to fail or not run that passed, or changed between fail and not-run.
    pub changes: Vec<(String, String, String)>,
    /// Checks run that the baseline does not list.
    pub unlisted: Vec<String>,
    /// Checks the baseline lists that were selected but not run (the suite no longer has them).
    pub missing: Vec<String>,
}

impl Comparison {
    /// Whether the run is no worse than the baseline: nothing regressed, and every check run
    /// is listed (a new check must be added to the baseline with its outcome).
    pub fn acceptable(&self) -> bool {
        self.regressions.is_empty() && self.unlisted.is_empty()
    }

    /// Whether the run has exactly the baseline's outcomes.
    pub fn exact(&self) -> bool {
        self.acceptable() && self.changes.is_empty() && self.missing.is_empty()
    }

    /// A human-readable account of the differences (empty when there are none).
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for (id, want, got) in &self.regressions {
            out.push_str(&format!("regression: {id}: expected {want}, got {got}\n"));
        }
        for (id, want, got) in &self.changes {
            out.push_str(&format!(
                "changed:    {id}: expected {want}, got {got} (update the baseline)\n"
            ));
        }
        for id in &self.unlisted {
            out.push_str(&format!("unlisted:   {id}: not in the baseline\n"));
        }
        for id in &self.missing {
            out.push_str(&format!("missing:    {id}: in the baseline but not run\n"));
        }
        out
    }
}

impl Baseline {
    /// Parses JSON lines; blank lines are skipped.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut entries = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| format!("line {}: not JSON: {e}", n + 1))?;
            let field = |k: &str| {
                v.get(k)
                    .and_then(|x| x.as_str())
                    .map(str::to_string)
                    .ok_or_else(|| format!("line {}: no string `{k}`", n + 1))
            };
            let outcome = field("outcome")?;
            if !["pass", "fail", "not-run"].contains(&outcome.as_str()) {
                return Err(format!("line {}: unknown outcome {outcome:?}", n + 1));
            }
            entries.push((field("id")?, outcome));
        }
        Ok(Baseline { entries })
    }

    /// The baseline of a report: every check's id and outcome, in run order.
    pub fn of(report: &Report) -> Self {
        Baseline {
            entries: report
                .results
                .iter()
                .map(|r| (r.id.clone(), r.outcome.label().to_string()))
                .collect(),
        }
    }

    /// One `{"id": ..., "outcome": ...}` object per line.
    pub fn to_jsonl(&self) -> String {
        self.entries
            .iter()
            .map(|(id, o)| json!({ "id": id, "outcome": o }).to_string() + "\n")
            .collect()
    }

    /// Compares a run with the baseline. `selected` says which baseline entries the run was
    /// meant to cover (all for a full run, one area's for `--only`).
    pub fn compare(&self, report: &Report, selected: impl Fn(&str) -> bool) -> Comparison {
        let expected: BTreeMap<&str, &str> = self
            .entries
            .iter()
            .map(|(id, o)| (id.as_str(), o.as_str()))
            .collect();
        let mut c = Comparison::default();
        let mut seen = std::collections::BTreeSet::new();
        for r in &report.results {
            seen.insert(r.id.as_str());
            let got = r.outcome.label();
            match expected.get(r.id.as_str()) {
                None => c.unlisted.push(r.id.clone()),
                Some(&want) if want == got => {}
                Some(&"pass") => {
                    c.regressions
                        .push((r.id.clone(), "pass".to_string(), got.to_string()))
                }
                Some(&want) => c
                    .changes
                    .push((r.id.clone(), want.to_string(), got.to_string())),
            }
        }
        c.missing = self
            .entries
            .iter()
            .filter(|(id, _)| selected(id) && !seen.contains(id.as_str()))
            .map(|(id, _)| id.clone())
            .collect();
        c
    }

    /// Counts per area from the baseline: (checks, passing).
    pub fn by_area(&self) -> BTreeMap<String, (usize, usize)> {
        let mut m: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for (id, o) in &self.entries {
            let area = id.split('/').next().unwrap_or(id).to_string();
            let e = m.entry(area).or_default();
            e.0 += 1;
            if o == "pass" {
                e.1 += 1;
            }
        }
        m
    }

    /// The README's table of checks and passes per area, as Markdown.
    pub fn markdown_table(&self) -> String {
        let mut out = String::from("| area | checks | pass |\n|---|---:|---:|\n");
        let (mut total, mut pass) = (0, 0);
        for (area, (n, p)) in self.by_area() {
            out.push_str(&format!("| {area} | {n} | {p} |\n"));
            total += n;
            pass += p;
        }
        out.push_str(&format!("| **all** | **{total}** | **{pass}** |\n"));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(outcomes: &[(&str, Outcome)]) -> Report {
        Report {
            results: outcomes
                .iter()
                .map(|(id, o)| CheckReport {
                    id: id.to_string(),
                    area: id.split('/').next().unwrap().to_string(),
                    rule: String::new(),
                    outcome: o.clone(),
                    request: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_report_is_a_baseline_and_round_trips() {
        let r = report(&[
            ("a/one", Outcome::Pass),
            ("a/two", Outcome::Fail("no".into())),
            ("b/three", Outcome::NotRun("why".into())),
        ]);
        let from_report = Baseline::parse(&r.to_jsonl()).expect("parse");
        assert_eq!(from_report, Baseline::of(&r));
        assert_eq!(
            Baseline::parse(&from_report.to_jsonl()).expect("parse"),
            from_report
        );
        assert_eq!(
            from_report.to_jsonl().lines().next(),
            Some(r#"{"id":"a/one","outcome":"pass"}"#)
        );
        assert!(Baseline::parse("{\"id\":\"a/x\",\"outcome\":\"maybe\"}").is_err());
        assert!(Baseline::parse("not json").is_err());
    }

    #[test]
    fn comparison_names_regressions_changes_unlisted_and_missing() {
        let base = Baseline::of(&report(&[
            ("a/kept", Outcome::Pass),
            ("a/regressed", Outcome::Pass),
            ("a/fixed", Outcome::Fail(String::new())),
            ("a/gone", Outcome::Pass),
            ("b/other", Outcome::Pass),
        ]));
        let run = report(&[
            ("a/kept", Outcome::Pass),
            ("a/regressed", Outcome::NotRun("no token".into())),
            ("a/fixed", Outcome::Pass),
            ("a/new", Outcome::Fail(String::new())),
        ]);
        let c = base.compare(&run, |id| id.starts_with("a/"));
        assert_eq!(
            c.regressions,
            vec![("a/regressed".into(), "pass".into(), "not-run".into())]
        );
        assert_eq!(
            c.changes,
            vec![("a/fixed".into(), "fail".into(), "pass".into())]
        );
        assert_eq!(c.unlisted, vec!["a/new".to_string()]);
        assert_eq!(c.missing, vec!["a/gone".to_string()]);
        assert!(!c.acceptable() && !c.exact());
        let same = base.compare(&report(&[("b/other", Outcome::Pass)]), |id| {
            id.starts_with("b/")
        });
        assert!(same.exact(), "{}", same.describe());
        let better = base.compare(&report(&[("a/fixed", Outcome::Pass)]), |id| id == "a/fixed");
        assert!(better.acceptable() && !better.exact());
    }

    #[test]
    fn the_markdown_summary_groups_failures_by_the_request_that_showed_them() {
        use crate::recorder::{Exchange, SentBody};
        let asked = |op: &str, status: u16| Exchange {
            method: "POST".into(),
            url: "http://127.0.0.1:3000/api/v1/apps".into(),
            token_of: Some("@alice".into()),
            headers: vec![],
            body: SentBody::Form(vec![("client_name".into(), "x".into())]),
            operation: Some(op.into()),
            status,
            response: "{\"id\":\"1\"}".into(),
        };
        let mut r = report(&[
            ("apps/a", Outcome::Fail("expected HTTP 422, got 200".into())),
            ("apps/b", Outcome::Fail("expected HTTP 422, got 200".into())),
            ("oauth/c", Outcome::Fail("no error_description".into())),
            (
                "schema/GET /api/v1/x",
                Outcome::Fail("1 of 1 answers".into()),
            ),
            (
                "lists/d",
                Outcome::NotRun("set-up failed: making author_ab12c9: 500".into()),
            ),
            (
                "lists/e",
                Outcome::NotRun("set-up failed: making fan_zz99q1: 500".into()),
            ),
            ("lists/f", Outcome::Pass),
        ]);
        r.results[0].request = Some(asked("POST /api/v1/apps", 200));
        r.results[1].request = Some(asked("POST /api/v1/apps", 200));
        r.results[2].request = Some(asked("POST /oauth/token", 400));
        let md = r.markdown("http://127.0.0.1:3000", "push");
        assert!(
            md.contains("1 of 7 checks pass; 4 fail; 2 not run. Declared absent: push."),
            "{md}"
        );
        assert!(md.contains("## Failures by cause (3 causes)"), "{md}");
        let apps = md
            .find("### POST /api/v1/apps answered 200 (2 checks)")
            .expect("apps group");
        let oauth = md
            .find("### POST /oauth/token answered 400 (1 checks)")
            .expect("oauth group");
        assert!(apps < oauth, "the larger group comes first: {md}");
        assert!(md.contains("### answers that do not match the OpenAPI schema (1 checks)"));
        assert!(md.contains("curl -sS -i -X POST -H \"Authorization: Bearer $TOKEN\" --data-urlencode 'client_name=x' 'http://127.0.0.1:3000/api/v1/apps'"), "{md}");
        assert!(md.contains("(`$TOKEN`: the token of @alice.)"));
        assert!(
            md.contains("- set-up failed: making <name>: <n> (2): `lists/d`, `lists/e`"),
            "the same reason in two checks is one line: {md}"
        );
    }

    #[test]
    fn markdown_table_counts_checks_and_passes_per_area() {
        let base = Baseline::of(&report(&[
            ("a/one", Outcome::Pass),
            ("a/two", Outcome::Fail(String::new())),
            ("b/three", Outcome::Pass),
        ]));
        assert_eq!(
            base.markdown_table(),
            "| area | checks | pass |\n|---|---:|---:|\n| a | 2 | 1 |\n| b | 1 | 1 |\n| **all** | **3** | **2** |\n"
        );
    }
}
