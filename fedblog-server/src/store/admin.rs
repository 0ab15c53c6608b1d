//! Database administration for tests and operators: create and drop a PostgreSQL database.

use sea_orm::{ConnectionTrait, Database};

use fedblog_core::StoreError;

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The URL of database `name` on the server of `admin_url` (a `postgres://` URL of any database).
pub fn database_url(admin_url: &str, name: &str) -> String {
    let (base, query) = match admin_url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin_url, String::new()),
    };
    let server = match base.rfind('/') {
        Some(i) if i > "postgres://".len() => &base[..i],
        _ => base,
    };
    format!("{server}/{name}{query}")
}

async fn admin_exec(admin_url: &str, sql: &str) -> Result<(), StoreError> {
    let db = Database::connect(admin_url)
        .await
        .map_err(|e| StoreError::Backend(format!("cannot connect to PostgreSQL: {e}")))?;
    db.execute_unprepared(sql)
        .await
        .map_err(|e| StoreError::Backend(e.to_string()))?;
    db.close()
        .await
        .map_err(|e| StoreError::Backend(e.to_string()))?;
    Ok(())
}

/// Creates database `name` (lower-case letters, digits, `_`) and returns its URL.
pub async fn create_database(admin_url: &str, name: &str) -> Result<String, StoreError> {
    if !valid_name(name) {
        return Err(StoreError::Backend(format!(
            "invalid database name {name:?}"
        )));
    }
    admin_exec(admin_url, &format!("CREATE DATABASE {name}")).await?;
    Ok(database_url(admin_url, name))
}

/// Drops database `name`, disconnecting its sessions.
pub async fn drop_database(admin_url: &str, name: &str) -> Result<(), StoreError> {
    if !valid_name(name) {
        return Err(StoreError::Backend(format!(
            "invalid database name {name:?}"
        )));
    }
    admin_exec(
        admin_url,
        &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_swap_the_database() {
        assert_eq!(
            database_url("postgres://postgres@127.0.0.1:5432/postgres", "x1"),
            "postgres://postgres@127.0.0.1:5432/x1"
        );
        assert_eq!(
            database_url("postgres://u:p@h/db?sslmode=disable", "y"),
            "postgres://u:p@h/y?sslmode=disable"
        );
        assert_eq!(
            database_url("postgres://h:5432", "z"),
            "postgres://h:5432/z"
        );
        assert!(!valid_name("x; drop"));
    }
}
