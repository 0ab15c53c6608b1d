//! Endpoint declarations: one file per endpoint, each naming its method, path, authentication,
//! request and response types and handler. [`routes`] is the route table every transport serves.
//!
//! Paths are written once, here, in Mastodon's `:param` notation.

pub mod accounts;
pub mod activitypub;
pub mod admin_accounts;
pub mod admin_announcements;
pub mod admin_canonical_email_blocks;
pub mod admin_custom_emojis;
pub mod admin_domain_allows;
pub mod admin_domain_blocks;
pub mod admin_email_domain_blocks;
pub mod admin_ip_blocks;
pub mod admin_metrics;
pub mod admin_reports;
pub mod admin_tags;
pub mod admin_trends;
pub mod announcements;
pub mod apps;
pub mod blocks;
pub mod bookmarks;
pub mod compatibility;
pub mod conversations;
pub mod crypto;
pub mod custom_emojis;
pub mod directory;
mod dispatch;
pub mod domain_blocks;
pub mod emails;
pub mod endorsements;
pub mod favourites;
pub mod featured_tags;
pub mod filters;
pub mod filters_v1;
pub mod follow_requests;
pub mod followed_tags;
pub mod follows;
pub mod health;
pub mod in_process;
pub mod instance;
pub mod lists;
pub mod markers;
pub mod media;
pub mod mutes;
pub mod notification_requests;
pub mod notifications;
pub mod notifications_alpha;
pub mod oauth;
pub mod oembed;
pub mod pages;
pub mod passwords;
pub mod polls;
pub mod preferences;
pub mod profile;
pub mod push;
pub mod reports;
pub mod scheduled_statuses;
pub mod search;
pub mod statuses;
pub mod streaming;
pub mod suggestions;
pub mod tags;
pub mod timelines;
pub mod trends;
pub mod well_known;

pub use dispatch::error_reply;

pub use crate::endpoint::*;

/// Endpoints Mastodon removed; a server must not offer them (they answer 404 here).
pub const REMOVED_ENDPOINTS: &[(&str, &str)] = &[
    ("GET", "/api/v1/search"),
    ("GET", "/api/v1/statuses/:id/card"),
    ("GET", "/api/v1/timelines/direct"),
    ("GET", "/api/v1/mutes/details"),
    ("POST", "/api/v1/notifications/dismiss"),
];

/// Paths of Mastodon endpoints this crate does not serve yet, as Mastodon spells them. The
/// conformance checks of the specification's rules about them use these (and fail against
/// fedblog until the endpoints are built); an endpoint that gets built moves to a declaration.
pub mod unserved {
    /// `GET`, `POST`, `PUT`, `DELETE`: the caller's web push subscription.
    pub const PUSH_SUBSCRIPTION: &str = "/api/v1/push/subscription";
}

/// Endpoints of federation mechanisms Mastodon dropped (Salmon, PubSubHubbub); a server must
/// not offer them.
pub const DROPPED_FEDERATION_ENDPOINTS: &[(&str, &str)] = &[
    ("POST", "/api/salmon/:id"),
    ("POST", "/api/push"),
    ("POST", "/api/subscriptions/:id"),
];

/// The route table: every endpoint this crate implements, one line each.
pub fn routes() -> Vec<Route> {
    vec![
        // OAuth and applications
        route::<apps::create_app::CreateApp>(),
        route::<apps::verify_app_credentials::VerifyAppCredentials>(),
        route::<oauth::authorize_page::AuthorizePage>(),
        route::<oauth::authorize_decision::AuthorizeDecision>(),
        route::<oauth::create_token::CreateToken>(),
        route::<oauth::revoke_token::RevokeToken>(),
        route::<oauth::introspect_token::IntrospectToken>(),
        route::<oauth::token_info::TokenInfo>(),
        route::<oauth::server_metadata::ServerMetadata>(),
        route::<oauth::userinfo::Userinfo>(),
        route::<oauth::userinfo::UserinfoPost>(),
        // Accounts
        route::<accounts::register_account::RegisterAccount>(),
        route::<accounts::resend_confirmation::ResendConfirmation>(),
        route::<accounts::confirm_email::ConfirmEmail>(),
        // E-mail: confirmation state, password resets, changes of address, notification mails
        route::<emails::check_confirmation::CheckConfirmation>(),
        route::<passwords::new_password::NewPassword>(),
        route::<passwords::request_reset::RequestReset>(),
        route::<passwords::edit_password::EditPassword>(),
        route::<passwords::update_password::UpdatePassword>(),
        route::<emails::edit_email::EditEmail>(),
        route::<emails::change_email::ChangeEmail>(),
        route::<emails::confirm_email_change::ConfirmEmailChange>(),
        route::<emails::notification_emails_page::NotificationEmailsPage>(),
        route::<emails::save_notification_emails::SaveNotificationEmails>(),
        route::<accounts::verify_credentials::VerifyCredentials>(),
        route::<accounts::update_credentials::UpdateCredentials>(),
        route::<profile::delete_avatar::DeleteAvatar>(),
        route::<profile::delete_header::DeleteHeader>(),
        route::<accounts::get_account::GetAccount>(),
        route::<accounts::get_accounts::GetAccounts>(),
        route::<accounts::lookup_account::LookupAccount>(),
        route::<accounts::follow_account::FollowAccount>(),
        route::<accounts::unfollow_account::UnfollowAccount>(),
        route::<accounts::get_relationships::GetRelationships>(),
        route::<accounts::get_followers::GetFollowers>(),
        route::<accounts::get_following::GetFollowing>(),
        route::<accounts::block_account::BlockAccount>(),
        route::<accounts::unblock_account::UnblockAccount>(),
        route::<accounts::mute_account::MuteAccount>(),
        route::<accounts::unmute_account::UnmuteAccount>(),
        route::<blocks::list_blocks::ListBlocks>(),
        route::<mutes::list_mutes::ListMutes>(),
        route::<accounts::remove_from_followers::RemoveFromFollowers>(),
        route::<accounts::set_account_note::SetAccountNote>(),
        route::<accounts::endorse_account::EndorseAccount>(),
        route::<accounts::unendorse_account::UnendorseAccount>(),
        route::<accounts::pin_account::PinAccount>(),
        route::<accounts::unpin_account::UnpinAccount>(),
        route::<accounts::get_account_endorsements::GetAccountEndorsements>(),
        route::<endorsements::list_endorsements::ListEndorsements>(),
        route::<accounts::familiar_followers::GetFamiliarFollowers>(),
        route::<accounts::search_accounts::SearchAccounts>(),
        route::<accounts::get_account_statuses::GetAccountStatuses>(),
        route::<accounts::get_account_lists::GetAccountLists>(),
        route::<follows::follow_by_uri::FollowByUri>(),
        route::<domain_blocks::list_domain_blocks::ListDomainBlocks>(),
        route::<domain_blocks::block_domain::BlockDomain>(),
        route::<domain_blocks::unblock_domain::UnblockDomain>(),
        route::<domain_blocks::preview_domain_block::PreviewDomainBlock>(),
        // Discovery
        // Search
        route::<search::search_v2::SearchV2>(),
        route::<suggestions::list_suggestions_v2::ListSuggestionsV2>(),
        route::<suggestions::list_suggestions::ListSuggestions>(),
        route::<suggestions::dismiss_suggestion::DismissSuggestion>(),
        route::<directory::list_directory::ListDirectory>(),
        // Follow requests
        route::<follow_requests::list_follow_requests::ListFollowRequests>(),
        route::<follow_requests::authorize_follow_request::AuthorizeFollowRequest>(),
        route::<follow_requests::reject_follow_request::RejectFollowRequest>(),
        // Statuses
        route::<statuses::create_status::CreateStatus>(),
        route::<statuses::get_status::GetStatus>(),
        route::<statuses::get_statuses::GetStatuses>(),
        route::<statuses::delete_status::DeleteStatus>(),
        route::<statuses::get_context::GetContext>(),
        route::<statuses::favourite_status::FavouriteStatus>(),
        route::<statuses::unfavourite_status::UnfavouriteStatus>(),
        route::<statuses::reblog_status::ReblogStatus>(),
        route::<statuses::unreblog_status::UnreblogStatus>(),
        route::<statuses::bookmark_status::BookmarkStatus>(),
        route::<statuses::unbookmark_status::UnbookmarkStatus>(),
        route::<statuses::pin_status::PinStatus>(),
        route::<statuses::unpin_status::UnpinStatus>(),
        route::<statuses::mute_conversation::MuteConversation>(),
        route::<statuses::unmute_conversation::UnmuteConversation>(),
        route::<statuses::favourited_by::FavouritedBy>(),
        route::<statuses::reblogged_by::RebloggedBy>(),
        route::<statuses::list_quotes::ListQuotes>(),
        route::<statuses::revoke_quote::RevokeQuote>(),
        route::<statuses::update_interaction_policy::UpdateInteractionPolicy>(),
        route::<statuses::edit_status::EditStatus>(),
        route::<statuses::status_history::GetStatusHistory>(),
        route::<statuses::status_source::GetStatusSource>(),
        route::<statuses::translate_status::TranslateStatus>(),
        route::<favourites::list_favourites::ListFavourites>(),
        route::<bookmarks::list_bookmarks::ListBookmarks>(),
        // Polls
        route::<media::create_media::CreateMedia>(),
        route::<media::create_media_v1::CreateMediaV1>(),
        route::<media::get_media::GetMedia>(),
        route::<media::update_media::UpdateMedia>(),
        route::<media::delete_media::DeleteMedia>(),
        route::<polls::get_poll::GetPoll>(),
        route::<polls::vote_poll::VotePoll>(),
        // Scheduled statuses
        route::<scheduled_statuses::list_scheduled_statuses::ListScheduledStatuses>(),
        route::<scheduled_statuses::get_scheduled_status::GetScheduledStatus>(),
        route::<scheduled_statuses::update_scheduled_status::UpdateScheduledStatus>(),
        route::<scheduled_statuses::delete_scheduled_status::DeleteScheduledStatus>(),
        // Hashtags
        route::<tags::get_tag::GetTag>(),
        route::<tags::follow_tag::FollowTag>(),
        route::<tags::unfollow_tag::UnfollowTag>(),
        route::<tags::feature_tag::FeatureTag>(),
        route::<tags::unfeature_tag::UnfeatureTag>(),
        route::<followed_tags::list_followed_tags::ListFollowedTags>(),
        // Trends
        route::<trends::list_tags::ListTrendingTags>(),
        route::<trends::list_tags_v1::ListTrendingTagsV1>(),
        route::<trends::list_statuses::ListTrendingStatuses>(),
        route::<trends::list_links::ListTrendingLinks>(),
        route::<featured_tags::list_featured_tags::ListFeaturedTags>(),
        route::<featured_tags::create_featured_tag::CreateFeaturedTag>(),
        route::<featured_tags::delete_featured_tag::DeleteFeaturedTag>(),
        route::<featured_tags::featured_tag_suggestions::FeaturedTagSuggestions>(),
        route::<accounts::get_featured_tags::GetFeaturedTags>(),
        route::<accounts::get_identity_proofs::GetIdentityProofs>(),
        // Timelines
        route::<timelines::home_timeline::HomeTimeline>(),
        route::<timelines::public_timeline::PublicTimeline>(),
        route::<timelines::list_timeline::ListTimeline>(),
        route::<timelines::tag_timeline::TagTimeline>(),
        route::<timelines::link_timeline::LinkTimeline>(),
        // Health and streaming
        route::<health::health_check::HealthCheck>(),
        route::<streaming::health::StreamingHealth>(),
        route::<streaming::stream_websocket::StreamWebSocket>(),
        route::<streaming::stream_user::StreamUser>(),
        route::<streaming::stream_user_notification::StreamUserNotification>(),
        route::<streaming::stream_public::StreamPublic>(),
        route::<streaming::stream_public_local::StreamPublicLocal>(),
        route::<streaming::stream_public_remote::StreamPublicRemote>(),
        route::<streaming::stream_hashtag::StreamHashtag>(),
        route::<streaming::stream_hashtag_local::StreamHashtagLocal>(),
        route::<streaming::stream_list::StreamList>(),
        route::<streaming::stream_direct::StreamDirect>(),
        route::<lists::list_lists::ListLists>(),
        route::<lists::create_list::CreateList>(),
        route::<lists::get_list::GetList>(),
        route::<lists::update_list::UpdateList>(),
        route::<lists::delete_list::DeleteList>(),
        route::<lists::list_accounts::ListAccounts>(),
        route::<lists::add_list_accounts::AddListAccounts>(),
        route::<lists::remove_list_accounts::RemoveListAccounts>(),
        // Notifications
        route::<notifications::list_notifications::ListNotifications>(),
        route::<notifications::unread_count::UnreadCount>(),
        route::<notifications::get_notification::GetNotification>(),
        route::<notifications::dismiss_notification::DismissNotification>(),
        route::<notifications::delete_notification::DeleteNotification>(),
        route::<notifications::dismiss_notifications::DismissNotifications>(),
        route::<notifications::clear_notifications::ClearNotifications>(),
        route::<notifications::list_notification_groups::ListNotificationGroups>(),
        route::<notifications::unread_group_count::UnreadGroupCount>(),
        route::<notifications::get_notification_group::GetNotificationGroup>(),
        route::<notifications::notification_group_accounts::NotificationGroupAccounts>(),
        route::<notifications::dismiss_notification_group::DismissNotificationGroup>(),
        route::<notifications::clear_notification_groups::ClearNotificationGroups>(),
        route::<notifications_alpha::list_notification_groups_alpha::ListNotificationGroupsAlpha>(),
        route::<notifications_alpha::unread_group_count_alpha::UnreadGroupCountAlpha>(),
        route::<notifications_alpha::get_notification_group_alpha::GetNotificationGroupAlpha>(),
        route::<notifications_alpha::dismiss_notification_group_alpha::DismissNotificationGroupAlpha>(),
        route::<notifications_alpha::clear_notification_groups_alpha::ClearNotificationGroupsAlpha>(),
        // Conversations
        route::<conversations::list_conversations::ListConversations>(),
        route::<conversations::read_conversation::ReadConversation>(),
        route::<conversations::mark_conversation_unread::MarkConversationUnread>(),
        route::<conversations::delete_conversation::DeleteConversation>(),
        // Filters
        route::<filters::list_filters::ListFilters>(),
        route::<filters::create_filter::CreateFilter>(),
        route::<filters::get_filter::GetFilter>(),
        route::<filters::update_filter::UpdateFilter>(),
        route::<filters::delete_filter::DeleteFilter>(),
        route::<filters::list_filter_keywords::ListFilterKeywords>(),
        route::<filters::add_filter_keyword::AddFilterKeyword>(),
        route::<filters::get_filter_keyword::GetFilterKeyword>(),
        route::<filters::update_filter_keyword::UpdateFilterKeyword>(),
        route::<filters::delete_filter_keyword::DeleteFilterKeyword>(),
        route::<filters::list_filter_statuses::ListFilterStatuses>(),
        route::<filters::add_filter_status::AddFilterStatus>(),
        route::<filters::get_filter_status::GetFilterStatus>(),
        route::<filters::delete_filter_status::DeleteFilterStatus>(),
        route::<filters_v1::list_filters_v1::ListFiltersV1>(),
        route::<filters_v1::create_filter_v1::CreateFilterV1>(),
        route::<filters_v1::get_filter_v1::GetFilterV1>(),
        route::<filters_v1::update_filter_v1::UpdateFilterV1>(),
        route::<filters_v1::delete_filter_v1::DeleteFilterV1>(),
        route::<notification_requests::get_notification_policy::GetNotificationPolicy>(),
        route::<notification_requests::update_notification_policy::UpdateNotificationPolicy>(),
        route::<notification_requests::list_notification_requests::ListNotificationRequests>(),
        route::<notification_requests::get_notification_request::GetNotificationRequest>(),
        route::<notification_requests::accept_notification_request::AcceptNotificationRequest>(),
        route::<notification_requests::dismiss_notification_request::DismissNotificationRequest>(),
        route::<notification_requests::accept_notification_requests::AcceptNotificationRequests>(),
        route::<notification_requests::dismiss_notification_requests::DismissNotificationRequests>(
        ),
        route::<notification_requests::notification_requests_merged::NotificationRequestsMerged>(),
        // Announcements
        route::<announcements::list_announcements::ListAnnouncements>(),
        route::<announcements::dismiss_announcement::DismissAnnouncement>(),
        route::<announcements::add_announcement_reaction::AddAnnouncementReaction>(),
        route::<announcements::remove_announcement_reaction::RemoveAnnouncementReaction>(),
        // Announcements as staff manage them (fedblog's own)
        route::<admin_announcements::list_announcements::ListAdminAnnouncements>(),
        route::<admin_announcements::get_announcement::GetAdminAnnouncement>(),
        route::<admin_announcements::create_announcement::CreateAdminAnnouncement>(),
        route::<admin_announcements::update_announcement::UpdateAdminAnnouncement>(),
        route::<admin_announcements::delete_announcement::DeleteAdminAnnouncement>(),
        route::<admin_announcements::publish_announcement::PublishAdminAnnouncement>(),
        route::<admin_announcements::unpublish_announcement::UnpublishAdminAnnouncement>(),
        // Markers
        route::<markers::get_markers::GetMarkers>(),
        route::<markers::save_markers::SaveMarkers>(),
        route::<preferences::get_preferences::GetPreferences>(),
        // Web Push
        route::<push::create_subscription::CreateSubscription>(),
        route::<push::create_subscriptions::CreateSubscriptions>(),
        route::<push::get_subscription::GetSubscription>(),
        route::<push::update_subscription::UpdateSubscription>(),
        route::<push::delete_subscription::DeleteSubscription>(),
        // End-to-end encryption helpers (Mastodon 3.x)
        route::<crypto::upload_keys::UploadKeys>(),
        route::<crypto::query_keys::QueryKeys>(),
        route::<crypto::claim_keys::ClaimKeys>(),
        route::<crypto::count_keys::CountKeys>(),
        route::<crypto::create_deliveries::CreateDeliveries>(),
        route::<crypto::list_encrypted_messages::ListEncryptedMessages>(),
        route::<crypto::clear_encrypted_messages::ClearEncryptedMessages>(),
        // Reports
        route::<reports::create_report::CreateReport>(),
        // Administration: accounts
        route::<admin_accounts::list_accounts_v1::ListAccountsV1>(),
        route::<admin_accounts::list_accounts_v2::ListAccountsV2>(),
        route::<admin_accounts::get_account::GetAdminAccount>(),
        route::<admin_accounts::moderate_account::ModerateAccount>(),
        route::<admin_accounts::approve_account::ApproveAccount>(),
        route::<admin_accounts::reject_account::RejectAccount>(),
        route::<admin_accounts::enable_account::EnableAccount>(),
        route::<admin_accounts::unsilence_account::UnsilenceAccount>(),
        route::<admin_accounts::unsuspend_account::UnsuspendAccount>(),
        route::<admin_accounts::unsensitive_account::UnsensitiveAccount>(),
        route::<admin_accounts::delete_account::DeleteAdminAccount>(),
        // Administration: reports
        route::<admin_reports::list_reports::ListReports>(),
        route::<admin_reports::get_report::GetReport>(),
        route::<admin_reports::update_report::UpdateReport>(),
        route::<admin_reports::assign_report::AssignReport>(),
        route::<admin_reports::unassign_report::UnassignReport>(),
        route::<admin_reports::resolve_report::ResolveReport>(),
        route::<admin_reports::reopen_report::ReopenReport>(),
        // Administration: custom emojis (fedblog's own endpoints)
        route::<admin_custom_emojis::list_custom_emojis::ListAdminCustomEmojis>(),
        route::<admin_custom_emojis::create_custom_emoji::CreateAdminCustomEmoji>(),
        route::<admin_custom_emojis::get_custom_emoji::GetAdminCustomEmoji>(),
        route::<admin_custom_emojis::update_custom_emoji::UpdateAdminCustomEmoji>(),
        route::<admin_custom_emojis::delete_custom_emoji::DeleteAdminCustomEmoji>(),
        route::<admin_custom_emojis::enable_custom_emoji::EnableAdminCustomEmoji>(),
        route::<admin_custom_emojis::disable_custom_emoji::DisableAdminCustomEmoji>(),
        route::<admin_custom_emojis::copy_custom_emoji::CopyAdminCustomEmoji>(),
        // Administration: server-wide blocks
        route::<admin_domain_blocks::list_domain_blocks::ListAdminDomainBlocks>(),
        route::<admin_domain_blocks::get_domain_block::GetAdminDomainBlock>(),
        route::<admin_domain_blocks::create_domain_block::CreateAdminDomainBlock>(),
        route::<admin_domain_blocks::update_domain_block::UpdateAdminDomainBlock>(),
        route::<admin_domain_blocks::delete_domain_block::DeleteAdminDomainBlock>(),
        route::<admin_domain_allows::list_domain_allows::ListAdminDomainAllows>(),
        route::<admin_domain_allows::get_domain_allow::GetAdminDomainAllow>(),
        route::<admin_domain_allows::create_domain_allow::CreateAdminDomainAllow>(),
        route::<admin_domain_allows::delete_domain_allow::DeleteAdminDomainAllow>(),
        route::<admin_email_domain_blocks::list_email_domain_blocks::ListAdminEmailDomainBlocks>(),
        route::<admin_email_domain_blocks::get_email_domain_block::GetAdminEmailDomainBlock>(),
        route::<admin_email_domain_blocks::create_email_domain_block::CreateAdminEmailDomainBlock>(),
        route::<admin_email_domain_blocks::delete_email_domain_block::DeleteAdminEmailDomainBlock>(),
        route::<admin_canonical_email_blocks::list_canonical_email_blocks::ListAdminCanonicalEmailBlocks>(),
        route::<admin_canonical_email_blocks::get_canonical_email_block::GetAdminCanonicalEmailBlock>(),
        route::<admin_canonical_email_blocks::test_canonical_email::TestCanonicalEmail>(),
        route::<admin_canonical_email_blocks::create_canonical_email_block::CreateAdminCanonicalEmailBlock>(),
        route::<admin_canonical_email_blocks::delete_canonical_email_block::DeleteAdminCanonicalEmailBlock>(),
        route::<admin_ip_blocks::list_ip_blocks::ListAdminIpBlocks>(),
        route::<admin_ip_blocks::get_ip_block::GetAdminIpBlock>(),
        route::<admin_ip_blocks::create_ip_block::CreateAdminIpBlock>(),
        route::<admin_ip_blocks::update_ip_block::UpdateAdminIpBlock>(),
        route::<admin_ip_blocks::delete_ip_block::DeleteAdminIpBlock>(),
        route::<admin_tags::list_tags::ListAdminTags>(),
        route::<admin_tags::get_tag::GetAdminTag>(),
        route::<admin_tags::update_tag::UpdateAdminTag>(),
        route::<admin_metrics::measures::GetMeasures>(),
        route::<admin_metrics::dimensions::GetDimensions>(),
        route::<admin_metrics::retention::GetRetention>(),
        route::<admin_trends::list_trend_tags::ListTrendTags>(),
        route::<admin_trends::approve_trend_tag::ApproveTrendTag>(),
        route::<admin_trends::reject_trend_tag::RejectTrendTag>(),
        route::<admin_trends::list_trend_statuses::ListTrendStatuses>(),
        route::<admin_trends::approve_trend_status::ApproveTrendStatus>(),
        route::<admin_trends::reject_trend_status::RejectTrendStatus>(),
        route::<admin_trends::list_trend_links::ListTrendLinks>(),
        route::<admin_trends::approve_trend_link::ApproveTrendLink>(),
        route::<admin_trends::reject_trend_link::RejectTrendLink>(),
        route::<admin_trends::list_trend_publishers::ListTrendPublishers>(),
        route::<admin_trends::approve_trend_publisher::ApproveTrendPublisher>(),
        route::<admin_trends::reject_trend_publisher::RejectTrendPublisher>(),
        // Instance
        route::<instance::instance_v1::InstanceV1>(),
        route::<instance::instance_v2::InstanceV2>(),
        route::<instance::instance_peers::InstancePeers>(),
        route::<instance::instance_activity::InstanceActivity>(),
        // Custom emojis
        route::<custom_emojis::list_custom_emojis::ListCustomEmojis>(),
        route::<instance::instance_rules::InstanceRules>(),
        route::<instance::translation_languages::TranslationLanguages>(),
        route::<instance::nodeinfo_discovery::NodeinfoDiscovery>(),
        route::<instance::nodeinfo::Nodeinfo>(),
        route::<instance::nodeinfo_21::Nodeinfo21>(),
        route::<instance::extended_description::GetExtendedDescription>(),
        route::<instance::privacy_policy::GetPrivacyPolicy>(),
        route::<instance::terms_of_service::GetTermsOfService>(),
        route::<instance::terms_of_service_on::GetTermsOfServiceOn>(),
        route::<instance::instance_domain_blocks::InstanceDomainBlocks>(),
        route::<instance::instance_languages::InstanceLanguages>(),
        route::<instance::search_peers::SearchPeers>(),
        // Discovery by other servers
        route::<well_known::webfinger::GetWebfinger>(),
        route::<well_known::host_meta::HostMeta>(),
        route::<well_known::host_meta_json::HostMetaJson>(),
        route::<well_known::change_password::ChangePassword>(),
        route::<oembed::get_oembed::GetOEmbed>(),
        // ActivityPub
        route::<activitypub::actor::ActorDocument>(),
        route::<activitypub::profile_page::ProfilePage>(),
        route::<activitypub::note::NoteDocument>(),
        route::<activitypub::replies::RepliesCollection>(),
        route::<activitypub::status_activity::StatusActivity>(),
        route::<activitypub::status_likes::StatusLikes>(),
        route::<activitypub::quote_authorization::QuoteAuthorization>(),
        route::<activitypub::status_shares::StatusShares>(),
        route::<activitypub::status_page::StatusPage>(),
        route::<activitypub::status_embed::StatusEmbed>(),
        route::<activitypub::context::ContextCollection>(),
        route::<activitypub::context_items::ContextItems>(),
        route::<activitypub::inbox::PersonalInbox>(),
        route::<activitypub::shared_inbox::SharedInbox>(),
        route::<activitypub::instance_actor::InstanceActor>(),
        route::<activitypub::instance_inbox::InstanceInbox>(),
        route::<activitypub::instance_outbox::InstanceOutbox>(),
        route::<activitypub::outbox::OutboxCollection>(),
        route::<activitypub::followers::FollowersCollection>(),
        route::<activitypub::followers_synchronization::FollowersSynchronization>(),
        route::<activitypub::following::FollowingCollection>(),
        route::<activitypub::featured::FeaturedCollection>(),
        route::<activitypub::featured_tags::FeaturedTagsCollection>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_is_unique() {
        let mut seen = std::collections::HashSet::new();
        for r in routes() {
            assert!(
                seen.insert((r.method.clone(), r.path)),
                "duplicate route {r:?}"
            );
            assert!(r.path.starts_with('/'), "{r:?}");
        }
    }

    #[test]
    fn fill_path_substitutes_params() {
        assert_eq!(
            fill_path("/api/v1/statuses/:id/context", &[("id", "42")]),
            "/api/v1/statuses/42/context"
        );
    }
}
