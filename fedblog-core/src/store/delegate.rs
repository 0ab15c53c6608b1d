//! Delegation of whole store traits to a field: for stores that wrap another store (a cache, a
//! metrics or logging layer) and for ports to a new backend made one trait at a time, where the
//! traits not yet ported keep running on [`MemoryStore`](crate::MemoryStore) or another store.

/// Implements the named store traits for a type by forwarding every method, unchanged, to one of
/// its fields (anything that dereferences to a store: a [`MemoryStore`](crate::MemoryStore), an
/// `Arc<dyn Store>`, ...). Write the other traits by hand; with all of them the type is a
/// [`Store`](crate::Store).
///
/// ```
/// use async_trait::async_trait;
/// use fedblog_core::store::{MarkerRecord, MarkerStore};
/// use fedblog_core::{Id, MemoryStore, Store, StoreResult};
///
/// /// A store whose timeline markers live elsewhere; everything else is in memory.
/// struct Markers {
///     rest: MemoryStore,
/// }
///
/// fedblog_core::delegate_store!(Markers => rest:
///     AccountStore, OAuthStore, StatusStore, FollowStore, BlockStore, FeedStore, StatsStore,
///     JobStore, ScheduledStatusStore, AccountNoteStore, DomainBlockStore, TagStore,
///     DirectoryStore, InteractionStore, StatusEditStore, PollStore, MediaStore,
///     NotificationStore, ListStore, FilterStore, ConversationStore, LinkStore,
///     NotificationPolicyStore, FederationStore);
///
/// #[async_trait]
/// impl MarkerStore for Markers {
///     async fn markers(&self, account: Id, timelines: &[String]) -> StoreResult<Vec<MarkerRecord>> {
///         self.rest.markers(account, timelines).await // your backend here
///     }
///     async fn save_marker(&self, marker: &MarkerRecord) -> StoreResult<bool> {
///         self.rest.save_marker(marker).await // and here
///     }
/// }
///
/// let store: std::sync::Arc<dyn Store> = std::sync::Arc::new(Markers { rest: MemoryStore::new() });
/// # drop(store);
/// ```
///
/// With `observe = method` (`delegate_store!(Counting => inner, observe = note: ...)`), every
/// forwarded call first calls `self.method(name)` with the method's `"Trait::method"` name: the
/// way to count, time or log a store's calls (tests hold a page's reads to a budget this way).
///
/// The trait names are the traits of [`fedblog_core::store`](crate::store), unqualified; an
/// unknown name does not compile. Methods with a default (`has_relations`, `relations_among`,
/// ...) are forwarded too, so the field's own answers are kept.
#[macro_export]
macro_rules! delegate_store {
    ($ty:ty => $field:ident: $($store_trait:ident),+ $(,)?) => {
        $( $crate::__delegate_trait!($store_trait, $ty, $field); )+
    };
    ($ty:ty => $field:ident, observe = $observe:ident: $($store_trait:ident),+ $(,)?) => {
        $( $crate::__delegate_trait!($store_trait, $ty, $field, $observe); )+
    };
}

/// One `impl` of [`delegate_store!`](crate::delegate_store!): the method list of each trait.
#[doc(hidden)]
#[macro_export]
macro_rules! __delegate_trait {
    (AccountStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { AccountStore for $ty => $field [$($observe)?] {
            fn insert_local_account(&self, account: &AccountRecord, user: &UserRecord) -> StoreResult<()>;
            fn insert_remote_account(&self, account: &AccountRecord) -> StoreResult<()>;
            fn account_by_id(&self, id: Id) -> StoreResult<Option<AccountRecord>>;
            fn accounts_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AccountRecord>>;
            fn account_by_username(&self, username: &str, domain: Option<&str>) -> StoreResult<Option<AccountRecord>>;
            fn update_account(&self, account: &AccountRecord) -> StoreResult<()>;
            fn user_by_account_id(&self, account_id: Id) -> StoreResult<Option<UserRecord>>;
            fn users_by_account_ids(&self, accounts: &[Id]) -> StoreResult<Vec<UserRecord>>;
            fn user_by_email(&self, email: &str) -> StoreResult<Option<UserRecord>>;
            fn user_by_confirmation_token(&self, token_hash: &str) -> StoreResult<Option<UserRecord>>;
            fn update_user(&self, user: &UserRecord) -> StoreResult<()>;
            fn delete_account(&self, id: Id) -> StoreResult<()>;
            fn save_mail_token(&self, token: &MailTokenRecord) -> StoreResult<()>;
            fn mail_token(&self, purpose: MailTokenPurpose, token_hash: &str) -> StoreResult<Option<MailTokenRecord>>;
            fn reset_password(&self, token_hash: &str, sent_after: DateTime<Utc>, password_hash: &str, at: DateTime<Utc>) -> StoreResult<Option<Id>>;
            fn confirm_email_change(&self, token_hash: &str, sent_after: DateTime<Utc>) -> StoreResult<Option<UserRecord>>;
            fn notification_emails(&self, accounts: &[Id]) -> StoreResult<Vec<(Id, NotificationEmailsRecord)>>;
            fn save_notification_emails(&self, account: Id, choices: &NotificationEmailsRecord) -> StoreResult<()>;
        } sync {
            fn moderation(&self) -> Option<&dyn ModerationStore>;
            fn crypto(&self) -> Option<&dyn CryptoStore>;
            fn announcements(&self) -> Option<&dyn AnnouncementStore>;
        } }
    };
    (OAuthStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { OAuthStore for $ty => $field [$($observe)?] {
            fn insert_app(&self, app: &AppRecord) -> StoreResult<()>;
            fn app_by_id(&self, id: Id) -> StoreResult<Option<AppRecord>>;
            fn apps_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AppRecord>>;
            fn app_by_client_id(&self, client_id: &str) -> StoreResult<Option<AppRecord>>;
            fn insert_authorization(&self, auth: &AuthorizationRecord) -> StoreResult<()>;
            fn take_authorization(&self, code_hash: &str) -> StoreResult<Option<AuthorizationRecord>>;
            fn insert_token(&self, token: &TokenRecord) -> StoreResult<()>;
            fn token_by_hash(&self, token_hash: &str) -> StoreResult<Option<TokenRecord>>;
            fn token_with_owner(&self, token_hash: &str) -> StoreResult<Option<TokenWithOwner>>;
            fn revoke_token(&self, token_hash: &str, at: DateTime<Utc>) -> StoreResult<bool>;
            fn record_code_exchange(&self, code_hash: &str, token_hash: &str, now: DateTime<Utc>, until: DateTime<Utc>) -> StoreResult<()>;
            fn take_code_exchange(&self, code_hash: &str, now: DateTime<Utc>) -> StoreResult<Option<String>>;
            fn put_push_subscription(&self, sub: &PushSubscriptionRecord) -> StoreResult<()>;
            fn push_subscription_of_token(&self, token_id: Id) -> StoreResult<Option<PushSubscriptionRecord>>;
            fn push_subscriptions_of_account(&self, account_id: Id) -> StoreResult<Vec<PushSubscriptionRecord>>;
            fn delete_push_subscription(&self, id: Id) -> StoreResult<bool>;
        } sync {
            fn keeps_push_subscriptions(&self) -> bool;
        } }
    };
    (StatusStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { StatusStore for $ty => $field [$($observe)?] {
            fn insert_status(&self, status: &StatusRecord) -> StoreResult<()>;
            fn status_by_id(&self, id: Id) -> StoreResult<Option<StatusRecord>>;
            fn statuses_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<StatusRecord>>;
            fn status_by_idempotency_key(&self, account_id: Id, key: &str, since: DateTime<Utc>) -> StoreResult<Option<StatusRecord>>;
            fn delete_status(&self, id: Id) -> StoreResult<()>;
            fn link_reply(&self, status: Id, parent: Id) -> StoreResult<bool>;
            fn index_statuses(&self, documents: &[SearchDocument]) -> StoreResult<()>;
            fn search_statuses(&self, search: &StatusSearch) -> StoreResult<Vec<Id>>;
            fn indexable_status_ids(&self, after: Option<Id>, limit: u64) -> StoreResult<Vec<Id>>;
            fn account_statuses(&self, account_id: Id, filter: &AccountStatusesFilter, page: Page) -> StoreResult<Vec<StatusRecord>>;
            fn public_timeline(&self, filter: PublicTimelineFilter, page: Page) -> StoreResult<Vec<StatusRecord>>;
            fn public_timeline_ids(&self, filter: PublicTimelineFilter, page: Page) -> StoreResult<Vec<Id>>;
            fn tag_timeline(&self, filter: &TagTimelineFilter, page: Page) -> StoreResult<Vec<StatusRecord>>;
        } sync {
            fn quotes(&self) -> Option<&dyn QuoteStore>;
        } }
    };
    (FollowStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { FollowStore for $ty => $field [$($observe)?] {
            fn insert_follow(&self, id: Id, follower: Id, target: Id) -> StoreResult<()>;
            fn delete_follow(&self, follower: Id, target: Id) -> StoreResult<bool>;
            fn follows(&self, follower: Id, target: Id) -> StoreResult<bool>;
            fn local_follower_ids(&self, target: Id) -> StoreResult<Vec<Id>>;
            fn notified_follower_ids(&self, target: Id) -> StoreResult<Vec<Id>>;
            fn language_restricted_followers(&self, target: Id) -> StoreResult<Vec<(Id, Vec<String>)>>;
            fn followers_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn following_page(&self, follower: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn insert_follow_request(&self, id: Id, follower: Id, target: Id) -> StoreResult<()>;
            fn delete_follow_request(&self, follower: Id, target: Id) -> StoreResult<bool>;
            fn follow_requested(&self, follower: Id, target: Id) -> StoreResult<bool>;
            fn follow_requests_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn follow_of(&self, follower: Id, target: Id) -> StoreResult<Option<FollowRecord>>;
            fn upsert_follow(&self, follow: &FollowRecord) -> StoreResult<bool>;
            fn follow_request_of(&self, follower: Id, target: Id) -> StoreResult<Option<FollowRecord>>;
            fn upsert_follow_request(&self, request: &FollowRecord) -> StoreResult<bool>;
            fn familiar_followers(&self, account: Id, target: Id, limit: u64) -> StoreResult<Vec<Id>>;
            fn reblog_audience(&self, booster: Id, author: Id, now: DateTime<Utc>) -> StoreResult<Vec<Id>>;
            fn friends_of_friends(&self, account: Id, limit: u64) -> StoreResult<Vec<(Id, i64)>>;
        } }
    };
    (BlockStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { BlockStore for $ty => $field [$($observe)?] {
            fn insert_block(&self, id: Id, account: Id, target: Id) -> StoreResult<()>;
            fn delete_block(&self, account: Id, target: Id) -> StoreResult<bool>;
            fn blocks(&self, account: Id, target: Id) -> StoreResult<bool>;
            fn blocked_either_way(&self, account: Id, others: &[Id]) -> StoreResult<Vec<Id>>;
            fn blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn upsert_mute(&self, mute: &MuteRecord) -> StoreResult<()>;
            fn delete_mute(&self, account: Id, target: Id) -> StoreResult<bool>;
            fn mute_of(&self, account: Id, target: Id, now: DateTime<Utc>) -> StoreResult<Option<MuteRecord>>;
            fn muted_among(&self, account: Id, others: &[Id], now: DateTime<Utc>) -> StoreResult<Vec<Id>>;
            fn has_relations(&self, account: Id) -> StoreResult<bool>;
            fn relations_among(&self, account: Id, others: &[Id], now: DateTime<Utc>) -> StoreResult<Vec<RelationRecord>>;
            fn mutes_page(&self, account: Id, now: DateTime<Utc>, page: Page) -> StoreResult<Vec<MuteRecord>>;
        } }
    };
    (AccountNoteStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { AccountNoteStore for $ty => $field [$($observe)?] {
            fn set_account_note(&self, account: Id, target: Id, comment: &str) -> StoreResult<()>;
            fn account_note(&self, account: Id, target: Id) -> StoreResult<Option<String>>;
            fn insert_endorsement(&self, id: Id, account: Id, target: Id) -> StoreResult<()>;
            fn delete_endorsement(&self, account: Id, target: Id) -> StoreResult<bool>;
            fn endorses(&self, account: Id, target: Id) -> StoreResult<bool>;
            fn endorsements_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn dismiss_suggestion(&self, account: Id, target: Id) -> StoreResult<()>;
            fn dismissed_suggestions(&self, account: Id) -> StoreResult<Vec<Id>>;
        } }
    };
    (DomainBlockStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { DomainBlockStore for $ty => $field [$($observe)?] {
            fn insert_domain_block(&self, id: Id, account: Id, domain: &str) -> StoreResult<()>;
            fn delete_domain_block(&self, account: Id, domain: &str) -> StoreResult<bool>;
            fn domain_blocked(&self, account: Id, domain: &str) -> StoreResult<bool>;
            fn domain_blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, String)>>;
        } }
    };
    (TagStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { TagStore for $ty => $field [$($observe)?] {
            fn find_or_create_tag(&self, tag: &TagRecord) -> StoreResult<TagRecord>;
            fn tag_by_name(&self, name: &str) -> StoreResult<Option<TagRecord>>;
            fn tag_by_id(&self, id: Id) -> StoreResult<Option<TagRecord>>;
            fn tags_page(&self, page: Page) -> StoreResult<Vec<TagRecord>>;
            fn update_tag(&self, tag: &TagRecord) -> StoreResult<bool>;
            fn tags_by_prefix(&self, prefix: &str, offset: u64, limit: u64) -> StoreResult<Vec<TagRecord>>;
            fn tag_usage(&self, name: &str, from: DateTime<Utc>, to: DateTime<Utc>) -> StoreResult<TagUsage>;
            fn follow_tag(&self, id: Id, account: Id, tag_id: Id) -> StoreResult<()>;
            fn unfollow_tag(&self, account: Id, tag_id: Id) -> StoreResult<bool>;
            fn follows_tag(&self, account: Id, tag_id: Id) -> StoreResult<bool>;
            fn followed_tags_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, TagRecord)>>;
            fn insert_featured_tag(&self, tag: &FeaturedTagRecord) -> StoreResult<()>;
            fn delete_featured_tag(&self, account: Id, id: Id) -> StoreResult<bool>;
            fn featured_tags(&self, account: Id) -> StoreResult<Vec<FeaturedTagRecord>>;
            fn account_tag_stats(&self, account: Id, name: &str) -> StoreResult<(i64, Option<DateTime<Utc>>)>;
            fn most_used_tags(&self, account: Id, since: DateTime<Utc>, limit: u64) -> StoreResult<Vec<String>>;
        } }
    };
    (DirectoryStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { DirectoryStore for $ty => $field [$($observe)?] {
            fn search_accounts(&self, search: &AccountSearch) -> StoreResult<Vec<AccountRecord>>;
            fn directory(&self, order: DirectoryOrder, local_only: bool, offset: u64, limit: u64) -> StoreResult<Vec<AccountRecord>>;
            fn most_followed_local(&self, limit: u64) -> StoreResult<Vec<Id>>;
        } }
    };
    (InteractionStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { InteractionStore for $ty => $field [$($observe)?] {
            fn insert_favourite(&self, id: Id, account: Id, status: Id) -> StoreResult<bool>;
            fn delete_favourite(&self, account: Id, status: Id) -> StoreResult<bool>;
            fn favourited_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>>;
            fn favourites_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn favourited_by_page(&self, status: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn insert_bookmark(&self, id: Id, account: Id, status: Id) -> StoreResult<bool>;
            fn delete_bookmark(&self, account: Id, status: Id) -> StoreResult<bool>;
            fn bookmarked_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>>;
            fn bookmarks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn insert_pin(&self, id: Id, account: Id, status: Id) -> StoreResult<bool>;
            fn delete_pin(&self, account: Id, status: Id) -> StoreResult<bool>;
            fn pinned_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>>;
            fn pinned_status_ids(&self, account: Id) -> StoreResult<Vec<Id>>;
            fn reblog_by(&self, account: Id, status: Id) -> StoreResult<Option<StatusRecord>>;
            fn reblogged_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>>;
            fn reblogged_by_page(&self, status: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
            fn replies_to(&self, parents: &[Id]) -> StoreResult<Vec<StatusRecord>>;
            fn mute_conversation(&self, account: Id, conversation: Id) -> StoreResult<()>;
            fn unmute_conversation(&self, account: Id, conversation: Id) -> StoreResult<bool>;
            fn muted_conversations_among(&self, account: Id, conversations: &[Id]) -> StoreResult<Vec<Id>>;
            fn interactions_among(&self, account: Id, statuses: &[Id], own: &[Id], conversations: &[Id]) -> StoreResult<InteractionsRecord>;
        } }
    };
    (StatusEditStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { StatusEditStore for $ty => $field [$($observe)?] {
            fn update_status(&self, status: &StatusRecord, revisions: &[StatusEditRecord]) -> StoreResult<()>;
            fn status_edits(&self, status_id: Id) -> StoreResult<Vec<StatusEditRecord>>;
        } }
    };
    (PollStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { PollStore for $ty => $field [$($observe)?] {
            fn insert_poll(&self, poll: &PollRecord) -> StoreResult<()>;
            fn poll_by_id(&self, id: Id) -> StoreResult<Option<PollRecord>>;
            fn polls_by_status_ids(&self, status_ids: &[Id]) -> StoreResult<Vec<PollRecord>>;
            fn insert_poll_votes(&self, poll_id: Id, account: Id, choices: &[usize]) -> StoreResult<()>;
            fn poll_votes_of(&self, poll_id: Id, account: Id) -> StoreResult<Vec<usize>>;
            fn poll_votes_among(&self, poll_ids: &[Id], account: Id) -> StoreResult<Vec<(Id, Vec<usize>)>>;
            fn poll_voters(&self, poll_id: Id) -> StoreResult<Vec<Id>>;
            fn replace_poll(&self, status_id: Id, poll: Option<&PollRecord>) -> StoreResult<()>;
            fn add_poll_choice(&self, poll_id: Id, account: Id, choice: usize) -> StoreResult<bool>;
            fn set_poll_tally(&self, poll_id: Id, votes: &[i64], voters_count: i64, expires_at: Option<DateTime<Utc>>) -> StoreResult<bool>;
        } }
    };
    (MediaStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { MediaStore for $ty => $field [$($observe)?] {
            fn insert_media(&self, media: &MediaRecord) -> StoreResult<()>;
            fn media_by_id(&self, id: Id) -> StoreResult<Option<MediaRecord>>;
            fn media_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<MediaRecord>>;
            fn update_media(&self, media: &MediaRecord) -> StoreResult<()>;
            fn finish_media_processing(&self, media: &MediaRecord) -> StoreResult<()>;
            fn delete_unattached_media(&self, id: Id) -> StoreResult<Option<MediaRecord>>;
            fn account_media(&self, account_id: Id) -> StoreResult<Vec<MediaRecord>>;
            fn save_custom_emojis(&self, emojis: &[CustomEmojiRecord]) -> StoreResult<()>;
            fn custom_emojis_by_keys(&self, keys: &[(String, Option<String>)]) -> StoreResult<Vec<CustomEmojiRecord>>;
            fn list_custom_emojis(&self, filter: &CustomEmojiFilter, page: Page) -> StoreResult<Vec<CustomEmojiRecord>>;
            fn custom_emoji_by_id(&self, id: Id) -> StoreResult<Option<CustomEmojiRecord>>;
            fn delete_custom_emoji(&self, id: Id) -> StoreResult<Option<CustomEmojiRecord>>;
        } sync {
            fn manages_custom_emojis(&self) -> bool;
        } }
    };
    (NotificationStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { NotificationStore for $ty => $field [$($observe)?] {
            fn insert_notifications(&self, notifications: &[NotificationRecord]) -> StoreResult<()>;
            fn notification_by_id(&self, id: Id) -> StoreResult<Option<NotificationRecord>>;
            fn notifications_page(&self, account: Id, query: &NotificationQuery, page: Page) -> StoreResult<Vec<NotificationRecord>>;
            fn count_notifications(&self, account: Id, query: &NotificationQuery, after: Option<Id>, limit: u64) -> StoreResult<u64>;
            fn dismiss_notification(&self, account: Id, id: Id) -> StoreResult<bool>;
            fn dismiss_notification_group(&self, account: Id, group_key: &str) -> StoreResult<u64>;
            fn clear_notifications(&self, account: Id) -> StoreResult<u64>;
            fn retract_notifications(&self, account: Id, from: Id, kind: Option<NotificationType>, status: Option<Id>) -> StoreResult<u64>;
        } }
    };
    (MarkerStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { MarkerStore for $ty => $field [$($observe)?] {
            fn markers(&self, account: Id, timelines: &[String]) -> StoreResult<Vec<MarkerRecord>>;
            fn save_marker(&self, marker: &MarkerRecord) -> StoreResult<bool>;
        } }
    };
    (FeedStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { FeedStore for $ty => $field [$($observe)?] {
            fn insert_feed_entries(&self, status_id: Id, author_id: Id, account_ids: &[Id]) -> StoreResult<()>;
            fn home_feed(&self, account_id: Id, page: Page) -> StoreResult<Vec<Id>>;
            fn insert_list_entries(&self, status_id: Id, author_id: Id, list_ids: &[Id]) -> StoreResult<()>;
            fn backfill_feed(&self, feed: Feed, entries: &[(Id, Id)]) -> StoreResult<()>;
            fn list_feed(&self, list_id: Id, page: Page) -> StoreResult<Vec<Id>>;
            fn remove_author_entries(&self, account: Id, author: Id) -> StoreResult<()>;
        } }
    };
    (ListStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { ListStore for $ty => $field [$($observe)?] {
            fn insert_list(&self, list: &ListRecord) -> StoreResult<()>;
            fn list_by_id(&self, id: Id) -> StoreResult<Option<ListRecord>>;
            fn lists_of(&self, account: Id) -> StoreResult<Vec<ListRecord>>;
            fn update_list(&self, list: &ListRecord) -> StoreResult<bool>;
            fn delete_list(&self, id: Id) -> StoreResult<bool>;
            fn add_list_accounts(&self, list_id: Id, accounts: &[Id]) -> StoreResult<()>;
            fn remove_list_accounts(&self, list_id: Id, accounts: &[Id]) -> StoreResult<u64>;
            fn remove_from_lists(&self, owner: Id, account: Id) -> StoreResult<()>;
            fn list_accounts_page(&self, list_id: Id, page: Page) -> StoreResult<Vec<Id>>;
            fn lists_with_member(&self, account: Id, owner: Option<Id>) -> StoreResult<Vec<ListRecord>>;
        } }
    };
    (FilterStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { FilterStore for $ty => $field [$($observe)?] {
            fn insert_filter(&self, filter: &FilterRecord) -> StoreResult<()>;
            fn filter_by_id(&self, id: Id) -> StoreResult<Option<FilterRecord>>;
            fn filters_of(&self, account: Id) -> StoreResult<Vec<FilterRecord>>;
            fn update_filter(&self, filter: &FilterRecord, added: &[FilterKeywordRecord], changed: &[FilterKeywordRecord], removed: &[Id]) -> StoreResult<()>;
            fn delete_filter(&self, id: Id) -> StoreResult<bool>;
            fn filter_keyword_by_id(&self, id: Id) -> StoreResult<Option<FilterKeywordRecord>>;
            fn insert_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<()>;
            fn update_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<bool>;
            fn delete_filter_keyword(&self, id: Id) -> StoreResult<bool>;
            fn filter_status_by_id(&self, id: Id) -> StoreResult<Option<FilterStatusRecord>>;
            fn insert_filter_status(&self, status: &FilterStatusRecord) -> StoreResult<()>;
            fn delete_filter_status(&self, id: Id) -> StoreResult<bool>;
        } }
    };
    (ConversationStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { ConversationStore for $ty => $field [$($observe)?] {
            fn add_to_conversation(&self, new_id: Id, account: Id, thread: Id, participants: &[Id], status: Id, unread: bool) -> StoreResult<ConversationRecord>;
            fn conversation_by_id(&self, id: Id) -> StoreResult<Option<ConversationRecord>>;
            fn conversations_page(&self, account: Id, page: Page) -> StoreResult<Vec<ConversationRecord>>;
            fn set_conversation_unread(&self, id: Id, unread: bool) -> StoreResult<bool>;
            fn delete_conversation(&self, id: Id) -> StoreResult<bool>;
        } }
    };
    (LinkStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { LinkStore for $ty => $field [$($observe)?] {
            fn set_status_link(&self, status: Id, url: Option<&str>) -> StoreResult<()>;
            fn link_known(&self, url: &str) -> StoreResult<bool>;
            fn link_timeline(&self, url: &str, filter: PublicTimelineFilter, page: Page) -> StoreResult<Vec<StatusRecord>>;
        } sync {
            fn cards(&self) -> Option<&dyn CardStore>;
        } }
    };
    (NotificationPolicyStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { NotificationPolicyStore for $ty => $field [$($observe)?] {
            fn notification_policy(&self, account: Id) -> StoreResult<Option<NotificationPolicyRecord>>;
            fn save_notification_policy(&self, policy: &NotificationPolicyRecord) -> StoreResult<()>;
            fn notification_permitted(&self, account: Id, from: Id) -> StoreResult<bool>;
            fn note_notification_request(&self, new_id: Id, account: Id, from: Id, last_status: Option<Id>, at: DateTime<Utc>) -> StoreResult<NotificationRequestRecord>;
            fn notification_request_by_id(&self, id: Id) -> StoreResult<Option<NotificationRequestRecord>>;
            fn notification_requests_page(&self, account: Id, page: Page) -> StoreResult<Vec<NotificationRequestRecord>>;
            fn accept_notification_request(&self, id: Id) -> StoreResult<Vec<NotificationRecord>>;
            fn dismiss_notification_request(&self, id: Id) -> StoreResult<bool>;
        } }
    };
    (FederationStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { FederationStore for $ty => $field [$($observe)?] {
            fn actor_key(&self, owner: Id) -> StoreResult<Option<ActorKeyRecord>>;
            fn insert_actor_key(&self, key: &ActorKeyRecord) -> StoreResult<ActorKeyRecord>;
            fn remote_actor(&self, account: Id) -> StoreResult<Option<RemoteActorRecord>>;
            fn remote_actors(&self, accounts: &[Id]) -> StoreResult<Vec<RemoteActorRecord>>;
            fn remote_actor_by_uri(&self, uri: &str) -> StoreResult<Option<RemoteActorRecord>>;
            fn remote_actor_by_key_id(&self, key_id: &str) -> StoreResult<Option<RemoteActorRecord>>;
            fn save_remote_actor(&self, account: &AccountRecord, actor: &RemoteActorRecord) -> StoreResult<AccountRecord>;
            fn follower_inboxes(&self, account: Id) -> StoreResult<Vec<String>>;
            fn status_by_uri(&self, uri: &str) -> StoreResult<Option<StatusRecord>>;
            fn note_activity(&self, id: &str, at: DateTime<Utc>) -> StoreResult<bool>;
            fn prune_activities(&self, before: DateTime<Utc>) -> StoreResult<u64>;
            fn follow_uri(&self, follower: Id, target: Id) -> StoreResult<Option<String>>;
            fn set_follow_uri(&self, follower: Id, target: Id, uri: &str) -> StoreResult<()>;
            fn note_host_failure(&self, host: &str, at: DateTime<Utc>) -> StoreResult<DateTime<Utc>>;
            fn note_host_success(&self, host: &str) -> StoreResult<bool>;
            fn host_failing_since(&self, host: &str) -> StoreResult<Option<DateTime<Utc>>>;
        } }
    };
    (StatsStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { StatsStore for $ty => $field [$($observe)?] {
            fn count_local_accounts(&self) -> StoreResult<i64>;
            fn count_active_local_accounts(&self, since: DateTime<Utc>) -> StoreResult<i64>;
            fn count_local_statuses(&self) -> StoreResult<i64>;
            fn known_domains(&self) -> StoreResult<Vec<String>>;
            fn activity_between(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> StoreResult<WeekActivity>;
            fn record_active_day(&self, account: Id, day: NaiveDate) -> StoreResult<()>;
            fn measure_events(&self, kind: &MeasureKind, from: DateTime<Utc>, to: DateTime<Utc>) -> StoreResult<Vec<MeasureEvent>>;
            fn measure_total(&self, kind: &MeasureKind) -> StoreResult<i64>;
            fn dimension_counts(&self, kind: &DimensionKind, from: DateTime<Utc>, to: DateTime<Utc>, limit: u64) -> StoreResult<Vec<(Option<String>, i64)>>;
            fn signups_between(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> StoreResult<Vec<SignUpRecord>>;
            fn storage_usage(&self) -> StoreResult<StorageUsage>;
        } sync {
            fn keeps_dashboard_data(&self) -> bool;
        } }
    };
    (JobStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { JobStore for $ty => $field [$($observe)?] {
            fn enqueue_job(&self, job: &JobRecord) -> StoreResult<()>;
            fn claim_jobs(&self, worker: &str, now: DateTime<Utc>, lease_until: DateTime<Utc>, limit: usize) -> StoreResult<Vec<JobRecord>>;
            fn complete_job(&self, id: Id, worker: &str, at: DateTime<Utc>) -> StoreResult<bool>;
            fn fail_job(&self, id: Id, worker: &str, error: &str, retry_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> StoreResult<bool>;
            fn release_jobs(&self, ids: &[Id], worker: &str) -> StoreResult<u64>;
            fn job_by_id(&self, id: Id) -> StoreResult<Option<JobRecord>>;
            fn reschedule_job(&self, id: Id, run_at: DateTime<Utc>) -> StoreResult<bool>;
            fn cancel_job(&self, id: Id) -> StoreResult<bool>;
            fn purge_done_jobs(&self, before: DateTime<Utc>) -> StoreResult<u64>;
            fn count_jobs(&self, state: JobState) -> StoreResult<i64>;
        } }
    };
    (ScheduledStatusStore, $ty:ty, $field:ident $(, $observe:ident)?) => {
        $crate::__delegate_impl! { ScheduledStatusStore for $ty => $field [$($observe)?] {
            fn insert_scheduled_status(&self, s: &ScheduledStatusRecord) -> StoreResult<()>;
            fn scheduled_status_by_id(&self, id: Id) -> StoreResult<Option<ScheduledStatusRecord>>;
            fn scheduled_statuses(&self, account_id: Id, page: Page) -> StoreResult<Vec<ScheduledStatusRecord>>;
            fn update_scheduled_status(&self, s: &ScheduledStatusRecord) -> StoreResult<()>;
            fn delete_scheduled_status(&self, id: Id) -> StoreResult<bool>;
        } }
    };

    ($other:ident, $ty:ty, $field:ident $(, $observe:ident)?) => {
        compile_error!(concat!("delegate_store!: `", stringify!($other), "` is not a store trait"));
    };
}

/// Writes one forwarding `impl` (used by [`delegate_store!`](crate::delegate_store!)).
#[doc(hidden)]
#[macro_export]
macro_rules! __delegate_impl {
    ($store_trait:ident for $ty:ty => $field:ident $observe:tt {
        $(fn $name:ident(&self $(, $arg:ident: $arg_ty:ty)*) -> $ret:ty;)*
    } $(sync { $(fn $sync_name:ident(&self) -> $sync_ret:ty;)* })?) => {
        const _: () = {
            #[allow(unused_imports)]
            use $crate::store::delegate::__private::*;
            #[allow(unused_imports)]
            use $crate::store::*;

            #[$crate::store::delegate::__private::async_trait]
            impl $crate::store::$store_trait for $ty {
                $(
                    async fn $name(&self $(, $arg: $arg_ty)*) -> $ret {
                        $crate::__delegate_observe!($observe self $store_trait $name);
                        self.$field.$name($($arg),*).await
                    }
                )*
                $($(
                    fn $sync_name(&self) -> $sync_ret {
                        self.$field.$sync_name()
                    }
                )*)?
            }
        };
    };
}

/// The `observe = f` call before a forwarded call (nothing without one).
#[doc(hidden)]
#[macro_export]
macro_rules! __delegate_observe {
    ([] $this:tt $store_trait:ident $name:ident) => {};
    ([$observe:ident] $this:tt $store_trait:ident $name:ident) => {
        $this.$observe(concat!(stringify!($store_trait), "::", stringify!($name)))
    };
}

/// What the expansions name, re-exported so that the calling crate needs none of it.
#[doc(hidden)]
pub mod __private {
    pub use crate::error::StoreResult;
    pub use crate::id::Id;
    pub use crate::pagination::Page;
    pub use async_trait::async_trait;
    pub use chrono::{DateTime, NaiveDate, Utc};
}
