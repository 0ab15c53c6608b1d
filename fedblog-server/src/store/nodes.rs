//! Node numbers for id generators: each process that opens the database takes the next one
//! (modulo 256), so ids made by processes sharing a database never collide.

use sea_orm::{ConnectionTrait, DbBackend, Statement};

use super::SeaStore;
use fedblog_core::StoreError;

const CLAIM: &str = "INSERT INTO id_node_counter (id, next_node) VALUES (1, 1) \
     ON CONFLICT (id) DO UPDATE SET next_node = id_node_counter.next_node + 1 RETURNING next_node";

impl SeaStore {
    /// Takes the next node number for this process's ids. The 256 numbers go round: two
    /// processes get the same one only when 256 others started between them while both run.
    pub async fn claim_id_node(&self) -> Result<u8, StoreError> {
        let backend = self.db.get_database_backend();
        let sql = match backend {
            DbBackend::Postgres | DbBackend::Sqlite => CLAIM,
            other => {
                return Err(StoreError::Backend(format!(
                    "claim_id_node: unsupported database backend {other:?}"
                )));
            }
        };
        let row = self
            .db
            .query_one_raw(Statement::from_string(backend, sql))
            .await
            .map_err(|e| StoreError::Backend(e.to_string()))?
            .ok_or_else(|| StoreError::Backend("the node claim returned no row".into()))?;
        let next: i64 = row
            .try_get("", "next_node")
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok(next.rem_euclid(256) as u8)
    }
}

#[cfg(test)]
mod tests {
    use crate::store::{ConnectSettings, connect};

    #[tokio::test]
    async fn each_claim_takes_another_node() {
        let store = connect("sqlite::memory:", &ConnectSettings::default())
            .await
            .expect("connect");
        store.migrate().await.expect("migrate");
        let a = store.claim_id_node().await.unwrap();
        let b = store.claim_id_node().await.unwrap();
        let c = store.claim_id_node().await.unwrap();
        assert_eq!((a, b, c), (1, 2, 3));
    }
}
