//! `SmtpMailer`: core's `Mailer` port over SMTP with lettre (`FEDBLOG_SMTP_*`), and the SMTP
//! settings. Without `FEDBLOG_SMTP_SERVER` the server keeps core's `LogMailer`.

use std::time::Duration;

use async_trait::async_trait;
use fedblog_core::mail::{Mail, MailError, Mailer};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// How long one SMTP exchange may take before the send fails (and its job is tried again).
pub const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// How the connection to the SMTP server is protected (`FEDBLOG_SMTP_TLS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain SMTP, nothing encrypted: a relay on the same machine or network only.
    None,
    /// STARTTLS, required: the connection is upgraded before anything else is said, or the
    /// send fails (no downgrade). The default: it is what mail submission (port 587) offers
    /// nearly everywhere.
    StartTls,
    /// TLS from the first byte ("implicit TLS", SMTPS, port 465).
    Tls,
}

impl SmtpTls {
    /// The value of a setting: `none`, `starttls` or `tls`.
    pub fn parse(text: &str) -> Option<SmtpTls> {
        match text.trim().to_ascii_lowercase().as_str() {
            "none" => Some(SmtpTls::None),
            "starttls" => Some(SmtpTls::StartTls),
            "tls" => Some(SmtpTls::Tls),
            _ => None,
        }
    }

    /// The usual port of each: 25 for plain SMTP, 587 (submission) for STARTTLS, 465
    /// (submissions) for TLS.
    pub fn default_port(self) -> u16 {
        match self {
            SmtpTls::None => 25,
            SmtpTls::StartTls => 587,
            SmtpTls::Tls => 465,
        }
    }
}

/// Where mail goes: `FEDBLOG_SMTP_SERVER` and the settings around it.
#[derive(Clone)]
pub struct SmtpSettings {
    /// Host name (checked against the certificate with TLS) or address.
    pub server: String,
    /// Port.
    pub port: u16,
    /// Protection of the connection.
    pub tls: SmtpTls,
    /// User name, when the server wants one.
    pub user: Option<String>,
    /// Its password.
    pub password: Option<String>,
    /// The sender (`From`), an address or `Name <address>`.
    pub from: String,
}

impl std::fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpSettings")
            .field("server", &self.server)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("from", &self.from)
            .finish()
    }
}

/// The default sender: `notifications@` the instance's host (its domain without a port).
pub fn default_from(domain: &str) -> String {
    let host = domain.rsplit_once(':').map_or(domain, |(h, _)| h);
    format!("notifications@{host}")
}

/// Sends core's mails through an SMTP server, one connection per mail (mail is rare: sign-ups,
/// resets, notifications by choice).
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    /// A mailer for these settings; an error names the setting that is wrong.
    pub fn new(settings: &SmtpSettings) -> Result<SmtpMailer, String> {
        let from: Mailbox = settings.from.parse().map_err(|e| {
            format!(
                "FEDBLOG_SMTP_FROM is not an address ({e}): {:?}",
                settings.from
            )
        })?;
        let builder = match settings.tls {
            SmtpTls::None => {
                AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(settings.server.as_str())
            }
            SmtpTls::StartTls => {
                AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&settings.server)
                    .map_err(|e| format!("FEDBLOG_SMTP_SERVER: {e}"))?
            }
            SmtpTls::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&settings.server)
                .map_err(|e| format!("FEDBLOG_SMTP_SERVER: {e}"))?,
        };
        let mut builder = builder.port(settings.port).timeout(Some(SMTP_TIMEOUT));
        if let Some(user) = &settings.user {
            builder = builder.credentials(Credentials::new(
                user.clone(),
                settings.password.clone().unwrap_or_default(),
            ));
        }
        Ok(SmtpMailer {
            transport: builder.build(),
            from,
        })
    }

    /// The message lettre sends for a mail: text and HTML as alternatives.
    fn message(&self, mail: Mail) -> Result<Message, MailError> {
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|e| MailError(format!("the recipient is not an address: {e}")))?;
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .multipart(MultiPart::alternative_plain_html(mail.text, mail.html))
            .map_err(|e| MailError(format!("cannot build the message: {e}")))
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, mail: Mail) -> Result<(), MailError> {
        let message = self.message(mail)?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| MailError(format!("SMTP: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_modes_parse_and_pick_their_usual_ports() {
        assert_eq!(SmtpTls::parse("NONE"), Some(SmtpTls::None));
        assert_eq!(SmtpTls::parse("starttls"), Some(SmtpTls::StartTls));
        assert_eq!(SmtpTls::parse(" tls "), Some(SmtpTls::Tls));
        assert_eq!(SmtpTls::parse("ssl"), None);
        assert_eq!(SmtpTls::None.default_port(), 25);
        assert_eq!(SmtpTls::StartTls.default_port(), 587);
        assert_eq!(SmtpTls::Tls.default_port(), 465);
    }

    #[test]
    fn the_sender_defaults_to_the_instance_host_and_must_be_an_address() {
        assert_eq!(
            default_from("social.example"),
            "notifications@social.example"
        );
        assert_eq!(default_from("localhost:3000"), "notifications@localhost");
        let mut s = SmtpSettings {
            server: "127.0.0.1".into(),
            port: 2525,
            tls: SmtpTls::None,
            user: Some("me".into()),
            password: Some("sekrit".into()),
            from: "Fedblog <notifications@social.example>".into(),
        };
        assert!(SmtpMailer::new(&s).is_ok());
        assert!(!format!("{s:?}").contains("sekrit"));
        s.from = "not an address".into();
        assert!(
            SmtpMailer::new(&s)
                .err()
                .is_some_and(|e| e.contains("FEDBLOG_SMTP_FROM"))
        );
    }

    #[test]
    fn a_message_carries_both_bodies() {
        let mailer = SmtpMailer::new(&SmtpSettings {
            server: "127.0.0.1".into(),
            port: 2525,
            tls: SmtpTls::None,
            user: None,
            password: None,
            from: "notifications@social.example".into(),
        })
        .expect("mailer");
        let message = mailer
            .message(Mail {
                to: "alice@example.test".into(),
                subject: "Héllo".into(),
                text: "plain body".into(),
                html: "<p>html body</p>".into(),
            })
            .expect("message");
        let raw = String::from_utf8(message.formatted()).expect("utf-8");
        assert!(raw.contains("To: alice@example.test"), "{raw}");
        assert!(raw.contains("multipart/alternative"));
        assert!(raw.contains("plain body") && raw.contains("html body"));
        assert!(
            mailer
                .message(Mail {
                    to: "nobody".into(),
                    subject: String::new(),
                    text: String::new(),
                    html: String::new(),
                })
                .is_err()
        );
    }
}
