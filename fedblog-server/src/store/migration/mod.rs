//! Schema migrations (sea-orm-migration), applied by `SeaStore::migrate`.

use sea_orm_migration::prelude::*;

mod m0001_initial;
mod m0002_jobs;
mod m0003_follow_requests;
mod m0004_blocks_mutes;
mod m0005_social_graph;
mod m0006_interactions;
mod m0007_status_edits;
mod m0008_polls;
mod m0009_media;
mod m0010_notifications;
mod m0011_lists;
mod m0012_filters;
mod m0013_conversations;
mod m0014_notification_policies;
mod m0015_rate_limits;
mod m0016_id_nodes;
mod m0017_code_exchanges;
mod m0018_public_timeline_indexes;
mod m0019_change_log;
mod m0020_large_events;
mod m0021_federation;
mod m0022_moves_featured_remote_media;
mod m0023_custom_emojis;
mod m0024_tags_name_c;
mod m0025_status_search;
mod m0026_account_names;
mod m0028_moderation;
mod m0029_account_search_rank;
mod m0030_remote_suspensions;
mod m0031_roles;
mod m0032_notification_subjects;
mod m0033_tag_review;
mod m0034_user_activity;
mod m0035_trend_reviews;
mod m0036_push_subscriptions;
mod m0037_mail_tokens;
mod m0038_announcements;
mod m0039_preview_cards;
mod m0040_crypto_keys;
mod m0041_quotes;
mod m0042_quote_uris;

/// A named index on `table` over `cols` (shared by the migrations).
fn index(name: &'static str, table: &'static str, cols: &[&'static str]) -> IndexCreateStatement {
    let mut idx = Index::create();
    idx.name(name).table(table);
    for c in cols {
        idx.col(*c);
    }
    idx
}

/// One `ALTER TABLE ... ADD COLUMN` (SQLite takes one column per statement).
async fn add_column(
    m: &SchemaManager<'_>,
    table: &'static str,
    col: ColumnDef,
) -> Result<(), DbErr> {
    let mut col = col;
    m.alter_table(Table::alter().table(table).add_column(&mut col).to_owned())
        .await
}

/// One `ALTER TABLE ... DROP COLUMN`.
async fn drop_column(
    m: &SchemaManager<'_>,
    table: &'static str,
    col: &'static str,
) -> Result<(), DbErr> {
    m.alter_table(Table::alter().table(table).drop_column(col).to_owned())
        .await
}

/// Every migration of the store, oldest first.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m0001_initial::Migration),
            Box::new(m0002_jobs::Migration),
            Box::new(m0003_follow_requests::Migration),
            Box::new(m0004_blocks_mutes::Migration),
            Box::new(m0005_social_graph::Migration),
            Box::new(m0006_interactions::Migration),
            Box::new(m0007_status_edits::Migration),
            Box::new(m0008_polls::Migration),
            Box::new(m0009_media::Migration),
            Box::new(m0010_notifications::Migration),
            Box::new(m0011_lists::Migration),
            Box::new(m0012_filters::Migration),
            Box::new(m0013_conversations::Migration),
            Box::new(m0014_notification_policies::Migration),
            Box::new(m0015_rate_limits::Migration),
            Box::new(m0016_id_nodes::Migration),
            Box::new(m0017_code_exchanges::Migration),
            Box::new(m0018_public_timeline_indexes::Migration),
            Box::new(m0019_change_log::Migration),
            Box::new(m0020_large_events::Migration),
            Box::new(m0021_federation::Migration),
            Box::new(m0022_moves_featured_remote_media::Migration),
            Box::new(m0023_custom_emojis::Migration),
            Box::new(m0024_tags_name_c::Migration),
            Box::new(m0025_status_search::Migration),
            Box::new(m0026_account_names::Migration),
            Box::new(m0028_moderation::Migration),
            Box::new(m0029_account_search_rank::Migration),
            Box::new(m0030_remote_suspensions::Migration),
            Box::new(m0031_roles::Migration),
            Box::new(m0032_notification_subjects::Migration),
            Box::new(m0033_tag_review::Migration),
            Box::new(m0034_user_activity::Migration),
            Box::new(m0035_trend_reviews::Migration),
            Box::new(m0036_push_subscriptions::Migration),
            Box::new(m0037_mail_tokens::Migration),
            Box::new(m0038_announcements::Migration),
            Box::new(m0039_preview_cards::Migration),
            Box::new(m0040_crypto_keys::Migration),
            Box::new(m0041_quotes::Migration),
            Box::new(m0042_quote_uris::Migration),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::Migrator;
    use crate::store::{ConnectSettings, connect};
    use sea_orm_migration::MigratorTrait;

    /// Every migration can be undone and applied again (SQLite; `down` drops what `up` made).
    #[tokio::test]
    async fn migrations_go_down_and_up_again() {
        let store = connect("sqlite::memory:", &ConnectSettings::default())
            .await
            .expect("connect");
        store.migrate().await.expect("up");
        Migrator::down(store.connection(), None)
            .await
            .expect("down");
        store.migrate().await.expect("up again");
    }
}
