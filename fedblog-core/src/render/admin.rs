//! Rendering of what administrators see: `Admin::Account`.

use crate::app::App;
use crate::entities::AdminAccount;
use crate::render::{render_role, render_role_badges, timestamp};
use crate::services::moderation::AdminAccountView;

impl App {
    /// An account as moderators see it (`Admin::Account`): the account as the client API renders
    /// it (a suspended one blank), with its login's state. A remote account has no login: its
    /// e-mail, locale and role are `null`, and it is neither confirmed nor approved nor disabled,
    /// as Mastodon answers. A local account's role badge is in its `account.roles` when the
    /// role is highlighted.
    pub fn render_admin_account(&self, view: &AdminAccountView) -> AdminAccount {
        let a = &view.account;
        let user = view.user.as_ref();
        let custom = view.custom_role.as_ref();
        let mut account = self.render_account(a);
        if let Some(u) = user {
            account.roles = render_role_badges(u.role, custom);
        }
        AdminAccount {
            id: a.id,
            username: a.username.clone(),
            domain: a.domain.clone(),
            created_at: timestamp(a.created_at),
            email: user.map(|u| u.email.clone()),
            ip: None,
            ips: Vec::new(),
            locale: user.map(|u| u.locale.clone()).filter(|l| !l.is_empty()),
            invite_request: None,
            role: user.map(|u| render_role(u.role, custom)),
            confirmed: user.is_some_and(|u| u.confirmed_at.is_some()),
            approved: user.is_some_and(|u| u.approved),
            disabled: user.is_some_and(|u| u.disabled),
            silenced: a.silenced_at.is_some(),
            suspended: a.is_suspended(),
            sensitized: a.sensitized_at.is_some(),
            account,
            created_by_application_id: None,
            invited_by_account_id: None,
        }
    }
}
