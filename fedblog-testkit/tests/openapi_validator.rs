//! Checks the OpenAPI response validator against the real Mastodon OpenAPI 3.1 document.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use fedblog_testkit::openapi::{OpenApi, Validation};
use serde_json::{Value, json};

/// One parsed document shared by the tests that do not count compilations.
fn shared() -> &'static OpenApi {
    static API: OnceLock<OpenApi> = OnceLock::new();
    API.get_or_init(fresh)
}

fn fresh() -> OpenApi {
    OpenApi::discover(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("reference OpenAPI document")
}

/// The raw document, for reading `required` lists straight from the source.
fn raw_doc() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        let mut dir = Some(Path::new(env!("CARGO_MANIFEST_DIR")));
        while let Some(d) = dir {
            for candidate in [
                d.join("shared/reference/mastodon-openapi.json"),
                d.join("../shared/reference/mastodon-openapi.json"),
            ] {
                if let Ok(text) = std::fs::read_to_string(&candidate) {
                    return serde_json::from_str(&text).expect("document is JSON");
                }
            }
            dir = d.parent();
        }
        panic!("mastodon-openapi.json not found above CARGO_MANIFEST_DIR");
    })
}

fn required_of(pointer: &str) -> Vec<String> {
    let mut v: Vec<String> = raw_doc()
        .pointer(pointer)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{pointer} is an array"))
        .iter()
        .map(|s| {
            s.as_str()
                .expect("required entries are strings")
                .to_string()
        })
        .collect();
    v.sort();
    v
}

fn keys_of(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
    k.sort();
    k
}

/// Exactly the fields `components.schemas.Account.required` lists, typed as its
/// `properties` declare (strings, booleans, integers, arrays of CustomEmoji / Field).
fn minimal_account() -> Value {
    json!({
        "id": "109999",
        "username": "alice",
        "acct": "alice",
        "display_name": "Alice",
        "locked": false,
        "bot": false,
        "group": false,
        "indexable": false,
        "created_at": "2024-05-01T00:00:00.000Z",
        "note": "<p>hello</p>",
        "uri": "https://fedblog.example/users/alice",
        "avatar": "https://fedblog.example/avatars/original/missing.png",
        "avatar_static": "https://fedblog.example/avatars/original/missing.png",
        "header": "https://fedblog.example/headers/original/missing.png",
        "header_static": "https://fedblog.example/headers/original/missing.png",
        "followers_count": 0,
        "following_count": 0,
        "statuses_count": 0,
        "emojis": [],
        "fields": []
    })
}

fn expect_valid(v: &Validation) -> &str {
    match v {
        Validation::Valid { operation } => operation,
        other => panic!("expected Valid, got {other:?}"),
    }
}

fn expect_invalid(v: &Validation) -> (&str, &[String]) {
    match v {
        Validation::Invalid { operation, errors } => (operation, errors),
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn minimal_account_sample_has_exactly_the_required_fields() {
    assert_eq!(
        keys_of(&minimal_account()),
        required_of("/components/schemas/Account/required")
    );
}

#[test]
fn account_valid_and_missing_acct_invalid() {
    let api = shared();
    let v = api.validate("GET", "/api/v1/accounts/109999", 200, &minimal_account());
    assert_eq!(expect_valid(&v), "GET /api/v1/accounts/{id}");
    assert!(v.is_ok());

    let mut account = minimal_account();
    account.as_object_mut().unwrap().remove("acct");
    let v = api.validate("get", "/api/v1/accounts/109999", 200, &account);
    let (op, errors) = expect_invalid(&v);
    assert_eq!(op, "GET /api/v1/accounts/{id}");
    assert!(!v.is_ok());
    assert!(
        errors.iter().any(|e| e.contains("acct")),
        "errors should mention acct: {errors:?}"
    );
    assert!(
        errors.iter().all(|e| e.starts_with("(root): ")),
        "{errors:?}"
    );
}

#[test]
fn wrong_type_reports_instance_pointer() {
    let mut account = minimal_account();
    account["followers_count"] = json!("zero");
    account["fields"] = json!([{ "name": "site" }]);
    let v = shared().validate("GET", "/api/v1/accounts/1", 200, &account);
    let (_, errors) = expect_invalid(&v);
    assert!(
        errors.iter().any(|e| e.starts_with("/followers_count: ")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("/fields/0: ") && e.contains("value")),
        "{errors:?}"
    );
}

#[test]
fn optional_nullable_fields_as_mastodon_sends_them() {
    let mut account = minimal_account();
    let obj = account.as_object_mut().unwrap();
    obj.insert("url".into(), json!("https://fedblog.example/@alice"));
    obj.insert("last_status_at".into(), json!("2024-05-02"));
    obj.insert("discoverable".into(), Value::Null);
    obj.insert("noindex".into(), json!(false));
    obj.insert("roles".into(), json!([]));
    obj.insert("moved".into(), Value::Null);
    obj.insert("fedblog_extension".into(), json!({"anything": 1}));
    let v = shared().validate("GET", "/api/v1/accounts/1", 200, &account);
    expect_valid(&v);

    // `moved` refers back to Account: the recursive $ref must resolve.
    account["moved"] = minimal_account();
    expect_valid(&shared().validate("GET", "/api/v1/accounts/1", 200, &account));
    account["moved"] = json!({"id": "2"});
    let v = shared().validate("GET", "/api/v1/accounts/1", 200, &account);
    assert!(!v.is_ok(), "{v:?}");
}

#[test]
fn verify_credentials_matches_literal_path() {
    let api = shared();
    assert_eq!(
        api.operation_for("GET", "/api/v1/accounts/verify_credentials"),
        Some("GET /api/v1/accounts/verify_credentials")
    );
    let v = api.validate(
        "GET",
        "/api/v1/accounts/verify_credentials",
        200,
        &minimal_account(),
    );
    let (op, errors) = expect_invalid(&v);
    assert!(op.ends_with("verify_credentials"), "{op}");
    assert!(errors.iter().any(|e| e.contains("source")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("role")), "{errors:?}");

    // Adding exactly what CredentialAccount additionally requires makes it valid.
    let cred_required = required_of("/components/schemas/CredentialAccount/required");
    let mut cred = minimal_account();
    cred["source"] = json!({
        "fields": [],
        "follow_requests_count": 0,
        "indexable": false,
        "note": "hello",
        "privacy": "public",
        "sensitive": false,
        "language": null
    });
    cred["role"] = json!({
        "id": "-99",
        "name": "",
        "color": "",
        "permissions": "0",
        "highlighted": false
    });
    assert_eq!(keys_of(&cred), cred_required);
    assert_eq!(
        keys_of(&cred["source"])
            .into_iter()
            .filter(|k| k != "language")
            .collect::<Vec<_>>(),
        required_of("/components/schemas/CredentialAccount/properties/source/required")
    );
    assert_eq!(
        keys_of(&cred["role"]),
        required_of("/components/schemas/Role/required")
    );
    let v = api.validate("GET", "/api/v1/accounts/verify_credentials", 200, &cred);
    assert_eq!(expect_valid(&v), "GET /api/v1/accounts/verify_credentials");

    // Other concrete ids still fall to the templated operation.
    assert_eq!(
        api.operation_for("GET", "/api/v1/accounts/lookup"),
        Some("GET /api/v1/accounts/lookup")
    );
    assert_eq!(
        api.operation_for("GET", "/api/v1/accounts/verify_credentialsx"),
        Some("GET /api/v1/accounts/{id}")
    );
    assert_eq!(
        api.operation_for("POST", "/api/v1/accounts/42/follow"),
        Some("POST /api/v1/accounts/{id}/follow")
    );
}

#[test]
fn path_matching_edge_cases() {
    let api = shared();
    // Empty segment does not satisfy a template parameter.
    assert_eq!(api.operation_for("GET", "/api/v1/accounts/"), None);
    // Method is part of the match: no GET /api/v1/accounts/{id}/follow.
    assert_eq!(api.operation_for("GET", "/api/v1/accounts/42/follow"), None);
    // A literal path that lacks the method falls back to a template that has it.
    assert_eq!(
        api.operation_for("GET", "/api/v1/accounts/update_credentials"),
        Some("GET /api/v1/accounts/{id}")
    );
    assert_eq!(
        api.operation_for("patch", "/api/v1/accounts/update_credentials"),
        Some("PATCH /api/v1/accounts/update_credentials")
    );
    // A stray query string is ignored.
    assert_eq!(
        api.operation_for("GET", "/api/v1/timelines/home?limit=5"),
        Some("GET /api/v1/timelines/home")
    );
    // Two template parameters.
    assert_eq!(
        api.operation_for("DELETE", "/api/v1/announcements/7/reactions/%F0%9F%91%8D"),
        Some("DELETE /api/v1/announcements/{id}/reactions/{name}")
    );
}

#[test]
fn array_response() {
    let api = shared();
    let v = api.validate("GET", "/api/v1/timelines/home", 200, &json!([]));
    assert_eq!(expect_valid(&v), "GET /api/v1/timelines/home");
    assert_eq!(v.operation(), Some("GET /api/v1/timelines/home"));
    assert_eq!(Validation::UnknownOperation.operation(), None);

    let v = api.validate("GET", "/api/v1/timelines/home", 200, &json!([{"id": "1"}]));
    let (_, errors) = expect_invalid(&v);
    assert!(errors.iter().all(|e| e.starts_with("/0")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("account")), "{errors:?}");

    let v = api.validate("GET", "/api/v1/timelines/home", 200, &json!({"id": "1"}));
    assert!(!v.is_ok());
}

#[test]
fn errors_are_capped_at_twenty() {
    let items: Vec<Value> = (0..30).map(|i| json!({"id": i.to_string()})).collect();
    let v = shared().validate("GET", "/api/v1/timelines/home", 200, &Value::Array(items));
    let (_, errors) = expect_invalid(&v);
    assert_eq!(errors.len(), 20);
}

#[test]
fn error_body_for_404() {
    let api = shared();
    let v = api.validate(
        "GET",
        "/api/v1/statuses/1",
        404,
        &json!({"error": "Record not found"}),
    );
    assert_eq!(expect_valid(&v), "GET /api/v1/statuses/{id}");
    let v = api.validate(
        "GET",
        "/api/v1/statuses/1",
        404,
        &json!({"message": "nope"}),
    );
    assert!(!v.is_ok(), "{v:?}");
}

#[test]
fn unknown_operation_and_no_schema() {
    let api = shared();
    let v = api.validate("GET", "/.well-known/nodeinfo", 200, &json!({"links": []}));
    assert_eq!(v, Validation::UnknownOperation);
    assert!(v.is_ok());
    assert_eq!(
        api.validate("GET", "/api/v1/fedblog/whatever", 200, &json!({})),
        Validation::UnknownOperation
    );
    // 410 is declared without content; 418 is not declared and there is no default.
    for status in [410, 418] {
        let v = api.validate("GET", "/api/v1/statuses/1", status, &json!({}));
        assert_eq!(
            v,
            Validation::NoSchema {
                operation: "GET /api/v1/statuses/{id}".into()
            }
        );
        assert!(v.is_ok());
    }
}

#[test]
fn credential_application_with_oob_redirect_uri() {
    let app = json!({
        "id": "563419",
        "name": "Test Application",
        "website": "https://app.example",
        "scopes": ["read", "write", "push"],
        "redirect_uri": "urn:ietf:wg:oauth:2.0:oob",
        "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"],
        "client_id": "TWhM-tNSuncnqN7DBJmoyeLnk6K3iJJ71KKXxgL1hPM",
        "client_secret": "ZEaFUFmF0umgBX1qKJDjaU99Q31lDkOU8NutzTOoliw",
        "client_secret_expires_at": 0,
        "vapid_key": "BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M="
    });
    let required = required_of("/components/schemas/CredentialApplication/required");
    assert!(
        required.iter().all(|k| app.get(k).is_some()),
        "sample lacks one of {required:?}"
    );
    let v = shared().validate("POST", "/api/v1/apps", 200, &app);
    assert_eq!(expect_valid(&v), "POST /api/v1/apps");

    let mut bad = app.clone();
    bad["scopes"] = json!(["read", "not-a-scope"]);
    let v = shared().validate("POST", "/api/v1/apps", 200, &bad);
    let (_, errors) = expect_invalid(&v);
    assert!(
        errors.iter().any(|e| e.starts_with("/scopes/1: ")),
        "{errors:?}"
    );
}

#[test]
fn formats_are_annotations_only() {
    let mut account = minimal_account();
    account["created_at"] = json!("not a date at all");
    account["avatar"] = json!("/relative/avatar.png");
    account["last_status_at"] = json!("2024-05-01T00:00:00.123456Z");
    let v = shared().validate("GET", "/api/v1/accounts/1", 200, &account);
    expect_valid(&v);
}

#[test]
fn compiled_validator_is_reused() {
    let api = fresh();
    assert_eq!(api.compiled_count(), 0);
    let body = minimal_account();
    expect_valid(&api.validate("GET", "/api/v1/accounts/1", 200, &body));
    assert_eq!(api.compiled_count(), 1);
    expect_valid(&api.validate("GET", "/api/v1/accounts/2", 200, &body));
    assert_eq!(api.compiled_count(), 1);
    // A different status of the same operation is a separate validator.
    expect_valid(&api.validate(
        "GET",
        "/api/v1/accounts/2",
        404,
        &json!({"error": "Record not found"}),
    ));
    assert_eq!(api.compiled_count(), 2);
    // Neither unknown operations nor schema-less responses compile anything.
    api.validate("GET", "/.well-known/nodeinfo", 200, &body);
    api.validate("GET", "/api/v1/accounts/2", 410, &body);
    assert_eq!(api.compiled_count(), 2);
}

#[test]
fn shared_across_threads_compiles_once() {
    let api = Arc::new(fresh());
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let api = Arc::clone(&api);
            std::thread::spawn(move || {
                let path = format!("/api/v1/accounts/{i}");
                api.validate("GET", &path, 200, &minimal_account())
            })
        })
        .collect();
    for h in handles {
        expect_valid(&h.join().unwrap());
    }
    assert_eq!(api.compiled_count(), 1);
}

#[test]
fn fallback_keys_and_compile_errors_with_a_synthetic_document() {
    let doc = json!({
        "openapi": "3.1.0",
        "paths": {
            "/a": {"get": {"responses": {
                "200": {"content": {"application/json": {"schema": {"type": "object", "required": ["x"]}}}},
                "default": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Err"}}}}
            }}},
            "/b": {"get": {"responses": {
                "2XX": {"content": {"application/json": {"schema": {"type": "array"}}}},
                "4xx": {"$ref": "#/components/responses/Problem"}
            }}},
            "/c": {"get": {"responses": {
                "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Missing"}}}}
            }}}
        },
        "components": {
            "schemas": {"Err": {"type": "object", "required": ["error"]}},
            "responses": {"Problem": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Err"}}}}}
        }
    });
    let api = OpenApi::from_json(&doc.to_string()).unwrap();
    assert_eq!(api.operation_count(), 3);
    expect_valid(&api.validate("GET", "/a", 200, &json!({"x": 1})));
    expect_valid(&api.validate("GET", "/a", 500, &json!({"error": "boom"})));
    assert!(!api.validate("GET", "/a", 500, &json!({})).is_ok());
    expect_valid(&api.validate("GET", "/b", 204, &json!([])));
    assert!(!api.validate("GET", "/b", 201, &json!({})).is_ok());
    expect_valid(&api.validate("GET", "/b", 422, &json!({"error": "x"})));
    assert!(!api.validate("GET", "/b", 422, &json!({})).is_ok());
    assert_eq!(
        api.validate("GET", "/b", 500, &json!({})),
        Validation::NoSchema {
            operation: "GET /b".into()
        }
    );
    let v = api.validate("GET", "/c", 200, &json!({}));
    let (_, errors) = expect_invalid(&v);
    assert!(errors[0].starts_with("(schema): "), "{errors:?}");

    assert!(OpenApi::from_json("[]").is_err());
    assert!(OpenApi::from_json("{").is_err());
}

#[test]
fn discover_reports_where_it_looked() {
    // Only meaningful when FEDBLOG_OPENAPI is not forcing a path.
    if std::env::var_os("FEDBLOG_OPENAPI").is_some() {
        return;
    }
    let api = OpenApi::discover(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert!(api.operation_count() > 150);
    let err = OpenApi::load(Path::new("/nonexistent/mastodon-openapi.json")).unwrap_err();
    assert!(err.contains("/nonexistent/mastodon-openapi.json"), "{err}");
}

/// The errata correct the schema where it contradicts Mastodon's documentation: the v1 filters
/// list is a list.
#[test]
fn errata_make_the_v1_filters_list_a_list() {
    let filter = json!({
        "id": "1", "phrase": "p", "context": ["home"], "whole_word": true,
        "expires_at": null, "irreversible": false
    });
    let list = shared().validate("GET", "/api/v1/filters", 200, &json!([filter.clone()]));
    expect_valid(&list);
    let single = shared().validate("GET", "/api/v1/filters", 200, &filter);
    expect_invalid(&single);
}

/// A value matching none of a `oneOf`'s alternatives is explained by the closest alternative's
/// own errors (here: the card lacks `authors`), not by printing the value.
#[test]
fn one_of_failures_name_the_closest_alternatives_errors() {
    let doc = json!({
        "openapi": "3.1.0",
        "paths": {"/s": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {
            "type": "object",
            "properties": {"card": {"oneOf": [{"$ref": "#/components/schemas/Card"}, {"type": "null"}]}}
        }}}}}}}},
        "components": {"schemas": {"Card": {
            "type": "object",
            "required": ["url", "authors"],
            "properties": {"url": {"type": "string"}, "authors": {"type": "array"}}
        }}}
    });
    let api = OpenApi::from_json(&doc.to_string()).unwrap();
    expect_valid(&api.validate("GET", "/s", 200, &json!({"card": null})));
    let v = api.validate(
        "GET",
        "/s",
        200,
        &json!({"card": {"url": "https://a.example/"}}),
    );
    let (_, errors) = expect_invalid(&v);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(
            "/card: matches none of the 2 alternatives; the closest fails with: /card: "
        ) && errors[0].contains("\"authors\" is a required property")
            && !errors[0].contains("a.example"),
        "{errors:?}"
    );
    let v = api.validate("GET", "/s", 200, &json!({"card": {"authors": "nobody"}}));
    let (_, errors) = expect_invalid(&v);
    assert!(
        errors[0].contains("\"url\" is a required property")
            && errors[0].contains("/card/authors: \"nobody\" is not of type \"array\""),
        "{errors:?}"
    );
}
