//! Checks of the e-mail flows' data in [`AccountStore`](fedblog_core::store::AccountStore):
//! pending mailed links (`save_mail_token`, `mail_token`), using them (`reset_password`,
//! `confirm_email_change`), and the notification e-mail choices.
//!
//! All of it is [`Capability::KeepsMailData`]: a store lacking it (the trait's defaults) must
//! answer as the defaults do instead: saving fails, lookups find nothing, nothing is used, no
//! choice is kept.

use fedblog_core::store::{MailTokenPurpose, MailTokenRecord, NotificationEmailsRecord};
use fedblog_core::{IdGenerator, Store};

use super::{
    Capabilities, Capability, T0, add_app, add_local, assert_already_exists, assert_not_found, at,
    authorization, token,
};

/// A pending link of `purpose` for `account`, made at `millis`. Not saved.
fn link(
    account: fedblog_core::Id,
    purpose: MailTokenPurpose,
    hash: &str,
    email: Option<&str>,
    millis: i64,
) -> MailTokenRecord {
    MailTokenRecord {
        account_id: account,
        purpose,
        token_hash: hash.to_string(),
        email: email.map(str::to_string),
        sent_at: at(millis),
    }
}

/// A saved link comes back by purpose and hash, exactly as saved; a second link of the same
/// purpose replaces the first (whose hash then finds nothing), while a link of the other
/// purpose stays; an account without a login is `NotFound`. Lacking the capability, saving
/// fails and nothing is found.
pub async fn mail_tokens_round_trip_one_per_purpose(store: &dyn Store, capabilities: Capabilities) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let reset = link(
        alice.id,
        MailTokenPurpose::PasswordReset,
        "reset-1",
        None,
        T0,
    );
    let change = link(
        alice.id,
        MailTokenPurpose::EmailChange,
        "change-1",
        Some("alice@new.example"),
        T0 + 1_000,
    );
    if !capabilities.has(Capability::KeepsMailData) {
        assert!(
            store.save_mail_token(&reset).await.is_err(),
            "a store that keeps no mail tokens fails to save one (or claim KeepsMailData)"
        );
        assert_eq!(
            store
                .mail_token(MailTokenPurpose::PasswordReset, "reset-1")
                .await
                .expect("mail_token"),
            None,
            "a store that keeps no mail tokens finds none"
        );
        return;
    }
    store
        .save_mail_token(&reset)
        .await
        .expect("save_mail_token");
    store
        .save_mail_token(&change)
        .await
        .expect("save_mail_token");
    for t in [&reset, &change] {
        assert_eq!(
            store
                .mail_token(t.purpose, &t.token_hash)
                .await
                .expect("mail_token")
                .as_ref(),
            Some(t),
            "mail_token must answer the link exactly as saved"
        );
    }
    assert_eq!(
        store
            .mail_token(MailTokenPurpose::EmailChange, "reset-1")
            .await
            .expect("mail_token"),
        None,
        "mail_token must find a link by its purpose too"
    );
    let newer = link(
        alice.id,
        MailTokenPurpose::PasswordReset,
        "reset-2",
        None,
        T0 + 2_000,
    );
    store
        .save_mail_token(&newer)
        .await
        .expect("save_mail_token");
    assert_eq!(
        store
            .mail_token(MailTokenPurpose::PasswordReset, "reset-1")
            .await
            .expect("mail_token"),
        None,
        "a new link of a purpose replaces the login's earlier one"
    );
    assert_eq!(
        store
            .mail_token(MailTokenPurpose::PasswordReset, "reset-2")
            .await
            .expect("mail_token"),
        Some(newer),
    );
    assert_eq!(
        store
            .mail_token(MailTokenPurpose::EmailChange, "change-1")
            .await
            .expect("mail_token"),
        Some(change),
        "a link of another purpose stays"
    );
    let nobody = ids.next_at(T0);
    assert_not_found(
        store
            .save_mail_token(&link(
                nobody,
                MailTokenPurpose::PasswordReset,
                "x",
                None,
                T0,
            ))
            .await,
        "save_mail_token without a login",
    );
}

/// `reset_password` uses a fresh reset once: it sets the password hash, revokes the account's
/// unrevoked tokens at the given time (a token revoked before keeps its time, another
/// account's stays valid), removes the account's authorization codes and the link; a link sent
/// at or before `sent_after`, an unknown hash and a used link change nothing. Lacking the
/// capability, nothing is ever used.
pub async fn reset_password_is_used_once_and_revokes_the_tokens(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let a = add_app(store, &ids, "client-a").await;
    let mut old = token(&ids, "alice-old", a.id, Some(alice.id), T0);
    old.revoked_at = Some(at(T0 + 500));
    for t in [
        token(&ids, "alice-1", a.id, Some(alice.id), T0),
        old.clone(),
        token(&ids, "bob-1", a.id, Some(bob.id), T0),
    ] {
        store.insert_token(&t).await.expect("insert_token");
    }
    for (hash, account) in [("code-alice", alice.id), ("code-bob", bob.id)] {
        store
            .insert_authorization(&authorization(hash, a.id, account))
            .await
            .expect("insert_authorization");
    }
    let before = store
        .user_by_account_id(alice.id)
        .await
        .expect("user")
        .expect("login");
    if !capabilities.has(Capability::KeepsMailData) {
        assert!(
            store
                .save_mail_token(&link(
                    alice.id,
                    MailTokenPurpose::PasswordReset,
                    "reset",
                    None,
                    T0
                ))
                .await
                .is_err(),
            "a store that keeps no mail tokens fails to save one (or claim KeepsMailData)"
        );
        assert_eq!(
            store
                .reset_password("reset", at(T0 - 1), "$new", at(T0 + 9_000))
                .await
                .expect("reset_password"),
            None,
            "a store that keeps no mail tokens uses none (or claim KeepsMailData)"
        );
        return;
    }
    store
        .save_mail_token(&link(
            alice.id,
            MailTokenPurpose::PasswordReset,
            "reset",
            None,
            T0 + 1_000,
        ))
        .await
        .expect("save_mail_token");
    // Sent at the cut-off: expired.
    assert_eq!(
        store
            .reset_password("reset", at(T0 + 1_000), "$new", at(T0 + 9_000))
            .await
            .expect("reset_password"),
        None,
        "a reset sent at or before sent_after must not be used"
    );
    assert_eq!(
        store
            .reset_password("unknown", at(T0), "$new", at(T0 + 9_000))
            .await
            .expect("reset_password"),
        None,
    );
    let unchanged = store
        .user_by_account_id(alice.id)
        .await
        .expect("user")
        .expect("login");
    assert_eq!(unchanged, before, "a refused reset changes nothing");
    assert!(
        store
            .token_by_hash("alice-1")
            .await
            .expect("token")
            .expect("kept")
            .revoked_at
            .is_none(),
        "a refused reset revokes nothing"
    );

    assert_eq!(
        store
            .reset_password("reset", at(T0), "$new", at(T0 + 9_000))
            .await
            .expect("reset_password"),
        Some(alice.id),
        "a fresh reset is used and answers its account"
    );
    let after = store
        .user_by_account_id(alice.id)
        .await
        .expect("user")
        .expect("login");
    assert_eq!(
        after.password_hash, "$new",
        "the reset sets the password hash"
    );
    assert_eq!(
        after,
        fedblog_core::store::UserRecord {
            password_hash: "$new".into(),
            ..before
        },
        "the reset changes nothing else of the login"
    );
    for (hash, revoked) in [
        ("alice-1", Some(at(T0 + 9_000))),
        ("alice-old", Some(at(T0 + 500))),
        ("bob-1", None),
    ] {
        assert_eq!(
            store
                .token_by_hash(hash)
                .await
                .expect("token")
                .expect("kept")
                .revoked_at,
            revoked,
            "{hash}: the reset revokes the account's unrevoked tokens at its time, and only those"
        );
    }
    assert_eq!(
        store
            .take_authorization("code-alice")
            .await
            .expect("take_authorization"),
        None,
        "the reset removes the account's authorization codes"
    );
    assert!(
        store
            .take_authorization("code-bob")
            .await
            .expect("take_authorization")
            .is_some(),
        "another account's codes stay"
    );
    assert_eq!(
        store
            .mail_token(MailTokenPurpose::PasswordReset, "reset")
            .await
            .expect("mail_token"),
        None,
        "a used reset is gone"
    );
    assert_eq!(
        store
            .reset_password("reset", at(T0), "$third", at(T0 + 10_000))
            .await
            .expect("reset_password"),
        None,
        "a reset is used once"
    );
}

/// `confirm_email_change` makes a fresh change's address the login's, once; an expired change
/// changes nothing; an address another login took meanwhile is `AlreadyExists("email")` and
/// changes nothing. Lacking the capability, nothing is ever confirmed.
pub async fn confirm_email_change_is_used_once(store: &dyn Store, capabilities: Capabilities) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    if !capabilities.has(Capability::KeepsMailData) {
        assert!(
            store
                .save_mail_token(&link(
                    alice.id,
                    MailTokenPurpose::EmailChange,
                    "change",
                    Some("alice@new.example"),
                    T0,
                ))
                .await
                .is_err(),
            "a store that keeps no mail tokens fails to save one (or claim KeepsMailData)"
        );
        assert_eq!(
            store
                .confirm_email_change("change", at(T0 - 1))
                .await
                .expect("confirm_email_change"),
            None,
            "a store that keeps no mail tokens confirms nothing (or claim KeepsMailData)"
        );
        return;
    }
    store
        .save_mail_token(&link(
            alice.id,
            MailTokenPurpose::EmailChange,
            "change",
            Some("Alice@New.example"),
            T0 + 1_000,
        ))
        .await
        .expect("save_mail_token");
    assert_eq!(
        store
            .confirm_email_change("change", at(T0 + 1_000))
            .await
            .expect("confirm_email_change"),
        None,
        "a change sent at or before sent_after must not be confirmed"
    );
    let confirmed = store
        .confirm_email_change("change", at(T0))
        .await
        .expect("confirm_email_change")
        .expect("a fresh change is confirmed");
    assert_eq!(confirmed.account_id, alice.id);
    assert_eq!(confirmed.email, "Alice@New.example", "the address as saved");
    assert_eq!(
        store
            .user_by_email("alice@new.example")
            .await
            .expect("user_by_email")
            .map(|u| u.account_id),
        Some(alice.id),
        "the new address finds the login"
    );
    assert_eq!(
        store
            .user_by_email("alice@example.test")
            .await
            .expect("user_by_email"),
        None,
        "the old address is gone"
    );
    assert_eq!(
        store
            .confirm_email_change("change", at(T0))
            .await
            .expect("confirm_email_change"),
        None,
        "a change is confirmed once"
    );
    // An address taken meanwhile.
    store
        .save_mail_token(&link(
            alice.id,
            MailTokenPurpose::EmailChange,
            "change-2",
            Some("BOB@example.test"),
            T0 + 2_000,
        ))
        .await
        .expect("save_mail_token");
    assert_already_exists(
        store.confirm_email_change("change-2", at(T0)).await,
        "email",
        "confirming an address another login has",
    );
    assert_eq!(
        store
            .user_by_account_id(alice.id)
            .await
            .expect("user")
            .expect("login")
            .email,
        "Alice@New.example",
        "a refused change keeps the address"
    );
    assert_eq!(
        store
            .user_by_account_id(bob.id)
            .await
            .expect("user")
            .expect("login")
            .email,
        "bob@example.test",
    );
}

/// Choices come back once saved (none before), each account's once, replaced by the next
/// save; an account without a login is `NotFound`. Lacking the capability, saving fails and
/// none is kept.
pub async fn notification_emails_are_saved_and_replaced(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let quiet = NotificationEmailsRecord {
        follow: false,
        follow_request: false,
        mention: false,
        reblog: true,
        favourite: true,
        report: false,
        pending_account: true,
    };
    if !capabilities.has(Capability::KeepsMailData) {
        assert!(
            store
                .save_notification_emails(alice.id, &quiet)
                .await
                .is_err(),
            "a store that keeps no choices fails to save them (or claim KeepsMailData)"
        );
        assert_eq!(
            store
                .notification_emails(&[alice.id])
                .await
                .expect("notification_emails"),
            vec![]
        );
        return;
    }
    assert_eq!(
        store
            .notification_emails(&[alice.id, bob.id])
            .await
            .expect("notification_emails"),
        vec![],
        "none saved yet"
    );
    store
        .save_notification_emails(alice.id, &NotificationEmailsRecord::DEFAULTS)
        .await
        .expect("save");
    store
        .save_notification_emails(alice.id, &quiet)
        .await
        .expect("save again");
    assert_eq!(
        store
            .notification_emails(&[alice.id, bob.id, alice.id])
            .await
            .expect("notification_emails"),
        vec![(alice.id, quiet)],
        "the last choices saved, once per account, only for accounts that saved"
    );
    assert_not_found(
        store
            .save_notification_emails(ids.next_at(T0), &quiet)
            .await,
        "save_notification_emails without a login",
    );
}

/// `delete_account` removes the account's pending links and choices. Lacking the capability,
/// there are none to remove.
pub async fn delete_account_removes_mail_tokens_and_choices(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    if !capabilities.has(Capability::KeepsMailData) {
        assert!(
            store
                .save_notification_emails(alice.id, &NotificationEmailsRecord::DEFAULTS)
                .await
                .is_err(),
            "a store that keeps no choices fails to save them (or claim KeepsMailData)"
        );
        store
            .delete_account(alice.id)
            .await
            .expect("delete_account");
        assert_eq!(
            store
                .mail_token(MailTokenPurpose::PasswordReset, "reset")
                .await
                .expect("mail_token"),
            None
        );
        return;
    }
    store
        .save_mail_token(&link(
            alice.id,
            MailTokenPurpose::PasswordReset,
            "reset",
            None,
            T0,
        ))
        .await
        .expect("save_mail_token");
    store
        .save_notification_emails(alice.id, &NotificationEmailsRecord::DEFAULTS)
        .await
        .expect("save");
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    assert_eq!(
        store
            .mail_token(MailTokenPurpose::PasswordReset, "reset")
            .await
            .expect("mail_token"),
        None,
        "delete_account removes the account's mail tokens"
    );
    assert_eq!(
        store
            .notification_emails(&[alice.id])
            .await
            .expect("notification_emails"),
        vec![],
        "delete_account removes the account's notification e-mail choices"
    );
}
