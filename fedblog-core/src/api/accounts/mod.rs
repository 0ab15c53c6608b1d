//! Accounts: sign-up, e-mail confirmation, credentials and profile, lookups. <https://docs.joinmastodon.org/methods/accounts/>
pub mod block_account;
pub mod confirm_email;
pub mod endorse_account;
pub mod familiar_followers;
pub mod follow_account;
pub mod get_account;
pub mod get_account_endorsements;
pub mod get_account_lists;
pub mod get_account_statuses;
pub mod get_accounts;
pub mod get_featured_tags;
pub mod get_followers;
pub mod get_following;
pub mod get_identity_proofs;
pub mod get_relationships;
pub mod lookup_account;
pub mod mute_account;
pub mod pin_account;
pub mod register_account;
pub mod remove_from_followers;
pub mod resend_confirmation;
pub mod search_accounts;
pub mod set_account_note;
pub mod unblock_account;
pub mod unendorse_account;
pub mod unfollow_account;
pub mod unmute_account;
pub mod unpin_account;
pub mod update_credentials;
pub mod verify_credentials;

use crate::app::App;
use crate::permissions::{Permissions, roles_that_can};
use crate::store::AccountRecord;

/// Tells the staff who manage users that `account` may now sign in (`admin.sign_up`). A
/// failure is logged: the confirmation or approval stands either way.
pub(crate) async fn tell_staff_of_sign_up(app: &App, account: &AccountRecord) {
    let told = async {
        let staff = roles_that_can(app.store.moderation(), Permissions::MANAGE_USERS).await?;
        app.notifications().signed_up(account, &staff).await
    };
    if let Err(e) = told.await {
        tracing::warn!(account = %account.id, "could not tell staff of a sign-up: {e:?}");
    }
}
