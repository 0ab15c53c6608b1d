//! The tokens file: the bearer tokens of the benchmark's accounts, the only thing `run` needs to
//! know about a server besides its URL.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::cli::Scale;

/// `{"reader": "...", "authors": [...], "big_author": "...", "poster": "...", "followers": [...]}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tokens {
    /// Follows every author; its home timeline is measured.
    pub reader: String,
    /// Each posts `--posts-per-author` statuses.
    pub authors: Vec<String>,
    /// Followed by every follower; posts the fan-out status.
    pub big_author: String,
    /// Followed by the first 100 followers; posts in the posting benchmark.
    pub poster: String,
    /// Follow big_author.
    pub followers: Vec<String>,
}

impl Tokens {
    /// Reads a tokens file.
    pub fn read(path: &Path) -> Result<Tokens, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the tokens file {}: {e}", path.display()))?;
        serde_json::from_str(&text)
            .map_err(|e| format!("the tokens file {} is not valid: {e}", path.display()))
    }

    /// Writes the tokens file.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| format!("cannot encode the tokens: {e}"))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("cannot write the tokens file {}: {e}", path.display()))
    }

    /// The tokens of the accounts in [usernames](crate::seed) order: the reader, the
    /// `authors`, big_author, poster, then the `followers`.
    pub fn from_ordered(tokens: Vec<String>, scale: &Scale) -> Result<Tokens, String> {
        let want = scale.authors + scale.followers + 3;
        if tokens.len() != want {
            return Err(format!("{} tokens for {want} accounts", tokens.len()));
        }
        let mut tokens = tokens.into_iter();
        let mut take = |n: usize| tokens.by_ref().take(n).collect::<Vec<String>>();
        let reader = take(1).concat();
        let authors = take(scale.authors);
        let big_author = take(1).concat();
        let poster = take(1).concat();
        let followers = take(scale.followers);
        Ok(Tokens {
            reader,
            authors,
            big_author,
            poster,
            followers,
        })
    }

    /// The tokens a run at this scale uses: the first `authors` authors and `followers`
    /// followers; an error if the file has fewer.
    pub fn for_scale(&self, scale: &Scale) -> Result<Tokens, String> {
        if self.authors.len() < scale.authors {
            return Err(format!(
                "the tokens file has {} authors; the run needs {} (pass --authors {} or seed more)",
                self.authors.len(),
                scale.authors,
                self.authors.len()
            ));
        }
        if self.followers.len() < scale.followers {
            return Err(format!(
                "the tokens file has {} followers; the run needs {} (pass --followers {} or seed more)",
                self.followers.len(),
                scale.followers,
                self.followers.len()
            ));
        }
        Ok(Tokens {
            reader: self.reader.clone(),
            authors: self.authors[..scale.authors].to_vec(),
            big_author: self.big_author.clone(),
            poster: self.poster.clone(),
            followers: self.followers[..scale.followers].to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_tokens_are_split_by_role() {
        let scale = Scale {
            authors: 2,
            posts_per_author: 1,
            followers: 2,
            post_count: 1,
            small: true,
        };
        let names = ["r", "a1", "a2", "big", "poster", "f1", "f2"].map(String::from);
        let t = Tokens::from_ordered(names.to_vec(), &scale).unwrap();
        assert_eq!(
            (t.reader.as_str(), t.big_author.as_str(), t.poster.as_str()),
            ("r", "big", "poster")
        );
        assert_eq!(
            (t.authors, t.followers),
            (
                vec!["a1".to_string(), "a2".into()],
                vec!["f1".to_string(), "f2".into()]
            )
        );
        assert!(
            Tokens::from_ordered(names[..6].to_vec(), &scale)
                .unwrap_err()
                .contains("6 tokens for 7")
        );
    }
}
