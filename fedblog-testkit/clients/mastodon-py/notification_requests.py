#!/usr/bin/env python3
"""Real-client scenario for notification policies and requests (Mastodon 4.3+), driven through
Mastodon.py's own methods: the policy's defaults and a change, mentions from accounts not followed
filtered into one request per sender (paged with `fetch_next`), accepting one (its notification
comes back and the sender passes from then on), dismissing one, accepting and dismissing several
at once, and `notifications_merged`.

Usage:
    python notification_requests.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario uses `fan20` (the recipient) and `fan21` ..
`fan24` (senders it does not follow), and puts fan20's policy back as it found it. The last line
is `notification requests: N steps passed`.
"""

from __future__ import annotations

from common import Steps, check, expect_404, main_with_tokens

SENDERS = ("fan21", "fan22", "fan23", "fan24")


class NotificationRequests(Steps):
    label = "notification requests"
    users = ("fan20", *SENDERS)

    def steps(self):
        return [
            ("policy_defaults", self.defaults),
            ("strangers_filtered_into_requests", self.filtered),
            ("requests_paged", self.paged),
            ("accept_one", self.accept_one),
            ("dismiss_one", self.dismiss_one),
            ("accept_and_dismiss_several", self.several),
            ("merged_and_restore", self.restore),
        ]

    def mention(self, sender: str) -> str:
        acct = self.me["fan20"]["acct"]
        return self.c[sender].status_post(f"@{acct} hello from {sender}")["id"]

    def notified(self) -> list[str]:
        return [n["status"]["id"] for n in self.c["fan20"].notifications(types=["mention"], limit=40) if n["status"]]

    def request_of(self, sender: str) -> dict | None:
        for r in self.c["fan20"].notification_requests(limit=40):
            if r["account"]["id"] == self.id(sender):
                return r
        return None

    def defaults(self) -> None:
        self.before = self.c["fan20"].notifications_policy()
        p = self.before
        check(p["for_private_mentions"] == "filter" and p["for_new_accounts"] == "accept", f"defaults {p}")
        check(p["summary"]["pending_requests_count"] == 0, f"nothing pending yet: {p}")

    def filtered(self) -> None:
        fan20 = self.c["fan20"]
        p = fan20.update_notifications_policy(for_not_following="filter")
        check(p["for_not_following"] == "filter" and p["for_private_mentions"] == "filter", f"updated {p}")
        self.mentions = {s: self.mention(s) for s in SENDERS}
        seen = self.notified()
        check(not any(m in seen for m in self.mentions.values()), "mentions from strangers are held back")
        for s, status in self.mentions.items():
            r = self.request_of(s)
            check(r is not None, f"a request for {s}")
            check(r["last_status"]["id"] == status and int(r["notifications_count"]) == 1, f"{r}")
        summary = fan20.notifications_policy()["summary"]
        check(summary["pending_requests_count"] == 4, f"summary {summary}")

    def paged(self) -> None:
        fan20 = self.c["fan20"]
        page = fan20.notification_requests(limit=3)
        seen = []
        pages = 0
        while page:
            pages += 1
            check(pages <= 5, "still paging after 5 pages")
            seen.extend(r["account"]["id"] for r in page)
            page = fan20.fetch_next(page)
        check(pages == 2, f"four requests on pages of three: {pages} pages")
        check(seen == [self.id(s) for s in reversed(SENDERS)], f"newest first: {seen}")

    def accept_one(self) -> None:
        fan20 = self.c["fan20"]
        r = self.request_of("fan21")
        fan20.accept_notification_request(r["id"])
        expect_404(lambda: fan20.notification_request(r["id"]), "the accepted request")
        check(self.mentions["fan21"] in self.notified(), "the accepted mention comes back")
        later = self.mention("fan21")
        check(later in self.notified(), "the accepted sender passes from then on")
        check(self.request_of("fan21") is None, "and makes no new request")

    def dismiss_one(self) -> None:
        fan20 = self.c["fan20"]
        r = self.request_of("fan22")
        fan20.dismiss_notification_request(r["id"])
        check(self.request_of("fan22") is None, "the dismissed request is gone")
        check(self.mentions["fan22"] not in self.notified(), "its mention stays out")

    def several(self) -> None:
        fan20 = self.c["fan20"]
        a, b = self.request_of("fan23"), self.request_of("fan24")
        fan20.accept_multiple_notification_requests([a["id"]])
        fan20.dismiss_multiple_notification_requests([b["id"]])
        check(fan20.notification_requests(limit=40) == [], "no request left")
        seen = self.notified()
        check(self.mentions["fan23"] in seen and self.mentions["fan24"] not in seen, "accepted in, dismissed out")

    def restore(self) -> None:
        fan20 = self.c["fan20"]
        check(fan20.notifications_merged() is True, "merged")
        p = fan20.update_notifications_policy(for_not_following=self.before["for_not_following"])
        check(p["for_not_following"] == self.before["for_not_following"], f"restored {p}")


if __name__ == "__main__":
    raise SystemExit(
        main_with_tokens(NotificationRequests, "Mastodon.py notification requests scenario against a fedblog server.")
    )
