//! What other servers read of ours: our accounts as ActivityPub actors, our statuses as notes
//! and the activities that carry them, and the simple HTML pages browsers get at the same URLs.

use serde_json::Value;

use crate::app::App;
use crate::content;
use crate::federation::paths;
use crate::federation::vocab::{self, ActorDoc, Attachment, NoteDoc, QuestionDoc};
use crate::id::Id;
use crate::render::{render_field_value, timestamp};
use crate::services::polls::poll_expired;
use crate::store::{
    AccountRecord, ActorKeyRecord, MediaKind, MediaRecord, PollRecord, StatusRecord,
};

/// A status with what its note names, loaded (see `App::note_parts`).
#[derive(Clone, Debug)]
pub struct NoteParts {
    /// The status.
    pub status: StatusRecord,
    /// Its author.
    pub author: AccountRecord,
    /// The accounts it mentions.
    pub mentions: Vec<AccountRecord>,
    /// The ActivityPub id of the status it replies to.
    pub in_reply_to: Option<String>,
    /// Its media attachments, in order.
    pub media: Vec<MediaRecord>,
    /// For a local status: its author's own public and unlisted replies to it that its replies
    /// collection embeds (id and ActivityPub id), oldest first.
    pub self_replies: Vec<(Id, String)>,
    /// Whether the author has more of them than those.
    pub more_self_replies: bool,
    /// The name of its thread (`conversation` and `context`), when the thread is ours: a thread
    /// begun on another server goes by that server's name, which we do not keep, so a reply of
    /// ours in it names none and its readers put it in its parent's thread.
    pub conversation: Option<String>,
    /// The context collection of its thread (`context`), when the thread is ours.
    pub context: Option<String>,
    /// Its poll: with one, the note goes out as a `Question`.
    pub poll: Option<PollRecord>,
    /// The post it quotes (`quote`, `quoteAuthorization`), when it quotes one.
    pub quote: Option<vocab::QuoteDoc>,
    /// For a local status: who may quote it with automatic approval (`interactionPolicy`).
    pub can_quote: Option<Vec<String>>,
}

impl App {
    /// The ActivityPub id of an account (ours, or a remote one's own).
    pub fn actor_id(&self, account: &AccountRecord) -> String {
        match &account.uri {
            Some(uri) => uri.clone(),
            None => paths::actor(&self.base_url(), &account.username),
        }
    }

    /// An image of ours as an absolute URL with its media type, if the account has one.
    fn profile_image(&self, key: &Option<String>) -> Option<(String, String)> {
        let key = key.as_ref()?;
        let url = self.files.public_url(&self.base_url(), key);
        let media_type = match key
            .rsplit('.')
            .next()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("png") => "image/png",
            Some("gif") => "image/gif",
            Some("webp") => "image/webp",
            _ => "image/jpeg",
        };
        Some((url, media_type.to_string()))
    }

    /// A local account as an ActivityPub actor (`Person`, or `Service` for a bot), naming the
    /// actor it moved to (`moved_to`), if it has.
    pub fn render_ap_actor(
        &self,
        a: &AccountRecord,
        key: &ActorKeyRecord,
        moved_to: Option<String>,
    ) -> Value {
        let base = self.base_url();
        let id = paths::actor(&base, &a.username);
        let mut doc = ActorDoc {
            kind: if a.bot { "Service" } else { "Person" }.to_string(),
            preferred_username: a.username.clone(),
            name: a.display_name.clone(),
            summary_html: content::render_html(&a.note, &base, &|_, _| None),
            url: content::account_url(&base, a),
            inbox: paths::inbox(&id),
            outbox: paths::outbox(&id),
            followers: paths::followers(&id),
            following: paths::following(&id),
            featured: paths::featured(&id),
            featured_tags: paths::featured_tags(&id),
            shared_inbox: paths::shared_inbox(&base),
            manually_approves_followers: a.locked,
            discoverable: a.discoverable.unwrap_or(false),
            indexable: a.indexable,
            published: a.created_at,
            public_key_id: paths::key_id(&id),
            public_key_pem: key.public_key_pem.clone(),
            icon: self.profile_image(&a.avatar),
            image: self.profile_image(&a.header),
            fields: a
                .fields
                .iter()
                .map(|f| (f.name.clone(), render_field_value(&f.value, &base)))
                .collect(),
            also_known_as: a.also_known_as.clone(),
            moved_to,
            id,
        }
        .to_json();
        self.add_local_emoji_tags(&mut doc, a);
        doc
    }

    /// Adds to a local actor's `tag` the `Emoji` tags of this server's enabled emojis its
    /// name, bio and profile fields use.
    fn add_local_emoji_tags(&self, doc: &mut Value, a: &AccountRecord) {
        let texts = [a.display_name.as_str(), a.note.as_str()]
            .into_iter()
            .chain(
                a.fields
                    .iter()
                    .flat_map(|f| [f.name.as_str(), f.value.as_str()]),
            );
        let used = self.local_emojis.named_in(texts);
        if used.is_empty() {
            return;
        }
        if let Some(tags) = doc.get_mut("tag").and_then(Value::as_array_mut) {
            tags.extend(used.iter().map(|e| vocab::emoji_tag(&ap_emoji(e))));
        }
    }

    /// The `Emoji` tags of a local note: this server's enabled emojis its content, content
    /// warning and poll options use.
    fn local_note_emojis(&self, s: &StatusRecord, poll: Option<&PollRecord>) -> Vec<vocab::Emoji> {
        let texts = [s.content.as_str(), s.spoiler_text.as_str()]
            .into_iter()
            .chain(
                poll.into_iter()
                    .flat_map(|p| p.options.iter().map(String::as_str)),
            );
        self.local_emojis
            .named_in(texts)
            .iter()
            .map(ap_emoji)
            .collect()
    }

    /// The instance actor, which signs the fetches made on nobody's behalf.
    pub fn render_instance_actor(&self, key: &ActorKeyRecord) -> Value {
        let base = self.base_url();
        let id = paths::instance_actor(&base);
        let mut doc = ActorDoc {
            kind: "Application".to_string(),
            preferred_username: self.config.domain.clone(),
            name: String::new(),
            summary_html: String::new(),
            url: format!("{base}/about"),
            inbox: format!("{id}/inbox"),
            outbox: format!("{id}/outbox"),
            followers: String::new(),
            following: String::new(),
            featured: String::new(),
            featured_tags: String::new(),
            shared_inbox: paths::shared_inbox(&base),
            manually_approves_followers: true,
            discoverable: false,
            indexable: false,
            published: chrono::DateTime::UNIX_EPOCH,
            public_key_id: paths::key_id(&id),
            public_key_pem: key.public_key_pem.clone(),
            icon: None,
            image: None,
            fields: vec![],
            also_known_as: vec![],
            moved_to: None,
            id,
        }
        .to_json();
        if let Some(o) = doc.as_object_mut() {
            for empty in ["followers", "following", "featured", "featuredTags"] {
                o.remove(empty);
            }
        }
        doc
    }

    /// A status as a note.
    pub fn render_ap_note(&self, parts: &NoteParts) -> NoteDoc {
        let base = self.base_url();
        let s = &parts.status;
        let author = &parts.author;
        let actor = self.actor_id(author);
        let id = s
            .uri
            .clone()
            .unwrap_or_else(|| paths::status(&base, &author.username, s.id));
        let mentioned: Vec<String> = parts.mentions.iter().map(|m| self.actor_id(m)).collect();
        let (to, cc) = vocab::addressing(s.visibility, &paths::followers(&actor), &mentioned);
        NoteDoc {
            url: format!("{base}/@{}/{}", author.username, s.id),
            attributed_to: actor,
            content_html: s.content.clone(),
            summary: (!s.spoiler_text.is_empty()).then(|| s.spoiler_text.clone()),
            sensitive: s.sensitive,
            published: s.created_at,
            updated: s.edited_at,
            in_reply_to: parts.in_reply_to.clone(),
            to,
            cc,
            mentions: parts
                .mentions
                .iter()
                .map(|m| (self.actor_id(m), format!("@{}", self.full_acct(m))))
                .collect(),
            hashtags: s
                .tags
                .iter()
                .map(|t| {
                    (
                        format!("{base}/tags/{}", content::tag_url_segment(t)),
                        format!("#{t}"),
                    )
                })
                .collect(),
            attachments: parts
                .media
                .iter()
                .map(|m| self.render_ap_attachment(m))
                .collect(),
            language: s.language.clone(),
            conversation: parts.conversation.clone(),
            context: parts.context.clone(),
            replies: s.local.then(|| self.render_ap_embedded_replies(&id, parts)),
            poll: parts.poll.as_ref().map(|p| self.render_ap_question(p)),
            emojis: if s.local {
                self.local_note_emojis(s, parts.poll.as_ref())
            } else {
                vec![]
            },
            quote: parts.quote.clone(),
            can_quote: parts.can_quote.clone(),
            id,
        }
    }

    /// A poll as the `Question` a note becomes: its options with their votes, its end (and
    /// `closed`, at the same time, once it has ended) and its voters. A poll whose totals are
    /// hidden shows 0 votes per option until it ends, as Mastodon's own serializer does (it
    /// gives no count before results are due), so that no other server shows what its author
    /// hid; its voters count is sent all along, as our client API shows it.
    fn render_ap_question(&self, p: &PollRecord) -> QuestionDoc {
        let ended = poll_expired(p, self.now());
        let hidden = p.hide_totals && !ended;
        QuestionDoc {
            options: p
                .options
                .iter()
                .enumerate()
                .map(|(i, title)| {
                    let votes = if hidden {
                        0
                    } else {
                        p.votes.get(i).copied().unwrap_or(0)
                    };
                    (title.clone(), votes)
                })
                .collect(),
            multiple: p.multiple,
            voters_count: p.voters_count,
            end_time: p.expires_at,
            closed: ended,
        }
    }

    /// The replies collection a local note embeds, as Mastodon's: its first page lists the
    /// author's own replies, and points on to more of them, or (unlike Mastodon, which points
    /// to more of them whenever it lists some) to everyone else's when there are no more.
    fn render_ap_embedded_replies(&self, note_id: &str, parts: &NoteParts) -> Value {
        let replies = paths::replies(note_id);
        let next = match parts.self_replies.last() {
            Some((last, _)) if parts.more_self_replies => {
                paths::replies_page(&replies, false, Some(*last))
            }
            _ => paths::replies_page(&replies, true, None),
        };
        let items = parts
            .self_replies
            .iter()
            .map(|(_, uri)| Value::String(uri.clone()))
            .collect();
        vocab::replies_collection(&replies, items, Some(next))
    }

    /// A media attachment as a `Document`, with the fields Mastodon sends.
    fn render_ap_attachment(&self, m: &MediaRecord) -> Attachment {
        // A remote attachment is named by its original, copied here or not.
        let url = match &m.remote_url {
            Some(remote) => remote.clone(),
            None => self.files.public_url(&self.base_url(), &m.file_key),
        };
        let ext = url.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
        let media_type = match (m.kind, ext.as_str()) {
            (MediaKind::Image, "png") => Some("image/png"),
            (MediaKind::Image, "gif") => Some("image/gif"),
            (MediaKind::Image, "webp") => Some("image/webp"),
            (MediaKind::Image, _) => Some("image/jpeg"),
            (MediaKind::Video | MediaKind::Gifv, "webm") => Some("video/webm"),
            (MediaKind::Video | MediaKind::Gifv, _) => Some("video/mp4"),
            (MediaKind::Audio, "ogg") => Some("audio/ogg"),
            (MediaKind::Audio, _) => Some("audio/mpeg"),
            (MediaKind::Unknown, _) => None,
        };
        let meta: Value = serde_json::from_str(&m.meta).unwrap_or(Value::Null);
        let dimension = |k: &str| {
            meta["original"][k]
                .as_u64()
                .and_then(|v| u32::try_from(v).ok())
        };
        Attachment {
            url,
            media_type: media_type.map(str::to_string),
            kind: "Document".into(),
            description: m.description.clone(),
            blurhash: m.blurhash.clone(),
            width: dimension("width"),
            height: dimension("height"),
            focal_point: m.focus,
        }
    }

    /// `user@domain` for any account (ours with our domain).
    fn full_acct(&self, a: &AccountRecord) -> String {
        match &a.domain {
            Some(d) => format!("{}@{d}", a.username),
            None => format!("{}@{}", a.username, self.config.domain),
        }
    }

    /// The note alone, with its `@context`, as its URL serves it.
    pub fn render_ap_note_document(&self, parts: &NoteParts) -> Value {
        self.render_ap_note(parts).to_json(true)
    }

    /// `Create` of a status.
    pub fn render_ap_create(&self, parts: &NoteParts) -> Value {
        let note = self.render_ap_note(parts);
        vocab::activity(
            &paths::status_activity(&note.id),
            "Create",
            &note.attributed_to,
            note.to_json(false),
            &note.to,
            &note.cc,
            Some(note.published),
        )
    }

    /// `Update` of an edited status.
    pub fn render_ap_update(&self, parts: &NoteParts) -> Value {
        let note = self.render_ap_note(parts);
        let at = note.updated.unwrap_or(note.published);
        vocab::activity(
            &format!("{}#updates/{}", note.id, at.timestamp()),
            "Update",
            &note.attributed_to,
            note.to_json(false),
            &note.to,
            &note.cc,
            Some(at),
        )
    }

    /// `Update` of a local status's poll: new totals, or its end. Unlike an edit's, its id
    /// cannot come from the edit time (the poll changes while the status does not), so it takes
    /// `n`, a number made for it: each one is new to the servers that read it.
    pub fn render_ap_poll_update(&self, parts: &NoteParts, n: Id) -> Value {
        let note = self.render_ap_note(parts);
        vocab::activity(
            &format!("{}#updates/polls/{n}", note.id),
            "Update",
            &note.attributed_to,
            note.to_json(false),
            &note.to,
            &note.cc,
            None,
        )
    }

    /// The HTML page of a local account, for browsers: name, bio, and links to the actor.
    pub fn render_profile_page(&self, a: &AccountRecord) -> String {
        let base = self.base_url();
        let name = if a.display_name.is_empty() {
            &a.username
        } else {
            &a.display_name
        };
        let bio = content::render_html(&a.note, &base, &|_, _| None);
        let plain_bio = content::html_to_plain(&bio);
        page(
            &format!("{name} (@{})", self.full_acct(a)),
            &plain_bio,
            &content::account_url(&base, a),
            &paths::actor(&base, &a.username),
            &format!(
                "<h1>{}</h1><p>@{}</p><div>{bio}</div><p>{} posts, {} followers, {} following</p>",
                esc(name),
                esc(&self.full_acct(a)),
                a.statuses_count,
                a.followers_count,
                a.following_count
            ),
        )
    }

    /// The HTML page of a public status, for browsers.
    pub fn render_status_page(&self, parts: &NoteParts) -> String {
        let base = self.base_url();
        let a = &parts.author;
        let s = &parts.status;
        let name = if a.display_name.is_empty() {
            &a.username
        } else {
            &a.display_name
        };
        let url = format!("{base}/@{}/{}", a.username, s.id);
        let description = if s.spoiler_text.is_empty() {
            content::html_to_plain(&s.content)
        } else {
            s.spoiler_text.clone()
        };
        let body = content_behind_warning(s);
        page(
            &format!("{name} (@{})", self.full_acct(a)),
            &description,
            &url,
            &paths::status(&base, &a.username, s.id),
            &format!(
                "<article><header><a href=\"{}\">{}</a> <time datetime=\"{t}\">{t}</time></header>{body}</article>",
                esc(&content::account_url(&base, a)),
                esc(name),
                t = timestamp(s.created_at),
            ),
        )
    }
}

/// A status's HTML for a page: its content, folded under its content warning when it has one.
pub(crate) fn content_behind_warning(s: &crate::store::StatusRecord) -> String {
    if s.spoiler_text.is_empty() {
        s.content.clone()
    } else {
        format!(
            "<details><summary>{}</summary>{}</details>",
            esc(&s.spoiler_text),
            s.content
        )
    }
}

fn esc(text: &str) -> String {
    html_escape::encode_text(text).into_owned()
}

/// A page with OpenGraph tags and a `rel="alternate"` link to the ActivityPub document.
fn page(title: &str, description: &str, url: &str, activity: &str, body: &str) -> String {
    let attr = |v: &str| html_escape::encode_double_quoted_attribute(v).into_owned();
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title>\
         <meta property=\"og:title\" content=\"{}\">\
         <meta property=\"og:description\" content=\"{}\">\
         <meta property=\"og:url\" content=\"{}\">\
         <meta property=\"og:type\" content=\"website\">\
         <link rel=\"alternate\" type=\"application/activity+json\" href=\"{}\">\
         </head><body>{body}</body></html>\n",
        esc(title),
        attr(title),
        attr(description),
        attr(url),
        attr(activity),
    )
}

/// A custom emoji as an `Emoji` tag describes it.
fn ap_emoji(e: &crate::store::CustomEmojiRecord) -> vocab::Emoji {
    vocab::Emoji {
        shortcode: e.shortcode.clone(),
        url: e.image_url.clone(),
        id: e.uri.clone(),
        updated: Some(e.updated_at),
    }
}
