#!/usr/bin/env python3
"""Real-client scenario for the social graph: follows, follow requests, blocks, mutes, notes,
endorsements and follower/following pagination, driven through Mastodon.py.

Usage:
    python social.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` maps usernames to bearer tokens of existing, confirmed, approved accounts:
`alice`, `bob`, `carol`, `dave`, `erin` and the followers `fan01` .. `fanNN` (run.sh creates
them with the server's CLI). Every step prints `step: <name> ... ok`; a mismatch prints the
failing step and exits non-zero. The last line is `social: N steps passed`.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from mastodon import MastodonAPIError

from common import ScenarioError, Steps, check, main_with_tokens

PAGE = 10  # small pages, so the follower lists take several
MAX_PAGES = 50


class Social(Steps):
    label = "social"
    required = ("alice", "bob", "carol", "dave", "erin", "fan01")

    def __init__(self, base: str, tokens: dict[str, str]) -> None:
        super().__init__(base, tokens)
        self.fans = sorted(n for n in tokens if n.startswith("fan"))

    def rel(self, who: str, other: str) -> dict:
        rels = self.c[who].account_relationships(self.id(other))
        check(len(rels) == 1, f"relationships of {who} to {other}: {len(rels)} entries")
        return rels[0]

    def home_ids(self, who: str) -> list[str]:
        return [s["id"] for s in self.c[who].timeline_home(limit=40)]

    def walk(self, first, what: str) -> list[str]:
        """Follows `fetch_next` to the end, checking that no page repeats an id."""
        seen: list[str] = []
        page, pages = first, 0
        while page:
            pages += 1
            check(pages <= MAX_PAGES, f"{what}: still paginating after {MAX_PAGES} pages")
            ids = [a["id"] for a in page]
            check(not (set(ids) & set(seen)), f"{what}: page {pages} repeats ids")
            seen.extend(ids)
            page = self.c["alice"].fetch_next(page)
        print(f"  {what}: {len(seen)} accounts over {pages} pages")
        return seen

    def steps(self):
        return [
            ("follow", self.follow),
            ("follow_twice_is_not_an_error", self.follow_twice),
            ("follow_by_acct", self.follow_by_acct),
            ("locked_follow_request_authorize", self.locked_authorize),
            ("locked_follow_request_reject", self.locked_reject),
            ("block", self.block),
            ("mute_with_duration", self.mute_with_duration),
            ("notes", self.notes),
            ("endorsements", self.endorsements),
            ("followers_pagination", self.followers_pagination),
            ("following_pagination", self.following_pagination),
            ("muted_hidden_from_own_followers", self.muted_hidden_from_own_followers),
            ("remove_from_followers", self.remove_from_followers),
        ]

    # -- follows -------------------------------------------------------------------------
    def follow(self) -> None:
        r = self.c["alice"].account_follow(self.id("bob"), notify=True)
        check(r["following"] is True, f"alice -> bob following {r['following']!r}")
        check(r["showing_reblogs"] is True, f"showing_reblogs {r['showing_reblogs']!r}")
        check(r["notifying"] is True, f"notifying {r['notifying']!r} after notify=True")
        back = self.rel("bob", "alice")
        check(back["followed_by"] is True, "bob does not see alice as a follower")
        followers = [a["id"] for a in self.c["bob"].account_followers(self.id("bob"))]
        check(self.id("alice") in followers, "alice missing from bob's followers")
        bob = self.c["alice"].account(self.id("bob"))
        check(bob["followers_count"] >= 1, f"bob followers_count {bob['followers_count']}")

    def follow_twice(self) -> None:
        r = self.c["alice"].account_follow(self.id("bob"), reblogs=False, notify=True)
        check(r["following"] is True, "second follow is not following")
        check(r["showing_reblogs"] is False, "reblogs=False on a second follow was not applied")
        bob = self.c["alice"].account(self.id("bob"))
        before = bob["followers_count"]
        self.c["alice"].account_follow(self.id("bob"))
        after = self.c["alice"].account(self.id("bob"))["followers_count"]
        check(before == after, f"following twice changed followers_count {before} -> {after}")

    def follow_by_acct(self) -> None:
        # Mastodon.py's `follows(uri)` searches for the account, then follows it.
        r = self.c["erin"].follows("bob")
        check(r["following"] is True, f"erin follows('bob') gave {r!r}")
        found = self.c["alice"].account_search("bo")
        check(any(a["id"] == self.id("bob") for a in found), "account_search('bo') misses bob")

    def locked_authorize(self) -> None:
        me = self.c["carol"].account_update_credentials(locked=True)
        check(me["locked"] is True, "carol is not locked after update_credentials")
        r = self.c["alice"].account_follow(self.id("carol"))
        check(r["following"] is False and r["requested"] is True, f"locked follow gave {r!r}")
        pending = [a["id"] for a in self.c["carol"].follow_requests()]
        check(self.id("alice") in pending, f"alice not in carol's follow requests {pending}")
        r = self.c["carol"].follow_request_authorize(self.id("alice"))
        check(r["followed_by"] is True, f"authorize answered {r!r}")
        r = self.rel("alice", "carol")
        check(r["following"] is True and r["requested"] is False, f"after authorize: {r!r}")
        pending = [a["id"] for a in self.c["carol"].follow_requests()]
        check(self.id("alice") not in pending, "authorized request still pending")

    def locked_reject(self) -> None:
        r = self.c["erin"].account_follow(self.id("carol"))
        check(r["requested"] is True, f"erin's request: {r!r}")
        r = self.c["carol"].follow_request_reject(self.id("erin"))
        check(r["followed_by"] is False, f"reject answered {r!r}")
        r = self.rel("erin", "carol")
        check(r["following"] is False and r["requested"] is False, f"after reject: {r!r}")

    # -- blocks and mutes ----------------------------------------------------------------
    def block(self) -> None:
        self.c["alice"].account_follow(self.id("dave"))
        post = self.c["dave"].status_post("dave posts before the block")
        check(post["id"] in self.home_ids("alice"), "dave's post missing from alice's home")
        mine = self.c["alice"].status_post("alice posts before blocking dave")
        r = self.c["alice"].account_block(self.id("dave"))
        check(r["blocking"] is True and r["following"] is False, f"block answered {r!r}")
        check(post["id"] not in self.home_ids("alice"), "blocked dave's post still in alice's home")
        public = [s["id"] for s in self.c["alice"].timeline_public(limit=40)]
        check(post["id"] not in public, "blocked dave's post in alice's public timeline")
        r = self.rel("dave", "alice")
        check(r["blocked_by"] is True, f"dave's relationship to alice: {r!r}")
        theirs = [s["id"] for s in self.c["dave"].account_statuses(self.id("alice"))]
        check(mine["id"] not in theirs, "dave sees alice's posts on her profile after the block")
        blocks = [a["id"] for a in self.c["alice"].blocks()]
        check(self.id("dave") in blocks, "dave missing from alice's blocks")

    def mute_with_duration(self) -> None:
        before = datetime.now(timezone.utc)
        r = self.c["alice"].account_mute(self.id("bob"), duration=3600)
        check(r["muting"] is True, f"mute answered {r!r}")
        until = r.get("muting_expires_at")
        check(until is not None, "muting_expires_at missing for a mute with a duration")
        if isinstance(until, str):
            until = datetime.fromisoformat(until.replace("Z", "+00:00"))
        want = before + timedelta(seconds=3600)
        check(abs((until - want).total_seconds()) < 120, f"muting_expires_at {until} != ~{want}")
        post = self.c["bob"].status_post("bob posts while muted")
        check(post["id"] not in self.home_ids("alice"), "muted bob's post in alice's home")
        mutes = {a["id"]: a for a in self.c["alice"].mutes()}
        check(self.id("bob") in mutes, "bob missing from alice's mutes")
        check(mutes[self.id("bob")].get("mute_expires_at") is not None, "mutes list lacks mute_expires_at")
        r = self.c["alice"].account_unmute(self.id("bob"))
        check(r["muting"] is False, f"unmute answered {r!r}")
        check(post["id"] in self.home_ids("alice"), "bob's post not back in alice's home after unmute")

    # -- notes and endorsements ----------------------------------------------------------
    def notes(self) -> None:
        r = self.c["alice"].account_note_set(self.id("bob"), "met at the conference")
        check(r["note"] == "met at the conference", f"note answered {r['note']!r}")
        check(self.rel("alice", "bob")["note"] == "met at the conference", "note not kept")
        check(self.rel("erin", "bob")["note"] == "", "alice's note leaks to erin")
        try:
            self.c["alice"].account_note_set(self.id("bob"), "x" * 2001)
            raise ScenarioError("a 2001-character note was accepted")
        except MastodonAPIError as e:
            check(e.args[1] == 422, f"over-long note gave {e.args[1]}, want 422")
        check(self.rel("alice", "bob")["note"] == "met at the conference", "failed note lost the old one")
        r = self.c["alice"].account_note_set(self.id("bob"), "")
        check(r["note"] == "", "empty comment did not clear the note")

    def endorsements(self) -> None:
        r = self.c["alice"].account_endorse(self.id("bob"))
        check(r["endorsed"] is True, f"endorse answered {r!r}")
        ids = [a["id"] for a in self.c["alice"].endorsements()]
        check(ids == [self.id("bob")], f"alice's endorsements {ids}")
        try:
            self.c["alice"].account_endorse(self.id("erin"))
            raise ScenarioError("endorsing an account alice does not follow was accepted")
        except MastodonAPIError as e:
            check(e.args[1] == 422, f"endorsing a non-followed account gave {e.args[1]}, want 422")
        r = self.c["alice"].account_unendorse(self.id("bob"))
        check(r["endorsed"] is False, f"unendorse answered {r!r}")
        check(self.c["alice"].endorsements() == [], "endorsements not empty after unendorse")

    # -- collections ---------------------------------------------------------------------
    def followers_pagination(self) -> None:
        for fan in self.fans:
            self.c[fan].account_follow(self.id("alice"))
        first = self.c["alice"].account_followers(self.id("alice"), limit=PAGE)
        check(len(first) == PAGE, f"first followers page has {len(first)} items, want {PAGE}")
        seen = self.walk(first, "alice's followers")
        fan_ids = [self.id(f) for f in self.fans]
        for fid in fan_ids:
            check(seen.count(fid) == 1, f"follower {fid} appears {seen.count(fid)} times")
        ours = [i for i in seen if i in fan_ids]
        check(ours == list(reversed(fan_ids)), "followers are not newest follow first")

    def following_pagination(self) -> None:
        for fan in self.fans:
            self.c["alice"].account_follow(self.id(fan))
        first = self.c["alice"].account_following(self.id("alice"), limit=PAGE)
        seen = self.walk(first, "alice's following")
        want = {self.id(f) for f in self.fans} | {self.id("bob"), self.id("carol")}
        check(set(seen) == want, f"following differs: missing {want - set(seen)}, extra {set(seen) - want}")
        check(len(seen) == len(want), "following lists an account twice")
        me = self.c["alice"].account_verify_credentials()
        check(me["following_count"] == len(want), f"following_count {me['following_count']} != {len(want)}")

    def muted_hidden_from_own_followers(self) -> None:
        muted = self.fans[0]
        self.c["alice"].account_mute(self.id(muted))
        own = self.walk(self.c["alice"].account_followers(self.id("alice"), limit=40), "own followers")
        check(self.id(muted) not in own, "a muted follower shows on alice's own followers list")
        other = [a["id"] for a in self.c["bob"].account_followers(self.id("alice"), limit=80)]
        check(self.id(muted) in other, "the mute hides the follower from bob's view of alice's list")
        self.c["alice"].account_unmute(self.id(muted))

    def remove_from_followers(self) -> None:
        gone = self.fans[1]
        r = self.c["alice"].account_remove_from_followers(self.id(gone))
        check(r["followed_by"] is False, f"remove_from_followers answered {r!r}")
        check(self.rel(gone, "alice")["following"] is False, "removed follower still follows")
        me = self.c["alice"].account_verify_credentials()
        check(me["followers_count"] == len(self.fans) - 1, f"followers_count {me['followers_count']}")


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Social, "Mastodon.py social-graph scenario against a fedblog server."))
