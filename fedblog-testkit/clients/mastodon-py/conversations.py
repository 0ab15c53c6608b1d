#!/usr/bin/env python3
"""Real-client scenario for direct messages and the link timeline, driven through Mastodon.py:
conversations made by direct messages on both sides with their unread state, a reply staying in
its conversation, marking read, paging with `fetch_next`, and `timeline_link` for a link public
statuses carry.

Usage:
    python conversations.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario uses `erin`, `dave` and the followers
`fan10` .. `fan13`. The last line is `conversations: N steps passed`.
"""

from __future__ import annotations

from mastodon import MastodonNotFoundError

from common import ScenarioError, Steps, check, main_with_tokens


class Conversations(Steps):
    label = "conversations"
    users = ("erin", "dave", "fan10", "fan11", "fan12", "fan13")

    def steps(self):
        return [
            ("recipients_take_direct_messages", self.take_direct_messages),
            ("direct_message_both_sides", self.both_sides),
            ("reply_stays_and_read", self.reply_and_read),
            ("conversations_paged", self.paged),
            ("link_timeline", self.link_timeline),
        ]

    def find(self, who: str, status_id: str) -> dict | None:
        for c in self.c[who].conversations(limit=40):
            if c["last_status"] and c["last_status"]["id"] == status_id:
                return c
        return None

    def take_direct_messages(self) -> None:
        # Mastodon's default policy filters private mentions from accounts one does not follow
        # (notification_requests.py covers that); these recipients take them.
        for who in ("dave", "fan10", "fan11", "fan12", "fan13"):
            p = self.c[who].update_notifications_policy(for_private_mentions="accept")
            check(p["for_private_mentions"] == "accept", f"{who}: {p}")

    def both_sides(self) -> None:
        self.first = self.c["erin"].status_post(f"@{self.me['dave']['acct']} just between us", visibility="direct")
        mine = self.find("erin", self.first["id"])
        theirs = self.find("dave", self.first["id"])
        check(mine is not None and theirs is not None, "both have the conversation")
        check(mine["unread"] is False and theirs["unread"] is True, f"unread: {mine['unread']} {theirs['unread']}")
        check([a["id"] for a in theirs["accounts"]] == [self.id("erin")], f"{theirs['accounts']}")

    def reply_and_read(self) -> None:
        dave = self.c["dave"]
        reply = dave.status_post(f"@{self.me['erin']['acct']} sure", visibility="direct", in_reply_to_id=self.first["id"])
        c = self.find("erin", reply["id"])
        check(c is not None and c["unread"] is True, "the reply is erin's unread last status")
        read = self.c["erin"].conversations_read(c["id"])
        check(read["unread"] is False and read["id"] == c["id"], f"read answers {read}")
        check(self.find("erin", reply["id"])["unread"] is False, "the list shows it read")

    def paged(self) -> None:
        erin = self.c["erin"]
        sent = []
        for fan in ("fan10", "fan11", "fan12", "fan13"):
            sent.append(erin.status_post(f"@{self.me[fan]['acct']} hello", visibility="direct")["id"])
        seen = []
        page = erin.conversations(limit=2)
        pages = 0
        while page:
            pages += 1
            check(pages <= 10, "still paging after 10 pages")
            seen.extend(c["last_status"]["id"] for c in page)
            page = erin.fetch_next(page)
        check(seen[:4] == list(reversed(sent)), f"newest first over pages: {seen}")
        check(len(seen) == len(set(seen)), "no conversation twice")

    def link_timeline(self) -> None:
        dave = self.c["dave"]
        dave.account_update_credentials(discoverable=True)
        url = "https://scenario.example/article"
        posted = dave.status_post(f"worth a read {url}")
        dave.status_post(f"not listed {url}", visibility="unlisted")
        found = [s["id"] for s in self.c["erin"].timeline_link(url)]
        check(found == [posted["id"]], f"timeline_link lists the public status: {found}")
        try:
            self.c["erin"].timeline_link("https://scenario.example/unknown")
        except MastodonNotFoundError:
            return
        raise ScenarioError("an unknown link was answered")


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Conversations, "Mastodon.py conversations scenario against a fedblog server."))
