//! Rendering of the server-wide blocks administrators manage: `Admin::DomainBlock`,
//! `Admin::DomainAllow`, `Admin::EmailDomainBlock`, `Admin::CanonicalEmailBlock`,
//! `Admin::IpBlock`.

use crate::entities::{
    AdminCanonicalEmailBlock, AdminDomainAllow, AdminDomainBlock, AdminEmailDomainBlock,
    AdminIpBlock,
};
use crate::render::timestamp;
use crate::services::server_blocks::sha256_hex;
use crate::store::{InstanceDomainBlockRecord, IpBlockRecord, ListedValueRecord};

/// `Admin::DomainBlock`.
pub fn render_admin_domain_block(b: &InstanceDomainBlockRecord) -> AdminDomainBlock {
    AdminDomainBlock {
        id: b.id,
        domain: b.domain.clone(),
        digest: sha256_hex(&b.domain),
        created_at: timestamp(b.created_at),
        severity: b.severity.as_str().to_string(),
        reject_media: b.reject_media,
        reject_reports: b.reject_reports,
        private_comment: b.private_comment.clone(),
        public_comment: b.public_comment.clone(),
        obfuscate: b.obfuscate,
    }
}

/// `Admin::DomainAllow`.
pub fn render_admin_domain_allow(v: &ListedValueRecord) -> AdminDomainAllow {
    AdminDomainAllow {
        id: v.id,
        domain: v.value.clone(),
        created_at: timestamp(v.created_at),
    }
}

/// `Admin::EmailDomainBlock`. fedblog counts no refused sign-up attempts, so `history` is
/// empty.
pub fn render_admin_email_domain_block(v: &ListedValueRecord) -> AdminEmailDomainBlock {
    AdminEmailDomainBlock {
        id: v.id,
        domain: v.value.clone(),
        created_at: timestamp(v.created_at),
        history: vec![],
    }
}

/// `Admin::CanonicalEmailBlock`.
pub fn render_admin_canonical_email_block(v: &ListedValueRecord) -> AdminCanonicalEmailBlock {
    AdminCanonicalEmailBlock {
        id: v.id,
        canonical_email_hash: v.value.clone(),
    }
}

/// `Admin::IpBlock`.
pub fn render_admin_ip_block(b: &IpBlockRecord) -> AdminIpBlock {
    AdminIpBlock {
        id: b.id,
        ip: b.ip.clone(),
        severity: b.severity.as_str().to_string(),
        comment: b.comment.clone(),
        created_at: timestamp(b.created_at),
        expires_at: b.expires_at.map(timestamp),
    }
}
