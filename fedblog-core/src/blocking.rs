//! The [`Blocking`] port: where CPU-heavy work (password hashing) runs, so that it neither
//! stalls the async workers serving other requests nor runs more at once than the machine has
//! cores for. Core has no runtime; the server supplies one built on its thread pool.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

/// A piece of blocking work.
pub type Work = Box<dyn FnOnce() + Send + 'static>;

/// Runs blocking work.
#[async_trait]
pub trait Blocking: Send + Sync {
    /// Runs `work` to its end (waiting for a free place first, if the implementation bounds them).
    async fn run(&self, work: Work);
}

/// Runs work in place, on the calling task (the default for embedders without a runtime to
/// hand it to).
pub struct Inline;

#[async_trait]
impl Blocking for Inline {
    async fn run(&self, work: Work) {
        work()
    }
}

/// Runs `f` through `blocking` and returns its value (`None` if the work did not finish, e.g.
/// because it panicked on another thread).
pub async fn run<T: Send + 'static>(
    blocking: &dyn Blocking,
    f: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let slot = Arc::new(Mutex::new(None));
    let out = slot.clone();
    blocking
        .run(Box::new(move || {
            let value = f();
            if let Ok(mut s) = out.lock() {
                *s = Some(value);
            }
        }))
        .await;
    slot.lock().ok().and_then(|mut s| s.take())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn inline_work_returns_its_value() {
        assert_eq!(run(&Inline, || 6 * 7).await, Some(42));
    }
}
