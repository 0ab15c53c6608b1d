//! The event bus: the in-process bus through the `EventBus` trait object, and `PgEventBus`
//! delivering across processes (run when `FEDBLOG_TEST_DATABASE_URL` names a PostgreSQL
//! database).

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fedblog_core::events::{Event, EventBus, InProcessBus, Subscription};
use fedblog_server::store::pg_events::{MAX_NOTIFY_PAYLOAD_BYTES, PgEventBus};
use fedblog_server::store::{ConnectSettings, admin, connect};

/// A tag unique to this test run, so events of other runs sharing the database are ignored.
fn run_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("{}-{nanos}", std::process::id())
}

/// The next event of stream `stream`, skipping others; panics after 10 s.
async fn next_of(sub: &mut Subscription, stream: &str) -> Event {
    let wait = async {
        loop {
            match sub.recv().await {
                Some(event) if event.stream == stream => return event,
                Some(_) => continue,
                None => panic!("the subscription ended"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), wait)
        .await
        .unwrap_or_else(|_| panic!("no event of {stream} within 10 s"))
}

#[tokio::test]
async fn in_process_bus_through_the_trait_object() {
    let bus: Arc<dyn EventBus> = Arc::new(InProcessBus::new());
    let mut first = bus.subscribe();
    let mut second = bus.subscribe();
    let events: Vec<Event> = (0..3)
        .map(|n| Event::new("public", "update", format!("{{\"id\":\"{n}\"}}")))
        .collect();
    for event in &events {
        bus.publish(event.clone()).await.expect("publish");
    }
    for sub in [&mut first, &mut second] {
        for event in &events {
            assert_eq!(&next_of(sub, "public").await, event);
        }
        assert_eq!(sub.try_recv(), None, "each event exactly once");
    }
    drop(first);
    bus.publish(Event::new("public", "delete", "1"))
        .await
        .expect("publish after a subscriber left");
    assert_eq!(
        next_of(&mut second, "public").await,
        Event::new("public", "delete", "1")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_bus_delivers_across_processes_exactly_once_in_order() {
    let Ok(url) = std::env::var("FEDBLOG_TEST_DATABASE_URL") else {
        // In CI a PostgreSQL test that does not run is a failure, never a silent pass.
        assert!(
            std::env::var_os("CI").is_none(),
            "the event_bus postgres test must run in CI: set FEDBLOG_TEST_DATABASE_URL"
        );
        println!("event_bus postgres test did not run: set FEDBLOG_TEST_DATABASE_URL");
        return;
    };
    let run = run_id();
    let stream = format!("test:{run}");
    // A migrated database of its own: large events go by reference through one of its tables.
    let name = format!("fedblog_bus_{}", run.replace('-', "_"));
    let admin_url = url;
    let url = admin::create_database(&admin_url, &name)
        .await
        .expect("create database");
    connect(&url, &ConnectSettings::default())
        .await
        .expect("connect")
        .migrate()
        .await
        .expect("migrate");

    // Two buses, as two server processes would have.
    let a: Arc<dyn EventBus> = Arc::new(PgEventBus::connect(&url).await.expect("connect A"));
    let b: Arc<dyn EventBus> = Arc::new(PgEventBus::connect(&url).await.expect("connect B"));
    let mut on_a = a.subscribe();
    let mut on_b = b.subscribe();

    let sent: Vec<Event> = (0..50)
        .map(|n| Event::new(stream.clone(), "update", format!("{{\"n\":{n}}}")))
        .collect();
    for event in &sent {
        a.publish(event.clone()).await.expect("publish on A");
    }
    // Published on B after A's events committed: it must come last on both sides, and proves
    // that nothing was delivered twice before it.
    let end = Event::new(stream.clone(), "delete", "end");
    b.publish(end.clone()).await.expect("publish on B");

    for (name, sub) in [("A", &mut on_a), ("B", &mut on_b)] {
        let mut got = Vec::new();
        loop {
            let event = next_of(sub, &stream).await;
            let last = event == end;
            got.push(event);
            if last {
                break;
            }
        }
        let mut expected = sent.clone();
        expected.push(end.clone());
        assert_eq!(
            got, expected,
            "subscriber on {name}: every event once, in order"
        );
    }

    // The payload limit: the largest event that fits goes as the notification itself; one byte
    // more, and much more, go by reference, and arrive all the same, in order.
    let overhead = serde_json::to_string(&Event::new(stream.clone(), "update", ""))
        .expect("encode")
        .len();
    let large = [
        MAX_NOTIFY_PAYLOAD_BYTES - overhead,
        MAX_NOTIFY_PAYLOAD_BYTES - overhead + 1,
        100_000,
    ]
    .map(|n| Event::new(stream.clone(), "update", "x".repeat(n)));
    for event in &large {
        a.publish(event.clone()).await.expect("a large payload");
    }
    let after = Event::new(stream.clone(), "delete", "after");
    b.publish(after.clone()).await.expect("publish on B");
    for sub in [&mut on_a, &mut on_b] {
        for event in large.iter().chain([&after]) {
            assert_eq!(&next_of(sub, &stream).await, event);
        }
    }

    // Dropping a bus ends its subscriptions; the other bus carries on.
    drop(a);
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        while on_a.recv().await.is_some() {}
    })
    .await;
    assert!(ended.is_ok(), "subscriptions of a dropped bus end");
    let last = Event::new(stream.clone(), "update", "last");
    b.publish(last.clone()).await.expect("publish on B");
    assert_eq!(next_of(&mut on_b, &stream).await, last);
    drop((b, on_a, on_b));
    admin::drop_database(&admin_url, &name)
        .await
        .expect("drop database");
}
