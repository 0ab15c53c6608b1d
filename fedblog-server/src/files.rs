//! The file store of the server: uploaded files on disk under `<FEDBLOG_DATA_DIR>/media` (or
//! `FEDBLOG_MEDIA_DIR`), one file per key, written atomically (temporary file, then rename).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use fedblog_core::files::{FileError, FileStore, valid_key};

/// Files in a folder; a key is a relative path inside it. Folders are created when needed.
#[derive(Clone, Debug)]
pub struct DiskFileStore {
    root: PathBuf,
}

impl DiskFileStore {
    /// A store rooted at `root` (created on the first write).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        DiskFileStore { root: root.into() }
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path of a key; keys that could leave the folder are refused.
    fn path(&self, key: &str) -> Result<PathBuf, FileError> {
        if valid_key(key) {
            Ok(self.root.join(key))
        } else {
            Err(FileError(format!("invalid file key {key:?}")))
        }
    }
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> FileError {
    FileError(format!("{what} {}: {e}", path.display()))
}

#[async_trait]
impl FileStore for DiskFileStore {
    async fn put(&self, key: &str, bytes: &[u8]) -> Result<(), FileError> {
        static N: AtomicU64 = AtomicU64::new(0);
        let path = self.path(key)?;
        let dir = path.parent().unwrap_or(&self.root).to_path_buf();
        tokio::fs::create_dir_all(&dir)
            .await
            .map_err(|e| io_error("cannot create", &dir, e))?;
        // Key segments never start with a dot, so a temporary name never collides with a key.
        let tmp = dir.join(format!(
            ".tmp-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        if let Err(e) = tokio::fs::write(&tmp, bytes).await {
            let _ = tokio::fs::remove_file(&tmp).await;
            return Err(io_error("cannot write", &tmp, e));
        }
        tokio::fs::rename(&tmp, &path).await.map_err(|e| {
            let err = io_error("cannot rename into", &path, e);
            let tmp = tmp.clone();
            tokio::spawn(async move {
                let _ = tokio::fs::remove_file(tmp).await;
            });
            err
        })
    }

    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, FileError> {
        let Ok(path) = self.path(key) else {
            return Ok(None);
        };
        match tokio::fs::read(&path).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error("cannot read", &path, e)),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), FileError> {
        let path = self.path(key)?;
        match tokio::fs::remove_file(&path).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_error("cannot remove", &path, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn puts_gets_replaces_and_deletes_on_disk() {
        let root = std::env::temp_dir().join(format!(
            "fedblog-files-{}-{}",
            std::process::id(),
            chrono::Utc::now().timestamp_micros()
        ));
        let store = DiskFileStore::new(&root);
        assert_eq!(store.get("accounts/avatars/a.png").await.unwrap(), None);
        store.put("accounts/avatars/a.png", b"one").await.unwrap();
        store.put("accounts/avatars/a.png", b"two").await.unwrap();
        assert_eq!(
            std::fs::read(root.join("accounts/avatars/a.png")).unwrap(),
            b"two"
        );
        assert_eq!(
            store
                .get("accounts/avatars/a.png")
                .await
                .unwrap()
                .as_deref(),
            Some(&b"two"[..])
        );
        let leftovers: Vec<_> = std::fs::read_dir(root.join("accounts/avatars"))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name())
            .filter(|n| n.to_string_lossy().starts_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        store.delete("accounts/avatars/a.png").await.unwrap();
        store.delete("accounts/avatars/a.png").await.unwrap();
        assert_eq!(store.get("accounts/avatars/a.png").await.unwrap(), None);
        assert!(store.put("../escape.png", b"x").await.is_err());
        assert!(store.delete("/etc/passwd").await.is_err());
        assert_eq!(store.get("../../etc/passwd").await.unwrap(), None);
        let _ = std::fs::remove_dir_all(&root);
    }
}
