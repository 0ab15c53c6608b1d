//! Id nodes: the one-row `id_node_counter` table from which each process that writes takes a
//! node number for its ids, so that processes sharing a database never make the same id.

use sea_orm_migration::prelude::*;

use sea_orm_migration::schema::big_integer;

/// Creates the counter table.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("id_node_counter")
                .col(big_integer("id").primary_key())
                .col(big_integer("next_node"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("id_node_counter").to_owned())
            .await
    }
}
