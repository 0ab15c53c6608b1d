//! The store conformance suite: every behaviour the store traits of `fedblog-core` promise in
//! their doc comments, as one public async check per behaviour, grouped by trait.
//!
//! Any implementation of [`Store`] runs the very same checks:
//! [`MemoryStore`](fedblog_core::MemoryStore) does in this crate's `tests/store_memory.rs`, and
//! the server's sea-orm store (SQLite and PostgreSQL) does in its own test file. The model is
//! the `integration` module of arrow-rs' `object_store`.
//!
//! # Running the suite
//!
//! Add `fedblog-testkit` as a dev-dependency and invoke [`store_suite!`](crate::store_suite!)
//! at the top level of a test file of its own, with a *factory*: any expression callable with
//! no arguments that returns a future of the store under test (an `Arc<dyn Store>`, or anything
//! else that dereferences to a store). The factory is called once per check and must return a
//! fresh, **empty** store each time (a new in-memory database, or a new PostgreSQL schema).
//!
//! ```
//! fedblog_testkit::store_suite!(|| async {
//!     std::sync::Arc::new(fedblog_core::MemoryStore::new()) as std::sync::Arc<dyn fedblog_core::Store>
//! });
//! # fn main() {}
//! ```
//!
//! The invocation expands to one module per area (`accounts`, `oauth`, `statuses`, `follows`,
//! `blocks`, `feeds`, `stats`, `metrics`, `jobs`, `scheduled_statuses`, `notes`, `domain_blocks`, `tags`,
//! `directory`, `interactions`, `edits`, `polls`, `media`, `notifications`, `markers`,
//! `lists`, `tag_timelines`, `filters`, `conversations`, `links`,
//! `notification_policies`, `federation`, `search`, `moderation`, `trends`, `mail`, `crypto`), each
//! holding one `#[test]` per check, so `cargo test` reports every check by name
//! (`accounts::email_is_unique_case_insensitively ... ok`) and `cargo test feeds::` runs one
//! area. Each test runs its check on a current-thread Tokio runtime of its own, as
//! `#[tokio::test]` would; the implementing crate needs no Tokio dependency for that. The
//! generated modules `use super::*`, so the factory may call helpers of the test file.
//!
//! # Capabilities a store may lack
//!
//! A few behaviours are optional in the traits: a trait method's default gives a correct but
//! weaker answer (see [`Capability`]). The suite assumes a store has them all unless it is told
//! otherwise, explicitly:
//!
//! ```
//! fedblog_testkit::store_suite!(
//!     || async {
//!         std::sync::Arc::new(fedblog_core::MemoryStore::new()) as std::sync::Arc<dyn fedblog_core::Store>
//!     },
//!     lacks = [PreciseHasRelations],
//! );
//! # fn main() {}
//! ```
//!
//! The checks of a lacking capability still run, holding the store to the weaker promise the
//! traits make without it; nothing is skipped. They take a [`Capabilities`] argument
//! (`blocks::has_relations_is_false_without_blocks_or_mutes(&store, Capabilities::ALL)`).
//!
//! # A store of your own
//!
//! The repository's `examples/custom_store.rs` keeps its job queue in a backend of its own and
//! forwards every other trait to [`MemoryStore`](fedblog_core::MemoryStore) with
//! [`fedblog_core::delegate_store!`]; it passes the suite (`cargo test -p fedblog-examples
//! --example custom_store`). A port to a new backend can go that way, one trait at a time.
//!
//! The checks are plain functions too:
//! `store_suite::statuses::public_timeline_page_min_id(&store).await` runs one by hand, e.g.
//! while debugging; [`CHECKS`] lists them all, to run them programmatically ([`Check::run_on`]).
//!
//! # What the checks assume
//!
//! - The store is empty when a check starts, and nothing else writes to it meanwhile.
//! - Every record is made through the traits, referenced records first (apps before tokens,
//!   accounts before statuses and scheduled statuses, statuses before feed entries, real
//!   accounts in mentions), so a store with foreign keys passes.
//! - Jobs are enqueued as given, in any state, and claimed with explicit `now` and lease
//!   times; the concurrency checks race two calls with `tokio::join!` on one store, which is
//!   only a real race for stores that yield mid-call (the server's own tests add claims from
//!   separate connection pools).
//! - Mutes are read at an explicit `now`; one whose `expires_at` is at or before `now`
//!   (`expires_at <= now`) has expired, one ending a millisecond later is still in force.
//! - Tags are made with `find_or_create_tag` before they are followed or featured; statuses
//!   carry normalised tag names that need no tag made first.
//! - Media are inserted with `insert_media` (by their uploader, after the account) before a
//!   status lists them in `media_ids`; a scheduled status is inserted before media name it.
//! - Search texts and blocked domains come lower-cased, as the services pass them.
//! - Statuses are put into the full-text index with `index_statuses` after they are inserted
//!   (with their media, poll and link), as the services do; the words of full-text searches
//!   come as typed, in any case.
//! - Notifications and markers are made after the accounts (and statuses) they name; unread
//!   counts are asked with a `limit` far below `i64::MAX`, as the services ask them.
//! - Ids come from [`IdGenerator::next_at`] with explicit times, and timestamps from
//!   [`at`], so orderings are deterministic.
//!
//! A check panics with a message naming the broken contract.
//!
//! # Adding a check
//!
//! Write `pub async fn name(store: &dyn Store)` with a doc comment in the area's module, and
//! add `name` to the list in `__store_suite_for_each_check!` below the module declarations. A
//! check of an optional behaviour takes `(store: &dyn Store, capabilities: Capabilities)` too
//! and goes after `given capabilities:` at the end of its area's list.
//! `tests/store_memory.rs` fails when a public async function of an area is missing from the
//! list (the compiler catches the converse), and when a check fails against none of the faulty
//! stores defined there: add a fault that the new check catches, to show that it can fail.

use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountRecord, AppRecord, AuthorizationRecord, JobRecord, JobState, MediaKind, MediaRecord,
    Role, ScheduledStatusRecord, StatusRecord, TagRecord, TagReview, TokenRecord, UserRecord,
    Visibility,
};
use fedblog_core::{Id, IdGenerator, Store, StoreError, StoreResult};

pub mod accounts;
pub mod announcements;
pub mod blocks;
pub mod cards;
pub mod conversations;
pub mod crypto;
pub mod custom_emojis;
pub mod directory;
pub mod domain_blocks;
pub mod edits;
pub mod federation;
pub mod feeds;
pub mod filters;
pub mod follows;
pub mod interactions;
pub mod jobs;
pub mod links;
pub mod lists;
pub mod mail;
pub mod markers;
pub mod media;
pub mod metrics;
pub mod moderation;
pub mod notes;
pub mod notification_policies;
pub mod notifications;
pub mod oauth;
pub mod polls;
pub mod quotes;
pub mod scheduled_statuses;
pub mod search;
pub mod stats;
pub mod statuses;
pub mod tag_timelines;
pub mod tags;
pub mod trends;

/// The list of every check, by area: the single source of [`store_suite!`](crate::store_suite!)
/// and [`CHECKS`]. It calls the macro given in brackets with the given arguments followed by
/// `area { check, ... }` groups.
#[doc(hidden)]
#[macro_export]
macro_rules! __store_suite_for_each_check {
    ([$($callback:tt)*] $args:tt) => {
        $($callback)*! { $args
            accounts {
                local_account_round_trips,
                remote_account_round_trips,
                duplicate_account_id_is_already_exists,
                local_username_is_unique_case_insensitively,
                email_is_unique_case_insensitively,
                remote_username_is_unique_per_domain_case_insensitively,
                same_username_allowed_on_other_domains,
                racing_inserts_of_one_username_admit_one,
                lookups_of_unknown_accounts_are_none,
                accounts_by_ids_skips_unknown_and_duplicates,
                account_by_username_is_case_insensitive_and_matches_domain,
                update_account_replaces_profile_fields,
                update_account_keeps_store_maintained_fields,
                update_account_unknown_is_not_found,
                user_by_account_id_finds_local_logins_only,
                users_by_account_ids_finds_local_logins_once,
                user_by_email_is_case_insensitive,
                user_by_confirmation_token_finds_pending_token,
                update_user_replaces_all_but_created_at,
                update_user_unknown_is_not_found,
                update_user_rejects_another_users_email,
                update_user_may_keep_or_recase_own_email,
                avatar_and_header_round_trip_through_insert_and_update,
                delete_account_unknown_is_not_found,
                delete_account_removes_account_login_tokens_and_codes,
                delete_account_removes_statuses_and_feed_entries,
                delete_account_removes_follows_both_ways_fixing_counters,
                delete_account_removes_blocks_and_mutes_both_ways,
                delete_account_removes_notes_endorsements_and_dismissals_both_ways,
                delete_account_removes_domain_blocks_tags_and_scheduled_statuses,
                delete_account_removes_favourites_bookmarks_pins_and_thread_mutes,
                delete_account_removes_reblogs_both_ways_fixing_counters,
            }
            oauth {
                app_round_trips_by_id_and_client_id,
                apps_by_ids_answers_the_known_ones_once,
                lookups_of_unknown_apps_are_none,
                duplicate_client_id_is_already_exists,
                authorization_round_trips_through_take,
                authorization_is_taken_at_most_once,
                racing_takes_of_one_authorization_admit_one,
                token_round_trips_by_hash,
                token_with_owner_answers_the_token_and_what_it_acts_as,
                duplicate_token_hash_is_already_exists,
                revoke_token_succeeds_once,
                revoke_unknown_token_is_false;
                given capabilities: code_exchange_is_taken_once_before_its_end,
                push_subscriptions_are_kept_one_per_live_token,
            }
            statuses {
                status_round_trips_with_all_fields_set,
                status_round_trips_with_optional_fields_unset,
                status_timestamps_keep_milliseconds,
                duplicate_status_id_is_already_exists,
                lookups_of_unknown_statuses_are_none,
                statuses_by_ids_skips_unknown_and_duplicates,
                insert_status_counts_author_statuses,
                last_status_at_is_newest_post,
                delete_status_removes_it_and_decrements_count,
                delete_unknown_status_is_not_found,
                delete_status_removes_feed_entries,
                idempotency_key_lookup_honours_account_key_and_since,
                public_timeline_returns_complete_records,
                public_timeline_shows_only_public_statuses,
                public_timeline_hides_replies_to_others_keeps_self_replies,
                public_timeline_hides_suspended_authors,
                public_timeline_local_and_remote_filters,
                public_timeline_only_media_filter,
                public_timeline_limit_counts_visible_statuses_only,
                public_timeline_page_limit,
                public_timeline_page_max_id,
                public_timeline_page_since_id,
                public_timeline_page_min_id,
                public_timeline_page_combined_cursors,
                public_timeline_page_absent_cursors,
                account_statuses_filters_by_visibility,
                account_statuses_or_mentioning_adds_mentions_of_the_account,
                account_statuses_exclude_replies_keeps_self_replies,
                account_statuses_only_media,
                account_statuses_tagged,
                account_statuses_or_mentioning_obeys_the_other_filters,
                account_statuses_pages,
                replies_count_follows_insert_and_delete_of_replies,
                reblogs_count_follows_insert_and_delete_of_reblogs,
                duplicate_reblog_is_already_exists,
                delete_status_removes_its_favourites_bookmarks_and_pins,
                delete_status_removes_its_reblogs_with_feed_entries,
                delete_status_keeps_replies_to_it,
                public_timeline_leaves_out_reblogs,
                account_statuses_exclude_reblogs;
                given capabilities: link_reply_threads_a_reply_stored_before_its_parent,
            }
            follows {
                insert_follow_is_directional,
                insert_follow_updates_both_counters,
                insert_follow_is_idempotent,
                delete_follow_removes_and_updates_counters,
                delete_absent_follow_returns_false,
                refollow_after_unfollow,
                local_follower_ids_lists_local_followers_only,
                local_follower_ids_without_followers_is_empty,
                notified_follower_ids_lists_local_followers_asking_for_posts,
                language_restricted_followers_lists_local_followers_with_languages,
                followers_page_lists_followers_newest_follow_first,
                following_page_lists_followed_newest_follow_first,
                followers_page_cursors_are_follow_ids,
                following_page_cursors_are_follow_ids,
                insert_follow_request_is_idempotent_keeping_first_id,
                follow_requested_is_per_pair_and_directional,
                delete_follow_request_true_then_false,
                follow_requests_page_lists_requests_per_target_newest_first,
                follow_requests_page_cursors_are_request_ids,
                follow_of_returns_the_follow_with_default_options,
                upsert_follow_inserts_a_new_follow_with_counters,
                upsert_follow_updates_options_keeping_id_and_counters,
                follow_request_of_returns_the_request_with_default_options,
                upsert_follow_request_inserts_then_updates_keeping_id,
                familiar_followers_lists_followed_followers_newest_first,
                friends_of_friends_ranks_by_count_then_newest_id,
                friends_of_friends_excludes_self_and_already_followed,
                reblog_audience_filters_options_blocks_and_mutes,
            }
            blocks {
                insert_block_round_trips_and_is_idempotent_keeping_first_id,
                insert_block_removes_follows_both_ways_with_counters,
                insert_block_removes_follow_requests_both_ways,
                delete_block_true_then_false,
                blocked_either_way_matches_both_directions,
                blocks_page_lists_blocked_newest_first,
                blocks_page_cursors_are_block_ids,
                upsert_mute_inserts_then_replaces_settings_keeping_id,
                mute_of_is_none_when_expired_or_absent,
                muted_among_lists_mutes_in_force,
                relations_among_reports_blocks_both_ways_and_mutes_in_force,
                has_relations_and_relations_among_follow_blocks_and_mutes,
                mutes_page_excludes_expired_newest_first,
                mutes_page_cursors_are_mute_ids,
                delete_mute_true_then_false;
                given capabilities: has_relations_is_false_without_blocks_or_mutes,
            }
            feeds {
                home_feed_lists_entries_newest_first,
                insert_feed_entries_is_idempotent,
                insert_feed_entries_fans_out_to_many_accounts,
                insert_feed_entries_with_no_accounts_is_a_no_op,
                home_feed_is_per_account,
                home_feed_page_limit,
                home_feed_page_max_id,
                home_feed_page_since_id,
                home_feed_page_min_id,
                home_feed_page_combined_cursors,
                backfill_feed_fills_one_feed,
                remove_author_entries_clears_the_author_from_the_accounts_feeds,
                home_feed_page_absent_cursors,
            }
            stats {
                count_local_accounts_excludes_remote_and_suspended,
                count_active_local_accounts_counts_authors_since,
                count_local_statuses_excludes_remote,
                known_domains_sorted_deduplicated_lowercased,
                activity_between_counts_local_statuses,
                activity_between_counts_user_logins,
                activity_between_counts_registrations,
            }
            metrics {
                ; given capabilities: active_days_are_kept_once_per_account_and_day,
                signups_between_gives_each_login_with_its_last_active_day,
                accounts_are_counted_by_creation_and_domain,
                interactions_are_those_with_local_statuses_of_others,
                tag_events_name_authors_and_their_domains,
                server_events_count_statuses_media_and_follows,
                reports_are_timed_by_opening_and_resolution,
                dimensions_group_statuses_biggest_first_within_the_limit,
                dimensions_group_active_logins_and_followed_accounts,
                sources_name_the_application_that_signed_up,
                storage_usage_names_the_engine_and_counts_media,
                deleting_an_account_forgets_its_active_days,
            }
            jobs {
                job_round_trips_with_all_fields,
                duplicate_job_id_is_already_exists,
                claim_takes_only_due_queued_jobs,
                claim_takes_oldest_run_at_first_up_to_limit,
                claim_sets_running_attempts_and_lease,
                claimed_job_is_not_claimed_again_while_leased,
                expired_lease_is_reclaimed_by_another_worker,
                concurrent_claims_never_return_one_job_twice,
                complete_by_holder_marks_done,
                complete_by_another_worker_is_refused,
                fail_with_retry_requeues_at_retry_at,
                fail_without_retry_is_dead,
                fail_by_non_holder_is_refused,
                reschedule_moves_only_queued_jobs,
                cancel_removes_only_queued_jobs,
                purge_removes_only_done_jobs_finished_before_cutoff,
                count_jobs_per_state;
                given capabilities: release_hands_back_only_the_workers_unstarted_jobs,
            }
            scheduled_statuses {
                scheduled_status_round_trips,
                duplicate_scheduled_status_id_is_already_exists,
                scheduled_statuses_list_newest_first_per_account,
                scheduled_statuses_page_limit,
                scheduled_statuses_page_max_id,
                scheduled_statuses_page_since_id,
                scheduled_statuses_page_min_id,
                scheduled_statuses_page_combined_cursors,
                scheduled_statuses_page_absent_cursors,
                update_scheduled_status_replaces_time_and_params,
                update_unknown_scheduled_status_is_not_found,
                delete_scheduled_status_true_then_false,
            }
            notes {
                account_note_is_set_replaced_and_cleared,
                insert_endorsement_is_idempotent_keeping_first_id,
                delete_endorsement_true_then_false,
                endorsements_page_lists_newest_first_with_cursors,
                dismissed_suggestions_are_per_account_and_idempotent,
            }
            domain_blocks {
                insert_domain_block_is_idempotent_keeping_first_id,
                insert_domain_block_removes_followers_on_that_domain,
                insert_domain_block_drops_follow_requests_from_that_domain,
                delete_domain_block_true_then_false,
                domain_blocks_page_lists_newest_first_with_cursors,
            }
            tags {
                find_or_create_tag_creates_then_returns_existing,
                racing_find_or_create_tag_returns_one_tag,
                tag_usage_counts_statuses_and_distinct_accounts_in_window,
                follow_tag_is_idempotent_keeping_first_id,
                unfollow_tag_true_then_false,
                followed_tags_page_lists_newest_first_with_cursors,
                update_tag_keeps_review_and_tags_page_lists_by_id,
                insert_featured_tag_round_trips_and_rejects_duplicates,
                delete_featured_tag_removes_only_own,
                account_tag_stats_counts_public_and_unlisted_only,
                most_used_tags_orders_by_use_then_name;
                given capabilities: tags_by_prefix_orders_by_length_then_name_without_wildcards,
            }
            directory {
                search_accounts_matches_username_prefix_or_display_name_part,
                search_accounts_is_case_insensitive,
                search_accounts_treats_wildcards_literally,
                search_accounts_domain_filter,
                search_accounts_followed_by_filter,
                search_accounts_excludes_suspended,
                search_accounts_orders_exact_match_first_then_followers_then_id,
                search_accounts_offset_and_limit,
                directory_lists_only_discoverable_and_admitted_accounts,
                directory_local_only_leaves_out_remote_accounts,
                directory_order_new_lists_newest_accounts_first,
                directory_order_active_lists_recent_posters_first,
                directory_offset_and_limit,
                most_followed_local_orders_by_followers_then_oldest_id,
            }
            interactions {
                insert_favourite_counts_once_keeping_first_id,
                delete_favourite_lowers_count_true_then_false,
                favourited_among_is_per_account,
                favourites_page_lists_newest_favourite_first_with_cursors,
                favourited_by_page_lists_newest_first_with_cursors,
                insert_bookmark_is_idempotent_keeping_first_id,
                delete_bookmark_true_then_false,
                bookmarked_among_is_per_account,
                bookmarks_page_lists_newest_bookmark_first_with_cursors,
                insert_pin_is_idempotent_and_per_account,
                delete_pin_true_then_false,
                pinned_status_ids_newest_pin_first_and_pinned_among,
                reblog_by_finds_the_accounts_reblog_only,
                reblogged_among_is_per_account,
                reblogged_by_page_lists_newest_first_with_cursors,
                replies_to_lists_direct_replies_oldest_first,
                mute_conversation_is_idempotent_and_per_account,
                unmute_conversation_true_then_false,
                interactions_among_matches_the_among_methods,
            }
            edits {
                update_status_replaces_exactly_the_editable_fields,
                update_status_replaces_mentions_and_tags,
                status_edits_lists_revisions_oldest_first_across_updates,
                update_unknown_status_is_not_found,
                delete_status_removes_its_edits,
                delete_account_removes_its_statuses_edits,
            }
            polls {
                poll_round_trips_by_id_and_by_status,
                second_poll_on_a_status_or_taken_id_is_already_exists,
                votes_raise_option_counts_and_voters,
                poll_votes_among_answers_the_account_s_votes_in_those_polls,
                multiple_choice_vote_counts_each_option_and_one_voter,
                second_vote_is_already_exists_and_changes_nothing,
                vote_in_unknown_poll_is_not_found,
                racing_votes_are_all_counted_once_per_account,
                delete_status_removes_its_poll_and_votes,
                delete_account_takes_back_votes_and_removes_polls,
                replace_poll_removes_the_old_poll_and_votes_and_stores_the_new_one,
                replace_poll_keeping_the_id_starts_voting_over,
                replace_poll_adds_a_poll_or_removes_it,
                replace_poll_with_another_statuses_poll_id_is_already_exists;
                given capabilities: add_poll_choice_counts_each_choice_of_a_remote_voter_once,
                set_poll_tally_sets_counts_and_end_keeping_the_votes,
            }
            media {
                media_round_trips_by_id_and_by_ids,
                duplicate_media_id_is_already_exists,
                update_media_replaces_exactly_the_listed_fields,
                finish_media_processing_keeps_client_fields,
                update_unknown_media_is_not_found,
                delete_unattached_media_removes_free_media_once,
                delete_unattached_media_refuses_attached_and_reserved_media,
                account_media_lists_all_and_only_the_accounts_media,
                insert_status_attaches_its_media,
                insert_status_with_someone_elses_media_stores_nothing,
                insert_status_with_attached_media_stores_nothing,
                insert_status_with_unknown_media_stores_nothing,
                delete_status_detaches_its_media_and_keeps_them,
                update_status_attaches_new_media_and_keeps_dropped_ones,
                update_status_with_unattachable_media_changes_nothing,
                delete_account_removes_its_media;
                given capabilities: custom_emojis_are_kept_per_shortcode_and_domain,
            }
            notifications {
                notification_round_trips_with_every_field_and_type,
                duplicate_notification_id_is_already_exists_storing_none,
                notifications_page_lists_newest_first_with_cursors,
                notifications_page_lists_only_the_accounts_own,
                notifications_query_takes_types_and_leaves_out_exclude_types,
                notifications_query_with_empty_types_takes_nothing,
                notifications_query_from_account_takes_only_that_senders,
                notifications_query_group_key_takes_that_group,
                notifications_query_leaves_out_filtered_unless_included,
                count_notifications_counts_after_and_stops_at_limit,
                dismiss_notification_removes_only_the_accounts_own,
                dismiss_notification_group_removes_the_accounts_group_only,
                clear_notifications_removes_the_accounts_own_and_counts_them,
                retract_notifications_removes_only_the_matching_ones,
                delete_status_removes_notifications_about_it,
                delete_reblog_removes_its_reblog_notification_only,
                delete_account_removes_notifications_to_and_from_it,
            }
            markers {
                marker_round_trips_with_every_field,
                first_marker_needs_version_one,
                later_marker_needs_the_stored_version_plus_one,
                markers_lists_only_the_accounts_markers_of_the_timelines_asked,
                delete_account_removes_its_markers,
            }
            lists {
                list_round_trips_with_every_field,
                duplicate_list_id_is_already_exists,
                lists_of_lists_only_the_owners_oldest_first,
                update_list_replaces_title_policy_and_exclusive,
                delete_list_removes_it_with_members_and_feed,
                add_list_accounts_is_all_or_none,
                remove_list_accounts_removes_members_and_their_entries,
                remove_from_lists_takes_the_account_out_of_the_owners_lists,
                list_accounts_page_pages_members_by_account_id,
                lists_with_member_finds_all_or_one_owners_lists,
                list_feed_lists_its_entries_newest_first,
                list_feed_pages_by_status_id,
                delete_status_removes_list_entries,
                delete_account_removes_its_lists_and_memberships,
            }
            tag_timelines {
                tag_timeline_matches_any_all_and_none,
                tag_timeline_shows_public_statuses_and_replies_only,
                tag_timeline_local_remote_and_media_filters,
                tag_timeline_pages_by_id,
            }
            filters {
                filter_round_trips_with_its_keywords,
                filters_of_lists_oldest_first_and_unknown_are_none,
                update_filter_changes_settings_and_keywords_all_or_nothing,
                delete_filter_removes_its_keywords_and_statuses,
                filter_keywords_one_at_a_time,
                filter_statuses_once_per_filter,
                filters_go_with_their_status_and_account,
            }
            conversations {
                add_to_conversation_keys_by_thread_and_participants,
                conversations_page_by_last_status,
                unread_and_delete_act_on_one_conversation,
                delete_status_leaves_conversations,
                delete_account_removes_its_conversations,
            }
            links {
                link_timeline_lists_public_statuses_of_discoverable_accounts,
                link_timeline_filters_by_place_and_pages,
            }
            notification_policies {
                notification_policy_round_trips,
                notification_request_per_sender_counts_filtered,
                accept_notification_request_unfilters_and_permits,
                dismiss_notification_request_drops_its_notifications,
                notification_requests_page_by_id,
                delete_account_removes_policies_both_ways,
            }
            federation {
                insert_actor_key_keeps_the_first_key,
                racing_inserts_of_one_actor_key_agree_on_one,
                save_remote_actor_inserts_the_account_and_its_actor,
                save_remote_actor_refresh_keeps_id_counters_and_created_at,
                save_remote_actor_refuses_a_username_another_actor_holds,
                remote_actors_answers_the_known_ones_once,
                follower_inboxes_dedupe_shared_and_fall_back_to_own,
                status_by_uri_finds_the_status_with_that_id,
                note_activity_is_new_once_and_prune_forgets_older_ones,
                follow_uri_is_set_and_replaced_per_pair,
                host_failure_keeps_the_first_time_until_a_success,
                delete_account_removes_its_actor_key_and_follow_uris,
            }
            search {
                ; given capabilities: search_finds_whole_words_case_insensitively,
                search_finds_phrases_of_adjacent_words_in_order,
                search_requires_every_must_and_excludes_each_must_not,
                search_reads_the_indexed_text_which_indexing_again_replaces,
                library_holds_own_statuses_and_those_interacted_with,
                public_holds_public_statuses_of_indexable_authors_only,
                delete_status_takes_it_out_of_the_index,
                delete_account_takes_its_statuses_out_of_the_index,
                statuses_of_suspended_authors_are_not_found,
                reblogs_are_neither_indexed_nor_found,
                author_condition_and_its_negation,
                has_media_image_video_and_audio_conditions,
                has_poll_link_and_embed_conditions,
                is_reply_and_is_sensitive_conditions,
                language_condition_matches_the_first_part_of_the_code,
                created_condition_includes_from_and_excludes_to,
                search_pages_newest_first_with_cursors_offset_and_limit,
                indexable_status_ids_lists_non_reblogs_ascending_after_a_cursor,
            }
            moderation {
                ; given capabilities: report_round_trips_and_update_replaces_it,
                reports_lists_open_or_resolved_newest_first,
                reports_filter_by_reporter_and_target,
                reports_pages_by_id,
                account_warning_round_trips,
                admin_account_ids_filter_by_origin_and_domain,
                admin_account_ids_filter_by_status,
                admin_account_ids_filter_by_role,
                admin_account_ids_match_names_and_email_case_insensitively,
                admin_account_ids_pages_newest_first,
                rules_order_by_position_then_id_and_save_replaces,
                delete_rule_true_then_false,
                settings_are_set_replaced_and_unset,
                terms_of_service_newest_effective_date_first_one_per_date,
                instance_domain_blocks_unique_per_domain_and_replaced_by_id,
                listed_values_are_kept_per_list_and_unique_within_one,
                ip_blocks_are_saved_replaced_and_deleted,
                user_roles_order_by_position_then_id_and_save_replaces,
                delete_user_role_true_then_false,
                admin_account_ids_filter_by_custom_role,
                trend_reviews_are_kept_per_kind_and_target_and_replaced,
                trending_tags_rank_by_authors_then_uses_then_newest_tag,
                trending_status_ids_rank_by_accounts_favouriting_or_reblogging,
            }
            trends {
                ; given capabilities: trend_tag_uses_are_public_uses_by_accounts_in_good_standing,
                trend_status_candidates_count_distinct_accounts_with_reviews,
            }
            mail {
                ; given capabilities: mail_tokens_round_trip_one_per_purpose,
                reset_password_is_used_once_and_revokes_the_tokens,
                confirm_email_change_is_used_once,
                notification_emails_are_saved_and_replaced,
                delete_account_removes_mail_tokens_and_choices,
            }
            custom_emojis {
                ; given capabilities: custom_emojis_are_listed_by_filter_newest_first,
                custom_emojis_are_found_by_id_and_deleted_once,
            }
            quotes {
                ; given capabilities: quotes_round_trip_one_per_status,
                update_quote_replaces_state_and_ids,
                accepted_quotes_page_newest_first_and_count,
                quote_policies_are_set_and_replaced,
                deleting_a_status_removes_its_quote_and_policy,
                quotes_are_found_by_activity_and_approval_uri,
            }
            cards {
                ; given capabilities: preview_cards_round_trip_one_per_url,
                status_cards_are_set_replaced_and_removed_with_the_status,
                card_shares_count_public_statuses_by_day_and_account,
                card_publishers_are_one_per_domain_newest_first,
            }
            announcements {
                ; given capabilities: announcement_round_trips_and_update_replaces_it,
                announcements_list_chronologically_drafts_on_demand,
                dismissals_are_kept_once_per_account,
                reactions_are_counted_per_name_in_order_of_first_use,
                dismissals_and_reactions_go_with_announcement_and_account,
            }
            crypto {
                ; given capabilities: devices_are_kept_per_token_and_replaced,
                one_time_keys_are_counted_and_claimed_once,
                new_device_keys_drop_its_one_time_keys_and_messages,
                encrypted_messages_page_by_id_and_clear_up_to,
                revoking_the_token_or_deleting_the_account_removes_the_device,
            }
        }
    };
}

/// Runs the whole store conformance suite against a store implementation: expands to one
/// `#[test]` per check, in one module per area, each calling the factory for a fresh empty store.
///
/// The factory is any expression callable with no arguments that returns a future of something
/// dereferencing to a [`Store`] (typically `Arc<dyn Store>`). After it, `lacks = [...]` names
/// the [`Capability`]s the store goes without (none by default). See the [module
/// documentation](crate::store_suite) for examples.
#[macro_export]
macro_rules! store_suite {
    ($factory:expr $(,)?) => {
        $crate::store_suite!($factory, lacks = []);
    };
    ($factory:expr, lacks = [$($capability:ident),* $(,)?] $(,)?) => {
        $crate::__store_suite_for_each_check! {
            [$crate::__store_suite_tests]
            (
                $factory,
                $crate::store_suite::Capabilities::ALL
                    $(.lacking($crate::store_suite::Capability::$capability))*
            )
        }
    };
}

/// Expands the check list into test modules (used by [`store_suite!`](crate::store_suite!)).
#[doc(hidden)]
#[macro_export]
macro_rules! __store_suite_tests {
    (($factory:expr, $capabilities:expr)
     $($area:ident {
        $($check:ident),* $(,)?
        $(; given capabilities: $($given:ident),* $(,)?)?
     })*) => {
        $(
            #[allow(unused_imports)]
            mod $area {
                use super::*;
                $(
                    #[test]
                    fn $check() {
                        $crate::store_suite::__run(async {
                            let store = ($factory)().await;
                            $crate::store_suite::$area::$check(&*store).await;
                        });
                    }
                )*
                $($(
                    #[test]
                    fn $given() {
                        $crate::store_suite::__run(async {
                            let store = ($factory)().await;
                            $crate::store_suite::$area::$given(&*store, $capabilities).await;
                        });
                    }
                )*)?
            }
        )*
    };
}

/// Expands the check list into [`Check`]s (used by [`CHECKS`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __store_suite_table {
    (()
     $($area:ident {
        $($check:ident),* $(,)?
        $(; given capabilities: $($given:ident),* $(,)?)?
     })*) => {
        &[$(
            $(
                $crate::store_suite::Check {
                    area: stringify!($area),
                    name: stringify!($check),
                    run: {
                        fn run(
                            store: &dyn fedblog_core::Store,
                            _: $crate::store_suite::Capabilities,
                        ) -> $crate::store_suite::CheckFuture<'_> {
                            Box::pin($crate::store_suite::$area::$check(store))
                        }
                        run
                    },
                },
            )*
            $($(
                $crate::store_suite::Check {
                    area: stringify!($area),
                    name: stringify!($given),
                    run: {
                        fn run(
                            store: &dyn fedblog_core::Store,
                            capabilities: $crate::store_suite::Capabilities,
                        ) -> $crate::store_suite::CheckFuture<'_> {
                            Box::pin($crate::store_suite::$area::$given(store, capabilities))
                        }
                        run
                    },
                },
            )*)?
        )*]
    };
}

/// The future of a running check.
pub type CheckFuture<'a> = Pin<Box<dyn Future<Output = ()> + 'a>>;

/// One check of the suite, for running checks programmatically (a conformance binary, a
/// filter of one's own).
#[derive(Clone, Copy, Debug)]
pub struct Check {
    /// Its area: the module, named after the trait (`"accounts"`, `"oauth"`, ...).
    pub area: &'static str,
    /// Its name: the function in the module, naming the behaviour.
    pub name: &'static str,
    /// Runs it on a store, which must be empty, claiming the given capabilities; panics if the
    /// store breaks the contract. Only a few checks look at the capabilities.
    pub run: for<'a> fn(&'a dyn Store, Capabilities) -> CheckFuture<'a>,
}

impl Check {
    /// Runs the check on `store`, which must be empty, on a current-thread Tokio runtime of its
    /// own (as the tests of [`store_suite!`](crate::store_suite!) do); panics with the broken
    /// contract if the store fails it.
    pub fn run_on(&self, store: &dyn Store, capabilities: Capabilities) {
        __run((self.run)(store, capabilities))
    }
}

/// A behaviour beyond what every store must do: the traits allow a store to go without it (a
/// trait method's default gives a correct but weaker answer). A store under test claims every
/// capability unless [`store_suite!`](crate::store_suite!) is told which ones it lacks:
/// `store_suite!(factory, lacks = [PreciseHasRelations])`. The checks of a capability then
/// check the weaker promise instead; nothing is skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Capability {
    /// [`BlockStore::has_relations`](fedblog_core::store::BlockStore::has_relations) answers
    /// `false` for an account that neither blocks, is blocked, nor mutes. Its default answers
    /// `true` always, which is correct (`true` promises nothing) but lets a caller skip nothing.
    PreciseHasRelations,
    /// [`JobStore::release_jobs`](fedblog_core::store::JobStore::release_jobs) hands a stopping
    /// worker's unstarted jobs back at once. Its default releases nothing, which is correct (the
    /// jobs wait for their lease to end) but slower.
    ReleasesJobs,
    /// [`OAuthStore::take_code_exchange`](fedblog_core::store::OAuthStore::take_code_exchange)
    /// gives back the token an authorization code was exchanged for, so that a reused code
    /// revokes it. Its default remembers nothing: a reused code is then only refused.
    RemembersCodeExchanges,
    /// [`StatusStore::link_reply`](fedblog_core::store::StatusStore::link_reply) makes a status
    /// stored before its parent a reply to it. Its default links nothing, which is correct (the
    /// reply stays a reply to nothing) but leaves remote threads in pieces.
    LinksReplies,
    /// [`PollStore::add_poll_choice`](fedblog_core::store::PollStore::add_poll_choice) counts
    /// every choice a remote account makes in a multiple-choice poll. Its default counts the
    /// first only, which is right for single-choice polls but undercounts multiple ones.
    AddsPollChoices,
    /// [`PollStore::set_poll_tally`](fedblog_core::store::PollStore::set_poll_tally) sets a
    /// remote poll's counts and end as its server reports them. Its default sets nothing, which
    /// is correct (the counts stay those stored, plus local votes) but lets them go stale.
    SetsPollTallies,
    /// [`MediaStore::save_custom_emojis`](fedblog_core::store::MediaStore::save_custom_emojis)
    /// keeps custom emojis, which
    /// [`MediaStore::custom_emojis_by_keys`](fedblog_core::store::MediaStore::custom_emojis_by_keys)
    /// then finds. Its default keeps none, which is correct (the lookup finds nothing, and
    /// `:shortcode:` stays text) but shows remote statuses without their emojis.
    KeepsCustomEmojis,
    /// [`MediaStore::manages_custom_emojis`](fedblog_core::store::MediaStore::manages_custom_emojis)
    /// answers `true`: `list_custom_emojis` lists custom emojis by filter and page,
    /// `custom_emoji_by_id` finds one and `delete_custom_emoji` removes one. Their defaults
    /// list, find and remove none, which is correct (the server then lists no emojis of its own
    /// and its staff endpoints answer 404) but leaves staff unable to manage emojis.
    ManagesCustomEmojis,
    /// [`TagStore::tags_by_prefix`](fedblog_core::store::TagStore::tags_by_prefix) finds the
    /// tags whose name starts with a prefix. Its default finds only the tag named exactly the
    /// prefix, which is correct (that tag does start with it) but finds nothing while a hashtag
    /// is half typed.
    SearchesTagPrefixes,
    /// [`StatusStore::index_statuses`](fedblog_core::store::StatusStore::index_statuses) keeps
    /// the searchable text of statuses, which
    /// [`StatusStore::search_statuses`](fedblog_core::store::StatusStore::search_statuses)
    /// then finds by words, phrases and conditions, and
    /// [`StatusStore::indexable_status_ids`](fedblog_core::store::StatusStore::indexable_status_ids)
    /// lists the statuses to index when rebuilding. Their defaults index and find nothing,
    /// which is correct (search then finds statuses only by their URL) but leaves full-text
    /// search empty.
    SearchesStatuses,
    /// [`AccountStore::moderation`](fedblog_core::store::AccountStore::moderation) offers a
    /// [`ModerationStore`](fedblog_core::store::ModerationStore) keeping reports, moderation
    /// warnings, rules, settings, terms of service and server-wide blocks. Its default offers
    /// none, which is correct (the server then answers that it has no admin API and takes no
    /// reports) but leaves a server without moderation.
    Moderates,
    /// [`StatsStore::keeps_dashboard_data`](fedblog_core::store::StatsStore::keeps_dashboard_data)
    /// answers `true`: [`StatsStore::record_active_day`](fedblog_core::store::StatsStore::record_active_day)
    /// keeps the days accounts were active, and `measure_events`, `measure_total`,
    /// `dimension_counts`, `signups_between` and `storage_usage` answer the admin dashboard's
    /// figures. Their defaults record nothing and answer nothing (no events, 0, no groups, no
    /// sign-ups, a storage that tells nothing), which is correct (the server then answers that it
    /// keeps no dashboard data, rather than show zeros) but leaves a server without its dashboard.
    KeepsDashboardData,
    /// [`AccountStore::save_mail_token`](fedblog_core::store::AccountStore::save_mail_token)
    /// keeps the links mailed to a login (password resets, changes of address), which
    /// `mail_token` finds and `reset_password` and `confirm_email_change` use once, and
    /// `save_notification_emails` keeps the notification e-mail choices. Their defaults keep
    /// nothing (saving fails, nothing is found or used), which is correct (the server then
    /// offers no password reset or change of address, and mails notifications by Mastodon's
    /// defaults) but leaves users without those flows.
    KeepsMailData,
    /// [`OAuthStore::keeps_push_subscriptions`](fedblog_core::store::OAuthStore::keeps_push_subscriptions)
    /// answers `true`: `put_push_subscription` keeps one Web Push subscription per token,
    /// which `push_subscription_of_token` and `push_subscriptions_of_account` find, and
    /// revoking the token or deleting the account removes. Their defaults keep and find none,
    /// which is correct (the push endpoints then answer that the server keeps no
    /// subscriptions) but leaves a server without Web Push.
    KeepsPushSubscriptions,
    /// [`StatusStore::quotes`](fedblog_core::store::StatusStore::quotes) offers a
    /// [`QuoteStore`](fedblog_core::store::QuoteStore) keeping quote posts and the quote
    /// approval policies of statuses. Its default offers none, which is correct (nothing can
    /// then be quoted and every status shows the policy `nobody`) but leaves a server without
    /// quote posts.
    KeepsQuotes,
    /// [`AccountStore::crypto`](fedblog_core::store::AccountStore::crypto) offers a
    /// [`CryptoStore`](fedblog_core::store::CryptoStore) keeping the end-to-end encryption
    /// devices of access tokens, their one-time keys and the encrypted messages delivered to
    /// them. Its default offers none, which is correct (the `/api/v1/crypto/...` endpoints then
    /// answer that the server keeps no devices) but leaves a server without them.
    KeepsCryptoDevices,
    /// [`AccountStore::announcements`](fedblog_core::store::AccountStore::announcements) offers
    /// an [`AnnouncementStore`](fedblog_core::store::AnnouncementStore) keeping announcements,
    /// their dismissals and reactions. Its default offers none, which is correct (users are
    /// then shown no announcements and staff cannot make any) but leaves a server without them.
    KeepsAnnouncements,
    /// [`LinkStore::cards`](fedblog_core::store::LinkStore::cards) offers a
    /// [`CardStore`](fedblog_core::store::CardStore) keeping preview cards, the card each
    /// status shows, the shares of each card's link and the publishers of cards. Its default
    /// offers none, which is correct (statuses then have no `card` and no link trends) but
    /// leaves a server without preview cards.
    KeepsPreviewCards,
}

/// The capabilities a store under test claims, as passed to the checks that depend on one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    precise_has_relations: bool,
    releases_jobs: bool,
    remembers_code_exchanges: bool,
    links_replies: bool,
    adds_poll_choices: bool,
    sets_poll_tallies: bool,
    keeps_custom_emojis: bool,
    manages_custom_emojis: bool,
    searches_tag_prefixes: bool,
    searches_statuses: bool,
    moderates: bool,
    keeps_dashboard_data: bool,
    keeps_mail_data: bool,
    keeps_push_subscriptions: bool,
    keeps_quotes: bool,
    keeps_crypto_devices: bool,
    keeps_announcements: bool,
    keeps_preview_cards: bool,
}

impl Capabilities {
    /// A store with every [`Capability`].
    pub const ALL: Capabilities = Capabilities {
        precise_has_relations: true,
        releases_jobs: true,
        remembers_code_exchanges: true,
        links_replies: true,
        adds_poll_choices: true,
        sets_poll_tallies: true,
        keeps_custom_emojis: true,
        manages_custom_emojis: true,
        searches_tag_prefixes: true,
        searches_statuses: true,
        moderates: true,
        keeps_dashboard_data: true,
        keeps_mail_data: true,
        keeps_push_subscriptions: true,
        keeps_quotes: true,
        keeps_crypto_devices: true,
        keeps_announcements: true,
        keeps_preview_cards: true,
    };

    /// These capabilities without `capability`.
    pub const fn lacking(self, capability: Capability) -> Self {
        match capability {
            Capability::PreciseHasRelations => Capabilities {
                precise_has_relations: false,
                ..self
            },
            Capability::ReleasesJobs => Capabilities {
                releases_jobs: false,
                ..self
            },
            Capability::RemembersCodeExchanges => Capabilities {
                remembers_code_exchanges: false,
                ..self
            },
            Capability::LinksReplies => Capabilities {
                links_replies: false,
                ..self
            },
            Capability::AddsPollChoices => Capabilities {
                adds_poll_choices: false,
                ..self
            },
            Capability::SetsPollTallies => Capabilities {
                sets_poll_tallies: false,
                ..self
            },
            Capability::KeepsCustomEmojis => Capabilities {
                keeps_custom_emojis: false,
                ..self
            },
            Capability::ManagesCustomEmojis => Capabilities {
                manages_custom_emojis: false,
                ..self
            },
            Capability::SearchesTagPrefixes => Capabilities {
                searches_tag_prefixes: false,
                ..self
            },
            Capability::SearchesStatuses => Capabilities {
                searches_statuses: false,
                ..self
            },
            Capability::Moderates => Capabilities {
                moderates: false,
                ..self
            },
            Capability::KeepsDashboardData => Capabilities {
                keeps_dashboard_data: false,
                ..self
            },
            Capability::KeepsMailData => Capabilities {
                keeps_mail_data: false,
                ..self
            },
            Capability::KeepsPushSubscriptions => Capabilities {
                keeps_push_subscriptions: false,
                ..self
            },
            Capability::KeepsQuotes => Capabilities {
                keeps_quotes: false,
                ..self
            },
            Capability::KeepsCryptoDevices => Capabilities {
                keeps_crypto_devices: false,
                ..self
            },
            Capability::KeepsAnnouncements => Capabilities {
                keeps_announcements: false,
                ..self
            },
            Capability::KeepsPreviewCards => Capabilities {
                keeps_preview_cards: false,
                ..self
            },
        }
    }

    /// Whether the store claims `capability`.
    pub const fn has(self, capability: Capability) -> bool {
        match capability {
            Capability::PreciseHasRelations => self.precise_has_relations,
            Capability::ReleasesJobs => self.releases_jobs,
            Capability::RemembersCodeExchanges => self.remembers_code_exchanges,
            Capability::LinksReplies => self.links_replies,
            Capability::AddsPollChoices => self.adds_poll_choices,
            Capability::SetsPollTallies => self.sets_poll_tallies,
            Capability::KeepsCustomEmojis => self.keeps_custom_emojis,
            Capability::ManagesCustomEmojis => self.manages_custom_emojis,
            Capability::SearchesTagPrefixes => self.searches_tag_prefixes,
            Capability::SearchesStatuses => self.searches_statuses,
            Capability::Moderates => self.moderates,
            Capability::KeepsDashboardData => self.keeps_dashboard_data,
            Capability::KeepsMailData => self.keeps_mail_data,
            Capability::KeepsPushSubscriptions => self.keeps_push_subscriptions,
            Capability::KeepsQuotes => self.keeps_quotes,
            Capability::KeepsCryptoDevices => self.keeps_crypto_devices,
            Capability::KeepsAnnouncements => self.keeps_announcements,
            Capability::KeepsPreviewCards => self.keeps_preview_cards,
        }
    }
}

/// Every check of the suite, in the order [`store_suite!`](crate::store_suite!) generates them.
pub const CHECKS: &[Check] = crate::__store_suite_for_each_check!([crate::__store_suite_table]());

/// Runs one check on a fresh current-thread Tokio runtime (what `#[tokio::test]` does).
#[doc(hidden)]
pub fn __run(check: impl Future<Output = ()>) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime for a store check")
        .block_on(check)
}

/// The instant fixtures count from (2023-11-14T22:13:20Z), in milliseconds since the epoch.
pub const T0: i64 = 1_700_000_000_000;

/// The instant `millis` milliseconds after the epoch.
pub fn at(millis: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(millis).expect("timestamp in chrono's range")
}

/// A local account named `username` and its login (a confirmed, approved user with the e-mail
/// address `username@example.test`), both created at [`T0`]. Not inserted.
pub fn local_account(ids: &IdGenerator, username: &str) -> (AccountRecord, UserRecord) {
    let id = ids.next_at(T0);
    let account = AccountRecord::new_local(id, username, at(T0));
    let user = UserRecord {
        account_id: id,
        email: format!("{username}@example.test"),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA".into(),
        role: Role::User,
        confirmed_at: Some(at(T0)),
        confirmation_token_hash: None,
        approved: true,
        disabled: false,
        locale: "en".into(),
        created_at: at(T0),
    };
    (account, user)
}

/// A remote account `username@domain`, with its ActivityPub id and profile URL, created at
/// [`T0`]. Not inserted.
pub fn remote_account(ids: &IdGenerator, username: &str, domain: &str) -> AccountRecord {
    let mut account = AccountRecord::new_local(ids.next_at(T0), username, at(T0));
    account.domain = Some(domain.to_string());
    account.uri = Some(format!("https://{domain}/users/{username}"));
    account.url = Some(format!("https://{domain}/@{username}"));
    account
}

/// A public status by `author` created at `millis` (its id made at the same time), local if the
/// author is, with every optional field unset. Not inserted; change fields with struct update.
pub fn status(ids: &IdGenerator, author: &AccountRecord, millis: i64) -> StatusRecord {
    let id = ids.next_at(millis);
    StatusRecord {
        id,
        account_id: author.id,
        uri: author
            .domain
            .as_ref()
            .map(|d| format!("https://{d}/statuses/{id}")),
        text: format!("status {id}"),
        content: format!("<p>status {id}</p>"),
        spoiler_text: String::new(),
        visibility: Visibility::Public,
        sensitive: false,
        language: None,
        in_reply_to_id: None,
        in_reply_to_account_id: None,
        application_id: None,
        mentions: vec![],
        tags: vec![],
        media_ids: vec![],
        idempotency_key: None,
        local: author.is_local(),
        created_at: at(millis),
        edited_at: None,
        reblog_of_id: None,
        conversation_id: None,
        replies_count: 0,
        reblogs_count: 0,
        favourites_count: 0,
    }
}

/// A reply by `author` to `parent`, created at `millis` (its id made at the same time), in the
/// parent's thread. Not inserted.
pub fn reply(
    ids: &IdGenerator,
    author: &AccountRecord,
    parent: &StatusRecord,
    millis: i64,
) -> StatusRecord {
    StatusRecord {
        in_reply_to_id: Some(parent.id),
        in_reply_to_account_id: Some(parent.account_id),
        conversation_id: Some(parent.conversation_id.unwrap_or(parent.id)),
        ..status(ids, author, millis)
    }
}

/// A reblog by `author` of `original`, created at `millis` (its id made at the same time): no
/// text of its own, the original's visibility. Not inserted.
pub fn reblog(
    ids: &IdGenerator,
    author: &AccountRecord,
    original: &StatusRecord,
    millis: i64,
) -> StatusRecord {
    StatusRecord {
        reblog_of_id: Some(original.id),
        text: String::new(),
        content: String::new(),
        visibility: original.visibility,
        ..status(ids, author, millis)
    }
}

/// A client application with this client id, created at [`T0`]. Not inserted.
pub fn app(ids: &IdGenerator, client_id: &str) -> AppRecord {
    AppRecord {
        id: ids.next_at(T0),
        name: format!("App {client_id}"),
        website: None,
        redirect_uris: vec!["urn:ietf:wg:oauth:2.0:oob".into()],
        scopes: "read write".into(),
        client_id: client_id.to_string(),
        client_secret: format!("secret-{client_id}"),
        created_at: at(T0),
    }
}

/// An unrevoked access token with this hash, issued to `app_id` for `account_id` at `millis`.
/// Not inserted.
pub fn token(
    ids: &IdGenerator,
    token_hash: &str,
    app_id: Id,
    account_id: Option<Id>,
    millis: i64,
) -> TokenRecord {
    TokenRecord {
        id: ids.next_at(millis),
        token_hash: token_hash.to_string(),
        app_id,
        account_id,
        scopes: "read".into(),
        created_at: at(millis),
        revoked_at: None,
    }
}

/// An authorization code with this hash, issued to `app_id` for `account_id`, without PKCE,
/// expiring ten minutes after [`T0`]. Not inserted.
pub fn authorization(code_hash: &str, app_id: Id, account_id: Id) -> AuthorizationRecord {
    AuthorizationRecord {
        code_hash: code_hash.to_string(),
        app_id,
        account_id,
        redirect_uri: "urn:ietf:wg:oauth:2.0:oob".into(),
        scopes: "read".into(),
        code_challenge: None,
        code_challenge_method: None,
        expires_at: at(T0 + 600_000),
    }
}

/// A `Queued` job of `kind` due at `run_millis` (its id made at the same time), with a small
/// JSON payload naming it, never attempted, allowed five attempts, created at [`T0`]. Not inserted.
pub fn job(ids: &IdGenerator, kind: &str, run_millis: i64) -> JobRecord {
    let id = ids.next_at(run_millis);
    JobRecord {
        id,
        kind: kind.to_string(),
        payload: format!("{{\"job\":\"{id}\"}}"),
        run_at: at(run_millis),
        state: JobState::Queued,
        attempts: 0,
        max_attempts: 5,
        locked_by: None,
        locked_until: None,
        last_error: None,
        created_at: at(T0),
        finished_at: None,
    }
}

/// A status of `account_id` scheduled one hour after `millis`, created at `millis` (its id made
/// at the same time), without application. Not inserted.
pub fn scheduled_status(ids: &IdGenerator, account_id: Id, millis: i64) -> ScheduledStatusRecord {
    let id = ids.next_at(millis);
    ScheduledStatusRecord {
        id,
        account_id,
        scheduled_at: at(millis + 3_600_000),
        params: format!("{{\"text\":\"scheduled {id}\",\"visibility\":\"public\"}}"),
        application_id: None,
        created_at: at(millis),
    }
}

/// An unattached, unprocessed image uploaded by `owner` at `millis` (its id made at the same
/// time), with a file key and size, `meta` of the original only, and every optional field unset.
/// Not inserted.
pub fn media(ids: &IdGenerator, owner: &AccountRecord, millis: i64) -> MediaRecord {
    let id = ids.next_at(millis);
    MediaRecord {
        id,
        account_id: owner.id,
        status_id: None,
        scheduled_status_id: None,
        kind: MediaKind::Image,
        file_key: format!("media/{id}/original.png"),
        file_size: 1_234,
        preview_key: None,
        thumbnail_key: None,
        description: None,
        focus: None,
        meta: r#"{"original":{"width":640,"height":480,"size":"640x480","aspect":1.3333333333333333}}"#
            .into(),
        blurhash: None,
        processed: false,
        remote_url: None,
        created_at: at(millis),
    }
}

/// A tag named `name` as written (its normalised name: lower case), first seen at `millis` (its
/// id made at the same time). Not inserted.
pub fn tag(ids: &IdGenerator, name: &str, millis: i64) -> TagRecord {
    TagRecord {
        id: ids.next_at(millis),
        name: name.to_lowercase(),
        display_name: name.to_string(),
        created_at: at(millis),
        review: TagReview::default(),
    }
}

// ---- helpers shared by the areas (crate-private: not part of the suite's API) ----

/// Creates `tag(ids, name, millis)` through `find_or_create_tag` and returns it.
pub(crate) async fn add_tag(
    store: &dyn Store,
    ids: &IdGenerator,
    name: &str,
    millis: i64,
) -> TagRecord {
    let t = tag(ids, name, millis);
    let got = store
        .find_or_create_tag(&t)
        .await
        .unwrap_or_else(|e| panic!("find_or_create_tag({name:?}) failed: {e:?}"));
    assert_eq!(
        got, t,
        "find_or_create_tag of a new name must return the tag as given"
    );
    t
}

/// Inserts `local_account(ids, username)` and returns the account.
pub(crate) async fn add_local(
    store: &dyn Store,
    ids: &IdGenerator,
    username: &str,
) -> AccountRecord {
    let (account, user) = local_account(ids, username);
    store
        .insert_local_account(&account, &user)
        .await
        .unwrap_or_else(|e| {
            panic!("insert_local_account({username:?}) into an empty-enough store failed: {e:?}")
        });
    account
}

/// Inserts `remote_account(ids, username, domain)` and returns it.
pub(crate) async fn add_remote(
    store: &dyn Store,
    ids: &IdGenerator,
    username: &str,
    domain: &str,
) -> AccountRecord {
    let account = remote_account(ids, username, domain);
    store
        .insert_remote_account(&account)
        .await
        .unwrap_or_else(|e| panic!("insert_remote_account({username:?}@{domain}) failed: {e:?}"));
    account
}

/// Inserts a status and returns it.
pub(crate) async fn add_status(store: &dyn Store, status: StatusRecord) -> StatusRecord {
    store
        .insert_status(&status)
        .await
        .unwrap_or_else(|e| panic!("insert_status({}) failed: {e:?}", status.id));
    status
}

/// Inserts a media attachment and returns it.
pub(crate) async fn add_media(store: &dyn Store, media: MediaRecord) -> MediaRecord {
    store
        .insert_media(&media)
        .await
        .unwrap_or_else(|e| panic!("insert_media({}) failed: {e:?}", media.id));
    media
}

/// Inserts `count` media of `status`'s author (uploaded one millisecond apart at the status's
/// time) and returns the status listing them, in upload order. Not inserted.
pub(crate) async fn with_media(
    store: &dyn Store,
    ids: &IdGenerator,
    author: &AccountRecord,
    status: StatusRecord,
    count: usize,
) -> StatusRecord {
    assert_eq!(author.id, status.account_id, "fixture: media of the author");
    let mut media_ids = vec![];
    for i in 0..count {
        let millis = status.created_at.timestamp_millis() + i as i64;
        media_ids.push(add_media(store, media(ids, author, millis)).await.id);
    }
    StatusRecord {
        media_ids,
        ..status
    }
}

/// The stored status, which must exist.
pub(crate) async fn get_status(store: &dyn Store, id: Id) -> StatusRecord {
    store
        .status_by_id(id)
        .await
        .unwrap_or_else(|e| panic!("status_by_id({id}) failed: {e:?}"))
        .unwrap_or_else(|| panic!("status_by_id({id}): this status must be found"))
}

/// A status's store-maintained counters: `(replies, reblogs, favourites)`.
pub(crate) async fn counters(store: &dyn Store, id: Id) -> (i64, i64, i64) {
    let s = get_status(store, id).await;
    (s.replies_count, s.reblogs_count, s.favourites_count)
}

/// Inserts `app(ids, client_id)` and returns it.
pub(crate) async fn add_app(store: &dyn Store, ids: &IdGenerator, client_id: &str) -> AppRecord {
    let app = app(ids, client_id);
    store
        .insert_app(&app)
        .await
        .unwrap_or_else(|e| panic!("insert_app({client_id:?}) failed: {e:?}"));
    app
}

/// The stored account, which must exist.
pub(crate) async fn get_account(store: &dyn Store, id: Id) -> AccountRecord {
    store
        .account_by_id(id)
        .await
        .unwrap_or_else(|e| panic!("account_by_id({id}) failed: {e:?}"))
        .unwrap_or_else(|| panic!("account_by_id({id}): an inserted account must be found"))
}

/// Panics unless `result` is `Err(StoreError::AlreadyExists(name))`.
pub(crate) fn assert_already_exists<T: Debug>(result: StoreResult<T>, name: &str, contract: &str) {
    match result {
        Err(StoreError::AlreadyExists(n)) if n == name => {}
        other => panic!("{contract}: expected Err(AlreadyExists({name:?})), got {other:?}"),
    }
}

/// Panics unless `result` is `Err(StoreError::NotFound)`.
pub(crate) fn assert_not_found<T: Debug>(result: StoreResult<T>, contract: &str) {
    match result {
        Err(StoreError::NotFound) => {}
        other => panic!("{contract}: expected Err(NotFound), got {other:?}"),
    }
}

/// `ids` sorted, for comparing lists that come in no particular order.
pub(crate) fn sorted(mut ids: Vec<Id>) -> Vec<Id> {
    ids.sort();
    ids
}

/// The kind of page requests a pagination check makes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cursor {
    Limit,
    MaxId,
    SinceId,
    MinId,
    Combined,
    Absent,
}

/// Checks one kind of page request against ten items `s` (oldest first, made one second apart
/// so that `id ± 1` falls strictly between neighbours). `read` fetches a page's ids.
pub(crate) async fn assert_pages<F, Fut>(what: &str, kind: Cursor, s: &[Id], read: F)
where
    F: Fn(Page) -> Fut,
    Fut: Future<Output = Vec<Id>>,
{
    assert_eq!(s.len(), 10, "pagination fixture needs ten items");
    let p = |max_id: Option<Id>, since_id: Option<Id>, min_id: Option<Id>, limit: usize| Page {
        max_id,
        since_id,
        min_id,
        limit,
    };
    let pick = |idx: &[usize]| idx.iter().map(|&i| s[i]).collect::<Vec<_>>();
    let after = |i: usize| Id(s[i].0 + 1);
    let before = |i: usize| Id(s[i].0 - 1);
    let cases: Vec<(&str, Page, Vec<Id>)> = match kind {
        Cursor::Limit => vec![
            ("limit=3", p(None, None, None, 3), pick(&[9, 8, 7])),
            ("limit=1", p(None, None, None, 1), pick(&[9])),
            (
                "limit=10",
                p(None, None, None, 10),
                pick(&[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
            ),
            (
                "limit=40",
                p(None, None, None, 40),
                pick(&[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
            ),
        ],
        Cursor::MaxId => vec![
            (
                "max_id=s5 limit=3",
                p(Some(s[5]), None, None, 3),
                pick(&[4, 3, 2]),
            ),
            (
                "max_id=s5 limit=40",
                p(Some(s[5]), None, None, 40),
                pick(&[4, 3, 2, 1, 0]),
            ),
            (
                "max_id=s9 limit=2",
                p(Some(s[9]), None, None, 2),
                pick(&[8, 7]),
            ),
            ("max_id=s0 limit=40", p(Some(s[0]), None, None, 40), vec![]),
        ],
        Cursor::SinceId => vec![
            (
                "since_id=s5 limit=3 (newest first, not the ones right above s5)",
                p(None, Some(s[5]), None, 3),
                pick(&[9, 8, 7]),
            ),
            (
                "since_id=s5 limit=40",
                p(None, Some(s[5]), None, 40),
                pick(&[9, 8, 7, 6]),
            ),
            (
                "since_id=s0 limit=2",
                p(None, Some(s[0]), None, 2),
                pick(&[9, 8]),
            ),
            (
                "since_id=s9 limit=40",
                p(None, Some(s[9]), None, 40),
                vec![],
            ),
        ],
        Cursor::MinId => vec![
            (
                "min_id=s5 limit=3 (the three right above s5, newest first)",
                p(None, None, Some(s[5]), 3),
                pick(&[8, 7, 6]),
            ),
            (
                "min_id=s2 limit=3",
                p(None, None, Some(s[2]), 3),
                pick(&[5, 4, 3]),
            ),
            (
                "min_id=s0 limit=1",
                p(None, None, Some(s[0]), 1),
                pick(&[1]),
            ),
            (
                "min_id=s5 limit=40",
                p(None, None, Some(s[5]), 40),
                pick(&[9, 8, 7, 6]),
            ),
            ("min_id=s9 limit=40", p(None, None, Some(s[9]), 40), vec![]),
        ],
        Cursor::Combined => vec![
            (
                "max_id=s8 since_id=s2 limit=40",
                p(Some(s[8]), Some(s[2]), None, 40),
                pick(&[7, 6, 5, 4, 3]),
            ),
            (
                "max_id=s8 since_id=s2 limit=2",
                p(Some(s[8]), Some(s[2]), None, 2),
                pick(&[7, 6]),
            ),
            (
                "max_id=s8 min_id=s2 limit=2",
                p(Some(s[8]), None, Some(s[2]), 2),
                pick(&[4, 3]),
            ),
            (
                "max_id=s8 min_id=s2 limit=40",
                p(Some(s[8]), None, Some(s[2]), 40),
                pick(&[7, 6, 5, 4, 3]),
            ),
            (
                "max_id=s3 since_id=s5 limit=40",
                p(Some(s[3]), Some(s[5]), None, 40),
                vec![],
            ),
        ],
        Cursor::Absent => vec![
            (
                "max_id=s5+1 limit=3",
                p(Some(after(5)), None, None, 3),
                pick(&[5, 4, 3]),
            ),
            (
                "since_id=s5+1 limit=40",
                p(None, Some(after(5)), None, 40),
                pick(&[9, 8, 7, 6]),
            ),
            (
                "min_id=s5-1 limit=2",
                p(None, None, Some(before(5)), 2),
                pick(&[6, 5]),
            ),
            (
                "min_id=0 limit=3",
                p(None, None, Some(Id(0)), 3),
                pick(&[2, 1, 0]),
            ),
            (
                "max_id=i64::MAX limit=2",
                p(Some(Id(i64::MAX as u64)), None, None, 2),
                pick(&[9, 8]),
            ),
        ],
    };
    let name = |id: &Id| match s.iter().position(|x| x == id) {
        Some(i) => format!("s{i}"),
        None => format!("{id} (not a fixture)"),
    };
    let mut failures = vec![];
    for (label, page, expected) in cases {
        let got = read(page).await;
        if got != expected {
            failures.push(format!(
                "  {label}: expected [{}], got [{}]",
                expected.iter().map(name).collect::<Vec<_>>().join(", "),
                got.iter().map(name).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{what}: pages must hold the items strictly inside the cursors, newest first, at most `limit` of them \
         (min_id: the ones immediately above it); s0..s9 are the items oldest first:\n{}",
        failures.join("\n")
    );
}
