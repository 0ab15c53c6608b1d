//! What a conformance run saw: the requests of the current check (so a failure can name the
//! request that produced it, as a `curl` command), and, per OpenAPI operation, how many
//! answers matched the Mastodon schema and which fields did not (the `schema` area's verdicts).
//!
//! A [`crate::client::Client`] with a recorder does not turn a schema mismatch into an error:
//! the mismatch is recorded against its operation and the answer is returned as it came, so a
//! check that needs one field of an answer is not failed by another field it never reads.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;

use serde_json::{Value, json};

use crate::openapi::Validation;

/// How many distinct schema problems are kept per operation.
const MAX_PROBLEMS: usize = 20;
/// How much of an answer's body an exchange keeps.
const RESPONSE_CHARS: usize = 600;
/// Longer form values are written as a shell expression in `curl` commands.
const LONG_VALUE: usize = 200;

/// A body as it was sent, without file contents.
#[derive(Clone, Debug, PartialEq)]
pub enum SentBody {
    /// No body.
    None,
    /// Form pairs.
    Form(Vec<(String, String)>),
    /// JSON.
    Json(Value),
    /// Multipart parts.
    Multipart(Vec<SentPart>),
}

/// One multipart part as sent.
#[derive(Clone, Debug, PartialEq)]
pub enum SentPart {
    /// A text field.
    Text {
        /// Field name.
        name: String,
        /// Value.
        value: String,
    },
    /// A file (its bytes are not kept).
    File {
        /// Field name.
        name: String,
        /// File name sent.
        file_name: String,
        /// Content type claimed.
        content_type: String,
        /// Its size in bytes.
        len: usize,
    },
}

/// One request and the status and (start of the) body that came back.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The absolute URL requested.
    pub url: String,
    /// Whose bearer token went with it (`@username`, `an app token`, ...), if any. The token
    /// itself is never written to a report.
    pub token_of: Option<String>,
    /// Extra headers sent (`Idempotency-Key`, ...).
    pub headers: Vec<(String, String)>,
    /// The body sent.
    pub body: SentBody,
    /// The OpenAPI operation the request resolves to (`GET /api/v1/accounts/{id}`), if any.
    pub operation: Option<String>,
    /// The status answered (0 when no answer came).
    pub status: u16,
    /// The start of the answer's body.
    pub response: String,
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A shell word for a value: quoted, or for a long run of one character a `printf` expression.
fn shell_value(prefix: &str, value: &str) -> String {
    let n = value.chars().count();
    let mut chars = value.chars();
    match chars.next() {
        Some(c) if n > LONG_VALUE && chars.all(|x| x == c) && c.is_ascii_alphanumeric() => {
            format!("{}\"$(printf '{c}%.0s' $(seq {n}))\"", shell_quote(prefix))
        }
        _ => shell_quote(&format!("{prefix}{value}")),
    }
}

impl Exchange {
    /// The path and query of the URL (what the server saw).
    pub fn path(&self) -> &str {
        self.url
            .split("://")
            .nth(1)
            .and_then(|r| r.find('/').map(|i| &r[i..]))
            .unwrap_or(&self.url)
    }

    /// A `curl` command that sends the same request; the token is `$TOKEN` (see `token_of`).
    pub fn curl(&self) -> String {
        let mut words = vec!["curl -sS -i".to_string()];
        if self.method != "GET" {
            words.push(format!("-X {}", self.method));
        }
        if self.token_of.is_some() {
            words.push("-H \"Authorization: Bearer $TOKEN\"".into());
        }
        for (k, v) in &self.headers {
            words.push(format!("-H {}", shell_quote(&format!("{k}: {v}"))));
        }
        match &self.body {
            SentBody::None => {}
            SentBody::Form(pairs) if pairs.is_empty() => words.push("-d ''".into()),
            SentBody::Form(pairs) => {
                for (k, v) in pairs {
                    words.push(format!(
                        "--data-urlencode {}",
                        shell_value(&format!("{k}="), v)
                    ));
                }
            }
            SentBody::Json(v) => {
                words.push("-H 'Content-Type: application/json'".into());
                words.push(format!("--data {}", shell_quote(&v.to_string())));
            }
            SentBody::Multipart(parts) => {
                for p in parts {
                    match p {
                        SentPart::Text { name, value } => {
                            words.push(format!("-F {}", shell_value(&format!("{name}="), value)))
                        }
                        SentPart::File {
                            name,
                            file_name,
                            content_type,
                            len,
                        } => words.push(format!(
                            "-F {} # a file of {len} bytes",
                            shell_quote(&format!("{name}=@{file_name};type={content_type}"))
                        )),
                    }
                }
            }
        }
        words.push(shell_quote(&self.url));
        // A file part's comment must end the command, so it goes last.
        if let Some(i) = words.iter().position(|w| w.contains(" # a file of ")) {
            let w = words.remove(i);
            words.push(w);
        }
        words.join(" ")
    }

    /// The exchange as a JSON object for reports.
    pub fn to_json(&self) -> Value {
        let body = match &self.body {
            SentBody::None => Value::Null,
            SentBody::Form(pairs) => json!(pairs),
            SentBody::Json(v) => v.clone(),
            SentBody::Multipart(parts) => json!(
                parts
                    .iter()
                    .map(|p| match p {
                        SentPart::Text { name, value } => json!([name, value]),
                        SentPart::File {
                            name,
                            file_name,
                            content_type,
                            len,
                        } => json!([name, format!("@{file_name} ({content_type}, {len} bytes)")]),
                    })
                    .collect::<Vec<_>>()
            ),
        };
        json!({
            "method": self.method,
            "url": self.url,
            "token_of": self.token_of,
            "body": body,
            "operation": self.operation,
            "status": self.status,
            "response": self.response,
            "curl": self.curl(),
        })
    }

    /// `METHOD path → status`, for messages.
    pub fn line(&self) -> String {
        format!("{} {} → {}", self.method, self.path(), self.status)
    }

    /// What the request was to, for grouping: its operation, else its path without the query.
    pub fn endpoint(&self) -> String {
        self.operation.clone().unwrap_or_else(|| {
            format!(
                "{} {}",
                self.method,
                self.path().split('?').next().unwrap_or_default()
            )
        })
    }
}

/// One distinct way the answers of an operation broke the schema.
#[derive(Clone, Debug)]
pub struct Problem {
    /// `<JSON pointer, array indices as *>: <message>`.
    pub problem: String,
    /// How many answers had it.
    pub count: usize,
    /// The first exchange that had it.
    pub first: Exchange,
}

/// What the answers of one OpenAPI operation looked like.
#[derive(Clone, Debug, Default)]
pub struct OperationRecord {
    /// Answers whose body matched the schema declared for their status.
    pub valid: usize,
    /// Answers whose body did not.
    pub invalid: usize,
    /// Statuses answered for which the schema declares no JSON body.
    pub unchecked_statuses: BTreeSet<u16>,
    /// The distinct problems, in the order first seen (at most 20).
    pub problems: Vec<Problem>,
}

#[derive(Default)]
struct Inner {
    transcript: Vec<Exchange>,
    operations: BTreeMap<String, OperationRecord>,
    names: HashMap<String, String>,
}

/// Collects exchanges and schema verdicts; shared by a client and the run that uses it.
#[derive(Default)]
pub struct Recorder {
    inner: Mutex<Inner>,
    beyond_reference: std::sync::atomic::AtomicBool,
}

/// Array indices in JSON pointers become `*`, and long numbers (ids) `<n>`, so one missing
/// field of every item of a list, or one wrongly typed id, is one problem.
fn generalise(problem: &str) -> String {
    static PATTERNS: std::sync::OnceLock<(regex::Regex, regex::Regex)> = std::sync::OnceLock::new();
    let (indices, numbers) = PATTERNS.get_or_init(|| {
        (
            regex::Regex::new(r"/\d+(/|:|\s|$)").expect("regex"),
            regex::Regex::new(r"\d{3,}").expect("regex"),
        )
    });
    let once = indices.replace_all(problem, "/*$1");
    // Adjacent indices (`/0/1/`) share a separator, so a second pass catches the rest.
    let twice = indices.replace_all(&once, "/*$1");
    numbers.replace_all(&twice, "<n>").into_owned()
}

impl Recorder {
    /// A new, empty recorder.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Names the holder of a token (`@alice`), for reports.
    pub fn name_token(&self, token: &str, holder: &str) {
        self.lock()
            .names
            .insert(token.to_string(), holder.to_string());
    }

    /// Who holds a token, as named; `a token` when unnamed.
    pub fn holder_of(&self, token: &str) -> String {
        self.lock()
            .names
            .get(token)
            .cloned()
            .unwrap_or_else(|| "a token".into())
    }

    /// Starts a new check: forgets the previous check's requests.
    pub fn begin_check(&self) {
        self.lock().transcript.clear();
        self.beyond_reference
            .store(false, std::sync::atomic::Ordering::Relaxed);
    }

    /// Runs `work` as requests outside the reference API (a feature Mastodon no longer has,
    /// such as the `crypto` scope): they are kept in the transcript, but their answers are not
    /// held to the reference schema, which does not know them. Checks run one at a time, so
    /// the mark covers only this check's requests.
    pub async fn beyond_reference<T>(&self, work: impl std::future::Future<Output = T>) -> T {
        use std::sync::atomic::Ordering::Relaxed;
        self.beyond_reference.store(true, Relaxed);
        let out = work.await;
        self.beyond_reference.store(false, Relaxed);
        out
    }

    /// Whether requests now are outside the reference API (see [`Recorder::beyond_reference`]).
    pub fn is_beyond_reference(&self) -> bool {
        self.beyond_reference
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Adds an exchange to the current check's requests, and its schema verdict (if any) to its
    /// operation's record.
    pub fn record(&self, exchange: Exchange, validation: Option<Validation>) {
        let mut inner = self.lock();
        if let Some(v) = validation {
            match v {
                Validation::Valid { operation } => {
                    inner.operations.entry(operation).or_default().valid += 1
                }
                Validation::NoSchema { operation } => {
                    inner
                        .operations
                        .entry(operation)
                        .or_default()
                        .unchecked_statuses
                        .insert(exchange.status);
                }
                Validation::Invalid { operation, errors } => {
                    let op = inner.operations.entry(operation).or_default();
                    op.invalid += 1;
                    for e in errors {
                        let problem = generalise(&e);
                        let full = op.problems.len() >= MAX_PROBLEMS;
                        match op.problems.iter_mut().find(|p| p.problem == problem) {
                            Some(p) => p.count += 1,
                            None if !full => op.problems.push(Problem {
                                problem,
                                count: 1,
                                first: exchange.clone(),
                            }),
                            None => {}
                        }
                    }
                }
                Validation::UnknownOperation => {}
            }
        }
        inner.transcript.push(exchange);
    }

    /// The current check's requests, in order.
    pub fn transcript(&self) -> Vec<Exchange> {
        self.lock().transcript.clone()
    }

    /// The current check's last request.
    pub fn last(&self) -> Option<Exchange> {
        self.lock().transcript.last().cloned()
    }

    /// What was seen of one operation (`GET /api/v1/accounts/{id}`).
    pub fn operation(&self, label: &str) -> Option<OperationRecord> {
        self.lock().operations.get(label).cloned()
    }

    /// Every operation that answered, by label.
    pub fn operations(&self) -> Vec<String> {
        self.lock().operations.keys().cloned().collect()
    }

    /// Trims a body for keeping.
    pub fn excerpt(text: &str) -> String {
        match text.char_indices().nth(RESPONSE_CHARS) {
            Some((at, _)) => format!("{}…", &text[..at]),
            None => text.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange(method: &str, body: SentBody) -> Exchange {
        Exchange {
            method: method.into(),
            url: "http://127.0.0.1:3000/v1/statuses?x=1".into(),
            token_of: Some("@alice".into()),
            headers: vec![("Idempotency-Key".into(), "k'1".into())],
            body,
            operation: None,
            status: 422,
            response: "{}".into(),
        }
    }

    #[test]
    fn curl_commands_quote_and_abbreviate() {
        let e = exchange(
            "POST",
            SentBody::Form(vec![
                ("status".into(), "it's".into()),
                ("spoiler_text".into(), "a".repeat(501)),
            ]),
        );
        assert_eq!(
            e.curl(),
            "curl -sS -i -X POST -H \"Authorization: Bearer $TOKEN\" -H 'Idempotency-Key: k'\\''1' \
             --data-urlencode 'status=it'\\''s' --data-urlencode 'spoiler_text='\"$(printf 'a%.0s' $(seq 501))\" \
             'http://127.0.0.1:3000/v1/statuses?x=1'"
        );
        assert_eq!(e.path(), "/v1/statuses?x=1");
        assert_eq!(e.line(), "POST /v1/statuses?x=1 → 422");
        let m = exchange(
            "POST",
            SentBody::Multipart(vec![
                SentPart::File {
                    name: "file".into(),
                    file_name: "a.png".into(),
                    content_type: "image/png".into(),
                    len: 68,
                },
                SentPart::Text {
                    name: "description".into(),
                    value: "d".into(),
                },
            ]),
        );
        assert!(
            m.curl()
                .ends_with("-F 'file=@a.png;type=image/png' # a file of 68 bytes")
        );
        assert!(m.curl().contains("-F 'description=d' 'http://"));
        let j = exchange("PUT", SentBody::Json(json!({"a": [1]})));
        assert!(
            j.curl()
                .contains("-H 'Content-Type: application/json' --data '{\"a\":[1]}'")
        );
    }

    #[test]
    fn schema_problems_are_counted_per_operation_with_indices_generalised() {
        let r = Recorder::new();
        let op = || "GET /api/v1/timelines/home".to_string();
        let bad = |i: usize| Validation::Invalid {
            operation: op(),
            errors: vec![format!(
                "/{i}/account: \"uri\" is a required property; /{i}/0/id: \"17956{i}\" is not of type"
            )],
        };
        r.record(exchange("GET", SentBody::None), Some(bad(0)));
        r.record(exchange("GET", SentBody::None), Some(bad(3)));
        r.record(
            exchange("GET", SentBody::None),
            Some(Validation::Valid { operation: op() }),
        );
        r.record(
            exchange("GET", SentBody::None),
            Some(Validation::NoSchema { operation: op() }),
        );
        let rec = r.operation(&op()).expect("recorded");
        assert_eq!((rec.valid, rec.invalid), (1, 2));
        assert_eq!(rec.unchecked_statuses, BTreeSet::from([422]));
        assert_eq!(rec.problems.len(), 1);
        assert_eq!(
            rec.problems[0].problem,
            "/*/account: \"uri\" is a required property; /*/*/id: \"<n>\" is not of type"
        );
        assert_eq!(rec.problems[0].count, 2);
        assert_eq!(r.transcript().len(), 4);
        r.begin_check();
        assert!(r.transcript().is_empty() && r.last().is_none());
        assert_eq!(r.operations(), vec![op()]);
    }
}
