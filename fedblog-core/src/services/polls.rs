//! Polls: reading a poll through the visibility of its status, and voting (valid choices, one
//! vote per account, none after expiry, none on one's own poll; a vote in another server's poll
//! is also sent there). Polls are created with their status (`services/statuses.rs`); notifying
//! voters when a poll ends belongs with notifications; votes and tallies from other servers with
//! the remote statuses (`services/remote.rs`).

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::services::outbox::Outbox;
use crate::services::visibility::VisibilityRule;
use crate::store::{AccountRecord, PollRecord, PollStore, StatusRecord};

/// A 422 about the choices of a vote.
fn choice_error(msg: &str) -> ApiError {
    ApiError::invalid_field("choices", "ERR_INVALID", msg)
}

/// Whether a poll has ended at `now`.
pub fn poll_expired(poll: &PollRecord, now: chrono::DateTime<chrono::Utc>) -> bool {
    poll.expires_at.is_some_and(|t| t <= now)
}

/// The polls area: `app.polls()`. It holds the poll store, the visibility rule a poll's status
/// is read through, the outbox a vote in a remote poll goes out through, and the time votes are
/// judged at.
pub struct Polls<'a> {
    store: &'a dyn PollStore,
    visibility: VisibilityRule<'a>,
    outbox: Outbox<'a>,
    now: DateTime<Utc>,
}

impl<'a> Polls<'a> {
    /// The area over `store`, reading statuses through `visibility`, telling other servers
    /// through `outbox`, judging at `now`.
    pub fn new(
        store: &'a dyn PollStore,
        visibility: VisibilityRule<'a>,
        outbox: Outbox<'a>,
        now: DateTime<Utc>,
    ) -> Self {
        Polls {
            store,
            visibility,
            outbox,
            now,
        }
    }

    /// The poll with this id, when the viewer may see its status; 404 otherwise (an anonymous
    /// caller gets 404 for the poll of a followers-only or direct status, never the poll).
    pub async fn visible_poll(
        &self,
        viewer: Option<&AccountRecord>,
        id: Id,
    ) -> ApiResult<PollRecord> {
        Ok(self.visible_poll_and_status(viewer, id).await?.0)
    }

    /// [`Polls::visible_poll`], with its status.
    async fn visible_poll_and_status(
        &self,
        viewer: Option<&AccountRecord>,
        id: Id,
    ) -> ApiResult<(PollRecord, StatusRecord)> {
        let poll = self
            .store
            .poll_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let status = self
            .visibility
            .visible_status(viewer, poll.status_id)
            .await?;
        Ok((poll, status))
    }

    /// `me` votes in a poll it may see (else 404) and gets the poll as it is afterwards.
    /// `choices` are option indexes (0-based, as text or numbers): at least one, each a valid
    /// index, all different, and one only unless the poll is `multiple`; the author cannot vote
    /// in its own poll; a second vote and a vote after the poll ended are refused; all of these
    /// are 422s and change nothing. A vote in a remote status's poll counts here at once and is
    /// sent to the poll's author, one activity per choice; a vote in a local poll sends its new
    /// totals to the servers that have it (unless they are hidden), as a remote vote does.
    pub async fn vote_in_poll(
        &self,
        me: &AccountRecord,
        id: Id,
        choices: &[String],
    ) -> ApiResult<PollRecord> {
        let (poll, status) = self.visible_poll_and_status(Some(me), id).await?;
        if poll.account_id == me.id {
            return Err(choice_error("You cannot vote in your own poll"));
        }
        if poll_expired(&poll, self.now) {
            return Err(choice_error("The poll has already ended"));
        }
        if choices.is_empty() {
            return Err(choice_error("Choices can't be blank"));
        }
        let mut chosen: Vec<usize> = Vec::with_capacity(choices.len());
        for c in choices {
            let index = c
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|i| *i < poll.options.len())
                .ok_or_else(|| choice_error("Choices must be indexes of the poll's options"))?;
            if chosen.contains(&index) {
                return Err(choice_error("Choices must all be different"));
            }
            chosen.push(index);
        }
        if chosen.len() > 1 && !poll.multiple {
            return Err(choice_error("This poll allows one choice only"));
        }
        if !self.store.poll_votes_of(poll.id, me.id).await?.is_empty() {
            return Err(choice_error("You have already voted"));
        }
        match self.store.insert_poll_votes(poll.id, me.id, &chosen).await {
            Ok(()) => {}
            // Two votes raced: the other one counted.
            Err(crate::StoreError::AlreadyExists(_)) => {
                return Err(choice_error("You have already voted"));
            }
            Err(crate::StoreError::NotFound) => return Err(ApiError::not_found()),
            Err(e) => return Err(e.into()),
        }
        if !status.local {
            self.outbox.voted(me, &status, &poll, &chosen).await?;
        } else if !poll.hide_totals {
            // The servers with a copy see the new totals, as after a remote vote.
            self.outbox.poll_updated(&status, &poll).await?;
        }
        self.store
            .poll_by_id(poll.id)
            .await?
            .ok_or_else(ApiError::not_found)
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;
    use serde_json::json;

    use crate::App;
    use crate::store::{AccountRecord, StatusRecord};
    use crate::test_support::{account, ended_poll, poll_of};

    fn app() -> App {
        crate::test_support::app("polls.test")
    }

    async fn post(app: &App, author: &AccountRecord, poll: serde_json::Value) -> StatusRecord {
        crate::test_support::post(app, author, "which one?", Some(poll)).await
    }

    #[tokio::test]
    async fn no_vote_after_expiry() {
        let app = app();
        let author = account(&app, "asker").await;
        let voter = account(&app, "voter").await;
        let (_, poll) = ended_poll(&app, &author).await;
        let err = app
            .polls()
            .vote_in_poll(&voter, poll.id, &["0".into()])
            .await
            .unwrap_err();
        assert_eq!(err.status.as_u16(), 422, "{err:?}");
        assert!(
            app.store
                .poll_votes_of(poll.id, voter.id)
                .await
                .unwrap()
                .is_empty()
        );
        let rendered = app.render_poll(&poll, Some(&voter), vec![]);
        assert!(rendered.expired);
        assert_eq!(rendered.voted, Some(false));
    }

    #[tokio::test]
    async fn hidden_totals_show_to_the_author_and_after_the_end() {
        let app = app();
        let author = account(&app, "hider").await;
        let voter = account(&app, "counter").await;
        let status = post(
            &app,
            &author,
            json!({"options": ["a", "b"], "expires_in": "600", "hide_totals": "true"}),
        )
        .await;
        let poll = poll_of(&app, &status).await;
        let after = app
            .polls()
            .vote_in_poll(&voter, poll.id, &["1".into()])
            .await
            .unwrap();
        let seen = app.render_poll(&after, Some(&voter), vec![1]);
        assert_eq!(seen.votes_count, 1);
        assert!(seen.options.iter().all(|o| o.votes_count.is_none()));
        assert_eq!(seen.own_votes, Some(vec![1]));
        let own = app.render_poll(&after, Some(&author), vec![]);
        assert_eq!(own.options[1].votes_count, Some(1));
        assert_eq!(own.voted, Some(true));
        let mut ended = after.clone();
        ended.expires_at = Some(app.now() - Duration::seconds(1));
        let anonymous = app.render_poll(&ended, None, vec![]);
        assert_eq!(anonymous.options[1].votes_count, Some(1));
        assert_eq!(anonymous.voted, None);
        assert_eq!(anonymous.voters_count, None);
    }

    #[test]
    fn poll_parameters_are_checked() {
        let app = app();
        let ok = |v: serde_json::Value| app.statuses().check_poll(Some(&v));
        let p = ok(json!({"options": [" a ", "b"], "expires_in": "300", "multiple": "1"}))
            .unwrap()
            .unwrap();
        assert_eq!(p.options, vec!["a", "b"]);
        assert!(p.multiple && !p.hide_totals);
        assert_eq!(p.expires_in, 300);
        assert!(ok(json!({"options": {"1": "b", "0": "a"}, "expires_in": 2_629_746})).is_ok());
        assert_eq!(app.statuses().check_poll(None).unwrap(), None);
        assert_eq!(app.statuses().check_poll(Some(&json!(null))).unwrap(), None);
        assert_eq!(app.statuses().check_poll(Some(&json!(""))).unwrap(), None);
        for bad in [
            json!({"options": ["a"], "expires_in": 300}),
            json!({"options": ["a", "b", "c", "d", "e"], "expires_in": 300}),
            json!({"options": ["a", "a "], "expires_in": 300}),
            json!({"options": ["a", "  "], "expires_in": 300}),
            json!({"options": ["a", "x".repeat(51)], "expires_in": 300}),
            json!({"options": ["a", "b"], "expires_in": 299}),
            json!({"options": ["a", "b"], "expires_in": 2_629_747}),
            json!({"options": ["a", "b"]}),
            json!({"options": ["a", "b"], "expires_in": "soon"}),
            json!({"options": ["a", {"x": 1}], "expires_in": 300}),
            json!("yes"),
        ] {
            let e = app.statuses().check_poll(Some(&bad)).unwrap_err();
            assert_eq!(e.status.as_u16(), 422, "{bad}");
        }
        assert!(ok(json!({"options": ["a", "é".repeat(50)], "expires_in": 300})).is_ok());
    }
}
