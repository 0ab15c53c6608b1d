//! fedblog-server: the reference server around fedblog-core: warp HTTP ([`http`]), sea-orm
//! storage ([`store`]), uploaded files on disk ([`files`]), settings ([`settings`]), start-up
//! ([`serve`]), the admin CLI ([`cli`]), the LibreTranslate backend ([`translation`]), password
//! hashing off the async workers ([`blocking`]), rate-limit counters in Redis
//! ([`redis_limits`]), e-mail over SMTP ([`mail`]) and rebuilding the search index ([`reindex`]).

pub mod blocking;
pub mod cli;
pub mod files;
pub mod http;
pub mod mail;
pub mod media;
pub mod outbound;
pub mod redis_limits;
pub mod reindex;
pub mod serve;
pub mod settings;
pub mod store;
pub mod translation;
pub mod workers;
