//! Partial indexes for the public timelines: public statuses that are not reblogs, by id (the
//! federated timeline) and by place then id (`local` and `remote`), so a page is read by
//! walking the newest ids instead of sorting every public status (what the planner chose on
//! PostgreSQL before its statistics caught up with a bulk of new statuses).

use sea_orm_migration::prelude::*;

/// Creates the two indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// What the two indexes hold: the rows a public timeline can show.
const PUBLIC_ROWS: &str = "visibility = 'public' AND reblog_of_id IS NULL";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        db.execute_unprepared(&format!(
            "CREATE INDEX ix_statuses_public_id ON statuses (id) WHERE {PUBLIC_ROWS}"
        ))
        .await?;
        db.execute_unprepared(&format!(
            "CREATE INDEX ix_statuses_public_local_id ON statuses (local, id) WHERE {PUBLIC_ROWS}"
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for name in ["ix_statuses_public_local_id", "ix_statuses_public_id"] {
            m.drop_index(Index::drop().name(name).table("statuses").to_owned())
                .await?;
        }
        Ok(())
    }
}
