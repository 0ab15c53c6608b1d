#!/usr/bin/env python3
"""Real-client scenario for filters, driven through Mastodon.py's own filter methods: a v2 filter
with keywords marks matching statuses in the home timeline (`filtered`), a `hide` filter takes them
out of the home timeline and out of the notifications, keywords and statuses are managed one at a
time, and v1 filters are made, read, changed and deleted.

Usage:
    python filters.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes; this scenario uses `carol` (the reader) and `dave` (the
author) and removes every filter it made. The last line is `filters: N steps passed`.
"""

from __future__ import annotations

from common import ScenarioError, Steps, check, main_with_tokens


class Filters(Steps):
    label = "filters"
    users = ("carol", "dave")

    def steps(self):
        return [
            ("v2_filter_marks_home_statuses", self.marks),
            ("hide_filter_leaves_home", self.hide_home),
            ("hide_filter_leaves_notifications", self.hide_notifications),
            ("keywords_one_at_a_time", self.keywords),
            ("statuses_of_a_filter", self.statuses),
            ("v1_filters", self.v1),
            ("bad_filter_refused", self.bad),
            ("clean_up", self.clean_up),
        ]

    def home_entry(self, status_id: str) -> dict | None:
        for s in self.c["carol"].timeline_home(limit=40):
            if s["id"] == status_id:
                return s
        return None

    def marks(self) -> None:
        carol, dave = self.c["carol"], self.c["dave"]
        carol.account_follow(self.id("dave"))
        self.warn = carol.create_filter_v2(
            title="fruit",
            context=["home"],
            filter_action="warn",
            keywords_attributes=[{"keyword": "pineapple", "whole_word": True}],
        )
        check(self.warn["keywords"][0]["keyword"] == "pineapple", f"made {self.warn}")
        self.fruit = dave.status_post("Pineapple on pizza, anyone?")
        entry = self.home_entry(self.fruit["id"])
        check(entry is not None, "the status is in carol's home timeline")
        check(
            len(entry["filtered"]) == 1 and entry["filtered"][0]["filter"]["id"] == self.warn["id"],
            f"the status carries the filter: {entry['filtered']}",
        )
        check(entry["filtered"][0]["keyword_matches"] == ["Pineapple"], f"{entry['filtered']}")
        plain = dave.status_post("plain toast")
        check(self.home_entry(plain["id"])["filtered"] == [], "an unmatched status has filtered []")
        names = [f["title"] for f in carol.filters_v2()]
        check(names == ["fruit"], f"filters_v2 lists {names}")

    def hide_home(self) -> None:
        carol = self.c["carol"]
        updated = carol.update_filter_v2(self.warn["id"], filter_action="hide")
        check(updated["filter_action"] == "hide", f"updated {updated}")
        check(self.home_entry(self.fruit["id"]) is None, "a hide filter takes the status out of home")
        again = carol.filter_v2(self.warn["id"])
        check(again["title"] == "fruit" and again["filter_action"] == "hide", f"{again}")

    def hide_notifications(self) -> None:
        carol, dave = self.c["carol"], self.c["dave"]
        carol.create_filter_v2(
            title="spam",
            context=["notifications"],
            filter_action="hide",
            keywords_attributes=[{"keyword": "lottery", "whole_word": True}],
        )
        spam = dave.status_post(f"@{self.me['carol']['acct']} you won the lottery")
        ham = dave.status_post(f"@{self.me['carol']['acct']} lunch tomorrow?")
        seen = [n["status"]["id"] for n in carol.notifications(types=["mention"], limit=40) if n["status"]]
        check(ham["id"] in seen, "the other mention is notified")
        check(spam["id"] not in seen, "the mention matching the hide filter is left out")

    def keywords(self) -> None:
        carol = self.c["carol"]
        f = carol.create_filter_v2(title="words", context=["public"], filter_action="warn")
        k = carol.add_filter_keyword_v2(f["id"], "mango", whole_word=False)
        check(k["keyword"] == "mango" and k["whole_word"] is False, f"added {k}")
        listed = carol.filter_keywords_v2(f["id"])
        check([x["id"] for x in listed] == [k["id"]], f"listed {listed}")
        carol.delete_filter_keyword_v2(k["id"])
        check(carol.filter_keywords_v2(f["id"]) == [], "the keyword is gone")

    def statuses(self) -> None:
        carol, dave = self.c["carol"], self.c["dave"]
        f = carol.create_filter_v2(title="this one", context=["home"], filter_action="warn")
        target = dave.status_post("filter me by id")
        fs = carol.add_filter_status_v2(f["id"], target["id"])
        check(fs["status_id"] == target["id"], f"added {fs}")
        check([x["id"] for x in carol.filter_statuses_v2(f["id"])] == [fs["id"]], "listed")
        check(carol.filter_status_v2(fs["id"])["status_id"] == target["id"], "read back")
        entry = self.home_entry(target["id"])
        check(entry["filtered"][0]["status_matches"] == [target["id"]], f"{entry['filtered']}")
        carol.delete_filter_status_v2(fs["id"])
        check(carol.filter_statuses_v2(f["id"]) == [], "the filter status is gone")

    def v1(self) -> None:
        carol = self.c["carol"]
        f = carol.filter_create("durian", ["home", "notifications"], irreversible=True, whole_word=False)
        check(f["phrase"] == "durian" and f["irreversible"] is True, f"made {f}")
        check(f["id"] in [x["id"] for x in carol.filters()], "filters() lists it")
        check(carol.filter(f["id"])["context"] == ["home", "notifications"], "filter() reads it")
        changed = carol.filter_update(f["id"], phrase="durians", irreversible=False)
        check(changed["phrase"] == "durians" and changed["irreversible"] is False, f"{changed}")
        carol.filter_delete(f["id"])
        check(f["id"] not in [x["id"] for x in carol.filters()], "the v1 filter is gone")

    def bad(self) -> None:
        from mastodon import MastodonAPIError

        try:
            self.c["carol"].create_filter_v2(title="", context=["home"], filter_action="warn")
        except MastodonAPIError as e:
            check("422" in str(e) or "Unprocessable" in str(e), f"unexpected error {e}")
            return
        raise ScenarioError("a filter without a title was accepted")

    def clean_up(self) -> None:
        carol = self.c["carol"]
        for f in carol.filters_v2():
            carol.delete_filter_v2(f["id"])
        check(carol.filters_v2() == [], "every filter removed")


if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Filters, "Mastodon.py filters scenario against a fedblog server."))
