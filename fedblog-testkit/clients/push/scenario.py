#!/usr/bin/env python3
"""Web Push scenario: fedblog delivers notifications to a push service, checked by an
independent receiver (receiver.py: py_vapid verifies the VAPID header, http_ece decrypts).

Usage:
    python scenario.py --base-url http://127.0.0.1:PORT --tokens tokens.json

`tokens.json` (written by run.sh) holds five tokens of `alice`, one per subscription
(`alice_all`, `alice_none`, `alice_followed`, `alice_legacy`, `alice_gone`: a push subscription
belongs to an access token), and `bob`'s. When FEDBLOG_VAPID_PRIVATE_KEY is set (run.sh sets
it), the instance's `configuration.vapid.public_key` must be that key's public half in
Mastodon's spelling.

The subscriptions:
- alice_all: policy all, alerts mention and favourite on, follow off (RFC 8291 aes128gcm);
- alice_none: policy none, every alert on: gets nothing;
- alice_followed: policy followed: nothing from bob until alice follows him;
- alice_legacy: subscription[standard]=false, mention on: the older aesgcm encoding;
- alice_gone: mention on; later its push service answers 410, and the subscription goes.

Each check prints a line; the last line is `push: N checks passed`. The first failing check
stops the run with exit code 1.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import time
import traceback
from typing import Any

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from receiver import Message, PushReceiver, Subscription, unb64url

WAIT = 30.0  # seconds a push may take (background job, then the POST)
QUIET = 3.0  # seconds an unexpected push is given to show up before its absence counts
PAYLOAD_KEYS = (
    "access_token",
    "preferred_locale",
    "notification_id",
    "notification_type",
    "icon",
    "title",
    "body",
)


class ScenarioError(Exception):
    """A difference between what the server did and what a Web Push client expects."""


class Scenario:
    def __init__(self, base: str, tokens: dict[str, str]) -> None:
        self.base = base.rstrip("/")
        self.tokens = tokens
        self.passed = 0
        self.http = requests.Session()
        self.receiver = PushReceiver().start()
        self.subs: dict[str, Subscription] = {}

    # --- helpers ------------------------------------------------------------------------------

    def check(self, cond: bool, what: str, detail: Any = "") -> None:
        if not cond:
            raise ScenarioError(f"{what}: {detail}" if detail != "" else what)
        self.passed += 1
        print(f"push: ok  {what}")

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> requests.Response:
        headers = kw.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.request(method, self.base + path, headers=headers, timeout=15, **kw)

    def ok_json(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        r = self.call(method, path, token, **kw)
        if r.status_code != 200:
            raise ScenarioError(f"{method} {path} answered {r.status_code}: {r.text[:500]}")
        return r.json()

    def problems_of(self, sub: Subscription) -> list[str]:
        return [f"{m.path}: {p}" for m in self.receiver.messages(sub) for p in m.problems]

    def exactly(self, sub: Subscription, count: int, why: str) -> list[Message]:
        msgs = self.receiver.wait_for(sub, count, WAIT)
        if count == 0 or len(msgs) == count:
            time.sleep(QUIET)
            msgs = self.receiver.messages(sub)
        self.check(
            len(msgs) == count,
            f"{sub.name}: {count} push message(s) {why}",
            f"got {len(msgs)}: {[(m.status, m.payload) for m in msgs]}",
        )
        return msgs

    # --- steps --------------------------------------------------------------------------------

    def run(self) -> None:
        t = self.tokens
        alice_all = t["alice_all"]

        # The instance's VAPID key, in Mastodon's spelling.
        instance = self.ok_json("GET", "/api/v2/instance")
        server_key = ((instance.get("configuration") or {}).get("vapid") or {}).get("public_key")
        self.check(isinstance(server_key, str) and len(server_key) == 88 and server_key.endswith("="),
                   "configuration.vapid.public_key is a padded base64url point (88 characters)", server_key)
        point = unb64url(server_key)
        self.check(len(point) == 65 and point[0] == 4, "the VAPID key is an uncompressed P-256 point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        configured = os.environ.get("FEDBLOG_VAPID_PRIVATE_KEY")
        if configured:
            scalar = int.from_bytes(unb64url(configured), "big")
            expected = ec.derive_private_key(scalar, ec.SECP256R1()).public_key().public_bytes(
                Encoding.X962, PublicFormat.UncompressedPoint
            )
            self.check(server_key == base64.urlsafe_b64encode(expected).decode(),
                       "the published VAPID key is the configured private key's public half", server_key)
        self.receiver.server_key = point

        r = self.call("GET", "/api/v1/push/subscription", alice_all)
        self.check(r.status_code == 404, "GET /api/v1/push/subscription before subscribing is 404",
                   f"{r.status_code} {r.text[:200]}")

        # Five subscriptions of alice, one per token.
        self.subscribe("alice_all", standard=True, policy="all",
                       alerts={"mention": True, "favourite": True, "follow": False})
        every = {k: True for k in ("mention", "favourite", "follow", "reblog", "status", "poll", "update")}
        self.subscribe("alice_none", standard=True, policy="none", alerts=every)
        self.subscribe("alice_followed", standard=True, policy="followed",
                       alerts={"mention": True, "favourite": True, "follow": True})
        self.subscribe("alice_legacy", standard=False, policy="all", alerts={"mention": True})
        self.subscribe("alice_gone", standard=True, policy="all", alerts={"mention": True})
        s_all, s_none, s_followed, s_legacy, s_gone = (
            self.subs[n] for n in ("alice_all", "alice_none", "alice_followed", "alice_legacy", "alice_gone")
        )

        got = self.ok_json("GET", "/api/v1/push/subscription", alice_all)
        self.check(got.get("endpoint") == s_all.endpoint, "GET subscription: endpoint", got)
        alerts = got.get("alerts") or {}
        self.check(alerts.get("mention") is True and alerts.get("favourite") is True
                   and alerts.get("follow") is False, "GET subscription: alerts as set", alerts)
        self.check(got.get("policy") == "all", "GET subscription: policy", got.get("policy"))
        self.check(got.get("server_key") == server_key,
                   "GET subscription: server_key is configuration.vapid.public_key", got.get("server_key"))
        got = self.ok_json("GET", "/api/v1/push/subscription", t["alice_legacy"])
        self.check(got.get("endpoint") == s_legacy.endpoint and got.get("standard") is False,
                   "each token has its own subscription (alice_legacy: standard false)", got)

        alice = self.ok_json("GET", "/api/v1/accounts/verify_credentials", alice_all)
        bob = self.ok_json("GET", "/api/v1/accounts/verify_credentials", t["bob"])
        mine = self.ok_json("POST", "/api/v1/statuses", alice_all,
                            data={"status": "a post of alice's to favourite", "visibility": "public"})

        # bob follows alice (follow alerts are off or the policy refuses), mentions her and
        # favourites her post.
        self.ok_json("POST", f"/api/v1/accounts/{alice['id']}/follow", t["bob"])
        self.ok_json("POST", "/api/v1/statuses", t["bob"],
                     data={"status": "@alice hello there from bob", "visibility": "public"})
        self.ok_json("POST", f"/api/v1/statuses/{mine['id']}/favourite", t["bob"])

        all_msgs = self.exactly(s_all, 2, "for alice_all: the mention and the favourite, not the follow")
        kinds = sorted(str((m.payload or {}).get("notification_type")) for m in all_msgs)
        self.check(kinds == ["favourite", "mention"], "alice_all got one mention and one favourite", kinds)
        self.check(not self.problems_of(s_all),
                   "alice_all: VAPID verified by py_vapid, aud/exp/sub right, decrypted by http_ece",
                   self.problems_of(s_all))
        self.check(all(m.encoding == "aes128gcm" for m in all_msgs), "standard subscription: aes128gcm",
                   [m.encoding for m in all_msgs])
        self.check(all(m.headers.get("authorization", "").startswith("vapid ") for m in all_msgs),
                   "standard subscription: Authorization: vapid t=...,k=...")

        notifications = self.ok_json("GET", "/api/v1/notifications", alice_all)
        by_type = {}
        for n in notifications:
            if (n.get("account") or {}).get("id") == bob["id"]:
                by_type.setdefault(n["type"], str(n["id"]))
        for m in all_msgs:
            p = m.payload
            missing = [k for k in PAYLOAD_KEYS if k not in p]
            self.check(not missing, f"{p.get('notification_type')} payload has Mastodon's keys", missing)
            kind = p["notification_type"]
            self.check(str(p["notification_id"]) == by_type.get(kind),
                       f"{kind} payload's notification_id is the one GET /api/v1/notifications lists",
                       f"{p['notification_id']} vs {by_type}")
            self.check(p["access_token"] == alice_all, f"{kind} payload's access_token is the subscribing token")
            self.check(isinstance(p["preferred_locale"], str) and p["preferred_locale"] != "",
                       f"{kind} payload's preferred_locale", p["preferred_locale"])
            self.check(isinstance(p["title"], str) and p["title"] != "", f"{kind} payload's title", p["title"])
            self.check(isinstance(p["icon"], str) and p["icon"].startswith("http"),
                       f"{kind} payload's icon is a URL", p["icon"])
            self.check(isinstance(p["body"], str), f"{kind} payload's body is text", p["body"])
            if kind == "mention":
                self.check("hello there from bob" in p["body"], "the mention's body is the status text", p["body"])
            else:
                self.check("a post of alice's" in p["body"], "the favourite's body is the favourited post",
                           p["body"])
        self.check("follow" in by_type, "alice has the follow notification (only its push was off)", by_type)

        legacy = self.exactly(s_legacy, 1, "for alice_legacy: the mention")
        m = legacy[0]
        self.check(m.encoding == "aesgcm", "subscription[standard]=false: Content-Encoding aesgcm", m.encoding)
        self.check(m.headers.get("authorization", "").startswith("WebPush ")
                   and "p256ecdsa=" in m.headers.get("crypto-key", "")
                   and m.headers.get("encryption", "").startswith("salt="),
                   "aesgcm: Authorization WebPush, Crypto-Key dh/p256ecdsa, Encryption salt", m.headers)
        self.check(not m.problems, "aesgcm: VAPID verified by py_vapid and decrypted by http_ece", m.problems)
        self.check(m.payload.get("notification_type") == "mention"
                   and str(m.payload.get("notification_id")) == by_type.get("mention")
                   and m.payload.get("access_token") == t["alice_legacy"],
                   "aesgcm payload: the mention, with alice_legacy's token", m.payload)

        self.exactly(s_none, 0, "for policy none")
        self.exactly(s_followed, 0, "for policy followed from bob, whom alice does not follow")
        gone_msgs = self.exactly(s_gone, 1, "for alice_gone before its push service drops it")
        self.check(gone_msgs[0].status == 201 and not gone_msgs[0].problems,
                   "alice_gone's first push was accepted", gone_msgs[0].problems)

        # alice follows bob; alice_gone's push service now answers 410; bob mentions alice again.
        self.ok_json("POST", f"/api/v1/accounts/{bob['id']}/follow", alice_all)
        self.receiver.answer_gone(s_gone)
        self.ok_json("POST", "/api/v1/statuses", t["bob"],
                     data={"status": "@alice second mention", "visibility": "public"})
        followed = self.exactly(s_followed, 1, "for policy followed once alice follows bob")
        self.check(followed[0].payload.get("notification_type") == "mention" and not followed[0].problems,
                   "policy followed: the mention, verified and decrypted", followed[0].problems)
        gone_msgs = self.exactly(s_gone, 2, "for alice_gone: the second mention, answered 410")
        self.check(gone_msgs[1].status == 410, "the receiver answered 410", gone_msgs[1].status)
        deadline = time.monotonic() + WAIT
        while True:
            r = self.call("GET", "/api/v1/push/subscription", t["alice_gone"])
            if r.status_code == 404 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        self.check(r.status_code == 404, "after a 410, GET /api/v1/push/subscription with that token is 404",
                   f"{r.status_code} {r.text[:200]}")
        r = self.call("GET", "/api/v1/push/subscription", alice_all)
        self.check(r.status_code == 200, "the other tokens' subscriptions stay", r.status_code)

        # A third mention reaches alice_all (now its third message) but not the removed one.
        self.ok_json("POST", "/api/v1/statuses", t["bob"],
                     data={"status": "@alice third mention", "visibility": "public"})
        self.exactly(s_all, 4, "for alice_all: mention, favourite, and the second and third mentions")
        self.check(not self.problems_of(s_all), "alice_all's later pushes verify and decrypt",
                   self.problems_of(s_all))
        self.exactly(s_gone, 2, "for the removed subscription after it went")
        self.exactly(s_followed, 2, "for policy followed: the second and third mentions")
        self.exactly(s_none, 0, "for policy none, at the end")
        legacy = self.exactly(s_legacy, 3, "for alice_legacy: the three mentions")
        self.check(all(not m.problems for m in legacy), "every aesgcm push verifies and decrypts",
                   [m.problems for m in legacy])
        self.check(not self.receiver.stray(), "no request reached the receiver outside a subscription's path",
                   self.receiver.stray())

    def subscribe(self, name: str, standard: bool, policy: str, alerts: dict[str, bool]) -> None:
        sub = self.receiver.subscribe(name)
        form = {
            "subscription[endpoint]": sub.endpoint,
            "subscription[keys][p256dh]": sub.p256dh,
            "subscription[keys][auth]": sub.auth,
            "subscription[standard]": "true" if standard else "false",
            "data[policy]": policy,
        }
        for kind, on in alerts.items():
            form[f"data[alerts][{kind}]"] = "true" if on else "false"
        got = self.ok_json("POST", "/api/v1/push/subscription", self.tokens[name], data=form)
        self.check(got.get("endpoint") == sub.endpoint and got.get("policy") == policy
                   and got.get("standard") is standard
                   and all((got.get("alerts") or {}).get(k) is v for k, v in alerts.items()),
                   f"POST /api/v1/push/subscription ({name}) answers the subscription", got)
        self.subs[name] = sub


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--tokens", required=True)
    args = ap.parse_args()
    with open(args.tokens) as f:
        tokens = json.load(f)
    scenario = Scenario(args.base_url, tokens)
    try:
        scenario.run()
    except ScenarioError as err:
        print(f"push: FAILED after {scenario.passed} checks: {err}", file=sys.stderr)
        return 1
    except Exception:  # noqa: BLE001 - anything else is a failure too, with its traceback
        traceback.print_exc()
        print(f"push: FAILED after {scenario.passed} checks (an unexpected error)", file=sys.stderr)
        return 1
    finally:
        scenario.receiver.stop()
    print(f"push: {scenario.passed} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
