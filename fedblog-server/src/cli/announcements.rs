//! `fedblog-server announcements ...`: announcements as staff keep them from the command line
//! (what fedblog's admin endpoints `/api/v1/admin/announcements` do over HTTP): made (a draft,
//! or published at once), listed, published, unpublished and deleted. Every change is told to
//! running servers; the streaming events go out on the event bus the server's settings name
//! (on SQLite, this process's own, so running servers' streams are not told).

use clap::Subcommand;
use fedblog_core::render::timestamp;
use fedblog_core::services::announcements::AnnouncementChange;
use fedblog_core::store::AnnouncementRecord;
use fedblog_core::{App, Id};

use super::marker_failed;
use crate::settings::Settings;
use crate::{serve, store};

/// `announcements` actions.
#[derive(Subcommand, Debug)]
pub enum AnnouncementsCommand {
    /// Make an announcement (a draft unless `--publish`); prints its id.
    Create {
        /// Its text (plain text; links, @mentions, #hashtags and :emoji: are rendered).
        #[arg(long)]
        text: String,
        /// When the event it announces starts (RFC 3339, with `--ends-at`).
        #[arg(long)]
        starts_at: Option<String>,
        /// When it ends (RFC 3339, with `--starts-at`); users are not shown it after.
        #[arg(long)]
        ends_at: Option<String>,
        /// The start and end are dates only.
        #[arg(long)]
        all_day: bool,
        /// Publish it at once.
        #[arg(long)]
        publish: bool,
    },
    /// Print every announcement, drafts too, oldest first, one per line: id, `published` or
    /// `draft`, starts_at, ends_at (`-` when unset), and the text, tab-separated.
    List,
    /// Show an announcement to users.
    Publish {
        /// Its id.
        id: String,
    },
    /// Take an announcement back to a draft.
    Unpublish {
        /// Its id.
        id: String,
    },
    /// Delete an announcement with its dismissals and reactions.
    Delete {
        /// Its id.
        id: String,
    },
}

/// The id `text` gives, checked before the database is opened.
fn parse_id(text: &str) -> Result<Id, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{text:?} is not an announcement id"))
}

/// One line of `list`.
fn line(a: &AnnouncementRecord) -> String {
    let time = |t: Option<chrono::DateTime<chrono::Utc>>| t.map_or("-".to_string(), timestamp);
    format!(
        "{}\t{}\t{}\t{}\t{}",
        a.id,
        if a.published { "published" } else { "draft" },
        time(a.starts_at),
        time(a.ends_at),
        a.text.replace(['\n', '\t'], " ")
    )
}

/// Runs an `announcements` action.
pub async fn run(settings: Settings, action: AnnouncementsCommand) -> Result<(), String> {
    // Ids are checked before the database is opened.
    let id = match &action {
        AnnouncementsCommand::Publish { id }
        | AnnouncementsCommand::Unpublish { id }
        | AnnouncementsCommand::Delete { id } => Some(parse_id(id)?),
        _ => None,
    };
    let app = serve::build_app(&settings).await?;
    let wrote = execute(&app, action, id).await?;
    if wrote {
        store::mark_changed(&settings.database_url).map_err(marker_failed)?;
    }
    Ok(())
}

/// Does `action` (with the id it names, parsed); whether it wrote.
async fn execute(app: &App, action: AnnouncementsCommand, id: Option<Id>) -> Result<bool, String> {
    let area = app.announcements();
    let id = || id.ok_or_else(|| "no id".to_string());
    match action {
        AnnouncementsCommand::Create {
            text,
            starts_at,
            ends_at,
            all_day,
            publish,
        } => {
            let a = area
                .create(AnnouncementChange {
                    text: Some(text),
                    starts_at,
                    ends_at,
                    all_day: Some(all_day),
                    publish: Some(publish),
                })
                .await
                .map_err(|e| e.message)?;
            println!("{}", a.id);
            Ok(true)
        }
        AnnouncementsCommand::List => {
            for a in area.all().await.map_err(|e| e.message)? {
                println!("{}", line(&a));
            }
            Ok(false)
        }
        AnnouncementsCommand::Publish { .. } => {
            let a = area
                .publish_announcement(id()?)
                .await
                .map_err(|e| e.message)?;
            println!("published {}", a.id);
            Ok(true)
        }
        AnnouncementsCommand::Unpublish { .. } => {
            let a = area.unpublish(id()?).await.map_err(|e| e.message)?;
            println!("unpublished {}", a.id);
            Ok(true)
        }
        AnnouncementsCommand::Delete { .. } => {
            let id = id()?;
            area.delete(id).await.map_err(|e| e.message)?;
            println!("deleted {id}");
            Ok(true)
        }
    }
}
