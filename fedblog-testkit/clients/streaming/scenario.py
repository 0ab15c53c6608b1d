#!/usr/bin/env python3
"""Real-client scenario for streaming: Mastodon.py's server-sent-events streams, the `websockets`
library on the multiplexed WebSocket /api/v1/streaming, and the health check.

Usage:
    python scenario.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` is the file run.sh writes (username -> bearer token) for three fresh accounts:
`alice` (the listener, who follows bob), `bob` (the author) and `carol` (who follows nobody).

Every step causes events through Mastodon.py's REST calls and asserts what each stream carries;
every wait has a timeout of a few seconds. A failing step is reported and the next steps still
run (each posts statuses of its own); the exit code is 1 if any check failed. Each check prints
one line (`stream_user: update ok`); the last line is `streaming scenario: all N checks passed`.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
import traceback
import uuid
import warnings
from typing import Any, Callable
from urllib.parse import quote, urlsplit

import requests
from mastodon import Mastodon, StreamListener
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

WAIT = 5.0  # seconds any expected event may take to arrive
QUIET = 1.5  # seconds an unexpected event is given to show up before its absence counts


class ScenarioError(Exception):
    """A mismatch between what the server did and what a streaming client expects."""


def check(cond: bool, msg: str) -> None:
    if not cond:
        raise ScenarioError(msg)


def brief(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# --- Mastodon.py's server-sent events -------------------------------------------------------------


class Recorder(StreamListener):
    """A StreamListener that records every event it is handed (name, payload), for waiting on."""

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label
        self.events: list[tuple[str, Any]] = []
        self.aborted: Exception | None = None
        self.cond = threading.Condition()

    def on_any_event(self, name, data=None, for_stream=None):  # noqa: D401 - Mastodon.py's hook
        with self.cond:
            self.events.append((name, data))
            self.cond.notify_all()

    def on_unknown_event(self, name, unknown_event=None, for_stream=None):
        pass  # recorded by on_any_event; the steps say which events are wrong

    def on_abort(self, err):
        with self.cond:
            self.aborted = err
            self.cond.notify_all()

    def seen(self) -> str:
        with self.cond:
            names = [f"{n}({payload_id(d)})" for n, d in self.events]
        return ", ".join(names[-12:]) or "nothing"

    def wait_for(self, what: str, pred: Callable[[str, Any], bool], timeout: float = WAIT) -> Any:
        """The payload of the first event matching `pred`, waiting up to `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for name, data in self.events:
                    if pred(name, data):
                        return data
                if self.aborted is not None:
                    raise ScenarioError(
                        f"{self.label}: the stream was aborted ({self.aborted!r}) before {what}"
                    )
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ScenarioError(
                        f"{self.label}: no {what} within {timeout:g} s (got: {self.seen()})"
                    )
                self.cond.wait(left)

    def matching(self, pred: Callable[[str, Any], bool]) -> list[tuple[str, Any]]:
        with self.cond:
            return [(n, d) for n, d in self.events if pred(n, d)]


def payload_id(data: Any) -> str:
    if isinstance(data, dict):
        return str(data.get("id", "?"))
    return "" if data is None else str(data)


def is_event(name: str, status_id: str) -> Callable[[str, Any], bool]:
    """Matches event `name` about the status `status_id` (a status payload, or the id of a delete)."""

    def pred(n: str, data: Any) -> bool:
        if n != name:
            return False
        if name == "delete":
            return str(data) == str(status_id)
        return isinstance(data, dict) and str(data.get("id")) == str(status_id)

    return pred


def about(status_id: str) -> Callable[[str, Any], bool]:
    """Matches any event naming the status `status_id`: as payload, a delete, a notification's
    or a conversation's status."""

    def pred(n: str, data: Any) -> bool:
        if not isinstance(data, dict):
            return data is not None and str(data) == str(status_id)
        if str(data.get("id")) == str(status_id):
            return True
        for key in ("status", "last_status"):
            inner = data.get(key)
            if isinstance(inner, dict) and str(inner.get("id")) == str(status_id):
                return True
        return False

    return pred


def close_sse(handle: Any) -> None:
    """handle.close(), first shutting the socket down: Mastodon.py's close() closes the response
    while the handle's thread is blocked reading it, and closing a buffered reader waits for that
    read, that is for the next heartbeat (15 s). A shut-down socket wakes the reader at once."""
    handle.closed = True  # what close() sets first: the thread takes the end as asked for
    raw = getattr(handle.connection, "raw", None)
    sock = getattr(getattr(raw, "connection", None), "sock", None)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    handle.close()


def thread_died(args: threading.ExceptHookArgs) -> None:
    """A stream thread's exception in one line (the step that waits on it reports the failure)."""
    print(f"(a stream thread ended with {args.exc_type.__name__}: {args.exc_value})", file=sys.stderr)


class Scenario:
    def __init__(self, base: str, tokens: dict[str, str]) -> None:
        self.base = base
        self.host = urlsplit(base).netloc
        self.tokens = tokens
        self.session = requests.Session()
        self.session.trust_env = False  # loopback only: no proxy from the environment
        self.c = {
            name: Mastodon(
                access_token=tokens[name],
                api_base_url=base,
                request_timeout=30,
                session=self._session(),
            )
            for name in ("alice", "bob", "carol")
        }
        self.anon = Mastodon(api_base_url=base, request_timeout=30, session=self._session())
        self.me = {name: api.account_verify_credentials() for name, api in self.c.items()}
        self.checks = 0
        self.failures: list[str] = []
        self.handles: list[tuple[str, Any]] = []
        self.sockets: list[ClientConnection] = []
        self.run_id = uuid.uuid4().hex[:8]

    def _session(self) -> requests.Session:
        s = requests.Session()
        s.trust_env = False
        return s

    def id(self, name: str) -> str:
        return str(self.me[name]["id"])

    def ok(self, line: str) -> None:
        self.checks += 1
        print(line, flush=True)

    def tag(self, what: str) -> str:
        return f"{what}{self.run_id}"

    # --- running ------------------------------------------------------------------------------

    def run(self) -> int:
        steps: list[tuple[str, Callable[[], None]]] = [
            ("health", self.health),
            ("setup", self.setup),
            ("sse_open", self.sse_open),
            ("sse_update", self.sse_update),
            ("sse_mention", self.sse_mention),
            ("sse_edit", self.sse_edit),
            ("sse_delete", self.sse_delete),
            ("sse_private", self.sse_private),
            ("sse_direct", self.sse_direct),
            ("sse_filters_changed", self.sse_filters_changed),
            ("sse_close", self.sse_close),
            ("ws_subscribe", self.ws_subscribe),
            ("ws_errors", self.ws_errors),
            ("ws_unsubscribe", self.ws_unsubscribe),
            ("ws_access_token", self.ws_access_token),
        ]
        skip_sse = False
        try:
            for name, fn in steps:
                if skip_sse and name.startswith("sse_") and name != "sse_close":
                    continue  # the streams did not open
                try:
                    fn()
                except Exception as e:  # noqa: BLE001 - report any failure with its step
                    self.failures.append(f"{name}: {e}")
                    print(f"FAILED step {name}: {e}", file=sys.stderr, flush=True)
                    if not isinstance(e, ScenarioError):
                        traceback.print_exc()
                    if name == "setup":
                        break  # every later step needs the follow and the lists
                    skip_sse = skip_sse or name == "sse_open"
        finally:
            self.close_all()
        if self.failures:
            print(
                f"streaming scenario: {len(self.failures)} step(s) failed, {self.checks} checks passed:",
                file=sys.stderr,
            )
            for f in self.failures:
                print(f"  - {f}", file=sys.stderr)
            return 1
        print(f"streaming scenario: all {self.checks} checks passed")
        return 0

    def close_all(self) -> None:
        for _, handle in self.handles:
            try:
                close_sse(handle)
            except Exception:  # noqa: BLE001 - closing what is left after a failure
                pass
        self.handles.clear()
        for ws in self.sockets:
            try:
                ws.close()
            except Exception:  # noqa: BLE001
                pass
        self.sockets.clear()

    # --- 0: health ------------------------------------------------------------------------------

    def health(self) -> None:
        r = self.session.get(f"{self.base}/api/v1/streaming/health", timeout=10)
        check(r.status_code == 200, f"GET /api/v1/streaming/health: status {r.status_code}")
        check(r.text == "OK", f"GET /api/v1/streaming/health: body {r.text!r}, expected 'OK'")
        check(self.anon.stream_healthy(), "Mastodon.stream_healthy() is False")
        self.ok("health: 200 OK")
        # A stream that needs an account refuses an anonymous request before streaming anything.
        r = self.session.get(f"{self.base}/api/v1/streaming/user", timeout=10, stream=True)
        try:
            check(r.status_code == 401, f"anonymous GET /api/v1/streaming/user: status {r.status_code}, expected 401")
        finally:
            r.close()
        self.ok("health: anonymous user stream 401 ok")

    # --- setup: alice follows bob and lists him; bob has a list of his own -------------------------

    def setup(self) -> None:
        alice, bob = self.c["alice"], self.c["bob"]
        rel = alice.account_follow(self.id("bob"))
        check(rel["following"], f"alice follows bob: {brief(rel)}")
        self.alice_list = alice.list_create(f"authors {self.run_id}")
        alice.list_accounts_add(self.alice_list["id"], [self.id("bob")])
        members = [str(a["id"]) for a in alice.list_accounts(self.alice_list["id"])]
        check(members == [self.id("bob")], f"alice's list members {members}")
        self.bob_list = bob.list_create(f"bob's own {self.run_id}")
        self.ok("setup: alice follows bob, bob on alice's list")

    # --- 1: Mastodon.py's SSE streams --------------------------------------------------------------

    def open_stream(self, label: str, start: Callable[[Recorder], Any]) -> Recorder:
        rec = Recorder(label)
        handle = start(rec)
        self.handles.append((label, handle))
        # run_async handles connect on their own thread: wait until the response has come.
        deadline = time.monotonic() + WAIT
        while handle.connection is None or handle.reconnecting:
            if rec.aborted is not None:
                raise ScenarioError(f"{label}: the stream was aborted: {rec.aborted!r}")
            if not handle.is_alive():
                raise ScenarioError(f"{label}: the stream's thread ended before it connected")
            if time.monotonic() > deadline:
                raise ScenarioError(f"{label}: not connected within {WAIT:g} s")
            time.sleep(0.05)
        return rec

    def sse_open(self) -> None:
        alice, carol = self.c["alice"], self.c["carol"]
        self.hashtag = self.tag("sse")
        self.s_user = self.open_stream("stream_user(alice)", lambda r: alice.stream_user(r, run_async=True))
        self.s_notif = self.open_stream(
            "stream_user_notifications(alice)", lambda r: alice.stream_user_notifications(r, run_async=True)
        )
        self.s_carol = self.open_stream("stream_user(carol)", lambda r: carol.stream_user(r, run_async=True))
        self.s_public = self.open_stream(
            "stream_public(anonymous)", lambda r: self.anon.stream_public(r, run_async=True)
        )
        self.s_local = self.open_stream(
            "stream_public(local=True)", lambda r: alice.stream_public(r, run_async=True, local=True)
        )
        self.s_tag = self.open_stream(
            f"stream_hashtag({self.hashtag})",
            lambda r: alice.stream_hashtag(self.hashtag, r, run_async=True),
        )
        self.s_list = self.open_stream(
            "stream_list(alice's list)", lambda r: alice.stream_list(self.alice_list["id"], r, run_async=True)
        )
        self.s_direct = self.open_stream("stream_direct(alice)", lambda r: alice.stream_direct(r, run_async=True))
        self.ok(f"sse: {len(self.handles)} streams connected")

    def sse_update(self) -> None:
        bob = self.c["bob"]
        text = f"hello streams #{self.hashtag}"
        self.post = bob.status_post(text, visibility="public")
        sid = str(self.post["id"])
        for rec, label in (
            (self.s_user, "stream_user: update ok"),
            (self.s_public, "stream_public: update ok"),
            (self.s_local, "stream_public(local=True): update ok"),
            (self.s_tag, "stream_hashtag: update ok"),
            (self.s_list, "stream_list: update ok"),
        ):
            status = rec.wait_for(f"update of {sid}", is_event("update", sid))
            check(str(status["account"]["id"]) == self.id("bob"), f"{rec.label}: update's account {brief(status['account'])}")
            check(self.hashtag in status["content"], f"{rec.label}: update's content {status['content']!r}")
            check(status["visibility"] == "public", f"{rec.label}: update's visibility {status['visibility']!r}")
            self.ok(label)
        # An update of the home feed is not a notification.
        time.sleep(0.3)
        got = self.s_notif.matching(about(sid))
        check(got == [], f"stream_user_notifications got events for a plain post: {brief(got)}")
        got = self.s_carol.matching(about(sid))
        check(got == [], f"stream_user(carol), who does not follow bob, got {brief(got)}")
        self.ok("stream_user_notifications/stream_user(carol): no update for a followed-by-others post ok")

    def sse_mention(self) -> None:
        bob = self.c["bob"]
        mention = bob.status_post(f"@alice are you listening? {self.run_id}", visibility="public")
        sid = str(mention["id"])

        def is_mention(n: str, data: Any) -> bool:
            return (
                n == "notification"
                and isinstance(data, dict)
                and isinstance(data.get("status"), dict)
                and str(data["status"]["id"]) == sid
            )

        for rec, label in (
            (self.s_user, "stream_user: notification ok"),
            (self.s_notif, "stream_user_notifications: notification ok"),
        ):
            n = rec.wait_for(f"notification for the mention {sid}", is_mention)
            check(n["type"] == "mention", f"{rec.label}: notification type {n['type']!r}")
            check(str(n["account"]["id"]) == self.id("bob"), f"{rec.label}: notification account {brief(n['account'])}")
            check(n.get("id"), f"{rec.label}: notification without id")
            self.ok(label)

    def sse_edit(self) -> None:
        bob = self.c["bob"]
        sid = str(self.post["id"])
        new_text = f"edited for the streams #{self.hashtag}"
        bob.status_update(sid, new_text)
        for rec, label in (
            (self.s_user, "stream_user: status.update ok"),
            (self.s_local, "stream_public(local=True): status.update ok"),
        ):
            status = rec.wait_for(f"status.update of {sid}", is_event("status.update", sid))
            check("edited for the streams" in status["content"], f"{rec.label}: edited content {status['content']!r}")
            check(status.get("edited_at"), f"{rec.label}: status.update without edited_at")
            self.ok(label)

    def sse_delete(self) -> None:
        bob = self.c["bob"]
        sid = str(self.post["id"])
        bob.status_delete(sid)
        for rec, label in (
            (self.s_user, "stream_user: delete ok"),
            (self.s_public, "stream_public: delete ok"),
            (self.s_tag, "stream_hashtag: delete ok"),
            (self.s_list, "stream_list: delete ok"),
        ):
            rec.wait_for(f"delete of {sid}", is_event("delete", sid))
            self.ok(label)

    def sse_private(self) -> None:
        bob, carol = self.c["bob"], self.c["carol"]
        private = bob.status_post(f"followers only #{self.hashtag}", visibility="private")
        sid = str(private["id"])
        # alice follows bob: her home feed gets it.
        status = self.s_user.wait_for(f"update of the private {sid}", is_event("update", sid))
        check(status["visibility"] == "private", f"stream_user: visibility {status['visibility']!r}")
        self.ok("stream_user: private post reaches the follower ok")
        # Markers posted after it: events are streamed in order, so once a marker is in, the
        # private status would have been too.
        marker = bob.status_post(f"public marker #{self.hashtag}", visibility="public")
        carol_marker = carol.status_post(f"carol's marker {self.run_id}", visibility="public")
        self.s_public.wait_for("update of the public marker", is_event("update", str(marker["id"])))
        self.s_tag.wait_for("update of the public marker", is_event("update", str(marker["id"])))
        self.s_carol.wait_for("update of carol's own marker", is_event("update", str(carol_marker["id"])))
        time.sleep(QUIET)
        for rec in (self.s_carol, self.s_public, self.s_local, self.s_tag):
            got = rec.matching(about(sid))
            check(got == [], f"{rec.label} got the private status {sid}: {brief(got)}")
        self.ok("stream_user(carol)/stream_public/stream_hashtag: private post not delivered ok")

    def sse_direct(self) -> None:
        bob = self.c["bob"]
        dm = bob.status_post(f"@alice a secret {self.run_id}", visibility="direct")
        sid = str(dm["id"])

        def is_conversation(n: str, data: Any) -> bool:
            return (
                n == "conversation"
                and isinstance(data, dict)
                and isinstance(data.get("last_status"), dict)
                and str(data["last_status"]["id"]) == sid
            )

        conv = self.s_direct.wait_for(f"conversation with {sid}", is_conversation)
        accounts = sorted(str(a["id"]) for a in conv["accounts"])
        check(accounts == [self.id("bob")], f"stream_direct: conversation accounts {accounts}")
        self.ok("stream_direct: conversation ok")
        time.sleep(0.3)
        for rec in (self.s_public, self.s_carol):
            got = rec.matching(about(sid))
            check(got == [], f"{rec.label} got the direct status {sid}: {brief(got)}")
        self.ok("stream_public/stream_user(carol): direct post not delivered ok")

    def sse_filters_changed(self) -> None:
        alice = self.c["alice"]
        alice.create_filter_v2(
            title=f"streams {self.run_id}",
            context=["home"],
            filter_action="warn",
            keywords_attributes=[{"keyword": f"nothing{self.run_id}", "whole_word": True}],
        )
        self.s_user.wait_for("filters_changed", lambda n, d: n == "filters_changed")
        check(self.s_user.aborted is None, f"stream_user aborted on filters_changed: {self.s_user.aborted!r}")
        self.ok("stream_user: filters_changed ok")

    def sse_close(self) -> None:
        handles = list(self.handles)
        self.handles.clear()
        for _, handle in handles:
            close_sse(handle)
        alive = [label for label, handle in handles if handle.join(3) or handle.is_alive()]
        check(alive == [], f"stream threads still running 3 s after handle.close(): {alive}")
        self.ok(f"sse: {len(handles)} handles closed")

    # --- 2: the WebSocket, with the `websockets` library ---------------------------------------------

    def ws_url(self, **params: str) -> str:
        query = "&".join(f"{k}={quote(v, safe='')}" for k, v in params.items())
        return f"ws://{self.host}/api/v1/streaming" + (f"?{query}" if query else "")

    def ws_connect(self, url: str, **kwargs: Any) -> ClientConnection:
        ws = connect(url, open_timeout=WAIT, close_timeout=2, proxy=None, **kwargs)
        self.sockets.append(ws)
        return ws

    @staticmethod
    def ws_send(ws: ClientConnection, **message: str) -> None:
        ws.send(json.dumps(message))

    def ws_collect(
        self, ws: ClientConnection, label: str, done: Callable[[list[dict]], bool], timeout: float = WAIT
    ) -> list[dict]:
        """Messages read until `done(messages)` holds; fails after `timeout` seconds."""
        got: list[dict] = []
        deadline = time.monotonic() + timeout
        while not done(got):
            left = deadline - time.monotonic()
            if left <= 0:
                raise ScenarioError(f"{label}: timed out after {timeout:g} s; got {brief(got, 800)}")
            try:
                text = ws.recv(timeout=left)
            except TimeoutError:
                continue
            check(isinstance(text, str), f"{label}: a binary frame {brief(text)}")
            try:
                got.append(json.loads(text))
            except ValueError:
                raise ScenarioError(f"{label}: a frame that is not JSON: {brief(text)}") from None
        return got

    def ws_error(self, ws: ClientConnection, label: str) -> dict:
        """The next error message on `ws` (events before it are kept in self.ws_backlog)."""
        msgs = self.ws_collect(ws, label, lambda got: bool(got) and "error" in got[-1])
        self.ws_backlog.extend(msgs[:-1])
        err = msgs[-1]
        check(isinstance(err.get("status"), int), f"{label}: error without a numeric status: {brief(err)}")
        check(isinstance(err["error"], str) and err["error"], f"{label}: error without a message: {brief(err)}")
        return err

    def ws_subscribe(self) -> None:
        bob = self.c["bob"]
        token = self.tokens["alice"]
        self.ws_backlog: list[dict] = []
        self.ws_tag = self.tag("ws")
        ws = self.ws = self.ws_connect(self.ws_url(), subprotocols=[token])
        check(ws.subprotocol == token, f"the socket's subprotocol {ws.subprotocol!r} is not the token offered")
        self.ok("websocket: token as subprotocol, echoed ok")
        self.ws_send(ws, type="subscribe", stream="user")
        self.ws_send(ws, type="subscribe", stream="public:local")
        self.ws_send(ws, type="subscribe", stream="hashtag", tag=self.ws_tag)
        # A subscription that fails answers an error; requests are handled in order, so once it
        # is in, the ones before it are in place. It is the list of another account: 404.
        self.ws_send(ws, type="subscribe", stream="list", list=str(self.bob_list["id"]))
        err = self.ws_error(ws, "subscribing to bob's list")
        check(err["status"] == 404, f"subscribing to another account's list: {brief(err)}, expected status 404")
        self.ok("websocket: subscribe to another account's list -> 404 ok")

        post = bob.status_post(f"over the socket #{self.ws_tag}", visibility="public")
        sid = str(post["id"])
        want = {("user",), ("public:local",), ("hashtag", self.ws_tag)}

        def streams_of(msgs: list[dict]) -> set[tuple[str, ...]]:
            return {
                tuple(m.get("stream") or ())
                for m in msgs
                if m.get("event") == "update" and json.loads(m.get("payload") or "{}").get("id") == sid
            }

        msgs = self.ws_collect(ws, f"updates of {sid} on 3 streams", lambda got: want <= streams_of(got))
        for m in msgs:
            check(set(m) >= {"stream", "event", "payload"}, f"a message missing fields: {brief(m)}")
            check(isinstance(m["stream"], list), f"'stream' is not an array: {brief(m)}")
            check(isinstance(m["payload"], str), f"'payload' is not a JSON string: {brief(m)}")
        for m in msgs:
            if m["event"] != "update":
                continue
            status = json.loads(m["payload"])
            check(isinstance(status, dict) and {"id", "content", "account", "visibility"} <= set(status),
                  f"{m['stream']}: payload is not a status: {brief(m['payload'])}")
            if status["id"] == sid:
                check(status["account"]["id"] == self.id("bob"), f"{m['stream']}: status account {brief(status['account'])}")
                check(self.ws_tag in status["content"], f"{m['stream']}: status content {status['content']!r}")
        sent = [
            tuple(m["stream"])
            for m in msgs
            if m["event"] == "update" and json.loads(m["payload"]).get("id") == sid
        ]
        check(len(sent) == len(set(sent)), f"the status was sent twice on a stream: {sent}")
        self.ok('websocket: update on ["user"], ["public:local"], ["hashtag","%s"] ok' % self.ws_tag)

        # A delete is sent with the plain id as payload.
        bob.status_delete(sid)
        msgs = self.ws_collect(
            ws,
            f"deletes of {sid}",
            lambda got: {("user",), ("public:local",), ("hashtag", self.ws_tag)}
            <= {tuple(m.get("stream") or ()) for m in got if m.get("event") == "delete" and m.get("payload") == sid},
        )
        self.ok("websocket: delete with the id as payload ok")

    def ws_errors(self) -> None:
        ws = self.ws
        # An anonymous socket may listen to public streams, not to `user`.
        anon = self.ws_connect(self.ws_url())
        check(anon.subprotocol is None, f"an anonymous socket got subprotocol {anon.subprotocol!r}")
        self.ws_send(anon, type="subscribe", stream="user")
        self.ws_backlog = []
        err = self.ws_error(anon, "anonymous subscribe to user")
        check(err["status"] == 401, f"anonymous subscribe to user: {brief(err)}, expected status 401")
        self.ok("websocket: anonymous subscribe to user -> 401 ok")
        self.ws_send(anon, type="subscribe", stream="public:local")
        self.ws_send(anon, type="subscribe", stream="no-such-stream")
        err = self.ws_error(anon, "subscribe to an unknown stream")
        check(err["status"] == 400, f"subscribe to an unknown stream: {brief(err)}, expected status 400")
        self.ok("websocket: subscribe to an unknown stream -> 400 ok")
        post = self.c["carol"].status_post(f"anonymous readers welcome {self.run_id}", visibility="public")
        msgs = self.ws_collect(
            anon,
            "public:local update on the anonymous socket",
            lambda got: any(
                m.get("stream") == ["public:local"] and m.get("event") == "update"
                and json.loads(m.get("payload") or "{}").get("id") == str(post["id"])
                for m in got
            ),
        )
        self.ok("websocket: anonymous socket gets public:local ok")
        anon.close()
        # The user stream needs a token at connection too: the handshake is refused.
        try:
            bad = self.ws_connect(self.ws_url(stream="user"))
        except InvalidStatus as e:
            status = e.response.status_code
            check(status == 401, f"anonymous ?stream=user handshake: status {status}, expected 401")
        else:
            bad.close()
            raise ScenarioError("an anonymous ?stream=user handshake was accepted")
        self.ok("websocket: anonymous ?stream=user handshake -> 401 ok")
        # Drain what the authenticated socket got meanwhile (carol's post reached public:local).
        self.ws_send(ws, type="subscribe", stream="no-such-stream")
        self.ws_error(ws, "draining the first socket")

    def ws_unsubscribe(self) -> None:
        ws, bob = self.ws, self.c["bob"]
        self.ws_send(ws, type="unsubscribe", stream="hashtag", tag=self.ws_tag)
        self.ws_send(ws, type="subscribe", stream="no-such-stream")
        self.ws_backlog = []
        self.ws_error(ws, "the barrier after unsubscribing")
        post = bob.status_post(f"after the unsubscribe #{self.ws_tag}", visibility="public")
        sid = str(post["id"])

        def updates(msgs: list[dict]) -> list[tuple[str, ...]]:
            return [
                tuple(m.get("stream") or ())
                for m in msgs
                if m.get("event") == "update" and json.loads(m.get("payload") or "{}").get("id") == sid
            ]

        msgs = self.ws_collect(
            ws, f"updates of {sid} after unsubscribing", lambda got: {("user",), ("public:local",)} <= set(updates(got))
        )
        # Give a hashtag message time to show up.
        deadline = time.monotonic() + QUIET
        while (left := deadline - time.monotonic()) > 0:
            try:
                msgs.append(json.loads(ws.recv(timeout=left)))
            except TimeoutError:
                break
        hashtag = [m for m in msgs if (m.get("stream") or [None])[0] == "hashtag"]
        check(hashtag == [], f"hashtag messages after unsubscribing: {brief(hashtag)}")
        self.ok("websocket: unsubscribe hashtag -> no more hashtag messages ok")
        ws.close()

    def ws_access_token(self) -> None:
        carol, bob = self.c["carol"], self.c["bob"]
        ws = self.ws_connect(self.ws_url(stream="user", access_token=self.tokens["carol"]))
        check(ws.subprotocol is None, f"a socket that offered none got subprotocol {ws.subprotocol!r}")
        # bob mentions carol: the notification comes on her user stream, opened with ?stream=user.
        mention = bob.status_post(f"@carol over the socket {self.run_id}", visibility="public")
        sid = str(mention["id"])

        def notified(msgs: list[dict]) -> bool:
            for m in msgs:
                if m.get("event") == "notification" and m.get("stream") == ["user"]:
                    n = json.loads(m["payload"])
                    if (n.get("status") or {}).get("id") == sid:
                        check(n["type"] == "mention", f"?access_token= socket: notification type {n['type']!r}")
                        return True
            return False

        self.ws_collect(ws, f"carol's notification for {sid}", notified)
        own = carol.status_post(f"carol on the socket {self.run_id}", visibility="unlisted")
        self.ws_collect(
            ws,
            "carol's own update",
            lambda got: any(
                m.get("event") == "update" and m.get("stream") == ["user"]
                and json.loads(m["payload"]).get("id") == str(own["id"])
                for m in got
            ),
        )
        self.ok("websocket: ?access_token= with ?stream=user ok")
        # A filter change: `filters_changed` on the user stream, without a payload (as Mastodon).
        carol.create_filter_v2(
            title=f"socket {self.run_id}",
            context=["home"],
            filter_action="warn",
            keywords_attributes=[{"keyword": f"nothing{self.run_id}", "whole_word": True}],
        )
        msgs = self.ws_collect(
            ws, "filters_changed", lambda got: any(m.get("event") == "filters_changed" for m in got)
        )
        m = next(m for m in msgs if m.get("event") == "filters_changed")
        check(m.get("stream") == ["user"], f"filters_changed on stream {m.get('stream')!r}")
        check(m.get("payload") in (None, ""), f"filters_changed with a payload: {brief(m)}")
        self.ok("websocket: filters_changed on [\"user\"] ok")
        ws.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--tokens", required=True, help="JSON file: username -> bearer token")
    args = ap.parse_args(argv)
    # A Mastodon.py warning (an endpoint or version it does not expect) is a failure.
    warnings.filterwarnings("error", module=r"mastodon(\.|$)")
    threading.excepthook = thread_died
    with open(args.tokens, encoding="utf-8") as f:
        tokens = json.load(f)
    missing = [n for n in ("alice", "bob", "carol") if n not in tokens]
    if missing:
        print(f"streaming scenario: tokens for {missing} missing from {args.tokens}", file=sys.stderr)
        return 2
    return Scenario(args.base_url.rstrip("/"), tokens).run()


if __name__ == "__main__":
    sys.exit(main())
