//! Filing reports (`POST /api/v1/reports`). <https://docs.joinmastodon.org/methods/reports/>

pub mod create_report;

use crate::app::App;
use crate::error::ApiResult;
use crate::permissions::{Permissions, roles_that_can};
use crate::store::Role;

/// The roles whose holders handle reports (Mastodon's `User.those_who_can(:manage_reports)`),
/// told of each new one: the built-in ones that may, and the custom roles granting it (read
/// from the store).
pub async fn report_handlers(app: &App) -> ApiResult<Vec<Role>> {
    Ok(roles_that_can(app.store.moderation(), Permissions::MANAGE_REPORTS).await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::Id;
    use crate::store::UserRoleRecord;
    use crate::test_support::app;

    #[tokio::test]
    async fn moderators_admins_the_owner_and_custom_roles_that_may_handle_reports() {
        let app = app("social.example");
        assert_eq!(
            report_handlers(&app).await.expect("roles"),
            [Role::Moderator, Role::Admin, Role::Owner]
        );
        let store = app.store.moderation().expect("moderation store");
        for (id, permissions) in [(10, Permissions::MANAGE_REPORTS), (11, Permissions::NONE)] {
            store
                .save_user_role(&UserRoleRecord {
                    id: Id(id),
                    name: format!("role {id}"),
                    color: String::new(),
                    permissions: permissions.0,
                    position: 5,
                    highlighted: false,
                    created_at: app.now(),
                    updated_at: app.now(),
                })
                .await
                .expect("saved");
        }
        assert_eq!(
            report_handlers(&app).await.expect("roles"),
            [
                Role::Moderator,
                Role::Admin,
                Role::Owner,
                Role::Custom(Id(10))
            ]
        );
    }
}
