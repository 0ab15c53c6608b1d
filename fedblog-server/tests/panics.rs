//! A panic inside a request handler (here a translation backend that panics): the answer is a
//! JSON 500, the server keeps serving, and the log names the request, method and path, with
//! the panic's message.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use fedblog_core::api::instance::instance_v1::InstanceV1;
use fedblog_core::api::statuses::translate_status::TranslateStatus;
use fedblog_core::api::{Endpoint, fill_path};
use fedblog_core::services::accounts::NewAccount;
use fedblog_core::services::statuses::NewStatus;
use fedblog_core::translation::{LanguageMatrix, Translated, TranslationError, Translator};
use fedblog_core::{App, InstanceConfig, MemoryStore};
use fedblog_server::serve::spawn_on;

/// A translation backend whose every call panics.
struct Exploding;

#[async_trait]
impl Translator for Exploding {
    async fn translate(
        &self,
        _texts: &[String],
        _source: Option<&str>,
        _target: &str,
    ) -> Result<Translated, TranslationError> {
        panic!("the translator exploded")
    }

    async fn languages(&self) -> Result<LanguageMatrix, TranslationError> {
        panic!("the translator exploded")
    }

    fn provider(&self) -> &str {
        "exploding"
    }
}

/// Log output kept in memory.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Logs {
    type Writer = Logs;
    fn make_writer(&'a self) -> Logs {
        self.clone()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_handler_answers_500_and_logs_its_request_line() {
    let logs = Logs::default();
    tracing_subscriber::fmt()
        .with_writer(logs.clone())
        .with_ansi(false)
        .init();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut config = InstanceConfig::new(&format!("127.0.0.1:{port}"));
    config.password_hash_memory_kib = 64;
    let app = Arc::new(
        App::new(Arc::new(MemoryStore::new()), config).with_translator(Arc::new(Exploding)),
    );
    let (account, _, _) = app
        .accounts()
        .create_local_account(
            NewAccount {
                username: "ada".into(),
                email: "ada@example.com".into(),
                password: "correct horse battery".into(),
                role: fedblog_core::store::Role::User,
                confirmed: true,
                approved: true,
                locale: "en".into(),
            },
            true,
        )
        .await
        .unwrap();
    let cli = app.oauth().cli_application().await.unwrap();
    let scopes = fedblog_core::scope::Scopes::parse("read write").unwrap();
    let token = app
        .oauth()
        .issue_token(cli.id, Some(account.id), &scopes)
        .await
        .unwrap()
        .access_token;
    let status = app
        .statuses()
        .publish_status(
            &account,
            None,
            None,
            NewStatus {
                text: "Bonjour tout le monde".into(),
                language: Some("fr".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let running = spawn_on(app.clone(), listener).await.unwrap();
    let path = fill_path(TranslateStatus::PATH, &[("id", &status.id.to_string())]);
    let http = reqwest::Client::new();
    let r = http
        .post(format!("{}{path}", running.base_url()))
        .bearer_auth(&token)
        .form(&[("lang", "en")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 500);
    let body: serde_json::Value = r.json().await.unwrap();
    assert!(body["error"].is_string(), "{body}");
    // Still serving.
    let again = http
        .get(format!("{}{}", running.base_url(), InstanceV1::PATH))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 200);
    running.stop().await;
    let text = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("a request handler panicked"))
        .unwrap_or_else(|| panic!("no panic line in the log:\n{text}"));
    assert!(line.contains("method=POST"), "{line}");
    assert!(line.contains(&path), "{line}");
    assert!(line.contains("the translator exploded"), "{line}");
    assert!(
        text.lines()
            .any(|l| l.contains("request") && l.contains(&path) && l.contains("status=500")),
        "the access line of the request:\n{text}"
    );
    assert!(!text.contains(&token), "the token must not be logged");
}
