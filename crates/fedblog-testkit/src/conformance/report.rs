//! Conformance results: the JSON-lines report and the per-area summary table.

use std::collections::BTreeMap;

use serde_json::json;

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
}

/// All results of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// In run order.
    pub results: Vec<CheckReport>,
}

impl Report {
    /// One JSON object per line: `id`, `outcome`, `detail` (and `area`, `rule`).
    pub fn to_jsonl(&self) -> String {
        self.results
            .iter()
            .map(|r| json!({ "id": r.id, "area": r.area, "outcome": r.outcome.label(), "detail": r.outcome.detail(), "rule": r.rule }).to_string() + "\n")
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

    /// The failed checks.
    pub fn failures(&self) -> Vec<&CheckReport> {
        self.results
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
            .collect()
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
