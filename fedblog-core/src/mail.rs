//! The `Mailer` port: the e-mails a server sends (also reachable as `app::Mailer`).

/// Sends the e-mails a server sends. The default writes them to the log.
pub trait Mailer: Send + Sync {
    /// Sends the address-confirmation message with its link.
    fn send_confirmation(&self, to: &str, username: &str, link: &str);
}

/// A mailer that logs messages instead of sending them (development and small servers).
pub struct LogMailer;

impl Mailer for LogMailer {
    fn send_confirmation(&self, _to: &str, username: &str, link: &str) {
        tracing::info!(%username, %link, "confirm the e-mail address by opening this link");
    }
}
