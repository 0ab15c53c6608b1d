//! Tidy: the layering and honesty rules of ARCHITECTURE.md that a machine can check.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("workspace root")
}

/// The workspace members, each a folder at the top level (the design's shape: the three crates
/// and the examples, beside `Cargo.toml` and `README.md`).
const TOP_LEVEL_MEMBERS: [&str; 4] = [
    "examples",
    "fedblog-core",
    "fedblog-server",
    "fedblog-testkit",
];

#[test]
fn the_workspace_is_the_three_crates_and_the_examples_at_the_top_level() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let members = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members = "))
        .expect("a members line in the workspace Cargo.toml");
    let mut listed: Vec<&str> = members
        .trim_matches(['[', ']'])
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect();
    listed.sort_unstable();
    assert_eq!(listed, TOP_LEVEL_MEMBERS, "workspace members");
    for file in ["README.md", "ARCHITECTURE.md", "Cargo.lock", ".ci/run"] {
        assert!(
            root().join(file).is_file(),
            "{file} is missing at the top level"
        );
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

fn all_sources() -> Vec<(String, String)> {
    let root = root();
    let mut files = Vec::new();
    for dir in TOP_LEVEL_MEMBERS {
        assert!(
            root.join(dir).is_dir(),
            "{dir}/ is missing at the top level"
        );
        rust_files(&root.join(dir), &mut files);
    }
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .expect("inside root")
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).expect("read source"))
        })
        .collect()
}

/// The `[dependencies]` section of a Cargo.toml.
fn dependencies(manifest: &str) -> String {
    let mut out = String::new();
    let mut on = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            on = line.trim() == "[dependencies]";
            continue;
        }
        if on {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn core_depends_on_no_web_framework_orm_or_http_client() {
    let manifest =
        std::fs::read_to_string(root().join("fedblog-core/Cargo.toml")).expect("core manifest");
    let deps = dependencies(&manifest);
    for banned in [
        "warp",
        "hyper",
        "axum",
        "actix",
        "sea-orm",
        "sqlx",
        "diesel",
        "reqwest",
        "tokio",
        "fedblog-server",
        "fedblog-testkit",
    ] {
        assert!(
            !deps
                .lines()
                .any(|l| l.split(['=', ' ', '.']).next() == Some(banned)),
            "fedblog-core must not depend on {banned}"
        );
    }
}

#[test]
fn only_the_store_module_names_sea_orm_and_only_the_http_module_names_warp() {
    for (path, text) in all_sources() {
        if path.ends_with("tests/tidy.rs") {
            continue;
        }
        if text.contains("sea_orm::") || text.contains("use sea_orm") {
            assert!(
                path.starts_with("fedblog-server/src/store/")
                    || path.starts_with("fedblog-server/tests/store_")
                    // The benchmarks seed their databases with SQL, for speed.
                    || path.starts_with("fedblog-server/benches/"),
                "{path} names sea_orm; only the server's store module may"
            );
        }
        if text.contains("warp::") || text.contains("use warp") {
            assert!(
                path.starts_with("fedblog-server/src/http/"),
                "{path} names warp; only the server's http module may"
            );
        }
    }
}

#[test]
fn api_paths_are_written_once_in_core_declarations() {
    for (path, text) in all_sources() {
        // The OpenAPI validator's tests match paths of the third-party schema, not our declarations.
        let exempt = [
            "fedblog-testkit/src/openapi.rs",
            "fedblog-testkit/tests/openapi_validator.rs",
        ];
        if path.starts_with("fedblog-core/src/api/")
            || path == "fedblog-core/src/endpoint.rs"
            || path.ends_with("tests/tidy.rs")
            || exempt.contains(&path.as_str())
        {
            continue;
        }
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim_start().starts_with("//"))
        {
            assert!(
                !line.contains("\"/api/") && !line.contains("\"/oauth/"),
                "{path}:{}: a literal API path; use the endpoint declarations of fedblog-core",
                n + 1
            );
        }
    }
}

#[test]
fn store_records_carry_no_serde() {
    let text =
        std::fs::read_to_string(root().join("fedblog-core/src/store/records.rs")).expect("records");
    assert!(
        !text.contains("Serialize") && !text.contains("Deserialize"),
        "store records must not derive serde; render.rs turns them into entities"
    );
}

#[test]
fn entities_are_built_only_in_render() {
    for (path, text) in all_sources() {
        if !path.starts_with("fedblog-core/src/")
            || path.ends_with("render.rs")
            || path.ends_with("entities.rs")
        {
            continue;
        }
        for ctor in ["Account {", "Status {", "CredentialAccount {"] {
            let hit = text.lines().any(|l| {
                let t = l.trim_start();
                (t.contains(&format!(" {ctor}")) || t.starts_with(ctor))
                    && !t.starts_with("//")
                    && !t.contains("struct ")
                    && !t.contains("Record {")
            });
            assert!(
                !hit,
                "{path} builds an API entity ({ctor}...); only render.rs may"
            );
        }
    }
}

/// Services load and decide; API entities are made by render (and by `presenting.rs`, which
/// loads what render needs and hands it over). One exception: a scheduled status keeps its
/// `params` in the API's own shape, as Mastodon stores them, so `scheduled.rs` names that type.
#[test]
fn services_make_no_api_entities() {
    for (path, text) in all_sources() {
        let Some(file) = path.strip_prefix("fedblog-core/src/services/") else {
            continue;
        };
        if file == "presenting.rs" || file.ends_with("_tests.rs") {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let allowed = (file == "scheduled.rs").then_some("crate::entities::ScheduledParams;");
        let named = code
            .lines()
            .filter(|l| l.contains("crate::entities") && allowed.is_none_or(|a| !l.contains(a)))
            .count();
        assert_eq!(
            named, 0,
            "{path} names crate::entities: a service returns records or loaded views, render makes entities"
        );
    }
}

/// The API layer (`api/` and the `endpoint` vocabulary it speaks) is the top of core: app,
/// services, render and the store never name it, so no import cycle runs through the endpoints
/// and an endpoint file can be read without the rest of the route table.
#[test]
fn nothing_below_the_api_layer_names_it() {
    for (path, text) in all_sources() {
        let Some(module) = path.strip_prefix("fedblog-core/src/") else {
            continue;
        };
        if module.starts_with("api/") || module == "endpoint.rs" || module.ends_with("_tests.rs") {
            continue;
        }
        // Unit tests at the end of a file may drive requests through the API.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for layer in ["crate::api", "crate::endpoint"] {
            assert!(
                !code.contains(layer),
                "{path} names {layer}: only the API layer may (dispatch lives in api/dispatch.rs)"
            );
        }
    }
}

/// The areas already moved to the area-service shape (ARCHITECTURE.md, "Adding a new area"):
/// each holds the store traits it uses and names neither `App` nor render. An area that moves
/// joins the list; none leaves it.
const AREA_SERVICES: &[&str] = &[
    "crypto",
    "markers",
    "announcements",
    "server_blocks",
    "reports",
    "moderation",
    "conversations",
    "rate_limits",
    "visibility",
    "polls",
    "instance",
    "translation",
    "timelines",
    "links",
    "cards",
    "filters",
    "discovery",
    "notification_policies",
    "lists",
    "blocks",
    "media",
    "oauth",
    "notifications",
    "notification_groups",
    "interactions",
    "accounts",
    "fanout",
    "relationships",
    "tags",
    "statuses",
    "edits",
    "scheduled",
    "streaming",
    "webfinger",
    "federation",
    "outbox",
    "remote",
    "moves",
    "metrics",
    "trends",
    "web_push",
    "custom_emojis",
    "quotes",
];

/// The modules of core a module names (`crate::x` or `crate::x::y`, down to the deepest one that
/// exists), outside its unit tests.
fn core_module_graph() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut texts = std::collections::BTreeMap::new();
    for (path, text) in all_sources() {
        let Some(file) = path.strip_prefix("fedblog-core/src/") else {
            continue;
        };
        let module = file
            .trim_end_matches(".rs")
            .trim_end_matches("/mod")
            .replace('/', "::");
        let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
        texts.insert(module, code);
    }
    let mut graph = std::collections::BTreeMap::new();
    for (module, code) in &texts {
        let mut named = std::collections::BTreeSet::new();
        for (at, _) in code.match_indices("crate::") {
            let path: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_' || *c == ':')
                .collect();
            let mut parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
            while !parts.is_empty() && !texts.contains_key(&parts.join("::")) {
                parts.pop();
            }
            let target = parts.join("::");
            if !target.is_empty() && &target != module {
                named.insert(target);
            }
        }
        graph.insert(module.clone(), named);
    }
    graph
}

/// The modules from which `start` can be reached, `start` included.
fn reaching(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    start: &str,
) -> std::collections::BTreeSet<String> {
    let mut seen = std::collections::BTreeSet::from([start.to_string()]);
    let mut grew = true;
    while grew {
        grew = false;
        for (module, named) in graph {
            if !seen.contains(module) && named.iter().any(|n| seen.contains(n)) {
                seen.insert(module.clone());
                grew = true;
            }
        }
    }
    seen
}

/// `app` and the area services form no import cycle: `app.rs` builds the services, and a
/// service reaches another only by holding it, never through `App`. (The API layer, above
/// them, is held out by `nothing_below_the_api_layer_names_it`.)
#[test]
fn app_and_the_services_form_no_import_cycle() {
    let graph = core_module_graph();
    assert!(graph.contains_key("app") && graph.contains_key("services::statuses"));
    for module in graph.keys() {
        if module != "app" && !module.starts_with("services::") {
            continue;
        }
        // Modules `module` names (directly or not) that also name `module`: a cycle.
        let back = reaching(&graph, module);
        let mut cycle: Vec<&String> = graph[module].iter().filter(|n| back.contains(*n)).collect();
        cycle.sort();
        assert!(
            cycle.is_empty(),
            "{module} is in an import cycle through {cycle:?}"
        );
    }
}

/// Only the services that reach every area stay methods on `App`, as dispatch does: the job
/// workers (a job's kind names its area), the stream runner (an event is rendered for each
/// listener by any area's render), the federation runner (an incoming activity is applied
/// through any area, an outgoing one rendered) and presenting (loading for render).
#[test]
fn only_the_runners_and_presenting_are_methods_on_app() {
    for (path, text) in all_sources() {
        let Some(file) = path.strip_prefix("fedblog-core/src/services/") else {
            continue;
        };
        // The federation runner keeps some activities in files of its own.
        if matches!(
            file,
            "job_runner.rs" | "stream_runner.rs" | "federation_runner.rs" | "presenting.rs"
        ) || file.starts_with("federation_runner/")
        {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        assert!(
            !code.contains("impl App"),
            "{path} adds methods to App: an area is a service value (ARCHITECTURE.md)"
        );
    }
}

#[test]
fn area_services_name_no_app() {
    for area in AREA_SERVICES {
        let path = format!("fedblog-core/src/services/{area}.rs");
        let text = std::fs::read_to_string(root().join(&path)).expect("area service");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for needle in ["crate::app", "impl App", "crate::render"] {
            assert!(
                !code.contains(needle),
                "{path} names `{needle}`: an area service holds what it uses"
            );
        }
        let accessor = format!("pub fn {area}(&self)");
        let app = std::fs::read_to_string(root().join("fedblog-core/src/app.rs")).expect("app.rs");
        assert!(
            app.contains(&accessor),
            "app.rs has no `{accessor}` accessor"
        );
    }
}

/// Render turns records already loaded into entities: it awaits nothing and reads no store
/// (`services/presenting.rs` loads what it needs, one store call per kind).
#[test]
fn render_reads_no_store() {
    let text =
        std::fs::read_to_string(root().join("fedblog-core/src/render.rs")).expect("render.rs");
    for needle in [".await", "async fn", "self.store", "Store"] {
        assert!(
            !text.contains(needle),
            "fedblog-core/src/render.rs contains `{needle}`: render takes loaded data and reads no store"
        );
    }
}

#[test]
fn every_module_says_what_it_owns() {
    for (path, text) in all_sources() {
        if path.contains("/src/") {
            assert!(
                text.trim_start().starts_with("//!"),
                "{path} must start with a `//!` sentence saying what it owns"
            );
        }
    }
}

#[test]
fn no_test_is_ignored_and_no_stub_is_reachable() {
    for (path, text) in all_sources() {
        if path.ends_with("tests/tidy.rs") {
            continue;
        }
        assert!(!text.contains("#[ignore"), "{path} ignores a test");
        assert!(
            !text.contains("todo!(") && !text.contains("unimplemented!("),
            "{path} has a stub"
        );
    }
}
