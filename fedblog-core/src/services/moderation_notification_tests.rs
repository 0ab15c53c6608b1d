//! The notifications moderation makes, as their recipients read them: the `moderation_warning`
//! a warned account is given (with the warning), and the `admin.report` staff are given (with
//! the report), in the plain and in the grouped lists; and the `admin.sign_up` staff who manage
//! users are given when a new account may sign in (confirmed and approved).

use crate::App;
use crate::api::accounts::confirm_email::{ConfirmEmail, ConfirmRequest};
use crate::api::admin_accounts::approve_account::{ApproveAccount, ApproveAccountRequest};
use crate::app::RequestInfo;
use crate::endpoint::{Auth, Endpoint};
use crate::id::Id;
use crate::pagination::Page;
use crate::services::accounts::NewAccount;
use crate::services::moderation::{AccountAction, AccountActionType};
use crate::services::reports::NewReport;
use crate::store::{AccountRecord, NotificationQuery, NotificationRecord, NotificationType, Role};
use crate::test_support::{account, app, member};

/// `who`'s notifications, newest first.
async fn told(app: &App, who: &AccountRecord) -> Vec<NotificationRecord> {
    app.store
        .notifications_page(who.id, &NotificationQuery::default(), Page::first(40))
        .await
        .expect("notifications")
}

/// A warning (`none`) given to `target` by `admin`, telling the account or not.
fn warning(text: &str, tell: bool) -> AccountAction {
    AccountAction {
        kind: AccountActionType::None,
        report_id: None,
        warning_preset_id: None,
        text: text.into(),
        send_email_notification: tell,
    }
}

#[tokio::test]
async fn a_warned_account_is_told_with_the_warning_when_asked() {
    let app = app("social.example");
    let admin = member(&app, "boss", Role::Admin).await;
    let target = account(&app, "target").await;
    let quiet = app
        .moderation()
        .act(&admin, Role::Admin, target.id, warning("Noted", false))
        .await
        .expect("warned quietly");
    assert!(
        told(&app, &target).await.is_empty(),
        "a warning given without send_email_notification makes no notification"
    );
    let given = app
        .moderation()
        .act(&admin, Role::Admin, target.id, warning("Be kind", true))
        .await
        .expect("warned");
    assert_ne!(quiet.id, given.id);
    let notes = told(&app, &target).await;
    assert_eq!(notes.len(), 1, "one notification: {notes:?}");
    let n = &notes[0];
    assert_eq!(n.kind, NotificationType::ModerationWarning);
    assert_eq!(n.subject_id, Some(given.id));
    assert_eq!(
        n.from_account_id, target.id,
        "a warning comes from its recipient, as Mastodon records it"
    );
    let rendered = app
        .render_notifications(&target, &notes)
        .await
        .expect("rendered");
    let shown = rendered[0]
        .moderation_warning
        .as_ref()
        .expect("the warning is shown with the notification");
    assert_eq!(rendered[0].kind, "moderation_warning");
    assert_eq!(shown.id, given.id);
    assert_eq!(shown.action, "none");
    assert_eq!(shown.text, "Be kind");
    assert_eq!(shown.status_ids, None);
    assert_eq!(shown.target_account.id, target.id);
    assert!(rendered[0].report.is_none());
    assert!(
        told(&app, &admin).await.is_empty(),
        "the moderator is not told"
    );
}

#[tokio::test]
async fn staff_are_told_of_a_report_with_the_report_in_both_lists() {
    let app = app("social.example");
    let moderator = member(&app, "moddy", Role::Moderator).await;
    let reporter = account(&app, "reporter").await;
    let target = account(&app, "target").await;
    let filed = app
        .reports()
        .file_report(
            &reporter,
            NewReport {
                account_id: target.id.to_string(),
                comment: "spam again".into(),
                category: Some("spam".into()),
                ..NewReport::default()
            },
            &[Role::Moderator, Role::Admin, Role::Owner],
        )
        .await
        .expect("filed");
    let notes = told(&app, &moderator).await;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].kind, NotificationType::AdminReport);
    assert_eq!(notes[0].subject_id, Some(filed.report.id));
    let rendered = app
        .render_notifications(&moderator, &notes)
        .await
        .expect("rendered");
    let report = rendered[0].report.as_ref().expect("the report is shown");
    assert_eq!(report.id, filed.report.id);
    assert_eq!(report.comment, "spam again");
    assert_eq!(report.category, "spam");
    assert_eq!(report.target_account.id, target.id);
    assert_eq!(rendered[0].account.id, reporter.id);
    let groups = app
        .notification_groups()
        .page(
            &moderator,
            &NotificationQuery::default(),
            &crate::services::notification_groups::GROUPABLE_TYPES,
            Page::first(40),
        )
        .await
        .expect("groups");
    let page = app
        .render_notification_groups(&moderator, &groups.groups, false)
        .await
        .expect("rendered groups");
    assert_eq!(page.notification_groups.len(), 1);
    let group = &page.notification_groups[0];
    assert_eq!(group.kind, "admin.report");
    assert_eq!(
        group.report.as_ref().map(|r| r.id),
        Some(filed.report.id),
        "the grouped list shows the report too"
    );
}

/// Authenticates a fresh token of `who` with `scopes` as an endpoint of `auth` would; anonymous
/// without `who`.
async fn caller(app: &App, who: Option<&AccountRecord>, auth: Auth) -> crate::app::Caller {
    let token = match who {
        Some(who) => {
            let cli = app.oauth().cli_application().await.expect("cli app");
            let scopes =
                crate::scope::Scopes::parse("read write admin:read admin:write").expect("scopes");
            Some(
                app.oauth()
                    .issue_token(cli.id, Some(who.id), &scopes)
                    .await
                    .expect("token")
                    .access_token,
            )
        }
        None => None,
    };
    app.authenticate(auth, token.as_deref(), None, RequestInfo::default())
        .await
        .expect("authenticated")
}

/// The `admin.sign_up` notifications `who` has, by the account that signed up.
async fn sign_ups_told(app: &App, who: &AccountRecord) -> Vec<Id> {
    told(app, who)
        .await
        .into_iter()
        .filter(|n| n.kind == NotificationType::AdminSignUp)
        .map(|n| n.from_account_id)
        .collect()
}

#[tokio::test]
async fn staff_who_manage_users_are_told_once_a_new_account_may_sign_in() {
    let app = app("social.example");
    let admin = member(&app, "boss", Role::Admin).await;
    let moderator = member(&app, "moddy", Role::Moderator).await;
    let plain = account(&app, "plain").await;
    // Approved, waiting for its address to be confirmed: confirming tells staff.
    let (joiner, _, token) = app
        .accounts()
        .create_local_account(
            NewAccount {
                username: "joiner".into(),
                email: "joiner@example.test".into(),
                password: "correct horse battery".into(),
                role: Role::User,
                confirmed: false,
                approved: true,
                locale: "en".into(),
            },
            false,
        )
        .await
        .expect("signed up");
    assert!(sign_ups_told(&app, &admin).await.is_empty(), "not yet");
    let anonymous = caller(&app, None, Auth::Public).await;
    ConfirmEmail::handle(
        &app,
        &anonymous,
        ConfirmRequest {
            confirmation_token: token,
        },
    )
    .await
    .expect("confirmed");
    assert_eq!(sign_ups_told(&app, &admin).await, [joiner.id]);
    assert_eq!(sign_ups_told(&app, &moderator).await, [joiner.id]);
    assert!(sign_ups_told(&app, &plain).await.is_empty());
    // Confirmed, waiting for approval: approving tells staff.
    let (waiting, _, _) = app
        .accounts()
        .create_local_account(
            NewAccount {
                username: "waiting".into(),
                email: "waiting@example.test".into(),
                password: "correct horse battery".into(),
                role: Role::User,
                confirmed: true,
                approved: false,
                locale: "en".into(),
            },
            false,
        )
        .await
        .expect("signed up");
    let boss = caller(&app, Some(&admin), Auth::User("admin:write:accounts")).await;
    ApproveAccount::handle(
        &app,
        &boss,
        ApproveAccountRequest {
            id: waiting.id.to_string(),
        },
    )
    .await
    .expect("approved");
    assert_eq!(
        sign_ups_told(&app, &moderator).await,
        [waiting.id, joiner.id]
    );
    assert_eq!(
        sign_ups_told(&app, &admin).await,
        [waiting.id, joiner.id],
        "the approving admin is told too, as Mastodon tells every user manager"
    );
}
