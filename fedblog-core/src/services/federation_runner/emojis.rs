//! Remote custom emojis: the `Emoji` tags of what another server sends are kept under that
//! server's domain (one image per shortcode there, the latest), so that its statuses show them
//! as Mastodon shows them: an `emojis` entry for each `:shortcode:` of their text.

use crate::app::App;
use crate::content::is_valid_shortcode;
use crate::error::ApiResult;
use crate::federation::vocab::Emoji;
use crate::store::{AccountRecord, CustomEmojiRecord};

/// The most emojis kept from one object; the rest are ignored.
const MAX_EMOJIS_PER_OBJECT: usize = 50;

impl App {
    /// Keeps the custom emojis of an object by the remote account `author`, under its domain.
    /// A tag with a bad shortcode or an image that is not http(s) is skipped; one older than
    /// what is stored (by `updated`) does not replace it.
    pub(crate) async fn keep_remote_emojis(
        &self,
        author: &AccountRecord,
        emojis: &[Emoji],
    ) -> ApiResult<()> {
        let Some(domain) = author.domain.as_deref().map(str::to_ascii_lowercase) else {
            return Ok(());
        };
        let wanted: Vec<&Emoji> = emojis
            .iter()
            .filter(|e| {
                is_valid_shortcode(&e.shortcode)
                    && (e.url.starts_with("https://") || e.url.starts_with("http://"))
            })
            .take(MAX_EMOJIS_PER_OBJECT)
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let keys: Vec<(String, Option<String>)> = wanted
            .iter()
            .map(|e| (e.shortcode.clone(), Some(domain.clone())))
            .collect();
        let stored = self.store.custom_emojis_by_keys(&keys).await?;
        let now = self.now();
        let records: Vec<CustomEmojiRecord> = wanted
            .into_iter()
            .filter(|e| {
                let known = stored.iter().find(|s| s.shortcode == e.shortcode);
                match known {
                    None => true,
                    Some(s) => {
                        (s.image_url != e.url || s.uri != e.id)
                            && e.updated.is_none_or(|u| u >= s.updated_at)
                    }
                }
            })
            .map(|e| CustomEmojiRecord {
                id: self.ids.next(),
                shortcode: e.shortcode.clone(),
                domain: Some(domain.clone()),
                uri: e.id.clone(),
                image_url: e.url.clone(),
                static_url: e.url.clone(),
                visible_in_picker: false,
                category: None,
                disabled: false,
                updated_at: e.updated.unwrap_or(now),
            })
            .collect();
        if records.is_empty() {
            return Ok(());
        }
        Ok(self.store.save_custom_emojis(&records).await?)
    }
}
