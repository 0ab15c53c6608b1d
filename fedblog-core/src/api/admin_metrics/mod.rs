//! The admin dashboard's figures (`/api/v1/admin/measures`, `dimensions`, `retention`):
//! numbers per day, the biggest groups of a kind and the retention of sign-ups, computed from
//! the database by `services/metrics.rs`. Each needs the `admin:read` scope and a role that
//! views the dashboard, checked before anything is read.
pub mod dimensions;
pub mod measures;
pub mod retention;
