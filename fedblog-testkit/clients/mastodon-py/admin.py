#!/usr/bin/env python3
"""Real-client scenario for moderation, driven through Mastodon.py's own admin and report methods:
an administrator lists accounts (`admin_accounts_v2`, with `role_ids` as a list), carol reports one
of dave's statuses, a moderator assigns, resolves and reopens the report, the administrator
suspends dave (carol then gets a 410 for him) and lifts it, marks him sensitive and back, and
manages domain blocks, e-mail domain blocks, canonical e-mail blocks and IP blocks; the
dashboard's measures, dimensions and retention count this run's activity; this week's hashtags
and statuses are listed for trends review and approved or rejected; a moderator cannot touch
domain blocks, and a normal user's token with admin scopes is refused.

Usage:
    python admin.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario uses `boss` (an administrator), `mod` (a
moderator), both with `admin:read admin:write`, `carol` and `dave`, and `erin_admin` (erin, a
normal user, with admin scopes). It leaves dave unsuspended and removes every block it made. The
last line is `admin: N steps passed`.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from mastodon import MastodonAPIError

from common import ScenarioError, Steps, check, main_with_tokens


def expect_status(fn, status: int, what: str) -> None:
    try:
        got = fn()
    except MastodonAPIError as e:
        code = e.args[1] if len(e.args) > 1 else None
        check(code == status, f"{what}: expected HTTP {status}, got {code} ({e})")
        return
    raise ScenarioError(f"{what}: expected HTTP {status}, got {str(got)[:200]}")


class Admin(Steps):
    label = "admin"
    users = ("boss", "mod", "carol", "dave", "erin_admin")

    def steps(self):
        return [
            ("accounts_v2_by_origin_username_and_roles", self.accounts),
            ("one_account_as_moderators_see_it", self.one_account),
            ("report_filed", self.report),
            ("report_assigned_resolved_reopened", self.handle_report),
            ("suspension_is_a_410_and_reversible", self.suspend),
            ("sensitive_and_back", self.sensitive),
            ("domain_blocks", self.domain_blocks),
            ("email_and_canonical_email_blocks", self.email_blocks),
            ("ip_blocks", self.ip_blocks),
            ("dashboard_measures_dimensions_retention", self.dashboard),
            ("trends_listed_and_reviewed", self.trends),
            ("moderator_cannot_block_domains", self.moderator_refused),
            ("user_with_admin_scopes_refused", self.user_refused),
        ]

    def accounts(self) -> None:
        boss = self.c["boss"]
        found = boss.admin_accounts_v2(origin="local", username="carol")
        check(
            [a["username"] for a in found] == ["carol"],
            f"username=carol found {[a['username'] for a in found]}",
        )
        check(found[0]["email"] == "carol@example.com", f"carol's e-mail: {found[0]['email']}")
        admins = boss.admin_accounts_v2(role_ids=[self.me["boss"]["role"]["id"]])
        names = {a["username"] for a in admins}
        check("boss" in names and "carol" not in names, f"role_ids=[admin] found {names}")
        staff = boss.admin_accounts_v2(permissions="staff")
        names = {a["username"] for a in staff}
        check({"boss", "mod"} <= names and "carol" not in names, f"staff found {names}")

    def one_account(self) -> None:
        a = self.c["boss"].admin_account(self.id("dave"))
        check(a["username"] == "dave" and a["account"]["id"] == self.id("dave"), f"{a}")
        check(a["suspended"] is False and a["approved"] is True, f"dave's state: {a}")

    def report(self) -> None:
        carol, dave = self.c["carol"], self.c["dave"]
        self.reported = dave.status_post("buy cheap watches now")
        self.filed = carol.report(
            self.id("dave"),
            status_ids=[self.reported["id"]],
            comment="advertising",
            category="spam",
        )
        check(self.filed["category"] == "spam", f"the report: {self.filed}")
        check(self.filed["action_taken"] is False, f"the report: {self.filed}")

    def handle_report(self) -> None:
        mod = self.c["mod"]
        open_ids = [r["id"] for r in mod.admin_reports()]
        check(self.filed["id"] in open_ids, f"open reports {open_ids}")
        r = mod.admin_report_assign(self.filed["id"])
        check(r["assigned_account"]["id"] == self.id("mod"), f"assigned to {r['assigned_account']}")
        check(r["target_account"]["id"] == self.id("dave"), f"target {r['target_account']}")
        check(
            [s["id"] for s in r["statuses"]] == [self.reported["id"]],
            f"reported statuses {r['statuses']}",
        )
        r = mod.admin_report_resolve(self.filed["id"])
        check(r["action_taken"] is True, f"resolved: {r}")
        resolved = [x["id"] for x in mod.admin_reports(resolved=True)]
        check(self.filed["id"] in resolved, f"resolved reports {resolved}")
        r = mod.admin_report_reopen(self.filed["id"])
        check(r["action_taken"] is False, f"reopened: {r}")
        r = mod.admin_report_unassign(self.filed["id"])
        check(r["assigned_account"] is None, f"unassigned: {r}")

    def suspend(self) -> None:
        boss, carol = self.c["boss"], self.c["carol"]
        boss.admin_account_moderate(self.id("dave"), "suspend", report_id=self.filed["id"])
        check(boss.admin_account(self.id("dave"))["suspended"] is True, "dave is suspended")
        expect_status(lambda: carol.account(self.id("dave")), 410, "carol reading suspended dave")
        check(
            carol.account_statuses(self.id("dave")) == [],
            "a suspended account's statuses are an empty list",
        )
        boss.admin_account_unsuspend(self.id("dave"))
        check(carol.account(self.id("dave"))["username"] == "dave", "dave is back")

    def sensitive(self) -> None:
        boss = self.c["boss"]
        boss.admin_account_moderate(self.id("dave"), "sensitive", text="please mark your media")
        check(boss.admin_account(self.id("dave"))["sensitized"] is True, "dave is sensitized")
        boss.admin_account_unsensitive(self.id("dave"))
        check(boss.admin_account(self.id("dave"))["sensitized"] is False, "dave is not any more")

    def domain_blocks(self) -> None:
        boss = self.c["boss"]
        block = boss.admin_create_domain_block(
            "spam.example", severity="suspend", reject_media=True, public_comment="spam source"
        )
        check(block["severity"] == "suspend" and block["reject_media"] is True, f"{block}")
        check(block["id"] in [b["id"] for b in boss.admin_domain_blocks()], "the block is listed")
        changed = boss.admin_update_domain_block(block["id"], severity="silence")
        check(changed["severity"] == "silence", f"changed: {changed}")
        check(boss.admin_domain_blocks(id=block["id"])["severity"] == "silence", "read back")
        boss.admin_delete_domain_block(block["id"])
        check(
            block["id"] not in [b["id"] for b in boss.admin_domain_blocks()],
            "the block is gone",
        )
        allow = boss.admin_create_domain_allow("friends.example")
        check(boss.admin_domain_allow(allow["id"])["domain"] == "friends.example", f"{allow}")
        boss.admin_delete_domain_allow(allow["id"])

    def email_blocks(self) -> None:
        boss = self.c["boss"]
        block = boss.admin_create_email_domain_block("throwaway.example")
        check(block["domain"] == "throwaway.example", f"{block}")
        check(
            block["id"] in [b["id"] for b in boss.admin_email_domain_blocks()],
            "the e-mail domain block is listed",
        )
        boss.admin_delete_email_domain_block(block["id"])
        canon = boss.admin_create_canonical_email_block(email="some.one@mail.example")
        hits = boss.admin_test_canonical_email_block("someone+x@MAIL.example")
        check([h["id"] for h in hits] == [canon["id"]], f"test found {hits}")
        boss.admin_delete_canonical_email_block(canon["id"])
        check(boss.admin_test_canonical_email_block("someone@mail.example") == [], "lifted")

    def ip_blocks(self) -> None:
        boss = self.c["boss"]
        block = boss.admin_create_ip_block("203.0.113.0/24", "sign_up_block", comment="scenario")
        check(block["ip"] == "203.0.113.0/24" and block["severity"] == "sign_up_block", f"{block}")
        changed = boss.admin_update_ip_block(block["id"], severity="no_access")
        check(changed["severity"] == "no_access", f"changed: {changed}")
        boss.admin_delete_ip_block(block["id"])
        check(block["id"] not in [b["id"] for b in boss.admin_ip_blocks()], "the IP block is gone")

    def dashboard(self) -> None:
        boss, mod = self.c["boss"], self.c["mod"]
        today = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
        start, end = today - timedelta(days=6), today
        measures = boss.admin_measures(
            start, end, active_users=True, new_users=True, opened_reports=True, interactions=True
        )
        by_key = {m["key"]: m for m in measures}
        check(
            set(by_key) == {"active_users", "new_users", "opened_reports", "interactions"},
            f"measures answered: {sorted(by_key)}",
        )
        check(
            all(len(m["data"]) == 7 for m in measures),
            f"a week is seven days: {[len(m['data']) for m in measures]}",
        )
        check(int(by_key["active_users"]["total"]) >= 4, f"active users: {by_key['active_users']}")
        check(int(by_key["new_users"]["total"]) >= 4, f"new users: {by_key['new_users']}")
        check(int(by_key["opened_reports"]["total"]) >= 1, f"reports: {by_key['opened_reports']}")
        dimensions = boss.admin_dimensions(start, end, languages=True, software_versions=True)
        by_key = {d["key"]: d for d in dimensions}
        check(set(by_key) == {"languages", "software_versions"}, f"dimensions: {sorted(by_key)}")
        versions = {row["key"] for row in by_key["software_versions"]["data"]}
        check("fedblog" in versions, f"software versions: {versions}")
        cohorts = boss.admin_retention(start, end, frequency="day")
        check(len(cohorts) == 7, f"one cohort a day: {len(cohorts)}")
        check(
            all(c["frequency"] == "day" and c["data"] for c in cohorts),
            f"cohorts: {cohorts[:1]}",
        )
        # Moderators see the dashboard (Mastodon's seeded role has view_dashboard); users do not.
        check(len(mod.admin_measures(start, end, new_users=True)) == 1, "a moderator's measures")
        expect_status(
            lambda: self.c["erin_admin"].admin_measures(start, end, new_users=True),
            403,
            "a normal user reading the dashboard",
        )

    def trends(self) -> None:
        boss, carol, dave, mod = self.c["boss"], self.c["carol"], self.c["dave"], self.c["mod"]
        tag = f"scenariotrend{int(time.time())}"
        post = carol.status_post(f"trying #{tag}", visibility="public")
        dave.status_post(f"me too #{tag}", visibility="public")
        for fan in (dave, mod, boss):
            fan.status_favourite(post["id"])
        # Trends are scored (five accounts at least, see trends.py): three more use the tag.
        for other in (mod, boss, self.c["erin_admin"]):
            other.status_post(f"#{tag} indeed", visibility="public")
        tags = [t for t in boss.admin_trending_tags(limit=20) if t["name"].lower() == tag]
        check(len(tags) == 1, f"#{tag} is not among this week's hashtags")
        approved = boss.admin_approve_trending_tag(tags[0]["id"])
        check(approved["trendable"] is True, f"approved: {approved}")
        rejected = boss.admin_reject_trending_tag(tags[0]["id"])
        check(rejected["trendable"] is False, f"rejected: {rejected}")
        # Three favourites are too few for a status to trend (trends.py has one that does).
        check(isinstance(boss.admin_trending_statuses(), list), "trending statuses to review")
        check(boss.admin_approve_trending_status(post["id"])["id"] == post["id"], "approved post")
        check(boss.admin_trending_links() == [], "no links are listed before preview cards")

    def moderator_refused(self) -> None:
        mod = self.c["mod"]
        expect_status(lambda: mod.admin_domain_blocks(), 403, "a moderator listing domain blocks")
        expect_status(
            lambda: mod.admin_create_domain_block("nope.example"),
            403,
            "a moderator blocking a domain",
        )

    def user_refused(self) -> None:
        user = self.c["erin_admin"]
        expect_status(lambda: user.admin_accounts_v2(), 403, "a normal user listing accounts")
        expect_status(lambda: user.admin_reports(), 403, "a normal user listing reports")


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Admin, __doc__))
