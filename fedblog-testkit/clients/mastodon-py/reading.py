#!/usr/bin/env python3
"""Real-client scenario for the reading side: notifications (made by mentions, favourites and
follows; filtered by type and account; paged; dismissed only by their owner; cleared), markers,
paging through the home timeline, lists (members, paging through a list timeline, removal,
update, deletion), paging through a hashtag timeline, and v2 search (an account, a hashtag by
the start of its name, a status by its URL), driven through Mastodon.py.

Usage:
    python reading.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario runs after social.py and statuses.py and
uses `carol`, `bob`, `dave` and `erin`, clearing carol's notifications first. The last line is
`reading: N steps passed`.
"""

from __future__ import annotations

from mastodon import MastodonNotFoundError

from common import ScenarioError, Steps, check, main_with_tokens


class Reading(Steps):
    label = "reading"
    users = ("carol", "bob", "dave", "erin")

    def steps(self):
        return [
            ("notifications_made", self.notifications_made),
            ("notification_filters", self.notification_filters),
            ("notifications_paged", self.notifications_paged),
            ("notification_dismiss_owner_only", self.dismiss),
            ("markers", self.markers),
            ("home_paged", self.home_paged),
            ("lists_paged", self.lists_paged),
            ("hashtag_paged", self.hashtag_paged),
            ("search_v2", self.search_v2),
            ("search_v2_statuses", self.search_v2_statuses),
            ("notifications_clear", self.clear),
            ("push_subscription", self.push_subscription),
        ]

    def notifications_made(self) -> None:
        carol, bob, dave, erin = (self.c[n] for n in ("carol", "bob", "dave", "erin"))
        # social.py leaves carol locked: unlocked, a follow is a follow, not a request.
        carol.account_update_credentials(locked=False)
        carol.notifications_clear()
        check(carol.notifications() == [], "notifications left after clear")
        self.post = carol.status_post("carol says hello")
        self.mention = bob.status_post("@carol are you there?")
        erin.status_favourite(self.post["id"])
        dave.account_unfollow(self.id("carol"))
        dave.account_follow(self.id("carol"))
        got = carol.notifications()
        kinds = sorted(n["type"] for n in got)
        check(kinds == ["favourite", "follow", "mention"], f"notification types {kinds}")
        by_type = {n["type"]: n for n in got}
        check(by_type["mention"]["status"]["id"] == self.mention["id"], "the mention's status")
        check(by_type["mention"]["account"]["id"] == self.id("bob"), "the mention's account")
        check(by_type["favourite"]["status"]["id"] == self.post["id"], "the favourite's status")
        check(by_type["follow"]["account"]["id"] == self.id("dave"), "the follow's account")
        one = carol.notifications(id=by_type["follow"]["id"])
        check(one["type"] == "follow", f"a notification by id: {one['type']}")

    def notification_filters(self) -> None:
        carol = self.c["carol"]
        only = carol.notifications(types=["mention", "follow"])
        check(sorted(n["type"] for n in only) == ["follow", "mention"], "types filter")
        without = carol.notifications(exclude_types=["favourite", "follow"])
        check([n["type"] for n in without] == ["mention"], "exclude_types filter")
        from_erin = carol.notifications(account_id=self.id("erin"))
        check([n["type"] for n in from_erin] == ["favourite"], "account_id filter")

    def notifications_paged(self) -> None:
        carol = self.c["carol"]
        everything = [n["id"] for n in carol.notifications()]
        page = carol.notifications(limit=1)
        seen = [n["id"] for n in page]
        while True:
            page = carol.fetch_next(page)
            if not page:
                break
            seen.extend(n["id"] for n in page)
        check(seen == everything, f"paging one by one gave {seen}, expected {everything}")
        newer = carol.notifications(min_id=everything[-1], limit=1)
        check([n["id"] for n in newer] == [everything[-2]], "min_id gives the one just after")

    def dismiss(self) -> None:
        carol, bob = self.c["carol"], self.c["bob"]
        fav = carol.notifications(types=["favourite"])[0]
        try:
            bob.notifications_dismiss(fav["id"])
        except MastodonNotFoundError:
            pass
        else:
            raise ScenarioError("bob dismissed carol's notification")
        check(len(carol.notifications(types=["favourite"])) == 1, "the notification stays")
        carol.notifications_dismiss(fav["id"])
        check(carol.notifications(types=["favourite"]) == [], "dismissed notification is gone")

    def markers(self) -> None:
        carol = self.c["carol"]
        newest = carol.notifications()[0]["id"]
        home = carol.timeline_home(limit=1)[0]["id"]
        saved = carol.markers_set(["home", "notifications"], [home, newest])
        check(saved["notifications"]["last_read_id"] == newest, f"saved markers {saved}")
        version = saved["home"]["version"]
        again = carol.markers_set(["home"], [home])
        check(again["home"]["version"] == version + 1, "the version goes up by one")
        got = carol.markers_get(["home", "notifications"])
        check(got["home"]["last_read_id"] == home, f"read markers {got}")
        check(got["notifications"]["last_read_id"] == newest, f"read markers {got}")

    def home_paged(self) -> None:
        carol, bob = self.c["carol"], self.c["bob"]
        carol.account_follow(self.id("bob"))
        posted = [bob.status_post(f"home page item {i}")["id"] for i in range(7)]
        page = carol.timeline_home(limit=3)
        seen = [s["id"] for s in page]
        while len(seen) < 40:
            page = carol.fetch_next(page)
            if not page:
                break
            seen.extend(s["id"] for s in page)
        check(len(seen) == len(set(seen)), "paging the home timeline repeated statuses")
        mine = [s for s in seen if s in posted]
        check(mine == list(reversed(posted)), f"bob's posts newest first in carol's home: {mine}")

    def lists_paged(self) -> None:
        carol, bob, dave = self.c["carol"], self.c["bob"], self.c["dave"]
        carol.account_follow(self.id("dave"))
        carol.account_unfollow(self.id("erin"))
        made = carol.list_create("reading list")
        check(made["title"] == "reading list", f"list made {made}")
        check(made["replies_policy"] == "list", f"default replies_policy {made}")
        check(made["id"] in [l["id"] for l in carol.lists()], "the new list is not listed")
        try:
            carol.list_accounts_add(made, [self.id("erin")])
            raise ScenarioError("adding an unfollowed account was accepted")
        except MastodonNotFoundError:
            pass
        carol.list_accounts_add(made, [self.id("bob"), self.id("dave")])
        members = sorted(a["id"] for a in carol.list_accounts(made))
        check(members == sorted([self.id("bob"), self.id("dave")]), f"list members {members}")
        check(made["id"] in [l["id"] for l in carol.account_lists(self.id("bob"))],
              "account_lists does not name the list")
        posted = [bob.status_post(f"list item {i}")["id"] for i in range(5)]
        posted += [dave.status_post(f"list item by dave {i}")["id"] for i in range(2)]
        page = carol.timeline_list(made, limit=3)
        seen = [s["id"] for s in page]
        while len(seen) < 40:
            page = carol.fetch_next(page)
            if not page:
                break
            seen.extend(s["id"] for s in page)
        check(len(seen) == len(set(seen)), "paging the list timeline repeated statuses")
        mine = [s for s in seen if s in posted]
        check(mine == list(reversed(posted)), f"the members' posts newest first in the list: {mine}")
        carol.list_accounts_delete(made, [self.id("dave")])
        left = [s["id"] for s in carol.timeline_list(made, limit=40)]
        check(not set(posted[5:]) & set(left), "a removed member's posts stay in the list")
        renamed = carol.list_update(made, "renamed list", replies_policy="none")
        check(renamed["title"] == "renamed list" and renamed["replies_policy"] == "none",
              f"list after update {renamed}")
        carol.list_delete(made)
        check(made["id"] not in [l["id"] for l in carol.lists()], "a deleted list is still listed")

    def hashtag_paged(self) -> None:
        carol, bob, dave = self.c["carol"], self.c["bob"], self.c["dave"]
        tag = f"reading{self.id('bob')[-6:]}"
        posted = [bob.status_post(f"tagged {i} #{tag}")["id"] for i in range(5)]
        dave.status_post(f"unlisted #{tag}", visibility="unlisted")
        page = carol.timeline_hashtag(tag, limit=2)
        seen = [s["id"] for s in page]
        while len(seen) < 20:
            page = carol.fetch_next(page)
            if not page:
                break
            seen.extend(s["id"] for s in page)
        check(seen == list(reversed(posted)), f"the hashtag timeline paged to {seen}, expected {posted[::-1]}")
        local = [s["id"] for s in carol.timeline_hashtag(tag.upper(), local=True, limit=40)]
        check(local == list(reversed(posted)), f"the local hashtag timeline {local}")

    def search_v2(self) -> None:
        carol, bob = self.c["carol"], self.c["bob"]
        found = carol.search_v2(bob.me()["username"], result_type="accounts")
        check(self.id("bob") in [a["id"] for a in found["accounts"]], f"bob not found: {found['accounts']}")
        check(found["statuses"] == [] and found["hashtags"] == [], "result_type=accounts kept other kinds")
        tag = f"searchv{self.id('bob')[-6:]}"
        post = bob.status_post(f"find me by #{tag}")
        tags = carol.search_v2(f"#{tag[:-2]}", result_type="hashtags")["hashtags"]
        check(any(t["name"].lower() == tag for t in tags), f"#{tag} not found by its start: {tags}")
        check(all("history" in t and "url" in t for t in tags), f"hashtags are not Tag objects: {tags}")
        by_url = carol.search_v2(post["url"], resolve=True)["statuses"]
        check([s["id"] for s in by_url] == [post["id"]], f"the status by its URL: {by_url}")

    def search_v2_statuses(self) -> None:
        carol, bob = self.c["carol"], self.c["bob"]
        # Others find bob's public statuses by their words once he opts in.
        bob.account_update_credentials(indexable=True)
        word = f"quokka{self.id('bob')[-6:]}"
        first = bob.status_post(f"{word} likes sunny days")
        second = bob.status_post(f"{word} sunny likes days")
        def ids(q: str, **kw) -> list:
            return [s["id"] for s in carol.search_v2(q, resolve=False, result_type="statuses", **kw)["statuses"]]
        both = ids(f"{word} from:{bob.me()['username']}")
        check(both == [second["id"], first["id"]], f"from: found {both}, expected newest first")
        phrase = ids(f'{word} "likes sunny"')
        check(phrase == [first["id"]], f"the phrase found {phrase}")
        without = ids(f"{word} -days -likes")
        check(without == [], f"the exclusions left {without}")
        older = ids(word, max_id=second["id"])
        check(older == [first["id"]], f"max_id paged to {older}")

    def clear(self) -> None:
        carol = self.c["carol"]
        carol.notifications_clear()
        check(carol.notifications() == [], "clear left notifications")




    def push_subscription(self) -> None:
        """Mastodon.py's push calls: set (with a policy), read, update, delete; the server's key is
        the instance's. The keys are RFC 8291's example receiver's (no delivery happens: carol
        gets no notification while subscribed, and the endpoint is a closed port)."""
        import base64

        def unb64(s: str) -> bytes:
            return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))

        c = self.c["carol"]
        keys = {
            "pubkey": unb64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            "auth": unb64("BTBZMqHH6r4Tts7J_aSIgg"),
        }
        try:
            c.push_subscription()
            raise ScenarioError("a token without a subscription must be a 404")
        except MastodonNotFoundError:
            pass
        sub = c.push_subscription_set(
            "https://127.0.0.1:1/mastodon-py-push",
            keys,
            mention_events=True,
            follow_events=True,
            favourite_events=False,
            policy="followed",
        )
        check(sub["endpoint"] == "https://127.0.0.1:1/mastodon-py-push", f"endpoint: {sub}")
        check(sub["alerts"]["mention"] is True and sub["alerts"]["favourite"] is False, f"alerts: {sub['alerts']}")
        check(sub.get("policy") == "followed", f"policy: {sub}")
        key = c.instance_v2()["configuration"]["vapid"]["public_key"]
        check(sub["server_key"] == key, f"server_key {sub['server_key']} vs the instance's {key}")
        got = c.push_subscription()
        check(got["id"] == sub["id"], f"read back: {got}")
        updated = c.push_subscription_update(follow_events=False, mention_events=True, policy="all")
        check(updated["alerts"]["follow"] is False and updated["alerts"]["mention"] is True, f"updated: {updated}")
        check(updated.get("policy") == "all", f"updated policy: {updated}")
        c.push_subscription_delete()
        try:
            c.push_subscription()
            raise ScenarioError("a deleted subscription must be a 404")
        except MastodonNotFoundError:
            pass


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Reading, "Mastodon.py reading scenario against a fedblog server."))
