//! Stored files (avatars, headers, media attachments): the [`FileStore`] trait the app writes uploads through,
//! the rules for file keys, recognising images by their magic bytes, and [`MemoryFileStore`].
//!
//! A key is a relative path such as `accounts/avatars/0f3a….png`: lower-case letters, digits,
//! `_`, `-` and `.` in `/`-separated segments, never `..`, never the client's file name. A key's
//! extension says its content type. Files are public: anyone with the URL may fetch them.

use std::collections::HashMap;
use std::sync::RwLock;

use async_trait::async_trait;

/// The path prefix under which a server serves stored files by key (`/system/<key>`).
pub const PUBLIC_PATH_PREFIX: &str = "/system/";

/// A file store failed (I/O, a bad key).
#[derive(Debug, thiserror::Error)]
#[error("file store: {0}")]
pub struct FileError(pub String);

/// Where uploaded files live.
#[async_trait]
pub trait FileStore: Send + Sync {
    /// Stores `bytes` under `key`, replacing any file with that key.
    async fn put(&self, key: &str, bytes: &[u8]) -> Result<(), FileError>;
    /// The file under `key`, if any.
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, FileError>;
    /// Removes the file under `key`; removing a missing file is not an error.
    async fn delete(&self, key: &str) -> Result<(), FileError>;
    /// The absolute URL clients fetch the file of `key` from. The default is
    /// `<base_url>/system/<key>`, served by the server itself; a store behind a CDN or object
    /// storage returns its own URL.
    fn public_url(&self, base_url: &str, key: &str) -> String {
        format!("{base_url}{PUBLIC_PATH_PREFIX}{key}")
    }
}

/// Whether `key` is a well-formed file key (see the module documentation); a store must refuse
/// any other key, so that no key can name a path outside it.
pub fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 255
        && key.split('/').all(|seg| {
            !seg.is_empty()
                && !seg.starts_with('.')
                && seg.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'.')
                })
        })
}

/// The content type of a key, from its extension (`None` for anything but the formats stored).
pub fn content_type_of(key: &str) -> Option<&'static str> {
    crate::media::MediaFormat::of_key(key).map(|f| f.content_type())
}

/// The image formats accepted for avatars and headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// GIF (87a or 89a).
    Gif,
    /// WebP.
    Webp,
}

impl ImageKind {
    /// Every accepted format.
    pub const ALL: [ImageKind; 4] = [
        ImageKind::Png,
        ImageKind::Jpeg,
        ImageKind::Gif,
        ImageKind::Webp,
    ];

    /// Recognises an image by its leading bytes (the client's content type and file name are
    /// never trusted).
    pub fn sniff(bytes: &[u8]) -> Option<ImageKind> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageKind::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageKind::Jpeg)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(ImageKind::Gif)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(ImageKind::Webp)
        } else {
            None
        }
    }

    /// The file extension used in keys.
    pub fn extension(self) -> &'static str {
        match self {
            ImageKind::Png => "png",
            ImageKind::Jpeg => "jpg",
            ImageKind::Gif => "gif",
            ImageKind::Webp => "webp",
        }
    }

    /// The MIME type.
    pub fn content_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Gif => "image/gif",
            ImageKind::Webp => "image/webp",
        }
    }
}

/// A file store in memory: for tests, embedding, and the default of [`crate::App::new`].
/// Files are lost when the process ends.
#[derive(Default)]
pub struct MemoryFileStore {
    files: RwLock<HashMap<String, Vec<u8>>>,
}

impl MemoryFileStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many files it holds.
    pub fn len(&self) -> usize {
        self.files.read().map(|f| f.len()).unwrap_or(0)
    }

    /// Whether it holds no file.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn check_key(key: &str) -> Result<(), FileError> {
    if valid_key(key) {
        Ok(())
    } else {
        Err(FileError(format!("invalid file key {key:?}")))
    }
}

#[async_trait]
impl FileStore for MemoryFileStore {
    async fn put(&self, key: &str, bytes: &[u8]) -> Result<(), FileError> {
        check_key(key)?;
        self.files
            .write()
            .map_err(|_| FileError("poisoned lock".into()))?
            .insert(key.to_string(), bytes.to_vec());
        Ok(())
    }

    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, FileError> {
        if !valid_key(key) {
            return Ok(None);
        }
        Ok(self
            .files
            .read()
            .map_err(|_| FileError("poisoned lock".into()))?
            .get(key)
            .cloned())
    }

    async fn delete(&self, key: &str) -> Result<(), FileError> {
        check_key(key)?;
        self.files
            .write()
            .map_err(|_| FileError("poisoned lock".into()))?
            .remove(key);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_cannot_escape() {
        assert!(valid_key("accounts/avatars/0af3.png"));
        for bad in [
            "",
            "/abs.png",
            "a//b.png",
            "../x.png",
            "a/../b.png",
            "a/.hidden",
            "A.png",
            "a\\b.png",
            "a b.png",
            "a/b.png/",
        ] {
            assert!(!valid_key(bad), "{bad:?} must be refused");
        }
    }

    #[test]
    fn images_are_recognised_by_magic_bytes() {
        assert_eq!(
            ImageKind::sniff(b"\x89PNG\r\n\x1a\n\0\0"),
            Some(ImageKind::Png)
        );
        assert_eq!(
            ImageKind::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(ImageKind::Jpeg)
        );
        assert_eq!(ImageKind::sniff(b"GIF89a...."), Some(ImageKind::Gif));
        assert_eq!(
            ImageKind::sniff(b"RIFF\x10\0\0\0WEBPVP8 "),
            Some(ImageKind::Webp)
        );
        assert_eq!(ImageKind::sniff(b"RIFF\x10\0\0\0WAVEfmt "), None);
        assert_eq!(ImageKind::sniff(b"<svg xmlns=..."), None);
        assert_eq!(ImageKind::sniff(b""), None);
        assert_eq!(content_type_of("a/b.webp"), Some("image/webp"));
        assert_eq!(content_type_of("a/b.svg"), None);
    }

    #[tokio::test]
    async fn memory_store_puts_gets_and_deletes() {
        let s = MemoryFileStore::new();
        s.put("a/b.png", b"x").await.unwrap();
        assert_eq!(s.get("a/b.png").await.unwrap(), Some(b"x".to_vec()));
        assert_eq!(s.get("../b.png").await.unwrap(), None);
        assert!(s.put("../b.png", b"x").await.is_err());
        s.delete("a/b.png").await.unwrap();
        s.delete("a/b.png").await.unwrap();
        assert!(s.is_empty());
        assert_eq!(
            s.public_url("https://x.test", "a/b.png"),
            "https://x.test/system/a/b.png"
        );
    }
}
