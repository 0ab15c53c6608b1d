//! Many independent jobs (account creations, set-up requests, feed checks) run with bounded
//! concurrency, with a progress line every few seconds, stopping at the first error.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

/// How often a long step prints its progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Runs `job(0) .. job(count - 1)` on `concurrency` tasks and returns the results in index order
/// with the time taken; prints `label`'s progress and, at the end, its count and rate. The first
/// error stops the step and is returned, prefixed with the label and the job's index.
pub async fn each<T, F, Fut>(
    label: &str,
    count: usize,
    concurrency: usize,
    job: F,
) -> Result<(Vec<T>, Duration), String>
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T, String>> + Send + 'static,
    T: Send + 'static,
{
    let start = Instant::now();
    let job = Arc::new(job);
    let next = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicBool::new(false));
    let mut tasks = JoinSet::new();
    for _ in 0..concurrency.clamp(1, count.max(1)) {
        let (job, next, done, failed) = (job.clone(), next.clone(), done.clone(), failed.clone());
        let label = label.to_string();
        tasks.spawn(async move {
            let mut out = Vec::new();
            while !failed.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                match job(i).await {
                    Ok(v) => {
                        out.push((i, v));
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) => {
                        failed.store(true, Ordering::Relaxed);
                        return Err(format!("{label}, item {}: {e}", i + 1));
                    }
                }
            }
            Ok(out)
        });
    }
    let mut results: Vec<Option<T>> = (0..count).map(|_| None).collect();
    let mut first_error: Option<String> = None;
    let mut ticker =
        tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
    loop {
        tokio::select! {
            joined = tasks.join_next() => match joined {
                None => break,
                Some(Ok(Ok(items))) => {
                    for (i, v) in items {
                        results[i] = Some(v);
                    }
                }
                Some(Ok(Err(e))) => {
                    first_error.get_or_insert(e);
                }
                Some(Err(e)) => {
                    first_error.get_or_insert(format!("{label}: a task failed: {e}"));
                }
            },
            _ = ticker.tick() => {
                println!(
                    "  {label}: {}/{count} after {:.0} s",
                    done.load(Ordering::Relaxed),
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    let results: Vec<T> = results
        .into_iter()
        .collect::<Option<Vec<T>>>()
        .ok_or_else(|| format!("{label}: some items were not run"))?;
    let elapsed = start.elapsed();
    println!(
        "  {label}: {count} in {:.2} s ({:.0}/s)",
        elapsed.as_secs_f64(),
        count as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    Ok((results, elapsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn results_come_back_in_order_and_errors_stop_the_step() {
        let (out, _) = each("squares", 50, 4, |i| async move { Ok(i * i) })
            .await
            .unwrap();
        assert_eq!(out, (0..50).map(|i| i * i).collect::<Vec<_>>());
        let err = each("failing", 50, 4, |i| async move {
            if i == 7 {
                Err("boom".to_string())
            } else {
                Ok(i)
            }
        })
        .await
        .unwrap_err();
        assert_eq!(err, "failing, item 8: boom");
        let (empty, _) = each("nothing", 0, 4, |i| async move { Ok(i) })
            .await
            .unwrap();
        assert!(empty.is_empty());
    }
}
