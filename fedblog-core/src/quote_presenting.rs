//! Presenting quote posts: fills the `quote`, `quote_approval` and `quotes_count` of statuses
//! already rendered, from what the quotes area loads for the page (one read per kind) and the
//! quoted statuses rendered for the same viewer. A quoted status shows its own quote shallow
//! (the quoted status's id only), as Mastodon's `ShallowQuote`.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use crate::app::App;
use crate::entities::{Quote, QuoteApproval, ShallowQuote, Status, StatusQuote};
use crate::error::ApiResult;
use crate::id::Id;
use crate::services::quotes::QuoteViews;
use crate::store::{AccountRecord, QuoteState, StatusRecord};

/// The boxed future [`attach`] answers: quoted statuses are rendered by the same path, which
/// comes back here, and the box (declared `Send`) ends that recursion of types.
pub(crate) type Attaching<'a> = Pin<Box<dyn Future<Output = ApiResult<()>> + Send + 'a>>;

/// Fills the quote fields of `rendered`, the statuses `statuses` (with the reblogged
/// `originals`) rendered for `viewer`.
pub(crate) fn attach<'a>(
    app: &'a App,
    rendered: &'a mut [Status],
    statuses: &'a [StatusRecord],
    originals: &'a HashMap<Id, StatusRecord>,
    viewer: Option<&'a AccountRecord>,
) -> Attaching<'a> {
    Box::pin(async move {
        if rendered.is_empty() {
            return Ok(());
        }
        let records: Vec<&StatusRecord> = statuses.iter().chain(originals.values()).collect();
        let views = app.quotes().views(&records, viewer).await?;
        let quoted: HashMap<Id, Status> = if views.visible_quoted.is_empty() {
            HashMap::new()
        } else {
            app.render_statuses(&views.visible_quoted, viewer, false)
                .await?
                .into_iter()
                .map(|mut s| {
                    shallow(&mut s);
                    (s.id, s)
                })
                .collect()
        };
        for s in rendered.iter_mut() {
            fill(s, &views, &quoted);
            if let Some(original) = s.reblog.as_deref_mut() {
                fill(original, &views, &quoted);
                s.quote_approval = original.quote_approval.clone();
            }
        }
        Ok(())
    })
}

/// Turns a quoted status's own quote into a shallow one.
fn shallow(s: &mut Status) {
    if let Some(StatusQuote::Full(q)) = s.quote.take() {
        s.quote = Some(StatusQuote::Shallow(ShallowQuote {
            state: q.state,
            quoted_status_id: q.quoted_status.map(|q| q.id),
        }));
    }
}

/// Fills one status's quote fields from `views`.
fn fill(s: &mut Status, views: &QuoteViews, quoted: &HashMap<Id, Status>) {
    if let Some((automatic, manual, current)) = views.approvals.get(&s.id) {
        s.quote_approval = Some(QuoteApproval {
            automatic: automatic.clone(),
            manual: manual.clone(),
            current_user: current.as_str().to_string(),
        });
    }
    s.quotes_count = views.counts.get(&s.id).copied().unwrap_or(0);
    let Some(q) = views.quotes.get(&s.id) else {
        return;
    };
    let (state, shown) = if q.state != QuoteState::Accepted {
        (q.state.as_str(), None)
    } else {
        match q.quoted_status_id {
            None => ("deleted", None),
            Some(id) if views.deleted_quoted.contains(&id) => ("deleted", None),
            Some(id) => match quoted.get(&id) {
                Some(status) => ("accepted", Some(Box::new(status.clone()))),
                None => ("unauthorized", None),
            },
        }
    };
    s.quote = Some(StatusQuote::Full(Quote {
        state: state.to_string(),
        quoted_status: shown,
    }));
}
