//! (being written)

use sea_orm_migration::prelude::*;

/// (being written)
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, _m: &SchemaManager) -> Result<(), DbErr> {
        Ok(())
    }

    async fn down(&self, _m: &SchemaManager) -> Result<(), DbErr> {
        Ok(())
    }
}
