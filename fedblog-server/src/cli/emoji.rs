//! `fedblog-server emoji import <PATH>`: adds custom emojis to this server from a folder of
//! images or a `.tar` / `.tar.gz` archive of them, as Mastodon's `tootctl emoji import` does.
//! Each image's shortcode is its file name without the extension, between `--prefix` and
//! `--suffix`; files that are not PNG, GIF or WebP images of at most 256 KB, and names that
//! make no valid shortcode, are skipped with a message. A shortcode this server has is kept
//! unless `--overwrite` replaces it. A progress bar shows the way (on standard error, when it
//! is a terminal); the last line says how many were imported and skipped, and running servers
//! are told of the change.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use fedblog_core::App;
use fedblog_core::services::custom_emojis::{Created, EMOJI_IMAGE_LIMIT, NewEmoji, OnTaken};
use indicatif::{ProgressBar, ProgressStyle};

use super::{describe, marker_failed};
use crate::settings::Settings;
use crate::{serve, store};

/// How far a folder is read into its subfolders.
const MAX_DEPTH: usize = 8;

/// `emoji` actions.
#[derive(Subcommand, Debug)]
pub enum EmojiCommand {
    /// Import custom emojis from a folder of images or a .tar / .tar.gz archive of them; the
    /// shortcode is each file's name without its extension.
    Import {
        /// The folder, or the .tar / .tar.gz (.tgz) archive.
        path: PathBuf,
        /// The category pickers group them under.
        #[arg(long)]
        category: Option<String>,
        /// Put before each shortcode.
        #[arg(long, default_value = "")]
        prefix: String,
        /// Put after each shortcode.
        #[arg(long, default_value = "")]
        suffix: String,
        /// Replace the emojis whose shortcodes this server has (kept otherwise).
        #[arg(long)]
        overwrite: bool,
        /// Do not offer them in pickers (they still show where used).
        #[arg(long)]
        unlisted: bool,
    },
}

/// What `emoji import` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// Emojis stored (new or replaced).
    pub imported: usize,
    /// Files skipped (not images, invalid shortcodes, kept emojis, refused images).
    pub skipped: usize,
}

/// One file to import: its name in the folder or archive, and its bytes (`None`: too large to
/// be an emoji, not read).
struct Candidate {
    name: String,
    bytes: Option<Vec<u8>>,
}

/// Runs an `emoji` action.
pub async fn run(settings: Settings, action: EmojiCommand) -> Result<(), String> {
    match action {
        EmojiCommand::Import {
            path,
            category,
            prefix,
            suffix,
            overwrite,
            unlisted,
        } => {
            let candidates = read_candidates(&path)?;
            let app = serve::build_app(&settings).await?;
            let options = ImportOptions {
                category,
                prefix,
                suffix,
                overwrite,
                unlisted,
            };
            let done = import(&app, candidates, &options).await?;
            if done.imported > 0 {
                store::mark_changed(&settings.database_url).map_err(marker_failed)?;
            }
            println!("imported {}, skipped {}", done.imported, done.skipped);
            Ok(())
        }
    }
}

/// The options of an import.
struct ImportOptions {
    category: Option<String>,
    prefix: String,
    suffix: String,
    overwrite: bool,
    unlisted: bool,
}

/// Imports the candidates, moving a progress bar and saying why each skipped one was.
async fn import(
    app: &App,
    candidates: Vec<Candidate>,
    options: &ImportOptions,
) -> Result<Imported, String> {
    let bar = ProgressBar::new(candidates.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {elapsed}") {
        bar.set_style(style);
    }
    let say = |name: &str, why: &str| bar.suspend(|| eprintln!("skipped {name}: {why}"));
    let mut done = Imported::default();
    for c in candidates {
        bar.inc(1);
        let Some(stem) = stem(&c.name) else {
            done.skipped += 1;
            say(&c.name, "not an image file");
            continue;
        };
        let shortcode = format!("{}{stem}{}", options.prefix, options.suffix);
        if let Err(e) = fedblog_core::services::custom_emojis::check_shortcode(&shortcode) {
            done.skipped += 1;
            say(
                &c.name,
                &format!("{shortcode:?} is not a valid shortcode ({})", e.message),
            );
            continue;
        }
        let Some(bytes) = c.bytes else {
            done.skipped += 1;
            say(
                &c.name,
                &format!("larger than {} KB", EMOJI_IMAGE_LIMIT / 1024),
            );
            continue;
        };
        if let Err(e) = fedblog_core::services::custom_emojis::check_image(&bytes) {
            done.skipped += 1;
            say(&c.name, &format!("not a usable image ({})", e.message));
            continue;
        }
        let new = NewEmoji {
            shortcode: shortcode.clone(),
            image: bytes,
            category: options.category.clone(),
            visible_in_picker: !options.unlisted,
        };
        let on_taken = if options.overwrite {
            OnTaken::Replace
        } else {
            OnTaken::Keep
        };
        match app.custom_emojis().create(new, on_taken).await {
            Ok(Created::Stored(_)) => done.imported += 1,
            Ok(Created::Kept(_)) => {
                done.skipped += 1;
                say(
                    &c.name,
                    &format!(":{shortcode}: exists already (--overwrite replaces it)"),
                );
            }
            Err(e) if e.status.is_client_error() && e.status.as_u16() != 404 => {
                done.skipped += 1;
                say(&c.name, &e.message);
            }
            Err(e) => {
                bar.finish_and_clear();
                return Err(format!("cannot store :{shortcode}: {}", describe(e)));
            }
        }
    }
    bar.finish_and_clear();
    Ok(done)
}

/// The shortcode a file name gives: its base name without the extension; `None` for hidden
/// files (macOS's `._name` among them) and names without a stem.
fn stem(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    if base.starts_with('.') {
        return None;
    }
    let stem = Path::new(base).file_stem()?.to_str()?;
    (!stem.is_empty()).then(|| stem.to_string())
}

/// The files of a folder (its subfolders too, sorted by path) or of a `.tar` / `.tar.gz`
/// archive (in archive order).
fn read_candidates(path: &Path) -> Result<Vec<Candidate>, String> {
    if path.is_dir() {
        let mut out = vec![];
        read_folder(path, path, 0, &mut out)?;
        return Ok(out);
    }
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        read_archive(flate2::read::GzDecoder::new(file), path)
    } else if name.ends_with(".tar") {
        read_archive(file, path)
    } else {
        Err(format!(
            "{} is neither a folder nor a .tar / .tar.gz archive",
            path.display()
        ))
    }
}

/// Adds the files under `dir` (at most [`MAX_DEPTH`] folders down) to `out`, named by their
/// path below `root`.
fn read_folder(
    root: &Path,
    dir: &Path,
    depth: usize,
    out: &mut Vec<Candidate>,
) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let meta =
            std::fs::metadata(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let name = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        if meta.is_dir() {
            if depth < MAX_DEPTH {
                read_folder(root, &path, depth + 1, out)?;
            }
            continue;
        }
        let bytes = if meta.len() > EMOJI_IMAGE_LIMIT as u64 {
            None
        } else {
            Some(std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?)
        };
        out.push(Candidate { name, bytes });
    }
    Ok(())
}

/// The regular files of a tar archive, in archive order.
fn read_archive(reader: impl Read, path: &Path) -> Result<Vec<Candidate>, String> {
    let failed = |e: std::io::Error| format!("cannot read the archive {}: {e}", path.display());
    let mut archive = tar::Archive::new(reader);
    let mut out = vec![];
    for entry in archive.entries().map_err(failed)? {
        let mut entry = entry.map_err(failed)?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = entry.path().map_err(failed)?.to_string_lossy().into_owned();
        let bytes = if entry.size() > EMOJI_IMAGE_LIMIT as u64 {
            None
        } else {
            let mut bytes = Vec::with_capacity(entry.size() as usize);
            entry.read_to_end(&mut bytes).map_err(failed)?;
            Some(bytes)
        };
        out.push(Candidate { name, bytes });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn shortcodes_come_from_file_stems() {
        assert_eq!(stem("blobcat.png").as_deref(), Some("blobcat"));
        assert_eq!(
            stem("emojis/party_parrot.gif").as_deref(),
            Some("party_parrot")
        );
        assert_eq!(stem("._blobcat.png"), None);
        assert_eq!(stem(".hidden"), None);
        assert_eq!(stem("README").as_deref(), Some("README"));
    }
}
