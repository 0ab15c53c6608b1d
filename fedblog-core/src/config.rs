//! What an instance says about itself and the limits it enforces: set by the server, read by core.

/// Who may sign up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegistrationMode {
    /// Anyone; accounts still confirm their e-mail address.
    Open,
    /// Anyone may apply; a moderator approves.
    Approval,
    /// No sign-ups through the API.
    Closed,
}

impl RegistrationMode {
    /// Parse `open`, `approval` or `closed`.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s.to_ascii_lowercase().as_str() {
            "open" => RegistrationMode::Open,
            "approval" => RegistrationMode::Approval,
            "closed" | "none" => RegistrationMode::Closed,
            _ => return None,
        })
    }
}

/// Which trends clients are shown (`FEDBLOG_TRENDS`): Mastodon's `trends` and
/// `trendable_by_default` server settings in one. Staff see every candidate either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TrendsMode {
    /// Only the hashtags and statuses staff approved (Mastodon's default).
    #[default]
    Reviewed,
    /// Everything staff did not reject, reviewed or not (Mastodon's `trendable_by_default`).
    Open,
    /// No trends: the trends endpoints answer empty lists.
    Off,
}

impl TrendsMode {
    /// Parse `reviewed`, `open` or `off`.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s.to_ascii_lowercase().as_str() {
            "reviewed" => TrendsMode::Reviewed,
            "open" => TrendsMode::Open,
            "off" => TrendsMode::Off,
            _ => return None,
        })
    }
}

/// Numeric limits (Mastodon's stock values by default).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Characters of a status (text + content warning).
    pub max_status_characters: usize,
    /// Characters every URL counts as.
    pub characters_reserved_per_url: usize,
    /// Media per status.
    pub max_media_attachments: usize,
    /// Largest image upload, in bytes.
    pub image_size_limit: usize,
    /// Most pixels of an image upload.
    pub image_matrix_limit: u64,
    /// Largest video or audio upload, in bytes.
    pub video_size_limit: usize,
    /// Characters of a media description.
    pub max_media_description: usize,
    /// Display name length.
    pub max_display_name: usize,
    /// Bio length.
    pub max_note: usize,
    /// Profile fields.
    pub max_fields: usize,
    /// Profile field name and value length.
    pub max_field_length: usize,
    /// Pinned statuses.
    pub max_pinned_statuses: usize,
    /// Featured tags.
    pub max_featured_tags: usize,
    /// Application name length.
    pub max_app_name: usize,
    /// Application website length.
    pub max_app_website: usize,
    /// Application redirect URIs length (all together).
    pub max_app_redirect_uris: usize,
    /// Poll options.
    pub max_poll_options: usize,
    /// Characters per poll option.
    pub max_poll_option_characters: usize,
    /// Shortest poll, in seconds.
    pub min_poll_expiration: i64,
    /// Longest poll, in seconds.
    pub max_poll_expiration: i64,
    /// Whether remote media (the attachments of other servers' posts, their accounts' avatars
    /// and headers) are downloaded into the file store by a background job and shown from
    /// there; off, only their URLs are kept and clients load them from their servers. Off by
    /// default. (It sits among the limits because the media area, which downloads, holds
    /// these.)
    pub download_remote_media: bool,
    /// The largest remote media file downloaded, in bytes; a larger one is shown from its
    /// server. Avatars and headers are held to the limit of uploaded ones (8 MB) too.
    pub remote_media_max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_status_characters: 500,
            characters_reserved_per_url: 23,
            max_media_attachments: 4,
            image_size_limit: 16 * 1024 * 1024,
            image_matrix_limit: 33_177_600,
            video_size_limit: 40 * 1024 * 1024,
            max_media_description: 1500,
            max_display_name: 30,
            max_note: 500,
            max_fields: 4,
            max_field_length: 255,
            max_pinned_statuses: 5,
            max_featured_tags: 10,
            max_app_name: 60,
            max_app_website: 2000,
            max_app_redirect_uris: 2000,
            max_poll_options: 4,
            max_poll_option_characters: 50,
            min_poll_expiration: 300,
            max_poll_expiration: 2_629_746,
            download_remote_media: false,
            // The largest file we take from our own users (`video_size_limit`).
            remote_media_max_bytes: 40 * 1024 * 1024,
        }
    }
}

/// The instance's identity and policy.
#[derive(Clone, Debug)]
pub struct InstanceConfig {
    /// Public host (and port), e.g. `social.example` or `localhost:3000`.
    pub domain: String,
    /// `https` in production; `http` for a loopback domain.
    pub scheme: String,
    /// Name shown to users.
    pub title: String,
    /// Short description.
    pub description: String,
    /// Contact e-mail address.
    pub contact_email: String,
    /// Sign-up policy.
    pub registrations: RegistrationMode,
    /// Limits.
    pub limits: Limits,
    /// Server rules shown at sign-up.
    pub rules: Vec<String>,
    /// Argon2 memory cost in KiB for password hashes (19 MiB as OWASP advises; tests lower it).
    pub password_hash_memory_kib: u32,
    /// Home feeds a new status fills inside the posting request; beyond this many, its
    /// followers' feeds are filled by a background job (the author's own at once).
    pub fanout_inline_max: usize,
    /// Rate limits (Mastodon's by default).
    pub rate_limits: crate::rate_limit::RateLimits,
    /// Streaming connections.
    pub streaming: StreamingConfig,
    /// Authorized fetch ("secure mode", Mastodon's `AUTHORIZED_FETCH`): the ActivityPub
    /// documents of our accounts (statuses, collections) are served only to requests with a
    /// valid HTTP signature from someone the account does not block (nor whose server it
    /// blocks); an unsigned request for an actor gets only its key. The instance actor,
    /// WebFinger, host-meta, NodeInfo and the HTML pages stay public. Off by default.
    pub authorized_fetch: bool,
    /// Whether addresses clients give the server to reach (Web Push endpoints) may be plain
    /// `http` and name private or loopback hosts (`FEDBLOG_ALLOW_PRIVATE_ADDRESSES`, for tests
    /// on one machine). Off by default: an endpoint must be an `https` URL.
    pub allow_private_addresses: bool,
    /// Which trends clients are shown (`FEDBLOG_TRENDS`; only approved ones by default).
    pub trends: TrendsMode,
}

/// How streaming connections are served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamingConfig {
    /// Whether the public and hashtag streams need an access token too (by default anyone may
    /// listen to them, as anyone may read the public timelines).
    pub public_needs_token: bool,
    /// Streaming connections one token may hold at once.
    pub connections_per_token: usize,
    /// Messages a connection may have waiting before it is closed as too slow.
    pub outbox: usize,
}

impl Default for StreamingConfig {
    fn default() -> Self {
        StreamingConfig {
            public_needs_token: false,
            connections_per_token: crate::streaming::DEFAULT_CONNECTIONS_PER_TOKEN,
            outbox: crate::streaming::DEFAULT_OUTBOX,
        }
    }
}

impl InstanceConfig {
    /// A configuration for `domain` with defaults for everything else. Loopback domains get `http`.
    pub fn new(domain: &str) -> Self {
        let host = domain.split(':').next().unwrap_or(domain);
        let loopback = matches!(host, "localhost" | "127.0.0.1" | "[" | "")
            || host.starts_with("127.")
            || domain.starts_with("[::1]");
        InstanceConfig {
            domain: domain.to_string(),
            scheme: if loopback {
                "http".into()
            } else {
                "https".into()
            },
            title: "fedblog".into(),
            description: "A fedblog server".into(),
            contact_email: String::new(),
            registrations: RegistrationMode::Open,
            limits: Limits::default(),
            rules: vec![],
            password_hash_memory_kib: 19 * 1024,
            fanout_inline_max: 1000,
            rate_limits: crate::rate_limit::RateLimits::default(),
            streaming: StreamingConfig::default(),
            authorized_fetch: false,
            allow_private_addresses: false,
            trends: TrendsMode::Reviewed,
        }
    }

    /// `scheme://domain`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("{}://{}", self.scheme, self.domain)
    }
}
