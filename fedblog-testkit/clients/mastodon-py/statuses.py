#!/usr/bin/env python3
"""Real-client scenario for statuses: a thread with its context, visibility, favourites,
reblogs, bookmarks, pins, edits with their history, a poll and its votes, media attachments
(upload, post, describe by editing, redraft, delete), scheduled posts and deletion, driven
through Mastodon.py.

Usage:
    python statuses.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes for social.py; this scenario runs after it and relies
on what social.py left: `fan03` follows `alice`, `erin` follows `bob`, `erin` does not follow
`alice`. The last line is `statuses: N steps passed`.
"""

from __future__ import annotations

import struct
import zlib
from datetime import datetime, timedelta, timezone

from mastodon import MastodonAPIError, MastodonNotFoundError

from common import ScenarioError, Steps, check, expect_404, main_with_tokens


def png(width: int, height: int) -> bytes:
    """A valid RGB PNG of the given size (a gradient)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    rows = b"".join(
        b"\x00" + b"".join(bytes((x * 255 // width, y * 255 // height, 128)) for x in range(width))
        for y in range(height)
    )
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class Statuses(Steps):
    label = "statuses"
    users = ("alice", "bob", "erin", "fan03")

    def steps(self):
        return [
            ("thread_context", self.thread_context),
            ("private_visibility", self.private_visibility),
            ("favourite", self.favourite),
            ("reblog", self.reblog),
            ("bookmarks_paginated", self.bookmarks),
            ("pin", self.pin),
            ("edit_and_history", self.edit_and_history),
            ("poll_vote", self.poll_vote),
            ("poll_edit", self.poll_edit),
            ("media_post_and_edit", self.media),
            ("media_redraft_and_delete", self.media_redraft),
            ("scheduled_post", self.scheduled),
            ("delete", self.delete),
        ]

    def thread_context(self) -> None:
        a, b = self.c["alice"], self.c["bob"]
        self.root = a.status_post("the start of a thread")
        self.reply = b.status_post("a reply from bob", in_reply_to_id=self.root["id"])
        self.reply2 = a.status_post("alice answers", in_reply_to_id=self.reply["id"])
        ctx = b.status_context(self.reply["id"])
        anc = [s["id"] for s in ctx["ancestors"]]
        desc = [s["id"] for s in ctx["descendants"]]
        check(anc == [self.root["id"]], f"ancestors {anc}")
        check(desc == [self.reply2["id"]], f"descendants {desc}")
        root = b.status(self.root["id"])
        check(root["replies_count"] == 1, f"replies_count {root['replies_count']}")
        expect_404(lambda: b.status_post("reply to nothing", in_reply_to_id="1"), "reply to a missing status")

    def private_visibility(self) -> None:
        a = self.c["alice"]
        post = a.status_post("followers only", visibility="private")
        seen = self.c["fan03"].status(post["id"])
        check(seen["visibility"] == "private", "the follower does not see the private post")
        expect_404(lambda: self.c["erin"].status(post["id"]), "a non-follower reading a private post")
        ctx = self.c["erin"].status_context(self.root["id"])
        check(post["id"] not in [s["id"] for s in ctx["descendants"]], "private post leaked in context")

    def favourite(self) -> None:
        b = self.c["bob"]
        st = b.status_favourite(self.root["id"])
        check(st["favourited"] is True and st["favourites_count"] == 1, f"favourite answered {st['favourited']}, {st['favourites_count']}")
        by = [x["id"] for x in self.c["alice"].status_favourited_by(self.root["id"])]
        check(by == [self.id("bob")], f"favourited_by {by}")
        favs = [s["id"] for s in b.favourites()]
        check(self.root["id"] in favs, "root missing from bob's favourites")
        st = b.status_unfavourite(self.root["id"])
        check(st["favourited"] is False and st["favourites_count"] == 0, "unfavourite did not undo")

    def reblog(self) -> None:
        b = self.c["bob"]
        rb = b.status_reblog(self.root["id"])
        check(rb["reblog"] is not None and rb["reblog"]["id"] == self.root["id"], "reblog does not wrap the original")
        again = b.status_reblog(self.root["id"])
        check(again["id"] == rb["id"], "reblogging twice made a second reblog")
        home = [s["id"] for s in self.c["erin"].timeline_home(limit=40)]
        check(rb["id"] in home, "bob's reblog missing from his follower erin's home")
        by = [x["id"] for x in self.c["alice"].status_reblogged_by(self.root["id"])]
        check(by == [self.id("bob")], f"reblogged_by {by}")
        st = b.status_unreblog(self.root["id"])
        check(st["reblogged"] is False, "unreblog did not undo")
        expect_404(lambda: b.status(rb["id"]), "the undone reblog")

    def bookmarks(self) -> None:
        e = self.c["erin"]
        posts = [self.c["alice"].status_post(f"bookmark me {i}") for i in range(5)]
        for p in posts:
            e.status_bookmark(p["id"])
        page = e.bookmarks(limit=2)
        seen: list[str] = []
        while page:
            seen.extend(s["id"] for s in page)
            check(len(seen) <= 20, "bookmarks keep paginating")
            page = e.fetch_next(page)
        want = [p["id"] for p in reversed(posts)]
        check(seen == want, f"bookmarks walked {seen}, want {want}")
        st = e.status_unbookmark(posts[0]["id"])
        check(st["bookmarked"] is False, "unbookmark did not undo")

    def pin(self) -> None:
        a = self.c["alice"]
        st = a.status_pin(self.root["id"])
        check(st["pinned"] is True, "pin answered pinned false")
        pinned = [s["id"] for s in self.c["erin"].account_statuses(self.id("alice"), pinned=True)]
        check(pinned == [self.root["id"]], f"pinned statuses {pinned}")
        try:
            a.status_pin(self.reply["id"])
            raise ScenarioError("pinning someone else's status was accepted")
        except MastodonAPIError as e:
            check(e.args[1] == 422, f"pinning bob's status gave {e.args[1]}, want 422")
        st = a.status_unpin(self.root["id"])
        check(st["pinned"] is False, "unpin answered pinned true")

    def edit_and_history(self) -> None:
        a = self.c["alice"]
        post = a.status_post("first version")
        edited = a.status_update(post["id"], "second version", spoiler_text="cw")
        check(edited["edited_at"] is not None, "edited_at missing after an edit")
        check("second version" in edited["content"], "edit did not change the content")
        history = a.status_history(post["id"])
        texts = [h["content"] for h in history]
        check(len(history) == 2 and "first version" in texts[0] and "second version" in texts[1], f"history {texts}")
        src = a.status_source(post["id"])
        check(src["text"] == "second version" and src["spoiler_text"] == "cw", f"source {src}")
        try:
            self.c["bob"].status_update(post["id"], "not mine")
            raise ScenarioError("bob edited alice's status")
        except MastodonNotFoundError:
            pass

    def poll_vote(self) -> None:
        a, b = self.c["alice"], self.c["bob"]
        poll = a.make_poll(["tea", "coffee", "water"], expires_in=3600)
        post = a.status_post("what do you drink?", poll=poll)
        pid = post["poll"]["id"]
        check([o["title"] for o in post["poll"]["options"]] == ["tea", "coffee", "water"], "poll options")
        voted = b.poll_vote(pid, [1])
        check(voted["voted"] is True and voted["own_votes"] == [1], f"vote answered {voted}")
        check(voted["options"][1]["votes_count"] == 1 and voted["votes_count"] == 1, "vote not counted")
        try:
            b.poll_vote(pid, [0])
            raise ScenarioError("a second vote was accepted")
        except MastodonAPIError as e:
            check(e.args[1] == 422, f"second vote gave {e.args[1]}, want 422")
        seen = self.c["erin"].poll(pid)
        check(seen["voted"] is False and seen["votes_count"] == 1, f"erin sees {seen}")
        try:
            self.c["erin"].poll_vote(pid, [0, 2])
            raise ScenarioError("two choices on a single-choice poll were accepted")
        except MastodonAPIError as e:
            check(e.args[1] == 422, f"two choices gave {e.args[1]}, want 422")

    def poll_edit(self) -> None:
        a, b = self.c["alice"], self.c["bob"]
        post = a.status_post("pick one", poll=a.make_poll(["red", "blue"], expires_in=3600))
        b.poll_vote(post["poll"]["id"], [0])
        same = a.status_update(post["id"], "pick one!", poll=a.make_poll(["red", "blue"], expires_in=3600))
        check(same["poll"]["votes_count"] == 1, f"re-sending the same poll lost its votes: {same['poll']}")
        changed = a.status_update(post["id"], "pick one!", poll=a.make_poll(["red", "green", "blue"], expires_in=3600))
        titles = [o["title"] for o in changed["poll"]["options"]]
        check(titles == ["red", "green", "blue"] and changed["poll"]["votes_count"] == 0, f"changed poll {changed['poll']}")
        history = a.status_history(post["id"])
        polls = [[o["title"] for o in h["poll"]["options"]] for h in history]
        check(polls[0] == ["red", "blue"] and polls[-1] == ["red", "green", "blue"], f"history polls {polls}")
        gone = a.status_update(post["id"], "no poll now")
        check(gone["poll"] is None, "an edit without a poll kept the poll")

    def media(self) -> None:
        a = self.c["alice"]
        img = a.media_post(png(64, 48), mime_type="image/png", description="a gradient", focus=(0.5, -0.25))
        check(img["type"] == "image" and img["url"], f"image upload {img}")
        check(img["meta"]["original"]["width"] == 64 and img["meta"]["original"]["height"] == 48, f"meta {img['meta']}")
        check(img["meta"]["focus"] == {"x": 0.5, "y": -0.25}, f"focus {img['meta'].get('focus')}")
        # Audio is processed in the background: Mastodon.py polls GET /api/v1/media/:id.
        audio = a.media_post(b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(2048), mime_type="audio/mpeg", synchronous=True)
        check(audio["type"] == "audio" and audio["url"], f"audio upload {audio}")
        try:
            a.status_post("images and audio", media_ids=[img, audio])
            raise ScenarioError("an image and an audio file were posted together")
        except MastodonAPIError as e:
            check(e.args[1] == 422, f"mixing image and audio gave {e.args[1]}, want 422")
        heard = a.status_post("listen", media_ids=[audio])
        check(heard["media_attachments"][0]["type"] == "audio", "the audio post lost its media")
        img = a.media_update(img["id"], description="a colour gradient")
        check(img["description"] == "a colour gradient", "media_update did not describe the upload")
        img2 = a.media_post(png(32, 32), mime_type="image/png")
        post = a.status_post("", media_ids=[img2, img])
        check([m["id"] for m in post["media_attachments"]] == [img2["id"], img["id"]], "media order")
        only_media = [s["id"] for s in self.c["erin"].account_statuses(self.id("alice"), only_media=True)]
        check(post["id"] in only_media, "only_media misses the post with media")
        check(all(s["media_attachments"] for s in self.c["erin"].account_statuses(self.id("alice"), only_media=True)), "only_media shows a post without media")
        try:
            self.c["bob"].status_post("stolen", media_ids=[img["id"]])
            raise ScenarioError("bob posted alice's media")
        except MastodonAPIError as e:
            check(e.args[1] == 422, f"posting someone else's media gave {e.args[1]}, want 422")
        edited = a.status_update(post["id"], "described", media_attributes=[
            a.generate_media_edit_attributes(img["id"], description="edited description"),
        ])
        check([m["id"] for m in edited["media_attachments"]] == [img["id"]], "the edit kept the second image")
        check(edited["media_attachments"][0]["description"] == "edited description", "media_attributes ignored")
        history = a.status_history(post["id"])
        check(len(history[0]["media_attachments"]) == 2 and len(history[-1]["media_attachments"]) == 1, "history media")
        self.media_post_id = post["id"]
        self.media_img = img["id"]

    def media_redraft(self) -> None:
        a = self.c["alice"]
        gone = a.status_delete(self.media_post_id)
        check([m["id"] for m in gone["media_attachments"]] == [self.media_img], "delete did not answer the media")
        redraft = a.status_post(gone["text"], media_ids=[self.media_img])
        check(redraft["media_attachments"][0]["id"] == self.media_img, "redraft could not reuse the media")
        a.status_delete(redraft["id"], delete_media=True)
        expect_404(lambda: a.media(self.media_img), "media deleted with delete_media")

    def scheduled(self) -> None:
        a = self.c["alice"]
        when = datetime.now(timezone.utc) + timedelta(minutes=30)
        sch = a.status_post("later", scheduled_at=when)
        check("scheduled_at" in sch and sch["params"]["text"] == "later", f"scheduled answer {sch}")
        ids = [s["id"] for s in a.scheduled_statuses()]
        check(sch["id"] in ids, "scheduled status not listed")
        moved = a.scheduled_status_update(sch["id"], when + timedelta(minutes=10))
        check(moved["scheduled_at"] != sch["scheduled_at"], "rescheduling did not move it")
        a.scheduled_status_delete(sch["id"])
        expect_404(lambda: a.scheduled_status(sch["id"]), "a deleted scheduled status")
        try:
            a.status_post("too soon", scheduled_at=datetime.now(timezone.utc) + timedelta(minutes=1))
            raise ScenarioError("a post scheduled one minute ahead was accepted")
        except MastodonAPIError as e:
            check(e.args[1] == 422, f"scheduling too soon gave {e.args[1]}, want 422")

    def delete(self) -> None:
        b, a = self.c["bob"], self.c["alice"]
        b.status_favourite(self.root["id"])
        b.status_bookmark(self.root["id"])
        gone = a.status_delete(self.root["id"])
        check(gone["text"] == "the start of a thread", "delete did not answer the source text")
        expect_404(lambda: b.status(self.root["id"]), "the deleted status")
        check(self.root["id"] not in [s["id"] for s in b.favourites()], "deleted status still in favourites")
        check(self.root["id"] not in [s["id"] for s in b.bookmarks()], "deleted status still in bookmarks")
        ctx = b.status_context(self.reply["id"])
        check(ctx["ancestors"] == [], "a deleted ancestor still shows in context")




if __name__ == "__main__":
    raise SystemExit(main_with_tokens(Statuses, "Mastodon.py statuses scenario against a fedblog server."))
