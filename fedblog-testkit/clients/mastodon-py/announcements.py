#!/usr/bin/env python3
"""Real-client scenario for announcements: the administrator makes and publishes one through
fedblog's own admin endpoint (Mastodon has no admin API for announcements, so this step uses
`requests`); alice reads it with `announcements()`, reacts with `announcement_reaction_create`
(seeing the count and `me`, and bob seeing `me` false), takes it back with
`announcement_reaction_delete`, is refused an unknown emoji (422), dismisses it with
`announcement_dismiss` and sees `read` true while bob still sees it unread (the specification:
an announcement can be dismissed). The announcement is deleted at the end.

Usage:
    python announcements.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario uses `alice`, `bob` and `boss` (an
administrator with `admin:read admin:write`). The last line is `announcements: N steps passed`.
"""

from __future__ import annotations

import time

import requests
from mastodon import MastodonAPIError

from common import ScenarioError, Steps, check, main_with_tokens

#: fedblog's admin endpoint for announcements.
ADMIN_ANNOUNCEMENTS = "/api/v1/admin/announcements"

REACTION = "\N{THUMBS UP SIGN}"


class Announcements(Steps):
    label = "announcements"
    users = ("alice", "bob", "boss")

    def __init__(self, base, tokens):
        super().__init__(base, tokens)
        self.boss_token = tokens["boss"]
        self.text = f"Maintenance window #ops at {int(time.time())}"
        self.announcement_id = None

    def steps(self):
        return [
            ("boss_publishes_an_announcement", self.publish),
            ("alice_reads_it", self.read),
            ("alice_and_bob_react", self.react),
            ("alice_takes_her_reaction_back", self.unreact),
            ("an_unknown_emoji_is_refused", self.unknown_emoji),
            ("alice_dismisses_it", self.dismiss),
            ("boss_deletes_it", self.delete),
        ]

    def admin(self, method: str, path: str, **kwargs) -> requests.Response:
        return requests.request(
            method,
            self.base + path,
            headers={"Authorization": f"Bearer {self.boss_token}"},
            timeout=30,
            **kwargs,
        )

    def mine(self, who: str) -> dict:
        listed = self.c[who].announcements()
        check(isinstance(listed, list), f"announcements: {listed}")
        found = [a for a in listed if str(a["id"]) == str(self.announcement_id)]
        check(len(found) == 1, f"{who} does not see the announcement: {[a['id'] for a in listed]}")
        return found[0]

    def reaction(self, who: str) -> dict | None:
        for r in self.mine(who)["reactions"]:
            if r["name"] == REACTION:
                return r
        return None

    def publish(self) -> None:
        r = self.admin("POST", ADMIN_ANNOUNCEMENTS, data={"text": self.text, "publish": "true"})
        check(r.status_code == 200, f"POST {ADMIN_ANNOUNCEMENTS}: {r.status_code} {r.text}")
        body = r.json()
        check(body["published"] is True and body["text"] == self.text, f"created: {body}")
        self.announcement_id = body["id"]
        # alice has no right to make announcements.
        refused = requests.post(
            self.base + ADMIN_ANNOUNCEMENTS,
            data={"text": "not staff"},
            headers={"Authorization": f"Bearer {self.c['alice'].access_token}"},
            timeout=30,
        )
        check(refused.status_code == 403, f"alice made an announcement: {refused.status_code}")

    def read(self) -> None:
        a = self.mine("alice")
        check("Maintenance window" in a["content"], f"content: {a['content']}")
        check(a["read"] is False, f"read before dismissing: {a['read']}")
        check([t["name"] for t in a["tags"]] == ["ops"], f"tags: {a['tags']}")
        check(a["reactions"] == [], f"reactions of a new announcement: {a['reactions']}")
        check(a["published_at"] is not None, f"published_at: {a}")

    def react(self) -> None:
        self.c["alice"].announcement_reaction_create(self.announcement_id, REACTION)
        r = self.reaction("alice")
        check(r is not None and r["count"] == 1 and r["me"] is True, f"after alice: {r}")
        self.c["bob"].announcement_reaction_create(self.announcement_id, REACTION)
        r = self.reaction("alice")
        check(r is not None and r["count"] == 2 and r["me"] is True, f"after bob: {r}")
        self.c["alice"].announcement_reaction_create(self.announcement_id, REACTION)
        r = self.reaction("bob")
        check(r is not None and r["count"] == 2 and r["me"] is True, f"bob's view: {r}")

    def unreact(self) -> None:
        self.c["alice"].announcement_reaction_delete(self.announcement_id, REACTION)
        r = self.reaction("alice")
        check(r is not None and r["count"] == 1 and r["me"] is False, f"after taking back: {r}")

    def unknown_emoji(self) -> None:
        try:
            self.c["alice"].announcement_reaction_create(self.announcement_id, "not_an_emoji_xyz")
        except MastodonAPIError as e:
            code = e.args[1] if len(e.args) > 1 else None
            check(code == 422, f"unknown emoji: expected HTTP 422, got {code} ({e})")
            return
        raise ScenarioError("an unknown emoji was accepted")

    def dismiss(self) -> None:
        self.c["alice"].announcement_dismiss(self.announcement_id)
        check(self.mine("alice")["read"] is True, "read after dismissing")
        check(self.mine("bob")["read"] is False, "bob's read after alice dismissed")

    def delete(self) -> None:
        r = self.admin("DELETE", f"{ADMIN_ANNOUNCEMENTS}/{self.announcement_id}")
        check(r.status_code == 200, f"delete: {r.status_code} {r.text}")
        ids = [str(a["id"]) for a in self.c["alice"].announcements()]
        check(str(self.announcement_id) not in ids, f"a deleted announcement is listed: {ids}")


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Announcements, __doc__))
