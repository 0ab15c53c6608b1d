//! `fedblog-server search reindex`: statuses the index lacks become findable, an interrupted
//! run resumes after the position it saved, and a finished run clears it.

use std::process::Command;

use fedblog_core::Id;
use fedblog_core::search_query::{In, Text};
use fedblog_core::services::statuses::NewStatus;
use fedblog_core::store::StatusSearch;
use fedblog_server::serve::{build_app, open_store};
use fedblog_server::settings::SettingsArgs;
use sea_orm::ConnectionTrait;

const BIN: &str = env!("CARGO_BIN_EXE_fedblog-server");

/// Runs `search reindex` (with `--restart` if asked) on the data folder; its standard output.
fn reindex(dir: &std::path::Path, restart: bool) -> String {
    let mut cmd = Command::new(BIN);
    cmd.args(["search", "reindex"]);
    if restart {
        cmd.arg("--restart");
    }
    let out = cmd
        .env("FEDBLOG_DATA_DIR", dir)
        .env("FEDBLOG_LOG", "warn")
        .output()
        .expect("run fedblog-server");
    assert!(
        out.status.success(),
        "search reindex failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The count in the command's `indexed N statuses` line.
fn indexed(stdout: &str) -> u64 {
    stdout
        .split_whitespace()
        .skip_while(|w| *w != "indexed")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `indexed N statuses` line in {stdout:?}"))
}

#[tokio::test]
async fn reindex_fills_the_index_and_resumes_where_it_stopped() {
    let dir = std::env::temp_dir().join(format!(
        "fedblog-reindex-{}-{}",
        std::process::id(),
        chrono::Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let settings = SettingsArgs {
        data_dir: Some(dir.clone()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    let app = build_app(&settings).await.expect("app");
    let (me, _, _) = app
        .accounts()
        .create_local_account(
            fedblog_core::services::accounts::NewAccount {
                username: "indexer".into(),
                email: "indexer@example.com".into(),
                password: "correct horse battery".into(),
                role: fedblog_core::store::Role::User,
                confirmed: true,
                approved: true,
                locale: "en".into(),
            },
            false,
        )
        .await
        .expect("account");
    let mut posted = vec![];
    for n in 0..5 {
        let new = NewStatus {
            text: format!("numbat number{n}"),
            ..Default::default()
        };
        let s = app
            .statuses()
            .publish_status(&me, None, None, new)
            .await
            .expect("post");
        posted.push(s.id);
    }
    let search = |word: &str| StatusSearch {
        searcher: me.id,
        scope: In::All,
        must: vec![Text::Word(word.into())],
        must_not: vec![],
        conditions: vec![],
        max_id: None,
        min_id: None,
        offset: 0,
        limit: 20,
    };
    let found = app.store.search_statuses(&search("numbat")).await.unwrap();
    assert_eq!(found.len(), 5, "posts are indexed as they are made");

    // An index that lost its rows (as after a restore from a backup without it).
    let store = open_store(&settings).await.expect("store");
    store
        .connection()
        .execute_unprepared("DELETE FROM status_search")
        .await
        .expect("empty the index");
    assert!(
        app.store
            .search_statuses(&search("numbat"))
            .await
            .unwrap()
            .is_empty()
    );

    // An interrupted run: the position after the second status was saved.
    store
        .save_reindex_position(Some(posted[1]))
        .await
        .expect("save position");
    let out = reindex(&dir, false);
    assert_eq!(
        indexed(&out),
        3,
        "a run resumes after the saved position: {out}"
    );
    let found = app.store.search_statuses(&search("numbat")).await.unwrap();
    let mut expected: Vec<Id> = posted[2..].to_vec();
    expected.reverse();
    assert_eq!(
        found, expected,
        "the statuses after the position are indexed"
    );
    assert_eq!(
        store.reindex_position().await.expect("position"),
        None,
        "a finished run clears the position"
    );

    // A full run indexes every status again.
    store
        .save_reindex_position(Some(posted[3]))
        .await
        .expect("save position");
    let out = reindex(&dir, true);
    assert_eq!(
        indexed(&out),
        5,
        "--restart starts from the first status: {out}"
    );
    assert_eq!(
        app.store
            .search_statuses(&search("numbat"))
            .await
            .unwrap()
            .len(),
        5
    );
    assert_eq!(
        app.store.search_statuses(&search("number0")).await.unwrap(),
        vec![posted[0]]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
