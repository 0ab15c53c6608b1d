//! The Web Push (VAPID) key: made on first start and kept in the database, so that a restart
//! keeps the subscriptions working; or the one `FEDBLOG_VAPID_PRIVATE_KEY` gives (a key that
//! cannot be read stops the start with a message).

use chrono::Utc;
use fedblog_server::serve::build_app;
use fedblog_server::settings::SettingsArgs;

fn data_dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "fedblog-vapid-{name}-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ))
}

#[tokio::test]
async fn the_key_made_on_first_start_is_kept_and_a_given_one_wins() {
    let dir = data_dir("kept");
    let settings = SettingsArgs {
        data_dir: Some(dir.clone()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    let first = build_app(&settings).await.expect("first start");
    let key = first.vapid.public_key();
    assert_eq!(
        key.len(),
        88,
        "an uncompressed P-256 point, padded base64url: {key}"
    );
    drop(first);
    let again = build_app(&settings).await.expect("second start");
    assert_eq!(again.vapid.public_key(), key, "the key survives a restart");

    let given = fedblog_core::push::VapidKey::generate();
    let settings = SettingsArgs {
        data_dir: Some(dir.clone()),
        vapid_private_key: Some(given.private_key()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    let app = build_app(&settings).await.expect("given key");
    assert_eq!(app.vapid.public_key(), given.public_key());
    assert_ne!(app.vapid.public_key(), key);

    let settings = SettingsArgs {
        data_dir: Some(dir.clone()),
        vapid_private_key: Some("not a key".into()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    let e = build_app(&settings)
        .await
        .err()
        .expect("a bad key stops the start");
    assert!(e.contains("FEDBLOG_VAPID_PRIVATE_KEY"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
