"""Helpers of fedblog-testkit/clients/fuzz/run.sh (standard library only).

    python fuzz.py prepare SCHEMA OUT BASE_URL
        Checks that SCHEMA has no remote $ref (every $ref must start with '#') and writes a copy to
        OUT whose only `servers` entry is BASE_URL, so nothing but the fuzzed loopback server can
        be taken as the API's address. Prints the number of operations.

    python fuzz.py seed BASE_URL TOKEN FRIEND_TOKEN STRANGER_TOKEN OUT_TOML --journal JOURNAL
        Fills the fresh server with a little of everything (statuses, a poll, lists, filters,
        media, notifications, a conversation, a follow request, ...) through the API, and writes
        a schemathesis config whose dictionaries hold the ids it got back, bound to the path and
        body parameters that take them, so most fuzzed requests reach existing resources instead
        of a 404. Its requests are journaled like the fuzzer's (a 5xx here is a failure too).

    python fuzz.py report JOURNAL --log SERVER_LOG --alive yes|no [--final-check ok|TEXT] [--overran]
        Reads the journal hooks.py wrote, prints the figures, every failing case (5xx answer,
        timeout, refused or reset connection) with a curl reproduction, and the closing line
        `N passed, M failed`. Exits 1 if anything failed (or the network guard refused a host),
        else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, OrderedDict
import os
import re
import struct
import time
import urllib.error
import urllib.request
import uuid
import zlib
from urllib.parse import urlencode, urlsplit

HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def _refs(node, found):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.append(ref)
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def prepare(args) -> int:
    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    found: list[str] = []
    _refs(schema, found)
    remote = sorted({r for r in found if not r.startswith("#")})
    if remote:
        print(f"fuzz.py: the schema has non-local $ref values, refusing to load it: {remote[:10]}", file=sys.stderr)
        return 1
    base = urlsplit(args.base_url)
    if base.hostname != "127.0.0.1":
        print(f"fuzz.py: base URL {args.base_url} is not on 127.0.0.1", file=sys.stderr)
        return 1
    schema["servers"] = [{"url": args.base_url}]
    operations = 0
    for path, item in schema.get("paths", {}).items():
        if not isinstance(item, dict):
            continue
        # Path- and operation-level `servers` would override the top-level one: drop them.
        item.pop("servers", None)
        for method, operation in item.items():
            if method in HTTP_METHODS and isinstance(operation, dict):
                operation.pop("servers", None)
                operations += 1
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(schema, f)
    print(f"schema: {len(found)} $ref values, all local; {operations} operations; servers -> {args.base_url}")
    return 0


# --- seed -----------------------------------------------------------------------------------------

def _png_1x1() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x80\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


class Seeder:
    """Makes resources through the API; every call is journaled, failures other than 5xx tolerated."""

    def __init__(self, base: str, journal: str | None):
        self.base = base.rstrip("/")
        self.journal = journal
        self.server_errors = 0

    def call(self, token: str, method: str, path: str, *, json_body=None, query=None, multipart=None):
        url = self.base + path + ("?" + urlencode(query, doseq=True) if query else "")
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        data = None
        if json_body is not None:
            data = json.dumps(json_body).encode()
            headers["Content-Type"] = "application/json"
        elif multipart is not None:
            boundary = uuid.uuid4().hex
            parts = []
            for name, (filename, content, ctype) in multipart.items():
                parts.append(
                    f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\n"
                    f"Content-Type: {ctype}\r\n\r\n".encode() + content + b"\r\n"
                )
            data = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        started = time.monotonic()
        status, text, error = None, "", None
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            status, text = exc.code, exc.read().decode("utf-8", "replace")
        except OSError as exc:
            error = f"{type(exc).__name__}: {exc}"
        record = {
            "kind": "response" if error is None else "network_error",
            "time": time.time(),
            "operation": f"{method} {path} (seed)",
            "phase": "seed",
            "method": method,
            "url": url,
            "body": None if data is None or multipart is not None else data.decode(),
            "body_cut": False,
            "curl": _seed_curl(method, url, headers, data if multipart is None else None),
        }
        if error is None:
            record.update(status=status, elapsed=round(time.monotonic() - started, 3), response_body=text[:1000])
        else:
            record["error"] = error
        if self.journal:
            with open(self.journal, "a", encoding="utf-8") as f:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        if error is not None or status >= 500:
            self.server_errors += 1
            print(f"seed: {method} {path} -> {error or status}", file=sys.stderr)
            return None
        if status >= 300:
            print(f"seed: {method} {path} -> {status} {text[:200]}", file=sys.stderr)
            return None
        try:
            return json.loads(text) if text else {}
        except ValueError:
            return {}


def _seed_curl(method, url, headers, data) -> str:
    import shlex

    parts = ["curl", "-sS", "-i", "-X", method]
    for name, value in headers.items():
        parts += ["-H", f"{name}: {value}"]
    if data is not None:
        parts += ["--data-binary", data.decode("utf-8", "backslashreplace")]
    parts.append(url)
    return shlex.join(parts)


def seed(args) -> int:
    s = Seeder(args.base_url, args.journal)
    me, friend, stranger = args.token, args.friend_token, args.stranger_token
    ids: dict[str, list] = {name: [] for name in (
        "account", "status", "poll", "list", "filter_v1", "filter", "filter_keyword", "filter_status",
        "featured_tag", "media", "scheduled", "notification", "group_key", "conversation",
        "notification_request", "tag")}

    def keep(kind, value):
        if value is not None and value not in ids[kind]:
            ids[kind].append(str(value))

    def get_id(obj, key="id"):
        return obj.get(key) if isinstance(obj, dict) else None

    accounts = {}
    for name, token in (("me", me), ("friend", friend), ("stranger", stranger)):
        accounts[name] = s.call(token, "GET", "/api/v1/accounts/verify_credentials") or {}
        keep("account", get_id(accounts[name]))
    my_id, friend_id, stranger_id = (get_id(accounts[n]) for n in ("me", "friend", "stranger"))
    my_acct = accounts["me"].get("acct", "fuzzer")

    # Follows: friend <-> me; me locked afterwards so the stranger's follow stays a request.
    if friend_id:
        s.call(me, "POST", f"/api/v1/accounts/{friend_id}/follow")
    if my_id:
        s.call(friend, "POST", f"/api/v1/accounts/{my_id}/follow")

    # Statuses of mine, with tags, a reply, a poll, media, a scheduled one.
    media = s.call(me, "POST", "/api/v2/media", multipart={"file": ("pixel.png", _png_1x1(), "image/png")})
    keep("media", get_id(media))
    media2 = s.call(me, "POST", "/api/v2/media", multipart={"file": ("pixel2.png", _png_1x1(), "image/png")})
    keep("media", get_id(media2))
    first = s.call(me, "POST", "/api/v1/statuses", json_body={"status": "hello #fuzzing #fedblog https://example.com/page", "visibility": "public"})
    keep("status", get_id(first))
    for text, extra in (
        ("a reply with @" + my_acct, {"in_reply_to_id": get_id(first)} if get_id(first) else {}),
        ("unlisted #fuzzing", {"visibility": "unlisted", "spoiler_text": "cw", "sensitive": True}),
        ("private", {"visibility": "private", "language": "en"}),
        ("with media", {"media_ids": [get_id(media)]} if get_id(media) else {}),
    ):
        keep("status", get_id(s.call(me, "POST", "/api/v1/statuses", json_body={"status": text, **extra})))
    poll_status = s.call(me, "POST", "/api/v1/statuses", json_body={
        "status": "a poll", "poll": {"options": ["yes", "no", "maybe"], "expires_in": 86400, "multiple": True}})
    keep("status", get_id(poll_status))
    if isinstance(poll_status, dict) and isinstance(poll_status.get("poll"), dict):
        keep("poll", poll_status["poll"].get("id"))
    scheduled = s.call(me, "POST", "/api/v1/statuses", json_body={
        "status": "later", "scheduled_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 7 * 86400))})
    keep("scheduled", get_id(scheduled))
    if first and get_id(first):
        s.call(me, "PUT", f"/api/v1/statuses/{get_id(first)}", json_body={"status": "hello again #fuzzing (edited)"})
        s.call(me, "POST", f"/api/v1/statuses/{get_id(first)}/pin")

    # The friend's statuses: a mention, a DM (conversation), a poll I can vote in; I interact.
    friend_public = s.call(friend, "POST", "/api/v1/statuses", json_body={"status": f"hi @{my_acct} #fuzzing"})
    keep("status", get_id(friend_public))
    keep("status", get_id(s.call(friend, "POST", "/api/v1/statuses", json_body={
        "status": f"@{my_acct} a direct message", "visibility": "direct"})))
    friend_poll = s.call(friend, "POST", "/api/v1/statuses", json_body={
        "status": "vote", "poll": {"options": ["a", "b"], "expires_in": 86400}})
    keep("status", get_id(friend_poll))
    if isinstance(friend_poll, dict) and isinstance(friend_poll.get("poll"), dict):
        keep("poll", friend_poll["poll"].get("id"))
    if get_id(friend_public):
        fid = get_id(friend_public)
        for action in ("favourite", "bookmark", "reblog"):
            s.call(me, "POST", f"/api/v1/statuses/{fid}/{action}")
    if get_id(first):
        s.call(friend, "POST", f"/api/v1/statuses/{get_id(first)}/favourite")
        s.call(friend, "POST", f"/api/v1/statuses/{get_id(first)}/reblog")

    # Lists, filters, tags, markers.
    for title in ("friends", "empty"):
        lst = s.call(me, "POST", "/api/v1/lists", json_body={"title": title})
        keep("list", get_id(lst))
    if ids["list"] and friend_id:
        s.call(me, "POST", f"/api/v1/lists/{ids['list'][0]}/accounts", json_body={"account_ids": [friend_id]})
    filt = s.call(me, "POST", "/api/v2/filters", json_body={
        "title": "fuzz filter", "context": ["home", "public", "notifications", "thread", "account"],
        "filter_action": "warn", "keywords_attributes": [{"keyword": "spam", "whole_word": True}]})
    keep("filter", get_id(filt))
    if isinstance(filt, dict):
        for kw in filt.get("keywords") or []:
            keep("filter_keyword", get_id(kw))
    if ids["filter"]:
        fid = ids["filter"][0]
        keep("filter_keyword", get_id(s.call(me, "POST", f"/api/v2/filters/{fid}/keywords", json_body={"keyword": "eggs"})))
        if get_id(friend_public):
            keep("filter_status", get_id(s.call(me, "POST", f"/api/v2/filters/{fid}/statuses", json_body={"status_id": get_id(friend_public)})))
    v1 = s.call(me, "POST", "/api/v1/filters", json_body={"phrase": "ham", "context": ["home"], "whole_word": False})
    keep("filter_v1", get_id(v1))
    for item in s.call(me, "GET", "/api/v1/filters") or []:
        keep("filter_v1", get_id(item))
    for tag in ("fuzzing", "fedblog"):
        keep("tag", tag)
        s.call(me, "POST", f"/api/v1/tags/{tag}/follow")
    keep("featured_tag", get_id(s.call(me, "POST", "/api/v1/featured_tags", json_body={"name": "fuzzing"})))
    s.call(me, "POST", "/api/v1/markers", json_body={"home": {"last_read_id": ids["status"][0] if ids["status"] else "0"}})

    # A follow request (me locked) and a notification request (policy filters strangers).
    s.call(me, "PATCH", "/api/v2/notifications/policy", json_body={"for_not_following": "filter", "for_not_followers": "filter"})
    s.call(me, "PATCH", "/api/v1/accounts/update_credentials", json_body={"locked": True})
    if my_id:
        s.call(stranger, "POST", f"/api/v1/accounts/{my_id}/follow")
    s.call(stranger, "POST", "/api/v1/statuses", json_body={"status": f"@{my_acct} who are you?"})
    s.call(stranger, "POST", "/api/v1/statuses", json_body={"status": f"@{my_acct} psst", "visibility": "direct"})

    # Read back what the server made for me.
    for n in s.call(me, "GET", "/api/v1/notifications", query={"limit": 40}) or []:
        keep("notification", get_id(n))
    grouped = s.call(me, "GET", "/api/v2/notifications", query={"limit": 40}) or {}
    for g in grouped.get("notification_groups", []) if isinstance(grouped, dict) else []:
        keep("group_key", g.get("group_key"))
    for c in s.call(me, "GET", "/api/v1/conversations") or []:
        keep("conversation", get_id(c))
    for r in s.call(me, "GET", "/api/v1/notifications/requests") or []:
        keep("notification_request", get_id(r))

    config = _fuzz_config(ids)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(config)
    print("seed: " + ", ".join(f"{k} {len(v)}" for k, v in ids.items()))
    if s.server_errors:
        print(f"seed: {s.server_errors} request(s) got a server error or no answer; they are in the report", file=sys.stderr)
    return 0


# Which dictionary each parameter takes its real ids from (with probability PROBABILITY; the rest
# are generated as usual, so invalid ids keep being tried too). Path parameters are bound per
# operation (the name `id` means a different resource on each path); body fields globally.
PROBABILITY = 0.75
PATH_BINDINGS = [
    (r"^/api/v1/accounts/\{id\}", "id", "account"),
    (r"^/api/v1/accounts/\{account_id\}/", "account_id", "account"),
    (r"^/api/v1/follow_requests/\{account_id\}/", "account_id", "account"),
    (r"^/api/v1/suggestions/\{account_id\}$", "account_id", "account"),
    (r"^/api/v1/statuses/\{id\}", "id", "status"),
    (r"^/api/v1/statuses/\{id\}/quotes/\{quoting_status_id\}/", "quoting_status_id", "status"),
    (r"^/api/v1/polls/\{id\}", "id", "poll"),
    (r"^/api/v1/lists/\{id\}", "id", "list"),
    (r"^/api/v1/timelines/list/\{list_id\}$", "list_id", "list"),
    (r"^/api/v1/filters/\{id\}$", "id", "filter_v1"),
    (r"^/api/v2/filters/\{id\}$", "id", "filter"),
    (r"^/api/v2/filters/\{filter_id\}/", "filter_id", "filter"),
    (r"^/api/v2/filters/keywords/\{id\}$", "id", "filter_keyword"),
    (r"^/api/v2/filters/statuses/\{id\}$", "id", "filter_status"),
    (r"^/api/v1/featured_tags/\{id\}$", "id", "featured_tag"),
    (r"^/api/v1/tags/\{id\}/", "id", "tag"),
    (r"^/api/v1/tags/\{name\}", "name", "tag"),
    (r"^/api/v1/timelines/tag/\{hashtag\}$", "hashtag", "tag"),
    (r"^/api/v1/media/\{id\}$", "id", "media"),
    (r"^/api/v1/scheduled_statuses/\{id\}$", "id", "scheduled"),
    (r"^/api/v1/notifications/\{id\}", "id", "notification"),
    (r"^/api/v2/notifications/\{group_key\}", "group_key", "group_key"),
    (r"^/api/v1/conversations/\{id\}", "id", "conversation"),
    (r"^/api/v1/notifications/requests/\{id\}", "id", "notification_request"),
]
BODY_BINDINGS = [
    ("body.in_reply_to_id", "status"),
    ("body.status_id", "status"),
    ("body.status_ids[*]", "status"),
    ("body.media_ids[*]", "media"),
    ("body.account_id", "account"),
    ("body.account_ids[*]", "account"),
    ("body.id[*]", "notification_request"),
]


def _toml_str(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def _fuzz_config(ids: dict[str, list]) -> str:
    lines = ["# Written by fedblog-testkit/clients/fuzz/fuzz.py seed: real ids of the seeded resources.", ""]
    present = {k for k, v in ids.items() if v}
    # Top-level parameter bindings must come before any table header.
    body = [(key, kind) for key, kind in BODY_BINDINGS if kind in present]
    if body:
        lines.append("[parameters]")
        for key, kind in body:
            lines.append(f"{_toml_str(key)} = {{ dictionary = {_toml_str(kind)}, probability = {PROBABILITY} }}")
        lines.append("")
    lines.append("[dictionaries]")
    for kind in sorted(present):
        values = ", ".join(_toml_str(v) for v in ids[kind])
        lines.append(f"{kind} = {{ values = [{values}] }}")
    lines.append("")
    for regex, name, kind in PATH_BINDINGS:
        if kind not in present:
            continue
        lines += [
            "[[operations]]",
            f"include-path-regex = {_toml_str(regex)}",
            f"parameters = {{ {_toml_str('path.' + name)} = {{ dictionary = {_toml_str(kind)}, probability = {PROBABILITY} }} }}",
            "",
        ]
    return "\n".join(lines)


def _load(path):
    records = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                records.append(json.loads(line))
    return records


def _query(url: str) -> str:
    return urlsplit(url).query


def _path(url: str) -> str:
    return urlsplit(url).path


def _network_outcome(error: str) -> str:
    if "Timeout" in error or "timed out" in error:
        return "no answer within the request timeout (hang)"
    if "refused" in error.lower() or "NewConnectionError" in error:
        return "connection refused (the server is down)"
    if any(word in error for word in ("RemoteDisconnected", "aborted", "reset", "ChunkedEncoding", "IncompleteRead")):
        return "connection closed without a complete answer (crash?)"
    return error[:160] or "network error"


ANSI = re.compile(r"\x1b\[[0-9;]*m")
TIMESTAMP = re.compile(r"^\S+Z\s+")


def _log_problems(path: str | None) -> tuple[Counter, int, int]:
    """Distinct ERROR and panic lines of the server log, the panics, and the handler panics."""
    problems: Counter = Counter()
    panics = handler_panics = 0
    if not path:
        return problems, 0, 0
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = ANSI.sub("", line).rstrip()
                if " panicked at " in line:
                    panics += 1
                if "a request handler panicked" in line:
                    handler_panics += 1
                if " ERROR " in line or " panicked at " in line:
                    problems[TIMESTAMP.sub("", line)[:400]] += 1
    except OSError:
        pass
    return problems, panics, handler_panics


def report(args) -> int:
    try:
        records = _load(args.journal)
    except FileNotFoundError:
        records = []
    cases = [r for r in records if r["kind"] in ("response", "network_error")]
    guard = [r for r in records if r["kind"] == "guard"]
    failing = [r for r in cases if r["kind"] == "network_error" or r.get("status", 0) >= 500]
    statuses = Counter(r["status"] for r in cases if r["kind"] == "response")
    operations = {r["operation"] for r in cases if r.get("phase") != "seed"}
    seeded = sum(1 for r in cases if r.get("phase") == "seed")
    slow = sorted((r for r in cases if r["kind"] == "response"), key=lambda r: -r["elapsed"])[:3]

    print("== fuzz figures")
    # Operations the server routes: some request with the operation's own method got past a 404.
    served = {r["operation"] for r in cases
              if r.get("phase") != "seed" and r["kind"] == "response" and r["status"] not in (404, 405)
              and r["operation"].split(" ")[0] == r["method"]}
    print(f"operations tested: {len(operations)} ({len(served)} of them answered other than 404 at least once)")
    print(f"cases sent: {len(cases)} ({seeded} of them by the seed step)")
    print("answers by status: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
    if slow:
        print("slowest answers: " + ", ".join(f"{r['method']} {_path(r['url'])} {r['elapsed']:.2f} s" for r in slow))
    if args.seconds is not None:
        print(f"fuzzing time: {args.seconds} s")

    extra_failures = 0
    problems = []
    log_problems, panics, handler_panics = _log_problems(args.log)
    if log_problems:
        print()
        print(f"== ERROR and panic lines in the server log ({sum(log_problems.values())}, {len(log_problems)} distinct)")
        for line, count in log_problems.most_common(40):
            print(f"  {count:5d} x {line}")
    # A handler panic is answered with a 500 (counted above); any other panic (a background task,
    # a worker) has no failing request of its own, unless it took the process down (counted below).
    if panics > handler_panics and args.alive == "yes":
        problems.append(f"{panics - handler_panics} panic(s) in the server log outside request handlers")
        extra_failures += panics - handler_panics
    if guard:
        problems.append(f"the network guard refused {len(guard)} connection(s) to non-loopback hosts: "
                        + ", ".join(sorted({g['host'] for g in guard})))
    if args.alive != "yes":
        problems.append("the server process died during the run (crash); see its log below")
        # A crash that happened between two requests shows no failed case of its own.
        if not any(r["kind"] == "network_error" for r in failing):
            extra_failures += 1
    if args.final_check != "ok":
        problems.append(f"final GET /api/v1/instance did not answer 200: {args.final_check}")
        if args.alive == "yes":
            extra_failures += 1
    if args.overran:
        problems.append("schemathesis overran its time budget and was stopped (a hang?); the journal may miss the last cases")
        extra_failures += 1
    if seeded == len(cases):
        problems.append("the fuzzer sent no request at all (see schemathesis's output above)")
        extra_failures += 1
    elif args.schemathesis_rc not in (None, 0, 1):
        # 0: all passed, 1: failures or errors; anything else is a usage error or a crash of its own.
        problems.append(f"schemathesis itself failed (exit code {args.schemathesis_rc}); see its output above")
        extra_failures += 1
    if args.schemathesis_rc == 1 and not failing and not extra_failures:
        # schemathesis also exits with 1 for errors that are not the server's (an operation it cannot
        # generate data for, a schema problem); only the journal decides, but say so.
        print("note: schemathesis exited with 1, but no 5xx, crash or hang was recorded, "
              "so the step does not fail on it (its own output above tells why)")

    if failing:
        print()
        print(f"== {len(failing)} failing case(s), grouped by operation and outcome")
        groups: OrderedDict[tuple[str, str], list[dict]] = OrderedDict()
        for r in failing:
            outcome = f"HTTP {r['status']}" if r["kind"] == "response" else _network_outcome(r.get("error", ""))
            groups.setdefault((r["operation"], outcome), []).append(r)
        for (operation, outcome), items in groups.items():
            print()
            print(f"--- {operation}: {outcome} ({len(items)} case(s)); the shortest:")
            for r in sorted(items, key=lambda r: len(r["curl"]))[: args.per_group]:
                print(f"  method: {r['method']}")
                print(f"  path:   {_path(r['url'])}")
                print(f"  query:  {_query(r['url']) or '-'}")
                body = r.get("body")
                print(f"  body:   {body if body is not None else '-'}{' [cut]' if r.get('body_cut') else ''}")
                if r["kind"] == "response":
                    print(f"  answer: {r['status']} {r.get('response_body', '')[:300]!r}")
                print(f"  phase:  {r.get('phase')}")
                print(f"  reproduce: {r['curl']}")
                print()

    for p in problems:
        print(f"FAILED: {p}")

    failed = len(failing) + extra_failures
    passed = len(cases) - len(failing)
    if failed or guard:
        if args.log:
            print()
            print(f"----- server log (last {args.log_lines} lines of {args.log}) -----")
            try:
                with open(args.log, encoding="utf-8", errors="replace") as f:
                    lines = f.readlines()
                sys.stdout.writelines(ANSI.sub("", line) for line in lines[-args.log_lines:])
            except OSError as exc:
                print(f"(cannot read it: {exc})")
            print("----- end of server log -----")
    print()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or guard else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("schema")
    p.add_argument("out")
    p.add_argument("base_url")
    sd = sub.add_parser("seed")
    sd.add_argument("base_url")
    sd.add_argument("token")
    sd.add_argument("friend_token")
    sd.add_argument("stranger_token")
    sd.add_argument("out")
    sd.add_argument("--journal")
    r = sub.add_parser("report")
    r.add_argument("journal")
    r.add_argument("--log")
    r.add_argument("--log-lines", type=int, default=200)
    r.add_argument("--alive", choices=("yes", "no"), required=True)
    r.add_argument("--final-check", default="ok")
    r.add_argument("--seconds", type=int)
    r.add_argument("--schemathesis-rc", type=int)
    r.add_argument("--per-group", type=int, default=2)
    r.add_argument("--overran", action="store_true")
    args = parser.parse_args()
    return {"prepare": prepare, "seed": seed, "report": report}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
