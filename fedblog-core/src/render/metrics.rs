//! Rendering of the admin dashboard's figures: `Admin::Measure`, `Admin::Dimension` and
//! `Admin::Cohort`, from the views `services/metrics.rs` computes. Days are written as their
//! midnight in UTC (`2024-05-01T00:00:00Z`), numbers as strings, sizes also for people
//! (`1.5 MB`).

use chrono::NaiveDate;

use crate::app::App;
use crate::entities::{
    AdminCohort, AdminCohortData, AdminDimension, AdminDimensionData, AdminMeasure,
    AdminMeasureData,
};
use crate::services::metrics::{CohortView, DimensionValue, DimensionView, MeasureView};

impl App {
    /// A measure (`Admin::Measure`): `human_value` for a size, `previous_total` unless the
    /// total is of all time.
    pub fn render_admin_measure(&self, m: &MeasureView) -> AdminMeasure {
        AdminMeasure {
            key: m.key.into(),
            unit: m.unit.map(Into::into),
            total: m.total.to_string(),
            human_value: (m.unit == Some("bytes")).then(|| human_size(m.total)),
            previous_total: m.previous_total.map(|t| t.to_string()),
            data: m
                .data
                .iter()
                .map(|(day, value)| AdminMeasureData {
                    date: day_start(*day),
                    value: value.to_string(),
                })
                .collect(),
        }
    }

    /// A dimension (`Admin::Dimension`): sizes carry `unit` and `human_value`, versions
    /// `human_value`.
    pub fn render_admin_dimension(&self, d: &DimensionView) -> AdminDimension {
        AdminDimension {
            key: d.key.into(),
            data: d
                .rows
                .iter()
                .map(|row| {
                    let (value, unit, human_value) = match &row.value {
                        DimensionValue::Count(n) => (n.to_string(), None, None),
                        DimensionValue::Bytes(n) => {
                            (n.to_string(), Some("bytes".into()), Some(human_size(*n)))
                        }
                        DimensionValue::Text(t) => (t.clone(), None, Some(t.clone())),
                    };
                    AdminDimensionData {
                        key: row.key.clone(),
                        human_key: row.human_key.clone(),
                        value,
                        unit,
                        human_value,
                    }
                })
                .collect(),
        }
    }

    /// A retention cohort (`Admin::Cohort`).
    pub fn render_admin_cohort(&self, c: &CohortView) -> AdminCohort {
        AdminCohort {
            period: day_start(c.period),
            frequency: c.frequency.as_str().into(),
            data: c
                .data
                .iter()
                .map(|p| AdminCohortData {
                    date: day_start(p.date),
                    rate: p.rate,
                    value: p.value.to_string(),
                })
                .collect(),
        }
    }
}

/// A day as its midnight in UTC, as Mastodon writes the days of its measures.
fn day_start(day: NaiveDate) -> String {
    day.format("%Y-%m-%dT00:00:00Z").to_string()
}

/// A size for people, in units of 1,024 with three significant digits, as Rails'
/// `number_to_human_size` writes it: `0 Bytes`, `1 Byte`, `1.5 KB`, `118 MB`.
pub(crate) fn human_size(bytes: i64) -> String {
    const UNITS: [&str; 6] = ["KB", "MB", "GB", "TB", "PB", "EB"];
    if bytes.unsigned_abs() < 1024 {
        return if bytes == 1 {
            "1 Byte".into()
        } else {
            format!("{bytes} Bytes")
        };
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    while value.abs() >= 1024.0 && unit < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    // Three significant digits, without trailing zeros.
    let digits = if value.abs() >= 100.0 {
        0
    } else if value.abs() >= 10.0 {
        1
    } else {
        2
    };
    let text = format!("{value:.digits$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text} {}", UNITS[unit - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_rails_writes_them() {
        assert_eq!(human_size(0), "0 Bytes");
        assert_eq!(human_size(1), "1 Byte");
        assert_eq!(human_size(1023), "1023 Bytes");
        assert_eq!(human_size(1024), "1 KB");
        assert_eq!(human_size(1536), "1.5 KB");
        assert_eq!(human_size(10 * 1024 + 512), "10.5 KB");
        assert_eq!(human_size(123_456_789), "118 MB");
        assert_eq!(human_size(5 * 1024 * 1024 * 1024), "5 GB");
    }

    #[test]
    fn days_are_their_utc_midnight() {
        let day = NaiveDate::from_ymd_opt(2024, 5, 1).expect("date");
        assert_eq!(day_start(day), "2024-05-01T00:00:00Z");
    }
}
