//! Filing reports (`POST /api/v1/reports`). <https://docs.joinmastodon.org/methods/reports/>

pub mod create_report;

use crate::permissions::Permissions;
use crate::store::Role;

/// The built-in roles whose holders handle reports (Mastodon's
/// `User.those_who_can(:manage_reports)`), told of each new one.
pub fn report_handlers() -> Vec<Role> {
    [Role::User, Role::Moderator, Role::Admin, Role::Owner]
        .into_iter()
        .filter(|r| Permissions::of(*r).allow(Permissions::MANAGE_REPORTS))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moderators_admins_and_the_owner_handle_reports() {
        assert_eq!(
            report_handlers(),
            [Role::Moderator, Role::Admin, Role::Owner]
        );
    }
}
