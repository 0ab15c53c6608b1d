//! Announcements as users see them (`Announcement`, with its reactions) and as staff see them
//! in fedblog's admin API (`AdminAnnouncement`).

use crate::content;
use crate::entities::{
    AdminAnnouncement, Announcement, AnnouncementAccount, AnnouncementReaction, AnnouncementStatus,
    StatusTag,
};
use crate::services::announcements::AnnouncementView;
use crate::store::AnnouncementRecord;

use super::{render_custom_emoji, timestamp};

/// An announcement loaded for a viewer, on the server at `base_url`.
pub fn render_announcement(base_url: &str, v: &AnnouncementView) -> Announcement {
    let a = &v.record;
    let signed_in = v.read.is_some();
    Announcement {
        id: a.id,
        content: v.content.clone(),
        starts_at: a.starts_at.map(timestamp),
        ends_at: a.ends_at.map(timestamp),
        all_day: a.all_day && a.starts_at.is_some() && a.ends_at.is_some(),
        published_at: timestamp(a.published_at.unwrap_or(a.created_at)),
        updated_at: timestamp(a.updated_at),
        read: v.read,
        mentions: v
            .mentions
            .iter()
            .map(|m| AnnouncementAccount {
                id: m.id,
                username: m.username.clone(),
                url: content::account_url(base_url, m),
                acct: m.acct(),
            })
            .collect(),
        statuses: v
            .statuses
            .iter()
            .map(|(id, url)| AnnouncementStatus {
                id: *id,
                url: url.clone(),
            })
            .collect(),
        tags: v
            .tags
            .iter()
            .map(|t| StatusTag {
                name: t.clone(),
                url: format!("{base_url}/tags/{}", content::tag_url_segment(t)),
            })
            .collect(),
        emojis: v.emojis.iter().map(render_custom_emoji).collect(),
        reactions: v
            .reactions
            .iter()
            .map(|(r, emoji)| AnnouncementReaction {
                name: r.name.clone(),
                count: r.count,
                me: signed_in.then_some(r.me),
                url: emoji.as_ref().map(|e| e.image_url.clone()),
                static_url: emoji.as_ref().map(|e| e.static_url.clone()),
            })
            .collect(),
    }
}

/// An announcement as staff see it.
pub fn render_admin_announcement(a: &AnnouncementRecord) -> AdminAnnouncement {
    AdminAnnouncement {
        id: a.id,
        text: a.text.clone(),
        starts_at: a.starts_at.map(timestamp),
        ends_at: a.ends_at.map(timestamp),
        all_day: a.all_day,
        published: a.published,
        published_at: a.published_at.map(timestamp),
        created_at: timestamp(a.created_at),
        updated_at: timestamp(a.updated_at),
    }
}
