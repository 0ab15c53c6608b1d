//! fedblog-server: the reference server around fedblog-core: warp HTTP ([`http`]), sea-orm
//! storage ([`store`]), uploaded files on disk ([`files`]), settings ([`settings`]), start-up
//! ([`serve`]), the admin CLI ([`cli`]) and the LibreTranslate backend ([`translation`]).

pub mod cli;
pub mod files;
pub mod http;
pub mod media;
pub mod serve;
pub mod settings;
pub mod store;
pub mod translation;
pub mod workers;
