//! Validates JSON response bodies against the community OpenAPI 3.1 description of the Mastodon API.
//!
//! The document is parsed once; path templates are pre-split and grouped by segment count, and a
//! JSON Schema (draft 2020-12) validator is compiled lazily, once, for each (operation, response
//! status) pair the first time it is needed. `format` is treated as an annotation only: the
//! Mastodon schema declares `format: uri` / `date-time` on values that real servers (and Mastodon
//! itself) legitimately emit in forms a strict checker would reject, such as
//! `urn:ietf:wg:oauth:2.0:oob`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

/// Environment variable that, when set, names the OpenAPI document used by [`OpenApi::discover`].
pub const OPENAPI_ENV: &str = "FEDBLOG_OPENAPI";

/// Location of the reference document relative to a directory searched by [`OpenApi::discover`].
pub const REFERENCE_RELATIVE_PATH: &str = "shared/reference/mastodon-openapi.json";

/// Most errors reported for one response.
const MAX_ERRORS: usize = 20;

/// Longest single error message (in characters) before it is truncated; messages embed the
/// offending instance, which can be an entire entity.
const MAX_MESSAGE_CHARS: usize = 400;

const HTTP_METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// A parsed OpenAPI document ready to validate responses.
///
/// `OpenApi` is `Send + Sync`; share it between threads or tests with an [`Arc`].
pub struct OpenApi {
    /// The document's `components` object, used to resolve `#/components/...` references.
    components: Value,
    /// Every path template, in document order.
    templates: Vec<Template>,
    /// Indices into `templates`, keyed by segment count, most specific template first.
    by_segment_count: HashMap<usize, Vec<usize>>,
    /// Every operation, in document order.
    operations: Vec<Operation>,
    /// How many (operation, status) validators have been compiled so far.
    compiled: AtomicUsize,
}

/// One path template such as `/api/v1/statuses/{id}`.
struct Template {
    segments: Vec<Segment>,
    /// Upper-case method -> index into `OpenApi::operations`.
    methods: HashMap<String, usize>,
}

enum Segment {
    Literal(String),
    Param,
}

struct Operation {
    /// e.g. `GET /api/v1/statuses/{id}`.
    label: String,
    /// Response status key (as written in the document) -> response entry.
    responses: BTreeMap<String, ResponseEntry>,
}

struct ResponseEntry {
    /// `content["application/json"].schema`, if declared.
    schema: Option<Value>,
    /// The compiled validator, or the compile error, filled on first use.
    compiled: OnceLock<Result<Arc<jsonschema::Validator>, String>>,
}

/// The outcome of validating one response body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validation {
    /// The body matched the schema declared for this operation and status.
    Valid {
        /// The matched operation, e.g. `GET /api/v1/statuses/{id}`.
        operation: String,
    },
    /// The body did not match; each string names the JSON pointer and the problem.
    ///
    /// Strings look like `/0/account: "acct" is a required property`; the document root is
    /// written as `(root)`. At most 20 errors are reported. A schema that fails to compile is also
    /// reported here, with a message starting `(schema)`.
    Invalid {
        /// The matched operation, e.g. `GET /api/v1/statuses/{id}`.
        operation: String,
        /// `<instance JSON pointer>: <message>` for each problem found.
        errors: Vec<String>,
    },
    /// The schema declares no operation for this method+path (e.g. fedblog-only or nodeinfo paths).
    UnknownOperation,
    /// The operation exists but declares no JSON schema for this status code.
    NoSchema {
        /// The matched operation, e.g. `GET /api/v1/statuses/{id}`.
        operation: String,
    },
}

impl Validation {
    /// True unless the body was checked and found not to match (`Invalid`).
    pub fn is_ok(&self) -> bool {
        !matches!(self, Validation::Invalid { .. })
    }

    /// The matched operation label (e.g. `GET /api/v1/statuses/{id}`), if any operation matched.
    pub fn operation(&self) -> Option<&str> {
        match self {
            Validation::Valid { operation }
            | Validation::Invalid { operation, .. }
            | Validation::NoSchema { operation } => Some(operation),
            Validation::UnknownOperation => None,
        }
    }
}

/// Corrections to the community schema where it contradicts Mastodon's documentation, each with
/// the documented fact: `(path, method, status, JSON schema of the body, why)`.
pub const SCHEMA_ERRATA: &[(&str, &str, &str, &str, &str)] = &[(
    "/api/v1/filters",
    "get",
    "200",
    r##"{"type": "array", "items": {"$ref": "#/components/schemas/V1Filter"}}"##,
    "the documentation returns a List of V1::Filter; the schema declares a single V1Filter",
)];

/// Corrections to component schemas, as `(JSON pointer, JSON schema, why)`.
pub const COMPONENT_ERRATA: &[(&str, &str, &str)] = &[(
    "/components/schemas/Status/properties/quote",
    r##"{"anyOf": [{"$ref": "#/components/schemas/Quote"}, {"$ref": "#/components/schemas/ShallowQuote"}, {"type": "null"}]}"##,
    "the documentation makes `quote` a Quote, a ShallowQuote or null; the schema's `oneOf` \
     rejects every quote, since both objects require only `state` and so both match",
)];

/// Puts the [`SCHEMA_ERRATA`] and [`COMPONENT_ERRATA`] into a parsed document (those whose
/// place it lacks are skipped).
fn apply_errata(doc: &mut Value) {
    for (pointer, schema, _) in COMPONENT_ERRATA {
        if let Ok(schema) = serde_json::from_str::<Value>(schema)
            && let Some(slot) = doc.pointer_mut(pointer)
        {
            *slot = schema;
        }
    }
    for (path, method, status, schema, _) in SCHEMA_ERRATA {
        let Ok(schema) = serde_json::from_str::<Value>(schema) else {
            continue;
        };
        if let Some(slot) = doc
            .pointer_mut(&format!(
                "/paths/{}/{method}/responses/{status}/content/application~1json",
                path.replace('~', "~0").replace('/', "~1")
            ))
            .and_then(Value::as_object_mut)
        {
            slot.insert("schema".into(), schema);
        }
    }
}

impl std::fmt::Debug for OpenApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenApi")
            .field("templates", &self.templates.len())
            .field("operations", &self.operations.len())
            .field("compiled", &self.compiled_count())
            .finish_non_exhaustive()
    }
}

impl OpenApi {
    /// Parse from the schema's JSON text.
    pub fn from_json(text: &str) -> Result<OpenApi, String> {
        let doc: Value =
            serde_json::from_str(text).map_err(|e| format!("OpenAPI document is not JSON: {e}"))?;
        Self::from_value(doc)
    }

    /// Build from an already parsed OpenAPI document.
    pub fn from_value(mut doc: Value) -> Result<OpenApi, String> {
        apply_errata(&mut doc);
        let root = doc
            .as_object_mut()
            .ok_or("OpenAPI document is not a JSON object")?;
        let components = root
            .remove("components")
            .unwrap_or_else(|| Value::Object(Map::new()));
        let paths = match root.remove("paths") {
            Some(Value::Object(paths)) => paths,
            Some(_) => return Err("OpenAPI `paths` is not an object".into()),
            None => return Err("OpenAPI document has no `paths`".into()),
        };

        let mut templates = Vec::with_capacity(paths.len());
        let mut operations = Vec::new();
        for (template_path, item) in paths {
            let Some(item) = item.as_object() else {
                continue;
            };
            let segments = split_path(&template_path)
                .map(|s| {
                    if s.len() >= 2 && s.starts_with('{') && s.ends_with('}') {
                        Segment::Param
                    } else {
                        Segment::Literal(s.to_string())
                    }
                })
                .collect();
            let mut methods = HashMap::new();
            for method in HTTP_METHODS {
                let Some(op) = item.get(method).and_then(Value::as_object) else {
                    continue;
                };
                let label = format!("{} {}", method.to_ascii_uppercase(), template_path);
                let mut responses = BTreeMap::new();
                if let Some(Value::Object(resps)) = op.get("responses") {
                    for (status, response) in resps {
                        let response = resolve_local_ref(&components, response);
                        let schema = response
                            .pointer("/content/application~1json/schema")
                            .cloned();
                        responses.insert(
                            status.clone(),
                            ResponseEntry {
                                schema,
                                compiled: OnceLock::new(),
                            },
                        );
                    }
                }
                methods.insert(method.to_ascii_uppercase(), operations.len());
                operations.push(Operation { label, responses });
            }
            templates.push(Template { segments, methods });
        }

        let mut by_segment_count: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, t) in templates.iter().enumerate() {
            by_segment_count
                .entry(t.segments.len())
                .or_default()
                .push(i);
        }
        for list in by_segment_count.values_mut() {
            // Most specific first: compare segment by segment, a literal beats a parameter.
            // The sort is stable, so equally specific templates keep document order.
            list.sort_by(|&a, &b| {
                let key = |i: usize| {
                    templates[i]
                        .segments
                        .iter()
                        .map(|s| matches!(s, Segment::Param))
                        .collect::<Vec<bool>>()
                };
                key(a).cmp(&key(b))
            });
        }

        Ok(OpenApi {
            components,
            templates,
            by_segment_count,
            operations,
            compiled: AtomicUsize::new(0),
        })
    }

    /// Load from a file path.
    pub fn load(path: &Path) -> Result<OpenApi, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read OpenAPI document {}: {e}", path.display()))?;
        Self::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Find the reference schema: env var FEDBLOG_OPENAPI if set, else walk up from the given
    /// start dir (and from the current dir) looking for `shared/reference/mastodon-openapi.json`
    /// and `../shared/reference/mastodon-openapi.json` at each ancestor. Error text says where it
    /// looked.
    pub fn discover(start: &Path) -> Result<OpenApi, String> {
        if let Some(path) = std::env::var_os(OPENAPI_ENV).filter(|p| !p.is_empty()) {
            let path = PathBuf::from(path);
            return Self::load(&path).map_err(|e| format!("{OPENAPI_ENV} is set: {e}"));
        }
        let mut roots = vec![start.to_path_buf()];
        if let Ok(cwd) = std::env::current_dir() {
            roots.push(cwd);
        }
        let mut tried: Vec<PathBuf> = Vec::new();
        for root in &roots {
            for dir in root.ancestors() {
                for candidate in [
                    dir.join(REFERENCE_RELATIVE_PATH),
                    dir.join("..").join(REFERENCE_RELATIVE_PATH),
                ] {
                    if tried.contains(&candidate) {
                        continue;
                    }
                    if candidate.is_file() {
                        return Self::load(&candidate);
                    }
                    tried.push(candidate);
                }
            }
        }
        let mut msg = format!(
            "Mastodon OpenAPI document not found; set {OPENAPI_ENV} to its path. Looked in:"
        );
        for t in &tried {
            msg.push_str("\n  ");
            msg.push_str(&t.display().to_string());
        }
        Err(msg)
    }

    /// Validate one response. `path` is the concrete request path WITHOUT query string (e.g.
    /// "/api/v1/statuses/1234"), method is upper- or lower-case ("GET").
    ///
    /// Among the path templates matching `path` that declare `method`, the most specific one is
    /// chosen (a literal segment beats a `{param}` segment, compared left to right). The response
    /// is looked up by exact status code, then `default`, then a range key such as `2XX`.
    pub fn validate(&self, method: &str, path: &str, status: u16, body: &Value) -> Validation {
        let Some(op_index) = self.find_operation(method, path) else {
            return Validation::UnknownOperation;
        };
        let op = &self.operations[op_index];
        let operation = op.label.clone();
        let Some(entry) = lookup_response(&op.responses, status) else {
            return Validation::NoSchema { operation };
        };
        let Some(schema) = &entry.schema else {
            return Validation::NoSchema { operation };
        };
        let compiled = entry.compiled.get_or_init(|| {
            self.compiled.fetch_add(1, Ordering::Relaxed);
            self.compile(schema).map(Arc::new)
        });
        let validator = match compiled {
            Ok(v) => v,
            Err(e) => {
                return Validation::Invalid {
                    operation,
                    errors: vec![format!("(schema): cannot compile response schema: {e}")],
                };
            }
        };
        let errors: Vec<String> = validator
            .iter_errors(body)
            .take(MAX_ERRORS)
            .map(|e| describe(&e))
            .collect();
        if errors.is_empty() {
            Validation::Valid { operation }
        } else {
            Validation::Invalid { operation, errors }
        }
    }

    /// The operation label (e.g. `GET /api/v1/accounts/{id}`) that `method` + `path` resolves
    /// to, or `None` if the document declares no such operation.
    pub fn operation_for(&self, method: &str, path: &str) -> Option<&str> {
        self.find_operation(method, path)
            .map(|i| self.operations[i].label.as_str())
    }

    /// How many (operation, status) validators have been compiled so far; each is compiled at
    /// most once per `OpenApi`.
    pub fn compiled_count(&self) -> usize {
        self.compiled.load(Ordering::Relaxed)
    }

    /// Number of operations (method + path template pairs) in the document.
    pub fn operation_count(&self) -> usize {
        self.operations.len()
    }

    fn find_operation(&self, method: &str, path: &str) -> Option<usize> {
        // Be lenient about a query string or fragment that slipped through.
        let path = path.split(['?', '#']).next().unwrap_or("");
        let method = method.to_ascii_uppercase();
        let segments: Vec<&str> = split_path(path).collect();
        let candidates = self.by_segment_count.get(&segments.len())?;
        candidates.iter().find_map(|&ti| {
            let t = &self.templates[ti];
            let op = *t.methods.get(&method)?;
            let matches = t
                .segments
                .iter()
                .zip(&segments)
                .all(|(seg, actual)| match seg {
                    Segment::Literal(lit) => lit == actual,
                    Segment::Param => !actual.is_empty(),
                });
            matches.then_some(op)
        })
    }

    /// Compile a response schema as the root of a draft 2020-12 document that also carries the
    /// `components` entries it references, so `#/components/...` pointers resolve locally.
    fn compile(&self, schema: &Value) -> Result<jsonschema::Validator, String> {
        let mut subset: Map<String, Value> = Map::new();
        let mut pending: Vec<&Value> = vec![schema];
        while let Some(v) = pending.pop() {
            let mut refs = Vec::new();
            collect_refs(v, &mut refs);
            for r in refs {
                let Some((kind, name)) = component_of(&r) else {
                    continue; // Non-component refs are left for the compiler to report.
                };
                let kind_map = subset
                    .entry(kind.clone())
                    .or_insert_with(|| Value::Object(Map::new()))
                    .as_object_mut()
                    .expect("component kinds are objects");
                if kind_map.contains_key(&name) {
                    continue;
                }
                let Some(target) = self.components.get(&kind).and_then(|k| k.get(&name)) else {
                    return Err(format!("unresolvable reference {r}"));
                };
                kind_map.insert(name, target.clone());
                pending.push(target);
            }
        }
        let mut root = Map::new();
        root.insert(
            "$schema".into(),
            Value::String("https://json-schema.org/draft/2020-12/schema".into()),
        );
        root.insert("components".into(), Value::Object(subset));
        root.insert("allOf".into(), Value::Array(vec![schema.clone()]));
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(false)
            .offline()
            .build(&Value::Object(root))
            .map_err(|e| e.to_string())
    }
}

/// One validation error as `pointer: message`. A value matching none of the alternatives of a
/// `oneOf` or `anyOf` is described by the errors of the closest alternative (the fewest errors,
/// preferring one of the value's own type), not by the whole value, which says nothing of why.
fn describe(e: &jsonschema::ValidationError<'_>) -> String {
    use jsonschema::error::ValidationErrorKind as Kind;
    let path = e.instance_path().as_str();
    let pointer = if path.is_empty() { "(root)" } else { path };
    let (Kind::OneOfNotValid { context } | Kind::AnyOf { context }) = e.kind() else {
        return format!("{pointer}: {}", truncate(&e.to_string(), MAX_MESSAGE_CHARS));
    };
    let wrong_type = |errors: &Vec<jsonschema::ValidationError<'static>>| {
        errors
            .iter()
            .any(|x| x.instance_path().as_str() == path && matches!(x.kind(), Kind::Type { .. }))
    };
    let Some(closest) = context
        .iter()
        .filter(|errors| !errors.is_empty())
        .min_by_key(|errors| (wrong_type(errors), errors.len()))
    else {
        // Every alternative matched: a `oneOf` that more than one alternative satisfies.
        return format!("{pointer}: {}", truncate(&e.to_string(), MAX_MESSAGE_CHARS));
    };
    let reasons: Vec<String> = closest.iter().take(5).map(|x| describe(x)).collect();
    format!(
        "{pointer}: matches none of the {} alternatives; the closest fails with: {}",
        context.len(),
        reasons.join("; ")
    )
}

// `OpenApi` must stay shareable across threads (it is used behind an `Arc` by concurrent tests).
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<OpenApi>();
};

/// Split a path into its segments, ignoring the leading slash.
fn split_path(path: &str) -> impl Iterator<Item = &str> {
    path.strip_prefix('/').unwrap_or(path).split('/')
}

/// Exact status, then `default`, then a range key such as `2XX` (either case).
fn lookup_response(
    responses: &BTreeMap<String, ResponseEntry>,
    status: u16,
) -> Option<&ResponseEntry> {
    let exact = status.to_string();
    if let Some(e) = responses.get(&exact) {
        return Some(e);
    }
    if let Some(e) = responses.get("default") {
        return Some(e);
    }
    let class = status / 100;
    responses
        .get(&format!("{class}XX"))
        .or_else(|| responses.get(&format!("{class}xx")))
}

/// Follow a `{"$ref": "#/components/..."}` response object one level, if it is one.
fn resolve_local_ref<'a>(components: &'a Value, value: &'a Value) -> &'a Value {
    let mut current = value;
    for _ in 0..8 {
        let Some(r) = current.get("$ref").and_then(Value::as_str) else {
            break;
        };
        match r
            .strip_prefix("#/components")
            .and_then(|p| components.pointer(&decode_fragment(p)))
        {
            Some(target) => current = target,
            None => break,
        }
    }
    current
}

/// Every `$ref` string value within `value`.
fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "$ref" {
                    if let Value::String(s) = v {
                        out.push(s.clone());
                    }
                } else {
                    collect_refs(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// `#/components/<kind>/<name>[/...]` -> (kind, name), JSON-pointer and percent unescaped.
fn component_of(reference: &str) -> Option<(String, String)> {
    let rest = reference.strip_prefix("#/components/")?;
    let mut parts = rest.split('/');
    let kind = unescape_token(&decode_fragment(parts.next()?));
    let name = unescape_token(&decode_fragment(parts.next()?));
    Some((kind, name))
}

fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Percent-decode a URI fragment (invalid escapes are kept verbatim).
fn decode_fragment(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn truncate(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((idx, _)) => format!("{}…", &s[..idx]),
        None => s.to_string(),
    }
}
