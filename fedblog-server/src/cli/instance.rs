//! `fedblog-server instance ...`: the instance's policy as the administrator keeps it: rules,
//! the extended description and privacy policy (Markdown), versions of the terms of service,
//! who may read the list of server-wide domain blocks, and the server's thumbnail (an image).
//! Each command goes through core's instance area (`app.instance()`), which checks what it is
//! given, and tells running servers of the change.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use fedblog_core::config::Limits;
use fedblog_core::services::instance::{NewTerms, PolicyText, check_thumbnail, parse_date};
use fedblog_core::{App, Id};

use super::{describe, marker_failed};
use crate::settings::Settings;
use crate::{serve, store};

/// `instance` actions.
#[derive(Subcommand, Debug)]
pub enum InstanceCommand {
    /// The server's rules (`GET /api/v1/instance/rules`, and those a report may name).
    Rules {
        /// Action.
        #[command(subcommand)]
        action: RulesCommand,
    },
    /// The extended description (`extended_description`) and the privacy policy
    /// (`privacy_policy`), written in Markdown.
    Text {
        /// Action.
        #[command(subcommand)]
        action: TextCommand,
    },
    /// Versions of the terms of service, written in Markdown (`%{domain}` stands for the
    /// server's domain).
    Terms {
        /// Action.
        #[command(subcommand)]
        action: TermsCommand,
    },
    /// Server settings.
    Setting {
        /// Action.
        #[command(subcommand)]
        action: SettingCommand,
    },
    /// The server's thumbnail: the banner image clients show for it (`thumbnail` in
    /// `GET /api/v2/instance`).
    Thumbnail {
        /// Action.
        #[command(subcommand)]
        action: ThumbnailCommand,
    },
}

/// `instance rules` actions.
#[derive(Subcommand, Debug)]
pub enum RulesCommand {
    /// Print the rules in order, one per line: id, position, text and hint, tab-separated.
    List,
    /// Add a rule; prints its id.
    Add {
        /// The rule (at most 300 characters).
        text: String,
        /// A longer explanation.
        #[arg(long, default_value = "")]
        hint: String,
        /// Its place among the rules (smallest first; default: after the last).
        #[arg(long, allow_negative_numbers = true)]
        position: Option<i32>,
    },
    /// Remove a rule.
    Remove {
        /// The rule's id (as `rules list` prints it).
        id: String,
    },
}

/// `instance text` actions.
#[derive(Subcommand, Debug)]
pub enum TextCommand {
    /// Set a text from a Markdown file.
    Set {
        /// `extended_description` or `privacy_policy`.
        name: String,
        /// The Markdown file, or `-` for standard input.
        #[arg(long)]
        file: PathBuf,
    },
    /// Clear a text: the extended description becomes empty, the privacy policy the default
    /// one.
    Clear {
        /// `extended_description` or `privacy_policy`.
        name: String,
    },
}

/// `instance terms` actions.
#[derive(Subcommand, Debug)]
pub enum TermsCommand {
    /// Print every version, newest effective date first: date, published or draft, changelog.
    List,
    /// Add a version effective from a date (today or later); a draft unless `--publish`.
    /// Adding on the date of a draft replaces the draft.
    Add {
        /// The day it applies from, `YYYY-MM-DD`.
        #[arg(long)]
        effective_date: String,
        /// The Markdown file, or `-` for standard input.
        #[arg(long)]
        file: PathBuf,
        /// What changed since the previous version.
        #[arg(long, default_value = "")]
        changelog: String,
        /// Publish it at once.
        #[arg(long)]
        publish: bool,
    },
    /// Publish the draft effective from a date.
    Publish {
        /// Its effective date, `YYYY-MM-DD`.
        date: String,
    },
}

/// `instance setting` actions.
#[derive(Subcommand, Debug)]
pub enum SettingCommand {
    /// Set a setting: `show_domain_blocks` or `show_domain_blocks_rationale`, each to
    /// `disabled`, `users` (signed-in callers) or `all`; or `limited_federation_mode` to `true`
    /// (federate only with the domains allowed through `/api/v1/admin/domain_allows`) or
    /// `false`.
    Set {
        /// The setting.
        name: String,
        /// Its value.
        value: String,
    },
}

/// `instance thumbnail` actions.
#[derive(Subcommand, Debug)]
pub enum ThumbnailCommand {
    /// Set the thumbnail from a PNG, JPEG, GIF or WebP image (an animated one keeps its first
    /// frame), stored in two versions, within 1200x630 pixels (`@1x`) and 2400x1260 (`@2x`),
    /// its aspect ratio kept and never enlarged, with a BlurHash.
    Set {
        /// The image file, or `-` for standard input.
        file: PathBuf,
    },
    /// Clear the thumbnail: the built-in image is shown again.
    Clear,
}

/// The policy text `name` names.
fn policy_text(name: &str) -> Result<PolicyText, String> {
    PolicyText::parse(name).ok_or_else(|| {
        let names: Vec<&str> = PolicyText::ALL.iter().map(|t| t.setting()).collect();
        format!("unknown text {name:?}: use {}", names.join(" or "))
    })
}

/// The contents of `file` (`-`: standard input), as UTF-8.
fn read_text(file: &Path) -> Result<String, String> {
    let mut text = String::new();
    if file == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    }
    Ok(text)
}

/// The contents of `file` (`-`: standard input), as bytes.
fn read_bytes(file: &Path) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    if file == Path::new("-") {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    }
    Ok(bytes)
}

/// The image in `file`, checked as core checks a thumbnail (format, bytes, pixels).
fn read_thumbnail(file: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
    let bytes = read_bytes(file)?;
    check_thumbnail(&bytes, limits)
        .map_err(|e| format!("cannot use {}: {}", file.display(), describe(e)))?;
    Ok(bytes)
}

/// Runs an `instance` command.
pub async fn run(settings: Settings, action: InstanceCommand) -> Result<(), String> {
    // Files and arguments are checked before the database is opened.
    let action = Checked::from(action, &settings.instance.limits)?;
    let app = serve::build_app(&settings).await?;
    let wrote = execute(&app, action).await?;
    if wrote {
        store::mark_changed(&settings.database_url).map_err(marker_failed)?;
    }
    Ok(())
}

/// A command with its files read.
enum Checked {
    ListRules,
    AddRule {
        text: String,
        hint: String,
        position: Option<i32>,
    },
    RemoveRule(Id),
    SetText(PolicyText, Option<String>),
    ListTerms,
    AddTerms(NewTerms),
    PublishTerms(String),
    SetSetting(String, String),
    SetThumbnail(Vec<u8>),
    ClearThumbnail,
}

impl Checked {
    fn from(action: InstanceCommand, limits: &Limits) -> Result<Checked, String> {
        Ok(match action {
            InstanceCommand::Rules { action } => match action {
                RulesCommand::List => Checked::ListRules,
                RulesCommand::Add {
                    text,
                    hint,
                    position,
                } => Checked::AddRule {
                    text,
                    hint,
                    position,
                },
                RulesCommand::Remove { id } => Checked::RemoveRule(
                    id.trim()
                        .parse()
                        .map_err(|_| format!("{id:?} is not a rule id"))?,
                ),
            },
            InstanceCommand::Text { action } => match action {
                TextCommand::Set { name, file } => {
                    Checked::SetText(policy_text(&name)?, Some(read_text(&file)?))
                }
                TextCommand::Clear { name } => Checked::SetText(policy_text(&name)?, None),
            },
            InstanceCommand::Terms { action } => match action {
                TermsCommand::List => Checked::ListTerms,
                TermsCommand::Add {
                    effective_date,
                    file,
                    changelog,
                    publish,
                } => Checked::AddTerms(NewTerms {
                    effective_date: parse_date(&effective_date)
                        .ok_or_else(|| format!("{effective_date:?} is not a date (YYYY-MM-DD)"))?,
                    text: read_text(&file)?,
                    changelog,
                    publish,
                }),
                TermsCommand::Publish { date } => Checked::PublishTerms(date),
            },
            InstanceCommand::Setting {
                action: SettingCommand::Set { name, value },
            } => Checked::SetSetting(name, value),
            InstanceCommand::Thumbnail { action } => match action {
                ThumbnailCommand::Set { file } => {
                    Checked::SetThumbnail(read_thumbnail(&file, limits)?)
                }
                ThumbnailCommand::Clear => Checked::ClearThumbnail,
            },
        })
    }
}

/// Runs a checked command; whether it wrote.
async fn execute(app: &App, action: Checked) -> Result<bool, String> {
    let area = app.instance();
    let now = app.now();
    match action {
        Checked::ListRules => {
            match area.rules().await.map_err(describe)? {
                Some(rules) => {
                    for r in rules {
                        println!("{}\t{}\t{}\t{}", r.id, r.position, r.text, r.hint);
                    }
                }
                None => return Err("this server keeps no moderation data".into()),
            }
            Ok(false)
        }
        Checked::AddRule {
            text,
            hint,
            position,
        } => {
            let rule = area
                .add_rule(app.ids.next(), &text, &hint, position, now)
                .await
                .map_err(describe)?;
            println!("added rule {} at position {}", rule.id, rule.position);
            Ok(true)
        }
        Checked::RemoveRule(id) => {
            area.remove_rule(id)
                .await
                .map_err(|e| match e.status.as_u16() {
                    404 => format!("no rule with id {id}"),
                    _ => describe(e),
                })?;
            println!("removed rule {id}");
            Ok(true)
        }
        Checked::SetText(which, text) => {
            let set = text.is_some();
            area.set_text(which, text.as_deref(), now)
                .await
                .map_err(describe)?;
            match (set, which) {
                (true, _) => println!("{} set", which.setting()),
                (false, PolicyText::PrivacyPolicy) => {
                    println!("privacy_policy cleared: the default policy applies")
                }
                (false, _) => println!("{} cleared", which.setting()),
            }
            Ok(true)
        }
        Checked::ListTerms => {
            for t in area.all_terms().await.map_err(describe)? {
                let state = match t.published_at {
                    Some(_) => "published",
                    None => "draft",
                };
                println!("{}\t{state}\t{}", t.effective_date, t.changelog);
            }
            Ok(false)
        }
        Checked::AddTerms(new) => {
            let terms = area
                .add_terms(app.ids.next(), new, now)
                .await
                .map_err(describe)?;
            let state = match terms.published_at {
                Some(_) => "published",
                None => "saved as a draft (publish it with `instance terms publish`)",
            };
            println!(
                "terms of service effective from {} {state}",
                terms.effective_date
            );
            Ok(true)
        }
        Checked::PublishTerms(date) => {
            let terms =
                area.publish_terms(&date, now)
                    .await
                    .map_err(|e| match e.status.as_u16() {
                        404 => format!("no terms of service effective from {date}"),
                        _ => describe(e),
                    })?;
            println!(
                "terms of service effective from {} published",
                terms.effective_date
            );
            Ok(true)
        }
        Checked::SetSetting(name, value) => {
            area.set_setting(&name, &value).await.map_err(describe)?;
            println!("{name} = {value}");
            Ok(true)
        }
        Checked::SetThumbnail(bytes) => {
            let thumbnail = area
                .set_thumbnail(
                    &*app.files,
                    &*app.media,
                    &app.config.limits,
                    app.ids.next(),
                    &bytes,
                )
                .await
                .map_err(describe)?;
            println!(
                "thumbnail set: {} (@1x {}x{}, @2x {}x{})",
                app.files.public_url(&app.base_url(), &thumbnail.x1.key),
                thumbnail.x1.width,
                thumbnail.x1.height,
                thumbnail.x2.width,
                thumbnail.x2.height
            );
            Ok(true)
        }
        Checked::ClearThumbnail => {
            let cleared = area.clear_thumbnail(&*app.files).await.map_err(describe)?;
            if cleared {
                println!("thumbnail cleared: the built-in image is shown");
            } else {
                println!("no thumbnail was set: the built-in image is shown");
            }
            Ok(cleared)
        }
    }
}
