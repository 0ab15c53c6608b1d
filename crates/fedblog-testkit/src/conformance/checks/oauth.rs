//! (being written)
use crate::conformance::Check;
/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![]
}
