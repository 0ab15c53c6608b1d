//! fedblog-server: the reference server around fedblog-core: warp HTTP ([`http`]), sea-orm
//! storage ([`store`]), settings ([`settings`]), start-up ([`serve`]) and the admin CLI ([`cli`]).

pub mod cli;
pub mod http;
pub mod serve;
pub mod settings;
pub mod store;
pub mod workers;
