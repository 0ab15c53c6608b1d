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

    /// The failed checks.
    pub fn failures(&self) -> Vec<&CheckReport> {
        self.results
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
            .collect()
    }
}
