#!/usr/bin/env python3
"""Real-client scenario for trends, driven through Mastodon.py's own trends and admin trends
methods: six accounts post with a new hashtag and six favourite a status by a discoverable
account; the administrator finds both among the trends to review and approves them; then
`trending_tags()` lists the hashtag (with its week of history), `trending_statuses()` lists the
status, except to a reader who blocks its author, and `trending_links()` answers a list.

fedblog scores trends when they are read, so nothing waits for a refresh.

Usage:
    python trends.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario uses `alice`, `bob`, `boss` (an
administrator with `admin:read admin:write`) and `fan01` .. `fan07`. bob's block of fan07 is
lifted at the end. The last line is `trends: N steps passed`.
"""

from __future__ import annotations

import time

from mastodon import Mastodon

from common import Steps, check, main_with_tokens

#: Accounts that use the hashtag and favourite the status: above the threshold of 5.
CROWD = tuple(f"fan{i:02d}" for i in range(1, 7))
#: The author of the trending status.
AUTHOR = "fan07"


class Trends(Steps):
    label = "trends"
    users = ("alice", "bob", "boss", *CROWD, AUTHOR)

    def __init__(self, base, tokens):
        super().__init__(base, tokens)
        self.tag = f"rising{int(time.time())}"
        self.status = None

    def steps(self):
        return [
            ("hashtag_used_by_many_accounts", self.use_hashtag),
            ("status_favourited_by_many_accounts", self.favourite_status),
            ("staff_review_and_approve", self.approve),
            ("trending_tags_list_the_hashtag", self.trending_tags),
            ("trending_statuses_list_the_status", self.trending_statuses),
            ("blocked_author_left_out", self.blocked_author),
            ("trending_links_is_a_list", self.trending_links),
        ]

    def use_hashtag(self) -> None:
        for name in CROWD:
            self.c[name].status_post(f"what about #{self.tag}?", visibility="public")

    def favourite_status(self) -> None:
        author = self.c[AUTHOR]
        author.account_update_credentials(discoverable=True)
        self.status = author.status_post("a post everyone likes", visibility="public")
        for name in CROWD:
            self.c[name].status_favourite(self.status["id"])

    def approve(self) -> None:
        boss = self.c["boss"]
        tags = [t for t in boss.admin_trending_tags(limit=20) if t["name"].lower() == self.tag]
        check(len(tags) == 1, f"#{self.tag} is not among the hashtags to review")
        check(tags[0]["requires_review"] is True, f"the new hashtag needs review: {tags[0]}")
        approved = boss.admin_approve_trending_tag(tags[0]["id"])
        check(approved["trendable"] is True, f"approved hashtag: {approved}")
        listed = [s["id"] for s in boss.admin_trending_statuses()]
        check(self.status["id"] in listed, f"the favourited status is not listed: {listed}")
        approved = boss.admin_approve_trending_status(self.status["id"])
        check(approved["id"] == self.status["id"], f"approved status: {approved}")

    def trending_tags(self) -> None:
        for who, api in (("alice", self.c["alice"]), ("anonymous", self.anonymous())):
            tags = api.trending_tags()
            check(isinstance(tags, list), f"trending_tags for {who}: {tags}")
            found = [t for t in tags if t["name"].lower() == self.tag]
            check(len(found) == 1, f"#{self.tag} is not trending for {who}: {tags}")
            history = found[0]["history"]
            check(len(history) == 7, f"a week of history: {history}")
            check(int(history[0]["accounts"]) == len(CROWD), f"today's accounts: {history[0]}")
        check(len(self.c["alice"].trending_tags(limit=1)) <= 1, "limit=1")

    def trending_statuses(self) -> None:
        for who, api in (("alice", self.c["alice"]), ("anonymous", self.anonymous())):
            ids = [s["id"] for s in api.trending_statuses()]
            check(self.status["id"] in ids, f"the approved status is not trending for {who}: {ids}")

    def blocked_author(self) -> None:
        bob = self.c["bob"]
        bob.account_block(self.id(AUTHOR))
        try:
            ids = [s["id"] for s in bob.trending_statuses()]
            check(self.status["id"] not in ids, "bob sees a trending status by an account he blocks")
        finally:
            bob.account_unblock(self.id(AUTHOR))

    def trending_links(self) -> None:
        links = self.c["alice"].trending_links()
        check(isinstance(links, list), f"trending_links: {links}")

    def anonymous(self) -> Mastodon:
        return Mastodon(api_base_url=self.base, request_timeout=30)


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Trends, __doc__))
