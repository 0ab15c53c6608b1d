//! The `jobs` table: the durable job queue, one row per job, claimed by workers under a lease.

use sea_orm::entity::prelude::*;

/// One background job.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "jobs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub kind: String,
    pub payload: String,
    pub run_at: DateTimeUtc,
    /// `queued`, `running`, `done` or `dead` (`JobState::as_str`).
    pub state: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub locked_by: Option<String>,
    pub locked_until: Option<DateTimeUtc>,
    pub last_error: Option<String>,
    pub created_at: DateTimeUtc,
    pub finished_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
