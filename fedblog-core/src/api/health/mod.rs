//! The web server's health check, which load balancers and monitors poll. <https://docs.joinmastodon.org/methods/health/>
pub mod health_check;
