//! Durations clients give in seconds (`expires_in`, `duration`), turned into instants with a
//! range check, so no value a client sends can overflow the date arithmetic.

use chrono::{DateTime, Duration, Utc};

use crate::error::{ApiError, ApiResult};

/// The longest duration accepted, in seconds: 100 years. Longer ones are a 422 rather than
/// "forever", which a client asks for by leaving the field out.
pub const MAX_DURATION_SECONDS: i64 = 100 * 366 * 24 * 3600;

/// `now` plus `seconds` (positive, at most [`MAX_DURATION_SECONDS`]); anything else is a 422
/// naming `field`.
pub fn seconds_after(now: DateTime<Utc>, seconds: i64, field: &str) -> ApiResult<DateTime<Utc>> {
    let out_of_range = || {
        ApiError::invalid_field(
            field,
            "ERR_INVALID",
            format!("{field} must be a number of seconds from 1 to {MAX_DURATION_SECONDS}"),
        )
    };
    if !(1..=MAX_DURATION_SECONDS).contains(&seconds) {
        return Err(out_of_range());
    }
    now.checked_add_signed(Duration::seconds(seconds))
        .ok_or_else(out_of_range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_durations_are_422_not_a_panic() {
        let now = Utc::now();
        assert_eq!(
            seconds_after(now, 60, "expires_in").unwrap(),
            now + Duration::seconds(60)
        );
        assert!(seconds_after(now, MAX_DURATION_SECONDS, "duration").is_ok());
        for bad in [0, -1, MAX_DURATION_SECONDS + 1, i64::MAX, i64::MIN] {
            let e = seconds_after(now, bad, "duration").unwrap_err();
            assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
            assert!(e.message.contains("duration"), "{}", e.message);
        }
    }
}
