//! fedblog-server: the reference server around fedblog-core: warp HTTP ([`http`]), sea-orm
//! storage ([`store`]), uploaded files on disk ([`files`]), settings ([`settings`]), start-up
//! ([`serve`]) and the admin CLI ([`cli`]).

pub mod cli;
pub mod files;
pub mod http;
pub mod serve;
pub mod settings;
pub mod store;
pub mod workers;
