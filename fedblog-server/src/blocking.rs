//! CPU-heavy work (password hashing) on tokio's blocking threads, at most one piece per core at
//! once, so a flood of sign-in attempts neither stalls the async workers nor piles up threads.

use async_trait::async_trait;
use fedblog_core::blocking::{Blocking, Work};
use tokio::sync::Semaphore;

/// Runs blocking work with bounded concurrency.
pub struct BlockingPool {
    places: Semaphore,
}

impl BlockingPool {
    /// A pool running as many pieces at once as the machine has cores.
    pub fn per_core() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Self::new(cores)
    }

    /// A pool running at most `n` pieces at once.
    pub fn new(n: usize) -> Self {
        BlockingPool {
            places: Semaphore::new(n.max(1)),
        }
    }
}

#[async_trait]
impl Blocking for BlockingPool {
    async fn run(&self, work: Work) {
        // The semaphore is never closed, so acquiring only waits.
        let _place = self.places.acquire().await;
        if let Err(e) = tokio::task::spawn_blocking(work).await {
            tracing::error!(error = %e, "blocking work failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn at_most_n_pieces_run_at_once() {
        let pool = Arc::new(BlockingPool::new(2));
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let tasks: Vec<_> = (0..6)
            .map(|_| {
                let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    fedblog_core::blocking::run(&*pool, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(30));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for t in tasks {
            assert_eq!(t.await.unwrap(), Some(()));
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }
}
